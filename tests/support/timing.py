"""Waits that stretch with the machine's load, so a busy runner slows the suite down instead of
turning it red.

Measured on a shared runner at load 40 (2 cores): 13 failures and 11 errors of 823 tests, every
one a fixed wait (pytest-timeout's 300 s, a subprocess's timeout, Ray's node start-up) and no
failed assertion. Every wait on the machine (a subprocess, a server's start, a cluster) goes
through :func:`scaled`; waits that are the behaviour under test (a client's 0.3 s timeout against
a server that hangs) are not scaled.

The factor is the 1-minute load per core when the suite starts, at least 1, or
``RAGDX_TEST_TIME_SCALE`` when set.
"""

from __future__ import annotations

import os
from functools import lru_cache


@lru_cache(maxsize=1)
def time_scale() -> float:
    forced = os.environ.get("RAGDX_TEST_TIME_SCALE")
    if forced:
        return max(1.0, float(forced))
    try:
        load = os.getloadavg()[0]
    except OSError:  # no load average on this platform
        return 1.0
    return max(1.0, load / (os.cpu_count() or 1))


def scaled(seconds: float) -> float:
    """``seconds`` stretched by the machine's load (never shortened)."""
    return seconds * time_scale()
