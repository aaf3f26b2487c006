"""``ragdx templates sql`` and ``ragdx templates text``: the query templates a dataset is filled from."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from ragdx.cli.options import (
    ConfigOpt,
    DbOpt,
    DryRunOpt,
    at_least_one,
    choice,
    database_url,
    llm_client,
    open_database,
    pick,
    project_config,
)
from ragdx.cli.output import console, err, progress_bars
from ragdx.errors import RagdxError

templates_app = typer.Typer(no_args_is_help=True, help="Generate and validate query templates.")


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

    cfg = project_config(config)
    sec = cfg.sql_templates
    method = choice(pick(method, sec.method), ("schema", "llm"), "--method")
    out = pick(out, sec.file)
    engine, sch = open_database(database_url(db, cfg), cfg)
    llm = llm_client(cfg, dry_run, method == "llm")
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
            run_sync(llm_templates(llm, sch, t, pick(requirement, sec.requirements)))
        _print_dry_run(llm)
        return
    result = sql_stage(engine, sch, Path(out), method=method, llm=llm, targets=targets,
                       requirements=pick(requirement, sec.requirements), imports=import_ or [],
                       derive=also_derive or not import_)
    for r in result.rejected:
        err.print(f"[yellow]rejected[/] {escape(f'[{r.template.schema}] {r.template.sql}')}\n    {escape(r.reason)}")
    if result.already_imported:
        console.print(f"{len(result.already_imported)} derived templates repeat imported ones (kept once)")
    if result.skipped_schemas:
        console.print(escape(f"kept as they are (already in {out}): {', '.join(result.skipped_schemas)}"))
    for f in result.failed:
        err.print(f"[red]failed[/] {escape(f)}")
    if method == "schema" and (also_derive or not import_):
        _print_left_out(sch)
    console.print(f"{len(result.accepted)} valid templates, {len(result.rejected)} rejected, "
                  f"{len(result.failed)} target schemas failed; "
                  f"added schemas: {escape(', '.join(result.added_schemas) or 'none')} → {escape(str(out))}")
    if llm is not None:
        from ragdx.llm import usage_line

        console.print(escape(usage_line(llm.usage)), highlight=False)
    if result.failed:
        # the valid templates are written; exit 1 says that some schemas still need a re-run
        raise typer.Exit(1)


def _print_left_out(sch) -> None:
    """Say which columns the derived templates leave out and why (issue 22 item 3)."""
    from ragdx.gen.sql_templates import abbreviated_columns, left_out_columns, left_out_tables

    left = left_out_columns(sch)
    if left:
        console.print(f"{len(left)} columns not asked about (list them under 'ask:' in ragdx.yaml to ask): "
                      + escape("; ".join(f"{t}.{c} ({why})" for t, c, why in left)), highlight=False)
    tables = left_out_tables(sch)
    if tables:
        console.print(f"{len(tables)} tables not asked about: "
                      + escape("; ".join(f"{t} ({why})" for t, why in tables)), highlight=False)
    short = abbreviated_columns(sch)
    if short:
        # no rule can tell "HR" is home runs: the questions would ask "the HR of ..." until named
        console.print(f"{len(short)} column names look abbreviated and are asked as written (name them under "
                      "'names: columns:' in ragdx.yaml): "
                      + escape(", ".join(f"{t}.{c}" for t, c in short)), highlight=False)


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

    cfg = project_config(config)
    sec = cfg.text_templates
    method = choice(pick(method, sec.method), ("rules", "llm"), "--method")
    styles = _check_styles(style or sec.styles, cfg.styles, method)
    n = at_least_one(pick(n, sec.n), "--n")
    out = Path(pick(out, sec.file))
    from ragdx.gen.text_templates import read_text_templates

    for path in ([out] if out.exists() else []) + list(import_ or []):
        read_text_templates(path)  # a broken file stops the stage here, before any work
    engine, sch = open_database(database_url(db, cfg), cfg)
    parsed, rejected = load_parsed(Path(pick(sql, cfg.sql_templates.file)), sch)
    report_sql_rejections(rejected)
    llm = llm_client(cfg, dry_run, method == "llm")
    if dry_run:
        if llm is None:
            console.print("method 'rules' makes no LLM call.")
            return
        from ragdx.gen.text_templates import generate_text_templates

        generate_text_templates(parsed, styles, n, method="llm", llm=llm, custom_styles=cfg.styles)
        _print_dry_run(llm)
        return
    with progress_bars() as bar:
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


def report_sql_rejections(rejected) -> None:
    """A person's templates file is input: an invalid template stops the stage, naming where it is."""
    if rejected:
        first = rejected[0]
        source, where = first.template.origin or (None, first.template.sql)
        more = f" (and {len(rejected) - 1} more invalid templates)" if len(rejected) > 1 else ""
        raise RagdxError(f"{first.reason}{more}", source=source, field=where)


def _print_dry_run(llm) -> None:
    from ragdx.llm import estimate_table

    console.print(estimate_table(llm.usage))
    console.print("[yellow]dry run:[/] nothing was sent and nothing was written.")
