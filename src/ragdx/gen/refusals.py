"""Questions a right reply declines (issue 26): each one established by executing SQL.

Five kinds, named in :data:`REFUSAL_KINDS` (``QARecord.refusal_kind``):

* ``false_premise``: the question presupposes a value of the named row that the database
  contradicts ("the office of the staff member 'Zoë Marchetti' with title 'Lecturer'" when her
  title is Dean). The text is the verbaliser's phrasing of the look-up with the premise as one
  more condition; a right reply corrects the premise, and ``answer_text`` holds the true value.
  Established: the premise query returns exactly one value for the row, and the look-up with the
  presupposed value returns no row (the database's own comparison decides "differs").
* ``absent_entity``: a near miss of a real name (two letters swapped, one letter changed) that no
  row has. Established: ``COUNT(*) ... WHERE LOWER(col) = LOWER(:name)`` is 0.
* ``ambiguous_reference``: a name two or more rows share, whole or as the words people shorten
  it to (a surname, a title's first words). Established: the rows the reference matches are two
  or more, and executing the template for each gives two or more different answers
  (``answer_rows`` holds the candidates: the matched name, then the answer).
* ``out_of_domain``: a question from a fixed list of topics outside any database of records
  (weather, sport results, recipes ...). How "no table can answer" is decided: a topic is used
  only when none of its keywords is a word of any table or column name of the schema (the
  schema's own vocabulary, :func:`ragdx.gen.naming.low_words`, singular and plural); a schema
  that has a ``Weather`` table never gets the weather topic.
* ``omitted_fact``: a look-up whose answer the database holds (SQL returns it) but whose fact the
  knowledge base was rendered without on purpose (``ragdx kb render --omit/--omit-table``, listed
  in the knowledge base's manifest) and states nowhere (absent from its fact index).

Balance and pairing: every refusal group is paired with one answerable group, and the pair is
visible in the ids: the refusal's ``group_id`` is ``<partner group_id>~<kind>`` (see
:func:`partner_group_id`), and it has exactly one record per text template of its partner, so a
system that always refuses scores no better on the pairs than one that never does. The partner is
the same SQL template with the real value (the real premise, the real unique name); for
``omitted_fact`` no group of the same template can be answerable (the column is left out for every
row), so its partner is the same row asked for a fact the knowledge base does state (a sibling
template with the same placeholders and values); for ``out_of_domain`` (no SQL template at all) it
is an answerable group of one of the table's templates. Partners are drawn without reuse, so no
answerable group stands for two refusals. The partner's records are those the dataset already has
(same ids), added when the sample left them out.

What a refusal record's answer fields hold: ``sql`` is the witness query that establishes it
(the premise's true value, the zero count, the rows a shared name matches, the look-up the
knowledge base cannot answer; empty for out of domain); ``answer_rows``/``answer_text`` what a
right reply may say: the true value (false premise), the candidates (ambiguous: matched name, then
answer), the database's answer (omitted fact, for reference), nothing (absent, out of domain).

Database values reach SQL only as bound parameters; literals appear only in the ``sql`` shown to
people (the witness query, concrete). Refusals of derived templates (false premise) are phrased
in the built-in styles only (the verbaliser); the others reuse the dataset's own text templates.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, cast

import sqlglot
from sqlalchemy import text as sql_text
from sqlalchemy.engine import Engine
from sqlglot import exp

from ragdx.db.dialect import NEUTRAL_GLOT, dialect_named
from ragdx.db.schema import Schema, TableInfo
from ragdx.errors import TemplateError
from ragdx.gen.dataset import QARecord, answer_text, build_records, document_ids, fill, group_id, json_value
from ragdx.gen.naming import low_words, plural_word, singular_word
from ragdx.gen.options import REFUSAL_KINDS
from ragdx.gen.qa import AnswerOptions, QAGroup, answer_template, placeholder_domains, run_per_combination
from ragdx.gen.sql_templates import PLACEHOLDER, ParsedTemplate, SqlTemplate, is_binary, is_surrogate, parse_template
from ragdx.gen.text_templates import TextTemplate, rules_templates
from ragdx.gen.verbalise import BUILTIN_STYLES

#: between a refusal's partner group id and its kind in the refusal's group id
PAIR_SEPARATOR = "~"


def partner_group_id(record: QARecord) -> str:
    """The answerable group a refusal record is paired with (a record to answer: its own group)."""
    return record.group_id.partition(PAIR_SEPARATOR)[0]


@dataclass(frozen=True, slots=True)
class RefusalPlan:
    """What to add: ``per_template`` refusal groups of each kind per SQL template (out-of-domain:
    per table), of ``kinds``; ``omitted``: what the knowledge base leaves out on purpose
    (``Table.Column`` and ``Table`` items, as its manifest lists them)."""

    per_template: int
    kinds: tuple[str, ...] = REFUSAL_KINDS
    omitted: tuple[str, ...] = ()


def refusal_plan(per_template: int, kinds: Sequence[str] | None = None,
                 omitted: Sequence[str] = ()) -> RefusalPlan | None:
    """The plan ``ragdx gen`` and ``generate_dataset`` carry out (None: no refusals asked for);
    ``omitted``: what the knowledge base leaves out on purpose (``ragdx.kb.render.omitted_in``)."""
    if not per_template:
        return None
    return RefusalPlan(per_template, tuple(kinds or REFUSAL_KINDS), tuple(omitted))


# ----------------------------------------------------------------------------- context


@dataclass(slots=True)
class _Made:
    """One refusal group and its answerable partner, both phrased by ``texts``' positions."""

    kind: str
    partner_template: ParsedTemplate
    partner: QAGroup
    partner_texts: dict[str, list[TextTemplate]]
    #: the template the refusal is phrased by (None: out of domain, phrased from its topic)
    template: ParsedTemplate | None
    texts: dict[str, list[TextTemplate]]
    params: tuple
    witness: str
    columns: list[str] = field(default_factory=list)
    rows: list[list[Any]] = field(default_factory=list)
    entities: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)


@dataclass(slots=True)
class _Ctx:
    engine: Engine
    schema: Schema
    plan: RefusalPlan
    answers: AnswerOptions
    kb_facts: Mapping[str, list[str]] | None
    styles: list[str]
    n: int
    #: partner groups taken so far: no answerable group stands for two refusals
    used: set[str] = field(default_factory=set)

    def quote(self, name: str) -> str:
        return self.engine.dialect.identifier_preparer.quote(name)

    def literal(self, value: Any) -> str:
        return dialect_named(self.schema.dialect).literal(value)

    def scalar_rows(self, sql: str, params: Mapping[str, Any]) -> list[tuple]:
        with self.engine.connect() as conn:
            return [tuple(r) for r in conn.execute(sql_text(sql), dict(params)).fetchall()]


def _one_table(p: ParsedTemplate) -> str | None:
    """The table every placeholder of ``p`` compares a column of (database spelling), or None."""
    tables = {p.compared[ph][0] for ph in p.placeholders}
    return tables.pop() if len(tables) == 1 else None


#: at most this many groups of a template are drawn to pick partners from
_POOL = 64


def _single_groups(ctx: _Ctx, p: ParsedTemplate) -> list[QAGroup]:
    """The template's answerable groups as the dataset draws them (same cap, seed and method,
    at most :data:`_POOL`; a group's id is the same in the dataset and here, so a partner the
    dataset has is not added twice): one row, not NULL."""
    cap = min(ctx.answers.max_groups_per_template or _POOL, _POOL)  # no second full pass over a big table
    opts = AnswerOptions(max_groups_per_template=cap, seed=ctx.answers.seed, method=ctx.answers.method,
                         null_answers="drop")
    groups = answer_template(ctx.engine, p, ctx.schema, opts).groups
    return [g for g in groups if len(g.rows) == 1 and any(v is not None for v in g.rows[0])]


# ----------------------------------------------------------------------------- absent entity


def near_misses(name: str, rng: random.Random) -> list[str]:
    """Names one edit from ``name`` a person could type for it: two neighbouring letters inside
    the name swapped, or one letter changed to another of its case; first and last letters kept,
    never only case, accents or spacing (a database's comparison may not tell those apart)."""
    spots = [i for i in range(1, len(name) - 1) if name[i].isascii() and name[i].isalpha()]
    out = []
    for i in spots:
        if i + 2 < len(name) and name[i + 1].isascii() and name[i + 1].isalpha() \
                and name[i].lower() != name[i + 1].lower():
            out.append(name[:i] + name[i + 1] + name[i] + name[i + 2:])
    for i in spots:
        pool = "aeiou" if name[i].lower() in "aeiou" else "bcdfghklmnprstvz"
        other = rng.choice([c for c in pool if c != name[i].lower()])
        out.append(name[:i] + (other.upper() if name[i].isupper() else other) + name[i + 1:])
    rng.shuffle(out)
    return out


def _absent(ctx: _Ctx, p: ParsedTemplate, g: QAGroup, texts, rng: random.Random) -> _Made | None:
    kinds = p.semantics.condition_kinds
    spots = [i for i, ph in enumerate(p.placeholders)
             if (kinds[i] if i < len(kinds) else "") == "text" and isinstance(g.params[i], str)]
    if not spots:
        return None
    i = spots[0]
    table, column = p.compared[p.placeholders[i]]
    sql = f"SELECT COUNT(*) FROM {ctx.quote(table)} WHERE LOWER({ctx.quote(column)}) = LOWER(:name)"
    for miss in near_misses(g.params[i], rng)[:6]:
        if ctx.scalar_rows(sql, {"name": miss})[0][0] == 0:
            params = g.params[:i] + (miss,) + g.params[i + 1:]
            witness = sql.replace(":name", ctx.literal(miss))
            return _Made("absent_entity", p, g, texts, p, texts, params, witness)
    return None


# ----------------------------------------------------------------------------- ambiguous reference

_LINK_WORDS = frozenset({"in", "of", "and", "the", "for", "to", "on", "at", "a", "an", "&", "-", "–", "with"})
#: a company's legal form: shared by many names, never what a person shortens one to
_LEGAL_FORMS = frozenset({"ltd", "inc", "co", "corp", "llc", "plc", "gmbh", "ag", "kg", "ab", "hb", "as", "sa",
                          "sas", "sarl", "srl", "spa", "bv", "nv", "oy", "pty", "lda", "kft", "sp"})


def _shortening(words: Sequence[str]) -> bool:
    """Whether ``words`` can stand for a name: three letters or more, every word made of
    letters (apostrophes and hyphens allowed: "D'Arcy"; so no LIKE wildcard either), four letters
    or more for one word, no legal form ("Ltd.") alone."""
    bare = [w.replace("'", "").replace("-", "").replace("’", "") for w in words]
    # one short word ("New" of New England and New Orleans) names nothing by itself
    if not all(b.isalpha() for b in bare) or sum(len(b) for b in bare) < (4 if len(bare) == 1 else 3):
        return False
    return not (len(bare) == 1 and bare[0].lower() in _LEGAL_FORMS)


def shortened_references(values: Sequence[str]) -> list[str]:
    """Words people shorten names to that two or more of ``values`` share: a last word (a
    surname) or first words (a title's head, "Principles" of two courses), without trailing
    link words ("Master", not "Master in"), never a whole value, nor a code or a short word.
    Longest first: the more a shortening says, the more natural it reads."""
    whole = {v.casefold() for v in values}
    counts: Counter = Counter()
    for v in values:
        words = v.split()
        cands = {" ".join(words[-1:])} if len(words) > 1 else set()
        for k in range(1, len(words)):
            head = words[:k]
            while head and head[-1].lower() in _LINK_WORDS:
                head = head[:-1]
            if head:
                cands.add(" ".join(head))
        counts.update(c for c in cands if _shortening(c.split()) and c.casefold() not in whole)
    shared = [c for c, k in counts.items() if k >= 2]
    return sorted(shared, key=lambda c: (-len(c.split()), c))


def _matching_rows(ctx: _Ctx, table: str, column: str, ref: str) -> tuple[str, list[tuple]]:
    """Rows whose name is ``ref`` or starts or ends with it as whole words (SQL, bound values)."""
    c = ctx.quote(column)
    # '!' escapes LIKE's wildcards the same way on every engine (a shared name may hold '%' or '_')
    sql = (f"SELECT {c} FROM {ctx.quote(table)} WHERE {c} = :ref OR {c} LIKE :head ESCAPE '!' "
           f"OR {c} LIKE :tail ESCAPE '!'")
    literal = ref.replace("!", "!!").replace("%", "!%").replace("_", "!_")
    params = {"ref": ref, "head": literal + " %", "tail": "% " + literal}
    witness = sql
    for name, value in params.items():
        witness = witness.replace(f":{name}", ctx.literal(value))
    return witness, ctx.scalar_rows(sql, params)


def _ambiguous_candidates(ctx: _Ctx, p: ParsedTemplate) -> list[str]:
    table, column = p.compared[p.placeholders[0]]
    values = [v for v in placeholder_domains(ctx.engine, p)[0] if isinstance(v, str)]
    # "the faculty 'Faculty'": a shortening made of the schema's own words names no row
    vocabulary = schema_words(ctx.schema)
    short = [r for r in shortened_references(values) if not {w.casefold() for w in r.split()} <= vocabulary]
    return _shared_values(ctx, table, column) + short


def _shared_values(ctx: _Ctx, table: str, column: str) -> list[str]:
    """Names two or more rows have, the most shared first (then by name: the same on every engine)."""
    q = ctx.quote(column)
    shared = ctx.scalar_rows(f"SELECT {q}, COUNT(*) FROM {ctx.quote(table)} WHERE {q} IS NOT NULL GROUP BY {q} "
                             f"HAVING COUNT(*) >= 2", {})
    return [v for v, _ in sorted(((v, k) for v, k in shared if isinstance(v, str)), key=lambda x: (-x[1], x[0]))]


def _ambiguous(ctx: _Ctx, p: ParsedTemplate, g: QAGroup, texts, refs: list[str]) -> _Made | None:
    table, column = p.compared[p.placeholders[0]]
    while refs:
        ref = refs.pop(0)
        witness, rows = _matching_rows(ctx, table, column, ref)
        names = sorted({r[0] for r in rows if isinstance(r[0], str)}, key=str)
        exact = sum(1 for r in rows if r[0] == ref)
        if len(rows) < 2 or exact == 1:
            continue  # one row, or one row named exactly so: a person would mean that one
        found = run_per_combination(ctx.engine, p, [(n,) for n in names], ctx.schema)
        candidates = [[n, *row] for n in names if (n,) in found for row in found[(n,)].rows]
        if len({tuple(c[1:]) for c in candidates if any(v is not None for v in c[1:])}) < 2:
            continue  # the rows it could mean do not give two stated answers: no choice to make
        cols = [column, *p.output_columns]
        ents = sorted({e for n in names if (n,) in found for e in found[(n,)].entities})
        return _Made("ambiguous_reference", p, g, texts, p, texts, (ref,), witness, cols,
                     [[json_value(v) for v in c] for c in candidates], ents)
    return None


def _keeping(p: ParsedTemplate, schema: Schema, keep: str) -> ParsedTemplate | None:
    """``p`` asked by one of its placeholders alone (an employee by last name only)."""
    glot = NEUTRAL_GLOT if p.template.method == "schema" else dialect_named(p.dialect).glot
    tree = cast(exp.Select, sqlglot.parse_one(p.template.sql, read=glot))
    kept = [eq for eq in tree.find_all(exp.EQ)
            if isinstance(eq.expression, exp.Literal) and eq.expression.this == f"[{keep}]"]
    if len(kept) != 1:
        return None
    condition = kept[0].copy()
    tree.set("where", None)
    try:
        return parse_template(SqlTemplate(tree.where(condition).sql(dialect=glot), p.template.schema,
                                          p.template.method), schema)
    except TemplateError:
        return None


def _by_one_part(ctx: _Ctx, p: ParsedTemplate) -> list[_Made]:
    """A row named by two values (first and last name) referred to by one that rows share
    ("Which office does Patterson work in?"): the template asked by that value alone, its
    partner the same template with a value one row has."""
    kinds = p.semantics.condition_kinds
    if tuple(kinds) != ("text",) * len(p.placeholders):
        return []
    out: list[_Made] = []
    for ph in reversed(p.placeholders):  # the last name first: what people shorten a name to
        alone = _keeping(p, ctx.schema, ph)
        if alone is None or len(out) == ctx.plan.per_template:
            continue
        table, column = alone.compared[ph]
        refs = _shared_values(ctx, table, column)
        texts = _rules_texts(ctx, alone) if refs else {}
        for g in _single_groups(ctx, alone)[:_TRIES] if texts else []:
            m = _ambiguous(ctx, alone, g, texts, refs)
            if m is not None and (partner := group_id(alone.id, g.params)) not in ctx.used:
                ctx.used.add(partner)
                out.append(m)
                break
    return out


# ----------------------------------------------------------------------------- false premise


def _premise_columns(table: TableInfo, p: ParsedTemplate) -> list[str]:
    """Columns of the named row a question can presuppose: text with a few values shared by
    rows (a title, a city, a level), neither asked for nor naming the row already."""
    used = {p.compared[ph][1] for ph in p.placeholders} | {c for _, t, c in p.fact_columns if t == table.name}
    out = []
    for c in table.columns:
        if c.name in used or c.kind != "text" or is_surrogate(table, c.name) or is_binary(table, c.name):
            continue
        if not PLACEHOLDER.fullmatch(f"[{table.name}.{c.name}]"):
            continue
        if c.distinct is not None and table.rows and 2 <= c.distinct <= table.rows // 2:
            out.append(c.name)
    return out


def _wordy(value: str) -> bool:
    """A value with a word in it (three letters running), not a flag or a code."""
    return re.search(r"[^\W\d_]{3}", value) is not None


def _derived(p: ParsedTemplate, schema: Schema, column: str, *, condition: bool) -> ParsedTemplate | None:
    """``p`` with one more condition on ``column`` of its table (``condition``), or asking for
    ``column`` instead of its answer; None when that does not parse as a template."""
    ph = p.placeholders[0]
    qualifier = p.compared_q[ph][0]
    # read and written as the template parser reads the base: ragdx's own templates in the
    # neutral dialect, a user's in the engine's (MySQL takes "Staff" for a string)
    method = p.template.method
    glot = NEUTRAL_GLOT if method == "schema" else dialect_named(p.dialect).glot
    tree = cast(exp.Select, sqlglot.parse_one(p.template.sql, read=glot))
    if condition:
        ph_table = ph.split(".")[0]
        premise = exp.EQ(this=exp.column(column, table=qualifier, quoted=True),
                         expression=exp.Literal.string(f"[{ph_table}.{column}]"))
        tree = tree.where(premise, copy=True)
    else:
        tree = tree.select(exp.column(column, table=qualifier, quoted=True), append=False, copy=True)
    try:
        return parse_template(SqlTemplate(tree.sql(dialect=glot), p.template.schema, method), schema)
    except TemplateError:
        return None


def _false_premise(ctx: _Ctx, p: ParsedTemplate, g: QAGroup, rng: random.Random) -> _Made | None:
    table = ctx.schema.table(cast(str, _one_table(p)))
    for column in _premise_columns(table, p):
        with_premise = _derived(p, ctx.schema, column, condition=True)
        premise = _derived(p, ctx.schema, column, condition=False)
        if with_premise is None or premise is None:
            continue
        truth = run_per_combination(ctx.engine, premise, [g.params], ctx.schema).get(tuple(g.params))
        if truth is None or len(truth.rows) != 1 or not isinstance(truth.rows[0][0], str):
            continue
        true_value = truth.rows[0][0]
        if not _wordy(true_value):
            continue  # a code ('1', 'Y') presupposes nothing a person would say
        others = [v for v in placeholder_domains(ctx.engine, with_premise)[-1]
                  if isinstance(v, str) and _wordy(v) and v.casefold() != true_value.casefold()]
        if not others:
            continue
        false_value = rng.choice(sorted(others))
        found = run_per_combination(ctx.engine, with_premise, [g.params + (true_value,), g.params + (false_value,)],
                                    ctx.schema)
        partner = found.get(tuple(g.params) + (true_value,))
        if tuple(g.params) + (false_value,) in found or partner is None or len(partner.rows) != 1:
            continue  # the database's comparison calls them equal, or the real premise finds no row
        texts = _rules_texts(ctx, with_premise)
        if not texts:
            return None
        witness = premise.concrete_sql(g.params)
        return _Made("false_premise", with_premise, partner, texts, with_premise, texts,
                     g.params + (false_value,), witness, list(premise.output_columns), [[true_value]],
                     list(truth.entities), list(truth.facts))
    return None


def _rules_texts(ctx: _Ctx, p: ParsedTemplate) -> dict[str, list[TextTemplate]]:
    out = {}
    for style in ctx.styles:
        if style in BUILTIN_STYLES:
            try:
                out[style] = rules_templates(p, style, ctx.n)
            except (TemplateError, ValueError):
                continue  # this style has fewer phrasings than asked for: left out, not padded
    return out


# ----------------------------------------------------------------------------- out of domain

#: (keywords, noun phrase, short form): questions no database of records answers. A topic whose
#: keyword is a word of the schema's table or column names is never used (:func:`ood_topics`)
OOD_TOPICS: tuple[tuple[frozenset[str], str, str], ...] = (
    (frozenset({"weather", "forecast", "temperature", "rain"}), "the weather forecast for Lisbon tomorrow",
     "weather Lisbon tomorrow"),
    (frozenset({"football", "cup", "match", "winner", "sport"}), "the winner of the 2018 football World Cup",
     "2018 World Cup winner"),
    (frozenset({"recipe", "cooking", "ingredient", "pancake"}), "a good recipe for pancakes",
     "pancake recipe"),
    (frozenset({"capital", "country", "australia"}), "the capital city of Australia", "capital of Australia"),
    (frozenset({"boiling", "water", "physics", "point"}), "the boiling point of water at sea level",
     "water boiling point"),
    (frozenset({"novel", "book", "author", "peace"}), "the author of the novel War and Peace",
     "author of War and Peace"),
    (frozenset({"moon", "distance", "earth", "planet"}), "the distance from the Earth to the Moon",
     "Earth-Moon distance"),
    (frozenset({"stock", "share", "price", "exchange", "market"}), "today's share price of a large car maker",
     "car maker share price today"),
)

_OOD_FRAMES: dict[str, tuple[str, ...]] = {
    "short": ("{short}", "{short}?", "need {short}", "{short} – quick", "{short} please", "lookup: {short}"),
    "long": (
        "I am preparing a short note for my colleagues before our meeting next week, and one detail I still "
        "need is {np}, so could you tell me what it is according to the information you have access to?",
        "A question came up during a discussion with my team this morning and we could not agree on the "
        "answer, so I would like you to tell me {np}, based on the records that you are able to consult.",
        "Before I send out the summary that everyone has been waiting for since Monday, I need to check one "
        "more thing, namely {np}; please tell me what you find and whether you are sure about it.",
        "My manager has asked me to find out {np} for a report that is due soon, and since I cannot look it "
        "up myself right now, I would really appreciate it if you could tell me what it is.",
        "For an analysis that I am currently working on, I would like to know {np}, because this detail is "
        "relevant to it and I have not been able to find it anywhere else in the material I have.",
        "I am trying to find out some specific information and I would like to know {np}; could you look "
        "this up and tell me what it is according to the data that is currently available to you?",
    ),
    "interrogative": ("What is {np}?", "Do you know {np}?", "Can you tell me {np}?", "Could you look up {np}?",
                      "What does the data say about {np}?", "Could you find out {np}?"),
    "directive": ("Tell me {np}.", "Find {np}.", "Give me {np}.", "Look up {np}.", "State {np}.",
                  "Retrieve {np}."),
    "formal": ("Kindly provide {np}.", "I would be grateful if you could inform me of {np}.",
               "Would you be so kind as to tell me {np}?", "Please state {np}.",
               "Could you please confirm {np}?", "I would appreciate it if you could indicate {np}."),
    "casual": ("hey, what's {np}?", "quick q: what's {np}?", "any idea what {np} is?",
               "can't remember {np}, can you help me out?", "I'm curious, what's {np}?",
               "lemme know {np}, that'd be great!"),
}


def schema_words(schema: Schema) -> set[str]:
    """Every word of the schema's table and column names, singular and plural."""
    words: set[str] = set()
    for table in schema.tables.values():
        for name in [table.name, *(c.name for c in table.columns)]:
            for w in low_words(name):
                words.update({w, singular_word(w), plural_word(w)})
    return words


def ood_topics(schema: Schema) -> list[tuple[str, str]]:
    """(noun phrase, short form) of every topic none of whose keywords the schema names."""
    vocabulary = schema_words(schema)
    return [(np, short) for keys, np, short in OOD_TOPICS if not (keys & vocabulary)]


def _ood_texts(np: str, short: str, styles: Sequence[str], n: int) -> dict[str, list[str]]:
    return {s: [f.format(np=np, short=short) for f in _OOD_FRAMES[s][:n]] for s in styles
            if s in _OOD_FRAMES and len(_OOD_FRAMES[s]) >= n}


# ----------------------------------------------------------------------------- omitted fact


def _fact_column(fact: str) -> tuple[str, str]:
    """``Table.Column@key`` → (table, column)."""
    table, _, column = fact.partition("@")[0].rpartition(".")
    return table, column


def _left_out(ctx: _Ctx, facts: Sequence[str]) -> list[str]:
    """The facts the knowledge base leaves out on purpose and states nowhere."""
    omitted = set(ctx.plan.omitted)
    kb = ctx.kb_facts or {}
    out = []
    for f in facts:
        table, column = _fact_column(f)
        if (f"{table}.{column}" in omitted or table in omitted) and not kb.get(f):
            out.append(f)
    return out


def _omitted(ctx: _Ctx, p: ParsedTemplate, g: QAGroup, texts, siblings) -> _Made | None:
    """``g`` itself (the database answers it, the knowledge base leaves its fact out), paired with
    the same row asked through a sibling template whose facts the knowledge base states."""
    if ctx.kb_facts is None or not ctx.plan.omitted or not _left_out(ctx, g.facts):
        return None
    kb = ctx.kb_facts
    for sibling, sibling_texts in siblings:
        if sibling.id == p.id or set(sibling_texts) != set(texts):
            continue
        if group_id(sibling.id, g.params) in ctx.used:
            continue  # that group is another refusal's partner already
        other = run_per_combination(ctx.engine, sibling, [g.params], ctx.schema).get(tuple(g.params))
        if other is None or len(other.rows) != 1 or all(v is None for v in other.rows[0]):
            continue
        if other.facts and all(kb.get(f) for f in other.facts):
            return _Made("omitted_fact", sibling, other, sibling_texts, p, texts, tuple(g.params),
                         p.concrete_sql(g.params), list(p.output_columns), [list(r) for r in g.rows],
                         list(g.entities), list(g.facts))
    return None


# ----------------------------------------------------------------------------- records


def _answer_kind(rows: Sequence) -> str:
    return "none" if not rows else ("single" if len(rows) == 1 else "multi")


def _text_id(style: str, text: str) -> str:
    return "t" + hashlib.sha256(f"refusal\x1f{style}\x1f{text}".encode()).hexdigest()[:10]


def _records(ctx: _Ctx, m: _Made, ood: dict[str, list[str]] | None = None) -> tuple[list[QARecord], list[QARecord]]:
    """(the partner's records, the refusal's records): one refusal record per partner record,
    phrased by the text template at the same place in its style."""
    partners = list(build_records(m.partner_template, [m.partner], m.partner_texts, ctx.kb_facts))
    gid = f"{partners[0].group_id}{PAIR_SEPARATOR}{m.kind}"
    place = {t.id: (style, i) for style, items in m.partner_texts.items() for i, t in enumerate(items)}
    tpl = m.template
    params = dict(zip(tpl.placeholders, (json_value(v) for v in m.params), strict=True)) if tpl else {}
    kb = ctx.kb_facts
    evidence = [sorted(kb.get(f, [])) for f in m.facts] if kb is not None else []
    rows = [[json_value(v) for v in r] for r in m.rows]
    known = document_ids(kb) if kb is not None else frozenset()
    out = []
    for pr in partners:
        style, i = place[pr.text_template_id]
        if tpl is None:
            query = cast(dict, ood)[style][i]
            tid = _text_id(style, query)
        else:
            t = m.texts[style][i]
            query, tid = fill(t.text, params), t.id
        out.append(replace(
            pr, id=f"{gid}-{tid}", group_id=gid, sql_template_id=tpl.id if tpl else "", text_template_id=tid,
            schema=tpl.template.schema if tpl else "", table=tpl.semantics.entity if tpl else "", params=dict(params),
            sql=m.witness, query=query, answer_columns=list(m.columns), answer_rows=[list(r) for r in rows],
            answer_text=answer_text(m.rows, m.columns) if m.rows else "", answer_kind=_answer_kind(m.rows),
            entities=list(m.entities), facts=list(m.facts), evidence_sets=[list(e) for e in evidence],
            gold_document_ids=sorted({d for e in evidence for d in e}),
            kb_supported=None if kb is None else bool(m.facts) and all(evidence),
            entity_document_ids=[e for e in m.entities if e in known],
            kb_basis="fact_index" if kb is not None else "", refusal_kind=m.kind))
    return partners, out


# ----------------------------------------------------------------------------- the plan, carried out

#: at most this many answerable groups of a template are tried per kind (each try runs SQL)
_TRIES = 8


@dataclass(slots=True)
class RefusalResult:
    #: (an answerable partner record, the refusal record phrased at its place), pair by pair
    pairs: list[tuple[QARecord, QARecord]]
    #: refusal groups made, per kind
    counts: Counter
    #: groups whose records are now refusals (omitted facts): the dataset drops its own copy
    relabelled: set[str]


def make_refusals(engine: Engine, schema: Schema, parsed: Sequence[ParsedTemplate],
                  texts: Mapping[tuple[str, str], Sequence[TextTemplate]], styles: Sequence[str], n: int,
                  answers: AnswerOptions, plan: RefusalPlan,
                  kb_facts: Mapping[str, list[str]] | None = None) -> RefusalResult:
    """The refusal groups of ``plan`` for the templates ``parsed`` (phrased as ``texts`` phrase
    them, in ``styles``), each with its answerable partner's records."""
    ctx = _Ctx(engine, schema, plan, answers, kb_facts, list(styles), n)
    per_style = {p.id: {s: list(texts[(p.id, s)]) for s in styles if (p.id, s) in texts} for p in parsed}
    made: list[_Made] = []
    leftovers: dict[str, list[tuple[ParsedTemplate, QAGroup]]] = {}
    for p in parsed:
        if not per_style[p.id] or not p.placeholders:
            continue
        pool = _single_groups(ctx, p)
        rng = random.Random(f"{answers.seed}:{p.sample_key}:refusals")
        rng.shuffle(pool)
        siblings = [(q, per_style[q.id]) for q in parsed if q.placeholders == p.placeholders and per_style[q.id]]
        made += _for_template(ctx, p, pool, per_style[p.id], siblings, rng)
        leftovers.setdefault(p.semantics.entity, []).extend((p, g) for g in pool)
    oods = _out_of_domain(ctx, leftovers, per_style) if "out_of_domain" in plan.kinds else []
    pairs: list[tuple[QARecord, QARecord]] = []
    relabelled: set[str] = set()
    for m, ood in [(m, None) for m in made] + oods:
        pairs += zip(*_records(ctx, m, ood), strict=True)
        if m.kind == "omitted_fact":
            # the same question, asked to be answered
            relabelled.add(group_id(cast(ParsedTemplate, m.template).id, m.params))
    return RefusalResult(pairs, Counter(m.kind for m in made) + Counter(m.kind for m, _ in oods), relabelled)


def _for_template(ctx: _Ctx, p: ParsedTemplate, pool: list[QAGroup], texts, siblings,
                  rng: random.Random) -> list[_Made]:
    """Each template-level kind's refusals for ``p``, partners taken from ``pool`` (no reuse)."""
    one_table = _one_table(p) is not None
    refs = _ambiguous_candidates(ctx, p) if "ambiguous_reference" in ctx.plan.kinds and one_table \
        and len(p.placeholders) == 1 and p.semantics.condition_kinds[:1] == ("text",) else []
    del refs[2 * _TRIES:]  # each one tried is a scan of the table: a bound, whatever its size
    makers = {
        "false_premise": (lambda g: _false_premise(ctx, p, g, rng)) if one_table else None,
        "absent_entity": lambda g: _absent(ctx, p, g, texts, rng),
        "ambiguous_reference": (lambda g: _ambiguous(ctx, p, g, texts, refs)) if refs else None,
        "omitted_fact": lambda g: _omitted(ctx, p, g, texts, siblings),
    }
    out = []
    if "ambiguous_reference" in ctx.plan.kinds and one_table and len(p.placeholders) > 1:
        out += _by_one_part(ctx, p)
    for kind in ctx.plan.kinds:
        make = makers.get(kind)
        if make is None:
            continue
        count = 0
        for g in list(pool[:_TRIES]):
            if count == ctx.plan.per_template:
                break
            m = make(g)
            if m is not None and (partner := group_id(m.partner_template.id, m.partner.params)) not in ctx.used:
                ctx.used.add(partner)
                pool.remove(g)
                out.append(m)
                count += 1
    return out


def _out_of_domain(ctx: _Ctx, leftovers: Mapping[str, list[tuple[ParsedTemplate, QAGroup]]],
                   per_style: Mapping[str, Mapping[str, list[TextTemplate]]]) -> list[tuple[_Made, dict]]:
    """``per_template`` off-topic groups per table (while topics last), each paired with a
    group of one of the table's templates that no other refusal took."""
    topics = ood_topics(ctx.schema)
    out: list[tuple[_Made, dict]] = []
    for table in sorted(leftovers):
        free = [(p, g) for p, g in leftovers[table] if group_id(p.id, g.params) not in ctx.used]
        for p, g in free[:ctx.plan.per_template]:
            if not topics:
                return out
            np, short = topics.pop(0)
            phrased = _ood_texts(np, short, ctx.styles, ctx.n)
            texts = {s: ts for s, ts in per_style[p.id].items() if s in phrased and len(ts) == len(phrased[s])}
            if not texts:
                continue
            witness = ""  # no SQL: the topic names nothing the schema holds
            out.append((_Made("out_of_domain", p, g, texts, None, texts, (), witness), phrased))
    return out


def add_refusals(records: Sequence[QARecord], result: RefusalResult) -> list[QARecord]:
    """``records`` without the groups relabelled as refusals, then the refusals, then the
    partner records they lacked. Where ``records`` holds a partner's group but a sample left
    one of its phrasings out (``--per-group``), that phrasing's refusal is left out too: the
    pairs stay one to one and the sample's shape is kept."""
    kept = [r for r in records if r.group_id not in result.relabelled]
    have = {r.id for r in kept}
    present = {r.group_id for r in kept}
    refusals, partners = [], []
    for partner, refusal in result.pairs:
        if partner.id not in have:
            if partner.group_id in present:
                continue
            have.add(partner.id)
            partners.append(partner)
        refusals.append(refusal)
    return kept + refusals + partners
