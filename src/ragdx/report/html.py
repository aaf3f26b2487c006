"""The report as one self-contained HTML file: styles, charts (inline SVG) and a few lines of
script for the failure table's search are all inside it, so it opens offline and prints."""

from __future__ import annotations

import math
from html import escape
from pathlib import Path
from typing import Any

from ragdx.evaluate import verdicts as verdict_registry
from ragdx.evaluate.intervals import interval_parts
from ragdx.report import svg
from ragdx.report.data import HEADLINE, report_verdicts
from ragdx.report.diagnosis import NONE, Diagnosis

TAG_COLOURS = {"robust": "#2e7d32", "non_robust": "#f2b233", "gap": "#8a8f98"}
TAG_LABELS = {"robust": "robust", "non_robust": "non-robust", "gap": "gap"}
SYSTEM_COLOURS = ("#3367d6", "#d9480f", "#2b8a3e", "#862e9c", "#0b7285", "#5c940d")
DIFF_METRICS = (("accuracy", "accuracy"), ("refined_accuracy", "refined accuracy R (joint gap groups)"))
EXTRA_METRICS = (("retrieval_accuracy", "Retrieval on its own (evidence rule)"),
                 ("retrieval_refined", "Retrieval-only R (evidence rule, answer-based gap groups removed)"),
                 ("lm_accuracy_given_retrieval", "LM accuracy where the evidence was retrieved"))

CSS = """
:root { --fg:#1d2330; --muted:#5b6475; --line:#dfe3ea; --bg:#ffffff; --soft:#f5f7fa; --accent:#3367d6; }
* { box-sizing: border-box; }
body { margin:0; font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif; color:var(--fg);
  background:var(--soft); }
header { background:#1d2330; color:#fff; padding:14px 32px 12px; }
header h1 { margin:0 0 4px; font-size:22px; font-weight:650; }
header p { margin:0; color:#c5cbd6; font-size:13px; }
nav { position:sticky; top:0; z-index:5; background:#fff; border-bottom:1px solid var(--line); padding:8px 32px; }
nav a { color:var(--accent); text-decoration:none; margin-right:18px; font-size:14px; }
main { max-width:1180px; margin:0 auto; padding:10px 24px 60px; }
section { background:#fff; border:1px solid var(--line); border-radius:10px; padding:18px 24px; margin:18px 0; }
h2 { margin:0 0 12px; font-size:20px; }
h3 { margin:20px 0 8px; font-size:16px; }
p.lead, .muted { color:var(--muted); }
.cards { display:grid; grid-template-columns:repeat(auto-fit,minmax(250px,1fr)); gap:14px; }
.card { border:1px solid var(--line); border-radius:10px; padding:12px 16px; background:var(--soft); }
.card h3 { margin:0 0 6px; }
.kpis { display:grid; grid-template-columns:1fr 1fr; gap:6px 14px; }
.kpi b { display:block; font-size:22px; font-weight:650; }
.kpi span { font-size:12px; color:var(--muted); }
table { border-collapse:collapse; width:100%; font-size:13px; margin:6px 0 12px; }
th, td { border-bottom:1px solid var(--line); padding:5px 8px; text-align:left; vertical-align:top; }
th { background:var(--soft); font-weight:600; }
td.num, th.num { text-align:right; font-variant-numeric:tabular-nums; }
td.num { white-space:nowrap; }
/* a table wider than its card scrolls inside it; long SQL, responses and ids break anywhere */
.tablewrap { overflow-x:auto; max-width:100%; margin:6px 0 12px; }
.tablewrap > table { margin:0; }
td code, .resp { overflow-wrap:anywhere; }
.row2 > div, .cards > div, .cols32 > div { min-width:0; }
/* a wide table beside a small one: side by side where both fit, stacked on a narrow screen */
.cols32 { display:grid; grid-template-columns:minmax(0,3fr) minmax(0,2fr); gap:12px; align-items:start; }
@media (max-width:900px) { .cols32 { grid-template-columns:minmax(0,1fr); } }
.diag h3 { display:flex; flex-wrap:wrap; gap:4px 10px; align-items:baseline; }
.diag h3 .muted { font-size:13px; font-weight:400; }
.fix { font-size:19px; font-weight:650; margin:2px 0; }
.fix-why { color:var(--muted); font-size:13px; margin:0 0 6px; }
.split { display:flex; height:14px; border-radius:4px; overflow:hidden; margin:6px 0 4px; background:var(--line); }
.split span { display:block; height:100%; }
.shares, .sure, .evidence { font-size:13px; margin:4px 0; }
.shares span { display:inline-block; margin-right:10px; }
.dot { display:inline-block; width:9px; height:9px; border-radius:2px; margin-right:4px; }
.ci { color:var(--muted); font-size:12px; }
.warn { color:#8a4b00; background:#fff4e0; padding:4px 8px; border-radius:4px; font-size:13px; }
.sentence { background:#eef3ff; border-left:4px solid var(--accent); padding:8px 12px; border-radius:4px;
  margin:8px 0; }
.badge { display:inline-block; padding:1px 8px; border-radius:10px; color:#fff; font-size:12px; white-space:nowrap; }
th .badge { white-space:normal; }
.chart { max-width:100%; height:auto; display:block; margin:6px 0 10px; }
.chart .grid { stroke:#e8ebf0; stroke-width:1; }
.chart .zero { stroke:#555; stroke-width:1.2; stroke-dasharray:4 3; }
.chart .axis { fill:#5b6475; font-size:11px; }
.chart .onbar { fill:#fff; font-size:11px; font-weight:600; }
.row2 { display:grid; grid-template-columns:repeat(auto-fit,minmax(380px,1fr)); gap:12px; align-items:start; }
.confusion td { text-align:center; width:33%; }
.controls { display:flex; flex-wrap:wrap; gap:10px; align-items:center; margin:8px 0; }
.controls input { flex:1 1 320px; padding:7px 10px; font-size:14px; border:1px solid #c8ced8; border-radius:6px; }
.controls select { padding:6px; font-size:14px; border:1px solid #c8ced8; border-radius:6px; }
#failures td { font-size:12.5px; }
#failures ol { margin:0; padding-left:18px; }
.gold { color:#2e7d32; font-weight:650; }
.missing { color:#c62828; }
.resp { font-family:ui-monospace,SFMono-Regular,Menlo,monospace; font-size:12px; }
details summary { cursor:pointer; color:var(--accent); margin:6px 0; }
code { font-size:12px; background:var(--soft); padding:1px 4px; border-radius:3px; }
footer { color:var(--muted); font-size:12px; text-align:center; padding:20px; }
@media print {
  body { background:#fff; font-size:11px; }
  nav, .controls, footer { display:none; }
  header { background:#fff; color:#000; padding:0 0 8px; border-bottom:2px solid #000; }
  header p { color:#333; }
  main { max-width:none; padding:0; }
  section { border:none; padding:6px 0; margin:8px 0; break-inside:auto; }
  h2 { break-after:avoid; }
  .chart, .card, tr { break-inside:avoid; }
  details > *:not(summary) { display:block; }
  .badge { color:#000 !important; background:none !important; border:1px solid #000; }
}
"""

SCRIPT = """
window.addEventListener('beforeprint', function () {
  Array.prototype.forEach.call(document.querySelectorAll('details'), function (d) { d.open = true; });
});
(function () {
  var table = document.getElementById('failures');
  if (!table) { return; }
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);
  var text = rows.map(function (r) { return r.textContent.toLowerCase(); });
  var q = document.getElementById('failure-search');
  var sys = document.getElementById('failure-system');
  var ver = document.getElementById('failure-verdict');
  var sty = document.getElementById('failure-style');
  var shown = document.getElementById('failure-count');
  function apply() {
    var words = q.value.toLowerCase().split(/\\s+/).filter(function (w) { return w.length > 0; });
    var n = 0;
    rows.forEach(function (r, i) {
      var ok = (!sys.value || r.getAttribute('data-system') === sys.value)
        && (!ver.value || r.getAttribute('data-verdict') === ver.value)
        && (!sty.value || r.getAttribute('data-style') === sty.value)
        && words.every(function (w) { return text[i].indexOf(w) !== -1; });
      r.style.display = ok ? '' : 'none';
      if (ok) { n += 1; }
    });
    shown.textContent = n + ' of ' + rows.length + ' failures shown';
  }
  [q, sys, ver, sty].forEach(function (el) { el.addEventListener('input', apply); });
  apply();
})();
"""


def _e(x: Any) -> str:
    return escape("" if x is None else str(x))


def _num(v: Any, digits: int = 3) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    return f"{v:.{digits}f}" if isinstance(v, float) else _e(v)


def _metric(style: Any, key: str) -> dict[str, float] | None:
    """A typed ``StyleMetrics``' metric as the plain entry the helpers below format."""
    if style is None:
        return None
    m = style.metrics.get(key)
    return None if m is None else {"value": m.value, "ci_low": m.ci_low, "ci_high": m.ci_high}


def _ci(entry: dict[str, float] | None, digits: int = 3) -> str:
    head, bounds = interval_parts(entry, digits=digits)
    return _e(head) if bounds is None else f'{_e(head)} <span class="ci">{bounds}</span>'


def _table(inner: str, attrs: str = "") -> str:
    """A table in a wrapper that scrolls sideways when it is wider than its card."""
    return f'<div class="tablewrap"><table{attrs}>{inner}</table></div>'


def _label(verdict: str) -> str:
    """How the registry names a verdict (an unknown one by its own name)."""
    spec = verdict_registry.REGISTRY.get(verdict)
    return spec.label if spec else verdict


def _badge(verdict: str) -> str:
    spec = verdict_registry.REGISTRY.get(verdict)
    return (f'<span class="badge" style="background:{spec.colour if spec else "#777"}">'
            f"{_e(_label(verdict))}</span>")


# ----------------------------------------------------------------------------- sections


def _header(data: dict[str, Any]) -> str:
    ds = data["dataset"]
    n = len(data["systems"])
    # one short line: at 800 px the diagnosis below must still fit the first screen
    return (f"<header><h1>{_e(data['title'])}</h1><p>{n} system{'s' if n != 1 else ''} · {ds['records']} queries "
            f"· {ds['groups']} semantic groups ({', '.join(ds['styles']) or 'no style'}) · 95 % intervals "
            f"({data['n_boot']} bootstrap resamples)</p></header>")


def _nav(data: dict[str, Any]) -> str:
    links = [("diagnosis", "Diagnosis"), ("comparisons", "Comparisons"), ("overview", "Metrics"),
             ("systems", "Verdicts"), ("dataset", "Dataset")]
    if any(s.get("abstention") for s in data["systems"]):
        links.append(("abstention", "Abstention"))
    if any(s.get("conversations") for s in data["systems"]):
        links.append(("conversations", "Conversations"))
    if any(s.get("question_kinds") for s in data["systems"]):
        links.append(("question-kinds", "Question kinds"))
    if data.get("relevance"):
        links.append(("boundary", "Knowledge boundary"))
    links.append(("failures-section", "Failures"))
    return "<nav>" + "".join(f'<a href="#{a}">{t}</a>' for a, t in links) + "</nav>"


def _split(d: Diagnosis) -> str:
    """The wrong answers as one bar split by module (and unsure), with each share and interval."""
    # the modules in one order for every system, so that two bars read side by side
    order = list(verdict_registry.REGISTRY)
    shares = sorted(d.shares, key=lambda m: order.index(m.verdict))
    labels, colours = verdict_registry.labels(), verdict_registry.colours()
    parts = [(m.verdict, m.share, f"{labels[m.verdict]} {m.count} ({_pct(m.share)})",
              f"95 % CI {_pct(m.ci_low)}–{_pct(m.ci_high)}") for m in shares]
    if d.unsure:
        parts.append(("undetermined", d.unsure_share, f"unsure {d.unsure} ({_pct(d.unsure_share)})", ""))
    bar = "".join(f'<span style="width:{100 * share:.2f}%;background:{colours[v]}" '
                  f'title="{_e(text)}{"; " + ci if ci else ""}"></span>' for v, share, text, ci in parts if share > 0)
    keys = "".join(f'<span title="{_e(ci)}"><i class="dot" style="background:{colours[v]}"></i>{_e(text)}'
                   "</span>" for v, _, text, ci in parts)
    return (f'<div class="split" role="img" aria-label="the {d.wrong} wrong answers by module">{bar}</div>'
            f'<p class="shares">{keys}</p>')


def _diagnosis_card(s: dict[str, Any]) -> str:
    d: Diagnosis = s["diagnosis"]
    acc = _metric(s["overall"], "accuracy")
    inputs = s.get("inputs") or {}
    judged = (f" · {inputs.get('judged')}/{inputs.get('total')} judged"
              f"{' — incomplete' if not inputs.get('complete', True) else ''}" if inputs.get("total") else "")
    shown = f"{_num((acc or {}).get('value'))} {_ci_text(acc)}" if acc else "–"
    head = f'<h3>{_e(s["name"])}<span class="muted">accuracy {_e(shown)}{_e(judged)}</span></h3>'
    warns = "".join(f'<p class="warn">⚠ {_e(w)}</p>' for w in s.get("warnings") or [])
    if d.module == NONE:
        body = f'<p class="fix">{_e(d.headline)}</p><p class="sure">{_e(d.sure)}</p>'
    else:
        fix, _, why = d.headline.partition(": ")
        body = (f'<p class="fix">{_e(fix)}</p><p class="fix-why">{_e(why)}</p>{_split(d)}'
                f'<p class="sure"><b>How sure:</b> {_e(d.sure)}</p>')
    if d.evidence:
        body += f'<p class="evidence"><b>Evidence:</b> {_e(d.evidence)}</p>'
    return f'<div class="card diag" data-system="{_e(s["name"])}">{head}{warns}{body}</div>'


def _diagnosis(data: dict[str, Any]) -> str:
    cards = "".join(_diagnosis_card(s) for s in data["systems"])
    return ('<section id="diagnosis"><h2>Diagnosis: which module to fix</h2><p class="muted">Wrong answers by the '
            'module their verdict blames (<a href="#systems">Verdicts</a>); 95 % intervals.</p>'
            f'<div class="cards">{cards}</div></section>')


def _overview(data: dict[str, Any]) -> str:
    cards = []
    for s in data["systems"]:
        o = s["overall"]
        kpis = "".join(_kpi(_metric(o, key), label) for key, label in HEADLINE)
        desc = f'<p class="muted">{_e(s["description"])}</p>' if s.get("description") else ""
        inputs = s.get("inputs") or {}
        n_of = (f'<p class="muted">{inputs.get("judged")} of {inputs.get("total")} queries judged'
                f'{" — incomplete" if not inputs.get("complete", True) else ""}</p>' if inputs.get("total") else "")
        warns = "".join(f'<p class="warn">⚠ {_e(w)}</p>' for w in s.get("warnings") or [])
        cards.append(f'<div class="card"><h3>{_e(s["name"])}</h3>{desc}{n_of}{warns}<div class="kpis">{kpis}</div>'
                     "</div>")
    rows = []
    for key, label in HEADLINE:
        for s in data["systems"]:
            e = _metric(s["overall"], key) or {}
            if math.isnan(e.get("value", math.nan)):
                continue
            rows.append((f"{label.split(' (')[0]} · {s['name']}", e.get("value", math.nan),
                         e.get("ci_low", math.nan), e.get("ci_high", math.nan)))
    colours = [SYSTEM_COLOURS[i % len(SYSTEM_COLOURS)] for _ in HEADLINE for i in range(len(data["systems"]))]
    chart = svg.interval_dots(rows, title="Headline metrics per system with 95 % intervals", colours=colours,
                              width=860, label_width=300)
    return (f'<section id="overview"><h2>Headline metrics</h2><div class="cards">{"".join(cards)}</div>'
            f"<h3>Accuracy, R, λ, Acc_retrieval_db and knowledge-base coverage with 95 % intervals</h3>{chart}"
            '<p class="muted">Accuracy = R × (1 − λ). <b>Answer-based</b> (GRAMMAR §4.3): a gap group is a semantic '
            "group that no phrasing of any style answered; R counts the other groups' queries; λ is the share of "
            "queries in gap groups; Acc_retrieval_db = 1 − gap groups / groups. These infer knowledge-base gaps from "
            "answers, so retrieval and LM failures that sink a whole group count as gaps too. <b>Knowledge-base "
            "coverage</b> is the truth where ragdx knows the knowledge base's content (a knowledge base it rendered, "
            "or evidence linked in your corpus): the share of groups whose facts it states.</p></section>")


def _pct(x: float) -> str:
    return "–" if not math.isfinite(x) else f"{100 * x:.0f} %"


def _kpi(metric: dict[str, float] | None, label: str) -> str:
    return (f'<div class="kpi"><b>{_num((metric or {}).get("value"))}</b><span>{_e(label)}'
            f'{"" if not metric else " " + _ci_text(metric)}</span></div>')


def _ci_text(e: dict[str, float]) -> str:
    if math.isnan(e.get("ci_low", math.nan)):
        return ""
    return f"[{e['ci_low']:.2f}, {e['ci_high']:.2f}]"


def _dataset(data: dict[str, Any]) -> str:
    ds = data["dataset"]
    head = ("<tr><th>table</th><th>style</th><th class=num>M SQL templates</th>"
            "<th class=num>N text templates per SQL template</th><th class=num>Q groups per SQL template</th>"
            "<th class=num>groups (M × Q)</th><th class=num>queries per group</th>"
            "<th class=num>queries (groups × per group)</th>"
            "<th class=num>answer sets</th><th class=num>knowledge-base gaps (queries)</th></tr>")
    body = "".join(
        f"<tr><td>{_e(r['table'])}</td><td>{_e(r['style'])}</td><td class=num>{r['M_sql_templates']}</td>"
        f"<td class=num>{r['N_text_templates']}</td><td class=num>{r['Q_values_per_template']}</td>"
        f"<td class=num>{r['semantic_groups']}</td>"
        f"<td class=num>{_num(r['queries'] / r['semantic_groups'] if r['semantic_groups'] else math.nan, 2)}</td>"
        f"<td class=num>{r['queries']}</td>"
        f"<td class=num>{r['answer_sets']}</td><td class=num>{r['kb_gaps']}</td></tr>" for r in ds["stats"])
    total = (f"<tr><th>all</th><th></th><th></th><th></th><th></th><th class=num>{ds['groups']}</th><th></th>"
             f"<th class=num>{ds['records']}</th><th></th><th class=num>{ds['kb_gap_queries']}</th></tr>")
    opts = ds.get("options") or {}
    note = ", ".join(f"{k} = {v}" for k, v in opts.items() if v not in (None, ""))
    bars = svg.stacked_bars(
        [(f"{r['table']} · {r['style']}", [("supported", r["queries"] - r["kb_gaps"]), ("kb_gap", r["kb_gaps"])])
         for r in ds["stats"]],
        {"supported": "#3367d6", "kb_gap": verdict_registry.colours()["kb_gap"]},
        title="Queries per table and style",
        legend_labels={"supported": "knowledge base states the answer", "kb_gap": "left out of the knowledge base"},
        percent=False, width=860, label_width=170)
    cov = ds.get("kb_coverage") or []
    coverage = ""
    if cov:
        crow = "".join(
            f"<tr><td>{_e(r['table'])}</td><td><code>{_e(r['sql'])}</code></td><td class=num>{r['stated_groups']}"
            f" / {r['groups']}</td><td class=num>{_num(r['coverage'], 2)}</td><td>{_e(r['basis'])}</td>"
            f"<td>{_e(r['missing_example'] or '')}</td></tr>" for r in cov)
        short = sum(r["coverage"] < 1.0 for r in cov)
        # collapsed: one row per SQL template is long, and the diagnosis above already says what it means
        coverage = (f"<details><summary>Knowledge-base coverage (known, before any system runs): {len(cov)} SQL "
                    f"templates, {short} of them with facts left out</summary><p class=muted>Semantic groups "
                    "whose facts the knowledge base states, per SQL template: the truth that the answer-based "
                    "Acc_retrieval_db estimates from answers (basis: fact_index = a knowledge base ragdx rendered, "
                    "linked = evidence found in your corpus). `ragdx kb audit` gives the same per column.</p>"
                    + _table("<tr><th>table</th><th>SQL template</th><th class=num>stated groups</th>"
                             "<th class=num>coverage</th><th>basis</th><th>a query it cannot answer</th></tr>"
                             + crow) + "</details>")
    return (f'<section id="dataset"><h2>Dataset</h2><p class="lead">Per table and style (GRAMMAR Table 2): M SQL '
            "templates, N text templates per SQL template and Q semantic groups (value combinations) per SQL "
            "template, both means; groups = M × Q; each group is asked in the sampled number of phrasings, so "
            "queries = groups × queries per group (M × N × Q is the pool before sampling). The all-styles row "
            f"counts each group once. Source: <code>{_e(ds['path'])}</code>"
            f"{'; ' + _e(note) if note else ''}.</p>{_table(head + body + total)}{_templates(ds)}{bars}{coverage}"
            "</section>")


def _templates(ds: dict[str, Any]) -> str:
    """How many SQL templates, as the console counts them, and why any made no query."""
    counted = ds.get("templates")
    if counted is None:
        return ""
    if not counted.without:
        return f'<p class="muted">{_e(counted.words())}.</p>'
    items = "".join(f"<li><code>{_e(t.sql or t.template)}</code>: {_e(t.why)}</li>" for t in counted.without)
    return (f'<p class="muted">{_e(counted.words())} (the table counts the {counted.with_queries} with queries):'
            f"</p><ul class=muted>{items}</ul>")


def _metrics_table(s: dict[str, Any]) -> str:
    styles = list(s["by_style"])
    head = "<tr><th>metric</th>" + "".join(f"<th class=num>{_e(st)}</th>" for st in styles) + "</tr>"
    rows = []
    for key, label in (("queries", "queries"), ("groups", "semantic groups"), ("gap", "gap groups (answer-based)"),
                       ("robust", "robust groups"), ("non_robust", "non-robust groups")):
        rows.append(f"<tr><td>{label}</td>" + "".join(f"<td class=num>{_e(getattr(s['by_style'][st], key))}</td>"
                                                       for st in styles) + "</tr>")
    for key, label in (*HEADLINE, *EXTRA_METRICS):
        rows.append(f"<tr><td>{_e(label)}</td>" + "".join(
            f"<td class=num>{_ci(_metric(s['by_style'][st], key))}</td>" for st in styles) + "</tr>")
    notes = f'<p class="muted">Gap rule: {_e(s.get("gap_rule", ""))}.'
    if s.get("retrieval_rule"):
        notes += f" Retrieval rule: {_e(s['retrieval_rule'])}; the confusion matrix and hit rates use it too."
    return f"{_table(head + ''.join(rows))}{notes}</p>"


def _confusion(c: dict[str, int] | None) -> str:
    if not c:
        return '<p class="muted">No RAG confusion matrix (the run has no gold documents).</p>'
    return _table("<tr><th></th><th>answer acceptable</th><th>answer not acceptable</th></tr>"
                  f"<tr><th>relevant document retrieved</th><td>TP {c['TP']}</td><td>FN {c['FN']}</td></tr>"
                  f"<tr><th>no relevant document</th><td>FP {c['FP']}</td><td>TN {c['TN']}</td></tr>",
                  ' class="confusion"')


def _legend_colours(verdicts: tuple[str, ...]) -> dict[str, str]:
    """The verdict chart's colours, whose order is its legend's: the verdicts counted, then every
    other verdict a query can get (a report without conversations still keys history handling,
    as it always has)."""
    colours = verdict_registry.colours()
    rest = [k for k, v in verdict_registry.REGISTRY.items()
            if k not in verdicts and v.kind != verdict_registry.UNJUDGED]
    return {k: colours[k] for k in (*verdicts, *rest)}


def _template_table(s: dict[str, Any], verdicts: tuple[str, ...]) -> str:
    labels = verdict_registry.labels()
    head = ("<tr><th>table</th><th>SQL template</th><th class=num>queries</th><th class=num>accuracy</th>"
            "<th class=num>retrieval right</th>" + "".join(f"<th class=num>{_e(labels[v])}</th>"
                                                           for v in verdicts) + "</tr>")
    body = "".join(
        f"<tr><td>{_e(r['table'])}</td><td><code>{_e(r['sql'])}</code></td><td class=num>{r['queries']}</td>"
        f"<td class=num>{_num(r['accuracy'], 2)}</td><td class=num>{_num(r['retrieval'], 2)}</td>"
        + "".join(f"<td class=num>{r['verdicts'][v]}</td>" for v in verdicts) + "</tr>" for r in s["per_template"])
    return (f"{_table(head + body)}<p class=muted>The verdicts of a row sum to its queries (less any whose "
            "judge failed); accuracy = correct answers / judged queries.</p>")


def _systems(data: dict[str, Any]) -> str:
    systems = data["systems"]
    verdicts, unsure = report_verdicts(data), verdict_registry.unsure_verdicts()
    tag_rows, verdict_rows = [], []
    for s in systems:
        for st, v in s["by_style"].items():
            tag_rows.append((f"{s['name']} · {st}", [(k, getattr(v, k, 0)) for k in TAG_COLOURS]))
        verdict_rows.append((s["name"], [(k, s["blame_all"].get(k, 0)) for k in verdicts]))
        for st, b in s["blame"].items():
            if st != "all":
                verdict_rows.append((f"{s['name']} · {st}", [(k, b.get(k, 0)) for k in verdicts]))
    tags_chart = svg.stacked_bars(tag_rows, TAG_COLOURS, title="Semantic group tags per system and style",
                                  legend_labels=TAG_LABELS, width=860, label_width=200)
    verdict_chart = svg.stacked_bars(verdict_rows, _legend_colours(verdicts), title="Per-query verdicts (module blame)",
                                     legend_labels=verdict_registry.labels(), width=860, label_width=200, percent=False)
    vhead = "<tr><th>system</th>" + "".join(f"<th class=num>{_badge(v)}</th>" for v in verdicts) + \
        "<th class=num>total</th><th class=num>unsure</th></tr>"
    vbody = "".join(f"<tr><td>{_e(s['name'])}</td>" + "".join(
        f"<td class=num>{s['blame_all'].get(v, 0)}</td>" for v in verdicts)
        + f"<td class=num>{sum(s['blame_all'][v] for v in verdicts)}</td>"
        f"<td class=num>{sum(s['blame_all'].get(v, 0) for v in unsure)}</td></tr>" for s in systems)
    parts = ['<section id="systems"><h2>Verdicts: where each wrong answer comes from</h2>'
             f"{_table(vhead + vbody)}"
             '<p class="muted">An <b>unsure</b> verdict names the modules that remain when the evidence cannot tell '
             "them apart (knowledge base or retriever; retriever or LM; undetermined) rather than guessing one.</p>"
             f"{verdict_chart}<h3>Group tags</h3>"
             '<p class="muted">A semantic group (one fact asked in several phrasings) is <b>robust</b> when every '
             "phrasing was answered, <b>gap</b> when none was, <b>non-robust</b> otherwise.</p>"
             f"{tags_chart}"]
    counted = data["dataset"].get("templates")
    of = f" of {counted.words()}" if counted is not None and counted.without else ""
    for s in systems:
        tm = s.get("text_metrics") or {}
        # a metric left out says so ("rouge_l not computed (--no-rouge)") rather than vanishing
        extra = ", ".join(f"{k} {_num(v) if isinstance(v, int | float) else v}" for k, v in tm.items()
                          if isinstance(v, int | float | str))
        parts.append(f"<h3>{_e(s['name'])}</h3>")
        if s.get("description"):
            parts.append(f'<p class="muted">{_e(s["description"])}. Judged by {_e(", ".join(s["judges"]))}.</p>')
        parts.append(f'<div class="cols32"><div><b>Per style</b>{_metrics_table(s)}</div>'
                     f"<div><b>RAG confusion matrix</b> (retrieval × answer, ground truth){_confusion(s['confusion'])}"
                     f'<p class="muted">{_e(extra)}</p></div></div>')
        parts.append(f"<details><summary>Per SQL template ({len(s['per_template'])} with queries{_e(of)})</summary>"
                     f"{_template_table(s, verdicts)}</details>")
    parts.append("</section>")
    return "".join(parts)


def _comparison_block(c: dict[str, Any], heading: str) -> str:
    d = c["differences"]
    entries = [(label, d[key]) for key, label in DIFF_METRICS if key in d]
    entries += [(f"{module}: {e['words']}", e) for module, e in c.get("modules", {}).items()]
    rows = [(label, e["difference"], e["ci_low"], e["ci_high"]) for label, e in entries
            if not math.isnan(e["difference"])]
    bound = max([0.1] + [abs(x) for r in rows for x in r[1:] if math.isfinite(x)])
    bound = math.ceil(bound * 10) / 10
    chart = svg.interval_dots(rows, title=f"{heading}: differences ({c['b']} − {c['a']}) with 95 % intervals",
                              lo=-bound, hi=bound, zero=0.0, signed=True, width=760, label_width=280)
    head = (f"<tr><th>metric</th><th class=num>{_e(c['a'])}</th><th class=num>{_e(c['b'])}</th>"
            "<th class=num>difference</th><th class=num>CI (95 %; modules: see footing)</th>"
            "<th class=num>bootstrap p</th>"
            "<th>compared on</th></tr>")
    on = (f"{c['queries']['shared']} shared queries" if c.get("mode") == "paired queries" else "the same groups")

    def row(label: str, e: dict[str, Any], footing: str) -> str:
        if math.isnan(e["difference"]):
            return f"<tr><td>{_e(label)}</td><td colspan=5>not compared</td><td>{_e(e.get('note', ''))}</td></tr>"
        return (f"<tr><td>{_e(label)}</td><td class=num>{_num(e['a'])}</td><td class=num>{_num(e['b'])}</td>"
                f"<td class=num>{e['difference']:+.3f}</td><td class=num>[{e['ci_low']:+.3f}, {e['ci_high']:+.3f}]"
                f"</td><td class=num>{_num(e['bootstrap_p'])}</td><td>{_e(footing)}</td></tr>")

    body = "".join(row(label, d[key], on) for key, label in (*DIFF_METRICS, ("gap_share", "λ (joint)"))
                   if key in d)
    body += "".join(row(f"{m}: {e['words']}", e, f"{e['footing']} ({e['pairs']})"
                        + (f"; {100 * e['level']:g} % CI, corrected for {e['tested']} modules tested"
                           if e.get("level") and e.get("tested", 1) > 1 else ""))
                    for m, e in c.get("modules", {}).items())
    tests = "".join(f"<li>{_e(what)}: {_e(t['test'])}, p = {t['p_value']:.3g} ({t['pairs']} pairs)</li>"
                    for what, t in c["tests"].items())
    return (f"<h3>{_e(heading)}</h3><p class=sentence>{_e(c['sentence'])}</p>{chart}"
            f"<details><summary>Table and paired tests</summary>{_table(head + body)}<ul>{tests}</ul>"
            "</details>")


def _comparisons(data: dict[str, Any]) -> str:
    parts = ['<section id="comparisons"><h2>Comparisons</h2><p class="muted">Each difference has a 95 % interval '
             "from a bootstrap that resamples semantic groups on both sides together; an interval that excludes 0 "
             "is significant. Gap groups are removed jointly (groups neither side answered), so R here can differ "
             "from each system's card, which removes that system's own gap groups. A module is judged on a common "
             "footing: the retrieval on the same queries, the language model on queries whose retrieved documents "
             "were identical on both sides (see each row's 'compared on').</p>"]
    for c in data["comparisons"]:
        parts.append(_comparison_block(c, f"System: {c['b']} against {c['a']}"))
    for s in data["systems"]:
        if s.get("style_test"):
            t = s["style_test"]
            parts.append(_comparison_block(t, f"Style: {t['b']} against {t['a']} on {s['name']}"))
    if len(parts) == 1:
        parts.append('<p class="muted">Nothing to compare: one system with one style.</p>')
    parts.append("</section>")
    return "".join(parts)


def _boundary(data: dict[str, Any]) -> str:
    r = data.get("relevance")
    if not r:
        return ""
    alpha = r["alpha"]
    ans = r.get("answerability")
    hist_series = [("in-knowledge (held out)", r["p_in"], "#3367d6"), ("off-topic", r["p_out"], "#d9480f")]
    if ans:
        hist_series.append(("facts left out (in-domain)", ans["p"], "#2b8a3e"))
    hist = svg.histograms(hist_series,
                          title="p-values of in- and out-of-knowledge queries", xlabel="p-value",
                          alpha_line=alpha, width=560)
    roc = svg.lines([(f"{r['statistic']} (AUROC {r['auroc']:.3f})", r["roc"]["fpr"], r["roc"]["tpr"], "#3367d6")],
                    title="ROC curve: off-topic (positive) vs held-out in-knowledge", xlabel="false positive rate",
                    ylabel="true positive rate", diagonal=True, step=True)
    drift = r["drift"]
    series = [("calibration", *svg.ecdf(r["stat_calibration"]), "#444"),
              ("in-knowledge batch", *svg.ecdf(drift["stat_in_batch"]), "#3367d6"),
              ("mixed batch", *svg.ecdf(drift["stat_mixed_batch"]), "#d9480f")]
    allv = [v for s in series for v in s[1]]
    lo, hi = min(allv), max(allv)
    pad = (hi - lo) * 0.03 or 1.0
    ecdf = svg.lines(series, title=f"Empirical CDFs of the {r['statistic']} statistic (KS drift test)",
                     xlabel=f"{r['statistic']} statistic (larger = further from the corpus)",
                     ylabel="share of queries", step=True, xlim=(lo - pad, hi + pad), width=560)

    def verdict(d: dict[str, Any], what: str) -> str:
        word = "drifted" if d["drifted"] else "did not drift"
        return (f"The {what} ({d['n_batch']} queries, {d['off_topic_share']:.0%} off-topic) {word}: KS statistic "
                f"{d['ks_statistic']:.3f}, p = {d['p_value']:.2g} at α = {d['alpha']:g} against "
                f"{d['n_reference']} calibration queries; median shift {d['median_shift']:+.3f}.")

    table = _table(f"<tr><th>calibration queries</th><td class=num>{r['n_calibration']}</td>"
             f"<th>held-out in-knowledge</th><td class=num>{r['n_in']}</td><th>off-topic</th>"
             f"<td class=num>{r['n_out']}</td></tr><tr><th>AUROC</th><td class=num>{r['auroc']:.3f}</td>"
             f"<th>AUPRC</th><td class=num>{r['auprc']:.3f}</td><th>TPR at 5 % FPR</th>"
             f"<td class=num>{r['tpr_at_5fpr']:.3f}</td></tr><tr><th>flagged off-topic (p ≤ α)</th>"
             f"<td class=num>{r['flagged_out']} / {r['n_out']}</td><th>flagged in-knowledge (type I)</th>"
             f"<td class=num>{r['flagged_in']} / {r['n_in']}</td><th>detection error rate</th>"
             f"<td class=num>{r['der']:.3f}</td></tr>"
             + (f"<tr><th>facts left out, in-domain (p ≤ α)</th><td class=num>{ans['flagged']} / {ans['n']}</td>"
                f"<th>AUROC vs answerable</th><td class=num>{ans['auroc_vs_in']:.3f}</td><td></td><td></td></tr>"
                if ans else ""))
    from ragdx.relevance.boundary import boundary_sentences

    # what the test measures, in the words the README uses: topic distance, not answerability
    table += "".join(f"<p class=sentence>{_e(line)}</p>" for line in boundary_sentences(r))
    return (f'<section id="boundary"><h2>Knowledge boundary</h2><p class="lead">Is a query inside what the corpus '
            f"can answer? A p-value per query from the {_e(r['statistic'])} statistic of its {r['k']} nearest "
            f"chunks ({r['corpus_chunks']} in the corpus), calibrated on {_e(r.get('calibration_source', ''))}; "
            f"out-of-knowledge queries: <code>{_e(r.get('out_source', ''))}</code>. α = {alpha:g}.</p>{table}"
            f'<div class="row2"><div>{hist}</div><div>{roc}</div></div>'
            f"<h3>Drift</h3><p class=sentence>{_e(verdict(drift['mixed'], 'mixed batch'))}</p>"
            f"<p class=sentence>{_e(verdict(drift['in_knowledge'], 'in-knowledge batch'))}</p>{ecdf}</section>")


#: failure rows drawn in the report; the rest are in the JSONL beside it (a 100k-query run has
#: tens of thousands of failures: drawn in full they made a 28 MB page that took 24 s to show)
FAILURES_INLINE = 500


def failures_file(report: str | Path) -> Path:
    """Where every failure of the report at ``report`` goes, one JSON object a line."""
    report = Path(report)
    return report.with_name(f"{report.stem}.failures.jsonl")


def write_failures(data: dict[str, Any], report: str | Path) -> Path | None:
    """Write every failure (all of them, so one file can be searched with grep or jq) beside the
    report when the table is paged, and tell ``render_html`` to link to it. Called before the
    report is written, so its link never points at nothing; None when every row fits inline."""
    path = failures_file(report)
    if len(data["failures"]) <= FAILURES_INLINE:
        path.unlink(missing_ok=True)  # an earlier, larger report's list would now be wrong
        return None
    from ragdx.evaluate.records import write_rows

    write_rows(path, data["failures"])  # a block at a time: a million failures are gigabytes of lines
    path.chmod(0o644)  # shared with the report
    data["failures_file"] = path.name
    return path


def _failures(data: dict[str, Any]) -> str:
    every = data["failures"]
    systems = sorted({f["system"] for f in every})
    styles = sorted({f["style"] for f in every})
    verdicts = [v for v in report_verdicts(data) if any(f["verdict"] == v for f in every)]
    linked = data.get("failures_file")
    failures = every[:FAILURES_INLINE] if linked else every
    rows = []
    for f in failures:
        gold = set(f["gold"])
        items = "".join(
            f'<li class="gold">{_e(d)} ★</li>' if d in gold else f"<li>{_e(d)}</li>" for d in f["retrieved"])
        missing = [g for g in f["gold"] if g not in set(f["retrieved"])]
        miss = (f'<div class="missing">gold not retrieved: {_e(", ".join(missing))}</div>' if missing else "")
        if f["kb_supported"] is False:
            miss += ('<div class="muted">the knowledge base leaves this fact out</div>' if f["verdict"] == "kb_gap" else
                     '<div class="muted">the evidence linker found no document stating this fact</div>')
        conf = f" · {_e(f['confidence'])} confidence" if f.get("confidence") else ""
        if f.get("why") and f["verdict"] != "correct":
            miss += f'<div class="muted">{_e(f["why"])}</div>'
        rows.append(
            f'<tr data-system="{_e(f["system"])}" data-verdict="{_e(f["verdict"])}" data-style="{_e(f["style"])}">'
            f"<td>{_e(f['system'])}<br><span class=muted>{_e(f['style'])}</span></td><td>{_e(f['query'])}</td>"
            f"<td>{_e(f['answer'])}</td><td class=resp>{_e(f['response'] if f['response'] is not None else '—')}</td>"
            f"<td><ol>{items}</ol>{miss}</td><td>{_badge(f['verdict'])}<br><span class=muted>{_e(f['basis'])}"
            f"{conf}</span></td></tr>")

    def options(element_id: str, label: str, values: list[str], names: dict[str, str] | None = None) -> str:
        opts = "".join(f'<option value="{_e(v)}">{_e((names or {}).get(v, v))}</option>' for v in values)
        return (f'<select id="{element_id}" aria-label="{label}"><option value="">{label}: all</option>'
                f"{opts}</select>")

    controls = (f'<div class="controls"><input id="failure-search" type="search" placeholder="Search queries, '
                f'answers, responses, documents…" aria-label="search failures">'
                f"{options('failure-system', 'system', systems)}"
                f"{options('failure-verdict', 'verdict', verdicts, verdict_registry.labels())}"
                f"{options('failure-style', 'style', styles)}"
                f'<span id="failure-count" class="muted">{len(failures)} failures</span></div>')
    paged = ""
    if len(failures) < len(every):
        paged = (f' The first {len(failures)} of {len(every)} are below (the search looks through these); '
                 f'<a href="{_e(linked)}">{_e(linked)}</a>, beside this file, has all {len(every)}, one JSON '
                 "object a line (<code>grep</code>, <code>jq</code>, or any JSONL reader).")
    return (f'<section id="failures-section"><h2>Every failure</h2><p class="muted">Wrong answers of every system, '
            "with the documents it retrieved (★ the gold document that states the answer) and the verdict of module "
            f"blame. {len(every)} rows.{paged}</p>{controls}<div class=tablewrap><table id=failures><thead><tr>"
            "<th>system</th><th>query</th>"
            "<th>true answer</th><th>response</th><th>retrieved documents</th><th>verdict</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div></section>")


def _abstention(data: dict[str, Any]) -> str:
    """Questions to refuse (issue 26): per system, abstention precision and recall per refusal kind
    and who is blamed for over-answering and over-refusing; nothing when no system has any."""
    systems = [s for s in data["systems"] if s.get("abstention")]
    if not systems:
        return ""
    from ragdx.evaluate.abstention import KIND_LABELS, abstention_blame_rows

    parts = ['<section id="abstention"><h2>Abstention: questions to refuse</h2><p class="muted">Abstaining (a '
             "refusal, or a correction of a false premise) is the positive class: recall is the share of a kind's "
             "records not answered, precision sets them against the over-refusals of the paired questions to "
             "answer; <i>right</i> is the reply the record calls for (a false premise corrected with its true "
             "value).</p>"]
    head = ("<tr><th>refusal kind</th><th class=num>records</th><th class=num>abstained</th><th class=num>corrected"
            "</th><th class=num>over-answered</th><th class=num>right</th><th class=num>recall</th>"
            "<th class=num>precision</th></tr>")
    for s in systems:
        a = s["abstention"]
        rows = "".join(f"<tr><td>{_e(KIND_LABELS.get(k, k))}</td><td class=num>{v['records']}</td>"
                       f"<td class=num>{v['abstained']}</td><td class=num>{v['corrected']}</td>"
                       f"<td class=num>{v['over_answered']}</td><td class=num>{v['right']}</td>"
                       f"<td class=num>{_num(v['recall'])}</td><td class=num>{_num(v['precision'])}</td></tr>"
                       for k, v in a["by_kind"].items())
        ans = a["answerable"]
        blamed = "; ".join(f"{what}: " + ", ".join(f"{_label(m)} {n}" for m, n in counts.items())
                           for what, counts in abstention_blame_rows(a))
        parts.append(f"<h3>{_e(s['name'])}</h3>{_table(head + rows)}<p>Questions to answer declined: "
                     f"{ans['over_refused']} of {ans['records']}. Blame: {_e(blamed or 'nothing to blame')}.</p>")
    parts.append("</section>")
    return "".join(parts)


def _conversations(data: dict[str, Any]) -> str:
    """Conversations (issue 26): per system and turn, accuracy and what the failures are blamed on,
    history handling among the modules; nothing when no system was asked any."""
    systems = [s for s in data["systems"] if s.get("conversations")]
    if not systems:
        return ""
    names = ("history_failure", "retrieval_failure", "lm_failure")
    parts = ['<section id="conversations"><h2>Conversations: per turn</h2><p class="muted">A follow-up is blamed '
             "on history handling when its question written out in full, asked alone, retrieved the evidence and "
             "the follow-up did not.</p>"]
    head = ("<tr><th class=num>turn</th><th class=num>records</th><th class=num>accuracy</th>"
            + "".join(f"<th class=num>{_e(_label(v))}</th>" for v in names) + "<th class=num>other</th></tr>")
    for s in systems:
        c = s["conversations"]
        rows = "".join(f"<tr><td class=num>{t}</td><td class=num>{r['records']}</td>"
                       f"<td class=num>{_num(r['accuracy'])}</td>"
                       + "".join(f"<td class=num>{r['blame'].get(v, 0)}</td>" for v in names)
                       + f"<td class=num>{sum(n for v, n in r['blame'].items() if v not in names)}</td></tr>"
                       for t, r in c["by_turn"].items())
        parts.append(f"<h3>{_e(s['name'])}</h3>{_table(head + rows)}<p>{c['history_failures']} of "
                     f"{c['follow_ups']} follow-ups blamed on history handling.</p>")
    parts.append("</section>")
    return "".join(parts)


def _question_kinds(data: dict[str, Any]) -> str:
    """Accuracy per question kind (issue 22: lists, counts, totals, extremes, comparisons, time
    ranges beside look-ups), per system with its 95 % Wilson interval; nothing when every question
    was a look-up, as ``summary.md``'s section."""
    systems = [s for s in data["systems"] if s.get("question_kinds")]
    if not systems:
        return ""
    parts = ['<section id="question-kinds"><h2>Accuracy per question kind</h2><p class="muted">Questions to '
             "answer only (records to refuse are scored under Abstention); a look-up asks one fact of one named "
             "row, as GRAMMAR's questions do.</p>"]
    head = ("<tr><th>kind</th><th class=num>questions</th><th class=num>correct</th><th class=num>accuracy</th>"
            "<th class=num>95 % interval</th></tr>")
    for s in systems:
        rows = "".join(f"<tr><td>{_e(kind)}</td><td class=num>{k['n']}</td><td class=num>{k['correct']}</td>"
                       f"<td class=num>{_num(k['accuracy'])}</td><td class=num>{_num(k['interval'][0])}–"
                       f"{_num(k['interval'][1])}</td></tr>" for kind, k in s["question_kinds"].items())
        parts.append(f"<h3>{_e(s['name'])}</h3>{_table(head + rows)}")
    parts.append("</section>")
    return "".join(parts)


def render_html(data: dict[str, Any]) -> str:
    """The whole report as one HTML document (no external resource)."""
    # the diagnosis first (above the fold), then the comparisons, then the details
    body = "".join([_header(data), _nav(data), "<main>", _diagnosis(data), _comparisons(data), _overview(data),
                    _systems(data), _question_kinds(data), _abstention(data), _conversations(data),
                    _dataset(data), _boundary(data),
                    _failures(data), "</main>",
                    f"<footer>ragdx · generated {_e(data['generated'])} · self-contained report: no network needed "
                    "to view or print it.</footer>"])
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{_e(data['title'])}</title><style>{CSS}</style></head><body>{body}"
            f"<script>{SCRIPT}</script></body></html>\n")
