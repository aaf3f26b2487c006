"""``ragdx demo`` end to end on a small slice of the demo dataset, and its report: every section,
the Markdown summary, the ``ragdx report`` command, and the HTML rendered in real headless
Chromium (no console error, charts and failure table there, a screenshot kept under
``test-artifacts/``)."""

from __future__ import annotations

import html as html_lib
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
#: the order a reader meets them: the diagnosis first, then the comparisons, then the details
ORDER = ("diagnosis", "comparisons", "overview", "systems", "dataset", "boundary", "failures-section")
#: measured in the page itself (real layout, real fonts), written into the DOM for --dump-dom:
#: where the diagnosis lies, elements sticking out of their card (unless inside a wrapper that
#: scrolls), table wrappers that must scroll, SVG labels outside their chart, the page's own
#: horizontal overflow. Every <details> is opened first, so a collapsed table is measured too.
LAYOUT_CHECK = """
(function () {
  Array.prototype.forEach.call(document.querySelectorAll('details'), function (d) { d.open = true; });
  function name(el) { return el.tagName.toLowerCase() + ' ' + (el.textContent || '').trim().slice(0, 50); }
  function scrolls(el, stop) {
    for (var a = el.parentElement; a && a !== stop; a = a.parentElement) {
      var o = getComputedStyle(a).overflowX;
      if (o === 'auto' || o === 'scroll' || o === 'hidden') { return true; }
    }
    return false;
  }
  var out = {height: window.innerHeight, overflow: [], scrolling: [], clipped: [], diagnosis: null, first: []};
  Array.prototype.forEach.call(document.querySelectorAll('main > section'), function (s) {
    var box = s.getBoundingClientRect();
    Array.prototype.forEach.call(s.querySelectorAll('*'), function (el) {
      var r = el.getBoundingClientRect();
      if (r.width > 0 && (r.right > box.right + 1 || r.left < box.left - 1) && !scrolls(el, s)) {
        out.overflow.push(s.id + ': ' + name(el));
      }
    });
  });
  Array.prototype.forEach.call(document.querySelectorAll('.tablewrap'), function (w) {
    if (w.scrollWidth > w.clientWidth + 1) { out.scrolling.push(name(w.firstElementChild)); }
  });
  Array.prototype.forEach.call(document.querySelectorAll('svg text'), function (t) {
    var r = t.getBoundingClientRect(), b = t.ownerSVGElement.getBoundingClientRect();
    if (r.width > 0 && (r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.top < b.top - 0.5
                        || r.bottom > b.bottom + 0.5)) {
      out.clipped.push(t.ownerSVGElement.getAttribute('aria-label') + ': ' + t.textContent);
    }
  });
  out.page = document.documentElement.scrollWidth - document.documentElement.clientWidth;
  var d = document.getElementById('diagnosis');
  if (d) {
    var r = d.getBoundingClientRect();
    out.diagnosis = [r.top, r.bottom];
    Array.prototype.forEach.call(d.querySelectorAll('.fix, .sure'), function (el) {
      out.first.push([el.textContent.slice(0, 40), el.getBoundingClientRect().bottom]);
    });
  }
  var pre = document.createElement('pre');
  pre.id = 'layout-check';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
"""
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


def _layout(binary: str, report: Path, tmp_path: Path, width: int) -> dict:
    """Open ``report`` at ``width`` x 900 px with ``LAYOUT_CHECK`` added and return what it measured."""
    page = tmp_path / f"layout-{width}.html"
    page.write_text(report.read_text(encoding="utf-8").replace("</body>", f"<script>{LAYOUT_CHECK}</script></body>"),
                    encoding="utf-8")
    r = _chrome(binary, page.as_uri(), "--dump-dom", f"--window-size={width},900")
    assert r.returncode == 0, r.stderr[-2000:]
    assert _console_messages(r.stderr) == []
    found = re.search(r'<pre id="layout-check">(.*?)</pre>', r.stdout, re.S)
    assert found, r.stdout[-2000:]
    return json.loads(html_lib.unescape(found.group(1)))


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


@pytest.mark.slow
@pytest.mark.parametrize("width", [1280, 800])
def test_report_opens_with_the_diagnosis_and_nothing_overflows(demo, tmp_path, width):
    """At a laptop's and a narrow window's width: the diagnosis (each system's module to fix and
    how sure) is on the first screen; no element sticks out of its card, the page never scrolls
    sideways, no chart label is cut off; at 1280 px no table even needs its sideways scroll."""
    binary = _chromium()
    # the detector itself: a page with a table wider than its card and a label outside its chart
    bad = tmp_path / "bad.html"
    bad.write_text('<html><body><main><section id="diagnosis" style="width:300px"><table><tr><td style="white-space:'
                   'nowrap">' + "x" * 200 + '</td></tr></table><svg width="50" height="20" aria-label="c"><text x="40" '
                   'y="15">a long label</text></svg></section></main></body></html>')
    caught = _layout(binary, bad, tmp_path, width)
    assert caught["overflow"] and caught["clipped"] and caught["page"] > 0

    out, _, _ = demo
    seen = _layout(binary, out / "report.html", tmp_path, width)
    assert seen["overflow"] == [] and seen["page"] <= 0 and seen["clipped"] == []
    if width >= 1280:
        assert seen["scrolling"] == []
    top, _ = seen["diagnosis"]
    assert top < 300
    assert len(seen["first"]) == 2 * 2  # the module to fix and how sure, for each system
    assert all(bottom <= seen["height"] for _, bottom in seen["first"]), seen["first"]
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / f"report-first-screen-{width}.png"
    r = _chrome(binary, (out / "report.html").resolve().as_uri(), f"--screenshot={shot}", f"--window-size={width},900",
                "--hide-scrollbars")
    assert r.returncode == 0 and shot.exists()


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


def test_report_opens_with_the_diagnosis(demo):
    """Per system: the module to fix, how sure and one line of evidence, first in the HTML and the
    Markdown, read from the evaluation's own verdicts; then the comparisons, then the details,
    with the long coverage table collapsed."""
    out, summary, printed = demo
    html = (out / "report.html").read_text(encoding="utf-8")
    at = [html.index(f'id="{section}"') for section in ORDER]
    assert at == sorted(at)
    for name in ("keyword", "bm25-dense"):
        counts = json.loads((out / "runs" / name / "evaluation" / "metrics.json").read_text())["blame"]["all"]
        modules = {"kb_gap": "knowledge base", "retrieval_failure": "retriever", "lm_failure": "language model"}
        top = max(modules, key=lambda v: counts[v])
        wrong = counts["total"] - counts["correct"] - counts["unjudged"]
        section = html[html.index('id="diagnosis"'):html.index('id="comparisons"')]
        card = next(c for c in section.split('<div class="card diag" data-system="')[1:] if c.startswith(f'{name}"'))
        assert f"Fix the {modules[top]}" in card
        share = round(100 * counts[top] / wrong)
        assert f"{share} % of the {wrong} wrong answers ({counts[top]}; 95 % CI" in card
        assert f"unsure verdicts: {counts['unsure']}" in card and "Evidence:" in card
    # the coverage table (one row per SQL template) is collapsed below the verdicts
    cov = html.index("Knowledge-base coverage (known, before any system runs)")
    assert html.rfind("<details>", 0, cov) > html.index('id="dataset"') and html.index('id="systems"') < cov
    md = (out / "report.md").read_text(encoding="utf-8")
    assert md.index("**Diagnosis: which module to fix**") < md.index("**Hypothesis tests**") < md.index("| metric |")
    assert md.count("How sure:") == 2 and md.count("Evidence:") == 2


def test_report_counts_the_templates_as_the_console_does(demo):
    """The console counts every SQL template; the report did count those with queries (48 against
    49): now it says how many have none and why."""
    out, summary, printed = demo
    manifest = json.loads((out / "dataset" / "manifest.json").read_text())
    used = {json.loads(line)["sql_template_id"] for line in (out / "dataset" / "records.jsonl").open()}
    total = summary["sql_templates"]
    assert f"{total} SQL templates" in printed and len(manifest["per_template_counts"]) == total
    empty = total - len(used)
    assert empty >= 1  # the demo has a template whose every value combination has several answers
    words = f"{total} SQL templates, {empty} without queries"
    html = (out / "report.html").read_text(encoding="utf-8")
    assert words in html and words in (out / "report.md").read_text(encoding="utf-8")
    assert "with several answers (dropped: multi_answer = drop)" in html
    assert f"({len(used)} with queries of {words})" in html


@pytest.mark.slow
def test_the_readme_quotes_what_the_demo_prints(tmp_path):
    """Every demo figure the README quotes, worked out from a real `ragdx demo` (its console, its
    relevance.json and report.md): a change to the demo that moves a figure fails here until the
    README says the new one."""
    out = tmp_path / "demo-out"
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    r = subprocess.run([sys.executable, "-m", "ragdx.cli", "demo", "--out", str(out)], capture_output=True, text=True,
                       env=env, timeout=900)
    assert r.returncode == 0, r.stderr[-2000:]
    printed = " ".join(r.stdout.split())
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())

    rel = json.loads((out / "relevance" / "relevance.json").read_text())
    gaps = rel["answerability"]
    for k, n in ((rel["flagged_out"], rel["n_out"]), (rel["flagged_in"], rel["n_in"]), (gaps["flagged"], gaps["n"])):
        assert f"{k}/{n}" in printed, (k, n)  # the figures below are the ones the console shows
    quotes = [f"({gaps['flagged']} of {gaps['n']} against {rel['flagged_in']} of {rel['n_in']} answerable; "
              f"off-topic questions: {rel['flagged_out']} of {rel['n_out']})"]

    md = " ".join((out / "report.md").read_text(encoding="utf-8").split())
    # "Fix the language model (or the retriever: not told apart)" when its lead is within the interval
    found = re.findall(r"- \*\*([\w-]+)\*\*: Fix the language model(?: \(or the [\w ]+: not told apart\))?: .*? "
                       r"How sure: (\d+) % of the (\d+) wrong answers \(\d+; 95 % CI [^)]*\) are LM failures, "
                       r"(?:not clearly )?ahead of the ([\w ]+?) \((\d+) %", md)
    said = {name: figures for name, *figures in found}
    assert set(said) == {"keyword", "bm25-dense"}, md[:3000]
    (ks, kw, kr, kr_share), (bs, bw, br, br_share) = said["keyword"], said["bm25-dense"]
    assert "unsure verdicts: 0 (0 %)" in md
    if re.search(r"\*\*keyword\*\*: Fix the language model \(or the retriever: not told apart\)", md):
        quotes.append('diagnosis reads "the language model (or the retriever: not told apart)"')
    quotes += [f"{ks} % of keyword's {kw} wrong answers and {bs} % of bm25-dense's {bw} are LM failures",
               f"(the {kr} for keyword, {kr_share} %; the {br} for bm25-dense, {br_share} %), with no unsure verdict"]

    total = int(re.search(r"(\d+) SQL templates", printed).group(1))
    empty = int(re.search(r"from \d+ SQL templates, (\d+) without queries", md).group(1))
    quotes.append(f"({total} SQL templates, {empty} without queries: every value combination of one join has "
                  "several answers)")
    assert "with several answers (dropped: multi_answer = drop)" in (out / "report.html").read_text(encoding="utf-8")
    for quote in quotes:
        assert quote in readme, f"README.md should say: {quote}"
