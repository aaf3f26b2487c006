"""The blind samples 4-11 of labelled replies (issue 26): each well formed, its README's counts the file's,
its writer script reproducing it byte for byte. One file for the eight, which share one format.

The labels themselves are their writers' (helpers Q, S, T, X, 85, 88, 92 and 97), fixed when written; these tests
check the files, not the labels' truth.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

CORPORA = Path(__file__).resolve().parent.parent / "benchmarks" / "corpora"
SAMPLES = (4, 5, 6, 7, 8, 9, 10, 11)
sample = pytest.mark.parametrize("n", SAMPLES)
LABELS = ("answer", "refusal", "correction")
KINDS = ("", "false_premise", "absent_entity", "ambiguous_reference", "out_of_domain", "omitted_fact")
FIELDS = ("id", "question", "refusal_kind", "reference", "reply", "label", "note")


def rows(n: int) -> list[dict]:
    with open(CORPORA / f"abstention_replies_{n}" / "replies.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


@sample
def test_every_line_parses_with_string_fields(n):
    data = rows(n)
    assert len(data) == 200
    for row in data:
        assert set(row) == set(FIELDS), row.get("id")
        assert all(isinstance(row[k], str) for k in FIELDS), row["id"]
        assert row["question"].strip() and row["reply"].strip(), row["id"]


@sample
def test_ids_unique_and_numbered(n):
    ids = [r["id"] for r in rows(n)]
    assert len(set(ids)) == len(ids)
    assert ids == [f"r{n}-{i:03d}" for i in range(1, 201)]


@sample
def test_labels_and_kinds_valid(n):
    for row in rows(n):
        assert row["label"] in LABELS, row["id"]
        assert row["refusal_kind"] in KINDS, row["id"]
        # a false premise carries the true value a correction would give
        if row["refusal_kind"] == "false_premise":
            assert row["reference"].strip(), row["id"]


@sample
def test_readme_counts_match_the_file(n):
    counts = Counter((r["refusal_kind"] or "answerable", r["label"]) for r in rows(n))
    table = {}
    for line in (CORPORA / f"abstention_replies_{n}" / "README.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| \**([a-z_]+)\** \| \**(\d+)\** \| \**(\d+)\** \| \**(\d+)\** \| \**(\d+)\** \|$", line)
        if m:
            table[m.group(1)] = tuple(int(g) for g in m.groups()[1:])
    assert set(table) == {"answerable", *KINDS[1:], "total"}
    for kind in ("answerable", *KINDS[1:]):
        expect = tuple(counts[(kind, label)] for label in LABELS)
        assert table[kind][:3] == expect, kind
        assert table[kind][3] == sum(expect), kind
    labels = Counter(r["label"] for r in rows(n))
    assert table["total"] == (labels["answer"], labels["refusal"], labels["correction"], 200)


@sample
def test_writer_script_reproduces_the_file(n, tmp_path):
    # replies.jsonl is the hand-written entries' output; a hand edit of one without the other would fail here
    folder = CORPORA / f"abstention_replies_{n}"
    script = tmp_path / "write_replies.py"
    script.write_text((folder / "write_replies.py").read_text(encoding="utf-8"), encoding="utf-8")
    subprocess.run([sys.executable, str(script)], check=True)
    assert (tmp_path / "replies.jsonl").read_bytes() == (folder / "replies.jsonl").read_bytes()


@sample
def test_score_py_rejects_a_missing_prediction(n, tmp_path):
    preds = tmp_path / "p.jsonl"
    preds.write_text("".join(json.dumps({"id": r["id"], "label": r["label"]}) + "\n" for r in rows(n)[:-1]))
    # the first sample's scorer scores every sample (its copies are gone)
    score, replies = CORPORA / "abstention_replies" / "score.py", CORPORA / f"abstention_replies_{n}" / "replies.jsonl"
    out = subprocess.run([sys.executable, str(score), str(preds), "--replies", str(replies)], capture_output=True,
                         text=True)
    assert out.returncode == 2 and f"no prediction for r{n}-200" in out.stderr
