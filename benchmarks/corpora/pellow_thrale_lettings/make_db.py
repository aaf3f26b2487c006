#!/usr/bin/env python3
"""Build pellow.sqlite: the lettings book of the (fictional) Pellow & Thrale residential letting agency.

    python3 make_db.py [--out pellow.sqlite]

Three branches, the landlords whose properties the agency lets or manages, the properties, tenants,
tenancies and who is on each, three months of rent received (July to September 2026), the approved
contractors and the repair jobs raised.  Seeded, deterministic, standard library only.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 6203
MONTHS = ["2026-07", "2026-08", "2026-09"]

SCHEMA = """
CREATE TABLE branches (
    branch_code TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    town        TEXT NOT NULL,
    phone       TEXT NOT NULL,
    manager     TEXT NOT NULL
);
CREATE TABLE landlords (
    landlord_id   INTEGER PRIMARY KEY,
    account_ref   TEXT NOT NULL UNIQUE,
    title         TEXT NOT NULL,
    first_name    TEXT NOT NULL,
    last_name     TEXT NOT NULL,
    phone         TEXT NOT NULL,
    email         TEXT,
    service_level TEXT NOT NULL,
    branch_code   TEXT NOT NULL REFERENCES branches(branch_code)
);
CREATE TABLE properties (
    property_ref  TEXT PRIMARY KEY,
    address       TEXT NOT NULL,
    town          TEXT NOT NULL,
    postcode      TEXT NOT NULL,
    property_type TEXT NOT NULL,
    bedrooms      INTEGER NOT NULL,
    epc_rating    TEXT,
    landlord_id   INTEGER NOT NULL REFERENCES landlords(landlord_id),
    branch_code   TEXT NOT NULL REFERENCES branches(branch_code)
);
CREATE TABLE tenants (
    tenant_id  INTEGER PRIMARY KEY,
    first_name TEXT NOT NULL,
    last_name  TEXT NOT NULL,
    phone      TEXT NOT NULL,
    email      TEXT NOT NULL
);
CREATE TABLE tenancies (
    tenancy_ref    TEXT PRIMARY KEY,
    property_ref   TEXT NOT NULL REFERENCES properties(property_ref),
    start_date     TEXT NOT NULL,
    end_date       TEXT,
    rent_pcm       INTEGER NOT NULL,
    deposit        INTEGER NOT NULL,
    deposit_scheme TEXT NOT NULL,
    status         TEXT NOT NULL
);
CREATE TABLE tenancy_tenants (
    tenancy_ref TEXT NOT NULL REFERENCES tenancies(tenancy_ref),
    tenant_id   INTEGER NOT NULL REFERENCES tenants(tenant_id),
    role        TEXT NOT NULL,
    PRIMARY KEY (tenancy_ref, tenant_id)
);
CREATE TABLE rent_payments (
    tenancy_ref TEXT NOT NULL REFERENCES tenancies(tenancy_ref),
    due_month   TEXT NOT NULL,
    amount_paid INTEGER NOT NULL,
    paid_date   TEXT,
    method      TEXT,
    PRIMARY KEY (tenancy_ref, due_month)
);
CREATE TABLE contractors (
    contractor_id INTEGER PRIMARY KEY,
    name          TEXT NOT NULL,
    trade         TEXT NOT NULL,
    phone         TEXT NOT NULL,
    gas_safe_no   TEXT
);
CREATE TABLE repairs (
    job_no        TEXT PRIMARY KEY,
    property_ref  TEXT NOT NULL REFERENCES properties(property_ref),
    contractor_id INTEGER REFERENCES contractors(contractor_id),
    reported_date TEXT NOT NULL,
    category      TEXT NOT NULL,
    priority      TEXT NOT NULL,
    cost          INTEGER,
    status        TEXT NOT NULL
);
"""

BRANCHES = [
    ("MRB", "Marbury", "Marbury", "01632 960114", "Gail Ormerod"),
    ("CSN", "Cossington", "Cossington", "01632 960388", "Ravi Mistry"),
    ("HLT", "Hallet Green", "Hallet Green", "01632 960725", "Bernadette Quayle"),
]
# the towns a branch lets in: near-duplicates on purpose (Marbury / Little Marbury, Cossington / Cossington Magna)
TOWNS = {
    "MRB": ["Marbury", "Marbury", "Marbury", "Little Marbury"],
    "CSN": ["Cossington", "Cossington", "Cossington Magna"],
    "HLT": ["Hallet Green", "Hallet Green", "Stoke Hallet"],
}
POST = {
    "Marbury": "MB",
    "Little Marbury": "MB",
    "Cossington": "CN",
    "Cossington Magna": "CN",
    "Hallet Green": "HG",
    "Stoke Hallet": "HG",
}
LEVELS = ["Fully managed", "Fully managed", "Rent collection", "Let only"]
# title, first, last: namesakes (two D. Hartleys; two Okafors)
LANDLORDS = [
    ("Mr", "David", "Hartley"),
    ("Mr", "Dennis", "Hartley"),
    ("Mrs", "Pauline", "Okafor"),
    ("Dr", "Emeka", "Okafor"),
    ("Ms", "Judith", "Fairclough"),
    ("Mr", "Graham", "Tulley"),
    ("Mrs", "Anjali", "Sethi"),
    ("Mr", "Colin", "Pryce"),
    ("Miss", "Harriet", "Lomax"),
    ("Mr", "Yusuf", "Demir"),
    ("Mrs", "Sheila", "Brannigan"),
    ("Mr", "Owen", "Llewellyn"),
    ("Ms", "Karen", "Whitlock"),
    ("Mr", "Marcus", "Stavely"),
    ("Mrs", "Irene", "Coombes"),
    ("Mr", "Tariq", "Hussain"),
    ("Dr", "Fiona", "McAllister"),
    ("Mr", "Peter", "Ridout"),
    ("Mrs", "Gwen", "Tranter"),
    ("Mr", "Alan", "Fensome"),
    ("Ms", "Bethany", "Caldwell"),
    ("Mr", "Roger", "Ashdown"),
    ("Mrs", "Lorna", "Kettle"),
    ("Mr", "Nigel", "Pargeter"),
]
STREETS = [
    "Orchard Close",
    "Mill Street",
    "Station Road",
    "Church Lane",
    "Victoria Terrace",
    "Kingsway",
    "Albert Road",
    "Beech Avenue",
    "Quarry Lane",
    "The Crescent",
    "Wharf Street",
    "Foundry Row",
    "Sycamore Drive",
    "Nelson Street",
    "Gorse Way",
    "Market Place",
    "Tanners Yard",
    "Linden Grove",
    "Brook Street",
    "Chapel Walk",
]
TYPES = [
    ("flat", 1, 2),
    ("flat", 1, 2),
    ("terraced house", 2, 3),
    ("semi-detached house", 3, 4),
    ("detached house", 3, 5),
    ("maisonette", 2, 2),
    ("bungalow", 2, 3),
    ("studio", 0, 0),
]
FIRST = [
    "Nasreen",
    "Shirin",
    "Daniel",
    "Chloe",
    "Liam",
    "Aisha",
    "Tomasz",
    "Megan",
    "Ryan",
    "Priya",
    "Kieran",
    "Holly",
    "Marek",
    "Zainab",
    "Callum",
    "Jade",
    "Oluwaseun",
    "Ellie",
    "Gareth",
    "Sinead",
    "Connor",
    "Mia",
    "Hassan",
    "Rosie",
    "Stuart",
    "Leanne",
    "Ionut",
    "Fatima",
    "Jordan",
    "Amber",
    "Wesley",
    "Lucy",
    "Dmitri",
    "Kirsty",
    "Ahmed",
    "Bethan",
    "Samuel",
    "Olivia",
    "Patrick",
    "Grace",
]
LAST = [
    "Begum",
    "Price",
    "Clarke",
    "Nowak",
    "Walsh",
    "Ahmed",
    "Kowalski",
    "Evans",
    "Doyle",
    "Sharma",
    "Flynn",
    "Turner",
    "Wiśniewski",
    "Hussein",
    "Reid",
    "Patel",
    "Adebayo",
    "Marsh",
    "Howells",
    "Byrne",
    "Gallagher",
    "Moss",
    "Rahimi",
    "Sutton",
    "Mackie",
    "Holt",
    "Popescu",
    "Khan",
    "Brooks",
    "Lister",
]
CONTRACTORS = [
    (1, "Hartley Plumbing", "Plumbing", "07700 900311", None),
    (2, "Brightwire Electrical", "Electrical", "07700 900457", None),
    (3, "K. Ferris Gas Services", "Gas & heating", "07700 900128", "541207"),
    (4, "Cossington Roofing Co.", "Roofing", "01632 960842", None),
    (5, "Dampfix Marbury", "Damp & mould", "01632 960219", None),
    (6, "A1 Locks & Glazing", "Locks & glazing", "07700 900674", None),
    (7, "Pennant Property Maintenance", "General maintenance", "07700 900905", None),
    (8, "Thermaflow Heating", "Gas & heating", "07700 900736", "587344"),
    (9, "Greenacre Pest Control", "Pest control", "01632 960561", None),
]
CATEGORY_TRADE = {
    "Plumbing": [1],
    "Electrical": [2],
    "Heating": [3, 8],
    "Roofing": [4],
    "Damp": [5],
    "Locks": [6],
    "General": [7],
    "Pests": [9],
}
SCHEMES = ["DPS", "TDS", "mydeposits"]
LETTERS = "ABDEFGHJLNPQRSTUWXY"
MAIL_HOSTS = ["gmail.com", "hotmail.co.uk", "yahoo.co.uk", "icloud.com"]


def _phone(rnd, mobile=True):
    return f"07700 900{rnd.randint(0, 999):03d}" if mobile else f"01632 96{rnd.randint(0, 9999):04d}"


def _date(rnd, y0, y1):
    y = rnd.randint(y0, y1)
    return f"{y}-{rnd.randint(1, 12):02d}-{rnd.randint(1, 28):02d}"


def _add_months(d, n):
    y, m, day = (int(x) for x in d.split("-"))
    m += n
    y += (m - 1) // 12
    m = (m - 1) % 12 + 1
    return f"{y}-{m:02d}-{day:02d}"


def _landlords(con, rnd):
    codes = ["MRB"] * 9 + ["CSN"] * 8 + ["HLT"] * 7
    rnd.shuffle(codes)
    used, mails = set(), set()
    for i, (t, fn, ln) in enumerate(LANDLORDS, start=1):
        ref = f"LL-{rnd.randint(100, 999):04d}"
        while ref in used:
            ref = f"LL-{rnd.randint(100, 999):04d}"
        used.add(ref)
        email = f"{fn[0].lower()}{ln.lower()}@{rnd.choice(['btinternet.com', 'gmail.com', 'outlook.com'])}"
        if email in mails:  # the second D. Hartley
            email = email.replace("@", "1@")
        mails.add(email)
        email = None if i % 6 == 5 else email
        con.execute(
            "INSERT INTO landlords VALUES (?,?,?,?,?,?,?,?,?)",
            (i, ref, t, fn, ln, _phone(rnd, rnd.random() < 0.7), email, rnd.choice(LEVELS), codes[i - 1]),
        )
    return [(i, codes[i - 1]) for i in range(1, len(LANDLORDS) + 1)]


def _properties(con, rnd, landlords):
    refs, addrs = [], set()
    counter = {"MRB": 10, "CSN": 10, "HLT": 10}
    owners = [lid for lid, _ in landlords] + [rnd.choice(landlords)[0] for _ in range(18)]
    # a near-duplicate pair on purpose: 14 and 41 Orchard Close; Flat 2 and Flat 3, 9 Mill Street
    forced = ["14 Orchard Close", "41 Orchard Close", "Flat 2, 9 Mill Street", "Flat 3, 9 Mill Street"]
    for k, lid in enumerate(owners):
        br = dict(landlords)[lid]
        if k < len(forced):
            br = "MRB"
        counter[br] += rnd.randint(1, 9)
        ref = f"{br}-{counter[br]:03d}"
        town = "Marbury" if k < len(forced) else rnd.choice(TOWNS[br])
        typ, lo, hi = rnd.choice(TYPES)
        if k < len(forced):
            addr = forced[k]
            typ, lo, hi = ("flat", 1, 2) if "Flat" in addr else ("terraced house", 2, 3)
        else:
            addr = f"{rnd.randint(1, 88)} {rnd.choice(STREETS)}"
            if typ in ("flat", "studio", "maisonette"):
                addr = f"Flat {rnd.randint(1, 8)}, {addr}"
            while addr in addrs:
                addr = f"{rnd.randint(1, 88)} {rnd.choice(STREETS)}"
        addrs.add(addr)
        pc = f"{POST[town]}{rnd.randint(1, 9)} {rnd.randint(1, 9)}{rnd.choice(LETTERS)}{rnd.choice(LETTERS)}"
        epc = None if k % 11 == 7 else rnd.choice("BCCCDDDE")
        con.execute(
            "INSERT INTO properties VALUES (?,?,?,?,?,?,?,?,?)",
            (ref, addr, town, pc, typ, rnd.randint(lo, hi), epc, lid, br),
        )
        refs.append((ref, br))
    return refs


def _tenants(con, rnd, n):
    names = set()
    out = []
    for tid in range(1, n + 1):
        fn, ln = rnd.choice(FIRST), rnd.choice(LAST)
        if tid == n:  # a namesake on purpose: a second Daniel Price
            fn, ln = "Daniel", "Price"
        elif tid == 3:
            fn, ln = "Daniel", "Price"
        while (fn, ln) in names and tid not in (3, n):
            fn, ln = rnd.choice(FIRST), rnd.choice(LAST)
        names.add((fn, ln))
        mail = f"{fn.lower()}.{ln.lower().replace('ś', 's')}{rnd.randint(1, 99)}@{rnd.choice(MAIL_HOSTS)}"
        con.execute("INSERT INTO tenants VALUES (?,?,?,?,?)", (tid, fn, ln, _phone(rnd), mail))
        out.append(tid)
    return out


def _tenancies(con, rnd, props):
    """38 current tenancies (some on notice), 4 vacant properties, 4 ended tenancies before a current one."""
    tenants = list(range(1, 61))
    rnd.shuffle(tenants)
    n = 2200
    current, ended = [], []
    let = props[:-4]
    for k, (pref, _br) in enumerate(let):
        beds = con.execute("SELECT bedrooms FROM properties WHERE property_ref = ?", (pref,)).fetchone()[0]
        rent = 475 + 225 * max(beds, 0) + rnd.randint(0, 12) * 25
        hist = k % 9 == 4
        if hist:
            n += rnd.randint(1, 7)
            s = _date(rnd, 2021, 2023)
            e = _add_months(s, rnd.choice([12, 18, 24]))
            ref = f"T-{n}"
            con.execute(
                "INSERT INTO tenancies VALUES (?,?,?,?,?,?,?,?)",
                (ref, pref, s, e, rent - 75, (rent - 75) * 12 // 52 * 5, rnd.choice(SCHEMES), "ended"),
            )
            ended.append(ref)
        n += rnd.randint(1, 7)
        ref = f"T-{n}"
        s = _date(rnd, 2023, 2026) if not hist else _date(rnd, 2025, 2026)
        if s > "2026-06-28":
            s = "2026-05" + s[7:]
        periodic = rnd.random() < 0.3
        e = None if periodic else _add_months(s, rnd.choice([12, 12, 24]))
        while e is not None and e < "2026-10-01":
            e = _add_months(e, 12)
        status = "notice given" if k % 8 == 6 else "current"
        con.execute(
            "INSERT INTO tenancies VALUES (?,?,?,?,?,?,?,?)",
            (ref, pref, s, e, rent, rent * 12 // 52 * 5, rnd.choice(SCHEMES), status),
        )
        current.append((ref, rent))
    # who is on each: the lead, sometimes a joint tenant, rarely a permitted occupier
    pool = iter(tenants)
    for ref in [r for r, _ in current] + ended:
        con.execute("INSERT INTO tenancy_tenants VALUES (?,?,?)", (ref, next(pool), "Lead tenant"))
    left = list(pool)
    targets = [r for r, _ in current]
    rnd.shuffle(targets)
    for i, tid in enumerate(left):
        con.execute(
            "INSERT INTO tenancy_tenants VALUES (?,?,?)",
            (targets[i], tid, "Permitted occupier" if i % 5 == 4 else "Joint tenant"),
        )
    return current


def _rent(con, rnd, current):
    methods = ["Standing order"] * 5 + ["Bank transfer", "Bank transfer", "Universal Credit", "Card"]
    for ref, rent in current:
        method = rnd.choice(methods)
        day = rnd.randint(1, 5)
        for m in MONTHS:
            r = rnd.random()
            if r < 0.06:
                con.execute("INSERT INTO rent_payments VALUES (?,?,?,?,?)", (ref, m, 0, None, None))
                continue
            amount = rent if r > 0.14 else rent - rnd.randint(2, 8) * 50
            d = min(28, day + (rnd.randint(3, 16) if r < 0.2 else rnd.randint(0, 2)))
            con.execute("INSERT INTO rent_payments VALUES (?,?,?,?,?)", (ref, m, amount, f"{m}-{d:02d}", method))


def _repairs(con, rnd, props):
    cats = list(CATEGORY_TRADE)
    n = 5480
    for _ in range(36):
        pref = rnd.choice(props)[0]
        n += rnd.randint(1, 12)
        cat = rnd.choice(cats)
        pri = rnd.choice(["Routine", "Routine", "Urgent", "Emergency"])
        status = rnd.choice(["Completed", "Completed", "Completed", "Booked", "Awaiting quote", "Open"])
        con_id = None if status == "Open" else rnd.choice(CATEGORY_TRADE[cat])
        cost = rnd.randint(4, 120) * 5 if status == "Completed" else None
        d = f"2026-{rnd.randint(6, 9):02d}-{rnd.randint(1, 28):02d}"
        con.execute("INSERT INTO repairs VALUES (?,?,?,?,?,?,?,?)", (f"J-{n}", pref, con_id, d, cat, pri, cost, status))


def build(out):
    if os.path.exists(out):
        os.remove(out)
    rnd = random.Random(SEED)
    con = sqlite3.connect(out)
    con.executescript(SCHEMA)
    con.executemany("INSERT INTO branches VALUES (?,?,?,?,?)", BRANCHES)
    landlords = _landlords(con, rnd)
    props = _properties(con, rnd, landlords)
    _tenants(con, rnd, 60)
    current = _tenancies(con, rnd, props)
    _rent(con, rnd, current)
    con.executemany("INSERT INTO contractors VALUES (?,?,?,?,?)", CONTRACTORS)
    _repairs(con, rnd, props)
    con.commit()
    con.execute("VACUUM")
    con.close()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "pellow.sqlite"))
    a = ap.parse_args(argv)
    build(a.out)


if __name__ == "__main__":
    main()
