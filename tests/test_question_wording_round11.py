"""Issue 22, eleventh wording round: what the iJO1366 blind check (question_fluency_blind_ijo1366.md) found,
fixed by rules for any schema. The schemas here are written for this test (a seed bank's stores and a
small lab's samples), not the judged database; each rule has a near miss that must stay as it was.

1. A row named by its name and its parent's, where the parent is a space or container that holds it
   (a jar by its name and its room's name): "the jar 'Rye 7' in the room 'North Cellar'", never "of
   the room". The same when the link column says where the row is ('location_id') whatever the parent
   table is called. Near miss: a parent that is neither (a jar's batch) keeps "of".
2. A money word alone that is as often a property ("charge") over whole numbers, some of them negative
   (an ion's charge): "What is the charge of ...?", never "How much is the charge of ...?". Near miss:
   a charge kept as a decimal amount (a fee) stays "How much".
"""

from __future__ import annotations

import json
import sqlite3

import ragdx

_ROOMS = ["North Cellar", "Drying Loft", "Cold Store"]
# jar names repeat across rooms ("Rye 7" in every room), never within one: a jar is named with its room
_LABELS = ["Rye 7", "Oat 2", "Barley 5", "Flax 1", "Spelt 3"]


def _generate(tmp_path, script, rows):
    path = tmp_path / "db.sqlite"
    con = sqlite3.connect(path)
    con.executescript(script)
    for sql, values in rows:
        con.executemany(sql, values)
    con.commit()
    con.close()
    out = ragdx.generate_dataset(f"sqlite:///{path}", tmp_path / "ds", styles=["short", "long"], max_groups=0)
    return path, [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]


def _sql(db, sql, params):
    con = sqlite3.connect(db)
    try:
        return [row[0] for row in con.execute(sql, params).fetchall()]
    finally:
        con.close()


def _jars(parent: str, link: str):
    """Jars named by a label that repeats across parents; ``parent`` and ``link`` name the parent table
    and the jar's column pointing at it."""
    script = f"""
    CREATE TABLE {parent} (id TEXT PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE jars (id TEXT PRIMARY KEY, name TEXT NOT NULL, grams INTEGER NOT NULL,
                       {link} TEXT NOT NULL REFERENCES {parent} (id));
    """
    parents = [(f"p{i}", name) for i, name in enumerate(_ROOMS)]
    jars = [(f"j{i}-{j}", label, 100 + 13 * i + 7 * j, f"p{i}") for i in range(len(_ROOMS))
            for j, label in enumerate(_LABELS[: 3 + i])]
    return script, [(f"INSERT INTO {parent} VALUES (?,?)", parents), ("INSERT INTO jars VALUES (?,?,?,?)", jars)]


def _named_with_parent(records, parent):
    return [r for r in records if "jars.name" in r["params"] and f"{parent}.name" in r["params"]]


# --------------------------------------------------------------------------- 1. a parent that holds its rows


def test_a_row_in_a_container_parent_is_said_to_be_in_it(tmp_path):
    db, records = _generate(tmp_path, *_jars("rooms", "room"))
    jars = _named_with_parent(records, "rooms")
    assert jars and {r["style"] for r in jars} == {"short", "long"}
    for r in jars:
        label, room = r["params"]["jars.name"], r["params"]["rooms.name"]
        assert f"the jar '{label}' in the room '{room}'" in r["query"], r["query"]
        assert " of the room " not in r["query"], r["query"]
        gold = _sql(db, "SELECT j.grams FROM jars j JOIN rooms r ON j.room = r.id WHERE j.name = ? AND r.name = ?",
                    (label, room))
        assert sorted(gold) == sorted(row[0] for row in r["answer_rows"])


def test_a_link_column_that_says_where_puts_the_row_in_its_parent(tmp_path):
    # the parent's noun ("store unit") says nothing; the jar's column 'location_id' says it is where the jar is
    _, records = _generate(tmp_path, *_jars("store_units", "location_id"))
    jars = _named_with_parent(records, "store_units")
    assert jars
    for r in jars:
        assert f"the jar '{r['params']['jars.name']}' in the store unit '{r['params']['store_units.name']}'" \
            in r["query"], r["query"]


def test_near_miss_a_parent_that_holds_nothing_keeps_of(tmp_path):
    _, records = _generate(tmp_path, *_jars("batches", "batch_id"))
    jars = _named_with_parent(records, "batches")
    assert jars
    for r in jars:
        assert f"the jar '{r['params']['jars.name']}' of the batch '{r['params']['batches.name']}'" \
            in r["query"], r["query"]


# --------------------------------------------------------------------------- 2. a charge that is no amount

_IONS = [("Na+", 1), ("Cl-", -1), ("SO4 2-", -2), ("Ca 2+", 2), ("NH4+", 1), ("PO4 3-", -3), ("Water", 0)]


def test_a_signed_whole_number_charge_is_asked_with_what(tmp_path):
    script = "CREATE TABLE ions (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, charge INTEGER NOT NULL);"
    db, records = _generate(tmp_path, script, [("INSERT INTO ions VALUES (?,?,?)",
                                                [(i, n, c) for i, (n, c) in enumerate(_IONS, 1)])])
    charges = [r for r in records if r["answer_columns"] == ["charge"]]
    assert charges and {r["style"] for r in charges} == {"short", "long"}
    assert not [r["query"] for r in charges if "how much" in r["query"].lower()]
    assert any(r["query"].startswith(("What is the charge of", "What's the charge of")) for r in charges)
    for r in charges:
        gold = _sql(db, "SELECT charge FROM ions WHERE name = ?", (r["params"]["ions.name"],))
        assert gold == [row[0] for row in r["answer_rows"]]


def test_near_miss_a_charge_in_money_stays_how_much(tmp_path):
    script = "CREATE TABLE services (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, charge NUMERIC NOT NULL);"
    names = ["Valet parking", "Late checkout", "Airport shuttle", "Laundry", "Breakfast tray", "Ironing"]
    _, records = _generate(tmp_path, script, [("INSERT INTO services VALUES (?,?,?)",
                                               [(i, n, 4.5 + 2.25 * i) for i, n in enumerate(names, 1)])])
    charges = [r for r in records if r["answer_columns"] == ["charge"]]
    assert charges
    assert any(r["query"].startswith("How much is the charge of") for r in charges), [r["query"] for r in charges]

