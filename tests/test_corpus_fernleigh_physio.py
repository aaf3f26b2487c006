"""The Fernleigh Physiotherapy corpus (benchmarks/corpora/fernleigh_physio): its generators are
deterministic, every recorded surface sits at its offsets, and every exact statement agrees with the
database (a value in the way its `form` says it is written; a hop or association row named by one
of the rows it joins)."""

from __future__ import annotations

import datetime as dt
import html
import importlib.util
import os
from pathlib import Path

import pytest

from tests.support.corpus_checks import assert_regenerates, read_only, read_truth

CORPUS = Path(__file__).resolve().parents[1] / "benchmarks" / "corpora" / "fernleigh_physio"
DB = CORPUS / "fernleigh.sqlite"


@pytest.fixture(scope="module")
def truth():
    return read_truth(CORPUS)


@pytest.fixture(scope="module")
def con():
    yield from read_only(DB)


def test_generators_are_deterministic(tmp_path):
    assert_regenerates(CORPUS, DB, tmp_path)


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
    assert 85 <= len(docs) <= 110
    stems = [os.path.splitext(d)[0] for d in docs]
    assert len(stems) == len(set(stems))
    for d in truth["distractor_doc_ids"] + truth["no_fact_doc_ids"]:
        assert d in docs
    for sp in truth["split_facts"]:
        assert all(d in docs for d in sp["doc_ids"])
        parts = [f for f in truth["facts"] if f.get("split_id") == sp["split_id"]]
        assert {f["doc_id"] for f in parts} == set(sp["doc_ids"])
    stated = {f["fact_key"] for f in truth["facts"]}
    for g in truth["omitted"].values():
        assert not stated & set(g["fact_keys"])


def test_surfaces_at_their_offsets(truth):
    texts = {}
    for f in truth["facts"]:
        if f["doc_id"] not in texts:
            texts[f["doc_id"]] = (CORPUS / "docs" / f["doc_id"]).read_text(encoding="utf-8")
        raw = texts[f["doc_id"]][f["start"] : f["end"]]
        if f["doc_id"].endswith(".html"):
            raw = html.unescape(raw)
        assert raw == f["surface"], f


DATE_FORMS = {
    "iso": "%Y-%m-%d",
    "date-uk": "%d/%m/%Y",
    "date-dots": "%d.%m.%Y",
    "date-words": "%d %B %Y",
    "date-abbrev": "%d %b %Y",
}
TRUE_WORDS = {"yes", "hydrotherapy pool", "book online or by phone"}
FALSE_WORDS = {"no", "by phone only", "did not attend"}


def _names(con, table, key):
    r = con.execute(f"SELECT * FROM {table} WHERE rowid = ?", (key,)).fetchone()
    if r is None:
        return set()
    if table == "clinics":
        return {r["name"], r["name"].replace("Fernleigh Physio ", ""), r["code"]}
    if table in ("therapists", "patients"):
        fn, ln = r["first_name"], r["last_name"]
        return {f"{fn} {ln}", f"{ln}, {fn[0]}.", f"{ln} {fn[0]}.", f"{ln.upper()}, {fn}", ln}
    if table == "treatments":
        return {r["name"], r["name"].lower(), r["code"]}
    if table == "episodes":
        return {r["ref"]}
    return set()


FK = {
    "hub_clinic_id": "clinics",
    "clinic_id": "clinics",
    "supervisor_id": "therapists",
    "therapist_id": "therapists",
    "patient_id": "patients",
    "treatment_id": "treatments",
    "episode_id": "episodes",
}


def test_exact_statements_agree_with_the_database(truth, con):
    checked = 0
    for f in truth["facts"]:
        if not f["exact"]:
            continue
        table, rest = f["fact_key"].split(".", 1)
        col, key = rest.split("@", 1)
        pks = [r[1] for r in sorted(con.execute(f"PRAGMA table_info({table})"), key=lambda r: r[5]) if r[5]]
        vals = key.split("|")
        row = con.execute(f"SELECT * FROM {table} WHERE " + " AND ".join(f"{p} = ?" for p in pks), vals).fetchone()
        assert row is not None, f
        s = f["surface"]
        if f["how"] == "split" and f["form"] == "name":
            assert s in _names(con, table, int(vals[0])), f
        elif len(pks) > 1 and col == pks[-1]:
            if table == "sessions":
                assert s == str(row["session_no"]), f
            else:
                assert s in _names(con, "therapists", row["therapist_id"]) | _names(
                    con, "treatments", row["treatment_id"]
                ), f
        elif col in FK and col not in pks:
            assert row[col] is not None, f
            assert s in _names(con, FK[col], row[col]) | _names(con, table, int(vals[0])), f
        else:
            v, form = row[col], f["form"]
            if form == "null-stated":
                assert v is None, f
            elif form in DATE_FORMS:
                assert dt.datetime.strptime(s, DATE_FORMS[form]).date().isoformat() == v, f
            elif form in ("gbp-sym", "plain-number"):
                assert float(s.replace("£", "").replace(",", "")) == float(v), f
            elif form == "number-unit":
                assert int(s.split()[0]) == v, f
            elif form == "number-only":
                assert f"Band {s}" == v, f
            elif form == "boolean-word":
                assert v == (1 if s in TRUE_WORDS else 0 if s in FALSE_WORDS else None), f
            elif form in ("lowercase", "uppercase"):
                assert s.lower() == str(v).lower(), f
            elif form == "paraphrase":
                assert (s, v) == ("self-referred", "self"), f
            else:
                assert form in ("verbatim", "code"), f
                assert s == str(v), f
        checked += 1
    assert checked > 1000


def test_scorer_needs():
    spec = importlib.util.spec_from_file_location("fernleigh_score_linking", CORPUS / "score_linking.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    needs = mod.Needs(str(DB))
    assert needs("SELECT t.grade FROM therapists AS t WHERE t.email = 'b.quinn@fernleighphysio.co.uk'") == [
        ["therapists.grade@2"]
    ]
    rows = needs(
        "SELECT p.first_name FROM episodes AS e JOIN patients AS p ON e.patient_id = p.patient_id "
        "WHERE e.ref = 'EP23-0107'"
    )
    assert rows == [["episodes.patient_id@1"]]
    assert mod.stem("letters/discharge-ep23-0107.txt") == "letters/discharge-ep23-0107"
