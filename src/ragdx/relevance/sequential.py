"""A sequential drift monitor whose power does not shrink as the log grows.

The windowed KS monitor (:mod:`ragdx.relevance.drift`) tests each window and corrects for the
number of windows (Holm): over a 5,000-query log of 50 windows each window must reach p <= 0.001,
so a sustained 20 % share of out-of-knowledge queries, significant in 18-19 windows alone, raised
no alarm at all. A longer log made every window *less* sensitive.

This monitor accumulates evidence query by query instead of judging windows apart:

1. each query's conformal p-value against the in-knowledge calibration statistics,
   ``p = (1 + #{calibration >= s}) / (n + 1)`` (valid: under no drift ``P(p <= u) <= u``);
2. e-values from the power calibrators ``e_k(p) = k p^(k-1)`` for a grid of ``k`` in (0, 1) (each
   has mean 1 under a uniform p): a small ``k`` bets boldly on rare, very small p-values (a burst
   of far questions), a ``k`` near 1 bets mildly on a small share of modest ones (20 % of
   near-topic questions);
3. per ``k``, the Shiryaev-Roberts statistic ``R_t = (1 + R_{t-1}) e_k(p_t)``: the sum, over every
   possible start of a drift, of the evidence gathered since that start, so evidence from before
   a drift never has to be paid back (a plain product of e-values would first have to climb out
   of the negative drift of a long clean prefix); the monitor's statistic is the average of the
   ``R_t`` over the grid, which follows whichever bet the drift rewards at the cost of the grid's
   size (``log 9`` nats);
4. an alarm when that average reaches ``horizon / alpha``. Under no drift each ``R_t - t`` is a
   martingale, so the average is a non-negative submartingale with mean ``t``, and Doob's maximal
   inequality bounds the chance of any false alarm among the first ``horizon`` queries by
   ``alpha`` — for the whole log, not per window. The threshold grows with the log's length only
   logarithmically in what it costs: ``log(horizon / alpha)`` nats of evidence, which a sustained
   drift gathers at a constant rate per query.

Doob's bound treats the calibration statistics as the truth. They are a sample (a few hundred
queries), and every p-value of the log is measured against the same one, so over thousands of
queries the monitor also accumulates the sample's own deviation from the truth: with a reference
of 300 and clean logs of 2,000 queries the bound alone gave 12 % false alarms at alpha = 0.05.
The alarm threshold is therefore the larger of ``horizon / alpha`` and the ``1 - alpha`` quantile
of the statistic's maximum over simulated clean logs in which the reference itself is redrawn
(a smoothed bootstrap of the reference: a new reference and a new log drawn from it, with a
little Gaussian noise so that values do not tie), which puts the reference's uncertainty into
the threshold. ``benchmarks/relevance_drift.py`` measures the false alarms on logs of real
questions.

After an alarm the monitor names where the drift began: for the bet with the most evidence, the
start ``j`` whose evidence ``prod_{i=j..t} e_i`` is largest (the CUSUM estimate of the change point).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ragdx.errors import RagdxError
from ragdx.relevance.drift import monitor_reference
from ragdx.relevance.statistics import empirical_p_values

#: values of simulated clean logs held at once while the threshold is set (about 32 MB of floats)
SIMULATED_VALUES = 4_000_000


def conformal_p_values(reference: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The tester's p-values (``statistics.empirical_p_values``) against an unsorted reference:
    larger values are further from the in-knowledge queries, so a small p-value is evidence of drift."""
    return empirical_p_values(np.asarray(values, dtype=np.float64).ravel(),
                              np.sort(np.asarray(reference, dtype=np.float64).ravel()))


def tie_broken_p_values(reference: np.ndarray, values: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``conformal_p_values`` with ties to the reference broken at random:
    ``(1 + #{reference > s} + U #{reference == s}) / (n + 1)``, U uniform. Equal to it where nothing
    ties, and never below the exactly uniform smoothed p-value (valid). Why: a discrete statistic
    (links: most in-knowledge questions tie at "every fact linked") gives a tied question p = 1,
    whose e-values ``k`` are all below 1, so a clean stretch drained the evidence a drift had
    gathered; broken ties spread those p-values over their tie's range, as a uniform p would be."""
    ref = np.sort(np.asarray(reference, dtype=np.float64).ravel())
    v = np.asarray(values, dtype=np.float64).ravel()
    below_or_tied = np.searchsorted(ref, v, side="right")
    tied = below_or_tied - np.searchsorted(ref, v, side="left")
    return (1.0 + (ref.size - below_or_tied) + rng.random(v.size) * tied) / (ref.size + 1.0)


#: the power calibrators' exponents the monitor bets with (see the module's docstring)
BETS = (0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95)


def power_log_e_values(p: np.ndarray, bets: tuple[float, ...] = BETS) -> np.ndarray:
    """``log(k p^(k-1))`` for each p-value (rows) and each ``k`` in ``bets`` (columns)."""
    lp = np.log(np.clip(np.asarray(p, dtype=np.float64), 1e-300, 1.0))[:, None]
    k = np.asarray(bets, dtype=np.float64)[None, :]
    return np.log(k) + (k - 1.0) * lp


@dataclass(slots=True)
class SequentialReport:
    """What the sequential monitor found in one log."""

    alpha: float
    horizon: int
    threshold: float
    statistic: str
    n: int
    #: index of the query at which the alarm was raised (None: no drift)
    alarm_at: int | None = None
    #: where the drift most likely began (the CUSUM change point), with the alarm
    began_at: int | None = None
    started_at: Any = None
    alarmed_at: Any = None
    #: the share of the queries since ``began_at`` that the tester alone rejects at alpha
    share_flagged_since: float | None = None
    #: log10 of the Shiryaev-Roberts statistic at every query (for a chart)
    log10_sr: list[float] = field(default_factory=list)
    #: one sentence when query length alone tells the log from the calibration questions
    length_note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"method": "sequential", "alpha": self.alpha, "horizon": self.horizon, "threshold": self.threshold,
                "statistic": self.statistic, "n": self.n, "alarm_at": self.alarm_at, "began_at": self.began_at,
                "started_at": self.started_at, "alarmed_at": self.alarmed_at,
                "share_flagged_since": self.share_flagged_since, "length_note": self.length_note,
                "log10_sr": self.log10_sr}

    def summary(self) -> str:
        head = (f"{self.n} queries, {self.statistic} statistic, sequential monitor (Shiryaev-Roberts on conformal "
                f"e-values): false-alarm chance over the first {self.horizon} queries about {self.alpha:g}")
        if self.alarm_at is None:
            peak = max(self.log10_sr, default=0.0)
            return head + f"; no drift (evidence peaked at 10^{peak:.1f}, alarm at 10^{np.log10(self.threshold):.1f})"
        when = f" ({self.started_at} .. {self.alarmed_at})" if self.started_at is not None else ""
        share = "" if self.share_flagged_since is None else (
            f"; since then {100 * self.share_flagged_since:.0f} % of queries flagged alone at alpha")
        return head + f"; drift from query {self.began_at}, alarm at query {self.alarm_at}{when}{share}"


class SequentialMonitor:
    """``SequentialMonitor(reference, alpha=0.05, horizon=None, statistic=None, simulations=200, seed=0)``.

    ``reference``: a fitted :class:`~ragdx.relevance.tester.RelevanceTester` (its calibration
    statistics of its chosen statistic) or a 1-D array of reference statistics. ``horizon``: the
    number of queries the false-alarm guarantee covers (default: the log's length, as for a log
    read after the fact; a live stream names its own). ``simulations``: clean logs simulated to
    put the reference's own uncertainty into the threshold (0: Doob's bound alone). ``break_ties``:
    read the evidence on :func:`tie_broken_p_values` (more power on a discrete statistic, see
    ``self.break_ties``)."""

    def __init__(self, reference: Any, *, alpha: float = 0.05, horizon: int | None = None,
                 statistic: str | None = None, simulations: int = 200, seed: int = 0, break_ties: bool = False):
        from ragdx.relevance.statistics import STATISTICS

        if statistic is not None and statistic not in (*STATISTICS, "links"):
            raise RagdxError(f"unknown statistic {statistic!r} (choose from {', '.join(STATISTICS)}, links)",
                             field="statistic")
        if not (0.0 < float(alpha) < 1.0):
            raise RagdxError(f"alpha must be strictly between 0 and 1, got {alpha!r}", field="alpha")
        if horizon is not None and int(horizon) < 1:
            raise RagdxError(f"horizon must be positive, got {horizon}", field="horizon")
        #: the statistic as named (None: the tester's own, or links for a log given with records)
        self.named = statistic
        self.tester, self.statistic, self.reference = monitor_reference(
            reference, None if statistic == "links" else statistic)
        if statistic == "links":
            self._use_links()
        if self.reference.size < 2:
            raise RagdxError("the reference needs at least 2 calibration statistics", field="reference")
        self.alpha = float(alpha)
        self.horizon = None if horizon is None else int(horizon)
        if int(simulations) < 0:
            raise RagdxError(f"simulations must be 0 or more, got {simulations}", field="simulations")
        self.simulations = int(simulations)
        self.seed = int(seed)
        #: off by default: on in-domain logs (benchmarks/results/relevance_drift_indomain.md) broken ties
        #: on the links statistic cut the delay (Hebrant: median 7 -> 2 windows) but raised clean-log
        #: false alarms (Hebrant 0 -> 11 %, Kestrel 0.5 -> 14.5 %): the linker's misses cluster by
        #: question group, which the threshold's simulated clean logs do not model
        self.break_ties = bool(break_ties)

    def _use_links(self) -> None:
        """Monitor the links statistic: the reference becomes the tester's calibration link scores
        (the ones its links p-values are read against), so that the monitor's p-values are the
        tester's. An array reference is taken as link scores already."""
        if self.tester is not None:
            links = self.tester._links()
            if links is None:
                raise RagdxError("the tester was fitted without links: no links statistic to monitor",
                                 field="statistic")
            self.reference = np.asarray(links.calibration_scores_, dtype=np.float64)
        self.statistic = "links"

    def threshold(self, horizon: int) -> float:
        """log of the alarm threshold for a log of ``horizon`` queries (see the module's docstring)."""
        doob = float(np.log(horizon / self.alpha))
        if self.simulations == 0:
            return doob
        rng = np.random.default_rng(self.seed)
        ref = self.reference
        n, b = ref.size, self.simulations
        # smoothed bootstrap: Silverman's bandwidth keeps redrawn values from tying
        bandwidth = 1.06 * float(np.std(ref)) * n ** -0.2 or 1e-9
        refs = np.sort(rng.choice(ref, (b, n)) + rng.normal(0.0, bandwidth, (b, n)), axis=1)
        # simulated logs in blocks of rows, so that memory stays bounded for a long log (one block,
        # the same draws as a single array, up to SIMULATED_VALUES values)
        rows = max(1, SIMULATED_VALUES // horizon)
        peaks = [self._simulated_peaks(rng, refs[i:i + rows], horizon, bandwidth) for i in range(0, b, rows)]
        return max(doob, float(np.quantile(np.concatenate(peaks), 1.0 - self.alpha)))

    def _simulated_peaks(self, rng: np.random.Generator, refs: np.ndarray, horizon: int,
                         bandwidth: float) -> np.ndarray:
        """The largest averaged Shiryaev-Roberts statistic of one clean log per redrawn reference."""
        b = refs.shape[0]
        logs = rng.choice(self.reference, (b, horizon)) + rng.normal(0.0, bandwidth, (b, horizon))
        lp = np.log(np.stack([empirical_p_values(logs[i], refs[i]) for i in range(b)]))
        k = np.asarray(BETS)
        log_sr = np.full((b, k.size), -np.inf)
        peak = np.full(b, -np.inf)
        for t in range(horizon):
            log_sr = np.logaddexp(0.0, log_sr) + (np.log(k) + (k - 1.0) * lp[:, t:t + 1])
            peak = np.maximum(peak, np.logaddexp.reduce(log_sr, axis=1) - np.log(k.size))
        return peak

    def _values(self, log: Sequence[str] | np.ndarray, progress: Any) -> np.ndarray:
        if isinstance(log, np.ndarray) and log.ndim == 1:
            return log.astype(np.float64)
        if self.tester is None:
            raise RagdxError("a monitor built from reference statistics needs statistics, not queries",
                             field="log")
        from ragdx.relevance.statistics import STATISTICS

        return self.tester.statistics(log, progress=progress)[:, STATISTICS.index(self.statistic)]

    def run(self, log: Sequence[str] | np.ndarray, timestamps: Sequence[Any] | None = None, *,
            progress: Any = None, records: Sequence[Any] | None = None, database: Any = None) -> SequentialReport:
        """``log``: queries in arrival order (texts or embeddings) or, with an array reference,
        their statistics (1-D; link scores when the statistic is ``links``). ``records`` (one per
        query, None for a query without one) and ``database``: with a tester fitted with links and
        no other statistic named, the monitor reads the links statistic, as the tester's default
        p-value does for a question given with its record; a query without a scored record carries
        no links evidence and is left out of the monitor's sequence (indices stay the log's)."""
        if records is not None:
            if len(records) != len(log):
                raise RagdxError(f"{len(records)} records for {len(log)} queries", field="records")
            if self.named is None and self.tester is not None and self.tester._links() is not None:
                self._use_links()
            if self.statistic == "links":
                assert self.tester is not None  # _use_links with an array reference needs scores, not records
                scores = self.tester.link_scores(records, database)
                report = self._run_links(scores, timestamps)
                report.length_note = self._links_length_note(records, scores)
                return report
        if self.statistic == "links":
            return self._run_links(np.asarray(log, dtype=np.float64).ravel(), timestamps)
        return self._run_values(self._values(log, progress), timestamps)

    def _links_length_note(self, records: Sequence[Any], scores: np.ndarray) -> str | None:
        """The length sentence (``confounds.log_note``, as the embedding path says it) for a log read on
        the links statistic: the scored questions' lengths against the calibration questions', beside
        how far the link scores alone tell the log from the calibration."""
        from ragdx.relevance.confounds import log_note

        kept = np.flatnonzero(np.isfinite(scores))
        lengths = [len(getattr(records[int(i)], "query", "") or "") for i in kept]
        return log_note(getattr(self.tester, "calibration_lengths_", None), lengths, self.reference, scores[kept])

    def _run_links(self, scores: np.ndarray, timestamps: Sequence[Any] | None) -> SequentialReport:
        """The monitor on the scored queries only; the report's indices mapped back to the log's."""
        if timestamps is not None and len(timestamps) != len(scores):
            raise RagdxError(f"{len(timestamps)} timestamps for {len(scores)} queries", field="timestamps")
        kept = np.flatnonzero(np.isfinite(scores))
        if kept.size == 0:
            raise RagdxError("no query of the log has a scored record: nothing for the links statistic",
                             field="records")
        report = self._run_values(scores[kept], None)
        report.n = int(scores.size)
        if report.alarm_at is not None and report.began_at is not None:
            report.alarm_at, report.began_at = int(kept[report.alarm_at]), int(kept[report.began_at])
            if timestamps is not None:
                report.started_at, report.alarmed_at = timestamps[report.began_at], timestamps[report.alarm_at]
        return report

    def _run_values(self, values: np.ndarray, timestamps: Sequence[Any] | None) -> SequentialReport:
        if timestamps is not None and len(timestamps) != len(values):
            raise RagdxError(f"{len(timestamps)} timestamps for {len(values)} queries", field="timestamps")
        horizon = self.horizon or max(1, len(values))
        log_threshold = self.threshold(horizon)
        threshold = float(np.exp(log_threshold))
        p = conformal_p_values(self.reference, values)
        # break_ties: the evidence reads tie-broken p-values (seeded: a rerun gives the same report);
        # the share flagged below reads the tester's own either way
        log_e = power_log_e_values(tie_broken_p_values(self.reference, values, np.random.default_rng(self.seed + 1))
                                   if self.break_ties else p)
        report = SequentialReport(alpha=self.alpha, horizon=horizon, threshold=threshold, statistic=self.statistic,
                                  n=len(values))
        bets = log_e.shape[1]
        log_sr = np.full(bets, -np.inf)
        cusum, start = np.zeros(bets), np.zeros(bets, dtype=np.int64)
        log_threshold += np.log(bets)  # compared with the sum over bets: the average reaches the threshold
        for t in range(log_e.shape[0]):
            # R_t = (1 + R_{t-1}) e_t per bet, kept in logs (R reaches 10^10 and beyond on a real drift)
            log_sr = np.logaddexp(0.0, log_sr) + log_e[t]
            # CUSUM of the same e-values: where each bet's best run of evidence began
            reset = cusum <= 0.0
            cusum[reset], start[reset] = 0.0, t
            cusum += log_e[t]
            total = np.logaddexp.reduce(log_sr)
            report.log10_sr.append(round(float((total - np.log(bets)) / np.log(10)), 3))
            if report.alarm_at is None and total >= log_threshold:
                report.alarm_at, report.began_at = t, int(start[int(np.argmax(log_sr))])
        if report.alarm_at is not None and report.began_at is not None:  # set together
            since = p[report.began_at:]
            report.share_flagged_since = float(np.mean(since <= self.alpha))
            if timestamps is not None:
                report.started_at, report.alarmed_at = timestamps[report.began_at], timestamps[report.alarm_at]
        return report
