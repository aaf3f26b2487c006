"""Does ragdx blame the module that was broken? Fault injection with known truth.

    OMP_WAIT_POLICY=passive HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/blame_accuracy.py \
        [--seeds 200] [--verdict-seeds 5] [--aurp ../shared/data/grammar-aurp] \
        [--out /tmp/blame_simulated.md]

Its answer key is ragdx's own (its fact index, its evidence sets, a reader answering in the
database's format), so it checks the blame mechanism, not its accuracy: it cannot fail where the
linker does. Accuracy against truth nobody at ragdx produced is ``blame_truth.py``, whose figures
``results/blame_accuracy.md`` holds — never write this script's tables there.

A strong simulated system (``ragdx.evaluate.faults``) runs over a testbed; faults are injected per
query at set rates and seeds; ragdx judges the answers with its offline judge and blames a module
per query through its normal path. Printed:

1. per-query verdicts against the injected truth, per scenario: precision and recall of each
   verdict (correct / knowledge-base gap / retrieval / language model) and the confusion table;
2. comparisons between two simulated systems over many seeds: how often a module that did NOT
   change is reported as significantly different (A/A against an identical copy, A/A with other
   seeds, identical readers with different retrievers and the reverse), and how often a module
   degraded by 10 points is detected (power), with the share of sentences naming exactly the
   degraded module.

Testbeds: the demo's knowledge base (ragdx rendered it: gold evidence known from its fact index)
and, with ``--aurp``, GRAMMAR's Aurp database with its own 9 project reports, the evidence linked
by ``ragdx.kb.link`` and the truth taken from the reference's ``true_document_ids``.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console

from ragdx.evaluate.compare import compare, differing_modules
from ragdx.evaluate.faults import (
    FaultPlan,
    MemoJudge,
    Testbed,
    add_scores,
    confusion_markdown,
    diagnose,
    score_verdicts,
    simulate,
)
from ragdx.evaluate.judges import make_judge
from ragdx.evaluate.protocol import MODULE_VERDICTS as VERDICTS  # the truth names one module

SCENARIOS = {
    "no fault": FaultPlan(),
    "retriever 15 %": FaultPlan(retrieval=0.15),
    "retriever 30 %, long style only": FaultPlan(retrieval=0.30, retrieval_style="long"),
    "language model 15 % (wrong or hedged)": FaultPlan(lm=0.15),
    "knowledge base: 10 % of the evidence documents deleted": FaultPlan(kb=0.10),
    "mixture: retriever 10 %, LM 10 %, 10 % of documents deleted": FaultPlan(retrieval=0.10, lm=0.10, kb=0.10),
}


def demo_testbed(where: Path) -> Testbed:
    from ragdx.demo.run import build_testbed
    from ragdx.gen.dataset import read_records
    from ragdx.kb.render import read_documents

    if not (where / "dataset" / "records.jsonl").exists():
        build_testbed(where, Console(quiet=True))
    records = read_records(where / "dataset")
    corpus = {d.id: d.text for d in read_documents(where / "kb")}
    return Testbed(records, corpus, {r.id: r.evidence_sets for r in records}, name="demo (rendered knowledge base)")


def _fmt(x: float) -> str:
    return "–" if x != x else f"{x:.3f}"


def verdict_tables(bed: Testbed, seeds: int, judge, out: list[str]) -> dict[str, dict[str, float]]:
    out += [f"## Per-query verdicts against injected truth — {bed.name}", "",
            f"{len(bed.records)} queries, {len({r.group_id for r in bed.records})} semantic groups, "
            f"{len(bed.corpus)} documents; {seeds} seeds per scenario (faults drawn per query from each seed).", "",
            "| scenario | queries | " + " | ".join(f"{v} P / R" for v in VERDICTS) + " |",
            "|---|---:|" + "---|" * len(VERDICTS)]
    worst: dict[str, dict[str, float]] = {}
    details = []
    for name, plan in SCENARIOS.items():
        scores = []
        for s in range(seeds):
            p = FaultPlan(**{**plan.__dict__, "retrieval_seed": 1000 + s, "lm_seed": 2000 + s, "kb_seed": 3000 + s})
            sim = simulate(bed, p)
            _, verdicts = diagnose(sim, judge)
            scores.append(score_verdicts(sim.truth, verdicts))
        total = add_scores(scores)
        cells = []
        for v in VERDICTS:
            pr, rc, n = total.precision(v), total.recall(v), total.support(v)
            cells.append(f"{_fmt(pr)} / {_fmt(rc)} ({n})")
            w = worst.setdefault(v, {"precision": 1.0, "recall": 1.0})
            if not math.isnan(pr):
                w["precision"] = min(w["precision"], pr)
            if not math.isnan(rc):
                w["recall"] = min(w["recall"], rc)
        out.append(f"| {name} | {total.n} | " + " | ".join(cells) + " |")
        details += ["", f"### {name}", "", confusion_markdown(total)]
    out += ["", "P / R = precision / recall (support: queries whose truth is that verdict, over all seeds).", ""]
    out += ["Worst precision and recall over the scenarios: " + "; ".join(
        f"{v} {_fmt(w['precision'])} / {_fmt(w['recall'])}" for v, w in worst.items()), ""]
    out += ["<details><summary>Confusion tables</summary>", *details, "", "</details>", ""]
    return worst


def _rate(k: int, n: int) -> str:
    p = k / n if n else float("nan")
    se = math.sqrt(p * (1 - p) / n) if n else float("nan")
    return f"{k}/{n} = {p:.3f} (± {se:.3f})"


def comparison_tables(bed: Testbed, seeds: int, judge, out: list[str], n_boot: int = 500) -> dict[str, float]:
    """Over ``seeds`` seeds: A (retriever and reader faults at 5 %) against B."""
    base = dict(retrieval=0.05, lm=0.05)
    cases = {
        "A/A: identical copy": None,
        "A/A: same system, other seeds": lambda s: FaultPlan(**base, retrieval_seed=10_000 + s, lm_seed=20_000 + s),
        "identical readers, retriever degraded 10 points": lambda s: FaultPlan(retrieval=0.15, lm=0.05,
                                                                               retrieval_seed=s, lm_seed=s),
        "identical retrievers, reader degraded 10 points": lambda s: FaultPlan(retrieval=0.05, lm=0.15,
                                                                               retrieval_seed=s, lm_seed=s),
    }
    counts = {name: {"retrieval": 0, "language model": 0, "exact": 0} for name in cases}
    expected = {"A/A: identical copy": [], "A/A: same system, other seeds": [],
                "identical readers, retriever degraded 10 points": ["retrieval"],
                "identical retrievers, reader degraded 10 points": ["language model"]}
    start = time.perf_counter()
    for s in range(seeds):
        a_sim = simulate(bed, FaultPlan(**base, retrieval_seed=s, lm_seed=s))
        ja, _ = diagnose(a_sim, judge)
        for name, make in cases.items():
            jb = ja if make is None else diagnose(simulate(bed, make(s)), judge)[0]
            res = compare(ja, jb, names=("A", "B"), n_boot=n_boot, seed=s)
            found = differing_modules(res)
            for m in found:
                counts[name][m] += 1
            counts[name]["exact"] += found == expected[name]
        if (s + 1) % 20 == 0:
            print(f"  {s + 1}/{seeds} seeds, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    out += [f"## Comparisons over {seeds} seeds — {bed.name}", "",
            "A: retriever faults 5 %, reader faults 5 % (seeded per query). A module is reported when its 95 % "
            f"bootstrap interval ({n_boot} group resamples) excludes 0. The retrieval is compared on the same queries "
            "(evidence rule); the language model on the queries where both systems handed their reader identical "
            "retrieved documents holding the evidence.", "",
            "| B | retrieval reported | language model reported | sentence names exactly the changed module(s) |",
            "|---|---|---|---|"]
    summary = {}
    for name in cases:
        c = counts[name]
        out.append(f"| {name} | {_rate(c['retrieval'], seeds)} | {_rate(c['language model'], seeds)} | "
                   f"{_rate(c['exact'], seeds)} |")
        summary[name] = c
    out += ["", "For the A/A rows and the unchanged module of the other rows the rate is a false-positive rate "
            "(target ≤ 0.05 + 2 s.e.); for the degraded module it is the power at a 10-point degradation.", ""]
    return summary


def aurp_testbed(root: Path, work: Path) -> Testbed:
    """Aurp with its own 9 project reports (a corpus ragdx did not write). The records come from the
    paper's imported templates; ragdx's evidence is what its linker finds in the reports; the
    truth is the reference's gold (``true_document_ids``) for the queries whose report exists, and
    "knowledge-base gap" for the queries the reference calls gaps. Queries the reference calls gaps
    but the reports do state (the linker finds their answer) have no trustworthy truth and are left
    out, and counted."""
    import json

    from ragdx.db import connect, inspect_schema
    from ragdx.db.load import load_tables_json
    from ragdx.gen.pipeline import build_dataset, load_parsed, sql_stage, text_stage
    from ragdx.gen.qa import AnswerOptions
    from ragdx.gen.text_templates import read_text_templates
    from ragdx.kb.link import FactResolver, Linker, PassageIndex, link_records
    from ragdx.kb.normalise import normalised_passage, value_variants
    from ragdx.rag.corpus import load_corpus

    work.mkdir(parents=True, exist_ok=True)
    db = work / "aurp.sqlite"
    if db.exists():
        db.unlink()
    url = f"sqlite:///{db}"
    load_tables_json(url, root / "aurp_tables.json")
    engine = connect(url)
    schema = inspect_schema(engine)
    sql, text = work / "sql.yaml", work / "text.yaml"
    for f in (sql, text):
        if f.exists():
            f.unlink()
    sql_stage(engine, schema, sql, imports=[root / "SQLTemplateGenerator" / "sql_templates.json"])
    parsed, _ = load_parsed(sql, schema)
    text_stage(parsed, text, ["short", "long"], 3,
               imports=[root / "TextTemplateGenerator" / "short.json", root / "TextTemplateGenerator" / "long.json"])
    options = AnswerOptions(seed=0, max_groups_per_template=None, multi_answer="keep", unanswerable="keep")
    records = build_dataset(engine, schema, parsed, read_text_templates(text), ["short", "long"], 3, options).records
    corpus = load_corpus(root / "retrieval_database" / "documents.json")
    linked = link_records(records, FactResolver(engine, schema), Linker(PassageIndex(corpus)))
    reports = set(corpus.ids)
    gold: dict[str, set[str]] = {}
    for name in ("results_short_balanced", "results_long_balanced"):
        for ref in json.loads((root / "eval_results" / f"{name}.json").read_text(encoding="utf-8")):
            gold[ref["query"]] = {str(g) for g in ref["true_document_ids"]}
    kept, truth, left_out, unmatched = [], {}, 0, 0
    for r in linked:
        g = gold.get(r.query)
        if g is None:
            unmatched += 1
            continue
        if g <= reports:
            truth[r.id] = [[d] for d in sorted(g)]
        elif r.kb_supported:
            left_out += 1
            continue
        else:
            truth[r.id] = [[]]
        kept.append(r)

    def states_value(text: str, value: str) -> bool:
        passage = normalised_passage(text)
        return any(all(p in passage for p in all_of) for all_of, _ in value_variants(value))

    bed = Testbed(kept, {d.id: d.text for d in corpus.documents}, truth, states_value=states_value,
                  name=f"Aurp's own 9 reports (evidence linked; {left_out} queries the reference calls gaps but "
                       f"the reports state left out{f', {unmatched} not in the reference' if unmatched else ''})")
    engine.dispose()
    return bed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=200, help="seeds for the comparison tables")
    ap.add_argument("--verdict-seeds", type=int, default=5, help="seeds per verdict scenario")
    ap.add_argument("--boot", type=int, default=500)
    ap.add_argument("--work", type=Path, default=None, help="where to build the testbeds (default: a temp dir)")
    ap.add_argument("--aurp", type=Path, default=None,
                    help="GRAMMAR's Aurp reference data (../shared/data/grammar-aurp)")
    ap.add_argument("--out", type=Path, default=None, help="also write the tables to this Markdown file")
    args = ap.parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix="ragdx-blame-"))
    judge = MemoJudge(make_judge("cascade"))
    lines = ["# Blame accuracy under injected faults", "",
             f"`python benchmarks/blame_accuracy.py --seeds {args.seeds} --verdict-seeds {args.verdict_seeds}"
             + (f" --aurp {args.aurp}" if args.aurp else "") + "` (offline cascade judge).", ""]
    started = time.perf_counter()
    beds = [demo_testbed(work / "demo")]
    if args.aurp is not None:
        beds.append(aurp_testbed(args.aurp, work / "aurp"))
    for bed in beds:
        verdict_tables(bed, args.verdict_seeds, judge, lines)
    comparison_tables(beds[0], args.seeds, judge, lines, n_boot=args.boot)
    lines.append(f"Total time {time.perf_counter() - started:.0f} s on this machine.")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
