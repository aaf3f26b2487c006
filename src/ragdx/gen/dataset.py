"""The dataset: typed query records grouped into semantic groups, on disk as JSONL + Parquet.

A record is one text query. Every text query filled from the same SQL template with the same
values belongs to one semantic group (GRAMMAR §4.3), across styles, so styles can be compared
group by group. A dataset directory holds ``records.jsonl`` (the source of truth),
``records.parquet`` (the same rows for analysis) and ``manifest.json`` (schema fingerprint,
configuration, counts).
"""

from __future__ import annotations

import calendar
import hashlib
import json
import random
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from datetime import date, datetime, time
from decimal import Decimal
from pathlib import Path
from typing import Any

from ragdx.db.schema import name_part, role_name_part
from ragdx.errors import RagdxError, validated
from ragdx.gen.qa import QAGroup
from ragdx.gen.sql_templates import PLACEHOLDER, ParsedTemplate
from ragdx.gen.text_templates import TextTemplate
from ragdx.store import gc_paused

FORMAT_VERSION = 1
#: a dataset directory's manifest (this module owns the dataset format)
MANIFEST = "manifest.json"


@dataclass(slots=True)
class QARecord:
    id: str
    group_id: str
    sql_template_id: str
    text_template_id: str
    style: str
    #: target-schema key of the SQL template (``Client``, ``company,people``)
    schema: str
    #: the table the question is about (the first placeholder's table)
    table: str
    #: placeholder (``Client.Name``) → value
    params: dict[str, Any]
    sql: str
    query: str
    answer_columns: list[str]
    answer_rows: list[list[Any]]
    answer_text: str
    #: ``single``, ``multi`` (an answer set) or ``none`` (unanswerable)
    answer_kind: str
    #: ``Table:key`` of every row the answer came from
    entities: list[str] = field(default_factory=list)
    #: ``Table.Column@key``: the facts the answer rests on
    facts: list[str] = field(default_factory=list)
    #: the evidence: documents stating the answer's facts (the union of ``evidence_sets``), when a
    #: knowledge base or corpus was given
    gold_document_ids: list[str] = field(default_factory=list)
    #: every fact is stated somewhere in the knowledge base (None: no knowledge base given)
    kb_supported: bool | None = None
    #: one list per fact the answer needs (each hop of a join): the documents that state it. The
    #: retrieval has the evidence when it holds at least one document of every list — the one rule
    #: retrieval is judged by (``evidence``); empty when unknown
    evidence_sets: list[list[str]] = field(default_factory=list)
    #: the documents of every entity the SQL touches (a second, looser set of "relevant" documents)
    entity_document_ids: list[str] = field(default_factory=list)
    #: what ``kb_supported`` and the evidence rest on: ``fact_index`` (a knowledge base ragdx rendered),
    #: ``linked`` (evidence found in the user's corpus), ``unlinked`` (searched, not found), ``""`` unknown
    kb_basis: str = ""
    #: where linked evidence was found (``ragdx.kb.link``): one dict per passage with ``fact``,
    #: ``doc_id``, ``start``/``end`` (character offsets in the document), ``text`` and ``weight``
    evidence_spans: list[dict[str, Any]] = field(default_factory=list)
    #: how sure the linking is (the weakest hop's best match, 0 when a hop was not found); None
    #: when not linked
    evidence_confidence: float | None = None
    #: what the question asks for: ``lookup`` (attributes of named rows, GRAMMAR's kind); the
    #: kinds people also ask (lists, counts, extremes, comparisons, time ranges) name themselves
    question_kind: str = "lookup"
    #: "" for a question to answer; otherwise why a right reply declines it (``false_premise``:
    #: it corrects the premise with ``answer_text``; ``absent_entity``, ``ambiguous_reference``,
    #: ``out_of_domain``, ``omitted_fact``), each established by executing SQL
    refusal_kind: str = ""
    #: the conversation this record is a turn of ("": a question asked on its own)
    conversation_id: str = ""
    #: the turn's position in its conversation, from 1 (0: not a turn)
    turn: int = 0
    #: the turns before this one, in order: ``{"query": ..., "answer": ...}`` (the reference answer)
    history: list[dict[str, Any]] = field(default_factory=list)
    #: a follow-up written out in full (no pronoun or ellipsis), what history handling should
    #: arrive at; "" when the query already stands alone
    standalone_query: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_FIELDS = {f.name for f in fields(QARecord)}


#: types :func:`json_value` returns as they are (checked by exact type: a subclass takes the long way)
_JSON_SAME = frozenset({str, int, float, bool, type(None)})


def json_value(value: Any) -> Any:
    """A database value as JSON: dates as ISO text, decimals as numbers when exact."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value
    if isinstance(value, Decimal):
        if value == value.to_integral_value():
            return int(value)
        as_float = float(value)
        return as_float if Decimal(repr(as_float)) == value else str(value)
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.hex()
    return str(value)


def value_text(value: Any) -> str:
    """A value as a person reads it: booleans as yes / no, date-times with a space, NULL as
    "not recorded" (never the text 'None'), text without the padding a CHAR column or a careless
    import leaves around it ('Carine ' is written "Carine")."""
    if type(value) is str:
        return value.strip()  # the common case, decided first
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, datetime):
        return value.isoformat(sep=" ")
    value = json_value(value)
    if value is None:
        return "not recorded"
    if isinstance(value, float) and value.is_integer():
        return str(int(value)) if abs(value) < 1e15 else repr(value)
    return str(value)




def answer_text(rows: Sequence[Sequence[Any]], columns: Sequence[str] | None = None) -> str:
    """Rows as a person would read them: values joined by ', ', rows by '; '; a first name
    followed by a last name is one name ("Andrew Fuller")."""
    if len(rows) == 1 and len(rows[0]) == 1:
        return value_text(rows[0][0])  # one value: no separator to choose
    sep = ", "
    # "Andrew Fuller", and a contact's "Leslie Castillo" (contactFirstName, contactLastName)
    if columns and len(columns) == 2 and (name_part(columns[0]) == "first" or (
            (first := role_name_part(columns[0])) is not None and first[1] == "first"
            and role_name_part(columns[1]) == (first[0], "last"))):
        sep = " "
    return "; ".join(sep.join(value_text(v) for v in row) for row in rows)


_CAPITALS = re.compile(r"[A-Z]+(?:[ _][A-Z]+)*")


def label_word(value: Any) -> Any:
    """A label the source writes in capitals as people write it: 'GRASS' -> "Grass", 'SPECIAL_ATTACK'
    -> "Special Attack" (``ColumnInfo.upper_labels`` decides which columns hold labels; the record's
    rows keep the database's value, and answers are compared without regard to case)."""
    if isinstance(value, str) and _CAPITALS.fullmatch(value):
        return " ".join(w.capitalize() for w in re.split(r"[ _]", value))
    return value


def labelled(rows: Sequence[Sequence[Any]], labels: Sequence[bool]) -> list[list[Any]]:
    """``rows`` with the values of label columns (``labels``, per column) worded by :func:`label_word`."""
    return [[label_word(v) if i < len(labels) and labels[i] else v for i, v in enumerate(row)] for row in rows]


def day_word(value: Any) -> Any:
    """A date-time at midnight as the day people write: '2007-09-06 00:00:00' -> "6 September 2007"
    (for columns whose values are all at midnight, ``ColumnInfo.midnight_dates``: the time is no
    recorded one). Day first and the month in words, so no reader takes 6/9 for 9 June or the
    other way round; a value that is no such date-time is returned as it is."""
    when = value if isinstance(value, datetime) else None
    if isinstance(value, str):
        try:
            when = datetime.fromisoformat(value.strip())
        except ValueError:
            return value
    if when is None or when.time() != time(0):
        return value
    return f"{when.day} {calendar.month_name[when.month]} {when.year}"


def _worded(params: Mapping[str, Any], words: frozenset[str], days: frozenset[str] = frozenset()) -> dict[str, Any]:
    return {k: label_word(v) if k in words else day_word(v) if k in days else v for k, v in params.items()}


def group_id(sql_template_id: str, params: Sequence[Any]) -> str:
    blob = json.dumps([sql_template_id, [json_value(p) for p in params]], ensure_ascii=False)
    return "g" + hashlib.sha256(blob.encode()).hexdigest()[:12]


#: the string encoder ``json.dumps(..., ensure_ascii=False)`` uses
_json_string = json.encoder.encode_basestring


def _group_ids(sql_template_id: str) -> Callable[[Sequence[Any]], str]:
    """:func:`group_id` for one template, a million times: the JSON text ``json.dumps`` would
    write (its default separators) assembled directly, the template's part once. Ids are
    hashes of that text, so it must stay byte for byte what ``json.dumps`` writes (tested)."""
    head = "[" + _json_string(sql_template_id) + ", ["
    sha256, dumps = hashlib.sha256, json.dumps

    def gid(params: Sequence[Any]) -> str:
        parts = []
        for p in params:
            kind = type(p)
            if kind is str:
                parts.append(_json_string(p))
            elif kind is int:
                parts.append(int.__repr__(p))
            else:
                parts.append(dumps(json_value(p), ensure_ascii=False))
        return "g" + sha256((head + ", ".join(parts) + "]]").encode()).hexdigest()[:12]

    return gid


def fill(text: str, params: Mapping[str, Any]) -> str:
    """Substitute placeholders in one pass, so a value that looks like a placeholder stays text."""
    return PLACEHOLDER.sub(lambda m: value_text(params[f"{m.group(1)}.{m.group(2)}"]), text)


def _filler(text: str) -> Callable[[Mapping[str, Any]], str]:
    """:func:`fill` for one text template, its placeholders found once: the text is split at
    them and the values joined in (still one pass: a value is never searched again)."""
    pieces = PLACEHOLDER.split(text)  # literal, table, column, literal, ..., literal
    literals = pieces[0::3]
    names = [f"{t}.{c}" for t, c in zip(pieces[1::3], pieces[2::3], strict=True)]
    if not names:
        return lambda params: text

    def filled(params: Mapping[str, Any]) -> str:
        out = [literals[0]]
        for name, literal in zip(names, literals[1:], strict=True):
            out.append(value_text(params[name]))
            out.append(literal)
        return "".join(out)

    return filled


_DOC_IDS: dict[int, tuple[Mapping[str, list[str]], frozenset[str]]] = {}


def document_ids(kb_facts: Mapping[str, list[str]]) -> frozenset[str]:
    """Every document id of a fact index (computed once per index, not once per group)."""
    hit = _DOC_IDS.get(id(kb_facts))
    if hit is None or hit[0] is not kb_facts:
        hit = (kb_facts, frozenset(d for ds in kb_facts.values() for d in ds))
        _DOC_IDS.clear()
        _DOC_IDS[id(kb_facts)] = hit
    return hit[1]


def build_records(parsed: ParsedTemplate, groups: Iterable[QAGroup],
                  texts: Mapping[str, Sequence[TextTemplate]], kb_facts: Mapping[str, list[str]] | None = None
                  ) -> Iterator[QARecord]:
    """Records for ``groups`` × the text templates of every style in ``texts``."""
    columns = list(parsed.output_columns)
    table = parsed.semantics.entity
    sql_id, schema_key = parsed.id, parsed.template.schema
    placeholders = parsed.placeholders  # a property that builds a tuple: once, not per group
    # what does not change from group to group is worked out once per template: ids (hashes),
    # the placeholders' places in each text, the concrete SQL's pieces
    styled = [(style, _filler(t.text), t.id) for style, items in texts.items() for t in items]
    gid_of = _group_ids(sql_id)
    concrete = parsed.concrete_sql_renderer()
    same = _JSON_SAME
    labels = parsed.label_outputs if any(parsed.label_outputs) else ()
    words, days = parsed.label_placeholders, parsed.day_placeholders
    for group in groups:
        params = dict(zip(placeholders, (v if type(v) in same else json_value(v) for v in group.params),
                          strict=True))
        gid = gid_of(group.params)
        sql = concrete(group.params)
        rows = [[v if type(v) in same else json_value(v) for v in row] for row in group.rows]
        text_answer = answer_text(labelled(group.rows, labels) if labels else group.rows, columns)
        gold: list[str] = []
        supported: bool | None = None
        evidence: list[list[str]] = []
        entity_docs: list[str] = []
        basis = ""
        if kb_facts is not None:
            evidence = [sorted(kb_facts.get(f, [])) for f in group.facts]
            gold = sorted({d for ds in evidence for d in ds})
            supported = bool(group.facts) and all(evidence)
            # a rendered document's id is its entity's "Table:key"
            known = document_ids(kb_facts)
            entity_docs = [e for e in group.entities if e in known]
            basis = "fact_index"
        for style, filled, tid in styled:
            yield QARecord(
                id=f"{gid}-{tid}", group_id=gid, sql_template_id=sql_id, text_template_id=tid,
                style=style, schema=schema_key, table=table, params=params, sql=sql,
                query=filled(_worded(params, words, days) if words or days else params), answer_columns=columns,
                answer_rows=rows,
                answer_text=text_answer, answer_kind=group.kind, entities=list(group.entities),
                facts=list(group.facts), gold_document_ids=gold, kb_supported=supported,
                evidence_sets=[list(e) for e in evidence], entity_document_ids=list(entity_docs), kb_basis=basis,
            )


# ----------------------------------------------------------------------------- sampling


def sample_balanced(records: Sequence[QARecord], per_group: int, seed: int = 0) -> list[QARecord]:
    """``per_group`` queries per semantic group and style, drawn with a seed (§4.3's balanced
    setting: every group weighs the same)."""
    buckets: dict[tuple[str, str], list[QARecord]] = defaultdict(list)
    for r in records:
        buckets[(r.group_id, r.style)].append(r)
    keep: set[str] = set()
    for key, items in buckets.items():
        rng = random.Random(f"{seed}:{key[0]}:{key[1]}")
        keep.update(r.id for r in (items if len(items) <= per_group else rng.sample(items, per_group)))
    return [r for r in records if r.id in keep]


def sample_unbalanced(records: Sequence[QARecord], seed: int = 0,
                      per_table: Mapping[str, int] | None = None) -> list[QARecord]:
    """A seeded number of queries per group that differs by table, as in the reference's
    ``*_unbalanced`` files (e.g. 1 per client group, 3 per project group). ``per_table``
    fixes the count for some tables; others draw one between 1 and their group size."""
    buckets: dict[tuple[str, str], list[QARecord]] = defaultdict(list)
    for r in records:
        buckets[(r.group_id, r.style)].append(r)
    biggest: dict[tuple[str, str], int] = defaultdict(int)
    for items in buckets.values():
        key = (items[0].table, items[0].style)
        biggest[key] = max(biggest[key], len(items))
    chosen = {}
    for key in sorted(biggest):
        rng = random.Random(f"{seed}:{key[0]}:{key[1]}")
        chosen[key] = (per_table or {}).get(key[0]) or rng.randint(1, biggest[key])
    keep: set[str] = set()
    for (gid, style), items in buckets.items():
        k = chosen[(items[0].table, style)]
        rng = random.Random(f"{seed}:{gid}:{style}")
        keep.update(r.id for r in (items if len(items) <= k else rng.sample(items, k)))
    return [r for r in records if r.id in keep]


# ----------------------------------------------------------------------------- statistics


def stats(records: Sequence[QARecord]) -> list[dict[str, Any]]:
    """GRAMMAR's Table 2 / App. E breakdown: per table and style, M SQL templates, N text
    templates per SQL template, Q values per text template (= semantic groups), and queries."""
    rows = []
    by_key: dict[tuple[str, str], list[QARecord]] = defaultdict(list)
    for r in records:
        by_key[(r.table, r.style)].append(r)
    for (table, style), items in sorted(by_key.items()):
        m = len({r.sql_template_id for r in items})
        per_sql: Counter[str] = Counter()
        for sid, _ in {(r.sql_template_id, r.text_template_id) for r in items}:
            per_sql[sid] += 1
        groups = len({r.group_id for r in items})
        rows.append({
            "table": table, "style": style, "M_sql_templates": m,
            "N_text_templates": round(sum(per_sql.values()) / m, 2) if m else 0,
            "semantic_groups": groups, "Q_values_per_template": round(groups / m, 2) if m else 0,
            "queries": len(items),
            "answer_sets": sum(r.answer_kind == "multi" for r in items),
            "unanswerable": sum(r.answer_kind == "none" for r in items),
            "kb_gaps": sum(r.kb_supported is False for r in items),
        })
    return rows


# ----------------------------------------------------------------------------- files


def _parquet_table(records: Sequence[QARecord]):
    import pyarrow as pa

    cols: dict[str, list] = {name: [] for name in (f.name for f in fields(QARecord))}
    for r in records:
        for name in cols:
            value = getattr(r, name)
            # mixed-type values (an answer cell can be text or a number) travel as JSON text
            if name in ("params", "answer_rows", "evidence_spans", "history"):
                value = json.dumps(value, ensure_ascii=False)
            cols[name].append(value)
    return pa.table(cols)


def write_dataset(directory: str | Path, records: Sequence[QARecord], manifest: Mapping[str, Any], *,
                  overwrite: bool = False) -> Path:
    """Write the whole directory or nothing: staged, then renamed into place."""
    import pyarrow.parquet as pq

    from ragdx.redact import redact
    from ragdx.store import atomic_write_bytes, staged_directory, write_json, write_jsonl

    # records still held as columns (ragdx.gen.columnar) are written from them, the same bytes
    chunks = getattr(records, "columns", None)
    ids = Counter(r.id for r in records) if chunks is None else Counter(i for c in chunks for i in c.record_ids())
    dupes = [i for i, n in ids.items() if n > 1]
    if dupes:
        raise RagdxError(f"{len(dupes)} duplicate record ids, e.g. {dupes[0]}", field="records")
    with staged_directory(directory, overwrite=overwrite) as stage:
        if chunks is None:
            write_jsonl(stage / "records.jsonl", (r.to_dict() for r in records))
            pq.write_table(_parquet_table(records), stage / "records.parquet")
        else:
            atomic_write_bytes(stage / "records.jsonl", "".join(c.jsonl_text() for c in chunks).encode("utf-8"))
            pq.write_table(_parquet_from_columns(chunks), stage / "records.parquet")
        # redacted as a whole: the database URL of every caller (CLI, Python API) may carry a password
        write_json(stage / MANIFEST, redact({"format": FORMAT_VERSION, **manifest,
                                                    "records": len(records),
                                                    "semantic_groups": semantic_groups(records)}))
    return Path(directory)


def semantic_groups(records: Sequence[QARecord]) -> int:
    """How many semantic groups ``records`` hold (records held as columns are not made for it)."""
    group_ids = getattr(records, "group_ids", None)
    return len(group_ids() if callable(group_ids) else {r.group_id for r in records})


def _parquet_from_columns(chunks: Sequence[Any]):
    """:func:`_parquet_table` of records held as columns (``RecordColumns.parquet_columns``)."""
    import pyarrow as pa

    cols: dict[str, list] = {f.name: [] for f in fields(QARecord)}
    for chunk in chunks:
        for name, values in chunk.parquet_columns().items():
            cols[name].extend(values)
    return pa.table(cols)


@gc_paused()  # bulk work on small objects in no cycle: see ragdx.store.gc_paused
def read_records(path: str | Path) -> list[QARecord]:
    """Read ``records.jsonl`` or ``records.parquet`` (or a dataset directory); a record that does
    not fit the type raises naming the file, the line and the field."""
    return list(iter_records(path))


def iter_records(path: str | Path) -> Iterator[QARecord]:
    """:func:`read_records` one record at a time, in the file's order (what an evaluation of a
    million queries reads in blocks, without holding every record at once)."""
    from pydantic import TypeAdapter, ValidationError

    from ragdx.store import iter_jsonl

    path = Path(path)
    if path.is_dir():
        path = path / "records.jsonl"
    if not path.exists():
        raise RagdxError("no such dataset file", source=str(path))
    adapter = TypeAdapter(QARecord)
    validate = adapter.validate_python  # called directly: the wrapper's lookups cost per record
    count = 0
    if path.suffix == ".parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        try:
            rows = pq.read_table(path).to_pylist()
        except (pa.ArrowException, OSError, ValueError) as exc:
            # a truncated or corrupt file: one line naming it, not pyarrow's traceback
            raise RagdxError(f"not a readable Parquet file ({' '.join(str(exc).split())[:200]})",
                             source=str(path)) from None
        for number, row in enumerate(rows, 1):
            try:
                row["params"] = json.loads(row["params"])
                row["answer_rows"] = json.loads(row["answer_rows"])
                for name in ("evidence_spans", "history"):
                    if name in row:
                        row[name] = json.loads(row[name])
            except (KeyError, TypeError, ValueError) as exc:
                raise RagdxError(f"not a dataset record ({exc})", source=str(path), field=f"row {number}") from None
        numbered: Iterator[tuple[int, dict[str, Any]]] = enumerate(rows, 1)
    else:
        numbered = iter_jsonl(path)
    for number, obj in numbered:
        unknown = set(obj) - _FIELDS
        if unknown:
            raise RagdxError(f"unknown field(s) {sorted(unknown)}", source=str(path), field=f"line {number}")
        for name in _BOOL_FIELDS:
            # pydantic's lax mode reads "yes", "no", 1 and 0 as booleans: a hand-edited
            # `kb_supported: "yes"` would pass as a fact about the knowledge base
            if obj.get(name) is not None and not isinstance(obj[name], bool):
                raise RagdxError(f"expected true, false or null, got {obj[name]!r}", source=str(path),
                                 field=f"line {number}: {name}")
        count += 1
        try:
            record = validate(obj)
        except ValidationError:  # validated() validates it again and says which field, in one line
            record = validated(adapter, obj, source=str(path), prefix=f"line {number}: ")
        yield record
    if not count:
        raise RagdxError("no records: the dataset is empty", source=str(path))


_BOOL_FIELDS = tuple(f.name for f in fields(QARecord) if "bool" in str(f.type))


def read_manifest(directory: str | Path) -> dict[str, Any]:
    path = Path(directory) / MANIFEST
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RagdxError(f"cannot read the manifest ({exc})", source=str(path)) from None
