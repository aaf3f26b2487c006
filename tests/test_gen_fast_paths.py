"""The per-template fast paths of record building give exactly what the general functions give:
group ids are hashes of JSON text, so one byte of difference changes every id of a dataset."""

from __future__ import annotations

import dataclasses
import sqlite3
from datetime import date, datetime
from decimal import Decimal

import pytest

from ragdx.db import connect, inspect_schema
from ragdx.gen.dataset import _filler, _group_ids, fill, group_id
from ragdx.gen.qa import QAGroup, _GroupBuilder
from ragdx.gen.sql_templates import SqlTemplate, parse_template

HOSTILE = [
    "plain", "O'Brien", 'say "hi"', "back\\slash", "tab\there\nnewline", "\x00\x1f\x7f", "ünïcødé ✓ 𝔘",
    "\u2028\u2029", "[Client.Name]", "'__ragdx_p0__'", "", " trailing ", 0, -7, 2**70, True, False,
    1.5, float("nan"), float("inf"), -0.0, 1e300, None, Decimal("3.10"), Decimal("2"), Decimal("0.1"),
    date(2004, 1, 2), datetime(2004, 1, 2, 3, 4, 5), b"\x00\xff",
]


@pytest.mark.parametrize("tid", ["t1", 'weird "id" \\ ü'])
def test_group_ids_are_the_json_hashes(tid):
    gid = _group_ids(tid)
    for value in HOSTILE:
        assert gid((value,)) == group_id(tid, (value,)), repr(value)
    assert gid(tuple(HOSTILE)) == group_id(tid, HOSTILE)
    assert gid(()) == group_id(tid, ())


def test_filler_is_fill():
    params = {"Client.Name": "[Client.City]", "Client.City": "x'y", "Client.Age": 41, "T.B": None,
              "T.D": datetime(2004, 1, 2, 3, 4, 5), "T.F": 2.0, "T.Y": True}
    for text in ("Where does [Client.Name] live?", "[Client.Name][Client.City]", "no placeholder",
                 "[Client.Age] and [T.B], [T.D], [T.F], [T.Y].", "[Client.Name]", "", "[Unknown text"):
        assert _filler(text)(params) == fill(text, params), text


def test_concrete_sql_renderer_is_concrete_sql(tmp_path):
    db = tmp_path / "db.sqlite"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE Client (id INTEGER PRIMARY KEY, Name TEXT, City TEXT)")
    con.execute("INSERT INTO Client VALUES (1, 'a', 'b')")
    con.commit()
    con.close()
    schema = inspect_schema(connect(f"sqlite:///{db}"))
    parsed = parse_template(SqlTemplate(
        "SELECT City FROM Client WHERE Name = '[Client.Name]' AND City = '[Client.City]'", "Client"), schema)
    for dialect in ("sqlite", "postgresql", "mysql"):
        p = dataclasses.replace(parsed, dialect=dialect)
        render = p.concrete_sql_renderer()
        for a in HOSTILE:
            for b in ("x", "it's \\'", 3):
                assert render((a, b)) == p.concrete_sql((a, b)), (dialect, a, b)


def test_one_row_groups_read_their_entities_as_the_general_path_makes_them():
    # Order (composite key) and Client, joined; facts on both; NULL key parts drop an entity
    parsed = type("P", (), {"id": "t", "distinct": False, "fact_columns": [
        ("o", "Order", "Total"), ("c", "Client", "City"), ("c", "Client", "Name")]})()
    build = _GroupBuilder(parsed, [("o", "Order", ["year", "no"]), ("c", "Client", ["id"])])
    for keys in [(2004, 7, 1), (2004, 7.0, 11.0), (2004, None, "Z|1"), (None, None, None), ("a", "b", None),
                 (date(2004, 1, 2), "x", datetime(2004, 1, 2, 3, 4))]:
        row = ("answer",)
        lazy = build(("p",), [(keys, row)])
        # two identical rows take the general path (sets of every row's keys), one row the fast one
        general = build(("p",), [(keys, row), (keys, row)])
        assert (lazy.entities, lazy.facts) == (general.entities, general.facts), keys
        assert lazy == QAGroup("t", ("p",), [row], general.entities, general.facts)
        assert "entities=" in repr(lazy)
    assert build(("p",), [((1, 2, 3), ("r",))]) != build(("p",), [((1, 2, 4), ("r",))])
