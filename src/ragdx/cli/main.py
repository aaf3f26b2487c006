"""The ``ragdx`` command line: one sub-command per stage, each runnable alone.

Options left out on the command line come from ``ragdx.yaml`` (``--config``), then from the
defaults in :mod:`ragdx.config`. Bad input ends with one line naming the file and field, and exit
code 2; nothing half-written is left behind.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ragdx.errors import RagdxError

if TYPE_CHECKING:
    from rich.progress import Progress

# Start-up stays cheap (`ragdx --help`, a one-line error): everything heavier than typer and
# rich's console (the stages, numpy, scipy, sqlalchemy, the LLM client, rich's progress bars) is
# imported inside the command that uses it. tests/test_startup.py checks what `import ragdx.cli`
# loads; benchmarks/startup.py measures the CPU it takes.

app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode="rich",
                  help="Grounded, modular diagnosis for retrieval-augmented generation.")
templates_app = typer.Typer(no_args_is_help=True, help="Generate and validate query templates.")
kb_app = typer.Typer(no_args_is_help=True, help="Knowledge bases rendered from database rows.")
app.add_typer(templates_app, name="templates")
app.add_typer(kb_app, name="kb")

console = Console()
err = Console(stderr=True)


def _print_version(value: bool) -> None:
    if value:
        from ragdx import __version__

        console.print(f"ragdx {__version__}", highlight=False)
        raise typer.Exit()


@app.callback()
def _main(version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                                help="Print ragdx's version and exit.")] = False) -> None:
    """Grounded, modular diagnosis for retrieval-augmented generation."""

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


def _open(url: str, cfg=None):
    from ragdx.db import connect, inspect_schema

    engine = connect(url, read_only=True)
    schema = inspect_schema(engine)
    if cfg is not None and cfg.keys:
        # look-up keys declared in ragdx.yaml override the inferred ones
        from ragdx.config import DEFAULT_CONFIG

        schema.declare_keys(cfg.keys, source=str(getattr(cfg, "source", None) or DEFAULT_CONFIG))
    return engine, schema


def _llm(cfg, dry_run: bool, needed: bool):
    if not needed:
        return None
    from ragdx.llm import make_llm

    if cfg.llm is None:
        raise RagdxError("this method needs an 'llm:' section (base_url, model) in ragdx.yaml", field="llm")
    base_url = getattr(cfg.llm, "base_url", None)
    if base_url:
        try:
            _check_http_url(str(base_url), "llm.base_url")
        except RagdxError as exc:
            raise RagdxError(exc.message, source=str(getattr(cfg, "source", None) or "ragdx.yaml"),
                             field="llm.base_url") from None
    return make_llm(cfg.llm, dry_run=dry_run)


def _print_dry_run(llm) -> None:
    from ragdx.llm import estimate_table

    console.print(estimate_table(llm.usage))
    console.print("[yellow]dry run:[/] nothing was sent and nothing was written.")


def _progress() -> Progress:
    from ragdx.progress import bars

    return bars(console=err, eta=False)


# ----------------------------------------------------------------------------- schema


@app.command()
def schema(url: Annotated[str, typer.Argument(help="Database URL.")],
           as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
           config: ConfigOpt = None):
    """Tables, columns, types, keys, and per column the distinct count and uniqueness measured
    from the data."""
    from ragdx.gen.naming import column_phrase, readable_entity, relation_noun
    from ragdx.gen.sql_templates import is_surrogate, lookup_keys

    engine, sch = _open(url, _config(config))
    if as_json:
        print(json.dumps(sch.to_dict(), indent=2, default=str))
        return
    for t in sch.tables.values():
        # "called": the words questions and documents will use (ragdx.gen.naming), shown so that a
        # user checks them before generating anything
        table = Table(title=f"{escape(t.name)} ({t.rows} rows), called \"{escape(readable_entity(t.name))}\"",
                      title_justify="left")
        for head in ("column", "called", "type", "key", "distinct", "nulls", "unique", "note"):
            table.add_column(head, overflow="fold")
        keys = lookup_keys(t)
        for c in t.columns:
            fk = t.foreign_key_of(c.name)
            key = "PK" if c.primary_key else ""
            if fk:
                key = (key + " " if key else "") + f"FK → {fk.ref_table}.{fk.ref_columns[0]}"
            called = relation_noun(c.name, fk.ref_table) if fk else column_phrase(c.name)
            note = "look-up key" if c.name in keys else (
                "binary" if c.kind == "binary" else "surrogate" if is_surrogate(t, c.name) else "")
            table.add_row(escape(c.name), escape(called), escape(c.type), escape(key), str(c.distinct), str(c.nulls),
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
    import_: Annotated[list[Path] | None, typer.Option("--import", help="Import exactly the templates of this file (YAML or the GRAMMAR reference JSON); nothing is derived unless --also-derive.")] = None,
    also_derive: Annotated[bool, typer.Option("--also-derive", help="With --import: also derive templates (--method) beside the imported ones.")] = False,
    dry_run: DryRunOpt = False,
    config: ConfigOpt = None,
):
    """Derive SQL templates and add the valid ones to the templates file (never rewriting it)."""
    from ragdx.gen.pipeline import sql_stage

    cfg = _config(config)
    sec = cfg.sql_templates
    method = _choice(_pick(method, sec.method), ("schema", "llm"), "--method")
    out = _pick(out, sec.file)
    engine, sch = _open(_database(db, cfg), cfg)
    llm = _llm(cfg, dry_run, method == "llm")
    targets = [t.split(",") for t in target] if target else sec.schemas
    for names in targets or []:
        for table in names:
            if table.strip() not in sch.tables:
                raise RagdxError(f"no table {table.strip()!r} in the database (tables: {', '.join(sch.tables)})",
                                 field="--schema")
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
                       requirements=_pick(requirement, sec.requirements), imports=import_ or [],
                       derive=also_derive or not import_)
    for r in result.rejected:
        err.print(f"[yellow]rejected[/] {escape(f'[{r.template.schema}] {r.template.sql}')}\n    {escape(r.reason)}")
    if result.already_imported:
        console.print(f"{len(result.already_imported)} derived templates repeat imported ones (kept once)")
    if result.skipped_schemas:
        console.print(escape(f"kept as they are (already in {out}): {', '.join(result.skipped_schemas)}"))
    for f in result.failed:
        err.print(f"[red]failed[/] {escape(f)}")
    console.print(f"{len(result.accepted)} valid templates, {len(result.rejected)} rejected, "
                  f"{len(result.failed)} target schemas failed; "
                  f"added schemas: {escape(', '.join(result.added_schemas) or 'none')} → {escape(str(out))}")
    if llm is not None:
        from ragdx.llm import usage_line

        console.print(escape(usage_line(llm.usage)), highlight=False)
    if result.failed:
        # the valid templates are written; exit 1 says that some schemas still need a re-run
        raise typer.Exit(1)


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
    method = _choice(_pick(method, sec.method), ("rules", "llm"), "--method")
    styles = _check_styles(style or sec.styles, cfg.styles, method)
    n = _at_least_one(_pick(n, sec.n), "--n")
    out = Path(_pick(out, sec.file))
    from ragdx.gen.text_templates import read_text_templates

    for path in ([out] if out.exists() else []) + list(import_ or []):
        read_text_templates(path)  # a broken file stops the stage here, before any work
    engine, sch = _open(_database(db, cfg), cfg)
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
        err.print(f"[yellow]rejected[/] {escape(f'[{r.style}] {r.text!r}: {r.reason}')}")
    for e in result.errors:
        err.print(f"[red]failed[/] {escape(str(e))}")
    console.print(f"added {result.added_pairs} (SQL template, style) pairs → {escape(str(out))}")
    if llm is not None:
        from ragdx.llm import usage_line

        console.print(escape(usage_line(llm.usage)), highlight=False)
    if result.errors:
        raise typer.Exit(1)


def _check_styles(styles, custom, method: str, flag: str = "--style") -> list[str]:
    """Styles known (built-in, or defined under 'styles:' for --method llm), checked before any
    work; an unknown one is named with the styles there are."""
    import difflib

    from ragdx.gen.verbalise import BUILTIN_STYLES

    known = list(BUILTIN_STYLES) + [s for s in (custom or {}) if s not in BUILTIN_STYLES]
    for s in styles:
        if s not in known:
            close = difflib.get_close_matches(s, known, n=1)
            hint = f"did you mean {close[0]}? " if close else ""
            raise RagdxError(f"unknown style {s!r} ({hint}styles: {', '.join(known)}; define others under "
                             "'styles:' in ragdx.yaml)", field=flag)
        if method == "rules" and s not in BUILTIN_STYLES:
            raise RagdxError(f"style {s!r} has no rules (built-in: {', '.join(BUILTIN_STYLES)}); use --method llm "
                             "for a user style", field=flag)
    return list(styles)


def _at_least_one(value, flag: str):
    if value is not None and value < 1:
        raise RagdxError(f"expected 1 or more, got {value}", field=flag)
    return value


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
    max_groups: Annotated[int | None, typer.Option("--max-groups-per-template", help="Cap on semantic groups per SQL template (seeded sample; default 25, 0 = no cap).")] = None,
    null_answers: Annotated[str | None, typer.Option("--null-answers", help="drop (default), unanswerable or keep answers that are NULL.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for every sample.")] = None,
    multi_answer: Annotated[str | None, typer.Option("--multi-answer", help="drop (default) or keep combinations with several answer rows.")] = None,
    unanswerable: Annotated[str | None, typer.Option("--unanswerable", help="drop (default) or keep combinations with no answer row.")] = None,
    method: Annotated[str | None, typer.Option(help="set (one query per template, default) or per-combination.")] = None,
    per_group: Annotated[int | None, typer.Option("--per-group", help="Balanced: this many queries per group and style.")] = None,
    unbalanced: Annotated[bool | None, typer.Option("--unbalanced", help="Seeded unbalanced subsample per table.")] = None,
    kb: Annotated[Path | None, typer.Option("--kb", help="Knowledge base from `ragdx kb render`: adds gold document ids.")] = None,
    corpus: CorpusOpt = None,
    corpus_id_field: CorpusIdOpt = "id",
    corpus_text_field: CorpusTextOpt = "text",
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace an existing dataset directory.")] = False,
    show_stats: Annotated[bool, typer.Option("--stats", help="Print the M × N × Q breakdown and warn about constant, NULL-heavy and binary-candidate templates.")] = False,
    config: ConfigOpt = None,
):
    """Fill the templates with the database's values and answer every query from the database."""
    cfg = _config(config)
    g = cfg.gen
    cap = _pick(max_groups, g.max_groups_per_template)
    _at_least_one(_pick(n, cfg.text_templates.n), "--n")
    _at_least_one(_pick(per_group, g.per_group), "--per-group")
    if cap is not None and cap < 0:
        raise RagdxError(f"expected 0 (no cap) or a positive number, got {cap}", field="--max-groups-per-template")
    # the options are checked (in this order) before the stage's modules are imported
    choices = dict(
        null_answers=_choice(_pick(null_answers, g.null_answers), ("drop", "unanswerable", "keep"),
                             "--null-answers"),
        multi_answer=_choice(_pick(multi_answer, g.multi_answer), ("drop", "keep"), "--multi-answer"),
        unanswerable=_choice(_pick(unanswerable, g.unanswerable), ("drop", "keep"), "--unanswerable"),
        method=_choice(_pick(method, g.method), ("set", "per-combination"), "--method"))
    from ragdx.gen.pipeline import build_dataset, load_parsed, write
    from ragdx.gen.qa import AnswerOptions
    from ragdx.gen.text_templates import read_text_templates
    from ragdx.kb.render import read_facts

    options = AnswerOptions(max_groups_per_template=cap or None, seed=_pick(seed, g.seed), **choices)
    out = Path(_pick(out, g.out))
    _check_replaceable(out, overwrite)
    url = _database(db, cfg)
    engine, sch = _open(url, cfg)
    sql_path = Path(_pick(sql, cfg.sql_templates.file))
    text_path = Path(_pick(text, cfg.text_templates.file))
    parsed, rejected = load_parsed(sql_path, sch, engine)
    _report_sql_rejections(rejected)
    if not parsed:
        raise RagdxError("no valid SQL template", source=str(sql_path))
    texts = read_text_templates(text_path)
    _check_gen_styles(style or g.styles, texts, text_path)
    kb_dir = _pick(kb, g.kb)
    corpus_path = _pick(corpus, g.corpus)
    if corpus_path is not None and kb_dir is not None:
        if kb is not None and corpus is not None:
            raise RagdxError("give --kb (a knowledge base ragdx rendered) or --corpus (your documents), not both",
                             field="--corpus")
        # the command line wins over ragdx.yaml: a --corpus given here replaces gen.kb, and a --kb gen.corpus
        kb_dir = None if kb is None else kb_dir
        corpus_path = None if kb_dir is not None else corpus_path
    corpus_docs = _read_corpus(corpus_path, corpus_id_field, corpus_text_field) if corpus_path else None
    facts = read_facts(kb_dir) if kb_dir else None
    with _progress() as bar:
        task = bar.add_task("answering templates", total=len(parsed))
        result = build_dataset(engine, sch, parsed, texts, style or g.styles, _pick(n, cfg.text_templates.n),
                               options, kb_facts=facts, per_group=_pick(per_group, g.per_group),
                               unbalanced=_pick(unbalanced, g.unbalanced), progress=lambda: bar.advance(task))
    for p in result.text_problems:
        err.print(f"[yellow]text template problem[/] {escape(str(p))}")
    for m in result.missing_text:
        err.print(f"[yellow]no text templates[/] for {escape(str(m))}: run `ragdx templates text`")
    if not result.records:
        raise RagdxError("no records: check the text templates and styles", source=str(text_path))
    extra = {}
    if corpus_docs is not None:
        from ragdx.kb.link import link_dataset

        linked = link_dataset(engine, sch, result.records, corpus_docs, aliases=cfg.aliases, console=err)
        result.records = linked.records
        extra = linked.manifest()
        _print_link_stats(linked)
    write(out, sch, options, result, {**extra, "database": _safe_url(url), "sql_templates": str(sql_path),
                                      "text_templates": str(text_path),
                                      "knowledge_base": str(kb_dir) if kb_dir else None}, overwrite=overwrite)
    _print_counts(result)
    _print_cap_note(result, options)
    if show_stats:
        _print_stats(result.records)
        _print_lint(result, parsed, sch)
    console.print(f"{len(result.records)} records in {len({r.group_id for r in result.records})} "
                  f"semantic groups → {escape(str(out))}")


def _check_gen_styles(styles, texts, text_path: Path) -> None:
    # before answering: a style with no text templates would leave every query out
    have = sorted({t.style for t in texts})
    for s in styles or []:
        if s not in have:
            raise RagdxError(f"no text templates in style {s!r} (styles there: {', '.join(have) or 'none'})",
                             source=str(text_path), field="--style")


CorpusOpt = Annotated[Path | None, typer.Option("--corpus", help="Your own documents (JSONL, JSON {id: text}, or a folder of .txt/.md/.html/.pdf): link each record's evidence in them.")]
CorpusIdOpt = Annotated[str, typer.Option("--corpus-id-field", help="Id field of a JSON/JSONL corpus.")]
CorpusTextOpt = Annotated[str, typer.Option("--corpus-text-field", help="Text field of a JSON/JSONL corpus.")]


def _read_corpus(path: Path, id_field: str = "id", text_field: str = "text"):
    from ragdx.rag.corpus import load_corpus

    _check_corpus_id_field(path, id_field)
    return load_corpus(path, id_field=id_field, text_field=text_field)


def _check_corpus_id_field(path: Path, id_field: str) -> None:
    # a line without an id is numbered (documented), so a misspelt --corpus-id-field would link
    # every record to line numbers without a word: a field named on purpose must be there
    if id_field == "id" or not path.is_file() or path.suffix.lower() != ".jsonl":
        return
    with path.open(encoding="utf-8", errors="replace") as fh:
        first = next((line for line in fh if line.strip()), "")
    try:
        obj = json.loads(first)
    except ValueError:
        return  # the reader names the bad line
    if isinstance(obj, dict) and id_field not in obj:
        raise RagdxError(f"no field {id_field!r} on the first line (fields: {', '.join(map(str, obj)) or 'none'})",
                         source=str(path), field="--corpus-id-field")


def _print_link_stats(linked) -> None:
    s = linked.stats
    table = Table(title=f"evidence linked in {escape(str(linked.corpus.source))} ({len(linked.corpus)} documents, "
                        f"{linked.passages} passages)", title_justify="left")
    for k in ("records", "linked", "unlinked", "approximate", "not linkable", "unanswerable", "facts stated"):
        table.add_column(k, justify="right")
    table.add_row(str(s.records), str(s.linked), str(s.unlinked), str(s.approximate), str(s.not_linkable),
                  str(s.unanswerable), f"{s.facts_stated}/{s.facts}")
    console.print(table)


def _check_replaceable(out: Path, overwrite: bool) -> None:
    # before any work: only a directory ragdx wrote may be replaced, and only with --overwrite
    from ragdx.store import check_replaceable

    check_replaceable(out, overwrite)


def _check_evaluation_out(out: Path, paths: list[Path]) -> None:
    # one path: --out is the evaluation; several: --out/<name> each, and nothing else of a
    # person's in --out (a name there that is not an evaluation ragdx wrote is refused)
    from ragdx.store import check_writable_directory

    if len(paths) == 1:
        _check_replaceable(out, True)
        return
    names = {Path(p).name for p in paths}
    check_writable_directory(out, ignore=names)
    for name in sorted(names):
        _check_replaceable(out / name, True)


def _choice(value: str, allowed: tuple[str, ...], name: str) -> str:
    if value not in allowed:
        raise RagdxError(f"expected one of {', '.join(allowed)}, got '{value}'", field=name)
    return value


def _safe_url(url: str) -> str:
    from ragdx.db.engine import safe_url

    return safe_url(url)


def _print_counts(result) -> None:
    from ragdx.gen.qa import AnswerCounts

    total = AnswerCounts()
    for c in result.counts.values():
        total.add(c)
    table = Table(title="answers measured", title_justify="left")
    shown = ("combinations", "single", "null_answers", "null_dropped", "null_unanswerable", "multi_kept",
             "multi_dropped", "unanswerable_kept", "unanswerable_dropped")
    for k in shown:
        table.add_column(k.replace("_", " "), justify="right")
    d = total.as_dict()
    table.add_row(*(str(d[k]) for k in shown))
    console.print(table)


def _print_cap_note(result, options) -> None:
    capped = {tid: c.left_out_by_cap for tid, c in result.counts.items() if c.left_out_by_cap}
    if capped:
        console.print(f"note: at most {options.max_groups_per_template} groups per template: "
                      f"{sum(capped.values())} combinations of {len(capped)} templates left out "
                      "(--max-groups-per-template N to change, 0 for all)")


def _print_lint(result, parsed, sch) -> None:
    from ragdx.gen.lint import binary_projections, lint

    summary = lint(result.records, result.counts, {p.id: p.template.sql for p in parsed},
                   binary_projections(parsed, sch))
    console.print(f"template lint: {summary.constant} constant, {summary.null_heavy} NULL-heavy, "
                  f"{summary.binary} binary-candidate templates")
    for item in summary.templates:
        err.print(f"[yellow]lint[/] {escape(item.sql)}\n    " + escape("; ".join(item.warnings)))


def _print_stats(records) -> None:
    from ragdx.gen.dataset import stats

    rows = stats(records)
    has_kb = any(r.kb_supported is not None for r in records)
    table = Table(title="M SQL templates × N text templates × Q values (GRAMMAR Table 2 / App. E)",
                  title_justify="left")
    for k in ("table", "style", "M", "N", "Q", "groups", "queries", "answer sets", "unanswerable", "kb gaps"):
        table.add_column(k, justify="left" if k in ("table", "style") else "right")
    for r in rows:
        table.add_row(escape(str(r["table"])), escape(str(r["style"])), str(r["M_sql_templates"]), str(r["N_text_templates"]),
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
    _check_replaceable(out, overwrite)
    engine, sch = _open(_database(db, cfg), cfg)
    kb = render_kb(engine, sch, omit=_pick(omit, cfg.kb.omit), omit_tables=_pick(omit_table, cfg.kb.omit_tables))
    kb.write(out, overwrite=overwrite)
    console.print(f"{len(kb.documents)} documents stating {len(kb.facts)} facts"
                  f"{escape('; left out: ' + ', '.join(kb.omitted)) if kb.omitted else ''} → {escape(str(out))}")


@kb_app.command("link")
def kb_link(
    dataset: Annotated[Path, typer.Argument(help="Dataset directory from `ragdx gen`.")],
    corpus: Annotated[Path, typer.Option("--corpus", help="Your documents: JSONL, JSON {id: text}, or a folder of .txt/.md/.html/.pdf.")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write the linked dataset here (default: replace DATASET).")] = None,
    db: DbOpt = None,
    corpus_id_field: CorpusIdOpt = "id",
    corpus_text_field: CorpusTextOpt = "text",
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace an existing --out directory.")] = False,
    config: ConfigOpt = None,
):
    """Link the evidence of an existing dataset's records in your own documents: gold documents,
    spans, a confidence and whether the corpus states every fact (kb_supported)."""
    from ragdx.gen.dataset import read_manifest, read_records, write_dataset
    from ragdx.kb.link import link_dataset

    cfg = _config(config)
    manifest = read_manifest(dataset)
    records = read_records(dataset)
    target = out or dataset
    if out is not None:
        _check_replaceable(out, overwrite)
    url = db or cfg.database or manifest.get("database")
    if not url or "***" in str(url):
        raise RagdxError("the dataset's database is needed: pass --db URL", field="--db")
    engine, sch = _open(url)
    linked = link_dataset(engine, sch, records, _read_corpus(corpus, corpus_id_field, corpus_text_field),
                          aliases=cfg.aliases, console=err)
    keep = {k: v for k, v in manifest.items() if k not in ("format", "records", "semantic_groups")}
    write_dataset(target, linked.records, {**keep, **linked.manifest(), "knowledge_base": None},
                  overwrite=True if out is None else overwrite)
    _print_link_stats(linked)
    console.print(f"{len(linked.records)} records linked → {escape(str(target))}")


@kb_app.command("audit")
def kb_audit(
    corpus: Annotated[Path, typer.Option("--corpus", help="Your documents: JSONL, JSON {id: text}, or a folder of .txt/.md/.html/.pdf.")],
    db: DbOpt = None,
    sql: Annotated[Path | None, typer.Option("--sql", help="Only the columns these SQL templates rest on (and which template needs them).")] = None,
    dataset: Annotated[Path | None, typer.Option("--dataset", help="Only the facts this dataset's records need (and which records need the missing ones).")] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for audit.json and audit.md.")] = Path("audit"),
    max_rows: Annotated[int, typer.Option("--max-rows", min=1, help="Rows sampled per table (seeded).")] = 5000,
    corpus_id_field: CorpusIdOpt = "id",
    corpus_text_field: CorpusTextOpt = "text",
    overwrite: Annotated[bool, typer.Option("--overwrite")] = False,
    config: ConfigOpt = None,
):
    """Before any RAG run: per table and column, the share of the database's facts your corpus
    states, with examples of missing ones and the templates or records that need them."""
    from ragdx.kb.audit import audit_corpus, audit_markdown, write_audit

    cfg = _config(config)
    _check_replaceable(out, overwrite)
    engine, sch = _open(_database(db, cfg))
    templates = records = None
    if sql is not None:
        from ragdx.gen.pipeline import load_parsed

        templates, rejected = load_parsed(sql, sch, engine)
        _report_sql_rejections(rejected)
    if dataset is not None:
        from ragdx.gen.dataset import read_records

        records = read_records(dataset)
    docs = _read_corpus(corpus, corpus_id_field, corpus_text_field)
    result = audit_corpus(engine, sch, docs, templates=templates, records=records, aliases=cfg.aliases,
                          max_rows=max_rows)
    write_audit(result, out, overwrite=overwrite)
    console.print(audit_markdown(result), markup=False, highlight=False)
    console.print(escape(f"audit → {out}/audit.json, {out}/audit.md"))


# ----------------------------------------------------------------------------- db

db_app = typer.Typer(no_args_is_help=True, help="Databases: load a JSON-table database.")
app.add_typer(db_app, name="db")


@db_app.command("load")
def db_load(
    tables: Annotated[Path, typer.Argument(help='A JSON file {"schema": {table: {columns, primary_key, foreign_keys}}, "rows": {table: [...]}} (e.g. aurp_tables.json).')],
    url: Annotated[str, typer.Argument(help="Database URL to create the tables in (sqlite:///aurp.db, postgresql://…, mysql://…).")],
    replace: Annotated[bool, typer.Option("--replace", help="Drop these tables first if they exist.")] = False,
):
    """Create the tables of a JSON-table database and insert its rows, in one transaction."""
    from ragdx.db.load import load_tables_json

    counts = load_tables_json(url, tables, replace=replace)
    console.print(escape(", ".join(f"{t}: {n} rows" for t, n in counts.items()) + f" → {_safe_url(url)}"))


# ----------------------------------------------------------------------------- run


@app.command("run")
def run_cmd(
    dataset: Annotated[Path, typer.Option("--dataset", "-d", help="Dataset directory from `ragdx gen`.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Run directory (with --grid: one subdirectory per system).")],
    system: Annotated[Path | None, typer.Option("--system", "-s", help="System spec YAML (kind: pipeline, callable, http, openai, results or traces), a pipeline YAML, a built-in pipeline by name (er, cpr, ...) or a results JSONL.")] = None,
    callable_: Annotated[str | None, typer.Option("--callable", help="module:obj answering a query: a function (sync or async), a LangChain runnable, a LlamaIndex query engine or a Haystack pipeline.")] = None,
    otel: Annotated[bool, typer.Option("--otel", help="With --callable: take retrieved documents from the app's OpenTelemetry/OpenInference retriever spans.")] = False,
    setup: Annotated[str | None, typer.Option("--setup", help="module:factory called once before the first query (build an index); alone, what it returns is the system.")] = None,
    name: Annotated[str | None, typer.Option("--name", help="Name of the system in the run (default: the function, host or file).")] = None,
    corpus: Annotated[Path | None, typer.Option("--corpus", help="Corpus of a --system pipeline that names none (default: the dataset's knowledge base).")] = None,
    http: Annotated[str | None, typer.Option("--http", help="An HTTP endpoint taking {\"query\": ...}.")] = None,
    answer_path: Annotated[str | None, typer.Option("--answer-path", help="With --http: dotted path of the answer in the response (default: answer).")] = None,
    contexts_path: Annotated[str | None, typer.Option("--contexts-path", help="With --http: dotted path of the retrieved contexts (default: contexts).")] = None,
    contexts: Annotated[str, typer.Option("--contexts", help="How retrieved texts are kept: once (each distinct text once, in contexts.jsonl), full (inline in every result line) or hash (ids and hashes only).")] = "once",
    results: Annotated[Path | None, typer.Option("--results", help="A JSONL file of answers someone already produced.")] = None,
    openai: Annotated[str | None, typer.Option("--openai", help="A RAG server speaking the OpenAI chat API at this base URL (…/v1); needs --model.")] = None,
    model: Annotated[str | None, typer.Option("--model", help="With --openai: the model name sent.")] = None,
    traces: Annotated[Path | None, typer.Option("--traces", help="An exported trace file (OTLP/JSON or SDK span JSON): one trace per query, contexts from its retriever spans.")] = None,
    grid: Annotated[Path | None, typer.Option("--grid", help="A lab YAML of named systems: one run each.")] = None,
    only: Annotated[list[str] | None, typer.Option("--only", help="With --grid: only these systems (repeatable).")] = None,
    concurrency: Annotated[int, typer.Option("--concurrency", "-j", min=1, help="Queries in flight at once.")] = 4,
    rerun_failed: Annotated[bool, typer.Option("--rerun-failed", help="Retry records that failed before.")] = False,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Start the run directory afresh.")] = False,
    limit: Annotated[int | None, typer.Option("--limit", min=1, help="Only the first N records.")] = None,
    no_progress: Annotated[bool, typer.Option("--no-progress", help="No progress bar.")] = False,
    closed_book: Annotated[bool, typer.Option("--closed-book", help="The model of the 'llm:' section without retrieval (GRAMMAR §5.2): tags open-domain queries for `evaluate --closed-book`.")] = False,
    executor: Annotated[str, typer.Option("--executor", help="local (this process) or ray (Ray actors that each build the system once; pip install 'ragdx[ray]').")] = "local",
    address: Annotated[str | None, typer.Option("--address", help="With --executor ray: the cluster (ray://host:10001, host:6379 or auto; default: RAY_ADDRESS, else a local instance).")] = None,
    workers: Annotated[int, typer.Option("--workers", min=1, help="With --executor ray: actors, each with its own copy of the system.")] = 2,
    max_failed: Annotated[str | None, typer.Option("--max-failed", help="Exit 1 (after writing the run) when more records failed than this: a count (0: none may) or a share (0.1 or 10%). A run whose every record failed exits 1 regardless.")] = None,
    config: ConfigOpt = None,
):
    """Run a system (or a grid of systems) over a dataset; resumable, failures recorded.

    Exit codes: 0 the run is written; 1 it is written but every record sent failed, or more than
    --max-failed did (the manifest's "exit" says which); 2 bad input, nothing run; 130 interrupted."""
    from ragdx.rag.runner import RunInterrupted, failure_reasons, run, run_grid, summary_table

    _choice(executor, ("local", "ray"), "--executor")
    max_failed_limit = _check_run_options(contexts, max_failed, http=http, openai=openai)
    if grid is None:  # before the system is built: a run goes only where no file can be a person's
        from ragdx.rag.runner import check_run_directory

        check_run_directory(out, overwrite=overwrite)
    if executor == "local" and (address is not None or workers != 2):
        raise RagdxError("--address and --workers are for --executor ray", field="--executor")
    if executor == "ray" and (closed_book or grid is not None):
        raise RagdxError("--executor ray runs one --system/--callable/--http/--results system (not --grid or "
                         "--closed-book yet)", field="--executor")
    try:
        if closed_book:
            from ragdx.evaluate.open_domain import ClosedBookSystem

            if any((system, callable_, http, results, setup, grid, corpus)):
                raise RagdxError("--closed-book is its own system (the llm: model, no retrieval); drop the others",
                                 field="--closed-book")
            summaries = [run(ClosedBookSystem(_config(config).llm, name=name or "closed-book"), dataset, out,
                             concurrency=concurrency, rerun_failed=rerun_failed, progress=not no_progress,
                             overwrite=overwrite, limit=limit)]
        elif grid is not None:
            if any((system, callable_, http, results, traces, openai, setup, name, corpus, answer_path, contexts_path,
                    otel)):
                raise RagdxError("--grid names its own systems; drop --system/--callable/--http/--results",
                                 field="--grid")
            summaries = run_grid(grid, dataset, out, concurrency=concurrency, rerun_failed=rerun_failed,
                                 progress=not no_progress, overwrite=overwrite, limit=limit, only=only)
        else:
            from ragdx.rag.resolve import request_from_options

            request = request_from_options(system, callable_=callable_, http=http, results=results, name=name,
                                           setup=setup, corpus=corpus, dataset=dataset, answer_path=answer_path,
                                           contexts_path=contexts_path, otel=otel, traces=traces, openai=openai,
                                           model=model)
            if executor == "ray":
                from ragdx.rag.executor_ray import ray_system_for

                target, concurrency = ray_system_for(request, workers=workers, address=address,
                                                     concurrency=concurrency)
            else:
                target = request.build()
            summaries = [run(target, dataset, out, concurrency=concurrency, rerun_failed=rerun_failed,
                             progress=not no_progress, overwrite=overwrite, limit=limit, contexts=contexts)]
    except RunInterrupted as exc:
        console.print(summary_table([exc.summary]))
        _print_run_usage([exc.summary])
        sys.exit(130)
    console.print(summary_table(summaries))
    _print_run_usage(summaries)
    # "failed 5" says nothing; the commonest reasons usually say what to fix.
    for summary in summaries:
        for warning in getattr(summary, "warnings", None) or []:
            err.print(f"[yellow]warning[/] {escape(warning)}", soft_wrap=True)
        if summary.failed:
            console.print(f"[bold red]{summary.failed} failed[/] in {escape(str(summary.run_dir))}; top reasons:",
                          soft_wrap=True)
            for reason, count in failure_reasons(summary.run_dir):
                console.print(f"  {count:>5} × {reason}", highlight=False, markup=False, soft_wrap=True)
    _finish_run(summaries, max_failed_limit)


def _check_run_options(contexts: str, max_failed: str | None, *, http: str | None, openai: str | None):
    """The options of `ragdx run` that need no file, before any work; returns --max-failed parsed."""
    from ragdx.rag.runner import parse_max_failed

    _choice(contexts, ("once", "full", "hash"), "--contexts")
    for url, flag in ((http, "--http"), (openai, "--openai")):
        if url is not None:
            _check_http_url(url, flag)
    return parse_max_failed(max_failed)


def _finish_run(summaries, max_failed) -> None:
    """Exit 1 when a run was written but cannot be trusted as a measurement (every record
    failed, or more than --max-failed); the manifest records the verdict either way."""
    from ragdx.rag.runner import EXIT_FAILED, failure_verdict, record_exit

    code = 0
    for summary in summaries:
        reason = failure_verdict(summary, max_failed)
        record_exit(summary.run_dir, EXIT_FAILED if reason else 0, reason)
        if reason:
            err.print(f"[bold red]error:[/] {escape(str(summary.run_dir))}: {escape(reason)} (exit {EXIT_FAILED})",
                      highlight=False, soft_wrap=True)
            code = EXIT_FAILED
    if code:
        sys.exit(code)


def _check_http_url(url: str, flag: str) -> None:
    # before any work: a URL that cannot be parsed would otherwise fail once per record, or
    # raise from inside the HTTP client
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        port_ok = parts.port is None or parts.port > 0
    except ValueError as exc:
        raise RagdxError(f"not a URL ({exc}): {url!r}", field=flag) from None
    if parts.scheme not in ("http", "https") or not parts.hostname or not port_ok:
        raise RagdxError(f"expected an http:// or https:// URL with a host, got {url!r}", field=flag)


def _print_run_usage(summaries) -> None:
    """What ragdx's LLM clients did for each system that used one (the manifest's llm_usage)."""
    from ragdx.llm import usage_line

    for summary in summaries:
        if getattr(summary, "llm_usage", None) is not None:
            console.print(escape(f"{summary.system}: {usage_line(summary.llm_usage)}"), highlight=False,
                          soft_wrap=True)


@app.command("export")
def export_cmd(
    dataset: Annotated[Path, typer.Argument(help="Dataset directory from `ragdx gen`.")],
    run_dir: Annotated[Path | None, typer.Argument(help="A run over it: adds responses and retrieved contexts.")] = None,
    to: Annotated[str, typer.Option("--to", help="ragas (SingleTurnSample JSONL), deepeval (test cases JSON), hf (Parquet for `datasets`) or jsonl (the plain QA format `evaluate` reads).")] = "jsonl",
    out: Annotated[Path, typer.Option("--out", "-o", help="File to write.")] = Path("export.jsonl"),
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace an existing --out file.")] = False,
):
    """The dataset (and a run's answers) as files ragas, DeepEval, Hugging Face `datasets` or any tool reads."""
    from ragdx.export import FORMATS, export
    from ragdx.store import check_output_file

    _choice(to, FORMATS, "--to")
    check_output_file(out, overwrite)
    path, n = export(dataset, out, to=to, run=run_dir)
    console.print(escape(f"{n} records → {path} ({to})"))


# ----------------------------------------------------------------------------- evaluate

JudgeOpt = Annotated[str, typer.Option("--judge", help="exact, contains, f1, llm or cascade (cheap judges first, the LLM only where they cannot decide).")]
SetsOpt = Annotated[str, typer.Option("--sets", help="Answer sets: a response is correct if it gives all rows or any row.")]
KOpt = Annotated[int | None, typer.Option("--k", min=1, help="Retrieved documents considered (default: all).")]
RetrievalOpt = Annotated[str, typer.Option("--retrieval", help="The one rule retrieval is judged by: evidence (every fact the answer needs stated by a retrieved document; default), all (every gold document) or any (a hit).")]
BootOpt = Annotated[int, typer.Option("--boot", min=100, help="Bootstrap resamples of semantic groups.")]
DatasetOpt = Annotated[Path | None, typer.Option("--dataset", help="Where the runs' dataset is now, if it moved (default: the path the run manifest records relative to the run directory, then the absolute one); it must be the same dataset (content hash).")]


#: the options of the evaluation's configuration (``EvaluationConfig``'s fields) by their flags
_EVALUATION_FLAGS = {"judge": "--judge", "sets": "--sets", "retrieval": "--retrieval", "k": "--k", "n_boot": "--boot",
                     "seed": "--seed", "gap": "--gap", "benchmark": "--benchmark", "style": "--style",
                     "closed_book": "--closed-book", "exclude_open_domain": "--exclude-open-domain"}


def _evaluation_config(cfg, judge: str = "cascade", *, llm_for: tuple[str, ...] | None = None, **options):
    """The evaluation's configuration from the flags, validated before any run is read or judged;
    a bad value is named by its flag. The judge's name is checked before the LLM is looked for
    (``llm_for``: the judges' names when the LLM is for others than ``judge``)."""
    from ragdx.evaluate.config import EvaluationConfig, judge_name

    judge = judge_name(judge, "--judge")
    llm = _judge_llm(cfg, judge) if llm_for is None else _llm(cfg, False, "llm" in llm_for)
    try:
        return EvaluationConfig.build(judge=judge, llm=llm, **options)
    except RagdxError as exc:
        raise RagdxError(exc.message, source=exc.source, field=_EVALUATION_FLAGS.get(exc.field or "", exc.field)
                         ) from None


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
    retrieval: RetrievalOpt = "evidence",
    boot: BootOpt = 1000,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    bertscore: Annotated[bool, typer.Option("--bertscore", help="Add BERTScore (on the packaged MiniLM, not the paper's backbone).")] = False,
    rouge: Annotated[bool, typer.Option("--rouge/--no-rouge", help="ROUGE-L (rouge-score's, with Porter stemming); --no-rouge skips it and NLTK's import, and metrics.json says it was not computed.")] = True,
    benchmark: Annotated[str | None, typer.Option("--benchmark", help="For a GRAMMAR reference directory: which paper benchmark it is (aurp, spider-open, spider-closed, none) for the paper's Table 3 column; default: aurp only when aurp_tables.json is there.")] = None,
    require_complete: Annotated[bool, typer.Option("--require-complete", help="Refuse (exit 2) a run that did not answer every query.")] = False,
    geval: Annotated[bool | None, typer.Option("--geval/--no-geval", help="The lab's four G-Eval criteria by the LLM of ragdx.yaml (default: on when an llm: section exists; 4 calls per query).")] = None,
    fail_under: Annotated[list[str] | None, typer.Option("--fail-under", help="CI gate [STYLE:]METRIC=VALUE (repeatable): exit 1 when the 95 % interval's lower bound is below VALUE; without STYLE, all styles.")] = None,
    junit: Annotated[Path | None, typer.Option("--junit", help="Write the gate's checks as JUnit XML here.")] = None,
    step_summary: Annotated[Path | None, typer.Option("--step-summary", help="Append the gate's Markdown table here (default: $GITHUB_STEP_SUMMARY when set).")] = None,
    closed_book: Annotated[Path | None, typer.Option("--closed-book", help="A closed-book run (`ragdx run --closed-book`) on the same dataset: tags open-domain groups, reports Acc_retrieval_db with and without them (GRAMMAR Table 4).")] = None,
    exclude_open_domain: Annotated[bool, typer.Option("--exclude-open-domain", help="With --closed-book: leave the open-domain groups out of every metric.")] = False,
    dataset: DatasetOpt = None,
    config: ConfigOpt = None,
):
    """Judge answers, tag semantic groups (gap / robust / non-robust), blame modules, test styles."""
    from ragdx.evaluate import evaluate_many

    cfg = _config(config)
    if exclude_open_domain and closed_book is None:
        raise RagdxError("--exclude-open-domain needs --closed-book RUN", field="--exclude-open-domain")
    job = _evaluation_config(cfg, judge, sets=sets, k=k, retrieval=retrieval, n_boot=boot, seed=seed,
                             bertscore=bertscore, rouge=rouge, benchmark=benchmark,
                             require_complete=require_complete, geval=geval, closed_book=closed_book,
                             exclude_open_domain=exclude_open_domain)
    if fail_under:  # bad thresholds fail before any judging
        from ragdx.evaluate.gate import parse_threshold

        thresholds = [parse_threshold(t) for t in fail_under]
    if out is not None:  # an evaluation replaces its --out whole: only one ragdx wrote, checked before judging
        _check_evaluation_out(out, paths)
    results = evaluate_many(paths, job, out=out, dataset=dataset)
    for result in results:
        if result.extra.get("open_domain"):
            from ragdx.evaluate.open_domain import open_domain_markdown

            console.print(open_domain_markdown(result.extra["open_domain"]), markup=False, highlight=False)
        inputs = result.inputs
        n_of = (f"{inputs.get('judged')} of {inputs.get('total')} queries judged" if inputs.get("total")
                else f"{result.queries} queries")
        if result.extra.get("llm_usage") is not None:
            from ragdx.llm import usage_line

            n_of += f"; {usage_line(result.extra['llm_usage'])}"
        console.print(f"[bold]{escape(str(result.output))}[/]: {escape(n_of)}", highlight=False)
        for warning in result.warnings:
            console.print(f"[yellow]warning:[/] {escape(warning)}", highlight=False)
        if result.comparison:
            from ragdx.evaluate.compare import sentence_lines

            console.print("\n".join(sentence_lines(result.comparison)), markup=False, highlight=False)
    if fail_under:
        from ragdx.evaluate.gate import check_thresholds, finish

        gates = [check_thresholds(r, thresholds, name=Path(str(p)).name) for r, p in zip(results, paths, strict=True)]
        if not finish(gates, junit=junit, step_summary=step_summary,
                      echo=lambda line: console.print(line, markup=False, highlight=False, soft_wrap=True)):
            sys.exit(1)


@app.command()
def compare(
    a: Annotated[Path, typer.Argument(help="First run (or results).")],
    b: Annotated[Path, typer.Argument(help="Second run on the same dataset.")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write comparison.json and comparison.md here.")] = None,
    judge: JudgeOpt = "cascade",
    sets: SetsOpt = "all",
    k: KOpt = None,
    retrieval: RetrievalOpt = "evidence",
    boot: BootOpt = 1000,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    strict: Annotated[bool, typer.Option("--strict", help="Refuse (exit 2) runs over different query sets instead of comparing their intersection.")] = False,
    fail_on_regression: Annotated[bool, typer.Option("--fail-on-regression", help="CI gate: exit 1 when a metric is significantly worse in B (its whole 95 % interval of B − A below zero).")] = False,
    regression_metric: Annotated[list[str] | None, typer.Option("--metric", help="With --fail-on-regression: only these metrics (repeatable; default: every metric compared).")] = None,
    junit: Annotated[Path | None, typer.Option("--junit", help="Write the gate's checks as JUnit XML here.")] = None,
    step_summary: Annotated[Path | None, typer.Option("--step-summary", help="Append the gate's Markdown table here (default: $GITHUB_STEP_SUMMARY when set).")] = None,
    gap: Annotated[str, typer.Option("--gap", help="Gap groups removed jointly (neither answered) or each side's own.")] = "joint",
    style: Annotated[str | None, typer.Option("--style", help="Compare only queries of this style.")] = None,
    dataset: DatasetOpt = None,
    config: ConfigOpt = None,
):
    """Two runs on one dataset: which module differs (retrieval paired on the same queries, the language
    model on a common footing), with bootstrap intervals and paired tests; "n of N" for each run."""
    from ragdx.evaluate import compare_paths

    if out is not None:  # before judging: comparison.json/.md go only where no file can be a person's
        from ragdx.store import check_writable_directory

        check_writable_directory(out)
    cfg = _config(config)
    job = _evaluation_config(cfg, judge, sets=sets, k=k, retrieval=retrieval, n_boot=boot, seed=seed, gap=gap,
                             style=style, strict=strict)
    for metric in regression_metric or []:
        from ragdx.evaluate.gate import gate_metrics

        if metric not in gate_metrics():
            raise RagdxError(f"no metric {metric!r} (metrics: {', '.join(gate_metrics())})", field="--metric")
    result = compare_paths(a, b, job, out=out, dataset=dataset)
    for side, path in (("a", a), ("b", b)):
        inputs = (result.inputs or {}).get(side) or {}
        if inputs.get("total"):
            console.print(f"{escape(str(path))}: {inputs['judged']} of {inputs['total']} queries judged", highlight=False)
    console.print("\n".join(result.lines()), markup=False, highlight=False)
    if fail_on_regression:
        from ragdx.evaluate.gate import check_regression, finish

        gate = check_regression(result, regression_metric)
        if not finish([gate], junit=junit, step_summary=step_summary,
                      echo=lambda line: console.print(line, markup=False, highlight=False, soft_wrap=True)):
            sys.exit(1)


@app.command("judge-agreement")
def judge_agreement_cmd(
    path: Annotated[Path, typer.Argument(help="A run directory, a GRAMMAR eval_results directory or a results JSONL.")],
    judge_a: Annotated[str, typer.Option("--a", help="First judge (stored = the verdicts already there).")] = "stored",
    judge_b: Annotated[str, typer.Option("--b", help="Second judge.")] = "cascade",
    sets: SetsOpt = "all",
    human: Annotated[Path | None, typer.Option("--human", help="A rating sheet filled by people (from `ragdx annotate`): each judge of the evaluated run against them.")] = None,
    config: ConfigOpt = None,
):
    """How often two judges agree, with a confusion table; or, with --human, each judge against people."""
    if human is not None:
        from ragdx.evaluate.annotate import human_agreement, human_agreement_markdown

        console.print(human_agreement_markdown(human_agreement(path, human)), markup=False, highlight=False)
        return
    from ragdx.evaluate import judge_agreement
    from ragdx.evaluate.config import judge_name

    cfg = _config(config)
    judge_a, judge_b = (name if name == "stored" else judge_name(name, flag)
                        for name, flag in ((judge_a, "--a"), (judge_b, "--b")))
    # the LLM only for a judge named llm: here the cascade stays offline, whatever ragdx.yaml says
    job = _evaluation_config(cfg, llm_for=(judge_a, judge_b), sets=sets)
    result = judge_agreement(path, judge_a, judge_b, job)
    console.print(result["markdown"], markup=False, highlight=False)


@app.command()
def annotate(
    run_dir: Annotated[Path, typer.Argument(help="An evaluated run directory.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for ratings.csv and ratings.html (must not exist, or be one ragdx wrote).")],
    n: Annotated[int, typer.Option("-n", min=1, help="Queries to sample.")] = 50,
    seed: Annotated[int, typer.Option("--seed")] = 0,
):
    """A blind rating sheet (CSV and an offline HTML page) for people to mark correctness and the four criteria."""
    from ragdx.evaluate.annotate import write_sheet

    result = write_sheet(run_dir, out, n=n, seed=seed)
    console.print(f"{result['rows']} queries to rate: {escape(result['csv'])} (or open {escape(result['html'])}); "
                  "then `ragdx judge-agreement RUN --human ratings.csv`", highlight=False)


# ----------------------------------------------------------------------------- relevance, cache

# the commands live in ragdx.relevance.cli_app (progress bars, output checks, tables)
from ragdx.relevance.cli_app import cache_app, relevance_app  # noqa: E402

app.add_typer(relevance_app, name="relevance")
app.add_typer(cache_app, name="cache")


@app.command()
def serve(
    tester: Annotated[Path, typer.Argument(help="Directory of a fitted tester.")],
    host: Annotated[str, typer.Option("--host")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535)] = 8080,
    token_env: Annotated[str, typer.Option("--token-env", help="Environment variable holding the bearer token.")] = "RAGDX_SERVE_TOKEN",
    max_batch: Annotated[int, typer.Option("--max-batch", min=1)] = 256,
    max_pending: Annotated[int, typer.Option("--max-pending", min=0, help="Requests in flight before 503 + Retry-After.")] = 64,
):
    """Serve the tester over HTTP: POST /v1/relevance, POST /v1/drift, GET /healthz."""
    from ragdx.relevance.serve import serve as run_server

    run_server(tester, host=host, port=port, token_env=token_env, max_batch=max_batch, max_pending=max_pending)


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
    from ragdx.store import claim_directory

    # the demo rewrites its own files in --out on every run: only in a directory it made
    claim_directory(out, kind="demo")
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
    dataset: DatasetOpt = None,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace an existing --out file.")] = False,
):
    """A report people would rather look at than read: metrics with intervals, charts, hypothesis
    tests, the knowledge boundary and a searchable table of every failure. Runs without an
    up-to-date evaluation are evaluated first (into RUN_DIR/evaluation)."""
    _choice(fmt, ("html", "md"), "--format")  # before the report's modules (numpy, scipy) are imported
    from ragdx.evaluate.config import judge_name

    judge = judge_name(judge, "--judge")
    from ragdx.store import check_output_file

    check_output_file(out, overwrite)
    if fmt == "html":  # the paged failure list goes beside the report, under a name derived from it
        from ragdx.report.html import failures_file

        check_output_file(failures_file(out), overwrite)
    from ragdx.report import write_report

    path = write_report(run_dirs, out, fmt=fmt, relevance=relevance, judge=judge, n_boot=boot, seed=seed,
                        title=title, dataset=dataset)
    console.print(f"report → {escape(str(path))}")


def _usage_error(exc: typer.TyperException) -> None:
    """A bad or missing option is bad input like any other: one line, exit 2, the option named in
    the parser's message and where the help is (the parser's own form is a six-line box)."""
    if type(exc).__name__ == "NoArgsIsHelpError":  # a bare `ragdx templates` asks for its help
        from typer import rich_utils

        rich_utils.rich_format_error(exc)
        sys.exit(exc.exit_code)
    ctx = getattr(exc, "ctx", None)
    hint = f" (see {ctx.command_path} --help)" if ctx is not None else ""
    message = " ".join(exc.format_message().split())
    err.print(f"[bold red]error:[/] {escape(message + hint)}", highlight=False, soft_wrap=True)
    sys.exit(exc.exit_code)


def main() -> None:
    """Entry point: a RagdxError becomes one line on stderr and its exit code (2 for bad input)."""
    from ragdx.redact import redact_text

    try:
        code = app(standalone_mode=False)
        if isinstance(code, int) and code:  # typer.Exit(n) comes back as n without standalone mode
            sys.exit(code)
    except typer.TyperException as exc:
        _usage_error(exc)
    except typer.Abort:
        err.print("aborted")
        sys.exit(1)
    except RagdxError as exc:
        # the message is data (paths, values, URLs): escaped so '[bold]' in a path stays in it,
        # and redacted as a last line of defence against a credential quoted in it
        err.print(f"[bold red]error:[/] {escape(redact_text(str(exc)))}", highlight=False, soft_wrap=True,
                  markup=True)
        sys.exit(exc.exit_code)
    except OSError as exc:
        # an output directory that cannot be written, a disk that is full: one line naming the file
        where = f"{exc.filename}: " if exc.filename else ""
        err.print(f"[bold red]error:[/] {escape(redact_text(where + (exc.strerror or str(exc))))}",
                  highlight=False, soft_wrap=True, markup=True)
        sys.exit(2)
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)


if __name__ == "__main__":
    main()
