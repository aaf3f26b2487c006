"""Rebuild airportsdata.db (SQLite) from two PyPI wheels: the airports and IATA multi-airport cities shipped in
`airportsdata` 20260905 (MIT) and the ISO 3166-1 countries and ISO 3166-2 subdivisions shipped in `pycountry`
26.2.16 (LGPL-2.1; the data are Debian's iso-codes).

    pip download --no-deps -d /tmp/ad airportsdata==20260905 pycountry==26.2.16
    python build.py /tmp/ad/airportsdata-20260905-py3-none-any.whl /tmp/ad/pycountry-26.2.16-py3-none-any.whl \
        airportsdata.db

Standard library only. Five tables (README.md lists them with their keys): countries, subdivisions, airports,
multi_airport_cities, multi_airport_city_airports. Values are copied as shipped, rows in file order, parents
before children, with these decisions (README.md, "Schema decisions"): an empty CSV field is NULL (the package's
own loader treats '' as "none"); a whole-number elevation is an INTEGER (the CSV writes it without a decimal
point); a subdivision's `country_code` is the part of its code before the hyphen (as pycountry does); airports of
a country ISO 3166-1 does not list ('XK', Kosovo) are left out, because `airports.country` references
`countries`. The build stops on any other key break. The same wheels give the same file byte for byte.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import sys
import zipfile
from pathlib import Path

AIRPORTS_CSV = "airportsdata/airports.csv"
MACS_CSV = "airportsdata/iata_macs.csv"
ISO3166_1 = "pycountry/databases/iso3166-1.json"
ISO3166_2 = "pycountry/databases/iso3166-2.json"

# parents before children (the order of the tables in the output file)
SCHEMA = {
    "countries": (
        "alpha_2 TEXT NOT NULL PRIMARY KEY",
        "alpha_3 TEXT NOT NULL UNIQUE",
        "numeric TEXT NOT NULL UNIQUE",
        "name TEXT NOT NULL",
        "official_name TEXT",
        "common_name TEXT",
        "flag TEXT",
    ),
    "subdivisions": (
        "code TEXT NOT NULL PRIMARY KEY",
        "country_code TEXT NOT NULL REFERENCES countries (alpha_2)",
        "name TEXT NOT NULL",
        "type TEXT NOT NULL",
        "parent_code TEXT REFERENCES subdivisions (code)",
    ),
    "airports": (
        "icao TEXT NOT NULL PRIMARY KEY",
        "iata TEXT UNIQUE",
        "name TEXT NOT NULL",
        "city TEXT",
        "subd TEXT",
        "country TEXT NOT NULL REFERENCES countries (alpha_2)",
        "elevation INTEGER",
        "lat REAL NOT NULL",
        "lon REAL NOT NULL",
        "tz TEXT",
        "lid TEXT UNIQUE",
    ),
    "multi_airport_cities": (
        "city_code TEXT NOT NULL PRIMARY KEY",
        "city_name TEXT NOT NULL",
        "country TEXT NOT NULL REFERENCES countries (alpha_2)",
    ),
    "multi_airport_city_airports": (
        "city_code TEXT NOT NULL REFERENCES multi_airport_cities (city_code)",
        "airport_code TEXT NOT NULL REFERENCES airports (iata)",
        "airport_name TEXT",
        "PRIMARY KEY (city_code, airport_code)",
    ),
}
AIRPORT_FIELDS = ("icao", "iata", "name", "city", "subd", "country", "elevation", "lat", "lon", "tz", "lid")
MACS_FIELDS = ("Country", "City Code", "City Name", "Airport Code", "Airport Name")


def columns(table: str) -> list[str]:
    return [c.split()[0] for c in SCHEMA[table] if not c.startswith("PRIMARY KEY")]


def _csv(z: zipfile.ZipFile, name: str, fields: tuple[str, ...]) -> list[dict]:
    reader = csv.DictReader(io.StringIO(z.read(name).decode("utf-8")), quoting=csv.QUOTE_NONNUMERIC)
    if tuple(reader.fieldnames or ()) != fields:
        sys.exit(f"{name}: columns {reader.fieldnames}, not {list(fields)}")
    return [{k: (None if v == "" else v) for k, v in row.items()} for row in reader]


def _number(value: object) -> object:
    """The CSV's unquoted numbers come back as floats; a whole one was written without a decimal point."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def load(airports_wheel: Path, pycountry_wheel: Path) -> dict[str, list[dict]]:
    with zipfile.ZipFile(airports_wheel) as z:
        airports = _csv(z, AIRPORTS_CSV, AIRPORT_FIELDS)
        macs = _csv(z, MACS_CSV, MACS_FIELDS)
    with zipfile.ZipFile(pycountry_wheel) as z:
        iso1 = json.loads(z.read(ISO3166_1).decode("utf-8"))["3166-1"]
        iso2 = json.loads(z.read(ISO3166_2).decode("utf-8"))["3166-2"]
    for row in airports:
        row["elevation"] = _number(row["elevation"])
    subdivisions = [
        {
            "code": s["code"],
            "country_code": s["code"].split("-", 1)[0],
            "name": s["name"],
            "type": s["type"],
            "parent_code": s.get("parent"),
        }
        for s in iso2
    ]
    cities: dict[str, dict] = {}
    links = []
    for m in macs:
        city = {"city_code": m["City Code"], "city_name": m["City Name"], "country": m["Country"]}
        if cities.setdefault(city["city_code"], city) != city:
            sys.exit(f"{MACS_CSV}: city {city['city_code']!r} has two names or countries")
        links.append(
            {"city_code": m["City Code"], "airport_code": m["Airport Code"], "airport_name": m["Airport Name"]}
        )
    return {
        "countries": [{c: row.get(c) for c in columns("countries")} for row in iso1],
        "subdivisions": subdivisions,
        "airports": airports,
        "multi_airport_cities": list(cities.values()),
        "multi_airport_city_airports": links,
    }


def repair(data: dict[str, list[dict]]) -> dict[str, int]:
    """The one repair of README.md, in place: airports of a country that ISO 3166-1 does not list are left out."""
    known = {c["alpha_2"] for c in data["countries"]}
    before = len(data["airports"])
    data["airports"] = [a for a in data["airports"] if a["country"] in known]
    return {"airports of a country not in ISO 3166-1 left out": before - len(data["airports"])}


def build(airports_wheel: Path, pycountry_wheel: Path, out: Path) -> dict[str, int]:
    data = load(airports_wheel, pycountry_wheel)
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
    if len(sys.argv) != 4:
        sys.exit("usage: build.py AIRPORTSDATA_WHEEL PYCOUNTRY_WHEEL OUT_DB")
    for what, n in build(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])).items():
        print(f"{what}: {n}")
