"""``ragdx relevance …`` as a user meets it: outputs checked before any work, a table per query,
the monitor's family-wise control over whole logs, the report section for any tester, and the
benchmark on the user's own corpus. Embeddings come from the project's OpenAI-compatible test
server (deterministic, and it counts every request, which is how "no embedding happened" is
observed) or from the committed MiniLM fixtures."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from ragdx.cli import app
from ragdx.errors import RagdxError
from ragdx.relevance import STATISTICS, DriftMonitor, RelevanceTester
from ragdx.relevance.drift import holm_reject
from tests.support.openai_server import OpenAIServer
from tests.test_embedders import OFF_TOPIC, topical_corpus, topical_questions
from tests.test_relevance import Slice

runner = CliRunner()


def failed_with(res, text: str) -> bool:
    """In-process, a RagdxError reaches the runner; ``ragdx.cli.main`` turns it into exit code 2."""
    return isinstance(res.exception, RagdxError) and res.exception.exit_code == 2 and text in str(res.exception)


def _jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture()
def project(tmp_path, monkeypatch):
    """A project directory whose ragdx.yaml points the embedder at the test server."""
    monkeypatch.setenv("RAGDX_CACHE_DIR", str(tmp_path / "cache"))
    with OpenAIServer() as server:
        (tmp_path / "ragdx.yaml").write_text(f"embedder:\n  kind: openai\n  base_url: {server.base_url}\n"
                                             "  model: test-embed\n")
        _jsonl(tmp_path / "corpus.jsonl", [{"content": t} for t in topical_corpus()])
        _jsonl(tmp_path / "cal.jsonl", [{"question": q} for q in topical_questions(40, 1)])
        monkeypatch.chdir(tmp_path)
        yield tmp_path, server


def _calibrate(tmp_path: Path) -> None:
    res = runner.invoke(app, ["relevance", "calibrate", "corpus.jsonl", "--queries", "cal.jsonl", "-o", "tester",
                              "--no-progress"])
    assert res.exit_code == 0, res.output


def test_existing_output_is_refused_before_any_embedding(project):
    tmp_path, server = project
    (tmp_path / "tester").mkdir()
    (tmp_path / "tester" / "keep.txt").write_text("mine")
    res = runner.invoke(app, ["relevance", "calibrate", "corpus.jsonl", "--queries", "cal.jsonl", "-o", "tester"])
    assert failed_with(res, "already exists")
    assert server.embedding_requests == []  # refused before a single text was embedded
    assert (tmp_path / "tester" / "keep.txt").read_text() == "mine"

    (tmp_path / "tester" / "keep.txt").unlink()
    (tmp_path / "tester").rmdir()
    _calibrate(tmp_path)
    used = len(server.embedding_requests)
    (tmp_path / "old.jsonl").write_text("old results\n")
    _jsonl(tmp_path / "log.jsonl", [{"question": q} for q in topical_questions(30, 5)])
    for argv in (["relevance", "test", "tester", "a brand new query", "-o", "old.jsonl"],
                 ["relevance", "monitor", "tester", "log.jsonl", "--window", "10", "-o", "old.jsonl"],
                 ["relevance", "report", "tester", "-o", "old.jsonl", "--in-knowledge", "log.jsonl",
                  "--out-of-knowledge", "x=log.jsonl"]):
        res = runner.invoke(app, argv)
        assert failed_with(res, "already exists"), argv
    assert len(server.embedding_requests) == used
    assert (tmp_path / "old.jsonl").read_text() == "old results\n"


def test_relevance_test_prints_a_table_and_writes_jsonl(project):
    tmp_path, _ = project
    _calibrate(tmp_path)
    queries = topical_questions(2, 50) + OFF_TOPIC[:2]
    res = runner.invoke(app, ["relevance", "test", "tester", *queries, "-o", "res.jsonl", "--no-progress"],
                        env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    for head in ("query", "statistic", "p-value", "decision"):
        assert head in res.output
    assert "out of knowledge" in res.output and "in knowledge" in res.output
    rows = [json.loads(x) for x in (tmp_path / "res.jsonl").read_text().splitlines()]
    assert [r["query"] for r in rows] == queries
    assert [r["decision"] for r in rows[2:]] == ["out-of-knowledge"] * 2
    # the default tester (texts) combines Energy with the names test by Bonferroni
    assert all(r["statistic"] == "energy+names" for r in rows)
    assert all(r["p_value"] == min(1.0, 2 * min(r["p_values"]["energy"], r["p_values"]["names"])) for r in rows)
    flagged = sum(r["out_of_knowledge"] for r in rows)
    assert f"{flagged} of 4 queries rejected" in res.output


def test_monitor_cli_statistic_and_count_of_rejecting_windows(project):
    tmp_path, _ = project
    _calibrate(tmp_path)
    log = topical_questions(40, 7) + [f"{q} number {i}" for i in range(20) for q in OFF_TOPIC[:1]]
    _jsonl(tmp_path / "log.jsonl", [{"question": q, "ts": i} for i, q in enumerate(log)])
    res = runner.invoke(app, ["relevance", "monitor", "tester", "log.jsonl", "--window", "20", "--step", "10",
                              "--statistic", "mss", "--timestamp-field", "ts", "-o", "drift.json", "--no-progress",
                              "--method", "windows"], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    report = json.loads((tmp_path / "drift.json").read_text())
    assert report["statistic"] == "mss" and report["correction"] == "holm" and report["n_windows"] == 5
    assert f"rejecting windows: {report['n_rejecting']} of 5" in res.output
    assert report["n_rejecting"] >= 1 and report["alarm"]["end"] > 40  # only windows holding off-topic queries
    res = runner.invoke(app, ["relevance", "monitor", "tester", "log.jsonl", "--window", "20", "--statistic", "nope"])
    assert failed_with(res, "unknown statistic")


def test_monitor_cli_sequential_by_default(project):
    # the default monitor accumulates evidence query by query: it names where the drift began
    tmp_path, _ = project
    _calibrate(tmp_path)
    log = topical_questions(40, 7) + [f"{q} number {i}" for i in range(20) for q in OFF_TOPIC[:1]]
    _jsonl(tmp_path / "log.jsonl", [{"question": q, "ts": i} for i, q in enumerate(log)])
    res = runner.invoke(app, ["relevance", "monitor", "tester", "log.jsonl", "--timestamp-field", "ts",
                              "-o", "seq.json", "--no-progress"], env={"COLUMNS": "300"})
    assert res.exit_code == 0, res.output
    report = json.loads((tmp_path / "seq.json").read_text())
    assert report["method"] == "sequential" and report["n"] == 60
    assert report["alarm_at"] is not None and 35 <= report["began_at"] <= 45 and report["alarm_at"] >= 40
    assert f"drift from query {report['began_at']}" in " ".join(res.output.split())
    res = runner.invoke(app, ["relevance", "monitor", "tester", "log.jsonl", "--method", "cusum"])
    assert failed_with(res, "--method")


def test_holm_is_step_down():
    assert holm_reject([0.01, 0.04, 0.03, 0.5], 0.05).tolist() == [True, False, False, False]
    assert holm_reject([0.001, 0.016, 0.03], 0.05).tolist() == [True, True, True]
    assert holm_reject([], 0.05).tolist() == []


@pytest.mark.slow
def test_monitor_family_wise_error_over_in_knowledge_logs_and_power():
    """>= 50 logs with no out-of-knowledge query: the share raising any alarm stays within alpha
    (+2 SE) with Holm, while testing each window alone alarms far more often; logs whose second
    half turns off-topic are caught. Each log re-draws its calibration set from the pooled
    in-knowledge queries of the real setting-1 slice (MiniLM fixtures)."""
    data = Slice()
    base = RelevanceTester().fit(data.corpus, data.calibration)
    pool = base.index_.top_k(np.vstack([data.calibration, data.in_knowledge]), base.k)
    far = base.index_.top_k(data.truthfulqa, base.k)
    j = STATISTICS.index("energy")
    rng = np.random.default_rng(11)
    logs, alpha = 120, 0.05
    alarms = {"holm": 0, "none": 0}
    caught = 0
    for _ in range(logs):
        perm = rng.permutation(len(pool))
        t = base.recalibrated(pool[perm[:100]])
        values = t.statistics_from_topk(pool[perm[100:]])[:, j]  # a log of 100 in-knowledge queries
        for corr in alarms:
            rep = DriftMonitor(t, window=20, step=10, alpha=alpha, correction=corr).run(values)
            alarms[corr] += rep.alarm is not None
            assert len(rep.windows) == 9
        # the same log with half of its second half replaced by off-topic (TruthfulQA) queries
        mixed = pool[perm[100:]].copy()
        half = rng.choice(50, 25, replace=False) + 50
        mixed[half] = far[rng.choice(len(far), 25, replace=False)]
        caught += DriftMonitor(t, window=20, step=10, alpha=alpha).run(t.statistics_from_topk(mixed)[:, j]).alarm \
            is not None
    rate = alarms["holm"] / logs
    assert rate <= alpha + 2 * np.sqrt(alpha * (1 - alpha) / logs), rate
    assert alarms["none"] / logs > 2 * alpha  # why the correction is needed
    assert caught / logs >= 0.9


def test_relevance_report_for_any_tester_feeds_the_report_section(project):
    from ragdx.relevance.boundary import ANSWERABILITY_NOTE
    from ragdx.report.html import _boundary
    from ragdx.report.markdown import render_markdown  # noqa: F401  (the Markdown face reads the same file)

    tmp_path, _ = project
    _calibrate(tmp_path)
    _jsonl(tmp_path / "held.jsonl", [{"question": q} for q in topical_questions(30, 21)])
    _jsonl(tmp_path / "far.jsonl", [{"question": f"{q} {i}"} for i in range(10) for q in OFF_TOPIC])
    # in-domain but unanswerable: same topic words, so the tester cannot tell them apart
    _jsonl(tmp_path / "gaps.jsonl", [{"question": q} for q in topical_questions(20, 77)])
    res = runner.invoke(app, ["relevance", "report", "tester", "-o", "rel/relevance.json", "--in-knowledge",
                              "held.jsonl", "--out-of-knowledge", "offtopic=far.jsonl", "--gaps", "gaps.jsonl",
                              "--no-progress"], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    rel = json.loads((tmp_path / "rel" / "relevance.json").read_text())
    assert rel["n_out"] == 30 and rel["sets"]["offtopic"]["auroc"] > 0.95
    ans = rel["answerability"]
    assert ans["n"] == 20 and ans["flagged"] <= 5 and ans["auroc_vs_in"] < 0.8
    assert "does not detect missing facts" in res.output.replace("\n", " ")
    html = _boundary({"relevance": rel})
    assert "facts left out (in-domain)" in html
    assert "does not detect missing facts about covered topics — the coverage audit does" in html
    assert ANSWERABILITY_NOTE.startswith("this test flags queries far from the corpus")


@pytest.mark.slow
def test_bench_on_the_users_corpus(project):
    tmp_path, _ = project
    _jsonl(tmp_path / "ik.jsonl", [{"question": q, "g": i // 2} for i, q in enumerate(topical_questions(80, 3))])
    _jsonl(tmp_path / "short.jsonl", [{"question": f"{q} {i}"} for i in range(12) for q in OFF_TOPIC])
    _jsonl(tmp_path / "long.jsonl", [{"question": f"{q} and also {OFF_TOPIC[(i + 1) % 3]} {i}"}
                                     for i in range(12) for q in OFF_TOPIC])
    res = runner.invoke(app, ["relevance", "bench", "--corpus", "corpus.jsonl", "--in-knowledge", "ik.jsonl",
                              "--group-field", "g", "--out-of-knowledge", "short=short.jsonl",
                              "--out-of-knowledge", "long=long.jsonl", "--n", "30", "--seeds", "2",
                              "--limit", "30", "-o", "bench", "--no-progress"])
    assert res.exit_code == 0, res.output
    md = (tmp_path / "bench" / "relevance-bench.md").read_text()
    assert "split in half by 'g' (40 groups), seeded: 40 calibration, 40 held out" in md
    assert "subsampled to at most 30 queries each (seeded): short 30 of 36, long 30 of 36" in md
    for text in ("Length (longer = OoK)", "Length (shorter = OoK)", "Length-dev", "length-matched samples",
                 "Drift monitor over whole logs", "FRR held-out"):
        assert text in md, text
    result = json.loads((tmp_path / "bench" / "relevance-bench.json").read_text())
    energy = result["detection"]["all"]["short"]["energy"]["auroc"]["mean"]
    assert energy > 0.95
    assert result["monitor"]["rates"]["0"]["holm"]["alarm_rate"] <= 0.15
    res = runner.invoke(app, ["relevance", "bench", "--corpus", "corpus.jsonl", "--in-knowledge", "ik.jsonl",
                              "--out-of-knowledge", "short=short.jsonl", "-o", "bench"])
    assert failed_with(res, "not empty")
