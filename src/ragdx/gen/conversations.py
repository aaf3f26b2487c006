"""Conversations from the database: multi-turn scripts that walk the schema's relations.

A walk starts at a named row (``programme 'Data Science'``), asks one of its attributes, follows
many-to-one foreign keys (its coordinator, then the coordinator's faculty) and ends on an
attribute of the last row reached. Turn 1 names the entity; every later turn refers back with a
pronoun or an ellipsis ("And who is their coordinator?", "And the building?"), and carries its
``standalone_query``, the same question written out in full, which is what history handling
should arrive at. Every turn is answered by executing the SQL of the walk so far, the start
row's key bound as a parameter (never pasted into the SQL that runs).

The phrasings of one walk over the same values share each turn's semantic group (GRAMMAR §4.3):
styles and variants change the words, never the answer. Nouns come from :mod:`ragdx.gen.naming`,
so a relation has the name the knowledge base gives it.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from ragdx.db.dialect import dialect_named
from ragdx.db.schema import Schema, TableInfo, name_pair
from ragdx.gen.dataset import QARecord, answer_text, document_ids, group_id, json_value, value_text
from ragdx.gen.naming import ROLE_NOUNS, column_phrase, names_a_place, readable_entity, relation_noun
from ragdx.gen.qa import key_text
from ragdx.gen.sql_templates import (
    entity_key,
    is_association,
    is_binary,
    is_number_key,
    is_surrogate,
    lookup_keys,
    template_id,
)

__all__ = ["Hop", "Walk", "CONVERSATION_STYLES", "walks", "conversation_records"]

#: the nouns of a row that is a person (read "they", asked "who"): besides a first and last name
#: column and a role noun (coordinator, manager)
_PERSON_NOUNS = frozenset({"employee", "staff member", "person", "student", "teacher", "lecturer", "professor",
                           "member", "author", "user", "patient", "doctor", "worker", "contact"})
#: at most this many foreign keys followed from the start row (turns = hops + 2 at most: 4)
MAX_HOPS = 2


@dataclass(frozen=True, slots=True)
class Hop:
    """One many-to-one step: ``table.column`` refers to ``ref_table.ref_column``."""

    table: str
    column: str
    ref_table: str
    ref_column: str
    #: what the row reached is to the row left ("coordinator", "manager")
    noun: str


@dataclass(frozen=True, slots=True)
class Walk:
    start: str
    #: the columns a person names the start row by (its lookup key)
    key: tuple[str, ...]
    #: the start row's attribute asked in turn 1
    opening: str
    hops: tuple[Hop, ...]
    #: the last row's attribute asked in the last turn (None: the walk ends on a name)
    closing: str | None

    @property
    def id(self) -> str:
        hops = [[h.table, h.column, h.ref_table, h.ref_column] for h in self.hops]
        blob = json.dumps([self.start, self.key, self.opening, hops, self.closing])
        return "w" + hashlib.sha256(blob.encode()).hexdigest()[:10]

    @property
    def turns(self) -> int:
        return 1 + len(self.hops) + (self.closing is not None)


# ------------------------------------------------------------------------------------ the walks


def _attributes(table: TableInfo, exclude: Sequence[str]) -> list[str]:
    """Columns worth asking: not a key, id, binary or foreign key; the most varied first (an
    attribute every row shares says little about which row the system found)."""
    keep = [c for c in table.columns
            if c.name not in exclude and c.name not in table.primary_key and not is_surrogate(table, c.name)
            and not is_binary(table, c.name) and table.foreign_key_of(c.name) is None]
    return [c.name for c in sorted(keep, key=lambda c: -(c.distinct or 0))]


def _nameable(table: TableInfo) -> list[str]:
    return [] if is_association(table) or not table.rows else lookup_keys(table)


def _paths(schema: Schema, table: TableInfo, depth: int) -> list[tuple[Hop, ...]]:
    """Every chain of one-column many-to-one foreign keys from ``table``, up to ``depth`` long,
    each row reached nameable (it is answered by its name)."""
    out: list[tuple[Hop, ...]] = []
    for fk in table.foreign_keys:
        if len(fk.columns) != 1 or not schema.has_table(fk.ref_table):
            continue
        ref = schema.table(fk.ref_table)
        if not _nameable(ref):
            continue
        noun = relation_noun(fk.columns[0], ref.name, fk.ref_columns[0])
        hop = Hop(table.name, fk.columns[0], ref.name, fk.ref_columns[0], noun)
        out.append((hop,))
        if depth > 1:
            out += [(hop, *rest) for rest in _paths(schema, ref, depth - 1)]
    return out


def walks(schema: Schema) -> list[Walk]:
    """Every walk of the schema: each nameable table with an attribute, along each foreign-key
    chain of 1 to :data:`MAX_HOPS` hops, ending on the last row's most varied attribute."""
    out = []
    for name in sorted(schema.tables):
        table = schema.table(name)
        key = _nameable(table)
        opening = _attributes(table, key)
        if not key or not opening:
            continue
        for hops in _paths(schema, table, MAX_HOPS):
            last = schema.table(hops[-1].ref_table)
            closing = _attributes(last, _nameable(last))
            out.append(Walk(table.name, tuple(key), opening[0], hops, closing[0] if closing else None))
    return out


# -------------------------------------------------------------------------------------- the SQL


@dataclass(frozen=True, slots=True)
class _TurnSql:
    sql: str
    #: (table, answer columns) the turn asks; the keys of every row of the walk so far follow them
    table: str
    columns: tuple[str, ...]
    #: (alias, table) of every row the walk has reached, in order
    rows: tuple[tuple[str, str], ...]


def turn_sql(schema: Schema, walk: Walk, turn: int) -> _TurnSql:
    """The SQL of the walk up to ``turn`` (1-based): the answer columns, then every reached row's
    primary key (for its entities and facts); the start key as bound parameters ``:k0``, ``:k1``."""
    d = dialect_named(schema.dialect)
    q = d.quote_identifier
    hops = walk.hops[: max(0, min(turn - 1, len(walk.hops)))]
    rows = [("t0", walk.start)] + [(f"t{i + 1}", h.ref_table) for i, h in enumerate(hops)]
    columns: tuple[str, ...]
    if turn == 1:
        table, columns = walk.start, (walk.opening,)
    elif turn - 1 <= len(walk.hops):
        table = hops[-1].ref_table
        columns = tuple(lookup_keys(schema.table(table)))
    else:
        table, columns = walk.hops[-1].ref_table, (walk.closing or "",)
    alias = rows[-1][0]
    select = [f"{alias}.{q(c)}" for c in columns]
    for a, t in rows:
        select += [f"{a}.{q(c)}" for c in entity_key(schema.table(t))]
    joins = "".join(f" JOIN {q(h.ref_table)} t{i + 1} ON t{i}.{q(h.column)} = t{i + 1}.{q(h.ref_column)}"
                    for i, h in enumerate(hops))
    where = " AND ".join(f"t0.{q(c)} = :k{i}" for i, c in enumerate(walk.key))
    sql = f"SELECT {', '.join(select)} FROM {q(walk.start)} t0{joins} WHERE {where}"
    return _TurnSql(sql, table, columns, tuple(rows))


@dataclass(slots=True)
class _Answer:
    rows: list[list[Any]]
    entities: list[str]
    facts: list[str]
    #: every fact of the walk up to this turn (the earlier turns' established in the conversation)
    walked: list[str] = field(default_factory=list)
    #: for a turn that leads to a row: that row as a question names it ("faculty 'Faculty of
    #: Humanities'"), None when its name is not one row's (then a question walks there instead)
    named: str | None = None


def _answer(conn: sa.Connection, schema: Schema, walk: Walk, turn: int, values: Sequence[Any]) -> _Answer | None:
    """The turn answered by its SQL; None unless it is exactly one row with no NULL (a turn
    asking about a row the database does not fill in is no question to follow up)."""
    ts = turn_sql(schema, walk, turn)
    got = conn.execute(sa.text(ts.sql), {f"k{i}": v for i, v in enumerate(values)}).all()
    if len(got) != 1:
        return None
    row = list(got[0])
    answer, keys = row[: len(ts.columns)], row[len(ts.columns):]
    if any(v is None for v in answer):
        return None
    key_of: dict[str, str] = {}
    entities = []
    for alias, table in ts.rows:
        width = len(entity_key(schema.table(table)))
        part, keys = keys[:width], keys[width:]
        key_of[alias] = "|".join(map(key_text, part))
        entities.append(f"{schema.table(table).name}:{key_of[alias]}")
    return _Answer([[json_value(v) for v in answer]], sorted(set(entities)),
                   sorted(set(_facts(schema, walk, turn, ts, key_of))))


def _facts(schema: Schema, walk: Walk, turn: int, ts: _TurnSql, key_of: Mapping[str, str]) -> list[str]:
    """``Table.Column@key`` of every value the answer rests on: the start row's naming columns,
    each foreign key followed (the hop itself is a fact a document must state) and the columns
    asked; a primary-key column is the row itself, never a fact (as for the templates)."""
    facts = []

    def add(alias: str, table: str, column: str) -> None:
        info = schema.table(table)
        if column not in info.primary_key:
            facts.append(f"{info.name}.{column}@{key_of[alias]}")

    for c in walk.key:
        add("t0", walk.start, c)
    for i, h in enumerate(walk.hops[: len(ts.rows) - 1]):
        add(f"t{i}", h.table, h.column)
    for c in ts.columns:
        add(ts.rows[-1][0], ts.table, c)
    return facts


def _start_values(conn: sa.Connection, schema: Schema, walk: Walk) -> list[tuple[Any, ...]]:
    """Every start row's key, in a stable order, once each (a key two rows share names neither)."""
    d = dialect_named(schema.dialect)
    q = d.quote_identifier
    cols = ", ".join(q(c) for c in walk.key)
    sql = (f"SELECT {cols} FROM {q(walk.start)} WHERE " + " AND ".join(f"{q(c)} IS NOT NULL" for c in walk.key)
           + f" GROUP BY {cols} HAVING COUNT(*) = 1 ORDER BY {cols}")
    return [tuple(r) for r in conn.execute(sa.text(sql)).all()]


# ------------------------------------------------------------------------------------ the words

#: per style, the phrasings of a conversation: ``open`` names the entity, ``hop`` follows a
#: relation and ``close`` asks the last row's attribute, both by pronoun ({pos}: its / their) or
#: by ellipsis (no reference at all: "And the building?"); ``close_place``, where a phrasing has
#: one, asks an attribute that is a place by "where" alone ("Where are they based?")
CONVERSATION_STYLES: dict[str, tuple[dict[str, str], ...]] = {
    "interrogative": (
        {"open": "What is the {attr} of {e}?", "hop": "And {wh} is {pos} {rel}?", "close": "What is {pos} {attr}?",
         "close_place": "Where {where}?"},
        {"open": "Can you tell me the {attr} of {e}?", "hop": "{Wh} is {pos} {rel}, then?",
         "close": "And the {attr}?"},
    ),
    "short": (
        {"open": "{attr} of {e}", "hop": "{Pos} {rel}?", "close": "{Pos} {attr}?"},
        {"open": "{e}: {attr}?", "hop": "and the {rel}?", "close": "{attr}?"},
    ),
    "casual": (
        {"open": "hey, what's the {attr} of {e}?", "hop": "ok and {wh}'s {pos} {rel}?",
         "close": "cool, what's {pos} {attr}?", "close_place": "cool, and where {where}?"},
        {"open": "quick one, {e} - {attr}?", "hop": "and {pos} {rel}?", "close": "and the {attr}?"},
    ),
    "directive": (
        {"open": "Give me the {attr} of {e}.", "hop": "Now give me {pos} {rel}.", "close": "Then {pos} {attr}."},
        {"open": "Look up the {attr} of {e}.", "hop": "Also look up {pos} {rel}.", "close": "And the {attr}, please."},
    ),
    "formal": (
        {"open": "Please state the {attr} of {e}.", "hop": "Please also state {pos} {rel}.",
         "close": "Kindly provide {pos} {attr} as well."},
        {"open": "I would like to know the {attr} of {e}.", "hop": "Could you also indicate {pos} {rel}?",
         "close": "And, finally, the {attr}?"},
    ),
    "long": (
        {"open": "I am putting together a short briefing and need one detail first: what is the {attr} of {e}, "
                 "as it is recorded in your records at the moment?",
         "hop": "Thank you, that helps. Following on from that, could you also tell me {wh} {pos} {rel} is, "
                "since the briefing has to mention it as well?",
         "close": "Thanks again. For the last part of the briefing I also need to know what {pos} {attr} is, "
                  "so could you look that up too?"},
        {"open": "A colleague asked me about {e} and I could not answer, so could you tell me what its "
                 "{attr} is according to the records you have access to?",
         "hop": "That is useful, thank you. My colleague then wanted to know about the {rel} as well: "
                "{wh} is {pos} {rel}, if you can find it?",
         "close": "Perfect. One more thing my colleague needs before the meeting this afternoon: what about "
                  "the {attr}, what is it?"},
    ),
}


def _is_person(table: TableInfo, noun: str) -> bool:
    words = noun.lower().split()
    return bool(name_pair(table)) or noun.lower() in _PERSON_NOUNS or readable_entity(table.name).lower() \
        in _PERSON_NOUNS or (bool(words) and words[-1] in ROLE_NOUNS)


def _entity_phrase(table: TableInfo, key: Sequence[str], values: Sequence[Any]) -> str:
    """How turn 1 names the start row: ``order 10248``, ``programme 'Data Science'``."""
    noun = readable_entity(table.name).lower()
    text = " ".join(value_text(v) for v in values)
    return f"{noun} {text}" if is_number_key(table, key) else f"{noun} '{text}'"


@dataclass(frozen=True, slots=True)
class _Words:
    """What the phrasings of one walk over one start row are made of."""

    entity: str
    #: per turn: the slots of its phrasing and its standalone question
    slots: tuple[dict[str, str], ...]
    standalone: tuple[str, ...]


def _words(schema: Schema, walk: Walk, values: Sequence[Any], answers: Sequence[_Answer]) -> _Words:
    """The slots of every turn's phrasings and its standalone question. A follow-up's standalone
    question names the row the conversation has reached, as the previous answer named it
    ("What is the building of faculty 'Faculty of Humanities'?"), where that name is one row's;
    otherwise it walks there from the first row ("the building of the faculty of course ...")."""
    start = schema.table(walk.start)
    entity = _entity_phrase(start, walk.key, values)
    person = _is_person(start, readable_entity(start.name))
    slots: list[dict[str, str]] = [{"attr": column_phrase(walk.opening).lower(), "e": entity}]
    standalone = [""]  # turn 1 names its entity: it stands alone
    chain: list[str] = []
    subject = entity  # the row the next turn asks about, as a standalone question names it
    for i, hop in enumerate(walk.hops):
        reached = _is_person(schema.table(hop.ref_table), hop.noun)
        pos = "their" if person else "its"
        wh = "who" if reached else "what"
        slots.append({"rel": hop.noun, "pos": pos, "Pos": pos.capitalize(), "wh": wh, "Wh": wh.capitalize()})
        standalone.append(f"{wh.capitalize()} is the {hop.noun} of {subject}?")
        chain.insert(0, hop.noun)
        named = answers[i + 1].named
        subject = named or f"the {' of the '.join(chain)} of {entity}"
        person = reached
    if walk.closing is not None:
        attr = column_phrase(walk.closing).lower()
        pos = "their" if person else "its"
        closing = {"attr": attr, "pos": pos, "Pos": pos.capitalize()}
        if names_a_place(walk.closing):
            closing["where"] = "are they based" if person else "is it located"
        slots.append(closing)
        standalone.append(f"What is the {attr} of {subject}?")
    return _Words(entity, tuple(slots), tuple(standalone))


def _phrase(template: Mapping[str, str], turn: int, walk: Walk, slots: Mapping[str, str]) -> str:
    kind = "open" if turn == 1 else "hop" if turn - 1 <= len(walk.hops) else "close"
    if kind == "close" and "where" in slots and "close_place" in template:
        kind = "close_place"  # a place is asked with "where" ("Where are they based?"), no noun at all
    return template[kind].format(**slots)


# ---------------------------------------------------------------------------------- the records


def _shown_sql(schema: Schema, sql: str, values: Sequence[Any]) -> str:
    """The turn's SQL as a person reads it, each bound key written as a literal (what runs binds
    them: this text is for reading and for the record, as a template's filled SQL is)."""
    d = dialect_named(schema.dialect)
    for i, v in reversed(list(enumerate(values))):
        sql = sql.replace(f":k{i}", d.text_literal(v) if isinstance(v, str) else d.literal(v))
    return sql


def _answered(conn: sa.Connection, schema: Schema, walk: Walk, values: Sequence[Any]) -> list[_Answer] | None:
    """Every turn's answer; a follow-up's facts are the ones its turn adds (the building of the
    faculty, not again the course's faculty): the earlier turns' are established in the
    conversation, whose answers a system is given as history, so its evidence is what a system
    must still find, as per-turn passages are in multi-turn retrieval benchmarks."""
    answers: list[_Answer] = []
    for turn in range(1, walk.turns + 1):
        got = _answer(conn, schema, walk, turn, values)
        if got is None:
            return None
        if 1 < turn <= len(walk.hops) + 1:
            got.named = _named(conn, schema, walk.hops[turn - 2].ref_table, got.rows[0])
        if answers:
            new = [f for f in got.facts if f not in set(answers[-1].facts) | set(answers[-1].walked)]
            got.walked = sorted(set(got.facts) | set(answers[-1].walked))
            got.facts = new or got.facts
        else:
            got.walked = list(got.facts)
        answers.append(got)
    return answers


def _named(conn: sa.Connection, schema: Schema, table: str, name: Sequence[Any]) -> str | None:
    """The row of ``table`` named ``name`` (its lookup key's values) as a question names it, when
    exactly one row has that name."""
    info = schema.table(table)
    key = lookup_keys(info)
    q = dialect_named(schema.dialect).quote_identifier
    where = " AND ".join(f"{q(c)} = :k{i}" for i, c in enumerate(key))
    count = conn.execute(sa.text(f"SELECT COUNT(*) FROM {q(info.name)} WHERE {where}"),
                         {f"k{i}": v for i, v in enumerate(name)}).scalar()
    return _entity_phrase(info, key, name) if count == 1 else None


def _kb(record: QARecord, kb_facts: Mapping[str, list[str]] | None) -> None:
    """Gold documents from a rendered knowledge base's fact index, as a template's records get them."""
    if kb_facts is None:
        return
    evidence = [sorted(kb_facts.get(f, [])) for f in record.facts]
    record.evidence_sets = evidence
    record.gold_document_ids = sorted({d for ds in evidence for d in ds})
    record.kb_supported = bool(record.facts) and all(evidence)
    known = document_ids(kb_facts)
    record.entity_document_ids = [e for e in record.entities if e in known]
    record.kb_basis = "fact_index"


def conversation_records(engine: Engine, schema: Schema, *, per_walk: int, seed: int = 0,
                         styles: Sequence[str] | None = None,
                         kb_facts: Mapping[str, list[str]] | None = None) -> list[QARecord]:
    """Up to ``per_walk`` conversations for every walk of the schema (start rows a seeded sample
    of those whose every turn has one answer), each in every phrasing of ``styles`` (default:
    all of :data:`CONVERSATION_STYLES`; a style it has no phrasing for is left out)."""
    wanted = [s for s in (styles or CONVERSATION_STYLES) if s in CONVERSATION_STYLES]
    out: list[QARecord] = []
    with engine.connect() as conn:
        for walk in walks(schema):
            candidates = _start_values(conn, schema, walk)
            random.Random(f"{seed}:{walk.id}").shuffle(candidates)
            kept = 0
            for values in candidates[: 20 * per_walk]:  # a walk mostly NULL somewhere is not searched to the end
                answers = _answered(conn, schema, walk, values)
                if answers is None:
                    continue
                out += _conversation(schema, walk, values, answers, wanted, kb_facts)
                kept += 1
                if kept == per_walk:
                    break
    return out


def _conversation(schema: Schema, walk: Walk, values: Sequence[Any], answers: Sequence[_Answer],
                  styles: Sequence[str], kb_facts: Mapping[str, list[str]] | None) -> list[QARecord]:
    words = _words(schema, walk, values, answers)
    shown = [json_value(v) for v in values]
    params = {f"{walk.start}.{c}": v for c, v in zip(walk.key, shown, strict=True)}
    out = []
    for style in styles:
        for variant, template in enumerate(CONVERSATION_STYLES[style]):
            blob = json.dumps([walk.id, shown, style, variant], ensure_ascii=False)
            conversation = "c" + hashlib.sha256(blob.encode()).hexdigest()[:12]
            history: list[dict[str, Any]] = []
            for turn, answer in enumerate(answers, start=1):
                ts = turn_sql(schema, walk, turn)
                query = _phrase(template, turn, walk, words.slots[turn - 1])
                text = answer_text(answer.rows, list(ts.columns))
                # the turn's SQL is its template: walks that share a prefix ask the same question
                # there, one semantic group (GRAMMAR: same template, same values)
                sql_id = template_id(ts.sql)
                record = QARecord(
                    id=f"{conversation}-t{turn}", group_id=group_id(sql_id, shown),
                    sql_template_id=sql_id, text_template_id=f"conv-{style}-{variant}-t{turn}",
                    style=style, schema=",".join(dict.fromkeys(t for _, t in ts.rows)), table=walk.start,
                    params=dict(params), sql=_shown_sql(schema, ts.sql, values), query=query,
                    answer_columns=list(ts.columns), answer_rows=answer.rows, answer_text=text, answer_kind="single",
                    entities=answer.entities, facts=answer.facts, conversation_id=conversation, turn=turn,
                    history=[dict(h) for h in history], standalone_query=words.standalone[turn - 1])
                _kb(record, kb_facts)
                out.append(record)
                history.append({"query": query, "answer": text})
    return out
