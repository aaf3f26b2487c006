"""The Brackwater food bank corpus (benchmarks/corpora/brackwater_foodbank): its generators are
deterministic, every recorded surface sits at its offsets, exact statements agree with the
database, and the scorer gives full marks to a dataset that names exactly the gold documents.

How an exact statement's surface must read as its database value (checked below):
  * a foreign key stated as a hop: the surface is one of the names of the row it points to, or of
    the row holding it (a hub by name or short name, a donor by name in any case, a volunteer by
    badge or any written form of the name, a donation by receipt number, an item by name or code);
  * the existence of a composite-key row: the surface names one of its parts (for hub_hours the
    weekday, also abbreviated or plural);
  * any other column: the surface equals the value once the form's rendering is undone (case,
    plural, date format, units, currency, 12-hour or dotted times, yes/no, Y/N, L, numbers in words,
    a role's initial letter).
Approximate statements (exact false) only need their row to exist and the value to be non-NULL.
"""

from __future__ import annotations

import datetime as dt
import filecmp
import html
import importlib.util
import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.corpus_checks import read_only, read_truth

CORPUS = Path(__file__).resolve().parents[1] / "benchmarks" / "corpora" / "brackwater_foodbank"
DB = CORPUS / "brackwater.sqlite"

HOPS = {
    ("hubs", "parent_hub_id"): "hubs",
    ("volunteers", "home_hub_id"): "hubs",
    ("donations", "donor_id"): "donors",
    ("donations", "hub_id"): "hubs",
    ("donations", "logged_by"): "volunteers",
}
PKS = {"hubs": ["hub_id"], "volunteers": ["volunteer_id"], "donors": ["donor_id"], "items": ["item_id"],
       "donations": ["donation_id"], "hub_hours": ["hub_id", "weekday"],
       "hub_volunteers": ["hub_id", "volunteer_id"], "donation_items": ["donation_id", "item_id"]}
EXISTENCE = {("hub_hours", "weekday"), ("hub_volunteers", "volunteer_id"), ("donation_items", "item_id")}
WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
         "ten": 10, "eleven": 11, "twelve": 12}


@pytest.fixture(scope="module")
def truth():
    return read_truth(CORPUS)


@pytest.fixture(scope="module")
def con():
    yield from read_only(DB)


def _load(name):
    spec = importlib.util.spec_from_file_location(f"brackwater_{name}", CORPUS / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _row(con, table, key):
    parts = key.split("|")
    cols = PKS[table]
    where = " AND ".join(f'"{c}" = ?' for c in cols)
    vals = [int(p) if c != "weekday" else p for c, p in zip(cols, parts, strict=False)]
    return con.execute(f'SELECT * FROM "{table}" WHERE {where}', vals).fetchone()


def _names(con, table, pk):
    r = _row(con, table, str(pk))
    if table == "hubs":
        n = r["name"]
        return {n, n[:-4] if n.endswith(" Hub") else n}
    if table == "donors":
        return {r["name"], r["name"].upper()}
    if table == "volunteers":
        f, last = r["first_name"], r["last_name"]
        return {r["badge_no"], f"{f} {last}", f"{last}, {f}", f"{f[0]}. {last}", f"{f} {last[0]}."}
    if table == "donations":
        return {r["receipt_no"]}
    if table == "items":
        return {r["name"], r["name"].lower(), r["sku"]}
    raise AssertionError(table)


def _date(s):
    s = re.sub(r"^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday) ", "", s)
    s = re.sub(r"^(\d+)(st|nd|rd|th) ", r"\1 ", s)
    for fmt in ("%Y-%m-%d", "%d/%m/%Y", "%d/%m/%y", "%d %B %Y", "%d %b %Y", "%d.%m.%Y"):
        try:
            return dt.datetime.strptime(s, fmt).date().isoformat()
        except ValueError:
            pass
    raise AssertionError(f"not a date: {s!r}")


def _time(s, form):
    if form == "time-12h":
        m = re.fullmatch(r"(\d+)(?:\.(\d\d))?(am|pm)", s)
        h = int(m.group(1)) % 12 + (12 if m.group(3) == "pm" else 0)
        return f"{h:02d}:{m.group(2) or '00'}"
    h, m = s.split(".")
    return f"{int(h):02d}:{m}"


def _num(s):
    return float(re.sub(r"[£,]|GBP|kg|\s", "", s))


def _value_ok(surface, form, value):
    if value is None:
        return False
    if form in ("date-words", "date-uk", "date-uk-short", "iso", "date-abbrev", "date-weekday", "date-ordinal",
                "date-dots"):
        return _date(surface) == value
    if form in ("time-12h", "time-dot"):
        return _time(surface, form) == value
    if form in ("number-unit", "plain-number", "gbp-sym", "gbp-code"):
        return abs(_num(surface) - float(value)) < 1e-9
    if form == "number-words":
        return WORDS[surface] == value
    if form == "boolean-word":
        return {"yes": 1, "no": 0}[surface.lower()] == value
    if form == "boolean-letter":
        return {"Y": 1, "N": 0}[surface] == value
    if form == "flag-letter":
        return surface == "L" and value == 1
    if form == "code-letter":
        return surface == str(value)[0].upper()
    if form in ("capitalised", "uppercase", "lowercase"):
        return surface.lower() == str(value).lower()
    if form == "plural":
        return surface in (f"{value}s",)
    if form == "day-abbrev":
        return str(value).startswith(surface)
    if isinstance(value, float):
        return abs(float(surface) - value) < 1e-9
    return surface == str(value)


def test_generators_are_deterministic(tmp_path):
    out = tmp_path / "corpus"
    out.mkdir()
    subprocess.run([sys.executable, str(CORPUS / "make_corpus.py"), "--db", str(DB), "--out", str(out)],
                   check=True, capture_output=True)
    assert (out / "truth.json").read_bytes() == (CORPUS / "truth.json").read_bytes()
    theirs = sorted(str(p.relative_to(out / "docs")) for p in (out / "docs").rglob("*") if p.is_file())
    ours = sorted(str(p.relative_to(CORPUS / "docs")) for p in (CORPUS / "docs").rglob("*") if p.is_file())
    assert theirs == ours
    match, mismatch, errors = filecmp.cmpfiles(out / "docs", CORPUS / "docs", ours, shallow=False)
    assert not mismatch and not errors
    db2 = tmp_path / "b.sqlite"
    subprocess.run([sys.executable, str(CORPUS / "make_db.py"), "--out", str(db2)], check=True, capture_output=True)
    a, b = sqlite3.connect(db2), sqlite3.connect(f"file:{DB}?mode=ro", uri=True)
    for t in PKS:
        assert a.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() == b.execute(
            f"SELECT * FROM {t} ORDER BY 1, 2").fetchall(), t


def test_database_shape(con):
    n = sum(con.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in PKS)
    assert 300 <= n <= 1000
    sarahs = "SELECT COUNT(*) FROM volunteers WHERE first_name='Sarah' AND last_name='Jones'"
    assert con.execute(sarahs).fetchone()[0] == 2


def test_surfaces_sit_at_their_offsets(truth):
    texts = {}
    for f in truth["facts"]:
        doc = f["doc_id"]
        if doc not in texts:
            texts[doc] = (CORPUS / "docs" / doc).read_text(encoding="utf-8")
        src = texts[doc][f["start"]:f["end"]]
        assert (html.unescape(src) if doc.endswith(".html") else src) == f["surface"], f
    on_disk = {str(p.relative_to(CORPUS / "docs")) for p in (CORPUS / "docs").rglob("*") if p.is_file()}
    assert on_disk == {d["doc_id"] for d in truth["documents"]}
    stems = [os.path.splitext(d)[0] for d in on_disk]
    assert len(stems) == len(set(stems))


def test_exact_statements_agree_with_the_database(truth, con):
    bad = []
    for f in truth["facts"]:
        table, rest = f["fact_key"].split(".", 1)
        col, key = rest.split("@", 1)
        row = _row(con, table, key)
        assert row is not None, f
        if not f["exact"]:
            assert row[col] is not None, f
            continue
        s, form = f["surface"], f["form"]
        if (table, col) in HOPS:
            ok = s in _names(con, HOPS[(table, col)], row[col]) or s in _names(con, table, key)
        elif (table, col) in EXISTENCE:
            if table == "hub_hours":
                ok = _value_ok(s, form, row["weekday"]) or s == row["weekday"]
            elif table == "hub_volunteers":
                ok = s in _names(con, "volunteers", row["volunteer_id"]) or s in _names(con, "hubs", row["hub_id"])
            else:
                ok = s in _names(con, "items", row["item_id"]) or s in _names(con, "donations", row["donation_id"])
        else:
            ok = _value_ok(s, form, row[col])
        if not ok:
            bad.append(f)
    assert not bad, bad[:5]


def test_truth_bookkeeping(truth):
    keys = {f["fact_key"] for f in truth["facts"]}
    docs = {d["doc_id"] for d in truth["documents"]}
    for sp in truth["split_facts"]:
        assert set(sp["doc_ids"]) <= docs and len(sp["doc_ids"]) == 2
        assert any(f.get("split_id") == sp["split_id"] for f in truth["facts"])
    for name, g in truth["omitted"].items():
        assert not (set(g["fact_keys"]) & keys), name
    with_facts = {f["doc_id"] for f in truth["facts"]}
    assert not (set(truth["distractor_doc_ids"]) & with_facts)
    assert not (set(truth["no_fact_doc_ids"]) & with_facts)
    assert 90 <= len(docs) <= 130


def test_scorer_gives_full_marks_to_the_gold_documents(tmp_path, truth):
    sc = _load("score_linking")
    needs = sc.Needs(str(DB))
    sqls = [
        "SELECT hubs.town FROM hubs WHERE hubs.name = 'Eastgate Hub'",
        "SELECT donors.name FROM donations JOIN donors ON donations.donor_id = donors.donor_id "
        "WHERE donations.receipt_no = 'R24-0056'",
        "SELECT hub_hours.opens FROM hub_hours JOIN hubs ON hub_hours.hub_id = hubs.hub_id "
        "WHERE hubs.name = 'Eastgate Hub' AND hub_hours.weekday = 'Monday'",
    ]
    assert needs(sqls[0]) == [["hubs.town@3"]]
    assert needs(sqls[1]) == [["donations.donor_id@" + str(
        sqlite3.connect(DB).execute("SELECT donation_id FROM donations WHERE receipt_no='R24-0056'").fetchone()[0])]]
    assert needs(sqls[2]) == [["hub_hours.opens@3|Monday"]]
    exact = {}
    for f in truth["facts"]:
        if f["exact"]:
            exact.setdefault(f["fact_key"], set()).add(sc.stem(f["doc_id"]))
    for sp in truth["split_facts"]:
        exact.setdefault(sp["fact_key"], set()).update(sc.stem(d) for d in sp["doc_ids"])
    ds = tmp_path / "ds"
    ds.mkdir()
    with open(ds / "records.jsonl", "w", encoding="utf-8") as fh:
        for q in sqls:
            need = {k for row in needs(q) for k in row}
            gold = sorted(set().union(*(exact.get(k, set()) for k in need)))
            fh.write(json.dumps({"sql": q, "gold_document_ids": gold, "kb_supported": True, "table": "hubs",
                                 "facts": sorted(need)}) + "\n")
    res = sc.score(str(ds), str(CORPUS / "truth.json"), str(DB))
    assert res["gold_precision"] == 1.0 and res["gold_recall"] == 1.0
    assert res["kb_supported_accuracy"] == 1.0
