"""The kinds of question people ask besides a look-up (issue 22 item 4): lists, counts, totals,
extremes, comparisons and time ranges, derived from the schema and answered by executing SQL.

A look-up asks one attribute of one named row (GRAMMAR's templates, :mod:`ragdx.gen.sql_templates`).
The kinds here ask about a *set* of rows: the orders of a customer, how many there are, the total
they paid, the customer with the highest credit limit, which of two products costs more, the
orders shipped in March 2003. Their SQL has shapes the template grammar (equalities with
placeholders, one answer row per entity) cannot express (aggregates, ``MAX`` subqueries, two
values of one column, date ranges), so each kind builds its statement with SQLAlchemy's core
(identifiers quoted for the engine, every value a bound parameter) instead of a template file.

Semantic groups are kept as GRAMMAR defines them: one kind template + the values that fill it is
one group, asked in every style, and its answer comes from the database, never from Python.

Decisions, each on purpose:

* a list's answer is a set: its distinct rows, judged as a set; its multiplicity is recorded
  (``answer_kind`` ``multi`` and one entity per underlying row). A list from more than
  :data:`LIST_MAX` rows is not asked (nobody reads a 300-line answer), nor is an empty one;
* a tie at an extreme is an answer set (every tied row is right, the judge wants them all);
  a comparison whose two values tie has no "higher" one and is dropped (counted);
* a count of zero is asked (the customer exists and placed no order: a right answer is 0);
  a total over no rows (NULL) is not;
* a row is named by its look-up key (:func:`ragdx.gen.sql_templates.lookup_keys`), and only by a
  value no other row shares (a count for a name two customers share would add both up);
* balance: at most ``max_groups_per_template`` groups per kind template, and at most
  :data:`TEMPLATES_PER_KIND` templates' worth per kind, drawn round-robin across the kind's
  templates, so one link table cannot fill half a dataset;
* every sample is seeded by the template's meaning in lower case (never its SQL's spelling),
  so one database on SQLite, PostgreSQL and MariaDB asks the same questions.

Facts (``Table.Column@key``, as a look-up's): what the answer rests on, one per row it counts,
lists or compares: the link of each row to the named row (``Orders.CustomerID@10248``), the value
summed or compared, the value of the date in range, and the names the answer states. Whether a
knowledge base *supports* a list, count, total, extreme or time range also needs that no other
row belongs to the set, which no document states: with every fact found ``kb_supported`` is None
(undecided), never True; with one missing it is False (the gap is certain). A comparison rests on
its two values alone, so it is True or False like a look-up.
"""

from __future__ import annotations

import calendar
import hashlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from ragdx.db.schema import Schema, TableInfo
from ragdx.gen import kinds_text as kt
from ragdx.gen.dataset import QARecord, answer_text, document_ids, group_id, json_value, value_text
from ragdx.gen.naming import (
    column_phrase,
    composite_name,
    fill_name,
    low_words,
    plural_phrase,
    readable_entity,
    relation_noun,
)
from ragdx.gen.options import QUESTION_KINDS  # every kind; ``lookup`` is GRAMMAR's (the template files)
from ragdx.gen.qa import AnswerCounts, key_text
from ragdx.gen.sql_templates import (
    entity_key,
    is_association,
    is_number_key,
    is_surrogate,
    lookup_keys,
    template_id,
)
from ragdx.gen.values import row_sort_key, value_sort_key

__all__ = ["COMPLETENESS_KINDS", "DEFAULT_KINDS", "QUESTION_KINDS", "KindTemplate", "kind_records",
           "kind_templates"]

#: look-ups only: the default datasets (and the README's figures) stay what they were; the other
#: kinds are asked for (``gen: kinds:`` in ragdx.yaml, ``kinds=`` in Python)
DEFAULT_KINDS = ("lookup",)
#: kinds whose support needs that no other row belongs to the set (see the module's docstring)
COMPLETENESS_KINDS = frozenset({"list", "count", "total", "extreme", "time_range"})
#: the longest list asked
LIST_MAX = 10
#: a kind gets at most this many templates' worth of groups (``max_groups_per_template`` each)
TEMPLATES_PER_KIND = 4
#: with a cap, a template tries at most this many values per group it may ask (a plane with no
#: index on its flights costs a scan each: values that give nothing must not cost a scan apiece)
TRIES_PER_GROUP = 4

# A number column worth summing: what adds up (an amount, a quantity), not what only compares
_ADDITIVE = frozenset({"amount", "quantity", "qty", "freight", "cost", "credits", "hours", "fee", "fees",
                       "budget", "weight", "total", "units", "paid", "sales", "revenue", "stock"})
# A number column that is no measure: years, ranks, positions, codes and phone-like numbers
_NOT_MEASURE = frozenset({"year", "no", "nr", "num", "number", "code", "id", "zip", "postal", "phone", "rank",
                          "level", "order", "sequence", "position", "semester", "version", "extension",
                          "discontinued", "compulsory", "is", "flag", "age", "month", "day", "week", "hour",
                          "minute", "lat", "lon", "latitude", "longitude", "tz", "timezone"})
_PARTICIPLES = {"birth": "born", "hire": "hired", "hired": "hired", "order": "placed", "ordered": "placed",
                "ship": "shipped", "shipped": "shipped", "release": "released", "start": "started",
                "end": "ended", "publication": "published", "payment": "made", "delivery": "delivered",
                "invoice": "issued", "registration": "registered", "required": "due",
                "created": "created", "join": "joined", "enrolment": "enrolled",
                "enrollment": "enrolled", "arrival": "arrived", "departure": "departed", "death": "died"}


@dataclass(frozen=True, slots=True)
class _Rows:
    """Rows of one table a statement projects the key of, and the columns whose facts they state."""

    table: TableInfo
    facts: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class KindTemplate:
    """A template of one question kind: how it is answered, which values fill it, its words."""

    kind: str
    #: the table the question is about (the rows it lists, counts or compares)
    table: str
    #: the meaning, independent of how identifiers are spelt (``list|orders|customers|customerid``)
    signature: str
    #: ``Table.Column`` per value filling the question (a second value of one column: ``#2``)
    placeholders: tuple[str, ...]
    pieces: kt.Pieces
    answer_columns: tuple[str, ...]
    #: values, display -> the answering SELECT: the keys of ``answer_rows``' tables, then the answer
    answer: Callable[[tuple, bool], sa.Select]
    answer_rows: tuple[_Rows, ...]
    #: the answer is one number (a count, a total), not rows
    number: bool
    #: values -> a SELECT of the keys of the rows an aggregate rests on (``support_rows``' tables)
    support: Callable[[tuple], sa.Select] | None
    support_rows: tuple[_Rows, ...]
    #: the values that fill it, in a stable order (the database's, sorted in Python)
    domain: Callable[[Connection], list[tuple]]
    #: values -> the texts of its slots ("the customer 'Atelier graphique'", "March 2003")
    slots: Callable[[tuple], tuple[str, ...]]
    #: the answer must be exactly one row (a comparison: two rows are a tie)
    one_row: bool = False
    #: the fewest support rows a question needs (an extreme over one row asks nothing)
    least_support: int = 0

    @property
    def id(self) -> str:
        return template_id(self.signature)

    @property
    def sample_key(self) -> str:
        return "k" + hashlib.sha256(self.signature.casefold().encode()).hexdigest()[:10]

    def texts(self) -> dict[str, str]:
        return kt.styled(self.pieces)


# ----------------------------------------------------------------------------- schema helpers


def _tab(table: TableInfo, alias: str) -> sa.sql.Alias:
    return cast(sa.sql.Alias, sa.table(table.name, *(sa.column(c.name) for c in table.columns)).alias(alias))


def _keys_of(alias: sa.sql.Alias, table: TableInfo) -> list[sa.ColumnElement]:
    return [alias.c[c] for c in entity_key(table)]


def _fact_columns(table: TableInfo, columns: Sequence[str]) -> tuple[str, ...]:
    """The columns whose values are facts of a row (a key column is the row itself, except an
    association row's: its key is the link)."""
    key = set(entity_key(table))
    return tuple(c for c in dict.fromkeys(columns) if c not in key or is_association(table))


def _measures(table: TableInfo, keys: Sequence[str]) -> list[str]:
    """Number columns worth comparing: not a key, id, foreign key, year, code or flag."""
    out = []
    for c in table.columns:
        words = set(low_words(c.name))
        if words == {readable_entity(table.name).lower()}:
            continue  # a flight's "flight" is its number, not a measure of it
        if c.kind in ("integer", "number") and c.name not in keys and not is_surrogate(table, c.name) \
                and table.foreign_key_of(c.name) is None and not words & _NOT_MEASURE \
                and not (c.distinct is not None and c.distinct < 2):
            out.append(c.name)
    return out


def _measure_phrase(column: str) -> str:
    """A measure as people say it: "max enrolment" -> "maximum enrolment"."""
    words = column_phrase(column).split()
    return " ".join({"max": "maximum", "min": "minimum", "avg": "average", "qty": "quantity"}.get(w, w)
                    for w in words)


def _additive(column: str) -> bool:
    return bool(set(low_words(column)) & _ADDITIVE)


def _nameable(table: TableInfo) -> list[str]:
    keys = lookup_keys(table)
    return keys if keys and table.rows and not is_association(table) else []


def _named(table: TableInfo, keys: Sequence[str], values: tuple, *, bare: bool = False) -> str:
    """How a question names a row: "order 10100", "the customer 'Atelier graphique'" (``bare``:
    without its noun, "'Steven Buchanan'")."""
    noun = readable_entity(table.name)
    text = " ".join(value_text(v) for v in values)
    if is_number_key(table, keys):
        return f"{noun} {text}"
    pattern = composite_name(table.name, list(keys)) if len(keys) >= 2 else None
    if pattern is not None:  # "the UA flight 1545 on 2013-1-1", as look-ups name it
        named = fill_name(pattern, {k: value_text(v) for k, v in zip(keys, values, strict=True)})
        return named if bare or named.startswith(f"{noun} ") else f"the {named}"
    if bare or text.casefold().startswith(noun.casefold() + " "):
        return f"'{text}'"  # the value says what it is ("'Faculty of Humanities'")
    return f"the {noun} '{text}'"


def _unique_values(table: TableInfo, keys: Sequence[str]) -> Callable[[Connection], list[tuple]]:
    """The key values only one row holds, sorted (NULLs left out)."""
    def domain(conn: Connection) -> list[tuple]:
        t = _tab(table, "d")
        cols = [t.c[k] for k in keys]
        stmt = sa.select(*cols).where(*(c.is_not(None) for c in cols)).group_by(*cols).having(
            sa.func.count() == 1)
        return sorted((tuple(r) for r in conn.execute(stmt)), key=row_sort_key)
    return domain


# ----------------------------------------------------------------------------- scopes


def _linked_values(s: _Scope) -> Callable[[Connection], list[tuple]]:
    """The owners' unique key values that some item links to (a list, total or extreme of none is
    not asked, and 1,300 airports no flight leaves from would each cost a scan to learn that)."""
    unique = _unique_values(s.owner, s.owner_keys)

    def domain(conn: Connection) -> list[tuple]:
        _, o, _, frm = s.joined()
        cols = [o.c[k] for k in s.owner_keys]
        linked = {tuple(r) for r in conn.execute(sa.select(*cols).select_from(frm).distinct())}
        return [v for v in unique(conn) if v in linked]
    return domain


@dataclass(frozen=True, slots=True)
class _Scope:
    """The rows of ``items`` linked to one named row of ``owner``: directly by a foreign key of
    ``items`` (``via`` None), or through the association table ``via``."""

    items: TableInfo
    item_keys: tuple[str, ...]
    owner: TableInfo
    owner_keys: tuple[str, ...]
    owner_col: str  # the column pointing at the owner (in items, or in via)
    owner_ref: str  # the owner's column it points at
    via: TableInfo | None = None
    item_col: str = ""  # via's column pointing at items
    item_ref: str = ""  # the items' column it points at
    role: str = ""  # the relation's own noun when it is not the owner's ("sales rep", "manager")

    def joined(self, tag: str = "") -> tuple[sa.sql.Alias, sa.sql.Alias, sa.sql.Alias, Any]:
        """(items, owner, link rows, FROM clause); ``tag`` keeps a subquery's aliases apart."""
        i, o = _tab(self.items, f"i{tag}"), _tab(self.owner, f"o{tag}")
        if self.via is None:
            return i, o, i, i.join(o, i.c[self.owner_col] == o.c[self.owner_ref])
        a = _tab(self.via, f"a{tag}")
        return i, o, a, a.join(o, a.c[self.owner_col] == o.c[self.owner_ref]).join(
            i, a.c[self.item_col] == i.c[self.item_ref])

    def where(self, o: sa.sql.Alias, values: tuple, prefix: str) -> list[sa.ColumnElement]:
        return [o.c[k] == sa.bindparam(f"{prefix}{n}", v) for n, (k, v) in enumerate(zip(self.owner_keys, values,
                                                                                           strict=True))]

    @property
    def link(self) -> _Rows:
        """The rows that make an item belong to the owner, and the link's facts."""
        if self.via is None:
            return _Rows(self.items, _fact_columns(self.items, [self.owner_col]))
        return _Rows(self.via, _fact_columns(self.via, [self.owner_col, self.item_col]))

    @property
    def signature(self) -> str:
        via = f"{self.via.name}.{self.item_col}" if self.via is not None else ""
        return f"{self.items.name}|{self.owner.name}|{self.owner_col}|{via}"

    def clause(self, named: str, past: bool = False) -> tuple[str, str]:
        """(relative clause, fragment tail): ("belong to the customer 'X'", "of the customer 'X'")."""
        if self.via is not None:
            return f"are recorded for {named}", f"for {named}"
        if self.role:
            return f"have {named} as their {self.role}", f"with {self.role} {named}"
        return f"belong to {named}", f"of {named}"


def _scopes(schema: Schema) -> list[_Scope]:
    out: list[_Scope] = []
    for table in schema.tables.values():
        if is_association(table) and table.rows:
            out += _association_scopes(schema, table)
            continue
        item_keys = _nameable(table)
        if not item_keys:
            continue
        for fk in table.foreign_keys:
            if len(fk.columns) != 1 or not schema.has_table(fk.ref_table) or fk.columns[0] in item_keys:
                continue
            owner = schema.table(fk.ref_table)
            owner_keys = _nameable(owner)
            if not owner_keys:
                continue
            noun, entity = relation_noun(fk.columns[0], owner.name, fk.ref_columns[0]), readable_entity(owner.name)
            role = "" if noun.lower() == entity.lower() else noun
            out.append(_Scope(table, tuple(item_keys), owner, tuple(owner_keys), fk.columns[0],
                              owner.column(fk.ref_columns[0]).name, role=role))
    return out


def _association_scopes(schema: Schema, assoc: TableInfo) -> list[_Scope]:
    ends = []
    for fk in sorted(assoc.foreign_keys, key=lambda f: f.columns):
        if len(fk.columns) == 1 and schema.has_table(fk.ref_table):
            ref = schema.table(fk.ref_table)
            if _nameable(ref):
                ends.append((fk.columns[0], ref, ref.column(fk.ref_columns[0]).name))
    out = []
    for a in ends:
        for b in ends:
            if a is not b and a[1].name != b[1].name:
                out.append(_Scope(b[1], tuple(_nameable(b[1])), a[1], tuple(_nameable(a[1])), a[0], a[2],
                                  via=assoc, item_col=b[0], item_ref=b[2]))
    return out


# ----------------------------------------------------------------------------- the templates


def kind_templates(schema: Schema, kinds: Sequence[str] = QUESTION_KINDS) -> list[KindTemplate]:
    """Every template of ``kinds`` the schema and its profiled data allow, in a stable order."""
    scopes = _scopes(schema)
    makers: dict[str, Callable[[], list[KindTemplate]]] = {
        "list": lambda: [_list_template(s) for s in scopes],
        "count": lambda: [_count_template(s) for s in scopes],
        "total": lambda: [t for s in scopes for t in _total_templates(s)],
        "extreme": lambda: [t for s in scopes for t in _scoped_extremes(s)]
        + [t for table in schema.tables.values() for t in _extremes(table)],
        "comparison": lambda: [t for table in schema.tables.values() for t in _comparisons(table)],
        "time_range": lambda: [t for table in schema.tables.values() for t in _time_ranges(table)],
    }
    out = [t for kind in kinds if kind in makers for t in makers[kind]()]
    return sorted(out, key=lambda t: (QUESTION_KINDS.index(t.kind), t.signature.casefold()))


def _owner_placeholders(s: _Scope) -> tuple[str, ...]:
    return tuple(f"{s.owner.name}.{k}" for k in s.owner_keys)


def _owner_slot(s: _Scope) -> Callable[[tuple], tuple[str, ...]]:
    if s.role:  # "have 'Steven Buchanan' as their manager": the role says what the row is
        return lambda values: (_named(s.owner, s.owner_keys, values, bare=True),)
    return lambda values: (_named(s.owner, s.owner_keys, values),)


def _list_template(s: _Scope) -> KindTemplate:
    items = plural_phrase(readable_entity(s.items.name))
    clause, short = s.clause("{0}")
    layout = (_Rows(s.items, _fact_columns(s.items, [*s.item_keys, *([s.owner_col] if s.via is None else [])])),) \
        + ((s.link,) if s.via is not None else ())

    def answer(values: tuple, display: bool = False) -> sa.Select:
        i, o, link, frm = s.joined()
        keys = _keys_of(i, s.items) + (_keys_of(link, s.via) if s.via is not None else [])
        return sa.select(*keys, *(i.c[k] for k in s.item_keys)).select_from(frm).where(*s.where(o, values, "p"))

    return KindTemplate("list", s.items.name, f"list|{s.signature}", _owner_placeholders(s),
                        kt.list_pieces(items, clause, short), tuple(s.item_keys), answer, layout, False,
                        None, (), _linked_values(s), _owner_slot(s))


def _support(s: _Scope, extra: Sequence[str] = ()) -> tuple[Callable[[tuple], sa.Select], tuple[_Rows, ...]]:
    """The link rows of a scope (the rows a count or total rests on), with ``extra`` facts."""
    link = s.link
    rows = (_Rows(link.table, link.facts + _fact_columns(link.table, extra)),)

    def support(values: tuple) -> sa.Select:
        _, o, link_alias, frm = s.joined()
        return sa.select(*_keys_of(link_alias, link.table)).select_from(frm).where(*s.where(o, values, "p"))

    return support, rows


def _count_template(s: _Scope) -> KindTemplate:
    items = plural_phrase(readable_entity(s.items.name))
    clause, short = s.clause("{0}")

    def answer(values: tuple, display: bool = False) -> sa.Select:
        _, o, _, frm = s.joined()
        return sa.select(sa.func.count()).select_from(frm).where(*s.where(o, values, "p"))

    support, rows = _support(s)
    return KindTemplate("count", s.items.name, f"count|{s.signature}", _owner_placeholders(s),
                        kt.count_pieces(items, clause, short), ("count",), answer, (), True, support, rows,
                        _unique_values(s.owner, s.owner_keys), _owner_slot(s))


def _total_templates(s: _Scope) -> list[KindTemplate]:
    # summed where the value lives: an order line's quantity (the association's own column), an
    # order's freight (the item's)
    table = s.via if s.via is not None else s.items
    items = plural_phrase(readable_entity(s.items.name))
    clause, short = s.clause("{0}")
    out = []
    for measure in (m for m in _measures(table, s.item_keys) if _additive(m)):
        def answer(values: tuple, display: bool = False, measure: str = measure) -> sa.Select:
            i, o, link, frm = s.joined()
            col = (link if s.via is not None else i).c[measure]
            return sa.select(sa.func.sum(col)).select_from(frm).where(*s.where(o, values, "p"))

        support, rows = _support(s, [measure])
        out.append(KindTemplate("total", s.items.name, f"total|{s.signature}|{measure}", _owner_placeholders(s),
                                kt.total_pieces(_measure_phrase(measure), items, clause, short), (f"total {measure}",),
                                answer, (), True, support, rows, _linked_values(s),
                                _owner_slot(s)))
    return out


_DIRECTIONS = (("highest", sa.func.max), ("lowest", sa.func.min))


def _scoped_extremes(s: _Scope) -> list[KindTemplate]:
    item, items = readable_entity(s.items.name), plural_phrase(readable_entity(s.items.name))
    clause, short = s.clause("{0}")
    out = []
    dates = _date_columns(s.items)
    for measure in _measures(s.items, s.item_keys) + dates:
        for most, agg in _DIRECTIONS:
            def answer(values: tuple, display: bool = False, measure: str = measure, agg=agg) -> sa.Select:
                i, o, _, frm = s.joined()
                i2, o2, _, frm2 = s.joined("2")
                best = sa.select(agg(i2.c[measure])).select_from(frm2).where(*s.where(o2, values, "q"))
                return sa.select(*_keys_of(i, s.items), *(i.c[k] for k in s.item_keys)).select_from(frm).where(
                    *s.where(o, values, "p"), i.c[measure] == best.scalar_subquery())

            def support(values: tuple, measure: str = measure) -> sa.Select:
                i, o, _, frm = s.joined()
                return sa.select(*_keys_of(i, s.items)).select_from(frm).where(
                    *s.where(o, values, "p"), i.c[measure].is_not(None))

            layout = (_Rows(s.items, _fact_columns(s.items, [*s.item_keys, measure])),)
            if measure in dates:
                pieces = kt.scoped_date_extreme_pieces(item, items, clause, short, *_date_best(measure, most))
                domain = _if_dates(s.items, measure, _linked_values(s))
            else:
                pieces = kt.scoped_extreme_pieces(item, items, clause, short, _measure_phrase(measure), most)
                domain = _linked_values(s)
            out.append(KindTemplate(
                "extreme", s.items.name, f"extreme|{s.signature}|{measure}|{most}", _owner_placeholders(s),
                pieces, tuple(s.item_keys), answer, layout, False, support, (_Rows(s.items, ()),),
                domain, _owner_slot(s), least_support=2))
    return out


def _extremes(table: TableInfo) -> list[KindTemplate]:
    keys = _nameable(table)
    if not keys:
        return []
    out = []
    dates = _date_columns(table)
    for measure in _measures(table, keys) + dates:
        for most, agg in _DIRECTIONS:
            def answer(values: tuple, display: bool = False, measure: str = measure, agg=agg) -> sa.Select:
                t, t2 = _tab(table, "t"), _tab(table, "t2")
                best = sa.select(agg(t2.c[measure])).scalar_subquery()
                return sa.select(*_keys_of(t, table), *(t.c[k] for k in keys)).where(t.c[measure] == best)

            def support(values: tuple, measure: str = measure) -> sa.Select:
                t = _tab(table, "t")
                return sa.select(*_keys_of(t, table)).where(t.c[measure].is_not(None))

            layout = (_Rows(table, _fact_columns(table, [*keys, measure])),)
            item = readable_entity(table.name)
            if measure in dates:
                pieces = kt.date_extreme_pieces(item, *_date_best(measure, most))
            else:
                pieces = kt.extreme_pieces(item, _measure_phrase(measure), most)
            domain = _if_dates(table, measure, lambda conn: [()]) if measure in dates else (lambda conn: [()])
            out.append(KindTemplate(
                "extreme", table.name, f"extreme|{table.name}|{measure}|{most}", (), pieces, tuple(keys), answer,
                layout, False, support, (_Rows(table, ()),), domain, lambda values: (), least_support=2))
    return out


def _comparisons(table: TableInfo) -> list[KindTemplate]:
    """Which of two named rows has the higher value; only for a one-column name (two values of it
    fill the question)."""
    keys = _nameable(table)
    if len(keys) != 1:
        return []
    (key,) = keys
    out = []
    for measure in _measures(table, keys):
        def answer(values: tuple, display: bool = False, measure: str = measure) -> sa.Select:
            t, t2, t3 = _tab(table, "t"), _tab(table, "t2"), _tab(table, "t3")

            def pair(alias: sa.sql.Alias, prefix: str) -> sa.ColumnElement:
                return alias.c[key].in_([sa.bindparam(f"{prefix}0", values[0]), sa.bindparam(f"{prefix}1", values[1])])

            best = sa.select(sa.func.max(t2.c[measure])).where(pair(t2, "q")).scalar_subquery()
            # both values recorded: against a missing value, neither is "higher"
            both = sa.select(sa.func.count(t3.c[measure])).where(pair(t3, "r")).scalar_subquery()
            return sa.select(*_keys_of(t, table), t.c[key]).where(pair(t, "p"), t.c[measure] == best, both == 2)

        def support(values: tuple, measure: str = measure) -> sa.Select:
            t = _tab(table, "t")
            return sa.select(*_keys_of(t, table)).where(t.c[key].in_([sa.bindparam("p0", values[0]),
                                                                      sa.bindparam("p1", values[1])]))

        facts = _fact_columns(table, [key, measure])
        signature = f"comparison|{table.name}|{measure}"
        out.append(KindTemplate(
            "comparison", table.name, signature, (f"{table.name}.{key}", f"{table.name}.{key}#2"),
            kt.comparison_pieces(_measure_phrase(measure), "{0}", "{1}"), (key,), answer,
            (_Rows(table, facts),), False, support, (_Rows(table, facts),), _pairs(table, key, measure, signature),
            lambda values: (_named(table, keys, values[:1]), _named(table, keys, values[1:])), one_row=True))
    return out


def _pairs(table: TableInfo, key: str, measure: str, signature: str) -> Callable[[Connection], list[tuple]]:
    """Pairs of names, each name once, drawn from the sorted unique names of rows with a value."""
    def domain(conn: Connection) -> list[tuple]:
        t = _tab(table, "d")
        # a name one row holds (whatever its value), and that row has a value
        stmt = sa.select(t.c[key]).where(t.c[key].is_not(None)).group_by(t.c[key]).having(
            sa.func.count() == 1, sa.func.count(t.c[measure]) == 1)
        names = sorted((r[0] for r in conn.execute(stmt)), key=value_sort_key)
        random.Random(signature.casefold()).shuffle(names)
        return [(names[i], names[i + 1]) for i in range(0, len(names) - 1, 2)]
    return domain


def _date_columns(table: TableInfo) -> list[str]:
    """Columns holding a date (or a date and time): not a time of day, not bookkeeping."""
    return [c.name for c in table.columns if c.kind == "date" and ("DATE" in c.type.upper() or "TIMESTAMP"
                                                                   in c.type.upper())
            and not is_surrogate(table, c.name) and table.foreign_key_of(c.name) is None]


def _participle(column: str) -> str | None:
    """What a date column says happened, as a participle ("shipped", "hired", "born"), or None."""
    words = [w for w in low_words(column) if w not in ("date", "time", "datetime", "on", "at", "timestamp")]
    if len(words) == 1 and words[0] in _PARTICIPLES:
        return _PARTICIPLES[words[0]]
    if len(words) == 1 and words[0].endswith("ed") and len(words[0]) > 4:
        return words[0]
    return None


#: what a row does rather than undergoes: "volunteers joined", not "were joined"
_ACTIVE = frozenset({"joined", "started", "ended", "arrived", "departed", "died", "retired", "left", "enrolled"})


def _when(column: str) -> str:
    """How a date column reads after the rows' noun: "were shipped in {0}", "joined in {0}", "have a
    first intake in {0}"."""
    done = _participle(column)
    if done in _ACTIVE:
        return f"{done} in {{0}}"
    return f"were {done} in {{0}}" if done else f"have a {column_phrase(column)} in {{0}}"


def _date_best(column: str, most: str) -> tuple[str, str]:
    """(predicate, fragment) of the latest (``highest``) or earliest row: ("was hired most
    recently", "hired most recently"), ("has the earliest first intake", "earliest first intake")."""
    done = _participle(column)
    if done == "born":  # the latest birth is the youngest person
        age = "youngest" if most == "highest" else "oldest"
        return f"is the {age}", age
    if done:
        when = "most recently" if most == "highest" else "first"
        return (f"{done} {when}" if done in _ACTIVE else f"was {done} {when}"), f"{done} {when}"
    edge = "latest" if most == "highest" else "earliest"
    return f"has the {edge} {column_phrase(column)}", f"{edge} {column_phrase(column)}"


def _if_dates(table: TableInfo, column: str, domain: Callable[[Connection], list[tuple]]
              ) -> Callable[[Connection], list[tuple]]:
    """``domain``, where the column's dates order as dates (date values, or ISO text of one length:
    SQLite compares text, and '2016-07-04' < '2016-07-04 00:00:00'); else nothing to ask."""
    def checked(conn: Connection) -> list[tuple]:
        t = _tab(table, "d")
        seen = [r[0] for r in conn.execute(sa.select(t.c[column]).where(t.c[column].is_not(None)).distinct())]
        texts = [v for v in seen if isinstance(v, str)]
        if any(_as_date(v) is None for v in seen) or len({len(v) for v in texts}) > 1:
            return []
        return domain(conn)
    return checked


def _as_date(value: Any) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip()[:10])
        except ValueError:
            return None
    return None


def _periods(table: TableInfo, column: str, by_month: bool) -> Callable[[Connection], list[tuple]]:
    """The months ("2003-03") or years ("2004") the column's dates fall in. A column with a value
    that is not an ISO date gives none: a range compared as text would then be wrong."""
    def domain(conn: Connection) -> list[tuple]:
        t = _tab(table, "d")
        seen = [r[0] for r in conn.execute(sa.select(t.c[column]).where(t.c[column].is_not(None)).distinct())]
        found = [_as_date(v) for v in seen]
        days = [d for d in found if d is not None]
        if len(days) < len(found):
            return []
        return sorted({(f"{d.year:04d}-{d.month:02d}" if by_month else f"{d.year:04d}",) for d in days})
    return domain


def _bounds(period: str) -> tuple[date, date]:
    """[first day, first day after) of a month ("2003-03") or a year ("2004")."""
    if len(period) == 4:
        year = int(period)
        return date(year, 1, 1), date(year + 1, 1, 1)
    year, month = int(period[:4]), int(period[5:7])
    return date(year, month, 1), date(year + month // 12, month % 12 + 1, 1)


def _period_text(values: tuple) -> tuple[str, ...]:
    period = values[0]
    if len(period) == 4:
        return (period,)
    return (f"{calendar.month_name[int(period[5:7])]} {period[:4]}",)


def _in_range(alias: sa.sql.Alias, column: str, values: tuple, display: bool) -> list[sa.ColumnElement]:
    low, high = _bounds(values[0])
    # bound as dates (SQLite's driver writes them as ISO text, which orders like the dates it
    # holds); shown as ISO text, which every engine reads as a date
    kind = sa.String() if display else sa.Date()
    shown = (low.isoformat(), high.isoformat()) if display else (low, high)
    return [alias.c[column] >= sa.bindparam("p0", shown[0], type_=kind),
            alias.c[column] < sa.bindparam("p1", shown[1], type_=kind)]


def _time_ranges(table: TableInfo) -> list[KindTemplate]:
    keys = _nameable(table)
    if not keys:
        return []
    items = plural_phrase(readable_entity(table.name))
    out = []
    for column in _date_columns(table):
        when = _when(column)

        def listed(values: tuple, display: bool = False, column: str = column) -> sa.Select:
            t = _tab(table, "t")
            return sa.select(*_keys_of(t, table), *(t.c[k] for k in keys)).where(*_in_range(t, column, values, display))

        def counted(values: tuple, display: bool = False, column: str = column) -> sa.Select:
            t = _tab(table, "t")
            return sa.select(sa.func.count()).select_from(t).where(*_in_range(t, column, values, display))

        def support(values: tuple, column: str = column) -> sa.Select:
            t = _tab(table, "t")
            return sa.select(*_keys_of(t, table)).where(*_in_range(t, column, values, False))

        placeholders = (f"{table.name}.{column}",)
        out.append(KindTemplate(
            "time_range", table.name, f"time_range|list|{table.name}|{column}", placeholders,
            kt.time_list_pieces(items, when), tuple(keys), listed,
            (_Rows(table, _fact_columns(table, [*keys, column])),), False, None, (),
            _periods(table, column, by_month=True), _period_text))
        out.append(KindTemplate(
            "time_range", table.name, f"time_range|count|{table.name}|{column}", placeholders,
            kt.time_count_pieces(items, when), ("count",), counted, (), True, support,
            (_Rows(table, _fact_columns(table, [column])),), _periods(table, column, by_month=False),
            _period_text))
    return out


# ----------------------------------------------------------------------------- answering


@dataclass(slots=True)
class KindGroup:
    """One semantic group of a kind template: its values and what the database answered."""

    values: tuple
    rows: list[list[Any]]
    entities: list[str]
    facts: list[str]
    #: how many rows the answer came from (a list's items, counted with repeats)
    multiplicity: int
    sql: str


def _number(value: Any) -> int | float | None:
    """A count or a total as one number on every engine: SQLite's float sum and PostgreSQL's
    exact decimal agree to four places (the data's own precision is never finer in practice)."""
    if value is None:
        return None
    if isinstance(value, int):
        return value
    number = round(float(value), 4) if isinstance(value, float | Decimal) else float(value)
    return int(number) if number.is_integer() else number


def _keyed(layout: Sequence[_Rows], key_rows: Sequence[tuple]) -> tuple[set[str], set[str]]:
    """Entities (``Table:key``) and facts (``Table.Column@key``) of rows whose keys lead each row."""
    entities: set[str] = set()
    facts: set[str] = set()
    for keys in key_rows:
        start = 0
        for rows in layout:
            width = len(entity_key(rows.table))
            part = keys[start:start + width]
            start += width
            if None in part:
                continue
            key = key_text(part[0]) if width == 1 else "|".join(map(key_text, part))
            entities.add(f"{rows.table.name}:{key}")
            facts.update(f"{rows.table.name}.{c}@{key}" for c in rows.facts)
    return entities, facts


def _display(stmt: sa.Select, engine: Engine) -> str:
    """The statement with its values written in, for people to read (never executed)."""
    try:
        return str(stmt.compile(dialect=engine.dialect, compile_kwargs={"literal_binds": True}))
    except sa.exc.CompileError:  # a value the dialect cannot write as a literal: shown bound
        return str(stmt.compile(dialect=engine.dialect))


def answer_group(conn: Connection, engine: Engine, t: KindTemplate, values: tuple) -> KindGroup | str:
    """The group of ``values``, or why it is not asked (``empty``, ``long``, ``tie``, ``few``)."""
    # at most one row past a list's longest: a longer answer is not asked, and a carrier's 50,000
    # flights need not be fetched to learn that (a shorter one comes back whole)
    query = t.answer(values, False) if t.number else t.answer(values, False).limit(LIST_MAX + 1)
    raw = [tuple(r) for r in conn.execute(query)]
    width = sum(len(entity_key(r.table)) for r in t.answer_rows)
    entities: set[str] = set()
    facts: set[str] = set()
    if t.number:
        value = _number(raw[0][0]) if raw else None
        if value is None:
            return "empty"
        rows, multiplicity = [[value]], 1
    else:
        if not raw:
            return "empty"
        answers = [list(r[width:]) for r in raw]
        rows = sorted(map(list, dict.fromkeys(map(tuple, answers))), key=row_sort_key)
        multiplicity = len(raw)
        if t.one_row and len(rows) != 1:
            return "tie"
        if len(raw) > LIST_MAX:
            return "long"
        entities, facts = _keyed(t.answer_rows, [r[:width] for r in raw])
    if t.support is not None:
        support = [tuple(r) for r in conn.execute(t.support(values))]
        if len(support) < t.least_support:
            return "few"
        more_entities, more_facts = _keyed(t.support_rows, support)
        entities |= more_entities
        facts |= more_facts
        if t.number:
            multiplicity = len(support)
    shown = _display(t.answer(values, True), engine)
    return KindGroup(values, rows, sorted(entities), sorted(facts), multiplicity, shown)


def _draws(conn: Connection, t: KindTemplate, seed: int) -> tuple[list[tuple], int]:
    """The template's values in a seeded order that depends on its meaning, not its spelling."""
    values = t.domain(conn)
    random.Random(f"{seed}:{t.sample_key}").shuffle(values)
    return values, len(values)


def answer_kinds(engine: Engine, templates: Sequence[KindTemplate], cap: int | None, seed: int
                 ) -> tuple[list[tuple[KindTemplate, KindGroup]], dict[str, AnswerCounts]]:
    """Groups of every template, at most ``cap`` per template and :data:`TEMPLATES_PER_KIND` times
    that per kind, taken in turn from the kind's templates (the balance the module describes)."""
    by_kind: dict[str, list[KindTemplate]] = {}
    for t in templates:
        by_kind.setdefault(t.kind, []).append(t)
    out: list[tuple[KindTemplate, KindGroup]] = []
    counts: dict[str, AnswerCounts] = {}
    with engine.connect() as conn:
        for kind_templates_ in by_kind.values():
            pending: list[list[Any]] = []
            for t in kind_templates_:
                draws, available = _draws(conn, t, seed)
                counts[t.id] = AnswerCounts(method="per-combination")
                counts[t.id].left_out_by_cap = available
                pending.append([t, iter(draws), 0, 0])
            budget = cap * TEMPLATES_PER_KIND if cap else None
            taken = 0
            while pending and (budget is None or taken < budget):
                for entry in list(pending):
                    group = _next_group(conn, engine, entry, counts, cap)
                    if group is None or (cap and entry[2] >= cap):
                        pending.remove(entry)
                    if group is not None:
                        out.append((entry[0], group))
                        taken += 1
                        if budget is not None and taken >= budget:
                            break
    return out, counts


def _next_group(conn: Connection, engine: Engine, entry: list, counts: Mapping[str, AnswerCounts],
                cap: int | None) -> KindGroup | None:
    """The template's next group that is asked (None: its values are used up)."""
    t, draws = entry[0], entry[1]
    c = counts[t.id]
    for values in draws:
        if cap and entry[3] >= TRIES_PER_GROUP * cap:
            return None  # the rest stay left out: values that keep giving nothing cost a query each
        entry[3] += 1
        c.combinations += 1
        c.left_out_by_cap -= 1
        group = answer_group(conn, engine, t, values)
        if isinstance(group, str):
            if group in ("long", "tie"):
                c.multi_dropped += 1
            else:
                c.unanswerable_dropped += 1
            continue
        if len(group.rows) > 1:
            c.multi_kept += 1
        else:
            c.single += 1
        entry[2] += 1
        return group
    return None


# ----------------------------------------------------------------------------- records


def records_of(t: KindTemplate, group: KindGroup, styles: Sequence[str] | None,
               kb_facts: Mapping[str, list[str]] | None = None) -> list[QARecord]:
    """The group's record in each style (every built-in style when ``styles`` is None)."""
    params = dict(zip(t.placeholders, (json_value(v) for v in group.values), strict=True))
    gid = group_id(t.id, group.values)
    slots = t.slots(group.values)
    rows = [[json_value(v) for v in row] for row in group.rows]
    evidence: list[list[str]] = []
    gold: list[str] = []
    entity_docs: list[str] = []
    supported: bool | None = None
    basis = ""
    if kb_facts is not None:
        evidence = [sorted(kb_facts.get(f, [])) for f in group.facts]
        gold = sorted({d for ds in evidence for d in ds})
        known = document_ids(kb_facts)
        entity_docs = [e for e in group.entities if e in known]
        basis = "fact_index"
        if not all(evidence):
            supported = False  # a fact the answer needs is stated nowhere: a certain gap
        elif t.kind not in COMPLETENESS_KINDS:
            supported = bool(group.facts)
        # else None: every row's fact is stated, but not that no other row belongs to the set
    out = []
    for style, text in t.texts().items():
        if styles is not None and style not in styles:
            continue
        tid = "t" + hashlib.sha256(f"{t.id}\x1f{style}\x1f{text}".encode()).hexdigest()[:10]
        out.append(QARecord(
            id=f"{gid}-{tid}", group_id=gid, sql_template_id=t.id, text_template_id=tid, style=style,
            schema=t.table, table=t.table, params=params, sql=group.sql, query=text.format(*slots),
            answer_columns=list(t.answer_columns), answer_rows=rows, answer_text=_answer_text(t, group.rows),
            answer_kind="multi" if len(rows) > 1 else "single", entities=group.entities, facts=group.facts,
            gold_document_ids=gold, kb_supported=supported, evidence_sets=evidence,
            entity_document_ids=entity_docs, kb_basis=basis, question_kind=t.kind))
    return out


def _answer_text(t: KindTemplate, rows: Sequence[Sequence[Any]]) -> str:
    """Rows of one table named by several columns read as the questions name them ("flight 419
    on 2013-4-28; flight 837 on 2013-8-22"), never "2013, 4, 28, 419"; other rows as usual."""
    columns = list(t.answer_columns)
    pattern = composite_name(t.answer_rows[0].table.name, columns) \
        if len(t.answer_rows) == 1 and len(columns) >= 2 and not t.number else None
    if pattern is None:
        return answer_text(rows, columns)
    return "; ".join(fill_name(pattern, {c: value_text(v) for c, v in zip(columns, row, strict=True)})
                     for row in rows)


def kind_records(engine: Engine, schema: Schema, kinds: Sequence[str], styles: Sequence[str] | None,
                 cap: int | None, seed: int, kb_facts: Mapping[str, list[str]] | None = None
                 ) -> tuple[list[QARecord], dict[str, AnswerCounts]]:
    """Records of every kind in ``kinds`` but ``lookup`` (GRAMMAR's, made from the template files)."""
    templates = kind_templates(schema, [k for k in kinds if k != "lookup"])
    groups, counts = answer_kinds(engine, templates, cap, seed)
    records = [r for t, g in groups for r in records_of(t, g, styles, kb_facts)]
    return records, counts
