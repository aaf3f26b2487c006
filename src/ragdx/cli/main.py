"""The ``ragdx`` command line: one sub-command per stage, each runnable alone.

Options left out on the command line come from ``ragdx.yaml`` (``--config``), then from the
defaults in :mod:`ragdx.config` (:mod:`ragdx.cli.options` merges them). Bad input ends with one
line naming the file and field, and exit code 2; nothing half-written is left behind. Each stage's
commands are in their own module (:mod:`ragdx.cli.gen`, :mod:`ragdx.cli.run`, ...); this one
gathers them into the application, in the order ``ragdx --help`` lists them.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, cast

import typer
from rich.markup import escape

from ragdx.cli import db, demo, evaluate, gen, kb, probe, report, run, schema, serve, templates
from ragdx.cli.output import console, err
from ragdx.errors import RagdxError

# the relevance and cache commands live in ragdx.relevance.cli_app (progress bars, output checks,
# tables); it imports no tester until a command runs
from ragdx.relevance.cli_app import cache_app, relevance_app

if TYPE_CHECKING:
    from typer._click.exceptions import ClickException

# Start-up stays cheap (`ragdx --help`, a one-line error): everything heavier than typer and
# rich's console (the stages, numpy, scipy, sqlalchemy, the LLM client, rich's progress bars) is
# imported inside the command that uses it. tests/test_startup.py checks what `import ragdx.cli`
# loads; benchmarks/startup.py measures the CPU it takes.

app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode="rich",
                  help="Grounded, modular diagnosis for retrieval-augmented generation.")


def _print_version(value: bool) -> None:
    if value:
        from ragdx import __version__

        console.print(f"ragdx {__version__}", highlight=False)
        raise typer.Exit()


@app.callback()
def _main(version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                                help="Print ragdx's version and exit.")] = False) -> None:
    """Grounded, modular diagnosis for retrieval-augmented generation."""


# typer lists groups and commands in the order they are registered: kept as it was
app.add_typer(templates.templates_app, name="templates")
app.add_typer(kb.kb_app, name="kb")
app.add_typer(db.db_app, name="db")
app.add_typer(relevance_app, name="relevance")
app.add_typer(cache_app, name="cache")
app.command()(schema.schema)
app.command()(gen.gen)
app.command()(gen.stats)
app.command("run")(run.run_cmd)
app.command("probe")(probe.probe_cmd)
app.command("export")(report.export_cmd)
app.command()(evaluate.evaluate)
app.command()(evaluate.compare)
app.command("judge-agreement")(evaluate.judge_agreement_cmd)
app.command()(evaluate.annotate)
app.command()(serve.serve)
app.command()(demo.demo)
app.command()(report.report)


def _usage_error(exc: typer.TyperException) -> None:
    """A bad or missing option is bad input like any other: one line, exit 2, the option named in
    the parser's message and where the help is (the parser's own form is a six-line box)."""
    if type(exc).__name__ == "NoArgsIsHelpError":  # a bare `ragdx templates` asks for its help
        from typer import rich_utils

        # a NoArgsIsHelpError is a ClickException of the click typer carries
        rich_utils.rich_format_error(cast("ClickException", exc))
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
