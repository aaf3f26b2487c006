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
from collections.abc import Mapping, Sequence

from ragdx.db.schema import DATE_PARTS, NUMBER_WORDS, YEAR_WORDS

__all__ = ["CODE_STANDARDS", "COLUMN_SYNONYMS", "KIN_QUALIFIERS", "MEASURE_NOUNS",
           "PERSON_ENTITIES", "PLACE_WORDS", "RELATION_SYNONYMS", "column_phrase",
           "declare_names", "declare_schema_words", "expanded_words", "is_person_entity", "low_words", "names_a_place",
           "plural_phrase", "readable_entity", "readable_name", "relation_noun", "standard_code", "starts_with_table",
           "table_words", "unexplained_word"]

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
        "msrp",
        "sku",
        "hcpc",
        "dbs",
        "nhs",
        "gp",
        "iban",
        "bic",
        "eta",
        "etd",
        "issn",
        "doi",
        "gps",
        "kpi",
        "roi",
        "vin",
        "imo",
        "ein",
        # standards people call codes by, and the United States in a table's name ("us_states")
        "iso",
        "fips",
        "iata",
        "icao",
        "faa",
        "us",
        "tld",
    }
)
# Unit abbreviations at the end of a column name ("weight_kg"): read as "weight in kg".
_UNIT_ABBREVIATIONS = {"kg": "kg", "km": "km", "cm": "cm", "mm": "mm", "m²": "m²", "m³": "m³", "km²": "km²",
                       "gbp": "GBP", "eur": "EUR", "usd": "USD", "chf": "CHF", "pct": "percent",
                       "percent": "percent", "hrs": "hours", "mins": "minutes", "kwh": "kWh", "mw": "MW",
                       "kw": "kW", "ha": "hectares", "sqm": "m²", "sqft": "square feet"}
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
_PLURAL_UNITS = frozenset({"years", "months", "weeks", "days", "hours", "minutes", "seconds"})
_PLURAL_EXCEPTIONS = {
    "person": "people",
    "man": "men",
    "woman": "women",
    "child": "children",
    "foot": "feet",
    "mouse": "mice",
    "tooth": "teeth",
    # Latin and Greek plurals of the sciences' nouns ("ionicradii" is a table of ionic radii)
    "radius": "radii",
    "nucleus": "nuclei",
    "spectrum": "spectra",
    "phenomenon": "phenomena",
    "criterion": "criteria",
}
# "staff" names a group; one row of a Staff table is a staff member.
SINGULAR_EXCEPTIONS = {v: k for k, v in _PLURAL_EXCEPTIONS.items()} | {
    "persons": "person",
    "staff": "staff member",
    "crew": "crew member",
    "personnel": "staff member",
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
        "headquarters",
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


# Lower-case compounds ("productlines", "orderdetails") are split where a common record noun is
# followed by a common part noun: both lists are short and closed, so an ordinary word
# ("township", "password") is never cut.
_COMPOUND_HEADS = frozenset({
    "order", "product", "invoice", "media", "playlist", "customer", "employee", "payment", "user", "account",
    "sales", "purchase", "stock", "inventory", "price", "service", "job", "project", "course", "student",
    "staff", "film", "movie", "book", "author", "event", "ticket", "flight", "route", "trip", "vehicle", "store",
    "shop", "office", "branch", "region", "country", "city", "territory", "supplier", "vendor", "client",
    "patient", "doctor", "team", "player", "match", "game", "track", "album", "artist", "genre", "shipment",
    "delivery", "member", "category", "contract", "loan", "school", "class", "exam", "room", "hotel", "booking",
    "last", "first", "birth", "zip", "home", "phone", "hire", "ship", "unit", "due", "tail", "serial", "part",
    "batch", "seat", "file",
})
_COMPOUND_TAILS = frozenset({
    "line", "detail", "item", "type", "code", "name", "date", "number", "log", "record", "group", "list", "track",
    "category", "status", "role", "note", "history", "member", "order", "payment", "product", "price", "rate",
    "assignment", "territory", "address", "contact", "review", "rating", "stat", "statistic", "level", "version",
    "entry", "event", "step", "stage", "slot", "schedule", "plan", "tag", "link", "map", "size", "unit",
})


# Lower-case names written without separators, as JSON keys and some exports are ("continentcode",
# "postalcoderegex", "isonumeric", "areakm2", "geonameid"), are split into the words of a small,
# closed vocabulary of what schemas name (nouns of records and places, measures, units, standards'
# acronyms), and only where the last piece is a word that ends column names (a key, a code, a name,
# a unit, a kind): so "township" or "password" (no such ending) are never cut, and a name that is a
# word of the vocabulary itself ("timezone", "language") stays whole. Nothing is downloaded: the
# lists are the vocabulary.
_SCHEMA_WORDS = frozenset({
    # places and areas
    "area", "continent", "country", "state", "county", "city", "town", "region", "province", "district",
    "capital", "postal", "street", "address", "zone", "time", "geo", "admin", "location", "site", "place",
    "population", "elevation", "latitude", "longitude", "altitude", "border", "neighbour", "neighbor",
    "feature", "timezone", "language", "currency", "domain", "phone", "dialling", "dialing", "calling",
    # records and people
    "name", "title", "label", "description", "note", "comment", "user", "person", "parent", "owner", "group",
    "role", "type", "kind", "class", "status", "level", "rank", "score", "model", "brand", "color", "colour",
    "size", "length", "width", "height", "depth", "weight", "volume", "value", "amount", "total", "count",
    "price", "cost", "rate", "tax", "discount", "salary", "budget", "revenue", "start", "end", "birth",
    "death", "sort", "display", "short", "long", "full", "official", "local", "native", "alternate",
    "ascii", "source", "target", "web", "wiki", "wikipedia", "image", "photo", "page", "host", "file",
    "modification", "update", "creation", "season", "league", "division", "conference", "venue",
    # standards people call codes by (ISO 3166, FIPS 10-4, IATA, ICAO, FAA)
    "iso", "fips", "iata", "icao", "faa",
    # whole words that only look like two
    "datetime", "timestamp",
    # what reference data about matter measures ("ionizationenergies", "oxidationstates", "ionicradii",
    # "phasetransitions", "isotopedecaymodes"): the processes and kinds the measures are of
    "ionization", "ionisation", "ionic", "oxidation", "phase", "screening", "scattering", "decay", "isotope",
    "electron", "atomic", "covalent", "metallic", "molar", "thermal", "dipole", "melting", "boiling",
}) | _COMPOUND_HEADS | _COMPOUND_TAILS
# Nouns of physical and commercial measures: a table named by one holds measurements
# ("ionizationenergies"), whose bare "uncertainty" is the measure's (ragdx.gen.verbalise).
MEASURE_NOUNS = frozenset({"energy", "radius", "constant", "factor", "affinity", "potential", "charge", "mass",
                           "density", "capacity", "conductivity", "temperature", "pressure", "speed", "velocity"})
# The words a run-together column name ends with (its key, code, name, a unit or a kind of value):
# the split is made only when the last piece is one of them.
_COLUMN_ENDINGS = frozenset({
    "id", "no", "nr", "num", "code", "key", "name", "title", "number", "numeric", "alpha", "type", "date",
    "time", "year", "regex", "pattern", "format", "mask", "count", "total", "level", "rank", "status",
    "url", "km", "kg", "cm", "mm", "sqm", "sqft", "ha", "population", "area", "size", "length", "width",
    "height", "weight", "value", "amount", "price", "rate", "zone", "domain", "language", "currency",
    # measures, which end the names of tables of measurements as they end columns ("ionization_energy"),
    # and the kinds of row such tables hold ("oxidationstates", "phasetransitions", "isotopedecaymodes")
    "state", "transition", "mode",
}) | MEASURE_NOUNS
# Pieces shorter than three letters are taken only from these (an id, a number's abbreviation, a unit).
_SHORT_PIECES = frozenset({"id", "no", "nr", "km", "kg", "cm", "mm", "ha", "us", "uk", "eu", "un"})


def _vocabulary_split(low: str) -> list[str] | None:
    """``low`` as two to four words of the vocabulary, the last a column ending, fewest pieces
    first (then the longest first piece); None when it is no such compound."""
    def known(piece: str) -> bool:
        return piece in _SHORT_PIECES or (len(piece) >= 3 and (piece in _SCHEMA_WORDS or piece in _COLUMN_ENDINGS
                                                                or singular_word(piece) in _SCHEMA_WORDS
                                                                or singular_word(piece) in _COLUMN_ENDINGS))

    def split(rest: str, pieces: int) -> list[str] | None:
        if pieces == 1:
            return [rest] if known(rest) else None
        for i in range(len(rest) - 2, 1, -1):
            head = rest[:i]
            if known(head):
                tail = split(rest[i:], pieces - 1)
                if tail is not None:
                    return [head, *tail]
        return None

    for pieces in (2, 3, 4):
        found = split(low, pieces)
        # a table's name ends in the plural ("ionizationenergies" holds ionization energies)
        if found is not None and (found[-1] in _COLUMN_ENDINGS or singular_word(found[-1]) in _COLUMN_ENDINGS):
            return found
    return None


def _split_compound(token: str) -> list[str]:
    low = token.lower()
    for suffix in ("id", "no", "nr", "num", "code", "key"):  # "deptno", "empno", "customerid"
        stem = low[: -len(suffix)]
        if token.islower() and low.endswith(suffix) and (stem in _COMPOUND_HEADS or stem in _WORD_ABBREVIATIONS):
            return [stem, suffix]
    if token.islower() and token.isalpha() and len(low) >= 5 and low not in _SCHEMA_WORDS \
            and singular_word(low) not in _SCHEMA_WORDS:
        found = _vocabulary_split(low)
        if found is not None:
            return found
    if not (token.islower() and token.isalpha() and len(low) >= 7):
        return [token]
    for i in range(3, len(low) - 3):
        head, tail = low[:i], low[i:]
        if head in _COMPOUND_HEADS and (tail in _COMPOUND_TAILS or singular_word(tail) in _COMPOUND_TAILS):
            return [head, tail]
    return [token]


def _tokens(identifier: str) -> list[str]:
    tokens: list[str] = []
    stems: dict[str, tuple[str, str]] = _SCHEMA_NAMES["stems"]  # type: ignore[assignment]
    for chunk in re.split(r"[\s_\-.]+", identifier.strip()):
        for token in _TOKEN.findall(chunk):
            if token in stems:
                # 'billingcity' beside 'billingaddress' and a column 'city': "billing city"
                stem, rest = stems[token]
                tokens.extend([stem, *_split_compound(rest)])
            else:
                tokens.extend(_split_compound(token))
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
    if _SHORT_CODE.fullmatch(identifier.strip()) and identifier.strip().lower() not in _SHORT_WORDS:
        return identifier.strip()  # "W", "HR", "2B", "ERA": a score-sheet abbreviation, as written
    tokens = _tokens(identifier)
    letters = [c for c in identifier if c.isalpha()]
    all_caps = bool(letters) and all(c.isupper() for c in letters)
    words: list[str] = []
    for token in tokens:
        if token.lower() in _ACRONYMS or _vowelless(token):
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


# A whole column name of at most three capitals (a digit may lead: "2B") is an abbreviation kept
# as written, unless it is one of the short words all-capital schemas use ("AGE", "SEX").
_SHORT_CODE = re.compile(r"\d?[A-Z]{1,3}")
_SHORT_WORDS = frozenset({"age", "sex", "day", "tax", "fee", "pay", "net", "new", "old", "way", "job", "law", "art",
                          "sum", "min", "max", "avg", "key", "tag", "row", "map", "url", "zip", "vat", "rank"})


def unexplained_word(column: str) -> bool:
    """Whether a column's whole name is one short lower-case word (at most 4 letters) that no
    vocabulary here explains ("lid", "cls"): as a noun it reads as an ordinary word ("the lid of")
    or as nothing, so a column of codes so named is left out unless ragdx.yaml names it
    (``ragdx.gen.sql_templates.left_out_reason``). Known words ("type", "code"), abbreviations
    written out ("tz", "subd"), acronyms ("sku", "iata") and vowelless acronyms ("mrn") are explained."""
    name = column.strip()
    low = name.lower()
    if _user_name("columns", column) or not (name.isalpha() and name.islower() and len(name) <= 4):
        return False
    vocabulary = (_SCHEMA_WORDS, _COLUMN_ENDINGS, _WORD_ABBREVIATIONS, _ACRONYMS, _SHORT_WORDS, COLUMN_SYNONYMS,
                  _UNIT_ABBREVIATIONS, _UNITS, CODE_STANDARDS, NUMBER_WORDS, DATE_PARTS)
    return not any(low in words or singular_word(low) in words for words in vocabulary) and not _vowelless(low)


def abbreviated(column: str) -> bool:
    """Whether a column's name is an abbreviation no rule can write out ("W", "HR", "2B",
    "IPouts", "BBA"): asked as written unless ragdx.yaml's ``names: columns:`` names it."""
    if _user_name("columns", column):
        return False
    name = column.strip()
    if _SHORT_CODE.fullmatch(name) and name.lower() not in _SHORT_WORDS:
        return True
    # a run of two or more capitals fused with lower-case letters ("IPouts", "BAOpp")
    return bool(re.search(r"[A-Z]{2,}[a-z]", name)) and name.lower() not in _SHORT_WORDS


def _with_unit(phrase: str) -> str:
    """A unit at the end of a column's phrase as people write it: ``weight kg`` -> "weight in kg",
    ``storage m 2`` -> "storage in m²", ``duration years`` -> "duration in years" (for the noun a
    question or a document uses; the linker matches the plain words of ``readable_name``)."""
    words = _powers(phrase.split())
    if len(words) > 1 and words[-1].lower() in _UNIT_ABBREVIATIONS and words[-2] not in ("in", "per"):
        # "price_per_kg" is the price per kg already: never "price per in kg"
        words[-1:] = ["in", _UNIT_ABBREVIATIONS[words[-1].lower()]]
    elif len(words) > 1 and words[-1] in _PLURAL_UNITS and words[-2] not in ("in", "per"):
        words[-1:] = ["in", words[-1]]
    return " ".join(words)


# Abbreviations without a vowel that are read as words, not spelt out as an acronym.
_VOWELLESS_WORDS = frozenset({"nr", "qty", "pct", "kg", "km", "cm", "mm", "ml", "hrs", "st", "mr", "ms", "mrs", "dr",
                              "ft", "lb", "lbs", "pcs", "ext", "sqm", "sqft", "kwh", "mw", "kw", "th", "nd", "rd",
                              "cnt", "dt", "tm", "pts", "pt", "wk", "wks", "yr", "yrs", "hr", "sgl", "dbl", "ltd"})


def _vowelless(token: str) -> bool:
    """``mrn``, ``sku``, ``hcpc``, ``msrp``: a token with no vowel is an acronym people spell out."""
    low = token.lower()
    return 2 <= len(low) <= 5 and low.isalpha() and not set(low) & set("aeiouy") and low not in _VOWELLESS_WORDS \
        and low not in _WORD_ABBREVIATIONS


def _powers(words: list[str]) -> list[str]:
    """``storage_m2`` splits into "m", "2": a length unit before 2 or 3 is an area or volume."""
    out: list[str] = []
    for word in words:
        if word in ("2", "3") and out and out[-1].lower() in ("m", "km", "cm", "ft"):
            out[-1] = out[-1].lower() + ("²" if word == "2" else "³")
        else:
            out.append(word)
    return out


# The user's own words, from ragdx.yaml's ``names:`` (declare_names): by table, by column and by
# foreign-key column, matched without regard to case. One place, so the templates, the questions,
# the rendered documents and the linker all take them up.
_USER_NAMES: dict[str, dict[str, str]] = {"tables": {}, "columns": {}, "relations": {}}


def declare_names(tables: dict[str, str] | None = None, columns: dict[str, str] | None = None,
                  relations: dict[str, str] | None = None) -> None:
    """Use these nouns instead of the derived ones (``names: {tables: {Staff: lecturer}, columns:
    {hire_date: start date}, relations: {Coordinator: programme director}}``); replaces what an
    earlier call declared, so that one project's words never leak into the next."""
    for kind, given in (("tables", tables), ("columns", columns), ("relations", relations)):
        _USER_NAMES[kind] = {k.lower(): " ".join(v.split()) for k, v in (given or {}).items()}


def _user_name(kind: str, identifier: str) -> str | None:
    return _USER_NAMES[kind].get(identifier.lower()) if _USER_NAMES[kind] else None


# What one database's own names teach (declare_schema_words, at open_database): the application
# prefix its table names share ('chinook_' of Django's 'chinook_album'), and the stems its run-together
# column names share ('billing' of 'billingcity', 'billingaddress'), each only for the tables and
# columns of that database, so another database read in the same process never takes them up.
_SCHEMA_NAMES: dict[str, object] = {"prefix": "", "tables": frozenset(), "stems": {}}


def declare_schema_words(tables: Mapping[str, Sequence[str]], prefix: str | None = None) -> None:
    """This database's table names (-> their column names) and its application prefix
    (``ragdx.db.schema.shared_table_prefix``); replaces what an earlier call declared."""
    _SCHEMA_NAMES["prefix"] = (prefix or "").lower()
    _SCHEMA_NAMES["tables"] = frozenset(t.lower() for t in tables)
    _SCHEMA_NAMES["stems"] = {}  # the stems are found by the general rules alone
    _SCHEMA_NAMES["stems"] = _column_stems([c for cols in tables.values() for c in cols])


#: a stem shared by run-together column names is at least this long, and begins this many of them
_STEM_LENGTH = 4
_STEM_COLUMNS = 2


def _column_stems(columns: Sequence[str]) -> dict[str, tuple[str, str]]:
    """Run-together lower-case column names (no separator, no capital) -> (stem, rest) where the
    split is unambiguous from the schema's own words: the rest is a word of the vocabulary or another
    column's whole name ('city', 'postalcode'), and the stem begins at least :data:`_STEM_COLUMNS`
    such columns ('billing' of 'billingcity', 'billingaddress', 'billingpostalcode'). A name with two
    such splits, or whose stem begins one column only ('township'), is left whole."""
    whole = {c.lower() for c in columns if c.isalpha() and c.islower()}
    words = whole | {w for c in columns for w in low_words(c) if len(w) >= 3}

    def known(rest: str) -> bool:
        return len(rest) >= 3 and (rest in words or rest in _SCHEMA_WORDS or rest in _COLUMN_ENDINGS
                                   or singular_word(rest) in _SCHEMA_WORDS)

    splits: dict[str, list[tuple[str, str]]] = {}
    for name in whole:
        if name in _SCHEMA_WORDS or len(_split_compound(name)) > 1:
            continue  # a word already, or split by the general rules
        splits[name] = [(name[:i], name[i:]) for i in range(_STEM_LENGTH, len(name) - 2) if known(name[i:])]
    count: dict[str, int] = {}
    for found in splits.values():
        for stem in {stem for stem, _ in found}:
            count[stem] = count.get(stem, 0) + 1
    out: dict[str, tuple[str, str]] = {}
    for name, found in splits.items():
        shared = [(stem, rest) for stem, rest in found if count[stem] >= _STEM_COLUMNS]
        if len(shared) == 1:
            out[name] = shared[0]
    return out


def _without_prefix(table: str) -> str:
    """A declared table's name less the application prefix its database's tables share."""
    prefix = str(_SCHEMA_NAMES["prefix"])
    low = table.lower()
    if prefix and low.startswith(prefix + "_") and low in _SCHEMA_NAMES["tables"]:  # type: ignore[operator]
        rest = table[len(prefix) + 1:].strip("_")
        return rest or table
    return table


# Abbreviated words of column and table names, written out as people say them ("dept" ->
# department, "avg_rating" -> average rating; "max" is said as it is); the linker keeps matching
# the plain words.
_WORD_ABBREVIATIONS = {
    "dept": "department", "depts": "departments", "mgr": "manager", "mngr": "manager", "proj": "project",
    "qty": "quantity", "emp": "employee", "emps": "employees",
    "cust": "customer", "amt": "amount", "acct": "account", "avg": "average", "yr": "year", "yrs": "years",
    "cnt": "count", "dur": "duration", "descr": "description",
    "cat": "category", "prod": "product", "mfr": "manufacturer", "mfg": "manufacturing", "org": "organisation",
    "govt": "government", "intl": "international", "natl": "national", "univ": "university",
    # places, times and measurements, as operations and sensor tables abbreviate them
    "lat": "latitude", "lon": "longitude", "lng": "longitude", "alt": "altitude", "elev": "elevation",
    "tz": "time zone", "tzone": "time zone name", "dep": "departure", "arr": "arrival", "sched": "scheduled",
    "dest": "destination", "orig": "origin", "temp": "temperature", "precip": "precipitation",
    # a state, province or region under a country, as geographic reference tables clip it ("subd")
    "subd": "subdivision", "subdiv": "subdivision",
    "visib": "visibility", "dewp": "dew point", "humid": "humidity", "dir": "direction", "pct": "percent",
    "tot": "total", "ht": "height", "wgt": "weight", "mfd": "manufactured", "est": "estimated",
    # the sciences' abbreviations of their measures, as reference tables write them ("vdw_radius",
    # "dipole_polarizability_unc")
    "vdw": "van der Waals", "unc": "uncertainty", "uncert": "uncertainty", "err": "error",
}


def _expand(words: list[str]) -> list[str]:
    return [_WORD_ABBREVIATIONS.get(w.lower(), w) if w.islower() else w for w in words]


def expanded_words(identifier: str) -> list[str]:
    """An identifier's lower-case words with abbreviations written out (``proj_name`` -> project, name)."""
    return " ".join(_expand(low_words(identifier))).split()


def readable_entity(table: str) -> str:
    """Singular readable noun for a table: ``people`` -> ``person``, ``StudyProgrammes`` ->
    ``study programme`` (or the noun ragdx.yaml's ``names.tables`` gives it)."""
    own = _user_name("tables", table)
    if own:
        return own
    words = _expand(readable_name(_without_prefix(table)).split())
    if not words:
        return ""
    words[-1] = singular_word(words[-1])
    return _hyphenated(" ".join(words))


# Prefixes that English writes joined to the next word with a hyphen ("multi-airport city",
# "non-profit organisation"); a schema splits them off as words of their own ("multi_airport_cities").
_HYPHEN_PREFIXES = frozenset({"multi", "non", "semi", "self", "anti"})


def _hyphenated(noun: str) -> str:
    """``multi airport city`` -> "multi-airport city": a prefix word joined to the word after it."""
    words = noun.split(" ")
    out: list[str] = []
    for word in words:
        if out and out[-1].lower() in _HYPHEN_PREFIXES and not out[-1].endswith("-"):
            out[-1] = f"{out[-1]}-{word}"
        else:
            out.append(word)
    return " ".join(out)


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
    "kind": "type", "msrp": "MSRP", "pub date": "publication date", "duration min": "duration in minutes",
    "dur min": "duration in minutes", "length min": "length in minutes", "ext": "phone extension",
    "phone ext": "phone extension", "entered service": "date of entry into service",
    "best before": "best-before date", "price each": "unit price", "crossing in minutes": "crossing time in minutes",
    "crossing minutes": "crossing time in minutes", "year working": "number of years worked",
    "d o b": "date of birth", "timezone": "time zone",
    # a column holding two kinds of place at once
    "state province": "state or province", "state or province": "state or province",
    # a chemical's registry number (Chemical Abstracts Service), never "the cas" nor "What are the cas"
    "cas": "CAS number", "CAS": "CAS number",
}
COMPANY_WORDS = frozenset({"company", "organisation", "organization", "business", "trade", "brand",
                            "full", "display"})


# A column named by what happened to a row ("joined", "hired_on", "FoundedYear") holds when it
# happened: participle -> (the event's noun, the verb's base form when the row does it itself).
# The noun names the column ("joining date"); the verb asks the question ("When did X join?",
# "When was X hired?"). "occurred" has no noun of its own: its column is the row's date.
DATE_VERBS: dict[str, tuple[str, str | None]] = {
    "hired": ("hire", None), "joined": ("joining", "join"), "opened": ("opening", None),
    "occurred": ("", "occur"), "happened": ("", "happen"), "founded": ("founding", None),
    "established": ("founding", None), "created": ("creation", None), "registered": ("registration", None),
    "closed": ("closing", None), "started": ("start", "start"), "ended": ("end", "end"),
    "released": ("release", None), "published": ("publication", None), "completed": ("completion", None),
    "signed": ("signing", None), "issued": ("issue", None), "paid": ("payment", None),
    "received": ("receipt", None), "delivered": ("delivery", None), "shipped": ("shipping", None),
    "referred": ("referral", None), "discharged": ("discharge", None), "admitted": ("admission", None),
    "logged": ("logging", None), "reported": ("report", None), "approved": ("approval", None),
    "submitted": ("submission", None), "cancelled": ("cancellation", None), "canceled": ("cancellation", None),
    "expired": ("expiry", "expire"), "expires": ("expiry", "expire"), "renewed": ("renewal", None),
    "visited": ("visit", None), "launched": ("launch", None), "built": ("build", None),
    "born": ("birth", None), "died": ("death", "die"), "enrolled": ("enrolment", "enrol"),
    "graduated": ("graduation", "graduate"), "retired": ("retirement", "retire"),
    "ordered": ("order", None), "booked": ("booking", None), "commissioned": ("commissioning", None),
    "married": ("marriage", None), "arrived": ("arrival", "arrive"), "departed": ("departure", "depart"),
    "left": ("leaving", "leave"), "checked": ("check", None), "inspected": ("inspection", None),
    "treated": ("treatment", None), "assessed": ("assessment", None), "sold": ("sale", None),
    "certified": ("certification", None), "qualified": ("qualification", "qualify"),
    "awarded": ("award", None), "accredited": ("accreditation", None), "licensed": ("licensing", None),
    "trained": ("training", None), "validated": ("validation", None), "verified": ("verification", None),
    "confirmed": ("confirmation", None), "reviewed": ("review", None), "updated": ("update", None),
}
# the event noun back to its participle, to ask "When was X hired?" of a "hire date"
EVENT_PARTICIPLES = {noun: participle for participle, (noun, _) in DATE_VERBS.items() if noun} | {
    "order": "placed", "ship": "shipped", "release": "released", "start": "started", "end": "ended",
    "publish": "published", "invoice": "invoiced", "death": "died", "birth": "born"}
# "since" alone, or after the role the row took on then ("client since", "member since")
_SINCE = "since"


def _event_phrase(words: list[str]) -> str | None:
    """"hired on" -> "hire date", "joined" -> "joining date", "FoundedYear" -> "founding year",
    "client since" -> "client start date"; None when the column names no event."""
    low = [w.lower() for w in words]
    if low and low[-1] == _SINCE:
        return " ".join(words[:-1] + ["start", "date"])
    if not low or low[0] not in DATE_VERBS:
        return None
    noun = DATE_VERBS[low[0]][0]
    rest = low[1:]
    if rest in ([], ["on"], ["at"], ["date"], ["on", "date"], ["time"]):
        if low[0] == "born":
            return "date of birth"
        if low[0] == "died":
            return "date of death"
        return "build year" if low[0] == "built" else f"{noun} date".strip()
    if rest == ["year"]:
        return f"{noun} year".strip()
    return None


def _participle_after(words: list[str]) -> str | None:
    """"hours budgeted" -> "budgeted hours", "certified on" of an unknown verb -> "date certified"."""
    low = [w.lower() for w in words]
    # "budgeted", "allocated": longer than "speed" or "breed", which only end like a participle
    if len(low) == 2 and low[1].endswith("ed") and len(low[1]) > 6 and low[0] not in DATE_VERBS:
        return f"{words[1]} {words[0]}"
    if len(low) == 2 and low[1] in ("on", "at") and low[0].endswith("ed") and len(low[0]) > 6:
        return f"date {words[0]}"
    return None


def event_verb(column: str) -> tuple[str, str | None] | None:
    """(participle, base form when the row does it itself) of a column named by an event
    (``hired_on`` -> ("hired", None), ``occurred`` -> ("occurred", "occur"), ``HireDate`` ->
    ("hired", None)), so a question can ask "When was X hired?"; None otherwise."""
    low = low_words(column)
    if not low or _user_name("columns", column):  # the user's noun, not the column's verb, is asked
        return None
    if low[0] in DATE_VERBS and _event_phrase(low) is not None:
        return low[0], DATE_VERBS[low[0]][1]
    if len(low) == 2 and low[1] == "date" and low[0] in EVENT_PARTICIPLES:
        participle = EVENT_PARTICIPLES[low[0]]
        return participle, DATE_VERBS.get(participle, ("", None))[1]
    return None


# Public standards whose codes people name by the standard ("the ISO code of France", "the FIPS code
# of Texas", "the IATA code of Heathrow"), and the nouns whose codes are such a standard (ISO 4217
# currency codes, ISO 639 language codes, ISO 3166 country codes): the noun a question uses when the
# user asks for such a column, and what tells the column filter it is a code whatever its spelling.
CODE_STANDARDS = frozenset({"iso", "fips", "iata", "icao", "faa"})
_STANDARD_CODE_NOUNS = frozenset({"currency", "language", "country"})
_CODE_QUALIFIERS = frozenset({"numeric", "alpha", "code"})


def standard_code(column: str) -> str | None:
    """The noun of a column holding a public standard's code, as people say it (``iso3`` -> "ISO3
    code", ``isonumeric`` -> "ISO numeric code", ``fips`` -> "FIPS code", ``currencycode`` ->
    "currency code"), else None. The one rule for both the question's noun and the column filter
    (``ragdx.gen.sql_templates.left_out_reason`` leaves codes out, these as any other)."""
    words = low_words(column)
    if not words:
        return None
    if words[0] in CODE_STANDARDS and all(w.isdigit() or w in _CODE_QUALIFIERS for w in words[1:]):
        digits = "".join(w for w in words[1:] if w.isdigit())
        qualifiers = [w for w in words[1:] if w in ("numeric", "alpha")]
        return " ".join([words[0].upper() + digits, *qualifiers, "code"])
    if len(words) == 2 and words[0] in _STANDARD_CODE_NOUNS and words[1] == "code":
        return f"{words[0]} code"
    fragment = _code_fragment(words)
    if fragment is not None:
        return fragment
    return None


def _code_fragment(words: list[str]) -> str | None:
    """A column named only by how its code is written, an adjective or a fragment with no noun
    ("numeric", "alpha_3", "alpha2", "numeric_code"): completed with the noun its values are, a code
    ("numeric code", "alpha-3 code"), never "the numeric of Peru". "alpha" alone is no such
    fragment (a statistic's alpha), nor is "numeric" before another noun ("numeric grade")."""
    rest = words[1:]
    if words[:1] == ["alpha"] and len(rest) >= 1 and rest[0].isdigit() and rest[1:] in ([], ["code"]):
        return f"alpha-{rest[0]} code"
    if words[:1] == ["numeric"] and rest in ([], ["code"]):
        return "numeric code"
    return None


def column_phrase(column: str) -> str:
    """A column name as the noun a person would use: split, then the synonym table
    (``HomePage`` -> "website", ``ShipCity`` -> "shipping city", ``hired_on`` -> "hire date"), or
    the noun ragdx.yaml's ``names.columns`` gives it."""
    own = _user_name("columns", column)
    if own:
        return own
    if abbreviated(column):
        return column.strip()  # "IPouts" as written, never "i pouts": `templates sql` lists it to be named
    standard = standard_code(column)
    if standard is not None:
        return standard  # "the ISO3 code of Nigeria", never "the iso 3 of"
    phrase = _with_unit(readable_name(column))
    low = phrase.lower()
    if low in COLUMN_SYNONYMS:
        return COLUMN_SYNONYMS[low]
    words = phrase.split()
    if len(words) == 2 and words[0].lower() == "date" and words[1].lower().endswith("ed") and len(words[1]) > 4:
        # "date_shipped" -> "shipping date"; "date_needed" -> "needed-by date", as "RequiredDate"
        event = _event_phrase([words[1]])
        if event is not None:
            return event
        return f"{words[1]}-by date" if words[1].lower() in _DEADLINE_PARTICIPLES else f"{words[1]} date"
    event = _event_phrase(words) or _participle_after(words)
    if event is not None:
        return " ".join(_expand(event.split()))  # "qty_ordered" -> "ordered quantity"
    phrase = " ".join(_expand(phrase.split()))
    words = _symbols(phrase.split())
    for i in range(len(words) - 2, 0, -1):
        if words[i] == "of" and words[i + 1].lower() in _SUPERLATIVE_ADJECTIVES:
            words.insert(i + 1, "the")  # "political_stability_of_top_producer": "of the top producer"
    phrase = " ".join(words)
    sourced = _sourced_measure(words)
    if sourced is not None:
        return sourced
    if len(words) == 2 and words[0].lower() in _IN_A_MEDIUM and words[1].lower() in _MEDIA:
        return f"{words[0]} in {_MEDIA[words[1].lower()]}"  # "abundance_crust": abundance in the Earth's crust
    if len(words) == 2 and words[0].lower() == "name" and words[1].lower() in _NAME_KINDS:
        return f"{words[1]} name"  # "nameGiven" -> "given name", "name_full" -> "full name"
    if len(words) > 1 and words[0].lower() == "ship":
        rest = " ".join(words[1:])
        return "shipping " + COLUMN_SYNONYMS.get(rest.lower(), rest)
    return phrase

# How much of something there is in a medium ("abundance_crust", "concentration_soil", "solubility_water"):
# the medium after the measure is said with "in", as the natural sciences name their reservoirs.
_IN_A_MEDIUM = frozenset({"abundance", "concentration", "content", "solubility", "fraction"})
_MEDIA = {"crust": "the Earth's crust", "sea": "sea water", "seawater": "sea water", "ocean": "the ocean",
          "atmosphere": "the atmosphere", "air": "air", "soil": "soil", "water": "water", "universe": "the universe",
          "sun": "the Sun", "solar": "the Sun", "mantle": "the Earth's mantle", "blood": "blood", "plasma": "plasma"}

# adjectives that single one thing out, so that the noun after them takes "the" ("of the top producer")
_SUPERLATIVE_ADJECTIVES = frozenset({"top", "main", "largest", "biggest", "leading", "first", "last", "best"})


def _symbols(words: list[str]) -> list[str]:
    """``c6``, ``q1`` split into "c", "6": one letter before a number is a symbol people write in one
    piece and in capitals ("C6", "Q1"); a unit before a power ("m 2") is read by :func:`_powers` first."""
    out: list[str] = []
    for word in words:
        if word.isdigit() and out and len(out[-1]) == 1 and out[-1].isalpha():
            out[-1] = out[-1].upper() + word
        else:
            out.append(word)
    return out


# Measures that reference data keeps under several sources or methods, one column each
# ("vdw_radius_bondi", "atomic_radius_rahm", "en_pauling"): the words after such a measure name its
# source (an author, a force field, a model), which people write after it in parentheses ("the van
# der Waals radius (Bondi)"); an electronegativity scale is written before it ("the Pauling
# electronegativity"). Only these nouns take such a source: a word after any other noun is read as
# written, and a word of the schema vocabulary ("radius unit", "energy uncertainty") is no source.
_SOURCED_MEASURES = frozenset({"radius", "radii", "electronegativity", "polarizability", "affinity", "energy",
                               "potential"})
# abbreviations of such a measure that open a column's name ("en_pauling")
_MEASURE_ABBREVIATIONS = {"en": "electronegativity"}
# a bond's order after a covalent radius ("covalent_radius_pyykko_double"): said as "double bond"
_BOND_ORDERS = frozenset({"single", "double", "triple"})
_NO_SOURCE = frozenset({"uncertainty", "error", "unit", "units", "min", "max", "minimum", "maximum", "mean",
                        "average", "estimate", "estimated", "of", "in", "per", "at", "for", "and", "or", "to"})


def _is_source_word(word: str) -> bool:
    low = word.lower()
    if low in _NO_SOURCE or low in _UNIT_ABBREVIATIONS or low in _UNITS or low in _PLURAL_UNITS or low in _BOND_ORDERS:
        return False
    if low in _SCHEMA_WORDS or low in _COLUMN_ENDINGS or singular_word(low) in _SCHEMA_WORDS:
        return False
    return bool(re.fullmatch(r"[A-Za-z]+\d*|[A-Za-z]\d+", word)) and not low.isdigit()


def _source_text(words: list[str]) -> str | None:
    """The source of a measure in parentheses, or None where the words are no source."""
    joined: list[str] = []
    for word in words:  # "mm", "3": a force field's name with its number ("MM3")
        if word.isdigit() and joined and joined[-1].isalpha() and len(joined[-1]) <= 3:
            joined[-1] = joined[-1].upper() + word
        else:
            joined.append(word)
    bond = [w.lower() for w in joined if w.lower() in _BOND_ORDERS]
    names = [w for w in joined if w.lower() not in _BOND_ORDERS]
    if len(bond) > 1 or not all(_is_source_word(w) for w in names) or not names and not bond:
        return None
    return ", ".join([_authors(names)] * bool(names) + [f"{b} bond" for b in bond])


def _authors(names: list[str]) -> str:
    """Several names of a source are its authors, joined as the sciences join them ("Robles–Bartolotti")."""
    return "\u2013".join(w.capitalize() if w.islower() else w for w in names)


def _sourced_measure(words: list[str]) -> str | None:
    """``van der Waals radius alvarez`` -> "van der Waals radius (Alvarez)", ``covalent radius pyykko
    double`` -> "covalent radius (Pyykko, double bond)", ``en pauling`` -> "Pauling
    electronegativity"; None when the phrase has no measure followed by its source."""
    if len(words) >= 2 and words[0].lower() in _MEASURE_ABBREVIATIONS:
        rest = words[1:]
        if all(_is_source_word(w) for w in rest):
            return f"{_authors(rest)} {_MEASURE_ABBREVIATIONS[words[0].lower()]}"
        return None
    for i, word in enumerate(words[:-1]):
        if word.lower() in _SOURCED_MEASURES:
            source = _source_text(words[i + 1:])
            if source is not None:
                return f"{' '.join(words[: i + 1])} ({source})"
            return None
    return None


# "date_needed", "date_required": the date a row is wanted by
_DEADLINE_PARTICIPLES = frozenset({"needed", "required", "wanted", "due"})


# What the row at the end of a foreign key is, when the column names a verb or a role.
RELATION_SYNONYMS = {
    "reports to": "manager", "supervisor or manager": "supervisor or manager", "ship via": "shipper",
    "shipped via": "shipper", "managed by": "manager", "boss": "manager", "referred by": "referrer",
    "created by": "creator", "owned by": "owner", "assigned to": "assignee", "sold by": "seller",
    "parent": "parent", "mentor": "mentor",
}
# Words of a foreign-key column that say "this is a key", not what the row is.
# "code" too: a foreign key holding the referenced row's code ("continentcode", "country_code") names
# the row it points at ("the continent of Peru"), never "the continent code of Peru" (issue 22).
_KEY_WORDS = frozenset({"id", "fk", "key", "pk", "number", "code"})
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


# What one row of a table of people is called: a role noun before such a table's noun names the
# person's role ("sales rep employee" -> "sales rep"); before any other table's noun it qualifies the
# row ("head department" is a department, never "the head").
PERSON_ENTITIES = frozenset({"person", "people", "employee", "staff", "staff member", "crew member", "volunteer",
                             "therapist", "patient", "author", "editor", "student", "teacher", "doctor", "nurse",
                             "member", "player", "driver", "lecturer", "professor", "instructor", "clinician",
                             "worker", "customer contact", "contact", "pupil", "physician", "consultant", "artist",
                             "actor", "director", "writer", "coach", "athlete", "user", "client contact", "manager",
                             "musician", "agent", "officer", "official", "umpire", "referee"})


def is_person_entity(table: str) -> bool:
    """Whether a row of ``table`` is a person (``Employees``, ``staff``, ``People``)."""
    noun = readable_entity(table).lower()
    return noun in PERSON_ENTITIES or bool(noun.split()) and noun.split()[-1] in PERSON_ENTITIES


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


def relation_noun(fk_column: str, ref_table: str, ref_column: str | None = None) -> str:
    """The noun for the row a foreign key points at, as the referencing row's relation to it:
    ``SupplierID`` -> "supplier" (the referenced entity's noun), ``ReportsTo`` -> "manager",
    ``ShipVia`` -> "shipper", ``ProjectManager`` -> "project manager", ``salesRepEmployeeNumber``
    -> "sales rep", ``ParentCategoryID`` -> "parent category", ``dest`` -> "destination airport",
    ``tailnum`` storing ``planes.tailnum`` (``ref_column``) -> "plane". Never a key column's full
    name; ragdx.yaml's ``names.relations`` may name it otherwise."""
    own = _user_name("relations", fk_column)
    if own:
        return own
    entity = readable_entity(ref_table)
    if starts_with_table(fk_column, ref_table):
        return entity
    if ref_column is not None and low_words(fk_column) == low_words(ref_column):
        # named after the key it stores (flights.tailnum -> planes.tailnum): the row is the
        # plane, never "the tailnum of flight ..." (issue 22: no relation noun from a key column)
        return entity
    words = _expand(readable_name(fk_column).split())
    while words and words[-1].lower() in _KEY_WORDS:
        words.pop()
    while words and words[0].lower() in ("id", "fk"):
        words.pop(0)
    if not words:
        return entity
    low = [w.lower() for w in words]
    phrase = " ".join(low)
    if len(low) == 1 and low[0] in KIN_QUALIFIERS and not is_person_entity(ref_table):
        # "parent_code" pointing at another subdivision: "the parent subdivision of 'Cher'", never
        # "the parent of 'Cher'" (the word alone says nothing of what the parent is); a self-join's
        # alias already carries it ("ParentSubdivision"). A person's parent stays "parent".
        return entity if entity.lower().split()[:1] == [low[0]] else f"{low[0]} {entity}"
    if phrase in RELATION_SYNONYMS:
        return RELATION_SYNONYMS[phrase]
    if len(low) == 1 and low[0] in BARE_QUALIFIERS:
        # a key named by a qualifier alone leaves its noun to the table it points at: "the hidden
        # ability", never "the hidden of" (issue 22: no relation noun from a key column's name alone)
        return f"{low[0]} {entity}"
    verbal = _verbal_relation(low, entity)
    if verbal is not None:
        return verbal
    for noun in table_words(ref_table):  # as written ("staff") and as its noun ("staff member")
        n = len(noun)
        if n and len(low) > n and low[-n:] == noun and low[-n - 1] in ROLE_NOUNS and is_person_entity(ref_table):
            return " ".join(words[:-n])
        if low == noun:
            return entity
    return " ".join(words)


# a relation a row has to another row of a hierarchy, named alone in a key column ("parent_code",
# "parent_id"): said with the noun of what it points at ("parent subdivision", "parent category")
KIN_QUALIFIERS = frozenset({"parent", "child"})

# one word that only qualifies a noun it leaves unsaid (an ordinal or a role): a column so named
# takes the noun of what it holds ("first type", "hidden ability")
BARE_QUALIFIERS = frozenset({"first", "second", "third", "fourth", "primary", "secondary", "main", "hidden",
                             "alternate", "other"})

# "from_port" / "to_port": where a journey starts and ends
_DIRECTIONS = {"from": "departure", "to": "destination", "origin": "origin", "dest": "destination",
               "destination": "destination", "source": "source", "target": "target"}


def _verbal_relation(low: list[str], entity: str) -> str | None:
    """A key column named by a verb or a direction, as a noun: ``logged_by`` -> "logging
    volunteer", ``reported_by`` -> "reporting crew member", ``from_port`` -> "departure port",
    ``to_port`` -> "destination port"; None when the name is a noun already."""
    if len(low) >= 2 and low[-1] == "by" and low[-2].endswith("ed") and len(low[-2]) > 4:
        return f"{low[-2][:-2]}ing {entity}"  # logged -> logging, referred -> referring, approved -> approving
    if len(low) == 2 and low[0] in ("from", "to", "origin", "dest", "destination", "source", "target"):
        return f"{_DIRECTIONS[low[0]]} {low[1]}"
    if len(low) == 1 and low[0] in _DIRECTIONS and low[0] not in ("from", "to"):
        return f"{_DIRECTIONS[low[0]]} {entity}"  # flights.dest -> "destination airport"
    return None


# --------------------------------------------------------------------------- names of several columns

def composite_name(table: str, columns: list[str]) -> str | None:
    """How a person names a row by several of its columns, as a pattern with ``{column}``
    slots, or None when the columns are no such name: a flight by its carrier, number and date
    -> ``"{carrier} flight {flight} on {year}-{month}-{day}"`` ("UA flight 1545 on 2013-1-1");
    the same without an own number -> ``"flight with carrier {carrier} on {date}"``. Used by
    the questions and the rendered documents alike, so both name the row the same way
    (issue 22 item 2: a table keyed by a row number is named by what names it)."""
    noun = readable_entity(table)
    low = {c: low_words(c) for c in columns}
    parts = {w[0]: c for c, w in low.items() if len(w) == 1 and w[0] in DATE_PARTS}
    date = None
    rest = list(columns)
    if len(parts) == 3:
        # year first, as ISO 8601 writes it: "1/2/2013" is the 1st of February to some readers and
        # January the 2nd to others (a reader of US flights takes d/m/y as m/d); "2013-2-1" is one day
        date = "-".join("{" + parts[p] + "}" for p in ("year", "month", "day"))
        rest = [c for c in columns if c not in parts.values()]
    else:
        dated = [c for c in columns if low[c][-1:] in (["date"], ["day"]) or event_verb(c)]
        if len(dated) == 1:
            date = "{" + dated[0] + "}"
            rest.remove(dated[0])
    singular = noun.lower().split()
    own = [c for c in rest if low[c] == singular[-1:] or (len(low[c]) > 1 and low[c][-1] in NUMBER_WORDS)]
    years = [c for c in rest if low[c] in YEAR_WORDS]
    named = [c for c in rest if low[c][-1:] in (["name"], ["title"])]
    if date is None and len(years) == 1 and len(named) == 1 and len(rest) == 2:
        return "{" + years[0] + "} {" + named[0] + "}"  # "the 1973 Kansas City Royals"
    if date is None and not own:
        return None
    codes = [c for c in rest if c not in own]
    on = f" on {date}" if date else ""
    if len(own) == 1:
        return " ".join(["{" + c + "}" for c in codes] + [noun, "{" + own[0] + "}"]) + on
    attrs = " and ".join(f"{column_phrase(c)} {{{c}}}" for c in rest)
    return f"{noun} with {attrs}{on}" if attrs else f"{noun}{on}"


_NAME_KINDS = frozenset({"given", "first", "last", "full", "display", "middle", "short", "common", "official", "legal",
                         "family", "maiden", "nick", "birth"})


def fill_name(pattern: str, values: dict[str, str]) -> str:
    """A :func:`composite_name` pattern with its slots filled (placeholders or values)."""
    return re.sub(r"\{([^{}]+)\}", lambda m: values[m.group(1)], pattern)
