"""The Ashby Fold College corpus (benchmarks/corpora/ashby_fold_college): its generators are
deterministic, every recorded surface sits at its offsets, and every exact statement agrees with the
database (a value in the way its `form` says it is written; a hop or association row named by one
of the rows it joins)."""

from __future__ import annotations

import datetime as dt
import html
import importlib.util
import os
import re
from collections import Counter
from pathlib import Path

import pytest

from tests.support.corpus_checks import assert_regenerates, read_only, read_truth

CORPUS = Path(__file__).resolve().parents[1] / "benchmarks" / "corpora" / "ashby_fold_college"
DB = CORPUS / "ashby.sqlite"


@pytest.fixture(scope="module")
def truth():
    return read_truth(CORPUS)


@pytest.fixture(scope="module")
def con():
    yield from read_only(DB)


def test_generators_are_deterministic(tmp_path):
    assert_regenerates(CORPUS, DB, tmp_path)


def test_database_declares_its_keys(con):
    fks = {
        t: {(r["from"], r["table"]) for r in con.execute(f"PRAGMA foreign_key_list({t})")}
        for t in ("rooms", "staff", "programmes", "modules", "programme_modules", "module_runs", "assessments")
    }
    assert ("building_code", "buildings") in fks["rooms"]
    assert ("room_code", "rooms") in fks["module_runs"] and ("lecturer_id", "staff") in fks["module_runs"]
    assert ("prerequisite_code", "modules") in fks["modules"]
    pk = [r["name"] for r in sorted(con.execute("PRAGMA table_info(module_runs)"), key=lambda r: r["pk"]) if r["pk"]]
    assert pk == ["module_code", "term"]
    n = sum(con.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in fks) + 6
    assert 400 <= n <= 900
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []


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
    assert 110 <= len(docs) <= 140
    assert {d.rsplit(".", 1)[1] for d in docs} == {"md", "txt", "html"}
    stems = [os.path.splitext(d)[0] for d in docs]
    assert len(stems) == len(set(stems))
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


def test_surfaces_at_their_offsets(truth):
    texts = {}
    for f in truth["facts"]:
        if f["doc_id"] not in texts:
            texts[f["doc_id"]] = (CORPUS / "docs" / f["doc_id"]).read_text(encoding="utf-8")
        raw = texts[f["doc_id"]][f["start"] : f["end"]]
        if f["doc_id"].endswith(".html"):
            raw = html.unescape(raw)
        assert raw == f["surface"], f


FULL_DATE = {
    "date-words": "%d %B %Y",
    "date-dow-words": "%A %d %B %Y",
    "date-uk": "%d/%m/%Y",
    "date-us": "%B %d, %Y",
    "date-dots-2y": "%d.%m.%y",
}
WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "six": 6,
    "fifteen": 15,
    "twenty": 20,
    "twenty-five": 25,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "seventy-five": 75,
    "ninety": 90,
}
TRUE_WORDS = {"compulsory", "yes", "core", "c", "step-free access to every floor."}
FALSE_WORDS = {
    "optional",
    "no",
    "option",
    "o",
    "there is no lift; upper floors are reached by stairs only.",
    "only the ground floor is step-free",
}
SHORT = {
    "HLB": "Harrowgate",
    "FWB": "Fold Walk",
    "MCH": "Mercer",
    "GSC": "Greenhow",
    "OTB": "Tannery",
    "ELB": "Ellison",
}
TERM_LABEL = {
    "2024-AUT": "Autumn 2024",
    "2025-SPR": "Spring 2025",
    "2025-AUT": "Autumn 2025",
    "2026-SPR": "Spring 2026",
}


@pytest.fixture(scope="module")
def initials(con):
    spec = importlib.util.spec_from_file_location("ashby_make_corpus", CORPUS / "make_corpus.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    staff = {r["staff_id"]: r for r in con.execute("SELECT * FROM staff")}
    out = mod.initials_table(staff)
    assert out[4] != out[5] and out[9] != out[10] and out[2] != out[3]
    return out


def _names(con, ini, table, key):
    """The ways a row of TABLE is named in the corpus."""
    if table == "staff":
        r = con.execute("SELECT * FROM staff WHERE staff_id = ?", (int(key),)).fetchone()
        t, fn, ln = r["title"], r["first_name"], r["last_name"]
        td = t if t.endswith(".") else t + "."
        return {
            f"{t} {fn} {ln}",
            f"{fn} {ln}",
            f"{ln}, {fn}",
            f"{ln}, {fn[0]}. ({t})",
            f"{ln}, {fn[0]}.",
            f"{td} {fn[0]}. {ln}",
            f"{t} {fn[0]}. {ln}",
            f"{t} {ln}",
            ini[r["staff_id"]],
        }
    if table == "rooms":
        r = con.execute("SELECT * FROM rooms WHERE room_code = ?", (key,)).fetchone()
        b = con.execute("SELECT name FROM buildings WHERE building_code = ?", (r["building_code"],)).fetchone()[0]
        n = r["room_number"]
        out = {key, f"{b} {n}", f"Room {n}, {b}", f"{SHORT[r['building_code']]} {n}", n}
        return out | ({r["room_name"]} if r["room_name"] else set())
    if table == "buildings":
        r = con.execute("SELECT * FROM buildings WHERE building_code = ?", (key,)).fetchone()
        return {key, r["name"]}
    if table == "modules":
        r = con.execute("SELECT * FROM modules WHERE module_code = ?", (key,)).fetchone()
        return {key, key.lower(), key[:3] + " " + key[3:], r["title"]}
    if table == "programmes":
        r = con.execute("SELECT * FROM programmes WHERE programme_code = ?", (key,)).fetchone()
        return {key, r["name"], f"{r['award']} {r['name']}", f"{r['award'].split()[0]} {r['name']}"}
    return set()


def _own_names(con, ini, table, vals):
    if table == "module_runs":
        code, term = vals
        yy, half = term[2:4], term[5]
        return _names(con, ini, "modules", code) | {f"{code}/{yy}{half}", TERM_LABEL[term]}
    if table == "programme_modules":
        return _names(con, ini, "programmes", vals[0]) | _names(con, ini, "modules", vals[1])
    if table == "assessments":
        r = con.execute("SELECT * FROM assessments WHERE assessment_id = ?", (int(vals[0]),)).fetchone()
        return _names(con, ini, "modules", r["module_code"]) | {r["title"], r["title"].lower()}
    return _names(con, ini, table, vals[0])


FK = {
    ("rooms", "building_code"): "buildings",
    ("staff", "office_room"): "rooms",
    ("programmes", "leader_id"): "staff",
    ("modules", "convenor_id"): "staff",
    ("modules", "prerequisite_code"): "modules",
    ("module_runs", "lecturer_id"): "staff",
    ("module_runs", "room_code"): "rooms",
    ("assessments", "module_code"): "modules",
}


def _num(v):
    return float(v) * 100 if isinstance(v, float) else float(v)


def _check_value(v, s, form):
    if form == "null-stated":
        assert v is None
    elif form in FULL_DATE:
        assert dt.datetime.strptime(s, FULL_DATE[form]).date().isoformat() == v
    elif form == "date-ord-abbrev":
        d, rest = s.split(" ", 1)
        assert dt.datetime.strptime(re.sub(r"\D", "", d) + " " + rest, "%d %b %Y").date().isoformat() == v
    elif form == "date-dm-yearheading":
        x = dt.date.fromisoformat(v)
        day, month = s.split()[1].split("/")
        assert (int(day), int(month)) == (x.day, x.month) and s.split()[0] == f"{x:%a}"
    elif form == "time-ampm":
        m = re.fullmatch(r"(\d+)(?:\.(\d\d))?(am|pm)", s)
        h = int(m.group(1)) % 12 + (12 if m.group(3) == "pm" else 0)
        assert f"{h:02d}:{m.group(2) or '00'}" == v
    elif form == "time-hhmm":
        assert f"{s[:2]}:{s[2:]}" == v
    elif form == "weekday-plural":
        assert s == v + "s"
    elif form == "weekday-abbrev":
        assert s == v[:3]
    elif form == "weekday-upper":
        assert s == v[:3].upper()
    elif form in ("number-unit", "credits-cats", "thousands-unit"):
        assert float(s.split()[0].replace(",", "")) == float(v)
    elif form == "credits-cr":
        assert int(s.removesuffix("cr")) == v
    elif form == "number-words":
        assert WORDS[s.split()[0].lower()] == v
    elif form == "plain-number":
        assert float(s.replace(",", "")) == float(v)
    elif form in ("pct", "pct-space", "generic"):
        assert float(s.rstrip("%").strip()) == pytest.approx(_num(v))
    elif form == "pct-words":
        assert WORDS[s.split()[0]] == pytest.approx(_num(v))
    elif form == "fraction":
        a, b = s.split("/")
        assert int(a) / int(b) == pytest.approx(v)
    elif form == "decimal":
        assert float(s) == v
    elif form == "hours-abbrev":
        assert int(s.rstrip("h").strip()) == v
    elif form == "in-year":
        assert int(s.split()[-1]) == v
    elif form == "k-words":
        assert float(s.split("k")[0]) * 1000 == v
    elif form == "phone-full":
        assert s.replace(" ", "").endswith(v)
    elif form == "year-dash":
        assert s.replace("-", "/") == v
    elif form in ("capitalised", "lowercase"):
        assert s.lower() == str(v).lower()
    elif form in ("boolean-word", "boolean-phrase", "core-option", "flag-letter"):
        assert v == (1 if s.lower() in TRUE_WORDS else 0 if s.lower() in FALSE_WORDS else None)
    elif form == "semester-number":
        assert {"1": "Autumn", "2": "Spring"}[s] == v
    elif form == "year-label":
        assert int(s.split()[-1]) == v
    elif form in ("building-room", "room-building", "building-short-room", "room-number"):
        assert str(v) in s
    else:
        assert form == "verbatim", form
        assert s == str(v)


def test_exact_statements_agree_with_the_database(truth, con, initials):
    checked, bad = 0, []
    for f in truth["facts"]:
        if not f["exact"]:
            continue
        table, rest = f["fact_key"].split(".", 1)
        col, key = rest.split("@", 1)
        pks = [r[1] for r in sorted(con.execute(f"PRAGMA table_info({table})"), key=lambda r: r[5]) if r[5]]
        vals = key.split("|")
        row = con.execute(f"SELECT * FROM {table} WHERE " + " AND ".join(f"{p} = ?" for p in pks), vals).fetchone()
        assert row is not None, f
        s, form = f["surface"], f["form"]
        own = _own_names(con, initials, table, vals)
        try:
            if f["how"] == "split":
                if form == "scheme-letter":
                    assert re.fullmatch(r"[A-G]", s)
                else:
                    _check_value(row[col], s, form)
            elif len(pks) > 1 and col == pks[-1]:
                assert s in own
            elif (table, col) in FK:
                if form == "null-stated":
                    assert row[col] is None
                else:
                    assert row[col] is not None
                    assert s in _names(con, initials, FK[(table, col)], row[col]) | own
            elif form in ("code", "code-lower", "code-spaced", "name"):
                assert s in own or s == str(row[col])
            elif table == "staff" and col == "title":
                assert s in own or s == row[col]
                assert s.startswith(row[col]) or s.startswith(row[col].rstrip(".") + ".") or f"({row[col]})" in s
            else:
                _check_value(row[col], s, form)
        except (AssertionError, AttributeError, ValueError, KeyError, TypeError) as e:
            bad.append(f"{f} vs {row[col]!r}: {e!r}")
        checked += 1
    assert not bad, "\n".join(bad[:20])
    assert checked > 3000


def test_every_database_fact_is_stated_or_omitted(truth, con):
    stated = {f["fact_key"] for f in truth["facts"]}
    omitted = {k for g in truth["omitted"].values() for k in g["fact_keys"]}
    keys = {
        "buildings": ["building_code"],
        "rooms": ["room_code"],
        "staff": ["staff_id"],
        "programmes": ["programme_code"],
        "modules": ["module_code"],
        "programme_modules": ["programme_code", "module_code"],
        "module_runs": ["module_code", "term"],
        "assessments": ["assessment_id"],
    }
    left = []
    for t, pks in keys.items():
        for r in con.execute(f"SELECT * FROM {t}"):
            key = "|".join(str(r[p]) for p in pks)
            cols = [c for c in r.keys() if c not in pks and c not in ("first_name", "last_name")]
            ks = [f"{t}.{c}@{key}" for c in cols] + ([f"{t}.{pks[-1]}@{key}"] if len(pks) > 1 else [])
            left += [k for k in ks if k not in stated and k not in omitted]
    assert not left, left[:10]
    by_how = Counter(f["how"] for f in truth["facts"])
    assert {
        "split",
        "generic",
        "quoted-reply",
        "table-under-heading",
        "heading-subject",
        "html-table",
        "kv-text",
    } <= set(by_how)


def test_scorer_needs():
    spec = importlib.util.spec_from_file_location("ashby_score_linking", CORPUS / "score_linking.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    needs = mod.Needs(str(DB))
    # a hop keyed by a room code, through a composite-key run
    assert needs(
        "SELECT rooms.room_number FROM module_runs JOIN rooms ON module_runs.room_code = rooms.room_code "
        "WHERE module_runs.module_code = 'ENV2041' AND module_runs.term = '2025-AUT'"
    ) == [["module_runs.room_code@ENV2041|2025-AUT"]]
    # an association row's attribute implies the row
    assert needs(
        "SELECT programme_modules.is_compulsory FROM programme_modules JOIN modules "
        "ON programme_modules.module_code = modules.module_code WHERE modules.title = 'Hydrology' "
        "AND programme_modules.programme_code = 'BSGEO'"
    ) == [["programme_modules.is_compulsory@BSGEO|ENV2041"]]
