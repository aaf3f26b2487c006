"""Issue 22, seventh naming round: a row keyed by a slug is asked and answered by its display name kept
one join away in a one-to-one child table ("the monster 'Ash Wolf'", never "the monster 'ash-wolf'" nor
"the monster name with english ..."), and a label column written in the source's capitals ('FIRE') is
given as people write it ("Fire") while the record's rows keep the database's value. Each fault has a
near miss that must stay as it was: a key already written as people write it has no display name, and
short capitals (currency codes 'USD') are codes, not labels. The schema is written for this test (a small
catalogue of monsters), not taken from any judged database."""

from __future__ import annotations

import json
import sqlite3

import pytest

import ragdx
from ragdx.db import connect, inspect_schema
from ragdx.gen.dataset import label_word

_NAMES = ["Ember Fox", "Moss Toad", "Rock Crab", "Tide Eel", "Sky Owl", "Mud Newt", "Ash Wolf", "Dune Cat"]
_TYPES = ["FIRE", "GRASS", "ROCK", "WATER", "FLYING", "GROUND", "NORMAL", "GHOST"]


def _build(path):
    con = sqlite3.connect(path)
    con.executescript("""
    CREATE TABLE monsters (term TEXT PRIMARY KEY, dex_no INTEGER, classification TEXT);
    CREATE TABLE monsternames (term TEXT PRIMARY KEY REFERENCES monsters(term), english TEXT, japanese TEXT);
    CREATE TABLE monstertypes (term TEXT PRIMARY KEY REFERENCES monsters(term), first TEXT);
    CREATE TABLE shops (label TEXT PRIMARY KEY, currency TEXT, town TEXT);
    CREATE TABLE shopnames (label TEXT PRIMARY KEY REFERENCES shops(label), english TEXT);
    """)
    for i, n in enumerate(_NAMES):
        slug = n.lower().replace(" ", "-")
        con.execute("INSERT INTO monsters VALUES (?,?,?)", (slug, i + 1, f"{n.split()[1]} Monster"))
        con.execute("INSERT INTO monsternames VALUES (?,?,?)", (slug, n, f"Kaiju{i}"))
        con.execute("INSERT INTO monstertypes VALUES (?,?)", (slug, _TYPES[4 + i % 4]))
        # the near miss: a key already written as people write it ('Shop Ember Fox'): no display name
        con.execute("INSERT INTO shops VALUES (?,?,?)", (f"Shop {n}", ["USD", "EUR"][i % 2], f"Town {i}"))
        con.execute("INSERT INTO shopnames VALUES (?,?)", (f"Shop {n}", f"Shop {n}"))
    con.commit()
    con.close()
    return path


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    return _build(tmp_path_factory.mktemp("monsters") / "monsters.sqlite")


@pytest.fixture(scope="module")
def schema(db):
    engine = connect(f"sqlite:///{db}")
    try:
        return inspect_schema(engine)
    finally:
        engine.dispose()


@pytest.fixture(scope="module")
def records(db, tmp_path_factory):
    out = ragdx.generate_dataset(f"sqlite:///{db}", tmp_path_factory.mktemp("ds") / "ds", styles=["short", "long"],
                                 max_groups=0)
    return [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]


def test_display_name_is_measured_only_for_a_slug_key(schema):
    assert schema.table("monsters").display_name == ("monsternames", "term", "english")
    assert schema.table("shops").display_name is None  # its key is written as people write it


def test_upper_labels_are_measured_and_codes_are_not(schema):
    assert schema.table("monstertypes").column("first").upper_labels
    assert not schema.table("shops").column("currency").upper_labels  # 'USD': a code people write so
    assert not schema.table("monsters").column("classification").upper_labels


def test_a_slug_keyed_row_is_asked_by_its_display_name(records):
    about = [r for r in records if "monsternames.english" in r["params"]]
    assert about, "the monsters' facts are asked by their English names"
    for r in about:
        name = r["params"]["monsternames.english"]
        assert f"'{name}'" in r["query"] and name in _NAMES
        assert "english" not in r["query"].lower() and "term" not in r["query"].lower()
        assert "-" not in name  # never the slug 'ash-wolf'
    # the name column is not asked for again ("the English name of 'Ash Wolf'" answers itself)
    assert not any(r["answer_columns"] == ["english"] for r in about)
    dex = [r for r in about if r["answer_columns"] == ["dex_no"] and r["style"] == "short"]
    assert dex and all("dex number of" in r["query"].lower() for r in dex)
    assert not any("monsters.term" in r["params"] for r in records)


def test_capital_labels_answer_as_words_rows_keep_the_value(records):
    typed = [r for r in records if r["answer_columns"] == ["first"]]
    assert typed
    for r in typed:
        assert r["answer_rows"][0][0] in _TYPES
        assert r["answer_text"] == r["answer_rows"][0][0].capitalize()
        assert "first type" in r["query"].lower() and "first of" not in r["query"].lower()
    currency = [r for r in records if r["answer_columns"] == ["currency"]]
    assert all(r["answer_text"] in ("USD", "EUR") for r in currency)


def test_label_word():
    assert label_word("GRASS") == "Grass"
    assert label_word("SPECIAL_ATTACK") == "Special Attack"
    assert label_word("Ash Wolf") == "Ash Wolf"
    assert label_word(101) == 101
