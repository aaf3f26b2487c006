"""The blind sample of labelled replies (benchmarks/corpora/abstention_replies, issue 26): its generator
gives back the committed file, its counts are the README's, and its scorer's figures and errors are the
ones worked out by hand here."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parents[1] / "benchmarks" / "corpora" / "abstention_replies"
REPLIES = HERE / "replies.jsonl"


def rows():
    return [json.loads(line) for line in REPLIES.read_text(encoding="utf-8").splitlines()]


def score(tmp_path, labels, *extra):
    """Runs score.py on predictions {id: label}; returns (exit code, stdout, stderr)."""
    pred = tmp_path / "pred.jsonl"
    pred.write_text("".join(json.dumps({"id": i, "label": lab}) + "\n" for i, lab in labels.items()))
    p = subprocess.run([sys.executable, str(HERE / "score.py"), str(pred), *extra],
                       capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def test_generator_gives_back_the_committed_sample(tmp_path):
    shutil.copy(HERE / "make_replies.py", tmp_path)
    subprocess.run([sys.executable, "make_replies.py"], cwd=tmp_path, check=True, capture_output=True, timeout=60)
    assert (tmp_path / "replies.jsonl").read_bytes() == REPLIES.read_bytes()


def test_sample_shape_and_readme_counts():
    data = rows()
    assert len(data) == 200 and len({r["id"] for r in data}) == 200
    for r in data:
        assert set(r) == {"id", "question", "refusal_kind", "reference", "reply", "label", "note"}
        assert r["label"] in ("answer", "refusal", "correction")
        assert bool(r["reference"]) == (r["refusal_kind"] in ("", "false_premise")), r["id"]
    counts = Counter((r["refusal_kind"] or "answerable", r["label"]) for r in data)
    # the README's table must say what the file holds
    table = re.findall(r"^\| (\w+) \| (\d+) \| (\d+) \| (\d+) \| \d+ \|$",
                       (HERE / "README.md").read_text(encoding="utf-8"), re.M)
    assert len(table) == 6
    for kind, a, r, c in table:
        assert (counts[(kind, "answer")], counts[(kind, "refusal")], counts[(kind, "correction")]) == (
            int(a), int(r), int(c)), kind


def test_no_file_imports_ragdx():
    for path in HERE.glob("*.py"):
        assert not re.search(r"^\s*(?:import|from)\s+ragdx", path.read_text(encoding="utf-8"), re.M), path


def test_scorer_figures(tmp_path):
    data = rows()
    truth = {r["id"]: r["label"] for r in data}
    code, out, _ = score(tmp_path, truth, "--require", "0.95")
    assert code == 0 and "agreement overall: 200/200 = 100.0 %" in out
    # three answers called refusals: 197/200 overall, answers 77/80, refusal precision 80/83
    answers = [i for i, lab in truth.items() if lab == "answer"][:3]
    code, out, _ = score(tmp_path, {**truth, **{i: "refusal" for i in answers}}, "--show-disagreements")
    assert code == 0 and "agreement overall: 197/200 =  98.5 %" in out
    assert "| answer | 77/80 =  96.2 % | 77/77 = 100.0 % |" in out
    assert "| refusal | 80/80 = 100.0 % | 80/83 =  96.4 % |" in out
    assert "| answer | 77 | 3 | 0 |" in out
    assert all(f"{i} writer=answer judge=refusal" in out for i in answers)
    code, out, err = score(tmp_path, dict.fromkeys(truth, "refusal"), "--require", "0.95")
    assert code == 1 and "agreement overall: 80/200 =  40.0 %" in out and "below" in err


@pytest.mark.parametrize("change, message", [
    (lambda p: p.pop("ar007"), "no prediction for ar007"),
    (lambda p: p.update({"zz999": "answer"}), "'zz999' is not in"),
    (lambda p: p.update({"ar001": "abstain"}), "field 'label' is 'abstain'"),
])
def test_scorer_rejects_bad_predictions(tmp_path, change, message):
    pred = {r["id"]: r["label"] for r in rows()}
    change(pred)
    code, out, err = score(tmp_path, pred)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1
