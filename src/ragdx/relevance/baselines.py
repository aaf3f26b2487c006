"""Baselines the GoF tests are compared with. Every score: larger = more out-of-knowledge.

* Outlier detectors on query embeddings, fitted on the same in-knowledge calibration queries the
  tester uses (the paper fitted them on synthetic in-knowledge queries; using the same set keeps
  the comparison fair): one-class SVM, LOF, KDE and COPOD from PyOD with its default parameters,
  as in the paper, and Mahalanobis distance.
  Mahalanobis uses a Ledoit–Wolf shrunk covariance rather than PyOD's MCD: with ~500 queries in
  384 dimensions the sample (and MCD) covariance is nearly singular, and inverting it measures
  noise in the smallest eigen-directions rather than distance.
* Length-only, in both directions, because which one flags out-of-knowledge queries depends on
  the data: ``length`` (longer = more out-of-knowledge) and ``length-short`` (shorter = more
  out-of-knowledge; where the in-knowledge questions are the long ones, as MedQA-style questions
  on a textbook, ``length`` alone shows an AUROC near 0 although length is a near-perfect
  detector), and ``length-dev``, the two-sided distance of log length from the calibration
  median, the one orientation that needs no out-of-knowledge data. A detector that does no better
  than these only tells datasets apart.
* The LM relevance score with the paper's prompt (its Table 12), when an LLM is configured.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ragdx.errors import RagdxError

EMBEDDING_BASELINES: tuple[str, ...] = ("maha", "svm", "lof", "kde", "copod")
LENGTH_BASELINES: tuple[str, ...] = ("length", "length-short", "length-dev")
#: scores that read the corpus's words, not the queries' embeddings (issue 25: what only a tester
#: holding the corpus can know): the share of a query's information the corpus never writes
CORPUS_BASELINES: tuple[str, ...] = ("unseen-words", "names", "energy+names", "facts", "energy+names+facts")
DISPLAY_NAMES = {"maha": "Maha", "svm": "SVM", "lof": "LOF", "kde": "KDE", "copod": "COPOD",
                 "length": "Length (longer = OoK)", "length-short": "Length (shorter = OoK)",
                 "length-dev": "Length-dev", "unseen-words": "Unseen words", "lm": "LM score",
                 "names": "Names (corpus coverage)", "energy+names": "Energy + names (Bonferroni)",
                 "facts": "Facts (stated beside the names)",
                 "energy+names+facts": "Energy + names + facts (Bonferroni)"}


class Mahalanobis:
    def fit(self, x: np.ndarray) -> Mahalanobis:
        from sklearn.covariance import LedoitWolf

        self.cov_ = LedoitWolf().fit(x)
        return self

    def decision_function(self, x: np.ndarray) -> np.ndarray:
        return self.cov_.mahalanobis(x)


def make_detector(name: str):
    if name == "maha":
        return Mahalanobis()
    try:
        if name == "svm":
            from pyod.models.ocsvm import OCSVM
            return OCSVM()
        if name == "lof":
            from pyod.models.lof import LOF
            return LOF()
        if name == "kde":
            from pyod.models.kde import KDE
            return KDE()
        if name == "copod":
            from pyod.models.copod import COPOD
            return COPOD()
    except ImportError:
        raise RagdxError("the outlier baselines need PyOD: pip install pyod", field=name) from None
    raise RagdxError(f"unknown baseline {name!r} (choose from {', '.join(EMBEDDING_BASELINES)})", field="baseline")


def embedding_baseline_scores(calibration: np.ndarray, queries: np.ndarray,
                              names: Sequence[str] = EMBEDDING_BASELINES) -> dict[str, np.ndarray]:
    """Fit each detector on the calibration embeddings; score the queries."""
    out = {}
    cal = np.asarray(calibration, dtype=np.float64)
    q = np.asarray(queries, dtype=np.float64)
    for name in names:
        det = make_detector(name).fit(cal)
        out[name] = np.asarray(det.decision_function(q), dtype=np.float64)
    return out


_WORD = re.compile(r"\w+")


def unseen_word_scores(corpus_texts: Sequence[str], texts: Sequence[str]) -> dict[str, np.ndarray]:
    """``unseen-words``: the IDF-weighted share of a query's words that no corpus chunk contains.
    A question about an entity no document mentions names words the corpus never uses (the
    entity's name); one about a covered entity reuses the corpus's words. A word the corpus lacks
    weighs as much as the rarest word it has."""
    import math
    from collections import Counter

    df: Counter[str] = Counter()
    for text in corpus_texts:
        df.update(set(_WORD.findall(text.casefold())))
    n = len(corpus_texts)
    unseen_weight = math.log((n + 1) / 1) + 1.0
    out = np.zeros(len(texts))
    for i, text in enumerate(texts):
        words = [w for w in _WORD.findall(text.casefold()) if len(w) > 1]
        weights = [math.log((n + 1) / (df[w] + 1)) + 1.0 if w in df else unseen_weight for w in words]
        total = sum(weights)
        out[i] = 0.0 if total == 0 else sum(wt for w, wt in zip(words, weights, strict=True) if w not in df) / total
    return {"unseen-words": out}


def name_scores(corpus_texts: Sequence[str], texts: Sequence[str], *, index: Any = None) -> dict[str, np.ndarray]:
    """``names``: how much of what a query names the corpus never writes, and whether the things it
    names together are ever written together (:mod:`ragdx.relevance.names`)."""
    from ragdx.relevance.names import NameIndex

    return {"names": (index or NameIndex(corpus_texts)).scores(texts)}


def length_scores(calibration_texts: Sequence[str], texts: Sequence[str]) -> dict[str, np.ndarray]:
    lengths = np.array([len(t) for t in texts], dtype=np.float64)
    centre = np.median(np.log1p([len(t) for t in calibration_texts]))
    return {"length": lengths, "length-short": -lengths, "length-dev": np.abs(np.log1p(lengths) - centre)}


# The paper's Table 12 prompt (modified from llama-index's ContextRelevancyEvaluator), verbatim
# apart from the placeholders.
LM_RELEVANCE_SYSTEM = (
    "Your task is to evaluate if the query is relevant to the retrieved context from the document sources.\n"
    "Return the evaluation result by strictly following the following json format:\n"
    "---\n"
    "{\n"
    '"feedback": <feedback>,\n'
    '"score": <score>,\n'
    "}\n"
    "---\n"
    "<feedback> should be a string with the detailed feedback with step-by-step explanations on the response.\n"
    "<score> should be a float number between 0 and 1, representing the relevance score assigned to the query.\n"
    "0 represents no relevance (the query is from a different subject of matter) and 1 represents perfect "
    "relevance (query is highly related to the context).\n"
    "Partial scores are allowed and encouraged."
)
LM_RELEVANCE_USER = (
    "Query:\n{query}\nContext:\n{context}\n"
    "Return the result in json format. Do not return any other information other than the json object."
)

_SCORE = re.compile(r"""["']score["']\s*:\s*([0-9]*\.?[0-9]+(?:[eE][-+]?\d+)?)""")


def parse_relevance_score(text: str) -> float:
    """The "score" of the LM's JSON answer, in [0, 1]; anything else raises."""
    value: float | None = None
    match = re.search(r"\{.*\}", text, flags=re.S)
    if match:
        try:
            obj = json.loads(match.group(0))
            if isinstance(obj, dict) and isinstance(obj.get("score"), int | float):
                value = float(obj["score"])
        except ValueError:
            pass
    if value is None:
        # the prompt's own template has a trailing comma, so models often answer almost-JSON
        m = _SCORE.search(text)
        if m:
            value = float(m.group(1))
    if value is None or not 0.0 <= value <= 1.0:
        raise ValueError(f"no score in [0, 1] in the answer: {text[:80]!r}")
    return value


@dataclass(frozen=True, slots=True)
class LMScore:
    """One query's LM relevance score; ``error`` set (and ``score`` None) when the call or the
    parse failed, so a failed item is counted, never turned into a number."""

    score: float | None
    error: str | None = None


def lm_relevance_scores(llm, queries: Sequence[str], contexts: Sequence[str], *,
                        max_context_chars: int = 4000) -> list[LMScore]:
    """Out-of-knowledge score = 1 - the LM's relevance score of the query to its retrieved context."""
    from ragdx.llm import ChatRequest, LLMFailure

    requests = [ChatRequest(messages=[
        {"role": "system", "content": LM_RELEVANCE_SYSTEM},
        {"role": "user", "content": LM_RELEVANCE_USER.format(query=q, context=c[:max_context_chars])}])
        for q, c in zip(queries, contexts, strict=True)]
    out = []
    for res in llm.complete_many_sync(requests):
        if isinstance(res, LLMFailure):
            out.append(LMScore(None, f"{res.error_type}: {res.message}"))
            continue
        try:
            out.append(LMScore(1.0 - parse_relevance_score(res.text)))
        except ValueError as exc:
            out.append(LMScore(None, str(exc)))
    return out

