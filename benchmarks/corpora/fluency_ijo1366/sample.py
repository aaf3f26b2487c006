"""Draw the blind fluency sample (iJO1366 metabolic model): 100 records per style, seed 22, from a
ragdx dataset.

    python sample.py DATASET_DIR/records.jsonl sample.jsonl [--per-style 100] [--seed 22]

Writes one JSON line per drawn record: id, style, question_kind, query, answer, label, note
(label and note empty, for the judge to fill). Standard library only. The draw is made per
style from the records sorted by id, so the same dataset always gives the same sample.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from pathlib import Path


def draw(records_path: Path, per_style: int, seed: int) -> list[dict]:
    by_style: dict[str, list[dict]] = defaultdict(list)
    with records_path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            try:
                rec = json.loads(line)
                by_style[rec["style"]].append(rec)
            except (json.JSONDecodeError, KeyError) as exc:
                sys.exit(f"{records_path}:{n}: not a record with a style ({exc})")
    rng = random.Random(seed)
    out = []
    for style in sorted(by_style):
        pool = sorted(by_style[style], key=lambda r: r["id"])
        if len(pool) < per_style:
            sys.exit(f"{records_path}: style {style!r} has {len(pool)} records, fewer than {per_style}")
        for rec in rng.sample(pool, per_style):
            out.append(
                {
                    "id": rec["id"],
                    "style": style,
                    "question_kind": rec.get("question_kind", ""),
                    "query": rec["query"],
                    "answer": rec["answer_text"],
                    "label": "",
                    "note": "",
                }
            )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("records", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--per-style", type=int, default=100)
    ap.add_argument("--seed", type=int, default=22)
    args = ap.parse_args()
    rows = draw(args.records, args.per_style, args.seed)
    if args.out.exists():
        sys.exit(f"{args.out}: exists; the sample is drawn once (remove it yourself to redraw)")
    args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(f"{len(rows)} records → {args.out}")


if __name__ == "__main__":
    main()
