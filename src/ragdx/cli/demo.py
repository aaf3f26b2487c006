"""``ragdx demo``: every stage end to end on the embedded demo database, offline."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ragdx.cli.options import BootOpt
from ragdx.cli.output import console


def demo(
    out: Annotated[Path, typer.Option("--out", "-o", help="Output directory.")] = Path("demo-out"),
    max_groups: Annotated[int, typer.Option("--max-groups-per-template", min=1, help="Semantic groups per SQL template (seeded sample).")] = 6,
    per_group: Annotated[int, typer.Option("--per-group", min=1, help="Queries per semantic group and style (balanced).")] = 2,
    boot: BootOpt = 1000,
    no_progress: Annotated[bool, typer.Option("--no-progress", help="No progress bars.")] = False,
):
    """Every stage end to end on the embedded demo database, offline: dataset, two systems,
    evaluation, knowledge-boundary tests, and an HTML report (demo-out/report.html)."""
    from ragdx.demo.run import run_demo
    from ragdx.store import claim_directory

    # the demo rewrites its own files in --out on every run: only in a directory it made
    claim_directory(out, kind="demo")
    run_demo(out, console, max_groups=max_groups, per_group=per_group, n_boot=boot, progress=not no_progress)
