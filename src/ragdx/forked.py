"""Work done beside the main process, on a second core, by a forked child.

``evaluate`` is one Python process: on a 2-core machine half of the machine idles while it judges
100k answers. Some of its steps need nothing but data it already holds and give back a small
result (a mean ROUGE-L, the verdicts of half the distinct answers). A forked child computes such a
step while the parent goes on: it sees the parent's memory as it was at the fork (nothing is
pickled on the way in) and sends back only its return value, pickled, through a pipe.

Nothing depends on the child succeeding: if it cannot be started (not Linux, one core, a
``RAGDX_FORK=0`` environment), raises, or dies, the parent computes the same call itself, so an
error surfaces in the parent with its own traceback, once. Only pure functions of their arguments
belong here: the child's side effects (counters, caches, files) are lost with it.
"""

from __future__ import annotations

import os
import pickle
import sys
from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


def spare_cores() -> int:
    """Cores this process may use beyond the one it runs on."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(0, cores - 1)


def can_fork() -> bool:
    # Linux only: macOS's system frameworks are not safe to use in a forked child, Windows has no fork
    return (sys.platform.startswith("linux") and hasattr(os, "fork") and spare_cores() > 0
            and os.environ.get("RAGDX_FORK", "1") != "0")


class Beside(Generic[T]):
    """``fn(*args)`` computed in a forked child from now on; :meth:`result` gives its value.

    Use as a context manager, so that a child whose result is never asked for (the parent raised
    meanwhile) is stopped and reaped::

        with Beside(rouge_mean, refs, preds) as rouge:
            ...                      # the parent's own work
            value = rouge.result()
    """

    def __init__(self, fn: Callable[..., T], *args: Any, fork: bool = True):
        self._fn, self._args = fn, args
        self._pid: int | None = None
        self._fd = -1
        self.forked = False  # whether the value came (or will come) from a child
        if fork and can_fork():
            self._start()

    def _start(self) -> None:
        read, write = os.pipe()
        sys.stdout.flush()  # nothing buffered before the fork is written twice
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: compute, send, leave without running the parent's exit handlers
            code = 0
            try:
                os.close(read)
                try:
                    payload = pickle.dumps((True, self._fn(*self._args)), protocol=pickle.HIGHEST_PROTOCOL)
                except BaseException:  # the parent computes it again and raises it itself
                    payload, code = pickle.dumps((False, None)), 1
                with os.fdopen(write, "wb") as fh:
                    fh.write(payload)
            finally:
                os._exit(code)
        os.close(write)
        self._pid, self._fd, self.forked = pid, read, True

    def result(self) -> T:
        if self._pid is None:
            return self._fn(*self._args)
        try:
            with os.fdopen(self._fd, "rb") as fh:
                data = fh.read()
        finally:
            self._reap()
        try:
            ok, value = pickle.loads(data)  # our own child's bytes, never a user's
        except Exception:  # the child died before writing all of it (killed, out of memory)
            ok, value = False, None
        if not ok:
            self.forked = False
            return self._fn(*self._args)
        return value

    def _reap(self, *, kill: bool = False) -> None:
        if self._pid is None:
            return
        pid, self._pid = self._pid, None
        if kill:
            import signal

            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            try:
                os.close(self._fd)
            except OSError:
                pass
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass

    def __enter__(self) -> Beside[T]:
        return self

    def __exit__(self, *exc: Any) -> None:
        self._reap(kill=True)  # a result never asked for: the child is not needed any more
