"""Generators: the answer from the retrieved contexts.

``extractive`` answers with the context sentence most similar to the query (MiniLM cosine,
ties to the earlier sentence): deterministic, no LLM, so every configuration runs without a key.
``llm`` prompts a chat model with the contexts and the query, optionally after k in-context
examples chosen once to be semantically diverse (paper §4.3: three QA pairs with "broad semantic
diversity to prevent model bias towards the domains of the examples").
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ragdx.errors import RagdxError
from ragdx.rag.corpus import Component, register
from ragdx.rag.retrievers import DEFAULT_CACHE_DIR, QueryContext, embed_ahead, shared_embedder
from ragdx.rag.types import RetrievedContext

if TYPE_CHECKING:
    from ragdx.llm.client import ChatLLM

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")


def sentences(text: str) -> list[str]:
    """Sentences and lines, markdown emphasis stripped; fragments under 3 word characters dropped."""
    out = []
    for piece in _SENTENCE_END.split(text):
        s = piece.strip().strip("*#").strip()
        if len(re.findall(r"\w", s)) >= 3:
            out.append(s)
    return out


class Generator(Component):
    async def generate(self, query: str, contexts: Sequence[RetrievedContext],
                       ctx: QueryContext | None = None) -> str:
        raise NotImplementedError


@register("extractive")
class ExtractiveReader(Generator):
    """The context sentence with the highest cosine similarity to the query; "" without contexts.
    Only the first ``max_sentences`` sentences (in context order) are considered."""

    def __init__(self, model_path: str | None = None, cache_dir: str | None = DEFAULT_CACHE_DIR,
                 max_sentences: int = 200):
        self.model_path = model_path
        self.cache_dir = cache_dir
        self.max_sentences = max_sentences
        # Not configuration (to_dict takes __init__'s names): query -> vector, filled by
        # prepare(); sentence -> vector and context text -> its sentences, filled as they are
        # met, so a context retrieved again costs neither a split nor a cache look-up (a
        # SHA-256 and a SQLite query per sentence). Both memos stop growing at MEMO_MAX.
        self._query_vectors: dict[str, np.ndarray] = {}
        self._sentence_vectors: dict[str, np.ndarray] = {}
        self._sentences: dict[str, list[str]] = {}

    #: entries per memo (~1.5 KB a vector): a reader over a large corpus stays bounded
    MEMO_MAX = 100_000

    def prepare(self, queries: Sequence[str]) -> None:
        """Embed the queries about to be asked, in batches, before the first one is.

        One model call per query costs ~13 ms of fixed overhead on a CPU, most of a short
        query's time; a batch of 256 costs little more than one. ``generate`` then takes the
        query's vector from here (and the disk cache has it for the next run and for a dense
        retriever sharing the model). About 1.5 KB a query, for at most ``MEMO_MAX`` queries
        (see :func:`ragdx.rag.retrievers.embed_ahead`)."""
        embed_ahead(shared_embedder(self.model_path, self.cache_dir), queries, self._query_vectors, self.MEMO_MAX)

    def prepare_passages(self, texts: Sequence[str]) -> None:
        """Embed, in one pass, the sentences of passages likely to be retrieved (a pipeline
        gives its whole corpus when the run will retrieve more contexts than it has units).

        Met one query at a time, a corpus's sentences go to the model in dozens of small
        calls as new contexts come up; in one pass they are batched by length. Answers are
        the same either way (a sentence's vector does not depend on when it is embedded,
        up to float rounding)."""
        todo = list(dict.fromkeys(s for t in texts for s in self._split(t) if s not in self._sentence_vectors))
        if todo:
            self._remember(todo, shared_embedder(self.model_path, self.cache_dir).embed(todo))

    def _split(self, text: str) -> list[str]:
        out = self._sentences.get(text)
        if out is None:
            out = sentences(text)
            if len(self._sentences) < self.MEMO_MAX:
                self._sentences[text] = out
        return out

    def _remember(self, texts: Sequence[str], vectors: np.ndarray) -> None:
        room = self.MEMO_MAX - len(self._sentence_vectors)
        if room > 0:
            self._sentence_vectors.update(zip(texts[:room], vectors[:room], strict=True))

    def _vectors(self, cands: list[str]) -> np.ndarray:
        missing = [s for s in cands if s not in self._sentence_vectors]
        if not missing:
            return np.vstack([self._sentence_vectors[s] for s in cands])
        new = shared_embedder(self.model_path, self.cache_dir).embed(missing)
        self._remember(missing, new)
        fresh = dict(zip(missing, new, strict=True))
        return np.vstack([fresh[s] if s in fresh else self._sentence_vectors[s] for s in cands])

    async def generate(self, query: str, contexts: Sequence[RetrievedContext],
                       ctx: QueryContext | None = None) -> str:
        cands: list[str] = []
        seen: set[str] = set()
        for c in contexts:
            for s in self._split(c.text):
                if s not in seen:
                    seen.add(s)
                    cands.append(s)
        cands = cands[: self.max_sentences]
        if not cands:
            return ""
        q = self._query_vectors.get(query)
        if q is None:
            q = shared_embedder(self.model_path, self.cache_dir).embed([query])[0]
        sims = self._vectors(cands) @ q
        return cands[int(np.argmax(sims))]  # argmax keeps the first of equal maxima


DEFAULT_SYSTEM_PROMPT = (
    "You answer questions using only the given context. Answer briefly with the requested value(s). "
    "If the context does not contain the answer, say that you do not know."
)


def load_examples(path: str | Path) -> list[dict[str, str]]:
    """QA pairs from a ragdx dataset directory (``records.jsonl``: query, answer_text), JSONL or a
    JSON list of objects with ``query``/``question`` and ``answer``/``answer_text``."""
    p = Path(path)
    if p.is_dir():
        p = p / "records.jsonl"
    try:
        text = p.read_text(encoding="utf-8")
        rows = ([json.loads(ln) for ln in text.splitlines() if ln.strip()] if p.suffix == ".jsonl"
                else json.loads(text))
    except (OSError, ValueError) as exc:
        raise RagdxError(f"cannot read the in-context examples ({exc})", source=str(p), field="examples") from None
    out = []
    for r in rows if isinstance(rows, list) else []:
        q = r.get("query", r.get("question")) if isinstance(r, dict) else None
        a = r.get("answer_text", r.get("answer")) if isinstance(r, dict) else None
        if isinstance(q, str) and a not in (None, ""):
            pair = {"query": q, "answer": a if isinstance(a, str) else json.dumps(a, ensure_ascii=False)}
            if pair not in out:
                out.append(pair)
    if not out:
        raise RagdxError("no question/answer pairs found", source=str(p), field="examples")
    return out


def diverse_examples(pool: Sequence[dict[str, str]], k: int, vectors: np.ndarray) -> list[dict[str, str]]:
    """k examples spread over the pool's embedding space: start at the medoid-like example nearest
    the centroid, then repeatedly add the one farthest (in cosine) from all chosen (farthest-point
    sampling). Deterministic: ties go to the earlier example."""
    if k <= 0 or not pool:
        return []
    centroid = vectors.mean(axis=0)
    chosen = [int(np.argmax(vectors @ centroid))]
    nearest = vectors @ vectors[chosen[0]]
    while len(chosen) < min(k, len(pool)):
        nearest_masked = nearest.copy()
        nearest_masked[chosen] = np.inf
        nxt = int(np.argmin(nearest_masked))
        chosen.append(nxt)
        nearest = np.maximum(nearest, vectors @ vectors[nxt])
    return [pool[i] for i in chosen]


@register("llm")
class LLMGenerator(Generator):
    """Context + query prompt to a chat model. ``shots`` > 0 puts that many diverse QA pairs from
    ``examples`` (a dataset directory or QA file) before the question, as chat turns; an example
    whose question is the query itself is skipped. ``llm`` is an ``LLMConfig`` mapping."""

    def __init__(self, llm: dict[str, Any] | None = None, shots: int = 0, examples: str | None = None,
                 system_prompt: str = DEFAULT_SYSTEM_PROMPT, max_context_chars: int = 12000,
                 model_path: str | None = None, cache_dir: str | None = DEFAULT_CACHE_DIR):
        if shots < 0:
            raise RagdxError("must be 0 or more", field="shots")
        if shots and not examples:
            raise RagdxError("in-context learning needs 'examples' (a dataset directory or QA file)",
                             field="examples")
        self.llm = dict(llm or {})
        self.shots = shots
        self.examples = examples
        self.system_prompt = system_prompt
        self.max_context_chars = max_context_chars
        self.model_path = model_path
        self.cache_dir = cache_dir
        self._client: ChatLLM | None = None
        self._shots: list[dict[str, str]] | None = None

    @property
    def client(self) -> ChatLLM:
        if self._client is None:
            from ragdx.llm import make_llm

            self._client = make_llm(self.llm)
        return self._client

    def chosen_examples(self) -> list[dict[str, str]]:
        """The diverse examples, chosen once (one more than ``shots`` to replace a self-match)."""
        if self._shots is None:
            if not self.shots or self.examples is None:  # __init__ refused shots without examples
                self._shots = []
            else:
                pool = load_examples(self.examples)
                vectors = shared_embedder(self.model_path, self.cache_dir).embed([p["query"] for p in pool])
                self._shots = diverse_examples(pool, self.shots + 1, vectors)
        return self._shots

    def messages(self, query: str, contexts: Sequence[RetrievedContext]) -> list[dict[str, str]]:
        msgs = [{"role": "system", "content": self.system_prompt}]
        shots = [e for e in self.chosen_examples() if e["query"] != query][: self.shots]
        for e in shots:
            msgs.append({"role": "user", "content": f"Question: {e['query']}"})
            msgs.append({"role": "assistant", "content": e["answer"]})
        parts, used = [], 0
        for i, c in enumerate(contexts, 1):
            block = f"[{i}] {c.text.strip()}"
            if used + len(block) > self.max_context_chars:
                block = block[: max(0, self.max_context_chars - used)]
            if not block:
                break
            parts.append(block)
            used += len(block)
        context = "\n\n".join(parts) if parts else "(no context)"
        msgs.append({"role": "user", "content": f"Context:\n{context}\n\nQuestion: {query}"})
        return msgs

    async def generate(self, query: str, contexts: Sequence[RetrievedContext],
                       ctx: QueryContext | None = None) -> str:
        completion = await self.client.complete(self.messages(query, contexts))
        if ctx is not None:
            ctx.add_usage(completion)
        return completion.text.strip()
