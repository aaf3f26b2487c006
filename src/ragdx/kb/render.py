"""A knowledge base rendered from database rows (the profiles of GRAMMAR App. H.2, Table 8).

One document per entity, in plain deterministic prose, plus an index of which documents state
which fact (``Table.Column@key``). Facts can be left out on purpose (``omit`` a column,
``omit_tables`` a whole table) so that a generated dataset has knowledge-base gaps whose
location is known: the ground truth for GRAMMAR's gap groups.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from ragdx.db.schema import ForeignKey, Schema, TableInfo
from ragdx.errors import RagdxError
from ragdx.gen.dataset import value_text
from ragdx.gen.naming import (
    column_phrase,
    composite_name,
    fill_name,
    plural_phrase,
    readable_entity,
    readable_name,
    relation_noun,
)
from ragdx.gen.qa import key_text
from ragdx.gen.sql_templates import (
    entity_key,
    is_association,
    is_binary,
    is_number_key,
    is_surrogate,
    lookup_keys,
)
from ragdx.gen.values import value_sort_key

#: a parent lists at most this many children of one kind; the rest are counted (a customer's
#: 30th order is stated in the order's own document), so no document grows without bound
MAX_LISTED = 20


@dataclass(slots=True)
class Document:
    id: str
    title: str
    text: str
    table: str
    key: str


@dataclass(slots=True)
class KnowledgeBase:
    documents: list[Document]
    #: ``Table.Column@key`` → ids of the documents that state it
    facts: dict[str, list[str]]
    omitted: list[str]

    def write(self, directory: str | Path, *, overwrite: bool = False) -> Path:
        from ragdx.store import staged_directory, write_json, write_jsonl

        with staged_directory(directory, overwrite=overwrite) as stage:
            write_jsonl(stage / "documents.jsonl", (asdict(d) for d in self.documents))
            write_json(stage / "facts.json", self.facts)
            write_json(stage / "manifest.json", {"documents": len(self.documents),
                                                 "facts": len(self.facts), "omitted": self.omitted})
        return Path(directory)


def read_facts(directory: str | Path) -> dict[str, list[str]]:
    import json

    path = Path(directory) / "facts.json"
    try:
        facts = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RagdxError(f"not a knowledge base rendered by ragdx ({exc})", source=str(path)) from None
    if not isinstance(facts, dict):
        raise RagdxError("expected an object of fact → document ids", source=str(path))
    return facts


def read_documents(directory: str | Path) -> list[Document]:
    from ragdx.store import iter_jsonl

    path = Path(directory) / "documents.jsonl"
    out = []
    for number, obj in iter_jsonl(path):
        try:
            out.append(Document(**obj))
        except TypeError as exc:  # a field missing or unknown: one line, not a traceback
            raise RagdxError(f"not a document ({exc})", source=str(path), field=f"line {number}") from None
    return out


def _shown(value: Any) -> str:
    # documents state a date-time at midnight as the date, like the answers do
    from datetime import datetime, time

    if isinstance(value, datetime) and value.time() == time(0):
        value = value.date()
    return value_text(value)


def render_kb(engine: Engine, schema: Schema, *, omit: Iterable[str] = (),
              omit_tables: Iterable[str] = ()) -> KnowledgeBase:
    """Render every entity of every table (association rows go into the documents of the
    entities they link). ``omit`` takes ``Table.Column``; ``omit_tables`` table names."""
    omitted_cols = _omitted_columns(schema, omit)
    dropped = _dropped_tables(schema, omit_tables)
    rows: dict[str, list[dict[str, Any]]] = {}
    with engine.connect() as conn:
        for table in schema.tables.values():
            t = sa.table(table.name, *(sa.column(c.name) for c in table.columns))
            rows[table.name] = [dict(r._mapping) for r in conn.execute(sa.select(t))]
    kb = _Renderer(schema, rows, omitted_cols, dropped)
    for table in schema.tables.values():
        if not is_association(table) and table.name not in dropped:
            kb.entity_documents(table)
    # the other side of each relation: a parent lists its children, an entity its associations
    for child in schema.tables.values():
        if child.name in dropped:
            continue
        for fk in child.foreign_keys:
            kb.relation(child, fk)
    documents = []
    for doc_id, doc in kb.docs.items():
        doc.text = f"{doc.title}\n\n" + " ".join(kb.lines[doc_id])
        documents.append(doc)
    omitted = sorted(f"{t}.{c}" for t, c in omitted_cols) + sorted(dropped)
    return KnowledgeBase(documents, {k: sorted(v) for k, v in sorted(kb.facts.items())}, omitted)


def _omitted_columns(schema: Schema, omit: Iterable[str]) -> set[tuple[str, str]]:
    """``--omit Table.Column`` items as (table, column) in the database's spelling."""
    omitted_cols: set[tuple[str, str]] = set()
    for item in omit:
        table, _, column = item.partition(".")
        if not column:
            raise RagdxError("expected Table.Column", field=f"--omit {item}")
        try:
            omitted_cols.add(schema.resolve(table, column))
        except RagdxError as exc:
            raise RagdxError(exc.message, field=f"--omit {item}") from None
    return omitted_cols


def _dropped_tables(schema: Schema, omit_tables: Iterable[str]) -> set[str]:
    """``--omit-table`` names in the database's spelling."""
    dropped: set[str] = set()
    for name in omit_tables:
        if not schema.has_table(name):
            raise RagdxError(f"unknown table '{name}'", field=f"--omit-table {name}")
        dropped.add(schema.table(name).name)
    return dropped


class _Renderer:
    """The knowledge base as it is written: each document's sentences, and the documents that
    state each fact (``Table.Column@key``)."""

    def __init__(self, schema: Schema, rows: dict[str, list[dict[str, Any]]],
                 omitted_cols: set[tuple[str, str]], dropped: set[str]) -> None:
        self.schema, self.rows, self.omitted_cols, self.dropped = schema, rows, omitted_cols, dropped
        # rows of every table by each column value, to name the entity a foreign key points at
        self.index: dict[tuple[str, str], dict[Any, dict]] = {}
        self.docs: dict[str, Document] = {}
        self.lines: dict[str, list[str]] = defaultdict(list)
        self.facts: dict[str, list[str]] = defaultdict(list)
        # per table, how its rows are named (look-up key, composite pattern): worked out once, not per row
        self.naming: dict[str, tuple[list[str], str | None]] = {}

    @staticmethod
    def key_of(table: TableInfo, row: dict) -> str:
        return "|".join(key_text(row[c]) for c in entity_key(table))

    def label_of(self, table: TableInfo, row: dict) -> str:
        if table.name not in self.naming:
            found = lookup_keys(table)
            self.naming[table.name] = (found, composite_name(table.name, found) if len(found) >= 2 else None)
        keys, pattern = self.naming[table.name]
        if not keys:
            return self.key_of(table, row)
        if is_number_key(table, keys):
            return f"{readable_entity(table.name)} {_shown(row[keys[0]])}"
        if pattern is not None:  # "UA flight 1545 on 1/1/2013", as the questions name it
            return fill_name(pattern, {k: _shown(row[k]) for k in keys})
        return " ".join(_shown(row[k]) for k in keys)

    def referenced(self, table_name: str, column: str, value: Any) -> dict | None:
        table = self.schema.table(table_name)
        key = (table.name, column)
        if key not in self.index:
            self.index[key] = {_norm(r[column]): r for r in self.rows[table.name]}
        return self.index[key].get(_norm(value))

    def state(self, doc_id: str, fact: str, sentence: str) -> None:
        self.lines[doc_id].append(sentence)
        self.stated_in(doc_id, fact)

    def stated_in(self, doc_id: str, fact: str) -> None:
        if doc_id not in self.facts[fact]:
            self.facts[fact].append(doc_id)

    def entity_documents(self, table: TableInfo) -> None:
        """One document per row of an entity table, stating each of its columns."""
        noun = readable_entity(table.name)
        for row in sorted(self.rows[table.name], key=lambda r: value_sort_key(self.label_of(table, r))):
            key, label = self.key_of(table, row), self.label_of(table, row)
            doc_id = f"{table.name}:{key}"
            self.docs[doc_id] = Document(doc_id, label, "", table.name, key)
            article = "an" if noun[:1].lower() in "aeiou" else "a"
            self.lines[doc_id].append(f"{label} is {article} {noun} in our records.")
            name_cols = lookup_keys(table)
            for name_col in name_cols:
                # the entity's name is the document's title: the document states it
                self.facts[f"{table.name}.{name_col}@{key}"].append(doc_id)
            for col in table.columns:
                if is_surrogate(table, col.name) and table.foreign_key_of(col.name) is None:
                    continue
                if is_binary(table, col.name):
                    continue  # an image or a file is not a fact a text can state
                if (table.name, col.name) in self.omitted_cols or col.name in name_cols:
                    continue
                self.column_sentence(table, row, col.name, doc_id, key, label)

    def column_sentence(self, table: TableInfo, row: dict, column: str, doc_id: str, key: str, label: str) -> None:
        """State the value of ``column`` in the entity's own document (a foreign key by the
        label of the row it points at)."""
        fk_of = table.foreign_key_of(column)
        what = relation_noun(column, fk_of.ref_table, fk_of.ref_columns[0]) if fk_of else column_phrase(column)
        fact = f"{table.name}.{column}@{key}"
        value = row[column]
        if value is None:
            self.state(doc_id, fact, f"{label} has no recorded {what}.")
            return
        fk = table.foreign_key_of(column)
        if fk is not None and self.schema.has_table(fk.ref_table):
            target = self.referenced(fk.ref_table, fk.ref_columns[0], value)
            if fk.ref_table in self.dropped or target is None:
                shown = _shown(value) if not is_surrogate(table, column) else None
            else:
                shown = self.label_of(self.schema.table(fk.ref_table), target)
            if shown is not None:
                self.state(doc_id, fact, f"The {what} of {label} is {shown}.")
            return
        self.state(doc_id, fact, f"The {what} of {label} is {_shown(value)}.")

    def relation(self, child: TableInfo, fk: ForeignKey) -> None:
        """The parent's side of the foreign key ``fk`` of ``child``: it lists its children (the
        first MAX_LISTED), or, for an association table, the entities it is linked to."""
        schema, dropped = self.schema, self.dropped
        assoc = is_association(child)
        if len(fk.columns) != 1 or (child.name, fk.columns[0]) in self.omitted_cols:
            return
        parent = schema.table(fk.ref_table) if schema.has_table(fk.ref_table) else None
        if parent is None or parent.name in dropped:
            return
        listed: dict[str, int] = defaultdict(int)
        for row in self.rows[child.name]:
            target = self.referenced(parent.name, fk.ref_columns[0], row[fk.columns[0]])
            if target is None:
                continue
            parent_doc = f"{parent.name}:{self.key_of(parent, target)}"
            if parent_doc not in self.docs:
                continue
            key = self.key_of(child, row)
            listed[parent_doc] += 1
            if not assoc:
                if listed[parent_doc] > MAX_LISTED:
                    continue  # stated in the child's own document; counted below
                child_label = self.label_of(child, row)
                noun = readable_entity(child.name)
                if f" {noun} " in f" {child_label} " and not child_label.startswith(noun):
                    child_label = f"the {child_label}"  # "the UA flight 1545 on 1/1/2013"
                elif not child_label.startswith(noun):
                    child_label = f"the {noun} {child_label}"
                relation = relation_noun(fk.columns[0], parent.name, fk.ref_columns[0])
                self.state(parent_doc, f"{child.name}.{fk.columns[0]}@{key}",
                           f"{self.label_of(parent, target)} is the {relation} of {child_label}.")
                continue
            if listed[parent_doc] > 2 * MAX_LISTED:
                continue  # stated (and indexed) in the document of the other end
            self.links(child, fk, row, key, parent, target, parent_doc)
        for parent_doc, n in listed.items():
            if not assoc and n > MAX_LISTED:
                self.lines[parent_doc].append(
                    f"{n - MAX_LISTED} more {plural_phrase(readable_entity(child.name))} name "
                    f"{self.docs[parent_doc].title} as their "
                    f"{relation_noun(fk.columns[0], parent.name, fk.ref_columns[0])}.")

    def links(self, child: TableInfo, fk: ForeignKey, row: dict, key: str, parent: TableInfo, target: dict,
              parent_doc: str) -> None:
        """State in ``parent_doc`` the entities association row ``row`` links it to, with the
        row's own values."""
        # the link itself is a fact: "employee X is linked to territory Y" rests on it,
        # and an association table left out of the knowledge base is a gap
        self.stated_in(parent_doc, f"{child.name}.{fk.columns[0]}@{key}")
        others = [o for o in child.foreign_keys if o is not fk and len(o.columns) == 1]
        for other in others:
            far_table = self.schema.table(other.ref_table)
            far = self.referenced(far_table.name, other.ref_columns[0], row[other.columns[0]])
            if far is None or far_table.name in self.dropped:
                continue
            details = []
            for col in child.columns:
                if col.name in (fk.columns[0], other.columns[0]) or is_surrogate(child, col.name) \
                        or is_binary(child, col.name) or (child.name, col.name) in self.omitted_cols:
                    continue
                details.append(f"{column_phrase(col.name)} {_shown(row[col.name])}")
                self.stated_in(parent_doc, f"{child.name}.{col.name}@{key}")
            extra = f" ({'; '.join(details)})" if details else ""
            self.stated_in(parent_doc, f"{child.name}.{other.columns[0]}@{key}")
            far_label = self.label_of(far_table, far)
            far_noun = readable_entity(far_table.name)
            far_text = far_label if far_label.startswith(far_noun) else f"the {far_noun} {far_label}"
            self.lines[parent_doc].append(
                f"{self.label_of(parent, target)} is linked to {far_text} "
                f"through {readable_name(child.name)}{extra}.")


def _norm(value: Any) -> Any:
    # foreign keys may compare an INTEGER column with a REAL one (Spider): 11 and 11.0
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def omitted_in(kb_dir: str | Path | None) -> tuple[str, ...]:
    """What a knowledge base ragdx rendered leaves out on purpose (its manifest's ``omitted``:
    ``Table.Column`` and ``Table`` names), read here, by the owner of that manifest."""
    if kb_dir is None:
        return ()
    path = Path(kb_dir) / "manifest.json"
    if not path.exists():
        return ()
    try:
        omitted = json.loads(path.read_text(encoding="utf-8")).get("omitted", [])
    except (OSError, ValueError, AttributeError) as exc:
        raise RagdxError(f"not a knowledge base manifest ({exc})", source=str(path)) from None
    if not isinstance(omitted, list) or not all(isinstance(o, str) for o in omitted):
        raise RagdxError("expected a list of omitted Table.Column / Table names", source=str(path), field="omitted")
    return tuple(omitted)
