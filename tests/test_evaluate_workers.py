"""Evaluation on more than one core (issue 24, evaluate at 100k): an offline judge's verdicts made
by worker processes a few blocks ahead (``runs.JudgePool``), the style test and the lab metrics in
forked children (``ragdx.forked``). The files are byte for byte those of one process; a worker or
a child that dies costs time, never a verdict."""

from __future__ import annotations

import os

import pytest

from ragdx.errors import RagdxError
from ragdx.evaluate import evaluate, runs
from ragdx.evaluate.config import EvaluationConfig
from ragdx.evaluate.judges import CascadeJudge, ExactMatchJudge
from ragdx.forked import ENV, Forked, Inline
from ragdx.gen.dataset import QARecord, write_dataset
from ragdx.rag.runner import run
from ragdx.rag.systems import CallableSystem

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked processes (Linux)")

FILES = ("judgements.jsonl", "blame.jsonl", "summary.md", "metrics.json", "manifest.json")


def _records() -> list[QARecord]:
    """30 groups x 2 styles, answers of several kinds: text, numbers, dates; groups 25-29 have no document."""
    out = []
    for g in range(30):
        gold = [f"City {g}", 1000 + g, f"2024-03-{g % 28 + 1:02d}"][g % 3]
        for t, text in enumerate([f"value of item {g}", f"What is the recorded value of item {g}?"]):
            out.append(QARecord(
                id=f"g{g}-t{t}", group_id=f"g{g}", sql_template_id=f"s{g % 3}", text_template_id=f"t{t}",
                style="short" if t == 0 else "long", schema="Item", table="Item", params={}, sql=f"q{g}",
                query=text, answer_columns=["Value"], answer_rows=[[gold]], answer_text=str(gold),
                answer_kind="single", gold_document_ids=[f"d{g}"] if g < 25 else [], kb_supported=g < 25,
                evidence_sets=[[f"d{g}"]] if g < 25 else []))
    return out


def _system(query: str) -> dict:
    g = int(query.rstrip("?").split()[-1])
    gold = [f"City {g}", str(1000 + g), f"March {g % 28 + 1}, 2024"][g % 3]
    right_doc = g % 4 != 1
    answer = gold if right_doc and g % 5 != 2 else ("I don't know" if g % 2 else f"{gold} or maybe 7")
    return {"answer": f"It is {answer}." if query.startswith("What") else answer,
            "contexts": [{"id": f"d{g}" if right_doc else f"d{(g + 1) % 25}", "text": ""}]}


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    base = tmp_path_factory.mktemp("workers")
    write_dataset(base / "ds", _records(), {"test": True})
    run(CallableSystem(_system, name="toy"), base / "ds", base / "run", progress=False)
    return base / "run"


def _files(directory) -> dict[str, bytes]:
    return {name: (directory / name).read_bytes() for name in FILES}


def test_workers_write_the_files_of_one_process(run_dir, tmp_path, monkeypatch):
    """Blocks of 7 judged by 2 workers, the style test and ROUGE forked: every file the same as
    with no worker and nothing forked; the cascade's per-stage counts add up the same."""
    monkeypatch.setattr(runs, "STREAM_BLOCK", 7)
    counts = {}

    for label, workers, fork in (("alone", 0, "0"), ("workers", 2, "1")):
        monkeypatch.setenv(ENV, fork)
        judges: list[CascadeJudge] = []
        real = runs.JudgePool.__init__

        def keep(self, judge, cache, n, _real=real, _judges=judges, **kw):
            _judges.append(judge)
            _real(self, judge, cache, n, **kw)

        monkeypatch.setattr(runs.JudgePool, "__init__", keep)
        evaluate(run_dir, out=tmp_path / label, judge="cascade", n_boot=200, workers=workers)
        counts[label] = dict(judges[0].decided_by)
        monkeypatch.setattr(runs.JudgePool, "__init__", real)
    assert _files(tmp_path / "alone") == _files(tmp_path / "workers")
    assert counts["alone"] == counts["workers"] and sum(counts["alone"].values()) > 0


def _dies(items):
    os._exit(3)  # a worker killed mid-run (out of memory, a signal)


def test_a_dead_worker_costs_time_not_verdicts(run_dir, tmp_path, monkeypatch):
    """Every worker dies on its first block: the blocks are judged in the main process, the files are
    the same, and the evaluation says the workers stopped."""
    monkeypatch.setattr(runs, "STREAM_BLOCK", 7)
    evaluate(run_dir, out=tmp_path / "alone", judge="cascade", n_boot=200, workers=0)
    monkeypatch.setattr(runs, "_pool_judge", _dies)
    result = evaluate(run_dir, out=tmp_path / "died", judge="cascade", n_boot=200, workers=2)
    assert any("judging worker processes stopped" in w for w in result.warnings)
    alone, died = _files(tmp_path / "alone"), _files(tmp_path / "died")
    assert alone["judgements.jsonl"] == died["judgements.jsonl"] and alone["blame.jsonl"] == died["blame.jsonl"]


def test_workers_are_chosen_only_where_they_are_safe_and_worth_it():
    """Auto: none below two blocks or on one core; never with a verdict cache or a judge that is not
    a built-in offline one; an explicit number wins; a negative number is refused by name."""
    config = EvaluationConfig.build(judge="cascade")
    judge = config.judge.build()
    assert runs.judge_workers(config, judge, None, runs.STREAM_BLOCK) == 0
    cores = len(os.sched_getaffinity(0))
    assert runs.judge_workers(config, judge, None, 10 * runs.STREAM_BLOCK) == max(0, min(4, cores - 1))
    assert runs.judge_workers(EvaluationConfig.build(judge="cascade", workers=3), judge, None, 10) == 3

    class Mine(ExactMatchJudge):  # a judge of the user's may keep state a copy would not share
        pass

    assert runs.judge_workers(EvaluationConfig.build(judge=Mine(), workers=3), Mine(), None, 10 ** 6) == 0
    with pytest.raises(RagdxError) as err:
        EvaluationConfig.build(workers=-1)
    assert err.value.field == "workers"
    assert "workers" not in EvaluationConfig.build(workers=2).to_dict()  # the files do not depend on it


def _square_sum(n: int) -> int:
    return sum(i * i for i in range(n))


def _fails(parent: int) -> None:
    raise RagdxError(f"bad input seen by {'the child' if os.getpid() != parent else 'the parent'}", field="x")


def _dies_in_child(parent: int) -> str:
    if os.getpid() != parent:
        os._exit(9)
    return "computed here"


def test_forked_gives_the_value_or_the_callers_own_error(monkeypatch):
    monkeypatch.setenv(ENV, "1")
    parent = os.getpid()
    assert Forked(_square_sum, 10_000).result() == _square_sum(10_000)
    # a child that dies or fails: run again here, so the caller sees its own value or error
    assert Forked(_dies_in_child, parent).result() == "computed here"
    with pytest.raises(RagdxError, match="seen by the parent"):
        Forked(_fails, parent).result()
    assert Inline(_dies_in_child, parent).result() == "computed here"
    monkeypatch.setenv(ENV, "0")
    assert Forked(_dies_in_child, parent).result() == "computed here"


def _slow() -> int:
    import time

    time.sleep(30)
    return 1


def test_a_result_never_asked_for_stops_its_child(monkeypatch):
    """The caller failed before asking: the child is killed and reaped when the handle goes."""
    monkeypatch.setenv(ENV, "1")
    forked = Forked(_slow)
    pid = forked._pid
    assert pid is not None
    del forked
    with pytest.raises(ChildProcessError):  # reaped: no such child any more
        os.waitpid(pid, os.WNOHANG)


def test_statistics_fork_only_while_the_copy_is_small():
    """A forked child copies the pages of the judgements it reads: beyond FORK_UP_TO judgements the
    style test and the lab metrics run in the main process (measured at 1M: 4 GB of copies)."""
    from ragdx.evaluate import report

    assert report.forked_if_small(report.FORK_UP_TO) is Forked
    assert report.forked_if_small(report.FORK_UP_TO + 1) is Inline
