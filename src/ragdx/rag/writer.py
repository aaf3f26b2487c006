"""The writer of a run's ``results.jsonl``: every line handed to the OS whole, synced in groups.

Group commit: every line is handed to the OS whole as it comes (a killed process loses none of
them, and at most the last is torn), and fsync'd in groups, of ``GROUP_COMMIT_LINES`` or after
``GROUP_COMMIT_S``; a record counts as done (progress, manifest) only once synced. What a power
loss takes is an unsynced tail, which a resume runs again.

What a group counts is what its lines say, taken from the output rather than parsed back from
the line: the fields that counts, tokens and latency read (each read through int(), float() or a
None test, so a numpy scalar counts as the number its line holds).

With ``GROUP_COMMIT_OVERLAP`` the fsync runs on a thread while the next lines are written (the
disk's wait overlaps the runner's work); a group is counted only once the fsync that started
after its last line was written has returned.
"""

from __future__ import annotations

import concurrent.futures
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ragdx.rag.types import SystemOutput

__all__ = ["GROUP_COMMIT_LINES", "GROUP_COMMIT_S", "GROUP_COMMIT_OVERLAP", "ResultsWriter"]

#: results.jsonl is fsync'd once per this many lines, or sooner when this many seconds passed
#: since the last sync (a slow system's every record is synced as it comes)
GROUP_COMMIT_LINES = 64
GROUP_COMMIT_S = 0.2
#: fsync on a thread while the next lines are written (False: the runner waits for each fsync)
GROUP_COMMIT_OVERLAP = True


class ResultsWriter:
    """Appends result lines to ``path``; ``acknowledge(group)`` is called with each group of
    lines (what counts reads of them) once they are on disk. ``synced`` and ``failed`` count the
    lines acknowledged so far and the failed records among them. Close it, however the run ends:
    what was written is then synced and acknowledged."""

    def __init__(self, path: Path, acknowledge: Callable[[list[dict[str, Any]]], None]):
        from ragdx.store import private_opener

        self._acknowledge = acknowledge
        self.synced = 0
        self.failed = 0
        self._fh = open(path, "ab", opener=private_opener)  # noqa: SIM115 - closed by close()
        self._unsynced: list[dict[str, Any]] = []
        # the fsync under way, and the group it makes durable
        self._syncing: tuple[concurrent.futures.Future[None], list[dict[str, Any]]] | None = None
        self._syncer = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="ragdx-fsync") \
            if GROUP_COMMIT_OVERLAP else None
        self._synced_at = 0.0

    def append(self, line: str, out: SystemOutput) -> None:
        """Write ``line`` (the JSON of ``out``, with its newline) and sync when a group is full or old."""
        self._fh.write(line.encode("utf-8"))
        self._fh.flush()
        self._unsynced.append({"id": out.id, "answer": out.answer, "error": out.error,
                               "latency_s": out.latency_s, "prompt_tokens": out.prompt_tokens,
                               "completion_tokens": out.completion_tokens, "llm": out.llm})
        if len(self._unsynced) >= GROUP_COMMIT_LINES or time.monotonic() - self._synced_at >= GROUP_COMMIT_S:
            self.commit(wait=False)

    def _count(self, group: list[dict[str, Any]]) -> None:
        self.synced += len(group)
        self.failed += sum(obj["error"] is not None for obj in group)
        self._acknowledge(group)

    def commit(self, wait: bool = True) -> None:
        """Sync every line written so far and count it; ``wait=False`` (while running, with the
        overlap) counts the previous group if its fsync is done and starts the next in the
        background, or does nothing while that fsync is still going (the lines wait for the
        next call)."""
        if self._syncing is not None:
            future, group = self._syncing
            if not wait and not future.done():
                return
            self._syncing = None
            future.result()  # an fsync's OSError ends the run, as it did inline
            self._count(group)
        if not self._unsynced:
            return
        group = self._unsynced.copy()
        self._unsynced.clear()
        self._synced_at = time.monotonic()
        if self._syncer is None or wait:
            os.fsync(self._fh.fileno())
            self._count(group)
        else:
            self._syncing = (self._syncer.submit(os.fsync, self._fh.fileno()), group)

    def close(self) -> None:
        try:
            self.commit()
        finally:
            if self._syncer is not None:
                self._syncer.shutdown(wait=True)
            self._fh.close()
