"""Retrieval at scale (issue 24 item 5): dense search batched across queries with the per-query
ranking's order, an approximate (HNSW) index chosen by ``index: ann`` with its recall against
exact search and a saved graph loaded back, and BM25's batched numba ranking identical to the
per-query one."""

from __future__ import annotations

import numpy as np
import pytest

from ragdx.errors import RagdxError
from ragdx.rag.ann import exact_search, recall_at_k, top_k_rows
from ragdx.rag.chunking import Chunk
from ragdx.rag.retrievers import BM25Retriever, DenseRetriever, top_indices


def _unit(rng, n, dim):
    v = rng.standard_normal((n, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


@pytest.mark.parametrize("n", [37, 1000, 4099])
@pytest.mark.parametrize("k", [1, 10, 60])
def test_grouped_selection_is_the_per_query_ranking_ties_in_unit_order(n, k):
    rng = np.random.default_rng(n + k)
    # scores rounded to one decimal: many equal scores, some at every cut
    scores = np.round(rng.standard_normal((9, n)), 1).astype(np.float32)
    idx, val = top_k_rows(scores, min(k, n))
    for row in range(len(scores)):
        expected = top_indices(scores[row].astype(np.float64), k)
        assert idx[row].tolist() == expected.tolist()
        assert np.array_equal(val[row], scores[row][expected])


@pytest.mark.parametrize("n", [37, 2048, 4099])
def test_tiled_batched_search_keeps_every_tie_in_unit_order(n):
    rng = np.random.default_rng(n)
    # small integer vectors: exact integer scores, so many units tie at every cut, across tiles
    matrix = rng.integers(-2, 3, (n, 8)).astype(np.float32)
    queries = rng.integers(-2, 3, (20, 8)).astype(np.float32)
    for k in (1, 10, 50):
        idx, val = exact_search(matrix, queries, k)
        for q, row, scores in zip(queries, idx, val, strict=True):
            expected = top_indices(matrix @ q, k)
            assert row.tolist() == expected.tolist() and np.array_equal(scores, (matrix @ q)[expected])


def test_batched_exact_search_matches_one_query_at_a_time_with_a_filter_and_padding():
    rng = np.random.default_rng(1)
    matrix, queries = _unit(rng, 5000, 48), _unit(rng, 70, 48)
    idx, val = exact_search(matrix, queries, 10)
    for q, row in zip(queries, idx, strict=True):
        assert row.tolist() == top_indices(matrix @ q, 10).tolist()
    mask = np.zeros(5000, dtype=bool)
    mask[rng.choice(5000, 6, replace=False)] = True  # fewer allowed units than k
    idx, val = exact_search(matrix, queries, 10, mask)
    for q, row, scores in zip(queries, idx, val, strict=True):
        expected = top_indices(matrix @ q, 10, mask).tolist()
        assert row[:6].tolist() == expected and (row[6:] == -1).all() and np.isneginf(scores[6:]).all()
    assert exact_search(matrix, queries, 0)[0].shape == (70, 0)
    assert exact_search(matrix[:3], queries, 10)[0].shape == (70, 3)  # k capped at the corpus


def _dense(rng, n=3000, dim=32, **kw):
    units = [Chunk(f"c{i}", f"d{i % 700}", f"text {i}") for i in range(n)]
    # clustered, as embeddings of real text are: 60 centres, points near them
    centres = _unit(rng, 60, dim)
    matrix = centres[rng.integers(0, 60, n)] + 0.35 * rng.standard_normal((n, dim)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    dense = DenseRetriever(**{"cache_dir": None, **kw})
    dense.set_embeddings(units, matrix)
    return dense, matrix


def test_prepare_ranks_queries_in_batches_with_the_rankings_of_one_at_a_time():
    rng = np.random.default_rng(2)
    dense, matrix = _dense(rng)
    queries = [f"q{i}" for i in range(40)]
    dense._query_vectors = dict(zip(queries, _unit(rng, 40, 32), strict=True))
    one_at_a_time = {q: dense.ranked(q, 10) for q in queries}
    assert dense._prefetched == {}
    dense.prepare(queries)
    assert set(dense._prefetched) == set(queries)
    for q in queries:
        batched = dense.ranked(q, 10)
        assert [i for i, _ in batched] == [i for i, _ in one_at_a_time[q]]
        assert np.allclose([s for _, s in batched], [s for _, s in one_at_a_time[q]], atol=1e-5)
    # a filtered or deeper ranking than prepared is computed one at a time, and still exact
    allowed = {"d3", "d5"}
    filtered = dense.ranked(queries[0], 5, allowed)
    assert filtered and all(dense.units[i].doc_id in allowed for i, _ in filtered)
    deep = dense.ranked(queries[0], dense.PREFETCH_K + 5)
    assert [i for i, _ in deep] == top_indices(matrix @ dense._query_vectors[queries[0]], dense.PREFETCH_K + 5).tolist()
    # indexing other units forgets the rankings of the old ones
    dense.set_embeddings(dense.units, matrix[::-1].copy())
    assert dense._prefetched == {}


def test_an_unknown_index_or_ann_key_is_refused_and_the_default_keeps_the_identity():
    with pytest.raises(RagdxError) as info:
        DenseRetriever(cache_dir=None, index="ivf")
    assert info.value.field == "index"
    with pytest.raises(RagdxError) as info:
        DenseRetriever(cache_dir=None, index="ann", ann={"efsearch": 10})
    assert info.value.field == "ann"
    assert "index" not in DenseRetriever(cache_dir=None).to_dict()["params"]
    assert DenseRetriever(cache_dir=None, index="ann").to_dict()["params"]["index"] == "ann"


def test_the_approximate_index_reaches_recall_095_and_is_saved_and_loaded_back(tmp_path):
    pytest.importorskip("faiss")
    rng = np.random.default_rng(3)
    dense, matrix = _dense(rng)
    queries = _unit(rng, 200, 32)
    exact, _ = dense.search_vectors(queries, 10)
    ann, _ = _dense(np.random.default_rng(3), cache_dir=str(tmp_path), index="ann")
    found, scores = ann.search_vectors(queries, 10)
    assert recall_at_k(found, exact) >= 0.95
    assert np.all(np.diff(scores, axis=1) <= 1e-6)  # best first
    saved = list((tmp_path / "ann").glob("hnsw-*.faiss"))
    assert len(saved) == 1
    # a second retriever over the same vectors loads the graph: same answers, no rebuild
    again, _ = _dense(np.random.default_rng(3), cache_dir=str(tmp_path), index="ann")
    mtime = saved[0].stat().st_mtime_ns
    assert np.array_equal(again.search_vectors(queries, 10)[0], found)
    assert saved[0].stat().st_mtime_ns == mtime
    # a damaged file is rebuilt over, not trusted
    saved[0].write_bytes(b"not an index")
    broken, _ = _dense(np.random.default_rng(3), cache_dir=str(tmp_path), index="ann")
    assert recall_at_k(broken.search_vectors(queries, 10)[0], exact) >= 0.95
    assert saved[0].stat().st_size > 1000
    # a filtered ranking stays exact
    allowed = {"d1", "d2"}
    mask_idx, _ = ann.search_vectors(queries[:5], 3, allowed)
    for q, row in zip(queries[:5], mask_idx, strict=True):
        mask = np.isin([u.doc_id for u in ann.units], list(allowed))
        assert row.tolist() == top_indices(matrix @ q, 3, mask).tolist()


def _bm25_corpus(n=1500):
    rng = np.random.default_rng(4)
    words = [f"w{i}" for i in range(300)]
    docs = [" ".join(rng.choice(words, int(rng.integers(4, 30)))) for _ in range(n)]
    queries = [" ".join(rng.choice(words, 3)) for _ in range(60)] + ["nothing matches zzz"]
    retriever = BM25Retriever()
    retriever.build([Chunk(str(i), str(i), d) for i, d in enumerate(docs)])
    return retriever, queries


def test_bm25_without_numba_or_below_the_threshold_ranks_one_query_at_a_time():
    retriever, queries = _bm25_corpus()
    retriever.prepare(queries)  # 1,500 units x 61 queries: far below the compile's cost
    assert retriever._prefetched == {}
    retriever.NUMBA_MIN_WORK = 0
    retriever._index.backend = "numpy"  # as where numba is not installed
    retriever.prepare(queries)
    assert retriever._prefetched == {}


@pytest.mark.slow
def test_bm25_batched_numba_rankings_equal_the_per_query_ones():
    pytest.importorskip("numba")
    retriever, queries = _bm25_corpus()
    assert retriever.backend == "numba"
    deep = retriever.PREFETCH_K + 1
    plain = {q: retriever.ranked(q, deep) for q in queries}
    retriever.NUMBA_MIN_WORK = 0
    retriever.prepare(queries)
    assert len(retriever._prefetched) >= len(queries) - 1
    assert "nothing matches zzz" not in retriever._prefetched
    for q, (kept, _) in retriever._prefetched.items():
        # served from the batch at every depth it was kept to, and equal to one at a time there
        assert retriever._from_prefetch(q, len(kept), None) == plain[q][:len(kept)]
        assert retriever.ranked(q, 10) == plain[q][:10]


def test_an_approximate_index_without_faiss_is_refused_when_configured(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "faiss", None)  # as where faiss is not installed
    with pytest.raises(RagdxError, match=r"ragdx\[ann\]") as info:
        DenseRetriever(cache_dir=None, index="ann")
    assert info.value.field == "index"
    DenseRetriever(cache_dir=None)  # exact search needs no faiss
