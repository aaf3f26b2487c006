"""Judges: is a response a correct answer to a query whose true answer is known?

Cheap judges first:

``exact``
    the normalised response equals the normalised answer (case, punctuation, articles,
    Unicode compatibility forms and accents, whitespace), or both are the same number or date
    ("1.5 billion" = 1.5 = 1500000000, "15 Jan 2023" = 2023-01-15, "USD 1 234,50" = 1234.5), or
    the response is the answer in another of its forms ("Deutschland" for Germany, "Davolio,
    Nancy" for Nancy Davolio, "yes" for True).
``contains``
    the normalised answer occurs in the normalised response on word boundaries, or the answer's
    number / date is among the numbers / dates the response mentions, or the response holds one
    of the answer's strict forms (a synonym, a name surname first or with the given name's initial
    or a title; never a part or a bare surname), and not only inside a longer name ("Senior
    Engineer" for Engineer is another value: :func:`ragdx.kb.normalise.extends_value`).

Values are read by :mod:`ragdx.kb.normalise`, the evidence linker's normaliser: one home for the
rules (numbers in every grouping, abbreviated amounts at the precision written, percentages,
dates in every common form, number words, units, the synonym table, names, booleans).
``f1``
    SQuAD-style token F1 after the same normalisation (numbers and dates become canonical
    tokens first); correct when F1 >= ``threshold``.
``llm``
    the paper's own prompt ("Ours", GRAMMAR App. A) on an LLM; the verdict is "Correct" or
    "Incorrect". Any other reply (empty, too long, a refusal to judge, no verdict word) is a
    judge failure, like a failed call: recorded with the reply, left out of the metrics, never
    cached, asked again next time.
``cascade``
    exact, then containment; a missing or empty response is Incorrect; a response whose dates
    (numbers) all differ from a date (number) answer is Incorrect; only what is left goes to the
    LLM (or, without one, to F1). Where the LLM replies without a verdict the offline rule
    decides, counted by why (``fell_back``; ``judge_fallbacks`` in ``metrics.json``), not cached.

An answer set (several rows) is judged row by row and combined with ``any`` or ``all``
(``sets=``); a row of several columns needs every value. Verdicts can be cached on disk (SQLite)
keyed by the hash of (query, answer rows, response, judge name and configuration).
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import hashlib
import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from ragdx.errors import LLMError, RagdxError
from ragdx.evaluate.records import JudgeItem, Judgement
from ragdx.kb.normalise import (
    ARTICLES,
    NUMBER,
    PERCENT,
    QUOTED_NAME,
    SCALE_OF,
    SPACES,
    abbreviated_amounts,
    boolean_of,
    clock_time,
    extends_value,
    extract_dates,
    extract_numbers,
    flag_value,
    nfkc_casefold,
    normalise_text,
    normalised_passage,
    number_value,
    person_name_parts,
    scale_key,
    states_text,
    strip_accents,
    times_in,
    value_tokens,
    weekdays_of,
    yearless_dates,
)

__all__ = [
    "Verdict",
    "Judge",
    "ExactMatchJudge",
    "ContainmentJudge",
    "TokenF1Judge",
    "LLMJudge",
    "CascadeJudge",
    "parse_judgement",
    "read_judgement",
    "VerdictCache",
    "make_judge",
    "normalise",
    "extract_values",
    "token_f1",
    "agreement",
    "JUDGE_PROMPT",
]

JUDGE_PROMPT = (
    "Evaluate the accuracy of the given response in relation to the true answer for the specified "
    "query. After evaluating, provide a judgement as either \u201cCorrect\u201d or \u201cIncorrect\u201d "
    "based on whether the ##Given Response## accurately matches the ##True Answer##.\n"
    "##Query##: {query}\n"
    "##True Answer##: {true_answer}\n"
    "##Given Response##: {given_response}\n"
    "##Judgement##:"
)


@dataclass(frozen=True, slots=True)
class Verdict:
    """``correct`` is None when the judge cannot decide (only cascade stages return that)."""

    correct: bool | None
    judge: str
    reason: str = ""
    score: float | None = None
    cached: bool = False
    #: no verdict (``correct`` None), never cached, judged again next time: the judge's LLM call
    #: failed after its retries, or its reply was no verdict (the reply, cut short, is in here)
    error: str | None = None
    #: why there is no verdict: ``call failed``, or a reply that is no verdict (``empty``,
    #: ``too long``, ``refusal``, ``unparseable``; see :func:`read_judgement`)
    failure: str | None = None
    #: the cascade's LLM stage gave no verdict (this says why, as ``failure`` does) and the
    #: offline rule decided in its place; never cached, so the LLM is asked again next time
    fallback: str | None = None


# ----------------------------------------------------------------------------- normalisation

# One home for the rules: the evidence linker and the judge read values with the same normaliser
# (ragdx.kb.normalise: numbers in every grouping, dates in every common form, number words,
# synonyms, names, booleans); what follows only compares.
_ARTICLES = ARTICLES
_SPACES = SPACES
_strip_accents = strip_accents
_nfkc_casefold = nfkc_casefold
_normalise = normalise_text


def normalise(text: Any) -> str:
    """Case, Unicode compatibility forms and accents, punctuation, articles and whitespace."""
    return _normalise(str(text))


def extract_values(text: Any) -> tuple[set[date], set[float]]:
    """(dates, numbers) mentioned in ``text``; digits that belong to a date are not numbers."""
    dates, numbers = _values_of(str(text))
    return set(dates), set(numbers)


# The cascade reads the values of one response up to three times (exact, contains, the values
# stage) and those of the same gold texts for every query: memoised per process, read-only.
@functools.lru_cache(maxsize=1 << 16)
def _values_of(text: str) -> tuple[frozenset[date], frozenset[float]]:
    dates, spans = extract_dates(text)
    return frozenset(dates), frozenset(extract_numbers(text, spans))


def _value_of(value: Any) -> date | float | None:
    """The single date or number a gold value *is* (not merely mentions), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):  # a tuple: `int | float` builds a union object per call
        return float(value) if math.isfinite(value) else None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return _value_of_text(str(value).strip())


@functools.lru_cache(maxsize=1 << 16)
def _value_of_text(text: str) -> date | float | None:
    midnight = _MIDNIGHT.match(text)
    if midnight:
        text = midnight.group(1)  # "2004-01-02 00:00:00" is the date 2004-01-02
    dates, spans = extract_dates(text)
    if len(dates) >= 1 and spans and spans[0][1] - spans[0][0] >= len(text) - 1:
        return sorted(dates)[0] if len(dates) == 1 else None
    m = NUMBER.fullmatch(_CURRENCY.sub("", text.casefold().replace("\u2212", "-")).strip())
    if m:
        nums = extract_numbers(m.group(0))
        return max(nums, key=abs) if nums else None
    return None


_CURRENCY = re.compile(r"^\s*(?:[$€£¥]|usd|eur|gbp|chf|us\$)\s*|\s*(?:[$€£¥]|usd|eur|gbp|chf)\s*$")


_MIDNIGHT = re.compile(r"^(\d{4}-\d{1,2}-\d{1,2})[ T]00:00(?::00(?:\.0+)?)?(?:Z|[+-]00:?00)?$")
_NO_RECORD = re.compile(
    r"\b(?:no (?:record|recorded|data|information|value|entry)|not (?:recorded|known|available|listed|"
    r"stated|specified|mentioned|found)|(?:is|are) unknown|there is no|none (?:is|are) recorded|"
    r"does not (?:say|state|mention|have)|doesn't (?:say|state|mention|have)|n/a)\b", re.IGNORECASE)


_HEDGE_WORD = re.compile(r"\b(?:maybe|perhaps|possibly|probably|likely|may be|might be|could be|either|one of|"
                         r"not sure)\b", re.IGNORECASE)
_HEDGE_LEAD = re.compile(r"^\s*(?:(?:it|this|that|the answer|the value)\s+)?(?:(?:may|might|could)\s+be|is\s+"
                         r"(?:either|probably|possibly|likely))\b|^\s*(?:maybe|perhaps|possibly|probably|likely|"
                         r"either)\b|^\s*(?:it|this|that|the answer|the value)\s+(?:is|was)\b|^\s*it[’']s\b",
                         re.IGNORECASE)
#: an amount per unit ("£960/day", "12/hr"): its slash is no list of candidates
_RATE = re.compile(r"\d\s*/\s*(?:day|hr|hour|h|week|wk|month|mo|year|yr|annum|night|unit|item|person|head|visit|"
                   r"session|kg|m2|sqm|km|mile)\b", re.IGNORECASE)
_OR = re.compile(r"\b(?:or|and/or)\b", re.IGNORECASE)
_OR_SLASH = re.compile(r"\b(?:or|and/or)\b|/", re.IGNORECASE)
_LIST_SEP = re.compile(r"\s*(?:,|;|\band/or\b|\bor\b|/)\s*", re.IGNORECASE)
_LIST_SEP_NO_SLASH = re.compile(r"\s*(?:,|;|\band/or\b|\bor\b)\s*", re.IGNORECASE)


#: the last (gold, response, verdict) :func:`hedged` gave: the cascade asks it twice in a row about
#: the same two objects (its own check, then the containment judge's), ~0.3 s of a 100k-query
#: evaluation. Held as one tuple, replaced whole, so a reader never sees half of two calls; keyed
#: by identity (the objects are held here, so their ids cannot be reused meanwhile)
_last_hedged: tuple[Any, Any, bool] = (object(), object(), False)


def hedged(gold: Any, response: str) -> bool:
    """The response offers the gold value as one of several candidates (:func:`hedged_once`),
    the last question's answer given again when asked about the very same objects."""
    global _last_hedged
    last = _last_hedged
    if last[0] is gold and last[1] is response:
        return last[2]
    verdict = hedged_once(gold, response)
    _last_hedged = (gold, response, verdict)
    return verdict


def hedged_once(gold: Any, response: str) -> bool:
    """The response offers the gold value as one of several candidates ("X or Y", "It may be X, Y
    or Z"). The gold's own text is masked before splitting (a name may hold a comma: "Pavlova,
    Ltd."); a list counts as hedged when it is marked as a guess (maybe, could be, either, ...) or is
    nothing but short candidates, so "based in Melbourne or nearby" in a sentence is no hedge.
    (Splitting on "or" alone missed "It may be X, Y or Z": the fault-injection benchmark found
    LM faults judged correct.)"""
    if isinstance(gold, float) and gold.is_integer():
        gold = int(gold)  # written 2450000, not 2450000.0
    g = normalise(gold)
    if not g or " or " in f" {g} ":
        return False
    text = str(response)
    # "/" separates candidates ("Paris/Lyon") unless it is part of the gold, of a URL or of a rate
    # ("£960/day", "40 h/week")
    slash = "/" not in str(gold) and "://" not in text and not _RATE.search(text)
    if not (_OR_SLASH if slash else _OR).search(text):
        return False
    marker = bool(_HEDGE_WORD.search(text))
    raw = str(gold).strip()
    at = text.casefold().find(raw.casefold()) if raw else -1
    if at >= 0:
        text = f"{text[:at]} \x00 {text[at + len(raw):]}"
    sep = _LIST_SEP if slash else _LIST_SEP_NO_SLASH
    parts = [p.strip(" .,;:!?") for p in sep.split(_HEDGE_LEAD.sub(" ", text))]
    parts = [p for p in parts if p]
    if len(parts) < 2:
        return False
    size = len(g.split())
    # candidates are short; a sentence that happens to say "or" has longer pieces
    if any(len(p.split()) > max(4, size + 3) for p in parts):
        return False
    if not marker and any(len(p.split()) > size + 1 for p in parts if "\x00" not in p):
        return False
    if not marker and any(len(p.split()) > 2 for p in parts if "\x00" in p):
        return False

    def holds(p: str) -> bool:
        # the gold in any form the normaliser reads ("the United States" for USA, 22.02.2005)
        return "\x00" in p or _holds_words(g, normalise(p)) or _value_contained(gold, p, _values_of(p))

    holding = [p for p in parts if holds(p)]
    if 1 <= len(holding) < len(parts):
        return True
    # "Davolio, Nancy or Leverling, Janet": candidates that hold commas themselves
    alternatives = [p.strip(" .,;:!?") for p in _OR.split(_HEDGE_LEAD.sub(" ", text))]
    alternatives = [p for p in alternatives if p]
    if len(alternatives) < 2 or any(len(p.split()) > max(4, size + 3) for p in alternatives):
        return False
    holding = [p for p in alternatives if holds(p)]
    return 1 <= len(holding) < len(alternatives)


def says_no_record(response: str | None) -> bool:
    """The response says the records hold no value (the right answer to an unanswerable query),
    and does not offer it as one candidate among values ("X, not recorded or Y")."""
    if response is None:
        return False
    m = _NO_RECORD.search(str(response))
    return m is not None and not hedged(m.group(0), str(response))


def _unanswerable(item: JudgeItem) -> bool:
    """No recorded value: an unanswerable query, or an answer whose every value is NULL ([[None]]),
    which the knowledge base states as "X has no recorded Y" — a response saying so is right.
    (``any(answer_rows)`` was true for [[None]]: the fault-injection benchmark caught 3 % of right
    answers judged wrong.)"""
    return item.answer_kind == "none" or all(v is None for row in item.answer_rows for v in row)


def _same_number(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def _canonical_tokens(text: str) -> list[str]:
    """Normalised tokens with each date replaced by its ISO form and numbers made canonical."""
    return list(_canonical_tuple(str(text)))  # a fresh list: callers may change theirs


@functools.lru_cache(maxsize=1 << 16)
def _canonical_tuple(text: str) -> tuple[str, ...]:
    dates, spans = extract_dates(text)
    pieces, last = [], 0
    for s, e in sorted(spans):
        pieces.append(text[last:s])
        sub, _ = extract_dates(text[s:e])
        pieces.append(" " + "d" + min(sub).isoformat().replace("-", "") + " ")
        last = e
    pieces.append(text[last:])
    text = "".join(pieces)

    def number(m: re.Match[str]) -> str:
        value = number_value(m.group("num"))
        scale = scale_key(m.group("scale"))
        if scale and scale not in PERCENT:
            value *= SCALE_OF[scale]
        return " n" + f"{value:g}".replace(".", "p").replace("-", "m").replace("+", "") + " "

    text = NUMBER.sub(number, unicodedata.normalize("NFKC", text).casefold())
    return tuple(normalise(text).split())


#: words that frame a value rather than tell it apart ("Faculty *of* ...", "*The* ...")
_FRAME_WORDS = frozenset("of and in on at for to by with from de la le du des der die das von van y e et".split())


def distinctive_missing(answer: Any, response: Any) -> list[str]:
    """Tokens of the gold answer (function words aside) that the response does not contain."""
    have = set(_canonical_tokens(str(response)))
    return [t for t in dict.fromkeys(_canonical_tokens(str(answer))) if t not in _FRAME_WORDS and t not in have]


def token_f1(answer: Any, response: Any) -> float:
    a, r = _canonical_tokens(str(answer)), _canonical_tokens(str(response))
    if not a or not r:
        return float(a == r)
    common: dict[str, int] = {}
    counts: dict[str, int] = {}
    for t in a:
        counts[t] = counts.get(t, 0) + 1
    for t in r:
        if counts.get(t, 0) > 0:
            counts[t] -= 1
            common[t] = common.get(t, 0) + 1
    same = sum(common.values())
    if same == 0:
        return 0.0
    precision, recall = same / len(r), same / len(a)
    return 2 * precision * recall / (precision + recall)


# ----------------------------------------------------------------------------- value comparison


#: the version of the offline rules (and of :mod:`ragdx.kb.normalise`'s forms), part of every offline
#: judge's configuration: a cached verdict of older rules is not replayed
RULES = "2026-11-26c"

_COUNT_QUERY = re.compile(r"\b(how many|number of|count|quantity|total|amount)\b", re.I)


#: yes/no as a database may store it in text ("Y", "N", "yes", "false"); not "T"/"F" (too often a code)
_FLAG_TEXT = {"y": 1, "yes": 1, "true": 1, "n": 0, "no": 0, "false": 0}


def _as_flag(gold: Any, response: str, query: str) -> bool | None:
    """A database flag (0 / 1, as an integer or its text, or Y / N, yes / no, true / false in text)
    answered in words ("Yes", "Y", "not discontinued"): its truth value, or None when the gold is no
    flag or the response no yes/no. A count ("How many berths?") is never read as a flag, and a
    response with a digit is a number."""
    if isinstance(gold, bool):
        return gold
    flag = None if isinstance(gold, float) else flag_value(gold)
    if flag is None and isinstance(gold, str):
        flag = _FLAG_TEXT.get(gold.strip().casefold())
    if flag is None or _COUNT_QUERY.search(query or "") or any(c.isdigit() for c in response):
        return None
    return bool(flag)


def _value_equal(gold: Any, response: str, query: str = "") -> bool:
    """The whole response is the gold value (text, number, date or truth value), in any of the
    forms :mod:`ragdx.kb.normalise` reads ("Deutschland" for Germany, "USD 1 234,50" for 1234.5)."""
    g, r = normalise(gold), normalise(response)
    if g and g == r:
        return True
    flag = _as_flag(gold, response, query)
    if flag is not None:
        b = boolean_of(response, query)
        if b is not None or isinstance(gold, bool):
            return b is not None and b == flag and len(r.split()) <= 3
    gv = _value_of(gold)
    if gv is None:
        return isinstance(gold, str) and states_text(gold, response, whole=True, query=query)
    rv = _value_of(response)
    if isinstance(gv, date):
        return (isinstance(rv, date) and rv == gv) or (rv is None and len(r.split()) <= 5
                                                        and _yearless_match(gv, response))
    if gv == 0 and _says_none(response) and len(r.split()) <= 5:
        return True
    if rv is None and isinstance(gv, float):
        rv = _ordinal_of(response)
    if rv is None or isinstance(rv, date):
        # a number in digits, or in words alone ("twelve", "twenty-one": how a count is often said)
        whole = NUMBER.fullmatch(response.strip().casefold()) or _NUMBER_WORDS.fullmatch(r)
        nums = extract_numbers(response) if whole else set()
        return any(_same_number(gv, n) for n in nums)
    return _same_number(gv, rv) or any(_same_number(gv, n) for n in extract_numbers(response))


#: a count of nothing said as people say it: "None.", "There are no orders.", "no employees at all"
_NONE = re.compile(r"(?:(?:there|it) (?:are|were|is|was) )?(?:none|zero|nil|nothing|no(?: [a-z]+){1,3})"
                   r"(?: at all)?(?: (?:in|for|of) (?:it|them|this))?")


def _says_none(response: str) -> bool:
    """The whole response says there are none (a count of 0), and not that nothing is recorded
    (an abstention: "There is no record of that" declines, it does not count)."""
    return bool(_NONE.fullmatch(normalise(response))) and not says_no_record(response) \
        and not any(n for n in extract_numbers(response))  # "No, there are three." is three


#: a whole response of number words (read by :func:`ragdx.kb.normalise.extract_numbers`)
_NUMBER_WORDS = re.compile(
    r"(?:(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
    r"sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|"
    r"thousand|million|and)[\s-]*)+")


_ORDINAL_WORDS = {w: i for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
    "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split(), 1)}
_ORDINAL = re.compile(r"^(?:(?:it|this|that)\s+(?:is|was)\s+)?(?:the\s+)?(?:(\d+)(?:st|nd|rd|th)|([a-z]+))"
                      r"(?:\s+(?:one|edition|time|place|round|term|floor|issue))?[\s.!]*$", re.IGNORECASE)


def _ordinal_of(response: str) -> float | None:
    """The number a bare ordinal answer states ("second", "It is the 3rd.", "the fifth edition"); an
    ordinal inside a sentence is not read ("the first run had 3 copies")."""
    m = _ORDINAL.match(response.strip())
    if not m:
        return None
    if m.group(1):
        return float(m.group(1))
    n = _ORDINAL_WORDS.get(m.group(2).casefold())
    return None if n is None else float(n)


def _without_echoed_subject(response: str, query: str, rows: list[list[Any]]) -> str | None:
    """The response without the names the question quotes that hold a gold value inside them, or None when
    it repeats none: "Which town is 'Northope Hub' in?" answered "Northope Hub" names the hub again, and the
    town "Northope" inside it is not an answer ("Northope Hub is in Northope" still is)."""
    folded = response.casefold()
    golds: list[str] | None = None
    out = response
    for m in QUOTED_NAME.finditer(query):
        name = m.group(1)
        if name.casefold() not in folded:
            continue  # most responses do not repeat the name: nothing to normalise
        if golds is None:
            golds = [normalise(v) for row in rows for v in row if isinstance(v, str)]
        said = normalise(name)
        if not said or not any(g and g != said and _holds_words(g, said) for g in golds):
            continue
        out = re.sub(r"(?<!\w)" + re.escape(name) + r"(?!\w)", " ", out, flags=re.IGNORECASE)
    return None if out == response else out


def _holds_words(words: str, text: str) -> bool:
    """``words`` occur in ``text`` as whole words (both normalised: words split by single spaces),
    what ``re.search("(?:^| )" + re.escape(words) + "(?: |$)", text)`` tells, without compiling a
    pattern per gold value."""
    return f" {words} " in f" {text} "


_MORNING = re.compile(r"\b(?:a\.?m\b\.?|in the morning)", re.IGNORECASE)


def _yearless_match(gold: date, response: str) -> bool:
    """The response gives the gold date's day and month and no year at all ("5 April", "Sat 5/10"
    for 2024-10-05): how a document dated elsewhere writes it. A weekday given must be the date's."""
    if re.search(r"(?<!\d)(?:19|20)\d{2}(?!\d)", response):
        return False  # a year is written: the date is judged with it
    return any((day, month) == (gold.day, gold.month) and (weekday is None or weekday == gold.weekday())
               for day, month, weekday in yearless_dates(response))


def _time_or_days(gold: Any, response: str) -> bool | None:
    """A time of day ("07:30" as "7.30am", "0730") or days of the week ("Mon-Fri" as "Monday to
    Friday", "Daily" as "every day") against the response's; None when the gold is neither."""
    if not isinstance(gold, str) or len(gold) > 40:
        return None
    clock = clock_time(gold)
    if clock is not None:
        said = times_in(response)
        # "half past two", "2.30" for 14:30: an afternoon time said on the twelve-hour clock
        # without am or pm, as people say it
        return clock in said or (clock[0] > 12 and (clock[0] - 12, clock[1]) in said
                                 and not _MORNING.search(response))
    days = weekdays_of(gold)
    if days is not None:
        return weekdays_of(response) == days
    return None


def _value_contained(gold: Any, response: str, values: tuple[AbstractSet[date], AbstractSet[float]],
                     query: str = "", single: bool = True) -> bool:
    flag = _as_flag(gold, response, query)
    if flag is not None:
        b = boolean_of(response, query)
        if b is not None:
            return b == flag
    timed = _time_or_days(gold, response)
    if timed is not None:
        return timed
    g = normalise(gold)
    gv = _value_of(gold)
    # a number's digits as words are no number: "500" is in "2 500", the words of "2,500"
    if g and not isinstance(gv, float) and _holds_words(g, normalise(response)) and not (
            isinstance(gold, str) and extends_value(value_tokens(gold), response, query, single=single)):
        return True
    if isinstance(gv, date):
        return gv in values[0] or (not values[0] and _yearless_match(gv, response))
    if isinstance(gv, float):
        if gv == 0 and _says_none(response):
            return True
        # an abbreviated amount ("12.5k") states the value it equals at the precision written
        return any(_same_number(gv, n) for n in values[1]) or any(
            lo <= gv <= hi for lo, hi in abbreviated_amounts(response)) or _code_in_groups(gold, response) \
            or _asked_as_code_or_length(gv, response, query)
    return isinstance(gold, str) and states_text(gold, response, query=query, single=single)


def _asked_as_code_or_length(gold: float, response: str, query: str) -> bool:
    """A small number written as a code of the asked word's initial ("G7" for "the grade of ..."),
    or a length in minutes or hours stated by a range of times ("09:30–12:30" for "the session in
    minutes"): both only where the question asks for that word."""
    if not query or not gold.is_integer() or gold <= 0:
        return False
    asked = [w for w in re.findall(r"[a-z]+", query.casefold()) if len(w) >= 4]
    n = int(gold)
    if n < 100:
        codes = {m.group(1) for m in re.finditer(r"(?<![\w-])([a-z])" + str(n) + r"(?!\w)", response.casefold())}
        if any(w[0] in codes and w not in _CODE_FILLER for w in asked):
            return True
    if any(w.startswith("minut") for w in asked) or "mins" in asked:
        minutes = n
    elif any(w.startswith("hour") for w in asked):
        minutes = n * 60
    else:
        return False
    return f" zmins{minutes} " in normalised_passage(response)


#: question words whose initial codes nothing ("what", "which", "recorded")
_CODE_FILLER = frozenset({"what", "which", "where", "when", "whose", "with", "that", "this", "recorded", "records",
                          "tell", "know", "please", "your", "have", "from", "about", "there", "stated", "look"})


#: a run of digit groups joined by hyphens or single spaces ("978-0-7636-1229-0", "0161 496 0000")
_DIGIT_GROUPS = re.compile(r"(?<![\w.,-])\d+(?:[- \u2010\u2011\u2013]\d+){2,}(?![\w.,-]?\d)")


def _code_in_groups(gold: Any, response: str) -> bool:
    """A code of seven or more digits (an ISBN, a telephone or account number) written in groups:
    the response joins to exactly its digits. A number of that size is a code, not an amount: the
    groups are no thousands (those are read first) and no range."""
    digits = str(gold).strip()
    if isinstance(gold, bool) or not digits.isdigit() or len(digits) < 7:
        return False
    return any(re.sub(r"\D", "", m.group()) == digits for m in _DIGIT_GROUPS.finditer(response))


def _row_names_person(row: list[Any], response: str, query: str) -> bool:
    """A row whose text values together are one person's name (given name and surname in two columns)
    is stated by any form of that name: "R. King" or "King, R." for (Robert, King)."""
    if not 2 <= len(row) <= 3 or not all(isinstance(v, str) and v.strip() for v in row):
        return False
    name = " ".join(v.strip() for v in row)
    return person_name_parts(name) is not None and states_text(name, response, query=query)


def _combine(flags: Iterable[bool], sets: str) -> bool:
    flags = list(flags)
    return bool(flags) and (any(flags) if sets == "any" else all(flags))


def _rows(item: JudgeItem) -> list[list[Any]]:
    return [list(r) for r in item.answer_rows if r] or [[""]]


def _missing(response: str | None) -> bool:
    return response is None or not str(response).strip()


def _cacheable(verdict: Verdict) -> bool:
    """A verdict the cache may keep: a real one. A failure, or the offline rule standing in for an
    LLM that gave no verdict, is judged again next time."""
    return verdict.correct is not None and verdict.error is None and verdict.fallback is None


# ----------------------------------------------------------------------------- judges


class Judge:
    name = "judge"

    def config(self) -> dict[str, Any]:
        """What identifies the judge's verdicts (part of the cache key): its name and every
        plain constructor argument of a dataclass judge."""
        out: dict[str, Any] = {"name": self.name, "rules": RULES}
        if dataclasses.is_dataclass(self):
            for f in dataclasses.fields(self):
                value = getattr(self, f.name)
                if f.init and isinstance(value, str | int | float | bool | type(None)):
                    out[f.name] = value
        return out

    def judge(self, item: JudgeItem) -> Verdict:
        raise NotImplementedError

    async def ajudge(self, item: JudgeItem) -> Verdict:
        return self.judge(item)

    def synchronous(self) -> bool:
        """Whether :meth:`judge` decides without awaiting anything (no LLM): many items are then
        judged in a plain loop. A judge that overrides ``ajudge`` awaits something and is not."""
        return type(self).ajudge is Judge.ajudge

    def judge_many(self, items: Sequence[JudgeItem], cache: VerdictCache | None = None) -> list[Verdict]:
        if self.synchronous():
            # one asyncio task per item cost more than the judging itself on a large offline run
            return self._judge_each(items, cache)
        from ragdx.llm import run_sync  # the LLM client (openai) is imported only by judges that need it

        return run_sync(self.ajudge_many(items, cache))

    def _judge_each(self, items: Sequence[JudgeItem], cache: VerdictCache | None) -> list[Verdict]:
        """Judge items one after the other; for the built-in offline judges, whose verdict depends
        on nothing but the answer rows, the answer kind and the response, each distinct
        (answer, response) pair is judged once (a run repeats its gold answers and many of its
        responses)."""
        memo: dict[Any, Verdict] | None = {} if type(self) in PURE_JUDGES else None
        out = []
        for item in items:
            if cache is not None:
                hit = cache.get(item, self)
                if hit is not None:
                    out.append(hit)
                    continue
            key = _item_key(item) if memo is not None else None
            verdict = memo.get(key) if key is not None else None  # type: ignore[union-attr]
            if verdict is None:
                verdict = self.judge(item)
                if key is not None:
                    memo[key] = verdict  # type: ignore[index]
            else:
                self._judged_again(verdict)
            if cache is not None and _cacheable(verdict):
                cache.put(item, self, verdict)
            out.append(verdict)
        return out

    def _judged_again(self, verdict: Verdict) -> None:
        """Bookkeeping for an item whose verdict was reused from an identical one."""

    async def ajudge_many(self, items: Sequence[JudgeItem], cache: VerdictCache | None = None
                          ) -> list[Verdict]:
        async def one(item: JudgeItem) -> Verdict:
            if cache is not None:
                hit = cache.get(item, self)
                if hit is not None:
                    return hit
            verdict = await self.ajudge(item)
            if cache is not None and _cacheable(verdict):
                cache.put(item, self, verdict)
            return verdict

        return list(await asyncio.gather(*(one(i) for i in items)))


_SET_SEP = re.compile(r"\s*(?:;|,|\band\b|\n)\s*")


@dataclass
class ExactMatchJudge(Judge):
    sets: str = "all"
    name: str = field(default="exact", init=False)

    def judge(self, item: JudgeItem) -> Verdict:
        if _missing(item.response):
            return Verdict(False, self.name, "no response")
        response = str(item.response)
        if _unanswerable(item):
            ok = says_no_record(response)
            return Verdict(ok, self.name, "says there is no record" if ok else "answers an unanswerable query",
                           float(ok))
        rows = _rows(item)
        if len(rows) == 1 and len(rows[0]) == 1:
            ok = _value_equal(rows[0][0], response, item.query)
        else:
            # an answer set matches exactly when the response lists exactly its values
            parts = [p for p in _SET_SEP.split(response) if p.strip()]
            want = [v for row in rows for v in row]
            matched = [any(_value_equal(v, p) for p in parts) for v in want]
            if self.sets == "any":
                ok = any(all(any(_value_equal(v, p) for p in parts) for v in row) for row in rows)
            else:
                ok = all(matched) and len(parts) == len(want)
        return Verdict(ok, self.name, "exact match" if ok else "differs", float(ok))


@dataclass
class ContainmentJudge(Judge):
    sets: str = "all"
    name: str = field(default="contains", init=False)

    def judge(self, item: JudgeItem) -> Verdict:
        if _missing(item.response):
            return Verdict(False, self.name, "no response")
        response = str(item.response)
        if _unanswerable(item):
            ok = says_no_record(response)
            return Verdict(ok, self.name, "says there is no record" if ok else "answers an unanswerable query",
                           float(ok))
        values = _values_of(response)
        rows = _rows(item)
        if len(rows) == 1 and len(rows[0]) == 1 and hedged(rows[0][0], response):
            return Verdict(False, self.name, "a hedged list of candidates", 0.0)
        single = len(rows) == 1 and len(rows[0]) == 1
        echo = _without_echoed_subject(response, item.query, rows)
        if echo is not None:
            response, values = echo, _values_of(echo)
        per_row = [all(_value_contained(v, response, values, item.query, single) for v in row)
                   or _row_names_person(row, response, item.query) for row in rows]
        ok = _combine(per_row, self.sets)
        score = sum(per_row) / len(per_row)
        reason = f"{sum(per_row)}/{len(per_row)} answer rows in the response"
        return Verdict(ok, self.name, reason, score)


@dataclass
class TokenF1Judge(Judge):
    threshold: float = 0.5
    sets: str = "all"
    name: str = field(default="f1", init=False)

    def judge(self, item: JudgeItem) -> Verdict:
        if _missing(item.response):
            return Verdict(False, self.name, "no response", 0.0)
        rows = _rows(item)
        if self.sets == "all" or len(rows) == 1:
            score = token_f1(item.answer_text, item.response)
        else:
            score = max(token_f1(", ".join(map(str, r)), item.response) for r in rows)
        ok = score >= self.threshold
        return Verdict(ok, self.name, f"token F1 {score:.2f}", score)


#: the most tokens a judge's reply may take, sent as ``max_tokens`` where the client takes it (a
#: verdict is one word; a sentence of why fits)
JUDGE_MAX_TOKENS = 256
#: the most characters of a reply that are read as a verdict: a longer one is no verdict
#: ("too long"), whatever the endpoint did with ``max_tokens``
JUDGE_MAX_REPLY_CHARS = 4000
#: how much of a reply that is no verdict is kept in the judgement's ``error``
JUDGE_ERROR_REPLY_CHARS = 200

_VERDICT_WORD = re.compile(r"\b(?:(in)correct|(not)\s+correct|correct)\b", re.IGNORECASE)
# the verdict as the reply's first word, after markup or a label ("**Judgement:** Incorrect")
_LEAD = re.compile(r"^[\s#*_`>\"'\u201c\u201d(\[-]*(?:(?:final\s+)?(?:judge?ment|verdict|answer)\s*[#*_:=-]*[\s#*_`>\"'"
                   r"\u201c\u201d(\[-]*)?(?:(in)correct|(not)\s+correct|correct)\b", re.IGNORECASE)
# both words offered as the choice (a reply that echoes the prompt)
_BOTH = re.compile(r"\bcorrect\W{0,3}\s+or\s+\W{0,3}incorrect\b|\bincorrect\W{0,3}\s+or\s+\W{0,3}correct\b",
                   re.IGNORECASE)
_REFUSES = re.compile(
    r"\b(?:cannot|can ?not|can't|can\u2019t|unable to|not able to|won't|won\u2019t|will not|impossible to|hard to|"
    r"difficult to|not possible to|no way to)\s+(?:\w+\s+){0,3}?(?:judge|determine|say|tell|evaluate|assess|decide|"
    r"verify|know|confirm|answer|provide)\b|\b(?:not sure|unsure|uncertain|unclear|undecided|i don't know|"
    r"i do not know|insufficient information|not enough information|as an ai\b|"
    r"i (?:must |have to )?(?:refuse|decline)\b)",
    re.IGNORECASE)


def read_judgement(text: str | None, max_chars: int = JUDGE_MAX_REPLY_CHARS) -> tuple[bool | None, str | None]:
    """A judge's reply as (verdict, why there is none). The verdict is the reply's first word
    ("Incorrect. The response says 2021"), else its only verdict word, with "incorrect" / "not
    correct" taking precedence over "correct" as in the paper's reading ("the response is not
    correct; the correct year is 2021"). No verdict (None) is one of: ``empty``, ``too long``
    (over ``max_chars``: nothing read from it), ``refusal`` ("I cannot determine whether it is
    correct", "Maybe. It is hard to say."), ``unparseable`` (no verdict word, or both offered as a
    choice)."""
    if text is None or not text.strip():
        return None, "empty"
    if len(text) > max_chars:
        return None, "too long"
    if _BOTH.search(text):
        return None, "unparseable"
    m = _LEAD.match(text)
    if m:
        return not (m.group(1) or m.group(2)), None
    if _REFUSES.search(text):
        return None, "refusal"
    words = [not (w.group(1) or w.group(2)) for w in _VERDICT_WORD.finditer(text)]
    if not words:
        return None, "unparseable"
    return all(words), None


def parse_judgement(text: str) -> bool | None:
    """The verdict of a judge's reply, None when it gives none (see :func:`read_judgement`)."""
    return read_judgement(text)[0]


def reply_excerpt(text: str | None, limit: int = JUDGE_ERROR_REPLY_CHARS, *, length: int | None = None) -> str:
    """A reply as a judgement may keep it: whitespace collapsed, cut at ``limit`` characters with
    its full length said (a 2 MB reply is not written into every record that mentions it).
    ``length``: the reply's length where ``text`` is only its start (the client cut it)."""
    if text is None:
        return "(none)"
    head = " ".join(text[: limit * 4].split())
    if length is None and len(head) <= limit and len(text) <= limit * 4:
        return repr(head)
    return f"{head[:limit]!r}\u2026 ({length or len(text):,} characters)"


class LLMJudge(Judge):
    """The paper's judge prompt on any ``ragdx.llm`` client (temperature 0).

    A reply that is no verdict (empty, longer than ``max_reply_chars``, a refusal to judge, no
    verdict word: see :func:`read_judgement`) is a judge failure, as a failed call is: no
    verdict, the reply (cut short) in ``error``, never cached (neither the verdict nor, with
    ragdx's own clients, the completion), asked again next time. Ragdx's clients are asked for
    at most ``max_tokens`` (None: not sent; nor is it where the client's ``params`` set
    ``max_completion_tokens``, which reasoning models take instead)."""

    name = "llm"

    def __init__(self, llm: Any, *, prompt: str = JUDGE_PROMPT, sets: str = "all",
                 max_tokens: int | None = JUDGE_MAX_TOKENS, max_reply_chars: int = JUDGE_MAX_REPLY_CHARS):
        self.llm = llm
        self.prompt = prompt
        self.sets = sets
        self.max_tokens = max_tokens
        self.max_reply_chars = max_reply_chars

    def config(self) -> dict[str, Any]:
        model = getattr(self.llm, "model", type(self.llm).__name__)
        base = getattr(self.llm, "base_url", None)
        return {"name": self.name, "model": model, "base_url": base,
                "prompt_sha": hashlib.sha256(self.prompt.encode()).hexdigest()[:12], "sets": self.sets}

    def _true_answer(self, item: JudgeItem) -> str:
        rows = _rows(item)
        text = item.answer_text
        if len(rows) > 1:
            text = ("any one of: " if self.sets == "any" else "all of: ") + text
        return text

    def judge(self, item: JudgeItem) -> Verdict:
        from ragdx.llm import run_sync

        return run_sync(self.ajudge(item))

    def _is_verdict(self, text: str) -> bool:
        return read_judgement(text, self.max_reply_chars)[0] is not None

    def _request_options(self) -> dict[str, Any]:
        """What is sent besides the prompt: temperature 0; to ragdx's own clients also the reply's
        size bound and which replies their completion cache may keep (verdicts only)."""
        from ragdx.llm.client import ChatLLM

        options: dict[str, Any] = {"temperature": 0}
        if isinstance(self.llm, ChatLLM):
            options["cache_if"] = self._is_verdict
            own = self.llm.params
            if self.max_tokens is not None and "max_completion_tokens" not in own and "max_tokens" not in own:
                configured = self.llm.max_tokens
                options["max_tokens"] = self.max_tokens if not configured else min(configured, self.max_tokens)
        return options

    async def ajudge(self, item: JudgeItem) -> Verdict:
        if _missing(item.response):
            return Verdict(False, self.name, "no response")
        content = self.prompt.format(query=item.query, true_answer=self._true_answer(item),
                                     given_response=item.response)
        try:
            completion = await self.llm.complete([{"role": "user", "content": content}], **self._request_options())
        except LLMError as exc:
            # one item's exhausted retries must not abort the evaluation of all the others: the
            # item is recorded as failed, with its error, and judged again next time
            return Verdict(None, self.name, "the judge's LLM call failed", error=exc.message, failure="call failed")
        text = completion.text
        cut_from = getattr(completion, "truncated_from", None)
        # a reply the client cut at its size bound is too long, however its start reads
        verdict, why = (None, "too long") if cut_from is not None else read_judgement(text, self.max_reply_chars)
        if verdict is None:
            # no verdict is a judge failure, never a silent "Incorrect" (5 % of the judgements of a
            # hostile endpoint were): excluded from the metrics, not cached, asked again next time
            return Verdict(None, self.name, f"the judge gave no verdict ({why})",
                           error=f"the judge gave no verdict ({why}): {reply_excerpt(text, length=cut_from)}",
                           failure=why)
        return Verdict(verdict, self.name, " ".join(text.split())[:200])


class CascadeJudge(Judge):
    """Cheap judges first; the LLM (or F1 when there is none) only where they cannot decide."""

    name = "cascade"

    def __init__(self, llm_judge: LLMJudge | None = None, *, sets: str = "all", f1_threshold: float = 0.5):
        self.sets = sets
        self.exact = ExactMatchJudge(sets=sets)
        self.contains = ContainmentJudge(sets=sets)
        self.f1 = TokenF1Judge(threshold=f1_threshold, sets=sets)
        self.llm_judge = llm_judge
        #: how many items each stage decided (since construction)
        self.decided_by: dict[str, int] = {}
        #: how many items the offline rule decided because the LLM gave no verdict, by why
        self.fell_back: dict[str, int] = {}

    def config(self) -> dict[str, Any]:
        return {"name": self.name, "rules": RULES, "sets": self.sets, "f1": self.f1.config(),
                "llm": None if self.llm_judge is None else self.llm_judge.config()}

    def _cheap(self, item: JudgeItem) -> Verdict | None:
        if _missing(item.response):
            return Verdict(False, "cascade:empty", "no response")
        if _unanswerable(item):
            ok = says_no_record(str(item.response))
            return Verdict(ok, "cascade:no-record",
                           "says there is no record" if ok else "answers an unanswerable query")
        rows0 = _rows(item)
        if len(rows0) == 1 and len(rows0[0]) == 1 and hedged(rows0[0][0], str(item.response)):
            return Verdict(False, "cascade:hedged", "a hedged list of candidates")
        for judge in (self.exact, self.contains):
            v = judge.judge(item)
            if v.correct:
                return Verdict(True, f"cascade:{judge.name}", v.reason, v.score)
        rows = _rows(item)
        if len(rows) == 1 and len(rows[0]) == 1:
            if isinstance(rows[0][0], bool):
                b = boolean_of(str(item.response), item.query)
                if b is not None and b != rows[0][0]:
                    return Verdict(False, "cascade:values", "the response states the other truth value")
            gold = _value_of(rows[0][0])
            dates, numbers = _values_of(str(item.response))
            if isinstance(gold, date) and dates and gold not in dates:
                return Verdict(False, "cascade:values", "the response states other dates")
            if isinstance(gold, float) and numbers and not dates and not any(
                    _same_number(gold, n) for n in numbers):
                return Verdict(False, "cascade:values", "the response states other numbers")
        return None

    def _count(self, verdict: Verdict) -> Verdict:
        self.decided_by[verdict.judge] = self.decided_by.get(verdict.judge, 0) + 1
        return verdict

    def synchronous(self) -> bool:
        return self.llm_judge is None and type(self).ajudge is CascadeJudge.ajudge

    def _judged_again(self, verdict: Verdict) -> None:
        self._count(verdict)  # decided_by counts items, not distinct ones

    def judge(self, item: JudgeItem) -> Verdict:
        cheap = self._cheap(item)
        if cheap is not None:
            return self._count(cheap)
        if self.llm_judge is not None:
            from ragdx.llm import run_sync

            return run_sync(self.ajudge(item))
        return self._count(self._offline(item))

    def _offline(self, item: JudgeItem) -> Verdict:
        """Without an LLM: token F1 at its threshold *and* every distinctive token of the gold answer
        in the response. F1 alone accepted a sibling value sharing its frame ("Faculty of Engineering"
        for "Faculty of Humanities", F1 0.67; one URL for another, 0.75) — measured by the
        fault-injection benchmark as wrong answers blamed on nobody."""
        v = self.f1.judge(item)
        if v.correct:
            missing = distinctive_missing(item.answer_text, str(item.response))
            if missing:
                return Verdict(False, "cascade:f1", f"{v.reason}, but the response lacks {', '.join(missing[:3])}",
                               v.score)
            rows = _rows(item)
            echo = _without_echoed_subject(str(item.response), item.query, rows)
            if echo is not None and token_f1(item.answer_text, echo) < self.f1.threshold:
                # "northope hub" to "Which town is 'Northope Hub' in?": the gold's words are the question's name
                return Verdict(False, "cascade:f1", f"{v.reason}, but only inside the name the question gives",
                               v.score)
            if all(isinstance(x, str) and extends_value(value_tokens(x), str(item.response), item.query,
                                                        single=len(rows) == 1 and len(row) == 1)
                   for row in rows for x in row):
                # "Senior Engineer" for Engineer: every word of the gold is there, in a longer name
                return Verdict(False, "cascade:f1", f"{v.reason}, but the response names a longer value", v.score)
        return Verdict(v.correct, "cascade:f1", v.reason, v.score)

    async def ajudge(self, item: JudgeItem) -> Verdict:
        cheap = self._cheap(item)
        if cheap is not None:
            return self._count(cheap)
        if self.llm_judge is None:
            return self._count(self._offline(item))
        v = await self.llm_judge.ajudge(item)
        if v.correct is None and v.failure not in (None, "call failed"):
            # the LLM answered, but no verdict: the offline rule decides, says so, and is counted
            # (``fell_back``, and the evaluation's ``judge_fallbacks``); not cached, so the LLM is
            # asked again next time
            f = self._offline(item)
            self.fell_back[v.failure] = self.fell_back.get(v.failure, 0) + 1
            why = v.error or v.reason
            return self._count(Verdict(f.correct, "cascade:f1", f"{why}; the offline rule decided: {f.reason}",
                                       f.score, fallback=v.failure))
        if v.correct is None:  # no answer at all: F1 standing in would be a silent change of judge
            return self._count(Verdict(None, "cascade:llm", v.reason, error=v.error or v.reason,
                                       failure=v.failure or "call failed"))
        return self._count(Verdict(v.correct, "cascade:llm", v.reason))


JUDGES = ("exact", "contains", "f1", "llm", "cascade")

#: judges whose verdict is a function of (answer rows, answer kind, response) alone (and of the query
#: for a yes/no answer, which the key then holds): a subclass may
#: read the query or keep state, so only these exact classes share verdicts between equal items
PURE_JUDGES = (ExactMatchJudge, ContainmentJudge, TokenF1Judge, CascadeJudge)


def _item_key(item: JudgeItem) -> tuple[Any, ...] | None:
    """What an offline verdict depends on, hashable; None when a value cannot be hashed. Each value
    keeps its type: 1, 1.0, True and "1" are different gold answers."""
    try:
        rows = tuple(tuple((v.__class__, v) for v in row) for row in item.answer_rows)
        # a yes/no answer is read against the state the query names ("Is Chai discontinued?")
        # (a 0 / 1 flag too, and whether the query asks for a count)
        query = item.query if any(isinstance(v, bool) or v in (0, 1, "0", "1") for row in item.answer_rows
                                  for v in row) else None
        key = (item.answer_kind, item.response, rows, query)
        hash(key)
    except TypeError:
        return None
    return key


def make_judge(name: str, *, llm: Any = None, sets: str = "all", f1_threshold: float = 0.5) -> Judge:
    """A judge by name (``exact``, ``contains``, ``f1``, ``llm``, ``cascade``)."""
    if sets not in ("any", "all"):
        raise RagdxError(f"sets must be 'any' or 'all', not {sets!r}", field="sets")
    if name == "exact":
        return ExactMatchJudge(sets=sets)
    if name in ("contains", "containment"):
        return ContainmentJudge(sets=sets)
    if name == "f1":
        return TokenF1Judge(threshold=f1_threshold, sets=sets)
    if name == "llm":
        if llm is None:
            raise RagdxError("the llm judge needs an LLM (configure llm: in ragdx.yaml)", field="judge")
        return LLMJudge(llm, sets=sets)
    if name == "cascade":
        return CascadeJudge(None if llm is None else LLMJudge(llm, sets=sets), sets=sets,
                            f1_threshold=f1_threshold)
    raise RagdxError(f"unknown judge {name!r} (choose from {', '.join(JUDGES)})", field="judge")


# ----------------------------------------------------------------------------- cache


class VerdictCache:
    """SQLite file: hash of (query, answer rows, response, judge config) -> verdict; the
    ``verdicts`` namespace of a :class:`ragdx.kvcache.KVStore`, created user-only (verdicts quote
    the responses judged)."""

    def __init__(self, path: str | Path):
        from ragdx.kvcache import KVStore, Legacy

        self.path = Path(path)
        self.hits = 0
        self.misses = 0
        # an older ragdx's table kept the verdict in columns (correct, judge, reason, score)
        legacy = Legacy(value_sql="json_object('correct', correct = 1, 'judge', judge, 'reason', reason, "
                                  "'score', score)")
        self._entries = KVStore(self.path, label="verdict cache").namespace("verdicts", legacy=legacy)
        len(self._entries)  # a file that is no cache fails here, before anything is judged

    @staticmethod
    def key(item: JudgeItem, judge: Judge) -> str:
        from ragdx.gen.dataset import json_value
        from ragdx.llm.cache import canonical_json

        blob = canonical_json({"query": item.query,
                               "answer": [[json_value(v) for v in r] for r in item.answer_rows],
                               "response": item.response, "judge": judge.config()})
        return hashlib.sha256(blob.encode()).hexdigest()

    def get(self, item: JudgeItem, judge: Judge) -> Verdict | None:
        found = self._entries.get_json(self.key(item, judge))
        if found is None:
            self.misses += 1
            return None
        self.hits += 1
        return Verdict(bool(found["correct"]), found["judge"], found["reason"], found["score"], cached=True)

    def put(self, item: JudgeItem, judge: Judge, verdict: Verdict) -> None:
        self._entries.put_json(self.key(item, judge), {"correct": bool(verdict.correct), "judge": verdict.judge,
                                                       "reason": verdict.reason, "score": verdict.score})

    def __len__(self) -> int:
        return len(self._entries)


# ----------------------------------------------------------------------------- agreement


@dataclass(frozen=True, slots=True)
class JudgeAgreement:
    """How often two judges (or a judge and people) agree on the same responses: what
    :func:`agreement` and ``ragdx.judge_agreement`` return, typed so that a notebook completes
    its attributes; :meth:`to_dict` is the plain layout (the keys these results always had)."""

    a: str
    b: str
    #: responses judged by both
    n: int
    #: of them, judged alike
    agree: int
    #: ``agree / n`` (NaN when nothing was judged by both)
    agreement: float
    #: Cohen's kappa (NaN when nothing was judged by both)
    kappa: float
    a_correct_rate: float
    b_correct_rate: float
    #: the 2x2 confusion table: ``both_correct``, ``a_correct_b_incorrect``, ``a_incorrect_b_correct``,
    #: ``both_incorrect``
    table: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def markdown(self) -> str:
        return agreement_markdown(self)


def agreement(a: Sequence[Judgement] | Sequence[bool], b: Sequence[Judgement] | Sequence[bool],
              names: tuple[str, str] = ("A", "B")) -> JudgeAgreement:
    """How often two judges agree: share, Cohen's kappa and the 2x2 confusion table.

    Judgements are joined by id (only ids judged by both count); plain booleans by position."""
    if a and isinstance(a[0], Judgement):
        left = {j.id: j.correct for j in a}  # type: ignore[union-attr]
        right = {j.id: j.correct for j in b}  # type: ignore[union-attr]
        ids = [i for i in left if i in right]
        xs, ys = [left[i] for i in ids], [right[i] for i in ids]
    else:
        if len(a) != len(b):
            raise RagdxError(f"{len(a)} verdicts against {len(b)}", field="agreement")
        xs, ys = [bool(x) for x in a], [bool(y) for y in b]
    n = len(xs)
    table = {"both_correct": 0, "a_correct_b_incorrect": 0, "a_incorrect_b_correct": 0, "both_incorrect": 0}
    for x, y in zip(xs, ys, strict=True):
        key = ("both_correct" if y else "a_correct_b_incorrect") if x else (
            "a_incorrect_b_correct" if y else "both_incorrect")
        table[key] += 1
    agree = table["both_correct"] + table["both_incorrect"]
    po = agree / n if n else float("nan")
    pa, pb = (sum(xs) / n, sum(ys) / n) if n else (0.0, 0.0)
    pe = pa * pb + (1 - pa) * (1 - pb)
    kappa = (po - pe) / (1 - pe) if n and pe < 1 else (1.0 if n else float("nan"))
    return JudgeAgreement(a=names[0], b=names[1], n=n, agree=agree, agreement=po, kappa=kappa,
                          a_correct_rate=pa, b_correct_rate=pb, table=table)


def agreement_markdown(result: JudgeAgreement) -> str:
    t, a, b = result.table, result.a, result.b
    return "\n".join([
        f"{a} vs {b}: {result.agree}/{result.n} agree ({result.agreement:.3f}), "
        f"Cohen's kappa {result.kappa:.3f}",
        "",
        f"| {a} \\ {b} | Correct | Incorrect |",
        "|---|---:|---:|",
        f"| Correct | {t['both_correct']} | {t['a_correct_b_incorrect']} |",
        f"| Incorrect | {t['a_incorrect_b_correct']} | {t['both_incorrect']} |",
    ])
