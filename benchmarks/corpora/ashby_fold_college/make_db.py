#!/usr/bin/env python3
"""Build ashby.sqlite: the study-programme database of the Department of Earth and Environmental
Sciences at Ashby Fold College (fictional), for the academic years 2024/25 and 2025/26.

    python3 make_db.py [--out ashby.sqlite]

Standard library only; seeded, so the same file contents come out every time.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sqlite3

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 2041

SCHEMA = """
CREATE TABLE buildings (
    building_code  TEXT PRIMARY KEY,
    name           TEXT NOT NULL UNIQUE,
    campus         TEXT NOT NULL,
    opened_year    INTEGER NOT NULL,
    step_free      INTEGER NOT NULL
);
CREATE TABLE rooms (
    room_code      TEXT PRIMARY KEY,
    building_code  TEXT NOT NULL REFERENCES buildings(building_code),
    room_number    TEXT NOT NULL,
    room_name      TEXT,
    room_type      TEXT NOT NULL CHECK (room_type IN ('lecture theatre', 'seminar room', 'laboratory',
                                                     'computer lab', 'office')),
    capacity       INTEGER NOT NULL
);
CREATE TABLE staff (
    staff_id       INTEGER PRIMARY KEY,
    title          TEXT NOT NULL CHECK (title IN ('Dr', 'Prof.', 'Mr', 'Ms', 'Mrs')),
    first_name     TEXT NOT NULL,
    last_name      TEXT NOT NULL,
    job_title      TEXT NOT NULL,
    email          TEXT NOT NULL UNIQUE,
    phone_ext      TEXT,
    office_room    TEXT REFERENCES rooms(room_code),
    start_date     DATE NOT NULL
);
CREATE TABLE programmes (
    programme_code  TEXT PRIMARY KEY,
    name            TEXT NOT NULL,
    award           TEXT NOT NULL,
    mode            TEXT NOT NULL CHECK (mode IN ('full-time', 'part-time')),
    duration_years  INTEGER NOT NULL,
    ucas_code       TEXT,
    leader_id       INTEGER NOT NULL REFERENCES staff(staff_id),
    intake_target   INTEGER NOT NULL
);
CREATE TABLE modules (
    module_code        TEXT PRIMARY KEY,
    title              TEXT NOT NULL UNIQUE,
    level              INTEGER NOT NULL,
    credits            INTEGER NOT NULL,
    semester           TEXT NOT NULL CHECK (semester IN ('Autumn', 'Spring')),
    convenor_id        INTEGER NOT NULL REFERENCES staff(staff_id),
    pass_mark          INTEGER NOT NULL,
    prerequisite_code  TEXT REFERENCES modules(module_code)
);
CREATE TABLE programme_modules (
    programme_code  TEXT NOT NULL REFERENCES programmes(programme_code),
    module_code     TEXT NOT NULL REFERENCES modules(module_code),
    is_compulsory   INTEGER NOT NULL,
    year_of_study   INTEGER NOT NULL,
    PRIMARY KEY (programme_code, module_code)
);
CREATE TABLE module_runs (
    module_code     TEXT NOT NULL REFERENCES modules(module_code),
    term            TEXT NOT NULL,
    lecturer_id     INTEGER REFERENCES staff(staff_id),
    room_code       TEXT NOT NULL REFERENCES rooms(room_code),
    weekday         TEXT NOT NULL,
    start_time      TEXT NOT NULL,
    duration_hours  INTEGER NOT NULL,
    enrolled        INTEGER,
    PRIMARY KEY (module_code, term)
);
CREATE TABLE assessments (
    assessment_id  INTEGER PRIMARY KEY,
    module_code    TEXT NOT NULL REFERENCES modules(module_code),
    academic_year  TEXT NOT NULL,
    component_no   INTEGER NOT NULL,
    title          TEXT NOT NULL,
    kind           TEXT NOT NULL CHECK (kind IN ('coursework', 'exam', 'presentation', 'lab report', 'dissertation')),
    weight         REAL NOT NULL,
    due_date       DATE,
    word_limit     INTEGER,
    UNIQUE (module_code, academic_year, component_no)
);
"""

BUILDINGS = [
    ("HLB", "Harrowgate Laboratories", "Fold Road", 1968, 1),
    ("FWB", "Fold Walk Building", "Fold Road", 1994, 1),
    ("MCH", "Mercer Hall", "Fold Road", 1902, 0),
    ("GSC", "Greenhow Science Centre", "Kirkby Lane", 2011, 1),
    ("OTB", "Old Tannery", "Kirkby Lane", 1871, 0),
    ("ELB", "Ellison Library", "Fold Road", 1979, 1),
]

# code, building, number, name, type, capacity
ROOMS = [
    ("HLB.G.04", "HLB", "G.04", "Pennine Lecture Theatre", "lecture theatre", 180),
    ("HLB.1.07", "HLB", "1.07", None, "laboratory", 36),
    ("HLB.1.12", "HLB", "1.12", None, "laboratory", 24),
    ("HLB.2.03", "HLB", "2.03", None, "office", 2),
    ("HLB.2.05", "HLB", "2.05", None, "office", 2),
    ("HLB.2.09", "HLB", "2.09", None, "office", 1),
    ("FWB.0.21", "FWB", "0.21", "Swale Room", "seminar room", 40),
    ("FWB.0.22", "FWB", "0.22", None, "seminar room", 30),
    ("FWB.1.01", "FWB", "1.01", "Fold Walk Lecture Theatre", "lecture theatre", 120),
    ("FWB.1.14", "FWB", "1.14", None, "computer lab", 32),
    ("FWB.2.18", "FWB", "2.18", None, "office", 2),
    ("FWB.2.20", "FWB", "2.20", None, "office", 1),
    ("MCH.101", "MCH", "101", "Mercer Room", "seminar room", 28),
    ("MCH.104", "MCH", "104", None, "seminar room", 18),
    ("MCH.203", "MCH", "203", None, "office", 2),
    ("MCH.207", "MCH", "207", None, "office", 1),
    ("GSC.A10", "GSC", "A10", "Greenhow Auditorium", "lecture theatre", 220),
    ("GSC.B02", "GSC", "B02", None, "computer lab", 40),
    ("GSC.B14", "GSC", "B14", None, "laboratory", 30),
    ("GSC.C05", "GSC", "C05", None, "office", 3),
    ("GSC.C07", "GSC", "C07", None, "office", 1),
    ("OTB.1", "OTB", "1", "Tannery Studio", "seminar room", 24),
    ("OTB.2", "OTB", "2", None, "laboratory", 16),
    ("OTB.5", "OTB", "5", None, "office", 2),
    ("ELB.3.02", "ELB", "3.02", "Map Room", "seminar room", 20),
    ("ELB.3.10", "ELB", "3.10", None, "computer lab", 24),
]

# title, first, last, job title, ext, office, start
STAFF = [
    ("Prof.", "Ruth", "Atkinson", "Head of Department", "4401", "MCH.207", "2009-09-01"),
    ("Dr", "Helen", "Marsden", "Senior Lecturer", "4417", "HLB.2.03", "2014-09-01"),
    ("Prof.", "Helen", "Marsden-Pike", "Professor of Geology", "4418", "OTB.5", "2003-01-06"),
    ("Dr", "David", "Shaw", "Lecturer", "4423", "HLB.2.05", "2019-09-02"),
    ("Dr", "Daniel", "Shaw", "Senior Lecturer", "4424", "FWB.2.18", "2012-04-16"),
    ("Mr", "Rob", "Atkinson", "Senior Technician", "4460", "HLB.2.09", "2001-08-13"),
    ("Dr", "Priya", "Nair", "Lecturer", "4431", "GSC.C05", "2021-01-04"),
    ("Ms", "Priya", "Nair-Hughes", "Teaching Fellow", None, "GSC.C05", "2023-09-04"),
    ("Dr", "Tom", "Lund", "Lecturer", "4436", "FWB.2.18", "2020-09-01"),
    ("Dr", "Tomasz", "Lund", "Associate Lecturer", None, None, "2024-09-02"),
    ("Prof.", "Owen", "Kettlewell", "Professor of Hydrology", "4402", "MCH.203", "1998-10-01"),
    ("Dr", "Aisha", "Bello", "Senior Lecturer", "4440", "GSC.C07", "2015-09-01"),
    ("Dr", "Gwen", "Ibbotson", "Lecturer", "4441", "MCH.203", "2018-01-08"),
    ("Dr", "Simon", "Pratt", "Lecturer", "4442", "FWB.2.20", "2016-09-01"),
    ("Mrs", "Carol", "Whitfield", "Programme Administrator", "4400", None, "2007-03-12"),
    ("Dr", "Mark", "Thwaite", "Reader in Ecology", "4445", "OTB.5", "2006-09-01"),
    ("Dr", "Lucy", "Dent", "Lecturer", "4447", "HLB.2.03", "2022-09-01"),
    ("Dr", "Yusuf", "Kaya", "Senior Lecturer", "4450", "GSC.C05", "2013-09-02"),
    ("Dr", "Niamh", "Costello", "Lecturer", None, None, "2025-01-06"),
    ("Mr", "James", "Alderson", "GIS Technician", "4462", "FWB.2.20", "2017-06-19"),
    ("Prof.", "Ian", "Metcalfe", "Professor of Physical Geography", "4404", "MCH.207", "2000-09-01"),
    ("Dr", "Fiona", "Raistrick", "Senior Lecturer", "4452", "HLB.2.05", "2011-09-01"),
    ("Dr", "Ben", "Sowerby", "Lecturer", "4453", "GSC.C07", "2021-09-01"),
    ("Dr", "Emma", "Hird", "Teaching Fellow", None, None, "2024-01-08"),
    ("Dr", "Kofi", "Mensah", "Lecturer", "4455", "OTB.5", "2019-01-07"),
    ("Dr", "Anne", "Oddie", "Lecturer", "4456", "MCH.203", "2017-09-01"),
    ("Dr", "Peter", "Oddie", "Senior Lecturer", "4457", "FWB.2.18", "2008-09-01"),
    ("Ms", "Sara", "Lindholm", "Associate Lecturer", None, None, "2025-09-01"),
    ("Dr", "Harriet", "Calvert", "Lecturer", "4459", "HLB.2.09", "2016-01-04"),
    ("Prof.", "Kwame", "Asante", "Professor of Environmental Data Science", "4405", "GSC.C07", "2022-04-01"),
]

# code, name, award, mode, years, ucas, leader, intake
PROGRAMMES = [
    ("BSENV", "Environmental Science", "BSc (Hons)", "full-time", 3, "F850", 2, 90),
    ("BSENP", "Environmental Science", "BSc (Hons)", "part-time", 6, None, 2, 12),
    ("BSGEO", "Physical Geography", "BSc (Hons)", "full-time", 3, "F840", 21, 60),
    ("BSGLG", "Geology with Placement Year", "BSc (Hons)", "full-time", 4, "F601", 3, 40),
    ("FDECO", "Ecology and Conservation", "FdSc", "full-time", 2, "D447", 16, 25),
    ("MSENM", "Environmental Management", "MSc", "full-time", 1, None, 12, 30),
    ("MSGDS", "Geospatial Data Science", "MSc", "full-time", 1, None, 30, 20),
]

# code, title, level, credits, semester, convenor, prerequisite
MODULES = [
    ("ENV1001", "Earth Systems", 4, 20, "Autumn", 11, None),
    ("ENV1002", "Field Skills 1", 4, 20, "Spring", 4, None),
    ("ENV1010", "Introduction to Ecology", 4, 20, "Autumn", 16, None),
    ("ENV1015", "Environmental Chemistry", 4, 20, "Spring", 17, None),
    ("ENV1020", "Data Analysis for Scientists", 4, 20, "Autumn", 14, None),
    ("ENV1030", "Climate and Society", 4, 20, "Spring", 22, None),
    ("GEO1001", "Landscapes and Landforms", 4, 20, "Autumn", 21, None),
    ("GLG1001", "Minerals and Rocks", 4, 20, "Autumn", 3, None),
    ("GLG1005", "Geological Mapping", 4, 20, "Spring", 25, None),
    ("ENV2041", "Hydrology", 5, 20, "Autumn", 11, "ENV1001"),
    ("ENV2042", "Field Skills 2", 5, 20, "Spring", 4, "ENV1002"),
    ("ENV2010", "Soil Science", 5, 20, "Autumn", 2, "ENV1015"),
    ("ENV2020", "Environmental Statistics", 5, 20, "Spring", 14, "ENV1020"),
    ("ENV2030", "GIS and Remote Sensing", 5, 20, "Autumn", 18, None),
    ("ENV2050", "Pollution and Remediation", 5, 20, "Spring", 17, "ENV1015"),
    ("GEO2010", "Glacial Geomorphology", 5, 20, "Spring", 21, "GEO1001"),
    ("GEO2015", "Rivers and Floods", 5, 20, "Autumn", 5, None),
    ("GLG2003", "Sedimentology", 5, 20, "Autumn", 25, "GLG1001"),
    ("GLG2008", "Structural Geology", 5, 20, "Spring", 3, "GLG1005"),
    ("ECO2001", "Conservation in Practice", 5, 20, "Spring", 16, "ENV1010"),
    ("ECO2005", "Habitat Survey", 5, 40, "Autumn", 13, None),
    ("ENV3000", "Dissertation", 6, 40, "Spring", 1, None),
    ("ENV3012", "Applied Hydrology", 6, 20, "Spring", 5, "ENV2041"),
    ("ENV3015", "Environmental Impact Assessment", 6, 20, "Autumn", 26, None),
    ("ENV3020", "Soil and Land Management", 6, 20, "Autumn", 2, "ENV2010"),
    ("ENV3030", "Remote Sensing and GIS", 6, 20, "Spring", 18, "ENV2030"),
    ("ENV3050", "Environmental Law and Policy", 6, 20, "Spring", 27, None),
    ("ENV3060", "Climate Change Science", 6, 20, "Autumn", 22, "ENV1030"),
    ("GEO3001", "Quaternary Environments", 6, 20, "Autumn", 29, None),
    ("GEO3010", "Coastal Processes", 6, 20, "Spring", 23, None),
    ("GLG3002", "Petroleum Geology", 6, 20, "Autumn", 3, "GLG2003"),
    ("GLG3009", "Placement Report", 6, 60, "Spring", 25, None),
    ("ENV7001", "Environmental Management Systems", 7, 30, "Autumn", 12, None),
    ("ENV7003", "Sustainability Appraisal", 7, 30, "Autumn", 26, None),
    ("ENV7005", "Water Resource Management", 7, 30, "Spring", 11, None),
    ("ENV7010", "Research Methods", 7, 15, "Autumn", 9, None),
    ("ENV7090", "MSc Dissertation", 7, 60, "Spring", 12, None),
    ("GDS7001", "Spatial Databases", 7, 15, "Autumn", 30, None),
    ("GDS7002", "Machine Learning for Earth Observation", 7, 30, "Spring", 30, None),
    ("GDS7004", "Programming for Geospatial Analysis", 7, 15, "Autumn", 10, None),
    ("GDS7008", "Cartography and Visualisation", 7, 15, "Spring", 7, None),
]

# programme -> [(module, compulsory, year)]
STRUCTURE = {
    "BSENV": [("ENV1001", 1, 1), ("ENV1002", 1, 1), ("ENV1010", 1, 1), ("ENV1015", 1, 1), ("ENV1020", 1, 1),
              ("ENV1030", 1, 1), ("ENV2041", 1, 2), ("ENV2042", 1, 2), ("ENV2010", 1, 2), ("ENV2020", 1, 2),
              ("ENV2030", 0, 2), ("ENV2050", 0, 2), ("ECO2001", 0, 2), ("GEO2015", 0, 2), ("ENV3000", 1, 3),
              ("ENV3012", 0, 3), ("ENV3015", 1, 3), ("ENV3020", 0, 3), ("ENV3030", 0, 3), ("ENV3050", 0, 3),
              ("ENV3060", 0, 3)],
    "BSENP": [("ENV1001", 1, 1), ("ENV1010", 1, 1), ("ENV1002", 1, 2), ("ENV1015", 1, 2), ("ENV2041", 1, 3),
              ("ENV2010", 1, 4), ("ENV2020", 1, 4), ("ENV3015", 1, 5), ("ENV3050", 0, 5), ("ENV3000", 1, 6)],
    "BSGEO": [("GEO1001", 1, 1), ("ENV1001", 1, 1), ("ENV1002", 1, 1), ("ENV1020", 1, 1), ("ENV1030", 0, 1),
              ("GLG1001", 0, 1), ("GEO2010", 1, 2), ("GEO2015", 1, 2), ("ENV2041", 0, 2), ("ENV2042", 1, 2),
              ("ENV2030", 0, 2), ("ENV3000", 1, 3), ("GEO3001", 1, 3), ("GEO3010", 0, 3), ("ENV3012", 0, 3),
              ("ENV3060", 0, 3)],
    "BSGLG": [("GLG1001", 1, 1), ("GLG1005", 1, 1), ("ENV1001", 1, 1), ("ENV1002", 1, 1), ("GLG2003", 1, 2),
              ("GLG2008", 1, 2), ("ENV2042", 1, 2), ("ENV2030", 0, 2), ("GLG3009", 1, 3), ("GLG3002", 1, 4),
              ("GEO3001", 0, 4), ("ENV3000", 1, 4)],
    "FDECO": [("ENV1010", 1, 1), ("ENV1002", 1, 1), ("ENV1020", 1, 1), ("ENV1015", 0, 1), ("ECO2001", 1, 2),
              ("ECO2005", 1, 2), ("ENV2010", 0, 2), ("ENV2050", 0, 2)],
    "MSENM": [("ENV7001", 1, 1), ("ENV7003", 1, 1), ("ENV7005", 0, 1), ("ENV7010", 1, 1), ("ENV7090", 1, 1),
              ("GDS7001", 0, 1)],
    "MSGDS": [("GDS7001", 1, 1), ("GDS7002", 1, 1), ("GDS7004", 1, 1), ("GDS7008", 0, 1), ("ENV7010", 1, 1),
              ("ENV7090", 1, 1), ("ENV7005", 0, 1)],
}

# assessment schemes: (title, kind, weight) per component; the scheme letter is not in the database
SCHEMES = {
    "A": [("Essay", "coursework", 0.5), ("Examination", "exam", 0.5)],
    "B": [("Field report", "coursework", 0.4), ("Examination", "exam", 0.6)],
    "C": [("Lab report", "lab report", 0.3), ("Examination", "exam", 0.7)],
    "D": [("Portfolio", "coursework", 0.6), ("Presentation", "presentation", 0.4)],
    "E": [("Problem sheet", "coursework", 0.25), ("Project report", "coursework", 0.75)],
    "F": [("Proposal", "coursework", 0.1), ("Dissertation", "dissertation", 0.9)],
    "G": [("Practical test", "lab report", 0.2), ("Map project", "coursework", 0.5), ("Examination", "exam", 0.3)],
}
SCHEME_OF = {
    "ENV1001": "A", "ENV1002": "D", "ENV1010": "B", "ENV1015": "C", "ENV1020": "E", "ENV1030": "A",
    "GEO1001": "B", "GLG1001": "C", "GLG1005": "G", "ENV2041": "B", "ENV2042": "D", "ENV2010": "C",
    "ENV2020": "E", "ENV2030": "E", "ENV2050": "C", "GEO2010": "B", "GEO2015": "A", "GLG2003": "G",
    "GLG2008": "G", "ECO2001": "D", "ECO2005": "B", "ENV3000": "F", "ENV3012": "E", "ENV3015": "D",
    "ENV3020": "A", "ENV3030": "E", "ENV3050": "A", "ENV3060": "A", "GEO3001": "B", "GEO3010": "B",
    "GLG3002": "C", "GLG3009": "F", "ENV7001": "D", "ENV7003": "A", "ENV7005": "E", "ENV7010": "E",
    "ENV7090": "F", "GDS7001": "E", "GDS7002": "E", "GDS7004": "E", "GDS7008": "D",
}
TERMS = {"Autumn": ("2024-AUT", "2025-AUT"), "Spring": ("2025-SPR", "2026-SPR")}
NEW_IN_2025 = {"GDS7008", "ENV1030", "ENV3060"}  # first run 2025/26
TEACHING_ROOMS = [r for r in ROOMS if r[4] != "office"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
STARTS = ["09:00", "10:00", "11:00", "13:00", "14:00", "15:00"]


def email(first, last):
    return f"{first[0].lower()}.{last.lower().replace('-', '')}@ashbyfold.ac.uk"


def build(path):
    if os.path.exists(path):
        os.remove(path)
    rnd = random.Random(SEED)
    con = sqlite3.connect(path)
    con.executescript("PRAGMA foreign_keys = ON;\n" + SCHEMA)
    con.executemany("INSERT INTO buildings VALUES (?,?,?,?,?)", BUILDINGS)
    con.executemany("INSERT INTO rooms VALUES (?,?,?,?,?,?)", ROOMS)
    seen = set()
    for i, (t, f, l, job, ext, office, start) in enumerate(STAFF, 1):
        e = email(f, l)
        if e in seen:
            e = f"{f.lower()}.{l.lower()}@ashbyfold.ac.uk"
        seen.add(e)
        con.execute("INSERT INTO staff VALUES (?,?,?,?,?,?,?,?,?)", (i, t, f, l, job, e, ext, office, start))
    con.executemany("INSERT INTO programmes VALUES (?,?,?,?,?,?,?,?)", PROGRAMMES)
    for code, title, level, credits, sem, conv, pre in MODULES:
        con.execute("INSERT INTO modules VALUES (?,?,?,?,?,?,?,?)",
                    (code, title, level, credits, sem, conv, 50 if level == 7 else 40, pre))
    for prog, rows in STRUCTURE.items():
        for mod, comp, year in rows:
            con.execute("INSERT INTO programme_modules VALUES (?,?,?,?)", (prog, mod, comp, year))
    used = set()
    academic = {1, 2, 3, 4, 5, 7, 9, 10, 11, 12, 13, 14, 16, 17, 18, 19, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30}
    for code, title, level, credits, sem, conv, pre in MODULES:
        size = {4: 110, 5: 70, 6: 55, 7: 22}[level]
        for term in TERMS[sem]:
            if term.startswith("2024") or term == "2025-SPR":
                if code in NEW_IN_2025:
                    continue
            while True:
                day, start = rnd.choice(DAYS), rnd.choice(STARTS)
                room = rnd.choice([r for r in TEACHING_ROOMS if r[5] >= min(size, 100) * 0.3])
                if (room[0], term[-3:], day, start) not in used:
                    break
            used.add((room[0], term[-3:], day, start))
            hours = 3 if room[4] == "laboratory" else rnd.choice([1, 2, 2])
            lect = conv if rnd.random() < 0.7 else rnd.choice(sorted(academic - {conv}))
            if term == "2026-SPR" and rnd.random() < 0.12:
                lect = None  # to be confirmed
            enrolled = None if term == "2026-SPR" else max(6, int(size * rnd.uniform(0.55, 1.15)))
            con.execute("INSERT INTO module_runs VALUES (?,?,?,?,?,?,?,?)",
                        (code, term, lect, room[0], day, start, hours, enrolled))
    aid = 0
    for year in ("2024/25", "2025/26"):
        for code, title, level, credits, sem, conv, pre in MODULES:
            if year == "2024/25" and code in NEW_IN_2025:
                continue
            y0 = 2024 if year == "2024/25" else 2025
            for no, (t, kind, w) in enumerate(SCHEMES[SCHEME_OF[code]], 1):
                aid += 1
                if kind == "exam":
                    due = None  # set by the Examinations Office
                else:
                    if sem == "Autumn":
                        base = dt.date(y0, 10, 20) + dt.timedelta(days=rnd.randrange(0, 50))
                    else:
                        base = dt.date(y0 + 1, 2, 16) + dt.timedelta(days=rnd.randrange(0, 80))
                    while base.weekday() > 4:
                        base += dt.timedelta(days=1)
                    due = base.isoformat()
                wl = None
                if kind in ("coursework", "dissertation") and t not in ("Portfolio", "Problem sheet"):
                    wl = {"dissertation": 10000 if level == 6 else 15000}.get(kind) or rnd.choice([1500, 2000, 2500, 3000])
                    if t == "Proposal":
                        wl = 1000
                con.execute("INSERT INTO assessments VALUES (?,?,?,?,?,?,?,?,?)",
                            (aid, code, year, no, t, kind, w, due, wl))
    con.commit()
    con.close()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "ashby.sqlite"))
    a = ap.parse_args(argv)
    build(a.out)
    con = sqlite3.connect(a.out)
    tot = 0
    for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name"):
        n = con.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0]
        tot += n
        print(f"{t:<22}{n:>5}")
    print(f"{'total':<22}{tot:>5}")
    con.close()


if __name__ == "__main__":
    main()
