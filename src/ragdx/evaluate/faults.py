"""Fault injection: is ragdx's module diagnosis right when the truth is known?

A claim such as "the retriever is to blame" is only as good as a measurement showing that ragdx
finds the module that was deliberately broken. This module simulates a *strong* RAG system over
a dataset and a corpus — retrieval that returns the documents stating the answer's facts, a reader
that answers right exactly when the retrieved text states the answer — and breaks it on purpose,
per query, at set rates and seeds:

* **retriever faults**: the evidence replaced by distractors (documents that do not state the
  answer), on all queries or on one style only (a non-robust retriever);
* **language-model faults**: a wrong value or a hedged list of candidates although the evidence was
  retrieved;
* **knowledge-base faults**: the documents stating a fact deleted from the corpus the system
  searches (every query needing that document loses its evidence).

The truth of every query follows from what was injected (``truth``); ragdx's verdicts come from
its own path — the dataset's evidence re-derived for the corpus the system searches, the offline
judge, ``blame`` — and are compared with the truth (precision and recall per verdict, a
confusion table). Comparisons between two simulated systems measure false positives for a module
that did not change, and power for one degraded by a known amount.

Fault decisions are seeded per fault kind and query (a hash, not a shared random stream), so two
systems with the same ``retrieval_seed`` retrieve identically and two with the same ``lm_seed``
have identical readers, whatever else differs.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ragdx.evaluate.judges import Judge, Verdict, make_judge
from ragdx.evaluate.protocol import MODULE_VERDICTS, VERDICTS, blame
from ragdx.evaluate.records import JudgeItem
from ragdx.kb.normalise import fold
from ragdx.rag.types import RetrievedContext, SystemOutput

if TYPE_CHECKING:
    from ragdx.evaluate.runs import Judged

REFUSAL = "I could not find this in the documents."
#: what the strong reader says when the evidence states that no value is recorded (a NULL answer)
NO_VALUE = "There is no recorded value."


@dataclass(frozen=True)
class FaultPlan:
    """What to break, how often, with which seeds."""

    retrieval: float = 0.0
    #: restrict retriever faults to one style (a retriever that is not robust to that style)
    retrieval_style: str | None = None
    lm: float = 0.0
    #: ``wrong`` (another value), ``hedged`` (a list of candidates, the right one among them) or ``mixed``
    lm_kind: str = "mixed"
    #: share of the evidence documents deleted from the corpus the system searches (at least one)
    kb: float = 0.0
    retrieval_seed: int = 0
    lm_seed: int = 0
    kb_seed: int = 0
    top_k: int = 5


def _u(seed: int, kind: str, key: str) -> float:
    """A uniform number in [0, 1) from (seed, kind, key): the same decision for the same query."""
    digest = hashlib.blake2b(f"{kind}:{seed}:{key}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64


def _fold(text: str) -> str:
    # the judges' case and accent folding, with whitespace runs collapsed for substring tests
    return re.sub(r"\s+", " ", fold(str(text))).strip()


@dataclass
class Testbed:
    """A dataset, the corpus its system searches, and the true evidence of every record.

    ``truth_evidence``: record id -> one list of document ids per fact the answer needs (on a
    knowledge base ragdx rendered this is its fact index; on a user's corpus a reference's gold).
    ``relink``: given the documents left after knowledge-base faults, the records as ragdx would
    describe them for that corpus (evidence sets, ``kb_supported``) — by default the records'
    own evidence sets with the deleted documents removed (exactly what the fact index of the
    reduced corpus says); pass the evidence linker to measure it too."""

    records: list[Any]
    corpus: dict[str, str]
    truth_evidence: dict[str, list[list[str]]]
    relink: Callable[[Sequence[Any], set[str]], list[Any]] | None = None
    name: str = ""
    #: how the strong reader tells that a text states a value (default: folded substring); a corpus
    #: written by people may word dates and numbers differently ("May 1, 2023")
    states_value: Callable[[str, str], bool] | None = None
    _folded: dict[str, str] = field(default_factory=dict, repr=False)
    _stating: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)

    def folded(self, doc_id: str) -> str:
        hit = self._folded.get(doc_id)
        if hit is None:
            hit = self._folded[doc_id] = _fold(self.corpus.get(doc_id, ""))
        return hit

    def states(self, doc_ids: Sequence[str], values: Sequence[str]) -> bool:
        """The documents' text, together, states every value."""
        if not values:
            return False
        if self.states_value is not None:
            text = "\n\n".join(self.corpus.get(d, "") for d in doc_ids)
            return all(self.states_value(text, v) for v in values)
        text = " ".join(self.folded(d) for d in doc_ids)
        return all(_fold(v) in text for v in values)

    def stating(self, record: Any, values: Sequence[str]) -> frozenset[str]:
        """The documents whose text states every answer value of ``record`` (computed once)."""
        hit = self._stating.get(record.id)
        if hit is None:
            hit = frozenset(d for d in self.corpus if self.states([d], values))
            self._stating[record.id] = hit
        return hit

    def records_for(self, deleted: set[str]) -> list[Any]:
        if self.relink is not None:
            return self.relink(self.records, deleted)
        return [drop_documents(r, deleted) for r in self.records]


def drop_documents(record: Any, deleted: set[str]) -> Any:
    """The record as the fact index of a corpus without ``deleted`` describes it."""
    if not deleted or not record.evidence_sets:
        return record
    sets = [[d for d in s if d not in deleted] for s in record.evidence_sets]
    supported = None if record.kb_supported is None else bool(record.kb_supported and all(sets))
    return replace(record, evidence_sets=sets, gold_document_ids=sorted({d for s in sets for d in s}),
                   kb_supported=supported)


@dataclass
class Simulated:
    """One simulated run: what the system said, and the truth of every query."""

    outputs: list[SystemOutput]
    truth: dict[str, str]
    deleted: set[str]
    records: list[Any]


def _answer_values(record: Any) -> list[str]:
    from ragdx.gen.dataset import value_text

    # rendered as the knowledge base renders values (3120000.0 is written 3120000)
    return [value_text(v) for row in record.answer_rows for v in row if v is not None]


def _other_answers(records: Sequence[Any]) -> dict[str, list[str]]:
    by_template: dict[str, list[str]] = {}
    for r in records:
        if r.answer_kind != "none" and r.answer_text:
            by_template.setdefault(r.sql_template_id, [])
            if r.answer_text not in by_template[r.sql_template_id]:
                by_template[r.sql_template_id].append(r.answer_text)
    return by_template


def simulate(bed: Testbed, plan: FaultPlan) -> Simulated:
    """Run the strong system with ``plan``'s faults over ``bed``; the truth per query."""
    # knowledge-base faults: delete a share of the documents that state some record's facts (at
    # least one when the share is positive): every query needing one of them loses that evidence
    deleted: set[str] = set()
    if plan.kb > 0:
        evidence_docs = sorted({d for sets in bed.truth_evidence.values() for s in sets for d in s})
        ranked = sorted(evidence_docs, key=lambda d: _u(plan.kb_seed, "kb", d))
        deleted = set(ranked[:max(1, round(plan.kb * len(ranked)))])
    available = [d for d in bed.corpus if d not in deleted]
    others = _other_answers(bed.records)
    outputs, truth = [], {}
    for r in bed.records:
        true_sets = [[d for d in s if d not in deleted] for s in bed.truth_evidence.get(r.id, [])]
        # the truth only: an omitted fact has an empty evidence list, a deleted document empties one
        kb_gap = not true_sets or any(not s for s in true_sets)
        values = _answer_values(r)
        evidence = list(dict.fromkeys(s[0] for s in true_sets if s))
        retrieval_fault = (plan.retrieval > 0 and (plan.retrieval_style is None or r.style == plan.retrieval_style)
                           and _u(plan.retrieval_seed, "retrieval", r.id) < plan.retrieval)
        rng = random.Random(f"{plan.retrieval_seed}:{r.id}")
        # a distractor never states the answer, so a retrieval fault always deprives the reader
        banned = {d for s in true_sets for d in s} | bed.stating(r, values)
        need = plan.top_k - (0 if retrieval_fault else len(evidence))
        distractors: list[str] = []
        for d in rng.sample(available, min(len(available), 4 * plan.top_k + 8)):
            if len(distractors) >= need:
                break
            if d not in banned:
                distractors.append(d)
        retrieved = distractors if retrieval_fault else evidence + distractors
        if values:
            stated = r.answer_kind != "none" and bed.states(retrieved, values)
        else:  # a NULL answer: the evidence states that nothing is recorded
            stated = r.answer_kind != "none" and bool(true_sets) and all(set(s) & set(retrieved) for s in true_sets)
        lm_fault = plan.lm > 0 and _u(plan.lm_seed, "lm", r.id) < plan.lm
        if r.answer_kind == "none":
            answer = REFUSAL
        elif not stated:
            answer = REFUSAL
        elif lm_fault:
            kind = plan.lm_kind if plan.lm_kind != "mixed" else ("wrong" if _u(plan.lm_seed, "kind", r.id) < 0.5
                                                                   else "hedged")
            pool = [a for a in others.get(r.sql_template_id, []) if _fold(a) != _fold(r.answer_text)
                    and _fold(r.answer_text) not in _fold(a)]
            wrong = pool[int(_u(plan.lm_seed, "pick", r.id) * len(pool))] if pool else "unknown"
            if kind == "hedged" and pool:
                second = pool[(int(_u(plan.lm_seed, "pick2", r.id) * len(pool)) + 1) % len(pool)]
                answer = f"It may be {wrong}, {r.answer_text} or {second}."
            else:
                answer = wrong
        else:
            answer = r.answer_text if values else NO_VALUE
        right = r.answer_kind == "none" or (stated and not lm_fault)
        if right:
            truth[r.id] = "correct"
        elif kb_gap:
            truth[r.id] = "kb_gap"
        elif retrieval_fault:
            truth[r.id] = "retrieval_failure"
        else:  # the evidence was retrieved: an injected LM fault, or the reader could not read it
            truth[r.id] = "lm_failure"
        outputs.append(SystemOutput(id=r.id, query=r.query, answer=answer,
                                    contexts=[RetrievedContext(id=d, text="", score=None) for d in retrieved]))
    return Simulated(outputs, truth, deleted, bed.records_for(deleted))


class MemoJudge(Judge):
    """A judge whose verdicts are remembered in memory (simulated answers repeat across seeds)."""

    def __init__(self, inner: Judge):
        self.inner = inner
        self.name = inner.name
        self._memo: dict[tuple[Any, ...], Verdict] = {}

    def config(self) -> dict[str, Any]:
        return self.inner.config()

    def judge(self, item: JudgeItem) -> Verdict:
        key = (item.query, repr(item.answer_rows), item.response, item.answer_kind)
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = self.inner.judge(item)
        return hit


def diagnose(sim: Simulated, judge: Judge | None = None) -> tuple[Judged, dict[str, str]]:
    """ragdx's judgements and per-query verdicts for a simulated run (its normal path)."""
    from ragdx.evaluate.runs import judge_outputs

    judged = judge_outputs(sim.records, sim.outputs, judge=judge or make_judge("cascade"))
    return judged, {v["id"]: v["verdict"] for v in blame(judged)}


@dataclass
class VerdictScore:
    """ragdx's verdicts against the injected truth."""

    confusion: dict[str, dict[str, int]]
    n: int

    def precision(self, verdict: str) -> float:
        said = sum(self.confusion[t].get(verdict, 0) for t in self.confusion)
        return self.confusion.get(verdict, {}).get(verdict, 0) / said if said else float("nan")

    def recall(self, verdict: str) -> float:
        true = sum(self.confusion.get(verdict, {}).values())
        return self.confusion.get(verdict, {}).get(verdict, 0) / true if true else float("nan")

    def support(self, verdict: str) -> int:
        return sum(self.confusion.get(verdict, {}).values())


def score_verdicts(truth: Mapping[str, str], verdicts: Mapping[str, str]) -> VerdictScore:
    confusion: dict[str, dict[str, int]] = {t: {} for t in MODULE_VERDICTS}
    for qid, t in truth.items():
        v = verdicts.get(qid, "missing")
        confusion.setdefault(t, {})
        confusion[t][v] = confusion[t].get(v, 0) + 1
    return VerdictScore(confusion, len(truth))


def add_scores(scores: Sequence[VerdictScore]) -> VerdictScore:
    total: dict[str, Counter[str]] = {}
    for s in scores:
        for t, row in s.confusion.items():
            total.setdefault(t, Counter()).update(row)
    return VerdictScore({t: dict(c) for t, c in total.items()}, sum(s.n for s in scores))


def confusion_markdown(score: VerdictScore) -> str:
    cols = [*VERDICTS, *sorted({v for row in score.confusion.values() for v in row} - set(VERDICTS))]
    lines = ["| injected truth ↓ / ragdx says → | " + " | ".join(cols) + " | recall |",
             "|---|" + "---:|" * (len(cols) + 1)]
    for t in MODULE_VERDICTS:  # the truth is always one module; ragdx may say it is unsure
        row = score.confusion.get(t, {})
        rec = score.recall(t)
        lines.append(f"| {t} | " + " | ".join(str(row.get(c, 0)) for c in cols)
                     + f" | {'–' if rec != rec else f'{rec:.3f}'} |")
    prec = [score.precision(c) if c in MODULE_VERDICTS else float("nan") for c in cols]
    lines.append("| precision | " + " | ".join("–" if p != p else f"{p:.3f}" for p in prec) + " | |")
    return "\n".join(lines)
