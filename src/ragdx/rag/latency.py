"""A run's latency summary kept while it runs, in constant time per record and per refresh.

:class:`LatencySketch` is a relative-error quantile sketch (the log-bucketed histogram of
DDSketch, Masson, Rim & Lee, VLDB 2019): a value ``x > 0`` is counted in bucket
``k = ceil(log(x) / log(gamma))`` with ``gamma = (1 + alpha) / (1 - alpha)``, and every value in
bucket ``k`` is read back as ``2 * gamma**k / (gamma + 1)``, which is within ``alpha * x`` of
each of them. So a percentile read from the sketch is within ``alpha`` (relative) of the exact
one, whatever the distribution, and deterministically (no sampling): the exact percentile
interpolates linearly between the values at two ranks (numpy's default, as
:func:`ragdx.rag.rundir.latency_stats` computes it), and the sketch interpolates the same way
between the estimates of those two ranks, each within ``alpha`` of its value, so the result is
within ``alpha`` of the exact one too. Values below :data:`TINY` (0 and, by a broken clock,
negatives) are counted in a bucket read as 0.0: there the error is at most ``TINY`` absolute.

``n``, the mean and the maximum are kept exactly (the maximum exactly unless the largest value
is removed; it then reads as the estimate of the highest bucket left, within ``alpha``).

Adding or removing a value costs one logarithm and one dict update; a summary costs a sort of
the occupied buckets, at most ``log(max / min) / log(gamma)`` of them (about 1,800 for latencies
from a microsecond to 100 s at the default ``alpha`` of 0.5 %), however many values were added.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

__all__ = ["ALPHA", "TINY", "LatencySketch"]

#: the sketch's relative error bound on every percentile it reports
ALPHA = 0.005
#: values below this (seconds) are read back as 0.0
TINY = 1e-9
#: the percentiles a run's manifest reports, as fractions
QUANTILES = (0.5, 0.9, 0.99)


class LatencySketch:
    """Counts of latencies in log-spaced buckets; see the module's docstring for the bound."""

    __slots__ = ("alpha", "_gamma", "_log_gamma", "_buckets", "_low", "n", "total", "_max", "_max_stale")

    def __init__(self, alpha: float = ALPHA):
        if not 0 < alpha < 1:
            raise ValueError("alpha must be between 0 and 1")
        self.alpha = alpha
        self._gamma = (1 + alpha) / (1 - alpha)
        self._log_gamma = math.log(self._gamma)
        self._buckets: dict[int, int] = {}
        self._low = 0  # values below TINY
        self.n = 0
        self.total = 0.0
        self._max = -math.inf
        self._max_stale = False

    def _key(self, x: float) -> int | None:
        return math.ceil(math.log(x) / self._log_gamma) if x >= TINY else None

    def add(self, x: float) -> None:
        key = self._key(x)
        if key is None:
            self._low += 1
        else:
            self._buckets[key] = self._buckets.get(key, 0) + 1
        self.n += 1
        self.total += x
        if x > self._max:
            self._max = x

    def update(self, values: Iterable[float]) -> None:
        for x in values:
            self.add(x)

    def remove(self, x: float) -> None:
        """Forget one value added earlier (a record whose latest line replaced it)."""
        key = self._key(x)
        if key is None:
            self._low -= 1
        else:
            left = self._buckets[key] - 1
            if left:
                self._buckets[key] = left
            else:
                del self._buckets[key]
        self.n -= 1
        self.total -= x
        if x >= self._max:
            self._max_stale = True

    def _value(self, key: int | None) -> float:
        return 0.0 if key is None else 2 * self._gamma ** key / (self._gamma + 1)

    def _ranked(self, ranks: list[int]) -> list[float]:
        """The estimates of the values at each of ``ranks`` (0-based, ascending)."""
        out: list[float] = []
        seen = self._low
        wanted = iter(ranks)
        rank = next(wanted, None)
        while rank is not None and rank < seen:
            out.append(0.0)
            rank = next(wanted, None)
        for key in sorted(self._buckets):
            seen += self._buckets[key]
            while rank is not None and rank < seen:
                out.append(self._value(key))
                rank = next(wanted, None)
            if rank is None:
                break
        return out

    def quantile(self, q: float) -> float | None:
        """The ``q`` percentile, interpolated between closest ranks, within ``alpha`` of exact."""
        if not self.n:
            return None
        pos = (self.n - 1) * q
        lo = int(pos)
        hi = min(lo + 1, self.n - 1)
        low, high = self._ranked([lo, hi])
        return low + (high - low) * (pos - lo)

    def maximum(self) -> float | None:
        if not self.n:
            return None
        if self._max_stale:
            return self._ranked([self.n - 1])[0]
        return self._max

    def summary(self) -> dict[str, float | None]:
        """The manifest's ``latency_s``: the same keys and rounding as ``rundir.latency_stats``,
        the percentiles read in one walk over the buckets."""
        if not self.n:
            return {"n": 0, "mean": None, "p50": None, "p90": None, "p99": None, "max": None}
        positions = [(self.n - 1) * q for q in QUANTILES]
        ranks = [r for pos in positions for r in (int(pos), min(int(pos) + 1, self.n - 1))]
        values = self._ranked(ranks)
        pct = {}
        for i, (q, pos) in enumerate(zip(QUANTILES, positions, strict=True)):
            low, high = values[2 * i], values[2 * i + 1]
            pct[f"p{int(q * 100)}"] = round(low + (high - low) * (pos - int(pos)), 6)
        return {"n": self.n, "mean": round(self.total / self.n, 6), **pct, "max": round(self.maximum() or 0.0, 6)}
