"""The whole job at a million queries: gen -> run -> evaluate -> report, each stage measured in
its own process against a floor for that stage.

    OMP_WAIT_POLICY=passive HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/million.py \\
        [--queries 1000000] [--builtin-queries 300] [--ray-queries 5000] [--work DIR] \\
        [--rss-limit-gb 6] [--stage-timeout 1800] [--profile benchmarks/results/million_profile.txt] \\
        [--out benchmarks/results/million.md]

The database is synthetic SQLite: ``Customer(id, Name UNIQUE, City)`` with ``--queries / 4``
customers; ``ragdx gen`` fills one SQL template (``SELECT City FROM Customer WHERE Name = ...``)
with two text templates in each of two styles, so every customer is one semantic group of four
queries and the dataset has exactly ``--queries`` records.

Stages (each a child process: wall clock, CPU = user + system from ``os.wait4``'s rusage, peak
RSS = its ``ru_maxrss``; a stage whose RSS passes ``--rss-limit-gb`` or that runs past
``--stage-timeout`` is killed and recorded as such, so a stage that would exhaust this shared
machine's memory is measured up to the limit rather than run to the end):

* ``gen`` (``ragdx gen --max-groups-per-template 0``); floor: the bare ``GROUP BY`` it answers
  from, executed with sqlite3 and fully fetched;
* ``run``, a trivial async callable (answers from the query's text, a fifth of them wrong, one
  context each) on the local executor over every query; floor: a plain loop that reads the
  dataset and writes the same result lines (no fsync per line; one at the end);
* the same callable on Ray with 1 and 2 workers over the first ``--ray-queries`` queries (Ray's
  driver costs ~1.5 ms a query here: a million would take half an hour a run); floor: the plain
  loop at that count. CPU and RSS are the driver's (Ray's actors are not its children);
* ``run`` of a built-in pipeline (keyword retriever + the extractive reader, MiniLM on CPU,
  cache off) over the first ``--builtin-queries`` queries with a corpus of one document per
  customer asked about: at ~8 queries/s on two cores a million would take 35 hours; no floor
  (its cost is the model's);
* ``evaluate`` (defaults: the offline cascade judge, ROUGE-L, 1,000 bootstrap resamples) of the
  local run; floor: reading the dataset and the run and exact-matching every answer in a plain
  loop;
* ``report`` (HTML) of the local run, reading that evaluation; floor: reading the evaluation's
  files and writing as many bytes as the report.

``--load-only DATASET`` measures only reading a dataset as ``ragdx run`` does (every record
checked, (id, query) kept), and ``--write-jsonl-only ROWS`` only ``store.write_jsonl`` over ROWS
result-like rows, each in this process with the ragdx that ``PYTHONPATH`` names (so an older
checkout, e.g. ``git archive HEAD src | tar -x -C /tmp/before``, can be measured beside this one).

``--profile FILE`` runs the local trivial run once more under cProfile (main thread: the event
loop) and writes the top of the profile to FILE with the share of the loop spent rewriting the
manifest (``_write_manifest`` inside ``_answer_all``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import shlex
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # loaded by path (tests) as well as run
from machine import cpu_model  # noqa: E402  (benchmarks/machine.py)

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CITIES = 5_000
SQL = "SELECT City FROM Customer WHERE Name = '[Customer.Name]'"
TEXTS = {"short": ["In which city is '[Customer.Name]'?", "City of '[Customer.Name]'?"],
         "casual": ["hey, where is '[Customer.Name]' based?", "so which town is '[Customer.Name]' in?"]}


# ----------------------------------------------------------------------------- the system under test


def _customer(query: str) -> int:
    return int(query.split("Customer ")[1][:7])


async def answer(query: str) -> dict:
    """The trivial system: the right city for four customers in five, one context each."""
    k = _customer(query)
    city = f"City {(k if k % 5 else k + 1) % CITIES:04d}"
    return {"answer": city, "contexts": [{"id": f"Customer:{k}", "text": f"Customer {k:07d} is in {city}.",
                                          "score": 1.0}]}


# ----------------------------------------------------------------------------- inputs


def build_database(path: Path, customers: int) -> None:
    tmp = path.with_name(path.name + ".building")
    tmp.unlink(missing_ok=True)
    con = sqlite3.connect(tmp, isolation_level=None)
    try:
        con.execute("PRAGMA journal_mode = OFF")
        con.execute("PRAGMA synchronous = OFF")
        con.execute("BEGIN")
        con.execute("CREATE TABLE Customer (id INTEGER PRIMARY KEY, Name TEXT NOT NULL, City TEXT NOT NULL)")
        con.executemany("INSERT INTO Customer VALUES (?, ?, ?)",
                        ((i, f"Customer {i:07d}", f"City {i % CITIES:04d}") for i in range(1, customers + 1)))
        con.execute("CREATE UNIQUE INDEX Customer_Name ON Customer (Name)")
        con.execute("COMMIT")
        con.execute("ANALYZE")
    finally:
        con.close()
    os.replace(tmp, path)


def write_templates(work: Path) -> tuple[Path, Path]:
    sql, text = work / "sql.yaml", work / "text.yaml"
    sql.write_text(f"version: 1\nschemas:\n  Customer:\n  - sql: {SQL}\n", encoding="utf-8")
    lines = ["version: 1", "templates:"]
    for style, texts in TEXTS.items():
        lines += [f"  - sql: {SQL}", f"    style: {style}", "    texts:", *(f"    - {json.dumps(t)}" for t in texts)]
    text.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return sql, text


def head_dataset(dataset: Path, out: Path, n: int) -> Path:
    """A dataset of the first ``n`` records (a dataset directory needs only records.jsonl)."""
    out.mkdir(parents=True, exist_ok=True)
    with (dataset / "records.jsonl").open(encoding="utf-8") as src, \
            (out / "records.jsonl").open("w", encoding="utf-8") as dst:
        for _, line in zip(range(n), src, strict=False):
            dst.write(line)
    return out


def write_pipeline(work: Path, dataset: Path) -> Path:
    """Keyword retriever + extractive reader over one document per customer asked about (and as
    many others), the spec of benchmarks/scale.py."""
    docs = {}
    for line in (dataset / "records.jsonl").open(encoding="utf-8"):
        k = _customer(json.loads(line)["query"])
        for j in (k, k + 1_000_003):
            docs[f"Customer:{j}"] = (f"Customer {j:07d} is a customer based in City {j % CITIES:04d}. "
                                     f"It was founded in {1900 + j % 120} and has {10 + j % 990} staff.")
    (work / "corpus.json").write_text(json.dumps(docs), encoding="utf-8")
    spec = {"name": "kw-extractive", "corpus": str(work / "corpus.json"), "top_k": 3,
            "chunker": {"type": "whole_document"}, "retriever": {"type": "keyword"},
            "generator": {"type": "extractive", "params": {"cache_dir": None}}}
    (work / "pipeline.yaml").write_text(json.dumps(spec), encoding="utf-8")
    return work / "pipeline.yaml"


# ----------------------------------------------------------------------------- floors (child processes)


def floor_gen(db: str) -> None:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    rows = con.execute("SELECT Name, City FROM Customer GROUP BY Name, City").fetchall()
    print(len(rows))


def floor_run(dataset: str, out: str) -> None:
    with open(Path(dataset) / "records.jsonl", encoding="utf-8") as src, open(out, "wb") as dst:
        for line in src:
            record = json.loads(line)
            started = time.perf_counter()
            got = asyncio.run(answer(record["query"])) if dst.tell() == 0 else None
            got = got or {"answer": "City 0000", "contexts": [{"id": "Customer:1", "text": "t", "score": 1.0}]}
            dst.write((json.dumps({"id": record["id"], "query": record["query"], **got,
                                   "latency_s": time.perf_counter() - started, "error": None},
                                  ensure_ascii=False, separators=(",", ":")) + "\n").encode())
        dst.flush()
        os.fsync(dst.fileno())


def floor_evaluate(dataset: str, run_dir: str) -> None:
    gold = {}
    with open(Path(dataset) / "records.jsonl", encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            gold[r["id"]] = (r["group_id"], r["answer_text"].strip().lower())
    right: dict[str, int] = {}
    with open(Path(run_dir) / "results.jsonl", encoding="utf-8") as fh:
        for line in fh:
            o = json.loads(line)
            group, text = gold[o["id"]]
            right[group] = right.get(group, 0) + (str(o.get("answer") or "").strip().lower() == text)
    print(len(gold), sum(right.values()))


def floor_report(evaluation: str, size: str, out: str) -> None:
    read = sum(len(p.read_bytes()) for p in Path(evaluation).rglob("*") if p.is_file())
    Path(out).write_bytes(b"x" * int(size))
    print(read)


def profiled(out: str, *argv: str) -> None:
    """``ragdx *argv`` under cProfile timed by CPU (the process's), not the wall clock, which on
    a shared machine counts whatever else ran meanwhile."""
    import cProfile

    from ragdx.cli.main import main as cli

    sys.argv = ["ragdx", *argv]
    profiler = cProfile.Profile(time.process_time)
    try:
        profiler.runcall(cli)
    except SystemExit as exc:
        if exc.code:
            raise
    finally:
        profiler.dump_stats(out)


FLOORS = {"profiled": profiled, "gen": floor_gen, "run": floor_run, "evaluate": floor_evaluate, "report": floor_report}


# ----------------------------------------------------------------------------- measuring


@dataclass
class Stage:
    name: str
    queries: int
    wall_s: float
    cpu_s: float
    rss_mb: float
    code: int
    note: str = ""


def _rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def measure(name: str, queries: int, argv: list[str], *, work: Path, limit_mb: float, timeout_s: float) -> Stage:
    """Run ``argv`` in ``work``; its wall, CPU and peak RSS; killed past the RSS or time limit."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(REPO / "src"),
                                                         os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
           "COLUMNS": "120", "NO_COLOR": "1"}
    log = (work / f"{name.replace(' ', '_').replace(',', '')}.log").open("w")
    started = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT)
    note, peak = "", 0.0
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        peak = max(peak, _rss_mb(proc.pid))
        elapsed = time.perf_counter() - started
        if not note and (peak > limit_mb or elapsed > timeout_s):
            note = (f"killed at {peak / 1024:.1f} GB RSS after {elapsed:.0f} s" if peak > limit_mb
                    else f"killed after {elapsed:.0f} s (--stage-timeout)")
            proc.kill()
        time.sleep(0.1)
    proc.returncode = os.waitstatus_to_exitcode(status)
    log.close()
    wall = time.perf_counter() - started
    if proc.returncode and not note:
        tail = (work / log.name).read_text(errors="replace").strip().splitlines()[-1:] or [""]
        note = f"exit {proc.returncode}: {tail[0][:160]}"
    return Stage(name, queries, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, proc.returncode,
                 note)


# ----------------------------------------------------------------------------- the job


def ragdx(*args: str) -> list[str]:
    return [sys.executable, "-m", "ragdx.cli", *args]


def floor(*args: str) -> list[str]:
    return [sys.executable, str(Path(__file__).resolve()), "--floor", *args]


def stages(args: argparse.Namespace, work: Path) -> list[tuple[Stage, Stage | None]]:
    """Every stage and its floor, in the order a user runs them."""
    def m(name: str, n: int, argv: list[str]) -> Stage:
        stage = measure(name, n, argv, work=work, limit_mb=args.rss_limit_gb * 1024, timeout_s=args.stage_timeout)
        print(f"  {name}: {stage.wall_s:.1f} s wall, {stage.cpu_s:.1f} CPU s, {stage.rss_mb:.0f} MB "
              f"{stage.note}", flush=True)
        return stage

    n = args.queries
    db = work / "million.sqlite"
    started = time.perf_counter()
    build_database(db, n // 4)
    print(f"database: {n // 4:,} customers in {time.perf_counter() - started:.1f} s", flush=True)
    sql, text = write_templates(work)
    rows: list[tuple[Stage, Stage | None]] = []
    rows.append((m("gen", n, ragdx("gen", "--db", f"sqlite:///{db}", "--sql", str(sql), "--text", str(text),
                                   "-o", "ds", "--n", "2", "--max-groups-per-template", "0")),
                 m("gen floor: bare GROUP BY", n, floor("gen", str(db)))))
    ds = work / "ds"
    call = ["--callable", "million:answer", "--name", "trivial", "--no-progress", "--no-probe", "-j", "16"]
    rows.append((m("run, trivial callable, local", n, ragdx("run", "-d", "ds", "-o", "run-local", *call)),
                 m("run floor: plain loop", n, floor("run", "ds", "floor.jsonl"))))
    if args.ray_queries:
        head_dataset(ds, work / "ds-ray", args.ray_queries)
        base = m("run floor: plain loop (Ray's count)", args.ray_queries, floor("run", "ds-ray", "floor-ray.jsonl"))
        for workers in (1, 2):
            rows.append((m(f"run, trivial callable, Ray {workers} worker{'s' * (workers > 1)}", args.ray_queries,
                           ragdx("run", "-d", "ds-ray", "-o", f"run-ray{workers}", *call, "--executor", "ray",
                                 "--workers", str(workers))), base))
    if args.builtin_queries:
        small = head_dataset(ds, work / "ds-builtin", args.builtin_queries)
        spec = write_pipeline(work, small)
        rows.append((m("run, built-in keyword + extractive, local", args.builtin_queries,
                       ragdx("run", "-d", "ds-builtin", "-o", "run-builtin", "--system", str(spec), "--no-progress",
                             "--no-probe")), None))
    rows.append((m("evaluate", n, ragdx("evaluate", "run-local")),
                 m("evaluate floor: read both, exact match", n, floor("evaluate", "ds", "run-local"))))
    report = m("report", n, ragdx("report", "run-local", "-o", "report.html"))
    size = (work / "report.html").stat().st_size if (work / "report.html").exists() else 0
    rows.append((report, m("report floor: read evaluation, write as many bytes", n,
                           floor("report", "run-local/evaluation", str(size), "floor.html"))))
    return rows


def profile(args: argparse.Namespace, work: Path) -> tuple[str, float]:
    """The local trivial run again under cProfile; the top of it and the manifest refresh's share."""
    out = work / "run.prof"
    argv = floor("profiled", str(out), "run", "-d", "ds", "-o", "run-profiled", "--callable", "million:answer",
                 "--name", "trivial", "--no-progress", "--no-probe", "-j", "16")
    stage = measure("run profiled", args.queries, argv, work=work, limit_mb=args.rss_limit_gb * 1024,
                    timeout_s=args.stage_timeout)
    if not out.exists():  # killed (--stage-timeout, --rss-limit-gb): no profile was written
        return f"# no profile: the profiled run ended early ({stage.note})\n", float("nan")
    return profile_text(out, argv, args.queries, stage.wall_s)


def profile_text(out: Path, argv: list[str], queries: int, wall_s: float) -> tuple[str, float]:
    """The top of the profile ``out`` (cumulative), and the share of the main loop's CPU spent in
    the manifest refreshes it made."""
    import io
    import pstats

    stats = pstats.Stats(str(out))
    raw = stats.stats  # type: ignore[attr-defined]
    loop = sum(v[3] for k, v in raw.items() if k[2] == "_answer_all")
    refresh = sum(v[3] for k, v in raw.items() if k[2] == "_write_manifest")
    # the refreshes the loop makes (the start's and the end's exact summaries are outside it):
    # called by the loop's RefreshPacer.tick (by _answer_all itself before the pacer)
    made = [c for k, v in raw.items() if k[2] == "_write_manifest"
            for caller, c in v[4].items() if caller[2] in ("_answer_all", "tick")]
    inside = sum(c[3] for c in made)
    calls = sum(c[0] for c in made)
    share = 100 * inside / loop if loop else float("nan")
    text = io.StringIO()
    stats.stream = text  # type: ignore[attr-defined]
    stats.sort_stats("cumulative").print_stats(45)
    head = (f"# cProfile (CPU time) of `ragdx run` (trivial callable, local executor), {queries:,} queries\n"
            f"# command: {shlex.join(argv)} (in the benchmark's work directory)\n"
            f"# CPU: {cpu_model()}; wall {wall_s:.1f} s under the profiler; load average "
            f"{' / '.join(f'{x:.1f}' for x in os.getloadavg())} at the end\n"
            f"# _answer_all (the main loop) cumulative {loop:.2f} CPU s; _write_manifest called from it "
            f"{calls} times, {inside:.3f} s = {share:.2f} % of the loop; "
            f"_write_manifest in all (with the start's and the end's exact summaries) {refresh:.3f} s\n")
    return head + "\n" + "\n".join(line.rstrip() for line in text.getvalue().splitlines()) + "\n", share


def refresh_cost(records: int, times: int = 20) -> tuple[float, float]:
    """CPU seconds of one manifest refresh with ``records`` answered: as the runner makes it now
    (the tally kept per record) and walking every record with exact percentiles (the refresh as
    it was before the tally, and as it is still made once at a run's end)."""
    import random

    from ragdx.rag.rundir import Manifest, ResultsScan, RunTally
    from ragdx.rag.types import SystemInput

    rng = random.Random(0)
    inputs = [SystemInput(id=f"r{k:07d}", query="q") for k in range(records)]
    scan = ResultsScan()
    for i in inputs:
        scan.add({"id": i.id, "answer": "a", "error": None, "latency_s": rng.lognormvariate(-9, 1),
                  "prompt_tokens": 0, "completion_tokens": 0, "llm": None})
    tally = RunTally(inputs, scan)
    manifest = Manifest(system={"name": "s", "config": {}}, dataset={}, status="running")
    with tempfile.TemporaryDirectory() as tmp:
        manifest.summarise(tally)  # warm: the first call imports what the LLM usage summary needs
        manifest.write(tmp)
        costs = []
        for exact, n in ((False, times), (True, 2)):
            started = time.process_time()
            for _ in range(n):
                manifest.summarise(tally, exact=exact)
                manifest.write(tmp)
            costs.append((time.process_time() - started) / n)
    return costs[0], costs[1]


def load_cost(dataset: str) -> str:
    """CPU s and peak RSS of reading a dataset as ``ragdx run`` does (``_load_dataset``: every
    record checked, (id, query) kept), in this process; the ragdx imported is whichever
    ``PYTHONPATH`` names, so an older checkout can be measured beside this one."""
    import resource

    import ragdx
    from ragdx.rag import runner

    before = time.process_time()
    inputs, info = runner._load_dataset(dataset)
    cpu = time.process_time() - before
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return (f"_load_dataset({dataset!r}): {len(inputs):,} records, {cpu:.2f} CPU s, peak RSS {peak:,.0f} MB "
            f"(queries_sha256 {info['queries_sha256'][:12]}, sha256 {info['sha256'][:12]}; ragdx from "
            f"{Path(ragdx.__file__).parent})")


def write_jsonl_cost(rows: int) -> str:
    """CPU s and peak RSS of ``store.write_jsonl`` over ``rows`` result-like rows made one at a
    time (the rows themselves are never all held), in this process; the baseline is the RSS just
    before the call; ragdx from ``PYTHONPATH`` as in :func:`load_cost`."""
    import resource

    import ragdx
    from ragdx.store import write_jsonl

    def make():
        for k in range(rows):
            yield {"id": f"r{k:07d}", "query": f"In which city is 'Customer {k:07d}'?",
                   "answer": f"City {k % 5000:04d}",
                   "contexts": [{"id": f"Customer:{k}", "text": f"Customer {k:07d} is in City {k % 5000:04d}.",
                                 "score": 0.5}], "latency_s": 0.0125}

    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    with tempfile.TemporaryDirectory() as tmp:
        before = time.process_time()
        write_jsonl(Path(tmp) / "rows.jsonl", make())
        cpu = time.process_time() - before
        size = (Path(tmp) / "rows.jsonl").stat().st_size
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return (f"write_jsonl of {rows:,} rows ({size / 2**20:,.0f} MiB): {cpu:.2f} CPU s, peak RSS {peak:,.0f} MB "
            f"({base:,.0f} MB before the call; ragdx from {Path(ragdx.__file__).parent})")



def table(rows: list[tuple[Stage, Stage | None]]) -> list[str]:
    out = ["| stage | queries | wall s | CPU s | peak RSS MB | floor wall s | floor CPU s | × floor wall "
           "| × floor CPU | note |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for stage, base in rows:
        cells = [stage.name, f"{stage.queries:,}", f"{stage.wall_s:.1f}", f"{stage.cpu_s:.1f}", f"{stage.rss_mb:,.0f}"]
        if base is None:
            cells += ["–"] * 4
        else:
            cells += [f"{base.wall_s:.2f}", f"{base.cpu_s:.2f}", f"{stage.wall_s / base.wall_s:.1f}×",
                      f"{stage.cpu_s / max(base.cpu_s, 1e-3):.1f}×"]
        out.append("| " + " | ".join(cells + [stage.note or ("floor: " + base.note if base and base.note else "")])
                   + " |")
    return out


def main() -> None:
    if sys.argv[1:2] == ["--floor"]:  # a child: a floor, or a profiled ragdx command (its own options)
        FLOORS[sys.argv[2]](*sys.argv[3:])
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", type=int, default=1_000_000, help="records in the dataset (a multiple of 4)")
    ap.add_argument("--builtin-queries", type=int, default=300, help="0: no built-in pipeline run")
    ap.add_argument("--ray-queries", type=int, default=5_000, help="0: no Ray runs")
    ap.add_argument("--work", type=Path, help="work directory (kept); default: a temporary one, deleted")
    ap.add_argument("--rss-limit-gb", type=float, default=6.0)
    ap.add_argument("--stage-timeout", type=float, default=1800.0)
    ap.add_argument("--profile", type=Path, help="write the local run's cProfile summary here")
    ap.add_argument("--out", type=Path, help="write the table (markdown) here")
    ap.add_argument("--refresh-only", action="store_true",
                    help="only the CPU of one manifest refresh with --queries records answered")
    ap.add_argument("--load-only", metavar="DATASET",
                    help="only the CPU and peak RSS of reading DATASET as `ragdx run` does")
    ap.add_argument("--write-jsonl-only", type=int, metavar="ROWS",
                    help="only the CPU and peak RSS of store.write_jsonl over ROWS rows")
    args = ap.parse_args()
    if args.load_only or args.write_jsonl_only:
        print(load_cost(args.load_only) if args.load_only else write_jsonl_cost(args.write_jsonl_only))
        print(f"CPU: {cpu_model()}; load average {os.getloadavg()[0]:.1f}")
        return
    if args.queries < 4 or args.queries % 4:
        ap.error("--queries must be a positive multiple of 4")
    if args.refresh_only:
        now, walk = refresh_cost(args.queries)
        print(f"one manifest refresh with {args.queries:,} records answered: {1000 * now:.2f} ms CPU with the "
              f"tally, {1000 * walk:.0f} ms walking every record (exact); CPU: {cpu_model()}")
        return
    work = args.work or Path(tempfile.mkdtemp(prefix="ragdx-million-"))
    work.mkdir(parents=True, exist_ok=True)
    load = os.getloadavg()[0]
    try:
        rows = stages(args, work)
        share = None
        if args.profile:
            text, share = profile(args, work)
            args.profile.write_text(text, encoding="utf-8")
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    command = "OMP_WAIT_POLICY=passive HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/million.py " + \
        shlex.join(sys.argv[1:])
    lines = [f"# The whole job at {args.queries:,} queries: gen → run → evaluate → report", "",
             f"Command: `{command}`", "",
             f"CPU: {cpu_model()}, {os.cpu_count()} cores; load average {load:.1f} before, "
             f"{os.getloadavg()[0]:.1f} after; Python {platform.python_version()}", "", *table(rows), ""]
    if share is not None:
        lines += [f"Manifest refresh inside the run's main loop: {share:.2f} % of its CPU (cProfile, "
                  f"`{args.profile}`).", ""]
    print("\n".join(lines))
    if args.out:
        args.out.write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main()
