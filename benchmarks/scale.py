"""The same CPU-bound run on the local executor and on Ray with 1, 2 and 4 workers.

    .venv/bin/python benchmarks/scale.py [--queries 48] [--docs 200] [--workers 1 2 4]
                                         [--out benchmarks/results/scale.md]

The system is a built-in pipeline (GRAMMAR's keyword-overlap retriever + the extractive reader,
MiniLM on CPU) with the embedding cache off, so that every run does the same arithmetic and no
run is helped by an earlier one. Each run goes into its own run directory; the records (all but
the timings) must be identical to the local executor's. Wall time includes building the system
(on Ray: every actor's warm-up) but not starting Ray itself, which is reported on its own line.

What the speed-up can be depends on the machine: on 2 cores, 1 Ray worker pays the driver/actor
hop and 4 workers oversubscribe; a cluster of N machines divides the per-query work N ways.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

TOWNS = ["Arlen", "Bexmoor", "Corvale", "Dunmere", "Elsfield", "Farrow", "Glenholt", "Harwick", "Istow",
         "Jorby", "Kelham", "Lathe", "Morrow", "Nessby", "Orwell", "Pellan"]


def make_inputs(tmp: Path, n_docs: int, n_queries: int) -> tuple[Path, Path]:
    docs = {}
    for i in range(n_docs):
        town = f"{TOWNS[i % len(TOWNS)]}-{i}"
        docs[f"town-{i:05d}"] = (
            f"{town} is a town of {1000 + 37 * i} people in the district of {TOWNS[(i * 7) % len(TOWNS)]}. "
            f"The mayor of {town} is {TOWNS[(i + 3) % len(TOWNS)]} Smith, elected in {1950 + i % 70}. "
            f"{town} lies on the river Ous{i % 13} and trades in wool, salt and {TOWNS[(i * 5) % 16]} cheese. "
            f"Its school, founded in {1800 + i % 200}, teaches {100 + i % 900} pupils.")
    (tmp / "corpus.json").write_text(json.dumps(docs), encoding="utf-8")
    spec = {"name": "kw-extractive", "corpus": str(tmp / "corpus.json"), "top_k": 3,
            "chunker": {"type": "whole_document"}, "retriever": {"type": "keyword"},
            "generator": {"type": "extractive", "params": {"cache_dir": None}}}
    (tmp / "pipeline.yaml").write_text(json.dumps(spec), encoding="utf-8")
    questions = ("How many people live in {t}?", "Who is the mayor of {t}?", "Which river does {t} lie on?",
                 "When was the school of {t} founded?")
    dataset = tmp / "dataset"
    dataset.mkdir()
    with (dataset / "records.jsonl").open("w", encoding="utf-8") as fh:
        for k in range(n_queries):
            i = (k * 7919) % n_docs
            town = f"{TOWNS[i % len(TOWNS)]}-{i}"
            fh.write(json.dumps({
                "id": f"q{k:05d}", "group_id": f"g{k // 4}", "sql_template_id": "t1", "text_template_id": "x1",
                "style": "short", "schema": "Town", "table": "Town", "params": {"Town.Name": town},
                "sql": "SELECT 1", "query": questions[k % 4].format(t=town), "answer_columns": ["v"],
                "answer_rows": [["x"]], "answer_text": "x", "answer_kind": "single"}) + "\n")
    return tmp / "pipeline.yaml", dataset


def records(run_dir: Path) -> list[dict]:
    from ragdx.rag.runner import read_run

    return [{k: v for k, v in o.to_dict().items() if k != "latency_s"} for o in read_run(run_dir)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", type=int, default=48)
    ap.add_argument("--docs", type=int, default=200)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--out", type=Path, default=None, help="also write the table here (Markdown)")
    args = ap.parse_args()

    import ray

    from ragdx.rag.executor_ray import ray_system_from_options
    from ragdx.rag.runner import run, system_from_options

    console = Console(record=True)
    with tempfile.TemporaryDirectory(prefix="ragdx-scale-") as tmpname:
        tmp = Path(tmpname)
        spec, dataset = make_inputs(tmp, args.docs, args.queries)
        rows = []
        start = time.perf_counter()
        local = run(system_from_options(spec, dataset=dataset), dataset, tmp / "local", progress=False)
        local_s = time.perf_counter() - start
        assert local.ok == args.queries, local
        reference = records(tmp / "local")
        rows.append(("local (asyncio)", "–", local_s, None, True))

        start = time.perf_counter()
        env = {k: os.environ[k] for k in ("HF_HUB_OFFLINE", "OMP_WAIT_POLICY") if k in os.environ}
        env["PYTHONPATH"] = os.getcwd()
        ray.init(address="local", num_cpus=max(max(args.workers), os.cpu_count() or 1), include_dashboard=False,
                 log_to_driver=False, runtime_env={"env_vars": env})
        ray_init_s = time.perf_counter() - start
        try:
            for w in args.workers:
                start = time.perf_counter()
                system, conc = ray_system_from_options(spec, {"dataset": dataset}, workers=w, concurrency=4)
                summary = run(system, dataset, tmp / f"ray-{w}", concurrency=conc, progress=False)
                wall = time.perf_counter() - start
                same = summary.ok == args.queries and records(tmp / f"ray-{w}") == reference
                rows.append((f"ray, {w} worker{'s' if w > 1 else ''}", str(w), wall, system.build_s, same))
        finally:
            ray.shutdown()

    table = Table(title=f"{args.queries} queries, keyword + extractive over {args.docs} documents; "
                        f"{os.cpu_count()} CPU cores ({platform.machine()}), ray.init {ray_init_s:.1f} s not counted")
    for col in ("executor", "workers", "wall s", "warm-up s", "queries/s", "speed-up vs local", "records identical"):
        table.add_column(col, justify="left" if col == "executor" else "right")
    for name, w, wall, warm, same in rows:
        table.add_row(name, w, f"{wall:.1f}", "–" if warm is None else f"{warm:.1f}", f"{args.queries / wall:.1f}",
                      f"{local_s / wall:.2f}×", "yes" if same else "[red]NO[/]")
    console.print(table)
    if args.out:
        lines = [f"# {table.title}", "", "| " + " | ".join(c.header for c in table.columns) + " |",
                 "|" + "---|" * len(table.columns)]
        for name, w, wall, warm, same in rows:
            lines.append(f"| {name} | {w} | {wall:.1f} | {'–' if warm is None else f'{warm:.1f}'} | "
                         f"{args.queries / wall:.1f} | {local_s / wall:.2f}× | {'yes' if same else 'NO'} |")
        lines += ["", f"Command: `{' '.join([Path(sys.executable).name, *sys.argv])}`"]
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    if not all(r[4] for r in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
