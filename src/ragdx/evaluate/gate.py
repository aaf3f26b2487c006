"""CI gates on evaluations and comparisons: thresholds, regressions, step summary, JUnit XML.

Two gates, both read from the public structure an evaluation writes to ``metrics.json``
(``by_style[style]["metrics"][name] -> {value, ci_low, ci_high}``) and a comparison to
``comparison.json`` (``differences[name] -> {a, b, difference, ci_low, ci_high}``), so they work
on a typed result (anything with ``to_dict()``), on the dict, or on the file:

``--fail-under accuracy=0.6``
    fails when the **lower bound** of the metric's 95 % interval is below 0.6: a run that is
    0.6 only by luck of the sample does not pass. ``short:accuracy=0.6`` gates one style; without
    a style the gate is on "all styles" (or the only style a run has). A metric with no interval
    is gated on its value.
``--fail-on-regression``
    fails when a metric is *significantly* worse in B than in A: the whole interval of B − A is
    below zero (above zero for λ, the share of gap queries, where more is worse). An equal
    system, or a difference within noise, passes.

A failed gate is one line per check that fell, e.g. ``accuracy (all styles) 0.412 [0.371, 0.455]:
lower bound 0.371 < 0.6``; the CLI exits 1 (2 stays "bad input"). The same checks render as a
Markdown table (appended to ``$GITHUB_STEP_SUMMARY`` when it is set) and as JUnit XML, one test
case per check, for CI systems that show test reports.
"""

from __future__ import annotations

import difflib
import json
import math
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from ragdx.errors import RagdxError

__all__ = ["Check", "GateResult", "parse_threshold", "check_thresholds", "check_regression", "gate_markdown",
           "junit_xml", "write_step_summary", "write_junit", "as_dict", "LOWER_IS_BETTER", "ALL_STYLES",
           "gate_metrics"]

ALL_STYLES = "all styles"
#: metrics where a higher value is worse (a regression is a significant increase)
LOWER_IS_BETTER = frozenset({"gap_share"})
#: exit code of a failed gate: distinct from 2 (bad input) and 130 (interrupted)
EXIT_GATE = 1


@dataclass(slots=True)
class Check:
    """One gate check: what was required, what was measured, and whether it held."""

    name: str
    metric: str
    style: str | None
    passed: bool
    message: str
    value: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    threshold: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True)
class GateResult:
    title: str
    checks: list[Check]

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)

    @property
    def failed(self) -> list[Check]:
        return [c for c in self.checks if not c.passed]

    def line(self) -> str:
        """One line saying what fell (or that everything held)."""
        if self.passed:
            return f"{self.title}: all {len(self.checks)} check(s) passed"
        return f"{self.title} failed: " + "; ".join(c.message for c in self.failed)

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "passed": self.passed, "checks": [c.to_dict() for c in self.checks]}


def as_dict(result: Any) -> dict[str, Any]:
    """An evaluation or comparison as its public dict: a typed result, a dict, or a JSON file
    (``metrics.json``, ``comparison.json``, or a directory holding one)."""
    if isinstance(result, str | Path):
        path = Path(result)
        if path.is_dir():
            for name in ("metrics.json", "evaluation/metrics.json", "comparison.json"):
                if (path / name).exists():
                    path = path / name
                    break
        try:
            read: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
            return read
        except (OSError, ValueError) as exc:
            raise RagdxError(f"cannot read ({exc})", source=str(path)) from None
    to_dict = getattr(result, "to_dict", None)
    if callable(to_dict):
        made: dict[str, Any] = to_dict()
        return made
    if isinstance(result, Mapping):
        return dict(result)
    raise RagdxError(f"expected an evaluation result, not {type(result).__name__}", field="result")


_THRESHOLD = re.compile(r"^(?:(?P<style>[^:=]+):)?(?P<metric>[A-Za-z_][A-Za-z0-9_]*)=(?P<value>[-+0-9.eE]+)$")


def parse_threshold(spec: str) -> tuple[str | None, str, float]:
    """``accuracy=0.6`` → (None, "accuracy", 0.6); ``short:accuracy=0.6`` → ("short", ...)."""
    m = _THRESHOLD.match(spec.strip())
    if not m:
        raise RagdxError(f"expected [STYLE:]METRIC=VALUE, e.g. accuracy=0.6, not {spec!r}", field="--fail-under")
    try:
        value = float(m.group("value"))
    except ValueError:
        raise RagdxError(f"not a number: {m.group('value')!r}", field="--fail-under") from None
    metric = m.group("metric")
    names = gate_metrics()
    if metric not in names:
        # checked here, before any judging: a typo must not cost a whole evaluation
        close = difflib.get_close_matches(metric, names, n=1)
        hint = f"did you mean {close[0]}? " if close else ""
        raise RagdxError(f"no metric {metric!r} ({hint}metrics: {', '.join(names)})", field="--fail-under")
    return m.group("style"), metric, value


def gate_metrics() -> tuple[str, ...]:
    """The metrics every evaluation reports per style, which ``--fail-under`` can gate on."""
    from ragdx.evaluate.stats import METRIC_NAMES

    return tuple(METRIC_NAMES)


def _num(value: Any) -> float | None:
    try:
        out = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(out) else out


def _fmt(metric: Mapping[str, Any]) -> str:
    from ragdx.evaluate.intervals import fmt_interval

    return fmt_interval(metric)


def check_thresholds(result: Any, thresholds: Iterable[str | tuple[str | None, str, float]], *,
                     name: str | None = None) -> GateResult:
    """Every ``[STYLE:]METRIC=VALUE`` against the lower bound of the metric's interval."""
    data = as_dict(result)
    by_style = data.get("by_style") or {}
    if not isinstance(by_style, Mapping) or not by_style:
        raise RagdxError("the evaluation has no metrics (by_style is empty)", field="--fail-under")
    overall = ALL_STYLES if ALL_STYLES in by_style else next(iter(by_style))
    title = f"gate {name}" if name else "gate"
    checks = []
    for spec in thresholds:
        style, metric, threshold = parse_threshold(spec) if isinstance(spec, str) else spec
        key = style or overall
        if key not in by_style:
            raise RagdxError(f"no style {key!r} in the evaluation (styles: {', '.join(by_style)})",
                             field="--fail-under")
        metrics = by_style[key].get("metrics") or {}
        if metric not in metrics:
            raise RagdxError(f"no metric {metric!r} (metrics: {', '.join(metrics)})", field="--fail-under")
        m = metrics[metric]
        value, lo, hi = _num(m.get("value")), _num(m.get("ci_low")), _num(m.get("ci_high"))
        bound = lo if lo is not None else value
        label = f"{metric} ({key})"
        if bound is None:
            passed, message = False, f"{label} is not defined on this run (no queries it applies to)"
        elif bound < threshold:
            which = "lower bound" if lo is not None else "value"
            passed, message = False, f"{label} {_fmt(m)}: {which} {bound:.3f} < {threshold:g}"
        else:
            passed, message = True, f"{label} {_fmt(m)} ≥ {threshold:g}"
        checks.append(Check(name=f"{key}:{metric}>={threshold:g}", metric=metric, style=key, passed=passed,
                            message=message, value=value, ci_low=lo, ci_high=hi, threshold=threshold))
    return GateResult(title, checks)


def check_regression(comparison: Any, metrics: Sequence[str] | None = None, *, margin: float = 0.0) -> GateResult:
    """A metric regresses when the whole interval of B − A lies beyond ``margin`` in the bad
    direction. ``metrics`` defaults to every metric compared (those with a defined difference)."""
    data = as_dict(comparison)
    diffs = data.get("differences")
    if not isinstance(diffs, Mapping) or not diffs:
        raise RagdxError("not a comparison (no differences)", field="--fail-on-regression")
    a, b = data.get("a", "A"), data.get("b", "B")
    names = list(metrics) if metrics else list(diffs)
    checks = []
    for metric in names:
        if metric not in diffs:
            raise RagdxError(f"no metric {metric!r} in the comparison (metrics: {', '.join(diffs)})",
                             field="--fail-on-regression")
        d = diffs[metric]
        diff, lo, hi = _num(d.get("difference")), _num(d.get("ci_low")), _num(d.get("ci_high"))
        va, vb = _num(d.get("a")), _num(d.get("b"))
        if diff is None or lo is None or hi is None:
            if metrics:  # asked for by name: an undefined difference cannot pass silently
                checks.append(Check(name=f"{metric}:no-regression", metric=metric, style=None, passed=False,
                                    message=f"{metric} could not be compared ({d.get('note') or 'undefined'})"))
            continue
        worse = lo > margin if metric in LOWER_IS_BETTER else hi < -margin
        verb = "rose" if metric in LOWER_IS_BETTER else "fell"
        span = f"{va:.3f} → {vb:.3f} ({diff:+.3f}, 95 % CI {lo:+.3f} to {hi:+.3f})"
        message = (f"{metric} {verb} from {a} to {b}: {span}" if worse
                   else f"{metric} {a} → {b}: {span}, no significant regression")
        checks.append(Check(name=f"{metric}:no-regression", metric=metric, style=None, passed=not worse,
                            message=message, value=diff, ci_low=lo, ci_high=hi, threshold=margin))
    return GateResult(f"regression gate {b} against {a}", checks)


# ----------------------------------------------------------------------------- outputs


def gate_markdown(results: Iterable[GateResult]) -> str:
    lines = []
    for r in results:
        lines += [f"### {'✅' if r.passed else '❌'} {r.title}", "", "| check | result | detail |", "|---|---|---|"]
        for c in r.checks:
            detail = c.message.replace("|", "\\|")
            lines.append(f"| `{c.name}` | {'pass' if c.passed else '**FAIL**'} | {detail} |")
        lines.append("")
    return "\n".join(lines) + "\n"


def write_step_summary(results: Sequence[GateResult], path: str | Path | None = None) -> Path | None:
    """Append the Markdown table to ``path``, or to ``$GITHUB_STEP_SUMMARY`` when set (GitHub
    Actions shows that file on the run's page); None when neither is given."""
    target = path or os.environ.get("GITHUB_STEP_SUMMARY")
    if not target:
        return None
    target = Path(target)
    with target.open("a", encoding="utf-8") as fh:  # appended: other steps write there too
        fh.write(gate_markdown(results))
    return target


def junit_xml(results: Sequence[GateResult], suite: str = "ragdx") -> str:
    """JUnit XML: a test suite per gate, a test case per check, a ``<failure>`` per failed one."""
    root = ET.Element("testsuites", name=suite, tests=str(sum(len(r.checks) for r in results)),
                      failures=str(sum(len(r.failed) for r in results)))
    for r in results:
        ts = ET.SubElement(root, "testsuite", name=r.title, tests=str(len(r.checks)), failures=str(len(r.failed)),
                           errors="0", skipped="0")
        for c in r.checks:
            case = ET.SubElement(ts, "testcase", classname=f"{suite}.{r.title}", name=c.name)
            if c.passed:
                ET.SubElement(case, "system-out").text = c.message
            else:
                ET.SubElement(case, "failure", message=c.message, type="GateFailure").text = c.message
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def write_junit(results: Sequence[GateResult], path: str | Path, suite: str = "ragdx") -> Path:
    from ragdx.store import atomic_write_text

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, junit_xml(results, suite))
    return path


def finish(results: Sequence[GateResult], *, junit: str | Path | None = None,
           step_summary: str | Path | None = None, echo: Any = print) -> bool:
    """What the CLI does after its gates: JUnit XML and step summary when asked (the summary
    also whenever ``$GITHUB_STEP_SUMMARY`` is set), one line per gate through ``echo``; True
    when every gate passed."""
    if not results:
        return True
    if junit:
        write_junit(results, junit)
    write_step_summary(results, step_summary)
    for r in results:
        echo(r.line())
    return all(r.passed for r in results)
