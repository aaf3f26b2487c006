"""``ragdx run``: a system (or a grid of systems) over a dataset, resumable, failures recorded."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from ragdx.cli.options import ConfigOpt, check_http_url, project_config
from ragdx.cli.output import console, err
from ragdx.errors import RagdxError

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence

    from ragdx.config import Config
    from ragdx.rag.options import RunOptions
    from ragdx.rag.resolve import SystemRequest
    from ragdx.rag.runner import RunSummary
    from ragdx.rag.types import System


def run_cmd(
    dataset: Annotated[Path, typer.Option("--dataset", "-d", help="Dataset directory from `ragdx gen`.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Run directory (with --grid: one subdirectory per system).")],
    system: Annotated[Path | None, typer.Option("--system", "-s", help="System spec YAML (kind: pipeline, callable, http, openai, results or traces), a pipeline YAML, a built-in pipeline by name (er, cpr, ...) or a results JSONL.")] = None,
    callable_: Annotated[str | None, typer.Option("--callable", help="module:obj answering a query: a function (sync or async), a LangChain runnable, a LlamaIndex query engine or a Haystack pipeline.")] = None,
    otel: Annotated[bool, typer.Option("--otel", help="With --callable: take retrieved documents from the app's OpenTelemetry/OpenInference retriever spans.")] = False,
    setup: Annotated[str | None, typer.Option("--setup", help="module:factory called once before the first query (build an index); alone, what it returns is the system.")] = None,
    name: Annotated[str | None, typer.Option("--name", help="Name of the system in the run (default: the function, host or file).")] = None,
    corpus: Annotated[Path | None, typer.Option("--corpus", help="Corpus of a --system pipeline that names none (default: the dataset's knowledge base).")] = None,
    http: Annotated[str | None, typer.Option("--http", help="An HTTP endpoint taking {\"query\": ...}.")] = None,
    answer_path: Annotated[str | None, typer.Option("--answer-path", help="With --http: dotted path of the answer in the response (default: answer).")] = None,
    contexts_path: Annotated[str | None, typer.Option("--contexts-path", help="With --http: dotted path of the retrieved contexts (default: contexts).")] = None,
    contexts: Annotated[str | None, typer.Option("--contexts", help="How retrieved texts are kept: once (each distinct text once, in contexts.jsonl; default), full (inline in every result line) or hash (ids and hashes only).")] = None,
    results: Annotated[Path | None, typer.Option("--results", help="A JSONL file of answers someone already produced.")] = None,
    openai: Annotated[str | None, typer.Option("--openai", help="A RAG server speaking the OpenAI chat API at this base URL (…/v1); needs --model.")] = None,
    model: Annotated[str | None, typer.Option("--model", help="With --openai: the model name sent.")] = None,
    traces: Annotated[Path | None, typer.Option("--traces", help="An exported trace file (OTLP/JSON or SDK span JSON): one trace per query, contexts from its retriever spans.")] = None,
    grid: Annotated[Path | None, typer.Option("--grid", help="A lab YAML of named systems: one run each.")] = None,
    only: Annotated[list[str] | None, typer.Option("--only", help="With --grid: only these systems (repeatable).")] = None,
    concurrency: Annotated[int | None, typer.Option("--concurrency", "-j", help="Queries in flight at once (default 4).")] = None,
    rerun_failed: Annotated[bool, typer.Option("--rerun-failed", help="Retry records that failed before.")] = False,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Start the run directory afresh.")] = False,
    limit: Annotated[int | None, typer.Option("--limit", help="Only the first N records.")] = None,
    no_progress: Annotated[bool, typer.Option("--no-progress", help="No progress bar.")] = False,
    closed_book: Annotated[bool, typer.Option("--closed-book", help="The model of the 'llm:' section without retrieval (GRAMMAR §5.2): tags open-domain queries for `evaluate --closed-book`.")] = False,
    executor: Annotated[str | None, typer.Option("--executor", help="local (this process; default) or ray (Ray actors that each build the system once; pip install 'ragdx[ray]').")] = None,
    address: Annotated[str | None, typer.Option("--address", help="With --executor ray: the cluster (ray://host:10001, host:6379 or auto; default: RAY_ADDRESS, else a local instance).")] = None,
    workers: Annotated[int | None, typer.Option("--workers", help="With --executor ray: actors, each with its own copy of the system (default 2).")] = None,
    max_failed: Annotated[str | None, typer.Option("--max-failed", help="Exit 1 (after writing the run) when more records failed than this: a count (0: none may) or a share (0.1 or 10%). A run whose every record failed exits 1 regardless.")] = None,
    no_probe: Annotated[bool, typer.Option("--no-probe", help="Do not ask the system, after the run, for the evidence documents no query retrieved (see `ragdx probe`).")] = False,
    config: ConfigOpt = None,
) -> None:
    """Run a system (or a grid of systems) over a dataset; resumable, failures recorded.

    The flags left out take ragdx.yaml's ``run:`` section (concurrency, contexts, max_failed, probe,
    executor, address, workers), then the defaults: the same ``RunOptions`` ``ragdx.run`` takes.
    Exit codes: 0 the run is written; 1 it is written but every record sent failed, or more than
    --max-failed did (the manifest's "exit" says which); 2 bad input, nothing run; 130 interrupted."""
    from ragdx.rag.runner import RunInterrupted

    cfg = project_config(config)
    options = _check_before_running(out, cfg, dict(
        concurrency=concurrency, rerun_failed=rerun_failed or None, overwrite=overwrite or None, limit=limit,
        progress=False if no_progress else None, contexts=contexts, probe=False if no_probe else None,
        max_failed=max_failed, executor=executor, address=address, workers=workers),
        http=http, openai=openai, grid=grid, closed_book=closed_book)
    try:
        if closed_book:
            summaries = _closed_book(cfg, dataset, out, options, name=name,
                                     others=any((system, callable_, http, results, setup, grid, corpus)))
        elif grid is not None:
            if any((system, callable_, http, results, traces, openai, setup, name, corpus, answer_path, contexts_path,
                    otel)):
                raise RagdxError("--grid names its own systems; drop --system/--callable/--http/--results",
                                 field="--grid")
            summaries = _grid(grid, dataset, out, options, only)
        else:
            from ragdx.rag.resolve import request_from_options
            from ragdx.rag.runner import run

            request = request_from_options(system, callable_=callable_, http=http, results=results, name=name,
                                           setup=setup, corpus=corpus, dataset=dataset, answer_path=answer_path,
                                           contexts_path=contexts_path, otel=otel, traces=traces, openai=openai,
                                           model=model)
            target, in_flight = _build(request, options)
            summaries = [run(target, dataset, out, **{**options.runner_kwargs(), "concurrency": in_flight})]
            if options.probe:
                _probe(target if options.executor == "local" else None, out, in_flight)
    except RunInterrupted as exc:
        from ragdx.rag.runner import summary_table

        console.print(summary_table([exc.summary]))
        _print_run_usage([exc.summary])
        sys.exit(130)
    _print_summaries(summaries)
    _finish_run(summaries, options)


def _closed_book(cfg: Config, dataset: Path, out: Path, options: RunOptions, *, name: str | None,
                 others: bool) -> list[RunSummary]:
    """``--closed-book``: the model of ragdx.yaml's ``llm:`` section answering without retrieval."""
    from ragdx.evaluate.open_domain import ClosedBookSystem
    from ragdx.rag.runner import run

    if others:
        raise RagdxError("--closed-book is its own system (the llm: model, no retrieval); drop the others",
                         field="--closed-book")
    return [run(ClosedBookSystem(cfg.llm, name=name or "closed-book"), dataset, out, **options.runner_kwargs())]


def _grid(grid: Path, dataset: Path, out: Path, options: RunOptions, only: list[str] | None) -> list[RunSummary]:
    """``--grid``: each system of the lab file run into its own subdirectory, probed while built."""
    from ragdx.rag.runner import run_grid

    kwargs = options.runner_kwargs()
    if kwargs.pop("contexts") != "once":
        raise RagdxError("a grid's runs keep their contexts once (contexts.jsonl); drop --contexts",
                         field="--contexts")
    probe = None if not options.probe else lambda built, run_dir: _probe(built, run_dir, options.concurrency)
    return run_grid(grid, dataset, out, **kwargs, only=only, after=probe)


def _probe(system: System | None, out: Path, concurrency: int) -> None:
    """The run's never-retrieved evidence documents asked for in their own words (``ragdx probe``),
    so that ``evaluate`` can tell a knowledge-base gap from a retrieval failure there."""
    from ragdx.evaluate.probes import probe_stage

    if system is None:  # the Ray actors that held the system are gone with the run
        err.print("[yellow]warning[/] probes not run with --executor ray: run `ragdx probe` with the same system",
                  soft_wrap=True)
        return
    try:
        outcome = probe_stage(system, out, concurrency=concurrency)
    except RagdxError as exc:  # the run is written; its probes failing does not undo it, but is said
        err.print(f"[yellow]warning[/] probes not run: {escape(str(exc))}", soft_wrap=True)
        return
    if outcome.applicable:  # a dataset without evidence links has nothing for probes to settle
        console.print(escape(outcome.line()), highlight=False, soft_wrap=True)


def _check_before_running(out: Path, cfg: Config, given: dict[str, Any], *, http: str | None, openai: str | None, grid: Path | None,
                          closed_book: bool) -> RunOptions:
    """Every check of `ragdx run`'s options that comes before a system is built (in this order):
    the run options over ragdx.yaml's ``run:`` section (:func:`ragdx.rag.options.run_options`, as
    ``ragdx.run`` builds them), the URLs, the run directory, what Ray can run."""
    from ragdx.rag.options import FLAGS, run_options

    options = run_options(cfg, given, names=FLAGS)
    for url, flag in ((http, "--http"), (openai, "--openai")):
        if url is not None:
            check_http_url(url, flag)
    if grid is None:  # before the system is built: a run goes only where no file can be a person's
        from ragdx.rag.runner import check_run_directory

        check_run_directory(out, overwrite=options.overwrite)
    if options.executor == "ray" and (closed_book or grid is not None):
        raise RagdxError("--executor ray runs one --system/--callable/--http/--results system (not --grid or "
                         "--closed-book yet)", field="--executor")
    return options


def _build(request: SystemRequest, options: RunOptions) -> tuple[System, int]:
    """The system and the queries in flight: built once here, or (--executor ray) once in each of
    --workers actors, which then set the concurrency."""
    if options.executor == "ray":
        from ragdx.rag.executor_ray import ray_system_for

        return ray_system_for(request, workers=options.workers, address=options.address,
                              concurrency=options.concurrency)
    return request.build(), options.concurrency


def _print_summaries(summaries: Sequence[RunSummary]) -> None:
    from ragdx.rag.runner import failure_reasons, summary_table

    console.print(summary_table(summaries))
    _print_run_usage(summaries)
    # "failed 5" says nothing; the commonest reasons usually say what to fix.
    for summary in summaries:
        for warning in getattr(summary, "warnings", None) or []:
            err.print(f"[yellow]warning[/] {escape(warning)}", soft_wrap=True)
        if summary.failed:
            console.print(f"[bold red]{summary.failed} failed[/] in {escape(str(summary.run_dir))}; top reasons:",
                          soft_wrap=True)
            for reason, count in failure_reasons(summary.run_dir):
                console.print(f"  {count:>5} × {reason}", highlight=False, markup=False, soft_wrap=True)


def _finish_run(summaries: Sequence[RunSummary], options: RunOptions) -> None:
    """Exit 1 when a run was written but cannot be trusted as a measurement (every record
    failed, or more than --max-failed: ``options.verdict``); the manifest records the verdict
    either way, as ``ragdx.run`` records it."""
    from ragdx.rag.runner import EXIT_FAILED, record_exit

    code = 0
    for summary in summaries:
        reason = options.verdict(summary)
        record_exit(summary.run_dir, EXIT_FAILED if reason else 0, reason)
        if reason:
            err.print(f"[bold red]error:[/] {escape(str(summary.run_dir))}: {escape(reason)} (exit {EXIT_FAILED})",
                      highlight=False, soft_wrap=True)
            code = EXIT_FAILED
    if code:
        sys.exit(code)


def _print_run_usage(summaries: Sequence[RunSummary]) -> None:
    """What ragdx's LLM clients did for each system that used one (the manifest's llm_usage)."""
    from ragdx.llm import usage_line

    for summary in summaries:
        if getattr(summary, "llm_usage", None) is not None:
            console.print(escape(f"{summary.system}: {usage_line(summary.llm_usage)}"), highlight=False,
                          soft_wrap=True)
