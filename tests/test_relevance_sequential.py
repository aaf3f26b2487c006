"""The sequential drift monitor (ragdx.relevance.sequential): valid p-values and e-values, a
false-alarm chance bounded over the whole log, and power that does not shrink as the log grows —
where the windowed KS monitor with Holm loses it."""

from __future__ import annotations

import numpy as np
import pytest

from ragdx.errors import RagdxError
from ragdx.relevance.sequential import SequentialMonitor, conformal_p_values, power_log_e_values


def test_conformal_p_values_are_valid_and_e_values_average_one():
    rng = np.random.default_rng(0)
    p = np.concatenate([conformal_p_values(rng.normal(size=200), rng.normal(size=50)) for _ in range(200)])
    assert 0.45 < p.mean() < 0.55 and np.mean(p <= 0.05) <= 0.06
    assert conformal_p_values([1.0, 2.0, 3.0], [0.5, 2.0, 9.0]).tolist() == [1.0, 0.75, 0.25]
    from scipy.integrate import quad

    for column in range(9):  # every bet is an e-value: its mean under a uniform p is 1
        mean, _ = quad(lambda u, c=column: float(np.exp(power_log_e_values(np.array([u]))[0, c])), 0, 1, limit=200)
        assert mean == pytest.approx(1.0, abs=1e-3)
    e = np.exp(power_log_e_values(np.array([0.001, 0.01, 0.1, 0.5, 1.0])))
    assert np.all(np.diff(e, axis=0) < 0) and e[0].max() > 20


def _logs(rng, n: int, drift_from: int | None, share: float = 0.2, shift: float = 3.0):
    reference = rng.normal(size=300)
    log = rng.normal(size=n)
    if drift_from is not None:
        hit = np.arange(drift_from, n)[rng.random(n - drift_from) < share]
        log[hit] += shift
    return reference, log


@pytest.mark.slow
def test_false_alarms_over_whole_logs_stay_near_alpha():
    rng = np.random.default_rng(1)
    logs = [_logs(rng, 1000, None) for _ in range(120)]
    alarms = sum(SequentialMonitor(ref, alpha=0.05, seed=i).run(log).alarm_at is not None
                 for i, (ref, log) in enumerate(logs))
    assert alarms <= 12  # 0.05 of 120 is 6; 12 is beyond the 99 % binomial band
    # Doob's bound alone ignores that every p-value leans on one sample of 300: it alarms more
    bare = sum(SequentialMonitor(ref, alpha=0.05, simulations=0).run(log).alarm_at is not None for ref, log in logs)
    assert bare >= alarms


def test_power_does_not_shrink_as_the_log_grows():
    # a sustained 20 % share of far queries from query 500 on, in a log of 1,000 and of 10,000
    rng = np.random.default_rng(2)
    medians = {}
    for n in (1000, 5000):
        seq_delays = []
        for i in range(8):
            ref, log = _logs(rng, n, 500, shift=2.0)
            report = SequentialMonitor(ref, alpha=0.05, simulations=50, seed=i).run(log)
            assert report.alarm_at is not None and report.alarm_at >= 450
            seq_delays.append(report.alarm_at - 500)
        medians[n] = float(np.median(seq_delays))
    # a five times longer log costs a few hundred queries of delay, not the alarm
    assert medians[1000] < 250 and medians[5000] < 500, medians


def test_the_change_point_and_summary():
    rng = np.random.default_rng(3)
    ref, log = _logs(rng, 3000, 1500, share=0.3, shift=3.0)
    stamps = [f"t{i}" for i in range(3000)]
    report = SequentialMonitor(ref, alpha=0.05, simulations=50).run(log, timestamps=stamps)
    assert 1300 <= report.began_at <= 1700 and report.alarm_at > report.began_at
    assert report.started_at == f"t{report.began_at}" and report.share_flagged_since > 0.1
    assert f"drift from query {report.began_at}" in report.summary()
    assert report.to_dict()["method"] == "sequential" and len(report.log10_sr) == 3000
    quiet = SequentialMonitor(ref, alpha=0.05, simulations=50).run(rng.normal(size=500))
    assert quiet.alarm_at is None and "no drift" in quiet.summary()


def test_bad_settings_are_one_line():
    with pytest.raises(RagdxError, match="alpha"):
        SequentialMonitor(np.zeros(10), alpha=1.5)
    with pytest.raises(RagdxError, match="horizon"):
        SequentialMonitor(np.zeros(10), horizon=0)
    with pytest.raises(RagdxError, match="simulations"):
        SequentialMonitor(np.zeros(10), simulations=-1)
    with pytest.raises(RagdxError, match="statistics, not queries"):
        SequentialMonitor(np.zeros(10)).run(["a question"])
