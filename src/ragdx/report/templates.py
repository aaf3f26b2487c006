"""How many SQL templates a dataset was made from, and why some made no query.

The console counts the templates it parsed (``ragdx demo``: "49 SQL templates"); a report that
counted the templates found in the records said 48, because a template whose every value
combination was dropped (several answers, no answer, only NULLs) or that has no text template in
a style makes no record. The dataset manifest's ``per_template_counts`` lists every template, so
the report says both: "49 SQL templates, 1 without queries", and why.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True, slots=True)
class TemplateWithoutQueries:
    template: str
    sql: str
    why: str


@dataclass(frozen=True, slots=True)
class TemplateCounts:
    """``total``: templates the dataset was built from (the manifest's, or those in the records
    when the manifest does not list them); ``with_queries``: those with at least one record."""

    total: int
    with_queries: int
    without: tuple[TemplateWithoutQueries, ...]

    def words(self) -> str:
        """"49 SQL templates, 1 without queries" (or "48 SQL templates")."""
        head = f"{self.total} SQL template{'s' if self.total != 1 else ''}"
        return head + (f", {len(self.without)} without queries" if self.without else "")


def _why(counts: Mapping[str, Any], options: Mapping[str, Any], missing_text: list[str]) -> str:
    """Why a template made no record, from its answer counts (``gen.qa.AnswerCounts``)."""
    if missing_text:
        return "no text template in " + ", ".join(missing_text)
    if not counts.get("combinations"):
        return "no value combination in the database"
    dropped = [(counts.get("multi_dropped", 0), "several answers", "multi_answer"),
               (counts.get("unanswerable_dropped", 0), "no answer", "unanswerable"),
               (counts.get("null_dropped", 0), "only NULL answers", None)]
    parts = [f"{n} with {what}" + (f" (dropped: {opt} = {options.get(opt)})" if opt and options.get(opt) else "")
             for n, what, opt in dropped if n]
    total = counts["combinations"]
    return (f"all {total} value combinations dropped: " + "; ".join(parts)) if parts else \
        f"{total} value combinations, none kept"


def _sql_by_id(manifest: Mapping[str, Any], dataset: Path | None) -> dict[str, str]:
    """The templates' SQL, read from the templates file the manifest names (when it is still
    there): the ids alone do not say which question a template asks."""
    from ragdx.errors import RagdxError
    from ragdx.gen.sql_templates import read_templates, template_id

    name = manifest.get("sql_templates")
    if not isinstance(name, str) or not name:
        return {}
    base = None if dataset is None else dataset if dataset.is_dir() else dataset.parent
    candidates = [Path(name)] + ([base / name] if base is not None else [])
    path = next((p for p in candidates if p.is_file()), None)
    if path is None:
        return {}
    try:
        return {template_id(t.sql): t.sql for t in read_templates(path)}
    except (OSError, RagdxError):
        return {}  # edited or moved since: the ids are still shown


def template_counts(manifest: Mapping[str, Any], records: Iterable[Any], dataset: Path | None = None
                    ) -> TemplateCounts:
    """Count the SQL templates of a dataset (its manifest and records; ``dataset``, its file or
    directory, to find a templates file named relative to it)."""
    used = {r.sql_template_id for r in records}
    listed = manifest.get("per_template_counts")
    if not isinstance(listed, Mapping) or not listed:
        return TemplateCounts(len(used), len(used), ())
    from ragdx.gen.sql_templates import template_id

    options = manifest.get("options") or {}
    missing: dict[str, list[str]] = {}
    for entry in manifest.get("missing_text_templates") or []:
        sql, _, style = str(entry).rpartition(" [")  # "SELECT ... [short]"
        missing.setdefault(template_id(sql), []).append(style.rstrip("]"))
    sql_by_id = _sql_by_id(manifest, dataset) if any(t not in used for t in listed) else {}
    without = tuple(TemplateWithoutQueries(t, sql_by_id.get(t, ""), _why(c, options, missing.get(t, [])))
                    for t, c in listed.items() if t not in used and isinstance(c, Mapping))
    return TemplateCounts(len(set(listed) | used), len(used), without)
