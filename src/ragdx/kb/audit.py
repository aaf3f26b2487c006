"""Coverage audit: which of the database's facts the user's corpus states, before any RAG run.

Per table and column, the share of facts (``Table.Column@key``) a passage of the corpus states
(the same rules as evidence linking, :mod:`ragdx.kb.link`), with examples of the missing ones and
the templates or records that need them. A fact the corpus does not state can only be answered
from the model's own knowledge: this is GRAMMAR's Acc_retrieval_db ceiling without the language
model's noise.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ragdx.kb.link import FactResolver, Linker, PassageIndex
from ragdx.rag.corpus import Corpus

EXAMPLES = 5


@dataclass(slots=True)
class ColumnCoverage:
    table: str
    column: str
    facts: int = 0
    stated: int = 0
    #: facts with no value (NULL): nothing a document could state
    null: int = 0
    missing_examples: list[dict[str, Any]] = field(default_factory=list)
    #: SQL template ids (``--sql``) or record ids (``--dataset``) that need a fact of this column
    needed_by: list[str] = field(default_factory=list)
    #: needers of the missing facts shown, fact → ids
    missing_needed_by: dict[str, list[str]] = field(default_factory=dict)

    @property
    def share(self) -> float | None:
        return self.stated / self.facts if self.facts else None


@dataclass(slots=True)
class Audit:
    corpus: str | None
    documents: int
    passages: int
    columns: list[ColumnCoverage]
    sampled: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        total = sum(c.facts for c in self.columns)
        stated = sum(c.stated for c in self.columns)
        return {"corpus": self.corpus, "documents": self.documents, "passages": self.passages,
                "facts": total, "stated": stated, "share": stated / total if total else None,
                "sampled_rows": self.sampled,
                "columns": [{**asdict(c), "share": c.share} for c in self.columns]}


def audit_corpus(engine, schema, corpus: Corpus, *, templates: Sequence | None = None,
                 records: Sequence | None = None, aliases: Mapping[str, Sequence[str]] | None = None,
                 max_rows: int = 5000, seed: int = 0, progress=None) -> Audit:
    """Audit every (table, column) fact of the database against ``corpus``.

    ``templates`` (parsed SQL templates) restrict the audit to the columns they rest on and say
    which template needs each; ``records`` (a dataset) restrict it to the facts the records need
    and say which records need each missing fact. Tables larger than ``max_rows`` are sampled
    (seeded), and the sample size is reported."""
    from ragdx.gen.sql_templates import entity_key, is_surrogate

    index = PassageIndex(corpus)
    resolver = FactResolver(engine, schema, aliases)
    linker = Linker(index, table_names=resolver.table_names)
    linker.prepare(resolver)
    needers: dict[tuple[str, str], set[str]] = defaultdict(set)
    fact_needers: dict[str, set[str]] = defaultdict(set)
    wanted: dict[str, list[str]] | None = None
    if records is not None:
        wanted = defaultdict(list)
        for r in records:
            for f in r.facts:
                col = f.partition("@")[0]
                t, _, c = col.partition(".")
                if f not in fact_needers:
                    wanted[col].append(f)
                fact_needers[f].add(r.id)
                needers[(t, c)].add(r.id)
    elif templates is not None:
        for p in templates:
            for _, table, column in p.fact_columns:
                needers[(table, column)].add(p.id)
    columns: list[ColumnCoverage] = []
    sampled: dict[str, int] = {}
    targets: list[tuple[str, str]] = []
    if wanted is not None:
        targets = sorted({(k.partition(".")[0], k.partition(".")[2]) for k in wanted})
    else:
        for table in schema.tables.values():
            for col in table.columns:
                if templates is not None and (table.name, col.name) not in needers:
                    continue
                if col.name in entity_key(table) and table.foreign_key_of(col.name) is None:
                    continue
                if is_surrogate(table, col.name) and table.foreign_key_of(col.name) is None:
                    continue
                targets.append((table.name, col.name))
    for table, column in targets:
        cov = ColumnCoverage(table, column, needed_by=sorted(needers.get((table, column), ()))[:50])
        if wanted is not None:
            facts = wanted[f"{table}.{column}"]
        else:
            keys = sorted(resolver.rows(table))
            if len(keys) > max_rows:
                keys = sorted(random.Random(f"{seed}:{table}").sample(keys, max_rows))
                sampled[table] = max_rows
            facts = [f"{table}.{column}@{k}" for k in keys]
        for fact in facts:
            hop = resolver.hop(fact)
            if hop is None or hop.identity:
                continue
            if not hop.value:
                cov.null += 1
                continue
            cov.facts += 1
            result = linker.link(hop)
            if result.docs:
                cov.stated += 1
            elif len(cov.missing_examples) < EXAMPLES:
                key = fact.partition("@")[2]
                row = resolver.rows(table).get(key, {})
                cov.missing_examples.append({"fact": fact, "entity": key, "value": _plain(row.get(column))})
                if fact_needers.get(fact):
                    cov.missing_needed_by[fact] = sorted(fact_needers[fact])[:10]
        if cov.facts or cov.null:
            columns.append(cov)
        if progress:
            progress()
    return Audit(corpus.source, len(corpus), len(index.passages), columns, sampled)


def _plain(value: Any) -> Any:
    from ragdx.gen.dataset import json_value

    return json_value(value)


def audit_markdown(audit: Audit | Mapping[str, Any]) -> str:
    """The audit as Markdown (a section of the report, or ``audit.md``)."""
    data = audit.to_dict() if isinstance(audit, Audit) else dict(audit)
    share = data.get("share")
    lines = ["## Knowledge-base coverage", "",
             f"Corpus `{data.get('corpus')}`: {data['documents']} documents, {data['passages']} passages. "
             f"It states **{data['stated']} of {data['facts']}** database facts"
             + (f" ({share:.0%})." if share is not None else "."),
             "A fact it does not state can only be answered from the model's own knowledge.", ""]
    if data.get("sampled_rows"):
        lines += ["Sampled rows: " + ", ".join(f"{t} {n}" for t, n in data["sampled_rows"].items()), ""]
    lines += ["| table | column | facts | stated | share | NULL | missing (examples) | needed by |",
              "|---|---|---:|---:|---:|---:|---|---|"]
    for c in data["columns"]:
        miss = "; ".join(f"{_md(e['entity'])} = {_md(e['value'])}" for e in c["missing_examples"][:3])
        s = c["share"]
        need = ", ".join(c["needed_by"][:3]) + (" …" if len(c["needed_by"]) > 3 else "")
        lines.append(f"| {_md(c['table'])} | {_md(c['column'])} | {c['facts']} | {c['stated']} | "
                     f"{'–' if s is None else f'{s:.0%}'} | {c['null']} | {miss or '–'} | {need or '–'} |")
    needy = [(c, f, ids) for c in data["columns"] for f, ids in c.get("missing_needed_by", {}).items()]
    if needy:
        lines += ["", "Records that need a missing fact (first ones):", ""]
        for _c, fact, ids in needy[:20]:
            lines.append(f"- `{_md(fact)}`: {', '.join(ids[:5])}" + (" …" if len(ids) > 5 else ""))
    return "\n".join(lines) + "\n"


def _md(value: Any) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def write_audit(audit: Audit, out: str | Path, *, overwrite: bool = False) -> Path:
    """``audit.json`` and ``audit.md`` in ``out``, written together or not at all."""
    from ragdx.store import staged_directory, write_json

    with staged_directory(out, overwrite=overwrite) as stage:
        write_json(stage / "audit.json", audit.to_dict())
        (stage / "audit.md").write_text(audit_markdown(audit), encoding="utf-8")
    return Path(out)
