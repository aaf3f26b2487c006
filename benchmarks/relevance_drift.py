"""Drift monitors on logs of real questions: false alarms on clean logs, detection delay on drifting ones.

    OMP_WAIT_POLICY=passive HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/relevance_drift.py \
        [--trials 200] [--windows 50] [--share 0.2] [--out benchmarks/results/relevance_drift.md]

Setting 1 of the knowledge-boundary data (../shared/data/knowledge-boundary): the PubMedQA contexts
are the corpus; the 1,000 PubMedQA questions are in-knowledge. The energy statistic of every
question is computed once (the tester's statistics depend on a query and the corpus only). Each
trial draws, without replacement, a random reference of 250 in-knowledge questions (the
calibration) and a log of the other 750 in arrival order, cut into ``--windows`` windows:

* clean: the 750 in-knowledge questions;
* drift: from window 10 on, a ``--share`` of each window's questions replaced by out-of-knowledge
  ones (MedMCQA: medical, near the corpus's topic; TruthfulQA: far), drawn without replacement.

No question appears twice in a log or on both sides (a resampled log would repeat a few hundred
questions, and any monitor that accumulates evidence would then measure the pool, not drift).

Monitors: the sliding-window KS test with Holm across the log's windows (``DriftMonitor``, window =
step = 750 / windows) and the sequential monitor (``SequentialMonitor``: Shiryaev-Roberts on
conformal e-values, horizon = the log). A false alarm is any alarm in a clean log; the delay is
counted in windows from the first drifting one; a miss is no alarm by the end of the log.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown CPU"


def statistics(data: Path) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Energy statistics of the in-knowledge questions and of each out-of-knowledge set."""
    from ragdx.embed import Embedder
    from ragdx.relevance.bench import read_corpus, read_questions
    from ragdx.relevance.statistics import STATISTICS
    from ragdx.relevance.tester import RelevanceTester

    embedder = Embedder()
    corpus = embedder.embed(read_corpus(data / "corpus_pubmedqa_pqal_contexts.jsonl"))
    ik = read_questions(data / "pubmedqa_pqal_nontest.jsonl") + read_questions(data / "pubmedqa.jsonl")
    ook = {name: read_questions(data / f"{name}.jsonl") for name in ("medmcqa", "truthfulqa")}
    ik_emb = embedder.embed(ik)
    tester = RelevanceTester().fit(corpus, ik_emb[:250])  # any calibration: statistics ignore it
    j = STATISTICS.index(tester.statistic)
    stats_ik = tester.statistics(ik_emb)[:, j]
    stats_ook = {name: tester.statistics(embedder.embed(qs))[:, j] for name, qs in ook.items()}
    return stats_ik, stats_ook


def one_log(rng: np.random.Generator, ik: np.ndarray, ook: np.ndarray | None, windows: int, share: float,
            start: int) -> tuple[np.ndarray, np.ndarray, int]:
    """(reference, log, window size): a random split of the in-knowledge statistics, the log's
    windows from ``start`` on carrying ``share`` out-of-knowledge statistics."""
    order = rng.permutation(ik.size)
    reference, log = ik[order[:250]], ik[order[250:]].copy()
    size = log.size // windows
    log = log[: size * windows]
    if ook is not None:
        per = int(round(share * size))
        drawn = ook[rng.permutation(ook.size)]
        k = 0
        for w in range(start, windows):
            slots = w * size + rng.choice(size, per, replace=False)
            log[slots] = drawn[k:k + per]
            k += per
    return reference, log, size


def run(args: argparse.Namespace) -> str:
    from ragdx.relevance.drift import DriftMonitor
    from ragdx.relevance.sequential import SequentialMonitor

    started = time.perf_counter()
    ik, ook = statistics(Path(args.data))
    rng = np.random.default_rng(args.seed)
    scenarios = [("clean", None)] + [(f"{int(args.share * 100)} % {name} from window {args.start}", stats)
                                     for name, stats in ook.items()]
    rows = []
    for label, pool in scenarios:
        found: dict[str, list[float | None]] = {"KS per window + Holm": [], "sequential (SR, e-values)": []}
        for _ in range(args.trials):
            reference, log, size = one_log(rng, ik, pool, args.windows, args.share, args.start)
            ks = DriftMonitor(reference, window=size, step=size, alpha=args.alpha).run(log)
            seq = SequentialMonitor(reference, alpha=args.alpha).run(log)
            ks_at = None if ks.alarm is None else ks.alarm.start // size
            seq_at = None if seq.alarm_at is None else seq.alarm_at // size
            found["KS per window + Holm"].append(ks_at)
            found["sequential (SR, e-values)"].append(seq_at)
        for monitor, alarms in found.items():
            rows.append((label, monitor, alarms, pool is None))
    lines = [
        "# Drift monitors on logs of real questions",
        "",
        f"`.venv/bin/python benchmarks/relevance_drift.py --trials {args.trials} --windows {args.windows} "
        f"--share {args.share} --start {args.start} --alpha {args.alpha} --seed {args.seed}` on {cpu_model()} "
        f"(Python {platform.python_version()}), {time.perf_counter() - started:.0f} s.",
        "",
        f"Setting 1 (PubMedQA contexts; energy statistic). Per trial: 250 random in-knowledge questions are the "
        f"reference, the other 750 the log ({args.windows} windows of {750 // args.windows}); no question twice. "
        f"Drift: from window {args.start}, {args.share:.0%} of each window's questions are out-of-knowledge. "
        f"alpha = {args.alpha}. Intervals: 95 % Wilson.",
        "",
        "| log | monitor | alarms | share of logs with an alarm | median delay (windows) | 90th pct delay | "
        "alarms before the drift |",
        "|---|---|---:|---|---:|---:|---:|",
    ]
    for label, monitor, alarms, clean in rows:
        n = len(alarms)
        hits = [a for a in alarms if a is not None]
        share, lo, hi = _wilson(len(hits), n)
        if clean:
            lines.append(f"| {label} | {monitor} | {len(hits)} / {n} | {share:.3f} [{lo:.3f}, {hi:.3f}] | – | – | – |")
            continue
        early = sum(a < args.start for a in hits)
        delays = [a - args.start for a in hits if a >= args.start]
        med = f"{np.median(delays):.0f}" if delays else "–"
        p90 = f"{np.percentile(delays, 90):.0f}" if delays else "–"
        lines.append(f"| {label} | {monitor} | {len(hits)} / {n} | {share:.3f} [{lo:.3f}, {hi:.3f}] | {med} | "
                     f"{p90} | {early} |")
    lines += ["", "A clean log's alarm is a false alarm (target: at most alpha). On a drifting log, the delay "
              "counts windows from the first drifting one; an alarm before it is counted apart (a false alarm "
              "in that log)."]
    return "\n".join(lines) + "\n"


def _wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float, float]:
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return p, max(0.0, centre - half), min(1.0, centre + half)


def main() -> None:
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=str(REPO.parent / "shared" / "data" / "knowledge-boundary"))
    ap.add_argument("--trials", type=int, default=200)
    ap.add_argument("--windows", type=int, default=50)
    ap.add_argument("--share", type=float, default=0.2)
    ap.add_argument("--start", type=int, default=10, help="first drifting window")
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    text = run(args)
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
