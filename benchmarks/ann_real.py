"""The approximate (HNSW) index's recall@10 on 100,000 real MiniLM embeddings, against exact search.

``benchmarks/retrieval_scale.py`` measured recall on 10,000 MiniLM vectors and on 100,000 random
ones (no neighbourhood structure: the worst case). This measures it where issue 24 asks, at
100,000 real texts: what ragdx itself writes and indexes, nothing downloaded.

* Texts: questions from ``ragdx gen`` datasets (``--datasets``: directories holding
  ``records.jsonl``) and passages from rendered knowledge bases (``--kbs``: ``ragdx kb render``
  directories) and document folders (``--docs``: .md/.txt files), both cut by ragdx's
  ``split_text`` into 500-character windows (overlap 50). Deduplicated, then with a fixed seed:
  every passage and questions up to ``--n`` texts form the index; ``--queries`` other questions
  (never in the index) are the queries.
* Vectors: the packaged all-MiniLM-L6-v2 through ``ragdx.embed.Embedder`` (``dtype="auto"``),
  saved as .npy under ``--cache`` (default /tmp) keyed by a digest of the texts: a rerun embeds
  nothing.
* Measured: ``ragdx.rag.ann.exact_search`` (the default, exact, batched) for the truth and its
  time per batch; ``ragdx.rag.ann.HnswIndex`` for each (M, efConstruction) in ``--builds`` and
  each ef_search in ``--ef``: recall@10 against exact, time per batch of all the queries, and
  queries per second one at a time. Times are medians of interleaved rounds.

    OMP_WAIT_POLICY=passive HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/ann_real.py \\
        --datasets /tmp/annreal/ds_* --kbs /tmp/annreal/kb_* --docs benchmarks/corpora/*/docs \\
        [--n 100000] [--queries 1000] [--out benchmarks/results/ann_real_100k.md]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_WAIT_POLICY", "passive")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))  # loaded by path as well as run
from machine import cpu_model  # noqa: E402  (benchmarks/machine.py)

from ragdx.rag.ann import HnswIndex, HnswParams, exact_search, recall_at_k  # noqa: E402
from ragdx.rag.chunking import split_text  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def questions(datasets: list[Path]) -> dict[str, list[str]]:
    out = {}
    for d in datasets:
        with (d / "records.jsonl").open(encoding="utf-8") as f:
            out[d.name] = [json.loads(line)["query"] for line in f]
    return out


def passages(kbs: list[Path], docs: list[Path]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for kb in kbs:
        with (kb / "documents.jsonl").open(encoding="utf-8") as f:
            texts = [json.loads(line)["text"] for line in f]
        out[kb.name] = [p for t in texts for _, p in split_text(t, 500, 50)]
    for folder in docs:
        files = sorted(p for p in folder.rglob("*") if p.suffix in (".md", ".txt") and p.is_file())
        out[str(folder.relative_to(ROOT) if folder.is_relative_to(ROOT) else folder)] = [
            p for f in files for _, p in split_text(f.read_text(encoding="utf-8"), 500, 50)]
    return out


def select(qs: dict[str, list[str]], ps: dict[str, list[str]], n: int, n_queries: int,
           seed: int) -> tuple[list[str], list[str], dict[str, int]]:
    """(index texts, held-out query texts, texts per source in the index): every distinct
    passage, then distinct questions drawn at random up to ``n``; the queries are other questions."""
    seen: set[str] = set()
    index, sources = [], {}
    for name, texts in ps.items():
        kept = [t for t in texts if not (t in seen or seen.add(t))]
        index += kept
        sources[f"passages: {name}"] = len(kept)
    pool = []
    origin = {}
    for name, texts in qs.items():
        for t in texts:
            if t not in seen:
                seen.add(t)
                pool.append(t)
                origin[t] = name
    rng = random.Random(seed)
    rng.shuffle(pool)
    need = n - len(index)
    if need < 0 or need + n_queries > len(pool):
        raise SystemExit(f"{len(index)} passages and {len(pool)} distinct questions: cannot make {n} + {n_queries}")
    chosen, held = pool[:need], pool[need:need + n_queries]
    for t in chosen:
        sources[f"questions: {origin[t]}"] = sources.get(f"questions: {origin[t]}", 0) + 1
    return index + chosen, held, sources


def vectors(texts: list[str], cache: Path, label: str) -> tuple[np.ndarray, str]:
    """The texts' MiniLM vectors (ragdx's embedder, dtype auto), from ``cache`` when embedded before."""
    from ragdx.embed import Embedder

    embedder = Embedder(cache_dir=None, dtype="auto")
    digest = hashlib.sha256("\x1e".join(texts).encode()).hexdigest()[:16]
    path = cache / f"ann_real-{label}-{embedder.precision.dtype}-{digest}.npy"
    if path.is_file():
        return np.load(path), embedder.precision.reason
    t, cpu = time.perf_counter(), time.process_time()

    def progress(done: int, total: int) -> None:
        if done % 5120 < embedder.batch_size * 4 or done == total:
            print(f"  embedded {done:,}/{total:,} {label} ({time.perf_counter() - t:.0f} s)", flush=True)

    matrix = embedder.embed(texts, progress=progress)
    print(f"  {len(texts):,} {label} embedded in {time.perf_counter() - t:.0f} s wall, "
          f"{time.process_time() - cpu:.0f} CPU s ({embedder.precision.dtype})", flush=True)
    np.save(path, matrix)
    return matrix, embedder.precision.reason


def seconds(fn, rounds: int) -> list[float]:
    out = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def tie_recall(found: np.ndarray, matrix: np.ndarray, queries: np.ndarray, kth: np.ndarray) -> float:
    """recall@k where a found unit scoring at least the exact k-th score (within float32 rounding)
    counts: MiniLM's tokenizer is uncased, so texts differing in case alone have one vector, and
    which of several equal units fills the last places is arbitrary."""
    hits = 0
    for row, units in enumerate(found):
        units = units[units >= 0]
        hits += int(np.sum(matrix[units] @ queries[row] >= kth[row] - 1e-5))
    return hits / found.size


def grid(matrix: np.ndarray, queries: np.ndarray, builds: list[str], efs: list[int], rounds: int,
         n_single: int) -> tuple[float, list[tuple]]:
    """(exact batched seconds, rows of (M, efC, ef, build s, recall, tie-aware recall, HNSW batch s,
    exact batch s, queries/s one at a time, is ragdx's default))."""
    truth, truth_scores = exact_search(matrix, queries, 10)
    exact_s = statistics.median(seconds(lambda: exact_search(matrix, queries, 10), rounds))
    print(f"{len(matrix):,} units, exact batched: {exact_s * 1000:.0f} ms per {len(queries):,} queries", flush=True)
    default = HnswParams()
    rows = []
    for build in builds:
        m, efc = (int(x) for x in build.split("/"))
        t = time.perf_counter()
        hnsw = HnswIndex(HnswParams(m=m, ef_construction=efc)).build(matrix)
        build_s = time.perf_counter() - t
        for ef in efs:
            hnsw.params = HnswParams(m=m, ef_construction=efc, ef_search=ef)
            found, _ = hnsw.search(queries, 10)
            recall = recall_at_k(found, truth)
            tied = tie_recall(found, matrix, queries, truth_scores[:, -1])
            # interleaved with the exact search, so both see the same neighbours' load
            pairs = [(seconds(lambda h=hnsw: h.search(queries, 10), 1)[0],
                      seconds(lambda: exact_search(matrix, queries, 10), 1)[0]) for _ in range(rounds)]
            ann_s = statistics.median(a for a, _ in pairs)
            ex_s = statistics.median(e for _, e in pairs)
            single = queries[:n_single]
            one = statistics.median(len(single) / s for s in seconds(
                lambda h=hnsw, few=single: [h.search(q[None], 10) for q in few], rounds))
            is_default = (m, efc, ef) == (default.m, default.ef_construction, default.ef_search)
            rows.append((m, efc, ef, build_s, recall, tied, ann_s, ex_s, one, is_default))
            print(f"M {m} efC {efc} ef {ef}: recall@10 {recall:.4f} (ties counted {tied:.4f}), batch "
                  f"{ann_s * 1000:.0f} ms (exact {ex_s * 1000:.0f} ms), one at a time {one:,.0f} q/s, "
                  f"build {build_s:.0f} s", flush=True)
    return exact_s, rows


def table(rows: list[tuple]) -> list[str]:
    out = ["| M | efConstruction | ef_search | recall@10 vs exact | recall@10, ties counted | build s | "
           "ms per batch (HNSW) | ms per batch (exact) | HNSW time / exact | queries/s one at a time | |",
           "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for m, efc, ef, build_s, recall, tied, ann_s, ex_s, one, is_default in rows:
        out.append(f"| {m} | {efc} | {ef} | {recall:.4f} | {tied:.4f} | {build_s:.0f} | {ann_s * 1000:.0f} | "
                   f"{ex_s * 1000:.0f} | {ann_s / ex_s:.2f} | {one:,.0f} | {'**default**' if is_default else ''} |")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", type=Path, required=True)
    parser.add_argument("--kbs", nargs="*", type=Path, default=[])
    parser.add_argument("--docs", nargs="*", type=Path, default=[])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--builds", nargs="+", default=["16/80", "32/80", "32/200", "48/200"],
                        help="M/efConstruction pairs (ragdx's default is 32/80)")
    parser.add_argument("--ef", nargs="+", type=int, default=[32, 64, 128, 256, 512])
    parser.add_argument("--single", type=int, default=200, help="queries timed one at a time")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cache", type=Path, default=Path("/tmp"))
    parser.add_argument("--passages-only", action="store_true",
                        help="also the same queries against the index's passages alone")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()

    import faiss

    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    qs, ps = questions(args.datasets), passages(args.kbs, args.docs)
    index_texts, query_texts, sources = select(qs, ps, args.n, args.queries, args.seed)
    print(f"{len(index_texts):,} index texts, {len(query_texts):,} held-out queries", flush=True)
    matrix, reason = vectors(index_texts, args.cache, "index")
    queries, _ = vectors(query_texts, args.cache, "queries")

    exact_s, rows = grid(matrix, queries, args.builds, args.ef, args.rounds, args.single)
    n_passages = sum(v for k, v in sources.items() if k.startswith("passages"))
    # questions against passages alone: what a RAG index holds (the passages are the index's first rows)
    p_exact_s, p_rows = (grid(matrix[:n_passages], queries, [f"{HnswParams().m}/{HnswParams().ef_construction}"],
                              args.ef, args.rounds, args.single) if args.passages_only else (None, []))

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    argv = " ".join(str(a) for a in sys.argv[1:])
    lines = [f"# HNSW recall@10 on {len(matrix):,} real MiniLM embeddings ({started})", "",
             f"Command: `OMP_WAIT_POLICY=passive HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/ann_real.py {argv}`", "",
             f"Commit: {commit}. CPU: {cpu_model()}, {os.cpu_count()} cores; numpy {np.__version__}, faiss-cpu "
             f"{faiss.__version__}; load average at the end {os.getloadavg()[0]:.1f}.", "",
             f"Vectors: all-MiniLM-L6-v2 (packaged) through `ragdx.embed.Embedder(dtype=\"auto\")`, which ran "
             f"**{'bfloat16' if 'native' in reason and 'no native' not in reason else 'float32'}** here: {reason}.",
             "", f"Index: {len(matrix):,} distinct texts; queries: {len(queries):,} other questions, none in the "
                 f"index (seed {args.seed}). Sources of the index:", "",
             "| source | texts |", "|---|---:|"]
    lines += [f"| {name} | {count:,} |" for name, count in sources.items()]
    lines += ["", f"Exact batched search (`exact_search`, ragdx's default `index: exact`): "
                  f"{exact_s * 1000:.0f} ms per batch of {len(queries):,} queries (median of {args.rounds}).", ""]
    lines += table(rows)
    if p_rows:
        lines += ["", f"### Questions against the {n_passages:,} passages alone (ragdx's default M and efConstruction)",
                  "", f"Exact batched search: {p_exact_s * 1000:.0f} ms per batch of {len(queries):,} queries.", ""]
        lines += table(p_rows)
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
