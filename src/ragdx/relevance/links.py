"""Whether the corpus states the facts a question's record rests on: the evidence linker as a statistic.

The names and facts statistics (:mod:`ragdx.relevance.names`, :mod:`ragdx.relevance.facts`) read
only a question's words. A question that comes with its *record* (every question ``ragdx gen``
makes: its SQL facts ``Table.Column@key``, its entities and its answer) can be asked directly
whether the corpus states what the answer needs: the evidence linker (:mod:`ragdx.kb.link`, used
here as a library, unchanged) finds, for each fact, the passages of the tester's corpus that
state it, with a weight (1 a sentence naming the subject and stating the value, 0.9 through a
heading or the document's subject, 0.8 through a paragraph's opening; stated from 0.5). This
module turns its result into a nonconformity score, larger = less stated:

=========================  ==========================================================  ============
linker's ``kb_basis``      meaning                                                     score
=========================  ==========================================================  ============
``linked``                 every fact stated; ``w`` = the weakest fact's best weight    ``1 - w`` (0 to 0.5)
``approximate``            every fact written, some only at a lower precision           ``1 + (1 - w)`` (1 to 2)
                           (a month for a day): the answer cannot be read off them
``unlinked``               searched, some fact not stated: graded by how much of it     ``2 + 0.9 (1 - f)``
                           the corpus still writes (``f``, below) and the share ``m``   ``+ 0.1 m`` (2 to 3)
                           of the answer's facts with no stating passage
``not_linkable``           a fact cannot be looked for (its row is gone, or its value   none: p-value 1
                           is a bare surrogate id): support cannot be told
``unanswerable``           no answer row, no fact to state                              none: p-value 1
no record                  free text (a query log)                                      none: not used
=========================  ==========================================================  ============

**The graded unlinked tier.** The linker misses some stated facts (its recall on in-knowledge
questions is below 100 %: a name written otherwise, a value in a form it does not read). Scored
alike, those calibration questions tie with every question whose fact is truly left out, and
no p-value can fall below their share (the conformal floor, below). So an unlinked record is
graded by how much of each fact the linker did not find stated the corpus still writes
(:func:`record_evidence`, :class:`HopEvidence`): whether its subject is named in some passage
or has a document, the largest share of its value's words written in one passage naming the
subject, and whether its value is written anywhere; ``f`` is the mean of the three, averaged
over the unstated facts (a fact that only names its entity: named or not; a record read back
without its evidence scores ``2 + m``). A fact the linker
missed is usually half-found (its value written, its subject named), a left-out one is not, so
the ties break in the right direction, on average. Measured on nine development corpora
(``benchmarks/results/relevance_indomain.md``): with the linker's misses raised to Fernleigh's
19 % of the in-knowledge questions, the share of entity-absent / fact-absent questions rejected
at alpha = 0.05 rose from 0.35 / 0.16 to 0.46 / 0.28 (mean over corpora; two corpora lose), AUROC
0.93 / 0.88 -> 0.94 / 0.89. On the held-out Fernleigh AUROC rose (0.946 / 0.892 -> 0.959 / 0.895,
off-domain 0.968 -> 0.996) but the share rejected at alpha fell (0.69 / 0.23 -> 0.39 / 0.00).

p-values are conformal, ``(1 + #{calibration score >= s}) / (n + 1)``, against the scores of
the in-knowledge calibration questions *that have a score* (Mondrian by linkability: a
question's linkability is a property of the question, so among questions with a score the
calibration and new ones stay exchangeable). A question without a score gets p = 1 here: the
tester then combines only the other statistics for it, as for free text, and says so.

**The conformal floor.** The linker misses some stated facts (its recall on in-knowledge
questions is below 100 %): those calibration questions score in the unlinked tier, so a new
unlinked question's p-value cannot fall below about the share of calibration questions scoring
at least as high; :meth:`LinkStatistic.floor` is that p-value for the typical unlinked question
(one fact whose subject the corpus names but whose value it writes nowhere). Measured in
``benchmarks/results/relevance_indomain.md``.

**In the tester** (:class:`ragdx.relevance.tester.RelevanceTester`, ``links=True``): a question
with a score is tested by the links p-value alone (``links_weight`` w = 1, the default), or by
the weighted Bonferroni combination ``min(1, p_links / w, min_i p_i m / (1 - w))`` with the m
others (energy, names, facts when on) for w < 1. Measured on four corpora (Northwind, Kestrel,
Wexcombe Press, and Fernleigh held out), links alone rejects at alpha = 0.05 as much as or more
than w = 0.8 or equal weights (which divide the floor by w, or multiply it by 3) with AUROC
within 0.015 of them, its false rejections within alpha + 2 s.e.

**Calibration selected by the linker.** ``ragdx relevance calibrate --dataset`` takes a
dataset's ``kb_supported`` records as in-knowledge: the linker chose them, so every calibration
question is ``linked`` and any unlinked question gets the smallest p-value. The p-values are then
valid for "stated *as the linker reads it*"; a question whose fact is stated in words the linker
misses is rejected. Calibrating on questions labelled otherwise (a writer's truth, people)
avoids that.

**On by default where the questions come with their records.** ``ragdx relevance calibrate``
turns links on (``links="auto"``) when its calibration questions are ragdx records whose database
it knows (``--dataset`` with a database in its manifest, or ``--queries`` rows that are records
and ``--db``), off otherwise (synthesized questions, free text, no database); ``--links`` /
``--no-links`` decide instead, and the summary's ``statistic`` line says which statistic tests a
question with its record and one without. Why: on the nine development corpora links alone
reaches AUROC 0.92-1.00 where the entity is left out and 0.81-1.00 where only the fact is, against
0.77-0.98 / 0.45-0.67 for Energy + names where both were measured, false rejections within alpha
(``benchmarks/results/relevance_indomain.md``); a question asked without its record (a query log)
is tested as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from ragdx.errors import RagdxError
from ragdx.relevance.statistics import empirical_p_values


class HopEvidence(NamedTuple):
    """How much of one unstated fact the corpus writes (:func:`hop_evidence`)."""

    #: its subject is named in some passage, or some document is about it
    named: bool
    #: its value is written (every phrase of one of its forms) in a passage naming the subject or
    #: in a document about it
    near: bool
    #: its value is written somewhere in the corpus
    anywhere: bool
    #: the largest share of the words of one of the value's forms written in one passage naming
    #: the subject (or of a document about it): the value half-written beside its subject
    near_share: float

    def found(self) -> float:
        """How much of the fact is written, 0 to 1: the mean of named, near_share and anywhere."""
        return (float(self.named) + self.near_share + float(self.anywhere)) / 3.0


#: bases the linker gives a record it could search (scored); the others get no score
SCORED_BASES = ("linked", "approximate", "unlinked")
#: score of a typical unlinked record: one fact not stated, its subject named in the corpus but its
#: value written nowhere (evidence 1/3): where :meth:`LinkStatistic.floor` reads the smallest p-value
#: such a question can get
TYPICAL_UNLINKED = 2.7
#: in the unlinked tier, the weight of how much of the unstated facts the corpus does not write; the
#: rest weighs the share of the answer's facts with no stating passage
UNWRITTEN_WEIGHT = 0.9
#: score of an unlinked record of which the corpus writes nothing (no subject named, no value)
NOTHING_WRITTEN = 3.0


def _get(record: Any, name: str, default: Any = None) -> Any:
    return record.get(name, default) if isinstance(record, Mapping) else getattr(record, name, default)


def link_score(record: Any, evidence: Sequence[HopEvidence] | None = None) -> float:
    """The nonconformity score of one record the linker has linked (a ``QARecord`` or its dict):
    see the module's table; NaN when it has none (not_linkable, unanswerable, not linked).

    ``evidence``: the :func:`record_evidence` of an unlinked record (what
    :meth:`LinkStatistic.scores` passes); without it an unlinked record is graded by the share of
    its facts with no stating passage alone (a record read back from a file)."""
    basis = _get(record, "kb_basis", "")
    if basis not in SCORED_BASES:
        return float("nan")
    weight = _get(record, "evidence_confidence")
    weight = 0.0 if weight is None else float(weight)
    if basis == "linked":
        return 1.0 - weight
    if basis == "approximate":
        return 2.0 - weight
    sets = _get(record, "evidence_sets") or []
    missing = sum(1 for s in sets if not s) / len(sets) if sets else 1.0
    if evidence is None:
        return 2.0 + missing
    unwritten = float(np.mean([1.0 - e.found() for e in evidence])) if evidence else 1.0
    return 2.0 + UNWRITTEN_WEIGHT * unwritten + (1.0 - UNWRITTEN_WEIGHT) * missing


def hop_evidence(hop: Any, linker: Any) -> HopEvidence:
    """How much of one fact the linker did not find stated the corpus still writes. ``hop`` a
    :class:`ragdx.kb.link.Hop`, ``linker`` the Linker that did not find it (its index and caches)."""
    idx = linker.index
    near: set[int] = set()
    for entity, names in hop.subjects:
        for all_of, _ in names:
            if len(all_of) == 1:
                near |= idx.find(all_of[0])
        for d in linker.about(entity, names):
            near.update(idx.doc_passages(d))
    anywhere = near_value = False
    share = 0.0
    for all_of, _ in hop.value:
        found: set[int] | None = None
        for p in all_of:
            hit = idx.find(p)
            found = set(hit) if found is None else found & hit
            if not found:
                break
        if found:
            anywhere = True
            near_value = near_value or bool(found & near)
        words = [w for p in all_of for w in p.split()]
        if words and near:
            counts: dict[int, int] = {}
            for w in set(words):
                for pid in idx.find(f" {w} ") & near:
                    counts[pid] = counts.get(pid, 0) + 1
            share = max(share, max(counts.values(), default=0) / len(set(words)))
    return HopEvidence(bool(near), near_value, anywhere, 1.0 if near_value else share)


def record_evidence(record: Any, resolver: Any, linker: Any) -> list[HopEvidence]:
    """The :func:`hop_evidence` of each fact the answer needs that the linker found no passage
    stating (the answer's facts as the linker reads them: a join's key is no answer fact, and a
    question whose answer is names alone needs its names). A fact that only names its entity is
    written when its entity is named."""
    from ragdx.kb.link import implied_rows

    hops = [h for h in (resolver.hop(f) for f in record.facts) if h is not None]
    answer = implied_rows([h for h in hops if not h.identity], resolver) or [h for h in hops if h.identity]
    out = []
    for hop in answer:
        if linker.link(hop).docs:
            continue
        ev = hop_evidence(hop, linker)
        out.append(ev if hop.value else HopEvidence(ev.named, ev.named, ev.named, float(ev.named)))
    return out


def as_records(records: Sequence[Any]) -> list[Any]:
    """``QARecord`` objects from records or their dicts (a dataset's JSONL lines); None stays None."""
    from pydantic import TypeAdapter, ValidationError

    from ragdx.gen.dataset import QARecord

    adapter = TypeAdapter(QARecord)
    out: list[Any] = []
    for i, r in enumerate(records):
        if r is None or isinstance(r, QARecord):
            out.append(r)
            continue
        if not isinstance(r, Mapping):
            raise RagdxError(f"record {i} is a {type(r).__name__}, not a ragdx record", field="records")
        try:
            out.append(adapter.validate_python({k: v for k, v in r.items() if k in QARecord.__dataclass_fields__}))
        except ValidationError as exc:
            raise RagdxError(f"record {i} is not a ragdx record ({exc.errors()[0]['msg']})",
                             field="records") from None
    return out


def open_db(database: Any) -> tuple[Any, Any]:
    """(engine, schema) from a URL (``sqlite:///file``) or an (engine, schema) pair."""
    if isinstance(database, tuple) and len(database) == 2:
        return database
    if not isinstance(database, str) or not database:
        raise RagdxError("the records' database is needed to link them: give its URL", field="database")
    from ragdx.gen.pipeline import open_database

    return open_database(database)


class LinkStatistic:
    """The corpus's documents as the linker reads them, and the calibration questions' link scores.

    ``documents``: (id, text) pairs, or texts (ids ``chunk-0``, ``chunk-1``, …; the linker also
    reads a document's id as what it is about, so real ids link a little more). ``aliases``: other
    names of entities (``ragdx.yaml``'s ``aliases:``)."""

    def __init__(self, documents: Sequence[tuple[str, str]] | Sequence[str],
                 aliases: Mapping[str, Sequence[str]] | None = None):
        pairs = [(f"chunk-{i}", d) if isinstance(d, str) else (str(d[0]), str(d[1])) for i, d in enumerate(documents)]
        if not pairs:
            raise RagdxError("no documents to link against", field="corpus")
        self.documents = pairs
        self.aliases = dict(aliases or {})
        self._index: Any = None
        self._tools_for: tuple[Any, Any, Any] | None = None

    def index(self) -> Any:
        """The linker's passage index of the documents (built on first use)."""
        if self._index is None:
            from ragdx.kb.link import PassageIndex
            from ragdx.rag.corpus import Corpus, Document

            seen: dict[str, int] = {}
            docs = []
            for doc_id, text in self.documents:  # a chunked corpus may repeat a document's id
                seen[doc_id] = seen.get(doc_id, 0) + 1
                docs.append(Document(doc_id if seen[doc_id] == 1 else f"{doc_id}#{seen[doc_id]}", text))
            self._index = PassageIndex(Corpus(docs))
        return self._index

    def _tools(self, database: Any) -> tuple[Any, Any]:
        """(resolver, linker) for one database: the linker's caches serve the graded evidence too."""
        from ragdx.kb.link import FactResolver, Linker

        key = database if isinstance(database, str) else id(database)
        if self._tools_for is None or self._tools_for[0] != key:
            engine, schema = open_db(database)
            self._tools_for = (key, FactResolver(engine, schema, self.aliases), Linker(self.index()))
        return self._tools_for[1], self._tools_for[2]

    def link(self, records: Sequence[Any], database: Any) -> list[Any]:
        """The records linked against these documents (None stays None), by :func:`ragdx.kb.link.link_records`."""
        from ragdx.kb.link import link_records

        recs = as_records(records)
        given = [r for r in recs if r is not None]
        if not given:
            return list(recs)
        resolver, linker = self._tools(database)
        linked = iter(link_records(given, resolver, linker))
        return [None if r is None else next(linked) for r in recs]

    def evidence(self, records: Sequence[Any], database: Any) -> list[Any]:
        """The records linked, each as ``(record, evidence)``: an unlinked record's
        :func:`record_evidence`, None for the others; None (no record) stays None."""
        linked = self.link(records, database)
        resolver, linker = self._tools(database)
        out: list[Any] = []
        for r in linked:
            if r is None:
                out.append(None)
                continue
            out.append((r, record_evidence(r, resolver, linker) if r.kb_basis == "unlinked" else None))
        return out

    def scores(self, records: Sequence[Any], database: Any) -> np.ndarray:
        """The link score of each record, graded by its evidence (NaN: no record, or no score; see
        the module's table)."""
        return np.array([float("nan") if r is None else link_score(*r) for r in self.evidence(records, database)])

    def fit(self, records: Sequence[Any], database: Any) -> LinkStatistic:
        """Calibrate on the in-knowledge calibration questions' records."""
        return self.fit_scores(self.scores(records, database))

    def fit_scores(self, scores: np.ndarray) -> LinkStatistic:
        scores = np.asarray(scores, dtype=np.float64)
        self.calibration_scores_ = np.sort(scores[np.isfinite(scores)])
        #: calibration questions without a record or a score (p-values are read among the others)
        self.n_unscored_ = int((~np.isfinite(scores)).sum())
        if self.calibration_scores_.size < 2:
            raise RagdxError(f"links need at least 2 calibration questions with a linked record, got "
                             f"{self.calibration_scores_.size}", field="records")
        return self

    def p_values(self, scores: np.ndarray) -> np.ndarray:
        """Conformal p-value per score; 1 where there is no score."""
        scores = np.asarray(scores, dtype=np.float64)
        out = np.ones(scores.shape)
        known = np.isfinite(scores)
        if known.any():
            out[known] = empirical_p_values(scores[known], self.calibration_scores_)
        return out

    def floor(self) -> float:
        """The p-value of a typical unlinked question (:data:`TYPICAL_UNLINKED`: a fact whose subject
        the corpus names but whose value it writes nowhere): how far the linker's misses on
        in-knowledge questions let an unlinked question's p-value fall."""
        return float(self.p_values(np.array([TYPICAL_UNLINKED]))[0])

    def recall(self) -> float:
        """Share of the scored calibration questions the linker found stated (linked tier)."""
        return float((self.calibration_scores_ <= 0.5).mean())
