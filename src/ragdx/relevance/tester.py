"""The knowledge-boundary tester: a goodness-of-fit test of each query against in-knowledge queries.

``RelevanceTester`` is a scikit-learn-style estimator. ``fit`` takes the corpus (chunk embeddings,
or chunk texts for BM25) and in-knowledge calibration queries; it keeps, for every calibration
query, its k nearest similarities. A new query's p-value is the right tail of the calibration
distribution of the chosen statistic, with the +1 correction:

    p = (1 + #{calibration statistic >= s}) / (n + 1)

so that, when the new query and the calibration queries are exchangeable (drawn alike from the
in-knowledge distribution), P(p <= alpha) <= alpha at every alpha: rejecting at p <= alpha
falsely rejects at most an alpha share of in-knowledge queries.

Defaults, and why:

* ``k = 10``: a usual retrieval depth for RAG, so the statistics describe the neighbourhood the
  generator will actually see; Fisher and Simes get ten per-neighbour tests to combine. The paper
  found every statistic but Entropy stable across k (its Figure 4).
* ``temperature = 0.05``: all-MiniLM-L6-v2 (like most sentence-transformers retrievers) was trained
  with a contrastive loss at scale 20, i.e. a softmax over cosine similarities at temperature 0.05.
  Energy and Entropy at that temperature are the model's own retrieval distribution; at T = 1 the
  softmax over cosines in [-1, 1] is almost uniform and Entropy is close to log k for every query.
  For BM25 scores use a temperature around 1.
* ``statistic = "energy"``: the paper's default for its comparisons (Table 2) and among the best on
  both corpora; MSS was better on PubMed in the paper, so the benchmark reports all seven.
* ``search = "auto"``: exact search up to 50,000 chunks, an inverted-file index (IVF) above, where
  exact search costs ~20 ms a query on two cores. The p-values stay valid either way (calibration
  and new queries go through the same search); see :class:`ragdx.relevance.index.IVFIndex`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

import numpy as np

from ragdx.errors import RagdxError
from ragdx.relevance.index import BM25Index, DenseIndex, IVFIndex
from ragdx.relevance.statistics import STATISTICS, compute_statistics, empirical_p_values
from ragdx.store import sha256_file

if TYPE_CHECKING:
    from ragdx.relevance.links import LinkStatistic
    from ragdx.relevance.names import NameIndex

FORMAT = "ragdx-relevance-tester"
FORMAT_VERSION = 1
MANIFEST = "relevance-tester.json"

Queries = Sequence[str] | np.ndarray


@dataclass(frozen=True, slots=True)
class QueryTest:
    """The test of one query. ``out_of_knowledge`` is the decision: p_value <= alpha."""

    index: int
    query: str | None
    statistic: str
    value: float
    p_value: float
    alpha: float
    out_of_knowledge: bool
    statistics: dict[str, float]
    p_values: dict[str, float]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _check_statistic(name: str) -> str:
    if name not in STATISTICS:
        raise RagdxError(f"unknown statistic {name!r} (choose from {', '.join(STATISTICS)})", field="statistic")
    return name


def _check_power(alpha: float, n: int) -> None:
    """The smallest p-value is 1/(n+1): with fewer calibration queries than that, nothing is ever
    rejected, which would look like "all in-knowledge" rather than "cannot tell"."""
    if 1.0 / (n + 1.0) > alpha:
        raise RagdxError(f"with {n} calibration queries the smallest p-value is 1/{n + 1}, above alpha={alpha}: "
                         f"no query could be rejected (need at least {int(np.ceil(1 / alpha)) - 1})",
                         field="calibration")


def _check_alpha(alpha: float) -> float:
    if not (isinstance(alpha, int | float) and 0.0 < float(alpha) < 1.0):
        raise RagdxError(f"alpha must be strictly between 0 and 1, got {alpha!r}", field="alpha")
    return float(alpha)


class RelevanceTester:
    """``RelevanceTester(k=10, temperature=0.05, statistic="energy", alpha=0.05, retriever="dense",
    embedder=None, search="auto", names="auto")``.

    ``names`` ("auto": on when the corpus and the calibration queries are given as texts; True
    requires them) adds what only the corpus's words can show: whether the corpus writes the
    names a query uses, and writes together the ones it ties together
    (:mod:`ragdx.relevance.names`). A query's p-value is then the Bonferroni
    combination ``min(1, 2 min(p_statistic, p_names))``, still valid at every level; it finds a
    question about a customer the corpus never mentions, which the embedding statistics cannot
    (Northwind's corpus: Energy 0.46 AUROC, Energy + names 0.97, on questions about entities
    the corpus never documents), and costs nothing measurable on the paper's setting 1 (AUROC
    within -0.003 / +0.011 of Energy's on its six sets): hence on by default. Drift and the
    monitor use the chosen statistic alone.

    ``links`` (off by default) adds, for a question that comes with its ragdx record (its SQL
    facts and answer: every question ``ragdx gen`` makes), whether the evidence linker finds each
    fact stated in the corpus (:mod:`ragdx.relevance.links`): ``fit(..., records=, database=)``
    calibrates it on the calibration questions' records, ``test(..., records=, database=)`` uses it
    for the questions given with a record. ``links_weight`` w = 1 (the default): such a
    question's p-value is the links p-value alone (``QueryTest.statistic`` ``links``); w < 1:
    the weighted Bonferroni combination with every other statistic on (``energy+names+links``:
    links weigh w, the others share 1 - w). Chosen by measurement
    (benchmarks/results/relevance_indomain.md): the linker's misses on in-knowledge questions put
    a floor of 0.01-0.12 under an unlinked question's p-value, and dividing it by w < 1 (or by 3,
    equal weights) lost most of what it rejects at alpha = 0.05 on four corpora, for no AUROC
    gained. A question without a record (free text, a query log), or one the linker cannot score
    (not_linkable, unanswerable), keeps the combination without links, and
    ``QueryTest.statistic`` says which was used.

    ``embedder`` (a :class:`ragdx.embed.Embedder`) turns query texts into embeddings for the dense
    retriever; None uses the packaged MiniLM when texts are given. Embeddings can always be passed
    directly instead of texts.

    Fitted attributes: ``index_`` (the corpus index), ``calibration_topk_`` (n, k similarities),
    ``calibration_statistics_`` (n, 7), ``n_calibration_``, ``embedding_model_``.
    """

    #: corpora at least this large use the IVF index when ``search="auto"``
    IVF_THRESHOLD = 50_000

    # fitted (``fit`` or ``load``)
    index_: DenseIndex | IVFIndex | BM25Index
    names_index_: NameIndex | None

    def __init__(self, k: int = 10, temperature: float = 0.05, statistic: str = "energy", alpha: float = 0.05,
                 retriever: str = "dense", embedder: Any = None, search: str = "auto",
                 names: bool | str = "auto", facts: bool = False, links: bool = False, links_weight: float = 1.0):
        self.k = k
        self.temperature = temperature
        self.statistic = statistic
        self.alpha = alpha
        self.retriever = retriever
        self.embedder = embedder
        self.search = search
        self.names = names
        self.facts = facts
        self.links = links
        self.links_weight = links_weight

    # ---- parameters ---------------------------------------------------------------------------

    def get_params(self, deep: bool = False) -> dict[str, Any]:
        return {"k": self.k, "temperature": self.temperature, "statistic": self.statistic, "alpha": self.alpha,
                "retriever": self.retriever, "embedder": self.embedder, "search": self.search, "names": self.names,
                "facts": self.facts, "links": self.links, "links_weight": self.links_weight}

    def set_params(self, **params: Any) -> Self:
        for key, value in params.items():
            if key not in self.get_params():
                raise RagdxError(f"unknown parameter {key!r}", field=key)
            setattr(self, key, value)
        return self

    def _validate_params(self) -> None:
        if not isinstance(self.k, int) or isinstance(self.k, bool) or self.k < 1:
            raise RagdxError(f"k must be a positive integer, got {self.k!r}", field="k")
        if not (isinstance(self.temperature, int | float) and self.temperature > 0):
            raise RagdxError(f"temperature must be positive, got {self.temperature!r}", field="temperature")
        _check_statistic(self.statistic)
        _check_alpha(self.alpha)
        if self.retriever not in ("dense", "bm25"):
            raise RagdxError(f"retriever must be 'dense' or 'bm25', got {self.retriever!r}", field="retriever")
        if self.search not in ("auto", "exact", "ivf"):
            raise RagdxError(f"search must be 'auto', 'exact' or 'ivf', got {self.search!r}", field="search")
        if not (isinstance(self.names, bool) or self.names == "auto"):
            raise RagdxError(f"names must be true, false or 'auto', got {self.names!r}", field="names")
        if not isinstance(self.facts, bool):
            raise RagdxError(f"facts must be true or false, got {self.facts!r}", field="facts")
        if self.facts and self.names is False:
            raise RagdxError("facts=True looks beside the names a query uses: it needs names on", field="facts")
        if not isinstance(self.links, bool):
            raise RagdxError(f"links must be true or false, got {self.links!r}", field="links")
        if not (isinstance(self.links_weight, int | float) and 0.0 < float(self.links_weight) <= 1.0):
            raise RagdxError(f"links_weight must be above 0 and at most 1, got {self.links_weight!r}",
                             field="links_weight")

    # ---- fitting --------------------------------------------------------------------------------

    def _embedder(self):
        if self.embedder is None:
            from ragdx.embed import DEFAULT_MODEL, Embedder

            fitted_with = getattr(self, "embedding_model_", None)
            if fitted_with not in (None, "precomputed", DEFAULT_MODEL):
                # same dimension does not mean same space: refuse rather than compare across models
                raise RagdxError(f"the tester was fitted on {fitted_with} embeddings; pass an embedder for that "
                                 "model, or query embeddings", field="embedder")
            self.embedder = Embedder()
        return self.embedder

    def _embed(self, texts: Queries, *, what: str, progress: Any = None) -> np.ndarray:
        if isinstance(texts, np.ndarray) and texts.dtype.kind == "f":
            return texts
        items = list(texts)
        for i, t in enumerate(items):
            if not isinstance(t, str):
                raise RagdxError(f"item {i} is a {type(t).__name__}, not a string", field=what)
        embedder = self._embedder()
        if progress is None:
            return embedder.embed(items)
        return embedder.embed(items, progress=progress(what))

    def fit(self, corpus: Queries, calibration: Queries, *, embedding_model: str | None = None,
            progress: Any = None, records: Sequence[Any] | None = None, database: Any = None,
            documents: Sequence[tuple[str, str]] | None = None,
            aliases: dict[str, Sequence[str]] | None = None) -> Self:
        """``corpus``: chunk embeddings (N, d) or chunk texts; ``calibration``: in-knowledge queries
        (embeddings or texts). ``embedding_model`` names the model that made precomputed embeddings
        (recorded, and checked before texts are embedded later). Needs at least 1/alpha - 1
        calibration queries, otherwise no query could ever be rejected at level alpha.
        ``progress(what)`` returns a ``progress(done, total)`` callback for embedding ``what``
        ("corpus", "calibration"): the CLI's progress bars.

        With ``links=True``: ``records`` (one per calibration query: a ragdx record or its dict,
        None for a query without one), ``database`` (the records' database URL, or an (engine,
        schema) pair) and ``documents`` ((id, text) pairs the linker reads; default the corpus
        texts, named ``chunk-<i>``)."""
        self._validate_params()
        if self.links:  # before any embedding: a wrong input fails at once
            _check_links_inputs(corpus, calibration, records, database, documents)
        # the calibration questions' lengths, kept to say when length alone explains a separation
        # (ragdx.relevance.confounds); unknown when embeddings were given
        texts = None if isinstance(calibration, np.ndarray) else list(calibration)
        self.calibration_lengths_ = ([len(q) for q in texts] if texts and all(isinstance(q, str) for q in texts)
                                     else None)
        if texts is not None:
            calibration = texts
        if self.names is True or self.facts:  # before any embedding: a wrong input fails at once
            _check_names_inputs(corpus, texts)
        if self.retriever == "bm25":
            if isinstance(corpus, np.ndarray) and corpus.dtype.kind == "f":
                raise RagdxError("the BM25 retriever needs the chunk texts, not embeddings", field="corpus")
            index: DenseIndex | IVFIndex | BM25Index = BM25Index(list(corpus))
            cal_input: Any = list(calibration)
            self.embedding_model_ = "bm25"
        else:
            emb = self._embed(corpus, what="corpus", progress=progress)
            ivf = self.search == "ivf" or (self.search == "auto" and len(emb) >= self.IVF_THRESHOLD)
            index = IVFIndex(emb) if ivf else DenseIndex(emb)
            cal_input = self._embed(calibration, what="calibration", progress=progress)
            self.embedding_model_ = embedding_model or self._model_name()
        n = len(cal_input)
        if n < 2:
            raise RagdxError(f"need at least 2 calibration queries, got {n}", field="calibration")
        _check_power(self.alpha, n)
        if index.size < self.k:
            raise RagdxError(f"the corpus has {index.size} chunks, fewer than k={self.k}", field="corpus")
        self.index_ = index
        self._set_calibration(index.top_k(cal_input, self.k))
        self._fit_names(corpus, texts)
        self.links_ = None
        if self.links:
            from ragdx.relevance.links import LinkStatistic

            docs = list(documents) if documents is not None else list(corpus)
            self.links_ = LinkStatistic(docs, aliases).fit(list(records or []), database)
        return self

    def _fit_names(self, corpus: Queries, calibration: list | None) -> None:
        self.names_index_ = None
        if (self.names is False or (self.names == "auto" and not _texts_given(corpus, calibration))
                or calibration is None):  # names=True without the texts was refused by fit
            return
        from ragdx.relevance.names import NameIndex

        index = NameIndex(list(corpus))
        index.learn_style(calibration)
        self._set_names(index, None, calibration)
        if self.facts:
            self._set_facts(list(corpus), list(calibration or []))

    def _set_facts(self, corpus: list[str], calibration: list[str]) -> None:
        """What the corpus states beside the calibration questions' names (:mod:`ragdx.relevance.facts`);
        the texts are kept to save the tester, which rebuilds the index when loaded."""
        from ragdx.relevance.facts import FactIndex

        self.facts_index_ = FactIndex(corpus, self.names_index_).fit(calibration)
        self.facts_texts_ = (corpus, calibration)
        self.calibration_facts_ = np.sort(self.facts_index_.scores(calibration))

    def _set_names(self, index: Any, calibration_scores: np.ndarray | None, calibration: list | None = None) -> None:
        self.names_index_ = index
        scores = index.scores(calibration) if calibration_scores is None else calibration_scores
        self.calibration_names_ = np.sort(np.asarray(scores, dtype=np.float64))

    def names_p_values(self, texts: Sequence[str | None]) -> np.ndarray:
        """p-value of the names score per query (1 for a query given without its text)."""
        index = self._names_index()
        if index is None:
            raise RagdxError("the tester was fitted without names=True", field="names")
        known = [i for i, t in enumerate(texts) if isinstance(t, str)]
        out = np.ones(len(texts))
        if known:
            scores = index.scores([t for t in texts if isinstance(t, str)])
            out[known] = empirical_p_values(scores, self.calibration_names_)
        return out

    def facts_p_values(self, texts: Sequence[str | None]) -> np.ndarray:
        """p-value of the facts score per query (1 for a query given without its text)."""
        index = getattr(self, "facts_index_", None)
        if index is None:
            raise RagdxError("the tester was fitted without facts=True", field="facts")
        known = [i for i, t in enumerate(texts) if isinstance(t, str)]
        out = np.ones(len(texts))
        if known:
            out[known] = empirical_p_values(index.scores([texts[i] for i in known]), self.calibration_facts_)
        return out

    def _with_names(self, p: np.ndarray, texts: Sequence[str | None] | None,
                    link_scores: np.ndarray | None = None) -> np.ndarray:
        """Bonferroni over the chosen statistic's, the names score's and (when on) the facts score's
        p-values, when names are on: m valid p-values, min(1, m * min p) is valid. A query with a
        link score (``link_scores`` finite) adds the links p-value by weighted Bonferroni: links
        weigh ``links_weight`` (w), the m others (1 - w) / m each, and
        ``min(1, p_links / w, min_i p_i m / (1 - w))`` is valid (the weights sum to 1); w = 1 is
        the links p-value alone."""
        ps = [p]
        if getattr(self, "names_index_", None) is not None and texts is not None:
            ps.append(self.names_p_values(texts))
            if getattr(self, "facts_index_", None) is not None:
                ps.append(self.facts_p_values(texts))
        combined = np.minimum(1.0, len(ps) * np.minimum.reduce(ps)) if len(ps) > 1 else p
        if link_scores is None or self._links() is None:
            return combined
        scored = np.isfinite(np.asarray(link_scores, dtype=np.float64))
        p_links = self.links_p_values(link_scores)
        w = float(self.links_weight)
        if w >= 1.0:
            return np.where(scored, p_links, combined)
        with_links = np.minimum(1.0, np.minimum(p_links / w, np.minimum.reduce(ps) * len(ps) / (1.0 - w)))
        return np.where(scored, with_links, combined)

    def _links_calibration(self) -> np.ndarray:
        """The calibration questions' link scores as saved: the scored ones sorted, NaN for the others."""
        links = self._links()
        assert links is not None
        return np.concatenate([links.calibration_scores_, np.full(links.n_unscored_, np.nan)])

    def _links(self) -> LinkStatistic | None:
        """The links statistic; None when fitted without links=True, or not fitted."""
        return getattr(self, "links_", None)

    def link_scores(self, records: Sequence[Any], database: Any) -> np.ndarray:
        """The link score of each query's record (NaN: no record, or one the linker cannot score;
        see :mod:`ragdx.relevance.links`), linked against the tester's documents."""
        links = self._links()
        if links is None:
            raise RagdxError("the tester was fitted without links=True", field="links")
        return links.scores(records, database)

    def links_p_values(self, link_scores: np.ndarray) -> np.ndarray:
        """p-value of each link score (1 where there is none)."""
        links = self._links()
        if links is None:
            raise RagdxError("the tester was fitted without links=True", field="links")
        return links.p_values(link_scores)

    def _names_arrays(self) -> dict[str, list[str]]:
        """The names index's vocabulary, saved as text beside its arrays (already in ``arrays``)."""
        index = self._names_index()
        if index is None:
            return {}
        vocab, _, _ = index.arrays()
        return {"names_vocab": vocab, "names_style": sorted(index.style)}

    def _names_index(self) -> NameIndex | None:
        """The names index; None when fitted without names, or not fitted."""
        return getattr(self, "names_index_", None)

    def _load_names(self, root: Path, manifest_path: Path, entries: dict[str, Any]) -> None:
        self.names_index_ = None
        # "auto" fitted on embeddings saved no names index; True always did
        if self.names is False or (self.names == "auto" and "names_ids" not in entries):
            return
        from ragdx.relevance.names import NameIndex

        got = {n: _read_array(root, manifest_path, n, entries.get(n))
               for n in ("names_vocab", "names_style", "names_ids", "names_chunk_starts", "calibration_names")}
        index = NameIndex.from_arrays(got["names_vocab"], got["names_ids"], got["names_chunk_starts"])
        index.style = frozenset(got["names_style"])
        self._set_names(index, got["calibration_names"])

    def _model_name(self) -> str:
        if self.embedder is None:
            return "precomputed"
        return str(getattr(self.embedder, "name", type(self.embedder).__name__))

    def recalibrated(self, calibration_topk: np.ndarray) -> RelevanceTester:
        """A tester on the same corpus index with other calibration queries, given as their (n, k)
        nearest similarities (``top_k``): re-split experiments without searching again."""
        self._check_fitted()
        other = type(self)(**self.get_params())
        other.index_ = self.index_
        other.embedding_model_ = self.embedding_model_
        if getattr(self, "names_index_", None) is not None:  # the names calibration is kept as it was
            other._set_names(self.names_index_, self.calibration_names_)
        if getattr(self, "facts_index_", None) is not None:
            other.facts_index_, other.facts_texts_ = self.facts_index_, self.facts_texts_
            other.calibration_facts_ = self.calibration_facts_
        other.links_ = self._links()
        _check_power(self.alpha, len(calibration_topk))
        other._set_calibration(np.asarray(calibration_topk))
        return other

    def _set_calibration(self, topk: np.ndarray) -> None:
        self.calibration_topk_ = np.ascontiguousarray(topk, dtype=np.float32)
        self.n_calibration_ = int(topk.shape[0])
        # per-neighbour null distributions for Fisher/Simes, ascending
        self._reference_sorted = np.sort(self.calibration_topk_.astype(np.float64).T, axis=1)
        self.calibration_statistics_ = compute_statistics(
            self.calibration_topk_, k=self.k, temperature=float(self.temperature),
            reference_sorted=self._reference_sorted, leave_one_out=True)
        self._calibration_sorted = np.sort(self.calibration_statistics_, axis=0)

    def _check_fitted(self) -> None:
        if not hasattr(self, "calibration_statistics_"):
            raise RagdxError("the tester is not fitted yet (call fit or load)", field="tester")

    # ---- scoring --------------------------------------------------------------------------------

    def top_k(self, queries: Queries, *, progress: Any = None) -> np.ndarray:
        """(m, k) nearest similarities of each query, decreasing."""
        self._check_fitted()
        if isinstance(self.index_, BM25Index):  # retriever "bm25"
            return self.index_.top_k(list(queries), self.k)
        if not (isinstance(queries, np.ndarray) and queries.dtype.kind == "f"):
            fitted_with = getattr(self, "embedding_model_", "precomputed")
            name = getattr(self._embedder(), "name", None)
            if fitted_with != "precomputed" and name is not None and name != fitted_with:
                raise RagdxError(f"the tester was fitted on {fitted_with} embeddings but the embedder is {name}",
                                 field="embedder")
        return self.index_.top_k(self._embed(queries, what="queries", progress=progress), self.k)

    def statistics_from_topk(self, topk: np.ndarray) -> np.ndarray:
        self._check_fitted()
        return compute_statistics(topk, k=self.k, temperature=float(self.temperature),
                                  reference_sorted=self._reference_sorted)

    def statistics(self, queries: Queries, *, progress: Any = None) -> np.ndarray:
        """(m, 7) oriented statistics, columns in the order of ``STATISTICS``."""
        return self.statistics_from_topk(self.top_k(queries, progress=progress))

    def score_samples(self, queries: Queries) -> np.ndarray:
        """The chosen statistic per query; larger = less like the in-knowledge queries."""
        return self.statistics(queries)[:, STATISTICS.index(self.statistic)]

    def p_values_from_statistics(self, stats: np.ndarray) -> np.ndarray:
        """(m, 7) p-values, one per statistic."""
        self._check_fitted()
        return np.column_stack([empirical_p_values(stats[:, j], self._calibration_sorted[:, j])
                                for j in range(len(STATISTICS))])

    def p_values(self, queries: Queries, *, records: Sequence[Any] | None = None,
                 database: Any = None) -> np.ndarray:
        """p-value of the chosen statistic per query (combined with names, facts and, for the
        queries given with a record, links, when those are on)."""
        stats = self.statistics(queries)
        j = STATISTICS.index(self.statistic)
        p = empirical_p_values(stats[:, j], self._calibration_sorted[:, j])
        texts = None if isinstance(queries, np.ndarray) else list(queries)
        return self._with_names(p, texts, self._query_link_scores(len(p), records, database))

    def _query_link_scores(self, n: int, records: Sequence[Any] | None, database: Any) -> np.ndarray | None:
        """Link scores of the queries given with records (None: no records, or links off)."""
        if records is None:
            return None
        if len(records) != n:
            raise RagdxError(f"{len(records)} records for {n} queries: give one per query (None for none)",
                             field="records")
        if self._links() is None:
            raise RagdxError("records were given but the tester was fitted without links=True", field="links")
        return self.link_scores(records, database)

    def predict(self, queries: Queries, alpha: float | None = None) -> np.ndarray:
        """1 where the query is out of knowledge (p <= alpha), else 0."""
        a = _check_alpha(self.alpha if alpha is None else alpha)
        return (self.p_values(queries) <= a).astype(np.int64)

    def critical_value(self, alpha: float | None = None, statistic: str | None = None) -> float:
        """The smallest statistic value rejected at level alpha (+inf if none can be)."""
        self._check_fitted()
        a = _check_alpha(self.alpha if alpha is None else alpha)
        col = self._calibration_sorted[:, STATISTICS.index(_check_statistic(statistic or self.statistic))]
        n = col.shape[0]
        # p <= a  <=>  #{cal >= s} <= a (n + 1) - 1
        allowed = int(np.floor(a * (n + 1) - 1 + 1e-12))
        if allowed < 0:
            return float("inf")
        if allowed >= n:
            return float("-inf")
        return float(np.nextafter(col[n - allowed - 1], np.inf))

    def test(self, queries: Queries, alpha: float | None = None, *, records: Sequence[Any] | None = None,
             database: Any = None) -> list[QueryTest]:
        """Per query: all seven statistics and p-values, the chosen statistic's p-value and the
        decision at level alpha. ``records`` (one per query, None for a query without one) and
        ``database``: the links statistic for the queries given with a record (``links=True``)."""
        _check_alpha(self.alpha if alpha is None else alpha)
        texts = None
        if not (isinstance(queries, np.ndarray) and queries.dtype.kind == "f"):
            texts = [q if isinstance(q, str) else None for q in queries]
        links = self._query_link_scores(len(queries), records, database)
        return self.test_statistics(self.statistics(queries), texts, alpha, link_scores=links)

    def test_statistics(self, stats: np.ndarray, texts: Sequence[str | None] | None = None,
                        alpha: float | None = None, *, link_scores: np.ndarray | None = None) -> list[QueryTest]:
        """``test`` for statistics already computed (the service batches many requests' queries
        through one ``statistics`` call); ``link_scores`` from :meth:`link_scores`."""
        a = _check_alpha(self.alpha if alpha is None else alpha)
        _check_power(a, self.n_calibration_)
        pvals = self.p_values_from_statistics(stats)
        j = STATISTICS.index(self.statistic)
        if link_scores is not None and self._links() is None:
            link_scores = None
        chosen = self._with_names(pvals[:, j], texts, link_scores)
        links_p = self.links_p_values(link_scores) if link_scores is not None else None
        names_index = self._names_index()
        named = names_index is not None and texts is not None
        extra_s = (names_index.scores([t or "" for t in texts])
                   if names_index is not None and texts is not None else None)
        extra_p = self.names_p_values(texts) if named and texts is not None else None
        with_facts = named and texts is not None and getattr(self, "facts_index_", None) is not None
        facts_s = self.facts_index_.scores([t or "" for t in texts]) if with_facts and texts is not None else None
        facts_p = self.facts_p_values(texts) if with_facts and texts is not None else None
        out = []
        base_name = self._combined_name() if named else self.statistic
        for i in range(stats.shape[0]):
            linked = link_scores is not None and bool(np.isfinite(link_scores[i]))
            test = QueryTest(
                index=i, query=None if texts is None else texts[i],
                statistic=(self._links_name(base_name) if linked else base_name),
                value=float(stats[i, j]), p_value=float(chosen[i]), alpha=a,
                out_of_knowledge=bool(chosen[i] <= a),
                statistics={name: float(stats[i, c]) for c, name in enumerate(STATISTICS)},
                p_values={name: float(pvals[i, c]) for c, name in enumerate(STATISTICS)})
            if extra_s is not None and extra_p is not None:
                test.statistics["names"], test.p_values["names"] = float(extra_s[i]), float(extra_p[i])
            if facts_s is not None and facts_p is not None:
                test.statistics["facts"], test.p_values["facts"] = float(facts_s[i]), float(facts_p[i])
            if linked and link_scores is not None and links_p is not None:
                test.statistics["links"], test.p_values["links"] = float(link_scores[i]), float(links_p[i])
            out.append(test)
        return out

    def _links_name(self, base_name: str) -> str:
        """What a query with a link score is tested with: links alone (w = 1) or combined."""
        return "links" if float(self.links_weight) >= 1.0 else base_name + "+links"

    def _combined_name(self) -> str:
        return f"{self.statistic}+names" + ("+facts" if getattr(self, "facts_index_", None) is not None else "")

    def drift(self, queries: Queries, alpha: float | None = None):
        """Two-sample KS test of a batch against the calibration queries (see ``ragdx.relevance.drift``)."""
        return self.drift_statistics(self.statistics(queries), alpha)

    def drift_statistics(self, stats: np.ndarray, alpha: float | None = None):
        from ragdx.relevance.drift import ks_drift

        self._check_fitted()
        j = STATISTICS.index(self.statistic)
        return ks_drift(self.calibration_statistics_[:, j], stats[:, j],
                        alpha=self.alpha if alpha is None else alpha, statistic=self.statistic)

    # ---- persistence ----------------------------------------------------------------------------

    def config(self) -> dict[str, Any]:
        return {"k": self.k, "temperature": float(self.temperature), "statistic": self.statistic,
                "alpha": float(self.alpha), "retriever": self.retriever,
                "search": self.search, "names": self.names, "facts": self.facts, "links": self.links,
                "links_weight": float(self.links_weight)}

    def save(self, path: str | os.PathLike, *, overwrite: bool = False) -> Path:
        """A directory: arrays as ``.npy``, configuration and SHA-256 checksums in
        ``relevance-tester.json``. Written to a staging directory and renamed into place."""
        from ragdx.store import staged_directory, write_json

        self._check_fitted()
        arrays: dict[str, np.ndarray] = {"calibration_topk": self.calibration_topk_}
        if self._links() is not None:
            arrays["calibration_links"] = self._links_calibration()
        names_index = self._names_index()
        if names_index is not None:
            arrays["names_ids"], arrays["names_chunk_starts"] = names_index.ids, names_index.chunk_starts
            arrays["calibration_names"] = self.calibration_names_
        index = self.index_
        if isinstance(index, DenseIndex | IVFIndex):  # kind "dense" or "ivf"
            arrays["corpus_embeddings"] = index.embeddings
        if isinstance(index, IVFIndex):
            arrays["ivf_centroids"] = index.centroids
            arrays["ivf_offsets"] = index.offsets
        with staged_directory(path, overwrite=overwrite) as stage:
            entries = {}
            for name, arr in arrays.items():
                file = stage / f"{name}.npy"
                np.save(file, np.ascontiguousarray(arr), allow_pickle=False)
                entries[name] = {"file": file.name, "sha256": sha256_file(file), "shape": list(arr.shape),
                                 "dtype": str(arr.dtype)}
            texts: dict[str, list[Any]] = dict(self._names_arrays())
            if getattr(self, "facts_index_", None) is not None:
                texts["facts_corpus"], texts["facts_calibration"] = self.facts_texts_
            links = self._links()
            if links is not None:  # the documents as the linker reads them, and the calibration scores
                texts["links_documents"] = [[i, t] for i, t in links.documents]
                texts["links_aliases"] = [[k, list(v)] for k, v in sorted(links.aliases.items())]
            if isinstance(index, BM25Index):
                texts["corpus_texts"] = index.texts
            for name, values in texts.items():
                file = stage / f"{name}.json"
                file.write_text(json.dumps(values, ensure_ascii=False), encoding="utf-8")
                entries[name] = {"file": file.name, "sha256": sha256_file(file), "shape": [len(values)],
                                 "dtype": "str"}
            from ragdx.redact import redact

            # an embeddings endpoint's URL may carry a credential: it does not reach the file (a
            # tester loaded back takes its key from api_key_env, or an embedder passed to load)
            embedder = redact(self.embedder.to_dict()) if hasattr(self.embedder, "to_dict") else None
            write_json(stage / MANIFEST, {
                "format": FORMAT, "version": FORMAT_VERSION, "config": self.config(),
                "embedding_model": self.embedding_model_, "embedder": embedder,
                "calibration_lengths": getattr(self, "calibration_lengths_", None),
                "n_calibration": self.n_calibration_, "index": self.index_.kind,
                "ivf_probe": getattr(self.index_, "n_probe", None), "arrays": entries})
        return Path(path)

    @classmethod
    def load(cls, path: str | os.PathLike, *, embedder: Any = None) -> RelevanceTester:
        """Load a saved tester; a missing, damaged or mismatched file fails naming it.

        ``embedder`` None rebuilds the embedder the tester was saved with (when it had one)."""
        root = Path(path)
        manifest_path = root / MANIFEST
        manifest = _read_manifest(root, manifest_path)
        config = manifest["config"]
        if embedder is None and manifest.get("embedder"):
            from ragdx.embedders import embedder_from_dict

            try:
                embedder = embedder_from_dict(dict(manifest["embedder"]))
            except RagdxError as exc:
                raise RagdxError(exc.message, source=str(manifest_path), field="embedder") from None
        tester = cls(embedder=embedder, **config)
        try:
            tester._validate_params()
        except RagdxError as exc:
            raise RagdxError(exc.message, source=str(manifest_path), field=f"config.{exc.field}") from None
        entries = manifest.get("arrays")
        if not isinstance(entries, dict):
            raise RagdxError("missing or not an object", source=str(manifest_path), field="arrays")
        kind = manifest.get("index", "dense")
        if kind not in ("dense", "ivf", "bm25") or (kind == "bm25") != (tester.retriever == "bm25"):
            raise RagdxError(f"index {kind!r} does not fit retriever {tester.retriever!r}",
                             source=str(manifest_path), field="index")
        needed = ["calibration_topk", "corpus_texts" if kind == "bm25" else "corpus_embeddings"]
        if kind == "ivf":
            needed += ["ivf_centroids", "ivf_offsets"]
        loaded = {name: _read_array(root, manifest_path, name, entries.get(name)) for name in needed}
        topk = loaded["calibration_topk"]
        if topk.ndim != 2 or topk.shape[1] < tester.k:
            raise RagdxError(f"calibration has {topk.shape[-1]} neighbours, the config asks for k={tester.k}",
                             source=str(root / "calibration_topk.npy"))
        if manifest.get("n_calibration") != topk.shape[0]:
            raise RagdxError("does not match the calibration array", source=str(manifest_path), field="n_calibration")
        if kind == "ivf":
            tester.index_ = IVFIndex(loaded["corpus_embeddings"], centroids=loaded["ivf_centroids"],
                                     offsets=loaded["ivf_offsets"], n_probe=manifest.get("ivf_probe"))
        elif kind == "dense":
            tester.index_ = DenseIndex(loaded["corpus_embeddings"])
        else:
            tester.index_ = BM25Index(loaded["corpus_texts"])
        tester.embedding_model_ = str(manifest.get("embedding_model", "unknown"))
        tester._set_calibration(topk)
        tester._load_names(root, manifest_path, entries)
        if tester.facts:
            tester._set_facts(*(_read_array(root, manifest_path, n, entries.get(n))
                                for n in ("facts_corpus", "facts_calibration")))
        tester.links_ = None
        if tester.links:
            from ragdx.relevance.links import LinkStatistic

            docs, aliases, cal = (_read_array(root, manifest_path, n, entries.get(n))
                                  for n in ("links_documents", "links_aliases", "calibration_links"))
            tester.links_ = LinkStatistic([(str(i), str(t)) for i, t in docs],
                                          {str(k): [str(x) for x in v] for k, v in aliases}).fit_scores(cal)
        lengths = manifest.get("calibration_lengths")
        # a tester saved before lengths were kept, or one calibrated on embeddings: unknown
        tester.calibration_lengths_ = ([int(x) for x in lengths] if isinstance(lengths, list)
                                       and len(lengths) == topk.shape[0] else None)
        return tester


def _texts_given(corpus: Queries, calibration: list | None) -> bool:
    return (not isinstance(corpus, np.ndarray) and all(isinstance(t, str) for t in corpus)
            and calibration is not None and all(isinstance(q, str) for q in calibration))


def _check_links_inputs(corpus: Queries, calibration: Queries, records: Sequence[Any] | None, database: Any,
                        documents: Sequence[tuple[str, str]] | None) -> None:
    if records is None or database is None:
        raise RagdxError("links=True links each calibration question's record: give records= (one per "
                         "calibration query) and database= (their database's URL)", field="records")
    if len(records) != len(calibration):
        raise RagdxError(f"{len(records)} records for {len(calibration)} calibration queries: give one per query "
                         "(None for a query without one)", field="records")
    if documents is None and (isinstance(corpus, np.ndarray) or not all(isinstance(t, str) for t in corpus)):
        raise RagdxError("links=True links records in the corpus's words: give the chunk texts or documents=",
                         field="corpus")


def _check_names_inputs(corpus: Queries, calibration: list | None) -> None:
    if isinstance(corpus, np.ndarray) or not all(isinstance(t, str) for t in corpus):
        raise RagdxError("names=True reads the corpus's words: give the chunk texts", field="corpus")
    if calibration is None or not all(isinstance(q, str) for q in calibration):
        raise RagdxError("names=True reads the calibration queries' words: give their texts", field="calibration")


def _read_manifest(root: Path, manifest_path: Path) -> dict[str, Any]:
    """A saved tester's manifest, its format, version and ``config`` keys checked."""
    if not manifest_path.is_file():
        raise RagdxError("not a saved relevance tester (no relevance-tester.json)", source=str(root))
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise RagdxError(f"not valid JSON ({exc})", source=str(manifest_path)) from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise RagdxError(f"not a {FORMAT} manifest", source=str(manifest_path), field="format")
    if manifest.get("version") != FORMAT_VERSION:
        raise RagdxError(f"format version {manifest.get('version')!r} is not supported (this ragdx reads "
                         f"version {FORMAT_VERSION})", source=str(manifest_path), field="version")
    config = manifest.get("config")
    if not isinstance(config, dict):
        raise RagdxError("missing or not an object", source=str(manifest_path), field="config")
    unknown = set(config) - {"k", "temperature", "statistic", "alpha", "retriever", "search", "names", "facts",
                             "links", "links_weight"}
    if unknown:
        raise RagdxError(f"unknown keys {sorted(unknown)}", source=str(manifest_path), field="config")
    return manifest


#: saved as JSON lists of strings, not .npy
_TEXT_ARRAYS = ("corpus_texts", "names_vocab", "names_style", "facts_corpus", "facts_calibration",
                "links_documents", "links_aliases")


def _read_array(root: Path, manifest_path: Path, name: str, entry: Any) -> Any:
    """The saved array ``name`` (the corpus texts: a list) that the manifest's ``entry`` describes,
    its checksum and shape checked."""
    if not isinstance(entry, dict) or not {"file", "sha256", "shape"} <= set(entry):
        raise RagdxError("missing or incomplete entry", source=str(manifest_path), field=f"arrays.{name}")
    file = root / Path(str(entry["file"])).name
    if not file.is_file():
        raise RagdxError("file is missing", source=str(file))
    if sha256_file(file) != entry["sha256"]:
        raise RagdxError("checksum mismatch: the file is damaged or was changed after saving",
                         source=str(file))
    if name in _TEXT_ARRAYS:
        value: Any = json.loads(file.read_text(encoding="utf-8"))
        shape = [len(value)]
    else:
        try:
            value = np.load(file, allow_pickle=False)
        except ValueError as exc:
            raise RagdxError(f"not a readable .npy array ({exc})", source=str(file)) from None
        shape = list(value.shape)
    if shape != list(entry["shape"]):
        raise RagdxError(f"shape {shape} does not match the manifest's {entry['shape']}", source=str(file))
    return value
