"""Dense search over many queries at once: exact (numpy, the default) and approximate (a faiss
HNSW graph, the ``ann`` extra) for large corpora.

Exact search scores a block of queries in one float32 matrix product and selects each row's top
``k`` without sorting or partitioning the whole row: the rows are cut into groups of
:data:`GROUP` columns, the ``k``-th largest group maximum is a lower bound on the row's ``k``-th
score (``k`` groups hold a score at least that high), and only the few scores at or above it are
sorted. Every score equal to the bound is a candidate, so equal scores keep unit order, exactly
as :func:`ragdx.rag.retrievers.top_indices` orders them one query at a time. Measured against
faiss in ``benchmarks/results/retrieval_scale.md``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np

from ragdx.errors import RagdxError

#: groups of columns in the selection's lower bound (per row, columns / GROUP maxima to partition)
GROUP = 16
#: queries per pass over the corpus's vectors (more per pass read the vectors fewer times; a block
#: of 64 ran at ~0.7x the rate of 256-1024) and units per matrix product: a (512, 2048) tile of
#: float32 scores is 4 MB, selected from while it is in cache
MAX_QUERY_BLOCK = 512
TILE = 2048
#: fewer queries than this are scored by a matrix-vector product each, untiled
FEW_QUERIES = 8
INDEX_KINDS = ("exact", "ann")


def exact_search(matrix: np.ndarray, queries: np.ndarray, k: int,
                 mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` best units of each query by inner product: ``(indices, scores)``, both of shape
    ``(len(queries), k)``, best first, equal scores in unit order. Units where ``mask`` is False
    never appear; a row with fewer than ``k`` allowed units is padded with index -1 and score
    -inf (faiss's convention)."""
    matrix = np.ascontiguousarray(matrix, dtype=np.float32)
    queries = np.ascontiguousarray(np.atleast_2d(queries), dtype=np.float32)
    m, n = len(queries), len(matrix)
    k = max(0, min(int(k), n))
    idx = np.full((m, k), -1, dtype=np.int64)
    val = np.full((m, k), -np.inf, dtype=np.float32)
    if k == 0 or m == 0:
        return idx, val
    excluded = None if mask is None else ~np.asarray(mask, dtype=bool)
    product = _matmul_t()
    for start in range(0, m, MAX_QUERY_BLOCK):
        block = queries[start:start + MAX_QUERY_BLOCK]
        if len(block) < FEW_QUERIES:
            # a matrix-vector product per query reads the vectors at memory speed; tiles would
            # only add a Python step per tile
            scores = np.ascontiguousarray((matrix @ block.T).T)
            if excluded is not None:
                scores[:, excluded] = -np.inf
            rows, cols = _candidates(scores, k)
            vals = scores[rows, cols]
        else:
            rows, cols, vals = _tiled_candidates(product, block, matrix, k, excluded)
        _fill_top_k(rows, cols, vals, k, idx[start:start + len(block)], val[start:start + len(block)])
    if excluded is not None:
        idx[np.isneginf(val)] = -1
    return idx, val


def _tiled_candidates(product: Callable[[np.ndarray, np.ndarray], np.ndarray], queries: np.ndarray,
                      matrix: np.ndarray, k: int,
                      excluded: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(row, unit, score) of every score at or above its row's final lower bound (and a few
    more), computed TILE units at a time so that each tile of scores is selected from while it
    is in cache, never written out whole (faiss's flat search works in tiles too).

    The bound is the ``k``-th largest group maximum seen so far: it only rises, so an entry at or
    above the final bound was at or above the bound when its tile was read, and was kept."""
    b, n = len(queries), len(matrix)
    best = np.full((b, k), -np.inf, dtype=np.float32)  # the k largest group maxima so far
    found: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    for c0 in range(0, n, TILE):
        scores = product(queries, matrix[c0:c0 + TILE])
        t = scores.shape[1]
        if excluded is not None:
            scores[:, excluded[c0:c0 + t]] = -np.inf
        w = -(-t // GROUP)
        if w * GROUP > t:  # the last, short tile: padded with scores no unit has
            scores = np.concatenate([scores, np.full((b, w * GROUP - t), -np.inf, dtype=scores.dtype)], axis=1)
        maxima = scores.reshape(b, GROUP, w).max(axis=1)  # group c: columns c, c + w, c + 2w, ...
        both = np.concatenate([best, maxima], axis=1)
        best = np.partition(both, both.shape[1] - k, axis=1)[:, -k:]
        bound = best.min(axis=1)
        g_rows, groups = np.nonzero(maxima >= bound[:, None])
        rows = np.repeat(g_rows, GROUP)
        cols = (groups[:, None] + w * np.arange(GROUP)).ravel()
        vals = scores[rows, cols]
        keep = (vals >= bound[rows]) & (cols < t)
        found.append((rows[keep], cols[keep] + c0, vals[keep]))
    bound = best.min(axis=1)
    rows, cols, vals = (np.concatenate(parts) for parts in zip(*found, strict=True))
    keep = vals >= bound[rows]
    return rows[keep], cols[keep], vals[keep]


def _fill_top_k(rows: np.ndarray, cols: np.ndarray, vals: np.ndarray, k: int,
                out_idx: np.ndarray, out_val: np.ndarray) -> None:
    """Each row's best ``k`` of the candidates into ``out_idx`` / ``out_val``: score
    descending, then unit ascending (the per-query ranking's order)."""
    order = np.lexsort((cols, -vals.astype(np.float64), rows))
    rows, cols, vals = rows[order], cols[order], vals[order]
    starts = np.searchsorted(rows, np.arange(len(out_idx)))
    rank = np.arange(len(rows)) - starts[rows]
    keep = rank < k
    out_idx[rows[keep], rank[keep]] = cols[keep]
    out_val[rows[keep], rank[keep]] = vals[keep]


#: matrix products through torch (its BLAS, OpenMP threads that wait passively) rather than
#: numpy's OpenBLAS: faster here in interleaved rounds (benchmarks/results/retrieval_scale.md);
#: numpy where torch is not installed
USE_TORCH = True


def _matmul_t() -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """``f(a, b) -> a @ b.T`` as a float32 numpy array."""
    if USE_TORCH:
        try:
            import torch
        except ImportError:
            pass
        else:
            return lambda a, b: torch.mm(torch.from_numpy(a), torch.from_numpy(b).T).numpy()
    return lambda a, b: a @ b.T


def top_k_rows(scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Each row's ``k`` largest entries (``k`` <= row length), best first, ties by column."""
    rows, cols = _candidates(scores, k)
    out_idx = np.empty((len(scores), k), dtype=np.int64)
    out_val = np.empty((len(scores), k), dtype=scores.dtype)
    _fill_top_k(rows, cols, scores[rows, cols], k, out_idx, out_val)
    return out_idx, out_val


def _candidates(scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(row, column) of every entry at or above its row's lower bound, a superset of the row's
    top ``k`` that includes all ties at the boundary. Group ``c`` is the columns ``c, c + w,
    c + 2w, ...`` (``w`` = columns // GROUP): their maximum is an element-wise maximum of GROUP
    contiguous slices, which numpy vectorises (a maximum over 16 adjacent columns costs 10x
    more), and only the groups whose maximum reaches the bound are looked into."""
    b, n = scores.shape
    w = n // GROUP
    if w < 2 * k:
        # too few groups for the bound to prune anything: the k-th largest entry itself
        bound = np.partition(scores, n - k, axis=1)[:, n - k]
        rows, cols = np.nonzero(scores >= bound[:, None])
        return rows, cols
    full = w * GROUP
    maxima = scores[:, :full].reshape(b, GROUP, w).max(axis=1)
    if full < n:
        maxima = np.concatenate([maxima, scores[:, full:].max(axis=1, keepdims=True)], axis=1)
    # k groups reach the k-th largest group maximum, so the row's k-th entry is no lower
    bound = np.partition(maxima, maxima.shape[1] - k, axis=1)[:, maxima.shape[1] - k]
    g_rows, groups = np.nonzero(maxima >= bound[:, None])
    tail = groups == w  # the last, short group (columns full..n)
    g_rows, groups, t_rows = g_rows[~tail], groups[~tail], g_rows[tail]
    rows = np.repeat(g_rows, GROUP)
    cols = (groups[:, None] + w * np.arange(GROUP)).ravel()
    if len(t_rows):
        rows = np.concatenate([rows, np.repeat(t_rows, n - full)])
        cols = np.concatenate([cols, np.tile(np.arange(full, n), len(t_rows))])
    keep = scores[rows, cols] >= bound[rows]
    return rows[keep], cols[keep]


def recall_at_k(found: np.ndarray, truth: np.ndarray) -> float:
    """Mean share of each row of ``truth`` (exact top-k indices) that ``found`` holds."""
    if truth.size == 0:
        return 1.0
    hits = [len(set(f.tolist()) & set(t.tolist()) - {-1}) for f, t in zip(found, truth, strict=True)]
    return float(np.sum(hits) / np.sum(truth >= 0))


# ----------------------------------------------------------------------------- approximate


@dataclass(frozen=True)
class HnswParams:
    """faiss HNSW settings: ``m`` links per node, ``ef_construction`` candidates while building,
    ``ef_search`` while searching (the recall/speed trade-off). recall@10 at the default: 0.972 on
    10,000 MiniLM vectors (``benchmarks/results/retrieval_scale.md``), 0.990 on 100,000 real ones
    (``benchmarks/results/ann_real_100k.md``); random vectors, which have no neighbourhoods, get far
    less."""

    m: int = 32
    ef_construction: int = 80
    ef_search: int = 128


def faiss_module() -> ModuleType:
    """faiss, or one line saying how to get it."""
    try:
        import faiss
    except ImportError:
        raise RagdxError("the approximate index needs faiss: pip install 'ragdx[ann]' (faiss-cpu)",
                         field="index") from None
    return faiss


class HnswIndex:
    """An approximate inner-product index (faiss ``IndexHNSWFlat``) over unit vectors; saved to
    and loaded from a file so a second build of the same corpus skips the graph construction."""

    def __init__(self, params: HnswParams | None = None):
        self.params = params or HnswParams()
        self._index = None

    @staticmethod
    def key(matrix: np.ndarray, params: HnswParams) -> str:
        """A file name for this (vectors, settings): a digest of both."""
        h = hashlib.sha256(np.ascontiguousarray(matrix, dtype=np.float32).tobytes())
        h.update(f"{params.m}/{params.ef_construction}".encode())
        return f"hnsw-{h.hexdigest()[:24]}.faiss"

    def build(self, matrix: np.ndarray) -> HnswIndex:
        faiss = faiss_module()
        matrix = np.ascontiguousarray(matrix, dtype=np.float32)
        index = faiss.IndexHNSWFlat(matrix.shape[1], self.params.m, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = self.params.ef_construction
        index.add(matrix)
        self._index = index
        return self

    def build_or_load(self, matrix: np.ndarray, directory: Path | None) -> HnswIndex:
        """Load the saved index of these vectors from ``directory`` if there is one, else build
        it (and save it there). A file that cannot be read is rebuilt over, not trusted."""
        faiss = faiss_module()
        path = None if directory is None else Path(directory) / self.key(matrix, self.params)
        if path is not None and path.is_file():
            try:
                index = faiss.read_index(str(path))
                if index.ntotal == len(matrix) and index.d == matrix.shape[1]:
                    self._index = index
                    return self
            except RuntimeError:
                pass  # a truncated or foreign file: rebuilt and replaced below
        self.build(matrix)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            faiss.write_index(self._index, str(tmp))
            tmp.replace(path)  # whole or absent: a reader never sees half a file
        return self

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """``(indices, scores)`` of shape ``(len(queries), k)``; -1 / -inf where fewer were found."""
        if self._index is None:
            raise RagdxError("the approximate index has not been built", field="index")
        queries = np.ascontiguousarray(np.atleast_2d(queries), dtype=np.float32)
        k = max(0, min(int(k), self._index.ntotal))
        self._index.hnsw.efSearch = max(self.params.ef_search, k)
        scores, idx = self._index.search(queries, k)
        scores = scores.astype(np.float32, copy=False)
        scores[idx < 0] = -np.inf
        return idx.astype(np.int64, copy=False), scores
