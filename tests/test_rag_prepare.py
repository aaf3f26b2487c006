"""A pipeline's ``prepare`` batches per-query model work (the demo's hot path, issue 14) and must
not change an answer: the reader's corpus sentences in one pass, the dense retriever's queries
in batches."""

from __future__ import annotations

import asyncio
import random

import pytest

from ragdx.rag.corpus import Corpus, Document
from ragdx.rag.generators import ExtractiveReader, sentences
from ragdx.rag.pipeline import Pipeline
from ragdx.rag.retrievers import BM25Retriever, DenseRetriever, EnsembleRetriever, KeywordRetriever
from ragdx.rag.types import SystemInput


def _corpus(n_docs: int) -> Corpus:
    rng = random.Random(5)
    towns = ["Arlen", "Bexmoor", "Corvale", "Dunmere", "Eskby", "Fallow"]
    docs = []
    for i in range(n_docs):
        town = towns[i % len(towns)]
        facts = [f"{town} district {i} has {rng.randint(100, 9000)} people.",
                 f"The mayor of {town} district {i} is {rng.choice(['Ann Lee', 'Bo Park', 'Zoë Król'])}.",
                 f"Its school was founded in {rng.randint(1700, 1990)}.",
                 f"The river {rng.choice(['Ouse', 'Tay', 'Esk'])} runs through it."]
        docs.append(Document(f"d{i}", " ".join(rng.sample(facts, len(facts)))))
    return Corpus(docs)


def _queries() -> list[str]:
    return [f"{q} {t} district {i}?" for q in ("Who is the mayor of", "How many people live in",
                                               "Which river runs through")
            for t, i in (("Arlen", 0), ("Bexmoor", 1), ("Corvale", 8), ("Dunmere", 3))]


def _pipeline(corpus: Corpus) -> Pipeline:
    # no disk cache: each pipeline computes its own vectors, in its own batches
    return Pipeline("p", corpus, retriever=EnsembleRetriever([BM25Retriever(), DenseRetriever(cache_dir=None)]),
                    generator=ExtractiveReader(cache_dir=None), top_k=3)


def _answers(pipeline: Pipeline, queries: list[str]) -> list[tuple]:
    async def go():
        return [await pipeline.answer(SystemInput(id=str(i), query=q)) for i, q in enumerate(queries)]

    return [(o.answer, [(c.id, c.score) for c in o.contexts], o.error) for o in asyncio.run(go())]


@pytest.mark.slow
def test_prepare_embeds_queries_and_corpus_sentences_beforehand_with_the_same_answers():
    corpus, queries = _corpus(8), _queries()
    plain = _answers(_pipeline(corpus), queries)
    assert all(a and not err for a, _, err in plain)

    prepared = _pipeline(corpus)
    prepared.prepare(queries)
    dense = prepared.retriever.retrievers[1]
    reader = prepared.generator
    assert set(dense._query_vectors) == set(reader._query_vectors) == set(queries)
    # 8 units <= 12 queries x top 3: every corpus sentence was embedded in one pass
    all_sentences = {s for unit in prepared.retriever.units for s in sentences(unit.text)}
    assert set(reader._sentence_vectors) == all_sentences
    assert _answers(prepared, queries) == plain

    # a corpus larger than what the run retrieves is left to be embedded as contexts come up
    big = _pipeline(_corpus(40))
    big.prepare(queries[:2])
    assert big.generator._sentence_vectors == {} and set(big.generator._query_vectors) == set(queries[:2])


def test_prepare_without_a_model_changes_nothing_and_a_failed_build_is_left_to_the_answers():
    corpus = _corpus(4)
    keyword = Pipeline("k", corpus, retriever=KeywordRetriever(), generator=ExtractiveReader(cache_dir=None))
    keyword.prepare([])  # nothing to ask: nothing built, nothing embedded
    assert not keyword._built and keyword.generator._query_vectors == {}

    broken = Pipeline("b", None, retriever=KeywordRetriever(), generator=_NoModelGenerator())
    broken.prepare(["Who is the mayor of Arlen?"])  # the build fails (no corpus): not raised here ...
    [out] = asyncio.run(_one(broken, "Who is the mayor of Arlen?"))
    assert out.error and "no corpus" in out.error  # ... but recorded on the query, as without prepare


class _NoModelGenerator(ExtractiveReader):
    """The extractive reader without its query batch (so this test needs no model)."""

    def prepare(self, queries):
        pass


async def _one(pipeline: Pipeline, query: str):
    return [await pipeline.answer(SystemInput(id="0", query=query))]


@pytest.mark.slow
def test_embedding_ahead_keeps_at_most_its_cap_and_leaves_the_rest_in_the_disk_cache(tmp_path, monkeypatch):
    from ragdx.rag import retrievers

    queries = _queries()
    monkeypatch.setattr(retrievers, "AHEAD_SLICE", 5)  # several slices, the cap inside the first
    embedder = retrievers.shared_embedder(None, str(tmp_path / "cache"))
    memo: dict = {}
    retrievers.embed_ahead(embedder, queries + queries[:3], memo, cap=3)
    assert list(memo) == queries[:3]  # the first ones, no more than the cap
    # every query is on disk: a fresh embedder over the same cache finds all of them there
    from ragdx.embed import Embedder

    fresh = Embedder(cache_dir=str(tmp_path / "cache"))
    keys = [fresh._key(q) for q in queries]
    assert set(fresh._vectors.lookup(keys)) == set(keys)
    for q in queries[:3]:
        assert abs(float(memo[q] @ fresh.embed([q])[0]) - 1.0) < 1e-5

    # without a disk cache nothing past the cap is embedded
    memo2: dict = {}
    calls = []
    plain = retrievers.shared_embedder(None, None)
    monkeypatch.setattr(plain, "embed", lambda texts, **kw: calls.append(len(texts)) or Embedder.embed(plain, texts))
    retrievers.embed_ahead(plain, queries, memo2, cap=3)
    assert list(memo2) == queries[:3] and calls == [5]


def test_a_local_index_embedders_settings_are_used():
    import numpy as np

    from ragdx.rag.corpus import build_component

    tuned = build_component({"type": "dense", "params": {"cache_dir": None, "index_embedder": {"batch_size": 7}}})
    index = tuned._index_embedder()
    assert index is not tuned.embedder and index.batch_size == 7  # validated and now used
    texts = ["The mayor of Arlen is Ann Lee.", "Which river runs through Bexmoor?"]
    assert np.abs(index.embed(texts) - tuned.embedder.embed(texts)).max() < 1e-5  # the same model
    plain = build_component({"type": "dense", "params": {"cache_dir": None, "index_embedder": {"executor": "local"}}})
    assert plain._index_embedder() is plain.embedder  # nothing to change: the shared embedder
