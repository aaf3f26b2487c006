"""``ragdx export DATASET [RUN] --to ragas|deepeval|hf|jsonl -o PATH``: a dataset (and, with a run,
what the system answered and retrieved) as plain files other tools load, with no dependency on
those tools here.

``ragas``
    JSONL of ragas ``SingleTurnSample`` rows, loadable with ``EvaluationDataset.from_jsonl``:
    ``user_input``, ``reference`` (the database's answer), ``reference_contexts`` and
    ``reference_context_ids`` (the gold documents), and with a run ``response``,
    ``retrieved_contexts`` and ``retrieved_context_ids``. The ids are ragdx's document ids, so
    ragas' id-based context precision and recall need no text matching.
``deepeval``
    a JSON array of DeepEval test cases (``input``, ``actual_output``, ``expected_output``,
    ``context``, ``retrieval_context``, ``name``, ``additional_metadata``), loadable with
    ``EvaluationDataset.add_test_cases_from_json_file`` (with a run) or as goldens.
``hf``
    a Parquet file with flat columns (``datasets.Dataset.from_parquet(PATH)`` or
    ``load_dataset("parquet", data_files=PATH)``); lists stay lists.
``ragas-multiturn``
    JSONL of ragas ``MultiTurnSample`` rows, one per conversation of the dataset (``ragdx gen
    --conversations N``): ``user_input`` the turns as messages (``{"type": "human", "content":
    query}``, then ``{"type": "ai", "content": ...}``: the run's reply with a run, the database's
    answer without one, as the dataset's ``history`` does), ``reference`` each turn's answer
    (``Turn 1: ...`` a line), ``reference_topics`` the tables the conversation walks.
``deepeval-conversational``
    a JSON array of DeepEval ``ConversationalTestCase`` objects, one per conversation: ``turns``
    (``{"role": "user" | "assistant", "content": ...}``, an assistant turn with its
    ``retrieval_context`` when a run retrieved some), ``scenario`` (the first question),
    ``expected_outcome`` (each turn's answer), ``context`` (the gold documents' texts), ``name``
    and ``additional_metadata`` (record ids, semantic groups, standalone questions).
``jsonl``
    ragdx's plain QA format, the one ``ragdx evaluate FILE.jsonl`` reads (any tool can write it)::

        {"id": "...", "query": "...", "answer": "HUM-220" | ["Ann", "Bob"], "response": "...",
         "group_id": "...", "style": "short", "retrieved_ids": ["Course:HUM-220"],
         "gold_ids": ["Course:HUM-220"], "kb_supported": true}

    ``query`` and ``answer`` (the database's value: a string, number or null; a list of values
    for an answer set; a list of rows for several columns) are required; ``response`` is
    what the system said (needed to judge); ``group_id`` (semantic group), ``style``,
    ``retrieved_ids``, ``gold_ids``, ``kb_supported`` and ``correct`` (a verdict already made)
    are optional. ``evaluate`` judges ``response`` against ``answer``, tags groups by
    ``group_id`` and judges retrieval from ``retrieved_ids`` against ``gold_ids``.

Every record of the dataset is exported, in dataset order; with a run, a record the run has not
answered (pending or failed) has no response (``null``) and its ``error`` is kept where the
format has room for it. Files are written whole (atomically) or not at all.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ragdx.errors import RagdxError

__all__ = ["FORMATS", "ExportRow", "export", "export_rows"]

FORMATS = ("ragas", "deepeval", "hf", "jsonl", "ragas-multiturn", "deepeval-conversational")
#: the formats made of conversations, one item per conversation rather than per record
CONVERSATION_FORMATS = ("ragas-multiturn", "deepeval-conversational")


@dataclass(slots=True)
class ExportRow:
    """One dataset record joined with what a run answered for it (if a run was given)."""

    id: str
    group_id: str
    style: str
    table: str
    query: str
    #: the database's answer as text, and as a value or list of values for an answer set
    answer_text: str
    answer: Any
    answer_kind: str
    answer_set: list[str]
    gold_ids: list[str]
    gold_contexts: list[str]
    kb_supported: bool | None
    response: str | None = None
    retrieved_ids: list[str] = field(default_factory=list)
    retrieved_contexts: list[str] = field(default_factory=list)
    error: str | None = None
    has_run: bool = False
    #: the conversation the record is a turn of ("" when asked alone), its turn and standalone form
    conversation_id: str = ""
    turn: int = 0
    standalone_query: str = ""


def _answer(record: Any) -> Any:
    """The gold answer as the plain format carries it: the database's value itself (a number
    stays a number, NULL stays null, so judges see what they see on a run), or the rows of an
    answer set or of a several-column answer."""
    rows = record.answer_rows or []
    if len(rows) == 1 and len(rows[0]) == 1:
        return rows[0][0]
    return [list(row) for row in rows]


def _answer_set(record: Any) -> list[str]:
    from ragdx.gen.dataset import answer_text

    rows = record.answer_rows or []
    return [answer_text([row]) for row in rows] if rows else [record.answer_text]


def export_rows(dataset: str | Path, run: str | Path | None = None) -> list[ExportRow]:
    from ragdx.gen.dataset import read_records
    from ragdx.rag.adapters.documents import dataset_knowledge_base
    from ragdx.rag.corpus import load_corpus

    records = read_records(dataset)
    kb_path = dataset_knowledge_base(dataset) if Path(dataset).is_dir() else None
    corpus = load_corpus(kb_path) if kb_path is not None else None
    outputs: dict[str, Any] = {}
    if run is not None:
        from ragdx.rag.rundir import read_run

        outputs = {o.id: o for o in read_run(run)}
        unknown = set(outputs) - {r.id for r in records}
        if unknown:
            raise RagdxError(f"the run answers {len(unknown)} queries the dataset does not have "
                             f"(e.g. {sorted(unknown)[0]!r}): another dataset's run?", source=str(run))
    rows = []
    for r in records:
        gold = list(r.gold_document_ids)
        row = ExportRow(
            id=r.id, group_id=r.group_id, style=r.style, table=r.table, query=r.query, answer_text=r.answer_text,
            answer=_answer(r), answer_kind=r.answer_kind, answer_set=_answer_set(r), gold_ids=gold,
            gold_contexts=[corpus.get(g).text for g in gold if corpus is not None and g in corpus],
            kb_supported=r.kb_supported, has_run=run is not None, conversation_id=r.conversation_id, turn=r.turn,
            standalone_query=r.standalone_query)
        out = outputs.get(r.id)
        if out is not None:
            row.response = out.answer if out.error is None else None
            row.error = out.error
            row.retrieved_ids = [c.id for c in out.contexts]
            row.retrieved_contexts = [c.text for c in out.contexts]
        elif run is not None:
            row.error = "not answered by the run (pending)"
        rows.append(row)
    return rows


# ----------------------------------------------------------------------------- formats


def _ragas(row: ExportRow) -> dict[str, Any]:
    sample: dict[str, Any] = {
        "user_input": row.query,
        "reference": row.answer_text,
        "reference_contexts": row.gold_contexts,
        "reference_context_ids": row.gold_ids,
    }
    if row.has_run:
        sample.update(response=row.response, retrieved_contexts=row.retrieved_contexts,
                      retrieved_context_ids=row.retrieved_ids)
    return sample


def _deepeval(row: ExportRow) -> dict[str, Any]:
    case: dict[str, Any] = {
        "name": row.id,
        "input": row.query,
        "expected_output": row.answer_text,
        "context": row.gold_contexts,
        "additional_metadata": {"ragdx_id": row.id, "group_id": row.group_id, "style": row.style,
                                "gold_ids": row.gold_ids, "kb_supported": row.kb_supported},
    }
    if row.has_run:
        # DeepEval requires a string output; an unanswered query is marked, not dropped.
        case["actual_output"] = row.response if row.response is not None else ""
        case["retrieval_context"] = row.retrieved_contexts
        case["additional_metadata"].update(retrieved_ids=row.retrieved_ids, error=row.error)
    return case


def _plain(row: ExportRow) -> dict[str, Any]:
    out: dict[str, Any] = {"id": row.id, "query": row.query, "answer": row.answer, "group_id": row.group_id,
                           "style": row.style, "gold_ids": row.gold_ids, "kb_supported": row.kb_supported}
    if row.has_run:
        out.update(response=row.response, retrieved_ids=row.retrieved_ids)
        if row.error is not None:
            out["error"] = row.error
    return out


def _hf_table(rows: Sequence[ExportRow]):
    import pyarrow as pa

    columns: dict[str, Any] = {
        "id": [r.id for r in rows], "group_id": [r.group_id for r in rows], "style": [r.style for r in rows],
        "table": [r.table for r in rows], "query": [r.query for r in rows],
        "answer": [r.answer_text for r in rows], "answer_kind": [r.answer_kind for r in rows],
        "answer_set": [r.answer_set for r in rows],
        "gold_ids": [r.gold_ids for r in rows], "gold_contexts": [r.gold_contexts for r in rows],
        "kb_supported": [r.kb_supported for r in rows],
    }
    if rows and rows[0].has_run:
        columns.update(response=[r.response for r in rows], retrieved_ids=[r.retrieved_ids for r in rows],
                       retrieved_contexts=[r.retrieved_contexts for r in rows], error=[r.error for r in rows])
    lists = {"answer_set", "gold_ids", "gold_contexts", "retrieved_ids", "retrieved_contexts"}
    schema = pa.schema([(k, pa.list_(pa.string()) if k in lists else pa.bool_() if k == "kb_supported"
                         else pa.string()) for k in columns])
    return pa.table(columns, schema=schema)


def _conversations(rows: Sequence[ExportRow]) -> list[list[ExportRow]]:
    """The rows of each conversation in turn order, conversations in dataset order."""
    by: dict[str, list[ExportRow]] = {}
    for r in rows:
        if r.conversation_id:
            by.setdefault(r.conversation_id, []).append(r)
    return [sorted(turns, key=lambda r: r.turn) for turns in by.values()]


def _reply(row: ExportRow) -> str:
    """The assistant's side of a turn: the run's reply (empty when it gave none), else the database's answer."""
    if row.has_run:
        return row.response if row.response is not None else ""
    return row.answer_text


def _references(turns: Sequence[ExportRow]) -> str:
    return "\n".join(f"Turn {r.turn}: {r.answer_text}" for r in turns)


def _ragas_multiturn(turns: Sequence[ExportRow]) -> dict[str, Any]:
    messages: list[dict[str, Any]] = []
    for r in turns:
        messages.append({"type": "human", "content": r.query})
        messages.append({"type": "ai", "content": _reply(r)})
    return {"user_input": messages, "reference": _references(turns),
            "reference_topics": sorted({r.table for r in turns})}


def _deepeval_conversational(turns: Sequence[ExportRow]) -> dict[str, Any]:
    messages: list[dict[str, Any]] = []
    for r in turns:
        messages.append({"role": "user", "content": r.query})
        reply: dict[str, Any] = {"role": "assistant", "content": _reply(r)}
        if r.has_run and r.retrieved_contexts:
            reply["retrieval_context"] = r.retrieved_contexts
        messages.append(reply)
    context = list(dict.fromkeys(c for r in turns for c in r.gold_contexts))
    return {"name": turns[0].conversation_id, "scenario": turns[0].query, "expected_outcome": _references(turns),
            "context": context, "turns": messages,
            "additional_metadata": {"ragdx_ids": [r.id for r in turns], "group_ids": [r.group_id for r in turns],
                                    "standalone_queries": [r.standalone_query for r in turns],
                                    "style": turns[0].style, "errors": [r.error for r in turns]}}


def _jsonl_text(objs: Sequence[dict[str, Any]]) -> str:
    return "".join(json.dumps(o, ensure_ascii=False, default=str) + "\n" for o in objs)


def export(dataset: str | Path, out: str | Path, *, to: str, run: str | Path | None = None) -> tuple[Path, int]:
    """Write the export; returns its path and the number of rows (of conversations, for the
    conversation formats)."""
    from ragdx.store import atomic_write_text

    if to not in FORMATS:
        raise RagdxError(f"--to must be one of {', '.join(FORMATS)}, not {to!r}", field="--to")
    rows = export_rows(dataset, run)
    out = Path(out)
    if out.is_dir():
        raise RagdxError("is a directory; name the file to write", source=str(out), field="-o")
    if to in CONVERSATION_FORMATS:
        conversations = _conversations(rows)
        if not conversations:
            raise RagdxError(f"the dataset has no conversations to export as {to} (ragdx gen --conversations N)",
                             source=str(dataset), field="--to")
    out.parent.mkdir(parents=True, exist_ok=True)
    if to == "ragas-multiturn":
        atomic_write_text(out, _jsonl_text([_ragas_multiturn(c) for c in conversations]))
        return out, len(conversations)
    if to == "deepeval-conversational":
        items = [_deepeval_conversational(c) for c in conversations]
        atomic_write_text(out, json.dumps(items, ensure_ascii=False, indent=1) + "\n")
        return out, len(conversations)
    if to == "ragas":
        atomic_write_text(out, _jsonl_text([_ragas(r) for r in rows]))
    elif to == "jsonl":
        atomic_write_text(out, _jsonl_text([_plain(r) for r in rows]))
    elif to == "deepeval":
        atomic_write_text(out, json.dumps([_deepeval(r) for r in rows], ensure_ascii=False, indent=1) + "\n")
    else:
        import os

        import pyarrow.parquet as pq

        tmp = out.with_name(f".{out.name}.tmp")
        pq.write_table(_hf_table(rows), tmp)
        os.replace(tmp, out)  # whole or not at all, like the text formats
    return out, len(rows)
