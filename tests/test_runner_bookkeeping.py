"""The runner's bookkeeping is constant per record: the manifest's counts kept per acknowledged
line (equal to a full recount after failures, resumes and re-sent failures), its latency
percentiles from a sketch within its stated error, and a refresh whose cost does not grow with
the records answered."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

import ragdx.rag.runner as runner
from ragdx.rag.latency import ALPHA, LatencySketch
from ragdx.rag.rundir import (
    Manifest,
    ResultsScan,
    RunPaths,
    RunTally,
    counts,
    latency_stats,
    read_inputs,
    scan_results,
)
from ragdx.rag.runner import run
from ragdx.rag.systems import CallableSystem
from ragdx.rag.types import SystemInput


def make_dataset(directory: Path, n: int) -> Path:
    directory.mkdir(parents=True)
    with (directory / "records.jsonl").open("w", encoding="utf-8") as fh:
        for k in range(n):
            fh.write(json.dumps({
                "id": f"r{k:05d}", "group_id": f"g{k // 3}", "sql_template_id": "t1", "text_template_id": "x1",
                "style": "short", "schema": "S", "table": "S", "params": {}, "sql": "SELECT 1",
                "query": f"item {k}", "answer_columns": ["v"], "answer_rows": [[str(k)]], "answer_text": str(k),
                "answer_kind": "single"}) + "\n")
    return directory


class Flaky:
    """Fails the queries whose number is in ``failing``; answers the rest (some with nothing)."""

    def __init__(self, failing: set[int]):
        self.failing = failing

    def __call__(self, query: str) -> dict:
        k = int(query.split()[-1])
        if k in self.failing:
            raise RuntimeError(f"refused {k}")
        return {"answer": "" if k % 7 == 0 else f"answer {k}", "prompt_tokens": 2, "completion_tokens": 1}


def recount(run_dir: Path) -> tuple[dict, dict]:
    """The counts and latency summary from scratch: every input, the latest line of each."""
    inputs = read_inputs(run_dir)
    scan = scan_results(RunPaths(run_dir).results)
    return ({**counts(inputs, scan.latest), "result_lines": scan.lines},
            latency_stats(scan.latest[i.id] for i in inputs if i.id in scan.latest))


def manifest(run_dir: Path) -> dict:
    return json.loads((run_dir / "manifest.json").read_text())


def test_counts_equal_a_full_recount_after_failures_resume_and_rerun(tmp_path, monkeypatch):
    # every acknowledged group refreshes the manifest, so the per-line tally is what is written
    monkeypatch.setattr(runner, "MANIFEST_REFRESH_S", 0.0)
    data = make_dataset(tmp_path / "ds", 300)
    run_dir = tmp_path / "run"
    first = run(CallableSystem(Flaky(set(range(0, 300, 10)))), data, run_dir, progress=False, limit=200,
                concurrency=8)
    m = manifest(run_dir)
    expected, latency = recount(run_dir)
    assert m["counts"] == expected and m["latency_s"] == latency
    assert (first.ok, first.failed, first.pending) == (180, 20, 100)
    assert m["status"] == "partial" and m["counts"]["empty"] == expected["empty"] > 0
    # resume: the pending 100 (10 more failures), counted on top of what the first invocation wrote
    second = run(CallableSystem(Flaky(set(range(0, 300, 10)))), data, run_dir, progress=False, concurrency=8)
    m = manifest(run_dir)
    expected, latency = recount(run_dir)
    assert m["counts"] == expected and m["latency_s"] == latency
    assert (second.ok, second.failed, second.pending, second.skipped) == (270, 30, 0, 200)
    # the failed ones sent again and answered: each replaces its failed line in the counts
    third = run(CallableSystem(Flaky(set(range(0, 300, 20)))), data, run_dir, progress=False, rerun_failed=True,
                concurrency=8)
    m = manifest(run_dir)
    expected, latency = recount(run_dir)
    assert m["counts"] == expected and m["latency_s"] == latency
    assert (third.ok, third.failed, third.attempted) == (285, 15, 30)
    assert m["counts"]["result_lines"] == 330 and m["tokens"] == {"prompt": 2 * 285, "completion": 285}


def test_the_tally_follows_every_replacement_of_a_records_line():
    rng = random.Random(7)
    inputs = [SystemInput(id=f"r{k}", query="q") for k in range(2_000)]
    scan = ResultsScan()
    tally = RunTally(inputs, scan)
    for step in range(8_000):
        k = rng.randrange(len(inputs))
        failed = rng.random() < 0.3
        tally.add({"id": f"r{k}", "answer": None if failed or rng.random() < 0.1 else "a",
                   "error": "boom" if failed else None,
                   "latency_s": None if rng.random() < 0.05 else rng.lognormvariate(-3, 1),
                   "prompt_tokens": 1, "completion_tokens": 0, "llm": None})
        if step % 997 == 0 or step == 7_999:
            assert tally.counts() == counts(inputs, scan.latest)
    exact = latency_stats(scan.latest[i.id] for i in inputs if i.id in scan.latest)
    approx = tally.latency_stats()
    assert approx["n"] == exact["n"] and approx["mean"] == pytest.approx(exact["mean"], rel=1e-9)
    for key in ("p50", "p90", "p99", "max"):
        assert abs(approx[key] - exact[key]) <= ALPHA * exact[key] + 1e-6, key
    assert tally.latency_stats(exact=True) == exact


@pytest.mark.parametrize("draw", ["lognormal", "exponential", "bimodal"])
def test_sketch_percentiles_within_the_stated_error_on_100k_latencies(draw):
    rng = random.Random(11)
    pick = {"lognormal": lambda: rng.lognormvariate(-2.5, 1.2),
            "exponential": lambda: rng.expovariate(40.0),
            "bimodal": lambda: rng.gauss(0.02, 0.002) if rng.random() < 0.9 else rng.gauss(3.0, 0.5)}[draw]
    values = [abs(pick()) for _ in range(100_000)]
    sketch = LatencySketch()
    sketch.update(values)
    exact = latency_stats({"latency_s": v} for v in values)
    approx = sketch.summary()
    assert approx["n"] == exact["n"] == 100_000 and approx["max"] == exact["max"]
    for key in ("p50", "p90", "p99"):
        # the bound, plus the manifest's rounding to 6 decimals
        assert abs(approx[key] - exact[key]) <= ALPHA * exact[key] + 1e-6, (key, approx[key], exact[key])
    # and it is an estimate, not the exact value under another name: a coarser sketch is coarser
    coarse = LatencySketch(alpha=0.2)
    coarse.update(values)
    assert max(abs(coarse.summary()[k] - exact[k]) / exact[k] for k in ("p50", "p90", "p99")) > ALPHA


def within(estimate: float, exact: float) -> bool:
    return abs(estimate - exact) <= ALPHA * exact + 1e-9  # the bound, and a float's last bits


def test_sketch_removal_and_zero_latencies():
    sketch = LatencySketch()
    sketch.update([0.0, 0.0, 1.0, 2.0, 4.0])
    assert within(sketch.summary()["p50"], 1.0) and sketch.summary()["max"] == 4.0
    sketch.remove(4.0)  # the maximum: then read from the highest bucket left
    assert within(sketch.summary()["max"], 2.0) and sketch.n == 4
    assert within(sketch.summary()["p50"], 0.5)  # halfway between 0 (exactly) and 1
    sketch.remove(0.0)
    assert within(sketch.summary()["p50"], 1.0) and sketch.summary()["mean"] == 1.0


def _tally(n: int) -> RunTally:
    rng = random.Random(n)
    inputs = [SystemInput(id=f"r{k}", query="q") for k in range(n)]
    scan = ResultsScan()
    for i in inputs:
        scan.add({"id": i.id, "answer": "a", "error": None, "latency_s": rng.lognormvariate(-3, 1),
                  "prompt_tokens": 1, "completion_tokens": 1, "llm": None})
    return RunTally(inputs, scan)


def _refresh_cpu(tally: RunTally, run_dir: Path, times: int) -> float:
    m = Manifest(system={"name": "s", "config": {}}, dataset={}, status="running")
    start = time.process_time()
    for _ in range(times):
        m.summarise(tally)
        m.write(run_dir)
    return time.process_time() - start


def test_a_refresh_costs_the_same_at_100k_records_as_at_5k(tmp_path):
    small, large = _tally(5_000), _tally(100_000)
    assert large.counts()["ok"] == 100_000
    _refresh_cpu(small, tmp_path, 5)  # warm: imports, first write
    # CPU time (each write's fsync waits on the disk, which says nothing of the refresh)
    best_small = min(_refresh_cpu(small, tmp_path, 20) for _ in range(3))
    best_large = min(_refresh_cpu(large, tmp_path, 20) for _ in range(3))
    # 20x the records: a walk over them (the exact summary, or the refresh before the tally:
    # 0.17 CPU s each at 200k) costs ~20x. Generous for a noisy box.
    assert best_large < 3 * best_small + 0.03, (best_small, best_large)


def test_writing_the_inputs_does_not_hold_every_encoded_line(tmp_path):
    # 200k inputs: holding each encoded line at once took ~4 KB a line (880 MB here), in blocks
    # the file costs next to nothing beyond the inputs themselves
    import subprocess
    import sys

    code = ("import resource, sys; from pathlib import Path; from ragdx.rag.types import SystemInput; "
            "from ragdx.rag.rundir import write_inputs, read_inputs; "
            "inputs = [SystemInput(id=f'r{k:07d}', query=f'what is item {k}?') for k in range(200_000)]; "
            "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss; write_inputs(Path(sys.argv[1]), inputs); "
            "grew = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before; "
            "assert read_inputs(Path(sys.argv[1])) == inputs; print(grew // 1024)")
    r = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-1000:]
    assert int(r.stdout.split()[-1]) < 100, r.stdout  # MB


class _Clock:
    """A wall clock and a loop-thread CPU clock the test moves by hand."""

    def __init__(self):
        self.wall = 0.0
        self.cpu = 0.0
        self.reads = 0

    def monotonic(self) -> float:
        return self.wall

    def thread_time(self) -> float:
        self.reads += 1
        return self.cpu


@pytest.mark.parametrize("cpu_per_wall_s", [1.0, 0.06, 0.02])
def test_refreshes_cost_at_most_one_percent_of_the_loops_cpu_whatever_it_gets(monkeypatch, cpu_per_wall_s):
    # A starved loop (load 11-17 gave it ~0.06 CPU s a wall second) refreshing once a wall second
    # spent 5.5 % of its CPU on refreshes; paced by its own CPU it spends at most 1 %, and its
    # manifest is never more than MANIFEST_STALE_MAX_S stale while records come in.
    clock = _Clock()
    monkeypatch.setattr(runner, "time", clock)
    refreshed_at: list[float] = []

    def refresh():
        clock.cpu += 0.003  # a refresh's CPU under cProfile at 1M records
        refreshed_at.append(clock.wall)

    pacer = runner.RefreshPacer(refresh)
    per_record = 100e-6  # loop CPU a record
    loop_cpu = 0.0
    for _ in range(200_000):
        clock.cpu += per_record
        loop_cpu += per_record
        clock.wall += per_record / cpu_per_wall_s
        pacer.tick()
    assert pacer.refreshes == len(refreshed_at) > 3
    assert pacer.spent == pytest.approx(0.003 * pacer.refreshes)
    gaps = [b - a for a, b in zip([0.0, *refreshed_at], refreshed_at, strict=False)]
    assert min(gaps) >= runner.MANIFEST_REFRESH_S
    assert max(gaps) <= runner.MANIFEST_STALE_MAX_S + runner.MANIFEST_REFRESH_S / 10 + per_record / cpu_per_wall_s
    if cpu_per_wall_s == 1.0:  # an idle machine: the wall interval decides, as before
        assert max(gaps) < 1.01 * runner.MANIFEST_REFRESH_S
    # the CPU clock is read at most ten times a wall second, not after every record
    assert clock.reads <= 10 * clock.wall / runner.MANIFEST_REFRESH_S + 1
    # at most 1 % of the loop's CPU (the first refresh's cost is not known before it runs) while
    # the loop does 100 refreshes' CPU within MANIFEST_STALE_MAX_S (here 0.3 s: 0.06 CPU s a wall
    # second); below that the staleness bound decides: one refresh each 5 s (0.02: 3 %)
    share = 0.01 if cpu_per_wall_s * runner.MANIFEST_STALE_MAX_S >= 0.3 else 0.003 / (
        cpu_per_wall_s * runner.MANIFEST_STALE_MAX_S)
    assert pacer.spent <= share * loop_cpu * 1.01 + 0.003, (pacer.spent, loop_cpu)


def test_before_the_pacing_a_starved_loop_spent_more_than_one_percent(monkeypatch):
    # the same starved loop, refreshed on the wall clock alone (what the runner did): ~5 %
    monkeypatch.setattr(runner, "MANIFEST_STALE_MAX_S", runner.MANIFEST_REFRESH_S)  # one a wall second
    clock = _Clock()
    monkeypatch.setattr(runner, "time", clock)
    pacer = runner.RefreshPacer(lambda: setattr(clock, "cpu", clock.cpu + 0.003))
    for _ in range(100_000):
        clock.cpu += 100e-6
        clock.wall += 100e-6 / 0.06
        pacer.tick()
    assert pacer.spent > 0.04 * 100_000 * 100e-6


def test_refreshes_after_every_record_when_the_interval_is_zero(monkeypatch):
    monkeypatch.setattr(runner, "MANIFEST_REFRESH_S", 0.0)
    clock = _Clock()
    monkeypatch.setattr(runner, "time", clock)
    pacer = runner.RefreshPacer(lambda: setattr(clock, "cpu", clock.cpu + 1.0))  # however costly
    assert all(pacer.tick() for _ in range(10)) and pacer.refreshes == 10
