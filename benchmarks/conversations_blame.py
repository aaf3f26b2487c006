"""Is a conversation's failure blamed on the right module? Faults injected at known rates into a
simulated conversational RAG system over a real dataset of conversations (issue 26 item 3).

The dataset: the demo database's conversations (``ragdx.gen.conversations``: walks of its
foreign keys, 2 to 4 turns, follow-ups by pronoun and ellipsis), every turn answered by SQL,
with gold documents from the knowledge base ragdx renders. The simulated system, for each turn,
searches the standalone question and retrieves the documents stating the answer's facts, and its
reader answers right; it is broken on purpose with seeded rates:

* ``history``: on a follow-up, the system ignores the conversation and searches the follow-up as
  asked ("Its faculty?"): distractors come back and the reader answers something else -> history
  handling;
* ``retrieval``: for a question (a first turn's semantic group, a follow-up's standalone question),
  the retriever returns distractors whatever the question's wording, the standalone question
  asked alone too -> the retriever;
* ``lm``: the evidence is retrieved and the reader answers another value -> the language model.

The truth of each record is what was injected. ragdx's verdicts come from its own path: ``ragdx.run``
(which asks each follow-up's standalone question on its own, ``evaluate.conversations``), then
``ragdx.evaluate`` (the offline cascade judge, ``protocol.blame``, ``history_blame``).

    OMP_WAIT_POLICY=passive .venv/bin/python benchmarks/conversations_blame.py \
        --out benchmarks/results/conversations.md
"""

from __future__ import annotations

import argparse
import hashlib
import re
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

MODULES = ("history_failure", "retrieval_failure", "lm_failure")


@dataclass(frozen=True)
class Plan:
    history: float = 0.2
    retrieval: float = 0.15
    lm: float = 0.15
    seed: int = 0


def _u(seed: int, kind: str, key: str) -> float:
    """A uniform number per (seed, fault kind, key): faults decided independently of each other."""
    digest = hashlib.sha256(f"{seed}:{kind}:{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def make_dataset(tmp: Path, *, per_walk: int = 5, styles: tuple[str, ...] = ("short", "casual", "interrogative"),
                 seed: int = 0, database: Path | None = None) -> tuple[Path, list[Any], dict[str, str]]:
    """The conversations of ``database`` (a SQLite file; default: the demo database) written as a
    dataset beside its rendered knowledge base: (dataset directory, records, corpus id -> text)."""
    import sqlalchemy as sa

    from ragdx.db.schema import inspect_schema
    from ragdx.demo.database import build_demo_database
    from ragdx.gen.conversations import conversation_records
    from ragdx.gen.dataset import write_dataset
    from ragdx.kb.render import render_kb

    db = database or build_demo_database(tmp / "demo.sqlite", overwrite=True)
    engine = sa.create_engine(f"sqlite:///{db}")
    schema = inspect_schema(engine)
    kb = render_kb(engine, schema)
    kb.write(tmp / "kb", overwrite=True)
    records = conversation_records(engine, schema, per_walk=per_walk, seed=seed, styles=list(styles),
                                   kb_facts=kb.facts)
    engine.dispose()
    out = write_dataset(tmp / "dataset", records, {"knowledge_base": str(tmp / "kb"), "database": str(db)},
                        overwrite=True)
    return out, records, {d.id: d.text for d in kb.documents}


class ConversationalSystem:
    """The simulated system: what it retrieves and answers follows from the record it is asked
    (by id, or by the standalone question's text when it is probed) and the faults planned."""

    name = "simulated-conversational"

    def __init__(self, records: list[Any], corpus: dict[str, str], plan: Plan):
        self.plan = plan
        self.by_id = {r.id: r for r in records}
        # a probe asks a follow-up's standalone question: a record it stands for (those that share
        # it share its faults); a first turn worded the same is another record, never asked by a probe
        self.by_text = {r.standalone_query: r for r in records if r.standalone_query}
        self.docs = sorted(corpus)
        self.words = {d: set(re.findall(r"\w+", corpus[d].lower())) for d in self.docs}
        answers: dict[tuple[str, int], list[str]] = {}
        for r in records:
            answers.setdefault((r.table, r.turn), []).append(r.answer_text)
        self.answers = {k: sorted(set(v)) for k, v in answers.items()}

    def describe(self) -> dict[str, Any]:
        return {"kind": "simulated", "plan": vars(self.plan)}

    def faults(self, r: Any, probe: bool) -> str:
        p = self.plan
        # a bad retriever misses a question however it is put: the same standalone question (walks
        # from different rows may arrive at the same one) is missed every time, probe included
        if _u(p.seed, "retrieval", r.standalone_query or r.group_id) < p.retrieval:
            return "retrieval_failure"
        if not probe and r.turn > 1 and _u(p.seed, "history", r.id) < p.history:
            return "history_failure"
        if not probe and _u(p.seed, "lm", r.id) < p.lm:
            return "lm_failure"
        return "correct"

    def _distractors(self, r: Any) -> list[str]:
        avoid = set(r.gold_document_ids) | set(r.entity_document_ids)
        pool = [d for d in self.docs if d not in avoid]
        start = int(_u(self.plan.seed, "distractor", r.id) * len(pool))
        return [pool[(start + i) % len(pool)] for i in range(3)]

    def _wrong(self, r: Any) -> str:
        from ragdx.kb.normalise import fold

        right = fold(r.answer_text)
        others = [a for a in self.answers[(r.table, r.turn)] if right not in fold(a) and fold(a) not in right]
        return others[int(_u(self.plan.seed, "wrong", r.id) * len(others))] if others else "not recorded"

    def _search(self, text: str) -> list[str]:
        """A document asked for in its own words (``ragdx run``'s probe of evidence no query
        retrieved): every document is in the index, found by the words it shares with the probe."""
        words = set(re.findall(r"\w+", text.lower()))
        return sorted(self.docs, key=lambda d: (-len(words & self.words[d]), d))[:3]

    async def answer(self, item: Any) -> Any:
        from ragdx.rag.types import RetrievedContext, SystemOutput

        if item.id not in self.by_id and item.query not in self.by_text:
            return SystemOutput(id=item.id, query=item.query, answer="",
                                contexts=[RetrievedContext(id=d, text="") for d in self._search(item.query)])
        probe = item.id not in self.by_id
        r = self.by_text[item.query] if probe else self.by_id[item.id]
        fault = self.faults(r, probe)
        docs = self._distractors(r) if fault in ("retrieval_failure", "history_failure") else r.gold_document_ids
        reply = r.answer_text if fault == "correct" else self._wrong(r)
        searched = None
        if r.turn > 1 and not probe:
            searched = item.query if fault == "history_failure" else r.standalone_query
        return SystemOutput(id=item.id, query=item.query, answer=f"{reply}.",
                            contexts=[RetrievedContext(id=d, text="") for d in docs], latency_s=0.0,
                            rewritten_query=searched)


def truth_of(system: ConversationalSystem, records: list[Any]) -> dict[str, str]:
    return {r.id: system.faults(r, probe=False) for r in records}


def diagnose(dataset: Path, system: ConversationalSystem, run_dir: Path) -> tuple[dict[str, str], Any]:
    """ragdx's own path: run (with its probes), then evaluate: record id -> verdict, and the result."""
    import ragdx

    ragdx.run(system, dataset, run_dir, progress=False, overwrite=True, concurrency=8)
    result = ragdx.evaluate(run_dir, n_boot=200)
    return {v["id"]: v["verdict"] for v in result.verdicts}, result


def without_probes(run_dir: Path) -> tuple[dict[str, str], Any]:
    """The run evaluated again with its standalone probes removed: what blame says without them."""
    import ragdx
    from ragdx.rag.rundir import RunPaths

    RunPaths(run_dir).standalone_probes.unlink()
    result = ragdx.evaluate(run_dir, n_boot=200)
    return {v["id"]: v["verdict"] for v in result.verdicts}, result


def score(truth: dict[str, str], verdicts: dict[str, str]) -> tuple[dict[str, tuple[float, float, int]], Counter]:
    confusion = Counter((truth[i], verdicts.get(i, "missing")) for i in truth)
    out = {}
    for m in MODULES:
        tp = confusion.get((m, m), 0)
        said = sum(n for (t, v), n in confusion.items() if v == m)
        real = sum(n for (t, v), n in confusion.items() if t == m)
        out[m] = (tp / said if said else float("nan"), tp / real if real else float("nan"), real)
    return out, confusion


def _table(scores: dict[str, tuple[float, float, int]], confusion: Counter) -> str:
    lines = ["| module | injected | precision | recall |", "|---|---:|---:|---:|"]
    for m, (p, r, n) in scores.items():
        lines.append(f"| {m} | {n} | {p:.3f} | {r:.3f} |")
    lines += ["", "| truth \\ verdict | count |", "|---|---:|"]
    lines += [f"| {t} -> {v} | {n} |" for (t, v), n in sorted(confusion.items())]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    import tempfile

    from machine import cpu_model

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-walk", type=int, default=5)
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--database", type=Path, help="a SQLite file (default: the demo database)")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    started = time.perf_counter()
    parts = []
    with tempfile.TemporaryDirectory() as tmp:
        dataset, records, corpus = make_dataset(Path(tmp), per_walk=args.per_walk, database=args.database)
        turns = Counter(r.turn for r in records)
        for seed in args.seeds:
            system = ConversationalSystem(records, corpus, Plan(seed=seed))
            verdicts, _ = diagnose(dataset, system, Path(tmp) / f"run{seed}")
            truth = truth_of(system, records)
            scores, confusion = score(truth, verdicts)
            parts.append(f"### seed {seed}\n\n{_table(scores, confusion)}")
            print(f"seed {seed}: " + ", ".join(f"{m} P {p:.3f} R {r:.3f} (n={n})" for m, (p, r, n) in scores.items()))
            # the control: the same run judged without its standalone probes (no fourth module)
            control, _ = without_probes(Path(tmp) / f"run{seed}")
            scores, confusion = score(truth, control)
            parts.append(f"seed {seed}, the same run without the standalone probes:\n\n{_table(scores, confusion)}")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=HERE).stdout.strip()
    text = "\n".join([
        "# Conversations: blame of history handling, retrieval and the language model (issue 26 item 3)", "",
        f"Command: `OMP_WAIT_POLICY=passive .venv/bin/python benchmarks/conversations_blame.py "
        f"--per-walk {args.per_walk} --seeds {' '.join(map(str, args.seeds))}"
        + (f" --database {args.database}" if args.database else "") + f" --out {args.out}`", "",
        f"Commit {commit}, CPU {cpu_model()}, {time.perf_counter() - started:.0f} s.", "",
        f"Dataset: the conversations of {args.database.name if args.database else 'the demo database'}, "
        f"{len(records)} records "
        f"({', '.join(f'turn {t}: {n}' for t, n in sorted(turns.items()))}), styles short, casual, interrogative. "
        f"Plan per seed: {vars(Plan())} (seed varies). Truth: what was injected; verdicts: `ragdx.run` "
        "(standalone probes) then `ragdx.evaluate`.", "", *parts, ""])
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
