"""The RAG lab's metrics (academic-optimisations paper §4.4, §5): hit rate@k and MRR from gold
ids, ROUGE-L (``rouge-score``), BERTScore, G-Eval scores by LLM, and the RAG confusion matrix.

BERTScore here is computed on the packaged MiniLM (all-MiniLM-L6-v2, last layer, greedy cosine
matching, no IDF weighting, no baseline rescaling) — NOT the paper's backbone (roberta-large), so
its values are not comparable with published BERTScores; every result says so.
"""

from __future__ import annotations

import asyncio
import functools
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

BERTSCORE_NOTE = ("BERTScore on the packaged all-MiniLM-L6-v2 (layer 6, greedy matching, no idf, no rescaling); "
                  "not the paper's roberta-large backbone, values are not comparable with published ones")

GEVAL_CRITERIA = {
    "relevance": "Relevance (1-5): how well the answer addresses the question, without off-topic content.",
    "coherence": "Coherence (1-5): the answer is well-structured and logically organised.",
    "fluency": "Fluency (1-5): the answer is grammatical, natural and easy to read.",
    "faithfulness": "Faithfulness (1-5): every claim in the answer is supported by the context.",
}
GEVAL_PROMPT = (
    "You will be given a question, the context retrieved for it and an answer. Rate the answer on one "
    "criterion.\n\nEvaluation criterion:\n{criterion}\n\nEvaluation steps:\n1. Read the question, the "
    "context and the answer carefully.\n2. Judge the answer on the criterion only.\n3. Give a score from "
    "1 (worst) to 5 (best).\n\nQuestion: {query}\n\nContext: {context}\n\nAnswer: {response}\n\n"
    "Score (a single number from 1 to 5):"
)


# ----------------------------------------------------------------------------- retrieval


def hit_rate(gold: Sequence[Sequence[str]], retrieved: Sequence[Sequence[str]], k: int = 5) -> float:
    """Share of queries (with gold ids) with at least one gold document in the top ``k``."""
    pairs = [(set(g), list(r)[:k]) for g, r in zip(gold, retrieved, strict=True) if g]
    return sum(1 for g, r in pairs if g & set(r)) / len(pairs) if pairs else float("nan")


def mrr(gold: Sequence[Sequence[str]], retrieved: Sequence[Sequence[str]], k: int | None = None) -> float:
    """Mean reciprocal rank of the first gold document (0 when none is retrieved)."""
    total, n = 0.0, 0
    for g, r in zip(gold, retrieved, strict=True):
        if not g:
            continue
        n += 1
        for rank, doc in enumerate(list(r)[:k] if k else r, 1):
            if doc in set(g):
                total += 1 / rank
                break
    return total / n if n else float("nan")


# ----------------------------------------------------------------------------- ROUGE-L


#: what ``lab_metrics`` reports for ROUGE-L when told to leave it out (``--no-rouge``): its
#: tokeniser needs NLTK's Porter stemmer, and importing NLTK (it pulls in scikit-learn) is most of
#: its cost
ROUGE_NOT_COMPUTED = "not computed (--no-rouge)"


def rouge_l(references: Sequence[str], predictions: Sequence[str]) -> list[float]:
    """ROUGE-L F-measure per pair, exactly ``rouge-score``'s (its tokeniser with Porter stemming,
    F-measure of the longest common subsequence). Each distinct pair is scored once, tokens are
    memoised per text and the LCS length is computed bit-parallel instead of by rouge-score's
    pure-Python table; ``tests/test_scale.py`` holds the scores equal to rouge-score's own."""
    tokens = _rouge_tokenizer()
    memo: dict[tuple[str, str], float] = {}
    out = []
    for ref, pred in zip(references, predictions, strict=True):
        key = (ref or "", pred or "")
        score = memo.get(key)
        if score is None:
            score = memo[key] = _rouge_l_fmeasure(tokens(key[0]), tokens(key[1]))
        out.append(score)
    return out


def _rouge_l_fmeasure(target: Sequence[str], prediction: Sequence[str]) -> float:
    # rouge_scorer._score_lcs, with the same arithmetic
    if not target or not prediction:
        return 0
    lcs = lcs_length(target, prediction)
    precision, recall = lcs / len(prediction), lcs / len(target)
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


def lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    """Length of the longest common subsequence of two token sequences, bit-parallel (Hyyrö 2004):
    one bit per position of the longer sequence, a few integer operations per token of the shorter."""
    if len(a) > len(b):
        a, b = b, a
    masks: dict[str, int] = {}
    for i, token in enumerate(b):
        masks[token] = masks.get(token, 0) | (1 << i)
    full = (1 << len(b)) - 1
    v = full
    for token in a:
        u = v & masks.get(token, 0)
        v = ((v + u) | (v - u)) & full
    return len(b) - v.bit_count()


@functools.cache
def _rouge_tokenizer() -> Callable[[str], tuple[str, ...]]:
    """rouge-score's ``tokenize`` with its Porter stemmer, memoised per word and per text: a
    run's answers and gold texts repeat the same few thousand words (and often whole texts)."""
    from rouge_score import tokenize

    class _Stemmer:
        stem = staticmethod(functools.lru_cache(maxsize=200_000)(porter_stemmer().stem))

    @functools.lru_cache(maxsize=100_000)
    def tokens(text: str) -> tuple[str, ...]:
        return tuple(tokenize.tokenize(text, _Stemmer))

    return tokens


def porter_stemmer() -> Any:  # nltk has no types: its PorterStemmer
    """NLTK's Porter stemmer (the one rouge-score stems with) without running NLTK's package
    ``__init__``, which imports scikit-learn and SciPy for its classifiers: ~1.3 s of a 100k-query
    evaluation's ~19 (py-spy), for one module of pure Python. The module is imported under its own
    names beneath bare stand-ins for ``nltk`` and ``nltk.stem``, which are then taken out of
    ``sys.modules`` again (with every ``nltk.*`` module loaded beneath them), so that a later
    ``import nltk`` is the real one. Where NLTK is already imported or is laid out otherwise, the
    ordinary import (the same class, the same stems; ``tests/test_text_metrics_fast.py``)."""
    import importlib
    import importlib.util
    import os
    import sys
    import types

    spec = None if "nltk" in sys.modules else importlib.util.find_spec("nltk")
    if spec is not None and spec.submodule_search_locations:
        root = list(spec.submodule_search_locations)[0]
        try:
            for name, path in (("nltk", root), ("nltk.stem", os.path.join(root, "stem"))):
                stand_in = types.ModuleType(name)
                stand_in.__path__ = [path]
                sys.modules[name] = stand_in
            return importlib.import_module("nltk.stem.porter").PorterStemmer()
        except (ImportError, AttributeError):
            pass  # another NLTK layout: the ordinary import below gives the same stemmer
        finally:
            for name in [n for n in sys.modules if n == "nltk" or n.startswith("nltk.")]:
                del sys.modules[name]
    from nltk.stem import porter

    return porter.PorterStemmer()


# ----------------------------------------------------------------------------- BERTScore


class BERTScorer:
    """Greedy-matching BERTScore on a local transformer (the packaged MiniLM by default)."""

    def __init__(self, model_path: str | None = None, layer: int | None = None, batch_size: int = 32):
        import torch
        from transformers import AutoModel, AutoTokenizer

        if model_path is None:
            from ragdx.embed import packaged_model_path

            model_path = str(packaged_model_path())
        self.model_path = model_path
        self.tokenizer = AutoTokenizer.from_pretrained(model_path)
        self.model = AutoModel.from_pretrained(model_path).eval()
        self.layer = layer  # None: the last layer
        self.batch_size = batch_size
        self._torch = torch

    def _embed(self, texts: Sequence[str]) -> list[np.ndarray]:
        torch = self._torch
        out: list[np.ndarray] = []
        for i in range(0, len(texts), self.batch_size):
            batch = [t or "" for t in texts[i:i + self.batch_size]]
            enc = self.tokenizer(batch, padding=True, truncation=True, max_length=256, return_tensors="pt")
            with torch.inference_mode():
                hidden = self.model(**enc, output_hidden_states=self.layer is not None)
            states = hidden.last_hidden_state if self.layer is None else hidden.hidden_states[self.layer]
            states = torch.nn.functional.normalize(states, dim=-1)
            for j in range(len(batch)):
                mask = enc["attention_mask"][j].bool()
                ids = enc["input_ids"][j][mask]
                keep = ~torch.isin(ids, torch.tensor(self.tokenizer.all_special_ids))
                out.append(states[j][mask][keep].numpy())
        return out

    def score(self, references: Sequence[str], predictions: Sequence[str]) -> dict[str, list[float]]:
        refs, preds = self._embed(list(references)), self._embed(list(predictions))
        p_out, r_out, f_out = [], [], []
        for r, p in zip(refs, preds, strict=True):
            if len(r) == 0 or len(p) == 0:
                p_out.append(0.0)
                r_out.append(0.0)
                f_out.append(0.0)
                continue
            sim = p @ r.T
            precision = float(sim.max(axis=1).mean())
            recall = float(sim.max(axis=0).mean())
            p_out.append(precision)
            r_out.append(recall)
            f_out.append(2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0)
        return {"precision": p_out, "recall": r_out, "f1": f_out, "note": BERTSCORE_NOTE}  # type: ignore[dict-item]


# ----------------------------------------------------------------------------- G-Eval


def _score(text: str) -> int | None:
    m = re.search(r"[1-5]", text)
    return int(m.group(0)) if m else None


async def ageval(llm: Any, query: str, context: str, response: str | None,
                 criteria: Sequence[str] = tuple(GEVAL_CRITERIA)) -> dict[str, int | None]:
    """G-Eval-style 1-5 scores, one LLM call per criterion (temperature 0)."""
    async def one(c: str) -> int | None:
        if not response:
            return 1
        try:
            out = await llm.complete([{"role": "user", "content": GEVAL_PROMPT.format(
                criterion=GEVAL_CRITERIA[c], query=query, context=context, response=response)}], temperature=0)
        except Exception:  # retries exhausted: no score (counted as failed by geval_metrics), never a made-up one
            return None
        return _score(out.text)

    scores = await asyncio.gather(*(one(c) for c in criteria))
    return dict(zip(criteria, scores, strict=True))


def geval(llm: Any, items: Sequence[tuple[str, str, str | None]], criteria: Sequence[str] = tuple(GEVAL_CRITERIA)
          ) -> list[dict[str, int | None]]:
    """Scores for (query, context, response) triples."""
    from ragdx.llm import run_sync

    async def all_items() -> list[dict[str, int | None]]:
        return await asyncio.gather(*(ageval(llm, q, c, r, criteria) for q, c, r in items))

    return list(run_sync(all_items()))


def geval_metrics(llm: Any, judgements: Sequence[Any], contexts: Mapping[str, str], *,
                  criteria: Sequence[str] = tuple(GEVAL_CRITERIA), threshold: int = 4) -> dict[str, Any]:
    """The lab's LLM criteria over judged queries (academic-RAG paper §4.4): the mean 1-5 score per
    criterion, how many items were scored and how many failed (an unparsable reply or a call whose
    retries ran out: excluded and counted, never a silent NaN), and one RAG confusion matrix per
    criterion (acceptable = score >= ``threshold``; retrieved = the query's retrieval verdict) beside
    the ground-truth one."""
    items = [(j.query, contexts.get(j.id, ""), j.response) for j in judgements]
    scores = geval(llm, items, criteria)
    match = [bool(j.retrieval_correct) for j in judgements]
    out: dict[str, Any] = {"threshold": threshold, "criteria": {}, "confusion": {}}
    for c in criteria:
        values = [s.get(c) for s in scores]
        kept = [(m, v) for m, v in zip(match, values, strict=True) if v is not None]
        out["criteria"][c] = {"mean": float(np.mean([v for _, v in kept])) if kept else float("nan"),
                              "scored": len(kept), "failed": len(values) - len(kept)}
        out["confusion"][c] = rag_confusion([m for m, _ in kept], [v >= threshold for _, v in kept])
    out["confusion"]["ground truth"] = rag_confusion(match, [bool(j.correct) for j in judgements])
    out["scores"] = {j.id: s for j, s in zip(judgements, scores, strict=True)}
    return out


# ----------------------------------------------------------------------------- RAG confusion matrix


def rag_confusion(match: Sequence[bool], acceptable: Sequence[bool]) -> dict[str, int]:
    """Relevant document retrieved (Match) x acceptable answer: TP = match & acceptable,
    FN = match & not acceptable, FP = no match & acceptable, TN = no match & not acceptable."""
    out = {"TP": 0, "FN": 0, "FP": 0, "TN": 0}
    for m, a in zip(match, acceptable, strict=True):
        out[("TP" if a else "FN") if m else ("FP" if a else "TN")] += 1
    return out


def rag_confusion_table(match: Sequence[bool], scores: dict[str, Sequence[int | None]] | None = None,
                        truth: Sequence[bool] | None = None, threshold: int = 5) -> dict[str, dict[str, int]]:
    """One confusion matrix per G-Eval criterion (acceptable = score >= ``threshold``) and, given
    ``truth``, one for the ground-truth verdict."""
    out = {}
    for name, values in (scores or {}).items():
        out[name] = rag_confusion(match, [(v or 0) >= threshold for v in values])
    if truth is not None:
        out["ground truth"] = rag_confusion(match, truth)
    return out


def confusion_markdown(table: dict[str, dict[str, int]]) -> str:
    lines = ["| criterion | Match: acceptable (TP) | Match: not (FN) | No match: acceptable (FP) | "
             "No match: not (TN) |", "|---|---:|---:|---:|---:|"]
    for name, c in table.items():
        lines.append(f"| {name} | {c['TP']} | {c['FN']} | {c['FP']} | {c['TN']} |")
    return "\n".join(lines)


def lab_metrics(judgements: Sequence[Any], *, k: int = 5, bertscore: bool = False,
                scorer: BERTScorer | None = None, rule: str = "evidence", rouge: bool = True) -> dict[str, Any]:
    """Hit rate@1 and @k, MRR, mean ROUGE-L (unless ``rouge=False``: then ``rouge_l`` says it was not
    computed) and BERTScore F1 (with ``bertscore``) and the ground-truth confusion
    matrix of judged queries, all retrieval numbers by the one rule the evaluation names
    (``config.RULE_WORDS``): a hit@k is "the top k hold the evidence", the MRR uses the rank at
    which they first do, and the confusion matrix's "relevant document retrieved" is the query's
    retrieval verdict (what the system gave its language model). Queries whose facts the knowledge
    base lacks have nothing relevant to retrieve; they count as "no relevant document"."""
    from ragdx.evaluate.config import RULE_WORDS
    from ragdx.evaluate.reference import evidence_rank, retrieval_verdict

    judged = [j for j in judgements if j.retrieval_correct is not None]
    refs = [j.answer for j in judgements]
    preds = [j.response or "" for j in judgements]

    def hit(j: Any, top: int) -> bool:
        return bool(retrieval_verdict(j.gold_ids, j.retrieved_ids, top, rule, getattr(j, "evidence_sets", ())))

    def by_evidence(j: Any) -> bool:
        sets = getattr(j, "evidence_sets", None)
        return bool(rule == "evidence" and sets and any(sets))

    def rank(j: Any) -> int | None:
        if by_evidence(j):
            return evidence_rank(j.evidence_sets, list(j.retrieved_ids))
        for r in range(1, len(j.retrieved_ids) + 1):
            if hit(j, r):
                return r
        return None

    nan = float("nan")
    ranks = [rank(j) for j in judged]
    # by the evidence rule a hit@n is "the evidence is held by rank n": read off the rank, found once
    hits1 = [r is not None and r <= 1 if by_evidence(j) else hit(j, 1) for j, r in zip(judged, ranks, strict=True)]
    hitsk = [r is not None and r <= k if by_evidence(j) else hit(j, k) for j, r in zip(judged, ranks, strict=True)]
    out: dict[str, Any] = {
        "retrieval_rule": RULE_WORDS.get(rule, rule),
        "hit_rate@1": sum(hits1) / len(judged) if judged else nan,
        f"hit_rate@{k}": sum(hitsk) / len(judged) if judged else nan,
        "mrr": sum(1 / r for r in ranks if r) / len(judged) if judged else nan,
        "rouge_l": (float(np.mean(rouge_l(refs, preds))) if refs else nan) if rouge else ROUGE_NOT_COMPUTED}
    if bertscore:
        s = (scorer or BERTScorer()).score(refs, preds)
        out["bertscore_f1"] = float(np.mean(s["f1"])) if refs else nan
        out["bertscore_note"] = BERTSCORE_NOTE
    match = [bool(j.retrieval_correct) for j in judgements]
    out["confusion_ground_truth"] = rag_confusion(match, [j.correct for j in judgements])
    return out
