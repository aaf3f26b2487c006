"""ragdx's Python API: dataset → run → evaluation → report in a few lines, in a script or a notebook.

    import ragdx

    dataset = ragdx.generate_dataset("sqlite:///shop.db", "out/dataset", kb="out/kb")
    ragdx.run(my_rag_function, dataset, "out/runs/mine")      # a function, LangChain, LlamaIndex, Haystack...
    result = ragdx.evaluate("out/runs/mine", judge="exact")
    print(result.overall.accuracy)                             # 0.712 [0.671, 0.750]
    ragdx.report(["out/runs/mine"], "out/report.html")

Every function here is a thin layer over the stage modules (which stay the place to look for
every option): it accepts what a user has at hand (a function or framework object where a
system is expected, paths as strings) and returns typed results. :func:`run` works inside a
running event loop (a Jupyter notebook): it then runs in a worker thread with its own loop.
Nothing heavy is imported until a function is called.
"""

from __future__ import annotations

import threading
from collections.abc import Coroutine, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from ragdx.errors import RagdxError

if TYPE_CHECKING:  # pragma: no cover
    from ragdx.config import Config
    from ragdx.evaluate.compare import Comparison
    from ragdx.evaluate.config import EvaluationConfig, JudgeSpec
    from ragdx.evaluate.judges import Judge
    from ragdx.evaluate.results import EvaluationResult
    from ragdx.gen.options import GenOptions
    from ragdx.rag.options import Contexts, RunOptions
    from ragdx.rag.runner import RunSummary
    from ragdx.rag.types import System

__all__ = ["generate_dataset", "as_system", "run", "arun", "evaluate", "compare", "report", "export"]


T = TypeVar("T")

#: how generate_dataset spells the generation options it renames, for the one-line error
_GEN_KEYWORDS = {"max_groups_per_template": "max_groups"}


def generate_dataset(db: str, out: str | Path, options: GenOptions | None = None, *, kb: str | Path | None = None,
                     omit: Sequence[str] = (), omit_tables: Sequence[str] = (), styles: Sequence[str] | None = None,
                     n: int | None = None,
                     per_group: int | None = None, max_groups: int | None = None, seed: int | None = None,
                     null_answers: Literal["drop", "unanswerable", "keep"] | None = None,
                     multi_answer: Literal["drop", "keep"] | None = None,
                     unanswerable: Literal["drop", "keep"] | None = None,
                     method: Literal["set", "per-combination"] | None = None, unbalanced: bool | None = None,
                     kinds: Sequence[str] | None = None, refusals: int | None = None,
                     refusal_kinds: Sequence[str] | None = None, conversations: int | None = None,
                     config: Config | str | Path | None = None, overwrite: bool = False) -> Path:
    """The GRAMMAR stages on a database, offline: SQL templates (``OUT-templates/sql.yaml``),
    text templates in ``styles`` (``n`` per template and style), and the dataset in ``out``.
    With ``kb``, the knowledge base is rendered there first (leaving out ``omit`` columns and
    ``omit_tables``) unless it exists already, and every record gets its gold document ids.
    Templates files are merged on re-runs, never overwritten. Returns the dataset directory.

    The options are ``ragdx gen``'s, with its defaults (those of ragdx.yaml's ``gen:`` section,
    :class:`ragdx.config.GenConfig`; no ragdx.yaml is read unless ``config`` names one), built by
    the same :func:`ragdx.gen.options.gen_options`: a keyword left None takes ``options``' value,
    else the default. A project's file: ``generate_dataset(db, out, config="ragdx.yaml")``.
    ``max_groups`` caps the semantic groups per SQL template (a seeded sample; default 25, as
    ``--max-groups-per-template``): pass ``max_groups=0`` for every group. ``null_answers`` (default
    ``"drop"``), ``multi_answer`` and ``unanswerable`` (``"drop"``), ``method`` (``"set"``),
    ``per_group`` (a balanced sample), ``unbalanced``, ``seed`` (0) and ``n`` (3) are the flags of the
    same names; ``styles`` defaults to short and long. ``kinds`` (question kinds besides look-ups:
    ``list``, ``count``, ``total``, ``extreme``, ``comparison``, ``time_range``; look-ups only by
    default), ``refusals`` / ``refusal_kinds`` (questions to decline, paired with answerable ones;
    0 by default) and ``conversations`` (multi-turn conversations per walk of the schema's relations;
    0 by default) are ``--kind``, ``--refusals``, ``--refusal-kind`` and ``--conversations``.
    ``config``: a project's ``ragdx.yaml`` (its path, or :func:`ragdx.config.load_config`'s result):
    its ``keys:``, ``names:`` and ``ask:`` shape the questions as they do ``ragdx gen``'s, and its
    ``gen:`` section gives the defaults when ``options`` is None.
    A bad value raises one line naming the keyword,
    before the database is opened. The manifest records the database URL without its password."""
    from ragdx.config import Config, load_config
    from ragdx.gen.options import gen_options

    if config is not None and not isinstance(config, Config):
        config = load_config(Path(config))
    given = dict(styles=styles, n=n, per_group=per_group, max_groups_per_template=max_groups, seed=seed,
                 null_answers=null_answers, multi_answer=multi_answer, unanswerable=unanswerable, method=method,
                 unbalanced=unbalanced, kinds=kinds, refusals=refusals, refusal_kinds=refusal_kinds,
                 conversations=conversations)
    options = gen_options(options if options is not None else config, given, names=_GEN_KEYWORDS)
    out = Path(out)
    if out.exists() and any(out.iterdir()) and not overwrite:
        raise RagdxError("exists; pass overwrite=True to replace it", source=str(out))
    return _generate(db, out, Path(kb) if kb is not None else None, tuple(omit), tuple(omit_tables), options,
                     config)


def _generate(db: str, out: Path, kb: Path | None, omit: tuple[str, ...], omit_tables: tuple[str, ...],
              options: GenOptions, config: Config | None) -> Path:
    from ragdx.config import Config
    from ragdx.db.engine import safe_url
    from ragdx.gen.pipeline import build_dataset, load_parsed, open_database, sql_stage, text_stage, write
    from ragdx.gen.refusals import refusal_plan
    from ragdx.gen.text_templates import read_text_templates
    from ragdx.kb.render import omitted_in, read_facts, render_kb

    # the text templates are made in the styles asked for, else ragdx.yaml's default ones (short, long)
    styles = options.styles or tuple(Config().text_templates.styles)
    shown = safe_url(db)  # as `ragdx gen` writes it: no password in a manifest or a message
    # as `ragdx gen` opens it: read-only, with ragdx.yaml's keys, names and asked columns (and,
    # without a config, none of an earlier project's names)
    engine, schema = open_database(db, config)
    try:
        facts = None
        if kb is not None:
            if not (kb / "documents.jsonl").exists():
                render_kb(engine, schema, omit=omit, omit_tables=omit_tables).write(kb, overwrite=True)
            facts = read_facts(kb)
        templates = out.parent / f"{out.name}-templates"
        sql_file, text_file = templates / "sql.yaml", templates / "text.yaml"
        sql_stage(engine, schema, sql_file)
        parsed, _ = load_parsed(sql_file, schema)
        if not parsed:
            raise RagdxError("no valid SQL template for this database", source=str(sql_file))
        text_stage(parsed, text_file, styles, options.n)
        answers = options.answers()
        result = build_dataset(engine, schema, parsed, read_text_templates(text_file), styles, options.n, answers,
                               kb_facts=facts, per_group=options.per_group, unbalanced=options.unbalanced,
                               conversations=options.conversations,
                               refusals=refusal_plan(options.refusals, options.refusal_kinds, omitted_in(kb)),
                               kinds=options.kinds)
        if not result.records:
            raise RagdxError("no records: the templates found nothing to ask", source=shown)
        write(out, schema, answers, result, {"database": shown, "sql_templates": str(sql_file),
                                             "text_templates": str(text_file),
                                             "knowledge_base": None if kb is None else str(kb)}, overwrite=True)
    finally:
        engine.dispose()
    return out


def as_system(system: Any, *, name: str | None = None, corpus: str | Path | None = None,
              dataset: str | Path | None = None) -> System:
    """Anything that can answer queries, as a :class:`~ragdx.rag.types.System`: a System already;
    a function (sync or async), a LangChain runnable, a LlamaIndex query engine or a Haystack
    pipeline; ``"pkg.mod:obj"``; an ``http(s)://`` URL; a spec dict (``{"kind": "http", "url":
    ...}``) or a spec or pipeline YAML, or a built-in pipeline by name (``"er"``); a results JSONL.
    A pipeline without a corpus gets ``corpus``, else the knowledge base of ``dataset``. The one
    resolver the CLI and Ray workers use too: :func:`ragdx.rag.resolve.as_system`."""
    from ragdx.rag.resolve import as_system as resolve

    return resolve(system, name=name, corpus=corpus, dataset=dataset)


def _dataset_path(dataset: Any) -> str | Path | None:
    # records given in memory name no knowledge base a pipeline could default to
    return dataset if isinstance(dataset, str | Path) else None


def _in_thread(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to completion in a worker thread with its own event loop (for callers
    already inside one, such as a notebook, where ``asyncio.run`` refuses)."""
    import asyncio  # here, not at the top: `import ragdx` (and so `ragdx --help`) loads this module

    values: list[T] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            values.append(asyncio.run(coro))
        except BaseException as exc:  # handed to the caller's thread as it is
            errors.append(exc)

    worker = threading.Thread(target=target, name="ragdx-run")
    worker.start()
    worker.join()
    if errors:
        raise errors[0]
    return values[0]


def _run_options(options: RunOptions | None, config: Config | str | Path | None, given: dict[str, Any]) -> RunOptions:
    """``options`` (else ragdx.yaml's ``run:`` section when ``config`` names one, else the defaults)
    with the keywords a caller gave (not None), checked once, before any system is built."""
    from ragdx.config import Config, load_config
    from ragdx.rag.options import run_options

    if options is not None:
        return run_options(options, given)
    return run_options(config if isinstance(config, Config | None) else load_config(Path(config)), given)


def run(system: Any, dataset: str | Path | Iterable[Any], out: str | Path, options: RunOptions | None = None, *,
        name: str | None = None, concurrency: int | None = None, progress: bool | None = None,
        rerun_failed: bool | None = None, overwrite: bool | None = None, limit: int | None = None,
        contexts: Contexts | None = None, probe: bool | None = None, max_failed: int | float | str | None = None,
        config: Config | str | Path | None = None) -> RunSummary:
    """Run ``system`` (see :func:`as_system`) over ``dataset`` into the run directory ``out``,
    resuming what is there, as ``ragdx run`` does.

    How: ``options`` (a :class:`~ragdx.rag.options.RunOptions`; default: ragdx.yaml's ``run:``
    section when ``config`` names the file, else ``ragdx run``'s defaults), with each keyword given
    (not None) in its place; they are ``ragdx run``'s flags of the same names, checked once, here,
    with the same one-line errors. ``RunOptions(executor="ray", workers=4)`` answers on Ray actors
    (``--executor ray``; ``pip install 'ragdx[ray]'``). Like ``ragdx run``, it then probes the
    system for the evidence documents no query retrieved (``probe=False``: ``--no-probe``), so that
    ``evaluate`` tells a knowledge-base gap from a retrieval failure alike for both; the outcome is
    one of the summary's ``warnings`` when probes could not run. The run's verdict (every record
    sent failed, or more than ``max_failed``: where ``ragdx run`` exits 1) is written to the
    manifest's ``exit`` as ``ragdx run`` writes it and, when the run failed, is the summary's last
    warning (``options.verdict(summary)`` returns it). Works inside a running event loop too."""
    import asyncio

    from ragdx.rag import runner

    chosen = _run_options(options, config, dict(concurrency=concurrency, progress=progress, rerun_failed=rerun_failed,
                                                overwrite=overwrite, limit=limit, contexts=contexts, probe=probe,
                                                max_failed=max_failed))
    target, in_flight = _target(system, name, dataset, chosen)
    kwargs = {**chosen.runner_kwargs(), "concurrency": in_flight}
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # runner.run: Ctrl-C leaves the directory consistent and raises RunInterrupted
        return _finish(runner.run(target, dataset, out, **kwargs), target, out, chosen, in_flight)
    summary = _in_thread(runner.arun(target, dataset, out, **kwargs))
    return _in_thread(_afinish(summary, target, out, chosen, in_flight))


async def arun(system: Any, dataset: str | Path | Iterable[Any], out: str | Path, options: RunOptions | None = None,
               *, name: str | None = None, concurrency: int | None = None, progress: bool | None = None,
               rerun_failed: bool | None = None, overwrite: bool | None = None, limit: int | None = None,
               contexts: Contexts | None = None, probe: bool | None = None,
               max_failed: int | float | str | None = None, config: Config | str | Path | None = None) -> RunSummary:
    """:func:`run`, awaited in the caller's own event loop."""
    from ragdx.rag import runner

    chosen = _run_options(options, config, dict(concurrency=concurrency, progress=progress, rerun_failed=rerun_failed,
                                                overwrite=overwrite, limit=limit, contexts=contexts, probe=probe,
                                                max_failed=max_failed))
    target, in_flight = _target(system, name, dataset, chosen)
    summary = await runner.arun(target, dataset, out, **{**chosen.runner_kwargs(), "concurrency": in_flight})
    return await _afinish(summary, target, out, chosen, in_flight)


async def _afinish(summary: RunSummary, system: System, out: str | Path, options: RunOptions,
                   concurrency: int) -> RunSummary:
    # the probes' own event loop runs in a thread of its own here: this coroutine's loop is busy
    import asyncio

    return await asyncio.to_thread(_finish, summary, system, out, options, concurrency)


def _finish(summary: RunSummary, system: System, out: str | Path, options: RunOptions,
            concurrency: int) -> RunSummary:
    """After the run, as ``ragdx run`` does: its probes (unless ``probe=False``), then its verdict
    in the manifest's ``exit`` and, when the run failed, in the summary's warnings."""
    from ragdx.rag.runner import EXIT_FAILED, record_exit

    if options.probe and options.executor == "ray":  # the actors that held the system are gone with the run
        summary.warnings.append("probes not run with executor ray: run `ragdx probe` with the same system")
    elif options.probe:
        summary = _probed(summary, system, out, concurrency)
    reason = options.verdict(summary)
    record_exit(out, EXIT_FAILED if reason else 0, reason)
    if reason:
        summary.warnings.append(reason)
    return summary


def _target(system: Any, name: str | None, dataset: Any, options: RunOptions) -> tuple[System, int]:
    """The system and the queries in flight: built here, or (``executor="ray"``) once in each of
    ``workers`` actors, which then set the concurrency (as ``ragdx run --executor ray``)."""
    if options.executor == "ray":
        from ragdx.rag.executor_ray import ray_system_for
        from ragdx.rag.resolve import SystemRequest

        path = _dataset_path(dataset)
        request = SystemRequest(system, name=name, dataset=None if path is None else Path(path))
        return ray_system_for(request, workers=options.workers, address=options.address,
                              concurrency=options.concurrency)
    return as_system(system, name=name, dataset=_dataset_path(dataset)), options.concurrency


def _probed(summary: RunSummary, system: Any, out: str | Path, concurrency: int) -> RunSummary:
    """``summary`` after probing the run in ``out`` (``ragdx run``'s probe stage); a probe stage
    that cannot run is said in the summary's warnings, never raised: the run is written."""
    from ragdx.evaluate.probes import probe_stage

    try:
        outcome = probe_stage(system, Path(out), concurrency=concurrency)
    except RagdxError as exc:
        summary.warnings.append(f"probes not run: {exc}")
        return summary
    if outcome.applicable and outcome.skipped:
        summary.warnings.append(f"probes not run: {outcome.skipped}")
    return summary


def _evaluation_config(config: EvaluationConfig | None, given: dict[str, Any]) -> EvaluationConfig:
    """``config`` (default: the defaults) with the keywords a caller gave (not None), validated
    here, once, before any run is read or any answer judged."""
    from ragdx.evaluate.config import EvaluationConfig

    return EvaluationConfig.build(config, **{k: v for k, v in given.items() if v is not None})


def evaluate(path: str | Path, config: EvaluationConfig | None = None, *,
             judge: str | Judge | JudgeSpec | None = None, sets: str | None = None, llm: Any = None,
             retrieval: str | None = None, k: int | None = None, n_boot: int | None = None, seed: int | None = None,
             lab: bool | None = None, rouge: bool | None = None, bertscore: bool | None = None,
             geval: bool | None = None, benchmark: str | None = None, require_complete: bool | None = None,
             closed_book: str | Path | None = None, exclude_open_domain: bool | None = None,
             compare_pair: tuple[str, str] | None = None, cache: Any = None,
             dataset: str | Path | Iterable[Any] | None = None, out: str | Path | None = None) -> EvaluationResult:
    """Judge a run directory (or a plain QA JSONL, or a GRAMMAR reference directory): metrics with
    95 % intervals, group tags, module blame, the style test. ``result.overall.accuracy``.

    How: ``config`` (an :class:`~ragdx.evaluate.config.EvaluationConfig`; default: cascade judge,
    evidence rule, 1000 bootstrap resamples), with each keyword given (not None) in place of its
    field; a misspelt judge or rule fails here, before anything is judged. ``dataset``: where the
    run's dataset is now, if it moved (it must have the content hash the run recorded); by default
    it is found from the run directory. ``out``: default ``PATH/evaluation`` for a run directory."""
    from ragdx.evaluate.report import evaluate as evaluate_path

    given = dict(judge=judge, sets=sets, llm=llm, retrieval=retrieval, k=k, n_boot=n_boot, seed=seed, lab=lab,
                 rouge=rouge, bertscore=bertscore, geval=geval, benchmark=benchmark,
                 require_complete=require_complete, closed_book=closed_book,
                 exclude_open_domain=exclude_open_domain, compare_pair=compare_pair, cache=cache)
    return evaluate_path(path, _evaluation_config(config, given), out=out, dataset=dataset)


def compare(a: str | Path, b: str | Path, config: EvaluationConfig | None = None, *,
            judge: str | Judge | JudgeSpec | None = None, sets: str | None = None, llm: Any = None,
            retrieval: str | None = None, k: int | None = None, n_boot: int | None = None, seed: int | None = None,
            gap: str | None = None, style: str | None = None, strict: bool | None = None, cache: Any = None,
            dataset: str | Path | Iterable[Any] | None = None, out: str | Path | None = None) -> Comparison:
    """Run B against run A on one dataset: which module differs, with intervals and paired tests
    (``dataset``: where that dataset is now, as for :func:`evaluate`; ``config`` and the keywords
    as there, with ``gap``, ``style`` and ``strict``). ``out``: where ``comparison.json`` and
    ``comparison.md`` go, if anywhere."""
    from ragdx.evaluate.report import compare_paths

    given = dict(judge=judge, sets=sets, llm=llm, retrieval=retrieval, k=k, n_boot=n_boot, seed=seed, gap=gap,
                 style=style, strict=strict, cache=cache)
    return compare_paths(a, b, _evaluation_config(config, given), out=out, dataset=dataset)


def report(runs: str | Path | Sequence[str | Path], out: str | Path = "report.html", *, fmt: str | None = None,
           dataset: str | Path | None = None, **kwargs: Any) -> Path:
    """The HTML report (``fmt="md"``, or an ``.md`` file name, for the Markdown summary) of runs on one
    dataset (``dataset``: where that dataset is now, as for :func:`evaluate`)."""
    from ragdx.report import write_report

    run_dirs = [runs] if isinstance(runs, str | Path) else list(runs)
    fmt = fmt or ("md" if str(out).endswith(".md") else "html")
    return write_report([Path(r) for r in run_dirs], out, fmt=fmt, dataset=dataset, **kwargs)


def export(dataset: str | Path, out: str | Path, *, to: str = "jsonl", run: str | Path | None = None) -> Path:
    """The dataset (and a run) for ragas, DeepEval, Hugging Face ``datasets`` or the plain QA JSONL."""
    from ragdx.export import export as _export

    return _export(dataset, out, to=to, run=run)[0]
