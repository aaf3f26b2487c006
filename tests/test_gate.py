"""CI gates: ``evaluate --fail-under`` against the interval's lower bound, ``compare
--fail-on-regression`` (a degraded system fails, an equal one passes), JUnit XML, the Markdown
step summary and the pytest helpers of ``ragdx.testing``."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from typer.testing import CliRunner

from ragdx.cli import app
from ragdx.errors import RagdxError
from ragdx.evaluate.gate import check_regression, check_thresholds, gate_markdown, junit_xml, parse_threshold
from ragdx.gen.dataset import read_records
from ragdx.rag.runner import run
from ragdx.rag.systems import CallableSystem
from ragdx.testing import assert_metrics, assert_no_regression, ragdx_gate  # noqa: F401  (the fixture)
from tests.support.small_demo import build_small_demo


def ragdx(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    if isinstance(result.exception, RagdxError):
        return result.exception.exit_code, str(result.exception)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def _system(records, name: str, wrong_every: int | None):
    by_query = {r.query: (i, r) for i, r in enumerate(records)}

    def answer(query: str) -> dict:
        i, r = by_query[query]
        degraded = wrong_every is not None and i % wrong_every != 0
        return {"answer": "I do not know" if degraded else r.answer_text,
                "contexts": [] if degraded else [{"id": d, "text": ""} for d in r.gold_document_ids]}

    return CallableSystem(answer, name=name)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("gate")
    dataset = build_small_demo(root)
    records = read_records(dataset)
    dirs = {}
    for name, wrong in (("good", None), ("same", None), ("bad", 3)):
        dirs[name] = root / "runs" / name
        run(_system(records, name, wrong), dataset, dirs[name], progress=False)
    return root, dirs


def test_parse_threshold():
    assert parse_threshold("accuracy=0.6") == (None, "accuracy", 0.6)
    assert parse_threshold("short:refined_accuracy=0.75") == ("short", "refined_accuracy", 0.75)
    with pytest.raises(RagdxError, match="METRIC=VALUE"):
        parse_threshold("accuracy>0.6")


def test_threshold_is_on_the_lower_bound_of_the_interval():
    result = {"by_style": {"all styles": {"metrics": {"accuracy": {"value": 0.63, "ci_low": 0.55, "ci_high": 0.7}}},
                           "short": {"metrics": {"accuracy": {"value": 0.8, "ci_low": 0.72, "ci_high": 0.88}}}}}
    gate = check_thresholds(result, ["accuracy=0.6"])
    assert not gate.passed  # the value clears 0.6, the lower bound does not
    assert "lower bound 0.550 < 0.6" in gate.line() and "(all styles)" in gate.line()
    assert check_thresholds(result, ["short:accuracy=0.7"]).passed
    assert check_thresholds(result, ["accuracy=0.5"]).passed
    with pytest.raises(RagdxError, match="no metric 'acuracy'"):
        check_thresholds(result, ["acuracy=0.5"])
    with pytest.raises(RagdxError, match="no style 'long'"):
        check_thresholds(result, ["long:accuracy=0.5"])


def test_regression_needs_the_whole_interval_below_zero():
    comparison = {"a": "base", "b": "cand", "differences": {
        "accuracy": {"a": 0.7, "b": 0.6, "difference": -0.1, "ci_low": -0.15, "ci_high": -0.04},
        "refined_accuracy": {"a": 0.8, "b": 0.78, "difference": -0.02, "ci_low": -0.08, "ci_high": 0.03},
        "gap_share": {"a": 0.1, "b": 0.2, "difference": 0.1, "ci_low": 0.05, "ci_high": 0.15}}}
    gate = check_regression(comparison)
    assert [c.metric for c in gate.failed] == ["accuracy", "gap_share"]  # λ: more is worse
    assert gate.line().startswith("regression gate cand against base failed: accuracy fell from base to cand")
    assert check_regression(comparison, ["refined_accuracy"]).passed
    assert not check_regression(comparison, ["refined_accuracy"], margin=-0.05).passed
    xml = ET.fromstring(junit_xml([gate]))
    assert xml.get("tests") == "3" and xml.get("failures") == "2"
    assert len(xml.findall(".//failure")) == 2
    assert "| `accuracy:no-regression` | **FAIL** |" in gate_markdown([gate])


@pytest.mark.slow
def test_compare_fails_on_a_degraded_system_and_passes_an_equal_one(runs, tmp_path, monkeypatch):
    root, dirs = runs
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    code, out = ragdx("compare", str(dirs["good"]), str(dirs["same"]), "--judge", "exact", "--boot", "200",
                      "--fail-on-regression")
    assert code == 0, out
    assert "all" in out and "passed" in out
    code, out = ragdx("compare", str(dirs["good"]), str(dirs["bad"]), "--judge", "exact", "--boot", "200",
                      "--fail-on-regression", "--metric", "accuracy", "--junit", str(tmp_path / "junit.xml"))
    assert code == 1, out
    line = next(x for x in out.splitlines() if "failed:" in x)
    assert "accuracy fell from good to bad" in line
    xml = ET.parse(tmp_path / "junit.xml").getroot()
    assert xml.get("failures") == "1"
    text = summary.read_text()
    assert "✅" in text and "❌" in text  # both gates appended to the step summary


@pytest.mark.slow
def test_evaluate_fail_under(runs, tmp_path):
    root, dirs = runs
    code, out = ragdx("evaluate", str(dirs["good"]), "--judge", "exact", "--boot", "200",
                      "--fail-under", "accuracy=0.6", "--fail-under", "short:accuracy=0.6",
                      "--step-summary", str(tmp_path / "s.md"))
    assert code == 0, out
    assert "gate good: all 2 check(s) passed" in out
    code, out = ragdx("evaluate", str(dirs["bad"]), "--judge", "exact", "--boot", "200",
                      "--fail-under", "accuracy=0.6", "--junit", str(tmp_path / "j.xml"))
    assert code == 1, out
    assert "accuracy (all styles)" in out and "< 0.6" in out
    assert ET.parse(tmp_path / "j.xml").getroot().get("failures") == "1"
    code, out = ragdx("evaluate", str(dirs["bad"]), "--fail-under", "accuracy=high")
    assert code == 2 and "METRIC=VALUE" in out


@pytest.mark.slow
def test_pytest_helpers(runs):
    root, dirs = runs
    assert assert_metrics(dirs["good"], accuracy=0.6).passed
    with pytest.raises(AssertionError, match=r"accuracy \(all styles\)"):
        assert_metrics(dirs["bad"], accuracy=0.6)
    metrics = json.loads((dirs["bad"] / "evaluation" / "metrics.json").read_text())
    with pytest.raises(AssertionError, match="lower bound"):
        assert_metrics(metrics, style="short", accuracy=0.6)
    assert assert_no_regression(dirs["good"], dirs["same"], judge="exact", n_boot=200).passed
    with pytest.raises(AssertionError, match="accuracy fell"):
        assert_no_regression(dirs["good"], dirs["bad"], metrics=["accuracy"], judge="exact", n_boot=200)


@pytest.mark.slow
def test_the_fixture(runs, ragdx_gate):  # noqa: F811  (pytest injects the fixture)
    _, dirs = runs
    gate = ragdx_gate.metrics(dirs["good"], accuracy=0.5)
    assert gate.passed and gate.checks[0].ci_low is not None



def test_one_interval_formatter_everywhere():
    # the console, summary.md, the report and the gate write a metric the same way (issue 20)
    from ragdx.evaluate.gate import _fmt
    from ragdx.evaluate.intervals import fmt_interval, interval_parts
    from ragdx.evaluate.results import Metric
    from ragdx.report.markdown import _v

    entry = {"value": 0.71249, "ci_low": 0.6712, "ci_high": 0.75}
    assert fmt_interval(entry) == "0.712 [0.671, 0.750]"
    assert _fmt(entry) == _v(entry) == str(Metric(0.71249, 0.6712, 0.75)) == "0.712 [0.671, 0.750]"
    assert fmt_interval({"value": 0.5, "ci_low": float("nan"), "ci_high": float("nan")}) == "0.500"
    assert fmt_interval({"value": float("nan"), "ci_low": 0.1, "ci_high": 0.2}) == "–"
    assert fmt_interval(None) == "–" and interval_parts({"value": 12}) == ("12", None)
