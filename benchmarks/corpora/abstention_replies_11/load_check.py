"""Loads sample 11 the way benchmarks/abstention_judge_blind.py reads a sample and counts labels by kind.

Checks the file's shape only (fields, ids, vocabularies); it does not run or score any judge.
    python3 load_check.py
"""
from __future__ import annotations

import collections
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FIELDS = ("id", "question", "refusal_kind", "reference", "reply", "label", "note")
KINDS = ("", "false_premise", "absent_entity", "ambiguous_reference", "out_of_domain", "omitted_fact")
LABELS = ("answer", "refusal", "correction")


def main() -> None:
    with open(os.path.join(HERE, "replies.jsonl"), encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    assert [r["id"] for r in rows] == [f"r11-{i:03d}" for i in range(1, 201)]
    for r in rows:
        assert set(r) == set(FIELDS) and all(isinstance(r[k], str) for k in FIELDS), r["id"]
        assert r["refusal_kind"] in KINDS and r["label"] in LABELS and r["reply"].strip(), r["id"]
        # a false premise needs the true value a correction would give (the blind script passes it to the judge)
        assert r["refusal_kind"] != "false_premise" or r["reference"], r["id"]
        assert r["refusal_kind"] != "" or r["label"] != "correction", r["id"]
    counts = collections.Counter((r["refusal_kind"], r["label"]) for r in rows)
    print("| refusal kind | answer | refusal | correction | total |\n|---|---|---|---|---|")
    for kind in KINDS:
        row = [counts[(kind, lab)] for lab in LABELS]
        print(f"| {kind or 'answerable'} | " + " | ".join(map(str, row)) + f" | {sum(row)} |")
    totals = [sum(counts[(k, lab)] for k in KINDS) for lab in LABELS]
    print("| **total** | " + " | ".join(f"**{t}**" for t in totals) + f" | **{sum(totals)}** |")
    dup = [q for q, n in collections.Counter(r["question"] for r in rows).items() if n > 1]
    print(f"duplicate questions: {dup}")


if __name__ == "__main__":
    main()
