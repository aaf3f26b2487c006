"""Runner records/s against a plain loop writing the same JSONL, with and without group commit.

    .venv/bin/python benchmarks/runner_throughput.py [--records 5000] [--repeat 3]

The system is trivial (an async function answering at once), so what is measured is the
runner's own cost per record: serialising, writing, syncing, counting. Rows: a plain loop with
no fsync (the floor), a plain loop with an fsync per record, the runner syncing every record
(``ragdx.rag.writer.GROUP_COMMIT_LINES = 1``, waiting for each fsync: the behaviour before group commit), the
runner with group commit waiting for each group's fsync (``GROUP_COMMIT_OVERLAP = False``) and
the runner as configured (group commit, the fsync overlapping the next lines). fsync's cost
swings with whatever else uses the disk, so every row runs ``--repeat`` times, the rows taking
turns, and the median is reported; CPU s is the process's CPU time (median), which the disk's
waits do not inflate.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from pathlib import Path


async def trivial(query: str) -> dict:
    return {"answer": f"answer to {query}", "contexts": [{"id": "d1", "text": "a context", "score": 0.5}]}


def dataset(directory: Path, n: int) -> Path:
    directory.mkdir(parents=True)
    with (directory / "records.jsonl").open("w", encoding="utf-8") as fh:
        for k in range(n):
            fh.write(json.dumps({
                "id": f"r{k:06d}", "group_id": f"g{k // 3}", "sql_template_id": "t1", "text_template_id": "x1",
                "style": "short", "schema": "S", "table": "S", "params": {}, "sql": "SELECT 1",
                "query": f"what is the value of item {k}?", "answer_columns": ["v"], "answer_rows": [[str(k)]],
                "answer_text": str(k), "answer_kind": "single"}) + "\n")
    return directory


def plain_loop(path: Path, n: int, fsync: bool) -> float:
    start = time.perf_counter()
    with path.open("ab") as fh:
        for k in range(n):
            out = asyncio.run(trivial(f"q{k}")) if k == 0 else {"answer": f"answer to q{k}"}
            fh.write((json.dumps({"id": f"r{k:06d}", **out}) + "\n").encode())
            fh.flush()
            if fsync:
                os.fsync(fh.fileno())
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=5000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    import importlib.util

    import ragdx.rag.runner as runner
    from ragdx.rag.systems import CallableSystem

    # the group-commit settings live in the results writer (ragdx.rag.writer); in the runner in a
    # baseline checkout from before the writer was its own module
    knobs = importlib.import_module("ragdx.rag.writer") if importlib.util.find_spec("ragdx.rag.writer") else runner
    n = args.records
    lines = knobs.GROUP_COMMIT_LINES
    overlap = getattr(knobs, "GROUP_COMMIT_OVERLAP", False)  # absent before it existed (a baseline checkout)
    configs = (("runner, fsync per record (GROUP_COMMIT_LINES=1)", 1, False),
               (f"runner, group commit ({lines} lines / {knobs.GROUP_COMMIT_S} s), waiting for each fsync",
                lines, False),
               (f"runner, group commit ({lines} lines / {knobs.GROUP_COMMIT_S} s), fsync overlapped (as configured)",
                lines, overlap))
    labels = ["plain loop, no fsync (floor)", "plain loop, fsync per record", *(c[0] for c in configs)]
    times: dict[str, list[tuple[float, float]]] = {label: [] for label in labels}
    load = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory(prefix="ragdx-runner-") as tmpname:
        tmp = Path(tmpname)
        data = dataset(tmp / "data", n)
        for rep in range(args.repeat):
            for label, fsync in ((labels[0], False), (labels[1], True)):
                cpu = time.process_time()
                sec = plain_loop(tmp / f"plain-{fsync}-{rep}.jsonl", n, fsync)
                times[label].append((sec, time.process_time() - cpu))
            for index, (label, group, overlapped) in enumerate(configs):
                knobs.GROUP_COMMIT_LINES, knobs.GROUP_COMMIT_OVERLAP = group, overlapped
                cpu = time.process_time()
                start = time.perf_counter()
                summary = runner.run(CallableSystem(trivial), data, tmp / f"run-{index}-{rep}",
                                     progress=False, concurrency=8)
                times[label].append((time.perf_counter() - start, time.process_time() - cpu))
                assert summary.ok == n, summary
        knobs.GROUP_COMMIT_LINES, knobs.GROUP_COMMIT_OVERLAP = lines, overlap
    load.append(os.getloadavg()[0])
    rows = [(label, statistics.median(t for t, _ in times[label]), statistics.median(c for _, c in times[label]))
            for label in labels]
    floor = rows[0][1]
    synced = rows[1][1]
    print(f"# runner throughput, {n:,} records, trivial async system, median of {args.repeat}; "
          f"{os.cpu_count()} CPUs, load average {load[0]:.1f} before, {load[1]:.1f} after")
    print()
    print("| writer | seconds | CPU s | records/s | vs plain loop with fsync | vs plain loop without |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, sec, cpu in rows:
        print(f"| {label} | {sec:.2f} | {cpu:.2f} | {n / sec:,.0f} | {synced / sec:.2f}× | {floor / sec:.2f}× |")


if __name__ == "__main__":
    main()
