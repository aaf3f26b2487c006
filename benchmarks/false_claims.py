"""How often does ragdx name a module that did not change? False module claims and power of
``compare`` (two systems) and ``compare_styles`` (short against long), over many seeds.

    OMP_WAIT_POLICY=passive HF_HUB_OFFLINE=1 nice -n 10 .venv/bin/python benchmarks/false_claims.py \
        [--seeds 200] [--boot 500] [--compare-from FILE] [--label after] \
        [--out benchmarks/results/false_claims.md]

A strong simulated system (``ragdx.evaluate.faults``) runs over the demo's testbed (ragdx rendered
its knowledge base, so the evidence of every query is known); faults are injected per query at set
rates and seeds, answers are judged by ragdx's offline cascade judge, and the judgements are
compared by ragdx. *Which module changed is fixed by the construction of each pair*, never read
from ragdx's output:

* ``compare`` (paired queries):
  (a) A/A — the same fault rates, other seeds (and an identical copy);
  (b) identical deterministic readers and identical retrieval faults, only the knowledge base's
      seed differs (10 % of the evidence documents deleted on each side, other documents);
  power: the retriever, or the reader, degraded by 10 points (the other module identical).
* ``compare_styles`` short vs long of one system:
  (c) the reader is one deterministic function and retrieval is identical for both styles *by
      construction*: the k-th short and the k-th long phrasing of a group get the same fault draws
      and the same retrieved documents (``simulate`` is run per style with each record keyed by its
      group and rank). Variants: balanced (every group has 2 queries per style, as the demo's
      dataset), unbalanced (one query of a random half of the (group, style) cells dropped), and
      the knowledge base's content unknown to ragdx (answer-based gap groups);
  (c') the same rates for both styles, drawn independently per query (the null "equally robust");
  power: retrieval, or the reader, degraded by 10 points on long only.

A module is *named* when ``differing_modules`` lists it (what the sentence says behaves
differently). A false claim is a comparison naming any module that did not change; the target is
≤ 0.05 + 2 s.e. ``--compare-from FILE`` loads ``compare`` from another copy of
``ragdx/evaluate/compare.py`` (e.g. ``git show REV:src/ragdx/evaluate/compare.py``), to measure the
code before a change with the same simulations.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from blame_accuracy import demo_testbed  # noqa: E402

from ragdx.evaluate.faults import (  # noqa: E402
    FaultPlan,
    MemoJudge,
    Simulated,
    Testbed,
    diagnose,
    drop_documents,
    simulate,
)
from ragdx.evaluate.judges import make_judge  # noqa: E402
from ragdx.evaluate.records import Judgement  # noqa: E402
from ragdx.rag.types import SystemOutput  # noqa: E402

MODULES = ("retrieval", "language model")


def load_compare(path: Path | None):
    if path is None:
        return importlib.import_module("ragdx.evaluate.compare")
    spec = importlib.util.spec_from_file_location("ragdx_compare_under_test", path)
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    return mod


class Keyed:
    """Per style, the testbed with records keyed so that ``simulate`` (which seeds every fault and
    every retrieved document by record id) makes the same draws for both styles. ``per_group``:
    every phrasing of a group, of either style, gets its group's one outcome (the same retrieved
    documents, the same answer): retrieval and reader identical for both styles by construction,
    and groups differ from each other (a group either is found or not), as real groups do.
    Otherwise the k-th short and the k-th long phrasing of a group share their draws."""

    def __init__(self, bed: Testbed, per_group: bool = True):
        self.bed = bed
        self.beds: dict[str, Testbed] = {}
        self.key_of: dict[str, str] = {}
        self.style_of: dict[str, str] = {}
        rank: dict[tuple[str, str], int] = {}
        per_style: dict[str, dict[str, Any]] = {}
        evidence: dict[str, list[list[str]]] = {}
        for r in bed.records:
            k = rank.get((r.group_id, r.style), 0)
            rank[(r.group_id, r.style)] = k + 1
            key = f"{r.group_id}#{0 if per_group else k}"
            self.key_of[r.id] = key
            self.style_of[r.id] = r.style
            per_style.setdefault(r.style, {}).setdefault(key, replace(r, id=key))
            evidence.setdefault(key, bed.truth_evidence[r.id])
        for style, recs in per_style.items():
            self.beds[style] = Testbed(list(recs.values()), bed.corpus, {k: evidence[k] for k in recs},
                                       name=f"{bed.name} ({style}, keyed)")

    def simulate(self, plans: dict[str, FaultPlan]) -> Simulated:
        outputs, truth, deleted = [], {}, set()
        sims = {style: simulate(self.beds[style], plan) for style, plan in plans.items()}
        by_key = {}
        for style, sim in sims.items():
            deleted |= sim.deleted
            by_key[style] = {o.id: o for o in sim.outputs}
        for r in self.bed.records:
            sim = sims[self.style_of[r.id]]
            o = by_key[self.style_of[r.id]][self.key_of[r.id]]
            outputs.append(SystemOutput(id=r.id, query=r.query, answer=o.answer, contexts=o.contexts))
            truth[r.id] = sim.truth[o.id]
        records = [drop_documents(r, deleted) for r in self.bed.records]
        return Simulated(outputs, truth, deleted, records)


def unbalance(js: list[Judgement], seed: int) -> list[Judgement]:
    """Drop one query of a random half of the (group, style) cells that have two or more."""
    rng = random.Random(seed)
    cells: dict[tuple[str, str], list[Judgement]] = {}
    for j in js:
        cells.setdefault((j.group_id, j.style), []).append(j)
    drop = set()
    for key in sorted(cells):
        if len(cells[key]) > 1 and rng.random() < 0.5:
            drop.add(rng.choice(cells[key]).id)
    return [j for j in js if j.id not in drop]


def kb_unknown(js: list[Judgement]) -> list[Judgement]:
    """The same judgements as ragdx sees them when it does not know the knowledge base's content."""
    return [Judgement(**{**j.to_dict(), "kb_supported": None}) for j in js]


@dataclass
class Case:
    name: str
    kind: str  # "compare" or "styles"
    changed: tuple[str, ...]  # the modules that changed, by construction
    make: Callable[[int], tuple[list[Judgement], list[Judgement]] | list[Judgement]]
    null: str = ""  # what the null is, for the table


def _rate(k: int, n: int) -> str:
    p = k / n if n else float("nan")
    se = math.sqrt(p * (1 - p) / n) if n else float("nan")
    return f"{p:.3f} ± {se:.3f} ({k}/{n})"


def run(seeds: int, n_boot: int, cmp_mod, work: Path, only: str | None = None) -> tuple[list[str], dict[str, Any]]:
    bed = demo_testbed(work / "demo")
    keyed, by_rank = Keyed(bed), Keyed(bed, per_group=False)
    judge = MemoJudge(make_judge("cascade"))

    def judged(sim: Simulated) -> list[Judgement]:
        return list(diagnose(sim, judge)[0])

    base = dict(retrieval=0.05, lm=0.05)
    cache: dict[tuple, list[Judgement]] = {}

    def paired(plan: FaultPlan) -> list[Judgement]:
        key = ("p", *plan.__dict__.items())
        if key not in cache:
            cache[key] = judged(simulate(bed, plan))
        return cache[key]

    def styled(short: FaultPlan, long: FaultPlan) -> list[Judgement]:
        return judged(keyed.simulate({"short": short, "long": long}))

    def ranked(short: FaultPlan, long: FaultPlan) -> list[Judgement]:
        return judged(by_rank.simulate({"short": short, "long": long}))

    sp = dict(retrieval=0.10, lm=0.10, kb=0.10)  # the style cases: every module fails sometimes

    def same(s: int, **kw: Any) -> FaultPlan:
        return FaultPlan(**{**sp, "retrieval_seed": s, "lm_seed": s, "kb_seed": s, **kw})

    cases = [
        Case("A/A: identical copy", "compare", (),
             lambda s: (paired(FaultPlan(**base, retrieval_seed=s, lm_seed=s)),) * 2, "the same judgements"),
        Case("(a) A/A: same rates, other seeds", "compare", (),
             lambda s: (paired(FaultPlan(**base, retrieval_seed=s, lm_seed=s)),
                        paired(FaultPlan(**base, retrieval_seed=10_000 + s, lm_seed=20_000 + s))),
             "retriever 5 %, reader 5 % on both sides, independent draws"),
        Case("(b) identical reader and retrieval, knowledge-base seeds differ", "compare", (),
             lambda s: (paired(FaultPlan(**base, kb=0.1, retrieval_seed=s, lm_seed=s, kb_seed=s)),
                        paired(FaultPlan(**base, kb=0.1, retrieval_seed=s, lm_seed=s, kb_seed=30_000 + s))),
             "same retrieval and reader draws; 10 % of evidence documents deleted, other documents"),
        Case("power: retriever degraded 10 points", "compare", ("retrieval",),
             lambda s: (paired(FaultPlan(**base, retrieval_seed=s, lm_seed=s)),
                        paired(FaultPlan(retrieval=0.15, lm=0.05, retrieval_seed=s, lm_seed=s))),
             "retriever 5 % → 15 %, the same reader"),
        Case("power: reader degraded 10 points", "compare", ("language model",),
             lambda s: (paired(FaultPlan(**base, retrieval_seed=s, lm_seed=s)),
                        paired(FaultPlan(retrieval=0.05, lm=0.15, retrieval_seed=s, lm_seed=s))),
             "reader 5 % → 15 %, the same retriever"),
        Case("(c) styles: identical by construction, balanced", "styles", (),
             lambda s: styled(same(s), same(s)), "2 + 2 queries per group, one outcome per group"),
        Case("(c) styles: identical per phrasing rank, unbalanced", "styles", (),
             lambda s: unbalance(ranked(same(s), same(s)), s), "the k-th short and k-th long phrasings share draws"),
        Case("(c) styles: identical by construction, unbalanced", "styles", (),
             lambda s: unbalance(styled(same(s), same(s)), s), "1 or 2 queries per group and style"),
        Case("(c) styles: identical by construction, unbalanced, knowledge base unknown", "styles", (),
             lambda s: kb_unknown(unbalance(styled(same(s), same(s)), s)), "answer-based gap groups"),
        Case("(c') styles: same rates, independent draws, balanced", "styles", (),
             lambda s: judged(simulate(bed, same(s))), "every query its own draw"),
        Case("(c') styles: same rates, independent draws, unbalanced", "styles", (),
             lambda s: unbalance(judged(simulate(bed, same(s))), s), ""),
        Case("(c') styles: same rates, independent draws, unbalanced, knowledge base unknown", "styles", (),
             lambda s: kb_unknown(unbalance(judged(simulate(bed, same(s))), s)), ""),
        Case("(d) styles: identical retrieval, reader faults drawn per style at the same rate, balanced", "styles", (),
             lambda s: ranked(same(s), same(s, lm_seed=50_000 + s)),
             "the k-th phrasings of both styles get the same documents; the reader errs independently"),
        Case("(d) styles: identical retrieval, reader faults drawn per style at the same rate, unbalanced", "styles",
             (), lambda s: unbalance(ranked(same(s), same(s, lm_seed=50_000 + s)), s), ""),
        Case("power (styles): retrieval 10 points worse on long", "styles", ("retrieval",),
             lambda s: styled(same(s), same(s, retrieval=0.20)), "retriever 10 % → 20 % on long"),
        Case("power (styles): reader 10 points worse on long", "styles", ("language model",),
             lambda s: styled(same(s), same(s, lm=0.20)), "reader 10 % → 20 % on long"),
        Case("power (styles): reader 10 points worse on long, drawn per style", "styles", ("language model",),
             lambda s: ranked(same(s), same(s, lm=0.20, lm_seed=50_000 + s)),
             "as (d), reader 10 % → 20 % on long"),
    ]
    if only:
        cases = [c for c in cases if only in c.name]
    counts = {c.name: {"any_false": 0, "retrieval": 0, "language model": 0, "power": 0, "exact": 0} for c in cases}
    examples: dict[str, str] = {}
    started = time.perf_counter()
    for s in range(seeds):
        cache.clear()
        for c in cases:
            got = c.make(s)
            if c.kind == "compare":
                res = cmp_mod.compare(got[0], got[1], n_boot=n_boot, seed=s)
            else:
                res = cmp_mod.compare_styles(got, "short", "long", n_boot=n_boot, seed=s)
            named = cmp_mod.differing_modules(res)
            k = counts[c.name]
            for m in named:
                k[m] += 1
            false = [m for m in named if m not in c.changed]
            k["any_false"] += bool(false)
            k["power"] += all(m in named for m in c.changed) if c.changed else 0
            k["exact"] += sorted(named) == sorted(c.changed)
            if false and c.name not in examples:
                # a Comparison; a compare.py of before the typed result (--compare-from) gave its dict
                examples[c.name] = f"seed {s}: {res['sentence'] if isinstance(res, dict) else res.sentence}"
        if (s + 1) % 10 == 0:
            print(f"  {s + 1}/{seeds} seeds, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    lines = ["| case | changed (by construction) | retrieval named | language model named | "
             "**false claim** (an unchanged module named) | power (changed module named) |",
             "|---|---|---|---|---|---|"]
    for c in cases:
        k = counts[c.name]
        lines.append(f"| {c.name}{f' — {c.null}' if c.null else ''} | {', '.join(c.changed) or 'nothing'} | "
                     f"{_rate(k['retrieval'], seeds)} | {_rate(k['language model'], seeds)} | "
                     f"**{_rate(k['any_false'], seeds)}** | "
                     f"{_rate(k['power'], seeds) if c.changed else '–'} |")
    return lines, {"counts": counts, "examples": examples, "seconds": time.perf_counter() - started,
                   "cases": [c.name for c in cases]}


def cpu_model() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
    except OSError:
        return "unknown"
    for line in out.splitlines():
        if line.startswith("Model name:"):
            return line.split(":", 1)[1].strip()
    return "unknown"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--boot", type=int, default=500)
    ap.add_argument("--compare-from", type=Path, default=None,
                    help="load compare from this copy of compare.py (the code before a change)")
    ap.add_argument("--label", default="", help="a title for this run's table (e.g. before, after)")
    ap.add_argument("--only", default=None, help="only the cases whose name contains this")
    ap.add_argument("--work", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=None, help="also write the table to this Markdown file")
    args = ap.parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix="ragdx-claims-"))
    cmp_mod = load_compare(args.compare_from)
    table, info = run(args.seeds, args.boot, cmp_mod, work, args.only)
    command = "python benchmarks/false_claims.py " + " ".join(a for a in (argv if argv is not None else sys.argv[1:]))
    lines = [f"# False module claims and power of compare / compare_styles{f' — {args.label}' if args.label else ''}",
             "", f"`{command.strip()}` on {cpu_model()}; {args.seeds} seeds, {args.boot} group resamples; "
             f"{info['seconds']:.0f} s.", "", *table, "",
             "Rates ± one standard error. Target for every false-claim rate: ≤ 0.05 + 2 s.e.", ""]
    if info["examples"]:
        lines += ["First false claim of each case:", ""]
        lines += [f"- {name}: {ex}" for name, ex in info["examples"].items()]
        lines.append("")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
