"""benchmarks/ann_real.py's text selection: the recall it reports is only honest if the held-out
queries are never in the index, every text is distinct, and the same seed draws the same sets."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _bench():
    spec = importlib.util.spec_from_file_location("ann_real", ROOT / "benchmarks" / "ann_real.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["ann_real"] = module
    spec.loader.exec_module(module)
    return module


def test_held_out_queries_are_never_indexed_and_texts_are_distinct():
    bench = _bench()
    questions = {"a": [f"what is item {i}?" for i in range(60)] + ["shared text"],
                 "b": [f"how many of {i}?" for i in range(60)] + ["what is item 3?"]}
    passages = {"kb": ["passage one", "passage two", "passage one", "shared text"]}
    index, queries, sources = bench.select(questions, passages, 50, 20, seed=1)
    assert len(index) == len(set(index)) == 50
    assert len(queries) == len(set(queries)) == 20
    assert not set(index) & set(queries)
    # every distinct passage is indexed, first; a question equal to a passage is that passage
    assert index[:3] == ["passage one", "passage two", "shared text"]
    assert "shared text" not in queries
    assert sources["passages: kb"] == 3 and sum(sources.values()) == 50
    assert bench.select(questions, passages, 50, 20, seed=1) == (index, queries, sources)
    assert bench.select(questions, passages, 50, 20, seed=2)[1] != queries
    with pytest.raises(SystemExit):
        bench.select(questions, passages, 120, 20, seed=1)  # 3 passages + 120 questions: too few
