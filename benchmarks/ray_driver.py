"""Driver CPU per query of ``ragdx run --executor ray``, against the local executor.

    .venv/bin/python benchmarks/ray_driver.py [--queries 5000] [--workers 1 2] [--out PATH]

The system is a trivial callable (``benchmarks.ray_driver:echo``, answering at once), so what is
measured is the driver's own cost per record: the runner (scheduling, writing, counting) and,
on Ray, handing queries to the actors and taking their answers back. The actors are started
and built before the clock starts (``system.build()``); the driver's CPU is
``time.process_time()`` of this process over ``run()`` (every thread of it, Ray's own core-worker
threads included), divided by the queries. The local executor's row is the runner alone: the
floor a Ray driver can approach.

For a "before" figure, run this script with ``PYTHONPATH`` pointing at an older ``src``
(``git archive <commit> src | tar -x -C /tmp/before``): it uses only the public
``ray_system_for`` / ``run`` API that both have.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # loaded by path (tests) as well as run
from machine import cpu_model  # noqa: E402  (benchmarks/machine.py)

RESULTS = Path(__file__).resolve().parent / "results" / "ray_driver.md"


def echo(query: str) -> str:
    """The trivial system: the answer is the query's number."""
    return "answer " + query.rsplit(" ", 1)[-1]


def dataset(directory: Path, n: int) -> Path:
    directory.mkdir(parents=True)
    with (directory / "records.jsonl").open("w", encoding="utf-8") as fh:
        for k in range(n):
            fh.write(json.dumps({
                "id": f"r{k:06d}", "group_id": f"g{k // 3}", "sql_template_id": "t1", "text_template_id": "x1",
                "style": "short", "schema": "S", "table": "S", "params": {}, "sql": "SELECT 1",
                "query": f"what is the value of item {k}", "answer_columns": ["v"], "answer_rows": [[str(k)]],
                "answer_text": str(k), "answer_kind": "single"}) + "\n")
    return directory



def timed_run(system, data: Path, out: Path, concurrency: int, n: int) -> tuple[float, float]:
    from ragdx.rag.runner import run

    cpu, wall = time.process_time(), time.perf_counter()
    summary = run(system, data, out, concurrency=concurrency, progress=False)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    assert summary.ok == n and summary.failed == 0, summary
    return cpu, wall


def dense_builds(tmp: Path, docs: int, workers: int) -> list[tuple[str, list[float]]]:
    """Each actor's build seconds for a dense pipeline over ``docs`` documents: with a fresh
    embedding cache (the first actor embeds, the others read its vectors) and with none."""
    from ragdx.rag.executor_ray import ray_system_for
    from ragdx.rag.resolve import SystemRequest

    words = ("river", "mayor", "harbour", "census", "railway", "market", "bridge", "school", "mill", "castle")
    corpus = {f"d{i}": f"document {i} about the {words[i % 10]} and the {words[(i * 7) % 10]} of town {i // 10}"
              for i in range(docs)}
    (tmp / "corpus.json").write_text(json.dumps(corpus), encoding="utf-8")
    rows = []
    for label, cache in (("fresh shared cache", str(tmp / "cache")), ("no cache (each actor embeds)", None)):
        spec = {"name": "dense", "corpus": str(tmp / "corpus.json"), "top_k": 3,
                "chunker": {"type": "whole_document"}, "retriever": {"type": "dense", "params": {"cache_dir": cache}},
                "generator": {"type": "extractive"}}
        (tmp / "dense.yaml").write_text(json.dumps(spec), encoding="utf-8")
        system, _ = ray_system_for(SystemRequest(tmp / "dense.yaml"), workers=workers)
        system.build()
        rows.append((label, [a["build_s"] for a in system.actors()]))
        import ray

        ray.shutdown()
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", type=int, default=5000)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--dense-docs", type=int, default=0,
                    help="also time each actor's build of a dense pipeline over this many documents")
    ap.add_argument("--label", default="", help="a note for the table's header (e.g. 'before')")
    ap.add_argument("--out", type=Path, default=None, help="also write the table here (default: print only)")
    args = ap.parse_args()
    os.environ.setdefault("PYTHONPATH", str(Path(__file__).resolve().parents[1]))

    import ragdx
    from ragdx.rag.executor_ray import ray_system_for
    from ragdx.rag.resolve import request_from_options
    from ragdx.rag.systems import CallableSystem

    n = args.queries
    rows = []
    with tempfile.TemporaryDirectory(prefix="ragdx-raydrv-") as tmpname:
        tmp = Path(tmpname)
        data = dataset(tmp / "data", n)
        cpu, wall = timed_run(CallableSystem("benchmarks.ray_driver:echo"), data, tmp / "local", 8, n)
        rows.append(("local executor (the runner alone)", cpu, wall))
        for workers in args.workers:
            request = request_from_options(callable_="benchmarks.ray_driver:echo")
            system, concurrency = ray_system_for(request, workers=workers, concurrency=4)
            system.build()  # actors started and built before the clock
            cpu, wall = timed_run(system, data, tmp / f"ray-{workers}", concurrency, n)
            rows.append((f"Ray, {workers} worker(s), runner concurrency {concurrency}", cpu, wall))
            import ray

            ray.shutdown()
    command = "python benchmarks/ray_driver.py " + shlex.join(sys.argv[1:])
    lines = [f"# Ray driver CPU per query{(' — ' + args.label) if args.label else ''}", "",
             f"`{command.strip()}` — ragdx {ragdx.__version__} from `{Path(ragdx.__file__).parent}`; "
             f"{n:,} queries; CPU: {cpu_model()} ({os.cpu_count()} cores); load average {os.getloadavg()[0]:.1f}",
             "", "| executor | driver CPU s | driver CPU ms / query | wall s | queries/s |",
             "|---|---:|---:|---:|---:|"]
    for label, cpu, wall in rows:
        lines.append(f"| {label} | {cpu:.2f} | {1000 * cpu / n:.3f} | {wall:.2f} | {n / wall:,.0f} |")
    if args.dense_docs:
        with tempfile.TemporaryDirectory(prefix="ragdx-raydense-") as tmpname:
            builds = dense_builds(Path(tmpname), args.dense_docs, max(args.workers))
        lines += ["", f"Each actor's build of a dense pipeline over {args.dense_docs:,} documents "
                  f"({max(args.workers)} actors; the first builds alone, then the rest):", "",
                  "| embedding cache | " + " | ".join(f"actor {k} build s" for k in range(len(builds[0][1]))) + " |",
                  "|---|" + "---:|" * len(builds[0][1])]
        lines += [f"| {label} | " + " | ".join(f"{b:.2f}" for b in times) + " |" for label, times in builds]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        with args.out.open("a", encoding="utf-8") as fh:
            fh.write(text + "\n")


if __name__ == "__main__":
    main()
