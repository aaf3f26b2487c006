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


def assert_surfaces_at_offsets(corpus: Path, truth: dict[str, Any]) -> None:
    """Every recorded surface is the text at its offsets (an HTML document's entities read as
    text); a PDF's statements have no offsets (see :func:`assert_pdfs_hold_their_surfaces`)."""
    import html

    texts: dict[str, str] = {}
    for f in truth["facts"]:
        if f["doc_id"].endswith(".pdf"):
            assert f["start"] is None and f["end"] is None
            continue
        if f["doc_id"] not in texts:
            texts[f["doc_id"]] = (corpus / "docs" / f["doc_id"]).read_text(encoding="utf-8")
        raw = texts[f["doc_id"]][f["start"] : f["end"]]
        if f["doc_id"].endswith(".html"):
            raw = html.unescape(raw)
        assert raw == f["surface"], f


def pdf_text(path: Path) -> str:
    """The text lines of a PDF written by a corpus generator (uncompressed ``Tj T*`` strings)."""
    import re

    raw = path.read_bytes().decode("cp1252")
    lines = re.findall(r"\(((?:[^()\\]|\\.)*)\) Tj T\*", raw)
    return "\n".join(re.sub(r"\\(.)", r"\1", s) for s in lines)


def assert_pdfs_hold_their_surfaces(corpus: Path, truth: dict[str, Any]) -> None:
    """The corpus has PDFs, each well formed (header, trailer, every xref entry at its object) and
    holding every surface the truth records for it."""
    pdfs = sorted((corpus / "docs").rglob("*.pdf"))
    assert pdfs
    for p in pdfs:
        raw = p.read_bytes()
        assert raw.startswith(b"%PDF-1.4") and raw.rstrip().endswith(b"%%EOF")
        xref = int(raw.rsplit(b"startxref", 1)[1].split()[0])
        assert raw[xref : xref + 4] == b"xref"
        table = raw[xref:].split(b"trailer")[0].split(b"\n")[3:]
        for i, line in enumerate(x for x in table if x.strip()):
            assert raw[int(line[:10]) :].startswith(f"{i + 1} 0 obj".encode())
        text = pdf_text(p)
        doc = str(p.relative_to(corpus / "docs"))
        for f in truth["facts"]:
            if f["doc_id"] == doc:
                assert f["surface"] in text, f


def assert_truth_bookkeeping(truth: dict[str, Any], docs: set[str] | list[str]) -> None:
    """Distractors and documents without a fact exist; each split fact's two parts sit in its two
    documents; no omitted fact is stated; no distractor states a fact."""
    for d in truth["distractor_doc_ids"] + truth["no_fact_doc_ids"]:
        assert d in docs
    for sp in truth["split_facts"]:
        parts = [f for f in truth["facts"] if f.get("split_id") == sp["split_id"]]
        assert {f["doc_id"] for f in parts} == set(sp["doc_ids"])
        assert len(parts) == 2
    stated = {f["fact_key"] for f in truth["facts"]}
    for g in truth["omitted"].values():
        assert not stated & set(g["fact_keys"])
    assert not any(f["doc_id"] in truth["distractor_doc_ids"] for f in truth["facts"])
