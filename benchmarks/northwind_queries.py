"""Northwind through the README's commands: what a new user gets (issue 10).

Runs ``ragdx templates sql``, ``templates text`` (short + long, 3 each), ``kb render`` and
``gen --stats`` on a copy of ../shared/data/northwind/northwind.sqlite, with the defaults, then
prints the counts the issue asks about and a seeded sample of queries to judge by hand.

    .venv/bin/python benchmarks/northwind_queries.py [--sample 40] [--seed 10]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NORTHWIND = ROOT.parent / "shared" / "data" / "northwind" / "northwind.sqlite"


def ragdx(*args: str, cwd: Path) -> str:
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    r = subprocess.run([sys.executable, "-m", "ragdx.cli", *args], cwd=cwd, env=env, capture_output=True,
                       text=True)
    if r.returncode:
        sys.exit(f"ragdx {' '.join(args)} failed:\n{r.stderr}")
    return r.stdout


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", type=int, default=40)
    ap.add_argument("--seed", type=int, default=10)
    args = ap.parse_args()
    if not NORTHWIND.exists():
        sys.exit(f"Northwind not found at {NORTHWIND}")
    work = Path(tempfile.mkdtemp(prefix="ragdx-northwind-"))
    try:
        shutil.copy(NORTHWIND, work / "northwind.sqlite")
        url = "sqlite:///northwind.sqlite"
        started = time.perf_counter()
        ragdx("templates", "sql", "--db", url, "-o", "templates/sql.yaml", cwd=work)
        ragdx("templates", "text", "--db", url, "--sql", "templates/sql.yaml", "-o", "templates/text.yaml",
              "--style", "short", "--style", "long", "--n", "3", cwd=work)
        ragdx("kb", "render", "--db", url, "-o", "kb", cwd=work)
        out = ragdx("gen", "--db", url, "--sql", "templates/sql.yaml", "--text", "templates/text.yaml",
                    "--kb", "kb", "-o", "dataset", "--stats", cwd=work)
        seconds = time.perf_counter() - started
        records = [json.loads(line) for line in (work / "dataset" / "records.jsonl").read_text().splitlines()]
        docs = [json.loads(line) for line in (work / "kb" / "documents.jsonl").read_text().splitlines()]
    finally:
        shutil.rmtree(work, ignore_errors=True)

    def count(pred) -> int:
        return sum(1 for r in records if pred(r))

    hexlike = re.compile(r"[0-9a-f]{64,}")
    rows = [
        ("records", len(records)),
        ("semantic groups", len({r["group_id"] for r in records})),
        ("SQL templates", len({r["sql_template_id"] for r in records})),
        ("binary answers", count(lambda r: any(isinstance(v, str) and hexlike.fullmatch(v)
                                               for row in r["answer_rows"] for v in row))),
        ("'None' answers", count(lambda r: "None" in r["answer_text"])),
        ("id answers", count(lambda r: any(re.search(r"(?i)(id|key)$", c) for c in r["answer_columns"]))),
        ("'2s'-style wordings", count(lambda r: re.search(r"[A-Za-z]2s?\b", r["query"]))),
        ("queries naming an order by number", count(lambda r: re.search(r"\border 1\d{4}\b", r["query"]))),
        ("kb documents", len(docs)),
        ("largest document (chars)", max(len(d["text"]) for d in docs)),
        ("seconds, 4 commands", round(seconds, 1)),
    ]
    lint = re.search(r"template lint: .*", out)
    print("| measure | value |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")
    print(f"\n{lint.group(0) if lint else 'no lint line'}")
    cap = re.search(r"note: .*", out)
    print(cap.group(0) if cap else "no cap note")
    print(f"\n{args.sample} random queries (seed {args.seed}):\n")
    print("| # | style | query | answer |\n|---|---|---|---|")
    for i, r in enumerate(random.Random(args.seed).sample(records, args.sample), 1):
        query = r["query"].replace("|", "\\|").replace("\n", " ")
        answer = r["answer_text"].replace("|", "\\|").replace("\n", " ")[:60]
        print(f"| {i} | {r['style']} | {query} | {answer} |")


if __name__ == "__main__":
    main()
