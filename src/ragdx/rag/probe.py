"""Probes: ask the system for a document in the document's own words, to tell a document missing
from the index it searches from one its retriever cannot reach.

A document that states facts the questions need but that no query of a run ever retrieved is
either absent from what the system searches (deleted, not yet indexed, filtered out: a
knowledge-base gap) or present but out of the retriever's reach (a retrieval failure). From the
run's outputs alone the two look the same. A person would settle it by searching for the
document with its own words: its title and a distinctive sentence. A retriever that cannot
bring a document back to a query made of that document's own text, while it does return
contexts, very likely does not hold it; one that brings it back holds it, and the queries that
needed it are retrieval failures.

The probes go through the system's ordinary interface (:class:`ragdx.rag.types.System`), as any
query does (:func:`ragdx.rag.runner.answer_query`: a system that raises or breaks the protocol
leaves a recorded failure). They are written whole to ``probes.jsonl`` in the run directory
(``ragdx.rag.rundir.PROBES``, one :class:`ProbeResult` a line, written atomically like the
run's inputs), and :func:`probe_summary` gives ``evaluate`` one outcome per document. A failed
probe (an error, or no contexts returned at all) is recorded with its reason, counted, and never
read as "not found".
"""

from __future__ import annotations

import asyncio
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from ragdx.errors import RagdxError
from ragdx.rag.rundir import RunPaths
from ragdx.rag.types import System, SystemInput

__all__ = ["ProbeResult", "DocumentProbe", "ProbeRun", "probe_queries", "probe_documents", "aprobe_documents",
           "write_probes", "read_probes", "probe_summary", "never_retrieved_documents", "probe_run",
           "can_probe", "PROBES_PER_DOCUMENT", "PROBE_WORDS"]

#: probes per document: its title with its first sentence, then its most distinctive sentence (a
#: second span, so that a near-duplicate document sharing the opening does not hide it), then its
#: title with the next most distinctive one (monthly digests differ from each other by a month in
#: the title and by their rows, not by either alone). A probe can only show a document present
#: (it came back by its id), so more probes only make "absent" rarer when it is wrong
PROBES_PER_DOCUMENT = 3
#: a probe query is cut to this many words (a retriever's query, not a document)
PROBE_WORDS = 32
#: the system's kinds that replay answers someone already produced: they cannot be asked anything new
REPLAY_KINDS = frozenset({"results", "traces"})
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(slots=True)
class ProbeResult:
    """One probe: the query made of ``doc_id``'s words and what the system returned for it."""

    doc_id: str
    #: which probe of the document (0: title and first sentence, 1: most distinctive sentence)
    probe: int
    query: str
    #: the document came back among the contexts; None when the probe failed (see ``error``)
    found: bool | None
    #: 1-based rank of the document among the returned contexts (None: not among them)
    rank: int | None = None
    #: the ids the system returned, as it returned them (mapped to documents again when read)
    retrieved: list[str] = field(default_factory=list)
    #: why the probe tells nothing: the system's error, or no contexts returned at all
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any], *, source: str = "", line: int = 0) -> ProbeResult:
        names = {f.name for f in fields(cls)}
        missing = [n for n in ("doc_id", "probe", "query", "found") if n not in obj]
        if missing or not isinstance(obj.get("doc_id"), str) or not isinstance(obj.get("retrieved", []), list):
            raise RagdxError(f"not a probe record (needs doc_id, probe, query, found; retrieved a list): "
                             f"{', '.join(missing) or 'bad types'}", source=source, field=f"line {line}")
        return cls(**{k: v for k, v in obj.items() if k in names})


@dataclass(slots=True)
class DocumentProbe:
    """What the probes of one document showed, as ``evaluate`` reads it."""

    #: True: some probe brought it back (present); False: every probe returned contexts and none
    #: held it (very likely absent); None: a probe failed and none found it (nothing known)
    found: bool | None
    #: the probe that found it, or the first one that did not
    query: str
    rank: int | None = None
    probes: int = 0
    failed: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True)
class ProbeRun:
    """What :func:`probe_run` did: the documents it probed, the results, and why it probed none."""

    documents: int = 0
    results: list[ProbeResult] = field(default_factory=list)
    skipped: str | None = None
    #: False where probes have nothing to settle (a dataset without evidence documents): nothing to say
    applicable: bool = True

    @property
    def found(self) -> int:
        return sum(1 for p in _by_document(self.results).values() if p.found)

    @property
    def not_found(self) -> int:
        return sum(1 for p in _by_document(self.results).values() if p.found is False)

    @property
    def failed(self) -> int:
        return sum(1 for r in self.results if r.found is None)

    def line(self) -> str:
        """One sentence for the person who ran it."""
        if self.skipped:
            return f"probes: none ({self.skipped})"
        if not self.documents:
            return "probes: none needed (every evidence document was retrieved by some query)"
        unknown = self.documents - self.found - self.not_found
        return (f"probes: {self.documents} evidence documents no query retrieved, asked for in their own words "
                f"({len(self.results)} probes): {self.found} came back (in the index), {self.not_found} never did "
                f"(likely absent)" + (f", {unknown} unknown" if unknown else "")
                + (f"; {self.failed} probes failed" if self.failed else ""))


# ----------------------------------------------------------------------------- the queries


def _words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


def _clip(text: str, words: int = PROBE_WORDS) -> str:
    parts = text.split()
    return " ".join(parts[:words])


def _title_and_body(text: str, title: str | None) -> tuple[str, list[str]]:
    """The document's title (given, or its first line without markup) and its sentences after it."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if title is None and lines:
        title = lines[0].lstrip("#").strip()
        lines = lines[1:]
    elif title and lines and lines[0].lstrip("#").strip() == title:
        lines = lines[1:]
    sentences = [s.strip().lstrip("#-*| ").strip() for s in _SENTENCE.split("\n".join(lines))]
    return (title or "").strip(), [s for s in sentences if len(_words(s)) >= 3]


def probe_queries(text: str, *, title: str | None = None, df: Mapping[str, int] | None = None, n_docs: int = 0,
                  n: int = PROBES_PER_DOCUMENT) -> list[str]:
    """Up to ``n`` probe queries made of a document's own words: its title with its first
    sentence, then the sentence whose words are rarest in the corpus (``df``: document frequency
    of each word over ``n_docs`` documents; without it, the longest sentence) — a second span,
    which a near-duplicate sharing the opening does not also hold."""
    head, sentences = _title_and_body(text, title)
    first = sentences[0] if sentences else ""

    def titled(sentence: str) -> str:  # the title once, though the sentence may open with it
        return _clip(sentence if head and sentence.casefold().startswith(head.casefold()) else f"{head} {sentence}")

    out = [titled(first).strip()] if head or first else []

    def rarity(sentence: str) -> float:
        words = set(_words(sentence))
        if not words:
            return 0.0
        if not df or not n_docs:
            return float(len(words))
        return sum(math.log((n_docs + 1) / (df.get(w, 0) + 1)) for w in words) / math.sqrt(len(words))

    rest = sorted((s for s in sentences[1:] if s != first), key=lambda s: -rarity(s))
    # the rarest sentence alone, then the title with the next rarest (see PROBES_PER_DOCUMENT)
    for q in [_clip(s) if i == 0 else titled(s).strip() for i, s in enumerate(rest[:2])]:
        if len(out) < n and q and q not in out:
            out.append(q)
    return [q for q in out if q][:n]


def document_frequencies(texts: Iterable[str]) -> tuple[Counter[str], int]:
    """Document frequency of every word, and the number of documents (for :func:`probe_queries`)."""
    df: Counter[str] = Counter()
    n = 0
    for text in texts:
        df.update(set(_words(text)))
        n += 1
    return df, n


# ----------------------------------------------------------------------------- asking the system


def _default_map(ids: Sequence[str], doc_id: str) -> list[str]:
    """Without the knowledge base's ids: a chunk id of ``doc_id`` (``doc#3``) reads as ``doc_id``."""
    out = []
    for rid in ids:
        for sep in ("#", "::", "|", "@"):
            if rid.startswith(doc_id + sep):
                rid = doc_id
                break
        out.append(rid)
    return out


async def aprobe_documents(system: System, docs: Mapping[str, Sequence[str]], *,
                           map_ids: Callable[[Sequence[str]], list[str]] | None = None,
                           concurrency: int = 4) -> list[ProbeResult]:
    """Ask ``system`` every probe query of ``docs`` (doc id -> its queries) and record whether
    the document came back among the contexts. ``map_ids`` maps returned ids to document ids
    (chunk ids, file paths: ``ragdx.evaluate.runs.map_retrieved_ids``)."""
    from ragdx.rag.runner import answer_query

    jobs = [(doc, i, q) for doc, queries in docs.items() for i, q in enumerate(queries)]
    prepare = getattr(system, "prepare", None)
    if callable(prepare) and jobs:  # per-query work a system does for all its queries at once
        await asyncio.to_thread(prepare, [q for _, _, q in jobs])
    slots = asyncio.Semaphore(max(1, concurrency))

    async def one(doc: str, i: int, query: str) -> ProbeResult:
        async with slots:
            out = await answer_query(system, SystemInput(id=f"probe:{doc}:{i}", query=query))
        raw = [str(x) for x in out.retrieved_ids]
        if not raw:
            # nothing returned tells nothing: a system that returns no contexts (or failed before
            # retrieving) would make every document look absent
            return ProbeResult(doc, i, query, None, error=out.error or "no contexts returned")
        # contexts came back: the retriever answered, whatever the reader did after (its error is kept)
        ids = map_ids(raw) if map_ids is not None else _default_map(raw, doc)
        rank = ids.index(doc) + 1 if doc in ids else None
        return ProbeResult(doc, i, query, rank is not None, rank=rank, retrieved=raw, error=out.error)

    return list(await asyncio.gather(*(one(*job) for job in jobs)))


def probe_documents(system: System, docs: Mapping[str, Sequence[str]], **options: Any) -> list[ProbeResult]:
    """:func:`aprobe_documents` outside an event loop."""
    return asyncio.run(aprobe_documents(system, docs, **options))


# ----------------------------------------------------------------------------- the file


def write_probes(run_dir: str | Path, results: Sequence[ProbeResult]) -> Path:
    """``probes.jsonl`` of the run directory, written whole (atomically) like its inputs."""
    from ragdx.store import write_jsonl

    path = RunPaths(Path(run_dir)).probes
    write_jsonl(path, (r.to_dict() for r in results))
    return path


def read_probes(run_dir: str | Path) -> list[ProbeResult]:
    """The run's probes ([] when it has none); a line that is not a probe record is bad input."""
    from ragdx.store import iter_jsonl

    path = RunPaths(Path(run_dir)).probes
    if not path.exists():
        return []
    return [ProbeResult.from_dict(obj, source=str(path), line=n) for n, obj in iter_jsonl(path)]


def _by_document(results: Iterable[ProbeResult]) -> dict[str, DocumentProbe]:
    out: dict[str, DocumentProbe] = {}
    for r in sorted(results, key=lambda r: (r.doc_id, r.probe)):
        p = out.setdefault(r.doc_id, DocumentProbe(found=False, query=r.query))
        p.probes += 1
        if r.found is None:
            p.failed += 1
        elif r.found and not p.found:
            p.found, p.query, p.rank = True, r.query, r.rank
    for p in out.values():
        if not p.found and p.failed:
            p.found = None  # a probe that failed might have found it
    return out


def probe_summary(run_dir: str | Path, map_ids: Callable[[Sequence[str]], list[str]] | None = None
                  ) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Per probed document, what its probes showed (:class:`DocumentProbe` as a dict), with the
    returned ids mapped again by ``map_ids`` (the evaluation's own mapping to the knowledge
    base's ids); and the warnings to show (failed probes, counted)."""
    results = read_probes(run_dir)
    if map_ids is not None:
        for r in results:
            if r.found is not None:
                ids = map_ids(r.retrieved)
                r.rank = ids.index(r.doc_id) + 1 if r.doc_id in ids else None
                r.found = r.rank is not None
    docs = _by_document(results)
    notes = []
    failed = [r for r in results if r.found is None]
    if failed:
        reasons = Counter((r.error or "failed")[:80] for r in failed)
        top = "; ".join(f"{n} × {e}" for e, n in reasons.most_common(3))
        notes.append(f"{len(failed)} of {len(results)} probes failed ({top}): their documents' verdicts stay unsure "
                     "unless another probe found them")
    return {d: p.to_dict() for d, p in docs.items()}, notes


# ----------------------------------------------------------------------------- a run's probes


def never_retrieved_documents(gold: Iterable[Iterable[str]], retrieved: Iterable[Iterable[str]]) -> list[str]:
    """Evidence documents (``gold``: each record's) that no answer (``retrieved``: each output's
    ids, mapped to documents) ever held, sorted."""
    seen = {d for ids in retrieved for d in ids}
    return sorted({d for ids in gold for d in ids} - seen)


def can_probe(system: System) -> str | None:
    """Why ``system`` cannot be probed (None: it can): a replay of answers already produced
    cannot be asked anything new."""
    try:
        kind = (system.describe() or {}).get("kind")
    except Exception as exc:  # describe() is the system's own code; its failure is the reason
        return f"describe() failed: {type(exc).__name__}"
    if kind in REPLAY_KINDS:
        return f"a {kind} system replays answers already produced and cannot be asked new queries"
    return None


def probe_run(system: System, run_dir: str | Path, records: Sequence[Any], texts: Mapping[str, str], *,
              titles: Mapping[str, str | None] | None = None,
              map_ids: Callable[[Sequence[str]], list[str]] | None = None,
              concurrency: int = 4, build: bool = False) -> ProbeRun:
    """Probe the evidence documents of ``records`` (``gold_document_ids``) that no query of the
    run in ``run_dir`` retrieved, with queries made of their text (``texts``: the knowledge base
    the dataset was linked in, id -> text), and write ``probes.jsonl``. ``build``: build the
    system first (a system made for this call; one that just ran is built already)."""
    from ragdx.rag.rundir import read_inputs, read_run

    why = can_probe(system)
    if why:
        return ProbeRun(skipped=why)
    outputs = read_run(run_dir, inputs=read_inputs(run_dir))
    captured = [o.retrieved_ids for o in outputs if o.retrieved_ids]
    if not captured:
        return ProbeRun(skipped="the run captured no retrieved contexts: nothing to compare probes with")
    mapped = [map_ids(ids) if map_ids is not None else list(ids) for ids in captured]
    gold = [list(getattr(r, "gold_document_ids", None) or []) for r in records]
    unseen = [d for d in never_retrieved_documents(gold, mapped) if d in texts]
    if not unseen:
        write_probes(run_dir, [])  # no stale probes of an earlier run left behind
        return ProbeRun()
    df, n = document_frequencies(texts.values())
    queries = {d: probe_queries(texts[d], title=(titles or {}).get(d), df=df, n_docs=n) for d in unseen}
    if build and callable(getattr(system, "build", None)):
        system.build()  # type: ignore[attr-defined]
    results = probe_documents(system, {d: q for d, q in queries.items() if q}, map_ids=map_ids,
                              concurrency=concurrency)
    # a document with no words to probe with is recorded as a failed probe, never as absent
    results += [ProbeResult(d, 0, "", None, error="no text to probe with") for d, q in queries.items() if not q]
    write_probes(run_dir, results)
    return ProbeRun(documents=len(unseen), results=results)
