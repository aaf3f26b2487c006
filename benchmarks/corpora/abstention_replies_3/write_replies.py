"""Writes replies.jsonl from replies_source.txt, where helper N wrote each reply and its label by hand.

    python3 write_replies.py

replies_source.txt holds one entry per block: a line "@ KIND | LABEL" (KIND "answerable" for an answerable
question), then "Q:", "R:" (reference), "N:" (note) and "A:" lines, the reply being every line after "A:" up
to the next "@". The entries are shuffled with a fixed seed so that ids say nothing about kind or label: the
labels were fixed when the entries were written, and this script only copies them. Standard library only.
"""

from __future__ import annotations

import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "replies_source.txt")
OUT = os.path.join(HERE, "replies.jsonl")
LABELS = ("answer", "refusal", "correction")
KINDS = ("", "false_premise", "absent_entity", "ambiguous_reference", "out_of_domain", "omitted_fact")


def parse_block(block, lineno):
    """One entry of replies_source.txt as a record without its id."""
    head, *lines = block
    kind, _, label = (part.strip() for part in head[1:].partition("|"))
    kind = "" if kind == "answerable" else kind
    if kind not in KINDS or label not in LABELS:
        raise ValueError(f"{SOURCE}:{lineno}: field 'kind | label' is {head!r}")
    fields = {}
    for i, line in enumerate(lines):
        if line.startswith("A:"):
            fields["reply"] = "\n".join(lines[i + 1:]).strip()
            break
        key, _, value = line.partition(":")
        fields[{"Q": "question", "R": "reference", "N": "note"}[key]] = value.strip()
    return {"question": fields["question"], "refusal_kind": kind, "reference": fields["reference"],
            "reply": fields["reply"], "label": label, "note": fields["note"]}


def rows():
    """The 200 records, shuffled with a fixed seed, with ids r3-001 ... in file order."""
    with open(SOURCE, encoding="utf-8") as f:
        text = f.read().splitlines()
    blocks, starts = [], []
    for n, line in enumerate(text, 1):
        if line.startswith("@ "):
            blocks.append([line])
            starts.append(n)
        elif blocks:
            blocks[-1].append(line)
    records = [parse_block(b, n) for b, n in zip(blocks, starts, strict=True)]
    random.Random(26).shuffle(records)
    return [{"id": f"r3-{i:03d}", **r} for i, r in enumerate(records, 1)]


def main():
    try:
        records = rows()
    except (ValueError, KeyError, OSError) as e:
        print(f"write_replies.py: {e}", file=sys.stderr)
        return 2
    with open(OUT, "w", encoding="utf-8") as f:
        f.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    return 0


if __name__ == "__main__":
    sys.exit(main())
