"""The user's embedder: an OpenAI-compatible /v1/embeddings endpoint (the project's test server,
over real sockets), a local sentence-transformers directory, the ragdx.yaml section, and the one
shared cache found from any working directory."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from ragdx.cli import app
from ragdx.embed import (
    DEFAULT_MODEL,
    Embedder,
    OpenAIEmbedder,
    cache_info,
    cache_root,
    packaged_model_path,
)
from ragdx.embedders import embedder_from_dict, make_embedder
from ragdx.errors import RagdxError
from tests.support.openai_server import Fault, OpenAIServer, embedding_vector

runner = CliRunner()

TOPICS = ["tungsten", "alloy", "melting", "furnace", "carbide", "sintering", "cobalt", "hardness"]


def topical_corpus(n: int = 40) -> list[str]:
    rng = np.random.default_rng(0)
    return [" ".join(rng.choice(TOPICS, 6)) + f" process {i}" for i in range(n)]


def topical_questions(n: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    return ["what is the " + " ".join(rng.choice(TOPICS, 3)) + " of the process" for _ in range(n)]


OFF_TOPIC = ["who won the football league in the spring season", "best pasta recipe with basil and garlic",
             "how do I renew a passport online quickly"]


@pytest.fixture()
def server():
    with OpenAIServer() as srv:
        yield srv


@pytest.fixture()
def user_cache(tmp_path, monkeypatch):
    """A private per-user cache: XDG_CACHE_HOME is what platformdirs reads on Linux."""
    monkeypatch.delenv("RAGDX_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "ragdx"


def test_openai_endpoint_batches_caches_and_retries(server, tmp_path):
    emb = OpenAIEmbedder("test-embed", base_url=server.base_url, cache_dir=tmp_path / "c", batch_size=3)
    texts = [f"text number {i}" for i in range(7)] + ["text number 0"]  # one duplicate
    vectors = emb.embed(texts)
    assert vectors.shape == (8, 64) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    expected = np.asarray(embedding_vector("text number 5"), dtype=np.float32)
    assert np.allclose(vectors[5], expected / np.linalg.norm(expected), atol=1e-6)
    assert np.array_equal(vectors[0], vectors[7])
    # 7 distinct texts in batches of 3: 3 requests, each with at most 3 inputs
    sent = [r.body["input"] for r in server.embedding_requests]
    # (concurrent requests arrive in any order)
    assert sorted(len(b) for b in sent) == [1, 3, 3]
    assert sorted(t for b in sent for t in b) == [f"text number {i}" for i in range(7)]
    assert all(r.body["model"] == "test-embed" for r in server.embedding_requests)

    again = OpenAIEmbedder("test-embed", base_url=server.base_url, cache_dir=tmp_path / "c", batch_size=3)
    assert np.array_equal(again.embed(texts), vectors)
    assert len(server.embedding_requests) == 3  # all from the cache

    server.script(Fault.http(503))
    fresh = OpenAIEmbedder("test-embed", base_url=server.base_url, cache_dir=None, max_retries=2)
    out = fresh.embed(["a new text"])
    assert out.shape == (1, 64) and fresh.usage.retries == 1

    server.script(Fault.http(400))
    with pytest.raises(RagdxError, match="embeddings failed after 1 attempt"):
        OpenAIEmbedder("test-embed", base_url=server.base_url, cache_dir=None).embed(["yet another"])


def test_other_model_or_dimensions_never_share_cache_entries(server, tmp_path):
    a = OpenAIEmbedder("model-a", base_url=server.base_url, cache_dir=tmp_path)
    b = OpenAIEmbedder("model-b", base_url=server.base_url, cache_dir=tmp_path)
    c = OpenAIEmbedder("model-a", base_url=server.base_url, cache_dir=tmp_path, dimensions=32)
    a.embed(["same text"])
    b.embed(["same text"])
    assert c.embed(["same text"]).shape == (1, 32)
    assert len(server.embedding_requests) == 3
    assert server.embedding_requests[2].body["dimensions"] == 32
    assert len({a.model_id, b.model_id, c.model_id}) == 3


@pytest.mark.slow
def test_local_sentence_transformers_directory(tmp_path):
    packaged = Embedder(cache_dir=None)
    local = Embedder(packaged_model_path(), cache_dir=tmp_path)
    assert packaged.model_id == DEFAULT_MODEL
    # a local directory is identified by its name and a fingerprint of its files
    assert local.model_id.startswith(Path(packaged_model_path()).name + "@") and len(local.model_id.split("@")[1]) == 12
    texts = ["What is the boiling point of tungsten?", "Aspirin and platelet aggregation"]
    assert np.allclose(local.embed(texts), packaged.embed(texts), atol=1e-5)
    with pytest.raises(RagdxError, match="not a directory"):
        Embedder(tmp_path / "missing-model")
    rebuilt = embedder_from_dict(local.to_dict())
    assert isinstance(rebuilt, Embedder) and rebuilt.model_id == local.model_id


@pytest.mark.slow
def test_cpu_batches_bound_padding_and_keep_each_text_its_vector(monkeypatch):
    import ragdx.embed as embed

    # a small cap, so that the few long texts here have to be split from the short ones
    monkeypatch.setattr(embed, "CPU_BATCH_TOKENS", 300)
    emb = Embedder(cache_dir=None, batch_size=4)
    model = emb._load()
    long = " ".join(["tungsten carbide sintering in the furnace"] * 20)
    texts = ["short one", long, *topical_questions(6, 1), long + " at 1400 degrees", "x", long[:200]]
    lengths = emb._token_lengths(model, texts)
    assert lengths == [len(model.tokenize([t])["input_ids"][0]) for t in texts]  # what the model sees
    assert max(lengths) > 150 and min(lengths) < 10
    batches = emb._cpu_batches(lengths)
    flat = [i for b in batches for i in b]
    assert sorted(flat) == list(range(len(texts)))  # every text once
    assert [lengths[i] for i in flat] == sorted(lengths, reverse=True)  # longest first
    for b in batches:
        assert len(b) <= 4
        assert len(b) == 1 or len(b) * max(lengths[i] for i in b) <= 300
    assert len(batches) > -(-len(texts) // 4)  # the cap split batches that batch_size alone would not
    # each text gets its own vector back, in the order given (by _encode, and by embed, which
    # hands the texts over longest first), equal to embedding it alone up to float rounding
    alone = np.vstack([model.encode([t], normalize_embeddings=True, convert_to_numpy=True) for t in texts])
    assert np.abs(emb._encode(texts) - alone).max() < 1e-5
    assert np.abs(emb.embed(texts) - alone).max() < 1e-5


def test_ragdx_yaml_chooses_the_embedder(tmp_path, server):
    from ragdx.config import load_config

    cfg_file = tmp_path / "ragdx.yaml"
    cfg_file.write_text(f"embedder:\n  kind: openai\n  base_url: {server.base_url}\n  model: test-embed\n"
                        "  api_key_env: MY_EMBED_KEY\n  batch_size: 16\n")
    emb = make_embedder(load_config(cfg_file).embedder)
    assert isinstance(emb, OpenAIEmbedder) and emb.batch_size == 16
    saved = emb.to_dict()
    assert saved["api_key_env"] == "MY_EMBED_KEY" and not any("key" in k and k != "api_key_env" for k in saved)
    assert isinstance(embedder_from_dict(saved), OpenAIEmbedder)
    cfg_file.write_text("embedder:\n  kind: word2vec\n")
    with pytest.raises(RagdxError, match=r"ragdx\.yaml: embedder\.kind"):
        load_config(cfg_file)
    cfg_file.write_text("embedder:\n  model_path: models/mine\n")
    assert load_config(cfg_file).embedder.model_path == tmp_path / "models" / "mine"  # relative to the file
    assert isinstance(make_embedder(None), Embedder)


def _write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_endpoint_end_to_end_through_the_cli_and_cache_found_from_another_directory(
        tmp_path, server, user_cache, monkeypatch):
    """calibrate (in one directory) → test, monitor (from another) with the embedder of ragdx.yaml;
    the second directory re-embeds nothing because the cache is the per-user one."""
    project = tmp_path / "project"
    other = tmp_path / "elsewhere"
    project.mkdir()
    other.mkdir()
    (project / "ragdx.yaml").write_text(f"embedder:\n  kind: openai\n  base_url: {server.base_url}\n"
                                        "  model: test-embed\n  batch_size: 8\n")
    _write_jsonl(project / "corpus.jsonl", [{"content": t} for t in topical_corpus()])
    _write_jsonl(project / "cal.jsonl", [{"question": q} for q in topical_questions(40, 1)])
    monkeypatch.chdir(project)
    res = runner.invoke(app, ["relevance", "calibrate", "corpus.jsonl", "--queries", "cal.jsonl", "-o", "tester",
                              "--no-progress"])
    assert res.exit_code == 0, res.output
    first = len(server.embedding_requests)
    distinct = set(topical_corpus()) | set(topical_questions(40, 1))
    assert first == -(-len(distinct) // 8)  # distinct texts in batches of 8
    manifest = json.loads((project / "tester" / "relevance-tester.json").read_text())
    assert manifest["embedder"]["kind"] == "openai" and manifest["embedder"]["cache_dir"] == "user"
    assert manifest["embedding_model"].startswith("openai:")

    monkeypatch.chdir(other)
    queries = topical_questions(3, 99) + OFF_TOPIC
    res = runner.invoke(app, ["relevance", "test", str(project / "tester"), *queries, "--no-progress",
                              "-o", "out.csv"])
    assert res.exit_code == 0, res.output
    rows = (other / "out.csv").read_text().splitlines()
    assert rows[0].startswith("index,query,statistic,value,p_value,alpha,decision")
    decisions = [r.split(",")[6] for r in rows[1:]]
    assert decisions[3:] == ["out-of-knowledge"] * 3, rows
    assert decisions[:3].count("in-knowledge") >= 2, rows
    assert len(server.embedding_requests) == first + 1  # only the 6 new queries, one batch

    # the same tester again from a third place: everything comes from the shared cache
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, ["relevance", "test", str(project / "tester"), *queries, "--no-progress"])
    assert res.exit_code == 0, res.output
    assert len(server.embedding_requests) == first + 1
    info = cache_info()
    assert Path(info["directory"]) == user_cache == cache_root()
    assert info["embeddings"] == len(distinct | set(queries))
    res = runner.invoke(app, ["cache", "info"])
    assert str(user_cache) in res.output.replace("\n", "") and f"embeddings: {info['embeddings']}" in res.output
    res = runner.invoke(app, ["cache", "clear", "--yes"])
    assert res.exit_code == 0 and cache_info()["embeddings"] == 0


def test_ragdx_cache_dir_overrides_the_per_user_directory(tmp_path, monkeypatch, server):
    monkeypatch.setenv("RAGDX_CACHE_DIR", str(tmp_path / "mine"))
    assert cache_root() == (tmp_path / "mine").resolve()
    OpenAIEmbedder("test-embed", base_url=server.base_url).embed(["one", "two"])
    assert cache_info()["embeddings"] == 2 and cache_info()["override"] == "RAGDX_CACHE_DIR"
    assert (tmp_path / "mine" / "embeddings.sqlite").is_file()


@pytest.mark.slow
def test_bfloat16_is_opt_in_close_to_float32_and_cached_apart(tmp_path):
    from ragdx.embed import Embedder

    texts = ["The mayor of Arlen is Ann Lee.", "Which river runs through Bexmoor?",
             "Corvale's school was founded in 1850 " * 20]
    fp32 = Embedder(cache_dir=tmp_path)
    bf16 = make_embedder({"dtype": "bfloat16"}, cache_dir=tmp_path)
    assert (fp32.dtype, bf16.dtype) == ("float32", "bfloat16")
    if bf16.precision.dtype != "bfloat16":
        # a CPU without native bfloat16 (AVX2 only) runs the opt-in in float32, under float32's cache key
        assert bf16.precision.dtype == "float32" and bf16.model_id == fp32.model_id
        pytest.skip(f"this CPU computes no bfloat16 natively: {bf16.precision}")
    assert bf16.model_id == fp32.model_id + "#bfloat16"
    assert {fp32._key(t) for t in texts}.isdisjoint({bf16._key(t) for t in texts})  # cached apart
    a, b = fp32.embed(texts), bf16.embed(texts)
    cos = (a * b).sum(axis=1)
    assert cos.min() > 0.999 and not np.array_equal(a, b)  # close, and really computed in bfloat16
    # a saved embedder comes back in its dtype; the float32 vectors in the same cache are untouched
    again = embedder_from_dict(bf16.to_dict())
    assert again.dtype == "bfloat16" and np.array_equal(again.embed(texts), b)
    assert np.array_equal(Embedder(cache_dir=tmp_path).embed(texts), a)


def test_an_unknown_dtype_is_refused_naming_the_field():
    from ragdx.embed import Embedder

    with pytest.raises(RagdxError, match="dtype") as info:
        Embedder(cache_dir=None, dtype="float16")
    assert info.value.field == "embedder.dtype"
    with pytest.raises(RagdxError, match="dtype"):
        make_embedder({"dtype": "int8"}, cache_dir=None)
