"""Issue 22 item 2: a table known only by a row number nobody sees is named by what names it.

A flights table keyed by ``id`` (the row's number in a file) is asked about as "the UA flight 1545 on
2013-1-1" (carrier, flight number and date, measured to tell the rows apart), never as "flight 323102";
the rendered documents use the same name; a table whose number people do use (``OrderID``) keeps
it; a row-id table with nothing that names its rows is not asked about by name at all. Relation nouns
come from what the foreign key points at ("plane", "destination airport"), never from the key
column ("tailnum"), and one-letter codes are left out as answers. Every answer is checked against
SQL written here, not ragdx's."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

import ragdx
from ragdx.db import connect, inspect_schema
from ragdx.db.schema import natural_key_candidates
from ragdx.gen.naming import composite_name, fill_name, relation_noun
from ragdx.gen.sql_templates import left_out_reason, lookup_keys, schema_templates

CARRIERS = [("UA", "United Air Lines Inc."), ("AA", "American Airlines Inc."), ("B6", "JetBlue Airways")]
PLANES = [("N14228", 2, 149), ("N24211", 2, 149), ("N619AA", 2, 178), ("N804JB", 2, 200)]
AIRPORTS = [("EWR", "Newark Liberty Intl", "A"), ("LGA", "La Guardia", "A"),
            ("IAH", "George Bush Intercontinental", "N"), ("MIA", "Miami Intl", "A"), ("BQN", "Rafael Hernandez", "U")]


def _flights() -> list[tuple]:
    """60 flights: a flight number repeats across carriers on one day and across days for one
    carrier, so only carrier + number + date tells them apart."""
    rows = []
    i = 0
    for day in range(1, 6):
        for carrier, _ in CARRIERS:
            for number in (1545, 1714, 33, 461):
                i += 1
                tail = PLANES[i % len(PLANES)][0]
                origin, dest = AIRPORTS[i % 2][0], AIRPORTS[2 + i % 3][0]
                rows.append((i * 7 + 100, 2013, 1, day, carrier, number, tail, origin, dest, (i * 13) % 40 - 5))
    return rows


def _build(path: Path) -> Path:
    con = sqlite3.connect(path)
    con.executescript("""
        CREATE TABLE airlines (carrier TEXT PRIMARY KEY, name TEXT);
        CREATE TABLE planes (tailnum TEXT PRIMARY KEY, engines INTEGER, seats INTEGER);
        CREATE TABLE airports (faa TEXT PRIMARY KEY, name TEXT, dst TEXT);
        CREATE TABLE flights (id INTEGER PRIMARY KEY, year INTEGER, month INTEGER, day INTEGER,
            carrier TEXT REFERENCES airlines (carrier), flight INTEGER, tailnum TEXT REFERENCES planes (tailnum),
            origin TEXT REFERENCES airports (faa), dest TEXT REFERENCES airports (faa), dep_delay INTEGER);
        CREATE TABLE notes (id INTEGER PRIMARY KEY, topic TEXT, score INTEGER);
        CREATE TABLE orders (OrderID INTEGER PRIMARY KEY, carrier TEXT REFERENCES airlines (carrier), order_date DATE);
    """)
    con.executemany("INSERT INTO airlines VALUES (?, ?)", CARRIERS)
    con.executemany("INSERT INTO planes VALUES (?, ?, ?)", PLANES)
    con.executemany("INSERT INTO airports VALUES (?, ?, ?)", AIRPORTS)
    con.executemany("INSERT INTO flights VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", _flights())
    con.executemany("INSERT INTO notes VALUES (?, ?, ?)", [(i, ("late", "early", "lost")[i % 3], i % 4)
                                                          for i in range(1, 31)])
    con.executemany("INSERT INTO orders VALUES (?, ?, ?)", [(10248 + i, CARRIERS[i % 3][0], f"2013-02-{1 + i % 9:02d}")
                                                           for i in range(20)])
    con.commit()
    con.close()
    return path


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    return _build(tmp_path_factory.mktemp("flights") / "flights.sqlite")


@pytest.fixture(scope="module")
def schema(db):
    engine = connect(f"sqlite:///{db}")
    try:
        yield inspect_schema(engine)
    finally:
        engine.dispose()


def test_a_row_id_table_is_named_by_carrier_number_and_date(schema):
    flights = schema.table("flights")
    assert lookup_keys(flights) == ["year", "month", "day", "carrier", "flight"]
    # measured, not assumed: the tuple's distinct count was scanned
    assert flights.tuple_distinct["year,month,day,carrier,flight"] == flights.rows
    # 5 days x 4 numbers = 20 < 60 rows: a date and a number alone cannot name a flight, so that
    # pair was never scanned (nor chosen)
    assert "year,month,day,flight" not in flights.tuple_distinct


def test_a_number_people_use_is_kept_and_a_table_with_no_name_is_not_asked_by_name(schema):
    assert lookup_keys(schema.table("orders")) == ["OrderID"]  # "order 10248" stays
    notes = schema.table("notes")
    assert natural_key_candidates(notes) == []  # no own number, no date: nothing to measure
    assert lookup_keys(notes) == []
    assert not any(t.sql.endswith("'[notes.id]'") for t in schema_templates(schema))


def test_candidates_skip_tuples_too_small_to_tell_the_rows_apart(schema):
    # 3 carriers x 4 numbers = 12 < 60 rows: never scanned
    assert ["carrier", "flight"] not in natural_key_candidates(schema.table("flights"))


def test_composite_names_read_as_people_say_them():
    pattern = composite_name("flights", ["year", "month", "day", "carrier", "flight"])
    assert fill_name(pattern, {"year": "2013", "month": "1", "day": "2", "carrier": "UA", "flight": "1545"}) \
        == "UA flight 1545 on 2013-1-2"
    assert composite_name("payments", ["customer", "paid_on"]) == "payment with customer {customer} on {paid_on}"
    assert composite_name("people", ["first_name", "city"]) is None  # no number, no date: not such a name


def test_relation_nouns_come_from_what_the_key_points_at():
    assert relation_noun("tailnum", "planes", "tailnum") == "plane"
    assert relation_noun("carrier", "airlines", "carrier") == "airline"
    assert relation_noun("dest", "airports", "faa") == "destination airport"
    assert relation_noun("origin", "airports", "faa") == "origin airport"
    assert relation_noun("SupplierID", "Suppliers", "SupplierID") == "supplier"  # unchanged


def test_a_one_letter_code_is_left_out(schema):
    assert left_out_reason(schema.table("airports"), "dst") == "a one-letter code: its answer reads as a code"
    assert left_out_reason(schema.table("airports"), "name") is None


def test_questions_name_flights_by_carrier_number_and_date_and_every_answer_is_the_data(db, tmp_path):
    out = ragdx.generate_dataset(f"sqlite:///{db}", tmp_path / "ds", styles=["interrogative"], kb=tmp_path / "kb",
                                 max_groups=0)
    records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
    flights = [r for r in records if r["table"] == "flights"]
    assert flights
    con = sqlite3.connect(db)
    ids = {row[0] for row in con.execute("SELECT id FROM flights")}
    for r in flights:
        q = r["query"]
        assert re.search(r"\b[A-Z0-9]{2} flight \d+ on 2013-1-\d+\b", q), q
        assert not any(re.search(rf"\bflight {i}\b", q) for i in ids if str(i) in q), q
        assert "tailnum" not in q.lower() and " dest " not in f" {q.lower()} ", q
        p = r["params"]
        where = ("year = ? AND month = ? AND day = ? AND carrier = ? AND flight = ?",
                 (p["flights.year"], p["flights.month"], p["flights.day"], p["flights.carrier"], p["flights.flight"]))
        # the truth by hand: what the named flight holds, through its plane or airport where asked
        truth = {tuple(row) for row in con.execute(
            "SELECT f.dep_delay, f.tailnum, pl.engines, pl.seats, d.name, o.name FROM flights f "
            "JOIN planes pl ON pl.tailnum = f.tailnum JOIN airports d ON d.faa = f.dest "
            "JOIN airports o ON o.faa = f.origin WHERE " + " AND ".join(f"f.{c}" for c in where[0].split(" AND ")),
            where[1])}
        assert len(truth) == 1, r["params"]  # the name picks exactly one flight
        assert r["answer_rows"][0][0] in next(iter(truth)), (q, r["answer_rows"])
    con.close()
    # the rendered documents call each flight the same way
    docs = [json.loads(line) for line in (tmp_path / "kb" / "documents.jsonl").read_text().splitlines()]
    (flight,) = [d for d in docs if d["title"] == "UA flight 1545 on 2013-1-1"]
    assert "The departure delay of UA flight 1545 on 2013-1-1 is" in flight["text"]
    assert not any(re.search(rf"\bflight {i}\b", d["title"]) for d in docs for i in ids)


def test_the_linker_reads_a_flight_by_its_whole_name_never_by_one_part(db, schema):
    """Documents people write name a flight as the questions do; "2013", "1" or "flight 107" (its row
    number, which is also some flight's number) must not link every flight or the wrong one."""
    from ragdx.kb.link import FactResolver

    engine = connect(f"sqlite:///{db}")
    try:
        names = FactResolver(engine, schema).table_names("flights")
    finally:
        engine.dispose()
    written = set(names.values())
    assert "UA flight 1545 on 2013-1-1" in written and "B6 flight 33 on 2013-1-5" in written
    assert len(written) == len(_flights())  # one name per flight, each naming one row
    assert not written & {"2013", "1", "UA", "1545"}
    assert not any(re.fullmatch(r"flight( no| number)? \d+", w) for w in written)
