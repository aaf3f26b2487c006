"""A function run in a forked child process while this one goes on, its result sent back pickled.

For CPU-bound work on data this process already holds, whose result is small: the child reads the
data as the fork left it (nothing is pickled on the way in, which for 100k judgements would cost
more than the work), so a second core does it beside the caller. Where processes are not forked
(not Linux: elsewhere fork is unsafe or not the default), where the child fails or dies, or for a
result that cannot be pickled, the function runs in this process when its result is asked for:
the same value, or the same exception, either way (it must be deterministic and change nothing
the caller reads). Nothing of the child's own is run at its exit (``os._exit``): no atexit
handler, no flush of buffers copied from this process.
"""

from __future__ import annotations

import gc
import os
import pickle
import sys
from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")

#: set to "0" to run every function in this process (a debugger, a profile of one process)
ENV = "RAGDX_FORK"


def can_fork() -> bool:
    return sys.platform == "linux" and os.environ.get(ENV, "1") != "0" and hasattr(os, "fork")


class Forked(Generic[T]):
    """``fn(*args, **kwargs)`` started in a child now; :meth:`result` waits for it."""

    #: whether to fork at all (:class:`Inline` does not)
    fork = True

    def __init__(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> None:
        self._call = (fn, args, kwargs)
        self._pid: int | None = None
        self._fd = -1
        if self.fork and can_fork():
            read, write = os.pipe()
            pid = os.fork()
            if pid == 0:  # the child: compute, send, leave without running anything of the parent's
                os.close(read)
                _child(write, fn, args, kwargs)
            os.close(write)
            self._pid, self._fd = pid, read

    def __del__(self) -> None:
        # never asked for (the caller failed first): the child is stopped and reaped, not left a zombie
        if getattr(self, "_pid", None) is not None:
            import signal

            try:
                os.kill(self._pid, signal.SIGKILL)  # type: ignore[arg-type]
                os.waitpid(self._pid, 0)  # type: ignore[arg-type]
                os.close(self._fd)
            except OSError:
                pass
            self._pid = None

    def result(self) -> T:
        fn, args, kwargs = self._call
        if self._pid is None:
            return fn(*args, **kwargs)
        with os.fdopen(self._fd, "rb") as fh:
            data = fh.read()
        os.waitpid(self._pid, 0)
        self._pid = None
        try:
            ok, value = pickle.loads(data) if data else (False, None)
        except Exception:  # noqa: BLE001 - a result that did not come back whole: computed here
            ok = False
        if ok:
            return value  # type: ignore[return-value]
        # the child failed or died: run here, which returns the value or raises the caller's own error
        return fn(*args, **kwargs)


def _child(fd: int, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    try:
        # every object the parent made moved out of the collector's reach: a collection here would
        # otherwise write to each one's header, copying every page of the parent's heap (measured:
        # a 1M-query evaluation's children held 3 GB more than the parent alone)
        gc.freeze()
        try:
            payload = pickle.dumps((True, fn(*args, **kwargs)), protocol=pickle.HIGHEST_PROTOCOL)
        except BaseException:  # noqa: BLE001 - the parent runs it again and raises it there
            payload = pickle.dumps((False, None))
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
    finally:
        os._exit(0)


class Inline(Forked[T]):
    """The same interface, run in this process when the result is asked for (for work a fork must
    not copy: a loaded model and its threads)."""

    fork = False
