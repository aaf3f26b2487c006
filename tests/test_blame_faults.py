"""Module blame measured against injected faults (the fast slice of benchmarks/blame_accuracy.py),
and the honest-input checks that keep a diagnosis from resting on the wrong data."""

from __future__ import annotations

import json
import shutil
from collections import Counter

import pytest
from rich.console import Console

from ragdx.evaluate.compare import compare, differing_modules
from ragdx.evaluate.faults import FaultPlan, MemoJudge, diagnose, score_verdicts, simulate
from ragdx.evaluate.faults import Testbed as FaultTestbed
from ragdx.evaluate.judges import make_judge
from ragdx.evaluate.runs import judge_outputs
from ragdx.rag.types import RetrievedContext, SystemOutput

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def bed(tmp_path_factory) -> FaultTestbed:
    from ragdx.demo.run import build_testbed
    from ragdx.gen.dataset import read_records
    from ragdx.kb.render import read_documents

    out = tmp_path_factory.mktemp("faults")
    build_testbed(out, Console(quiet=True))
    records = read_records(out / "dataset")
    corpus = {d.id: d.text for d in read_documents(out / "kb")}
    return FaultTestbed(records, corpus, {r.id: r.evidence_sets for r in records}, name="demo")


@pytest.fixture(scope="module")
def judge():
    return MemoJudge(make_judge("cascade"))


@pytest.mark.parametrize("plan, verdict", [
    (FaultPlan(retrieval=0.2, retrieval_seed=7), "retrieval_failure"),
    (FaultPlan(retrieval=0.4, retrieval_style="long", retrieval_seed=8), "retrieval_failure"),
    (FaultPlan(kb=0.1, kb_seed=9), "kb_gap"),
    (FaultPlan(lm=0.2, lm_kind="wrong", lm_seed=10), "lm_failure"),
])
def test_injected_faults_are_blamed_on_their_module(bed, judge, plan, verdict):
    sim = simulate(bed, plan)
    _, verdicts = diagnose(sim, judge)
    score = score_verdicts(sim.truth, verdicts)
    assert score.support(verdict) >= 20  # the fault was really injected
    assert score.precision(verdict) >= 0.95 and score.recall(verdict) >= 0.95, score.confusion


def test_knowledge_base_faults_need_the_corpus_the_system_searches(bed, judge):
    """Deleted documents are knowledge-base gaps, which ragdx can only know for sure when it re-derives
    the evidence for the corpus the system searches. Judged against the untouched dataset, a gap whose
    documents no query ever retrieved is said to be unsure (knowledge base or retriever: check the
    index), never blamed on the retriever with confidence."""
    sim = simulate(bed, FaultPlan(kb=0.1, kb_seed=9))
    stale = judge_outputs(bed.records, sim.outputs, judge=judge)
    from ragdx.evaluate.protocol import blame

    rows = {v["id"]: v for v in blame(stale)}
    deleted_gaps = [i for i, t in sim.truth.items() if t == "kb_gap"
                    and next(r for r in bed.records if r.id == i).kb_supported]
    assert len(deleted_gaps) >= 20
    said = Counter(rows[i]["verdict"] for i in deleted_gaps)
    assert said["kb_or_retrieval"] >= 0.9 * len(deleted_gaps), said
    assert all(rows[i]["basis"] == "evidence_never_retrieved" for i in deleted_gaps
               if rows[i]["verdict"] == "kb_or_retrieval")
    # real retriever faults on an intact corpus keep their confident verdict (tested above too)
    faults = simulate(bed, FaultPlan(retrieval=0.2, retrieval_seed=7))
    verdicts = {v["id"]: v["verdict"] for v in blame(judge_outputs(bed.records, faults.outputs, judge=judge))}
    missed = [i for i, t in faults.truth.items() if t == "retrieval_failure"]
    assert missed and sum(verdicts[i] == "retrieval_failure" for i in missed) >= 0.95 * len(missed)


def test_identical_readers_give_no_language_model_difference(bed, judge):
    a, _ = diagnose(simulate(bed, FaultPlan(retrieval=0.05, lm=0.1, retrieval_seed=1, lm_seed=1)), judge)
    b, _ = diagnose(simulate(bed, FaultPlan(retrieval=0.25, lm=0.1, retrieval_seed=1, lm_seed=1)), judge)
    res = compare(a, b, n_boot=300)
    lm = res.modules["language model"]
    assert lm["pairs"] >= 20 and lm["difference"] == 0.0 and lm["ci_low"] == lm["ci_high"] == 0.0
    assert differing_modules(res) == ["retrieval"]
    assert res.sentence.startswith("The retrieval behaves differently")


def test_identical_retrievers_give_no_retrieval_difference(bed, judge):
    a, _ = diagnose(simulate(bed, FaultPlan(retrieval=0.1, lm=0.05, retrieval_seed=2, lm_seed=2)), judge)
    b, _ = diagnose(simulate(bed, FaultPlan(retrieval=0.1, lm=0.3, retrieval_seed=2, lm_seed=2)), judge)
    res = compare(a, b, n_boot=300)
    assert res.modules["retrieval"]["difference"] == 0.0
    assert differing_modules(res) == ["language model"]


def test_a_run_against_its_own_copy_shows_nothing(bed, judge):
    a, _ = diagnose(simulate(bed, FaultPlan(retrieval=0.1, lm=0.1, kb=0.1, retrieval_seed=3, lm_seed=3)), judge)
    res = compare(a, list(a), n_boot=300)
    assert differing_modules(res) == []
    assert all(e["difference"] == 0.0 for e in res.differences.values() if e["difference"] == e["difference"])
    assert res.sentence.startswith("No module behaves significantly differently")


def test_chunk_ids_are_flagged_and_mapped(bed, judge):
    records = [r for r in bed.records if r.kb_supported][:60]
    known = set(bed.corpus)
    # LlamaIndex's default: one UUID per chunk, no document id
    uuids = [SystemOutput(id=r.id, query=r.query, answer=r.answer_text,
                          contexts=[RetrievedContext(id=f"{i:08x}-0000-4000-8000-{i:012x}", text="")])
             for i, r in enumerate(records)]
    judged = judge_outputs(records, uuids, judge=judge, known_ids=known)
    assert not judged.check.retrieval_reliable
    assert "chunk/node ids" in judged.check.warnings[0] and "100%" in judged.check.warnings[0]
    assert all(j.retrieval_correct is None for j in judged)  # not "every failure the retriever's"
    # chunk ids that carry their document id are mapped back to it
    chunks = [SystemOutput(id=r.id, query=r.query, answer=r.answer_text,
                           contexts=[RetrievedContext(id=f"{d}#chunk-{k}", text="")
                                     for k, d in enumerate(r.gold_document_ids)]) for r in records]
    judged = judge_outputs(records, chunks, judge=judge, known_ids=known)
    assert judged.check.retrieval_reliable and judged.check.chunk_ids_mapped >= len(records)
    assert all(j.retrieval_correct for j in judged)


def test_partial_run_and_changed_dataset_are_not_taken_as_complete(tmp_path, bed):
    from ragdx.evaluate import evaluate
    from ragdx.gen.dataset import write_dataset
    from ragdx.rag.runner import run
    from ragdx.rag.systems import CallableSystem

    records = bed.records[:40]
    write_dataset(tmp_path / "ds", records, {"knowledge_base": None})
    answers = {r.query: r.answer_text for r in records}
    system = CallableSystem(lambda q: {"answer": answers[q], "contexts": []}, name="oracle")
    run(system, tmp_path / "ds", tmp_path / "run", progress=False, limit=15)
    result = evaluate(tmp_path / "run", judge="exact", n_boot=100)
    assert result.inputs["total"] == 40 and result.inputs["judged"] == 15 and not result.inputs["complete"]
    assert any("incomplete run: 15 of 40" in w for w in result.warnings)
    summary = (tmp_path / "run" / "evaluation" / "summary.md").read_text(encoding="utf-8")
    assert "15 of 40 queries judged" in summary and "incomplete run" in summary
    from ragdx.errors import RagdxError

    with pytest.raises(RagdxError, match="incomplete run"):
        evaluate(tmp_path / "run", judge="exact", n_boot=100, require_complete=True)
    # the dataset shrinks after the run: refused, not judged on what is left
    write_dataset(tmp_path / "ds", records[20:], {"knowledge_base": None}, overwrite=True)
    with pytest.raises(RagdxError, match="dataset changed since the run"):
        evaluate(tmp_path / "run", judge="exact", n_boot=100)


def test_comparison_over_different_query_sets_is_marked_and_uses_the_intersection(bed, judge):
    a, _ = diagnose(simulate(bed, FaultPlan(retrieval=0.1, retrieval_seed=4)), judge)
    part = [j for j in a[:100]]
    res = compare(a, part, n_boot=200)
    assert res.queries["shared"] == 100
    assert any("different query sets" in w for w in res.warnings) and "Note: different query sets" in res.sentence
    assert res.differences["accuracy"]["difference"] == 0.0  # same answers on the shared queries


def test_summary_shows_paper_values_only_for_their_benchmark(tmp_path):
    from ragdx.evaluate import evaluate
    from tests.conftest import AURP, need

    need(AURP)
    other = tmp_path / "spider-like"
    shutil.copytree(AURP / "eval_results", other / "eval_results")
    shutil.copytree(AURP / "SemanticsMatch", other / "SemanticsMatch")
    evaluate(other, out=tmp_path / "a", n_boot=50)
    text = (tmp_path / "a" / "summary.md").read_text(encoding="utf-8")
    assert "paper short" not in text and "No paper column" in text
    evaluate(AURP, out=tmp_path / "b", n_boot=50)
    assert "paper short" in (tmp_path / "b" / "summary.md").read_text(encoding="utf-8")
    evaluate(other, out=tmp_path / "c", n_boot=50, benchmark="spider-open")
    text = (tmp_path / "c" / "summary.md").read_text(encoding="utf-8")
    assert "paper short" in text and "| 0.67 | 0.87 |" in text  # Spider-Open's own column, not Aurp's
    metrics = json.loads((tmp_path / "c" / "metrics.json").read_text(encoding="utf-8"))
    assert metrics["source"]["benchmark"] == "spider-open"


def test_blame_on_a_corpus_ragdx_did_not_write(tmp_path, judge):
    """Aurp's own 9 reports: evidence linked by ragdx, truth from the reference's gold documents;
    every verdict >= 0.90 precision and recall under a mixture of faults."""
    import sys

    from tests.conftest import AURP, REPO, need

    need(AURP)
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        from blame_accuracy import aurp_testbed
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    bed = aurp_testbed(AURP, tmp_path / "aurp")
    assert len(bed.corpus) == 9 and len(bed.records) > 800
    sim = simulate(bed, FaultPlan(retrieval=0.15, lm=0.15, lm_kind="wrong", kb=0.1, retrieval_seed=5, lm_seed=6,
                                  kb_seed=7))
    _, verdicts = diagnose(sim, judge)
    score = score_verdicts(sim.truth, verdicts)
    for verdict in ("correct", "kb_gap", "retrieval_failure", "lm_failure"):
        assert score.support(verdict) >= 10, (verdict, score.confusion)
        assert score.precision(verdict) >= 0.90 and score.recall(verdict) >= 0.90, (verdict, score.confusion)
