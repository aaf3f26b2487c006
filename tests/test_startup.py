"""`ragdx --help` and a one-line error stay cheap: the CLI's start-up imports none of the heavy
libraries (scipy, scikit-learn, numpy, torch, sentence-transformers, pandas, SQLAlchemy, the
OpenAI client, ...); each is imported by the command that uses it.

A structural check on ``sys.modules`` in a fresh interpreter, so it cannot flake under load (the
CPU seconds are measured by benchmarks/startup.py, not asserted here).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.support.timing import scaled

#: kept out of every path below
HEAVY = ("scipy", "sklearn", "numpy", "torch", "sentence_transformers", "transformers", "pandas", "pyarrow",
         "sqlalchemy", "sqlglot", "openai", "httpx", "ray", "bm25s", "fastapi", "rich.progress")

_PROBE = """
import json, sys
argv = json.loads(sys.argv[1])
import ragdx.cli
code = None
if argv:
    sys.argv = ["ragdx", *argv]
    try:
        ragdx.cli.main()
    except SystemExit as exc:
        code = exc.code
sys.stdout.flush()
sys.stderr.write("\\n@@" + json.dumps({"code": code, "modules": sorted(sys.modules)}) + "\\n")
"""


def _probe(argv: list[str], tmp_path) -> tuple[int | None, set[str], str]:
    proc = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(argv)], capture_output=True, text=True,
                          cwd=tmp_path, timeout=scaled(120))
    err, _, tail = proc.stderr.rpartition("\n@@")
    assert tail, proc.stderr
    result = json.loads(tail)
    return result["code"], set(result["modules"]), err


def _heavy(modules: set[str]) -> list[str]:
    return [name for name in HEAVY if name in modules]


def test_import_cli_loads_no_heavy_library(tmp_path):
    code, modules, _ = _probe([], tmp_path)
    assert code is None
    assert _heavy(modules) == []
    # the relevance and cache commands are registered, but the knowledge-boundary tester is not loaded
    assert "ragdx.relevance.cli_app" in modules
    assert not {"ragdx.relevance.tester", "ragdx.relevance.drift", "ragdx.relevance.metrics"} & modules


@pytest.mark.parametrize("argv", [["--help"], ["gen", "--help"], ["relevance", "--help"], ["evaluate", "--help"]])
def test_help_loads_no_heavy_library(argv, tmp_path):
    code, modules, _ = _probe(argv, tmp_path)
    assert code in (0, None)
    assert _heavy(modules) == []


@pytest.mark.parametrize("argv, message", [
    (["gen", "--max-groups-per-template", "-1"], "--max-groups-per-template: expected 0 (no cap)"),
    (["gen", "--null-answers", "bogus"], "--null-answers: expected one of drop, unanswerable, keep"),
    (["relevance", "calibrate", "corpus.jsonl", "-o", "."], "already exists (pass --overwrite to replace it)"),
    (["report", "run", "--format", "pdf"], "--format: expected one of html, md, got 'pdf'"),
    (["run", "-d", "ds", "-o", "out", "--executor", "bogus"], "--executor: expected one of local, ray"),
])
def test_option_error_is_one_line_before_any_heavy_import(argv, message, tmp_path):
    code, modules, err = _probe(argv, tmp_path)
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1, err
    assert _heavy(modules) == []


def test_relevance_package_names_still_resolve():
    # ragdx.relevance imports its names on first use; `from ragdx.relevance import X` is unchanged
    import ragdx.relevance as relevance

    for name in relevance.__all__:
        assert getattr(relevance, name) is not None
    assert set(relevance.__all__) <= set(dir(relevance))
    with pytest.raises(AttributeError):
        relevance.no_such_name  # noqa: B018
