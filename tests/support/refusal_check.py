"""Refusal records checked against SQL written here, by hand, not by ragdx (issue 26 item 1).

The truth each kind claims is re-established from the database alone, through SQLAlchemy with
bound values (never ragdx's templates or its own queries):

* false_premise: the presupposed value is the one the refusal changed from its partner; the row
  the other values name is looked up: exactly one row, its value differs (case-insensitively)
  from the presupposed one, no row has both, and ``answer_text`` is the row's value;
* absent_entity: no value of the column equals the name case-insensitively (compared in Python
  over every value, so no collation can hide a match), the partner's name is in the column and
  one or two edits away;
* ambiguous_reference: the rows whose name is the reference or starts or ends with it as whole
  words are two or more, and their answers (for a one-table template: the answer columns read by
  hand; for a joined one: the candidates recorded, each name among the matched rows) differ;
* out_of_domain: no SQL, no template, and no table of the database named in the question;
* omitted_fact: a fact rests on a column or table the knowledge base's manifest omits, the
  answer and the named row never stand in one sentence of it, and the database holds the answer.

Pairing: each refusal group's partner (``group_id`` before ``~``) is an answerable group of the
dataset, no partner serves two refusals, and each style has as many refusal records as partner
records; a partner of the first three kinds is the same SQL template.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path

import sqlalchemy as sa


def _edits(a: str, b: str) -> int:
    """Levenshtein distance, counting a swap of neighbours as one edit."""
    d = [[max(i, j) if not i or not j else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[-1][-1]


class Checker:
    def __init__(self, url: str, kb_dir: Path | None = None):
        self.engine = sa.create_engine(url)
        self.q = self.engine.dialect.identifier_preparer.quote
        self.tables = {t.lower(): t for t in sa.inspect(self.engine).get_table_names()}
        self.kb_dir = kb_dir

    def rows(self, sql: str, **params) -> list[tuple]:
        with self.engine.connect() as conn:
            return [tuple(r) for r in conn.execute(sa.text(sql), params)]

    def column_values(self, table: str, column: str) -> list:
        return [r[0] for r in self.rows(f"SELECT {self.q(column)} FROM {self.q(table)}")]

    def where(self, params: dict) -> tuple[str, dict]:
        conds = " AND ".join(f"{self.q(k.split('.')[1])} = :p{i}" for i, k in enumerate(params))
        return conds, {f"p{i}": v for i, v in enumerate(params.values())}

    # ------------------------------------------------------------------------- per kind

    def false_premise(self, r, partner) -> str | None:
        (key,) = [k for k in r.params if r.params[k] != partner.params[k]]
        table, column = key.split(".")
        rest = {k: v for k, v in r.params.items() if k != key}
        conds, bound = self.where(rest)
        found = self.rows(f"SELECT {self.q(column)} FROM {self.q(table)} WHERE {conds}", **bound)
        if len(found) != 1:
            return f"{len(found)} rows named by {rest}"
        truth = found[0][0]
        if str(truth).casefold() == str(r.params[key]).casefold():
            return f"premise {r.params[key]!r} is the row's value"
        both = self.rows(f"SELECT COUNT(*) FROM {self.q(table)} WHERE {conds} AND {self.q(column)} = :false",
                         false=r.params[key], **bound)[0][0]
        if both:
            return "a row has the presupposed value"
        return None if r.answer_text == str(truth) else f"answer {r.answer_text!r}, the row says {truth!r}"

    def absent_entity(self, r, partner) -> str | None:
        (key,) = [k for k in r.params if r.params[k] != partner.params[k]]
        table, column = key.split(".")
        values = self.column_values(table, column)
        name, real = r.params[key], partner.params[key]
        if any(isinstance(v, str) and v.casefold() == name.casefold() for v in values):
            return f"{name!r} is in {key}"
        if real not in values:
            return f"the partner's {real!r} is not in {key}"
        return None if 1 <= _edits(name, real) <= 2 else f"{name!r} is not a near miss of {real!r}"

    def ambiguous_reference(self, r, partner) -> str | None:
        ((key, ref),) = r.params.items()
        table, column = key.split(".")
        values = [v for v in self.column_values(table, column) if isinstance(v, str)]
        matched = [v for v in values if v == ref or v.startswith(ref + " ") or v.endswith(" " + ref)]
        if len(matched) < 2:
            return f"{ref!r} matches {len(matched)} rows"
        cols = r.answer_columns[1:]
        have = {c.lower() for c in (x["name"] for x in sa.inspect(self.engine).get_columns(table))}
        if all(c.lower() in have for c in cols):  # a one-table look-up: the answers read by hand
            picked = ", ".join(self.q(c) for c in cols)
            answers = {row for v in set(matched)
                       for row in self.rows(f"SELECT {picked} FROM {self.q(table)} WHERE {self.q(column)} = :v", v=v)}
        else:
            if any(c[0] not in matched for c in r.answer_rows):
                return "a candidate is not among the matched rows"
            answers = {tuple(c[1:]) for c in r.answer_rows}
        return None if len(answers) >= 2 else f"{ref!r}: every row gives the same answer"

    def out_of_domain(self, r, partner) -> str | None:
        if r.sql or r.sql_template_id or r.params:
            return "has SQL"
        words = set(re.findall(r"[a-z]+", r.query.lower()))
        named = [t for t in self.tables if t in words or t.rstrip("s") in words]
        return f"names table {named}" if named else None

    def omitted_fact(self, r, partner) -> str | None:
        omitted = set(json.loads((self.kb_dir / "manifest.json").read_text())["omitted"])
        left_out = [f for f in r.facts if f.split("@")[0] in omitted or f.split(".")[0] in omitted]
        if not left_out:
            return "no fact the knowledge base omits"
        lines = (self.kb_dir / "documents.jsonl").read_text(encoding="utf-8").splitlines()
        docs = [json.loads(line) for line in lines if line.strip()]
        # no sentence names both the row asked about and the answer (a number such as 120 may
        # well stand elsewhere, for another fact; a person's name stands in their own document)
        words = [re.compile(rf"(?<!\w){re.escape(str(v))}(?!\w)") for v in [r.answer_text, *r.params.values()]]
        sentences = [x for d in docs for x in re.split(r"(?<=[.!?])\s+", d["text"])]
        if any(all(w.search(x) for w in words) for x in sentences):
            return f"{r.answer_text!r} is stated with {list(r.params.values())} in the knowledge base"
        held = {str(v) for row in self.stated(r) for v in row}
        return None if r.answer_text in held else f"the database does not hold {r.answer_text!r}"

    def stated(self, r) -> list[tuple]:
        """The rows the fact's own column holds for the named row (one-table look-ups) or the rows
        of the record's displayed query (joins): the database has the answer."""
        table, column = r.facts[0].split("@")[0].split(".")
        if all(k.split(".")[0] == table for k in r.params) and column in r.answer_columns:
            conds, bound = self.where(r.params)
            return self.rows(f"SELECT {self.q(column)} FROM {self.q(table)} WHERE {conds}", **bound)
        with self.engine.connect() as conn:
            return [tuple(x) for x in conn.exec_driver_sql(r.sql)]


def check(records: Sequence, url: str, kb_dir: Path | None = None) -> tuple[Counter, list[str]]:
    """(refusal groups per kind, problems): every refusal group checked by hand-written SQL and
    its pairing checked."""
    checker = Checker(url, kb_dir)
    groups: dict[str, list] = defaultdict(list)
    for r in records:
        groups[r.group_id].append(r)
    counts: Counter = Counter()
    problems: list[str] = []
    partners_used: Counter = Counter()
    for gid, rs in groups.items():
        kind = rs[0].refusal_kind
        if not kind:
            continue
        counts[kind] += 1
        partner_gid = gid.partition("~")[0]
        partners_used[partner_gid] += 1
        partner = groups.get(partner_gid)
        if not partner or partner[0].refusal_kind or gid != f"{partner_gid}~{kind}":
            problems.append(f"{gid}: no answerable partner")
            continue
        if Counter(r.style for r in rs) != Counter(r.style for r in partner):
            problems.append(f"{gid}: not one refusal record per partner record in every style")
        if kind in ("false_premise", "absent_entity", "ambiguous_reference") \
                and rs[0].sql_template_id != partner[0].sql_template_id:
            problems.append(f"{gid}: partner of another template")
        why = getattr(checker, kind)(rs[0], partner[0])
        if why:
            problems.append(f"{gid} {kind}: {why} ({rs[0].query})")
    problems += [f"{p}: partner of {n} refusals" for p, n in partners_used.items() if n > 1]
    checker.engine.dispose()
    return counts, problems
