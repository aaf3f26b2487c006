"""The sequential drift monitor on in-domain out-of-knowledge questions, on the default statistic.

    OMP_WAIT_POLICY=passive HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/relevance_drift_indomain.py \
        --corpus benchmarks/corpora/kestrel --db benchmarks/corpora/kestrel/kestrel.sqlite \
        [--trials 200] [--windows 50] [--window 15] [--share 0.2] [--start 10] [--no-energy] [--out FILE]

Questions are made by ragdx from the corpus's database and split by the writer's truth
(``relevance_indomain.classify``): in-knowledge, entity absent, fact absent. Each question's links
score is computed once by the evidence linker (``LinkStatistic``, the tester's default statistic for
a question given with its record); questions the linker cannot score (no links evidence; the
monitor leaves them out of its sequence) are dropped and counted. With embeddings, the Energy
statistic of every question too (the paper's statistic, for contrast).

Per trial: the in-knowledge questions' semantic groups are split in half at random (no paraphrase
on both sides); the first half's scores are the monitor's reference (the tester's calibration), a
log of ``windows x window`` questions is drawn from the second half without replacement (with
replacement only when the half is smaller: said in the output). Clean log: those questions. Drifting
log: from window ``start`` on, ``share`` of each window's questions are replaced by out-of-knowledge
ones (entity absent and fact absent pooled, and each alone; without replacement while the set
lasts). The monitor is ``SequentialMonitor(reference, statistic="links")`` (what
``SequentialMonitor(tester).run(..., records=)`` and ``ragdx relevance monitor --db`` read), horizon
= the log, alpha 0.05, its threshold raised by 200 simulated clean logs. Delay counts windows from
the first drifting one (0: the alarm fell in it), so "within 10 windows" is delay <= 9; a miss
counts as an infinite delay in the percentiles.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "benchmarks"))

CLASSES = ("entity_absent", "fact_absent")


def question_statistics(args: argparse.Namespace) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, object]]:
    """Per statistic (links; energy unless ``--no-energy``) and class: the questions' values, the
    in-knowledge ones with their semantic groups (``groups``)."""
    import blame_truth as bt
    from relevance_indomain import classify

    from ragdx.relevance.links import LinkStatistic

    world, _ = bt.load_world(args.corpus, args.db, args.work, args.max_groups, 0, 0)
    classes = classify(world)
    linker = LinkStatistic(sorted(world.docs.items()))
    links = {c: linker.scores([r.raw for r in recs], f"sqlite:///{world.db}") for c, recs in classes.items()}
    out: dict[str, dict[str, np.ndarray]] = {"links": {}}
    info: dict[str, object] = {"counts": {c: len(v) for c, v in classes.items()},
                               "unscored": {c: int((~np.isfinite(v)).sum()) for c, v in links.items()}}
    groups = np.array([r.group_id for r in classes["in_knowledge"]])
    keep = {c: np.isfinite(v) for c, v in links.items()}
    for c, v in links.items():
        out["links"][c] = v[keep[c]]
    out["links"]["groups"] = groups[keep["in_knowledge"]]
    if not args.no_energy:
        from ragdx.embed import Embedder
        from ragdx.relevance.statistics import STATISTICS
        from ragdx.relevance.tester import RelevanceTester

        embedder = Embedder()
        corpus = embedder.embed([t for _, t in sorted(world.docs.items())])
        ik = embedder.embed([r.query for r in classes["in_knowledge"]])
        tester = RelevanceTester().fit(corpus, ik[:250])  # any calibration: statistics ignore it
        j = STATISTICS.index("energy")
        out["energy"] = {"in_knowledge": tester.statistics(ik)[:, j], "groups": groups}
        for c in CLASSES:
            if classes[c]:
                out["energy"][c] = tester.statistics(embedder.embed([r.query for r in classes[c]]))[:, j]
    return out, info


def split_log(rng: np.random.Generator, values: dict[str, np.ndarray], args: argparse.Namespace,
              flags: set[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(reference, clean log, the same log's slot order): half the groups are the reference."""
    groups = values["groups"]
    names = np.unique(groups)
    cal = set(rng.choice(names, names.size // 2, replace=False).tolist())
    in_cal = np.array([g in cal for g in groups])
    reference, pool = values["in_knowledge"][in_cal], values["in_knowledge"][~in_cal]
    n = args.windows * args.window
    if pool.size < n:
        flags.add(f"log pool {pool.size} < {n}: drawn with replacement")
    return reference, pool[rng.choice(pool.size, n, replace=pool.size < n)], np.arange(n)


def drifted(rng: np.random.Generator, log: np.ndarray, ook: np.ndarray, args: argparse.Namespace,
            flags: set[str], name: str) -> np.ndarray:
    """The clean log with ``share`` of every window from ``start`` on replaced by ``ook`` values."""
    per = int(round(args.share * args.window))
    need = per * (args.windows - args.start)
    if ook.size < need:
        flags.add(f"{name}: {ook.size} questions < {need} needed: drawn with replacement")
    drawn = ook[rng.choice(ook.size, need, replace=ook.size < need)]
    out = log.copy()
    for k, w in enumerate(range(args.start, args.windows)):
        out[w * args.window + rng.choice(args.window, per, replace=False)] = drawn[k * per:(k + 1) * per]
    return out


def measure(stats: dict[str, dict[str, np.ndarray]], args: argparse.Namespace) -> list[tuple]:
    """(statistic, log, alarm windows (None: no alarm), flags) per statistic and scenario."""
    from ragdx.relevance.sequential import SequentialMonitor

    rows = []
    for stat, values in stats.items():
        pools = {c: values[c] for c in CLASSES if c in values and values[c].size}
        if len(pools) == 2:
            pools = {"pooled": np.concatenate([pools[c] for c in CLASSES]), **pools}
        found: dict[str, list[int | None]] = {"clean": [], **{c: [] for c in pools}}
        flags: set[str] = set()
        for trial in range(args.trials):
            rng = np.random.default_rng(args.seed + trial)
            reference, log, _ = split_log(rng, values, args, flags)
            monitor = SequentialMonitor(reference, alpha=args.alpha, statistic="links" if stat == "links" else
                                        "energy", seed=trial, break_ties=args.break_ties)
            for name in found:
                run_log = log if name == "clean" else drifted(rng, log, pools[name], args, flags, name)
                at = monitor.run(run_log).alarm_at
                found[name].append(None if at is None else at // args.window)
        rows += [(stat, name, alarms, sorted(flags)) for name, alarms in found.items()]
    return rows


def render(rows: list[tuple], info: dict[str, object], args: argparse.Namespace, seconds: float) -> str:
    from relevance_drift import _wilson

    name = args.corpus.name
    lines = [f"### {name}", "",
             f"Questions by the writer's truth {info['counts']}; unscored by the linker (dropped) {info['unscored']}. "
             f"{args.trials} trials, {args.windows} windows of {args.window}, drift {args.share:.0%} from window "
             f"{args.start}, alpha {args.alpha}, seeds {args.seed}..{args.seed + args.trials - 1}; {seconds:.0f} s.",
             "", "| statistic | log | alarms | share with an alarm [95 % Wilson] | within 10 windows | median delay | "
             "90th pct delay | alarms before the drift |", "|---|---|---:|---|---:|---:|---:|---:|"]
    for stat, log, alarms, flags in rows:
        n = len(alarms)
        hits = [a for a in alarms if a is not None]
        share, lo, hi = _wilson(len(hits), n)
        label = "Energy" if stat != "links" else "links, ties broken" if args.break_ties else "links (default)"
        if log == "clean":
            lines.append(f"| {label} | clean | {len(hits)} / {n} | {share:.3f} [{lo:.3f}, {hi:.3f}] | – | – | – | – |")
            continue
        early = sum(a < args.start for a in hits)
        delays = np.array([np.inf if a is None or a < args.start else a - args.start for a in alarms])
        after = int(np.isfinite(delays).sum())
        within = float((delays <= 9).mean())

        def pct(q: float, delays: np.ndarray = delays) -> str:
            v = np.percentile(delays, q)
            return "miss" if not np.isfinite(v) else f"{v:.0f}"

        lines.append(f"| {label} | {args.share:.0%} {log.replace('_', ' ')} | {after} / {n} after | "
                     f"{after / n:.3f} | {within:.3f} | {pct(50)} | {pct(90)} | {early} |")
        if flags and log == "pooled":
            lines.append(f"|  | note | {'; '.join(flags)} | | | | | |")
    return "\n".join(lines) + "\n"


def main() -> None:
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, required=True)
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("--max-groups", type=int, default=10)
    ap.add_argument("--trials", type=int, default=200)
    ap.add_argument("--windows", type=int, default=50)
    ap.add_argument("--window", type=int, default=15)
    ap.add_argument("--share", type=float, default=0.2)
    ap.add_argument("--start", type=int, default=10, help="first drifting window")
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--break-ties", action="store_true", help="SequentialMonitor(break_ties=True)")
    ap.add_argument("--no-energy", action="store_true", help="the links statistic only (no embeddings)")
    ap.add_argument("--work", type=Path, default=Path("/tmp/ragdx-relevance-drift-indomain"))
    ap.add_argument("--out", type=Path, help="append the table to this file")
    args = ap.parse_args()
    args.corpus, args.db = args.corpus.resolve(), args.db.resolve()
    if (args.corpus / "HELD_OUT").exists() and not os.environ.get("RAGDX_HELD_OUT_RUN"):
        sys.exit(f"{args.corpus} is held out: the lead runs it once (set RAGDX_HELD_OUT_RUN=1)")
    args.work = args.work / args.corpus.name
    args.work.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    stats, info = question_statistics(args)
    text = render(measure(stats, args), info, args, time.perf_counter() - started)
    print(text, flush=True)
    from relevance_drift import cpu_model

    print(f"CPU {cpu_model()}, load (1 min) {os.getloadavg()[0]:.1f}", file=sys.stderr)
    if args.out:
        with args.out.open("a", encoding="utf-8") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
