"""Everything ragdx does differently on each database engine, in one object per engine.

A :class:`Dialect` answers every question whose answer depends on the engine: the driver a URL
gets, how a connection is made read-only and how a statement is bounded in time (and how the
engine says it stopped one), how an identifier and a literal are written, the parameter style of
a bound query, the SQL writer sqlglot renders templates with, how many digits a float read back
carries, how reflected names are spelled and what the loosest collation keeps of a text value.
Nothing else in ragdx branches on an engine's name (``tests/test_dialect.py`` checks it): a new
engine is a subclass here, registered with :func:`register`, plus its tests.

A URL's backend name (``postgres``, ``mariadb``) and SQLAlchemy's dialect name both find the
engine's one object; :attr:`Dialect.name` is the canonical name (``sqlite``, ``postgresql``,
``mysql``) that schemas and parsed templates carry.
"""

from __future__ import annotations

import re
import time
import unicodedata
from datetime import date, datetime
from datetime import time as time_of_day
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from ragdx.errors import DatabaseError

if TYPE_CHECKING:
    from sqlalchemy.engine import URL, Connection, Engine
    from sqlalchemy.engine.interfaces import ExecutionContext
    from sqlalchemy.pool import ConnectionPoolEntry

#: the sqlglot dialect ragdx's own (schema-derived) templates are read in: they quote identifiers
#: the standard way ("Order Details"), which MySQL's reader would take for a string
NEUTRAL_GLOT = "sqlite"


class Dialect:
    """The decisions of one engine; the defaults are standard SQL, subclasses say what differs."""

    #: canonical name, carried by :class:`~ragdx.db.schema.Schema` and parsed templates
    name: ClassVar[str]
    #: other URL backend / SQLAlchemy dialect names of the same engine
    aliases: ClassVar[tuple[str, ...]] = ()
    #: how the error message lists it ("mysql/mariadb")
    label: ClassVar[str]
    #: the SQLAlchemy driver ragdx ships with, used when a URL names none
    driver: ClassVar[str]
    #: sqlglot's name for the engine (reading a user's template, the benchmarks' plain writer)
    glot: ClassVar[str]
    identifier_quote: ClassVar[str] = '"'
    #: a bound parameter is ``:name`` (named) or ``%(name)s`` (pyformat, '%' in the text doubled)
    paramstyle: ClassVar[str] = "pyformat"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} dialect>"

    # --- connections

    def normalise_url(self, url: URL, written: str | URL) -> URL:
        """``url`` (parsed from ``written``) with the engine's own defaults filled in."""
        return url if "+" in url.drivername else url.set(drivername=self.driver)

    def engine_url(self, url: URL, read_only: bool) -> URL:
        """The URL the engine is created from (SQLite enforces read-only through it)."""
        return url

    def connect_args(self, read_only: bool, timeout: float | None) -> dict[str, Any]:
        """The driver's connect arguments (read-only and the statement timeout where the
        server takes them at connection time)."""
        return {"connect_timeout": 10}

    def prepare(self, engine: Engine, *, read_only: bool, timeout: float | None) -> None:
        """Install what every new connection needs that the connect arguments cannot say."""

    def stopped_by_timeout(self, message: str) -> bool:
        """Whether the (lower-cased) driver error ``message`` says the statement timeout hit."""
        return False

    def database_file(self, url: URL) -> Path | None:
        """The file the database lives in, for an engine that keeps one (None: a server)."""
        return None

    # --- SQL text

    def quote_identifier(self, name: str) -> str:
        """``name`` quoted, quotes inside doubled."""
        q = self.identifier_quote
        return q + name.replace(q, q * 2) + q

    def reflected_name(self, name: str) -> str:
        """A table or column name as SQLAlchemy's reflection reports it, as the database spells it."""
        return name

    def text_literal(self, text: str) -> str:
        return "'" + text.replace("'", "''") + "'"

    def bool_literal(self, value: bool) -> str:
        return "TRUE" if value else "FALSE"

    def literal(self, value: Any) -> str:
        """A SQL literal for ``value``; only for display and re-checking, never for executing
        user-facing queries with values (those are bound parameters)."""
        if type(value) is str:  # the common case first: a million values per template are text
            return self.text_literal(value)
        if value is None:
            return "NULL"
        if isinstance(value, bool):
            return self.bool_literal(value)
        if isinstance(value, int | float | Decimal):
            return repr(value) if isinstance(value, float) else str(value)
        if isinstance(value, datetime | date | time_of_day):
            value = value.isoformat(sep=" ") if isinstance(value, datetime) else value.isoformat()
        if isinstance(value, bytes):
            return "X'" + value.hex() + "'"
        return self.text_literal(str(value))

    def parameter(self, name: str) -> str:
        """How the bound parameter ``name`` is written in a query."""
        return f":{name}" if self.paramstyle == "named" else f"%({name})s"

    def escape_for_parameters(self, sql: str) -> str:
        """``sql`` with what the parameter style would read as a parameter escaped."""
        # psycopg and PyMySQL use pyformat: a literal % must be doubled
        return sql if self.paramstyle == "named" else sql.replace("%", "%%")

    def sqlglot_writer(self) -> Any:
        """What sqlglot renders this engine's SQL with (a name or a sqlglot Dialect class)."""
        return self.glot

    # --- values

    def float_digits(self, type_name: str) -> int:
        """Significant digits of a float read from a column of declared type ``type_name``."""
        return 15

    def collation_key(self, value: Any) -> Any:
        """What the loosest collation the engine offers keeps of a text value: values with equal
        keys may be one value to the database's ``=`` and ``DISTINCT`` (case, accents and
        trailing spaces ignored, as MariaDB's default and PostgreSQL's nondeterministic
        collations do, a superset of SQLite's NOCASE and RTRIM)."""
        if not isinstance(value, str):
            return value
        decomposed = unicodedata.normalize("NFKD", value.casefold())
        return "".join(c for c in decomposed if not unicodedata.combining(c)).rstrip(" ")


_REGISTRY: dict[str, Dialect] = {}


def register(cls: type[Dialect]) -> type[Dialect]:
    """Class decorator: the engine answers to its name and its aliases."""
    instance = cls()
    for name in (cls.name, *cls.aliases):
        if name in _REGISTRY:
            raise ValueError(f"two dialects named {name!r}")
        _REGISTRY[name] = instance
    return cls


def registered() -> list[Dialect]:
    """Every engine, once each, in registration order."""
    return list(dict.fromkeys(_REGISTRY.values()))


def dialect_named(name: str, *, source: str | None = None) -> Dialect:
    """The engine called ``name`` (canonical, alias or SQLAlchemy's dialect name); an engine
    ragdx does not know is a one-line :class:`DatabaseError` naming ``source``."""
    try:
        return _REGISTRY[name]
    except KeyError:
        labels = [d.label for d in registered()]
        known = ", ".join(labels[:-1]) + " or " + labels[-1]
        raise DatabaseError(f"unsupported database '{name}'; use {known}", source=source) from None


@register
class SQLite(Dialect):
    """Read-only through the ``file:`` URI's ``mode=ro``; the timeout through a progress handler."""

    name = "sqlite"
    label = "sqlite"
    driver = "sqlite+pysqlite"
    glot = "sqlite"
    paramstyle = "named"

    def normalise_url(self, url: URL, written: str | URL) -> URL:
        url = super().normalise_url(url, written)
        if isinstance(written, str):
            # SQLAlchemy percent-decodes the path ('x%41.db' became 'xA.db'): a file path is taken
            # as written, up to the query string
            raw = re.match(r"^[^:]*:///([^?]*)", written)
            if raw and raw.group(1) and url.database and not raw.group(1).startswith("file:"):
                url = url.set(database=raw.group(1))
        return url

    def engine_url(self, url: URL, read_only: bool) -> URL:
        """A ``file:`` URI for pysqlite, with the path percent-encoded and ``mode`` ours.

        SQLite's URI parser reads ``#`` as a fragment and decodes ``%XX``: a path holding them,
        passed as it is, opened another file (created empty and writable, ``mode=ro`` lost with
        the fragment). A URI the user wrote (``sqlite:///file:...``) keeps its other parameters,
        but its ``mode`` never weakens read-only."""
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

    def connect_args(self, read_only: bool, timeout: float | None) -> dict[str, Any]:
        return {}

    def prepare(self, engine: Engine, *, read_only: bool, timeout: float | None) -> None:
        if not timeout:
            return
        import sqlalchemy as sa

        @sa.event.listens_for(engine, "connect")
        def _handler(dbapi_conn: Any, record: ConnectionPoolEntry) -> None:  # the DB-API connection is untyped
            deadline = [float("inf")]
            record.info["ragdx_deadline"] = deadline
            # called every 10,000 virtual-machine steps; a true return interrupts the statement
            dbapi_conn.set_progress_handler(lambda: time.monotonic() > deadline[0], 10_000)

        @sa.event.listens_for(engine, "before_cursor_execute")
        def _start(conn: Connection, cursor: Any, statement: str, parameters: Any,
                   context: ExecutionContext | None, executemany: bool) -> None:
            deadline = conn.info.get("ragdx_deadline")
            if deadline is not None:
                deadline[0] = time.monotonic() + timeout

    def stopped_by_timeout(self, message: str) -> bool:
        return "interrupted" in message

    def database_file(self, url: URL) -> Path | None:
        return Path(url.database) if url.database and url.database != ":memory:" else None

    def bool_literal(self, value: bool) -> str:
        return "1" if value else "0"


@register
class PostgreSQL(Dialect):
    """Read-only through ``default_transaction_read_only``, the timeout through
    ``statement_timeout``, both set at connection time; ``REAL`` is a 4-byte float."""

    name = "postgresql"
    aliases = ("postgres",)
    label = "postgresql"
    driver = "postgresql+psycopg"
    glot = "postgres"

    def connect_args(self, read_only: bool, timeout: float | None) -> dict[str, Any]:
        options = ["-c default_transaction_read_only=on"] if read_only else []
        if timeout:
            options.append(f"-c statement_timeout={max(1, int(timeout * 1000))}")
        args: dict[str, Any] = {"connect_timeout": 10}
        if options:
            args["options"] = " ".join(options)
        return args

    def stopped_by_timeout(self, message: str) -> bool:
        return "statement timeout" in message

    def float_digits(self, type_name: str) -> int:
        # a 4-byte REAL read back as a double carries noise in its last digits
        return 7 if type_name in ("REAL", "FLOAT4") else 15


@cache
def _mysql_writer() -> Any:
    from sqlglot import exp
    from sqlglot.dialects.mysql import MySQL as GlotMySQL

    class MySQLAndMariaDB(GlotMySQL):
        """MySQL as sqlglot writes it, but with ``a REGEXP b`` where sqlglot writes
        REGEXP_LIKE(a, b): MariaDB has no REGEXP_LIKE, and both servers know the operator."""

        # sqlglot 30 binds Dialect.Generator as an attribute (MySQL.Generator = MySQLGenerator), which
        # its types do not let a class derive from; sqlglot.generators, where the class lives, is
        # newer than the sqlglot>=25 ragdx accepts
        class Generator(GlotMySQL.Generator):  # type: ignore[misc, valid-type]
            TRANSFORMS = {
                **GlotMySQL.Generator.TRANSFORMS,
                exp.RegexpLike: lambda self, e: (
                    f"{self.sql(e, 'this')} REGEXP {self.sql(e, 'expression')}" if not e.args.get("flag")
                    else self.function_fallback_sql(e)),
            }

    return MySQLAndMariaDB


@register
class MySQL(Dialect):
    """MySQL and MariaDB (PyMySQL): read-only and the timeout set on every new connection;
    backticks; a backslash in a string literal is an escape."""

    name = "mysql"
    aliases = ("mariadb",)
    label = "mysql/mariadb"
    driver = "mysql+pymysql"
    glot = "mysql"
    identifier_quote = "`"

    def normalise_url(self, url: URL, written: str | URL) -> URL:
        url = super().normalise_url(url, written)
        return url if "charset" in url.query else url.update_query_dict({"charset": "utf8mb4"})

    def prepare(self, engine: Engine, *, read_only: bool, timeout: float | None) -> None:
        import sqlalchemy as sa

        if read_only:

            @sa.event.listens_for(engine, "connect")
            def _read_only(dbapi_conn: Any, _record: ConnectionPoolEntry) -> None:  # DB-API: untyped
                with dbapi_conn.cursor() as cur:
                    cur.execute("SET SESSION TRANSACTION READ ONLY")

        if timeout:

            @sa.event.listens_for(engine, "connect")
            def _max_time(dbapi_conn: Any, _record: ConnectionPoolEntry) -> None:
                with dbapi_conn.cursor() as cur:
                    try:  # MariaDB: seconds, every statement
                        cur.execute(f"SET SESSION max_statement_time={float(timeout)!r}")
                    except Exception:  # MySQL: milliseconds, SELECTs (all a template is)
                        cur.execute(f"SET SESSION MAX_EXECUTION_TIME={max(1, int(timeout * 1000))}")

    def stopped_by_timeout(self, message: str) -> bool:
        return "max_statement_time" in message or "maximum statement execution time" in message

    def reflected_name(self, name: str) -> str:
        # SQLAlchemy's reflection reads SHOW CREATE TABLE and leaves a backtick in a name doubled
        # ("Na``me"): every query on that column would name a column that does not exist
        return name.replace("``", "`")

    def text_literal(self, text: str) -> str:
        return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'"

    def sqlglot_writer(self) -> Any:
        return _mysql_writer()
