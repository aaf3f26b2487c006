"""The airportsdata blind fluency check's tools (benchmarks/corpora/fluency_airportsdata): the database rebuild
from the two wheels' files with its one repair, the seeded draw, the mechanical counts and the committed
sample's tally against the committed result. No download is needed: the rebuild runs on stand-in wheels."""

from __future__ import annotations

import importlib.util
import json
import sqlite3
import zipfile
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "benchmarks" / "corpora" / "fluency_airportsdata"

AIRPORTS = (
    '"icao","iata","name","city","subd","country","elevation","lat","lon","tz","lid"\n'
    '"00AA","","Aero B Ranch Airport","Leoti","Kansas","US",3435,38.704022,-101.473911,"America/Chicago","00AA"\n'
    '"SAEZ","EZE","Ministro Pistarini International Airport","Buenos Aires","Buenos Aires","AR",66.5,'
    '-34.8222,-58.5358,"America/Argentina/Buenos_Aires",""\n'
    '"SABE","AEP","Jorge Newbery Airpark","Buenos Aires","Ciudad Autonoma de Buenos Aires","AR",18,'
    '-34.5592,-58.4156,"America/Argentina/Buenos_Aires",""\n'
    '"BKPR","PRN","Pristina International Airport","Pristina","Pristina","XK",1789,42.5728,21.0358,'
    '"Europe/Belgrade",""\n'
)
MACS = (
    '"Country","City Code","City Name","Airport Code","Airport Name"\n'
    '"AR","BUE","Buenos Aires","AEP","Jorge Newbery"\n'
    '"AR","BUE","Buenos Aires","EZE","Ministro Pistarini"\n'
)
ISO1 = {
    "3166-1": [
        {"alpha_2": "AR", "alpha_3": "ARG", "flag": "🇦🇷", "name": "Argentina", "numeric": "032",
         "official_name": "Argentine Republic"},
        {"alpha_2": "US", "alpha_3": "USA", "flag": "🇺🇸", "name": "United States", "numeric": "840",
         "official_name": "United States of America"},
    ]
}  # fmt: skip
ISO2 = {
    "3166-2": [
        {"code": "AR-C", "name": "Ciudad Autónoma de Buenos Aires", "type": "City"},
        {"code": "US-KS", "name": "Kansas", "type": "State"},
        {"code": "US-UM", "name": "Outlying Islands", "type": "Outlying area"},
        {"code": "US-X1", "name": "Somewhere", "type": "County", "parent": "US-KS"},
    ]
}


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"fluency_airportsdata_{name}", HERE / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _wheels(tmp_path: Path, build, iso2: dict | None = None) -> tuple[Path, Path]:
    ad = tmp_path / "airportsdata-20260905-py3-none-any.whl"
    with zipfile.ZipFile(ad, "w") as whl:
        whl.writestr(build.AIRPORTS_CSV, AIRPORTS)
        whl.writestr(build.MACS_CSV, MACS)
    pc = tmp_path / "pycountry-26.2.16-py3-none-any.whl"
    with zipfile.ZipFile(pc, "w") as whl:
        whl.writestr(build.ISO3166_1, json.dumps(ISO1))
        whl.writestr(build.ISO3166_2, json.dumps(iso2 or ISO2))
    return ad, pc


def test_build_loads_the_tables_leaves_out_kosovo_and_is_byte_stable(tmp_path):
    build = _load("build")
    db = tmp_path / "a.db"
    assert build.build(*_wheels(tmp_path, build), db) == {"airports of a country not in ISO 3166-1 left out": 1}
    con = sqlite3.connect(db)
    tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid")]
    assert tables == list(build.SCHEMA)
    assert con.execute("SELECT icao FROM airports ORDER BY rowid").fetchall() == [("00AA",), ("SAEZ",), ("SABE",)]
    # '' is NULL, a whole elevation an integer, a fractional one stays real
    assert con.execute("SELECT iata, elevation, typeof(elevation) FROM airports WHERE icao = '00AA'").fetchone() == (
        None,
        3435,
        "integer",
    )
    assert con.execute("SELECT elevation, lid FROM airports WHERE icao = 'SAEZ'").fetchone() == (66.5, None)
    assert con.execute("SELECT country_code, parent_code FROM subdivisions WHERE code = 'US-X1'").fetchone() == (
        "US",
        "US-KS",
    )
    assert con.execute("SELECT * FROM multi_airport_cities").fetchall() == [("BUE", "Buenos Aires", "AR")]
    fks = {(r[2], r[3], r[4]) for r in con.execute("PRAGMA foreign_key_list(multi_airport_city_airports)")}
    assert fks == {("multi_airport_cities", "city_code", "city_code"), ("airports", "airport_code", "iata")}
    again = tmp_path / "again.db"
    build.build(*_wheels(tmp_path, build), again)
    assert db.read_bytes() == again.read_bytes()


def test_build_stops_on_a_broken_key_and_leaves_nothing(tmp_path):
    build = _load("build")
    db = tmp_path / "a.db"
    orphan = {"3166-2": [*ISO2["3166-2"], {"code": "US-X2", "name": "Nowhere", "type": "County", "parent": "US-ZZ"}]}
    with pytest.raises(SystemExit, match="break a foreign key"):
        build.build(*_wheels(tmp_path, build, orphan), db)
    assert not db.exists() and not db.with_suffix(".tmp").exists()


def test_counts_code_answers_key_column_nouns_and_shared_names(tmp_path):
    build, count = _load("build"), _load("count")
    db = tmp_path / "a.db"
    build.build(*_wheels(tmp_path, build), db)
    coded = {
        "style": "short",
        "table": "subdivisions",
        "sql": "SELECT country_code FROM subdivisions WHERE name = 'Kansas'",
        "answer_columns": ["country_code"],
        "answer_text": "US",
        "params": {"subdivisions.name": "Kansas"},
        "query": "What is the country code of 'Kansas'?",
    }
    own = {
        **coded,
        "table": "countries",
        "sql": "SELECT alpha_3 FROM countries WHERE name = 'Argentina'",
        "answer_columns": ["alpha_3"],
        "answer_text": "ARG",
        "params": {"countries.name": "Argentina"},
        "query": "What is the alpha-3 code of Argentina?",
    }
    by_code = {
        **coded,
        "table": "airports",
        "sql": "SELECT subd FROM airports WHERE icao = '00AA'",
        "answer_columns": ["subd"],
        "answer_text": "Kansas",
        "params": {"airports.icao": "00AA"},
        "query": "What is the subd of the airport with icao '00AA'?",
    }
    path = tmp_path / "records.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in (coded, own, by_code)), encoding="utf-8")
    got = count.count(path, db)["counts"]["all"]
    assert got["records"] == 3
    assert got["answer: code of a related row (target)"] == 1
    assert got["answer: the row's own code asked as such"] == 1
    assert got["relation noun from a key column (target)"] == 1
    assert got["question names a row by airports.icao"] == 1
    assert got["raw column word (subd, lid, tz, lat, lon)"] == 1 and got["lower-case acronym (iata, icao)"] == 1
    assert "alpha 2/3 or numeric as a noun" not in got  # "alpha-3 code" is how people say it
    assert "question names a row only by a name several rows share" not in got  # Kansas is one subdivision
    con = sqlite3.connect(db)
    con.execute(
        "INSERT INTO airports (icao, name, country, lat, lon) VALUES ('ZZZZ', 'Aero B Ranch Airport', 'US', 0, 0)"
    )
    con.commit()
    con.close()
    assert count.shared_names(db) == {"airports": {"Aero B Ranch Airport"}, "subdivisions": set()}
    named = {
        **by_code,
        "params": {"airports.name": "Aero B Ranch Airport"},
        "query": "Which state is Aero B Ranch Airport in?",
    }
    path.write_text(json.dumps(named) + "\n", encoding="utf-8")
    assert count.count(path, db)["counts"]["all"]["question names a row only by a name several rows share"] == 1


def test_draw_is_seeded_and_per_style(tmp_path):
    sample = _load("sample")
    recs = tmp_path / "records.jsonl"
    recs.write_text(
        "".join(
            json.dumps({"id": f"r{i}", "style": s, "query": f"q{i}", "answer_text": "a"}) + "\n"
            for i in range(30)
            for s in ("long", "short")
        ),
        encoding="utf-8",
    )
    a = sample.draw(recs, 5, 22)
    assert a == sample.draw(recs, 5, 22)
    assert Counter(r["style"] for r in a) == {"long": 5, "short": 5}
    assert a != sample.draw(recs, 5, 23)


SAMPLE = HERE / "sample.jsonl"
RESULT = ROOT / "benchmarks" / "results" / "question_fluency_blind_airportsdata.md"


def test_labels_regenerate_the_committed_sample():
    labels = _load("labels")
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    drawn = [{**r, "label": "", "note": ""} for r in rows]
    assert labels.judge(drawn) == rows


def test_committed_sample_is_judged_whole_and_the_result_quotes_it():
    tally = _load("tally")
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    per_style = Counter(r["style"] for r in rows)
    assert set(per_style.values()) == {100}, per_style
    assert all(r["label"] in tally.LABELS for r in rows)
    assert all(r["note"] for r in rows if r["label"] != "fluent"), "every non-fluent label says why"
    assert tally.table(tally.tally(SAMPLE)) in RESULT.read_text(encoding="utf-8")


def test_post_hoc_counts_find_relations_named_after_a_referenced_key(tmp_path):
    count = _load("count")
    rec = {
        "style": "long",
        "table": "subdivisions",
        "sql": "SELECT c.name FROM subdivisions s JOIN countries c ON s.country_code = c.alpha_2",
        "answer_columns": ["name"],
        "answer_text": "Uganda",
        "params": {"subdivisions.name": "Nwoya"},
        "query": "What are the countries of the alpha 2 'Nwoya'?",
    }
    path = tmp_path / "records.jsonl"
    path.write_text(json.dumps(rec) + "\n", encoding="utf-8")
    got = count.count(path)["counts"]["all"]
    assert "relation noun from a key column (target)" not in got  # the committed patterns miss this form
    assert got["(added after generation) relation noun from a key column, committed or added (target)"] == 1
    assert got["(added after generation) plural 'countries of' (one country)"] == 1
