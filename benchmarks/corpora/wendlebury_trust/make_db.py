#!/usr/bin/env python3
"""Build wendlebury.sqlite: the outpatient services of the (fictional) Wendlebury Hospitals NHS Trust.

    python3 make_db.py [--out wendlebury.sqlite]

No patients and no personal health data: sites, specialties, clinicians, referral services, clinics,
monthly waiting-time figures per clinic, medical secretaries and the teams they support.  Seeded,
deterministic, standard library only.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 4127
MONTHS = ["2026-04", "2026-05", "2026-06", "2026-07", "2026-08", "2026-09"]

SCHEMA = """
CREATE TABLE sites (
    site_code   TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    town        TEXT NOT NULL,
    site_type   TEXT NOT NULL,
    postcode    TEXT NOT NULL
);
CREATE TABLE specialties (
    specialty_code TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    division       TEXT NOT NULL
);
CREATE TABLE clinicians (
    clinician_id   INTEGER PRIMARY KEY,
    title          TEXT NOT NULL,
    first_name     TEXT NOT NULL,
    last_name      TEXT NOT NULL,
    grade          TEXT NOT NULL,
    specialty_code TEXT NOT NULL REFERENCES specialties(specialty_code),
    gmc_number     TEXT,
    base_site      TEXT NOT NULL REFERENCES sites(site_code)
);
CREATE TABLE services (
    service_id     INTEGER PRIMARY KEY,
    specialty_code TEXT NOT NULL REFERENCES specialties(specialty_code),
    name           TEXT NOT NULL,
    target_weeks   INTEGER NOT NULL,
    criteria       TEXT NOT NULL
);
CREATE TABLE clinics (
    clinic_code     TEXT PRIMARY KEY,
    name            TEXT NOT NULL,
    specialty_code  TEXT NOT NULL REFERENCES specialties(specialty_code),
    site_code       TEXT NOT NULL REFERENCES sites(site_code),
    room            TEXT NOT NULL,
    weekday         TEXT NOT NULL,
    start_time      TEXT NOT NULL,
    session_minutes INTEGER NOT NULL,
    consultant_id   INTEGER REFERENCES clinicians(clinician_id),
    capacity        INTEGER
);
CREATE TABLE wait_stats (
    clinic_code       TEXT NOT NULL REFERENCES clinics(clinic_code),
    month             TEXT NOT NULL,
    waiting_count     INTEGER NOT NULL,
    median_weeks      REAL NOT NULL,
    pct_within_target REAL NOT NULL,
    PRIMARY KEY (clinic_code, month)
);
CREATE TABLE secretaries (
    secretary_id INTEGER PRIMARY KEY,
    first_name   TEXT NOT NULL,
    last_name    TEXT NOT NULL,
    extension    TEXT NOT NULL,
    email        TEXT NOT NULL
);
CREATE TABLE team_members (
    secretary_id INTEGER NOT NULL REFERENCES secretaries(secretary_id),
    clinician_id INTEGER NOT NULL REFERENCES clinicians(clinician_id),
    role         TEXT NOT NULL,
    PRIMARY KEY (secretary_id, clinician_id)
);
"""

SITES = [
    ("WGH", "Wendlebury General Hospital", "Wendlebury", "acute hospital", "WB1 4QT"),
    ("SMK", "St Mary's Hospital", "Kelmscott", "acute hospital", "KT3 9LA"),
    ("BCH", "Burnham Community Hospital", "Burnham", "community hospital", "BN7 2HD"),
    ("HHC", "Hexley Health Centre", "Hexley", "health centre", "HX2 5RW"),
    ("ORC", "Orchard Road Treatment Centre", "Wendlebury", "treatment centre", "WB3 8EN"),
    ("NDC", "Norton Down Clinic", "Norton Down", "community clinic", "ND1 6PS"),
]

SPECIALTIES = [
    ("CARD", "Cardiology", "Medicine"),
    ("DERM", "Dermatology", "Medicine"),
    ("COLO", "Colorectal Surgery", "Surgery"),
    ("TRAU", "Trauma and Orthopaedics", "Surgery"),
    ("OPHT", "Ophthalmology", "Surgery"),
    ("ENT", "Ear, Nose and Throat", "Surgery"),
    ("RHEU", "Rheumatology", "Medicine"),
    ("DIAB", "Diabetes and Endocrinology", "Medicine"),
    ("GYNA", "Gynaecology", "Women's and Children's"),
    ("UROL", "Urology", "Surgery"),
]

C, AS, SD, CNS = "Consultant", "Associate Specialist", "Specialty Doctor", "Clinical Nurse Specialist"
# id, title, first, last, grade, specialty, base site (GMC numbers are drawn; none for nurses)
CLINICIANS = [
    (1, "Dr", "Imran", "Khan", C, "CARD", "WGH"),
    (2, "Dr", "Helen", "Marsh", C, "CARD", "SMK"),
    (3, "Dr", "Tobias", "Wren", AS, "CARD", "WGH"),
    (4, "Ms", "Claire", "Dunmore", CNS, "CARD", "WGH"),
    (5, "Dr", "Sara", "Khan", C, "DERM", "SMK"),
    (6, "Dr", "Oliver", "Penrose", C, "DERM", "WGH"),
    (7, "Dr", "Amara", "Nwosu", SD, "DERM", "BCH"),
    (8, "Mr", "Anil", "Patel", C, "COLO", "WGH"),
    (9, "Miss", "Rebecca", "Thorne", C, "COLO", "SMK"),
    (10, "Mr", "Gavin", "Lyle", AS, "COLO", "WGH"),
    (11, "Mr", "David", "Oyelaran", C, "TRAU", "ORC"),
    (12, "Miss", "Fiona", "Carrick", C, "TRAU", "WGH"),
    (13, "Prof", "Martin", "Ellery", C, "TRAU", "ORC"),
    (14, "Mr", "Stefan", "Novak", SD, "TRAU", "SMK"),
    (15, "Mr", "Rhys", "Bowen", C, "OPHT", "SMK"),
    (16, "Miss", "Leila", "Haddad", C, "OPHT", "SMK"),
    (17, "Ms", "Janet", "Kirby", CNS, "OPHT", "HHC"),
    (18, "Mr", "Hugh", "Castell", C, "ENT", "WGH"),
    (19, "Miss", "Priya", "Raman", C, "ENT", "SMK"),
    (20, "Dr", "Eleanor", "Vance", C, "RHEU", "WGH"),
    (21, "Prof", "Nikhil", "Desai", C, "RHEU", "SMK"),
    (22, "Mr", "Paul", "Greaves", CNS, "RHEU", "NDC"),
    (23, "Dr", "Catherine", "Abbott", C, "DIAB", "WGH"),
    (24, "Dr", "Yusuf", "Rahman", C, "DIAB", "BCH"),
    (25, "Ms", "Megan", "Hollis", CNS, "DIAB", "BCH"),
    (26, "Miss", "Joanna", "Pike", C, "GYNA", "SMK"),
    (27, "Dr", "Ruth", "Adeyemi", C, "GYNA", "WGH"),
    (28, "Dr", "Lucy", "Fenwick", SD, "GYNA", "HHC"),
    (29, "Mr", "Christopher", "Dale", C, "UROL", "WGH"),
    (30, "Mr", "Samir", "Aziz", C, "UROL", "ORC"),
    (31, "Dr", "Hannah", "Patel", SD, "UROL", "WGH"),
    (32, "Dr", "George", "Whitby", C, "CARD", "BCH"),
]

# clinic names per specialty (near-duplicates on purpose: Chest Pain / Rapid Access Chest Pain,
# Fracture / Virtual Fracture, Glaucoma / Glaucoma Follow-up, and the "Hexley Eye Clinic" that is held at
# St Mary's in Kelmscott, not at Hexley Health Centre)
CLINIC_NAMES = {
    "CARD": [
        "Chest Pain Clinic",
        "Rapid Access Chest Pain Clinic",
        "Heart Failure Clinic",
        "General Cardiology Clinic",
        "Arrhythmia Clinic",
    ],
    "DERM": [
        "General Dermatology Clinic",
        "Skin Cancer (2WW) Clinic",
        "Eczema and Psoriasis Clinic",
        "Minor Skin Surgery List",
    ],
    "COLO": ["Colorectal Outpatients", "Lower GI (2WW) Clinic", "Pelvic Floor Clinic", "Stoma Care Clinic"],
    "TRAU": [
        "Fracture Clinic",
        "Virtual Fracture Clinic",
        "Hip and Knee Clinic",
        "Hand and Wrist Clinic",
        "Spinal Triage Clinic",
    ],
    "OPHT": ["Glaucoma Clinic", "Glaucoma Follow-up Clinic", "Hexley Eye Clinic", "Cataract Assessment Clinic"],
    "ENT": ["General ENT Clinic", "Head and Neck (2WW) Clinic", "Hearing and Balance Clinic"],
    "RHEU": ["Inflammatory Arthritis Clinic", "Osteoporosis Clinic", "Early Arthritis Clinic"],
    "DIAB": ["Diabetes Clinic", "Thyroid Clinic", "Young Adult Diabetes Clinic", "Diabetic Foot Clinic"],
    "GYNA": ["General Gynaecology Clinic", "Menopause Clinic", "Postmenopausal Bleeding (2WW) Clinic"],
    "UROL": ["General Urology Clinic", "Haematuria (2WW) Clinic", "Stone Clinic", "Prostate Assessment Clinic"],
}
SITE_CHOICE = {
    "CARD": ["WGH", "SMK", "BCH"],
    "DERM": ["SMK", "WGH", "BCH", "HHC"],
    "COLO": ["WGH", "SMK"],
    "TRAU": ["ORC", "WGH", "SMK"],
    "OPHT": ["SMK", "HHC"],
    "ENT": ["WGH", "SMK", "NDC"],
    "RHEU": ["WGH", "SMK", "NDC"],
    "DIAB": ["WGH", "BCH", "NDC"],
    "GYNA": ["SMK", "WGH", "HHC"],
    "UROL": ["WGH", "ORC"],
}
ROOMS = {
    "WGH": ["OPD 1", "OPD 2", "OPD 4", "Room 12", "Room 14"],
    "SMK": ["Clinic A", "Clinic B", "Clinic C"],
    "BCH": ["Room B12", "Room B14"],
    "HHC": ["Suite 2", "Suite 3"],
    "ORC": ["Bay 1", "Bay 2", "Bay 3"],
    "NDC": ["Room 1", "Room 2"],
}
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
STARTS = ["08:30", "09:00", "09:00", "09:30", "13:00", "13:30", "14:00"]

SERVICES = [
    ("CARD", "Rapid access chest pain", 2, "New exertional chest pain suggestive of angina; no pain at rest"),
    ("CARD", "Suspected heart failure", 6, "Breathlessness with raised NT-proBNP (400 ng/L or above)"),
    ("DERM", "Suspected skin cancer", 2, "Lesion meeting the 7-point checklist or suspected melanoma"),
    ("DERM", "Routine dermatology", 18, "Eczema, psoriasis or acne not controlled after two primary care treatments"),
    ("COLO", "Suspected lower GI cancer", 2, "FIT of 10 micrograms/g or above, or a rectal or abdominal mass"),
    (
        "COLO",
        "Pelvic floor and continence",
        18,
        "Faecal incontinence or obstructed defaecation after conservative care",
    ),
    ("TRAU", "Hip and knee pain", 18, "Symptoms for 3 months or more despite analgesia and physiotherapy"),
    ("TRAU", "Hand surgery", 13, "Carpal tunnel syndrome confirmed on nerve conduction, or trigger finger"),
    ("OPHT", "Glaucoma referral refinement", 13, "Raised intraocular pressure (above 24 mmHg) on two readings"),
    ("OPHT", "Cataract", 18, "Visual impairment affecting daily life; patient wishes to have surgery"),
    ("ENT", "Suspected head and neck cancer", 2, "Unexplained neck lump, or hoarseness lasting 3 weeks or more"),
    ("ENT", "Hearing loss (adult)", 13, "Asymmetric hearing loss or loss not helped by a hearing aid"),
    (
        "RHEU",
        "Early inflammatory arthritis",
        3,
        "Synovitis in 2 or more joints, or early morning stiffness over 30 minutes",
    ),
    ("RHEU", "Osteoporosis assessment", 13, "Fragility fracture or a FRAX score above the intervention threshold"),
    (
        "DIAB",
        "Type 1 diabetes (young adult)",
        6,
        "Age 16 to 25 with type 1 diabetes moving from the children's service",
    ),
    ("DIAB", "Thyroid disorders", 13, "Hyperthyroidism, or a thyroid nodule with abnormal function tests"),
    ("GYNA", "Postmenopausal bleeding", 2, "Any bleeding 12 months or more after the last period"),
    ("GYNA", "Menopause advice", 18, "Symptoms not controlled after two HRT regimens in primary care"),
    ("UROL", "Visible haematuria", 2, "Visible blood in the urine at age 45 or over"),
    ("UROL", "Kidney stones", 13, "Confirmed stone on CT KUB that has not passed after 4 weeks"),
]

SECRETARIES = [
    (1, "Alison", "Trent"),
    (2, "Beverley", "Osei"),
    (3, "Carl", "Mendes"),
    (4, "Dawn", "Fairley"),
    (5, "Elaine", "Brook"),
    (6, "Farah", "Iqbal"),
    (7, "Gemma", "Lowther"),
    (8, "Helen", "Quayle"),
    (9, "Ian", "Stroud"),
    (10, "Jade", "Moreno"),
]
SEC_OF_SPEC = {
    "CARD": 1,
    "DERM": 2,
    "COLO": 3,
    "TRAU": 4,
    "OPHT": 5,
    "ENT": 6,
    "RHEU": 7,
    "DIAB": 8,
    "GYNA": 9,
    "UROL": 10,
}


def build(out):
    rnd = random.Random(SEED)
    if os.path.exists(out):
        os.remove(out)
    con = sqlite3.connect(out)
    con.executescript(SCHEMA)
    con.executemany("INSERT INTO sites VALUES (?,?,?,?,?)", SITES)
    con.executemany("INSERT INTO specialties VALUES (?,?,?)", SPECIALTIES)
    gmcs = set()
    for cid, t, fn, ln, grade, spec, site in CLINICIANS:
        gmc = None
        if grade != CNS:
            while gmc is None or gmc in gmcs:
                gmc = str(rnd.randint(3000000, 7999999))
            gmcs.add(gmc)
        con.execute("INSERT INTO clinicians VALUES (?,?,?,?,?,?,?,?)", (cid, t, fn, ln, grade, spec, gmc, site))
    for i, (spec, name, weeks, crit) in enumerate(SERVICES, 1):
        con.execute("INSERT INTO services VALUES (?,?,?,?,?)", (i, spec, name, weeks, crit))
    consultants = {}
    for cid, _t, _fn, _ln, grade, spec, _site in CLINICIANS:
        if grade != CNS:
            consultants.setdefault(spec, []).append(cid)
    clinics = []
    tba = {"CARD": 4, "TRAU": 5, "GYNA": 3}  # clinics waiting for a consultant to be appointed (NULL)
    for spec, names in CLINIC_NAMES.items():
        for i, name in enumerate(names, 1):
            code = f"{spec}-{i:02d}"
            site = "SMK" if name == "Hexley Eye Clinic" else rnd.choice(SITE_CHOICE[spec])
            room = rnd.choice(ROOMS[site])
            day = rnd.choice(DAYS)
            start = rnd.choice(STARTS)
            minutes = rnd.choice([180, 210, 240, 180, 150]) if start < "12:00" else rnd.choice([180, 210, 240])
            cons = None if tba.get(spec) == i else consultants[spec][(i - 1) % len(consultants[spec])]
            cap = None if rnd.random() < 0.12 else rnd.choice([8, 10, 12, 14, 16, 18, 20, 24])
            clinics.append((code, name, spec, site, room, day, start, minutes, cons, cap))
    con.executemany("INSERT INTO clinics VALUES (?,?,?,?,?,?,?,?,?,?)", clinics)
    for code, *_ in clinics:
        base = rnd.randint(30, 380)
        med = rnd.uniform(3.0, 24.0)
        pct = rnd.uniform(55.0, 97.0)
        for m in MONTHS:
            base = max(5, base + rnd.randint(-25, 30))
            med = min(40.0, max(1.0, med + rnd.uniform(-1.5, 1.8)))
            pct = min(99.5, max(35.0, pct + rnd.uniform(-4.0, 3.5)))
            con.execute("INSERT INTO wait_stats VALUES (?,?,?,?,?)", (code, m, base, round(med, 1), round(pct, 1)))
    for sid, fn, ln in SECRETARIES:
        ext = str(4400 + sid * 7 + rnd.randint(0, 5))
        con.execute(
            "INSERT INTO secretaries VALUES (?,?,?,?,?)",
            (sid, fn, ln, ext, f"{fn.lower()}.{ln.lower()}@wendlebury.nhs.uk"),
        )
    for cid, _t, _fn, _ln, grade, spec, _site in CLINICIANS:
        sec = SEC_OF_SPEC[spec]
        con.execute(
            "INSERT INTO team_members VALUES (?,?,?)",
            (sec, cid, "Medical Secretary" if grade != CNS else "Clinic Coordinator"),
        )
        if grade == C and rnd.random() < 0.3:
            other = (sec % 10) + 1
            con.execute("INSERT INTO team_members VALUES (?,?,?)", (other, cid, "Cover Secretary"))
    con.commit()
    con.execute("VACUUM")
    con.close()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "wendlebury.sqlite"))
    a = ap.parse_args(argv)
    build(a.out)


if __name__ == "__main__":
    main()
