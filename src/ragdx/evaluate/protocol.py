"""GRAMMAR-Eval (§4.3): semantic groups and their tags, the protocol's metrics, module blame,
and the sampling strategies that isolate knowledge-base errors.

Tags (over the whole group, or over the queries of one style with ``by_style=True``):

* **gap**: no query of the group was answered correctly (a knowledge-base deficit);
* **robust**: every query was answered correctly;
* **non-robust**: some were, some were not.

Metrics: accuracy; refined accuracy R = correct / (all − queries in gap groups);
λ = share of queries in gap groups (so accuracy = R × (1 − λ)); Acc_retrieval_db = 1 − gap
groups / groups; the retrieval module judged on its own from gold documents (the "context
comparison" columns of the paper's Table 3) over all queries and over non-gap groups; and the
language model's accuracy where retrieval was right.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import numpy as np

from ragdx.evaluate.records import Judgement
from ragdx.evaluate.stats import GroupStats, bootstrap_metrics, point_metrics

T = TypeVar("T")

GAP, ROBUST, NON_ROBUST = "gap", "robust", "non-robust"
VERDICTS = ("correct", "kb_gap", "retrieval_failure", "lm_failure")


def _key(j: Any, by_style: bool) -> tuple[str, str] | str:
    return (j.group_id, j.style) if by_style else j.group_id


def group_tags(judgements: Iterable[Judgement], *, by_style: bool = False) -> dict[Any, str]:
    """Tag of every semantic group (key ``group_id``, or ``(group_id, style)`` with ``by_style``)."""
    seen: dict[Any, list[bool]] = defaultdict(list)
    for j in judgements:
        if getattr(j, "error", None):
            continue  # the judge failed: no verdict to tag with
        seen[_key(j, by_style)].append(bool(j.correct))
    return {k: GAP if not any(v) else ROBUST if all(v) else NON_ROBUST for k, v in seen.items()}


def group_stats(judgements: Sequence[Judgement], *, group_ids: Sequence[str] | None = None,
                gap: Callable[[str], bool] | None = None) -> GroupStats:
    """Per-group counts over ``judgements`` (one style or the whole set, as given).

    ``group_ids`` fixes the order (groups absent here get zero counts); ``gap`` overrides the
    gap rule (default: no correct answer among these judgements)."""
    ids = (list(dict.fromkeys(j.group_id for j in judgements if not getattr(j, "error", None)))
           if group_ids is None else list(group_ids))
    index = {g: i for i, g in enumerate(ids)}
    # a failed judgement is counted where it is reported, never as a wrong answer
    live = [j for j in judgements if not getattr(j, "error", None)]
    at = [index[j.group_id] for j in live]
    # column by column with bincount (a Python loop over the queries per statistic was a large part
    # of a 100k-query evaluation); every sum is a count, so the floats are the loop's exactly
    size = len(ids)
    idx = np.array(at, dtype=np.int64)
    ok = np.fromiter((bool(j.correct) for j in live), dtype=bool, count=len(live))
    ret = [j.retrieval_correct for j in live]
    known = np.fromiter((r is not None for r in ret), dtype=bool, count=len(live))
    right = np.fromiter((bool(r) for r in ret), dtype=bool, count=len(live)) & known
    n = np.bincount(idx, minlength=size).astype(np.float64)
    correct = np.bincount(idx, weights=ok, minlength=size)
    ret_known = np.bincount(idx, weights=known, minlength=size)
    ret_correct = np.bincount(idx, weights=right, minlength=size)
    lm_n = ret_correct.copy()
    lm_correct = np.bincount(idx, weights=right & ok, minlength=size)
    kb_known = np.zeros(size)
    kb_supported = np.zeros(size)
    # a group's facts are one set: every query of it has the same kb_supported (the last one read wins)
    stated = {i: bool(j.kb_supported) for i, j in zip(at, live, strict=True) if j.kb_supported is not None}
    if stated:
        where = np.fromiter(stated, dtype=np.int64, count=len(stated))
        kb_known[where] = 1.0
        kb_supported[where] = np.fromiter(stated.values(), dtype=np.float64, count=len(stated))
    gaps = None if gap is None else np.array([gap(g) for g in ids], dtype=bool)
    return GroupStats(np.array(ids, dtype=object), n, correct, ret_known, ret_correct, lm_n, lm_correct, gaps,
                      kb_known, kb_supported)


def by_style(judgements: Iterable[Judgement]) -> dict[str, list[Judgement]]:
    out: dict[str, list[Judgement]] = defaultdict(list)
    for j in judgements:
        out[j.style].append(j)
    return dict(out)


def metrics(judgements: Sequence[Judgement], *, gap_over: Sequence[Judgement] | None = None,
            n_boot: int = 0, seed: int = 0, gap_tags: dict[Any, str] | None = None) -> dict[str, Any]:
    """The protocol's metrics over ``judgements``. Gap groups are found among ``judgements``
    themselves (the paper's way: per style), or among ``gap_over`` (e.g. all styles) if given
    (``gap_tags``: ``group_tags(gap_over)``, when the caller has it already).
    With ``n_boot`` > 0 every metric gets a 95 % interval from a bootstrap over groups."""
    gap_fn = None
    if gap_over is not None:
        tags = group_tags(gap_over) if gap_tags is None else gap_tags
        gap_fn = lambda g: tags.get(g) == GAP  # noqa: E731
    stats = group_stats(judgements, gap=gap_fn)
    out: dict[str, Any] = {"queries": len(judgements), **stats.tags(),
                           "gap_queries": int(stats.n[stats.gap].sum())}
    if n_boot > 0:
        out["metrics"] = bootstrap_metrics(stats, n_boot=n_boot, seed=seed)
    else:
        out["metrics"] = {k: {"value": v} for k, v in point_metrics(stats).items()}
    return out


# ----------------------------------------------------------------------------- sampling


def remove_gap_groups(judgements: Sequence[Judgement], *, by_style: bool = True) -> list[Judgement]:
    """Drop the queries of gap groups (found per style by default, as the paper's Table 3 does)."""
    tags = group_tags(judgements, by_style=by_style)
    return [j for j in judgements if tags[_key(j, by_style)] != GAP]


def _buckets(items: Sequence[T]) -> dict[tuple[str, str], list[T]]:
    out: dict[tuple[str, str], list[T]] = defaultdict(list)
    for it in items:
        out[(it.group_id, it.style)].append(it)  # type: ignore[attr-defined]
    return out


def sample_stratified(items: Sequence[T], per_group: int, *, seed: int = 0) -> list[T]:
    """Exactly ``per_group`` queries (or all, if fewer) of every semantic group and style: every
    group weighs the same, so λ is the same across styles and systems ("balance gap examples")."""
    keep: set[int] = set()
    for (gid, style), bucket in _buckets(items).items():
        rng = random.Random(f"{seed}:{gid}:{style}")
        chosen = bucket if len(bucket) <= per_group else rng.sample(bucket, per_group)
        keep.update(id(x) for x in chosen)
    return [it for it in items if id(it) in keep]


def sample_unbalanced(items: Sequence[T], *, seed: int = 0, max_per_group: int | None = None) -> list[T]:
    """A seeded, group-dependent number of queries (1 .. group size): what an organically grown
    test set looks like, where λ drifts between styles and systems."""
    keep: set[int] = set()
    for (gid, style), bucket in _buckets(items).items():
        rng = random.Random(f"{seed}:{gid}:{style}")
        k = rng.randint(1, min(len(bucket), max_per_group or len(bucket)))
        keep.update(id(x) for x in rng.sample(bucket, k))
    return [it for it in items if id(it) in keep]


# ----------------------------------------------------------------------------- module blame


def context_comparison(judgements: Sequence[Judgement], *, within_style: bool = False) -> dict[str, str]:
    """The paper's rule as written (§4.3): a wrong answer in a non-robust group whose retrieved
    documents equal those of a correctly answered query of the same group is an LM error
    ("lm"); otherwise the context was insufficient ("retrieval"). Returns id -> verdict for the
    wrong answers of non-robust groups."""
    correct_contexts: dict[Any, set[tuple[str, ...]]] = defaultdict(set)
    for j in judgements:
        if j.correct:
            correct_contexts[_key(j, within_style)].add(tuple(sorted(j.retrieved_ids)))
    out = {}
    for j in judgements:
        key = _key(j, within_style)
        if j.correct or key not in correct_contexts:
            continue
        out[j.id] = "lm" if tuple(sorted(j.retrieved_ids)) in correct_contexts[key] else "retrieval"
    return out


def blame(judgements: Sequence[Judgement], *, within_style: bool = False) -> list[dict[str, str]]:
    """Per-query verdict: ``correct``, ``kb_gap``, ``retrieval_failure`` or ``lm_failure``, with
    the evidence it rests on (``basis``):

    1. a correct answer is ``correct``;
    2. the knowledge base does not state the facts (``kb_supported`` False) -> ``kb_gap``
       (basis ``knowledge_base``); unknown and the group is a gap group -> ``kb_gap`` inferred from the
       answers only (``answer_based_gap_group``: GRAMMAR's tag, which also catches groups that retrieval
       or the LM failed throughout — link your corpus to know);
    3. evidence known: not retrieved by the evaluation's rule -> ``retrieval_failure``, retrieved ->
       ``lm_failure`` (``evidence``);
    4. otherwise the paper's context comparison (``context_comparison``)."""
    tags = group_tags(judgements, by_style=within_style)
    cc = context_comparison([j for j in judgements if not getattr(j, "error", None)], within_style=within_style)
    out = []
    for j in judgements:
        if getattr(j, "error", None):
            verdict, basis = "unjudged", "judge_failed"
        elif j.correct:
            verdict, basis = "correct", "judge"
        elif j.kb_supported is False:
            verdict, basis = "kb_gap", "knowledge_base"
        elif j.kb_supported is None and tags.get(_key(j, within_style)) == GAP:
            verdict, basis = "kb_gap", "answer_based_gap_group"
        elif j.retrieval_correct is not None:
            verdict = "lm_failure" if j.retrieval_correct else "retrieval_failure"
            basis = "evidence"
        elif j.id in cc:
            verdict = "lm_failure" if cc[j.id] == "lm" else "retrieval_failure"
            basis = "context_comparison"
        else:  # wrong in a gap group the knowledge base does cover, without gold documents
            verdict, basis = "retrieval_failure", "gap_group_kb_covered"
        out.append({"id": j.id, "group_id": j.group_id, "style": j.style, "verdict": verdict, "basis": basis})
    return out


def blame_counts(verdicts: Sequence[dict[str, str]]) -> dict[str, Any]:
    counts = Counter(v["verdict"] for v in verdicts)
    by = Counter(f"{v['verdict']}:{v['basis']}" for v in verdicts)
    return {"total": len(verdicts), **{k: counts.get(k, 0) for k in VERDICTS}, "unjudged": counts.get("unjudged", 0),
            "by_basis": dict(sorted(by.items()))}


# ----------------------------------------------------------------------------- the paper's Table 3


TABLE3_ROWS = (
    ("baseline", "Baseline (no action / no action)"),
    ("context_comparison", "Baseline + context comparison"),
    ("remove_gap", "Remove gap groups"),
    ("remove_gap_context_comparison", "Remove gap groups + context comparison"),
    ("balance", "Balance gap examples"),
    ("balance_context_comparison", "Balance gap examples + context comparison"),
)


def table3(unbalanced: Sequence[Judgement], balanced: Sequence[Judgement] | None = None) -> dict[str, float]:
    """The six cells of one column of GRAMMAR's Table 3 (one style): accuracy and the retrieval
    module judged on its own, on the unbalanced set, without its gap groups, and on the
    balanced set. Gap groups are found within each set."""
    unb = point_metrics(group_stats(unbalanced))
    out = {"baseline": unb["accuracy"], "context_comparison": unb["retrieval_accuracy"],
           "remove_gap": unb["refined_accuracy"], "remove_gap_context_comparison": unb["retrieval_refined"]}
    if balanced is not None:
        bal = point_metrics(group_stats(balanced))
        out["balance"] = bal["accuracy"]
        out["balance_context_comparison"] = bal["retrieval_accuracy"]
    return out
