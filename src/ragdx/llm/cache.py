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
    """sha256 of the request as it bears on the answer: with the credentials of its endpoint URL
    and of secret-named parameters masked (a key or token does not change the completion, and
    the key must not be a function of it), the messages exactly as sent (masking text inside
    them could make two different prompts one entry)."""
    return hashlib.sha256(canonical_json(keyed_request(request)).encode()).hexdigest()


def keyed_request(request: Mapping[str, Any]) -> dict[str, Any]:
    """What :func:`request_key` hashes: ``request`` with its ``base_url`` and secret-named
    ``params`` masked; equal to ``request`` when it holds no credential, so existing cache
    entries keep their keys."""
    from ragdx.redact import MASK, redact_url, secret_name

    keyed = dict(request)
    if isinstance(keyed.get("base_url"), str):
        keyed["base_url"] = redact_url(keyed["base_url"])
    if isinstance(keyed.get("params"), Mapping):
        keyed["params"] = {k: (MASK if secret_name(k) and v not in (None, "") else v)
                           for k, v in keyed["params"].items()}
    return keyed


def stored_request(request: Mapping[str, Any]) -> str:
    """The request as the cache file keeps it, for people reading the cache: every credential
    masked, in the URL, the parameters and the text of the messages."""
    from ragdx.redact import redact

    return canonical_json(redact(_normalise(request)))


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
    sent is a miss; credentials in the endpoint URL or the parameters are masked before hashing
    and storing (:func:`request_key`, :func:`stored_request`): they never reach the file.
    The file and its directory are created user-only. Entries are never overwritten: when two
    processes race on one request the first answer stays, and a key never changes meaning once
    someone has read it.

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
                    stored_request(request),
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
                private_cache_file(self.path)
            conn = sqlite3.connect(self.path, timeout=30)
            try:
                if not self._ready:
                    conn.execute("PRAGMA journal_mode=WAL")
                    conn.execute(_SCHEMA)
                    # SQLite gives -wal and -shm the database's mode; an older ragdx's are narrowed
                    private_cache_file(self.path, siblings_only=True)
                    _scrub_once(conn)
                    self._ready = True
                with conn:  # one transaction per operation
                    yield conn
            finally:
                conn.close()
        except (sqlite3.Error, OSError) as exc:
            raise RagdxError(f"LLM cache unusable: {exc}", source=str(self.path)) from exc


#: ``PRAGMA user_version`` of a cache whose stored requests are redacted (0: written by an older
#: ragdx, which stored the request, base URL credentials included, in clear)
_REDACTED_VERSION = 1


def _scrub_once(conn: sqlite3.Connection) -> None:
    """Redact the requests an older ragdx stored in clear, once per file. Their keys stay: a hash
    reveals nothing, and such an entry is simply never asked for again when its URL held a secret."""
    with conn:
        if conn.execute("PRAGMA user_version").fetchone()[0] >= _REDACTED_VERSION:
            return
        changed = []
        for key, request in conn.execute("SELECT key, request FROM completions"):
            try:
                clean = stored_request(json.loads(request))
            except ValueError:
                clean = canonical_json({"unreadable": True})
            if clean != request:
                changed.append((clean, key))
        conn.executemany("UPDATE completions SET request = ? WHERE key = ?", changed)
        conn.execute(f"PRAGMA user_version = {_REDACTED_VERSION}")
    if changed:
        # the old text may linger in free pages and the WAL until they are rewritten
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("VACUUM")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def private_cache_file(path: Path, *, siblings_only: bool = False) -> None:
    """The cache file (it holds full prompts and answers) and its WAL companions user-only,
    whatever the umask; its directory created 0700 when ragdx creates it."""
    from ragdx.store import private_dir, private_file

    if not siblings_only:
        private_dir(path.parent)
        private_file(path)
    for suffix in ("-wal", "-shm"):
        sibling = path.with_name(path.name + suffix)
        if sibling.exists():
            private_file(sibling)
