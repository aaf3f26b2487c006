"""The Wexcombe University Press corpus (benchmarks/corpora/wexcombe_press): its generators are
deterministic, every recorded surface sits at its offsets, and every exact statement agrees with the
database once the form it was written in is undone.

Forms undone: lowercase/uppercase, abbrev (HB/PB/EB), code (imprint code, status IP/NYP/OP),
gbp/gbp-short/gbp-code/plain-number (currency and thousands separators dropped), thousands/number-k,
the date-* forms and iso, isbn-hyphens.  A foreign key stated as a hop names the row holding it or
the row it points to (a book by title or ISBN, a person by name, initials or e-mail, a series by
title, an imprint by name or code).  A composite-key row's existence names one of its parts.
Approximate statements (exact false) only need their row and a non-NULL value.
"""

from __future__ import annotations

import datetime as dt
import filecmp
import html
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.corpus_checks import read_only, read_truth

CORPUS = Path(__file__).resolve().parents[1] / "benchmarks" / "corpora" / "wexcombe_press"
DB = CORPUS / "wexcombe.sqlite"
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]
ORDINAL = {"first": 1, "second": 2, "third": 3, "fourth": 4}
HOPS = {
    ("books", "series_id"): "series",
    ("books", "imprint_code"): "imprints",
    ("books", "editor_id"): "staff",
    ("series", "imprint_code"): "imprints",
    ("series", "editor_id"): "staff",
    ("staff", "reports_to"): "staff",
    ("rights_deals", "book_id"): "books",
}
PKS = {"imprints": ["imprint_code"], "staff": ["staff_id"], "series": ["series_id"], "authors": ["author_id"],
       "books": ["book_id"], "book_authors": ["book_id", "author_id"], "print_runs": ["book_id", "run_no"],
       "rights_deals": ["deal_id"]}


@pytest.fixture(scope="module")
def truth():
    return read_truth(CORPUS)


@pytest.fixture(scope="module")
def con():
    yield from read_only(DB)


def test_generators_are_deterministic(tmp_path):
    db = tmp_path / "wexcombe.sqlite"
    subprocess.run([sys.executable, str(CORPUS / "make_db.py"), "--out", str(db)], check=True)
    assert db.read_bytes() == DB.read_bytes()
    subprocess.run([sys.executable, str(CORPUS / "make_corpus.py"), "--db", str(db), "--out", str(tmp_path)],
                   check=True, capture_output=True)
    assert (tmp_path / "truth.json").read_bytes() == (CORPUS / "truth.json").read_bytes()
    cmp = filecmp.dircmp(tmp_path / "docs", CORPUS / "docs")

    def diffs(c):
        out = c.left_only + c.right_only + c.diff_files + c.funny_files
        for sub in c.subdirs.values():
            out += diffs(sub)
        return out

    assert diffs(cmp) == []
    mine = sorted(str(p.relative_to(tmp_path / "docs")) for p in (tmp_path / "docs").rglob("*") if p.is_file())
    for rel in mine:
        assert (tmp_path / "docs" / rel).read_bytes() == (CORPUS / "docs" / rel).read_bytes(), rel


def test_truth_shape(truth):
    docs = {d["doc_id"] for d in truth["documents"]}
    on_disk = {str(p.relative_to(CORPUS / "docs")) for p in (CORPUS / "docs").rglob("*") if p.is_file()}
    assert docs == on_disk
    assert 120 <= len(docs) <= 160
    stems = [os.path.splitext(d)[0] for d in docs]
    assert len(stems) == len(set(stems))
    for f in truth["facts"]:
        assert f["doc_id"] in docs
        assert set(f) >= {"fact_key", "doc_id", "surface", "start", "end", "exact", "how", "form"}
    assert set(truth["distractor_doc_ids"]) <= docs and set(truth["no_fact_doc_ids"]) <= docs
    distractor_facts = [f for f in truth["facts"] if f["doc_id"] in set(truth["distractor_doc_ids"])]
    assert distractor_facts == []
    stated = {f["fact_key"] for f in truth["facts"]}
    for group in truth["omitted"].values():
        assert not stated & set(group["fact_keys"])
    for sp in truth["split_facts"]:
        for doc in sp["doc_ids"]:
            assert any(f["fact_key"] == sp["fact_key"] and f["doc_id"] == doc and f.get("split_id") == sp["split_id"]
                       for f in truth["facts"])


def test_surfaces_at_their_offsets(truth):
    texts = {}
    for f in truth["facts"]:
        if f["doc_id"] not in texts:
            texts[f["doc_id"]] = (CORPUS / "docs" / f["doc_id"]).read_text(encoding="utf-8")
        s = texts[f["doc_id"]][f["start"] : f["end"]]
        if f["doc_id"].endswith(".html"):
            s = html.unescape(s)
        assert s == f["surface"], f


def _date(surface, form):
    if form == "iso":
        return surface
    if form == "date-uk":
        d, m, y = surface.split("/")
        return f"{y}-{m}-{d}"
    if form == "date-dots":
        d, m, y = surface.split(".")
        return f"20{y}-{int(m):02d}-{int(d):02d}"
    if form == "date-us":
        md, y = surface.split(", ")
        mon, d = md.split()
        return f"{y}-{MONTHS.index(mon) + 1:02d}-{int(d):02d}"
    parts = surface.split()
    if form == "date-weekday":
        parts = parts[1:]
        assert surface.split()[0] == dt.date(int(parts[2]), MONTHS.index(parts[1]) + 1, int(parts[0])).strftime("%A")
    d, mon, y = parts
    idx = [m[:3] for m in MONTHS].index(mon[:3]) if form == "date-abbrev" else MONTHS.index(mon)
    return f"{y}-{idx + 1:02d}-{int(d):02d}"


def _names(con, table, pk):
    r = con.execute(f"SELECT * FROM {table} WHERE {PKS[table][0]} = ?", (pk,)).fetchone()
    assert r is not None, (table, pk)
    if table == "books":
        return {r["title"], r["isbn"]}
    if table == "staff":
        return {f"{r['first_name']} {r['last_name']}", r["first_name"][0] + r["last_name"][0], r["email"]}
    if table == "series":
        return {r["title"]}
    if table == "imprints":
        return {r["name"], r["imprint_code"]}
    if table == "authors":
        return {r["full_name"]}
    if table == "rights_deals":
        return {str(r["deal_id"])}
    raise AssertionError(table)


def test_exact_values_agree_with_the_database(truth, con):
    checked = 0
    for f in truth["facts"]:
        table, rest = f["fact_key"].split(".", 1)
        col, key = rest.split("@", 1)
        keys = key.split("|")
        where = " AND ".join(f"{c} = ?" for c in PKS[table])
        row = con.execute(f"SELECT * FROM {table} WHERE {where}", keys).fetchone()
        assert row is not None, f
        val = row[col]
        s, form = f["surface"], f["form"]
        if not f["exact"]:
            assert val is not None, f
            continue
        if form == "job-number":  # the tracker's half of a split fact: the printer's job number
            assert f["how"] == "split"
            continue
        if (table, col) in HOPS:
            assert s in _names(con, table, keys[0]) | _names(con, HOPS[(table, col)], val), f
        elif table == "book_authors" and col == "author_id":
            assert s in _names(con, "authors", keys[1]) | _names(con, "books", keys[0]), f
        elif table == "print_runs" and col == "run_no":
            assert s in _names(con, "books", keys[0]) | {keys[1]} or ORDINAL.get(s) == int(keys[1]), f
        elif form in ("verbatim", "heading"):
            assert s == str(val), f
        elif form == "lowercase":
            assert s == str(val).lower(), f
        elif form == "abbrev":
            assert {"HB": "Hardback", "PB": "Paperback", "EB": "Ebook only"}[s] == val, f
        elif form == "code":
            if col == "status":
                assert {"IP": "In print", "NYP": "Forthcoming", "OP": "Out of print"}[s] == val, f
            else:
                assert s == (row["imprint_code"] if table == "imprints" else val), f
        elif form in ("gbp", "gbp-short", "gbp-code", "plain-number"):
            assert abs(float(s.replace("£", "").replace("GBP", "").replace(",", "").strip()) - val) < 0.005, f
        elif form == "thousands":
            assert int(s.replace(",", "")) == val, f
        elif form == "number-k":
            assert round(float(s[:-1]) * 1000) == val, f
        elif form == "isbn-hyphens":
            assert s.replace("-", "") == val, f
        elif form in ("iso", "date-uk", "date-dots", "date-us", "date-words", "date-abbrev", "date-weekday"):
            assert _date(s, form) == val, f
        else:
            raise AssertionError(f"unchecked form {form}: {f}")
        checked += 1
    assert checked > 3000


def test_scorer_needs(con):
    spec = importlib.util.spec_from_file_location("wexcombe_score_linking", CORPUS / "score_linking.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    needs = mod.Needs(str(DB))
    b = con.execute("SELECT book_id, title FROM books WHERE series_id IS NOT NULL ORDER BY book_id LIMIT 1").fetchone()
    title = b["title"].replace("'", "''")
    sql = ("SELECT series.title FROM books JOIN series ON books.series_id = series.series_id "
           f"WHERE books.title = '{title}'")
    assert needs(sql) == [[f"books.series_id@{b['book_id']}"]]
    ba = con.execute("SELECT book_id, author_id FROM book_authors ORDER BY book_id, author_id LIMIT 1").fetchone()
    name = con.execute("SELECT full_name FROM authors WHERE author_id = ?", (ba["author_id"],)).fetchone()[0]
    sql = ("SELECT books.title FROM book_authors JOIN authors ON book_authors.author_id = authors.author_id "
           f"JOIN books ON book_authors.book_id = books.book_id WHERE authors.full_name = '{name}'")
    assert [f"book_authors.author_id@{ba['book_id']}|{ba['author_id']}"] in needs(sql)
    assert mod.stem("web/books/low-water.html") == "web/books/low-water"
