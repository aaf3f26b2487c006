"""The knowledge-boundary results a report shows, for any fitted tester (``relevance.json``).

``boundary_results`` tests held-out in-knowledge queries, one or more out-of-knowledge sets and,
when known, *in-domain queries whose facts the knowledge base leaves out* (ragdx knows them: the
gap records of a dataset generated with ``--kb``), and runs the KS drift test on an in-knowledge
batch and on a mixed one. The demo and ``ragdx relevance report`` both write its output, and
``ragdx report`` reads it.

What the third group measures matters: the tester compares a query's nearest-chunk similarities
with those of in-knowledge queries, i.e. its distance from the corpus's *topics*. A question
about a covered entity whose one fact was left out is as close to the corpus as an answerable
one, so it passes. ``ANSWERABILITY_NOTE`` is the sentence the README, the demo and the report use.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ragdx.errors import RagdxError

ANSWERABILITY_NOTE = ("this test flags queries far from the corpus's topics; it does not detect missing facts "
                      "about covered topics — the coverage audit does")


def _floats(x: Any) -> list[float]:
    return [float(v) for v in np.asarray(x, dtype=np.float64).ravel()]


def boundary_results(tester, in_knowledge: Sequence[str], out_of_knowledge: Mapping[str, Sequence[str]], *,
                     gaps: Sequence[str] | None = None, alpha: float | None = None, seed: int = 0,
                     sources: Mapping[str, str] | None = None, progress: Any = None) -> dict[str, Any]:
    """Everything the report's knowledge-boundary section draws (see the module docstring).

    ``out_of_knowledge``: name -> queries; the sets are pooled for the headline numbers (p-value
    histogram, ROC, drift) and also measured one by one (``sets``). ``gaps``: in-domain queries
    whose facts are left out of the knowledge base. ``sources`` describes where each group came from.
    """
    from sklearn.metrics import roc_curve

    from ragdx.relevance.metrics import detection_metrics
    from ragdx.relevance.statistics import STATISTICS

    if len(in_knowledge) < 2:
        raise RagdxError(f"need at least 2 held-out in-knowledge queries, got {len(in_knowledge)}",
                         field="in_knowledge")
    if not out_of_knowledge or not any(out_of_knowledge.values()):
        raise RagdxError("need at least one out-of-knowledge query", field="out_of_knowledge")
    a = float(tester.alpha if alpha is None else alpha)
    col = STATISTICS.index(tester.statistic)
    s_in = tester.statistics(list(in_knowledge), progress=progress)
    per_set = {name: tester.statistics(list(qs), progress=progress) for name, qs in out_of_knowledge.items() if qs}
    s_out = np.vstack(list(per_set.values()))
    offtopic = [q for qs in out_of_knowledge.values() for q in qs]
    p_in = tester.p_values_from_statistics(s_in)[:, col]
    p_out = tester.p_values_from_statistics(s_out)[:, col]
    det = detection_metrics(s_in[:, col], s_out[:, col])
    y = np.concatenate([np.zeros(len(p_in)), np.ones(len(p_out))])
    fpr, tpr, _ = roc_curve(y, np.concatenate([s_in[:, col], s_out[:, col]]))
    sets, length_notes = _per_set(tester, s_in, per_set, in_knowledge, out_of_knowledge, col, a)

    # drift: an in-knowledge batch (no drift expected) and a batch where half the queries are off-topic
    rng = np.random.default_rng(seed)
    half = min(len(p_in), len(p_out))
    in_batch = rng.choice(len(p_in), size=half, replace=False)
    mixed_in = rng.choice(len(p_in), size=half, replace=False)
    mixed = np.concatenate([s_in[mixed_in], s_out[rng.choice(len(p_out), size=half, replace=False)]])
    drift_in = tester.drift_statistics(s_in[in_batch], a).to_dict()
    drift_mixed = tester.drift_statistics(mixed, a).to_dict()
    drift_in["off_topic_share"] = 0.0
    drift_mixed["off_topic_share"] = 0.5
    src = dict(sources or {})
    result: dict[str, Any] = {
        "statistic": tester.statistic, "alpha": a, "k": tester.k, "temperature": float(tester.temperature),
        "embedding_model": getattr(tester, "embedding_model_", None),
        "corpus_chunks": int(tester.index_.size), "n_calibration": int(tester.n_calibration_),
        "n_in": len(p_in), "n_out": len(p_out),
        "calibration_source": src.get("calibration", ""), "in_source": src.get("in_knowledge", ""),
        "out_source": src.get("out_of_knowledge", ", ".join(out_of_knowledge)),
        "p_in": _floats(p_in), "p_out": _floats(p_out),
        "stat_in": _floats(s_in[:, col]), "stat_out": _floats(s_out[:, col]),
        "stat_calibration": _floats(tester.calibration_statistics_[:, col]),
        "flagged_in": int((p_in <= a).sum()), "flagged_out": int((p_out <= a).sum()),
        "auroc": det.auroc, "auprc": det.auprc, "tpr_at_5fpr": det.tpr_at_5fpr, "der": det.der,
        "roc": {"fpr": _floats(fpr), "tpr": _floats(tpr)},
        "sets": sets,
        "drift": {"in_knowledge": drift_in, "mixed": drift_mixed,
                  "stat_in_batch": _floats(s_in[in_batch, col]), "stat_mixed_batch": _floats(mixed[:, col])},
        "examples": {"in": [{"query": q, "p_value": float(p)} for q, p in zip(in_knowledge[:5], p_in[:5], strict=True)],
                     "out": [{"query": q, "p_value": float(p)} for q, p in zip(offtopic[:5], p_out[:5], strict=True)]},
        "note": ANSWERABILITY_NOTE,
        "length_notes": length_notes,
        "answerability": None,
    }
    if gaps:
        s_gap = tester.statistics(list(gaps), progress=progress)
        p_gap = tester.p_values_from_statistics(s_gap)[:, col]
        m_gap = detection_metrics(s_in[:, col], s_gap[:, col])
        result["answerability"] = {
            "source": src.get("gaps", "in-domain queries whose facts the knowledge base leaves out"),
            "n": len(p_gap), "flagged": int((p_gap <= a).sum()), "p": _floats(p_gap),
            "stat": _floats(s_gap[:, col]), "auroc_vs_in": m_gap.auroc,
            "examples": [{"query": q, "p_value": float(p)} for q, p in zip(gaps[:5], p_gap[:5], strict=True)],
        }
    return result


def _per_set(tester: Any, s_in: np.ndarray, per_set: Mapping[str, np.ndarray], in_knowledge: Sequence[str],
             out_of_knowledge: Mapping[str, Sequence[str]], col: int,
             a: float) -> tuple[dict[str, Any], list[str]]:
    """Each out-of-knowledge set measured alone, and the sets that length alone separates as well."""
    from ragdx.relevance.confounds import table_note
    from ragdx.relevance.metrics import detection_metrics

    sets, notes = {}, []
    for name, st in per_set.items():
        m = detection_metrics(s_in[:, col], st[:, col])
        p = tester.p_values_from_statistics(st)[:, col]
        by_length = _length_auroc(tester, in_knowledge, out_of_knowledge[name])
        sets[name] = {"n": int(st.shape[0]), "flagged": int((p <= a).sum()), "auroc": m.auroc, "auprc": m.auprc,
                      "tpr_at_5fpr": m.tpr_at_5fpr, "length_auroc": by_length}
        note = table_note(by_length, m.auroc, name)
        if note:
            notes.append(note)
    return sets, notes


def _length_auroc(tester: Any, in_knowledge: Sequence[str], queries: Sequence[str]) -> float:
    """How well query length alone tells ``queries`` from the in-knowledge ones: the best of
    longer, shorter and farther from the calibration questions' typical length."""
    from ragdx.relevance.confounds import auroc, length_deviation

    len_in = np.array([len(q) for q in in_knowledge], dtype=np.float64)
    len_out = np.array([len(q) for q in queries], dtype=np.float64)
    reference = getattr(tester, "calibration_lengths_", None) or len_in
    return max(auroc(len_in, len_out), auroc(-len_in, -len_out),
               auroc(length_deviation(reference, len_in), length_deviation(reference, len_out)))


def boundary_sentences(r: Mapping[str, Any]) -> list[str]:
    """The plain-language lines the HTML and Markdown reports print under the numbers."""
    lines = [f"Off-topic queries flagged: {r['flagged_out']}/{r['n_out']}; held-out in-knowledge queries flagged "
             f"(false rejections, about α = {r['alpha']:g} expected): {r['flagged_in']}/{r['n_in']}; "
             f"AUROC {r['auroc']:.3f}."]
    ans = r.get("answerability")
    if ans:
        lines.append(f"In-domain queries whose facts the knowledge base leaves out flagged: {ans['flagged']}/"
                     f"{ans['n']} (AUROC against answerable queries {ans['auroc_vs_in']:.3f}, 0.5 = no signal).")
    lines += list(r.get("length_notes") or [])  # (a relevance.json written before them has none)
    lines.append(ANSWERABILITY_NOTE[0].upper() + ANSWERABILITY_NOTE[1:] + ".")
    return lines
