"""Engines for user databases: SQLite, PostgreSQL (psycopg 3) and MySQL/MariaDB (PyMySQL).

User databases are opened read-only, enforced by the engine rather than by our good behaviour:
SQLite through ``mode=ro``, PostgreSQL through ``default_transaction_read_only``, MySQL/MariaDB
through ``SET SESSION TRANSACTION READ ONLY`` on every new connection. A write then fails in the
database itself, which is what a person trusting ragdx with production data needs.
"""

from __future__ import annotations

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


def normalise_url(url: str | URL) -> URL:
    """Parse ``url`` and pick the driver ragdx ships with when none is named."""
    try:
        parsed = make_url(url) if isinstance(url, str) else url
    except Exception as exc:  # sqlalchemy raises ArgumentError with a terse message
        raise DatabaseError(f"not a database URL ({exc})", source=_safe(url)) from None
    backend = parsed.get_backend_name()
    if backend not in _DRIVERS:
        raise DatabaseError(
            f"unsupported database '{backend}'; use sqlite, postgresql or mysql/mariadb",
            source=_safe(url),
        )
    if "+" not in parsed.drivername:
        parsed = parsed.set(drivername=_DRIVERS[backend])
    if backend == "mysql" and "charset" not in parsed.query:
        parsed = parsed.update_query_dict({"charset": "utf8mb4"})
    return parsed


def dialect_name(url: str | URL) -> str:
    """``sqlite``, ``postgresql`` or ``mysql`` (MariaDB speaks the MySQL dialect)."""
    return normalise_url(url).get_backend_name()


def connect(url: str | URL, *, read_only: bool = True, check: bool = True) -> Engine:
    """Create an engine; with ``check`` the database is contacted once so that a bad URL or an
    unreachable server fails here, with one clear line, instead of deep inside a stage."""
    parsed = normalise_url(url)
    backend = parsed.get_backend_name()
    connect_args: dict = {}
    if backend == "sqlite":
        parsed = _sqlite_url(parsed, read_only)
    elif backend == "postgresql" and read_only:
        connect_args["options"] = "-c default_transaction_read_only=on"
    elif backend == "mysql":
        connect_args["connect_timeout"] = 10
    if backend == "postgresql":
        connect_args["connect_timeout"] = 10
    engine = sa.create_engine(parsed, connect_args=connect_args, pool_pre_ping=True)
    if backend == "mysql" and read_only:

        @sa.event.listens_for(engine, "connect")
        def _read_only(dbapi_conn, _record):  # noqa: ANN001 - DB-API objects are untyped
            with dbapi_conn.cursor() as cur:
                cur.execute("SET SESSION TRANSACTION READ ONLY")

    if check:
        try:
            with engine.connect() as conn:
                conn.execute(sa.text("SELECT 1"))
        except Exception as exc:
            engine.dispose()
            raise DatabaseError(f"cannot connect: {_first_line(exc)}", source=_safe(url)) from None
    return engine


def _sqlite_url(url: URL, read_only: bool) -> URL:
    database = url.database or ""
    if database in ("", ":memory:") or database.startswith("file:"):
        return url
    path = Path(database)
    if read_only and not path.exists():
        # sqlite would otherwise create an empty file and report "no such table" much later
        raise DatabaseError("no such SQLite file", source=str(path))
    mode = "ro" if read_only else "rwc"
    return url.set(database=f"file:{path.resolve().as_posix()}", query={"mode": mode, "uri": "true"})


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _safe(url: str | URL) -> str:
    """The URL without its password, for messages."""
    try:
        parsed = make_url(url) if isinstance(url, str) else url
        return parsed.render_as_string(hide_password=True)
    except Exception:
        return "<database URL>"
