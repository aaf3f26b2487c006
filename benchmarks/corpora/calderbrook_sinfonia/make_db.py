#!/usr/bin/env python3
"""Build calderbrook.sqlite: the concert-planning database of the Calderbrook Sinfonia, a (fictional)
regional orchestra in the Calder Valley, West Yorkshire, for its 2024/25 season.

    python3 make_db.py [--out calderbrook.sqlite]

Standard library only; seeded, so the same file contents come out every time.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sqlite3

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 1874

SCHEMA = """
CREATE TABLE sections (
    section_code  TEXT PRIMARY KEY,
    name          TEXT NOT NULL UNIQUE,
    family        TEXT NOT NULL CHECK (family IN ('strings', 'woodwind', 'brass', 'percussion')),
    seats         INTEGER NOT NULL,
    principal_id  INTEGER REFERENCES players(player_id)
);
CREATE TABLE players (
    player_id     INTEGER PRIMARY KEY,
    first_name    TEXT NOT NULL,
    last_name     TEXT NOT NULL,
    section_code  TEXT NOT NULL REFERENCES sections(section_code),
    chair         TEXT NOT NULL CHECK (chair IN ('Leader', 'Principal', 'Co-principal', 'Sub-principal', 'Tutti')),
    joined_on     DATE NOT NULL,
    email         TEXT NOT NULL UNIQUE,
    fee_per_call  NUMERIC(6, 2) NOT NULL,
    home_town     TEXT NOT NULL
);
CREATE TABLE venues (
    venue_id   INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    town       TEXT NOT NULL,
    postcode   TEXT NOT NULL,
    capacity   INTEGER NOT NULL,
    hire_fee   NUMERIC(8, 2) NOT NULL,
    step_free  INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE artists (
    artist_id    INTEGER PRIMARY KEY,
    name         TEXT NOT NULL UNIQUE,
    role         TEXT NOT NULL CHECK (role IN ('conductor', 'soloist')),
    instrument   TEXT,
    nationality  TEXT NOT NULL,
    agency       TEXT,
    fee          NUMERIC(8, 2) NOT NULL
);
CREATE TABLE works (
    work_id         INTEGER PRIMARY KEY,
    composer        TEXT NOT NULL,
    title           TEXT NOT NULL UNIQUE,
    catalogue       TEXT,
    duration_min    INTEGER NOT NULL,
    year_composed   INTEGER NOT NULL,
    programme_note  TEXT NOT NULL
);
CREATE TABLE concerts (
    concert_id    INTEGER PRIMARY KEY,
    code          TEXT NOT NULL UNIQUE,
    title         TEXT NOT NULL UNIQUE,
    venue_id      INTEGER NOT NULL REFERENCES venues(venue_id),
    conductor_id  INTEGER NOT NULL REFERENCES artists(artist_id),
    concert_date  DATE NOT NULL,
    start_time    TEXT NOT NULL,
    ticket_price  NUMERIC(6, 2) NOT NULL,
    attendance    INTEGER,
    broadcast     INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE programme_items (
    concert_id  INTEGER NOT NULL REFERENCES concerts(concert_id),
    item_no     INTEGER NOT NULL,
    work_id     INTEGER NOT NULL REFERENCES works(work_id),
    soloist_id  INTEGER REFERENCES artists(artist_id),
    PRIMARY KEY (concert_id, item_no)
);
CREATE TABLE engagements (
    concert_id    INTEGER NOT NULL REFERENCES concerts(concert_id),
    player_id     INTEGER NOT NULL REFERENCES players(player_id),
    fee           NUMERIC(6, 2) NOT NULL,
    confirmed_on  DATE,
    PRIMARY KEY (concert_id, player_id)
);
"""

# code, name, family, seats
SECTIONS = [
    ("VN1", "First violins", "strings", 8), ("VN2", "Second violins", "strings", 6),
    ("VLA", "Violas", "strings", 5), ("VC", "Cellos", "strings", 4), ("DB", "Double basses", "strings", 3),
    ("FL", "Flutes", "woodwind", 2), ("OB", "Oboes", "woodwind", 2), ("CL", "Clarinets", "woodwind", 2),
    ("BN", "Bassoons", "woodwind", 2), ("HN", "Horns", "brass", 4), ("TP", "Trumpets", "brass", 2),
    ("TB", "Trombones", "brass", 3), ("TIM", "Timpani and percussion", "percussion", 3),
]
# how many players the orchestra has on its list per section (the rest are hired as extras, not in the db)
ON_LIST = {"VN1": 6, "VN2": 5, "VLA": 4, "VC": 4, "DB": 3, "FL": 2, "OB": 2, "CL": 2, "BN": 2, "HN": 4, "TP": 2,
           "TB": 2, "TIM": 2}

FIRST = ["Anna", "Beth", "Carys", "Daniel", "David", "Eilidh", "Farah", "Gareth", "Helen", "Imran", "Jonas",
         "Kate", "Lewis", "Maya", "Niamh", "Owain", "Priya", "Rachel", "Simon", "Tom", "Ursula", "Vikram",
         "Wendy", "Yusuf", "Zoe", "Martin", "Joanna", "Rob", "Sarah", "Clare", "Ifan", "Gemma", "Hugh", "Leah"]
LAST = ["Kowal", "Ackroyd", "Sutcliffe", "Marsh", "Hale", "Greenwood", "Feld", "Barraclough", "Holroyd",
        "Nwosu", "Pickles", "Thorne", "Riaz", "Lumb", "Cheetham", "Ogden", "Varley", "Brearley", "Dyson",
        "Haigh", "Mitchell", "Crabtree", "Wadsworth", "Firth", "Stansfield", "Redman", "Illingworth", "Priestley",
        "Tattersall", "Booth", "Gaukroger", "Hey", "Bentley", "Uttley", "Sowden", "Midgley", "Lister"]
TOWNS = ["Hebden Bridge", "Halifax", "Todmorden", "Sowerby Bridge", "Huddersfield", "Mytholmroyd", "Brighouse",
         "Elland", "Leeds", "Bradford", "Holmfirth", "Rochdale"]

VENUES = [
    # id, name, town, postcode, capacity, hire fee, step-free
    (1, "Calder Hall", "Halifax", "HX1 1QE", 1140, "2450.00", 1),
    (2, "Picture House Hebden Bridge", "Hebden Bridge", "HX7 8AD", 492, "1200.00", 1),
    (3, "St Mary's Church, Todmorden", "Todmorden", "OL14 5AT", 380, "650.00", 0),
    (4, "Huddersfield Town Hall", "Huddersfield", "HD1 2TA", 1200, "3180.00", 1),
    (5, "Square Chapel Arts Centre", "Halifax", "HX1 1QG", 290, "875.00", 1),
    (6, "Victoria Hall, Saltaire", "Shipley", "BD18 3LA", 560, "1180.00", 0),
]

ARTISTS = [
    # id, name, role, instrument, nationality, agency, fee
    (1, "Marek Kowal", "conductor", None, "Polish", "Harrow Artists", "4500.00"),
    (2, "Ruth Ingleby", "conductor", None, "British", None, "2800.00"),
    (3, "Sebastián Oyarzún", "conductor", None, "Chilean", "Askonas Field", "5200.00"),
    (4, "Tamsin Greaves", "conductor", None, "British", "Harrow Artists", "3100.00"),
    (5, "Thomas Hale", "soloist", "baritone", "British", "Rayfield Allied", "2200.00"),
    (6, "Mei-Lin Zhou", "soloist", "piano", "Taiwanese", "Askonas Field", "3900.00"),
    (7, "Jakub Novotný", "soloist", "cello", "Czech", None, "2600.00"),
    (8, "Aoife Dunne", "soloist", "soprano", "Irish", "Rayfield Allied", "2100.00"),
    (9, "Leon Adeyemi", "soloist", "violin", "British", "Harrow Artists", "3300.00"),
    (10, "Hanna Lindqvist", "soloist", "clarinet", "Swedish", None, "1900.00"),
    (11, "Ruth Ingleby-Shaw", "soloist", "mezzo-soprano", "British", None, "1750.00"),
    (12, "Tomasz Wren", "soloist", "piano", "British", "Askonas Field", "2750.00"),
]

# composer, title, catalogue, minutes, year, note
WORKS = [
    ("Edward Elgar", "Enigma Variations", "Op. 36", 30, 1899,
     "Elgar called the set Variations on an Original Theme and dedicated it to his friends pictured within. "
     "Each variation is a portrait of one of them, from his wife Alice to the bulldog Dan paddling in the Wye. "
     "The theme itself, he said, hid a larger tune that is never played."),
    ("Johannes Brahms", "Symphony No. 4 in E minor", "Op. 98", 40, 1885,
     "Brahms wrote his last symphony over two summers in the Styrian village of Mürzzuschlag. "
     "Its finale is a passacaglia of thirty variations over an eight-bar theme borrowed from Bach. "
     "Friends who heard it first on two pianos found it severe; audiences soon disagreed."),
    ("Pyotr Ilyich Tchaikovsky", "Symphony No. 4 in F minor", "Op. 36", 44, 1878,
     "Tchaikovsky described the brass fanfare that opens the symphony as Fate, which prevents the hope of happiness. "
     "The third movement is played by the strings entirely pizzicato. "
     "He dedicated the work to his patron Nadezhda von Meck, whom he never met."),
    ("Jean Sibelius", "Symphony No. 5 in E-flat major", "Op. 82", 32, 1915,
     "Sibelius revised this symphony twice before it reached its final form in 1919. "
     "The swinging horn theme of the finale came to him, he wrote, after watching sixteen swans circle over his lake. "
     "The work ends with six widely spaced chords."),
    ("Felix Mendelssohn", "Violin Concerto in E minor", "Op. 64", 27, 1844,
     "Mendelssohn wrote the concerto for his friend Ferdinand David, leader of the Leipzig Gewandhaus Orchestra. "
     "The soloist enters almost at once, without the usual orchestral introduction. "
     "The three movements are joined without a break."),
    ("Edward Elgar", "Cello Concerto in E minor", "Op. 85", 30, 1919,
     "Written in a cottage in Sussex at the end of the First World War, this was Elgar's last major work. "
     "The first performance in 1919 was badly under-rehearsed. "
     "Its reputation was made decades later by the recordings of Jacqueline du Pré."),
    ("Antonín Dvořák", "Symphony No. 8 in G major", "Op. 88", 36, 1889,
     "Dvořák composed the symphony at his summer home at Vysoká in under three months. "
     "It is sunnier and more Bohemian in tone than the Seventh. "
     "The finale opens with a trumpet call and becomes a set of variations."),
    ("Ralph Vaughan Williams", "The Lark Ascending", None, 15, 1914,
     "Vaughan Williams based this romance for violin and orchestra on a poem by George Meredith. "
     "He finished the first version in 1914 but revised it after the war. "
     "It is now one of the most requested pieces on British radio."),
    ("Wolfgang Amadeus Mozart", "Piano Concerto No. 21 in C major", "K. 467", 28, 1785,
     "Mozart completed this concerto in Vienna in March 1785, weeks after the D minor concerto. "
     "Its slow movement became famous through a Swedish film of 1967."),
    ("Ludwig van Beethoven", "Piano Concerto No. 4 in G major", "Op. 58", 34, 1806,
     "Beethoven broke with custom by letting the piano begin alone, with five quiet bars. "
     "In the slow movement the strings and the soloist argue until the orchestra is calmed. "
     "Beethoven played the solo part himself at the premiere in 1808."),
    ("Gustav Holst", "The Planets", "Op. 32", 50, 1916,
     "Holst's suite takes its characters from astrology rather than astronomy. "
     "Mars, the Bringer of War, was finished before the war began. "
     "The last movement, Neptune, fades out with an offstage women's chorus."),
    ("Claude Debussy", "Prélude à l'après-midi d'un faune", None, 10, 1894,
     "The solo flute's opening phrase is often called the beginning of modern music. "
     "Debussy took his subject from a poem by Stéphane Mallarmé."),
    ("Carl Nielsen", "Clarinet Concerto", "Op. 57", 25, 1928,
     "Nielsen wrote the concerto for Aage Oxenvad, a clarinettist known for his temper. "
     "A snare drum needles the soloist throughout the single movement."),
    ("Gustav Mahler", "Songs of a Wayfarer", None, 17, 1885,
     "Mahler wrote both the words and the music of these four songs after an unhappy love affair in Kassel. "
     "Two of the melodies return in his First Symphony."),
    ("Ralph Vaughan Williams", "Five Mystical Songs", None, 19, 1911,
     "Settings of poems by George Herbert for baritone, chorus and orchestra, first heard at the Three Choirs "
     "Festival in Worcester. Our performance uses the version without chorus."),
    ("Richard Strauss", "Four Last Songs", None, 23, 1948,
     "Strauss wrote these songs at the age of eighty-four and did not live to hear them performed. "
     "The last, Im Abendrot, quotes his own tone poem Death and Transfiguration."),
    ("Maurice Ravel", "Boléro", None, 15, 1928,
     "Ravel called Boléro an experiment in orchestration without music. "
     "A single melody is repeated over an unchanging snare drum rhythm, growing louder until a sudden modulation."),
    ("Sergei Rachmaninoff", "Symphonic Dances", "Op. 45", 35, 1940,
     "Rachmaninoff's last composition was written on Long Island in the summer of 1940. "
     "An alto saxophone sings the melody of the first dance. "
     "The finale sets the Dies irae against a chant from the Russian Orthodox vigil."),
    ("Hector Berlioz", "Roman Carnival Overture", "Op. 9", 9, 1844,
     "Berlioz recycled music from his failed opera Benvenuto Cellini into this concert overture. "
     "The cor anglais solo near the opening is one of the best known in the repertoire."),
    ("Felix Mendelssohn", "The Hebrides", "Op. 26", 10, 1830,
     "Mendelssohn sketched the opening theme on a postcard home after a visit to the Isle of Mull. "
     "It is also known as Fingal's Cave."),
    ("Benjamin Britten", "Four Sea Interludes", "Op. 33a", 16, 1945,
     "Britten drew these interludes from his opera Peter Grimes, set on the Suffolk coast. "
     "They describe dawn, Sunday morning, moonlight and a storm."),
    ("Florence Price", "Symphony No. 1 in E minor", None, 38, 1932,
     "Price's first symphony won the Wanamaker Prize and was performed by the Chicago Symphony Orchestra in 1933. "
     "Its third movement is a Juba dance."),
    ("Antonín Dvořák", "Cello Concerto in B minor", "Op. 104", 40, 1895,
     "Dvořák wrote the concerto in New York at the end of his time in America. "
     "He rewrote the ending after the death of his sister-in-law Josefina, quoting one of her favourite songs."),
    ("Jean Sibelius", "Finlandia", "Op. 26", 8, 1899,
     "Sibelius wrote Finlandia as a protest against Russian censorship. "
     "Its hymn tune was later given words and became a national song."),
    ("Samuel Coleridge-Taylor", "Ballade in A minor", "Op. 33", 12, 1898,
     "Coleridge-Taylor wrote the Ballade for the Three Choirs Festival on the recommendation of Elgar, at the age of twenty-three."),
    ("Gabriel Fauré", "Pavane", "Op. 50", 6, 1887,
     "Fauré's Pavane was written for a series of popular concerts and later given an optional chorus."),
]

# code, title, venue, conductor, date, time, ticket price, broadcast, programme [(work index 0-based, soloist)]
CONCERTS = [
    ("CS24-01", "Season Opening: Enigma", 1, 1, "2024-09-14", "19:30", "24.00", 1, [(18, None), (4, 9), (0, None)]),
    ("CS24-02", "Fate and Fanfares", 4, 3, "2024-10-05", "19:30", "26.00", 0, [(19, None), (9, 12), (2, None)]),
    ("CS24-03", "Hebden Strings", 2, 2, "2024-10-26", "15:00", "16.00", 0, [(25, None), (7, 9), (24, None)]),
    ("CS24-04", "Songs of the Wayfarer", 3, 4, "2024-11-16", "19:00", "15.00", 0, [(23, None), (13, 5), (14, 5)]),
    ("CS24-05", "The Planets", 1, 1, "2024-12-07", "19:30", "28.00", 1, [(11, None), (16, None), (10, None)]),
    ("CS25-06", "New Year Viennese Gala", 4, 2, "2025-01-11", "14:30", "22.00", 0, [(8, 6), (25, None), (6, None)]),
    ("CS25-07", "Northern Lights", 6, 3, "2025-02-01", "19:30", "20.00", 0, [(23, None), (12, 10), (3, None)]),
    ("CS25-08", "Sea Interludes", 1, 4, "2025-02-22", "19:30", "24.00", 1, [(20, None), (5, 7), (1, None)]),
    ("CS25-09", "Price and Dvořák", 5, 2, "2025-03-15", "19:30", "18.00", 0, [(24, None), (22, 7), (21, None)]),
    ("CS25-10", "Last Songs", 1, 1, "2025-04-05", "19:30", "26.00", 0, [(11, None), (15, 8), (17, None)]),
    ("CS25-11", "Spring Serenade", 2, 4, "2025-04-26", "15:00", "16.00", 0, [(19, None), (4, 9), (6, None)]),
    ("CS25-12", "Mozart by Candlelight", 3, 2, "2025-05-17", "19:00", "15.00", 0, [(25, None), (8, 12), (13, 11)]),
    ("CS25-13", "Symphonic Dances", 4, 3, "2025-06-07", "19:30", "28.00", 1, [(18, None), (9, 6), (17, None)]),
    ("CS25-14", "Summer Finale", 1, 1, "2025-06-28", "19:30", "24.00", 0, [(23, None), (22, 7), (2, None)]),
]
TODAY = dt.date(2025, 3, 20)  # the date the database was copied: later concerts have no attendance yet


def build(path):
    rnd = random.Random(SEED)
    if os.path.exists(path):
        os.remove(path)
    con = sqlite3.connect(path)
    con.executescript(SCHEMA)
    con.executemany("INSERT INTO venues VALUES (?,?,?,?,?,?,?)", VENUES)
    con.executemany("INSERT INTO artists VALUES (?,?,?,?,?,?,?)", ARTISTS)
    for i, w in enumerate(WORKS, 1):
        con.execute("INSERT INTO works VALUES (?,?,?,?,?,?,?)", (i, *w[:5], w[5]))

    # players: namesakes on purpose (two D. Marshes in the low strings, Tom and Sarah Hale, Anna Kowal
    # sharing a surname with the principal conductor, Tom Hale beside the baritone Thomas Hale)
    fixed = {("VN1", 0): ("Anna", "Kowal"), ("VC", 1): ("David", "Marsh"), ("DB", 0): ("Daniel", "Marsh"),
             ("HN", 0): ("Tom", "Hale"), ("VC", 0): ("Sarah", "Hale"), ("VLA", 0): ("Jonas", "Feld"),
             ("VN2", 2): ("Rachel", "Ackroyd"), ("VLA", 2): ("Rachel", "Ackroyd-Lumb")}
    used_last = {ln for _, ln in fixed.values()}
    players, pid = [], 0
    for code, _, family, _ in SECTIONS:
        for k in range(ON_LIST[code]):
            pid += 1
            if (code, k) in fixed:
                fn, ln = fixed[(code, k)]
            else:
                while True:
                    fn, ln = rnd.choice(FIRST), rnd.choice(LAST)
                    if ln not in used_last:
                        break
                used_last.add(ln)
            if k == 0 and code == "TB":
                chair = "Co-principal"  # the principal trombone chair is vacant this season: its co-principal leads
            elif k == 0:
                chair = "Leader" if code == "VN1" else "Principal"
            elif k == 1 and code in ("VN1", "VN2", "VC", "HN"):
                chair = "Co-principal" if code in ("VN1", "HN") else "Sub-principal"
            else:
                chair = "Tutti"
            joined = dt.date(2006, 9, 1) + dt.timedelta(days=rnd.randrange(0, 17 * 365))
            base = {"Leader": 210, "Principal": 165, "Co-principal": 150, "Sub-principal": 140, "Tutti": 125}[chair]
            fee = base + rnd.choice([0, 0, 5, 10, 12.5])
            email = f"{fn.lower()}.{ln.lower()}@calderbrooksinfonia.org.uk"
            if ln == "Marsh":
                email = f"{fn[0].lower()}{ln.lower()}.{code.lower()}@calderbrooksinfonia.org.uk"
            players.append([pid, fn, ln, code, chair, joined.isoformat(), email, f"{fee:.2f}", rnd.choice(TOWNS)])
    con.executemany("INSERT INTO players VALUES (?,?,?,?,?,?,?,?,?)", players)
    for code, name, family, seats in SECTIONS:
        principal = next((p[0] for p in players if p[3] == code and p[4] in ("Leader", "Principal")), None)
        if code == "TB":
            principal = None  # the principal trombone chair is vacant this season
        con.execute("INSERT INTO sections VALUES (?,?,?,?,?)", (code, name, family, seats, principal))

    for cid, (code, title, venue, cond, date, time, price, bc, prog) in enumerate(CONCERTS, 1):
        day = dt.date.fromisoformat(date)
        cap = VENUES[venue - 1][4]
        att = None if day > TODAY else int(cap * rnd.uniform(0.55, 0.97))
        con.execute("INSERT INTO concerts VALUES (?,?,?,?,?,?,?,?,?,?)",
                    (cid, code, title, venue, cond, date, time, price, att, bc))
        for no, (w, solo) in enumerate(prog, 1):
            con.execute("INSERT INTO programme_items VALUES (?,?,?,?)", (cid, no, w + 1, solo))
        small = venue in (2, 3, 5)  # chamber-sized band in the small halls
        for p in players:
            sec = p[3]
            if sec in ("TB", "TIM") and small:
                continue
            if p[4] in ("Leader", "Principal") or rnd.random() < (0.55 if small else 0.8):
                fee = float(p[7]) + (rnd.choice([0, 0, 0, 20, 35]) if not small else 0)
                conf = day - dt.timedelta(days=rnd.randrange(20, 90))
                conf_s = None if rnd.random() < 0.06 else conf.isoformat()
                con.execute("INSERT INTO engagements VALUES (?,?,?,?)", (cid, p[0], f"{fee:.2f}", conf_s))
    con.commit()
    con.close()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "calderbrook.sqlite"))
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
