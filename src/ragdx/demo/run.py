"""``ragdx demo``: every stage, end to end, on the embedded demo database, offline.

The demo is the product's first impression, so it runs the same public functions a user's
project runs (nothing demo-only in the stages), writes every artefact under one directory, and
can be re-run: the templates files are merged, never overwritten, runs resume (a finished run is
not asked again), and embeddings come from the shared on-disk cache (``ragdx cache info``).

1. build the demo database; render its knowledge base with some facts left out on purpose;
2. SQL and text templates (rules), then a balanced dataset in two styles, short and long;
3. run two systems: the keyword-overlap retriever (GRAMMAR's vulnerable one) and BM25 + dense
   ensemble, both with the extractive reader;
4. evaluate both (tags, R, knowledge-base adequacy, module blame, short-vs-long test) and compare
   them;
5. calibrate the knowledge-boundary tester on the demo corpus with part of the generated queries,
   score held-out in-knowledge queries and the project's off-topic questions, and run the drift
   test on a mixed batch;
6. write ``report.html`` (and ``report.md``) and print a short summary.

The dataset is capped (groups per SQL template, queries per group and style) so that the whole
run stays within a few minutes on two cores with a cold embedding cache.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table

from ragdx.db import connect, inspect_schema
from ragdx.demo.database import build_demo_database, demo_description
from ragdx.errors import RagdxError
from ragdx.gen.dataset import QARecord, stats
from ragdx.gen.pipeline import (
    GenResult,
    SqlStageResult,
    TextStageResult,
    build_dataset,
    load_parsed,
    sql_stage,
    text_stage,
    write,
)
from ragdx.gen.qa import AnswerOptions
from ragdx.gen.text_templates import read_text_templates
from ragdx.kb.render import KnowledgeBase, render_kb

if TYPE_CHECKING:
    from ragdx.gen.sql_templates import ParsedTemplate
    from ragdx.rag.pipeline import Pipeline

#: facts the demo's knowledge base leaves out, so that the dataset has known gap groups
DEMO_OMIT = ("Staff.Office", "Programme.TuitionFee", "Course.max_enrolment")
DEMO_OMIT_TABLES = ("Teaching",)
DEMO_STYLES = ("short", "long")
#: text templates per SQL template and style written to the templates file
DEMO_N = 3
#: semantic groups per SQL template (seeded sample) and queries per group and style (balanced)
DEMO_MAX_GROUPS = 6
DEMO_PER_GROUP = 2
#: retrieved documents per query
DEMO_TOP_K = 3
#: the two systems: (run name, what it is)
DEMO_SYSTEMS = (
    ("keyword", "keyword-overlap retriever + extractive reader (GRAMMAR's vulnerable retriever)"),
    ("bm25-dense", "BM25 + dense (MiniLM) ensemble, reciprocal rank fusion + extractive reader"),
)
#: knowledge-boundary test: share of the in-knowledge queries used for calibration, cap on them
DEMO_CALIBRATION_SHARE = 0.6
DEMO_MAX_CALIBRATION = 300
DEMO_MAX_HELD_OUT = 150
DEMO_ALPHA = 0.05


def _systems(kb_dir: Path, top_k: int) -> list[Pipeline]:
    from ragdx.rag.chunking import WholeDocumentChunker
    from ragdx.rag.generators import ExtractiveReader
    from ragdx.rag.pipeline import Pipeline
    from ragdx.rag.retrievers import BM25Retriever, DenseRetriever, EnsembleRetriever, KeywordRetriever

    corpus = str(kb_dir)
    keyword = Pipeline("keyword", corpus, WholeDocumentChunker(), KeywordRetriever(), ExtractiveReader(),
                       top_k=top_k, description=DEMO_SYSTEMS[0][1])
    ensemble = Pipeline("bm25-dense", corpus, WholeDocumentChunker(),
                        EnsembleRetriever([BM25Retriever(), DenseRetriever()], fusion="rank"),
                        ExtractiveReader(), top_k=top_k, description=DEMO_SYSTEMS[1][1])
    return [keyword, ensemble]


class _Clock:
    """Stage timings as durations: each step says how long the one before it took."""

    def __init__(self) -> None:
        self.start = self.last = time.perf_counter()

    def lap(self) -> tuple[float, float]:
        now = time.perf_counter()
        lap, self.last = now - self.last, now
        return lap, now - self.start


# the demo's stages, numbered as the console shows them: [1/5] … [5/5]
STAGES = 5


def _step(console: Console, number: int, text: str, clock: _Clock) -> None:
    lap, total = clock.lap()
    took = f"previous stage {lap:.1f} s, " if number > 1 else ""
    console.print(f"[bold cyan][{number}/{STAGES}][/] {text} [dim]({took}{total:.1f} s in all)[/]")


@dataclass
class Testbed:
    """The demo's database, knowledge base and dataset on disk (what every later stage reads)."""

    out: Path
    kb: KnowledgeBase
    result: GenResult
    parsed: list[ParsedTemplate]
    sql_result: SqlStageResult
    text_result: TextStageResult

    @property
    def records(self) -> Sequence[QARecord]:
        return self.result.records


def build_testbed(out: Path, console: Console | None = None, *, max_groups: int = DEMO_MAX_GROUPS,
                  per_group: int = DEMO_PER_GROUP, n: int = DEMO_N) -> Testbed:
    """Stage 1 of the demo: the database, its knowledge base with facts left out on purpose,
    templates and a balanced dataset in ``out`` (also used by the fault-injection benchmark)."""
    console = console or Console(quiet=True)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    db_path = build_demo_database(out / "demo.sqlite", overwrite=True)
    url = f"sqlite:///{db_path}"
    console.print(f"[bold]demo database[/] {db_path}: {demo_description()}")
    engine = connect(url)
    schema = inspect_schema(engine)
    kb = render_kb(engine, schema, omit=DEMO_OMIT, omit_tables=DEMO_OMIT_TABLES)
    kb.write(out / "kb", overwrite=True)
    sql_file, text_file = out / "templates" / "sql.yaml", out / "templates" / "text.yaml"
    sql_result = sql_stage(engine, schema, sql_file)
    parsed, _ = load_parsed(sql_file, schema)
    text_result = text_stage(parsed, text_file, DEMO_STYLES, n)
    options = AnswerOptions(seed=0, max_groups_per_template=max_groups)
    result = build_dataset(engine, schema, parsed, read_text_templates(text_file), DEMO_STYLES, n,
                           options, kb_facts=kb.facts, per_group=per_group)
    write(out / "dataset", schema, options, result,
          {"database": url, "sql_templates": str(sql_file), "text_templates": str(text_file),
           "knowledge_base": str(out / "kb")}, overwrite=True)
    engine.dispose()
    return Testbed(out, kb, result, parsed, sql_result, text_result)


def run_demo(out: Path, console: Console | None = None, *, max_groups: int = DEMO_MAX_GROUPS,
             per_group: int = DEMO_PER_GROUP, n: int = DEMO_N, top_k: int = DEMO_TOP_K, n_boot: int = 1000,
             progress: bool = True, report: bool = True) -> dict[str, Any]:
    """Run the demo into ``out``; returns a summary (counts, headline metrics, paths)."""
    console = console or Console()
    clock = _Clock()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)

    # 1. database, knowledge base, templates and dataset -----------------------------------------
    _step(console, 1, "demo database, knowledge base, templates and a balanced dataset", clock)
    bed = build_testbed(out, console, max_groups=max_groups, per_group=per_group, n=n)
    summary = _dataset_summary(console, bed)

    # 2. two systems -------------------------------------------------------------------------
    _step(console, 2, "running the two systems over the dataset", clock)
    run_dirs = _run_systems(out, top_k, progress)

    # 3. evaluation and comparison -----------------------------------------------------------
    _step(console, 3, "evaluating: judges, tags, R, blame, short-vs-long and system tests", clock)
    summary.update(_evaluate_runs(console, out, run_dirs, n_boot))

    # 4. knowledge boundary ------------------------------------------------------------------
    _step(console, 4, "knowledge-boundary tester: calibration, held-out and off-topic queries, drift", clock)
    summary["relevance"] = _knowledge_boundary_summary(console, out, bed.result.records)

    # 5. report ------------------------------------------------------------------------------
    if report:
        _step(console, STAGES, "writing the report", clock)
        summary["report"] = _write_report(out, run_dirs, n_boot)
    elapsed = time.perf_counter() - clock.start
    summary["elapsed_s"] = round(elapsed, 1)
    console.print(f"[bold green]done[/] in {elapsed:.0f} s → {out}/ (dataset/, kb/, templates/, runs/, relevance/)")
    if report:
        console.print(f"[bold]report:[/] {(out / 'report.html').resolve()}  (open it in a browser; works offline)")
    return summary


def _dataset_summary(console: Console, bed: Testbed) -> dict[str, Any]:
    """Stage 1's counts, printed and returned as the start of the demo's summary."""
    kb, result, parsed, sql_result, text_result = bed.kb, bed.result, bed.parsed, bed.sql_result, bed.text_result
    _print_dataset(console, result.records)
    groups = {r.group_id for r in result.records}
    gap_groups = {r.group_id for r in result.records if r.kb_supported is False}
    summary: dict[str, Any] = {
        "sql_templates": len(parsed), "sql_rejected": len(sql_result.rejected),
        "text_template_pairs_added": text_result.added_pairs, "documents": len(kb.documents),
        "records": len(result.records), "semantic_groups": len(groups), "kb_gap_groups": len(gap_groups),
    }
    # counted in the table's units (queries) and in groups, each named: a reader comparing the
    # table's "kb-gap queries" with the groups below must not take one for the other
    used = len({r.sql_template_id for r in result.records})
    idle = summary["sql_templates"] - used
    gap_queries = sum(r.kb_supported is False for r in result.records)
    why = f" ({idle} gave no question: per_template_counts in dataset/manifest.json says why)" if idle else ""
    console.print(f"{summary['sql_templates']} SQL templates{why}, "
                  f"{len(kb.documents)} documents (left out: {', '.join(kb.omitted)}), "
                  f"{summary['records']} queries in {summary['semantic_groups']} semantic groups; "
                  f"{summary['kb_gap_groups']} groups ({gap_queries} queries) are knowledge-base gaps by "
                  f"construction.")
    return summary


def _run_systems(out: Path, top_k: int, progress: bool) -> list[Path]:
    from ragdx.evaluate.probes import probe_stage
    from ragdx.rag.runner import run

    run_dirs = []
    for system in _systems(out / "kb", top_k):
        run_dir = out / "runs" / system.name
        run(system, out / "dataset", run_dir, concurrency=1, progress=progress)
        # as `ragdx run` does: the evidence no query retrieved, asked for in its own words, so the
        # evaluation tells a missing document from one the retriever does not reach
        probe_stage(system, run_dir, concurrency=1)
        run_dirs.append(run_dir)
    return run_dirs


def _evaluate_runs(console: Console, out: Path, run_dirs: list[Path], n_boot: int) -> dict[str, Any]:
    """Evaluate both runs and compare them; the headline metrics of each run, by its name."""
    from ragdx.evaluate import compare_paths, evaluate

    summary: dict[str, Any] = {}
    evaluations = {}
    for run_dir in run_dirs:
        evaluations[run_dir.name] = evaluate(run_dir, out=run_dir / "evaluation", judge="cascade", n_boot=n_boot)
    comparison = compare_paths(run_dirs[0], run_dirs[1], out=out / "comparison", judge="cascade", n_boot=n_boot)
    for name, ev in evaluations.items():
        m = ev.overall
        if m is None:
            raise RagdxError(f"the demo run {name} has no judged query", source=str(out))
        summary[name] = {k: float(getattr(m, k)) for k in ("accuracy", "refined_accuracy", "gap_share",
                                                             "acc_retrieval_db", "kb_coverage")}
        console.print(f"[bold]{name}[/]: accuracy {m.accuracy.value:.3f}, R {m.refined_accuracy.value:.3f}, "
                      f"λ {m.gap_share.value:.3f} and Acc_retrieval_db {m.acc_retrieval_db.value:.3f} (answer-based), "
                      f"true knowledge-base coverage {m.kb_coverage.value:.3f}")
    from ragdx.evaluate.compare import sentence_lines

    console.print(f"[bold]{run_dirs[1].name} vs {run_dirs[0].name}[/]: ", end="")
    console.print("\n".join(sentence_lines(comparison)), markup=False, highlight=False)
    return summary


def _knowledge_boundary_summary(console: Console, out: Path, records: Sequence[QARecord]) -> dict[str, Any]:
    """Stage 4, printed; its headline numbers."""
    relevance = knowledge_boundary(out / "kb", records, out / "relevance")
    headline: dict[str, Any] = {k: relevance[k] for k in ("n_calibration", "n_in", "n_out", "auroc")}
    headline["drift"] = relevance["drift"]["mixed"]["drifted"]
    console.print(f"calibrated on {relevance['n_calibration']} in-knowledge queries; AUROC "
                  f"{relevance['auroc']:.3f} on {relevance['n_in']} held-out in-knowledge vs "
                  f"{relevance['n_out']} off-topic queries; flagged at α={relevance['alpha']}: "
                  f"{relevance['flagged_out']}/{relevance['n_out']} off-topic, "
                  f"{relevance['flagged_in']}/{relevance['n_in']} in-knowledge; mixed batch drift: "
                  f"{'yes' if relevance['drift']['mixed']['drifted'] else 'no'} "
                  f"(KS p = {relevance['drift']['mixed']['p_value']:.2g})")
    if relevance.get("answerability"):
        ans = relevance["answerability"]
        headline["flagged_gaps"] = ans["flagged"]
        console.print(f"in-domain queries whose facts the knowledge base leaves out: {ans['flagged']}/{ans['n']} "
                      f"flagged (AUROC vs answerable {ans['auroc_vs_in']:.3f}) — {relevance['note']}")
    return headline


def _write_report(out: Path, run_dirs: list[Path], n_boot: int) -> str:
    from ragdx.report import build_report, render_html, render_markdown
    from ragdx.store import atomic_write_text

    data = build_report(run_dirs, relevance=out / "relevance" / "relevance.json", n_boot=n_boot)
    for name, text in (("report.html", render_html(data)), ("report.md", render_markdown(data))):
        atomic_write_text(out / name, text)
        (out / name).chmod(0o644)
    return str(out / "report.html")


def _print_dataset(console: Console, records: Sequence[QARecord]) -> None:
    table = Table(title="demo dataset: M SQL templates × N text templates × Q values", title_justify="left")
    for head in ("table", "style", "M", "N", "Q", "queries", "kb-gap queries"):
        table.add_column(head, justify="left" if head in ("table", "style") else "right")
    for row in stats(records):
        table.add_row(row["table"], row["style"], str(row["M_sql_templates"]), str(row["N_text_templates"]),
                      str(row["Q_values_per_template"]), str(row["queries"]), str(row["kb_gaps"]))
    console.print(table)


def knowledge_boundary(kb_dir: Path, records: Sequence[QARecord], out: Path, *, alpha: float = DEMO_ALPHA,
                       seed: int = 0, cache_dir: str = "user") -> dict[str, Any]:
    """Calibrate a tester on the knowledge base with a share of the dataset's in-knowledge
    queries (one per semantic group at most, so calibration and held-out queries never share a
    group), test held-out in-knowledge queries, ``OFFTOPIC_QUESTIONS`` and the dataset's queries
    whose facts the knowledge base leaves out (in-domain, but unanswerable from it), and run the
    KS drift test on an in-knowledge batch and on a mixed batch. Writes ``out/relevance.json``
    (and the tester) and returns what it wrote."""
    from ragdx.demo.offtopic import OFFTOPIC_QUESTIONS
    from ragdx.rag.retrievers import shared_embedder
    from ragdx.relevance import RelevanceTester
    from ragdx.relevance.boundary import boundary_results
    from ragdx.relevance.calibration import read_corpus
    from ragdx.store import write_json

    texts = read_corpus(kb_dir / "documents.jsonl", field_name="text")
    # one query per semantic group and style; groups split between calibration and held-out
    by_group: dict[str, list[str]] = {}
    for r in records:
        if r.kb_supported and r.answer_kind != "none":
            by_group.setdefault(r.group_id, []).append(r.query)
    group_ids = sorted(by_group)
    random.Random(seed).shuffle(group_ids)
    cut = int(len(group_ids) * DEMO_CALIBRATION_SHARE)
    cal = [q for g in group_ids[:cut] for q in by_group[g]][:DEMO_MAX_CALIBRATION]
    held = [q for g in group_ids[cut:] for q in by_group[g]]
    held = random.Random(seed + 1).sample(held, min(len(held), DEMO_MAX_HELD_OUT))
    # the answerability check: questions about covered entities whose facts were left out on purpose
    gaps = [r.query for r in records if r.kb_supported is False and r.answer_kind != "none"]
    gaps = random.Random(seed + 2).sample(gaps, min(len(gaps), DEMO_MAX_HELD_OUT))

    tester = RelevanceTester(k=10, alpha=alpha, embedder=shared_embedder(None, cache_dir)).fit(texts, cal)
    tester.save(out / "tester", overwrite=True)
    result = boundary_results(
        tester, held, {"off-topic": list(OFFTOPIC_QUESTIONS)}, gaps=gaps or None, alpha=alpha, seed=seed,
        sources={"calibration": "demo dataset: knowledge-base-supported queries, groups split calibration / held-out",
                 "in_knowledge": "demo dataset: held-out knowledge-base-supported queries",
                 "out_of_knowledge": "ragdx.demo.offtopic.OFFTOPIC_QUESTIONS",
                 "gaps": f"demo dataset: queries about facts left out of the knowledge base ({', '.join(DEMO_OMIT)}, "
                         f"table {', '.join(DEMO_OMIT_TABLES)})"})
    out.mkdir(parents=True, exist_ok=True)
    write_json(out / "relevance.json", result)
    return result
