"""``ragdx gen`` (the dataset: templates filled with the database's values and answered from it) and
``ragdx stats`` (its M × N × Q breakdown)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from ragdx.cli.kb import print_link_stats, read_corpus
from ragdx.cli.options import (
    ConfigOpt,
    CorpusIdOpt,
    CorpusOpt,
    CorpusTextOpt,
    DbOpt,
    check_out,
    database_url,
    open_database,
    pick,
    project_config,
    shown_url,
)
from ragdx.cli.output import console, err, progress_bars
from ragdx.cli.templates import report_sql_rejections
from ragdx.errors import RagdxError


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
    conversations: Annotated[int | None, typer.Option("--conversations", help="Also this many multi-turn conversations per walk of the schema's relations (default 0: none).")] = None,
    refusals: Annotated[int | None, typer.Option("--refusals", help="Also this many questions to decline per SQL template and kind, each paired with an answerable one (default 0: none).")] = None,
    kind: Annotated[list[str] | None, typer.Option("--kind", help="Question kinds to ask (repeatable): lookup (the default), list, count, total, extreme, comparison, time_range.")] = None,
    refusal_kind: Annotated[list[str] | None, typer.Option("--refusal-kind", help="Only these refusal kinds (repeatable): false_premise, absent_entity, ambiguous_reference, out_of_domain, omitted_fact.")] = None,
    kb: Annotated[Path | None, typer.Option("--kb", help="Knowledge base from `ragdx kb render`: adds gold document ids.")] = None,
    corpus: CorpusOpt = None,
    corpus_id_field: CorpusIdOpt = "id",
    corpus_text_field: CorpusTextOpt = "text",
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace an existing dataset directory.")] = False,
    show_stats: Annotated[bool, typer.Option("--stats", help="Print the M × N × Q breakdown and warn about constant, NULL-heavy and binary-candidate templates.")] = False,
    config: ConfigOpt = None,
):
    """Fill the templates with the database's values and answer every query from the database."""
    from ragdx.gen.options import gen_options

    cfg = project_config(config)
    g = cfg.gen
    # flags over ragdx.yaml's gen: section, every value checked before the stage's modules are
    # imported; the same function builds ragdx.generate_dataset's options
    options = gen_options(cfg, dict(styles=style, n=n, max_groups_per_template=max_groups, seed=seed,
                                    multi_answer=multi_answer, unanswerable=unanswerable, null_answers=null_answers,
                                    method=method, per_group=per_group, unbalanced=unbalanced,
                                    conversations=conversations, refusals=refusals, refusal_kinds=refusal_kind,
                                    kinds=kind),
                          names=GEN_FLAGS)
    from ragdx.gen.pipeline import load_parsed, write
    from ragdx.gen.text_templates import read_text_templates
    from ragdx.kb.render import omitted_in, read_facts

    out = Path(pick(out, g.out))
    check_out(out, overwrite)
    url = database_url(db, cfg)
    engine, sch = open_database(url, cfg)
    sql_path = Path(pick(sql, cfg.sql_templates.file))
    text_path = Path(pick(text, cfg.text_templates.file))
    parsed, rejected = load_parsed(sql_path, sch, engine)
    report_sql_rejections(rejected)
    if not parsed:
        raise RagdxError("no valid SQL template", source=str(sql_path))
    texts = read_text_templates(text_path)
    _check_gen_styles(options.styles, texts, text_path)
    kb_dir, corpus_path = _kb_or_corpus(kb, corpus, g)
    corpus_docs = read_corpus(corpus_path, corpus_id_field, corpus_text_field) if corpus_path else None
    facts = read_facts(kb_dir) if kb_dir else None
    answers = options.answers()
    result = _build(engine, sch, parsed, texts, options, facts, omitted_in(kb_dir))
    _report_answer_problems(result, text_path)
    extra = {}
    if corpus_docs is not None:
        from ragdx.kb.link import link_dataset

        linked = link_dataset(engine, sch, result.records, corpus_docs, aliases=cfg.aliases, console=err)
        result.records = linked.records
        extra = linked.manifest()
        print_link_stats(linked)
    write(out, sch, answers, result, {**extra, "database": shown_url(url), "sql_templates": str(sql_path),
                                      "text_templates": str(text_path),
                                      "knowledge_base": str(kb_dir) if kb_dir else None}, overwrite=overwrite)
    _print_outcome(result, options, parsed, sch, out, show_stats)


def _build(engine: Any, sch: Any, parsed: list, texts: Any, options: Any, facts: Any, omitted: Sequence[str]) -> Any:
    """The records, with a progress bar over the templates (``gen.pipeline.build_dataset``)."""
    from ragdx.gen.pipeline import build_dataset
    from ragdx.gen.refusals import refusal_plan

    with progress_bars() as bar:
        task = bar.add_task("answering templates", total=len(parsed))
        return build_dataset(engine, sch, parsed, texts, options.styles, options.n, options.answers(),
                             kb_facts=facts, per_group=options.per_group, unbalanced=options.unbalanced,
                             progress=lambda: bar.advance(task), conversations=options.conversations,
                             refusals=refusal_plan(options.refusals, options.refusal_kinds, omitted),
                             kinds=options.kinds)


def _print_outcome(result: Any, options: Any, parsed: list, sch: Any, out: Path, show_stats: bool) -> None:
    from ragdx.gen.dataset import semantic_groups

    _print_counts(result)
    _print_cap_note(result, options)
    if show_stats:
        _print_stats(result.records)
        _print_lint(result, parsed, sch)
    # counted from the columns: the records need not be made as objects for it
    console.print(f"{len(result.records)} records in {semantic_groups(result.records)} "
                  f"semantic groups → {escape(str(out))}")


#: how `ragdx gen` spells each generation option, so a bad value is named by its flag
GEN_FLAGS = {"styles": "--style", "n": "--n", "max_groups_per_template": "--max-groups-per-template",
             "seed": "--seed", "multi_answer": "--multi-answer", "unanswerable": "--unanswerable",
             "null_answers": "--null-answers", "method": "--method", "per_group": "--per-group",
             "unbalanced": "--unbalanced", "conversations": "--conversations",
             "refusals": "--refusals", "refusal_kinds": "--refusal-kind", "kinds": "--kind"}


def _kb_or_corpus(kb: Path | None, corpus: Path | None, g) -> tuple[Path | None, Path | None]:
    """Where the gold documents come from: a knowledge base ragdx rendered (--kb) or the user's
    own documents (--corpus), never both."""
    kb_dir = pick(kb, g.kb)
    corpus_path = pick(corpus, g.corpus)
    if corpus_path is not None and kb_dir is not None:
        if kb is not None and corpus is not None:
            raise RagdxError("give --kb (a knowledge base ragdx rendered) or --corpus (your documents), not both",
                             field="--corpus")
        # the command line wins over ragdx.yaml: a --corpus given here replaces gen.kb, and a --kb gen.corpus
        kb_dir = None if kb is None else kb_dir
        corpus_path = None if kb_dir is not None else corpus_path
    return kb_dir, corpus_path


def _report_answer_problems(result, text_path: Path) -> None:
    for p in result.text_problems:
        err.print(f"[yellow]text template problem[/] {escape(str(p))}")
    for m in result.missing_text:
        err.print(f"[yellow]no text templates[/] for {escape(str(m))}: run `ragdx templates text`")
    if not result.records:
        raise RagdxError("no records: check the text templates and styles", source=str(text_path))


def _check_gen_styles(styles, texts, text_path: Path) -> None:
    # before answering: a style with no text templates would leave every query out
    have = sorted({t.style for t in texts})
    for s in styles or []:
        if s not in have:
            raise RagdxError(f"no text templates in style {s!r} (styles there: {', '.join(have) or 'none'})",
                             source=str(text_path), field="--style")


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
    if result.refusal_counts:
        made = ", ".join(f"{n} {kind.replace('_', ' ')}" for kind, n in result.refusal_counts.items())
        console.print(f"questions to decline (groups, each paired with an answerable one): {made}")


def _print_cap_note(result, options) -> None:
    capped = {tid: c.left_out_by_cap for tid, c in result.counts.items() if c.left_out_by_cap}
    if capped:
        console.print(f"note: at most {options.max_groups_per_template} groups per template: "
                      f"{sum(capped.values())} combinations of {len(capped)} templates left out "
                      "(--max-groups-per-template N to change, 0 for all)")


def _print_lint(result, parsed, sch) -> None:
    from ragdx.gen.lint import binary_projections, left_out_projections, lint

    summary = lint(result.records, result.counts, {p.id: p.template.sql for p in parsed},
                   binary_projections(parsed, sch), left_out_projections(parsed, sch))
    console.print(f"template lint: {summary.constant} constant, {summary.null_heavy} NULL-heavy, "
                  f"{summary.binary} binary-candidate, {summary.not_worth_asking} not-worth-asking templates")
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
        # questions outside the schema's domain (refusal kind out_of_domain) belong to no table
        table.add_row(escape(str(r["table"]) or "(outside the schema)"), escape(str(r["style"])), str(r["M_sql_templates"]), str(r["N_text_templates"]),
                      str(r["Q_values_per_template"]), str(r["semantic_groups"]), str(r["queries"]),
                      str(r["answer_sets"]), str(r["unanswerable"]), str(r["kb_gaps"]) if has_kb else "–")
    table.add_row("all", "", str(len({r.sql_template_id for r in records})), "", "",
                  str(len({r.group_id for r in records})), str(len(records)),
                  str(sum(r.answer_kind == "multi" for r in records)),
                  str(sum(r.answer_kind == "none" for r in records)),
                  str(sum(r.kb_supported is False for r in records)) if has_kb else "–", style="bold")
    console.print(table)


def stats(dataset: Annotated[Path, typer.Argument(help="Dataset directory or records file.")]):
    """Print the M × N × Q breakdown of a dataset."""
    from ragdx.gen.dataset import read_records

    _print_stats(read_records(dataset))
