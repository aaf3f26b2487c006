"""The built-in pipeline on conversations: what its follow-up rewrite is worth, turn by turn.

The same dataset as ``conversations_blame.py`` (a database's conversations, gold documents from the
knowledge base ragdx renders), asked of two real systems: ragdx's BM25 pipeline, which rewrites a
follow-up with the history before it searches (``ragdx.rag.rewrite``, offline), and the same pipeline
deaf to the history (each turn searched as asked). Both go through ``ragdx.run`` (with its standalone
probes) and ``ragdx.evaluate``; per turn: how often the evidence was retrieved, accuracy, and what the
failures are blamed on. No truth is injected here: this measures the pipeline, not the diagnosis.

    OMP_WAIT_POLICY=passive .venv/bin/python benchmarks/conversations_pipeline.py \
        --out benchmarks/results/conversations_pipeline.md
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
NORTHWIND = HERE.parents[1] / "shared" / "data" / "northwind" / "northwind.sqlite"


class Deaf:
    """A system that drops the history: each follow-up is searched and answered as asked."""

    def __init__(self, system: Any):
        self.system = system
        self.name = f"{system.name}-deaf"

    def describe(self) -> dict[str, Any]:
        return {**self.system.describe(), "history": "ignored"}

    async def answer(self, item: Any) -> Any:
        from ragdx.rag.types import SystemInput

        return await self.system.answer(SystemInput(id=item.id, query=item.query, metadata=item.metadata))


def per_turn(result: Any, turns: dict[str, int]) -> dict[int, dict[str, Any]]:
    """Per turn: records, evidence retrieved (share of those judged), accuracy, blame counts."""
    verdicts = {v["id"]: v["verdict"] for v in result.verdicts}
    out: dict[int, dict[str, Any]] = {}
    for j in result.judgements:
        row = out.setdefault(turns[j.id], {"n": 0, "judged": 0, "found": 0, "correct": 0, "blame": Counter()})
        row["n"] += 1
        row["correct"] += bool(j.correct)
        if j.retrieval_correct is not None:
            row["judged"] += 1
            row["found"] += bool(j.retrieval_correct)
        if verdicts[j.id] != "correct":
            row["blame"][verdicts[j.id]] += 1
    return dict(sorted(out.items()))


def table(rows: dict[int, dict[str, Any]]) -> str:
    lines = ["| turn | records | evidence retrieved | accuracy | history handling | retrieval | LM | other |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for turn, r in rows.items():
        b = Counter(r["blame"])
        named = [b.pop(k, 0) for k in ("history_failure", "retrieval_failure", "lm_failure")]
        lines.append(f"| {turn} | {r['n']} | {r['found'] / max(1, r['judged']):.1%} | {r['correct'] / r['n']:.1%} | "
                     + " | ".join(map(str, named)) + f" | {sum(b.values())} |")
    return "\n".join(lines)


def measure(name: str, database: Path | None, tmp: Path, per_walk: int) -> str:
    from conversations_blame import make_dataset

    import ragdx
    from ragdx.rag.pipeline import Pipeline

    dataset, records, _ = make_dataset(tmp, per_walk=per_walk, database=database)
    turns = {r.id: r.turn for r in records}
    parts = [f"## {name}: {len(records)} records, {len({r.conversation_id for r in records})} conversations"]
    for label, system in (("rewrites the follow-up (built-in)", Pipeline("bm25", tmp / "kb", top_k=5)),
                          ("deaf to the history", Deaf(Pipeline("bm25", tmp / "kb", top_k=5)))):
        run_dir = tmp / f"run-{len(parts)}"
        ragdx.run(system, dataset, run_dir, progress=False, overwrite=True, concurrency=4)
        result = ragdx.evaluate(run_dir, n_boot=200)
        rows = per_turn(result, turns)
        parts.append(f"### BM25 pipeline, top 5, {label}\n\n{table(rows)}")
        print(name, label, {t: round(r["found"] / max(1, r["judged"]), 3) for t, r in rows.items()})
    return "\n\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    from machine import cpu_model

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-walk", type=int, default=5)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    started = time.perf_counter()
    parts = []
    with tempfile.TemporaryDirectory() as tmp:
        parts.append(measure("demo database", None, Path(tmp) / "demo", args.per_walk))
        if NORTHWIND.exists():
            parts.append(measure("Northwind", NORTHWIND, Path(tmp) / "northwind", args.per_walk))
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=HERE).stdout.strip()
    text = "\n".join([
        "# The built-in pipeline on conversations, turn by turn (issue 26 item 3)", "",
        f"Command: `OMP_WAIT_POLICY=passive .venv/bin/python benchmarks/conversations_pipeline.py "
        f"--per-walk {args.per_walk} --out {args.out}`", "",
        f"Commit {commit}, CPU {cpu_model()}, {time.perf_counter() - started:.0f} s. Styles short, casual, "
        "interrogative (two phrasings each); evidence retrieved: the evidence rule (a document of every fact's "
        "set) over the top 5; blame: `ragdx.evaluate` after `ragdx.run`'s standalone probes.", "",
        *parts, ""])
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
