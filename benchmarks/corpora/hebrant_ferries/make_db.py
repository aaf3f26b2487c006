#!/usr/bin/env python3
"""Build hebrant_ferries.sqlite: the operating database of Hebrant Ferries, a small (fictional)
island ferry company on the west coast.  Seeded, deterministic, standard library only.

    python3 make_db.py [--out hebrant_ferries.sqlite] [--seed 2024]

Tables (8): ports, vessels, crew (self-reference reports_to), routes (two foreign keys to ports),
sailings (composite key route_id + sailing_no), qualifications, crew_qualifications (association,
with an issue date) and incidents (multi-sentence description, money, NULLs).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sqlite3

HERE = os.path.dirname(os.path.abspath(__file__))

SCHEMA = """
CREATE TABLE ports (
  port_id    INTEGER PRIMARY KEY,
  name       TEXT NOT NULL UNIQUE,
  code       TEXT NOT NULL UNIQUE,
  island     TEXT,
  berths     INTEGER NOT NULL,
  linkspan   INTEGER NOT NULL CHECK (linkspan IN (0, 1))
);
CREATE TABLE vessels (
  vessel_id        INTEGER PRIMARY KEY,
  name             TEXT NOT NULL UNIQUE,
  imo_number       TEXT NOT NULL UNIQUE,
  built_year       INTEGER NOT NULL,
  passengers       INTEGER NOT NULL,
  cars             INTEGER,
  home_port_id     INTEGER REFERENCES ports(port_id),
  status           TEXT NOT NULL CHECK (status IN ('in service', 'refit', 'relief', 'laid up')),
  entered_service  DATE
);
CREATE TABLE crew (
  crew_id     INTEGER PRIMARY KEY,
  staff_no    TEXT NOT NULL UNIQUE,
  first_name  TEXT NOT NULL,
  last_name   TEXT NOT NULL,
  rank        TEXT NOT NULL,
  vessel_id   INTEGER REFERENCES vessels(vessel_id),
  reports_to  INTEGER REFERENCES crew(crew_id),
  joined      DATE NOT NULL,
  phone       TEXT,
  day_rate    NUMERIC NOT NULL
);
CREATE TABLE routes (
  route_id          INTEGER PRIMARY KEY,
  code              TEXT NOT NULL UNIQUE,
  name              TEXT NOT NULL UNIQUE,
  from_port_id      INTEGER NOT NULL REFERENCES ports(port_id),
  to_port_id        INTEGER NOT NULL REFERENCES ports(port_id),
  crossing_minutes  INTEGER NOT NULL,
  adult_fare        NUMERIC NOT NULL,
  car_fare          NUMERIC,
  seasonal          INTEGER NOT NULL CHECK (seasonal IN (0, 1))
);
CREATE TABLE sailings (
  route_id    INTEGER NOT NULL REFERENCES routes(route_id),
  sailing_no  INTEGER NOT NULL,
  departs     TEXT NOT NULL,
  days        TEXT NOT NULL CHECK (days IN ('Daily', 'Mon-Sat', 'Mon-Fri', 'Sat-Sun', 'Sun')),
  vessel_id   INTEGER REFERENCES vessels(vessel_id),
  PRIMARY KEY (route_id, sailing_no)
);
CREATE TABLE qualifications (
  qual_id         INTEGER PRIMARY KEY,
  name            TEXT NOT NULL UNIQUE,
  short_code      TEXT NOT NULL UNIQUE,
  validity_years  INTEGER
);
CREATE TABLE crew_qualifications (
  crew_id  INTEGER NOT NULL REFERENCES crew(crew_id),
  qual_id  INTEGER NOT NULL REFERENCES qualifications(qual_id),
  issued   DATE NOT NULL,
  PRIMARY KEY (crew_id, qual_id)
);
CREATE TABLE incidents (
  incident_id  INTEGER PRIMARY KEY,
  ref          TEXT NOT NULL UNIQUE,
  vessel_id    INTEGER NOT NULL REFERENCES vessels(vessel_id),
  occurred     DATE NOT NULL,
  severity     TEXT NOT NULL CHECK (severity IN ('minor', 'moderate', 'serious')),
  reported_by  INTEGER REFERENCES crew(crew_id),
  description  TEXT NOT NULL,
  cost         NUMERIC
);
"""

# port_id, name, code, island (NULL = mainland), berths, linkspan
PORTS = [
    (1, "Kinlochbrae", "KLB", None, 3, 1),
    (2, "Ardmore", "ARM", None, 2, 1),
    (3, "Ardmair", "ADR", "Rona", 1, 1),
    (4, "Portnacraig", "PNC", "Rona", 2, 1),
    (5, "Scarvay Pier", "SCV", "Scarvay", 1, 0),
    (6, "Bagh Mor", "BGM", "Eilean Dubh", 1, 1),
    (7, "Tobarsay", "TBS", "Tobarsay", 2, 1),
    (8, "Cleit", "CLT", "Tobarsay", 1, 0),
    (9, "Lochaline South", "LCS", None, 1, 1),
    (10, "Inverhoe", "IVH", "Hoe", 1, 0),
    (11, "Caolas", "CLS", "Hoe", 1, 0),
    (12, "Balnakeil Slip", "BNK", "Eilean Dubh", 1, 0),
]

# vessel_id, name, imo, built, passengers, cars, home port, status, entered_service
VESSELS = [
    (1, "MV Isle of Rona", "9387214", 2007, 450, 60, 1, "in service", "2007-05-14"),
    (2, "MV Isle of Ronay", "9102933", 1995, 220, 24, 2, "relief", "1995-07-01"),
    (3, "MV Lord of the Isles", "9570411", 2011, 600, 84, 1, "in service", "2011-03-28"),
    (4, "MV Tobarsay Lass", "9218877", 2000, 180, 18, 7, "in service", "2000-09-09"),
    (5, "MV Scarvay", "8816502", 1989, 95, None, 5, "in service", "1989-06-20"),
    (6, "MV Eilean Dubh", "9650233", 2015, 250, 32, 6, "refit", "2015-11-02"),
    (7, "MV Hoe Sound", "9734180", 2018, 150, 14, 10, "in service", "2018-04-16"),
    (8, "MV Glen Sannox II", "9455670", 2009, 380, 48, 2, "in service", "2009-08-03"),
    (9, "MV Caolas Mor", "8922014", 1991, 120, 10, 9, "laid up", None),
    (10, "MV Ardmair", "9801126", 2021, 300, 40, 3, "in service", "2021-06-07"),
    (11, "MV Loch Sunart", "9311508", 2005, 200, 22, 9, "in service", "2005-04-25"),
    (12, "MV Cleit", "9528340", 2010, 80, None, 8, "in service", "2010-05-10"),
    (13, "MV Portnacraig", "9879945", 2023, 340, 44, 4, "in service", "2023-09-18"),
]

# route_id, code, name, from, to, minutes, adult fare, car fare, seasonal
ROUTES = [
    (1, "R1", "Kinlochbrae - Portnacraig", 1, 4, 110, 11.40, 58.50, 0),
    (2, "R2", "Ardmore - Ardmair", 2, 3, 35, 4.90, 21.80, 0),
    (3, "R3", "Kinlochbrae - Tobarsay", 1, 7, 150, 13.95, 72.00, 0),
    (4, "R4", "Tobarsay - Cleit", 7, 8, 25, 3.20, None, 0),
    (5, "R5", "Ardmore - Scarvay Pier", 2, 5, 55, 6.75, None, 0),
    (6, "R6", "Lochaline South - Bagh Mor", 9, 6, 45, 5.60, 26.40, 0),
    (7, "R7", "Bagh Mor - Balnakeil Slip", 6, 12, 20, 2.80, None, 1),
    (8, "R8", "Lochaline South - Inverhoe", 9, 10, 40, 5.10, 24.90, 0),
    (9, "R9", "Inverhoe - Caolas", 10, 11, 15, 2.40, 11.60, 0),
    (10, "R10", "Portnacraig - Tobarsay", 4, 7, 70, 8.30, 41.20, 1),
    (11, "R11", "Kinlochbrae - Bagh Mor", 1, 6, 95, 10.20, 49.75, 1),
    (12, "R12", "Ardmair - Portnacraig", 3, 4, 50, 5.90, 27.30, 0),
    (13, "R13", "Ardmore - Inverhoe", 2, 10, 85, 9.45, 44.60, 1),
    (14, "R14", "Scarvay Pier - Cleit", 5, 8, 65, 7.10, None, 1),
    (15, "R15", "Kinlochbrae - Ardmore", 1, 2, 30, 4.20, 19.90, 0),
]
# which vessels normally work which route
ROUTE_VESSELS = {1: [1, 13], 2: [10], 3: [3], 4: [12], 5: [5], 6: [6, 2], 7: [12], 8: [7], 9: [7], 10: [13],
                 11: [8], 12: [10], 13: [8], 14: [5], 15: [11]}

QUALS = [
    (1, "STCW Basic Safety Training", "BST", 5),
    (2, "Proficiency in Survival Craft", "PSC", 5),
    (3, "Advanced Fire Fighting", "AFF", 5),
    (4, "Medical First Aid", "MFA", 5),
    (5, "Crowd Management", "CRM", 5),
    (6, "Passenger Ship Safety", "PSS", None),
    (7, "GMDSS Radio Operator", "GOC", 5),
    (8, "Food Hygiene Level 2", "FH2", 3),
    (9, "Ro-Ro Deck Loading", "RDL", None),
]

FIRST = ["Callum", "Mairi", "Ewan", "Euan", "Fiona", "Alasdair", "Catriona", "Donald", "Morag", "Iain",
         "Kirsty", "Angus", "Eilidh", "Ruaridh", "Shona", "Neil", "Ishbel", "Lachlan", "Jenna", "Murdo",
         "Rachel", "Peter", "Sandra", "Gary", "Kenny", "Lorna", "Hamish", "Agnieszka", "Tomasz", "Heather",
         "Duncan", "Ailsa", "Graham", "Rhona", "Calum", "Marion", "Scott", "Kerry", "Finlay", "Joan"]
LAST = ["MacLeod", "Campbell", "Mackay", "MacDonald", "Morrison", "MacInnes", "Maclean", "Beaton",
        "MacNeil", "Stewart", "Matheson", "Nicolson", "MacKinnon", "Ferguson", "Gillies", "Macaulay",
        "Robertson", "Kowalski", "Lamont", "MacPhee", "Buchanan", "Cameron", "MacRae", "Munro",
        "Sinclair", "Shaw", "MacArthur", "Graham", "Kerr", "Fraser"]

# rank, reports to rank (within the same vessel; None = the fleet superintendent), day rate range
CREW_PLAN = [
    ("Master", None, (310, 360)),
    ("Chief Officer", "Master", (250, 290)),
    ("Chief Engineer", "Master", (260, 300)),
    ("Second Engineer", "Chief Engineer", (200, 230)),
    ("Bosun", "Chief Officer", (170, 195)),
    ("Purser", "Master", (160, 185)),
    ("Able Seaman", "Bosun", (140, 160)),
    ("Able Seaman", "Bosun", (140, 160)),
    ("Catering Assistant", "Purser", (110, 125)),
]

SMALL = {5, 12, 9}  # small vessels carry a shorter crew

INCIDENT_KINDS = [
    ("minor", "A passenger slipped on the wet stairway to the upper deck. First aid was given by the "
     "purser and no further treatment was needed."),
    ("minor", "A car alarm sounded repeatedly on the vehicle deck during the crossing. The owner was "
     "traced through the passenger announcement and the alarm was disabled."),
    ("moderate", "The bow thruster tripped on approach to the berth. The master aborted the first "
     "approach and berthed at the second attempt without the thruster. Engineers reset the breaker "
     "and found a loose terminal."),
    ("moderate", "A mooring rope parted while the vessel was alongside in a strong southerly wind. "
     "Nobody was hurt. The rope was replaced from ship's stores and the sailing left 25 minutes late."),
    ("serious", "Contact was made with the end of the linkspan while berthing in poor visibility. "
     "The bow visor was dented and the sailing was cancelled. A diver inspection found no damage "
     "below the waterline."),
    ("minor", "A dog bit a member of the catering crew in the passenger lounge. The bite was minor and "
     "was cleaned and dressed on board. The owner's details were taken."),
    ("moderate", "Smoke was reported from a galley extractor fan. The fan was isolated and the fire "
     "team stood by. The motor had overheated and was replaced the same evening."),
    ("serious", "A crew member was injured by a falling hatch cover on the car deck. He was landed at "
     "the next port and taken to hospital with a broken wrist. The hatch stay has been redesigned."),
    ("minor", "A lorry was loaded with its handbrake off and rolled against the chock. No damage was "
     "done. The loading crew have been reminded of the checklist."),
    ("moderate", "The port main engine lost cooling water pressure and was shut down. The vessel "
     "completed the crossing on one engine at reduced speed. A split hose was found and renewed."),
]


def build(out, seed):
    rnd = random.Random(seed)
    if os.path.exists(out):
        os.remove(out)
    con = sqlite3.connect(out)
    con.executescript(SCHEMA)
    con.executemany("INSERT INTO ports VALUES (?,?,?,?,?,?)", PORTS)
    con.executemany("INSERT INTO vessels VALUES (?,?,?,?,?,?,?,?,?)", VESSELS)
    con.executemany("INSERT INTO routes VALUES (?,?,?,?,?,?,?,?,?)", ROUTES)
    con.executemany("INSERT INTO qualifications VALUES (?,?,?,?)", QUALS)

    # crew: shore staff first, then each vessel's complement
    crew = []
    used_no = set()

    def staff_no():
        while True:
            n = f"HF-{rnd.randint(100, 999):04d}"
            if n not in used_no:
                used_no.add(n)
                return n

    def date_between(y0, y1):
        d0, d1 = dt.date(y0, 1, 1), dt.date(y1, 12, 31)
        return (d0 + dt.timedelta(days=rnd.randint(0, (d1 - d0).days))).isoformat()

    def phone():
        return f"07{rnd.randint(700, 799)} {rnd.randint(100000, 999999)}"

    forced_names = iter([
        ("Callum", "MacLeod"), ("Callum", "MacLeod"),  # namesakes on two ships
        ("Ewan", "Mackay"), ("Euan", "Mackay"),  # near-duplicates
        ("Mairi", "Campbell"), ("Mairi", "Campbell"),
    ])
    cid = 0

    def add(rank, vessel, boss, rate, name=None, joined=None):
        nonlocal cid
        cid += 1
        if name is None:
            name = next(forced_names, None) or (rnd.choice(FIRST), rnd.choice(LAST))
        crew.append([cid, staff_no(), name[0], name[1], rank, vessel, boss,
                     joined or date_between(1996, 2023), phone() if rnd.random() < 0.8 else None,
                     round(rnd.uniform(*rate) / 5) * 5 + (0.5 if rnd.random() < 0.2 else 0)])
        return cid

    supt = add("Fleet Superintendent", None, None, (380, 400), name=("Margaret", "Beaton"), joined="1998-03-02")
    marine = add("Marine Manager", None, supt, (340, 360), name=("Neil", "Robertson"), joined="2004-10-11")
    add("Relief Master", None, marine, (320, 340))
    add("Relief Master", None, marine, (320, 340))
    add("Relief Chief Engineer", None, marine, (280, 300))
    add("Relief Able Seaman", None, marine, (140, 150))
    add("Relief Able Seaman", None, marine, (140, 150))
    for vid, *_ in VESSELS:
        ids = {}
        for rank, boss_rank, rate in CREW_PLAN:
            if vid in SMALL and rank in ("Chief Officer", "Second Engineer", "Purser", "Catering Assistant"):
                continue
            if boss_rank is None:
                boss = marine
            else:
                boss = ids.get(boss_rank) or ids.get("Master")
            if vid in SMALL and rank == "Able Seaman" and "Able Seaman" in ids:
                continue
            i = add(rank, vid, boss, rate)
            ids.setdefault(rank, i)
        if vid not in SMALL and vid % 3 == 0:
            add("Catering Assistant", vid, ids["Purser"], (110, 125))
    # a few short-contract Ferry Operatives with no vessel yet and nobody to report to (NULLs)
    for _ in range(3):
        add("Ferry Operative", None, None, (115, 125), joined=date_between(2024, 2024))
    con.executemany("INSERT INTO crew VALUES (?,?,?,?,?,?,?,?,?,?)", crew)

    # sailings
    sail = []
    for rid, code, name, f, t, mins, *_ in ROUTES:
        vs = ROUTE_VESSELS[rid]
        n_sail = {15: 12, 2: 12, 9: 10, 4: 8}.get(rid, rnd.randint(4, 8))
        start = rnd.choice([6 * 60 + 45, 7 * 60, 7 * 60 + 15, 7 * 60 + 30, 8 * 60])
        step = max(mins * 2 + 20, 60)
        k = 0
        for n in range(1, n_sail + 1):
            m = start + (n - 1) * step // (1 if rid not in (15, 2, 9, 4) else 2)
            m = m - m % 5
            if m >= 22 * 60:
                break
            k += 1
            days = rnd.choice(["Daily", "Daily", "Daily", "Mon-Sat", "Mon-Fri", "Sat-Sun", "Sun"])
            v = vs[(n - 1) % len(vs)] if rnd.random() < 0.93 else None
            sail.append((rid, k, f"{m // 60:02d}:{m % 60:02d}", days, v))
    con.executemany("INSERT INTO sailings VALUES (?,?,?,?,?)", sail)

    # qualifications held
    cq = []
    for c in crew:
        cid_, rank, vessel = c[0], c[4], c[5]
        want = {1, 2}
        if rank in ("Master", "Chief Officer", "Relief Master", "Marine Manager", "Fleet Superintendent"):
            want |= {3, 4, 5, 6, 7}
        elif "Engineer" in rank:
            want |= {3, 4}
        elif rank in ("Bosun", "Able Seaman", "Relief Able Seaman"):
            want |= {5, 9} | ({3} if rnd.random() < 0.5 else set())
        elif rank in ("Purser", "Catering Assistant"):
            want |= {5, 6, 8}
        elif rank == "Ferry Operative":
            want = {1}
        for q in sorted(want):
            if rnd.random() < 0.08 and q != 1:
                continue
            cq.append((cid_, q, date_between(2019, 2024)))
    con.executemany("INSERT INTO crew_qualifications VALUES (?,?,?)", cq)

    # incidents
    inc = []
    by_vessel = {}
    for c in crew:
        if c[5]:
            by_vessel.setdefault(c[5], []).append(c[0])
    iid = 0
    per_year = {}
    for year in (2022, 2023, 2024):
        for _ in range(16):
            iid += 1
            vid = rnd.choice([v[0] for v in VESSELS if v[0] != 9] + [1, 3, 8])
            sev, text = rnd.choice(INCIDENT_KINDS)
            d = date_between(year, year)
            per_year[year] = per_year.get(year, 0) + 1
            rep = rnd.choice(by_vessel[vid]) if rnd.random() < 0.85 else None
            cost = None if sev == "minor" and rnd.random() < 0.7 else round(rnd.uniform(80, 18000 if sev == "serious" else 4000), 2)
            inc.append([iid, None, vid, d, sev, rep, text, cost])
    inc.sort(key=lambda r: (r[3], r[0]))
    seq = {}
    for i, r in enumerate(inc, start=1):
        y = r[3][:4]
        seq[y] = seq.get(y, 0) + 1
        r[0] = i
        r[1] = f"INC-{y}-{seq[y]:03d}"
    con.executemany("INSERT INTO incidents VALUES (?,?,?,?,?,?,?,?)", inc)
    con.commit()
    con.close()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "hebrant_ferries.sqlite"))
    ap.add_argument("--seed", type=int, default=2024)
    a = ap.parse_args(argv)
    build(a.out, a.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
