"""Knowledge-boundary tests (query-knowledge relevance, Li et al.): a p-value per query, a drift
test per batch, the benchmark against outlier baselines, and an HTTP screening service."""

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
