"""``ragdx probe``: ask a run's system for the evidence documents none of its queries retrieved, each in
its own words, so that ``evaluate`` can tell a document missing from the index (a knowledge-base
gap) from one the retriever does not reach (a retrieval failure). ``ragdx run`` does it at the end
of a run unless ``--no-probe``; this command does it alone, for a run made without it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from ragdx.cli.options import DatasetOpt
from ragdx.cli.output import console
from ragdx.errors import RagdxError
from ragdx.evaluate.probes import probe_stage


def _same_system(system: Any, run_dir: Path) -> None:
    """Refuse a system other than the run's: its probes would say nothing of the run's index."""
    from ragdx.rag.rundir import Manifest, RunPaths
    from ragdx.redact import redact

    manifest = Manifest.read(run_dir)
    config = redact(json.loads(json.dumps(system.describe(), sort_keys=True, ensure_ascii=False, default=str)))
    if manifest.system_config != config:
        raise RagdxError(f"the system given is not the run's ({manifest.system_name}): probes of another system say "
                         "nothing about the index the run searched", source=str(RunPaths(run_dir).manifest),
                         field="system.config")


def probe_cmd(
    run_dir: Annotated[Path, typer.Argument(help="A run directory from `ragdx run`.")],
    system: Annotated[Path | None, typer.Option("--system", "-s", help="The run's system: a spec YAML, a pipeline YAML or a built-in pipeline by name.")] = None,
    callable_: Annotated[str | None, typer.Option("--callable", help="The run's module:obj system.")] = None,
    otel: Annotated[bool, typer.Option("--otel", help="With --callable: contexts from the app's retriever spans, as in the run.")] = False,
    setup: Annotated[str | None, typer.Option("--setup", help="module:factory called once before the probes.")] = None,
    http: Annotated[str | None, typer.Option("--http", help="The run's HTTP endpoint.")] = None,
    answer_path: Annotated[str | None, typer.Option("--answer-path", help="With --http: dotted path of the answer.")] = None,
    contexts_path: Annotated[str | None, typer.Option("--contexts-path", help="With --http or --openai: dotted path of the contexts.")] = None,
    openai: Annotated[str | None, typer.Option("--openai", help="The run's OpenAI-style server (needs --model).")] = None,
    model: Annotated[str | None, typer.Option("--model", help="With --openai: the model name sent.")] = None,
    name: Annotated[str | None, typer.Option("--name", help="The system's name in the run.")] = None,
    corpus: Annotated[Path | None, typer.Option("--corpus", help="Corpus of a --system pipeline that names none.")] = None,
    concurrency: Annotated[int, typer.Option("--concurrency", "-j", min=1, help="Probes in flight at once.")] = 4,
    dataset: DatasetOpt = None,
):
    """Ask the run's system for each evidence document no query retrieved, in the document's own words
    (its title with its first sentence, its rarest sentence, its title with the next rarest), and write probes.jsonl in the run:
    `evaluate` then blames a document that never comes back on the knowledge base, and one that does on
    the retriever. Give the same system options as to `ragdx run`."""
    from ragdx.rag.resolve import request_from_options
    from ragdx.rag.rundir import is_run_directory

    if not is_run_directory(run_dir):
        raise RagdxError("not a run directory (no manifest.json and inputs.jsonl)", source=str(run_dir))
    request = request_from_options(system, callable_=callable_, http=http, name=name, setup=setup, corpus=corpus,
                                   dataset=dataset, answer_path=answer_path, contexts_path=contexts_path,
                                   openai=openai, model=model, otel=otel)
    built = request.build()
    _same_system(built, run_dir)
    outcome = probe_stage(built, run_dir, dataset, build=True, concurrency=concurrency)
    console.print(escape(outcome.line()), highlight=False, soft_wrap=True)
