"""The Python API: its names (locked), the quickstart example run end to end, ``run`` inside a
running event loop (a notebook), and the subpackages that share a name with an API function."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest

import ragdx
from tests.conftest import REPO
from tests.support.timing import scaled
from tests.test_runner import make_dataset

API = ["RagdxError", "__version__", "generate_dataset", "run", "arun", "evaluate", "compare", "report", "export",
       "as_system", "EvaluationResult", "Metric", "RunSummary", "RelevanceTester", "assert_metrics",
       "assert_no_regression"]


def test_the_public_names_are_locked():
    assert sorted(ragdx.__all__) == sorted(API)  # adding or removing a name is a deliberate change here
    for name in API:
        assert getattr(ragdx, name) is not None
    assert all(callable(getattr(ragdx, n)) for n in API if n not in ("__version__",))


def test_subpackages_named_like_api_functions_stay_modules_and_call_the_function():
    import ragdx.evaluate.report as module  # the import system's path still works

    assert module.__name__ == "ragdx.evaluate.report"
    assert ragdx.evaluate.compare_paths is module.compare_paths
    assert callable(ragdx.evaluate) and callable(ragdx.report) and callable(ragdx.export)
    with pytest.raises(AttributeError):
        ragdx.no_such_name  # noqa: B018


def _answer(query: str) -> dict:
    return {"answer": query.upper(), "contexts": [{"id": "d1", "text": "t"}]}


def test_run_works_inside_a_running_event_loop(tmp_path):
    dataset = make_dataset(tmp_path / "ds", 12)

    async def notebook_cell():
        summary = ragdx.run(_answer, dataset, tmp_path / "run", progress=False)  # not awaited: as in a notebook
        awaited = await ragdx.arun(_answer, dataset, tmp_path / "run2", progress=False, name="again")
        return summary, awaited

    summary, awaited = asyncio.run(notebook_cell())
    assert (summary.ok, summary.failed, awaited.ok) == (12, 0, 12)
    assert awaited.system == "again"
    first = json.loads((tmp_path / "run" / "results.jsonl").read_text().splitlines()[0])
    assert first["answer"] == first["query"].upper()


@pytest.mark.slow
def test_quickstart_example_runs(tmp_path):
    done = subprocess.run([sys.executable, str(REPO / "examples" / "quickstart.py"), str(tmp_path)], cwd=REPO,
                          capture_output=True, text=True, timeout=scaled(600),
                          env={"OMP_WAIT_POLICY": "passive", "HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr[-3000:]
    assert "accuracy " in done.stdout and "report →" in done.stdout
    assert (tmp_path / "report.md").read_text().strip()
    assert (tmp_path / "runs" / "mine" / "evaluation" / "metrics.json").exists()
