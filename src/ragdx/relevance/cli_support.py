"""Plain functions behind ``ragdx relevance calibrate | test | monitor | bench`` and ``ragdx serve``
(``test`` is ``screen_queries``, ``bench`` is :func:`ragdx.relevance.bench.run_bench`, ``serve`` is
:func:`ragdx.relevance.serve.serve`).

Each takes paths and options, does the work, writes its outputs atomically and returns a small
summary record the CLI prints. Bad input raises :class:`RagdxError` naming the file and field.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ragdx.errors import RagdxError
from ragdx.relevance.calibration import dataset_queries, read_corpus, read_questions, synthesize_queries
from ragdx.relevance.tester import RelevanceTester


@dataclass(frozen=True, slots=True)
class CalibrateSummary:
    tester_dir: str
    source: str
    n_calibration: int
    corpus_chunks: int
    embedding_model: str
    index: str
    synthesis_failures: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def calibrate(corpus: str | os.PathLike, out: str | os.PathLike, *, queries: str | os.PathLike | None = None,
              dataset: str | os.PathLike | None = None, synthesize: int = 0,
              examples: str | os.PathLike | None = None, llm_config: dict[str, Any] | None = None,
              corpus_field: str = "content", query_field: str = "question", k: int = 10,
              temperature: float = 0.05, statistic: str = "energy", alpha: float = 0.05,
              retriever: str = "dense", search: str = "auto", cache_dir: str | os.PathLike | None = ".ragdx-cache",
              overwrite: bool = False, seed: int = 0) -> CalibrateSummary:
    """Fit a tester on a JSONL corpus and one calibration source, and save it to ``out``.

    Exactly one source: ``queries`` (JSONL of real in-knowledge questions), ``dataset`` (a ragdx
    dataset directory: its knowledge-base-supported queries), or ``synthesize`` > 0 (that many
    chunks, drawn at random, get one LLM-written question each, with the paper's prompt; the
    ``examples`` JSONL gives the style, 3 questions are shown)."""
    import numpy as np

    from ragdx.embed import Embedder

    sources = [queries is not None, dataset is not None, synthesize > 0]
    if sum(sources) != 1:
        raise RagdxError("give exactly one calibration source: --queries, --dataset or --synthesize N",
                         field="calibration")
    texts = read_corpus(corpus, field_name=corpus_field)
    failures = 0
    if queries is not None:
        cal, source = read_questions(queries, field_name=query_field), f"queries {queries}"
    elif dataset is not None:
        cal, source = dataset_queries(dataset), f"dataset {dataset}"
    else:
        if examples is None:
            raise RagdxError("--synthesize needs --examples (a JSONL of a few real questions)", field="examples")
        from ragdx.llm import make_llm

        rng = np.random.default_rng(seed)
        picks = rng.choice(len(texts), min(synthesize, len(texts)), replace=False)
        shown = read_questions(examples, field_name=query_field)[:3]
        res = synthesize_queries(make_llm(llm_config or {}), [texts[i] for i in picks], examples=shown)
        if not res.questions:
            first = res.failures[0][1] if res.failures else "no answer"
            raise RagdxError(f"no synthetic question could be made ({first})", field="synthesize")
        cal, source, failures = res.questions, f"{len(res.questions)} synthetic questions", len(res.failures)
    embedder = Embedder(cache_dir=cache_dir) if retriever == "dense" else None
    tester = RelevanceTester(k=k, temperature=temperature, statistic=statistic, alpha=alpha, retriever=retriever,
                             embedder=embedder, search=search).fit(texts, cal)
    tester.save(out, overwrite=overwrite)
    return CalibrateSummary(tester_dir=str(out), source=source, n_calibration=tester.n_calibration_,
                            corpus_chunks=tester.index_.size, embedding_model=tester.embedding_model_,
                            index=tester.index_.kind, synthesis_failures=failures)


@dataclass(frozen=True, slots=True)
class ScreenSummary:
    n_queries: int
    n_out_of_knowledge: int
    alpha: float
    statistic: str
    output: str | None
    drift: dict[str, Any] | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def screen_queries(tester_dir: str | os.PathLike, *, queries_file: str | os.PathLike | None = None,
                 queries: list[str] | None = None, query_field: str = "question", alpha: float | None = None,
                 out: str | os.PathLike | None = None, drift: bool = False) -> ScreenSummary:
    """Test queries (from a JSONL file or given) against a saved tester; with ``out``, write one
    JSON line per query (statistics, p-values, decision); with ``drift``, also the KS test of
    the whole batch."""
    from ragdx.store import write_jsonl

    if (queries_file is None) == (queries is None):
        raise RagdxError("give queries either as a file or as arguments", field="queries")
    items = read_questions(queries_file, field_name=query_field) if queries_file is not None else list(queries or [])
    if not items:
        raise RagdxError("no queries to test", field="queries")
    tester = RelevanceTester.load(tester_dir)
    stats = tester.statistics(items)
    results = tester.test_statistics(stats, items, alpha)
    if out is not None:
        write_jsonl(out, [r.to_dict() for r in results])
    drift_result = tester.drift_statistics(stats, alpha).to_dict() if drift and len(items) >= 2 else None
    return ScreenSummary(n_queries=len(results), n_out_of_knowledge=sum(r.out_of_knowledge for r in results),
                       alpha=results[0].alpha, statistic=tester.statistic, output=None if out is None else str(out),
                       drift=drift_result)


def monitor_log(tester_dir: str | os.PathLike, log: str | os.PathLike, *, query_field: str = "question",
                timestamp_field: str | None = None, window: int = 100, step: int | None = None,
                alpha: float = 0.05, min_consecutive: int = 1, out: str | os.PathLike | None = None):
    """Sliding-window KS drift over a JSONL query log in arrival order; returns the DriftReport
    (``.summary()`` is one line) and, with ``out``, writes it as JSON."""
    from ragdx.relevance.drift import DriftMonitor
    from ragdx.store import iter_jsonl, write_json

    texts, stamps = [], []
    for number, obj in iter_jsonl(log):
        q = obj.get(query_field)
        if not isinstance(q, str):
            raise RagdxError(f"missing {query_field!r}", source=str(log), field=f"line {number}")
        texts.append(q)
        if timestamp_field:
            if timestamp_field not in obj:
                raise RagdxError(f"missing {timestamp_field!r}", source=str(log), field=f"line {number}")
            stamps.append(obj[timestamp_field])
    if len(texts) < window:
        raise RagdxError(f"the log has {len(texts)} queries, fewer than one window of {window}", source=str(log))
    tester = RelevanceTester.load(tester_dir)
    report = DriftMonitor(tester, window=window, step=step, alpha=alpha,
                          min_consecutive=min_consecutive).run(texts, timestamps=stamps or None)
    if out is not None:
        write_json(Path(out), report.to_dict())
    return report
