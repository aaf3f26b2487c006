"""What a first-time user meets (issue 23, items 8-11): ``--version``, a file name where a URL
belongs, built-in pipelines by name, progress that reads well in a log, tables that fit 80
columns, waits that stretch with the machine's load."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from ragdx.errors import RagdxError
from ragdx.progress import bars
from ragdx.rag.resolve import spec_file
from ragdx.rag.runner import RunSummary, summary_table
from tests.support.timing import scaled
from tests.test_runner import make_dataset

REPO = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "OMP_WAIT_POLICY": "passive", "HF_HUB_OFFLINE": "1", "NO_COLOR": "1", "COLUMNS": "80"}


def ragdx(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ragdx.cli", *args], capture_output=True, text=True, cwd=cwd,
                          env={**ENV, **env}, timeout=scaled(300))


def test_version(tmp_path):
    from ragdx import __version__

    done = ragdx("--version", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.strip() == f"ragdx {__version__}"


def test_a_file_name_where_a_url_belongs_says_how_to_write_it(tmp_path):
    (tmp_path / "shop.sqlite").write_bytes(b"")
    done = ragdx("schema", "shop.sqlite", cwd=tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "sqlite:///shop.sqlite" in lines[0] and lines[0].startswith("error: shop.sqlite:")


def test_built_in_pipelines_by_name_from_any_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("er", "er.yaml", "mq-cpr"):
        path = spec_file(name)
        assert path.parent.name == "configs" and path.stem == name.removesuffix(".yaml")
    # a user's own file of that name wins over the built-in
    (tmp_path / "er.yaml").write_text("name: mine\n")
    assert spec_file("er.yaml") == Path("er.yaml")
    with pytest.raises(RagdxError, match="not a built-in pipeline .*er, cpr"):
        spec_file("nosuch")
    with pytest.raises(RagdxError):
        spec_file("elsewhere/er.yaml")  # a path is a path: no built-in hides a typo in a folder name


def test_built_in_pipelines_cache_per_user_not_in_the_working_directory():
    configs = sorted((REPO / "src/ragdx/rag/configs").glob("*.yaml"))
    assert len(configs) == 8
    for path in configs:
        text = path.read_text()
        assert ".ragdx-cache" not in text and "cache_dir: user" in text, path.name


def _plain(every: str, monkeypatch) -> tuple[io.StringIO, object]:
    monkeypatch.setenv("RAGDX_PROGRESS_EVERY", every)
    out = io.StringIO()
    return out, bars(console=Console(file=out, width=80), failed=True, rate=True)


def test_progress_off_a_terminal_prints_plain_lines_and_the_final_count(monkeypatch):
    out, bar = _plain("0", monkeypatch)
    with bar:
        task = bar.add_task("keyword", total=10, failed=0)
        for k in range(10):
            bar.update(task, advance=1, failed=k // 5)
    lines = out.getvalue().splitlines()
    assert "\x1b" not in out.getvalue() and "━" not in out.getvalue()  # no bar drawing in a log
    assert lines[0].startswith("keyword: 1/10 (10 %), 0 failed")
    assert lines[-1].startswith("keyword: 10/10 (100 %), 1 failed")
    assert len(lines) == 11  # every update (interval 0) and the last count once more


def test_progress_off_a_terminal_waits_its_interval(monkeypatch):
    out, bar = _plain("3600", monkeypatch)
    with bar:
        task = bar.add_task("linking", total=5, failed=0)
        bar.advance(task, 5)
    assert out.getvalue().splitlines() == [line for line in out.getvalue().splitlines()
                                           if line.startswith("linking: 5/5 (100 %)")]
    assert len(out.getvalue().splitlines()) == 1


def test_a_run_logged_to_a_file_ends_on_its_total(tmp_path):
    dataset = make_dataset(tmp_path / "ds", 40)
    done = ragdx("run", "-d", str(dataset), "-o", str(tmp_path / "run"), "--callable",
                 "tests.test_runner:async_answer", "--name", "quick", cwd=REPO)
    assert done.returncode == 0, done.stderr
    progress = [line for line in done.stderr.splitlines() if line.startswith("quick:")]
    assert progress and progress[-1].startswith("quick: 40/40 (100 %), 0 failed"), done.stderr


def test_the_run_table_keeps_every_count_at_80_columns():
    summary = RunSummary(run_dir=Path("runs/x"), system="a-system-with-a-rather-long-name-from-a-grid",
                         total=123456, ok=123000, failed=456, pending=0, attempted=123456,
                         latency_s={"mean": 0.123, "p90": 0.456}, prompt_tokens=9876543, completion_tokens=1)
    out = io.StringIO()
    Console(file=out, width=80).print(summary_table([summary]))
    text = out.getvalue()
    for number in ("123456", "123000", "456", "0.123", "0.456", "9876544"):
        assert number in text, text
    assert "…" not in text


def test_waits_stretch_with_the_load(monkeypatch):
    from tests.support import timing

    timing.time_scale.cache_clear()
    monkeypatch.setenv("RAGDX_TEST_TIME_SCALE", "4")
    try:
        assert timing.scaled(30) == 120
        monkeypatch.setenv("RAGDX_TEST_TIME_SCALE", "0.5")
        timing.time_scale.cache_clear()
        assert timing.scaled(30) == 30  # never shortened
    finally:
        timing.time_scale.cache_clear()


def test_time_remaining_shows_when_a_step_takes_longer_than_30_s():
    # Rich's default keeps 30 s of speed samples: a calibration step of 256 texts that takes 45 s
    # left the window empty and the time-remaining column blank for the whole run
    now = [0.0]
    out = io.StringIO()
    bar = bars(console=Console(file=out, width=120, force_terminal=True), get_time=lambda: now[0])
    task = bar.add_task("embedding corpus", total=4)
    for _ in range(2):
        now[0] += 45.0
        bar.advance(task, 1)
    assert bar.tasks[0].time_remaining == pytest.approx(90.0)
