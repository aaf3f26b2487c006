"""Ray, once: importing it, connecting to or starting an instance, and turning its failures into
one-line errors. A leaf module (nothing of ragdx's above it is imported), shared by the Ray executor
(:mod:`ragdx.rag.executor_ray`) and the Ray Data embedder (:mod:`ragdx.embed_ray`), so that the
embedding layer no longer borrows Ray helpers from the RAG runner (an import circle of nine files).

Ray is an optional extra (``pip install 'ragdx[ray]'``) and is imported only when called.
"""

from __future__ import annotations

import os
import sys
import time
from types import ModuleType
from typing import Any

from ragdx.errors import RagdxError

#: environment the workers need to behave like the driver (offline, no busy-waiting OpenMP
#: threads); never credentials: a cluster gets its secrets from its own environment
_PASSED_ENV = ("HF_HUB_OFFLINE", "OMP_WAIT_POLICY", "RAGDX_CACHE_DIR", "PYTHONPATH")


def import_ray() -> ModuleType:
    """The ``ray`` module, or one line saying how to get it."""
    try:
        import ray
    except ImportError:
        raise RagdxError("the Ray executor needs Ray: pip install 'ragdx[ray]'", field="--executor") from None
    return ray


#: tries at starting a local instance (one start in three failed on a loaded 2-core machine:
#: a raylet or the GCS too slow to come up in time), and the pause before each retry
START_ATTEMPTS = 3
RETRY_PAUSE_S = 2.0
#: a connection to an address is tried again only when it failed faster than this: a slow failure
#: means Ray has already waited and retried on its own (an unreachable head takes minutes)
QUICK_FAILURE_S = 15.0


def connect_ray(address: str | None, cpus: int = 1, *, attempts: int = START_ATTEMPTS) -> tuple[Any, bool]:
    """Ray, initialised: ``(ray, started)``, ``started`` True when this call did it (the caller
    then owns the instance and shuts it down). ``address`` None means ``$RAY_ADDRESS``, else a
    local instance with ``max(cpus, os.cpu_count())`` CPUs. Shared by the executor and the Ray
    Data embedder. A failed start is retried (``attempts`` in all; a connection to an address
    twice at most, and only after a quick failure), each retry said in one line on stderr; the
    last failure is one :class:`RagdxError` line."""
    ray = import_ray()
    if ray.is_initialized():
        return ray, False
    address = address or os.environ.get("RAY_ADDRESS") or None
    env = {k: os.environ[k] for k in _PASSED_ENV if k in os.environ}
    # Workers import ragdx and the user's modules from where the driver stands.
    env["PYTHONPATH"] = os.pathsep.join(p for p in (os.getcwd(), env.get("PYTHONPATH")) if p)
    kwargs: dict[str, Any] = {"runtime_env": {"env_vars": env}, "include_dashboard": False,
                              "log_to_driver": False}
    if address:
        kwargs["address"] = address
        attempts = min(attempts, 2)
    else:
        kwargs.update(address="local", num_cpus=max(cpus, os.cpu_count() or 1))
    # without an address ragdx starts a local instance: --address was not given, so not named
    what = "connect to Ray" if address else "start a local Ray instance"
    attempt = 0
    while True:
        attempt += 1
        started = time.monotonic()
        try:
            ray.init(**kwargs)
            return ray, True
        except Exception as exc:  # an unreachable address, a version mismatch, a refused token, a slow raylet
            if ray.is_initialized():  # half started: cleared before the next try
                ray.shutdown()
            quick = not address or time.monotonic() - started < QUICK_FAILURE_S
            if attempt >= attempts or not quick:
                raise _start_error(exc, address, what, attempt) from None
            print(f"ray: could not {what} (attempt {attempt} of {attempts}: {one_line(exc)}); "
                  f"trying again in {RETRY_PAUSE_S * attempt:g} s", file=sys.stderr, flush=True)
            time.sleep(RETRY_PAUSE_S * attempt)


def _start_error(exc: BaseException, address: str | None, what: str, attempts: int) -> RagdxError:
    hint = ""
    if address and not os.environ.get("RAY_AUTH_MODE"):
        # recent Ray (2.60): a cluster whose head found a token runs in token mode, and a driver
        # without RAY_AUTH_MODE=token gets only "Failed to connect".
        hint = (" (if the cluster uses token authentication, set RAY_AUTH_MODE=token and RAY_AUTH_TOKEN "
                "or RAY_AUTH_TOKEN_PATH)")
    tries = f" after {attempts} attempts" if attempts > 1 else ""
    return RagdxError(f"cannot {what}{tries}: {one_line(exc)}{hint}", source=address or None,
                      field="--address" if address else "--executor")


def _cause(exc: BaseException) -> BaseException:
    """The worker's own exception inside Ray's wrappers (a RagdxError from a bad spec)."""
    seen = 0
    while seen < 5:
        inner = getattr(exc, "cause", None) or getattr(exc, "__cause__", None)
        if inner is None or inner is exc:
            break
        exc, seen = inner, seen + 1
    return exc


def ray_failure(exc: BaseException, what: str, source: str | None, field: str | None = None) -> RagdxError:
    """The error to raise for ``exc`` from Ray: the worker's own RagdxError as it was, anything
    else as one line saying ``what`` failed."""
    cause = _cause(exc)
    if isinstance(cause, RagdxError):
        return cause
    return RagdxError(f"{what}: {one_line(cause)}", source=source, field=field)


def one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    # Ray's messages lead with a traceback; the last line is the error itself
    return (text[-1] if text else type(exc).__name__)[:300]
