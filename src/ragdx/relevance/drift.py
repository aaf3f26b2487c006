"""Offline drift tests (§3.3): has the distribution of queries moved away from the in-knowledge one?

``ks_drift`` is the two-sample Kolmogorov–Smirnov test (two-sided, as in the paper) between the
calibration statistics and the statistics of a batch. ``DriftMonitor`` runs it over a sliding
window of a query log and says when the distribution moved and how far.

Repeated testing: every window is a test, so over many windows of a log with no drift false
alarms pile up (about alpha x the number of disjoint windows, if each were tested at alpha). The
monitor therefore controls the *family-wise* error across the windows of one log with Holm's
step-down procedure (default ``correction="holm"``): the chance that a log with no drift raises
any alarm is at most alpha, whatever the dependence between overlapping windows. Holm raises an
alarm exactly when Bonferroni would (smallest p <= alpha / m) and then rejects at least as many
windows. ``correction="none"`` tests each window at alpha (the old behaviour, for exploration).
``min_consecutive`` (alarm only after that many rejecting windows in a row) trades detection
delay for fewer alarms; the report states the number of windows tested and how many rejected.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from scipy.stats import ks_2samp

from ragdx.errors import RagdxError


@dataclass(frozen=True, slots=True)
class DriftResult:
    """One KS test. ``ks_statistic`` is the largest gap between the two eCDFs (0..1): how far the
    batch moved; ``median_shift`` is batch median minus reference median of the statistic
    (positive: the batch is further from the in-knowledge queries)."""

    statistic: str
    ks_statistic: float
    p_value: float
    alpha: float
    drifted: bool
    n_reference: int
    n_batch: int
    median_shift: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def ks_drift(reference: np.ndarray, batch: np.ndarray, *, alpha: float = 0.05,
             statistic: str = "energy") -> DriftResult:
    ref = np.asarray(reference, dtype=np.float64).ravel()
    new = np.asarray(batch, dtype=np.float64).ravel()
    if not (0.0 < float(alpha) < 1.0):
        raise RagdxError(f"alpha must be strictly between 0 and 1, got {alpha!r}", field="alpha")
    if ref.size < 2 or new.size < 2:
        raise RagdxError(f"the KS test needs at least 2 values on each side (got {ref.size} and {new.size})",
                         field="batch")
    if not (np.isfinite(ref).all() and np.isfinite(new).all()):
        raise RagdxError("statistics contain NaN or infinite values", field="batch")
    res = ks_2samp(ref, new, alternative="two-sided", method="auto")
    return DriftResult(statistic=statistic, ks_statistic=float(res.statistic), p_value=float(res.pvalue),
                       alpha=float(alpha), drifted=bool(res.pvalue <= alpha), n_reference=int(ref.size),
                       n_batch=int(new.size), median_shift=float(np.median(new) - np.median(ref)))


@dataclass(frozen=True, slots=True)
class WindowResult:
    """One window. ``result`` is its KS test at the nominal alpha; ``rejected`` the decision after
    the family-wise correction across the log's windows."""

    start: int
    end: int  # exclusive
    started_at: Any
    ended_at: Any
    result: DriftResult
    rejected: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "started_at": self.started_at, "ended_at": self.ended_at,
                **self.result.to_dict(), "rejected": self.rejected}


def holm_reject(p_values: Sequence[float], alpha: float) -> np.ndarray:
    """Holm's step-down rejections (family-wise error <= alpha under any dependence)."""
    p = np.asarray(p_values, dtype=np.float64)
    m = p.size
    out = np.zeros(m, dtype=bool)
    for rank, i in enumerate(np.argsort(p, kind="stable")):
        if p[i] > alpha / (m - rank):
            break
        out[i] = True
    return out


@dataclass(slots=True)
class DriftReport:
    window: int
    step: int
    alpha: float
    min_consecutive: int
    statistic: str = "energy"
    correction: str = "holm"
    windows: list[WindowResult] = field(default_factory=list)
    #: the window at which the alarm was raised (the last of ``min_consecutive`` rejecting ones)
    alarm: WindowResult | None = None
    #: the window with the largest KS statistic
    largest: WindowResult | None = None
    #: one sentence when query length alone tells the log from the calibration questions
    length_note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"window": self.window, "step": self.step, "alpha": self.alpha, "min_consecutive": self.min_consecutive,
                "length_note": self.length_note,
                "statistic": self.statistic, "correction": self.correction, "n_windows": len(self.windows),
                "n_rejecting": self.n_rejecting, "alarm": self.alarm.to_dict() if self.alarm else None,
                "largest": self.largest.to_dict() if self.largest else None,
                "windows": [w.to_dict() for w in self.windows]}

    @property
    def n_rejecting(self) -> int:
        return sum(w.rejected for w in self.windows)

    def summary(self) -> str:
        if not self.windows:
            return "no complete window in the log"
        big = self.largest
        assert big is not None
        control = "family-wise (Holm) across windows" if self.correction == "holm" else "each window alone"
        head = (f"{len(self.windows)} windows of {self.window} queries (step {self.step}), {self.statistic} "
                f"statistic, alpha={self.alpha:g} {control}: {self.n_rejecting} rejecting; largest shift "
                f"D={big.result.ks_statistic:.3f} at queries {big.start}-{big.end - 1}")
        if self.alarm is None:
            return head + "; no drift"
        a = self.alarm
        when = f" ({a.started_at} .. {a.ended_at})" if a.started_at is not None else ""
        return (head + f"; drift from queries {a.start}-{a.end - 1}{when}: D={a.result.ks_statistic:.3f}, "
                f"p={a.result.p_value:.2g}, median shift {a.result.median_shift:+.4f}")


def monitor_reference(reference: Any, statistic: str | None) -> tuple[Any, str, np.ndarray]:
    """What a drift monitor compares with: ``(tester or None, statistic, reference statistics)``
    from a fitted tester (its calibration statistics of the statistic, by default its own) or
    from a 1-D array of reference statistics (the energy statistic's, unless named)."""
    from ragdx.relevance.statistics import STATISTICS

    if hasattr(reference, "calibration_statistics_"):
        chosen = statistic or reference.statistic
        return reference, chosen, reference.calibration_statistics_[:, STATISTICS.index(chosen)]
    return None, statistic or "energy", np.asarray(reference, dtype=np.float64).ravel()


class DriftMonitor:
    """``DriftMonitor(reference, window=100, step=None, alpha=0.05, min_consecutive=1)``.

    ``reference`` is a fitted :class:`RelevanceTester` (its calibration statistics of its chosen
    statistic) or a 1-D array of reference statistics. ``step`` defaults to a quarter window.
    """

    def __init__(self, reference: Any, *, window: int = 100, step: int | None = None, alpha: float = 0.05,
                 min_consecutive: int = 1, statistic: str | None = None, correction: str = "holm"):
        from ragdx.relevance.statistics import STATISTICS

        if statistic is not None and statistic not in STATISTICS:
            raise RagdxError(f"unknown statistic {statistic!r} (choose from {', '.join(STATISTICS)})",
                             field="statistic")
        if correction not in ("holm", "none"):
            raise RagdxError(f"correction must be 'holm' or 'none', got {correction!r}", field="correction")
        if not (0.0 < float(alpha) < 1.0):
            raise RagdxError(f"alpha must be strictly between 0 and 1, got {alpha!r}", field="alpha")
        self.correction = correction

        self.tester, self.statistic, self.reference = monitor_reference(reference, statistic)
        if window < 2:
            raise RagdxError(f"window must be at least 2, got {window}", field="window")
        self.window = int(window)
        self.step = int(step) if step else max(1, window // 4)
        if self.step < 1:
            raise RagdxError(f"step must be positive, got {step}", field="step")
        if min_consecutive < 1:
            raise RagdxError(f"min_consecutive must be positive, got {min_consecutive}", field="min_consecutive")
        self.alpha = float(alpha)
        self.min_consecutive = int(min_consecutive)

    def run(self, log: Sequence[str] | np.ndarray, timestamps: Sequence[Any] | None = None, *,
            progress: Any = None) -> DriftReport:
        """``log``: queries in arrival order (texts or embeddings, scored by the tester) or, with an
        array reference, their precomputed statistics (1-D)."""
        if isinstance(log, np.ndarray) and log.ndim == 1:
            values = log.astype(np.float64)
        else:
            if self.tester is None:
                raise RagdxError("a monitor built from reference statistics needs statistics, not queries",
                                 field="log")
            from ragdx.relevance.statistics import STATISTICS

            values = self.tester.statistics(log, progress=progress)[:, STATISTICS.index(self.statistic)]
        if timestamps is not None and len(timestamps) != len(values):
            raise RagdxError(f"{len(timestamps)} timestamps for {len(values)} queries", field="timestamps")
        report = DriftReport(window=self.window, step=self.step, alpha=self.alpha,
                             min_consecutive=self.min_consecutive, statistic=self.statistic,
                             correction=self.correction)
        starts = list(range(0, len(values) - self.window + 1, self.step))
        tests = [ks_drift(self.reference, values[s:s + self.window], alpha=self.alpha, statistic=self.statistic)
                 for s in starts]
        if self.correction == "holm":
            rejected = holm_reject([t.p_value for t in tests], self.alpha) if tests else np.zeros(0, dtype=bool)
        else:
            rejected = np.array([t.drifted for t in tests], dtype=bool)
        run = 0
        for start, res, rej in zip(starts, tests, rejected, strict=True):
            end = start + self.window
            w = WindowResult(start, end, None if timestamps is None else timestamps[start],
                             None if timestamps is None else timestamps[end - 1], res, bool(rej))
            report.windows.append(w)
            run = run + 1 if rej else 0
            if report.alarm is None and run >= self.min_consecutive:
                report.alarm = w
            if report.largest is None or res.ks_statistic > report.largest.result.ks_statistic:
                report.largest = w
        return report
