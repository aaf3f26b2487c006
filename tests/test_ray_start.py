"""Starting Ray: a failed start is tried again and said in one line; the last failure is one line.

Each case runs in its own Python (the test process's Ray state stays out of it). The failures
are injected in front of the real ``ray.init`` (a start that fails the way a loaded machine's
did: an exception out of ``ray.init``); the start that follows is a real local instance.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.test_ray import REPO

pytest.importorskip("ray", reason="the Ray executor's tests need the ray extra (pip install 'ragdx[ray]')")

PROLOGUE = """
import ray
import ragdx.ray_support as rs
from ragdx.errors import RagdxError
rs.RETRY_PAUSE_S = 0.01
real_init, calls = ray.init, []
def flaky_init(**kwargs):
    calls.append(kwargs.get("address"))
    if len(calls) <= FAILURES:
        raise RuntimeError("Traceback (most recent call last):\\n  ...\\n"
                           "TimeoutError: the raylet did not start in time")
    return real_init(**kwargs)
ray.init = flaky_init
"""


def _python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=300)


@pytest.mark.slow  # a real local Ray start: ~20 s on a busy 2-core machine
def test_a_failed_start_is_retried_and_said():
    out = _python("FAILURES = 1\n" + PROLOGUE + """
ray_, started = rs.connect_ray(None, 1)
print("started", started, ray_.is_initialized(), calls)
ray_.shutdown()
""")
    assert out.returncode == 0, out.stderr[-2000:]
    assert "started True True ['local', 'local']" in out.stdout
    said = [line for line in out.stderr.splitlines() if line.startswith("ray:")]
    assert said == ["ray: could not start a local Ray instance (attempt 1 of 3: TimeoutError: the raylet did not "
                    "start in time); trying again in 0.01 s"], out.stderr[-2000:]


def test_the_last_failure_is_one_line():
    out = _python("FAILURES = 99\n" + PROLOGUE + """
try:
    rs.connect_ray(None, 1)
except RagdxError as exc:
    print("ERROR", exc)
print("calls", len(calls), ray.is_initialized())
""")
    assert out.returncode == 0, out.stderr[-2000:]
    errors = [line for line in out.stdout.splitlines() if line.startswith("ERROR")]
    assert errors == ["ERROR --executor: cannot start a local Ray instance after 3 attempts: TimeoutError: the "
                      "raylet did not start in time"], out.stdout
    assert "calls 3 False" in out.stdout
    assert sum(line.startswith("ray: could not") for line in out.stderr.splitlines()) == 2
