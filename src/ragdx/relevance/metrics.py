"""Detection metrics exactly as §4.1 of the paper defines them.

Out-of-knowledge is the positive class; every score is oriented "larger = more out-of-knowledge".

* AUROC and AUPRC (average precision), threshold-free.
* TPR at 5 % FPR: the share of out-of-knowledge queries flagged at the threshold where the false
  positive rate on the in-knowledge queries reaches 5 % (the largest TPR on the ROC curve with
  FPR <= 0.05; for a testing method this is rejecting at level 0.05).
* DER, the detection error rate at that same threshold: misclassified queries / all queries.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
from sklearn.metrics import average_precision_score, roc_auc_score, roc_curve

from ragdx.errors import RagdxError


@dataclass(frozen=True, slots=True)
class DetectionMetrics:
    auroc: float
    auprc: float
    tpr_at_5fpr: float
    der: float
    n_in: int
    n_out: int

    def to_dict(self) -> dict[str, float | int]:
        return asdict(self)


def detection_metrics(scores_in: np.ndarray, scores_out: np.ndarray, *, max_fpr: float = 0.05) -> DetectionMetrics:
    s_in = np.asarray(scores_in, dtype=np.float64).ravel()
    s_out = np.asarray(scores_out, dtype=np.float64).ravel()
    if s_in.size == 0 or s_out.size == 0:
        raise RagdxError(f"need scores for both classes (got {s_in.size} in, {s_out.size} out)", field="scores")
    if not (np.isfinite(s_in).all() and np.isfinite(s_out).all()):
        raise RagdxError("scores contain NaN or infinite values", field="scores")
    y = np.concatenate([np.zeros(s_in.size), np.ones(s_out.size)])
    s = np.concatenate([s_in, s_out])
    fpr, tpr, thresholds = roc_curve(y, s, drop_intermediate=False)
    ok = fpr <= max_fpr + 1e-12
    i = int(np.flatnonzero(ok)[np.argmax(tpr[ok])])
    fp = fpr[i] * s_in.size
    fn = (1.0 - tpr[i]) * s_out.size
    return DetectionMetrics(auroc=float(roc_auc_score(y, s)), auprc=float(average_precision_score(y, s)),
                            tpr_at_5fpr=float(tpr[i]), der=float((fp + fn) / s.size),
                            n_in=int(s_in.size), n_out=int(s_out.size))
