"""The embedded demo database and the hand-written demo questions."""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from ragdx.demo import database
from ragdx.demo.database import DEMO_TABLES, build_demo_database, demo_description
from ragdx.demo.offtopic import INKNOWLEDGE_EXAMPLES, OFFTOPIC_QUESTIONS

# Columns whose values name an entity; questions and templates refer to entities by these.
NAME_COLUMNS = [
    ("Faculty", "Name"),
    ("Faculty", "Building"),
    ("Staff", "Name"),
    ("Staff", "Email"),
    ("Programme", "Name"),
    ("Course", "Code"),
    ("Course", "Title"),
]

EXPECTED_FKS = {
    ("Staff", "Faculty", "Faculty", "Name"),
    ("Programme", "Faculty", "Faculty", "Name"),
    ("Programme", "Coordinator", "Staff", "id"),
    ("Course", "Faculty", "Faculty", "Name"),
    ("ProgrammeCourse", "Programme", "Programme", "id"),
    ("ProgrammeCourse", "Course", "Course", "Code"),
    ("Teaching", "Staff", "Staff", "id"),
    ("Teaching", "Course", "Course", "Code"),
}


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return build_demo_database(tmp_path / "demo.db")


@pytest.fixture
def conn(db_path: Path) -> Iterator[sqlite3.Connection]:
    c = sqlite3.connect(db_path)
    yield c
    c.close()


def _entity_names(conn: sqlite3.Connection) -> list[str]:
    names: list[str] = []
    for table, column in NAME_COLUMNS:
        names += [v for (v,) in conn.execute(f"SELECT {column} FROM {table}") if v is not None]
    return names


def test_build_returns_the_path_and_leaves_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "demo.db"
    result = build_demo_database(str(target))
    assert result == target
    assert target.is_file()
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["demo.db", "sub"]


def test_tables_are_the_declared_ones_in_dependency_order(conn: sqlite3.Connection) -> None:
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == set(DEMO_TABLES)
    assert len(DEMO_TABLES) >= 4
    for i, table in enumerate(DEMO_TABLES):
        targets = {r[2] for r in conn.execute(f"PRAGMA foreign_key_list({table})")}
        assert targets <= set(DEMO_TABLES[:i]), f"{table} references a later table"


def test_row_counts(conn: sqlite3.Connection) -> None:
    counts = {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in DEMO_TABLES}
    assert all(n > 0 for n in counts.values()), counts
    assert sum(counts.values()) >= 50, counts


def test_foreign_keys_are_declared_and_hold(conn: sqlite3.Connection) -> None:
    declared = set()
    for table in DEMO_TABLES:
        for row in conn.execute(f"PRAGMA foreign_key_list({table})"):
            _id, _seq, target, source_col, target_col = row[:5]
            declared.add((table, source_col, target, target_col))
    assert declared == EXPECTED_FKS
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []


def test_foreign_keys_are_enforced_when_switched_on(db_path: Path) -> None:
    c = sqlite3.connect(db_path)
    try:
        c.execute("PRAGMA foreign_keys = ON")
        with pytest.raises(sqlite3.IntegrityError):
            c.execute("INSERT INTO Teaching (Staff, Course, Role) VALUES (999, 'NSC-101', 'x')")
    finally:
        c.close()


def test_key_shapes(conn: sqlite3.Connection) -> None:
    def info(table: str) -> dict[str, tuple[str, int]]:
        return {r[1]: (r[2].upper(), r[5]) for r in conn.execute(f"PRAGMA table_info({table})")}

    # Surrogate integer keys next to a unique human-readable name.
    for table in ("Staff", "Programme"):
        cols = info(table)
        assert cols["id"] == ("INTEGER", 1)
        assert cols["Name"][1] == 0
    # Natural keys: the readable value is the key itself.
    assert info("Faculty")["Name"][1] == 1
    assert info("Course")["Code"][1] == 1
    # The association tables carry their own attribute besides the composite key.
    pc = info("ProgrammeCourse")
    assert {c for c, (_, pk) in pc.items() if pk} == {"Programme", "Course"}
    assert {"SemesterNo", "IsCompulsory"} <= set(pc)
    assert "Role" in info("Teaching")


@pytest.mark.parametrize(("table", "column"), NAME_COLUMNS)
def test_name_like_columns_are_unique_and_constrained(
    conn: sqlite3.Connection, table: str, column: str
) -> None:
    total, distinct = conn.execute(
        f"SELECT COUNT({column}), COUNT(DISTINCT {column}) FROM {table}"
    ).fetchone()
    assert total > 0
    assert total == distinct
    # The constraint, not just today's data, must guarantee it.
    unique_cols = set()
    for _seq, index, unique, *_ in conn.execute(f"PRAGMA index_list({table})"):
        cols = [r[2] for r in conn.execute(f"PRAGMA index_info({index})")]
        if unique and len(cols) == 1:
            unique_cols.add(cols[0])
    pk = [r[1] for r in conn.execute(f"PRAGMA table_info({table})") if r[5]]
    assert column in unique_cols or pk == [column]


@pytest.mark.parametrize(
    ("sql", "value"),
    [
        ("SELECT Name FROM Staff WHERE Name = ?", "Siobhán O'Connell"),
        ("SELECT Title FROM Course WHERE Title = ?", "Children's Literature"),
        ("SELECT Name FROM Staff WHERE Name = ?", "Zoë Marchetti"),
        ("SELECT Name FROM Staff WHERE Name = ?", "José Núñez"),
        ("SELECT Name FROM Staff WHERE Name = ?", "Mette Sørensen"),
        ("SELECT Name FROM Staff WHERE Name = ?", "Nguyễn Thị Lan"),
        ("SELECT Building FROM Faculty WHERE Building = ?", "Ångström Hall"),
        ("SELECT Title FROM Course WHERE Title = ?", "Textile Cities: Łódź and Manchester"),
        ("SELECT Title FROM Course WHERE Title = ?", "日本語 I: Introductory Japanese"),
        ("SELECT Title FROM Course WHERE Title = ?", 'The "Long" Nineteenth Century'),
        ("SELECT Title FROM Course WHERE Title = ?", "Risk, Odds and the 5% Threshold"),
    ],
)
def test_hostile_values_are_present(conn: sqlite3.Connection, sql: str, value: str) -> None:
    assert conn.execute(sql, (value,)).fetchall() == [(value,)]


def test_nulls_dates_and_numbers(conn: sqlite3.Connection) -> None:
    for table, column in [
        ("Staff", "Office"),
        ("Staff", "Email"),
        ("Programme", "TuitionFee"),
        ("Course", "max_enrolment"),
    ]:
        nulls = conn.execute(f"SELECT COUNT(*) FROM {table} WHERE {column} IS NULL").fetchone()[0]
        assert nulls > 0, f"{table}.{column} has no NULLs"
    for table, column in [("Staff", "hire_date"), ("Programme", "FirstIntake")]:
        for value, kind in conn.execute(f"SELECT {column}, typeof({column}) FROM {table}"):
            assert kind == "text"
            assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", value)
            dt.date.fromisoformat(value)
    kinds = {r[0] for r in conn.execute("SELECT typeof(TuitionFee) FROM Programme")}
    assert kinds == {"real", "null"}
    assert conn.execute("SELECT 1 FROM Programme WHERE TuitionFee = 1234.5").fetchone()


def test_data_is_coherent(conn: sqlite3.Connection) -> None:
    # Coordinators belong to the programme's faculty and teach one of its courses.
    assert conn.execute(
        "SELECT p.Name FROM Programme p JOIN Staff s ON s.id = p.Coordinator "
        "WHERE s.Faculty <> p.Faculty"
    ).fetchall() == []
    assert conn.execute(
        "SELECT p.Name FROM Programme p WHERE NOT EXISTS ("
        " SELECT 1 FROM ProgrammeCourse pc JOIN Teaching t ON t.Course = pc.Course"
        " WHERE pc.Programme = p.id AND t.Staff = p.Coordinator)"
    ).fetchall() == []
    # Autumn courses in odd programme semesters, spring in even ones, within the duration.
    assert conn.execute(
        "SELECT pc.Programme, pc.Course FROM ProgrammeCourse pc"
        " JOIN Course c ON c.Code = pc.Course JOIN Programme p ON p.id = pc.Programme"
        " WHERE (c.Semester = 'Autumn') <> (pc.SemesterNo % 2 = 1)"
        " OR pc.SemesterNo > 2 * p.DurationYears"
    ).fetchall() == []
    # Exactly one lecturer in charge per course.
    assert conn.execute(
        "SELECT c.Code FROM Course c WHERE (SELECT COUNT(*) FROM Teaching t"
        " WHERE t.Course = c.Code AND t.Role = 'Lecturer in charge') <> 1"
    ).fetchall() == []


def test_build_is_deterministic(tmp_path: Path) -> None:
    a = build_demo_database(tmp_path / "a.db")
    b = build_demo_database(tmp_path / "b.db")

    def dump(p: Path) -> list[str]:
        c = sqlite3.connect(p)
        try:
            return list(c.iterdump())
        finally:
            c.close()

    assert dump(a) == dump(b)
    assert len(dump(a)) > 50
    assert a.read_bytes() == b.read_bytes()


def test_refuses_to_overwrite_unless_asked(tmp_path: Path) -> None:
    target = tmp_path / "demo.db"
    target.write_bytes(b"keep me")
    with pytest.raises(FileExistsError):
        build_demo_database(target)
    assert target.read_bytes() == b"keep me"
    assert [p.name for p in tmp_path.iterdir()] == ["demo.db"]

    build_demo_database(target, overwrite=True)
    c = sqlite3.connect(target)
    try:
        assert c.execute("SELECT COUNT(*) FROM Faculty").fetchone()[0] > 0
    finally:
        c.close()
    assert [p.name for p in tmp_path.iterdir()] == ["demo.db"]


def test_failed_build_leaves_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_populate = database._populate

    def half_then_crash(c: sqlite3.Connection) -> None:
        real_populate(c)
        raise RuntimeError("simulated crash")

    monkeypatch.setattr(database, "_populate", half_then_crash)
    with pytest.raises(RuntimeError, match="simulated crash"):
        build_demo_database(tmp_path / "demo.db")
    assert list(tmp_path.iterdir()) == []

    # An existing database survives a failed overwrite untouched.
    old = tmp_path / "old.db"
    old.write_bytes(b"previous build")
    with pytest.raises(RuntimeError):
        build_demo_database(old, overwrite=True)
    assert old.read_bytes() == b"previous build"
    assert [p.name for p in tmp_path.iterdir()] == ["old.db"]


def test_description_is_one_paragraph_about_the_data() -> None:
    text = demo_description()
    assert "\n" not in text
    assert len(text.split()) >= 40
    for word in ("staff", "programmes", "courses", "faculties"):
        assert word in text


def test_offtopic_questions_unique_many_and_varied() -> None:
    assert len(OFFTOPIC_QUESTIONS) >= 50
    normalised = {q.strip().casefold() for q in OFFTOPIC_QUESTIONS}
    assert len(normalised) == len(OFFTOPIC_QUESTIONS)
    lengths = [len(q.split()) for q in OFFTOPIC_QUESTIONS]
    assert min(lengths) <= 4
    assert max(lengths) >= 35
    # Not bimodal: a fair share in the middle, where in-domain questions usually sit.
    assert sum(8 <= n <= 20 for n in lengths) >= len(lengths) // 3


def test_offtopic_questions_mention_nothing_from_the_database(conn: sqlite3.Connection) -> None:
    names = _entity_names(conn)
    surnames = {
        part
        for (name,) in conn.execute("SELECT Name FROM Staff")
        for part in re.split(r"[\s-]+", name)
        if len(part) >= 4
    }
    domain_words = ["Méridane", "Meridane", "programme", "faculty", "ECTS", "tuition",
                    "lecturer", "professor", "semester", "enrol", "dean"]
    for question in OFFTOPIC_QUESTIONS:
        q = question.casefold()
        for name in names:
            assert name.casefold() not in q, (name, question)
        for word in [*surnames, *domain_words]:
            assert not re.search(rf"\b{re.escape(word.casefold())}\b", q), (word, question)


def test_inknowledge_examples_name_real_entities(conn: sqlite3.Connection) -> None:
    names = _entity_names(conn)
    assert len(INKNOWLEDGE_EXAMPLES) >= 8
    assert len(set(INKNOWLEDGE_EXAMPLES)) == len(INKNOWLEDGE_EXAMPLES)
    for question in INKNOWLEDGE_EXAMPLES:
        assert any(name in question for name in names), question
    assert not set(INKNOWLEDGE_EXAMPLES) & set(OFFTOPIC_QUESTIONS)
