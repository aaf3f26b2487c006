"""Issue 22 on schemas written as lower-case run-together names (JSON keys, exports): surrogate ids,
relation nouns from code columns, split column names, rows named by name within their parent, and
one treatment of codes and contact details. Each fault has a near miss that must stay as it was.
The schema is written for this test (a small geography), not taken from any judged database."""

from __future__ import annotations

import json
import sqlite3

import pytest

import ragdx
from ragdx.db import connect, inspect_schema
from ragdx.gen.naming import column_phrase, readable_name, relation_noun, standard_code
from ragdx.gen.sql_templates import is_surrogate, left_out_reason, lookup_keys, parent_name_key


def _build(path):
    con = sqlite3.connect(path)
    con.executescript("""
    CREATE TABLE regions (regioncode TEXT PRIMARY KEY, name TEXT, population INTEGER, lat REAL);
    CREATE TABLE lands (iso TEXT PRIMARY KEY, iso3 TEXT, isonumeric INTEGER, name TEXT, areakm2 INTEGER,
        regioncode TEXT REFERENCES regions(regioncode), currencycode TEXT, phone TEXT, postalcoderegex TEXT,
        homepage TEXT, landid INTEGER, township TEXT, wikiurl TEXT);
    CREATE TABLE provinces (code TEXT PRIMARY KEY, name TEXT, fips TEXT);
    CREATE TABLE districts (fips TEXT PRIMARY KEY, name TEXT, province TEXT REFERENCES provinces(code),
        seat TEXT);
    CREATE TABLE offices (officecode TEXT PRIMARY KEY, city TEXT, phone TEXT, latitude REAL);
    """)
    con.executemany("INSERT INTO regions VALUES (?,?,?,?)",
                    [("NO", "Northland", 100, 60.5), ("SO", "Southland", 200, -30.25), ("EA", "Eastland", 300, 1.5)])
    lands = []
    for i in range(12):
        region = ("NO", "SO", "EA")[i % 3]
        lands.append((f"L{i}", f"LA{i}", 100 + i, f"Land {i}", 1000 * (i + 1), region, f"C{i % 4}X",
                      f"+{30 + i}", f"^\\d{{{i % 5 + 3}}}$", f"https://land{i}.example", 9000 + i, f"Town {i}", f"https://wiki.example/Land_{i}"))
    con.executemany("INSERT INTO lands VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", lands)
    con.executemany("INSERT INTO provinces VALUES (?,?,?)", [("AA", "Alpha", "01"), ("BB", "Beta", "02"),
                                                              ("CC", "Gamma", "03")])
    districts = []
    for i, name in enumerate(["Washington", "Lincoln", "Marion", "Jackson", "Franklin", "Clay"]):
        for j, province in enumerate(("AA", "BB", "CC")):
            districts.append((f"{j + 1:02d}{i:03d}", f"{name} District", province, f"{name}ville {j}"))
    con.executemany("INSERT INTO districts VALUES (?,?,?,?)", districts)
    con.executemany("INSERT INTO offices VALUES (?,?,?,?)", [(f"O{i}", f"City {i}", f"+33 1 47 23 44 {i:02d}",
                                                              48.5 + i) for i in range(5)])
    con.commit()
    con.close()
    return path


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    return _build(tmp_path_factory.mktemp("geo") / "geo.sqlite")


@pytest.fixture(scope="module")
def schema(db):
    engine = connect(f"sqlite:///{db}")
    try:
        return inspect_schema(engine)
    finally:
        engine.dispose()


@pytest.fixture(scope="module")
def records(db, tmp_path_factory):
    out = ragdx.generate_dataset(f"sqlite:///{db}", tmp_path_factory.mktemp("ds") / "ds", styles=["interrogative"],
                                 max_groups=0)
    return [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]


def test_run_together_names_split_into_known_words_only():
    assert readable_name("continentcode") == "continent code"
    assert readable_name("postalcoderegex") == "postal code regex"
    assert column_phrase("areakm2") == "area in km²"
    assert column_phrase("currencycode") == "currency code"
    # near misses: ordinary words that only look like two, and a whole word of the vocabulary
    assert readable_name("township") == "township" and readable_name("password") == "password"
    assert readable_name("timezone") == "timezone" and readable_name("datetime") == "datetime"
    assert readable_name("candidate") == "candidate"  # "date" ends it, but "candi" is no word


def test_codes_are_named_by_their_standard():
    assert [column_phrase(c) for c in ("iso", "iso3", "isonumeric", "fips")] == \
        ["ISO code", "ISO3 code", "ISO numeric code", "FIPS code"]
    assert standard_code("officecode") is None and standard_code("admin1code") is None


def test_a_run_together_id_is_a_surrogate(schema):
    lands = schema.table("lands")
    assert is_surrogate(lands, "landid")  # "landid", as "land_id"
    assert not is_surrogate(lands, "isonumeric") and not is_surrogate(lands, "township")
    assert not is_surrogate(schema.table("districts"), "seat")


def test_a_code_foreign_key_is_named_by_what_it_points_at():
    assert relation_noun("regioncode", "regions", "regioncode") == "region"
    assert relation_noun("home_region_code", "regions", "regioncode") == "home region"
    assert relation_noun("country_code", "countries", "iso") == "country"  # near miss: was right before


def test_codes_and_contact_details_are_treated_alike(schema):
    lands, offices = schema.table("lands"), schema.table("offices")
    # a code is left out whatever its spelling: a standard's ("iso3", "fips") as the database's own
    for column in ("iso3", "isonumeric", "currencycode"):
        assert left_out_reason(lands, column).startswith("a code ("), column
    assert left_out_reason(schema.table("provinces"), "fips").startswith("a code (FIPS code)")
    assert left_out_reason(lands, "iso").startswith("a code (ISO code)")  # the key other tables join on too
    assert left_out_reason(schema.table("provinces"), "code").startswith("a code")
    assert left_out_reason(schema.table("districts"), "seat") is None  # near miss: no code
    assert left_out_reason(offices, "officecode").startswith("a code")  # the office is named by its city
    assert "dialling code" in left_out_reason(lands, "phone")  # "+31": no phone number
    assert left_out_reason(offices, "phone") == "contact detail"  # near miss: a real phone number
    assert left_out_reason(lands, "homepage") == "contact detail"  # the row's own site: how to reach it
    assert left_out_reason(lands, "postalcoderegex").startswith("a format pattern")
    assert left_out_reason(lands, "wikiurl").startswith("a web address")  # a page about it, no contact detail
    # one latitude for a whole region is its centre, unsaid; an office's is where it is
    assert left_out_reason(schema.table("regions"), "lat").startswith("one point for a whole area")
    assert left_out_reason(offices, "latitude") is None


def test_a_repeated_name_is_named_with_its_parent(schema):
    districts = schema.table("districts")
    assert lookup_keys(districts) == ["fips"]  # the only unique column, a code
    found = parent_name_key(schema, districts)
    assert found is not None and found[0] == "province" and found[1].name == "provinces" and found[4] == "name"
    # near misses: a unique name names its row alone; a table named by a name has no parent key
    assert parent_name_key(schema, schema.table("lands")) is None
    assert parent_name_key(schema, schema.table("provinces")) is None


def test_questions_read_as_a_person_would_ask_them(records):
    assert records
    for r in records:
        q = r["query"]
        assert "landid" not in q and "land ID" not in q, q
        assert "region code" not in q and "regioncode" not in q, q
        assert "areakm" not in q and "isonumeric" not in q and "iso 3" not in q.lower(), q
        assert r["answer_columns"] != ["landid"], q
        assert "with FIPS code" not in q and "District' linked to" not in q, q
    queries = " ".join(r["query"] for r in records)
    assert "Which region is" in queries  # the relation: "Which region is 'Land 1' in?"
    assert "area in km²" in queries and "ISO" not in queries
    districts = [r for r in records if r["table"] == "districts"]
    assert districts
    for r in districts:
        p = r["params"]
        assert f"'{p['districts.name']}, {p['provinces.name']}'" in r["query"], r["query"]


def test_a_district_is_answered_for_the_one_its_two_names_pick(db, records):
    con = sqlite3.connect(db)
    try:
        for r in (r for r in records if r["table"] == "districts"):
            p = r["params"]
            truth = con.execute(f"SELECT d.{r['answer_columns'][0]} FROM districts d JOIN provinces p "
                                "ON d.province = p.code WHERE d.name = ? AND p.name = ?",
                                (p["districts.name"], p["provinces.name"])).fetchall()
            assert r["answer_rows"] == [list(row) for row in truth], r["query"]
    finally:
        con.close()
