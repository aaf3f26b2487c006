"""The set-based scan reads driver rows by place (ragdx.gen.qa._scan_set_based): what it gives
must be what the per-combination path gives, value for value and type for type, and the raw
driver fetch must keep the engine's statement timeout and its one-line error."""

from __future__ import annotations

import sqlite3

import pytest

from ragdx.db import connect, inspect_schema
from ragdx.db.engine import driver_rows
from ragdx.errors import DatabaseError
from ragdx.gen.qa import AnswerOptions, _scan_set_based, answer_template, run_per_combination
from ragdx.gen.sql_templates import SqlTemplate, parse_template


def _db(tmp_path, script: str, rows: dict[str, list[tuple]]):
    path = tmp_path / "db.sqlite"
    with sqlite3.connect(path) as conn:
        conn.executescript(script)
        for table, values in rows.items():
            conn.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(values[0]))})", values)
    engine = connect(f"sqlite:///{path}")
    return engine, inspect_schema(engine)


def test_driver_rows_are_plain_tuples_with_the_rows_sqlalchemy_gives(tmp_path):
    engine, _ = _db(tmp_path, "CREATE TABLE T (id INTEGER PRIMARY KEY, name TEXT);",
                    {"T": [(i, f"n{i}") for i in range(2500)]})
    with engine.connect() as conn:
        expected = [tuple(r) for r in conn.exec_driver_sql("SELECT id, name FROM T ORDER BY id")]
        streamed = conn.execution_options(stream_results=True).exec_driver_sql("SELECT id, name FROM T ORDER BY id")
        batches = list(driver_rows(streamed, 1000))
        whole = list(driver_rows(conn.exec_driver_sql("SELECT id, name FROM T ORDER BY id")))
    assert [len(b) for b in batches] == [1000, 1000, 500]
    assert [r for b in batches for r in b] == expected == [r for b in whole for r in b]
    assert {type(r) for b in batches for r in b} == {tuple}
    engine.dispose()


def test_a_statement_stopped_while_its_rows_are_fetched_raises_the_timeout_error(tmp_path):
    engine, _ = _db(tmp_path, "CREATE TABLE T (id INTEGER PRIMARY KEY);", {"T": [(i,) for i in range(3000)]})
    engine.dispose()
    engine = connect(f"sqlite:///{tmp_path / 'db.sqlite'}", statement_timeout=0.5)
    # the first rows come at once (execute returns with them), the rest only after ~27e9 steps:
    # the statement is stopped inside a fetch, which must raise as a stopped execute does
    slow = "SELECT a.id FROM T a, T b, T c WHERE a.id * 0 + b.id + c.id = 0"
    fetched = []
    with pytest.raises(DatabaseError, match="statement timeout"), engine.connect() as conn:
        result = conn.execution_options(stream_results=True).exec_driver_sql(slow)
        fetched.append(1)
        for batch in driver_rows(result, 100):
            fetched.extend(batch)
    assert fetched  # the statement was running, not refused at execute
    engine.dispose()


def test_a_number_compared_with_a_real_column_keeps_the_domain_values(tmp_path):
    # the placeholder's values come from Item.id (integers); the compared column is REAL, so a
    # row says 1.0 where the combination says 1: the group's params must stay the combination's
    engine, schema = _db(tmp_path, """
        CREATE TABLE Item (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE Price (pid INTEGER PRIMARY KEY, item REAL, label TEXT);
    """, {"Item": [(1, "a"), (2, "b"), (3, "c")], "Price": [(10, 1.0, "one"), (11, 2.0, "two"), (12, 2.0, "deux")]})
    parsed = parse_template(SqlTemplate("SELECT label FROM Price WHERE item = '[Item.id]'", "Item"), schema)
    options = AnswerOptions(multi_answer="keep", unanswerable="keep")
    fast = answer_template(engine, parsed, schema, options)
    slow = answer_template(engine, parsed, schema, AnswerOptions(method="per-combination", multi_answer="keep",
                                                                unanswerable="keep"))
    assert fast.counts.method == "set"
    got = [(g.params, [type(v) for v in g.params], g.rows, g.entities, g.facts) for g in fast.groups]
    assert got == [(g.params, [type(v) for v in g.params], g.rows, g.entities, g.facts) for g in slow.groups]
    assert [g.params for g in fast.groups] == [(1,), (2,), (3,)]
    assert {type(g.params[0]) for g in fast.groups} == {int}
    assert [g.kind for g in fast.groups] == ["single", "multi", "none"]
    engine.dispose()


def test_text_params_are_the_rows_text_and_equal_the_per_combination_groups(tmp_path):
    names = [f"name {i:03d}" for i in range(300)]
    engine, schema = _db(tmp_path, "CREATE TABLE P (id INTEGER PRIMARY KEY, Name TEXT UNIQUE, City TEXT);",
                         {"P": [(i, n, None if i % 7 == 0 else f"c{i % 5}") for i, n in enumerate(names)]})
    parsed = parse_template(SqlTemplate("SELECT City FROM P WHERE Name = '[P.Name]'", "P"), schema)
    fast = answer_template(engine, parsed, schema, AnswerOptions())
    per = run_per_combination(engine, parsed, [(n,) for n in sorted(names)], schema)
    assert [(g.params, g.rows, g.entities, g.facts) for g in fast.groups] == \
           [(c, g.rows, g.entities, g.facts) for c, g in per.items()]
    assert {type(g.params[0]) for g in fast.groups} == {str}
    assert fast.counts.single == 300 and fast.counts.null_answers == len(range(0, 300, 7))
    engine.dispose()


def test_combinations_equal_in_python_each_read_their_rows(tmp_path):
    # 1 and 1.0 are one key of a dict: each combination must still get the row, as its own group
    engine, schema = _db(tmp_path, "CREATE TABLE N (id INTEGER PRIMARY KEY, v NUMERIC, label TEXT);",
                         {"N": [(1, 1, "one"), (2, 2, "two"), (3, 2, "zwei")]})
    parsed = parse_template(SqlTemplate("SELECT label FROM N WHERE v = '[N.v]'", "N"), schema)
    scan = _scan_set_based(engine, parsed, schema, [(1,), (1.0,), (2,), (5,)], make_groups=True)
    assert not scan.made_groups  # groups are made per combination instead, never one shared
    assert [s[-1:] if isinstance(s, tuple) else s for s in scan.slots[:2]] == [("one",), ("one",)]
    assert scan.slots[3] is None
    assert sorted(r[-1] for r in scan.more[2]) == ["two", "zwei"]
    engine.dispose()
