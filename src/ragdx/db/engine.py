"""Engines for user databases: SQLite, PostgreSQL (psycopg 3) and MySQL/MariaDB (PyMySQL).

User databases are opened read-only, enforced by the engine rather than by our good behaviour:
SQLite through ``mode=ro``, PostgreSQL through ``default_transaction_read_only``, MySQL/MariaDB
through ``SET SESSION TRANSACTION READ ONLY`` on every new connection. A write then fails in the
database itself, which is what a person trusting ragdx with production data needs. How each
engine does it (and every other engine-specific decision) is its :mod:`ragdx.db.dialect` object's.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import Any, Literal

import sqlalchemy as sa
from sqlalchemy.engine import URL, Engine, ExceptionContext, make_url

from ragdx.db.dialect import Dialect, dialect_named
from ragdx.errors import DatabaseError


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
    return dialect_named(parsed.get_backend_name(), source=safe_url(url)).normalise_url(parsed, url)


def dialect_of(url: str | URL) -> Dialect:
    """The :class:`~ragdx.db.dialect.Dialect` of the engine ``url`` names."""
    return dialect_named(normalise_url(url).get_backend_name())


def dialect_name(url: str | URL) -> str:
    """``sqlite``, ``postgresql`` or ``mysql`` (MariaDB speaks the MySQL dialect)."""
    return dialect_of(url).name


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
            statement_timeout: float | None | Literal["default"] = "default") -> Engine:
    """Create an engine; with ``check`` the database is contacted once so that a bad URL or an
    unreachable server fails here, with one clear line, instead of deep inside a stage.

    Every statement is bounded by ``statement_timeout`` seconds (default ``RAGDX_STATEMENT_TIMEOUT``
    or 600; None: unbounded), enforced by the database: PostgreSQL's ``statement_timeout``,
    MariaDB's ``max_statement_time`` (MySQL's ``MAX_EXECUTION_TIME``), a progress handler on
    SQLite. A statement stopped so raises :class:`DatabaseError` saying so."""
    parsed = normalise_url(url)
    dialect = dialect_named(parsed.get_backend_name())
    timeout = _default_timeout() if isinstance(statement_timeout, str) else statement_timeout  # "default"
    parsed = dialect.engine_url(parsed, read_only)
    engine = sa.create_engine(parsed, connect_args=dialect.connect_args(read_only, timeout), pool_pre_ping=True)
    dialect.prepare(engine, read_only=read_only, timeout=timeout)
    if timeout:
        _report_timeouts(engine, dialect, timeout, safe_url(url))
    if check:
        try:
            with engine.connect() as conn:
                conn.execute(sa.text("SELECT 1"))
        except Exception as exc:
            engine.dispose()
            raise DatabaseError(f"cannot connect: {first_line(exc)}", source=safe_url(url)) from None
    return engine


def _report_timeouts(engine: Engine, dialect: Dialect, timeout: float, where: str) -> None:
    """Turn the engine's "stopped" error into one clear line."""

    @sa.event.listens_for(engine, "handle_error")
    def _timed_out(context: ExceptionContext) -> None:
        if dialect.stopped_by_timeout(str(context.original_exception).lower()):
            raise DatabaseError(f"a statement ran past the statement timeout of {timeout:g} s and was stopped "
                                "(set RAGDX_STATEMENT_TIMEOUT to allow longer)", source=where) from None


def driver_rows(result: sa.CursorResult[Any], size: int | None = None) -> Iterator[Sequence[tuple[Any, ...]]]:
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
