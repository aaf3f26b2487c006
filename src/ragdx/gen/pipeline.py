"""The GRAMMAR-Gen stages as plain functions: what the CLI and ``ragdx demo`` call.

schema → SQL templates (file) → text templates (file) → dataset directory. Each stage reads the
previous stage's file, so a person can stop, edit a file, and go on (App. B.2).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine

from ragdx.db.schema import Schema
from ragdx.errors import RagdxError, TemplateError
from ragdx.gen.columnar import RecordColumns, RecordSet, build_columns
from ragdx.gen.dataset import (
    QARecord,
    answer_text,
    day_word,
    label_word,
    labelled,
    sample_balanced,
    sample_unbalanced,
    value_text,
    write_dataset,
)
from ragdx.gen.qa import AnswerCounts, AnswerOptions, answer_template
from ragdx.gen.refusals import RefusalPlan, add_refusals, make_refusals
from ragdx.gen.sql_templates import (
    ParsedTemplate,
    SqlTemplate,
    llm_templates,
    merge_into_file,
    read_templates,
    schema_templates,
)
from ragdx.gen.text_templates import (
    TextRejection,
    balance,
    generate_text_templates,
    merge_text_file,
    read_text_templates,
)
from ragdx.gen.validate import Rejection, validate_templates
from ragdx.store import gc_paused

Progress = Callable[[], None] | None


@dataclass(slots=True)
class SqlStageResult:
    added_schemas: list[str]
    accepted: list[ParsedTemplate]
    rejected: list[Rejection]
    skipped_schemas: list[str] = field(default_factory=list)
    #: target schemas whose LLM call failed after its retries ("schema: error"); asked again next run
    failed: list[str] = field(default_factory=list)
    #: derived templates (``--also-derive``) that repeat an imported one: not errors, not kept twice
    already_imported: list[SqlTemplate] = field(default_factory=list)


# ----------------------------------------------------------------------------- the database


def _declare_names(schema, names, source) -> None:
    """ragdx.yaml's ``names:`` for this database, each name checked against the schema (a typo is
    an error, never a silently ignored noun); without it, the derived nouns (a previous project's
    words must not carry over)."""
    from ragdx.config import DEFAULT_CONFIG
    from ragdx.db.schema import shared_table_prefix
    from ragdx.gen.naming import declare_names, declare_schema_words

    # this database's own words first (its tables' shared prefix, its columns' shared stems), so
    # that nothing of the previous database's is taken up
    declare_schema_words({t.name: [c.name for c in t.columns] for t in schema.tables.values()},
                         shared_table_prefix(schema))
    if names is None:
        declare_names()
        return
    columns = {c.name.lower() for t in schema.tables.values() for c in t.columns}
    fks = {col.lower() for t in schema.tables.values() for fk in t.foreign_keys for col in fk.columns}
    tables = {t.lower() for t in schema.tables}
    for kind, known, what in (("tables", tables, "table"), ("columns", columns, "column"),
                              ("relations", fks, "foreign-key column")):
        for name in getattr(names, kind):
            if name.lower() not in known:
                raise TemplateError(f"no {what} '{name}' in the database", source=str(source or DEFAULT_CONFIG),
                                    field=f"names.{kind}.{name}")
    declare_names(names.tables, names.columns, names.relations)


def open_database(url: str, cfg=None):
    """A read-only engine and the schema measured from it, with what ragdx.yaml declares of it
    (``keys:``, ``names:``, ``ask:``): the one place both the commands and
    :func:`ragdx.generate_dataset` open a database, so both ask the same questions."""
    from ragdx.db import connect, inspect_schema

    engine = connect(url, read_only=True)
    try:
        schema = inspect_schema(engine)
        _declare_schema(schema, cfg)
    except BaseException:
        engine.dispose()
        raise
    return engine, schema


def _declare_schema(schema: Schema, cfg) -> None:
    if cfg is not None and cfg.keys:
        # look-up keys declared in ragdx.yaml override the inferred ones
        from ragdx.config import DEFAULT_CONFIG

        schema.declare_keys(cfg.keys, source=str(getattr(cfg, "source", None) or DEFAULT_CONFIG))
    _declare_names(schema, getattr(cfg, "names", None), getattr(cfg, "source", None))
    if cfg is not None and getattr(cfg, "ask", None):
        from ragdx.config import DEFAULT_CONFIG

        schema.declare_asked(cfg.ask, source=str(getattr(cfg, "source", None) or DEFAULT_CONFIG))


def sql_stage(engine: Engine, schema: Schema, out: Path, *, method: str = "schema", llm=None,
              targets: Sequence[Sequence[str]] = (), requirements: Sequence[str] = (),
              imports: Sequence[Path] = (), derive: bool | None = None) -> SqlStageResult:
    """Generate templates for target schemas the file lacks, validate them (parse + execute on
    a sample) and append only the valid ones. ``imports`` are template files to merge in (the
    GRAMMAR reference's JSON among them), validated like everything else.

    With ``imports`` the imported set is kept exactly: templates are derived (``method``) only
    when ``derive`` is True. Deriving beside an import used to add a dozen schema templates to a
    paper's ten and report the derived duplicates as "rejected", which read as the paper's own."""
    existing = read_templates(out) if out.exists() else []
    have = {t.schema.lower() for t in existing}
    candidates: list[SqlTemplate] = []
    failed: list[str] = []
    for path in imports:
        candidates += read_templates(path)
    if derive is None:
        derive = not imports
    if not derive:
        pass
    elif method == "schema":
        candidates += schema_templates(schema)
    elif method == "llm":
        if llm is None:
            raise RagdxError("method 'llm' needs an 'llm:' section in ragdx.yaml", field="llm")
        from ragdx.llm import run_sync

        tables = [list(t) for t in targets] or [[name] for name in schema.tables]
        todo = [t for t in tables if ",".join(schema.table(x).name for x in t).lower() not in have]

        async def ask(target):
            from ragdx.errors import LLMError

            try:
                return await llm_templates(llm, schema, target, requirements)
            except LLMError as exc:
                # one target's failed call must not lose the others' templates: recorded, and
                # since its schema is not added to the file, the next run asks again
                failed.append(f"{','.join(target)}: {exc.message}")
                return []

        async def ask_all():
            import asyncio

            return await asyncio.gather(*(ask(t) for t in todo))

        for batch in run_sync(ask_all()):
            candidates += batch
    else:
        raise TemplateError(f"unknown method '{method}' (schema or llm)", field="method")
    skipped = sorted({t.schema for t in candidates if t.schema.lower() in have})
    fresh = [t for t in candidates if t.schema.lower() not in have]
    accepted, rejected = validate_templates(fresh, schema, engine)
    # imports come first, so a derived template equal to an imported one is the duplicate: it was
    # reported as "rejected", which read as if the paper's own template had been refused
    imported_ids = {t.id for path in imports for t in read_templates(path)} if imports else set()
    repeats = [r.template for r in rejected if r.template.id in imported_ids and r.reason.startswith("duplicate")]
    rejected = [r for r in rejected if not (r.template.id in imported_ids and r.reason.startswith("duplicate"))]
    added = merge_into_file(out, [p.template for p in accepted]) if accepted else []
    if not out.exists():
        merge_into_file(out, [])
    return SqlStageResult(added, accepted, rejected, skipped, failed, repeats)


def load_parsed(path: Path, schema: Schema, engine: Engine | None = None
                ) -> tuple[list[ParsedTemplate], list[Rejection]]:
    return validate_templates(read_templates(path), schema, engine)


@dataclass(slots=True)
class TextStageResult:
    added_pairs: int
    rejected: list[TextRejection]
    errors: list[str]


def text_stage(parsed: Sequence[ParsedTemplate], out: Path, styles: Sequence[str], n: int, *,
               method: str = "rules", llm=None, custom_styles: Mapping[str, str] | None = None,
               imports: Sequence[Path] = (), progress: Progress = None) -> TextStageResult:
    existing = read_text_templates(out) if out.exists() else []
    imported = [t for path in imports for t in read_text_templates(path)]
    have = {(t.sql_template_id, t.style) for t in existing + imported}
    by_id = {p.id: p for p in parsed}
    # imported phrasings are validated like generated ones before they are kept
    valid_imports, problems = balance(imported, by_id, n)
    generated, rejected, errors = generate_text_templates(
        parsed, styles, n, method=method, llm=llm, custom_styles=custom_styles, skip=have,
        progress=progress)
    errors = problems + errors
    keep = [t for items in valid_imports.values() for t in items] + generated
    added = merge_text_file(out, keep)
    return TextStageResult(added, rejected, errors)


@dataclass(slots=True)
class GenResult:
    #: a :class:`~ragdx.gen.columnar.RecordSet` as built (records held as columns until read as
    #: objects), a list once sampled or linked
    records: Sequence[QARecord]
    counts: dict[str, AnswerCounts]
    text_problems: list[str]
    missing_text: list[str]
    #: refusal groups made, per kind (``ragdx.gen.refusals``); empty when none were asked for
    refusal_counts: dict[str, int] = field(default_factory=dict)
    #: conversations asked per walk of the schema's relations (``ragdx.gen.conversations``; 0: none)
    conversations: int = 0


@gc_paused()  # millions of records, groups and values, none in a cycle: see ragdx.store.gc_paused
def build_dataset(engine: Engine, schema: Schema, parsed: Sequence[ParsedTemplate],
                  text_templates: Sequence, styles: Sequence[str] | None, n: int,
                  options: AnswerOptions, *, kb_facts: Mapping[str, list[str]] | None = None,
                  per_group: int | None = None, unbalanced: bool = False,
                  progress: Progress = None, conversations: int = 0, refusals: RefusalPlan | None = None,
                  kinds: Sequence[str] = ("lookup",)) -> GenResult:
    """Answer every template and pair each semantic group with its text templates; with
    ``conversations``, that many multi-turn conversations per walk of the schema's relations
    follow (:mod:`ragdx.gen.conversations`; never sampled: a sample would cut turns out). With
    ``refusals``, questions to decline follow the sample, each with its answerable partner
    (:mod:`ragdx.gen.refusals`; not sampled either: a sample would break the pairs). ``kinds``:
    the question kinds to ask (:data:`ragdx.gen.kinds.QUESTION_KINDS`); ``lookup`` are the
    templates' own, the others follow (:mod:`ragdx.gen.kinds`, one text per style: nothing to sample)."""
    by_id = {p.id: p for p in parsed}
    texts, problems = balance(text_templates, by_id, n)
    wanted = list(styles) if styles else sorted({s for _, s in texts})
    missing = [f"{p.template.sql} [{s}]" for p in parsed for s in wanted if (p.id, s) not in texts]
    collected = RecordSet()
    records: Sequence[QARecord] = collected
    counts: dict[str, AnswerCounts] = {}
    for p in parsed if "lookup" in kinds else ():
        per_style = {s: texts[(p.id, s)] for s in wanted if (p.id, s) in texts}
        answers = answer_template(engine, p, schema, options, columns=True)
        counts[p.id] = answers.counts
        if per_style:
            collected.append(_worded_labels(p, build_columns(p, answers.groups, per_style, kb_facts)))
        if progress:
            progress()
    if per_group:
        records = sample_balanced(records, per_group, options.seed)
    if unbalanced:
        records = sample_unbalanced(records, options.seed)
    if any(k != "lookup" for k in kinds):
        from ragdx.gen.kinds import kind_records

        asked, kind_counts = kind_records(engine, schema, kinds, wanted or None, options.max_groups_per_template,
                                          options.seed, kb_facts)
        records, counts = [*records, *asked], {**counts, **kind_counts}
    if refusals is not None:
        made = make_refusals(engine, schema, parsed, texts, wanted, n, options, refusals, kb_facts)
        records = add_refusals(records, made)
    if conversations:
        from ragdx.gen.conversations import conversation_records

        records = [*records, *conversation_records(engine, schema, per_walk=conversations, seed=options.seed,
                                                   styles=wanted, kb_facts=kb_facts)]
    return GenResult(records, counts, problems, missing,
                     {k: made.counts.get(k, 0) for k in refusals.kinds} if refusals is not None else {},
                     conversations=conversations)


def manifest_for(schema: Schema, options: AnswerOptions, result: GenResult, extra: Mapping[str, Any]) -> dict:
    total = AnswerCounts()
    for c in result.counts.values():
        total.add(c)
    return {
        "schema_fingerprint": schema.fingerprint(),
        "dialect": schema.dialect,
        "options": {
            "max_groups_per_template": options.max_groups_per_template, "seed": options.seed,
            "multi_answer": options.multi_answer, "unanswerable": options.unanswerable,
            "method": options.method,
        },
        "answer_counts": {k: v for k, v in total.as_dict().items() if k != "method"},
        "per_template_counts": {k: v.as_dict() for k, v in result.counts.items()},
        "styles": sorted(result.records.styles() if isinstance(result.records, RecordSet)
                         else {r.style for r in result.records}),
        "missing_text_templates": result.missing_text,
        # written only when asked for: a dataset without refusals keeps its manifest as it was
        **({"refusal_groups": result.refusal_counts} if result.refusal_counts else {}),
        **({"conversations_per_walk": result.conversations} if result.conversations else {}),
        **extra,
    }


def write(out: Path, schema: Schema, options: AnswerOptions, result: GenResult, extra: Mapping[str, Any],
          *, overwrite: bool = False) -> Path:
    return write_dataset(out, result.records, manifest_for(schema, options, result, extra), overwrite=overwrite)


def _worded_labels(parsed: ParsedTemplate, chunk: RecordColumns) -> RecordColumns:
    """Labels the source writes in capitals ('GRASS') as people write them ("Grass"), in the answer
    texts and the questions (``ParsedTemplate.label_outputs``, ``label_placeholders``); the rows and
    the SQL keep the database's values (answers are compared without regard to case)."""
    if any(parsed.label_outputs):
        chunk.answer_texts = [answer_text(labelled(chunk.rows[g], parsed.label_outputs), chunk.answer_columns)
                              for g in range(len(chunk.group_ids))]
    places = [i for i, name in enumerate(chunk.placeholder_names) if name in parsed.label_placeholders]
    for i in places:
        for queries in chunk.queries:
            for g, value in enumerate(chunk.values[i]):
                if label_word(value) != value:
                    queries[g] = queries[g].replace(f"'{value}'", f"'{label_word(value)}'")
    # a date-time at midnight as its day ("6 September 2007"), wherever the text puts it (quoted or not)
    days = [i for i, name in enumerate(chunk.placeholder_names) if name in parsed.day_placeholders]
    for i in days:
        for queries in chunk.queries:
            for g, value in enumerate(chunk.values[i]):
                if day_word(value) != value:
                    queries[g] = queries[g].replace(value_text(value), day_word(value))
    return chunk

