"""``ragdx demo``: every stage that exists so far, on the embedded demo database, offline.

The demo is the product's first impression, so it runs the same public functions a user's
project runs (nothing demo-only in the stages), writes every artefact under one directory, and
can be re-run: the templates files are merged, never overwritten, like in a real project.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.table import Table

from ragdx.db import connect, inspect_schema
from ragdx.demo.database import build_demo_database, demo_description
from ragdx.gen.dataset import stats
from ragdx.gen.pipeline import build_dataset, load_parsed, sql_stage, text_stage, write
from ragdx.gen.qa import AnswerOptions
from ragdx.gen.text_templates import read_text_templates
from ragdx.kb.render import render_kb

#: facts the demo's knowledge base leaves out, so that the dataset has known gap groups
DEMO_OMIT = ("Staff.Office", "Programme.TuitionFee", "Course.max_enrolment")
DEMO_OMIT_TABLES = ("Teaching",)
DEMO_STYLES = ("short", "long")
DEMO_N = 3


def run_demo(out: Path, console: Console | None = None) -> dict:
    console = console or Console()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    db_path = build_demo_database(out / "demo.sqlite", overwrite=True)
    url = f"sqlite:///{db_path}"
    console.print(f"[bold]demo database[/] {db_path}: {demo_description()}")

    engine = connect(url)
    schema = inspect_schema(engine)
    sql_file, text_file = out / "templates" / "sql.yaml", out / "templates" / "text.yaml"
    sql_result = sql_stage(engine, schema, sql_file)
    parsed, _ = load_parsed(sql_file, schema)
    text_result = text_stage(parsed, text_file, DEMO_STYLES, DEMO_N)

    kb = render_kb(engine, schema, omit=DEMO_OMIT, omit_tables=DEMO_OMIT_TABLES)
    kb.write(out / "kb", overwrite=True)

    options = AnswerOptions(seed=0)
    result = build_dataset(engine, schema, parsed, read_text_templates(text_file), DEMO_STYLES, DEMO_N,
                           options, kb_facts=kb.facts)
    write(out / "dataset", schema, options, result,
          {"database": url, "sql_templates": str(sql_file), "text_templates": str(text_file),
           "knowledge_base": str(out / "kb")}, overwrite=True)
    engine.dispose()

    table = Table(title="demo dataset: M SQL templates × N text templates × Q values", title_justify="left")
    for head in ("table", "style", "M", "N", "Q", "queries", "kb gaps"):
        table.add_column(head, justify="left" if head in ("table", "style") else "right")
    for row in stats(result.records):
        table.add_row(row["table"], row["style"], str(row["M_sql_templates"]), str(row["N_text_templates"]),
                      str(row["Q_values_per_template"]), str(row["queries"]), str(row["kb_gaps"]))
    console.print(table)
    groups = {r.group_id for r in result.records}
    gap_groups = {r.group_id for r in result.records if r.kb_supported is False}
    summary = {
        "sql_templates": len(parsed), "sql_rejected": len(sql_result.rejected),
        "text_template_pairs_added": text_result.added_pairs, "documents": len(kb.documents),
        "records": len(result.records), "semantic_groups": len(groups), "kb_gap_groups": len(gap_groups),
    }
    console.print(f"{summary['sql_templates']} SQL templates, {len(kb.documents)} documents "
                  f"(left out: {', '.join(kb.omitted)}), {summary['records']} queries in "
                  f"{summary['semantic_groups']} semantic groups, {summary['kb_gap_groups']} of them "
                  f"knowledge-base gaps by construction.")
    console.print(f"[bold green]done[/] → {out}/ (dataset/, kb/, templates/)")
    return summary
