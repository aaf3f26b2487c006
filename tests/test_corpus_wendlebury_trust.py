"""The Wendlebury Hospitals NHS Trust outpatient corpus (benchmarks/corpora/wendlebury_trust): its generators
are deterministic, every recorded surface sits at its offsets, every exact statement agrees with the
database (a value in the way its `form` says it is written; a hop or association row named by one of the
rows it joins), and every database fact is stated or listed as omitted."""

from __future__ import annotations

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

CORPUS = Path(__file__).resolve().parents[1] / "benchmarks" / "corpora" / "wendlebury_trust"
DB = CORPUS / "wendlebury.sqlite"
PKS = {
    "sites": ["site_code"],
    "specialties": ["specialty_code"],
    "clinicians": ["clinician_id"],
    "services": ["service_id"],
    "clinics": ["clinic_code"],
    "wait_stats": ["clinic_code", "month"],
    "secretaries": ["secretary_id"],
    "team_members": ["secretary_id", "clinician_id"],
}
FK = {
    ("clinicians", "specialty_code"): "specialties",
    ("clinicians", "base_site"): "sites",
    ("services", "specialty_code"): "specialties",
    ("clinics", "specialty_code"): "specialties",
    ("clinics", "site_code"): "sites",
    ("clinics", "consultant_id"): "clinicians",
    ("wait_stats", "clinic_code"): "clinics",
    ("team_members", "secretary_id"): "secretaries",
    ("team_members", "clinician_id"): "clinicians",
}
OWN = {
    "sites": ("name",),
    "specialties": ("name",),
    "clinicians": ("first_name", "last_name"),
    "services": ("name",),
    "clinics": ("name",),
    "secretaries": ("first_name", "last_name"),
}


@pytest.fixture(scope="module")
def gen():
    return load_module("wendlebury_make_corpus", CORPUS / "make_corpus.py")


@pytest.fixture(scope="module")
def truth():
    return read_truth(CORPUS)


@pytest.fixture(scope="module")
def con():
    yield from read_only(DB)


def test_generators_are_deterministic(tmp_path):
    assert_regenerates(CORPUS, DB, tmp_path)


def test_database_declares_its_keys_and_traps(con):
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
    # namesakes, NULLs, a clinic named after another site's town, two sites in one town
    khans = con.execute("SELECT first_name, specialty_code FROM clinicians WHERE last_name = 'Khan'").fetchall()
    assert len(khans) == 2 and len({k[0] for k in khans}) == 2 and len({k[1] for k in khans}) == 2
    assert con.execute("SELECT COUNT(*) FROM clinics WHERE consultant_id IS NULL").fetchone()[0] >= 2
    assert con.execute("SELECT COUNT(*) FROM clinics WHERE capacity IS NULL").fetchone()[0] >= 2
    assert (
        con.execute(
            "SELECT s.town FROM clinics c JOIN sites s ON c.site_code = s.site_code WHERE c.name = 'Hexley Eye Clinic'"
        ).fetchone()[0]
        != "Hexley"
    )
    assert con.execute("SELECT COUNT(*) FROM sites WHERE town = 'Hexley'").fetchone()[0] == 1
    assert con.execute("SELECT COUNT(*) FROM sites WHERE town = 'Wendlebury'").fetchone()[0] == 2


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
    assert sum(d.endswith(".pdf") for d in docs) <= 8
    stems = [os.path.splitext(d)[0] for d in docs]
    assert len(stems) == len(set(stems))
    assert 5 <= len(truth["distractor_doc_ids"]) <= 8
    assert truth["split_facts"]
    assert_truth_bookkeeping(truth, docs)


def test_surfaces_at_their_offsets(truth):
    assert_surfaces_at_offsets(CORPUS, truth)


def test_pdfs_are_well_formed_and_hold_their_surfaces(truth):
    assert_pdfs_hold_their_surfaces(CORPUS, truth)


def _names(con, gen, table, key):
    """The ways a row of TABLE is named in the corpus."""
    if table == "clinicians":
        r = con.execute("SELECT * FROM clinicians WHERE clinician_id = ?", (int(key),)).fetchone()
        t, fn, ln = r["title"], r["first_name"], r["last_name"]
        ini = gen.initials_table({c["clinician_id"]: c for c in con.execute("SELECT * FROM clinicians")})
        return {f"{t} {fn} {ln}", f"{fn} {ln}", f"{t} {fn[0]}. {ln}", f"{t} {ln}", f"{ln}, {fn} ({t})", ini[int(key)]}
    if table == "sites":
        r = con.execute("SELECT * FROM sites WHERE site_code = ?", (key,)).fetchone()
        return {key, r["name"], gen.SITE_SHORT[key]}
    if table == "specialties":
        r = con.execute("SELECT * FROM specialties WHERE specialty_code = ?", (key,)).fetchone()
        return {key, r["name"], gen.SPEC_PERSON[key]}
    if table == "clinics":
        r = con.execute("SELECT * FROM clinics WHERE clinic_code = ?", (key,)).fetchone()
        return {key, r["name"]}
    if table == "services":
        return {con.execute("SELECT name FROM services WHERE service_id = ?", (int(key),)).fetchone()[0]}
    if table == "secretaries":
        r = con.execute("SELECT * FROM secretaries WHERE secretary_id = ?", (int(key),)).fetchone()
        return {f"{r['first_name']} {r['last_name']}", f"{r['last_name']}, {r['first_name']}"}
    return set()


WD3 = {"Mon": "Monday", "Tue": "Tuesday", "Wed": "Wednesday", "Thu": "Thursday", "Fri": "Friday"}
WD_ABBREV = {"Mon": "Monday", "Tues": "Tuesday", "Wed": "Wednesday", "Thurs": "Thursday", "Fri": "Friday"}
WORDS = {
    "eight": 8,
    "ten": 10,
    "twelve": 12,
    "fourteen": 14,
    "sixteen": 16,
    "eighteen": 18,
    "twenty": 20,
    "twenty-four": 24,
}


def _clock(s):
    """'9am', '1.30pm', '9.00 a.m.', '13:30' -> minutes after midnight."""
    m = re.fullmatch(r"(\d{1,2})(?:[.:](\d\d))?\s*([ap])\.?m\.?", s)
    if m:
        h = int(m[1]) % 12 + (12 if m[3] == "p" else 0)
        return h * 60 + int(m[2] or 0)
    h, mi = s.split(":")
    return int(h) * 60 + int(mi)


def _check_value(col, v, s, form, row):
    if form == "null-stated":
        assert v is None
    elif form == "weekday-plural":
        day, *rest = s.split()
        assert day.removesuffix("s") == v
        if rest:
            assert rest[0] == ("mornings" if row["start_time"] < "12:00" else "afternoons")
    elif form == "weekday-abbrev":
        assert WD_ABBREV[s] == v
    elif form == "weekday-3":
        assert WD3[s] == v
    elif form in ("time-ampm", "time-dots"):
        assert _clock(s) == _clock(v)
    elif form == "time-range":
        a, b = re.split(r"[-–]", s)
        if col == "start_time":
            assert a == v
        else:
            assert col == "session_minutes" and _clock(b) - _clock(a) == v
    elif form == "fraction":
        assert float(s) * 100 == pytest.approx(v)
    elif form in ("pct", "per-cent", "plain-number", "number-unit", "weeks-abbrev", "hyphen-week"):
        lead = re.match(r"[\d.]+", s)[0]
        assert float(lead) == pytest.approx(float(v))
        if form == "pct":
            assert s.endswith("%")
    elif form == "number-words":
        assert WORDS[s] == v
    elif form == "lowercase":
        assert s == str(v).lower()
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
                assert form == "desk-no" and table == "team_members"
                assert s == gen.desk_no(row["secretary_id"])
            elif len(pks) > 1 and col == pks[-1]:  # an association row's existence: named by a row it joins
                names = set()
                for c in (c for c in pks if (table, c) in FK):
                    names |= _names(con, gen, FK[(table, c)], str(row[c]))
                assert s in names
            elif (table, col) in FK:
                if form == "null-stated":
                    assert row[col] is None
                else:
                    assert s in _names(con, gen, FK[(table, col)], str(row[col])) | own
            elif col in OWN.get(table, ()):
                assert s in own and (form == "code") == (s == vals[0])
            elif table == "clinicians" and col == "title":
                assert s in own and (s.startswith(row["title"] + " ") or s.endswith(f"({row['title']})"))
            else:
                _check_value(col, row[col], s, form, row)
        except (AssertionError, AttributeError, ValueError, KeyError, TypeError) as e:
            bad.append(f"{f} vs {row[col] if col in row.keys() else None!r}: {e!r}")
        checked += 1
    assert not bad, "\n".join(bad[:20])
    assert checked > 2000


def test_every_database_fact_is_stated_or_omitted(truth, con):
    stated = {f["fact_key"] for f in truth["facts"]}
    omitted = {k for g in truth["omitted"].values() for k in g["fact_keys"]}
    left = []
    for t, pks in PKS.items():
        for r in con.execute(f"SELECT * FROM {t}"):
            key = "|".join(str(r[p]) for p in pks)
            cols = [c for c in r.keys() if c not in pks and c not in OWN.get(t, ())]
            ks = [f"{t}.{c}@{key}" for c in cols] + ([f"{t}.{pks[-1]}@{key}"] if len(pks) > 1 else [])
            left += [k for k in ks if k not in stated and k not in omitted]
    assert not left, left[:10]
    by_how = Counter(f["how"] for f in truth["facts"])
    assert {"split", "quoted-original", "grid-row", "grid-column", "signature", "minutes", "pronoun"} <= set(by_how)
    assert truth["stats"]["approximate_only_facts"] >= 1


def test_scorer_needs():
    mod = load_module("wendlebury_score_linking", CORPUS / "score_linking.py")
    needs = mod.Needs(str(DB))
    assert needs(
        "SELECT sites.town FROM clinics JOIN sites ON clinics.site_code = sites.site_code "
        "WHERE clinics.clinic_code = 'OPHT-03'"
    ) == [["clinics.site_code@OPHT-03", "sites.town@SMK"]]
    # an attribute of a composite-key row implies the row
    assert needs(
        "SELECT wait_stats.pct_within_target FROM wait_stats JOIN clinics ON wait_stats.clinic_code = "
        "clinics.clinic_code WHERE clinics.name = 'Fracture Clinic' AND wait_stats.month = '2026-07'"
    ) == [["wait_stats.pct_within_target@TRAU-01|2026-07"]]
