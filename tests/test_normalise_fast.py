"""``normalise_text`` joins words with ``" ".join(text.split())`` where it used ``SPACES.sub(" ",
text).strip()`` (issue 24, evaluate at 100k queries): the same text only if ``\\s`` and
``str.split`` know the same whitespace, checked here over every code point."""

from __future__ import annotations

import random
import re
import sys

from ragdx.kb.normalise import SPACES, normalise_text


def test_regex_whitespace_is_str_whitespace():
    regex = [chr(c) for c in range(sys.maxunicode + 1) if SPACES.fullmatch(chr(c))]
    assert regex == [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
    assert "\u00a0" in regex and "\x1c" in regex  # no-break space, file separator: both split on


def _old(text: str) -> str:
    return SPACES.sub(" ", text).strip()


def test_split_join_is_the_regex_on_varied_text():
    spaces = [chr(c) for c in range(sys.maxunicode + 1) if re.fullmatch(r"\s", chr(c))]
    pieces = spaces + ["a", "the", "Ü", "x-y", "é", "  ", "\u200b", "Ⅻ"]
    rng = random.Random(24)
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 14)))
        assert " ".join(text.split()) == _old(text), repr(text)


def test_normalise_text_forms():
    assert normalise_text("The  O'Connell!") == "o connell"
    assert normalise_text("\u00a0 Faculty\tof\u2003Humanities \n") == "faculty of humanities"
    assert normalise_text("   ") == ""


def test_tokens_rewrite_number_words_and_units_and_leave_the_rest():
    from ragdx.kb.normalise import tokens

    # no number word or unit: every token as it is (the fast path)
    assert tokens("Children's Literature is a course") == tokens("children s literature is a course")
    plain = tokens("the course HUM-220 is taught in autumn")
    assert plain and all(t in "the course hum 220 is taught in autumn".split() for t in plain)
    # number words and units still rewritten (the loop)
    assert tokens("twenty one berths") == tokens("21 berths")
    assert tokens("seven") == ["7"] and tokens("one") == ["one"]
