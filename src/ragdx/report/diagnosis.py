"""The report's first lines: per system, which module to fix and how sure.

Read from the evaluation's module blame (``blame.jsonl``, one verdict per query, see
``ragdx.evaluate.protocol.ModuleVerdict``): a system's wrong answers are split among the modules
the confident verdicts name (knowledge base, retriever, language model) and the unsure verdicts,
which name none. The module with the most wrong answers is the one to fix. How sure: its share of
the wrong answers with a 95 % interval; whether it is ahead of the runner-up (the interval of the
difference of their shares excludes 0), both from a bootstrap over semantic groups like every
other interval of the report; and the share of unsure verdicts, which no module takes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ragdx.evaluate import verdicts as verdict_registry

#: the confident verdicts that blame one module in every diagnosis, and the module each blames (the
#: registry, ``ragdx.evaluate.verdicts``, declares them with their fix; one only some datasets get,
#: such as history handling, is weighed only where a verdict names it, so every other system's
#: diagnosis is what it was)
MODULES = verdict_registry.blamed_modules()


def modules_of(verdicts: Iterable[str | None]) -> tuple[tuple[str, str], ...]:
    """The modules a diagnosis weighs: :data:`MODULES`, and each other module a verdict names."""
    return verdict_registry.blamed_modules(verdicts)


NONE = "none"
#: an example query, answer or response is cut to this many characters in the evidence line
EXAMPLE_CHARS = 90


@dataclass(frozen=True, slots=True)
class ModuleShare:
    """One module's part of a system's wrong answers, with its 95 % bootstrap interval."""

    verdict: str
    module: str
    count: int
    share: float
    ci_low: float
    ci_high: float


@dataclass(frozen=True, slots=True)
class Diagnosis:
    """Which module of one system to fix (``module``: a name of ``MODULES`` or ``"none"``) and
    how sure: ``shares`` (largest first), the lead over the runner-up with its interval and
    ``significant``, the unsure verdicts; ``headline``, ``sure`` and ``evidence`` say it in words."""

    system: str
    module: str
    verdict: str
    judged: int
    wrong: int
    unjudged: int
    unsure: int
    shares: tuple[ModuleShare, ...]
    lead: float
    lead_low: float
    lead_high: float
    significant: bool | None
    headline: str
    sure: str
    evidence: str

    @property
    def unsure_share(self) -> float:
        return self.unsure / self.wrong if self.wrong else float("nan")


def _pct(x: float) -> str:
    return "–" if not np.isfinite(x) else f"{100 * x:.0f} %"


def _n(k: int, what: str) -> str:
    return f"{k} {what}{'' if k == 1 else 's'}"


def _cut(text: str | None) -> str:
    text = " ".join(str(text or "").split())
    return text if len(text) <= EXAMPLE_CHARS else text[: EXAMPLE_CHARS - 1] + "…"


def _bootstrap(rows: list[Mapping[str, Any]], n_boot: int, seed: int,
               modules: tuple[tuple[str, str], ...] = MODULES) -> np.ndarray:
    """Per resample of semantic groups: the sums of (wrong, one column per module, unsure)."""
    from ragdx.evaluate.stats import bootstrap_sums

    groups = {g: i for i, g in enumerate(dict.fromkeys(r.get("group_id", r["id"]) for r in rows))}
    cols = {v: 1 + i for i, (v, _) in enumerate(modules)}
    matrix = np.zeros((len(groups), 2 + len(modules)))
    for r in rows:
        v = r.get("verdict")
        if v in ("correct", "unjudged", None):
            continue
        g = groups[r.get("group_id", r["id"])]
        matrix[g, 0] += 1
        matrix[g, cols.get(v, len(modules) + 1)] += 1  # an unsure verdict names no module
    (sums,) = bootstrap_sums([matrix], n_boot=n_boot, seed=seed)
    with np.errstate(invalid="ignore", divide="ignore"):
        shares: np.ndarray = sums[:, 1:] / sums[:, :1]
    return shares


def _evidence(top: str, rows: list[Mapping[str, Any]], judgements: Mapping[str, object]) -> str:
    """The commonest reason behind the top verdict, with one of its queries as an example."""
    mine = [r for r in rows if r.get("verdict") == top]
    labels = verdict_registry.labels()
    why, n = Counter(r.get("why") or labels.get(top, top) for r in mine).most_common(1)[0]
    example = next((judgements.get(r["id"]) for r in mine if (r.get("why") or "") == why
                    and judgements.get(r["id"]) is not None), None)
    line = f"{n} of them: {why}"
    if example is not None:
        response = getattr(example, "response", None)
        line += (f"; e.g. “{_cut(getattr(example, 'query', ''))}” answered "
                 f"“{_cut(response) if response is not None else '(no answer)'}”, true answer "
                 f"“{_cut(getattr(example, 'answer', ''))}”")
    return line + "."


def _nothing(system: str, judged: int, wrong: int, unjudged: int, unsure: int, rows: list[Mapping[str, Any]],
             judgements: Mapping[str, object]) -> Diagnosis:
    """No module to name: no judged query, no wrong answer, or only unsure verdicts."""
    if judged == 0:
        headline, sure, evidence = ("Nothing to diagnose: no query was judged",
                                    f"{_n(unjudged, 'judgement')} failed.", "")
    elif wrong == 0:
        headline, sure, evidence = ("Nothing to fix: every judged answer is correct",
                                    f"{_n(judged, 'answer')} judged, none wrong.", "")
    else:
        unsure_names = verdict_registry.unsure_verdicts()
        top = Counter(r["verdict"] for r in rows if r.get("verdict") in unsure_names).most_common(1)[0][0]
        headline = f"No module can be named: {'all ' if wrong > 1 else ''}{_n(wrong, 'wrong answer')} " \
                   f"{'have unsure verdicts' if wrong > 1 else 'has an unsure verdict'}"
        sure = (f"unsure verdicts: {unsure} of {wrong} (100 %); the evidence cannot tell the modules apart — link "
                "your corpus (`ragdx kb link`) or capture the retrieved documents.")
        evidence = _evidence(top, rows, judgements)
    nan = float("nan")
    return Diagnosis(system, NONE, "", judged, wrong, unjudged, unsure, (), nan, nan, nan, None, headline, sure,
                     evidence)


def diagnose(system: str, blame_rows: Iterable[Mapping[str, Any]], judgements: Iterable[object] = (), *,
             n_boot: int = 1000, seed: int = 0, level: float = 0.95) -> Diagnosis:
    """The diagnosis of one system from its per-query verdicts (``blame.jsonl`` rows: id,
    group_id, verdict, why) and its judgements (for an example query)."""
    from ragdx.evaluate.stats import interval

    rows = list(blame_rows)
    counts = Counter(r.get("verdict") for r in rows)
    unjudged = counts.get("unjudged", 0)
    judged = len(rows) - unjudged
    wrong = judged - counts.get("correct", 0)
    unsure = sum(counts.get(v, 0) for v in verdict_registry.unsure_verdicts())
    # judgements without an id cannot be an example query: left out (their key would be None)
    by_id: dict[str, object] = {str(j_id): j for j in judgements if (j_id := getattr(j, "id", None)) is not None}
    if wrong == 0 or unsure == wrong:
        return _nothing(system, judged, wrong, unjudged, unsure, rows, by_id)
    modules = modules_of(counts)
    samples = _bootstrap(rows, n_boot, seed, modules)
    shares = []
    for i, (verdict, module) in enumerate(modules):
        lo, hi = interval(samples[:, i], level)
        shares.append(ModuleShare(verdict, module, counts.get(verdict, 0), counts.get(verdict, 0) / wrong, lo, hi))
    order = sorted(range(len(modules)), key=lambda i: -shares[i].count)
    first, second = shares[order[0]], shares[order[1]]
    lead = first.share - second.share
    lead_low, lead_high = interval(samples[:, order[0]] - samples[:, order[1]], level)
    significant = bool(lead_low > 0) if np.isfinite(lead_low) else None
    fix = "Fix the " + first.module + (f" (or the {second.module}: not told apart)" if not significant else "")
    headline = f"{fix}: {verdict_registry.REGISTRY[first.verdict].fix}"
    ahead = "ahead of" if significant else "not clearly ahead of"
    label = verdict_registry.REGISTRY[first.verdict].label
    sure = (f"{_pct(first.share)} of the {wrong} wrong answers ({first.count}; 95 % CI {_pct(first.ci_low)}–"
            f"{_pct(first.ci_high)}) are {label}s, {ahead} the {second.module} "
            f"({_pct(second.share)}; difference {100 * lead:+.0f} points, CI {100 * lead_low:+.0f} to "
            f"{100 * lead_high:+.0f}); unsure verdicts: {unsure} ({_pct(unsure / wrong)})"
            + (f"; {_n(unjudged, 'judgement')} failed" if unjudged else "") + ".")
    return Diagnosis(system, first.module, first.verdict, judged, wrong, unjudged, unsure,
                     tuple(shares[i] for i in order), lead, lead_low, lead_high, significant, headline, sure,
                     _evidence(first.verdict, rows, by_id))
