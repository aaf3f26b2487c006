"""What a SQL template means, independent of how it is written.

Parsing a template (``ragdx.gen.sql_templates``) yields a :class:`TemplateSemantics`; the text
verbaliser turns it into phrasings, and the knowledge-base renderer uses it to find which facts an
answer rests on. Names are the template's own spelling (``Client.Name``), not the database's.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ColumnRef:
    table: str
    column: str

    @property
    def qualified(self) -> str:
        return f"{self.table}.{self.column}"


@dataclass(frozen=True, slots=True)
class Condition:
    """``column = '[placeholder]'`` in the WHERE clause."""

    column: ColumnRef
    placeholder: str  # "Table.Column", the text between the brackets
    #: the table (template spelling) whose row this value names when the column is that row's display
    #: name kept one join away (``pokemonnames.english`` names a ``pokemon``); "" when it names its own
    names: str = ""


@dataclass(frozen=True, slots=True)
class Join:
    """An equi-join edge ``left = right`` between two tables of the FROM clause."""

    left: ColumnRef
    right: ColumnRef
    #: both sides are their table's whole primary key: one row each side, so the two tables hold
    #: one thing's facts (an extension table), and the join is no relation a person names
    one_to_one: bool = False
    #: which side the schema declares a foreign key to the other ("left" or "right"; "" when the schema
    #: declares none): the verbaliser names the relation after the referencing column and the
    #: referenced table, never after the referenced key column (``country_code`` -> ``alpha_2`` is the
    #: country, never "the alpha 2"; issue 22), where guessing the side from names fails
    referencing: str = ""


@dataclass(frozen=True, slots=True)
class TemplateSemantics:
    """targets: projected columns in SELECT order.
    entity: the table the first condition filters on (what the question is about).
    target_kinds / condition_kinds: column kinds from the schema, parallel to targets / conditions.
    conditions: the placeholder equalities, in order of appearance.
    joins: equi-join edges, in order of appearance (empty for a single-table look-up).
    """

    targets: tuple[ColumnRef, ...]
    entity: str
    conditions: tuple[Condition, ...]
    joins: tuple[Join, ...] = ()
    #: the kind of each target column (``text``, ``integer``, ``number``, ``date``, ``boolean``;
    #: ``""`` for an expression): question words follow it ("when" for a date); empty: unknown
    target_kinds: tuple[str, ...] = ()
    #: condition placeholder -> kind of its column (a number key reads "order 10248")
    condition_kinds: tuple[str, ...] = ()

    @property
    def placeholders(self) -> tuple[str, ...]:
        return tuple(c.placeholder for c in self.conditions)
