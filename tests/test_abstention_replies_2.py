"""The second blind sample of labelled replies (benchmarks/corpora/abstention_replies_2): the file parses, its
ids are unique, its labels and kinds are the scorer's, it is exactly what write_replies.py holds, and the
README's count table is the file's."""

from __future__ import annotations

import filecmp
import importlib.util
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[1] / "benchmarks" / "corpora" / "abstention_replies_2"
REPLIES = CORPUS / "replies.jsonl"
LABELS = ("answer", "refusal", "correction")
KINDS = ("", "false_premise", "absent_entity", "ambiguous_reference", "out_of_domain", "omitted_fact")
FIELDS = ("id", "question", "refusal_kind", "reference", "reply", "label", "note")


def load_rows():
    lines = REPLIES.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def test_every_line_is_a_full_record_with_a_valid_label_and_kind():
    rows = load_rows()
    assert len(rows) == 200
    for row in rows:
        assert set(row) == set(FIELDS), row.get("id")
        assert all(isinstance(row[f], str) for f in FIELDS), row["id"]
        assert row["label"] in LABELS, row["id"]
        assert row["refusal_kind"] in KINDS, row["id"]
        assert row["question"].strip() and row["reply"].strip() and row["note"].strip(), row["id"]


def test_ids_and_questions_are_unique():
    rows = load_rows()
    assert len({r["id"] for r in rows}) == len(rows)
    assert len({r["question"] for r in rows}) == len(rows)


def test_the_file_is_what_the_writer_script_holds():
    spec = importlib.util.spec_from_file_location("write_replies_2", CORPUS / "write_replies.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.rows() == load_rows()


def readme_counts():
    """{(kind, label): n} from the README's count table (rows other than the total)."""
    counts = {}
    for line in (CORPUS / "README.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| (answerable|[a-z_]+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$", line)
        if m:
            kind = "" if m.group(1) == "answerable" else m.group(1)
            for label, n in zip(LABELS, m.group(2, 3, 4), strict=True):
                counts[(kind, label)] = int(n)
            assert int(m.group(5)) == sum(int(n) for n in m.group(2, 3, 4))
    return counts


def test_readme_counts_match_the_file():
    expected = readme_counts()
    assert len(expected) == len(KINDS) * len(LABELS)
    actual = Counter((r["refusal_kind"], r["label"]) for r in load_rows())
    assert {k: actual.get(k, 0) for k in expected} == expected
    total = re.search(r"\*\*total\*\* \| \*\*(\d+)\*\* \| \*\*(\d+)\*\* \| \*\*(\d+)\*\* \| \*\*(\d+)\*\*",
                      (CORPUS / "README.md").read_text(encoding="utf-8"))
    labels = Counter(r["label"] for r in load_rows())
    assert [int(x) for x in total.groups()] == [labels["answer"], labels["refusal"], labels["correction"], 200]


def test_scorer_is_the_first_samples_and_scores_the_writers_labels_as_full_agreement(tmp_path):
    first = CORPUS.parent / "abstention_replies" / "score.py"
    if not first.exists():
        pytest.skip("the first sample's score.py is absent")
    assert filecmp.cmp(first, CORPUS / "score.py", shallow=False)
    pred = tmp_path / "pred.jsonl"
    rows = load_rows()
    pred.write_text("".join(json.dumps({"id": r["id"], "label": r["label"]}) + "\n" for r in rows))
    done = subprocess.run([sys.executable, str(CORPUS / "score.py"), str(pred), "--require", "1.0"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "agreement overall: 200/200 = 100.0 %" in done.stdout
    # one wrong label must lower the figure: the scorer really compares
    flipped = [dict(r) for r in rows]
    flipped[0]["label"] = "refusal" if rows[0]["label"] != "refusal" else "answer"
    pred.write_text("".join(json.dumps({"id": r["id"], "label": r["label"]}) + "\n" for r in flipped))
    done = subprocess.run([sys.executable, str(CORPUS / "score.py"), str(pred), "--require", "1.0"],
                          capture_output=True, text=True)
    assert done.returncode == 1
    assert "199/200" in done.stdout
