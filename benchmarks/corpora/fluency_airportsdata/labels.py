"""How the judge (helper 84) wrote the labels and notes of sample.jsonl, kept for the record.

    python labels.py DRAWN_SAMPLE.jsonl JUDGED_SAMPLE.jsonl

Every one of the 200 drawn questions was read with its answer before this file was written. The faults found
all repeat by template (the same naming pattern) or by value (the source's comma forms of names), so their notes
are attached by the patterns below and the same fault always gets the same note; a question with no such fault
is fluent. The decisions are the judge's, by RULE.md; the patterns only write them down.
"""

# ruff: noqa: E501  (the notes are data, kept on one line each)
from __future__ import annotations

import json
import re
import sys

# bad: a fault in the question's wording that hides or changes what is asked (RULE.md, "bad")
BAD_QUERY = [
    (
        r"\balpha 2 '",
        "relation noun from a key column: a subdivision's country asked as 'the countries of the alpha 2 'Nwoya'' — the relation is named after the key column it points at (countries.alpha_2), so the question calls a subdivision's name an alpha-2 code and hides what is asked; a person writes 'which country is Nwoya in' (and 'countries' is plural for the one country)",
    ),
    (
        r"of the IATA of the airport",
        "relation noun from a key column: the airport's multi-airport city asked as 'the multi airport city of the IATA of the airport with ICAO code 'KIAD'' — the relation is named after the key column the link table points at (airports.iata); a person writes 'which city's airports include Dulles (KIAD)'; 'city name' and 'multi airport city' are the raw column and table names",
    ),
    (
        r"\blid\b",
        "'the lid of …' for the FAA location identifier: the lower-case column word reads as the English word 'lid' and hides the meaning (RULE.md lists it as bad); a pilot writes 'the FAA identifier' or 'LID'",
    ),
]
# telegraphic: understandable, not how a person writes (RULE.md, "telegraphic")
TEL_QUERY = [
    (
        r"(?i)\bsubd\b",
        "'subd' (the raw column name) for the state or province; a person writes 'which state/province is X in'",
    ),
    (
        r"(?i)\bnumeric\b(?! code)",
        "'the numeric of' (the raw column name as a noun) for the ISO numeric code; a person writes 'the numeric code'",
    ),
    (
        r"(?i)\balpha 3\b(?! code)",
        "'the alpha 3 of' (the raw column name) for the ISO alpha-3 code; a person writes 'the alpha-3 code' or 'the three-letter code'",
    ),
    (
        r"multi airport city with city name '",
        "record-speak 'the multi airport city with city name 'Kyiv'' (the table's and the column's names); a traveller writes 'Kyiv' or 'the Kyiv area'",
    ),
    (
        r"the airport with ICAO code '[^']*' and the multi airport city",
        "asks a row of the link table: 'the airport name (recorded) for the airport with ICAO code 'LIRF' and the multi airport city with city name 'Rome'' is record-speak for IATA's short name of that airport; a person writes 'what is LIRF called?'",
    ),
    (
        r"(?i)\bparent\b",
        "bare 'parent' for the subdivision a subdivision belongs to; a person writes 'which region is X part of'",
    ),
    (
        r"\b[Cc]ountries of '",
        "plural 'countries' for the one country of a subdivision, which is named only by its quoted name ('the countries of 'Kladno''); not misleading (one country is the only answer), but a person writes 'which country is Kladno in'",
    ),
    (
        r", [A-Z][^,?]*? of(?: the)?'(?=[?.,;\s]|$)|, Province of China'|, U\.S\.'|, British'|, Région'|, Comunidad'",
        "a name in ISO's comma form inside the question ('Palestine, State of', 'Venezuela, Bolivarian Republic of', 'Taiwan, Province of China', 'Virgin Islands, U.S.', 'wallonne, Région'); a person writes Palestine, Venezuela, Taiwan, the US Virgin Islands, Wallonia",
    ),
]
# telegraphic features of an answer
TEL_ANSWER = [
    (
        r", [A-Z][^,]*? of(?: the)?$|, Province of China$|, U\.S\.$|, British$|, Comunidad$|, Région$",
        "the answer is a name in ISO's comma form ('Korea, Republic of', 'Taiwan, Province of China', 'Valenciana, Comunidad'); a person writes South Korea, Taiwan, the Valencian Community",
    ),
]
# notes that do not change a label
INFO = [
    (
        r"'St Lucia'",
        r"^(?:Sierra Leone|694|SLE|🇸🇱|Republic of Sierra Leone)$",
        "the source's multi-airport file gives St Lucia the country code SL (Sierra Leone); the answer is the database's",
    ),
]


def judge(rows: list[dict]) -> list[dict]:
    out = []
    for r in rows:
        q, a = r["query"], str(r["answer"])
        bad = [n for rx, n in BAD_QUERY if re.search(rx, q, re.I)]
        notes = [n for rx, n in TEL_QUERY if re.search(rx, q)]
        notes += [n for rx, n in TEL_ANSWER if re.search(rx, a)]
        info = [n for qrx, arx, n in INFO if re.search(qrx, q) and re.search(arx, a)]
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
