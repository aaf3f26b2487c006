"""Questions a person would type (issue 22 items 1 and 3): the question word fits the answer's
kind, no "label: attribute" fragment, no relation noun built from a key column's name, units and
acronyms as people write them; and answers worth asking: contact details, long free text,
constant columns, 0/1 flags and key codes are left out by default, said so, and asked about when
the user names them under ``ask:`` in ragdx.yaml."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from ragdx.db import connect, inspect_schema
from ragdx.demo.database import build_demo_database
from ragdx.errors import TemplateError
from ragdx.gen.naming import column_phrase, event_verb, readable_name, relation_noun
from ragdx.gen.sql_templates import left_out_columns, parse_template, schema_templates
from ragdx.gen.verbalise import BUILTIN_STYLES, verbalise

NORTHWIND = Path(__file__).resolve().parents[2] / "shared" / "data" / "northwind" / "northwind.sqlite"
CORPORA = Path(__file__).resolve().parents[1] / "benchmarks" / "corpora"
KEY_WORDS = {"id", "number", "no", "nr", "num", "key", "code", "ref"}


def _open(path: Path):
    engine = connect(f"sqlite:///{path}")
    return engine, inspect_schema(engine)


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    path = build_demo_database(tmp_path_factory.mktemp("demo") / "demo.sqlite")
    return _open(path)


def _databases():
    out = [pytest.param("demo", id="demo")]
    out.append(pytest.param(NORTHWIND, id="northwind", marks=pytest.mark.skipif(
        not NORTHWIND.exists(), reason="../shared/data/northwind is absent")))
    for name in ("kestrel/kestrel.sqlite", "hebrant_ferries/hebrant_ferries.sqlite",
                 "brackwater_foodbank/brackwater.sqlite"):
        out.append(pytest.param(CORPORA / name, id=name.split("/")[0]))
    return out


def _texts(engine, schema):
    """(parsed template, style, text) for every derived template, all six styles, 3 each."""
    for template in schema_templates(schema):
        parsed = parse_template(template, schema)
        for style in BUILTIN_STYLES:
            for text in verbalise(parsed.semantics, style, 3):
                yield parsed, style, text


def _key_column_phrases(schema) -> set[str]:
    """The readable names of foreign-key columns that carry a key word ("sales rep employee number",
    "home hub id"): a relation named after them is named after the key, not the related row."""
    out = set()
    for table in schema.tables.values():
        for fk in table.foreign_keys:
            for column in fk.columns:
                words = readable_name(column).lower().split()
                if len(words) > 1 and set(words) & KEY_WORDS:
                    out.add(" ".join(words))
    return out


@pytest.mark.parametrize("db", _databases())
def test_questions_read_as_a_person_types_them(db, demo, tmp_path):
    engine, schema = demo if db == "demo" else _open(db)
    key_phrases = _key_column_phrases(schema)
    seen = 0
    for parsed, style, text in _texts(engine, schema):
        seen += 1
        bare = re.sub(r"'?\[[^\]]+\]'?", "X", text)
        low = bare.lower()
        assert not any(p in low for p in key_phrases), text  # no relation named after its key column
        assert " of of " not in low and " the the " not in low and "  " not in bare, text
        if style == "short":
            # a whole question or request, never "project X: client" or "client lookup: X"
            assert ":" not in bare and " – " not in bare and "lookup" not in low, text
            assert text.endswith(("?", ".")), text
        first = bare.split()[0].lower()
        if first in ("what", "what's") and style in ("short", "interrogative"):
            # "what" never asks for a person whose name is the answer
            targets = parsed.semantics.targets
            if len(targets) == 2:
                assert {t.column.lower() for t in targets} != {"firstname", "lastname"}, text
    assert seen


def test_question_words_fit_the_answer(demo):
    engine, schema = demo
    by_target: dict[str, list[str]] = {}
    for parsed, style, text in _texts(engine, schema):
        if style == "interrogative":
            sql = parsed.template.sql
            by_target.setdefault(sql, []).append(text)
    first = {sql: texts[0] for sql, texts in by_target.items()}
    hire = [t for s, t in first.items() if s.startswith("SELECT Staff.hire_date") or s.startswith("SELECT hire_date")]
    assert hire and all(t.startswith("When was ") and t.endswith(" hired?") for t in hire), hire
    coordinator = [t for s, t in first.items() if s.startswith("SELECT Staff.Name FROM Programme")]
    assert coordinator and all(t.startswith("Who is the coordinator of ") for t in coordinator), coordinator
    fee = [t for s, t in first.items() if s.startswith("SELECT TuitionFee")]
    assert fee == ["How much is the tuition fee of the programme '[Programme.Name]'?"]
    linked = [t for s, t in first.items() if s.startswith("SELECT Programme.Name FROM ProgrammeCourse")]
    assert linked == ["Which programmes are linked to the course '[Course.Title]'?"]


@pytest.mark.parametrize("column, table, noun", [
    ("logged_by", "volunteers", "logging volunteer"),       # a verb: the row that did it
    ("reported_by", "crew", "reporting crew member"),
    ("from_port", "ports", "departure port"),               # a direction: where a journey starts
    ("to_port", "ports", "destination port"),
    ("home_hub_id", "hubs", "home hub"),
])
def test_relation_nouns_from_verbs_and_directions(column, table, noun):
    assert relation_noun(column, table) == noun


@pytest.mark.parametrize("column, phrase", [
    ("hired_on", "hire date"), ("joined", "joining date"), ("opened", "opening date"),
    ("occurred", "date"), ("FoundedYear", "founding year"), ("client_since", "client start date"),
    ("BirthDate", "date of birth"), ("storage_m2", "storage in m²"), ("weight_kg", "weight in kg"),
    ("DurationYears", "duration in years"), ("duration_min", "duration in minutes"), ("mrn", "MRN"),
    ("msrp", "MSRP"), ("hcpc_number", "HCPC number"), ("sku", "SKU"), ("kind", "type"),
    ("pub_date", "publication date"), ("Sales_in_Billion", "sales in billions"),
])
def test_column_phrases_as_people_write_them(column, phrase):
    assert column_phrase(column) == phrase


def test_readable_name_keeps_plain_words_for_the_linker():
    # the evidence linker matches "640 m²" against the column's plain words
    assert readable_name("storage_m2") == "storage m 2"
    assert readable_name("weight_kg") == "weight kg"


@pytest.mark.parametrize("column, verb", [
    ("hired_on", ("hired", None)), ("HireDate", ("hired", None)), ("joined", ("joined", "join")),
    ("occurred", ("occurred", "occur")), ("OrderDate", ("placed", None)), ("Notes", None),
])
def test_event_verbs(column, verb):
    assert event_verb(column) == verb


# ----------------------------------------------------------------------------- item 3


def _worth_asking_db(path: Path) -> Path:
    con = sqlite3.connect(path)
    long_text = "A long free-text description that nobody would ever write back word for word. " * 2
    con.executescript("""
        CREATE TABLE hub (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, town TEXT NOT NULL,
                          phone TEXT, email TEXT, address_line TEXT, notes TEXT, country TEXT,
                          step_free INTEGER, berths INTEGER, opened DATE);
    """)
    rows = [(i, f"Hub {i}", f"Town {i % 3}", f"01632 96{i:04d}", f"hub{i}@example.org", f"{i} High Street",
             f"{long_text} {i}", "UK", i % 2, 1 + i % 2, f"2020-01-{i + 1:02d}") for i in range(8)]
    con.executemany("INSERT INTO hub VALUES (?,?,?,?,?,?,?,?,?,?,?)", rows)
    con.commit()
    con.close()
    return path


def test_defaults_leave_out_what_no_one_asks_and_say_why(tmp_path):
    engine, schema = _open(_worth_asking_db(tmp_path / "hubs.sqlite"))
    asked = " ".join(t.sql for t in schema_templates(schema))
    for column in ("phone", "email", "address_line", "notes", "country", "step_free"):
        assert f"SELECT {column} " not in asked, column
    for column in ("town", "berths", "opened"):
        assert f"SELECT {column} " in asked, column
    reasons = {c: why for _, c, why in left_out_columns(schema)}
    assert reasons["phone"] == reasons["email"] == reasons["address_line"] == "contact detail"
    assert reasons["notes"].startswith("long free text: ")
    assert reasons["country"] == "constant: one value in every row"
    assert reasons["step_free"] == "a 0/1 flag: its answer reads as a code"
    assert "berths" not in reasons  # two values, but a count (a plural noun), not a flag


def test_ask_brings_a_column_back_and_names_a_bad_entry(tmp_path):
    engine, schema = _open(_worth_asking_db(tmp_path / "hubs.sqlite"))
    schema.declare_asked(["hub.email", "hub.notes"], source="ragdx.yaml")
    asked = " ".join(t.sql for t in schema_templates(schema))
    assert "SELECT email " in asked and "SELECT notes " in asked and "SELECT phone " not in asked
    with pytest.raises(TemplateError) as err:
        schema.declare_asked(["hub.fax"], source="ragdx.yaml")
    assert "ragdx.yaml" in str(err.value) and "ask[0]" in str(err.value) and "fax" in str(err.value)
    with pytest.raises(TemplateError):
        schema.declare_asked(["nohub"], source="ragdx.yaml")


def test_the_demo_leaves_out_its_contact_details_and_key_codes(demo):
    _, schema = demo
    left = {(t, c): why for t, c, why in left_out_columns(schema)}
    assert left[("Staff", "Email")] == left[("Faculty", "Website")] == "contact detail"
    assert left[("ProgrammeCourse", "IsCompulsory")] == "a 0/1 flag: its answer reads as a code"
    assert left[("Course", "Code")].startswith("a code")  # the key Course is joined on; named by its title
    assert ("Staff", "Office") not in left and ("Programme", "TuitionFee") not in left


def test_ragdx_templates_sql_says_what_it_leaves_out(tmp_path):
    import subprocess
    import sys

    db = _worth_asking_db(tmp_path / "hubs.sqlite")
    r = subprocess.run([sys.executable, "-m", "ragdx.cli", "templates", "sql", "--db", f"sqlite:///{db}", "-o",
                        str(tmp_path / "sql.yaml")], capture_output=True, text=True, env={
                            **__import__("os").environ, "COLUMNS": "300", "NO_COLOR": "1"}, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = " ".join(r.stdout.split())
    assert "6 columns not asked about (list them under 'ask:' in ragdx.yaml to ask)" in out, out
    assert "hub.phone (contact detail)" in out


def test_values_are_trimmed_as_a_reader_writes_them(tmp_path):
    """classicmodels' 'Carine ' (a trailing space in the source data) is asked and answered as
    "Carine"; the SQL still binds the stored value, so the answer is still found."""
    import json
    import os
    import subprocess
    import sys

    db = tmp_path / "contacts.sqlite"
    con = sqlite3.connect(db)
    con.executescript("""
        CREATE TABLE customer (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, contact_name TEXT NOT NULL,
                               city TEXT NOT NULL);
        INSERT INTO customer VALUES (1, 'Atelier graphique ', 'Carine ', 'Nantes'),
                                    (2, 'Signal Gift Stores', 'Jean', 'Las Vegas '),
                                    (3, 'Australian Collectors', 'Peter', 'Melbourne');
    """)
    con.commit()
    con.close()
    env = {**os.environ, "COLUMNS": "300", "NO_COLOR": "1"}
    url = f"sqlite:///{db}"
    for args in (["templates", "sql", "--db", url, "-o", "sql.yaml"],
                 ["templates", "text", "--db", url, "--sql", "sql.yaml", "-o", "text.yaml", "--style", "short",
                  "--n", "1"],
                 ["gen", "--db", url, "--sql", "sql.yaml", "--text", "text.yaml", "-o", "dataset", "--n", "1"]):
        r = subprocess.run([sys.executable, "-m", "ragdx.cli", *args], capture_output=True, text=True, env=env,
                           cwd=tmp_path)
        assert r.returncode == 0, r.stderr
    records = [json.loads(line) for line in (tmp_path / "dataset" / "records.jsonl").read_text().splitlines()]
    answers = {r["answer_text"] for r in records}
    assert "Carine" in answers and "Las Vegas" in answers and "Carine " not in answers
    queries = " ".join(r["query"] for r in records)
    assert "'Atelier graphique'" in queries and "'Atelier graphique '" not in queries
    assert any(r["params"] == {"customer.name": "Atelier graphique "} for r in records)  # bound as stored


def test_names_in_ragdx_yaml_replace_the_derived_nouns_everywhere(tmp_path):
    """names: {tables, columns, relations} are the words of `ragdx schema`, the questions and the
    rendered documents alike; a name that is not in the database is an error naming the field."""
    import os
    import subprocess
    import sys

    db = build_demo_database(tmp_path / "demo.sqlite")
    (tmp_path / "ragdx.yaml").write_text(
        "names:\n  tables: {Staff: lecturer}\n  columns: {hire_date: start date}\n"
        "  relations: {Coordinator: programme director}\n", encoding="utf-8")
    env = {**os.environ, "COLUMNS": "250", "NO_COLOR": "1"}
    url = f"sqlite:///{db}"

    def ragdx(*args):
        return subprocess.run([sys.executable, "-m", "ragdx.cli", *args], capture_output=True, text=True, env=env,
                              cwd=tmp_path)

    shown = ragdx("schema", url)
    assert shown.returncode == 0, shown.stderr
    assert 'called "lecturer"' in shown.stdout and "start date" in shown.stdout
    assert "programme director" in shown.stdout
    for args in (["templates", "sql", "--db", url, "-o", "sql.yaml"],
                 ["templates", "text", "--db", url, "--sql", "sql.yaml", "-o", "text.yaml", "--style",
                  "interrogative", "--n", "1"]):
        r = ragdx(*args)
        assert r.returncode == 0, r.stderr
    text = "\n".join(line for line in (tmp_path / "text.yaml").read_text(encoding="utf-8").splitlines()
                     if line.startswith("    - "))  # the questions, not their SQL
    assert "When was the lecturer '[Staff.Name]' hired?" not in text  # the user's noun, not the verb
    assert "the start date of the lecturer '[Staff.Name]'" in text
    assert "Who is the programme director of the programme '[Programme.Name]'?" in text
    assert "coordinator" not in text.lower() and "staff member" not in text
    (tmp_path / "ragdx.yaml").write_text("names:\n  columns: {hired_date: start date}\n", encoding="utf-8")
    bad = ragdx("schema", url)
    assert bad.returncode == 2 and "names.columns.hired_date" in bad.stderr and "no column" in bad.stderr


@pytest.mark.parametrize("table, noun", [
    ("productlines", "product line"), ("orderdetails", "order detail"), ("mediatypes", "media type"),
    ("playlisttrack", "playlist track"), ("employeeterritories", "employee territory"),
    ("township", "township"), ("password", "password"), ("headquarters", "headquarters"),
])
def test_lower_case_compounds_are_split_only_where_both_nouns_are_known(table, noun):
    # classicmodels' "productlines" read as one word ("productline") in questions and documents
    from ragdx.gen.naming import readable_entity

    assert readable_entity(table) == noun


@pytest.mark.parametrize("column, table, noun", [
    ("deptno", "dept", "department"), ("mgr", "emp", "manager"), ("dept_id", "departments", "department"),
])
def test_abbreviated_keys_name_the_relation_in_words(column, table, noun):
    # Oracle's emp/dept: "the department of the employee 'KING'", never "the deptno" or "MGR"
    assert relation_noun(column, table) == noun


@pytest.mark.parametrize("column, phrase", [
    ("avg_rating", "average rating"), ("amt_paid", "amount paid"), ("Max_Speed", "max speed"),
    ("hours_budgeted", "budgeted hours"), ("weight_recorded", "recorded weight"), ("breed", "breed"),
])
def test_abbreviations_written_out_and_participles_before_their_noun(column, phrase):
    assert column_phrase(column) == phrase


def test_a_contacts_first_and_last_name_are_one_person_and_a_manager_is_one(tmp_path):
    """classicmodels' customers(contactFirstName, contactLastName) were asked one by one ("the
    contact last name of …"); employees.reportsTo = Manager.employeeNumber read as "the managers"."""
    path = tmp_path / "cm.sqlite"
    con = sqlite3.connect(path)
    con.executescript("""
        CREATE TABLE employees (employeeNumber INTEGER PRIMARY KEY, lastName TEXT NOT NULL, firstName TEXT NOT NULL,
                                reportsTo INTEGER REFERENCES employees(employeeNumber), jobTitle TEXT NOT NULL);
        CREATE TABLE customers (customerNumber INTEGER PRIMARY KEY, customerName TEXT NOT NULL UNIQUE,
                                contactLastName TEXT NOT NULL, contactFirstName TEXT NOT NULL,
                                salesRepEmployeeNumber INTEGER REFERENCES employees(employeeNumber));
        INSERT INTO employees VALUES (1002, 'Murphy', 'Diane', NULL, 'President'),
                                     (1056, 'Patterson', 'Mary', 1002, 'VP Sales'),
                                     (1370, 'Hernandez', 'Gerard', 1056, 'Sales Rep');
        INSERT INTO customers VALUES (103, 'Atelier graphique', 'Schmitt', 'Carine ', 1370),
                                     (112, 'Signal Gift Stores', 'King', 'Jean', 1370),
                                     (114, 'Australian Collectors, Co.', 'Ferguson', 'Peter', 1056);
    """)
    con.commit()
    con.close()
    engine, schema = _open(path)
    templates = {t.sql: parse_template(t, schema) for t in schema_templates(schema)}
    assert not any(s.startswith(("SELECT contactLastName ", "SELECT contactFirstName ")) for s in templates)
    pair = templates["SELECT contactFirstName, contactLastName FROM customers WHERE customerName = "
                     "'[customers.customerName]'"]
    assert verbalise(pair.semantics, "interrogative", 1) == [
        "Who is the contact person of the customer '[customers.customerName]'?"]
    manager = next(p for s, p in templates.items() if "reportsTo" in s and s.startswith("SELECT Manager."))
    assert verbalise(manager.semantics, "interrogative", 1) == [
        "Who is the manager of the employee '[employees.firstName] [employees.lastName]'?"]
    rep = next(p for s, p in templates.items() if "salesRepEmployeeNumber" in s and "firstName" in s.split("FROM")[0])
    assert verbalise(rep.semantics, "interrogative", 1)[0].startswith("Who is the sales rep of the customer ")


def test_lint_says_when_a_hand_written_template_asks_what_is_not_worth_asking(demo, tmp_path):
    from ragdx.gen.lint import left_out_projections, lint
    from ragdx.gen.sql_templates import SqlTemplate

    _, schema = demo
    email = parse_template(SqlTemplate("SELECT Email FROM Staff WHERE Name = '[Staff.Name]'", "Staff", "file"), schema)
    office = parse_template(SqlTemplate("SELECT Office FROM Staff WHERE Name = '[Staff.Name]'", "Staff", "file"),
                            schema)
    found = left_out_projections([email, office], schema)
    assert found == {email.id: "Staff.Email: contact detail"}
    summary = lint([], {}, {email.id: email.template.sql, office.id: office.template.sql}, (), found)
    assert summary.not_worth_asking == 1
    assert summary.templates[0].warnings == [
        "not worth asking: Staff.Email: contact detail (ragdx's own templates leave it out)"]
