"""The truth of a question kind's record, worked out by hand: every table read whole
(``SELECT *``), the set, count, total, extreme, comparison or date range computed in Python over
those rows, and the links between tables written out from each database's own DDL below. Nothing
here runs ragdx's SQL; what a template asks is read from its signature (which rows, which column,
which direction), and the link it names must be one of the hand-written ones.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import date, datetime
from decimal import Decimal
from typing import Any

import sqlalchemy as sa

#: (table, column) -> (referenced table, column), from the demo's DDL (ragdx/demo/database.py)
DEMO_LINKS = {
    ("Staff", "Faculty"): ("Faculty", "Name"), ("Programme", "Faculty"): ("Faculty", "Name"),
    ("Programme", "Coordinator"): ("Staff", "id"), ("Course", "Faculty"): ("Faculty", "Name"),
    ("ProgrammeCourse", "Programme"): ("Programme", "id"), ("ProgrammeCourse", "Course"): ("Course", "Code"),
    ("Teaching", "Staff"): ("Staff", "id"), ("Teaching", "Course"): ("Course", "Code"),
}
#: the same for Northwind (its CREATE TABLE statements' FOREIGN KEY clauses)
NORTHWIND_LINKS = {
    ("Employees", "ReportsTo"): ("Employees", "EmployeeID"),
    ("EmployeeTerritories", "EmployeeID"): ("Employees", "EmployeeID"),
    ("EmployeeTerritories", "TerritoryID"): ("Territories", "TerritoryID"),
    ("Orders", "CustomerID"): ("Customers", "CustomerID"), ("Orders", "EmployeeID"): ("Employees", "EmployeeID"),
    ("Orders", "ShipVia"): ("Shippers", "ShipperID"), ("Order Details", "OrderID"): ("Orders", "OrderID"),
    ("Order Details", "ProductID"): ("Products", "ProductID"), ("Products", "CategoryID"): ("Categories", "CategoryID"),
    ("Products", "SupplierID"): ("Suppliers", "SupplierID"), ("Territories", "RegionID"): ("Regions", "RegionID"),
    ("CustomerCustomerDemo", "CustomerID"): ("Customers", "CustomerID"),
    ("CustomerCustomerDemo", "CustomerTypeID"): ("CustomerDemographics", "CustomerTypeID"),
}


def norm(value: Any) -> Any:
    """A value as every engine's driver agrees on it: numbers as int or float, dates as ISO text."""
    if isinstance(value, bool):
        return value
    if isinstance(value, Decimal | float):
        f = float(value)
        return int(f) if f.is_integer() else f
    if isinstance(value, datetime | date):
        return value.isoformat()
    return value


def _day(value: Any) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return date.fromisoformat(str(value)[:10])


class Tables:
    """Every table of a database read once, whole, by plain ``SELECT *``."""

    def __init__(self, engine: sa.Engine, links: dict[tuple[str, str], tuple[str, str]]):
        self.engine = engine
        self._rows: dict[str, list[dict[str, Any]]] = {}
        self.links = {(t.casefold(), c.casefold()): (rt.casefold(), rc) for (t, c), (rt, rc) in links.items()}

    def rows(self, table: str) -> list[dict[str, Any]]:
        if table not in self._rows:
            quoted = self.engine.dialect.identifier_preparer.quote(table)
            with self.engine.connect() as conn:
                self._rows[table] = [dict(r._mapping) for r in conn.exec_driver_sql(f"SELECT * FROM {quoted}")]
        return self._rows[table]

    def link(self, table: str, column: str, target: str) -> str:
        """The referenced column, asserting the link is one written by hand to ``target``."""
        ref_table, ref_col = self.links[(table.casefold(), column.casefold())]
        assert ref_table == target.casefold(), (table, column, target)
        return _column(self.rows(target), ref_col)


def _column(rows: list[dict[str, Any]], name: str) -> str:
    """``name`` as the engine spells it in the rows' keys."""
    for key in rows[0] if rows else ():
        if key.casefold() == name.casefold():
            return key
    return name


def _owner(db: Tables, owner: str, params: dict[str, Any]) -> dict[str, Any]:
    rows = db.rows(owner)
    found = [r for r in rows if all(norm(r[_column(rows, k.split(".", 1)[1])]) == v for k, v in params.items())]
    assert len(found) == 1, (owner, params, len(found))
    return found[0]


def _scope(db: Tables, items: str, owner: str, owner_col: str, via: str, params: dict[str, Any]
           ) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(link row, item row) for every item linked to the named owner."""
    o = _owner(db, owner, params)
    if not via:
        ref = db.link(items, owner_col, owner)
        return [(i, i) for i in db.rows(items) if i[owner_col] is not None and i[owner_col] == o[ref]]
    assoc, item_col = via.rsplit(".", 1)
    ref_o, ref_i = db.link(assoc, owner_col, owner), db.link(assoc, item_col, items)
    item_of = {i[ref_i]: i for i in db.rows(items)}
    return [(a, item_of[a[item_col]]) for a in db.rows(assoc) if a[owner_col] == o[ref_o]]


def _order(value: Any) -> Any:
    """What an extreme compares: a number, or a date (a date column's extreme is the latest one)."""
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, datetime):
        return value
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day)
    return datetime.fromisoformat(str(value))


def _best(pairs: list[tuple[Any, tuple]], most: str) -> set[tuple]:
    values = [v for v, _ in pairs]
    top = max(values) if most == "highest" else min(values)
    return {n for v, n in pairs if v == top}


def truth(db: Tables, signature: str, params: dict[str, Any], columns: list[str]) -> tuple[str, Any]:
    """("set", {rows}) or ("number", n): the answer a record of this template and values must have."""
    parts = signature.split("|")
    kind = parts[0]

    def names(row: dict[str, Any], rows: list[dict[str, Any]]) -> tuple:
        return tuple(norm(row[_column(rows, c)]) for c in columns)

    if kind in ("list", "count", "total") or (kind == "extreme" and len(parts) == 7):
        items, owner, owner_col, via = parts[1:5]
        pairs = _scope(db, items, owner, owner_col, via, params)
        item_rows = db.rows(items)
        if kind == "list":
            return "set", {names(i, item_rows) for _, i in pairs}
        if kind == "count":
            return "number", len(pairs)
        if kind == "total":
            return "number", sum(float(a[parts[5]]) for a, _ in pairs if a[parts[5]] is not None)
        measure, most = parts[5], parts[6]
        return "set", _best([(_order(i[measure]), names(i, item_rows)) for _, i in pairs if i[measure] is not None],
                            most)
    if kind == "extreme":
        table, measure, most = parts[1:4]
        rows = db.rows(table)
        return "set", _best([(_order(r[measure]), names(r, rows)) for r in rows if r[measure] is not None], most)
    if kind == "comparison":
        table, measure = parts[1:3]
        rows = db.rows(table)
        (a, b) = [_owner(db, table, {k.split("#")[0]: v}) for k, v in params.items()]
        assert float(a[measure]) != float(b[measure])
        return "set", {names(max((a, b), key=lambda r: float(r[measure])), rows)}
    if kind == "time_range":
        shape, table, column = parts[1:4]
        period = next(iter(params.values()))
        rows = db.rows(table)
        inside = [r for r in rows if r[column] is not None and _day(r[column]).isoformat()[:len(period)] == period]
        return ("set", {names(r, rows) for r in inside}) if shape == "list" else ("number", len(inside))
    raise AssertionError(f"unknown kind in {signature}")


def agrees(record_rows: list[list[Any]], expected: tuple[str, Any]) -> bool:
    shape, value = expected
    if shape == "number":
        return len(record_rows) == 1 and math.isclose(float(record_rows[0][0]), value, rel_tol=1e-9, abs_tol=1e-3)
    return {tuple(norm(v) for v in row) for row in record_rows} == value


def check(db: Tables, records: list, signature_of: Callable[[str], str]) -> list[str]:
    """Every group's first record checked; returns one line per mismatch."""
    seen: set[str] = set()
    wrong = []
    for r in records:
        if r.group_id in seen:
            continue
        seen.add(r.group_id)
        expected = truth(db, signature_of(r.sql_template_id), r.params, r.answer_columns)
        if not agrees(r.answer_rows, expected):
            wrong.append(f"{r.query} -> {r.answer_rows} != {expected}")
    return wrong
