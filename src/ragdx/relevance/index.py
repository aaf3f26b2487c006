"""Corpus indexes that return, for each query, its k largest similarities to the corpus chunks.

Only similarities are needed (never chunk ids), so the index is a plain matrix: the dense
retriever's unit-normalised chunk embeddings (inner product = cosine), or a BM25 index over
the chunk texts. Any deterministic similarity works for the test: the calibration queries and
new queries go through the same function, which is all the p-value's validity rests on.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

import numpy as np

from ragdx.errors import RagdxError

# Query rows scored per matrix product: bounds the (rows x chunks) float32 block to ~128 MB.
_BLOCK_BYTES = 128 * 1024 * 1024


def as_unit_matrix(x: np.ndarray, *, what: str) -> np.ndarray:
    """float32 C-contiguous rows of unit length; a zero, NaN or infinite row is an error."""
    arr = np.asarray(x)
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] == 0:
        raise RagdxError(f"expected a non-empty 2-D embedding matrix, got shape {arr.shape}", field=what)
    arr = np.ascontiguousarray(arr, dtype=np.float32)
    if not np.isfinite(arr).all():
        raise RagdxError("embeddings contain NaN or infinite values", field=what)
    norms = np.linalg.norm(arr, axis=1)
    if (norms == 0).any():
        raise RagdxError(f"row {int(np.argmin(norms))} is a zero vector", field=what)
    if np.abs(norms - 1.0).max() > 1e-3:
        arr = arr / norms[:, None]
    return arr


def top_k_rows(scores: np.ndarray, k: int) -> np.ndarray:
    """The k largest values of each row, in decreasing order."""
    if k >= scores.shape[1]:
        return -np.sort(-scores, axis=1)[:, :k]
    part = np.partition(scores, scores.shape[1] - k, axis=1)[:, -k:]
    return -np.sort(-part, axis=1)


class _EmbeddingIndex:
    """What the exact and the IVF index share: unit-normalised chunk embeddings."""

    embeddings: np.ndarray

    @property
    def size(self) -> int:
        return int(self.embeddings.shape[0])

    @property
    def dimension(self) -> int:
        return int(self.embeddings.shape[1])

    def _queries(self, queries: np.ndarray) -> np.ndarray:
        q = as_unit_matrix(queries, what="query embeddings")
        if q.shape[1] != self.dimension:
            raise RagdxError(f"query embeddings have dimension {q.shape[1]}, the corpus index {self.dimension}",
                             field="query embeddings")
        return q


class DenseIndex(_EmbeddingIndex):
    """Exact maximum-inner-product search over unit-normalised chunk embeddings."""

    kind = "dense"

    def __init__(self, embeddings: np.ndarray):
        self.embeddings = as_unit_matrix(embeddings, what="corpus embeddings")

    def top_k(self, queries: np.ndarray, k: int) -> np.ndarray:
        q = self._queries(queries)
        k = min(k, self.size)
        rows = max(1, _BLOCK_BYTES // (4 * self.size))
        out = np.empty((q.shape[0], k), dtype=np.float32)
        # a few queries: waking OpenBLAS's threads costs more than the product (27 ms vs 3 ms for
        # 3 queries x 4,358 chunks on 2 cores); a real batch does gain from them
        with _single_threaded_blas() if q.shape[0] <= 64 else contextlib.nullcontext():
            for start in range(0, q.shape[0], rows):
                block = q[start:start + rows] @ self.embeddings.T
                out[start:start + rows] = top_k_rows(block, k)
        return out


class BM25Index:
    """BM25 (bm25s, English stop words) over the chunk texts: the lexical alternative.

    BM25 scores are unbounded (roughly 0 to 40), unlike cosine similarities, so a temperature
    around 1 suits the energy and entropy statistics better than the dense default."""

    kind = "bm25"

    def __init__(self, texts: Sequence[str]):
        import bm25s

        self.texts = [str(t) for t in texts]
        if not self.texts:
            raise RagdxError("the corpus is empty", field="corpus")
        self._bm25 = bm25s.BM25()
        self._bm25.index(bm25s.tokenize(self.texts, stopwords="en", show_progress=False), show_progress=False)

    @property
    def size(self) -> int:
        return len(self.texts)

    def top_k(self, queries: Sequence[str], k: int) -> np.ndarray:
        import bm25s

        if isinstance(queries, np.ndarray) and queries.dtype.kind == "f":
            raise RagdxError("a BM25 index needs query texts, not embeddings", field="queries")
        k = min(k, self.size)
        tokens = bm25s.tokenize([str(q) for q in queries], stopwords="en", return_ids=False, show_progress=False)
        # bm25s cannot rank a query with no known token; it scores zero against every chunk
        out = np.zeros((len(tokens), k), dtype=np.float32)
        for i, toks in enumerate(tokens):
            if not toks:
                continue
            scores = self._bm25.get_scores(toks)
            out[i] = top_k_rows(scores[None, :].astype(np.float32), k)[0]
        return out


class IVFIndex(_EmbeddingIndex):
    """Inverted-file search for large corpora: chunks are grouped by spherical k-means into
    ``n_lists`` lists; a query is compared with the chunks of its ``n_probe`` nearest lists only.

    The similarities are then those of the nearest chunks *found*, an approximation of the exact
    ones. The test stays valid: calibration and new queries go through the same search, and the
    p-value needs only that. What approximation costs is some power, which the latency benchmark
    reports as recall against exact search. Defaults: 4 sqrt(N) lists (about sqrt(N) / 4 chunks
    each) and enough probes to visit about 3 % of the corpus.
    """

    kind = "ivf"

    def __init__(self, embeddings: np.ndarray, *, n_lists: int | None = None, n_probe: int | None = None,
                 seed: int = 0, centroids: np.ndarray | None = None, offsets: np.ndarray | None = None):
        emb = as_unit_matrix(embeddings, what="corpus embeddings")
        n = emb.shape[0]
        if centroids is None or offsets is None:
            n_lists = n_lists or max(1, int(round(4 * np.sqrt(n))))
            centroids = _spherical_kmeans(emb, min(n_lists, n), seed=seed)
            assign = _nearest(emb, centroids)
            order = np.argsort(assign, kind="stable")
            emb = np.ascontiguousarray(emb[order])
            offsets = np.concatenate([[0], np.cumsum(np.bincount(assign, minlength=centroids.shape[0]))])
        offsets = np.asarray(offsets, dtype=np.int64)
        if offsets.ndim != 1 or offsets[0] != 0 or offsets[-1] != n or (np.diff(offsets) < 0).any() \
                or offsets.size != centroids.shape[0] + 1:
            raise RagdxError("IVF list offsets do not fit the corpus", field="ivf_offsets")
        self.embeddings = emb
        self.centroids = as_unit_matrix(centroids, what="IVF centroids")
        self.offsets = offsets
        lists = self.centroids.shape[0]
        self.n_probe = int(n_probe or min(lists, max(8, int(np.ceil(0.03 * lists)))))

    def top_k(self, queries: np.ndarray, k: int) -> np.ndarray:
        q = self._queries(queries)
        k = min(k, self.size)
        with _single_threaded_blas():
            return self._search(q, k)

    def _search(self, q: np.ndarray, k: int) -> np.ndarray:
        probe = np.argpartition(-(q @ self.centroids.T), self.n_probe - 1, axis=1)[:, :self.n_probe] \
            if self.n_probe < self.centroids.shape[0] else np.tile(np.arange(self.centroids.shape[0]), (len(q), 1))
        off = self.offsets
        if q.shape[0] <= 4:
            # one query: a matrix-vector product per probed list into one buffer is cheapest
            out = np.empty((q.shape[0], k), dtype=np.float32)
            for i in range(q.shape[0]):
                parts = [self.embeddings[off[lst]:off[lst + 1]] @ q[i] for lst in probe[i]]
                sims = np.concatenate(parts) if parts else np.empty(0, dtype=np.float32)
                out[i] = _fill(sims, k)
        else:
            # a batch: group queries by list so each list is one matrix product
            best = np.full((q.shape[0], k), -np.inf, dtype=np.float32)
            flat = probe.ravel()
            owner = np.repeat(np.arange(q.shape[0]), probe.shape[1])
            order = np.argsort(flat, kind="stable")
            flat, owner = flat[order], owner[order]
            cuts = np.flatnonzero(np.diff(flat)) + 1
            for lst, qs in zip(flat[np.concatenate([[0], cuts])], np.split(owner, cuts), strict=True):
                seg = self.embeddings[off[lst]:off[lst + 1]]
                if seg.shape[0] == 0:
                    continue
                merged = np.concatenate([best[qs], q[qs] @ seg.T], axis=1)
                best[qs] = np.partition(merged, merged.shape[1] - k, axis=1)[:, -k:]
            out = -np.sort(-best, axis=1)
        short = ~np.isfinite(out).all(axis=1)
        if short.any():  # fewer than k chunks in the probed lists: search those queries exactly
            out[short] = top_k_rows(q[short] @ self.embeddings.T, k)
        return out


_CONTROLLER = None


def _single_threaded_blas():
    """OpenBLAS wakes its threads for every product; on the many small products of an IVF search
    that costs ~50x the arithmetic (measured: 5.7 ms vs 0.1 ms for a 30x384x80 product)."""
    global _CONTROLLER
    from threadpoolctl import ThreadpoolController

    if _CONTROLLER is None:
        _CONTROLLER = ThreadpoolController()
    return _CONTROLLER.limit(limits=1, user_api="blas")


def _fill(sims: np.ndarray, k: int) -> np.ndarray:
    if sims.size < k:
        return np.concatenate([-np.sort(-sims), np.full(k - sims.size, -np.inf, dtype=np.float32)])
    return top_k_rows(sims[None, :], k)[0]


def _nearest(x: np.ndarray, centroids: np.ndarray) -> np.ndarray:
    out = np.empty(x.shape[0], dtype=np.int64)
    rows = max(1, _BLOCK_BYTES // (4 * centroids.shape[0]))
    for start in range(0, x.shape[0], rows):
        out[start:start + rows] = np.argmax(x[start:start + rows] @ centroids.T, axis=1)
    return out


def _spherical_kmeans(x: np.ndarray, n_lists: int, *, seed: int, iterations: int = 8,
                      sample: int = 64) -> np.ndarray:
    """Cosine k-means on a sample of ``sample`` points per list: enough to place the lists, and
    the cost stays a few seconds for 100k chunks on two cores."""
    from scipy import sparse

    rng = np.random.default_rng(seed)
    pts = x[rng.choice(x.shape[0], min(x.shape[0], sample * n_lists), replace=False)]
    cent = pts[rng.choice(pts.shape[0], n_lists, replace=False)].copy()
    for _ in range(iterations):
        assign = _nearest(pts, cent)
        members = sparse.csr_matrix((np.ones(pts.shape[0], dtype=np.float32), (assign, np.arange(pts.shape[0]))),
                                    shape=(n_lists, pts.shape[0]))
        sums = np.asarray(members @ pts, dtype=np.float32)
        counts = np.bincount(assign, minlength=n_lists)
        empty = counts == 0
        sums[empty] = pts[rng.choice(pts.shape[0], int(empty.sum()), replace=False)]
        cent = sums / np.maximum(np.linalg.norm(sums, axis=1, keepdims=True), 1e-12)
    return cent.astype(np.float32)
