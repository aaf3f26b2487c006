"""Running a system on Ray actors: ``ragdx run --executor ray [--address ADDR] [--workers N]``.

What moves to the cluster is the *system*, not the runner. Each of ``workers`` actors builds
its own copy of the system once (the warm-up: a pipeline indexes its corpus, a ``--setup``
factory runs) from a recipe that is only strings and paths, then answers queries. The runner
stays where it is, on the driver, as the single writer of the run directory: it awaits one
Ray object reference per query exactly as it awaits a local coroutine, so the append-only
``results.jsonl``, the manifest, resume, ``--rerun-failed`` and the records themselves are the
local executor's, byte for byte except the timings.

:class:`RaySystem` therefore implements the :class:`~ragdx.rag.types.System` protocol and runs
under the plain :class:`~ragdx.rag.executor.LocalAsyncExecutor`; its ``describe()`` is the
wrapped system's, so a run started locally can be resumed on a cluster and back.

Ray is an optional extra (``pip install 'ragdx[ray]'``) and is imported only here, lazily.
"""

from __future__ import annotations

import asyncio
import math
import os
import time
from collections.abc import Callable
from typing import Any

from ragdx.errors import RagdxError
from ragdx.rag.types import System, SystemInput, SystemOutput

#: environment the workers need to behave like the driver (offline, no busy-waiting OpenMP
#: threads); never credentials: a cluster gets its secrets from its own environment
_PASSED_ENV = ("HF_HUB_OFFLINE", "OMP_WAIT_POLICY", "RAGDX_CACHE_DIR", "PYTHONPATH")


def import_ray():
    """The ``ray`` module, or one line saying how to get it."""
    try:
        import ray
    except ImportError:
        raise RagdxError("the Ray executor needs Ray: pip install 'ragdx[ray]'", field="--executor") from None
    return ray


def connect_ray(address: str | None, cpus: int = 1) -> tuple[Any, bool]:
    """Ray, initialised: ``(ray, started)``, ``started`` True when this call did it (the caller
    then owns the instance and shuts it down). ``address`` None means ``$RAY_ADDRESS``, else a
    local instance with ``max(cpus, os.cpu_count())`` CPUs. Shared by the executor and the Ray
    Data embedder (:mod:`ragdx.embed_ray`)."""
    ray = import_ray()
    if ray.is_initialized():
        return ray, False
    address = address or os.environ.get("RAY_ADDRESS") or None
    env = {k: os.environ[k] for k in _PASSED_ENV if k in os.environ}
    # Workers import ragdx and the user's modules from where the driver stands.
    env["PYTHONPATH"] = os.pathsep.join(p for p in (os.getcwd(), env.get("PYTHONPATH")) if p)
    kwargs: dict[str, Any] = {"runtime_env": {"env_vars": env}, "include_dashboard": False,
                              "log_to_driver": False}
    try:
        if address:
            ray.init(address=address, **kwargs)
        else:
            ray.init(address="local", num_cpus=max(cpus, os.cpu_count() or 1), **kwargs)
    except Exception as exc:  # an unreachable address, a version mismatch, a refused token
        hint = ""
        if address and not os.environ.get("RAY_AUTH_MODE"):
            # recent Ray (2.60): a cluster whose head found a token runs in token mode, and a driver
            # without RAY_AUTH_MODE=token gets only "Failed to connect".
            hint = (" (if the cluster uses token authentication, set RAY_AUTH_MODE=token and RAY_AUTH_TOKEN "
                    "or RAY_AUTH_TOKEN_PATH)")
        # without an address ragdx started a local instance: --address was not given, so not named
        what = "connect to Ray" if address else "start a local Ray instance"
        raise RagdxError(f"cannot {what}: {_one_line(exc)}{hint}", source=address or None,
                         field="--address" if address else "--executor") from None
    return ray, True


class _Worker:
    """One actor: its own system, built once in ``__init__`` (Ray runs it when the actor starts)."""

    def __init__(self, factory: Callable[[], System]):
        self.system = factory()
        build = getattr(self.system, "build", None)
        if callable(build):
            build()

    def ready(self) -> str:
        return self.system.name

    async def answer(self, item: SystemInput) -> SystemOutput:
        # The runner's own wrapper, so a system that raises or breaks the protocol is recorded
        # on the worker exactly as it would be locally.
        from ragdx.rag.runner import _answer

        return await _answer(self.system, item)

    async def aclose(self) -> None:
        aclose = getattr(self.system, "aclose", None)
        if aclose is not None:
            await aclose()


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
    return RagdxError(f"{what}: {_one_line(cause)}", source=source, field=field)


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    # Ray's messages lead with a traceback; the last line is the error itself
    return (text[-1] if text else type(exc).__name__)[:300]


class RaySystem:
    """``system`` answered by ``workers`` Ray actors, each built with ``factory()``.

    ``local`` is the same system built on the driver *without* ``build()``; it gives the name
    and ``describe()`` (the run directory's identity). ``factory`` must be picklable and must
    rebuild an equal system on a worker (``functools.partial(system_from_options, ...)`` with
    absolute paths): on an existing cluster the paths it names must exist on every node.
    ``address`` is a Ray address (``ray://host:10001``, ``host:6379``, ``auto``); None starts
    a local instance with ``max(workers, cpus)`` CPUs and shuts it down at ``aclose``.
    ``concurrency_per_worker`` bounds queries in flight inside one actor (1 for a CPU-bound
    pipeline; more for a system that waits on an LLM). ``num_cpus`` / ``num_gpus`` are each
    actor's reservation.
    """

    def __init__(self, local: System, factory: Callable[[], System], *, workers: int = 2,
                 address: str | None = None, concurrency_per_worker: int = 1, num_cpus: float = 1,
                 num_gpus: float = 0, build_timeout_s: float = 1800.0):
        if workers < 1:
            raise RagdxError("must be at least 1", field="--workers")
        if concurrency_per_worker < 1:
            raise RagdxError("must be at least 1", field="concurrency_per_worker")
        self.local = local
        self.name = local.name
        self.factory = factory
        self.workers = workers
        self.address = address
        self.concurrency_per_worker = concurrency_per_worker
        self.num_cpus = num_cpus
        self.num_gpus = num_gpus
        self.build_timeout_s = build_timeout_s
        self._actors: list[Any] = []
        self._load: list[int] = []
        self._started_ray = False
        self.build_s: float | None = None

    def describe(self) -> dict[str, Any]:
        # The wrapped system's identity: the executor is how a run is computed, not what it is.
        return self.local.describe()

    def _connect(self):
        ray, started = connect_ray(self.address, self.workers * math.ceil(self.num_cpus))
        # ours to end at aclose: a local instance stops, a cluster is only disconnected from
        self._started_ray = self._started_ray or started
        return ray

    def build(self) -> None:
        """Start the actors and wait until every one has built its system (the warm-up), so no
        query's latency includes an index build and a broken spec fails once, not per record."""
        if self._actors:
            return
        ray = self._connect()
        started = time.perf_counter()
        actor_cls = ray.remote(_Worker).options(num_cpus=self.num_cpus, num_gpus=self.num_gpus,
                                                max_concurrency=self.concurrency_per_worker)
        self._actors = [actor_cls.remote(self.factory) for _ in range(self.workers)]
        self._load = [0] * self.workers
        refs = [a.ready.remote() for a in self._actors]
        try:
            ready, waiting = ray.wait(refs, num_returns=len(refs), timeout=self.build_timeout_s)
            if waiting:
                cpus = ray.cluster_resources().get("CPU", 0)
                raise RagdxError(f"only {len(ready)} of {self.workers} Ray workers started within "
                                 f"{self.build_timeout_s:g}s (the cluster has {cpus:g} CPUs; each worker asks "
                                 f"for {self.num_cpus:g})", field="--workers")
            ray.get(ready)
        except RagdxError:
            self._kill()
            raise
        except Exception as exc:
            self._kill()
            raise ray_failure(exc, "a Ray worker could not build the system", self.name) from None
        self.build_s = time.perf_counter() - started

    async def answer(self, item: SystemInput) -> SystemOutput:
        if not self._actors:
            await asyncio.to_thread(self.build)
        # The least busy actor: queries differ in cost, so round-robin would leave some idle.
        k = min(range(len(self._actors)), key=self._load.__getitem__)
        self._load[k] += 1
        try:
            return await self._actors[k].answer.remote(item)
        finally:
            self._load[k] -= 1

    def _kill(self) -> None:
        ray = import_ray()
        for actor in self._actors:
            try:
                ray.kill(actor)
            except Exception:  # an actor already dead has nothing left to stop
                pass
        self._actors, self._load = [], []
        if self._started_ray:
            ray.shutdown()
            self._started_ray = False

    async def aclose(self) -> None:
        if not self._actors:
            return
        try:
            await asyncio.gather(*(a.aclose.remote() for a in self._actors), return_exceptions=True)
        finally:
            self._kill()


def ray_system(local: System, factory: Callable[[], System], *, workers: int = 2, address: str | None = None,
               concurrency: int = 4, **kwargs: Any) -> tuple[RaySystem, int]:
    """A :class:`RaySystem` and the runner concurrency to use with it: enough queries in flight
    that every actor has one queued behind the one it answers (the driver writes meanwhile)."""
    per_worker = max(1, math.ceil(concurrency / workers))
    system = RaySystem(local, factory, workers=workers, address=address, concurrency_per_worker=per_worker,
                       **kwargs)
    # Connected here, on the caller's thread: the runner calls build() in a worker thread, and
    # ray.init installs signal handlers, which only the main thread may do.
    system._connect()
    return system, max(concurrency, 2 * workers * per_worker)


def ray_system_from_options(system: Any, options: dict[str, Any], *, workers: int = 2, address: str | None = None,
                            concurrency: int = 4) -> tuple[RaySystem, int]:
    """``ragdx run --executor ray``: the system :func:`~ragdx.rag.runner.system_from_options`
    makes from the CLI's options, answered on Ray. Paths are made absolute so that a worker,
    wherever it starts, rebuilds the same system (on a cluster, from a shared filesystem)."""
    import functools
    from pathlib import Path

    from ragdx.rag.runner import system_from_options

    def absolute(value: Any) -> Any:
        return Path(value).resolve() if isinstance(value, Path) else value

    system = absolute(system)
    options = {k: absolute(v) for k, v in options.items()}
    local = system_from_options(system, **options)
    factory = functools.partial(system_from_options, system, **options)
    return ray_system(local, factory, workers=workers, address=address, concurrency=concurrency)
