"""The seven test statistics of the paper (§3.2), computed from the k nearest similarities.

Every statistic is oriented so that a larger value means "less like the in-knowledge queries":
the p-value of a query is then always the right tail of the calibration distribution.

Input is the matrix of the k largest query-chunk similarities, sorted in decreasing order.
Fisher and Simes also need, for each neighbour rank j, the calibration queries' j-th
similarities (the per-neighbour null distributions).
"""

from __future__ import annotations

import numpy as np

STATISTICS: tuple[str, ...] = ("mss", "knn", "avgknn", "entropy", "energy", "fisher", "simes")

#: names as the paper's tables print them
DISPLAY_NAMES: dict[str, str] = {
    "mss": "MSS", "knn": "KNN", "avgknn": "AvgKNN", "entropy": "Entropy", "energy": "Energy",
    "fisher": "Fisher", "simes": "Simes",
}


def _logsumexp(x: np.ndarray) -> np.ndarray:
    top = x.max(axis=1, keepdims=True)
    return (top + np.log(np.exp(x - top).sum(axis=1, keepdims=True)))[:, 0]


def neighbour_p_values(topk: np.ndarray, reference_sorted: np.ndarray, *, leave_one_out: bool) -> np.ndarray:
    """Per-neighbour p-values: for rank j, how many calibration queries had a j-th similarity at
    most as high (a low similarity is the extreme direction).

    ``reference_sorted`` is (k, n): each row the calibration j-th similarities in ascending order.
    A new query gets (1 + #{cal <= s}) / (n + 1). A calibration query itself
    (``leave_one_out``) is counted among its own references once, giving #{cal <= s} / n, which is
    the same formula with the n - 1 other calibration queries as the reference: this keeps
    calibration and new queries on the same footing without a second calibration split.
    """
    n = reference_sorted.shape[1]
    out = np.empty(topk.shape, dtype=np.float64)
    for j in range(topk.shape[1]):
        at_most = np.searchsorted(reference_sorted[j], topk[:, j], side="right")
        out[:, j] = at_most / n if leave_one_out else (1.0 + at_most) / (n + 1.0)
    # leave-one-out counts include the query itself, so the floor is 1/n, never 0
    return np.clip(out, 1.0 / (n + 1.0), 1.0)


def compute_statistics(topk: np.ndarray, *, k: int, temperature: float, reference_sorted: np.ndarray,
                       leave_one_out: bool = False) -> np.ndarray:
    """(n, 7) oriented statistics in the order of :data:`STATISTICS`."""
    s = np.asarray(topk, dtype=np.float64)[:, :k]
    out = np.empty((s.shape[0], len(STATISTICS)), dtype=np.float64)
    out[:, 0] = -s[:, 0]
    out[:, 1] = -s[:, k - 1]
    out[:, 2] = -s.mean(axis=1)
    scaled = s / temperature
    lse = _logsumexp(scaled)
    logp = scaled - lse[:, None]
    out[:, 3] = -(np.exp(logp) * logp).sum(axis=1)
    out[:, 4] = -temperature * lse
    p = neighbour_p_values(s, reference_sorted[:k], leave_one_out=leave_one_out)
    out[:, 5] = -2.0 * np.log(p).sum(axis=1)
    ranks = np.arange(1, k + 1, dtype=np.float64)
    simes = np.min(k * np.sort(p, axis=1) / ranks, axis=1)
    # -log keeps "larger = more out-of-knowledge" and spreads the small p-values apart
    out[:, 6] = -np.log(np.minimum(simes, 1.0))
    return out


def empirical_p_values(values: np.ndarray, calibration_sorted: np.ndarray) -> np.ndarray:
    """p = (1 + #{calibration >= s}) / (n + 1): valid at every level for exchangeable queries."""
    n = calibration_sorted.shape[0]
    at_least = n - np.searchsorted(calibration_sorted, values, side="left")
    return (1.0 + at_least) / (n + 1.0)
