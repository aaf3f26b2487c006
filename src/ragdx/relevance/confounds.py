"""Say what the tester detects: when query length alone explains a separation.

Question sets differ in length and style (MedQA's questions average ~745 characters, TruthfulQA's
~50, PubMedQA's in between), so a relevance test can look good by telling datasets apart by length
rather than by whether the corpus covers a question: query length alone gives AUROC 0.90-1.00 on
the medical sets, where length-matched the tester falls to 0.50-0.58. Wherever ragdx shows a
separation (a batch's flagged queries, a log's drift, a benchmark table), it compares the
*length-deviation* score — the distance of a query's log length from the calibration questions'
median — with the tester's own, and says so in one sentence when length does as well.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

#: length explains a separation when its AUROC is at least this, and no more than MARGIN below the tester's
STRONG = 0.75
MARGIN = 0.02


def length_deviation(calibration_lengths: ArrayLike, lengths: ArrayLike) -> np.ndarray:
    """|log(1 + length) - median log(1 + length) of the calibration questions| per query."""
    centre = float(np.median(np.log1p(np.asarray(calibration_lengths, dtype=np.float64))))
    return np.abs(np.log1p(np.asarray(lengths, dtype=np.float64)) - centre)


def auroc(negatives: np.ndarray, positives: np.ndarray) -> float:
    """P(a positive scores above a negative), ties counted half: scikit-learn's, as the rest of
    ragdx's detection metrics (``relevance.metrics``); NaN when a side is empty."""
    from sklearn.metrics import roc_auc_score

    neg, pos = np.asarray(negatives, dtype=np.float64).ravel(), np.asarray(positives, dtype=np.float64).ravel()
    if neg.size == 0 or pos.size == 0:
        return float("nan")
    return float(roc_auc_score(np.r_[np.zeros(neg.size), np.ones(pos.size)], np.r_[neg, pos]))


def batch_note(calibration_lengths: Sequence[float] | None, lengths: Sequence[float],
               flagged: Sequence[bool]) -> str | None:
    """One sentence when length alone tells a batch's flagged queries from its others (the tester
    separates them perfectly by construction, so length is measured against that split)."""
    flags = np.asarray(flagged, dtype=bool)
    if calibration_lengths is None or len(calibration_lengths) < 2 or flags.sum() < 5 or (~flags).sum() < 5:
        return None
    dev = length_deviation(calibration_lengths, lengths)
    score = auroc(dev[~flags], dev[flags])
    if score < STRONG:
        return None
    return (f"Query length alone tells the {int(flags.sum())} flagged queries from the other {int((~flags).sum())} "
            f"with AUROC {score:.2f} (distance from the calibration questions' typical length): the flags may "
            "reflect how long the questions are rather than whether the corpus covers them.")


def log_note(calibration_lengths: Sequence[float] | None, lengths: Sequence[float],
             calibration_statistics: np.ndarray, statistics: np.ndarray) -> str | None:
    """One sentence when length tells a log from the calibration questions as well as the tester's
    statistic does (both AUROCs given)."""
    if calibration_lengths is None or len(calibration_lengths) < 2 or len(lengths) < 5:
        return None
    by_length = auroc(length_deviation(calibration_lengths, calibration_lengths),
                      length_deviation(calibration_lengths, lengths))
    by_tester = auroc(calibration_statistics, statistics)
    if not (by_length >= STRONG and by_length >= by_tester - MARGIN):
        return None
    return (f"Query length alone tells this log from the calibration questions as well as the tester does "
            f"(AUROC {by_length:.2f} by length, {by_tester:.2f} by the statistic): a drift here may be a change "
            "in how long the questions are, not in what they ask.")


def table_note(length_auroc: float, tester_auroc: float, what: str) -> str | None:
    """The benchmark's sentence for one out-of-knowledge set (both AUROCs given)."""
    if not (np.isfinite(length_auroc) and np.isfinite(tester_auroc)):
        return None
    if length_auroc >= STRONG and length_auroc >= tester_auroc - MARGIN:
        return (f"{what}: query length alone separates it as well as the best statistic (AUROC {length_auroc:.3f} "
                f"by length, {tester_auroc:.3f} by the tester); read its row as telling datasets apart, and see "
                "the length-matched table.")
    return None
