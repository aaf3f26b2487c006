"""The wording of the question kinds (:mod:`ragdx.gen.kinds`) in every built-in style.

Each kind gives four pieces: a direct question (``interrogative``), a command (``directive``),
a fragment (``short``) and an indirect question (what ``formal`` and ``long`` wrap); ``casual``
is the question in a chat message's register. Slots are ``{0}``, ``{1}``: the values that fill a
question, already written as a person writes them (``the customer 'Atelier graphique'``, ``order
10100``, ``March 2003``), so a text never carries a table's or a column's spelling.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

__all__ = ["Pieces", "styled"]

#: words a long query needs at least (the style's own rule, see ragdx.gen.verbalise.BUILTIN_STYLES)
LONG_MIN_WORDS = 30


@dataclass(frozen=True, slots=True)
class Pieces:
    """One question in its four forms (no style decided yet)."""

    question: str  # "Which orders were placed in {0}?"
    command: str  # "List the orders placed in {0}."
    fragment: str  # "orders placed {0}"
    indirect: str  # "which orders were placed in {0}"


def _casual(question: str) -> str:
    text = question[:1].lower() + question[1:]
    for full, short in (("what is ", "what's "), ("which is ", "which's "), ("who is ", "who's ")):
        if text.startswith(full):
            text = short + text[len(full):]
    return "hey, " + text


#: openers of a long query; one is chosen by the question's own text, so a dataset's long queries
#: do not all begin alike while each question keeps its one wording
_LONG_OPENERS = (
    "I am putting together a short summary for a colleague who asked me about this earlier today, and since I "
    "want to be sure that every figure in it is right, could you tell me {q}, according to the records that you "
    "have?",
    "Our team is reviewing the figures before the quarterly meeting, and because one of the questions that came "
    "up is still open, I would like to know {q}, as far as the records you hold can tell.",
    "While I was preparing the notes for tomorrow's planning session with the other department, I realised that "
    "nobody had checked this yet, so could you please find out {q} from the records you have?",
)


def _long(indirect: str) -> str:
    pick = int(hashlib.sha256(indirect.encode()).hexdigest()[:8], 16) % len(_LONG_OPENERS)
    text = _LONG_OPENERS[pick].replace("{q}", indirect)
    # the style's rule: at least 30 words besides the values (a slot counts as none)
    if len(text.replace("{0}", "").replace("{1}", "").split()) < LONG_MIN_WORDS:
        text = "Before a meeting with the rest of the team next week, " + text[0].lower() + text[1:]
    return text


def styled(pieces: Pieces) -> dict[str, str]:
    """The text of ``pieces`` in each built-in style (the styles of
    :data:`ragdx.gen.verbalise.BUILTIN_STYLES`)."""
    return {
        "short": pieces.fragment,
        "long": _long(pieces.indirect),
        "interrogative": pieces.question,
        "directive": pieces.command,
        "formal": f"I would be grateful if you could inform me {pieces.indirect}.",
        "casual": _casual(pieces.question),
    }


# ----------------------------------------------------------------------------- per kind


def list_pieces(items: str, clause: str, short: str) -> Pieces:
    """``items`` plural ("orders"); ``clause`` a relative clause ("belong to {0}"); ``short`` the
    fragment's tail ("of {0}")."""
    return Pieces(f"Which {items} {clause}?", f"List the {items} that {clause}.", f"{items} {short}",
                  f"which {items} {clause}")


def count_pieces(items: str, clause: str, short: str) -> Pieces:
    return Pieces(f"How many {items} {clause}?", f"Give the number of {items} that {clause}.",
                  f"number of {items} {short}", f"how many {items} {clause}")


def is_plural_measure(measure: str) -> bool:
    """A measure counted in units it names ("units in stock", "credits"): one has *more* of it,
    not a *higher* one, and its total is "how many"."""
    head = measure.split()[0] if measure.split() else ""
    return len(head) > 3 and head.islower() and head.endswith("s") and not head.endswith(("ss", "us", "is"))


def _best(measure: str, most: str) -> str:
    """ "the highest unit price", "the most credits" (``most``: highest or lowest)."""
    if is_plural_measure(measure):
        return f"the {'most' if most == 'highest' else 'fewest'} {measure}"
    return f"the {most} {measure}"


def total_pieces(measure: str, items: str, clause: str, short: str) -> Pieces:
    if is_plural_measure(measure):
        return Pieces(f"How many {measure} do the {items} that {clause} have in total?",
                      f"Give the total number of {measure} of the {items} that {clause}.",
                      f"total {measure}, {items} {short}",
                      f"how many {measure} the {items} that {clause} have in total")
    return Pieces(f"What is the total {measure} of the {items} that {clause}?",
                  f"Give the total {measure} of the {items} that {clause}.",
                  f"total {measure}, {items} {short}",
                  f"what the total {measure} of the {items} that {clause} is")


def extreme_pieces(item: str, measure: str, most: str) -> Pieces:
    best = _best(measure, most)
    return Pieces(f"Which {item} has {best}?", f"Name the {item} with {best}.",
                  f"{item} with {best.removeprefix('the ')}", f"which {item} has {best}")


def scoped_extreme_pieces(item: str, items: str, clause: str, short: str, measure: str, most: str) -> Pieces:
    best = _best(measure, most)
    return Pieces(f"Which of the {items} that {clause} has {best}?",
                  f"Name the {item} with {best} among the {items} that {clause}.",
                  f"{items} {short}: {best.removeprefix('the ')}",
                  f"which of the {items} that {clause} has {best}")


def date_extreme_pieces(item: str, predicate: str, short: str) -> Pieces:
    """``predicate``: "was hired first", "has the latest first intake"; ``short``: "hired first"."""
    return Pieces(f"Which {item} {predicate}?", f"Name the {item} that {predicate}.", f"{item} {short}",
                  f"which {item} {predicate}")


def scoped_date_extreme_pieces(item: str, items: str, clause: str, tail: str, predicate: str, short: str
                               ) -> Pieces:
    return Pieces(f"Which of the {items} that {clause} {predicate}?",
                  f"Name the {item} that {predicate} among the {items} that {clause}.",
                  f"{items} {tail}: {short}", f"which of the {items} that {clause} {predicate}")


def comparison_pieces(measure: str, first: str, second: str) -> Pieces:
    more = f"more {measure}" if is_plural_measure(measure) else f"the higher {measure}"
    return Pieces(f"Which has {more}, {first} or {second}?",
                  f"Tell me which has {more}: {first} or {second}.",
                  f"{more.removeprefix('the ')}: {first} or {second}",
                  f"which has {more}, {first} or {second}")


def time_list_pieces(items: str, when: str) -> Pieces:
    """``when``: "were placed in {0}" or "have a first intake in {0}"."""
    bare = when.removeprefix("were ").removeprefix("have a ").replace(" in ", " ")
    return Pieces(f"Which {items} {when}?", f"List the {items} that {when}.", f"{items} {bare}",
                  f"which {items} {when}")


def time_count_pieces(items: str, when: str) -> Pieces:
    bare = when.removeprefix("were ").removeprefix("have a ").replace(" in ", " ")
    return Pieces(f"How many {items} {when}?", f"Give the number of {items} that {when}.",
                  f"number of {items} {bare}", f"how many {items} {when}")
