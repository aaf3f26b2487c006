"""On-disk cache of chat completions, keyed by everything that was sent."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ragdx.errors import RagdxError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS completions (
    key      TEXT PRIMARY KEY,
    request  TEXT NOT NULL,
    response TEXT NOT NULL,
    created  TEXT NOT NULL
)
"""


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no whitespace, so equal requests give equal bytes.

    Integral floats are written as integers: ``temperature=0`` and ``temperature=0.0`` mean
    the same request to every server and must not be cached twice.
    """
    return json.dumps(_normalise(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def request_key(request: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical_json(request).encode()).hexdigest()


def _normalise(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, Mapping):
        return {str(k): _normalise(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_normalise(v) for v in value]
    return value


class CompletionCache:
    """A SQLite file mapping request -> response, shared safely by threads and processes.

    The key is the sha256 of the canonical JSON of the full request (endpoint, model,
    messages, every sampling parameter and the sample index), so any change to what would be
    sent is a miss. Entries are never overwritten: when two processes race on one request
    the first answer stays, and a key never changes meaning once someone has read it.

    WAL mode lets readers and one writer work at once; it needs a local file system.
    Each operation opens its own connection, which keeps the object free of thread and
    event-loop affinity and needs no closing.
    """

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self._ready = False

    def get(self, request: Mapping[str, Any]) -> dict[str, Any] | None:
        with self._connect() as conn:
            row = conn.execute(
                "SELECT response FROM completions WHERE key = ?", (request_key(request),)
            ).fetchone()
        return None if row is None else json.loads(row[0])

    def put(self, request: Mapping[str, Any], response: Mapping[str, Any]) -> None:
        with self._connect() as conn:
            conn.execute(
                "INSERT OR IGNORE INTO completions (key, request, response, created) VALUES (?, ?, ?, ?)",
                (
                    request_key(request),
                    canonical_json(request),
                    canonical_json(response),
                    datetime.now(UTC).isoformat(timespec="seconds"),
                ),
            )

    def __len__(self) -> int:
        with self._connect() as conn:
            return int(conn.execute("SELECT COUNT(*) FROM completions").fetchone()[0])

    def __repr__(self) -> str:
        return f"CompletionCache({str(self.path)!r})"

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            if not self._ready:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=30)
            try:
                if not self._ready:
                    conn.execute("PRAGMA journal_mode=WAL")
                    conn.execute(_SCHEMA)
                    self._ready = True
                with conn:  # one transaction per operation
                    yield conn
            finally:
                conn.close()
        except (sqlite3.Error, OSError) as exc:
            raise RagdxError(f"LLM cache unusable: {exc}", source=str(self.path)) from exc
