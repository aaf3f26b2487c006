#!/usr/bin/env python3
"""Build marina.sqlite: the berth book of the (fictional) Carrick Reach Marina, an estuary marina of five
pontoons and a trot of river moorings, as of the end of October 2026.

7 tables with foreign keys, about 260 rows; namesakes and near-duplicates on purpose (two boats called
Kittiwake, Sea Breeze and Sea Breeze II, Mrs Anne and Mr Alan Trevail, both 'A. Trevail'); NULLs of several
kinds (no e-mail, boats ashore with no berth, unassigned jobs, jobs not yet invoiced). Seeded and
deterministic, standard library only.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 4417

SCHEMA = """
CREATE TABLE pontoons (
    pontoon_code TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    max_loa_m    REAL NOT NULL,
    shore_power  TEXT NOT NULL
);
CREATE TABLE berths (
    berth_no     TEXT PRIMARY KEY,
    pontoon_code TEXT NOT NULL REFERENCES pontoons(pontoon_code),
    length_m     REAL NOT NULL,
    berth_type   TEXT NOT NULL,
    annual_fee   INTEGER NOT NULL
);
CREATE TABLE owners (
    owner_id   INTEGER PRIMARY KEY,
    member_no  TEXT NOT NULL UNIQUE,
    title      TEXT NOT NULL,
    first_name TEXT NOT NULL,
    last_name  TEXT NOT NULL,
    phone      TEXT NOT NULL,
    email      TEXT,
    home_town  TEXT NOT NULL
);
CREATE TABLE boats (
    boat_id    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    boat_type  TEXT NOT NULL,
    make       TEXT NOT NULL,
    loa_m      REAL NOT NULL,
    year_built INTEGER NOT NULL,
    berth_no   TEXT REFERENCES berths(berth_no)
);
CREATE TABLE boat_owners (
    boat_id  INTEGER NOT NULL REFERENCES boats(boat_id),
    owner_id INTEGER NOT NULL REFERENCES owners(owner_id),
    role     TEXT NOT NULL,
    PRIMARY KEY (boat_id, owner_id)
);
CREATE TABLE staff (
    staff_id INTEGER PRIMARY KEY,
    name     TEXT NOT NULL,
    role     TEXT NOT NULL,
    phone    TEXT NOT NULL
);
CREATE TABLE work_orders (
    job_no      TEXT PRIMARY KEY,
    boat_id     INTEGER NOT NULL REFERENCES boats(boat_id),
    staff_id    INTEGER REFERENCES staff(staff_id),
    booked_date TEXT NOT NULL,
    job_type    TEXT NOT NULL,
    charge      INTEGER,
    status      TEXT NOT NULL
);
"""

# code, name, longest boat, shore power; M is the trot of swinging moorings in the river (no power)
PONTOONS = [
    ("A", "Anchorage Pontoon", 14.0, "32 A"),
    ("B", "Bosun's Pontoon", 12.0, "16 A"),
    ("C", "Chapel Pontoon", 10.0, "16 A"),
    ("D", "Dock Pontoon", 18.0, "63 A"),
    ("E", "Estuary Pontoon", 9.0, "16 A"),
    ("M", "River Moorings", 12.0, "none"),
]
BERTHS_PER = {"A": 11, "B": 11, "C": 10, "D": 7, "E": 9, "M": 6}
STAFF = [
    (1, "Tamsin Rowe", "Harbour master", "01326 555104"),
    (2, "Jory Penhale", "Yard foreman", "07700 900218"),
    (3, "Kerensa Bligh", "Berthing officer", "01326 555187"),
    (4, "Mark Vosper", "Marine engineer", "07700 900442"),
    (5, "Demelza Hart", "Office manager", "01326 555100"),
    (6, "Luke Chenoweth", "Rigger", "07700 900579"),
    (7, "Sam Oates", "Yard hand", "07700 900631"),
]
# title, first, last; namesakes on purpose: Mrs Anne and Mr Alan Trevail
OWNERS = [
    ("Mrs", "Anne", "Trevail"),
    ("Mr", "Alan", "Trevail"),
    ("Mr", "Geoffrey", "Pascoe"),
    ("Dr", "Helen", "Tregear"),
    ("Mr", "Robert", "Kitto"),
    ("Ms", "Lowenna", "Carne"),
    ("Mr", "Ian", "Rundle"),
    ("Mrs", "Jill", "Bawden"),
    ("Mr", "Stephen", "Hocking"),
    ("Mr", "Trevor", "Laity"),
    ("Ms", "Priya", "Nair"),
    ("Mr", "Colin", "Jago"),
    ("Mrs", "Morwenna", "Spargo"),
    ("Mr", "Nicholas", "Treloar"),
    ("Capt", "James", "Roskilly"),
    ("Mr", "Andrew", "Couch"),
    ("Mrs", "Susan", "Opie"),
    ("Mr", "Philip", "Eddy"),
    ("Dr", "Rhys", "Morgan"),
    ("Mr", "Keith", "Tonkin"),
    ("Ms", "Claire", "Vivian"),
    ("Mr", "Derek", "Angove"),
    ("Mrs", "Patricia", "Nance"),
    ("Mr", "Owen", "Glasson"),
    ("Mr", "Martin", "Polglase"),
    ("Ms", "Hannah", "Curnow"),
    ("Mr", "Brian", "Trewin"),
    ("Mrs", "Elaine", "Moyle"),
    ("Mr", "Graham", "Pengelly"),
    ("Mr", "Simon", "Barnicoat"),
    ("Mrs", "Ruth", "Annear"),
    ("Mr", "David", "Keast"),
    ("Mr", "Tomas", "Lindqvist"),
    ("Mrs", "Gillian", "Harvey"),
    ("Mr", "Paul", "Mitchell"),
    ("Mr", "Neil", "Rowse"),
    ("Ms", "Fiona", "Grigg"),
    ("Mr", "Karl", "Weber"),
    ("Mrs", "Joan", "Blewett"),
    ("Mr", "Roger", "Tremayne"),
    ("Mr", "Edward", "Sleeman"),
    ("Dr", "Yvonne", "Chapple"),
    ("Mr", "Michael", "Oke"),
    ("Mrs", "Carol", "Penrose"),
    ("Mr", "Victor", "Quick"),
    ("Mr", "Julian", "Hendra"),
]
TOWNS = [
    "Falmouth",
    "Penryn",
    "Truro",
    "Mylor Bridge",
    "Flushing",
    "St Mawes",
    "Redruth",
    "Helston",
    "Exeter",
    "Bristol",
    "Reading",
    "Plymouth",
]
# boat names: a namesake pair (Kittiwake) and a near-duplicate (Sea Breeze / Sea Breeze II)
BOAT_NAMES = [
    "Kittiwake",
    "Kittiwake",
    "Sea Breeze",
    "Sea Breeze II",
    "Morvoren",
    "Curlew",
    "Blue Jacket",
    "Tamarisk",
    "Serenity",
    "Halcyon",
    "Red Admiral",
    "Puffin",
    "Cormorant",
    "Lady Jane",
    "Dolly Varden",
    "Whimbrel",
    "Gannet",
    "Minnow",
    "Spindrift",
    "Tern",
    "Avocet",
    "Zephyr",
    "Marlin",
    "Windflower",
    "Morwhel",
    "Golden Hind",
    "Jenny Wren",
    "Osprey",
    "Sanderling",
    "Moonraker",
    "Kestrel",
    "Blue Moon",
    "Shearwater",
    "Pelican",
    "Otter",
    "Nimrod",
    "Carrick Lass",
    "Fulmar",
    "Stormy Petrel",
    "Dunlin",
    "Saltash Belle",
    "Teal",
    "Merlin",
    "Guillemot",
    "Firecrest",
    "Redshank",
    "Bittern",
    "Willow",
    "Skylark",
    "Plover",
]
TYPES = [
    (
        "Sailing yacht",
        ["Beneteau Oceanis", "Jeanneau Sun Odyssey", "Hallberg-Rassy", "Westerly Centaur", "Moody 33", "Contessa 32"],
        7.5,
        13.5,
    ),
    ("Motor cruiser", ["Fairline Targa", "Princess 42", "Broom 35", "Haines 32"], 8.0, 16.0),
    ("Catamaran", ["Lagoon 380", "Prout Snowgoose"], 10.5, 12.0),
    ("Fishing boat", ["Cornish Crabber", "Orkney Pilot", "Warrior 175"], 5.5, 9.0),
    ("RIB", ["Ribeye 600", "Ribcraft 5.85"], 5.0, 7.0),
]
JOB_TYPES = [
    "Lift-out and pressure wash",
    "Antifouling",
    "Engine service",
    "Rigging inspection",
    "Winterisation",
    "Electrical fault",
    "Osmosis survey",
    "Stern gland repack",
]
STATUSES = ["Completed", "Completed", "Completed", "Booked", "Quoted", "Open"]


def _phone(rnd, mobile=True):
    return f"07700 900{rnd.randint(0, 999):03d}" if mobile else f"01326 5{rnd.randint(10000, 99999):05d}"[:12]


def _berths(con, rnd):
    out = []
    for code, _n, max_loa, _p in PONTOONS:
        nums = sorted(rnd.sample(range(1, 30), BERTHS_PER[code]))
        for n in nums:
            length = round(rnd.uniform(max_loa - 5.0, max_loa) * 2) / 2
            btype = "Swinging mooring" if code == "M" else ("Hammerhead" if length >= max_loa - 0.5 else "Finger")
            if code == "E" and n % 3 == 0:
                btype = "Walk-ashore"
            fee = int(round(length * (195 if code != "M" else 95) / 5) * 5)
            con.execute("INSERT INTO berths VALUES (?,?,?,?,?)", (f"{code}{n:02d}", code, length, btype, fee))
            out.append((f"{code}{n:02d}", length))
    return out


def _owners(con, rnd):
    used, mails = set(), set()
    for i, (t, fn, ln) in enumerate(OWNERS, start=1):
        no = f"CR-{rnd.randint(1000, 2999)}"
        while no in used:
            no = f"CR-{rnd.randint(1000, 2999)}"
        used.add(no)
        mail = f"{fn.lower()}.{ln.lower()}@{rnd.choice(['btinternet.com', 'gmail.com', 'outlook.com', 'me.com'])}"
        while mail in mails:
            mail = mail.replace("@", "1@")
        mails.add(mail)
        mail = None if i % 9 == 4 else mail
        con.execute(
            "INSERT INTO owners VALUES (?,?,?,?,?,?,?,?)",
            (i, no, t, fn, ln, _phone(rnd, rnd.random() < 0.75), mail, rnd.choice(TOWNS)),
        )
    return list(range(1, len(OWNERS) + 1))


def _boats(con, rnd, berths):
    free = list(berths)
    rnd.shuffle(free)
    for bid, name in enumerate(BOAT_NAMES, start=1):
        btype, makes, lo, hi = TYPES[rnd.choice([0, 0, 0, 1, 1, 2, 3, 3, 4])]
        loa = round(rnd.uniform(lo, hi), 1)
        berth = None
        if bid % 12 != 6:  # four boats are ashore in the yard: no berth
            fit = [b for b in free if b[1] >= loa]
            if not fit:
                loa = round(min(b[1] for b in free) - 0.3, 1)
                fit = [b for b in free if b[1] >= loa]
            berth = fit[0][0]
            free.remove(fit[0])
        con.execute(
            "INSERT INTO boats VALUES (?,?,?,?,?,?,?)",
            (bid, name, btype, rnd.choice(makes), loa, rnd.randint(1972, 2023), berth),
        )
    return list(range(1, len(BOAT_NAMES) + 1))


def _ownership(con, rnd, boats, owners):
    pool = list(owners)
    rnd.shuffle(pool)
    it = iter(pool)
    for b in boats:
        con.execute("INSERT INTO boat_owners VALUES (?,?,?)", (b, next(it, None) or rnd.choice(owners), "Owner"))
    for b in rnd.sample(boats, 8):  # joint owners and a syndicate: someone else on the same boat
        held = {r[0] for r in con.execute("SELECT owner_id FROM boat_owners WHERE boat_id = ?", (b,))}
        o = rnd.choice([x for x in owners if x not in held])
        con.execute(
            "INSERT INTO boat_owners VALUES (?,?,?)", (b, o, "Syndicate member" if b % 4 == 0 else "Joint owner")
        )


def _jobs(con, rnd, boats):
    n = 3300
    for _ in range(42):
        n += rnd.randint(1, 9)
        b = rnd.choice(boats)
        job = rnd.choice(JOB_TYPES)
        status = rnd.choice(STATUSES)
        staff = None if status == "Open" else rnd.choice([2, 4, 4, 6, 6, 7])
        charge = rnd.randint(8, 240) * 5 if status == "Completed" else None
        d = f"2026-{rnd.randint(7, 10):02d}-{rnd.randint(1, 28):02d}"
        con.execute("INSERT INTO work_orders VALUES (?,?,?,?,?,?,?)", (f"WO-{n}", b, staff, d, job, charge, status))


def build(out):
    if os.path.exists(out):
        os.remove(out)
    rnd = random.Random(SEED)
    con = sqlite3.connect(out)
    con.executescript(SCHEMA)
    con.executemany("INSERT INTO pontoons VALUES (?,?,?,?)", PONTOONS)
    con.executemany("INSERT INTO staff VALUES (?,?,?,?)", STAFF)
    berths = _berths(con, rnd)
    owners = _owners(con, rnd)
    boats = _boats(con, rnd, berths)
    _ownership(con, rnd, boats, owners)
    _jobs(con, rnd, boats)
    con.commit()
    con.execute("VACUUM")
    con.close()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "marina.sqlite"))
    a = ap.parse_args(argv)
    build(a.out)


if __name__ == "__main__":
    main()
