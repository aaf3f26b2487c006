"""The Ray executor: records identical to the local executor's, resume, --rerun-failed, errors.

A real Ray instance runs on this machine (``ray.init(address="local", num_cpus=2)``, one node:
on this host a second node started with ``ray start`` registers under an address the head
cannot reach back, see the module docs of ``ragdx.rag.executor_ray``). The systems at the top
are importable as ``tests.test_ray:<name>`` by the Ray workers, which start in this directory.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ragdx.errors import RagdxError
from ragdx.rag.runner import read_manifest, read_run, run
from tests.test_runner import make_dataset

REPO = Path(__file__).resolve().parents[1]

pytest.importorskip("ray", reason="the Ray executor's tests need the ray extra (pip install 'ragdx[ray]')")

CITIES = ["Arlen", "Bexmoor", "Corvale", "Dunmere", "Elsfield", "Farrow", "Glenholt", "Harwick"]


def flaky_answer(query: str) -> str:
    """Fails on queries whose number is odd while the marker file exists (named by an env var)."""
    marker = os.environ.get("RAGDX_TEST_FLAKY_MARKER")
    number = int(query.rsplit("#", 1)[1])
    if marker and Path(marker).exists() and number % 2:
        raise RuntimeError(f"flaky failure on {number}")
    return f"answer {number} from pid-independent code"


def worker_pid(query: str) -> str:
    return str(os.getpid())


@pytest.fixture(scope="module")
def ray_local():
    import ray

    env = {"PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1", "OMP_WAIT_POLICY": "passive"}
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": env})
    try:
        yield ray
    finally:
        ray.shutdown()


def pipeline_setup(tmp: Path, n: int = 24) -> tuple[Path, Path]:
    """A CPU-bound pipeline (keyword overlap + extractive reader) over a small corpus, and a
    dataset whose queries ask about its documents."""
    docs = {f"city-{c.lower()}": (f"{c} is a town of {1000 + 37 * i} people. The mayor of {c} is "
                                  f"{CITIES[(i + 3) % len(CITIES)]} Smith. {c} lies on the river Ous{i}.")
            for i, c in enumerate(CITIES)}
    (tmp / "corpus.json").write_text(json.dumps(docs), encoding="utf-8")
    spec = {"name": "kw-extractive", "corpus": str(tmp / "corpus.json"), "top_k": 3,
            "chunker": {"type": "whole_document"}, "retriever": {"type": "keyword"},
            "generator": {"type": "extractive"}}
    (tmp / "pipeline.yaml").write_text(json.dumps(spec), encoding="utf-8")  # JSON is YAML
    dataset = tmp / "dataset"
    dataset.mkdir()
    lines = []
    questions = ("How many people live in {c}?", "Who is the mayor of {c}?", "Which river does {c} lie on?")
    for k in range(n):
        c = CITIES[k % len(CITIES)]
        lines.append(json.dumps({
            "id": f"q{k:03d}", "group_id": f"g{k // 3}", "sql_template_id": "t1", "text_template_id": "x1",
            "style": "short", "schema": "Town", "table": "Town", "params": {"Town.Name": c}, "sql": "SELECT 1",
            "query": questions[k % 3].format(c=c) + f" #{k}", "answer_columns": ["Mayor"],
            "answer_rows": [["x"]], "answer_text": "x", "answer_kind": "single"}))
    (dataset / "records.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tmp / "pipeline.yaml", dataset


def _records(run_dir: Path) -> list[dict]:
    # everything but the timings, which no two runs share
    return [{k: v for k, v in o.to_dict().items() if k != "latency_s"} for o in read_run(run_dir)]


@pytest.mark.slow
def test_pipeline_records_match_the_local_executor(ray_local, tmp_path):
    from ragdx.rag.executor_ray import ray_system_from_options
    from ragdx.rag.runner import system_from_options

    spec, dataset = pipeline_setup(tmp_path)
    local = run(system_from_options(spec, dataset=dataset), dataset, tmp_path / "local", progress=False)
    system, concurrency = ray_system_from_options(spec, {"dataset": dataset}, workers=2, concurrency=4)
    on_ray = run(system, dataset, tmp_path / "ray", concurrency=concurrency, progress=False)
    assert (local.ok, on_ray.ok, on_ray.failed) == (24, 24, 0)
    assert system.build_s is not None and system._actors == []  # built once each, then stopped
    assert _records(tmp_path / "ray") == _records(tmp_path / "local")
    assert any(r["answer"] for r in _records(tmp_path / "ray"))
    # the same identity: a run started locally can be resumed on Ray and back
    assert (read_manifest(tmp_path / "ray")["system"] == read_manifest(tmp_path / "local")["system"])
    # one line per record: nothing was answered twice
    assert len((tmp_path / "ray" / "results.jsonl").read_text().splitlines()) == 24


@pytest.mark.slow
def test_resume_and_rerun_failed_on_ray(ray_local, tmp_path, monkeypatch):
    from ragdx.rag.executor_ray import ray_system_from_options

    dataset = make_dataset(tmp_path / "data", 20)
    marker = tmp_path / "fail-odd"
    marker.touch()
    monkeypatch.setenv("RAGDX_TEST_FLAKY_MARKER", str(marker))
    ray_local.shutdown()  # workers must see the marker variable: a fresh instance from this env
    ray_local.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
                   runtime_env={"env_vars": {"PYTHONPATH": str(REPO), "RAGDX_TEST_FLAKY_MARKER": str(marker)}})

    def ray_run(**kw):
        system, conc = ray_system_from_options(None, {"callable_": "tests.test_ray:flaky_answer"}, workers=2)
        return run(system, dataset, tmp_path / "run", concurrency=conc, progress=False, **kw)

    first = ray_run(limit=8)
    assert (first.ok, first.failed, first.pending) == (4, 4, 12)
    second = ray_run()  # resume: only the 12 never sent
    assert (second.attempted, second.ok, second.failed, second.pending) == (12, 10, 10, 0)
    marker.unlink()
    third = ray_run(rerun_failed=True)
    assert (third.attempted, third.ok, third.failed) == (10, 20, 0)
    lines = [json.loads(x) for x in (tmp_path / "run" / "results.jsonl").read_text().splitlines()]
    assert len(lines) == 30  # 20 first attempts + 10 retries, never a success sent twice
    failed_before = [o for o in lines[:20] if o["error"]]
    assert all("flaky failure" in o["error"] for o in failed_before) and len(failed_before) == 10
    # and a local run of the same callable agrees record for record
    local = run(__import__("ragdx.rag.systems", fromlist=["CallableSystem"]).CallableSystem(
        "tests.test_ray:flaky_answer"), dataset, tmp_path / "local", progress=False)
    assert local.ok == 20
    assert _records(tmp_path / "run") == _records(tmp_path / "local")


@pytest.mark.slow
def test_cli_runs_on_ray_workers(ray_local, tmp_path):
    from typer.testing import CliRunner

    from ragdx.cli import app

    dataset = make_dataset(tmp_path / "data", 12)
    result = CliRunner().invoke(app, ["run", "-d", str(dataset), "-o", str(tmp_path / "run"), "--executor", "ray",
                                      "--workers", "2", "--callable", "tests.test_ray:worker_pid",
                                      "--no-progress"])
    assert result.exit_code == 0, result.output
    pids = {o.answer for o in read_run(tmp_path / "run")}
    assert len(read_run(tmp_path / "run")) == 12
    assert str(os.getpid()) not in pids and 1 <= len(pids) <= 2  # answered by the actors, not here


def test_executor_options_are_checked(tmp_path):
    dataset = make_dataset(tmp_path / "data", 2)

    def ragdx(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "ragdx.cli", "run", "-d", str(dataset), "-o",
                               str(tmp_path / "r"), "--callable", "tests.test_ray:flaky_answer", *args],
                              capture_output=True, text=True, cwd=REPO)

    bad = ragdx("--executor", "spark")
    assert bad.returncode == 2 and "--executor" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
    stray = ragdx("--workers", "3")
    assert stray.returncode == 2 and "--executor ray" in stray.stderr
    assert not (tmp_path / "r" / "results.jsonl").exists()


def test_missing_extra_is_one_line(tmp_path):
    # a Python where 'import ray' fails, as without the extra
    code = ("import sys; sys.modules['ray'] = None\n"
            "from ragdx.rag.executor_ray import import_ray\n"
            "from ragdx.errors import RagdxError\n"
            "try:\n    import_ray()\nexcept RagdxError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert "pip install 'ragdx[ray]'" in out.stdout and len(out.stdout.strip().splitlines()) == 1


def test_bad_worker_count_is_refused():
    from ragdx.rag.executor_ray import RaySystem
    from ragdx.rag.systems import CallableSystem

    local = CallableSystem("tests.test_ray:flaky_answer")
    with pytest.raises(RagdxError, match="at least 1"):
        RaySystem(local, lambda: local, workers=0)
