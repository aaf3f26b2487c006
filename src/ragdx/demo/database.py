"""The embedded demo database: Collège Méridane, a small fictional university.

Every name, figure and date here is invented for ragdx. The data is deliberately a
little hostile: apostrophes, double quotes, a percent sign, accents, Polish,
Vietnamese and Japanese text, NULLs in ordinary columns, surrogate integer keys
next to human-readable unique names, and an association table, because those are
what break naive SQL templating and document rendering on real closed-domain data.
"""

from __future__ import annotations

import os
import pathlib
import sqlite3
import tempfile

__all__ = ["DEMO_TABLES", "build_demo_database", "demo_description"]

#: Tables in dependency order: each table only references tables listed before it.
#: There is no Faculty.Dean -> Staff column on purpose: with Staff.Faculty -> Faculty
#: it would make a cycle, and then no insertion or rendering order would exist.
#: Deans are the staff members whose Title is 'Dean'.
DEMO_TABLES: list[str] = [
    "Faculty",
    "Staff",
    "Programme",
    "Course",
    "ProgrammeCourse",
    "Teaching",
]

_DDL = """
CREATE TABLE Faculty (
    Name TEXT NOT NULL PRIMARY KEY,
    Building TEXT NOT NULL UNIQUE,
    Campus TEXT NOT NULL,
    FoundedYear INTEGER NOT NULL,
    ResearchBudget REAL,
    Website TEXT
);

CREATE TABLE Staff (
    id INTEGER NOT NULL PRIMARY KEY,
    Name TEXT NOT NULL UNIQUE,
    Title TEXT NOT NULL,
    Office TEXT,
    Email TEXT UNIQUE,
    hire_date DATE NOT NULL,
    Faculty TEXT NOT NULL REFERENCES Faculty (Name)
);

CREATE TABLE Programme (
    id INTEGER NOT NULL PRIMARY KEY,
    Name TEXT NOT NULL UNIQUE,
    Level TEXT NOT NULL CHECK (Level IN ('Bachelor', 'Master', 'PhD')),
    DurationYears INTEGER NOT NULL,
    Language TEXT NOT NULL,
    ECTS INTEGER NOT NULL,
    TuitionFee REAL,
    FirstIntake DATE NOT NULL,
    Faculty TEXT NOT NULL REFERENCES Faculty (Name),
    Coordinator INTEGER NOT NULL REFERENCES Staff (id)
);

CREATE TABLE Course (
    Code TEXT NOT NULL PRIMARY KEY,
    Title TEXT NOT NULL UNIQUE,
    Credits INTEGER NOT NULL,
    Semester TEXT NOT NULL CHECK (Semester IN ('Autumn', 'Spring')),
    max_enrolment INTEGER,
    Faculty TEXT NOT NULL REFERENCES Faculty (Name)
);

CREATE TABLE ProgrammeCourse (
    Programme INTEGER NOT NULL REFERENCES Programme (id),
    Course TEXT NOT NULL REFERENCES Course (Code),
    SemesterNo INTEGER NOT NULL,
    IsCompulsory INTEGER NOT NULL CHECK (IsCompulsory IN (0, 1)),
    PRIMARY KEY (Programme, Course)
);

CREATE TABLE Teaching (
    Staff INTEGER NOT NULL REFERENCES Staff (id),
    Course TEXT NOT NULL REFERENCES Course (Code),
    Role TEXT NOT NULL,
    PRIMARY KEY (Staff, Course)
);
"""

_NAT = "Faculty of Natural Sciences"
_HUM = "Faculty of Humanities"
_ECO = "Faculty of Economics and Management"
_ENG = "Faculty of Engineering"
_LAN = "Faculty of Languages and Cultures"

_COLUMNS: dict[str, tuple[str, ...]] = {
    "Faculty": ("Name", "Building", "Campus", "FoundedYear", "ResearchBudget", "Website"),
    "Staff": ("id", "Name", "Title", "Office", "Email", "hire_date", "Faculty"),
    "Programme": (
        "id", "Name", "Level", "DurationYears", "Language", "ECTS", "TuitionFee",
        "FirstIntake", "Faculty", "Coordinator",
    ),
    "Course": ("Code", "Title", "Credits", "Semester", "max_enrolment", "Faculty"),
    "ProgrammeCourse": ("Programme", "Course", "SemesterNo", "IsCompulsory"),
    "Teaching": ("Staff", "Course", "Role"),
}

_ROWS: dict[str, tuple[tuple[object, ...], ...]] = {
    "Faculty": (
        (_NAT, "Ångström Hall", "Lakeside", 1961, 2450000.0, "https://sciences.meridane.example"),
        (_HUM, "Clerval House", "Old Town", 1894, 610500.5, "https://humanities.meridane.example"),
        (_ECO, "Tessier Building", "Old Town", 1972, 1185250.0, "https://econ.meridane.example"),
        (_ENG, "Forge Hall", "Lakeside", 2003, 3120000.0, "https://engineering.meridane.example"),
        (_LAN, "Wisteria Court", "Old Town", 1921, None, None),
    ),
    "Staff": (
        (1, "Zoë Marchetti", "Dean", "Ångström Hall 5.01", "zoe.marchetti@meridane.example",
         "2003-08-18", _NAT),
        (2, "Mette Sørensen", "Associate Professor", "Ångström Hall 3.12",
         "mette.sorensen@meridane.example", "2011-01-10", _NAT),
        (3, "Anders Lindqvist", "Lecturer", None, "anders.lindqvist@meridane.example",
         "2019-09-01", _NAT),
        (4, "Priya Raghunathan", "Professor", "Ångström Hall 4.07",
         "priya.raghunathan@meridane.example", "2008-02-04", _NAT),
        (5, "Siobhán O'Connell", "Dean", "Clerval House 2.03",
         "siobhan.oconnell@meridane.example", "1999-09-01", _HUM),
        (6, "Matthias Brenner", "Lecturer", "Clerval House 1.10",
         "matthias.brenner@meridane.example", "2016-09-01", _HUM),
        (7, "Hélène Dufresne-Achebe", "Associate Professor", "Clerval House 2.11",
         "helene.dufresne@meridane.example", "2010-09-01", _HUM),
        (8, "José Núñez", "Dean", "Tessier Building 7.02", "jose.nunez@meridane.example",
         "2001-01-08", _ECO),
        (9, "Olumide Adeyemi", "Associate Professor", "Tessier Building 4.15",
         "olumide.adeyemi@meridane.example", "2013-09-02", _ECO),
        (10, "Claire Whitfield", "Lecturer", None, "claire.whitfield@meridane.example",
         "2021-01-11", _ECO),
        (11, "Tomasz Wiśniewski", "Senior Lecturer", "Tessier Building 5.08",
         "tomasz.wisniewski@meridane.example", "2009-09-01", _ECO),
        (12, "Ruth Abernathy", "Dean", "Forge Hall 4.01", "ruth.abernathy@meridane.example",
         "2005-09-05", _ENG),
        (13, "Kenji Morimoto", "Associate Professor", "Forge Hall 2.20",
         "kenji.morimoto@meridane.example", "2012-04-02", _ENG),
        (14, "Dmitri Valchev", "Lecturer", "Forge Hall 1.04", "dmitri.valchev@meridane.example",
         "2018-09-03", _ENG),
        (15, "Astrid Nyberg", "Senior Lecturer", "Forge Hall 3.09",
         "astrid.nyberg@meridane.example", "2014-02-17", _ENG),
        (16, "Nguyễn Thị Lan", "Dean", "Wisteria Court 2.01", "lan.nguyen@meridane.example",
         "2006-09-04", _LAN),
        (17, "Yuki Takahashi-Reyes", "Senior Lecturer", "Wisteria Court 1.06",
         "yuki.takahashi@meridane.example", "2015-09-01", _LAN),
        (18, "Bartholomew D'Arcy", "Lecturer", None, "bartholomew.darcy@meridane.example",
         "2022-09-01", _LAN),
        (19, "Ewa Kowalczyk", "Associate Professor", "Wisteria Court 1.12",
         "ewa.kowalczyk@meridane.example", "2011-09-05", _LAN),
        # Emeritus staff keep teaching a little but lose their office and mailbox.
        (20, "Gaspard Lemieux", "Professor Emeritus", None, None, "1984-09-03", _HUM),
    ),
    "Programme": (
        (1, "Bachelor in Environmental Physics", "Bachelor", 3, "English", 180, 1234.5,
         "1998-09-01", _NAT, 2),
        (2, "Master in Computational Biology", "Master", 2, "English", 120, 2890.0,
         "2012-09-03", _NAT, 4),
        # Doctoral places are salaried, hence no tuition fee.
        (3, "PhD in Lake and Climate Sciences", "PhD", 4, "English", 240, None,
         "2015-10-01", _NAT, 1),
        (4, "Bachelor in History and Philosophy", "Bachelor", 3, "French", 180, 1234.5,
         "1962-09-15", _HUM, 6),
        (5, "Master in Comparative Literature", "Master", 2, "French", 120, 1980.0,
         "1991-09-02", _HUM, 7),
        (6, "Bachelor in Economics", "Bachelor", 3, "French", 180, 1234.5,
         "1975-09-01", _ECO, 9),
        (7, "Master in Sustainable Finance", "Master", 2, "English", 90, 4150.75,
         "2019-09-02", _ECO, 11),
        (8, "Bachelor in Mechanical Engineering", "Bachelor", 3, "English", 180, 1450.0,
         "2004-09-06", _ENG, 15),
        (9, "Master in Robotics and Embedded Systems", "Master", 2, "English", 120, 3200.0,
         "2016-09-05", _ENG, 13),
        (10, "Bachelor in Applied Languages (English–Japanese)", "Bachelor", 3,
         "English/Japanese", 180, 1234.5, "2009-09-07", _LAN, 17),
        (11, "Master in Translation and Interpreting", "Master", 2, "French/English", 120,
         2400.0, "1994-09-05", _LAN, 19),
        (12, "PhD in Humanities", "PhD", 3, "French", 180, None, "1988-10-03", _HUM, 5),
    ),
    "Course": (
        ("NSC-101", "Mechanics and Waves", 6, "Autumn", 180, _NAT),
        ("NSC-102", "Thermodynamics of Lakes", 6, "Spring", 120, _NAT),
        ("NSC-201", "Optics and Spectroscopy", 6, "Spring", 90, _NAT),
        ("NSC-210", "Statistical Methods for Scientists", 5, "Autumn", 150, _NAT),
        ("NSC-310", "Genomics and Sequence Analysis", 6, "Autumn", 60, _NAT),
        ("NSC-410", "Climate Modelling Seminar", 4, "Spring", None, _NAT),
        ("HUM-101", "Ancient Philosophy", 6, "Autumn", 200, _HUM),
        ("HUM-150", 'The "Long" Nineteenth Century', 6, "Spring", 120, _HUM),
        ("HUM-220", "Children's Literature", 5, "Autumn", 60, _HUM),
        ("HUM-230", "Ethics of Technology", 5, "Spring", 80, _HUM),
        ("HUM-310", "Research Methods in the Humanities", 4, "Autumn", None, _HUM),
        ("ECO-101", "Principles of Microeconomics", 6, "Autumn", 250, _ECO),
        ("ECO-140", "Risk, Odds and the 5% Threshold", 5, "Spring", 90, _ECO),
        ("ECO-210", "Corporate Finance", 6, "Spring", 120, _ECO),
        ("ECO-320", "Green Bonds and Impact Investing", 5, "Autumn", 40, _ECO),
        ("ENG-101", "Engineering Drawing and CAD", 5, "Autumn", 100, _ENG),
        ("ENG-120", "Materials Science", 6, "Spring", 100, _ENG),
        ("ENG-230", "Control Systems", 6, "Autumn", 70, _ENG),
        ("ENG-340", "Embedded Programming in C", 6, "Spring", 45, _ENG),
        ("ENG-410", "Autonomous Mobile Robots", 6, "Autumn", 30, _ENG),
        ("LAN-101", "日本語 I: Introductory Japanese", 6, "Autumn", 35, _LAN),
        ("LAN-102", "日本語 II: Everyday Japanese", 6, "Spring", 35, _LAN),
        ("LAN-210", "Textile Cities: Łódź and Manchester", 4, "Spring", 40, _LAN),
        ("LAN-220", "Principles of Translation", 5, "Autumn", 60, _LAN),
        ("LAN-330", "Conference Interpreting Lab", 6, "Spring", 16, _LAN),
    ),
    # SemesterNo counts from the start of the programme; autumn courses sit in odd
    # semesters and spring courses in even ones, so the calendar stays consistent.
    "ProgrammeCourse": (
        (1, "NSC-101", 1, 1), (1, "NSC-102", 2, 1), (1, "NSC-210", 3, 1),
        (1, "NSC-201", 4, 1), (1, "NSC-410", 6, 0),
        (2, "NSC-210", 1, 1), (2, "NSC-310", 1, 1), (2, "ENG-340", 2, 0),
        (3, "NSC-310", 1, 0), (3, "NSC-410", 2, 1),
        (4, "HUM-101", 1, 1), (4, "HUM-150", 2, 1), (4, "HUM-220", 3, 0),
        (4, "HUM-230", 4, 1),
        (5, "HUM-220", 1, 1), (5, "HUM-150", 2, 0), (5, "HUM-310", 3, 1),
        (6, "ECO-101", 1, 1), (6, "ECO-140", 2, 1), (6, "NSC-210", 3, 0),
        (6, "ECO-210", 4, 1),
        (7, "ECO-320", 1, 1), (7, "ECO-210", 2, 1),
        (8, "NSC-101", 1, 1), (8, "ENG-101", 1, 1), (8, "ENG-120", 2, 1),
        (8, "ENG-230", 3, 1), (8, "ENG-340", 4, 0),
        (9, "ENG-230", 1, 1), (9, "ENG-340", 2, 1), (9, "ENG-410", 3, 1),
        (10, "LAN-101", 1, 1), (10, "LAN-102", 2, 1), (10, "LAN-220", 3, 1),
        (10, "LAN-210", 4, 0),
        (11, "LAN-220", 1, 1), (11, "LAN-330", 2, 1), (11, "HUM-220", 3, 0),
        (12, "HUM-310", 1, 1), (12, "HUM-150", 2, 0),
    ),
    # One 'Lecturer in charge' per course; the extra roles are what make
    # "who else teaches X" questions have more than one answer.
    "Teaching": (
        (3, "NSC-101", "Lecturer in charge"),
        (2, "NSC-102", "Lecturer in charge"),
        (2, "NSC-201", "Lecturer in charge"),
        (4, "NSC-210", "Lecturer in charge"),
        (3, "NSC-210", "Teaching assistant"),
        (4, "NSC-310", "Lecturer in charge"),
        (1, "NSC-410", "Lecturer in charge"),
        (6, "HUM-101", "Lecturer in charge"),
        (20, "HUM-101", "Guest lecturer"),
        (20, "HUM-150", "Lecturer in charge"),
        (7, "HUM-220", "Lecturer in charge"),
        (6, "HUM-230", "Lecturer in charge"),
        (14, "HUM-230", "Guest lecturer"),
        (5, "HUM-310", "Lecturer in charge"),
        (10, "ECO-101", "Lecturer in charge"),
        (9, "ECO-140", "Lecturer in charge"),
        (11, "ECO-210", "Lecturer in charge"),
        (8, "ECO-320", "Lecturer in charge"),
        (11, "ECO-320", "Co-lecturer"),
        (14, "ENG-101", "Lecturer in charge"),
        (15, "ENG-120", "Lecturer in charge"),
        (13, "ENG-230", "Lecturer in charge"),
        (14, "ENG-340", "Lecturer in charge"),
        (12, "ENG-410", "Lecturer in charge"),
        (13, "ENG-410", "Co-lecturer"),
        (17, "LAN-101", "Lecturer in charge"),
        (17, "LAN-102", "Lecturer in charge"),
        (19, "LAN-210", "Lecturer in charge"),
        (18, "LAN-220", "Lecturer in charge"),
        (16, "LAN-330", "Lecturer in charge"),
        (19, "LAN-330", "Co-lecturer"),
    ),
}


def demo_description() -> str:
    """One paragraph describing the demo domain, for prompts and documentation."""
    return (
        "Collège Méridane is a small fictional lakeside university with five faculties "
        "(Natural Sciences, Humanities, Economics and Management, Engineering, and "
        "Languages and Cultures), each housed in its own building. The database lists "
        "its academic staff with their titles, offices, e-mail addresses and hiring "
        "dates; its Bachelor, Master and PhD study programmes with their language of "
        "instruction, duration, ECTS credits, yearly tuition fee, first intake and "
        "coordinator; the courses on offer with their codes, credits, teaching semester "
        "and enrolment caps; which courses belong to which programme, in which semester "
        "and whether they are compulsory; and which staff members teach which courses "
        "and in what role."
    )


def _populate(conn: sqlite3.Connection) -> None:
    conn.executescript(_DDL)
    for table in DEMO_TABLES:
        columns = _COLUMNS[table]
        column_list = ", ".join(columns)
        placeholders = ", ".join("?" for _ in columns)
        conn.executemany(
            f"INSERT INTO {table} ({column_list}) VALUES ({placeholders})", _ROWS[table]
        )


def build_demo_database(path: str | os.PathLike[str], *, overwrite: bool = False) -> pathlib.Path:
    """Write the demo SQLite database to ``path`` and return the path.

    The database is built in a temporary file next to the target and moved into place
    with ``os.replace``, so an interrupted build never leaves a half-written database
    under the final name. Raises ``FileExistsError`` if ``path`` exists and
    ``overwrite`` is false.
    """
    target = pathlib.Path(path)
    if target.exists() and not overwrite:
        raise FileExistsError(f"{target}: already exists; pass overwrite=True to replace it")
    target.parent.mkdir(parents=True, exist_ok=True)

    # Same directory as the target so that os.replace is a rename, never a copy.
    fd, tmp_name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    os.close(fd)
    tmp = pathlib.Path(tmp_name)
    try:
        conn = sqlite3.connect(tmp)
        try:
            # Enforced while inserting, so a broken reference in _ROWS fails the build
            # instead of shipping a database whose foreign keys do not hold.
            conn.execute("PRAGMA foreign_keys = ON")
            with conn:
                _populate(conn)
            problems = conn.execute("PRAGMA foreign_key_check").fetchall()
            if problems:
                raise RuntimeError(f"demo data violates foreign keys: {problems}")
        finally:
            conn.close()
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return target
