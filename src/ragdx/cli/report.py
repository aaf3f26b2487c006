"""``ragdx report`` (HTML or Markdown) and ``ragdx export`` (files other tools read)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from ragdx.cli.options import BootOpt, DatasetOpt, JudgeOpt, choice
from ragdx.cli.output import console


def report(
    run_dirs: Annotated[list[Path], typer.Argument(help="Run directories (from `ragdx run` or `ragdx demo`), on one dataset.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Output file.")] = Path("report.html"),
    fmt: Annotated[str, typer.Option("--format", "-f", help="html (one self-contained file) or md (a summary for a pull request).")] = "html",
    relevance: Annotated[Path | None, typer.Option("--relevance", help="Knowledge-boundary results (relevance.json; default: relevance/relevance.json next to the dataset, if there).")] = None,
    judge: JudgeOpt = "cascade",
    boot: BootOpt = 1000,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    title: Annotated[str | None, typer.Option("--title", help="Report title.")] = None,
    dataset: DatasetOpt = None,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace an existing --out file.")] = False,
):
    """A report people would rather look at than read: metrics with intervals, charts, hypothesis
    tests, the knowledge boundary and a searchable table of every failure. Runs without an
    up-to-date evaluation are evaluated first (into RUN_DIR/evaluation)."""
    choice(fmt, ("html", "md"), "--format")  # before the report's modules (numpy, scipy) are imported
    from ragdx.evaluate.config import judge_name

    judge = judge_name(judge, "--judge")
    from ragdx.store import check_output_file

    check_output_file(out, overwrite)
    if fmt == "html":  # the paged failure list goes beside the report, under a name derived from it
        from ragdx.report.html import failures_file

        check_output_file(failures_file(out), overwrite)
    from ragdx.report import write_report

    path = write_report(run_dirs, out, fmt=fmt, relevance=relevance, judge=judge, n_boot=boot, seed=seed,
                        title=title, dataset=dataset)
    console.print(f"report → {escape(str(path))}")


def export_cmd(
    dataset: Annotated[Path, typer.Argument(help="Dataset directory from `ragdx gen`.")],
    run_dir: Annotated[Path | None, typer.Argument(help="A run over it: adds responses and retrieved contexts.")] = None,
    to: Annotated[str, typer.Option("--to", help="ragas (SingleTurnSample JSONL), deepeval (test cases JSON), hf (Parquet for `datasets`), jsonl (the plain QA format `evaluate` reads), or for conversations ragas-multiturn (MultiTurnSample JSONL) or deepeval-conversational (ConversationalTestCase JSON).")] = "jsonl",
    out: Annotated[Path, typer.Option("--out", "-o", help="File to write.")] = Path("export.jsonl"),
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace an existing --out file.")] = False,
):
    """The dataset (and a run's answers) as files ragas, DeepEval, Hugging Face `datasets` or any tool reads."""
    from ragdx.export import FORMATS, export
    from ragdx.store import check_output_file

    choice(to, FORMATS, "--to")
    check_output_file(out, overwrite)
    path, n = export(dataset, out, to=to, run=run_dir)
    unit = "conversations" if to in ("ragas-multiturn", "deepeval-conversational") else "records"
    console.print(escape(f"{n} {unit} → {path} ({to})"))
