"""The sequential drift monitor on the links statistic (issue 25): a log whose questions come with
their ragdx records is monitored on the same p-values the tester gives such a question by default,
through the Python API and ``ragdx relevance monitor --db``."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ragdx.errors import RagdxError
from ragdx.relevance.sequential import SequentialMonitor
from tests.test_relevance_links import _sets, _tester, staff  # noqa: F401  (staff: the fixture)


def _log(held, absent, n: int = 240, drift_from: int | None = 120) -> list:
    """Clean in-knowledge records in arrival order; from ``drift_from`` every other one a record
    whose fact the corpus leaves out."""
    out = [held[i % len(held)] for i in range(n)]
    if drift_from is not None:
        for j, i in enumerate(range(drift_from, n, 2)):
            out[i] = absent[j % len(absent)]
    return out


@pytest.fixture()
def fitted(staff):  # noqa: F811  (the fixture imported above)
    url, docs = staff
    cal, held, absent = _sets()
    tester = _tester(docs, True).fit([t for _, t in docs], [r.query for r in cal], records=cal, database=url,
                                     documents=docs)
    return tester, url, held, absent


def test_records_switch_the_monitor_to_the_testers_links_p_values(fitted):
    tester, url, held, absent = fitted
    log = _log(held, absent)
    monitor = SequentialMonitor(tester, alpha=0.05, simulations=50)
    report = monitor.run([r.query for r in log], records=log, database=url)
    assert monitor.statistic == "links" and report.statistic == "links"
    np.testing.assert_array_equal(monitor.reference, tester.links_.calibration_scores_)
    assert report.alarm_at is not None and 120 <= report.alarm_at < 200
    # the share flagged since the change point is read on the tester's own links p-values
    p = tester.links_p_values(tester.link_scores(log, url))
    assert report.share_flagged_since == pytest.approx(float(np.mean(p[report.began_at:] <= 0.05)))
    clean = _log(held, absent, drift_from=None)
    assert SequentialMonitor(tester, alpha=0.05, simulations=50).run(
        [r.query for r in clean], records=clean, database=url).alarm_at is None
    # a statistic named by the user is kept, records or not
    named = SequentialMonitor(tester, statistic="energy", simulations=20)
    assert named.run([r.query for r in log], records=log, database=url).statistic == "energy"


def test_queries_without_a_scored_record_are_left_out_and_indices_stay_the_logs(fitted, staff):  # noqa: F811
    tester, url, held, absent = fitted
    _, docs = staff
    log = _log(held, absent)
    with_gaps: list = [r if i % 3 else None for i, r in enumerate(log)]
    report = SequentialMonitor(tester, alpha=0.05, simulations=50).run(
        [r.query for r in log], records=with_gaps, database=url)
    assert report.n == len(log) and report.alarm_at is not None
    assert with_gaps[report.alarm_at] is not None and with_gaps[report.began_at] is not None
    with pytest.raises(RagdxError, match="records for"):
        SequentialMonitor(tester).run([r.query for r in log], records=log[:-1], database=url)
    with pytest.raises(RagdxError, match="fitted without links"):
        SequentialMonitor(_tester([], False).fit([t for _, t in docs], [r.query for r in held]),
                          statistic="links")


def test_cli_monitor_reads_record_rows_with_links(fitted, tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from ragdx.cli import app

    tester, url, held, absent = fitted
    monkeypatch.chdir(tmp_path)
    tester.save(tmp_path / "tester")
    (tmp_path / "log.jsonl").write_text("".join(json.dumps(r.to_dict()) + "\n" for r in _log(held, absent)),
                                        encoding="utf-8")
    runner = CliRunner()
    res = runner.invoke(app, ["relevance", "monitor", "tester", "log.jsonl", "--db", url, "-o", "m.json",
                              "--no-progress"])
    assert res.exit_code == 0, res.output
    got = json.loads((tmp_path / "m.json").read_text())
    assert got["statistic"] == "links" and got["alarm_at"] is not None and got["alarm_at"] >= 120
    res = runner.invoke(app, ["relevance", "monitor", "tester", "log.jsonl", "--no-progress"])
    assert res.exit_code != 0 and "--db" in str(res.exception) + res.output


def test_tied_statistics_do_not_drain_the_evidence():
    """A discrete statistic (links: most in-knowledge questions tie at the lowest score) gave every
    tied question p = 1, so the clean questions between drifting ones drained the evidence; broken
    ties (``break_ties=True``, opt-in) keep p-values valid (uniform under no drift) and let a 20 %
    share with p ~ 0.02 alarm."""
    from ragdx.relevance.sequential import conformal_p_values, tie_broken_p_values

    rng = np.random.default_rng(3)
    reference = np.r_[np.zeros(960), rng.uniform(1.0, 2.0, 40)]  # 96 % tied at 0, as linked questions
    clean = np.r_[np.zeros(9600), rng.uniform(1.0, 2.0, 400)][rng.permutation(10000)]
    p = tie_broken_p_values(reference, clean, rng)
    assert np.all(p <= conformal_p_values(reference, clean))  # a tie's p-value only moves down its range
    assert 0.47 < p.mean() < 0.53 and np.mean(p <= 0.05) <= 0.055  # valid, about uniform
    no_ties = rng.normal(size=50)
    assert np.array_equal(tie_broken_p_values(reference, no_ties + 5.0, rng),
                          conformal_p_values(reference, no_ties + 5.0))
    log = np.zeros(750)
    hit = np.arange(150, 750)[rng.random(600) < 0.2]
    log[hit] = 1.5  # above 980 of the 1,000 reference values: p about 0.02, like a left-out fact
    report = SequentialMonitor(reference, alpha=0.05, statistic="links", simulations=50, break_ties=True).run(log)
    # with tied p = 1 (the default) this log raised no alarm at all (6 seeds of 6); broken ties:
    # within ~100 queries
    assert report.alarm_at is not None and 150 <= report.alarm_at < 350
    assert SequentialMonitor(reference, alpha=0.05, statistic="links", simulations=50).run(log).alarm_at is None


def test_a_log_told_apart_by_length_says_so_on_the_links_path(fitted):
    """The length sentence the embedding path prints is given on the links path too: a log of the same
    in-knowledge records asked at five times the length is told apart by length alone, and the report
    says so; the same records as asked say nothing."""
    from dataclasses import replace

    tester, url, held, absent = fitted
    clean = _log(held, absent, drift_from=None)
    plain = SequentialMonitor(tester, alpha=0.05, simulations=20).run([r.query for r in clean], records=clean,
                                                                        database=url)
    assert plain.length_note is None
    padded = [replace(r, query=r.query + " " + "Could you please look this up for me and tell me? " * 6)
              for r in clean]
    report = SequentialMonitor(tester, alpha=0.05, simulations=20).run([r.query for r in padded], records=padded,
                                                                         database=url)
    assert report.statistic == "links"
    assert report.length_note is not None and "Query length alone" in report.length_note
