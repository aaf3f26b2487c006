"""Question fluency on the databases the wording was developed on (issue 22 items 1 and 3).

For each database (the demo, Northwind, Spider company-employee and five benchmark corpora; not
calderbrook_sinfonia, which is held out), the default pipeline is run as a user runs it
(`ragdx templates sql`, `ragdx templates text` in all six styles with 3 phrasings, `ragdx gen`),
and a seeded sample of 40 questions per style is drawn. Two counts are mechanical, checked on the
SQLite file with PRAGMA, not with ragdx's own naming:

- code answers: the answered column is the single integer primary key of its table, a column named
  ...id/key/uuid/guid, or a text primary key of a table that has another unique name/title column
  (an office's 'K-01', a course's 'HUM-101');
- key-column relation nouns: the question contains the readable name of a foreign-key column that
  carries a key word ("sales rep employee number", "home hub id", "office code").

Fluency labels are a person's: ``--labels FILE`` summarises a labelled sample (one JSON object a
line with condition, db, style, query and label in fluent / telegraphic / bad).

    .venv/bin/python benchmarks/question_fluency_dev.py --out /tmp/fluency --sample sample.jsonl
    .venv/bin/python benchmarks/question_fluency_dev.py --labels benchmarks/results/question_fluency_dev_sample.jsonl
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

STYLES = ("short", "long", "interrogative", "directive", "formal", "casual")
CORPORA = ROOT / "benchmarks" / "corpora"
DATABASES = {
    "northwind": ROOT.parent / "shared" / "data" / "northwind" / "northwind.sqlite",
    "company": ROOT.parent / "shared" / "data" / "spider-company-employee" / "company_employee.sqlite",
    "kestrel": CORPORA / "kestrel" / "kestrel.sqlite",
    "wexcombe": CORPORA / "wexcombe_press" / "wexcombe.sqlite",
    "hebrant": CORPORA / "hebrant_ferries" / "hebrant_ferries.sqlite",
    "brackwater": CORPORA / "brackwater_foodbank" / "brackwater.sqlite",
    "fernleigh": CORPORA / "fernleigh_physio" / "fernleigh.sqlite",
}
KEY_WORDS = {"id", "number", "no", "nr", "num", "key", "code", "ref"}
_SELECT = re.compile(r'^SELECT\s+(.*?)\s+FROM\s+"?(\w+)"?', re.S)


def generate(name: str, db: Path, out: Path) -> Path:
    """The default pipeline, as a user runs it; returns the dataset's records.jsonl."""
    d = out / name
    d.mkdir(parents=True, exist_ok=True)
    url = f"sqlite:///{db}"
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    styles = [a for s in STYLES for a in ("--style", s)]
    for args in (["templates", "sql", "--db", url, "-o", str(d / "sql.yaml")],
                 ["templates", "text", "--db", url, "--sql", str(d / "sql.yaml"), "-o", str(d / "text.yaml"),
                  *styles, "--n", "3"],
                 ["gen", "--db", url, "--sql", str(d / "sql.yaml"), "--text", str(d / "text.yaml"), "-o",
                  str(d / "dataset"), "--overwrite"]):
        subprocess.run([sys.executable, "-m", "ragdx.cli", *args], check=True, capture_output=True, env=env)
    return d / "dataset" / "records.jsonl"


def sample(name: str, records: Path, per_style: int = 40) -> list[dict]:
    recs = [json.loads(line) for line in records.open(encoding="utf-8")]
    rows = []
    for style in STYLES:
        pool = [r for r in recs if r["style"] == style]
        for r in random.Random(f"{name}:{style}:0").sample(pool, min(per_style, len(pool))):
            rows.append({"db": name, "style": style, "query": r["query"], "answer": r["answer_text"],
                         "answer_columns": r["answer_columns"], "sql": r["sql"]})
    return rows


def _schema_facts(db: Path) -> tuple[set[str], set[tuple[str, str]]]:
    """(readable key-column phrases, code columns) of a SQLite file, from PRAGMA alone."""
    from ragdx.gen.naming import readable_name

    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    phrases, codes = set(), set()
    for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        info = con.execute(f'PRAGMA table_info("{t}")').fetchall()
        unique = set()
        for idx in con.execute(f'PRAGMA index_list("{t}")').fetchall():
            cols = [r[2] for r in con.execute(f'PRAGMA index_info("{idx[1]}")')]
            if idx[2] and len(cols) == 1:
                unique.add(cols[0])
        pk = [r for r in info if r[5]]
        if len(pk) == 1:
            col = pk[0][1]
            if "INT" in (pk[0][2] or "").upper() or any(
                    re.search(r"(name|title)$", u, re.I) for u in unique if u != col):
                codes.add((t.lower(), col.lower()))
        for r in info:
            words = readable_name(r[1]).lower().split()
            if words and words[-1] in ("id", "key", "uuid", "guid"):
                codes.add((t.lower(), r[1].lower()))
        for fk in con.execute(f'PRAGMA foreign_key_list("{t}")'):
            words = readable_name(fk[3]).lower().split()
            if len(words) > 1 and set(words) & KEY_WORDS:
                phrases.add(" ".join(words))
    con.close()
    return phrases, codes


def _answered(sql: str) -> list[tuple[str, str]]:
    m = _SELECT.match(sql)
    out = []
    for part in m.group(1).split(","):
        bits = [b.strip().strip('"') for b in part.strip().split(".")]
        table = bits[0] if len(bits) == 2 else m.group(2)
        alias = re.search(rf'JOIN\s+"?(\w+)"?\s+AS\s+"?{re.escape(table)}"?', sql)  # AS "HubClinic"
        out.append(((alias.group(1) if alias else table).lower(), bits[-1].lower()))
    return out


def mechanical(rows: list[dict], dbs: dict[str, Path]) -> dict[str, collections.Counter]:
    facts = {name: _schema_facts(path) for name, path in dbs.items()}
    out: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for r in rows:
        phrases, codes = facts[r["db"]]
        c = out[r["db"]]
        c["n"] += 1
        c["code answers"] += any(col in codes for col in _answered(r["sql"]))
        c["key-column nouns"] += any(p in r["query"].lower() for p in phrases)
    return out


def summarise_labels(path: Path) -> str:
    rows = [json.loads(line) for line in path.open(encoding="utf-8")]
    lines = ["| condition | style | n | fluent | telegraphic | bad |", "|---|---|---:|---:|---:|---:|"]
    for cond in sorted({r["condition"] for r in rows}, key=lambda c: c != "before"):
        for style in (*STYLES, "all"):
            c = collections.Counter(r["label"] for r in rows
                                    if r["condition"] == cond and style in ("all", r["style"]))
            n = sum(c.values())
            lines.append(f"| {cond} | {style} | {n} | {c['fluent']} ({100 * c['fluent'] / n:.0f} %) | "
                         f"{c['telegraphic']} | {c['bad']} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, help="work folder for the generated datasets")
    ap.add_argument("--sample", type=Path, help="write the seeded sample (JSONL) here")
    ap.add_argument("--labels", type=Path, help="summarise a labelled sample instead")
    args = ap.parse_args()
    if args.labels:
        print(summarise_labels(args.labels))
        return
    if args.out is None:
        ap.error("--out is needed to generate")
    from benchmarks.machine import cpu_model
    from ragdx.demo.database import build_demo_database

    dbs = {"demo": build_demo_database(args.out / "demo.sqlite", overwrite=True)}
    dbs |= {k: v for k, v in DATABASES.items() if v.exists()}
    rows = [r for name, db in dbs.items() for r in sample(name, generate(name, db, args.out))]
    if args.sample:
        with args.sample.open("w", encoding="utf-8") as f:
            f.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    counts = mechanical(rows, dbs)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT)
    print(f"commit {commit.stdout.strip()}, {cpu_model()}; 40 questions per style per database (seeded)")
    print("| database | questions | code answers | key-column relation nouns |\n|---|---:|---:|---:|")
    total: collections.Counter = collections.Counter()
    for name, c in counts.items():
        total.update(c)
        print(f"| {name} | {c['n']} | {c['code answers']} | {c['key-column nouns']} |")
    print(f"| all | {total['n']} | {total['code answers']} | {total['key-column nouns']} |")


if __name__ == "__main__":
    main()
