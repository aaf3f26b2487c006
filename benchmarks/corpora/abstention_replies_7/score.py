"""Scores a judge's labels against the writer's labels of replies.jsonl.

    python3 score.py PREDICTIONS.jsonl [--replies replies.jsonl] [--show-disagreements] [--require 0.95]

PREDICTIONS.jsonl holds one {"id": ..., "label": "refusal" | "correction" | "answer"} per line, exactly one
for every reply of the sample (a missing, extra or repeated id is an error: agreement over part of the
sample would not be the figure the issue asks for). Prints agreement overall, per writer's label (recall,
with the precision of the judge's label beside it), per refusal kind, and the confusion table. Exit 0;
1 when --require is given and overall agreement is below it; 2 on bad input, with one line naming the
file, line and field. Standard library only; nothing from ragdx is imported.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter

LABELS = ("answer", "refusal", "correction")
KINDS = ("", "false_premise", "absent_entity", "ambiguous_reference", "out_of_domain", "omitted_fact")
HERE = os.path.dirname(os.path.abspath(__file__))


class BadInput(Exception):
    """One line for the user: the file, the line and the field at fault."""


def read_jsonl(path, fields):
    """The rows of a JSONL file, each a dict holding at least `fields` as strings."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise BadInput(f"{path}: cannot read: {e}") from e
    rows = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            raise BadInput(f"{path}:{n}: not JSON: {e.msg}") from e
        if not isinstance(row, dict):
            raise BadInput(f"{path}:{n}: a line must be a JSON object")
        for field in fields:
            if not isinstance(row.get(field), str):
                raise BadInput(f"{path}:{n}: field '{field}' missing or not a string")
        rows.append((n, row))
    if not rows:
        raise BadInput(f"{path}: no rows")
    return rows


def load(replies_path, predictions_path):
    """(truth rows in file order, {id: predicted label}), with every id of each file matched once."""
    truth = []
    seen = set()
    for n, row in read_jsonl(replies_path, ("id", "refusal_kind", "label")):
        if row["label"] not in LABELS:
            raise BadInput(f"{replies_path}:{n}: field 'label' is {row['label']!r}, not one of {LABELS}")
        if row["refusal_kind"] not in KINDS:
            raise BadInput(f"{replies_path}:{n}: field 'refusal_kind' is {row['refusal_kind']!r}")
        if row["id"] in seen:
            raise BadInput(f"{replies_path}:{n}: field 'id' {row['id']!r} repeated")
        seen.add(row["id"])
        truth.append(row)
    pred = {}
    for n, row in read_jsonl(predictions_path, ("id", "label")):
        if row["label"] not in LABELS:
            raise BadInput(f"{predictions_path}:{n}: field 'label' is {row['label']!r}, not one of {LABELS}")
        if row["id"] in pred:
            raise BadInput(f"{predictions_path}:{n}: field 'id' {row['id']!r} repeated")
        if row["id"] not in seen:
            raise BadInput(f"{predictions_path}:{n}: field 'id' {row['id']!r} is not in {replies_path}")
        pred[row["id"]] = row["label"]
    missing = [r["id"] for r in truth if r["id"] not in pred]
    if missing:
        more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
        raise BadInput(f"{predictions_path}: field 'id': no prediction for {missing[0]}{more}")
    return truth, pred


def pct(num, den):
    return f"{num}/{den} = {100.0 * num / den:5.1f} %" if den else "-"


def report(truth, pred, show_disagreements=False):
    """The printed tables, as lines; and the overall agreement."""
    agree = sum(pred[r["id"]] == r["label"] for r in truth)
    lines = [f"replies: {len(truth)}", f"agreement overall: {pct(agree, len(truth))}", "",
             "| writer's label | agreement (recall) | judge's label precision |", "|---|---|---|"]
    for label in LABELS:
        rows = [r for r in truth if r["label"] == label]
        hit = sum(pred[r["id"]] == label for r in rows)
        said = sum(v == label for v in pred.values())
        lines.append(f"| {label} | {pct(hit, len(rows))} | {pct(hit, said)} |")
    lines += ["", "| refusal kind | replies | agreement |", "|---|---|---|"]
    for kind in KINDS:
        rows = [r for r in truth if r["refusal_kind"] == kind]
        if rows:
            hit = sum(pred[r["id"]] == r["label"] for r in rows)
            lines.append(f"| {kind or 'answerable'} | {len(rows)} | {pct(hit, len(rows))} |")
    cells = Counter((r["label"], pred[r["id"]]) for r in truth)
    lines += ["", "confusion (rows: writer's label, columns: judge's label)", "",
              "| | " + " | ".join(LABELS) + " |", "|---" * (len(LABELS) + 1) + "|"]
    for t in LABELS:
        lines.append(f"| {t} | " + " | ".join(str(cells[(t, p)]) for p in LABELS) + " |")
    if show_disagreements:
        lines += ["", "disagreements:"]
        for r in truth:
            if pred[r["id"]] != r["label"]:
                reply = r.get("reply", "").replace("\n", " ")
                lines.append(f"  {r['id']} writer={r['label']} judge={pred[r['id']]} "
                             f"[{r['refusal_kind'] or 'answerable'}] {reply[:140]}")
    return lines, agree / len(truth)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("predictions", help='JSONL, one {"id", "label"} per reply')
    ap.add_argument("--replies", default=os.path.join(HERE, "replies.jsonl"))
    ap.add_argument("--show-disagreements", action="store_true")
    ap.add_argument("--require", type=float, default=None, help="exit 1 when overall agreement is below this")
    args = ap.parse_args(argv)
    try:
        truth, pred = load(args.replies, args.predictions)
    except BadInput as e:
        print(f"score.py: {e}", file=sys.stderr)
        return 2
    lines, overall = report(truth, pred, args.show_disagreements)
    print("\n".join(lines))
    if args.require is not None and overall < args.require:
        print(f"agreement {overall:.3f} is below the required {args.require}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
