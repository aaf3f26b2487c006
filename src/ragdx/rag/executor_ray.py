"""Running a system on Ray actors: ``ragdx run --executor ray [--address ADDR] [--workers N]``.

What moves to the cluster is the *system*, not the runner. Each of ``workers`` actors builds
its own copy of the system once (the warm-up: a pipeline indexes its corpus, a ``--setup``
factory runs) from a recipe that is only strings and paths, then answers queries. The runner
stays where it is, on the driver, as the single writer of the run directory: it awaits each
query's answer exactly as it awaits a local coroutine, so the append-only ``results.jsonl``, the
manifest, resume, ``--rerun-failed`` and the records themselves are the local executor's, byte
for byte except the timings.

:class:`RaySystem` therefore implements the :class:`~ragdx.rag.types.System` protocol and runs
under the plain :class:`~ragdx.rag.executor.LocalAsyncExecutor`; its ``describe()`` is the
wrapped system's, so a run started locally can be resumed on a cluster and back.

**Batches.** One Ray call per query cost the driver ~0.6-1.5 ms of CPU per query (submitting the
task, serialising one input, awaiting one object reference), capping a driver at a few hundred
queries a second whatever the cluster's size. So :meth:`RaySystem.answer` only queues the query
on the driver; a dispatcher sends each actor a *batch* of queued queries (one remote call, one
list back) whenever it has fewer than ``max_inflight`` batches in flight. A batch starts at
``initial_batch`` queries and doubles while an actor answers a full batch in under
``batch_target_s`` (halving when one takes four times that), up to ``max_batch``: a slow LLM
system keeps small batches (little to re-send if its actor dies), a fast one large batches
(the per-call cost spread over hundreds of queries): the driver's CPU per query fell from
0.62-0.66 ms to 0.08-0.10 ms (``benchmarks/ray_driver.py``). The runner's concurrency
(:func:`ray_system`) is sized to keep every actor's batches full.

**What is shared.** The system's recipe (the factory) is put in Ray's object store once and
every actor reads it from there. Actors start at the same time (process start-up overlaps), but
the first *builds* alone, then all the others at once: the first actor's build fills
the on-disk embedding cache (content-hash keyed, ``RAGDX_CACHE_DIR`` passed to the workers), so
on one node, or any node sharing that directory, the others load a dense index's vectors
rather than embed them again (a dense pipeline over 1,000 documents: the second actor built in
0.18 s against 30.7 s without a cache, ``benchmarks/results/ray_driver.md``); a keyword index costs
milliseconds either way. A system is built once per actor, never per batch.

**Failures.** A batch whose actor dies (a killed worker, a lost node) is put back at the front
of the queue and answered by a live actor or a replacement (each lost actor is replaced, up to
``max_restarts`` in all): no record is lost, written twice or changed, because only the driver
writes and each query's answer is taken once. A query whose actor died under it
``max_requeues`` times is recorded as failed with that error (a query that crashes its worker
must not take down every actor in turn; once its actor has died, a query is sent alone, so it
takes no other query down with it). What happened is said in one line on stderr
(``ray: actor 1 (pid 123) lost (The actor is dead because its worker process has died); 32 queries
re-queued; 1 live, actor 2 starting``) and kept in :attr:`RaySystem.events`. A local start that
fails is tried again (:func:`ragdx.ray_support.connect_ray`).

Ray is an optional extra (``pip install 'ragdx[ray]'``) and is imported only here, lazily.
"""

from __future__ import annotations

import asyncio
import collections
import math
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ragdx.errors import RagdxError
from ragdx.rag.types import System, SystemInput, SystemOutput
from ragdx.ray_support import connect_ray, import_ray, one_line, ray_failure

if TYPE_CHECKING:  # pragma: no cover
    from ragdx.rag.resolve import SystemRequest


class _Worker:
    """One actor: its own system, built once by :meth:`build` (called once, before any batch)."""

    def __init__(self, factory: Callable[[], System], concurrency: int = 1):
        self.factory = factory
        self.concurrency = concurrency
        self.system: System | None = None
        self._gate: asyncio.Semaphore | None = None

    def build(self) -> tuple[str, int, float]:
        import os

        started = time.perf_counter()
        if self.system is None:
            system = self.factory()
            build = getattr(system, "build", None)
            if callable(build):
                build()
            self.system = system
        return self.system.name, os.getpid(), time.perf_counter() - started

    async def answer_batch(self, items: list[SystemInput]) -> list[SystemOutput]:
        # The runner's own wrapper, so a system that raises or breaks the protocol is recorded
        # on the worker exactly as it would be locally; it never raises.
        from ragdx.rag.runner import answer_query

        if self._gate is None:  # made in the actor's own event loop; shared by its batches in flight
            self._gate = asyncio.Semaphore(self.concurrency)
        gate = self._gate
        system = self.system
        assert system is not None  # build() runs once on each actor before any batch
        if self.concurrency == 1:  # in order, one at a time (the next batch waits at the gate)
            async with gate:
                return [await answer_query(system, item) for item in items]

        async def one(item: SystemInput) -> SystemOutput:
            async with gate:
                return await answer_query(system, item)

        return list(await asyncio.gather(*(one(item) for item in items)))

    async def aclose(self) -> None:
        aclose = getattr(self.system, "aclose", None)
        if aclose is not None:
            await aclose()


@dataclass(slots=True, eq=False)
class _Pending:
    """A query waiting on the driver for an actor, and the future its ``answer()`` awaits."""

    item: SystemInput
    future: asyncio.Future[SystemOutput]
    #: times an actor died while it had this query
    lost: int = 0


@dataclass(slots=True, eq=False)
class _Actor:
    """The driver's view of one actor."""

    index: int
    handle: Any
    ready: bool = False
    alive: bool = True
    pid: int | None = None
    #: seconds its system took to build (the first actor fills the shared caches the rest read)
    build_s: float | None = None
    batch: int = 1
    inflight: int = 0
    #: answering a query alone whose earlier actor died (see ``_dispatch``)
    suspect: bool = False
    #: queries of its batches in flight when it died, re-queued (said once all have come back)
    requeued: int = 0
    cause: str = ""


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
    actor's reservation. Batching (``initial_batch``, ``max_batch``, ``max_inflight``,
    ``batch_target_s``) and failures (``max_restarts``, default ``workers + max_requeues + 1``;
    ``max_requeues``) are described in the module's docstring.
    """

    def __init__(self, local: System, factory: Callable[[], System], *, workers: int = 2,
                 address: str | None = None, concurrency_per_worker: int = 1, num_cpus: float = 1,
                 num_gpus: float = 0, build_timeout_s: float = 1800.0, initial_batch: int = 4,
                 max_batch: int = 256, max_inflight: int = 2, batch_target_s: float = 0.25,
                 max_restarts: int | None = None, max_requeues: int = 2):
        for value, field in ((workers, "--workers"), (concurrency_per_worker, "concurrency_per_worker"),
                             (initial_batch, "initial_batch"), (max_batch, "max_batch"),
                             (max_inflight, "max_inflight")):
            if value < 1:
                raise RagdxError("must be at least 1", field=field)
        self.local = local
        self.name = local.name
        self.factory = factory
        self.workers = workers
        self.address = address
        self.concurrency_per_worker = concurrency_per_worker
        self.num_cpus = num_cpus
        self.num_gpus = num_gpus
        self.build_timeout_s = build_timeout_s
        self.initial_batch = min(initial_batch, max_batch)
        self.max_batch = max_batch
        self.max_inflight = max_inflight
        self.batch_target_s = batch_target_s
        # every actor once, and the workers a query that kills them may take before it is failed
        self.max_restarts = workers + max_requeues + 1 if max_restarts is None else max_restarts
        self.max_requeues = max_requeues
        self._actors: list[_Actor] = []
        self._queue: collections.deque[_Pending] = collections.deque()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._kicked = False
        self._closing = False
        self._started_ray = False
        self._ray: Any = None
        self._actor_cls: Any = None
        self._factory_ref: Any = None
        self._build_lock = threading.Lock()
        self.build_s: float | None = None
        #: batches sent, actors replaced, and the lines said about lost actors
        self.batches = 0
        self.restarts = 0
        self.events: list[str] = []

    def describe(self) -> dict[str, Any]:
        # The wrapped system's identity: the executor is how a run is computed, not what it is.
        return self.local.describe()

    def actors(self) -> list[dict[str, Any]]:
        """Each actor as the driver sees it: index, worker pid, ready, alive, batch size, build seconds."""
        return [{"index": a.index, "pid": a.pid, "ready": a.ready, "alive": a.alive, "batch": a.batch,
                 "build_s": a.build_s} for a in self._actors]

    def _connect(self):
        ray, started = connect_ray(self.address, self.workers * math.ceil(self.num_cpus))
        # ours to end at aclose: a local instance stops, a cluster is only disconnected from
        self._started_ray = self._started_ray or started
        self._ray = ray
        return ray

    def _new_actor(self, index: int) -> _Actor:
        return _Actor(index, self._actor_cls.remote(self._factory_ref, self.concurrency_per_worker),
                      batch=self.initial_batch)

    def build(self) -> None:
        """Start the actors and wait until every one has built its system (the warm-up), so no
        query's latency includes an index build and a broken spec fails once, not per record."""
        with self._build_lock:  # concurrent first answers must not start two sets of actors
            if self._actors:
                return
            ray = self._connect()
            started = time.perf_counter()
            self._closing = False
            self._factory_ref = ray.put(self.factory)  # one copy of the recipe, read by every actor
            # batches in flight, plus aclose beside them
            self._actor_cls = ray.remote(_Worker).options(num_cpus=self.num_cpus, num_gpus=self.num_gpus,
                                                          max_concurrency=self.max_inflight + 1)
            self._actors = [self._new_actor(k) for k in range(self.workers)]
            try:
                # the first builds alone, filling the shared caches the others then read
                self._await_built(ray, self._actors[:1])
                self._await_built(ray, self._actors[1:])
            except RagdxError:
                self._kill()
                raise
            except Exception as exc:
                self._kill()
                raise ray_failure(exc, "a Ray worker could not build the system", self.name) from None
            self.build_s = time.perf_counter() - started

    def _await_built(self, ray: Any, actors: list[_Actor]) -> None:
        if not actors:
            return
        refs = [a.handle.build.remote() for a in actors]
        ready, waiting = ray.wait(refs, num_returns=len(refs), timeout=self.build_timeout_s)
        if waiting:
            cpus = ray.cluster_resources().get("CPU", 0)
            built = sum(a.ready for a in self._actors) + len(ready)
            raise RagdxError(f"only {built} of {self.workers} Ray workers started within "
                             f"{self.build_timeout_s:g}s (the cluster has {cpus:g} CPUs; each worker asks "
                             f"for {self.num_cpus:g})", field="--workers")
        for actor, (_name, pid, seconds) in zip(actors, ray.get(refs), strict=True):
            actor.ready, actor.pid, actor.build_s = True, pid, seconds

    async def answer(self, item: SystemInput) -> SystemOutput:
        if not self._actors:
            await asyncio.to_thread(self.build)
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._queue.append(_Pending(item, future))
        if not self._kicked:
            # once per loop iteration: every query queued meanwhile goes out in the same batches
            self._kicked = True
            loop.call_soon(self._dispatch)
        return await future

    def _kick(self) -> None:
        if not self._kicked and not self._closing:
            self._kicked = True
            asyncio.get_running_loop().call_soon(self._dispatch)

    def _dispatch(self) -> None:
        """Queued queries to the actors with a free slot, one batch each per pass, the least busy
        first; a short queue is shared out evenly rather than all sent to the first actor."""
        self._kicked = False
        queue = self._queue
        while queue:
            free = [a for a in self._actors
                    if a.ready and a.alive and a.inflight < self.max_inflight and not a.suspect]
            if not free:
                return
            free.sort(key=lambda a: a.inflight)
            share = -(-len(queue) // len(free))
            sent = False
            for actor in free:
                batch: list[_Pending] = []
                while queue and len(batch) < min(actor.batch, share):
                    pending = queue.popleft()
                    if pending.future.done():  # its runner task was cancelled meanwhile
                        continue
                    if pending.lost and (batch or actor.inflight):
                        # a query whose actor died goes alone, to an idle actor: if it is what
                        # kills workers, it takes no other query's attempts down with it
                        queue.appendleft(pending)
                        break
                    batch.append(pending)
                    if pending.lost:
                        actor.suspect = True  # nothing else goes to it until this comes back
                        break
                if not batch:
                    continue  # this actor is busy and the queue's head waits for an idle one
                ref = actor.handle.answer_batch.remote([p.item for p in batch])
                actor.inflight += 1
                self.batches += 1
                sent = True
                self._spawn(self._collect(actor, ref, batch))
            if not sent:
                return

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _collect(self, actor: _Actor, ref: Any, batch: list[_Pending]) -> None:
        started = time.perf_counter()
        try:
            outs = await ref
        except self._ray.exceptions.RayActorError as exc:
            self._lose(actor, batch, exc)
        except Exception as exc:  # the actor lives but the batch failed (an answer that will not pickle)
            error = ray_failure(exc, "a Ray worker failed on a batch", self.name)
            for pending in batch:
                if not pending.future.done():
                    pending.future.set_exception(error)
        else:
            for pending, out in zip(batch, outs, strict=True):
                if not pending.future.done():
                    pending.future.set_result(out)
            self._adapt(actor, len(batch), time.perf_counter() - started)
        finally:
            actor.inflight -= 1
            actor.suspect = False
            if not actor.alive and not actor.inflight and actor.cause:
                self._say(f"ray: actor {actor.index} (pid {actor.pid}) lost ({actor.cause}); "
                          f"{actor.requeued} queries re-queued" + self._replacing())
                actor.cause = ""
            self._kick()

    def _adapt(self, actor: _Actor, size: int, seconds: float) -> None:
        """Double an actor's batch while a full one comes back quickly; halve it when one is slow."""
        if size >= actor.batch and seconds < self.batch_target_s:
            actor.batch = min(2 * actor.batch, self.max_batch)
        elif seconds > 4 * self.batch_target_s and actor.batch > 1:
            actor.batch //= 2

    def _lose(self, actor: _Actor, batch: list[_Pending], exc: BaseException) -> None:
        """``actor`` died with ``batch`` in flight: re-queue it at the front, replace the actor."""
        newly_lost = actor.alive
        if newly_lost:
            actor.alive = False
            actor.cause = _first_sentence(one_line(exc))
            try:
                self._ray.kill(actor.handle)  # an actor merely unreachable must not answer later
            except Exception:  # already gone
                pass
        again = []
        for pending in batch:
            if pending.future.done():
                continue
            pending.lost += 1
            if pending.lost > self.max_requeues:
                pending.future.set_exception(RagdxError(
                    f"the Ray actor answering it died {pending.lost} times (last: {one_line(exc)})"))
            else:
                again.append(pending)
        self._queue.extendleft(reversed(again))  # first in the queue, in their order
        actor.requeued += len(again)
        if newly_lost:
            self._replace()
        self._starved()

    def _replacing(self) -> str:
        starting = [a.index for a in self._actors if a.alive and not a.ready]
        live = sum(a.alive and a.ready for a in self._actors)
        return f"; {live} live, actor {', '.join(map(str, starting))} starting" if starting else f"; {live} live"

    def _replace(self) -> None:
        if self.restarts >= self.max_restarts:
            self._starved()
            return
        self.restarts += 1
        actor = self._new_actor(len(self._actors))
        self._actors.append(actor)
        self._spawn(self._warm(actor))

    async def _warm(self, actor: _Actor) -> None:
        try:
            _name, pid, seconds = await asyncio.wait_for(_awaited(actor.handle.build.remote()),
                                                         self.build_timeout_s)
            actor.ready, actor.pid, actor.build_s = True, pid, seconds
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            actor.alive = False
            self._say(f"ray: replacement actor {actor.index} did not start ({one_line(exc)})")
            self._starved()
        finally:
            self._kick()

    def _starved(self) -> None:
        """No actor alive or starting: what is queued fails (recorded, --rerun-failed sends it
        again) rather than waiting forever."""
        if any(a.alive for a in self._actors):
            return
        error = RagdxError(f"every Ray actor was lost ({self.restarts} replaced, the limit)")
        while self._queue:
            pending = self._queue.popleft()
            if not pending.future.done():
                pending.future.set_exception(error)

    def _say(self, line: str) -> None:
        self.events.append(line)
        print(line, file=sys.stderr, flush=True)

    def _kill(self) -> None:
        ray = import_ray()
        for actor in self._actors:
            try:
                ray.kill(actor.handle)
            except Exception:  # an actor already dead has nothing left to stop
                pass
        self._actors = []
        if self._started_ray:
            ray.shutdown()
            self._started_ray = False

    async def aclose(self) -> None:
        self._closing = True
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        while self._queue:
            self._queue.popleft().future.cancel()
        if not self._actors:
            return
        try:
            live = [a for a in self._actors if a.alive and a.ready]
            await asyncio.gather(*(_awaited(a.handle.aclose.remote()) for a in live), return_exceptions=True)
        finally:
            self._kill()


def _first_sentence(text: str, limit: int = 120) -> str:
    # Ray's own explanation runs to several sentences (and its raylet logs the rest already)
    head = text.split(". ", 1)[0].rstrip(".")
    return head if len(head) <= limit else head[: limit - 1] + "…"


async def _awaited(ref: Any) -> Any:
    return await ref


def ray_system(local: System, factory: Callable[[], System], *, workers: int = 2, address: str | None = None,
               concurrency: int = 4, **kwargs: Any) -> tuple[RaySystem, int]:
    """A :class:`RaySystem` and the runner concurrency to use with it: enough queries in flight
    that every actor's batches can be full (the driver writes while the actors answer)."""
    per_worker = max(1, math.ceil(concurrency / workers))
    system = RaySystem(local, factory, workers=workers, address=address, concurrency_per_worker=per_worker,
                       **kwargs)
    # Connected here, on the caller's thread: the runner calls build() in a worker thread, and
    # ray.init installs signal handlers, which only the main thread may do.
    system._connect()
    return system, max(concurrency, workers * system.max_inflight * system.max_batch)


def ray_system_for(request: SystemRequest, *, workers: int = 2, address: str | None = None,
                   concurrency: int = 4, **kwargs: Any) -> tuple[RaySystem, int]:
    """``ragdx run --executor ray``: the system ``request`` names (built by
    :func:`~ragdx.rag.resolve.as_system`, as a local run's is), answered on Ray. Its paths are
    made absolute so that a worker, wherever it starts, rebuilds the same system (on a cluster,
    from a shared filesystem)."""
    portable = request.portable()
    return ray_system(portable.build(), portable.build, workers=workers, address=address, concurrency=concurrency,
                      **kwargs)
