"""Every public name of ``ragdx``, used as a user would use it, for ``mypy --strict`` to check
(tests/test_public_api_types.py): the API's functions and types are seen as documented (not as
modules, not as ``Any``). Never run: the functions below are only type-checked."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import assert_type

import ragdx
import ragdx.evaluate.judges  # the subpackage imported too: ragdx.evaluate stays the function
from ragdx import (
    EvaluationResult,
    Metric,
    RagdxError,
    RelevanceTester,
    RunOptions,
    RunSummary,
    __version__,
    arun,
    as_system,
    assert_metrics,
    assert_no_regression,
    compare,
    evaluate,
    export,
    generate_dataset,
    report,
    run,
)


def answer(query: str) -> str:
    return query.upper()


def quickstart(out: Path) -> float:
    """The README's quickstart, through the package's attributes."""
    dataset = ragdx.generate_dataset("sqlite:///shop.db", out / "dataset", kb=out / "kb")
    assert_type(dataset, Path)
    summary = ragdx.run(answer, dataset, out / "runs" / "mine", concurrency=2, progress=False)
    assert_type(summary, ragdx.RunSummary)
    result = ragdx.evaluate(out / "runs" / "mine", judge="exact", n_boot=200)
    assert_type(result, ragdx.EvaluationResult)
    overall = result.overall
    assert overall is not None  # a run with no judged query has no overall metrics
    accuracy = overall.accuracy
    assert_type(accuracy, ragdx.Metric)
    ragdx.compare(out / "runs" / "mine", out / "runs" / "other")
    assert_type(ragdx.report([out / "runs" / "mine"], out / "report.html"), Path)
    assert_type(ragdx.export(dataset, out / "ragas.jsonl", to="ragas"), Path)
    ragdx.as_system(answer, name="upper")
    ragdx.assert_metrics(out / "runs" / "mine", accuracy=0.5)
    ragdx.assert_no_regression(out / "runs" / "mine", out / "runs" / "other")
    return accuracy.ci_low + summary.ok


def imported_names(out: Path, runs: Sequence[str | Path]) -> str:
    """The same names, imported from the package."""
    dataset: Path = generate_dataset("sqlite:///shop.db", out / "dataset", styles=("short",), max_groups=0,
                                     null_answers="unanswerable", multi_answer="keep", method="set")
    summary: RunSummary = run(as_system(answer), dataset, out / "runs" / "mine", contexts="hash", limit=5)
    result: EvaluationResult = evaluate(summary.run_dir)
    metric: Metric | None = None if result.overall is None else result.overall.accuracy
    compare(runs[0], runs[1], n_boot=100)
    written: Path = report(runs, out / "report.md", fmt="md")
    exported: Path = export(dataset, out / "hf.parquet", to="hf", run=summary.run_dir)
    assert_metrics(summary.run_dir, style="short", accuracy=0.5)
    assert_no_regression(runs[0], runs[1], margin=0.01)
    tester = RelevanceTester(k=5)
    try:
        evaluate("missing")
    except RagdxError as exc:
        return f"{exc} {written} {exported} {metric} {tester} {__version__}"
    return ragdx.__version__


def with_options(dataset: Path, out: Path) -> str | None:
    """``ragdx run``'s options, typed: built once, checked once, taken by run and arun alike."""
    options = RunOptions(concurrency=8, limit=100, contexts="full", max_failed=0.05, probe=False)
    assert_type(options.max_failed, int | float | None)
    summary = run(answer, dataset, out, options, overwrite=True)
    on_ray = ragdx.RunOptions(executor="ray", workers=4, address="auto")
    ragdx.run("pipeline.yaml", dataset, out / "ray", on_ray, config="ragdx.yaml")
    return options.verdict(summary)


async def in_a_notebook(dataset: Path, out: Path) -> int:
    summary = await arun(answer, dataset, out, RunOptions(max_failed=0))
    assert_type(summary, RunSummary)
    again = await ragdx.arun(answer, dataset, out, name="again")
    return summary.ok + again.failed
