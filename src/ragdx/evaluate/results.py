"""Typed evaluation results: what ``evaluate`` returns and what the CLI, the report and the
comparisons read (``result.by_style["short"].accuracy.value``), instead of nested dicts keyed by
strings that three packages had to agree on.

On disk an evaluation is ``metrics.json`` (:meth:`EvaluationResult.to_dict`, the same layout as
before) and :meth:`EvaluationResult.from_dict` reads it back. Mapping-style access
(``result["by_style"]``) still works on the dict form for scripts written against it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from ragdx.evaluate import verdicts as verdict_registry
from ragdx.evaluate.compare import Comparison
from ragdx.evaluate.stats import METRIC_NAMES

#: how every metric is named wherever it is shown (one definition per metric)
METRIC_LABELS = {
    "accuracy": "Accuracy",
    "refined_accuracy": "Refined accuracy R (answer-based gap groups removed)",
    "gap_share": "λ (share of queries in answer-based gap groups)",
    "acc_retrieval_db": "Acc_retrieval_db (answer-based: 1 − gap groups / groups)",
    "kb_coverage": "Knowledge-base coverage (known: groups whose facts the knowledge base states)",
    "retrieval_accuracy": "Retrieval on its own (evidence rule)",
    "retrieval_refined": "Retrieval-only R (evidence rule, answer-based gap groups removed)",
    "lm_accuracy_given_retrieval": "LM accuracy where the evidence was retrieved",
}

#: how gap groups are found for the per-style table (said beside the numbers)
GAP_RULE_JOINT = ("gap groups are the semantic groups no query of any style answered correctly (answer-based, "
                  "found once over all styles, so every column removes the same groups and 'all styles' lies "
                  "between the styles)")


@dataclass(frozen=True, slots=True)
class Metric:
    value: float
    ci_low: float = math.nan
    ci_high: float = math.nan

    def __float__(self) -> float:
        return float(self.value)

    @property
    def known(self) -> bool:
        return not math.isnan(self.value)

    def to_dict(self) -> dict[str, float]:
        out = {"value": self.value}
        if not (math.isnan(self.ci_low) and math.isnan(self.ci_high)):
            out.update(ci_low=self.ci_low, ci_high=self.ci_high)
        return out

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any]) -> Metric:
        return cls(float(obj.get("value", math.nan)), float(obj.get("ci_low", math.nan)),
                   float(obj.get("ci_high", math.nan)))

    def __str__(self) -> str:
        from ragdx.evaluate.intervals import fmt_interval

        return fmt_interval({"value": self.value, "ci_low": self.ci_low, "ci_high": self.ci_high})


@dataclass(slots=True)
class StyleMetrics:
    """The protocol's counts and metrics over one style (or all styles) of a run."""

    queries: int
    groups: int
    gap: int
    robust: int
    non_robust: int
    gap_queries: int
    metrics: dict[str, Metric]

    def __getattr__(self, name: str) -> Metric:
        # slots classes still reach __getattr__ for unknown names: any other metric by attribute
        metrics: dict[str, Metric] = object.__getattribute__(self, "metrics")
        if name in metrics:
            return metrics[name]
        raise AttributeError(name)

    def _metric(self, name: str) -> Metric:
        if name in self.metrics:
            return self.metrics[name]
        raise AttributeError(f"{name} was not computed for this style")

    # the protocol's metrics (stats.METRIC_NAMES) as declared attributes, so that an editor or a
    # notebook completes and types them (``result.overall.accuracy``)
    @property
    def accuracy(self) -> Metric:
        return self._metric("accuracy")

    @property
    def refined_accuracy(self) -> Metric:
        return self._metric("refined_accuracy")

    @property
    def gap_share(self) -> Metric:
        return self._metric("gap_share")

    @property
    def acc_retrieval_db(self) -> Metric:
        return self._metric("acc_retrieval_db")

    @property
    def kb_coverage(self) -> Metric:
        return self._metric("kb_coverage")

    @property
    def retrieval_accuracy(self) -> Metric:
        return self._metric("retrieval_accuracy")

    @property
    def retrieval_refined(self) -> Metric:
        return self._metric("retrieval_refined")

    @property
    def lm_accuracy_given_retrieval(self) -> Metric:
        return self._metric("lm_accuracy_given_retrieval")

    def to_dict(self) -> dict[str, Any]:
        return {"queries": self.queries, "groups": self.groups, "gap": self.gap, "robust": self.robust,
                "non_robust": self.non_robust, "gap_queries": self.gap_queries,
                "metrics": {k: m.to_dict() for k, m in self.metrics.items()}}

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any]) -> StyleMetrics:
        return cls(int(obj.get("queries", 0)), int(obj.get("groups", 0)), int(obj.get("gap", 0)),
                   int(obj.get("robust", 0)), int(obj.get("non_robust", 0)), int(obj.get("gap_queries", 0)),
                   {k: Metric.from_dict(v) for k, v in (obj.get("metrics") or {}).items()})


@dataclass(slots=True)
class BlameCounts:
    """Per-query verdicts counted (the registry, ``ragdx.evaluate.verdicts``): the built-in ones
    as fields (those that name a module, the unsure ones, ``unsure`` their sum), failed judgements,
    the verdicts resting on low confidence evidence, and in ``others`` each verdict of the
    registry without a field here (``history_failure``, one added later) that was counted."""

    total: int = 0
    correct: int = 0
    kb_gap: int = 0
    retrieval_failure: int = 0
    lm_failure: int = 0
    kb_or_retrieval: int = 0
    retrieval_or_lm: int = 0
    undetermined: int = 0
    unjudged: int = 0
    #: verdicts that do not name one module (kb_or_retrieval + retrieval_or_lm + undetermined)
    unsure: int = 0
    #: wrong answers whose verdict rests on low-confidence evidence (unsure ones included)
    low_confidence: int = 0
    by_basis: dict[str, int] = field(default_factory=dict)
    #: verdict -> count for the registry's verdicts that have no field above
    others: dict[str, int] = field(default_factory=dict)

    def __getitem__(self, key: str) -> Any:  # blame["kb_gap"], as on the dict form
        if key in self.others:
            return self.others[key]
        if key in verdict_registry.REGISTRY and key not in _FIELDS:
            return 0  # a verdict of the registry no query got
        return getattr(self, key)

    def get(self, key: str, default: Any = 0) -> Any:
        return self.others[key] if key in self.others else getattr(self, key, default)

    def to_dict(self) -> dict[str, Any]:
        # the registry's order: metrics.json lists the verdicts as the report shows them
        counts = {k: self[k] for k in verdict_registry.shown(self.others)}
        return {"total": self.total, **counts, "unjudged": self.unjudged, "unsure": self.unsure,
                "low_confidence": self.low_confidence, "by_basis": dict(self.by_basis)}

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any]) -> BlameCounts:
        out = cls(**{k: int(obj.get(k, 0) or 0) for k in _FIELDS}, by_basis=dict(obj.get("by_basis") or {}),
                  others={k: int(obj[k] or 0) for k in verdict_registry.REGISTRY if k not in _FIELDS and k in obj})
        if "unsure" not in obj:  # written before the unsure verdicts existed
            out.unsure = out.kb_or_retrieval + out.retrieval_or_lm + out.undetermined
        return out


#: BlameCounts' count fields (a verdict of the registry not among them is kept in ``others``)
_FIELDS = tuple(f.name for f in fields(BlameCounts) if f.type == "int")


@dataclass
class EvaluationResult:
    """One evaluated run (or results file, or GRAMMAR reference)."""

    queries: int
    judges: list[str]
    by_style: dict[str, StyleMetrics]
    blame: dict[str, BlameCounts]
    #: "n of N", dataset match, retrieved-id match (``runs.InputCheck`` as a dict)
    inputs: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    source: dict[str, Any] = field(default_factory=dict)
    gap_rule: str = GAP_RULE_JOINT
    retrieval_rule: str = ""
    #: the style test (two styles of the run: ``compare_styles``), typed
    comparison: Comparison | None = None
    table3: dict[str, Any] | None = None
    text_metrics: dict[str, Any] | None = None
    by_style_unbalanced: dict[str, StyleMetrics] | None = None
    #: anything else a stage added (open-domain tags, G-Eval criteria, ...): kept as plain data
    extra: dict[str, Any] = field(default_factory=dict)
    output: str | None = None
    # not written to metrics.json: the judged queries and their verdicts
    judgements: list[Any] = field(default_factory=list, repr=False)
    verdicts: list[dict[str, str]] = field(default_factory=list, repr=False)
    extra_judgements: list[Any] = field(default_factory=list, repr=False)
    #: G-Eval scores per query id (written to geval.jsonl, not metrics.json)
    geval_scores: dict[str, dict[str, int | None]] = field(default_factory=dict, repr=False)

    @property
    def overall_key(self) -> str | None:
        return "all styles" if "all styles" in self.by_style else next(iter(self.by_style), None)

    @property
    def overall(self) -> StyleMetrics | None:
        key = self.overall_key
        return None if key is None else self.by_style[key]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "queries": self.queries, "judges": list(self.judges),
            "by_style": {k: v.to_dict() for k, v in self.by_style.items()},
            "blame": {k: v.to_dict() for k, v in self.blame.items()},
            "inputs": self.inputs, "warnings": list(self.warnings), "source": self.source,
            "gap_rule": self.gap_rule, "retrieval_rule": self.retrieval_rule,
        }
        if self.comparison is not None:
            out["comparison"] = self.comparison.to_dict()
        for name in ("table3", "text_metrics"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        if self.by_style_unbalanced is not None:
            out["by_style_unbalanced"] = {k: v.to_dict() for k, v in self.by_style_unbalanced.items()}
        out.update(self.extra)
        if self.output is not None:
            out["output"] = self.output
        return out

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any]) -> EvaluationResult:
        known = {"queries", "judges", "by_style", "blame", "inputs", "warnings", "source", "gap_rule",
                 "retrieval_rule", "comparison", "table3", "text_metrics", "by_style_unbalanced", "output"}
        unb = obj.get("by_style_unbalanced")
        return cls(
            queries=int(obj.get("queries", 0)), judges=list(obj.get("judges", [])),
            by_style={k: StyleMetrics.from_dict(v) for k, v in (obj.get("by_style") or {}).items()},
            blame={k: BlameCounts.from_dict(v) for k, v in (obj.get("blame") or {}).items()},
            inputs=dict(obj.get("inputs") or {}), warnings=list(obj.get("warnings") or []),
            source=dict(obj.get("source") or {}), gap_rule=str(obj.get("gap_rule") or GAP_RULE_JOINT),
            retrieval_rule=str(obj.get("retrieval_rule") or ""), comparison=_comparison(obj.get("comparison")),
            table3=obj.get("table3"), text_metrics=obj.get("text_metrics"),
            by_style_unbalanced=None if unb is None else {k: StyleMetrics.from_dict(v) for k, v in unb.items()},
            extra={k: v for k, v in obj.items() if k not in known}, output=obj.get("output"))

    # Mapping-style reads of the dict form, for scripts written against metrics.json
    def __getitem__(self, key: str) -> Any:
        if key == "_judgements":
            return self.judgements
        if key == "_verdicts":
            return self.verdicts
        return self.to_dict()[key]

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key in self.to_dict()

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_dict())


def _comparison(obj: Mapping[str, Any] | None) -> Comparison | None:
    return None if obj is None else Comparison.from_dict(obj)


__all__ = ["METRIC_LABELS", "METRIC_NAMES", "BlameCounts", "EvaluationResult", "Metric", "StyleMetrics"]
