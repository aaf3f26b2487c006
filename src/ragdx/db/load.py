"""Load a database described as JSON (schema + rows) into any supported engine.

This is how the GRAMMAR reference's Aurp tables (``aurp_tables.json``) and synthetic benchmark
databases reach SQLite, PostgreSQL and MariaDB. It writes, so it never goes through the read-only
engine used for user databases.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from ragdx.db.dialect import dialect_named
from ragdx.db.engine import connect
from ragdx.errors import DatabaseError, RagdxError

_TYPES: dict[str, Callable[[int | None], sa.types.TypeEngine[Any]]] = {
    "VARCHAR": lambda n: sa.String(n or 255),
    "CHAR": lambda n: sa.String(n or 255),
    "TEXT": lambda n: sa.Text(),
    "INT": lambda n: sa.Integer(),
    "INTEGER": lambda n: sa.Integer(),
    "BIGINT": lambda n: sa.BigInteger(),
    "REAL": lambda n: sa.Float(),
    "FLOAT": lambda n: sa.Float(),
    "DOUBLE": lambda n: sa.Float(),
    "NUMERIC": lambda n: sa.Numeric(18, 4),
    "DECIMAL": lambda n: sa.Numeric(18, 4),
    "DATE": lambda n: sa.Date(),
    "BOOLEAN": lambda n: sa.Boolean(),
}


def _sa_type(spec: str, where: str) -> sa.types.TypeEngine[Any]:
    base, _, rest = spec.upper().partition("(")
    length = int(rest.rstrip(")").split(",")[0]) if rest else None
    factory = _TYPES.get(base.strip())
    if factory is None:
        raise RagdxError(f"unsupported column type '{spec}'", field=where)
    return factory(length)


def build_metadata(schema: Mapping[str, Any], *, source: str = "schema") -> sa.MetaData:
    """SQLAlchemy tables from ``{table: {columns: [...], primary_key: [...], foreign_keys: [...]}}``.

    A column's ``type_after_alter`` wins over ``type``: the reference altered Aurp's dates to
    VARCHAR before generating its answers, and the answers must match.
    """
    md = sa.MetaData()
    for tname, tspec in schema.items():
        fks = {fk["column"]: fk for fk in tspec.get("foreign_keys", [])}
        cols = []
        for c in tspec["columns"]:
            where = f"schema.{tname}.columns.{c['name']}"
            args = []
            if c["name"] in fks:
                fk = fks[c["name"]]
                args.append(sa.ForeignKey(f"{fk['ref_table']}.{fk['ref_column']}"))
            cols.append(
                sa.Column(
                    c["name"],
                    _sa_type(c.get("type_after_alter") or c["type"], where),
                    *args,
                    primary_key=c["name"] in tspec.get("primary_key", []),
                    nullable=not c.get("not_null", False) and c["name"] not in tspec.get("primary_key", []),
                    autoincrement=False,
                )
            )
        sa.Table(tname, md, *cols)
    return md


def load_tables(
    url: str, schema: Mapping[str, Any], rows: Mapping[str, Iterable[Mapping[str, Any]]], *,
    replace: bool = False,
) -> None:
    """Create the tables (dropping them first with ``replace``) and insert the rows in one
    transaction, parents before children, so a failure leaves nothing half-loaded."""
    md = build_metadata(schema)
    engine = connect(url, read_only=False)
    try:
        with engine.begin() as conn:
            if not replace:
                # loading twice would fail half-way on a duplicate key: say so before writing
                present = set(sa.inspect(conn).get_table_names())
                clash = [t.name for t in md.sorted_tables if t.name in present]
                if clash:
                    raise RagdxError(f"table '{clash[0]}' already exists (pass --replace to drop and reload it)",
                                     field="tables")
            else:
                md.drop_all(conn)
            md.create_all(conn)
            for table in md.sorted_tables:
                batch = list(rows.get(table.name, []))
                if batch:
                    conn.execute(table.insert(), batch)
    except sa.exc.SQLAlchemyError as exc:
        # the transaction rolled back: nothing of the file is in the database
        cause = (exc.orig if isinstance(exc, sa.exc.StatementError) else None) or exc  # the driver's error
        raise RagdxError(f"the rows do not load ({type(cause).__name__}: "
                         f"{str(cause).splitlines()[0]})", field="rows") from None
    finally:
        engine.dispose()


def _read_json(path: Path) -> Any:
    from ragdx.store import DuplicateKey, read_text, unique_keys

    try:
        return json.loads(read_text(path), object_pairs_hook=unique_keys)
    except DuplicateKey as exc:
        raise RagdxError(f"key '{exc.key}' appears twice", source=str(path)) from None
    except (ValueError, RecursionError) as exc:
        raise RagdxError(f"not valid JSON ({exc})", source=str(path)) from None


def load_tables_json(url: str, path: str | Path, *, replace: bool = False) -> dict[str, int]:
    """Load a ``{"schema": ..., "rows": ...}`` file; returns the number of rows per table."""
    path = Path(path)
    doc = _read_json(path)  # always JSON, whatever the file is called
    if not isinstance(doc, dict) or not isinstance(doc.get("schema"), dict) or not isinstance(doc.get("rows"), dict):
        raise RagdxError("not a tables file: expected an object with 'schema' and 'rows' objects", source=str(path))
    schema, rows = doc["schema"], doc["rows"]
    for name, tspec in schema.items():
        if not isinstance(tspec, dict) or not isinstance(tspec.get("columns"), list) or not all(
                isinstance(c, dict) and isinstance(c.get("name"), str) and isinstance(c.get("type"), str)
                for c in tspec["columns"]):
            raise RagdxError("expected 'columns': a list of {name, type}", source=str(path), field=f"schema.{name}")
    for name, table_rows in rows.items():
        if not isinstance(table_rows, list) or not all(isinstance(r, dict) for r in table_rows):
            raise RagdxError("expected a list of row objects", source=str(path), field=f"rows.{name}")
        _check_rows(name, table_rows, schema, path)
    new_file = _new_database_file(url)
    try:
        load_tables(url, schema, rows, replace=replace)
    except Exception as exc:
        if new_file is not None:
            new_file.unlink(missing_ok=True)  # a failed load leaves no empty database behind
        if isinstance(exc, RagdxError):
            raise RagdxError(exc.message, source=str(path), field=exc.field) from None
        if isinstance(exc, KeyError | TypeError | ValueError | AttributeError):
            # a hand-written schema with a key missing or of the wrong shape
            raise RagdxError(f"not a tables file ({type(exc).__name__}: {exc})", source=str(path)) from None
        raise
    return {name: len(r) for name, r in rows.items()}


def _check_rows(name: str, table_rows: list[dict[str, Any]], schema: Mapping[str, Any], path: Path) -> None:
    # rows of a table the schema lacks, or with a column it lacks, would be dropped without a word
    if name not in schema:
        raise RagdxError(f"no table {name!r} in 'schema' (tables: {', '.join(schema)})", source=str(path),
                         field=f"rows.{name}")
    columns = {c["name"] for c in schema[name]["columns"]}
    for i, row in enumerate(table_rows):
        unknown = [k for k in row if k not in columns]
        if unknown:
            raise RagdxError(f"no column {unknown[0]!r} in table {name!r} (columns: {', '.join(sorted(columns))})",
                             source=str(path), field=f"rows.{name}[{i}].{unknown[0]}")


def _new_database_file(url: str) -> Path | None:
    """The database file (SQLite's) a load would create, when it does not exist yet (None otherwise)."""
    try:
        parsed = sa.engine.make_url(url)
        file = dialect_named(parsed.get_backend_name()).database_file(parsed)
    except (sa.exc.ArgumentError, DatabaseError):
        return None  # the load itself says what is wrong with the URL
    return None if file is None or file.exists() else file
