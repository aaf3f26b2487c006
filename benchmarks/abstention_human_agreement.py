"""How often two people agree on what a reply does (issue 26): the ceiling for the abstention judge.

    python benchmarks/abstention_human_agreement.py

Compares the writers' labels of blind samples 5 and 6 (benchmarks/corpora/abstention_replies_N/replies.jsonl)
with a second reader's labels of the same replies (benchmarks/corpora/abstention_second_reader/labels_N.jsonl,
helper V, who saw neither the writers' labels nor the judge). Prints the agreement and every disagreement. No
ragdx code is involved: both sides are people's labels.
"""

from __future__ import annotations

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CORPORA = os.path.join(HERE, "corpora")


def _labels(path: str) -> dict[str, str]:
    with open(path, encoding="utf-8") as f:
        return {row["id"]: row["label"] for row in map(json.loads, filter(str.strip, f))}


def main() -> int:
    total = agreed = 0
    for n in (5, 6):
        with open(os.path.join(CORPORA, f"abstention_replies_{n}", "replies.jsonl"), encoding="utf-8") as f:
            rows = {r["id"]: r for r in map(json.loads, filter(str.strip, f))}
        second = _labels(os.path.join(CORPORA, "abstention_second_reader", f"labels_{n}.jsonl"))
        if set(second) != set(rows):
            print(f"sample {n}: the second reader's ids differ from the sample's", file=sys.stderr)
            return 2
        same = [i for i in rows if rows[i]["label"] == second[i]]
        total += len(rows)
        agreed += len(same)
        print(f"sample {n}: writer and second reader agree on {len(same)}/{len(rows)} = "
              f"{100 * len(same) / len(rows):5.1f} %")
        for i in sorted(set(rows) - set(same)):
            r = rows[i]
            print(f"  {i} writer={r['label']} second={second[i]} [{r['refusal_kind'] or 'answerable'}] {r['reply']}")
    print(f"both: {agreed}/{total} = {100 * agreed / total:5.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
