"""The mendeleev blind fluency check's tools (benchmarks/corpora/fluency_mendeleev): the database rebuild from
the wheel's SQLite file, the seeded draw, the mechanical counts, and the committed sample's labels against the
committed result. No download is needed: the rebuild runs on a stand-in wheel."""

from __future__ import annotations

import importlib.util
import json
import sqlite3
import zipfile
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "benchmarks" / "corpora" / "fluency_mendeleev"

# the shipped schema's shape, cut down to a few columns per table
SHIPPED = """
CREATE TABLE series (id INTEGER NOT NULL, name VARCHAR, color VARCHAR, PRIMARY KEY (id));
CREATE TABLE groups (group_id INTEGER NOT NULL, symbol VARCHAR, name VARCHAR, PRIMARY KEY (group_id));
CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL);
CREATE TABLE propertymetadata (id INTEGER NOT NULL, description TEXT NOT NULL, PRIMARY KEY (id));
CREATE TABLE elements (atomic_number INTEGER NOT NULL, name VARCHAR, group_id INTEGER, series_id INTEGER,
    PRIMARY KEY (atomic_number), FOREIGN KEY(group_id) REFERENCES groups (group_id),
    FOREIGN KEY(series_id) REFERENCES series (id));
CREATE TABLE isotopes (id INTEGER NOT NULL, atomic_number INTEGER, mass_number INTEGER, PRIMARY KEY (id),
    FOREIGN KEY(atomic_number) REFERENCES elements (atomic_number));
CREATE TABLE isotopedecaymodes (id INTEGER NOT NULL, isotope_id INTEGER NOT NULL, mode VARCHAR(10) NOT NULL,
    PRIMARY KEY (id), CONSTRAINT fk_isotope_decaymodes_1 FOREIGN KEY(isotope_id) REFERENCES isotopes (id));
CREATE TABLE ionicradii (id INTEGER NOT NULL, atomic_number INTEGER, charge INTEGER, PRIMARY KEY (id),
    FOREIGN KEY(atomic_number) REFERENCES elements (atomic_number));
CREATE TABLE oxidationstates (id INTEGER NOT NULL, atomic_number INTEGER, oxidation_state INTEGER,
    PRIMARY KEY (id), FOREIGN KEY(atomic_number) REFERENCES elements (atomic_number));
CREATE TABLE screeningconstants (id INTEGER NOT NULL, atomic_number INTEGER, n INTEGER, PRIMARY KEY (id),
    FOREIGN KEY(atomic_number) REFERENCES elements (atomic_number));
CREATE TABLE ionizationenergies (id INTEGER NOT NULL, atomic_number INTEGER NOT NULL, species_name VARCHAR NOT NULL,
    PRIMARY KEY (id));
CREATE TABLE phasetransitions (id INTEGER NOT NULL, atomic_number INTEGER, melting_point FLOAT, PRIMARY KEY (id));
CREATE TABLE scattering_factors (id INTEGER NOT NULL, atomic_number INTEGER, f1 FLOAT, PRIMARY KEY (id));
INSERT INTO series VALUES (8, 'Transition metals', '#e08e79');
INSERT INTO groups VALUES (8, 'VIIIB', '');
INSERT INTO alembic_version VALUES ('00d5e4e8fba1');
INSERT INTO propertymetadata VALUES (1, 'a column');
INSERT INTO elements VALUES (26, 'Iron', 8, 8);
INSERT INTO isotopes VALUES (1, 26, 56);
INSERT INTO isotopedecaymodes VALUES (1, 1, 'B-');
INSERT INTO ionicradii VALUES (1, 26, 3);
INSERT INTO oxidationstates VALUES (1, 26, 3);
INSERT INTO screeningconstants VALUES (1, 26, 1);
INSERT INTO ionizationenergies VALUES (1, 26, 'Fe III');
INSERT INTO phasetransitions VALUES (1, 26, 1811.0);
INSERT INTO scattering_factors VALUES (2, 26, -9999.0);
"""


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"fluency_mendeleev_{name}", HERE / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _wheel(tmp_path: Path, build, extra: str = "") -> Path:
    db = tmp_path / "shipped.db"
    db.unlink(missing_ok=True)
    con = sqlite3.connect(db)
    con.executescript(SHIPPED + extra)
    con.close()
    path = tmp_path / "mendeleev-1.3.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as whl:
        whl.write(db, build.MEMBER)
    return path


def test_build_copies_the_data_tables_and_adds_the_three_keys(tmp_path):
    build = _load("build")
    db = tmp_path / "m.db"
    build.build(_wheel(tmp_path, build), db)
    con = sqlite3.connect(db)
    tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid")]
    assert tables == list(build.TABLES)  # bookkeeping tables left out, parents first
    assert con.execute("SELECT name FROM groups").fetchone() == ("",)  # values as shipped
    assert con.execute("SELECT f1 FROM scattering_factors").fetchone() == (-9999.0,)
    for table in build.ADDED_FKS:
        fks = {(r[3], r[2], r[4]) for r in con.execute(f"PRAGMA foreign_key_list({table})")}
        assert fks == {("atomic_number", "elements", "atomic_number")}
    again = tmp_path / "again.db"
    build.build(_wheel(tmp_path, build), again)
    assert db.read_bytes() == again.read_bytes()


def test_build_stops_on_a_broken_key_or_another_table(tmp_path):
    build = _load("build")
    db = tmp_path / "m.db"
    with pytest.raises(SystemExit, match="break a foreign key"):
        build.build(_wheel(tmp_path, build, "INSERT INTO phasetransitions VALUES (2, 999, 1.0);"), db)
    assert not db.exists() and not db.with_suffix(".tmp").exists()
    with pytest.raises(SystemExit, match="tables"):
        build.build(_wheel(tmp_path, build, "CREATE TABLE extra (x INTEGER);"), db)


def test_a_code_counts_as_the_answer_only_when_the_reader_sees_it():
    count = _load("count")
    surrogate = {"sql": "SELECT id FROM isotopes", "table": "isotopes", "answer_columns": ["id"]}
    assert count.shown_classes(surrogate) == {"surrogate"}
    own = {"sql": "SELECT atomic_number FROM elements WHERE name = 'Iron'", "table": "elements"}
    assert count.shown_classes({**own, "answer_columns": ["atomic_number"]}) == {"own"}
    related = {
        "sql": "SELECT e.atomic_number FROM isotopes AS i JOIN elements AS e ON e.atomic_number = i.atomic_number",
        "table": "isotopes",
        "answer_columns": ["atomic_number"],
    }
    assert count.shown_classes(related) == {"code"}
    series = {"sql": "SELECT series_id FROM elements", "table": "elements", "answer_columns": ["series_id"]}
    assert count.shown_classes(series) == {"code"}
    assert count.named_by_code({"params": {"isotopes.id": 12}})
    assert not count.named_by_code({"params": {"ionizationenergies.species_name": "Fe III"}})
    relation = count.RELATION_WORDS["relation noun: <key> id of"]
    assert relation.search("the series id of 'Iron'")
    assert not relation.search("Which series is iron in?")


def test_draw_is_seeded_and_per_style(tmp_path):
    sample = _load("sample")
    recs = tmp_path / "records.jsonl"
    recs.write_text(
        "".join(
            json.dumps({"id": f"r{i}", "style": s, "query": f"q{i}", "answer_text": "a"}) + "\n"
            for i in range(30)
            for s in ("long", "short")
        ),
        encoding="utf-8",
    )
    a = sample.draw(recs, 5, 22)
    assert a == sample.draw(recs, 5, 22)
    assert Counter(r["style"] for r in a) == {"long": 5, "short": 5}
    assert a != sample.draw(recs, 5, 23)


SAMPLE = HERE / "sample.jsonl"
RESULT = ROOT / "benchmarks" / "results" / "question_fluency_blind_mendeleev.md"


def test_committed_sample_is_judged_whole_and_the_result_quotes_it():
    tally = _load("tally")
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    per_style = Counter(r["style"] for r in rows)
    assert set(per_style.values()) == {100}, per_style
    assert all(r["label"] in tally.LABELS for r in rows)
    assert all(r["note"] for r in rows if r["label"] != "fluent"), "every non-fluent label says why"
    assert tally.table(tally.tally(SAMPLE)) in RESULT.read_text(encoding="utf-8")
