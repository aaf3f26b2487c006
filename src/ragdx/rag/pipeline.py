"""A RAG pipeline: corpus -> chunker -> (filter) -> retriever -> generator, as a ``System``.

The pipeline's configuration is its components' constructor arguments, so it is written to and
read from YAML without loss::

    name: er
    corpus: null              # a kb directory, {id: text} JSON or JSONL; or given in code
    top_k: 5
    chunker:   {type: whole_document, params: {}}
    filter:    {type: entity_filter, params: {method: fuzzy, ...}}    # optional
    retriever: {type: ensemble, params: {retrievers: [...], fusion: rank, ...}}
    generator: {type: extractive, params: {...}}
    llm:                      # optional variant, deep-merged over the above with variant="llm"
      generator: {type: llm, params: {llm: {model: gpt-4o-mini}, shots: 3, examples: null}}

Indexes are built once, on first use; ``answer`` never raises for a failed query.
"""

from __future__ import annotations

import copy
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from ragdx.errors import RagdxError
from ragdx.rag.chunking import Chunker, WholeDocumentChunker
from ragdx.rag.corpus import Corpus, build_component, load_corpus
from ragdx.rag.filtering import EntityFilter
from ragdx.rag.generators import ExtractiveReader, Generator
from ragdx.rag.retrievers import (
    BM25Retriever,
    DatasetReformulator,
    MultiQueryRetriever,
    QueryContext,
    Retriever,
)
from ragdx.rag.types import RetrievedContext, SystemInput, SystemOutput

CONFIG_DIR = Path(__file__).with_name("configs")
PAPER_CONFIGS = ("er", "cpr", "icl", "icl-er", "mq-er", "mq-cpr", "mq-cpr-icl", "mq-icl-er")
_KEYS = ("name", "description", "corpus", "top_k", "chunker", "filter", "retriever", "generator", "llm")


class Pipeline:
    """``Pipeline(name, corpus, chunker, retriever, generator, filter=None, top_k=5)``.

    ``corpus`` is a ``Corpus``, a path, or None to be set later (``pipeline.corpus = ...``).
    ``alternatives`` (query -> other phrasings) feeds an offline multi-query retriever."""

    def __init__(self, name: str, corpus: Corpus | str | Path | None = None, chunker: Chunker | None = None,
                 retriever: Retriever | None = None, generator: Generator | None = None,
                 filter: EntityFilter | None = None, top_k: int = 5, *, description: str | None = None,
                 alternatives: Mapping[str, Sequence[str]] | None = None,
                 variants: Mapping[str, Any] | None = None):
        if not isinstance(top_k, int) or top_k < 1:
            raise RagdxError("must be a positive integer", field="top_k")
        self.name = name
        self.description = description
        self.chunker = build_component(chunker or WholeDocumentChunker(), field="chunker", expect=Chunker)
        self.retriever = build_component(retriever or BM25Retriever(), field="retriever", expect=Retriever)
        self.generator = build_component(generator or ExtractiveReader(), field="generator", expect=Generator)
        self.filter: EntityFilter | None = (
            None if filter is None else build_component(filter, field="filter", expect=EntityFilter))
        self.top_k = top_k
        self.variants = copy.deepcopy(dict(variants or {}))
        self._corpus: Corpus | None = None
        self._built = False
        self._build_lock = threading.Lock()
        self.corpus = corpus
        if alternatives:
            self.set_alternatives(alternatives)

    # -- corpus and index
    @property
    def corpus(self) -> Corpus | None:
        return self._corpus

    @corpus.setter
    def corpus(self, value: Corpus | str | Path | None) -> None:
        self._corpus = load_corpus(value) if isinstance(value, str | Path) else value
        self._built = False

    def build(self) -> Pipeline:
        """Chunk and index the corpus (done once; ``answer`` calls it on first use)."""
        with self._build_lock:
            if not self._built:
                self._build()
        return self

    def _build(self) -> None:
        if self._corpus is None:
            raise RagdxError("no corpus: give one in the config ('corpus') or in code", source=self.name,
                             field="corpus")
        self.retriever.build(self.chunker.chunk(self._corpus))
        if self.filter is not None:
            self.filter.fit(self._corpus)
        self._built = True

    def prepare(self, queries: Sequence[str]) -> None:
        """Let components batch per-query work over the queries about to be asked (the runner
        calls this once per invocation; answers are the same without it): the index is built,
        the generator and then the retrievers embed the queries in batches (the second finds
        the first's vectors in the cache), and when the run will retrieve more contexts than
        the corpus has units, the generator embeds the corpus's sentences in one pass rather
        than dozens of small calls as contexts come up."""
        queries = list(queries)
        if not queries:
            return
        prepare = getattr(self.generator, "prepare", None)
        if callable(prepare):
            prepare(queries)
        try:
            self.build()
            self.retriever.prepare(queries)
        except Exception:
            # Not lost: answer() builds and embeds again and records the failure on every
            # query, as it would have without prepare.
            return
        passages = getattr(self.generator, "prepare_passages", None)
        units = self.retriever.units
        if callable(passages) and len(units) <= len(queries) * self.top_k:
            passages([u.text for u in units])

    def set_alternatives(self, mapping: Mapping[str, Sequence[str]]) -> None:
        """Give offline reformulations to every dataset reformulator in the retriever tree."""
        found = False
        for r in _walk(self.retriever):
            if isinstance(r, MultiQueryRetriever) and isinstance(r.reformulator, DatasetReformulator):
                r.reformulator.set_alternatives(mapping)
                found = True
        if not found:
            raise RagdxError("this pipeline has no offline multi-query retriever to give alternatives to",
                             source=self.name, field="retriever")

    # -- running
    async def aretrieve(self, query: str, ctx: QueryContext | None = None) -> list[RetrievedContext]:
        self.build()
        allowed = None if self.filter is None else await self.filter.allowed(query, ctx)
        found = await self.retriever.aretrieve(query, self.top_k, allowed, ctx)
        if allowed is not None and self.filter is not None and self.filter.fill and len(found) < self.top_k:
            # the entity's documents first, the free slots from the unfiltered ranking (EntityFilter)
            seen = {c.id for c in found}
            rest = await self.retriever.aretrieve(query, self.top_k, None, ctx)
            found += [c for c in rest if c.id not in seen][: self.top_k - len(found)]
        return found

    def retrieve(self, query: str, ctx: QueryContext | None = None) -> list[RetrievedContext]:
        from ragdx.llm import run_sync

        return run_sync(self.aretrieve(query, ctx))

    async def answer(self, item: SystemInput) -> SystemOutput:
        start = time.perf_counter()
        alts = (item.metadata or {}).get("alternatives")
        ctx = QueryContext(alternatives=list(alts) if alts is not None else None)
        contexts: list[RetrievedContext] = []
        answer: str | None = None
        error: str | None = None
        rewritten: str | None = None
        try:
            query = item.query
            if item.history:
                # a follow-up is searched and answered as the question it stands for
                query = rewritten = await self.rewrite(item.query, item.history, ctx)
            contexts = await self.aretrieve(query, ctx)
            answer = await self.generator.generate(query, contexts, ctx)
        except Exception as exc:  # the System protocol: a failed query is recorded, never raised
            error = f"{type(exc).__name__}: {exc}".splitlines()[0]
        return SystemOutput(id=item.id, query=item.query, answer=answer, contexts=contexts,
                            latency_s=time.perf_counter() - start, prompt_tokens=ctx.prompt_tokens,
                            completion_tokens=ctx.completion_tokens, error=error, rewritten_query=rewritten)

    async def rewrite(self, query: str, history: Sequence[Mapping[str, Any]], ctx: QueryContext | None = None) -> str:
        """A follow-up written out in full (:mod:`ragdx.rag.rewrite`): by the generator's language
        model when it has one, else by replacing the pronoun or ellipsis with the entity the
        history last named."""
        from ragdx.rag.rewrite import arewrite_followup, rewrite_followup

        llm = getattr(self.generator, "client", None) if getattr(self.generator, "llm", None) else None
        if llm is not None:
            return await arewrite_followup(query, history, llm, ctx)
        return rewrite_followup(query, history)

    def describe(self) -> dict[str, Any]:
        d = self.to_dict()
        if self._corpus is not None:
            d["corpus_fingerprint"] = self._corpus.fingerprint
            d["corpus_documents"] = len(self._corpus)
        return d

    # -- configuration
    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name}
        if self.description is not None:
            d["description"] = self.description
        d["corpus"] = None if self._corpus is None else self._corpus.source
        d["top_k"] = self.top_k
        d["chunker"] = self.chunker.to_dict()
        d["filter"] = None if self.filter is None else self.filter.to_dict()
        d["retriever"] = self.retriever.to_dict()
        d["generator"] = self.generator.to_dict()
        if self.variants:
            d.update(copy.deepcopy(self.variants))
        return d

    def to_yaml(self, path: str | Path | None = None) -> str:
        text = yaml.safe_dump(self.to_dict(), sort_keys=False, allow_unicode=True)
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text

    @classmethod
    def from_dict(cls, config: Mapping[str, Any], *, corpus: Corpus | str | Path | None = None,
                  variant: str | None = None, overrides: Mapping[str, Any] | None = None,
                  source: str | None = None) -> Pipeline:
        """Build from a config mapping. ``variant`` ("llm") deep-merges that section over the rest;
        ``overrides`` are deep-merged last; ``corpus`` replaces the config's."""
        if not isinstance(config, Mapping):
            raise RagdxError("a pipeline config must be a mapping", source=source)
        for key in config:
            if key not in _KEYS:
                raise RagdxError(f"unknown key {key!r} (expected {', '.join(_KEYS)})", source=source, field=str(key))
        variants = {"llm": config["llm"]} if config.get("llm") is not None else {}
        cfg = {k: v for k, v in config.items() if k != "llm"}
        if variant is not None:
            if variant not in variants:
                raise RagdxError(f"no {variant!r} variant in this config", source=source, field=variant)
            if not isinstance(variants[variant], Mapping):
                raise RagdxError("a variant must be a mapping of overrides", source=source, field=variant)
            cfg = deep_merge(cfg, variants[variant])
        if overrides:
            cfg = deep_merge(cfg, overrides)
        name = cfg.get("name") or (Path(source).stem if source else None)
        if not isinstance(name, str) or not name:
            raise RagdxError("a pipeline needs a name", source=source, field="name")
        if corpus is None and cfg.get("corpus") is not None:
            corpus = _resolve(cfg["corpus"], source)
        components = {}
        for key, required in (("chunker", False), ("retriever", True), ("generator", False), ("filter", False)):
            spec = cfg.get(key)
            if spec is None:
                if required:
                    raise RagdxError("missing", source=source, field=key)
                continue
            components[key] = build_component(spec, source=source, field=key)
        try:
            return cls(name, corpus, top_k=cfg.get("top_k", 5), description=cfg.get("description"),
                       variants=variants, **components)
        except RagdxError as exc:
            if exc.source is None:
                raise RagdxError(exc.message, source=source, field=exc.field) from None
            raise

    @classmethod
    def from_yaml(cls, path: str | Path, *, corpus: Corpus | str | Path | None = None, variant: str | None = None,
                  overrides: Mapping[str, Any] | None = None) -> Pipeline:
        p = Path(path)
        try:
            config = yaml.safe_load(p.read_text(encoding="utf-8"))
        except OSError as exc:
            raise RagdxError(f"cannot read the pipeline config ({exc.strerror})", source=str(p)) from None
        except yaml.YAMLError as exc:
            line = getattr(getattr(exc, "problem_mark", None), "line", None)
            raise RagdxError(f"not valid YAML ({getattr(exc, 'problem', exc)})", source=str(p),
                             field=None if line is None else f"line {line + 1}") from None
        return cls.from_dict(config, corpus=corpus, variant=variant, overrides=overrides, source=str(p))


def paper_config(name: str, **kwargs: Any) -> Pipeline:
    """One of the paper's eight configurations (``er``, ``cpr``, ..., ``mq-icl-er``)."""
    path = CONFIG_DIR / f"{name}.yaml"
    if not path.exists():
        raise RagdxError(f"unknown configuration (known: {', '.join(PAPER_CONFIGS)})", field=name)
    return Pipeline.from_yaml(path, **kwargs)


def deep_merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """``over`` merged into a copy of ``base``: mappings merge key by key, anything else replaces.
    A component whose ``type`` changes is replaced whole, so no stale params leak across types."""
    out = copy.deepcopy(dict(base))
    for k, v in over.items():
        if (isinstance(v, Mapping) and isinstance(out.get(k), Mapping)
                and not ("type" in v and v.get("type") != out[k].get("type"))):
            out[k] = deep_merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def _resolve(value: Any, source: str | None) -> str:
    if not isinstance(value, str):
        raise RagdxError("expected a path", source=source, field="corpus")
    p = Path(value).expanduser()
    if not p.is_absolute() and source is not None and not p.exists():
        p = Path(source).parent / p
    return str(p)


def _walk(r: Any) -> Iterable[Any]:
    yield r
    for child in r._children() if isinstance(r, Retriever) else ():
        yield from _walk(child)


# ----------------------------------------------------------------------------- hit rate


def hit_rates(pipeline: Pipeline, queries_with_gold: Iterable[Any], ks: Sequence[int] = (1, 5)) -> dict[str, Any]:
    """Share of queries with a gold document among the first k retrieved contexts, for each k.

    ``queries_with_gold``: (query, gold ids) pairs, (query, gold ids, alternatives) triples,
    ``QARecord``s or GRAMMAR result dicts. Queries none of whose gold documents is in the corpus
    (knowledge-base gaps) cannot be hit by any retriever: they are counted in ``n`` but the rates
    are over ``n_answerable``. The pipeline's ``top_k`` must be at least max(ks)."""
    if pipeline.top_k < max(ks):
        raise RagdxError(f"top_k {pipeline.top_k} is smaller than k={max(ks)}", field="top_k")
    pipeline.build()
    corpus = pipeline.corpus
    assert corpus is not None  # build() raised otherwise
    hits = dict.fromkeys(ks, 0)
    n = answerable = 0
    for item in queries_with_gold:
        query, gold, alts = _query_gold(item)
        n += 1
        if not any(g in corpus for g in gold):
            continue
        answerable += 1
        ids = [c.id for c in pipeline.retrieve(query, QueryContext(alternatives=alts))]
        for k in ks:
            hits[k] += any(g in ids[:k] for g in gold)
    out: dict[str, Any] = {"n": n, "n_answerable": answerable}
    for k in ks:
        out[f"hit@{k}"] = hits[k] / answerable if answerable else float("nan")
    return out


def _query_gold(item: Any) -> tuple[str, list[str], list[str] | None]:
    if isinstance(item, tuple | list):
        if len(item) == 3:
            return item[0], list(item[1]), item[2]
        return item[0], list(item[1]), None
    if isinstance(item, Mapping):
        return item["query"], list(item.get("gold_document_ids") or item.get("true_document_ids") or []), None
    return item.query, list(item.gold_document_ids), None
