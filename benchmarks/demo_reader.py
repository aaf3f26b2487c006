"""The demo's two systems over the demo's dataset, with and without the faster hot paths.

    .venv/bin/python benchmarks/demo_reader.py DEMO_OUT [--systems keyword bm25-dense]
    .venv/bin/python benchmarks/demo_reader.py --cold HEAD_SRC [--out DIR]

``without``: the extractive reader embeds each query in its own model call and each new
context's sentences as they come up, the dense retriever embeds one query per call (no
``prepare`` anywhere), and the keyword retriever adds one posting at a time (its previous code,
kept here as the reference); ``with``: the code as it is. Each variant runs with its own empty
embedding cache (cold, like a first ``make demo``) into its own run directory; the records
(all but timings) must be identical. Prints one row per system and variant.

``--cold HEAD_SRC``: the whole ``ragdx demo``, cold (empty embedding cache), once with the
``src`` directory HEAD_SRC on ``PYTHONPATH`` (``git archive HEAD src | tar -x -C /tmp/head``
gives ``/tmp/head/src``) and once with this checkout; wall and CPU seconds per stage, the load
average, and whether the runs' records, their metrics and ``relevance.json`` are identical
(timings and the output directory's name aside).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def _old_keyword_scores(self, query):
    from ragdx.rag.retrievers import keyword_tokens

    s = np.zeros(len(self.units), dtype=np.float64)
    for tok in keyword_tokens(query):
        hits = self._postings.get(tok)
        if hits is not None:
            s[hits] += 1.0
    return s


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("demo", type=Path, nargs="?")
    ap.add_argument("--systems", nargs="+", default=["keyword", "bm25-dense"])
    ap.add_argument("--cold", type=Path, metavar="HEAD_SRC", help="time the whole demo, HEAD_SRC vs this checkout")
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "ragdx-demo-cold")
    args = ap.parse_args()
    if args.cold is not None:
        sys.exit(cold(args.cold, args.out))
    if args.demo is None:
        ap.error("DEMO_OUT is required without --cold")

    import ragdx.rag.retrievers as retrievers
    from ragdx.demo.run import DEMO_TOP_K, _systems
    from ragdx.rag.generators import ExtractiveReader
    from ragdx.rag.runner import read_run, run

    new_scores, new_prepare = retrievers.KeywordRetriever.scores, ExtractiveReader.prepare
    new_passages, new_dense = ExtractiveReader.prepare_passages, retrievers.DenseRetriever.prepare
    rows = []
    with tempfile.TemporaryDirectory(prefix="ragdx-demo-ab-") as tmpname:
        tmp = Path(tmpname)
        for variant in ("without", "with"):
            os.environ["RAGDX_CACHE_DIR"] = str(tmp / f"cache-{variant}")  # cold for each variant
            retrievers._EMBEDDERS.clear()
            if variant == "without":
                retrievers.KeywordRetriever.scores = _old_keyword_scores
                del ExtractiveReader.prepare, ExtractiveReader.prepare_passages, retrievers.DenseRetriever.prepare
            else:
                retrievers.KeywordRetriever.scores = new_scores
                ExtractiveReader.prepare, ExtractiveReader.prepare_passages = new_prepare, new_passages
                retrievers.DenseRetriever.prepare = new_dense
            for system in _systems(args.demo / "kb", DEMO_TOP_K):
                if system.name not in args.systems:
                    continue
                start = time.perf_counter()
                run(system, args.demo / "dataset", tmp / variant / system.name, progress=False)
                rows.append((system.name, variant, time.perf_counter() - start))
        same = {}
        for name in args.systems:
            a, b = (read_run(tmp / v / name) for v in ("without", "with"))
            strip = [[{k: v for k, v in o.to_dict().items() if k != "latency_s"} for o in x] for x in (a, b)]
            same[name] = strip[0] == strip[1] and len(a) > 0
    print(f"# demo systems over {args.demo}/dataset, cold embedding cache each; {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f} at the end")
    print()
    print("| system | variant | wall s (build + all queries) | records identical |")
    print("|---|---|---:|---|")
    for name, variant, wall in rows:
        print(f"| {name} | {variant} | {wall:.1f} | {'yes' if same[name] else 'NO'} |")
    print()
    print(f"Command: `{' '.join([Path(sys.executable).name, *sys.argv])}`")
    if not all(same.values()):
        sys.exit(1)


_STAGE = re.compile(r"\[(\d)/6\][^\[]*?\(previous stage ([0-9.]+) s")
_STAGES = {3: "1-2 testbed", 4: "3 two systems", 5: "4 evaluate + compare", 6: "5 knowledge boundary"}


def _demo(src: Path | None, out: Path) -> dict:
    """One cold ``ragdx demo`` in a child process: wall, CPU (user + sys) and stage durations."""
    import resource
    import shutil
    import subprocess

    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, OMP_WAIT_POLICY="passive", HF_HUB_OFFLINE="1")
    env.pop("PYTHONPATH", None)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    with tempfile.TemporaryDirectory(prefix="ragdx-cold-cache-") as cache:
        env["RAGDX_CACHE_DIR"] = cache
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        load = os.getloadavg()[0]
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "ragdx.cli", "demo", "--out", str(out)], env=env,
                              capture_output=True, text=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        raise SystemExit(f"the demo failed ({src or 'this checkout'}):\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    text = " ".join(proc.stdout.split())
    stages = {_STAGES[int(n)]: float(s) for n, s in _STAGE.findall(text) if int(n) in _STAGES}
    done = re.search(r"\[6/6\] writing the report \(previous stage [0-9.]+ s, ([0-9.]+) s in all", text)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "stages": stages, "load": (load + os.getloadavg()[0]) / 2,
            "until_report": float(done.group(1)) if done else float("nan")}


def _same_outputs(a: Path, b: Path) -> dict[str, bool]:
    """Records (minus latency), evaluation metrics and relevance.json, the output directory's
    name replaced by a placeholder on both sides; timings left out."""
    import json

    def clean(x):
        if isinstance(x, dict):
            return {k: clean(v) for k, v in x.items() if k != "latency_s" and not k.endswith("_s")
                    and "time" not in k and k not in ("started", "ended")}
        return [clean(v) for v in x] if isinstance(x, list) else x

    def read(path: Path, root: Path, lines: bool = False):
        text = path.read_text(encoding="utf-8").replace(str(root), "<OUT>")
        return [clean(json.loads(ln)) for ln in text.splitlines() if ln.strip()] if lines else clean(json.loads(text))

    out = {}
    for name in ("keyword", "bm25-dense"):
        out[f"{name} records"] = read(a / "runs" / name / "results.jsonl", a, True) == \
            read(b / "runs" / name / "results.jsonl", b, True)
        ma, mb = (read(d / "runs" / name / "evaluation" / "metrics.json", d) for d in (a, b))
        out[f"{name} metrics"] = ma == mb
        if ma != mb:  # name what differs (another change may be behind it: evaluate's own code)
            out[f"{name} metrics"] = "differ: " + ", ".join(
                f"{k}.{j}" if isinstance(ma.get(k), dict) else k for k in ma if ma.get(k) != mb.get(k)
                for j in ([j for j in ma[k] if ma[k].get(j) != mb[k].get(j)] if isinstance(ma.get(k), dict)
                          and isinstance(mb.get(k), dict) else [None]))
    out["relevance.json"] = read(a / "relevance" / "relevance.json", a) == read(b / "relevance" / "relevance.json", b)
    return out


def cold(head_src: Path, out: Path) -> int:
    rows = {f"`{head_src}`": _demo(head_src, out / "head"), "this checkout": _demo(None, out / "new")}
    same = _same_outputs(out / "head", out / "new")
    print(f"# `ragdx demo`, cold (empty embedding cache), {os.cpu_count()} CPUs")
    print()
    print("| code | wall s | CPU s (user + sys) | " + " | ".join(f"{s} s" for s in _STAGES.values())
          + " | load average |")
    print("|---|---:|---:|" + "---:|" * len(_STAGES) + "---:|")
    for name, r in rows.items():
        stages = " | ".join(f"{r['stages'].get(s, float('nan')):.1f}" for s in _STAGES.values())
        print(f"| {name} | {r['wall']:.1f} | {r['cpu']:.1f} | {stages} | {r['load']:.1f} |")
    print()
    print("| compared | identical |")
    print("|---|---|")
    for k, v in same.items():
        print(f"| {k} | {'yes' if v is True else ('NO' if v is False else v)} |")
    print()
    print(f"Command: `{' '.join([Path(sys.executable).name, *sys.argv])}`")
    # records and relevance.json must be identical; a metrics difference is named (evaluate's own
    # code may differ between the two sides) and left to the reader
    must = [v for k, v in same.items() if "metrics" not in k]
    return 0 if all(v is True for v in must) else 1


if __name__ == "__main__":
    main()
