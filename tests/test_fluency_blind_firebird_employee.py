"""The third blind fluency check's tools (benchmarks/corpora/fluency_firebird_employee): the rebuild from the
Debian package, the seeded draw, the mechanical counts, and the committed sample's labels against the result."""

from __future__ import annotations

import gzip
import importlib.util
import io
import json
import sqlite3
import tarfile
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "benchmarks" / "corpora" / "fluency_firebird_employee"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"fluency_fe_{name}", HERE / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# a few of the script's real rows, in its layout: schema and procedures first, then rows and updates
SCRIPT = """
CREATE TABLE country (country COUNTRYNAME NOT NULL PRIMARY KEY, currency VARCHAR(10) NOT NULL);
SET TERM !! ;
CREATE PROCEDURE org_chart AS BEGIN SUSPEND; END !!
SET TERM ; !!
INSERT INTO country (country, currency) VALUES ('USA',         'Dollar');
INSERT INTO department
(dept_no, department, head_dept, budget, location, phone_no) VALUES
('000', 'Corporate Headquarters', null, 1000000, 'Monterey','(408) 555-1234');
INSERT INTO department
(dept_no, department, head_dept, budget, location, phone_no) VALUES
('600', 'Engineering', '000', 1100000, 'Monterey', '(408) 555-1234');
/*
 *  Add jobs; a comment with a ; and a quote ' in it.
 */
INSERT INTO job
(job_code, job_grade, job_country, job_title, min_salary, max_salary) VALUES
('VP',    2, 'USA', 'Vice President',             80000,  130000);
INSERT INTO employee (emp_no, first_name, last_name, dept_no, job_code,
job_grade, job_country, hire_date, salary, phone_ext) VALUES
(2, 'Robert', 'Nelson', '600', 'VP', 2, 'USA', '12/28/88', 98000, '250');
INSERT INTO employee (emp_no, first_name, last_name, dept_no, job_code,
job_grade, job_country, hire_date, salary, phone_ext) VALUES
(65, 'Sue Anne','O''Brien', '600', 'VP', 2, 'USA', '03/23/92', 99000, '877');
COMMIT;
UPDATE department SET mngr_no = 2 WHERE dept_no = '600';
UPDATE employee SET salary = salary + salary * 0.05 + 3000
    WHERE hire_date <= '08/01/91' AND job_grade in (1, 2);
UPDATE salary_history
    SET change_date = '12/15/92', updater_id = 'admin2';
INSERT INTO customer
(cust_no, customer, contact_first, contact_last, phone_no, address_line1,
address_line2, city, state_province, country, postal_code, on_hold) VALUES
(1001, 'Signature Design', 'Dale J.', 'Little', '(619) 530-2710',
'15500 Pacific Heights Blvd.', null, 'San Diego', 'CA', 'USA', '92121', null);
INSERT INTO sales
(po_number, cust_no, sales_rep, order_date, ship_date, date_needed,
order_status, paid, qty_ordered, total_value, discount, item_type) VALUES
('V91E0210', 1001, 2,  '03/04/91', '03/05/91', null,
'shipped',      'y',    10,     5000,   0.1,    'hardware');
UPDATE project
SET proj_desc = 'never; reached'
WHERE proj_id = 'NONE';
"""


def _deb(tmp_path: Path, script: str = SCRIPT) -> Path:
    """A stand-in firebird3.0-examples .deb: an ar archive whose data.tar.xz holds employee.sql.gz."""
    blob = gzip.compress(script.encode("latin-1"))
    tbuf = io.BytesIO()
    with tarfile.open(fileobj=tbuf, mode="w:xz") as tar:
        info = tarfile.TarInfo("./usr/share/doc/firebird3.0-common-doc/examples/employee.sql.gz")
        info.size = len(blob)
        tar.addfile(info, io.BytesIO(blob))
    members = [("debian-binary", b"2.0\n"), ("control.tar.xz", b"x"), ("data.tar.xz", tbuf.getvalue())]
    out = io.BytesIO()
    out.write(b"!<arch>\n")
    for name, data in members:
        out.write(f"{name:<16}{0:<12}{0:<6}{0:<6}{100644:<8}{len(data):<10}`\n".encode())
        out.write(data + (b"\n" if len(data) % 2 else b""))
    path = tmp_path / "firebird3.0-examples_test_all.deb"
    path.write_bytes(out.getvalue())
    return path


def test_build_runs_the_scripts_rows_with_dates_trigger_and_keys(tmp_path):
    build = _load("build")
    db = tmp_path / "e.db"
    build.build(_deb(tmp_path), db)
    con = sqlite3.connect(db)
    # dates rewritten, O''Brien unquoted, the computed name filled
    assert con.execute("SELECT emp_no, hire_date, full_name, salary FROM employee ORDER BY emp_no").fetchall() == [
        (2, "1988-12-28", "Nelson, Robert", 105900.0),
        (65, "1992-03-23", "O'Brien, Sue Anne", 99000.0),
    ]
    # the salary update made a history row (only for the one hired before 1991-08-01), dated by the next UPDATE
    assert con.execute(
        "SELECT emp_no, change_date, updater_id, old_salary, new_salary FROM salary_history"
    ).fetchall() == [(2, "1992-12-15", "admin2", 98000.0, 105900.0)]
    assert con.execute("SELECT mngr_no FROM department WHERE dept_no = '600'").fetchone() == (2,)
    assert con.execute("SELECT aged FROM sales").fetchone() == (1.0,)
    emp_fks = {(r[2], r[3], r[4]) for r in con.execute("PRAGMA foreign_key_list(employee)")}
    assert ("job", "job_grade", "job_grade") in emp_fks and ("department", "dept_no", "dept_no") in emp_fks
    assert not con.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall()


def test_build_refuses_procedural_code_among_the_rows(tmp_path):
    build = _load("build")
    db = tmp_path / "e.db"
    moved = SCRIPT.replace("COMMIT;\nUPDATE department", "SET TERM !! ;\nCOMMIT;\nUPDATE department")
    with pytest.raises(SystemExit, match="procedural code"):
        build.build(_deb(tmp_path, moved), db)
    assert not db.exists() and not db.with_suffix(".tmp").exists()


def test_a_key_counts_as_the_answer_only_when_the_reader_sees_it():
    count = _load("count")
    dept = {
        "sql": 'SELECT "employee"."dept_no" FROM "employee" WHERE first_name = \'Ann\'',
        "table": "employee",
        "answer_columns": ["dept_no"],
    }
    assert count.shown_classes(dept) == {"code"}
    rep = {
        "sql": "SELECT e.emp_no, e.full_name FROM sales AS s JOIN employee AS e ON s.sales_rep = e.emp_no",
        "table": "sales",
        "answer_columns": ["full_name"],
    }
    assert count.shown_classes(rep) == set()  # the number is selected but the name is the answer
    po = {"sql": "SELECT po_number FROM sales", "table": "sales", "answer_columns": ["po_number"]}
    assert count.shown_classes(po) == {"natural"}
    assert count.KEY_WORDS["mngr no"].search("Who is the MNGR of the department '125'?")
    assert not count.KEY_WORDS["emp no"].search("Who is the sales rep of the sale 'V91E0210'?")


def test_draw_is_seeded_per_style_and_takes_a_small_style_whole(tmp_path):
    sample = _load("sample")
    recs = tmp_path / "records.jsonl"
    rows = [{"id": f"r{i}", "style": "long", "query": f"q{i}", "answer_text": "a"} for i in range(30)]
    rows += [{"id": f"s{i}", "style": "short", "query": f"q{i}", "answer_text": "a"} for i in range(3)]
    recs.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    a = sample.draw(recs, 5, 22)
    assert a == sample.draw(recs, 5, 22)
    assert Counter(r["style"] for r in a) == {"long": 5, "short": 3}
    assert a != sample.draw(recs, 5, 23)


SAMPLE = HERE / "sample.jsonl"
RESULT = ROOT / "benchmarks" / "results" / "question_fluency_blind_firebird_employee.md"


def test_committed_sample_is_judged_whole_and_the_result_quotes_it():
    tally = _load("tally")
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    per_style = Counter(r["style"] for r in rows)
    assert set(per_style.values()) == {100}, per_style
    assert all(r["label"] in tally.LABELS for r in rows)
    assert all(r["note"] for r in rows if r["label"] != "fluent"), "every non-fluent label says why"
    assert tally.table(tally.tally(SAMPLE)) in RESULT.read_text(encoding="utf-8")
