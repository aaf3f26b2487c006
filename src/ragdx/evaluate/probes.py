"""The probe stage: a run's never-retrieved evidence documents asked for, each in its own words,
through the system that made the run (``ragdx.rag.probe`` holds how; this module finds what to ask
from the run's dataset and the knowledge base it was linked in). ``ragdx run``, ``ragdx probe`` and
``ragdx.run`` all probe through here, so an API run and a CLI run are judged alike."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def probe_stage(system: Any, run_dir: Path, dataset: Path | None = None, *, build: bool = False,
                concurrency: int = 4) -> Any:
    """Probe ``run_dir``'s never-retrieved evidence documents through ``system``, with queries made
    of the text of the knowledge base the dataset was linked in; returns the
    :class:`ragdx.rag.probe.ProbeRun` (``skipped`` says why nothing was probed)."""
    from ragdx.evaluate.runs import dataset_knowledge_base, map_retrieved_ids
    from ragdx.gen.dataset import read_records
    from ragdx.rag.probe import ProbeRun, can_probe, probe_run
    from ragdx.rag.run_dataset import resolve_dataset

    path = resolve_dataset(run_dir, dataset)
    if path is None:
        return ProbeRun(skipped="the run's manifest names no dataset file: pass --dataset")
    records = read_records(path)
    if not any(getattr(r, "gold_document_ids", None) for r in records):
        return ProbeRun(skipped="the dataset carries no evidence documents (made without --corpus or a knowledge base)",
                        applicable=False)
    corpus = dataset_knowledge_base(path if path.is_dir() else path.parent, run_dir)
    if corpus is None:
        return ProbeRun(skipped="the knowledge base the dataset was linked in is not found: nothing to make probes of")
    known = set(corpus.ids)
    done = probe_run(system, run_dir, records, {d.id: d.text for d in corpus.documents},
                     titles={d.id: d.title for d in corpus.documents},
                     map_ids=lambda ids: map_retrieved_ids(ids, known)[0], concurrency=concurrency, build=build)
    if any(getattr(r, "turn", 0) > 1 for r in records) and not can_probe(system):
        # conversations: each follow-up's standalone question asked alone, so that a miss the
        # retriever could have avoided is blamed on history handling (ragdx.evaluate.conversations)
        from ragdx.evaluate.conversations import standalone_probes, write_standalone_probes

        write_standalone_probes(run_dir, standalone_probes(system, records, concurrency=concurrency,
                                                           map_ids=lambda ids: map_retrieved_ids(ids, known)[0]))
    return done
