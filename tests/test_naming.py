"""The schema's one vocabulary (ragdx.gen.naming): a relation has one name in the SQL templates,
the questions and the rendered knowledge base, taken from the role in the foreign key's name or
from what it points at, never from the key column's full name."""

from __future__ import annotations

import sqlite3

import pytest

from ragdx.db import connect, inspect_schema
from ragdx.gen.naming import low_words, plural_phrase, readable_entity, relation_noun, starts_with_table
from ragdx.gen.sql_templates import parse_template, schema_templates
from ragdx.gen.verbalise import verbalise
from ragdx.kb.render import render_kb


@pytest.mark.parametrize("column, table, noun", [
    ("SupplierID", "Suppliers", "supplier"),          # what it points at
    ("CustomerNumber", "customers", "customer"),
    ("People_ID", "people", "person"),
    ("officeCode", "offices", "office"),
    ("ReportsTo", "Employees", "manager"),            # a verb: the synonym table
    ("ShipVia", "Shippers", "shipper"),
    ("ProjectManager", "Staff", "project manager"),   # a role in the column's own name
    ("salesRepEmployeeNumber", "employees", "sales rep"),  # the role before the entity's noun
    ("accountManagerStaffId", "staff", "account manager"),
    ("ParentCategoryID", "Categories", "parent category"),  # a qualifier stays with the noun
    ("Client_ID", "Client", "client"),
    ("fk_owner", "users", "owner"),
])
def test_relation_noun(column, table, noun):
    assert relation_noun(column, table) == noun


def test_words_of_a_schema():
    assert low_words("salesRepEmployeeNumber") == ["sales", "rep", "employee", "number"]
    assert readable_entity("StudyProgrammes") == "study programme"
    assert plural_phrase("study programme") == "study programmes"
    assert starts_with_table("SupplierID", "Suppliers") and not starts_with_table("ReportsTo", "Employees")


@pytest.fixture()
def sales(tmp_path):
    path = tmp_path / "sales.sqlite"
    con = sqlite3.connect(path)
    con.executescript("""
        CREATE TABLE employees(employeeNumber INTEGER PRIMARY KEY, lastName TEXT, firstName TEXT, jobTitle TEXT,
                               reportsTo INTEGER REFERENCES employees(employeeNumber));
        CREATE TABLE customers(customerNumber INTEGER PRIMARY KEY, customerName TEXT NOT NULL, city TEXT,
                               salesRepEmployeeNumber INTEGER REFERENCES employees(employeeNumber));
        INSERT INTO employees VALUES (1002,'Murphy','Diane','President',NULL),
                                     (1056,'Patterson','Mary','VP Sales',1002),
                                     (1370,'Hernandez','Gerard','Sales Rep',1056),
                                     (1165,'Jennings','Leslie','Sales Rep',1056);
        INSERT INTO customers VALUES (103,'Atelier graphique','Nantes',1370),
                                     (112,'Signal Gift Stores','Las Vegas',1165),
                                     (119,'La Rochelle Gifts','Nantes',1370);
    """)
    con.commit()
    con.close()
    engine = connect(f"sqlite:///{path}")
    yield engine, inspect_schema(engine)
    engine.dispose()


def test_one_name_for_a_relation_in_questions_and_documents(sales):
    engine, schema = sales
    texts = []
    for template in schema_templates(schema):
        parsed = parse_template(template, schema)
        if "salesRepEmployeeNumber" in template.sql:
            for style in ("short", "long", "interrogative"):
                texts += verbalise(parsed.semantics, style, 3)
    assert texts, "no template crosses the sales-rep foreign key"
    documents = " ".join(d.text for d in render_kb(engine, schema).documents)
    assert "The sales rep of Atelier graphique is Gerard Hernandez." in documents
    assert "Gerard Hernandez is the sales rep of the customer Atelier graphique." in documents
    for text in texts + [documents]:
        low = text.lower()
        # never the key column's full name, never the bare entity for a role the schema names
        assert "employee number" not in low and "sales rep employee" not in low, text
    assert all("sales rep" in t.lower() for t in texts), texts


def test_a_row_is_named_by_a_place_before_a_code(tmp_path):
    # classicmodels' offices: keyed by a text code ('1', '4'), unique by city; a person says "the
    # Paris office", and the rendered documents were titled "4" ("4 is an office in our records")
    path = tmp_path / "offices.sqlite"
    con = sqlite3.connect(path)
    con.executescript("""
        CREATE TABLE offices(officeCode TEXT PRIMARY KEY, phone TEXT NOT NULL, city TEXT NOT NULL,
                             country TEXT);
        INSERT INTO offices VALUES ('1','+1 650 219 4782','San Francisco','USA'),
                                   ('2','+1 215 837 0825','Boston','USA'),
                                   ('4','+33 14 723 4404','Paris','France');
        CREATE TABLE courses(code TEXT PRIMARY KEY, description TEXT NOT NULL, credits INTEGER);
        INSERT INTO courses VALUES ('CS101','An introduction to programming in Python, with weekly labs.',6),
                                   ('MA201','Linear algebra for engineers: vectors, matrices and maps.',5);
    """)
    con.commit()
    con.close()
    engine = connect(f"sqlite:///{path}")
    try:
        from ragdx.gen.sql_templates import lookup_keys

        schema = inspect_schema(engine)
        assert lookup_keys(schema.table("offices")) == ["city"]
        assert lookup_keys(schema.table("courses")) == ["code"]  # a code before free text
        titles = {d.title for d in render_kb(engine, schema).documents}
        assert {"Paris", "Boston", "San Francisco"} <= titles and "4" not in titles
    finally:
        engine.dispose()
