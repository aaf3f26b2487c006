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

from ragdx.embed import USER_CACHE
from ragdx.errors import RagdxError

# The readers and the tester (numpy, scipy, scikit-learn) are imported inside the functions that use
# them: the CLI imports this module for refuse_existing, which must cost nothing.


def refuse_existing(out: str | os.PathLike | None, overwrite: bool) -> None:
    """Checked first, so a refused output costs nothing (no reading, no embedding)."""
    if out is not None and Path(out).exists() and not overwrite:
        raise RagdxError("already exists (pass --overwrite to replace it)", source=str(out))


@dataclass(frozen=True, slots=True)
class CalibrateSummary:
    tester_dir: str
    source: str
    n_calibration: int
    corpus_chunks: int
    embedding_model: str
    index: str
    synthesis_failures: int = 0
    #: what the LLM did for ``--synthesize`` (``ragdx.llm.usage_record``); None without it
    llm_usage: dict[str, Any] | None = None
    #: with ``links``: what the evidence linker made of the calibration records (how many it could
    #: score, the share it found stated, the conformal floor of an unlinked question); else None
    links: dict[str, Any] | None = None
    #: which statistic tests a question with its record and one without (one line)
    statistic: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def dataset_database(dataset: str | os.PathLike | None, db: str | None) -> str:
    """The records' database: ``db``, else the one the dataset's manifest names."""
    if db:
        return db
    url = None
    if dataset is not None:
        from ragdx.gen.dataset import read_manifest

        url = read_manifest(Path(dataset)).get("database")
    if not url or "***" in str(url):  # a redacted URL cannot be opened
        raise RagdxError("links need the records' database: pass --db URL", field="--db")
    return str(url)


def records_and_queries(path: str | os.PathLike, query_field: str) -> tuple[list[str], list[Any]]:
    """The questions of a JSONL, and each row's ragdx record when the row is one (it has ``facts``
    and ``query``: a dataset's records.jsonl), else None."""
    from ragdx.relevance.links import as_records
    from ragdx.store import iter_jsonl

    texts, rows = [], []
    for number, obj in iter_jsonl(path):
        is_record = isinstance(obj.get("facts"), list) and isinstance(obj.get("query"), str)
        q = obj.get(query_field, obj.get("query") if is_record else None)
        if not isinstance(q, str) or not q.strip():
            raise RagdxError(f"missing or empty {query_field!r}", source=str(path), field=f"line {number}")
        texts.append(q)
        rows.append(obj if is_record else None)
    return texts, as_records(rows)


def calibrate(corpus: str | os.PathLike, out: str | os.PathLike, *, queries: str | os.PathLike | None = None,
              dataset: str | os.PathLike | None = None, synthesize: int = 0,
              examples: str | os.PathLike | None = None, llm_config: dict[str, Any] | None = None,
              corpus_field: str = "content", query_field: str = "question", k: int = 10,
              temperature: float = 0.05, statistic: str = "energy", alpha: float = 0.05,
              retriever: str = "dense", search: str = "auto", cache_dir: str | os.PathLike | None = USER_CACHE,
              overwrite: bool = False, seed: int = 0, embedder: Any = None, progress: Any = None,
              names: bool | str = "auto", facts: bool = False, links: bool | str = "auto",
              links_weight: float = 1.0, db: str | None = None) -> CalibrateSummary:
    """Fit a tester on a JSONL corpus and one calibration source, and save it to ``out``.

    Exactly one source: ``queries`` (JSONL of real in-knowledge questions), ``dataset`` (a ragdx
    dataset directory: its knowledge-base-supported queries), or ``synthesize`` > 0 (that many
    chunks, drawn at random, get one LLM-written question each, with the paper's prompt; the
    ``examples`` JSONL gives the style, 3 questions are shown). ``embedder`` (default: the
    packaged MiniLM) embeds for the dense retriever; ``progress(what)`` gives a
    ``progress(done, total)`` callback per embedding pass. An existing ``out`` is refused before
    anything is read or embedded.

    ``links``: also calibrate the evidence linker's statistic (:mod:`ragdx.relevance.links`) on the
    calibration questions' records: ``dataset``'s records, or ``queries`` rows that are ragdx
    records; ``db`` their database (default: the dataset's). With ``dataset`` the calibration
    questions are those the linker found supported: the links p-values then test "stated as the
    linker reads it" (the summary says so). ``"auto"`` (default): on when the calibration questions
    are records whose database is known (the dataset's manifest, or ``db``), else off; the summary's
    ``statistic`` says which (``benchmarks/results/relevance_indomain.md`` measures the choice)."""

    from ragdx.embed import Embedder
    from ragdx.relevance.calibration import dataset_queries, read_corpus
    from ragdx.relevance.tester import RelevanceTester

    refuse_existing(out, overwrite)
    sources = [queries is not None, dataset is not None, synthesize > 0]
    if sum(sources) != 1:
        raise RagdxError("give exactly one calibration source: --queries, --dataset or --synthesize N",
                         field="calibration")
    if links is True and synthesize > 0:
        raise RagdxError("links need the calibration questions' records: --dataset, or --queries rows that are "
                         "ragdx records", field="links")
    if links == "auto":
        links = _links_available(queries, dataset, db, query_field)
    elif not isinstance(links, bool):
        raise RagdxError(f"links must be true, false or 'auto', got {links!r}", field="links")
    url = dataset_database(dataset, db) if links else None
    texts = read_corpus(corpus, field_name=corpus_field)
    failures = 0
    llm_usage = None
    records: list[Any] | None = None
    if queries is not None:
        # rows that are records are read by their query, links on or off
        cal, records = records_and_queries(queries, query_field)
        if not links:
            records = None
        source = f"queries {queries}"
    elif dataset is not None:
        cal, source = dataset_queries(dataset), f"dataset {dataset}"
        if links:
            from ragdx.gen.dataset import read_records

            records = [r for r in read_records(Path(dataset)) if r.kb_supported and r.answer_kind != "none"]
    else:
        cal, source, failures, llm_usage = _synthesized(texts, synthesize, examples, llm_config, query_field, seed)
    if retriever == "dense" and embedder is None:
        embedder = Embedder(cache_dir=cache_dir)
    documents = None
    if links:  # the documents with their ids: the linker reads an id as what a document is about
        from ragdx.rag.corpus import load_corpus

        documents = [(d.id, d.text) for d in load_corpus(Path(corpus), text_field=corpus_field) if d.text.strip()]
    tester = RelevanceTester(k=k, temperature=temperature, statistic=statistic, alpha=alpha, retriever=retriever,
                             embedder=embedder if retriever == "dense" else None,
                             search=search, names=names, facts=facts, links=links,
                             links_weight=links_weight).fit(
        texts, cal, progress=progress, records=records, database=url, documents=documents)
    tester.save(out, overwrite=overwrite)
    return CalibrateSummary(tester_dir=str(out), source=source, n_calibration=tester.n_calibration_,
                            corpus_chunks=tester.index_.size, embedding_model=tester.embedding_model_,
                            index=tester.index_.kind, synthesis_failures=failures, llm_usage=llm_usage,
                            links=_links_summary(tester, alpha, from_dataset=dataset is not None),
                            statistic=_statistic_used(tester))


def _links_available(queries: str | os.PathLike | None, dataset: str | os.PathLike | None, db: str | None,
                     query_field: str) -> bool:
    """links="auto": whether the calibration questions come with their records and the records'
    database is known (--db, or the dataset's manifest)."""
    if queries is None and dataset is None:
        return False
    try:
        dataset_database(dataset, db)
    except RagdxError:
        return False
    if dataset is not None or queries is None:
        return dataset is not None
    _, records = records_and_queries(queries, query_field)
    return any(r is not None for r in records)


def _statistic_used(tester: Any) -> str:
    """One line: which statistic tests a question (with its record, and without)."""
    plain = tester.statistic + ("+names" if tester._names_index() is not None else "") + (
        "+facts" if getattr(tester, "facts_index_", None) is not None else "")
    if tester._links() is None:
        return f"{plain} (no records: links off)"
    w = float(tester.links_weight)
    with_record = "links (graded evidence linker)" if w == 1.0 else f"{plain}+links (links weight {w:g})"
    return f"{with_record} for a question with its record; {plain} for one without"


def _synthesized(texts: list[str], n: int, examples: str | os.PathLike | None, llm_config: dict[str, Any] | None,
                 query_field: str, seed: int) -> tuple[list[str], str, int, Any]:
    """Calibration questions an LLM writes for ``n`` chunks drawn at random (the paper's prompt,
    three of ``examples`` shown for the style): (questions, source, failures, LLM usage)."""
    import numpy as np

    from ragdx.llm import counting, make_llm, usage_record
    from ragdx.relevance.calibration import read_questions, synthesize_queries

    if examples is None:
        raise RagdxError("--synthesize needs --examples (a JSONL of a few real questions)", field="examples")
    rng = np.random.default_rng(seed)
    picks = rng.choice(len(texts), min(n, len(texts)), replace=False)
    shown = read_questions(examples, field_name=query_field)[:3]
    with counting() as used:
        res = synthesize_queries(make_llm(llm_config or {}), [texts[i] for i in picks], examples=shown)
    if not res.questions:
        first = res.failures[0][1] if res.failures else "no answer"
        raise RagdxError(f"no synthetic question could be made ({first})", field="synthesize")
    return res.questions, f"{len(res.questions)} synthetic questions", len(res.failures), usage_record(used)


def _links_summary(tester: Any, alpha: float, *, from_dataset: bool) -> dict[str, Any] | None:
    """What calibrating the links statistic found (None without it): how many calibration
    questions the linker scored and found stated, the lowest p-value an unlinked question can get,
    and a warning when that floor cannot reach ``alpha``."""
    lk = tester._links()
    if lk is None:
        return None
    link_info: dict[str, Any] = {"scored": int(lk.calibration_scores_.size), "without_score": lk.n_unscored_,
                                 "linker_found_stated": round(lk.recall(), 4), "floor_p_unlinked": round(lk.floor(), 4)}
    floor = lk.floor() / float(tester.links_weight)
    if floor > alpha:
        # the linker misses so many calibration questions that an unlinked one cannot be
        # rejected by links at alpha: say so (measured on a held-out corpus, 81 % found: 0.12)
        link_info["warning"] = (f"the linker finds only {lk.recall():.0%} of the calibration questions stated: "
                                f"an unlinked question's links p-value ({lk.floor():.3f}, / weight "
                                f"{float(tester.links_weight):g} = {floor:.3f}) cannot reach alpha {alpha:g}; "
                                "only the other statistics can reject")
    if from_dataset:
        link_info["note"] = ("calibration questions chosen by the linker (kb_supported): links p-values test "
                             "'stated as the linker reads it'")
    return link_info


@dataclass(frozen=True, slots=True)
class ScreenSummary:
    n_queries: int
    n_out_of_knowledge: int
    alpha: float
    statistic: str
    output: str | None
    drift: dict[str, Any] | None
    #: one sentence when query length alone explains which queries were flagged (confounds)
    length_note: str | None = None
    #: queries tested with the links statistic (given with a record the linker could score)
    n_with_links: int = 0
    #: which statistic the queries were tested with, when links were used for some
    links_note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def screen_queries(tester_dir: str | os.PathLike, *, queries_file: str | os.PathLike | None = None,
                   queries: list[str] | None = None, query_field: str = "question", alpha: float | None = None,
                   out: str | os.PathLike | None = None, drift: bool = False, overwrite: bool = False,
                   progress: Any = None, results: list | None = None, dataset: str | os.PathLike | None = None,
                   db: str | None = None) -> ScreenSummary:
    """Test queries (from a JSONL file or given) against a saved tester; with ``out``, write one
    row per query (query, statistic, value, p-value, decision, and all seven statistics and
    p-values): CSV when ``out`` ends in ``.csv``, JSON lines otherwise; with ``drift``, also the
    KS test of the whole batch. ``results``, when given a list, receives the per-query tests.

    ``dataset`` (a ragdx dataset directory: its records' queries), or a ``queries_file`` whose rows
    are ragdx records: with a tester calibrated with links, each query given with its record is
    tested with the links statistic too (its record linked against the tester's documents, in
    ``db``, default the dataset's database); the others as free text."""
    from ragdx.relevance.calibration import read_questions
    from ragdx.relevance.tester import RelevanceTester

    if sum(x is not None for x in (queries_file, queries, dataset)) != 1:
        raise RagdxError("give queries as a file, as arguments or as a dataset", field="queries")
    refuse_existing(out, overwrite)
    tester = RelevanceTester.load(tester_dir)
    lk = tester._links()
    records: list[Any] | None = None
    if dataset is not None:
        from ragdx.gen.dataset import read_records

        records = list(read_records(Path(dataset)))
        items = [r.query for r in records]
    elif queries_file is not None and lk is not None:
        items, records = records_and_queries(queries_file, query_field)
    elif queries_file is not None:
        items = read_questions(queries_file, field_name=query_field)
    else:
        items = list(queries or [])
    if not items:
        raise RagdxError("no queries to test", field="queries")
    link_scores = None
    if records is not None and lk is not None and any(r is not None for r in records):
        link_scores = tester.link_scores(records, dataset_database(dataset, db))
    stats = tester.statistics(items, progress=progress)
    tests = tester.test_statistics(stats, items, alpha, link_scores=link_scores)
    if out is not None:
        write_tests(out, tests)
    if results is not None:
        results.extend(tests)
    drift_result = tester.drift_statistics(stats, alpha).to_dict() if drift and len(items) >= 2 else None
    from ragdx.relevance.confounds import batch_note

    note = batch_note(getattr(tester, "calibration_lengths_", None), [len(q) for q in items],
                      [t.out_of_knowledge for t in tests])
    n_links = sum("links" in t.p_values for t in tests)
    links_note = None
    if lk is not None:
        others = sorted({t.statistic for t in tests if "links" not in t.p_values})
        links_note = (f"{n_links} of {len(tests)} queries tested with the evidence linker on their record"
                      + (f"; the others ({', '.join(others)}): no record, or one the linker cannot score "
                         "(not_linkable, unanswerable)" if others else "")
                      + f". An unlinked question's links p-value cannot fall below {lk.floor():.3f} "
                        "(the calibration questions the linker misses).")
    elif records is not None:
        links_note = "the tester was calibrated without --links: the records were not used"
    return ScreenSummary(n_queries=len(tests), n_out_of_knowledge=sum(r.out_of_knowledge for r in tests),
                         alpha=tests[0].alpha, statistic=tester.statistic,
                         output=None if out is None else str(out), drift=drift_result, length_note=note,
                         n_with_links=n_links, links_note=links_note)


def tests_as_rows(tests) -> list[dict[str, Any]]:
    from ragdx.relevance.statistics import STATISTICS

    rows = []
    for t in tests:
        row = {"index": t.index, "query": t.query, "statistic": t.statistic, "value": t.value,
               "p_value": t.p_value, "alpha": t.alpha,
               "decision": "out-of-knowledge" if t.out_of_knowledge else "in-knowledge",
               "out_of_knowledge": t.out_of_knowledge}
        row.update({f"value_{s}": t.statistics[s] for s in STATISTICS})
        row.update({f"p_{s}": t.p_values[s] for s in STATISTICS})
        rows.append(row)
    return rows


def write_tests(out: str | os.PathLike, tests) -> None:
    """CSV (by suffix) or JSON lines, written atomically."""
    from ragdx.store import atomic_write_text, write_jsonl

    path = Path(out)
    if path.suffix.lower() == ".csv":
        import csv
        import io

        rows = tests_as_rows(tests)
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        atomic_write_text(path, buf.getvalue())
    else:
        write_jsonl(path, [{**t.to_dict(), "decision": "out-of-knowledge" if t.out_of_knowledge else "in-knowledge"}
                           for t in tests])


def monitor_log(tester_dir: str | os.PathLike, log: str | os.PathLike, *, query_field: str = "question",
                timestamp_field: str | None = None, window: int = 100, step: int | None = None,
                alpha: float = 0.05, min_consecutive: int = 1, statistic: str | None = None,
                correction: str = "holm", out: str | os.PathLike | None = None, overwrite: bool = False,
                progress: Any = None, method: str = "windows", db: str | None = None):
    """Drift over a JSONL query log in arrival order. ``method="windows"``: the sliding-window KS
    test with family-wise control across the windows (Holm; ``correction="none"`` tests each
    window alone), a DriftReport; ``"sequential"``: the sequential monitor
    (:mod:`ragdx.relevance.sequential`), a SequentialReport. ``.summary()`` is one line; with
    ``out`` the report is written as JSON. Sequential, with a tester fitted with links: log rows
    that are ragdx records (``facts`` and ``query``) are monitored on the links statistic, as the
    tester tests them by default; ``db`` is their database."""
    from ragdx.relevance.drift import DriftMonitor
    from ragdx.relevance.tester import RelevanceTester
    from ragdx.store import iter_jsonl, write_json

    refuse_existing(out, overwrite)
    texts, stamps = [], []
    for number, obj in iter_jsonl(log):
        q = obj.get(query_field)
        if not isinstance(q, str) and isinstance(obj.get("facts"), list):
            q = obj.get("query")  # a ragdx record's question
        if not isinstance(q, str):
            raise RagdxError(f"missing {query_field!r}", source=str(log), field=f"line {number}")
        texts.append(q)
        if timestamp_field:
            if timestamp_field not in obj:
                raise RagdxError(f"missing {timestamp_field!r}", source=str(log), field=f"line {number}")
            stamps.append(obj[timestamp_field])
    if method == "windows" and len(texts) < window:
        raise RagdxError(f"the log has {len(texts)} queries, fewer than one window of {window}", source=str(log))
    if not texts:
        raise RagdxError("the log has no queries", source=str(log))
    tester = RelevanceTester.load(tester_dir)
    if method == "sequential":
        from ragdx.relevance.sequential import SequentialMonitor

        monitor: Any = SequentialMonitor(tester, alpha=alpha, statistic=statistic)
        links_report = _monitor_links(monitor, tester, log, query_field, db, stamps)
        if links_report is not None:
            if out is not None:
                write_json(Path(out), links_report.to_dict())
            return links_report
    else:
        monitor = DriftMonitor(tester, window=window, step=step, alpha=alpha, min_consecutive=min_consecutive,
                               statistic=statistic, correction=correction)
    from ragdx.relevance.confounds import log_note
    from ragdx.relevance.statistics import STATISTICS

    # the log's statistics once: the monitor reads them, and so does the length check
    j = STATISTICS.index(monitor.statistic)
    values = tester.statistics(texts, progress=progress)[:, j]
    report = monitor.run(values, timestamps=stamps or None)
    report.length_note = log_note(getattr(tester, "calibration_lengths_", None), [len(q) for q in texts],
                                  tester.calibration_statistics_[:, j], values)
    if out is not None:
        write_json(Path(out), report.to_dict())
    return report


def _monitor_links(monitor: Any, tester: Any, log: str | os.PathLike, query_field: str, db: str | None,
                   stamps: list[Any]) -> Any:
    """The sequential monitor on the links statistic when the tester has links, no other statistic
    was named and the log's rows are records (None otherwise: the embedding statistic is read)."""
    if tester._links() is None or monitor.named not in (None, "links"):
        return None
    _, records = records_and_queries(log, query_field)
    if not any(r is not None for r in records):
        if monitor.named == "links":
            raise RagdxError("--statistic links needs log rows that are ragdx records", source=str(log))
        return None
    if not db:
        raise RagdxError("the log's rows are records: pass --db URL (their database) for the links statistic",
                         field="--db")
    return monitor.run([None] * len(records), timestamps=stamps or None, records=records, database=db)


def parse_named_files(items: list[str] | None, option: str) -> dict[str, Path]:
    """``NAME=FILE`` pairs (a bare FILE is named after its stem)."""
    out: dict[str, Path] = {}
    for item in items or []:
        name, sep, file = item.partition("=")
        if not sep:
            name, file = Path(item).stem, item
        if not name or not file:
            raise RagdxError(f"expected NAME=FILE, got {item!r}", field=option)
        if name in out:
            raise RagdxError(f"the name {name!r} is given twice", field=option)
        out[name] = Path(file)
    return out


def boundary_report(tester_dir: str | os.PathLike, out: str | os.PathLike, *, in_knowledge: str | os.PathLike,
                    out_of_knowledge: dict[str, Path], gaps: str | os.PathLike | None = None,
                    query_field: str = "question", alpha: float | None = None, limit: int | None = None,
                    seed: int = 0, overwrite: bool = False, progress: Any = None) -> dict[str, Any]:
    """``ragdx relevance report``: the knowledge-boundary section of ``ragdx report`` for any
    tester, written to ``out`` (a ``relevance.json``). ``gaps``: a JSONL of in-domain queries whose
    facts the knowledge base leaves out, or a ragdx dataset directory (its gap records).
    ``limit`` caps each query set (a seeded sample) to keep embedding short."""
    import random

    from ragdx.relevance.boundary import boundary_results
    from ragdx.relevance.calibration import read_questions
    from ragdx.relevance.tester import RelevanceTester
    from ragdx.store import write_json

    refuse_existing(out, overwrite)
    if not out_of_knowledge:
        raise RagdxError("give at least one --out-of-knowledge NAME=FILE", field="--out-of-knowledge")

    def sample(items: list[str]) -> list[str]:
        if limit is None or len(items) <= limit:
            return items
        return random.Random(seed).sample(items, limit)

    ik = sample(read_questions(in_knowledge, field_name=query_field))
    ook = {name: sample(read_questions(f, field_name=query_field)) for name, f in out_of_knowledge.items()}
    gap_queries = None
    if gaps is not None:
        gap_queries = sample(dataset_gap_queries(gaps) if Path(gaps).is_dir()
                             else read_questions(gaps, field_name=query_field))
    tester = RelevanceTester.load(tester_dir)
    result = boundary_results(tester, ik, ook, gaps=gap_queries, alpha=alpha, seed=seed, progress=progress,
                              sources={"in_knowledge": str(in_knowledge),
                                       "out_of_knowledge": ", ".join(f"{n}={f}" for n, f in out_of_knowledge.items()),
                                       "gaps": str(gaps) if gaps else "",
                                       "calibration": f"the tester's {tester.n_calibration_} calibration queries"})
    write_json(Path(out), result)
    return result


def dataset_gap_queries(directory: str | os.PathLike) -> list[str]:
    """Queries of a ragdx dataset whose facts the knowledge base leaves out (``kb_supported`` false)."""
    from ragdx.gen.dataset import read_records

    records = read_records(Path(directory))
    out = [r.query for r in records if r.kb_supported is False and r.answer_kind != "none"]
    if not out:
        raise RagdxError("no query of the dataset is about a fact the knowledge base leaves out",
                         source=str(directory), field="kb_supported")
    return out
