"""Text and database values in one comparable form, for evidence linking.

A document says "January 15, 2023", "the 1st of April, 2023", "$433.5 billion", "JPMorgan Chase
& Co." or "Dr. Helena Quantum"; the database holds ``2023-01-15``, ``433.5``, ``JPMorgan Chase``.
Both sides go through the same normaliser (case, accents, punctuation, numbers, dates) so a fact
is found by comparing token sequences, and a value gets a few *variants* (the parts of "Dubai,
UAE", the expansion of "CEO", the month of a date) with a weight that says how sure a match is.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date, datetime
from decimal import Decimal
from typing import Any

_MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
    "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9,
    "sept": 9, "sep": 9, "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}
_SEASONS = {"spring": (3, 4, 5), "summer": (6, 7, 8), "autumn": (9, 10, 11), "fall": (9, 10, 11),
            "winter": (12, 1, 2)}
_QUARTERS = {"q1": (1, 2, 3), "q2": (4, 5, 6), "q3": (7, 8, 9), "q4": (10, 11, 12)}
_ORDINAL_QUARTERS = {"first": "q1", "second": "q2", "third": "q3", "fourth": "q4", "1st": "q1", "2nd": "q2",
                     "3rd": "q3", "4th": "q4"}

_MON = r"(january|february|march|april|may|june|july|august|september|october|november|december|" \
       r"jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(\d{4})"
# the order matters: the longest, most specific forms first
_DATE_PATTERNS: list[tuple[re.Pattern, str]] = [
    # 2023-01-15, 2023-01-15T10:30:00, 2023/01/15 (every engine's ISO rendering, time dropped)
    (re.compile(r"\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})"
                r"(?:[t ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}:?\d{2})?)?\b"), "ymd"),
    # January 15, 2023 / Jan. 15th 2023
    (re.compile(rf"\b{_MON}\s+{_DAY},?\s+(?:of\s+)?{_YEAR}\b"), "mdy"),
    # 15 January 2023 / the 1st of April, 2023
    (re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MON},?\s+{_YEAR}\b"), "dmy"),
    # 01/15/2023 or 15/01/2023 (day first when the first number cannot be a month)
    (re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b"), "slash"),
    # spring of 2023
    (re.compile(r"\b(spring|summer|autumn|fall|winter)\s+(?:of\s+)?(\d{4})\b"), "season"),
    # Q1 2023 / the first quarter of 2023
    (re.compile(r"\b(q[1-4])\s+(?:of\s+)?(\d{4})\b"), "quarter"),
    (re.compile(r"\b(first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter\s+(?:of\s+)?(\d{4})\b"), "oquarter"),
    # June 2024 / June of 2024
    (re.compile(rf"\b{_MON},?\s+(?:of\s+)?{_YEAR}\b"), "my"),
]


def _valid(y: int, m: int, d: int) -> bool:
    try:
        date(y, m, d)
    except ValueError:
        return False
    return True


def _date_token(kind: str, g: tuple[str, ...]) -> str | None:
    if kind == "ymd":
        y, m, d = int(g[0]), int(g[1]), int(g[2])
    elif kind == "mdy":
        y, m, d = int(g[2]), _MONTHS[g[0]], int(g[1])
    elif kind == "dmy":
        y, m, d = int(g[2]), _MONTHS[g[1]], int(g[0])
    elif kind == "slash":
        a, b, y = int(g[0]), int(g[1]), int(g[2])
        m, d = (b, a) if a > 12 else (a, b)
    elif kind == "season":
        return f"zseason{g[1]}{'autumn' if g[0] == 'fall' else g[0]}"
    elif kind == "quarter":
        return f"zquarter{g[1]}{g[0]}"
    elif kind == "oquarter":
        return f"zquarter{g[1]}{_ORDINAL_QUARTERS[g[0]]}"
    elif kind == "my":
        return f"zmonth{int(g[1]):04d}{_MONTHS[g[0]]:02d}"
    else:  # pragma: no cover - the patterns above are the only kinds
        return None
    return f"zdate{y:04d}{m:02d}{d:02d}" if _valid(y, m, d) else None


_ANY_MONTH = re.compile(r"jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec")
_ANY_SEASON = re.compile(r"spring|summer|autumn|fall|winter|quarter|q[1-4]")
_DIGIT = re.compile(r"\d")


def _replace_dates(text: str) -> str:
    months = _ANY_MONTH.search(text) is not None
    seasons = _ANY_SEASON.search(text) is not None
    for pattern, kind in _DATE_PATTERNS:
        if kind in ("mdy", "dmy", "my") and not months:
            continue  # most passages name no month: skip the costlier patterns
        if kind in ("season", "quarter", "oquarter") and not seasons:
            continue
        def sub(m: re.Match, kind=kind) -> str:
            token = _date_token(kind, m.groups())
            return f" {token} " if token else m.group(0)
        text = pattern.sub(sub, text)
    return text


_THOUSANDS = re.compile(r"\b\d{1,3}(?:,\d{3})+(?:\.\d+)?\b")
_TOKEN = re.compile(r"[^\W_]+(?:\.\d+)?")
#: abbreviations a sentence does not end after ("Dr. Helena Quantum" is one name)
_ABBREV = {"dr", "mr", "mrs", "ms", "prof", "st", "jr", "sr", "co", "inc", "ltd", "corp", "vs", "no", "mt",
           "e.g", "i.e", "etc", "u.s", "u.k", "dept", "approx", "jan", "feb", "mar", "apr", "jun", "jul", "aug",
           "sep", "sept", "oct", "nov", "dec"}
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+|\n+")
#: the separator between sentences in a normalised passage: no phrase can span it
SEP = "§"


def fold(text: str) -> str:
    """Case and accents folded: "Zoë Ångström" → "zoe angstrom"."""
    if text.isascii():
        return text.lower()
    text = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in text if not unicodedata.combining(c))


def _number(token: str) -> str:
    # 19.0 and 19, 433.50 and 433.5 are one number; leading zeros are kept (codes such as 007)
    if "." in token and token.replace(".", "", 1).isdigit():
        token = token.rstrip("0").rstrip(".")
    return token


def _prepare(text: str) -> str:
    """Folded text with numbers and dates in their canonical form (still with its punctuation)."""
    text = fold(text).replace("&", " and ")
    if _DIGIT.search(text):
        # every date form has a digit ("spring of 2023" too): text without one is left alone
        text = _THOUSANDS.sub(lambda m: m.group(0).replace(",", ""), text)
        text = _replace_dates(text)
    return text


def _tokens(prepared: str) -> list[str]:
    return [_number(t) if "." in t else t for t in _TOKEN.findall(prepared)]


def tokens(text: str) -> list[str]:
    """The normalised tokens of a piece of text (one sentence or one value)."""
    return _tokens(_prepare(text))


def sentences(text: str) -> list[tuple[int, int]]:
    """Character spans of the sentences of ``text`` (abbreviations such as "Dr." do not end one)."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        end = m.start()
        if m.group(0).strip(" \t\"')]") == "" and "\n" not in m.group(0):
            word = text[max(start, end - 6):end].rstrip(".!?\"')]").rsplit(None, 1)
            last = fold(word[-1]) if word else ""
            last = last.split("(")[-1]
            if last in _ABBREV or (len(last) == 1 and last.isalpha()):
                continue
        if text[start:end].strip():
            spans.append((start, end))
        start = m.end()
    if text[start:].strip():
        spans.append((start, len(text)))
    return spans


def normalised_passage(text: str) -> str:
    """A passage as `` tok tok § tok tok `` (padded with spaces): sentences joined by :data:`SEP`,
    so a phrase is found with one substring search and never across two sentences."""
    text = _prepare(text)
    parts = [" ".join(_tokens(text[a:b])) for a, b in sentences(text)]
    return " " + f" {SEP} ".join(p for p in parts if p) + " "


def phrase(text: str) -> str:
    """A value as the padded token string searched for in passages ("" when it has no token)."""
    toks = tokens(text)
    return f" {' '.join(toks)} " if toks else ""


# ----------------------------------------------------------------------------- value variants

#: equivalence classes of phrases documents use for the same thing (already folded)
SYNONYMS: list[tuple[str, ...]] = [
    # not "us" nor "it": they are also a pronoun in every document
    ("usa", "u s", "u s a", "united states", "united states of america", "america", "american"),
    ("uk", "u k", "united kingdom", "great britain", "britain", "british"),
    ("uae", "united arab emirates", "emirati"),
    ("ceo", "chief executive officer", "chief executive"),
    ("coo", "chief operating officer"),
    ("cto", "chief technical officer", "chief technology officer"),
    ("cfo", "chief financial officer"),
    ("cio", "chief information officer"),
    ("hr", "human resources"),
    ("r and d", "research and development"),
    ("nyc", "new york city"),
]
_SYN_OF: dict[str, tuple[str, ...]] = {}
for _cls in SYNONYMS:
    for _member in _cls:
        _SYN_OF[_member] = _cls
_HONORIFICS = {"dr", "mr", "mrs", "ms", "prof", "sir", "dame"}
_SCALES = [(10**12, "trillion"), (10**9, "billion"), (10**6, "million"), (10**3, "thousand")]

#: one way a value can be stated: every phrase of ``all_of`` in the same sentence (or passage),
#: and how sure a match is
Variant = tuple[tuple[str, ...], float]


def _synonym_variants(toks: list[str]) -> list[list[str]]:
    """``toks`` with each synonym-class phrase in it (longest first, not overlapping) replaced by
    each other member of its class, one phrase at a time, so the number of variants stays small."""
    out: list[list[str]] = []
    i, n = 0, len(toks)
    while i < n:
        for size in (4, 3, 2, 1):
            cls = _SYN_OF.get(" ".join(toks[i:i + size])) if i + size <= n else None
            if cls is not None:
                key = " ".join(toks[i:i + size])
                out.extend(toks[:i] + other.split() + toks[i + size:] for other in cls if other != key)
                i += size
                break
        else:
            i += 1
    return out


def text_variants(value: str, *, weight: float = 1.0) -> list[Variant]:
    """Ways a text value is written: as it is, with a synonym ("USA" / "United States"), without a
    parenthesis ("Chief Executive Officer (CEO)" → both halves), without an honorific, and as its
    comma-separated parts in one sentence ("Silicon Valley, USA" when the text says "Silicon
    Valley, Palo Alto, USA")."""
    out: list[Variant] = []
    seen: set[tuple[str, ...]] = set()

    def add(all_of: tuple[str, ...], w: float) -> None:
        all_of = tuple(p for p in all_of if p.strip())
        if all_of and all_of not in seen:
            seen.add(all_of)
            out.append((all_of, w))

    toks = tokens(value)
    if not toks:
        return out
    add((f" {' '.join(toks)} ",), weight)
    for alt in _synonym_variants(toks):
        add((f" {' '.join(alt)} ",), weight)
    inner = re.match(r"^(.*?)\s*\(([^()]*)\)\s*$", value.strip())
    if inner:
        for part in inner.groups():
            for v, w in text_variants(part, weight=weight * 0.95):
                add(v, w)
    if toks[0] in _HONORIFICS and len(toks) > 2:
        add((f" {' '.join(toks[1:])} ",), weight * 0.95)
    if "," in value:
        parts = [p for p in (phrase(x) for x in value.split(",")) if p]
        if len(parts) > 1:
            add(tuple(parts), weight * 0.9)
            # every part with its synonyms ("Dubai, UAE" in a text saying "Dubai, United Arab Emirates")
            alts = [[p] + [f" {' '.join(a)} " for a in _synonym_variants(p.split())] for p in parts]
            if any(len(a) > 1 for a in alts):
                import itertools

                for combo in itertools.islice(itertools.product(*alts), 16):
                    add(tuple(combo), weight * 0.9)
    return out


def number_variants(value: float | int | Decimal) -> list[Variant]:
    """A number as written: 433.5, 1,234 (→ 1234), 2.5 million for 2500000."""
    if isinstance(value, bool):
        return []
    f = float(value)
    text = _number(format(Decimal(str(value)).normalize(), "f")) if not isinstance(value, int) else str(value)
    out: list[Variant] = [((f" {text} ",), 1.0)]
    for scale, word in _SCALES:
        if abs(f) >= scale:
            scaled = _number(f"{f / scale:.3f}")
            out.append(((f" {scaled} {word} ",), 0.9))
            break
    return out


def date_variants(day: date) -> list[Variant]:
    """A date as a day (sure), as its month ("completion by the end of June 2024", fairly sure) and
    as its season or quarter ("in the spring of 2023", less sure)."""
    out: list[Variant] = [((f" zdate{day.year:04d}{day.month:02d}{day.day:02d} ",), 1.0),
                          ((f" zmonth{day.year:04d}{day.month:02d} ",), 0.8)]
    for name, months in _SEASONS.items():
        if name != "fall" and day.month in months:
            year = day.year if not (name == "winter" and day.month == 12) else day.year
            out.append(((f" zseason{year}{name} ",), 0.6))
    for name, months in _QUARTERS.items():
        if day.month in months:
            out.append(((f" zquarter{day.year}{name} ",), 0.6))
    return out


_ISO_DATE = re.compile(r"^\s*(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?)?\s*$")


def value_variants(value: Any) -> list[Variant]:
    """Every way ``value`` (a database value, or its JSON form) may be stated in a document."""
    if value is None or isinstance(value, bool):
        return []
    if isinstance(value, datetime):
        return date_variants(value.date())
    if isinstance(value, date):
        return date_variants(value)
    if isinstance(value, int | float | Decimal):
        return number_variants(value)
    text = str(value)
    m = _ISO_DATE.match(text)
    if m and _valid(int(m.group(1)), int(m.group(2)), int(m.group(3))):
        return date_variants(date(int(m.group(1)), int(m.group(2)), int(m.group(3))))
    stripped = text.strip()
    if re.fullmatch(r"-?\d+(?:\.\d+)?", stripped):
        try:
            return number_variants(Decimal(stripped) if "." in stripped else int(stripped))
        except (ArithmeticError, ValueError):
            pass
    return text_variants(text)
