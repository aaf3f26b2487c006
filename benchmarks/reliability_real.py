"""How far can reference-free evaluators be trusted? GRAMMAR §3 / Table 1 on a real run.

Runs a real RAG pipeline (BM25 retrieval + an LLM generator) over a ragdx dataset, judges every
answer against the database's ground truth, then scores RAGAS-style faithfulness and SelfCheck-QA
with the same LLM endpoint and reports each as a classifier of "the answer is correct":
precision and recall with 95 % Wilson intervals. Prints the table and the model it used.

    python -m llama_cpp.server --model SmolLM2-135M-Instruct.Q4_1.gguf --port 8011   # for example
    python benchmarks/reliability_real.py --dataset demo-out/dataset --corpus demo-out/kb \\
        --base-url http://127.0.0.1:8011/v1 --model smollm2-135m --limit 60
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from rich.console import Console

from ragdx.evaluate.reliability import items_from_run, reliability, reliability_markdown
from ragdx.llm import make_llm
from ragdx.rag.pipeline import Pipeline
from ragdx.rag.runner import run, summary_table


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", required=True, type=Path)
    ap.add_argument("--corpus", required=True, type=Path)
    ap.add_argument("--base-url", required=True)
    ap.add_argument("--model", required=True)
    ap.add_argument("--limit", type=int, default=60)
    ap.add_argument("--samples", type=int, default=4, help="SelfCheck samples at temperature 1")
    ap.add_argument("--run-dir", type=Path, default=Path(".ragdx-cache/reliability-run"))
    ap.add_argument("--out", type=Path, default=None, help="also write the table (Markdown) here")
    args = ap.parse_args()
    console = Console()
    llm_cfg = {"base_url": args.base_url, "model": args.model, "max_tokens": 64, "max_concurrency": 2,
               "timeout": 120}
    pipeline = Pipeline.from_dict({
        "name": f"bm25+llm({args.model})",
        "top_k": 3,
        "chunker": {"type": "whole_document", "params": {}},
        "retriever": {"type": "bm25", "params": {}},
        "generator": {"type": "llm", "params": {"llm": llm_cfg}},
    }, corpus=args.corpus)
    t0 = time.perf_counter()
    summary = run(pipeline, args.dataset, args.run_dir, concurrency=2, limit=args.limit)
    console.print(summary_table([summary]))
    llm = make_llm({**llm_cfg, "max_tokens": 128})
    items = items_from_run(args.run_dir, judge="cascade", limit=args.limit)
    result = reliability(items, llm, n_samples=args.samples)
    table = reliability_markdown(result)
    console.print(table)
    console.print(f"endpoint {args.base_url}, model {args.model}; {len(items)} answers; "
                  f"LLM usage {llm.usage.as_dict()}; {time.perf_counter() - t0:.0f} s in all")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(f"{table}\n\nEndpoint: llama.cpp server at {args.base_url}, model "
                            f"{args.model}; pipeline {pipeline.name} over {args.dataset} (first {args.limit} "
                            f"queries); ground truth from the cascade judge against the database's answers.\n")


if __name__ == "__main__":
    main()
