"""The demo's two systems over the demo's dataset, with and without the faster hot paths.

    .venv/bin/python benchmarks/demo_reader.py DEMO_OUT [--systems keyword bm25-dense]

``without``: the extractive reader embeds each query in its own model call (no ``prepare``)
and the keyword retriever adds one posting at a time (its previous code, kept here as the
reference); ``with``: the code as it is. Each variant runs with its own empty embedding cache
(cold, like a first ``make demo``) into its own run directory; the records (all but timings)
must be identical. Prints one row per system and variant.
"""

from __future__ import annotations

import argparse
import os
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
    ap.add_argument("demo", type=Path)
    ap.add_argument("--systems", nargs="+", default=["keyword", "bm25-dense"])
    args = ap.parse_args()

    import ragdx.rag.retrievers as retrievers
    from ragdx.demo.run import DEMO_TOP_K, _systems
    from ragdx.rag.generators import ExtractiveReader
    from ragdx.rag.runner import read_run, run

    new_scores, new_prepare = retrievers.KeywordRetriever.scores, ExtractiveReader.prepare
    rows = []
    with tempfile.TemporaryDirectory(prefix="ragdx-demo-ab-") as tmpname:
        tmp = Path(tmpname)
        for variant in ("without", "with"):
            os.environ["RAGDX_CACHE_DIR"] = str(tmp / f"cache-{variant}")  # cold for each variant
            retrievers._EMBEDDERS.clear()
            if variant == "without":
                retrievers.KeywordRetriever.scores = _old_keyword_scores
                del ExtractiveReader.prepare
            else:
                retrievers.KeywordRetriever.scores = new_scores
                ExtractiveReader.prepare = new_prepare
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


if __name__ == "__main__":
    main()
