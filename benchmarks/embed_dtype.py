"""Embedding in float32 vs bfloat16 on this CPU (or ``--device cuda``: this GPU), and which one
``embedder: {dtype: bfloat16}`` (or ``auto``) chooses here.

The packaged MiniLM embeds the same passages (~180 tokens each) and questions both ways, cache
off, the model loaded and warmed up before the clock starts; bfloat16 is forced for the
measurement even where ragdx would not choose it (a CPU without native bfloat16). Printed:
passages per second, the speed-up, the cosine between each text's two vectors, how far
retrieval agrees (the top 10 passages of each question under both), the CPU model and its
bfloat16 flags. ``--append FILE`` adds the section to a file that keeps one per CPU kind.
On a GPU the wall clock is the measure (the host's CPU seconds are the driver's and tokenizer's),
the questions' rate is given too (short texts: launch-bound batches), and ``--model-path`` may
name a copy of the model where the package is not installed.

    OMP_WAIT_POLICY=passive .venv/bin/python benchmarks/embed_dtype.py [--passages 512] [--out FILE | --append FILE]
        [--device cuda] [--model-path DIR] [--batch-size 64]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # loaded by path (tests) as well as run
from machine import cpu_model  # noqa: E402  (benchmarks/machine.py)

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
    # on a GPU ``encode`` returns numpy arrays: the copy back waits for the device's work
    vectors = embedder._normalised(embedder._encode(batch))
    return vectors, time.perf_counter() - start, time.process_time() - cpu


def gpu_section(args, embedders, timings, qtimes, n_passages: int, n_questions: int) -> list[str]:
    """The heading, the choice and the table for a GPU: wall-clock rates of passages and questions."""
    import torch

    from ragdx.embed import choose_dtype

    choice = choose_dtype("auto", args.device)
    weights = {d: str(next(e._load().parameters()).dtype).removeprefix("torch.") for d, e in embedders.items()}
    name = torch.cuda.get_device_name(args.device)
    lines = [f"## {name} (GPU; host CPU {cpu_model()})", "",
             f"MiniLM, float32 vs bfloat16 on `{args.device}`: {n_passages} passages (~180 tokens), "
             f"{n_questions} questions, batch size {args.batch_size}; torch {torch.__version__}; "
             f"{time.strftime('%Y-%m-%d')}.", "",
             f"`embedder: {{dtype: auto}}` (or `bfloat16`) with `device: {args.device}` runs in "
             f"**{choice.dtype}** here: {choice.reason}.", "",
             "| dtype | weights | passages wall s | passages/s | questions wall s | questions/s | "
             "speed-up (passages) | speed-up (questions) |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    base_p = float(np.median([w for w, _ in timings["float32"]]))
    base_q = float(np.median(qtimes["float32"]))
    for dtype in embedders:
        wall = float(np.median([w for w, _ in timings[dtype]]))
        qwall = float(np.median(qtimes[dtype]))
        lines.append(f"| {dtype} | {weights[dtype]} | {wall:.3f} | {n_passages / wall:,.0f} | {qwall:.3f} | "
                     f"{n_questions / qwall:,.0f} | {base_p / wall:.2f}× | {base_q / qwall:.2f}× |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passages", type=int, default=512)
    parser.add_argument("--questions", type=int, default=100)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--append", type=Path, help="append the section to this file")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved timing rounds (median reported)")
    parser.add_argument("--device", default="cpu", help="cpu (the default) or a torch GPU device such as cuda")
    parser.add_argument("--model-path", type=Path, help="a copy of MiniLM (default: the packaged one)")
    parser.add_argument("--batch-size", type=int, default=64, help="texts per forward pass (Embedder's default)")
    args = parser.parse_args()

    from ragdx.embed import BF16_FLAGS, DtypeChoice, Embedder, choose_dtype, cpu_bfloat16_flags

    passages = texts(args.passages, 140, 1)
    questions = [f"What is known about {q}?" for q in texts(args.questions, 8, 2)]
    embedders = {}
    for dtype in ("float32", "bfloat16"):
        embedder = Embedder(args.model_path, cache_dir=None, dtype=dtype, device=args.device,
                            batch_size=args.batch_size)
        # measured whatever ragdx would choose here (that choice is printed below)
        embedder._precision = DtypeChoice(dtype, dtype, "forced by the benchmark")
        embedder._load()
        embedders[dtype] = embedder
    # interleaved rounds, the median of each: on a shared machine the load changes by the minute
    timings: dict[str, list[tuple[float, float]]] = {d: [] for d in embedders}
    qtimes: dict[str, list[float]] = {d: [] for d in embedders}
    vectors = {}
    for _ in range(args.rounds):
        for dtype, embedder in embedders.items():
            p, wall, cpu = timed(embedder, passages)
            timings[dtype].append((wall, cpu))
            q, qwall, _ = timed(embedder, questions)
            qtimes[dtype].append(qwall)
            vectors[dtype] = (p, q)
    rows = []
    for dtype, runs in timings.items():
        wall, cpu = float(np.median([w for w, _ in runs])), float(np.median([c for _, c in runs]))
        rows.append((dtype, wall, cpu, len(passages) / wall))
    (p32, q32), (p16, q16) = vectors["float32"], vectors["bfloat16"]
    cos = np.concatenate([(p32 * p16).sum(1), (q32 * q16).sum(1)])
    top = 10
    overlap = [len(set(np.argsort(-(p32 @ a))[:top]) & set(np.argsort(-(p16 @ b))[:top])) / top
               for a, b in zip(q32, q16, strict=True)]
    choice = choose_dtype("bfloat16")
    flags = cpu_bfloat16_flags()
    on_gpu = not args.device.startswith("cpu")
    lines = gpu_section(args, embedders, timings, qtimes, len(passages), len(questions)) if on_gpu else [
        f"## {cpu_model()}: {'native bfloat16 (' + ', '.join(flags) + ')' if flags else 'no native bfloat16'}",
             "",
             f"MiniLM, float32 vs bfloat16: {len(passages)} passages (~180 tokens), {len(questions)} questions; "
             f"{os.cpu_count()} CPUs, bfloat16 flags looked for: {', '.join(BF16_FLAGS)}; load average "
             f"{os.getloadavg()[0]:.1f} at the end; {time.strftime('%Y-%m-%d')}.", "",
             f"`embedder: {{dtype: bfloat16}}` (or `auto`) runs in **{choice.dtype}** on this CPU: {choice.reason}.",
             "",
             "| dtype | wall s | CPU s | passages/s | passages per CPU s | speed-up (wall) | speed-up (CPU) |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    # on a shared machine the wall clock measures the neighbours too; CPU seconds measure the work
    for dtype, wall, cpu, rate in [] if on_gpu else rows:
        lines.append(f"| {dtype} | {wall:.2f} | {cpu:.2f} | {rate:.1f} | {len(passages) / cpu:.1f} | "
                     f"{rows[0][1] / wall:.2f}× | {rows[0][2] / cpu:.2f}× |")
    lines += ["", f"Cosine between a text's float32 and bfloat16 vectors: min {cos.min():.6f}, median "
                  f"{np.median(cos):.6f} ({len(cos)} texts). Top-{top} passages per question, bfloat16 vs "
                  f"float32: mean overlap {np.mean(overlap):.3f}, min {min(overlap):.1f}.", "",
              f"Median of {args.rounds} interleaved rounds. Command: `python benchmarks/embed_dtype.py --passages "
              f"{args.passages} --questions {args.questions} --rounds {args.rounds}"
              + (f" --device {args.device} --batch-size {args.batch_size}" if on_gpu else "") + "`"]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    if args.append:
        with args.append.open("a", encoding="utf-8") as f:
            f.write("\n" + text)



if __name__ == "__main__":
    main()
