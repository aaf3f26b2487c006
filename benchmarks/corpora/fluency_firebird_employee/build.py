"""Rebuild firebird_employee.db (SQLite) from Firebird's EMPLOYEE sample database, as Debian ships it.

    apt-get download firebird3.0-examples      # firebird3.0-examples_3.0.11.33637.ds4-2+deb12u1_all.deb
    python build.py firebird3.0-examples_3.0.11.33637.ds4-2+deb12u1_all.deb firebird_employee.db

Standard library only. The .deb's examples/employee.sql.gz is Firebird's own script that creates
and fills the sample ("employees, departments, projects, and sales for a small company"; InterBase
Public License 1.0). Its tables, keys and foreign keys are written here in SQLite's dialect, as
the script declares them; its rows are the script's own INSERT and UPDATE statements, run in order
after two mechanical rewrites (dates 'MM/DD/YY' -> 'YYYY-MM-DD', all of them 19xx), with the one
trigger that makes data (save_salary_change: a salary update writes a salary_history row) rebuilt
as a SQLite trigger. Not carried: the view, procedures, exceptions, generators, CHECKs, and the two
array columns (job.language_req, proj_dept_budget.quart_head_cnt) the script never fills.
The three COMPUTED BY columns are stored, filled with the script's expressions once loaded.
"""

from __future__ import annotations

import gzip
import io
import re
import sqlite3
import sys
import tarfile
from pathlib import Path

MEMBER = "usr/share/doc/firebird3.0-common-doc/examples/employee.sql.gz"

# the script's CREATE TABLEs in SQLite's dialect; domains become their base types
# (CHAR/VARCHAR -> TEXT, SMALLINT/INTEGER -> INTEGER, NUMERIC/DECIMAL/DOUBLE -> REAL, TIMESTAMP -> DATE:
# every timestamp in the data is a date at midnight); keys and foreign keys as declared
DDL = """
CREATE TABLE country (
    country TEXT NOT NULL PRIMARY KEY,
    currency TEXT NOT NULL
);
CREATE TABLE job (
    job_code TEXT NOT NULL,
    job_grade INTEGER NOT NULL,
    job_country TEXT NOT NULL,
    job_title TEXT NOT NULL,
    min_salary REAL NOT NULL,
    max_salary REAL NOT NULL,
    job_requirement TEXT,
    PRIMARY KEY (job_code, job_grade, job_country),
    FOREIGN KEY (job_country) REFERENCES country (country)
);
CREATE TABLE department (
    dept_no TEXT NOT NULL,
    department TEXT NOT NULL UNIQUE,
    head_dept TEXT,
    mngr_no INTEGER,
    budget REAL DEFAULT 50000,
    location TEXT,
    phone_no TEXT DEFAULT '555-1234',
    PRIMARY KEY (dept_no),
    FOREIGN KEY (head_dept) REFERENCES department (dept_no),
    FOREIGN KEY (mngr_no) REFERENCES employee (emp_no)
);
CREATE TABLE employee (
    emp_no INTEGER NOT NULL,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    phone_ext TEXT,
    hire_date DATE NOT NULL,
    dept_no TEXT NOT NULL,
    job_code TEXT NOT NULL,
    job_grade INTEGER NOT NULL,
    job_country TEXT NOT NULL,
    salary REAL NOT NULL DEFAULT 0,
    full_name TEXT,
    PRIMARY KEY (emp_no),
    FOREIGN KEY (dept_no) REFERENCES department (dept_no),
    FOREIGN KEY (job_code, job_grade, job_country) REFERENCES job (job_code, job_grade, job_country)
);
CREATE TABLE project (
    proj_id TEXT NOT NULL,
    proj_name TEXT NOT NULL UNIQUE,
    proj_desc TEXT,
    team_leader INTEGER,
    product TEXT NOT NULL DEFAULT 'software',
    PRIMARY KEY (proj_id),
    FOREIGN KEY (team_leader) REFERENCES employee (emp_no)
);
CREATE TABLE employee_project (
    emp_no INTEGER NOT NULL,
    proj_id TEXT NOT NULL,
    PRIMARY KEY (emp_no, proj_id),
    FOREIGN KEY (emp_no) REFERENCES employee (emp_no),
    FOREIGN KEY (proj_id) REFERENCES project (proj_id)
);
CREATE TABLE proj_dept_budget (
    fiscal_year INTEGER NOT NULL,
    proj_id TEXT NOT NULL,
    dept_no TEXT NOT NULL,
    projected_budget REAL DEFAULT 50000,
    PRIMARY KEY (fiscal_year, proj_id, dept_no),
    FOREIGN KEY (dept_no) REFERENCES department (dept_no),
    FOREIGN KEY (proj_id) REFERENCES project (proj_id)
);
CREATE TABLE salary_history (
    emp_no INTEGER NOT NULL,
    change_date DATE NOT NULL,
    updater_id TEXT NOT NULL,
    old_salary REAL NOT NULL,
    percent_change REAL NOT NULL DEFAULT 0,
    new_salary REAL,
    PRIMARY KEY (emp_no, change_date, updater_id),
    FOREIGN KEY (emp_no) REFERENCES employee (emp_no)
);
CREATE TABLE customer (
    cust_no INTEGER NOT NULL,
    customer TEXT NOT NULL,
    contact_first TEXT,
    contact_last TEXT,
    phone_no TEXT,
    address_line1 TEXT,
    address_line2 TEXT,
    city TEXT,
    state_province TEXT,
    country TEXT,
    postal_code TEXT,
    on_hold TEXT DEFAULT NULL,
    PRIMARY KEY (cust_no),
    FOREIGN KEY (country) REFERENCES country (country)
);
CREATE TABLE sales (
    po_number TEXT NOT NULL,
    cust_no INTEGER NOT NULL,
    sales_rep INTEGER,
    order_status TEXT NOT NULL DEFAULT 'new',
    order_date DATE NOT NULL,
    ship_date DATE,
    date_needed DATE,
    paid TEXT DEFAULT 'n',
    qty_ordered INTEGER NOT NULL DEFAULT 1,
    total_value REAL NOT NULL,
    discount REAL NOT NULL DEFAULT 0,
    item_type TEXT NOT NULL DEFAULT 'software',
    aged REAL,
    PRIMARY KEY (po_number),
    FOREIGN KEY (cust_no) REFERENCES customer (cust_no),
    FOREIGN KEY (sales_rep) REFERENCES employee (emp_no)
);
"""

# Firebird's save_salary_change (AFTER UPDATE of employee: old salary and percent change go to
# salary_history, updater = the connected user, date = 'NOW'; the script overwrites both right after).
# salary is NUMERIC(10,2) in the source, so the new value is kept to 2 decimals as Firebird stores it.
TRIGGER = """
CREATE TEMP TRIGGER save_salary_change AFTER UPDATE OF salary ON employee
WHEN old.salary <> new.salary
BEGIN
    INSERT INTO salary_history (emp_no, change_date, updater_id, old_salary, percent_change)
    VALUES (old.emp_no, 'NOW', 'SYSDBA', old.salary,
            (round(new.salary, 2) - old.salary) * 100 / old.salary);
    UPDATE employee SET salary = round(new.salary, 2) WHERE emp_no = new.emp_no;
END;
"""

COMPUTED = [  # the script's COMPUTED BY columns, filled once the rows are in
    "UPDATE employee SET full_name = last_name || ', ' || first_name",
    "UPDATE salary_history SET new_salary = old_salary + old_salary * percent_change / 100",
    "UPDATE sales SET aged = julianday(ship_date) - julianday(order_date)",
]

DATE = re.compile(r"'(\d\d)/(\d\d)/(\d\d)'")
TABLES = (
    "country",
    "job",
    "department",
    "employee",
    "project",
    "employee_project",
    "proj_dept_budget",
    "salary_history",
    "customer",
    "sales",
)


def read_script(deb: Path) -> str:
    """employee.sql from the .deb (an ar archive holding data.tar.xz)."""
    blob = deb.read_bytes()
    if not blob.startswith(b"!<arch>\n"):
        sys.exit(f"{deb}: not a .deb (ar archive)")
    pos = 8
    while pos < len(blob):
        name = blob[pos : pos + 16].decode().strip().rstrip("/")
        size = int(blob[pos + 48 : pos + 58].decode().strip())
        body = blob[pos + 60 : pos + 60 + size]
        if name.startswith("data.tar"):
            with tarfile.open(fileobj=io.BytesIO(body)) as tar:
                for member in tar.getmembers():
                    if member.name.lstrip("./") == MEMBER:
                        return gzip.decompress(tar.extractfile(member).read()).decode("latin-1")
            sys.exit(f"{deb}: no {MEMBER}")
        pos += 60 + size + (size % 2)
    sys.exit(f"{deb}: no data.tar member")


def _statements(text: str) -> list[str]:
    """The script's statements after its last CREATE, split on ';' outside quotes, comments dropped."""
    start = text.index("INSERT INTO country")
    if "SET TERM" in text[start:]:
        sys.exit("employee.sql: procedural code after the first row; this script's layout changed")
    body, out, buf, quoted, i = text[start:], [], [], False, 0
    while i < len(body):
        ch = body[i]
        if not quoted and body.startswith("/*", i):
            i = body.index("*/", i) + 2
            continue
        if ch == "'":
            quoted = not quoted  # '' inside a string toggles twice: still right
        if ch == ";" and not quoted:
            out.append("".join(buf).strip())
            buf = []
        else:
            buf.append(ch)
        i += 1
    return [s for s in out if s]


def build(deb: Path, db: Path) -> None:
    text = read_script(deb)
    tmp = db.with_suffix(".tmp")
    tmp.unlink(missing_ok=True)
    con = sqlite3.connect(tmp)
    try:
        con.executescript(DDL + TRIGGER)
        ran = 0
        for stmt in _statements(text):
            head = stmt.split(None, 1)[0].upper()
            if head not in ("INSERT", "UPDATE"):
                continue  # COMMIT, SET GENERATOR, ALTER INDEX/TRIGGER: no rows
            stmt = DATE.sub(lambda m: f"'19{m[3]}-{m[1]}-{m[2]}'", stmt)
            con.execute(stmt)
            ran += 1
        for stmt in COMPUTED:
            con.execute(stmt)
        con.execute("DROP TRIGGER save_salary_change")
        con.commit()
        bad = con.execute("PRAGMA foreign_key_check").fetchall()
        if bad:
            sys.exit(f"foreign keys not satisfied: {bad[:5]}")
        counts = {t: con.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in TABLES}
        con.execute("VACUUM")
    except BaseException:
        con.close()
        tmp.unlink(missing_ok=True)
        raise
    con.close()
    tmp.replace(db)
    print(f"{ran} statements; rows: " + ", ".join(f"{t} {n}" for t, n in counts.items()))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: build.py FIREBIRD_EXAMPLES_DEB OUT_DB")
    build(Path(sys.argv[1]), Path(sys.argv[2]))
