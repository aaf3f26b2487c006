"""How the judge (helper 93) wrote the labels and notes of sample.jsonl, kept for the record.

    python labels.py DRAWN_SAMPLE.jsonl JUDGED_SAMPLE.jsonl

Every one of the 200 drawn questions was read with its answer before this file was written. The faults found
all repeat by template (the same naming pattern), so their notes are attached by the patterns below and the same
fault always gets the same note; the one bad question is listed by id with its reason; a question with no fault
is fluent. The decisions are the judge's, by RULE.md; the patterns only write them down.
"""

# ruff: noqa: E501  (the notes are data, kept on one line each)
from __future__ import annotations

import json
import re
import sys

# bad: decided one by one (RULE.md, "bad")
BAD_IDS = {
    "g614c823f62ba-t4e3bc7774a": "misleading: 'Number of milliseconds of 'Iron Maiden, Live At Donington 1992 (Disc 2)'?' glues the track 'Iron Maiden' and its album into one quoted string without saying it is a track; the string reads as the artist Iron Maiden and the album 'Live At Donington 1992 (Disc 2)', so a careful reader gives the album's length, not the track's 494602 ms",
}
# telegraphic: understandable, not how a person writes (RULE.md, "telegraphic"); every matching note is kept
TEL_QUERY = [
    (
        r"\bchinook (?:album|track|customer|employee)\b",
        "Django table name as a noun: 'the chinook album/track/customer/employee' (the app label 'chinook' of the table name chinook_<model>); a person writes 'the album', 'the customer' or just the name",
    ),
    (
        r"(?i)\bbilling(?:address|city|state|country|postalcode)\b",
        "run-together raw column name ('billingcity', 'billingaddress', 'billingpostalcode', 'billingstate', 'billingcountry'); a person writes 'the billing city' or 'where was the invoice billed'",
    ),
    (
        r" on \d{4}-\d\d-\d\d 00:00:00\b",
        "an invoice named as '<customer> on 2007-09-06 00:00:00': the word 'invoice' is missing and the date carries a midnight clock time; a person writes 'Kara Nielsen's invoice of 6 September 2007'",
    ),
    (
        r"(?i)\bthe total that is stated\b|\btotal of '",
        "'the total of <customer> on <date>': the thing totalled (the invoice) is not named; a reader still guesses the invoice total",
    ),
    (
        r"(?i)\b(?:unit price|composer|bytes|milliseconds)\b",
        "a track named as one quoted string '<track>, <album>' (the track's name and its album's title glued with a comma, e.g. 'Ricochet, King For A Day Fool For A Lifetime'): understandable, but a person writes 'Ricochet' from 'King For A Day Fool For A Lifetime' (and the short style never says it is a track)",
    ),
    (
        r"(?i)\bnumber of milliseconds\b|\bhow many milliseconds does\b|\bhow many bytes does\b|\bnumber of bytes of\b",
        "stiff measure wording ('the number of milliseconds of', 'how many milliseconds does X have', 'how many bytes does X have'); a person asks 'how long is X (in ms)' or 'what is the file size of X'",
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
