"""Schema introspection with facts measured from the data.

Declared constraints say little about whether a column can identify an entity for a person: Aurp's
``Client.Name`` is a primary key, Spider's ``people.Name`` is not declared unique at all. So every
column is profiled (distinct and NULL counts) and uniqueness is taken from the data.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import itertools
import json
import re
from dataclasses import asdict, dataclass, field

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from ragdx.db.dialect import dialect_named
from ragdx.errors import DatabaseError, TemplateError


@dataclass(frozen=True, slots=True)
class ForeignKey:
    columns: tuple[str, ...]
    ref_table: str
    ref_columns: tuple[str, ...]


@dataclass(slots=True)
class ColumnInfo:
    name: str
    type: str
    nullable: bool
    primary_key: bool
    #: measured from the data; None when not profiled
    distinct: int | None = None
    nulls: int | None = None
    #: mean length of a text column's values (characters; bytes on MySQL): long free text is not
    #: an answer a reader can match (``ragdx.gen.sql_templates.left_out_reason``); None: not measured
    mean_length: float | None = None
    #: a text column named as a colour whose every value is a hex code ("#e08e79"): a colour for a
    #: chart, not one a reader names (``ragdx.gen.sql_templates.left_out_reason``); measured
    hex_colours: bool = False
    #: a text column of a few labels written in capitals ('GRASS', 'STATUS', 'SPECIAL_ATTACK'): a label
    #: people write as a word ("Grass"), measured by :func:`_upper_labels`
    upper_labels: bool = False
    #: a text column whose present values are all different and all short codes written in capitals
    #: and digits ('9S1', 'KJFK', 'AD-02'): an identifier, which a question can only ask by a noun
    #: that says what kind of code it is (``ragdx.gen.sql_templates.left_out_reason``); measured by
    #: :func:`_code_values`
    code_values: bool = False
    #: a date-time column whose present values all fall at midnight ('2007-09-06 00:00:00'): a date
    #: kept with a time of day nobody recorded, which a question says as the day ("6 September 2007");
    #: measured by :func:`_midnight_dates`
    midnight_dates: bool = False

    @property
    def kind(self) -> str:
        """``text``, ``integer``, ``number``, ``date``, ``boolean``, ``binary`` or ``other``."""
        return type_kind(self.type)


@dataclass(slots=True)
class TableInfo:
    name: str
    columns: list[ColumnInfo]
    primary_key: list[str]
    foreign_keys: list[ForeignKey] = field(default_factory=list)
    rows: int | None = None
    #: the columns people name a row by, declared in ``ragdx.yaml`` (``keys:``); None: inferred
    declared_key: list[str] | None = None
    #: measured distinct count of column tuples that may name a row together (first + last name)
    tuple_distinct: dict[str, int] = field(default_factory=dict)
    #: columns to ask about although ragdx leaves them out by default (``ask:`` in ``ragdx.yaml``)
    asked: list[str] = field(default_factory=list)
    #: a name column whose values hold the name or symbol of the row its foreign key points at
    #: ("Po LXXIII" of polonium, "Ford Focus" of Ford): name column -> that foreign-key column; measured
    #: by :func:`_name_holds_parent`
    names_parent: dict[str, str] = field(default_factory=dict)
    #: the name people know a row by when the table itself holds only a key term spelled for machines
    #: ('bulbasaur', 'mega-gyarados'): (a one-to-one child table, its column pointing at this table's
    #: key, the child's name column), or None; measured by :func:`_display_name`
    display_name: tuple[str, str, str] | None = None

    def column(self, name: str) -> ColumnInfo:
        found = _lookup({c.name: c for c in self.columns}, name)
        if found is None:
            raise KeyError(name)
        return found

    def has_column(self, name: str) -> bool:
        return _lookup({c.name: c for c in self.columns}, name) is not None

    def is_unique(self, column: str) -> bool:
        """Unique and never NULL in the data (or a one-column primary key when unprofiled)."""
        col = self.column(column)
        if col.distinct is None or self.rows is None:
            return self.primary_key == [col.name]
        return self.rows > 0 and col.nulls == 0 and col.distinct == self.rows

    def foreign_key_of(self, column: str) -> ForeignKey | None:
        for fk in self.foreign_keys:
            if len(fk.columns) == 1 and fk.columns[0].lower() == column.lower():
                return fk
        return None


@dataclass(slots=True)
class Schema:
    dialect: str
    tables: dict[str, TableInfo]

    def table(self, name: str) -> TableInfo:
        """Case-insensitive look-up: PostgreSQL folds unquoted names, templates do not."""
        found = _lookup(self.tables, name)
        if found is None:
            raise KeyError(name)
        return found

    def has_table(self, name: str) -> bool:
        return _lookup(self.tables, name) is not None

    def resolve(self, table: str, column: str) -> tuple[str, str]:
        """The database's own spelling of ``table.column``; TemplateError if either is unknown."""
        if not self.has_table(table):
            raise TemplateError(f"unknown table '{table}'", field=f"{table}.{column}")
        info = self.table(table)
        if not info.has_column(column):
            raise TemplateError(
                f"unknown column '{column}' in table '{info.name}'", field=f"{table}.{column}"
            )
        return info.name, info.column(column).name

    def fingerprint(self) -> str:
        """Hash of the structure (not the data), stored in every dataset manifest."""
        structure = {
            name: {
                "columns": [(c.name, c.type) for c in t.columns],
                "pk": t.primary_key,
                "fks": [asdict(fk) for fk in t.foreign_keys],
            }
            for name, t in sorted(self.tables.items())
        }
        blob = json.dumps(structure, sort_keys=True, default=list).encode()
        return hashlib.sha256(blob).hexdigest()[:16]

    def to_dict(self) -> dict:
        return {"dialect": self.dialect, "tables": {n: asdict(t) for n, t in self.tables.items()}}

    def declare_keys(self, keys: dict[str, list[str]], *, source: str | None = None) -> None:
        """Apply ``keys: {Employees: [FirstName, LastName], Orders: [OrderID]}`` from the project
        configuration: the named columns become the look-up key of their table (a numeric id
        named here is one people do use, like an order number)."""
        for table_name, columns in (keys or {}).items():
            where = f"keys.{table_name}"
            if not self.has_table(table_name):
                raise TemplateError(f"unknown table '{table_name}'", source=source, field=where)
            table = self.table(table_name)
            if not columns:
                raise TemplateError("expected a list of column names", source=source, field=where)
            resolved = []
            for column in columns:
                if not table.has_column(column):
                    raise TemplateError(f"unknown column '{column}' in table '{table.name}'",
                                        source=source, field=where)
                resolved.append(table.column(column).name)
            table.declared_key = resolved

    def declare_asked(self, columns: list[str], *, source: str | None = None) -> None:
        """Apply ``ask: [Staff.Email, Product.Description]`` from the project configuration: the
        columns are asked about although ragdx leaves contact details, long free text, constant
        columns and 0/1 flags out by default."""
        for i, qualified in enumerate(columns or []):
            where = f"ask[{i}]"
            table_name, dot, column = qualified.partition(".")
            if not dot or not self.has_table(table_name):
                raise TemplateError(f"expected Table.Column of a known table, got '{qualified}'",
                                    source=source, field=where)
            table = self.table(table_name)
            if not table.has_column(column):
                raise TemplateError(f"unknown column '{column}' in table '{table.name}'", source=source,
                                    field=where)
            table.asked.append(table.column(column).name)


def _lookup(mapping: dict, name: str):
    if name in mapping:
        return mapping[name]
    lowered = name.lower()
    for key, value in mapping.items():
        if key.lower() == lowered:
            return value
    return None


_KINDS = (
    # binary first, so that no blob or byte string falls through to another kind
    ("binary", ("BLOB", "BYTEA", "BINARY", "IMAGE", "RAW", "GEOMETRY")),
    ("boolean", ("BOOL", "TINYINT(1)", "BIT")),
    ("date", ("DATE", "TIME")),
    ("integer", ("INT", "SERIAL")),
    ("number", ("NUMERIC", "DECIMAL", "REAL", "FLOAT", "DOUBLE", "MONEY")),
    ("text", ("CHAR", "TEXT", "CLOB", "STRING", "ENUM")),
)


def type_kind(type_name: str) -> str:
    upper = type_name.upper()
    for kind, needles in _KINDS:
        if any(n in upper for n in needles):
            return kind
    return "other"


def inspect_schema(engine: Engine, *, profile: bool = True) -> Schema:
    """Tables, columns, keys and (with ``profile``) row, distinct and NULL counts."""
    try:
        insp = sa.inspect(engine)
        names = insp.get_table_names()
    except Exception as exc:
        from ragdx.db.engine import first_line, safe_url

        raise DatabaseError(f"cannot read the schema: {first_line(exc)}", source=safe_url(engine.url)) from None
    dialect = dialect_named(engine.dialect.name)
    unquote = dialect.reflected_name
    tables: dict[str, TableInfo] = {}
    for name in sorted(names):
        pk = [unquote(c) for c in insp.get_pk_constraint(name).get("constrained_columns") or []]
        columns = [
            ColumnInfo(
                name=unquote(c["name"]),
                type=str(c["type"]),
                nullable=bool(c.get("nullable", True)),
                primary_key=unquote(c["name"]) in pk,
            )
            for c in insp.get_columns(name)
        ]
        fks = [
            ForeignKey(
                tuple(map(unquote, fk["constrained_columns"])), fk["referred_table"],
                tuple(map(unquote, fk["referred_columns"]))
            )
            for fk in insp.get_foreign_keys(name)
            if fk.get("referred_table")
        ]
        # engines list foreign keys in different orders: sorted, so that nothing derived from
        # them (templates, documents) depends on the engine
        fks.sort(key=lambda fk: (fk.columns, fk.ref_table, fk.ref_columns))
        tables[name] = TableInfo(name=name, columns=columns, primary_key=pk, foreign_keys=fks)
    schema = Schema(dialect=dialect.name, tables=tables)
    if profile:
        with engine.connect() as conn:
            for table in tables.values():
                _profile(conn, table)
            for table in tables.values():
                _name_holds_parent(conn, schema, table)
            for table in tables.values():
                _display_name(conn, schema, table)
    return schema


def _profile(conn: sa.Connection, table: TableInfo) -> None:
    """One scan per table: COUNT(*), and COUNT(DISTINCT c), COUNT(c) for every column; binary
    columns only COUNT(c) (comparing blobs is slow and says nothing about naming a row); text
    columns also AVG(LENGTH(c)), in the same scan."""
    t = sa.table(table.name, *(sa.column(c.name) for c in table.columns))
    exprs: list[sa.ColumnElement] = [sa.func.count()]
    texts = [c for c in table.columns if c.kind == "text"]
    for c in table.columns:
        if c.kind == "binary":
            exprs += [sa.func.count(t.c[c.name]), sa.func.count(t.c[c.name])]
        else:
            exprs += [sa.func.count(sa.distinct(t.c[c.name])), sa.func.count(t.c[c.name])]
    exprs += [sa.func.avg(sa.func.length(t.c[c.name])) for c in texts]
    row = conn.execute(sa.select(*exprs).select_from(t)).one()
    table.rows = int(row[0])
    for i, c in enumerate(table.columns):
        c.distinct = int(row[1 + 2 * i])
        c.nulls = table.rows - int(row[2 + 2 * i])
    for c, mean in zip(texts, row[1 + 2 * len(table.columns):], strict=True):
        c.mean_length = None if mean is None else float(mean)
    for c in texts:
        if _words(c.name)[-1:] in (["color"], ["colour"]) and c.mean_length is not None and c.mean_length <= 9:
            # "#e08e79": a colour given as the code a chart or a web page uses, which no reader says
            found = conn.execute(sa.select(sa.func.count()).select_from(t).where(
                t.c[c.name].like("#%"))).scalar_one()
            c.hex_colours = bool(found) and int(found) == table.rows - (c.nulls or 0)
    for c in texts:
        c.upper_labels = _upper_labels(conn, t, c)
        c.code_values = _code_values(conn, t, c, table.rows)
    for c in table.columns:
        c.midnight_dates = c.kind == "date" and _midnight_dates(conn, t, c)
    pair = name_pair(table)
    if pair and table.rows:
        # a person is named by first and last name together; whether the pair is unique is
        # measured like every other key
        cols = [t.c[c] for c in pair]
        inner = sa.select(*cols).where(*(c.is_not(None) for c in cols)).distinct().subquery()
        table.tuple_distinct[",".join(pair)] = int(conn.execute(
            sa.select(sa.func.count()).select_from(inner)).scalar_one())
    # a name that repeats (30 Washington Counties, 8 Springfields) names a row beside its parent's
    # name ("Washington County, Alabama"): the pair (name, foreign key) is measured like the others
    for combo in parent_name_candidates(table):
        cols = [t.c[c] for c in combo]
        inner = sa.select(*cols).where(*(c.is_not(None) for c in cols)).distinct().subquery()
        table.tuple_distinct[",".join(combo)] = int(conn.execute(
            sa.select(sa.func.count()).select_from(inner)).scalar_one())
    # a table known by a row number nobody sees (flights.id) may be named by columns together
    # (carrier + flight number + date): measured like the name pair, then chosen in
    # ragdx.gen.sql_templates.lookup_keys; enough distinct tuples found ends the search
    for combo in natural_key_candidates(table)[:_MAX_MEASURED]:
        cols = [t.c[c] for c in combo]
        inner = sa.select(*cols).where(*(c.is_not(None) for c in cols)).distinct().subquery()
        found = int(conn.execute(sa.select(sa.func.count()).select_from(inner)).scalar_one())
        table.tuple_distinct[",".join(combo)] = found
        if found >= NEAR_UNIQUE * table.rows:
            break


#: a label column has at most this many distinct values
_MAX_LABELS = 50
_UPPER_WORDS = re.compile(r"[A-Z]+(?:[ _][A-Z]+)*")


def _upper_labels(conn: sa.Connection, t: sa.TableClause, c: ColumnInfo) -> bool:
    """Rule (any schema): a text column whose few distinct values (at most :data:`_MAX_LABELS`) are all
    words in capitals, 4 letters long on average with one of 6 or more ('GRASS', 'NORMAL', 'STATUS'),
    is a label column written in the source's capitals: people write its values as words ("Grass").
    Short capitals (ISO 'USD', a league's 'AL', a state's 'NY') are codes people write so, and stay."""
    if c.distinct is None or not 0 < c.distinct <= _MAX_LABELS or (c.mean_length or 0) < 4:
        return False
    values = [v for (v,) in conn.execute(sa.select(t.c[c.name]).distinct().limit(_MAX_LABELS + 1))
              if v is not None]
    return bool(values) and all(isinstance(v, str) and _UPPER_WORDS.fullmatch(v) for v in values) \
        and sum(map(len, values)) >= 4 * len(values) and max(map(len, values)) >= 6


#: a code is at most this many characters on average; at most this many distinct values are read
_CODE_LENGTH = 8
_CODE_SAMPLE = 50
_CODE = re.compile(r"[A-Z0-9][A-Z0-9-]{0,11}")


def _code_values(conn: sa.Connection, t: sa.TableClause, c: ColumnInfo, rows: int) -> bool:
    """Rule (any schema): a text column unique among its present values (at least two), short on
    average (at most :data:`_CODE_LENGTH` characters), whose first :data:`_CODE_SAMPLE` distinct
    values are all capitals, digits and hyphens ('9S1', 'KJFK', 'AD-02'), holds identifier codes.
    Names ('Paris'), flags as emoji and lower-case terms do not match. One short read, only for the
    few columns the profile already found unique and short."""
    present = rows - (c.nulls or 0)
    if present < 2 or c.distinct != present or c.mean_length is None or c.mean_length > _CODE_LENGTH:
        return False
    values = [v for (v,) in conn.execute(sa.select(t.c[c.name]).where(t.c[c.name].is_not(None))
                                         .distinct().limit(_CODE_SAMPLE))]
    return bool(values) and all(isinstance(v, str) and _CODE.fullmatch(v) for v in values)


#: at most this many distinct values of a date-time column are read to tell whether all are at midnight
_MIDNIGHT_SAMPLE = 2000
_MIDNIGHT = re.compile(r"\d{4}-\d{2}-\d{2}[ T]00:00(:00(\.0+)?)?")


def _midnight_dates(conn: sa.Connection, t: sa.TableClause, c: ColumnInfo) -> bool:
    """Rule (any schema): a date column whose first :data:`_MIDNIGHT_SAMPLE` distinct present values
    are all date-times at 00:00 (text '2007-09-06 00:00:00' as SQLite keeps it, or a driver's
    datetime) holds days: the time is the type's, not a recorded one. A column of plain dates
    ('2007-09-06') or one with any other time of day is not flagged (its values stay as written)."""
    if not c.distinct:
        return False
    values = [v for (v,) in conn.execute(sa.select(t.c[c.name]).where(t.c[c.name].is_not(None))
                                         .distinct().limit(_MIDNIGHT_SAMPLE))]
    return bool(values) and all(_at_midnight(v) for v in values)


def _at_midnight(value: object) -> bool:
    if isinstance(value, dt.datetime):
        return value.time() == dt.time(0)
    return isinstance(value, str) and _MIDNIGHT.fullmatch(value.strip()) is not None


def _unique_texts(table: TableInfo) -> list[ColumnInfo]:
    return [c for c in table.columns if c.kind == "text" and table.rows and c.distinct is not None
            and c.distinct >= NEAR_UNIQUE * table.rows and table.foreign_key_of(c.name) is None]


def _name_holds_parent(conn: sa.Connection, schema: Schema, table: TableInfo) -> None:
    """Measure whether a row's name holds its parent's name or symbol as a word ("Po LXXIII" is an ion
    of polonium, whose symbol is Po; "Ford Focus" is a model of Ford): such a row is part of its parent
    and already names it, so a question reaching the parent through the row asks of the parent what a
    person asks of it by name (``ragdx.gen.sql_templates.schema_templates``). Unique text columns of
    both tables, single-column foreign keys only; at most :data:`_MAX_MEASURED` scans per table."""
    if not table.rows:
        return
    own = _unique_texts(table)
    scans = 0
    for fk in table.foreign_keys:
        if len(fk.columns) != 1 or fk.ref_table == table.name or _lookup(schema.tables, fk.ref_table) is None:
            continue
        parent = schema.table(fk.ref_table)
        for c in own:
            if c.name in table.names_parent:
                continue
            for p in _unique_texts(parent):
                if scans >= _MAX_MEASURED:
                    return
                scans += 1
                child = sa.table(table.name, sa.column(c.name), sa.column(fk.columns[0])).alias("c")
                ref = sa.table(parent.name, sa.column(p.name), sa.column(fk.ref_columns[0])).alias("p")
                name = child.c[c.name]
                # the parent's name as a LIKE pattern's literal part: its own '%', '_' (and the
                # escape character) escaped, so "A_B" does not match "AxB ..." (the same on every engine)
                held = sa.func.replace(sa.func.replace(sa.func.replace(ref.c[p.name], "!", "!!"), "%", "!%"),
                                       "_", "!_")
                query = sa.select(sa.func.count()).select_from(
                    child.join(ref, child.c[fk.columns[0]] == ref.c[fk.ref_columns[0]])).where(
                    sa.or_(name.like(held.concat(" %"), escape="!"),
                           name.like(sa.literal("% ").concat(held), escape="!"),
                           name.like(held.concat(", %"), escape="!")))
                found = int(conn.execute(query).scalar_one())
                if found >= NEAR_UNIQUE * (table.rows - (c.nulls or 0)) and found:
                    table.names_parent[c.name] = fk.columns[0]
                    break


#: at least this share of a slug-keyed table's rows must have their key spelled as the child's name
#: (lower case, spaces as '-' or '_') for that name to be the rows' display name
SLUG_MATCH = 0.8


def _display_name(conn: sa.Connection, schema: Schema, table: TableInfo) -> None:
    """Measure where a row keyed by a slug is named as people name it. Rule (any schema): a table whose
    whole primary key is one text column and declares no key of its own, with a one-to-one child (a
    table whose whole primary key is its foreign key to that column) holding a (nearly) unique text
    column whose value, in lower case and with its spaces written '-' or '_' or kept, equals the
    parent's key for most rows ('Bulbasaur' for 'bulbasaur'): that column is the name people know
    the row by, and the key is a term spelled for machines. The first such column of the first such
    child is kept (``ragdx.gen.sql_templates`` asks the row by it; issue 22). A key already written
    as people write it (mixed case) never matches; a child's own names in other scripts do not either.
    At most :data:`_MAX_MEASURED` scans per table."""
    if not table.rows or table.declared_key or len(table.primary_key) != 1:
        return
    key = table.primary_key[0]
    if table.column(key).kind != "text" or table.foreign_key_of(key) is not None:
        return
    scans = 0
    for child in sorted(schema.tables.values(), key=lambda t: t.name):
        fk = child.foreign_key_of(child.primary_key[0]) if len(child.primary_key) == 1 else None
        if child is table or fk is None or list(fk.ref_columns) != [key] \
                or _lookup(schema.tables, fk.ref_table) is not table:
            continue
        for c in _unique_texts(child):
            if c.name == child.primary_key[0] or scans >= _MAX_MEASURED:
                continue
            scans += 1
            kid = sa.table(child.name, sa.column(c.name), sa.column(fk.columns[0])).alias("c")
            own = sa.table(table.name, sa.column(key)).alias("p")
            name = sa.func.lower(kid.c[c.name])
            spelled = sa.or_(own.c[key] == name, own.c[key] == sa.func.replace(name, " ", "-"),
                             own.c[key] == sa.func.replace(name, " ", "_"))
            found = int(conn.execute(sa.select(sa.func.count()).select_from(
                kid.join(own, kid.c[fk.columns[0]] == own.c[key])).where(spelled)).scalar_one())
            if found >= SLUG_MATCH * table.rows:
                table.display_name = (child.name, fk.columns[0], c.name)
                return


#: a key (a name, a tuple of columns) with at least this share of distinct values names rows;
#: the rare clashes become answer sets, measured and dropped like any other
NEAR_UNIQUE = 0.95
#: at most this many column tuples are measured per table (each is one scan)
_MAX_MEASURED = 8
#: a date kept in three integer columns, named so
DATE_PARTS = ("year", "month", "day")
#: the last word of a column holding a row's own number (``invoice_no``, ``order_number``)
NUMBER_WORDS = ("number", "no", "num", "nr")


def _words(identifier: str) -> list[str]:
    """``InvoiceNo`` -> ["invoice", "no"], ``dep_time`` -> ["dep", "time"]."""
    return [w.lower() for w in re.findall(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+", identifier)]


#: an application prefix is the first word of the names of more than this share of the tables
_PREFIX_SHARE = 0.5
#: ... and of at least this many tables
_PREFIX_TABLES = 3


def shared_table_prefix(schema: Schema) -> str | None:
    """The application prefix of a schema's table names, or None. Rule (any schema): the first word
    of table names written ``<word>_<rest>``, begun with by more than half of the tables (at least
    three), that names nothing in the schema itself: Django's ``<app>_<model>`` ('chinook_album',
    'chinook_track'), a ``tbl_`` habit. Such a word is the application's label, not part of what a
    row is ("the album", never "the chinook album"; issue 22). It is no prefix when it is a noun of
    the schema: a table is named by it alone ('orders' beside 'order_items', 'order_lines'), it is a
    word of a column's name ('order_id'), or a later word of a table's name; nor when a table would
    be left with no name after it."""
    first: dict[str, list[str]] = {}
    for name in schema.tables:
        head, sep, rest = name.partition("_")
        if sep and head.isalpha() and len(head) >= 2 and rest.strip("_"):
            first.setdefault(head.lower(), []).append(name)
    if not first:
        return None
    word, tables = max(first.items(), key=lambda kv: (len(kv[1]), kv[0]))
    if len(tables) < _PREFIX_TABLES or len(tables) <= _PREFIX_SHARE * len(schema.tables):
        return None
    nouns = {word, word + "s", word + "es"}
    for name, table in schema.tables.items():
        words = _words(name)
        if name.lower() in nouns or set(words[1:]) & nouns:
            return None
        if any(set(_words(c.name)) & nouns for c in table.columns):
            return None
    return word


def natural_key_candidates(table: TableInfo) -> list[list[str]]:
    """Column tuples that may name a row of a table with no name of its own, in the order they
    are preferred: each holds an own number (``flight`` of ``flights``, ``invoice_no``), a date (a
    date column, ``year`` + ``month`` + ``day``) or a year (``yearID``, ``season``), with one or two
    names or codes (a non-unique name: the Kansas City Royals of 1973; a text foreign key: the
    carrier ``UA``) or another of the first; smallest first. Structure only; which one names the
    rows is measured (:func:`_profile`) and chosen by ``ragdx.gen.sql_templates.lookup_keys``.
    [] for a table with a unique text column (a name, or a code people use) or too few rows."""
    if (table.rows or 0) < 2 or any(c.kind == "text" and table.is_unique(c.name) and not _an_id(c.name)
                                    for c in table.columns):
        return []
    pk = table.primary_key
    row_id = pk[0] if len(pk) == 1 and table.column(pk[0]).kind == "integer" else None
    fk_cols = {fk.columns[0].lower() for fk in table.foreign_keys if len(fk.columns) == 1}
    own = [c.name for c in table.columns if c.kind in ("integer", "number") and c.name != row_id
           and c.name.lower() not in fk_cols and own_number(c.name, table.name)]
    by_low = {c.name.lower(): c for c in table.columns}
    dates: list[list[str]] = [[c.name] for c in table.columns if c.kind == "date"]
    if all(p in by_low and by_low[p].kind == "integer" for p in DATE_PARTS):
        dates.insert(0, [by_low[p].name for p in DATE_PARTS])
    else:  # a year alone names a season's row (the 1973 Royals); beside a month and day it is a date's part
        dates += [[c.name] for c in table.columns if c.kind == "integer" and c.name != row_id
                  and _words(c.name) in YEAR_WORDS]
    # a name before a code: "the 1973 Kansas City Royals", not the franchise code "KCR"
    names = [[c.name] for c in table.columns if c.kind == "text" and _words(c.name)[-1:] in (["name"], ["title"])
             and name_part(c.name) is None]
    # a foreign key: a code said as it is (the carrier "UA"), or an id read through the row it points
    # at (a player's salary in a year: ragdx.gen.sql_templates.parent_key)
    codes = names + [[c.name] for c in table.columns if c.kind in ("text", "integer") and c.name.lower() in fk_cols]
    anchors = [[n] for n in own] + dates
    order = [c.name for c in table.columns]
    combos: list[list[str]] = []
    for size in (2, 3):
        for first in anchors:
            for rest in itertools.combinations([u for u in anchors + codes if u != first], size - 1):
                combo = sorted([first, *rest], key=lambda u: order.index(u[0]))
                flat = [c for unit in combo for c in unit]
                if flat not in combos and _may_be_unique(table, flat):
                    combos.append(flat)
    return combos


def parent_name_candidates(table: TableInfo) -> list[list[str]]:
    """[name column, foreign-key column] pairs of a table whose name column repeats (a county's
    name, a city's): people tell such rows apart by the place they are in ("Washington County,
    Alabama", "Springfield, Illinois"), so the pair is measured (:func:`_profile`) and, when it is
    unique, chosen by ``ragdx.gen.sql_templates.parent_name_key``. Structure and counts only; []
    when the name is (nearly) unique or there is no single-column foreign key."""
    if (table.rows or 0) < 2:
        return []
    names = [c for c in table.columns if c.kind == "text" and _words(c.name)[-1:] in (["name"], ["title"])
             and name_part(c.name) is None and c.distinct is not None and c.distinct < NEAR_UNIQUE * (table.rows or 0)]
    names.sort(key=lambda c: len(_words(c.name)))  # "name" before "county_name" before "manager_name"
    fks = [fk.columns[0] for fk in table.foreign_keys if len(fk.columns) == 1 and fk.ref_table != table.name]
    return [[n.name, fk] for n in names[:1] for fk in fks[:_MAX_MEASURED]]


def _an_id(column: str) -> bool:
    """``playerID``, ``team_id``, ``teamIDBR``: an id, however unique, names nothing for a person."""
    return "id" in _words(column) or re.search(r"[a-z]ID", column) is not None


#: a column holding a year: ``year``, ``yearID`` (Lahman's), ``season``, ``fiscal_year``
YEAR_WORDS = (["year"], ["year", "id"], ["season"], ["fiscal", "year"], ["season", "id"])


def _may_be_unique(table: TableInfo, columns: list[str]) -> bool:
    """The product of the columns' distinct counts bounds the tuple's: a carrier (16 values) and
    a flight number (3,844) cannot tell 336,776 flights apart, so that pair is not scanned."""
    bound = 1
    for c in columns:
        distinct = table.column(c).distinct
        if distinct is None:
            return True
        bound *= distinct
    return bound >= NEAR_UNIQUE * (table.rows or 0)


def own_number(column: str, table: str) -> bool:
    """``flight`` of ``flights``, ``InvoiceNo``, ``order_number``: the number a row is known by."""
    words, table_words = _words(column), _words(table)
    if not words:
        return False
    noun = table_words[-1] if table_words else ""
    singular = {noun, noun[:-1] if noun.endswith("s") else noun, noun[:-2] if noun.endswith("es") else noun}
    return words[-1] in NUMBER_WORDS and len(words) > 1 or (len(words) == 1 and words[0] in singular)


#: the words of a column holding a person's first or last name, in either order (``FirstName``,
#: ``first_name``, ``nameFirst``); the one home of this rule for naming, templates, answers and
#: the linker. ``nameGiven`` is no first name: it holds every given name ("George Herman").
FIRST_NAME_WORDS = (["first", "name"], ["name", "first"], ["given", "name"], ["forename"], ["firstname"],
                    ["givenname"])
LAST_NAME_WORDS = (["last", "name"], ["name", "last"], ["surname"], ["family", "name"], ["lastname"],
                   ["familyname"])


def name_part(column: str) -> str | None:
    """``"first"`` or ``"last"`` for a column holding that part of a person's name, else None
    (the whole name must say so: ``contactFirstName`` is a contact's, not the row's)."""
    words = _words(column)
    if words in FIRST_NAME_WORDS:
        return "first"
    return "last" if words in LAST_NAME_WORDS else None


def role_name_part(column: str) -> tuple[tuple[str, ...], str] | None:
    """(role, ``"first"`` or ``"last"``) for a column holding part of the name of a person in a
    role (``contactFirstName``, ``contact_first``: the contact's), else None; the row's own name
    (no role) is :func:`name_part`'s."""
    words = _words(column)
    for n in (2, 1):
        role, tail = words[:-n], words[-n:]
        if not role:
            continue
        if tail in FIRST_NAME_WORDS or tail == ["first"]:
            return tuple(role), "first"
        if tail in LAST_NAME_WORDS or tail == ["last"]:
            return tuple(role), "last"
    return None


def name_pair(table: TableInfo) -> list[str] | None:
    """[first name column, last name column] when the table has both (a person's name)."""
    first = [c.name for c in table.columns if c.kind == "text" and name_part(c.name) == "first"]
    last = [c.name for c in table.columns if c.kind == "text" and name_part(c.name) == "last"]
    return [first[0], last[0]] if first and last else None
