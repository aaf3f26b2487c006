"""Probes (ragdx.rag.probe): a real BM25 pipeline over a small corpus from which one document was
deleted. Two evidence documents are never retrieved by the run's queries: the deleted one, and one
the queries cannot reach (they share none of its words). Asked for in their own words, the present
one comes back and the deleted one does not, and blame turns the unsure "knowledge base or
retriever" into a retrieval failure and a knowledge-base gap respectively."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

import pytest

from ragdx import evaluate, run
from ragdx.gen.dataset import QARecord, write_dataset
from ragdx.rag.generators import Generator
from ragdx.rag.pipeline import Pipeline
from ragdx.rag.probe import ProbeResult, probe_queries, probe_summary, read_probes, write_probes
from ragdx.rag.retrievers import BM25Retriever
from ragdx.rag.types import RetrievedContext

ROOT = Path(__file__).resolve().parents[1]
_INDEX: dict[str, BM25Retriever] = {}
_BUILDING = threading.Lock()

TOWNS = ["Ashford", "Brayton", "Corwick", "Dunmere", "Elsworth", "Farleigh", "Glenholt", "Harrowby",
         "Ilsington", "Jarrow", "Kelmscott", "Lydford"]


class Silent(Generator):
    """A reader that never knows: every answer is wrong, so every query gets a module verdict
    (the retrieval, which is what is under test, is the real BM25 pipeline's)."""

    async def generate(self, query: str, contexts: Sequence[RetrievedContext], ctx=None) -> str:
        return "I do not know."


def _record(gid: str, t: int, query: str, doc: str, answer: str) -> QARecord:
    return QARecord(id=f"{gid}-t{t}", group_id=gid, sql_template_id="s", text_template_id=f"t{t}",
                    style="short" if t == 0 else "long", schema="Town", table="Town", params={}, sql="",
                    query=query, answer_columns=["v"], answer_rows=[[answer]], answer_text=answer,
                    answer_kind="single", gold_document_ids=[doc], kb_supported=True, evidence_sets=[[doc]],
                    kb_basis="linked")


@pytest.fixture
def world(tmp_path):
    docs = {f"town-{t.lower()}": f"# {t}\n\nThe mayor of {t} is {t[:3]}wyn Rees. {t} lies on the river "
            f"{t[::-1].title()}." for t in TOWNS}
    # the deleted one: the queries ask for it by its own words, but the system's index lacks it
    docs["town-mossbury"] = "# Mossbury\n\nThe mayor of Mossbury is Odette Vane. Mossbury lies on the river Tamsin."
    # present, but no query shares a word with it: its retriever cannot reach it from the questions
    docs["observatory"] = ("# Quillon Observatory\n\nQuillon Observatory houses the Hartigan refractor, a "
                           "telescope ground in 1887.")
    (tmp_path / "kb.jsonl").write_text("".join(json.dumps({"id": k, "text": v}) + "\n" for k, v in docs.items()))
    searched = {k: v for k, v in docs.items() if k != "town-mossbury"}
    (tmp_path / "searched.jsonl").write_text("".join(json.dumps({"id": k, "text": v}) + "\n"
                                                     for k, v in searched.items()))
    records = []
    for i, t in enumerate([*TOWNS, "Mossbury"]):
        doc = f"town-{t.lower()}"
        mayor = docs[doc].split(" is ")[1].split(".")[0]
        records += [_record(f"g{i}", 0, f"mayor of {t}", doc, mayor),
                    _record(f"g{i}", 1, f"Who is the mayor of {t}?", doc, mayor)]
    records += [_record("gq", 0, "what instrument does the stargazing building keep", "observatory", "refractor"),
                _record("gq", 1, "Which lens apparatus sits in the stargazing building?", "observatory", "refractor")]
    write_dataset(tmp_path / "ds", records, {"corpus": str(tmp_path / "kb.jsonl")})
    return tmp_path


def _pipeline(world) -> Pipeline:
    return Pipeline("bm25-silent", str(world / "searched.jsonl"), retriever=BM25Retriever(), generator=Silent(),
                    top_k=3)


def test_probe_queries_are_the_documents_own_words():
    text = "# Quillon Observatory\n\nIt opened in 1890. It houses the Hartigan refractor, ground in 1887."
    df = {"it": 10, "opened": 5, "in": 10, "houses": 4, "the": 10, "hartigan": 1, "refractor": 1, "ground": 2}
    queries = probe_queries(text, df=df, n_docs=10)
    assert queries[0] == "Quillon Observatory It opened in 1890."
    assert queries[1] == "It houses the Hartigan refractor, ground in 1887."
    assert probe_queries("") == []
    # three spans at most; the title is not written twice where a sentence opens with it
    digest = ("# Sales digest: July 2016\n\nSales digest: July 2016 had 17 orders.\n\n| 10267 | FRANK | 208.58 |"
              "\n\nTop customer was Frankenversand.")
    queries = probe_queries(digest, df={"sales": 9, "digest": 9, "july": 3}, n_docs=10)
    assert len(queries) == 3 and queries[0] == "Sales digest: July 2016 had 17 orders."
    assert queries[2].startswith("Sales digest: July 2016 ") and queries[2] != queries[0]


def test_the_probe_finds_the_present_document_not_the_deleted_one(world):
    from ragdx.cli.probe import probe_stage

    system = _pipeline(world)
    run(system, world / "ds", world / "run", progress=False, probe=False)
    before = {v["id"]: v for v in evaluate(world / "run", judge="exact", n_boot=50, rouge=False).verdicts}
    # without probes both never-retrieved documents leave their queries unsure (the pipeline searched
    # another corpus than the one linked: its fingerprint says so)
    assert {before[f"{g}-{t}"]["verdict"] for g in ("g12", "gq") for t in ("t0", "t1")} == {"kb_or_retrieval"}
    assert before["gq-t1"]["basis"] == "corpus_changed"

    from ragdx.evaluate.report import evaluation_is_current

    assert evaluation_is_current(world / "run" / "evaluation", world / "run")
    outcome = probe_stage(system, world / "run")
    assert outcome.documents == 2 and outcome.found == 1 and outcome.not_found == 1 and outcome.failed == 0
    probes = {(p.doc_id, p.probe): p for p in read_probes(world / "run")}
    assert any(p.found for (d, _), p in probes.items() if d == "observatory")
    assert all(p.found is False and p.retrieved for (d, _), p in probes.items() if d == "town-mossbury")
    assert "Quillon Observatory" in probes[("observatory", 0)].query

    # an evaluation made before the probes is no longer current (the report evaluates again)
    assert not evaluation_is_current(world / "run" / "evaluation", world / "run")
    result = evaluate(world / "run", judge="exact", n_boot=50, rouge=False)
    after = {v["id"]: v for v in result.verdicts}
    assert evaluation_is_current(world / "run" / "evaluation", world / "run")
    assert any("probed in their own words: 1 came back" in w and "1 did not" in w for w in result.warnings)
    for t in ("t0", "t1"):
        assert after[f"g12-{t}"]["verdict"] == "kb_gap" and after[f"g12-{t}"]["basis"] == "probe_not_found"
        assert after[f"g12-{t}"]["confidence"] == "medium" and "Mossbury" in after[f"g12-{t}"]["why"]
        assert after[f"gq-{t}"]["verdict"] == "retrieval_failure" and after[f"gq-{t}"]["basis"] == "probe_found"
        assert after[f"gq-{t}"]["documents"] == ["observatory"]
    # the queries whose documents were retrieved keep their verdicts
    kept = [k for k in after if k.split("-")[0] not in ("g12", "gq")]
    assert len(kept) == 24 and all(after[k]["verdict"] == before[k]["verdict"] for k in kept)


def test_failed_probes_are_counted_and_never_read_as_absent(tmp_path):
    write_probes(tmp_path, [ProbeResult("a", 0, "A title", None, error="system raised TimeoutError: slow"),
                            ProbeResult("a", 1, "A sentence", False, retrieved=["b", "c"]),
                            ProbeResult("b", 0, "B title", False, retrieved=["c"]),
                            ProbeResult("c", 0, "C title", True, rank=1, retrieved=["c#0"])])
    docs, notes = probe_summary(tmp_path, lambda ids: [i.split("#")[0] for i in ids])
    assert docs["a"]["found"] is None and docs["a"]["failed"] == 1
    assert docs["b"]["found"] is False and docs["c"]["found"] is True and docs["c"]["rank"] == 1
    assert len(notes) == 1 and "1 of 4 probes failed" in notes[0] and "TimeoutError" in notes[0]


def test_blame_reads_probes_of_documents_no_query_retrieved():
    """The same corpus linked and searched (no fingerprint to compare): the probes alone decide."""
    from ragdx.evaluate.protocol import blame
    from ragdx.evaluate.records import Judgement

    def j(i: int, gold: str, retrieved: list[str]) -> Judgement:
        return Judgement(id=f"q{i}", group_id=f"g{i}", style="short", correct=False, judge="exact", reason="",
                         retrieval_correct=gold in retrieved, retrieved_ids=retrieved, gold_ids=[gold],
                         kb_supported=True, evidence_sets=[[gold]])

    judgements = [j(i, f"d{i}", [f"d{i}"]) for i in range(20)] + [j(20, "gone", ["d1"]), j(21, "hidden", ["d2"])]
    unsure = {v["id"]: v for v in blame(judgements)}
    assert unsure["q20"]["verdict"] == unsure["q21"]["verdict"] == "kb_or_retrieval"
    assert "ragdx probe" in unsure["q20"]["why"]
    probes = {"gone": {"found": False, "query": "Gone title"}, "hidden": {"found": True, "query": "Hidden", "rank": 2}}
    settled = {v["id"]: v for v in blame(judgements, probes=probes)}
    assert (settled["q20"]["verdict"], settled["q20"]["basis"]) == ("kb_gap", "probe_not_found")
    assert "Gone title" in settled["q20"]["why"]
    assert (settled["q21"]["verdict"], settled["q21"]["basis"]) == ("retrieval_failure", "probe_found")
    assert "rank 2" in settled["q21"]["why"]
    # a probe that failed settles nothing
    inconclusive = {v["id"]: v for v in blame(judgements, probes={"gone": {"found": None, "query": "x"}})}
    assert inconclusive["q20"]["verdict"] == "kb_or_retrieval"


def bm25_answer(query: str) -> dict:
    """A system for `ragdx run --callable`: ragdx's BM25 over the JSONL corpus named by
    $PROBE_TEST_CORPUS (the deleted document left out), answering nothing."""
    from ragdx.rag.chunking import Chunk

    path = os.environ["PROBE_TEST_CORPUS"]
    with _BUILDING:  # the runner answers queries on several threads at once: the index is built once
        if path not in _INDEX:
            rows = [json.loads(line) for line in Path(path).read_text().splitlines()]
            index = BM25Retriever()
            index.build([Chunk(r["id"], r["id"], r["text"]) for r in rows])
            _INDEX[path] = index
    return {"answer": "I do not know.",
            "contexts": [{"id": c.id, "text": c.text} for c in _INDEX[path].retrieve(query, 3)]}


def other_answer(query: str) -> dict:
    return {"answer": "no", "contexts": []}


def _cli(*args: str, corpus: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "PROBE_TEST_CORPUS": str(corpus)}
    return subprocess.run([sys.executable, "-m", "ragdx.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=300)


@pytest.mark.slow  # three ragdx processes
def test_ragdx_run_probes_at_its_end_and_ragdx_probe_alone(world):
    out = world / "run"
    r = _cli("run", "--dataset", str(world / "ds"), "--out", str(out), "--callable", "tests.test_probe:bm25_answer",
             "--no-progress", corpus=world / "searched.jsonl")
    assert r.returncode == 0, r.stderr
    assert "probes: 2 evidence documents" in r.stdout and "1 came back" in r.stdout and "1 never did" in r.stdout
    verdicts = {v["id"]: v for v in evaluate(out, judge="exact", n_boot=50, rouge=False).verdicts}
    assert (verdicts["g12-t0"]["verdict"], verdicts["gq-t0"]["verdict"]) == ("kb_gap", "retrieval_failure")

    (out / "probes.jsonl").unlink()
    r = _cli("run", "--dataset", str(world / "ds"), "--out", str(world / "run2"), "--callable",
             "tests.test_probe:bm25_answer", "--no-progress", "--no-probe", corpus=world / "searched.jsonl")
    assert r.returncode == 0 and "probes" not in r.stdout and not (world / "run2" / "probes.jsonl").exists()
    r = _cli("probe", str(world / "run2"), "--callable", "tests.test_probe:bm25_answer",
             corpus=world / "searched.jsonl")
    assert r.returncode == 0, r.stderr
    assert "1 came back" in r.stdout and len(read_probes(world / "run2")) == 3  # the observatory has one sentence


def test_ragdx_probe_refuses_another_system_and_a_non_run(world):
    r = _cli("probe", str(world), "--callable", "tests.test_probe:bm25_answer", corpus=world / "searched.jsonl")
    assert r.returncode == 2 and "not a run directory" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    run(_pipeline(world), world / "ds", world / "run", progress=False, probe=False)
    r = _cli("probe", str(world / "run"), "--callable", "tests.test_probe:other_answer",
             corpus=world / "searched.jsonl")
    assert r.returncode == 2 and "not the run's" in r.stderr
    assert not (world / "run" / "probes.jsonl").exists()


def test_a_dataset_without_evidence_has_nothing_to_probe(world):
    from ragdx.cli.probe import probe_stage
    from ragdx.gen.dataset import read_records

    plain = read_records(world / "ds")
    for r in plain:
        r.gold_document_ids, r.evidence_sets, r.kb_supported = [], [], None
    write_dataset(world / "plain", plain, {"corpus": str(world / "kb.jsonl")})
    system = _pipeline(world)
    run(system, world / "plain", world / "run", progress=False)
    outcome = probe_stage(system, world / "run")
    assert not outcome.applicable and "no evidence documents" in outcome.skipped
    assert not (world / "run" / "probes.jsonl").exists()


def test_each_system_of_a_grid_is_probed_after_its_run(world, monkeypatch):
    from ragdx.cli.probe import probe_stage
    from ragdx.rag.runner import run_grid

    monkeypatch.setenv("PROBE_TEST_CORPUS", str(world / "searched.jsonl"))
    outcomes = {}
    grid = {"systems": {"bm25": {"kind": "callable", "target": "tests.test_probe:bm25_answer"}}}
    run_grid(grid, world / "ds", world / "grid", progress=False,
             after=lambda system, run_dir: outcomes.setdefault(run_dir.name, probe_stage(system, run_dir)))
    assert outcomes["bm25"].found == 1 and outcomes["bm25"].not_found == 1
    assert {p.doc_id for p in read_probes(world / "grid" / "bm25")} == {"observatory", "town-mossbury"}


def test_the_api_run_probes_as_ragdx_run_does(world):
    """``ragdx.run`` probes at the end like ``ragdx run`` (issue 20: one behaviour for API and CLI),
    so an API user's evaluation settles the never-retrieved evidence the same way."""
    run(_pipeline(world), world / "ds", world / "run", progress=False)
    probed = {p.doc_id: p.found for p in read_probes(world / "run") if p.found is not None}
    assert probed.get("observatory") is True and probed.get("town-mossbury") is False
    verdicts = {v["id"]: v for v in evaluate(world / "run", judge="exact", n_boot=50, rouge=False).verdicts}
    assert verdicts["g12-t0"]["verdict"] == "kb_gap" and verdicts["gq-t0"]["verdict"] == "retrieval_failure"
