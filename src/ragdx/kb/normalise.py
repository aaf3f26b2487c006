"""Text and database values in one comparable form: the one home of the rules by which the
evidence linker finds a database value in a document and the judge decides whether a response
states the gold answer.

A document says "January 15, 2023", "the 1st of April, 2023", "22.02.2005", "$433.5 billion",
"USD 1 234,50", "JPMorgan Chase & Co.", "Deutschland" or "Davolio, Nancy"; the database holds
``2023-01-15``, ``433.5``, ``1234.5``, ``JPMorgan Chase``, ``Germany``, ``Nancy Davolio``. Both
sides go through the same normaliser (case, accents, punctuation, numbers, dates, number words,
units) so a fact is found by comparing token sequences, and a value gets a few *variants* (a
synonym from :data:`SYNONYMS`, the parts of "Dubai, UAE", the expansion of "CEO", the month of a
date) with a weight that says how sure a match is.

The rules, in one place:

* **Numbers.** Thousands are grouped by ``,`` (1,234), ``.`` (1.234.567 and 141.300,00), an
  apostrophe (1'250.00), a space, a no-break or a narrow no-break space (59 700, 6 066,78).
  One group of three after a comma is thousands (1,200 = 1200, as in English); one group of
  three after a dot is decimals (32.380 = 32.38); a comma followed by one, two or four or more
  digits, or after a leading zero, is a decimal comma (36,80; 0,125). A currency before or
  after, or as a word ("39 dollars"), is not part of the number.
* **Abbreviated amounts** (12.5k, 1.2M, 1,2 Mio., 3 bn): the amount stands for the value when
  they are equal *at the precision written* — 12.5k states 12,500 and also 12,480 (12.48k is
  12.5k to one decimal) but not 12,400 — and only when at least two significant digits are
  written: "1M" states exactly 1,000,000, never 1.4 million.
* **Percentages.** "15%", "15 %", "15 percent" state 15 and 0.15 (a discount stored as 0.15).
* **Dates.** ISO (2005-02-22, with or without a time), day-first with dots (22.02.2005),
  day/month/year with slashes read both ways when both are dates (02/03/2005 is 3 February
  and 2 March; 22/02/2005 only 22 February; 05/04/24 likewise, with a two-digit year: 00-69 →
  2000s, 70-99 → 1900s; 6.1.23 day first), a month in words before or after the day, with
  ordinals, "of", a weekday or a comma (22 Feb 2005, February 22nd, 2005, the 22nd of February
  2005, Tuesday, 22 February 2005), and 22-Feb-05 (a two-digit year only with a month in words:
  00-69 → 2000s, 70-99 → 1900s).
* **Number words**: zero to ninety-nine ("four", "twenty-four"); "one" only where it is not a
  pronoun ("the one in Berlin", "one of").
* **Units** after a number: 12-ounce = 12 oz, 500-gram = 500 g, 200 millilitres = 200 ml.
* **Synonyms** (:data:`SYNONYMS`): countries with their codes and native names, regions, cities,
  job titles. A two-letter code that is also a word (US, DE, IT, IN, ...) counts only when
  written in capitals, which the folded tokens cannot tell: the linker does not use it, the judge
  checks the response's capitals.
* **Names**: "Ms. Nancy Davolio" and "Davolio, Nancy" both state Nancy Davolio (a title is one
  more word; a comma reverses the order). For the judge also the given name's initial with the
  surname ("N. Davolio", "Davolio, N."; the initial must agree), a title with the surname ("Ms.
  Davolio", "Dr Okafor"), a surname with a particle ("P. de Vries"), and a name held in two columns
  (given name, surname) in any of these forms. **A surname alone does not** state the person: the
  judge sees no database, so it cannot tell whether another person has that surname (the namesakes
  of issue 21: Steve and William Patterson), and a bare word is also what a partial answer leaves;
  a title marks the word as a reference to a person, as documents name someone after the first
  mention. A ship's prefix or a company's legal form may be left out ("Glen Sannox II" for MV Glen
  Sannox II, "Pavlova" for Pavlova, Ltd.), and, for the judge, a last word the question itself says
  ("Felby Town" when asked for the hub Felby Town Hub; "45" when asked for the minutes).
* **A longer value is another value.** The judge rejects an answer in which every occurrence of the
  gold is part of a longer name ("Senior Engineer" for Engineer, "Relief Master", "New York" for
  York, "Commissioning Editor, Learning" as a whole one-value answer): see :func:`extends_value`.
  Harmless beside the value: words that frame it (articles, pronouns, "is", "as", adverbs in -ly
  such as "approximately"), words of the question, honorifics and ranks before a person, legal
  forms after a company, a capitals code or a known place after a place ("Seattle WA", "Paris,
  France"), anything after a comma when the question asks for a place, the rest of a name when it
  asks for part of one, units and currencies beside a number (numbers are compared as numbers).
* **Codes and units of time** (judge): a code of seven or more digits written in groups ("978-0-
  7636-1229-0", "0161 496 0000"); a duration in hours and minutes states its minutes and hours
  ("1 hr 25 min" = 85 minutes, "1h35" = 95); a currency code by its sign or name ("€", "euros"
  for EUR; "$" is the US dollar, "C$" the Canadian) when no other currency's sign is written.
* **Booleans**: yes/true and no/false, and a column's own state word ("discontinued") against
  its opposites ("available") — see :data:`STATE_WORDS` (a season states "seasonal", "all year"
  its opposite) — and, for a short answer, the question's own word for the column ("Attended",
  "Did not attend", "Inactive" when asked about "active"). A one-letter code ("D" for driver) is
  read by the document's legend, which the judge does not see: it is not accepted.
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections.abc import Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Any

# ----------------------------------------------------------------------------- folding


def fold(text: str) -> str:
    """Case and accents folded: "Zoë Ångström" → "zoe angstrom"."""
    if text.isascii():
        return text.lower()
    text = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in text if not unicodedata.combining(c))


def strip_accents(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def nfkc_casefold(text: Any) -> str:
    text = str(text)
    return (text if text.isascii() else unicodedata.normalize("NFKC", text)).casefold()  # NFKC keeps ASCII


ARTICLES = re.compile(r"\b(a|an|the)\b")
SPACES = re.compile(r"\s+")


class _SpaceOut(dict):
    """``str.translate`` table: a character of Unicode category P, S, Z or C (punctuation,
    symbols, separators, controls) becomes a space, anything else stays; filled in as characters
    are met (a Python test per character was most of the time of judging a distinct answer)."""

    def __missing__(self, code: int) -> int:
        value = 32 if unicodedata.category(chr(code))[0] in "PSZC" else code
        self[code] = value
        return value


_SPACE_OUT = _SpaceOut()


# A cascade judge normalises the same response once per sub-judge and a run repeats the same
# gold texts: memoised per process (a third of `evaluate`'s time on a large run went here).
@functools.lru_cache(maxsize=1 << 16)
def normalise_text(text: str) -> str:
    """The judge's text form: case, Unicode compatibility forms and accents, punctuation,
    articles and whitespace ("The  O'Connell!" → "o connell")."""
    if not text.isascii():  # ASCII is unchanged by NFKC and has no accents to strip
        text = strip_accents(unicodedata.normalize("NFKC", text))
    text = text.casefold().translate(_SPACE_OUT)
    text = ARTICLES.sub(" ", text)
    # `SPACES.sub(" ", text).strip()`, a quarter of the time: `str.split` and `\s` both split on
    # exactly the characters `str.isspace` names (tests/test_normalise_fast.py checks every one)
    return " ".join(text.split())


# ----------------------------------------------------------------------------- dates

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
# the order matters: the longest, most specific forms first; a later match overlapping an
# earlier one is dropped
_DATE_PATTERNS: list[tuple[re.Pattern, str]] = [
    # 2023-01-15, 2023-01-15T10:30:00, 2023/01/15 (every engine's ISO rendering, time dropped)
    (re.compile(r"\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})"
                r"(?:[t ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}:?\d{2})?)?\b"), "ymd"),
    # 22.02.2005 (dots: day first, as everywhere dots are written)
    (re.compile(r"(?<![\d.])(\d{1,2})\.(\d{1,2})\.(\d{4})\b"), "dmy-dots"),
    # 6.1.23: the same with a two-digit year (00-69 → 2000s, 70-99 → 1900s)
    (re.compile(r"(?<![\d.])(\d{1,2})\.(\d{1,2})\.(\d{2})(?![\d]|\.\d)"), "dmy-dots-yy"),
    # January 15, 2023 / Jan. 15th 2023
    (re.compile(rf"\b{_MON}\s+{_DAY},?\s+(?:of\s+)?{_YEAR}\b"), "mdy"),
    # March the 26th, 2022
    (re.compile(rf"\b{_MON}\s+the\s+{_DAY},?\s+(?:of\s+)?{_YEAR}\b"), "mdy"),
    # 15 January 2023 / the 1st of April, 2023 / Tuesday, 22 February 2005
    (re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MON},?\s+{_YEAR}\b"), "dmy"),
    # 28th Feb '17, March 3rd '19: a two-digit year after an apostrophe, beside a month in words
    (re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MON},?\s+['’‘](\d{{2}})\b"), "dmy-yy"),
    (re.compile(rf"\b{_MON}\s+(?:the\s+)?{_DAY},?\s+['’‘](\d{{2}})\b"), "mdy-yy"),
    # 22-Feb-05, 22-Feb-2005, 22/feb/2005
    (re.compile(rf"\b(\d{{1,2}})[-/]{_MON}[-/](\d{{4}}|\d{{2}})\b"), "dmy-dash"),
    # 01/15/2023 or 15/01/2023: both readings where both are dates
    (re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})/(\d{4})\b"), "slash"),
    # 05/04/24: the same with a two-digit year (00-69 → 2000s, 70-99 → 1900s)
    (re.compile(r"(?<![\d/.])(\d{1,2})/(\d{1,2})/(\d{2})(?![\d/]|\.\d)"), "slash-yy"),
    # spring of 2023
    (re.compile(r"\b(spring|summer|autumn|fall|winter)\s+(?:of\s+)?(\d{4})\b"), "season"),
    # Q1 2023 / the first quarter of 2023
    (re.compile(r"\b(q[1-4])\s+(?:of\s+)?(\d{4})\b"), "quarter"),
    (re.compile(r"\b(first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter\s+(?:of\s+)?(\d{4})\b"), "oquarter"),
    # June 2024 / June of 2024
    (re.compile(rf"\b{_MON},?\s+(?:of\s+)?{_YEAR}\b"), "my"),
]
_MONTH_KINDS = {"mdy", "dmy", "dmy-dash", "my", "dmy-yy", "mdy-yy"}
_SEASON_KINDS = {"season", "quarter", "oquarter"}


def _valid(y: int, m: int, d: int) -> bool:
    try:
        date(y, m, d)
    except ValueError:
        return False
    return True


def _date_of(kind: str, g: tuple[str, ...]) -> tuple[tuple[date, ...], str | None]:
    """(the dates a match states, the linker's token for it) — a month, a season or a quarter is
    a token but no date."""
    if kind == "ymd":
        cands = [(int(g[0]), int(g[1]), int(g[2]))]
    elif kind in ("dmy-dots", "dmy-dots-yy"):
        y = int(g[2])
        if kind == "dmy-dots-yy":
            y += 2000 if y < 70 else 1900
        cands = [(y, int(g[1]), int(g[0]))]
    elif kind == "mdy":
        cands = [(int(g[2]), _MONTHS[g[0]], int(g[1]))]
    elif kind == "dmy":
        cands = [(int(g[2]), _MONTHS[g[1]], int(g[0]))]
    elif kind in ("dmy-yy", "mdy-yy"):
        day, mon = (g[0], g[1]) if kind == "dmy-yy" else (g[1], g[0])
        y = int(g[2])
        y += 2000 if y < 70 else 1900
        cands = [(y, _MONTHS[mon], int(day))]
    elif kind == "dmy-dash":
        y = int(g[2])
        if len(g[2]) == 2:
            y += 2000 if y < 70 else 1900
        cands = [(y, _MONTHS[g[1]], int(g[0]))]
    elif kind in ("slash", "slash-yy"):
        a, b, y = int(g[0]), int(g[1]), int(g[2])
        if kind == "slash-yy":
            y += 2000 if y < 70 else 1900
        cands = [(y, a, b), (y, b, a)] if a != b else [(y, a, b)]
    elif kind == "season":
        return (), f"zseason{g[1]}{'autumn' if g[0] == 'fall' else g[0]}"
    elif kind == "quarter":
        return (), f"zquarter{g[1]}{g[0]}"
    elif kind == "oquarter":
        return (), f"zquarter{g[1]}{_ORDINAL_QUARTERS[g[0]]}"
    elif kind == "my":
        return (), f"zmonth{int(g[1]):04d}{_MONTHS[g[0]]:02d}"
    else:  # pragma: no cover - the patterns above are the only kinds
        return (), None
    dates = tuple(date(y, m, d) for y, m, d in cands if _valid(y, m, d))
    if not dates:
        return (), None
    return dates, " ".join(f"zdate{d.year:04d}{d.month:02d}{d.day:02d}" for d in dates)


_ANY_MONTH = re.compile(r"jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec")
_ANY_SEASON = re.compile(r"spring|summer|autumn|fall|winter|quarter|q[1-4]")
_DIGIT = re.compile(r"\d")
_FOUR_DIGITS = re.compile(r"\d{4}")
_SLASH_YY = re.compile(r"\d([/.])\d{1,2}\1\d{2}")


@functools.lru_cache(maxsize=1 << 16)
def date_matches(low: str) -> tuple[tuple[int, int, tuple[date, ...], str], ...]:
    """Every date form in ``low`` (folded text): (start, end, dates, token), in text order."""
    if not _DIGIT.search(low):
        return ()  # every date form has a digit
    months = _ANY_MONTH.search(low) is not None
    if not months and not _FOUR_DIGITS.search(low) and not _SLASH_YY.search(low):
        return ()  # a year of two digits is only read after a month in words, or in d/m/yy
    seasons = _ANY_SEASON.search(low) is not None
    found: list[tuple[int, int, tuple[date, ...], str]] = []
    for pattern, kind in _DATE_PATTERNS:
        if kind in _MONTH_KINDS and not months:
            continue  # most texts name no month: skip the costlier patterns
        if kind in _SEASON_KINDS and not seasons:
            continue
        for m in pattern.finditer(low):
            s, e = m.span()
            if any(a < e and s < b for a, b, _, _ in found):
                continue
            dates, token = _date_of(kind, m.groups())
            if token:
                found.append((s, e, dates, token))
    return tuple(sorted(found))


def _replace_dates(text: str) -> str:
    matches = date_matches(text)
    if not matches:
        return text
    pieces, last = [], 0
    for s, e, _, token in matches:
        pieces.append(text[last:s])
        pieces.append(f" {token} ")
        last = e
    pieces.append(text[last:])
    return "".join(pieces)


def extract_dates(text: str) -> tuple[set[date], list[tuple[int, int]]]:
    """Every date mentioned in ``text`` and the character spans they occupy (in the text's
    NFKC-casefolded form, which :func:`extract_numbers` reads too)."""
    found: set[date] = set()
    spans: list[tuple[int, int]] = []
    for s, e, dates, _ in date_matches(nfkc_casefold(text)):
        if dates:
            found.update(dates)
            spans.append((s, e))
    return found, spans


_MONTH_WORD = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
               r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_WEEKDAY_WORD = r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|sday|nesday|rsday|urday)?\.?"
#: a day and a month with no year after them ("Saturday 14 September", "14th of Sept", "September
#: 14", a weekday's "Sat 14/9"): a person takes the year from the document
YEARLESS_DATE = re.compile(
    rf"(?<![\w/.-])(?:(?:{_WEEKDAY_WORD},?\s+)?(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)?(?:\s+of)?\s+({_MONTH_WORD})"
    rf"|({_MONTH_WORD})\s+(\d{{1,2}})(?:st|nd|rd|th)?(?![\d:.])"
    rf"|{_WEEKDAY_WORD}\s+(\d{{1,2}})/(\d{{1,2}})(?![/\d]))"
    r"(?!\w)(?!,?\s*(?:'?\d{2}(?!\d)(?![:.]\d)|\d{4}))", re.IGNORECASE)


MONTH_ABBREVIATIONS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def yearless_day_month(m: re.Match[str]) -> tuple[int, int, int | None] | None:
    """(day, month, weekday 0-6 or None) of a :data:`YEARLESS_DATE` match; None when it is no date."""
    if m.group(5) is not None:  # "Sat 14/9": day and month as numbers, after a weekday
        day, month = int(m.group(5)), int(m.group(6))
    else:
        word = (m.group(2) or m.group(3)).lower()[:3]
        day, month = int(m.group(1) or m.group(4)), MONTH_ABBREVIATIONS.index(word) + 1
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    weekday = re.match(r"\s*(mon|tue|wed|thu|fri|sat|sun)", m.group(), re.IGNORECASE)
    return day, month, _WEEKDAYS.index(weekday.group(1).lower()) if weekday else None


def yearless_dates(text: str) -> list[tuple[int, int, int | None]]:
    """Every day and month written without a year in ``text`` (see :data:`YEARLESS_DATE`)."""
    return [dm for m in YEARLESS_DATE.finditer(text) if (dm := yearless_day_month(m)) is not None]


# ----------------------------------------------------------------------------- times and days

_CLOCK = re.compile(r"^\s*([01]?\d|2[0-3])[:.h]([0-5]\d)(?::[0-5]\d(?:\.\d+)?)?\s*$")
_TIME = re.compile(r"(?<![\d.:])(?:([01]?\d|2[0-3])[:.h]([0-5]\d)(?::[0-5]\d)?\s*(a\.?m\.?|p\.?m\.?|hrs?|h)?"
                   r"|(1[0-2]|0?[1-9])\s*(a\.?m\.?|p\.?m\.?)|([01]\d|2[0-3])([0-5]\d)\s*(hrs?|h)?)(?![\d.:]\d)",
                   re.IGNORECASE)


@functools.lru_cache(maxsize=1 << 14)
def clock_time(value: str) -> tuple[int, int] | None:
    """(hour, minute) of a value that is a time of day as a database holds it ("07:30", "13:30:00")."""
    m = _CLOCK.match(value) if ":" in value else None
    return (int(m.group(1)), int(m.group(2))) if m else None


_HOUR_WORDS = {w: i for i, w in enumerate("one two three four five six seven eight nine ten eleven twelve".split(), 1)}
#: a time of day in words: "half past two", "quarter to seven", "six o'clock", "noon", "midnight"
_TIME_WORDS = re.compile(r"\b(?:(half|quarter|twenty|ten|five)\s+(past|to)\s+(" + "|".join(_HOUR_WORDS)
                         + r")|(" + "|".join(_HOUR_WORDS) + r")\s+o'?\s?clock|(noon|midday|midnight))\b", re.IGNORECASE)
_PAST_WORDS = {"half": 30, "quarter": 15, "twenty": 20, "ten": 10, "five": 5}


def times_in(text: str) -> set[tuple[int, int]]:
    """The times of day a text writes: 13:30, 1.30pm, 1:30 p.m., 1 pm, 13h30, and 1330 (four digits,
    read as a time only where the value asked is one: the judge's use)."""
    out: set[tuple[int, int]] = set()
    for m in _TIME.finditer(text):
        if m.group(1) is not None:
            h, mi, half = int(m.group(1)), int(m.group(2)), (m.group(3) or "").lower()
        elif m.group(4) is not None:
            h, mi, half = int(m.group(4)), 0, m.group(5).lower()
        else:
            h, mi, half = int(m.group(6)), int(m.group(7)), ""
        if h > 12 and half[:1] in ("a", "p"):
            continue  # 13.30pm is no time
        if half.startswith("p") and h < 12:
            h += 12
        elif half.startswith("a") and h == 12:
            h = 0
        out.add((h, mi))
    if "o" in text or "past" in text or "to " in text:
        for m in _TIME_WORDS.finditer(text):
            if m.group(5):
                out.add((0, 0) if m.group(5).lower() == "midnight" else (12, 0))
            elif m.group(4):
                out.add((_HOUR_WORDS[m.group(4).lower()] % 12, 0))
            else:
                h, mi = _HOUR_WORDS[m.group(3).lower()], _PAST_WORDS[m.group(1).lower()]
                out.add((h % 12, mi) if m.group(2).lower() == "past" else ((h - 1) % 12, 60 - mi))
    return out


def plural_phrase(phrase_: str) -> str:
    """A padded phrase whose last word is a noun, in the plural (" engineer " -> " engineers ",
    " secretary " -> " secretaries "); "" when its last word is no such noun (a number, a plural,
    a word of three letters or fewer)."""
    words = phrase_.split()
    if not words or not words[-1].isalpha() or len(words[-1]) < 4 or singular_phrase(phrase_):
        return ""
    last = words[-1]
    if last.endswith("y") and last[-2] not in "aeiou":
        many = last[:-1] + "ies"
    elif last.endswith(("s", "x", "ch", "sh")):
        many = last + "es"
    else:
        many = last + "s"
    return f" {' '.join([*words[:-1], many])} "


def singular_phrase(phrase_: str) -> str:
    """A padded phrase whose last word is a plural noun, in the singular (" double basses " ->
    " double bass ", " horns " -> " horn "); "" when its last word is not such a plural."""
    words = phrase_.split()
    if not words or not words[-1].isalpha() or len(words[-1]) < 4:
        return ""
    last = words[-1]
    if last.endswith("ies"):
        one = last[:-3] + "y"
    elif last.endswith(("sses", "ches", "shes", "xes")):
        one = last[:-2]
    elif last.endswith("s") and not last.endswith(("ss", "us", "is")):
        one = last[:-1]
    else:
        return ""
    return f" {' '.join([*words[:-1], one])} "


_DAY_NAMES = {"monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2, "wed": 2, "thursday": 3,
              "thu": 3, "thur": 3, "thurs": 3, "friday": 4, "fri": 4, "saturday": 5, "sat": 5, "sunday": 6, "sun": 6}
_DAY_SETS = {"daily": range(7), "every day": range(7), "everyday": range(7), "all week": range(7),
             "7 days a week": range(7), "seven days a week": range(7), "weekdays": range(5), "weekday": range(5),
             "monday to friday": range(5), "weekends": (5, 6), "weekend": (5, 6), "at weekends": (5, 6)}
_ANY_DAY = re.compile(r"mon|tue|wed|thu|fri|sat|sun|daily|every ?day|week|7 days")
_DAY_FRAME = frozenset({"it", "is", "runs", "open", "on", "every", "each", "and", "only", "the", "a", "service",
                        "sailings", "days"})


@functools.lru_cache(maxsize=1 << 14)
def weekdays_of(text: str) -> frozenset[int] | None:
    """The days of the week a text names, when it names nothing else: "Mon-Fri", "Monday to Friday",
    "Sat, Sun", "weekends", "daily", "every day", "Sundays". None when a word is no day."""
    low = fold(text).replace("–", "-")
    if not _ANY_DAY.search(low):
        return None
    days: set[int] = set()
    for phrase, ds in sorted(_DAY_SETS.items(), key=lambda kv: -len(kv[0])):
        if re.search(rf"\b{phrase}\b", low):
            days.update(ds)
            low = re.sub(rf"\b{phrase}\b", " ", low)
    for m in re.finditer(r"\b([a-z]+?)s?\s*(?:-|to|through|until|till)\s*([a-z]+?)s?\b", low):
        a, b = _DAY_NAMES.get(m.group(1)), _DAY_NAMES.get(m.group(2))
        if a is not None and b is not None:
            days.update((a + i) % 7 for i in range(((b - a) % 7) + 1))
            low = low.replace(m.group(0), " ")
    for w in re.findall(r"[a-z0-9]+", low):
        d = _DAY_NAMES.get(w[:-1] if w.endswith("s") and w[:-1] in _DAY_NAMES else w)
        if d is not None:
            days.add(d)
        elif w not in _DAY_FRAME:
            return None
    return frozenset(days) if days else None


# ----------------------------------------------------------------------------- numbers

_GROUP_SPACE = " \u00a0\u202f\u2009"
_NOT_MORE = r"(?!\d|[.,'’]\d)"
#: a number as written; ``num`` is read by :func:`number_value`, ``scale`` multiplies it
NUMBER = re.compile(
    r"(?<![\w.])(?P<sign>[-\u2212]?)(?P<num>"
    r"[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?" + _NOT_MORE +                       # 1,234,567.89
    r"|[1-9]\d{0,2}(?:\.\d{3})+,\d+" + _NOT_MORE +                           # 141.300,00
    r"|[1-9]\d{0,2}(?:\.\d{3}){2,}" + _NOT_MORE +                            # 1.234.567
    r"|[1-9]\d{0,2}(?:['’]\d{3})+(?:[.,]\d+)?" + _NOT_MORE +                # 1'250.00
    rf"|[1-9]\d{{0,2}}(?:[{_GROUP_SPACE}]\d{{3}})+(?:[.,]\d+)?" + _NOT_MORE +  # 59 700, 6 066,78
    r"|(?<!,)(?:\d+,(?:\d{1,2}|\d{4,})|0,\d+)" + _NOT_MORE +                # 36,80  9,5  0,125
    r"|\d+(?:\.\d+)?|\.\d+)"
    r"(?:\s*(?P<scale>thousand|million|billion|trillion|percent|per\s+cent|bn|mn|tn|mio\.?|mrd\.?|k|m|b|%)"
    r"(?![a-z]))?",
    re.IGNORECASE,
)
SCALE_OF = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "mn": 1e6, "mio": 1e6, "billion": 1e9,
             "bn": 1e9, "b": 1e9, "mrd": 1e9, "trillion": 1e12, "tn": 1e12}
PERCENT = {"%", "percent", "per cent"}
_SCALE_WORD = {"k": "thousand", "mn": "million", "mio": "million", "bn": "billion", "mrd": "billion",
               "tn": "trillion", "%": "percent", "per cent": "percent"}


def number_digits(num: str) -> str:
    """A number as written ("141.300,00", "1'250.00", "6 066,78") as plain digits with a decimal
    point ("141300.00", "1250.00", "6066.78"); leading zeros are kept (codes such as 007)."""
    s = num
    for c in "'’" + _GROUP_SPACE:
        if c in s:
            s = s.replace(c, "")
    if "," in s and "." in s:
        s = s.replace(".", "").replace(",", ".") if s.rfind(",") > s.rfind(".") else s.replace(",", "")
    elif "," in s:
        head, _, tail = s.partition(",")
        if "," in tail or (len(tail) == 3 and head != "0"):
            s = s.replace(",", "")  # 1,234 and 1,234,567: thousands
        else:
            s = f"{head}.{tail}"  # 36,80: a decimal comma
    elif s.count(".") > 1:
        s = s.replace(".", "")  # 1.234.567
    return s


def number_value(num: str) -> float:
    return float(number_digits(num))


def scale_key(scale: str | None) -> str:
    if not scale:
        return ""
    return SPACES.sub(" ", scale.lower().rstrip("."))


_WORD_UNITS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
               "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
               "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
_WORD_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
              "ninety": 90}
_WORD_NUMBER = re.compile(
    r"\b(?:(?P<tens>" + "|".join(_WORD_TENS) + r")(?:[-\s](?P<unit>one|two|three|four|five|six|seven|eight|nine))?"
    r"|(?P<small>" + "|".join(sorted(_WORD_UNITS, key=len, reverse=True)) + r"))\b")
_ANY_NUMBER_WORD = re.compile(r"zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|teen|"
                              r"twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety")
#: "one" is a pronoun after these words or before "of" ("the one in Berlin", "one of them")
_ONE_PRONOUN_BEFORE = ("the", "this", "that", "which", "each", "any", "every", "no", "some", "another", "only one")


def _one_is_pronoun(low: str, start: int, end: int) -> bool:
    before = low[max(0, start - 10):start].split()
    after = low[end:end + 4]
    return (bool(before) and before[-1] in _ONE_PRONOUN_BEFORE) or after.startswith(
        (" of", "'s", "’s", "-", " another"))


def word_numbers(low: str) -> list[tuple[int, int, int]]:
    """Numbers written in words, zero to ninety-nine: (start, end, value)."""
    if not _ANY_NUMBER_WORD.search(low):
        return []
    out = []
    compounds = _compound_numbers(low) if _MULTIPLIER.search(low) else []
    for m in _WORD_NUMBER.finditer(low):
        if any(a <= m.start() < b for a, b, _ in compounds):
            continue  # a part of "three thousand one hundred and eighty" is no number of its own
        if m.group("tens"):
            value = _WORD_TENS[m.group("tens")] + (_WORD_UNITS[m.group("unit")] if m.group("unit") else 0)
        else:
            if m.group("small") == "one" and _one_is_pronoun(low, m.start(), m.end()):
                continue
            value = _WORD_UNITS[m.group("small")]
        out.append((m.start(), m.end(), value))
    return sorted(out + compounds)


_MULTIPLIER = re.compile(r"\b(?:hundred|thousand|million)\b")
_MULTIPLIERS = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_WORD_TOKEN = re.compile(r"[a-z]+")


def _compound_numbers(low: str) -> list[tuple[int, int, int]]:
    """Numbers of several words with a hundred, thousand or million in them ("three thousand one
    hundred and eighty", "twelve hundred", "a thousand"): (start, end, value)."""
    out: list[tuple[int, int, int]] = []
    run: list[re.Match[str]] = []

    def close() -> None:
        while run and run[-1].group() in ("and", "a"):
            run.pop()
        if run and any(m.group() in _MULTIPLIERS for m in run):
            total = current = 0
            for m in run:
                w = m.group()
                if w in _MULTIPLIERS:
                    if w == "hundred":
                        current = (current or 1) * 100
                    else:
                        total += (current or 1) * _MULTIPLIERS[w]
                        current = 0
                elif w in _WORD_TENS:
                    current += _WORD_TENS[w]
                elif w in _WORD_UNITS:
                    current += _WORD_UNITS[w]
            out.append((run[0].start(), run[-1].end(), total + current))
        run.clear()

    for m in _WORD_TOKEN.finditer(low):
        w = m.group()
        gap = low[run[-1].end():m.start()] if run else ""
        if run and gap.strip(" -"):
            close()
        if w in _WORD_UNITS or w in _WORD_TENS or w in _MULTIPLIERS or (w == "and" and run) \
                or (w == "a" and _MULTIPLIER.match(low, m.end() + 1)):
            run.append(m)
        else:
            close()
    close()
    return out


def extract_numbers(text: str, skip: tuple[tuple[int, int], ...] | list[tuple[int, int]] = ()) -> set[float]:
    """Numbers mentioned in ``text``; "1.5 billion" gives both 1.5 and 1.5e9, "15%" both 15 and 0.15,
    "four" 4."""
    low = nfkc_casefold(text)
    out: set[float] = set()
    for m in NUMBER.finditer(low):
        if any(s <= m.start() < e for s, e in skip):
            continue
        value = number_value(m.group("num"))
        if m.group("sign"):
            value = -value
        out.add(value)
        scale = scale_key(m.group("scale"))
        if scale in PERCENT:
            out.add(value / 100)
        elif scale:
            out.add(value * SCALE_OF[scale])
    for s, _, value in word_numbers(low):
        if not any(a <= s < b for a, b in skip):
            out.add(float(value))
    if _DURATION_HINT.search(low):
        out |= _durations(low)
    return out


_DURATION_HINT = re.compile(r"\d\s*h")
#: a duration in hours and minutes: "1 hr 25 min", "1h35", "2 hours 5 minutes", "1 h"
_DURATION = re.compile(r"(?<![\w.,])(\d{1,3})\s*(?:hours?|hrs?|h)\.?(?:\s*(?:and\s+)?(\d{1,2})\s*"
                       r"(?:minutes?|mins?|m)?\.?)?(?![\w])")


def _durations(low: str) -> set[float]:
    """The values a duration in hours (and minutes) states: its minutes and its hours ("1 hr 25 min"
    is 85 minutes and 1.4167 hours; "2 h" is 120 minutes), besides the numbers written."""
    out: set[float] = set()
    for m in _DURATION.finditer(low):
        hours, minutes = int(m.group(1)), int(m.group(2) or 0)
        if minutes < 60:
            out.add(float(hours * 60 + minutes))
            out.add(hours + minutes / 60)
    return out


def abbreviated_amounts(text: str) -> frozenset[tuple[float, float]]:
    """The amounts written with a scale ("12.5k", "1,2 Mio.", "3.4 billion") as the interval of
    values they state at the precision written, when at least two significant digits are written
    (see the module's rules)."""
    return _abbreviated(nfkc_casefold(text))


@functools.lru_cache(maxsize=1 << 16)
def _abbreviated(low: str) -> frozenset[tuple[float, float]]:
    out = set()
    if not _DIGIT.search(low):
        return frozenset()
    for m in NUMBER.finditer(low):
        scale = scale_key(m.group("scale"))
        if not scale or scale in PERCENT:
            continue
        digits = number_digits(m.group("num"))
        significant = len(digits.replace(".", "").lstrip("0"))
        if significant < 2:
            continue
        decimals = len(digits.partition(".")[2])
        value = float(digits) * SCALE_OF[scale] * (-1 if m.group("sign") else 1)
        half = 0.5 * 10 ** -decimals * SCALE_OF[scale]
        out.add((value - half, value + half))
    return frozenset(out)


def _canonical_number(m: re.Match) -> str:
    scale = scale_key(m.group("scale"))
    word = _SCALE_WORD.get(scale, scale)
    return f"{m.group('sign')}{number_digits(m.group('num'))}" + (f" {word} " if word else "")


# ----------------------------------------------------------------------------- tokens

_TOKEN = re.compile(r"[^\W_]+(?:\.\d+)?")
#: abbreviations a sentence does not end after ("Dr. Helena Quantum" is one name)
_ABBREV = {"dr", "mr", "mrs", "ms", "prof", "st", "jr", "sr", "co", "inc", "ltd", "corp", "vs", "no", "mt",
           "e.g", "i.e", "etc", "u.s", "u.k", "dept", "approx", "jan", "feb", "mar", "apr", "jun", "jul", "aug",
           "sep", "sept", "oct", "nov", "dec", "str", "avda", "ave", "av", "blvd", "rd", "pl", "sq", "tel", "ext",
           "nr", "p.o", "a.m", "d.f", "sta", "pkg", "pkgs", "c/o",
           # a work's number and a book's parts ("Op. 85", "Vol. 2"), titles and ranks, "cf.", "ca."
           "op", "opp", "vol", "vols", "nos", "fig", "pp", "ed", "eds", "rev", "hon", "capt", "lt", "col", "sgt",
           "cf", "ca", "incl", "ref"}
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+|\n+")
#: the separator between sentences in a normalised passage: no phrase can span it
SEP = "§"
#: a unit after a number, in one spelling (12-ounce = 12 oz)
_UNIT_OF = {"ounce": "oz", "ounces": "oz", "pound": "lb", "pounds": "lb", "lbs": "lb", "gram": "g", "grams": "g",
            "gramme": "g", "grammes": "g", "gr": "g", "kilogram": "kg", "kilograms": "kg", "kilogramme": "kg",
            "kilo": "kg", "kilos": "kg", "kgs": "kg", "millilitre": "ml", "millilitres": "ml", "milliliter": "ml",
            "milliliters": "ml", "litre": "l", "litres": "l", "liter": "l", "liters": "l", "centilitre": "cl",
            "centilitres": "cl", "centiliter": "cl", "centiliters": "cl", "kilometre": "km", "kilometres": "km",
            "kilometer": "km", "kilometers": "km", "centimetre": "cm", "centimetres": "cm", "centimeter": "cm",
            "centimeters": "cm", "inch": "in", "inches": "in"}


def _number(token: str) -> str:
    # 19.0 and 19, 433.50 and 433.5 are one number; leading zeros are kept (codes such as 007)
    if "." in token and token.replace(".", "", 1).isdigit():
        token = token.rstrip("0").rstrip(".")
    return token


_CAPITAL_M = re.compile(r"(?<=\d)\s?M(?![\w.])")


def _prepare(text: str) -> str:
    """Folded text with numbers and dates in their canonical form (still with its punctuation)."""
    if "M" in text:
        text = _CAPITAL_M.sub(" million", text)  # 1.2M; a lower-case m may be metres
    text = fold(text).replace("&", " and ")
    if "@" in text or "www." in text or "://" in text:
        # a web address, or an e-mail address's domain, is one token: its ".uk" states no country
        # ("trade.orders@wexcombepress.ac.uk" says nothing of the UK); the mailbox keeps its words,
        # which often name a person ("anna.kowal@...")
        text = _ADDRESS.sub(_address_tokens, text)
    if _DIGIT.search(text):
        # every date form has a digit ("spring of 2023" too): text without one is left alone
        text = _replace_dates(text)
        if ":" in text or "m" in text or "h" in text:
            text = _CLOCK_IN_TEXT.sub(_canonical_time, text)
            if "ztime" in text:
                # a range of times also states how long it lasts ("09:30–13:30" is 240 minutes: a
                # session's length), written after it as `` zminsN ``
                text = _TIME_RANGE.sub(_with_duration, text)
        # a number with a unit run on ("20cr", "15kg"): the number and the unit, as "20 cr"
        text = _RUN_ON_UNIT.sub(r"\1 \2", text)
        text = NUMBER.sub(_canonical_number, text)
    return text


#: a time of day written so that it can be nothing else: with a colon ("19:30", "7:30:00"), with
#: am/pm ("7.30pm", "3 p.m."), or with an h between hours and minutes ("19h30"); "19.30" alone
#: may be a price and stays a number
_CLOCK_IN_TEXT = re.compile(
    r"(?<![\d.:/])(?:([01]?\d|2[0-3])[:.]([0-5]\d)(?::[0-5]\d)?\s*([ap])\.?m\b\.?"
    r"|(1[0-2]|0?[1-9])\s*([ap])\.?m\b\.?"
    r"|([01]?\d|2[0-3])(?::([0-5]\d)(?::[0-5]\d)?|h([0-5]\d)))(?![\d.:]?\d)")


#: digits with letters run on after them that are no ordinal, no amount's scale and no code
_RUN_ON_UNIT = re.compile(r"(?<![\w.,])(\d+(?:\.\d+)?)(?!st\b|nd\b|rd\b|th\b|k\b|m\b|bn\b|x\d)([a-z]{2,4})\b")


_TIME_RANGE = re.compile(r"ztime(\d\d)(\d\d)\s*(?:-|–|—|to|until|till)\s*ztime(\d\d)(\d\d)")


def _with_duration(m: re.Match[str]) -> str:
    minutes = int(m.group(3)) * 60 + int(m.group(4)) - int(m.group(1)) * 60 - int(m.group(2))
    return f"{m.group()} zmins{minutes} " if 0 < minutes < 24 * 60 else m.group()


def _canonical_time(m: re.Match[str]) -> str:
    """`` ztimeHHMM `` for a time of day (both the passages and the values are written so: "7.30pm"
    states 19:30)."""
    if m.group(1) is not None:
        h, mi, half = int(m.group(1)), int(m.group(2)), m.group(3)
    elif m.group(4) is not None:
        h, mi, half = int(m.group(4)), 0, m.group(5)
    else:
        h, mi, half = int(m.group(6)), int(m.group(7) or m.group(8)), ""
    if half and h > 12:
        return m.group()  # 13.30pm is no time
    if half == "p" and h < 12:
        h += 12
    elif half == "a" and h == 12:
        h = 0
    return f" ztime{h:02d}{mi:02d} "


_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:https?://|www\.)[^\s<>()\[\]]+[\w/]")


def _address_tokens(m: re.Match[str]) -> str:
    address = m.group()
    mailbox, at, domain = address.partition("@")
    if not at:
        return " " + re.sub(r"[^0-9a-z]", "", address) + " "
    return " " + re.sub(r"[._+-]+", " ", mailbox) + " " + re.sub(r"[^0-9a-z]", "", domain) + " "


def _tokens(prepared: str) -> list[str]:
    toks = [_number(t) if "." in t else t for t in _TOKEN.findall(prepared)]
    if _SPECIAL_TOKENS.isdisjoint(toks):
        # no number word and no unit: the loop below would copy every token as it is (most
        # responses; the loop was most of the time of this function)
        return toks
    out: list[str] = []
    n = len(toks)
    i = 0
    while i < n:
        t = toks[i]
        if t in _WORD_TENS:
            value = _WORD_TENS[t]
            if i + 1 < n and toks[i + 1] in _WORD_UNITS and 0 < _WORD_UNITS[toks[i + 1]] < 10:
                value += _WORD_UNITS[toks[i + 1]]
                i += 1
            t = str(value)
        elif t in _WORD_UNITS and t != "one":  # "one" is a pronoun too often to be the number 1
            t = str(_WORD_UNITS[t])
        elif t in _UNIT_OF and out and out[-1][:1].isdigit():
            t = _UNIT_OF[t]
        out.append(t)
        i += 1
    return out


#: every token the loop of :func:`_tokens` may rewrite (number words, units)
_SPECIAL_TOKENS = frozenset(_WORD_TENS) | frozenset(_WORD_UNITS) | frozenset(_UNIT_OF)


def tokens(text: str) -> list[str]:
    """The normalised tokens of a piece of text (one sentence or one value)."""
    return _tokens(_prepare(text))


@functools.lru_cache(maxsize=1 << 16)
def padded_tokens(text: str) -> str:
    """`` tok tok `` of a whole text (no sentence separators): what a value phrase is looked for in."""
    return f" {' '.join(tokens(text))} "


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
            if last in _ABBREV or (len(last) == 1 and last.isalpha()) or last.endswith("str"):
                continue  # "Dr. Ann", "Forsterstr. 57" (a German street)
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
    if "-" in text:
        # a code written in hyphenated groups ("ISBN 978-1-1336-9401-4") is also read as the one
        # number it is, as a database holds it (9781133694014); the groups stay for a value held
        # with them ("0161 496 0000")
        text = _GROUPED_CODE.sub(lambda m: f"{m.group()} {m.group().replace('-', '')}"
                                 if len(m.group().replace("-", "")) >= 9 else m.group(), text)
    parts = [" ".join(_tokens(text[a:b])) for a, b in sentences(text)]
    return " " + f" {SEP} ".join(p for p in parts if p) + " "


#: digits in three or more groups joined by hyphens (an ISBN, a phone number)
_GROUPED_CODE = re.compile(r"(?<![\w-])\d{1,7}(?:-\d{1,7}){2,}(?![\w-])")


def phrase(text: str) -> str:
    """A value as the padded token string searched for in passages ("" when it has no token)."""
    toks = tokens(text)
    return f" {' '.join(toks)} " if toks else ""


# ----------------------------------------------------------------------------- synonyms

#: things with several names: each row is one thing. A two-letter code written in capitals here
#: ("US", "DE") is also a word in some language ("us", "de"): it states the thing only when written
#: in capitals, which the linker's folded tokens cannot tell (it does not use them); the judge
#: looks for it among the response's capitals. Rows are a table, not a guess: add to them.
SYNONYM_TABLE: list[tuple[str, ...]] = [
    # countries: English name, native names, codes
    ("USA", "U.S.", "U.S.A.", "United States", "United States of America", "America", "US"),
    ("UK", "U.K.", "United Kingdom", "Great Britain", "Britain", "GB"),
    ("UAE", "United Arab Emirates", "AE"),
    ("Germany", "Deutschland", "Federal Republic of Germany", "DE"),
    ("France", "République française", "FR"),
    ("Spain", "España", "ES"),
    ("Mexico", "México", "Estados Unidos Mexicanos", "MX"),
    ("Brazil", "Brasil", "BR"),
    ("Switzerland", "Schweiz", "Suisse", "Svizzera", "Confoederatio Helvetica", "CH"),
    ("Austria", "Österreich", "AT"),
    ("Italy", "Italia", "IT"),
    ("Netherlands", "The Netherlands", "Holland", "Nederland", "NL"),
    ("Belgium", "Belgique", "België", "Belgien", "BE"),
    ("Sweden", "Sverige", "SE"),
    ("Norway", "Norge", "Noreg", "NO"),
    ("Denmark", "Danmark", "DK"),
    ("Finland", "Suomi", "FI"),
    ("Poland", "Polska", "PL"),
    ("Portugal", "PT"),
    ("Ireland", "Republic of Ireland", "Éire", "IE"),
    ("Argentina", "AR"),
    ("Venezuela", "VE"),
    ("Canada", "CA"),
    ("Japan", "Nippon", "Nihon", "JP"),
    ("China", "People's Republic of China", "PRC", "Zhongguo", "CN"),
    ("Greece", "Hellas", "Ellada", "GR"),
    ("Czech Republic", "Czechia", "Česko", "CZ"),
    ("Hungary", "Magyarország", "HU"),
    ("Russia", "Russian Federation", "Rossiya", "RU"),
    ("South Korea", "Republic of Korea", "KR"),
    ("India", "Bharat", "IN"),
    ("Australia", "AU"),
    ("New Zealand", "Aotearoa", "NZ"),
    ("Singapore", "SG"),
    ("Turkey", "Türkiye", "TR"),
    ("Iceland", "Ísland", "IS"),
    ("South Africa", "RSA", "ZA"),
    ("Peru", "Perú", "PE"),
    ("Chile", "CL"),
    ("Colombia", "CO"),
    # regions
    ("North America", "N. America", "NA"),
    ("South America", "S. America"),
    ("Latin America", "LATAM", "LatAm"),
    ("Europe, the Middle East and Africa", "EMEA"),
    ("Asia Pacific", "Asia-Pacific", "APAC"),
    ("European Union", "EU"),
    # cities: English and native names
    ("NYC", "New York City"),
    ("Los Angeles", "LA"),
    ("San Francisco", "SF"),
    ("Washington, D.C.", "Washington DC"),
    ("Munich", "München", "Muenchen"),
    ("Cologne", "Köln", "Koeln"),
    ("Vienna", "Wien"),
    ("Lisbon", "Lisboa"),
    ("Rome", "Roma"),
    ("Milan", "Milano"),
    ("Turin", "Torino"),
    ("Naples", "Napoli"),
    ("Florence", "Firenze"),
    ("Venice", "Venezia"),
    ("Geneva", "Genève", "Genf"),
    ("Brussels", "Bruxelles", "Brussel"),
    ("Copenhagen", "København", "Kobenhavn"),
    ("Gothenburg", "Göteborg"),
    ("Aarhus", "Århus"),
    ("Warsaw", "Warszawa"),
    ("Prague", "Praha"),
    ("Seville", "Sevilla"),
    ("Mexico City", "México D.F.", "Ciudad de México", "CDMX"),
    ("The Hague", "Den Haag"),
    ("Moscow", "Moskva"),
    ("Athens", "Athina"),
    ("Frankfurt am Main", "Frankfurt a.M.", "Frankfurt"),
    # job titles and departments
    ("CEO", "Chief Executive Officer", "Chief Executive"),
    ("COO", "Chief Operating Officer"),
    ("CTO", "Chief Technical Officer", "Chief Technology Officer"),
    ("CFO", "Chief Financial Officer"),
    ("CIO", "Chief Information Officer"),
    ("VP", "Vice President", "Vice-President"),
    ("HR", "Human Resources"),
    ("R&D", "Research and Development"),
    # book formats as catalogues and rights lists abbreviate them
    ("Hardback", "Hardcover", "HB", "HBK"),
    ("Paperback", "Softcover", "Softback", "PB", "PBK"),
]
#: words that name a thing loosely (an adjective): the linker uses them, the judge does not
LOOSE_SYNONYMS: dict[str, tuple[str, ...]] = {
    "USA": ("American",), "UK": ("British",), "UAE": ("Emirati",),
}
#: a name that is the tail of other names: not a match after these words ("South America")
_NOT_AFTER = {"america": {"north", "south", "central", "latin", "of"}, "britain": {"new"}}


#: two-letter codes that are also words ("us", "de", "it", "la"): they count only in capitals
_WORD_CODES = {"us", "de", "it", "in", "at", "be", "no", "is", "es", "la", "ca", "co", "me", "na", "se", "ie", "ar",
               "pe", "eu", "fi", "pl", "nl", "cn", "ve", "tr", "ch", "dk", "gr", "hu", "ru", "kr", "au", "sg", "za",
               "cl", "mx", "br", "fr", "jp", "cz", "pt", "ae", "nz"}


def _is_cased(member: str) -> bool:
    return len(member) == 2 and member.isupper() and member.isalpha() and member.lower() in _WORD_CODES


def _build_synonyms() -> tuple[list[tuple[str, ...]], dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    classes: list[tuple[str, ...]] = []
    lookup: dict[str, tuple[str, ...]] = {}  # every member, codes too → the class's uncased phrases
    codes: dict[str, tuple[str, ...]] = {}  # class key → its capital codes
    for row in SYNONYM_TABLE:
        plain = tuple(dict.fromkeys(" ".join(tokens(m)) for m in row if not _is_cased(m)))
        loose = tuple(" ".join(tokens(m)) for m in LOOSE_SYNONYMS.get(row[0], ()))
        cls = plain + tuple(x for x in loose if x not in plain)
        classes.append(cls)
        cased = tuple(m for m in row if _is_cased(m))
        for m in row:
            lookup.setdefault(" ".join(tokens(m)), cls)
        for m in cls:
            lookup.setdefault(m, cls)
        codes[cls[0]] = cased
    return classes, lookup, codes


#: equivalence classes of phrases documents use for the same thing (already normalised)
SYNONYMS, _SYN_OF, _CODES = _build_synonyms()
_LOOSE = {" ".join(tokens(x)) for xs in LOOSE_SYNONYMS.values() for x in xs}
#: courtesy titles written before a name ("Dr A. Patel", "Ms R. Hughes")
HONORIFICS = frozenset({"dr", "mr", "mrs", "ms", "miss", "prof", "sir", "dame", "mx"})
_SCALES = [(10**12, "trillion"), (10**9, "billion"), (10**6, "million"), (10**3, "thousand")]

#: one way a value can be stated: every phrase of ``all_of`` in the same sentence (or passage),
#: and how sure a match is
Variant = tuple[tuple[str, ...], float]


def _synonym_variants(toks: list[str], *, loose: bool = True) -> list[list[str]]:
    """``toks`` with each synonym-class phrase in it (longest first, not overlapping) replaced by
    each other member of its class, one phrase at a time, so the number of variants stays small."""
    out: list[list[str]] = []
    i, n = 0, len(toks)
    while i < n:
        for size in (6, 5, 4, 3, 2, 1):
            cls = _SYN_OF.get(" ".join(toks[i:i + size])) if i + size <= n else None
            if cls is not None:
                key = " ".join(toks[i:i + size])
                out.extend(toks[:i] + other.split() + toks[i + size:] for other in cls
                           if other != key and (loose or other not in _LOOSE))
                i += size
                break
        else:
            i += 1
    return out


_NAME_WORD = re.compile(r"^[A-Z][^\W\d_]*(?:[-'’][^\W\d_]+)*\.?$")


#: lower-case particles that begin a surname ("Pieter de Vries", "Ludwig van Beethoven")
NAME_PARTICLES = frozenset({"de", "van", "von", "der", "den", "da", "di", "du", "le", "la", "del", "della", "dos",
                            "das", "do", "ter", "ten", "zu", "af", "bin", "ibn", "al", "el", "y"})


def _person_like(value: str, *, particles: bool = False) -> list[str] | None:
    """The words of a value that reads as a person's name ("Nancy Davolio", "Dr. Ann Lee"), honorific
    aside, or None. ``particles``: a surname may begin with a lower-case particle ("Pieter de Vries")."""
    words = value.replace(",", " ").split()
    if words and fold(words[0]).rstrip(".") in HONORIFICS:
        words = words[1:]
    if not 2 <= len(words) <= (4 if particles else 3):
        return None
    if not all(_NAME_WORD.match(w) or (particles and 0 < i < len(words) - 1 and w in NAME_PARTICLES)
               for i, w in enumerate(words)):
        return None
    return words


def person_words(value: str) -> list[str] | None:
    """The words of a value that reads as a person's name, honorific aside ("Samuel Coleridge-Taylor"
    → Samuel, Coleridge-Taylor), or None."""
    return _person_like(value, particles=True)


def person_name_parts(value: str) -> tuple[list[str], list[str]] | None:
    """(given-name tokens, surname tokens) of a value that reads as a person's name: the surname is
    the last word, or everything from a particle on ("Pieter de Vries" → de vries)."""
    words = _person_like(value, particles=True)
    if not words:
        return None
    at = next((i for i, w in enumerate(words) if 0 < i and w in NAME_PARTICLES), len(words) - 1)
    # a given name is one token a word; a surname may be several ("Coleridge-Taylor", "de Vries")
    given, surname = tokens(" ".join(words[:at])), tokens(" ".join(words[at:]))
    if len(given) != at or not surname:
        return None
    return given, surname


#: a vessel's prefix before its name
_NAME_PREFIXES = frozenset({"mv", "ms", "ss", "hms", "rms", "rv", "my", "fv", "mts", "mt"})
#: legal forms after a company's name (as tokens)
_LEGAL_FORMS = frozenset({"ltd", "limited", "inc", "incorporated", "llc", "gmbh", "ag", "ab", "plc", "co", "corp",
                          "corporation", "srl", "spa", "kg", "kf", "oy", "oyj", "bv", "nv", "sarl", "sas", "pty",
                          "lp", "llp", "asa"})


def core_name(toks: list[str]) -> list[str] | None:
    """A name's tokens without a ship's prefix or a company's legal form, which running text usually
    drops ("MV Isle of Rona" is "the Isle of Rona"; "Pavlova, Ltd." is "Pavlova"); None when nothing
    is dropped or too little is left (one word of three letters or fewer)."""
    core = list(toks)
    if len(core) > 2 and core[0] in _NAME_PREFIXES:
        core = core[1:]
    while len(core) > 1 and core[-1] in _LEGAL_FORMS:
        core = core[:-1]
    # a dotted form, letter by letter ("s.r.l.", "S.A.", "A/S")
    for n in (3, 2):
        if len(core) > n and all(len(t) == 1 for t in core[-n:]) and "".join(core[-n:]) in _LEGAL_FORMS | {"sa", "as"}:
            core = core[:-n]
            break
    if core != toks and core and (len(core) > 1 or len(core[0]) > 3):
        return core
    return None


#: the kind of place a name may end with, which people drop ("Wendlebury General" for the hospital)
PLACE_KINDS = frozenset({"hospital", "centre", "center", "clinic", "surgery", "infirmary", "practice", "library",
                         "school", "college", "academy", "hall", "museum", "gallery", "theatre", "station"})


def practitioner_phrases(toks: Sequence[str]) -> list[str]:
    """A field of practice as its practitioner is called ("Cardiology" -> "cardiologist", "Colorectal
    Surgery" -> "colorectal surgeon", "Diabetes and Endocrinology" -> "endocrinologist"): how
    profiles write a specialty ("a consultant cardiologist")."""
    if not toks:
        return []
    last = toks[-1]
    if last.endswith("ology") and len(last) > 6:
        agent = last[:-1] + "ist"
    elif last == "surgery" and len(toks) > 1:
        agent = "surgeon"  # ("Surgery" alone, a division, is no one surgeon's field)
    else:
        return []
    out = [" ".join([*toks[:-1], agent])]
    if len(toks) > 1 and agent != "surgeon":
        out.append(agent)
    return out


def text_variants(value: str, *, weight: float = 1.0) -> list[Variant]:
    """Ways a text value is written: as it is, with a synonym ("USA" / "United States"), without a
    parenthesis ("Chief Executive Officer (CEO)" → both halves), without an honorific, a person's
    name surname first ("Davolio, Nancy"), and as its comma-separated parts in one sentence
    ("Silicon Valley, USA" when the text says "Silicon Valley, Palo Alto, USA")."""
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
    if toks[0] in HONORIFICS and len(toks) > 2:
        add((f" {' '.join(toks[1:])} ",), weight * 0.95)
    core = core_name(toks)
    if core:
        add((f" {' '.join(core)} ",), weight * 0.95)
    person = _person_like(value) if "," not in value else None
    if person:
        ptoks = tokens(" ".join(person))
        # the surname is the last word, hyphens and all ("Coleridge-Taylor, Samuel")
        last = tokens(person[-1]) or ptoks[-1:]
        given = ptoks[:len(ptoks) - len(last)] if len(last) < len(ptoks) else ptoks[:-1]
        surname = " ".join(last if len(last) < len(ptoks) else ptoks[-1:])
        add((f" {surname} {' '.join(given)} ",), weight * 0.95)
        if given and len(given[0]) > 1 and given[0].isalpha():
            # "N. Davolio", "Davolio, N.": the initial must agree with the given name
            add((f" {given[0][0]} {surname} ",), weight * 0.9)
            add((f" {surname} {given[0][0]} ",), weight * 0.9)
    if "," in value:
        parts = [p for p in (phrase(x) for x in value.split(",")) if p]
        if len(parts) > 1:
            add(tuple(parts), weight * 0.9)
            # every part with its synonyms ("Dubai, UAE" in a text saying "Dubai, United Arab Emirates")
            alts = [[p] + [f" {' '.join(a)} " for a in _synonym_variants(p.split())] for p in parts]
            if any(len(a) > 1 for a in alts):
                for combo in itertools.islice(itertools.product(*alts), 16):
                    add(tuple(combo), weight * 0.9)
    return out


def number_variants(value: float | int | Decimal) -> list[Variant]:
    """A number as written: 433.5, 1,234 (→ 1234), 2.5 million for 2500000, 12.5 thousand for
    12480 (the precision people write), 15 percent for 0.15."""
    if isinstance(value, bool):
        return []
    f = float(value)
    text = _number(format(Decimal(str(value)).normalize(), "f")) if not isinstance(value, int) else str(value)
    out: list[Variant] = [((f" {text} ",), 1.0)]
    for scale, word in _SCALES:
        if abs(f) >= scale:
            scaled = _number(f"{f / scale:.3f}")
            out.append(((f" {scaled} {word} ",), 0.9))
            rounded = _number(f"{f / scale:.1f}")
            if rounded != scaled and len(rounded.replace(".", "").lstrip("-0")) >= 2:
                out.append(((f" {rounded} {word} ",), 0.8))
            break
    if 0 <= abs(f) <= 1 and not isinstance(value, int):
        out.append(((f" {_number(f'{f * 100:.6f}')} percent ",), 0.9))
    return out


#: weight of a statement at a lower precision than the value (its month for a day, its season or
#: quarter): below the linker's threshold (0.5), so an approximate statement is never taken for the
#: fact. The rule: "started in June 2009" does not state 2009-06-15 — a reader could not answer
#: the date from it, so the question is a knowledge-base gap, not a retrieval or reader fault.
APPROXIMATE_WEIGHT = 0.45


def date_variants(day: date) -> list[Variant]:
    """A date as a day (sure), and as its month, season or quarter ("completion by the end of June
    2024", "in the spring of 2023"): approximate (:data:`APPROXIMATE_WEIGHT`)."""
    out: list[Variant] = [((f" zdate{day.year:04d}{day.month:02d}{day.day:02d} ",), 1.0),
                          ((f" zmonth{day.year:04d}{day.month:02d} ",), APPROXIMATE_WEIGHT)]
    for name, months in _SEASONS.items():
        if name != "fall" and day.month in months:
            out.append(((f" zseason{day.year}{name} ",), APPROXIMATE_WEIGHT * 0.75))
    for name, months in _QUARTERS.items():
        if day.month in months:
            out.append(((f" zquarter{day.year}{name} ",), APPROXIMATE_WEIGHT * 0.75))
    return out


# ----------------------------------------------------------------------------- booleans

#: a state a yes/no column names, and the words for its opposite
STATE_WORDS: dict[str, tuple[str, ...]] = {
    "discontinued": ("available", "active", "current", "in production", "still sold", "on sale"),
    "active": ("inactive", "retired", "disabled", "discontinued"),
    "enabled": ("disabled",),
    "available": ("unavailable", "discontinued", "out of stock", "sold out"),
    "open": ("closed",),
    "closed": ("open",),
    "paid": ("unpaid", "outstanding"),
    "approved": ("rejected", "denied"),
    "verified": ("unverified",),
    "deleted": ("kept",),
    "shipped": ("unshipped",),
    "seasonal": ("all year", "all year round", "year round", "all the year"),
}
#: words that state a yes/no column's own state besides its name: a season states "seasonal"
#: ("summer only", "winter"), unless negated
STATE_ALSO: dict[str, tuple[str, ...]] = {
    "seasonal": ("spring", "summer", "autumn", "fall", "winter", "season"),
}
_YES = {"yes", "true"}
_NO = {"no", "false"}
_NEGATIONS = {"not", "never", "t", "non", "no"}  # "isn't" is the tokens "isn t"


def _state_of(column_or_query: str) -> str | None:
    words = tokens(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", column_or_query))
    for w in words:
        if w in STATE_WORDS:
            return w
    return None


def boolean_of(response: str, query: str = "") -> bool | None:
    """The truth value a response states: yes/true, no/false (first or last word), or the state
    the query asks about ("Is Chai discontinued?"): "discontinued" → True, "not discontinued" or
    "available" → False. None when it states none or both."""
    toks = tokens(response)
    if not toks:
        return None
    votes: set[bool] = set()
    if len(toks) == 1 and response.strip().rstrip(".").upper() in ("Y", "N"):
        return YES_NO_MARKS[toks[0]] == "yes"  # a table's one-letter answer, and nothing else
    for i in (0, len(toks) - 1):
        if toks[i] in _YES:
            votes.add(True)
        elif toks[i] in _NO and len(toks) <= 3 or toks[i] == "false":
            votes.add(False)
    state = _state_of(query) if query else None
    if state is not None:
        padded = f" {' '.join(toks)} "
        for i, t in enumerate(toks):
            if t == state:
                negated = i > 0 and toks[i - 1] in _NEGATIONS or (i > 1 and toks[i - 2:i] == ["no", "longer"])
                votes.add(not negated)
        for opposite in STATE_WORDS[state]:
            at = padded.find(f" {opposite} ")
            if at >= 0:
                before = padded[:at].split()
                negated = bool(before) and before[-1] in _NEGATIONS
                votes.add(negated)
        if not any(f" {o} " in padded for o in STATE_WORDS[state]):
            for also in STATE_ALSO.get(state, ()):
                at = padded.find(f" {also} ")
                if at >= 0:
                    before = padded[:at].split()
                    votes.add(not (bool(before) and before[-1] in _NEGATIONS))
    if not votes and state is None and query and len(toks) <= 4:
        said = _state_by_query(toks, query)
        if said is not None:
            votes.add(said)
    return votes.pop() if len(votes) == 1 else None


_NEG_PREFIXES = ("non", "un", "in", "dis", "im", "ir")


def _same_word(a: str, b: str) -> bool:
    """One word in two forms ("attended", "attend"): equal, or sharing their first five letters."""
    return a == b or (len(a) >= 5 and len(b) >= 5 and a[:5] == b[:5])


def _state_by_query(toks: list[str], query: str) -> bool | None:
    """A yes/no column answered with the question's own word ("Attended", "Did not attend", "Consent
    given", "Unpaid" when asked whether it is paid): True, or False where negated (not, no, never,
    n't, or an un-, non-, in-, dis- prefix). None when the response says a word the question does not."""
    qwords = [w for w in _query_words(query) if len(w) > 3 and w not in _FRAME]
    negated, matched = False, False
    for t in toks:
        if t in _NEGATIONS:
            negated = not negated
            continue
        if t in _FRAME or t in ("did", "does", "do", "has", "have", "had", "longer"):
            continue
        if any(_same_word(t, q) for q in qwords):
            matched = True
            continue
        if any(t.startswith(p) and any(_same_word(t[len(p):], q) for q in qwords) for p in _NEG_PREFIXES):
            matched, negated = True, not negated
            continue
        return None
    return (not negated) if matched else None


#: yes/no as a table writes it in one character
YES_NO_MARKS = {"y": "yes", "n": "no", "✓": "yes", "✔": "yes", "✗": "no", "✘": "no", "j": "yes"}
#: words of a column's name that say nothing of what it holds ("id", "date", "code")
COLUMN_FILLER_WORDS = frozenset({"id", "the", "of", "in", "usd", "eur", "date", "no", "code", "key", "name", "value",
                                 "s"})


def flag_value(value: Any) -> int | None:
    """0 or 1 for a flag's value (an integer, a float, a bool or the text '0' / '1'), else None."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int | float) and value in (0, 1):
        return int(value)
    if isinstance(value, str) and value.strip() in ("0", "1"):
        return int(value.strip())
    return None


def flag_variants(column: str, value: bool) -> list[Variant]:
    """How a document states a yes/no column: "Discontinued: yes", "discontinued", "not discontinued",
    and for a column with a state word, its opposites ("available", "all year": :data:`STATE_WORDS`)."""
    from ragdx.gen.naming import readable_name  # a leaf of ragdx.gen; imported where used

    words = phrase(readable_name(column)).strip()
    if not words:
        return []
    # under a header that keeps one word of the column's name ("DBS  Y" for dbs_checked)
    single = [w for w in words.split() if len(w) > 2 and w not in COLUMN_FILLER_WORDS] if " " in words else []
    if value:
        return [((f" {words} yes ",), 1.0), ((f" {words} true ",), 1.0), ((f" {words} ",), 0.9),
                *(((f" {w} yes ",), 0.9) for w in single)]
    # the state's own opposite: "available" is not discontinued, "all year" not seasonal (its first,
    # and those of several words: "active", "current" say too little on their own)
    state = _state_of(column)
    opposites = [((f" {' '.join(tokens(o))} ",), 0.9) for i, o in enumerate(STATE_WORDS[state])
                 if i == 0 or " " in o] if state else []
    return [((f" {words} no ",), 1.0), ((f" {words} false ",), 1.0), ((f" not {words} ",), 0.9),
            ((f" no longer {words} ",), 0.9), *(((f" {w} no ",), 0.9) for w in single), *opposites]


# ----------------------------------------------------------------------------- value variants

_ISO_DATE = re.compile(r"^\s*(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?)?\s*$")


def value_variants(value: Any, *, column: str | None = None) -> list[Variant]:
    """Every way ``value`` (a database value, or its JSON form) may be stated in a document. With
    the ``column`` it comes from, a yes/no value is also its state word ("discontinued", or
    "available" for not discontinued: :data:`STATE_WORDS`)."""
    if value is None:
        return []
    if isinstance(value, bool):
        state = _state_of(column) if column else None
        if state is None:
            return []
        if value:
            return [((f" {state} ",), 0.8)]
        out: list[Variant] = [((f" not {state} ",), 0.8)]
        return out + [((f" {' '.join(tokens(o))} ",), 0.6) for o in STATE_WORDS[state]]
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
    if re.fullmatch(r"-?\d+(?:\.\d+)?", stripped) and not re.match(r"-?0\d", stripped):
        # a leading zero is a code ("05021"), kept as written
        try:
            return number_variants(Decimal(stripped) if "." in stripped else int(stripped))
        except (ArithmeticError, ValueError):
            pass
    day = _DAY_NAMES.get(stripped.casefold())
    if day is not None and len(stripped) > 4:
        # a weekday is written short in timetables and notes ("Tue", "Tues", "Thurs"); "sat" and
        # "sun" are words too, read only where the full name's other forms are (weight below 1)
        shorts = sorted({k for k, v in _DAY_NAMES.items() if v == day and k != stripped.casefold()})
        return text_variants(text) + [((f" {s} ",), 0.9) for s in shorts]
    return text_variants(text)


# ----------------------------------------------------------------------------- the judge's use


#: currencies by their ISO code (folded): the signs written for them, longest first where one holds
#: another ("US$" before "$"); "$" alone is the US dollar, as prices write it
CURRENCY_SIGNS: dict[str, tuple[str, ...]] = {
    "usd": ("US$", "$"), "eur": ("€",), "gbp": ("£",), "jpy": ("JP¥", "¥"), "inr": ("₹",), "krw": ("₩",),
    "cad": ("CA$", "C$"), "aud": ("AU$", "A$"), "nzd": ("NZ$",), "hkd": ("HK$",), "sgd": ("S$",), "brl": ("R$",),
    "mxn": ("MX$",), "rub": ("₽",), "try": ("₺",), "ils": ("₪",), "ngn": ("₦",), "php": ("₱",), "uah": ("₴",),
    "vnd": ("₫",), "pln": ("zł",), "thb": ("฿",),
}
#: currencies by their ISO code (folded): their names in words
CURRENCY_NAMES: dict[str, tuple[str, ...]] = {
    "usd": ("us dollar", "us dollars", "u s dollar", "u s dollars", "united states dollar", "united states dollars"),
    "eur": ("euro", "euros"),
    "gbp": ("pound sterling", "pounds sterling", "sterling", "british pound", "british pounds"),
    "jpy": ("yen", "japanese yen"), "chf": ("swiss franc", "swiss francs"),
    "sek": ("swedish krona", "swedish kronor"), "nok": ("norwegian krone", "norwegian kroner"),
    "dkk": ("danish krone", "danish kroner"), "cad": ("canadian dollar", "canadian dollars"),
    "aud": ("australian dollar", "australian dollars"), "inr": ("indian rupee", "indian rupees", "rupees"),
    "cny": ("yuan", "renminbi", "chinese yuan"), "pln": ("zloty", "zlotys", "polish zloty"),
}
_SIGN_ORDER = sorted(((sign, code) for code, signs in CURRENCY_SIGNS.items() for sign in signs),
                     key=lambda sc: -len(sc[0]))


def currency_signed(response: str) -> set[str]:
    """The currencies (ISO codes, folded) a text writes by their sign ("€ 1,200" → {"eur"}); a
    longer sign is read before the one it holds ("C$" is the Canadian dollar, not "$")."""
    text, found = response, set()
    for sign, code in _SIGN_ORDER:
        if sign in text:
            found.add(code)
            text = text.replace(sign, " ")
    return found


#: titles a person's name may follow ("Captain Joan Matheson"), beside the honorifics
_RANKS = frozenset({"captain", "capt", "rev", "revd", "fr", "sgt", "lt", "col", "gen", "cllr", "councillor", "judge",
                    "officer", "nurse", "sister", "father", "brother", "skipper", "master", "chef", "coach",
                    "professor", "doctor", "dame", "lord", "lady", "saint", "st"})
#: words that frame a value in a sentence without changing it ("It is Engineer", "as Engineer")
_FRAME = frozenset("it is was are were be been being the a an this that these those he she they his her hers their "
                   "its our my your yes no not as at in on of for to by from with and or but i we you which who "
                   "whose currently now still also only".split())
_ROMAN = frozenset({"ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii"})
#: a question for part of a name: the rest of the name beside it is no other value ("John Smith"
#: for the surname Smith)
_NAME_PART_WORDS = frozenset({"first", "last", "given", "surname", "family", "forename", "maiden", "middle"})
#: a question for a place: a word after a comma is where the place is ("Bath, Somerset"), not another value
_PLACE_WORDS = frozenset({"city", "town", "place", "location", "address", "port", "region", "county", "country",
                          "state", "village", "area", "where", "located", "based", "site", "venue", "home",
                          "province", "district", "suburb", "borough"})
_WORD_AT = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|‘[^’]*’|“[^”]*”")
#: a name a question quotes (group 1); the closing quote must end a word, so "Chef Anton's Gumbo Mix" stays
#: whole and the apostrophe of "What's" opens nothing: the knowledge-boundary tester's names and the judge's
#: echoed subject read quoted names with it
QUOTED_NAME = re.compile(r"(?:(?<=[\s(\[])|^)['\"‘“](.+?)['\"’”](?=[\s,.?!:;)\]]|$)")
_PLAIN_WORD = re.compile(r"[^\W_]+")


@functools.lru_cache(maxsize=1 << 12)
def _query_words(query: str) -> frozenset[str]:
    """The words of a query, what it quotes aside (the subject's name is no word of the question)."""
    if not query:
        return frozenset()
    return frozenset(_PLAIN_WORD.findall(fold(_QUOTED.sub(" ", query))))


def _harmless(word: str, query: str) -> bool:
    f = fold(word).rstrip(".")
    return (not word[:1].isupper() or f in _FRAME or f in HONORIFICS or f.endswith("ly")
            or any(c.isdigit() for c in word) or f in _query_words(query))


@functools.lru_cache(maxsize=1 << 16)
def value_tokens(value: str) -> tuple[str, ...]:
    """:func:`tokens` of a gold value, as a tuple, memoised (the judge reads the same golds again)."""
    return tuple(tokens(value))


@functools.lru_cache(maxsize=1 << 16)
def extends_value(value_toks: tuple[str, ...], response: str, query: str = "", *, single: bool = True) -> bool:
    """Every occurrence of the value's words in the response is part of a longer name, so the
    response names another value: a capitalised word joined to it by a space or a hyphen ("Senior
    Engineer" for Engineer, "Relief Master", "New York" for York), or, for a one-value answer that
    is nothing but the value and one more word after a comma, that word ("Commissioning Editor,
    Learning"). A word is no extension when it frames the value (an article, a pronoun, a verb of
    being, an adverb in -ly), is a word of the question, an honorific or a rank before a person's
    name, a legal form after a company's, a code in capitals after a place ("Seattle WA"), a known
    place after a comma ("Paris, France"), or holds a digit; nor is any word after a comma when the
    question asks for a place ("Bath, Somerset" for the town), nor the rest of a name when it asks
    for a part of one ("John Smith" for the surname). Only values of words are checked (not
    numbers, dates or codes); False when the value's words are not found as words."""
    if not value_toks or not all(t.isalpha() for t in value_toks):
        return False
    spans = list(_WORD_AT.finditer(response))
    n = len(value_toks)
    if len(spans) <= n:
        return False  # nothing beside the value
    qwords = _query_words(query)
    if qwords & _NAME_PART_WORDS and ("name" in qwords or "surname" in qwords or "forename" in qwords):
        return False
    folded = [fold(m.group()) for m in spans]
    person = len(value_toks) >= 2
    comma_rule = single and not qwords & _PLACE_WORDS
    found = False
    for i in range(len(spans) - n + 1):
        if tuple(folded[i:i + n]) != value_toks:
            continue
        found = True
        first, last = spans[i], spans[i + n - 1]
        left = spans[i - 1] if i else None
        right = spans[i + n] if i + n < len(spans) else None
        ext = False
        # a word hyphen-joined before it makes another value whatever the case ("Sub-principal",
        # "Co-principal" for Principal); a capitalised word before it does too ("Senior Engineer")
        if left is not None and (first.group()[:1].isupper() or response[left.end():first.start()] == "-"):
            sep = response[left.end():first.start()]
            lw = left.group()
            joined = sep == "-" and not first.group()[:1].isupper()
            ext = sep.strip() in ("", "-") and "\n" not in sep and not (
                _harmless(lw.capitalize(), query) if joined else _harmless(lw, query)) and not (
                person and fold(lw) in _RANKS)
        if not ext and right is not None and last.group()[:1].isupper():
            sep = response[last.end():right.start()]
            rw, rf = right.group(), fold(right.group())
            code = rw.isupper() and len(rw) <= 3 and rf not in _ROMAN
            if sep.strip() in ("", "-") and "\n" not in sep:
                ext = not (_harmless(rw, query) or rf in _LEGAL_FORMS or code)
            elif sep.strip() == "," and comma_rule and i == 0 and i + n + 1 == len(spans):
                ext = not (_harmless(rw, query) or rf in _LEGAL_FORMS or code or rf in _SYN_OF
                           or not response[right.end():].strip(" .!") == "")
        if not ext:
            return False
    return found


@functools.lru_cache(maxsize=1 << 16)
def answer_phrases(value: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The strict ways a gold text value is stated in full, for the judge: (padded token phrases,
    capital codes). The value itself, each synonym of the whole value or of a part of it, a
    person's name surname first, with the given name's initial ("R. King", "P. de Vries") (an
    honorific and the surname, "Ms. Davolio": :func:`_states_titled`), a name without a ship's prefix or a company's
    legal form ("Glen Sannox II" for MV Glen Sannox II, "Pavlova" for Pavlova, Ltd.), a currency
    code's name ("euros" for EUR); never a loose synonym, a part, or a bare surname."""
    toks = tokens(value)
    if not toks:
        return (), ()
    phrases = [" ".join(toks)]
    phrases += [" ".join(alt) for alt in _synonym_variants(toks, loose=False)]
    person = person_name_parts(value) if "," not in value else None
    if person:
        given, surname = person
        phrases.append(" ".join(surname + given))
        if given and len(given[0]) > 1 and given[0].isalpha():
            # "R. King", "King, R.": the given name's initial beside the surname, as rosters and
            # logs write a person (the initial must agree; a surname alone still does not do)
            phrases += [" ".join([given[0][0], *surname]), " ".join([*surname, given[0][0]])]
    core = core_name(toks)
    if core:
        phrases.append(" ".join(core))
    elif len(toks) == 2 and toks[0] in _NAME_PREFIXES and toks[1].isalpha() and len(toks[1]) > 3:
        phrases.append(toks[1])  # "Portnacraig" for the vessel MV Portnacraig
    phrases += CURRENCY_NAMES.get(" ".join(toks), ())
    one = singular_phrase(f" {' '.join(toks)} ")
    if one:
        phrases.append(one.strip())  # "Second Violin" for the section Second violins
    phrases += practitioner_phrases(toks)  # "a cardiologist" for the specialty Cardiology
    many = plural_phrase(f" {' '.join(toks)} ")
    if many and len(toks) <= 3:
        phrases.append(many.strip())  # "Senior Engineers", a group line over the people who are one
    if len(toks) >= 3 and toks[-1] in PLACE_KINDS:
        phrases.append(" ".join(toks[:-1]))  # "Wendlebury General" for Wendlebury General Hospital
    if len(toks) == 1 and toks[0].isalpha() and len(toks[0]) >= 4:
        # a player of the instrument, for the instrument ("clarinettist", "cellist", "trumpeter")
        w = toks[0]
        phrases += [w + "ist", w + "ists", w[:-1] + "ist", w + "tist", *([w + "er"] if w.endswith("t") else [])]
    whole = _SYN_OF.get(" ".join(toks))
    codes = _CODES.get(whole[0], ()) if whole else ()
    return tuple(f" {p} " for p in dict.fromkeys(phrases)), codes


_CAPITALS = re.compile(r"\b[A-Z]{2}\b")


@functools.lru_cache(maxsize=1 << 16)
def _titled_surname(value: str) -> str:
    """`` surname `` of a value that reads as a person's name, for "Ms. Davolio", "Dr Okafor" (the
    formal way to name a person again, a title and the surname); "" otherwise."""
    person = person_name_parts(value) if "," not in value else None
    return f" {' '.join(person[1])} " if person else ""


def _states_titled(value: str, padded: str) -> bool:
    surname = _titled_surname(value)
    at = padded.find(surname) if surname else -1
    while at >= 0:
        before = padded[:at].rsplit(None, 1)[-1:]
        if before and before[0] in HONORIFICS:
            return True
        at = padded.find(surname, at + 1)
    return False


def _omitted_by_query(toks: list[str], qwords: frozenset[str]) -> list[str]:
    """The value without its last word where the question itself says that word ("Felby Town" for
    the hub Felby Town Hub when asked for the hub; "45" for 45 minutes when asked for the minutes):
    the word dropped is a noun (no function word), and what is left holds a word the question does not."""
    if len(toks) < 2:
        return []
    rest, dropped = toks[:-1], toks[-1]
    if dropped not in qwords or dropped in _FRAME or len(dropped) < 3 or not dropped.isalpha():
        return []
    if not any(t not in qwords and t not in _FRAME and (len(t) > 2 or t.isdigit()) for t in rest):
        return []
    return [" ".join(rest)]


def states_text(value: str, response: str, *, whole: bool = False, query: str = "", single: bool = True) -> bool:
    """The response states the text value in one of its strict forms (:func:`answer_phrases`), or
    without a word the question itself says (:func:`_omitted_by_query`), and not as part of a longer
    name (:func:`extends_value`); ``whole``: the response is nothing but that form. A currency code
    is also stated by its sign alone ("€" for EUR, when no other currency's sign is written)."""
    phrases, codes = answer_phrases(value)
    padded = padded_tokens(response)
    if query and phrases[0] not in padded:
        # only where the whole value is not written: where it is, it is judged as it is written
        # ("Commissioning Editor, Learning" is not the title Commissioning Editor)
        phrases = phrases + tuple(f" {p} " for p in _omitted_by_query(phrases[0].split(), _query_words(query)))
    for p in phrases:
        if whole:
            if padded == p:
                return True
            continue
        at = padded.find(p)
        while at >= 0:
            blocked = _NOT_AFTER.get(p.strip())
            if not blocked or padded[:at].rsplit(None, 1)[-1:] not in ([b] for b in blocked):
                if p.strip() in HONORIFICS or not extends_value(tuple(p.split()), response, query, single=single):
                    # (a title is written before the name it belongs to: "Ms Rachel Hughes")
                    return True
                break
            at = padded.find(p, at + 1)
    if _states_titled(value, padded) and (not whole or len(padded.split()) == len(_titled_surname(value).split()) + 1):
        return True
    key = phrases[0].strip() if phrases else ""
    if key in CURRENCY_SIGNS and currency_signed(response) == {key} and (
            not whole or not padded.strip()):
        return True
    if codes:
        caps = _CAPITALS.findall(response)
        if whole:
            return response.strip(" .!") in codes
        return any(c in codes for c in caps)
    return False
