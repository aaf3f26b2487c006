"""Typed records of evaluation: one judged query, and the items a judge looks at.

A :class:`Judgement` is everything the GRAMMAR protocol needs about one text query: its semantic
group and style (for tags), whether the answer was correct and who said so (judge + reason),
and what the retriever returned against the gold documents (for module blame). Judgements
round-trip to JSONL, so a judged run can be re-analysed without judging again.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from ragdx.errors import RagdxError


@dataclass(slots=True)
class Judgement:
    id: str
    group_id: str
    style: str
    correct: bool
    judge: str = ""
    reason: str = ""
    #: the retrieval module judged on its own from gold documents (None: no gold documents)
    retrieval_correct: bool | None = None
    retrieved_ids: list[str] = field(default_factory=list)
    gold_ids: list[str] = field(default_factory=list)
    #: the knowledge base states the answer's facts (None: unknown)
    kb_supported: bool | None = None
    query: str = ""
    answer: str = ""
    response: str | None = None
    #: one list per fact the answer needs: the documents stating it (see ``QARecord.evidence_sets``)
    evidence_sets: list[list[str]] = field(default_factory=list)
    #: the judge could not decide (its retries exhausted): the query is counted, excluded from
    #: the metrics and judged again on the next evaluation (failures are never cached)
    error: str | None = None
    #: what ``kb_supported`` rests on (the record's ``kb_basis``: ``fact_index``, ``linked``, ``unlinked``, ...)
    kb_basis: str = ""
    #: how sure the evidence linking is (the record's ``evidence_confidence``; None: not linked)
    evidence_confidence: float | None = None
    #: where linked evidence was found (the record's ``evidence_spans``: doc_id, start, end, text, weight)
    evidence_spans: list[dict[str, Any]] = field(default_factory=list)
    #: documents naming the entities the answer is about (the record's ``entity_document_ids``)
    entity_ids: list[str] = field(default_factory=list)
    #: of those, the documents that write the answer's values although the linker found no passage
    #: stating the fact (a sign it missed one in a table, card or heading); filled by ``evaluate``
    value_seen_in: list[str] = field(default_factory=list)
    #: of the retrieved documents of a correct answer the linker knows no evidence for, those that
    #: write the answer's values (what it was answered from); filled by ``evaluate``
    answer_docs: list[str] = field(default_factory=list)
    #: why retrieval was not judged, or why its verdict is doubtful: ``ids_unmatched`` (the retrieved
    #: ids match no document of the knowledge base), ``no_context`` (no query of the run captured any
    #: retrieved document), ``corpus_changed`` (the system searched another corpus); "" otherwise
    retrieval_note: str = ""
    #: the record's ``refusal_kind`` ("" for a question to answer: ``ragdx.evaluate.abstention``)
    refusal_kind: str = ""
    #: for a record to refuse, what its reply was (``refusal``, ``correction``, ``answer``)
    reply_kind: str = ""
    #: the record's turn in its conversation (0: asked alone; ``ragdx.evaluate.conversations``)
    turn: int = 0
    #: for a follow-up: whether its standalone question, asked alone, retrieved the evidence
    #: (None: not probed, or the probe failed)
    standalone_retrieved: bool | None = None
    #: the record's ``question_kind`` (``lookup``, ``list``, ``count``, ...: ``ragdx.gen.kinds``)
    question_kind: str = "lookup"

    def to_dict(self) -> dict[str, Any]:
        # what asdict gives (fields in order, lists copied), without its recursive deep copy of
        # every string: that was a tenth of `evaluate`'s time on a large run
        return {"id": self.id, "group_id": self.group_id, "style": self.style, "correct": self.correct,
                "judge": self.judge, "reason": self.reason, "retrieval_correct": self.retrieval_correct,
                "retrieved_ids": list(self.retrieved_ids), "gold_ids": list(self.gold_ids),
                "kb_supported": self.kb_supported, "query": self.query, "answer": self.answer,
                "response": self.response, "evidence_sets": [list(e) for e in self.evidence_sets],
                "error": self.error, "kb_basis": self.kb_basis, "evidence_confidence": self.evidence_confidence,
                "evidence_spans": [dict(e) for e in self.evidence_spans], "entity_ids": list(self.entity_ids),
                "value_seen_in": list(self.value_seen_in), "answer_docs": list(self.answer_docs),
                "retrieval_note": self.retrieval_note,
                # written only for a record to refuse: every other judgement's line stays as it was
                **({"refusal_kind": self.refusal_kind, "reply_kind": self.reply_kind} if self.refusal_kind else {}),
                # likewise only for a turn of a conversation
                **({"turn": self.turn, "standalone_retrieved": self.standalone_retrieved} if self.turn else {}),
                # and only for a question other than a look-up
                **({"question_kind": self.question_kind} if self.question_kind != "lookup" else {})}

    @classmethod
    def from_dict(cls, obj: dict[str, Any]) -> Judgement:
        names = {f.name for f in fields(cls)}
        unknown = set(obj) - names
        if unknown:
            raise RagdxError(f"unknown field(s) {sorted(unknown)}", field="judgement")
        return cls(**obj)


@dataclass(slots=True)
class JudgeItem:
    """What a judge sees: the query, the gold answer (one or several rows) and the response."""

    query: str
    answer_rows: list[list[Any]]
    response: str | None
    #: ``single``, ``multi`` (an answer set) or ``none``
    answer_kind: str = "single"
    #: the record's ``refusal_kind``: a record to refuse is judged by ``ragdx.evaluate.abstention``
    refusal_kind: str = ""

    @property
    def answer_text(self) -> str:
        from ragdx.gen.dataset import answer_text

        return answer_text(self.answer_rows)

    @classmethod
    def from_text(cls, query: str, answer: Any, response: str | None) -> JudgeItem:
        """An item whose gold answer is one value (or a list of values: an answer set)."""
        if isinstance(answer, list | tuple):
            rows = [list(r) if isinstance(r, list | tuple) else [r] for r in answer]
            return cls(query, rows, response, "multi" if len(rows) > 1 else "single")
        return cls(query, [[answer]], response)


def _float_free(judgements: Sequence[Judgement]) -> bool:
    """A null in the fast writer's output may stand for a NaN only where a float can be: a response
    (the system's answer, which a hand-written run may give as a number), the linking confidence
    and the spans' weights (read from a dataset, finite; a NaN there sends the lines to json).
    Either way the bytes are json's (``ragdx.store.write_jsonl``): this only picks the faster path."""
    def finite(x: Any) -> bool:
        return x is None or type(x) is not float or math.isfinite(x)

    def number(x: object) -> bool:  # a hand-written run's response, typed str | None, may be one
        return type(x) is float

    return not any(number(j.response) or not finite(j.evidence_confidence)
                   or any(not finite(e.get("weight")) for e in j.evidence_spans) for j in judgements)


def write_judgements(path: str | Path, judgements: Iterable[Judgement]) -> int:
    from ragdx.store import write_jsonl

    judgements = list(judgements)
    return write_jsonl(path, (j.to_dict() for j in judgements), float_free=_float_free(judgements))


def judgement_lines(judgements: Sequence[Judgement]) -> bytes:
    """One block of ``judgements.jsonl``, byte for byte what :func:`write_judgements` writes for
    these judgements (an evaluation that streams its judgements writes them block by block)."""
    from ragdx.store import jsonl_lines

    return b"".join(jsonl_lines((j.to_dict() for j in judgements), float_free=_float_free(judgements)))


def read_judgements(path: str | Path) -> list[Judgement]:
    from ragdx.store import iter_jsonl

    out = []
    for number, obj in iter_jsonl(path):
        try:
            out.append(Judgement.from_dict(obj))
        except (TypeError, RagdxError) as exc:
            raise RagdxError(str(exc), source=str(path), field=f"line {number}") from None
    return out


def by_id(judgements: Sequence[Judgement]) -> dict[str, Judgement]:
    return {j.id: j for j in judgements}


#: rows encoded and written at a time by :func:`write_rows`
ROWS_BLOCK = 20_000


def write_rows(path: str | Path, rows: Sequence[dict[str, Any]]) -> int:
    """``ragdx.store.write_jsonl`` of ``rows`` (the same bytes), encoded and written a block at a
    time instead of joined into one buffer: a million verdicts are a gigabyte of lines."""
    import os

    from ragdx.store import default_mode, jsonl_lines

    path = Path(path)
    mode = default_mode(path)  # before opening: the file open creates has the umask's mode
    with path.open("wb") as fh:
        os.fchmod(fh.fileno(), mode)
        for start in range(0, len(rows), ROWS_BLOCK):
            fh.write(b"".join(jsonl_lines(rows[start:start + ROWS_BLOCK])))
        fh.flush()
        os.fsync(fh.fileno())
    return len(rows)


class JsonlView(Sequence[Any]):
    """The items of a JSONL file an evaluation wrote (its judgements, its verdicts), read by
    ``load`` when first looked at: a streamed evaluation does not keep them, and most callers of
    ``evaluate`` never look."""

    def __init__(self, path: str | Path, load: Any):
        self.path = Path(path)
        self._load = load
        self._items: list[Any] | None = None

    def _all(self) -> list[Any]:
        if self._items is None:
            self._items = list(self._load(self.path))
        return self._items

    def __len__(self) -> int:
        return len(self._all())

    def __getitem__(self, index: Any) -> Any:
        return self._all()[index]

    def __iter__(self) -> Any:
        return iter(self._all())
