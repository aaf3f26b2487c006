"""``ragdx schema``: what ragdx reads in a database, and the words it will use for it."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from ragdx.cli.options import ConfigOpt, open_database, project_config
from ragdx.cli.output import console


def schema(url: Annotated[str, typer.Argument(help="Database URL.")],
           as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
           config: ConfigOpt = None):
    """Tables, columns, types, keys, and per column the distinct count and uniqueness measured
    from the data."""
    from ragdx.gen.naming import column_phrase, readable_entity, relation_noun
    from ragdx.gen.sql_templates import is_surrogate, left_out_reason, lookup_keys

    engine, sch = open_database(url, project_config(config))
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
            called = relation_noun(c.name, fk.ref_table, fk.ref_columns[0]) if fk else column_phrase(c.name)
            note = "look-up key" if c.name in keys else (
                "binary" if c.kind == "binary" else "surrogate" if is_surrogate(t, c.name) else "")
            if not note and not fk and t.rows and (why := left_out_reason(t, c.name)):
                note = f"not asked ({why}; 'ask:' to ask)"
            table.add_row(escape(c.name), escape(called), escape(c.type), escape(key), str(c.distinct), str(c.nulls),
                          "yes" if t.is_unique(c.name) else "no", note)
        console.print(table)
    engine.dispose()
