"""Mechanical counts over a whole ragdx dataset on the Chinook music-shop database (issue 22's blind check).

    python count.py DATASET_DIR/records.jsonl [--db chinook.db] [--json out.json]

Counts, per style and in all, records whose answer is a surrogate or key column (read from the SELECT list of the
record's own SQL through its answer_columns, resolved to table.column with sqlglot), records whose question names
a row by a surrogate key (its placeholders), and questions that use a key-column name as a relation noun, a raw
column spelling or a Django table name. With --db, questions whose only name for a track, a playlist or a customer
is a name several rows share are counted too. The column classes are this database's facts, written from its
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

P = "chinook_"
# key columns: each holds the integer id of another row that has a name
FOREIGN_KEYS = {
    (P + "album", "artist_id"),
    (P + "track", "album_id"),
    (P + "track", "mediatype_id"),
    (P + "track", "genre_id"),
    (P + "playlisttrack", "playlist_id"),
    (P + "playlisttrack", "track_id"),
    (P + "employee", "reports_to_id"),
    (P + "customer", "support_rep_id"),
    (P + "invoice", "customer_id"),
    (P + "invoiceline", "invoice_id"),
    (P + "invoiceline", "track_id"),
}
INVOICE_NUMBER = (P + "invoice", "id")
# names that several rows can share (checked against the database with --db)
SHARED_NAME = {
    (P + "track", "name"): P + "track",
    (P + "playlist", "name"): P + "playlist",
    (P + "customer", "firstname"): P + "customer",
    (P + "customer", "lastname"): P + "customer",
}

# relation nouns built from key-column names (the target)
KEY_NOUN = re.compile(
    r"\b(?:artist|album|genre|media[ _]?type|support[ _]?rep|reports[ _]?to|customer|invoice|track|playlist)"
    r"[ _]?ids?\b",
    re.I,
)
REPORTS_TO_NOUN = re.compile(r"(?:\b(?:the|its|their|whose|a)|'s) reports[ _]to\b", re.I)
# raw column spellings and table names a person would not type (reported, not in the target)
RAW_WORDS = {
    "snake_case": re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b"),
    "CapWords column (InvoiceDate)": re.compile(r"\bInvoiceDate\b"),
    "run-together column word (firstname, postalcode, billing*, hiredate, mediatype, invoicedate)": re.compile(
        r"\b(?:firstname|lastname|postalcode|billing(?:address|city|state|country|postalcode)|hiredate"
        r"|mediatypes?|invoicedate)\b",
        re.I,
    ),
    "Django table name as a noun (chinook, invoiceline, playlisttrack)": re.compile(
        r"\bchinook\b|\binvoicelines?\b|\bplaylisttracks?\b", re.I
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
    if own_table and not own_table.startswith(P):
        own_table = P + own_table
    cols = projection(rec["sql"], own_table)
    classes = set()
    for name in rec.get("answer_columns") or []:
        col = cols.get(name)
        if col is None:
            continue
        if col in FOREIGN_KEYS or col[1].endswith("_id"):
            classes.add("key column")
        elif col == INVOICE_NUMBER:
            classes.add("invoice number")
        elif col[1] == "id":
            classes.add("own id" if col[0] == own_table else "id of another row")
    if len(str(rec.get("answer_text", ""))) > 100:
        classes.add("long")
    return classes


def params_of(rec: dict) -> dict:
    p = rec.get("params") or {}
    return p if isinstance(p, dict) else {k: None for k in p}


def naming(rec: dict, shared: dict[tuple[str, str], set[str]]) -> tuple[set[str], bool]:
    """(the surrogate columns that name a row in the question, the question's only name is a shared name)."""
    keys: set[str] = set()
    shared_hit = False
    params = params_of(rec)
    for key, value in params.items():
        col = tuple(key.split(".", 1))
        if len(col) == 2 and (col[1] == "id" or col[1].endswith("_id")):
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
        "answer: key column (*_id)": "key column" in shown,
        "answer: id of another table's row": "id of another row" in shown,
        "answer: the row's own id (not an invoice)": "own id" in shown,
        "answer: code or surrogate (target)": bool({"key column", "id of another row", "own id"} & shown),
        "answer: an invoice's number (beside the target)": "invoice number" in shown,
        "answer: over 100 characters": "long" in shown,
        "question names a row by a surrogate key (not an invoice)": bool(keys - {".".join(INVOICE_NUMBER)}),
        "question names an invoice by its number": ".".join(INVOICE_NUMBER) in keys,
        "question names a row only by a name several rows share": shared_hit,
        "relation noun: '<key> id'": bool(KEY_NOUN.search(q)),
        "relation noun: 'reports to' as a noun": bool(REPORTS_TO_NOUN.search(q)),
    }
    for key in sorted(keys):
        hits[f"question names a row by {key}"] = True
    for word, rx in RAW_WORDS.items():
        hits[word] = bool(rx.search(q))
    hits["relation noun from a key column (target)"] = (
        hits["relation noun: '<key> id'"] or hits["relation noun: 'reports to' as a noun"]
    )
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
