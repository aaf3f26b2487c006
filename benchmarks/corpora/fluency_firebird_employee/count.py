"""Mechanical counts over a whole ragdx dataset built from Firebird's EMPLOYEE sample (issue 22's done-when).

    python count.py DATASET_DIR/records.jsonl [--json out.json]

Counts, per style and in all, records whose answer is a code or a surrogate number (read from the
SELECT list of the record's own SQL, resolved to table.column with sqlglot), records that name a
row by such a number in the question, and questions that use a key-column word as a noun.
The column classes are this database's facts, written before any dataset was looked at (RULE.md).
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

# what each key-ish column of the EMPLOYEE database is, to a person. Every one of these points at a
# row that has a name a person would use instead (employee, customer, department, project, job title).
SURROGATE = {  # numbers the company assigned: employee and customer numbers
    ("employee", "emp_no"),
    ("employee_project", "emp_no"),
    ("salary_history", "emp_no"),
    ("sales", "sales_rep"),
    ("project", "team_leader"),
    ("department", "mngr_no"),
    ("customer", "cust_no"),
    ("sales", "cust_no"),
}
CODE_OF_NAMED_ROW = {  # short codes: department numbers, project ids, job codes
    ("department", "dept_no"),
    ("department", "head_dept"),
    ("employee", "dept_no"),
    ("proj_dept_budget", "dept_no"),
    ("project", "proj_id"),
    ("employee_project", "proj_id"),
    ("proj_dept_budget", "proj_id"),
    ("job", "job_code"),
    ("employee", "job_code"),
}
NATURAL_ID = {("sales", "po_number"), ("salary_history", "updater_id")}  # how people name an order, a user

# key-column words used as nouns in a question (relation or thing named after a key column)
KEY_WORDS = {
    "id": re.compile(r"\bids?\b", re.I),
    "emp no": re.compile(r"\bemp(loyee)?[ _]?(no|num|number)s?\b", re.I),
    "cust no": re.compile(r"\bcust(omer)?[ _]?(no|num|number)s?\b", re.I),
    "dept no": re.compile(r"\bdep(t|artment)[ _]?(no|num|number)s?\b", re.I),
    "proj id": re.compile(r"\bproj(ect)?[ _]?ids?\b", re.I),
    "job code": re.compile(r"\bjob[ _]codes?\b", re.I),
    "mngr no": re.compile(r"\bmngr[ _]?(no|num|number)?s?\b", re.I),
    "head dept": re.compile(r"\bhead[ _]dept\b", re.I),
    "updater id": re.compile(r"\bupdater[ _]ids?\b", re.I),
}
# the two uses of those words issue 22 names: a relation noun ("the mngr no of Finance") and a naming
# label ("the employee with emp no 2"); reported beside the words above
RELATION_WORDS = {
    "relation noun: <key> of": re.compile(
        r"\b(emp[ _]no|cust[ _]no|dept[ _]no|proj[ _]id|job[ _]code|mngr[ _]no|mngr|head[ _]dept|updater[ _]id|"
        r"employee number|customer number|department number|project id)s? (of|for)\b",
        re.I,
    ),
    "naming label: with <key>": re.compile(
        r"\bwith (emp[ _]no|cust[ _]no|dept[ _]no|proj[ _]id|job[ _]code|employee number|customer number|"
        r"department number|project id|id)\b",
        re.I,
    ),
}
# not key columns, but the raw column spelling a person would not type (reported, not in the target)
RAW_WORDS = {
    "snake_case": re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b"),
    "abbreviation": re.compile(r"\b(emp|dept|mngr|proj|cust|qty|ext|no)\b", re.I),
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


def shown_classes(rec: dict) -> set[str]:
    """Which key classes the answer is made of, read through the record's answer_columns (the columns
    of answer_rows, so an extreme that selects an airport's code and name but answers the name is no
    code answer)."""
    cols = projection(rec["sql"], rec["table"])
    classes = set()
    for name in rec["answer_columns"]:
        col = cols.get(name)
        for label, members in (("surrogate", SURROGATE), ("code", CODE_OF_NAMED_ROW), ("natural", NATURAL_ID)):
            if col in members:
                classes.add(label)
    return classes


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
            hits = {
                "records": True,
                "answer: surrogate id": "surrogate" in shown,
                "answer: code of a named row": "code" in shown,
                "answer: PO number/updater login": "natural" in shown,
                "question names a row by a number or code": any(
                    tuple(k.split(".", 1)) in SURROGATE | CODE_OF_NAMED_ROW for k in rec.get("params", {})
                ),
            }
            for word, rx in {**KEY_WORDS, **RAW_WORDS}.items():
                hits[f"question word: {word}"] = bool(rx.search(rec["query"]))
            for word, rx in RELATION_WORDS.items():
                hits[word] = bool(rx.search(rec["query"]))
            hits["question: any key-column noun"] = any(rx.search(rec["query"]) for rx in KEY_WORDS.values())
            for key, hit in hits.items():
                for bucket in (rec["style"], "all"):
                    per[bucket][key] += int(hit)  # zeros kept: a target count of 0 is printed, not left out
                if hit:
                    if key != "records" and len(examples[key]) < 3:
                        examples[key].append(f"{rec['query']}  -> {rec['answer_text']}")
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
