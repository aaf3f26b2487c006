"""The same CPU-bound run on the local executor and on Ray with 1, 2 and 4 workers; embedding
passages locally and with Ray Data.

    .venv/bin/python benchmarks/scale.py [--steps runs embed] [--queries 48] [--docs 200]
                                         [--workers 1 2 4] [--passages 240] [--embed-workers 1 2]
                                         [--address HOST:PORT] [--out benchmarks/results/scale.md]

``--out`` replaces the sections of the steps that ran and keeps the others.

The system is a built-in pipeline (GRAMMAR's keyword-overlap retriever + the extractive reader,
MiniLM on CPU) with the embedding cache off, so that every run does the same arithmetic and no
run is helped by an earlier one. Each run goes into its own run directory; the records (all but
the timings) must be identical to the local executor's. Wall time includes building the system
(on Ray: every actor's warm-up) but not starting Ray itself, which is reported on its own line.

What the speed-up can be depends on the machine: on 2 cores, 1 Ray worker pays the driver/actor
hop and 4 workers oversubscribe; a cluster of N machines divides the per-query work N ways.

The embedding step embeds ``--passages`` passages of ~180 tokens (three town descriptions each)
with the packaged MiniLM, cache off: the local ``Embedder`` (model loaded before timing), then
``RayEmbedder`` with each ``--embed-workers`` count (timed from the call: the Ray Data job, its
actors' start and model loads included) and, when the cluster has GPUs, one actor per GPU. Every
row's vectors are compared with the local ones (max absolute difference, min cosine).
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
    from ragdx.rag.rundir import read_run

    return [{k: v for k, v in o.to_dict().items() if k != "latency_s"} for o in read_run(run_dir)]


def make_passages(n: int) -> list[str]:
    """``n`` passages of ~180 MiniLM tokens: three consecutive town descriptions each."""
    towns = []
    for i in range(n + 2):
        town = f"{TOWNS[i % len(TOWNS)]}-{i}"
        towns.append(f"{town} is a town of {1000 + 37 * i} people in the district of {TOWNS[(i * 7) % 16]}. "
                     f"The mayor of {town} is {TOWNS[(i + 3) % 16]} Smith, elected in {1950 + i % 70}. "
                     f"{town} lies on the river Ous{i % 13} and trades in wool, salt and {TOWNS[(i * 5) % 16]} "
                     f"cheese. Its school, founded in {1800 + i % 200}, teaches {100 + i % 900} pupils.")
    return [" ".join(towns[i:i + 3]) for i in range(n)]


def markdown(table: Table, rows: list[tuple], command: str) -> str:
    lines = [f"# {table.title}", "", "| " + " | ".join(c.header for c in table.columns) + " |",
             "|" + "---|" * len(table.columns)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join([*lines, "", f"Command: `{command}`", ""])


def replace_section(text: str, name: str, body: str) -> str:
    """``text`` with the section between ``<!-- step:name -->`` markers replaced (or appended)."""
    start, end = f"<!-- step:{name} -->", f"<!-- /step:{name} -->"
    block = f"{start}\n{body}{end}\n"
    if start in text and end in text:
        before, rest = text.split(start, 1)
        return before + block + rest.split(end, 1)[1].lstrip("\n")
    return (text.rstrip("\n") + "\n\n" if text.strip() else "") + block


def run_step(args, console: Console, ray_init_s: float) -> tuple[str, bool]:
    from ragdx.rag.executor_ray import ray_system_for
    from ragdx.rag.resolve import SystemRequest
    from ragdx.rag.runner import run

    with tempfile.TemporaryDirectory(prefix="ragdx-scale-") as tmpname:
        tmp = Path(tmpname)
        spec, dataset = make_inputs(tmp, args.docs, args.queries)
        rows = []
        start = time.perf_counter()
        request = SystemRequest(spec, dataset=dataset)
        local = run(request.build(), dataset, tmp / "local", progress=False)
        local_s = time.perf_counter() - start
        assert local.ok == args.queries, local
        reference = records(tmp / "local")
        rows.append(("local (asyncio)", "–", local_s, None, True))
        for w in args.workers:
            start = time.perf_counter()
            system, conc = ray_system_for(request, workers=w, concurrency=4)
            summary = run(system, dataset, tmp / f"ray-{w}", concurrency=conc, progress=False)
            wall = time.perf_counter() - start
            same = summary.ok == args.queries and records(tmp / f"ray-{w}") == reference
            rows.append((f"ray, {w} worker{'s' if w > 1 else ''}", str(w), wall, system.build_s, same))

    table = Table(title=f"{args.queries} queries, keyword + extractive over {args.docs} documents; "
                        f"{os.cpu_count()} CPU cores ({platform.machine()}), ray.init {ray_init_s:.1f} s not counted")
    for col in ("executor", "workers", "wall s", "warm-up s", "queries/s", "speed-up vs local", "records identical"):
        table.add_column(col, justify="left" if col == "executor" else "right")
    cells = [(name, w, f"{wall:.1f}", "–" if warm is None else f"{warm:.1f}", f"{args.queries / wall:.1f}",
              f"{local_s / wall:.2f}×", "yes" if same else "NO") for name, w, wall, warm, same in rows]
    for row in cells:
        table.add_row(*row)
    console.print(table)
    return markdown(table, cells, args.command), all(r[4] for r in rows)


def embed_step(args, console: Console, ray_init_s: float) -> tuple[str, bool]:
    import numpy as np
    import ray

    from ragdx.embed import Embedder
    from ragdx.embed_ray import RayEmbedder

    passages = make_passages(args.passages)
    local = Embedder(cache_dir=None)
    local.embed(["warm-up: the model loads before the clock starts"])
    start = time.perf_counter()
    reference = local.embed(passages)
    local_s = time.perf_counter() - start
    rows = [("local Embedder (torch threads)", "–", "cpu", local_s, 0.0, 1.0, "–")]
    configs = [(w, 0.0) for w in args.embed_workers]
    gpus = float(ray.cluster_resources().get("GPU", 0))
    if gpus >= 1:
        configs.append((int(gpus), 1.0))
    else:
        console.print("no GPU in this cluster: the GPU row is not measured")
    ok = True
    for w, per_gpu in configs:
        emb = RayEmbedder(Embedder(cache_dir=None), workers=w, num_gpus=per_gpu)
        start = time.perf_counter()
        vectors = emb.embed(passages)
        wall = time.perf_counter() - start
        diff = float(np.abs(vectors - reference).max())
        cos = float((vectors * reference).sum(axis=1).min())
        ok = ok and diff <= 1e-5 and cos >= 0.99999
        rows.append((f"Ray Data, {w} actor{'s' if w > 1 else ''}", str(w), emb.last_device, wall, diff, cos,
                     str(len(emb.last_nodes))))
    title = (f"embedding {args.passages} passages (~180 tokens) with MiniLM, cache off; {os.cpu_count()} CPU "
             f"cores, {gpus:g} GPUs in the cluster, ray.init {ray_init_s:.1f} s not counted")
    if gpus < 1:
        title += "; no GPU in this cluster"
    table = Table(title=title)
    for col in ("embedder", "actors", "device", "wall s", "passages/s", "speed-up vs local",
                "max abs diff vs local", "min cosine", "nodes"):
        table.add_column(col, justify="left" if col == "embedder" else "right")
    cells = [(name, w, dev, f"{wall:.1f}", f"{args.passages / wall:.1f}", f"{local_s / wall:.2f}×", f"{diff:.1e}",
              f"{cos:.7f}", nodes) for name, w, dev, wall, diff, cos, nodes in rows]
    for row in cells:
        table.add_row(*row)
    console.print(table)
    return markdown(table, cells, args.command), ok


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", nargs="+", choices=("runs", "embed"), default=["runs", "embed"])
    ap.add_argument("--queries", type=int, default=48)
    ap.add_argument("--docs", type=int, default=200)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--passages", type=int, default=240)
    ap.add_argument("--embed-workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--address", default=None, help="a Ray cluster (host:6379, ray://host:10001, auto); "
                                                    "default: a Ray instance on this machine")
    ap.add_argument("--out", type=Path, default=None, help="also write the tables here (Markdown)")
    args = ap.parse_args()
    args.command = " ".join([Path(sys.executable).name, *sys.argv])

    from ragdx.ray_support import connect_ray

    console = Console(record=True, width=160)  # the tables are wider than a pipe's default 80
    start = time.perf_counter()
    # an existing cluster (--address) brings its nodes' CPUs and GPUs, not this machine's
    ray, _ = connect_ray(args.address, cpus=max(max(args.workers), max(args.embed_workers)))
    ray_init_s = time.perf_counter() - start
    sections, ok = {}, True
    try:
        for step in args.steps:
            body, good = (run_step if step == "runs" else embed_step)(args, console, ray_init_s)
            sections[step], ok = body, ok and good
    finally:
        ray.shutdown()
    if args.out:
        text = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        for step, body in sections.items():
            text = replace_section(text, step, body)
        args.out.write_text(text, encoding="utf-8")
    if not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
