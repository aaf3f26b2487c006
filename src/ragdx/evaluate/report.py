"""Entry points: evaluate runs (or stored results) into ``metrics.json`` + ``summary.md``,
compare two of them, and measure how often two judges agree."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ragdx.errors import RagdxError
from ragdx.evaluate.compare import compare, compare_markdown
from ragdx.evaluate.judges import Judge, agreement, agreement_markdown
from ragdx.evaluate.protocol import blame, blame_counts, by_style, metrics
from ragdx.evaluate.records import Judgement, write_judgements
from ragdx.evaluate.reference import PAPER_AURP, is_reference_dir, read_reference, table3_markdown
from ragdx.evaluate.runs import judge_plain, judge_run, rejudge

METRIC_LABELS = {
    "accuracy": "Accuracy",
    "refined_accuracy": "Refined accuracy R",
    "gap_share": "λ (share of gap examples)",
    "acc_retrieval_db": "Acc_retrieval_db",
    "retrieval_accuracy": "Retrieval on its own (context comparison)",
    "retrieval_refined": "Retrieval-only R (gap groups removed)",
    "lm_accuracy_given_retrieval": "LM accuracy where retrieval was right",
}


def _kind(path: Path) -> str:
    if path.is_file() and path.suffix == ".jsonl":
        return "jsonl"
    if path.is_dir() and (path / "manifest.json").exists() and (path / "inputs.jsonl").exists():
        return "run"
    if is_reference_dir(path):
        return "reference"
    raise RagdxError("not a run directory, a GRAMMAR reference directory or a .jsonl of results",
                     source=str(path))


def load_judgements(path: str | Path, *, judge: str | Judge = "cascade", llm: Any = None, sets: str = "all",
                    k: int | None = None, cache: Any = None, dataset: Any = None,
                    reference_set: str = "unbalanced", retrieval: str = "all") -> list[Judgement]:
    """Judged queries of a run directory, a plain JSONL or a GRAMMAR reference directory
    (``reference_set``: ``unbalanced`` or ``balanced`` files, all styles)."""
    path = Path(path)
    kind = _kind(path)
    if kind == "run":
        return judge_run(path, judge=judge, llm=llm, sets=sets, dataset=dataset, k=k, cache=cache,
                         retrieval=retrieval)
    if kind == "jsonl":
        return judge_plain(path, judge=judge, llm=llm, sets=sets, k=k, cache=cache, retrieval=retrieval)
    ref = read_reference(path)
    out = []
    for style in ref.styles:
        sets_ = ref.sets[style]
        out.extend(sets_.get(reference_set) or sets_.get("unbalanced") or sets_["balanced"])
    return out


def _style_metrics(judgements: Sequence[Judgement], n_boot: int, seed: int) -> dict[str, Any]:
    out = {}
    styles = by_style(judgements)
    for style, js in sorted(styles.items()):
        out[style] = metrics(js, n_boot=n_boot, seed=seed)
    if len(styles) > 1:
        # gap groups over all styles of the group (the knowledge base's view)
        out["all styles"] = metrics(judgements, n_boot=n_boot, seed=seed)
    return out


def evaluate_judgements(judgements: Sequence[Judgement], *, n_boot: int = 1000, seed: int = 0,
                        compare_pair: tuple[str, str] | None = None) -> dict[str, Any]:
    """Metrics per style, module blame and (given two styles) the hypothesis test."""
    verdicts = blame(judgements)
    result: dict[str, Any] = {
        "queries": len(judgements),
        "judges": sorted({j.judge for j in judgements}),
        "by_style": _style_metrics(judgements, n_boot, seed),
        "blame": {"all": blame_counts(verdicts)},
    }
    for style, js in sorted(by_style(judgements).items()):
        result["blame"][style] = blame_counts(blame(js))
    styles = sorted(by_style(judgements))
    if compare_pair is None and {"short", "long"} <= set(styles):
        compare_pair = ("short", "long")
    elif compare_pair is None and len(styles) == 2:
        compare_pair = (styles[0], styles[1])
    if compare_pair is not None:
        groups = by_style(judgements)
        result["comparison"] = compare(groups[compare_pair[0]], groups[compare_pair[1]], names=compare_pair,
                                       n_boot=n_boot, seed=seed)
    result["_verdicts"] = verdicts
    return result


def evaluate_reference(root: str | Path, *, n_boot: int = 1000, seed: int = 0) -> dict[str, Any]:
    """The GRAMMAR reference's stored results: Table 3 (both styles), metrics, blame and the
    short-vs-long test (on the balanced files, where every group weighs the same)."""
    ref = read_reference(root)
    cells = ref.table3()
    unbalanced = [j for s in ref.styles for j in (ref.sets[s].get("unbalanced") or [])]
    balanced = [j for s in ref.styles for j in (ref.sets[s].get("balanced") or [])]
    result = evaluate_judgements(balanced or unbalanced, n_boot=n_boot, seed=seed)
    result["source"] = {"kind": "grammar-reference", "path": str(root),
                        "metrics_on": "balanced files" if balanced else "unbalanced files"}
    if unbalanced and balanced:
        result["by_style_unbalanced"] = _style_metrics(unbalanced, n_boot, seed)
    result["table3"] = cells
    result["_judgements"] = balanced or unbalanced
    result["_extra_judgements"] = unbalanced if balanced else []
    return result


def _fmt(entry: dict[str, float]) -> str:
    v = entry["value"]
    if "ci_low" in entry and not math.isnan(entry["ci_low"]):
        return f"{v:.3f} [{entry['ci_low']:.3f}, {entry['ci_high']:.3f}]"
    return "–" if math.isnan(v) else f"{v:.3f}"


def metrics_markdown(by: dict[str, Any]) -> str:
    names = list(by)
    lines = ["| | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    labels = {"queries": "queries", "groups": "semantic groups", "gap": "gap groups", "robust": "robust groups",
              "non_robust": "non-robust groups"}
    for key, label in labels.items():
        lines.append(f"| {label} | " + " | ".join(str(by[n][key]) for n in names) + " |")
    for key, label in METRIC_LABELS.items():
        lines.append(f"| {label} | " + " | ".join(_fmt(by[n]["metrics"][key]) for n in names) + " |")
    return "\n".join(lines)


def summary_markdown(result: dict[str, Any], title: str) -> str:
    parts = [f"# Evaluation: {title}", ""]
    src = result.get("source", {})
    parts.append(f"Source: {src.get('kind', '?')} `{src.get('path', '')}`; judged by {', '.join(result['judges'])}; "
                 f"{result['queries']} queries. Intervals: 95 %, bootstrap over semantic groups.")
    if "table3" in result:
        parts += ["", "## GRAMMAR Table 3 (accuracy on selected examples)", "",
                  table3_markdown(result["table3"], PAPER_AURP if set(result["table3"]) == {"short", "long"} else None)]
    parts += ["", f"## Metrics per style{' (' + src['metrics_on'] + ')' if 'metrics_on' in src else ''}", "",
              metrics_markdown(result["by_style"])]
    parts += ["", "## Module blame (per query)", "", "| | " + " | ".join(result["blame"]) + " |",
              "|---|" + "---:|" * len(result["blame"])]
    for key in ("correct", "kb_gap", "retrieval_failure", "lm_failure", "total"):
        parts.append(f"| {key} | " + " | ".join(str(b[key]) for b in result["blame"].values()) + " |")
    if "comparison" in result:
        parts += ["", "## Hypothesis test", "", compare_markdown(result["comparison"])]
    if "text_metrics" in result:
        parts += ["", "## Text metrics", ""]
        for k, v in result["text_metrics"].items():
            parts.append(f"- {k}: {v}")
    return "\n".join(parts) + "\n"


def _public(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if not k.startswith("_")}


def write_report(result: dict[str, Any], out: str | Path, title: str) -> Path:
    from ragdx.store import atomic_write_text, write_json

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    write_json(out / "metrics.json", _public(result))
    atomic_write_text(out / "summary.md", summary_markdown(result, title))
    judged = list(result.get("_judgements", [])) + list(result.get("_extra_judgements", []))
    if judged:
        write_judgements(out / "judgements.jsonl", judged)
    if "_verdicts" in result:
        from ragdx.store import write_jsonl

        write_jsonl(out / "blame.jsonl", result["_verdicts"])
    return out


def evaluate(path: str | Path, *, out: str | Path | None = None, judge: str | Judge = "cascade", llm: Any = None,
             sets: str = "all", k: int | None = None, cache: Any = None, n_boot: int = 1000, seed: int = 0,
             dataset: Any = None, compare_pair: tuple[str, str] | None = None,
             retrieval: str = "all", lab: bool = True, bertscore: bool = False) -> dict[str, Any]:
    """``ragdx evaluate PATH``: judge (run directory / JSONL) or read (GRAMMAR reference), compute
    the protocol's metrics, blame and the style test, and write ``metrics.json``, ``summary.md``,
    ``judgements.jsonl`` and ``blame.jsonl`` to ``out`` (default ``PATH/evaluation`` for a run
    directory; required for anything else). ``lab`` adds hit rate@k, MRR, ROUGE-L and the
    ground-truth RAG confusion matrix; ``bertscore`` adds BERTScore on the packaged MiniLM."""
    path = Path(path)
    kind = _kind(path)
    if kind == "reference":
        result = evaluate_reference(path, n_boot=n_boot, seed=seed)
    else:
        judged = load_judgements(path, judge=judge, llm=llm, sets=sets, k=k, cache=cache, dataset=dataset,
                                 retrieval=retrieval)
        result = evaluate_judgements(judged, n_boot=n_boot, seed=seed, compare_pair=compare_pair)
        result["source"] = {"kind": kind, "path": str(path), "k": k, "retrieval_rule": retrieval}
        result["_judgements"] = judged
        if lab:
            from ragdx.evaluate.text_metrics import lab_metrics

            result["text_metrics"] = lab_metrics(judged, k=k or 5, bertscore=bertscore)
    if out is None:
        if kind != "run":
            raise RagdxError("give an output directory (--out) for anything but a run directory", source=str(path))
        out = path / "evaluation"
    result["output"] = str(write_report(result, out, path.name))
    return result


def evaluate_many(paths: Sequence[str | Path], *, out: str | Path | None = None, **kwargs: Any) -> list[dict]:
    """``ragdx evaluate RUN_DIR...``: each path on its own (into ``out/<name>`` when ``out`` is given)."""
    results = []
    for p in paths:
        target = None if out is None else (Path(out) if len(paths) == 1 else Path(out) / Path(p).name)
        results.append(evaluate(p, out=target, **kwargs))
    return results


def compare_paths(a: str | Path, b: str | Path, *, out: str | Path | None = None, judge: str | Judge = "cascade",
                  llm: Any = None, sets: str = "all", k: int | None = None, cache: Any = None, n_boot: int = 1000,
                  seed: int = 0, gap: str = "joint", style: str | None = None, retrieval: str = "all",
                  dataset: Any = None) -> dict[str, Any]:
    """``ragdx compare A B``: two runs (or results) on one dataset; ``style`` restricts both to one
    style. Writes ``comparison.json`` and ``comparison.md`` to ``out`` when given."""
    ja = load_judgements(a, judge=judge, llm=llm, sets=sets, k=k, cache=cache, retrieval=retrieval, dataset=dataset)
    jb = load_judgements(b, judge=judge, llm=llm, sets=sets, k=k, cache=cache, retrieval=retrieval, dataset=dataset)
    if style is not None:
        ja, jb = [j for j in ja if j.style == style], [j for j in jb if j.style == style]
    result = compare(ja, jb, names=(Path(a).name, Path(b).name), gap=gap, n_boot=n_boot, seed=seed)
    if out is not None:
        from ragdx.store import atomic_write_text, write_json

        Path(out).mkdir(parents=True, exist_ok=True)
        write_json(Path(out) / "comparison.json", result)
        atomic_write_text(Path(out) / "comparison.md", compare_markdown(result) + "\n")
    return result


def judge_agreement(path: str | Path, judge_a: str = "stored", judge_b: str = "cascade", *, llm: Any = None,
                    sets: str = "all", cache: Any = None, dataset: Any = None) -> dict[str, Any]:
    """``ragdx judge-agreement PATH --a JUDGE --b JUDGE``: how often two judges agree on the same
    responses. ``stored`` is the verdict already there (the reference's judgements, a JSONL's
    ``correct``); for a run directory the first judge judges and the second re-judges."""
    base_judge = "cascade" if judge_a == "stored" else judge_a
    base = load_judgements(path, judge=base_judge, llm=llm, sets=sets, cache=cache, dataset=dataset)
    left = base if judge_a in ("stored", base_judge) else rejudge(base, judge_a, llm=llm, sets=sets, cache=cache)
    right = base if judge_b == "stored" else rejudge(base, judge_b, llm=llm, sets=sets, cache=cache)
    result = agreement(left, right, names=(judge_a, judge_b))
    result["markdown"] = agreement_markdown(result)
    return result
