"""Hypothesis tests: two runs on one dataset, or two styles of one run.

Every difference (B − A) has a 95 % interval from a bootstrap that resamples semantic groups,
both sides with the same resample, so the pairing by group is kept. What is compared for each
module is chosen so that a module that did not change shows no difference *by construction*:

* **retrieval**: the evidence rule (``reference.RULE_WORDS``) on the queries whose retrieval both
  sides could be judged on (two runs: the same queries, paired; McNemar). Where the knowledge
  base's content is known, queries whose facts it lacks are not judged at all, so nothing is
  removed on the answers' word; otherwise gap groups are removed jointly (GRAMMAR's retrieval-only R).
* **language model**: accuracy on a common footing. Two runs: the queries on which both systems
  handed their language model *the same retrieved documents in the same order* and that hold the
  evidence — identical readers then answer identically, whatever the retrievers did elsewhere.
  When fewer than ``MIN_FOOTING`` such queries exist, the queries on which both retrieved the
  evidence are used and the sentence says their contexts differ beyond the evidence. Two styles
  (different queries of the same groups): the accuracy where retrieval was right, over the groups
  where both styles retrieved the evidence at least once.

Answer accuracy and refined accuracy R are compared on the queries both sides judged. Gap groups
are removed jointly by default (``gap="joint"``: groups no side answered at all); ``gap="each"``
finds them per side, as the paper's Table 3 does. Two runs over different query sets are compared
on their intersection, and the result says so (``query_sets``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ragdx.errors import RagdxError
from ragdx.evaluate.protocol import by_style, group_stats
from ragdx.evaluate.records import Judgement
from ragdx.evaluate.stats import bootstrap_difference, mcnemar, wilcoxon_groups

#: queries with identical contexts needed before the language models are compared on them alone
MIN_FOOTING = 20
MODULES = ("retrieval", "language model")
HEADLINE = ("accuracy", "refined_accuracy", "retrieval_accuracy", "gap_share")
METRIC_WORDS = {"accuracy": "accuracy", "refined_accuracy": "refined accuracy R (gap groups removed jointly)",
                "retrieval_accuracy": "retrieval on its own (evidence rule)",
                "gap_share": "λ (answer-based gap groups, joint)",
                "acc_retrieval_db": "Acc_retrieval_db (answer-based)",
                "kb_coverage": "knowledge-base coverage (known)"}


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


def _entry(d: dict[str, float], *, metric: str, words: str, footing: str, pairs: int, test: dict | None,
           note: str = "") -> dict[str, Any]:
    return {**d, "metric": metric, "words": words, "footing": footing, "pairs": pairs, "test": test, "note": note}


def _nan_entry(metric: str, words: str, footing: str, note: str) -> dict[str, Any]:
    nan = math.nan
    return _entry({"a": nan, "b": nan, "difference": nan, "ci_low": nan, "ci_high": nan, "bootstrap_p": nan},
                  metric=metric, words=words, footing=footing, pairs=0, test=None, note=note)


def _paired_modules(a: dict[str, Judgement], b: dict[str, Judgement], shared: list[str], groups: list[str], *,
                    gap: str, n_boot: int, seed: int, level: float) -> dict[str, Any]:
    out: dict[str, Any] = {}
    # retrieval: the same queries, both judged
    both = [i for i in shared if a[i].retrieval_correct is not None and b[i].retrieval_correct is not None]
    if both:
        ra, rb = [a[i] for i in both], [b[i] for i in both]
        d = bootstrap_difference(group_stats(ra, group_ids=groups), group_stats(rb, group_ids=groups),
                                 n_boot=n_boot, seed=seed, level=level)["retrieval_accuracy"]
        out["retrieval"] = _entry(d, metric="retrieval_accuracy", words="evidence retrieved",
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
        d = bootstrap_difference(group_stats(la, group_ids=groups), group_stats(lb, group_ids=groups),
                                 n_boot=n_boot, seed=seed, level=level)["accuracy"]
        out["language model"] = _entry(d, metric="accuracy_on_common_footing", words="accuracy on a common footing",
                                       footing=footing, pairs=len(ids), note=note,
                                       test=mcnemar([x.correct for x in la], [x.correct for x in lb]))
        # without identical inputs a reader difference cannot be told from a context difference:
        # shown, never attributed to the language model
        out["language model"]["confounded"] = bool(note)
    else:
        out["language model"] = _nan_entry("accuracy_on_common_footing", "accuracy on a common footing", footing,
                                           "no query on which both systems had the evidence: the language models "
                                           "cannot be compared on a common footing")
    return out


def _style_modules(sa_js: Sequence[Judgement], sb_js: Sequence[Judgement], groups: list[str], *, gap: str,
                   n_boot: int, seed: int, level: float, joint_gap: np.ndarray) -> dict[str, Any]:
    out: dict[str, Any] = {}
    kb_known = _kb_known(sa_js) and _kb_known(sb_js)
    sa, sb = group_stats(sa_js, group_ids=groups), group_stats(sb_js, group_ids=groups)
    metric = "retrieval_accuracy" if kb_known else "retrieval_refined"
    if not kb_known:
        sa, sb = sa.with_gap(joint_gap & (sa.n > 0)), sb.with_gap(joint_gap & (sb.n > 0))
    d = bootstrap_difference(sa, sb, n_boot=n_boot, seed=seed, level=level)[metric]
    per_a = _per_group(sa, "ret_correct", "ret_known", gap_out=not kb_known)
    per_b = _per_group(sb, "ret_correct", "ret_known", gap_out=not kb_known)
    out["retrieval"] = _entry(
        d, metric=metric, words="evidence retrieved" if kb_known else "retrieval-only R",
        footing="the same semantic groups" + ("" if kb_known else ", answer-based gap groups removed jointly"),
        pairs=int(np.isfinite(per_a - per_b).sum()), test=wilcoxon_groups(per_a, per_b))
    # LM: only groups where both styles retrieved the evidence at least once
    common = (sa.lm_n > 0) & (sb.lm_n > 0)
    keep = [g for g, c in zip(groups, common, strict=True) if c]
    if keep:
        kept = set(keep)  # once: a set per record made this quadratic (minutes at 100k queries)
        ka = [j for j in sa_js if j.group_id in kept]
        kb = [j for j in sb_js if j.group_id in kept]
        ga, gb = group_stats(ka, group_ids=keep), group_stats(kb, group_ids=keep)
        d = bootstrap_difference(ga, gb, n_boot=n_boot, seed=seed, level=level)["lm_accuracy_given_retrieval"]
        out["language model"] = _entry(
            d, metric="lm_accuracy_given_retrieval", words="accuracy where the evidence was retrieved",
            footing="semantic groups where both styles retrieved the evidence", pairs=len(keep),
            test=wilcoxon_groups(_per_group(ga, "lm_correct", "lm_n"), _per_group(gb, "lm_correct", "lm_n")))
    else:
        out["language model"] = _nan_entry("lm_accuracy_given_retrieval", "accuracy where the evidence was retrieved",
                                           "none", "no group in which both styles retrieved the evidence")
    return out


def _per_group(stats, num: str, den: str, gap_out: bool = False) -> np.ndarray:
    n, d = getattr(stats, num), getattr(stats, den)
    keep = ~stats.gap if gap_out else np.ones(len(n), dtype=bool)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where((d > 0) & keep, n / np.where(d > 0, d, 1), np.nan)


def compare(a: Sequence[Judgement], b: Sequence[Judgement], *, names: tuple[str, str] = ("A", "B"),
            gap: str = "joint", n_boot: int = 1000, seed: int = 0, level: float = 0.95) -> dict[str, Any]:
    """Compare side B against side A (see the module docs)."""
    if gap not in ("joint", "each"):
        raise RagdxError(f"gap must be 'joint' or 'each', not {gap!r}", field="gap")
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
    tests = {"answer": answer_test, **{m: e["test"] for m, e in modules.items() if e["test"] is not None}}
    result = {"a": names[0], "b": names[1], "mode": "paired queries" if paired else "same groups, different queries",
              "gap": gap, "n_boot": n_boot, "level": level,
              "queries": {"a": len(ids_a), "b": len(ids_b), "shared": len(shared) if paired else 0,
                          "judge_failed": failed},
              "inputs": {k: (c.to_dict() if c is not None else None) for k, c in checks.items()},
              "groups": len(groups), "shared_groups": len(common), "differences": diffs, "modules": modules,
              "tests": tests, "warnings": warnings}
    result["sentence"] = sentence(result)
    return result


def compare_styles(judgements: Sequence[Judgement], a: str, b: str, **kwargs: Any) -> dict[str, Any]:
    """Style B against style A of one run (e.g. ``a="short", b="long"``)."""
    styles = by_style(judgements)
    for s in (a, b):
        if s not in styles:
            raise RagdxError(f"no queries of style {s!r} (styles: {', '.join(sorted(styles))})", field="style")
    return compare(styles[a], styles[b], names=(a, b), **kwargs)


def significant(entry: dict[str, float]) -> bool:
    lo, hi = entry["ci_low"], entry["ci_high"]
    return not (math.isnan(lo) or math.isnan(hi)) and (lo > 0 or hi < 0)


def differing_modules(result: dict[str, Any]) -> list[str]:
    """The modules whose comparison is significant on a common footing (what the sentence names)."""
    return [m for m in MODULES if m in result["modules"] and significant(result["modules"][m])
            and not result["modules"][m].get("confounded")]


def sentence(result: dict[str, Any]) -> str:
    """One plain sentence: which module behaves differently, and whether it is significant."""
    a, b = result["a"], result["b"]
    level = int(round(result["level"] * 100))
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
        parts.append(
            f"{module}: {e['words']} {e['a']:.3f} for {a} vs {e['b']:.3f} for {b} on {e['footing']} "
            f"({e['pairs']}), difference {e['difference']:+.3f} ({level} % CI {e['ci_low']:+.3f} to "
            f"{e['ci_high']:+.3f}; " + (f"significant, {verdict})" if sig else
                                        "significant but confounded with the contexts, so not attributed to the "
                                        "language model)" if significant(e) else "not significant)")
            + (f" — {e['note']}" if e["note"] else ""))
    where = "on" if result["mode"] != "paired queries" else "in"
    if differing:
        head = (f"The {' and the '.join(differing)} behave{'s' if len(differing) == 1 else ''} differently "
                f"{where} {b} than {where} {a}")
    else:
        head = f"No module behaves significantly differently {where} {b} than {where} {a}"
    acc = result["differences"]["accuracy"]
    tail = (f"overall accuracy {acc['a']:.3f} vs {acc['b']:.3f} ({acc['difference']:+.3f}, "
            f"CI {acc['ci_low']:+.3f} to {acc['ci_high']:+.3f}); paired test on answers p = "
            f"{result['tests']['answer']['p_value']:.3g}")
    warn = "".join(f" Note: {w}." for w in result.get("warnings", []))
    return f"{head}. " + "; ".join(parts) + f"; {tail}.{warn}"


def compare_markdown(result: dict[str, Any]) -> str:
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
        lines.append(row(f"**{module}**: {e['words']}", e, f"{e['footing']} ({e['pairs']})"))
    lines.append("")
    for what, t in result["tests"].items():
        lines.append(f"- {what}: {t['test']}, p = {t['p_value']:.3g} ({t['pairs']} pairs)")
    for w in result.get("warnings", []):
        lines.append(f"- warning: {w}")
    return "\n".join(lines)
