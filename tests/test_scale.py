"""Hot paths made faster must give the same results: the keyword-overlap retriever's scores and
the extractive reader with its queries embedded in batches beforehand."""

from __future__ import annotations

import asyncio
import random

import numpy as np
import pytest

from ragdx.rag.chunking import Chunk
from ragdx.rag.generators import ExtractiveReader
from ragdx.rag.retrievers import KeywordRetriever, keyword_tokens
from ragdx.rag.types import RetrievedContext

WORDS = ["mayor", "river", "town", "O'Connell", "Zoë", "日本語", "?", ",", "the", "of", "is", "school", "1950",
         "Arlen", "Bexmoor", "salt", "wool", "people", "founded", "(", ")", "-"]


def _reference_scores(retriever: KeywordRetriever, query: str) -> np.ndarray:
    """The retriever's definition, token by token: +1 per distinct query token a unit contains."""
    out = np.zeros(len(retriever.units), dtype=np.float64)
    for i, unit in enumerate(retriever.units):
        out[i] = len(keyword_tokens(query) & keyword_tokens(unit.text))
    return out


def test_keyword_scores_and_rankings_are_unchanged():
    rng = random.Random(7)
    units = [Chunk(f"c{i}", f"d{i // 2}", " ".join(rng.choices(WORDS, k=rng.randint(0, 30)))) for i in range(300)]
    retriever = KeywordRetriever()
    retriever.build(units)
    for _ in range(200):
        query = " ".join(rng.choices(WORDS + ["unseen", "words"], k=rng.randint(0, 12)))
        scores = retriever.scores(query)
        assert scores.dtype == np.float64 and scores.shape == (300,)
        assert np.array_equal(scores, _reference_scores(retriever, query))
    # ties still go to the earlier unit
    ranked = retriever.ranked("mayor river", 300)
    for (i, si), (j, sj) in zip(ranked, ranked[1:], strict=False):
        assert si > sj or (si == sj and i < j)


@pytest.mark.slow
def test_reader_answers_the_same_with_queries_embedded_beforehand():
    rng = random.Random(3)
    facts = [f"{t} has {rng.randint(100, 9000)} people and its mayor is {m}."
             for t in ("Arlen", "Bexmoor", "Corvale", "Dunmere") for m in ("Ann Lee", "Bo Park")]
    facts += ["The river Ouse runs through Arlen.", "Bexmoor's school was founded in 1802.",
              "Zoë teaches 日本語 at Corvale.", "O'Connell's office is room 4."]
    queries = [f"{q} {t}?" for q in ("Who is the mayor of", "How many people live in", "Which river is in",
                                     "When was the school founded in") for t in ("Arlen", "Bexmoor", "Corvale")]
    queries += ["Where is O'Connell's office?", "What does Zoë teach?"]
    cases = [(q, [RetrievedContext(f"d{k}", " ".join(rng.sample(facts, 4))) for k in range(3)]) for q in queries]

    async def answers(reader: ExtractiveReader) -> list[str]:
        return [await reader.generate(q, ctx) for q, ctx in cases]

    # no disk cache: each reader computes its own vectors, one query per call or all in one batch
    one_by_one = asyncio.run(answers(ExtractiveReader(cache_dir=None)))
    batched_reader = ExtractiveReader(cache_dir=None)
    batched_reader.prepare(queries)
    assert set(batched_reader._query_vectors) == set(queries)
    batched = asyncio.run(answers(batched_reader))
    assert batched == one_by_one
    assert all(a for a in batched)
    # preparing is not configuration: the run's identity is unchanged
    assert batched_reader.to_dict() == ExtractiveReader(cache_dir=None).to_dict()


def test_rouge_l_with_cached_stemming_matches_rouge_score():
    from rouge_score import rouge_scorer

    from ragdx.evaluate.text_metrics import rouge_l

    rng = random.Random(11)
    words = ("running runs ran the quickly generalization generalizations connected connecting Zoë O'Connell "
             "1,433.50 2023-01-15 faculty faculties studies studying 日本語 -").split()
    refs = [" ".join(rng.choices(words, k=rng.randint(0, 12))) for _ in range(400)] + ["", "x"]
    preds = [" ".join(rng.choices(words, k=rng.randint(0, 12))) for _ in range(400)] + ["x", ""]
    plain = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)
    expected = [plain.score(r, p)["rougeL"].fmeasure for r, p in zip(refs, preds, strict=True)]
    assert rouge_l(refs, preds) == expected
    assert rouge_l(refs, preds) == expected  # and again, from the caches
    assert 0 < sum(expected) < len(expected)


def test_memoised_normalisation_hands_out_fresh_lists():
    from ragdx.evaluate.judges import _canonical_tokens, normalise

    first = _canonical_tokens("January 15, 2023: 1,433.50 Zoë")
    first.append("changed by a caller")
    assert _canonical_tokens("January 15, 2023: 1,433.50 Zoë") == ["d20230115", "n1433p5", "zoe"]
    assert normalise(12) == normalise("12") == "12"
    assert normalise("The  O'Connell!") == "o connell"


def _failure(k: int) -> dict:
    return {"system": "kw", "id": f"r{k}", "style": "short", "table": "T", "query": f"query <{k}>",
            "answer": f"a{k}", "response": None if k % 3 else f"r{k}", "retrieved": [f"d{k}", "d0"],
            "gold": [f"d{k}"], "kb_supported": k % 5 != 0, "verdict": "lm_failure", "basis": "b", "reason": None}


def test_failure_table_is_paged_with_every_row_beside_the_report(tmp_path):
    import json

    from ragdx.report.html import FAILURES_INLINE, _failures, failures_file, write_failures

    report = tmp_path / "report.html"
    small = {"failures": [_failure(k) for k in range(3)]}
    stale = failures_file(report)
    stale.write_text("{}\n")
    assert write_failures(small, report) is None and not stale.exists()
    assert _failures(small).count("<tr data-system") == 3

    n = FAILURES_INLINE + 250
    big = {"failures": [_failure(k) for k in range(n)]}
    path = write_failures(big, report)
    assert path == tmp_path / "report.failures.jsonl" and big["failures_file"] == path.name
    html = _failures(big)
    assert html.count("<tr data-system") == FAILURES_INLINE
    assert f'href="{path.name}"' in html and f"all {n}" in html
    assert "query &lt;0&gt;" in html and f"query &lt;{n - 1}&gt;" not in html
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert rows == big["failures"]


async def _instant(query: str) -> str:
    return f"answer to {query}"


def test_group_commit_counts_only_synced_records(tmp_path, monkeypatch):
    """Records are fsync'd in groups, and neither the manifest nor the summary ever counts a
    record before the fsync that made it durable."""
    import os

    import ragdx.rag.runner as runner
    import ragdx.rag.writer as writer
    from ragdx.rag.systems import CallableSystem
    from tests.test_runner import make_dataset

    dataset = make_dataset(tmp_path / "data", 300)
    results = tmp_path / "run" / "results.jsonl"
    synced = [0]  # lines on disk at the latest fsync of results.jsonl
    syncs = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        real_fsync(fd)
        if results.exists() and os.path.samefile(f"/proc/self/fd/{fd}", results):
            synced[0] = results.read_bytes().count(b"\n")
            syncs.append(synced[0])

    checked = []
    real_write = runner._write_manifest

    def write_manifest(run_dir, manifest, *args, **kwargs):
        real_write(run_dir, manifest, *args, **kwargs)
        done = manifest.counts["ok"] + manifest.counts["failed"]
        assert done <= synced[0], (done, synced[0])
        checked.append(done)

    monkeypatch.setattr(writer.os, "fsync", fsync)
    monkeypatch.setattr(runner, "_write_manifest", write_manifest)
    monkeypatch.setattr(runner, "MANIFEST_REFRESH_S", 0.0)  # a manifest after every record
    monkeypatch.setattr(writer, "GROUP_COMMIT_S", 60.0)  # groups by size only
    summary = runner.run(CallableSystem(_instant), dataset, tmp_path / "run", progress=False, concurrency=8)
    assert summary.ok == 300 and checked[-1] == 300
    assert len(syncs) < 300 / 10  # grouped: 64 lines a sync, not one each
    assert syncs[-1] == 300  # the last group synced when the run ended
    # the counts move only when a group is synced: as many distinct values as syncs (and the 0 at the start)
    assert 2 < len(set(checked)) <= len(syncs) + 1
