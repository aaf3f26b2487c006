"""Knowledge-boundary tests (query-knowledge relevance, Li et al.): a p-value per query, a drift
test per batch, the benchmark against outlier baselines, and an HTTP screening service.

Names are imported on first use (``from ragdx.relevance import RelevanceTester`` works as
before), so that importing a submodule such as :mod:`ragdx.relevance.cli_app` at CLI start-up
does not pull in scipy and scikit-learn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ragdx.lazy import lazy_names

if TYPE_CHECKING:
    from ragdx.relevance.boundary import ANSWERABILITY_NOTE, boundary_results
    from ragdx.relevance.calibration import (
        SynthesisResult,
        dataset_queries,
        read_corpus,
        read_questions,
        synthesize_queries,
    )
    from ragdx.relevance.drift import DriftMonitor, DriftReport, DriftResult, WindowResult, ks_drift
    from ragdx.relevance.metrics import DetectionMetrics, detection_metrics
    from ragdx.relevance.statistics import STATISTICS
    from ragdx.relevance.tester import QueryTest, RelevanceTester

__all__ = [
    "ANSWERABILITY_NOTE",
    "STATISTICS",
    "DetectionMetrics",
    "DriftMonitor",
    "DriftReport",
    "DriftResult",
    "QueryTest",
    "RelevanceTester",
    "SynthesisResult",
    "WindowResult",
    "boundary_results",
    "dataset_queries",
    "detection_metrics",
    "ks_drift",
    "read_corpus",
    "read_questions",
    "synthesize_queries",
]

_LAZY = {
    "ANSWERABILITY_NOTE": "boundary", "boundary_results": "boundary",
    "SynthesisResult": "calibration", "dataset_queries": "calibration", "read_corpus": "calibration",
    "read_questions": "calibration", "synthesize_queries": "calibration",
    "DriftMonitor": "drift", "DriftReport": "drift", "DriftResult": "drift", "WindowResult": "drift",
    "ks_drift": "drift",
    "DetectionMetrics": "metrics", "detection_metrics": "metrics",
    "STATISTICS": "statistics",
    "QueryTest": "tester", "RelevanceTester": "tester",
}


__getattr__, __dir__ = lazy_names(__name__, _LAZY, __all__)
