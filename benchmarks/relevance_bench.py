"""The knowledge-boundary benchmark (query-knowledge relevance, §4 of the paper) as committed tables.

    # setting 1: PubMedQA contexts (add --limit 400 to subsample the out-of-knowledge sets)
    OMP_WAIT_POLICY=passive HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/relevance_bench.py
    # setting 2: the demo's knowledge base (files from benchmarks/relevance_setting2.py)
    .venv/bin/python benchmarks/relevance_bench.py --name relevance_setting2 --limit 400 \
        --corpus setting2/corpus.jsonl --corpus-field text --in-knowledge setting2/in_knowledge.jsonl \
        --group-field group --out-of-knowledge facts-left-out=setting2/gaps.jsonl \
        --out-of-knowledge truthfulqa=../shared/data/knowledge-boundary/truthfulqa.jsonl ...

Writes NAME.md / .json under --out and prints the Markdown; hand-written notes below the marker in
an existing NAME.md are kept. Embeddings come from the shared per-user cache (`ragdx cache info`;
the first run of setting 1 embeds ~14k texts: several minutes on 2 cores).
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
    from ragdx.relevance.bench import load_custom_setting, load_setting1, render_markdown, run_bench
    from ragdx.relevance.cli_support import parse_named_files
    from ragdx.store import atomic_write_text

    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(REPO.parent / "shared" / "data" / "knowledge-boundary"))
    ap.add_argument("--corpus")
    ap.add_argument("--corpus-field", default="content")
    ap.add_argument("--in-knowledge")
    ap.add_argument("--group-field")
    ap.add_argument("--out-of-knowledge", action="append")
    ap.add_argument("--setting-name", help="Title of a --corpus setting.")
    ap.add_argument("--limit", type=int, help="At most this many queries per out-of-knowledge set (seeded).")
    ap.add_argument("--name", default="relevance_setting1", help="Base name of the result files.")
    ap.add_argument("--out", default=str(REPO / "benchmarks" / "results"))
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--temperature", type=float, default=0.05)
    args = ap.parse_args()
    if args.corpus:
        setting = load_custom_setting(args.corpus, args.in_knowledge,
                                      parse_named_files(args.out_of_knowledge, "--out-of-knowledge"),
                                      corpus_field=args.corpus_field, group_field=args.group_field,
                                      limit=args.limit, name=args.setting_name)
    else:
        setting = load_setting1(args.data, limit=args.limit)
    result = run_bench(setting, None, n_per_class=args.n, seeds=args.seeds, k=args.k,
                       temperature=args.temperature,
                       progress=lambda m: print(f"... {m}", file=sys.stderr, flush=True))
    md = render_markdown(result)
    out = Path(args.out)
    # hand-written notes below the marker survive a re-run
    old = out / f"{args.name}.md"
    if old.exists() and NOTES_MARKER in old.read_text(encoding="utf-8"):
        md = md.rstrip("\n") + "\n\n" + NOTES_MARKER + old.read_text(encoding="utf-8").split(NOTES_MARKER, 1)[1]
    atomic_write_text(out / f"{args.name}.md", md)
    atomic_write_text(out / f"{args.name}.json", json.dumps(result.to_dict(), indent=2) + "\n")
    print(md)


if __name__ == "__main__":
    main()
