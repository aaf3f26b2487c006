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
``unlinked``               searched, some fact not stated                               ``2 + m / 2 + e / 2`` (2 to 3)
``not_linkable``           a fact cannot be looked for (its row is gone, or its value   none: p-value 1
                           is a bare surrogate id): support cannot be told
``unanswerable``           no answer row, no fact to state                              none: p-value 1
no record                  free text (a query log)                                      none: not used
=========================  ==========================================================  ============

``m`` is the share of the answer's facts with no stating passage at all and ``e`` is 1 when no
document is about any entity of the record (``entity_document_ids`` empty): two tie-breakers
inside the unlinked tier, so that a question whose every fact and entity is missing ranks above
one whose second hop alone was missed.

p-values are conformal, ``(1 + #{calibration score >= s}) / (n + 1)``, against the scores of
the in-knowledge calibration questions *that have a score* (Mondrian by linkability: a
question's linkability is a property of the question, so among questions with a score the
calibration and new ones stay exchangeable). A question without a score gets p = 1 here: the
tester then combines only the other statistics for it, as for free text, and says so.

**The conformal floor.** The linker misses some stated facts (its recall on in-knowledge
questions is below 100 %): those calibration questions score in the unlinked tier, so a new
unlinked question's p-value cannot fall below about the share of calibration questions scoring
at least as high; :meth:`LinkStatistic.floor` is that p-value for the typical unlinked question
(score 2.5: half of its facts missing, its entities documented). Measured on four corpora in
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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ragdx.errors import RagdxError
from ragdx.relevance.statistics import empirical_p_values

#: bases the linker gives a record it could search (scored); the others get no score
SCORED_BASES = ("linked", "approximate", "unlinked")
#: score of an unlinked record with half of its facts missing and its entities documented: where
#: :meth:`LinkStatistic.floor` reads the smallest p-value a typical unlinked question can get
TYPICAL_UNLINKED = 2.5


def _get(record: Any, name: str, default: Any = None) -> Any:
    return record.get(name, default) if isinstance(record, Mapping) else getattr(record, name, default)


def link_score(record: Any) -> float:
    """The nonconformity score of one record the linker has linked (a ``QARecord`` or its dict):
    see the module's table; NaN when it has none (not_linkable, unanswerable, not linked)."""
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
    no_entity = not _get(record, "entity_document_ids")
    return 2.0 + missing / 2.0 + (0.5 if no_entity else 0.0)


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

    def link(self, records: Sequence[Any], database: Any) -> list[Any]:
        """The records linked against these documents (None stays None), by :func:`ragdx.kb.link.link_records`."""
        from ragdx.kb.link import FactResolver, Linker, link_records

        recs = as_records(records)
        given = [r for r in recs if r is not None]
        if not given:
            return list(recs)
        engine, schema = open_db(database)
        linked = iter(link_records(given, FactResolver(engine, schema, self.aliases), Linker(self.index())))
        return [None if r is None else next(linked) for r in recs]

    def scores(self, records: Sequence[Any], database: Any) -> np.ndarray:
        """The link score of each record (NaN: no record, or no score; see the module's table)."""
        return np.array([float("nan") if r is None else link_score(r) for r in self.link(records, database)])

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
        """The p-value of a typical unlinked question (score 2.5): how far the linker's misses on
        in-knowledge questions let an unlinked question's p-value fall."""
        return float(self.p_values(np.array([TYPICAL_UNLINKED]))[0])

    def recall(self) -> float:
        """Share of the scored calibration questions the linker found stated (linked tier)."""
        return float((self.calibration_scores_ <= 0.5).mean())
