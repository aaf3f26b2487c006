"""Throughput of QA generation (GRAMMAR Algorithm 1) on a synthetic 1M-row database, on SQLite
and on every server named with ``--url`` (PostgreSQL, MariaDB/MySQL), in one run.

    .venv/bin/python benchmarks/gen_throughput.py [--rows 1000000] [--db PATH]
        [--url postgresql://USER@HOST:5432/DB] [--url mysql://USER@HOST:3306/DB] [--no-sqlite]
        [--per-combination-sample 2000] [--repeat 3] [--extra-repeat 1] [--breakdown]
        [--seed 0] [--no-gc] [--strict] [--markdown PATH]

A server URL takes the forms ragdx's configuration accepts; credentials come from the URL or the
driver's environment (``PGPASSWORD``, ...) and are never printed (the URL is shown masked). The
script creates its own database next to the URL's (``ragdx_bench_gen_<rows>_s<seed>_v<format>``;
the URL's user needs CREATE DATABASE), copies the SQLite benchmark database into it once and
reuses it on later runs; the measurements themselves run through ragdx's read-only engine.

A *record* is one answered combination of placeholder values (one QA group). For each template
the script times:

* ``per-combination``: ``run_per_combination`` (one round trip per combination, Algorithm 1 as
  written) over a seeded sample of ``--per-combination-sample`` combinations; its time for all
  combinations is extrapolated from that rate (query loop only);
* ``set-based``: ``answer_template(..., AnswerOptions(method="set"), columns=True)`` over ALL
  combinations, i.e. the default path end to end as ``build_dataset`` runs it (placeholder
  domains, combinations, the one scan, grouping, the multiplicity policies; one-row groups held
  as columns, a ``GroupTable``);
* ``bare GROUP BY``: the plain ``SELECT key, answer ... GROUP BY key, answer`` executed through the
  same engine and fully fetched: the floor;
* ``set-based + records``: the set-based time plus the records of its groups with one text
  template, built as the pipeline builds them (``ragdx.gen.columnar.build_columns``: every field
  of every record, held as columns; the files are written from those);
* ``set-based + build_records (one at a time)``: the same with ``build_records``, the
  record-at-a-time reference (every ``QARecord`` constructed and discarded), for comparison;
* breakdown rows (not targets): ``placeholder_domains`` alone, the set-based SQL executed and
  fully fetched without any Python grouping, and with ``--breakdown`` ``run_set_based`` alone.

The three target rows are best of ``--repeat``; the records and the breakdown rows best of
``--extra-repeat`` (1 by default, so that a 1M-row run stays under about five minutes on two
cores). The database build and schema inspection are timed and printed separately and are not
part of any measurement. The garbage collector stays enabled (as in the real pipeline) unless
``--no-gc`` is given; then it is disabled inside timed sections only, and the table title says so.

Correctness: on the sampled combinations the set-based groups (rows, entities, facts) must equal the
per-combination groups; PASS/FAIL is printed and the exit status is 1 on FAIL (with ``--strict``
also 2 when a throughput target is NOT MET).
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import random
import resource
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlalchemy
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ragdx.db import connect, inspect_schema
from ragdx.db.dialect import dialect_named
from ragdx.gen.columnar import build_columns
from ragdx.gen.dataset import build_records
from ragdx.gen.qa import (
    AnswerOptions,
    answer_template,
    choose_combinations,
    placeholder_domains,
    run_per_combination,
    run_set_based,
)
from ragdx.gen.sql_templates import SqlTemplate, parse_template
from ragdx.gen.text_templates import TextTemplate
from ragdx.store import gc_paused

sys.path.insert(0, str(Path(__file__).resolve().parent))  # loaded by path (tests) as well as run
from machine import cpu_model  # noqa: E402  (benchmarks/machine.py)

#: bump when the generated data changes, so an old file is rebuilt rather than reused
DB_FORMAT = 7301

TEMPLATES = [
    ("a: attribute", "Customer",
     "SELECT City FROM Customer WHERE Name = '[Customer.Name]'",
     "SELECT Name, City FROM Customer GROUP BY Name, City",
     "In which city is [Customer.Name]?"),
    ("b: FK join", "Customer",
     "SELECT Country.Region FROM Customer JOIN Country ON Customer.Country_ID = Country.id "
     "WHERE Customer.Name = '[Customer.Name]'",
     "SELECT Customer.Name, Country.Region FROM Customer JOIN Country "
     "ON Customer.Country_ID = Country.id GROUP BY Customer.Name, Country.Region",
     "In which region is the country of [Customer.Name]?"),
]

REGIONS = ["Africa", "Americas", "Asia", "Europe", "Middle East", "Oceania", "Caribbean", "Arctic"]
SEGMENTS = ["Consumer", "Corporate", "Home Office", "Small Business", "Government"]


# ----------------------------------------------------------------------------- database


def split_rows(rows: int) -> tuple[int, int]:
    """(countries, customers) adding up to ``rows``."""
    countries = 200 if rows >= 2_000 else max(1, rows // 10)
    return countries, rows - countries


def existing_ok(path: Path, rows: int) -> bool | None:
    """True: our database with the right size; False: ours but stale; None: not ours."""
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error:
        return None
    try:
        if con.execute("PRAGMA user_version").fetchone()[0] != DB_FORMAT:
            return None
        countries, customers = split_rows(rows)
        got = (con.execute("SELECT COUNT(*) FROM Country").fetchone()[0],
               con.execute("SELECT COUNT(*) FROM Customer").fetchone()[0])
        return got == (countries, customers)
    except sqlite3.Error:
        return None
    finally:
        con.close()


def build_database(path: Path, rows: int, seed: int) -> None:
    """Country (id PK, Name UNIQUE, Region) and Customer (id PK, Name UNIQUE, City, Segment,
    Country_ID → Country.id); seeded, one transaction. About 0.5% of cities and 0.5% of country
    references are NULL, so NULL answers and unanswerable combinations are exercised too."""
    n_country, n_customer = split_rows(rows)
    tmp = path.with_name(path.name + ".building")
    tmp.unlink(missing_ok=True)
    rng = random.Random(seed)
    con = sqlite3.connect(tmp, isolation_level=None)
    try:
        con.execute("PRAGMA journal_mode = OFF")
        con.execute("PRAGMA synchronous = OFF")
        con.execute("PRAGMA cache_size = -262144")  # 256 MiB while building
        con.execute("BEGIN")
        con.execute("CREATE TABLE Country (id INTEGER PRIMARY KEY, Name TEXT NOT NULL UNIQUE, "
                    "Region TEXT NOT NULL)")
        con.execute("CREATE TABLE Customer (id INTEGER PRIMARY KEY, Name TEXT NOT NULL, City TEXT, "
                    "Segment TEXT NOT NULL, Country_ID INTEGER REFERENCES Country(id))")
        con.executemany("INSERT INTO Country VALUES (?, ?, ?)",
                        ((i, f"Country {i:04d}", REGIONS[rng.randrange(len(REGIONS))])
                         for i in range(1, n_country + 1)))
        cities = [f"City {i:05d}" for i in range(5_000)]
        numbers = list(range(n_customer))
        rng.shuffle(numbers)  # name order differs from rowid order, as in real data
        rand = rng.random
        n_cities, n_segments = len(cities), len(SEGMENTS)

        def customers():
            for i, number in enumerate(numbers, 1):
                r = rand()
                city = None if r < 0.005 else cities[int(r * 1_000_003) % n_cities]
                country = None if rand() < 0.005 else 1 + int(rand() * n_country)
                yield (i, f"Customer {number:07d}", city, SEGMENTS[i % n_segments], country)

        con.executemany("INSERT INTO Customer VALUES (?, ?, ?, ?, ?)", customers())
        # the unique index after the rows (a sort) is much faster than 1M random B-tree inserts
        con.execute("CREATE UNIQUE INDEX Customer_Name ON Customer (Name)")
        con.execute(f"PRAGMA user_version = {DB_FORMAT}")
        con.execute("COMMIT")
        con.execute("ANALYZE")
    finally:
        con.close()
    os.replace(tmp, path)


# ----------------------------------------------------------------------------- servers


def server_database_name(rows: int, seed: int) -> str:
    """The benchmark's own database on a server, next to the URL's database (never that one)."""
    return f"ragdx_bench_gen_{rows}_s{seed}_v{DB_FORMAT}"


def _admin_engine(url):
    import sqlalchemy as sa

    from ragdx.db.engine import normalise_url

    return sa.create_engine(normalise_url(url), isolation_level="AUTOCOMMIT")


def server_ready(url, name: str, rows: int) -> bool:
    """The server holds the benchmark's database ``name`` with every row loaded (the load ends
    by writing a marker table, so a load cut short is rebuilt, not measured)."""
    import sqlalchemy as sa

    from ragdx.db.engine import normalise_url

    admin = _admin_engine(url)
    try:
        with admin.connect() as conn:
            if normalise_url(url).get_backend_name() == "postgresql":
                exists = conn.execute(sa.text("SELECT 1 FROM pg_database WHERE datname = :d"), {"d": name}).first()
            else:
                exists = conn.execute(sa.text("SELECT 1 FROM information_schema.schemata "
                                              "WHERE schema_name = :d"), {"d": name}).first()
    finally:
        admin.dispose()
    if not exists:
        return False
    engine = _admin_engine(normalise_url(url).set(database=name))
    try:
        with engine.connect() as conn:
            return conn.execute(sa.text("SELECT rows_loaded FROM bench_marker")).scalar() == rows
    except sa.exc.SQLAlchemyError:
        return False
    finally:
        engine.dispose()


def load_server(url, name: str, sqlite_path: Path) -> None:
    """(Re)create database ``name`` on the server of ``url`` and copy the SQLite benchmark
    database into it: the same rows, so every engine answers the same question."""
    import sqlalchemy as sa

    from ragdx.db.engine import normalise_url

    parsed = normalise_url(url)
    pg = parsed.get_backend_name() == "postgresql"
    admin = _admin_engine(parsed)
    try:
        with admin.connect() as conn:
            if pg:
                conn.execute(sa.text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :d"),
                             {"d": name})
            conn.execute(sa.text(f"DROP DATABASE IF EXISTS {name}"))
            # binary collation on MariaDB: Python's grouping is exact, as the benchmark's data is
            conn.execute(sa.text(f"CREATE DATABASE {name}" + (" ENCODING 'UTF8' TEMPLATE template0" if pg else
                                                              " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin")))
    finally:
        admin.dispose()
    md = sa.MetaData()
    country = sa.Table("Country", md, sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
                       sa.Column("Name", sa.String(64), nullable=False, unique=True),
                       sa.Column("Region", sa.String(32), nullable=False))
    customer = sa.Table("Customer", md, sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
                        sa.Column("Name", sa.String(64), nullable=False),
                        sa.Column("City", sa.String(64)),
                        sa.Column("Segment", sa.String(32), nullable=False),
                        sa.Column("Country_ID", sa.Integer, sa.ForeignKey("Country.id")))
    src = sqlite3.connect(f"file:{sqlite_path}?mode=ro", uri=True)
    engine = sa.create_engine(parsed.set(database=name))
    try:
        with engine.begin() as conn:
            md.create_all(conn)
            raw = conn.connection.driver_connection
            for table in (country, customer):
                cols = [c.name for c in table.columns]
                select = f"SELECT {', '.join(cols)} FROM {table.name} ORDER BY id"
                cur = src.execute(select)
                if pg:
                    quoted = ", ".join(f'"{c}"' for c in cols)
                    with raw.cursor() as pcur, pcur.copy(f'COPY "{table.name}" ({quoted}) FROM STDIN') as copy:
                        while batch := cur.fetchmany(50_000):
                            for row in batch:
                                copy.write_row(row)
                else:
                    insert = (f"INSERT INTO `{table.name}` ({', '.join(f'`{c}`' for c in cols)}) "
                              f"VALUES ({', '.join(['%s'] * len(cols))})")
                    with raw.cursor() as mcur:
                        while batch := cur.fetchmany(50_000):
                            mcur.executemany(insert, batch)  # PyMySQL sends multi-row INSERTs
            # the unique index after the rows, as on SQLite (one sort, not 1M B-tree inserts)
            sa.Index("Customer_Name", customer.c.Name, unique=True).create(conn)
            conn.execute(sa.text("CREATE TABLE bench_marker (rows_loaded INTEGER NOT NULL)"))
            n = src.execute("SELECT (SELECT COUNT(*) FROM Country) + (SELECT COUNT(*) FROM Customer)").fetchone()[0]
            conn.execute(sa.text("INSERT INTO bench_marker VALUES (:n)"), {"n": n})
    finally:
        src.close()
        engine.dispose()
    # fresh planner statistics, as a maintained production database has
    stats = _admin_engine(parsed.set(database=name))
    try:
        with stats.connect() as conn:
            conn.execute(sa.text('VACUUM ANALYZE' if pg else 'ANALYZE TABLE `Country`, `Customer`'))
    finally:
        stats.dispose()


# ----------------------------------------------------------------------------- timing


def best_of(repeat: int, fn: Callable[[], Any], no_gc: bool) -> tuple[float, Any]:
    """Best wall time of ``repeat`` calls and the last call's result (earlier results are freed
    before the next call, so two 1M-group results never coexist)."""
    best = math.inf
    result = None
    for _ in range(repeat):
        result = None
        gc.collect()
        if no_gc:
            gc.disable()
        try:
            t0 = time.perf_counter()
            result = fn()
            elapsed = time.perf_counter() - t0
        finally:
            if no_gc:
                gc.enable()
        best = min(best, elapsed)
    return best, result


def fetch_all(engine, sql: str) -> int:
    with engine.connect() as conn:
        return len(conn.exec_driver_sql(sql).fetchall())


def _loadavg() -> str:
    try:
        return "/".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "n/a"



def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


# ----------------------------------------------------------------------------- main


def bench_template(spec: tuple[str, ...], engine, schema, args, table: Table, targets: list,
                   failures: list, console: Console, engine_label: str = "SQLite",
                   summary: list | None = None) -> None:
    """Time every path for one template, check it, and add its rows to ``table``."""
    import sqlglot

    label, schema_key, sql, bare_sql, text = spec
    # the floor in the engine's own quoting (PostgreSQL folds unquoted names to lower case)
    write = dialect_named(schema.dialect).glot
    bare_sql = sqlglot.transpile(bare_sql, read="sqlite", write=write, identify=True)[0]
    repeat, extra, no_gc = args.repeat, args.extra_repeat, args.no_gc
    parsed = parse_template(SqlTemplate(sql, schema_key), schema)
    assert parsed.set_based, label
    texts = {"plain": [TextTemplate(parsed.template.sql, "plain", text)]}
    options = AnswerOptions(method="set")

    # sample for the per-combination path (not timed)
    domains = placeholder_domains(engine, parsed)
    n_all = math.prod(len(d) for d in domains)
    sample = choose_combinations(domains, args.per_combination_sample, args.seed, parsed.id)
    del domains

    t_per, per_groups = best_of(repeat, lambda: run_per_combination(engine, parsed, sample, schema), no_gc)
    n_per = len(sample)  # one round trip each, answered or not
    rate_per = n_per / t_per

    t_bare, n_bare = best_of(repeat, lambda: fetch_all(engine, bare_sql), no_gc)
    set_sql = parsed.set_based_query(schema)[0]
    t_sql, n_sql = best_of(extra, lambda: fetch_all(engine, set_sql), no_gc)
    t_dom, _ = best_of(extra, lambda: len(placeholder_domains(engine, parsed)), no_gc)
    if args.breakdown:
        t_rsb, found = best_of(extra, lambda: run_set_based(engine, parsed, schema, None), no_gc)
        n_found = len(found)
        del found

    t_set, answers = best_of(repeat, lambda: answer_template(engine, parsed, schema, options, columns=True), no_gc)
    n_set = len(answers.groups)

    # correctness on the sampled combinations (set-based vs per-combination, same policies:
    # a key is unique, so only unanswerable combinations can be dropped)
    by_params = {g.params: g for g in answers.groups}
    bad = [c for c in sample if by_params.get(c) != per_groups.get(c)]
    dropped = sum(c not in per_groups for c in sample)
    c = answers.counts
    if bad:
        failures.append(f"{engine_label} {label}: {len(bad)} of {len(sample)} sampled combinations differ, "
                        f"e.g. {bad[0]!r}: set={by_params.get(bad[0])!r} per={per_groups.get(bad[0])!r}")
    if c.combinations != n_all or c.single + c.unanswerable_dropped + c.multi_dropped != n_all:
        failures.append(f"{engine_label} {label}: counts do not add up: {c.as_dict()}")
    console.print(f"{engine_label} {label}: {n_all:,} combinations; set-based kept {n_set:,} "
                  f"(single {c.single:,}, null answers {c.null_answers:,}, unanswerable dropped "
                  f"{c.unanswerable_dropped:,}, multi dropped {c.multi_dropped:,}); sample "
                  f"{len(sample):,} ({dropped} unanswerable): "
                  + ("[green]PASS" if not bad else f"[red]FAIL ({len(bad)} differ)"))
    del by_params, per_groups

    def with_records(groups: list = answers.groups) -> int:
        # the groups are reused from the timed run above: only the records are timed here, built
        # as build_dataset builds them (as columns)
        return len(build_columns(parsed, groups, texts))

    def one_at_a_time(groups: list = answers.groups) -> int:
        # the record-at-a-time reference, under the collector's pause build_dataset holds; each
        # record is built and dropped (1M records kept alive would also be measured as memory)
        n = 0
        with gc_paused():
            for n, _record in enumerate(build_records(parsed, groups, texts), 1):  # noqa: B007
                pass
        return n

    t_rec, n_rec = best_of(extra, with_records, no_gc)
    assert n_rec == n_set, (n_rec, n_set)
    t_one, n_one = best_of(extra, one_at_a_time, no_gc)
    assert n_one == n_set, (n_one, n_set)
    t_set_rec = t_set + t_rec  # answer_template (best) + records (best)
    t_set_one = t_set + t_one
    del answers, with_records, one_at_a_time

    rate_set = n_set / t_set
    extrapolated = n_all / rate_per
    rows = [
        ("per-combination (sample)", n_per, t_per, rate_per),
        ("per-combination (extrapolated, all)", n_all, extrapolated, rate_per),
        ("set-based answer_template (all)", n_set, t_set, rate_set),
        ("set-based + records (columns), 1 text", n_set, t_set_rec, n_set / t_set_rec),
        ("set-based + build_records (one at a time)", n_set, t_set_one, n_set / t_set_one),
        *([("  of which run_set_based", n_found, t_rsb, n_found / t_rsb)] if args.breakdown else []),
        ("  of which placeholder_domains", n_all, t_dom, n_all / t_dom),
        ("  set-based SQL, fetch only", n_sql, t_sql, n_sql / t_sql),
        ("bare GROUP BY (floor)", n_bare, t_bare, n_bare / t_bare),
    ]
    for name, n, secs, rate in rows:
        # ratio vs bare: seconds per record relative to the bare query's, so sample rows compare too
        ratio = (secs / n) / (t_bare / n_bare) if n and n_bare else float("nan")
        table.add_row(name, label, f"{n:,}", f"{secs:,.3f}", f"{rate:,.0f}",
                      f"{rate / rate_per:,.1f}×", f"{ratio:,.2f}×")
    table.add_section()

    speedup = rate_set / rate_per
    ratio = t_set / t_bare
    targets.append((f"{engine_label} {label}: set-based ≥ 100× per-combination", speedup >= 100,
                    f"{rate_set:,.0f} vs {rate_per:,.0f} records/s = {speedup:,.1f}×"))
    targets.append((f"{engine_label} {label}: set-based within 3× of bare GROUP BY", ratio <= 3,
                    f"{t_set:.3f} s vs {t_bare:.3f} s = {ratio:.2f}×"))
    if summary is not None:
        summary.append((engine_label, label, n_set, t_set, t_bare, ratio, t_set_rec, t_set_rec / t_bare,
                        speedup, t_set_one, t_set_one / t_bare))
    targets.append((f"{engine_label} {label}: set-based + records within 3× of bare GROUP BY",
                    t_set_rec / t_bare <= 3, f"{t_set_rec:.3f} s vs {t_bare:.3f} s = {t_set_rec / t_bare:.2f}×"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=1_000_000, help="rows in the database, all tables")
    ap.add_argument("--db", type=Path, default=None,
                    help="SQLite file (default: a file in the system temp dir, reused when it matches)")
    ap.add_argument("--per-combination-sample", type=int, default=2_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--extra-repeat", type=int, default=1,
                    help="best of N for the records and breakdown rows; "
                         "1 by default to keep a full-size run under 5 minutes")
    ap.add_argument("--breakdown", action="store_true",
                    help="also time run_set_based alone (another ~15-30 s per template at 1M rows)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-gc", action="store_true", help="disable the GC inside timed sections")
    ap.add_argument("--strict", action="store_true", help="exit 2 when a target is NOT MET")
    ap.add_argument("--url", action="append", default=[],
                    help="a PostgreSQL or MariaDB/MySQL server to measure too (repeatable)")
    ap.add_argument("--no-sqlite", action="store_true", help="measure the servers only")
    ap.add_argument("--markdown", type=Path, default=None,
                    help="also write the summary and every table to this Markdown file")
    args = ap.parse_args(argv)
    console = Console(width=max(150, Console().width), record=args.markdown is not None)
    load_start = _loadavg()

    path = args.db or Path(tempfile.gettempdir()) / "ragdx-bench" / f"gen_throughput_{args.rows}_s{args.seed}.sqlite"
    path.parent.mkdir(parents=True, exist_ok=True)
    state = existing_ok(path, args.rows) if path.exists() else False
    if state is None:
        console.print(f"[red]{path} exists and is not a database this script built; refusing to overwrite")
        return 1
    if state:
        console.print(f"database: reusing {path} ({args.rows:,} rows)")
    else:
        t0 = time.perf_counter()
        build_database(path, args.rows, args.seed)
        console.print(f"database: built {path} ({args.rows:,} rows, "
                      f"{path.stat().st_size / 2**20:.0f} MiB) in {time.perf_counter() - t0:.1f} s "
                      "[dim](not measured)")

    from ragdx.db.engine import normalise_url, safe_url

    names = {"sqlite": "SQLite", "postgresql": "PostgreSQL", "mysql": "MariaDB"}
    engines: list[tuple[str, Any]] = [] if args.no_sqlite else [("SQLite", f"sqlite:///{path}")]
    name = server_database_name(args.rows, args.seed)
    for url in args.url:
        parsed = normalise_url(url)
        backend = parsed.get_backend_name()
        if backend not in ("postgresql", "mysql"):
            console.print(f"[red]--url {escape(safe_url(url))}: a PostgreSQL or MariaDB/MySQL server URL, please")
            return 1
        label = names[backend]
        try:
            if server_ready(parsed, name, args.rows):
                console.print(f"{label}: reusing database {name} on {escape(safe_url(url))}")
            else:
                t0 = time.perf_counter()
                load_server(parsed, name, path)
                console.print(f"{label}: loaded database {name} on {escape(safe_url(url))} in "
                              f"{time.perf_counter() - t0:.1f} s [dim](not measured)")
        except sqlalchemy.exc.SQLAlchemyError as exc:
            from ragdx.db.engine import first_line

            console.print(f"[red]{label} at {escape(safe_url(url))}: {escape(first_line(exc))}")
            return 1
        engines.append((label, parsed.set(database=name)))

    targets: list[tuple[str, bool, str]] = []
    failures: list[str] = []
    summary: list[tuple] = []
    for label, url in engines:
        engine = connect(url, read_only=True)
        t0 = time.perf_counter()
        schema = inspect_schema(engine)
        console.print(f"{label}: schema inspected and profiled in {time.perf_counter() - t0:.1f} s "
                      "[dim](not measured)")
        table = Table(title=f"QA generation throughput, {label}, {args.rows:,} rows, best of {args.repeat} "
                            f"(records and breakdown rows: best of {args.extra_repeat})"
                            f", GC {'disabled in timed sections' if args.no_gc else 'enabled'}")
        for col in ("path", "template", "records", "seconds", "records/s", "speed-up vs per-comb.",
                    "ratio vs bare GROUP BY"):
            table.add_column(col, justify="left" if col in ("path", "template") else "right")
        try:
            for spec in TEMPLATES:
                bench_template(spec, engine, schema, args, table, targets, failures, console, label, summary)
        finally:
            engine.dispose()
        console.print(table)

    overview = Table(title="set-based answering vs the bare GROUP BY, every engine (target ≤ 3×)")
    for col in ("engine", "template", "records", "set-based s", "bare GROUP BY s", "ratio", "≤ 3×",
                "+ records s", "ratio with records", "+ one at a time s", "ratio, one at a time"):
        overview.add_column(col, justify="left" if col in ("engine", "template") else "right")
    for eng, label, n, t_set, t_bare, ratio, t_rec, ratio_rec, _, t_one, ratio_one in summary:
        overview.add_row(eng, label, f"{n:,}", f"{t_set:.3f}", f"{t_bare:.3f}", f"{ratio:.2f}×",
                         "MET" if ratio <= 3 else "NOT MET", f"{t_rec:.3f}", f"{ratio_rec:.2f}×",
                         f"{t_one:.3f}", f"{ratio_one:.2f}×")
    console.print(overview)
    console.print("per-combination extrapolation: all combinations ÷ the sample's rate (query loop only). "
                  "speed-up = records/s ÷ per-combination records/s; ratio vs bare = seconds per record ÷ "
                  "bare GROUP BY's seconds per record.")
    console.print("[bold]targets")
    for name, met, detail in targets:
        console.print(f"  {name}: " + ("[green]MET" if met else "[red]NOT MET") + f" ({detail})")
    console.print(f"peak RSS: {peak_rss_mib():,.0f} MiB; load average at start {load_start}, at end "
                  f"{_loadavg()} on {os.cpu_count()} CPUs (other processes inflate every timing)")
    code = 0
    if failures:
        for f in failures:
            console.print(f"[red]FAIL[/red] {escape(f)}")
        console.print("[red bold]correctness: FAIL")
        code = 1
    else:
        console.print("[green bold]correctness: PASS[/] (set-based groups equal per-combination groups "
                      "on every sampled combination: rows, entities, facts)")
        if args.strict and not all(m for _, m, _ in targets):
            code = 2
    if args.markdown is not None:
        write_markdown(args.markdown, console, summary, argv, load_start)
    return code


def write_markdown(path: Path, console: Console, summary: list, argv: list[str] | None, load_start: str) -> None:
    """The summary as a Markdown table, then the console's whole output, with the command that
    made it (server URLs masked)."""
    from ragdx.db.engine import safe_url

    words = list(sys.argv[1:] if argv is None else argv)
    shown = [safe_url(w) if i and words[i - 1] == "--url" else w for i, w in enumerate(words)]
    lines = ["# Generation throughput: set-based answering vs a bare GROUP BY", "",
             "```", "OMP_WAIT_POLICY=passive .venv/bin/python benchmarks/gen_throughput.py " + " ".join(shown), "```",
             "", f"CPU: {cpu_model()}. Load average at start {load_start}, at end {_loadavg()} "
             f"on {os.cpu_count()} CPUs "
             "(a shared machine: absolute times are inflated, ratios are taken within one run).", "",
             "| engine | template | records | set-based s | bare GROUP BY s | ratio | + records s | "
             "ratio with records | ≤ 3× | + build_records (one at a time) s | ratio, one at a time | "
             "vs per-combination |",
             "|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|"]
    for eng, label, n, t_set, t_bare, ratio, t_rec, ratio_rec, speedup, t_one, ratio_one in summary:
        lines.append(f"| {eng} | {label} | {n:,} | {t_set:.3f} | {t_bare:.3f} | {ratio:.2f}× | {t_rec:.3f} | "
                     f"{ratio_rec:.2f}× | {'met' if ratio_rec <= 3 else 'NOT met'} | {t_one:.3f} | "
                     f"{ratio_one:.2f}× | {speedup:,.1f}× |")
    lines += ["", "Full output:", "", "```", console.export_text().rstrip(), "```", ""]
    path.write_text("\n".join(lines), encoding="utf-8")

if __name__ == "__main__":
    sys.exit(main())
