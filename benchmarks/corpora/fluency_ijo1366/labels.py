"""How the judge (helper 99) wrote the labels and notes of sample.jsonl, kept for the record.

    python labels.py DRAWN_SAMPLE.jsonl JUDGED_SAMPLE.jsonl

Every one of the 200 drawn questions was read with its answer before this file was written. The dataset has two
SQL templates (a metabolite's formula, its charge) and three phrasings of each per style, so every fault found
repeats by phrasing; the notes are attached by the patterns below and the same fault always gets the same note.
No question was found bad (no answer is a code, every metabolite is identified by its name and compartment, every
question word fits its answer); a question with no fault would be fluent. The decisions are the judge's, by
RULE.md; the patterns only write them down.
"""

# ruff: noqa: E501  (the notes are data, kept on one line each)
from __future__ import annotations

import json
import re
import sys

# bad: decided one by one (RULE.md, "bad"); none was found in this sample
BAD_IDS: dict[str, str] = {}
# telegraphic: understandable, not how a person writes (RULE.md, "telegraphic"); every matching note is kept
TEL_QUERY = [
    (
        r"\bthe metabolite '[^?]*' of the compartment '",
        "record-speak for where a metabolite is: 'the metabolite 'L-Tyrosine' of the compartment 'cytosol'' (the compartment named as a labelled record, with 'of' where a metabolite is *in* a compartment, and 'the compartment 'extracellular space'' for the extracellular space); a person writes 'L-Tyrosine in the cytosol', 'cytosolic L-Tyrosine' or 'extracellular L-Malate'",
    ),
    (
        r"(?i)\bhow much is the charge\b",
        "'How much is the charge of ...' asks a charge as an amount or a price; a person asks 'What is the charge of ...'",
    ),
]


def judge(rec: dict) -> tuple[str, str]:
    if rec["id"] in BAD_IDS:
        return "bad", BAD_IDS[rec["id"]]
    notes = [note for rx, note in TEL_QUERY if re.search(rx, rec["query"])]
    if notes:
        return "telegraphic", "; ".join(notes)
    return "fluent", ""


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    out = []
    with open(sys.argv[1], encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            rec["label"], rec["note"] = judge(rec)
            out.append(rec)
    with open(sys.argv[2], "w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in out)
    print(f"{len(out)} labelled → {sys.argv[2]}")


if __name__ == "__main__":
    main()
