"""The command line as a package (issue 20 item 7): each stage's commands live in their own module
of ``ragdx.cli`` and ``ragdx.cli.main`` registers them. Guards what the move could lose silently:
the console script's target, and a command left unregistered or listed in another place."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

import typer

ROOT = Path(__file__).resolve().parents[1]

#: `ragdx --help`'s order: commands as they were registered in the one-module CLI, then groups
COMMANDS = ["schema", "gen", "stats", "run", "probe", "export", "evaluate", "compare", "judge-agreement", "annotate",
            "serve", "demo", "report", "templates", "kb", "db", "relevance", "cache"]


def test_console_script_target_is_the_entry_point():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    module, _, attr = scripts["ragdx"].partition(":")
    target = getattr(importlib.import_module(module), attr)
    from ragdx.cli.main import main

    assert target is main


def test_every_command_is_registered_in_help_order():
    from ragdx.cli import app

    group = typer.main.get_command(app)
    with typer.Context(group) as ctx:
        assert group.list_commands(ctx) == COMMANDS
    for name, sub in (("templates", ["sql", "text"]), ("kb", ["render", "link", "audit"]), ("db", ["load"])):
        command = group.get_command(ctx, name)
        with typer.Context(command) as sub_ctx:
            assert command.list_commands(sub_ctx) == sub
