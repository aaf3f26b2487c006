"""Mechanical counts over a whole ragdx dataset built from the mendeleev periodic-table database (issue 22's
done-when).

    python count.py DATASET_DIR/records.jsonl [--json out.json]

Counts, per style and in all, records whose answer is a code or surrogate (read from the SELECT list of
the record's own SQL, resolved to table.column with sqlglot), records whose question names a row by a
code (its placeholders), and questions that use a key-column word as a noun, a raw column spelling or a
table name. The column classes are this database's facts, written from its schema and RULE.md before any
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

CHILD_TABLES = (
    "isotopes",
    "isotopedecaymodes",
    "ionicradii",
    "ionizationenergies",
    "oxidationstates",
    "phasetransitions",
    "scattering_factors",
    "screeningconstants",
)
# internal row numbers: a surrogate wherever they are
SURROGATE = {("series", "id"), ("isotopedecaymodes", "isotope_id"), *((t, "id") for t in CHILD_TABLES)}
# a code standing for another row that has a name: an element's series by its number, an element by its
# atomic number in another table (elements.atomic_number counts here only when the record joins tables)
CODE_OF_NAMED_ROW = {("elements", "series_id"), *((t, "atomic_number") for t in CHILD_TABLES)}
# an element's own numbers and codes asked for as such (reported, not in the target)
OWN_CODE = {
    ("elements", c) for c in ("atomic_number", "symbol", "cas", "mendeleev_number", "pettifor_number", "glawe_number")
}
# a group's number or old-style symbol: how people name a group (reported, not in the target)
GROUP_NUMBER = {("elements", "group_id"), ("groups", "group_id"), ("groups", "symbol")}
# colour codes (#rrggbb) for drawing (reported, not in the target)
COLOUR = {("elements", "jmol_color"), ("elements", "cpk_color"), ("elements", "molcas_gv_color"), ("series", "color")}
# placeholders that name a row by a code
NAMING_CODE = SURROGATE | CODE_OF_NAMED_ROW

# key-column words used as nouns in a question
KEY_WORDS = {
    "series id": re.compile(r"\bseries ?ids?\b", re.I),
    "group id": re.compile(r"\bgroup ?ids?\b", re.I),
    "isotope id": re.compile(r"\bisotope ?ids?\b", re.I),
    "id (bare)": re.compile(r"\bids?\b(?<!series id)(?<!group id)(?<!isotope id)", re.I),
}
# a relation noun built from a key column: "the series id of iron", "the group id of gold"
RELATION_WORDS = {
    "relation noun: <key> id of": re.compile(r"\b(?:series|group|isotope) ?ids? (?:of|for)\b", re.I),
}
# raw column spellings and table names a person would not type (reported, not in the target)
RAW_WORDS = {
    "camelCase / snake_case": re.compile(r"\b[a-z]+[A-Z]\w*\b|\b[a-z0-9]+_[a-z0-9_]+\b"),
    "raw or split column name": re.compile(
        r"\ben ?(?:pauling|allen|ghosh|miedema|mullay|gunnarsson|robles)\b|\bvdw\b|\bc6(?: ?gb)?\b|\beconf\b"
        r"|\bg ?factor\b|\b(?:jmol|cpk|molcas ?gv) ?colou?r\b|\bisoelectonic\b|\bpyykko (?:double|triple)\b"
        r"|\bcovalent radius (?:cordero|pyykko|bragg)\b|\bmetallic radius c ?12\b|\bis (?:radioactive|monoisotopic"
        r"|semi empirical|theoretical|allowed not observed|observed intensity unknown|sublimation point|transition)"
        r"\b|\bmost reliable\b|\bhalf ?life unit\b|\bion charge\b|\bmass number uncertainty\b|\bunc\b",
        re.I,
    ),
    "table name as a noun": re.compile(
        r"\b(?:ionic ?radii|phase ?transitions?|screening ?constants?|isotope ?decay ?modes?|ionization ?energies"
        r"|oxidation ?states|scattering ?factors?)\b",
        re.I,
    ),
    "lower-case acronym (cas, vdw, en)": re.compile(r"\b(?:cas|vdw|en)\b"),
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
    answer_rows, so an extreme that selects an id and a name but answers the name is no code answer)."""
    cols = projection(rec["sql"], rec["table"])
    joined = len(tables_read(rec["sql"])) > 1
    classes = set()
    for name in rec["answer_columns"]:
        col = cols.get(name)
        if col == ("elements", "atomic_number") and joined:
            classes.add("code")  # a related element answered by its atomic number
            continue
        for label, members in (
            ("surrogate", SURROGATE),
            ("code", CODE_OF_NAMED_ROW),
            ("own", OWN_CODE),
            ("group", GROUP_NUMBER),
            ("colour", COLOUR),
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
                "answer: surrogate (internal id)": "surrogate" in shown,
                "answer: code of a named row": "code" in shown,
                "answer: the element's own number or code": "own" in shown,
                "answer: group number or symbol": "group" in shown,
                "answer: colour code": "colour" in shown,
                "question names a row by a code": named_by_code(rec),
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
