#!/usr/bin/env python3
"""Build fernleigh.sqlite: the clinical-operations database of Fernleigh Physiotherapy, a
(fictional) network of eight physiotherapy clinics around Bristol, Bath and North Somerset.

    python3 make_db.py [--out fernleigh.sqlite]

Standard library only; seeded, so the same file contents come out every time.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sqlite3

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 2417

SCHEMA = """
CREATE TABLE clinics (
    clinic_id      INTEGER PRIMARY KEY,
    name           TEXT NOT NULL UNIQUE,
    code           TEXT NOT NULL UNIQUE,
    town           TEXT NOT NULL,
    postcode       TEXT NOT NULL,
    phone          TEXT,
    opened_on      DATE NOT NULL,
    hub_clinic_id  INTEGER REFERENCES clinics(clinic_id),
    has_hydro_pool INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE therapists (
    therapist_id  INTEGER PRIMARY KEY,
    first_name    TEXT NOT NULL,
    last_name     TEXT NOT NULL,
    email         TEXT NOT NULL UNIQUE,
    clinic_id     INTEGER NOT NULL REFERENCES clinics(clinic_id),
    supervisor_id INTEGER REFERENCES therapists(therapist_id),
    grade         TEXT NOT NULL CHECK (grade IN ('Band 5', 'Band 6', 'Band 7', 'Band 8a')),
    hcpc_number   TEXT NOT NULL UNIQUE,
    started_on    DATE NOT NULL,
    hourly_rate   NUMERIC(6, 2) NOT NULL
);
CREATE TABLE treatments (
    treatment_id    INTEGER PRIMARY KEY,
    code            TEXT NOT NULL UNIQUE,
    name            TEXT NOT NULL UNIQUE,
    category        TEXT NOT NULL CHECK (category IN ('assessment', 'manual', 'exercise', 'electro', 'aquatic')),
    fee             NUMERIC(6, 2),
    duration_min    INTEGER NOT NULL,
    description     TEXT NOT NULL,
    bookable_online INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE patients (
    patient_id    INTEGER PRIMARY KEY,
    mrn           TEXT NOT NULL UNIQUE,
    first_name    TEXT NOT NULL,
    last_name     TEXT NOT NULL,
    birth_date    DATE NOT NULL,
    town          TEXT NOT NULL,
    insurer       TEXT,
    registered_on DATE NOT NULL
);
CREATE TABLE episodes (
    episode_id      INTEGER PRIMARY KEY,
    ref             TEXT NOT NULL UNIQUE,
    patient_id      INTEGER NOT NULL REFERENCES patients(patient_id),
    therapist_id    INTEGER NOT NULL REFERENCES therapists(therapist_id),
    clinic_id       INTEGER NOT NULL REFERENCES clinics(clinic_id),
    referral_source TEXT NOT NULL CHECK (referral_source IN ('GP', 'self', 'insurer', 'consultant')),
    referred_on     DATE NOT NULL,
    discharged_on   DATE,
    condition       TEXT NOT NULL,
    outcome         TEXT CHECK (outcome IN ('goals met', 'partially met', 'self-discharged', 'referred on'))
);
CREATE TABLE sessions (
    episode_id   INTEGER NOT NULL REFERENCES episodes(episode_id),
    session_no   INTEGER NOT NULL,
    session_date DATE NOT NULL,
    treatment_id INTEGER NOT NULL REFERENCES treatments(treatment_id),
    fee_charged  NUMERIC(6, 2) NOT NULL,
    attended     INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (episode_id, session_no)
);
CREATE TABLE therapist_treatments (
    therapist_id INTEGER NOT NULL REFERENCES therapists(therapist_id),
    treatment_id INTEGER NOT NULL REFERENCES treatments(treatment_id),
    certified_on DATE,
    PRIMARY KEY (therapist_id, treatment_id)
);
"""

# id, name, code, town, postcode, phone, opened, hub, pool
CLINICS = [
    (1, "Fernleigh Physio Clifton", "CLF", "Bristol", "BS8 2PL", "0117 946 2210", "2009-04-20", None, 1),
    (2, "Fernleigh Physio Redland", "RED", "Bristol", "BS6 6QA", "0117 946 2288", "2013-09-02", 1, 0),
    (3, "Fernleigh Physio Bath Widcombe", "BWC", "Bath", "BA2 4LZ", "01225 480 315", "2011-01-10", None, 1),
    (4, "Fernleigh Physio Bath Weston", "BWS", "Bath", "BA1 4DS", "01225 480 377", "2016-06-13", 3, 0),
    (5, "Fernleigh Physio Keynsham", "KEY", "Keynsham", "BS31 1EE", None, "2019-03-04", 3, 0),
    (6, "Fernleigh Physio Weston-super-Mare", "WSM", "Weston-super-Mare", "BS23 1HT", "01934 612 904", "2012-05-14", None, 1),
    (7, "Fernleigh Physio Clevedon", "CLV", "Clevedon", "BS21 6AH", "01275 343 118", "2017-10-09", 6, 0),
    (8, "Fernleigh Physio Portishead", "POR", "Portishead", "BS20 7DL", "01275 817 450", "2021-02-15", 1, 0),
]

FIRST_F = ["Aoife", "Hannah", "Priya", "Sophie", "Grace", "Megan", "Chloe", "Nadia", "Ruth", "Eleanor",
           "Zara", "Imogen", "Laura", "Beth", "Kirsty", "Anna", "Olivia", "Fatima", "Jess", "Rosa"]
FIRST_M = ["Tom", "Ben", "Callum", "Rhys", "Oliver", "Daniel", "James", "Samir", "Owen", "Luke",
           "Marcus", "Patrick", "Joe", "Kwame", "Harry", "Adam", "Ewan", "Theo", "Nathan", "Liam"]
LAST = ["Hale", "Okafor", "Byrne", "Patel", "Whitlock", "Moreno", "Fenwick", "Carver", "Iqbal", "Lloyd",
        "Pryce", "Ashdown", "Novak", "Griffiths", "Kaur", "Tremlett", "Dunmore", "Osei", "Hughes", "Bramble",
        "Vaughan", "Sallis", "Coombes", "Rowe", "Tan", "Mbeki", "Foster", "Lacey", "Quinn", "Evans",
        "Dyer", "Hollis", "Nash", "Price", "Stone", "Wills", "Cole", "Marsh", "Reeve", "Yeo"]
TOWNS = ["Bristol"] * 6 + ["Bath"] * 4 + ["Keynsham", "Nailsea", "Clevedon", "Portishead", "Weston-super-Mare",
                                          "Radstock", "Midsomer Norton", "Yate", "Thornbury", "Saltford"]
INSURERS = ["Bupa", "AXA Health", "Vitality", "WPA", "Aviva"]

TREATMENTS = [
    # code, name, category, fee, minutes, online, description
    ("T01", "Initial assessment", "assessment", "65.00", 45, 1,
     "A full examination of the problem, your history and your goals. The physiotherapist explains the "
     "diagnosis and agrees a plan with you. Treatment usually starts in the same appointment."),
    ("T02", "Follow-up treatment", "manual", "52.00", 30, 1,
     "A standard treatment session with your physiotherapist. It may combine hands-on work, exercise "
     "and advice. Progress is reviewed at every visit."),
    ("T03", "Extended follow-up", "manual", "68.00", 45, 1,
     "A longer treatment session for complex or multi-area problems. Often booked after surgery or for "
     "two unrelated complaints."),
    ("T04", "Sports massage", "manual", "48.00", 30, 1,
     "Deep tissue massage aimed at muscle tightness and recovery from training. It is not a substitute "
     "for assessment of an injury."),
    ("T05", "Sports massage (extended)", "manual", "62.00", 60, 1,
     "The same technique as our sports massage over a full hour. Suited to endurance athletes in heavy "
     "training blocks."),
    ("T06", "Acupuncture", "electro", "55.00", 30, 0,
     "Fine sterile needles used alongside exercise to ease pain. Only therapists with an accredited "
     "course may offer it. A consent form is signed at the first session."),
    ("T07", "Shockwave therapy", "electro", "75.00", 20, 0,
     "Radial shockwave applied to stubborn tendon problems such as plantar fasciitis and tennis elbow. "
     "A course is normally three to five sessions a week apart."),
    ("T08", "Hydrotherapy session", "aquatic", None, 40, 0,
     "Exercise in a pool heated to 34 degrees. The water takes weight off painful joints. Available "
     "only at clinics with a pool."),
    ("T09", "Aquatic group class", "aquatic", "18.00", 45, 1,
     "A small group exercise class in the hydrotherapy pool. Up to six people with one physiotherapist."),
    ("T10", "Pilates rehab class", "exercise", "16.00", 50, 1,
     "Clinical Pilates in groups of up to eight. Focuses on core control and posture after back or "
     "pelvic problems."),
    ("T11", "Vestibular rehabilitation", "assessment", "72.00", 60, 0,
     "Assessment and exercises for dizziness and balance problems. Includes repositioning manoeuvres "
     "where appropriate. Please do not drive to the first appointment."),
    ("T12", "Pelvic health assessment", "assessment", "80.00", 60, 0,
     "A private one-to-one assessment of pelvic floor problems in women and men. Chaperones are "
     "available on request."),
    ("T13", "Video consultation", "assessment", "45.00", 30, 1,
     "Assessment or follow-up over a secure video link. Useful for advice and exercise progression."),
    ("T14", "Return-to-run programme", "exercise", "140.00", 90, 1,
     "Three supervised sessions with gait analysis and a written running plan. Paid once for the block."),
]

CONDITIONS = ["low back pain", "neck pain", "rotator cuff tendinopathy", "frozen shoulder", "knee osteoarthritis",
              "ACL reconstruction rehab", "ankle sprain", "plantar fasciitis", "tennis elbow", "hip replacement rehab",
              "sciatica", "Achilles tendinopathy", "whiplash", "BPPV", "pelvic girdle pain", "patellofemoral pain"]
COND_TREAT = {"BPPV": "T11", "pelvic girdle pain": "T12", "plantar fasciitis": "T07", "tennis elbow": "T07",
              "Achilles tendinopathy": "T07", "knee osteoarthritis": "T08", "hip replacement rehab": "T08",
              "low back pain": "T10", "ACL reconstruction rehab": "T14", "neck pain": "T06"}


def d(x):
    return x.isoformat()


def build(path):
    rnd = random.Random(SEED)
    if os.path.exists(path):
        os.remove(path)
    con = sqlite3.connect(path)
    con.executescript(SCHEMA)
    con.executemany("INSERT INTO clinics VALUES (?,?,?,?,?,?,?,?,?)", CLINICS)
    for i, (code, name, cat, fee, mins, online, desc) in enumerate(TREATMENTS, 1):
        con.execute("INSERT INTO treatments VALUES (?,?,?,?,?,?,?,?)", (i, code, name, cat, fee, mins, desc, online))

    # therapists: a clinical director, three hub leads, the rest report to their hub's lead (or a Band 7 at a satellite)
    names, used = [], set()
    while len(names) < 30:
        if rnd.random() < 0.55:
            fn = rnd.choice(FIRST_F)
        else:
            fn = rnd.choice(FIRST_M)
        ln = rnd.choice(LAST[:30])
        if (fn, ln) in used or ln in {n[1] for n in names}:
            continue
        used.add((fn, ln))
        names.append((fn, ln))
    hub_of = {c[0]: (c[7] or c[0]) for c in CLINICS}
    therapists = []
    clinic_seq = [1, 3, 6] + [1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 6, 1, 3, 4, 2, 8, 7]
    leads = {}
    for tid, ((fn, ln), cl) in enumerate(zip(names, [1] + clinic_seq[:29]), 1):
        if tid == 1:
            grade, sup = "Band 8a", None
        elif tid in (2, 3, 4):
            grade, sup = "Band 7", 1
            leads[cl] = tid
        else:
            grade = rnd.choice(["Band 5", "Band 6", "Band 6", "Band 7"])
            sup = leads[hub_of[cl]]
        started = dt.date(2009, 6, 1) + dt.timedelta(days=rnd.randrange(0, 15 * 365))
        if tid == 1:
            started = dt.date(2009, 4, 6)
        rate = {"Band 5": 24, "Band 6": 29, "Band 7": 35, "Band 8a": 42}[grade] + rnd.choice([0, 0.5, 1.25, 2, 3.75])
        email = f"{fn[0].lower()}.{ln.lower()}@fernleighphysio.co.uk"
        hcpc = f"PH{rnd.randrange(10000, 140000):06d}"
        therapists.append([tid, fn, ln, email, cl, sup, grade, hcpc, d(started), f"{rate:.2f}"])
    # a Band 7 at a satellite supervises the juniors there
    for t in therapists:
        if t[0] > 4 and t[4] == 5 and t[6] != "Band 7":
            sat_lead = next((u[0] for u in therapists if u[4] == 5 and u[6] == "Band 7"), None)
            if sat_lead and sat_lead != t[0]:
                t[5] = sat_lead
    con.executemany("INSERT INTO therapists VALUES (?,?,?,?,?,?,?,?,?,?)", therapists)

    # certifications: everyone does T01-T03; others by chance
    tt = []
    for t in therapists:
        for trid in range(1, 15):
            code = TREATMENTS[trid - 1][0]
            if code in ("T01", "T02", "T13"):
                ok = trid != 13 or rnd.random() < 0.4
            elif code in ("T08", "T09"):
                ok = hub_of[t[4]] == t[4] and CLINICS[t[4] - 1][8] and rnd.random() < 0.6
            else:
                ok = rnd.random() < 0.18
            if ok:
                start = dt.date.fromisoformat(t[8])
                cert = start + dt.timedelta(days=rnd.randrange(0, 900))
                tt.append((t[0], trid, None if rnd.random() < 0.08 else d(cert)))
    con.executemany("INSERT INTO therapist_treatments VALUES (?,?,?)", tt)
    certified = {}
    for tid, trid, _ in tt:
        certified.setdefault(trid, []).append(tid)

    # patients: one namesake of a therapist, and a near-duplicate pair
    patients, pused = [], set()
    for pid in range(1, 121):
        while True:
            fn = rnd.choice(FIRST_F + FIRST_M)
            ln = rnd.choice(LAST)
            if (fn, ln) not in pused and (fn, ln) not in used:
                break
        if pid == 17:
            fn, ln = therapists[5][1], therapists[5][2]  # a patient who shares a therapist's name
        if pid == 58:
            fn, ln = "Aoife", "Burne"
        if pid == 59:
            fn, ln = "Aoife", "Byrne"
        pused.add((fn, ln))
        born = dt.date(1940, 1, 1) + dt.timedelta(days=rnd.randrange(0, 64 * 365))
        reg = dt.date(2018, 1, 1) + dt.timedelta(days=rnd.randrange(0, 6 * 365))
        ins = rnd.choice(INSURERS) if rnd.random() < 0.45 else None
        patients.append((pid, f"FP-{4000 + pid * 37:06d}", fn, ln, d(born), rnd.choice(TOWNS), ins, d(reg)))
    con.executemany("INSERT INTO patients VALUES (?,?,?,?,?,?,?,?)", patients)

    by_clinic = {}
    for t in therapists:
        by_clinic.setdefault(t[4], []).append(t[0])
    episodes, sessions = [], []
    fees = {i: TREATMENTS[i - 1][3] for i in range(1, 15)}
    for eid in range(1, 161):
        pid = (eid - 1) % 120 + 1 if eid <= 120 else rnd.randrange(1, 121)
        cl = rnd.choice([1, 1, 2, 3, 3, 4, 5, 6, 6, 7, 8])
        tid = rnd.choice(by_clinic[cl])
        ref_on = dt.date(2023, 1, 3) + dt.timedelta(days=rnd.randrange(0, 700))
        cond = rnd.choice(CONDITIONS)
        src = rnd.choice(["GP", "GP", "self", "self", "insurer", "consultant"])
        n = rnd.choice([1, 2, 2, 3, 3, 3, 4])
        day = ref_on + dt.timedelta(days=rnd.randrange(3, 15))
        main = COND_TREAT.get(cond, "T02")
        main_id = int(main[1:])
        if main_id in (8, 9) and not CLINICS[cl - 1][8]:
            main_id = 2
        last = None
        for s in range(1, n + 1):
            trid = 1 if s == 1 else (main_id if rnd.random() < 0.7 else rnd.choice([2, 3, 4, 13]))
            fee = fees[trid] or "58.00"
            attended = 0 if (s > 1 and rnd.random() < 0.08) else 1
            if attended == 0:
                fee = "30.00"  # the late-cancellation charge
            sessions.append((eid, s, d(day), trid, fee, attended))
            last = day
            day = day + dt.timedelta(days=rnd.choice([7, 7, 10, 14, 14, 21]))
        if last > dt.date(2024, 11, 20) or rnd.random() < 0.1:
            dis, out = None, None
        else:
            dis = last + dt.timedelta(days=rnd.choice([0, 0, 2, 7]))
            out = rnd.choice(["goals met", "goals met", "goals met", "partially met", "self-discharged", "referred on"])
            dis = d(dis)
        ref = f"EP{ref_on.year % 100:02d}-{eid * 7 + 100:04d}"
        episodes.append((eid, ref, pid, tid, cl, src, d(ref_on), dis, cond, out))
    con.executemany("INSERT INTO episodes VALUES (?,?,?,?,?,?,?,?,?,?)", episodes)
    con.executemany("INSERT INTO sessions VALUES (?,?,?,?,?,?)", sessions)
    con.commit()
    con.close()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "fernleigh.sqlite"))
    a = ap.parse_args(argv)
    build(a.out)
    con = sqlite3.connect(a.out)
    tot = 0
    for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name"):
        n = con.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0]
        tot += n
        print(f"{t:<22}{n:>5}")
    print(f"{'total':<22}{tot:>5}")


if __name__ == "__main__":
    main()
