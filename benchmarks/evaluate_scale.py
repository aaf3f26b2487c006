"""GRAMMAR-Eval at scale: 1,000,000 synthetic judged queries in 100,000 semantic groups.

Tags, every metric, per-query module blame counts, a 1,000-resample bootstrap over groups for
one run and for the short-vs-long difference. Queries are held as numpy columns (a million
``Judgement`` objects would measure Python object creation, not the evaluation); the group-level
statistics are the same ``GroupStats`` the library computes from ``Judgement`` records.

    OMP_WAIT_POLICY=passive .venv/bin/python benchmarks/evaluate_scale.py [--queries N] [--groups G]

``--end-to-end N --from-demo DEMO_OUT --work DIR`` times what a user runs instead: ``evaluate``
on a run directory of N queries (reading the dataset and the run, judging every answer with
the offline cascade, statistics with the bootstrap, lab metrics, writing the evaluation), in a
fresh interpreter so that imports count (``--no-rouge`` leaves ROUGE-L and NLTK's import out).
The run is the demo's ``keyword`` run and dataset repeated with fresh ids and groups until N
queries, written once into DIR (kept between invocations, so the same run can be timed with two
versions of the code: ``PYTHONPATH=old/src`` for the other); the metrics are written to
DIR/metrics-<label>.json for comparison. Repeating the demo repeats its answers ~90 times at
100k, which flatters every per-text cache: ``--distinct`` suffixes each copy's answers so that no
answer repeats (give it its own DIR). ``--profile FILE`` keeps a cProfile of the evaluation.
Each fresh process (``evaluate``, and ``ragdx report`` with ``--report``) reports its peak resident
memory (the kernel's VmHWM); the run is built in a process of its own, so that its memory is not
the parent's while the evaluation is timed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import time
from pathlib import Path

import numpy as np


def synthetic(n: int, groups: int, seed: int = 0):
    """Queries spread over groups; 20 % of groups are knowledge-base gaps (never answered),
    retrieval right with p=0.85 (short) / 0.65 (long), the LM right with p=0.95 given right
    retrieval and p=0.05 otherwise."""
    rng = np.random.default_rng(seed)
    group = np.sort(rng.integers(0, groups, size=n))
    style_long = rng.random(n) < 0.5
    kb_gap = rng.random(groups) < 0.2
    gap_q = kb_gap[group]
    p_ret = np.where(style_long, 0.65, 0.85)
    ret_right = (rng.random(n) < p_ret) & ~gap_q
    correct = np.where(ret_right, rng.random(n) < 0.95, rng.random(n) < 0.05) & ~gap_q
    retrieval = np.where(gap_q, -1, ret_right.astype(np.int8)).astype(np.int8)
    return group, style_long, correct, retrieval


def _letters(k: int) -> str:
    """A copy number written in letters ("a", "b", ..., "ba"): a suffix that tells copies apart
    without adding a number the judges would read as a stated value."""
    out = ""
    while True:
        out = "abcdefghijklmnopqrstuvwxyz"[k % 26] + out
        k //= 26
        if k == 0:
            return out


def build_run(n: int, demo: Path, work: Path, distinct: bool = False) -> Path:
    """DIR/run: the demo's keyword run over its dataset, repeated to ``n`` queries (once). With
    ``distinct`` every copy's answer gets its own suffix ("... (variant bc)"), so that no answer
    text repeats and no per-text cache can flatter the timing."""
    from ragdx.rag.rundir import read_run
    from ragdx.rag.runner import run
    from ragdx.rag.systems import ResultsFileSystem

    run_dir = work / "run"
    if (run_dir / "manifest.json").exists():
        return run_dir
    work.mkdir(parents=True, exist_ok=True)
    records = [json.loads(x) for x in (demo / "dataset" / "records.jsonl").read_text(encoding="utf-8").splitlines()
               if x.strip()]
    outputs = {o.id: o for o in read_run(demo / "runs" / "keyword")}
    (work / "dataset").mkdir(exist_ok=True)
    with (work / "dataset" / "records.jsonl").open("w", encoding="utf-8") as rec, \
            (work / "answers.jsonl").open("w", encoding="utf-8") as ans:
        for k in range(n):
            r = dict(records[k % len(records)])
            copy = k // len(records)
            out = outputs[r["id"]]
            r["id"], r["group_id"] = f"{r['id']}~{copy}", f"{r['group_id']}~{copy}"
            answer = out.answer
            if distinct and answer:
                answer = f"{answer} (variant {_letters(copy)})"
            rec.write(json.dumps(r, ensure_ascii=False) + "\n")
            ans.write(json.dumps({"id": r["id"], "answer": answer, "latency_s": out.latency_s,
                                  "contexts": [{"id": c.id, "text": c.text, "score": c.score} for c in out.contexts]},
                                 ensure_ascii=False) + "\n")
    for name in ("manifest.json",):  # the dataset's manifest (its knowledge base) comes along
        if (demo / "dataset" / name).exists():
            shutil.copy(demo / "dataset" / name, work / "dataset" / name)
    run(ResultsFileSystem(work / "answers.jsonl", name="keyword"), work / "dataset", run_dir, concurrency=64,
        progress=True)
    return run_dir


def child(args: argparse.Namespace) -> None:
    """The timed part, in a fresh interpreter: importing ``evaluate`` (what a cold ``ragdx
    evaluate`` pays) and evaluating; prints one JSON line. ``--profile FILE`` keeps a cProfile."""
    t = time.perf_counter()
    from ragdx.evaluate.report import evaluate

    imported = time.perf_counter() - t
    import ragdx

    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    t = time.perf_counter()
    evaluate(args.child, judge="cascade", n_boot=args.boot, **({"rouge": False} if args.no_rouge else {}))
    took = time.perf_counter() - t
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(args.profile)
    import sys

    heavy = [m for m in ("nltk", "openai", "torch", "transformers", "rouge_score") if m in sys.modules]
    print(json.dumps({"imports_s": imported, "evaluate_s": took, "ragdx": ragdx.__file__, "heavy_imports": heavy,
                      "peak_rss_mb": peak_rss_mb()}))


def peak_rss_mb() -> float:
    """This process's peak resident memory so far (the kernel's high-water mark, VmHWM), in MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def end_to_end(args: argparse.Namespace) -> None:
    import subprocess
    import sys

    t = time.perf_counter()
    run_dir = args.work / "run"
    if not (run_dir / "manifest.json").exists():
        # built in a process of its own: answering from a results file holds every answer (gigabytes
        # at 1M), which this process would otherwise keep beside the evaluation it times
        command = [sys.executable, __file__, "--build-only", "--end-to-end", str(args.end_to_end),
                   "--from-demo", str(args.from_demo), "--work", str(args.work)] + (
                       ["--distinct"] if args.distinct else [])
        subprocess.run(command, check=True)
    built = time.perf_counter() - t
    out = run_dir / "evaluation"  # where `ragdx report` looks for it
    shutil.rmtree(out, ignore_errors=True)
    load = os.getloadavg()[0]
    command = [sys.executable, __file__, "--child", str(run_dir), "--boot", str(args.boot)]
    command += ["--profile", str(args.profile)] if args.profile else []
    command += ["--no-rouge"] if args.no_rouge else []
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # CPU time moves less than wall time with what else the machine runs (2 cores, shared)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        raise SystemExit(f"evaluate failed:\n{done.stderr[-3000:]}")
    timed = json.loads(done.stdout.strip().splitlines()[-1])
    metrics = json.loads((out / "metrics.json").read_text(encoding="utf-8"))
    # what must not change between versions of the code: every number but timings and paths
    for key in ("output", "source", "created", "generated", "elapsed_s", "versions"):
        metrics.pop(key, None)
    (args.work / f"metrics-{args.label}.json").write_text(json.dumps(metrics, sort_keys=True, indent=1),
                                                          encoding="utf-8")
    print(f"# evaluate end to end, {args.end_to_end:,} queries{' (distinct answers)' if args.distinct else ''} "
          f"({args.label}: {timed['ragdx']}); {os.cpu_count()} CPUs, load average {load:.1f} at the start")
    print()
    print("| step | seconds |")
    print("|---|---:|")
    print(f"| building the run directory (not timed below) | {built:.1f} |")
    print(f"| importing `ragdx.evaluate` in a fresh interpreter | {timed['imports_s']:.1f} |")
    print(f"| evaluate: read, cascade judge, statistics + {args.boot}-resample bootstrap, lab metrics, write "
          f"| {timed['evaluate_s']:.1f} |")
    print(f"| **fresh process, start to exit** | **{wall:.1f}** |")
    print(f"| CPU time of that process (user + system) | {cpu:.1f} |")
    print(f"| peak resident memory of that process (VmHWM), MiB | {timed['peak_rss_mb']:.0f} |")
    print()
    print(f"heavy modules imported: {', '.join(timed['heavy_imports']) or 'none'}")
    if args.report:
        from ragdx.report.html import failures_file

        report = args.work / f"report-{args.label}.html"
        # `ragdx report` in a fresh interpreter too, so that its peak memory is its own
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        done = subprocess.run([sys.executable, __file__, "--report-child", str(run_dir), "--work", str(report)],
                              capture_output=True, text=True, check=False)
        took = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise SystemExit(f"report failed:\n{done.stderr[-3000:]}")
        rcpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        rpeak = json.loads(done.stdout.strip().splitlines()[-1])["peak_rss_mb"]
        side = failures_file(report)
        side_mb = side.stat().st_size / 1e6 if side.exists() else 0.0
        print(f"| `ragdx report` (evaluation reused), fresh process: wall / CPU s | {took:.1f} / {rcpu:.1f} |")
        print(f"| peak resident memory of `ragdx report` (VmHWM), MiB | {rpeak:.0f} |")
        load, blank = chromium_load(report), chromium_load(None)
        if load is not None:
            print(f"| headless Chromium, report loaded and laid out (`--dump-dom`), minus a blank page's "
                  f"{blank:.1f} s | {load - blank:.1f} |")
        print()
        print(f"report {report.stat().st_size / 1e6:.2f} MB (+ {side_mb:.1f} MB of {side.name} beside it)")
    print()
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    print(f"evaluation output {size / 1e6:.1f} MB")


def chromium_load(page: Path | None) -> float | None:
    """Seconds for headless Chromium to load ``page`` and print its DOM (None: about:blank);
    the median of 3. None when Chromium is not installed (`make browser`)."""
    import subprocess
    import tempfile

    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary is None:
        return None
    times = []
    for _ in range(3):
        with tempfile.TemporaryDirectory() as profile:
            t = time.perf_counter()
            subprocess.run([binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                            "--disable-background-networking", "--disable-component-update", "--disable-sync",
                            f"--user-data-dir={profile}", "--dump-dom",
                            page.resolve().as_uri() if page else "about:blank"],
                           capture_output=True, timeout=300, check=True)
            times.append(time.perf_counter() - t)
    return sorted(times)[1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--queries", type=int, default=1_000_000)
    ap.add_argument("--groups", type=int, default=100_000)
    ap.add_argument("--boot", type=int, default=1000)
    ap.add_argument("--end-to-end", type=int, default=None, metavar="N",
                    help="time `evaluate` on a run directory of N queries instead")
    ap.add_argument("--from-demo", type=Path, default=Path("demo-out"), help="demo output the run is made from")
    ap.add_argument("--work", type=Path, default=Path("/tmp/ragdx-evaluate-scale"), help="where the run is kept")
    ap.add_argument("--label", default="current", help="names this measurement's metrics file")
    ap.add_argument("--distinct", action="store_true", help="with --end-to-end: every copy's answer made distinct "
                    "(suffixed), so that per-text caches cannot flatter the timing (use its own --work)")
    ap.add_argument("--no-rouge", action="store_true", help="with --end-to-end: leave ROUGE-L out "
                    "(`evaluate --no-rouge`)")
    ap.add_argument("--profile", type=Path, default=None, help="with --end-to-end: write a cProfile of evaluate here")
    ap.add_argument("--child", type=Path, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--report-child", type=Path, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--build-only", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--report", action="store_true", help="with --end-to-end: also time `ragdx report` and "
                    "headless Chromium loading it, and give its size")
    args = ap.parse_args()
    if args.child:
        child(args)
        return
    if args.report_child:
        from ragdx.report import write_report

        write_report([args.report_child], args.work)
        print(json.dumps({"peak_rss_mb": peak_rss_mb()}))
        return
    if args.end_to_end and args.build_only:
        build_run(args.end_to_end, args.from_demo, args.work, distinct=args.distinct)
        return
    if args.end_to_end:
        end_to_end(args)
        return
    from ragdx.evaluate.stats import bootstrap_difference, bootstrap_metrics, group_stats_from_arrays

    rows = []

    def step(name, fn):
        t = time.perf_counter()
        out = fn()
        rows.append((name, time.perf_counter() - t))
        return out

    group, style_long, correct, retrieval = step("generate synthetic records",
                                                 lambda: synthetic(args.queries, args.groups))
    t0 = time.perf_counter()
    stats = step("group statistics (bincount)", lambda: group_stats_from_arrays(group, correct, retrieval,
                                                                                 args.groups))
    tags = step("tags (gap / robust / non-robust)", stats.tags)

    def blame_counts():
        gap_q = stats.gap[group]
        wrong = ~correct
        return {"correct": int(correct.sum()), "kb_gap": int((wrong & gap_q).sum()),
                "retrieval_failure": int((wrong & ~gap_q & (retrieval == 0)).sum()),
                "lm_failure": int((wrong & ~gap_q & (retrieval == 1)).sum())}

    blamed = step("module blame counts", blame_counts)
    boot = step(f"all metrics + {args.boot}-resample bootstrap", lambda: bootstrap_metrics(stats, n_boot=args.boot))

    def styles():
        a = group_stats_from_arrays(group[~style_long], correct[~style_long], retrieval[~style_long], args.groups)
        b = group_stats_from_arrays(group[style_long], correct[style_long], retrieval[style_long], args.groups)
        joint = (a.correct + b.correct) == 0
        return bootstrap_difference(a.with_gap(joint & (a.n > 0)), b.with_gap(joint & (b.n > 0)), n_boot=args.boot)

    diff = step(f"short vs long difference, {args.boot} paired resamples", styles)
    total = time.perf_counter() - t0

    print(f"# evaluate_scale: {args.queries:,} queries, {args.groups:,} groups, {os.cpu_count()} CPUs visible, "
          f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}")
    print()
    print("| step | seconds |")
    print("|---|---:|")
    for name, sec in rows:
        print(f"| {name} | {sec:.2f} |")
    print(f"| **evaluation total (excluding generation)** | **{total:.2f}** |")
    print()
    print(f"tags: {tags}; blame: {blamed}")
    print()
    print("| metric | value | 95 % CI |")
    print("|---|---:|---|")
    for k, v in boot.items():
        print(f"| {k} | {v['value']:.4f} | [{v['ci_low']:.4f}, {v['ci_high']:.4f}] |")
    e = diff["retrieval_refined"]
    print()
    print(f"retrieval-only R, long - short: {e['difference']:+.4f} [{e['ci_low']:+.4f}, {e['ci_high']:+.4f}]")


if __name__ == "__main__":
    main()
