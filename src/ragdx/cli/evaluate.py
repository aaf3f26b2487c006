"""``ragdx evaluate``, ``compare``, ``judge-agreement`` and ``annotate``: judging runs, comparing two,
and checking the judges (against each other or against people)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from ragdx.cli.options import (
    BootOpt,
    ConfigOpt,
    DatasetOpt,
    JudgeOpt,
    KOpt,
    RetrievalOpt,
    SetsOpt,
    check_out,
    llm_client,
    project_config,
)
from ragdx.cli.output import console
from ragdx.errors import RagdxError

#: the options of the evaluation's configuration (``EvaluationConfig``'s fields) by their flags
_EVALUATION_FLAGS = {"judge": "--judge", "sets": "--sets", "retrieval": "--retrieval", "k": "--k", "n_boot": "--boot",
                     "seed": "--seed", "gap": "--gap", "benchmark": "--benchmark", "style": "--style",
                     "closed_book": "--closed-book", "exclude_open_domain": "--exclude-open-domain",
                     "workers": "--workers"}


def _evaluation_config(cfg, judge: str = "cascade", *, llm_for: tuple[str, ...] | None = None, **options):
    """The evaluation's configuration from the flags, validated before any run is read or judged;
    a bad value is named by its flag. The judge's name is checked before the LLM is looked for
    (``llm_for``: the judges' names when the LLM is for others than ``judge``)."""
    from ragdx.evaluate.config import EvaluationConfig, judge_name

    judge = judge_name(judge, "--judge")
    llm = _judge_llm(cfg, judge) if llm_for is None else llm_client(cfg, False, "llm" in llm_for)
    try:
        return EvaluationConfig.build(judge=judge, llm=llm, **options)
    except RagdxError as exc:
        raise RagdxError(exc.message, source=exc.source, field=_EVALUATION_FLAGS.get(exc.field or "", exc.field)
                         ) from None


def _judge_llm(cfg, judge: str):
    # the cascade asks an LLM only where the cheap judges cannot decide, and only if one is configured
    if judge == "llm" or (judge == "cascade" and cfg.llm is not None):
        return llm_client(cfg, False, True)
    return None


def _check_evaluation_out(out: Path, paths: list[Path]) -> None:
    # one path: --out is the evaluation; several: --out/<name> each, and nothing else of a
    # person's in --out (a name there that is not an evaluation ragdx wrote is refused)
    from ragdx.store import check_writable_directory

    if len(paths) == 1:
        check_out(out, True)
        return
    names = {Path(p).name for p in paths}
    check_writable_directory(out, ignore=names)
    for name in sorted(names):
        check_out(out / name, True)


def evaluate(
    paths: Annotated[list[Path], typer.Argument(help="Run directories, a GRAMMAR eval_results directory, or a JSONL of results.")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Output directory (default: RUN_DIR/evaluation).")] = None,
    judge: JudgeOpt = "cascade",
    sets: SetsOpt = "all",
    k: KOpt = None,
    retrieval: RetrievalOpt = "evidence",
    boot: BootOpt = 1000,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    bertscore: Annotated[bool, typer.Option("--bertscore", help="Add BERTScore (on the packaged MiniLM, not the paper's backbone).")] = False,
    rouge: Annotated[bool, typer.Option("--rouge/--no-rouge", help="ROUGE-L (rouge-score's, with Porter stemming); --no-rouge skips it and NLTK's import, and metrics.json says it was not computed.")] = True,
    benchmark: Annotated[str | None, typer.Option("--benchmark", help="For a GRAMMAR reference directory: which paper benchmark it is (aurp, spider-open, spider-closed, none) for the paper's Table 3 column; default: aurp only when aurp_tables.json is there.")] = None,
    require_complete: Annotated[bool, typer.Option("--require-complete", help="Refuse (exit 2) a run that did not answer every query.")] = False,
    geval: Annotated[bool | None, typer.Option("--geval/--no-geval", help="The lab's four G-Eval criteria by the LLM of ragdx.yaml (default: on when an llm: section exists; 4 calls per query).")] = None,
    fail_under: Annotated[list[str] | None, typer.Option("--fail-under", help="CI gate [STYLE:]METRIC=VALUE (repeatable): exit 1 when the 95 % interval's lower bound is below VALUE; without STYLE, all styles.")] = None,
    junit: Annotated[Path | None, typer.Option("--junit", help="Write the gate's checks as JUnit XML here.")] = None,
    step_summary: Annotated[Path | None, typer.Option("--step-summary", help="Append the gate's Markdown table here (default: $GITHUB_STEP_SUMMARY when set).")] = None,
    closed_book: Annotated[Path | None, typer.Option("--closed-book", help="A closed-book run (`ragdx run --closed-book`) on the same dataset: tags open-domain groups, reports Acc_retrieval_db with and without them (GRAMMAR Table 4).")] = None,
    exclude_open_domain: Annotated[bool, typer.Option("--exclude-open-domain", help="With --closed-book: leave the open-domain groups out of every metric.")] = False,
    workers: Annotated[int | None, typer.Option("--workers", help="Processes judging beside the main one with an offline judge (default: one per spare core, at most 4, for runs of 20,000 answers or more; 0: none). The files are the same for any number.")] = None,
    dataset: DatasetOpt = None,
    config: ConfigOpt = None,
):
    """Judge answers, tag semantic groups (gap / robust / non-robust), blame modules, test styles."""
    from ragdx.evaluate import evaluate_many

    cfg = project_config(config)
    if exclude_open_domain and closed_book is None:
        raise RagdxError("--exclude-open-domain needs --closed-book RUN", field="--exclude-open-domain")
    job = _evaluation_config(cfg, judge, sets=sets, k=k, retrieval=retrieval, n_boot=boot, seed=seed,
                             bertscore=bertscore, rouge=rouge, benchmark=benchmark,
                             require_complete=require_complete, geval=geval, closed_book=closed_book,
                             exclude_open_domain=exclude_open_domain, workers=workers)
    if fail_under:  # bad thresholds fail before any judging
        from ragdx.evaluate.gate import parse_threshold

        thresholds = [parse_threshold(t) for t in fail_under]
    if out is not None:  # an evaluation replaces its --out whole: only one ragdx wrote, checked before judging
        _check_evaluation_out(out, paths)
    results = evaluate_many(paths, job, out=out, dataset=dataset)
    for result in results:
        if result.extra.get("open_domain"):
            from ragdx.evaluate.open_domain import open_domain_markdown

            console.print(open_domain_markdown(result.extra["open_domain"]), markup=False, highlight=False)
        inputs = result.inputs
        n_of = (f"{inputs.get('judged')} of {inputs.get('total')} queries judged" if inputs.get("total")
                else f"{result.queries} queries")
        if result.extra.get("llm_usage") is not None:
            from ragdx.llm import usage_line

            n_of += f"; {usage_line(result.extra['llm_usage'])}"
        console.print(f"[bold]{escape(str(result.output))}[/]: {escape(n_of)}", highlight=False)
        for warning in result.warnings:
            console.print(f"[yellow]warning:[/] {escape(warning)}", highlight=False)
        if result.extra.get("abstention"):  # records to refuse (issue 26)
            from ragdx.evaluate.abstention import abstention_line

            console.print(abstention_line(result.extra["abstention"]), markup=False, highlight=False)
        if result.comparison:
            from ragdx.evaluate.compare import sentence_lines

            console.print("\n".join(sentence_lines(result.comparison)), markup=False, highlight=False)
    if fail_under:
        from ragdx.evaluate.gate import check_thresholds, finish

        gates = [check_thresholds(r, thresholds, name=Path(str(p)).name) for r, p in zip(results, paths, strict=True)]
        if not finish(gates, junit=junit, step_summary=step_summary,
                      echo=lambda line: console.print(line, markup=False, highlight=False, soft_wrap=True)):
            sys.exit(1)


def compare(
    a: Annotated[Path, typer.Argument(help="First run (or results).")],
    b: Annotated[Path, typer.Argument(help="Second run on the same dataset.")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write comparison.json and comparison.md here.")] = None,
    judge: JudgeOpt = "cascade",
    sets: SetsOpt = "all",
    k: KOpt = None,
    retrieval: RetrievalOpt = "evidence",
    boot: BootOpt = 1000,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    strict: Annotated[bool, typer.Option("--strict", help="Refuse (exit 2) runs over different query sets instead of comparing their intersection.")] = False,
    fail_on_regression: Annotated[bool, typer.Option("--fail-on-regression", help="CI gate: exit 1 when a metric is significantly worse in B (its whole 95 % interval of B − A below zero).")] = False,
    regression_metric: Annotated[list[str] | None, typer.Option("--metric", help="With --fail-on-regression: only these metrics (repeatable; default: every metric compared).")] = None,
    junit: Annotated[Path | None, typer.Option("--junit", help="Write the gate's checks as JUnit XML here.")] = None,
    step_summary: Annotated[Path | None, typer.Option("--step-summary", help="Append the gate's Markdown table here (default: $GITHUB_STEP_SUMMARY when set).")] = None,
    gap: Annotated[str, typer.Option("--gap", help="Gap groups removed jointly (neither answered) or each side's own.")] = "joint",
    style: Annotated[str | None, typer.Option("--style", help="Compare only queries of this style.")] = None,
    dataset: DatasetOpt = None,
    config: ConfigOpt = None,
):
    """Two runs on one dataset: which module differs (retrieval paired on the same queries, the language
    model on a common footing), with bootstrap intervals and paired tests; "n of N" for each run."""
    from ragdx.evaluate import compare_paths

    if out is not None:  # before judging: comparison.json/.md go only where no file can be a person's
        from ragdx.store import check_writable_directory

        check_writable_directory(out)
    cfg = project_config(config)
    job = _evaluation_config(cfg, judge, sets=sets, k=k, retrieval=retrieval, n_boot=boot, seed=seed, gap=gap,
                             style=style, strict=strict)
    for metric in regression_metric or []:
        from ragdx.evaluate.gate import gate_metrics

        if metric not in gate_metrics():
            raise RagdxError(f"no metric {metric!r} (metrics: {', '.join(gate_metrics())})", field="--metric")
    result = compare_paths(a, b, job, out=out, dataset=dataset)
    for side, path in (("a", a), ("b", b)):
        inputs = (result.inputs or {}).get(side) or {}
        if inputs.get("total"):
            console.print(f"{escape(str(path))}: {inputs['judged']} of {inputs['total']} queries judged", highlight=False)
    console.print("\n".join(result.lines()), markup=False, highlight=False)
    if fail_on_regression:
        from ragdx.evaluate.gate import check_regression, finish

        gate = check_regression(result, regression_metric)
        if not finish([gate], junit=junit, step_summary=step_summary,
                      echo=lambda line: console.print(line, markup=False, highlight=False, soft_wrap=True)):
            sys.exit(1)


def judge_agreement_cmd(
    path: Annotated[Path, typer.Argument(help="A run directory, a GRAMMAR eval_results directory or a results JSONL.")],
    judge_a: Annotated[str, typer.Option("--a", help="First judge (stored = the verdicts already there).")] = "stored",
    judge_b: Annotated[str, typer.Option("--b", help="Second judge.")] = "cascade",
    sets: SetsOpt = "all",
    human: Annotated[Path | None, typer.Option("--human", help="A rating sheet filled by people (from `ragdx annotate`): each judge of the evaluated run against them.")] = None,
    config: ConfigOpt = None,
):
    """How often two judges agree, with a confusion table; or, with --human, each judge against people."""
    if human is not None:
        from ragdx.evaluate.annotate import human_agreement, human_agreement_markdown

        console.print(human_agreement_markdown(human_agreement(path, human)), markup=False, highlight=False)
        return
    from ragdx.evaluate import judge_agreement
    from ragdx.evaluate.config import judge_name

    cfg = project_config(config)
    judge_a, judge_b = (name if name == "stored" else judge_name(name, flag)
                        for name, flag in ((judge_a, "--a"), (judge_b, "--b")))
    # the LLM only for a judge named llm: here the cascade stays offline, whatever ragdx.yaml says
    job = _evaluation_config(cfg, llm_for=(judge_a, judge_b), sets=sets)
    result = judge_agreement(path, judge_a, judge_b, job)
    console.print(result.markdown(), markup=False, highlight=False)


def annotate(
    run_dir: Annotated[Path, typer.Argument(help="An evaluated run directory.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for ratings.csv and ratings.html (must not exist, or be one ragdx wrote).")],
    n: Annotated[int, typer.Option("-n", min=1, help="Queries to sample.")] = 50,
    seed: Annotated[int, typer.Option("--seed")] = 0,
):
    """A blind rating sheet (CSV and an offline HTML page) for people to mark correctness and the four criteria."""
    from ragdx.evaluate.annotate import write_sheet

    result = write_sheet(run_dir, out, n=n, seed=seed)
    console.print(f"{result['rows']} queries to rate: {escape(result['csv'])} (or open {escape(result['html'])}); "
                  "then `ragdx judge-agreement RUN --human ratings.csv`", highlight=False)
