"""Entry points: evaluate runs (or stored results) into ``metrics.json`` + ``summary.md``,
compare two of them, and measure how often two judges agree."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ragdx.errors import RagdxError
from ragdx.evaluate import verdicts as verdict_registry
from ragdx.evaluate.abstention import abstention_blame, abstention_markdown, abstention_scores
from ragdx.evaluate.compare import Comparison, compare, compare_markdown
from ragdx.evaluate.config import BENCHMARKS, RULE_WORDS, EvaluationConfig
from ragdx.evaluate.judges import Judge, JudgeAgreement, agreement
from ragdx.evaluate.protocol import blame, blame_counts, by_style, group_tags, metrics
from ragdx.evaluate.records import Judgement, write_judgements, write_rows
from ragdx.evaluate.reference import (
    PAPER_AURP,
    PAPER_SPIDER_CLOSED,
    PAPER_SPIDER_OPEN,
    is_reference_dir,
    read_reference,
    table3_markdown,
)
from ragdx.evaluate.results import METRIC_LABELS, BlameCounts, EvaluationResult, StyleMetrics
from ragdx.evaluate.runs import InputCheck, judge_plain, judge_run, rejudge
from ragdx.forked import Forked, Inline
from ragdx.store import gc_paused

#: the paper's Table 3 per benchmark; a reference directory is matched to one (or none) by
#: ``benchmark_of`` — never by its styles alone
PAPER_TABLE3 = {"aurp": PAPER_AURP, "spider-closed": PAPER_SPIDER_CLOSED, "spider-open": PAPER_SPIDER_OPEN}


def benchmark_of(path: str | Path, declared: str | None = None) -> str | None:
    """Which of the paper's benchmarks a GRAMMAR reference directory is: ``declared`` when given
    (``aurp``, ``spider-open``, ``spider-closed``, ``none``), else ``aurp`` when the directory holds
    the Aurp database (``aurp_tables.json``), else None (no paper column is shown)."""
    if declared is not None:
        if declared not in BENCHMARKS:
            raise RagdxError(f"unknown benchmark {declared!r} (aurp, spider-open, spider-closed or none)",
                             field="benchmark")
        return None if declared == "none" else declared
    return "aurp" if (Path(path) / "aurp_tables.json").exists() else None


def _kind(path: Path) -> str:
    if path.is_file() and path.suffix == ".jsonl":
        return "jsonl"
    from ragdx.rag.rundir import is_run_directory

    if is_run_directory(path):
        return "run"
    if is_reference_dir(path):
        return "reference"
    raise RagdxError("not a run directory, a GRAMMAR reference directory or a .jsonl of results",
                     source=str(path))


def load_judgements(path: str | Path, config: EvaluationConfig | None = None, *, dataset: Any = None,
                    sink: Any = None, **options: Any) -> list[Judgement]:
    """Judged queries of a run directory, a plain JSONL or a GRAMMAR reference directory
    (``config.reference_set``: ``unbalanced`` or ``balanced`` files, all styles), judged as
    ``config`` (or ``options``, its keywords: :meth:`EvaluationConfig.build`) says. ``sink``: a
    run directory is judged in blocks, each handed to it (see :func:`ragdx.evaluate.runs.judge_run`)."""
    config = EvaluationConfig.build(config, **options)
    path = Path(path)
    kind = _kind(path)
    if kind == "run":
        return judge_run(path, config, dataset=dataset, sink=sink)
    if kind == "jsonl":
        return judge_plain(path, config)
    from ragdx.evaluate.runs import Judged

    ref = read_reference(path)
    out = Judged(check=InputCheck(source=str(path), retrieval_rule="stored retrieval_judgement"))
    for style in ref.styles:
        sets_ = ref.sets[style]
        out.extend(sets_.get(config.reference_set) or sets_.get("unbalanced") or sets_["balanced"])
    out.check.total = out.check.answered = out.check.judged = len(out)
    return out


def _style_metrics(judgements: Sequence[Judgement], n_boot: int, seed: int) -> dict[str, StyleMetrics]:
    """Metrics per style and over all styles, with one gap rule for every column
    (``GAP_RULE_JOINT``): a group is a gap group when no query of any style answered it."""
    out = {}
    styles = by_style(judgements)
    tags = group_tags(judgements)  # the one gap rule, found once
    for style, js in sorted(styles.items()):
        out[style] = StyleMetrics.from_dict(metrics(js, gap_over=judgements, n_boot=n_boot, seed=seed, gap_tags=tags))
    if len(styles) > 1:
        out["all styles"] = StyleMetrics.from_dict(metrics(judgements, gap_over=judgements, n_boot=n_boot, seed=seed,
                                                           gap_tags=tags))
    return out


def _conversation_blame(judgements: Sequence[Judgement], verdicts: list[dict[str, Any]]
                        ) -> tuple[list[dict[str, Any]], dict[str, Any] | None] | None:
    """For a dataset with conversations: the verdicts with history handling blamed where a
    follow-up's standalone question retrieved its evidence, and the per-turn scores; None otherwise."""
    if not any(j.turn for j in judgements):
        return None
    from ragdx.evaluate.conversations import conversation_scores, history_blame

    probes = {j.id: j.standalone_retrieved for j in judgements if j.turn > 1}
    verdicts = history_blame(verdicts, probes)
    return verdicts, conversation_scores(verdicts, {j.id: j.turn for j in judgements})


#: the most judgements whose statistics run in forked children (``ragdx.forked``): a child reading the
#: judgements writes to each one it touches (reference counts), copying its pages: measured at 1M queries,
#: 1.8 and 2.2 GB (PSS) for the two children beside the main process's 1.9 GB. Up to this
#: many, the two children's copies stay under about 1 GB together; beyond, the statistics run here.
FORK_UP_TO = 250_000


def forked_if_small(n: int) -> type[Forked[Any]]:
    """:class:`ragdx.forked.Forked` for ``n`` judgements up to :data:`FORK_UP_TO`, else :class:`Inline`."""
    return Forked if n <= FORK_UP_TO else Inline


def evaluate_judgements(judgements: Sequence[Judgement], config: EvaluationConfig | None = None, *,
                        blame_out: Path | None = None, **options: Any) -> EvaluationResult:
    """Metrics per style, module blame and (given two styles) the hypothesis test, with
    ``config``'s bootstrap (``n_boot``, ``seed``) and ``compare_pair``. Judgements whose judge
    failed (``error``) are counted and excluded from every metric. ``blame_out``: the per-query
    verdicts are written there (``blame.jsonl``) and not kept on the result."""
    config = EvaluationConfig.build(config, **options)
    n_boot, seed, compare_pair = config.n_boot, config.seed, config.compare_pair
    check = getattr(judgements, "check", None)
    groups = by_style(judgements)  # read three times below: made once
    styles = sorted(groups)
    if compare_pair is None and {"short", "long"} <= set(styles):
        compare_pair = ("short", "long")
    elif compare_pair is None and len(styles) == 2:
        compare_pair = (styles[0], styles[1])
    style_test = None
    if compare_pair is not None:
        # the style test (its bootstraps are a third of this function) on another core meanwhile
        style_test = forked_if_small(len(judgements))(compare, groups[compare_pair[0]], groups[compare_pair[1]],
                                                      names=compare_pair, n_boot=n_boot, seed=seed)
    verdicts = blame(judgements)
    conversation = _conversation_blame(judgements, verdicts)
    if conversation is not None:
        verdicts, conversation_scores = conversation
        result_extra = {"conversations": conversation_scores}
    else:
        result_extra = {}
    if blame_out is not None:
        write_rows(blame_out, verdicts)
    failed = sum(1 for j in judgements if j.error)
    present = {v["verdict"] for v in verdicts}  # every style counts the same verdicts
    blame_by = {"all": BlameCounts.from_dict(blame_counts(verdicts))}
    for style in styles:
        blame_by[style] = BlameCounts.from_dict(blame_counts([v for v in verdicts if v["style"] == style], present))
    warnings = list(check.warnings) if check is not None else []
    if failed and not any("judgements failed" in w for w in warnings):
        warnings.append(f"{failed} judgements failed (excluded from the metrics; evaluate again to re-judge them)")
    result = EvaluationResult(
        queries=len(judgements) - failed, judges=sorted({j.judge for j in judgements if not j.error}),
        by_style=_style_metrics(judgements, n_boot, seed), blame=blame_by,
        inputs=check.to_dict() if check is not None else {}, warnings=warnings,
        retrieval_rule=RULE_WORDS.get(check.retrieval_rule, check.retrieval_rule) if check is not None else "",
        judgements=list(judgements), verdicts=verdicts if blame_out is None else [])
    result.extra.update(result_extra)  # turns of conversations (issue 26): per turn, history handling blamed
    kinds = kind_accuracy(judgements)
    if kinds is not None:  # questions besides look-ups (issue 22): accuracy per kind, else no key at all
        result.extra["question_kinds"] = kinds
    scores = abstention_scores(judgements)
    if scores is not None:  # records to refuse (issue 26): their scores and blame, else no key at all
        result.extra["abstention"] = {**scores, "blame": abstention_blame(verdicts)}
    del verdicts  # a million rows: gone before the bootstraps run
    if style_test is not None:
        result.comparison = style_test.result()
    return result


def evaluate_reference(root: str | Path, config: EvaluationConfig | None = None, **options: Any) -> EvaluationResult:
    """The GRAMMAR reference's stored results: Table 3 (both styles, gap groups found per style as
    the paper does), metrics, blame and the short-vs-long test (on the balanced files, where every
    group weighs the same); ``config.benchmark`` names the paper's benchmark it is."""
    config = EvaluationConfig.build(config, **options)
    n_boot, seed = config.n_boot, config.seed
    ref = read_reference(root)
    cells = ref.table3()
    unbalanced = [j for s in ref.styles for j in (ref.sets[s].get("unbalanced") or [])]
    balanced = [j for s in ref.styles for j in (ref.sets[s].get("balanced") or [])]
    result = evaluate_judgements(balanced or unbalanced, config)
    result.retrieval_rule = "the reference's stored retrieval_judgement (all gold documents retrieved)"
    result.source = {"kind": "grammar-reference", "path": str(root),
                     "metrics_on": "balanced files" if balanced else "unbalanced files",
                     "benchmark": benchmark_of(root, config.benchmark)}
    if unbalanced and balanced:
        result.by_style_unbalanced = _style_metrics(unbalanced, n_boot, seed)
    result.table3 = cells
    result.extra_judgements = unbalanced if balanced else []
    return result


def metrics_markdown(by: dict[str, StyleMetrics]) -> str:
    names = list(by)
    lines = ["| | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    labels = {"queries": "queries", "groups": "semantic groups", "gap": "gap groups (answer-based)",
              "robust": "robust groups", "non_robust": "non-robust groups"}
    for key, label in labels.items():
        lines.append(f"| {label} | " + " | ".join(str(getattr(by[n], key)) for n in names) + " |")
    for key, label in METRIC_LABELS.items():
        if not any(key in by[n].metrics and by[n].metrics[key].known for n in names):
            continue
        lines.append(f"| {label} | " + " | ".join(str(by[n].metrics[key]) if key in by[n].metrics else "–"
                                                 for n in names) + " |")
    return "\n".join(lines)


def blame_markdown(blame_by: dict[str, BlameCounts]) -> str:
    """The per-query verdicts per style: every verdict of the registry counted
    (``ragdx.evaluate.verdicts``), how many are unsure, and the bases they rest on."""
    names = list(blame_by)
    lines = ["| | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    labels = verdict_registry.labels()
    counted = verdict_registry.shown(k for b in blame_by.values() for k in b.others)
    for key in (*counted, "unjudged", "total"):
        label = labels.get(key, key)
        lines.append(f"| {label} (`{key}`) | " if key != "total" else "| total | ")
        lines[-1] += " | ".join(str(b[key]) for b in blame_by.values()) + " |"
    lines.append("| **unsure verdicts** | " + " | ".join(
        f"{b.unsure} of {b.total - b.correct - b.unjudged} wrong answers" for b in blame_by.values()) + " |")
    lines.append("| verdicts on low-confidence evidence | "
                 + " | ".join(str(b.low_confidence) for b in blame_by.values()) + " |")
    overall = blame_by.get("all") or next(iter(blame_by.values()), None)
    if overall is not None and overall.by_basis:
        wrong = {k: v for k, v in overall.by_basis.items() if not k.startswith(("correct:", "unjudged:"))}
        if wrong:
            lines += ["", "What the verdicts rest on (verdict: basis, all styles): " + "; ".join(
                f"{k.replace(':', ': ')} {v}" for k, v in sorted(wrong.items(), key=lambda kv: -kv[1])) + "."]
    lines += ["", "Unsure verdicts name the modules that remain when the evidence cannot tell them apart: "
              "`kb_or_retrieval` (the knowledge base or the retriever), `retrieval_or_lm` (retrieval could not be "
              "judged), `undetermined` (nothing known). Per-query verdicts, with their basis, confidence, reason "
              "and evidence documents: `blame.jsonl`."]
    return "\n".join(lines)


def summary_markdown(result: EvaluationResult, title: str) -> str:
    parts = [f"# Evaluation: {title}", ""]
    src = result.source
    inputs = result.inputs
    n_of = (f"{inputs.get('judged', result.queries)} of {inputs.get('total', result.queries)} queries judged"
            if inputs else f"{result.queries} queries")
    parts.append(f"Source: {src.get('kind', '?')} `{src.get('path', '')}`; judged by {', '.join(result.judges)}; "
                 f"{n_of}. Intervals: 95 %, bootstrap over semantic groups.")
    failed_by, fallbacks = inputs.get("judge_failed_by") or {}, inputs.get("judge_fallbacks") or {}
    if failed_by or fallbacks:
        from ragdx.evaluate.runs import reasons_text

        said = []
        if failed_by:
            said.append(f"{sum(failed_by.values())} failed, excluded from the metrics ({reasons_text(failed_by)})")
        if fallbacks:
            said.append(f"{sum(fallbacks.values())} decided by the offline rule because the LLM gave no verdict "
                        f"({reasons_text(fallbacks)})")
        parts.append(f"\nJudge: {'; '.join(said)}. Neither is cached: the next evaluation asks the LLM again.")
    parts += _llm_usage_parts(result, table=False)
    for w in result.warnings:
        parts.append(f"\n> **Warning:** {w}")
    b = result.blame.get("all")
    if b is not None and b.total:
        wrong = b.total - b.correct - b.unjudged
        parts.append(f"\nModule blame: {wrong} wrong answers, {b.unsure} of them with an unsure verdict "
                     f"(the evidence cannot tell the modules apart), {b.low_confidence} resting on low-confidence "
                     "evidence; see *Module blame* below.")
    if result.table3 is not None:
        bench = src.get("benchmark")
        paper = PAPER_TABLE3.get(bench) if bench else None
        parts += ["", "## GRAMMAR Table 3 (accuracy on selected examples; gap groups found per style, as the paper)",
                  "", table3_markdown(result.table3, paper)]
        if paper is None:
            parts.append("\nNo paper column: this reference is not one of the paper's benchmarks "
                         "(declare it with --benchmark to compare).")
    parts += ["", f"## Metrics per style{' (' + src['metrics_on'] + ')' if 'metrics_on' in src else ''}", "",
              metrics_markdown(result.by_style), "", f"Gap rule: {result.gap_rule}."]
    if result.retrieval_rule:
        parts.append(f"Retrieval rule: {result.retrieval_rule}.")
    parts += ["", "## Module blame (per query)", "", blame_markdown(result.blame)]
    if result.extra.get("question_kinds"):
        parts += ["", "## Accuracy per question kind", "", kind_markdown(result.extra["question_kinds"])]
    if result.extra.get("abstention"):
        parts += ["", "## Abstention (questions to refuse)", "", abstention_markdown(result.extra["abstention"])]
    if result.extra.get("conversations"):
        from ragdx.evaluate.conversations import conversations_markdown

        parts += ["", "## Conversations (per turn)", "", conversations_markdown(result.extra["conversations"])]
    if result.comparison is not None:
        parts += ["", "## Hypothesis test", "", compare_markdown(result.comparison)]
    parts += _open_domain_parts(result.extra.get("open_domain"))
    parts += _geval_parts(result.extra.get("geval"))
    if result.text_metrics:
        parts += ["", "## Text metrics", ""]
        for k, v in result.text_metrics.items():
            parts.append(f"- {k}: {v}")
    parts += _llm_usage_parts(result, table=True)
    return "\n".join(parts) + "\n"


def kind_accuracy(judgements: Sequence[Judgement]) -> dict[str, dict[str, Any]] | None:
    """Accuracy per question kind (look-ups, lists, counts, ...: ``QARecord.question_kind``) with a
    Wilson interval, over the judged questions to answer; None when every question is a look-up
    (the evaluation of a look-up dataset keeps its keys). Records to refuse are scored apart."""
    from ragdx.evaluate.stats import wilson

    counts: dict[str, list[int]] = {}
    for j in judgements:
        if j.error or j.refusal_kind:
            continue
        n_right = counts.setdefault(j.question_kind or "lookup", [0, 0])
        n_right[0] += 1
        n_right[1] += bool(j.correct)
    if set(counts) <= {"lookup"}:
        return None
    return {kind: {"n": n, "correct": right, "accuracy": right / n, "interval": list(wilson(right, n))}
            for kind, (n, right) in sorted(counts.items())}


def kind_markdown(kinds: Mapping[str, Mapping[str, Any]]) -> str:
    lines = ["| kind | questions | correct | accuracy (95 % Wilson) |", "|---|---:|---:|---|"]
    for kind, k in kinds.items():
        lo, hi = k["interval"]
        lines.append(f"| {kind} | {k['n']} | {k['correct']} | {k['accuracy']:.3f} [{lo:.3f}, {hi:.3f}] |")
    return "\n".join(lines)


def _open_domain_parts(od: Mapping[str, Any] | None) -> list[str]:
    """The summary's open-domain section (GRAMMAR §5.2), when a closed-book run tagged groups."""
    if not od:
        return []

    def _v(x: Any) -> str:
        return "–" if x is None else f"{x:.3f}"

    parts = ["", "## Open-domain queries (GRAMMAR §5.2, Table 4)", "",
             "A closed-book run (the model without retrieval) answered "
             f"{len(od['open_domain'])} of {od['groups']} "
             "semantic groups: those are answerable from parametric knowledge"
             + (" and are excluded from every metric above." if od.get("excluded") else "."), "",
             "| | all groups | closed-domain groups only |", "|---|---:|---:|",
             f"| Acc_retrieval_db (answer-based) | {_v(od['acc_retrieval_db_all'])} | "
             f"{_v(od['acc_retrieval_db_closed_domain'])} |",
             f"| gap groups | {od['gap_groups_all']} | {od['gap_groups_closed_domain']} |"]
    if od.get("untagged"):
        parts.append(f"\n{od['untagged']} groups had no closed-book judgement and are not tagged either way.")
    return parts


def _geval_parts(g: Mapping[str, Any] | None) -> list[str]:
    """The summary's G-Eval section, when the LLM criteria were scored."""
    if not g:
        return []
    parts = ["", f"## LLM criteria (G-Eval, 1-5; acceptable = score ≥ {g['threshold']})", "",
             "| criterion | mean | scored | failed | TP | FN | FP | TN |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for c, v in g["criteria"].items():
        m = g["confusion"][c]
        mean = "–" if math.isnan(v["mean"]) else f"{v['mean']:.2f}"
        parts.append(f"| {c} | {mean} | {v['scored']} | {v['failed']} | {m['TP']} | {m['FN']} | {m['FP']} | "
                     f"{m['TN']} |")
    m = g["confusion"]["ground truth"]
    parts.append(f"| ground truth (judge) | | | | {m['TP']} | {m['FN']} | {m['FP']} | {m['TN']} |")
    return parts


def _llm_usage_parts(result: EvaluationResult, *, table: bool) -> list[str]:
    """What the evaluation asked of the LLM: a line under the source (``table=False``) or a section."""
    usage = result.extra.get("llm_usage")
    if usage is None:
        return []
    from ragdx.llm import usage_line, usage_markdown

    if table:
        return ["", "## LLM usage", "", usage_markdown(usage)]
    return [f"\n{usage_line(usage)} (calls are HTTP requests, retries included)."]


def _content_hash(path: Path) -> str | None:
    """What the evaluation was made from: the run's results file (or the source file), and the
    run's probes when it has them (they settle verdicts: an evaluation made before them is not
    current; a run without probes hashes as it always did)."""
    import hashlib

    from ragdx.rag.rundir import RunPaths
    from ragdx.store import sha256_file

    target = RunPaths(path).results if path.is_dir() else path
    if not target.is_file():
        return None
    digest = sha256_file(target)
    probes = RunPaths(path).probes if path.is_dir() else None
    if probes is not None and probes.is_file():
        digest = hashlib.sha256(f"{digest}+{sha256_file(probes)}".encode()).hexdigest()
    return digest


def evaluation_is_current(directory: Path, source: Path) -> bool:
    """Whether ``directory`` holds a whole evaluation (as :func:`write_report` writes it) made
    from ``source`` as it is now: its manifest names their content hash (never judged by file
    times, which a copy or a crash can leave misleading)."""
    import json

    needed = [directory / name for name in ("metrics.json", "judgements.jsonl", "blame.jsonl", "manifest.json")]
    if not all(p.exists() for p in needed):
        return False
    try:
        manifest = json.loads((directory / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    digest = _content_hash(source)
    return digest is not None and isinstance(manifest, dict) and manifest.get("source_sha256") == digest


def write_report(result: EvaluationResult, out: str | Path, title: str, *, source: Path | None = None,
                 config: EvaluationConfig | None = None) -> Path:
    """One staged directory, swapped in whole: a crash never leaves a mix of old and new files,
    and its manifest names the content hash of what was evaluated (``report`` checks it) and the
    configuration it was evaluated with."""
    from ragdx.store import staged_directory

    out = Path(out)
    with staged_directory(out, overwrite=True, kind="evaluation") as stage:
        _fill_stage(stage, result, out, title, source=source, config=config)
    return out


def _fill_stage(stage: Path, result: EvaluationResult, out: Path, title: str, *, source: Path | None,
                config: EvaluationConfig | None, streamed: bool = False) -> None:
    """The evaluation's files in ``stage`` (``streamed``: judgements.jsonl and blame.jsonl are
    there already, written as they were made)."""
    from ragdx.store import atomic_write_text, write_json, write_jsonl

    write_json(stage / "metrics.json", result.to_dict())
    atomic_write_text(stage / "summary.md", summary_markdown(result, title))
    judged = [] if streamed else list(result.judgements) + list(result.extra_judgements)
    if judged:
        write_judgements(stage / "judgements.jsonl", judged)
    if not streamed:
        write_jsonl(stage / "blame.jsonl", result.verdicts)
    if result.geval_scores:
        write_jsonl(stage / "geval.jsonl", ({"id": i, **v} for i, v in result.geval_scores.items()))
    from ragdx.rag.run_dataset import relative_to

    # the source as given, and from the evaluation's directory (still true when both move together)
    write_json(stage / "manifest.json", {"kind": "evaluation", "source": str(source) if source else None,
                                         "source_relative": relative_to(source, out) if source else None,
                                         "source_sha256": _content_hash(source) if source else None,
                                         "queries": result.queries, "inputs": result.inputs,
                                         "config": config.to_dict() if config is not None else None,
                                         "llm_usage": result.extra.get("llm_usage")})


@gc_paused()  # bulk work on small objects in no cycle: see ragdx.store.gc_paused
def evaluate(path: str | Path, config: EvaluationConfig | None = None, *, out: str | Path | None = None,
             dataset: Any = None, **options: Any) -> EvaluationResult:
    """``ragdx evaluate PATH``: judge (run directory / JSONL) or read (GRAMMAR reference), compute
    the protocol's metrics, blame and the style test, and write ``metrics.json``, ``summary.md``,
    ``judgements.jsonl``, ``blame.jsonl`` and a manifest to ``out`` (default ``PATH/evaluation``
    for a run directory; required for anything else), as one staged directory.

    How is ``config`` (or ``options``, its keywords: :meth:`EvaluationConfig.build`), validated
    before anything is read. Its ``lab`` adds hit rate@k, MRR, ROUGE-L and the RAG confusion
    matrix, all by the same retrieval rule (ROUGE-L costs about 1 s per 100k queries;
    ``rouge=False`` skips it and NLTK's import, and ``rouge_l`` reads "not computed
    (--no-rouge)"); ``bertscore`` adds BERTScore on the packaged MiniLM. ``require_complete``
    refuses a run that did not answer every query (a killed or ``--limit`` run); otherwise such a
    run is evaluated and marked "n of N" everywhere. With an LLM, the lab's four G-Eval criteria
    (1-5) and their per-criterion RAG confusion matrices are added (``geval=False`` leaves them
    out). ``dataset``: where the run's dataset is now, if it moved."""
    config = EvaluationConfig.build(config, **options)
    if config.judge.llm is None:
        return _evaluate(Path(path), config, out, dataset)
    from ragdx.llm import counting

    # a counting scope of its own, so that the llm_usage it records is exactly this evaluation's
    # requests (several evaluations may share one client)
    with counting():
        return _evaluate(Path(path), config, out, dataset)


def _streams(kind: str, config: EvaluationConfig) -> bool:
    """Whether an evaluation reads its run in blocks and writes judgements and verdicts as they are
    made (memory by block, not by run): a run directory judged offline. An LLM's judging, G-Eval
    and the closed-book run read whole judgements (the query) after judging."""
    return kind == "run" and config.judge.llm is None and config.closed_book is None and not config.geval


def _evaluate(path: Path, config: EvaluationConfig, out: str | Path | None, dataset: Any) -> EvaluationResult:
    kind = _kind(path)
    if out is None and kind != "run":
        raise RagdxError("give an output directory (--out) for anything but a run directory", source=str(path))
    if _streams(kind, config) and (dataset is None or isinstance(dataset, str | Path)):  # records in memory: whole
        return _evaluate_streaming(path, config, Path(out) if out is not None else path / "evaluation", dataset)
    result = (evaluate_reference(path, config) if kind == "reference"
              else _evaluate_answers(path, kind, config, dataset))
    if out is None:
        out = path / "evaluation"
    if isinstance(result.source, dict):
        from ragdx.rag.run_dataset import relative_to

        result.source["relative_path"] = relative_to(path, out)  # from the output directory
    if config.judge.llm is not None:  # what this evaluation asked of the LLM (judge, closed book, G-Eval)
        from ragdx.llm import usage_record
        from ragdx.llm.usage import current_usage

        result.extra["llm_usage"] = usage_record(current_usage())
    result.output = str(write_report(result, out, path.name, source=path, config=config))
    return result


def _evaluate_streaming(path: Path, config: EvaluationConfig, out: Path, dataset: Any) -> EvaluationResult:
    """:func:`_evaluate` for a run judged offline, in blocks: judgements.jsonl is written block by
    block as judging goes, blame.jsonl as soon as the verdicts are known, both straight into the
    staged directory; what stays in memory is a slim judgement per query (``runs.slim_judgement``)
    and the statistics. The files are byte for byte those of the whole-run path."""
    from ragdx.evaluate.records import JsonlView, judgement_lines, read_judgements
    from ragdx.rag.run_dataset import relative_to
    from ragdx.store import default_mode, iter_jsonl, staged_directory

    with staged_directory(out, overwrite=True, kind="evaluation") as stage:
        target = stage / "judgements.jsonl"
        mode = default_mode(target)  # before opening: the file open creates has the umask's mode
        with target.open("wb") as fh:
            os.fchmod(fh.fileno(), mode)
            result = _evaluate_answers(path, "run", config, dataset, sink=lambda js: fh.write(judgement_lines(js)),
                                       blame_out=stage / "blame.jsonl")
            fh.flush()
            os.fsync(fh.fileno())
        result.source["relative_path"] = relative_to(path, out)  # from the output directory
        _fill_stage(stage, result, out, path.name, source=path, config=config, streamed=True)
    result.output = str(out)
    # what the whole-run path keeps in memory, read back from the files when first looked at
    result.judgements = JsonlView(out / "judgements.jsonl", read_judgements)  # type: ignore[assignment]
    result.verdicts = JsonlView(out / "blame.jsonl", lambda p: [obj for _, obj in iter_jsonl(p)])  # type: ignore[assignment]
    return result


def _evaluate_answers(path: Path, kind: str, config: EvaluationConfig, dataset: Any, *, sink: Any = None,
                      blame_out: Path | None = None) -> EvaluationResult:
    """A run directory's or a results JSONL's answers judged and measured (see :func:`evaluate`);
    ``sink`` and ``blame_out`` as :func:`load_judgements` and :func:`evaluate_judgements` take them."""
    judged = load_judgements(path, config, dataset=dataset, sink=sink)
    check = getattr(judged, "check", None)
    if config.require_complete and check is not None and check.answered < check.total:
        raise RagdxError(f"incomplete run: {check.answered} of {check.total} queries answered "
                         f"(status {check.status or 'unknown'}); finish it with `ragdx run` or drop "
                         "--require-complete", source=str(path))
    open_domain = None
    if config.closed_book is not None:  # GRAMMAR §5.2: groups the model answers without retrieval
        from ragdx.evaluate.open_domain import tag_open_domain

        # the closed-book run is judged by the same judge; its retrieval is not looked at
        closed = load_judgements(config.closed_book, EvaluationConfig(judge=config.judge, cache=config.cache),
                                 dataset=dataset)
        judged, open_domain = tag_open_domain(judged, closed, exclude=config.exclude_open_domain)
    lab = None
    if config.lab:
        from ragdx.evaluate.text_metrics import lab_metrics

        # ROUGE-L on another core while the statistics run here (BERTScore's model is not forked)
        lab = (forked_if_small(len(judged)) if not config.bertscore else Inline)(
            lab_metrics, [j for j in judged if not j.error], k=config.k or 5, bertscore=config.bertscore,
            rule=config.retrieval.value, rouge=config.rouge)
    result = evaluate_judgements(judged, config, blame_out=blame_out)
    if kind == "run" and "abstention" in result.extra:
        result.extra["abstention"].update(boundary_for_run(judged, path, dataset))
    if open_domain is not None:
        result.extra["open_domain"] = open_domain.to_dict()
    retrieval = config.retrieval.value
    result.source = {"kind": kind, "path": str(path), "k": config.k, "retrieval_rule": retrieval}
    if lab is not None:
        result.text_metrics = lab.result()
    llm = config.judge.llm
    if kind == "run" and llm is not None and (config.geval is None or config.geval):
        result.extra["geval"] = _geval(llm, path, [j for j in judged if not j.error])
        result.geval_scores = result.extra["geval"].pop("scores")
    elif config.geval:
        raise RagdxError("G-Eval needs an LLM (an llm: section in ragdx.yaml) and a run directory "
                         "(its retrieved contexts)", source=str(path))
    return result


#: in-knowledge questions the knowledge-boundary tester is calibrated on, at most (a seeded sample)
BOUNDARY_CALIBRATION = 2000


def boundary_for_run(judged: Sequence[Judgement], run_dir: Path, dataset: Any = None,
                     alpha: float = 0.05) -> dict[str, Any]:
    """The knowledge-boundary figure of a run with records to refuse: the relevance tester
    (``ragdx.relevance``, BM25 retriever and the corpus's names: no model to load) fitted on the
    dataset's knowledge base and calibrated on its in-knowledge questions, a p-value per record
    to refuse, and how often the system's refusals agree with its decision
    (``abstention.boundary_agreement``). ``{"boundary": ...}``, or ``{"boundary_note": why}`` where
    the tester cannot run (no knowledge base found, too few questions, a corpus smaller than k):
    the figure is optional, the evaluation never fails for it."""
    import random

    from ragdx.evaluate.abstention import boundary_agreement
    from ragdx.evaluate.runs import dataset_knowledge_base
    from ragdx.rag.run_dataset import resolve_dataset

    try:
        where = resolve_dataset(run_dir, dataset if isinstance(dataset, str | Path) else None)
        if where is None:
            return {"boundary_note": "the tester was not run (the run names no dataset file)"}
        directory = Path(where) if Path(where).is_dir() else Path(where).parent
        corpus = dataset_knowledge_base(directory, run_dir)
        if corpus is None:
            return {"boundary_note": "the tester was not run (the dataset names no knowledge base)"}
        from ragdx.relevance.calibration import dataset_queries
        from ragdx.relevance.tester import RelevanceTester

        calibration = dataset_queries(directory)
        if len(calibration) > BOUNDARY_CALIBRATION:
            calibration = random.Random(0).sample(calibration, BOUNDARY_CALIBRATION)
        asked = {j.id: j.query for j in judged if getattr(j, "refusal_kind", "") and j.query and not j.error}
        tester = RelevanceTester(retriever="bm25", temperature=1.0, alpha=alpha)
        tester.fit([d.text for d in corpus.documents], calibration)
        p = tester.p_values(list(asked.values()))
    except RagdxError as exc:
        return {"boundary_note": f"the tester could not run ({exc})"}
    found = boundary_agreement(judged, dict(zip(asked, (float(x) for x in p), strict=True)), alpha=alpha)
    return {"boundary": found} if found else {"boundary_note": "no record to refuse was tested"}


def _geval(llm: Any, run_dir: Path, judged: Sequence[Judgement]) -> dict[str, Any]:
    from ragdx.evaluate.text_metrics import geval_metrics
    from ragdx.rag.rundir import read_run

    contexts = {o.id: "\n\n".join(c.text for c in o.contexts if c.text) for o in read_run(run_dir)}
    return geval_metrics(llm, judged, contexts)


def evaluate_many(paths: Sequence[str | Path], config: EvaluationConfig | None = None, *,
                  out: str | Path | None = None, dataset: Any = None, **options: Any) -> list[EvaluationResult]:
    """``ragdx evaluate RUN_DIR...``: each path on its own (into ``out/<name>`` when ``out`` is given)."""
    config = EvaluationConfig.build(config, **options)
    results = []
    for p in paths:
        target = None if out is None else (Path(out) if len(paths) == 1 else Path(out) / Path(p).name)
        results.append(evaluate(p, config, out=target, dataset=dataset))
    return results


def compare_paths(a: str | Path, b: str | Path, config: EvaluationConfig | None = None, *,
                  out: str | Path | None = None, dataset: Any = None, **options: Any) -> Comparison:
    """``ragdx compare A B``: two runs (or results) on one dataset, judged and compared as ``config``
    (or ``options``) says; its ``style`` restricts both to one style. Different query sets are
    compared on their intersection and marked; ``strict`` refuses them instead. Writes
    ``comparison.json`` and ``comparison.md`` to ``out`` when given."""
    from ragdx.evaluate.runs import Judged

    config = EvaluationConfig.build(config, **options)
    ja = load_judgements(a, config, dataset=dataset)
    jb = load_judgements(b, config, dataset=dataset)
    if config.style is not None:
        style = config.style
        styles = sorted({str(j.style) for j in (*ja, *jb) if j.style is not None})
        if style not in styles:
            raise RagdxError(f"no queries in style {style!r} (styles: {', '.join(styles) or 'none'})", field="--style")
        ja = Judged([j for j in ja if j.style == style], getattr(ja, "check", None))
        jb = Judged([j for j in jb if j.style == style], getattr(jb, "check", None))
    if config.strict:
        ids_a, ids_b = {j.id for j in ja if not j.error}, {j.id for j in jb if not j.error}
        if ids_a != ids_b:
            raise RagdxError(f"the runs answered different queries ({len(ids_a)} and {len(ids_b)}, "
                             f"{len(ids_a & ids_b)} "
                             "in common); finish both runs or compare without --strict (on the intersection)",
                             source=f"{a} {b}")
    result = compare(ja, jb, names=(Path(a).name, Path(b).name), gap=config.gap.value, n_boot=config.n_boot,
                     seed=config.seed)
    # what each side's evaluation warned about the corpus and the captured contexts (compare itself
    # names incomplete runs and unmatched ids)
    for name, js in ((Path(a).name, ja), (Path(b).name, jb)):
        check = getattr(js, "check", None)
        for w in (check.warnings if check is not None else []):
            if w.startswith(("the system searched a different corpus", "no retrieved")) or "match no document" in w:
                result.warnings.append(f"{name}: {w}")
    if out is not None:
        from ragdx.store import atomic_write_text, claim_directory, write_json

        # comparison.json/.md are rewritten in place: only in a directory ragdx made (or an empty one)
        claim_directory(out, kind="comparison")
        write_json(Path(out) / "comparison.json", result.to_dict())
        atomic_write_text(Path(out) / "comparison.md", compare_markdown(result) + "\n")
    return result


def judge_agreement(path: str | Path, judge_a: str | Judge = "stored", judge_b: str | Judge = "cascade",
                    config: EvaluationConfig | None = None, *, dataset: Any = None,
                    **options: Any) -> JudgeAgreement:
    """``ragdx judge-agreement PATH --a JUDGE --b JUDGE``: how often two judges agree on the same
    responses (each with ``config``'s answer sets, LLM and cache). ``stored`` is the verdict
    already there (the reference's judgements, a JSONL's ``correct``); for a run directory the
    first judge judges and the second re-judges."""
    config = EvaluationConfig.build(config, **options)
    # both judges named before anything is judged: a typo in the second costs no judging by the first
    spec_a = None if judge_a == "stored" else config.judge.named(judge_a, "judge_a")
    spec_b = None if judge_b == "stored" else config.judge.named(judge_b, "judge_b")
    base_config = EvaluationConfig.build(config, judge=spec_a or config.judge.named("cascade"))
    left = load_judgements(path, base_config, dataset=dataset)  # judge A's verdicts, or the stored ones
    right = left if spec_b is None else rejudge(left, EvaluationConfig.build(config, judge=spec_b))
    names = (str(getattr(judge_a, "name", judge_a)), str(getattr(judge_b, "name", judge_b)))
    return agreement(left, right, names=names)
