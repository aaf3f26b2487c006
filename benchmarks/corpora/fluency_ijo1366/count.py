"""Mechanical counts over a whole ragdx dataset on the iJO1366 metabolic model (issue 22's blind check).

    python count.py DATASET_DIR/records.jsonl [--db ijo1366.db] [--json out.json]

Counts, per style and in all, records whose answer is a key column or an id (read from the SELECT list of the
record's own SQL through its answer_columns, resolved to table.column with sqlglot), records whose question names
a row by an id (its placeholders), and questions that use a key-column name as a relation noun, a raw column
spelling or a link-table name. With --db, questions whose only name for a metabolite or a reaction is a name
several rows share are counted too. The column classes are this database's facts, written from its schema and
RULE.md before any question was generated (adapted from ../fluency_chinook/count.py).
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

# key columns: each holds the id of another row (a gene's id is its only name: reported apart)
FOREIGN_KEYS = {
    ("metabolites", "compartment"),
    ("reaction_metabolites", "reaction_id"),
    ("reaction_metabolites", "metabolite_id"),
    ("reaction_genes", "reaction_id"),
}
GENE_KEYS = {("reaction_genes", "gene_id"), ("genes", "id")}
ID_COLUMNS = {"id", "compartment", "reaction_id", "metabolite_id", "gene_id"}
# names that several rows can share (checked against the database with --db)
SHARED_NAME = {("metabolites", "name"): "metabolites", ("reactions", "name"): "reactions"}

# relation nouns built from key-column names (the target)
KEY_NOUN = re.compile(r"\b(?:reaction|metabolite|gene|compartment)[ _]?ids?\b", re.I)
# raw column spellings and link-table names a person would not type (reported, not in the target)
RAW_WORDS = {
    "snake_case (lower_bound, gene_reaction_rule, ...)": re.compile(r"\b[a-z][a-z0-9]*_[a-z][a-z0-9_]*\b"),
    "link-table name as a noun (reaction metabolite(s), reaction gene(s))": re.compile(
        r"\breaction[ _](?:metabolites?|genes?)\b", re.I
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


def shared_names(db: Path | None) -> dict[tuple[str, str], set[str]]:
    """(table, column) -> the values that more than one of its rows carries (empty without a database)."""
    if db is None:
        return {}
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return {
            col: {v for (v,) in con.execute(f'SELECT "{col[1]}" FROM "{col[0]}" GROUP BY 1 HAVING count(*) > 1')}
            for col in SHARED_NAME
        }
    finally:
        con.close()


def answer_classes(rec: dict) -> set[str]:
    """Which classes the answer is made of, read through the record's answer_columns."""
    own_table = rec.get("table") or ""
    cols = projection(rec["sql"], own_table)
    classes = set()
    for name in rec.get("answer_columns") or []:
        col = cols.get(name)
        if col is None:
            continue
        if col in GENE_KEYS:
            classes.add("gene id")
        elif col in FOREIGN_KEYS:
            classes.add("key column")
        elif col[1] == "id":
            classes.add("own id" if col[0] == own_table else "id of another row")
    if len(str(rec.get("answer_text", ""))) > 100:
        classes.add("long")
    return classes


def params_of(rec: dict) -> dict:
    p = rec.get("params") or {}
    return p if isinstance(p, dict) else {k: None for k in p}


def naming(rec: dict, shared: dict[tuple[str, str], set[str]]) -> tuple[set[str], bool]:
    """(the id columns that name a row in the question, the question's only name is a shared name)."""
    keys: set[str] = set()
    shared_hit = False
    params = params_of(rec)
    for key, value in params.items():
        col = tuple(key.split(".", 1))
        if len(col) == 2 and col[1] in ID_COLUMNS:
            keys.add(".".join(col))
        if col in SHARED_NAME and value in shared.get(col, set()) and len(params) == 1:
            shared_hit = True
    return keys, shared_hit


def _hits(rec: dict, shared: dict[tuple[str, str], set[str]]) -> dict[str, bool]:
    q = rec["query"]
    shown = answer_classes(rec)
    keys, shared_hit = naming(rec, shared)
    hits = {
        "records": True,
        "answer: key column (compartment, *_id)": "key column" in shown,
        "answer: id of another table's row": "id of another row" in shown,
        "answer: code or surrogate (target)": bool({"key column", "id of another row"} & shown),
        "answer: the row's own id (beside the target)": "own id" in shown,
        "answer: a gene's b-number (beside the target)": "gene id" in shown,
        "answer: over 100 characters": "long" in shown,
        "question names a row by an id": bool(keys),
        "question names a row only by a name several rows share": shared_hit,
        "relation noun from a key column (target)": bool(KEY_NOUN.search(q)),
    }
    for key in sorted(keys):
        hits[f"question names a row by {key}"] = True
    for word, rx in RAW_WORDS.items():
        hits[word] = bool(rx.search(q))
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
