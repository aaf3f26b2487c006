"""The question kinds of issue 22 item 4 on the demo and Northwind, on every engine that answers:
groups per kind and the answers that differ from the truth worked out by hand
(tests/support/kind_truth.py: whole tables read with SELECT *, the answer computed in Python).

    .venv/bin/python benchmarks/question_kinds.py [--pg URL] [--mysql URL] [--time DB.sqlite] \
        > benchmarks/results/question_kinds.md

PostgreSQL and MariaDB get a scratch database each (created and dropped here); an engine that does
not answer is left out of the table and said so.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.machine import cpu_model  # noqa: E402
from ragdx.db import connect, inspect_schema  # noqa: E402
from ragdx.demo.database import build_demo_database  # noqa: E402
from ragdx.gen.kinds import kind_records, kind_templates  # noqa: E402
from tests.support.copy_sqlite import copy_sqlite  # noqa: E402
from tests.support.kind_truth import DEMO_LINKS, NORTHWIND_LINKS, Tables, check  # noqa: E402

KINDS = ("list", "count", "total", "extreme", "comparison", "time_range")
NORTHWIND = ROOT.parent / "shared" / "data" / "northwind" / "northwind.sqlite"


def scratch(admin: str, kind: str) -> str:
    """A new empty database on the server at ``admin`` (dropped by :func:`drop`)."""
    url = sa.engine.make_url(admin)
    name = f"ragdx_kinds_{uuid.uuid4().hex[:8]}"
    engine = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(sa.text(f"CREATE DATABASE {name}" + (" CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
                                                         if kind == "mysql" else "")))
    engine.dispose()
    return url.set(database=name).render_as_string(hide_password=False)


def drop(url: str) -> None:
    target = sa.engine.make_url(url)
    engine = sa.create_engine(target.set(database="postgres" if target.get_backend_name() == "postgresql"
                                         else "mysql"), isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(sa.text(f"DROP DATABASE IF EXISTS {target.database}"))
    engine.dispose()


def measure(url: str, links: dict, cap: int | None) -> tuple[Counter, Counter, int, float]:
    """(groups per kind, templates per kind, wrong answers, seconds) for one database."""
    engine = connect(url)
    schema = inspect_schema(engine)
    templates = kind_templates(schema)
    signature = {t.id: t.signature for t in templates}
    started = time.perf_counter()
    records, _ = kind_records(engine, schema, KINDS, ["interrogative"], cap, 0)
    seconds = time.perf_counter() - started
    wrong = check(Tables(engine, links), records, signature.__getitem__)
    engine.dispose()
    return Counter(r.question_kind for r in records), Counter(t.kind for t in templates), len(wrong), seconds


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pg", default="postgresql+psycopg://postgres@127.0.0.1:5432/test")
    ap.add_argument("--mysql", default="mysql+pymysql://root@127.0.0.1:3306/test")
    ap.add_argument("--time", action="append", default=[], metavar="SQLITE",
                    help="also time the kinds on this SQLite database (no truth to check them against)")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ragdx-kinds-"))
    sources = {"demo": (build_demo_database(work / "demo.sqlite"), DEMO_LINKS)}
    if NORTHWIND.exists():
        sources["northwind"] = (NORTHWIND, NORTHWIND_LINKS)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    print("# Question kinds (issue 22 item 4): groups per kind, answers checked against hand-worked truth\n")
    timed = "".join(f" --time {t}" for t in args.time)
    print(f"`.venv/bin/python benchmarks/question_kinds.py{timed}` at commit {commit}, CPU: {cpu_model()}. "
          "One record per group (interrogative style; every style shares the group's answer). Truth: "
          "tests/support/kind_truth.py reads each table whole and computes the answer in Python, with the "
          "links written by hand from each DDL. `cap`: groups per kind template (25: the default; all: no "
          "cap, and no per-kind budget).\n")
    print("| database | engine | cap | " + " | ".join(KINDS) + " | templates | wrong | seconds |")
    print("|---|---|---|" + "---|" * (len(KINDS) + 3))
    missing = []
    checked = wrong_total = 0
    for name, (path, links) in sources.items():
        for engine_kind, admin in (("sqlite", None), ("postgresql", args.pg), ("mysql", args.mysql)):
            url = f"sqlite:///{path}"
            if admin is not None:
                try:
                    url = scratch(admin, engine_kind)
                    copy_sqlite(path, url)
                except Exception as exc:  # an engine that does not answer is said so, not hidden
                    missing.append(f"{name} on {engine_kind}: {str(exc).splitlines()[0]}")
                    continue
            try:
                for cap in (25, None):
                    groups, templates, wrong, seconds = measure(url, links, cap)
                    checked, wrong_total = checked + sum(groups.values()), wrong_total + wrong
                    cells = " | ".join(f"{groups[k]} ({templates[k]})" for k in KINDS)
                    print(f"| {name} | {engine_kind} | {cap or 'all'} | {cells} | {sum(templates.values())} | "
                          f"{wrong} | {seconds:.1f} |")
            finally:
                if admin is not None:
                    drop(url)
    print("\nCells: groups asked (kind templates). `wrong`: groups whose answer differs from the hand-worked truth. "
          "Two cores shared with other work: the seconds are indicative only.")
    print(f"\nIn all: {wrong_total} of {checked:,} groups wrong.")
    for extra in args.time:
        engine = connect(f"sqlite:///{extra}")
        schema = inspect_schema(engine)
        rows = max(t.rows for t in schema.tables.values())
        started = time.perf_counter()
        records, _ = kind_records(engine, schema, KINDS, ["interrogative"], 25, 0)
        seconds = time.perf_counter() - started
        engine.dispose()
        kinds = Counter(r.question_kind for r in records)
        print(f"\nTimed only: {Path(extra).name} (largest table {rows:,} rows), default cap: "
              f"{', '.join(f'{k} {kinds[k]}' for k in KINDS)} groups in {seconds:.0f} s.")
    print("\n## Two questions of each kind per database (SQLite, default cap, the first groups drawn)\n")
    for name, (path, _) in sources.items():
        engine = connect(f"sqlite:///{path}")
        records, _ = kind_records(engine, inspect_schema(engine), KINDS, ["interrogative"], 25, 0)
        engine.dispose()
        for kind in KINDS:
            for r in [r for r in records if r.question_kind == kind][:2]:
                print(f"- {name}, {kind}: {r.query} -> {r.answer_text[:100]}")
    for line in missing:
        print(f"\nnot measured: {line}")


if __name__ == "__main__":
    main()
