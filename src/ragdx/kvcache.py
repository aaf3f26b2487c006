"""One on-disk key-value cache: the home of ragdx's completion, verdict and embedding caches.

A :class:`KVStore` is one SQLite file; a :class:`Namespace` is one table in it (``key TEXT PRIMARY
KEY, value BLOB, meta TEXT, created TEXT``): the typed caches (:class:`ragdx.llm.cache.CompletionCache`,
:class:`ragdx.evaluate.judges.VerdictCache`, the embedding cache of :mod:`ragdx.embed`) are thin
layers that make keys and encode values. What every cache shares lives here once:

* created user-only (file 0600, a directory ragdx creates 0700, the WAL companions narrowed too):
  caches hold prompts, answers and the user's texts;
* one connection per store, serialised by a lock, so threads share it; WAL, so processes share
  the file (it needs a local file system); a connection is never used across ``fork``;
* a bounded value size, checked before anything is written;
* tables an older ragdx wrote (``emb``, ``completions``, ``verdicts``, each with its own columns)
  adopted on first open (:class:`Legacy`), so existing caches keep hitting.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ragdx.errors import RagdxError

#: the largest value a namespace accepts (bytes): far above any completion, verdict or vector, far
#: below what would make one row a problem for SQLite or for memory
MAX_VALUE_BYTES = 16 * 1024 * 1024
#: keys per ``SELECT ... IN (...)``: SQLite limits the number of bound parameters
_CHUNK = 500
_NAME = re.compile(r"[a-z][a-z0-9_]{0,62}")
#: the table of namespace versions (reserved: no namespace starts with ``kv_``)
_VERSIONS = "kv_namespaces"


@dataclass(frozen=True)
class Legacy:
    """How a namespace's table as an older ragdx wrote it (same name, no ``value`` column) is adopted.

    ``renames``: old column -> ``value`` / ``meta``, done in place (instant, whatever the size:
    the embedding cache); missing ``meta`` / ``created`` columns are added. ``value_sql``: instead,
    an SQL expression over the old row giving the value, the rows copied into a new table (for a
    table whose value was spread over several columns)."""

    renames: Mapping[str, str] = field(default_factory=dict)
    value_sql: str | None = None


@dataclass(frozen=True)
class Entry:
    """One row to write: ``meta`` is for people reading the file (never read back by ragdx)."""

    key: str
    value: bytes | str
    meta: str | None = None


@dataclass(frozen=True)
class StoreInfo:
    """What a cache file holds, read without creating or changing it."""

    path: Path
    exists: bool
    bytes: int
    #: rows per table (namespaces, and tables an older ragdx wrote)
    rows: dict[str, int]


def private_cache_file(path: Path, *, siblings_only: bool = False) -> None:
    """The cache file and its WAL companions user-only, whatever the umask; its directory created
    0700 when ragdx creates it.

    None of these files is ever opened here once it exists: SQLite holds POSIX locks on them, and
    POSIX drops every lock a process holds on a file as soon as the process closes *any*
    descriptor of that file. Opening the -shm to fix its mode, with this process's connection
    open, released the connection's locks; another process then took the -shm for its first
    user and truncated it under our mapping (SIGBUS, seen in tests/test_kvcache.py's two-process
    test). A missing file is created with O_EXCL (no lock can exist on a file that did not
    exist); an existing one is only chmod-ed, which touches no lock. SQLite gives a new -wal and
    -shm the database file's mode."""
    from ragdx.store import PRIVATE_FILE, private_dir

    if not siblings_only:
        private_dir(path.parent)
        if not path.exists():
            try:
                os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, PRIVATE_FILE))
            except FileExistsError:
                pass  # another process created it just now
    names = ([] if siblings_only else [path]) + [path.with_name(path.name + s) for s in ("-wal", "-shm")]
    for name in names:
        try:
            if os.stat(name).st_mode & 0o077:
                os.chmod(name, PRIVATE_FILE)
        except FileNotFoundError:
            continue


def _wal(conn: sqlite3.Connection, wait_s: float = 30.0) -> None:
    """WAL mode, once per file (it persists). Switching takes the file alone and does not wait on
    the busy timeout: two processes opening a new cache at once both try, one is told "locked";
    it asks again until the other has switched (then the mode reads "wal" and nothing is left)."""
    import time

    deadline = time.monotonic() + wait_s
    while True:
        try:
            if conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
                return
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


class KVStore:
    """One SQLite cache file. ``label`` names it in errors ("LLM cache unusable: ...").

    Nothing is touched until the first operation; the connection is opened then and kept
    (reopened in a forked child, dropped when pickled)."""

    def __init__(self, path: str | os.PathLike[str], *, label: str = "cache",
                 max_value_bytes: int = MAX_VALUE_BYTES):
        self.path = Path(path)
        self.label = label
        self.max_value_bytes = max_value_bytes
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._pid = 0
        self._ready: set[str] = set()
        self._namespaces: dict[str, Namespace] = {}

    def __repr__(self) -> str:
        return f"KVStore({str(self.path)!r})"

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.update(_lock=None, _conn=None, _pid=0, _ready=set())
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def namespace(self, name: str, *, overwrite: bool = False, legacy: Legacy | None = None) -> Namespace:
        """The table ``name``. ``overwrite``: a put replaces an existing entry (else the first
        value stays: when two processes race on one key, a key never changes meaning once read)."""
        if not _NAME.fullmatch(name) or name.startswith("kv_"):
            raise RagdxError(f"bad cache namespace {name!r} (lower-case letters, digits, _; not kv_...)",
                             source=str(self.path), field="namespace")
        ns = self._namespaces.get(name)
        if ns is None:
            ns = self._namespaces[name] = Namespace(self, name, overwrite=overwrite, legacy=legacy)
        return ns

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
            self._conn, self._ready = None, set()

    def compact(self) -> None:
        """Rewrite the file so that deleted or replaced text leaves no trace in free pages or the WAL."""
        with self.connection() as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            conn.execute("VACUUM")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def connection(self, ns: Namespace | None = None) -> _Locked:
        """``with store.connection(ns) as conn``: the store's connection, held alone, with ``ns``'s
        table ready; SQLite and OS errors become one :class:`RagdxError` naming the file."""
        return _Locked(self, ns)

    def _open(self, ns: Namespace | None) -> sqlite3.Connection:
        if self._conn is not None and self._pid != os.getpid():
            # a connection inherited through fork must not be used (SQLite's locks are per process)
            self._conn, self._ready = None, set()
        if self._conn is None:
            private_cache_file(self.path)
            conn = sqlite3.connect(self.path, timeout=30, check_same_thread=False, isolation_level=None)
            _wal(conn)
            # SQLite gives -wal and -shm the database's mode; an older ragdx's are narrowed
            private_cache_file(self.path, siblings_only=True)
            self._conn, self._pid = conn, os.getpid()
        if ns is not None and ns.name not in self._ready:
            _prepare(self._conn, ns)
            self._ready.add(ns.name)
        return self._conn


class _Locked:
    def __init__(self, store: KVStore, ns: Namespace | None):
        self.store, self.ns = store, ns

    def __enter__(self) -> sqlite3.Connection:
        self.store._lock.acquire()
        try:
            return self.store._open(self.ns)
        except (sqlite3.Error, OSError) as exc:
            self.store._lock.release()
            raise self._error(exc) from exc
        except BaseException:
            self.store._lock.release()
            raise

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: Any) -> None:
        try:
            if self.store._conn is not None and self.store._conn.in_transaction:
                self.store._conn.execute("ROLLBACK")  # an operation that failed half-way writes nothing
        finally:
            self.store._lock.release()
        if isinstance(exc, sqlite3.Error | OSError):
            raise self._error(exc) from exc

    def _error(self, exc: BaseException) -> RagdxError:
        return RagdxError(f"{self.store.label} unusable: {exc}", source=str(self.store.path),
                          field=None if self.ns is None else self.ns.name)


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in conn.execute(f'PRAGMA table_info("{table}")')]


def _prepare(conn: sqlite3.Connection, ns: Namespace) -> None:
    """Create ``ns``'s table, or adopt the one an older ragdx wrote under that name (once, in one
    transaction, which a second process racing on it waits for and then finds done)."""
    if "value" in _columns(conn, ns.name) and _columns(conn, _VERSIONS):
        return  # the usual case, read without taking the write lock
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(f"CREATE TABLE IF NOT EXISTS {_VERSIONS} (name TEXT PRIMARY KEY, version INTEGER NOT NULL)")
        columns = _columns(conn, ns.name)
        if not columns:
            conn.execute(f'CREATE TABLE "{ns.name}" (key TEXT PRIMARY KEY, value BLOB NOT NULL, meta TEXT, '
                         "created TEXT)")
            conn.execute(f"INSERT OR IGNORE INTO {_VERSIONS} VALUES (?, 0)", (ns.name,))
        elif "value" not in columns:
            _adopt(conn, ns, columns)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _adopt(conn: sqlite3.Connection, ns: Namespace, columns: list[str]) -> None:
    legacy = ns.legacy
    if legacy is None or "key" not in columns:
        raise RagdxError(f"{ns.store.label}: table {ns.name} has an unknown layout ({', '.join(columns)})",
                         source=str(ns.store.path), field=ns.name)
    if legacy.value_sql is not None:
        old = f"{ns.name}_before_kv"
        conn.execute(f'ALTER TABLE "{ns.name}" RENAME TO "{old}"')
        conn.execute(f'CREATE TABLE "{ns.name}" (key TEXT PRIMARY KEY, value BLOB NOT NULL, meta TEXT, '
                     "created TEXT)")
        created = "created" if "created" in columns else "NULL"
        conn.execute(f'INSERT INTO "{ns.name}" (key, value, created) '
                     f'SELECT key, {legacy.value_sql}, {created} FROM "{old}"')
        conn.execute(f'DROP TABLE "{old}"')
    else:
        for before, after in legacy.renames.items():
            if before in columns:
                conn.execute(f'ALTER TABLE "{ns.name}" RENAME COLUMN "{before}" TO "{after}"')
        have = set(_columns(conn, ns.name))
        for missing in ("meta", "created"):
            if missing not in have:
                conn.execute(f'ALTER TABLE "{ns.name}" ADD COLUMN {missing} TEXT')
    # the file's own mark (an older completion cache kept its scrub there) becomes the namespace's
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    conn.execute(f"INSERT OR REPLACE INTO {_VERSIONS} VALUES (?, ?)", (ns.name, version))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Namespace:
    """One table of a :class:`KVStore`: keys to bytes (text values come back as their UTF-8)."""

    def __init__(self, store: KVStore, name: str, *, overwrite: bool, legacy: Legacy | None):
        self.store, self.name, self.overwrite, self.legacy = store, name, overwrite, legacy
        verb = "INSERT OR REPLACE" if overwrite else "INSERT OR IGNORE"
        self._insert = f'{verb} INTO "{name}" (key, value, meta, created) VALUES (?, ?, ?, ?)'

    def __repr__(self) -> str:
        return f"Namespace({str(self.store.path)!r}, {self.name!r})"

    def get(self, key: str) -> bytes | None:
        with self.store.connection(self) as conn:
            row = conn.execute(f'SELECT CAST(value AS BLOB) FROM "{self.name}" WHERE key = ?', (key,)).fetchone()
        return None if row is None else bytes(row[0])

    def get_many(self, keys: Sequence[str]) -> dict[str, bytes]:
        """The entries among ``keys`` that are present (a missing key is simply absent)."""
        found: dict[str, bytes] = {}
        with self.store.connection(self) as conn:
            for i in range(0, len(keys), _CHUNK):
                chunk = list(keys[i:i + _CHUNK])
                marks = ",".join("?" * len(chunk))
                # a value written as text (JSON, by ragdx or an older one) comes back as its UTF-8
                found.update(conn.execute(f'SELECT key, CAST(value AS BLOB) FROM "{self.name}" '
                                          f"WHERE key IN ({marks})", chunk).fetchall())
        return found

    def put(self, key: str, value: bytes | str, *, meta: str | None = None) -> None:
        self.put_many([Entry(key, value, meta)])

    def put_many(self, entries: Iterable[Entry | tuple[str, bytes | str]]) -> None:
        """Write every entry in one transaction, or none: each is checked against the size bound first."""
        now = _now()
        rows = []
        for e in entries:
            key, value, meta = (e.key, e.value, e.meta) if isinstance(e, Entry) else (e[0], e[1], None)
            size = len(value) if isinstance(value, bytes) else len(value.encode())
            if size > self.store.max_value_bytes:
                raise RagdxError(f"{self.store.label}: a value of {size:,} bytes is over the bound of "
                                 f"{self.store.max_value_bytes:,}", source=str(self.store.path), field=self.name)
            rows.append((key, value, meta, now))
        if not rows:
            return
        with self.store.connection(self) as conn:
            conn.execute("BEGIN IMMEDIATE")
            conn.executemany(self._insert, rows)
            conn.execute("COMMIT")

    def get_json(self, key: str) -> Any:
        raw = self.get(key)
        return None if raw is None else json.loads(raw)

    def put_json(self, key: str, value: Any, *, meta: str | None = None) -> None:
        """``value`` kept as compact JSON text, readable with the ``sqlite3`` shell."""
        self.put(key, json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False), meta=meta)

    def __len__(self) -> int:
        with self.store.connection(self) as conn:
            return int(conn.execute(f'SELECT COUNT(*) FROM "{self.name}"').fetchone()[0])

    def clear(self) -> int:
        """Delete every entry; returns how many there were."""
        with self.store.connection(self) as conn:
            return int(conn.execute(f'DELETE FROM "{self.name}"').rowcount)

    @property
    def version(self) -> int:
        """The namespace's format mark (0 when new): what a typed cache has done to its entries once."""
        with self.store.connection(self) as conn:
            row = conn.execute(f"SELECT version FROM {_VERSIONS} WHERE name = ?", (self.name,)).fetchone()
        return 0 if row is None else int(row[0])

    def rewrite_meta(self, fix: Callable[[str | None], str | None], *, version: int) -> int:
        """Replace each entry's ``meta`` by ``fix(meta)`` and set the version, in one transaction;
        returns the number of entries changed."""
        with self.store.connection(self) as conn:
            conn.execute("BEGIN IMMEDIATE")
            changed = []
            for key, meta in conn.execute(f'SELECT key, meta FROM "{self.name}"').fetchall():
                clean = fix(meta)
                if clean != meta:
                    changed.append((clean, key))
            conn.executemany(f'UPDATE "{self.name}" SET meta = ? WHERE key = ?', changed)
            conn.execute(f"INSERT OR REPLACE INTO {_VERSIONS} VALUES (?, ?)", (self.name, version))
            conn.execute("COMMIT")
        return len(changed)


def store_info(path: str | os.PathLike[str]) -> StoreInfo:
    """Size and rows per table of a cache file, opened read-only (nothing created or adopted)."""
    path = Path(path)
    files = [p for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm"))
             if p.is_file()]
    rows: dict[str, int] = {}
    if path.is_file():
        try:
            conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
            try:
                tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
                for t in tables:
                    if t != _VERSIONS:
                        rows[t] = int(conn.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0])
            finally:
                conn.close()
        except sqlite3.Error as exc:
            raise RagdxError(f"cache unreadable: {exc}", source=str(path)) from exc
    return StoreInfo(path, path.is_file(), sum(p.stat().st_size for p in files), rows)


def remove_store(path: str | os.PathLike[str]) -> int:
    """Delete a cache file and its WAL companions (nothing else in the directory); returns the bytes freed."""
    path = Path(path)
    freed = 0
    for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if p.is_file():
            freed += p.stat().st_size
            p.unlink()
    return freed
