"""Database values as people read them, the same on every engine; NULL answers; which
placeholder combinations to ask about.

Engines return the same data in different shapes: SQLite hands back the text it stores
(``'1996-07-04 00:00:00'``), PostgreSQL and MariaDB ``datetime`` objects; PostgreSQL's ``REAL`` is
a 4-byte float (``0.05000000074505806``), its ``NUMERIC`` a ``Decimal('32.3800')``; a boolean is
``True``, ``1`` or ``'1'``. Answers are made canonical from the column's declared kind, so one
dataset comes out of every engine for the same data, and a date-time column whose times are all
midnight is a date column ("2004-01-02", not "2004-01-02 00:00:00").

A NULL is "no recorded value", not the text ``'None'``: such combinations are dropped and
counted by default, or kept as an explicit unanswerable query (judged correct when the response
says there is no record).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any, Literal

from sqlglot import exp

from ragdx.db.dialect import Dialect, dialect_named
from ragdx.db.schema import Schema

NullPolicy = Literal["drop", "unanswerable", "keep"]


# ----------------------------------------------------------------------------- canonical values


def output_kinds(parsed, schema: Schema) -> list[tuple[str, str] | None]:
    """(kind, declared type) of every projected column, None for an expression."""
    real_of = {qualifier: real for real, qualifier in parsed.sources}
    out: list[tuple[str, str] | None] = []
    for proj in parsed._ast.expressions:
        inner = proj.this if isinstance(proj, exp.Alias) else proj
        if isinstance(inner, exp.Column) and inner.table in real_of:
            table = schema.table(real_of[inner.table])
            if table.has_column(inner.name):
                col = table.column(inner.name)
                out.append((col.kind, col.type.upper()))
                continue
        out.append(None)
    return out


_TRUE = {"1", "t", "true", "y", "yes"}
_FALSE = {"0", "f", "false", "n", "no"}


def _as_temporal(value: Any) -> Any:
    if isinstance(value, datetime | date | time):
        return value
    if isinstance(value, str):
        text = value.strip()
        for parse in (datetime.fromisoformat, date.fromisoformat, time.fromisoformat):
            try:
                return parse(text)
            except ValueError:
                continue
    return value


def canonical(value: Any, kind: str, type_name: str, dialect: Dialect) -> Any:
    """One value in its canonical Python form for its column kind (datetimes stay datetimes
    here; :func:`normalise_rows` decides per column whether they are dates)."""
    if value is None:
        return None
    if kind == "date":
        return _as_temporal(value)
    if kind == "boolean":
        if isinstance(value, bool):
            return value
        if isinstance(value, int | float | Decimal):
            return bool(value)
        text = str(value).strip().lower()
        return True if text in _TRUE else False if text in _FALSE else value
    if kind in ("number", "integer") and isinstance(value, float):
        # a float read back carries noise past the digits its column type holds
        return float(f"{value:.{dialect.float_digits(type_name)}g}")
    if kind in ("number", "integer") and isinstance(value, Decimal):
        return value.normalize() if value == value else value
    return value


def _midnight(value: Any) -> bool:
    return isinstance(value, datetime) and value.time() == time(0)


def _normalised_kinds(kinds: Sequence[tuple[str, str] | None]) -> bool:
    return any(k and k[0] in ("date", "boolean", "number", "integer") for k in kinds)


def needs_normalising(parsed, schema: Schema) -> bool:
    """Whether :func:`normalise_rows` changes anything for this template (False: text only)."""
    return _normalised_kinds(output_kinds(parsed, schema))


def normalise_rows(parsed, schema: Schema, row_lists: Sequence[list[tuple]]) -> list[list[tuple]]:
    """Canonical values in every row of every group of one template; a date-time column whose
    values are all at midnight becomes a date column."""
    kinds = output_kinds(parsed, schema)
    if not _normalised_kinds(kinds):
        return [list(rows) for rows in row_lists]  # text needs nothing: skip the per-value pass
    dialect = dialect_named(schema.dialect)
    out = [[tuple(canonical(v, k[0], k[1], dialect) if k else v for v, k in zip(row, kinds, strict=False))
            for row in rows] for rows in row_lists]
    for i, k in enumerate(kinds):
        if not k or k[0] != "date":
            continue
        values = [row[i] for rows in out for row in rows if row[i] is not None]
        if values and all(_midnight(v) or type(v) is date for v in values):
            for rows in out:
                for j, row in enumerate(rows):
                    if isinstance(row[i], datetime):
                        rows[j] = row[:i] + (row[i].date(),) + row[i + 1:]
    return out


# ----------------------------------------------------------------------------- NULL answers


def settle_nulls(groups: list, counts, policy: NullPolicy) -> list:
    """Rows that are all NULL state nothing: they leave answer sets; a group left with no row
    is dropped and counted (``drop``), kept as an unanswerable query (``unanswerable``), or kept
    as it is (``keep``, the reference's behaviour, for replaying published datasets)."""
    if policy == "keep":
        return groups
    kept = []
    for group in groups:
        if not group.rows:
            kept.append(group)
            continue
        rows = [r for r in group.rows if any(v is not None for v in r)]
        if len(rows) == len(group.rows):
            kept.append(group)
            continue
        was_single = len(group.rows) == 1
        if rows:
            group.rows = rows
            kept.append(group)
            continue
        if was_single:
            counts.single -= 1
        else:
            counts.multi_kept -= 1
        if policy == "drop":
            counts.null_dropped += 1
        else:
            group.rows = []
            counts.null_unanswerable += 1
            kept.append(group)
    return kept


# ----------------------------------------------------------------------------- combinations


def joint_domains(engine, parsed) -> list[tuple[list[int], list[tuple]]] | None:
    """Placeholders that fill a key of one table together (first and last name) take their
    values from the same rows: ``SELECT DISTINCT first, last``, not the product of the two
    columns. Returns (placeholder indices, value tuples) per group, or None when every
    placeholder stands alone."""

    by_qualifier: dict[str, list[int]] = {}
    for i, ph in enumerate(parsed.placeholders):
        if parsed.compared[ph] != parsed.domains[ph]:
            return None
        by_qualifier.setdefault(parsed.compared_q[ph][0], []).append(i)
    if all(len(ix) == 1 for ix in by_qualifier.values()):
        return None
    quote = dialect_named(parsed.dialect).quote_identifier
    out = []
    with engine.connect() as conn:
        for indices in by_qualifier.values():
            table = parsed.domains[parsed.placeholders[indices[0]]][0]
            cols = [quote(parsed.domains[parsed.placeholders[i]][1]) for i in indices]
            sql = (f"SELECT DISTINCT {', '.join(cols)} FROM {quote(table)} WHERE "
                   + " AND ".join(f"{c} IS NOT NULL" for c in cols))
            values = sorted((tuple(r) for r in conn.exec_driver_sql(sql)), key=row_sort_key)
            out.append((indices, values))
    return out


def draw_combinations(engine, parsed, schema: Schema, domains: Sequence[Sequence[Any]], options
                      ) -> tuple[list[tuple], int]:
    """The combinations to ask about. Without a cap, every combination (the paper's product, or
    the joint rows of a composite key). With a cap and unanswerable combinations dropped anyway,
    the seeded sample is drawn from the combinations the data holds, so a cap on an association
    (830 orders x 77 products, 2,155 lines) does not spend itself on empty pairs. Returns the
    combinations and how many there were to draw from (the difference was left out by the cap)."""

    cap = options.max_groups_per_template
    joint = joint_domains(engine, parsed)
    space = [values for _, values in joint] if joint else list(domains)
    total = 1
    for d in space:
        total *= len(d)
    if cap is not None and total > cap and options.unanswerable == "drop" and parsed.set_based:
        present = _present_combinations(engine, parsed, schema)
        rng = random.Random(f"{options.seed}:{parsed.sample_key}")
        ordered = sorted(present, key=row_sort_key)
        if len(ordered) > cap:
            return sorted(rng.sample(ordered, cap), key=row_sort_key), len(ordered)
        return ordered, len(ordered)
    picked = choose_combinations(space, cap, options.seed, parsed.sample_key)
    if not joint:
        return picked, total
    out = []
    n = len(parsed.placeholders)
    for combo in picked:
        values: list[Any] = [None] * n
        for (indices, _), part in zip(joint, combo, strict=True):
            for i, v in zip(indices, part, strict=True):
                values[i] = v
        out.append(tuple(values))
    return out, total


def _present_combinations(engine, parsed, schema: Schema) -> set[tuple]:
    from ragdx.db.engine import driver_rows

    sql, n_ph, _ = parsed.set_based_query(schema)
    found: set[tuple] = set()
    with engine.connect() as conn:
        result = conn.execution_options(stream_results=True).exec_driver_sql(sql, {})
        for batch in driver_rows(result, FETCH_ROWS):  # the driver's tuples, as the set-based scan reads them
            found.update(row[:n_ph] for row in batch)
    return found


# ----------------------------------------------------------------------------- orders and samples

#: rows per fetch of a streamed scan: few round trips (each one a wait on a loaded server),
#: a bounded batch in memory (about 100k rows of a few columns: tens of MB)
FETCH_ROWS = 100_000


def value_sort_key(value: Any) -> tuple:
    """Total order over mixed SQL values (SQLite columns may hold several types)."""
    if value is None:
        return (0, 0)
    if isinstance(value, bool | int | float | Decimal):
        return (1, float(value), str(value))
    if isinstance(value, datetime | date | time):
        return (2, value.isoformat())
    if isinstance(value, bytes):
        return (4, value.hex())
    return (3, str(value))


def row_sort_key(row: Sequence[Any]) -> tuple:
    return tuple(value_sort_key(v) for v in row)


def choose_combinations(domains: Sequence[Sequence[Any]], cap: int | None, seed: int,
                        template_id: str) -> list[tuple[Any, ...]]:
    """The Cartesian product of the domains, or a seeded sample of ``cap`` of its members drawn
    without building the product (it can be far larger than memory)."""
    sizes = [len(d) for d in domains]
    total = math.prod(sizes)
    if cap is None or total <= cap:
        return list(itertools.product(*domains))
    rng = random.Random(f"{seed}:{template_id}")
    picks = sorted(rng.sample(range(total), cap))
    out = []
    for index in picks:
        combo = []
        for domain, size in zip(reversed(domains), reversed(sizes), strict=True):
            index, r = divmod(index, size)
            combo.append(domain[r])
        out.append(tuple(reversed(combo)))
    return out
