"""The Hebrant Ferries corpus (benchmarks/corpora/hebrant_ferries): its generators are deterministic,
its truth's offsets agree with the documents, its exact statements agree with the database, and its
scorer reads a tiny hand-made dataset as computed by hand.

Rule by which an exact statement's surface must normalise to the database value:
  * a plain column: the surface is the value once the form's rendering is undone (case, upper case,
    date formats, money with £ / GBP / thousands separators, 24-hour times written compact or as
    7.30am, crossing minutes as `110 min` or `1 hr 50 min`, running days in words, small numbers in
    words, Yes/No, the season label, a route name with an en dash, a vessel name without `MV `,
    a phone number in +44 form, a zero-padded sailing number);
  * a foreign key stated as a hop: the surface names the row it points to or the row that holds it
    (a port by name or code, a vessel by name with or without `MV `, a person by full name,
    initial and surname, or payroll number, a route by code or name);
  * the existence of a composite-key row: the row exists and the surface is its sailing number or a
    tick in the training matrix (or the qualification's name);
  * a split statement: the phone number, or the payroll number that the roster maps to the person.
Approximate statements (exact false) only need their row and a non-NULL value.
"""

from __future__ import annotations

import datetime as dt
import filecmp
import html
import importlib.util
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.corpus_checks import read_only, read_truth, table_rows

CORPUS = Path(__file__).resolve().parents[1] / "benchmarks" / "corpora" / "hebrant_ferries"
DB = CORPUS / "hebrant_ferries.sqlite"

FK = {
    ("vessels", "home_port_id"): "ports",
    ("crew", "vessel_id"): "vessels",
    ("crew", "reports_to"): "crew",
    ("routes", "from_port_id"): "ports",
    ("routes", "to_port_id"): "ports",
    ("sailings", "vessel_id"): "vessels",
    ("incidents", "vessel_id"): "vessels",
    ("incidents", "reported_by"): "crew",
}
EXISTENCE = {("sailings", "sailing_no"), ("crew_qualifications", "qual_id")}
DAYS_WORDS = {"every day": "Daily", "Monday to Saturday": "Mon-Sat", "Monday to Friday": "Mon-Fri",
              "weekends": "Sat-Sun", "Sundays": "Sun"}
NUM_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


@pytest.fixture(scope="module")
def truth():
    return read_truth(CORPUS)


@pytest.fixture(scope="module")
def con():
    yield from read_only(DB)


def test_database_shape(con):
    counts = {t: con.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0]
              for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()}
    assert 6 <= len(counts) <= 9
    assert 400 <= sum(counts.values()) <= 1200


def test_generators_are_deterministic(tmp_path):
    db = tmp_path / "hebrant_ferries.sqlite"
    subprocess.run([sys.executable, str(CORPUS / "make_db.py"), "--out", str(db)], check=True)
    assert table_rows(db) == table_rows(DB)
    subprocess.run([sys.executable, str(CORPUS / "make_corpus.py"), "--db", str(db), "--out", str(tmp_path)],
                   check=True, capture_output=True)
    assert (tmp_path / "truth.json").read_bytes() == (CORPUS / "truth.json").read_bytes()
    ours = sorted(str(p.relative_to(tmp_path / "docs")) for p in (tmp_path / "docs").rglob("*") if p.is_file())
    committed = sorted(str(p.relative_to(CORPUS / "docs")) for p in (CORPUS / "docs").rglob("*") if p.is_file())
    assert ours == committed
    _, mismatch, errors = filecmp.cmpfiles(tmp_path / "docs", CORPUS / "docs", ours, shallow=False)
    assert not mismatch and not errors


def test_truth_schema_and_offsets(truth):
    assert set(truth) == {"database", "facts", "split_facts", "distractor_doc_ids", "no_fact_doc_ids", "omitted",
                          "documents", "stats"}
    docs = {d["doc_id"] for d in truth["documents"]}
    assert 100 <= len(docs) <= 140
    assert len({os.path.splitext(d)[0] for d in docs}) == len(docs)
    texts = {d: (CORPUS / "docs" / d).read_text(encoding="utf-8") for d in docs}
    for f in truth["facts"]:
        assert set(f) <= {"fact_key", "doc_id", "surface", "start", "end", "exact", "how", "form", "split_id"}
        want = html.escape(f["surface"], quote=False) if f["doc_id"].endswith(".html") else f["surface"]
        assert texts[f["doc_id"]][f["start"]:f["end"]] == want, f
    for d in truth["distractor_doc_ids"] + truth["no_fact_doc_ids"]:
        assert d in docs and not any(f["doc_id"] == d for f in truth["facts"])
    for s in truth["split_facts"]:
        assert len(s["doc_ids"]) == 2 and all(d in docs for d in s["doc_ids"])
        got = {f["doc_id"] for f in truth["facts"] if f.get("split_id") == s["split_id"]}
        assert got == set(s["doc_ids"])
    st = truth["stats"]
    assert st["documents"] == len(docs) and st["statements"] == len(truth["facts"])
    stated = {f["fact_key"] for f in truth["facts"]}
    for group in truth["omitted"].values():
        assert not stated & set(group.get("fact_keys", [])), group["rule"]


# --- values as written -> database values ----------------------------------------------------------


def _key(con, fact_key):
    table, rest = fact_key.split(".", 1)
    col, pk = rest.split("@", 1)
    pks = [r[1] for r in sorted(con.execute(f'PRAGMA table_info("{table}")').fetchall(), key=lambda r: r[5]) if r[5]]
    vals = [int(x) for x in pk.split("|")]
    assert len(vals) == len(pks), fact_key
    row = con.execute(f'SELECT * FROM "{table}" WHERE ' + " AND ".join(f'"{p}" = ?' for p in pks), vals).fetchone()
    return table, col, row


def _names(con, table, rid):
    r = con.execute(f"SELECT * FROM {table} WHERE rowid = ?", (rid,)).fetchone()
    if table == "ports":
        return {r["name"], r["code"], r["name"].upper()}
    if table == "vessels":
        return {r["name"], r["name"].upper(), r["name"].removeprefix("MV ")}
    if table == "crew":
        f, last = r["first_name"], r["last_name"]
        return {f"{f} {last}", f"{f[0]}. {last}", r["staff_no"]}
    if table == "routes":
        return {r["code"], r["name"], r["name"].replace(" - ", " – ")}
    raise AssertionError(table)


def _money(s):
    return float(s.replace("£", "").replace("GBP", "").replace(",", "").strip())


def _date(s, form):
    fmts = {"date-iso": "%Y-%m-%d", "date-words": "%d %B %Y", "date-uk": "%d/%m/%Y", "date-abbrev": "%d %b %Y",
            "date-weekday": "%A %d %B %Y"}
    return dt.datetime.strptime(s, fmts[form]).date().isoformat()


def _time(s, form):
    if form == "time-compact":
        return f"{s[:2]}:{s[2:]}"
    if form == "time-12h":
        hm, ampm = s[:-2], s[-2:]
        h, m = (int(x) for x in hm.split("."))
        h = h % 12 + (12 if ampm == "pm" else 0)
        return f"{h:02d}:{m:02d}"
    return s


def _minutes(s):
    total = 0
    parts = s.split()
    for n, unit in zip(parts[::2], parts[1::2], strict=False):
        total += int(n) * (60 if unit == "hr" else 1)
    return total


def _plain(value, surface, form):
    if form == "verbatim":
        return surface == str(value)
    if form == "case":
        return surface.lower() == str(value).lower()
    if form == "uppercase":
        return surface == str(value).upper()
    if form.startswith("date-"):
        return _date(surface, form) == value
    if form.startswith("money-"):
        return abs(_money(surface) - float(value)) < 0.005
    if form.startswith("time-"):
        return _time(surface, form) == value
    if form in ("minutes", "duration-hm"):
        return _minutes(surface) == value
    if form == "days-words":
        return DAYS_WORDS[surface] == value
    if form == "number-words":
        return NUM_WORDS[surface] == value
    if form == "boolean-word":
        return {"Yes": 1, "No": 0}[surface] == value
    if form == "seasonal-label":
        return int(surface.lower().startswith("summer")) == value and (value or surface.lower() == "all year")
    if form == "dash":
        return surface.replace(" – ", " - ") == value
    if form == "name-short":
        return "MV " + surface == value
    if form == "phone-intl":
        return "0" + surface[4:] == value
    if form == "zero-padded":
        return int(surface) == value
    if form in ("name", "name-reordered"):
        return surface == value
    raise AssertionError(form)


def test_exact_statements_agree_with_database(truth, con):
    con.row_factory = sqlite3.Row
    checked = 0
    for f in truth["facts"]:
        table, col, row = _key(con, f["fact_key"])
        assert row is not None, f
        s = f["surface"]
        if not f["exact"]:
            assert (table, col) in EXISTENCE or row[col] is not None, f
            continue
        if f["how"] == "split":
            assert s in (row["phone"], row["staff_no"]), f
        elif (table, col) in EXISTENCE:
            if table == "sailings":
                assert int(s) == row["sailing_no"], f
            else:
                qname = con.execute("SELECT name FROM qualifications WHERE qual_id = ?",
                                    (row["qual_id"],)).fetchone()[0]
                assert s in ("X", qname), f
        elif (table, col) in FK:
            target = FK[(table, col)]
            assert row[col] is not None, f
            ok = s in _names(con, target, row[col])
            if not ok and table in ("crew", "vessels", "routes", "incidents") and table != "incidents":
                ok = s in _names(con, table, row[0])
            assert ok, f
        else:
            assert _plain(row[col], s, f["form"]), f
        checked += 1
    assert checked > 2000


def test_scorer_on_a_tiny_dataset(tmp_path, truth):
    spec = importlib.util.spec_from_file_location("hebrant_score_linking", CORPUS / "score_linking.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    needs = mod.Needs(str(DB))
    sql = ("SELECT p.name FROM vessels AS v JOIN ports AS p ON v.home_port_id = p.port_id "
           "WHERE v.name = 'MV Lord of the Isles'")
    assert needs(sql) == [["vessels.home_port_id@3"]]
    assert mod.stem("fleet/fleet-list.md") == "fleet/fleet-list"
    gold = sorted({mod.stem(f["doc_id"]) for f in truth["facts"]
                   if f["fact_key"] == "vessels.home_port_id@3" and f["exact"]})
    assert gold
    rec = {"sql": sql, "answer_rows": [["Kinlochbrae"]], "facts": ["vessels.home_port_id@3"],
           "gold_document_ids": [gold[0], "policies/it-acceptable-use"], "kb_supported": True, "table": "vessels"}
    (tmp_path / "records.jsonl").write_text(json.dumps(rec) + "\n", encoding="utf-8")
    res = mod.score(str(tmp_path), str(CORPUS / "truth.json"), str(DB))
    assert (res["tp"], res["fp"], res["fn"]) == (1, 1, len(gold) - 1)
    assert res["kb_supported_accuracy"] == 1.0
