"""Where the commands write: results on stdout (``console``), progress, warnings and errors on
stderr (``err``), so that a command's output can be piped."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console

if TYPE_CHECKING:
    from rich.progress import Progress


console = Console()
err = Console(stderr=True)


def progress_bars() -> Progress:
    from ragdx.progress import bars

    return bars(console=err, eta=False)
