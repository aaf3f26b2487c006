"""Embedding precision chosen by what the device can do (issue 24 item 6): bfloat16 only where
the CPU has native bfloat16 (AVX-512 BF16 or AMX), float32 otherwise even when bfloat16 was asked
for, with one warning line saying why, and the choice shown by ``ragdx cache info``."""

from __future__ import annotations

import warnings

import pytest

import ragdx.embed as embed
from ragdx.embed import Embedder, EmbedderConfig, cache_info, choose_dtype


@pytest.fixture
def no_native_bf16(monkeypatch):
    monkeypatch.setattr(embed, "cpu_bfloat16_flags", lambda: [])


@pytest.fixture
def native_bf16(monkeypatch):
    monkeypatch.setattr(embed, "cpu_bfloat16_flags", lambda: ["avx512_bf16"])


def test_bfloat16_runs_in_float32_on_a_cpu_without_it_and_says_why(no_native_bf16):
    for asked in ("bfloat16", "auto"):
        choice = choose_dtype(asked)
        assert (choice.requested, choice.dtype) == (asked, "float32")
        assert "avx512_bf16" in choice.reason and "amx_bf16" in choice.reason
    assert choose_dtype("float32").dtype == "float32"


def test_bfloat16_and_auto_run_in_bfloat16_where_the_cpu_has_it(native_bf16):
    assert choose_dtype("bfloat16").dtype == choose_dtype("auto").dtype == "bfloat16"
    assert "avx512_bf16" in choose_dtype("auto").reason
    assert choose_dtype("float32").dtype == "float32"  # never chosen over an explicit float32


def test_where_the_cpu_flags_are_unknown_torch_decides(monkeypatch):
    monkeypatch.setattr(embed, "cpu_bfloat16_flags", lambda: None)
    monkeypatch.setattr(embed, "_torch_cpu_bf16", lambda: False)
    assert choose_dtype("bfloat16").dtype == "float32" and "torch" in choose_dtype("bfloat16").reason
    monkeypatch.setattr(embed, "_torch_cpu_bf16", lambda: True)
    assert choose_dtype("bfloat16").dtype == "bfloat16"


def test_the_cache_key_follows_the_dtype_used_not_the_one_asked(no_native_bf16):
    fp32 = Embedder(cache_dir=None)
    asked = Embedder(cache_dir=None, dtype="bfloat16")
    # float32 vectors are float32 vectors: they share the cache with the float32 embedder
    assert asked.model_id == fp32.model_id and asked.precision.dtype == "float32"
    assert asked.to_dict()["dtype"] == "bfloat16"  # a saved embedder chooses again where it is loaded
    assert EmbedderConfig(dtype="auto").dtype == "auto"


def test_native_bfloat16_is_cached_apart(native_bf16):
    assert Embedder(cache_dir=None, dtype="auto").model_id.endswith("#bfloat16")


@pytest.mark.slow
def test_the_model_loads_in_float32_with_one_warning_line_when_bfloat16_cannot_be_native(no_native_bf16):
    import torch

    asked = Embedder(cache_dir=None, dtype="bfloat16")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = asked._load()
    ours = [str(w.message) for w in caught if "bfloat16" in str(w.message)]
    assert len(ours) == 1 and "\n" not in ours[0] and "float32" in ours[0]
    assert next(model.parameters()).dtype == torch.float32


def test_cache_info_shows_what_bfloat16_runs_in_here(no_native_bf16, tmp_path):
    info = cache_info(tmp_path)
    assert info["bfloat16"]["runs_in"] == "float32" and "no native bfloat16" in info["bfloat16"]["reason"]


def test_auto_keeps_float32_on_a_gpu_where_bfloat16_was_measured_slower(monkeypatch):
    # an H100 ran MiniLM's questions at 0.83-0.89x float32's rate in bfloat16 (results/embed_dtype.md):
    # auto must not choose what was measured slower; bfloat16 by name is still the user's to ask for
    monkeypatch.setattr(embed, "_torch_cuda_bf16", lambda device: True)
    auto = choose_dtype("auto", "cuda")
    assert auto.dtype == "float32" and "GPU" in auto.reason
    assert choose_dtype("bfloat16", "cuda").dtype == "bfloat16"
    monkeypatch.setattr(embed, "_torch_cuda_bf16", lambda device: False)
    assert choose_dtype("bfloat16", "cuda:0").dtype == "float32"


@pytest.mark.slow
def test_float32_asked_runs_in_float32_even_for_a_model_saved_in_float16(tmp_path):
    import torch

    model = Embedder(cache_dir=None)._load()
    model.half().save(str(tmp_path / "half"))
    loaded = Embedder(cache_dir=None, model_path=str(tmp_path / "half"), dtype="float32")._load()
    assert next(loaded.parameters()).dtype == torch.float32  # as its cache key says
