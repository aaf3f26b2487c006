"""Issue 21, evidence-linking precision, third round: each rule a reading a person makes, with a
minimal one- or two-document repro that fails on the code before it."""

from __future__ import annotations

import sqlite3

import pytest

from ragdx.db import connect, inspect_schema
from ragdx.gen.dataset import QARecord
from ragdx.kb.link import FactResolver, Linker, PassageIndex, link_records
from ragdx.rag.corpus import Corpus


def _world(tmp_path, script: str):
    db = tmp_path / "w.sqlite"
    with sqlite3.connect(db) as con:
        con.executescript(script)
    engine = connect(f"sqlite:///{db}")
    return engine, inspect_schema(engine)


def _record(facts: list[str]) -> QARecord:
    return QARecord(id=facts[-1], group_id=facts[-1], sql_template_id="s", text_template_id="t", style="short",
                    schema="w", table=facts[-1].partition(".")[0], params={}, sql="", query="",
                    answer_columns=[], answer_rows=[["x"]], answer_text="x", answer_kind="single",
                    entities=[], facts=facts)


def _gold(world, docs: dict[str, str], *facts: list[str]) -> list[list[str]]:
    engine, schema = world
    out = link_records([_record(f) for f in facts], FactResolver(engine, schema), Linker(PassageIndex(
        Corpus.from_texts(docs))))
    return [r.gold_document_ids for r in out]


@pytest.fixture()
def ferries(tmp_path):
    return _world(tmp_path, """
        CREATE TABLE ports (port_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, berths INTEGER NOT NULL);
        CREATE TABLE routes (route_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,
                             from_port_id INTEGER REFERENCES ports(port_id), crossing_minutes INTEGER);
        INSERT INTO ports VALUES (1, 'Ardmore', 1), (2, 'Inverhoe', 3);
        INSERT INTO routes VALUES (1, 'Ardmore - Inverhoe', 1, 50);
    """)


def test_a_duration_is_no_count(ferries):
    """"The crossing takes 1 hr 25 min" says nothing of Ardmore's one berth: a number written with
    a unit of time is a duration; a column of minutes still reads "crossing 50 min"."""
    berths, minutes = _gold(ferries, {
        "timetable": "Sailings leave Ardmore for Inverhoe; the crossing takes 1 hr 25 min.",
        "port": "Ardmore has 1 berth and a linkspan.",
        "route": "# Ardmore - Inverhoe\n\nAll year, approx. crossing 50 min.",
    }, ["ports.berths@1"], ["routes.crossing_minutes@1"])
    assert berths == ["port"]
    assert minutes == ["route"]
