"""A small demo dataset (the demo database, its knowledge base with facts left out, short and
long queries over a few semantic groups) built with the same public stages as ``ragdx demo``,
in a few seconds, for tests that need real records with gold document ids."""

from __future__ import annotations

from pathlib import Path

from ragdx.db import connect, inspect_schema
from ragdx.demo.database import build_demo_database
from ragdx.demo.run import DEMO_OMIT, DEMO_OMIT_TABLES, DEMO_STYLES
from ragdx.gen.pipeline import build_dataset, load_parsed, sql_stage, text_stage, write
from ragdx.gen.qa import AnswerOptions
from ragdx.gen.text_templates import read_text_templates
from ragdx.kb.render import render_kb


def build_small_demo(out: Path, *, max_groups: int = 2, per_group: int = 1, n: int = 2) -> Path:
    """Writes ``out/demo.sqlite``, ``out/kb`` and ``out/dataset``; returns the dataset directory."""
    out.mkdir(parents=True, exist_ok=True)
    db_path = build_demo_database(out / "demo.sqlite", overwrite=True)
    url = f"sqlite:///{db_path}"
    engine = connect(url)
    schema = inspect_schema(engine)
    kb = render_kb(engine, schema, omit=DEMO_OMIT, omit_tables=DEMO_OMIT_TABLES)
    kb.write(out / "kb", overwrite=True)
    sql_file, text_file = out / "templates" / "sql.yaml", out / "templates" / "text.yaml"
    sql_stage(engine, schema, sql_file)
    parsed, _ = load_parsed(sql_file, schema)
    text_stage(parsed, text_file, DEMO_STYLES, n)
    options = AnswerOptions(seed=0, max_groups_per_template=max_groups)
    result = build_dataset(engine, schema, parsed, read_text_templates(text_file), DEMO_STYLES, n, options,
                           kb_facts=kb.facts, per_group=per_group)
    dataset = out / "dataset"
    write(dataset, schema, options, result,
          {"database": url, "sql_templates": str(sql_file), "text_templates": str(text_file),
           "knowledge_base": str(out / "kb")}, overwrite=True)
    engine.dispose()
    return dataset
