"""The demo's two systems over the demo's dataset, with and without the faster hot paths.

    .venv/bin/python benchmarks/demo_reader.py DEMO_OUT [--systems keyword bm25-dense]
    .venv/bin/python benchmarks/demo_reader.py --cold HEAD_SRC [--new NEW_SRC] [--repeat N] [--out DIR]

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
(timings and the output directory's name aside). ``--new NEW_SRC`` runs the other side from
that ``src`` directory instead of this checkout (so that other uncommitted work in the checkout
stays out of the comparison); ``--repeat N`` runs the pair N times, back to back, alternating
which side goes first. Where ``relevance.json`` differs, the largest relative difference of each
float field that differs is printed (float fields not printed, p-values and AUROC among them
when absent, are identical); it passes when nothing but floats differs, each by < 1e-5 relative.
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
    ap.add_argument("--new", type=Path, metavar="NEW_SRC", help="with --cold: this src instead of the checkout's")
    ap.add_argument("--repeat", type=int, default=1, help="with --cold: pairs to run, back to back")
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "ragdx-demo-cold")
    args = ap.parse_args()
    if args.cold is not None:
        sys.exit(cold(args.cold, args.out, args.new, args.repeat))
    if args.demo is None:
        ap.error("DEMO_OUT is required without --cold")

    import ragdx.rag.retrievers as retrievers
    from ragdx.demo.run import DEMO_TOP_K, _systems
    from ragdx.rag.generators import ExtractiveReader
    from ragdx.rag.rundir import read_run
    from ragdx.rag.runner import run

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


def _relevance_diff(a: Path, b: Path) -> tuple[dict[str, float], bool]:
    """The largest relative difference per numeric field of two ``relevance.json`` files (lists'
    items folded into their field), and whether everything else (flags, counts, decisions) is
    identical. Paths (the output directory differs) are left out."""
    import json

    worst: dict[str, float] = {}
    same_rest = True

    def walk(x, y, path: str) -> None:
        nonlocal same_rest
        if isinstance(x, dict) and isinstance(y, dict):
            if x.keys() != y.keys():
                same_rest = False
            for k in x.keys() & y.keys():
                walk(x[k], y[k], f"{path}.{k}")
        elif isinstance(x, list) and isinstance(y, list):
            if len(x) != len(y):
                same_rest = False
            for u, v in zip(x, y, strict=False):
                walk(u, v, path)
        elif isinstance(x, float) and isinstance(y, float) and not isinstance(x, bool):
            if x != y:
                worst[path] = max(worst.get(path, 0.0), abs(x - y) / max(abs(x), abs(y)))
        elif x != y and not (isinstance(x, str) and "/" in x):
            same_rest = False

    walk(json.loads(a.read_text(encoding="utf-8")), json.loads(b.read_text(encoding="utf-8")), "")
    return worst, same_rest


def cold(head_src: Path, out: Path, new_src: Path | None = None, repeat: int = 1) -> int:
    new_name = f"`{new_src}`" if new_src is not None else "this checkout"
    rows: list[tuple[str, dict]] = []
    for i in range(repeat):
        # alternate which side goes first, so that a drift in the machine's load favours neither
        pair = [(f"`{head_src}`", head_src, out / "head"), (new_name, new_src, out / "new")]
        for name, src, where in (pair if i % 2 == 0 else pair[::-1]):
            rows.append((name, _demo(src, where)))
    same = _same_outputs(out / "head", out / "new")
    print(f"# `ragdx demo`, cold (empty embedding cache), {os.cpu_count()} CPUs")
    print()
    print("| code | wall s | CPU s (user + sys) | " + " | ".join(f"{s} s" for s in _STAGES.values())
          + " | load average |")
    print("|---|---:|---:|" + "---:|" * len(_STAGES) + "---:|")
    for name, r in rows:
        stages = " | ".join(f"{r['stages'].get(s, float('nan')):.1f}" for s in _STAGES.values())
        print(f"| {name} | {r['wall']:.1f} | {r['cpu']:.1f} | {stages} | {r['load']:.1f} |")
    worst: dict[str, float] = {}
    if same["relevance.json"] is not True:
        worst, same_rest = _relevance_diff(out / "head" / "relevance" / "relevance.json",
                                           out / "new" / "relevance" / "relevance.json")
        # vectors from differently shaped batches differ by float rounding (~1e-7, see
        # Embedder._cpu_batches): raw statistics may move in the 7th digit, nothing else may
        if same_rest and max(worst.values(), default=0.0) < 1e-5:
            same["relevance.json"] = "all but raw statistics (float rounding, below)"
        else:
            same["relevance.json"] = False
    print()
    print("| compared (last pair) | identical |")
    print("|---|---|")
    for k, v in same.items():
        print(f"| {k} | {'yes' if v is True else ('NO' if v is False else v)} |")
    if worst:
        print()
        for k, v in sorted(worst.items()):
            print(f"- relevance.json `{k}`: largest relative difference {v:.1e}")
    print()
    print(f"Command: `{' '.join([Path(sys.executable).name, *sys.argv])}`")
    # records must be identical, relevance.json identical up to float rounding; a metrics
    # difference is named (evaluate's own code may differ between the two sides) and left to the reader
    must = [v for k, v in same.items() if "metrics" not in k]
    return 0 if all(v is not False for v in must) else 1


if __name__ == "__main__":
    main()
