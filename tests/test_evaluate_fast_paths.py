"""The evaluation's fast paths (issue 24: evaluate at 100k queries) give what the long ways give.

Each fast path is held equal to the code it stands in for on varied inputs: the result line read
straight into an ``AnswerSummary`` (``runs.answer_summary``) against ``rundir.output_from_line``,
the Wilcoxon p-value (``stats.wilcoxon_p``) against ``scipy.stats.wilcoxon`` bit for bit, the
hedge check's memo against the check itself, and NLTK's Porter stemmer loaded without NLTK's
package against the ordinary import (in a fresh interpreter, where NLTK is not imported yet).
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from ragdx.evaluate.judges import hedged, hedged_once
from ragdx.evaluate.runs import AnswerSummary, answer_summary
from ragdx.evaluate.stats import wilcoxon_p
from ragdx.rag.rundir import output_from_line


def _long_way(obj: dict) -> AnswerSummary | str:
    try:
        out = output_from_line(obj)
    except (TypeError, ValueError, AttributeError) as exc:
        return f"error: {type(exc).__name__}"
    return AnswerSummary(out.id, out.answer, out.error, [c.id for c in out.contexts])


RESULT_LINES = [
    {"id": "q1", "query": "q", "answer": "Paris", "contexts": [{"id": "d1", "text": "t", "score": 0.5}]},
    {"id": "q2", "query": "q", "answer": None, "error": "timeout", "contexts": []},
    {"id": "q3", "query": "q", "answer": "x"},  # no contexts at all
    {"id": "q4", "query": "q", "answer": "x", "contexts": [{"id": "d1", "sha": "ab"}, {"id": "d2", "sha": "cd",
                                                                                      "score": 1.0}]},
    {"id": "q5", "query": "q", "answer": "x", "contexts": [{"id": "d1", "text": "t"}, {"id": "d2", "sha": "c"}]},
    {"id": "q6", "query": "q", "answer": "x", "latency_s": 0.1, "attempts": 2, "llm": {"model": "m"},
     "extra": "ignored", "contexts": [{"id": 7, "text": "t"}]},
    # shapes the long way refuses or reads otherwise: the fast path must step aside
    {"id": "q7", "query": "q", "answer": "x", "contexts": None},
    {"id": "q8", "query": "q", "answer": "x", "contexts": [{"id": "d1"}]},
    {"id": "q9", "query": "q", "answer": "x", "contexts": [{"text": "t"}]},
    {"id": "q10", "query": "q", "answer": "x", "contexts": [{"id": "d1", "text": "t", "rank": 1}]},
    {"id": "q11", "query": "q", "answer": "x", "contexts": ["d1"]},
    {"id": "q12", "answer": "x", "contexts": []},
    {"id": "q13", "query": "q", "contexts": []},
    {"id": "q14", "query": "q", "answer": "x", "contexts": "d1"},
    {"id": "q15", "query": "q", "answer": 3, "error": 4, "contexts": [{"id": "d1", "text": None}]},
]


@pytest.mark.parametrize("obj", RESULT_LINES, ids=[o["id"] for o in RESULT_LINES])
def test_answer_summary_is_what_the_long_way_reads(obj):
    fast = answer_summary(json.loads(json.dumps(obj)), {})
    slow = _long_way(json.loads(json.dumps(obj)))
    if fast is None:
        return  # the caller goes the long way itself
    assert fast == slow


def test_answer_summary_steps_aside_where_the_long_way_fails():
    failing = [o for o in RESULT_LINES if isinstance(_long_way(o), str)]
    assert len(failing) >= 5
    assert all(answer_summary(o, {}) is None for o in failing)


def test_answer_summary_shares_one_string_per_retrieved_id():
    ids: dict[str, str] = {}
    a = answer_summary({"id": "a", "query": "q", "answer": "x", "contexts": [{"id": "doc" + "1", "text": ""}]}, ids)
    b = answer_summary({"id": "b", "query": "q", "answer": "x", "contexts": [{"id": "".join(["do", "c1"]),
                                                                              "text": ""}]}, ids)
    assert a.retrieved_ids[0] is b.retrieved_ids[0]


def _pairs(rng: np.random.Generator, kind: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    if kind == 0:  # continuous: no ties
        return rng.random(size), rng.random(size)
    if kind == 1:  # per-group rates in quarters: many ties and zeros
        return rng.integers(0, 5, size) / 4, rng.integers(0, 5, size) / 4
    a = rng.integers(0, 3, size) / 3.0  # mostly equal, a few shifted
    return a, a + rng.choice([0.0, 0.0, 0.0, 1 / 3, -1 / 3, 0.5], size)


def test_wilcoxon_p_is_scipys_bit_for_bit():
    from scipy.stats import wilcoxon

    rng = np.random.default_rng(24)
    compared = 0
    for trial in range(120):
        size = int(rng.integers(40, 4000)) if trial % 5 else 51
        a, b = _pairs(rng, trial % 3, size)
        if not (a != b).any():
            continue
        want = float(wilcoxon(a, b, zero_method="wilcox", method="auto").pvalue)
        assert wilcoxon_p(a, b) == want, (trial, size)
        compared += 1
    assert compared > 100


def test_hedged_memo_gives_the_check_itself():
    cases = [("Paris", "Paris or Lyon"), ("Paris", "It may be Paris, Lyon or Nice"), ("Paris", "Paris"),
             (2450000.0, "2450000 or 2500000"), ("Melbourne", "based in Melbourne or nearby, a long way off"),
             ("Pavlova, Ltd.", "Pavlova, Ltd. or Tokyo Traders"), (True, "yes or no"), (1, "1 or 2"),
             ("Paris/Lyon", "Paris/Lyon"), ("X", "maybe X, Y")]
    for gold, response in cases * 2:  # each asked twice in a row, then the next
        assert hedged(gold, response) == hedged_once(gold, response)
        assert hedged(gold, response) == hedged_once(gold, response)
    assert any(hedged_once(g, r) for g, r in cases) and not all(hedged_once(g, r) for g, r in cases)


def test_porter_stemmer_without_nltks_package_is_nltks():
    code = (
        "import sys, json\n"
        "from ragdx.evaluate.text_metrics import porter_stemmer\n"
        "s = porter_stemmer()\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('nltk', 'sklearn'))\n"
        "words = sys.argv[1:]\n"
        "fast = [s.stem(w) for w in words]\n"
        "from nltk.stem import porter\n"
        "import nltk\n"
        "slow = [porter.PorterStemmer().stem(w) for w in words]\n"
        "print(json.dumps({'loaded': loaded, 'fast': fast, 'slow': slow, 'real': hasattr(nltk, 'download')}))\n")
    words = ["running", "generously", "ponies", "caresses", "agreed", "happily", "relational", "conditional",
             "Engineering", "Faculty", "literature's", "2021", "the", "sky", "dying", "feed", "generalizations"]
    done = subprocess.run([sys.executable, "-c", code, *words], capture_output=True, text=True, check=True)
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["loaded"] == []  # neither NLTK's package nor scikit-learn imported for the stemmer
    assert got["fast"] == got["slow"]
    assert got["real"]  # a later `import nltk` is the real package, not the stand-in


def _record(**change) -> dict:
    rec = {"id": "r1", "group_id": "g1", "sql_template_id": "s1", "text_template_id": "t1", "style": "short",
           "schema": "Course", "table": "Course", "params": {"Course.Title": "Art"}, "sql": "SELECT 1",
           "query": "code of course Art", "answer_columns": ["Code"], "answer_rows": [["HUM-220"]],
           "answer_text": "HUM-220", "answer_kind": "single"}
    rec.update(change)
    return rec


def test_dataset_reader_validates_directly_and_still_names_file_and_field(tmp_path):
    from ragdx.errors import RagdxError
    from ragdx.gen.dataset import read_records

    path = tmp_path / "records.jsonl"
    path.write_text(json.dumps(_record()) + "\n" + json.dumps(_record(id="r2", evidence_confidence=1)) + "\n",
                    encoding="utf-8")
    good = read_records(path)
    assert [r.id for r in good] == ["r1", "r2"] and good[1].evidence_confidence == 1.0
    path.write_text(json.dumps(_record()) + "\n" + json.dumps(_record(id="r2", answer_rows="HUM-220")) + "\n",
                    encoding="utf-8")
    with pytest.raises(RagdxError) as err:
        read_records(path)
    assert "records.jsonl" in str(err.value) and "line 2" in str(err.value) and "answer_rows" in str(err.value)
