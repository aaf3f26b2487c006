"""Judges held against people: a rating sheet for a sample of a run, and agreement read back.

``ragdx annotate RUN -n 50 -o DIR`` writes ``DIR/ratings.csv`` (one row per sampled query: the
question, the true answer, the response and the retrieved context, with empty columns for a
person's verdict and the four G-Eval criteria) and ``DIR/ratings.html``, a small offline page to
fill the same sheet in a browser and save it as CSV. The sheet is blind: ragdx's own verdicts are
not in it. ``ragdx judge-agreement RUN --human DIR/ratings.csv`` then reports, for each judge that
judged the run (the evaluation's verdicts, and the LLM's G-Eval scores where the evaluation has
them), agreement and Cohen's κ with the people, and the mean score people and the LLM gave each
criterion (the academic-RAG paper found people rate lower than GPT-4).
"""

from __future__ import annotations

import csv
import html
import json
import random
from pathlib import Path
from typing import Any

from ragdx.errors import RagdxError
from ragdx.evaluate.judges import agreement
from ragdx.evaluate.text_metrics import GEVAL_CRITERIA

COLUMNS = ("id", "query", "true_answer", "response", "context", "human_correct", *GEVAL_CRITERIA, "notes")
_YES = {"yes", "y", "1", "true", "correct", "c"}
_NO = {"no", "n", "0", "false", "incorrect", "i"}


def _evaluation(run_dir: Path) -> Path:
    ev = run_dir / "evaluation"
    if not (ev / "judgements.jsonl").exists():
        raise RagdxError("the run has no evaluation yet: run `ragdx evaluate` on it first", source=str(run_dir))
    return ev


def write_sheet(run_dir: str | Path, out: str | Path, *, n: int = 50, seed: int = 0,
                context_chars: int = 1500) -> dict[str, Any]:
    """Write ``ratings.csv`` and ``ratings.html`` for a seeded sample of ``n`` judged queries."""
    from ragdx.evaluate.records import read_judgements
    from ragdx.rag.rundir import read_run
    from ragdx.store import staged_directory

    run_dir = Path(run_dir)
    judged = [j for j in read_judgements(_evaluation(run_dir) / "judgements.jsonl") if not j.error]
    if not judged:
        raise RagdxError("no judged query to annotate", source=str(run_dir))
    sample = sorted(random.Random(seed).sample(judged, min(n, len(judged))), key=lambda j: j.id)
    contexts = {o.id: "\n\n".join(c.text for c in o.contexts if c.text) for o in read_run(run_dir)}
    rows = [{"id": j.id, "query": j.query, "true_answer": j.answer, "response": j.response or "",
             "context": contexts.get(j.id, "")[:context_chars], "human_correct": "",
             **{c: "" for c in GEVAL_CRITERIA}, "notes": ""} for j in sample]
    with staged_directory(out) as stage:
        with open(stage / "ratings.csv", "w", encoding="utf-8", newline="") as f:
            w = csv.DictWriter(f, fieldnames=COLUMNS)
            w.writeheader()
            w.writerows(rows)
        (stage / "ratings.html").write_text(_page(rows, run_dir.name), encoding="utf-8")
    return {"rows": len(rows), "csv": str(Path(out) / "ratings.csv"), "html": str(Path(out) / "ratings.html")}


def _page(rows: list[dict[str, str]], title: str) -> str:
    """One self-contained page: a form per query; the button saves the filled sheet as CSV."""
    crit = "".join(f"<th>{html.escape(c)} (1-5)</th>" for c in GEVAL_CRITERIA)
    body = []
    for i, r in enumerate(rows):
        cells = "".join(f'<td><select data-k="{c}"><option></option>' + "".join(
            f"<option>{v}</option>" for v in range(1, 6)) + "</select></td>" for c in GEVAL_CRITERIA)
        body.append(
            f'<tr data-i="{i}"><td><b>{html.escape(r["query"])}</b><div class=m>true answer: '
            f'{html.escape(r["true_answer"])}</div><details><summary>context</summary><pre>'
            f'{html.escape(r["context"])}</pre></details></td><td>{html.escape(r["response"])}</td>'
            '<td><select data-k="human_correct"><option></option><option>yes</option><option>no</option></select></td>'
            f'{cells}<td><input data-k="notes"></td></tr>')
    data = json.dumps(rows, ensure_ascii=False).replace("</", "<\\/")
    cols = json.dumps(list(COLUMNS))
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>ratings: {html.escape(title)}</title>
<style>body{{font:14px system-ui,sans-serif;margin:20px}}table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;
padding:6px;vertical-align:top}}.m{{color:#555}}pre{{white-space:pre-wrap;max-width:60ch}}</style></head><body>
<h1>Rate the answers of {html.escape(title)}</h1><p>Mark each answer correct or not, and score the four criteria from 1
(worst) to 5 (best). Nothing leaves this page: <button id=save>Save as CSV</button> downloads the filled sheet, to give
to <code>ragdx judge-agreement RUN --human ratings.csv</code>.</p>
<table><tr><th>question</th><th>answer</th><th>correct?</th>{crit}<th>notes</th></tr>{''.join(body)}</table>
<script>const rows={data};const cols={cols};
document.getElementById('save').onclick=()=>{{document.querySelectorAll('tr[data-i]').forEach(tr=>{{
const r=rows[+tr.dataset.i];tr.querySelectorAll('[data-k]').forEach(el=>{{r[el.dataset.k]=el.value;}});}});
const q=v=>'"'+String(v??'').replace(/"/g,'""')+'"';
const text=[cols.join(',')].concat(rows.map(r=>cols.map(c=>q(r[c])).join(','))).join('\\r\\n');
const a=document.createElement('a');a.href=URL.createObjectURL(new Blob([text],{{type:'text/csv'}}));
a.download='ratings.csv';a.click();}};</script></body></html>"""


def read_sheet(path: str | Path) -> list[dict[str, Any]]:
    """The filled sheet: rows with a human verdict and/or criteria scores (others are skipped)."""
    path = Path(path)
    try:
        with open(path, encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise RagdxError(f"cannot read the rating sheet ({exc})", source=str(path)) from None
    if not rows or "id" not in rows[0]:
        raise RagdxError("not a rating sheet (no 'id' column): make one with `ragdx annotate`", source=str(path))
    out = []
    for number, row in enumerate(rows, 2):
        verdict = (row.get("human_correct") or "").strip().casefold()
        if verdict and verdict not in _YES | _NO:
            raise RagdxError(f"human_correct must be yes or no, not {verdict!r}", source=str(path),
                             field=f"line {number}")
        scores = {}
        for c in GEVAL_CRITERIA:
            v = (row.get(c) or "").strip()
            if v:
                if v not in {"1", "2", "3", "4", "5"}:
                    raise RagdxError(f"{c} must be 1-5, not {v!r}", source=str(path), field=f"line {number}")
                scores[c] = int(v)
        if verdict or scores:
            out.append({"id": row["id"], "correct": None if not verdict else verdict in _YES, "scores": scores})
    if not out:
        raise RagdxError("the rating sheet has no ratings yet", source=str(path))
    return out


def human_agreement(run_dir: str | Path, sheet: str | Path, *, threshold: int = 4) -> dict[str, Any]:
    """Each judge of the run against the people: agreement and κ on correctness (the evaluation's
    verdicts) and on "acceptable" per criterion (LLM score and human score >= ``threshold``), and
    the mean score of each criterion by people and by the LLM on the same queries."""
    from ragdx.evaluate.records import read_judgements
    from ragdx.store import iter_jsonl

    run_dir = Path(run_dir)
    ev = _evaluation(run_dir)
    people = read_sheet(sheet)
    judged = {j.id: j for j in read_judgements(ev / "judgements.jsonl") if not j.error}
    unknown = [p["id"] for p in people if p["id"] not in judged]
    if unknown:
        raise RagdxError(f"{len(unknown)} rated ids are not judged queries of this run (e.g. {unknown[0]})",
                         source=str(sheet), field="id")
    out: dict[str, Any] = {"rated": len(people), "correctness": {}, "criteria": {}}
    rated = [p for p in people if p["correct"] is not None]
    if rated:
        judges = sorted({judged[p["id"]].judge for p in rated})
        both = agreement([judged[p["id"]].correct for p in rated], [p["correct"] for p in rated],
                         names=("ragdx", "people"))
        out["correctness"]["+".join(judges)] = both.to_dict()
    llm_scores = {obj["id"]: obj for _, obj in iter_jsonl(ev / "geval.jsonl")} if (ev / "geval.jsonl").exists() else {}
    for c in GEVAL_CRITERIA:
        pairs = [(llm_scores.get(p["id"], {}).get(c), p["scores"][c]) for p in people if c in p["scores"]]
        if not pairs:
            continue
        entry: dict[str, Any] = {"n": len(pairs), "people_mean": sum(h for _, h in pairs) / len(pairs)}
        scored = [(m, h) for m, h in pairs if m is not None]
        if scored:
            entry["llm_mean"] = sum(m for m, _ in scored) / len(scored)
            entry["agreement"] = agreement([m >= threshold for m, _ in scored], [h >= threshold for _, h in scored],
                                           names=("G-Eval LLM", "people")).to_dict()
        out["criteria"][c] = entry
    return out


def human_agreement_markdown(result: dict[str, Any]) -> str:
    lines = [f"{result['rated']} rated queries.", ""]
    for judge, a in result["correctness"].items():
        lines.append(f"- correctness, judge {judge} vs people: {a['agree']}/{a['n']} agree ({a['agreement']:.3f}), "
                     f"Cohen's κ {a['kappa']:.3f}; correct rate {a['a_correct_rate']:.3f} (judge) vs "
                     f"{a['b_correct_rate']:.3f} (people)")
    for c, e in result["criteria"].items():
        line = f"- {c}: people mean {e['people_mean']:.2f} ({e['n']})"
        if "llm_mean" in e:
            a = e["agreement"]
            line += (f", LLM mean {e['llm_mean']:.2f}; acceptable agree {a['agreement']:.3f}, κ {a['kappa']:.3f}")
        lines.append(line)
    return "\n".join(lines)
