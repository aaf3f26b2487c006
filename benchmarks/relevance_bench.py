"""Setting 1 of the knowledge-boundary benchmark (query-knowledge relevance, §4 of the paper).

    OMP_WAIT_POLICY=passive HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/relevance_bench.py \
        [--data ../shared/data/knowledge-boundary] [--out benchmarks/results] [--seeds 10] [--n 300]

Writes relevance_setting1.md / .json under --out and prints the Markdown. Embeddings are cached in
.ragdx-cache (the first run embeds ~14k texts: several minutes on 2 cores).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
NOTES_MARKER = "<!-- notes: kept across re-runs -->"


def main() -> None:
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    sys.path.insert(0, str(REPO / "src"))
    from ragdx.relevance.bench import render_markdown, run_bench
    from ragdx.store import atomic_write_text

    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(REPO.parent / "shared" / "data" / "knowledge-boundary"))
    ap.add_argument("--out", default=str(REPO / "benchmarks" / "results"))
    ap.add_argument("--cache", default=str(REPO / ".ragdx-cache"))
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--temperature", type=float, default=0.05)
    args = ap.parse_args()
    result = run_bench(args.data, None, n_per_class=args.n, seeds=args.seeds, k=args.k,
                       temperature=args.temperature, cache_dir=args.cache,
                       progress=lambda m: print(f"... {m}", file=sys.stderr, flush=True))
    md = render_markdown(result)
    out = Path(args.out)
    # hand-written notes below the marker survive a re-run
    old = out / "relevance_setting1.md"
    if old.exists() and NOTES_MARKER in old.read_text(encoding="utf-8"):
        md = md.rstrip("\n") + "\n\n" + NOTES_MARKER + old.read_text(encoding="utf-8").split(NOTES_MARKER, 1)[1]
    atomic_write_text(out / "relevance_setting1.md", md)
    atomic_write_text(out / "relevance_setting1.json", json.dumps(result.to_dict(), indent=2) + "\n")
    print(md)


if __name__ == "__main__":
    main()
