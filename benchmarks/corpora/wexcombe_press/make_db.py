#!/usr/bin/env python3
"""Build wexcombe.sqlite: the publishing database of Wexcombe University Press (fictional).

    python3 make_db.py [--out wexcombe.sqlite]

Standard library only, seeded: the same bytes' worth of rows every time.  Eight tables:

  imprints      code-keyed (imprint_code 'WUP', 'HRN', ...); documents name an imprint by its name
  staff         surrogate key, self-reference reports_to, NULL extensions, start dates
  series        surrogate key, unique title, FK imprint, FK in-house editor, NULL general editor
  authors       surrogate key, unique full_name (namesakes with staff, near-duplicate names), NULLs
  books         surrogate key, unique title and ISBN, FK imprint/series/editor, money, enums,
                dates (NULL when forthcoming without a date), a multi-sentence blurb
  book_authors  association table, PRIMARY KEY (book_id, author_id), with role and position
  print_runs    composite key containing a foreign key: PRIMARY KEY (book_id, run_no)
  rights_deals  surrogate key, FK book, NULL advances and territories
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sqlite3

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 1911

SCHEMA = """
CREATE TABLE imprints (
    imprint_code TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    city TEXT NOT NULL,
    founded_year INTEGER NOT NULL,
    focus TEXT
);
CREATE TABLE staff (
    staff_id INTEGER PRIMARY KEY,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    job_title TEXT NOT NULL,
    department TEXT NOT NULL CHECK (department IN ('Editorial','Production','Marketing','Rights','Finance','Directorate')),
    email TEXT NOT NULL UNIQUE,
    phone_ext TEXT,
    reports_to INTEGER REFERENCES staff(staff_id),
    start_date TEXT NOT NULL
);
CREATE TABLE series (
    series_id INTEGER PRIMARY KEY,
    title TEXT NOT NULL UNIQUE,
    imprint_code TEXT NOT NULL REFERENCES imprints(imprint_code),
    editor_id INTEGER NOT NULL REFERENCES staff(staff_id),
    general_editor TEXT,
    launched_year INTEGER NOT NULL
);
CREATE TABLE authors (
    author_id INTEGER PRIMARY KEY,
    full_name TEXT NOT NULL UNIQUE,
    affiliation TEXT,
    country TEXT NOT NULL,
    email TEXT,
    agent TEXT,
    birth_year INTEGER
);
CREATE TABLE books (
    book_id INTEGER PRIMARY KEY,
    isbn TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL UNIQUE,
    subtitle TEXT,
    imprint_code TEXT NOT NULL REFERENCES imprints(imprint_code),
    series_id INTEGER REFERENCES series(series_id),
    editor_id INTEGER NOT NULL REFERENCES staff(staff_id),
    format TEXT NOT NULL CHECK (format IN ('Hardback','Paperback','Ebook only')),
    page_count INTEGER NOT NULL,
    list_price REAL NOT NULL,
    pub_date TEXT,
    status TEXT NOT NULL CHECK (status IN ('In print','Forthcoming','Out of print')),
    blurb TEXT NOT NULL
);
CREATE TABLE book_authors (
    book_id INTEGER NOT NULL REFERENCES books(book_id),
    author_id INTEGER NOT NULL REFERENCES authors(author_id),
    role TEXT NOT NULL CHECK (role IN ('Author','Editor','Translator')),
    position INTEGER NOT NULL,
    PRIMARY KEY (book_id, author_id)
);
CREATE TABLE print_runs (
    book_id INTEGER NOT NULL REFERENCES books(book_id),
    run_no INTEGER NOT NULL,
    printed_on TEXT NOT NULL,
    quantity INTEGER NOT NULL,
    printer TEXT NOT NULL,
    unit_cost REAL NOT NULL,
    PRIMARY KEY (book_id, run_no)
);
CREATE TABLE rights_deals (
    deal_id INTEGER PRIMARY KEY,
    book_id INTEGER NOT NULL REFERENCES books(book_id),
    licensee TEXT NOT NULL,
    language TEXT NOT NULL,
    territory TEXT,
    deal_type TEXT NOT NULL CHECK (deal_type IN ('Translation','Audio','Co-edition')),
    signed_on TEXT NOT NULL,
    advance REAL
);
"""

IMPRINTS = [
    ("WUP", "Wexcombe University Press", "Wexcombe", 1911, "Monographs in history, law and the environment"),
    ("HRN", "Heron Books", "London", 1987, "Serious non-fiction for general readers"),
    ("SLT", "Saltings Academic", "Wexcombe", 2004, "Edited collections and reference works"),
    ("WXL", "Wexcombe Learning", "Bristol", 2012, None),
]

# (first, last, job_title, department, reports_to index (1-based), ext or None, start_date)
STAFF = [
    ("Margaret", "Oyelaran", "Press Director", "Directorate", None, "4001", "2011-09-01"),
    ("Julian", "Treve", "Editorial Director", "Editorial", 1, "4010", "2014-01-06"),
    ("Helen", "Marsh", "Production Director", "Production", 1, "4030", "2009-04-14"),
    ("Priya", "Raman", "Sales and Marketing Director", "Marketing", 1, "4050", "2017-06-19"),
    ("Tomasz", "Wielgus", "Head of Rights", "Rights", 1, "4070", "2013-03-04"),
    ("Gareth", "Penhale", "Finance Manager", "Finance", 1, "4090", "2010-11-22"),
    ("Owen", "Hughes", "Senior Commissioning Editor", "Editorial", 2, "4011", "2015-02-02"),
    ("Megan", "Hughes", "Commissioning Editor", "Editorial", 2, "4012", "2019-09-09"),
    ("Alasdair", "Finch", "Commissioning Editor", "Editorial", 2, "4013", "2016-05-16"),
    ("Rosa", "Delgado", "Commissioning Editor", "Editorial", 7, None, "2021-01-11"),
    ("Kwame", "Asante", "Commissioning Editor", "Editorial", 2, "4015", "2018-08-20"),
    ("Fiona", "MacLeod", "Editorial Assistant", "Editorial", 7, None, "2023-03-27"),
    ("Dominic", "Ashworth", "Editorial Assistant", "Editorial", 9, "4017", "2022-10-03"),
    ("Lucy", "Penrose", "Production Manager", "Production", 3, "4031", "2012-07-02"),
    ("Stefan", "Brandt", "Production Controller", "Production", 14, "4032", "2020-02-17"),
    ("Aoife", "Brennan", "Production Controller", "Production", 14, "4033", "2021-06-07"),
    ("Nathaniel", "Coombe", "Typesetting Coordinator", "Production", 3, None, "2016-10-10"),
    ("Imogen", "Vale", "Marketing Manager", "Marketing", 4, "4051", "2018-01-08"),
    ("Harriet", "Quayle", "Publicity Officer", "Marketing", 18, "4052", "2022-04-25"),
    ("Samuel", "Okafor", "Sales Manager", "Marketing", 4, "4053", "2019-03-11"),
    ("Beatrice", "Lund", "Digital Marketing Executive", "Marketing", 18, None, "2024-01-15"),
    ("Carys", "Bowen", "Rights Manager", "Rights", 5, "4071", "2017-09-04"),
    ("Martin", "Szabo", "Rights Assistant", "Rights", 22, "4072", "2023-09-18"),
    ("Eleanor", "Pryce", "Contracts Manager", "Rights", 5, "4073", "2014-06-30"),
    ("Victor", "Ngata", "Management Accountant", "Finance", 6, "4091", "2020-11-02"),
    ("Joanna", "Kell", "Royalties Administrator", "Finance", 6, "4092", "2018-05-21"),
    ("Felix", "Harker", "Commissioning Editor, Learning", "Editorial", 2, "4016", "2020-07-13"),
    ("Anita", "Sood", "Managing Editor", "Editorial", 2, "4018", "2013-09-23"),
    ("Patrick", "Moran", "Desk Editor", "Editorial", 28, None, "2021-11-29"),
    ("Zara", "Whitlock", "Desk Editor", "Editorial", 28, "4020", "2019-04-01"),
    ("Isaac", "Lomax", "Warehouse Liaison", "Production", 14, None, "2015-12-07"),
    ("Rhiannon", "Tudor", "Marketing Assistant", "Marketing", 18, None, "2025-02-03"),
]

# (title, imprint, editor index, general editor or None, launched)
SERIES = [
    ("Studies in Coastal History", "WUP", 7, "Prof. Annette Carrow", 1994),
    ("Wexcombe Legal Histories", "WUP", 9, "Prof. Desmond Achebe-Ford", 2002),
    ("Environment and Society", "WUP", 11, None, 2010),
    ("Maritime Worlds", "WUP", 7, "Dr Lise Kjaer", 2016),
    ("Heron Lives", "HRN", 8, None, 1999),
    ("Heron Landscapes", "HRN", 8, None, 2008),
    ("Saltings Companions", "SLT", 10, "Prof. Malcolm Ure", 2005),
    ("Saltings Readers in Law", "SLT", 9, "Dr Nadia Ferrante", 2011),
    ("Critical Ecologies", "SLT", 11, "Prof. Ruth Abernethy", 2019),
    ("Wexcombe Foundations", "WXL", 27, None, 2013),
    ("Core Texts in Environmental Science", "WXL", 27, "Dr Ben Oduya", 2017),
    ("Studies in Estuarine History", "WUP", 7, None, 2021),  # near-duplicate of the first
]

FIRST = [
    "Adam", "Alice", "Amira", "Andrew", "Anja", "Benedict", "Bronwen", "Catherine", "Chen", "Clara",
    "Daniel", "David", "Deborah", "Edmund", "Elena", "Emeka", "Esther", "Farah", "Francesca", "Gabriel",
    "Grace", "Hannah", "Hugo", "Ingrid", "Jack", "James", "Joanna", "Jonathan", "Karin", "Laila",
    "Leon", "Lorna", "Marcus", "Maria", "Matthew", "Miriam", "Naomi", "Nicholas", "Olga", "Oliver",
    "Paul", "Rachel", "Ravi", "Rebecca", "Robert", "Ruth", "Saoirse", "Simon", "Sofia", "Thomas",
    "Ursula", "William", "Yusuf", "Zofia",
]
LAST = [
    "Abbott", "Achterberg", "Ainsworth", "Banerjee", "Barraclough", "Beaumont", "Calloway", "Carrick",
    "Chaudhry", "Collingwood", "Dacre", "Devereux", "Eastwood", "Ellery", "Fairbairn", "Fenwick",
    "Garside", "Gilchrist", "Halloran", "Hasegawa", "Holroyd", "Ibsen", "Jardine", "Kavanagh",
    "Kowalczyk", "Lindqvist", "Llewellyn", "Lockwood", "Mbeki", "Merriman", "Morley", "Nakamura",
    "Northcott", "Okonjo", "Ormerod", "Pemberton", "Quennell", "Radcliffe", "Rossiter", "Salgado",
    "Sandoval", "Sheringham", "Strachan", "Thackeray", "Trelawney", "Underhill", "Varga", "Wainwright",
    "Whitcombe", "Yardley", "Zielinski",
]
# names that must be present: namesakes and near-duplicates
FIXED_AUTHORS = [
    "Helen Marsh",  # namesake of the Production Director
    "Jon Ellery", "John Ellery",
    "Sara Lindqvist", "Sarah Lindqvist",
    "Catherine Morley", "Katherine Morley",
    "Owen Hughes-Patel",
]
AFFIL = [
    "University of Wexcombe", "University of Exeter", "King's College London", "University of Bristol",
    "Trinity College Dublin", "University of Edinburgh", "Cardiff University", "University of Leeds",
    "Uppsala University", "Leiden University", "University of Cape Town", "McGill University",
    "Australian National University", "University of Bergen", "Universidad de Salamanca",
    "Marine Biological Association", "National Maritime Museum", "University of Plymouth",
]
AFFIL_COUNTRY = {
    "Trinity College Dublin": "Ireland", "Uppsala University": "Sweden", "Leiden University": "Netherlands",
    "University of Cape Town": "South Africa", "McGill University": "Canada",
    "Australian National University": "Australia", "University of Bergen": "Norway",
    "Universidad de Salamanca": "Spain",
}
AGENTS = ["Curtis Brown", "A.M. Heath", "Felicity Bryan Associates", "Janklow & Nesbit", "Peters Fraser + Dunlop"]

# book title parts by imprint
TOPICS = [
    "Salt Marshes", "Tidal Mills", "Harbour Towns", "Fishing Communities", "Coastal Defences", "Wreckers",
    "Lighthouses", "Oyster Fisheries", "Estuaries", "Shipwright Guilds", "Customs Houses", "Smuggling",
    "Sea Walls", "Ferrymen", "Shingle Beaches", "Drowned Villages", "Pilots and Pilotage", "Quarantine",
    "Seabird Colonies", "Reclaimed Land", "Commons", "Enclosure", "Flood Law", "Water Rights",
    "Manorial Courts", "Coroners", "Turnpikes", "Canal Companies", "Peat Bogs", "Hedgerows",
    "Heathland", "Chalk Streams", "Orchards", "Woodland Management", "Moorland Farming", "Eel Fisheries",
]
PLACES = [
    "the Severn Estuary", "Cornwall", "the Wash", "the Solent", "North Devon", "the Thames Estuary",
    "the Bristol Channel", "the Somerset Levels", "Pembrokeshire", "the Humber", "East Anglia",
    "the Channel Islands", "the Irish Sea", "the Baltic", "Brittany", "the Wadden Sea",
]
PERIODS = ["1500-1700", "1600-1800", "1650-1850", "1700-1900", "1750-1914", "1800-1950", "1850-2000", "since 1945"]
LEARN = [
    "Introduction to Ecology", "Foundations of Hydrology", "Statistics for Environmental Science",
    "Principles of Oceanography", "Soil Science: A First Course", "Environmental Law in Practice",
    "Fieldwork Methods", "Climate Systems", "GIS for Beginners", "Marine Biology: Core Concepts",
    "Sustainable Development Goals Explained", "Research Skills for Geographers", "Coastal Processes",
    "Water Quality Assessment", "Conservation Biology",
]
TRADE = [
    "The Last Ferryman", "A Year on the Marsh", "The Lighthouse Keeper's Daughter", "Salt and Stone",
    "The Drowned Parish", "Tide Tables", "The Oyster Wars", "Where the River Turns", "The Map of Small Islands",
    "Keeping the Light", "Rivers of Memory", "River of Memory", "The Eel Catchers", "Shingle Street",
    "The Reed Cutter", "Edge of the Levels", "The Weather Diaries", "Winter Harbour", "The Chalk Stream",
    "Sea Kale and Samphire", "The Wreck of the Caroline", "Hedge and Ditch", "The Last of the Smacks",
    "Low Water", "The Pilot's Log",
]
TRADE_SUB = [
    "A Memoir", "Life and Work on a Vanishing Coast", "A Natural History", "Stories from the Estuary",
    None, None, "An Untold History", "Walking the Tideline",
]
SLT_TITLES = [
    "The Saltings Companion to Maritime Law", "The Saltings Companion to Coastal Archaeology",
    "The Saltings Companion to Environmental Ethics", "Readings in the Law of the Sea",
    "Readings in Riparian Law", "Readings in Land Reclamation Law", "Ecologies of the Shore",
    "Critical Ecologies of Water", "Ecocriticism and the Coast", "Wetland Futures",
    "Blue Humanities: A Reader", "Commons and Enclosure: A Reader", "The Saltings Handbook of Fisheries Policy",
    "Rewilding and Its Critics", "Histories of the Anthropocene Coast",
]
PRINTERS = ["Clays", "CPI Antony Rowe", "Halstan", "Short Run Press", "TJ Books"]
LICENSEES = [
    ("Gallimard", "French", "World French"), ("Suhrkamp Verlag", "German", "Germany, Austria, Switzerland"),
    ("Einaudi", "Italian", None), ("Anagrama", "Spanish", "World Spanish"), ("Natur & Kultur", "Swedish", None),
    ("Uitgeverij Atlas Contact", "Dutch", None), ("Minumsa", "Korean", "South Korea"),
    ("Kawade Shobo Shinsha", "Japanese", "Japan"), ("CITIC Press", "Simplified Chinese", "PRC"),
    ("Znak", "Polish", None), ("Cappelen Damm", "Norwegian", None), ("Gyldendal", "Danish", None),
    ("W. F. Howes", "English", "World"), ("Bolinda", "English", "Australia and New Zealand"),
    ("Columbia University Press", "English", "North America"), ("Editora Unesp", "Portuguese", "Brazil"),
]


def blurb(rng, title, topic, place, period):
    s1 = rng.choice([
        f"This book examines {topic.lower()} in {place} from the ground up.",
        f"Drawing on archives in {place}, this study recovers the history of {topic.lower()}.",
        f"{topic} shaped life in {place} more than any other institution.",
        f"A fresh account of {topic.lower()} and the people who depended on them.",
    ])
    s2 = rng.choice([
        f"Covering the period {period}, it combines court records, maps and oral testimony.",
        "It argues that local knowledge, not central policy, decided what survived.",
        "Chapters move between the parish, the port and the county bench.",
        "The result is a social history of risk, money and the weather.",
    ])
    s3 = rng.choice([
        "It will interest historians, geographers and anyone who has walked a sea wall.",
        "Richly illustrated with maps and photographs.",
        "An essential work for students of environmental history.",
        "",
    ])
    return " ".join(x for x in (s1, s2, s3) if x)


def build(path):
    rng = random.Random(SEED)
    if os.path.exists(path):
        os.remove(path)
    con = sqlite3.connect(path)
    con.executescript(SCHEMA)
    con.executemany("INSERT INTO imprints VALUES (?,?,?,?,?)", IMPRINTS)
    for i, (fn, ln, jt, dep, rep, ext, start) in enumerate(STAFF, 1):
        email = f"{fn[0].lower()}.{ln.lower()}@wexcombepress.ac.uk"
        if fn == "Megan" and ln == "Hughes":
            email = "megan.hughes@wexcombepress.ac.uk"
        con.execute("INSERT INTO staff VALUES (?,?,?,?,?,?,?,?,?)", (i, fn, ln, jt, dep, email, ext, rep, start))
    for i, (t, imp, ed, ge, yr) in enumerate(SERIES, 1):
        con.execute("INSERT INTO series VALUES (?,?,?,?,?,?)", (i, t, imp, ed, ge, yr))

    # authors
    names = list(FIXED_AUTHORS)
    seen = set(names) | {f"{f} {l}" for f, l, *_ in STAFF}
    seen.discard("Helen Marsh")
    while len(names) < 112:
        n = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        if n in seen or n in names:
            continue
        names.append(n)
    rng.shuffle(names)
    authors = []
    for i, n in enumerate(names, 1):
        aff = rng.choice(AFFIL) if rng.random() < 0.82 else None
        country = AFFIL_COUNTRY.get(aff, "United Kingdom") if aff else rng.choice(
            ["United Kingdom", "United Kingdom", "Ireland", "United States", "Canada"])
        if aff in ("McGill University",) and rng.random() < 0.5:
            country = "Canada"
        email = None
        if aff and rng.random() < 0.7:
            first, last = n.split(" ", 1)
            email = f"{first[0].lower()}.{last.lower().replace(' ', '')}@example.ac.uk"
        agent = rng.choice(AGENTS) if rng.random() < 0.18 else None
        by = rng.randint(1948, 1992) if rng.random() < 0.6 else None
        authors.append((i, n, aff, country, email, agent, by))
    con.executemany("INSERT INTO authors VALUES (?,?,?,?,?,?,?)", authors)

    # books
    books = []
    used_titles = set()
    series_by_imp = {}
    for sid, (t, imp, *_r) in enumerate(SERIES, 1):
        series_by_imp.setdefault(imp, []).append(sid)
    editors_by_imp = {"WUP": [7, 8, 9, 10, 11], "HRN": [8, 7, 10], "SLT": [9, 10, 11], "WXL": [27]}
    plan = ["WUP"] * 70 + ["HRN"] * 25 + ["SLT"] * 15 + ["WXL"] * 15
    rng.shuffle(plan)
    trade = list(TRADE)
    learn = list(LEARN)
    slt = list(SLT_TITLES)
    rng.shuffle(trade)
    rng.shuffle(learn)
    rng.shuffle(slt)
    # the near-duplicate trade titles must both be present
    for t in ("Rivers of Memory", "River of Memory"):
        trade.remove(t)
    trade = ["Rivers of Memory", "River of Memory"] + trade
    start = dt.date(2019, 1, 15)
    for bid, imp in enumerate(plan, 1):
        topic, place, period = rng.choice(TOPICS), rng.choice(PLACES), rng.choice(PERIODS)
        subtitle = None
        if imp == "WUP":
            while True:
                topic, place, period = rng.choice(TOPICS), rng.choice(PLACES), rng.choice(PERIODS)
                form = rng.randrange(4)
                if form == 0:
                    title = f"{topic} of {place[4:].title() if place.startswith('the ') else place}"
                    title = f"{topic} of {place.replace('the ', '')}"
                    subtitle = f"A Social History, {period}"
                elif form == 1:
                    title = f"{topic} in {place}, {period}"
                elif form == 2:
                    title = f"Law, Land and {topic}"
                    subtitle = f"{place[0].upper() + place[1:]}, {period}"
                else:
                    title = f"The Politics of {topic}"
                    subtitle = f"Communities and the State in {place}"
                if title not in used_titles and "Law, Land and Flood Law" != title:
                    break
            fmt = "Hardback" if rng.random() < 0.8 else "Paperback"
            price = rng.choice([75.0, 80.0, 85.0, 90.0, 95.0, 110.0]) if fmt == "Hardback" else rng.choice([24.99, 29.99, 32.99])
            pages = rng.randint(220, 460)
        elif imp == "HRN":
            title = trade.pop(0)
            subtitle = rng.choice(TRADE_SUB)
            fmt = rng.choice(["Hardback", "Paperback", "Paperback"])
            price = rng.choice([20.0, 22.0, 25.0]) if fmt == "Hardback" else rng.choice([9.99, 10.99, 12.99, 14.99])
            pages = rng.randint(224, 384)
        elif imp == "SLT":
            title = slt.pop(0)
            fmt = rng.choice(["Hardback", "Hardback", "Ebook only"])
            price = rng.choice([120.0, 135.0, 150.0, 175.0]) if fmt == "Hardback" else rng.choice([45.0, 60.0])
            pages = rng.randint(380, 720)
        else:
            title = learn.pop(0)
            fmt = "Paperback"
            price = rng.choice([34.99, 39.99, 44.99, 49.99])
            pages = rng.randint(280, 560)
        used_titles.add(title)
        series_id = None
        if rng.random() < 0.72:
            series_id = rng.choice(series_by_imp[imp])
        editor = rng.choice(editors_by_imp[imp])
        # publication date spread over 2019 .. 2026
        pub = start + dt.timedelta(days=int(bid * 22.4 + rng.randint(-6, 6)))
        if pub.weekday() >= 5:
            pub += dt.timedelta(days=7 - pub.weekday())
        status = "In print"
        if pub > dt.date(2025, 11, 1):
            status = "Forthcoming"
        elif pub < dt.date(2021, 6, 1) and rng.random() < 0.15:
            status = "Out of print"
        pub_s = pub.isoformat()
        if status == "Forthcoming" and rng.random() < 0.35:
            pub_s = None
        isbn_core = f"978{rng.choice(['1', '0'])}{rng.randint(10000000, 99999999)}"
        digits = [int(c) for c in isbn_core]
        check = (10 - sum(d * (1 if i % 2 == 0 else 3) for i, d in enumerate(digits)) % 10) % 10
        isbn = isbn_core + str(check)
        books.append((bid, isbn, title, subtitle, imp, series_id, editor, fmt, pages, price, pub_s, status,
                      blurb(rng, title, topic, place, period)))
    con.executemany("INSERT INTO books VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", books)

    # book_authors: every author has at least one book (authors used round-robin first, then random)
    order = list(range(1, len(authors) + 1))
    rng.shuffle(order)
    ba = []
    pool = iter(order)
    for b in books:
        bid, imp = b[0], b[4]
        n = 1
        r = rng.random()
        if imp == "SLT":
            n = rng.choice([2, 2, 3])
        elif r < 0.25:
            n = 2
        elif r < 0.30:
            n = 3
        chosen = []
        while len(chosen) < n:
            a = next(pool, None)
            if a is None:
                a = rng.randint(1, len(authors))
            if a not in chosen:
                chosen.append(a)
        for pos, a in enumerate(chosen, 1):
            role = "Editor" if imp == "SLT" else "Author"
            if imp != "SLT" and pos == 2 and rng.random() < 0.15:
                role = "Translator"
            ba.append((bid, a, role, pos))
    con.executemany("INSERT INTO book_authors VALUES (?,?,?,?)", ba)

    # print runs
    runs = []
    for b in books:
        bid, fmt, pub, status = b[0], b[7], b[10], b[11]
        if fmt == "Ebook only" or pub is None or status == "Forthcoming":
            continue
        d = dt.date.fromisoformat(pub) - dt.timedelta(days=rng.randint(18, 40))
        nruns = 1 + (rng.random() < 0.45) + (rng.random() < 0.2)
        for r in range(1, nruns + 1):
            qty = rng.choice([300, 400, 500, 600, 750, 1000]) if b[4] in ("WUP", "SLT") else rng.choice(
                [1500, 2000, 2500, 3000, 4000, 5000])
            if r > 1:
                qty = max(200, qty // 2)
            printer = rng.choice(PRINTERS)
            cost = round(rng.uniform(1.4, 4.8) + (b[8] / 400.0), 2)
            runs.append((bid, r, d.isoformat(), qty, printer, cost))
            d = d + dt.timedelta(days=rng.randint(150, 520))
            if d > dt.date(2025, 10, 31):
                break
    con.executemany("INSERT INTO print_runs VALUES (?,?,?,?,?,?)", runs)

    # rights deals
    deals = []
    cands = [b for b in books if b[4] in ("HRN", "WUP") and b[10]]
    for did in range(1, 63):
        b = rng.choice(cands)
        lic, lang, terr = rng.choice(LICENSEES)
        dtype = "Audio" if lic in ("W. F. Howes", "Bolinda") else ("Co-edition" if lic == "Columbia University Press" else "Translation")
        signed = dt.date.fromisoformat(b[10]) + dt.timedelta(days=rng.randint(-120, 700))
        if signed > dt.date(2025, 10, 31):
            signed = dt.date(2025, 10, 31) - dt.timedelta(days=rng.randint(0, 200))
        adv = None if rng.random() < 0.2 else float(rng.choice([750, 1000, 1500, 2000, 2500, 3000, 4000, 6000]))
        deals.append((did, b[0], lic, lang, terr, dtype, signed.isoformat(), adv))
    con.executemany("INSERT INTO rights_deals VALUES (?,?,?,?,?,?,?,?)", deals)
    con.commit()
    con.close()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "wexcombe.sqlite"))
    a = ap.parse_args(argv)
    build(a.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
