"""Turn the meaning of a SQL template into natural-language text templates, without an LLM.

The verbaliser only knows table and column names, not the domain, so it describes a template by
walking the join graph: the anchor is what the placeholders identify ("the project
'[Project.Name]'"), each hop through a foreign key becomes a relation noun named after the
foreign-key column ("the project manager of ...", named by ragdx.gen.naming, the schema's one
vocabulary), and the projected columns become the head noun
("the department of ..."). Every style then pours those pieces into a fixed list of sentence frames,
so the output is deterministic and each placeholder appears exactly once, quotes included.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragdx.db.schema import FIRST_NAME_WORDS, LAST_NAME_WORDS, YEAR_WORDS, role_name_part
from ragdx.gen.naming import (
    BARE_QUALIFIERS,
    COMPANY_WORDS,
    MEASURE_NOUNS,
    PERSON_ENTITIES,
    PLACE_WORDS,
    ROLE_NOUNS,
    SINGULAR_EXCEPTIONS,
    SINGULAR_IN_S,
    UNCOUNTABLE,
    column_phrase,
    composite_name,
    event_verb,
    expanded_words,
    fill_name,
    low_words,
    names_a_place,
    plural_phrase,
    readable_entity,
    readable_name,
    relation_noun,
    singular_word,
    starts_with_table,
    table_words,
)
from ragdx.gen.semantics import ColumnRef, Condition, Join, TemplateSemantics

__all__ = ["BUILTIN_STYLES", "verbalise"]


BUILTIN_STYLES: dict[str, str] = {
    "short": (
        "Short and Clear: keep queries short and straightforward, the few words a person types into "
        "a search box: a brief question or request with no filler, keeping only the articles the "
        "grammar needs, and never a telegraphic \"label: attribute\" fragment. Valid: \"Who is the "
        "client of '[Project.Name]'?\", \"Industry of '[Client.Name]'?\". Invalid: \"project "
        "'[Project.Name]': client\" (a fragment), \"I would like to know who the client of the project "
        "'[Project.Name]' is\" (too many words)."
    ),
    "long": (
        "Long and Detailed: write complete, grammatical sentences with longer and more complex "
        "structures that use conjunctions, articles and subordinate clauses. Each query has at "
        "least 30 words and may add context or background, such as why the information is needed "
        'or who asked for it, while still asking for exactly the same information. Valid: "I am '
        "preparing a report for a meeting next week, and since one of the details I still need is "
        "the client of the project '[Project.Name]', could you tell me who it is according to the "
        'records you have?"'
    ),
    "interrogative": (
        "Interrogative: phrase every query as a direct question that ends with a question mark, "
        "using question words such as what, which, who or where, or auxiliary verbs such as do, "
        "can or could. Valid: \"What is the industry of the client '[Client.Name]'?\". Invalid: "
        "\"Give me the industry of '[Client.Name]'.\" (a command, not a question)."
    ),
    "directive": (
        "Directive: phrase every query as a command or instruction that starts with an imperative "
        "verb such as Give, List, Find, Show, Tell, State, Provide, Look up, Retrieve or Identify. "
        'Do not phrase it as a question and do not end it with a question mark. Valid: "Find the '
        "industry of the client '[Client.Name]'.\". Invalid: \"What is the industry of "
        "'[Client.Name]'?\" (a question, not a command)."
    ),
    "formal": (
        "Formal: use a polite, formal and professional register, as in a letter to an institution: "
        'courteous phrases such as "Kindly", "Please provide", "I would be grateful if" or '
        '"Would you be so kind as to", full words and no contractions, slang or abbreviations. '
        'Valid: "I would be grateful if you could inform me of the industry of the client '
        "'[Client.Name]'.\". Invalid: \"what's the industry of '[Client.Name]'?\" (too casual)."
    ),
    "casual": (
        "Casual: use an informal, conversational register, as in a chat message to a colleague: "
        'contractions ("what\'s", "can\'t", "I\'m"), colloquial openers such as "hey" or '
        '"quick q", relaxed punctuation, and a lower-case start is fine. Valid: "hey, what\'s '
        "the industry of '[Client.Name]'?\". Invalid: \"Kindly provide the industry of the client "
        "'[Client.Name]'.\" (too formal)."
    ),
}


_FIRST_NAME = FIRST_NAME_WORDS  # one home: ragdx.db.schema
_LAST_NAME = LAST_NAME_WORDS


# --------------------------------------------------------------------------- column roles


def _is_name_like(column: str, table: str) -> bool:
    """True for the column people use to name a row (Name, Title, ClientName), which lets a
    placeholder stand on its own ("industry of '[Client.Name]'")."""
    words = expanded_words(column)  # "proj_name" is the project's name
    if len(words) == 2 and words[0] == "name" and words[1] in ("full", "display", "official", "common"):
        words = words[::-1]  # "name_full" is the full name
    if words in (["name"], ["title"], ["full", "name"], ["label"]) or words in table_words(table):
        return True  # department.department holds the department's name: "the department 'Finance'"
    if words and any(len(tw) > len(words) and tw[-len(words):] == words for tw in table_words(table)):
        return True  # the same column under a self-join's alias (HeadDepartment.department)
    if len(words) == 2 and words[-1] == "name" and words[0] in COMPANY_WORDS:
        return True
    if len(words) >= 2 and words[-1] in ("name", "title", "description"):
        return words[:-1] in table_words(table)
    return False


def _names_row(column: str, table: str) -> bool:
    """Whether a condition on ``column`` names the row (the anchor is "the <noun> '<value>'"): a
    name-like column, or "<head noun> name" of a table whose noun ends with that head: ``city_name``
    of ``multi_airport_cities`` names the city, so the row is "the multi-airport city 'Kyiv'", never
    "the multi airport city with city name 'Kyiv'" (issue 22); ``city_name`` of ``offices`` is the
    office's city. Only for naming the anchor: asked for, such a column stays "the airport name"."""
    if _is_name_like(column, table):
        return True
    words = expanded_words(column)
    return len(words) == 2 and words[1] == "name" \
        and any(len(tw) > 1 and tw[-1] == words[0] for tw in table_words(table))


# words before "name" that say whose name it is, not what the row is ("first name", "user name")
_NOT_A_KIND = frozenset({"first", "last", "full", "given", "family", "middle", "display", "short", "long", "common",
                         "official", "legal", "nick", "maiden", "birth", "alternate", "alternative", "alt", "local",
                         "native", "ascii", "english", "old", "new", "former", "sort", "internal", "file", "host"})


def _other_noun_name(column: str, table: str) -> str | None:
    """The noun a ``<noun>_name`` column names in a table of measurements (``species_name`` of
    ionization energies: each row is one species' value, :data:`ragdx.gen.naming.MEASURE_NOUNS`): the
    row is called by what was measured ("the species 'Po LXXIII'"). None in a table of things (a
    franchise's ``franchName`` is its own name, clipped), for the table's own name, a person's or a
    company's name, or a kind of name (first, display, file)."""
    words = expanded_words(column)
    entity = readable_entity(table).lower().split()
    if len(words) < 2 or words[-1] != "name" or _is_name_like(column, table) \
            or not entity or singular_word(entity[-1]) not in MEASURE_NOUNS:
        return None
    noun = words[:-1]
    if any(w in _NOT_A_KIND or w in ROLE_NOUNS or w in PERSON_ENTITIES or w in COMPANY_WORDS for w in noun) \
            or not all(w.isalpha() for w in noun) or len(noun) > 2:
        return None
    return " ".join(noun)


def _is_number_key(column: str, table: str, kind: str = "") -> bool:
    """An own id or number people use to name a row (order 10248)."""
    words = low_words(column)
    if not words or words[-1] not in ("id", "no", "number", "nr", "num"):
        return False
    if kind and kind not in ("integer", "number"):
        return False
    return not words[:-1] or words[:-1] in table_words(table)


# the last word of a column that holds a row's reference (an order number, an episode ref)
_REFERENCE_WORDS = frozenset({"id", "no", "number", "nr", "num", "ref", "reference", "code"})
# a text key spelled for machines (a URL slug, a lookup term, a handle: 'charmeleon', 'mega-gyarados')
# is no property a person names a row with; people say the value alone, so the column's word is never
# worded as the relation ("the pokemon with term 'charmeleon'" reads as a record dump) (issue 22)
_IDENTIFIER_WORDS = frozenset({"slug", "term", "handle"})


def _is_reference(column: str, table: str, kind: str) -> bool:
    """A number that names a row on its own (order 10248, site visit 176): an own number key,
    or any integer column whose name ends in a reference word (``visit_id`` of ``site_visits``)."""
    if _is_number_key(column, table, kind):
        return True
    return kind in ("integer", "number") and low_words(column)[-1:] != [] \
        and low_words(column)[-1] in _REFERENCE_WORDS


def _role_name_pair(columns: list[str]) -> list[str] | None:
    """The role of a person named by two columns with a shared prefix (``contactFirstName``,
    ``contactLastName`` -> ["contact"]), or None: the pair is that person, not the row's name."""
    if len(columns) != 2:
        return None
    first, last = role_name_part(columns[0]), role_name_part(columns[1])
    if first is None or last is None or first[0] != last[0] or (first[1], last[1]) != ("first", "last"):
        return None
    return list(first[0])


def _name_pair(conditions_or_columns: list[str]) -> bool:
    words = [low_words(c) for c in conditions_or_columns]
    return len(words) == 2 and words[0] in _FIRST_NAME and words[1] in _LAST_NAME


def _is_own_key(column: str, table: str) -> bool:
    if _is_name_like(column, table):
        return True
    words = low_words(column)
    if not words or words[-1] not in ("id", "pk", "key", "code", "no", "number"):
        return False
    prefix = words[:-1]
    return not prefix or prefix in table_words(table)


def _identifies_row(target: ColumnRef) -> bool:
    """Whether asking for this column means asking for the row itself. Titles do not count:
    a Staff.Title is "Dr", not the person."""
    if low_words(target.column)[-1:] in (["title"], ["label"], ["code"]):
        return False  # a clinic's code "RED" is asked as "the code of the clinic", not "the clinic"
    return _is_own_key(target.column, target.table) or _is_name_like(target.column, target.table)


def _targets_identify_row(targets: list[ColumnRef]) -> bool:
    """One identifying column, or a first + last name pair of one row."""
    if len(targets) == 1:
        return _identifies_row(targets[0])
    return len({t.table for t in targets}) == 1 and _name_pair([t.column for t in targets])




def _fk_side(join: Join) -> tuple[ColumnRef, ColumnRef]:
    """(referencing column, referenced column) of a join edge: as the schema declares it, else
    guessed from the names (a template read without its schema's keys)."""
    left, right = join.left, join.right
    if join.referencing:
        # a key into a code column ("country_code" -> "alpha_2") reads like a key on both sides:
        # the declared direction decides, so the relation is "the country", never "the alpha 2"
        return (left, right) if join.referencing == "left" else (right, left)
    left_key = _is_own_key(left.column, left.table)
    right_key = _is_own_key(right.column, right.table)
    if right_key and not left_key:
        return left, right
    if left_key and not right_key:
        return right, left
    # a self-join (Employees.ReportsTo = Manager.EmployeeID): the id column is the referenced one
    # (employees.reportsTo = Manager.employeeNumber: a number or code names the referenced row too)
    id_words = (["id"], ["key"], ["pk"], ["number"], ["no"], ["nr"], ["code"])
    left_id = low_words(left.column)[-1:] in id_words
    right_id = low_words(right.column)[-1:] in id_words
    if right_id and not left_id:
        return left, right
    if left_id and not right_id:
        return right, left
    left_points = starts_with_table(left.column, right.table)
    right_points = starts_with_table(right.column, left.table)
    if right_points and not left_points:
        return right, left
    return left, right  # the usual "fk = pk" order




def _attribute_label(column: str, table: str) -> str:
    """Column name for "the course with code '...'", without the table's own name in front."""
    words = readable_name(column).split()
    low = [w.lower() for w in words]
    for tw in table_words(table):
        if tw and low[: len(tw)] == tw and len(low) > len(tw):
            return column_phrase("".join(w.capitalize() for w in words[len(tw):]))
    return column_phrase(column)


def _looks_plural(phrase: str) -> bool:
    """Whether a column phrase takes "are": "sales in billions" and "ECTS credits" do, "market
    value in billions" does not (the noun before the preposition decides)."""
    noun: list[str] = []
    for word in phrase.split():
        if word.lower() in ("in", "of", "per", "for", "at", "by") and noun:
            break
        noun.append(word)
    if not noun:
        return False
    last = noun[-1]
    low = last.lower()
    if last.isupper() or low in UNCOUNTABLE or low in SINGULAR_IN_S:
        return False
    if low in SINGULAR_EXCEPTIONS:
        return True
    return low.endswith("s") and not low.endswith(("ss", "us", "is"))


def _join_list(items: list[str], conjunction: str = "and") -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {conjunction} " + items[-1]


# --------------------------------------------------------------------------- meaning


@dataclass(frozen=True, slots=True)
class _Link:
    noun: str
    link: str  # how this noun attaches to what follows it: "of", "linked to"
    plural: bool


@dataclass(frozen=True, slots=True)
class _Meaning:
    head: str  # the asked-for thing, no article: "department", "location and industry"
    short_head: str  # same without conjunctions: "location, industry"
    plural: bool
    head_link: str  # "of", "linked to" or "recorded for"
    chain: tuple[_Link, ...]  # relation nouns between head and anchor, outermost first
    anchor: str  # "the client '[Client.Name]'"
    anchor_short: str  # "client '[Client.Name]'"
    # "'[Client.Name]'" when the placeholder alone names the anchor, else None
    anchor_bare: str | None


# a table of people called by the noun that says nothing more than the name does ("People": the
# person 'Babe Ruth'): its rows are named by the name alone in every style
_GENERIC_PEOPLE = frozenset({"person", "people", "individual", "human"})


def _quoted(placeholder: str) -> str:
    return f"'[{placeholder}]'"


def _anchor_phrases(
    table: str, kind: str, conditions: list[Condition], kinds: dict[str, str] | None = None
) -> tuple[str, str, str | None]:
    kinds = kinds or {}
    columns = [c.column.column for c in conditions]
    if _name_pair(columns[::-1]):
        conditions, columns = conditions[::-1], columns[::-1]  # "Andreas Krüger", not "Krüger Andreas"
    if _name_pair(columns):
        # a person named by first and last name: one quoted name, "employee 'Nancy Davolio'"
        name = f"'[{conditions[0].placeholder}] [{conditions[1].placeholder}]'"
        if kind.lower() in _GENERIC_PEOPLE:
            return name, name, name  # "the height of 'Babe Ruth'", never "of the person 'Babe Ruth'"
        return f"the {kind} {name}", f"{kind} {name}", name
    pattern = composite_name(table, columns) if len(conditions) >= 2 else None
    if pattern is not None:
        # a row named by several of its columns: "UA flight 1545 on 2013-1-1", never "the flight
        # with year '2013', month '1', day '1', carrier 'UA' and flight '1545'"
        core = fill_name(pattern, {c.column.column: f"[{c.placeholder}]" for c in conditions})
        if core.startswith(f"{kind} ["):  # "flight 1545 on 2013-1-1", as "order 10248": no article
            return core, core, None
        return f"the {core}", core, None
    if len(conditions) == 1 and _is_reference(columns[0], table, kinds.get(conditions[0].placeholder, "")):
        # a number people use to name a row: "order 10248", never "order with ID '10248'";
        # "site visit 176", not "site visit with visit ID '176'"
        core = f"{kind} [{conditions[0].placeholder}]"
        return f"{kind} [{conditions[0].placeholder}]", core, None
    if len(conditions) == 1 and low_words(columns[0])[-1:] \
            and low_words(columns[0])[-1] in _REFERENCE_WORDS | _IDENTIFIER_WORDS \
            and not _is_name_like(columns[0], table):
        # a reference code names its row the same way: "the incident 'INC-2022-005'", not "the
        # incident with ref 'INC-2022-005'"
        core = f"{kind} {_quoted(conditions[0].placeholder)}"
        return f"the {core}", core, None
    other = _other_noun_name(columns[0], table) if len(conditions) == 1 else None
    if other is not None:
        # a row known by the name of what it is about: "the species 'Po LXXIII'", never "the
        # ionization energy with species name 'Po LXXIII'" (the name says what the row is)
        core = f"{other} {_quoted(conditions[0].placeholder)}"
        return f"the {core}", core, None
    if len(conditions) == 1 and names_a_place(columns[0]) and not _is_name_like(columns[0], table):
        # a row named by its place: "the 'Paris' office", not "the office with city 'Paris'"
        core = f"{_quoted(conditions[0].placeholder)} {kind}"
        return f"the {core}", f"the {core}", None
    named = [c for c in conditions if c.names or _names_row(c.column.column, table)]
    primary = named[0] if named else None
    rest = [c for c in conditions if c is not primary]
    attrs = _join_list(
        [
            f"{_attribute_label(c.column.column, table)} {_quoted(c.placeholder)}"
            for c in rest
        ]
    )
    core = kind if primary is None else f"{kind} {_quoted(primary.placeholder)}"
    short = f"{core} with {attrs}" if attrs else core
    bare = _quoted(primary.placeholder) if primary is not None and not rest else None
    return f"the {short}", short, bare


def _target_word(column: str) -> str:
    if column == "*":
        return "details"
    words = readable_name(column).split()
    # "What is the is compulsory ..." is not English; a flag reads as a status.
    if len(words) > 1 and words[0] in ("is", "has", "can"):
        return " ".join(words[1:]) + " status"
    return column_phrase(column)


# a column named only by how sure or how far off a value is: of the value the row measures
_QUALIFIERS_OF_A_MEASURE = (["uncertainty"], ["error"], ["standard", "error"], ["precision"], ["accuracy"])


def _measure_qualifier(target: ColumnRef) -> str | None:
    """``ionizationenergies.uncertainty`` -> "ionization energy uncertainty": a table named by a
    measure (:data:`ragdx.gen.naming.MEASURE_NOUNS`) holds measurements, and a bare "uncertainty"
    column beside them is the measure's ("the uncertainty of the species" says
    of what no more than the column did); None otherwise."""
    if expanded_words(target.column) not in _QUALIFIERS_OF_A_MEASURE:
        return None
    noun = readable_entity(target.table)
    if singular_word(noun.lower().split()[-1]) not in MEASURE_NOUNS if noun else True:
        return None  # a sample's or a reading's uncertainty: the row names no measure
    return f"{noun} {column_phrase(target.column)}"


def _target_words(targets: list[ColumnRef], kinds: tuple[str, ...] = ()) -> list[str]:
    role = _role_name_pair([t.column for t in targets])
    if role:
        return [column_phrase("_".join(role + ["name"]))]  # "contact person", one person
    words = [_measure_qualifier(t) or _target_word(t.column) for t in targets] or ["details"]
    if len(targets) == 1 and kinds in (("integer",), ("number",)) and _is_count(words[0]):
        # an integer under a plural noun counts things: "the number of passengers", never
        # "What are the passengers of ...?"
        words = [f"number of {words[0]}"]
    return words


# a one-word column that only qualifies a noun it leaves unsaid: an ordinal or a role ("first",
# "hidden") or a language ("english"); in a table of its parent's facts the table names that noun
_LANGUAGES = frozenset({"english", "japanese", "french", "german", "spanish", "italian", "chinese", "korean",
                        "portuguese", "russian", "dutch", "latin", "arabic"})
# a script a name is written in qualifies it the same way, in lower case ("the kana name")
_SCRIPTS = frozenset({"kana", "romaji", "hiragana", "katakana", "kanji", "pinyin"})


def _extension_words(sem: TemplateSemantics, table: str, targets: list[ColumnRef], words: list[str]) -> list[str]:
    """A column of an extension table (joined key to key to the asked row's table, and named by that
    table's name and a noun: ``creaturetypes`` of ``creatures``) that is only a qualifier takes the
    noun: "the first type of the creature 'x'", "the English name", never "the first of" (the column
    leaves its noun to the table's name, which a person does not see; issue 22)."""
    out = list(words)
    for i, t in enumerate(targets):
        joined = any(j.one_to_one and {j.left.table.lower(), j.right.table.lower()} == {t.table.lower(), table.lower()}
                     for j in sem.joins)
        # the parent's name as written or singular ("creatures" -> "creature" + "types")
        heads = [h for h in (table.lower(), readable_entity(table).lower().replace(" ", "")) if h]
        head = next((h for h in heads if t.table.lower().startswith(h)), "")
        rest = t.table[len(head):].strip("_") if head else ""
        low = low_words(t.column)
        if not joined or len(rest) < 3 or len(low) != 1 or low[0] not in BARE_QUALIFIERS | _LANGUAGES | _SCRIPTS:
            continue
        word = low[0].capitalize() if low[0] in _LANGUAGES else low[0]
        out[i] = f"{word} {readable_entity(rest).lower()}"
    return out


def _is_count(phrase: str) -> bool:
    if phrase.startswith("units "):  # "units in stock", "units on order"
        return True
    return _looks_plural(phrase) and " in " not in f" {phrase} " and phrase[:1].islower() \
        and phrase.split()[-1] not in ("headquarters", "premises", "sales", "assets", "profits", "earnings")


@dataclass(frozen=True, slots=True)
class _Step:
    kind: str  # "forward", "reverse" or "m2m"
    noun: str
    role: str  # the foreign-key label, for relabelling the anchor after a reverse first step
    to_table: str


def _adjacency(joins: tuple[Join, ...]) -> dict[str, list[tuple[str, _Step]]]:
    graph: dict[str, list[tuple[str, _Step]]] = {}
    for join in joins:
        if join.one_to_one:
            # an extension table joined key to key holds its parent's own facts: "the speed of the
            # creature 'ash wolf'", never "the speed of the creaturestats of the creature 'ash wolf'"
            # (how the facts are stored is no relation a person names; issue 22): a step with no noun
            a, b = join.left.table, join.right.table
            graph.setdefault(a.lower(), []).append((b.lower(), _Step("same", "", "", b)))
            graph.setdefault(b.lower(), []).append((a.lower(), _Step("same", "", "", a)))
            continue
        fk, ref = _fk_side(join)
        label = relation_noun(fk.column, ref.table, ref.column)
        forward = _Step("forward", label, label, ref.table)
        reverse = _Step(
            "reverse", plural_phrase(readable_entity(fk.table)), label, fk.table
        )
        graph.setdefault(fk.table.lower(), []).append((ref.table.lower(), forward))
        graph.setdefault(ref.table.lower(), []).append((fk.table.lower(), reverse))
    return graph


def _path(
    graph: dict[str, list[tuple[str, _Step]]], start: str, goal: str
) -> list[_Step] | None:
    start, goal = start.lower(), goal.lower()
    if start == goal:
        return []
    previous: dict[str, tuple[str, _Step]] = {}
    queue, seen = [start], {start}
    while queue:
        node = queue.pop(0)
        for nxt, step in graph.get(node, []):
            if nxt in seen:
                continue
            seen.add(nxt)
            previous[nxt] = (node, step)
            if nxt == goal:
                steps: list[_Step] = []
                while nxt != start:
                    nxt, step = previous[nxt]
                    steps.append(step)
                return [st for st in steps[::-1] if st.kind != "same"]
            queue.append(nxt)
    return None


def _merge_many_to_many(steps: list[_Step]) -> list[_Step]:
    """Into an association table and straight out again is one "linked to" relation."""
    merged: list[_Step] = []
    i = 0
    while i < len(steps):
        step = steps[i]
        if (
            step.kind == "reverse"
            and i + 1 < len(steps)
            and steps[i + 1].kind == "forward"
        ):
            dest = steps[i + 1].to_table
            merged.append(_Step("m2m", plural_phrase(readable_entity(dest)), "", dest))
            i += 2
            continue
        merged.append(step)
        i += 1
    return merged


def _single_anchor_meaning(
    sem: TemplateSemantics, table: str, conditions: list[Condition]
) -> _Meaning:
    kinds = dict(zip(sem.placeholders, sem.condition_kinds, strict=False))
    graph = _adjacency(sem.joins)
    kind = readable_entity(table)
    target_tables: list[str] = []
    for t in sem.targets:
        if t.table.lower() not in [x.lower() for x in target_tables]:
            target_tables.append(t.table)
    targets = list(sem.targets)
    words = _extension_words(sem, table, targets, _target_words(targets, tuple(sem.target_kinds)))

    if len(target_tables) > 1 and not _targets_identify_row(targets):
        # Columns from several tables: name each by its relation to the anchor.
        parts = []
        for t, word in zip(targets, words, strict=True):
            steps = _path(graph, table, t.table)
            if steps is not None and not steps:
                parts.append(word)
                continue
            owner = steps[-1].noun if steps else readable_entity(t.table)
            parts.append(
                owner if _is_name_like(t.column, t.table) else f"{owner} {word}"
            )
        full, short, bare = _anchor_phrases(table, kind, conditions, kinds)
        return _Meaning(
            _join_list(parts), ", ".join(parts), True, "of", (), full, short, bare
        )

    steps = _path(graph, table, target_tables[0]) if target_tables else []
    steps = _merge_many_to_many(steps or [])
    if steps and steps[0].kind == "reverse":
        kind = steps[0].role  # "the projects of the project manager 'X'"
    links = [
        _Link(s.noun, "linked to" if s.kind == "m2m" else "of", s.kind != "forward")
        for s in steps
    ]
    full, short, bare = _anchor_phrases(table, kind, conditions, kinds)

    # Asking for the identifying column of a related row is asking for the row itself:
    # "the client of the project", not "the name of the client of the project".
    if links and _targets_identify_row(targets):
        last = links[-1]
        chain = tuple(reversed(links[:-1]))
        return _Meaning(
            last.noun, last.noun, last.plural, last.link, chain, full, short, bare
        )
    if links and len(words) == 1 and links[-1].link == "of" and not links[-1].plural \
            and words[0].lower().startswith(links[-1].noun.lower() + " ") \
            and low_words(targets[0].column)[-1:] in (["title"], ["name"], ["label"]):
        links = links[:-1]  # the head names its row already: "the job title of 'Ann Bennet'", not "of the job of"
    chain = tuple(reversed(links))
    if len(words) == 1 and links and links[-1].link == "linked to" and not _looks_plural(words[0]) \
            and not words[0].startswith("number of "):
        words = [plural_phrase(words[0])]  # one title per linked course: "the titles of the courses"
    plural = len(words) > 1 or _looks_plural(words[0])
    return _Meaning(
        _join_list(words), ", ".join(words), plural, "of", chain, full, short, bare
    )


def _in_time(sem: TemplateSemantics, groups: dict[str, tuple[str, list[Condition]]], target_tables: set[str],
             kinds: dict[str, str]) -> tuple[str, list[_Link]] | None:
    """(the group of a row that is its parent's in a year or on a date, the relations from that row
    to what is asked) when the template asks about such a row or, through foreign keys, about
    a row it points at (the team of a player's salary in 1989); else None."""
    if len(groups) != 2 or len(target_tables) != 1:
        return None
    target = next(iter(target_tables))
    for key, (table, own) in groups.items():
        when = own[0].column.column if len(own) == 1 else ""
        if not when or not (low_words(when) in YEAR_WORDS or kinds.get(own[0].placeholder) == "date"):
            continue
        if target == key:
            return key, []
        if target in groups:
            continue
        steps = _path(_adjacency(sem.joins), table, target)
        if steps and all(s.kind == "forward" for s in steps):
            return key, [_Link(s.noun, "of", False) for s in steps]
    return None


def _in_parent(sem: TemplateSemantics, groups: dict[str, tuple[str, list[Condition]]],
               target_tables: set[str]) -> tuple[str, str] | None:
    """(the group of a row named by its name within its parent, the parent's group) when the template
    asks about that row by its name and its parent's name (``ragdx.gen.sql_templates.parent_name_key``:
    a county by its name and its state's); else None."""
    if len(groups) != 2 or len(target_tables) != 1:
        return None
    for key, (table, own) in groups.items():
        if key not in target_tables or len(own) != 1 or not _is_name_like(own[0].column.column, table):
            continue
        other = next(k for k in groups if k != key)
        parent, theirs = groups[other]
        if len(theirs) != 1 or not _is_name_like(theirs[0].column.column, parent):
            continue
        # one join between the two tables (the row's foreign key to its parent; which side holds the
        # key is not read from the names here: "countrycode" = "iso" looks the other way round)
        tables = {table.lower(), parent.lower()}
        if len(sem.joins) == 1 and {sem.joins[0].left.table.lower(), sem.joins[0].right.table.lower()} == tables:
            return key, other
    return None


def _is_place_noun(noun: str) -> bool:
    """A table's noun that is a place ("state", "province", "federal state"): a row of a table named
    within it is written as people write a place's parts ("Washington County, Alabama")."""
    last = noun.lower().split()[-1:] or [""]
    return last[0] in _PLACE_HEADS or last[0] in PLACE_WORDS


# how a row is said to belong to its parent when the parent is a thing that carries it ("the track
# 'x' on the album 'y'") or holds it ("the book 'x' in the series 'y'"); "of" for any other parent
_ON_PARENTS = frozenset({"album", "record", "disc", "playlist", "list", "menu", "page", "map", "route", "line",
                         "channel", "ballot", "agenda", "timetable", "schedule", "tape", "cd", "vinyl"})
_IN_PARENTS = frozenset({"folder", "directory", "category", "collection", "catalogue", "catalog", "group", "section",
                         "department", "team", "class", "book", "chapter", "library", "module", "package",
                         "series", "season", "volume", "archive", "portfolio", "repository"})


# parents that are a space or a container its rows sit in, as a place holds them: "the metabolite
# 'L-Tyrosine' in the compartment 'cytosol'", "the box 'B-4' in the room 'Archive'" (issue 22: "of the
# compartment" reads as a record's field, not as where the thing is); a place proper (a city, a county,
# a building: :func:`_is_place_noun`) is written as people write a place's parts instead
_CONTAINER_PARENTS = frozenset({"compartment", "container", "room", "chamber", "zone", "area", "space", "box",
                                "bin", "shelf", "rack", "drawer", "cabinet", "locker", "vault", "tank", "warehouse",
                                "storeroom", "store", "depot", "yard", "hall", "ward", "bay", "organelle", "habitat",
                                "enclosure", "pen", "garden", "field", "plot", "reservoir", "basin"})
# the last word of a foreign-key column that says where its row is ("location_id", "site", "room"):
# its parent holds the row whatever the parent table is called
_WHERE_WORDS = PLACE_WORDS | _CONTAINER_PARENTS | {"where", "position", "venue"}


def _parent_preposition(parent_noun: str, link_column: str = "") -> str:
    """"on" for a parent that carries its rows (an album), "in" for one that holds them (a folder, a
    compartment) or one the link column names as where the row is ('location_id'), else "of"."""
    last = parent_noun.lower().split()[-1:] or [""]
    if last[0] in _ON_PARENTS:
        return "on"
    link = [w for w in low_words(link_column) if w not in ("id", "code", "key", "no", "ref")][-1:] or [""]
    if last[0] in _IN_PARENTS or last[0] in _CONTAINER_PARENTS or link[0] in _WHERE_WORDS:
        return "in"
    return "of"


def _link_column(sem: TemplateSemantics, table: str) -> str:
    """The column of the one join that sits on ``table`` (the row's foreign key to its parent)."""
    for side in (sem.joins[0].left, sem.joins[0].right) if sem.joins else ():
        if side.table.lower() == table.lower():
            return side.column
    return ""


def _in_parent_meaning(sem: TemplateSemantics, groups: dict[str, tuple[str, list[Condition]]], key: str,
                       other: str) -> _Meaning:
    """A row named by its name within its parent (:func:`_in_parent`). A name that repeats, said with
    its parent's as people write it: "the FIPS code of the county 'Washington County, Alabama'", never
    "of the county 'Washington County' linked to the state 'Alabama'" (issue 22: a county is not named
    by its FIPS code)."""
    table, own = groups[key]
    parent_table, theirs = groups[other]
    kind = readable_entity(table)
    words = _target_words(list(sem.targets), tuple(sem.target_kinds))
    plural = len(words) > 1 or _looks_plural(words[0])
    parent_kind = readable_entity(parent_table)
    if not _is_place_noun(parent_kind):
        # a parent that is no place is named apart, with its noun: "the track 'Ricochet' on the
        # album 'King For A Day'", never "'Ricochet, King For A Day'" (which reads as one title,
        # or as artist and album), and the short style says it is a track too (issue 22)
        core = (f"{kind} {_quoted(own[0].placeholder)} {_parent_preposition(parent_kind, _link_column(sem, table))} "
                f"the {parent_kind} {_quoted(theirs[0].placeholder)}")
        return _Meaning(_join_list(words), ", ".join(words), plural, "of", (), f"the {core}", core, None)
    name = f"'[{own[0].placeholder}], [{theirs[0].placeholder}]'"
    return _Meaning(_join_list(words), ", ".join(words), plural, "of", (), f"the {kind} {name}",
                    f"{kind} {name}", name)


def _multi_anchor_meaning(
    sem: TemplateSemantics, groups: dict[str, tuple[str, list[Condition]]]
) -> _Meaning:
    kinds = dict(zip(sem.placeholders, sem.condition_kinds, strict=False))
    targets0 = {t.table.lower() for t in sem.targets}
    in_parent = _in_parent(sem, groups, targets0)
    if in_parent is not None:
        return _in_parent_meaning(sem, groups, *in_parent)
    anchors = [
        _anchor_phrases(t, readable_entity(t), conds, kinds) for t, conds in groups.values()
    ]
    targets = list(sem.targets)
    words = _target_words(targets, tuple(sem.target_kinds))
    target_tables = {t.table.lower() for t in targets}
    short_anchor = ", ".join(a[1] for a in anchors)
    head, short_head = _join_list(words), ", ".join(words)

    in_time = _in_time(sem, groups, target_tables, kinds)
    if in_time is not None:
        key, links = in_time
        own = groups[key][1]
        when = own[0].column.column
        # the row is its parent's in a year: "the salary of 'Babe Ruth' in 1985", never "the
        # salary of salaries 1985 linked to the person 'Babe Ruth'"
        parent = next(a for k, a in zip(groups, anchors, strict=True) if k != key)
        at = "in" if low_words(when) in YEAR_WORDS else "on"
        # the parent by its name alone where that names it ("the salary of 'Rob Ducey' in 1989", not
        # "of the person 'Rob Ducey'"); a row of a table of people's roles says the role ("the wins
        # of 'Jim Gifford' as manager in 1884": the person managed, the row is not the person's own)
        name = parent[2] or parent[0]
        role = readable_entity(groups[key][0])
        said = role.lower() not in [w.lower() for w in words] \
            and role.lower() != readable_entity(next(t for k, (t, _) in groups.items() if k != key)).lower()
        if role.lower() in PERSON_ENTITIES and said:
            name = f"{name} as {role}"
        elif at == "on" and said:
            # a row known by its owner and its day says what it is: "the invoice of 'Kara Nielsen' on
            # 6 September 2007", never "'Kara Nielsen' on 2007-09-06" (issue 22); a year's row stays
            # "the salary of 'Babe Ruth' in 1985" (its table's noun is the asked measure or a season's)
            name = f"the {role} of {name}"
        full = f"{name} {at} [{own[0].placeholder}]"
        plural = len(words) > 1 or _looks_plural(words[0])
        if links and _targets_identify_row(targets):
            # the row's other parent, asked as the row itself: "the team of 'Rob Ducey' in 1989"
            last = links[-1]
            return _Meaning(last.noun, last.noun, last.plural, last.link, tuple(reversed(links[:-1])), full,
                            full, None)
        return _Meaning(head, short_head, plural, "of", tuple(reversed(links)), full,
                        f"{name} {at} [{own[0].placeholder}]", None)
    if len(target_tables) == 1 and next(iter(target_tables)) in groups:
        # The answer describes one of the identified rows; the others only narrow it down.
        key = next(iter(target_tables))
        first = anchors[list(groups).index(key)]
        others = [a[0] for k, a in zip(groups, anchors, strict=True) if k != key]
        full = f"{first[0]} linked to {_join_list(others)}"
        short = ", ".join(
            [first[1]]
            + [a[1] for k, a in zip(groups, anchors, strict=True) if k != key]
        )
        plural = len(words) > 1 or _looks_plural(words[0])
        return _Meaning(head, short_head, plural, "of", (), full, short, None)

    full = _join_list([a[0] for a in anchors])
    if _targets_identify_row(targets):
        noun = plural_phrase(readable_entity(targets[0].table))
        return _Meaning(noun, noun, True, "linked to", (), full, short_anchor, None)
    if len(target_tables) > 1:
        parts = [
            f"{readable_entity(t.table)} {w}"
            for t, w in zip(targets, words, strict=True)
        ]
        head, short_head = _join_list(parts), ", ".join(parts)
    plural = len(words) > 1 or _looks_plural(words[0])
    return _Meaning(
        head, short_head, plural, "recorded for", (), full, short_anchor, None
    )


def _meaning(sem: TemplateSemantics) -> _Meaning:
    groups: dict[str, tuple[str, list[Condition]]] = {}
    for cond in sem.conditions:
        # a display name kept in a one-to-one child names the row it is the name of ("the pokemon
        # 'Bulbasaur'", never "the pokemon name with english 'Bulbasaur'")
        owner = cond.names or cond.column.table
        groups.setdefault(owner.lower(), (owner, []))[1].append(cond)
    if not groups:
        plural = plural_phrase(readable_entity(sem.entity))
        base = _single_anchor_meaning(sem, sem.entity, [])
        return _Meaning(
            base.head,
            base.short_head,
            base.plural,
            base.head_link,
            base.chain,
            f"all {plural}",
            f"all {plural}",
            None,
        )
    if len(groups) == 1:
        table, conds = next(iter(groups.values()))
        return _single_anchor_meaning(sem, table, conds)
    return _multi_anchor_meaning(sem, groups)


# --------------------------------------------------------------------------- frames

_SHORT_LINK = {"of": "of", "linked to": "linked to", "recorded for": "for"}


_PERSON_NOUNS = frozenset({"manager", "supervisor", "employee", "contact person", "owner", "creator",
                           "assignee", "seller", "author", "referrer", "supervisor or manager",
                           "staff member", "person", "customer contact", "representative"})
# what one row of a table of people is called: asking for such a row is asking "who"
_PERSON_ENTITIES = frozenset({"person", "employee", "staff member", "crew member", "volunteer", "therapist",
                              "patient", "author", "editor", "student", "teacher", "doctor", "nurse", "member",
                              "player", "driver", "lecturer", "professor", "instructor", "clinician", "worker",
                              "customer contact", "contact", "pupil", "physician", "consultant", "artist",
                              "actor", "director", "writer", "coach", "athlete", "people", "user", "client contact",
                              # the people a work names beside its writer ("Who is the composer of ...?")
                              "composer", "lyricist", "arranger", "conductor", "singer", "musician", "performer"})
_PLACE_HEADS = frozenset({"city", "country", "region", "state", "province", "town", "county", "island",
                          "continent", "district"})
# money words that alone are as often a property with no amount to it (an ion's or a particle's charge,
# a heart or reaction rate, a scale's balance): said alone over whole numbers, asked "What is ...?"
# (issue 22: "How much is the charge of the metabolite ..." asked a charge of -1 as a price); money kept
# in a decimal column ("charge" REAL, NUMERIC), or qualified ("service charge"), is still "How much"
_PROPERTY_WORDS = frozenset({"charge", "rate", "balance"})
# the last word of a money amount's noun: "How much is the adult fare of ...?"
_MONEY_WORDS = frozenset({"fee", "fees", "price", "cost", "salary", "budget", "fare", "rate", "advance", "amount",
                          "revenue", "income", "wage", "pay", "charge", "balance", "freight", "payment", "royalty"})


def _person_head(sem: TemplateSemantics, m: _Meaning) -> bool:
    """The answer is one or more people: a first + last name, a row of a table of people, a role
    ("the coordinator of ..."), or a column that holds a person's name ("contact person")."""
    targets = list(sem.targets)
    if len(targets) == 2 and (_name_pair([t.column for t in targets]) or _role_name_pair([t.column for t in targets])):
        return True
    if m.head in _PERSON_NOUNS:
        return True
    if not _targets_identify_row(targets):
        # a text column holding a person's name under a role ("general editor", "contact person")
        last = m.head.split()[-1].lower() if m.head else ""
        return len(targets) == 1 and tuple(sem.target_kinds) == ("text",) and m.head_link == "of" \
            and (last in ROLE_NOUNS or last in _PERSON_ENTITIES)
    entity = readable_entity(targets[0].table).lower()
    last = singular_word(m.head.split()[-1].lower()) if m.head else ""
    return entity in _PERSON_ENTITIES or entity.split()[-1] in _PERSON_ENTITIES or last in ROLE_NOUNS


def _wh_question(sem: TemplateSemantics, m: _Meaning, owner: str, np: str, be: str) -> str | None:
    """A question led by the word the answer's kind calls for (who for a person, when for a date,
    where for a place, how much for money, how many for a count), or None where "what" is the
    natural word."""
    head = m.head
    person = _person_head(sem, m)
    if m.head_link == "linked to":
        return f"Who {be} {np}?" if person else f"Which {head} {be} linked to {owner}?"
    if m.head_link != "of":
        return None
    if person:
        return f"Who {be} {np}?"
    kinds = sem.target_kinds
    if len(sem.targets) != 1 or len(kinds) != 1 or not head:
        return None
    kind, words = kinds[0], head.split()
    if kind == "date":
        event = event_verb(sem.targets[0].column)
        if event is None or m.chain and event[1] is None and words[0] == "shipping":
            return None
        participle, base = event
        return f"When did {owner} {base}?" if base else f"When was {owner} {participle}?"
    if head == "age" and kind in ("integer", "number"):
        return f"How old is {owner}?"
    if kind in ("integer", "number") and (words[-1] in _MONEY_WORDS or head == "credit limit") \
            and not (len(words) == 1 and words[0] in _PROPERTY_WORDS and kind == "integer"):
        return f"How much {be} {np}?"
    if head.startswith("number of "):
        return f"How many {head[len('number of '):]} does {owner} have?"
    if head in _PLACE_HEADS:
        return f"Which {head} is {owner} {'on' if head == 'island' else 'in'}?"
    if len(words) == 2 and words[0] == "shipping" and words[1] in _PLACE_HEADS:
        return f"To which {words[1]} was {owner} shipped?"
    return None


def _pieces(m: _Meaning, sem: TemplateSemantics | None = None) -> dict[str, str]:
    def owner_of(anchor: str) -> str:
        return "".join(f"the {c.noun} {c.link} " for c in m.chain) + anchor

    def np(anchor: str) -> str:
        return f"the {m.head} {m.head_link} {owner_of(anchor)}"

    bare = m.anchor_bare or m.anchor
    short_bare = m.anchor_bare or m.anchor_short
    person = sem is not None and _person_head(sem, m) and m.head_link in ("of", "linked to")
    s_head = m.short_head
    link = m.head_link
    for c in m.chain:
        s_head += f" {link} {c.noun}"
        link = c.link
    possessive = (
        m.chain
        and m.head_link == "of"
        and all(c.link == "of" and not c.plural for c in m.chain)
    )
    s_poss = (
        "".join(f"{c.noun}'s " for c in reversed(m.chain)) + m.short_head
        if possessive
        else s_head
    )
    s_link = _SHORT_LINK.get(link, link)
    return {
        "np": np(m.anchor),
        "npb": np(bare),
        # short questions say "for", not "recorded for": "the role for the author 'X' and the book 'Y'"
        "npb_s": np(bare).replace(f" {m.head} recorded for ", f" {m.head} for ", 1),
        "head": m.head,
        "owner": owner_of(m.anchor),
        "ownerb": owner_of(bare),
        "be": "are" if m.plural else "is",
        "what_c": ("who're" if m.plural else "who's") if person else ("what're" if m.plural else "what's"),
        "it": "they" if m.plural else "it",
        "it_obj": "them" if m.plural else "it",
        "s_np": f"{s_head} {s_link} {m.anchor_short}",
        "s_npb": f"{s_head} {s_link} {short_bare}",
        "s_anchor": m.anchor_short,
        "s_bare": short_bare,
        "s_poss": s_poss,
        "What_c": ("Who are" if m.plural else "Who's") if person else ("What are" if m.plural else "What's"),
        "Head_of": f"{m.head[:1].upper()}{m.head[1:]} {_SHORT_LINK.get(m.head_link, m.head_link)}",
    } | _questions(m, sem, owner_of(m.anchor), np(m.anchor), "are" if m.plural else "is",
                   (owner_of(bare), np(bare)))


def _questions(m: _Meaning, sem: TemplateSemantics | None, owner: str, np: str, be: str,
               bare: tuple[str, str]) -> dict[str, str]:
    wh = _wh_question(sem, m, owner, np, be) if sem is not None else None
    wh_b = _wh_question(sem, m, *bare, be) if sem is not None else None
    person = sem is not None and _person_head(sem, m) and m.head_link in ("of", "linked to")
    question = wh or f"{'Who' if person else 'What'} {be} {np}?"
    return {"wh": wh or "", "wh_b": wh_b or "", "question": question, "what": "who" if person else "what",
            "What": "Who" if person else "What",
            "question_lower": question[:1].lower() + question[1:] if not question.startswith("I ") else question}


# Frames are ordered so that the first few of each style already differ in structure, since
# callers usually ask for only a handful.
_FRAMES: dict[str, tuple[str, ...]] = {
    # Short questions a person types into a search box, whole but terse: never a "label:
    # attribute" fragment (read as telegraphic by people who judged them, issue 22).
    "short": (
        "{wh_b}",
        "{What_c} {npb_s}?",
        "{Head_of} {ownerb}?",
        "Do you know {npb_s}?",
        "Tell me {npb_s}.",
        "{wh}",
        "{What} {be} {np}?",
        "Looking for {npb_s}.",
    ),
    "long": (
        # Three shapes of sentence first (question first, context first, a conditional
        # instruction); they still wrap the same core phrase: the offline long style varies
        # structure around it, it does not paraphrase it (an LLM style does that).
        (
            "{question} I am asking because my manager wants this detail in the weekly summary "
            "for our colleagues, and I would rather rely on the records you have than on my own "
            "memory of them, which is not always reliable."
        ),
        (
            "Before I send out the quarterly summary that my whole team has been waiting for since "
            "Monday, I need to check one detail in our records, namely {np}, so could you tell me "
            "{what} {it} {be}?"
        ),
        (
            "If the records that you have access to mention {owner}, please look up the {head} that "
            "{be} stated there and tell me {what} {it} {be}; if nothing at all is recorded, just say "
            "so instead of guessing an answer for me."
        ),
        (
            "I am trying to find out some specific information from our records, and I would like to "
            "know {np}. Could you look this up and tell me {what} {it} {be} according to the data that "
            "is currently available?"
        ),
        (
            "Could you please tell me {np}, because I need this piece of information for a report "
            "that I am preparing and I want to make sure that all the details I include in it are "
            "accurate and complete?"
        ),
        (
            "For {owner}, I would like to know what {head} {be} recorded in the database, since this "
            "detail is relevant to an analysis that I am currently working on and I have not been "
            "able to find {it_obj} anywhere else."
        ),
        (
            "A question came up during a discussion with my colleagues about {owner}, and since we "
            "could not agree on the answer, I would like you to tell me {what} the {head} {be} "
            "according to the information that is available."
        ),
        (
            "As part of a review of the information that we hold, I need to determine {np}. Please "
            "state the answer clearly and mention whether there is any uncertainty about it or "
            "whether the records appear to be incomplete."
        ),
        (
            "My manager has asked me to check {npb}, and since I do not have direct access to the "
            "underlying data myself, I would really appreciate it if you could look this up and let "
            "me know what you find."
        ),
        (
            "I am preparing a summary about {owner} for an upcoming meeting, and one of the things "
            "that I still have to include is the {head}, so could you tell me {what} {it} {be} based on "
            "the records that you have access to?"
        ),
    ),
    "interrogative": (
        "{wh}",
        "{What} {be} {np}?",
        "{What} {be} the {head} recorded for {owner}?",
        "{What} {be} {npb}?",
        "Do you know {np}?",
        "For {owner}, what {be} the {head}?",
        "Can you tell me {what} {np} {be}?",
        "Could you look up {npb}?",
        "What does the data say about {np}?",
    ),
    "directive": (
        "Give me {np}.",
        "Find {npb}.",
        "Look up {owner} and report the {head}.",
        "Tell me {np}.",
        "Retrieve the {head} recorded for {ownerb}.",
        "State {np}.",
        "Identify {npb}.",
        "Provide {np}.",
        "Show me {npb}.",
    ),
    "formal": (
        "Kindly provide {np}.",
        "I would be grateful if you could inform me of {np}.",
        "Would you be so kind as to tell me {npb}?",
        "I would appreciate it if you could indicate {np}.",
        "Please state {npb}.",
        "Could you please confirm {np}?",
        "May I kindly request that you provide the {head} recorded for {owner}?",
        "Please be so kind as to specify {npb}.",
    ),
    "casual": (
        "hey, {what_c} {np}?",
        "{what_c} {npb}? need it quick",
        "any idea {what} {np} {be}? can't find {it_obj}",
        "quick q: {what_c} the {head} for {ownerb}?",
        "can't remember {np}, can you help me out?",
        "I'm curious, {what_c} {npb}?",
        "lemme know {np}, that'd be great!",
    ),
}

_SHORT_MAX_WORDS = 8


def _word_count_without_placeholders(text: str) -> int:
    stripped = re.sub(r"'\[[^\]]*\]'", " ", text)
    return sum(1 for token in stripped.split() if any(ch.isalnum() for ch in token))


def verbalise(sem: TemplateSemantics, style: str, n: int) -> list[str]:
    """``n`` distinct text templates for ``sem`` in a built-in style, each holding every
    placeholder once as ``'[Table.Column]'``.

    Raises ``ValueError`` for an unknown style, for ``n < 1`` and when the style cannot produce
    ``n`` distinct phrasings of this template.
    """
    if style not in _FRAMES:
        raise ValueError(
            f"unknown style {style!r}; built-in styles: {', '.join(BUILTIN_STYLES)}"
        )
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    values = _pieces(_meaning(sem), sem)
    texts: list[str] = []
    seen: set[str] = set()
    for frame in _FRAMES[style]:
        if ("{wh}" in frame and not values["wh"]) or ("{wh_b}" in frame and not values["wh_b"]):
            continue  # no question word fits this column better than "what"
        text = frame.format(**values)
        # Phrasings that differ only in case, spacing or final punctuation count as one
        # downstream (text_templates.select_valid), so they must count as one here too.
        key = " ".join(text.lower().split()).rstrip(".?! ")
        if key not in seen:
            seen.add(key)
            texts.append(text)
    if style == "short":
        # Very wide templates cannot fit the word budget; such phrasings go last rather than
        # vanish, so the maximum per style does not depend on column-name lengths.
        texts = [
            t for t in texts if _word_count_without_placeholders(t) <= _SHORT_MAX_WORDS
        ] + [t for t in texts if _word_count_without_placeholders(t) > _SHORT_MAX_WORDS]
    if n > len(texts):
        raise ValueError(
            f"style {style!r} can produce at most {len(texts)} distinct text templates for this "
            f"template, {n} were asked for"
        )
    return texts[:n]
