"""The ``ragdx`` command line (:mod:`ragdx.cli.main`): the console script ``ragdx = "ragdx.cli:main"``
and ``python -m ragdx.cli`` start here; ``app`` is the typer application tests drive in process."""

from ragdx.cli.main import app, main

__all__ = ["app", "main"]
