"""One home for ragdx's progress bars, on a terminal and off it.

On a terminal a Rich bar redraws in place. Written to a file or a pipe (a CI log, ``nohup``,
``2> run.log``), a redrawn bar prints nothing until the end and then one frame, so a long run
looks hung; there the same object prints a plain line per task every ``RAGDX_PROGRESS_EVERY``
seconds (default 30) and a last line with the final count when it stops.

Rich estimates speed over the last ``speed_estimate_period`` seconds (30 by default): a step
longer than that (a calibration batch of 256 texts on a slow CPU) leaves no sample in the window
and the time-remaining column stays empty. The window here is long enough for any step.

Rich's progress module is imported on first use only: ``ragdx --help`` must stay cheap
(tests/test_startup.py).
"""

from __future__ import annotations

import os
import time
from functools import lru_cache
from typing import Any

# seconds covered by the speed estimate: longer than any single step ragdx takes
SPEED_WINDOW_S = 3600.0


def _interval() -> float:
    try:
        return max(0.0, float(os.environ.get("RAGDX_PROGRESS_EVERY", "30")))
    except ValueError:
        return 30.0


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "–"
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def plain_line(task: Any) -> str:
    """One line a log reader understands: what, how far, failures, speed, time spent and left."""
    parts = [f"{task.completed:g}/{task.total:g}" if task.total is not None else f"{task.completed:g}"]
    if task.total:
        parts[0] += f" ({100 * task.completed / task.total:.0f} %)"
    if "failed" in task.fields:
        parts.append(f"{task.fields['failed']} failed")
    elapsed = task.finished_time if task.finished else task.elapsed
    done = task.completed - task.fields.get("_start", 0)
    if elapsed and done > 0:
        rate = done / elapsed
        parts.append(f"{rate:.1f}/s")
        parts.append(f"{_duration(elapsed)} elapsed")
        if task.total is not None and not task.finished:
            parts.append(f"eta {_duration((task.total - task.completed) / rate)}")
    elif elapsed:
        parts.append(f"{_duration(elapsed)} elapsed")
    from rich.text import Text

    return f"{Text.from_markup(task.description).plain}: " + ", ".join(parts)


@lru_cache(maxsize=1)
def _bars_class() -> type:
    from rich.progress import Progress

    class Bars(Progress):
        """A Rich Progress that, off a terminal, logs plain lines instead of redrawing."""

        def __init__(self, *columns: Any, console: Any = None, disable: bool = False,
                     get_time: Any = None) -> None:
            super().__init__(*columns, console=console, transient=False, get_time=get_time,
                             speed_estimate_period=SPEED_WINDOW_S, disable=disable)
            # self.console is Rich's choice when none was given (stdout)
            self.plain = not disable and not self.console.is_terminal
            if self.plain:
                # Rich would still draw one frame at stop; the plain lines replace it
                self.disable = True
            self._every = _interval()
            self._logged: dict[Any, float] = {}

        def add_task(self, description: str, *args: Any, **kwargs: Any) -> Any:
            completed = kwargs.get("completed", 0)
            task_id = super().add_task(description, *args, **{**kwargs, "_start": completed})
            self._logged[task_id] = time.monotonic()
            return task_id

        def update(self, task_id: Any, **kwargs: Any) -> None:
            super().update(task_id, **kwargs)
            self._log(task_id)

        def advance(self, task_id: Any, advance: float = 1) -> None:
            super().advance(task_id, advance)
            self._log(task_id)

        def _log(self, task_id: Any, final: bool = False) -> None:
            if not self.plain:
                return
            now = time.monotonic()
            if not final and now - self._logged.get(task_id, now) < self._every:
                return
            self._logged[task_id] = now
            with self._lock:
                task = self._tasks[task_id]
            self.console.print(plain_line(task), markup=False, highlight=False, soft_wrap=True)

        def stop(self) -> None:
            if self.plain:
                # the final count of every task, once, whatever the interval
                for task_id in list(self._tasks):
                    self._log(task_id, final=True)
                self.plain = False
            super().stop()

    return Bars


def bars(*, console: Any = None, failed: bool = False, rate: bool = False, eta: bool = True,
         disable: bool = False, get_time: Any = None) -> Any:
    """A progress display: description, bar, done/total, optionally failures and rate, elapsed and
    time remaining; on stderr unless ``console`` says otherwise. Use as a context manager."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class RateColumn(ProgressColumn):
        def render(self, task: Any) -> Text:
            speed = task.finished_speed or task.speed
            return Text("–/s" if speed is None else f"{speed:.1f}/s", style="progress.data.speed")

    columns: list[Any] = [TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn()]
    if failed:
        columns.append(TextColumn("[red]{task.fields[failed]} failed"))
    if rate:
        columns.append(RateColumn())
    columns.append(TimeElapsedColumn())
    if eta:
        columns += [TextColumn("eta"), TimeRemainingColumn()]
    return _bars_class()(*columns, console=console if console is not None else Console(stderr=True),
                         disable=disable, get_time=get_time)
