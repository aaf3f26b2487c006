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

import math
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time
from itertools import chain, compress, repeat
from operator import attrgetter, itemgetter
from typing import Any, Literal, cast

from sqlalchemy.engine import Engine

from ragdx.db.dialect import dialect_named
from ragdx.db.engine import driver_rows
from ragdx.db.schema import Schema
from ragdx.gen.sql_templates import ParsedTemplate
from ragdx.gen.values import FETCH_ROWS, choose_combinations, row_sort_key, value_sort_key
from ragdx.store import gc_paused

MultiPolicy = Literal["drop", "keep"]


class QAGroup:
    """One semantic group: a template, the values filling its placeholders, and the answer.

    ``entities`` and ``facts`` (text made from the answer rows' keys) of a one-row group are
    made when first read, not when the group is: answering a million combinations then costs
    about what fetching them does, and groups dropped by a policy never pay for their text.
    Read or not, they are the same values (equality and ``repr`` read them)."""

    __slots__ = ("template_id", "params", "rows", "_entities", "_facts", "_pending")

    def __init__(self, template_id: str, params: tuple[Any, ...], rows: list[tuple[Any, ...]],
                 entities: list[str] | None = None, facts: list[str] | None = None, *,
                 pending: tuple[_GroupBuilder, tuple] | None = None):
        self.template_id = template_id
        self.params = params
        self.rows = rows
        # a pending group's lists are made when read: no two empty lists per group meanwhile
        self._entities = entities if entities is not None or pending is not None else []
        self._facts = facts if facts is not None or pending is not None else []
        #: (builder, key values of the one row) until entities and facts are first read
        self._pending = pending

    def _resolve(self) -> None:
        build, keys = cast("tuple[_GroupBuilder, tuple]", self._pending)
        self._entities, self._facts = build.entities_facts(keys)
        self._pending = None

    @property
    def entities(self) -> list[str]:
        if self._pending is not None:
            self._resolve()
        return cast("list[str]", self._entities)

    @property
    def facts(self) -> list[str]:
        if self._pending is not None:
            self._resolve()
        return cast("list[str]", self._facts)

    def _fields(self) -> tuple:
        return (self.template_id, self.params, self.rows, self.entities, self.facts)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, QAGroup):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass it replaces

    def __repr__(self) -> str:
        return ("QAGroup(template_id={!r}, params={!r}, rows={!r}, entities={!r}, facts={!r})"
                .format(*self._fields()))

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
    #: answers that were all NULL ("no recorded value"): dropped, or kept as unanswerable
    null_dropped: int = 0
    null_unanswerable: int = 0
    #: combinations the cap on groups per template did not draw
    left_out_by_cap: int = 0
    method: str = "set"

    def add(self, other: AnswerCounts) -> None:
        for name in ("combinations", "single", "null_answers", "multi_kept", "multi_dropped",
                     "unanswerable_kept", "unanswerable_dropped", "null_dropped", "null_unanswerable",
                     "left_out_by_cap"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def as_dict(self) -> dict[str, int | str]:
        return {k: getattr(self, k) for k in self.__slots__}


def placeholder_domains(engine: Engine, parsed: ParsedTemplate) -> list[list[Any]]:
    """``SELECT DISTINCT column`` for each placeholder (§4.2), NULL excluded, in a stable order."""
    quote = dialect_named(parsed.dialect).quote_identifier
    out = []
    with engine.connect() as conn:
        for ph in parsed.placeholders:
            table, column = parsed.domains[ph]
            col, tab = quote(column), quote(table)
            sql = f"SELECT DISTINCT {col} FROM {tab} WHERE {col} IS NOT NULL"
            # fetched at once, as the driver's tuples: iterating the result fetches row by row
            # (psycopg: a call per row), and a Row per value costs more than the value
            values = [v for batch in driver_rows(conn.exec_driver_sql(sql)) for (v,) in batch]
            if set(map(type, values)) <= {str}:
                values.sort()  # the same order as value_sort_key, at native speed
            else:
                values.sort(key=value_sort_key)
            out.append(values)
    return out


class _GroupBuilder:
    """Turns the keyed rows of one combination into a :class:`QAGroup`.

    It runs once per semantic group, a million times on a large table, so the key layout and
    the text prefixes of entities and facts are worked out once per template here.
    """

    def __init__(self, parsed: ParsedTemplate, layout: list[tuple[str, str, list[str]]]):
        self.template_id = parsed.id
        self.dedupe = parsed.distinct or not layout
        self.keyed = bool(layout)
        self.slices: list[tuple[str, int, int, str]] = []
        start = 0
        for qualifier, real, pk in layout:
            self.slices.append((qualifier, start, start + len(pk), f"{real}:"))
            start += len(pk)
        self.facts = [(qualifier, f"{real}.{column}@") for qualifier, real, column in parsed.fact_columns]

    def __call__(self, params: tuple, keyed_rows: list[tuple[tuple, tuple]]) -> QAGroup:
        if len(keyed_rows) == 1:
            keys, row = keyed_rows[0]
            if not self.keyed:
                return QAGroup(self.template_id, params, [row], [], [])
            return QAGroup(self.template_id, params, [row], pending=(self, keys))
        else:
            rows = [r for _, r in keyed_rows]
            if self.dedupe:
                rows = list(dict.fromkeys(rows))
            rows.sort(key=row_sort_key)
        if not self.keyed:
            return QAGroup(self.template_id, params, rows, [], [])
        entities: set[str] = set()
        facts: set[str] = set()
        for keys, _ in keyed_rows:
            key_of: dict[str, str] = {}
            for qualifier, begin, end, prefix in self.slices:
                part = keys[begin:end]
                if None in part:
                    continue  # an outer-joined table with no row contributes no entity
                key = key_text(part[0]) if end - begin == 1 else "|".join(map(key_text, part))
                key_of[qualifier] = key
                entities.add(prefix + key)
            for qualifier, prefix in self.facts:
                found = key_of.get(qualifier)
                if found is not None:
                    facts.add(prefix + found)
        return QAGroup(self.template_id, params, rows, sorted(entities), sorted(facts))

    def entities_facts(self, keys: tuple) -> tuple[list[str], list[str]]:
        """Entities and facts of a one-row group (most groups: a key looked up): the same as
        the general path, without its sets and per-row dictionaries."""
        key_of: dict[str, str] = {}
        entities: list[str] = []
        for qualifier, begin, end, prefix in self.slices:
            if end - begin == 1:
                value = keys[begin]
                if value is None:
                    continue  # an outer-joined table with no row contributes no entity
                kind = type(value)
                key = value if kind is str else str(value) if kind is int else key_text(value)
            else:
                part = keys[begin:end]
                if None in part:
                    continue
                key = "|".join(map(key_text, part))
            key_of[qualifier] = key
            entities.append(prefix + key)
        facts = [prefix + key_of[qualifier] for qualifier, prefix in self.facts if qualifier in key_of]
        if len(entities) > 1:
            entities = sorted(set(entities))
        if len(facts) > 1:
            facts = sorted(set(facts))
        return entities, facts


    def column_order(self) -> tuple[list[int], list[tuple[str, str]]] | None:
        """For :meth:`entities_facts_columns`: the slices and the fact prefixes in the order their
        texts sort, or None where that order is not the prefixes' own. It is where every slice
        is one key column and no prefix is another's prefix (nor equal to one, but for a fact
        named twice): a text is then ordered by its prefix alone and never equals another."""
        if any(end - begin != 1 for _, begin, end, _ in self.slices):
            return None
        facts = list(dict.fromkeys(self.facts))  # a fact named twice is one text
        for prefixes in ([p for *_, p in self.slices], [p for _, p in facts]):
            if any(a != b and b.startswith(a) for a in prefixes for b in prefixes) or \
                    len(set(prefixes)) < len(prefixes):
                return None
        order = sorted(range(len(self.slices)), key=lambda i: self.slices[i][3])
        return order, sorted(facts, key=lambda f: f[1])

    def entities_facts_columns(self, keys: Sequence[tuple]) -> tuple[Sequence[list[str]], Sequence[list[str]]]:
        """:meth:`entities_facts` for many one-row groups at once, a column of key values at a
        time (a million groups: one string concatenation each, no dictionary per group)."""
        n_keys = self.slices[-1][2] if self.slices else 0
        key_columns = list(zip(*keys, strict=True)) if keys else [()] * n_keys
        return self.entities_facts_of_columns(key_columns, len(keys))

    def entities_facts_of_columns(self, key_columns: Sequence[Sequence], n: int
                                  ) -> tuple[Sequence[list[str]], Sequence[list[str]]]:
        """:meth:`entities_facts_columns` given the key values as columns (one per key column
        of the layout, ``n`` groups each), as a :class:`GroupTable` holds them."""
        plan = self.column_order()
        texts: dict[str, Sequence[str]] = {}
        #: a key column with few distinct values (a joined table's: 200 countries for a million
        #: customers), by qualifier: (the column, its distinct values' texts); each text is made once
        few: dict[str, tuple[Sequence, dict[Any, str]]] = {}
        if plan is not None:
            for qualifier, begin, _, _ in self.slices:
                column = key_columns[begin]
                kinds = set(map(type, column))
                if type(None) in kinds:
                    plan = None  # an outer join left a table out: the general path drops it
                    break
                # an exact int's text is its repr (str's own call, without the type's dispatch)
                text = None if kinds <= {str} else int.__repr__ if kinds <= {int} else key_text
                sample = column[:4096]
                # equal ints (or texts) have one text; not so 1 and True, Decimal 1 and 1.0
                if (kinds == {int} or kinds == {str}) and len(set(sample)) * 4 < len(sample):
                    few[qualifier] = (column, {v: v if text is None else text(v) for v in dict.fromkeys(column)})
                else:
                    texts[qualifier] = column if text is None else list(map(text, column))
        if plan is None:
            keys = zip(*key_columns, strict=True) if key_columns else [()] * n
            pairs = [self.entities_facts(k) for k in keys]
            return [e for e, _ in pairs], [f for _, f in pairs]

        def prefixed(qualifier: str, prefix: str) -> list[str]:
            if qualifier in few:
                column, text_of = few[qualifier]
                return list(map({v: prefix + t for v, t in text_of.items()}.__getitem__, column))
            return list(map(prefix.__add__, texts[qualifier]))

        order, facts = plan
        ents = [prefixed(self.slices[i][0], self.slices[i][3]) for i in order]
        fact_texts = [prefixed(qualifier, prefix) for qualifier, prefix in facts
                      if qualifier in texts or qualifier in few]
        return TextRows(ents, n), TextRows(fact_texts, n)


class TextRows(Sequence[list[str]]):
    """One list of texts per group (its entities, or its facts) held as columns, one text per
    group each, in the order of each group's list: a million groups' lists are made only when
    read (the records' files are written from the columns). Item ``g`` is a new list; equal to
    a list of the same lists."""

    __slots__ = ("columns", "n")

    def __init__(self, columns: list[list[str]], n: int):
        self.columns = columns
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.n))]
        if index < 0:
            index += self.n
        if not 0 <= index < self.n:
            raise IndexError(index)
        return [c[index] for c in self.columns]

    def __iter__(self) -> Iterator[list[str]]:
        if not self.columns:
            return ([] for _ in range(self.n))
        if len(self.columns) == 1:
            return ([t] for t in self.columns[0])
        return map(list, zip(*self.columns, strict=True))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TextRows | list | tuple):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=False))

    __hash__ = None  # type: ignore[assignment]  # equal to a list, as a list is

    def __repr__(self) -> str:
        return f"TextRows({list(self)!r})"


@dataclass(slots=True)
class GroupColumns:
    """The groups of a template as columns (one entry per group, in the groups' order)."""

    params: Sequence[tuple]
    rows: Sequence[list[tuple]]
    #: lists, or one-row groups' as columns (:class:`TextRows`)
    entities: Sequence[list[str]]
    facts: Sequence[list[str]]


class GroupTable(Sequence[QAGroup]):
    """The groups of a template where each has exactly one row, held as columns: what a
    set-based scan found for a million combinations on a large table, without a
    :class:`QAGroup`, a list and two tuples made per group.

    ``params`` are the combinations (tuples, in the groups' order), ``keys`` one column per key
    value of the builder's layout and ``answers`` one column per answer value. Read as groups
    (indexed, iterated) each group is made as the scan makes it, the same values; the records
    (:func:`ragdx.gen.columnar.build_columns`) read the columns. A read-only sequence: groups
    changed after reading are copies."""

    __slots__ = ("build", "params", "keys", "answers")

    def __init__(self, build: _GroupBuilder, params: Sequence[tuple], keys: Sequence[Sequence],
                 answers: Sequence[Sequence]):
        self.build = build
        self.params = params
        self.keys = keys
        self.answers = answers

    def __len__(self) -> int:
        return len(self.params)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        keys = tuple(c[index] for c in self.keys)
        return QAGroup(self.build.template_id, self.params[index], [tuple(c[index] for c in self.answers)],
                       pending=(self.build, keys))

    def __iter__(self) -> Iterator[QAGroup]:
        tid, build, new = self.build.template_id, self.build, QAGroup.__new__
        keys = zip(*self.keys, strict=True) if self.keys else repeat((), len(self))
        answers = zip(*self.answers, strict=True) if self.answers else repeat((), len(self))
        for params, key, answer in zip(self.params, keys, answers, strict=True):
            group = new(QAGroup)  # as the scan makes a one-row group: its texts when first read
            group.template_id, group.params, group.rows = tid, params, [answer]
            group._entities = group._facts = None
            group._pending = (build, key)
            yield group

    def columns(self) -> GroupColumns:
        """The groups' fields as :func:`group_columns` gives them (``rows``: one list per group)."""
        entities, facts = self.build.entities_facts_of_columns(self.keys, len(self))
        return GroupColumns(self.params, OneRowEach(self.answers, len(self)), entities, facts)


class OneRowEach(Sequence[list[tuple]]):
    """Groups' answer rows where each group has one: ``cells`` holds one column per answer value.
    Item ``g`` is group ``g``'s list of rows (one tuple), made when read."""

    __slots__ = ("cells", "n")

    def __init__(self, cells: Sequence[Sequence], n: int):
        self.cells = cells
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.n))]
        if index < 0:
            index += self.n
        if not 0 <= index < self.n:
            raise IndexError(index)
        return [tuple(c[index] for c in self.cells)]

    def __iter__(self) -> Iterator[list[tuple]]:
        if not self.cells:
            return ([()] for _ in range(self.n))
        return ([row] for row in zip(*self.cells, strict=True))


def group_columns(groups: Sequence[QAGroup]) -> GroupColumns:
    """Every group's fields as columns; ``entities`` and ``facts`` are the lists the properties
    read, those of the one-row groups a scan made resolved together, a column of keys at a time.
    Each group object is read once, in C (a million groups lie all over memory: every extra
    pass over them costs a cache miss per group). The groups stay as they are. A
    :class:`GroupTable` gives its columns as they are."""
    if isinstance(groups, GroupTable):
        return groups.columns()
    if not groups:
        return GroupColumns([], [], [], [])
    params, rows, pending = zip(*map(attrgetter("params", "rows", "_pending"), groups), strict=True)
    try:
        builders, keys = zip(*pending, strict=True)
    except TypeError:  # a group made with its lists (no pending keys): one at a time below
        builders = keys = ()
    if builders and builders.count(builders[0]) == len(builders):  # all one-row groups a scan made
        entities, facts = builders[0].entities_facts_columns(keys)
        return GroupColumns(params, rows, entities, facts)
    entities = [None] * len(groups)
    facts = [None] * len(groups)
    by_builder: dict[int, tuple[_GroupBuilder, list[int]]] = {}
    for i, (group, held) in enumerate(zip(groups, pending, strict=True)):
        if held is None:
            entities[i], facts[i] = group._entities, group._facts
        else:
            by_builder.setdefault(id(held[0]), (held[0], []))[1].append(i)
    for build, places in by_builder.values():
        ents, fs = build.entities_facts_columns([pending[i][1] for i in places])
        for i, e, f in zip(places, ents, fs, strict=True):
            entities[i], facts[i] = e, f
    return GroupColumns(params, rows, entities, facts)


def key_text(value: Any) -> str:
    if type(value) is str:
        return value
    if isinstance(value, float) and value.is_integer():
        return str(int(value))  # Spider's REAL ids: 11.0 and 11 name the same row
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    return str(value)


class CollationMismatch(Exception):
    """The database's ``=`` is coarser than exact equality on this template's values (a case-,
    accent- or pad-insensitive collation): grouping rows by exact value would disagree with the
    database, so the template is answered per combination instead."""


#: a slot of a combination with more than one row (its rows are in ``_Scan.more``)
_MORE = object()


@dataclass(slots=True)
class _Scan:
    """What one set-based scan found, by the place of each combination in ``combos``."""

    combos: list[tuple[Any, ...]]
    #: None (no row), the one row (a one-row :class:`QAGroup` when ``made_groups``, the driver
    #: row otherwise) or ``_MORE``
    slots: list[Any]
    #: place → the driver rows of a combination with more than one
    more: dict[int, list[tuple]]
    n_ph: int
    n_keys: int
    build: _GroupBuilder
    #: whether a one-row slot holds a group (else its driver row)
    made_groups: bool
    #: one-row groups whose answer is all NULL
    null_singles: int = 0
    #: the rows of a scan asked to hold them (``hold``) where each found a combination of its
    #: own: (the batches as fetched, each with its rows' places, the rows' fetch positions in
    #: the combinations' order (a numpy array), the places in that order); the slots stay empty
    held: tuple[list[tuple[list[int], Sequence[tuple]]], Any, list[int]] | None = None

    def unhold(self) -> None:
        """Held rows put in their slots, for the readers of slots."""
        if self.held is not None:
            for places, batch in self.held[0]:
                deque(map(self.slots.__setitem__, places, batch), maxlen=0)
            self.held = None

    def keyed(self, rows: Sequence[tuple]) -> list[tuple[tuple, tuple]]:
        """Driver rows of one combination as (entity keys, answer row) pairs."""
        start, end = self.n_ph, self.n_ph + self.n_keys
        return [(tuple(r[start:end]), tuple(r[end:])) for r in rows]


def _scan_set_based(engine: Engine, parsed: ParsedTemplate, schema: Schema,
                    combos: list[tuple[Any, ...]] | None, domains: Sequence[Sequence[Any]] | None = None,
                    check_hits: bool = True, make_groups: bool = False, stream: bool = True,
                    hold: bool = False) -> _Scan:
    """The rows of every combination in one scan, by place in ``combos``; rows of other
    combinations are skipped. With ``combos`` None every combination found is kept, in the
    order found.

    Rows are matched to combinations through one index of ``combos`` and land in a list by
    place: the combinations are then read in their own order without a lookup each (a million
    random lookups in a million-entry dict cost more than the scan itself), no tuple is made per
    row for a one-placeholder template (the value itself is the key), and with ``make_groups``
    a one-row group is made while its row is fresh in memory, not later in the combinations'
    order (a cache miss for every value of it).

    With ``domains`` (the ``SELECT DISTINCT`` values of each placeholder), a compared value
    outside its domain that the database must have merged with a domain value raises
    :class:`CollationMismatch` (see :func:`_collation_check`). Each distinct combination is
    checked once; ``check_hits`` False says ``combos`` is the product of the domains, so that
    only combinations outside it need a check.

    The rows are streamed (a few round trips, bounded memory: rows of combinations not asked
    are dropped as they come) unless ``stream`` is False: where every combination of the data
    is asked, every row is kept anyway, and the driver's plain fetch of the whole result
    costs less (PostgreSQL: no server-side cursor's round trips; PyMySQL: no call per row).

    With ``hold``, rows that each have a combination of their own are held as fetched
    (``_Scan.held``) rather than put in their slots: :func:`_table_of` reads them a column at a
    time in the combinations' order, each row read once where it lies (see ``_Scan.unhold``).
    """
    sql, n_ph, layout = parsed.set_based_query(schema)
    build = _GroupBuilder(parsed, layout)
    scalar = n_ph == 1
    take_all = combos is None
    if combos is None:
        combos = []
    index: dict[Any, int] = dict(zip([c[0] for c in combos] if scalar else combos, range(len(combos)),
                                     strict=True))
    #: each combination then makes its own group, from rows it shares (never a group made twice)
    duplicates = len(index) < len(combos)
    scan = _Scan(combos, [None] * len(combos), {}, n_ph, sum(len(pk) for _, _, pk in layout), build,
                 make_groups and build.keyed and not duplicates)
    # A group's params are its combination's values. Where every domain value is text, a row's
    # own values equal to them are the same text, and taking them spares a read of the
    # combination (a cache miss per row: the rows come in the table's order, not the values').
    # Anything else keeps the combination's own values (1 and 1.0 are equal, not the same).
    text_params = domains is not None and all(set(map(type, d)) <= {str} for d in domains)
    # the check is made whatever the domains; without them it is never called (``verify`` False)
    _read_rows(engine, sql, scan, index, take_all=take_all, check=_collation_check(parsed, domains or ()),
               verify=domains is not None, check_hits=check_hits, text_params=text_params, stream=stream,
               hold=hold and not duplicates)
    if duplicates:
        # combinations equal in Python (1 and 1.0) share one index entry: each reads its rows
        places = [index[c[0] if scalar else c] for c in combos]
        scan.more = {j: scan.more[i] for j, i in enumerate(places) if i in scan.more}
        scan.slots = [scan.slots[i] for i in places]
    return scan


def _collation_check(parsed: ParsedTemplate, domains: Sequence[Sequence[Any]]) -> Callable[[tuple], None]:
    """A check that raises :class:`CollationMismatch` when a combination's values show the
    database merging values: ``SELECT DISTINCT`` and ``=`` follow the column's collation,
    Python's grouping does not. Where the compared column is the domain column itself, any
    value outside the domain can only be such a merge; elsewhere it is one when it matches a
    domain value loosely (a value the other table simply does not hold is no mismatch)."""
    checks: list | None = None
    loose_key = dialect_named(parsed.dialect).collation_key

    def check(params: tuple) -> None:
        nonlocal checks
        if checks is None:  # built at the first combination that needs it, often never
            checks = []
            for ph, domain in zip(parsed.placeholders, domains, strict=True):
                same = parsed.compared[ph] == parsed.domains[ph]
                checks.append((set(domain), None if same else {loose_key(v) for v in domain}))
        for value, (exact, loose) in zip(params, checks, strict=True):
            if value not in exact and (loose is None or loose_key(value) in loose):
                raise CollationMismatch(parsed.id)

    return check


def _read_rows(engine: Engine, sql: str, scan: _Scan, index: dict[Any, int], *, take_all: bool,
               check: Callable[[tuple], None], verify: bool, check_hits: bool, text_params: bool,
               stream: bool = True, hold: bool = False) -> None:
    """Run the set-based query ``sql`` and put each row in the slot of its combination in
    ``scan`` (by ``index``: combination, or its one value, -> place); with ``take_all`` a
    combination not yet indexed is added, otherwise its rows are skipped. Each combination
    outside the index, and with ``check_hits`` each one in it, goes through ``check`` once
    where ``verify`` says so."""
    # everything the loop reads is a local: it runs once per row, millions of times
    combos, slots, more, build = scan.combos, scan.slots, scan.more, scan.build
    n_ph, make_groups, tid = scan.n_ph, scan.made_groups, build.template_id
    end = n_ph + scan.n_keys
    scalar = n_ph == 1
    seen: set[tuple] = set()
    verify_hits = verify and check_hits
    null_singles = 0
    new_group = QAGroup.__new__
    get = index.get
    # rows kept as they come, nothing to check on a combination found: batches whose rows each
    # have a combination in the index are held as fetched with their places (a pass in C each)
    # and placed at the end, all at once (see _lean_batches); the others row by row below
    lean = not make_groups and not verify_hits
    values = itemgetter(0) if scalar else itemgetter(slice(0, n_ph))
    with engine.connect() as conn:
        result = (conn.execution_options(stream_results=True) if stream else conn).exec_driver_sql(sql, {})
        all_null = (None,) * (len(result.keys()) - end)  # an answer row stating nothing
        fetched = driver_rows(result, FETCH_ROWS)
        for batch in _lean_batches(scan, fetched, get, values, hold) if lean else fetched:
            for row in batch:
                i = get(row[0] if scalar else row[:n_ph])
                if i is None:
                    if verify:
                        params = tuple(row[:n_ph])
                        if params not in seen:  # once per distinct combination, not once per row
                            seen.add(params)
                            check(params)
                    if not take_all:
                        continue
                    i = index[row[0] if scalar else row[:n_ph]] = len(slots)
                    combos.append(tuple(row[:n_ph]))
                    slots.append(None)
                held = slots[i]
                if held is None:
                    if verify_hits:
                        check(tuple(row[:n_ph]))  # the first row of a combination: once each
                    if make_groups:
                        # QAGroup(tid, params, [answer], pending=(build, keys)) without the call
                        # of __init__ (a third of the cost of making a million groups)
                        answer = row[end:]
                        group = new_group(QAGroup)
                        group.template_id = tid
                        group.params = row[:n_ph] if text_params else combos[i]
                        group.rows = [answer]
                        group._entities = group._facts = None
                        group._pending = (build, row[n_ph:end])
                        slots[i] = group
                        null_singles += answer == all_null
                    else:
                        slots[i] = row
                elif held is _MORE:
                    more[i].append(row)
                else:
                    if make_groups:  # the one-row group made for its first row is undone
                        answer = held.rows[0]
                        null_singles -= answer == all_null
                        held = tuple(combos[i]) + held._pending[1] + answer
                    more[i] = [held, row]
                    slots[i] = _MORE
    scan.null_singles = null_singles


def _lean_batches(scan: _Scan, fetched: Iterable[Sequence[tuple]], get: Callable[[Any], int | None],
                  values: Callable[[tuple], Any], hold: bool) -> Iterator[Sequence[tuple]]:
    """The batches of ``fetched`` that :func:`_read_rows` must place row by row. The others, whose
    rows each have a combination in the index (``get`` of ``values``), are held with their
    places while every batch so far is such a one; then, in the order fetched, each is put in
    its slots where no two rows share one (:func:`_placed`), else given for the row-by-row
    path, as is every batch from the first with a row outside the index on. With ``hold`` and
    every row's combination its own, they stay held instead (``_Scan.held``)."""
    held: list[tuple[list[int], Sequence[tuple]]] = []

    def settled() -> Iterator[Sequence[tuple]]:
        for places, batch in held:
            if not _placed(scan.slots, places, batch):
                yield batch
        held.clear()

    fetched = iter(fetched)
    for batch in fetched:
        places = list(map(get, map(values, batch)))
        if None not in places:
            held.append((cast("list[int]", places), batch))
            continue
        yield from settled()
        yield batch
        break
    yield from fetched  # the rest, row by row (after a row outside the index)
    if not (hold and held and _held_in_order(scan, held)):
        yield from settled()


def _held_in_order(scan: _Scan, held: list[tuple[list[int], Sequence[tuple]]]) -> bool:
    """``scan.held`` from the held batches where no two rows share a combination (False
    otherwise): the rows' positions as fetched, sorted by their combinations' places."""
    import numpy as np  # a sort of a million places in C: a fifth of Python's sorted() with a key

    places = list(chain.from_iterable(p for p, _ in held))
    if not places:
        return False
    found = np.fromiter(places, dtype=np.intp, count=len(places))
    order = np.argsort(found)
    ordered = found[order]
    if not (ordered[1:] > ordered[:-1]).all():  # a combination with two rows
        return False
    scan.held = (list(held), order, ordered.tolist())
    return True


def _placed(slots: list, places: list[Any], batch: Sequence[tuple]) -> bool:
    """Put each row of ``batch`` in its slot (``places``, from the index) where every row has a
    combination in the index, no two the same and none already holding a row; False (nothing
    put) otherwise, for the row-by-row path."""
    if None in places or len(set(places)) < len(places) or any(map(slots.__getitem__, places)):
        return False
    deque(map(slots.__setitem__, places, batch), maxlen=0)
    return True


def run_set_based(engine: Engine, parsed: ParsedTemplate, schema: Schema,
                  combos: Iterable[tuple[Any, ...]] | None) -> dict[tuple, QAGroup]:
    """Answers for ``combos`` (all combinations found in the data when None) in one scan."""
    scan = _scan_set_based(engine, parsed, schema, None if combos is None else list(combos))
    out: dict[tuple, QAGroup] = {}
    for i, (combo, held) in enumerate(zip(scan.combos, scan.slots, strict=True)):
        if held is not None:
            out[combo] = scan.build(combo, scan.keyed(scan.more[i] if held is _MORE else (held,)))
    return out


def run_per_combination(engine: Engine, parsed: ParsedTemplate, combos: Iterable[tuple[Any, ...]],
                        schema: Schema | None = None) -> dict[tuple, QAGroup]:
    """Algorithm 1 as written: one parameterised query per combination."""
    if schema is None:
        sql, names = parsed.executable()
        layout: list = []
    else:
        sql, names, layout = parsed.keyed_query(schema)
    n_keys = sum(len(pk) for _, _, pk in layout)
    build = _GroupBuilder(parsed, layout)
    out: dict[tuple, QAGroup] = {}
    with engine.connect() as conn:
        for combo in combos:
            rows = conn.exec_driver_sql(sql, dict(zip(names, combo, strict=True))).fetchall()
            keyed = [(tuple(r[:n_keys]), tuple(r[n_keys:])) for r in rows]
            if keyed:
                out[tuple(combo)] = build(tuple(combo), keyed)
    return out


@dataclass(slots=True)
class AnswerOptions:
    max_groups_per_template: int | None = None
    seed: int = 0
    multi_answer: MultiPolicy = "drop"
    unanswerable: MultiPolicy = "drop"
    method: Literal["set", "per-combination"] = "set"
    #: all-NULL answers: ``keep`` as they are (replaying published datasets), ``drop`` (the
    #: CLI's default) or ``unanswerable`` (see ragdx.gen.values)
    null_answers: Literal["drop", "unanswerable", "keep"] = "keep"


@dataclass(slots=True)
class TemplateAnswers:
    template: ParsedTemplate
    #: a list, or with ``answer_template(..., columns=True)`` possibly a :class:`GroupTable`
    groups: list[QAGroup] | GroupTable
    counts: AnswerCounts = field(default_factory=AnswerCounts)


def answer_template(engine: Engine, parsed: ParsedTemplate, schema: Schema,
                    options: AnswerOptions, *, columns: bool = False) -> TemplateAnswers:
    """Fill ``parsed`` with the database's values and answer every combination, applying the
    multiplicity policies; groups come back in the order of their placeholder values.

    With ``columns``, groups that each have one row (a set-based scan where no combination
    has several rows and unanswerable ones are dropped: a large table's usual case) come back
    as a :class:`GroupTable`, the same groups held as columns, for
    :func:`ragdx.gen.columnar.build_columns`; otherwise as a list."""
    # Only acyclic tuples, lists and strings are made here, millions of them from the domains
    # on: the cyclic garbage collector would rescan them all again and again (a third of the
    # time on 1M rows), and once more at its first pass after re-enabling (gc_paused spares it).
    with gc_paused():
        return _answer_template(engine, parsed, schema, options, columns)


def _set_based_or_none(engine: Engine, parsed: ParsedTemplate, schema: Schema, combos: list[tuple[Any, ...]],
                       domains: Sequence[Sequence[Any]], make_groups: bool = True, hold: bool = False
                       ) -> _Scan | None:
    """Every combination's rows in one scan, made into one-row groups where they can be; None
    where the database merges values that Python tells apart (:class:`CollationMismatch`): the
    combinations are then answered one query each."""
    same_column = all(parsed.compared[ph] == parsed.domains[ph] for ph in parsed.placeholders)
    capped = len(combos) < math.prod(len(d) for d in domains)
    try:
        # uncapped, on the domain columns themselves: the combinations are the product of
        # the domains, and only a value outside it needs the collation check
        return _scan_set_based(engine, parsed, schema, combos, domains, check_hits=capped or not same_column,
                               make_groups=make_groups, stream=capped or not same_column, hold=hold)
    except CollationMismatch:
        return None


def _settle_scan(scan: Any, combos: list, groups: list[QAGroup], counts: AnswerCounts,
                 settle: Callable[[tuple, QAGroup | None], None], keep_none: bool) -> None:
    """The set-based scan's slots into ``groups``, with the multiplicity policies (``settle``)."""
    slots, more, build, made = scan.slots, scan.more, scan.build, scan.made_groups
    single = 0
    if made and not more and not keep_none:
        # the common case (a million combinations on 1M rows): every slot is a one-row group
        # the scan made (its entities and facts are made when first read) or no row at all
        groups.extend([g for g in slots if g is not None])
        single = len(groups)
        counts.unanswerable_dropped += len(slots) - single
        slots = []
    # otherwise one combination at a time, a one-row group already made by the scan
    for i, held in enumerate(slots):
        if held is None:
            settle(combos[i], None)
        elif held is _MORE:
            combo = combos[i]
            settle(combo, build(combo, scan.keyed(more[i])))
        elif made:
            groups.append(held)
            single += 1
        else:
            combo = combos[i]
            settle(combo, build(combo, scan.keyed((held,))))
    counts.single += single
    counts.null_answers += scan.null_singles


def _answer_template(engine: Engine, parsed: ParsedTemplate, schema: Schema,
                     options: AnswerOptions, columns: bool = False) -> TemplateAnswers:
    from ragdx.gen.values import draw_combinations, needs_normalising, normalise_rows, settle_nulls

    domains = placeholder_domains(engine, parsed)
    combos, available = draw_combinations(engine, parsed, schema, domains, options)
    use_set = options.method == "set" and parsed.set_based
    counts = AnswerCounts(combinations=len(combos), method="set" if use_set else "per-combination",
                          left_out_by_cap=available - len(combos))
    groups: list[QAGroup] = []
    keep_none, keep_multi = options.unanswerable == "keep", options.multi_answer == "keep"
    # for columns the scan keeps the driver's rows (no group made per row): where each
    # combination has at most one, they are read as columns below
    scan = _set_based_or_none(engine, parsed, schema, combos, domains, make_groups=keep_none or not columns,
                              hold=columns and not keep_none) if use_set else None
    if scan is None:
        counts.method = "per-combination"
    del domains
    if scan is not None and columns and not scan.made_groups and not scan.more and not keep_none \
            and scan.build.keyed:
        table = _table_of(scan, counts)
        if table is not None:
            return _settled_table(parsed, schema, table, counts, options.null_answers)
    if scan is not None:
        scan.unhold()  # the groups are made from the slots
    append = groups.append

    def settle(combo: tuple, group: QAGroup | None) -> None:
        """The multiplicity policies for one combination."""
        if group is None:
            if keep_none:
                append(QAGroup(parsed.id, combo, [], [], []))
                counts.unanswerable_kept += 1
            else:
                counts.unanswerable_dropped += 1
        elif len(group.rows) > 1:
            if keep_multi:
                append(group)
                counts.multi_kept += 1
            else:
                counts.multi_dropped += 1
        else:
            append(group)
            counts.single += 1
            row = group.rows[0]
            counts.null_answers += row.count(None) == len(row)

    if scan is not None:
        _settle_scan(scan, combos, groups, counts, settle, keep_none)
    else:
        found = run_per_combination(engine, parsed, combos, schema).get
        for combo in combos:
            settle(combo, found(combo))
    # one rendering of dates, numbers and booleans on every engine (text needs none: no pass
    # over a million groups for nothing), then NULL answers settled
    if needs_normalising(parsed, schema):
        for group, rows in zip(groups, normalise_rows(parsed, schema, [g.rows for g in groups]), strict=True):
            group.rows = rows
    groups = settle_nulls(groups, counts, options.null_answers)
    return TemplateAnswers(parsed, groups, counts)


def _table_of(scan: _Scan, counts: AnswerCounts) -> GroupTable | None:
    """The one-row groups of a scan that kept driver rows, every slot holding one row or none,
    as a :class:`GroupTable` (None where no combination has a row); counts the groups kept,
    the combinations dropped as unanswerable and the answers that are all NULL."""
    slots = scan.slots
    if scan.held is not None:
        params, cells = _held_columns(scan)
    else:
        rows = list(filter(None, slots))  # a driver row is never empty: it has the placeholders
        if not rows:
            return None
        # one pass in C over the rows (made in the table's order, all over memory) and one over
        # the combinations (in order): no object per group
        params = list(compress(scan.combos, slots))
        # a column per key and answer value, not the placeholders' (the combinations are the params)
        cells = [list(map(itemgetter(j), rows)) for j in range(scan.n_ph, len(rows[0]))]
        del rows
    keys, answers = cells[:scan.n_keys], cells[scan.n_keys:]
    counts.single += len(params)
    counts.unanswerable_dropped += len(slots) - len(params)
    counts.null_answers += _all_null(answers).count(True) if all(None in c for c in answers) else 0
    return GroupTable(scan.build, params, keys, answers)


def _held_columns(scan: _Scan) -> tuple[list[tuple], list[list]]:
    """The params and the key and answer columns of a scan's held rows, in the combinations'
    order: each column read from the rows as fetched (in order in memory, where they were
    made), then taken in the combinations' order, by index lists in C. A column of integers
    (keys, mostly) is taken as a numpy array and made anew, its values then in order in memory
    too: every later pass over them (their types, their texts) reads memory in order, not a
    cache miss per value as among the rows. A column of few distinct texts (a joined table's
    region for a million customers) refers to one text of each, not to a million equal copies
    all over memory."""
    import numpy as np

    batches, order, places = cast("tuple", scan.held)
    params = _taken(scan.combos, places)
    width = len(next(rows[0] for _, rows in batches if rows))
    listed: list[int] | None = None
    cells = []
    for j in range(scan.n_ph, width):
        column = list(chain.from_iterable(map(itemgetter(j), rows) for _, rows in batches))
        kinds = set(map(type, column))
        if kinds == {int} and -2**63 <= min(column) and max(column) < 2**63:
            cells.append(np.array(column, dtype=np.int64)[order].tolist())  # equal ints, new objects
            continue
        if kinds == {str} and len(set(column[:4096])) * 4 < min(len(column), 4096):
            one: dict[str, str] = {}
            column = list(map(one.setdefault, column, column))  # equal texts, the first of each
        listed = order.tolist() if listed is None else listed
        cells.append(_taken(column, listed))
    return params, cells


def _taken(values: Sequence, places: list[int]) -> list:
    """``[values[i] for i in places]`` in C (itemgetter of one index gives the value itself)."""
    return list(itemgetter(*places)(values)) if len(places) > 1 else [values[i] for i in places]


def _all_null(answers: Sequence[Sequence]) -> list[bool]:
    """For each row of the answer columns, whether all its values are NULL."""
    if len(answers) == 1:
        return [v is None for v in answers[0]]
    nothing = (None,) * len(answers)
    return [row == nothing for row in zip(*answers, strict=True)]


def _settled_table(parsed: ParsedTemplate, schema: Schema, table: GroupTable, counts: AnswerCounts,
                   null_answers: Literal["drop", "unanswerable", "keep"]) -> TemplateAnswers:
    """:func:`_answer_template`'s last steps (values normalised, NULL answers settled) on a
    :class:`GroupTable`, with the same outcome as on its groups one at a time."""
    from ragdx.gen.values import needs_normalising, normalise_rows, settle_nulls

    if needs_normalising(parsed, schema):
        rows = normalise_rows(parsed, schema, [[r] for r in zip(*table.answers, strict=True)])
        table.answers = list(zip(*[rs[0] for rs in rows], strict=True))
    if null_answers == "keep" or not all(None in c for c in table.answers):
        return TemplateAnswers(parsed, table, counts)
    empty = _all_null(table.answers)
    dropped = empty.count(True)
    if not dropped:
        return TemplateAnswers(parsed, table, counts)
    if null_answers != "drop":  # kept as unanswerable: a group with no row, not a table's
        return TemplateAnswers(parsed, settle_nulls(list(table), counts, null_answers), counts)
    counts.single -= dropped
    counts.null_dropped += dropped
    kept = [not e for e in empty]
    table.params = list(compress(table.params, kept))
    table.keys = [list(compress(c, kept)) for c in table.keys]
    table.answers = [list(compress(c, kept)) for c in table.answers]
    return TemplateAnswers(parsed, table, counts)


def kinds(groups: Iterable[QAGroup]) -> Counter:
    return Counter(g.kind for g in groups)


__all__ = [
    "AnswerCounts", "AnswerOptions", "GroupColumns", "GroupTable", "QAGroup", "TemplateAnswers", "answer_template",
    "choose_combinations", "group_columns", "placeholder_domains", "run_per_combination", "run_set_based",
    "value_sort_key",
]
