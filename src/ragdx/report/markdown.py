"""A short Markdown summary of a report, sized for a pull-request description."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ragdx.evaluate import verdicts as verdict_registry
from ragdx.evaluate.intervals import fmt_interval
from ragdx.report.data import HEADLINE, report_verdicts
from ragdx.report.diagnosis import NONE

if TYPE_CHECKING:
    from ragdx.evaluate.results import StyleMetrics


def _v(e: dict[str, float] | None) -> str:
    return fmt_interval(e)


def _entry(style: StyleMetrics | None, key: str) -> dict[str, float] | None:
    m = None if style is None else style.metrics.get(key)
    return None if m is None else {"value": m.value, "ci_low": m.ci_low, "ci_high": m.ci_high}


def _diagnosis(systems: list[dict[str, Any]]) -> list[str]:
    """The report's first lines, as in the HTML: per system, which module to fix and how sure."""
    out = ["**Diagnosis: which module to fix**", ""]
    for s in systems:
        d = s.get("diagnosis")
        if d is None:
            continue
        line = f"- **{s['name']}**: {d.headline}."
        if d.module != NONE:
            line += f" How sure: {d.sure}"
        elif d.sure:
            line += f" {d.sure}"
        if d.evidence:
            line += f" Evidence: {d.evidence}"
        out.append(line)
    return out + [""]


def _tests(data: dict[str, Any]) -> list[str]:
    tests = [c["sentence"] for c in data["comparisons"]]
    tests += [f"({s['name']}, {s['style_test']['b']} vs {s['style_test']['a']}) {s['style_test']['sentence']}"
              for s in data["systems"] if s.get("style_test")]
    return ["**Hypothesis tests**", ""] + [f"- {t}" for t in tests] + [""] if tests else []


def render_markdown(data: dict[str, Any], *, max_failures: int = 5) -> str:
    ds = data["dataset"]
    systems = data["systems"]
    counted = ds.get("templates")
    out = [f"## {data['title']}", "",
           f"{ds['records']} queries in {ds['groups']} semantic groups ({', '.join(ds['styles'])})"
           + (f" from {counted.words()}" if counted is not None else "")
           + f"; 95 % intervals from {data['n_boot']} bootstrap resamples of semantic groups.", ""]
    # the diagnosis first, then the comparisons, then the numbers they rest on
    out += _diagnosis(systems)
    warnings = [f"{s['name']}: {w}" for s in systems for w in s.get("warnings") or []]
    if warnings:  # beside the diagnosis they qualify
        out += [f"> **Warning:** {w}" for w in warnings] + [""]
    out += _tests(data)
    out += ["| metric | " + " | ".join(s["name"] for s in systems) + " |", "|---|" + "---:|" * len(systems)]
    out.append("| queries judged | " + " | ".join(
        f"{(s.get('inputs') or {}).get('judged', s['queries'])} of {(s.get('inputs') or {}).get('total', s['queries'])}"
        for s in systems) + " |")
    for key, label in HEADLINE:
        out.append(f"| {label} | " + " | ".join(_v(_entry(s["overall"], key)) for s in systems) + " |")
    for key, label in (("robust", "robust groups"), ("non_robust", "non-robust groups"),
                       ("gap", "gap groups (answer-based)")):
        out.append(f"| {label} | " + " | ".join(str(getattr(s["overall"], key, "–")) for s in systems) + " |")
    labels, unsure = verdict_registry.labels(), verdict_registry.unsure_verdicts()
    for v in report_verdicts(data):
        out.append(f"| {labels[v]} (queries) | " + " | ".join(str(s["blame_all"].get(v, 0)) for s in systems)
                   + " |")
    out.append("| unsure verdicts (queries) | " + " | ".join(str(sum(s["blame_all"].get(v, 0) for v in unsure))
                                                          for s in systems) + " |")
    abstaining = [s for s in systems if s.get("abstention")]
    if abstaining:  # records to refuse (issue 26): the same section as the evaluation's summary.md
        from ragdx.evaluate.abstention import abstention_markdown

        out += ["", "**Abstention (questions to refuse)**"]
        for s in abstaining:
            out += ["", f"*{s['name']}*", "", abstention_markdown(s["abstention"])]
    conversing = [s for s in systems if s.get("conversations")]
    if conversing:  # conversations (issue 26): the same section as the evaluation's summary.md
        from ragdx.evaluate.conversations import conversations_markdown

        out += ["", "**Conversations (per turn)**"]
        for s in conversing:
            out += ["", f"*{s['name']}*", "", conversations_markdown(s["conversations"])]
    r = data.get("relevance")
    if r:
        d = r["drift"]["mixed"]
        out += ["", "**Knowledge boundary**", "",
                f"- {r['statistic']} statistic, α = {r['alpha']:g}, {r['n_calibration']} calibration queries: "
                f"AUROC {r['auroc']:.3f}; flagged {r['flagged_out']}/{r['n_out']} off-topic and "
                f"{r['flagged_in']}/{r['n_in']} held-out in-knowledge queries.",
                f"- Drift on a mixed batch ({d['off_topic_share']:.0%} off-topic): "
                f"{'drifted' if d['drifted'] else 'no drift'} (KS {d['ks_statistic']:.3f}, p = {d['p_value']:.2g})."]
        if r.get("answerability"):
            a = r["answerability"]
            out.append(f"- In-domain queries whose facts the knowledge base leaves out: flagged {a['flagged']}/"
                       f"{a['n']} (AUROC against answerable queries {a['auroc_vs_in']:.3f}).")
        from ragdx.relevance.boundary import ANSWERABILITY_NOTE

        out.append(f"- Note: {ANSWERABILITY_NOTE}.")
    failures = data["failures"]
    if failures:
        out += ["", f"<details><summary>{len(failures)} failures (first {min(max_failures, len(failures))})"
                "</summary>", "", "| system | query | true answer | response | verdict |", "|---|---|---|---|---|"]
        for f in failures[:max_failures]:
            cells = [f["system"], f["query"], f["answer"], f["response"] or "—", labels.get(f["verdict"], f["verdict"])]
            out.append("| " + " | ".join(str(c).replace("|", "\\|").replace("\n", " ") for c in cells) + " |")
        out += ["", "</details>"]
    return "\n".join(out) + "\n"
