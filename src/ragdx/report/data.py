"""Everything a report shows, gathered from run directories into one plain dict.

A run directory's evaluation (``RUN_DIR/evaluation``: metrics.json, judgements.jsonl,
blame.jsonl) is reused when it is newer than the run's results, and made otherwise. The dataset
comes from the run manifest; the knowledge-boundary section from a ``relevance.json`` written by
the demo (given, or found as ``relevance/relevance.json`` next to the dataset directory).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragdx.errors import RagdxError
from ragdx.evaluate import verdicts as verdict_registry

if TYPE_CHECKING:
    from ragdx.evaluate.records import Judgement

HEADLINE = (("accuracy", "Accuracy"), ("refined_accuracy", "Refined accuracy R"),
            ("gap_share", "λ (answer-based gap groups)"), ("acc_retrieval_db", "Acc_retrieval_db (answer-based)"),
            ("kb_coverage", "Knowledge-base coverage (known)"))


def report_verdicts(data: dict[str, Any]) -> tuple[str, ...]:
    """The verdicts a report's tables count, in display order (``build_report``'s ``verdicts``;
    the registry's ``always`` verdicts for data gathered before that key existed)."""
    return tuple(data.get("verdicts") or verdict_registry.shown())


def _evaluation_fresh(run_dir: Path) -> bool:
    """The evaluation was made from the run's current results (see ``evaluation_is_current``)."""
    from ragdx.evaluate.report import evaluation_is_current

    return evaluation_is_current(run_dir / "evaluation", run_dir)


def _load_run(run_dir: Path, *, judge: str, n_boot: int, seed: int, dataset: str | Path | None = None
              ) -> dict[str, Any]:
    from ragdx.evaluate import evaluate
    from ragdx.evaluate.results import EvaluationResult
    from ragdx.rag.rundir import MANIFEST, Manifest, RunPaths
    from ragdx.store import iter_jsonl

    if not RunPaths(run_dir).manifest.exists():
        raise RagdxError(f"not a run directory (no {MANIFEST}): make one with `ragdx run`", source=str(run_dir))
    if not _evaluation_fresh(run_dir):
        evaluate(run_dir, out=run_dir / "evaluation", judge=judge, n_boot=n_boot, seed=seed, dataset=dataset)
    ev = run_dir / "evaluation"
    metrics = EvaluationResult.from_dict(json.loads((ev / "metrics.json").read_text(encoding="utf-8")))
    from ragdx.evaluate.runs import InputCheck

    # the run's "n of N" travels with its judgements into every comparison
    judgements = _slim_judgements(ev / "judgements.jsonl", InputCheck.from_dict(metrics.inputs)
                                  if metrics.inputs else None)
    # what the report shows of a verdict: not the documents and spans it points at
    blame = {obj["id"]: {k: v for k, v in obj.items() if k not in ("documents", "spans")}
             for _, obj in iter_jsonl(ev / "blame.jsonl")}
    manifest = Manifest.read(run_dir)
    config = manifest.system_config or {}
    return {"name": run_dir.name, "path": str(run_dir), "system": manifest.system_name or run_dir.name,
            "description": config.get("description") if isinstance(config, dict) else None,
            "manifest": manifest, "metrics": metrics, "judgements": judgements, "blame": blame}


def _slim_judgements(path: Path, check: Any) -> Any:
    """The judgements of ``judgements.jsonl`` without what the report never shows (evidence sets
    and spans, entity and answer documents), read a line at a time, their repeated strings shared:
    a report on a million queries holds a slim judgement each, not the file's objects."""
    from ragdx.evaluate.records import Judgement
    from ragdx.evaluate.runs import Judged
    from ragdx.store import iter_jsonl

    out = Judged(check=check)
    strings: dict[str, str] = {}

    def one(s: str) -> str:
        return strings.setdefault(s, s)

    for number, obj in iter_jsonl(path):
        for key in ("evidence_sets", "evidence_spans", "entity_ids", "value_seen_in", "answer_docs"):
            obj.pop(key, None)
        try:
            j = Judgement.from_dict(obj)
        except (TypeError, RagdxError) as exc:
            raise RagdxError(str(exc), source=str(path), field=f"line {number}") from None
        j.group_id, j.style, j.judge, j.answer = one(j.group_id), one(j.style), one(j.judge), one(j.answer)
        j.retrieved_ids = [one(d) for d in j.retrieved_ids]
        j.gold_ids = [one(d) for d in j.gold_ids]
        out.append(j)
    return out


@dataclass(slots=True)
class RecordSummary:
    """What the report reads of a dataset record: its place (table, templates, group, style) and
    the knowledge base's verdict on it; the query only where the knowledge base lacks its facts
    (the coverage table's example). A million full records do not fit beside the run."""

    id: str
    group_id: str
    style: str
    table: str
    sql_template_id: str
    text_template_id: str
    answer_kind: str
    kb_supported: bool | None
    kb_basis: str
    sql: str
    query: str


# its return is left unannotated: gen.dataset.stats, which reads these rows, is typed for QARecords
# (it reads only fields a RecordSummary has too)
def _dataset_records(run_dir: Path, dataset: str | Path | None = None):
    from ragdx.gen.dataset import iter_records
    from ragdx.rag.run_dataset import resolve_dataset

    # the same dataset the evaluation used: given, or found from the run and checked by its hash
    path = resolve_dataset(run_dir, dataset)
    if path is None:
        return None, []
    strings: dict[str, str] = {}

    def one(s: str) -> str:
        return strings.setdefault(s, s)

    return path, [RecordSummary(r.id, one(r.group_id), one(r.style), one(r.table), one(r.sql_template_id),
                                one(r.text_template_id), one(r.answer_kind), r.kb_supported, one(r.kb_basis or ""),
                                one(r.sql), r.query if r.kb_supported is False else "")
                  for r in iter_records(path)]


def _rate(k: int, n: int) -> float:
    return k / n if n else math.nan


def _per_template(judgements: Iterable[Judgement], blame: Mapping[str, Mapping[str, Any]],
                  records_by_id: Mapping[str, RecordSummary], verdicts: Sequence[str]) -> list[dict[str, Any]]:
    """One row per SQL template: queries, correct answers (the judge's count), retrieval by the
    evaluation's rule, and the per-query verdicts under their own keys (``verdicts``: the report's,
    and ``unjudged``), so no count is added twice; the verdicts of a row sum to its queries."""
    rows: dict[str, dict[str, Any]] = {}
    for j in judgements:
        r = records_by_id.get(j.id)
        key = r.sql_template_id if r is not None else "?"
        row = rows.setdefault(key, {"template": key, "table": r.table if r else "", "sql": r.sql if r else "",
                                    "example": j.query, "queries": 0, "judged": 0, "correct": 0, "ret_known": 0,
                                    "ret_correct": 0, "verdicts": {v: 0 for v in (*verdicts, "unjudged")}})
        row["queries"] += 1
        if j.error:
            row["verdicts"]["unjudged"] += 1
            continue
        row["judged"] += 1
        row["correct"] += bool(j.correct)
        if j.retrieval_correct is not None:
            row["ret_known"] += 1
            row["ret_correct"] += bool(j.retrieval_correct)
        verdict = (blame.get(j.id) or {}).get("verdict")
        row["verdicts"][verdict if verdict in row["verdicts"] else "unjudged"] += 1
    out = []
    for row in rows.values():
        row["accuracy"] = _rate(row["correct"], row["judged"])
        row["retrieval"] = _rate(row["ret_correct"], row["ret_known"])
        out.append(row)
    return sorted(out, key=lambda x: (x["table"], x["accuracy"] if not math.isnan(x["accuracy"]) else 0, x["template"]))


def kb_coverage_table(records: Iterable[RecordSummary]) -> list[dict[str, Any]]:
    """Where the knowledge base's content is known (a rendered knowledge base's fact index, or
    evidence linked in the user's corpus): per table and SQL template, the semantic groups whose
    facts it states — Acc_retrieval_db without any system's or judge's noise."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for r in records:
        if r.kb_supported is None:
            continue
        row = rows.setdefault((r.table, r.sql_template_id), {
            "table": r.table, "template": r.sql_template_id, "sql": r.sql, "groups": set(), "stated": set(),
            "basis": r.kb_basis or "", "missing_example": None})
        row["groups"].add(r.group_id)
        if r.kb_supported:
            row["stated"].add(r.group_id)
        elif row["missing_example"] is None:
            row["missing_example"] = r.query
    out = []
    for row in rows.values():
        n, k = len(row.pop("groups")), len(row.pop("stated"))
        out.append({**row, "groups": n, "stated_groups": k, "coverage": k / n if n else math.nan})
    return sorted(out, key=lambda x: (x["coverage"], x["table"], x["template"]))


def _failures(run: dict[str, Any], records_by_id: Mapping[str, RecordSummary]) -> list[dict[str, Any]]:
    out = []
    for j in run["judgements"]:
        if j.correct:
            continue
        b = run["blame"].get(j.id) or {}
        r = records_by_id.get(j.id)
        out.append({"system": run["name"], "id": j.id, "style": j.style, "table": r.table if r else "",
                    "query": j.query, "answer": j.answer, "response": j.response,
                    "retrieved": list(j.retrieved_ids), "gold": list(j.gold_ids),
                    "kb_supported": j.kb_supported, "verdict": b.get("verdict", "?"), "basis": b.get("basis", ""),
                    "confidence": b.get("confidence", ""), "why": b.get("why", ""), "reason": j.reason})
    return out


def _find_relevance(dataset_path: Path | None) -> Path | None:
    if dataset_path is None:
        return None
    base = dataset_path if dataset_path.is_dir() else dataset_path.parent
    candidate = base.parent / "relevance" / "relevance.json"
    return candidate if candidate.exists() else None


def build_report(run_dirs: Sequence[str | Path], *, relevance: str | Path | None = None, judge: str = "cascade",
                 n_boot: int = 1000, seed: int = 0, title: str | None = None,
                 dataset: str | Path | None = None) -> dict[str, Any]:
    """Gather the report's data for one or more run directories (on one dataset, to be compared);
    ``dataset`` where that dataset is now, when it moved away from the runs."""
    from ragdx.gen.dataset import stats
    from ragdx.report.templates import template_counts

    if not run_dirs:
        raise RagdxError("give at least one run directory", field="RUN_DIR")
    paths = [Path(p) for p in run_dirs]
    names = [p.name for p in paths]
    if len(set(names)) != len(names):
        raise RagdxError("two run directories have the same name; the report names systems by directory",
                         field="RUN_DIR")
    runs = [_load_run(p, judge=judge, n_boot=n_boot, seed=seed, dataset=dataset) for p in paths]
    dataset_path, records = _dataset_records(paths[0], dataset)
    records_by_id = {r.id: r for r in records}
    # the verdicts every system's tables count: the registry's, those only some datasets get where a query got one
    verdicts = verdict_registry.shown(b.get("verdict") for run in runs for b in run["blame"].values())
    systems = [_system(run, records_by_id, verdicts, n_boot=n_boot, seed=seed) for run in runs]
    comparisons = _comparisons(runs, n_boot=n_boot, seed=seed)
    failures = [f for run in runs for f in _failures(run, records_by_id)]
    rel_path = Path(relevance) if relevance is not None else _find_relevance(dataset_path)
    rel = _read_relevance(rel_path) if rel_path is not None else None
    manifest = _dataset_manifest(dataset_path)
    return {
        "title": title or ("ragdx report: " + ", ".join(names)),
        "generated": datetime.now(UTC).isoformat(timespec="seconds"),
        "dataset": {"path": str(dataset_path) if dataset_path else None, "records": len(records),
                    "groups": len({r.group_id for r in records}),
                    "kb_gap_queries": sum(r.kb_supported is False for r in records),
                    "styles": sorted({r.style for r in records}), "stats": stats(records) if records else [],
                    "kb_coverage": kb_coverage_table(records),
                    "templates": template_counts(manifest, records, dataset_path),
                    "options": manifest.get("options", {})},
        "systems": systems, "comparisons": comparisons, "failures": failures,
        "relevance": rel, "relevance_path": str(rel_path) if rel_path else None, "n_boot": n_boot,
        "verdicts": verdicts,
    }


def _system(run: dict[str, Any], records_by_id: dict[str, Any], verdicts: Sequence[str], *, n_boot: int,
            seed: int) -> dict[str, Any]:
    """One system's part of the report: its metrics, blame, per-template accuracy and diagnosis."""
    from ragdx.report.diagnosis import diagnose

    m = run["metrics"]
    blame_all = m.blame.get("all")
    counts = blame_all.to_dict() if blame_all is not None else Counter(b["verdict"] for b in run["blame"].values())
    return {
        "name": run["name"], "description": run["description"], "path": run["path"],
        "queries": m.queries, "judges": m.judges, "inputs": m.inputs, "warnings": m.warnings,
        "gap_rule": m.gap_rule, "retrieval_rule": m.retrieval_rule,
        "overall_key": m.overall_key, "overall": m.overall, "by_style": m.by_style,
        "blame": {k: v.to_dict() for k, v in m.blame.items()},
        "blame_all": {v: int(counts.get(v, 0)) for v in (*verdicts, "unjudged")},
        "unsure": sum(int(counts.get(v, 0)) for v in verdict_registry.unsure_verdicts()),
        "confusion": (m.text_metrics or {}).get("confusion_ground_truth"),
        # the metrics alone: the retrieval rule is shown with the system (``retrieval_rule``)
        "text_metrics": {k: v for k, v in (m.text_metrics or {}).items()
                         if not isinstance(v, dict) and not k.endswith("_note") and k != "retrieval_rule"},
        "style_test": None if m.comparison is None else m.comparison.to_dict(),
        # records to refuse (issue 26): abstention precision/recall per kind and its blame; None without
        "abstention": m.extra.get("abstention"),
        # conversations (issue 26): accuracy and blame per turn, history handling the fourth module
        "conversations": m.extra.get("conversations"),
        # question kinds besides look-ups (issue 22): accuracy per kind with its interval; None without
        "question_kinds": m.extra.get("question_kinds"),
        "per_template": _per_template(run["judgements"], run["blame"], records_by_id, verdicts),
        "counts": (run["manifest"].counts or {}),
        "diagnosis": diagnose(run["name"], run["blame"].values(), run["judgements"], n_boot=n_boot, seed=seed),
    }


def _comparisons(runs: Sequence[dict[str, Any]], *, n_boot: int, seed: int) -> list[dict[str, Any]]:
    """Every pair of systems that answered some of the same queries, compared on those (each as
    ``comparison.json`` has it: the report's data is plain)."""
    from ragdx.evaluate.compare import compare

    comparisons = []
    for i in range(len(runs)):
        for k in range(i + 1, len(runs)):
            a, b = runs[i], runs[k]
            ids_a = {j.id for j in a["judgements"]}
            if not ids_a & {j.id for j in b["judgements"]}:
                continue
            try:
                comparisons.append(compare(a["judgements"], b["judgements"], names=(a["name"], b["name"]),
                                           n_boot=n_boot, seed=seed).to_dict())
            except RagdxError:
                continue
    return comparisons


def _read_relevance(rel_path: Path) -> Any:
    """The knowledge-boundary results (``relevance.json``) the report shows."""
    try:
        return json.loads(Path(rel_path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RagdxError(f"cannot read the knowledge-boundary results ({exc})", source=str(rel_path)) from None


def _dataset_manifest(dataset_path: Path | None) -> dict[str, Any]:
    """The dataset's manifest, or nothing where the dataset has none (a bare records file)."""
    if dataset_path is None:
        return {}
    from ragdx.gen.dataset import MANIFEST as DATASET_MANIFEST
    from ragdx.gen.dataset import read_manifest

    directory = dataset_path if dataset_path.is_dir() else dataset_path.parent
    return read_manifest(directory) if (directory / DATASET_MANIFEST).exists() else {}
