"""Questions to decline (issue 26 item 1): how many of each kind ``ragdx gen --refusals`` makes on
the demo and Northwind, and how many are wrong against SQL written by hand.

    OMP_WAIT_POLICY=passive HF_HUB_OFFLINE=1 nice -n 10 .venv/bin/python benchmarks/refusals.py \
        [--refusals 1] [--n 2] [--out benchmarks/results/refusals.md]

Each database is generated through ``ragdx.generate_dataset`` (what ``ragdx gen --refusals N``
runs) in all six built-in styles, with a knowledge base rendered with facts left out (the demo's
own ``DEMO_OMIT``/``DEMO_OMIT_TABLES``; Northwind: ``Customers.ContactTitle``). The truth is not
ragdx's: every refusal group is re-established by the hand-written SQL of
``tests/support/refusal_check.py`` (premise really false, name really absent, name really shared by
rows with different answers, no table named by an off-topic question, omitted fact stated in no
sentence of the knowledge base but held by the database), and its pairing checked (one answerable
partner group, not shared, one partner record per refusal record in every style). PostgreSQL and
MariaDB get copies of the same databases when reachable (127.0.0.1:5432 db test, 127.0.0.1:3306).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import ragdx  # noqa: E402
from benchmarks.machine import cpu_model  # noqa: E402
from ragdx.demo.database import build_demo_database  # noqa: E402
from ragdx.demo.run import DEMO_OMIT, DEMO_OMIT_TABLES  # noqa: E402
from ragdx.gen.dataset import read_records  # noqa: E402
from ragdx.gen.options import REFUSAL_KINDS, gen_options  # noqa: E402
from ragdx.gen.refusals import partner_group_id  # noqa: E402
from tests.conftest import DATA, MY_ADMIN, PG_ADMIN, ScratchDatabases  # noqa: E402
from tests.support.copy_sqlite import copy_sqlite  # noqa: E402
from tests.support.refusal_check import check  # noqa: E402

STYLES = ["short", "long", "interrogative", "directive", "formal", "casual"]
NORTHWIND = DATA / "northwind" / "northwind.sqlite"


def _reachable(url: str) -> bool:
    import sqlalchemy as sa

    try:
        engine = sa.create_engine(url, connect_args={"connect_timeout": 3})
        with engine.connect():
            pass
        engine.dispose()
        return True
    except Exception:  # noqa: BLE001 -- a server that is not there is skipped, and said so
        return False


def _run(name: str, engine: str, url: str, work: Path, omit, omit_tables, args) -> list[dict]:
    options = gen_options(None, {"refusals": args.refusals, "styles": STYLES, "n": args.n})
    t0 = time.perf_counter()
    ragdx.generate_dataset(url, work / "dataset", options, kb=work / "kb", omit=omit, omit_tables=omit_tables)
    seconds = time.perf_counter() - t0
    records = read_records(work / "dataset")
    counts, problems = check(records, url, work / "kb")
    refusals = [r for r in records if r.refusal_kind]
    partners = {partner_group_id(r) for r in refusals}
    per_kind_records = Counter(r.refusal_kind for r in refusals)
    partner_records = Counter()
    kind_of = {partner_group_id(r): r.refusal_kind for r in refusals}
    for r in records:
        if r.group_id in partners:
            partner_records[kind_of[r.group_id]] += 1
    rows = []
    for kind in REFUSAL_KINDS:
        wrong = sum(1 for p in problems if f"~{kind}" in p.split(" ")[0])
        rows.append({"database": name, "engine": engine, "kind": kind, "groups": counts.get(kind, 0),
                     "records": per_kind_records.get(kind, 0), "partners": partner_records.get(kind, 0),
                     "wrong": wrong})
    rows.append({"database": name, "engine": engine, "kind": "all", "groups": sum(counts.values()),
                 "records": len(refusals), "partners": sum(partner_records.values()), "wrong": len(problems),
                 "dataset": len(records), "seconds": seconds})
    for p in problems:
        print("PROBLEM", name, engine, p)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--refusals", type=int, default=1)
    ap.add_argument("--n", type=int, default=2)
    ap.add_argument("--out", default=str(ROOT / "benchmarks/results/refusals.md"))
    args = ap.parse_args()
    rows: list[dict] = []
    notes: list[str] = []
    servers = [("postgresql", PG_ADMIN), ("mariadb", MY_ADMIN)]
    live = [(kind, admin) for kind, admin in servers if _reachable(admin)]
    notes += [f"{kind} not reachable at {admin}: skipped" for kind, admin in servers if (kind, admin) not in live]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        demo = build_demo_database(tmp / "demo.sqlite")
        sources = [("demo", demo, DEMO_OMIT, DEMO_OMIT_TABLES)]
        if NORTHWIND.exists():
            sources.append(("northwind", NORTHWIND, ("Customers.ContactTitle",), ()))
        else:
            notes.append(f"Northwind not found at {NORTHWIND}: skipped")
        for name, path, omit, omit_tables in sources:
            rows += _run(name, "sqlite", f"sqlite:///{path}", tmp / f"{name}-sqlite", omit, omit_tables, args)
            for kind, admin in live:
                dbs = ScratchDatabases(admin, "postgresql" if kind == "postgresql" else "mysql")
                try:
                    url = dbs.new()
                    copy_sqlite(path, url)
                    rows += _run(name, kind, url, tmp / f"{name}-{kind}", omit, omit_tables, args)
                finally:
                    dbs.drop_all()
    _write(rows, notes, args)


def _write(rows: list[dict], notes: list[str], args) -> None:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=ROOT).stdout.strip()
    lines = ["# Questions to decline, checked against hand-written SQL (issue 26 item 1)", "",
             "`OMP_WAIT_POLICY=passive HF_HUB_OFFLINE=1 nice -n 10 .venv/bin/python benchmarks/refusals.py "
             f"--refusals {args.refusals} --n {args.n}` at commit {commit}, CPU {cpu_model()} (two cores shared "
             "with other work: seconds are indicative only).", "",
             f"`ragdx.generate_dataset` with `refusals={args.refusals}` (refusal groups per SQL template and kind; "
             "out of domain: per table), six styles, "
             f"n={args.n}, default cap of 25 groups per template, a knowledge base rendered with facts left out "
             "(demo: its DEMO_OMIT and DEMO_OMIT_TABLES; Northwind: Customers.ContactTitle). *groups*: refusal "
             "groups; *records*: refusal records; *partners*: the answerable records paired with them (equal "
             "to *records* when every pair is one to one); *wrong*: refusal groups the hand-written SQL of "
             "tests/support/refusal_check.py contradicts, or whose pairing is broken.", "",
             "| database | engine | kind | groups | records | partners | wrong |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['database']} | {r['engine']} | {r['kind']} | {r['groups']} | {r['records']} | "
                     f"{r['partners']} | {r['wrong']} |")
    lines += ["", "| database | engine | records in the dataset | seconds (generate, incl. KB render) |",
              "|---|---|---|---|"]
    for r in rows:
        if r["kind"] == "all":
            lines.append(f"| {r['database']} | {r['engine']} | {r['dataset']} | {r['seconds']:.1f} |")
    lines += [""] + [f"note: {n}" for n in notes]
    text = "\n".join(lines).rstrip() + "\n"
    Path(args.out).write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
