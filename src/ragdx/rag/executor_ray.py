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
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ragdx.errors import RagdxError
from ragdx.rag.types import System, SystemInput, SystemOutput
from ragdx.ray_support import connect_ray, import_ray, ray_failure

if TYPE_CHECKING:  # pragma: no cover
    from ragdx.rag.resolve import SystemRequest


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
        from ragdx.rag.runner import answer_query

        return await answer_query(self.system, item)

    async def aclose(self) -> None:
        aclose = getattr(self.system, "aclose", None)
        if aclose is not None:
            await aclose()


class RaySystem:
    """``system`` answered by ``workers`` Ray actors, each built with ``factory()``.

    ``local`` is the same system built on the driver *without* ``build()``; it gives the name
    and ``describe()`` (the run directory's identity). ``factory`` must be picklable and must
    rebuild an equal system on a worker (``SystemRequest.build`` of a request with absolute
    paths, :mod:`ragdx.rag.resolve`): on an existing cluster the paths it names must exist on
    every node.
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


def ray_system_for(request: SystemRequest, *, workers: int = 2, address: str | None = None,
                   concurrency: int = 4) -> tuple[RaySystem, int]:
    """``ragdx run --executor ray``: the system ``request`` names (built by
    :func:`~ragdx.rag.resolve.as_system`, as a local run's is), answered on Ray. Its paths are
    made absolute so that a worker, wherever it starts, rebuilds the same system (on a cluster,
    from a shared filesystem)."""
    portable = request.portable()
    return ray_system(portable.build(), portable.build, workers=workers, address=address, concurrency=concurrency)
