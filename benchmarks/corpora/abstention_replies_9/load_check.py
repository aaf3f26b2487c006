"""Loads sample 9 as benchmarks/abstention_judge_blind.py reads it and counts labels; scores nothing, runs no judge.

It reads replies.jsonl the way the blind runner does (one JSON object a non-blank line, the fields it passes on),
validates it with the first sample's score.py `load` (unique ids, labels and refusal kinds in its vocabulary; the
file is passed as its own predictions only so that `load` checks it), and prints the label counts per refusal kind.
Standard library only: python3 load_check.py
"""

import collections
import importlib.util
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPLIES = HERE / "replies.jsonl"
FIELDS = {"id", "question", "refusal_kind", "reference", "reply", "label", "note"}
KINDS = ("", "false_premise", "absent_entity", "ambiguous_reference", "out_of_domain", "omitted_fact")
LABELS = ("answer", "refusal", "correction")


def main() -> None:
    with open(REPLIES, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    assert all(set(row) == FIELDS for row in rows), "a row has other fields than the blind runner reads"
    assert [row["id"] for row in rows] == [f"r9-{i:03d}" for i in range(1, 201)]
    # The runner passes the reference only for a false premise, so each of those must carry one.
    assert all(row["reference"] for row in rows if row["refusal_kind"] == "false_premise")
    spec = importlib.util.spec_from_file_location("score", HERE.parent / "abstention_replies" / "score.py")
    score = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(score)
    truth, _ = score.load(str(REPLIES), str(REPLIES))
    assert len(truth) == len(rows) == 200
    counts = collections.Counter((row["refusal_kind"], row["label"]) for row in rows)
    print("| refusal kind | answer | refusal | correction | total |")
    print("|---|---|---|---|---|")
    for kind in KINDS:
        cells = [counts[kind, label] for label in LABELS]
        print(f"| {kind or 'answerable'} | " + " | ".join(map(str, cells)) + f" | {sum(cells)} |")
    totals = [sum(counts[kind, label] for kind in KINDS) for label in LABELS]
    print("| total | " + " | ".join(map(str, totals)) + f" | {sum(totals)} |")


if __name__ == "__main__":
    main()
