"""Speed of the on-disk caches (issue 20: one key-value cache): embedding hits and misses, LLM cache hits.

    OMP_WAIT_POLICY=passive .venv/bin/python benchmarks/cache_speed.py [--n 10000] [--repeat 5]

Embeddings: an embedder whose model is a seeded random generator (so the time is the cache's, not a
model's) embeds ``n`` new texts (misses: encode + write) into a fresh cache directory, then a new
embedder instance fetches them all again (hits: one read of ``n`` vectors), ``repeat`` times; the
median (and the fastest) is printed. LLM: ``n // 10`` completions are put, then each is read back; the median time per
hit over ``repeat`` passes is printed.

To compare with an earlier ragdx, export its tree (``git archive <commit> src | tar -x -C /tmp/old``) and run
the script with ``PYTHONPATH=/tmp/old/src``, alternating with the current tree: on a shared machine only the
fastest passes of several alternations compare.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from ragdx.embed import CachedEmbedder
from ragdx.llm.cache import CompletionCache

DIM = 384


class RandomEmbedder(CachedEmbedder):
    batch_size = 64

    def __init__(self, cache_dir: Path):
        self._init_cache(cache_dir)
        self._rng = np.random.default_rng(0)

    @property
    def model_id(self) -> str:
        return "bench-random-384"

    @property
    def dimension(self) -> int:
        return DIM

    def _encode(self, texts: list[str]) -> np.ndarray:
        return self._rng.standard_normal((len(texts), DIM)).astype(np.float32)


def embedding_times(n: int, repeat: int, root: Path) -> tuple[float, float, float]:
    texts = [f"passage number {i}: some words to embed" for i in range(n)]
    t0 = time.perf_counter()
    RandomEmbedder(root).embed(texts)
    miss = time.perf_counter() - t0
    hits = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = RandomEmbedder(root).embed(texts)
        hits.append(time.perf_counter() - t0)
        assert out.shape == (n, DIM)
    return miss, statistics.median(hits), min(hits)


def llm_hit_time(n: int, repeat: int, root: Path) -> float:
    cache = CompletionCache(root / "llm-cache.sqlite")
    requests = [{"base_url": "http://localhost:1/v1", "model": "m", "params": {"temperature": 0},
                 "messages": [{"role": "user", "content": f"question {i} " * 20}], "sample_index": 0}
                for i in range(n)]
    for r in requests:
        cache.put(r, {"text": "an answer " * 30, "usage": {"prompt_tokens": 10, "completion_tokens": 20}})
    passes = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for r in requests:
            assert cache.get(r) is not None
        passes.append((time.perf_counter() - t0) / n)
    return statistics.median(passes)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        miss, hit, fastest = embedding_times(args.n, args.repeat, Path(tmp) / "emb")
        llm = llm_hit_time(max(1, args.n // 10), args.repeat, Path(tmp) / "llm")
    print(f"embeddings: {args.n} misses (encode + write) {miss * 1000:.0f} ms; "
          f"{args.n} hits {hit * 1000:.1f} ms (median of {args.repeat}; fastest {fastest * 1000:.1f} ms)")
    print(f"LLM cache: {llm * 1e6:.0f} µs per hit (median of {args.repeat} passes over {max(1, args.n // 10)})")


if __name__ == "__main__":
    main()
