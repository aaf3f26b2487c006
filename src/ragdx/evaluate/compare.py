"""Hypothesis tests: two styles of one run, or two runs on one dataset.

The difference (B − A) in accuracy, in refined accuracy R, in retrieval-only R (the retrieval
module judged on its own, gap groups removed) and in the language model's accuracy where
retrieval was right, each with a 95 % interval from a bootstrap that resamples semantic groups
(both sides with the same resample, so the pairing by group is kept), and a paired test:

* the same queries on both sides (two runs on one dataset): exact McNemar on the queries;
* different queries of the same groups (two styles): Wilcoxon signed-rank on per-group means.

Gap groups are removed jointly by default (``gap="joint"``: groups no side answered at all,
a knowledge-base property); ``gap="each"`` finds them per side, as the paper's Table 3 does.
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

#: metric -> (the module it describes, words)
MODULE_METRICS = {
    "retrieval_refined": ("retrieval", "retrieval-only R"),
    "lm_accuracy_given_retrieval": ("language model", "accuracy where retrieval was right"),
}
HEADLINE = ("accuracy", "refined_accuracy", "retrieval_refined", "lm_accuracy_given_retrieval",
            "retrieval_accuracy", "gap_share")


def _per_group_mean(stats, num: str, den: str) -> np.ndarray:
    n, d = getattr(stats, num), getattr(stats, den)
    keep = ~stats.gap
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where((d > 0) & keep, n / np.where(d > 0, d, 1), np.nan)


def compare(a: Sequence[Judgement], b: Sequence[Judgement], *, names: tuple[str, str] = ("A", "B"),
            gap: str = "joint", n_boot: int = 1000, seed: int = 0, level: float = 0.95) -> dict[str, Any]:
    """Compare side B against side A (see the module docs)."""
    if gap not in ("joint", "each"):
        raise RagdxError(f"gap must be 'joint' or 'each', not {gap!r}", field="gap")
    if not a or not b:
        raise RagdxError(f"nothing to compare: {len(a)} against {len(b)} judged queries", field="compare")
    groups = list(dict.fromkeys([j.group_id for j in a] + [j.group_id for j in b]))
    common = set(j.group_id for j in a) & set(j.group_id for j in b)
    if not common:
        raise RagdxError("the two sides share no semantic group", field="compare")
    sa, sb = group_stats(a, group_ids=groups), group_stats(b, group_ids=groups)
    if gap == "joint":
        joint = (sa.correct + sb.correct) == 0
        sa, sb = sa.with_gap(joint & (sa.n > 0)), sb.with_gap(joint & (sb.n > 0))
    diffs = bootstrap_difference(sa, sb, n_boot=n_boot, seed=seed, level=level)

    ids_a, ids_b = {j.id: j for j in a}, {j.id: j for j in b}
    shared = [i for i in ids_a if i in ids_b]
    tests: dict[str, Any] = {}
    if len(shared) >= 0.5 * min(len(a), len(b)):
        tests["answer"] = mcnemar([ids_a[i].correct for i in shared], [ids_b[i].correct for i in shared])
        paired = [i for i in shared if ids_a[i].retrieval_correct is not None
                  and ids_b[i].retrieval_correct is not None]
        if paired:
            tests["retrieval"] = mcnemar([bool(ids_a[i].retrieval_correct) for i in paired],
                                         [bool(ids_b[i].retrieval_correct) for i in paired])
    else:
        tests["answer"] = wilcoxon_groups(_per_group_mean(sa, "correct", "n"), _per_group_mean(sb, "correct", "n"))
        tests["retrieval"] = wilcoxon_groups(_per_group_mean(sa, "ret_correct", "ret_known"),
                                             _per_group_mean(sb, "ret_correct", "ret_known"))
    result = {"a": names[0], "b": names[1], "gap": gap, "n_boot": n_boot, "level": level,
              "queries": {"a": len(a), "b": len(b)}, "groups": len(groups), "shared_groups": len(common),
              "differences": diffs, "tests": tests}
    result["sentence"] = sentence(result)
    return result


def compare_styles(judgements: Sequence[Judgement], a: str, b: str, **kwargs: Any) -> dict[str, Any]:
    """Style B against style A of one run (e.g. ``a="short", b="long"``)."""
    styles = by_style(judgements)
    for s in (a, b):
        if s not in styles:
            raise RagdxError(f"no queries of style {s!r} (styles: {', '.join(sorted(styles))})", field="style")
    return compare(styles[a], styles[b], names=(a, b), **kwargs)


def _significant(entry: dict[str, float]) -> bool:
    lo, hi = entry["ci_low"], entry["ci_high"]
    return not (math.isnan(lo) or math.isnan(hi)) and (lo > 0 or hi < 0)


def sentence(result: dict[str, Any]) -> str:
    """One plain sentence: which module behaves differently, and whether it is significant."""
    a, b, d = result["a"], result["b"], result["differences"]
    level = int(round(result["level"] * 100))
    parts, differing = [], []
    for key, (module, words) in MODULE_METRICS.items():
        e = d[key]
        if math.isnan(e["difference"]):
            continue
        sig = _significant(e)
        if sig:
            differing.append(module)
        direction = "less" if e["difference"] < 0 else "more"
        parts.append(
            f"{module}: {words} {e['a']:.3f} for {a} vs {e['b']:.3f} for {b}, difference {e['difference']:+.3f} "
            f"({level} % CI {e['ci_low']:+.3f} to {e['ci_high']:+.3f}; "
            + (f"significant, the {module} is {direction} robust on {b})" if sig else "not significant)"))
    if differing:
        head = f"The {' and the '.join(differing)} behave{'s' if len(differing) == 1 else ''} differently on " \
               f"{b} than on {a}"
    else:
        head = f"No module behaves significantly differently on {b} than on {a}"
    acc = d["accuracy"]
    tail = (f"overall accuracy {acc['a']:.3f} vs {acc['b']:.3f} ({acc['difference']:+.3f}, "
            f"CI {acc['ci_low']:+.3f} to {acc['ci_high']:+.3f}); paired test on answers p = "
            f"{result['tests']['answer']['p_value']:.3g}")
    return f"{head}. " + "; ".join(parts) + f"; {tail}."


def compare_markdown(result: dict[str, Any]) -> str:
    a, b = result["a"], result["b"]
    lines = [f"### {b} against {a}", "", result["sentence"], "",
             f"| metric | {a} | {b} | difference | {int(result['level'] * 100)} % CI (groups resampled, "
             f"{result['n_boot']}x) | bootstrap p |", "|---|---:|---:|---:|---|---:|"]
    for key in HEADLINE:
        e = result["differences"][key]
        lines.append(f"| {key} | {e['a']:.3f} | {e['b']:.3f} | {e['difference']:+.3f} | "
                     f"[{e['ci_low']:+.3f}, {e['ci_high']:+.3f}] | {e['bootstrap_p']:.3f} |")
    lines.append("")
    for what, t in result["tests"].items():
        lines.append(f"- {what}: {t['test']}, p = {t['p_value']:.3g} ({t['pairs']} pairs)")
    return "\n".join(lines)
