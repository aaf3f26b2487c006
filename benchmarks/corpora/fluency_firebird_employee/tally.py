"""Per style: fluent / telegraphic / bad counts and shares of a judged sample, and whether issue 22's
target (>= 90 % fluent, <= 2 % bad) is met.

    python tally.py sample.jsonl

Standard library only. A record without one of the three labels stops it (the sample is judged whole).
"""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

LABELS = ("fluent", "telegraphic", "bad")


def tally(path: Path) -> dict[str, Counter]:
    per: dict[str, Counter] = defaultdict(Counter)
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            rec = json.loads(line)
            if rec.get("label") not in LABELS:
                sys.exit(f"{path}:{n}: label {rec.get('label')!r} is not one of {', '.join(LABELS)}")
            per[rec["style"]][rec["label"]] += 1
    return dict(per)


def met(c: Counter) -> bool:
    total = sum(c.values())
    return c["fluent"] >= 0.9 * total and c["bad"] <= 0.02 * total


def table(per: dict[str, Counter]) -> str:
    lines = ["| style | n | fluent | telegraphic | bad | target met |", "|---|---:|---:|---:|---:|---|"]
    for style in sorted(per):
        c = per[style]
        n = sum(c.values())
        cells = " | ".join(f"{c[lab]} ({100 * c[lab] / n:.0f} %)" for lab in LABELS)
        lines.append(f"| {style} | {n} | {cells} | {'yes' if met(c) else 'no'} |")
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: tally.py SAMPLE_JSONL")
    print(table(tally(Path(sys.argv[1]))))
