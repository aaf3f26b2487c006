"""The ``ragdx`` command line: one sub-command per stage, each runnable alone.

Options left out on the command line come from ``ragdx.yaml`` (``--config``), then from the
defaults in :mod:`ragdx.config`. Bad input ends with one line naming the file and field, and exit
code 2; nothing half-written is left behind.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ragdx.errors import RagdxError

app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode="rich",
                  help="Grounded, modular diagnosis for retrieval-augmented generation.")
templates_app = typer.Typer(no_args_is_help=True, help="Generate and validate query templates.")
kb_app = typer.Typer(no_args_is_help=True, help="Knowledge bases rendered from database rows.")
app.add_typer(templates_app, name="templates")
app.add_typer(kb_app, name="kb")

console = Console()
err = Console(stderr=True)

ConfigOpt = Annotated[Path | None, typer.Option("--config", "-c", help="Project config (default ./ragdx.yaml).")]
DbOpt = Annotated[str | None, typer.Option("--db", help="Database URL (sqlite:///f.db, postgresql://…, mysql://…).")]
DryRunOpt = Annotated[bool, typer.Option("--dry-run", help="Estimate LLM calls and tokens; send nothing, write nothing.")]


def _pick(cli_value, config_value):
    return config_value if cli_value is None else cli_value


def _config(path: Path | None):
    from ragdx.config import load_config

    return load_config(path)


def _database(cli: str | None, cfg) -> str:
    url = _pick(cli, cfg.database)
    if not url:
        raise RagdxError("no database: pass --db URL or set 'database:' in ragdx.yaml", field="database")
    return url


def _open(url: str):
    from ragdx.db import connect, inspect_schema

    engine = connect(url, read_only=True)
    return engine, inspect_schema(engine)


def _llm(cfg, dry_run: bool, needed: bool):
    if not needed:
        return None
    from ragdx.llm import make_llm

    if cfg.llm is None:
        raise RagdxError("this method needs an 'llm:' section (base_url, model) in ragdx.yaml", field="llm")
    return make_llm(cfg.llm, dry_run=dry_run)


def _print_dry_run(llm) -> None:
    from ragdx.llm import estimate_table

    console.print(estimate_table(llm.usage))
    console.print("[yellow]dry run:[/] nothing was sent and nothing was written.")


def _progress() -> Progress:
    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), console=err, transient=False)


# ----------------------------------------------------------------------------- schema


@app.command()
def schema(url: Annotated[str, typer.Argument(help="Database URL.")],
           as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False):
    """Tables, columns, types, keys, and per column the distinct count and uniqueness measured
    from the data."""
    from ragdx.gen.sql_templates import is_surrogate, lookup_keys

    engine, sch = _open(url)
    if as_json:
        print(json.dumps(sch.to_dict(), indent=2, default=str))
        return
    for t in sch.tables.values():
        table = Table(title=f"{t.name} ({t.rows} rows)", title_justify="left")
        for head in ("column", "type", "key", "distinct", "nulls", "unique", "note"):
            table.add_column(head)
        keys = lookup_keys(t)
        for c in t.columns:
            fk = t.foreign_key_of(c.name)
            key = "PK" if c.primary_key else ""
            if fk:
                key = (key + " " if key else "") + f"FK → {fk.ref_table}.{fk.ref_columns[0]}"
            note = "look-up key" if keys[:1] == [c.name] else ("surrogate" if is_surrogate(t, c.name) else "")
            table.add_row(c.name, c.type, key, str(c.distinct), str(c.nulls),
                          "yes" if t.is_unique(c.name) else "no", note)
        console.print(table)
    engine.dispose()


# ----------------------------------------------------------------------------- templates


@templates_app.command("sql")
def templates_sql(
    db: DbOpt = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Templates file (YAML).")] = None,
    method: Annotated[str | None, typer.Option(help="schema (offline, default) or llm.")] = None,
    target: Annotated[list[str] | None, typer.Option("--schema", help="Target schema for llm, e.g. Project,Client (repeatable).")] = None,
    requirement: Annotated[list[str] | None, typer.Option("--requirement", help="Specific requirement for the llm prompt (repeatable).")] = None,
    import_: Annotated[list[Path] | None, typer.Option("--import", help="Also merge templates from this file (YAML or the GRAMMAR reference JSON).")] = None,
    dry_run: DryRunOpt = False,
    config: ConfigOpt = None,
):
    """Derive SQL templates and add the valid ones to the templates file (never rewriting it)."""
    from ragdx.gen.pipeline import sql_stage

    cfg = _config(config)
    sec = cfg.sql_templates
    method = _pick(method, sec.method)
    out = _pick(out, sec.file)
    engine, sch = _open(_database(db, cfg))
    llm = _llm(cfg, dry_run, method == "llm")
    targets = [t.split(",") for t in target] if target else sec.schemas
    if dry_run:
        if llm is None:
            console.print("method 'schema' makes no LLM call.")
            return
        from ragdx.gen.sql_templates import llm_templates
        from ragdx.llm import run_sync

        for t in targets or [[n] for n in sch.tables]:
            run_sync(llm_templates(llm, sch, t, _pick(requirement, sec.requirements)))
        _print_dry_run(llm)
        return
    result = sql_stage(engine, sch, Path(out), method=method, llm=llm, targets=targets,
                       requirements=_pick(requirement, sec.requirements), imports=import_ or [])
    for r in result.rejected:
        err.print(f"[yellow]rejected[/] [{r.template.schema}] {r.template.sql}\n    {r.reason}")
    if result.skipped_schemas:
        console.print(f"kept as they are (already in {out}): {', '.join(result.skipped_schemas)}")
    console.print(f"{len(result.accepted)} valid templates, {len(result.rejected)} rejected; "
                  f"added schemas: {', '.join(result.added_schemas) or 'none'} → {out}")
    if llm is not None:
        console.print(f"LLM usage: {llm.usage.as_dict()}")


@templates_app.command("text")
def templates_text(
    db: DbOpt = None,
    sql: Annotated[Path | None, typer.Option("--sql", help="SQL templates file.")] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Text templates file (YAML).")] = None,
    style: Annotated[list[str] | None, typer.Option("--style", help="Style (repeatable): short, long, interrogative, directive, formal, casual or a user style.")] = None,
    n: Annotated[int | None, typer.Option("--n", help="Text templates per SQL template and style.")] = None,
    method: Annotated[str | None, typer.Option(help="rules (offline, default) or llm.")] = None,
    import_: Annotated[list[Path] | None, typer.Option("--import", help="Merge text templates from this file (YAML, or reference JSON whose stem is the style).")] = None,
    dry_run: DryRunOpt = False,
    config: ConfigOpt = None,
):
    """Phrase every SQL template in each style, N times, and add them to the text templates file."""
    from ragdx.gen.pipeline import load_parsed, text_stage

    cfg = _config(config)
    sec = cfg.text_templates
    method = _pick(method, sec.method)
    styles = style or sec.styles
    n = _pick(n, sec.n)
    out = Path(_pick(out, sec.file))
    engine, sch = _open(_database(db, cfg))
    parsed, rejected = load_parsed(Path(_pick(sql, cfg.sql_templates.file)), sch)
    _report_sql_rejections(rejected)
    llm = _llm(cfg, dry_run, method == "llm")
    if dry_run:
        if llm is None:
            console.print("method 'rules' makes no LLM call.")
            return
        from ragdx.gen.text_templates import generate_text_templates

        generate_text_templates(parsed, styles, n, method="llm", llm=llm, custom_styles=cfg.styles)
        _print_dry_run(llm)
        return
    with _progress() as bar:
        task = bar.add_task("text templates", total=len(parsed) * len(styles))
        result = text_stage(parsed, out, styles, n, method=method, llm=llm, custom_styles=cfg.styles,
                            imports=import_ or [], progress=lambda: bar.advance(task))
    for r in result.rejected:
        err.print(f"[yellow]rejected[/] [{r.style}] '{r.text}': {r.reason}")
    for e in result.errors:
        err.print(f"[red]failed[/] {e}")
    console.print(f"added {result.added_pairs} (SQL template, style) pairs → {out}")
    if llm is not None:
        console.print(f"LLM usage: {llm.usage.as_dict()}")
    if result.errors:
        raise typer.Exit(1)


def _report_sql_rejections(rejected) -> None:
    """A person's templates file is input: an invalid template stops the stage, naming where it is."""
    if rejected:
        first = rejected[0]
        source, where = first.template.origin or (None, first.template.sql)
        more = f" (and {len(rejected) - 1} more invalid templates)" if len(rejected) > 1 else ""
        raise RagdxError(f"{first.reason}{more}", source=source, field=where)


# ----------------------------------------------------------------------------- gen


@app.command()
def gen(
    db: DbOpt = None,
    sql: Annotated[Path | None, typer.Option("--sql", help="SQL templates file.")] = None,
    text: Annotated[Path | None, typer.Option("--text", help="Text templates file.")] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Dataset directory.")] = None,
    style: Annotated[list[str] | None, typer.Option("--style", help="Only these styles (repeatable).")] = None,
    n: Annotated[int | None, typer.Option("--n", help="Text templates per SQL template and style.")] = None,
    max_groups: Annotated[int | None, typer.Option("--max-groups-per-template", help="Cap on semantic groups per SQL template (seeded sample).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for every sample.")] = None,
    multi_answer: Annotated[str | None, typer.Option("--multi-answer", help="drop (default) or keep combinations with several answer rows.")] = None,
    unanswerable: Annotated[str | None, typer.Option("--unanswerable", help="drop (default) or keep combinations with no answer row.")] = None,
    method: Annotated[str | None, typer.Option(help="set (one query per template, default) or per-combination.")] = None,
    per_group: Annotated[int | None, typer.Option("--per-group", help="Balanced: this many queries per group and style.")] = None,
    unbalanced: Annotated[bool | None, typer.Option("--unbalanced", help="Seeded unbalanced subsample per table.")] = None,
    kb: Annotated[Path | None, typer.Option("--kb", help="Knowledge base from `ragdx kb render`: adds gold document ids.")] = None,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace an existing dataset directory.")] = False,
    show_stats: Annotated[bool, typer.Option("--stats", help="Print the M × N × Q breakdown.")] = False,
    config: ConfigOpt = None,
):
    """Fill the templates with the database's values and answer every query from the database."""
    from ragdx.gen.pipeline import build_dataset, load_parsed, write
    from ragdx.gen.qa import AnswerOptions
    from ragdx.gen.text_templates import read_text_templates
    from ragdx.kb.render import read_facts

    cfg = _config(config)
    g = cfg.gen
    options = AnswerOptions(
        max_groups_per_template=_pick(max_groups, g.max_groups_per_template), seed=_pick(seed, g.seed),
        multi_answer=_choice(_pick(multi_answer, g.multi_answer), ("drop", "keep"), "--multi-answer"),
        unanswerable=_choice(_pick(unanswerable, g.unanswerable), ("drop", "keep"), "--unanswerable"),
        method=_choice(_pick(method, g.method), ("set", "per-combination"), "--method"))
    out = Path(_pick(out, g.out))
    if out.exists() and not overwrite:
        raise RagdxError("already exists (pass --overwrite to replace it)", source=str(out))
    url = _database(db, cfg)
    engine, sch = _open(url)
    sql_path = Path(_pick(sql, cfg.sql_templates.file))
    text_path = Path(_pick(text, cfg.text_templates.file))
    parsed, rejected = load_parsed(sql_path, sch, engine)
    _report_sql_rejections(rejected)
    if not parsed:
        raise RagdxError("no valid SQL template", source=str(sql_path))
    texts = read_text_templates(text_path)
    kb_dir = _pick(kb, g.kb)
    facts = read_facts(kb_dir) if kb_dir else None
    with _progress() as bar:
        task = bar.add_task("answering templates", total=len(parsed))
        result = build_dataset(engine, sch, parsed, texts, style or g.styles, _pick(n, cfg.text_templates.n),
                               options, kb_facts=facts, per_group=_pick(per_group, g.per_group),
                               unbalanced=_pick(unbalanced, g.unbalanced), progress=lambda: bar.advance(task))
    for p in result.text_problems:
        err.print(f"[yellow]text template problem[/] {p}")
    for m in result.missing_text:
        err.print(f"[yellow]no text templates[/] for {m}: run `ragdx templates text`")
    if not result.records:
        raise RagdxError("no records: check the text templates and styles", source=str(text_path))
    write(out, sch, options, result, {"database": _safe_url(url), "sql_templates": str(sql_path),
                                      "text_templates": str(text_path),
                                      "knowledge_base": str(kb_dir) if kb_dir else None}, overwrite=overwrite)
    _print_counts(result)
    if show_stats:
        _print_stats(result.records)
    console.print(f"{len(result.records)} records in {len({r.group_id for r in result.records})} "
                  f"semantic groups → {out}")


def _choice(value: str, allowed: tuple[str, ...], name: str) -> str:
    if value not in allowed:
        raise RagdxError(f"expected one of {', '.join(allowed)}, got '{value}'", field=name)
    return value


def _safe_url(url: str) -> str:
    from ragdx.db.engine import _safe

    return _safe(url)


def _print_counts(result) -> None:
    from ragdx.gen.qa import AnswerCounts

    total = AnswerCounts()
    for c in result.counts.values():
        total.add(c)
    table = Table(title="answers measured", title_justify="left")
    for k in ("combinations", "single", "null_answers", "multi_kept", "multi_dropped",
              "unanswerable_kept", "unanswerable_dropped"):
        table.add_column(k.replace("_", " "), justify="right")
    d = total.as_dict()
    table.add_row(*(str(d[k]) for k in ("combinations", "single", "null_answers", "multi_kept",
                                        "multi_dropped", "unanswerable_kept", "unanswerable_dropped")))
    console.print(table)


def _print_stats(records) -> None:
    from ragdx.gen.dataset import stats

    rows = stats(records)
    has_kb = any(r.kb_supported is not None for r in records)
    table = Table(title="M SQL templates × N text templates × Q values (GRAMMAR Table 2 / App. E)",
                  title_justify="left")
    for k in ("table", "style", "M", "N", "Q", "groups", "queries", "answer sets", "unanswerable", "kb gaps"):
        table.add_column(k, justify="left" if k in ("table", "style") else "right")
    for r in rows:
        table.add_row(r["table"], r["style"], str(r["M_sql_templates"]), str(r["N_text_templates"]),
                      str(r["Q_values_per_template"]), str(r["semantic_groups"]), str(r["queries"]),
                      str(r["answer_sets"]), str(r["unanswerable"]), str(r["kb_gaps"]) if has_kb else "–")
    table.add_row("all", "", str(len({r.sql_template_id for r in records})), "", "",
                  str(len({r.group_id for r in records})), str(len(records)),
                  str(sum(r.answer_kind == "multi" for r in records)),
                  str(sum(r.answer_kind == "none" for r in records)),
                  str(sum(r.kb_supported is False for r in records)) if has_kb else "–", style="bold")
    console.print(table)


@app.command()
def stats(dataset: Annotated[Path, typer.Argument(help="Dataset directory or records file.")]):
    """Print the M × N × Q breakdown of a dataset."""
    from ragdx.gen.dataset import read_records

    _print_stats(read_records(dataset))


# ----------------------------------------------------------------------------- kb


@kb_app.command("render")
def kb_render(
    db: DbOpt = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Knowledge base directory.")] = None,
    omit: Annotated[list[str] | None, typer.Option("--omit", help="Leave out Table.Column (repeatable).")] = None,
    omit_table: Annotated[list[str] | None, typer.Option("--omit-table", help="Leave out a table (repeatable).")] = None,
    overwrite: Annotated[bool, typer.Option("--overwrite")] = False,
    config: ConfigOpt = None,
):
    """Render one document per entity from the rows, leaving chosen facts out on purpose."""
    from ragdx.kb.render import render_kb

    cfg = _config(config)
    out = Path(_pick(out, cfg.kb.out))
    if out.exists() and not overwrite:
        raise RagdxError("already exists (pass --overwrite to replace it)", source=str(out))
    engine, sch = _open(_database(db, cfg))
    kb = render_kb(engine, sch, omit=_pick(omit, cfg.kb.omit), omit_tables=_pick(omit_table, cfg.kb.omit_tables))
    kb.write(out, overwrite=overwrite)
    console.print(f"{len(kb.documents)} documents stating {len(kb.facts)} facts"
                  f"{'; left out: ' + ', '.join(kb.omitted) if kb.omitted else ''} → {out}")


# ----------------------------------------------------------------------------- run


@app.command("run")
def run_cmd(
    dataset: Annotated[Path, typer.Option("--dataset", "-d", help="Dataset directory from `ragdx gen`.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Run directory (with --grid: one subdirectory per system).")],
    system: Annotated[Path | None, typer.Option("--system", "-s", help="System spec YAML (pipeline, callable, http or results).")] = None,
    callable_: Annotated[str | None, typer.Option("--callable", help="A Python function module:function answering a query.")] = None,
    http: Annotated[str | None, typer.Option("--http", help="An HTTP endpoint taking {\"query\": ...}.")] = None,
    results: Annotated[Path | None, typer.Option("--results", help="A JSONL file of answers someone already produced.")] = None,
    grid: Annotated[Path | None, typer.Option("--grid", help="A lab YAML of named systems: one run each.")] = None,
    only: Annotated[list[str] | None, typer.Option("--only", help="With --grid: only these systems (repeatable).")] = None,
    concurrency: Annotated[int, typer.Option("--concurrency", "-j", min=1, help="Queries in flight at once.")] = 4,
    rerun_failed: Annotated[bool, typer.Option("--rerun-failed", help="Retry records that failed before.")] = False,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Start the run directory afresh.")] = False,
    limit: Annotated[int | None, typer.Option("--limit", min=1, help="Only the first N records.")] = None,
    no_progress: Annotated[bool, typer.Option("--no-progress", help="No progress bar.")] = False,
):
    """Run a system (or a grid of systems) over a dataset; resumable, failures recorded."""
    from ragdx.rag.runner import RunInterrupted, run, run_grid, summary_table, system_from_options

    try:
        if grid is not None:
            if any((system, callable_, http, results)):
                raise RagdxError("--grid names its own systems; drop --system/--callable/--http/--results",
                                 field="--grid")
            summaries = run_grid(grid, dataset, out, concurrency=concurrency, rerun_failed=rerun_failed,
                                 progress=not no_progress, overwrite=overwrite, limit=limit, only=only)
        else:
            target = system_from_options(system, callable_=callable_, http=http, results=results)
            summaries = [run(target, dataset, out, concurrency=concurrency, rerun_failed=rerun_failed,
                             progress=not no_progress, overwrite=overwrite, limit=limit)]
    except RunInterrupted as exc:
        console.print(summary_table([exc.summary]))
        sys.exit(130)
    console.print(summary_table(summaries))


# ----------------------------------------------------------------------------- evaluate

JudgeOpt = Annotated[str, typer.Option("--judge", help="exact, contains, f1, llm or cascade (cheap judges first, the LLM only where they cannot decide).")]
SetsOpt = Annotated[str, typer.Option("--sets", help="Answer sets: a response is correct if it gives all rows or any row.")]
KOpt = Annotated[int | None, typer.Option("--k", min=1, help="Retrieved documents considered (default: all).")]
RetrievalOpt = Annotated[str, typer.Option("--retrieval", help="Retrieval is right when all gold documents are retrieved, or any.")]
BootOpt = Annotated[int, typer.Option("--boot", min=100, help="Bootstrap resamples of semantic groups.")]


def _judge_llm(cfg, judge: str):
    # the cascade asks an LLM only where the cheap judges cannot decide, and only if one is configured
    if judge == "llm" or (judge == "cascade" and cfg.llm is not None):
        return _llm(cfg, False, True)
    return None


@app.command()
def evaluate(
    paths: Annotated[list[Path], typer.Argument(help="Run directories, a GRAMMAR eval_results directory, or a JSONL of results.")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Output directory (default: RUN_DIR/evaluation).")] = None,
    judge: JudgeOpt = "cascade",
    sets: SetsOpt = "all",
    k: KOpt = None,
    retrieval: RetrievalOpt = "all",
    boot: BootOpt = 1000,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    bertscore: Annotated[bool, typer.Option("--bertscore", help="Add BERTScore (on the packaged MiniLM, not the paper's backbone).")] = False,
    config: ConfigOpt = None,
):
    """Judge answers, tag semantic groups (gap / robust / non-robust), blame modules, test styles."""
    from ragdx.evaluate import evaluate_many

    cfg = _config(config)
    results = evaluate_many(paths, out=out, judge=judge, llm=_judge_llm(cfg, judge), sets=sets, k=k,
                            retrieval=retrieval, n_boot=boot, seed=seed, bertscore=bertscore)
    for result in results:
        console.print(f"[bold]{result.get('output')}[/]")
        sentence = (result.get("comparison") or {}).get("sentence")
        if sentence:
            console.print(sentence)


@app.command()
def compare(
    a: Annotated[Path, typer.Argument(help="First run (or results).")],
    b: Annotated[Path, typer.Argument(help="Second run on the same dataset.")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write comparison.json and comparison.md here.")] = None,
    judge: JudgeOpt = "cascade",
    sets: SetsOpt = "all",
    k: KOpt = None,
    retrieval: RetrievalOpt = "all",
    boot: BootOpt = 1000,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    gap: Annotated[str, typer.Option("--gap", help="Gap groups removed jointly (neither answered) or each side's own.")] = "joint",
    style: Annotated[str | None, typer.Option("--style", help="Compare only queries of this style.")] = None,
    config: ConfigOpt = None,
):
    """Two runs on one dataset: differences in accuracy, R and retrieval-only R with bootstrap intervals."""
    from ragdx.evaluate import compare_paths

    cfg = _config(config)
    result = compare_paths(a, b, out=out, judge=judge, llm=_judge_llm(cfg, judge), sets=sets, k=k,
                           retrieval=retrieval, n_boot=boot, seed=seed, gap=gap, style=style)
    console.print(result["sentence"])


@app.command("judge-agreement")
def judge_agreement_cmd(
    path: Annotated[Path, typer.Argument(help="A run directory, a GRAMMAR eval_results directory or a results JSONL.")],
    judge_a: Annotated[str, typer.Option("--a", help="First judge (stored = the verdicts already there).")] = "stored",
    judge_b: Annotated[str, typer.Option("--b", help="Second judge.")] = "cascade",
    sets: SetsOpt = "all",
    config: ConfigOpt = None,
):
    """How often two judges agree, with a confusion table."""
    from ragdx.evaluate import judge_agreement

    cfg = _config(config)
    needs = judge_a == "llm" or judge_b == "llm"
    result = judge_agreement(path, judge_a, judge_b, llm=_llm(cfg, False, needs), sets=sets)
    console.print(result["markdown"])


# ----------------------------------------------------------------------------- relevance

relevance_app = typer.Typer(no_args_is_help=True, help="Is a query inside what the corpus can answer? (p-values, drift)")
app.add_typer(relevance_app, name="relevance")


@relevance_app.command("calibrate")
def relevance_calibrate(
    corpus: Annotated[Path, typer.Argument(help="Corpus JSONL (one chunk a line) or a `ragdx kb render` directory's documents.jsonl.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for the fitted tester.")],
    queries: Annotated[Path | None, typer.Option("--queries", help="JSONL of real in-knowledge questions.")] = None,
    dataset: Annotated[Path | None, typer.Option("--dataset", help="A ragdx dataset: its knowledge-base-supported queries.")] = None,
    synthesize: Annotated[int, typer.Option("--synthesize", help="LLM-written questions for N random chunks (paper's prompt).")] = 0,
    examples: Annotated[Path | None, typer.Option("--examples", help="JSONL of example questions that set the style for --synthesize.")] = None,
    corpus_field: Annotated[str, typer.Option("--corpus-field", help="Text field of the corpus JSONL.")] = "content",
    query_field: Annotated[str, typer.Option("--query-field", help="Text field of the questions JSONL.")] = "question",
    k: Annotated[int, typer.Option("--k", min=1, help="Nearest chunks per query.")] = 10,
    temperature: Annotated[float, typer.Option("--temperature", help="Temperature of the energy and entropy statistics.")] = 0.05,
    statistic: Annotated[str, typer.Option("--statistic", help="mss, knn, avgknn, entropy, energy, fisher or simes.")] = "energy",
    alpha: Annotated[float, typer.Option("--alpha", help="Default level of the test.")] = 0.05,
    retriever: Annotated[str, typer.Option("--retriever", help="dense (MiniLM) or bm25.")] = "dense",
    search: Annotated[str, typer.Option("--search", help="auto, exact or ivf.")] = "auto",
    overwrite: Annotated[bool, typer.Option("--overwrite")] = False,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    config: ConfigOpt = None,
):
    """Fit a knowledge-boundary tester on a corpus and in-knowledge calibration queries."""
    from ragdx.relevance.cli_support import calibrate

    cfg = _config(config)
    summary = calibrate(corpus, out, queries=queries, dataset=dataset, synthesize=synthesize, examples=examples,
                        llm_config=cfg.llm.model_dump() if cfg.llm else None, corpus_field=corpus_field,
                        query_field=query_field, k=k, temperature=temperature, statistic=statistic, alpha=alpha,
                        retriever=retriever, search=search, overwrite=overwrite, seed=seed)
    console.print(summary.to_dict())


@relevance_app.command("test")
def relevance_test(
    tester: Annotated[Path, typer.Argument(help="Directory of a fitted tester.")],
    query: Annotated[list[str] | None, typer.Argument(help="Queries to test (or --queries FILE).")] = None,
    queries: Annotated[Path | None, typer.Option("--queries", help="JSONL of queries.")] = None,
    query_field: Annotated[str, typer.Option("--query-field")] = "question",
    alpha: Annotated[float | None, typer.Option("--alpha", help="Level (default: the tester's).")] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write one JSON line per query.")] = None,
    drift: Annotated[bool, typer.Option("--drift", help="Also run the KS drift test on the batch.")] = False,
):
    """A p-value and a decision per query; with --drift, a KS test of the whole batch."""
    from ragdx.relevance.cli_support import screen_queries

    summary = screen_queries(tester, queries_file=queries, queries=query or None, query_field=query_field,
                             alpha=alpha, out=out, drift=drift)
    console.print(summary.to_dict())


@relevance_app.command("monitor")
def relevance_monitor(
    tester: Annotated[Path, typer.Argument(help="Directory of a fitted tester.")],
    log: Annotated[Path, typer.Argument(help="JSONL query log in arrival order.")],
    query_field: Annotated[str, typer.Option("--query-field")] = "question",
    timestamp_field: Annotated[str | None, typer.Option("--timestamp-field")] = None,
    window: Annotated[int, typer.Option("--window", min=2)] = 100,
    step: Annotated[int | None, typer.Option("--step", min=1)] = None,
    alpha: Annotated[float, typer.Option("--alpha")] = 0.05,
    out: Annotated[Path | None, typer.Option("--out", "-o")] = None,
):
    """Sliding-window KS drift over a query log: when and how far the queries moved."""
    from ragdx.relevance.cli_support import monitor_log

    report = monitor_log(tester, log, query_field=query_field, timestamp_field=timestamp_field, window=window,
                         step=step, alpha=alpha, out=out)
    console.print(report.summary())


@relevance_app.command("bench")
def relevance_bench(
    data: Annotated[Path, typer.Option("--data", help="The knowledge-boundary data directory.")] = Path("../shared/data/knowledge-boundary"),
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write relevance-bench.json and .md here.")] = None,
    n: Annotated[int, typer.Option("--n", help="Queries per class in each balanced sample.")] = 300,
    seeds: Annotated[int, typer.Option("--seeds", help="Repetitions with different seeds.")] = 10,
    k: Annotated[int, typer.Option("--k")] = 10,
    temperature: Annotated[float, typer.Option("--temperature")] = 0.05,
    alpha: Annotated[float, typer.Option("--alpha")] = 0.05,
    with_llm: Annotated[bool, typer.Option("--llm", help="Add the LM relevance baseline (needs 'llm:' in ragdx.yaml).")] = False,
    config: ConfigOpt = None,
):
    """The paper's Table 1 / Table 2 on Setting 1, with outlier and length-only baselines."""
    from ragdx.relevance.bench import render_markdown, run_bench

    cfg = _config(config)
    llm = _llm(cfg, False, with_llm)
    result = run_bench(data, out, n_per_class=n, seeds=seeds, k=k, temperature=temperature, alpha=alpha, llm=llm,
                       progress=lambda msg: err.print(msg))
    console.print(render_markdown(result))


@app.command()
def serve(
    tester: Annotated[Path, typer.Argument(help="Directory of a fitted tester.")],
    host: Annotated[str, typer.Option("--host")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port")] = 8080,
    token_env: Annotated[str, typer.Option("--token-env", help="Environment variable holding the bearer token.")] = "RAGDX_SERVE_TOKEN",
    max_batch: Annotated[int, typer.Option("--max-batch")] = 256,
):
    """Serve the tester over HTTP: POST /v1/relevance, POST /v1/drift, GET /healthz."""
    from ragdx.relevance.serve import serve as run_server

    run_server(tester, host=host, port=port, token_env=token_env, max_batch=max_batch)


# ----------------------------------------------------------------------------- demo


@app.command()
def demo(
    out: Annotated[Path, typer.Option("--out", "-o", help="Output directory.")] = Path("demo-out"),
    max_groups: Annotated[int, typer.Option("--max-groups-per-template", min=1, help="Semantic groups per SQL template (seeded sample).")] = 6,
    per_group: Annotated[int, typer.Option("--per-group", min=1, help="Queries per semantic group and style (balanced).")] = 2,
    boot: BootOpt = 1000,
    no_progress: Annotated[bool, typer.Option("--no-progress", help="No progress bars.")] = False,
):
    """Every stage end to end on the embedded demo database, offline: dataset, two systems,
    evaluation, knowledge-boundary tests, and an HTML report (demo-out/report.html)."""
    from ragdx.demo.run import run_demo

    run_demo(out, console, max_groups=max_groups, per_group=per_group, n_boot=boot, progress=not no_progress)


# ----------------------------------------------------------------------------- report


@app.command()
def report(
    run_dirs: Annotated[list[Path], typer.Argument(help="Run directories (from `ragdx run` or `ragdx demo`), on one dataset.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Output file.")] = Path("report.html"),
    fmt: Annotated[str, typer.Option("--format", "-f", help="html (one self-contained file) or md (a summary for a pull request).")] = "html",
    relevance: Annotated[Path | None, typer.Option("--relevance", help="Knowledge-boundary results (relevance.json; default: relevance/relevance.json next to the dataset, if there).")] = None,
    judge: JudgeOpt = "cascade",
    boot: BootOpt = 1000,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    title: Annotated[str | None, typer.Option("--title", help="Report title.")] = None,
):
    """A report people would rather look at than read: metrics with intervals, charts, hypothesis
    tests, the knowledge boundary and a searchable table of every failure. Runs without an
    up-to-date evaluation are evaluated first (into RUN_DIR/evaluation)."""
    from ragdx.report import write_report

    _choice(fmt, ("html", "md"), "--format")
    path = write_report(run_dirs, out, fmt=fmt, relevance=relevance, judge=judge, n_boot=boot, seed=seed,
                        title=title)
    console.print(f"report → {path}")


def main() -> None:
    """Entry point: a RagdxError becomes one line on stderr and its exit code (2 for bad input)."""
    try:
        app()
    except RagdxError as exc:
        err.print(f"[bold red]error:[/] {exc}", highlight=False, soft_wrap=True, markup=True)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)


if __name__ == "__main__":
    main()
