"""``ragdx demo`` end to end on a small slice of the demo dataset, and its report: every section,
the Markdown summary, the ``ragdx report`` command, and the HTML rendered in real headless
Chromium (no console error, charts and failure table there, a screenshot kept under
``test-artifacts/``)."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from rich.console import Console

from ragdx.demo.run import run_demo
from tests.support.timing import scaled

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "test-artifacts"
SECTIONS = ("overview", "dataset", "systems", "comparisons", "boundary", "failures-section")
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync")


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """The whole demo with tight caps: 2 groups per SQL template, 1 query per group and style."""
    out = tmp_path_factory.mktemp("demo") / "demo-out"
    console = Console(file=io.StringIO(), width=160)
    summary = run_demo(out, console, max_groups=2, per_group=1, n_boot=200, progress=False)
    return out, summary, console.file.getvalue()


def _failures_expected(run_dir: Path) -> int:
    lines = (run_dir / "evaluation" / "judgements.jsonl").read_text().splitlines()
    return sum(not json.loads(line)["correct"] for line in lines)


def test_demo_runs_every_stage_and_writes_the_report(demo):
    out, summary, printed = demo
    assert summary["records"] > 100 and summary["kb_gap_groups"] > 0
    for name in ("keyword", "bm25-dense"):
        assert (out / "runs" / name / "evaluation" / "metrics.json").exists()
        assert 0.0 <= summary[name]["accuracy"] <= 1.0
    assert summary["relevance"]["n_out"] > 50 and summary["relevance"]["n_calibration"] >= 19
    assert (out / "relevance" / "relevance.json").exists()
    assert "report.html" in printed and "[5/5]" in printed
    html = (out / "report.html").read_text(encoding="utf-8")
    for section in SECTIONS:
        assert f'id="{section}"' in html, section
    # self-contained: nothing is fetched at view time
    assert not re.search(r"<(script|link|img|iframe)[^>]+(src|href)=", html, re.I)
    assert not re.search(r"(src|href)=\"(https?:)?//", html, re.I)
    assert html.count("<svg") >= 8
    # one failure-table row per wrong answer of each system
    rows = len(re.findall(r'<tr data-system="', html))
    assert rows == sum(_failures_expected(out / "runs" / n) for n in ("keyword", "bm25-dense"))
    assert "★" in html  # gold documents are marked
    for words in ("M SQL templates", "RAG confusion matrix", "Refined accuracy R", "Acc_retrieval_db",
                  "knowledge-base gap", "retrieval failure", "LM failure", "ROC curve", "drifted"):
        assert words in html, words
    md = (out / "report.md").read_text(encoding="utf-8")
    assert md.startswith("## ") and "| Accuracy |" in md and "Hypothesis tests" in md and "AUROC" in md


def test_a_second_demo_run_reuses_runs_and_caches(demo):
    out, summary, _ = demo
    before = (out / "runs" / "keyword" / "results.jsonl").read_text()
    again = run_demo(out, Console(file=io.StringIO()), max_groups=2, per_group=1, n_boot=200, progress=False)
    assert (out / "runs" / "keyword" / "results.jsonl").read_text() == before  # nothing asked twice
    assert again["records"] == summary["records"]
    assert again["keyword"] == summary["keyword"]


def test_report_command_html_and_markdown(demo, tmp_path):
    out, _, _ = demo
    runs = [str(out / "runs" / "keyword"), str(out / "runs" / "bm25-dense")]
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}

    def ragdx(*args):
        return subprocess.run([sys.executable, "-m", "ragdx.cli", *args], capture_output=True, text=True,
                              env=env, timeout=scaled(300))

    r = ragdx("report", *runs, "-o", str(tmp_path / "r.html"), "--boot", "200")
    assert r.returncode == 0, r.stderr
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert 'id="boundary"' in html  # found next to the dataset without being named
    r = ragdx("report", *runs, "--format", "md", "-o", str(tmp_path / "r.md"), "--boot", "200")
    assert r.returncode == 0, r.stderr
    md = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert "| metric | keyword | bm25-dense |" in md and "bm25-dense than in keyword" in md
    assert len(md) < 20_000  # fits a pull-request description
    bad = ragdx("report", str(tmp_path / "nowhere"), "-o", str(tmp_path / "x.html"))
    assert bad.returncode == 2 and "not a run directory" in bad.stderr
    assert not (tmp_path / "x.html").exists()


def _chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.skip("headless Chromium not installed (Debian package 'chromium'): run `make browser`")
    return path


def _chrome(binary: str, url: str, *args: str) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run([binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--enable-logging=stderr",
                               "--v=0", *args, url], capture_output=True, text=True, timeout=scaled(120))


def _console_messages(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if ":CONSOLE" in line or "Uncaught" in line]


@pytest.mark.slow
def test_report_renders_in_headless_chromium(demo, tmp_path):
    binary = _chromium()
    # the detector itself: a page with an error must be caught
    bad = tmp_path / "bad.html"
    bad.write_text("<html><body><script>console.error('x'); missingFunction();</script></body></html>")
    assert any("missingFunction" in m for m in _console_messages(_chrome(binary, bad.as_uri(), "--dump-dom").stderr))

    out, _, _ = demo
    url = (out / "report.html").resolve().as_uri()
    r = _chrome(binary, url, "--dump-dom")
    assert r.returncode == 0, r.stderr[-2000:]
    assert _console_messages(r.stderr) == []
    dom = r.stdout
    # the script ran: it filled in the failure count
    shown = re.search(r'id="failure-count"[^>]*>(\d+) of (\d+) failures shown<', dom)
    assert shown and shown.group(1) == shown.group(2) and int(shown.group(2)) > 0
    assert dom.count("<svg") >= 8 and '<table id="failures">' in dom
    for section in SECTIONS:
        assert f'id="{section}"' in dom

    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "report.png"
    shot.unlink(missing_ok=True)
    r = _chrome(binary, url, f"--screenshot={shot}", "--window-size=1280,2000", "--hide-scrollbars")
    assert r.returncode == 0, r.stderr[-2000:]
    assert _console_messages(r.stderr) == []
    assert shot.exists() and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000


def test_one_definition_per_metric_across_the_report(demo):
    """Per-template rows sum to the totals with accuracy <= 1; the card, the per-style table and the
    comparison read the same numbers; identical readers are not told apart."""
    from ragdx.report import build_report

    out, _, _ = demo
    runs = [out / "runs" / "keyword", out / "runs" / "bm25-dense"]
    data = build_report(runs, n_boot=200)
    for s in data["systems"]:
        rows = s["per_template"]
        assert sum(r["queries"] for r in rows) == s["inputs"]["total"] == s["queries"]
        for r in rows:
            assert 0.0 <= r["accuracy"] <= 1.0
            assert sum(r["verdicts"].values()) == r["queries"]
        assert sum(r["correct"] for r in rows) == round(s["overall"].accuracy.value * s["queries"])
        # every style column uses the joint gap rule, so "all styles" lies between the styles
        styles = [st for st in s["by_style"] if st != "all styles"]
        for key in ("accuracy", "refined_accuracy", "retrieval_accuracy"):
            values = [s["by_style"][st].metrics[key].value for st in styles]
            overall = s["by_style"]["all styles"].metrics[key].value
            assert min(values) - 1e-9 <= overall <= max(values) + 1e-9, key
        assert "no query of any style" in s["gap_rule"]
    # the knowledge base's true coverage per template: the demo leaves facts out on purpose
    cov = data["dataset"]["kb_coverage"]
    assert cov and all(0.0 <= r["coverage"] <= 1.0 and r["basis"] == "fact_index" for r in cov)
    assert any(r["coverage"] < 1.0 and r["missing_example"] for r in cov)
    assert any(r["coverage"] == 1.0 for r in cov)
    (c,) = data["comparisons"]
    keyword = data["systems"][0]["overall"]
    assert c["differences"]["accuracy"]["a"] == pytest.approx(keyword.accuracy.value)
    # both demo systems use the very same extractive reader: on queries with identical contexts
    # the language models cannot differ
    lm = c["modules"]["language model"]
    if lm["footing"].startswith("the same queries with identical"):
        assert lm["difference"] == 0.0
    assert "language model" not in [m for m in ("retrieval", "language model")
                                    if m in c["sentence"].split(".")[0]]
