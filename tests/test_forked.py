"""Work beside the main process (ragdx.forked): a forked child's value equals the in-process one,
a failing or dying child leaves the parent to compute (and raise) itself, and judging half of the
distinct answers in a child gives the serial verdicts and counts."""

from __future__ import annotations

import json
import os
import signal

import pytest

from ragdx.evaluate import judges
from ragdx.evaluate.judges import CascadeJudge, JudgeItem
from ragdx.forked import Beside, can_fork

pytestmark = pytest.mark.skipif(not can_fork(), reason="needs Linux with fork and two cores")


def _child_pid(_: int) -> int:
    return os.getpid()


def test_the_value_comes_from_a_child_and_equals_the_parents():
    data = [{"x": i, "s": str(i) * 3} for i in range(10_000)]
    with Beside(lambda d: (sorted(d, key=lambda r: -r["x"])[:5], os.getpid()), data) as b:
        assert b.forked
        top, pid = b.result()
    assert top == sorted(data, key=lambda r: -r["x"])[:5]
    assert pid != os.getpid()  # computed elsewhere


def _boom(n: int) -> int:
    raise ValueError(f"bad {n}")


def test_a_failing_child_makes_the_parent_raise_the_error_itself():
    with Beside(_boom, 3) as b, pytest.raises(ValueError, match="bad 3"):
        b.result()
    assert not b.forked


def _die(n: int) -> int:
    if os.getpid() != PARENT:
        os.kill(os.getpid(), signal.SIGKILL)
    return n * 2


PARENT = os.getpid()


def test_a_killed_child_is_recomputed_here():
    with Beside(_die, 21) as b:
        assert b.result() == 42
    assert not b.forked


def test_a_result_never_asked_for_leaves_no_child():
    with Beside(_child_pid, 0) as b:
        pid = b._pid
        assert pid is not None
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reaped already


def test_disabled_by_environment(monkeypatch):
    monkeypatch.setenv("RAGDX_FORK", "0")
    with Beside(_child_pid, 0) as b:
        assert not b.forked
        assert b.result() == os.getpid()


def test_judging_half_in_a_child_gives_the_serial_verdicts_and_counts(monkeypatch):
    answers = ["1,200", "Paris", "2004-01-02", "Faculty of Humanities", "42", "no"]
    responses = ["It is 1,200.", "Paris, France", "on 2 January 2004", "Faculty of Engineering",
                 "maybe 42 or 43", "There is no record of it.", "", None, "the value is 41"]
    items = [JudgeItem(f"q{i}", [[answers[i % 6]]], responses[(i * 7) % 9], "none" if i % 11 == 0 else "single")
             for i in range(600)]
    serial = CascadeJudge()
    want = serial._judge_each(items, None)
    monkeypatch.setattr(judges, "_FORK_AT", 100)
    seen = []

    class Recorded(Beside):
        def result(self):
            value = super().result()
            seen.append((self.forked, len(value)))
            return value

    monkeypatch.setattr("ragdx.forked.Beside", Recorded)
    forked = CascadeJudge()
    got = forked._judge_each(items, None)
    assert len(seen) == 1 and seen[0][0] and seen[0][1] > 0  # half of the distinct items came from a child
    assert got == want
    assert forked.decided_by == serial.decided_by
    assert sum(forked.decided_by.values()) == len(items)


def test_evaluate_with_children_equals_in_process(tmp_path, monkeypatch):
    from ragdx.evaluate import evaluate
    from ragdx.evaluate import report as report_module
    from ragdx.gen.dataset import QARecord, write_dataset
    from ragdx.rag.runner import run
    from ragdx.rag.systems import CallableSystem

    records = [QARecord(id=f"g{g}-t{t}", group_id=f"g{g}", sql_template_id="s", text_template_id=f"t{t}",
                        style=("short", "long")[t], schema="C", table="C", params={}, sql="", query=f"q{g} {t}",
                        answer_columns=["a"], answer_rows=[[f"value {g} of the cat"]],
                        answer_text=f"value {g} of the cat", answer_kind="single",
                        gold_document_ids=[f"d{g}"], kb_supported=True) for g in range(8) for t in range(2)]
    write_dataset(tmp_path / "ds", records, {"test": True})
    run(CallableSystem(lambda q: {"answer": f"The cats' value is {q[1]}." if q.endswith("0") else "no idea",
                                  "contexts": [{"id": f"d{q[1]}", "text": ""}]}, name="toy"),
        tmp_path / "ds", tmp_path / "run", progress=False)
    monkeypatch.setenv("RAGDX_FORK", "0")
    here = evaluate(tmp_path / "run", out=tmp_path / "here", n_boot=50)
    monkeypatch.setenv("RAGDX_FORK", "1")
    monkeypatch.setattr(report_module, "_FORK_AT", 1)
    seen = []

    class Recorded(Beside):
        def result(self):
            value = super().result()
            seen.append(self.forked)
            return value

    monkeypatch.setattr("ragdx.forked.Beside", Recorded)
    child = evaluate(tmp_path / "run", out=tmp_path / "child", n_boot=50)
    assert seen == [True, True]  # the style test, ROUGE-L
    assert 0 < child.text_metrics["rouge_l"] < 1
    assert child.text_metrics == here.text_metrics
    assert child.comparison is not None
    # (json: NaN intervals of a toy run compare equal as text, not as floats)
    assert json.dumps(child.comparison, sort_keys=True) == json.dumps(here.comparison, sort_keys=True)
    for name in ("judgements.jsonl", "blame.jsonl"):
        assert (tmp_path / "child" / name).read_bytes() == (tmp_path / "here" / name).read_bytes()
