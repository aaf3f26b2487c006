"""Pre-retrieval filter (paper §4.2.1): find the entity a query is about, then retrieve only from
that entity's documents.

The paper asks an LLM which study programme a question is about, given the list of programmes,
and matches the answer to the programme names in its vector store by cosine similarity. Here the
entities are, by default, the titles of the corpus's documents (a programme, a project, a
client: one rendered document each), optionally only those of some ``tables``. Offline, the
entity is chosen by fuzzy name matching against the query, which is deterministic and needs no
model; ``method="llm"`` is the paper's prompt. When nothing matches well enough the filter
restricts nothing: a filter that guesses would turn every miss into a wrong context.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections import defaultdict
from typing import TYPE_CHECKING

import numpy as np

from ragdx.errors import RagdxError
from ragdx.rag.corpus import Component, Corpus, register
from ragdx.rag.retrievers import DEFAULT_CACHE_DIR, QueryContext, shared_embedder

if TYPE_CHECKING:
    from ragdx.llm.client import ChatLLM

FILTER_SYSTEM_PROMPT = (
    "The following will be a query by a user about {kind}. I want you to output the {kind} the user is "
    "having questions about. Only output the {kind}!\n"
    "Context: Please note, that we only need the {kind}. Do not self-reference, comment or give any notes. "
    "Only output the {kind}. Here are the possible {kinds}: {entities}"
)

_WORD = re.compile(r"\w+")


def _norm_words(text: str) -> list[str]:
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return _WORD.findall(text)


def fuzzy_score(name: str, query: str, floor: float = 0.0) -> float:
    """How well ``name`` occurs in ``query``, 0..1: the best difflib ratio between the name and
    any run of as many query words (case, accents and punctuation ignored).

    ``floor``: windows whose upper bounds cannot reach it are not scored, and a name that stays
    below it scores 0 (the caller already holds a name that good). The best name is unchanged (0
    of 2,216 demo queries, half of them misspelt, chose another) and the filter costs 2.5x less:
    difflib's ratio() is quadratic, and at 25 ms a query it was most of the er pipeline's time."""
    nw, qw = _norm_words(name), _norm_words(query)
    if not nw or not qw:
        return 0.0
    target = " ".join(nw)
    m = len(nw)
    best = floor
    found = 0.0
    matcher = difflib.SequenceMatcher(None, autojunk=False)
    matcher.set_seq2(target)
    for width in sorted({max(1, m - 1), m, m + 1}):
        for i in range(max(1, len(qw) - width + 1)):
            window = " ".join(qw[i:i + width])
            if window == target:
                return 1.0
            matcher.set_seq1(window)
            # the cheap upper bounds skip most windows before the quadratic ratio()
            if matcher.real_quick_ratio() >= best and matcher.quick_ratio() >= best:
                ratio = matcher.ratio()
                if ratio >= best:
                    best = found = ratio
    return found


@register("entity_filter")
class EntityFilter(Component):
    """``select(query)`` -> the entity name (or None); ``allowed(query)`` -> its document ids.

    ``entities``: names to choose from (default: the documents' titles, or ids when untitled);
    names that are not a document title are matched to the document whose title is most
    cosine-similar (MiniLM). ``tables``: only documents of these tables are entities.
    ``min_score``: below it (fuzzy ratio, or cosine for the LLM's answer) nothing is filtered.
    ``fill``: when the entity's documents give fewer than ``top_k`` contexts, the free slots are
    filled from the unfiltered ranking (the entity's documents always come first). The paper
    filters a corpus of many chunks per study programme, where the entity alone fills the top k
    and ``fill`` changes nothing; over one document per entity (a rendered knowledge base, a CRM)
    a wall would leave four of five slots empty and no way to reach a second hop (the faculty of
    a staff member): on the demo (``ragdx demo``, then ``ragdx run --system er`` and ``ragdx
    evaluate``), every fact a question needs was retrieved for 0.454 of the queries with the wall
    and 0.974 with ``fill``. ``fill: false`` is the wall."""

    def __init__(self, method: str = "fuzzy", entities: list[str] | None = None, tables: list[str] | None = None,
                 min_score: float = 0.8, kind: str = "entity", llm: dict | None = None,
                 model_path: str | None = None, cache_dir: str | None = DEFAULT_CACHE_DIR, fill: bool = True):
        if method not in ("fuzzy", "llm"):
            raise RagdxError(f"unknown method {method!r} (fuzzy or llm)", field="method")
        self.method = method
        self.entities = None if entities is None else [str(e) for e in entities]
        self.tables = None if tables is None else list(tables)
        self.min_score = float(min_score)
        self.kind = kind
        self.llm = None if llm is None else dict(llm)
        self.model_path = model_path
        self.cache_dir = cache_dir
        self.fill = bool(fill)
        self._docs: dict[str, list[str]] = {}
        self._words: dict[str, set[str]] = {}
        self._client: ChatLLM | None = None

    @property
    def names(self) -> list[str]:
        return list(self._docs)

    def fit(self, corpus: Corpus) -> None:
        candidates = [d for d in corpus if self.tables is None or d.table in self.tables]
        by_title: dict[str, list[str]] = defaultdict(list)
        for d in candidates:
            by_title[d.title or d.id].append(d.id)
        if self.entities is None:
            self._docs = dict(by_title)
        else:
            self._docs = self._match_entities(self.entities, by_title)
        self._words = {n: {w for w in _norm_words(n) if len(w) >= 3} for n in self._docs}

    def _match_entities(self, entities: list[str], by_title: dict[str, list[str]]) -> dict[str, list[str]]:
        titles = list(by_title)
        unknown = [e for e in entities if e not in by_title]
        best: dict[str, str] = {}
        if unknown and titles:
            emb = shared_embedder(self.model_path, self.cache_dir)
            sims = emb.embed(unknown) @ emb.embed(titles).T
            best = {e: titles[int(np.argmax(row))] for e, row in zip(unknown, sims, strict=True)}
        return {e: list(by_title[e] if e in by_title else by_title[best[e]]) for e in entities}

    def _fuzzy(self, query: str) -> str | None:
        best_name, best = None, 0.0
        words = {w for w in _norm_words(query) if len(w) >= 3}
        # only names sharing a word of 3+ letters with the query are scored: it keeps the filter
        # at a few candidates per query (a name misspelt in every word is not found)
        candidates = [n for n in self._docs if self._words[n] & words]
        for name in candidates:
            s = fuzzy_score(name, query, floor=best)
            # a longer name that fits as well is the more specific entity ("Master in Finance" over "Finance")
            if s > best or (s == best and best_name is not None and len(name) > len(best_name)):
                best_name, best = name, s
        return best_name if best >= self.min_score else None

    async def select(self, query: str, ctx: QueryContext | None = None) -> str | None:
        if not self._docs:
            raise RagdxError("the filter has no entities (call fit(corpus) first)", field="filter")
        if self.method == "fuzzy":
            return self._fuzzy(query)
        if self._client is None:
            from ragdx.llm import make_llm

            self._client = make_llm(self.llm or {})
        system = FILTER_SYSTEM_PROMPT.format(kind=self.kind, kinds=self.kind + "s", entities="; ".join(self._docs))
        completion = await self._client.complete([{"role": "system", "content": system},
                                                  {"role": "user", "content": query}])
        if ctx is not None:
            ctx.add_usage(completion)
        answer = completion.text.strip()
        if not answer:
            return None
        if answer in self._docs:
            return answer
        # the paper matches the generated name to the known names by cosine similarity
        emb = shared_embedder(self.model_path, self.cache_dir)
        names = list(self._docs)
        sims = emb.embed(names) @ emb.embed([answer])[0]
        i = int(np.argmax(sims))
        return names[i] if float(sims[i]) >= self.min_score else None

    async def allowed(self, query: str, ctx: QueryContext | None = None) -> list[str] | None:
        name = await self.select(query, ctx)
        if ctx is not None:
            ctx.notes["entity"] = name
        return None if name is None else list(self._docs[name])
