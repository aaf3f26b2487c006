"""Embedding in float32 vs the opt-in bfloat16 (``embedder: {dtype: bfloat16}``) on this CPU.

The packaged MiniLM embeds the same passages (~180 tokens each) and questions both ways, cache
off, the model loaded and warmed up before the clock starts. Printed: passages per second,
the speed-up, the cosine between each text's two vectors, and how far retrieval agrees (the top
10 passages of each question under both).

    OMP_WAIT_POLICY=passive .venv/bin/python benchmarks/embed_dtype.py [--passages 512] [--out FILE]
"""

from __future__ import annotations

import argparse
import os
import random
import time
from pathlib import Path

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("OMP_WAIT_POLICY", "passive")

WORDS = ("river town mayor school founded district population museum bridge council railway station "
         "harbour market church library festival hospital university factory mill canal park castle "
         "north south east west old new small large ancient modern busy quiet").split()


def texts(n: int, words: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        body = " ".join(rng.choice(WORDS) for _ in range(words))
        out.append(f"Record {i}: the town of Arlen-{i % 97} in {1700 + i % 300}. {body}.")
    return out


def timed(embedder, batch: list[str]) -> tuple[np.ndarray, float, float]:
    embedder._encode(batch[:16])  # warm-up: first-call allocations are not the rate
    start, cpu = time.perf_counter(), time.process_time()
    vectors = embedder._normalised(embedder._encode(batch))
    return vectors, time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passages", type=int, default=512)
    parser.add_argument("--questions", type=int, default=100)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()

    from ragdx.embed import Embedder, cpu_has_bfloat16

    passages = texts(args.passages, 140, 1)
    questions = [f"What is known about {q}?" for q in texts(args.questions, 8, 2)]
    rows, vectors = [], {}
    for dtype in ("float32", "bfloat16"):
        embedder = Embedder(cache_dir=None, dtype=dtype)
        embedder._load()
        p, wall, cpu = timed(embedder, passages)
        q, _, _ = timed(embedder, questions)
        vectors[dtype] = (p, q)
        rows.append((dtype, wall, cpu, len(passages) / wall))
    (p32, q32), (p16, q16) = vectors["float32"], vectors["bfloat16"]
    cos = np.concatenate([(p32 * p16).sum(1), (q32 * q16).sum(1)])
    top = 10
    overlap = [len(set(np.argsort(-(p32 @ a))[:top]) & set(np.argsort(-(p16 @ b))[:top])) / top
               for a, b in zip(q32, q16, strict=True)]
    lines = [f"# MiniLM, float32 vs bfloat16: {len(passages)} passages (~180 tokens), {len(questions)} questions; "
             f"{os.cpu_count()} CPUs, native bfloat16: {cpu_has_bfloat16()}, load average "
             f"{os.getloadavg()[0]:.1f}", "",
             "| dtype | wall s | CPU s | passages/s | speed-up |", "|---|---:|---:|---:|---:|"]
    for dtype, wall, cpu, rate in rows:
        lines.append(f"| {dtype} | {wall:.2f} | {cpu:.2f} | {rate:.1f} | {rows[0][1] / wall:.2f}× |")
    lines += ["", f"Cosine between a text's float32 and bfloat16 vectors: min {cos.min():.6f}, median "
                  f"{np.median(cos):.6f} ({len(cos)} texts). Top-{top} passages per question, bfloat16 vs "
                  f"float32: mean overlap {np.mean(overlap):.3f}, min {min(overlap):.1f}.", "",
              f"Command: `python benchmarks/embed_dtype.py --passages {args.passages} --questions {args.questions}`"]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
