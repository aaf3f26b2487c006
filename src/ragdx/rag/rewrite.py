"""Follow-ups written out in full: a conversation's turn rewritten into a question that stands alone.

"And who is their coordinator?" cannot be searched: it names nothing. The offline rewrite
(:func:`rewrite_followup`) replaces the pronoun or the ellipsis with the entity the history
last named: the one named in the first question ("programme 'Data Science'") for the first
follow-up, and afterwards the previous reply (the row the previous follow-up led to). With an
LLM (:func:`arewrite_followup`), the model is asked for the standalone question, and the
offline rewrite stands in when its reply is empty. Either is deterministic for the same
history, so a run can be resumed and compared.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["named_entity", "asked_noun", "rewrite_followup", "arewrite_followup", "REWRITE_PROMPT"]

#: a name as questions write it: a noun (one or two words) then a quoted name (an apostrophe inside a
#: word, "Gustaf's", is not its end) or a number
_NAMED = re.compile(r"\b([A-Za-z][\w-]*(?: [A-Za-z][\w-]*)?) ('(?:[^']|'(?=\w))+'|\"[^\"]+\"|\d+)")
_STOP = frozenset({"of", "the", "for", "about", "on", "in", "is", "me", "and", "what", "who", "a", "an", "to"})
#: what a phrase stops before: a verb, a filler or punctuation
_END = r"(?=\s+(?:is|are|was|as|then|too|please|if|since|so)\b|\s*[,.?!:;]|\s*$)"
_PRONOUN = re.compile(rf"\b(?:its|their|his|her)\s+([a-z][\w ]*?){_END}", re.I)
_ELLIPSIS = re.compile(rf"\bthe\s+([a-z][\w ]*?){_END}", re.I)
_FILLER = re.compile(r"^(?:and|ok|also|now|then|so)\b[\s,]*", re.I)
#: words a bare noun phrase ("building?") never holds
_NOT_NOUNS = frozenset({"what", "who", "where", "which", "when", "how", "is", "are", "it", "they", "he", "she"})
#: a pronoun as the subject, with its verb ("Where is it located?", "Where are they based?")
_SUBJECT = re.compile(r"\b(?:is it|are they|is he|is she)\b", re.I)


def named_entity(text: str) -> str | None:
    """The last entity a question names (``course 'Ancient Philosophy'``, ``order 10248``)."""
    found = None
    for m in _NAMED.finditer(text):
        words = [w for w in m.group(1).split() if w.lower() not in _STOP]
        if words:
            found = f"{' '.join(words)} {m.group(2)}"
    return found


def asked_noun(query: str) -> str | None:
    """What a follow-up asks for: the noun after its pronoun ("their coordinator"), else after
    an ellipsis's last article ("And the building?"), else a bare phrase of at most three words."""
    m = _PRONOUN.search(query)
    if m:
        return m.group(1).strip()
    # the last article: an ellipsis comes at the end ("before the meeting: what about the building?")
    found = list(_ELLIPSIS.finditer(query))
    if found:
        return found[-1].group(1).strip()
    bare = _FILLER.sub("", query.strip()).strip(" ?.!")
    words = bare.lower().split()
    # a short question ("Where is it?") is no noun: the subject rule of rewrite_followup takes it
    return bare.lower() if bare and len(words) <= 3 and not set(words) & _NOT_NOUNS else None


def _referent(history: Sequence[Mapping[str, Any]]) -> str | None:
    """The entity a follow-up points back to: the first question's named entity for the first
    follow-up; the previous reply afterwards (the previous follow-up led to that row)."""
    if not history:
        return None
    if len(history) == 1:
        return named_entity(str(history[0].get("query", "")))
    answer = str(history[-1].get("answer") or "").strip()
    return answer or named_entity(str(history[-1].get("query", "")))


def rewrite_followup(query: str, history: Sequence[Mapping[str, Any]]) -> str:
    """``query`` standing alone: unchanged without history, or when it names an entity itself
    or nothing it asks for can be told; otherwise "What is the <noun> of <entity>?", or for a
    question whose subject is a pronoun, the question with the entity in its place ("Where is
    Faculty of Humanities located?")."""
    if not history or named_entity(query):
        return query
    entity, noun = _referent(history), asked_noun(query)
    if not entity:
        return query
    if noun:
        return f"What is the {noun} of {entity}?"
    # no noun asked: a pronoun is the subject ("Where are they based?"): the entity takes its place
    return _SUBJECT.sub(lambda m: f"is {entity}", query, count=1)


#: what the model is asked: the conversation, then the follow-up to write out in full
REWRITE_PROMPT = ("Rewrite the user's last question so that it can be understood without the conversation: "
                  "replace every pronoun and every omitted noun with the entity it refers to. Reply with the "
                  "rewritten question only.")


async def arewrite_followup(query: str, history: Sequence[Mapping[str, Any]], llm: Any, ctx: Any = None) -> str:
    """The model's standalone question (``llm``: a :class:`ragdx.llm.LLM`); the offline rewrite
    when it replies nothing. Tokens go to ``ctx`` (a ``QueryContext``) like the generator's."""
    if not history:
        return query
    turns = "\n".join(f"User: {h.get('query', '')}\nAssistant: {h.get('answer', '')}" for h in history)
    completion = await llm.complete([{"role": "system", "content": REWRITE_PROMPT},
                                     {"role": "user", "content": f"{turns}\nUser: {query}\n\nRewritten question:"}])
    if ctx is not None:
        ctx.add_usage(completion)
    text = completion.text.strip().strip('"').strip()
    return text or rewrite_followup(query, history)
