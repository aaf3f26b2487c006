"""The vocabulary of a schema: how ragdx names tables, columns and relations, decided once.

Templates (SQL aliases), text templates (the verbaliser), the rendered knowledge base and the
evidence linker all speak of the same rows: they take every noun from here, so a relation has one
name everywhere ("the sales rep of Atelier graphique", never "the sales rep employee number" in a
question and "the employee of" in a document).

Identifiers are split into words (CamelCase, snake_case, digits), acronyms keep their capitals,
a table's noun is singular, and a foreign key is named by the role in its column's name when it
has one ("ReportsTo" -> "manager", "salesRepEmployeeNumber" -> "sales rep") and otherwise by what
it points at ("SupplierID" -> "supplier").
"""

from __future__ import annotations

import re

__all__ = ["COLUMN_SYNONYMS", "PLACE_WORDS", "RELATION_SYNONYMS", "column_phrase", "low_words", "names_a_place",
           "plural_phrase", "readable_entity", "readable_name", "relation_noun", "starts_with_table", "table_words"]

_TOKEN = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
# Kept upper case even when the identifier is written all in capitals, where "is it an acronym?"
# cannot be read off the spelling (GPA vs NAME).
_ACRONYMS = frozenset(
    {
        "id",
        "gpa",
        "ects",
        "url",
        "ssn",
        "isbn",
        "vat",
        "ceo",
        "cfo",
        "gdp",
        "uk",
        "usa",
        "eu",
        "ip",
        "api",
        "sql",
        "pk",
        "fk",
    }
)
# Units that read as plurals after "in" ("Sales_in_Billion" means amounts in billions).
_UNITS = frozenset(
    {
        "billion",
        "million",
        "thousand",
        "hundred",
        "dollar",
        "euro",
        "pound",
        "year",
        "month",
        "week",
        "day",
        "hour",
        "minute",
        "second",
        "meter",
        "metre",
        "kilometer",
        "kilometre",
        "mile",
        "gram",
        "kilogram",
        "liter",
        "litre",
        "foot",
        "inch",
        "point",
        "unit",
    }
)
_PLURAL_EXCEPTIONS = {
    "person": "people",
    "man": "men",
    "woman": "women",
    "child": "children",
    "foot": "feet",
    "mouse": "mice",
    "tooth": "teeth",
}
# "staff" names a group; one row of a Staff table is a staff member.
SINGULAR_EXCEPTIONS = {v: k for k, v in _PLURAL_EXCEPTIONS.items()} | {
    "persons": "person",
    "staff": "staff member",
}
# Abbreviations of "number" at the end of a column name (SemesterNo, Phone_Nr).
_NUMBER_ABBREVIATIONS = frozenset({"no", "nr", "num", "nbr"})
# Same in singular and plural.
UNCOUNTABLE = frozenset(
    {
        "data",
        "information",
        "equipment",
        "staff",
        "series",
        "species",
        "news",
        "sheep",
        "software",
        "hardware",
        "personnel",
        "feedback",
        "research",
        "media",
    }
)
# Singular despite the final "s", so the singulariser must leave them alone.
SINGULAR_IN_S = frozenset(
    {
        "status",
        "analysis",
        "basis",
        "bus",
        "campus",
        "thesis",
        "census",
        "address",
        "class",
        "business",
        "access",
        "process",
        "gas",
        "bonus",
        "virus",
    }
)
# "-ies" words whose singular keeps the "ie".
_IE_WORDS = frozenset(
    {"movies", "cookies", "zombies", "pies", "ties", "lies", "calories", "rookies"}
)


def _tokens(identifier: str) -> list[str]:
    tokens: list[str] = []
    for chunk in re.split(r"[\s_\-.]+", identifier.strip()):
        tokens.extend(_TOKEN.findall(chunk))
    return tokens


def plural_word(word: str) -> str:
    low = word.lower()
    if low in _PLURAL_EXCEPTIONS:
        return _PLURAL_EXCEPTIONS[low]
    if low in UNCOUNTABLE:
        return word
    if word.isupper() and len(word) > 1:
        return word + "s"
    if low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        return word[:-1] + "ies"
    if low.endswith("sis"):
        return word[:-2] + "es"
    if low.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    return word + "s"


def singular_word(word: str) -> str:
    low = word.lower()
    if low in SINGULAR_EXCEPTIONS:
        return SINGULAR_EXCEPTIONS[low]
    if low in UNCOUNTABLE or low in SINGULAR_IN_S or word.isupper():
        return word
    if low in _IE_WORDS:
        return word[:-1]
    if low.endswith("es") and low[:-2] in SINGULAR_IN_S:
        return word[:-2]
    if low.endswith("es") and low[:-2] + "is" in SINGULAR_IN_S:
        return word[:-2] + "is"
    if low.endswith("ies") and len(low) > 3:
        return word[:-3] + "y"
    if low.endswith(("sses", "ches", "shes", "xes", "zes")):
        return word[:-2]
    if low.endswith(("ss", "us", "is")):
        return word
    if low.endswith("s") and len(low) > 2:
        return word[:-1]
    return word


def readable_name(identifier: str) -> str:
    """Identifier as lower-case words: ``Sales_in_Billion`` -> ``sales in billions``.

    CamelCase, snake_case and digits are split; acronyms keep their capitals (``ECTS_Credits`` ->
    ``ECTS credits``, ``Client_ID`` -> ``client ID``).
    """
    tokens = _tokens(identifier)
    letters = [c for c in identifier if c.isalpha()]
    all_caps = bool(letters) and all(c.isupper() for c in letters)
    words: list[str] = []
    for token in tokens:
        if token.lower() in _ACRONYMS:
            words.append(token.upper())
        elif token.isupper() and len(token) > 1 and not all_caps:
            words.append(token)
        else:
            words.append(token.lower())
    for i in range(1, len(words)):
        if words[i - 1] == "in" and words[i] in _UNITS:
            words[i] = plural_word(words[i])
    if len(words) > 1 and words[-1] in _NUMBER_ABBREVIATIONS:
        words[-1] = "number"
    return " ".join(words)


def readable_entity(table: str) -> str:
    """Singular readable noun for a table: ``people`` -> ``person``, ``StudyProgrammes`` ->
    ``study programme``."""
    words = readable_name(table).split()
    if not words:
        return ""
    words[-1] = singular_word(words[-1])
    return " ".join(words)


def plural_phrase(noun: str) -> str:
    words = noun.split()
    if not words:
        return noun
    words[-1] = plural_word(words[-1])
    return " ".join(words)


# --------------------------------------------------------------------------- synonyms

# A small table of what column names abbreviate or say awkwardly; applied to whole phrases.
COLUMN_SYNONYMS = {
    "contact name": "contact person", "home page": "website", "homepage": "website",
    "phone": "phone number", "fax": "fax number", "extension": "phone extension",
    "birth date": "date of birth", "dob": "date of birth", "zip": "ZIP code", "zip code": "ZIP code",
    "qty": "quantity", "desc": "description", "addr": "address", "tel": "telephone number",
    "email": "email address", "e mail": "email address", "mail": "email address",
    "photo path": "photo file", "discontinued": "discontinued status", "reports to": "manager",
}
COMPANY_WORDS = frozenset({"company", "organisation", "organization", "business", "trade", "brand",
                            "full", "display"})


def column_phrase(column: str) -> str:
    """A column name as the noun a person would use: split, then the synonym table
    (``HomePage`` -> "website", ``ShipCity`` -> "shipping city")."""
    phrase = readable_name(column)
    low = phrase.lower()
    if low in COLUMN_SYNONYMS:
        return COLUMN_SYNONYMS[low]
    words = phrase.split()
    if len(words) > 1 and words[0].lower() == "ship":
        rest = " ".join(words[1:])
        return "shipping " + COLUMN_SYNONYMS.get(rest.lower(), rest)
    return phrase

# What the row at the end of a foreign key is, when the column names a verb or a role.
RELATION_SYNONYMS = {
    "reports to": "manager", "supervisor or manager": "supervisor or manager", "ship via": "shipper",
    "shipped via": "shipper", "managed by": "manager", "boss": "manager", "referred by": "referrer",
    "created by": "creator", "owned by": "owner", "assigned to": "assignee", "sold by": "seller",
    "parent": "parent", "mentor": "mentor",
}
# Words of a foreign-key column that say "this is a key", not what the row is.
_KEY_WORDS = frozenset({"id", "fk", "key", "pk", "number"})
# Nouns of a person's role: before the referenced entity's noun they are the relation's name
# ("sales rep employee" -> "sales rep", "account manager staff" -> "account manager"); other
# words before it qualify the entity and stay ("parent category").
ROLE_NOUNS = frozenset({
    "rep", "representative", "manager", "owner", "agent", "contact", "assignee", "author", "creator",
    "approver", "reviewer", "supervisor", "lead", "head", "coordinator", "advisor", "adviser", "mentor",
    "tutor", "instructor", "teacher", "sponsor", "buyer", "seller", "handler", "officer", "director",
    "chair", "leader", "partner", "referrer", "planner", "consultant", "engineer", "doctor", "physician",
    "nurse", "therapist", "driver", "captain", "editor", "accountant", "auditor", "custodian", "steward",
})


# The last word of a column that holds a place: such a value names a row only beside the row's
# noun ("the Hamburg office"); alone ("moved to Hamburg") it is the place, not the row.
PLACE_WORDS = frozenset({"city", "town", "location", "place", "site", "campus", "building", "country", "region"})


def names_a_place(column: str) -> bool:
    words = low_words(column)
    return bool(words) and words[-1] in PLACE_WORDS


def low_words(identifier: str) -> list[str]:
    """An identifier's words in lower case (acronyms too): ``Client_ID`` -> ``["client", "id"]``."""
    return readable_name(identifier).lower().split()


def table_words(table: str) -> tuple[list[str], list[str]]:
    """A table's name as words, as written and as its singular noun (``people``, ``person``)."""
    return low_words(table), readable_entity(table).lower().split()


def starts_with_table(column: str, table: str) -> bool:
    """The column's name begins with the table's (``SupplierID`` of ``Suppliers``)."""
    words = low_words(column)
    return any(tw and words[: len(tw)] == tw for tw in table_words(table))


def relation_noun(fk_column: str, ref_table: str) -> str:
    """The noun for the row a foreign key points at, as the referencing row's relation to it:
    ``SupplierID`` -> "supplier" (the referenced entity's noun), ``ReportsTo`` -> "manager",
    ``ShipVia`` -> "shipper", ``ProjectManager`` -> "project manager", ``salesRepEmployeeNumber``
    -> "sales rep", ``ParentCategoryID`` -> "parent category". Never a key column's full name."""
    entity = readable_entity(ref_table)
    if starts_with_table(fk_column, ref_table):
        return entity
    words = readable_name(fk_column).split()
    while words and words[-1].lower() in _KEY_WORDS:
        words.pop()
    while words and words[0].lower() in ("id", "fk"):
        words.pop(0)
    if not words:
        return entity
    low = [w.lower() for w in words]
    phrase = " ".join(low)
    if phrase in RELATION_SYNONYMS:
        return RELATION_SYNONYMS[phrase]
    for noun in table_words(ref_table):  # as written ("staff") and as its noun ("staff member")
        n = len(noun)
        if n and len(low) > n and low[-n:] == noun and low[-n - 1] in ROLE_NOUNS:
            return " ".join(words[:-n])
        if low == noun:
            return entity
    return " ".join(words)
