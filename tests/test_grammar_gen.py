"""GRAMMAR-Gen end to end on real databases: the paper's Aurp dataset replayed on SQLite,
PostgreSQL and MariaDB, Spider's company_employee from the schema method, hostile values."""

from __future__ import annotations

import ast
import json
import sqlite3
from collections import defaultdict

import pytest
import sqlalchemy as sa

from ragdx.db import connect, inspect_schema
from ragdx.db.load import load_tables, load_tables_json
from ragdx.errors import DatabaseError
from ragdx.gen.dataset import json_value, read_records
from ragdx.gen.pipeline import build_dataset, load_parsed, sql_stage, text_stage, write
from ragdx.gen.qa import AnswerOptions, answer_template, run_per_combination
from ragdx.gen.sql_templates import SqlTemplate, parse_template, read_templates, schema_templates
from ragdx.gen.text_templates import read_text_templates
from tests.conftest import AURP, SPIDER, need


def _aurp_dataset(url: str, variant: str, style: str):
    need(AURP)
    load_tables_json(url, AURP / "aurp_tables.json")
    engine = connect(url)
    schema = inspect_schema(engine)
    sql_file = AURP / "SQLTemplateGenerator" / f"sql_templates{variant}.json"
    parsed, rejected = load_parsed(sql_file, schema, engine)
    assert not rejected, rejected
    # the reference keys its text templates by the SQL without ids; map them onto our templates
    texts = read_text_templates(AURP / "TextTemplateGenerator" / f"{style}.json")
    if variant:
        plain = [t.sql for t in read_templates(AURP / "SQLTemplateGenerator" / "sql_templates.json")]
        with_ids = [p.template.sql for p in parsed]
        mapping = dict(zip(plain, with_ids, strict=True))
        texts = [type(t)(mapping[t.sql], t.style, t.text, t.method) for t in texts]
    result = build_dataset(engine, schema, parsed, texts, [style], 3,
                           AnswerOptions(multi_answer="keep", unanswerable="keep"))
    engine.dispose()
    return result.records


def _reference_groups(variant: str, style: str) -> dict[tuple[str, ...], list[tuple]]:
    doc = json.loads((AURP / "QADataGenerator" / f"{style}{variant}.json").read_text())
    out = {}
    for per_template in doc:
        for answer_repr, queries in per_template:
            out[tuple(sorted(queries))] = [tuple(r) for r in ast.literal_eval(answer_repr)]
    return out


def _our_groups(records) -> dict[tuple[str, ...], list[tuple]]:
    queries, answers = defaultdict(list), {}
    for r in records:
        queries[r.group_id].append(r.query)
        answers[r.group_id] = [tuple(row) for row in r.answer_rows]
    return {tuple(sorted(q)): answers[g] for g, q in queries.items()}


@pytest.mark.parametrize("variant", ["", "_with_ids"])
@pytest.mark.parametrize("style", ["short", "long"])
def test_aurp_reference_replayed_on_sqlite(tmp_path, variant, style):
    records = _aurp_dataset(f"sqlite:///{tmp_path / 'aurp.sqlite'}", variant, style)
    ours, reference = _our_groups(records), _reference_groups(variant, style)
    assert len(reference) == 157
    assert len(ours) == 157
    assert ours == reference
    assert len(records) == 157 * 3


def test_aurp_identical_on_sqlite_postgresql_and_mariadb(tmp_path, pg_databases, mysql_databases):
    datasets = {
        "sqlite": _aurp_dataset(f"sqlite:///{tmp_path / 'aurp.sqlite'}", "_with_ids", "short"),
        "postgresql": _aurp_dataset(pg_databases.new(), "_with_ids", "short"),
        "mysql": _aurp_dataset(mysql_databases.new(), "_with_ids", "short"),
    }

    def comparable(records):
        # the concrete SQL is written in each engine's own dialect; everything else must match
        return sorted(json.dumps({k: v for k, v in r.to_dict().items() if k != "sql"}, sort_keys=True)
                       for r in records)

    base = comparable(datasets["sqlite"])
    assert len(base) == 471
    for name in ("postgresql", "mysql"):
        assert comparable(datasets[name]) == base, name
    assert _our_groups(datasets["mysql"]) == _reference_groups("_with_ids", "short")
    assert any('"Client"' in r.sql for r in datasets["postgresql"])
    assert any("`Client`" in r.sql for r in datasets["mysql"])


def test_spider_schema_method_answers_recheck_on_a_fresh_connection(tmp_path):
    db = need(SPIDER / "company_employee.sqlite")
    url = f"sqlite:///{db}"
    engine = connect(url)
    schema = inspect_schema(engine)
    sql_file, text_file = tmp_path / "sql.yaml", tmp_path / "text.yaml"
    result = sql_stage(engine, schema, sql_file)
    assert not result.rejected, result.rejected
    parsed, rejected = load_parsed(sql_file, schema, engine)
    assert parsed and not rejected
    assert any(len(p.placeholders) == 2 for p in parsed), "no two-placeholder template via employment"
    text_stage(parsed, text_file, ["short"], 2)
    gen = build_dataset(engine, schema, parsed, read_text_templates(text_file), ["short"], 2,
                        AnswerOptions(multi_answer="keep", unanswerable="drop"))
    assert gen.records
    fresh = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    checked = 0
    for r in gen.records:
        rows = sorted((tuple(json_value(v) for v in row) for row in fresh.execute(r.sql).fetchall()),
                      key=repr)
        assert rows == sorted((tuple(row) for row in r.answer_rows), key=repr), r.sql
        checked += 1
    fresh.close()
    assert checked == len(gen.records)
    # every combination is accounted for: answered, an answer set, or unanswerable and dropped
    for c in gen.counts.values():
        assert c.combinations == (c.single + c.multi_kept + c.multi_dropped + c.unanswerable_kept
                                  + c.unanswerable_dropped)
    assert sum(c.unanswerable_dropped for c in gen.counts.values()) > 0  # people without employers


HOSTILE = [
    "O'Brien",
    "'); DROP TABLE Victim; --",
    "Robert\"); DELETE FROM Person; --",
    "🦄 Unicorn Café",
    "100% sure: yes\\no",
    "x" * 10_000,
    "Łódź :name ?",
]


def _hostile_schema() -> dict:
    return {
        "Person": {
            "columns": [
                {"name": "id", "type": "INTEGER", "not_null": True, "primary_key": True},
                {"name": "Name", "type": "TEXT", "not_null": False, "primary_key": False},
                {"name": "City", "type": "VARCHAR(255)", "not_null": False, "primary_key": False},
            ],
            "primary_key": ["id"],
            "foreign_keys": [],
        },
        "Victim": {
            "columns": [{"name": "id", "type": "INTEGER", "not_null": True, "primary_key": True}],
            "primary_key": ["id"],
            "foreign_keys": [],
        },
    }


def test_hostile_values_get_right_answers_and_leave_the_database_unchanged(empty_db):
    rows = [{"id": i + 1, "Name": name, "City": f"city-{i}-'\"%"} for i, name in enumerate(HOSTILE)]
    rows.append({"id": 99, "Name": None, "City": "nowhere"})
    load_tables(empty_db, _hostile_schema(), {"Person": rows, "Victim": [{"id": 1}]})
    engine = connect(empty_db)
    schema = inspect_schema(engine)
    parsed = parse_template(SqlTemplate("SELECT City FROM Person WHERE Name = '[Person.Name]'", "Person"),
                            schema)
    for method in ("set", "per-combination"):
        answers = answer_template(engine, parsed, schema, AnswerOptions(method=method))
        got = {g.params[0]: g.rows for g in answers.groups}
        assert got == {r["Name"]: [(r["City"],)] for r in rows if r["Name"] is not None}, method
        assert answers.counts.combinations == len(HOSTILE)  # NULL is never a placeholder value
    # the concrete SQL shown to people is quoted correctly: it returns the same answer
    with engine.connect() as conn:
        for g in answers.groups:
            assert conn.exec_driver_sql(
                parsed.concrete_sql(g.params).replace("%", "%%") if parsed.dialect != "sqlite"
                else parsed.concrete_sql(g.params)).fetchall() == g.rows
    engine.dispose()
    writer = connect(empty_db, read_only=False)
    with writer.connect() as conn:
        assert conn.execute(_count("Victim")).scalar() == 1
        assert conn.execute(_count("Person")).scalar() == len(rows)
    writer.dispose()


def _count(table: str):
    return sa.select(sa.func.count()).select_from(sa.table(table))


def test_user_database_connections_are_read_only(empty_db):
    load_tables(empty_db, _hostile_schema(), {"Person": [{"id": 1, "Name": "a", "City": "b"}]})
    engine = connect(empty_db)
    with pytest.raises(sa.exc.DBAPIError), engine.begin() as conn:
        conn.execute(sa.delete(sa.table("Person")))
    engine.dispose()
    writer = connect(empty_db, read_only=False)
    with writer.connect() as conn:
        assert conn.execute(_count("Person")).scalar() == 1
    writer.dispose()


def test_unreachable_databases_fail_with_one_clear_line(tmp_path):
    with pytest.raises(DatabaseError, match="no such SQLite file"):
        connect(f"sqlite:///{tmp_path / 'missing.sqlite'}")
    with pytest.raises(DatabaseError, match="cannot connect") as info:
        connect("postgresql://nobody:secret@127.0.0.1:1/none")
    assert "secret" not in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(DatabaseError, match="unsupported database"):
        connect("oracle://x@y/z")


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    from ragdx.demo.database import build_demo_database

    path = build_demo_database(tmp_path_factory.mktemp("demo") / "demo.sqlite")
    engine = connect(f"sqlite:///{path}")
    schema = inspect_schema(engine)
    return engine, schema


@pytest.mark.parametrize("cap", [None, 4])
def test_set_based_equals_per_combination_on_every_demo_template(demo, cap):
    engine, schema = demo
    parsed = [parse_template(t, schema) for t in schema_templates(schema)]
    assert len(parsed) > 20
    totals = defaultdict(int)
    for p in parsed:
        options = dict(max_groups_per_template=cap, seed=7, multi_answer="keep", unanswerable="keep")
        fast = answer_template(engine, p, schema, AnswerOptions(method="set", **options))
        slow = answer_template(engine, p, schema, AnswerOptions(method="per-combination", **options))
        assert fast.counts.method == "set"
        assert [(g.params, g.rows, g.entities, g.facts) for g in fast.groups] == \
               [(g.params, g.rows, g.entities, g.facts) for g in slow.groups], p.template.sql
        for g in fast.groups:
            totals[g.kind] += 1
    # the demo data must exercise every multiplicity, or the comparison proves little
    assert totals["single"] and totals["multi"] and totals["none"], dict(totals)


def test_per_combination_sees_what_the_set_based_path_sees(demo):
    engine, schema = demo
    p = parse_template(SqlTemplate(
        "SELECT Course.Title FROM ProgrammeCourse JOIN Course ON ProgrammeCourse.Course = Course.Code "
        "JOIN Programme ON ProgrammeCourse.Programme = Programme.id WHERE Programme.Name = '[Programme.Name]'",
        "Programme"), schema)
    fast = answer_template(engine, p, schema, AnswerOptions(multi_answer="keep"))
    combos = [g.params for g in fast.groups]
    slow = run_per_combination(engine, p, combos, schema)
    assert {c: (g.rows, g.entities, g.facts) for c, g in slow.items()} == \
           {g.params: (g.rows, g.entities, g.facts) for g in fast.groups}
    assert all(g.kind == "multi" for g in fast.groups)
    assert all(any(e.startswith("ProgrammeCourse:") for e in g.entities) for g in fast.groups)


def test_dataset_round_trips_and_gold_documents_follow_the_knowledge_base(demo, tmp_path):
    from ragdx.kb.render import render_kb

    engine, schema = demo
    kb = render_kb(engine, schema, omit=["Staff.Office"])
    parsed = [parse_template(t, schema) for t in schema_templates(schema)]
    from ragdx.gen.text_templates import generate_text_templates

    texts, _, _ = generate_text_templates(parsed, ["short", "formal"], 2)
    options = AnswerOptions(multi_answer="keep")
    result = build_dataset(engine, schema, parsed, texts, ["short", "formal"], 2, options, kb_facts=kb.facts)
    write(tmp_path / "ds", schema, options, result, {"note": "test"})
    back_jsonl = read_records(tmp_path / "ds")
    back_parquet = read_records(tmp_path / "ds" / "records.parquet")
    assert [r.to_dict() for r in back_jsonl] == [r.to_dict() for r in result.records]
    assert [r.to_dict() for r in back_parquet] == [r.to_dict() for r in result.records]
    office = [r for r in result.records if any(f.startswith("Staff.Office@") for f in r.facts)]
    assert office and all(r.kb_supported is False for r in office)
    supported = [r for r in result.records if r.kb_supported]
    assert supported
    docs = {d.id: d.text for d in kb.documents}
    for r in supported:
        assert r.gold_document_ids
        # every answer value is literally in a gold document (the renderer states values)
        gold_text = " ".join(docs[d] for d in r.gold_document_ids)
        assert all(v in gold_text for row in r.answer_rows for v in row if isinstance(v, str)), r.query
    # every semantic group has the same number of queries per style (balanced by construction)
    sizes = defaultdict(int)
    for r in result.records:
        sizes[(r.group_id, r.style)] += 1
    assert set(sizes.values()) == {2}


def test_self_join_is_phrased_as_the_related_row_not_the_entity(tmp_path):
    """A self-join asks about another row of the same table (the supervisor); a text that
    forgot the hop would pair the employee's question with the supervisor's answer."""
    from ragdx.gen.text_templates import generate_text_templates

    need(AURP)
    url = f"sqlite:///{tmp_path / 'aurp.sqlite'}"
    load_tables_json(url, AURP / "aurp_tables.json")
    engine = connect(url)
    schema = inspect_schema(engine)
    p = parse_template(SqlTemplate(
        "SELECT Boss.Department FROM Employee JOIN Employee AS Boss ON Employee.SupervisorOrManager = Boss.Name "
        "WHERE Employee.Name = '[Employee.Name]'", "Employee"), schema)
    assert p.semantics.targets[0].table == "Boss" and p.semantics.entity == "Employee"
    texts, _, _ = generate_text_templates([p], ["short", "interrogative"], 3)
    assert all("supervisor or manager" in t.text for t in texts), [t.text for t in texts]
    groups = {g.params[0]: g.rows for g in answer_template(engine, p, schema, AnswerOptions()).groups}
    assert groups["Marcus Aurelius"] == [("Executive Management",)]  # his supervisor's department
    assert "Dr. Helena Quantum" not in groups  # the CEO has no supervisor: no row, dropped
