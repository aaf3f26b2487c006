"""The Brenning Hale Consulting Engineers corpus (benchmarks/corpora/brenning_hale): its generators
are deterministic, every recorded surface sits at its offsets, every exact statement agrees with the
database (a value in the way its `form` says it is written; a hop or association row named by one of
the rows it joins), and every database fact is stated or listed as omitted."""

from __future__ import annotations

import datetime as dt
import os
import re
from collections import Counter
from pathlib import Path

import pytest

from tests.support.corpus_checks import (
    assert_pdfs_hold_their_surfaces,
    assert_regenerates,
    assert_surfaces_at_offsets,
    assert_truth_bookkeeping,
    load_module,
    read_only,
    read_truth,
)

CORPUS = Path(__file__).resolve().parents[1] / "benchmarks" / "corpora" / "brenning_hale"
DB = CORPUS / "brenning.sqlite"
PKS = {
    "offices": ["office_code"],
    "staff": ["staff_id"],
    "clients": ["client_id"],
    "contacts": ["contact_id"],
    "projects": ["project_code"],
    "project_staff": ["project_code", "staff_id"],
    "invoices": ["invoice_no"],
    "site_visits": ["visit_id"],
}
FK = {
    ("staff", "office_code"): "offices",
    ("clients", "account_manager_id"): "staff",
    ("contacts", "client_id"): "clients",
    ("projects", "client_id"): "clients",
    ("projects", "lead_id"): "staff",
    ("projects", "office_code"): "offices",
    ("invoices", "project_code"): "projects",
    ("site_visits", "project_code"): "projects",
    ("site_visits", "staff_id"): "staff",
}


@pytest.fixture(scope="module")
def gen():
    return load_module("brenning_make_corpus", CORPUS / "make_corpus.py")


@pytest.fixture(scope="module")
def truth():
    return read_truth(CORPUS)


@pytest.fixture(scope="module")
def con():
    yield from read_only(DB)


def test_generators_are_deterministic(tmp_path):
    assert_regenerates(CORPUS, DB, tmp_path)


def test_database_declares_its_keys(con):
    fks = {t: {(r["from"], r["table"]) for r in con.execute(f"PRAGMA foreign_key_list({t})")} for t in PKS}
    for (t, c), target in FK.items():
        assert (c, target) in fks[t], (t, c)
    for t, pk in PKS.items():
        got = [r["name"] for r in sorted(con.execute(f"PRAGMA table_info({t})"), key=lambda r: r["pk"]) if r["pk"]]
        assert got == pk
    n = sum(con.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in PKS)
    assert 300 <= n <= 600
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    assert DB.stat().st_size < 2_000_000
    # the traps the corpus is built around
    assert con.execute("SELECT COUNT(*) FROM invoices WHERE paid_date IS NULL").fetchone()[0] >= 5
    assert con.execute("SELECT COUNT(*) FROM staff WHERE last_name = 'Patel'").fetchone()[0] == 2
    assert con.execute("SELECT COUNT(*) FROM projects WHERE site_town = 'Clevedon'").fetchone()[0] >= 1
    assert con.execute("SELECT COUNT(*) FROM clients WHERE name LIKE 'Clevedon%'").fetchone()[0] == 1


def test_truth_shape(truth):
    assert set(truth) >= {
        "database",
        "facts",
        "split_facts",
        "distractor_doc_ids",
        "no_fact_doc_ids",
        "omitted",
        "documents",
        "stats",
    }
    docs = truth["documents"]
    assert 100 <= len(docs) <= 140
    assert {d.rsplit(".", 1)[1] for d in docs} == {"md", "txt", "html", "pdf"}
    assert sum(d.endswith(".pdf") for d in docs) <= 10
    stems = [os.path.splitext(d)[0] for d in docs]
    assert len(stems) == len(set(stems))
    assert 5 <= len(truth["distractor_doc_ids"]) <= 8
    assert_truth_bookkeeping(truth, docs)


def test_surfaces_at_their_offsets(truth):
    assert_surfaces_at_offsets(CORPUS, truth)


def test_pdfs_are_well_formed_and_hold_their_surfaces(truth):
    assert_pdfs_hold_their_surfaces(CORPUS, truth)


DATES = {
    "date-words": "%d %B %Y",
    "date-uk": "%d/%m/%Y",
    "iso": "%Y-%m-%d",
    "date-dow-abbrev": "%a %d %b %Y",
    "date-dots": "%d.%m.%Y",
}


def _names(con, gen, table, key):
    """The ways a row of TABLE is named in the corpus."""
    if table == "staff":
        r = con.execute("SELECT * FROM staff WHERE staff_id = ?", (int(key),)).fetchone()
        t, fn, ln = r["title"], r["first_name"], r["last_name"]
        ini = gen.initials_table({s["staff_id"]: s for s in con.execute("SELECT * FROM staff")})
        return {f"{t} {fn} {ln}", f"{fn} {ln}", f"{ln}, {fn}", f"{t} {fn[0]}. {ln}", f"{t} {ln}", ini[int(key)]}
    if table == "offices":
        r = con.execute("SELECT * FROM offices WHERE office_code = ?", (key,)).fetchone()
        return {key, r["city"]}
    if table == "clients":
        r = con.execute("SELECT * FROM clients WHERE client_id = ?", (int(key),)).fetchone()
        return {r["name"], gen.CLIENT_SHORT[int(key)]}
    if table == "contacts":
        r = con.execute("SELECT * FROM contacts WHERE contact_id = ?", (int(key),)).fetchone()
        return {f"{r['first_name']} {r['last_name']}", f"{r['last_name']}, {r['first_name']}"}
    if table == "projects":
        r = con.execute("SELECT * FROM projects WHERE project_code = ?", (key,)).fetchone()
        return {key, r["name"]}
    if table == "invoices":
        return {key}
    return set()


def _money(s):
    return float(s.replace("£", "").replace("GBP", "").replace(",", "").replace(" ", ""))


def _check_value(v, s, form):
    if form == "null-stated":
        assert v is None
    elif form in DATES:
        assert dt.datetime.strptime(s, DATES[form]).date().isoformat() == v
    elif form == "date-ordinal":
        d, rest = s.split(" ", 1)
        assert dt.datetime.strptime(re.sub(r"\D", "", d) + " " + rest, "%d %B %Y").date().isoformat() == v
    elif form in ("gbp", "gbp-suffix", "plain-number"):
        assert _money(s) == pytest.approx(v) and (form != "gbp" or s.startswith("£"))
    elif form == "gbp-k":
        assert float(s.strip("£k")) * 1000 == pytest.approx(v)
    elif form == "gbp-per-day":
        assert float(s.removeprefix("£").removesuffix("/day")) == v
    elif form == "hours":
        assert int(s.split()[0]) == v
    elif form in ("grade-words", "grade-code"):
        assert int(re.sub(r"\D", "", s)) == v
    elif form in ("number-unit", "in-year"):
        assert int(s.split()[0]) == v
    elif form == "plural":
        assert s == v + "s"
    elif form in ("capitalised", "uppercase"):
        assert s.lower() == str(v).lower()
    else:
        assert form in ("verbatim", "name"), form
        assert s == str(v)


def test_exact_statements_agree_with_the_database(truth, con, gen):
    checked, bad = 0, []
    for f in truth["facts"]:
        if not f["exact"]:
            continue
        table, rest = f["fact_key"].split(".", 1)
        col, key = rest.split("@", 1)
        pks = PKS[table]
        vals = key.split("|")
        row = con.execute(f"SELECT * FROM {table} WHERE " + " AND ".join(f"{p} = ?" for p in pks), vals).fetchone()
        assert row is not None, f
        s, form = f["surface"], f["form"]
        own = _names(con, gen, table, vals[0])
        try:
            if f["how"] == "split":
                assert form == "payroll-no" and table == "project_staff"
                assert s == gen.payroll_no(row["staff_id"])
            elif f["how"] == "generic":
                assert col == "status" and row[col] == "tender" and s in own
            elif table == "project_staff" and col == "staff_id":
                assert s in _names(con, gen, "staff", vals[1]) | _names(con, gen, "projects", vals[0])
            elif (table, col) in FK:
                if form == "null-stated":
                    assert row[col] is None
                else:
                    assert s in _names(con, gen, FK[(table, col)], str(row[col])) | own
            elif table == "projects" and col == "name":
                assert s in own and (form == "code") == (s == vals[0])
            elif table == "staff" and col == "title":
                assert s.startswith(row["title"] + " ") and s in _names(con, gen, "staff", vals[0])
            else:
                _check_value(row[col], s, form)
        except (AssertionError, AttributeError, ValueError, KeyError, TypeError) as e:
            bad.append(f"{f} vs {row[col]!r}: {e!r}")
        checked += 1
    assert not bad, "\n".join(bad[:20])
    assert checked > 1500


def test_every_database_fact_is_stated_or_omitted(truth, con):
    stated = {f["fact_key"] for f in truth["facts"]}
    omitted = {k for g in truth["omitted"].values() for k in g["fact_keys"]}
    own = {"staff": ("first_name", "last_name"), "contacts": ("first_name", "last_name"), "clients": ("name",)}
    left = []
    for t, pks in PKS.items():
        for r in con.execute(f"SELECT * FROM {t}"):
            key = "|".join(str(r[p]) for p in pks)
            cols = [c for c in r.keys() if c not in pks and c not in own.get(t, ())]
            ks = [f"{t}.{c}@{key}" for c in cols] + ([f"{t}.{pks[-1]}@{key}"] if len(pks) > 1 else [])
            left += [k for k in ks if k not in stated and k not in omitted]
    assert not left, left[:10]
    by_how = Counter(f["how"] for f in truth["facts"])
    assert {"split", "quoted-reply", "html-dl", "csv", "fixed-width", "minutes", "tree", "generic"} <= set(by_how)
    assert truth["stats"]["approximate_only_facts"] >= 1


def test_scorer_needs():
    mod = load_module("brenning_score_linking", CORPUS / "score_linking.py")
    needs = mod.Needs(str(DB))
    # a hop keyed by a project code
    assert needs(
        "SELECT clients.sector FROM projects JOIN clients ON projects.client_id = clients.client_id "
        "WHERE projects.project_code = 'BH-24002'"
    ) == [["clients.sector@6", "projects.client_id@BH-24002"]]
    # an association row's attribute implies the row
    assert needs(
        "SELECT project_staff.hours_budget FROM project_staff JOIN staff ON project_staff.staff_id = staff.staff_id "
        "WHERE staff.last_name = 'Fraser' AND project_staff.project_code = 'BH-24016'"
    ) == [["project_staff.hours_budget@BH-24016|12"]]
