"""Evaluation and report in bounded memory (issue 24 item 3): a run judged offline is read and
judged in blocks, its judgements written as they are made, and the files are byte for byte those
of judging the whole run at once."""

from __future__ import annotations

import json

import pytest

from ragdx.errors import RagdxError
from ragdx.evaluate import evaluate, runs
from ragdx.evaluate import report as evaluate_report
from ragdx.gen.dataset import QARecord, write_dataset
from ragdx.rag.rundir import read_inputs
from ragdx.rag.runner import run
from ragdx.rag.systems import CallableSystem


def _records() -> list[QARecord]:
    """12 groups x 2 styles; groups 9-11 have no document (knowledge-base gaps)."""
    out = []
    for g in range(12):
        for t, text in enumerate([f"capital of country {g}", f"What is the capital city of country {g}?"]):
            out.append(QARecord(
                id=f"g{g}-t{t}", group_id=f"g{g}", sql_template_id=f"s{g % 3}", text_template_id=f"t{t}",
                style="short" if t == 0 else "long", schema="Country", table="Country", params={}, sql=f"q{g}",
                query=text, answer_columns=["Capital"], answer_rows=[[f"City{g}"]], answer_text=f"City{g}",
                answer_kind="single", gold_document_ids=[f"d{g}"] if g < 9 else [], kb_supported=g < 9,
                evidence_sets=[[f"d{g}"]] if g < 9 else []))
    return out


def _system(query: str) -> dict:
    g = int(query.rstrip("?").split()[-1])
    if g == 4 and query.startswith("What"):
        raise RuntimeError("boom")  # a failed query, recorded with its error
    right_doc = g % 4 != 1  # groups 1, 5: the wrong document
    right_answer = g % 3 != 2 and right_doc  # groups 2, 8: an LM error
    return {"answer": f"City{g}" if right_answer else "no idea",
            "contexts": [{"id": f"d{g}" if right_doc else f"d{(g + 1) % 9}", "text": ""}]}


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    base = tmp_path_factory.mktemp("stream")
    write_dataset(base / "ds", _records(), {"test": True})
    run(CallableSystem(_system, name="toy"), base / "ds", base / "run", progress=False)
    return base / "run"


def test_streamed_evaluation_writes_the_whole_run_files(run_dir, tmp_path, monkeypatch):
    """Several blocks of 5 give judgements.jsonl, blame.jsonl, summary.md and metrics.json
    identical to the whole-run path; the dataset is never read whole."""
    with monkeypatch.context() as m:  # the whole-run path: every record and judgement held at once
        m.setattr(evaluate_report, "_streams", lambda kind, config: False)
        evaluate(run_dir, out=tmp_path / "whole", judge="exact", n_boot=200)
    whole = tmp_path / "whole"
    monkeypatch.setattr(runs, "STREAM_BLOCK", 5)
    import ragdx.gen.dataset as dataset

    def refuse(*_a, **_k):
        raise AssertionError("a streamed evaluation read the whole dataset")

    monkeypatch.setattr(dataset, "read_records", refuse)
    streamed = evaluate(run_dir, out=tmp_path / "streamed", judge="exact", n_boot=200)
    assert evaluate_report._streams("run", evaluate_report.EvaluationConfig.build(judge="exact"))
    for name in ("judgements.jsonl", "blame.jsonl", "summary.md"):
        assert (tmp_path / "streamed" / name).read_bytes() == (whole / name).read_bytes(), name
    a, b = (json.loads((d / "metrics.json").read_text()) for d in (whole, tmp_path / "streamed"))
    for m in (a, b):
        m["source"].pop("relative_path", None)
    assert a == b
    # the result still offers what the whole-run path kept, read back from the files
    assert [j.id for j in streamed.judgements] == [json.loads(x)["id"] for x in
                                                  (whole / "judgements.jsonl").read_text().splitlines()]
    assert len(streamed.verdicts) == 24 and {v["verdict"] for v in streamed.verdicts} >= {"correct", "kb_gap"}


def test_judge_run_hands_blocks_to_the_sink_and_keeps_slim_judgements(run_dir, monkeypatch):
    whole = runs.judge_run(run_dir, judge="exact")
    monkeypatch.setattr(runs, "STREAM_BLOCK", 7)
    blocks: list[list] = []
    # the sink writes a block before it returns: the judgements are slimmed in place afterwards
    slim = runs.judge_run(run_dir, judge="exact", sink=lambda js: blocks.append([j.to_dict() for j in js]))
    assert [len(b) for b in blocks] == [7, 7, 7, 3]
    assert [j for b in blocks for j in b] == [j.to_dict() for j in whole]
    assert all(j.query == "" and j.entity_ids == [] for j in slim)  # the query lives in the file only
    assert [(j.id, j.correct, j.retrieval_correct) for j in slim] == [(j.id, j.correct, j.retrieval_correct)
                                                                       for j in whole]
    assert slim.check.to_dict() == whole.check.to_dict()


def test_records_read_out_of_order_are_joined_in_the_runs_order(run_dir, tmp_path):
    """A dataset whose records come in another order than the run asked them: each waits for
    its turn, so judgements keep the run's order."""
    records = list(reversed(_records()))
    write_dataset(tmp_path / "rev", records, {"test": True})
    inputs = read_inputs(run_dir)
    answers = runs.latest_answers(run_dir, inputs)
    pairs = list(runs._records_in_order(tmp_path / "rev", inputs, answers, run_dir))
    assert [r.id for r, _ in pairs] == [a.id for a in answers] == [i.id for i in inputs]
    assert all(r.id == a.id for r, a in pairs)


def test_a_query_worded_differently_refuses_as_before(run_dir, tmp_path):
    from dataclasses import replace

    records = _records()
    records[5] = replace(records[5], query="reworded")
    write_dataset(tmp_path / "changed", records, {"test": True})
    inputs = read_inputs(run_dir)
    with pytest.raises(RagdxError, match=r"dataset changed since the run: 1 of the run's 24 queries.*g2-t1"):
        list(runs._records_in_order(tmp_path / "changed", inputs, runs.latest_answers(run_dir, inputs), run_dir))


def test_records_given_in_memory_take_the_whole_run_path(run_dir, tmp_path):
    """A dataset passed as records (not a file) is judged whole, and its judgements written."""
    evaluate(run_dir, out=tmp_path / "mem", judge="exact", n_boot=100, dataset=_records())
    lines = (tmp_path / "mem" / "judgements.jsonl").read_text().splitlines()
    assert [json.loads(x)["id"] for x in lines] == [i.id for i in read_inputs(run_dir)]
