"""Retrieval at scale: dense search batched across queries against faiss, the approximate (HNSW)
index's recall@10 and speed, and BM25 per query against bm25s's batched numba backend.

* Dense, exact: 100,000 random unit vectors of MiniLM's dimension (384) and 1,000 random unit
  queries (the cost of a search does not depend on the model, and embedding 100k passages on a
  2-core CPU takes the better part of an hour). ragdx's ``DenseRetriever.search_vectors`` (one
  matrix product per block of queries, grouped top-k selection) against faiss's
  ``IndexFlatIP.search``, batched and one query at a time, in interleaved rounds (median of
  each). "before" is the per-query path as it was: one matrix-vector product and an
  ``argpartition`` of the whole row.
* Dense, approximate: ``DenseRetriever(index="ann")`` (faiss HNSW, M=32, efConstruction=80) at
  several ``ef_search``: recall@10 against the exact ranking, on the same random vectors (the
  worst case: no structure for the graph to use) and on MiniLM vectors of ``--real`` synthetic
  passages with queries drawn from them (embedded through the shared cache, so a rerun is free).
* BM25: ``--bm25-docs`` short passages (30 words of benchmarks/retrieval.py's Zipf text), 2,000
  queries: ``ranked`` one query at a time (numpy) against ``prepare`` (bm25s's numba backend,
  compiled on first use: its compilation is timed apart), and whether the rankings agree.

    OMP_WAIT_POLICY=passive .venv/bin/python benchmarks/retrieval_scale.py [--out FILE]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_WAIT_POLICY", "passive")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from embed_dtype import cpu_model  # noqa: E402
from retrieval import synthetic  # noqa: E402

from ragdx.rag.ann import recall_at_k  # noqa: E402
from ragdx.rag.chunking import Chunk  # noqa: E402
from ragdx.rag.retrievers import BM25Retriever, DenseRetriever  # noqa: E402


def unit(rng: np.random.Generator, n: int, dim: int) -> np.ndarray:
    v = rng.standard_normal((n, dim), dtype=np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def before_top(matrix: np.ndarray, vector: np.ndarray, k: int) -> np.ndarray:
    """The per-query path before this change: a matrix-vector product, then an argpartition of
    the whole row, ties in index order."""
    s = matrix @ vector
    part = np.argpartition(-s, k - 1)[:k]
    thr = s[part].min()
    above = np.flatnonzero(s > thr)
    cand = np.concatenate([above, np.flatnonzero(s == thr)[: k - len(above)]])
    return cand[np.lexsort((cand, -s[cand]))]


def rate(fn, count: int) -> float:
    start = time.perf_counter()
    fn()
    return count / (time.perf_counter() - start)


def dense_exact(args, rng) -> tuple[list[str], DenseRetriever, np.ndarray, np.ndarray]:
    import faiss

    matrix, queries = unit(rng, args.docs, 384), unit(rng, args.queries, 384)
    chunks = [Chunk(str(i), str(i), "") for i in range(args.docs)]
    dense = DenseRetriever(cache_dir=None)
    dense.set_embeddings(chunks, matrix)
    flat = faiss.IndexFlatIP(384)
    flat.add(matrix)
    single = queries[: args.single]
    methods = {
        "ragdx, batched (search_vectors)": (lambda: dense.search_vectors(queries, 10), len(queries)),
        "faiss IndexFlatIP, batched": (lambda: flat.search(queries, 10), len(queries)),
        "ragdx, one query at a time": (lambda: [dense.search_vectors(q[None], 10) for q in single], len(single)),
        "faiss IndexFlatIP, one query at a time": (lambda: [flat.search(q[None], 10) for q in single], len(single)),
        "before: matrix-vector + argpartition, one at a time": (
            lambda: [before_top(matrix, q, 10) for q in single], len(single)),
    }
    dense.search_vectors(queries[:16], 10)  # warm-up: the first product imports torch
    runs: dict[str, list[float]] = {name: [] for name in methods}
    for _ in range(args.rounds):
        for name, (fn, count) in methods.items():
            runs[name].append(rate(fn, count))
    ours, _ = dense.search_vectors(queries, 10)
    _, theirs = flat.search(queries, 10)
    med = {name: statistics.median(r) for name, r in runs.items()}
    lines = [f"### Dense, exact: {args.docs:,} random unit vectors x 384, top 10, {args.rounds} interleaved rounds",
             "", "| search | queries/s (median) | rounds | vs faiss (same mode) |", "|---|---:|---|---:|"]
    for name, value in med.items():
        ref = med["faiss IndexFlatIP, batched" if "batched" in name else "faiss IndexFlatIP, one query at a time"]
        lines.append(f"| {name} | {value:,.0f} | {', '.join(f'{r:,.0f}' for r in runs[name])} | "
                     f"{value / ref:.2f}x |")
    lines += ["", f"Same top 10 as faiss, position by position: {np.mean(ours == theirs):.4f} of "
                  f"{ours.size:,} (a difference is a near-tie within float32 rounding).", ""]
    return lines, dense, matrix, queries


def ann_rows(label: str, dense: DenseRetriever, queries: np.ndarray, efs: list[int], rounds: int) -> list[str]:
    exact, _ = dense.search_vectors(queries, 10)
    t = time.perf_counter()
    index = DenseRetriever(cache_dir=None, index="ann", ann={"ef_search": efs[0]})
    index.set_embeddings(dense.units, dense._matrix)
    hnsw = index._ann()
    build_s = time.perf_counter() - t
    exact_rate = statistics.median(rate(lambda: dense.search_vectors(queries, 10), len(queries))
                                   for _ in range(rounds))
    rows = [f"### Approximate (faiss HNSW, M=32, efConstruction=80): {label}", "",
            f"Graph built in {build_s:.1f} s; exact batched search here: {exact_rate:,.0f} queries/s.", "",
            "| ef_search | recall@10 vs exact | queries/s batched | queries/s one at a time | vs exact batched |",
            "|---:|---:|---:|---:|---:|"]
    single = queries[:200]
    for ef in efs:
        hnsw.params = type(hnsw.params)(m=32, ef_construction=80, ef_search=ef)
        found, _ = hnsw.search(queries, 10)
        batched = statistics.median(rate(lambda: hnsw.search(queries, 10), len(queries)) for _ in range(rounds))
        one = statistics.median(rate(lambda: [hnsw.search(q[None], 10) for q in single], len(single))
                                for _ in range(rounds))
        rows.append(f"| {ef} | {recall_at_k(found, exact):.4f} | {batched:,.0f} | {one:,.0f} | "
                    f"{batched / exact_rate:.1f}x |")
    return rows + [""]


def real_vectors(n: int, n_queries: int) -> tuple[DenseRetriever, np.ndarray]:
    from ragdx.embed import Embedder

    docs, queries = synthetic(n, n_queries, seed=3)
    docs = [" ".join(d.split()[:24]) for d in docs]
    embedder = Embedder()  # the shared cache: a rerun embeds nothing
    dense = DenseRetriever(cache_dir=None)
    dense.set_embeddings([Chunk(str(i), str(i), d) for i, d in enumerate(docs)], embedder.embed(docs))
    return dense, embedder.embed(queries)


def bm25(args) -> list[str]:
    docs, queries = synthetic(args.bm25_docs, args.bm25_queries, seed=5)
    docs = [" ".join(d.split()[:30]) for d in docs]
    chunks = [Chunk(str(i), str(i), d) for i, d in enumerate(docs)]
    r = BM25Retriever()
    t = time.perf_counter()
    r.build(chunks)
    build_s = time.perf_counter() - t
    warm, rest = queries[:20], queries[20:]
    t = time.perf_counter()
    plain = [r.ranked(q, 10) for q in rest]
    per_query = len(rest) / (time.perf_counter() - t)
    r.NUMBA_MIN_WORK = 0  # measured here whatever the size
    t = time.perf_counter()
    r.prepare(warm)
    compile_s = time.perf_counter() - t
    t = time.perf_counter()
    r.prepare(rest)
    batched = len(rest) / (time.perf_counter() - t)
    kept = sum(q in r._prefetched for q in rest)
    same = sum(r.ranked(q, 10) == p for q, p in zip(rest, plain, strict=True))
    return [f"### BM25: {args.bm25_docs:,} passages of 30 words, {len(rest):,} queries, top 10 "
            f"(bm25s backend here: {r.backend})", "",
            "| path | queries/s | note |", "|---|---:|---|",
            f"| `ranked`, one query at a time (numpy scores + grouped top-k) | {per_query:,.0f} | "
            f"index built in {build_s:.1f} s |",
            f"| `prepare`, batched (bm25s numba backend, {os.cpu_count()} threads) | {batched:,.0f} | "
            f"after {compile_s:.1f} s compiling on the first batch |",
            "", f"Batched rankings kept: {kept:,} of {len(rest):,} (the rest split a tie at the cut and are "
                f"ranked one at a time); identical to the per-query ranking: {same:,} of {len(rest):,}.", ""]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=1_000)
    parser.add_argument("--single", type=int, default=200, help="queries timed one at a time")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--real", type=int, default=20_000, help="MiniLM-embedded passages for recall (0: skip)")
    parser.add_argument("--bm25-docs", type=int, default=100_000)
    parser.add_argument("--bm25-queries", type=int, default=2_000)
    parser.add_argument("--skip", nargs="*", default=[], choices=["ann", "bm25"])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()

    import bm25s
    import faiss

    flags = set(Path("/proc/cpuinfo").read_text().split()) if Path("/proc/cpuinfo").exists() else set()
    simd = [f for f in ("avx2", "avx512f", "avx512_bf16", "amx_bf16") if f in flags]
    command = "python benchmarks/retrieval_scale.py " + " ".join(sys.argv[1:])
    lines = [f"# Retrieval at scale ({time.strftime('%Y-%m-%d')})", "",
             f"Command: `{command.strip()}`", "",
             f"CPU: {cpu_model()} ({', '.join(simd) or 'no AVX2'}), {os.cpu_count()} cores; numpy {np.__version__}, "
             f"faiss-cpu {faiss.__version__}, bm25s {bm25s.__version__}; load average at start "
             f"{os.getloadavg()[0]:.1f}.", ""]
    rng = np.random.default_rng(0)
    section, dense, _, queries = dense_exact(args, rng)
    lines += section
    print("\n".join(lines), flush=True)
    if "bm25" not in args.skip:
        more = bm25(args)
        print("\n".join(more), flush=True)
        lines += more
    if "ann" not in args.skip:
        if args.real:
            real, real_queries = real_vectors(args.real, args.queries)
            more = ann_rows(f"MiniLM vectors of {args.real:,} synthetic passages, queries drawn from them",
                            real, real_queries, [64, 128, 256], args.rounds)
            print("\n".join(more), flush=True)
            lines += more
        more = ann_rows(f"{args.docs:,} random unit vectors (no structure: the worst case)", dense, queries,
                        [64, 128, 256, 512], args.rounds)
        print("\n".join(more), flush=True)
        lines += more
    lines.append(f"Load average at the end: {os.getloadavg()[0]:.1f} (2 cores shared with other work: "
                 "ratios come from interleaved rounds, absolute rates vary).")
    if args.out:
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
