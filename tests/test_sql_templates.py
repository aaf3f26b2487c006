"""SQL templates: parsing and its rejections, validation on a real database, the schema and LLM
methods, the editable templates file, the SQL stage of the pipeline and concrete SQL."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3

import pytest
import yaml

from ragdx.db import connect, inspect_schema
from ragdx.db.load import load_tables, load_tables_json
from ragdx.demo.database import build_demo_database
from ragdx.errors import RagdxError, TemplateError
from ragdx.gen.pipeline import sql_stage
from ragdx.gen.semantics import ColumnRef, Condition, Join
from ragdx.gen.sql_templates import (
    SqlTemplate,
    llm_templates,
    merge_into_file,
    parse_template,
    read_templates,
    schema_templates,
    sql_prompt,
)
from ragdx.gen.validate import validate_templates
from ragdx.llm import OpenAICompatibleLLM
from tests.conftest import AURP, SPIDER, need
from tests.support.openai_server import OpenAIServer

pytestmark = pytest.mark.timeout(60)


# ----------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def aurp_rows() -> dict[str, list[dict]]:
    return json.loads(need(AURP / "aurp_tables.json").read_text(encoding="utf-8"))["rows"]


@pytest.fixture(scope="module")
def aurp(tmp_path_factory):
    """(engine, schema) of Aurp loaded into SQLite, opened read-only."""
    tables = need(AURP / "aurp_tables.json")
    url = f"sqlite:///{tmp_path_factory.mktemp('aurp') / 'aurp.sqlite'}"
    load_tables_json(url, tables)
    engine = connect(url)
    yield engine, inspect_schema(engine)
    engine.dispose()


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    path = build_demo_database(tmp_path_factory.mktemp("demo") / "demo.sqlite")
    engine = connect(f"sqlite:///{path}")
    yield engine, inspect_schema(engine)
    engine.dispose()


@pytest.fixture(scope="module")
def spider():
    path = need(SPIDER / "company_employee.sqlite")
    engine = connect(f"sqlite:///{path}")  # read-only by default: the shared file stays as it is
    yield engine, inspect_schema(engine)
    engine.dispose()


def run(engine, parsed, *values):
    """Rows of a parsed template executed with bound parameters."""
    sql, names = parsed.executable()
    with engine.connect() as conn:
        return [tuple(r) for r in conn.exec_driver_sql(sql, dict(zip(names, values, strict=True)))]


def row_of(rows: list[dict], **match) -> dict:
    (row,) = [r for r in rows if all(r[k] == v for k, v in match.items())]
    return row


# ----------------------------------------------------------------------------- rejections

REJECTIONS = [
    pytest.param(
        "SELECT Industry FROM Client WHERE Name = '[Client.Name]'; "
        "SELECT Location FROM Client WHERE Name = '[Client.Name]'",
        "expected a single statement, found 2", id="two-statements"),
    pytest.param("INSERT INTO Client (Name, Industry, Location) VALUES ('[Client.Name]', 'a', 'b')",
                 "only SELECT is allowed, found INSERT", id="insert"),
    pytest.param("UPDATE Client SET Industry = 'x' WHERE Name = '[Client.Name]'",
                 "only SELECT is allowed, found UPDATE", id="update"),
    pytest.param("DELETE FROM Client WHERE Name = '[Client.Name]'",
                 "only SELECT is allowed, found DELETE", id="delete"),
    pytest.param("DROP TABLE Client", "only SELECT is allowed, found DROP", id="drop"),
    pytest.param("SELECT * FROM Client WHERE Name = '[Client.Name]'",
                 "select specific columns instead of '*'", id="star"),
    pytest.param("SELECT Client.* FROM Client WHERE Name = '[Client.Name]'",
                 "select specific columns instead of '*'", id="qualified-star"),
    pytest.param("SELECT Industry FROM Client WHERE Name = [Client.Name]",
                 "a placeholder must be quoted like '[Table.Column]'", id="unquoted-placeholder"),
    pytest.param("SELECT Industry FROM Client WHERE Name = '[Customer.Name]'",
                 "placeholder '[Customer.Name]' names an unknown table 'Customer'", id="placeholder-table"),
    pytest.param("SELECT Industry FROM Client WHERE Name = '[Client.Title]'",
                 "placeholder '[Client.Title]' names an unknown column 'Title' in table 'Client'",
                 id="placeholder-column"),
    pytest.param("SELECT '[Client.Name]' FROM Client WHERE Location = 'Dubai, UAE'",
                 "placeholder '[Client.Name]' must sit in an equality in the WHERE clause",
                 id="placeholder-in-select-list"),
    pytest.param("SELECT Client.Industry FROM Project JOIN Client ON Project.Client = '[Client.Name]' "
                 "WHERE Project.Name = '[Project.Name]'",
                 "placeholder '[Client.Name]' must sit in an equality in the WHERE clause",
                 id="placeholder-in-join-on"),
    pytest.param("SELECT Industry FROM Client WHERE Industry IN "
                 "(SELECT Industry FROM Client WHERE Name = '[Client.Name]')",
                 "placeholder '[Client.Name]' must sit in an equality in the WHERE clause",
                 id="placeholder-in-subquery"),
    pytest.param("SELECT Industry FROM Client WHERE Location = 'Dubai, UAE' OR Name = '[Client.Name]'",
                 "joined to the other conditions by AND", id="placeholder-in-or"),
    pytest.param("SELECT Industry FROM Client WHERE Name LIKE '[Client.Name]'",
                 "must sit in an equality", id="placeholder-in-like"),
    pytest.param("SELECT Industry FROM Client WHERE '[Client.Name]' = 'Skyline Developers'",
                 "placeholder '[Client.Name]' must be compared with a column", id="compared-with-literal"),
    pytest.param("SELECT Industry FROM Client WHERE UPPER(Name) = '[Client.Name]'",
                 "placeholder '[Client.Name]' must be compared with a column", id="compared-with-function"),
    pytest.param("SELECT Industry FROM Client WHERE Name = '[Client.Name]' AND Location = '[Client.Name]'",
                 "placeholder '[Client.Name]' appears twice", id="placeholder-twice"),
    # Table 7's criterion binds the generators (a person's file may project the key on purpose)
    pytest.param("SELECT Name FROM Client WHERE Name = '[Client.Name]'",
                 "the projected column 'Client.Name' appears in the predicate", "llm",
                 id="projected-in-predicate-llm"),
    pytest.param("SELECT Industry, Client.Name FROM Client WHERE Name = '[Client.Name]'",
                 "the projected column 'Client.Name' appears in the predicate", "schema",
                 id="projected-in-predicate-schema"),
    pytest.param("SELECT Revenue FROM Client WHERE Name = '[Client.Name]'",
                 "unknown column 'Revenue'", id="unknown-select-column"),
    pytest.param("SELECT Client.Revenue FROM Client WHERE Name = '[Client.Name]'",
                 "unknown column 'Revenue' in table 'Client'", id="unknown-qualified-column"),
    pytest.param("SELECT Industry FROM Clients WHERE Name = '[Client.Name]'",
                 "unknown table 'Clients'", id="unknown-table"),
    pytest.param("SELECT Location FROM Project JOIN Client ON Project.Client = Client.Name "
                 "WHERE Project.Name = '[Project.Name]'",
                 "ambiguous column 'Location': qualify it with its table", id="ambiguous-column"),
    pytest.param("SELECT Industry FROM Client WHERE Location = 'Dubai, UAE'",
                 "no placeholder", id="no-placeholder"),
    pytest.param("SELEC Industry FROM Client WHERE Name = '[Client.Name]'",
                 "not valid SQL", id="invalid-sql"),
    pytest.param("SELECT Industry FROM Client WHERE Name = '[Client.Name]' AND (",
                 "not valid SQL", id="unbalanced-parenthesis"),
]


@pytest.mark.parametrize(("sql", "reason", "method"),
                         [p if len(p.values) == 3 else pytest.param(*p.values, "file", id=p.id)
                          for p in REJECTIONS])
def test_parse_template_rejects_with_reason(aurp, sql, reason, method):
    _, schema = aurp
    with pytest.raises(TemplateError) as info:
        parse_template(SqlTemplate(sql, "Client", method), schema)
    assert reason in info.value.message
    # the message names the template, so a person can find it in the file
    assert sql.strip() in str(info.value)


# ----------------------------------------------------------------------------- acceptance


def test_reference_templates_parse_and_answer_on_aurp(aurp, aurp_rows):
    engine, schema = aurp
    templates = read_templates(need(AURP / "SQLTemplateGenerator" / "sql_templates.json"))
    assert len(templates) == 10
    assert {t.schema for t in templates} == {"client", "employee", "project"}
    accepted, rejected = validate_templates(templates, schema, engine)
    assert rejected == []
    assert len(accepted) == 10
    for parsed in accepted:
        # every reference template asks for one attribute of an entity named by its Name
        (condition,) = parsed.semantics.conditions
        table = condition.column.table
        assert condition == Condition(ColumnRef(table, "Name"), f"{table}.Name")
        assert parsed.domains[f"{table}.Name"] == (table, "Name")
        (target,) = parsed.semantics.targets
        assert target.table == table
        assert re.search(rf"SELECT {target.column} FROM {table} ", parsed.template.sql)
        # and the database answers with the row of the JSON file
        row = aurp_rows[table][0]
        assert run(engine, parsed, row["Name"]) == [(row[target.column],)]


def test_reference_templates_with_ids_parse_on_aurp(aurp, aurp_rows):
    """The ``_with_ids`` variant projects the key next to the attribute (the gold document id);
    a file's template may do that, only generated ones must not."""
    engine, schema = aurp
    templates = read_templates(need(AURP / "SQLTemplateGenerator" / "sql_templates_with_ids.json"))
    assert len(templates) == 10
    assert {t.method for t in templates} == {"reference"}
    accepted, rejected = validate_templates(templates, schema, engine)
    assert [(r.template.sql, r.reason) for r in rejected] == []
    assert len(accepted) == 10
    for parsed in accepted:
        (condition,) = parsed.semantics.conditions
        table = condition.column.table
        attr, key = parsed.semantics.targets
        assert key == ColumnRef(table, "Name")
        row = aurp_rows[table][-1]
        assert run(engine, parsed, row["Name"]) == [(row[attr.column], row["Name"])]


def test_case_insensitive_names_resolve_to_the_real_spelling(aurp, aurp_rows):
    engine, schema = aurp
    parsed = parse_template(
        SqlTemplate("select industry from client where name = '[client.name]'", "client"), schema)
    assert parsed.domains == {"client.name": ("Client", "Name")}
    assert parsed.compared == {"client.name": ("Client", "Name")}
    assert parsed.semantics.targets == (ColumnRef("Client", "Industry"),)
    assert parsed.sources == [("Client", "Client")]
    display = parsed.display()
    assert '"Client"."Industry"' in display and 'FROM "Client"' in display
    row = row_of(aurp_rows["Client"], Name="Skyline Developers")
    assert run(engine, parsed, "Skyline Developers") == [(row["Industry"],)]


def test_case_insensitive_template_runs_on_every_engine(empty_db, aurp_rows):
    """PostgreSQL keeps the quoted mixed-case names of the loaded tables and MariaDB compares
    table names case-sensitively on Linux, so the lower-case template only runs when ragdx
    renders the database's own spelling."""
    load_tables_json(empty_db, need(AURP / "aurp_tables.json"))
    engine = connect(empty_db)
    try:
        schema = inspect_schema(engine)
        parsed = parse_template(SqlTemplate(
            "select client.industry from project join client on project.client = client.name "
            "where project.name = '[project.name]'", "project"), schema)
        project = aurp_rows["Project"][1]
        client = row_of(aurp_rows["Client"], Name=project["Client"])
        assert run(engine, parsed, project["Name"]) == [(client["Industry"],)]
    finally:
        engine.dispose()


def test_alias_resolves_to_its_table(aurp, aurp_rows):
    engine, schema = aurp
    parsed = parse_template(
        SqlTemplate("SELECT c.Industry FROM Client AS c WHERE c.Name = '[Client.Name]'", "Client"), schema)
    assert parsed.sources == [("Client", "c")]
    assert parsed.compared == {"Client.Name": ("Client", "Name")}
    assert parsed.compared_q == {"Client.Name": ("c", "Name")}
    assert parsed.semantics.targets == (ColumnRef("Client", "Industry"),)
    assert parsed.semantics.entity == "Client"
    row = aurp_rows["Client"][3]
    assert run(engine, parsed, row["Name"]) == [(row["Industry"],)]


def test_fk_join_semantics(aurp, aurp_rows):
    engine, schema = aurp
    parsed = parse_template(SqlTemplate(
        "SELECT Client.Industry FROM Project JOIN Client ON Project.Client = Client.Name "
        "WHERE Project.Name = '[Project.Name]'", "Project"), schema)
    sem = parsed.semantics
    assert sem.targets == (ColumnRef("Client", "Industry"),)
    assert sem.entity == "Project"
    assert sem.conditions == (Condition(ColumnRef("Project", "Name"), "Project.Name"),)
    # the schema declares Project.Client -> Client.Name: the relation is named from the referencing side
    assert sem.joins == (Join(ColumnRef("Project", "Client"), ColumnRef("Client", "Name"), referencing="left"),)
    assert parsed.placeholders == ("Project.Name",)
    assert parsed.sources == [("Project", "Project"), ("Client", "Client")]
    for project in aurp_rows["Project"]:
        client = row_of(aurp_rows["Client"], Name=project["Client"])
        assert run(engine, parsed, project["Name"]) == [(client["Industry"],)]


def test_two_placeholders_keep_their_order(spider):
    _, schema = spider
    parsed = parse_template(SqlTemplate(
        "SELECT e.Year_working FROM employment AS e JOIN people AS p ON e.People_ID = p.People_ID "
        "JOIN company AS c ON e.Company_ID = c.Company_ID "
        "WHERE p.Name = '[people.Name]' AND c.Name = '[company.Name]'", "people,company"), schema)
    assert parsed.placeholders == ("people.Name", "company.Name")
    assert parsed.compared == {"people.Name": ("people", "Name"), "company.Name": ("company", "Name")}
    assert parsed.semantics.targets == (ColumnRef("employment", "Year_working"),)


# ----------------------------------------------------------------------------- validation


def test_validate_rejects_what_fails_on_the_database(aurp):
    engine, schema = aurp
    good = SqlTemplate("SELECT Industry FROM Client WHERE Name = '[Client.Name]'", "Client")
    broken = SqlTemplate("SELECT no_such_fn(Industry) FROM Client WHERE Name = '[Client.Name]'", "Client")
    parse_template(broken, schema)  # the parser has nothing against it
    accepted, rejected = validate_templates([good, broken], schema, engine)
    assert [p.template for p in accepted] == [good]
    (rej,) = rejected
    assert rej.template == broken
    assert rej.reason.startswith("fails on the database: ")
    assert "no such function" in rej.reason.lower()  # SQLite's own words


def test_validate_without_engine_only_parses(aurp):
    _, schema = aurp
    broken = SqlTemplate("SELECT no_such_fn(Industry) FROM Client WHERE Name = '[Client.Name]'", "Client")
    accepted, rejected = validate_templates([broken], schema)
    assert [p.template for p in accepted] == [broken] and rejected == []


def test_validate_rejects_broken_template_on_empty_table(tmp_path):
    path = tmp_path / "empty.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE Client (Name TEXT PRIMARY KEY, Industry TEXT)")
    engine = connect(f"sqlite:///{path}")
    try:
        schema = inspect_schema(engine)
        broken = SqlTemplate("SELECT no_such_fn(Industry) FROM Client WHERE Name = '[Client.Name]'", "Client")
        accepted, rejected = validate_templates([broken], schema, engine)
        assert accepted == []
        assert "no such function" in rejected[0].reason.lower()
    finally:
        engine.dispose()


def test_validate_rejects_duplicates(aurp):
    engine, schema = aurp
    first = SqlTemplate("SELECT Industry FROM Client WHERE Name = '[Client.Name]'", "Client")
    same = SqlTemplate("SELECT Industry FROM Client WHERE Name = '[Client.Name]'", "Client")
    spaced = SqlTemplate("SELECT  Industry\nFROM Client WHERE Name = '[Client.Name]' ;", "Client")
    other = SqlTemplate("SELECT Location FROM Client WHERE Name = '[Client.Name]'", "Client")
    accepted, rejected = validate_templates([first, same, other, spaced], schema, engine)
    assert [p.template.sql for p in accepted] == [first.sql, other.sql]
    assert [(r.template.sql, r.reason) for r in rejected] == [
        (same.sql, "duplicate of an earlier template"),
        (spaced.sql, "duplicate of an earlier template"),
    ]


# ----------------------------------------------------------------------------- schema method

# columns that mean nothing to a person: integer keys and the integer foreign keys to them
SURROGATE = {
    "aurp": set(),
    "demo": {("Staff", "id"), ("Programme", "id"), ("Programme", "Coordinator"),
             ("ProgrammeCourse", "Programme"), ("Teaching", "Staff")},
    "spider": {("people", "People_ID"), ("company", "Company_ID"),
               ("employment", "People_ID"), ("employment", "Company_ID")},
}


@pytest.mark.parametrize("db", ["aurp", "demo", "spider"])
def test_schema_templates_all_validate_and_avoid_surrogates(request, db):
    engine, schema = request.getfixturevalue(db)
    templates = schema_templates(schema)
    assert templates
    assert all(t.method == "schema" for t in templates)
    accepted, rejected = validate_templates(templates, schema, engine)
    assert [(r.template.sql, r.reason) for r in rejected] == []
    assert len(accepted) == len(templates)
    for parsed in accepted:
        used = {(c.table, c.column) for c in parsed.semantics.targets}
        used |= {(c.column.table, c.column.column) for c in parsed.semantics.conditions}
        used |= set(parsed.domains.values())
        assert not used & SURROGATE[db], parsed.template.sql
        assert not any(re.fullmatch(r"(?i)id|.*_id", column) for _, column in used), parsed.template.sql


def _shapes(templates, schema):
    """(targets, conditions) of every template, as qualified names."""
    out = set()
    for t in templates:
        sem = parse_template(t, schema).semantics
        out.add((tuple(c.qualified for c in sem.targets),
                 tuple(c.column.qualified for c in sem.conditions)))
    return out


def test_schema_templates_on_aurp_ask_the_papers_lookups(aurp):
    _, schema = aurp
    templates = schema_templates(schema)
    shapes = _shapes(templates, schema)
    for attr in ("Industry", "Location"):
        assert ((f"Client.{attr}",), ("Client.Name",)) in shapes
    for attr in ("JobTitle", "Department", "SupervisorOrManager"):
        assert ((f"Employee.{attr}",), ("Employee.Name",)) in shapes
    for attr in ("StartDate", "EndDate", "Client", "ProjectDirector", "ProjectManager"):
        assert ((f"Project.{attr}",), ("Project.Name",)) in shapes
    # a client's attribute reached from the project through Project.Client -> Client.Name
    fk = [parse_template(t, schema) for t in templates]
    fk = [p for p in fk if p.semantics.entity == "Project"
          and p.semantics.targets[0].table == "Client"]
    assert {p.semantics.targets[0].column for p in fk} == {"Industry", "Location"}
    for p in fk:
        assert p.semantics.joins == (Join(ColumnRef("Project", "Client"), ColumnRef("Client", "Name"),
                                          referencing="left"),)
        assert p.placeholders == ("Project.Name",)


def test_schema_templates_on_spider_join_through_employment(spider):
    engine, schema = spider
    parsed = [parse_template(t, schema) for t in schema_templates(schema)]
    two = [p for p in parsed if len(p.placeholders) == 2]
    assert two, "no two-placeholder template"
    for p in two:
        assert "employment" in {real for real, _ in p.sources}
        assert set(p.placeholders) == {"people.Name", "company.Name"}
    # the answer of the two-placeholder template matches a hand-written join
    (years,) = [p for p in two if p.semantics.targets == (ColumnRef("employment", "Year_working"),)]
    with engine.connect() as conn:
        facts = conn.exec_driver_sql(
            "SELECT p.Name, c.Name, e.Year_working FROM employment e "
            "JOIN people p ON p.People_ID = e.People_ID JOIN company c ON c.Company_ID = e.Company_ID"
        ).fetchall()
    assert len(facts) == 5
    values = {"people.Name": 0, "company.Name": 1}
    for fact in facts:
        args = [fact[values[ph]] for ph in years.placeholders]
        assert run(engine, years, *args) == [(fact[2],)]


def test_schema_templates_on_demo_key_programmes_by_name(demo):
    _, schema = demo
    parsed = [parse_template(t, schema) for t in schema_templates(schema)]
    placeholders = {ph for p in parsed for ph in p.placeholders}
    assert "Programme.Name" in placeholders
    assert "Programme.id" not in placeholders
    by_programme = [p for p in parsed if p.placeholders == ("Programme.Name",)]
    targets = {c.qualified for p in by_programme for c in p.semantics.targets}
    assert {"Programme.Level", "Programme.Language", "Staff.Name"} <= targets  # Staff.Name: the coordinator
    assert "Programme.Coordinator" not in targets


def test_schema_templates_validate_on_self_referencing_surrogate_fk(tmp_path):
    path = tmp_path / "staff.sqlite"
    with sqlite3.connect(path) as conn:
        conn.executescript("""
            CREATE TABLE Staff (id INTEGER PRIMARY KEY, Name TEXT NOT NULL UNIQUE, Title TEXT,
                                manager_id INTEGER REFERENCES Staff (id));
            INSERT INTO Staff VALUES (1, 'Ann', 'Director', NULL), (2, 'Bob', 'Engineer', 1),
                                     (3, 'Cy', 'Engineer', 1);
        """)
    engine = connect(f"sqlite:///{path}")
    try:
        schema = inspect_schema(engine)
        templates = schema_templates(schema)
        accepted, rejected = validate_templates(templates, schema, engine)
        assert [(r.template.sql, r.reason) for r in rejected] == []
        # a self-join names the second row by its relation (manager_id -> Manager), never
        # "Staff2" (which read "staff 2s" in questions)
        manager = [p for p in accepted if p.semantics.targets == (ColumnRef("Manager", "Name"),)]
        assert manager and run(engine, manager[0], "Bob") == [("Ann",)]
    finally:
        engine.dispose()


# ----------------------------------------------------------------------------- the templates file


def _aurp_templates(aurp, *schemas):
    return [t for t in schema_templates(aurp[1]) if t.schema in schemas]


def test_merge_creates_a_file_that_reads_back(tmp_path, aurp):
    path = tmp_path / "sql.yaml"
    templates = _aurp_templates(aurp, "Client", "Project")
    added = merge_into_file(path, templates)
    assert added == ["Client", "Project"]
    back = read_templates(path)
    assert [(t.sql, t.schema, t.method) for t in back] == [(t.sql, t.schema, t.method) for t in templates]
    # and what reads back still parses
    for t in back:
        parse_template(t, aurp[1])


def test_merge_again_adds_nothing(tmp_path, aurp):
    path = tmp_path / "sql.yaml"
    templates = schema_templates(aurp[1])
    merge_into_file(path, templates)
    before = path.read_bytes()
    assert merge_into_file(path, templates) == []
    assert merge_into_file(path, list(reversed(templates))) == []
    assert path.read_bytes() == before


def test_hand_edits_survive_a_rerun(tmp_path, aurp):
    path = tmp_path / "sql.yaml"
    merge_into_file(path, _aurp_templates(aurp, "Client"))
    original = "SELECT Industry FROM Client WHERE Name = '[Client.Name]'"
    edited_sql = "SELECT Client.Industry FROM Client WHERE Client.Name = '[Client.Name]'"
    text = path.read_text(encoding="utf-8")
    assert original in text
    text = text.replace(original, edited_sql)
    text = text.replace("schemas:\n", "schemas:\n# reviewed by hand: keep the qualified names\n", 1)
    path.write_text(text, encoding="utf-8")
    edited = path.read_bytes()

    added = merge_into_file(path, schema_templates(aurp[1]))
    assert added == ["Employee", "Project"]
    after = path.read_bytes()
    assert after.startswith(edited)
    assert len(after) > len(edited)
    sqls = [t.sql for t in read_templates(path)]
    assert edited_sql in sqls
    assert original not in sqls  # the generator did not bring its own version back
    assert "SELECT JobTitle FROM Employee WHERE Name = '[Employee.Name]'" in sqls
    assert "SELECT StartDate FROM Project WHERE Name = '[Project.Name]'" in sqls


NOT_LAST = [
    pytest.param("notes:\n  owner: data team\n", id="mapping-after"),
    pytest.param("notes: keep me\n", id="scalar-after"),
    pytest.param("version: 1\n", id="version-after"),
]


@pytest.mark.parametrize("tail", NOT_LAST)
def test_schemas_not_last_key_is_refused_and_file_unchanged(tmp_path, aurp, tail):
    path = tmp_path / "sql.yaml"
    body = ("schemas:\n  Client:\n  - sql: SELECT Industry FROM Client WHERE Name = '[Client.Name]'\n"
            + tail)
    path.write_text(body, encoding="utf-8")
    assert len(read_templates(path)) == 1  # a valid file as it stands
    with pytest.raises(RagdxError) as info:
        merge_into_file(path, _aurp_templates(aurp, "Project"))
    assert "schemas:" in str(info.value) and str(path) in str(info.value)
    assert path.read_text(encoding="utf-8") == body


def _read_error(tmp_path, text: str) -> TemplateError:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TemplateError) as info:
        read_templates(path)
    assert info.value.source == str(path)
    assert str(path) in str(info.value)
    return info.value


def test_read_templates_malformed_yaml(tmp_path):
    err = _read_error(tmp_path, "version: 1\nschemas:\n  Client: [unclosed\n")
    assert "not valid YAML" in err.message
    assert err.field and err.field.startswith("line ")


def test_read_templates_missing_sql(tmp_path):
    err = _read_error(tmp_path, (
        "schemas:\n  Client:\n  - sql: SELECT Industry FROM Client WHERE Name = '[Client.Name]'\n"
        "  - method: file\n"))
    assert err.field == "schemas.Client[1]"
    assert "sql" in err.message
    assert "schemas.Client[1]" in str(err)


def test_read_templates_empty_sql(tmp_path):
    err = _read_error(tmp_path, "schemas:\n  Client:\n  - sql: '  '\n")
    assert err.field == "schemas.Client[0]"


def test_read_templates_unknown_key(tmp_path):
    err = _read_error(tmp_path, (
        "schemas:\n  Client:\n  - sql: SELECT Industry FROM Client WHERE Name = '[Client.Name]'\n"
        "    note: checked\n"))
    assert err.field == "schemas.Client[0]"
    assert "note" in err.message


def test_read_templates_schema_not_a_list(tmp_path):
    err = _read_error(tmp_path, "schemas:\n  Client: SELECT Industry FROM Client\n")
    assert err.field == "schemas.Client"


# ----------------------------------------------------------------------------- the SQL stage


def test_sql_stage_on_demo_saves_only_valid_templates(tmp_path, demo):
    engine, schema = demo
    invalid = {
        "SELECT * FROM Faculty WHERE Name = '[Faculty.Name]'": "instead of '*'",
        "DELETE FROM Faculty WHERE Name = '[Faculty.Name]'": "only SELECT",
        "SELECT no_such_fn(Campus) FROM Faculty WHERE Name = '[Faculty.Name]'": "fails on the database",
        "SELECT Name FROM Faculty WHERE Name = '[Faculty.Name]'": "appears in the predicate",
    }
    valid_import = "SELECT Campus FROM Faculty WHERE Building = '[Faculty.Building]'"
    imports = tmp_path / "mine.yaml"
    imports.write_text(yaml.safe_dump(
        {"schemas": {"Handmade": [{"sql": s, "method": "llm"} for s in [valid_import, *invalid]]}}),
        encoding="utf-8")
    out = tmp_path / "sql_templates.yaml"

    # with imports nothing is derived unless asked (issue 9: `--import` keeps exactly the imported set)
    result = sql_stage(engine, schema, out, imports=[imports], derive=True)

    reasons = {r.template.sql: r.reason for r in result.rejected}
    assert set(reasons) == set(invalid)
    for sql, why in invalid.items():
        assert why in reasons[sql]
    saved = read_templates(out)
    saved_sql = {t.sql for t in saved}
    assert valid_import in saved_sql
    assert not saved_sql & set(invalid)
    assert len(saved) == len(result.accepted) == len(schema_templates(schema)) + 1
    accepted, rejected = validate_templates(saved, schema, engine)
    assert rejected == [] and len(accepted) == len(saved)
    assert set(result.added_schemas) == {t.schema for t in saved}

    before = out.read_bytes()
    again = sql_stage(engine, schema, out, imports=[imports])
    assert again.added_schemas == [] and again.accepted == []
    assert "Handmade" in again.skipped_schemas
    assert out.read_bytes() == before


# ----------------------------------------------------------------------------- concrete SQL

NASTY = ["O'Brien", "back\\slash", "C:\\new\\table", "50% off", "ratio 3:1 at :p0", "emoji 🎉 ok",
         "'; DROP TABLE Item; --", "\\'", "tab\tand\nnewline", "x" * 10240, None]


def _item_table(url: str):
    schema = {"Item": {"columns": [{"name": "Code", "type": "VARCHAR(20)"},
                                   {"name": "Label", "type": "TEXT"}],
                       "primary_key": ["Code"]}}
    rows = [{"Code": f"c{i}", "Label": v} for i, v in enumerate(NASTY)]
    rows.append({"Code": "twin", "Label": "50% off"})  # a value with two rows
    load_tables(url, schema, {"Item": rows})


def test_concrete_sql_returns_the_rows_of_the_bound_query(empty_db):
    _item_table(empty_db)
    engine = connect(empty_db)
    try:
        schema = inspect_schema(engine)
        parsed = parse_template(
            SqlTemplate("SELECT Code FROM Item WHERE Label = '[Item.Label]'", "Item"), schema)
        for value in NASTY:
            bound = sorted(r[0] for r in run(engine, parsed, value))
            concrete = parsed.concrete_sql([value])
            raw = engine.raw_connection()  # as a person pasting it into a SQL console would run it
            try:
                cursor = raw.cursor()
                cursor.execute(concrete)
                pasted = sorted(r[0] for r in cursor.fetchall())
            finally:
                raw.close()
            assert pasted == bound, (repr(value)[:40], concrete[:200])
            if value is not None:
                assert bound == (["c3", "twin"] if value == "50% off" else [f"c{NASTY.index(value)}"])
            else:
                assert bound == []  # '= NULL' never holds, bound or not
    finally:
        engine.dispose()


def test_concrete_sql_value_that_looks_like_a_sentinel(tmp_path):
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    load_tables(url, {"Item": {"columns": [{"name": "Code", "type": "VARCHAR(20)"},
                                           {"name": "Label", "type": "TEXT"},
                                           {"name": "Colour", "type": "TEXT"}],
                               "primary_key": ["Code"]}},
                {"Item": [{"Code": "a", "Label": "__ragdx_p1__", "Colour": "red"},
                          {"Code": "b", "Label": "red", "Colour": "red"}]})
    engine = connect(url)
    try:
        parsed = parse_template(SqlTemplate(
            "SELECT Code FROM Item WHERE Label = '[Item.Label]' AND Colour = '[Item.Colour]'", "Item"),
            inspect_schema(engine))
        values = ("__ragdx_p1__", "red")
        assert run(engine, parsed, *values) == [("a",)]
        with engine.connect() as conn:
            assert [tuple(r) for r in conn.exec_driver_sql(parsed.concrete_sql(values))] == [("a",)]
    finally:
        engine.dispose()


# ----------------------------------------------------------------------------- the LLM method

TABLE7_CRITERIA = [
    ("The placeholder format should be a combination of a table name and a column name, enclosed "
     "within square brackets"),
    "Use only 'SELECT' queries.",
    ("Select specific column(s) instead of using '*'. Avoid projecting attributes that appear in the "
     "predicate."),
    "The selected and condition columns in the query MUST BE MEANINGFUL and DESCRIPTIVE",
    "Avoid using technical column names that don't clearly signify the nature of the entities",
    "Do not create redundant or semantically duplicated queries when translated into natural language.",
    "Each query must contain at least one parameter placeholder in the WHERE clause.",
    "Ensure the query yields a specific and singular answer",
    ("If no acceptable SQL template can be generated with the given table and column information, do "
     "not generate any text."),
    "Output each SQL template as a single line, without any prefix or suffix.",
]


def test_sql_prompt_has_criteria_requirements_and_schema_only(aurp, aurp_rows):
    _, schema = aurp
    requirements = ["Only ask about where clients are based.", "- Prefer the Location column"]
    prompt = sql_prompt(schema, ["Client", "project"], requirements)
    flat = " ".join(prompt.split())
    for criterion in TABLE7_CRITERIA:
        assert criterion in flat, criterion
    lines = prompt.splitlines()
    assert "- Only ask about where clients are based." in lines
    assert "- Prefer the Location column" in lines
    assert "{SPECIFIC_REQUIREMENTS}" not in prompt and "{GIVEN_SCHEMA}" not in prompt
    # the schema: both tables with their columns and the foreign key, not Employee
    assert re.search(r"Table Client\(Name \S+.*PRIMARY KEY, Industry \S+.*, Location \S+", prompt)
    assert re.search(r"Table Project\(Name .*StartDate.*ProjectManager", prompt)
    assert "FOREIGN KEY (Client) REFERENCES Client(Name)" in prompt
    assert "Table Employee" not in prompt
    # structure only: no value of any row reaches the model
    for table in ("Client", "Project"):
        for row in aurp_rows[table]:
            for value in row.values():
                if isinstance(value, str) and len(value) > 3:
                    assert value not in prompt, value


def test_llm_templates_keep_only_select_lines(aurp):
    _, schema = aurp
    lines = [
        "Sure! Here are some SQL templates for the Client table:",
        "",
        "```sql",
        "1. SELECT Industry FROM Client WHERE Name = '[Client.Name]';",
        "2) SELECT Location FROM Client WHERE Name = '[Client.Name]';",
        "- SELECT Name FROM Client WHERE Location = '[Client.Location]';",
        "`select Industry from Client where Location = '[Client.Location]'`",
        "```",
        "These templates avoid projecting the predicate column. Hope this helps!",
        "##RESPONSE_END##",
    ]
    reply = "\n".join(lines)
    requirements = ["Only use the Client table."]
    with OpenAIServer() as server:
        server.reply = lambda body: reply
        llm = OpenAICompatibleLLM("test-model", base_url=server.base_url, api_key="sk-test",
                                  timeout=5.0, max_retries=0)

        async def ask():
            try:
                return await llm_templates(llm, schema, ["client"], requirements)
            finally:
                await llm.aclose()

        templates = asyncio.run(ask())
        (request,) = server.chat_requests
    assert [t.sql for t in templates] == [
        "SELECT Industry FROM Client WHERE Name = '[Client.Name]';",
        "SELECT Location FROM Client WHERE Name = '[Client.Name]';",
        "SELECT Name FROM Client WHERE Location = '[Client.Location]';",
        "select Industry from Client where Location = '[Client.Location]'",
    ]
    assert {(t.schema, t.method) for t in templates} == {("Client", "llm")}
    (message,) = request.body["messages"]
    assert message == {"role": "user", "content": sql_prompt(schema, ["client"], requirements)}
    for t in templates:  # what survives the clean-up is SQL the parser accepts
        parse_template(t, schema)


def test_parse_llm_sql_numbered_inline_code():
    from ragdx.gen.sql_templates import parse_llm_sql

    sql = "SELECT Industry FROM Client WHERE Name = '[Client.Name]'"
    assert parse_llm_sql(f"1. `{sql}`\n- `{sql}`") == [sql, sql]
