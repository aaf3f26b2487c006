"""GRAMMAR-Eval at scale: 1,000,000 synthetic judged queries in 100,000 semantic groups.

Tags, every metric, per-query module blame counts, a 1,000-resample bootstrap over groups for
one run and for the short-vs-long difference. Queries are held as numpy columns (a million
``Judgement`` objects would measure Python object creation, not the evaluation); the group-level
statistics are the same ``GroupStats`` the library computes from ``Judgement`` records.

    OMP_WAIT_POLICY=passive .venv/bin/python benchmarks/evaluate_scale.py [--queries N] [--groups G]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from ragdx.evaluate.stats import (
    bootstrap_difference,
    bootstrap_metrics,
    group_stats_from_arrays,
)


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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--queries", type=int, default=1_000_000)
    ap.add_argument("--groups", type=int, default=100_000)
    ap.add_argument("--boot", type=int, default=1000)
    args = ap.parse_args()
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
