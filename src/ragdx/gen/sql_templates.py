"""SQL templates: parse and validate, derive from a schema, ask an LLM, keep in an editable file.

A template is a single SELECT whose WHERE clause holds equalities with quoted placeholders,
``SELECT Industry FROM Client WHERE Name = '[Client.Name]'`` (GRAMMAR §4.1, App. D). Templates
are written once, in no particular dialect; :class:`ParsedTemplate` resolves every name against the
database's schema and renders SQL for the actual engine with quoted identifiers, so one template
file serves SQLite, PostgreSQL (which folds unquoted names) and MariaDB alike.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError
from sqlglot.optimizer.scope import traverse_scope

from ragdx.db.dialect import NEUTRAL_GLOT, dialect_named
from ragdx.db.schema import (
    DATE_PARTS,
    NEAR_UNIQUE,
    YEAR_WORDS,
    ForeignKey,
    Schema,
    TableInfo,
    name_pair,
    natural_key_candidates,
    parent_name_candidates,
    role_name_part,
)
from ragdx.errors import TemplateError
from ragdx.gen.naming import (
    DATE_VERBS,
    abbreviated,
    column_phrase,
    expanded_words,
    low_words,
    names_a_place,
    readable_entity,
    relation_noun,
    standard_code,
    table_words,
    unexplained_word,
)
from ragdx.gen.semantics import ColumnRef, Condition, Join, TemplateSemantics

#: a table or column name a placeholder can carry: letters of any script, digits, '_', '$' and
#: single spaces between words ("Élève", "the city"); quotes, dots and brackets cannot be written
_NAME = r"[^\W\d][\w$]*(?: [\w$]+)*"
PLACEHOLDER = re.compile(rf"\[({_NAME})\.({_NAME})\]")


def _expressible(*names: str) -> bool:
    """Whether every name can sit in a placeholder (the schema method skips those that cannot,
    rather than writing templates its own parser rejects)."""
    return all(re.fullmatch(_NAME, n) for n in names)
_QUOTED_PLACEHOLDER = re.compile(r"'\[[^\]'\n]+\]'")
_SENTINEL = "__ragdx_p{}__"
_SENTINEL_RE = re.compile(r"__ragdx_p\d+__")
_QUOTED_SENTINEL = re.compile(r"'__ragdx_p(\d+)__'")
def sample_key(sql: str) -> str:
    """A template's text without identifier case or quotes (see ``ParsedTemplate.sample_key``)."""
    canonical = " ".join(re.sub(r'["`]', "", sql).strip().rstrip(";").casefold().split())
    return "k" + hashlib.sha256(canonical.encode()).hexdigest()[:10]


def template_id(sql: str) -> str:
    """Stable id of a template: its text with whitespace and a trailing ';' normalised."""
    canonical = " ".join(sql.strip().rstrip(";").split())
    return "s" + hashlib.sha256(canonical.encode()).hexdigest()[:10]


@dataclass(slots=True)
class SqlTemplate:
    """A template as stored in the templates file. ``schema`` is the target-schema key of
    GRAMMAR's Algorithm 1 (the tables it was generated for, e.g. ``Client`` or ``company,people``)."""

    sql: str
    schema: str
    method: str = "file"
    #: where it was read from, for messages: (file, field)
    origin: tuple[str, str] | None = field(default=None, compare=False)

    @property
    def id(self) -> str:
        return template_id(self.sql)


# ----------------------------------------------------------------------------- parsing


@dataclass(slots=True)
class ParsedTemplate:
    """A validated template, resolved against one database schema."""

    template: SqlTemplate
    semantics: TemplateSemantics
    dialect: str
    #: placeholder → (table, column) of the compared column in the database's spelling
    compared: dict[str, tuple[str, str]]
    #: placeholder → (qualifier, column) of the compared column as the query names it
    compared_q: dict[str, tuple[str, str]]
    #: (qualifier, table, column) of every column a fact of the answer rests on: projections,
    #: join columns and condition columns (GRAMMAR's gold documents state these facts)
    fact_columns: list[tuple[str, str, str]]
    #: placeholder → (table, column) whose distinct values fill it, in the database's spelling
    domains: dict[str, tuple[str, str]]
    #: output column names in SELECT order
    output_columns: list[str]
    #: FROM/JOIN tables in the database's spelling with the name or alias used in the query
    sources: list[tuple[str, str]]
    set_based: bool
    _ast: exp.Select = field(repr=False)
    #: per output column: whether it holds a label written in the source's capitals
    #: (``ColumnInfo.upper_labels``): answer texts write it as a word, the rows keep the value
    label_outputs: tuple[bool, ...] = ()
    #: placeholders filled from such a label column: questions write the value as a word
    label_placeholders: frozenset[str] = frozenset()
    #: placeholders filled from a date-time column whose values are all at midnight
    #: (``ColumnInfo.midnight_dates``): questions write the value as the day ("6 September 2007")
    day_placeholders: frozenset[str] = frozenset()
    #: the template's id, hashed once (it is stamped on every group and record)
    id: str = field(init=False)

    def __post_init__(self) -> None:
        self.id = self.template.id

    @property
    def sample_key(self) -> str:
        """What seeds this template's samples: its text with identifiers' case and quoting
        dropped, so one database under other spellings (``Album.Title`` on SQLite, ``album.title``
        on PostgreSQL, ```album```.``title`` on MariaDB) gets the same first dataset. The id keeps
        the exact text (it names the template in files)."""
        return sample_key(self.template.sql)

    @property
    def placeholders(self) -> tuple[str, ...]:
        return self.semantics.placeholders

    def executable(self) -> tuple[str, list[str]]:
        """SQL in the engine's own parameter style and the parameter names, in order of use."""
        return self._bind(self._render(self._ast), len(self.placeholders))

    def display(self) -> str:
        """The template rendered for the engine with sentinels that :func:`concrete_sql` fills."""
        return self._render(self._ast)

    def concrete_sql(self, values: Sequence[Any]) -> str:
        """The concrete query for people to read, every value quoted for this dialect."""
        # one pass: a value that happens to contain a sentinel must stay a value
        literal = dialect_named(self.dialect).literal
        return _QUOTED_SENTINEL.sub(lambda m: literal(values[int(m.group(1))]), self.display())

    def concrete_sql_parts(self) -> tuple[list[str], list[int]]:
        """The display split at its sentinels: the literal texts around them, and the index of
        the value each sentinel takes (what :meth:`concrete_sql` fills, for columns of values)."""
        pieces = _QUOTED_SENTINEL.split(self.display())  # literal, index, literal, ..., literal
        return pieces[0::2], [int(i) for i in pieces[1::2]]

    def concrete_sql_renderer(self) -> Callable[[Sequence[Any]], str]:
        """:meth:`concrete_sql` for many value tuples: the display split at its sentinels once."""
        literals, slots = self.concrete_sql_parts()
        value_literal = dialect_named(self.dialect).literal

        def render(values: Sequence[Any]) -> str:
            out = [literals[0]]
            for slot, literal in zip(slots, literals[1:], strict=True):
                out.append(value_literal(values[slot]))
                out.append(literal)
            return "".join(out)

        return render

    def set_based_query(self, schema: Schema) -> tuple[str, int, list[tuple[str, str, list[str]]]]:
        """One query for every combination at once (Algorithm 1, lines 12–14, as a single scan).

        The placeholder equalities leave WHERE and their compared columns are projected first
        (NULLs excluded: ``col = NULL`` never holds), then the key of every FROM table (the
        entities an answer came from), then the template's own projections. Returns the SQL in
        the engine's parameter style, the number of placeholder columns and the key layout.
        """
        if not self.set_based:
            raise TemplateError("template needs per-combination execution", field=self.id)
        tree = self._ast.copy()
        where = tree.args.get("where")
        keep: list[exp.Expression] = []
        for conj in _conjuncts(where.this) if where else []:
            if not _placeholder_literal(conj):
                keep.append(conj)
        ph_cols = []
        for i, ph in enumerate(self.placeholders):
            table, column = self.compared_q[ph]
            col = exp.column(column, table=table)
            ph_cols.append(exp.alias_(col, f"__ph{i}"))
            keep.append(exp.Not(this=exp.Is(this=col.copy(), expression=exp.Null())))
        key_cols, layout = self._key_columns(schema)
        tree.set("expressions", ph_cols + key_cols + list(tree.expressions))
        tree.set("where", exp.Where(this=exp.and_(*keep)) if keep else None)
        tree.set("order", None)
        tree.set("distinct", None)
        sql, _ = self._bind(self._render(tree), 0)
        return sql, len(ph_cols), layout

    def keyed_query(self, schema: Schema) -> tuple[str, list[str], list[tuple[str, str, list[str]]]]:
        """The template with the entity keys projected first, for per-combination execution.
        Templates that aggregate keep their own projections only (no row is one entity)."""
        tree = self._ast.copy()
        layout: list[tuple[str, str, list[str]]] = []
        if self.set_based:
            key_cols, layout = self._key_columns(schema)
            tree.set("expressions", key_cols + list(tree.expressions))
            tree.set("distinct", None)
        sql, names = self._bind(self._render(tree), len(self.placeholders))
        return sql, names, layout

    def _key_columns(self, schema: Schema) -> tuple[list[exp.Expr], list[tuple[str, str, list[str]]]]:
        cols: list[exp.Expr] = []
        layout: list[tuple[str, str, list[str]]] = []
        for real, qualifier in self.sources:
            pk = entity_key(schema.table(real))
            layout.append((qualifier, real, pk))
            for c in pk:
                cols.append(exp.alias_(exp.column(c, table=qualifier), f"__k{len(cols)}"))
        return cols, layout

    @property
    def distinct(self) -> bool:
        return bool(self._ast.args.get("distinct"))

    def _render(self, tree: exp.Expression) -> str:
        return tree.sql(dialect=dialect_named(self.dialect).sqlglot_writer(), identify=True)

    def _bind(self, display: str, n: int) -> tuple[str, list[str]]:
        """``display`` with its sentinels as the engine's bound parameters, and their names."""
        dialect = dialect_named(self.dialect)
        names = [f"p{i}" for i in range(n)]
        sql = dialect.escape_for_parameters(display)
        for i, name in enumerate(names):
            sql = sql.replace(f"'{_SENTINEL.format(i)}'", dialect.parameter(name))
        return sql, names


def entity_key(table: TableInfo) -> list[str]:
    """The columns that identify a row: the primary key, else every column (a keyless table's
    row is identified by its whole content)."""
    return list(table.primary_key) or [c.name for c in table.columns]


def _conjuncts(node: exp.Expression) -> list[exp.Expression]:
    while isinstance(node, exp.Paren):
        node = node.this
    if isinstance(node, exp.And):
        return _conjuncts(node.this) + _conjuncts(node.expression)
    return [node]


def _placeholder_literal(node: exp.Expression) -> exp.Literal | None:
    if isinstance(node, exp.EQ):
        for side in (node.this, node.expression):
            if isinstance(side, exp.Literal) and side.is_string and _SENTINEL_RE.fullmatch(side.this):
                return side
    return None


#: methods whose templates must meet every criterion of the paper's Table 7 prompt
GENERATED = ("schema", "llm")

_UNSUPPORTED_FOR_SET = (exp.AggFunc, exp.Window, exp.Subquery, exp.Union, exp.Limit, exp.Group,
                        exp.Having, exp.Offset)


# Functions a template may not call. A template is executed on the user's database, on every
# combination, by people who may not read it: a function with side effects (pg_terminate_backend,
# pg_advisory_lock, LOAD_FILE, lo_import, nextval), one that reads the server's files or state,
# one that waits or burns CPU on purpose (SLEEP, BENCHMARK, pg_sleep) or without bound
# (REPEAT, generate_series, randomblob), or one whose answer changes between runs (RANDOM, UUID)
# has no place in it. One list serves every dialect: a name means the same thing wherever it
# exists, and elsewhere the database rejects it anyway. A function nobody knows is left to the
# database, whose own error names it.
_DENIED_FUNCS = (exp.Rand, exp.GenerateSeries, exp.Repeat)
_DENIED_NAMES = re.compile(
    r"(pg_\w*|lo_\w*|dblink\w*|load_file|sleep|benchmark|get_lock|release_lock|release_all_locks|is_free_lock|"
    r"is_used_lock|master_pos_wait|master_gtid_wait|source_pos_wait|nextval|setval|lastval|currval|set_config|"
    r"current_setting|txid_\w*|randomblob|zeroblob|load_extension|readfile|writefile|edit|fts3_tokenizer|"
    r"random|rand|uuid\w*|gen_random_\w*|sys_exec|sys_eval|xp_\w*|\w+_to_xml\w*|generate_series|repeat|space|"
    r"replicate|inet_\w*|version|connection_id|found_rows|row_count|last_insert_id|current_user|session_user|"
    r"system_user|user|database|schema|nextval|copy|query_xml|extractvalue|updatexml|sys_\w*)", re.I)


def _function_problem(node: exp.Func) -> str | None:
    name = str(node.name) if isinstance(node, exp.Anonymous) else node.sql_name()
    if isinstance(node, _DENIED_FUNCS) or (isinstance(node, exp.Anonymous) and _DENIED_NAMES.fullmatch(name)):
        return (f"function {name}() is not allowed in a template (side effects, server state, unbounded "
                "cost or an answer that changes between runs)")
    return None


def parse_template(template: SqlTemplate, schema: Schema) -> ParsedTemplate:
    """Validate ``template`` against ``schema`` (App. D.1 and the Table 7 criteria).

    Raises :class:`TemplateError` with the reason; the checks are: one statement, a SELECT, no
    ``*``, every placeholder quoted as ``'[Table.Column]'``, naming an existing column and sitting
    in an equality with a column in the WHERE clause of the outer SELECT (joined by AND), every
    table and column known, and, for generated templates, no projected column appearing in the
    predicate.
    """
    sql = template.sql.strip()

    def fail(reason: str) -> TemplateError:
        return TemplateError(reason, field=f"{template.schema}: {sql}")

    dialect = dialect_named(schema.dialect).name
    resolved = _qualified(_checked_select(template, sql, dialect, fail), schema, fail)
    conditions, compared, compared_q, domains = _bind_placeholders(resolved, schema, fail)
    targets, outputs = _projections(resolved, template, set(compared_q.values()), fail)
    tree = resolved.tree
    set_based = not any(tree.find(t) for t in _UNSUPPORTED_FOR_SET)
    semantics = TemplateSemantics(
        targets=tuple(targets),
        entity=conditions[0].column.table,
        conditions=tuple(conditions),
        joins=tuple(_joins(resolved)),
        target_kinds=tuple(_target_kinds(resolved)),
        condition_kinds=tuple(resolved.kind_of(*compared_q[c.placeholder]) for c in conditions),
    )
    parsed = ParsedTemplate(template, semantics, dialect, compared, compared_q, _fact_columns(resolved), domains,
                            outputs, resolved.sources, set_based, tree)
    parsed.label_outputs, parsed.label_placeholders = _labels(parsed, schema)
    parsed.day_placeholders = frozenset(
        ph for ph, (t, c) in compared.items()
        if schema.has_table(t) and schema.table(t).has_column(c) and schema.table(t).column(c).midnight_dates)
    return parsed


def _labels(parsed: ParsedTemplate, schema: Schema) -> tuple[tuple[bool, ...], frozenset[str]]:
    """(per output column, placeholders) whose values are labels in capitals (``ColumnInfo.upper_labels``)."""
    def label(table: str, column: str) -> bool:
        return schema.has_table(table) and schema.table(table).has_column(column) \
            and schema.table(table).column(column).upper_labels
    real_of = {qualifier: real for real, qualifier in parsed.sources}
    outputs = []
    for proj in parsed._ast.expressions:
        inner = proj.this if isinstance(proj, exp.Alias) else proj
        outputs.append(isinstance(inner, exp.Column) and inner.table in real_of
                       and label(real_of[inner.table], inner.name))
    return tuple(outputs), frozenset(ph for ph, (t, c) in parsed.compared.items() if label(t, c))


_Fail = Callable[[str], TemplateError]


def _checked_select(template: SqlTemplate, sql: str, dialect: str, fail: _Fail) -> exp.Select:
    """``sql`` parsed as one plain SELECT that calls nothing a template may not call."""
    bare = _QUOTED_PLACEHOLDER.sub("''", sql)
    if "[" in bare and PLACEHOLDER.search(bare):
        raise fail("a placeholder must be quoted like '[Table.Column]'")
    try:
        # ragdx's own templates quote identifiers the standard way ("Order Details"), which
        # MySQL's reader would take for a string: they are read as the dialect-neutral SQL they are
        read = NEUTRAL_GLOT if template.method == "schema" else dialect_named(dialect).glot
        statements = [s for s in sqlglot.parse(sql, read=read) if s is not None]
    except SqlglotError as exc:
        raise fail(f"not valid SQL ({str(exc).splitlines()[0]})") from None
    if len(statements) != 1:
        raise fail(f"expected a single statement, found {len(statements)}")
    tree = statements[0]
    if not isinstance(tree, exp.Select):
        raise fail(f"only SELECT is allowed, found {type(tree).__name__.upper()}")
    if any(isinstance(e, exp.Star) or (isinstance(e, exp.Column) and isinstance(e.this, exp.Star))
           for e in tree.expressions):
        raise fail("select specific columns instead of '*'")
    for node in tree.walk():
        if isinstance(node, exp.Command | exp.Insert | exp.Update | exp.Delete | exp.Create | exp.Drop | exp.Into):
            raise fail("only a plain SELECT is allowed")
        if isinstance(node, exp.With) and node.args.get("recursive"):
            raise fail("WITH RECURSIVE is not allowed in a template (unbounded)")
        if isinstance(node, exp.SessionParameter | exp.Parameter):
            # @@datadir, @@version, @var: the server's own state, not the user's data
            raise fail(f"server and session variables ({node.sql()}) are not allowed in a template")
        if isinstance(node, exp.Func):
            problem = _function_problem(node)
            if problem:
                raise fail(problem)
    return tree


@dataclass
class _Qualified:
    """A template's tree with every column qualified, and the tables its qualifiers stand for."""

    tree: exp.Select
    schema: Schema
    real_of: dict[str, str]  # qualifier used in the rewritten query -> real table name
    sources: list[tuple[str, str]]  # (real table, qualifier) of the outer SELECT
    occurrences: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        self.occurrences = {}
        for real, _ in self.sources:
            self.occurrences[real] = self.occurrences.get(real, 0) + 1

    def meaning_name(self, qualifier: str) -> str:
        # In the meaning of a template a table is named by its real name, except where it occurs
        # twice (a self-join: the employee and the employee's supervisor are different rows).
        real = self.real_of.get(qualifier, qualifier)
        return qualifier if self.occurrences.get(real, 0) > 1 else real

    def kind_of(self, qualifier: str, column: str) -> str:
        real = self.real_of.get(qualifier, qualifier)
        if self.schema.has_table(real) and self.schema.table(real).has_column(column):
            return self.schema.table(real).column(column).kind
        return ""


def _qualified(tree: exp.Select, schema: Schema, fail: _Fail) -> _Qualified:
    """Resolve every table and column of a copy of ``tree`` against the schema; qualify every
    column with the table's real name, or with its alias where the query gives one."""
    tree = tree.copy()
    real_of: dict[str, str] = {}
    sources: list[tuple[str, str]] = []
    for scope in traverse_scope(tree):
        renamed: dict[str, str] = {}
        for name, source in scope.sources.items():
            if isinstance(source, exp.Table):
                if not schema.has_table(source.name):
                    raise fail(f"unknown table '{source.name}'")
                real = schema.table(source.name).name
                qualifier = source.alias or real
                renamed[name] = qualifier
                real_of[qualifier] = real
                if scope.is_root:
                    sources.append((real, qualifier))
        for column in scope.columns:
            if isinstance(column.this, exp.Star):
                continue
            resolved = _resolve_column(column, scope, schema, fail)
            if resolved is not None:
                column.set("table", exp.to_identifier(renamed[resolved[0]]))
                column.set("this", exp.to_identifier(resolved[1]))
    for table_node in tree.find_all(exp.Table):
        if schema.has_table(table_node.name):
            table_node.set("this", exp.to_identifier(schema.table(table_node.name).name))
    return _Qualified(tree, schema, real_of, sources)


def _bind_placeholders(q: _Qualified, schema: Schema, fail: _Fail) -> tuple[
        list[Condition], dict[str, tuple[str, str]], dict[str, tuple[str, str]], dict[str, tuple[str, str]]]:
    """Check every placeholder and replace it in ``q.tree`` by its numbered sentinel: the
    conditions, the column each placeholder is compared with (real table; qualifier) and the
    column whose values fill it."""
    conditions: list[Condition] = []
    compared: dict[str, tuple[str, str]] = {}
    compared_q: dict[str, tuple[str, str]] = {}
    domains: dict[str, tuple[str, str]] = {}
    where_node = q.tree.args.get("where")
    root_conjuncts = {id(c) for c in _conjuncts(where_node.this)} if where_node else set()
    literals = [lit for lit in q.tree.find_all(exp.Literal) if lit.is_string]
    index = 0
    for lit in literals:
        match = PLACEHOLDER.fullmatch(lit.this)
        if not match:
            if PLACEHOLDER.search(lit.this):
                raise fail(f"placeholder must be the whole quoted value, found '{lit.this}'")
            continue
        ph = f"{match.group(1)}.{match.group(2)}"
        parent = lit.parent
        if not isinstance(parent, exp.EQ) or id(parent) not in root_conjuncts:
            raise fail(f"placeholder '[{ph}]' must sit in an equality in the WHERE clause, "
                       "joined to the other conditions by AND")
        other = parent.expression if parent.this is lit else parent.this
        if not isinstance(other, exp.Column):
            raise fail(f"placeholder '[{ph}]' must be compared with a column")
        if ph in compared:
            raise fail(f"placeholder '[{ph}]' appears twice")
        try:
            domains[ph] = schema.resolve(match.group(1), match.group(2))
        except TemplateError as exc:
            raise fail(f"placeholder '[{ph}]' names an {exc.message}") from None
        compared[ph] = (q.real_of.get(other.table, other.table), other.name)
        compared_q[ph] = (other.table, other.name)
        conditions.append(Condition(ColumnRef(q.meaning_name(other.table), other.name), ph,
                                    _display_named(q, schema, compared[ph])))
        lit.replace(exp.Literal.string(_SENTINEL.format(index)))
        index += 1
    if not conditions:
        raise fail("no placeholder: a template needs at least one '[Table.Column]' in WHERE")
    return conditions, compared, compared_q, domains


def _display_named(q: _Qualified, schema: Schema, column: tuple[str, str]) -> str:
    """The table (as the template spells it) whose row ``column`` names as its display name
    (:func:`display_name`), when that table is in the query; else ""."""
    real, name = column[0].lower(), column[1].lower()
    for qualifier, table in q.real_of.items():
        if not schema.has_table(table):
            continue
        found = display_name(schema, schema.table(table))
        if found is not None and (found[0].name.lower(), found[2].lower()) == (real, name):
            return q.meaning_name(qualifier)
    return ""


def _projections(q: _Qualified, template: SqlTemplate, predicate: set[tuple[str, str]],
                 fail: _Fail) -> tuple[list[ColumnRef], list[str]]:
    """The columns the SELECT projects and its output names."""
    targets: list[ColumnRef] = []
    outputs: list[str] = []
    for proj in q.tree.expressions:
        inner = proj.this if isinstance(proj, exp.Alias) else proj
        outputs.append(proj.alias_or_name or inner.sql())
        for col in inner.find_all(exp.Column):
            targets.append(ColumnRef(q.meaning_name(col.table), col.name))
            # Table 7's criterion binds generators; a person's file may project the key on
            # purpose (the reference's *_with_ids templates select Name as the gold document id)
            if (col.table, col.name) in predicate and template.method in GENERATED:
                raise fail(f"the projected column '{targets[-1].qualified}' appears in the predicate")
    return targets, outputs


def _joins(q: _Qualified) -> list[Join]:
    joins: list[Join] = []
    for node in q.tree.find_all(exp.EQ):
        if isinstance(node.this, exp.Column) and isinstance(node.expression, exp.Column):
            joins.append(Join(
                ColumnRef(q.meaning_name(node.this.table), node.this.name),
                ColumnRef(q.meaning_name(node.expression.table), node.expression.name),
                _whole_key(q, node.this) and _whole_key(q, node.expression),
                _referencing_side(q, node.this, node.expression),
            ))
    return joins


def _declares_fk(q: _Qualified, column: exp.Column, other: exp.Column) -> bool:
    """The schema declares ``column`` a one-column foreign key to ``other``'s column."""
    real = q.real_of.get(column.table, column.table)
    ref_real = q.real_of.get(other.table, other.table)
    if not q.schema.has_table(real):
        return False
    fk = q.schema.table(real).foreign_key_of(column.name)
    return fk is not None and fk.ref_table.lower() == ref_real.lower() \
        and [c.lower() for c in fk.ref_columns] == [other.name.lower()]


def _referencing_side(q: _Qualified, left: exp.Column, right: exp.Column) -> str:
    """"left" or "right": the side the schema declares a foreign key to the other; "" when it declares
    neither or both (two keys pointing at each other say nothing about which way the relation reads)."""
    forward, backward = _declares_fk(q, left, right), _declares_fk(q, right, left)
    return "left" if forward and not backward else "right" if backward and not forward else ""


def _whole_key(q: _Qualified, column: exp.Column) -> bool:
    """The column is its table's whole (one-column) primary key."""
    real = q.real_of.get(column.table, column.table)
    return q.schema.has_table(real) and q.schema.table(real).primary_key == [column.name]


def _fact_columns(q: _Qualified) -> list[tuple[str, str, str]]:
    """(qualifier, real table, column) of every column whose value is a fact the knowledge base must state."""
    tree, schema = q.tree, q.schema
    joined = {(ref.table, ref.column) for j in _joins(q) for ref in (j.left, j.right)}
    fact_columns: list[tuple[str, str, str]] = []
    for col in itertools.chain(*(p.find_all(exp.Column) for p in tree.expressions),
                               *(w.find_all(exp.Column) for w in [tree.args.get("where")] if w),
                               *(j.find_all(exp.Column) for j in tree.args.get("joins") or [])):
        fact = (col.table, q.real_of.get(col.table, col.table), col.name)
        # an association row's key is the link itself: a fact the knowledge base must state
        if fact[1] in schema.tables and (col.name not in entity_key(schema.table(fact[1]))
                                         or is_association(schema.table(fact[1]))
                                         or _key_hop(schema.table(fact[1]), col.name,
                                                     (q.meaning_name(col.table), col.name) in joined)) \
                and fact not in fact_columns:
            fact_columns.append(fact)
    return fact_columns


def _key_hop(table: TableInfo, column: str, joined: bool) -> bool:
    """A foreign key inside a composite primary key, followed by the template's join, is a hop
    the answer rests on: ``payment(client_id, code)`` joined to its client says "payment P-1
    was made by client 1", a fact a document must state like any other column. Part of a
    one-column key it is the row itself (an extension table), not a link."""
    key = entity_key(table)
    return joined and len(key) > 1 and any(column in fk.columns for fk in table.foreign_keys)


def _target_kinds(q: _Qualified) -> list[str]:
    """The kind of each projected column, "" for one inside an expression."""
    target_kinds = []
    for proj in q.tree.expressions:
        inner = proj.this if isinstance(proj, exp.Alias) else proj
        for col in inner.find_all(exp.Column):
            target_kinds.append(q.kind_of(col.table, col.name) if inner is col else "")
    return target_kinds


def _resolve_column(column: exp.Column, scope, schema: Schema, fail) -> tuple[str, str] | None:
    """(table, column) in the database's spelling, or None for a column of a derived table."""
    qualifier = column.table
    if qualifier:
        source = scope.sources.get(qualifier)
        if source is None:
            for name, candidate in scope.sources.items():
                if name.lower() == qualifier.lower():
                    source, qualifier = candidate, name
                    break
        if source is None:
            raise fail(f"unknown table or alias '{column.table}' in '{column.sql()}'")
        if not isinstance(source, exp.Table):
            return None
        info = schema.table(source.name)
        if not info.has_column(column.name):
            raise fail(f"unknown column '{column.name}' in table '{info.name}'")
        return qualifier, info.column(column.name).name
    candidates = []
    for name, source in scope.sources.items():
        if isinstance(source, exp.Table) and schema.table(source.name).has_column(column.name):
            candidates.append((name, schema.table(source.name).column(column.name).name))
    if not candidates:
        if any(not isinstance(s, exp.Table) for s in scope.sources.values()):
            return None
        raise fail(f"unknown column '{column.name}'")
    if len(candidates) > 1:
        raise fail(f"ambiguous column '{column.name}': qualify it with its table")
    return candidates[0]


# ----------------------------------------------------------------------------- schema method

_SURROGATE = re.compile(r"(^|_)(id|uuid|guid|pk|key|hash|token|password|salt|checksum)$", re.I)
_CAMEL_ID = re.compile(r"[a-z0-9](Id|ID|Uuid|UUID|Key|Pk|PK)$")
_ID_INSIDE = re.compile(r"[a-z]ID(?![a-z])|[a-z]ID[a-z]")
_BOOKKEEPING = re.compile(r"^(created|updated|modified|deleted|inserted)(_?at|_?on|_?date)?$|^row_?version$",
                          re.I)
_NAME_LIKE = re.compile(r"(^|_)(name|title|label|code)$|[a-z](Name|Title|Label|Code)$", re.I)
#: a name column below this share of distinct values is not a key, above it the rare clashes
#: ("IT" twice among Northwind's customers) are answer sets, measured and dropped like any other
_NEAR_UNIQUE = NEAR_UNIQUE
#: an association table has at most this many columns of its own besides its foreign keys
_ASSOCIATION_OWN_COLUMNS = 3


def is_surrogate(table: TableInfo, column: str) -> bool:
    """A column that means nothing to a person (App. B.1 / D.1): ids, keys, hashes, bookkeeping
    timestamps, and an integer primary key whatever its name. A key declared in ``ragdx.yaml``
    (an order number) is meaningful by declaration."""
    col = table.column(column)
    if table.declared_key and col.name in table.declared_key:
        return False
    if low_words(col.name) in (["year", "id"], ["season", "id"]) and col.kind == "integer":
        return False  # Lahman's yearID holds the year 1973, not an id
    if _ID_INSIDE.search(col.name):
        return True  # "teamIDBR", "teamIDretro": another system's id for the row, a code
    words = low_words(col.name)
    if len(words) >= 2 and words[-1] == "id":
        # "geonameid", "customerid": an id written run together, in lower case, is an id as much as
        # "customer_id" or "CustomerID" (naming splits it with its vocabulary of schema words)
        return True
    if col.name.lower() in {"".join(w) + "id" for w in table_words(table.name) if w}:
        return True  # "landid" of "lands": the table's own noun and "id", whatever the noun
    if _SURROGATE.search(col.name) or _CAMEL_ID.search(col.name) or _BOOKKEEPING.match(col.name):
        return True
    return col.primary_key and len(table.primary_key) == 1 and col.kind in ("integer", "number") \
        and not _NAME_LIKE.search(col.name)


def is_binary(table: TableInfo, column: str) -> bool:
    """Images, files, blobs: never an answer, never written into a document."""
    return table.column(column).kind == "binary"


def _words(identifier: str) -> tuple[str, ...]:
    return tuple(low_words(identifier))


def _entity_words(table: TableInfo) -> set[tuple[str, ...]]:
    return {tuple(words) for words in table_words(table.name)}


_COMPANY = frozenset({"company", "organisation", "organization", "business", "trade", "brand", "full",
                      "display"})


def name_rank(table: TableInfo, column: str) -> int | None:
    """How well a text column names a row for a person: 0 the table's own name (``Name``,
    ``ProductName``, ``RegionDescription``), 1 a company or full name, 2 another ``…Name``,
    3 a contact person's name (an attribute of a company, not its name); None: not a name."""
    words = _words(column)
    if not words:
        return None
    if words in (("name",), ("title",), ("label",)) or words in _entity_words(table):
        return 0  # "Name", or the table's own noun: department.department holds "Marketing"
    if len(words) >= 2 and words[-1] in ("name", "title", "label", "description") \
            and words[:-1] in _entity_words(table):
        return 0
    if len(words) == 2 and words[0] == "name" and words[1] in _COMPANY:
        return 1  # "name_full", "nameDisplay": the full name, its words the other way round
    if words[-1] != "name":
        return None
    if words[0] in _COMPANY:
        return 1
    return 3 if words[0] == "contact" else 2


def _near_unique(table: TableInfo, column: str) -> bool:
    col = table.column(column)
    if col.distinct is None or not table.rows:
        return table.primary_key == [col.name]
    present = table.rows - (col.nulls or 0)
    return col.nulls == 0 and present > 0 and col.distinct >= _NEAR_UNIQUE * present


_CONTACT_WORDS = frozenset({"phone", "fax", "email", "mail", "address", "postal", "zip", "postcode", "url",
                            "website", "homepage", "extension"})
_CODE_WORDS = frozenset({"code", "id", "no", "number", "nr", "num", "key", "ref"})
_FREE_TEXT_WORDS = frozenset({"description", "comment", "comments", "notes", "note", "text", "summary", "details"})


def _naming_tier(column: str) -> int:
    """Among unique text columns, which one a person names a row by: a name or title first, then a
    place (the Paris office, not office '4'), then a code (a course code is how people say it),
    then other text, then contact details (no one says "the office at +33 14 723 4404") and free
    text last."""
    words = _words(column)
    if not words:
        return 3
    if words[-1] in ("name", "title", "label"):
        return 0
    if names_a_place(column):
        return 1
    if words[-1] in _CODE_WORDS:
        return 2
    if set(words) & _CONTACT_WORDS:
        return 4
    if words[-1] in _FREE_TEXT_WORDS:
        return 5
    return 3


def lookup_keys(table: TableInfo) -> list[str]:
    """The columns a person names a row of ``table`` by (one key, possibly composite), or [].

    In order: a key declared in ``ragdx.yaml``; the table's own name column when (nearly)
    unique; a person's first and last name together; a company or other name column; any other
    unique, human-meaningful text column; and last, for a table with no name at all (orders,
    invoices), its integer primary key, read as a number ("order 10248"). Foreign keys,
    surrogates and binary columns never name a row."""
    if table.declared_key:
        return list(table.declared_key)
    if not table.rows:
        return []

    def usable(c) -> bool:
        return c.kind == "text" and not is_surrogate(table, c.name) and table.foreign_key_of(c.name) is None

    ranked = []
    for i, c in enumerate(table.columns):
        rank = name_rank(table, c.name) if usable(c) else None
        if rank is not None and _near_unique(table, c.name):
            ranked.append((rank, not table.is_unique(c.name), i, c.name))
    ranked.sort()
    if ranked and ranked[0][0] == 0:
        return [ranked[0][3]]

    pair = name_pair(table)
    if pair and all(usable(table.column(c)) for c in pair):
        measured = table.tuple_distinct.get(",".join(pair))
        if measured is not None and measured >= _NEAR_UNIQUE * table.rows:
            return pair
    if ranked:
        return [ranked[0][3]]
    unique = [c.name for c in table.columns if usable(c) and table.is_unique(c.name)]
    unique.sort(key=lambda name: (_naming_tier(name), table.columns.index(table.column(name))))
    if unique:
        return unique[:1]
    own_name = any(name_rank(table, c.name) == 0 for c in table.columns if c.kind == "text")
    pk = table.primary_key
    if len(pk) == 1 and not own_name and table.column(pk[0]).kind == "integer" \
            and table.foreign_key_of(pk[0]) is None:
        if not _document_number(table, pk[0]):
            # a row number nobody sees (flights.id): the row is named by what names it (carrier,
            # flight number and date), or is not named at all (issue 22 item 2)
            return natural_key(table)
        return [pk[0]]
    # a key of codes (Lahman's Teams: yearID, lgID, teamID): named by a name in a year, if measured
    return natural_key(table)


_ROW_IDS = (["id"], ["pk"], ["rowid"], ["row", "id"], ["uid"], ["key"], ["oid"])


def _document_number(table: TableInfo, column: str) -> bool:
    """A number people may see and say (``OrderID``: order 10248, ``visit_id``: site visit 176),
    as opposed to the row id any table of an application has (``id``, ``pk``, ``rowid``)."""
    return low_words(column) not in _ROW_IDS


def natural_key(table: TableInfo) -> list[str]:
    """The first measured column tuple (:func:`ragdx.db.schema.natural_key_candidates`) that
    names nearly every row, of columns a person can say; [] when none does."""
    for combo in natural_key_candidates(table):
        measured = table.tuple_distinct.get(",".join(combo))
        if measured is None or measured < _NEAR_UNIQUE * (table.rows or 0):
            continue
        if all(not is_surrogate(table, c) and not is_binary(table, c)
               and not (table.foreign_key_of(c) is not None and table.column(c).kind == "integer") for c in combo):
            return combo  # (a foreign key holding an id names nothing by itself: see parent_key)
    return []


def parent_key(schema: Schema, table: TableInfo) -> tuple[str, TableInfo, str, list[str], str] | None:
    """A row with no name of its own that is its parent's row in a year or on a date (a player's
    salary in 1985, an employee's salary change on 1992-12-31): (foreign-key column, parent table,
    the parent's referenced column, the parent's look-up key, the year or date column), when the
    pair was measured to tell the rows apart (:func:`ragdx.db.schema.natural_key_candidates`);
    else None. Questions name such a row through its parent: "the salary of 'Babe Ruth' in 1985"."""
    if lookup_keys(table) or is_association(table) or not table.rows:
        return None
    for combo in natural_key_candidates(table):
        measured = table.tuple_distinct.get(",".join(combo))
        if len(combo) != 2 or measured is None or measured < _NEAR_UNIQUE * table.rows:
            continue
        for fk_col, when in (combo, combo[::-1]):
            fk = table.foreign_key_of(fk_col)
            if fk is None or not schema.has_table(fk.ref_table) or table.foreign_key_of(when) is not None:
                continue
            if table.column(when).kind != "date" and low_words(when) not in YEAR_WORDS:
                continue
            parent = schema.table(fk.ref_table)
            keys = lookup_keys(parent)
            if keys and not is_association(parent) and parent.name != table.name:
                return fk_col, parent, fk.ref_columns[0], keys, when
    return None


def parent_name_key(schema: Schema, table: TableInfo) -> tuple[str, TableInfo, str, list[str], str] | None:
    """A row whose own name repeats but is unique within its parent, with no name of its own that
    is unique (a county named only by its FIPS code, a city by its GeoNames number): (foreign-key
    column, parent table, the parent's referenced column, the parent's look-up name, the name
    column), when the pair (name, foreign key) was measured to tell the rows apart
    (:func:`ragdx.db.schema.parent_name_candidates`); else None. Questions name such a row as
    people do, by its name and its parent's: "Washington County, Alabama", "Lagos, Nigeria"."""
    if is_association(table) or not table.rows or table.declared_key:
        return None
    keys = lookup_keys(table)
    if keys and any(name_rank(table, k) is not None for k in keys):
        return None  # the row has a name people use already
    if keys and is_number_key(table, keys) and _document_number(table, keys[0]):
        return None  # an order number people see and say
    for combo in parent_name_candidates(table):
        name_col, fk_col = combo
        measured = table.tuple_distinct.get(",".join(combo))
        if measured is None or measured < _NEAR_UNIQUE * table.rows or name_rank(table, name_col) != 0:
            continue
        if is_surrogate(table, name_col) or left_out_reason(table, name_col) is not None:
            continue
        fk = table.foreign_key_of(fk_col)
        if fk is None or not schema.has_table(fk.ref_table):
            continue
        parent = schema.table(fk.ref_table)
        parent_keys = lookup_keys(parent)
        if parent.name == table.name or is_association(parent) or len(parent_keys) != 1 \
                or name_rank(parent, parent_keys[0]) is None:
            continue  # the parent must have a name of its own to name its child by
        return fk_col, parent, fk.ref_columns[0], parent_keys, name_col
    return None


def is_number_key(table: TableInfo, columns: Sequence[str]) -> bool:
    """The key is a number people use (an order number), not a name."""
    return len(columns) == 1 and table.column(columns[0]).kind in ("integer", "number")


def _answerable(table: TableInfo, column: str) -> bool:
    return not is_surrogate(table, column) and not is_binary(table, column)


#: a text column whose values average more than this many characters is free text (notes, a
#: blurb): measured on the project's databases, names and titles stay under 52 characters and
#: descriptions, notes and bios average 96 to 265, and no reader writes a paragraph back verbatim
LONG_TEXT = 80
#: words of a column that holds contact details: what a person looks up in a directory, not asks
#: an assistant, and whose spellings ("+33 1 47 23 44 04") no reader reproduces
CONTACT_WORDS = frozenset({"phone", "telephone", "tel", "mobile", "cell", "fax", "email", "mail",
                           "address", "postal", "zip", "postcode", "url", "website", "homepage",
                           "extension", "ext", "twitter", "linkedin"})
#: what a row of a table is when it is an area, not a point: its one latitude/longitude is a centre
_AREA_NOUNS = frozenset({"continent", "country", "region", "state", "province", "county", "district",
                         "territory", "subregion"})
#: contact words that are a web address (told apart so the reason says what the column holds)
_WEB_WORDS = frozenset({"url"})  # a link to a page (a row's own website is how to reach it: a contact detail)
_PHONE_WORDS = frozenset({"phone", "telephone", "tel", "mobile", "cell", "fax"})
#: a "phone" column whose values average at most this many characters holds dialling codes ("+376"),
#: not phone numbers (seven digits and more)
_DIALLING_CODE_LENGTH = 5
#: a "references" column whose values average at most this many characters holds citation keys
_CITATION_KEY_LENGTH = 12
#: the last word of a column holding a rule for values (a regular expression, an input mask)
_PATTERN_WORDS = frozenset({"regex", "regexp"})
#: the same after another noun ("postal code pattern", "phone format"; a book's "format" alone is data)
_PATTERN_TAILS = frozenset({"pattern", "mask", "format"})
# the last word of an integer column that counts or ranks, which may hold only two values
# without being a yes/no flag ("berths" 1 or 2)
_QUANTITY_WORDS = frozenset({"number", "count", "year", "years", "position", "rank", "level", "grade",
                             "floor", "size", "age", "quantity", "order", "sequence", "seq", "priority"})


def _is_flag(table: TableInfo, column: str) -> bool:
    """An integer column holding at most two values under a name that is no quantity: a 0/1 flag
    ("perishable", "has_hydro_pool"), whose answer reads as a code (a real boolean reads yes/no)."""
    col = table.column(column)
    if col.distinct is None or col.distinct > 2 or (table.rows or 0) < 3:
        return False
    if col.kind == "text":  # '0' / '1', 'Y' / 'N' stored as text
        return col.mean_length is not None and col.mean_length <= 1
    if col.kind != "integer":
        return False
    words = low_words(column)
    return bool(words) and words[-1] not in _QUANTITY_WORDS and not words[-1].endswith("s")


def left_out_reason(table: TableInfo, column: str) -> str | None:
    """Why the default templates do not ask for this column although it is no key, id or blob
    (issue 22 item 3), or None: a constant, long free text, a contact detail or a 0/1 flag. A
    column named under ``ask:`` in ``ragdx.yaml`` is asked about whatever it holds."""
    col = table.column(column)
    if col.name in table.asked:
        return None
    present = (table.rows or 0) - (col.nulls or 0)
    if col.distinct == 1 and present >= 2:
        return "constant: one value in every row"
    if col.kind == "text" and col.mean_length is not None and col.mean_length > LONG_TEXT:
        return f"long free text: {col.mean_length:.0f} characters on average"
    words = low_words(column)
    if words[-1:] and (words[-1] in _PATTERN_WORDS or len(words) > 1 and words[-1] in _PATTERN_TAILS):
        # "postal code regex", "phone format": a rule values must follow, not a fact about the row
        return "a format pattern: not an answer a reader can match"
    pieces = set(words) | {a + b for a, b in itertools.pairwise(words)}  # "home page"
    if pieces & _WEB_WORDS:
        # a web address (a company's site, an encyclopedia page): no reader types one back
        return "a web address: no reader types one back"
    if words[-1:] and words[-1] in _PHONE_WORDS and col.kind == "text" and col.mean_length is not None \
            and col.mean_length <= _DIALLING_CODE_LENGTH:
        # "+376", "1-268": a country's dialling prefix, a code, not a number anyone calls (a phone
        # extension, "phone_ext", is short too but is a contact detail: its last word says so)
        return "a dialling code (a few digits, not a phone number): a code"
    if pieces & CONTACT_WORDS:
        return "contact detail"
    if words[-1:] in (["path"], ["file"], ["filename"]):
        return "a file path"
    if _is_flag(table, column):
        return "a 0/1 flag: its answer reads as a code"
    if words[:1] in (["is"], ["has"], ["can"]) and len(words) > 1 and (col.kind == "boolean" or col.kind == "integer"
                                                                        and (col.distinct or 0) <= 2):
        # "is_radioactive": a yes/no question ("Is technetium radioactive?") that the look-up's frames
        # can only ask as "the radioactive status of", which no one says
        return "a yes/no flag: asked only as 'the ... status of', which no one says; list under ask: to ask it"
    if words in (["references"], ["reference"], ["citation"], ["citations"], ["refs"]) and col.kind == "text" \
            and col.mean_length is not None and col.mean_length <= _CITATION_KEY_LENGTH:
        # "L8672c99", "HDEL": a key into a bibliography the database keeps elsewhere, not a reference
        # a reader can follow or name (a reference written out averages far more: authors, title, year)
        return "citation keys: a reference a reader cannot follow"
    if col.hex_colours:
        # "#e08e79" under "color": a colour for a chart or a web page, asked as "the color of the
        # transition metals" it misleads (a reader says "silvery")
        return "a colour code (hex, for charts): not a colour a reader names"
    noun = readable_entity(table.name).lower().split()[-1:]
    if noun and noun[0] in _AREA_NOUNS and expanded_words(column) in (["latitude"], ["longitude"]):
        # one point for a whole continent or country (its centre, which the data does not say): people
        # ask where a city or an airport is, not "the latitude of Asia"
        return "one point for a whole area (its centre, unsaid): not what people ask of an area"
    if col.kind == "text" and col.mean_length is not None and col.mean_length <= 1 and (col.distinct or 0) >= 2 \
            and present >= 3:
        # 'A', 'N', 'U' (a daylight-saving rule): a letter whose meaning no reader can guess
        return "a one-letter code: its answer reads as a code"
    if col.code_values and unexplained_word(column):
        # 'lid' holding '9S1': a code whose name says neither what kind of code it is nor anything a
        # reader knows; "the lid of the airport" is no question (issue 22 prefers none to a bad one)
        return f"codes under a name that says no noun ('{column}'): name it under names: columns: in ragdx.yaml"
    return _left_out_as_key(table, col, words)


def _left_out_as_key(table: TableInfo, col: Any, words: list[str]) -> str | None:
    """The reasons of :func:`left_out_reason` that depend on how the table's rows are named: a
    code or a key people do not say, the row's name again, bookkeeping numbers and links."""
    column = col.name
    keys = lookup_keys(table)  # once: it may scan the measured column tuples
    standard = standard_code(col.name)
    if standard is not None and keys != [col.name]:
        # a public standard's code under any spelling ("iso3", "isonumeric", "fips", "currencycode")
        # is a code as much as one named "...code": codes are no answer unless the user asks for
        # them (issue 22), so both are left out alike, and asked as "the ISO3 code of" when listed
        return f"a code ({standard}): asked only when listed under ask:"
    if words[-1:] == ["code"] and keys != [col.name]:
        return "a code: not an answer people can check"
    if len(keys) == 2 and name_pair(table) == keys and words[-1:] == ["name"] and col.name not in keys:
        # "Young, Bruce" in full_name beside first_name and last_name: the row's own name again
        return f"the row's name in another form (it is named by {' and '.join(keys)})"
    if col.name in table.primary_key and len(table.primary_key) > 1 and col.kind == "integer" \
            and table.foreign_key_of(col.name) is None and words[-1:] != ["year"]:
        return "a number within a composite key (an order's line number)"
    linked = _date_link(table, col.name)
    if linked:
        # flights.time_hour ('2013-01-01 05:00:00') beside year, month, day and hour: it only joins the
        # weather of that hour, and "the time hour of UA flight 1545 on 2013-1-1" asks nothing new
        return f"repeats the row's date columns to link to {linked} (a key of several columns)"
    if len(words) == 1 and col.kind in ("integer", "number") and _bare_participle(column):
        # "aged", "needed": a number under a participle says neither what it counts nor of what
        return "a number named by a participle alone: say what it counts under names: columns: in ragdx.yaml"
    if col.kind == "integer" and (words[-2:] == ["line", "number"] or words[-1] in ("seq", "sequence", "ordinal")):
        return "a line or sequence number: bookkeeping, not an answer people ask for"
    if table.primary_key == [col.name] and name_rank(table, col.name) is None \
            and keys not in ([], [col.name]):
        # the key other tables join on ('K-01'), where people name the row otherwise (by city)
        return f"key code: the row is named by {', '.join(keys)}"
    return None


def _date_link(table: TableInfo, column: str) -> str | None:
    """The table a column links to when it is part of a foreign key of several columns, is no
    foreign key of its own, holds a date or time, and the row states its date in columns of its own
    (year, month and day): the column repeats them for the join; else None."""
    fks = [fk for fk in table.foreign_keys if len(fk.columns) > 1 and column in fk.columns]
    if not fks or table.foreign_key_of(column) is not None or column in table.primary_key:
        return None
    col = table.column(column)
    if col.kind != "date" and not set(low_words(column)) & {"time", "date", "hour", "timestamp"}:
        return None
    parts = {w[0] for w in (low_words(c.name) for c in table.columns) if len(w) == 1 and w[0] in DATE_PARTS}
    return fks[0].ref_table if parts == set(DATE_PARTS) else None


def _bare_participle(column: str) -> bool:
    """``aged``, ``needed``: a past participle that is no event a date records
    (:data:`ragdx.gen.naming.DATE_VERBS`), no noun that only ends like one (``speed``, ``seed``) and
    not named otherwise (a synonym, or ragdx.yaml's ``names: columns:``)."""
    word = column.strip().lower()
    return word.endswith("ed") and len(word) >= 4 and word not in DATE_VERBS and not word.endswith("eed") \
        and column_phrase(column).lower() == word


def abbreviated_columns(schema: Schema) -> list[tuple[str, str]]:
    """(table, column) of the columns the default templates ask about under a name no rule can
    write out ("W", "HR", "2B", "IPouts"), so that ``ragdx templates sql`` can say to name them in
    ``ragdx.yaml`` (``names: columns:``) before questions are generated with them."""
    return [(t.name, c.name) for t in schema.tables.values() if t.rows for c in t.columns
            if abbreviated(c.name) and _answerable(t, c.name) and left_out_reason(t, c.name) is None]


def left_out_columns(schema: Schema) -> list[tuple[str, str, str]]:
    """(table, column, reason) for every column the default templates leave out by
    :func:`left_out_reason`, so that ``ragdx templates sql`` can say so."""
    return [(t.name, c.name, reason) for t in schema.tables.values() if t.rows
            for c in t.columns if _answerable(t, c.name) and t.foreign_key_of(c.name) is None
            and (reason := left_out_reason(t, c.name)) is not None]


def left_out_tables(schema: Schema) -> list[tuple[str, str]]:
    """(table, reason) for every table with rows that no default template asks about, so that
    ``ragdx templates sql`` says why (issue 22: a table left out in silence looks like a bug)."""
    asked = {t.schema for t in schema_templates(schema)}  # an association's are filed under its ends
    return [(t.name, _table_reason(schema, t)) for t in schema.tables.values()
            if t.rows and t.name not in asked and not (is_association(t) and _association_templates(schema, t))]


def _table_reason(schema: Schema, table: TableInfo) -> str:
    if is_association(table):
        ends = _association_ends(schema, table)
        if len({ref.name for _, ref, _, _ in ends}) < 2:
            return ("a link of one table's rows to each other: its two ends would need the same "
                    "look-up placeholders twice" if len(ends) >= 2 else "a link whose ends have no look-up key")
        return "a link between tables no template could name"
    found = extension_parent(schema, table)
    if found is not None and not _named_by_a_name(found[1], found[3]):
        return (f"one row per {found[1].name} row, and {found[1].name} is named only by its key "
                f"{', '.join(found[3])} (a term spelled for machines, no name people use): not asked")
    if found is not None:
        return f"one row per {found[1].name} row: its own columns are left out (above)"
    if lookup_keys(table):
        return "nothing to ask beside what names its rows: its other columns are left out (above)"
    if table.primary_key and all(table.foreign_key_of(c) is not None for c in table.primary_key):
        return "keyed by its foreign keys only, to rows with no look-up key: name them with 'keys:' in ragdx.yaml"
    return "no column names its rows (no name, no measured key): name one with 'keys:' in ragdx.yaml"


def _attributes(table: TableInfo, exclude: set[str]) -> list[str]:
    """Columns worth asking for: not the key, not an id, not binary, not a foreign key (those
    are asked through the join, by the related entity's name), and none that
    :func:`left_out_reason` leaves out."""
    return [c.name for c in table.columns
            if c.name not in exclude and _answerable(table, c.name) and table.foreign_key_of(c.name) is None
            and left_out_reason(table, c.name) is None]


def _grouped(table: TableInfo, columns: list[str]) -> list[list[str]]:
    """One projection per column, except a person's first and last name under a shared role
    (``contactFirstName`` + ``contactLastName``, ``contact_first`` + ``contact_last``): asked
    together, as the contact person, since "the contact last name of …" is no question a person
    asks."""
    out: list[list[str]] = []
    taken: set[str] = set()
    for c in columns:
        part = role_name_part(c)
        if c in taken or part is None or part[1] != "first":
            continue
        last = [d for d in columns if role_name_part(d) == (part[0], "last")]
        if last:
            out.append([c, last[0]])
            taken |= {c, last[0]}
    return [[c] for c in columns if c not in taken] + out


def is_association(table: TableInfo) -> bool:
    """A link between entities, recognised from the schema alone (never from the order in
    which the engine lists foreign keys): two or more foreign keys that form the primary key
    (or, without a primary key, make up the row), and few columns of its own. A table with its
    own key (an order, a track) is an entity whatever number of foreign keys it has."""
    if table.declared_key:
        return False
    fk_cols = {fk.columns[0] for fk in table.foreign_keys if len(fk.columns) == 1}
    if len(fk_cols) < 2:
        return False
    own = [c.name for c in table.columns if c.name not in fk_cols and _answerable(table, c.name)]
    if len(own) > _ASSOCIATION_OWN_COLUMNS:
        return False
    pk = set(table.primary_key)
    if pk:
        return pk <= fk_cols and len(pk) >= 2
    return not any(name_rank(table, c) == 0 for c in own)


def _association_ends(schema: Schema, assoc: TableInfo) -> list[tuple[str, TableInfo, str, list[str]]]:
    """(fk column, referenced table, referenced column, its look-up key) per end, by column name."""
    ends = []
    for fk in sorted(assoc.foreign_keys, key=lambda f: f.columns):
        if len(fk.columns) == 1 and schema.has_table(fk.ref_table):
            ref = schema.table(fk.ref_table)
            keys = lookup_keys(ref)
            if keys and not is_association(ref):
                ends.append((fk.columns[0], ref, fk.ref_columns[0], keys))
    return ends






def _alias(noun: str) -> str:
    return "".join(w[:1].upper() + w[1:] for w in noun.split()) or "Other"


def _where(qualifier: str, keys: Sequence[str], table: str, *, qualified: bool = True) -> str:
    return " AND ".join(
        (f"{_q(qualifier)}.{_q(k)}" if qualified else _q(k)) + f" = '[{table}.{k}]'" for k in keys)


def display_name(schema: Schema, table: TableInfo) -> tuple[TableInfo, str, str] | None:
    """(the one-to-one child, its column pointing at ``table``'s key, its name column) when ``table``'s
    rows are keyed by a term spelled for machines and named as people name them one join away
    (``TableInfo.display_name``, measured: 'Bulbasaur' in ``pokemonnames.english`` for the key
    'bulbasaur'); None otherwise, and always where the user declared the table's key.
    Rule (any schema): such a row is asked and answered by that name, never by its key term."""
    if table.display_name is None or table.declared_key or not schema.has_table(table.display_name[0]):
        return None
    child, fk_col, name = table.display_name
    found = schema.table(child)
    return (found, fk_col, name) if found.has_column(name) and _expressible(found.name, name) else None


def _holds_display_names(schema: Schema, table: TableInfo) -> bool:
    """Whether ``table`` is the one-to-one child that holds another table's display names."""
    return any(display_name(schema, parent) is not None and parent.display_name is not None
               and parent.display_name[0].lower() == table.name.lower()
               for parent in schema.tables.values())


def _named_join(schema: Schema, table: TableInfo, qualifier: str) -> tuple[str, str] | None:
    """(" JOIN <child> ON …", the WHERE condition) that name a row of ``table`` (spelled ``qualifier``
    in the query) by its display name (:func:`display_name`), or None."""
    found = display_name(schema, table)
    if found is None:
        return None
    child, fk_col, name = found
    q = _q
    return (f" JOIN {q(child.name)} ON {q(qualifier)}.{q(table.primary_key[0])} = {q(child.name)}.{q(fk_col)}",
            f"{q(child.name)}.{q(name)} = '[{child.name}.{name}]'")


def schema_templates(schema: Schema) -> list[SqlTemplate]:
    """Deterministic templates derived from the schema and the profiled data.

    Per entity table with a look-up key (a name, a first + last name, a declared key or an order
    number): every other meaningful attribute (``SELECT Industry FROM Client WHERE Name =
    '[Client.Name]'``); across each foreign key, the referenced entity's name and attributes
    (the supplier of a product, the city of its supplier; a self-reference is named by its
    relation, "manager"). Per association table: its own attributes by both ends, and each
    end's names by the other end, for every pair of ends. Surrogate ids and binary columns are
    never projected nor used as placeholders; empty tables give nothing to ask.
    """
    q = _q
    out: list[SqlTemplate] = []
    for table in schema.tables.values():
        if table.rows == 0:
            continue
        if is_association(table):
            out += _association_templates(schema, table)
            continue
        if parent_name_key(schema, table) is not None:
            out += _parent_name_templates(schema, table)
            continue
        keys = lookup_keys(table)
        if not keys or _holds_display_names(schema, table):
            # a table of display names is its parent's (asked of the parent by name), never a row of its own
            out += _extension_templates(schema, table) or _parent_key_templates(schema, table)
            continue
        if not _expressible(table.name, *keys):
            continue
        where_plain = _where(table.name, keys, table.name, qualified=False)
        if (named := _named_join(schema, table, table.name)) is not None:  # a slug key: by its display name
            out += _display_named_templates(schema, table, keys, named)
            continue
        # a foreign key that stores the related row's name (Project.Client -> Client.Name) is
        # answered as it is; one that stores an id is asked through the join below
        named_fks = [fk.columns[0] for fk in table.foreign_keys
                     if len(fk.columns) == 1 and schema.has_table(fk.ref_table)
                     and lookup_keys(schema.table(fk.ref_table)) == [schema.table(fk.ref_table).column(
                         fk.ref_columns[0]).name] and fk.columns[0] not in keys
                     and _answerable(table, fk.columns[0])]
        attributes = [c.name for c in table.columns
                      if c.name in named_fks or c.name in _attributes(table, set(keys))]
        for group in _grouped(table, attributes):
            out.append(SqlTemplate(f"SELECT {', '.join(map(q, group))} FROM {q(table.name)} WHERE {where_plain}",
                                   table.name, "schema"))
        where = _where(table.name, keys, table.name)
        for fk in table.foreign_keys:
            if len(fk.columns) != 1 or not schema.has_table(fk.ref_table):
                continue
            fk_col, ref, ref_col = fk.columns[0], schema.table(fk.ref_table), fk.ref_columns[0]
            ref_keys = lookup_keys(ref)
            if not ref_keys or is_association(ref) or fk_col in keys:
                continue
            if any(table.names_parent.get(k) == fk_col for k in keys):
                # the row's name holds its parent's ("Po LXXIII" is an ion of Po): the question would
                # reach polonium through one of its ions to ask what a person asks of polonium by name
                # (up to one path per child row for each of the parent's facts), so the parent is
                # asked directly, never through the row (issue 22)
                continue
            self_join = ref.name == table.name
            alias = _alias(relation_noun(fk_col, ref.name, ref_col)) if self_join else ref.name
            if self_join and alias.lower() == table.name.lower():
                alias = f"Related{alias}"
            join = (f"FROM {q(table.name)} JOIN {q(ref.name)}"
                    + (f" AS {q(alias)}" if alias != ref.name else "")
                    + f" ON {q(table.name)}.{q(fk_col)} = {q(alias)}.{q(ref_col)}")
            # the related row is answered by its name (never by the id in the foreign key);
            # a self-reference asks only that (the manager's birth date is the manager's own fact)
            projections = [] if fk_col in named_fks else [list(ref_keys)]
            if not self_join:
                projections += _grouped(ref, _attributes(ref, set(ref_keys) | {ref_col}))
            for cols in projections:
                select = ", ".join(f"{q(alias)}.{q(c)}" for c in cols)
                out.append(SqlTemplate(f"SELECT {select} {join} WHERE {where}", table.name, "schema"))
        for fk, ref, names in _composite_references(schema, table):
            if not set(fk.columns) & set(keys) and _expressible(*names):
                out.append(SqlTemplate(f"SELECT {', '.join(f'{q(ref.name)}.{q(c)}' for c in names)} "
                                       f"FROM {q(table.name)} {_composite_join(table.name, fk)} WHERE {where}",
                                       table.name, "schema"))
    return out


def _display_named_templates(schema: Schema, table: TableInfo, keys: list[str],
                             named: tuple[str, str]) -> list[SqlTemplate]:
    """A row named by its display name (:func:`display_name`): each attribute, and each related row by
    its name, ``SELECT pokemon.dex_no FROM pokemon JOIN pokemonnames ON … WHERE pokemonnames.english =
    '[pokemonnames.english]'`` ("the dex number of the pokemon 'Bulbasaur'")."""
    q = _q
    join, where = named
    base = f"FROM {q(table.name)}{join}"
    out = [SqlTemplate(f"SELECT {', '.join(f'{q(table.name)}.{q(c)}' for c in group)} {base} WHERE {where}",
                       table.name, "schema") for group in _grouped(table, _attributes(table, set(keys)))]
    for fk in table.foreign_keys:
        if len(fk.columns) != 1 or fk.columns[0] in keys or not schema.has_table(fk.ref_table) \
                or fk.ref_table.lower() == table.name.lower():
            continue
        ref = schema.table(fk.ref_table)
        ref_keys = lookup_keys(ref)
        if not ref_keys or is_association(ref) or not _expressible(ref.name, *ref_keys):
            continue
        hop = f" JOIN {q(ref.name)} ON {q(table.name)}.{q(fk.columns[0])} = {q(ref.name)}.{q(fk.ref_columns[0])}"
        for cols in [list(ref_keys)] + _grouped(ref, _attributes(ref, set(ref_keys) | {fk.ref_columns[0]})):
            out.append(SqlTemplate(f"SELECT {', '.join(f'{q(ref.name)}.{q(c)}' for c in cols)} {base}{hop} "
                                   f"WHERE {where}", table.name, "schema"))
    return out


def _composite_references(schema: Schema, table: TableInfo) -> list[tuple[ForeignKey, TableInfo, list[str]]]:
    """(foreign key, referenced table, the columns that name the referenced row) per foreign key of
    several columns (an employee's job by code, grade and country; a player's team by year and team
    code), where the referenced row has a name the key does not already hold: its look-up key's
    name columns (the team's name in that year), or else its own name column even where that is not
    unique on its own (a job's title: the whole key picks one row). Asking for it is asking for the
    row: "the job title of 'Ann Bennet'", "the team of 'Rob Ducey' in 1989" (issue 22)."""
    found = []
    for fk in table.foreign_keys:
        if len(fk.columns) < 2 or not schema.has_table(fk.ref_table) or fk.ref_table == table.name:
            continue
        ref = schema.table(fk.ref_table)
        if is_association(ref) or not ref.rows or not _expressible(ref.name):
            continue
        names = [k for k in lookup_keys(ref) if k not in fk.ref_columns and name_rank(ref, k) is not None]
        if not names:
            ranked = sorted((rank, i, c.name) for i, c in enumerate(ref.columns)
                            if c.kind == "text" and c.name not in fk.ref_columns and ref.foreign_key_of(c.name) is None
                            and (rank := name_rank(ref, c.name)) is not None and rank <= 1
                            and left_out_reason(ref, c.name) is None)
            names = [ranked[0][2]] if ranked else []
        if names:
            found.append((fk, ref, names))
    return found


def _composite_join(table: str, fk: ForeignKey) -> str:
    on = " AND ".join(f"{_q(table)}.{_q(c)} = {_q(fk.ref_table)}.{_q(r)}"
                      for c, r in zip(fk.columns, fk.ref_columns, strict=True))
    return f"JOIN {_q(fk.ref_table)} ON {on}"


def _parent_key_templates(schema: Schema, table: TableInfo) -> list[SqlTemplate]:
    """A row known as its parent's row in a year (:func:`parent_key`): each attribute through the
    parent's name and the year, ``SELECT Salaries.salary FROM Salaries JOIN People ON … WHERE
    People.nameFirst = '[People.nameFirst]' AND People.nameLast = … AND Salaries.yearID = …``."""
    found = parent_key(schema, table)
    if found is None:
        return []
    fk_col, parent, ref_col, keys, when = found
    if not _expressible(table.name, parent.name, *keys, when):
        return []
    q = _q
    join = f"FROM {q(table.name)} JOIN {q(parent.name)} ON {q(table.name)}.{q(fk_col)} = {q(parent.name)}.{q(ref_col)}"
    where = _where(parent.name, keys, parent.name) + f" AND {q(table.name)}.{q(when)} = '[{table.name}.{when}]'"
    attributes = _attributes(table, {fk_col, when})
    out = [SqlTemplate(f"SELECT {', '.join(f'{q(table.name)}.{q(c)}' for c in group)} {join} WHERE {where}",
                       table.name, "schema") for group in _grouped(table, attributes)]
    for fk, ref, names in _composite_references(schema, table):
        # the row's other parent through a key of several columns: "the team of 'Rob Ducey' in 1989"
        if fk_col not in fk.columns and ref.name != parent.name and _expressible(*names):
            out.append(SqlTemplate(f"SELECT {', '.join(f'{q(ref.name)}.{q(c)}' for c in names)} "
                                   f"{join} {_composite_join(table.name, fk)} WHERE {where}", table.name, "schema"))
    return out


def extension_parent(schema: Schema, table: TableInfo) -> tuple[str, TableInfo, str, list[str]] | None:
    """A table that keeps more of its parent's own facts, one row per parent row: its whole primary
    key is its foreign key to the parent's primary key (``creaturestats.term -> creatures.term``, an
    employee's contract row). (foreign-key column, parent, the parent's referenced column, the
    parent's look-up key), or None. A person asks these facts of the parent by its name ("the speed
    of the creature 'ash wolf'"): the extra table is how the database is stored, not a thing people
    name, and its rows have no name of their own to ask by (issue 22)."""
    if table.declared_key or len(table.primary_key) != 1 or is_association(table) \
            or (lookup_keys(table) and not _holds_display_names(schema, table)):
        return None
    fk = table.foreign_key_of(table.primary_key[0])
    if fk is None or len(fk.columns) != 1 or not schema.has_table(fk.ref_table):
        return None
    parent = schema.table(fk.ref_table)
    if parent.name == table.name or is_association(parent) or list(fk.ref_columns) != parent.primary_key:
        return None
    keys = lookup_keys(parent)
    return (fk.columns[0], parent, fk.ref_columns[0], keys) if keys else None


def _named_by_a_name(table: TableInfo, keys: Sequence[str]) -> bool:
    """The rows are named by a name people use (or a number they see), not by a key term spelled for
    machines ('mega-gyarados'): asking a parent's extra facts by such a term would multiply questions
    that name their row by a slug, some of them a form's slug no reader knows (issue 22)."""
    return any(name_rank(table, k) is not None for k in keys) or is_number_key(table, keys) \
        or table.display_name is not None


def _extension_templates(schema: Schema, table: TableInfo) -> list[SqlTemplate]:
    """A one-to-one extension's attributes (:func:`extension_parent`) through its parent's name:
    ``SELECT creaturestats.speed FROM creaturestats JOIN creatures ON … WHERE creatures.term = …``."""
    found = extension_parent(schema, table)
    if found is None:
        return []
    fk_col, parent, ref_col, keys = found
    if not _named_by_a_name(parent, keys) or not _expressible(table.name, parent.name, *keys):
        return []
    q = _q
    join = f"FROM {q(table.name)} JOIN {q(parent.name)} ON {q(table.name)}.{q(fk_col)} = {q(parent.name)}.{q(ref_col)}"
    where = _where(parent.name, keys, parent.name)
    own_name: set[str] = set()
    named = _named_join(schema, parent, parent.name)
    if named is not None:
        # the parent asked by its display name; the child that holds that name is not asked for it
        # again ("the English name of 'Bulbasaur'" answers itself)
        child, _, name = display_name(schema, parent) or (None, "", "")
        own_name = {name} if child is table else set()
        join, where = (join if child is table else f"{join}{named[0]}"), named[1]
    out = [SqlTemplate(f"SELECT {', '.join(f'{q(table.name)}.{q(c)}' for c in group)} {join} WHERE {where}",
                       table.name, "schema") for group in _grouped(table, _attributes(table, {fk_col} | own_name))]
    for fk in table.foreign_keys:
        # the parent's other related rows, answered by their names ("the hidden ability of ...")
        if len(fk.columns) != 1 or fk.columns[0] == fk_col or not schema.has_table(fk.ref_table):
            continue
        ref = schema.table(fk.ref_table)
        ref_keys = lookup_keys(ref)
        if not ref_keys or is_association(ref) or ref.name in (table.name, parent.name) \
                or not _named_by_a_name(ref, ref_keys) or not _expressible(ref.name, *ref_keys):
            continue
        out.append(SqlTemplate(
            f"SELECT {', '.join(f'{q(ref.name)}.{q(c)}' for c in ref_keys)} {join} JOIN {q(ref.name)} "
            f"ON {q(table.name)}.{q(fk.columns[0])} = {q(ref.name)}.{q(fk.ref_columns[0])} WHERE {where}",
            table.name, "schema"))
    return out


def _parent_name_templates(schema: Schema, table: TableInfo) -> list[SqlTemplate]:
    """A row named by its name within its parent (:func:`parent_name_key`): each attribute through
    both names, ``SELECT us_counties.fips FROM us_counties JOIN us_states ON … WHERE
    us_counties.name = '[us_counties.name]' AND us_states.name = '[us_states.name]'`` ("the FIPS
    code of 'Washington County, Alabama'"). The parent itself is in the question, so it is not asked."""
    found = parent_name_key(schema, table)
    if found is None:
        return []
    fk_col, parent, ref_col, keys, name_col = found
    if not _expressible(table.name, parent.name, name_col, *keys):
        return []
    q = _q
    join = f"FROM {q(table.name)} JOIN {q(parent.name)} ON {q(table.name)}.{q(fk_col)} = {q(parent.name)}.{q(ref_col)}"
    where = f"{q(table.name)}.{q(name_col)} = '[{table.name}.{name_col}]' AND " + _where(parent.name, keys, parent.name)
    # the code the row was known by before (a county's FIPS code) is a code like any other once the
    # row is named by its names: left out, as left_out_reason leaves out every code that names no row
    codes = {k for k in lookup_keys(table) if standard_code(k) is not None or low_words(k)[-1:] == ["code"]}
    attributes = _attributes(table, {fk_col, name_col} | codes)
    return [SqlTemplate(f"SELECT {', '.join(f'{q(table.name)}.{q(c)}' for c in group)} {join} WHERE {where}",
                        table.name, "schema") for group in _grouped(table, attributes)]


def _association_templates(schema: Schema, assoc: TableInfo) -> list[SqlTemplate]:
    q = _q
    out = []
    fk_cols = {fk.columns[0] for fk in assoc.foreign_keys if len(fk.columns) == 1}
    for (c1, r1, rc1, k1), (c2, r2, rc2, k2) in itertools.combinations(_association_ends(schema, assoc), 2):
        if r1.name == r2.name:
            continue  # a self-link's two ends would need the same placeholders twice
        if not _expressible(r1.name, r2.name, *k1, *k2):
            continue
        key = f"{r1.name},{r2.name}"
        join = (f"FROM {q(assoc.name)} JOIN {q(r1.name)} ON {q(assoc.name)}.{q(c1)} = {q(r1.name)}.{q(rc1)} "
                f"JOIN {q(r2.name)} ON {q(assoc.name)}.{q(c2)} = {q(r2.name)}.{q(rc2)}")
        w1, w2 = _where(r1.name, k1, r1.name), _where(r2.name, k2, r2.name)
        for attr in _attributes(assoc, fk_cols):
            out.append(SqlTemplate(f"SELECT {q(assoc.name)}.{q(attr)} {join} WHERE {w1} AND {w2}",
                                   key, "schema"))
        # many-to-many: the names at one end for an entity at the other (answer sets are
        # measured later)
        out.append(SqlTemplate(
            f"SELECT {', '.join(f'{q(r2.name)}.{q(k)}' for k in k2)} {join} WHERE {w1}", key, "schema"))
        out.append(SqlTemplate(
            f"SELECT {', '.join(f'{q(r1.name)}.{q(k)}' for k in k1)} {join} WHERE {w2}", key, "schema"))
    return out


def _q(name: str) -> str:
    """Quote an identifier only when it needs it, so the templates stay readable."""
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) and name.upper() not in _RESERVED:
        return name
    return '"' + name.replace('"', '""') + '"'


_RESERVED = {"SELECT", "FROM", "WHERE", "ORDER", "GROUP", "USER", "TABLE", "INDEX", "KEY", "DESC",
             "ASC", "LIMIT", "JOIN", "RANK", "ROWS", "RANGE", "READS", "CHANGE", "CONDITION"}


# ----------------------------------------------------------------------------- LLM method

SQL_PROMPT = """You are a SQL query Template Generator: Generate ACCEPTABLE SQL query templates with placeholders according to the give data schema and requirements. A simple example of an acceptable SQL query template is:
SELECT Industry FROM Company WHERE Name = '[Company.Name]';
You must follow the basic criteria below except for other requirements:
##CRITERIA##
- The placeholder format should be a combination of a table name and a column name, enclosed within square brackets, e.g., '[User.Name]'.
- Use only 'SELECT' queries.
- Select specific column(s) instead of using '*'. Avoid projecting attributes that appear in the predicate.
- The selected and condition columns in the query MUST BE MEANINGFUL and DESCRIPTIVE to ensure the queries are easily understood by non-technical users.
- Avoid using technical column names that don't clearly signify the nature of the entities or objects involved, e.g., column for semantically void record identifiers.
- Do not create redundant or semantically duplicated queries when translated into natural language.
- Each query must contain at least one parameter placeholder in the WHERE clause.
- Ensure the query yields a specific and singular answer to avoid multiplicity issues, thus facilitating accurate chatbot evaluation.
{SPECIFIC_REQUIREMENTS}
- If no acceptable SQL template can be generated with the given table and column information, do not generate any text.
##RESPONSE FORMAT##
- Output each SQL template as a single line, without any prefix or suffix.
- Do not include any other text in your response, even something like ##RESPONSE_END##.
##DATA SCHEMA##
{GIVEN_SCHEMA}
##RESPONSE_START##
"""


def describe_schema(schema: Schema, tables: Sequence[str]) -> str:
    """The ``{GIVEN_SCHEMA}`` block: DDL-like lines with keys (structure only, no rows, App. B)."""
    lines = []
    for name in tables:
        t = schema.table(name)
        cols = ", ".join(f"{c.name} {c.type}" + (" PRIMARY KEY" if c.primary_key and len(t.primary_key) == 1 else "")
                         for c in t.columns)
        lines.append(f"Table {t.name}({cols})")
        if len(t.primary_key) > 1:
            lines.append(f"  PRIMARY KEY ({', '.join(t.primary_key)})")
        for fk in t.foreign_keys:
            lines.append(f"  FOREIGN KEY ({', '.join(fk.columns)}) REFERENCES {fk.ref_table}({', '.join(fk.ref_columns)})")
    return "\n".join(lines)


def sql_prompt(schema: Schema, tables: Sequence[str], requirements: Sequence[str] = ()) -> str:
    reqs = "\n".join(f"- {r.lstrip('- ').strip()}" for r in requirements if r.strip())
    return SQL_PROMPT.replace("{SPECIFIC_REQUIREMENTS}", reqs).replace(
        "{GIVEN_SCHEMA}", describe_schema(schema, tables))


def parse_llm_sql(text: str) -> list[str]:
    """One template per line; code fences, numbering and bullets that small models add are
    stripped, lines that are not SELECTs are dropped (and then show up as missing, not as errors)."""
    out = []
    for line in text.splitlines():
        line = re.sub(r"^\s*(\d+[.)]|[-*•])\s*", "", line).strip().strip("`").strip()
        if line.lower().startswith("sql "):
            line = line[4:].strip()
        if re.match(r"(?i)select\b", line):
            out.append(line)
    return out


async def llm_templates(llm, schema: Schema, target: Sequence[str], requirements: Sequence[str] = ()
                        ) -> list[SqlTemplate]:
    """Table 7's prompt for one target schema; the lines are returned unvalidated."""
    completion = await llm.complete([{"role": "user", "content": sql_prompt(schema, target, requirements)}])
    key = ",".join(schema.table(t).name for t in target)
    return [SqlTemplate(sql, key, "llm") for sql in parse_llm_sql(completion.text)]


# ----------------------------------------------------------------------------- the templates file


HEADER = """\
# ragdx SQL templates. Edit freely: `ragdx templates sql` adds templates only for target schemas
# that are not in this file yet, and never rewrites what is here. A template is a single SELECT
# with placeholders written '[Table.Column]' in equalities of its WHERE clause.
version: 1
schemas:
"""


def read_templates(path: str | Path) -> list[SqlTemplate]:
    """Read a ragdx YAML templates file, or the GRAMMAR reference's JSON
    (``{"('client',)": ["SELECT ..."]}``)."""
    from ragdx.store import read_structured

    path = Path(path)
    doc = read_structured(path, error=TemplateError)
    if path.suffix == ".json":
        return _read_reference_json(path, doc)
    doc = doc or {}
    if not isinstance(doc, dict) or not isinstance(doc.get("schemas", {}), dict):
        raise TemplateError("expected a mapping with 'schemas:'", source=str(path), field="schemas")
    out = []
    for key, entries in (doc.get("schemas") or {}).items():
        if not isinstance(entries, list):
            raise TemplateError("expected a list of templates", source=str(path), field=f"schemas.{key}")
        for i, entry in enumerate(entries):
            where = f"schemas.{key}[{i}]"
            if isinstance(entry, str):
                entry = {"sql": entry}
            if not isinstance(entry, dict) or not isinstance(entry.get("sql"), str) or not entry["sql"].strip():
                raise TemplateError("expected 'sql: SELECT ...'", source=str(path), field=where)
            unknown = set(entry) - {"sql", "method"}
            if unknown:
                raise TemplateError(f"unknown key(s) {sorted(unknown)}", source=str(path), field=where)
            out.append(SqlTemplate(entry["sql"].strip(), str(key), str(entry.get("method", "file")),
                                   origin=(str(path), where)))
    return out


def _read_reference_json(path: Path, doc: Any) -> list[SqlTemplate]:
    if not isinstance(doc, dict):
        raise TemplateError("expected an object keyed by target schema", source=str(path))
    out = []
    for key, sqls in doc.items():
        # the reference writes a Python tuple of table names as the key: read the quoted names,
        # never evaluate the text (a hand-edited key is data, not code)
        if key.strip().startswith("("):
            tables = tuple(a or b for a, b in re.findall(r"'([^']+)'|\"([^\"]+)\"", key))
            if not tables:
                raise TemplateError("expected a tuple of table names like ('client',)", source=str(path), field=key)
        else:
            tables = (key,)
        if not isinstance(sqls, list) or not all(isinstance(s, str) for s in sqls):
            raise TemplateError("expected a list of SQL strings", source=str(path), field=key)
        out += [SqlTemplate(s.strip(), ",".join(tables), "reference", origin=(str(path), f"{key}[{i}]"))
                for i, s in enumerate(sqls)]
    return out


def _render_yaml_block(templates: Sequence[SqlTemplate]) -> str:
    import yaml

    grouped: dict[str, list[dict]] = {}
    for t in templates:
        grouped.setdefault(t.schema, []).append({"sql": t.sql, "method": t.method})
    body = yaml.safe_dump(grouped, sort_keys=False, allow_unicode=True, width=1000)
    return "".join(f"  {line}\n" for line in body.splitlines())


def merge_into_file(path: str | Path, templates: Sequence[SqlTemplate]) -> list[str]:
    """Add ``templates`` of target schemas the file does not have yet; returns the schemas added.

    Existing text is never rewritten: new schemas are appended below it, so a person's edits
    and comments survive every re-run (App. B.2's save / modify / reload loop)."""
    from ragdx.store import append_under_key

    path = Path(path)
    existing = read_templates(path) if path.exists() else []
    have = {t.schema.lower() for t in existing}
    new = [t for t in templates if t.schema.lower() not in have]
    if not new and path.exists():
        return []
    append_under_key(path, "schemas", _render_yaml_block(new), header=HEADER,
                     count=lambda doc: sum(len(v or []) for v in (doc.get("schemas") or {}).values()),
                     expected=len(existing) + len(new))
    return list(dict.fromkeys(t.schema for t in new))
