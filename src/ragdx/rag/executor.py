"""How the runner's work is executed: a small interface, and a local asyncio implementation.

The runner only ever asks an executor to apply one async function to many items with a bound
on how many are in flight, and consumes the results as they complete. Everything else
(what is finished, what is written, what the manifest says) stays in the runner, so a
distributed executor (a process pool, a cluster queue) can be added later by implementing
``map`` alone, without touching the systems or the runner.

Ray (``ragdx run --executor ray``, :mod:`ragdx.rag.executor_ray`) goes the other way round: it
moves the *system* onto actors that each build it once, and the driver awaits one Ray object
reference per query under this local executor, so the runner remains the run directory's only
writer and nothing here changes.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterable
from typing import Protocol, TypeVar, runtime_checkable

T = TypeVar("T")
R = TypeVar("R")


@runtime_checkable
class Executor(Protocol):
    """Applies ``fn`` to every item, at most ``concurrency`` at a time.

    ``map`` is an async generator: results come in completion order, not input order (each
    result carries its own id). Closing the generator early (``aclose``, a ``break``, a
    cancelled consumer) must stop scheduling new items and cancel or abandon those in flight,
    so that an interrupted run ends promptly. ``fn`` is expected not to raise; if it does, the
    exception propagates to the consumer.
    """

    def map(self, fn: Callable[[T], Awaitable[R]], items: Iterable[T],
            concurrency: int) -> AsyncGenerator[R, None]: ...


class LocalAsyncExecutor:
    """Runs everything as tasks on the current event loop.

    Items are pulled from ``items`` lazily, so a huge dataset never becomes a huge set of
    pending tasks: at most ``concurrency`` exist at any moment.
    """

    async def map(self, fn: Callable[[T], Awaitable[R]], items: Iterable[T],
                  concurrency: int) -> AsyncGenerator[R, None]:
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        source = iter(items)
        pending: set[asyncio.Future[R]] = set()
        # Tasks report themselves done through a callback into this deque, in the order they
        # finish, and the generator sleeps on one event only when nothing is there: unlike
        # asyncio.wait(FIRST_COMPLETED), which hooks and unhooks every pending task on each
        # call, this costs O(1) per result, and a fast system's many results are drained (and
        # their slots refilled) in one wake-up.
        finished: collections.deque[asyncio.Future[R]] = collections.deque()
        ready = asyncio.Event()

        def on_done(task: asyncio.Future[R]) -> None:
            pending.discard(task)
            finished.append(task)
            ready.set()

        def schedule(n: int) -> None:
            for _ in range(n):
                try:
                    item = next(source)
                except StopIteration:
                    return
                task = asyncio.ensure_future(fn(item))
                task.add_done_callback(on_done)
                pending.add(task)

        try:
            schedule(concurrency)
            while pending or finished:
                if not finished:
                    await ready.wait()
                ready.clear()
                batch = list(finished)
                finished.clear()
                # Refill before yielding so the slots stay busy while the consumer writes.
                schedule(len(batch))
                for task in batch:
                    yield task.result()
        finally:
            for task in pending:
                task.remove_done_callback(on_done)
                task.cancel()
            if pending:
                await asyncio.gather(*pending, return_exceptions=True)
