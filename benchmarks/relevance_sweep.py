"""How k and the temperature move AUROC and false rejections: the numbers behind the defaults.

    # setting 1 (PubMedQA contexts; out-of-knowledge sets subsampled to --limit each)
    OMP_WAIT_POLICY=passive HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/relevance_sweep.py \\
        --data ../shared/data/knowledge-boundary --limit 400 -o benchmarks/results/relevance_sweep_setting1.md
    # any corpus (e.g. setting 2 from benchmarks/relevance_setting2.py)
    .venv/bin/python benchmarks/relevance_sweep.py --corpus C.jsonl --corpus-field text --in-knowledge IK.jsonl \\
        --group-field group --out-of-knowledge NAME=FILE ... -o table.md

Every query is searched once at the largest k; each (k, T) then re-computes the statistics from
the first k similarities, so the sweep costs seconds once the embeddings are cached. AUROC is
in-knowledge held-out vs each out-of-knowledge set (all queries, no balancing: AUROC does not
depend on class sizes), averaged over sets and shown with the worst set; FRR is the share of
held-out in-knowledge queries rejected at alpha with the one fixed calibration set, and "FRR
re-split" the mean over 50 random re-splits of all in-knowledge queries (the unconditional rate; its SE is
about 0.002 at alpha = 0.05 with 500 held-out queries).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))


def main() -> None:
    from ragdx.embed import Embedder
    from ragdx.relevance import RelevanceTester, detection_metrics
    from ragdx.relevance.bench import load_custom_setting, load_setting1
    from ragdx.relevance.cli_support import parse_named_files
    from ragdx.relevance.statistics import DISPLAY_NAMES, STATISTICS

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path)
    ap.add_argument("--corpus", type=Path)
    ap.add_argument("--corpus-field", default="content")
    ap.add_argument("--in-knowledge", type=Path)
    ap.add_argument("--group-field")
    ap.add_argument("--out-of-knowledge", action="append")
    ap.add_argument("--name")
    ap.add_argument("--gap-set", action="append", default=[],
                    help="An out-of-knowledge NAME holding in-domain queries whose facts are missing: reported in its "
                         "own column, left out of the mean and worst AUROC (the tester is not meant to catch them).")
    ap.add_argument("--limit", type=int, default=400)
    ap.add_argument("--ks", default="1,3,5,10,20,50")
    ap.add_argument("--temperatures", default="0.01,0.02,0.05,0.1,0.5,1.0")
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("-o", "--out", type=Path)
    args = ap.parse_args()
    ks = [int(x) for x in args.ks.split(",")]
    temps = [float(x) for x in args.temperatures.split(",")]

    t0 = time.perf_counter()
    if args.corpus:
        setting = load_custom_setting(args.corpus, args.in_knowledge,
                                      parse_named_files(args.out_of_knowledge, "--out-of-knowledge"),
                                      corpus_field=args.corpus_field, group_field=args.group_field,
                                      limit=args.limit, name=args.name)
    else:
        setting = load_setting1(args.data or REPO.parent / "shared" / "data" / "knowledge-boundary", limit=args.limit)
    emb = Embedder()
    corpus = emb.embed(setting.corpus)
    cal, ik = emb.embed(setting.calibration), emb.embed(setting.in_knowledge)
    ook = {n: emb.embed(t) for n, t in setting.out_of_knowledge.items()}
    kmax = min(max(ks), corpus.shape[0])
    base = RelevanceTester(k=kmax).fit(corpus, cal, embedding_model=emb.name)
    top_cal, top_ik = base.calibration_topk_, base.index_.top_k(ik, kmax)
    top_ook = {n: base.index_.top_k(e, kmax) for n, e in ook.items()}
    pool = np.vstack([top_cal, top_ik])
    rng = np.random.default_rng(0)
    splits = [rng.permutation(len(pool)) for _ in range(50)]

    def tester(k: int, temp: float, cal_topk: np.ndarray) -> RelevanceTester:
        t = RelevanceTester(k=k, temperature=temp, alpha=args.alpha)
        t.index_, t.embedding_model_ = base.index_, base.embedding_model_
        t._set_calibration(cal_topk[:, :k])
        return t

    rows = []
    for k in [k for k in ks if k <= kmax]:
        for temp in temps:
            t = tester(k, temp, top_cal)
            s_ik = t.statistics_from_topk(top_ik[:, :k])
            p_ik = t.p_values_from_statistics(s_ik)
            res = {"k": k, "T": temp}
            for j, stat in enumerate(STATISTICS):
                aurocs = {n: detection_metrics(s_ik[:, j], t.statistics_from_topk(v[:, :k])[:, j]).auroc
                          for n, v in top_ook.items()}
                off = [a for n, a in aurocs.items() if n not in args.gap_set]
                res[stat] = {"auroc": float(np.mean(off)), "worst": float(np.min(off)),
                             "frr": float((p_ik[:, j] <= args.alpha).mean()),
                             "gaps": {n: aurocs[n] for n in args.gap_set if n in aurocs}}
            resplit = []
            for perm in splits:
                n = len(top_cal)
                r = tester(k, temp, pool[perm[:n]])
                pv = r.p_values_from_statistics(r.statistics_from_topk(pool[perm[n:], :k]))
                resplit.append((pv <= args.alpha).mean(axis=0))
            for j, stat in enumerate(STATISTICS):
                res[stat]["frr_resplit"] = float(np.mean([x[j] for x in resplit]))
            rows.append(res)

    lines = [f"# k and temperature sweep — {setting.name}", "",
             f"Embedding model {emb.name}; corpus {len(setting.corpus)} chunks; calibration "
             f"{len(setting.calibration)}, held-out in-knowledge {len(setting.in_knowledge)}; out-of-knowledge: "
             + ", ".join(f"{n} {len(v)}" for n, v in setting.out_of_knowledge.items()) + f"; α = {args.alpha}.", ""]
    lines += [f"- {n}" for n in setting.notes]
    if args.gap_set:
        lines.append(f"- {', '.join(args.gap_set)}: in-domain queries whose facts are missing, shown in their own "
                     "column and left out of the mean and worst AUROC.")
    lines += ["- AUROC: mean over the out-of-knowledge sets (worst set in brackets); FRR: held-out in-knowledge "
              "rejected at α with the fixed calibration set; FRR re-split: mean over 50 random re-splits of all "
              "in-knowledge queries.", "",
              "## Energy and Entropy (depend on k and T)", "",
              "| k | T | Energy AUROC (worst) | Energy FRR | Energy FRR re-split | Entropy AUROC (worst) | "
              "Entropy FRR | Entropy FRR re-split |" + "".join(f" Energy AUROC {g} |" for g in args.gap_set),
              "|---|---|---|---|---|---|---|---|" + "---|" * len(args.gap_set)]
    for r in rows:
        e, h = r["energy"], r["entropy"]
        lines.append(f"| {r['k']} | {r['T']:g} | {e['auroc']:.3f} ({e['worst']:.3f}) | {e['frr']:.3f} | "
                     f"{e['frr_resplit']:.3f} | {h['auroc']:.3f} ({h['worst']:.3f}) | {h['frr']:.3f} | "
                     f"{h['frr_resplit']:.3f} |" + "".join(f" {e['gaps'].get(g, float('nan')):.3f} |"
                                                          for g in args.gap_set))
    others = [s for s in STATISTICS if s not in ("energy", "entropy")]
    lines += ["", "## Statistics that do not use T (k only)", "",
              "| k | " + " | ".join(f"{DISPLAY_NAMES[s]} AUROC (worst) / FRR re-split" for s in others) + " |",
              "|---|" + "---|" * len(others)]
    for r in rows:
        if r["T"] != temps[0]:
            continue
        lines.append(f"| {r['k']} | " + " | ".join(
            f"{r[s]['auroc']:.3f} ({r[s]['worst']:.3f}) / {r[s]['frr_resplit']:.3f}" for s in others) + " |")
    best = max(rows, key=lambda r: (r["energy"]["worst"], r["energy"]["auroc"]))
    default = next((r for r in rows if r["k"] == 10 and r["T"] == 0.05), None)
    lines += ["", f"Best Energy cell by worst-set AUROC: k = {best['k']}, T = {best['T']:g} "
              f"({best['energy']['auroc']:.3f}, worst {best['energy']['worst']:.3f})."]
    if default:
        lines.append(f"Default k = 10, T = 0.05: {default['energy']['auroc']:.3f}, worst "
                     f"{default['energy']['worst']:.3f}, FRR re-split {default['energy']['frr_resplit']:.3f}.")
    lines += ["", f"Total {time.perf_counter() - t0:.0f} s (embeddings from the shared cache when present).", ""]
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
