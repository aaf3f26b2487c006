"""Reference-free evaluators and how far to trust them (GRAMMAR §3, Table 1).

* **Faithfulness** in the RAGAS manner: the LLM splits the response into statements; each is
  checked against the retrieved context with the RAGAS NLI prompt (App. A); score = share of
  statements supported. "Correct" when score >= ``threshold``.
* **SelfCheck-QA**: ``n_samples`` answers sampled at temperature 1 from the same context and
  query, each compared with the primary answer (the system's, temperature 0) with the paper's
  SelfCheck-QA prompt (App. A). "Correct" when every sample agrees.

Each is then a classifier of "the answer is correct" against the ground truth (a reference-based
judge): precision (low = optimistic) and recall (low = cynical), with 95 % Wilson intervals.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ragdx.evaluate.stats import wilson

STATEMENTS_PROMPT = (
    "Given a question and an answer, break the answer down into simple, self-contained statements, "
    "each stating one fact. Write one statement per line, with no numbering and no other text.\n"
    "question: {query}\nanswer: {response}\nstatements:"
)
RAGAS_NLI_PROMPT = (
    "Natural language inference. Use only 'Yes' (1), 'No' (0) and 'Null' (-1) as verdict.\n"
    "context: {context}\nstatement: {statement}\nverdict:"
)
SELFCHECK_QA_PROMPT = (
    "Query: {query}\nAnswer A: {answer}\nAnswer B: {stochastic_answer}\n"
    "Do both answers address the query with equivalent meaning?\n"
    "Use only \u201cYes\u201d or \u201cNo\u201d for your evaluation:"
)
GENERATION_SYSTEM = ("You answer questions using only the given context. Answer briefly with the requested "
                     "value(s). If the context does not contain the answer, say that you do not know.")
GENERATION_USER = "Context:\n{context}\n\nQuestion: {query}"


@dataclass
class RFItem:
    """One answered query: what the reference-free evaluators see, and the ground truth."""

    id: str
    query: str
    response: str | None
    context: str
    correct: bool


@dataclass
class RFResult:
    id: str
    faithfulness: float | None = None
    statements: list[str] = field(default_factory=list)
    nli: list[int] = field(default_factory=list)
    selfcheck_agree: float | None = None
    samples: list[str] = field(default_factory=list)


def _yes_no(text: str) -> int:
    low = text.strip().casefold()
    if re.match(r"^\W*(yes|1)\b", low):
        return 1
    if re.match(r"^\W*(no|0)\b", low):
        return 0
    if re.match(r"^\W*(null|-1)\b", low):
        return -1
    return 1 if "yes" in low and "no" not in low else 0


def _split_statements(text: str) -> list[str]:
    out = []
    for line in text.splitlines():
        line = re.sub(r"^\s*(?:[-*\u2022]|\d+[.)])\s*", "", line).strip()
        if line:
            out.append(line)
    return out


async def faithfulness(llm: Any, item: RFItem) -> RFResult:
    """RAGAS-style faithfulness of one response to its context."""
    res = RFResult(item.id)
    if not item.response or not item.response.strip():
        res.faithfulness = 0.0
        return res
    split = await llm.complete([{"role": "user", "content": STATEMENTS_PROMPT.format(
        query=item.query, response=item.response)}], temperature=0)
    res.statements = _split_statements(split.text) or [item.response.strip()]
    verdicts = await asyncio.gather(*(llm.complete([{"role": "user", "content": RAGAS_NLI_PROMPT.format(
        context=item.context, statement=s)}], temperature=0) for s in res.statements))
    res.nli = [_yes_no(v.text) for v in verdicts]
    res.faithfulness = sum(1 for v in res.nli if v == 1) / len(res.nli)
    return res


async def selfcheck_qa(llm: Any, item: RFItem, n_samples: int = 4, temperature: float = 1.0) -> RFResult:
    """SelfCheck-QA: share of temperature-1 samples equivalent to the primary answer."""
    res = RFResult(item.id)
    if not item.response or not item.response.strip():
        res.selfcheck_agree = 0.0
        return res
    messages = [{"role": "system", "content": GENERATION_SYSTEM},
                {"role": "user", "content": GENERATION_USER.format(context=item.context, query=item.query)}]
    samples = await asyncio.gather(*(llm.complete(messages, sample_index=i, temperature=temperature)
                                     for i in range(n_samples)))
    res.samples = [s.text for s in samples]
    verdicts = await asyncio.gather(*(llm.complete([{"role": "user", "content": SELFCHECK_QA_PROMPT.format(
        query=item.query, answer=item.response, stochastic_answer=s)}], temperature=0) for s in res.samples))
    res.selfcheck_agree = sum(1 for v in verdicts if _yes_no(v.text) == 1) / n_samples
    return res


def classifier_stats(predicted: Sequence[bool], truth: Sequence[bool]) -> dict[str, Any]:
    """Precision / recall of "predicted correct" against the ground truth, Wilson 95 % intervals."""
    tp = sum(1 for p, t in zip(predicted, truth, strict=True) if p and t)
    fp = sum(1 for p, t in zip(predicted, truth, strict=True) if p and not t)
    fn = sum(1 for p, t in zip(predicted, truth, strict=True) if not p and t)
    tn = sum(1 for p, t in zip(predicted, truth, strict=True) if not p and not t)
    precision = tp / (tp + fp) if tp + fp else float("nan")
    recall = tp / (tp + fn) if tp + fn else float("nan")
    return {"n": len(truth), "tp": tp, "fp": fp, "fn": fn, "tn": tn,
            "precision": precision, "precision_ci": wilson(tp, tp + fp),
            "recall": recall, "recall_ci": wilson(tp, tp + fn)}


async def areliability(items: Sequence[RFItem], llm: Any, *, threshold: float = 0.5, n_samples: int = 4,
                       evaluators: Sequence[str] = ("ragas", "selfcheck")) -> dict[str, Any]:
    results: dict[str, Any] = {"n": len(items), "threshold": threshold, "n_samples": n_samples,
                               "model": getattr(llm, "model", None), "evaluators": {}}
    truth = [it.correct for it in items]
    per_item: dict[str, dict[str, Any]] = {it.id: {"id": it.id, "correct": it.correct} for it in items}
    if "ragas" in evaluators:
        rs = await asyncio.gather(*(faithfulness(llm, it) for it in items))
        pred = [(r.faithfulness or 0.0) >= threshold for r in rs]
        results["evaluators"]["RAGAS-Fact"] = classifier_stats(pred, truth)
        for r in rs:
            per_item[r.id]["faithfulness"] = r.faithfulness
    if "selfcheck" in evaluators:
        rs = await asyncio.gather(*(selfcheck_qa(llm, it, n_samples) for it in items))
        pred = [r.selfcheck_agree == 1.0 for r in rs]
        results["evaluators"]["SelfCheck-QA"] = classifier_stats(pred, truth)
        for r in rs:
            per_item[r.id]["selfcheck_agree"] = r.selfcheck_agree
    results["items"] = list(per_item.values())
    return results


def reliability(items: Sequence[RFItem], llm: Any, **kwargs: Any) -> dict[str, Any]:
    from ragdx.llm import run_sync

    return run_sync(areliability(items, llm, **kwargs))


def items_from_run(run_dir: str | Path, *, judge: Any = "cascade", llm: Any = None, dataset: Any = None,
                   limit: int | None = None) -> list[RFItem]:
    """Reference-free items of a run directory; the ground truth comes from a reference-based judge."""
    from ragdx.evaluate.runs import judge_run
    from ragdx.rag.rundir import read_run

    judged = {j.id: j for j in judge_run(run_dir, judge=judge, llm=llm, dataset=dataset)}
    out = []
    for o in read_run(run_dir):
        j = judged.get(o.id)
        if j is None:
            continue
        out.append(RFItem(o.id, o.query, None if o.error else o.answer, "\n\n".join(c.text for c in o.contexts),
                          j.correct))
        if limit is not None and len(out) >= limit:
            break
    return out


def reliability_markdown(result: dict[str, Any]) -> str:
    lines = [f"Reliability of reference-free evaluators ({result['n']} answers, model {result['model']}, "
             f"faithfulness threshold {result['threshold']}, {result['n_samples']} SelfCheck samples)", "",
             "| evaluator | precision (95 % Wilson) | recall (95 % Wilson) | TP | FP | FN | TN |",
             "|---|---|---|---:|---:|---:|---:|"]
    for name, s in result["evaluators"].items():
        def fmt(v: float, ci: Sequence[float]) -> str:
            return "–" if v != v else f"{v:.0%} ({ci[0]:.0%}–{ci[1]:.0%})"
        lines.append(f"| {name} | {fmt(s['precision'], s['precision_ci'])} | {fmt(s['recall'], s['recall_ci'])} | "
                     f"{s['tp']} | {s['fp']} | {s['fn']} | {s['tn']} |")
    return "\n".join(lines)
