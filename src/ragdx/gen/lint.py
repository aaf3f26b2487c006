"""Warnings about templates whose questions are not worth asking (``ragdx gen --stats``).

A template can be valid SQL and still make a poor test: every group has the same answer (a
country column holding one country), most of its answers were NULL, or its answers look like
binary data (hex dumps, images stored as text). These are measured on the dataset just built.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ragdx.gen.qa import AnswerCounts

#: a template is NULL-heavy when more than this share of its answered combinations were NULL
NULL_HEAVY = 0.5
_HEX = re.compile(r"^(?:0x)?[0-9a-fA-F]{64,}$")
_BASE64 = re.compile(r"^[A-Za-z0-9+/]{120,}={0,2}$")


@dataclass(slots=True)
class TemplateLint:
    template_id: str
    sql: str
    warnings: list[str] = field(default_factory=list)


@dataclass(slots=True)
class LintSummary:
    constant: int = 0
    null_heavy: int = 0
    binary: int = 0
    templates: list[TemplateLint] = field(default_factory=list)
    #: templates that ask for what the default templates leave out (a contact detail, long free
    #: text, a 0/1 flag, a code): written by hand or by an LLM, they are said, not dropped
    not_worth_asking: int = 0


def looks_binary(value) -> bool:
    if isinstance(value, bytes | bytearray | memoryview):
        return True
    if not isinstance(value, str):
        return False
    return bool(_HEX.match(value) or _BASE64.match(value)) or "\x00" in value


def lint(records: Sequence, counts: Mapping[str, AnswerCounts], sql_of: Mapping[str, str],
         binary_templates: Sequence[str] = (), left_out: Mapping[str, str] | None = None) -> LintSummary:
    """Constant, NULL-heavy and binary-candidate templates. ``binary_templates`` are the ids of
    templates that project a binary column (known from the schema before any answer);
    ``left_out`` says, by template id, which projected column the defaults would not ask about
    and why (:func:`left_out_projections`)."""
    left_out = left_out or {}
    answers: dict[str, set[str]] = defaultdict(set)
    groups: dict[str, set[str]] = defaultdict(set)
    binary: set[str] = set(binary_templates)
    for r in records:
        answers[r.sql_template_id].add(r.answer_text)
        groups[r.sql_template_id].add(r.group_id)
        if any(looks_binary(v) for row in r.answer_rows for v in row):
            binary.add(r.sql_template_id)
    summary = LintSummary()
    for tid in sorted(set(sql_of)):
        item = TemplateLint(tid, sql_of[tid])
        if len(groups.get(tid, ())) >= 2 and len(answers[tid]) == 1:
            item.warnings.append(f"constant: all {len(groups[tid])} groups have the answer "
                                 f"'{next(iter(answers[tid]))[:40]}'")
            summary.constant += 1
        c = counts.get(tid)
        if c is not None:
            # null_answers counts NULL rows as they come; the other two what the policy did
            nulls = max(c.null_answers, c.null_dropped + c.null_unanswerable)
            answered = c.single + c.multi_kept + c.null_dropped + c.null_unanswerable
            if answered and nulls / answered > NULL_HEAVY:
                item.warnings.append(f"NULL-heavy: {nulls} of {answered} answers are NULL")
                summary.null_heavy += 1
        if tid in binary:
            item.warnings.append("binary candidate: answers look like binary data")
            summary.binary += 1
        if tid in left_out:
            item.warnings.append(f"not worth asking: {left_out[tid]} (ragdx's own templates leave it out)")
            summary.not_worth_asking += 1
        if item.warnings:
            summary.templates.append(item)
    return summary


def binary_projections(parsed: Sequence, schema) -> list[str]:
    """Ids of templates that project a binary column."""
    from ragdx.gen.values import output_kinds

    return [p.id for p in parsed if any(k and k[0] == "binary" for k in output_kinds(p, schema))]


def left_out_projections(parsed: Sequence, schema) -> dict[str, str]:
    """By template id, the first projected column that the default templates leave out and why
    ("Staff.Email: contact detail"), for templates written by hand or by an LLM; a column named
    under ``ask:`` in ragdx.yaml is not reported."""
    from ragdx.gen.sql_templates import left_out_reason

    out: dict[str, str] = {}
    for p in parsed:
        for target in p.semantics.targets:
            if not schema.has_table(target.table) or not schema.table(target.table).has_column(target.column):
                continue  # "*" or an alias the schema does not know by that name
            table = schema.table(target.table)
            why = left_out_reason(table, target.column) if table.rows else None
            if why:
                out[p.id] = f"{table.name}.{table.column(target.column).name}: {why}"
                break
    return out
