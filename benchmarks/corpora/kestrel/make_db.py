#!/usr/bin/env python3
"""Build the Kestrel Ashby consulting-engineers database (kestrel.sqlite).

    python3 make_db.py [--out kestrel.sqlite] [--seed 2024]

An invented firm of consulting engineers around the North Sea: offices, staff, clients, a service
catalogue, projects, project teams, invoices and site visits.  Standard library only, seeded: the
rows are identical on every run (the .sqlite bytes may differ between SQLite versions).

What the schema has on purpose:
  * clients: a surrogate integer key with a unique human name (client_id, name UNIQUE);
  * offices: keyed by a short code ('K-04') that documents rarely use ("the Leeds office");
  * services: keyed by a code ('GEO-2'), named in documents by its name;
  * staff.reports_to: a self-reference; namesakes (two Kellers, two Annas, Robert Hale Sr. and Jr.),
    near-duplicate names (Katrin Meyer / Katrin Meier);
  * invoices(project_id REFERENCES projects, invoice_no, ...): a composite key holding a foreign key;
  * project_staff: an association table with its own attributes (role, hours_budgeted);
  * NULLs, dates (ISO text), money (REAL, two decimals, per-project currency), enums, and
    multi-sentence description columns (services.description, projects.description, staff.bio).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sqlite3
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))

SCHEMA = """
CREATE TABLE offices (
    office_code   TEXT PRIMARY KEY,
    city          TEXT NOT NULL UNIQUE,
    country_code  TEXT NOT NULL,
    address       TEXT NOT NULL,
    phone         TEXT,
    opened_on     TEXT NOT NULL
);
CREATE TABLE staff (
    staff_id      INTEGER PRIMARY KEY,
    honorific     TEXT,
    first_name    TEXT NOT NULL,
    last_name     TEXT NOT NULL,
    suffix        TEXT,
    job_title     TEXT NOT NULL,
    grade         TEXT NOT NULL CHECK (grade IN ('Graduate','Engineer','Senior Engineer','Associate','Director')),
    office_code   TEXT NOT NULL REFERENCES offices(office_code),
    reports_to    INTEGER REFERENCES staff(staff_id),
    hired_on      TEXT NOT NULL,
    email         TEXT NOT NULL UNIQUE,
    bio           TEXT
);
CREATE TABLE clients (
    client_id     INTEGER PRIMARY KEY,
    name          TEXT NOT NULL UNIQUE,
    sector        TEXT NOT NULL CHECK (sector IN ('Ports','Energy','Rail','Water','Property','Public')),
    country_code  TEXT NOT NULL,
    city          TEXT NOT NULL,
    contact_name  TEXT,
    contact_email TEXT,
    phone         TEXT,
    client_since  TEXT NOT NULL,
    credit_limit  REAL
);
CREATE TABLE services (
    service_code  TEXT PRIMARY KEY,
    name          TEXT NOT NULL UNIQUE,
    discipline    TEXT NOT NULL
                  CHECK (discipline IN ('Geotechnical','Structural','Marine','Environmental','Surveying')),
    day_rate      REAL NOT NULL,
    description   TEXT NOT NULL
);
CREATE TABLE projects (
    project_id    INTEGER PRIMARY KEY,
    title         TEXT NOT NULL UNIQUE,
    client_id     INTEGER NOT NULL REFERENCES clients(client_id),
    office_code   TEXT NOT NULL REFERENCES offices(office_code),
    lead_id       INTEGER NOT NULL REFERENCES staff(staff_id),
    service_code  TEXT NOT NULL REFERENCES services(service_code),
    status        TEXT NOT NULL CHECK (status IN ('proposal','active','on hold','completed','cancelled')),
    start_date    TEXT NOT NULL,
    end_date      TEXT,
    budget        REAL NOT NULL,
    currency      TEXT NOT NULL CHECK (currency IN ('EUR','GBP','SEK','NOK','DKK')),
    description   TEXT NOT NULL
);
CREATE TABLE project_staff (
    project_id     INTEGER NOT NULL REFERENCES projects(project_id),
    staff_id       INTEGER NOT NULL REFERENCES staff(staff_id),
    role           TEXT NOT NULL CHECK (role IN ('lead','engineer','reviewer','surveyor','modeller')),
    hours_budgeted INTEGER,
    PRIMARY KEY (project_id, staff_id)
);
CREATE TABLE invoices (
    project_id    INTEGER NOT NULL REFERENCES projects(project_id),
    invoice_no    INTEGER NOT NULL,
    issued_on     TEXT NOT NULL,
    amount        REAL NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('paid','open','disputed')),
    paid_on       TEXT,
    PRIMARY KEY (project_id, invoice_no)
);
CREATE TABLE site_visits (
    visit_id      INTEGER PRIMARY KEY,
    project_id    INTEGER NOT NULL REFERENCES projects(project_id),
    staff_id      INTEGER NOT NULL REFERENCES staff(staff_id),
    visit_date    TEXT NOT NULL,
    hours         REAL NOT NULL,
    finding       TEXT
);
"""

OFFICES = [  # code, city, country, address, phone, opened
    ("K-01", "Leeds", "GB", "14 Wellington Place", "+44 113 496 0140", "2004-03-01"),
    ("K-02", "Bristol", "GB", "3 Temple Quay", "+44 117 496 0312", "2009-09-14"),
    ("K-03", "Hamburg", "DE", "Großer Burstah 21", "+49 40 5550 2210", "2011-01-10"),
    ("K-04", "Aarhus", "DK", "Åboulevarden 48", "+45 8630 1177", "2013-06-03"),
    ("K-05", "Bergen", "NO", "Strandkaien 9", "+47 5530 4410", "2014-02-17"),
    ("K-06", "Malmö", "SE", "Stora Nygatan 31", None, "2016-10-03"),
    ("K-07", "Rotterdam", "NL", "Wilhelminakade 77", "+31 10 799 2650", "2018-04-09"),
    ("K-08", "Lyon", "FR", "12 Quai Saint-Antoine", "+33 4 72 10 48 90", "2021-05-25"),
]

# honorific, first, last, suffix, job title, grade, office — order gives the staff_id (1..)
STAFF = [
    ("Dr.", "Anna", "Keller", None, "Managing Director", "Director", "K-01"),
    (None, "Robert", "Hale", "Sr.", "Technical Director", "Director", "K-01"),
    (None, "Marit", "Solberg", None, "Director, Nordic Offices", "Director", "K-05"),
    (None, "Jonas", "Keller", None, "Head of Geotechnics", "Associate", "K-03"),
    (None, "Robert", "Hale", "Jr.", "Structural Engineer", "Senior Engineer", "K-02"),
    ("Dr.", "Anna", "Lindqvist", None, "Head of Environmental", "Associate", "K-06"),
    (None, "Katrin", "Meyer", None, "Senior Geotechnical Engineer", "Senior Engineer", "K-03"),
    (None, "Katrin", "Meier", None, "Marine Engineer", "Engineer", "K-07"),
    (None, "Pieter", "de Vries", None, "Head of Marine", "Associate", "K-07"),
    (None, "Søren", "Mikkelsen", None, "Office Lead Aarhus", "Associate", "K-04"),
    (None, "Ingrid", "Haugen", None, "Surveyor", "Engineer", "K-05"),
    (None, "Lars", "Haugen", None, "Senior Surveyor", "Senior Engineer", "K-05"),
    (None, "Claire", "Dubois", None, "Office Lead Lyon", "Associate", "K-08"),
    (None, "Tomás", "Ó Briain", None, "Graduate Engineer", "Graduate", "K-01"),
    (None, "Priya", "Raman", None, "Structural Engineer", "Engineer", "K-01"),
    (None, "Oliver", "Grant", None, "Senior Structural Engineer", "Senior Engineer", "K-02"),
    (None, "Henrik", "Berg", None, "Geotechnical Engineer", "Engineer", "K-04"),
    (None, "Elin", "Berg", None, "Environmental Scientist", "Engineer", "K-06"),
    (None, "Mark", "Thompson", None, "Hydrographic Surveyor", "Senior Engineer", "K-01"),
    (None, "Marc", "Thomson", None, "Marine Engineer", "Engineer", "K-08"),
    ("Dr.", "Felix", "Brandt", None, "Principal Geotechnical Engineer", "Associate", "K-03"),
    (None, "Sofie", "Jensen", None, "Graduate Engineer", "Graduate", "K-04"),
    (None, "Mette", "Jensen", None, "Environmental Scientist", "Senior Engineer", "K-04"),
    (None, "Jan", "Bakker", None, "Marine Engineer", "Senior Engineer", "K-07"),
    (None, "Femke", "Visser", None, "Graduate Engineer", "Graduate", "K-07"),
    (None, "Hugo", "Lefèvre", None, "Structural Engineer", "Engineer", "K-08"),
    (None, "Amélie", "Roux", None, "Environmental Scientist", "Engineer", "K-08"),
    (None, "Erik", "Nilsson", None, "Senior Environmental Scientist", "Senior Engineer", "K-06"),
    (None, "Johanna", "Nilsson", None, "Graduate Engineer", "Graduate", "K-06"),
    (None, "Kari", "Nordmann", None, "Marine Engineer", "Engineer", "K-05"),
    (None, "Aidan", "Walsh", None, "Geotechnical Engineer", "Engineer", "K-02"),
    (None, "Fiona", "MacLeod", None, "Senior Hydrographic Surveyor", "Senior Engineer", "K-01"),
    (None, "George", "Patel", None, "Graduate Engineer", "Graduate", "K-02"),
    (None, "Hannah", "Schulz", None, "Structural Engineer", "Engineer", "K-03"),
    (None, "Lukas", "Schulz", None, "Graduate Engineer", "Graduate", "K-03"),
    (None, "Nina", "Petersen", None, "Surveyor", "Engineer", "K-04"),
    (None, "Ole", "Petersen", None, "Senior Marine Engineer", "Senior Engineer", "K-05"),
    (None, "Sanne", "de Jong", None, "Environmental Scientist", "Engineer", "K-07"),
    (None, "Yusuf", "Demir", None, "Geotechnical Engineer", "Engineer", "K-03"),
    (None, "Emma", "Clarke", None, "Structural Engineer", "Engineer", "K-01"),
    (None, "Emma", "Clark", None, "Surveyor", "Engineer", "K-02"),
    (None, "Andreas", "Krüger", None, "Senior Surveyor", "Senior Engineer", "K-03"),
    (None, "Lucie", "Martin", None, "Graduate Engineer", "Graduate", "K-08"),
    (None, "Björn", "Åkesson", None, "Marine Engineer", "Engineer", "K-06"),
    (None, "Thea", "Larsen", None, "Geotechnical Engineer", "Engineer", "K-05"),
    (None, "Daniel", "Okafor", None, "Senior Geotechnical Engineer", "Senior Engineer", "K-02"),
    (None, "Rosa", "Navarro", None, "Environmental Scientist", "Engineer", "K-01"),
    (None, "Willem", "Jansen", None, "Surveyor", "Engineer", "K-07"),
]

CLIENTS = [  # name, sector, country, city
    ("Port of Aberdour Authority", "Ports", "GB", "Aberdour"),
    ("Nordvik Shipping AS", "Ports", "NO", "Bergen"),
    ("Nordvik Havn KF", "Ports", "NO", "Stavanger"),
    ("Humber Estuary Ports Ltd", "Ports", "GB", "Hull"),
    ("Hafen Cuxhaven GmbH", "Ports", "DE", "Cuxhaven"),
    ("Havnen i Esbjerg A/S", "Ports", "DK", "Esbjerg"),
    ("Maasvlakte Terminal Partners BV", "Ports", "NL", "Rotterdam"),
    ("Blue Tern Offshore Wind Ltd", "Energy", "GB", "Aberdeen"),
    ("Skagerrak Vind AS", "Energy", "NO", "Kristiansand"),
    ("Windpark Helgoland GmbH", "Energy", "DE", "Bremerhaven"),
    ("Øresund Energi A/S", "Energy", "DK", "Copenhagen"),
    ("Rhône Hydro SAS", "Energy", "FR", "Lyon"),
    ("Pennine Rail Alliance", "Rail", "GB", "Leeds"),
    ("Severn Valley Railway Trust", "Rail", "GB", "Bewdley"),
    ("Nordbahn Infrastruktur GmbH", "Rail", "DE", "Hamburg"),
    ("Västra Banan AB", "Rail", "SE", "Gothenburg"),
    ("ProRail Zuid", "Rail", "NL", "Eindhoven"),
    ("Yorkshire Dales Water", "Water", "GB", "Skipton"),
    ("Wessex Reservoirs Trust", "Water", "GB", "Bath"),
    ("Hamburg Wasserwerke Nord", "Water", "DE", "Hamburg"),
    ("Aarhus Vand Service A/S", "Water", "DK", "Aarhus"),
    ("Malmö Vatten AB", "Water", "SE", "Malmö"),
    ("Eau du Grand Lyon", "Water", "FR", "Lyon"),
    ("Calder Quays Developments Ltd", "Property", "GB", "Wakefield"),
    ("Harbourside Bristol Estates", "Property", "GB", "Bristol"),
    ("Elbufer Immobilien AG", "Property", "DE", "Hamburg"),
    ("Bryggen Eiendom AS", "Property", "NO", "Bergen"),
    ("Västerhamnen Fastigheter AB", "Property", "SE", "Malmö"),
    ("Kop van Zuid Vastgoed BV", "Property", "NL", "Rotterdam"),
    ("Confluence Immobilier SA", "Property", "FR", "Lyon"),
    ("Leeds City Council", "Public", "GB", "Leeds"),
    ("Environment Agency North East", "Public", "GB", "Newcastle"),
    ("Freie und Hansestadt Hamburg LSBG", "Public", "DE", "Hamburg"),
    ("Region Midtjylland", "Public", "DK", "Viborg"),
    ("Rijkswaterstaat Zee en Delta", "Public", "NL", "Middelburg"),
    ("Statens vegvesen Vest", "Public", "NO", "Leikanger"),
]

CONTACTS = [
    "Moira Fraser",
    "Kjetil Dahl",
    "Siv Aune",
    "Gareth Lowe",
    "Uwe Tiedemann",
    "Birgit Holm",
    "Rob Verhoeven",
    "Callum Reid",
    "Eirik Strand",
    "Heike Vogt",
    "Jesper Lund",
    "Agnès Morel",
    "Ian Whitaker",
    "Sue Pritchard",
    "Matthias Ebert",
    "Karin Sjöberg",
    "Bram Willems",
    "Helen Dawson",
    "Nick Ferris",
    "Sabine Krause",
    "Anders Kjær",
    "Lena Ek",
    "Julien Faure",
    "Paul Barker",
    "Tessa Morgan",
    "Dirk Hansen",
    "Astrid Vik",
    "Maja Lind",
    "Joost Smit",
    "Camille Garnier",
    "Rachel Nunn",
    "Gordon Tait",
    "Frauke Lenz",
    "Mads Bach",
    "Ilse Dekker",
    "Per Olav Brekke",
]

SERVICES = [  # code, name, discipline, day rate (EUR), description
    (
        "GEO-1",
        "Ground investigation design",
        "Geotechnical",
        980.00,
        "Desk study, borehole and CPT scheduling and supervision of the field work. The deliverable is a "
        "factual and interpretative ground investigation report.",
    ),
    (
        "GEO-2",
        "Foundation design",
        "Geotechnical",
        1150.00,
        "Shallow and piled foundation design to Eurocode 7. Includes settlement analysis and pile load "
        "test specifications.",
    ),
    (
        "GEO-3",
        "Slope stability assessment",
        "Geotechnical",
        1080.00,
        "Limit-equilibrium and finite-element analysis of natural and engineered slopes. Monitoring "
        "proposals are included where the factor of safety is marginal.",
    ),
    (
        "STR-1",
        "Structural inspection",
        "Structural",
        890.00,
        "Visual and close-up inspection of bridges, quays and buildings. Findings are graded and "
        "photographed, with a prioritised repair schedule.",
    ),
    (
        "STR-2",
        "Quay wall design",
        "Structural",
        1240.00,
        "Design of sheet-pile, gravity and piled quay walls. Covers berthing and mooring loads, "
        "corrosion allowance and the construction sequence.",
    ),
    (
        "STR-3",
        "Bridge assessment",
        "Structural",
        1190.00,
        "Load-carrying capacity assessment of existing bridges. Strengthening options are costed "
        "where the assessment fails.",
    ),
    (
        "MAR-1",
        "Scour assessment",
        "Marine",
        1120.00,
        "Assessment of scour around piers, monopiles and quay toes. Combines bathymetric survey data "
        "with empirical and numerical methods.",
    ),
    (
        "MAR-2",
        "Coastal flood modelling",
        "Marine",
        1310.00,
        "Wave and water-level modelling for flood risk studies. Joint-probability analysis and "
        "climate-change allowances are part of every study.",
    ),
    (
        "MAR-3",
        "Dredging studies",
        "Marine",
        1060.00,
        "Capital and maintenance dredging studies, sediment sampling plans and disposal options. "
        "Volumes are checked against successive surveys.",
    ),
    (
        "ENV-1",
        "Environmental impact assessment",
        "Environmental",
        940.00,
        "Scoping, baseline surveys and the environmental statement. Consultation with the regulator is "
        "handled by the assessment lead.",
    ),
    (
        "ENV-2",
        "Contaminated land assessment",
        "Environmental",
        910.00,
        "Phase 1 and phase 2 contaminated land assessment. Remediation strategies are proposed where "
        "risks to receptors are found.",
    ),
    (
        "SUR-1",
        "Hydrographic survey",
        "Surveying",
        1020.00,
        "Multibeam and single-beam bathymetric survey from our own launch. Data are delivered as "
        "gridded surfaces and charts.",
    ),
    (
        "SUR-2",
        "Topographic survey",
        "Surveying",
        760.00,
        "GNSS and total-station topographic survey. Drone photogrammetry is offered for larger sites.",
    ),
    (
        "SUR-3",
        "Structural monitoring",
        "Surveying",
        830.00,
        "Automated monitoring of movement and tilt during construction. Alerts are sent when trigger "
        "levels are exceeded.",
    ),
]

SITES = {
    "Ports": ["quay", "berth", "harbour wall", "dock gate", "breakwater", "ro-ro ramp"],
    "Energy": ["cable landfall", "monopile array", "substation platform", "intake structure", "dam spillway"],
    "Rail": ["viaduct", "cutting", "embankment", "station footbridge", "culvert"],
    "Water": ["reservoir embankment", "treatment works", "outfall", "intake tower", "pumping station"],
    "Property": ["waterfront block", "basement", "riverside terrace", "car park deck", "pier conversion"],
    "Public": ["flood wall", "sea defence", "river embankment", "promenade", "tidal barrier"],
}
WORKS = {
    "GEO-1": "ground investigation",
    "GEO-2": "foundation design",
    "GEO-3": "slope stability study",
    "STR-1": "inspection",
    "STR-2": "quay wall design",
    "STR-3": "assessment",
    "MAR-1": "scour assessment",
    "MAR-2": "flood modelling",
    "MAR-3": "dredging study",
    "ENV-1": "EIA",
    "ENV-2": "contamination survey",
    "SUR-1": "hydrographic survey",
    "SUR-2": "topographic survey",
    "SUR-3": "movement monitoring",
}
SECTOR_SERVICES = {
    "Ports": ["STR-1", "STR-2", "MAR-1", "MAR-3", "SUR-1", "GEO-2"],
    "Energy": ["MAR-1", "GEO-1", "GEO-2", "ENV-1", "SUR-1", "SUR-3"],
    "Rail": ["STR-3", "STR-1", "GEO-3", "SUR-2", "SUR-3"],
    "Water": ["GEO-3", "ENV-2", "STR-1", "MAR-2", "SUR-2"],
    "Property": ["GEO-2", "ENV-2", "SUR-3", "STR-1", "SUR-2"],
    "Public": ["MAR-2", "ENV-1", "GEO-3", "STR-1", "SUR-2"],
}
DIAL = {"GB": "44", "NO": "47", "DE": "49", "DK": "45", "SE": "46", "NL": "31", "FR": "33"}
COUNTRY_CURRENCY = {"GB": "GBP", "SE": "SEK", "NO": "NOK", "DK": "DKK"}
FINDINGS = [
    "no defects of note",
    "spalling at the cope, photographed",
    "scour hole at pier 3 deeper than 2021",
    "settlement gauge SG4 damaged",
    "standing water behind the wall",
    "fresh cracking in the deck soffit",
    "borehole BH2 abandoned at 14 m on an obstruction",
    "tilt sensor T7 replaced",
    "anode wastage worse than expected",
    "vegetation cleared for the survey",
    None,
    None,
    None,
]


HOBBIES = ["sails", "coaches junior football", "restores old bicycles", "sings in a choir", "runs fell races"]
CONSTRAINTS = [
    "The client asked for a phased programme.",
    "Work is constrained by tidal windows.",
    "Access is by possession only.",
    "The site is live and must stay open to traffic.",
    "Previous reports by others were reviewed first.",
]
DELIVERABLES = [
    "The deliverable is a design report.",
    "Findings go to the client board.",
    "A technical note closes each phase.",
    "Monthly progress reports are required.",
]


def fold(s):
    s = unicodedata.normalize("NFKD", s.replace("ø", "o").replace("Ø", "O").replace("æ", "ae"))
    return "".join(ch for ch in s.lower() if ch.isascii() and ch.isalpha())


def iso(d):
    return d.isoformat()


def build(path, seed=2024):
    rng = random.Random(seed)
    if os.path.exists(path):
        os.remove(path)
    con = sqlite3.connect(path)
    con.executescript(SCHEMA)
    con.executemany("INSERT INTO offices VALUES (?,?,?,?,?,?)", OFFICES)

    # staff: reports_to follows the org: directors -> MD, associates -> a director, others -> a lead
    heads = {"K-01": 19, "K-02": 16, "K-03": 4, "K-04": 10, "K-05": 3, "K-06": 6, "K-07": 9, "K-08": 13}
    staff_rows = []
    for i, (hon, fn, ln, suf, title, grade, off) in enumerate(STAFF, start=1):
        if i == 1:
            rep = None
        elif grade == "Director":
            rep = 1
        elif grade == "Associate":
            rep = 3 if off in ("K-04", "K-05", "K-06") else 2
        else:
            rep = heads[off] if heads[off] != i else 2
        if i == 16:
            rep = 2
        if i == 19:
            rep = 2
        hired = dt.date(2004, 1, 5) + dt.timedelta(days=rng.randrange(0, 7000))
        if grade == "Graduate":
            hired = dt.date(2021, 9, 1) + dt.timedelta(days=rng.randrange(0, 800))
        local = (fn[0] + "." + ln.replace(" ", "").replace("Ó", "o").replace("ø", "o")).lower()
        local = (
            local.replace("ö", "o")
            .replace("ü", "u")
            .replace("è", "e")
            .replace("å", "a")
            .replace("Å".lower(), "a")
            .replace("é", "e")
        )
        email = f"{local}@kestrel-ashby.eu"
        if any(r[10] == email for r in staff_rows):
            email = f"{fn.lower()}.{local}@kestrel-ashby.eu".replace("..", ".")
        if suf:
            email = email.replace("@", "." + suf.lower().rstrip(".") + "@")
        bio = None
        if grade in ("Director", "Associate") or rng.random() < 0.35:
            years = rng.choice(["ten", "twelve", "fifteen", "twenty", "eight"])
            focus = {
                "Geo": "ground engineering for ports and rail",
                "Str": "the assessment of ageing structures",
                "Mar": "coastal processes and scour",
                "Env": "environmental permitting",
                "Sur": "hydrographic and structural survey",
            }
            key = (
                "Geo"
                if "Geo" in title
                else "Str"
                if "Struct" in title
                else "Mar"
                if "Marine" in title
                else "Env"
                if "Environ" in title
                else "Sur"
                if "urvey" in title
                else rng.choice(list(focus))
            )
            bio = (
                f"{fn} has {years} years of experience in {focus[key]}. "
                f"{'He' if fn in MALE else 'She'} is a chartered member of "
                f"{rng.choice(['the ICE', 'the IStructE', 'Engineering Council', 'VDI', 'IDA'])}. "
                f"Outside work {fn} {rng.choice(HOBBIES)}."
            )
        staff_rows.append((i, hon, fn, ln, suf, title, grade, off, rep, iso(hired), email, bio))
    con.executemany("INSERT INTO staff VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", staff_rows)

    client_rows = []
    for i, (name, sector, cc, city) in enumerate(CLIENTS, start=1):
        contact = CONTACTS[i - 1]
        email = (
            None
            if rng.random() < 0.2
            else (
                fold(contact.split()[0])
                + "."
                + fold(contact.split()[-1])
                + "@"
                + fold(max(name.split(), key=len))
                + ".example"
            )
        )
        phone = None if rng.random() < 0.25 else f"+{DIAL[cc]} {rng.randrange(100, 999)} {rng.randrange(1000, 9999)}"
        since = dt.date(2005, 1, 1) + dt.timedelta(days=rng.randrange(0, 6000))
        credit = None if rng.random() < 0.15 else float(rng.choice([50, 75, 100, 150, 200, 250, 400, 500]) * 1000)
        client_rows.append((i, name, sector, cc, city, contact, email, phone, iso(since), credit))
    con.executemany("INSERT INTO clients VALUES (?,?,?,?,?,?,?,?,?,?)", client_rows)
    con.executemany("INSERT INTO services VALUES (?,?,?,?,?)", SERVICES)

    # projects
    office_staff = {}
    for r in staff_rows:
        office_staff.setdefault(r[7], []).append(r[0])
    country_office = {
        "GB": ["K-01", "K-02"],
        "DE": ["K-03"],
        "DK": ["K-04"],
        "NO": ["K-05"],
        "SE": ["K-06"],
        "NL": ["K-07"],
        "FR": ["K-08"],
    }
    proj_rows, titles = [], set()
    pid = 1000
    for n in range(84):
        pid += rng.randrange(1, 4)
        c = client_rows[(n * 7 + rng.randrange(0, 3)) % len(client_rows)]
        sector, cc = c[2], c[3]
        svc = rng.choice(SECTOR_SERVICES[sector])
        site = rng.choice(SITES[sector])
        place = c[4]
        title = f"{place} {site} {WORKS[svc]}"
        k = 2
        while title in titles:
            title = f"{place} {site} {WORKS[svc]} phase {k}"
            k += 1
        titles.add(title)
        office = rng.choice(country_office[cc])
        candidates = [
            s for s in office_staff[office] if staff_rows[s - 1][6] in ("Senior Engineer", "Associate", "Director")
        ]
        lead = rng.choice(candidates)
        start = dt.date(2017, 1, 2) + dt.timedelta(days=rng.randrange(0, 2400))
        status = rng.choices(["proposal", "active", "on hold", "completed", "cancelled"], [1, 4, 1, 6, 1])[0]
        if status == "completed":
            end = start + dt.timedelta(days=rng.randrange(60, 700))
        elif status == "cancelled":
            end = start + dt.timedelta(days=rng.randrange(10, 120))
        else:
            end = None
        cur = COUNTRY_CURRENCY.get(cc, "EUR")
        scale = {"EUR": 1, "GBP": 1, "SEK": 10, "NOK": 10, "DKK": 7}[cur]
        if rng.random() < 0.5:
            budget = float(rng.randrange(8, 400) * 500 * scale)
        else:
            budget = round(rng.randrange(4000, 200000) * scale + rng.randrange(0, 100) / 100, 2)
        if n % 17 == 3:
            budget = float(rng.randrange(10, 30) * 100000 * (1 if scale == 1 else scale))
        desc = (
            f"{WORKS[svc].capitalize()} for the {site} at {place}. {rng.choice(CONSTRAINTS)} {rng.choice(DELIVERABLES)}"
        )
        proj_rows.append(
            (pid, title, c[0], office, lead, svc, status, iso(start), iso(end) if end else None, budget, cur, desc)
        )
    con.executemany("INSERT INTO projects VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", proj_rows)

    ps_rows = []
    for p in proj_rows:
        team = {p[4]: "lead"}
        pool = office_staff[p[3]] + rng.sample(range(1, len(staff_rows) + 1), 4)
        for s in rng.sample(pool, min(len(pool), rng.randrange(1, 5))):
            if s not in team:
                team[s] = rng.choice(["engineer", "engineer", "reviewer", "surveyor", "modeller"])
        for s, role in sorted(team.items()):
            hours = None if rng.random() < 0.15 else rng.randrange(2, 60) * 4
            ps_rows.append((p[0], s, role, hours))
    con.executemany("INSERT INTO project_staff VALUES (?,?,?,?)", ps_rows)

    inv_rows = []
    for p in proj_rows:
        if p[6] == "proposal":
            continue
        start = dt.date.fromisoformat(p[7])
        n_inv = rng.randrange(1, 5) if p[6] != "cancelled" else 1
        for k in range(1, n_inv + 1):
            issued = start + dt.timedelta(days=30 * k + rng.randrange(0, 20))
            share = p[9] / (n_inv + rng.randrange(0, 2))
            amount = round(share * rng.uniform(0.6, 1.0), 2)
            if rng.random() < 0.3:
                amount = float(round(amount, -2))
            st = rng.choices(["paid", "open", "disputed"], [6, 2, 1])[0]
            paid = iso(issued + dt.timedelta(days=rng.randrange(14, 75))) if st == "paid" else None
            inv_rows.append((p[0], k, iso(issued), amount, st, paid))
    con.executemany("INSERT INTO invoices VALUES (?,?,?,?,?,?)", inv_rows)

    visit_rows = []
    vid = 100
    active = [p for p in proj_rows if p[6] in ("active", "completed", "on hold")]
    for _ in range(170):
        vid += 1
        p = rng.choice(active)
        team = [r[1] for r in ps_rows if r[0] == p[0]]
        s = rng.choice(team)
        day = dt.date(2021, 1, 4) + dt.timedelta(days=rng.randrange(0, 3 * 365))
        hours = rng.choice([1.5, 2.0, 3.0, 3.5, 4.0, 4.5, 6.0, 7.5, 8.0])
        visit_rows.append((vid, p[0], s, iso(day), hours, rng.choice(FINDINGS)))
    visit_rows.sort(key=lambda r: (r[3], r[0]))
    visit_rows = [(101 + i,) + r[1:] for i, r in enumerate(visit_rows)]
    con.executemany("INSERT INTO site_visits VALUES (?,?,?,?,?,?)", visit_rows)
    con.commit()
    con.close()


MALE = {
    "Robert",
    "Jonas",
    "Pieter",
    "Søren",
    "Lars",
    "Tomás",
    "Oliver",
    "Henrik",
    "Mark",
    "Marc",
    "Felix",
    "Jan",
    "Hugo",
    "Erik",
    "Aidan",
    "George",
    "Lukas",
    "Ole",
    "Yusuf",
    "Andreas",
    "Björn",
    "Daniel",
    "Willem",
}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(HERE, "kestrel.sqlite"))
    ap.add_argument("--seed", type=int, default=2024)
    a = ap.parse_args(argv)
    build(a.out, a.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
