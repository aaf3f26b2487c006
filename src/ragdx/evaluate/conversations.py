"""Conversations judged turn by turn, and a fourth module to blame: history handling.

A follow-up ("And who is their coordinator?") names nothing; a system must read the conversation
to know what it asks, by rewriting it into a standalone question or by passing the history to a
model that does. When a follow-up's evidence was not retrieved, two modules may be at fault: the
retriever (it would not find the documents however the question were put) or history handling
(the question it searched was not the one asked). A person tells them apart by asking the
system the standalone question (``QARecord.standalone_query``, written when the dataset was
generated) on its own: if that retrieves the evidence, the retriever can find it and the miss
belongs to the query rewriter / history handling.

:func:`standalone_probes` asks those questions through the system's ordinary interface (as
:mod:`ragdx.rag.probe` asks for documents), one probe per distinct standalone question, and
judges the retrieval by the run's own rule; :func:`history_blame` turns a follow-up's
``retrieval_failure`` into ``history_failure`` where its probe retrieved the evidence; and
:func:`conversation_scores` gives accuracy and blame per turn. The verdicts of questions asked
alone are never changed.
"""

from __future__ import annotations

import asyncio
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["HISTORY_FAILURE", "standalone_probes", "astandalone_probes", "history_blame", "conversation_scores",
           "conversations_markdown", "write_standalone_probes", "read_standalone_probes"]

#: the fourth module's verdict: the evidence was retrievable for the standalone question, not for the follow-up
#: (declared, with its label, colour and fix, in ``ragdx.evaluate.verdicts``; this module holds its rule)
HISTORY_FAILURE = "history_failure"
#: the probe's record id: never one of the dataset's (the system may log or cache by id)
_PROBE_ID = "standalone:{}"


def _followups(records: Sequence[Any]) -> list[Any]:
    return [r for r in records if getattr(r, "turn", 0) > 1 and getattr(r, "standalone_query", "")]


async def astandalone_probes(system: Any, records: Sequence[Any], *, k: int | None = None, rule: str = "evidence",
                             map_ids: Callable[[Sequence[str]], list[str]] | None = None,
                             concurrency: int = 4) -> dict[str, bool | None]:
    """Record id -> whether the standalone question of that follow-up, asked alone, retrieved its
    evidence (:func:`ragdx.evaluate.reference.retrieval_verdict` with ``k`` and ``rule``); None
    when the probe failed (an error, no contexts) or there is nothing to judge against. Each
    distinct question is asked once, without history."""
    from ragdx.evaluate.reference import retrieval_verdict
    from ragdx.rag.runner import answer_query
    from ragdx.rag.types import SystemInput

    followups = _followups(records)
    questions = sorted({r.standalone_query for r in followups})
    slots = asyncio.Semaphore(max(1, concurrency))

    async def ask(i: int, q: str) -> tuple[str, list[str] | None]:
        async with slots:
            out = await answer_query(system, SystemInput(id=_PROBE_ID.format(i), query=q))
        if out.error or not out.contexts:
            return q, None  # a failed probe says nothing about the retriever
        ids = out.retrieved_ids
        return q, map_ids(ids) if map_ids is not None else list(ids)

    got = dict(await asyncio.gather(*(ask(i, q) for i, q in enumerate(questions))))
    out: dict[str, bool | None] = {}
    for r in followups:
        ids = got.get(r.standalone_query)
        out[r.id] = None if ids is None else retrieval_verdict(
            r.gold_document_ids, ids, k, rule, getattr(r, "evidence_sets", None) or ())
    return out


def standalone_probes(system: Any, records: Sequence[Any], **options: Any) -> dict[str, bool | None]:
    """:func:`astandalone_probes` from synchronous code."""
    from ragdx.llm import run_sync

    return run_sync(astandalone_probes(system, records, **options))


def write_standalone_probes(run_dir: str | Path, probes: Mapping[str, bool | None]) -> Path:
    """The probes beside the run (``RunPaths.standalone_probes``), one ``{id, retrieved}`` a line."""
    from ragdx.rag.rundir import RunPaths
    from ragdx.store import write_jsonl

    path = RunPaths(Path(run_dir)).standalone_probes
    write_jsonl(path, [{"id": rid, "retrieved": found} for rid, found in sorted(probes.items())])
    return path


def read_standalone_probes(run_dir: str | Path) -> dict[str, bool | None]:
    """What :func:`write_standalone_probes` wrote; empty when the run has none."""
    from ragdx.errors import RagdxError
    from ragdx.rag.rundir import RunPaths
    from ragdx.store import iter_jsonl

    path = RunPaths(Path(run_dir)).standalone_probes
    if not path.exists():
        return {}
    out: dict[str, bool | None] = {}
    for number, obj in iter_jsonl(path):
        if not isinstance(obj.get("id"), str) or obj.get("retrieved") not in (True, False, None):
            raise RagdxError("expected 'id' (text) and 'retrieved' (true, false or null)", source=str(path),
                             field=f"line {number}")
        out[obj["id"]] = obj["retrieved"]
    return out


def history_blame(verdicts: Sequence[Mapping[str, Any]], probes: Mapping[str, bool | None],
                  rewrites: Mapping[str, str] | None = None,
                  standalone: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """``verdicts`` (:func:`ragdx.evaluate.protocol.blame`'s rows) with each follow-up's retrieval
    failure whose standalone question retrieved the evidence (``probes[id]`` True) blamed on
    history handling instead; every other row is copied unchanged. ``rewrites``: the question the
    system searched (``SystemOutput.rewritten_query``), ``standalone``: the dataset's, both quoted
    in the verdict's ``why`` when known."""
    out = []
    for v in verdicts:
        row = dict(v)
        if row.get("verdict") == "retrieval_failure" and probes.get(row["id"]) is True:
            asked = (standalone or {}).get(row["id"])
            searched = (rewrites or {}).get(row["id"])
            why = "the evidence was retrievable for the standalone question"
            why += f" ({asked!r})" if asked else ""
            why += " but was not retrieved for the follow-up"
            why += f": the system searched {searched!r}" if searched else ""
            row.update(verdict=HISTORY_FAILURE, basis="standalone_probe", confidence="high", why=why, unsure=False)
        out.append(row)
    return out


def conversation_scores(verdicts: Sequence[Mapping[str, Any]], turns: Mapping[str, int],
                        conversations: Mapping[str, str] | None = None) -> dict[str, Any] | None:
    """Accuracy and blame per turn over the records that are turns of a conversation (``turns``:
    id -> turn, 0 for a question asked alone), and how many whole conversations were answered
    right (``conversations``: id -> conversation id); None when no record is a turn."""
    rows = [v for v in verdicts if turns.get(v["id"], 0) > 0 and v.get("verdict") != "unjudged"]
    if not rows:
        return None
    by_turn: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for v in rows:
        by_turn[turns[v["id"]]].append(v)
    per_turn = {}
    for turn, vs in sorted(by_turn.items()):
        counts = Counter(v["verdict"] for v in vs)
        per_turn[str(turn)] = {"records": len(vs), "correct": counts.get("correct", 0),
                               "accuracy": counts.get("correct", 0) / len(vs),
                               "blame": {k: n for k, n in sorted(counts.items()) if k != "correct"}}
    followups = [v for v in rows if turns[v["id"]] > 1]
    result: dict[str, Any] = {
        "records": len(rows), "follow_ups": len(followups),
        "history_failures": sum(v["verdict"] == HISTORY_FAILURE for v in followups), "by_turn": per_turn}
    if conversations:
        whole: dict[str, bool] = {}
        for v in rows:
            cid = conversations.get(v["id"])
            if cid:
                whole[cid] = whole.get(cid, True) and v["verdict"] == "correct"
        result["conversations"] = len(whole)
        result["conversations_all_correct"] = sum(whole.values())
    return result


def conversations_markdown(scores: Mapping[str, Any]) -> str:
    """``summary.md``'s section: per turn, accuracy and what the failures are blamed on."""
    lines = ["| turn | records | correct | accuracy | history handling | retrieval | language model | other |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for turn, row in scores["by_turn"].items():
        blame = dict(row["blame"])
        named = [blame.pop(k, 0) for k in (HISTORY_FAILURE, "retrieval_failure", "lm_failure")]
        lines.append(f"| {turn} | {row['records']} | {row['correct']} | {row['accuracy']:.1%} | "
                     + " | ".join(str(n) for n in named) + f" | {sum(blame.values())} |")
    text = "\n".join(lines)
    text += (f"\n\n{scores['history_failures']} of {scores['follow_ups']} follow-ups blamed on history handling "
             "(their standalone question, asked alone, retrieved the evidence; the follow-up did not).")
    if "conversations" in scores:
        text += (f" {scores['conversations_all_correct']} of {scores['conversations']} conversations answered "
                 "right at every turn.")
    return text
