"""Engines for user databases: SQLite, PostgreSQL (psycopg 3) and MySQL/MariaDB (PyMySQL).

User databases are opened read-only, enforced by the engine rather than by our good behaviour:
SQLite through ``mode=ro``, PostgreSQL through ``default_transaction_read_only``, MySQL/MariaDB
through ``SET SESSION TRANSACTION READ ONLY`` on every new connection. A write then fails in the
database itself, which is what a person trusting ragdx with production data needs.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import URL, Engine, make_url

from ragdx.errors import DatabaseError

_DRIVERS = {
    "sqlite": "sqlite+pysqlite",
    "postgresql": "postgresql+psycopg",
    "postgres": "postgresql+psycopg",
    "mysql": "mysql+pymysql",
    "mariadb": "mysql+pymysql",
}


def _path_hint(url: str | URL) -> str:
    # the commonest first try is a file name ('ragdx schema shop.db'): say how to write it as a URL
    if isinstance(url, str) and "://" not in url and url.strip():
        from pathlib import Path

        path = Path(url).expanduser()
        if path.is_file() or path.suffix.lower() in {".db", ".sqlite", ".sqlite3", ".db3"}:
            return f"; for a SQLite file write sqlite:///{url}"
    return ""


def normalise_url(url: str | URL) -> URL:
    """Parse ``url`` and pick the driver ragdx ships with when none is named."""
    try:
        parsed = make_url(url) if isinstance(url, str) else url
    except Exception as exc:  # sqlalchemy raises ArgumentError with a terse message
        raise DatabaseError(f"not a database URL ({exc}){_path_hint(url)}", source=safe_url(url)) from None
    backend = parsed.get_backend_name()
    if backend not in _DRIVERS:
        raise DatabaseError(
            f"unsupported database '{backend}'; use sqlite, postgresql or mysql/mariadb",
            source=safe_url(url),
        )
    if "+" not in parsed.drivername:
        parsed = parsed.set(drivername=_DRIVERS[backend])
    if backend == "sqlite" and isinstance(url, str):
        # SQLAlchemy percent-decodes the path ('x%41.db' became 'xA.db'): a file path is taken
        # as written, up to the query string
        raw = re.match(r"^[^:]*:///([^?]*)", url)
        if raw and raw.group(1) and parsed.database and not raw.group(1).startswith("file:"):
            parsed = parsed.set(database=raw.group(1))
    if backend == "mysql" and "charset" not in parsed.query:
        parsed = parsed.update_query_dict({"charset": "utf8mb4"})
    return parsed


def dialect_name(url: str | URL) -> str:
    """``sqlite``, ``postgresql`` or ``mysql`` (MariaDB speaks the MySQL dialect)."""
    return normalise_url(url).get_backend_name()


#: Seconds one statement may run before the database stops it (``RAGDX_STATEMENT_TIMEOUT``;
#: 0 disables). A template calling an expensive function or joining without a condition would
#: otherwise keep a production server busy long after ragdx gave up on it.
DEFAULT_STATEMENT_TIMEOUT = 600.0


def _default_timeout() -> float | None:
    raw = os.environ.get("RAGDX_STATEMENT_TIMEOUT")
    if raw is None:
        return DEFAULT_STATEMENT_TIMEOUT
    try:
        value = float(raw)
    except ValueError:
        raise DatabaseError(f"expected seconds, got {raw!r}", field="RAGDX_STATEMENT_TIMEOUT") from None
    return value if value > 0 else None


def connect(url: str | URL, *, read_only: bool = True, check: bool = True,
            statement_timeout: float | None | str = "default") -> Engine:
    """Create an engine; with ``check`` the database is contacted once so that a bad URL or an
    unreachable server fails here, with one clear line, instead of deep inside a stage.

    Every statement is bounded by ``statement_timeout`` seconds (default ``RAGDX_STATEMENT_TIMEOUT``
    or 600; None: unbounded), enforced by the database: PostgreSQL's ``statement_timeout``,
    MariaDB's ``max_statement_time`` (MySQL's ``MAX_EXECUTION_TIME``), a progress handler on
    SQLite. A statement stopped so raises :class:`DatabaseError` saying so."""
    parsed = normalise_url(url)
    backend = parsed.get_backend_name()
    timeout = _default_timeout() if statement_timeout == "default" else statement_timeout
    connect_args: dict = {}
    options = []
    if backend == "sqlite":
        parsed = _sqlite_url(parsed, read_only)
    elif backend == "postgresql" and read_only:
        options.append("-c default_transaction_read_only=on")
    elif backend == "mysql":
        connect_args["connect_timeout"] = 10
    if backend == "postgresql":
        connect_args["connect_timeout"] = 10
        if timeout:
            options.append(f"-c statement_timeout={max(1, int(timeout * 1000))}")
        if options:
            connect_args["options"] = " ".join(options)
    engine = sa.create_engine(parsed, connect_args=connect_args, pool_pre_ping=True)
    if backend == "mysql" and read_only:

        @sa.event.listens_for(engine, "connect")
        def _read_only(dbapi_conn, _record):  # noqa: ANN001 - DB-API objects are untyped
            with dbapi_conn.cursor() as cur:
                cur.execute("SET SESSION TRANSACTION READ ONLY")

    if timeout:
        _bound_statements(engine, backend, timeout, safe_url(url))
    if check:
        try:
            with engine.connect() as conn:
                conn.execute(sa.text("SELECT 1"))
        except Exception as exc:
            engine.dispose()
            raise DatabaseError(f"cannot connect: {first_line(exc)}", source=safe_url(url)) from None
    return engine


def _bound_statements(engine: Engine, backend: str, timeout: float, where: str) -> None:
    """Install the statement timeout and turn the engine's "stopped" error into one clear line."""
    if backend == "mysql":

        @sa.event.listens_for(engine, "connect")
        def _max_time(dbapi_conn, _record):  # noqa: ANN001
            with dbapi_conn.cursor() as cur:
                try:  # MariaDB: seconds, every statement
                    cur.execute(f"SET SESSION max_statement_time={float(timeout)!r}")
                except Exception:  # MySQL: milliseconds, SELECTs (all a template is)
                    cur.execute(f"SET SESSION MAX_EXECUTION_TIME={max(1, int(timeout * 1000))}")

    elif backend == "sqlite":

        @sa.event.listens_for(engine, "connect")
        def _handler(dbapi_conn, record):  # noqa: ANN001
            deadline = [float("inf")]
            record.info["ragdx_deadline"] = deadline
            # called every 10,000 virtual-machine steps; a true return interrupts the statement
            dbapi_conn.set_progress_handler(lambda: time.monotonic() > deadline[0], 10_000)

        @sa.event.listens_for(engine, "before_cursor_execute")
        def _start(conn, cursor, statement, parameters, context, executemany):  # noqa: ANN001
            deadline = conn.info.get("ragdx_deadline")
            if deadline is not None:
                deadline[0] = time.monotonic() + timeout

    @sa.event.listens_for(engine, "handle_error")
    def _timed_out(context):  # noqa: ANN001
        orig = context.original_exception
        text = str(orig).lower()
        stopped = (
            (backend == "sqlite" and "interrupted" in text)
            or (backend == "postgresql" and "statement timeout" in text)
            or (backend == "mysql" and ("max_statement_time" in text or "maximum statement execution time" in text))
        )
        if stopped:
            raise DatabaseError(f"a statement ran past the statement timeout of {timeout:g} s and was stopped "
                                "(set RAGDX_STATEMENT_TIMEOUT to allow longer)", source=where) from None


def driver_rows(result: sa.CursorResult, size: int | None = None) -> Iterator[Sequence[tuple]]:
    """The rows of an executed statement as the driver's own tuples: all of them in one batch
    (``size`` None) or ``size`` at a time (a streamed result: a few round trips, bounded memory).

    The statement is executed by SQLAlchemy as any other, so the read-only session, the statement
    timeout and its one-line error apply unchanged; only the per-row ``Row`` wrapper is skipped
    (a million rows fetched to be regrouped in Python at once). Fetch errors go through
    SQLAlchemy's own handling (the same path ``Result.fetchmany`` takes), so a timeout hit while
    fetching still raises :class:`DatabaseError`."""
    strategy = getattr(result, "cursor_strategy", None)
    if strategy is None or not hasattr(strategy, "fetchmany"):  # pragma: no cover - another SQLAlchemy
        # Row objects index and slice as tuples do: slower, the same values
        if size is None:
            yield result.fetchall()
        else:
            yield from result.partitions(size)
        return
    cursor = result.cursor
    if size is None:
        yield strategy.fetchall(result, cursor)
        return
    while batch := strategy.fetchmany(result, cursor, size):
        yield batch


def _sqlite_url(url: URL, read_only: bool) -> URL:
    """A ``file:`` URI for pysqlite, with the path percent-encoded and ``mode`` ours.

    SQLite's URI parser reads ``#`` as a fragment and decodes ``%XX``: a path holding them, passed
    as it is, opened another file (created empty and writable, ``mode=ro`` lost with the
    fragment). A URI the user wrote (``sqlite:///file:...``) keeps its other parameters, but its
    ``mode`` never weakens read-only."""
    from urllib.parse import quote, unquote

    database = url.database or ""
    if database in ("", ":memory:"):
        return url
    query = {k: v for k, v in url.query.items() if k not in ("mode", "uri")}
    if database.startswith("file:"):
        encoded = database[len("file:"):]  # already a URI path: the user encoded it
        path = Path(unquote(encoded))
        if not read_only:
            return url.update_query_dict({"uri": "true"})
    else:
        path = Path(database).resolve()
        # everything but the separators is encoded: '#', '?', '%' and spaces mean something in a URI
        encoded = quote(path.as_posix(), safe="/")
    if read_only and not path.exists():
        # sqlite would otherwise create an empty file and report "no such table" much later
        raise DatabaseError("no such SQLite file", source=str(path))
    mode = "ro" if read_only else "rwc"
    return url.set(database=f"file:{encoded}", query={**query, "mode": mode, "uri": "true"})


def first_line(exc: BaseException) -> str:
    from ragdx.redact import redact_text

    text = str(getattr(exc, "orig", None) or exc).strip()
    # a driver's message may quote the connection string it was given
    return redact_text(text.splitlines()[0]) if text else type(exc).__name__


def safe_url(url: str | URL) -> str:
    """The URL without its password or any secret query parameter (``?password=``), for
    messages and manifests."""
    from ragdx.redact import redact_url

    try:
        parsed = make_url(url) if isinstance(url, str) else url
        return redact_url(parsed.render_as_string(hide_password=True))
    except Exception:
        # a plain file name holds no secret and is the clearest thing to quote back; anything
        # else that does not parse may hold a password in a shape the redaction cannot see
        if isinstance(url, str) and not any(c in url for c in "@=:?") and len(url) < 300:
            return url
        return "<database URL>"
