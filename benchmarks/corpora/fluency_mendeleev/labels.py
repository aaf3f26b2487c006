"""How the judge (helper 75) wrote the labels and notes of sample.jsonl, kept for the record.

    python labels.py DRAWN_SAMPLE.jsonl JUDGED_SAMPLE.jsonl

Every one of the 200 drawn questions was read with its answer before this file was written. The notes of the
faults that repeat (the same column or naming pattern) are attached by the patterns below so that the same
fault gets the same note; a question with no such fault is fluent unless it is one of the few read-one-by-one
verdicts in BAD / EXTRA_TEL (keyed by line number in the drawn sample, 0-based). The decisions are the
judge's, by RULE.md; the patterns only write them down.
"""

# ruff: noqa: E501  (the notes are data, kept on one line each)
from __future__ import annotations

import json
import re
import sys

# notes for the telegraphic features; each question gets every matching note
TEL = [
    (
        r"ionizationenergy with species name",
        "an ion named through the table ('the ionizationenergy with species name ...', raw table name) by its spectroscopic label; a person writes 'Fe III' or 'the third ionisation energy of iron'",
    ),
    (
        r"element of the ionizationenergy",
        "the element reached through one of its ions' ionisation-energy rows: a person names the element",
    ),
    (
        r"\bVDW radius (?:alvarez|batsanov|bondi|dreiding|mm 3|uff|truhlar|rt)\b",
        "raw split column name (vdw_radius_<source>): the source's author or force field as a trailing word",
    ),
    (
        r"\bcovalent radius (?:pyykko|cordero|bragg)",
        "raw split column name (covalent_radius_<author>[_double/_triple])",
    ),
    (
        r"\ben (?:pauling|allen|ghosh|miedema|mullay|gunnarsson lundqvist|robles bartolotti)\b",
        "raw 'en <scale>' for an electronegativity scale ('the Pauling electronegativity')",
    ),
    (r"\bc 6 GB\b", "raw split column name c6_gb ('c 6 GB' reads like gigabytes) for the C6 dispersion coefficient"),
    (r"\babundance (?:sea|crust)\b", "raw column word order ('abundance sea' for abundance in sea water)"),
    (r"\batomic radius rahm\b", "raw split column name (atomic_radius_rahm)"),
    (r"\bmetallic radius c 12\b", "raw split column name (metallic_radius_c12)"),
    (r"\bdipole polarizability unc\b", "raw abbreviation 'unc' (uncertainty) from the column name"),
    (r"\bmolcas GV color\b", "raw split column name (molcas_gv_color)"),
    (r"\bmiedema\b", "raw column name for a parameter of Miedema's model (lower-case, no possessive)"),
    (r"\bprice per in kg\b", "ungrammatical unit phrase 'price per in kg'"),
    (
        r"political stability of top (?:producer|reserve holder)",
        "raw column name without articles ('political stability of top producer')",
    ),
    (r"\bcas\b", "lower-case acronym 'cas' (and plural 'What are the cas') for the CAS number"),
    (r"\bisoelectonic\b", "the source's misspelt column name 'isoelectonic sequence'"),
    (r"\bsemi empirical status\b|\btheoretical status\b|\bradioactive status\b", "a yes/no flag asked as 'status'"),
    (r"\bion charge\b", "raw column name 'ion charge' (the ion's charge is already in the species label)"),
]
# read one by one: misleading answers (bad), with notes; and telegraphic ones no pattern above catches
BAD = {
    156: "misleading: 'the color of the transition metals' answered by a plotting colour code #e08e79 (a reader says silvery); the series' chart colour",
    73: "misleading: 'the color of the series of titanium' answered by the chart colour code #e08e79, not a colour of the metals",
    70: "'references' answered by an internal citation key 'L8672c99', not a reference a reader can use; also table-name noun",
}
EXTRA_TEL = {
    0: "'reserve distribution' answered by a bare number (22): the column name, with no unit or sense a reader can match (a share of world reserves, %)"
}


def judge(rows: list[dict]) -> list[dict]:
    out = []
    for i, r in enumerate(rows):
        q = r["query"]
        notes = [n for rx, n in TEL if re.search(rx, q, 0 if rx == r"\bcas\b" else re.I)]
        if i in EXTRA_TEL:
            notes.append(EXTRA_TEL[i])
        if i in BAD:
            label, note = "bad", BAD[i] + ("; " + "; ".join(notes) if notes else "")
        elif notes:
            label, note = "telegraphic", "; ".join(notes)
        else:
            label, note = "fluent", ""
        out.append({**r, "label": label, "note": note})
    return out


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: labels.py DRAWN_SAMPLE.jsonl JUDGED_SAMPLE.jsonl")
    drawn = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
    with open(sys.argv[2], "w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in judge(drawn))
