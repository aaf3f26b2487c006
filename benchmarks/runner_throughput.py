"""Runner records/s against a plain loop writing the same JSONL, with and without group commit.

    .venv/bin/python benchmarks/runner_throughput.py [--records 5000]

The system is trivial (an async function answering at once), so what is measured is the
runner's own cost per record: serialising, writing, syncing, counting. Rows: a plain loop with
no fsync (the floor), a plain loop with an fsync per record, the runner syncing every record
(``GROUP_COMMIT_LINES = 1``, the previous behaviour) and the runner as configured (group commit).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
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
    args = ap.parse_args()

    import ragdx.rag.runner as runner
    from ragdx.rag.systems import CallableSystem

    n = args.records
    rows = []
    configured = runner.GROUP_COMMIT_LINES
    with tempfile.TemporaryDirectory(prefix="ragdx-runner-") as tmpname:
        tmp = Path(tmpname)
        data = dataset(tmp / "data", n)
        rows.append(("plain loop, no fsync (floor)", plain_loop(tmp / "plain.jsonl", n, False)))
        rows.append(("plain loop, fsync per record", plain_loop(tmp / "plain-sync.jsonl", n, True)))
        for label, lines in (("runner, fsync per record (GROUP_COMMIT_LINES=1)", 1),
                             (f"runner, group commit ({configured} lines / {runner.GROUP_COMMIT_S} s)", configured)):
            runner.GROUP_COMMIT_LINES = lines
            start = time.perf_counter()
            summary = runner.run(CallableSystem(trivial), data, tmp / f"run-{lines}", progress=False, concurrency=8)
            rows.append((label, time.perf_counter() - start))
            assert summary.ok == n, summary
        runner.GROUP_COMMIT_LINES = configured
    floor = rows[0][1]
    synced = rows[1][1]
    print(f"# runner throughput, {n:,} records, trivial async system; {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}")
    print()
    print("| writer | seconds | records/s | vs plain loop with fsync | vs plain loop without |")
    print("|---|---:|---:|---:|---:|")
    for label, sec in rows:
        print(f"| {label} | {sec:.2f} | {n / sec:,.0f} | {synced / sec:.2f}× | {floor / sec:.2f}× |")


if __name__ == "__main__":
    main()
