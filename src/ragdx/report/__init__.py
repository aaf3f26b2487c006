"""``ragdx report``: one self-contained HTML file (or a Markdown summary) for run directories.

``build_report`` gathers the data (evaluating a run first if its evaluation is missing or
stale), ``render_html`` draws it with inline SVG charts and a few lines of inline script, and
``render_markdown`` writes the short summary that fits a pull request.

Names are imported on first use (``from ragdx.report import build_report`` works as before): the
package ``ragdx`` loads this one at its own import (see ``ragdx/__init__``), which must stay cheap
for ``ragdx --help``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragdx.lazy import lazy_names

if TYPE_CHECKING:
    from ragdx.report.data import build_report
    from ragdx.report.html import render_html
    from ragdx.report.markdown import render_markdown

__all__ = ["build_report", "render_html", "render_markdown", "write_report"]

_LAZY = {"build_report": "data", "render_html": "html", "render_markdown": "markdown"}


__getattr__, __dir__ = lazy_names(__name__, _LAZY, __all__)


def write_report(run_dirs: Sequence[str | Path], out: str | Path, *, fmt: str = "html", **kwargs: Any) -> Path:
    """Build the report for ``run_dirs`` and write it to ``out`` (``fmt``: html or md)."""
    from ragdx.errors import RagdxError

    if fmt not in ("html", "md"):
        raise RagdxError(f"unknown format {fmt!r} (html or md)", field="--format")
    from ragdx.report import data  # the module, so that a test may replace its build_report
    from ragdx.report.html import render_html, write_failures
    from ragdx.report.markdown import render_markdown
    from ragdx.store import atomic_write_text, gc_paused

    with gc_paused():  # millions of small objects, none in a cycle: see ragdx.store.gc_paused
        built = data.build_report(run_dirs, **kwargs)
        if fmt == "html":
            write_failures(built, out)  # a long failure table is paged: the rest goes beside the report
        text = render_html(built) if fmt == "html" else render_markdown(built)
    atomic_write_text(out, text)
    Path(out).chmod(0o644)  # a report is for sharing (the atomic write creates files 0600)
    return Path(out)
