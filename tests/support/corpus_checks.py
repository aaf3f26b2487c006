"""What the tests of the benchmark corpora (benchmarks/corpora/*) share: the writer's truth, the
database read-only, its rows, and the check that both generators give the committed bytes again.
Each corpus's own test keeps what is its own (its keys, its traps, its value forms)."""

from __future__ import annotations

import filecmp
import importlib.util
import json
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any


def read_truth(corpus: Path) -> dict[str, Any]:
    """The corpus's ``truth.json``."""
    return json.loads((corpus / "truth.json").read_text(encoding="utf-8"))


def read_only(db: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection to the corpus's database, rows by name (for a fixture: ``yield from``)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    con.row_factory = sqlite3.Row
    try:
        yield con
    finally:
        con.close()


def table_rows(path: Path) -> dict[str, list[Any]]:
    """Every table's rows, in a fixed order: two databases hold the same data when these agree."""
    con = sqlite3.connect(path)
    try:
        return {t: con.execute(f'SELECT * FROM "{t}" ORDER BY 1, 2').fetchall()
                for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")}
    finally:
        con.close()


def assert_regenerates(corpus: Path, db: Path, tmp_path: Path) -> None:
    """``make_db.py --out`` and ``make_corpus.py --db --out`` give the committed database's rows, the
    committed ``truth.json`` byte for byte and the same documents byte for byte."""
    fresh = tmp_path / db.name
    subprocess.run([sys.executable, str(corpus / "make_db.py"), "--out", str(fresh)], check=True,
                   capture_output=True)
    assert table_rows(fresh) == table_rows(db)
    subprocess.run([sys.executable, str(corpus / "make_corpus.py"), "--db", str(fresh), "--out", str(tmp_path)],
                   check=True, capture_output=True)
    assert (tmp_path / "truth.json").read_bytes() == (corpus / "truth.json").read_bytes()
    mine = sorted(str(p.relative_to(tmp_path / "docs")) for p in (tmp_path / "docs").rglob("*") if p.is_file())
    theirs = sorted(str(p.relative_to(corpus / "docs")) for p in (corpus / "docs").rglob("*") if p.is_file())
    assert mine == theirs
    _, mismatch, errors = filecmp.cmpfiles(tmp_path / "docs", corpus / "docs", mine, shallow=False)
    assert not mismatch and not errors


def load_module(name: str, path: Path) -> ModuleType:
    """A corpus's script (its generator, its scorer) imported from its file."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
