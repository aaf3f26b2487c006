"""Hypothesis tests: two runs on one dataset, or two styles of one run.

Every difference (B − A) has a 95 % interval from a bootstrap that resamples semantic groups,
both sides with the same resample, so the pairing by group is kept. What is compared for each
module is chosen so that a module that did not change shows no difference *by construction*:

* **retrieval**: the evidence rule (``config.RULE_WORDS``) on the queries whose retrieval both
  sides could be judged on (two runs: the same queries, paired; McNemar). Where the knowledge
  base's content is known, queries whose facts it lacks are not judged at all, so nothing is
  removed on the answers' word; otherwise gap groups are removed jointly (GRAMMAR's retrieval-only R).
* **language model**: accuracy on a common footing. Two runs: the queries on which both systems
  handed their language model *the same retrieved documents in the same order* and that hold the
  evidence — identical readers then answer identically, whatever the retrievers did elsewhere.
  When fewer than ``MIN_FOOTING`` such queries exist, the queries on which both retrieved the
  evidence are used and the sentence says their contexts differ beyond the evidence. Two styles
  (different queries of the same groups): the accuracy of the phrasings of both styles that got
  identical retrieved documents holding the evidence (at least ``MIN_FOOTING`` groups with such
  phrasings); otherwise the accuracy where retrieval was right, over the groups where both styles
  retrieved the evidence, shown as confounded with the contexts and not attributed.

Two styles put different queries, often different numbers of them, in a group: each module is
compared through its per-group rates, both styles' rates of a group weighted alike, so identical
behaviour gives exactly no difference (pooled ratios did not). A module is *named* when its
interval excludes 0; the intervals of the modules that can be named are corrected for testing
them together (Bonferroni: 97.5 % each for two), so two unchanged modules are not named in more
than 5 % of comparisons (``benchmarks/false_claims.py`` measures it over 200 seeds). Where overall
accuracy moves significantly and no named module moved that way, the sentence says why (the
reader on the other side's contexts) or that no single module explains it.

Answer accuracy and refined accuracy R are compared on the queries both sides judged. Gap groups
are removed jointly by default (``gap="joint"``: groups no side answered at all); ``gap="each"``
finds them per side, as the paper's Table 3 does. Two runs over different query sets are compared
on their intersection, and the result says so (``query_sets``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, TypedDict

import numpy as np

from ragdx.errors import RagdxError
from ragdx.evaluate.config import GapRule, parse_choice
from ragdx.evaluate.protocol import by_style, group_stats
from ragdx.evaluate.records import Judgement
from ragdx.evaluate.stats import (
    GroupStats,
    bootstrap_difference,
    common_weights,
    difference_samples,
    mcnemar,
    rate_difference_samples,
    summarise_difference,
    wilcoxon_groups,
)

#: queries with identical contexts needed before the language models are compared on them alone
MIN_FOOTING = 20
MODULES = ("retrieval", "language model")
HEADLINE = ("accuracy", "refined_accuracy", "retrieval_accuracy", "gap_share")
METRIC_WORDS = {"accuracy": "accuracy", "refined_accuracy": "refined accuracy R (gap groups removed jointly)",
                "retrieval_accuracy": "retrieval on its own (evidence rule)",
                "gap_share": "λ (answer-based gap groups, joint)",
                "acc_retrieval_db": "Acc_retrieval_db (answer-based)",
                "kb_coverage": "knowledge-base coverage (known)"}


class Difference(TypedDict):
    """B − A of one metric: both values, the interval and a two-sided bootstrap p."""

    a: float
    b: float
    difference: float
    ci_low: float
    ci_high: float
    bootstrap_p: float


class ModuleEntry(Difference, total=False):
    """One module's comparison on its common footing (``level``: its interval's level, corrected
    for the ``tested`` modules that could be named; ``confounded``: shown, never named)."""

    metric: str
    words: str
    footing: str
    pairs: int
    test: dict[str, Any] | None
    note: str
    confounded: bool
    level: float
    tested: int


class ComparisonResult(TypedDict):
    """The layout of ``comparison.json`` (:meth:`Comparison.to_dict`), typed."""

    a: str
    b: str
    mode: str
    gap: str
    n_boot: int
    level: float
    queries: dict[str, Any]
    inputs: dict[str, Any]
    groups: int
    shared_groups: int
    differences: dict[str, Difference]
    modules: dict[str, ModuleEntry]
    tests: dict[str, dict[str, Any]]
    warnings: list[str]
    sentence: str


class PairedComparisonResult(ComparisonResult, total=False):
    """Two runs: also the accuracy change split by what the two retrievers did (see ``_by_retrieval``)."""

    accuracy_by_retrieval: list[dict[str, Any]]


class StyleComparisonResult(ComparisonResult, total=False):
    """Two styles of one run: also the accuracy change group by group, both styles weighted alike."""

    accuracy_by_group: Difference


@dataclass
class Comparison:
    """Side B against side A, typed: what :func:`compare`, :func:`compare_styles`, ``ragdx.compare``
    and :func:`~ragdx.evaluate.compare_paths` return; :meth:`to_dict` is the layout of
    ``comparison.json`` (:class:`ComparisonResult`) and of the report's comparisons."""

    a: str
    b: str
    #: "paired queries" (two runs) or "same groups, different queries" (two styles)
    mode: str
    gap: str
    n_boot: int
    level: float
    queries: dict[str, Any]
    inputs: dict[str, Any]
    groups: int
    shared_groups: int
    differences: dict[str, Difference]
    modules: dict[str, ModuleEntry]
    tests: dict[str, dict[str, Any]]
    warnings: list[str]
    #: the one sentence: which module behaves differently, and whether significantly
    sentence: str
    #: two runs: the accuracy change split by what the two retrievers did
    accuracy_by_retrieval: list[dict[str, Any]] | None = None
    #: two styles: the accuracy change group by group
    accuracy_by_group: Difference | None = None
    #: keys a later ragdx wrote that this one does not know, kept for the round trip
    extra: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def differing(self) -> list[str]:
        """The modules the sentence names (significant on a common footing)."""
        return differing_modules(self)

    def lines(self) -> list[str]:
        """The sentence for a console (see :func:`sentence_lines`)."""
        return sentence_lines(self)

    def markdown(self) -> str:
        return compare_markdown(self)

    def to_dict(self) -> dict[str, Any]:
        """The plain dict, its keys in the order ``comparison.json`` has always had them: the
        split of the accuracy change (whichever the mode has) just before the sentence."""
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("extra", "sentence")}
        for name in ("accuracy_by_retrieval", "accuracy_by_group"):
            if out[name] is None:
                del out[name]
        return {**out, "sentence": self.sentence, **self.extra}

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any]) -> Comparison:
        names = {f.name for f in fields(cls)} - {"extra"}
        return cls(**{k: v for k, v in obj.items() if k in names},
                   extra={k: v for k, v in obj.items() if k not in names})


def _plain(result: Comparison | Mapping[str, Any]) -> Mapping[str, Any]:
    return result.to_dict() if isinstance(result, Comparison) else result


def _judged(js: Sequence[Judgement]) -> list[Judgement]:
    return [j for j in js if not getattr(j, "error", None)]


def _kb_known(js: Sequence[Judgement]) -> bool:
    return bool(js) and all(j.kb_supported is not None for j in js)


def _diff(a: Sequence[Judgement], b: Sequence[Judgement], groups: list[str], *, gap: str, n_boot: int, seed: int,
          level: float, joint_gap: np.ndarray | None = None) -> dict[str, dict[str, float]]:
    sa, sb = group_stats(a, group_ids=groups), group_stats(b, group_ids=groups)
    if gap == "joint":
        joint = joint_gap if joint_gap is not None else (sa.correct + sb.correct) == 0
        sa, sb = sa.with_gap(joint & (sa.n > 0)), sb.with_gap(joint & (sb.n > 0))
    return bootstrap_difference(sa, sb, n_boot=n_boot, seed=seed, level=level)


def _entry(d: dict[str, float | np.ndarray], *, metric: str, words: str, footing: str, pairs: int,
           test: dict[str, Any] | None, note: str = "") -> dict[str, Any]:
    return {**d, "metric": metric, "words": words, "footing": footing, "pairs": pairs, "test": test, "note": note}


def _nan_entry(metric: str, words: str, footing: str, note: str) -> dict[str, Any]:
    nan = math.nan
    return _entry({"a": nan, "b": nan, "difference": nan, "ci_low": nan, "ci_high": nan, "bootstrap_p": nan},
                  metric=metric, words=words, footing=footing, pairs=0, test=None, note=note)


def _pending(a: float, b: float, difference: float, samples: np.ndarray, **meta: Any) -> dict[str, Any]:
    """A module's entry whose interval is set once the number of modules tested is known."""
    return _entry({"a": a, "b": b, "difference": difference, "_samples": samples}, **meta)


def _finish(modules: dict[str, Any], level: float) -> None:
    """Intervals of the modules, corrected for testing several at once.

    A comparison names *any* module whose interval excludes 0, so with two modules each tested at
    5 % a pair of systems where neither changed is told one did about 10 % of the time
    (benchmarks/false_claims.py measured it). Bonferroni over the modules that can be named (a
    defined difference, not confounded with the contexts): each interval at 1 − 5 %/m, so the chance
    of naming any unchanged module stays within 5 %. A confounded entry cannot be named, so it
    neither counts nor is corrected (its interval is shown at the comparison's level)."""
    testable = [m for m, e in modules.items() if "_samples" in e and not e.get("confounded")
                and math.isfinite(e["difference"])]
    adjusted = 1 - (1 - level) / max(1, len(testable))
    for m, e in modules.items():
        if "_samples" not in e:
            e.setdefault("level", level)
            continue
        at = adjusted if m in testable else level
        samples = e.pop("_samples")
        e.update(summarise_difference(e["a"], e["b"], e["difference"], samples, at))
        e["level"] = at
        e["tested"] = len(testable)


def _paired_modules(a: dict[str, Judgement], b: dict[str, Judgement], shared: list[str], groups: list[str], *,
                    gap: str, n_boot: int, seed: int, level: float) -> dict[str, Any]:
    out: dict[str, Any] = {}
    # retrieval: the same queries, both judged
    both = [i for i in shared if a[i].retrieval_correct is not None and b[i].retrieval_correct is not None]
    if both:
        ra, rb = [a[i] for i in both], [b[i] for i in both]
        pa, pb, samples = difference_samples(group_stats(ra, group_ids=groups), group_stats(rb, group_ids=groups),
                                             "retrieval_accuracy", n_boot=n_boot, seed=seed)
        out["retrieval"] = _pending(pa, pb, pb - pa, samples, metric="retrieval_accuracy", words="evidence retrieved",
                                    footing="the same queries, retrieval judged on both sides", pairs=len(both),
                                    test=mcnemar([bool(x.retrieval_correct) for x in ra],
                                                 [bool(x.retrieval_correct) for x in rb]))
    else:
        out["retrieval"] = _nan_entry("retrieval_accuracy", "evidence retrieved", "none",
                                      "no query whose retrieval both sides could be judged on")

    # language model: identical contexts holding the evidence (or not known to lack it)
    def holds(j: Judgement) -> bool:
        return j.retrieval_correct is not False

    same = [i for i in shared if list(a[i].retrieved_ids) == list(b[i].retrieved_ids) and holds(a[i])]
    footing, note = "the same queries with identical retrieved documents", ""
    ids = same
    if len(same) < MIN_FOOTING:
        ids = [i for i in shared if a[i].retrieval_correct and b[i].retrieval_correct]
        footing = "the same queries, evidence retrieved by both"
        note = (f"only {len(same)} queries had identical contexts; on these {len(ids)} both retrieved the evidence "
                "but the other retrieved documents differ, so part of a difference may be the retrievers'")
    if ids:
        la, lb = [a[i] for i in ids], [b[i] for i in ids]
        pa, pb, samples = difference_samples(group_stats(la, group_ids=groups), group_stats(lb, group_ids=groups),
                                             "accuracy", n_boot=n_boot, seed=seed)
        out["language model"] = _pending(pa, pb, pb - pa, samples, metric="accuracy_on_common_footing",
                                         words="accuracy on a common footing", footing=footing, pairs=len(ids),
                                         note=note, test=mcnemar([x.correct for x in la], [x.correct for x in lb]))
        # without identical inputs a reader difference cannot be told from a context difference:
        # shown, never attributed to the language model
        out["language model"]["confounded"] = bool(note)
    else:
        out["language model"] = _nan_entry("accuracy_on_common_footing", "accuracy on a common footing", footing,
                                           "no query on which both systems had the evidence: the language models "
                                           "cannot be compared on a common footing")
    _finish(out, level)
    return out


def _style_modules(sa_js: Sequence[Judgement], sb_js: Sequence[Judgement], groups: list[str], *, gap: str,
                   n_boot: int, seed: int, level: float, joint_gap: np.ndarray) -> dict[str, Any]:
    """Two styles: different queries of the same groups, compared group by group.

    Each module is compared through its rate *per group*, both styles' rates of a group weighted
    alike (``stats.rate_difference_samples``): pooled ratios weigh a group by its number of queries
    of each style, so where a group has 3 short and 1 long phrasing (or retrieval judged on fewer of
    one style) identical behaviour gave a "significant" difference. The language model is attributed
    only on phrasings of both styles that got *identical retrieved documents* holding the evidence
    (as two runs are compared): a reader answering from other documents is not the same test, and an
    identical deterministic reader was found "less robust on long" from the contexts alone."""
    out: dict[str, Any] = {}
    kb_known = _kb_known(sa_js) and _kb_known(sb_js)
    sa, sb = group_stats(sa_js, group_ids=groups), group_stats(sb_js, group_ids=groups)
    metric = "retrieval_accuracy" if kb_known else "retrieval_refined"
    if not kb_known:
        sa, sb = sa.with_gap(joint_gap & (sa.n > 0)), sb.with_gap(joint_gap & (sb.n > 0))
    per_a = _per_group(sa, "ret_correct", "ret_known", gap_out=not kb_known)
    per_b = _per_group(sb, "ret_correct", "ret_known", gap_out=not kb_known)
    w = common_weights(np.where(np.isfinite(per_a), sa.ret_known, 0), np.where(np.isfinite(per_b), sb.ret_known, 0))
    pa, pb, diff, samples, used = rate_difference_samples(per_a, per_b, w, n_boot=n_boot, seed=seed)
    words = "evidence retrieved" if kb_known else "retrieval-only R"
    footing = "the same semantic groups" + ("" if kb_known else ", answer-based gap groups removed jointly")
    if used:
        out["retrieval"] = _pending(pa, pb, diff, samples, metric=metric, words=words, footing=footing, pairs=used,
                                    test=wilcoxon_groups(per_a, per_b))
    else:
        out["retrieval"] = _nan_entry(metric, words, "none", "no group whose retrieval both styles could be judged on")

    # language model: per group, the phrasings of both styles whose retrieved documents (the same,
    # in the same order) hold the evidence
    index = {g: i for i, g in enumerate(groups)}
    contexts: list[dict[str, set[tuple[str, ...]]]] = [{}, {}]
    for side, js in enumerate((sa_js, sb_js)):
        for j in js:
            if j.retrieval_correct:
                contexts[side].setdefault(j.group_id, set()).add(tuple(j.retrieved_ids))
    shared = {g: c & contexts[1][g] for g, c in contexts[0].items() if g in contexts[1] and c & contexts[1][g]}
    size = len(groups)
    if len(shared) >= MIN_FOOTING:
        counts = [np.zeros(size), np.zeros(size), np.zeros(size), np.zeros(size)]  # n, correct per side
        for side, js in enumerate((sa_js, sb_js)):
            for j in js:
                if j.retrieval_correct and tuple(j.retrieved_ids) in shared.get(j.group_id, ()):
                    counts[2 * side][index[j.group_id]] += 1
                    counts[2 * side + 1][index[j.group_id]] += bool(j.correct)
        na, ca, nb, cb = counts
        lm_footing = "semantic groups whose phrasings of both styles got identical documents holding the evidence"
        note = ""
    else:
        na, ca, nb, cb = sa.lm_n, sa.lm_correct, sb.lm_n, sb.lm_correct
        lm_footing = "semantic groups where both styles retrieved the evidence"
        note = (f"only {len(shared)} groups had phrasings of both styles with identical retrieved documents; here the "
                "styles' other retrieved documents differ, so part of a difference may be the retriever's (the "
                "contexts it hands the reader), not the reader's")
    with np.errstate(invalid="ignore", divide="ignore"):
        la = np.where(na > 0, ca / np.where(na > 0, na, 1), np.nan)
        lb = np.where(nb > 0, cb / np.where(nb > 0, nb, 1), np.nan)
    pa, pb, diff, samples, used = rate_difference_samples(la, lb, common_weights(na, nb), n_boot=n_boot, seed=seed)
    if used:
        out["language model"] = _pending(
            pa, pb, diff, samples, metric="lm_accuracy_given_retrieval",
            words="accuracy where the evidence was retrieved", footing=lm_footing, pairs=used, note=note,
            test=wilcoxon_groups(la, lb))
        out["language model"]["confounded"] = bool(note)
    else:
        out["language model"] = _nan_entry("lm_accuracy_given_retrieval", "accuracy where the evidence was retrieved",
                                           "none", "no group in which both styles retrieved the evidence")
    _finish(out, level)
    return out


def _per_group(stats: GroupStats, num: str, den: str, gap_out: bool = False) -> np.ndarray:
    n, d = getattr(stats, num), getattr(stats, den)
    keep = ~stats.gap if gap_out else np.ones(len(n), dtype=bool)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where((d > 0) & keep, n / np.where(d > 0, d, 1), np.nan)


def compare(a: Sequence[Judgement], b: Sequence[Judgement], *, names: tuple[str, str] = ("A", "B"),
            gap: str = "joint", n_boot: int = 1000, seed: int = 0, level: float = 0.95) -> Comparison:
    """Compare side B against side A (see the module docs); ``gap``: a :class:`GapRule`'s value."""
    gap = parse_choice(GapRule, gap, "gap rule", "gap").value
    checks = {side: getattr(js, "check", None) for side, js in (("a", a), ("b", b))}
    failed = {"a": len(a) - len(_judged(a)), "b": len(b) - len(_judged(b))}
    a, b = _judged(a), _judged(b)
    if not a or not b:
        raise RagdxError(f"nothing to compare: {len(a)} against {len(b)} judged queries", field="compare")
    ids_a, ids_b = {j.id: j for j in a}, {j.id: j for j in b}
    shared = [i for i in ids_a if i in ids_b]
    paired = bool(shared)
    warnings: list[str] = []
    if paired:
        if len(shared) < len(ids_a) or len(shared) < len(ids_b):
            warnings.append(f"different query sets: {names[0]} has {len(ids_a)} judged queries, {names[1]} "
                            f"{len(ids_b)}; compared on the {len(shared)} both have")
        a, b = [ids_a[i] for i in shared], [ids_b[i] for i in shared]
    for side, name in (("a", names[0]), ("b", names[1])):
        c = checks[side]
        if c is not None and not c.complete:
            warnings.append(f"{name}: {c.coverage()} of its run" + (" (dataset changed)" if c.dataset_changed else ""))
        if c is not None and not c.retrieval_reliable:
            warnings.append(f"{name}: retrieved ids do not match the knowledge base's documents; "
                            "retrieval not compared")
    groups = list(dict.fromkeys([j.group_id for j in a] + [j.group_id for j in b]))
    common = set(j.group_id for j in a) & set(j.group_id for j in b)
    if not common:
        raise RagdxError("the two sides share no semantic group", field="compare")
    sa0, sb0 = group_stats(a, group_ids=groups), group_stats(b, group_ids=groups)
    joint_gap = (sa0.correct + sb0.correct) == 0
    diffs = _diff(a, b, groups, gap=gap, n_boot=n_boot, seed=seed, level=level, joint_gap=joint_gap)
    if paired:
        modules = _paired_modules(ids_a, ids_b, shared, groups, gap=gap, n_boot=n_boot, seed=seed, level=level)
        answer_test = mcnemar([ids_a[i].correct for i in shared], [ids_b[i].correct for i in shared])
    else:
        modules = _style_modules(a, b, groups, gap=gap, n_boot=n_boot, seed=seed, level=level, joint_gap=joint_gap)
        answer_test = wilcoxon_groups(_per_group(sa0, "correct", "n"), _per_group(sb0, "correct", "n"))
        # whether accuracy moved between styles, group by group with both styles' groups weighted
        # alike: the pooled accuracies of the table weigh a group by its queries of each style, so
        # identical answers in groups of 3 short and 1 long phrasing made a "significant" change
        pa, pb, diff, samples, _ = rate_difference_samples(
            _per_group(sa0, "correct", "n"), _per_group(sb0, "correct", "n"), common_weights(sa0.n, sb0.n),
            n_boot=n_boot, seed=seed)
        by_group = summarise_difference(pa, pb, diff, samples, level)
    tests = {"answer": answer_test, **{m: e["test"] for m, e in modules.items() if e["test"] is not None}}
    result: dict[str, Any] = {
        "a": names[0], "b": names[1], "mode": "paired queries" if paired else "same groups, different queries",
        "gap": gap, "n_boot": n_boot, "level": level,
        "queries": {"a": len(ids_a), "b": len(ids_b), "shared": len(shared) if paired else 0, "judge_failed": failed},
        "inputs": {k: (c.to_dict() if c is not None else None) for k, c in checks.items()},
        "groups": len(groups), "shared_groups": len(common), "differences": diffs, "modules": modules,
        "tests": tests, "warnings": warnings}
    if paired:
        result["accuracy_by_retrieval"] = _by_retrieval(ids_a, ids_b, shared)
    else:
        result["accuracy_by_group"] = by_group
    result["sentence"] = sentence(result)
    return Comparison.from_dict(result)


def compare_styles(judgements: Sequence[Judgement], a: str, b: str, **kwargs: Any) -> Comparison:
    """Style B against style A of one run (e.g. ``a="short", b="long"``)."""
    styles = by_style(judgements)
    for s in (a, b):
        if s not in styles:
            raise RagdxError(f"no queries of style {s!r} (styles: {', '.join(sorted(styles))})", field="style")
    return compare(styles[a], styles[b], names=(a, b), **kwargs)


def significant(entry: dict[str, float]) -> bool:
    lo, hi = entry["ci_low"], entry["ci_high"]
    return not (math.isnan(lo) or math.isnan(hi)) and (lo > 0 or hi < 0)


def differing_modules(result: Comparison | Mapping[str, Any]) -> list[str]:
    """The modules whose comparison is significant on a common footing (what the sentence names)."""
    result = _plain(result)
    return [m for m in MODULES if m in result["modules"] and significant(result["modules"][m])
            and not result["modules"][m].get("confounded")]


def _pct(level: float) -> str:
    return f"{level * 100:g}"


def _direction(e: dict[str, Any]) -> int:
    """+1 / −1 where the interval lies above / below 0, else 0."""
    if not significant(e):
        return 0
    return 1 if e["difference"] > 0 else -1


def _by_retrieval(a: dict[str, Judgement], b: dict[str, Judgement], shared: list[str]) -> list[dict[str, Any]]:
    """Two runs: the accuracy change split by what the two retrievers did on each query (both found
    the evidence, only A, only B, neither or not judged). ``contribution`` is the cell's share of
    the queries times its accuracy change, so the contributions add up to the accuracy difference:
    where the change comes from, e.g. a better retriever whose new finds its reader misreads."""
    cells: dict[str, list[int]] = {c: [0, 0, 0] for c in ("both", "only_a", "only_b", "neither")}
    for i in shared:
        ra, rb = a[i].retrieval_correct is True, b[i].retrieval_correct is True
        cell = cells["both" if ra and rb else "only_a" if ra else "only_b" if rb else "neither"]
        cell[0] += 1
        cell[1] += bool(a[i].correct)
        cell[2] += bool(b[i].correct)
    n = max(1, len(shared))
    return [{"cell": c, "queries": q, "a_correct": ca, "b_correct": cb, "contribution": (cb - ca) / n}
            for c, (q, ca, cb) in cells.items() if q]


def _why(result: Mapping[str, Any], towards: int) -> str:
    """Why accuracy moved (``towards``: its significant direction) where no named module moved that
    way. Two runs: the retrieval outcome whose queries moved accuracy most that way (a better
    retriever's new finds that its reader answers less often than the other system answered them
    without the evidence, a reader doing worse where both found it on contexts that differ beyond
    it, ...). Two styles: the reader's accuracy where the evidence was retrieved, on each style's
    own contexts. "" when nothing measured moved that way."""
    a, b = result["a"], result["b"]
    worse = "worse" if towards < 0 else "better"
    paired = result["mode"] == "paired queries"
    cells = [c for c in result.get("accuracy_by_retrieval") or [] if c["contribution"] * towards > 0]
    if paired and cells:
        c = max(cells, key=lambda c: abs(c["contribution"]))
        q, ca, cb, part = c["queries"], c["a_correct"], c["b_correct"], c["contribution"]
        answered = f"{b} answered {cb} of them, {a} {ca} ({part:+.3f} of the accuracy change)"
        if c["cell"] == "both":
            return (f"the reader does {worse} on the contexts {b}'s retriever hands it: on the {q} queries both "
                    f"retrieved the evidence for, with other documents around it, {answered}")
        if c["cell"] == "only_b":
            return (f"the reader does {worse} on the contexts {b}'s retriever hands it: on the {q} queries only "
                    f"{b} retrieved the evidence for, {b} answered {cb} of them and {a}, without the evidence, {ca} "
                    f"({part:+.3f} of the accuracy change)")
        if c["cell"] == "only_a":
            return (f"on the {q} queries only {a} retrieved the evidence for, {b} answered {cb} of them and {a} "
                    f"{ca} ({part:+.3f} of the accuracy change)")
        return (f"on the {q} queries neither retrieved the evidence for (or whose retrieval could not be judged), "
                f"answered without it, {answered}")
    lm = result["modules"].get("language model") or {}
    if not paired and lm.get("confounded") and _direction(lm) == towards:
        return (f"the reader does {worse} on {b} phrasings where the evidence was retrieved "
                f"({lm['b']:.3f} against {lm['a']:.3f}, {lm['difference']:+.3f}, "
                f"{_pct(lm.get('level', result['level']))} % CI {lm['ci_low']:+.3f} to {lm['ci_high']:+.3f}), with "
                "other retrieved documents, so the reader and the contexts it was handed cannot be told apart")
    given = result["differences"].get("lm_accuracy_given_retrieval")
    if not paired and given and _direction(given) == towards:
        return (f"the reader does {worse} on {b} phrasings: accuracy where the evidence was retrieved is "
                f"{given['b']:.3f} against {given['a']:.3f} ({given['difference']:+.3f}, CI {given['ci_low']:+.3f} "
                f"to {given['ci_high']:+.3f}; each style's own queries)")
    return ""


def sentence(result: dict[str, Any]) -> str:
    """One plain sentence: which module behaves differently, whether it is significant, and — where
    overall accuracy moved significantly in a way no named module explains — why, or that no single
    module does (never "no module differs" beside a significant change of accuracy)."""
    head, parts, tail, warn = _sentence_parts(result)
    return f"{head}. " + "; ".join(parts) + f"; {tail}.{warn}"


def sentence_lines(result: Comparison | Mapping[str, Any]) -> list[str]:
    """The sentence for a console: the verdict first, on its own line, then one line per module and
    one for overall accuracy (a 150-word sentence is read in a report, not in a terminal)."""
    result = _plain(result)
    if "modules" not in result or "differences" not in result:
        return [result["sentence"]]  # a result read back without its parts: the sentence as written
    head, parts, tail, warn = _sentence_parts(result)
    return [f"{head}.", *(f"  {p}" for p in parts), f"  {tail}"] + ([warn.strip()] if warn else [])


def _sentence_parts(result: Mapping[str, Any]) -> tuple[str, list[str], str, str]:
    a, b = result["a"], result["b"]
    parts = []
    differing = differing_modules(result)
    for module in MODULES:
        e = result["modules"].get(module)
        if e is None:
            continue
        if math.isnan(e["difference"]):
            parts.append(f"{module}: not compared ({e['note']})")
            continue
        sig = significant(e) and not e.get("confounded")
        if result["mode"] == "paired queries":
            verdict = f"the {module} of {b} does {'worse' if e['difference'] < 0 else 'better'}"
        else:  # two styles of one system: GRAMMAR's robustness question
            verdict = f"the {module} is {'less' if e['difference'] < 0 else 'more'} robust on {b}"
        level = e.get("level", result["level"])
        adjusted = f", corrected for {e['tested']} modules tested" if e.get("tested", 1) > 1 else ""
        parts.append(
            f"{module}: {e['words']} {e['a']:.3f} for {a} vs {e['b']:.3f} for {b} on {e['footing']} "
            f"({e['pairs']}), difference {e['difference']:+.3f} ({_pct(level)} % CI {e['ci_low']:+.3f} to "
            f"{e['ci_high']:+.3f}{adjusted}; " + (f"significant, {verdict})" if sig else
                                                  "significant but confounded with the contexts, so not attributed to "
                                                  "the language model)" if significant(e) else "not significant)")
            + (f" — {e['note']}" if e["note"] else ""))
    where = "on" if result["mode"] != "paired queries" else "in"
    acc = result["differences"]["accuracy"]
    # two styles: whether accuracy moved is read group by group (see ``compare``)
    by_group = result.get("accuracy_by_group")
    moved = _direction(by_group if by_group is not None else acc)
    lower = "lower" if moved < 0 else "higher"
    if differing:
        head = (f"The {' and the '.join(differing)} behave{'s' if len(differing) == 1 else ''} differently "
                f"{where} {b} than {where} {a}")
        explained = moved == 0 or any(_direction(result["modules"][m]) == moved for m in differing)
        if not explained:
            why = _why(result, moved)
            head += (f", yet overall accuracy is significantly {lower} {where} {b}: "
                     + (why if why else "no single module explains that"))
    elif moved:
        why = _why(result, moved)
        head = (f"Accuracy is significantly {lower} {where} {b} than {where} {a}, and no single module explains it "
                "on a common footing" + (f": {why}" if why else ""))
    else:
        head = f"No module behaves significantly differently {where} {b} than {where} {a}"
    tail = (f"overall accuracy {acc['a']:.3f} vs {acc['b']:.3f} ({acc['difference']:+.3f}, "
            f"CI {acc['ci_low']:+.3f} to {acc['ci_high']:+.3f}); paired test on answers p = "
            f"{result['tests']['answer']['p_value']:.3g}")
    if by_group is not None and not math.isclose(by_group["difference"], acc["difference"], abs_tol=1e-9):
        # (balanced styles: the same numbers, not repeated)
        tail += (f"; group by group (both styles' groups weighted alike) {by_group['a']:.3f} vs {by_group['b']:.3f} "
                 f"({by_group['difference']:+.3f}, CI {by_group['ci_low']:+.3f} to {by_group['ci_high']:+.3f})")
    warn = "".join(f" Note: {w}." for w in result.get("warnings", []))
    return head, parts, tail, warn


def compare_markdown(result: Comparison | Mapping[str, Any]) -> str:
    result = _plain(result)
    a, b = result["a"], result["b"]
    lines = [f"### {b} against {a}", "", result["sentence"], "",
             f"| metric | {a} | {b} | difference | {int(result['level'] * 100)} % CI (groups resampled, "
             f"{result['n_boot']}x) | bootstrap p | compared on |", "|---|---:|---:|---:|---|---:|---|"]

    def row(label: str, e: dict[str, Any], footing: str) -> str:
        if math.isnan(e["difference"]):
            return f"| {label} | – | – | – | – | – | {footing} |"
        return (f"| {label} | {e['a']:.3f} | {e['b']:.3f} | {e['difference']:+.3f} | "
                f"[{e['ci_low']:+.3f}, {e['ci_high']:+.3f}] | {e['bootstrap_p']:.3f} | {footing} |")

    q = result["queries"]
    on = f"{q['shared']} shared queries" if result["mode"] == "paired queries" else "the same groups"
    for key in HEADLINE:
        lines.append(row(METRIC_WORDS[key], result["differences"][key], on))
    for module, e in result["modules"].items():
        level = e.get("level", result["level"])
        at = (f"; {_pct(level)} % CI, corrected for {e['tested']} modules tested"
              if abs(level - result["level"]) > 1e-12 else "")
        lines.append(row(f"**{module}**: {e['words']}", e, f"{e['footing']} ({e['pairs']}{at})"))
    lines.append("")
    for what, t in result["tests"].items():
        lines.append(f"- {what}: {t['test']}, p = {t['p_value']:.3g} ({t['pairs']} pairs)")
    for w in result.get("warnings", []):
        lines.append(f"- warning: {w}")
    return "\n".join(lines)
