"""Rebuild mendeleev.db (SQLite) from the periodic-table database shipped in the PyPI package mendeleev 1.3.0
(MIT): `mendeleev/elements.db` inside the wheel.

    pip download --no-deps -d /tmp/mdl mendeleev==1.3.0
    python build.py /tmp/mdl/mendeleev-1.3.0-py3-none-any.whl mendeleev.db

Standard library only. Every data table of the shipped database is copied with its own CREATE TABLE
statement, columns, declared types and values unchanged (empty strings stay empty strings, nothing is
trimmed), rows in rowid order, parents before children. Two tables of the package's bookkeeping are left
out (`alembic_version`, its migration stamp; `propertymetadata`, the descriptions of its columns). Three
foreign keys that the data uses but the shipped schema does not declare are added (README.md; each is
checked here and the build stops if a row breaks it). The same wheel gives the same file byte for byte.
"""

from __future__ import annotations

import sqlite3
import sys
import tempfile
import zipfile
from pathlib import Path

MEMBER = "mendeleev/elements.db"
# parents before children; the order of the tables in the output file
TABLES = (
    "series",
    "groups",
    "elements",
    "isotopes",
    "isotopedecaymodes",
    "ionicradii",
    "ionizationenergies",
    "oxidationstates",
    "phasetransitions",
    "scattering_factors",
    "screeningconstants",
)
LEFT_OUT = ("alembic_version", "propertymetadata")
# foreign keys the data uses that the shipped schema does not declare: table -> (column, parent, parent column)
ADDED_FKS = {
    "ionizationenergies": ("atomic_number", "elements", "atomic_number"),
    "phasetransitions": ("atomic_number", "elements", "atomic_number"),
    "scattering_factors": ("atomic_number", "elements", "atomic_number"),
}
EXPECTED_FKS = {  # declared in the shipped schema (checked, so another release with other keys stops the build)
    "elements": {("group_id", "groups", "group_id"), ("series_id", "series", "id")},
    "isotopes": {("atomic_number", "elements", "atomic_number")},
    "isotopedecaymodes": {("isotope_id", "isotopes", "id")},
    "ionicradii": {("atomic_number", "elements", "atomic_number")},
    "oxidationstates": {("atomic_number", "elements", "atomic_number")},
    "screeningconstants": {("atomic_number", "elements", "atomic_number")},
}


def create_sql(table: str, shipped: str) -> str:
    """The shipped CREATE TABLE statement, with the added foreign key (if any) before its closing bracket."""
    sql = shipped.strip()
    if table in ADDED_FKS:
        col, parent, pcol = ADDED_FKS[table]
        if not sql.endswith(")"):
            sys.exit(f"{table}: unexpected CREATE TABLE statement")
        sql = sql[:-1].rstrip() + f", \n\tFOREIGN KEY({col}) REFERENCES {parent} ({pcol})\n)"
    return sql


def _foreign_keys(con: sqlite3.Connection, table: str) -> set[tuple[str, str, str]]:
    return {(r[3], r[2], r[4]) for r in con.execute(f'PRAGMA foreign_key_list("{table}")')}


def copy(src: sqlite3.Connection, out: Path) -> None:
    shipped = dict(src.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'").fetchall())
    if set(shipped) != set(TABLES) | set(LEFT_OUT):
        sys.exit(f"{MEMBER}: tables {sorted(shipped)} are not the ones this script copies")
    others = src.execute("SELECT name FROM sqlite_master WHERE type != 'table' AND sql IS NOT NULL").fetchall()
    if others:
        sys.exit(f"{MEMBER}: indexes, views or triggers this script does not copy: {others}")
    for table, fks in EXPECTED_FKS.items():
        if _foreign_keys(src, table) != fks:
            sys.exit(f"{table}: declared foreign keys {sorted(_foreign_keys(src, table))} are not {sorted(fks)}")
    tmp = out.with_suffix(".tmp")
    tmp.unlink(missing_ok=True)
    con = sqlite3.connect(tmp)
    try:
        for table in TABLES:
            con.execute(create_sql(table, shipped[table]))
            cols = [r[1] for r in src.execute(f'PRAGMA table_info("{table}")')]
            names = ", ".join(f'"{c}"' for c in cols)
            rows = src.execute(f'SELECT {names} FROM "{table}" ORDER BY rowid').fetchall()
            marks = ", ".join("?" for _ in cols)
            con.executemany(f'INSERT INTO "{table}" ({names}) VALUES ({marks})', rows)
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


def build(wheel: Path, out: Path) -> None:
    with zipfile.ZipFile(wheel) as z:
        if MEMBER not in z.namelist():
            sys.exit(f"{wheel}: no {MEMBER}")
        data = z.read(MEMBER)
    with tempfile.TemporaryDirectory() as d:
        shipped = Path(d) / "elements.db"
        shipped.write_bytes(data)
        src = sqlite3.connect(f"file:{shipped}?mode=ro", uri=True)
        try:
            copy(src, out)
        finally:
            src.close()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: build.py MENDELEEV_WHEEL OUT_DB")
    build(Path(sys.argv[1]), Path(sys.argv[2]))
