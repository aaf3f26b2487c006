"""The seventh blind sample of labelled replies (issue 26): well formed, and its README's counts are the file's.

The labels themselves are helper X's, fixed when written; these tests check the file, not the labels' truth.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent / "benchmarks" / "corpora" / "abstention_replies_7"
LABELS = ("answer", "refusal", "correction")
KINDS = ("", "false_premise", "absent_entity", "ambiguous_reference", "out_of_domain", "omitted_fact")
FIELDS = ("id", "question", "refusal_kind", "reference", "reply", "label", "note")


def rows() -> list[dict]:
    with open(CORPUS / "replies.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def test_every_line_parses_with_string_fields():
    data = rows()
    assert len(data) == 200
    for row in data:
        assert set(row) == set(FIELDS), row.get("id")
        assert all(isinstance(row[k], str) for k in FIELDS), row["id"]
        assert row["question"].strip() and row["reply"].strip(), row["id"]


def test_ids_unique_and_numbered():
    ids = [r["id"] for r in rows()]
    assert len(set(ids)) == len(ids)
    assert ids == [f"r7-{n:03d}" for n in range(1, 201)]


def test_labels_and_kinds_valid():
    for row in rows():
        assert row["label"] in LABELS, row["id"]
        assert row["refusal_kind"] in KINDS, row["id"]
        # a false premise carries the true value a correction would give
        if row["refusal_kind"] == "false_premise":
            assert row["reference"].strip(), row["id"]


def test_readme_counts_match_the_file():
    counts = Counter((r["refusal_kind"] or "answerable", r["label"]) for r in rows())
    table = {}
    for line in (CORPUS / "README.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| \**([a-z_]+)\** \| \**(\d+)\** \| \**(\d+)\** \| \**(\d+)\** \| \**(\d+)\** \|$", line)
        if m:
            table[m.group(1)] = tuple(int(g) for g in m.groups()[1:])
    assert set(table) == {"answerable", *KINDS[1:], "total"}
    for kind in ("answerable", *KINDS[1:]):
        expect = tuple(counts[(kind, label)] for label in LABELS)
        assert table[kind][:3] == expect, kind
        assert table[kind][3] == sum(expect), kind
    labels = Counter(r["label"] for r in rows())
    assert table["total"] == (labels["answer"], labels["refusal"], labels["correction"], 200)


def test_writer_script_reproduces_the_file(tmp_path):
    # replies.jsonl is the hand-written entries' output; a hand edit of one without the other would fail here
    script = tmp_path / "write_replies.py"
    script.write_text((CORPUS / "write_replies.py").read_text(encoding="utf-8"), encoding="utf-8")
    subprocess.run([sys.executable, str(script)], check=True)
    assert (tmp_path / "replies.jsonl").read_bytes() == (CORPUS / "replies.jsonl").read_bytes()


def test_score_py_rejects_a_missing_prediction(tmp_path):
    preds = tmp_path / "p.jsonl"
    preds.write_text("".join(json.dumps({"id": r["id"], "label": r["label"]}) + "\n" for r in rows()[:-1]))
    out = subprocess.run([sys.executable, str(CORPUS / "score.py"), str(preds)], capture_output=True, text=True)
    assert out.returncode == 2 and "no prediction for r7-200" in out.stderr
