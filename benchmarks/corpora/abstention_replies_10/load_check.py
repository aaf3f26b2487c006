"""Format check for blind sample 10: loads replies.jsonl the way benchmarks/abstention_judge_blind.py does and
counts labels per refusal kind. It runs no judge and scores nothing (the sample is blind until the lead scores it).

    python3 load_check.py
"""

from __future__ import annotations

import collections
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIELDS = ("id", "question", "refusal_kind", "reference", "reply", "label", "note")
KINDS = ("", "false_premise", "absent_entity", "ambiguous_reference", "out_of_domain", "omitted_fact")
LABELS = ("answer", "refusal", "correction")


def main() -> int:
    with open(os.path.join(HERE, "replies.jsonl"), encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    problems = []
    for n, row in enumerate(rows, 1):
        if tuple(row) != FIELDS or not all(isinstance(row[k], str) for k in FIELDS):
            problems.append(f"line {n}: fields {tuple(row)}")
        if row.get("refusal_kind") not in KINDS or row.get("label") not in LABELS:
            problems.append(f"line {n}: kind {row.get('refusal_kind')!r} label {row.get('label')!r}")
        if row.get("id") != f"r10-{n:03d}":
            problems.append(f"line {n}: id {row.get('id')!r}")
        # a false premise must carry the true value the judge is given; answerable needs its answer
        if row.get("refusal_kind") in ("", "false_premise") and not row.get("reference"):
            problems.append(f"line {n}: empty reference")
    counts = collections.Counter((r["refusal_kind"], r["label"]) for r in rows)
    print(f"| refusal kind | {' | '.join(LABELS)} | total |\n|---|---|---|---|---|")
    for kind in KINDS:
        cells = [counts[(kind, label)] for label in LABELS]
        print(f"| {kind or 'answerable'} | {' | '.join(map(str, cells))} | {sum(cells)} |")
    totals = [sum(counts[(k, label)] for k in KINDS) for label in LABELS]
    print(f"| **total** | {' | '.join(f'**{t}**' for t in totals)} | **{len(rows)}** |")
    print("\n".join(problems) or "format ok")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
