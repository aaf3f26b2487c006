"""The judge on the blame benchmark's answers: which right answers it rejects and which wrong
answers it accepts, per corpus, with every miss listed.

    OMP_WAIT_POLICY=passive HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/judge_misses.py \
        --corpus benchmarks/corpora/kestrel --db benchmarks/corpora/kestrel/kestrel.sqlite ... \
        [--max-groups 10] [--work DIR] [--dump misses.jsonl] [--out benchmarks/results/judge_corpus_forms.md]

The systems are ``benchmarks/blame_truth.py``'s simulated ones (its six scenarios without the
``er`` pipeline, whose answers are not right or wrong by construction): a reader that answers in
the surface the corpus's writer used for the value (``truth.json``), or the database's value
where no retrieved statement writes it; LM faults (another entity's value, a hedge, a partial
answer). Their answers are judged here directly by the offline cascade judge, as ``ragdx
evaluate`` judges them (the same :class:`~ragdx.evaluate.records.JudgeItem`: the record's query,
answer rows and answer kind from the dataset ``ragdx gen`` made), without running the rest of the
diagnosis, so a change to the judge is measured in seconds.

The dataset is made once per corpus with blame_truth's ``make_dataset`` and kept in ``--work``
whatever ragdx's source becomes (blame_truth remakes it when the source changes: the links do,
but the queries and answer rows the judge reads do not depend on the linker).

``--dump FILE`` writes every distinct miss as one JSON line: corpus, scenario, record id, query,
answer rows, response, the surface's form (or the LM fault's kind), whether it is a right answer
rejected or a wrong one accepted, and the judge's reason.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import blame_truth as bt  # noqa: E402  (a sibling script, imported as a module)

#: the simulated scenarios (1-6); the er pipeline (7) is left out
SIMULATED = [s for s in bt.SCENARIOS if s.retriever != "er"]


def _dataset(work: Path, corpus: Path, db: Path, max_groups: int, seed: int) -> tuple[Path, Path]:
    """blame_truth's dataset, made once: its cache key's ragdx fingerprint is held fixed (the
    judge reads queries and answer rows, which the linker does not change)."""
    real = bt._ragdx_fingerprint
    bt._ragdx_fingerprint = lambda: "judge-misses"
    try:
        return bt.make_dataset(work, corpus, db, max_groups, 0, seed)
    finally:
        bt._ragdx_fingerprint = real


def load(corpus: Path, db: Path, work: Path, max_groups: int, seed: int) -> tuple[bt.World, dict[str, Any]]:
    from ragdx.gen.dataset import read_records
    from ragdx.rag.corpus import load_corpus

    scorer = bt.load_scorer(corpus)
    ds, dbcopy = _dataset(work, corpus, db, max_groups, seed)
    truth = bt.Truth(corpus / "truth.json", scorer.stem)
    docs = {d.id: d.text for d in load_corpus(corpus / "docs")}
    recs = bt.load_records(ds, scorer, scorer.Needs(str(dbcopy)))
    return bt.World(corpus, dbcopy, scorer, truth, docs, recs), {r.id: r for r in read_records(ds)}


def judge_corpus(name: str, world: bt.World, records: dict[str, Any], misses: list[dict[str, Any]]) -> dict[str, Any]:
    """Per scenario, the judge's figures on right (corpus forms, database value) and wrong answers."""
    from ragdx.evaluate.judges import make_judge
    from ragdx.evaluate.records import JudgeItem

    judge = make_judge("cascade")
    memo: dict[tuple, Any] = {}
    seen: set[tuple] = set()
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_form: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    wrong_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    per_scenario = []
    for sc in SIMULATED:
        outcomes, _ = bt.simulate(world, sc)
        fig: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for qid, o in outcomes.items():
            if o.form == "dont-know":
                continue
            r = records[qid]
            item = JudgeItem(r.query, r.answer_rows, o.answer, r.answer_kind)
            key = (r.query, json.dumps(r.answer_rows, default=str), o.answer, r.answer_kind)
            if key not in memo:
                memo[key] = judge.judge(item)
            v = memo[key]
            ok = bool(v.correct)
            side = ("right_db_value" if o.form == "db-value" else "right_corpus_forms") if o.right else "wrong"
            for bucket in (fig[side], totals[side]):
                bucket[0] += ok
                bucket[1] += 1
            if o.right and not ok and side == "right_corpus_forms" and echoes_subject(r.query, o.answer):
                totals["subject_echo"][0] += 1
            (by_form[o.form] if o.right else wrong_kind[o.form])[0] += ok
            (by_form[o.form] if o.right else wrong_kind[o.form])[1] += 1
            if ok != o.right and key not in seen:
                seen.add(key)
                misses.append({"corpus": name, "scenario": sc.name, "id": qid, "query": r.query,
                               "answer_rows": r.answer_rows, "response": o.answer, "form": o.form,
                               "miss": "right rejected" if o.right else "wrong accepted",
                               "subject_echo": o.right and echoes_subject(r.query, o.answer),
                               "judge": v.judge, "reason": v.reason})
        per_scenario.append((sc.name, dict(fig)))
    return {"scenarios": per_scenario, "totals": dict(totals), "by_form": dict(by_form),
            "wrong_kind": dict(wrong_kind)}


_QUOTED = re.compile(r"'([^']+)'")


def echoes_subject(query: str, answer: str) -> bool:
    """The answer is the name the query asks about ("MV Ardmair" for the home port of the vessel 'MV
    Ardmair'): blame_truth's reader took a statement that names the row holding the key, not the
    value (its ``writes_value`` accepts a hop's statement sharing half its words with the value)."""
    from ragdx.evaluate.judges import normalise

    said = normalise(answer)
    return bool(said) and any(normalise(q) == said for q in _QUOTED.findall(query))


def _share(a: int, b: int) -> str:
    return f"{a}/{b} = {a / b:.3f}" if b else "–"


def markdown(results: dict[str, dict[str, Any]]) -> list[str]:
    out = ["| corpus | right, corpus's forms, accepted | of those rejected, the query's own subject | "
           "right, corpus's forms, subject echoes aside | right, database's value, accepted | wrong accepted |",
           "|---|---:|---:|---:|---:|---:|"]
    for name, res in results.items():
        t = res["totals"]
        a, b = t.get("right_corpus_forms", [0, 0])
        echo = t.get("subject_echo", [0, 0])[0]
        wa, wb = t.get("wrong", [0, 0])
        out.append(f"| {name} | {_share(a, b)} | {echo} | {_share(a, b - echo)} | "
                   f"{_share(*t.get('right_db_value', [0, 0]))} | {wa}/{wb} |")
    out.append("")
    for name, res in results.items():
        forms = sorted(res["by_form"].items(), key=lambda kv: (kv[1][0] == kv[1][1], -kv[1][1]))
        out.append(f"- `{name}`, right answers by form: " + "; ".join(f"{k} {a}/{b}" for k, (a, b) in forms)
                   + ". Wrong accepted by kind: "
                   + "; ".join(f"{k} {a}/{b}" for k, (a, b) in sorted(res["wrong_kind"].items())) + ".")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", action="append", type=Path, required=True)
    ap.add_argument("--db", action="append", type=Path, required=True)
    ap.add_argument("--max-groups", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "ragdx-judge-misses")
    ap.add_argument("--dump", type=Path, default=None, help="write every distinct miss here (JSON lines)")
    ap.add_argument("--out", type=Path, default=None, help="write the Markdown table here")
    a = ap.parse_args(argv)
    if len(a.corpus) != len(a.db):
        print("judge_misses: give one --db per --corpus", file=sys.stderr)
        return 2
    for c, d in zip(a.corpus, a.db, strict=True):
        missing = [str(p) for p in (c / "truth.json", c / "score_linking.py", c / "docs", d) if not p.exists()]
        if missing:
            print(f"judge_misses: missing {', '.join(missing)}", file=sys.stderr)
            return 2
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    t0 = time.perf_counter()
    results: dict[str, dict[str, Any]] = {}
    misses: list[dict[str, Any]] = []
    for corpus, db in zip(a.corpus, a.db, strict=True):
        corpus = corpus.resolve()
        name = corpus.name if corpus.name != "corpus" else corpus.parent.name
        world, records = load(corpus, db.resolve(), a.work / name, a.max_groups, a.seed)
        results[name] = judge_corpus(name, world, records, misses)
        print(f"{name}: {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    cmd = "OMP_WAIT_POLICY=passive HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/judge_misses.py " + " ".join(
        argv if argv is not None else sys.argv[1:])
    text = "\n".join([f"`{cmd}`", "", f"CPU: {bt.cpu_model()}. {bt._provenance()}. "
                      f"{time.perf_counter() - t0:.0f} s.", "", *markdown(results), ""])
    print(text)
    if a.out:
        a.out.write_text(text, encoding="utf-8")
    if a.dump:
        a.dump.write_text("".join(json.dumps(m, default=str, ensure_ascii=False) + "\n" for m in misses),
                          encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
