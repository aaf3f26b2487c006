"""Read-only access to the relational database that holds the facts."""

from ragdx.db.engine import connect, dialect_name, normalise_url
from ragdx.db.schema import ColumnInfo, ForeignKey, Schema, TableInfo, inspect_schema

__all__ = [
    "ColumnInfo",
    "ForeignKey",
    "Schema",
    "TableInfo",
    "connect",
    "dialect_name",
    "inspect_schema",
    "normalise_url",
]
