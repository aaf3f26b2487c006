"""Retrievers: keyword overlap, TF-IDF, BM25, dense, and the paper's ensemble, multi-query and
parent-document retrievers built from them.

A retriever is built once over a list of chunks (its *units*) and then ranks unit indices for a
query. Composite retrievers only ever combine rankings of indices, so any retriever can sit
inside any other (multi-query over an ensemble, a parent-document retriever over BM25, ...).
Every ranking is total and deterministic: equal scores are ordered by unit order, which is corpus
order, as GRAMMAR's keyword retriever does.

``allowed`` (a set of document ids, from the pre-retrieval filter) restricts a ranking to the
units of those documents.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ragdx.errors import RagdxError
from ragdx.rag.ann import INDEX_KINDS, HnswIndex, HnswParams, exact_search, faiss_module, top_k_rows
from ragdx.rag.chunking import Chunk
from ragdx.rag.corpus import Component, build_component, register
from ragdx.rag.types import RetrievedContext

if TYPE_CHECKING:
    from ragdx.llm.client import ChatLLM

# the per-user cache every command shares (ragdx.embed.cache_root)
DEFAULT_CACHE_DIR = "user"
RRF_K = 60


@dataclass
class QueryContext:
    """What travels with one query through the components: LLM tokens spent on it, and the
    alternative phrasings a caller supplied (``SystemInput.metadata["alternatives"]``)."""

    alternatives: list[str] | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    notes: dict[str, Any] = field(default_factory=dict)

    def add_usage(self, completion: Any) -> None:
        self.prompt_tokens += int(getattr(completion, "prompt_tokens", 0) or 0)
        self.completion_tokens += int(getattr(completion, "completion_tokens", 0) or 0)


# ----------------------------------------------------------------------------- shared pieces

_EMBEDDERS: dict[tuple, Any] = {}
_EMBEDDERS_LOCK = threading.Lock()


def shared_embedder(model_path: str | None = None, cache_dir: str | None = DEFAULT_CACHE_DIR):
    """One ``Embedder`` per (model, cache) in the process, so eight pipelines load MiniLM once."""
    from ragdx.embed import Embedder

    key = (model_path, str(cache_dir) if cache_dir else None)
    with _EMBEDDERS_LOCK:
        if key not in _EMBEDDERS:
            _EMBEDDERS[key] = Embedder(model_path, cache_dir=cache_dir)
        return _EMBEDDERS[key]


#: texts per ``embed`` call of :func:`embed_ahead`: the vectors of one slice (~75 MB) at a time
AHEAD_SLICE = 50_000


def embed_ahead(embedder: Any, texts: Sequence[str], memo: dict[str, np.ndarray], cap: int) -> None:
    """Embed ``texts`` (queries about to be asked) in batches before the first is asked: the
    first ones missing from ``memo`` into it until it holds ``cap`` vectors (~1.5 KB each), the
    rest only into the embedder's disk cache, where the one-at-a-time look-up later finds them
    (a SQLite read, not a model call). Memory stays bounded at any dataset size: a million
    queries held 1.5 GB of vectors, and ``embed`` returned them all at once. Without a disk
    cache, texts beyond the cap are left to be embedded when asked."""
    todo = [t for t in dict.fromkeys(texts) if t not in memo]
    cached = getattr(embedder, "cache_dir", None) is not None
    for start in range(0, len(todo), AHEAD_SLICE):
        room = cap - len(memo)
        if room <= 0 and not cached:
            return
        part = todo[start:start + AHEAD_SLICE]
        vectors = embedder.embed(part)
        if room > 0:
            memo.update(zip(part[:room], vectors[:room], strict=True))


#: ``top_indices`` selects by group maxima (:func:`ragdx.rag.ann.top_k_rows`) from this many
#: units per wanted index: below it a partition of the whole row is as fast
SELECT_BY_GROUPS = 64


def top_indices(scores: np.ndarray, k: int, mask: np.ndarray | None = None) -> np.ndarray:
    """Indices of the ``k`` best scores, best first, equal scores in index order; masked-out
    indices never appear. Linear time for the selection, so it stays fast on 100k units."""
    idx_all = np.flatnonzero(mask) if mask is not None else None
    s = scores if idx_all is None else scores[idx_all]
    n = len(s)
    if k <= 0 or n == 0:
        return np.zeros(0, dtype=np.int64)
    if k * SELECT_BY_GROUPS <= n:
        # the grouped selection of ragdx.rag.ann: ~5x faster than a full argpartition at 100k
        cand = top_k_rows(s[None, :], k)[0][0]
        return cand if idx_all is None else idx_all[cand]
    if k < n:
        part = np.argpartition(-s, k - 1)[:k]
        thr = s[part].min()
        above = np.flatnonzero(s > thr)
        ties = np.flatnonzero(s == thr)[: k - len(above)]
        cand = np.concatenate([above, ties])
    else:
        cand = np.arange(n)
    cand = cand[np.lexsort((cand, -s[cand]))]
    return cand if idx_all is None else idx_all[cand]


class Retriever(Component):
    """Base: ``build(chunks)`` once, then ``retrieve(query, top_k)``.

    Leaves implement ``scores`` (one number per unit, higher is better); composites override
    ``aranked``. ``units`` are the chunks the indices refer to (parents, for the parent-document
    retriever)."""

    #: rankings kept from a batched ``prepare`` (indices and scores, best first), at most this deep
    PREFETCH_K = 100
    #: ... and for at most this many queries (~0.8 KB each)
    PREFETCH_MAX = 100_000

    def __init__(self) -> None:
        self.units: list[Chunk] = []
        self._doc_ids: np.ndarray = np.array([], dtype=object)  # set with the units
        # query -> (indices, scores) of its best units, filled by a batched prepare; not configuration
        self._prefetched: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    # -- building
    def build(self, chunks: Sequence[Chunk]) -> None:
        self._set_units(list(chunks))
        self._build(self.units)

    def _set_units(self, units: list[Chunk]) -> None:
        if not units:
            raise RagdxError("nothing to index: the corpus has no text", field="corpus")
        self.units = units
        self._doc_ids = np.array([u.doc_id for u in units], dtype=object)
        self._prefetched = {}  # rankings of the units indexed before, if any

    def _build(self, units: list[Chunk]) -> None:
        pass

    @property
    def built(self) -> bool:
        return bool(self.units)

    def _mask(self, allowed: Iterable[str] | None) -> np.ndarray | None:
        if allowed is None:
            return None
        return np.isin(self._doc_ids, list(allowed))

    def _require_built(self) -> None:
        if not self.units:
            raise RagdxError(f"the {self.type_name} retriever has not been built (call build(chunks) first)")

    def prepare(self, queries: Sequence[str]) -> None:
        """Batch per-query work over the queries about to be asked (a dense retriever embeds
        them); rankings are the same without it. Composites pass the queries on."""
        for child in self._children():
            child.prepare(queries)

    def _children(self) -> list[Retriever]:
        one = getattr(self, "retriever", None)
        return [one] if isinstance(one, Retriever) else list(getattr(self, "retrievers", None) or [])

    # -- ranking
    def scores(self, query: str) -> np.ndarray:
        raise NotImplementedError

    def ranked(self, query: str, k: int, allowed: Iterable[str] | None = None,
               ctx: QueryContext | None = None) -> list[tuple[int, float]]:
        self._require_built()
        early = self._from_prefetch(query, k, allowed)
        if early is not None:
            return early
        s = self.scores(query)
        return [(int(i), float(s[i])) for i in top_indices(s, k, self._mask(allowed))]

    def _from_prefetch(self, query: str, k: int, allowed) -> list[tuple[int, float]] | None:
        """The first ``k`` of the query's batched ranking, when prepare made one at least that
        deep (a ranking's first k are its top k: the order is total); None otherwise (a filter,
        a deeper ranking or an unprepared query is ranked one at a time)."""
        found = self._prefetched.get(query) if allowed is None else None
        if found is None or (k > len(found[0]) and len(found[0]) < len(self.units)):
            return None
        idx, val = found
        return [(int(i), float(v)) for i, v in zip(idx[:k], val[:k], strict=True) if i >= 0]

    def _keep_prefetched(self, queries: Sequence[str], idx: np.ndarray, val: np.ndarray) -> None:
        for q, i, v in zip(queries, idx, val, strict=True):
            if len(self._prefetched) >= self.PREFETCH_MAX:
                return
            self._prefetched[q] = (i.astype(np.int32), v.astype(np.float32))

    async def aranked(self, query: str, k: int, allowed: Iterable[str] | None = None,
                      ctx: QueryContext | None = None) -> list[tuple[int, float]]:
        return self.ranked(query, k, allowed, ctx)

    def _contexts(self, ranking: list[tuple[int, float]]) -> list[RetrievedContext]:
        # the context id is the document id: evaluation (hit rate, GRAMMAR's judgement) is on documents
        return [RetrievedContext(self.units[i].doc_id, self.units[i].text, score) for i, score in ranking]

    def retrieve(self, query: str, top_k: int = 5, allowed: Iterable[str] | None = None,
                 ctx: QueryContext | None = None) -> list[RetrievedContext]:
        return self._contexts(self.ranked(query, top_k, allowed, ctx))

    async def aretrieve(self, query: str, top_k: int = 5, allowed: Iterable[str] | None = None,
                        ctx: QueryContext | None = None) -> list[RetrievedContext]:
        return self._contexts(await self.aranked(query, top_k, allowed, ctx))


class _Composite(Retriever):
    """Composites do their work in ``aranked`` (reformulation may call an LLM); ``ranked`` runs it."""

    def ranked(self, query, k, allowed=None, ctx=None):
        from ragdx.llm import run_sync

        return run_sync(self.aranked(query, k, allowed, ctx))


# ----------------------------------------------------------------------------- keyword overlap

_TOKEN = re.compile(r"\w+|[^\w\s]")


def keyword_tokens(text: str) -> set[str]:
    """Distinct tokens as GRAMMAR's keyword retriever counts them: word runs and single
    punctuation marks, case kept, stop words kept. (Case-sensitive ``\\w+`` reproduces the
    reference's stored top-1 for every Aurp query; lower-casing drops that to ~70 %.)"""
    return set(_TOKEN.findall(text))


@register("keyword")
class KeywordRetriever(Retriever):
    """Score = number of distinct tokens the query shares with the unit (GRAMMAR §5.1's
    deliberately weak retriever); ties go to the earlier unit."""

    def __init__(self) -> None:
        super().__init__()

    def _build(self, units):
        postings: dict[str, list[int]] = defaultdict(list)
        for i, u in enumerate(units):
            for tok in keyword_tokens(u.text):
                postings[tok].append(i)
        self._postings = {t: np.asarray(v, dtype=np.int64) for t, v in postings.items()}

    def scores(self, query):
        # One pass over the query's postings: a unit's score is how many of the query's
        # distinct tokens list it (each posting lists a unit at most once), so counting the
        # concatenated postings gives the same numbers as adding token by token, without a
        # full-length temporary per token (common tokens like "?" list nearly every unit).
        hits = [h for h in map(self._postings.get, keyword_tokens(query)) if h is not None]
        if not hits:
            return np.zeros(len(self.units), dtype=np.float64)
        return np.bincount(np.concatenate(hits), minlength=len(self.units)).astype(np.float64)


# ----------------------------------------------------------------------------- TF-IDF


@register("tfidf")
class TfidfRetriever(Retriever):
    """Cosine similarity of TF-IDF vectors (scikit-learn), words lower-cased."""

    def __init__(self, sublinear_tf: bool = False, stop_words: str | None = None, ngram_max: int = 1):
        super().__init__()
        self.sublinear_tf = sublinear_tf
        self.stop_words = stop_words
        self.ngram_max = ngram_max

    def _build(self, units):
        from sklearn.feature_extraction.text import TfidfVectorizer

        self._vec = TfidfVectorizer(sublinear_tf=self.sublinear_tf, stop_words=self.stop_words,
                                    ngram_range=(1, self.ngram_max), dtype=np.float32)
        self._matrix = self._vec.fit_transform([u.text for u in units]).tocsr()

    def scores(self, query):
        q = self._vec.transform([query])
        return np.asarray((self._matrix @ q.T).toarray()).ravel().astype(np.float64)


# ----------------------------------------------------------------------------- BM25


@register("bm25")
class BM25Retriever(Retriever):
    """BM25 (``bm25s``, Lucene variant), lower-cased words, English stop words removed.

    ``prepare`` ranks a large batch of queries with bm25s's numba backend (compiled, parallel
    scoring and top-k) when numba is installed, and one at a time with numpy otherwise: the
    compilation costs seconds per process, so only when units x queries reaches
    :attr:`NUMBA_MIN_WORK`. Its rankings are the per-query path's: the same float32 sums in the
    same order, equal scores put back in unit order, and a ranking kept only down to the last
    score above its ``PREFETCH_K + 1``-th (where the cut would split a tie, which units of the tie
    come first is the per-query path's call: a deeper ``k`` is ranked one at a time).
    """

    #: units x queries from which a batched numba ranking repays its compilation (measured in
    #: benchmarks/results/retrieval_scale.md on 2 busy cores: 40-70 s compiling once per process,
    #: ~2 ms a query saved at 100k units, so ~20k queries there; bm25s does not cache the build)
    NUMBA_MIN_WORK = 2_000_000_000

    def __init__(self, k1: float = 1.5, b: float = 0.75, method: str = "lucene", stopwords: str | None = "en"):
        super().__init__()
        self.k1 = k1
        self.b = b
        self.method = method
        self.stopwords = stopwords

    def _tokenize(self, texts, return_ids=True):
        import bm25s

        return bm25s.tokenize(texts, stopwords=self.stopwords or [], return_ids=return_ids, show_progress=False)

    def _build(self, units):
        import bm25s

        # "auto": numba where it imports (used by prepare's batched ranking only), else numpy
        self._index = bm25s.BM25(k1=self.k1, b=self.b, method=self.method, backend="auto")
        self._index.index(self._tokenize([u.text for u in units]), show_progress=False)

    def scores(self, query):
        tokens = self._tokenize([query], return_ids=False)[0]
        if not tokens:
            return np.zeros(len(self.units), dtype=np.float64)
        return np.asarray(self._index.get_scores(tokens), dtype=np.float64)

    def prepare(self, queries):
        todo = [q for q in dict.fromkeys(queries) if q not in self._prefetched]
        todo = todo[:max(0, self.PREFETCH_MAX - len(self._prefetched))]
        if (not self.units or len(self.units) <= self.PREFETCH_K + 1 or self.backend != "numba"
                or len(self.units) * len(todo) < self.NUMBA_MIN_WORK):
            return
        self.prefetch_numba(todo)

    @property
    def backend(self) -> str | None:
        """bm25s's backend for batched ranking: "numba" where numba imports, else "numpy"."""
        index = getattr(self, "_index", None)
        return None if index is None else index.backend

    def prefetch_numba(self, queries: Sequence[str]) -> int:
        """Rank ``queries`` with bm25s's numba backend and keep the rankings (see the class
        note); returns how many were kept."""
        ids = [self._index.get_tokens_ids(t) for t in self._tokenize(list(queries), return_ids=False)]
        asked = [(q, t) for q, t in zip(queries, ids, strict=True) if t]
        if not asked:
            return 0
        k = self.PREFETCH_K + 1
        docs, vals = self._index.retrieve([t for _, t in asked], k=k, sorted=True, show_progress=False,
                                          n_threads=-1, backend_selection="numba")
        kept = 0
        for (q, _), d, v in zip(asked, np.asarray(docs), np.asarray(vals), strict=True):
            # every unit scoring above the last one returned is among those returned: exact
            sure = v[:-1] > v[-1]
            if not sure.any():
                continue
            d, v = d[:-1][sure], v[:-1][sure]
            order = np.lexsort((d, -v.astype(np.float64)))
            self._keep_prefetched([q], d[order][None, :], v[order][None, :])
            kept += 1
        return kept


# ----------------------------------------------------------------------------- dense

_DENSE_MEMO: dict[tuple[str, str], np.ndarray] = {}


@register("dense")
class DenseRetriever(Retriever):
    """Exact inner-product search over unit-normalised MiniLM embeddings (= cosine similarity).

    Embeddings are cached on disk by content hash in ``cache_dir`` (None: no disk cache) and
    kept in memory per corpus, so several pipelines over one corpus embed it once.

    ``index_embedder: {executor: ray, address: ..., workers: N}`` embeds the corpus (what the
    cache lacks) with Ray Data actors (:mod:`ragdx.embed_ray`); queries, one at a time, are
    still embedded here. Absent from ``to_dict`` when unset, so existing pipelines keep their
    identity.

    ``index: exact`` (the default) scans every unit; ``index: ann`` searches a faiss HNSW graph
    (the ``ann`` extra; ``ann: {m, ef_construction, ef_search}`` tunes it), saved beside the
    embedding cache so the next build of the same corpus loads it. Its rankings are approximate
    (recall@10 vs exact in ``benchmarks/results/retrieval_scale.md``); a filtered ranking
    (``allowed``) and ``scores`` stay exact. ``prepare`` ranks the queries it is given in
    batches (one matrix product per block of queries), the same rankings as one at a time
    (scores equal to float32 rounding)."""

    def __init__(self, model_path: str | None = None, cache_dir: str | None = DEFAULT_CACHE_DIR,
                 index_embedder: dict | None = None, index: str = "exact", ann: dict | None = None):
        super().__init__()
        self.model_path = model_path
        self.cache_dir = cache_dir
        if index not in INDEX_KINDS:
            raise RagdxError(f"unknown index {index!r} ({' or '.join(INDEX_KINDS)})", field="index")
        self.index = index
        if index == "ann":
            faiss_module()  # missing faiss is a configuration error, said before any query runs
        try:
            self._hnsw_params = HnswParams(**(ann or {}))
        except TypeError:
            raise RagdxError(f"unknown key in {sorted(ann or {})} (accepted: m, ef_construction, ef_search)",
                             field="ann") from None
        self.ann = dict(ann) if ann is not None else None
        self._hnsw: HnswIndex | None = None
        self._query_vectors: dict[str, np.ndarray] = {}  # filled by prepare(); not configuration
        if index_embedder is not None:
            from ragdx.embed import EmbedderConfig
            from ragdx.errors import validated

            # the model and the cache are the retriever's own parameters: one source for each
            allowed = {"executor", "address", "workers", "batch_size", "device"}
            extra = sorted(set(index_embedder) - allowed)
            if extra:
                raise RagdxError(f"unknown key {extra[0]!r} (accepted: {', '.join(sorted(allowed))})",
                                 field="index_embedder")
            validated(EmbedderConfig, dict(index_embedder), source="index_embedder")
        self.index_embedder = dict(index_embedder) if index_embedder is not None else None

    def params(self) -> dict[str, Any]:
        out = super().params()
        # the defaults are left out, so pipelines saved before these options keep their identity
        for name, default in (("index_embedder", None), ("index", "exact"), ("ann", None)):
            if out.get(name) == default:
                out.pop(name, None)
        return out

    def _index_embedder(self):
        if not self.index_embedder:
            return self.embedder
        from ragdx.embed import Embedder, EmbedderConfig

        cfg = EmbedderConfig(**self.index_embedder)
        local = self.embedder
        # batch_size and device hold on the local path too (they were validated, then ignored)
        if cfg.batch_size != local.batch_size or cfg.device != local.device:
            local = Embedder(self.model_path, cache_dir=self.cache_dir, batch_size=cfg.batch_size, device=cfg.device)
        if cfg.executor == "local":
            return local
        from ragdx.embed_ray import RayEmbedder

        return RayEmbedder(local, address=cfg.address, workers=cfg.workers)

    @property
    def embedder(self):
        return shared_embedder(self.model_path, self.cache_dir)

    #: query vectors kept from prepare() at most (~1.5 KB each)
    QUERY_MEMO_MAX = 100_000

    def prepare(self, queries):
        """Embed the queries in batches (one model call per query costs ~13 ms of fixed
        overhead on a CPU) and rank those embedded here in batches too; ``scores`` and
        ``ranked`` take their vectors and rankings from here. Not configuration."""
        embed_ahead(self.embedder, queries, self._query_vectors, self.QUERY_MEMO_MAX)
        if not self.units:
            return
        todo = [q for q in dict.fromkeys(queries) if q in self._query_vectors and q not in self._prefetched]
        todo = todo[:max(0, self.PREFETCH_MAX - len(self._prefetched))]
        if todo:
            idx, val = self.search_vectors(np.stack([self._query_vectors[q] for q in todo]), self.PREFETCH_K)
            self._keep_prefetched(todo, idx, val)

    def search_vectors(self, vectors: np.ndarray, k: int,
                       allowed: Iterable[str] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The best ``k`` units of each query vector, in batches: ``(indices, scores)`` of shape
        ``(len(vectors), k)``, padded with -1 / -inf. Exact (or with ``index: ann``, the
        approximate index, unless ``allowed`` filters)."""
        self._require_built()
        if self.index == "ann" and allowed is None:
            return self._ann().search(vectors, k)
        return exact_search(self._matrix, vectors, k, self._mask(allowed))

    def _ann(self) -> HnswIndex:
        if self._hnsw is None:
            from ragdx.embed import resolve_cache_dir

            root = resolve_cache_dir(self.cache_dir)
            self._hnsw = HnswIndex(self._hnsw_params).build_or_load(
                self._matrix, None if root is None else root / "ann")
        return self._hnsw

    def ranked(self, query, k, allowed=None, ctx=None):
        self._require_built()
        early = self._from_prefetch(query, k, allowed)
        if early is not None:
            return early
        vector = self._query_vector(query)
        idx, val = self.search_vectors(vector[None, :], k, allowed)
        return [(int(i), float(v)) for i, v in zip(idx[0], val[0], strict=True) if i >= 0]

    def _query_vector(self, query: str) -> np.ndarray:
        vector = self._query_vectors.get(query)
        return self.embedder.embed([query])[0] if vector is None else vector

    def _build(self, units):
        h = hashlib.sha256()
        for u in units:
            h.update(u.text.encode())
            h.update(b"\x1e")
        key = (self.model_path or "minilm", h.hexdigest())
        if key not in _DENSE_MEMO:
            embedder = self._index_embedder()
            try:
                _DENSE_MEMO[key] = embedder.embed([u.text for u in units])
            finally:
                close = getattr(embedder, "close", None)
                if embedder is not self.embedder and close is not None:
                    close()  # a Ray instance started for the index ends with it
        self._matrix = _DENSE_MEMO[key]
        self._hnsw = None

    def set_embeddings(self, units: Sequence[Chunk], matrix: np.ndarray) -> None:
        """Index precomputed unit vectors (benchmarks search random vectors this way)."""
        self._set_units(list(units))
        if matrix.shape[0] != len(self.units):
            raise RagdxError("one embedding per unit expected", field="matrix")
        self._matrix = np.ascontiguousarray(matrix, dtype=np.float32)
        self._hnsw = None

    def scores(self, query):
        return self.scores_for_vector(self._query_vector(query))

    def scores_for_vector(self, vector: np.ndarray) -> np.ndarray:
        return self._matrix @ np.asarray(vector, dtype=np.float32)


# ----------------------------------------------------------------------------- ensemble


@register("ensemble")
class EnsembleRetriever(_Composite):
    """Weighted fusion of retrievers over the same units: BM25 + dense, equal weights, by default
    (paper §4.2.2). ``fusion="rank"``: weighted reciprocal rank fusion over each retriever's top
    ``candidates``; ``fusion="score"``: weighted sum of min-max normalised scores."""

    component_params = {"retrievers": "list"}

    def __init__(self, retrievers: list[Retriever] | None = None, weights: list[float] | None = None,
                 fusion: str = "rank", k: int = RRF_K, candidates: int = 50):
        super().__init__()
        if retrievers is None:
            retrievers = [BM25Retriever(), DenseRetriever()]
        self.retrievers = [build_component(r, field=f"retrievers[{i}]", expect=Retriever)
                           for i, r in enumerate(retrievers)]
        if not self.retrievers:
            raise RagdxError("needs at least one retriever", field="retrievers")
        if weights is not None and len(weights) != len(self.retrievers):
            raise RagdxError(f"{len(weights)} weights for {len(self.retrievers)} retrievers", field="weights")
        if fusion not in ("rank", "score"):
            raise RagdxError(f"unknown fusion {fusion!r} (rank or score)", field="fusion")
        self.weights = None if weights is None else [float(w) for w in weights]
        self.fusion = fusion
        self.k = k
        self.candidates = candidates

    def _w(self) -> list[float]:
        return self.weights or [1.0 / len(self.retrievers)] * len(self.retrievers)

    def build(self, chunks):
        self._set_units(list(chunks))
        for r in self.retrievers:
            r.build(self.units)
            if [u.id for u in r.units] != [u.id for u in self.units]:
                raise RagdxError("an ensemble's retrievers must rank the same units", field="retrievers")

    async def aranked(self, query, k, allowed=None, ctx=None):
        self._require_built()
        mask = self._mask(allowed)
        fused = np.zeros(len(self.units), dtype=np.float64)
        if self.fusion == "score":
            for w, r in zip(self._w(), self.retrievers, strict=True):
                s = r.scores(query) if not isinstance(r, _Composite) else _dense_from(
                    await r.aranked(query, len(self.units), allowed, ctx), len(self.units))
                fused += w * _minmax(s, mask)
        else:
            for w, r in zip(self._w(), self.retrievers, strict=True):
                for rank, (i, _) in enumerate(await r.aranked(query, max(self.candidates, k), allowed, ctx)):
                    fused[i] += w / (self.k + rank + 1)
            if mask is None:
                mask = fused > 0
            else:
                mask = mask & (fused > 0)
        return [(int(i), float(fused[i])) for i in top_indices(fused, k, mask)]


def _minmax(s: np.ndarray, mask: np.ndarray | None) -> np.ndarray:
    vals = s if mask is None else s[mask]
    if vals.size == 0:
        return np.zeros_like(s)
    lo, hi = float(vals.min()), float(vals.max())
    if hi <= lo:
        return np.zeros_like(s)
    return (s - lo) / (hi - lo)


def _dense_from(ranking: list[tuple[int, float]], n: int) -> np.ndarray:
    s = np.full(n, -np.inf)
    for i, v in ranking:
        s[i] = v
    finite = s[np.isfinite(s)]
    s[~np.isfinite(s)] = finite.min() if finite.size else 0.0
    return s


# ----------------------------------------------------------------------------- parent document


@register("parent_document")
class ParentDocumentRetriever(_Composite):
    """Ranks child chunks with ``retriever`` and returns their parents, each once, in the order of
    their best child (LangChain's ParentDocumentRetriever, paper §4.2.2). Needs child-parent chunks."""

    component_params = {"retriever": "one"}

    def __init__(self, retriever: Retriever | None = None, candidates: int = 100):
        super().__init__()
        self.retriever = build_component(retriever or DenseRetriever(), field="retriever", expect=Retriever)
        self.candidates = candidates

    def build(self, chunks):
        chunks = list(chunks)
        if not chunks or any(c.parent is None for c in chunks):
            raise RagdxError("the parent_document retriever needs a child_parent chunker", field="chunker")
        self.retriever.build(chunks)
        parents: dict[str, int] = {}
        units: list[Chunk] = []
        self._parent_of = np.zeros(len(chunks), dtype=np.int64)
        for i, c in enumerate(chunks):
            if c.parent.id not in parents:
                parents[c.parent.id] = len(units)
                units.append(c.parent)
            self._parent_of[i] = parents[c.parent.id]
        self._set_units(units)

    async def aranked(self, query, k, allowed=None, ctx=None):
        self._require_built()
        n_children = len(self._parent_of)
        want = max(self.candidates, k)
        while True:
            children = await self.retriever.aranked(query, want, allowed, ctx)
            out: list[tuple[int, float]] = []
            seen: set[int] = set()
            for i, score in children:
                p = int(self._parent_of[i])
                if p not in seen:
                    seen.add(p)
                    out.append((p, score))
            # too few distinct parents among the candidates: widen the child ranking once
            if len(out) >= k or want >= n_children or len(children) < want:
                return out[:k]
            want = n_children


# ----------------------------------------------------------------------------- multi-query


class Reformulator(Component):
    """Gives up to ``n`` other phrasings of a query."""

    async def reformulate(self, query: str, n: int, ctx: QueryContext | None = None) -> list[str]:
        raise NotImplementedError


@register("dataset_reformulator")
class DatasetReformulator(Reformulator):
    """Offline reformulations: the query's other phrasings in a generated dataset, i.e. the same
    semantic group (same SQL template and values) written by the text-template verbaliser in the
    other styles first, then the same style's other templates.

    This is the deterministic stand-in for the paper's GPT-4 rephrasing. It is only available for
    queries the dataset contains (a query it does not know gets no reformulation, so multi-query
    degrades to the plain retriever) and it knows the group, which an LLM rephraser does not: its
    phrasings are faithful by construction. ``dataset`` is a ragdx dataset directory (groups by
    ``group_id``) or GRAMMAR reference results files (groups by ``query_tag``); alternatives can
    also be set in code (``set_alternatives``) or per query (``SystemInput.metadata``)."""

    def __init__(self, dataset: str | list[str] | None = None):
        self.dataset = dataset
        self._alternatives: dict[str, list[str]] = {}
        if dataset:
            paths = [dataset] if isinstance(dataset, str) else list(dataset)
            self.set_alternatives(alternatives_from_dataset(paths))

    def set_alternatives(self, mapping: Mapping[str, Sequence[str]]) -> None:
        self._alternatives.update({q: list(v) for q, v in mapping.items()})

    def alternatives(self, query: str, n: int, given: Sequence[str] | None = None) -> list[str]:
        """Up to ``n`` other phrasings of ``query``: ``given`` (a query's own), else the dataset's."""
        alts = self._alternatives.get(query, []) if given is None else given
        return [a for a in alts if a != query][:n]

    async def reformulate(self, query, n, ctx=None):
        return self.alternatives(query, n, ctx.alternatives if ctx is not None else None)


def alternatives_from_groups(items: Iterable[tuple[str, str, str]]) -> dict[str, list[str]]:
    """(query, group, style) triples -> query -> the group's other queries, other styles first,
    each style's queries in the order given."""
    groups: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for query, group, style in items:
        if (query, style) not in groups[group]:
            groups[group].append((query, style))
    out: dict[str, list[str]] = {}
    for members in groups.values():
        for query, style in members:
            others = [(s == style, i, q) for i, (q, s) in enumerate(members) if q != query]
            alts: list[str] = []
            for _, _, q in sorted(others):
                if q not in alts:
                    alts.append(q)
            out.setdefault(query, alts)
    return out


def alternatives_from_dataset(paths: Sequence[str | Path]) -> dict[str, list[str]]:
    from ragdx.store import iter_jsonl, read_structured

    triples: list[tuple[str, str, str]] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            p = p / "records.jsonl"
        if p.suffix == ".jsonl":
            for number, r in iter_jsonl(p):
                if not isinstance(r.get("query"), str) or "group_id" not in r:
                    raise RagdxError("expected a dataset record with 'query' and 'group_id'", source=str(p),
                                     field=f"line {number}")
                triples.append((r["query"], r["group_id"], r.get("style", "")))
        else:
            data = read_structured(p)
            if not isinstance(data, list) or not all(isinstance(r, dict) and "query_tag" in r for r in data):
                raise RagdxError("expected records with 'query' and 'query_tag' (GRAMMAR results)",
                                 source=str(p), field="dataset")
            for r in data:
                triples.append((r["query"], str(r["query_tag"]), p.stem))
    return alternatives_from_groups(triples)


REFORMULATE_PROMPT = (
    "You are an AI language model assistant. Your task is to generate {n} different versions of the "
    "given user question to retrieve relevant documents from a database. By generating multiple "
    "perspectives on the user question, your goal is to help the user overcome some of the limitations "
    "of distance-based similarity search. Keep every name, code and number of the question exactly. "
    "Provide these alternative questions separated by newlines, nothing else.\nOriginal question: {query}"
)


@register("llm_reformulator")
class LLMReformulator(Reformulator):
    """Reformulations written by an LLM (the paper's prompt-based rephrasing); ``llm`` is an
    ``LLMConfig`` mapping (``model``, ``base_url``, ``api_key_env``, ``cache_dir``, ...)."""

    def __init__(self, llm: dict | None = None, prompt: str = REFORMULATE_PROMPT):
        self.llm = dict(llm or {})
        self.prompt = prompt
        self._client: ChatLLM | None = None

    @property
    def client(self) -> ChatLLM:
        if self._client is None:
            from ragdx.llm import make_llm

            self._client = make_llm(self.llm)
        return self._client

    async def reformulate(self, query, n, ctx=None):
        completion = await self.client.complete([{"role": "user", "content": self.prompt.format(n=n, query=query)}])
        if ctx is not None:
            ctx.add_usage(completion)
        lines = [re.sub(r"^\s*(?:\d+[.)]|[-*•])\s*", "", ln).strip() for ln in completion.text.splitlines()]
        out: list[str] = []
        for ln in lines:
            if ln and ln != query and ln not in out:
                out.append(ln)
        return out[:n]


@register("multi_query")
class MultiQueryRetriever(_Composite):
    """The query and ``n`` reformulations, each ranked by ``retriever`` (top ``candidates``), fused
    by reciprocal rank fusion with ``k`` = 60 (LlamaIndex's reciprocal rerank fusion, paper §4.2.2)."""

    component_params = {"retriever": "one", "reformulator": "one"}

    def __init__(self, retriever: Retriever | None = None, reformulator: Reformulator | None = None,
                 n: int = 3, k: int = RRF_K, candidates: int = 50):
        super().__init__()
        self.retriever = build_component(retriever or DenseRetriever(), field="retriever", expect=Retriever)
        self.reformulator = build_component(reformulator or DatasetReformulator(), field="reformulator",
                                            expect=Reformulator)
        self.n = n
        self.k = k
        self.candidates = candidates

    def build(self, chunks):
        self.retriever.build(chunks)
        self._set_units(self.retriever.units)

    def prepare(self, queries):
        # offline reformulations are known beforehand: they are asked too
        variants = list(queries)
        if isinstance(self.reformulator, DatasetReformulator) and self.n > 0:
            for q in queries:
                variants += self.reformulator.alternatives(q, self.n)
        self.retriever.prepare(variants)

    async def aranked(self, query, k, allowed=None, ctx=None):
        self._require_built()
        variants = [query] + (await self.reformulator.reformulate(query, self.n, ctx) if self.n > 0 else [])
        if ctx is not None:
            ctx.notes["queries"] = variants
        fused: dict[int, float] = defaultdict(float)
        for v in variants:
            for rank, (i, _) in enumerate(await self.retriever.aranked(v, max(self.candidates, k), allowed, ctx)):
                fused[i] += 1.0 / (self.k + rank + 1)
        # ties in index order, like every other ranking here
        return sorted(fused.items(), key=lambda t: (-t[1], t[0]))[:k]
