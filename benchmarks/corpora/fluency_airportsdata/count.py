"""Mechanical counts over a whole ragdx dataset on the airportsdata + ISO 3166 database (issue 22's blind check).

    python count.py DATASET_DIR/records.jsonl [--db airportsdata.db] [--json out.json]

Counts, per style and in all, records whose answer is a code of a related row (read from the SELECT list of the
record's own SQL, resolved to table.column with sqlglot), records whose question names a row by a code (its
placeholders), and questions that use a key-column name as a relation noun, a raw column spelling or a table
name. With --db, questions whose only name for an airport or a subdivision is a name several rows share are
counted too. The column classes are this database's facts, written from its schema and RULE.md before any
question was generated.
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import sys
from collections import Counter, defaultdict
from pathlib import Path

import sqlglot
from sqlglot import exp

LINK = "multi_airport_city_airports"
# foreign-key columns: each holds the code of another row that has a name
FOREIGN_CODE = {
    ("airports", "country"),
    ("subdivisions", "country_code"),
    ("subdivisions", "parent_code"),
    ("multi_airport_cities", "country"),
    (LINK, "city_code"),
}
# an airport's IATA code reached through the link table: airport codes are how travellers name airports
LINK_AIRPORT = {(LINK, "airport_code")}
# a row's own codes: a legitimate answer when asked for as such on that row, a code answer on another table's row
OWN_CODE = {
    ("countries", "alpha_2"),
    ("countries", "alpha_3"),
    ("countries", "numeric"),
    ("subdivisions", "code"),
    ("airports", "icao"),
    ("airports", "lid"),
    ("multi_airport_cities", "city_code"),
}
IATA = {("airports", "iata")}
CODE_COLUMNS = FOREIGN_CODE | LINK_AIRPORT | OWN_CODE | IATA
# names that several rows can share (checked against the database with --db)
SHARED_NAME = {("airports", "name"): "airports", ("subdivisions", "name"): "subdivisions"}

# relation nouns built from key-column names (the target)
FK_WORDS = re.compile(r"\b(?:country|parent) codes?\b", re.I)
LINK_WORDS = re.compile(r"\b(?:city|airport) codes?\b", re.I)
# Added after the questions were generated and read (README of the result says so): the relation from a
# subdivision to its country named after the key column it points at ("the countries of the alpha 2 'Nwoya'")
# and from an airport to its multi-airport city after the column the link table points at ("the multi airport
# city of the IATA of the airport ..."): relation nouns built from key-column names that the committed
# patterns above did not foresee; the plural "countries" for the one country of a subdivision; "lid" alone.
REFERENCED_KEY_WORDS = re.compile(r"\balpha 2 '|\bof the IATA of\b")
PLURAL_COUNTRIES = re.compile(r"\bcountries of\b", re.I)
LID_WORD = re.compile(r"\blids?\b", re.I)
# raw column spellings and table names a person would not type (reported, not in the target)
RAW_WORDS = {
    "camelCase / snake_case": re.compile(r"\b[a-z]+[A-Z]\w*\b|\b[a-z0-9]+_[a-z0-9_]+\b"),
    "raw column word (subd, lid, tz, lat, lon)": re.compile(r"\b(?:subds?|lids?|tz|lat|lon)\b"),
    "lower-case acronym (iata, icao)": re.compile(r"\b(?:iata|icao)\b"),
    "alpha 2/3 or numeric as a noun": re.compile(
        r"\balpha[ _-]?[23]\b(?! codes?\b)|\b(?:the|its|a) numeric\b(?! codes?\b)", re.I
    ),
    "table name as a noun (link table, multi_airport_cities)": re.compile(
        r"\bmulti[ _-]?airport[ _-]?city[ _-]?airports?\b|\bmulti[ _-]?airport[ _-]?cities\b", re.I
    ),
}


def projection(sql: str, default_table: str) -> dict[str, tuple[str, str] | None]:
    """Output name -> the table.column a SELECT expression returns as is (None for COUNT/SUM/AVG or
    any other expression)."""
    tree = sqlglot.parse_one(sql, read="sqlite")
    select = tree if isinstance(tree, exp.Select) else tree.find(exp.Select)
    aliases = {t.alias_or_name: t.name for t in tree.find_all(exp.Table)}
    out: dict[str, tuple[str, str] | None] = {}
    for proj in select.expressions:
        col = proj.unalias() if isinstance(proj, exp.Alias) else proj
        target = None
        if isinstance(col, exp.Column):
            target = (aliases.get(col.table, col.table) if col.table else default_table, col.name)
        out.setdefault(proj.alias_or_name, target)
    return out


def tables_read(sql: str) -> set[str]:
    return {t.name for t in sqlglot.parse_one(sql, read="sqlite").find_all(exp.Table)}


def shared_names(db: Path | None) -> dict[str, set[str]]:
    """Table -> the names that more than one of its rows carries (empty without a database)."""
    if db is None:
        return {}
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return {
            table: {n for (n,) in con.execute(f"SELECT name FROM {table} GROUP BY name HAVING count(*) > 1")}
            for table in ("airports", "subdivisions")
        }
    finally:
        con.close()


def answer_classes(rec: dict) -> set[str]:
    """Which classes the answer is made of, read through the record's answer_columns."""
    own_table = rec.get("table")
    cols = projection(rec["sql"], own_table)
    classes = set()
    for name in rec.get("answer_columns") or []:
        col = cols.get(name)
        if col in FOREIGN_CODE:
            classes.add("foreign code")
        elif col in OWN_CODE:
            classes.add("own code" if col[0] == own_table else "code of another row")
        elif col in LINK_AIRPORT or col in IATA:
            classes.add("iata")
    if len(str(rec.get("answer_text", ""))) > 100:
        classes.add("long")
    return classes


def params_of(rec: dict) -> dict:
    p = rec.get("params") or {}
    return p if isinstance(p, dict) else {k: None for k in p}


def naming(rec: dict, shared: dict[str, set[str]]) -> tuple[set[str], bool]:
    """(the code columns that name a row in the question, the question's only name is a shared name)."""
    codes: set[str] = set()
    shared_hit = False
    params = params_of(rec)
    for key, value in params.items():
        col = tuple(key.split(".", 1))
        if col in CODE_COLUMNS:
            codes.add(".".join(col))
        table = SHARED_NAME.get(col)
        if table and value in shared.get(table, set()) and len(params) == 1:
            shared_hit = True
    return codes, shared_hit


def _hits(rec: dict, shared: dict[str, set[str]]) -> dict[str, bool]:
    q = rec["query"]
    shown = answer_classes(rec)
    reads = tables_read(rec["sql"])
    codes, shared_hit = naming(rec, shared)
    hits = {
        "records": True,
        "answer: foreign-key code of a related row": "foreign code" in shown,
        "answer: own-code column of another table's row": "code of another row" in shown,
        "answer: code of a related row (target)": bool({"foreign code", "code of another row"} & shown),
        "answer: the row's own code asked as such": "own code" in shown,
        "answer: an airport's IATA code": "iata" in shown,
        "answer: over 100 characters": "long" in shown,
        "question names a row by a code": bool(codes),
        "question names a row only by a name several rows share": shared_hit,
        "relation noun: country code / parent code": bool(FK_WORDS.search(q)),
        "relation noun: city code / airport code on the link table": bool(LINK_WORDS.search(q)) and LINK in reads,
    }
    for code in sorted(codes):
        hits[f"question names a row by {code}"] = True
    for word, rx in RAW_WORDS.items():
        hits[word] = bool(rx.search(q))
    hits["relation noun from a key column (target)"] = (
        hits["relation noun: country code / parent code"]
        or hits["relation noun: city code / airport code on the link table"]
    )
    post = "(added after generation) "
    hits[post + "relation noun from a referenced key column (alpha 2, IATA)"] = bool(REFERENCED_KEY_WORDS.search(q))
    hits[post + "relation noun from a key column, committed or added (target)"] = hits[
        "relation noun from a key column (target)"
    ] or bool(REFERENCED_KEY_WORDS.search(q))
    hits[post + "plural 'countries of' (one country)"] = bool(PLURAL_COUNTRIES.search(q))
    hits[post + "'lid' as a word"] = bool(LID_WORD.search(q))
    return hits


def count(records_path: Path, db: Path | None = None) -> dict:
    shared = shared_names(db)
    per: dict[str, Counter] = defaultdict(Counter)
    examples: dict[str, list[str]] = defaultdict(list)
    with records_path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            try:
                rec = json.loads(line)
                hits = _hits(rec, shared)
            except (json.JSONDecodeError, KeyError, sqlglot.errors.ParseError) as exc:
                sys.exit(f"{records_path}:{n}: cannot read the record's sql ({exc})")
            for key, hit in hits.items():
                if hit:
                    for bucket in (rec["style"], "all"):
                        per[bucket][key] += 1
                    if key != "records" and len(examples[key]) < 3:
                        examples[key].append(f"{rec['query']}  -> {rec['answer_text']}")
    return {"counts": {k: dict(v) for k, v in per.items()}, "examples": dict(examples)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("records", type=Path)
    ap.add_argument("--db", type=Path)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    result = count(args.records, args.db)
    counts = result["counts"]
    buckets = sorted(b for b in counts if b != "all") + ["all"]
    keys = sorted({k for c in counts.values() for k in c}, key=lambda k: (k != "records", k))
    print("| count | " + " | ".join(buckets) + " |")
    print("|---|" + "---:|" * len(buckets))
    for k in keys:
        print(f"| {k} | " + " | ".join(f"{counts[b].get(k, 0):,}" for b in buckets) + " |")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
