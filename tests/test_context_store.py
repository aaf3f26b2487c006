"""Retrieved contexts stored once per distinct text: the same outputs read back as with texts
inline, a fraction of the bytes, ids plus hashes only on request, crash safety of the side file,
and ``--results`` on a run's own results.jsonl."""

from __future__ import annotations

import json

import pytest

from ragdx.errors import RagdxError
from ragdx.rag.context_store import CONTEXTS, text_sha
from ragdx.rag.rundir import read_run
from ragdx.rag.runner import run
from ragdx.rag.systems import CallableSystem, ResultsFileSystem
from tests.test_runner import make_dataset

DOCS = {f"d{k}": f"Document {k}: " + "a long passage of text that repeats across queries. " * 20 for k in range(5)}


def answer(query: str) -> dict:
    n = int(query.rsplit("#", 1)[-1]) if "#" in query else len(query)
    ids = [f"d{(n + j) % 5}" for j in range(3)]
    return {"answer": f"answer {n}", "contexts": [{"id": d, "text": DOCS[d], "score": 1.0 / (j + 1)}
                                                  for j, d in enumerate(ids)]}


def outputs(run_dir):
    return [(o.id, o.answer, [(c.id, c.text, c.score) for c in o.contexts]) for o in read_run(run_dir)]


def test_once_reads_back_the_same_outputs_in_a_fraction_of_the_bytes(tmp_path):
    dataset = make_dataset(tmp_path / "ds", 60)
    sizes = {}
    for mode in ("full", "once", "hash"):
        run(CallableSystem(answer), dataset, tmp_path / mode, progress=False, contexts=mode)
        sizes[mode] = sum(p.stat().st_size for p in (tmp_path / mode).glob("*.jsonl") if p.name != "inputs.jsonl")
    assert outputs(tmp_path / "once") == outputs(tmp_path / "full")
    assert len(outputs(tmp_path / "full")) == 60
    stored = [json.loads(line) for line in (tmp_path / "once" / CONTEXTS).read_text().splitlines()]
    assert sorted(s["text"] for s in stored) == sorted(DOCS.values())  # each distinct text once
    assert sizes["once"] < sizes["full"] / 5
    line = json.loads((tmp_path / "once" / "results.jsonl").read_text().splitlines()[0])
    assert "text" not in line["contexts"][0] and line["contexts"][0]["sha"] == text_sha(DOCS[line["contexts"][0]["id"]])
    # hash: ids, scores and hashes, no text anywhere
    assert not (tmp_path / "hash" / CONTEXTS).exists()
    assert [(i, a, [(c[0], c[2]) for c in cs]) for i, a, cs in outputs(tmp_path / "hash")] == \
        [(i, a, [(c[0], c[2]) for c in cs]) for i, a, cs in outputs(tmp_path / "full")]
    assert all(c[1] == "" for _, _, cs in outputs(tmp_path / "hash") for c in cs)
    with pytest.raises(RagdxError, match="contexts must be one of"):
        run(CallableSystem(answer), dataset, tmp_path / "bad", progress=False, contexts="zip")


def test_a_torn_context_line_is_cut_and_a_missing_text_is_an_error(tmp_path):
    dataset = make_dataset(tmp_path / "ds", 10)
    run_dir = tmp_path / "run"
    run(CallableSystem(answer), dataset, run_dir, progress=False, limit=4)
    side = run_dir / CONTEXTS
    side.write_bytes(side.read_bytes() + b'{"sha": "abc", "te')  # a crash mid-line
    run(CallableSystem(answer), dataset, run_dir, progress=False)
    assert side.read_bytes().endswith(b"\n")
    full = tmp_path / "full"
    run(CallableSystem(answer), dataset, full, progress=False, contexts="full")
    assert outputs(run_dir) == outputs(full)
    lines = side.read_text().splitlines()
    side.write_text("\n".join(lines[1:]) + "\n")  # a text lost by hand
    with pytest.raises(RagdxError, match="missing from contexts.jsonl"):
        read_run(run_dir)


def test_results_file_system_reads_a_runs_own_results(tmp_path):
    import asyncio

    from ragdx.rag.types import SystemInput

    dataset = make_dataset(tmp_path / "ds", 5)
    run(CallableSystem(answer), dataset, tmp_path / "run", progress=False)
    replay = ResultsFileSystem(tmp_path / "run" / "results.jsonl")
    first = read_run(tmp_path / "run")[0]
    out = asyncio.run(replay.answer(SystemInput(id=first.id, query=first.query)))
    assert [(c.id, c.text) for c in out.contexts] == [(c.id, c.text) for c in first.contexts]
    assert out.contexts[0].text.startswith("Document")
