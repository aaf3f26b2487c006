"""One object per database engine (issue 20 item 4): every engine-specific decision is its
:class:`ragdx.db.dialect.Dialect`'s, and no other module branches on an engine's name."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import make_url

from ragdx.db.dialect import NEUTRAL_GLOT, dialect_named, registered
from ragdx.db.engine import connect, dialect_name, normalise_url
from ragdx.errors import DatabaseError

SRC = Path(__file__).resolve().parents[1] / "src" / "ragdx"
HOME = SRC / "db" / "dialect.py"

sqlite, postgresql, mysql = dialect_named("sqlite"), dialect_named("postgresql"), dialect_named("mysql")


# ----------------------------------------------------------------------------- the registry


def test_every_spelling_of_an_engine_finds_its_one_object():
    assert dialect_named("postgres") is postgresql and dialect_named("mariadb") is mysql
    assert [d.name for d in registered()] == ["sqlite", "postgresql", "mysql"]
    for url, name, driver in [("sqlite:///x.db", "sqlite", "sqlite+pysqlite"),
                              ("postgres://u@h/d", "postgresql", "postgresql+psycopg"),
                              ("postgresql://u@h/d", "postgresql", "postgresql+psycopg"),
                              ("mysql://u@h/d", "mysql", "mysql+pymysql"),
                              ("mariadb://u@h/d", "mysql", "mysql+pymysql"),
                              ("mariadb+pymysql://u@h/d", "mysql", "mariadb+pymysql")]:
        assert dialect_name(url) == name, url
        assert normalise_url(url).drivername == driver, url
    # both spellings of MariaDB get the 4-byte charset; one the user wrote stays
    assert normalise_url("mariadb+pymysql://u@h/d").query["charset"] == "utf8mb4"
    assert normalise_url("mysql://u@h/d?charset=latin1").query["charset"] == "latin1"
    assert "charset" not in normalise_url("postgres://u@h/d").query


def test_an_unknown_engine_is_one_line_naming_it():
    with pytest.raises(DatabaseError) as info:
        dialect_named("duckdb", source="duckdb:///x.db")
    assert str(info.value) == ("duckdb:///x.db: unsupported database 'duckdb'; "
                               "use sqlite, postgresql or mysql/mariadb")
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "ragdx.cli", "schema", "oracle://scott:tiger@h/d"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "unsupported database 'oracle'" in lines[0], proc.stderr
    assert "tiger" not in proc.stderr


# ----------------------------------------------------------------------------- SQL text


def test_identifiers_are_quoted_per_engine_with_quotes_inside_doubled():
    assert sqlite.quote_identifier('my "odd" table') == '"my ""odd"" table"'
    assert postgresql.quote_identifier("Order") == '"Order"'
    assert mysql.quote_identifier("Na`me") == "`Na``me`"
    # MySQL's reflection doubles a backtick in a name; the others report names as they are
    assert mysql.reflected_name("Na``me") == "Na`me" and postgresql.reflected_name("Na``me") == "Na``me"


def test_literals_per_engine():
    assert sqlite.literal("O'Brien") == "'O''Brien'"
    assert sqlite.literal("a\\b") == "'a\\b'"
    assert postgresql.literal("a\\b") == "'a\\b'"
    assert mysql.literal("a\\b") == "'a\\\\b'"  # a backslash escapes on MySQL/MariaDB
    assert mysql.literal("it\\'s") == "'it\\\\''s'"
    assert postgresql.literal(None) == "NULL"
    assert mysql.literal(42) == "42" and postgresql.literal(Decimal("32.3800")) == "32.3800"
    assert sqlite.literal(0.1) == "0.1"
    assert sqlite.literal(True) == "1" and sqlite.literal(False) == "0"
    assert postgresql.literal(True) == "TRUE" and mysql.literal(False) == "FALSE"
    assert postgresql.literal(datetime(2004, 1, 2, 3, 4)) == "'2004-01-02 03:04:00'"
    assert mysql.literal(date(2004, 1, 2)) == "'2004-01-02'"
    assert sqlite.literal(b"\x00\xff") == "X'00ff'"


def test_bound_parameters_per_engine():
    assert sqlite.parameter("p0") == ":p0" and sqlite.escape_for_parameters("LIKE 'a%'") == "LIKE 'a%'"
    for d in (postgresql, mysql):  # psycopg and PyMySQL read pyformat: a literal % is doubled
        assert d.parameter("p0") == "%(p0)s"
        assert d.escape_for_parameters("LIKE 'a%'") == "LIKE 'a%%'"


def test_sqlglot_reads_and_writes_each_engine():
    import sqlglot

    assert (sqlite.glot, postgresql.glot, mysql.glot, NEUTRAL_GLOT) == ("sqlite", "postgres", "mysql", "sqlite")
    tree = sqlglot.parse_one("SELECT a FROM t WHERE REGEXP_LIKE(a, 'x')", read="postgres")
    # MariaDB has no REGEXP_LIKE: the operator both servers know
    assert tree.sql(dialect=mysql.sqlglot_writer()) == "SELECT a FROM t WHERE a REGEXP 'x'"
    assert tree.sql(dialect=postgresql.sqlglot_writer(), identify=True) == \
        'SELECT "a" FROM "t" WHERE "a" ~ \'x\''


# ----------------------------------------------------------------------------- values


def test_float_digits_and_collation_key():
    assert postgresql.float_digits("REAL") == 7 and postgresql.float_digits("FLOAT4") == 7
    assert postgresql.float_digits("DOUBLE PRECISION") == 15
    assert sqlite.float_digits("REAL") == 15 and mysql.float_digits("FLOAT") == 15
    for d in registered():
        assert d.collation_key("Émile  ") == d.collation_key("emile") == "emile"
        assert d.collation_key("Straße") == d.collation_key("STRASSE")
        assert d.collation_key(3) == 3


# ----------------------------------------------------------------------------- read-only and timeout


def test_read_only_and_timeout_at_connection_time():
    assert postgresql.connect_args(True, 1.5) == {
        "connect_timeout": 10, "options": "-c default_transaction_read_only=on -c statement_timeout=1500"}
    assert postgresql.connect_args(False, None) == {"connect_timeout": 10}
    assert postgresql.connect_args(False, 0.0001) == {"connect_timeout": 10, "options": "-c statement_timeout=1"}
    assert mysql.connect_args(True, 1.5) == {"connect_timeout": 10}  # set on each connection instead
    assert sqlite.connect_args(True, 1.5) == {}  # a file: read-only is in its URI


def test_sqlite_read_only_lives_in_its_uri(tmp_path):
    path = tmp_path / "a#b %41.db"
    url = normalise_url(f"sqlite:///{path}")
    with pytest.raises(DatabaseError, match="no such SQLite file"):
        sqlite.engine_url(url, read_only=True)
    writable = sqlite.engine_url(url, read_only=False)
    assert writable.database.endswith("a%23b%20%2541.db") and writable.query["mode"] == "rwc"
    path.write_bytes(b"")
    assert sqlite.engine_url(url, read_only=True).query["mode"] == "ro"
    assert sqlite.database_file(make_url("sqlite:///:memory:")) is None
    assert postgresql.database_file(make_url("postgresql://u@h/d")) is None


def test_each_engine_recognises_its_own_timeout_message():
    assert sqlite.stopped_by_timeout("interrupted")
    assert postgresql.stopped_by_timeout("canceling statement due to statement timeout")
    assert mysql.stopped_by_timeout("query execution was interrupted (max_statement_time exceeded)")
    assert mysql.stopped_by_timeout("query execution was interrupted, maximum statement execution time exceeded")
    # another engine's words are not a timeout here ("interrupted" is SQLite's)
    assert not postgresql.stopped_by_timeout("interrupted") and not mysql.stopped_by_timeout("interrupted")


def test_every_spelling_of_a_mariadb_url_is_read_only_and_bounded(mysql_databases):
    # 'mariadb+pymysql://' once opened the database writable, unbounded and with "double-quoted"
    # identifiers (MariaDB reads them as strings): the dialect follows SQLAlchemy's name too
    from ragdx.db import inspect_schema
    from ragdx.gen.qa import placeholder_domains
    from ragdx.gen.sql_templates import SqlTemplate, parse_template

    url = make_url(mysql_databases.new())
    writer = connect(url, read_only=False)
    with writer.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE `my table` (id INT PRIMARY KEY, Name VARCHAR(20), `Co``de` INT)")
        conn.exec_driver_sql("INSERT INTO `my table` VALUES (1, 'x', 7), (2, 'y', 8)")
    writer.dispose()
    for driver in ("mysql", "mysql+pymysql", "mariadb", "mariadb+pymysql"):
        engine = connect(url.set(drivername=driver))
        with engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT @@max_statement_time").scalar() > 0, driver
            with pytest.raises(sa.exc.DBAPIError, match="READ ONLY"):
                conn.exec_driver_sql("DELETE FROM `my table`")
        schema = inspect_schema(engine)
        assert schema.dialect == "mysql" and schema.table("my table").has_column("Co`de"), driver
        parsed = parse_template(SqlTemplate("SELECT `Co``de` FROM `my table` WHERE Name = '[my table.Name]'",
                                            "my table"), schema)
        assert placeholder_domains(engine, parsed) == [["x", "y"]], driver
        engine.dispose()


# ----------------------------------------------------------------------------- one home


def engine_names() -> set[str]:
    return {n for d in registered() for n in (d.name, *d.aliases, d.glot)}


def engine_name_uses(source: str) -> list[tuple[int, str]]:
    """(line, name) of every string that is exactly an engine's name: a comparison, a table key
    or an argument that branches on which engine it is."""
    names = engine_names()
    return [(node.lineno, node.value) for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names]


def test_the_checker_sees_a_branch_on_an_engine_name():
    assert engine_name_uses('quote = "`" if dialect == "mysql" else \'"\'') == [(1, "mysql")]
    assert engine_name_uses('DRIVERS = {"postgres": "postgresql+psycopg"}') == [(1, "postgres")]
    assert engine_name_uses('if url.drivername.startswith("sqlite"): pass') == [(1, "sqlite")]
    # a URL or a message that mentions an engine is no branch
    assert engine_name_uses('url = f"sqlite:///{path}"; hint = "use sqlite:///x"') == []


def test_no_module_but_the_dialects_branches_on_an_engine_name():
    found = {str(path.relative_to(SRC)): uses for path in sorted(SRC.rglob("*.py")) if path != HOME
             if (uses := engine_name_uses(path.read_text(encoding="utf-8")))}
    assert found == {}, "ask ragdx.db.dialect instead of naming an engine"
    assert engine_name_uses(HOME.read_text(encoding="utf-8"))  # the checker reads the home itself
