"""The one formatter of a metric with its interval, ``0.712 [0.671, 0.750]``: the console,
summary.md, the report and the CI gate all write a metric this way, so the same number never
reads differently in two places. A leaf (no numpy): the gate and the typed results use it
without loading the statistics.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any


def _finite(value: Any) -> float | None:
    try:
        out = float(value)
    except (TypeError, ValueError):
        return None
    return out if math.isfinite(out) else None


def interval_parts(entry: Mapping[str, Any] | None, key: str = "value", digits: int = 3) -> tuple[str, str | None]:
    """A metric as text, in two parts: its value (``"0.712"``; ``"–"`` when unknown or NaN; an
    integer as it is) and its interval (``"[0.671, 0.750]"``), None when it has no finite bounds.
    The one formatter of intervals: the console, summary.md, the report and the CI gate all
    write a metric this way, so the same number never reads differently in two places."""
    if not entry:
        return "–", None
    raw = entry.get(key)
    if isinstance(raw, int) and not isinstance(raw, bool):
        head = str(raw)
    else:
        value = _finite(raw)
        head = "–" if value is None else f"{value:.{digits}f}"
    lo, hi = _finite(entry.get("ci_low")), _finite(entry.get("ci_high"))
    if head == "–" or lo is None or hi is None:
        return head, None
    return head, f"[{lo:.{digits}f}, {hi:.{digits}f}]"


def fmt_interval(entry: Mapping[str, Any] | None, key: str = "value", digits: int = 3) -> str:
    """``"0.712 [0.671, 0.750]"``, or the value alone when it has no interval (see :func:`interval_parts`)."""
    head, bounds = interval_parts(entry, key, digits)
    return head if bounds is None else f"{head} {bounds}"
