"""Say what the tester detects (issue 25 item 3): when query length alone explains a separation,
the batch test, the drift monitor and the benchmark say so in one sentence with both numbers."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from ragdx.cli import app
from ragdx.relevance import RelevanceTester
from ragdx.relevance.confounds import auroc, batch_note, length_deviation, log_note, table_note
from tests.test_embedders import topical_corpus, topical_questions

runner = CliRunner()


def test_auroc_is_the_mann_whitney_statistic():
    # by hand: pairs (neg, pos) = (1,1) tie 0.5, (1,2) 1, (1,3) 1, (2,1) 0, (2,2) tie 0.5, (2,3) 1 -> 4 / 6
    assert auroc(np.array([1.0, 2.0]), np.array([1.0, 2.0, 3.0])) == pytest.approx(4 / 6)
    assert np.isnan(auroc(np.array([]), np.array([1.0])))
    # long logs of continuous statistics: one pass, not one per distinct value (seconds, not hours)
    rng = np.random.default_rng(0)
    assert auroc(rng.normal(size=200_000), rng.normal(0.5, size=200_000)) == pytest.approx(0.638, abs=0.01)
    assert length_deviation([10, 100, 1000], [100]).tolist() == [0.0]


def test_sentences_appear_only_when_length_explains():
    cal = [60] * 50 + [80] * 50
    long_flagged = batch_note(cal, [70] * 20 + [700] * 10, [False] * 20 + [True] * 10)
    assert long_flagged is not None and "10 flagged queries" in long_flagged and "AUROC 1.00" in long_flagged
    assert batch_note(cal, [70, 700] * 15, [False, True, True, False] * 7 + [False, True]) is None  # length mixed
    assert batch_note(None, [70] * 20, [True] * 10 + [False] * 10) is None  # lengths unknown: no claim
    stats_cal, stats_log = np.zeros(100), np.r_[np.zeros(50), np.ones(50)]
    note = log_note([70] * 100, [70] * 50 + [900] * 50, stats_cal, stats_log)
    assert note is not None and "AUROC 0.75 by length, 0.75 by the statistic" in note
    assert log_note([70] * 100, [70] * 100, stats_cal, stats_log) is None
    assert "0.950 by length, 0.940 by the tester" in table_note(0.95, 0.94, "MedQA")
    assert table_note(0.60, 0.94, "MedQA") is None


def test_tester_keeps_calibration_lengths_and_the_cli_says_when_length_explains(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    calibration = topical_questions(40, 1)
    tester = RelevanceTester(retriever="bm25", temperature=1.0).fit(topical_corpus(), calibration)
    assert tester.calibration_lengths_ == [len(q) for q in calibration]
    tester.save(tmp_path / "tester")
    assert RelevanceTester.load(tmp_path / "tester").calibration_lengths_ == tester.calibration_lengths_
    # short questions on the corpus's topic, and long ones about something else entirely
    far = ["could you please tell me, in as much detail as you can manage and with every step explained, "
           f"how the national football league decided its spring season schedule in year {y}" for y in range(12)]
    batch = topical_questions(12, 9) + far
    (tmp_path / "q.jsonl").write_text("".join(json.dumps({"question": q}) + "\n" for q in batch))
    res = runner.invoke(app, ["relevance", "test", "tester", "--queries", "q.jsonl", "--no-progress"],
                        env={"COLUMNS": "300"})
    assert res.exit_code == 0, res.output
    flat = " ".join(res.output.split())
    assert "note: Query length alone tells the" in flat and "flagged queries from the other" in flat


def test_the_reports_boundary_section_says_when_length_explains():
    from ragdx.relevance.boundary import boundary_results, boundary_sentences

    tester = RelevanceTester(retriever="bm25", temperature=1.0).fit(topical_corpus(), topical_questions(40, 1))
    held_out = topical_questions(20, 5)
    long_far = [f"could you please tell me in great detail, with every step explained, how the football league "
                f"planned the spring season in year {y}" for y in range(20)]
    short_far = [f"football {y}?" for y in range(20)]
    result = boundary_results(tester, held_out, {"long chit-chat": long_far, "short chit-chat": short_far})
    assert result["sets"]["long chit-chat"]["length_auroc"] == 1.0
    notes = result["length_notes"]
    assert any(n.startswith("long chit-chat: query length alone separates it") for n in notes)
    assert all(n in boundary_sentences(result) for n in notes)
    old = {k: v for k, v in result.items() if k != "length_notes"}  # a relevance.json written before them
    assert not any("query length alone" in line for line in boundary_sentences(old))


def test_the_services_batch_answer_says_when_length_explains():
    from starlette.testclient import TestClient

    from ragdx.relevance.serve import create_app

    tester = RelevanceTester(retriever="bm25", temperature=1.0).fit(topical_corpus(), topical_questions(40, 1))
    far = ["could you please tell me, in as much detail as you can manage and with every step explained, "
           f"how the national football league decided its spring season schedule in year {y}" for y in range(12)]
    client = TestClient(create_app(tester, token="t0ken"))
    auth = {"Authorization": "Bearer t0ken"}
    r = client.post("/v1/relevance", json={"queries": topical_questions(12, 9) + far}, headers=auth)
    assert r.status_code == 200, r.text
    assert r.json()["note"].startswith("Query length alone tells the")
    # a batch of like questions: nothing to say
    r = client.post("/v1/relevance", json={"queries": topical_questions(12, 9)}, headers=auth)
    assert "note" not in r.json()
