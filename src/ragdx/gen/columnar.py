"""Records built as columns: one list per field for all the groups of a template, filled a
column at a time, and written to ``records.jsonl`` and ``records.parquet`` from those columns.

A million groups made into a million :class:`~ragdx.gen.dataset.QARecord` objects one at a time
cost more than answering them (about 7 µs each, mostly object construction, a dictionary per
record and the lists copied into it). Here each field is one pass over a column (a value made
text, quoted or hashed the same way for every group), and a record object is made only when
something reads the records as objects; the files are then written from the columns, byte for
byte what writing the objects writes (tested against :func:`ragdx.gen.dataset.build_records`,
the record-at-a-time reference).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, repeat
from operator import itemgetter
from typing import Any

from ragdx.db.dialect import dialect_named
from ragdx.gen.dataset import QARecord, answer_text, document_ids, json_value, value_text
from ragdx.gen.qa import GroupTable, OneRowEach, QAGroup, TextRows, group_columns
from ragdx.gen.sql_templates import PLACEHOLDER, ParsedTemplate
from ragdx.gen.text_templates import TextTemplate
from ragdx.store import gc_paused

#: types :func:`json_value` returns as they are (checked by exact type: a subclass takes the long way)
JSON_SAME = frozenset({str, int, float, bool, type(None)})
#: json.dumps(text, ensure_ascii=False) for one string, in C
_enc = json.encoder.encode_basestring
#: what the JSONL lines are: json.dumps(row, ensure_ascii=False, separators=(",", ":"))
_JSONL = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
#: what the Parquet file's JSON text columns are: json.dumps(value, ensure_ascii=False)
_PARQUET = json.JSONEncoder(ensure_ascii=False).encode
try:  # the interpreter's own SHA-256: the same digest as hashlib's, without OpenSSL's set-up per
    # call (a million group ids of ~40 bytes each: 0.45 s against 0.75 s)
    from _sha256 import sha256 as _sha256  # type: ignore[import-not-found]  # Python 3.11
except ImportError:  # pragma: no cover - 3.12 renamed it; a build without it takes hashlib's
    try:
        from _sha2 import sha256 as _sha256  # type: ignore[import-not-found,no-redef]
    except ImportError:
        _sha256 = hashlib.sha256


def _json_texts(column: Sequence, dumps=_JSONL) -> list[str]:
    """Each value of a column as JSON text (strings by json's own C encoder)."""
    return list(map(_enc, column)) if set(map(type, column)) <= {str} else list(map(dumps, column))


def _fill(literals: Sequence[str], columns: Sequence[list[str]], n: int) -> list[str]:
    """``literals[0] + columns[0][i] + literals[1] + ...`` for every row ``i``."""
    if not columns:
        return [literals[0]] * n
    if len(columns) == 1:
        return list(map("".join, zip(repeat(literals[0]), columns[0], repeat(literals[1]))))
    parts: list = [repeat(literals[0])]
    for column, literal in zip(columns, literals[1:], strict=True):
        parts += [column, repeat(literal)]
    return list(map("".join, zip(*parts)))  # noqa: B905 (the repeats are endless)


def _group_ids(sql_template_id: str, columns: Sequence[list], kinds_of: Sequence[set[type]]) -> list[str]:
    """:func:`ragdx.gen.dataset.group_id` of every group: the hash of the JSON text
    ``json.dumps([template id, [values]], ensure_ascii=False)`` writes, assembled a column at a
    time (``kinds_of``: the types found in each column)."""
    texts = []
    literals = ["[" + _enc(sql_template_id) + ", [", *[", "] * (len(columns) - 1), "]]"]
    for j, (column, kinds) in enumerate(zip(columns, kinds_of, strict=True)):
        if kinds <= {str}:
            if _plain_json(column):  # no character JSON escapes: the quotes go into the literals
                texts.append(column)
                literals[j] += '"'
                literals[j + 1] = '"' + literals[j + 1]
            else:
                texts.append(list(map(_enc, column)))
        elif kinds <= {int}:
            texts.append(list(map(int.__repr__, column)))
        else:
            texts.append([json.dumps(json_value(v), ensure_ascii=False) for v in column])
    blobs = _fill(literals, texts, len(columns[0]) if columns else 0)
    sha256 = _sha256
    return ["g" + sha256(b.encode()).hexdigest()[:12] for b in blobs]


@dataclass(slots=True)
class KbColumns:
    """What a knowledge base says of each group (see ``QARecord``'s fields of the same names)."""

    gold: list[list[str]]
    supported: list[bool]
    evidence: list[list[list[str]]]
    entity_docs: list[list[str]]


def _kb_columns(kb_facts: Mapping[str, list[str]], entities: Sequence[list[str]],
                facts: Sequence[list[str]]) -> KbColumns:
    known = document_ids(kb_facts)  # a rendered document's id is its entity's "Table:key"
    get = kb_facts.get
    evidence = [[sorted(get(f, [])) for f in fs] for fs in facts]
    return KbColumns(
        gold=[sorted({d for ds in ev for d in ds}) for ev in evidence],
        supported=[bool(fs) and all(ev) for fs, ev in zip(facts, evidence, strict=True)],
        evidence=evidence,
        entity_docs=[[e for e in es if e in known] for es in entities])


@dataclass(slots=True)
class RecordColumns:
    """The records of one SQL template × its text templates: group ``g``'s record for text
    template ``t`` is record ``g * len(texts) + t`` (groups first, as the reference builds them)."""

    sql_template_id: str
    schema: str
    table: str
    answer_columns: list[str]
    #: (style, text template id) of each text template, in record order within a group
    texts: list[tuple[str, str]]
    #: per text template, the query of every group
    queries: list[list[str]]
    #: per group
    group_ids: list[str]
    placeholder_names: tuple[str, ...]
    #: per placeholder, every group's value (JSON values)
    values: list[list[Any]]
    sqls: list[str]
    #: answer rows (tuples or lists of JSON values), per group; a OneRowEach (columns) where each has one
    rows: Sequence[list]
    answer_texts: list[str]
    kinds: list[str]
    #: per group (lists, or one-row groups' as columns: a :class:`~ragdx.gen.qa.TextRows`)
    entities: Sequence[list[str]]
    facts: Sequence[list[str]]
    kb: KbColumns | None

    def __len__(self) -> int:
        return len(self.group_ids) * len(self.texts)

    def params(self, g: int) -> dict[str, Any]:
        return {name: column[g] for name, column in zip(self.placeholder_names, self.values, strict=True)}

    def record(self, g: int, t: int) -> QARecord:
        """Group ``g``'s record for text template ``t``, a new object with lists of its own."""
        gid = self.group_ids[g]
        style, tid = self.texts[t]
        kb = self.kb
        return QARecord(
            id=f"{gid}-{tid}", group_id=gid, sql_template_id=self.sql_template_id, text_template_id=tid,
            style=style, schema=self.schema, table=self.table, params=self.params(g), sql=self.sqls[g],
            query=self.queries[t][g], answer_columns=list(self.answer_columns),
            answer_rows=[list(r) for r in self.rows[g]], answer_text=self.answer_texts[g],
            answer_kind=self.kinds[g], entities=list(self.entities[g]), facts=list(self.facts[g]),
            gold_document_ids=list(kb.gold[g]) if kb else [], kb_supported=kb.supported[g] if kb else None,
            evidence_sets=[list(e) for e in kb.evidence[g]] if kb else [],
            entity_document_ids=list(kb.entity_docs[g]) if kb else [], kb_basis="fact_index" if kb else "")

    def __iter__(self) -> Iterator[QARecord]:
        n_texts = len(self.texts)
        for g in range(len(self.group_ids)):
            for t in range(n_texts):
                yield self.record(g, t)

    def per_record(self, column: Sequence) -> list:
        """A per-group column repeated for each text template, in record order."""
        n = len(self.texts)
        return list(column) if n == 1 else [v for v in column for _ in range(n)]

    def per_text(self, values: Sequence) -> list:
        """A per-text-template value for every record, in record order."""
        return list(values) * len(self.group_ids)

    def record_ids(self) -> list[str]:
        suffixes = ["-" + tid for _, tid in self.texts]
        if len(suffixes) == 1:
            return [gid + suffixes[0] for gid in self.group_ids]
        return [gid + s for gid in self.group_ids for s in suffixes]

    def record_queries(self) -> list[str]:
        if len(self.queries) == 1:
            return self.queries[0]
        return [q for qs in zip(*self.queries, strict=True) for q in qs]

    def jsonl_text(self) -> str:
        """The records as ``records.jsonl`` lines, what ``json.dumps(record.to_dict(),
        ensure_ascii=False, separators=(",", ":"))`` writes for each."""
        n = len(self.group_ids)
        heads = [f'"sql_template_id":{_enc(self.sql_template_id)},"text_template_id":{_enc(tid)},'
                 f'"style":{_enc(style)},"schema":{_enc(self.schema)},"table":{_enc(self.table)},"params":'
                 for style, tid in self.texts]
        if self.values:  # {"Table.Column":value,...}
            parts = [[f"{_enc(name)}:{v}" for v in _json_texts(column)]
                     for name, column in zip(self.placeholder_names, self.values, strict=True)]
            param_json = _fill(["{", *[","] * (len(parts) - 1), "}"], parts, n)
        else:
            param_json = ["{}"] * n
        middle = [f'{p},"sql":{s},"query":' for p, s in zip(param_json, map(_enc, self.sqls), strict=True)]
        tails = self._jsonl_tails()
        queries = [list(map(_enc, qs)) for qs in self.queries]
        lines = []
        for t, (_, tid) in enumerate(self.texts):
            suffix = "-" + _enc(tid)[1:]
            head = heads[t]
            lines.append([f'{{"id":"{gid}{suffix},"group_id":"{gid}",{head}{m}{q}{tail}'
                          for gid, m, q, tail in zip(self.group_ids, middle, queries[t], tails, strict=True)])
        return "".join(lines[0] if len(lines) == 1 else [x for xs in zip(*lines, strict=True) for x in xs])

    def _jsonl_tails(self) -> list[str]:
        """Everything after a line's query: the answer, its entities and facts, the evidence."""
        columns = _JSONL(self.answer_columns)
        rows = self._rows_text(_JSONL)
        strings = _str_lists
        kb = self.kb
        if kb is None:
            rest = [',"gold_document_ids":[],"kb_supported":null,"evidence_sets":[],"entity_document_ids":[],'
                    '"kb_basis":"","evidence_spans":[],"evidence_confidence":null' + _LOOKUP_TAIL
                    ] * len(self.group_ids)
        else:
            rest = [f',"gold_document_ids":{gold},"kb_supported":{"true" if ok else "false"},'
                    f'"evidence_sets":{_JSONL(ev)},"entity_document_ids":{docs},"kb_basis":"fact_index",'
                    '"evidence_spans":[],"evidence_confidence":null' + _LOOKUP_TAIL
                    for gold, ok, ev, docs in zip(strings(kb.gold), kb.supported, kb.evidence,
                                                  strings(kb.entity_docs), strict=True)]
        return [f',"answer_columns":{columns},"answer_rows":{r},"answer_text":{a},"answer_kind":"{k}",'
                f'"entities":{e},"facts":{f}{x}'
                for r, a, k, e, f, x in zip(rows, map(_enc, self.answer_texts), self.kinds, strings(self.entities),
                                            strings(self.facts), rest, strict=True)]

    def _rows_text(self, dumps) -> list[str]:
        """Each group's answer rows as JSON text; one text value each (the common case) without
        the encoder's call (the same text: a one-element list has no separator)."""
        if isinstance(self.rows, OneRowEach):  # one row each, held as columns: a column at a time
            separator = dumps([0, 0])[2:-2]  # what the encoder writes between two items
            cells = [_json_texts(c, dumps) for c in self.rows.cells]
            return _fill(["[[", *[separator] * (len(cells) - 1), "]]"], cells, len(self.rows))
        if all(len(r) == 1 and len(r[0]) == 1 and type(r[0][0]) is str for r in self.rows):
            return ["[[" + _enc(r[0][0]) + "]]" for r in self.rows]
        return list(map(dumps, self.rows))

    def parquet_columns(self) -> dict[str, list]:
        """The records as ``records.parquet``'s columns (the fields in order, JSON text where a
        field holds mixed types), the lists ``pyarrow`` is given for the records themselves."""
        n = len(self)
        kb = self.kb
        per_group, per_text = self.per_record, self.per_text
        param_json = [_PARQUET(self.params(g)) for g in range(len(self.group_ids))]
        return {
            "id": self.record_ids(), "group_id": per_group(self.group_ids),
            "sql_template_id": [self.sql_template_id] * n, "text_template_id": per_text([t for _, t in self.texts]),
            "style": per_text([s for s, _ in self.texts]), "schema": [self.schema] * n, "table": [self.table] * n,
            "params": per_group(param_json), "sql": per_group(self.sqls), "query": self.record_queries(),
            "answer_columns": [self.answer_columns] * n, "answer_rows": per_group(self._rows_text(_PARQUET)),
            "answer_text": per_group(self.answer_texts), "answer_kind": per_group(self.kinds),
            "entities": per_group(self.entities), "facts": per_group(self.facts),
            "gold_document_ids": per_group(kb.gold) if kb else [[] for _ in range(n)],
            "kb_supported": per_group(kb.supported) if kb else [None] * n,
            "evidence_sets": per_group(kb.evidence) if kb else [[] for _ in range(n)],
            "entity_document_ids": per_group(kb.entity_docs) if kb else [[] for _ in range(n)],
            "kb_basis": ["fact_index" if kb else ""] * n, "evidence_spans": ["[]"] * n,
            "evidence_confidence": [None] * n, "question_kind": ["lookup"] * n, "refusal_kind": [""] * n,
            "conversation_id": [""] * n, "turn": [0] * n, "history": ["[]"] * n, "standalone_query": [""] * n,
        }


#: the end of every line: what a look-up asked on its own holds in the fields after the evidence
_LOOKUP_TAIL = (',"question_kind":"lookup","refusal_kind":"","conversation_id":"","turn":0,"history":[],'
                '"standalone_query":""}\n')


def _str_lists(lists: Sequence[list[str]]) -> list[str]:
    """Lists of strings as JSON text, with json's own string encoder; lists held as columns
    (:class:`~ragdx.gen.qa.TextRows`) a column at a time."""
    if isinstance(lists, TextRows):
        if not lists.columns:
            return ["[]"] * len(lists)
        literals = ["[", *[","] * (len(lists.columns) - 1), "]"]
        texts = []
        for j, column in enumerate(lists.columns):
            if _plain_json(column):  # no character JSON escapes: the quotes go into the literals
                texts.append(column)
                literals[j] += '"'
                literals[j + 1] = '"' + literals[j + 1]
            else:
                texts.append(list(map(_enc, column)))
        return _fill(literals, texts, len(lists))
    return ["[" + ",".join(map(_enc, xs)) + "]" for xs in lists]


def _answers(raw: Sequence[list[tuple]], columns: list[str]) -> tuple[Sequence[list], list[str], list[str]]:
    """Each group's answer rows as JSON values, its answer as text and its kind."""
    if isinstance(raw, OneRowEach):
        return _one_row_answers(raw, columns)
    sizes = set(map(len, raw))
    if sizes == {1}:  # one row each (the common case): read a column at a time
        first = list(map(itemgetter(0), raw))
        cells = list(map(itemgetter(0), first)) if len(columns) == 1 else None
        kinds_seen = set(map(type, cells if cells is not None else chain.from_iterable(first)))
        kinds = ["single"] * len(raw)
    else:
        cells = None
        kinds_seen = {type(v) for rows in raw for row in rows for v in row}
        kinds = ["single" if len(rs) == 1 else "multi" if rs else "none" for rs in raw]
    rows = raw if kinds_seen <= JSON_SAME else [[[json_value(v) for v in row] for row in rs] for rs in raw]
    if cells is not None:  # one value each: no separator to choose
        texts = [c.strip() for c in cells] if kinds_seen <= {str} else list(map(value_text, cells))
    else:
        texts = [answer_text(rs, columns) for rs in raw]
    return rows, texts, kinds


def _one_row_answers(raw: OneRowEach, columns: list[str]) -> tuple[OneRowEach, list[str], list[str]]:
    """:func:`_answers` where each group has one row, held as columns: a column at a time."""
    kinds_seen = [set(map(type, c)) for c in raw.cells]
    cells = [c if kinds <= JSON_SAME else list(map(json_value, c)) for c, kinds in zip(raw.cells, kinds_seen,
                                                                                        strict=True)]
    if len(cells) == 1:  # one value each: no separator to choose
        column, kinds = raw.cells[0], kinds_seen[0]
        if kinds <= {str}:
            texts = list(map(str.strip, column))
        elif kinds <= {str, type(None)}:
            nothing = value_text(None)
            texts = [nothing if v is None else v.strip() for v in column]
        else:
            texts = list(map(value_text, column))
    else:
        texts = [answer_text([row], columns) for row in zip(*raw.cells, strict=True)]
    return OneRowEach(cells, len(raw)), texts, ["single"] * len(raw)


def _placeholder_columns(params: Sequence[tuple], n_placeholders: int) -> list[list]:
    """The groups' placeholder values, one column per placeholder."""
    if n_placeholders == 1:
        return [list(map(itemgetter(0), params))]
    return [list(c) for c in zip(*params, strict=True)] if params else [[] for _ in range(n_placeholders)]


def _plain_json(column: Sequence[str]) -> bool:
    """Whether every text of ``column`` is its own JSON string between two double quotes (no
    quote, backslash nor control character: what json's string encoder escapes)."""
    joined = ",".join(column)
    return _enc(joined) == '"' + joined + '"'


def _plain_text(dialect, column: Sequence[str]) -> bool:
    """Whether every text of ``column`` is its own SQL literal between two single quotes (no
    quote nor any character the dialect escapes): the dialect's literal of all of them at
    once, joined, says so."""
    joined = "\n".join(column)
    return dialect.text_literal(joined) == "'" + joined + "'"


@gc_paused()  # a million strings and lists, none in a cycle: see ragdx.store.gc_paused
def build_columns(parsed: ParsedTemplate, groups: Sequence[QAGroup], texts: Mapping[str, Sequence[TextTemplate]],
                  kb_facts: Mapping[str, list[str]] | None = None) -> RecordColumns:
    """The records of ``groups`` × the text templates of every style in ``texts``, as columns:
    the same records :func:`ragdx.gen.dataset.build_records` makes one at a time."""
    found = group_columns(groups if isinstance(groups, list | GroupTable) else list(groups))
    n = len(found.params)
    names = parsed.placeholders  # a property that builds a tuple: once
    raw = _placeholder_columns(found.params, len(names))
    # the values lie all over memory (made by the scan, row by row): every pass over them is a
    # cache miss per value, so their types are read once
    kinds_of = [set(map(type, c)) for c in raw]
    values = [c if kinds <= JSON_SAME else [json_value(v) for v in c] for c, kinds in zip(raw, kinds_of, strict=True)]
    literals, slots = parsed.concrete_sql_parts()
    dialect = dialect_named(parsed.dialect)
    quoted = {k for k in set(slots) if kinds_of[k] <= {str} and _plain_text(dialect, raw[k])}
    if quoted:  # text needing no escape: the quotes go into the literals around it
        literals = [*literals]
        for j, k in enumerate(slots):
            if k in quoted:
                literals[j] += "'"
                literals[j + 1] = "'" + literals[j + 1]
    sql_values = {k: raw[k] if k in quoted else
                  list(map(dialect.text_literal if kinds_of[k] <= {str} else dialect.literal, raw[k]))
                  for k in set(slots)}
    sqls = _fill(literals, [sql_values[k] for k in slots], n)
    readable: dict[int, list[str]] = {}  # placeholder -> its values as text, made once
    place = {name: k for k, name in enumerate(names)}
    styled, queries = [], []
    for style, items in texts.items():
        for t in items:
            pieces = PLACEHOLDER.split(t.text)  # literal, table, column, literal, ..., literal
            used = [place[f"{a}.{b}"] for a, b in zip(pieces[1::3], pieces[2::3], strict=True)]
            for k in used:
                if k not in readable:  # text only loses its padding (as value_text does)
                    readable[k] = list(map(str.strip, values[k])) if kinds_of[k] <= {str} \
                        else list(map(value_text, values[k]))
            queries.append(_fill(pieces[0::3], [readable[k] for k in used], n))
            styled.append((style, t.id))
    columns = list(parsed.output_columns)
    rows, answer_texts, kinds = _answers(found.rows, columns)
    return RecordColumns(
        sql_template_id=parsed.id, schema=parsed.template.schema, table=parsed.semantics.entity,
        answer_columns=columns, texts=styled, queries=queries, group_ids=_group_ids(parsed.id, raw, kinds_of),
        placeholder_names=names, values=values, sqls=sqls, rows=rows, answer_texts=answer_texts, kinds=kinds,
        entities=found.entities, facts=found.facts,
        kb=None if kb_facts is None else _kb_columns(kb_facts, found.entities, found.facts))


class RecordSet(Sequence[QARecord]):
    """The records of several templates, held as :class:`RecordColumns` until read as records.

    Read as objects (iterated, indexed), the records are made once and kept, so that they
    behave as a list of them (a record changed in place stays changed); from then on the files
    are written from those objects. Until then :attr:`columns` is the columns to write from."""

    def __init__(self, chunks: Sequence[RecordColumns] = ()):
        self._chunks: list[RecordColumns] = list(chunks)
        self._records: list[QARecord] | None = None

    def append(self, chunk: RecordColumns) -> None:
        if self._records is not None:
            self._records.extend(chunk)
        else:
            self._chunks.append(chunk)

    @property
    def columns(self) -> list[RecordColumns] | None:
        """The columns, or None once the records were read as objects."""
        return self._chunks if self._records is None else None

    def _objects(self) -> list[QARecord]:
        if self._records is None:
            self._records = [r for chunk in self._chunks for r in chunk]
            self._chunks = []
        return self._records

    def __len__(self) -> int:
        return len(self._records) if self._records is not None else sum(len(c) for c in self._chunks)

    def __getitem__(self, index):
        return self._objects()[index]

    def __iter__(self) -> Iterator[QARecord]:
        return iter(self._objects())

    def group_ids(self) -> set[str]:
        """Every semantic group's id (without making the records)."""
        if self._records is not None:
            return {r.group_id for r in self._records}
        return {gid for chunk in self._chunks if chunk.texts for gid in chunk.group_ids}

    def styles(self) -> set[str]:
        if self._records is not None:
            return {r.style for r in self._records}
        return {style for chunk in self._chunks if chunk.group_ids for style, _ in chunk.texts}
