"""``ragdx db load``: a JSON-table database (GRAMMAR's aurp_tables.json) into a real one."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from ragdx.cli.options import shown_url
from ragdx.cli.output import console

db_app = typer.Typer(no_args_is_help=True, help="Databases: load a JSON-table database.")


@db_app.command("load")
def db_load(
    tables: Annotated[Path, typer.Argument(help='A JSON file {"schema": {table: {columns, primary_key, foreign_keys}}, "rows": {table: [...]}} (e.g. aurp_tables.json).')],
    url: Annotated[str, typer.Argument(help="Database URL to create the tables in (sqlite:///aurp.db, postgresql://…, mysql://…).")],
    replace: Annotated[bool, typer.Option("--replace", help="Drop these tables first if they exist.")] = False,
):
    """Create the tables of a JSON-table database and insert its rows, in one transaction."""
    from ragdx.db.load import load_tables_json

    counts = load_tables_json(url, tables, replace=replace)
    console.print(escape(", ".join(f"{t}: {n} rows" for t, n in counts.items()) + f" → {shown_url(url)}"))
