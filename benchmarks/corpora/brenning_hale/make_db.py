#!/usr/bin/env python3
"""Build brenning.sqlite: the project database of Brenning Hale Consulting Engineers (fictional), a
building-services and civil/structural consultancy with four offices in the South West and Wales,
as it stood on Friday 14 November 2025.

    python3 make_db.py [--out brenning.sqlite]

Standard library only; seeded, so the same rows come out every time.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sqlite3

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 4417
TODAY = dt.date(2025, 11, 14)

SCHEMA = """
CREATE TABLE offices (
    office_code   TEXT PRIMARY KEY,
    city          TEXT NOT NULL UNIQUE,
    address       TEXT NOT NULL,
    phone         TEXT,
    opened_year   INTEGER NOT NULL
);
CREATE TABLE staff (
    staff_id      INTEGER PRIMARY KEY,
    title         TEXT NOT NULL CHECK (title IN ('Mr', 'Ms', 'Mrs', 'Dr')),
    first_name    TEXT NOT NULL,
    last_name     TEXT NOT NULL,
    job_title     TEXT NOT NULL,
    grade         INTEGER NOT NULL,
    office_code   TEXT NOT NULL REFERENCES offices(office_code),
    email         TEXT NOT NULL UNIQUE,
    start_date    DATE NOT NULL,
    chartered     TEXT,
    day_rate      REAL
);
CREATE TABLE clients (
    client_id           INTEGER PRIMARY KEY,
    name                TEXT NOT NULL UNIQUE,
    sector              TEXT NOT NULL,
    town                TEXT NOT NULL,
    account_manager_id  INTEGER NOT NULL REFERENCES staff(staff_id),
    payment_terms_days  INTEGER NOT NULL
);
CREATE TABLE contacts (
    contact_id    INTEGER PRIMARY KEY,
    client_id     INTEGER NOT NULL REFERENCES clients(client_id),
    first_name    TEXT NOT NULL,
    last_name     TEXT NOT NULL,
    role          TEXT NOT NULL,
    email         TEXT NOT NULL,
    phone         TEXT
);
CREATE TABLE projects (
    project_code  TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    client_id     INTEGER NOT NULL REFERENCES clients(client_id),
    lead_id       INTEGER NOT NULL REFERENCES staff(staff_id),
    office_code   TEXT NOT NULL REFERENCES offices(office_code),
    site_town     TEXT NOT NULL,
    discipline    TEXT NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('tender', 'active', 'on hold', 'complete')),
    fee           REAL NOT NULL,
    start_date    DATE,
    end_date      DATE
);
CREATE TABLE project_staff (
    project_code  TEXT NOT NULL REFERENCES projects(project_code),
    staff_id      INTEGER NOT NULL REFERENCES staff(staff_id),
    role          TEXT NOT NULL,
    hours_budget  INTEGER NOT NULL,
    PRIMARY KEY (project_code, staff_id)
);
CREATE TABLE invoices (
    invoice_no    TEXT PRIMARY KEY,
    project_code  TEXT NOT NULL REFERENCES projects(project_code),
    amount        REAL NOT NULL,
    issued_date   DATE NOT NULL,
    paid_date     DATE
);
CREATE TABLE site_visits (
    visit_id      INTEGER PRIMARY KEY,
    project_code  TEXT NOT NULL REFERENCES projects(project_code),
    staff_id      INTEGER NOT NULL REFERENCES staff(staff_id),
    visit_date    DATE NOT NULL,
    purpose       TEXT NOT NULL
);
"""

OFFICES = [
    ("BRS", "Bristol", "4 Queen Square, Bristol BS1 4JQ", "0117 496 0321", 2004),
    ("EXE", "Exeter", "Southernhay House, 36 Southernhay East, Exeter EX1 1NP", "01392 960412", 2011),
    ("CDF", "Cardiff", "Unit 3, Bute Wharf, Cardiff CF10 5AL", "029 2018 0770", 2016),
    ("GLO", "Gloucester", "2 Docks Lane, Gloucester GL1 2EH", None, 2024),
]

# id, title, first, last, job title, grade, office, start, chartered
STAFF = [
    (1, "Mr", "Geraint", "Brenning", "Managing Director", 7, "BRS", "2004-03-01", "CEng MICE"),
    (2, "Ms", "Helen", "Hale", "Technical Director", 7, "BRS", "2005-09-12", "CEng MIStructE"),
    (3, "Dr", "Anjali", "Patel", "Associate Director", 6, "BRS", "2012-01-09", "CEng MIStructE"),
    (4, "Mr", "Arun", "Patel", "Senior Engineer", 4, "CDF", "2017-06-19", "CEng MCIBSE"),
    (5, "Ms", "Rachel", "Hughes", "Principal Engineer", 5, "EXE", "2013-04-02", "CEng MICE"),
    (6, "Mr", "Robert", "Hughes", "Engineer", 3, "CDF", "2021-09-06", None),
    (7, "Mr", "Tom", "Ashcroft", "Associate", 6, "EXE", "2011-10-03", "CEng MICE"),
    (8, "Mrs", "Siân", "Llewellyn", "Office Manager", 3, "CDF", "2016-05-03", None),
    (9, "Ms", "Kate", "Morrow", "Senior Engineer", 4, "BRS", "2016-02-15", "IEng MIStructE"),
    (10, "Mr", "Daniel", "Okafor", "Graduate Engineer", 1, "BRS", "2024-09-02", None),
    (11, "Ms", "Priya", "Raman", "Graduate Engineer", 1, "EXE", "2024-09-02", None),
    (12, "Mr", "Ewan", "Fraser", "Principal Engineer", 5, "GLO", "2009-07-20", "CEng MCIBSE"),
    (13, "Dr", "Miriam", "Cole", "Principal Engineer", 5, "BRS", "2014-11-10", "CEng MCIBSE"),
    (14, "Mr", "James", "Whitlock", "Engineer", 3, "BRS", "2020-01-13", None),
    (15, "Ms", "Ffion", "Bevan", "Senior Engineer", 4, "CDF", "2015-08-24", "CEng MICE"),
    (16, "Mr", "Luke", "Tremayne", "Engineer", 2, "EXE", "2022-09-05", None),
    (17, "Ms", "Hannah", "Osei", "Senior Technician", 3, "BRS", "2018-03-05", None),
    (18, "Mr", "Peter", "Vaughan", "Associate", 6, "CDF", "2010-05-17", "CEng MIStructE"),
    (19, "Ms", "Laura", "Kinsey", "Engineer", 2, "GLO", "2024-02-26", None),
    (20, "Mr", "Owen", "Pryce", "Senior Technician", 3, "CDF", "2012-06-11", "IEng MICE"),
    (21, "Mrs", "Carol", "Denning", "Finance Manager", 4, "BRS", "2008-01-07", None),
    (22, "Mr", "Sam", "Leckie", "Engineer", 2, "BRS", "2023-01-09", None),
    (23, "Ms", "Nadia", "Haddad", "Senior Engineer", 4, "GLO", "2019-04-01", "CEng MICE"),
    (24, "Mr", "Chris", "Yeo", "Graduate Engineer", 1, "CDF", "2025-09-01", None),
]
RATE = {1: 520.0, 2: 600.0, 3: 680.0, 4: 760.0, 5: 860.0, 6: 960.0, 7: 1100.0}
NO_RATE = {8, 21}  # not chargeable

# id, name, sector, town, account manager, payment terms
CLIENTS = [
    (1, "North Somerset Council", "local authority", "Weston-super-Mare", 3, 30),
    (2, "Clevedon Housing Association", "housing", "Weston-super-Mare", 9, 30),
    (3, "Severnside Academies Trust", "education", "Bristol", 13, 45),
    (4, "Taw Valley Developments Ltd", "developer", "Barnstaple", 7, 60),
    (5, "Cardiff Bay Leisure plc", "leisure", "Cardiff", 18, 30),
    (6, "Exe Estuary Trust", "charity", "Topsham", 5, 30),
    (7, "Gloucester Diocesan Board of Finance", "heritage", "Gloucester", 12, 45),
    (8, "Ridgeway Logistics Ltd", "industrial", "Avonmouth", 2, 60),
    (9, "Mendip Water", "utility", "Wells", 3, 30),
    (10, "St Petroc's Hospice", "healthcare", "Bodmin", 7, 30),
    (11, "Harbourside Hotels Ltd", "hospitality", "Bristol", 1, 45),
    (12, "Vale of Glamorgan Council", "local authority", "Barry", 15, 30),
    (13, "Kingsmead Schools Partnership", "education", "Bath", 9, 30),
    (14, "Porthleven Holdings", "developer", "Helston", 5, 60),
]

# id, client, first, last, role, phone (None: not given)
CONTACTS = [
    (1, 1, "Gareth", "Lomax", "Head of Property Services", "01934 888 212"),
    (2, 1, "Joanne", "Treharne", "Senior Project Manager", None),
    (3, 2, "Michelle", "Okonjo", "Asset Manager", "01275 343 090"),
    (4, 3, "Stuart", "Bramley", "Estates Director", "0117 903 4471"),
    (5, 3, "Aisha", "Karim", "Capital Projects Officer", "0117 903 4480"),
    (6, 4, "Nick", "Chugg", "Development Director", "01271 374 600"),
    (7, 5, "Bethan", "Rees", "Operations Director", "029 2046 1188"),
    (8, 5, "Llion", "Morgan", "Facilities Manager", None),
    (9, 6, "Fiona", "Lydford", "Trust Secretary", "01392 877 310"),
    (10, 7, "Revd Canon Paul", "Wintle", "Diocesan Surveyor", "01452 835 500"),
    (11, 8, "Craig", "Hollis", "Site Director", "0117 982 6600"),
    (12, 8, "Dawn", "Fenton", "Procurement Lead", None),
    (13, 9, "Alan", "Patel", "Asset Engineer", "01749 670 233"),
    (14, 10, "Ruth", "Penhallow", "Chief Executive", "01208 251 400"),
    (15, 11, "Marco", "Bellini", "Group Development Manager", "0117 929 0044"),
    (16, 12, "Sioned", "Evans", "Principal Engineer (Highways)", "01446 700 111"),
    (17, 12, "Kevin", "Doyle", "Procurement Officer", None),
    (18, 13, "Claire", "Ashworth", "Business Manager", "01225 331 870"),
    (19, 14, "Jory", "Trebilcock", "Director", "01326 560 120"),
    (20, 4, "Sally", "Huxtable", "Commercial Manager", None),
    (21, 6, "Martin", "Quick", "Chair of Trustees", None),
    (22, 9, "Zoe", "Carver", "Procurement Manager", "01749 670 250"),
]

# code, name, client, lead, office, site town, discipline, status
PROJECTS = [
    ("BH-23007", "Clevedon Pier Kiosk", 1, 9, "BRS", "Clevedon", "structural", "complete"),
    ("BH-23011", "Kingsmead Primary School Extension", 13, 3, "BRS", "Bath", "structural", "complete"),
    ("BH-23015", "Clevedon Sheltered Housing Refurbishment", 2, 13, "BRS", "Portishead", "building services", "complete"),
    ("BH-23019", "Riverside Footbridge Inspection", 6, 5, "EXE", "Topsham", "civil", "complete"),
    ("BH-23022", "Avonmouth Distribution Centre Drainage", 8, 2, "BRS", "Avonmouth", "drainage", "complete"),
    ("BH-23026", "Bay Leisure Pool Plant Replacement", 5, 4, "CDF", "Cardiff", "building services", "complete"),
    ("BH-24002", "Riverside Footbridge Repairs", 6, 5, "EXE", "Topsham", "civil", "active"),
    ("BH-24005", "Weston Seafront Shelters", 1, 9, "BRS", "Weston-super-Mare", "structural", "complete"),
    ("BH-24009", "Bridgwater Academy Science Block", 3, 3, "BRS", "Bridgwater", "structural", "active"),
    ("BH-24013", "Fremington Quay Housing", 4, 7, "EXE", "Fremington", "civil", "active"),
    ("BH-24016", "Gloucester Cathedral Close Lighting", 7, 12, "GLO", "Gloucester", "building services", "active"),
    ("BH-24018", "Barry Island Promenade Drainage", 12, 15, "CDF", "Barry", "drainage", "complete"),
    ("BH-24021", "Wells Treatment Works Access Road", 9, 7, "EXE", "Wells", "civil", "on hold"),
    ("BH-24024", "Harbourside Hotel Plant Room", 11, 13, "BRS", "Bristol", "building services", "active"),
    ("BH-24027", "Portishead Marina Car Park", 1, 14, "BRS", "Portishead", "civil", "complete"),
    ("BH-24030", "Cheddar Reservoir Valve House", 9, 18, "CDF", "Cheddar", "structural", "active"),
    ("BH-24033", "Penarth Pavilion Heating", 12, 4, "CDF", "Penarth", "building services", "complete"),
    ("BH-25001", "Bodmin Hospice Day Unit", 10, 7, "EXE", "Bodmin", "structural", "active"),
    ("BH-25004", "Kingsmead Primary School Extension Phase 2", 13, 3, "BRS", "Bath", "structural", "active"),
    ("BH-25006", "Clevedon Seafront Railings", 1, 9, "BRS", "Clevedon", "structural", "active"),
    ("BH-25008", "Cardiff Bay Ice Rink Dehumidification", 5, 4, "CDF", "Cardiff", "building services", "active"),
    ("BH-25010", "Tewkesbury Vicarage Roof", 7, 23, "GLO", "Tewkesbury", "structural", "active"),
    ("BH-25012", "Avonmouth Yard 4 Slab", 8, 14, "BRS", "Avonmouth", "structural", "on hold"),
    ("BH-25014", "Porthleven Harbour Flats", 14, 5, "EXE", "Porthleven", "civil", "active"),
    ("BH-25017", "Topsham Museum Boiler Replacement", 6, 13, "BRS", "Topsham", "building services", "tender"),
    ("BH-25019", "Llantwit Major Beach Steps", 12, 15, "CDF", "Llantwit Major", "civil", "tender"),
    ("BH-25021", "Stroud Road School Ventilation", 3, 12, "GLO", "Gloucester", "building services", "tender"),
    ("BH-25023", "Barnstaple Retail Park Drainage", 4, 16, "EXE", "Barnstaple", "drainage", "tender"),
    ("BH-25025", "Cirencester Deanery Survey", 7, 23, "GLO", "Cirencester", "structural", "tender"),
    ("BH-25027", "Bristol Harbourside Hotel Façade", 11, 2, "BRS", "Bristol", "structural", "tender"),
]

PURPOSES = ["condition survey", "progress meeting", "inspection", "snagging", "CCTV drainage survey",
            "witness testing", "setting-out check"]


def build(out):
    rnd = random.Random(SEED)
    if os.path.exists(out):
        os.remove(out)
    con = sqlite3.connect(out)
    con.executescript(SCHEMA)
    con.executemany("INSERT INTO offices VALUES (?,?,?,?,?)", OFFICES)
    for sid, t, fn, ln, job, g, off, start, ch in STAFF:
        email = f"{fn.replace('â', 'a').lower()}.{ln.lower()}@brenninghale.co.uk"
        rate = None if sid in NO_RATE else RATE[g]
        con.execute("INSERT INTO staff VALUES (?,?,?,?,?,?,?,?,?,?,?)", (sid, t, fn, ln, job, g, off, email, start, ch,
                                                                          rate))
    con.executemany("INSERT INTO clients VALUES (?,?,?,?,?,?)", CLIENTS)
    domains = {1: "n-somerset.gov.uk", 2: "clevedonha.org.uk", 3: "severnside.org.uk", 4: "tawvalleydev.co.uk",
               5: "cardiffbayleisure.co.uk", 6: "exeestuarytrust.org", 7: "glosdioc.org.uk", 8: "ridgewaylogistics.com",
               9: "mendipwater.co.uk", 10: "stpetrocs.org.uk", 11: "harbourside-hotels.co.uk", 12: "valeofglamorgan.gov.uk",
               13: "kingsmeadschools.org.uk", 14: "porthleven-holdings.co.uk"}
    for cid, client, fn, ln, role, phone in CONTACTS:
        email = f"{fn.split()[-1][0].lower()}.{ln.lower()}@{domains[client]}"
        con.execute("INSERT INTO contacts VALUES (?,?,?,?,?,?,?)", (cid, client, fn, ln, role, email, phone))
    staff_by_office = {}
    for s in STAFF:
        if s[0] not in NO_RATE:
            staff_by_office.setdefault(s[6], []).append(s[0])
    vid = 100
    inv_no = 4100
    visits, invoices = [], []
    for code, name, client, lead, off, town, disc, status in PROJECTS:
        year = 2000 + int(code[3:5])
        fee = round(rnd.randint(60, 900) * 50.0 + (0 if rnd.random() < 0.8 else 25.0), 2)
        if status == "tender":
            start = end = None
        else:
            start = dt.date(year, rnd.randint(1, 10 if year < 2025 else 9), rnd.randint(1, 28))
            if year == 2025 and start > TODAY - dt.timedelta(days=40):
                start = TODAY - dt.timedelta(days=60 + rnd.randint(0, 30))
            end = None
            if status == "complete":
                end = start + dt.timedelta(days=rnd.randint(120, 420))
                if end > TODAY:
                    end = TODAY - dt.timedelta(days=rnd.randint(10, 60))
        con.execute("INSERT INTO projects VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    (code, name, client, lead, off, town, disc, status, fee,
                     start and start.isoformat(), end and end.isoformat()))
        # the team: the lead and two to four others, mostly from the project's office
        team = [(lead, "Project Lead", rnd.choice([40, 60, 80, 120]))]
        pool = [s for s in staff_by_office[off] if s != lead]
        pool += [s for s in (3, 13, 17, 20) if s != lead and s not in pool]
        rnd.shuffle(pool)
        for sid in pool[: rnd.randint(2, 4)]:
            job, grade = STAFF[sid - 1][4], STAFF[sid - 1][5]
            role = ("CAD Technician" if "Technician" in job else "Graduate Engineer" if grade == 1
                    else rnd.choice(["Checker", "Project Director"]) if grade >= 6
                    else rnd.choice(["Design Engineer", "Design Engineer", "Site Engineer", "Checker"]))
            team.append((sid, role, rnd.choice([20, 35, 40, 60, 75, 90, 120, 150, 200])))
        for sid, role, hours in team:
            con.execute("INSERT INTO project_staff VALUES (?,?,?,?)", (code, sid, role, hours))
        if start is None:
            continue
        # invoices: monthly-ish stages up to today (or the end)
        stop = min(end or TODAY, TODAY)
        n_inv = max(1, min(6, (stop - start).days // 75))
        left = fee
        for i in range(n_inv):
            issued = start + dt.timedelta(days=45 + i * rnd.randint(50, 80))
            if issued > TODAY:
                break
            share = round(fee * rnd.choice([0.1, 0.15, 0.2, 0.25]) + rnd.randint(0, 99) / 100, 2)
            share = min(share, round(left, 2))
            if share <= 0:
                break
            left -= share
            paid = issued + dt.timedelta(days=rnd.randint(14, 70))
            if paid > TODAY or (issued > TODAY - dt.timedelta(days=150) and rnd.random() < 0.6) or rnd.random() < 0.04:
                paid = None
            invoices.append((f"INV-{inv_no}", code, share, issued.isoformat(), paid and paid.isoformat()))
            inv_no += rnd.randint(1, 9)
        # site visits
        for _ in range(rnd.randint(1, 3)):
            d = start + dt.timedelta(days=rnd.randint(10, max(11, (stop - start).days)))
            who = rnd.choice([s for s, _, _ in team])
            visits.append((vid, code, who, min(d, TODAY).isoformat(), rnd.choice(PURPOSES)))
            vid += rnd.randint(1, 4)
    invoices.sort(key=lambda r: r[3])
    # renumber in issue order so numbers rise with dates
    inv = []
    n = 4100
    for r in invoices:
        inv.append((f"INV-{n}",) + r[1:])
        n += 1 + (n % 3 == 0)
    con.executemany("INSERT INTO invoices VALUES (?,?,?,?,?)", inv)
    con.executemany("INSERT INTO site_visits VALUES (?,?,?,?,?)", visits)
    con.commit()
    con.execute("VACUUM")
    con.close()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "brenning.sqlite"))
    a = ap.parse_args(argv)
    build(a.out)


if __name__ == "__main__":
    main()
