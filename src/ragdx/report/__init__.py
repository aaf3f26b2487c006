"""``ragdx report``: one self-contained HTML file (or a Markdown summary) for run directories.

``build_report`` gathers the data (evaluating a run first if its evaluation is missing or
stale), ``render_html`` draws it with inline SVG charts and a few lines of inline script, and
``render_markdown`` writes the short summary that fits a pull request.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ragdx.report.data import build_report
from ragdx.report.html import render_html
from ragdx.report.markdown import render_markdown

__all__ = ["build_report", "render_html", "render_markdown", "write_report"]


def write_report(run_dirs, out: str | Path, *, fmt: str = "html", **kwargs: Any) -> Path:
    """Build the report for ``run_dirs`` and write it to ``out`` (``fmt``: html or md)."""
    from ragdx.errors import RagdxError
    from ragdx.store import atomic_write_text, gc_paused

    if fmt not in ("html", "md"):
        raise RagdxError(f"unknown format {fmt!r} (html or md)", field="--format")
    with gc_paused():  # millions of small objects, none in a cycle: see ragdx.store.gc_paused
        data = build_report(run_dirs, **kwargs)
        if fmt == "html":
            from ragdx.report.html import write_failures

            write_failures(data, out)  # a long failure table is paged: the rest goes beside the report
        text = render_html(data) if fmt == "html" else render_markdown(data)
    atomic_write_text(out, text)
    Path(out).chmod(0o644)  # a report is for sharing (the atomic write creates files 0600)
    return Path(out)
