"""Group-level sufficient statistics, the GRAMMAR metrics computed from them, a bootstrap that
resamples semantic groups (vectorised with numpy), paired tests and Wilson intervals.

Every metric of the protocol is a ratio of sums over groups, so a group is summarised by a few
counts (queries, correct answers, retrieval judged / correct, ...) and its tag. Resampling
groups with replacement then only needs weighted sums: ``W @ S`` with ``W`` the resample counts
(resamples x groups) and ``S`` the statistics (groups x columns). A million queries in 100,000
groups is a 100,000 x 11 matrix, whatever the number of queries per group.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

#: columns of the statistics matrix
COLUMNS = ("groups", "gap", "n", "correct", "n_nongap", "ret_known", "ret_correct", "ret_known_nongap",
           "ret_correct_nongap", "lm_n", "lm_correct", "kb_known", "kb_supported")
_C = {name: i for i, name in enumerate(COLUMNS)}

#: the metrics, in report order
METRIC_NAMES = ("accuracy", "refined_accuracy", "gap_share", "acc_retrieval_db", "kb_coverage",
                "retrieval_accuracy", "retrieval_refined", "lm_accuracy_given_retrieval")


@dataclass(init=False)
class GroupStats:
    """Per-group counts. ``n``: queries; ``correct``: correct answers; ``ret_known`` / ``ret_correct``:
    queries whose retrieval could be judged / was right; ``lm_n`` / ``lm_correct``: queries with
    right retrieval / of those answered correctly. ``gap``: the group is a gap group (answer-based:
    no query answered). ``kb_known`` / ``kb_supported``: 1 where the knowledge base's content is known
    for the group / it states the group's facts (the true coverage, not inferred from answers)."""

    group_ids: np.ndarray
    n: np.ndarray
    correct: np.ndarray
    ret_known: np.ndarray
    ret_correct: np.ndarray
    lm_n: np.ndarray
    lm_correct: np.ndarray
    gap: np.ndarray
    kb_known: np.ndarray
    kb_supported: np.ndarray

    def __init__(self, group_ids: np.ndarray, n: np.ndarray, correct: np.ndarray, ret_known: np.ndarray,
                 ret_correct: np.ndarray, lm_n: np.ndarray, lm_correct: np.ndarray, gap: np.ndarray | None = None,
                 kb_known: np.ndarray | None = None, kb_supported: np.ndarray | None = None) -> None:
        """``gap`` defaults to the answer-based tag, ``kb_known`` / ``kb_supported`` to zeros."""
        self.group_ids, self.n, self.correct = group_ids, n, correct
        self.ret_known, self.ret_correct, self.lm_n, self.lm_correct = ret_known, ret_correct, lm_n, lm_correct
        self.gap = (correct == 0) & (n > 0) if gap is None else gap
        self.kb_known = np.zeros(len(group_ids)) if kb_known is None else kb_known
        self.kb_supported = np.zeros(len(group_ids)) if kb_supported is None else kb_supported

    def __len__(self) -> int:
        return len(self.group_ids)

    def matrix(self) -> np.ndarray:
        """groups x COLUMNS (float64); groups without queries count for nothing."""
        present = (self.n > 0).astype(np.float64)
        gap = self.gap.astype(np.float64) * present
        keep = 1.0 - gap
        # the LM's accuracy where retrieval was right is the plain conditional rate: a group tagged
        # "gap" from its answers whose evidence was retrieved is exactly an LM failure, so removing
        # gap groups there would hide the failures the metric exists to count
        cols = [present, gap, self.n, self.correct, self.n * keep, self.ret_known, self.ret_correct,
                self.ret_known * keep, self.ret_correct * keep, self.lm_n, self.lm_correct,
                self.kb_known * present, self.kb_supported * present]
        return np.column_stack([np.asarray(c, dtype=np.float64) for c in cols])

    def with_gap(self, gap: np.ndarray) -> GroupStats:
        return GroupStats(self.group_ids, self.n, self.correct, self.ret_known, self.ret_correct, self.lm_n,
                          self.lm_correct, np.asarray(gap, dtype=bool), self.kb_known, self.kb_supported)

    def tags(self) -> dict[str, int]:
        present = self.n > 0
        robust = present & (self.correct == self.n)
        gap = present & self.gap
        return {"groups": int(present.sum()), "gap": int(gap.sum()), "robust": int((robust & ~gap).sum()),
                "non_robust": int((present & ~robust & ~gap).sum())}


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


def metrics_from_sums(sums: np.ndarray) -> dict[str, np.ndarray]:
    """Metrics from column sums (shape (..., len(COLUMNS)))."""
    s = {name: sums[..., i] for name, i in _C.items()}
    return {
        "accuracy": _ratio(s["correct"], s["n"]),
        "refined_accuracy": _ratio(s["correct"], s["n_nongap"]),
        "gap_share": _ratio(s["n"] - s["n_nongap"], s["n"]),
        "acc_retrieval_db": 1.0 - _ratio(s["gap"], s["groups"]),
        # the true share of groups whose facts the knowledge base states, where that is known
        "kb_coverage": _ratio(s["kb_supported"], s["kb_known"]),
        "retrieval_accuracy": _ratio(s["ret_correct"], s["ret_known"]),
        "retrieval_refined": _ratio(s["ret_correct_nongap"], s["ret_known_nongap"]),
        "lm_accuracy_given_retrieval": _ratio(s["lm_correct"], s["lm_n"]),
    }


def point_metrics(stats: GroupStats) -> dict[str, float]:
    m = metrics_from_sums(stats.matrix().sum(axis=0))
    return {k: float(v) for k, v in m.items()}


def resample_weights(n_groups: int, n_boot: int, rng: np.random.Generator, chunk: int = 64
                     ) -> Iterator[np.ndarray]:
    """Yield (chunk x groups) matrices of bootstrap counts: each row draws ``n_groups`` groups
    with replacement (a multinomial draw, made as uniform indices + bincount)."""
    done = 0
    while done < n_boot:
        b = min(chunk, n_boot - done)
        idx = rng.integers(0, n_groups, size=(b, n_groups), dtype=np.int64)
        idx += (np.arange(b, dtype=np.int64) * n_groups)[:, None]
        yield np.bincount(idx.ravel(), minlength=b * n_groups).reshape(b, n_groups).astype(np.float64)
        done += b


#: at most this many resample counts (n_boot x groups) are kept for the next bootstrap (one byte each)
_KEEP_COUNTS = 64_000_000
_kept: dict[tuple[int, int, int], list[np.ndarray]] = {}


def _resamples(n_groups: int, n_boot: int, seed: int) -> Iterator[np.ndarray]:
    """``resample_weights(n_groups, n_boot, default_rng(seed))``, chunk by chunk. One evaluation
    bootstraps the same groups with the same seed up to six times (each style, all styles, the
    style test): drawing the resamples was most of a bootstrap's time, so the last set drawn is
    kept (as small integers, the same counts) and handed out again."""
    key = (n_groups, n_boot, seed)
    kept = _kept.get(key)
    if kept is not None:
        for counts in kept:
            yield counts.astype(np.float64)
        return
    chunks = []
    keep = n_groups * n_boot <= _KEEP_COUNTS
    for weights in resample_weights(n_groups, n_boot, np.random.default_rng(seed)):
        # a group drawn more than 255 times (only possible among few groups) is not kept in a byte
        if keep and weights.size and weights.max() > 255:
            keep = False
        if keep:
            chunks.append(weights.astype(np.uint8))
        yield weights
    if keep:
        _kept.clear()
        _kept[key] = chunks


def bootstrap_sums(matrices: Sequence[np.ndarray], n_boot: int = 1000, seed: int = 0) -> list[np.ndarray]:
    """For each (groups x columns) matrix — all over the same groups — the (n_boot x columns)
    sums under the same group resamples."""
    n_groups = matrices[0].shape[0]
    out: list[list[np.ndarray]] = [[] for _ in matrices]
    stacked = np.concatenate(matrices, axis=1) if len(matrices) > 1 else matrices[0]
    widths = np.cumsum([0] + [m.shape[1] for m in matrices])
    for weights in _resamples(n_groups, n_boot, seed):
        sums = weights @ stacked
        for i in range(len(matrices)):
            out[i].append(sums[:, widths[i]:widths[i + 1]])
    return [np.concatenate(o, axis=0) for o in out]


def interval(samples: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    finite = samples[np.isfinite(samples)]
    if finite.size == 0:
        return (math.nan, math.nan)
    lo, hi = np.percentile(finite, [(1 - level) / 2 * 100, (1 + level) / 2 * 100])
    return float(lo), float(hi)


def bootstrap_metrics(stats: GroupStats, n_boot: int = 1000, seed: int = 0, level: float = 0.95
                      ) -> dict[str, dict[str, float]]:
    """Point value and percentile interval of every metric, resampling groups."""
    mat = stats.matrix()
    point = metrics_from_sums(mat.sum(axis=0))
    (sums,) = bootstrap_sums([mat], n_boot, seed)
    boot = metrics_from_sums(sums)
    out = {}
    for name in point:
        lo, hi = interval(boot[name], level)
        out[name] = {"value": float(point[name]), "ci_low": lo, "ci_high": hi}
    return out


def bootstrap_difference(a: GroupStats, b: GroupStats, n_boot: int = 1000, seed: int = 0, level: float = 0.95
                         ) -> dict[str, dict[str, float]]:
    """B − A for every metric; ``a`` and ``b`` must list the same groups in the same order
    (a group missing from one side has zero counts there). Groups are resampled jointly."""
    if not np.array_equal(a.group_ids, b.group_ids):
        raise ValueError("both sides must be over the same groups in the same order")
    ma, mb = a.matrix(), b.matrix()
    pa, pb = metrics_from_sums(ma.sum(axis=0)), metrics_from_sums(mb.sum(axis=0))
    sa, sb = bootstrap_sums([ma, mb], n_boot, seed)
    ba, bb = metrics_from_sums(sa), metrics_from_sums(sb)
    out = {}
    for name in pa:
        diff = bb[name] - ba[name]
        lo, hi = interval(diff, level)
        finite = diff[np.isfinite(diff)]
        # two-sided bootstrap p: how often the resampled difference crosses zero
        p = (min(1.0, 2 * min((finite <= 0).mean(), (finite >= 0).mean())) if finite.size else math.nan)
        out[name] = {"a": float(pa[name]), "b": float(pb[name]), "difference": float(pb[name] - pa[name]),
                     "ci_low": lo, "ci_high": hi, "bootstrap_p": float(p)}
    return out


def wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval for k successes out of n."""
    if n == 0:
        return (math.nan, math.nan)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def mcnemar(a: Sequence[bool], b: Sequence[bool]) -> dict[str, Any]:
    """Exact McNemar test on paired booleans (same queries under two systems)."""
    from scipy.stats import binomtest

    only_a = sum(1 for x, y in zip(a, b, strict=True) if x and not y)
    only_b = sum(1 for x, y in zip(a, b, strict=True) if y and not x)
    n = only_a + only_b
    p = 1.0 if n == 0 else float(binomtest(only_a, n, 0.5).pvalue)
    return {"test": "McNemar exact (paired queries)", "only_a": only_a, "only_b": only_b, "pairs": len(a),
            "p_value": p}


def wilcoxon_groups(a: np.ndarray, b: np.ndarray) -> dict[str, Any]:
    """Wilcoxon signed-rank test on per-group values of two sides (pairs = groups)."""
    mask = np.isfinite(a) & np.isfinite(b)
    d = b[mask] - a[mask]
    nonzero = int((d != 0).sum())
    if nonzero == 0:
        p = 1.0
    else:
        p = wilcoxon_p(a[mask], b[mask])
    return {"test": "Wilcoxon signed-rank (paired semantic groups)", "pairs": int(mask.sum()),
            "nonzero": nonzero, "p_value": p}


#: up to this many pairs the ranks' cubed tie counts sum exactly in float64 (n**3 < 2**53)
_EXACT_PAIRS = 200_000


def wilcoxon_p(x: np.ndarray, y: np.ndarray) -> float:
    """``scipy.stats.wilcoxon(x, y, zero_method="wilcox", method="auto").pvalue`` (two-sided, no
    continuity correction), computed here for more than 50 pairs, where scipy uses the normal
    approximation: importing ``scipy.stats`` was ~0.6 s of a 100k-query evaluation, and
    ``scipy.special.ndtr`` is all the approximation needs. Every rank (average ranks: integers or
    halves), rank sum and tie count is exact in float64 whatever the order of summation, so the
    statistic is scipy's to the bit, and the expressions from there are scipy's (1.17,
    ``stats/_wilcoxon.py``). Zeros are dropped (scipy makes them NaN, which rank after every
    number and count nowhere). 50 pairs or fewer (an exact or permutation test) and very many: scipy
    itself. ``tests/test_stats_wilcoxon.py`` holds the two equal bit for bit on varied inputs."""
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if x.size <= 50 or x.size > _EXACT_PAIRS:
        from scipy.stats import wilcoxon

        return float(wilcoxon(x, y, zero_method="wilcox", method="auto").pvalue)
    from scipy.special import ndtr

    d = x - y
    d = d[d != 0]
    count = np.float64(d.size)
    magnitude = np.abs(d)
    order = np.argsort(magnitude, kind="stable")
    ranked = magnitude[order]
    first = np.concatenate(([True], ranked[:-1] != ranked[1:]))
    starts = np.flatnonzero(first)
    ties = np.diff(starts, append=ranked.size).astype(np.float64)
    ranks = np.empty(d.size, dtype=np.float64)
    ranks[order] = np.repeat((starts + 1).astype(np.float64) + (ties - 1) / 2, ties.astype(np.int64))
    r_plus = np.sum((d > 0).astype(np.float64) * ranks)
    mn = count * (count + 1.) * 0.25
    se = count * (count + 1.) * (2. * count + 1.)
    se = np.sqrt((se - np.sum(ties ** 3 - ties) / 2) / 24)
    z = (r_plus - mn) / se
    return float(2 * ndtr(-np.abs(z)))


def group_stats_from_arrays(group: np.ndarray, correct: np.ndarray, retrieval: np.ndarray | None = None,
                            n_groups: int | None = None) -> GroupStats:
    """Columnar path for large evaluations: ``group`` (int index per query), ``correct`` (bool),
    ``retrieval`` (int8: 1 right, 0 wrong, -1 unknown). One ``bincount`` per statistic."""
    group = np.asarray(group, dtype=np.int64)
    g = int(group.max()) + 1 if n_groups is None else n_groups
    correct = np.asarray(correct, dtype=bool)
    n = np.bincount(group, minlength=g).astype(np.float64)
    c = np.bincount(group, weights=correct, minlength=g)
    if retrieval is None:
        zeros = np.zeros(g)
        return GroupStats(np.arange(g), n, c, zeros, zeros.copy(), zeros.copy(), zeros.copy())
    retrieval = np.asarray(retrieval)
    right = retrieval == 1
    rk = np.bincount(group, weights=retrieval >= 0, minlength=g)
    rc = np.bincount(group, weights=right, minlength=g)
    lc = np.bincount(group, weights=right & correct, minlength=g)
    return GroupStats(np.arange(g), n, c, rk, rc, rc.copy(), lc)


def common_weights(na: np.ndarray, nb: np.ndarray) -> np.ndarray:
    """One weight per group for comparing two sides' per-group rates: ``2 na nb / (na + nb)`` (the
    count each side has where they are equal; the inverse variance of a difference of two rates),
    0 where either side has nothing."""
    na, nb = np.asarray(na, dtype=np.float64), np.asarray(nb, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where((na > 0) & (nb > 0), 2 * na * nb / np.where(na + nb > 0, na + nb, 1), 0.0)


def summarise_difference(a: float, b: float, difference: float, samples: np.ndarray, level: float = 0.95
                         ) -> dict[str, float]:
    """The entry of a difference from its point values and its bootstrap samples, at ``level``."""
    lo, hi = interval(samples, level)
    finite = samples[np.isfinite(samples)]
    # two-sided bootstrap p: how often the resampled difference crosses zero
    p = min(1.0, 2 * min((finite <= 0).mean(), (finite >= 0).mean())) if finite.size else math.nan
    return {"a": float(a), "b": float(b), "difference": float(difference), "ci_low": lo, "ci_high": hi,
            "bootstrap_p": float(p)}


def difference_samples(a: GroupStats, b: GroupStats, metric: str, n_boot: int = 1000, seed: int = 0
                       ) -> tuple[float, float, np.ndarray]:
    """One metric of :func:`bootstrap_difference`: both point values and the resampled B − A."""
    if not np.array_equal(a.group_ids, b.group_ids):
        raise ValueError("both sides must be over the same groups in the same order")
    ma, mb = a.matrix(), b.matrix()
    pa, pb = metrics_from_sums(ma.sum(axis=0))[metric], metrics_from_sums(mb.sum(axis=0))[metric]
    sa, sb = bootstrap_sums([ma, mb], n_boot, seed)
    return float(pa), float(pb), metrics_from_sums(sb)[metric] - metrics_from_sums(sa)[metric]


def rate_difference_samples(ra: np.ndarray, rb: np.ndarray, weights: np.ndarray, n_boot: int = 1000,
                            seed: int = 0) -> tuple[float, float, float, np.ndarray, int]:
    """B − A of per-group rates averaged with the *same* weight for both sides, groups resampled:
    (a, b, difference, resampled differences, groups used).

    Two styles put different queries in a group (3 short, 1 long), so a ratio of sums weighs a group
    differently on each side: with the very same rate in every group the two pooled rates still
    differ wherever groups differ from each other, and a bootstrap calls that difference
    significant. Weighting both sides' rate of a group alike makes equal per-group rates give
    exactly 0. Groups with weight 0 (or a rate missing on either side) are left out."""
    ra, rb, w = (np.asarray(x, dtype=np.float64) for x in (ra, rb, weights))
    keep = (w > 0) & np.isfinite(ra) & np.isfinite(rb)
    if not keep.any():
        return math.nan, math.nan, math.nan, np.full(1, math.nan), 0
    mat = np.column_stack([w[keep] * ra[keep], w[keep] * rb[keep], w[keep]])
    tot = mat.sum(axis=0)
    (sums,) = bootstrap_sums([mat], n_boot, seed)
    with np.errstate(invalid="ignore", divide="ignore"):
        diff = (sums[:, 1] - sums[:, 0]) / sums[:, 2]
    return (float(tot[0] / tot[2]), float(tot[1] / tot[2]), float((tot[1] - tot[0]) / tot[2]), diff,
            int(keep.sum()))
