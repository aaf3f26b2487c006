"""The third blind sample of labelled replies (benchmarks/corpora/abstention_replies_3): the file parses, its
ids are unique, its labels and kinds are the scorer's, it is exactly what write_replies.py makes of the
hand-written source, and the README's count table is the file's."""

from __future__ import annotations

import importlib.util
import json
import re
from collections import Counter
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "benchmarks" / "corpora" / "abstention_replies_3"
REPLIES = CORPUS / "replies.jsonl"
LABELS = ("answer", "refusal", "correction")
KINDS = ("", "false_premise", "absent_entity", "ambiguous_reference", "out_of_domain", "omitted_fact")
FIELDS = ("id", "question", "refusal_kind", "reference", "reply", "label", "note")


def load_rows():
    return [json.loads(line) for line in REPLIES.read_text(encoding="utf-8").splitlines()]


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


def test_the_file_is_what_the_writer_script_makes_of_the_source():
    spec = importlib.util.spec_from_file_location("write_replies_3", CORPUS / "write_replies.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.rows() == load_rows()


def readme_counts():
    """{(kind, label): n} from the README's count table, the total row left out."""
    counts = {}
    for line in (CORPUS / "README.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| ([a-z_]+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$", line)
        if m and m.group(1) != "total":
            kind = "" if m.group(1) == "answerable" else m.group(1)
            for label, n in zip(LABELS, m.groups()[1:4], strict=True):
                counts[(kind, label)] = int(n)
            assert sum(int(n) for n in m.groups()[1:4]) == int(m.group(5)), line
    return counts


def test_readme_counts_match_the_file():
    found = Counter((r["refusal_kind"], r["label"]) for r in load_rows())
    table = readme_counts()
    assert set(k for k, _ in table) == set(KINDS)
    assert {k: n for k, n in table.items() if n} == dict(found)


def test_every_label_and_kind_is_represented_in_rough_balance():
    labels = Counter(r["label"] for r in load_rows())
    assert 70 <= labels["answer"] <= 90 and 70 <= labels["refusal"] <= 90 and labels["correction"] == 40
