"""The runner: crash safety (SIGKILL, torn lines, Ctrl-C), resume, --rerun-failed, manifest, grid.

Processes are real: the SIGKILL and SIGINT tests run the runner in a child Python and signal
it while it writes. The functions at the top are the systems under test, importable as
``tests.test_runner:<name>`` from a child process.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from ragdx.errors import RagdxError
from ragdx.rag.executor import LocalAsyncExecutor
from ragdx.rag.rundir import read_run
from ragdx.rag.runner import RunSummary, load_grid, run, run_grid, summary_table
from ragdx.rag.systems import CallableSystem, ResultsFileSystem
from ragdx.rag.types import SystemInput, SystemOutput
from tests.support.timing import scaled

REPO = Path(__file__).resolve().parents[1]

# Queries a careless adapter would break: quotes, braces that look like placeholders,
# backslashes, newlines, non-ASCII.
AWKWARD = ['What is "O\'Connell"\'s office?', "Is {id} a placeholder? {query}", "back\\slash \\n",
           "Zoë teaches 日本語?", "two\nlines", "}{ ][ ,:"]


# ----------------------------------------------------------------------------- systems under test


def _doc(query: str) -> str:
    return "doc-" + hashlib.sha256(query.encode()).hexdigest()[:8]


def slow_answer(query: str) -> dict:
    """Deterministic in the query, and slow enough (20 ms) that a run can be killed midway."""
    time.sleep(float(os.environ.get("RAGDX_TEST_SLEEP", "0.02")))
    return {"answer": f"answer to {query}",
            "contexts": [{"id": _doc(query), "text": f"about {query}", "score": 0.5}],
            "prompt_tokens": len(query.split()), "completion_tokens": 3}


async def async_answer(query: str) -> dict:
    await asyncio.sleep(0.001)
    return {"answer": f"answer to {query}", "contexts": [{"id": _doc(query), "text": f"about {query}",
                                                          "score": 0.5}],
            "prompt_tokens": len(query.split()), "completion_tokens": 3}


def suffix_answer(query: str, suffix: str = "") -> str:
    return f"{query}{suffix}"


# ----------------------------------------------------------------------------- helpers


def make_dataset(directory: Path, n: int) -> Path:
    """A dataset directory in the format ``ragdx gen`` writes (records.jsonl is what is read)."""
    directory.mkdir(parents=True, exist_ok=True)
    lines = []
    for k in range(n):
        query = f"{AWKWARD[k % len(AWKWARD)]} #{k}"
        lines.append(json.dumps({
            "id": f"r{k:04d}", "group_id": f"g{k // 3}", "sql_template_id": "t1", "text_template_id": "x1",
            "style": "short", "schema": "Staff", "table": "Staff", "params": {"Staff.Name": f"n{k}"},
            "sql": "SELECT 1", "query": query, "answer_columns": ["Office"], "answer_rows": [[f"o{k}"]],
            "answer_text": f"o{k}", "answer_kind": "single",
        }, ensure_ascii=False))
    (directory / "records.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (directory / "manifest.json").write_text("{}", encoding="utf-8")
    return directory


def comparable(outputs: list[SystemOutput]) -> list[tuple]:
    """What must match between two runs of a deterministic system (latency never does)."""
    return [(o.id, o.query, o.answer, [(c.id, c.text, c.score) for c in o.contexts], o.prompt_tokens,
             o.completion_tokens, o.error) for o in outputs]


def result_lines(run_dir: Path) -> list[dict]:
    raw = (run_dir / "results.jsonl").read_bytes()
    assert raw == b"" or raw.endswith(b"\n"), "results.jsonl must end on a whole line"
    return [json.loads(line) for line in raw.splitlines() if line.strip()]


def manifest(run_dir: Path) -> dict:
    return json.loads((run_dir / "manifest.json").read_text(encoding="utf-8"))


class Counting:
    """A sync system function that counts its calls per query and fails chosen ones once."""

    def __init__(self, fail_once: set[str] = frozenset()):
        self.calls: Counter[str] = Counter()
        self.fail_once = set(fail_once)
        self.lock = threading.Lock()

    def __call__(self, item: SystemInput) -> dict:
        with self.lock:
            self.calls[item.id] += 1
            first = self.calls[item.id] == 1
        if first and item.id in self.fail_once:
            raise ConnectionError(f"backend down for {item.id}")
        return {"answer": f"answer to {item.query}", "prompt_tokens": 2, "completion_tokens": 1}


CHILD = """
import sys
from ragdx.rag.runner import RunInterrupted, run
from ragdx.rag.systems import CallableSystem
try:
    s = run(CallableSystem("tests.test_runner:slow_answer"), sys.argv[1], sys.argv[2], concurrency=4,
            progress=False)
    print("done", s.ok, s.failed, s.pending, s.attempted, s.skipped)
except RunInterrupted as exc:  # what the CLI does: one line and exit status 130
    print("interrupted", exc.summary.ok, exc.summary.pending)
    sys.exit(130)
"""


def child(dataset: Path, run_dir: Path) -> subprocess.Popen:
    env = {**os.environ, "OMP_WAIT_POLICY": "passive", "HF_HUB_OFFLINE": "1"}
    return subprocess.Popen([sys.executable, "-c", CHILD, str(dataset), str(run_dir)], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for_lines(path: Path, at_least: int, proc: subprocess.Popen, timeout: float = 30.0) -> int:
    timeout = scaled(timeout)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists():
            n = path.read_bytes().count(b"\n")
            if n >= at_least:
                return n
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"child ended early (rc {proc.returncode}): {out} {err[-2000:]}")
        time.sleep(0.005)
    pytest.fail(f"no {at_least} lines in {path} after {timeout}s")


# ----------------------------------------------------------------------------- crash safety


def test_sigkill_midway_then_resume_equals_an_uninterrupted_run(tmp_path):
    n = 160
    dataset = make_dataset(tmp_path / "ds", n)
    killed = tmp_path / "killed"
    seen_at_kill = []
    for target in (30, 90):  # two kills, at different depths
        proc = child(dataset, killed)
        wait_for_lines(killed / "results.jsonl", target, proc)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=scaled(10))
        assert proc.returncode == -signal.SIGKILL
        seen_at_kill.append((killed / "results.jsonl").read_bytes().count(b"\n"))
    # The kills really landed midway; otherwise this test would prove nothing.
    assert 30 <= seen_at_kill[0] < n and seen_at_kill[0] <= seen_at_kill[1] < n, seen_at_kill
    proc = child(dataset, killed)
    out, err = proc.communicate(timeout=scaled(60))
    assert proc.returncode == 0, err[-2000:]
    done, ok, failed, pending, attempted, skipped = out.split()
    assert (done, int(ok), int(failed), int(pending)) == ("done", n, 0, 0)
    assert int(skipped) >= seen_at_kill[1] and int(attempted) + int(skipped) == n

    whole = tmp_path / "whole"
    summary = run(CallableSystem(slow_answer), dataset, whole, concurrency=4, progress=False)
    assert (summary.ok, summary.failed, summary.pending) == (n, 0, 0)

    lines = result_lines(killed)
    ids = [line["id"] for line in lines]
    assert len(ids) == len(set(ids)) == n  # nothing lost, nothing written twice
    resumed, uninterrupted = read_run(killed), read_run(whole)
    assert [o.id for o in resumed] == [f"r{k:04d}" for k in range(n)]  # dataset order
    assert comparable(resumed) == comparable(uninterrupted)
    m = manifest(killed)
    assert m["status"] == "complete" and m["counts"]["ok"] == n and m["counts"]["result_lines"] == n
    assert len(m["invocations"]) == 3


def test_torn_last_line_is_ignored_then_cut_and_its_record_rerun(tmp_path):
    dataset = make_dataset(tmp_path / "ds", 12)
    run_dir = tmp_path / "run"
    system = CallableSystem(async_answer)
    run(system, dataset, run_dir, progress=False, limit=5)
    # What a process killed inside write() leaves: the start of a line, no newline.
    whole_line = json.dumps({"id": "r0005", "query": "x", "answer": "half"})
    with (run_dir / "results.jsonl").open("ab") as fh:
        fh.write(whole_line[:23].encode())
    assert [o.id for o in read_run(run_dir)] == [f"r{k:04d}" for k in range(5)]  # reading ignores it

    summary = run(system, dataset, run_dir, progress=False)
    assert (summary.ok, summary.pending, summary.attempted, summary.skipped) == (12, 0, 7, 5)
    lines = result_lines(run_dir)  # every line whole and valid JSON
    assert Counter(line["id"] for line in lines) == Counter({f"r{k:04d}": 1 for k in range(12)})
    assert manifest(run_dir)["invocations"][-1]["repaired_torn_line"] is True


def test_damage_before_the_last_line_is_reported_not_guessed(tmp_path):
    dataset = make_dataset(tmp_path / "ds", 4)
    run_dir = tmp_path / "run"
    run(CallableSystem(async_answer), dataset, run_dir, progress=False)
    lines = (run_dir / "results.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    lines[1] = lines[1][:10] + "\n"
    (run_dir / "results.jsonl").write_text("".join(lines), encoding="utf-8")
    with pytest.raises(RagdxError, match=r"results.jsonl: line 2: not valid JSON"):
        run(CallableSystem(async_answer), dataset, run_dir, progress=False)


def test_ctrl_c_stops_with_130_and_a_consistent_directory(tmp_path):
    n = 120
    dataset = make_dataset(tmp_path / "ds", n)
    run_dir = tmp_path / "run"
    proc = child(dataset, run_dir)
    wait_for_lines(run_dir / "results.jsonl", 20, proc)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=scaled(30))
    assert proc.returncode == 130, err[-2000:]
    word, ok, pending = out.split()
    m = manifest(run_dir)
    assert word == "interrupted" and m["status"] == "interrupted"
    assert m["invocations"][-1]["status"] == "interrupted"
    lines = result_lines(run_dir)  # whole lines only: in-flight queries were cancelled, not half-written
    assert len(lines) == int(ok) == m["counts"]["ok"] and 20 <= len(lines) < n
    assert int(pending) == m["counts"]["pending"] == n - len(lines)

    summary = run(CallableSystem(slow_answer), dataset, run_dir, progress=False)
    assert (summary.ok, summary.attempted) == (n, n - len(lines))
    assert len({line["id"] for line in result_lines(run_dir)}) == len(result_lines(run_dir)) == n


# ----------------------------------------------------------------------------- resume and failures


def test_resume_sends_only_what_is_not_done(tmp_path):
    dataset = make_dataset(tmp_path / "ds", 20)
    fn = Counting()
    system = CallableSystem(fn, arg="input")
    first = run(system, dataset, tmp_path / "run", progress=False, limit=7)
    assert (first.ok, first.pending, first.attempted) == (7, 13, 7)
    assert manifest(tmp_path / "run")["status"] == "partial"
    second = run(system, dataset, tmp_path / "run", progress=False)
    assert (second.ok, second.pending, second.attempted, second.skipped) == (20, 0, 13, 7)
    third = run(system, dataset, tmp_path / "run", progress=False)
    assert (third.attempted, third.skipped) == (0, 20)
    assert set(fn.calls.values()) == {1} and len(fn.calls) == 20


def test_rerun_failed_retries_only_the_failures(tmp_path):
    dataset = make_dataset(tmp_path / "ds", 15)
    failing = {"r0002", "r0007", "r0011"}
    fn = Counting(fail_once=failing)
    system = CallableSystem(fn, arg="input")  # retries=0: a failure is recorded at once
    run_dir = tmp_path / "run"

    first = run(system, dataset, run_dir, progress=False)
    assert (first.ok, first.failed, first.pending) == (12, 3, 0)
    failed = {o.id: o for o in read_run(run_dir) if o.error}
    assert set(failed) == failing
    assert all(o.answer is None and o.attempts == 1 and "ConnectionError: backend down" in o.error
               for o in failed.values())
    assert manifest(run_dir)["status"] == "complete_with_failures"

    plain = run(system, dataset, run_dir, progress=False)  # a failure stays recorded until asked
    assert plain.attempted == 0 and plain.failed == 3

    again = run(system, dataset, run_dir, progress=False, rerun_failed=True)
    assert (again.attempted, again.ok, again.failed) == (3, 15, 0)
    assert fn.calls == Counter({f"r{k:04d}": 2 if f"r{k:04d}" in failing else 1 for k in range(15)})
    lines = result_lines(run_dir)
    assert len(lines) == 18  # the failed attempts stay in the log; the latest line wins
    assert all(o.error is None for o in read_run(run_dir))


def test_a_system_that_breaks_the_protocol_still_leaves_records(tmp_path):
    class Rude:
        name = "rude"

        def describe(self):
            return {"kind": "rude"}

        async def answer(self, item):
            if item.id.endswith("1"):
                raise RuntimeError("boom\nsecond line")
            if item.id.endswith("2"):
                return "not an output"
            return SystemOutput(id="other", query=item.query, answer="x")

    dataset = make_dataset(tmp_path / "ds", 3)
    summary = run(Rude(), dataset, tmp_path / "run", progress=False)
    assert (summary.ok, summary.failed) == (0, 3)
    errors = {o.id: o.error for o in read_run(tmp_path / "run")}
    assert errors == {"r0000": "system answered for id 'other' instead",
                      "r0001": "system raised RuntimeError: boom second line",
                      "r0002": "system returned str, not a SystemOutput"}


# ----------------------------------------------------------------------------- manifest and refusals


def test_manifest_counts_tokens_latency_and_dataset_hash(tmp_path):
    dataset = make_dataset(tmp_path / "ds", 10)
    fn = Counting(fail_once={"r0003"})
    run_dir = tmp_path / "run"
    summary = run(CallableSystem(fn, arg="input", name="counting"), dataset, run_dir, progress=False)
    m = manifest(run_dir)
    assert m["counts"] == {"total": 10, "ok": 9, "failed": 1, "pending": 0, "empty": 0, "result_lines": 10}
    assert m["tokens"] == {"prompt": 18, "completion": 9}
    assert (summary.prompt_tokens, summary.completion_tokens) == (18, 9)
    assert m["dataset"]["sha256"] == hashlib.sha256((dataset / "records.jsonl").read_bytes()).hexdigest()
    assert m["dataset"]["records"] == 10 and m["dataset"]["path"] == str(dataset)
    assert m["system"]["name"] == "counting" and m["system"]["config"]["kind"] == "callable"
    assert m["versions"]["ragdx"] and m["versions"]["python"].count(".") == 2
    lat = m["latency_s"]
    assert lat["n"] == 9 and 0 < lat["p50"] <= lat["p90"] <= lat["p99"] <= lat["max"]
    assert m["started"] <= m["ended"]
    assert [(i["id"], i["query"]) for i in map(json.loads, (run_dir / "inputs.jsonl").read_text().splitlines())][:1] \
        == [("r0000", f"{AWKWARD[0]} #0")]


def test_another_dataset_or_system_is_refused_unless_overwrite(tmp_path):
    run_dir = tmp_path / "run"
    run(CallableSystem(suffix_answer), make_dataset(tmp_path / "a", 4), run_dir, progress=False)
    other = make_dataset(tmp_path / "b", 5)
    with pytest.raises(RagdxError, match="different dataset") as exc:
        run(CallableSystem(suffix_answer), other, run_dir, progress=False)
    assert "\n" not in str(exc.value) and str(run_dir) in str(exc.value)
    with pytest.raises(RagdxError, match="different system configuration"):
        run(CallableSystem(suffix_answer, options={"suffix": "!"}), tmp_path / "a", run_dir, progress=False)
    assert len(result_lines(run_dir)) == 4  # refusals wrote nothing

    summary = run(CallableSystem(suffix_answer, options={"suffix": "!"}), other, run_dir, progress=False,
                  overwrite=True)
    assert (summary.total, summary.ok) == (5, 5)
    assert all(o.answer.endswith("!") for o in read_run(run_dir)) and len(result_lines(run_dir)) == 5


def test_same_queries_with_regenerated_answers_resume(tmp_path):
    dataset = make_dataset(tmp_path / "ds", 4)
    run(CallableSystem(suffix_answer), dataset, tmp_path / "run", progress=False, limit=2)
    text = (dataset / "records.jsonl").read_text(encoding="utf-8").replace('"answer_text": "o1"', '"answer_text": "O1"')
    (dataset / "records.jsonl").write_text(text, encoding="utf-8")
    summary = run(CallableSystem(suffix_answer), dataset, tmp_path / "run", progress=False)
    assert (summary.ok, summary.attempted) == (4, 2)


# ----------------------------------------------------------------------------- executor and grid


def test_local_executor_bounds_concurrency_and_stops_when_closed():
    live = 0
    peak = 0
    started: list[int] = []

    async def work(k: int) -> int:
        nonlocal live, peak
        started.append(k)
        live += 1
        peak = max(peak, live)
        try:
            await asyncio.sleep(0.01 * (k % 3))
        finally:
            live -= 1
        return k

    async def main():
        got = [k async for k in LocalAsyncExecutor().map(work, range(40), 5)]
        assert sorted(got) == list(range(40)) and peak == 5
        started.clear()
        gen = LocalAsyncExecutor().map(work, range(1000), 3)
        first = [await anext(gen) for _ in range(4)]
        await gen.aclose()
        assert len(first) == 4 and len(started) <= 4 + 3 and live == 0

    asyncio.run(main())


def test_grid_runs_each_configuration_into_its_own_directory(tmp_path):
    dataset = make_dataset(tmp_path / "ds", 6)
    (tmp_path / "given.jsonl").write_text(
        "".join(json.dumps({"qid": f"r{k:04d}", "out": {"text": f"given {k}"}}) + "\n" for k in range(5)),
        encoding="utf-8")
    grid = tmp_path / "lab.yaml"
    grid.write_text(
        "base:\n  kind: callable\n  target: tests.test_runner:suffix_answer\n  options: {suffix: ''}\n"
        "variants:\n  er: {options: {suffix: ' [er]'}}\n  mq-cpr-icl: {options: {suffix: ' [mq]'}}\n"
        "  plain: {}\n"
        "systems:\n  vendor:\n    kind: results\n    path: given.jsonl\n    id_field: qid\n"
        "    answer_field: out.text\n    contexts_field: null\n",
        encoding="utf-8")
    specs, base_dir = load_grid(grid)
    assert [n for n, _ in specs] == ["vendor", "er", "mq-cpr-icl", "plain"] and base_dir == tmp_path
    summaries = run_grid(grid, dataset, tmp_path / "out", progress=False)
    assert [(s.system, s.ok, s.failed) for s in summaries] == [
        ("vendor", 5, 1), ("er", 6, 0), ("mq-cpr-icl", 6, 0), ("plain", 6, 0)]
    assert read_run(tmp_path / "out" / "er")[0].answer == f"{AWKWARD[0]} #0 [er]"
    vendor = {o.id: o for o in read_run(tmp_path / "out" / "vendor")}
    assert vendor["r0004"].answer == "given 4" and vendor["r0005"].error == "not in results file"
    again = run_grid(grid, dataset, tmp_path / "out", progress=False, only=["er"])
    assert [(s.system, s.attempted, s.skipped) for s in again] == [("er", 0, 6)]

    from rich.console import Console

    console = Console(record=True, width=120)
    console.print(summary_table(summaries))
    text = console.export_text()
    assert "mq-cpr-icl" in text and "vendor" in text


def test_grid_errors_are_one_line(tmp_path):
    bad = tmp_path / "lab.yaml"
    bad.write_text("variants:\n  er: {}\n", encoding="utf-8")
    with pytest.raises(RagdxError, match=r"lab.yaml: variants: variants need a 'base'"):
        load_grid(bad)
    bad.write_text("systems:\n  'a/b': {kind: callable, target: 'x:y'}\n", encoding="utf-8")
    with pytest.raises(RagdxError, match="names a directory"):
        load_grid(bad)
    with pytest.raises(RagdxError, match="not in the grid: nope"):
        run_grid({"systems": {"a": {"kind": "callable", "target": "tests.test_runner:suffix_answer"}}},
                 [SystemInput("1", "q")], tmp_path / "o", only=["nope"], progress=False)


def test_results_file_round_trip_reproduces_a_run(tmp_path):
    dataset = make_dataset(tmp_path / "ds", 9)
    first = tmp_path / "first"
    run(CallableSystem(async_answer), dataset, first, progress=False)
    replay = ResultsFileSystem(first / "results.jsonl")
    summary = run(replay, dataset, tmp_path / "replay", progress=False)
    assert summary.ok == 9
    a, b = read_run(first), read_run(tmp_path / "replay")
    assert comparable(a) == comparable(b)
    assert [o.latency_s for o in a] == [o.latency_s for o in b]  # the original system's latency, kept


def test_run_summary_is_plain_data(tmp_path):
    summary = run(CallableSystem(suffix_answer), [SystemInput("a", "q1"), SystemInput("b", "q2")],
                  tmp_path / "run", progress=True)
    assert isinstance(summary, RunSummary)
    data = summary.to_dict()
    assert json.loads(json.dumps(data))["ok"] == 2 and data["run_dir"] == str(tmp_path / "run")
    assert manifest(tmp_path / "run")["dataset"]["path"] is None


def test_two_runners_never_share_a_directory(tmp_path):
    import fcntl

    run_dir = tmp_path / "run"
    run_dir.mkdir()
    with (run_dir / ".lock").open("a") as held:  # what a live runner holds
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(RagdxError, match="another ragdx run is writing to this directory"):
            run(CallableSystem(suffix_answer), [SystemInput("a", "q")], run_dir, progress=False)
    assert not (run_dir / "results.jsonl").exists()
    assert run(CallableSystem(suffix_answer), [SystemInput("a", "q")], run_dir, progress=False).ok == 1


def test_system_from_cli_options(tmp_path):
    from ragdx.rag.resolve import request_from_options
    from ragdx.rag.systems import HTTPSystem

    def system_from_options(system=None, **options):
        return request_from_options(system, **options).build()

    assert isinstance(system_from_options(callable_="tests.test_runner:suffix_answer"), CallableSystem)
    assert isinstance(system_from_options(http="http://127.0.0.1:9/ask"), HTTPSystem)
    (tmp_path / "r.jsonl").write_text('{"id": "a", "answer": "x"}\n', encoding="utf-8")
    assert isinstance(system_from_options(results=tmp_path / "r.jsonl"), ResultsFileSystem)
    spec = tmp_path / "s.yaml"
    spec.write_text("kind: results\npath: r.jsonl\n", encoding="utf-8")
    assert isinstance(system_from_options(spec), ResultsFileSystem)
    with pytest.raises(RagdxError, match="name exactly one system.*got --system, --http"):
        system_from_options(spec, http="http://127.0.0.1:9/")
    with pytest.raises(RagdxError, match="got none"):
        system_from_options()


def test_numpy_scores_are_written_as_numbers(tmp_path):
    import numpy as np

    class NumpyScores:
        name = "np"

        def describe(self):
            return {"kind": "np"}

        async def answer(self, item):
            from ragdx.rag.types import RetrievedContext

            return SystemOutput(id=item.id, query=item.query, answer="a",
                                contexts=[RetrievedContext("d", "t", np.float32(0.5))], latency_s=0.0)

    run(NumpyScores(), [SystemInput("a", "q")], tmp_path / "run", progress=False)
    assert result_lines(tmp_path / "run")[0]["contexts"][0]["score"] == 0.5


def test_a_result_line_is_the_output_as_asdict_serialises_it():
    # SystemOutput.to_dict builds each line's dict without dataclasses.asdict; the bytes must not change
    from dataclasses import asdict

    import numpy as np

    from ragdx.rag.runner import _LINE_ENCODER, _json_scalar
    from ragdx.rag.types import RetrievedContext

    class Doc:  # not a RetrievedContext: goes the to_dict way
        pass

    outputs = [
        SystemOutput("a", "q é", "ü", [RetrievedContext("d", "t\n", np.float32(0.25)), RetrievedContext("e", "", None)],
                     latency_s=0.125, prompt_tokens=3, completion_tokens=np.int64(2), attempts=2),
        SystemOutput("b", "q", None, [], latency_s=None, error="system raised X: y"),
        SystemOutput("c", "q", "", [{"id": "d", "text": "t", "score": 1}]),  # type: ignore[list-item]
        SystemOutput("e", "Its faculty?", "x", [], rewritten_query="What is the faculty of course 'A'?"),
    ]
    for out in outputs:
        # a follow-up's rewrite is written only when there is one (issue 26): other lines keep their bytes
        fields = {k: v for k, v in asdict(out).items() if k != "rewritten_query" or v is not None}
        expected = json.dumps(fields, ensure_ascii=False, separators=(",", ":"), default=_json_scalar)
        assert _LINE_ENCODER.encode(out.to_dict()) == expected
    odd = SystemOutput("d", "q", "a", [Doc()])  # type: ignore[list-item]
    with pytest.raises(TypeError):  # as asdict's output would: the object is not JSON
        _LINE_ENCODER.encode(odd.to_dict())


def test_overlapped_group_commit_writes_what_waiting_for_each_fsync_writes(tmp_path, monkeypatch):
    import ragdx.rag.writer as writer_module

    dataset = make_dataset(tmp_path / "ds", 150)
    lines = {}
    for overlap in (False, True):
        monkeypatch.setattr(writer_module, "GROUP_COMMIT_OVERLAP", overlap)
        monkeypatch.setattr(writer_module, "GROUP_COMMIT_LINES", 7)
        summary = run(CallableSystem(suffix_answer), dataset, tmp_path / f"run-{overlap}", progress=False,
                      concurrency=1)
        assert summary.ok == summary.attempted == 150 and summary.pending == 0
        assert manifest(tmp_path / f"run-{overlap}")["counts"]["result_lines"] == 150
        lines[overlap] = [{k: v for k, v in obj.items() if k != "latency_s"}
                          for obj in result_lines(tmp_path / f"run-{overlap}")]
    assert lines[True] == lines[False] and len(lines[True]) == 150


def test_local_executor_yields_results_in_the_order_they_finish():
    async def work(k: int) -> int:
        await asyncio.sleep(0.02 * (4 - k))  # the last started finishes first
        return k

    async def main():
        return [k async for k in LocalAsyncExecutor().map(work, range(5), 5)]

    assert asyncio.run(main()) == [4, 3, 2, 1, 0]
