"""benchmarks/million.py: the whole job (gen -> run -> evaluate -> report) on a slice of queries,
and the stage watchdog that keeps a stage from taking the machine's memory."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.timing import scaled

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "million.py"


def load():
    spec = importlib.util.spec_from_file_location("million_benchmark", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def test_a_stage_over_the_memory_limit_is_killed_and_recorded(tmp_path):
    million = load()
    grow = [sys.executable, "-c", "import time; x = bytearray(400 * 2**20); x[::4096] = b'1' * len(x[::4096]); "
            "time.sleep(30)"]
    stage = million.measure("grow", 1, grow, work=tmp_path, limit_mb=150, timeout_s=scaled(60))
    assert stage.code != 0 and stage.note.startswith("killed at") and stage.wall_s < scaled(30)
    assert stage.rss_mb > 150  # the kernel's peak, past the limit it was killed for
    quick = million.measure("quick", 1, [sys.executable, "-c", "print(1)"], work=tmp_path, limit_mb=150,
                            timeout_s=scaled(60))
    assert quick.code == 0 and quick.note == "" and quick.cpu_s > 0


def test_the_trivial_system_answers_four_customers_in_five():
    million = load()
    import asyncio

    answers = [asyncio.run(million.answer(f"In which city is 'Customer {k:07d}'?"))["answer"] for k in range(1, 11)]
    right = [a == f"City {k % million.CITIES:04d}" for k, a in zip(range(1, 11), answers, strict=True)]
    assert sum(right) == 8


@pytest.mark.slow
def test_the_whole_job_on_2000_queries(tmp_path):
    out, profile = tmp_path / "million.md", tmp_path / "profile.txt"
    env = {**os.environ, "OMP_WAIT_POLICY": "passive", "HF_HUB_OFFLINE": "1"}
    r = subprocess.run([sys.executable, str(SCRIPT), "--queries", "2000", "--builtin-queries", "0",
                        "--ray-queries", "0", "--work", str(tmp_path / "work"), "--out", str(out),
                        "--profile", str(profile)], capture_output=True, text=True, env=env, timeout=scaled(600))
    assert r.returncode == 0, r.stderr[-2000:]
    table = out.read_text()
    assert "Command: `" in table and "CPU: " in table
    rows = {line.split(" | ")[0].lstrip("| "): line.split(" | ") for line in table.splitlines()
            if line.startswith("| ") and not line.startswith("| stage")}
    assert set(rows) == {"gen", "run, trivial callable, local", "evaluate", "report"}
    for name, cells in rows.items():
        assert cells[1] == "2,000" and cells[-1].strip(" |") == "", (name, cells)  # nothing killed or failed
        assert float(cells[2]) > 0 and float(cells[4].replace(",", "")) > 0 and cells[7].endswith("×")
    manifest = json.loads((tmp_path / "work" / "run-local" / "manifest.json").read_text())
    assert manifest["counts"]["ok"] == 2000 and manifest["status"] == "complete"
    metrics = json.loads((tmp_path / "work" / "run-local" / "evaluation" / "metrics.json").read_text())
    assert metrics  # evaluate wrote its metrics
    share = re.search(r"= ([0-9.]+) % of the loop", profile.read_text())
    assert share and 0 <= float(share.group(1)) < 100
