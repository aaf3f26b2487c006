"""The Python API: its names (locked), the quickstart example run end to end, ``run`` inside a
running event loop (a notebook), and the subpackages that share a name with an API function."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import types

import pytest

import ragdx
from ragdx.errors import RagdxError
from tests.conftest import REPO
from tests.support.timing import scaled
from tests.test_runner import make_dataset

API = ["RagdxError", "__version__", "generate_dataset", "run", "arun", "evaluate", "compare", "report", "export",
       "as_system", "RunOptions", "EvaluationResult", "Metric", "RunSummary", "RelevanceTester", "assert_metrics",
       "assert_no_regression"]


def test_the_public_names_are_locked():
    assert sorted(ragdx.__all__) == sorted(API)  # adding or removing a name is a deliberate change here
    for name in API:
        assert getattr(ragdx, name) is not None
    assert all(callable(getattr(ragdx, n)) for n in API if n not in ("__version__",))


def test_names_shared_with_a_subpackage_are_plain_functions_and_the_subpackages_plain_modules(tmp_path):
    from ragdx.evaluate import compare_paths, judges  # the subpackage, reached through sys.modules
    from ragdx.evaluate import report as module
    from ragdx.export import FORMATS
    from ragdx.report import write_report

    assert module.__name__ == "ragdx.evaluate.report" and judges.__name__ == "ragdx.evaluate.judges"
    assert compare_paths is module.compare_paths is sys.modules["ragdx.evaluate"].compare_paths
    assert write_report is sys.modules["ragdx.report"].write_report and "jsonl" in FORMATS
    for name in ("evaluate", "report", "export"):
        assert isinstance(getattr(ragdx, name), types.FunctionType), name
        assert getattr(ragdx, name).__module__ == "ragdx._api"
        assert type(sys.modules[f"ragdx.{name}"]) is types.ModuleType, name  # no callable module class
    assert type(ragdx) is types.ModuleType
    with pytest.raises(RagdxError, match="missing"):
        ragdx.evaluate(tmp_path / "missing")
    with pytest.raises(AttributeError):
        ragdx.no_such_name  # noqa: B018


def test_the_subpackages_resolve_every_name_they_list():
    # ragdx.evaluate and ragdx.report import their names on first use (ragdx loads both at its import)
    for name in ("ragdx.evaluate", "ragdx.report", "ragdx.export"):
        package = sys.modules[name]
        assert [n for n in package.__all__ if getattr(package, n, None) is None] == [], name
        assert set(package.__all__) <= set(dir(package))
    # a name a subpackage shares with its own submodule is the submodule, whatever was imported first
    from ragdx.evaluate import compare

    assert compare is sys.modules["ragdx.evaluate.compare"] and callable(compare.compare)


def test_a_subpackage_imported_before_the_package_leaves_the_function_in_place(tmp_path):
    # the import system binds ragdx.evaluate to the subpackage when it first loads it: ragdx loads the
    # three itself before binding the functions, so a program that starts with a submodule keeps them
    code = ("import ragdx.evaluate.judges, ragdx.report.markdown, ragdx.export, types, ragdx; "
            "print([type(getattr(ragdx, n)).__name__ for n in ('evaluate', 'report', 'export')])")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                          timeout=scaled(120))
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "['function', 'function', 'function']"


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
