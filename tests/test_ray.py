"""The Ray executor: records identical to the local executor's, resume, --rerun-failed, errors.

A real Ray instance runs on this machine (``ray.init(address="local", num_cpus=2)``, one node;
the two-node cluster started with ``ray start`` is in ``tests/test_ray_cluster.py``). The
systems at the top are importable as ``tests.test_ray:<name>`` by the Ray workers, which start
in this directory. Also here: Ray Data embedding (``ragdx.embed_ray``) on that instance.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ragdx.errors import RagdxError
from ragdx.rag.rundir import read_manifest, read_run
from ragdx.rag.runner import run
from tests.test_runner import make_dataset

REPO = Path(__file__).resolve().parents[1]

pytest.importorskip("ray", reason="the Ray executor's tests need the ray extra (pip install 'ragdx[ray]')")

CITIES = ["Arlen", "Bexmoor", "Corvale", "Dunmere", "Elsfield", "Farrow", "Glenholt", "Harwick"]


def flaky_answer(query: str) -> str:
    """Fails on queries whose number is odd while the marker file exists (named by an env var)."""
    marker = os.environ.get("RAGDX_TEST_FLAKY_MARKER")
    number = int(query.rsplit("#", 1)[1])
    if marker and Path(marker).exists() and number % 2:
        raise RuntimeError(f"flaky failure on {number}")
    return f"answer {number} from pid-independent code"


def worker_pid(query: str) -> str:
    return str(os.getpid())


@pytest.fixture(scope="module")
def ray_local():
    import ray

    env = {"PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1", "OMP_WAIT_POLICY": "passive"}
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": env})
    try:
        yield ray
    finally:
        ray.shutdown()


def pipeline_setup(tmp: Path, n: int = 24) -> tuple[Path, Path]:
    """A CPU-bound pipeline (keyword overlap + extractive reader) over a small corpus, and a
    dataset whose queries ask about its documents."""
    docs = {f"city-{c.lower()}": (f"{c} is a town of {1000 + 37 * i} people. The mayor of {c} is "
                                  f"{CITIES[(i + 3) % len(CITIES)]} Smith. {c} lies on the river Ous{i}.")
            for i, c in enumerate(CITIES)}
    (tmp / "corpus.json").write_text(json.dumps(docs), encoding="utf-8")
    spec = {"name": "kw-extractive", "corpus": str(tmp / "corpus.json"), "top_k": 3,
            "chunker": {"type": "whole_document"}, "retriever": {"type": "keyword"},
            "generator": {"type": "extractive"}}
    (tmp / "pipeline.yaml").write_text(json.dumps(spec), encoding="utf-8")  # JSON is YAML
    dataset = tmp / "dataset"
    dataset.mkdir()
    lines = []
    questions = ("How many people live in {c}?", "Who is the mayor of {c}?", "Which river does {c} lie on?")
    for k in range(n):
        c = CITIES[k % len(CITIES)]
        lines.append(json.dumps({
            "id": f"q{k:03d}", "group_id": f"g{k // 3}", "sql_template_id": "t1", "text_template_id": "x1",
            "style": "short", "schema": "Town", "table": "Town", "params": {"Town.Name": c}, "sql": "SELECT 1",
            "query": questions[k % 3].format(c=c) + f" #{k}", "answer_columns": ["Mayor"],
            "answer_rows": [["x"]], "answer_text": "x", "answer_kind": "single"}))
    (dataset / "records.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tmp / "pipeline.yaml", dataset


def _records(run_dir: Path) -> list[dict]:
    # everything but the timings, which no two runs share
    return [{k: v for k, v in o.to_dict().items() if k != "latency_s"} for o in read_run(run_dir)]


@pytest.mark.slow
def test_pipeline_records_match_the_local_executor(ray_local, tmp_path):
    from ragdx.rag.executor_ray import ray_system_for
    from ragdx.rag.resolve import SystemRequest

    spec, dataset = pipeline_setup(tmp_path)
    request = SystemRequest(spec, dataset=dataset)
    local = run(request.build(), dataset, tmp_path / "local", progress=False)
    system, concurrency = ray_system_for(request, workers=2, concurrency=4)
    on_ray = run(system, dataset, tmp_path / "ray", concurrency=concurrency, progress=False)
    assert (local.ok, on_ray.ok, on_ray.failed) == (24, 24, 0)
    assert system.build_s is not None and system._actors == []  # built once each, then stopped
    assert _records(tmp_path / "ray") == _records(tmp_path / "local")
    assert any(r["answer"] for r in _records(tmp_path / "ray"))
    # the same identity: a run started locally can be resumed on Ray and back
    assert (read_manifest(tmp_path / "ray").system == read_manifest(tmp_path / "local").system)
    # one line per record: nothing was answered twice
    assert len((tmp_path / "ray" / "results.jsonl").read_text().splitlines()) == 24


@pytest.mark.slow
def test_resume_and_rerun_failed_on_ray(ray_local, tmp_path, monkeypatch):
    from ragdx.rag.executor_ray import ray_system_for
    from ragdx.rag.resolve import request_from_options

    dataset = make_dataset(tmp_path / "data", 20)
    marker = tmp_path / "fail-odd"
    marker.touch()
    monkeypatch.setenv("RAGDX_TEST_FLAKY_MARKER", str(marker))
    ray_local.shutdown()  # workers must see the marker variable: a fresh instance from this env
    ray_local.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
                   runtime_env={"env_vars": {"PYTHONPATH": str(REPO), "RAGDX_TEST_FLAKY_MARKER": str(marker)}})

    def ray_run(**kw):
        system, conc = ray_system_for(request_from_options(callable_="tests.test_ray:flaky_answer"), workers=2)
        return run(system, dataset, tmp_path / "run", concurrency=conc, progress=False, **kw)

    first = ray_run(limit=8)
    assert (first.ok, first.failed, first.pending) == (4, 4, 12)
    second = ray_run()  # resume: only the 12 never sent
    assert (second.attempted, second.ok, second.failed, second.pending) == (12, 10, 10, 0)
    marker.unlink()
    third = ray_run(rerun_failed=True)
    assert (third.attempted, third.ok, third.failed) == (10, 20, 0)
    lines = [json.loads(x) for x in (tmp_path / "run" / "results.jsonl").read_text().splitlines()]
    assert len(lines) == 30  # 20 first attempts + 10 retries, never a success sent twice
    failed_before = [o for o in lines[:20] if o["error"]]
    assert all("flaky failure" in o["error"] for o in failed_before) and len(failed_before) == 10
    # and a local run of the same callable agrees record for record
    local = run(__import__("ragdx.rag.systems", fromlist=["CallableSystem"]).CallableSystem(
        "tests.test_ray:flaky_answer"), dataset, tmp_path / "local", progress=False)
    assert local.ok == 20
    assert _records(tmp_path / "run") == _records(tmp_path / "local")


@pytest.mark.slow
def test_cli_runs_on_ray_workers(ray_local, tmp_path):
    from typer.testing import CliRunner

    from ragdx.cli import app

    dataset = make_dataset(tmp_path / "data", 12)
    result = CliRunner().invoke(app, ["run", "-d", str(dataset), "-o", str(tmp_path / "run"), "--executor", "ray",
                                      "--workers", "2", "--callable", "tests.test_ray:worker_pid",
                                      "--no-progress"])
    assert result.exit_code == 0, result.output
    pids = {o.answer for o in read_run(tmp_path / "run")}
    assert len(read_run(tmp_path / "run")) == 12
    assert str(os.getpid()) not in pids and 1 <= len(pids) <= 2  # answered by the actors, not here


def test_executor_options_are_checked(tmp_path):
    dataset = make_dataset(tmp_path / "data", 2)

    def ragdx(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "ragdx.cli", "run", "-d", str(dataset), "-o",
                               str(tmp_path / "r"), "--callable", "tests.test_ray:flaky_answer", *args],
                              capture_output=True, text=True, cwd=REPO)

    bad = ragdx("--executor", "spark")
    assert bad.returncode == 2 and "--executor" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
    stray = ragdx("--workers", "3")
    assert stray.returncode == 2 and "--executor ray" in stray.stderr
    assert not (tmp_path / "r" / "results.jsonl").exists()


def test_missing_extra_is_one_line(tmp_path):
    # a Python where 'import ray' fails, as without the extra
    code = ("import sys; sys.modules['ray'] = None\n"
            "from ragdx.ray_support import import_ray\n"
            "from ragdx.errors import RagdxError\n"
            "try:\n    import_ray()\nexcept RagdxError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert "pip install 'ragdx[ray]'" in out.stdout and len(out.stdout.strip().splitlines()) == 1


def test_bad_worker_count_is_refused():
    from ragdx.rag.executor_ray import RaySystem
    from ragdx.rag.systems import CallableSystem

    local = CallableSystem("tests.test_ray:flaky_answer")
    with pytest.raises(RagdxError, match="at least 1"):
        RaySystem(local, lambda: local, workers=0)


# ----------------------------------------------------------------------------- Ray Data embedding


def test_ray_embedding_is_configured_not_started(tmp_path):
    """The config paths reach a RayEmbedder (nothing connects before the first miss) and refuse
    what cannot work; a dense retriever's identity is unchanged unless it asks for Ray."""
    from ragdx.embed import Embedder, EmbedderConfig
    from ragdx.embed_ray import RayEmbedder
    from ragdx.embedders import make_embedder
    from ragdx.rag.retrievers import build_component  # importing it registers the retrievers

    emb = make_embedder(EmbedderConfig(executor="ray", address="127.0.0.1:1", workers=3), cache_dir=tmp_path)
    assert isinstance(emb, RayEmbedder) and (emb.address, emb.workers) == ("127.0.0.1:1", 3)
    assert emb._ray is None  # connecting waits for a text the cache lacks
    local = Embedder(cache_dir=tmp_path)
    # same model identity, same cache keys, and what a saved tester records is the local embedder
    assert emb.model_id == local.model_id and emb._key("x") == local._key("x") and emb.to_dict() == local.to_dict()
    with pytest.raises(RagdxError, match="scales on its server"):
        make_embedder({"kind": "openai", "base_url": "http://x/v1", "model": "m", "executor": "ray"})
    with pytest.raises(RagdxError):
        make_embedder({"executor": "spark"})

    plain = build_component({"type": "dense", "params": {"cache_dir": None}})
    assert "index_embedder" not in plain.to_dict()["params"]
    on_ray = build_component({"type": "dense", "params": {"index_embedder": {"executor": "ray", "workers": 4}}})
    assert on_ray.to_dict()["params"]["index_embedder"] == {"executor": "ray", "workers": 4}
    assert build_component(on_ray.to_dict()).to_dict() == on_ray.to_dict()  # round-trips through YAML
    with pytest.raises(RagdxError, match="model_path"):
        build_component({"type": "dense", "params": {"index_embedder": {"model_path": "/x"}}})
    with pytest.raises(RagdxError, match="workers"):
        build_component({"type": "dense", "params": {"index_embedder": {"executor": "ray", "workers": 0}}})


def test_calibrate_ray_options_are_checked(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from ragdx.cli import app

    monkeypatch.chdir(tmp_path)  # no ragdx.yaml here: the default embedder

    def calibrate(*args: str):
        return CliRunner().invoke(app, ["relevance", "calibrate", "corpus.jsonl", "--queries", "q.jsonl", "-o", "t",
                                        *args])

    stray = calibrate("--address", "127.0.0.1:1")
    assert isinstance(stray.exception, RagdxError) and "--executor ray" in str(stray.exception)
    bad = calibrate("--executor", "spark")
    assert isinstance(bad.exception, RagdxError) and "--executor" in str(bad.exception)
    assert not (tmp_path / "t").exists()


@pytest.mark.slow
def test_ray_data_embedding_matches_local(ray_local, tmp_path):
    """Ray Data actors give the local vectors, write the shared cache, and send only misses; a
    dense retriever with ``index_embedder: {executor: ray}`` indexes the same matrix."""
    import numpy as np

    from ragdx.embed import Embedder
    from ragdx.embed_ray import RayEmbedder
    from ragdx.rag.chunking import Chunk
    from ragdx.rag.retrievers import (
        _DENSE_MEMO,
        build_component,  # importing it registers the retrievers
    )
    from tests.test_embedders import topical_corpus

    texts = topical_corpus(49)
    reference = Embedder(cache_dir=None).embed(texts)
    texts, extra = texts[:48], texts[48]
    calls: list[tuple[int, int]] = []
    emb = RayEmbedder(Embedder(cache_dir=tmp_path / "cache"), workers=2)
    vectors = emb.embed(texts[:40], progress=lambda done, total: calls.append((done, total)))
    assert vectors.dtype == np.float32 and vectors.shape == (40, 384)
    assert np.allclose(vectors, reference[:40], atol=1e-5)
    assert float((vectors * reference[:40]).sum(axis=1).min()) >= 0.99999
    assert sum(emb.last_nodes.values()) == 40 and emb.last_device == "cpu"
    assert calls[0] == (0, 40) and calls[-1] == (40, 40)
    # the 40 are cached now: of 48 (with a duplicate), only the 8 new texts go to Ray
    again = emb.embed([*texts, texts[0]])
    assert sum(emb.last_nodes.values()) == 8
    assert np.array_equal(again[:40], vectors) and np.allclose(again[40:48], reference[40:48], atol=1e-5)
    assert np.array_equal(again[48], again[0])
    # the local embedder reads what the Ray actors wrote
    assert np.array_equal(Embedder(cache_dir=tmp_path / "cache").embed(texts), again[:48])

    # a dense retriever indexing on Ray over the same cache: one new text, one actor
    retriever = build_component({"type": "dense", "params": {
        "cache_dir": str(tmp_path / "cache"), "index_embedder": {"executor": "ray", "workers": 1}}})
    on_ray = retriever._index_embedder()
    assert isinstance(on_ray, RayEmbedder) and on_ray.workers == 1 and on_ray.model_id == emb.model_id
    _DENSE_MEMO.clear()  # an index built earlier in this process would be reused, not rebuilt
    retriever.build([Chunk(id=f"c{i}", doc_id=f"d{i}", text=t) for i, t in enumerate([*texts, extra])])
    assert np.allclose(retriever._matrix, reference, atol=1e-5)
    assert Embedder(cache_dir=tmp_path / "cache")._vectors.lookup([emb._key(extra)])  # cached as well
    assert retriever.embedder._model is None  # the driver never loaded the model: the actor embedded it
    assert ray_local.is_initialized()  # the instance the retriever found is not its to stop
