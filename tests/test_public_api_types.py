"""The public API is typed as documented: ``mypy --strict`` passes on tests/typecheck/public_api.py,
which uses every name in ``ragdx.__all__`` (``ragdx.evaluate(...)`` is a function to mypy, not a
module), and the same check rejects a script that misuses the API's types."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import ragdx
from tests.conftest import REPO
from tests.support.timing import scaled

TYPECHECK = REPO / "tests" / "typecheck"

MISUSE = '''
import ragdx

count: int = ragdx.evaluate("runs/mine")
ragdx.report(["runs/mine"], out=3)
ragdx.export("dataset", "out.jsonl", to="ragas", run=1.5)
ragdx.generate_dataset("sqlite:///shop.db", "dataset", null_answers="sometimes")
ragdx.run(print, "dataset", "runs/x", contexts="inline")
'''


def _mypy(*files, cache) -> tuple[int, str]:
    env = {**os.environ, "MYPYPATH": str(REPO / "src")}  # this tree's ragdx, whatever is installed
    done = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(TYPECHECK / "mypy.ini"),
                           "--cache-dir", str(cache), "--no-error-summary", *map(str, files)],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=scaled(300))
    return done.returncode, done.stdout + done.stderr


def test_the_script_uses_every_public_name():
    text = (TYPECHECK / "public_api.py").read_text(encoding="utf-8")
    unused = [n for n in ragdx.__all__ if not re.search(rf"\b{re.escape(n)}\b", text.split('"""', 2)[2])]
    assert unused == []


def test_mypy_strict_passes_on_the_public_api_and_rejects_its_misuse(tmp_path):
    misuse = tmp_path / "misuse.py"
    misuse.write_text(MISUSE, encoding="utf-8")
    code, out = _mypy(TYPECHECK / "public_api.py", misuse, cache=tmp_path / "cache")
    assert code == 1, out
    lines = [line for line in out.splitlines() if ": error:" in line]
    assert not [line for line in lines if "public_api.py" in line], out
    # each misuse is caught with the API's own types (none of them is a module or Any)
    # ... and a misspelt generation policy or contexts mode too (issue 20: choices are typed)
    assert [int(line.split(":")[1]) for line in lines] == [4, 5, 6, 7, 8], out
    assert '"EvaluationResult", variable has type "int"' in lines[0]
    assert "Module not callable" not in out
