"""Judge what a system answered: a ragdx run directory, a plain JSONL of other tools' results,
or the GRAMMAR reference's stored results, into :class:`Judgement` records."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ragdx.errors import RagdxError
from ragdx.evaluate.judges import Judge, VerdictCache, make_judge
from ragdx.evaluate.records import JudgeItem, Judgement
from ragdx.evaluate.reference import read_plain_jsonl, retrieval_verdict

_REFUSAL = re.compile(r"\b(no (such|answer|information|record|data)|not (found|available|known|stated|mentioned)|"
                      r"unknown|cannot|can't|unable|none|n/a|does not (exist|say|state|mention))\b", re.I)


def is_refusal(response: str | None) -> bool:
    return response is None or not response.strip() or bool(_REFUSAL.search(response))


def _dataset_path(run_dir: Path) -> Path | None:
    try:
        manifest = json.loads((run_dir / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RagdxError(f"cannot read the run manifest ({exc})", source=str(run_dir / "manifest.json")) from None
    path = (manifest.get("dataset") or {}).get("path")
    if not path:
        return None
    for candidate in (Path(path), run_dir / path, run_dir.parent / path):
        if candidate.exists():
            return candidate
    raise RagdxError(f"the run's dataset {path} is not there (pass the dataset explicitly)",
                     source=str(run_dir / "manifest.json"), field="dataset.path")


def _resolve_judge(judge: str | Judge, llm: Any, sets: str) -> Judge:
    return judge if isinstance(judge, Judge) else make_judge(judge, llm=llm, sets=sets)


def judge_items(items: Sequence[JudgeItem], judge: Judge, cache: VerdictCache | str | Path | None = None):
    if cache is not None and not isinstance(cache, VerdictCache):
        cache = VerdictCache(cache)
    # unanswerable queries: a refusal is the right answer; nothing to ask a judge
    todo = [i for i, it in enumerate(items) if it.answer_kind != "none"]
    verdicts = judge.judge_many([items[i] for i in todo], cache=cache) if todo else []
    out: list[Any] = [None] * len(items)
    for i, v in zip(todo, verdicts, strict=True):
        out[i] = v
    from ragdx.evaluate.judges import Verdict

    for i, it in enumerate(items):
        if out[i] is None:
            ok = is_refusal(it.response)
            out[i] = Verdict(ok, "refusal", "unanswerable: " + ("refused" if ok else "answered anyway"))
    return out


def judge_run(run_dir: str | Path, *, judge: str | Judge = "cascade", llm: Any = None, sets: str = "all",
              dataset: str | Path | Iterable[Any] | None = None, k: int | None = None,
              cache: VerdictCache | str | Path | None = None, retrieval: str = "all") -> list[Judgement]:
    """Judge every answered record of a run directory against its dataset.

    ``dataset`` defaults to the one the run's manifest names; records may also be given as
    ``QARecord`` objects. ``k`` limits the retrieved documents that count for the retrieval
    verdict; ``retrieval`` is ``all`` (every gold document retrieved, the reference's rule) or
    ``any`` (hit@k). Where the knowledge base lacks the facts (``kb_supported`` False) there is
    nothing right to retrieve, so retrieval is not judged (None): that is the knowledge base's
    failure. A failed query (``error``) is judged as no response: Incorrect."""
    from ragdx.gen.dataset import read_records
    from ragdx.rag.runner import read_run

    run_dir = Path(run_dir)
    if dataset is None:
        dataset = _dataset_path(run_dir)
        if dataset is None:
            raise RagdxError("the run's manifest names no dataset file (pass the dataset explicitly)",
                             source=str(run_dir))
    records = read_records(dataset) if isinstance(dataset, str | Path) else list(dataset)
    by_id = {r.id: r for r in records}
    outputs = read_run(run_dir)
    pairs = [(by_id[o.id], o) for o in outputs if o.id in by_id]
    if not pairs:
        raise RagdxError("no answered record of this run is in the dataset", source=str(run_dir))
    items = [JudgeItem(r.query, r.answer_rows, None if o.error else o.answer, r.answer_kind) for r, o in pairs]
    verdicts = judge_items(items, _resolve_judge(judge, llm, sets), cache)
    out = []
    for (r, o), it, v in zip(pairs, items, verdicts, strict=True):
        out.append(Judgement(
            id=r.id, group_id=r.group_id, style=r.style, correct=bool(v.correct), judge=v.judge,
            reason=(f"system error: {o.error}" if o.error else v.reason),
            retrieval_correct=(None if r.kb_supported is False
                               else retrieval_verdict(r.gold_document_ids, o.retrieved_ids, k, retrieval)),
            retrieved_ids=list(o.retrieved_ids), gold_ids=list(r.gold_document_ids), kb_supported=r.kb_supported,
            query=r.query, answer=r.answer_text, response=it.response))
    return out


def judge_plain(path: str | Path, *, judge: str | Judge = "cascade", llm: Any = None, sets: str = "all",
                k: int | None = None, cache: VerdictCache | str | Path | None = None,
                trust_stored: bool = True, retrieval: str = "all") -> list[Judgement]:
    """Judge a plain JSONL of query / answer / response / retrieved ids (see ``reference``).
    A stored ``correct`` is kept when ``trust_stored``."""
    rows = read_plain_jsonl(path)
    need = [i for i, r in enumerate(rows) if not (trust_stored and r.correct is not None)]
    verdicts = judge_items([rows[i].item for i in need], _resolve_judge(judge, llm, sets), cache)
    got = dict(zip(need, verdicts, strict=True))
    out = []
    for i, r in enumerate(rows):
        v = got.get(i)
        out.append(Judgement(
            id=r.id, group_id=r.group_id, style=r.style,
            correct=bool(r.correct) if v is None else bool(v.correct),
            judge="stored" if v is None else v.judge, reason="stored verdict" if v is None else v.reason,
            retrieval_correct=(None if r.kb_supported is False
                               else retrieval_verdict(r.gold_ids, r.retrieved_ids, k, retrieval)),
            retrieved_ids=r.retrieved_ids,
            gold_ids=r.gold_ids, kb_supported=r.kb_supported, query=r.item.query, answer=r.item.answer_text,
            response=r.item.response))
    return out


def rejudge(judgements: Sequence[Judgement], judge: str | Judge, *, llm: Any = None, sets: str = "all",
            cache: VerdictCache | str | Path | None = None) -> list[Judgement]:
    """The same queries judged again by another judge (for judge agreement)."""
    from dataclasses import replace

    items = [JudgeItem.from_text(j.query, j.answer, j.response) for j in judgements]
    verdicts = judge_items(items, _resolve_judge(judge, llm, sets), cache)
    return [replace(j, correct=bool(v.correct), judge=v.judge, reason=v.reason)
            for j, v in zip(judgements, verdicts, strict=True)]
