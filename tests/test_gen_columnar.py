"""The set-based scan reads driver rows by place (ragdx.gen.qa._scan_set_based): what it gives
must be what the per-combination path gives, value for value and type for type, and the raw
driver fetch must keep the engine's statement timeout and its one-line error."""

from __future__ import annotations

import sqlite3

import pytest

from ragdx.db import connect, inspect_schema
from ragdx.db.engine import driver_rows
from ragdx.errors import DatabaseError
from ragdx.gen.qa import AnswerOptions, _GroupBuilder, _scan_set_based, answer_template, run_per_combination
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


# ----------------------------------------------------------------------------- records as columns

_MIXED = """
CREATE TABLE Country (id INTEGER PRIMARY KEY, Name TEXT NOT NULL, Region TEXT);
CREATE TABLE Client (id INTEGER PRIMARY KEY, Name TEXT, Born DATE, Score REAL, Vip BOOLEAN,
                     Country_ID INTEGER REFERENCES Country(id));
"""
#: names a JSON or SQL writer must escape, a placeholder-looking one, duplicates (answer sets)
_NAMES = ["O'Brien", 'say "hi"', "back\\slash", "Zoë {x}", "line\nbreak", "[Client.Name]", "tab\tctl\x01",
          "Ann", "Ann", "Bo", None, "Émile", "€uro"]


def _mixed_db(tmp_path):
    countries = [(1, "France", "Europe"), (2, "Peru", None), (3, "Chad", "Africa"), (4, 'Pérou "N"\\', 'Amé\n"S"')]
    clients = [(i + 1, name, f"19{60 + i}-0{1 + i % 9}-1{i % 10}", [1.5, 2.0, None, 1e-07, 3][i % 5],
                i % 2, [1, 2, 3, None][i % 4]) for i, name in enumerate(_NAMES)]
    return _db(tmp_path, _MIXED, {"Country": countries, "Client": clients})


_TEMPLATES = [
    ("Country", "SELECT Name FROM Country WHERE Region = '[Country.Region]'"),  # one text answer each
    ("Client", "SELECT Score FROM Client WHERE Name = '[Client.Name]'"),
    ("Client", "SELECT Country.Region FROM Client JOIN Country ON Client.Country_ID = Country.id "
               "WHERE Client.Name = '[Client.Name]'"),
    ("Client", "SELECT Name, Born FROM Client WHERE Country_ID = '[Client.Country_ID]'"),
    ("Client", "SELECT Born, Vip FROM Client WHERE Name = '[Client.Name]' AND Country_ID = '[Client.Country_ID]'"),
]


def _texts(parsed):
    from ragdx.gen.text_templates import TextTemplate

    names = " and ".join(f"[{ph}]" for ph in parsed.placeholders)
    sql = parsed.template.sql
    return {"short": [TextTemplate(sql, "short", f"What of {names}?"), TextTemplate(sql, "short", "No value")],
            "long": [TextTemplate(sql, "long", f'Tell me "{names}" {{please}}, [{parsed.placeholders[0]}]!')]}


def _records_both_ways(tmp_path, kb: bool):
    from ragdx.gen.columnar import RecordSet, build_columns
    from ragdx.gen.dataset import build_records

    engine, schema = _mixed_db(tmp_path)
    options = AnswerOptions(unanswerable="keep", multi_answer="keep", null_answers="keep")
    reference, columns = [], RecordSet()
    for key, sql in _TEMPLATES:
        parsed = parse_template(SqlTemplate(sql, key), schema)
        groups = answer_template(engine, parsed, schema, options).groups
        facts = sorted({f for g in groups for f in g.facts})
        # every other fact stated by a document, one by two: gaps, evidence and gold all vary
        kb_facts = {f: [f"Client:{i % 3 + 1}"] + ([f"Country:{i}"] if i % 5 == 0 else [])
                    for i, f in enumerate(facts) if i % 2 == 0} if kb else None
        texts = _texts(parsed)
        reference += list(build_records(parsed, groups, texts, kb_facts))
        columns.append(build_columns(parsed, groups, texts, kb_facts))
    engine.dispose()
    return reference, columns


@pytest.mark.parametrize("kb", [False, True])
def test_records_built_as_columns_are_the_records_and_write_the_same_bytes(tmp_path, kb):
    from ragdx.gen.dataset import write_dataset

    reference, columns = _records_both_ways(tmp_path, kb)
    kinds = {r.answer_kind for r in reference}
    assert kinds == {"single", "multi", "none"} and len(reference) > 60  # the data exercises every kind
    assert {type(v) for r in reference for row in r.answer_rows for v in row} >= {str, float, type(None)}
    manifest = {"note": "same"}
    write_dataset(tmp_path / "objects", reference, manifest)
    write_dataset(tmp_path / "columns", columns, manifest)
    assert columns.columns is not None  # written from the columns, no record made
    for name in ("records.jsonl", "records.parquet", "manifest.json"):
        assert (tmp_path / "columns" / name).read_bytes() == (tmp_path / "objects" / name).read_bytes(), name
    assert len(columns) == len(reference)
    assert list(columns) == reference  # read as objects: every field equal
    assert columns.columns is None


def test_a_record_set_read_as_objects_is_written_as_they_now_are(tmp_path):
    from ragdx.gen.dataset import read_records, semantic_groups, write_dataset

    reference, columns = _records_both_ways(tmp_path, kb=False)
    groups = semantic_groups(columns)
    assert groups == len({r.group_id for r in reference})
    columns[0].query = "changed in place"  # as a list of records would keep it
    assert columns[0].query == "changed in place"
    write_dataset(tmp_path / "out", columns, {})
    back = read_records(tmp_path / "out")
    assert back[0].query == "changed in place" and back[1:] == reference[1:]
    assert semantic_groups(columns) == groups


def test_entities_and_facts_of_a_column_of_keys_are_those_of_each_group():
    from ragdx.gen.qa import group_columns

    cases = [
        # Order (composite key) and Client: the general path for every group
        ([("o", "Order", ["year", "no"]), ("c", "Client", ["id"])],
         [("o", "Order", "Total"), ("c", "Client", "City")], [(2004, 7, 1), (2004, 7.0, 11.0), (2004, None, "Z")]),
        # one key column each, prefixes apart: columns; a NULL key anywhere: the general path
        ([("c", "Client", ["id"]), ("k", "Country", ["id"])],
         [("k", "Country", "Region"), ("c", "Client", "City"), ("c", "Client", "City")],
         [(5, 1), (12, 3), ("a|b", 2.0), (7, 10**20)]),
        ([("c", "Client", ["id"]), ("k", "Country", ["id"])], [("k", "Country", "Region")], [(5, 1), (6, None)]),
        # a table joined to itself: equal prefixes, the same text twice must be one entity
        ([("a", "Staff", ["id"]), ("b", "Staff", ["id"])], [("a", "Staff", "Name"), ("b", "Staff", "Name")],
         [(1, 2), (3, 3), (4, 1)]),
        # one prefix the start of another (Ab: / Ab:c:): sorted as texts, not by prefix
        ([("x", "Ab", ["id"]), ("y", "Ab:c", ["id"])], [], [("z", "a"), ("c", "b")]),
    ]
    for layout, facts, keys in cases:
        parsed = type("P", (), {"id": "t", "distinct": False, "fact_columns": facts})()
        build = _GroupBuilder(parsed, layout)
        groups = [build(("p",), [(k, ("r",))]) for k in keys]
        expected = [build.entities_facts(k) for k in keys]
        found = group_columns(groups)
        assert list(zip(found.entities, found.facts, strict=True)) == expected, layout
        assert list(found.params) == [("p",)] * len(keys)
        # a group made with its lists among them (an answer set): read as it is
        many = build(("q",), [(keys[0], ("r",)), (keys[-1], ("s",))])
        mixed = group_columns([*groups, many])
        assert (mixed.entities[-1], mixed.facts[-1]) == (many.entities, many.facts)
        assert mixed.entities[:-1] == found.entities


# ----------------------------------------------------------------------------- groups as columns

_OPTION_SETS = [
    {},  # the CLI's policies but for NULL answers (kept, as AnswerOptions' default)
    {"null_answers": "drop"},
    {"null_answers": "unanswerable"},
    {"multi_answer": "keep", "null_answers": "drop"},
    {"unanswerable": "keep", "null_answers": "drop"},
    {"max_groups_per_template": 3, "seed": 2, "null_answers": "drop"},
]


@pytest.mark.parametrize("unique", [False, True])
def test_groups_answered_as_columns_are_the_groups_and_make_the_same_records(tmp_path, unique):
    """answer_template(..., columns=True) (a GroupTable where each combination has at most one
    row) gives the groups and counts the list gives, and build_columns the same records and
    bytes from either."""
    from ragdx.gen.columnar import RecordSet, build_columns
    from ragdx.gen.dataset import write_dataset
    from ragdx.gen.qa import GroupTable

    engine, schema = _mixed_db(tmp_path)
    if unique:  # every name once: the one-row tables are taken for the name templates too
        engine.dispose()
        with sqlite3.connect(tmp_path / "db.sqlite") as conn:
            conn.execute("DELETE FROM Client WHERE id = 9")  # the second 'Ann'
        engine, schema = connect(f"sqlite:///{tmp_path / 'db.sqlite'}"), None
        schema = inspect_schema(engine)
    tables = 0
    for n, values in enumerate(_OPTION_SETS):
        options = AnswerOptions(**values)
        lists, columns = RecordSet(), RecordSet()
        for key, sql in _TEMPLATES:
            parsed = parse_template(SqlTemplate(sql, key), schema)
            plain = answer_template(engine, parsed, schema, options)
            held = answer_template(engine, parsed, schema, options, columns=True)
            tables += isinstance(held.groups, GroupTable)
            assert held.counts.as_dict() == plain.counts.as_dict(), (sql, values)
            assert list(held.groups) == plain.groups, (sql, values)
            assert [tuple(map(type, r)) for g in held.groups for r in g.rows] == \
                [tuple(map(type, r)) for g in plain.groups for r in g.rows]
            texts = _texts(parsed)
            lists.append(build_columns(parsed, plain.groups, texts))
            columns.append(build_columns(parsed, held.groups, texts))
        write_dataset(tmp_path / f"lists{n}", lists, {})
        write_dataset(tmp_path / f"columns{n}", columns, {})
        for name in ("records.jsonl", "records.parquet"):
            assert (tmp_path / f"columns{n}" / name).read_bytes() == (tmp_path / f"lists{n}" / name).read_bytes()
        assert list(columns) == list(lists)
    assert tables >= (12 if unique else 6)  # the one-row path was taken, not only the lists'
    engine.dispose()


def test_a_group_table_reads_as_its_groups():
    from ragdx.gen.qa import GroupTable, OneRowEach, group_columns

    parsed = type("P", (), {"id": "t", "distinct": False, "fact_columns": [("c", "Client", "City")]})()
    build = _GroupBuilder(parsed, [("c", "Client", ["id"])])
    table = GroupTable(build, [("a",), ("b",), ("c",)], [(1, 2, 3)], [("x", None, "z"), (1.5, 2.0, None)])
    expected = [build((p,), [((k,), (a, s))]) for p, k, a, s in [("a", 1, "x", 1.5), ("b", 2, None, 2.0),
                                                                  ("c", 3, "z", None)]]
    assert len(table) == 3 and list(table) == expected and table[-1] == expected[-1] and table[1:] == expected[1:]
    found = group_columns(table)
    assert isinstance(found.rows, OneRowEach) and list(found.rows) == [g.rows for g in expected]
    assert found.rows[2] == [("z", None)] and found.rows[0:2] == [[("x", 1.5)], [(None, 2.0)]]
    assert (found.entities, found.facts) == ([g.entities for g in expected], [g.facts for g in expected])


@pytest.mark.parametrize("engine_name", ["sqlite", "postgresql", "mysql"])
def test_text_needing_no_escape_is_quoted_as_the_dialect_quotes_it(engine_name):
    from ragdx.db.dialect import dialect_named
    from ragdx.gen.columnar import _plain_text

    dialect = dialect_named(engine_name)
    for column in (["a", "Zoë", "x y"], ["O'Brien"], ["back\\slash"], ["line\nbreak", "b"], [], [""]):
        plain = _plain_text(dialect, column)
        assert plain == all(dialect.text_literal(v) == f"'{v}'" for v in column) or not plain, column
        if plain:
            assert all(dialect.text_literal(v) == f"'{v}'" for v in column)
    assert not _plain_text(dialect, ["O'Brien"])


def test_text_needing_no_json_escape_is_its_own_json_string():
    import json

    from ragdx.gen.columnar import _group_ids, _plain_json
    from ragdx.gen.dataset import group_id

    for column in (["a", "Zoë €", "x y"], ['say "hi"'], ["back\\slash"], ["line\nbreak", "b"], ["tab\t"],
                   ["ctl\x01"], ["\u2028"], [], [""]):
        plain = _plain_json(column)
        assert plain == all(json.dumps(v, ensure_ascii=False) == f'"{v}"' for v in column), column
        assert _group_ids("s1", [column], [{str}]) == [group_id("s1", (v,)) for v in column]
    values = [["O'Brien", "Ann", 'q"'], [1, 2, 3], ["x", "y", "z"]]
    assert _group_ids("s2", values, [set(map(type, c)) for c in values]) == \
        [group_id("s2", p) for p in zip(*values, strict=True)]


# ----------------------------------------------------------------------------- rows held as fetched


@pytest.mark.parametrize("case", ["own", "shared", "outside", "late"])
def test_rows_held_as_fetched_give_the_groups_the_slots_give(tmp_path, monkeypatch, case):
    """Batches of two rows: every row a combination of its own (held as fetched, then read a
    column at a time in the combinations' order), a combination whose rows are in two batches
    (placed in the slots after all), a capped sample (rows outside it: row by row from the
    first such batch on), the last row's combination not asked (the batches held until then
    placed in their slots). Each way the groups and counts are those of the groups made row by row."""
    import ragdx.gen.qa as qa

    names = [f"n{(i * 7) % 23:02d}" for i in range(23)]  # fetched out of the names' order
    if case == "shared":
        names[17] = names[2]  # one name, two rows, batches 1 and 8
    # keys (integers, taken as an array), texts with NULLs, few distinct texts (one object each)
    engine, schema = _db(tmp_path, "CREATE TABLE P (id INTEGER PRIMARY KEY, Name TEXT, City TEXT, Kind TEXT);",
                         {"P": [(i, n, None if i % 5 == 0 else f"c{i}", f"k{i % 2}") for i, n in enumerate(names)]})
    monkeypatch.setattr(qa, "FETCH_ROWS", 2)
    parsed = parse_template(SqlTemplate("SELECT City, Kind FROM P WHERE Name = '[P.Name]'", "P"), schema)
    combos = [(n,) for n in sorted(set(names))]
    if case == "outside":
        combos = combos[::3]
    if case == "late":
        combos.remove((names[-1],))
    scan = _scan_set_based(engine, parsed, schema, combos, hold=True)
    assert (scan.held is not None) == (case == "own")
    assert all(s is None for s in scan.slots) == (case == "own")
    if case == "late":
        assert all(scan.slots)
    assert bool(scan.more) == (case == "shared")
    options = AnswerOptions(max_groups_per_template=8 if case == "outside" else None, multi_answer="keep")
    for null_answers in ("keep", "drop", "unanswerable"):
        options.null_answers = null_answers
        held = answer_template(engine, parsed, schema, options, columns=True)
        plain = answer_template(engine, parsed, schema, options)
        assert held.counts.as_dict() == plain.counts.as_dict()
        assert list(held.groups) == plain.groups and len(plain.groups) >= 5
        # one row each: a table, held rows or not (an answer set is kept: a list, as the plain
        # path's; no answer is all NULL, Kind never is)
        assert isinstance(held.groups, qa.GroupTable) == (case != "shared")
        assert held.counts.combinations == (8 if case == "outside" else len(set(names)))
    scan.unhold()  # the held rows in their slots, as the rows would have been put there
    assert scan.held is None
    if case == "own":
        assert [s[0] for s in scan.slots] == [c[0] for c in combos]
    engine.dispose()


def test_text_rows_read_as_the_lists_they_hold():
    import json

    from ragdx.gen.columnar import _str_lists
    from ragdx.gen.qa import TextRows

    columns = [["Client:1", 'say "hi"', "back\\slash"], ["Country:1", "Country:2", "line\nbreak"]]
    lists = [["Client:1", "Country:1"], ['say "hi"', "Country:2"], ["back\\slash", "line\nbreak"]]
    rows = TextRows(columns, 3)
    assert list(rows) == lists and rows == lists and lists == rows and rows[-1] == lists[-1]
    assert rows[1:] == lists[1:] and rows != lists[:2] and rows != [["x"]] * 3
    assert list(TextRows([columns[0]], 3)) == [[t] for t in columns[0]] and list(TextRows([], 2)) == [[], []]
    for held, made in ((rows, lists), (TextRows([columns[0]], 3), [[t] for t in columns[0]]),
                       (TextRows([], 2), [[], []]), (TextRows([columns[1][:2]], 2), [["Country:1"], ["Country:2"]])):
        assert _str_lists(held) == _str_lists(made) == [json.dumps(x, ensure_ascii=False, separators=(",", ":"))
                                                        for x in made]
    with pytest.raises(IndexError):
        rows[3]
