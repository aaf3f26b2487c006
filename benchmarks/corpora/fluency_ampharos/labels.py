"""How the judge (helper 77) wrote the labels and notes of sample.jsonl, kept for the record.

    python labels.py DRAWN_SAMPLE.jsonl JUDGED_SAMPLE.jsonl

Every one of the 200 drawn questions was read with its answer before this file was written. The notes of the
faults that repeat (the same naming pattern or the same kind of answer) are attached by the patterns below so
that the same fault gets the same note; a question with no such fault is fluent unless a BAD pattern applies.
The decisions are the judge's, by RULE.md; the patterns only write them down.
"""

# ruff: noqa: E501  (the notes are data, kept on one line each)
from __future__ import annotations

import json
import re
import sys

# notes for the telegraphic features of a question; each question gets every matching note
TEL_QUERY = [
    (
        r"the pokemon with term '",
        "the Pokémon named by its key term in record-speak ('the pokemon with term 'bombirdier''): the key column's word 'term' as a noun and the lower-case slug for the name; a player writes 'Bombirdier'",
    ),
]
# notes for the telegraphic features of an answer
TEL_ANSWER = [
    (
        r"^[A-Z]+$",
        "the answer is the source's capitalised enum label (e.g. 'GRASS', 'STATUS'); a player writes Grass, Status",
    ),
    (r"^VARIES$", "'VARIES' is the source's placeholder for a move whose category depends on the situation"),
]
# bad: the gold answer a careful reader would not give
BAD_ANSWER = [
    (
        r"accuracy",
        r"^101$",
        "misleading: the source's sentinel 101 (the move never misses) as the accuracy; a reader answers 'it cannot miss', not 101 %",
    ),
]
# notes that do not change a label (the answer's text as shipped)
INFO = [(r"Ã©", "answer carries the source's mis-decoded 'PokÃ©mon'")]


def judge(rows: list[dict]) -> list[dict]:
    out = []
    for r in rows:
        q, a = r["query"], str(r["answer"])
        notes = [n for rx, n in TEL_QUERY if re.search(rx, q)]
        notes += [n for rx, n in TEL_ANSWER if re.search(rx, a)]
        bad = [n for qrx, arx, n in BAD_ANSWER if re.search(qrx, q, re.I) and re.search(arx, a)]
        info = [n for rx, n in INFO if re.search(rx, a)]
        if bad:
            label, note = "bad", "; ".join(bad + notes + info)
        elif notes:
            label, note = "telegraphic", "; ".join(notes + info)
        else:
            label, note = "fluent", "; ".join(info)
        out.append({**r, "label": label, "note": note})
    return out


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: labels.py DRAWN_SAMPLE.jsonl JUDGED_SAMPLE.jsonl")
    drawn = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
    with open(sys.argv[2], "w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in judge(drawn))
