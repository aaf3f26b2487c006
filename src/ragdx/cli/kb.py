"""``ragdx kb render``, ``kb link`` and ``kb audit``: knowledge bases rendered from rows, and a
user's own documents linked to (or audited against) the database's facts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from ragdx.cli.options import (
    ConfigOpt,
    CorpusIdOpt,
    CorpusTextOpt,
    DbOpt,
    check_out,
    database_url,
    open_database,
    pick,
    project_config,
)
from ragdx.cli.output import console, err
from ragdx.cli.templates import report_sql_rejections
from ragdx.errors import RagdxError

kb_app = typer.Typer(no_args_is_help=True, help="Knowledge bases rendered from database rows.")


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

    cfg = project_config(config)
    out = Path(pick(out, cfg.kb.out))
    check_out(out, overwrite)
    engine, sch = open_database(database_url(db, cfg), cfg)
    kb = render_kb(engine, sch, omit=pick(omit, cfg.kb.omit), omit_tables=pick(omit_table, cfg.kb.omit_tables))
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

    cfg = project_config(config)
    manifest = read_manifest(dataset)
    records = read_records(dataset)
    target = out or dataset
    if out is not None:
        check_out(out, overwrite)
    url = db or cfg.database or manifest.get("database")
    if not url or "***" in str(url):
        raise RagdxError("the dataset's database is needed: pass --db URL", field="--db")
    engine, sch = open_database(url)
    linked = link_dataset(engine, sch, records, read_corpus(corpus, corpus_id_field, corpus_text_field),
                          aliases=cfg.aliases, console=err)
    keep = {k: v for k, v in manifest.items() if k not in ("format", "records", "semantic_groups")}
    write_dataset(target, linked.records, {**keep, **linked.manifest(), "knowledge_base": None},
                  overwrite=True if out is None else overwrite)
    print_link_stats(linked)
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

    cfg = project_config(config)
    check_out(out, overwrite)
    engine, sch = open_database(database_url(db, cfg))
    templates = records = None
    if sql is not None:
        from ragdx.gen.pipeline import load_parsed

        templates, rejected = load_parsed(sql, sch, engine)
        report_sql_rejections(rejected)
    if dataset is not None:
        from ragdx.gen.dataset import read_records

        records = read_records(dataset)
    docs = read_corpus(corpus, corpus_id_field, corpus_text_field)
    result = audit_corpus(engine, sch, docs, templates=templates, records=records, aliases=cfg.aliases,
                          max_rows=max_rows)
    write_audit(result, out, overwrite=overwrite)
    console.print(audit_markdown(result), markup=False, highlight=False)
    console.print(escape(f"audit → {out}/audit.json, {out}/audit.md"))


def read_corpus(path: Path, id_field: str = "id", text_field: str = "text"):
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


def print_link_stats(linked) -> None:
    s = linked.stats
    table = Table(title=f"evidence linked in {escape(str(linked.corpus.source))} ({len(linked.corpus)} documents, "
                        f"{linked.passages} passages)", title_justify="left")
    for k in ("records", "linked", "unlinked", "approximate", "not linkable", "unanswerable", "facts stated"):
        table.add_column(k, justify="right")
    table.add_row(str(s.records), str(s.linked), str(s.unlinked), str(s.approximate), str(s.not_linkable),
                  str(s.unanswerable), f"{s.facts_stated}/{s.facts}")
    console.print(table)
