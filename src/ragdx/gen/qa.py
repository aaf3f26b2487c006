"""Placeholder fill-in and answers from the database (GRAMMAR §4.2, Algorithm 1 lines 6–17).

Two ways to answer a template, which must agree record for record:

* set-based (the default): one scan returns the placeholder values, the entity keys and the
  projections of every combination at once; rows are then grouped by placeholder values;
* per-combination (Algorithm 1 as written): one round trip per combination, values bound as
  parameters. Used for templates the set-based rewrite cannot express (aggregates, LIMIT, …)
  and by the tests and the benchmark as the reference.

Multiplicity is measured, never assumed: a combination with several rows is an answer set, one
with no row is unanswerable, and each policy (drop or keep) is counted.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any, Literal

from sqlalchemy.engine import Engine

from ragdx.db.schema import Schema
from ragdx.gen.sql_templates import ParsedTemplate

MultiPolicy = Literal["drop", "keep"]


@dataclass(slots=True)
class QAGroup:
    """One semantic group: a template, the values filling its placeholders, and the answer."""

    template_id: str
    params: tuple[Any, ...]
    rows: list[tuple[Any, ...]]
    entities: list[str]
    facts: list[str]

    @property
    def kind(self) -> str:
        """``single`` (one row), ``multi`` (an answer set) or ``none`` (unanswerable)."""
        return "none" if not self.rows else ("single" if len(self.rows) == 1 else "multi")


@dataclass(slots=True)
class AnswerCounts:
    combinations: int = 0
    single: int = 0
    null_answers: int = 0
    multi_kept: int = 0
    multi_dropped: int = 0
    unanswerable_kept: int = 0
    unanswerable_dropped: int = 0
    method: str = "set"

    def add(self, other: AnswerCounts) -> None:
        for name in ("combinations", "single", "null_answers", "multi_kept", "multi_dropped",
                     "unanswerable_kept", "unanswerable_dropped"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def as_dict(self) -> dict[str, int | str]:
        return {k: getattr(self, k) for k in self.__slots__}


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


def placeholder_domains(engine: Engine, parsed: ParsedTemplate) -> list[list[Any]]:
    """``SELECT DISTINCT column`` for each placeholder (§4.2), NULL excluded, in a stable order."""
    out = []
    with engine.connect() as conn:
        for ph in parsed.placeholders:
            table, column = parsed.domains[ph]
            sql = f"SELECT DISTINCT {_qi(parsed.dialect, column)} FROM {_qi(parsed.dialect, table)} " \
                  f"WHERE {_qi(parsed.dialect, column)} IS NOT NULL"
            values = [r[0] for r in conn.exec_driver_sql(sql)]
            out.append(sorted(values, key=value_sort_key))
    return out


def _qi(dialect: str, name: str) -> str:
    quote = "`" if dialect == "mysql" else '"'
    return quote + name.replace(quote, quote * 2) + quote


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


def _facts_and_entities(parsed: ParsedTemplate, layout, keyed_rows) -> tuple[list[str], list[str]]:
    entities: set[str] = set()
    facts: set[str] = set()
    for keys, _ in keyed_rows:
        key_of: dict[str, str] = {}
        i = 0
        for qualifier, real, pk in layout:
            part = keys[i:i + len(pk)]
            i += len(pk)
            if any(v is None for v in part):
                continue  # an outer-joined table with no row contributes no entity
            key = "|".join(key_text(v) for v in part)
            key_of[qualifier] = key
            entities.add(f"{real}:{key}")
        for qualifier, real, column in parsed.fact_columns:
            if qualifier in key_of:
                facts.add(f"{real}.{column}@{key_of[qualifier]}")
    return sorted(entities), sorted(facts)


def key_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))  # Spider's REAL ids: 11.0 and 11 name the same row
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    return str(value)


def _make_group(parsed: ParsedTemplate, layout, params: tuple, keyed_rows: list) -> QAGroup:
    rows = [r for _, r in keyed_rows]
    if parsed.distinct or not layout:
        rows = list(dict.fromkeys(rows))
    rows.sort(key=row_sort_key)
    entities, facts = _facts_and_entities(parsed, layout, keyed_rows) if layout else ([], [])
    return QAGroup(parsed.id, params, rows, entities, facts)


def run_set_based(engine: Engine, parsed: ParsedTemplate, schema: Schema,
                  combos: Iterable[tuple[Any, ...]] | None) -> dict[tuple, QAGroup]:
    """Answers for ``combos`` (all combinations found in the data when None) in one scan."""
    sql, n_ph, layout = parsed.set_based_query(schema)
    n_keys = sum(len(pk) for _, _, pk in layout)
    wanted = None if combos is None else set(combos)
    grouped: dict[tuple, list] = {}
    with engine.connect() as conn:
        result = conn.execution_options(stream_results=True).exec_driver_sql(sql, {})
        for chunk in result.partitions(20_000):
            for row in chunk:
                params = tuple(row[:n_ph])
                if wanted is not None and params not in wanted:
                    continue
                grouped.setdefault(params, []).append(
                    (tuple(row[n_ph:n_ph + n_keys]), tuple(row[n_ph + n_keys:])))
    return {p: _make_group(parsed, layout, p, rows) for p, rows in grouped.items()}


def run_per_combination(engine: Engine, parsed: ParsedTemplate, combos: Iterable[tuple[Any, ...]],
                        schema: Schema | None = None) -> dict[tuple, QAGroup]:
    """Algorithm 1 as written: one parameterised query per combination."""
    if schema is None:
        sql, names = parsed.executable()
        layout: list = []
    else:
        sql, names, layout = parsed.keyed_query(schema)
    n_keys = sum(len(pk) for _, _, pk in layout)
    out: dict[tuple, QAGroup] = {}
    with engine.connect() as conn:
        for combo in combos:
            rows = conn.exec_driver_sql(sql, dict(zip(names, combo, strict=True))).fetchall()
            keyed = [(tuple(r[:n_keys]), tuple(r[n_keys:])) for r in rows]
            if keyed:
                out[tuple(combo)] = _make_group(parsed, layout, tuple(combo), keyed)
    return out


@dataclass(slots=True)
class AnswerOptions:
    max_groups_per_template: int | None = None
    seed: int = 0
    multi_answer: MultiPolicy = "drop"
    unanswerable: MultiPolicy = "drop"
    method: Literal["set", "per-combination"] = "set"


@dataclass(slots=True)
class TemplateAnswers:
    template: ParsedTemplate
    groups: list[QAGroup]
    counts: AnswerCounts = field(default_factory=AnswerCounts)


def answer_template(engine: Engine, parsed: ParsedTemplate, schema: Schema,
                    options: AnswerOptions) -> TemplateAnswers:
    """Fill ``parsed`` with the database's values and answer every combination, applying the
    multiplicity policies; groups come back in the order of their placeholder values."""
    domains = placeholder_domains(engine, parsed)
    combos = choose_combinations(domains, options.max_groups_per_template, options.seed, parsed.id)
    use_set = options.method == "set" and parsed.set_based
    if use_set:
        same_column = all(parsed.compared[ph] == parsed.domains[ph] for ph in parsed.placeholders)
        capped = len(combos) < math.prod(len(d) for d in domains)
        found = run_set_based(engine, parsed, schema, combos if capped or not same_column else None)
    else:
        found = run_per_combination(engine, parsed, combos, schema)
    counts = AnswerCounts(combinations=len(combos), method="set" if use_set else "per-combination")
    groups: list[QAGroup] = []
    for combo in combos:
        group = found.get(combo)
        if group is None:
            if options.unanswerable == "keep":
                groups.append(QAGroup(parsed.id, combo, [], [], []))
                counts.unanswerable_kept += 1
            else:
                counts.unanswerable_dropped += 1
        elif len(group.rows) > 1:
            if options.multi_answer == "keep":
                groups.append(group)
                counts.multi_kept += 1
            else:
                counts.multi_dropped += 1
        else:
            groups.append(group)
            counts.single += 1
            counts.null_answers += all(v is None for v in group.rows[0])
    return TemplateAnswers(parsed, groups, counts)


def kinds(groups: Iterable[QAGroup]) -> Counter:
    return Counter(g.kind for g in groups)


__all__ = [
    "AnswerCounts", "AnswerOptions", "QAGroup", "TemplateAnswers", "answer_template",
    "choose_combinations", "placeholder_domains", "run_per_combination", "run_set_based",
    "value_sort_key",
]
