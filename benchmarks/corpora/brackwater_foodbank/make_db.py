#!/usr/bin/env python3
"""Build brackwater.sqlite: the records of the Brackwater & Felby Food Bank Network (fictional).

    python3 make_db.py [--out brackwater.sqlite]

Standard library only; seeded, so the same rows come out every time.

Tables
  hubs            warehouses, distribution hubs and satellite points (parent_hub_id: the hierarchy)
  hub_hours       opening sessions, keyed (hub_id, weekday)
  volunteers      people, named in documents by name or by badge number (badge_no)
  hub_volunteers  which volunteers are on which hub's rota (association, with since / shift_lead)
  donors          supermarkets, churches, schools, farms, businesses, groups, individuals
  items           the stock list (sku, name, category, unit, perishable)
  donations       one delivery or drop-off, named in documents by its receipt number
  donation_items  what a donation held (association donations x items, with quantity, best_before)
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
CREATE TABLE hubs (
    hub_id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('warehouse', 'hub', 'satellite')),
    parent_hub_id INTEGER REFERENCES hubs(hub_id),
    address TEXT NOT NULL,
    town TEXT NOT NULL,
    postcode TEXT NOT NULL,
    phone TEXT,
    opened DATE NOT NULL,
    storage_m2 REAL,
    step_free INTEGER NOT NULL,
    access_notes TEXT
);
CREATE TABLE hub_hours (
    hub_id INTEGER NOT NULL REFERENCES hubs(hub_id),
    weekday TEXT NOT NULL,
    opens TEXT NOT NULL,
    closes TEXT NOT NULL,
    PRIMARY KEY (hub_id, weekday)
);
CREATE TABLE volunteers (
    volunteer_id INTEGER PRIMARY KEY,
    badge_no TEXT NOT NULL UNIQUE,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    email TEXT UNIQUE,
    phone TEXT,
    joined DATE NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('driver', 'warehouse', 'hub', 'coordinator', 'trustee')),
    dbs_checked INTEGER NOT NULL,
    home_hub_id INTEGER REFERENCES hubs(hub_id)
);
CREATE TABLE hub_volunteers (
    hub_id INTEGER NOT NULL REFERENCES hubs(hub_id),
    volunteer_id INTEGER NOT NULL REFERENCES volunteers(volunteer_id),
    since DATE NOT NULL,
    shift_lead INTEGER NOT NULL,
    PRIMARY KEY (hub_id, volunteer_id)
);
CREATE TABLE donors (
    donor_id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('supermarket', 'church', 'school', 'business', 'farm', 'group', 'individual')),
    town TEXT NOT NULL,
    contact_name TEXT,
    since DATE NOT NULL,
    gift_aid INTEGER NOT NULL
);
CREATE TABLE items (
    item_id INTEGER PRIMARY KEY,
    sku TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL UNIQUE,
    category TEXT NOT NULL,
    unit TEXT NOT NULL,
    perishable INTEGER NOT NULL
);
CREATE TABLE donations (
    donation_id INTEGER PRIMARY KEY,
    receipt_no TEXT NOT NULL UNIQUE,
    donor_id INTEGER NOT NULL REFERENCES donors(donor_id),
    hub_id INTEGER NOT NULL REFERENCES hubs(hub_id),
    received DATE NOT NULL,
    weight_kg REAL NOT NULL,
    cash_gbp REAL,
    logged_by INTEGER REFERENCES volunteers(volunteer_id)
);
CREATE TABLE donation_items (
    donation_id INTEGER NOT NULL REFERENCES donations(donation_id),
    item_id INTEGER NOT NULL REFERENCES items(item_id),
    quantity INTEGER NOT NULL,
    best_before DATE,
    PRIMARY KEY (donation_id, item_id)
);
"""

# (name, kind, parent, address, town, postcode, opened, storage, step_free, notes)
HUBS = [
    ("Brackwater Central Warehouse", "warehouse", None, "Unit 4, Quayside Trading Estate", "Brackwater", "BW1 4QT",
     "2012-05-14", 640.0, 1,
     "Deliveries by the yard gate on Quay Lane only. Ring the bell at the roller door; the office is upstairs. "
     "Forklift in use weekday mornings, so please keep to the painted walkway."),
    ("Felby Depot", "warehouse", None, "Old Creamery, Station Road", "Felby", "FE3 2RS", "2016-09-01", 310.0, 1,
     "The depot shares a yard with the builders' merchant. Park on Station Road and walk in. "
     "Pallets can be dropped at the loading bay until 3pm."),
    ("Eastgate Hub", "hub", 1, "Eastgate Methodist Hall, 12 Mill Street", "Brackwater", "BW2 7MS", "2013-02-05",
     85.0, 1, "Entrance is round the side of the hall, next to the car park. There is a ramp and an accessible toilet."),
    ("Kingsmead Hub", "hub", 1, "Kingsmead Community Centre, Orchard Way", "Kingsmead", "KM4 1OW", "2014-06-10",
     60.0, 1, None),
    ("Tidewell Hub", "hub", 1, "The Old Police Station, 3 Harbour Road", "Tidewell", "TW8 3HR", "2015-03-17", 48.0, 0,
     "Three steps up to the front door and no ramp yet. Ring ahead and a volunteer will bring the parcel out to you."),
    ("Felby Town Hub", "hub", 2, "Felby United Reformed Church, Market Place", "Felby", "FE1 1MP", "2016-10-04",
     72.0, 1, "Use the Church Lane door. Children are welcome; there is a play corner while you wait."),
    ("Ashcombe Hub", "hub", 2, "Ashcombe Parish Rooms, Vicarage Lane", "Ashcombe", "AC2 9VL", "2017-01-19", 40.0, 1,
     None),
    ("Northope Hub", "hub", 2, "Northope Youth Centre, 27 Bridge Street", "Northope", "NH5 6BS", "2018-04-23",
     55.0, 1, "The youth centre runs a cafe in the same building. Parcels are handed out from the back hall."),
    ("St Aidan's Church Hall", "satellite", 3, "St Aidan's Road", "Brackwater", "BW3 2SA", "2019-09-03", None, 1,
     None),
    ("Marsh End Community Centre", "satellite", 3, "40 Saltings Lane", "Marsh End", "ME6 4SL", "2020-05-12", 12.0, 1,
     "Open in the lunch hour only. Ask at reception for the food bank table."),
    ("Kingsmead Library Point", "satellite", 4, "Kingsmead Library, Church Street", "Kingsmead", "KM4 2CS",
     "2021-01-14", None, 1, None),
    ("Tidewell Family Centre", "satellite", 5, "Sure Start Building, Cole Avenue", "Tidewell", "TW8 5CA",
     "2020-11-02", 8.0, 1, "Families with a referral only. Nappies and formula are kept here."),
    ("Hollins Cross Scout Hut", "satellite", 5, "Rectory Field", "Hollins Cross", "HC7 1RF", "2022-02-08", None, 0,
     "Gravel path from the road. No toilet on site."),
    ("Felby Baptist Church", "satellite", 6, "Back Lane", "Felby", "FE2 4BL", "2021-06-01", None, 1, None),
    ("Ashcombe Village Hall", "satellite", 7, "The Green", "Ashcombe", "AC1 3TG", "2022-09-20", None, 1, None),
    ("Saltley Green Surgery Point", "satellite", 8, "Saltley Green Medical Practice, Well Lane", "Saltley Green",
     "NH7 2WL", "2023-03-07", None, 1, "Run with the surgery's social prescriber. Please do not queue inside."),
    ("Wyke St Peter Pop-up", "satellite", 8, "Wyke St Peter Church Porch", "Wyke St Peter", "NH9 8CP", "2024-01-09",
     None, 0, None),
]
PHONES = {1: "01632 960114", 2: "01632 961870", 3: "01632 960455", 4: "01632 962031", 5: "01632 960788",
          6: "01632 961102", 7: "01632 963340", 8: "01632 962219", 10: "01632 964006", 12: "01632 960921",
          15: "01632 963377"}
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

FIRST = ["Sarah", "David", "Margaret", "Peter", "Aisha", "Tom", "Helen", "Graham", "Priya", "Jon", "Linda",
         "Michael", "Jenny", "Stuart", "Fatima", "Colin", "Ruth", "Kwame", "Gillian", "Owen", "Bridget", "Dev",
         "Alison", "Neil", "Sue", "Marek", "Ellie", "Ray", "Joyce", "Harriet", "Ben", "Nadia", "Keith", "Rosa",
         "Iain", "Wendy", "Callum", "Agnieszka", "Trevor", "Maureen"]
LAST = ["Jones", "Clarke", "Patel", "Hughes", "Okafor", "Whitfield", "Barker", "Nowak", "Ashworth", "Price",
        "Doherty", "Fernandes", "Pike", "Lomax", "Reid", "Kaur", "Tennant", "Baptiste", "Griffiths", "Mercer",
        "Sutton", "Haines", "Oyelaran", "Catterall", "Byrne", "Wilde", "Ellison", "Rahman", "Foxley", "Dunmore"]

DONORS = [
    ("FreshWay Brackwater", "supermarket", "Brackwater", "Dean Atherton"),
    ("FreshWay Felby", "supermarket", "Felby", "Kirsty Noble"),
    ("Allsave Kingsmead", "supermarket", "Kingsmead", None),
    ("Tidewell Co-operative Store", "supermarket", "Tidewell", "Raj Malhotra"),
    ("St Mary's Church, Kingsmead", "church", "Kingsmead", "Revd Anne Colley"),
    ("St Mary's Church, Felby", "church", "Felby", "Canon Philip Ward"),
    ("Eastgate Methodist Church", "church", "Brackwater", "Judith Penrose"),
    ("Northope Baptist Fellowship", "church", "Northope", None),
    ("Our Lady of the Sea", "church", "Tidewell", "Fr Declan Moran"),
    ("Brackwater Mosque", "church", "Brackwater", "Imran Siddiqui"),
    ("Kingsmead Primary School", "school", "Kingsmead", "Mrs Lorna Teague"),
    ("Felby High School", "school", "Felby", "Mr Gareth Bowen"),
    ("Ashcombe C of E Primary", "school", "Ashcombe", None),
    ("Brackwater College", "school", "Brackwater", "Student Union"),
    ("Tidewell Academy", "school", "Tidewell", "Ms Chloe Adair"),
    ("Haldon Farm", "farm", "Ashcombe", "Will Haldon"),
    ("Haldon Farms Partnership", "farm", "Northope", "Mary Haldon"),
    ("Greenacre Orchards", "farm", "Hollins Cross", "Tess Greenacre"),
    ("Marsh End Growers", "farm", "Marsh End", None),
    ("Quayside Bakery", "business", "Brackwater", "Luca Romano"),
    ("Pennant Logistics", "business", "Brackwater", "Sharon Kemp"),
    ("Felby Building Society", "business", "Felby", "HR team"),
    ("Northope Rotary Club", "group", "Northope", "Alan Pettit"),
    ("Kingsmead Women's Institute", "group", "Kingsmead", "Barbara Lyle"),
    ("Brackwater Rugby Club", "group", "Brackwater", None),
    ("Tidewell Lions", "group", "Tidewell", "George Fenn"),
    ("Ashcombe Allotment Society", "group", "Ashcombe", "Pam Westley"),
    ("Felby Round Table", "group", "Felby", None),
    ("Brackwater Scouts", "group", "Brackwater", "Akela (Jo Harte)"),
    ("Kingsmead Masonic Lodge", "group", "Kingsmead", None),
    ("Hollins Cross Parish Council", "group", "Hollins Cross", "Clerk to the Council"),
    ("Pennington Dental Care", "business", "Kingsmead", "Dr Sunita Rao"),
    ("Marsh End Motors", "business", "Marsh End", "Dave Stannard"),
    ("Saltley Green Pharmacy", "business", "Saltley Green", None),
    ("Brackwater Evening Echo", "business", "Brackwater", "Newsdesk"),
    ("Ashcombe Village Stores", "supermarket", "Ashcombe", "Val Croft"),
    ("The Anchor Inn, Tidewell", "business", "Tidewell", "Mick Searle"),
    ("Felby Quakers", "church", "Felby", None),
    ("Kingsmead Sikh Gurdwara", "church", "Kingsmead", "Harjit Singh Bains"),
    ("Northope Town Football Club", "group", "Northope", "Kit Doyle"),
]
INDIVIDUALS = ["Mrs E. Tranter", "Mr and Mrs Okoro", "Dr Hilary Fane", "Anonymous (Kingsmead)",
               "Mr Leonard Bish", "Ms Yvonne Carr", "The Pearson family", "Mr Arthur Lamb",
               "Anonymous (Felby)", "Mrs Doreen Lamb"]

ITEMS = [
    ("TIN-BEAN", "Baked beans", "Tins", "415 g tin", 0), ("TIN-TOM", "Chopped tomatoes", "Tins", "400 g tin", 0),
    ("TIN-SOUP", "Tomato soup", "Tins", "400 g tin", 0), ("TIN-TUNA", "Tuna chunks", "Tins", "145 g tin", 0),
    ("TIN-CORN", "Sweetcorn", "Tins", "198 g tin", 0), ("TIN-FRUIT", "Fruit in juice", "Tins", "410 g tin", 0),
    ("TIN-MEAT", "Corned beef", "Tins", "340 g tin", 0), ("TIN-POT", "New potatoes", "Tins", "300 g tin", 0),
    ("TIN-RICE", "Rice pudding", "Tins", "400 g tin", 0), ("TIN-CUST", "Custard", "Tins", "385 g tin", 0),
    ("TIN-SPAG", "Spaghetti hoops", "Tins", "410 g tin", 0), ("TIN-CHIL", "Chilli con carne", "Tins", "392 g tin", 0),
    ("DRY-PAST", "Pasta", "Dry goods", "500 g bag", 0), ("DRY-RICE", "Long grain rice", "Dry goods", "1 kg bag", 0),
    ("DRY-SAUC", "Pasta sauce", "Dry goods", "500 g jar", 0), ("DRY-LENT", "Red lentils", "Dry goods", "500 g bag", 0),
    ("DRY-NOOD", "Instant noodles", "Dry goods", "85 g pot", 0), ("DRY-MASH", "Instant mash", "Dry goods", "180 g box", 0),
    ("BRK-CERE", "Breakfast cereal", "Breakfast", "500 g box", 0), ("BRK-PORR", "Porridge oats", "Breakfast", "1 kg bag", 0),
    ("BRK-TEA", "Tea bags", "Breakfast", "80 bags", 0), ("BRK-COFF", "Instant coffee", "Breakfast", "100 g jar", 0),
    ("BRK-MILK", "UHT milk", "Breakfast", "1 litre carton", 0), ("BRK-JAM", "Jam", "Breakfast", "454 g jar", 0),
    ("TOI-SHAM", "Shampoo", "Toiletries", "250 ml bottle", 0), ("TOI-SOAP", "Bar soap", "Toiletries", "2 x 90 g", 0),
    ("TOI-TPST", "Toothpaste", "Toiletries", "75 ml tube", 0), ("TOI-SANI", "Sanitary towels", "Toiletries", "pack of 10", 0),
    ("TOI-DEOD", "Deodorant", "Toiletries", "150 ml can", 0), ("TOI-LOOR", "Toilet roll", "Household", "4 rolls", 0),
    ("HOU-WASH", "Washing-up liquid", "Household", "450 ml bottle", 0), ("HOU-LAUN", "Laundry tablets", "Household", "box of 20", 0),
    ("BAB-NAPP", "Nappies size 4", "Baby", "pack of 30", 0), ("BAB-NAP5", "Nappies size 5", "Baby", "pack of 26", 0),
    ("BAB-WIPE", "Baby wipes", "Baby", "pack of 64", 0), ("BAB-FOOD", "Baby food pouches", "Baby", "120 g pouch", 0),
    ("FRS-BRED", "Bread", "Fresh", "800 g loaf", 1), ("FRS-APPL", "Apples", "Fresh", "1 kg bag", 1),
    ("FRS-POTA", "Potatoes", "Fresh", "2.5 kg bag", 1), ("FRS-CARR", "Carrots", "Fresh", "1 kg bag", 1),
    ("FRS-EGGS", "Eggs", "Fresh", "box of 6", 1),
]


def iso(d):
    return d.isoformat()


def build(path):
    rng = random.Random(SEED)
    if os.path.exists(path):
        os.remove(path)
    con = sqlite3.connect(path)
    con.executescript(SCHEMA)

    # hubs
    for i, (name, kind, parent, addr, town, pc, opened, stor, sf, notes) in enumerate(HUBS, 1):
        con.execute("INSERT INTO hubs VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                    (i, name, kind, parent, addr, town, pc, PHONES.get(i), opened, stor, sf, notes))
    # hub hours
    for i, h in enumerate(HUBS, 1):
        kind = h[1]
        if kind == "warehouse":
            days = WEEKDAYS[:5]
            slots = [("08:00", "16:00")]
        elif kind == "hub":
            days = sorted(rng.sample(WEEKDAYS, rng.choice([2, 3])), key=WEEKDAYS.index)
            slots = [("10:00", "12:30"), ("13:00", "15:30"), ("17:30", "19:30"), ("09:30", "12:00")]
        else:
            days = [rng.choice(WEEKDAYS)]
            slots = [("12:00", "13:30"), ("10:00", "11:30"), ("14:00", "16:00"), ("18:00", "19:00")]
        for d in days:
            o, c = rng.choice(slots)
            con.execute("INSERT INTO hub_hours VALUES (?,?,?,?)", (i, d, o, c))

    # volunteers
    names, used = [], set()
    while len(names) < 104:
        f, l = rng.choice(FIRST), rng.choice(LAST)
        if (f, l) in used or (f, l) in (("Sarah", "Jones"), ("Jon", "Price")):
            continue
        used.add((f, l))
        names.append((f, l))
    # namesakes and near-duplicates placed deliberately
    names[7] = ("Sarah", "Jones")
    names[61] = ("Sarah", "Jones")
    names[15] = ("Catherine", "Hughes")
    names[40] = ("Kathryn", "Hughes")
    names[22] = ("Jon", "Price")
    names[77] = ("John", "Price")
    badges = rng.sample(range(101, 999), len(names))
    hub_ids = list(range(1, len(HUBS) + 1))
    vols = []
    for vid, (f, l) in enumerate(names, 1):
        joined = dt.date(2013, 1, 1) + dt.timedelta(days=rng.randrange(0, 11 * 365))
        role = rng.choices(["driver", "warehouse", "hub", "coordinator", "trustee"], [14, 18, 50, 12, 6])[0]
        if role == "warehouse":
            home = rng.choice([1, 1, 2])
        elif role == "trustee":
            home = None if rng.random() < 0.6 else rng.choice([1, 2])
        elif role == "coordinator":
            home = rng.choice(hub_ids[2:8])
        else:
            home = rng.choice(hub_ids)
        email = None
        if rng.random() < 0.7:
            dom = rng.choice(["gmail.com", "outlook.com", "btinternet.com", "yahoo.co.uk"])
            email = f"{f.lower()}.{l.lower()}{'' if rng.random() < 0.7 else rng.randrange(10, 99)}@{dom}"
        if role in ("coordinator", "trustee") and rng.random() < 0.8:
            email = f"{f[0].lower()}{l.lower()}@brackwaterfoodbank.org.uk"
        if email and any(v[4] == email for v in vols):
            email = None
        phone = f"07700 900{rng.randrange(100, 999)}" if rng.random() < 0.75 else None
        dbs = 1 if role in ("coordinator", "trustee", "driver") or rng.random() < 0.6 else 0
        vols.append((vid, f"BFB-{badges[vid - 1]:04d}", f, l, email, phone, iso(joined), role, dbs, home))
    con.executemany("INSERT INTO volunteers VALUES (?,?,?,?,?,?,?,?,?,?)", vols)

    # rotas
    hv = set()
    for v in vols:
        vid, joined, role, home = v[0], dt.date.fromisoformat(v[6]), v[7], v[9]
        if role == "trustee" and home is None:
            continue
        hubs = [home] if home else []
        if rng.random() < 0.45:
            other = rng.choice(hub_ids)
            if other not in hubs:
                hubs.append(other)
        if role == "driver" and rng.random() < 0.5:
            other = rng.choice([1, 2])
            if other not in hubs:
                hubs.append(other)
        for h in hubs:
            opened = dt.date.fromisoformat(HUBS[h - 1][6])
            start = max(joined, opened)
            since = start + dt.timedelta(days=rng.randrange(0, 200))
            lead = 1 if role == "coordinator" and h == home else (1 if rng.random() < 0.08 else 0)
            hv.add((h, vid, iso(since), lead))
    con.executemany("INSERT INTO hub_volunteers VALUES (?,?,?,?)", sorted(hv))

    # donors
    donors = []
    for i, (name, kind, town, contact) in enumerate(DONORS, 1):
        since = dt.date(2012, 6, 1) + dt.timedelta(days=rng.randrange(0, 10 * 365))
        donors.append((i, name, kind, town, contact, iso(since), 0))
    towns = ["Brackwater", "Felby", "Kingsmead", "Tidewell", "Northope", "Ashcombe"]
    for name in INDIVIDUALS:
        i = len(donors) + 1
        since = dt.date(2014, 1, 1) + dt.timedelta(days=rng.randrange(0, 10 * 365))
        donors.append((i, name, "individual", rng.choice(towns), None, iso(since), 1 if rng.random() < 0.7 else 0))
    con.executemany("INSERT INTO donors VALUES (?,?,?,?,?,?,?)", donors)

    # items
    for i, (sku, name, cat, unit, per) in enumerate(ITEMS, 1):
        con.execute("INSERT INTO items VALUES (?,?,?,?,?,?)", (i, sku, name, cat, unit, per))

    # donations
    town_hubs = {}
    for i, h in enumerate(HUBS, 1):
        town_hubs.setdefault(h[4], []).append(i)
    loggers = [v[0] for v in vols if v[7] in ("warehouse", "coordinator", "hub")]
    dons, lines = [], []
    start = dt.date(2023, 7, 1)
    for n in range(1, 166):
        d = donors[rng.randrange(len(donors))]
        if d[2] == "supermarket" and rng.random() < 0.5:
            d = donors[rng.choice([0, 1, 3])]
        recv = start + dt.timedelta(days=rng.randrange(0, 548))
        if d[2] in ("supermarket", "farm", "business"):
            hub = rng.choice([1, 1, 2] + town_hubs.get(d[3], [])[:1])
            w = round(rng.uniform(80, 900), 1)
        else:
            hub = rng.choice(town_hubs.get(d[3], [1])[:3] + [rng.choice(hub_ids[2:8])])
            w = round(rng.uniform(4, 160), 1)
        cash = None
        if d[2] in ("individual", "group", "church", "business") and rng.random() < 0.3:
            cash = float(rng.choice([10, 20, 25, 50, 75, 100, 150, 250, 500])) + rng.choice([0, 0, 0, 0.5])
        logged = rng.choice(loggers) if rng.random() < 0.85 else None
        dons.append([n, None, d[0], hub, recv, w, cash, logged])
    dons.sort(key=lambda r: (r[4], r[0]))
    out = []
    per_year = {}
    for k, r in enumerate(dons, 1):
        y = r[4].year
        per_year[y] = per_year.get(y, 0) + 1
        out.append((k, f"R{y % 100}-{per_year[y]:04d}", r[2], r[3], iso(r[4]), r[5], r[6], r[7]))
        for item in sorted(rng.sample(range(1, len(ITEMS) + 1), rng.choice([1, 1, 2, 2, 2, 3]))):
            qty = rng.choice([6, 10, 12, 12, 20, 24, 24, 30, 36, 48, 60, 72, 100])
            bb = None
            if ITEMS[item - 1][4]:
                bb = r[4] + dt.timedelta(days=rng.randrange(3, 12))
            elif rng.random() < 0.5:
                bb = r[4] + dt.timedelta(days=rng.randrange(120, 900))
            lines.append((k, item, qty, iso(bb) if bb else None))
    con.executemany("INSERT INTO donations VALUES (?,?,?,?,?,?,?,?)", out)
    con.executemany("INSERT INTO donation_items VALUES (?,?,?,?)", lines)
    con.commit()
    con.close()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "brackwater.sqlite"))
    a = ap.parse_args(argv)
    build(a.out)
    con = sqlite3.connect(a.out)
    total = 0
    for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name"):
        n = con.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0]
        total += n
        print(f"{t:16} {n:5}")
    print(f"{'total':16} {total:5}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
