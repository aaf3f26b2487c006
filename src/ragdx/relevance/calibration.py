"""Where in-knowledge calibration queries come from.

1. Real in-knowledge queries (a JSONL file of questions): the p-values are then exact.
2. Questions an LLM writes per chunk with the paper's prompt (its Table 10). The paper warns that
   the type-I bound then no longer holds exactly: it depends on how close the synthetic questions
   are to real ones.
3. The queries of a ragdx dataset whose answers the knowledge base states (``kb_supported``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ragdx.errors import RagdxError


def read_questions(path: str | os.PathLike, *, field_name: str = "question") -> list[str]:
    """The ``field_name`` of every line of a JSONL file; a line without it raises naming it."""
    from ragdx.store import iter_jsonl

    out = []
    for number, obj in iter_jsonl(path):
        value = obj.get(field_name)
        if not isinstance(value, str) or not value.strip():
            raise RagdxError(f"missing or empty {field_name!r}", source=str(path), field=f"line {number}")
        out.append(value)
    if not out:
        raise RagdxError("no questions in the file", source=str(path))
    return out


def dataset_queries(directory: str | os.PathLike) -> list[str]:
    """Queries of a ragdx dataset whose facts the knowledge base states: in-knowledge by construction."""
    from ragdx.gen.dataset import read_records

    records = read_records(Path(directory))
    if records and all(r.kb_supported is None for r in records):
        raise RagdxError("the dataset was generated without a knowledge base (--kb), so which queries are "
                         "in-knowledge is unknown", source=str(directory), field="kb_supported")
    out = [r.query for r in records if r.kb_supported and r.answer_kind != "none"]
    if not out:
        raise RagdxError("no query of the dataset is supported by the knowledge base", source=str(directory))
    return out


# The paper's Table 10 prompt. Its role and source words are parameters because the paper wrote
# them for medical textbooks; the defaults are the paper's.
SYNTH_SYSTEM = (
    "You are a {role}.\n"
    "The qustions should be based only on context from {source} and should be diverse in nature.\n"
    "Below are some sample questions.\n"
    "{examples}"
)
SYNTH_USER = (
    "Below is a chunk of context from {source}.\n"
    "---\n"
    "{context}\n"
    "---\n"
    "Given the context information, please generate similar question following the json format."
)


@dataclass(slots=True)
class SynthesisResult:
    """Questions written per chunk, and the chunks whose call or answer failed (with the error)."""

    questions: list[str] = field(default_factory=list)
    chunk_index: list[int] = field(default_factory=list)
    failures: list[tuple[int, str]] = field(default_factory=list)


def parse_question(text: str) -> str:
    match = re.search(r"\{.*\}", text, flags=re.S)
    if match:
        try:
            obj = json.loads(match.group(0))
        except ValueError:
            obj = None
        if isinstance(obj, dict) and isinstance(obj.get("question"), str) and obj["question"].strip():
            return obj["question"].strip()
    m = re.search(r'"question"\s*:\s*"((?:[^"\\]|\\.)+)"', text)
    if m:
        return json.loads(f'"{m.group(1)}"').strip()
    raise ValueError(f"no question in the answer: {text[:80]!r}")


def synthesize_queries(llm, chunks: Sequence[str], *, examples: Sequence[str], role: str =
                       "professor setting up quiz questions for medical students", source: str = "textbook",
                       max_context_chars: int = 4000) -> SynthesisResult:
    """One question per chunk with the paper's prompt; ``examples`` are a few real questions
    (the paper shows 1-3) whose style the LLM should follow."""
    from ragdx.llm import ChatRequest, LLMFailure

    if not examples:
        raise RagdxError("the synthesis prompt needs at least one example question", field="examples")
    shown = "\n".join(json.dumps({"question": e}, ensure_ascii=False) for e in examples)
    system = SYNTH_SYSTEM.format(role=role, source=source, examples=shown)
    requests = [ChatRequest(messages=[{"role": "system", "content": system},
                                      {"role": "user", "content": SYNTH_USER.format(
                                          source=source, context=c[:max_context_chars])}])
                for c in chunks]
    result = SynthesisResult()
    for i, res in enumerate(llm.complete_many_sync(requests)):
        if isinstance(res, LLMFailure):
            result.failures.append((i, f"{res.error_type}: {res.message}"))
            continue
        try:
            result.questions.append(parse_question(res.text))
            result.chunk_index.append(i)
        except ValueError as exc:
            result.failures.append((i, str(exc)))
    return result


def read_corpus(path: str | os.PathLike, *, field_name: str = "content") -> list[str]:
    """Chunk texts of a corpus in any layout ``ragdx run`` reads (JSONL with ``field_name`` as the
    text field, JSON ``{id: text}``, a knowledge base or a folder of documents): one reader for all."""
    from ragdx.rag.corpus import load_corpus

    return [d.text for d in load_corpus(Path(path), text_field=field_name) if d.text.strip()]
