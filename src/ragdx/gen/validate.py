"""Validating SQL templates: each is parsed and, with a database, executed on a few combinations of
real values (GRAMMAR §4.1's check that a template answers at all). It sits above both the
template parser (:mod:`ragdx.gen.sql_templates`) and the answering (:mod:`ragdx.gen.qa`), which
it uses, so neither imports the other in a circle.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass

from ragdx.db.schema import Schema
from ragdx.errors import TemplateError
from ragdx.gen.qa import placeholder_domains, run_per_combination
from ragdx.gen.sql_templates import ParsedTemplate, SqlTemplate, parse_template


@dataclass(slots=True)
class Rejection:
    template: SqlTemplate
    reason: str


def validate_templates(
    templates: Iterable[SqlTemplate], schema: Schema, engine=None, *, sample: int = 3
) -> tuple[list[ParsedTemplate], list[Rejection]]:
    """Parse every template and, with an engine, execute it on ``sample`` combinations of real
    values. Duplicates (same normalised SQL) are rejected after their first occurrence."""
    accepted: list[ParsedTemplate] = []
    rejected: list[Rejection] = []
    seen: set[str] = set()
    for tpl in templates:
        if tpl.id in seen:
            rejected.append(Rejection(tpl, "duplicate of an earlier template"))
            continue
        seen.add(tpl.id)
        try:
            parsed = parse_template(tpl, schema)
        except TemplateError as exc:
            rejected.append(Rejection(tpl, exc.message))
            continue
        if engine is not None:
            try:
                domains = placeholder_domains(engine, parsed)
                combos = list(itertools.islice(itertools.product(*domains), sample))
                # an empty table still gets one execution, so a broken template cannot pass
                run_per_combination(engine, parsed, combos or [(None,) * len(parsed.placeholders)])
            except Exception as exc:  # the database's own words are the useful reason
                text = str(getattr(exc, "orig", None) or exc).strip().splitlines()
                rejected.append(Rejection(tpl, f"fails on the database: {text[0] if text else exc}"))
                continue
        accepted.append(parsed)
    return accepted, rejected
