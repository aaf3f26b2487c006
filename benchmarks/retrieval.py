"""Retrieval benchmarks.

``python benchmarks/retrieval.py speed``: index time and queries per second on synthetic data
(100,000 documents, 1,000 queries by default) for the keyword, BM25 and dense retrievers.
Dense *search* runs over random unit vectors of MiniLM's dimension (384): embedding 100k
documents with MiniLM on a 2-core CPU takes the better part of an hour, so only a sample is
embedded, to report embedding throughput. Search is exact (numpy inner product, no ANN index).

``python benchmarks/retrieval.py configs --demo DIR [--aurp DIR]``: hit rate@1 and @5 of the
paper's eight configurations (and single-retriever baselines) on the demo data (``ragdx demo
--out DIR``) and the GRAMMAR Aurp reference data, with and without the pre-retrieval filter.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_WAIT_POLICY", "passive")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np  # noqa: E402

from ragdx.rag.chunking import Chunk  # noqa: E402
from ragdx.rag.retrievers import BM25Retriever, DenseRetriever, KeywordRetriever, top_indices  # noqa: E402


def synthetic(n_docs: int, n_queries: int, seed: int = 0) -> tuple[list[str], list[str]]:
    """Documents of 40-160 words drawn from a Zipf-distributed 30,000-word vocabulary (word
    frequencies like real text); queries are 3-8 words taken from a random document."""
    rng = np.random.default_rng(seed)
    syll = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "do", "gu", "fe", "hi", "ja", "wu"]
    vocab = np.array(["".join(rng.choice(syll, rng.integers(2, 5))) + str(i % 7) for i in range(30000)])
    ranks = np.arange(1, len(vocab) + 1)
    p = 1.0 / ranks**1.07
    p /= p.sum()
    lengths = rng.integers(40, 161, n_docs)
    words = rng.choice(len(vocab), size=int(lengths.sum()), p=p)
    docs, pos = [], 0
    for n in lengths:
        docs.append(" ".join(vocab[words[pos:pos + n]]))
        pos += n
    queries = []
    for d in rng.integers(0, n_docs, n_queries):
        toks = docs[d].split()
        k = int(rng.integers(3, 9))
        start = int(rng.integers(0, max(1, len(toks) - k)))
        queries.append(" ".join(toks[start:start + k]))
    return docs, queries


def _qps(fn, queries) -> float:
    start = time.perf_counter()
    for q in queries:
        fn(q)
    return len(queries) / (time.perf_counter() - start)


def speed(args) -> None:
    t0 = time.perf_counter()
    docs, queries = synthetic(args.docs, args.queries)
    gen_s = time.perf_counter() - t0
    chunks = [Chunk(str(i), str(i), t) for i, t in enumerate(docs)]
    rows = []
    for name, make in (("keyword", KeywordRetriever), ("bm25 (bm25s)", BM25Retriever)):
        r = make()
        t = time.perf_counter()
        r.build(chunks)
        index_s = time.perf_counter() - t
        qps = _qps(lambda q, r=r: r.retrieve(q, 10), queries)
        rows.append((name, f"{index_s:.1f} s", f"{qps:,.0f}", "top-10, one query at a time"))

    dim = 384
    rng = np.random.default_rng(1)
    mat = rng.standard_normal((args.docs, dim), dtype=np.float32)
    mat /= np.linalg.norm(mat, axis=1, keepdims=True)
    qv = rng.standard_normal((args.queries, dim), dtype=np.float32)
    qv /= np.linalg.norm(qv, axis=1, keepdims=True)
    dense = DenseRetriever(cache_dir=None)
    t = time.perf_counter()
    dense.set_embeddings(chunks, mat)
    index_s = time.perf_counter() - t
    qps = _qps(lambda v: top_indices(dense.scores_for_vector(v), 10), qv)
    rows.append(("dense search (numpy)", f"{index_s:.2f} s", f"{qps:,.0f}",
                 f"exact inner product over {args.docs:,} random unit vectors (dim 384), one query at a time"))
    t = time.perf_counter()
    for i in range(0, len(qv), 100):
        block = mat @ qv[i:i + 100].T
        for j in range(block.shape[1]):
            top_indices(block[:, j], 10)
    rows.append(("dense search, batched", "-", f"{len(qv) / (time.perf_counter() - t):,.0f}",
                 "same, 100 queries per matrix product"))

    from ragdx.embed import Embedder

    emb = Embedder(cache_dir=None)
    emb.embed(["warm up"])
    sample = docs[: args.embed_sample]
    t = time.perf_counter()
    emb.embed(sample)
    eps = len(sample) / (time.perf_counter() - t)
    qsample = queries[:200]
    t = time.perf_counter()
    for q in qsample:
        emb.embed([q])
    q_eps = len(qsample) / (time.perf_counter() - t)
    rows.append(("MiniLM embedding (documents)", "-", f"{eps:,.0f} docs/s",
                 f"sample of {len(sample)}; 100k would take ~{args.docs / eps / 60:.0f} min"))
    rows.append(("MiniLM embedding (queries)", "-", f"{q_eps:,.0f} q/s", "one query at a time, no cache"))
    rows.append(("dense end to end", "-", f"{1 / (1 / q_eps + 1 / qps):,.0f}", "query embedding + search"))

    print(f"# retrieval speed: {args.docs:,} synthetic documents, {args.queries:,} queries "
          f"(generated in {gen_s:.1f} s)\n")
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPU cores, "
          f"Python {platform.python_version()}, numpy {np.__version__}\n")
    print("| retriever | index time | queries/s | note |\n|---|---:|---:|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


def configs(args) -> None:
    from ragdx.rag.corpus import load_corpus
    from ragdx.rag.pipeline import PAPER_CONFIGS, Pipeline, hit_rates, paper_config
    from ragdx.rag.retrievers import alternatives_from_dataset

    sets = []
    if args.demo:
        demo = Path(args.demo)
        recs = [json.loads(x) for x in (demo / "dataset" / "records.jsonl").read_text().splitlines() if x.strip()]
        recs = recs[:: args.demo_step]
        sets.append(("demo", load_corpus(demo / "kb"), recs, alternatives_from_dataset([demo / "dataset"])))
    if args.aurp:
        aurp = Path(args.aurp)
        files = [aurp / "eval_results" / f"results_{s}_balanced.json" for s in ("short", "long")]
        recs = [r for f in files for r in json.loads(f.read_text())]
        sets.append(("aurp", load_corpus(aurp / "retrieval_database" / "documents.json"), recs,
                     alternatives_from_dataset(files)))
    header = "| configuration | " + " | ".join(
        f"{n} hit@1 | {n} hit@5 | {n} hit@1 no filter | {n} hit@5 no filter" for n, *_ in sets) + " |"
    print(header)
    print("|---|" + "---:|" * (4 * len(sets)))
    baselines = [("keyword", {"type": "keyword"}), ("tfidf", {"type": "tfidf"}), ("bm25", {"type": "bm25"}),
                 ("dense", {"type": "dense"})]
    for name in [*PAPER_CONFIGS, *(b for b, _ in baselines)]:
        cells = []
        for _, corpus, recs, alts in sets:
            for flt in (True, False):
                if name in PAPER_CONFIGS:
                    p = paper_config(name, corpus=corpus, overrides=None if flt else {"filter": None})
                    if name.startswith("mq"):
                        p.set_alternatives(alts)
                else:
                    spec = dict(baselines)[name]
                    p = Pipeline(name, corpus, retriever=spec,
                                 filter={"type": "entity_filter"} if flt else None)
                h = hit_rates(p, recs)
                cells += [f"{h['hit@1']:.3f}", f"{h['hit@5']:.3f}"]
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)
    for label, corpus, recs, _ in sets:
        h = hit_rates(Pipeline("count", corpus, retriever={"type": "keyword"}), recs)
        print(f"\n{label}: {h['n']} queries, {h['n_answerable']} with a gold document in the corpus "
              "(hit rates are over those; the others are knowledge-base gaps)")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--docs", type=int, default=100_000)
    s.add_argument("--queries", type=int, default=1_000)
    s.add_argument("--embed-sample", type=int, default=256)
    c = sub.add_parser("configs")
    c.add_argument("--demo", help="output directory of `ragdx demo --out DIR`")
    c.add_argument("--demo-step", type=int, default=10, help="use every n-th demo query")
    c.add_argument("--aurp", help="the grammar-aurp reference data directory")
    args = ap.parse_args(argv)
    if args.cmd == "speed":
        speed(args)
    else:
        if not (args.demo or args.aurp):
            sys.exit("give --demo and/or --aurp")
        configs(args)


if __name__ == "__main__":
    main()
