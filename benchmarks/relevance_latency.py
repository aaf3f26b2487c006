"""Latency of the online knowledge-boundary test, query embedding excluded.

    OMP_WAIT_POLICY=passive .venv/bin/python benchmarks/relevance_latency.py [--chunks 100000]

100,000 synthetic 384-d chunk embeddings (MiniLM's dimension) drawn around 2,000 random topic
directions, so that nearest neighbours mean something, as in a real corpus (on isotropic noise every
chunk is about equally far and no index can do better than a scan); 500 calibration queries from
the same topics. Measures one ``RelevanceTester.test`` call per query (p50 / p99 over 1,000
queries) and batched throughput (batches of 1,000), for the default search (IVF at this size)
and for exact search, and the IVF's recall of the exact 10 nearest similarities.
Targets on 2 cores: p50 < 5 ms, >= 2,000 queries/s.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]


def synthetic(rng: np.random.Generator, n: int, centres: np.ndarray, noise: float) -> np.ndarray:
    x = centres[rng.integers(0, len(centres), n)] + rng.normal(size=(n, centres.shape[1])) * noise
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def main() -> None:
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")
    sys.path.insert(0, str(REPO / "src"))
    from ragdx.relevance import RelevanceTester

    ap = argparse.ArgumentParser()
    ap.add_argument("--chunks", type=int, default=100_000)
    ap.add_argument("--single", type=int, default=1000)
    ap.add_argument("--batched", type=int, default=5000)
    ap.add_argument("--batch-size", type=int, default=1000)
    ap.add_argument("--exact-single", type=int, default=200, help="exact search is slow; fewer single queries")
    args = ap.parse_args()

    rng = np.random.default_rng(0)
    centres = rng.normal(size=(2000, 384))
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    corpus = synthetic(rng, args.chunks, centres, 0.06)
    calibration = synthetic(rng, 500, centres, 0.08)
    queries = synthetic(rng, max(args.single, args.batched), centres, 0.08)

    rows = []
    exact_topk = None
    for search in ("auto", "exact"):
        t0 = time.perf_counter()
        tester = RelevanceTester(search=search).fit(corpus, calibration)
        fit_s = time.perf_counter() - t0
        n_single = args.single if search == "auto" else args.exact_single
        tester.test(queries[:1])  # warm-up
        lat = []
        for i in range(n_single):
            t = time.perf_counter()
            tester.test(queries[i:i + 1])
            lat.append(time.perf_counter() - t)
        t = time.perf_counter()
        done = 0
        for start in range(0, args.batched, args.batch_size):
            done += len(tester.test(queries[start:start + args.batch_size]))
        qps = done / (time.perf_counter() - t)
        topk = tester.top_k(queries[:1000])
        if search == "exact":
            exact_topk = topk
        rows.append({"search": f"{tester.index_.kind}" + (f" (probe {tester.index_.n_probe}/"
                                                          f"{len(tester.index_.centroids)} lists)"
                                                          if tester.index_.kind == "ivf" else ""),
                     "fit_s": fit_s, "p50_ms": 1000 * float(np.median(lat)),
                     "p99_ms": 1000 * float(np.quantile(lat, 0.99)), "n_single": n_single, "qps": qps,
                     "topk": topk})
    assert exact_topk is not None
    for row in rows:
        found = (row["topk"] >= exact_topk[:, -1:] - 1e-6).sum(axis=1)
        row["recall"] = float(np.minimum(found, 10).mean() / 10)

    print(f"Online test latency, {args.chunks:,} chunk embeddings (384-d), k=10, 500 calibration queries, "
          f"{os.cpu_count()} CPU cores; query embedding excluded.\n")
    print("| search | fit (s) | p50 (ms) | p99 (ms) | single queries | batched queries/s | recall@10 vs exact |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['search']} | {r['fit_s']:.1f} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} | {r['n_single']} | "
              f"{r['qps']:,.0f} | {r['recall']:.3f} |")
    best = rows[0]
    ok = best["p50_ms"] < 5 and best["qps"] >= 2000
    print(f"\nTargets (p50 < 5 ms, >= 2,000 queries/s) with the default search: {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
