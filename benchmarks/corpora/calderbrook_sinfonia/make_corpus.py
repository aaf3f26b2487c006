#!/usr/bin/env python3
"""Write the Calderbrook Sinfonia document corpus (docs/) and its recorded truth (truth.json) from
calderbrook.sqlite.

    python3 make_corpus.py [--db calderbrook.sqlite] [--out .]

Every database fact a document states is recorded at the moment it is written (Doc.v), with its
character offsets; nothing is found by searching the text afterwards.  Standard library only,
seeded, deterministic.  Written without reading ragdx's linker or normaliser.
"""

from __future__ import annotations

import argparse
import datetime as dt
import html
import json
import os
import random
import shutil
import sqlite3
import unicodedata
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 5219
ORCH = "Calderbrook Sinfonia"
SIGN = "Calderbrook Sinfonia CIO · The Orchestra Office, 3 Commercial Street, Halifax HX1 1BA · Charity no. 1187402"
TODAY = dt.date(2025, 3, 20)

# ------------------------------------------------------------------ values as the orchestra writes them


def D(s):
    return dt.date.fromisoformat(s)


def ordinal(n):
    return f"{n}{'th' if 10 < n % 100 < 14 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def date_words(s):  # 14 September 2024
    x = D(s)
    return f"{x.day} {x:%B %Y}"


def date_ordinal(s):  # the 14th of September 2024
    x = D(s)
    return f"the {ordinal(x.day)} of {x:%B %Y}"


def date_dow_noyear(s):  # Saturday 14 September  (the year is in the heading above)
    x = D(s)
    return f"{x:%A} {x.day} {x:%B}"


def date_dm(s):  # Sat 14/9   (the season is in the heading)
    x = D(s)
    return f"{x:%a} {x.day}/{x.month}"


def date_dots2(s):  # 14.09.24
    return f"{D(s):%d.%m.%y}"


def date_dots(s):  # 14.09.2024
    return f"{D(s):%d.%m.%Y}"


def date_us(s):  # September 14, 2024
    x = D(s)
    return f"{x:%B} {x.day}, {x.year}"


def date_abbrev(s):  # 14 Sep 2024
    x = D(s)
    return f"{x.day} {x:%b %Y}"


def time_pm(t):  # 19:30 -> 7.30pm, 15:00 -> 3pm
    h, m = map(int, t.split(":"))
    suf = "pm" if h >= 12 else "am"
    h = h - 12 if h > 12 else h
    return f"{h}{suf}" if m == 0 else f"{h}.{m:02d}{suf}"


def time_words(t):
    h, m = map(int, t.split(":"))
    words = {1: "one", 2: "two", 3: "three", 7: "seven", 6: "six"}
    h12 = h - 12 if h > 12 else h
    return {0: f"{words[h12]} o'clock", 30: f"half past {words[h12]}"}[m]


def gbp(v):  # £2,450.00
    return f"£{float(v):,.2f}"


def gbp_short(v):  # £24 or £137.50
    v = float(v)
    return f"£{int(v):,}" if v == int(v) else f"£{v:,.2f}"


def gbp_k(v):  # £2.45k (only where it is the exact value)
    v = float(v)
    s = f"{v / 1000:.3f}".rstrip("0").rstrip(".")
    assert float(s) * 1000 == v, v
    return f"£{s}k"


def gbp_space_after(v):  # 2 450 GBP
    return f"{int(float(v)):,}".replace(",", " ") + " GBP"


def gbp_eu(v):  # GBP 4.500,00
    whole, frac = f"{float(v):.2f}".split(".")
    return "GBP " + f"{int(whole):,}".replace(",", ".") + "," + frac


def thousands(n):
    return f"{int(n):,}"


ONES = ["", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
        "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def money_words(v):  # 2450 -> two thousand four hundred and fifty pounds (whole pounds under 10,000)
    n = int(float(v))
    assert n == float(v) and n < 10000
    th, rest = divmod(n, 1000)
    hu, below = divmod(rest, 100)
    parts = []
    if th:
        parts.append(f"{ONES[th]} thousand")
    if hu:
        parts.append(f"{ONES[hu]} hundred")
    if below:
        w = ONES[below] if below < 20 else TENS[below // 10] + ("-" + ONES[below % 10] if below % 10 else "")
        parts.append(("and " if parts else "") + w)
    return " ".join(parts) + " pounds"


INSTRUMENT = {"VN1": "First Violin", "VN2": "Second Violin", "VLA": "Viola", "VC": "Cello", "DB": "Double Bass",
              "FL": "Flute", "OB": "Oboe", "CL": "Clarinet", "BN": "Bassoon", "HN": "Horn", "TP": "Trumpet",
              "TB": "Trombone", "TIM": "Timpani"}
PLAYER_NOUN = {"piano": "pianist", "cello": "cellist", "violin": "violinist", "clarinet": "clarinettist"}
FEMALE = {"Anna", "Beth", "Carys", "Eilidh", "Farah", "Helen", "Kate", "Maya", "Niamh", "Priya", "Rachel",
          "Ursula", "Wendy", "Zoe", "Joanna", "Sarah", "Clare", "Gemma", "Leah"}
NICK = {"Daniel": "Dan", "David": "Dave", "Thomas": "Tom", "Vikram": "Vik", "Gareth": "Gaz", "Jonas": "Jo",
        "Rachel": "Rach", "Lewis": "Lew"}


def slug(s):
    s = "".join(ch for ch in unicodedata.normalize("NFKD", s) if not unicodedata.combining(ch))
    out = "".join(ch.lower() if ch.isalnum() else "-" for ch in s.replace("'", ""))
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-").encode("ascii", "ignore").decode()


class Doc:
    def __init__(self, path, kind, title, distractor=False):
        self.path, self.kind, self.title, self.distractor = path, kind, title, distractor
        self.html = path.endswith(".html")
        self.parts, self.n, self.facts = [], 0, []

    def add(self, s):
        self.parts.append(s)
        self.n += len(s)
        return self

    def v(self, s, keys=(), how="prose", form="verbatim", exact=True, split_id=None):
        """Write S (escaped in HTML) and record it as stating each fact key in KEYS."""
        s = str(s)
        out = html.escape(s, quote=False) if self.html else s
        start = self.n
        self.add(out)
        if isinstance(keys, str):
            keys = [keys]
        for k in keys:
            f = {"fact_key": k, "doc_id": self.path, "surface": s, "start": start, "end": start + len(out),
                 "exact": exact, "how": how, "form": form}
            if split_id:
                f["split_id"] = split_id
            self.facts.append(f)
        return self

    def text(self):
        return "".join(self.parts)


# fact keys
def kc(col, cid):
    return f"concerts.{col}@{cid}"


def kp(col, pid):
    return f"players.{col}@{pid}"


def kv(col, vid):
    return f"venues.{col}@{vid}"


def ka(col, aid):
    return f"artists.{col}@{aid}"


def kw(col, wid):
    return f"works.{col}@{wid}"


def ks(col, code):
    return f"sections.{col}@{code}"


def kpi(col, cid, no):
    return f"programme_items.{col}@{cid}|{no}"


def ke(col, cid, pid):
    return f"engagements.{col}@{cid}|{pid}"


class Corpus:
    def __init__(self, db):
        self.con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        self.con.row_factory = sqlite3.Row
        self.rnd = random.Random(SEED)
        self.docs, self.split, self.omitted = [], [], {}
        q = self.q
        self.sec = {r["section_code"]: r for r in q("SELECT * FROM sections ORDER BY rowid")}
        self.pl = {r["player_id"]: r for r in q("SELECT * FROM players ORDER BY player_id")}
        self.ve = {r["venue_id"]: r for r in q("SELECT * FROM venues ORDER BY venue_id")}
        self.ar = {r["artist_id"]: r for r in q("SELECT * FROM artists ORDER BY artist_id")}
        self.wo = {r["work_id"]: r for r in q("SELECT * FROM works ORDER BY work_id")}
        self.co = {r["concert_id"]: r for r in q("SELECT * FROM concerts ORDER BY concert_id")}
        self.prog = defaultdict(list)
        for r in q("SELECT * FROM programme_items ORDER BY concert_id, item_no"):
            self.prog[r["concert_id"]].append(r)
        self.eng = defaultdict(dict)
        for r in q("SELECT * FROM engagements ORDER BY concert_id, player_id"):
            self.eng[r["concert_id"]][r["player_id"]] = r
        self.by_sec = defaultdict(list)
        for p in self.pl.values():
            self.by_sec[p["section_code"]].append(p)

    def q(self, sql, *a):
        return self.con.execute(sql, a).fetchall()

    def doc(self, *a, **k):
        d = Doc(*a, **k)
        self.docs.append(d)
        return d

    def name(self, p):
        return f"{p['first_name']} {p['last_name']}"

    def omit(self, group, rule, keys):
        g = self.omitted.setdefault(group, {"rule": rule, "fact_keys": []})
        g["fact_keys"].extend(keys)

    def season_of(self, s):
        return "Autumn 2024" if D(s).year == 2024 else "Spring and Summer 2025"

    def work_line(self, d, cid, it, how, composer_form="surname-only"):
        """'Elgar  Enigma Variations' for a programme item: the row, its work, the composer."""
        w = self.wo[it["work_id"]]
        no = it["item_no"]
        comp = composer_sort(w["composer"])[0] if composer_form == "surname-only" else w["composer"]
        d.v(comp, kw("composer", w["work_id"]), how, composer_form)
        d.add(" — " if not d.html else ": ")
        d.v(w["title"], [kpi("work_id", cid, no), kpi("item_no", cid, no)], how, "verbatim")
        if it["soloist_id"]:
            a = self.ar[it["soloist_id"]]
            d.add(" (").v(a["name"], kpi("soloist_id", cid, no), how, "name").add(", ")
            d.v(a["instrument"], ka("instrument", a["artist_id"]), how, "verbatim").add(")")

    # -------------------------------------------------------------- season brochure: a section per concert
    def brochure(self):
        for season, path in (("Autumn 2024", "brochure/autumn-2024.md"),
                             ("Spring and Summer 2025", "brochure/spring-summer-2025.md")):
            d = self.doc(path, "brochure", f"{ORCH} {season}")
            d.add(f"# {ORCH} · Season 2024/25\n\n## {season}\n\n")
            d.add("Subscribers save 15 % on every concert. Under-18s go free with a paying adult.\n\n")
            for cid, c in self.co.items():
                if self.season_of(c["concert_date"]) != season:
                    continue
                v = self.ve[c["venue_id"]]
                d.add(f"### {c['title']}\n\n")
                d.add("**").v(date_dow_noyear(c["concert_date"]), kc("concert_date", cid), "heading-subject", "date-year-in-heading")
                d.add(", ").v(time_pm(c["start_time"]), kc("start_time", cid), "heading-subject", "time-pm").add(" · ")
                d.v(v["name"], kc("venue_id", cid), "heading-subject", "name").add("**\n\n")
                for it in self.prog[cid]:
                    d.add("- ")
                    self.work_line(d, cid, it, "table-under-heading")
                    d.add("\n")
                cond = self.ar[c["conductor_id"]]
                # truth audit: "Conductor Marek Kowal." also states the artist's role
                d.add("\n").v("Conductor", ka("role", c["conductor_id"]), "prose", "capitalised").add(" ")
                d.v(cond["name"], kc("conductor_id", cid), "heading-subject", "name")
                d.add(". Tickets ").v(gbp_short(c["ticket_price"]), kc("ticket_price", cid), "heading-subject", "gbp-short")
                d.add(", concessions £3 less.")
                if c["broadcast"]:
                    d.add(" ").v("Broadcast live on Calder FM.", kc("broadcast", cid), "heading-subject", "boolean-phrase")
                main = self.wo[self.prog[cid][-1]["work_id"]]
                first = main["programme_note"].split(". ")[0] + "."
                d.add("\n\n> ").v(first, kw("programme_note", main["work_id"]), "heading-subject", "long-text-excerpt", exact=False)
                d.add("\n\n")
            d.add(f"---\nBox office 01422 300 100 · {SIGN}\n")

    # -------------------------------------------------------------- one web page per concert (HTML card)
    def concert_pages(self):
        for cid, c in self.co.items():
            v, cond = self.ve[c["venue_id"]], self.ar[c["conductor_id"]]
            d = self.doc(f"concerts/{c['code'].lower()}.html", "concert-page", c["title"])
            d.add(f"<html><head><title>{html.escape(c['title'])} | {ORCH}</title></head><body>\n")
            d.add("<h1>").v(c["title"]).add("</h1>\n<p class=\"code\">")
            d.v(c["code"], kc("code", cid), "heading-subject", "code").add("</p>\n<dl>\n")
            if cid % 3 == 0:
                d.add("<dt>When</dt><dd>").v(date_us(c["concert_date"]), kc("concert_date", cid), "card", "date-us")
            else:
                d.add("<dt>When</dt><dd>").v(date_words(c["concert_date"]), kc("concert_date", cid), "card", "date-words")
            d.add(", ").v(c["start_time"], kc("start_time", cid), "card", "verbatim").add("</dd>\n")
            d.add("<dt>Where</dt><dd>").v(v["name"], kc("venue_id", cid), "card", "name").add("</dd>\n")
            d.add("<dt>").v("Conductor", ka("role", c["conductor_id"]), "card", "capitalised")  # truth audit
            d.add("</dt><dd>").v(cond["name"], kc("conductor_id", cid), "card", "name").add("</dd>\n")
            d.add("<dt>Tickets</dt><dd>").v(gbp(c["ticket_price"]), kc("ticket_price", cid), "card", "gbp-sym")
            d.add(" (concessions available)</dd>\n")
            if c["broadcast"]:
                d.add("<dt>Radio</dt><dd>").v("Live on Calder FM", kc("broadcast", cid), "card", "boolean-phrase").add("</dd>\n")
            d.add("</dl>\n<h2>Programme</h2>\n<ol>\n")
            for it in self.prog[cid]:
                d.add("<li>")
                self.work_line(d, cid, it, "card", "name")
                d.add("</li>\n")
            d.add("</ol>\n<p>Pre-concert talk one hour before the start in the foyer. Latecomers are admitted "
                  "at a suitable break.</p>\n</body></html>\n")

    # -------------------------------------------------------------- programme notes (long text)
    def programme_notes(self):
        unpublished = {9, 13, 17, 24, 26}  # the librarian has not written these yet
        for wid, w in self.wo.items():
            if wid in unpublished:
                self.omit("notes_unpublished", "five works have no published programme note", [kw("programme_note", wid)])
                continue
            d = self.doc(f"programme-notes/{slug(w['composer'].split()[-1] + ' ' + w['title'])}.md", "programme-note",
                         w["title"])
            d.add("# ").v(w["composer"], kw("composer", wid), "heading-subject", "name").add(": ").v(w["title"])
            if w["catalogue"]:
                d.add(", ").v(w["catalogue"], kw("catalogue", wid), "heading-subject", "verbatim")
            d.add("\n\n")
            if wid % 2:
                d.add("*Composed ").v(w["year_composed"], kw("year_composed", wid), "heading-subject", "plain-number")
                d.add(" · duration ").v(f"{w['duration_min']}'", kw("duration_min", wid), "heading-subject", "duration-prime")
                d.add("*\n\n")
            else:
                d.add("*Duration: ").v(f"{w['duration_min']} minutes", kw("duration_min", wid), "heading-subject", "number-unit")
                d.add("*\n\n")
            d.v(w["programme_note"], kw("programme_note", wid), "heading-subject", "long-text").add("\n\n")
            d.add("Note by the orchestra's librarian. Reproduction only with permission.\n")

    # -------------------------------------------------------------- players
    def directory(self):
        d = self.doc("players/directory.html", "player-directory", "Player directory 2024/25")
        d.add("<html><head><title>Player directory 2024/25</title></head><body>\n<h1>Player directory 2024/25</h1>\n")
        d.add("<p>Contracted players only. Extras and deps are booked by the fixer and are not listed.</p>\n<table>\n")
        d.add("<tr><th rowspan=\"2\">Name</th><th rowspan=\"2\">Chair</th><th colspan=\"2\">With us</th>"
              "<th rowspan=\"2\">Lives in</th><th rowspan=\"2\">E-mail</th></tr>\n<tr><th>since</th><th>calls 24/25</th></tr>\n")
        family = None
        for code, s in self.sec.items():
            if s["family"] != family:
                family = s["family"]
                fam_codes = [c for c, x in self.sec.items() if x["family"] == family]
                d.add("<tr><th colspan=\"6\">").v(family.upper(), [ks("family", c) for c in fam_codes], "table-under-heading", "uppercase")
                d.add("</th></tr>\n")
            d.add("<tr><th colspan=\"6\">").v(s["name"], ks("name", code), "table", "verbatim").add(" (")
            d.v(code, ks("name", code), "table", "code").add(")</th></tr>\n")
            for p in self.by_sec[code]:
                pid = p["player_id"]
                calls = sum(1 for c in self.eng.values() if pid in c)
                d.add("<tr><td>").v(f"{p['last_name']}, {p['first_name']}", kp("section_code", pid), "table-under-heading", "name-reordered")
                d.add("</td><td>").v(p["chair"], kp("chair", pid), "html-table").add("</td><td>")
                d.v(date_abbrev(p["joined_on"]), kp("joined_on", pid), "html-table", "date-abbrev").add(f"</td><td>{calls}</td><td>")
                d.v(p["home_town"], kp("home_town", pid), "html-table").add("</td><td>")
                d.v(p["email"], kp("email", pid), "html-table").add("</td></tr>\n")
        d.add("</table>\n<p>Changes to the orchestra manager, please.</p>\n</body></html>\n")

    def section_lists(self):
        for fams, path in ((("strings",), "players/sections-strings.txt"),
                           (("woodwind", "brass", "percussion"), "players/sections-wind-brass-percussion.txt")):
            d = self.doc(path, "section-list", "Sections and seating")
            d.add(f"{ORCH.upper()} - SECTIONS AND SEATING, SEASON 2024/25\n")
            d.add("Establishment = seats in a full symphonic call. Chairs as agreed at the March 2024 audition panel.\n")
            for fam in fams:
                codes = [c for c, s in self.sec.items() if s["family"] == fam]
                d.add("\n== ").v(fam.upper(), [ks("family", c) for c in codes], "heading-subject", "uppercase").add(" ==\n")
                for code in codes:
                    s = self.sec[code]
                    d.add("\n").v(s["name"].upper(), ks("name", code), "heading-subject", "uppercase").add(" [")
                    d.v(code, ks("name", code), "heading-subject", "code").add("]  establishment ")
                    d.v(f"{s['seats']} seats", ks("seats", code), "heading-subject", "number-unit").add("\n")
                    ps = self.by_sec[code]
                    if s["principal_id"] is None:
                        d.add("  Principal ").v(INSTRUMENT[code], (), "kv-text").add(" ......... ")
                        d.v("vacant", ks("principal_id", code), "kv-text", "null-stated").add(" (guest principals booked per concert)\n")
                    for p in ps:
                        pid = p["player_id"]
                        keys = [kp("section_code", pid)]
                        if p["chair"] == "Tutti":
                            d.add("  ").v(self.name(p), keys, "table-under-heading", "name").add("\n")
                            continue
                        if s["principal_id"] == pid:
                            keys.append(ks("principal_id", code))
                        d.add("  ").v(p["chair"], kp("chair", pid), "kv-text")
                        if p["chair"] != "Leader":
                            d.add(" ").v(INSTRUMENT[code], kp("section_code", pid), "kv-text", "instrument-singular")
                        d.add(" " + "." * (28 - len(p["chair"]) - len(INSTRUMENT[code])) + " ")
                        d.v(self.name(p), keys, "table-under-heading", "name").add("\n")
            d.add("\nQueries about seating to the Leader, not the office.\n")

    def bios(self):
        pick = [1, 7, 12, 16, 17, 20, 23, 25, 29, 31, 35, 39, 9, 14]
        hobbies = ["walks the Calderdale Way most weekends.", "teaches at the Huddersfield junior music school.",
                   "brews beer in a shed in the garden.", "sings bass in a Todmorden choir on the side.",
                   "restores old bicycles.", "is learning Welsh.", "runs the Halifax parkrun most Saturdays."]
        for pid in pick:
            p = self.pl[pid]
            code = p["section_code"]
            she = "She" if p["first_name"] in FEMALE else "He"
            d = self.doc(f"players/bios/{slug(self.name(p))}.md", "bio", self.name(p))
            d.add(f"# {self.name(p)}\n\n**")
            d.v(p["chair"], kp("chair", pid), "heading-subject")
            if p["chair"] != "Leader":
                d.add(" ").v(INSTRUMENT[code], kp("section_code", pid), "heading-subject", "instrument-singular")
            d.add("**\n\n")
            joined = D(p["joined_on"])
            if pid % 3 == 0:
                d.add(f"{p['first_name']} joined the Sinfonia on ")
                d.v(date_ordinal(p["joined_on"]), kp("joined_on", pid), "prose", "date-ordinal")
            else:
                season = {12: "winter", 1: "winter", 2: "winter"}.get(joined.month) or (
                    "spring" if joined.month < 6 else "summer" if joined.month < 9 else "autumn")
                d.add(f"{p['first_name']} joined the Sinfonia in the ")
                d.v(f"{season} of {joined.year}", kp("joined_on", pid), "prose", "approx-date", exact=False)
            d.add(f" after freelancing across the North. {she} lives in ")
            d.v(p["home_town"], kp("home_town", pid), "pronoun").add(" and " + self.rnd.choice(hobbies) + "\n\n")
            if pid == 31:
                d.add("Tom is no relation of the ").v("baritone", ka("instrument", 5), "prose", "verbatim")
                d.add(" Thomas Hale, though their post is forever being swapped.\n\n")
            if pid in (17, 20):
                other = self.pl[37 - pid]
                d.add(f"Not to be confused with {self.name(other)} a few desks away.\n\n")
            if pid % 2:
                d.add("Contact: ").v(p["email"], kp("email", pid), "heading-subject").add("\n")

    # -------------------------------------------------------------- call sheets, fee statements, rates
    def call_sheets(self):
        for cid, c in self.co.items():
            if cid in (4, 12, 13, 14):
                continue  # CS24-04's sheet was never filed; the last three are not issued yet
            v = self.ve[c["venue_id"]]
            d = self.doc(f"callsheets/{c['code'].lower()}.txt", "call-sheet", f"Call sheet {c['code']}")
            d.add(f"{ORCH.upper()} - CALL SHEET                         Season 2024/25\n")
            d.v(c["code"], kc("code", cid), "kv-text", "code").add("  ").v(c["title"]).add("\n")
            d.add("Concert   ").v(date_dm(c["concert_date"]), kc("concert_date", cid), "kv-text", "date-dm-season")
            d.add("  ").v(time_pm(c["start_time"]), kc("start_time", cid), "kv-text", "time-pm").add("  ")
            d.v(v["name"], kc("venue_id", cid), "kv-text", "name").add("\n")
            reh = D(c["concert_date"]) - dt.timedelta(days=2)
            d.add(f"Rehearse  {reh:%a} {reh.day}/{reh.month} 18:30-21:30 (St Mary's church hall)  + on the day 14:00\n\n")
            d.add("SEC   PLAYER\n")
            for pid in self.eng[cid]:
                p = self.pl[pid]
                d.v(p["section_code"], kp("section_code", pid), "table", "code").add(" " * (6 - len(p["section_code"])))
                d.v(f"{p['last_name'].upper()} {p['first_name'][0]}.", ke("player_id", cid, pid), "table-under-heading", "name-initial-upper")
                if p["chair"] == "Leader":
                    d.add("   (").v("leader", kp("chair", pid), "kv-text", "lowercase").add(")")
                d.add("\n")
            d.add(f"\nExtras: {self.rnd.randint(2, 6)} via the fixer. Dress: concert blacks. Parking at the back.\n")

    def fee_statements(self):
        for pid in (1, 3, 9, 14, 16, 17, 20, 27, 31, 36):
            p = self.pl[pid]
            d = self.doc(f"fees/statement-{slug(p['last_name'] + ' ' + p['first_name'])}.md", "fee-statement",
                         f"Fee statement {self.name(p)}")
            d.add(f"# Fee statement: {p['last_name']}, {p['first_name']}\n\n")
            d.add("Season 2024/25, concerts played to 15 March 2025. Paid by BACS within 30 days of each concert.\n\n")
            plain = pid % 2 == 0
            d.add("| Date | Concert | " + ("Fee (£)" if plain else "Fee") + " |\n|---|---|--:|\n")
            total = 0.0
            for cid, c in self.co.items():
                e = self.eng[cid].get(pid)
                if not e or D(c["concert_date"]) > TODAY:
                    continue
                d.add("| ").v(date_dots2(c["concert_date"]), kc("concert_date", cid), "table", "date-dots-2y").add(" | ")
                if pid % 4 in (0, 1):
                    d.v(c["code"], ke("player_id", cid, pid), "table-under-heading", "code")
                else:
                    d.v(c["title"], ke("player_id", cid, pid), "table-under-heading", "name")
                d.add(" | ")
                if plain:
                    d.v(f"{float(e['fee']):.2f}", ke("fee", cid, pid), "table-under-heading", "plain-number")
                else:
                    d.v(gbp(e["fee"]), ke("fee", cid, pid), "table-under-heading", "gbp-sym")
                d.add(" |\n")
                total += float(e["fee"])
            d.add(f"\nTotal to date: {gbp(total)}. Mileage is claimed separately.\n")

    def rates_split(self):
        lead = [p for p in self.pl.values() if p["chair"] == "Leader"]
        for p in lead:
            self.omit("leader_rate", "the Leader's call fee is by private arrangement and written nowhere",
                      [kp("fee_per_call", p["player_id"])])
        others = [p for p in self.pl.values() if p["chair"] != "Leader"]
        fees = sorted({float(p["fee_per_call"]) for p in others}, reverse=True)
        band = {f: chr(ord("A") + i) for i, f in enumerate(fees)}
        a = self.doc("finance/call-rates-2024-25.md", "rate-card", "Call rates 2024/25")
        b = self.doc("finance/player-rate-bands.txt", "rate-bands", "Player rate bands")
        a.add("# Call rates, season 2024/25\n\nA call is one rehearsal-and-concert day. Bands are reviewed each "
              "summer; individual players are placed in a band by the finance committee (see the band list).\n\n")
        a.add("| Band | Fee per call |\n|---|--:|\n")
        b.add("RATE BANDS - CONTRACTED PLAYERS (finance committee, June 2024)\n\n")
        for f in fees:
            ps = [p for p in others if float(p["fee_per_call"]) == f]
            a.add(f"| {band[f]} | ")
            start = a.n
            a.add(gbp(f))
            for p in ps:
                pid = p["player_id"]
                sid = f"rate-{pid}"
                a.facts.append({"fact_key": kp("fee_per_call", pid), "doc_id": a.path, "surface": gbp(f), "start": start,
                                "end": a.n, "exact": True, "how": "split", "form": "gbp-sym", "split_id": sid})
                self.split.append({"fact_key": kp("fee_per_call", pid), "split_id": sid, "doc_ids": [a.path, b.path],
                                   "note": "the rate card gives the fee by band; the band list puts the player in a band"})
            a.add(" |\n")
            b.add(f"{band[f]}:  ")
            for i, p in enumerate(ps):
                if i:
                    b.add("; ")
                b.v(f"{p['last_name']}, {p['first_name']}", kp("fee_per_call", p["player_id"]), "split", "name-reordered",
                    split_id=f"rate-{p['player_id']}")
            b.add("\n")
        a.add("\nDeps are paid the band of the player they replace.\n")

    # -------------------------------------------------------------- venues
    def venues(self):
        for vid, v in self.ve.items():
            if vid == 6:
                keys = [kv(c, vid) for c in ("town", "postcode", "capacity", "hire_fee", "step_free")]
                self.omit("saltaire_venue", "Victoria Hall, Saltaire has no venue page, agreement or mention beyond its name", keys)
                continue
            d = self.doc(f"venues/{slug(v['name'])}.md", "venue", v["name"])
            d.add(f"# {v['name']}\n\n")
            if vid in (1, 3, 5):
                d.add("| | |\n|---|---|\n| Town | ").v(v["town"], kv("town", vid), "table").add(" |\n")
                d.add("| Postcode | ").v(v["postcode"], kv("postcode", vid), "table").add(" |\n")
                d.add("| Seats | ").v(thousands(v["capacity"]), kv("capacity", vid), "table", "thousands").add(" |\n")
                hire = gbp_k(v["hire_fee"]) if vid == 1 else gbp_short(v["hire_fee"])
                d.add("| Hire, per evening | ").v(hire, kv("hire_fee", vid), "table", "gbp-k" if vid == 1 else "gbp-short")
                d.add(" + VAT |\n| Step-free | ").v("yes" if v["step_free"] else "no", kv("step_free", vid), "table", "boolean-word")
                d.add(" |\n\nGet-in is through the side door; the band room is upstairs.\n")
            else:
                d.add("The hall is in ").v(v["town"], kv("town", vid), "heading-subject").add(" (")
                d.v(v["postcode"], kv("postcode", vid), "heading-subject").add(") and seats ")
                d.v(f"{v['capacity']:,}".replace(",", " "), kv("capacity", vid), "heading-subject", "space-thousands")
                d.add(". We pay ").v(gbp_k(v["hire_fee"]), kv("hire_fee", vid), "heading-subject", "gbp-k")
                d.add(" for an evening including the technician. ")
                d.v("Step-free access from the car park." if v["step_free"] else "No step-free access.", kv("step_free", vid),
                    "heading-subject", "boolean-phrase")
                d.add("\n\nThe piano is a Steinway D, tuned on the morning of each concert.\n")

    def hire_agreements(self):
        for vid in (1, 4):
            v = self.ve[vid]
            d = self.doc(f"venues/hire-agreement-{slug(v['name'])}.txt", "agreement", f"Hire agreement {v['name']}")
            d.add(f"HIRE AGREEMENT 2024/25\n\nHirer:  {ORCH} CIO\nVenue:  ").v(v["name"]).add("\n")
            d.add("Fee per evening:  ").v(money_words(v["hire_fee"]), kv("hire_fee", vid), "kv-text", "money-words")
            d.add(" (").v(gbp(v["hire_fee"]), kv("hire_fee", vid), "kv-text", "gbp-sym").add(") plus VAT\n")
            d.add("Capacity as licensed:  ").v(str(v["capacity"]), kv("capacity", vid), "kv-text", "plain-number").add("\n\nDates:\n")
            for cid, c in self.co.items():
                if c["venue_id"] == vid:
                    d.add("  ").v(date_words(c["concert_date"]), kc("concert_date", cid), "kv-text", "date-words")
                    d.add("  ").v(c["code"], [kc("code", cid), kc("venue_id", cid)], "kv-text", "code").add("\n")
            d.add("\nThe hirer is responsible for stewarding. Cancellation within 60 days: full fee payable.\n")

    # -------------------------------------------------------------- artists
    def artists(self):
        fee_stated = {1, 4, 6}
        for aid, a in self.ar.items():
            if aid not in fee_stated:
                self.omit("artist_fees", "guest artists' fees are confidential; only three appear (minutes and an agent's e-mail)",
                          [ka("fee", aid)])
            d = self.doc(f"artists/{slug(a['name'])}.md", "artist", a["name"])
            d.add(f"# {a['name']}\n\n*")
            if a["role"] == "conductor":
                d.v("Conductor", ka("role", aid), "heading-subject", "capitalised")
            else:
                d.v(a["instrument"].capitalize(), ka("instrument", aid), "heading-subject", "capitalised")
            d.add("* · ").v(a["nationality"], ka("nationality", aid), "heading-subject").add("\n\n")
            if a["role"] == "soloist":
                noun = PLAYER_NOUN.get(a["instrument"])
                d.add(f"{a['name'].split()[0]} is a ")
                d.v("soloist", ka("role", aid), "heading-subject", "verbatim")
                d.add(" who has appeared with orchestras across Europe")
                if noun:
                    d.add(" as a ").v(noun, ka("instrument", aid), "heading-subject", "instrument-agent-noun")
                d.add(".\n\n")
            else:
                d.add("A regular guest on the Sinfonia's podium, known for clear beat and short rehearsals.\n\n")
            d.add("Management: ")
            if a["agency"]:
                d.v(a["agency"], ka("agency", aid), "kv-text")
            else:
                d.v("self-managed", ka("agency", aid), "kv-text", "null-stated")
            d.add("\n\nWith us this season:\n\n")
            for cid, c in self.co.items():
                if c["conductor_id"] == aid:
                    d.add("- ").v(c["title"], kc("conductor_id", cid), "heading-subject", "name")
                    d.add(", ").v(date_abbrev(c["concert_date"]), kc("concert_date", cid), "table", "date-abbrev").add("\n")
                for it in self.prog[cid]:
                    if it["soloist_id"] == aid:
                        w = self.wo[it["work_id"]]
                        no = it["item_no"]
                        d.add("- ").v(w["title"], [kpi("soloist_id", cid, no), kpi("work_id", cid, no), kpi("item_no", cid, no)],
                                      "heading-subject", "name")
                        d.add(" in ").v(c["title"], kpi("soloist_id", cid, it["item_no"]), "heading-subject", "name")
                        d.add(", ").v(date_abbrev(c["concert_date"]), kc("concert_date", cid), "table", "date-abbrev").add("\n")

    # -------------------------------------------------------------- e-mail
    def mail(self):
        c1, marek = self.co[1], self.ar[1]
        d = self.doc("mail/re-season-opening-maestro-kowal.txt", "email", "Re: Season Opening - Maestro Kowal")
        d.add("From: Zofia Lis <zofia.lis@harrowartists.example>\nTo: office@calderbrooksinfonia.org.uk\nDate: 2 May 2024\n")
        d.add("Subject: Re: Season Opening 2024 - Maestro Kowal\n\nDear Ms Sutcliffe,\n\nwe confirm the fee of ")
        d.v(gbp_eu(marek["fee"]), ka("fee", 1), "prose", "gbp-eu").add(" for Maestro ")
        d.v("Kowal", kc("conductor_id", 1), "prose", "surname-only").add(" for the concert on ")
        d.v(date_dots(c1["concert_date"]), kc("concert_date", 1), "prose", "date-dots").add(" at ")
        d.v(self.ve[1]["name"], kc("venue_id", 1), "prose", "name").add(", one rehearsal day included.\n\nBest regards,\nZofia Lis\n\n")
        d.add("> On 28 April 2024 the orchestra office wrote:\n> Could ").v("Marek", kc("conductor_id", 1), "prose", "first-name")
        d.add(" conduct our ").v(c1["title"])
        d.add(" on ").v(date_ordinal(c1["concert_date"])[:-5], kc("concert_date", 1), "prose", "date-ordinal-noyear")
        d.add("? Same terms as last year, please.\n")

        c = self.co[11]
        eng = self.eng[11]
        assert 17 not in eng  # the e-mail says David Marsh cannot play this one
        d = self.doc("mail/deps-spring-serenade.txt", "email", "Deps for Spring Serenade")
        d.add("From: fixer@calderbrooksinfonia.org.uk\nDate: 3 March 2025\nSubject: deps for Spring Serenade, ")
        d.v(date_dm(c["concert_date"]), kc("concert_date", 11), "prose", "date-dm-season").add("\n\nHi all,\n\n")
        d.add("David Marsh can't do the ").v("Picture House", kc("venue_id", 11), "prose", "name-short")
        d.add(" date, so Dan Marsh has found us a cellist from Manchester (Dan stays on ")
        d.v("bass", kp("section_code", 20), "prose", "instrument-informal").add("). Confirmed so far for ")
        d.v(c["code"], kc("code", 11), "prose", "code").add(": ")
        confirmed = [pid for pid in (12, 16, 20, 23) if pid in eng]
        for i, pid in enumerate(confirmed):
            d.add(", " if i else "").v(self.name(self.pl[pid]), ke("player_id", 11, pid), "prose", "name")
        d.add(".\n\nStill looking for a second oboe.\n\nRob (fixing)\n")

        d = self.doc("mail/box-office-last-songs.txt", "email", "Last Songs price")
        d.add("From: boxoffice@calderbrooksinfonia.org.uk\nDate: 3 February 2025\nSubject: Last Songs pricing\n\n")
        d.add("Quick one: ").v(self.co[10]["title"]).add(" (").v(f"{D(self.co[10]['concert_date']).day} April", kc("concert_date", 10), "prose", "date-noyear")
        d.add(") is now ").v(gbp_short(self.co[10]["ticket_price"]), kc("ticket_price", 10), "prose", "gbp-short")
        d.add(" full price. It was £24 in the brochure draft, so please bin any old flyers.\n")

        c4 = self.co[4]
        d = self.doc("mail/st-marys-access.txt", "email", "St Mary's access")
        d.add("From: The Churchwarden, St Mary's Todmorden\nDate: 21 October 2024\nSubject: your concert on ")
        d.v(f"Sat {D(c4['concert_date']).day} Nov", kc("concert_date", 4), "prose", "date-noyear").add("\n\n")
        d.add("Dear orchestra manager,\n\nThank you for booking the church for the ")
        d.v("Wayfarer concert", kc("venue_id", 4), "prose", "title-short").add(". I'm afraid ")
        d.v("there is no step-free access to the nave", kv("step_free", 3), "prose", "boolean-phrase")
        d.add(": three steps at the west door. We can lend a ramp for the side chapel only.\n\nYours,\nMargaret\n")

        c5 = self.co[5]
        d = self.doc("mail/calder-fm-planets.txt", "email", "Calder FM and The Planets")
        d.add("From: producer@calderfm.example\nDate: 14 November 2024\nSubject: The Planets, ")
        d.v(f"{D(c5['concert_date']).day} December", kc("concert_date", 5), "prose", "date-noyear").add("\n\n")
        d.add("Hi both, just confirming that ").v("we'll carry the concert live", kc("broadcast", 5), "prose", "boolean-phrase")
        d.add(" from ").v(time_pm(c5["start_time"]), kc("start_time", 5), "prose", "time-pm")
        d.add(" with a short interval chat. Can ").v("Marek", kc("conductor_id", 5), "prose", "first-name")
        d.add(" do two minutes on Holst before the start?\n")

        c8 = self.co[8]
        d = self.doc("mail/confirmations-sea-interludes.txt", "email", "Confirmations Sea Interludes")
        d.add("From: fixer@calderbrooksinfonia.org.uk\nDate: 20 January 2025\nSubject: ").v(c8["title"]).add(" - who has confirmed\n\n")
        d.add("For the record, the first confirmations for ").v(c8["code"], kc("code", 8), "prose", "code").add(":\n\n")
        n = 0
        for pid, e in self.eng[8].items():
            if e["confirmed_on"] and n < 6:
                n += 1
                p = self.pl[pid]
                d.add("* ").v(f"{p['first_name'][0]}. {p['last_name']}", ke("player_id", 8, pid), "table-under-heading", "initial-name")
                d.add(" confirmed on ").v(date_ordinal(e["confirmed_on"]), ke("confirmed_on", 8, pid), "table-under-heading", "date-ordinal")
                d.add("\n")
        d.add("\nEveryone else: please reply to the offer e-mail.\n")

        assert 31 in self.eng[4]  # the e-mail says Tom Hale is on this call
        d = self.doc("mail/not-our-tom.txt", "email", "Not our Tom")
        d.add("From: office@calderbrooksinfonia.org.uk\nDate: 30 October 2024\nSubject: Thomas Hale vs Tom Hale\n\n")
        # truth audit: "the soloist in <concert> is Thomas Hale" states his role and that he is the soloist of
        # the concert's items he sings
        d.add("A reminder to the box office: the ").v("soloist", ka("role", 5), "prose", "verbatim").add(" in ")
        d.v(c4["title"]).add(" is ")
        d.v("Thomas Hale", [kpi("soloist_id", 4, it["item_no"]) for it in self.prog[4] if it["soloist_id"] == 5],
            "prose", "name").add(", the ")
        d.v("baritone", ka("instrument", 5), "prose", "verbatim").add(". He sings ")
        for i, it in enumerate(self.prog[4][1:]):
            no = it["item_no"]
            d.add(" and " if i else "").v(self.wo[it["work_id"]]["title"], [kpi("soloist_id", 4, no), kpi("work_id", 4, no),
                                                                          kpi("item_no", 4, no)], "prose", "name")
        d.add(". Our own ").v("Tom Hale", ke("player_id", 4, 31), "prose", "name").add(" (")
        d.v("Principal", kp("chair", 31), "prose").add(" ").v("Horn", kp("section_code", 31), "prose", "instrument-singular")
        d.add(") is on the call for that concert as well, which is why the two "
              "keep getting each other's post.\n")

        y = self.pl[34]
        d = self.doc("mail/welcome-yusuf.txt", "email", "Welcome Yusuf")
        d.add("From: office@calderbrooksinfonia.org.uk\nSubject: welcome!\n\nPlease welcome ").v(self.name(y))
        d.add(", who joined the ").v("horns", kp("section_code", 34), "prose", "section-lowercase").add(" on ")
        d.v(date_ordinal(y["joined_on"]), kp("joined_on", 34), "prose", "date-ordinal").add(". Yusuf comes to us from ")
        d.v(y["home_town"], kp("home_town", 34), "prose").add(", so car shares from that side of the valley are welcome.\n")

        v1 = self.ve[1]
        d = self.doc("mail/calder-hall-quote.txt", "email", "Calder Hall quote")
        d.add("From: bookings@calderhall.example\nDate: 5 March 2024\nSubject: 2024/25 dates\n\n")
        d.add("Good news: our rate for you stays at ").v(gbp_space_after(v1["hire_fee"]), kv("hire_fee", 1), "prose", "gbp-space-after")
        d.add(" + VAT per evening, for the full ").v(f"{v1['capacity']} seats", kv("capacity", 1), "prose", "number-unit")
        d.add(". Five dates are pencilled in.\n")

        d = self.doc("mail/library-timings.txt", "email", "Timings for Symphonic Dances")
        d.add("From: librarian@calderbrooksinfonia.org.uk\nDate: 10 March 2025\nSubject: timings, ").v(self.co[13]["code"], kc("code", 13), "prose", "code")
        d.add("\n\n").v("Sebastián", kc("conductor_id", 13), "prose", "first-name").add(" - timings for your ")
        d.v("June", kc("concert_date", 13), "prose", "month-only", exact=False).add(" programme:\n\n")
        for it in self.prog[13]:
            w = self.wo[it["work_id"]]
            d.add("  ").v(w["title"], [kpi("work_id", 13, it["item_no"]), kpi("item_no", 13, it["item_no"])], "table-under-heading", "name")
            d.add("  ")
            if it["item_no"] == 3:
                d.v(f"about {w['duration_min']} minutes", kw("duration_min", w["work_id"]), "table", "approx-number", exact=False)
            else:
                d.v(f"{w['duration_min']}'", kw("duration_min", w["work_id"]), "table", "duration-prime")
            d.add("\n")
        d.add("\nSo a little under 80 minutes of music plus the interval.\n")

    # -------------------------------------------------------------- board minutes
    def minutes(self):
        present = "Present: Helen Sutcliffe (chair), Hugh Barraclough (treasurer), Maya Greenwood, Owain Redman; " \
                  "in attendance: the orchestra manager.\n\n"
        d = self.doc("minutes/board-2024-06-12.md", "minutes", "Board minutes 12 June 2024")
        d.add("# Board of Trustees, 12 June 2024\n\n" + present)
        d.add("1. **Guest fees 2024/25.** ").v(self.ar[4]["name"]).add("'s fee was agreed at ")
        d.v(gbp_k(self.ar[4]["fee"]), ka("fee", 4), "prose", "gbp-k").add(" per concert; ").v(self.ar[6]["name"])
        d.add(" at ").v(gbp(self.ar[6]["fee"]), ka("fee", 6), "prose", "gbp-sym")
        d.add(". The treasurer noted that both are within the budget line.\n")
        d.add("2. **Venues.** ").v(self.ve[4]["name"]).add(" hire rises to ")
        d.v(gbp_k(self.ve[4]["hire_fee"]), kv("hire_fee", 4), "prose", "gbp-k").add(" an evening from September.\n")
        d.add("3. **Prices.** ").v(self.co[5]["title"]).add(" and ").v(self.co[13]["title"]).add(" at ")
        d.v(gbp_short(self.co[5]["ticket_price"]), [kc("ticket_price", 5), kc("ticket_price", 13)], "prose", "gbp-short")
        d.add(", the top price; chamber concerts at ").v(gbp_short(self.co[4]["ticket_price"]), [kc("ticket_price", 4), kc("ticket_price", 12)], "prose", "gbp-short")
        d.add(" (").v(self.co[4]["title"]).add(", ").v(self.co[12]["title"]).add(").\n4. AOB: none.\n")

        for date, cids in (("2024-10-16", (1, 2)), ("2025-01-22", (3, 4, 5, 6)), ("2025-03-19", (7, 8, 9))):
            d = self.doc(f"minutes/board-{date}.md", "minutes", f"Board minutes {date}")
            d.add(f"# Board of Trustees, {date_words(date)}\n\n" + present)
            d.add("1. Minutes of the last meeting approved.\n2. **Concert reports.**\n")
            for cid in cids:
                c = self.co[cid]
                v = self.ve[c["venue_id"]]
                d.add("   - ").v(c["title"]).add(" (").v(c["code"], kc("code", cid), "prose", "code").add("): ")
                if cid == 5:
                    d.v(f"just under {round(c['attendance'], -2)}", kc("attendance", cid), "prose", "approx-number", exact=False)
                    d.add(" in the hall; the live broadcast helped.\n")
                    continue
                d.v(thousands(c["attendance"]), kc("attendance", cid), "prose", "thousands")
                if v["venue_id"] == 6:  # no capacity for Saltaire anywhere: its venue facts are left out
                    d.add(" on our first visit to ")
                else:
                    d.add(" of ").v(thousands(v["capacity"]), kv("capacity", v["venue_id"]), "prose", "thousands").add(" seats at ")
                d.v(v["name"], kc("venue_id", cid), "prose", "name").add(".\n")
            d.add("3. **Finance.** The treasurer reported box office slightly ahead of budget.\n4. Date of next meeting agreed.\n")

    # -------------------------------------------------------------- the Friends' newsletter
    def newsletter(self):
        d = self.doc("newsletter/friends-autumn-2024.md", "newsletter", "Friends' newsletter Autumn 2024")
        d.add("# Friends of the Calderbrook Sinfonia · Autumn 2024\n\n## Meet the band\n\n")
        a = self.pl[1]
        d.add("Our ").v("leader", kp("chair", 1), "prose", "lowercase").add(f" {a['first_name']} ('Annie') {a['last_name']}")
        d.add(" has led the orchestra since ").v(str(D(a["joined_on"]).year), kp("joined_on", 1), "prose", "year-only", exact=False)
        d.add(". Down in the engine room, ")
        for i, pid in enumerate((20, 17)):
            p = self.pl[pid]
            d.add(" and " if i else "").v(f"{NICK[p['first_name']]} {p['last_name']}").add(" (")
            d.v("bass" if p["section_code"] == "DB" else "cello", kp("section_code", pid), "prose", "instrument-informal").add(")")
        d.add(" are not related, whatever the programme says. ")
        t = self.pl[31]
        d.v("Principal", kp("chair", 31), "prose").add(" ").v("Horn", kp("section_code", 31), "prose", "instrument-singular")
        d.add(" Tom Hale turns forty this season.\n\n## Coming up\n\n")
        c = self.co[1]
        d.add("We open on ").v(date_ordinal(c["concert_date"])[:-5], kc("concert_date", 1), "prose", "date-ordinal-season")
        d.add(" with Elgar's ").v("Enigma", [kpi("work_id", 1, 3), kpi("item_no", 1, 3)], "prose", "title-short")
        d.add(", and ").v(self.ar[9]["name"], kpi("soloist_id", 1, 2), "prose", "name").add(" plays the Mendelssohn.\n")
        del t

        d = self.doc("newsletter/friends-winter-2024.md", "newsletter", "Friends' newsletter Winter 2024")
        d.add("# Friends of the Calderbrook Sinfonia · Winter 2024/25\n\n## The New Year Gala\n\n")
        c = self.co[6]
        d.add("Join us on ").v(f"Saturday {date_ordinal(c['concert_date'])[:-5]}", kc("concert_date", 6), "heading-subject", "date-ordinal-season")
        d.add(" at ").v(self.ve[4]["name"], kc("venue_id", 6), "heading-subject", "name").add(" for a ")
        d.v(time_pm(c["start_time"]), kc("start_time", 6), "heading-subject", "time-pm").add(" matinée. ")
        d.v(self.ar[6]["name"], kpi("soloist_id", 6, 1), "heading-subject", "name").add(" plays ")
        d.v("Mozart 21", [kpi("work_id", 6, 1), kpi("item_no", 6, 1)], "heading-subject", "title-nickname")
        d.add(", and the second half is Dvořák's ").v("Eighth", [kpi("work_id", 6, 3), kpi("item_no", 6, 3)], "heading-subject", "title-nickname")
        d.add(".\n\n## Thank you\n\nTo everyone who came to The Planets: ")
        d.v("nearly 800 of you", kc("attendance", 5), "prose", "approx-number", exact=False).add(" braved the snow.\n")

        d = self.doc("newsletter/friends-spring-2025.md", "newsletter", "Friends' newsletter Spring 2025")
        d.add("# Friends of the Calderbrook Sinfonia · Spring 2025\n\n")
        c = self.co[10]
        d.add("## ").v(c["title"]).add("\n\n").v(f"{D(c['concert_date']).day} April", kc("concert_date", 10), "heading-subject", "date-noyear")
        d.add(", ").v(self.ve[1]["name"], kc("venue_id", 10), "heading-subject", "name").add(". ")
        d.v(self.ar[8]["name"], kpi("soloist_id", 10, 2), "heading-subject", "name").add(" sings ")
        d.v("Strauss", kw("composer", 16), "heading-subject", "surname-only").add("'s ")
        d.v(self.wo[16]["title"], [kpi("work_id", 10, 2), kpi("item_no", 10, 2)], "heading-subject", "verbatim").add(". Tickets ")
        d.v(gbp_short(c["ticket_price"]), kc("ticket_price", 10), "heading-subject", "gbp-short").add(".\n\n")
        c = self.co[11]
        d.add("## ").v(c["title"]).add("\n\nAt the ").v("Picture House", kc("venue_id", 11), "heading-subject", "name-short").add(", ")
        d.v(time_pm(c["start_time"]), kc("start_time", 11), "heading-subject", "time-pm").add(" on ")
        d.v(f"Saturday {D(c['concert_date']).day} April", kc("concert_date", 11), "heading-subject", "date-noyear").add(".\n\n")
        y = self.pl[34]
        d.add("## New faces\n\nWelcome to ").v(self.name(y)).add(" (").v("horn", kp("section_code", 34), "prose", "instrument-lowercase")
        d.add("), who joined us in ").v(f"{D(y['joined_on']):%B %Y}", kp("joined_on", 34), "prose", "approx-date", exact=False)
        d.add(".\n")

    # -------------------------------------------------------------- FAQ, ticket table, library, reports
    def faq(self):
        d = self.doc("faq.md", "faq", "Frequently asked questions")
        d.add("# Frequently asked questions\n\n")
        d.add("## Is there step-free access at the Picture House?\n\n")
        d.v("Yes", kv("step_free", 2), "heading-subject", "boolean-word").add(", from the car park on New Road.\n\n")
        d.add("## What time does the New Year Viennese Gala start?\n\nAt ")
        d.v(time_words(self.co[6]["start_time"]), kc("start_time", 6), "heading-subject", "time-words").add(".\n\n")
        d.add("## Where is Mozart by Candlelight?\n\n")
        d.v(self.ve[3]["name"], kc("venue_id", 12), "heading-subject", "name").add(". Bring a cushion!\n\n")
        d.add("## Is Symphonic Dances on the radio?\n\n")
        d.v("Yes, live on Calder FM", kc("broadcast", 13), "heading-subject", "boolean-phrase").add(".\n\n")
        d.add("## How much are tickets for Price and Dvořák?\n\n")
        d.v(gbp_short(self.co[9]["ticket_price"]), kc("ticket_price", 9), "heading-subject", "gbp-short").add(", concessions £15.\n\n")
        d.add("## How many seats does Square Chapel have?\n\n")
        d.v(str(self.ve[5]["capacity"]), kv("capacity", 5), "heading-subject", "plain-number").add(", all unreserved.\n\n")
        d.add("## Who conducts the Summer Finale?\n\n")
        d.v(self.ar[1]["name"], kc("conductor_id", 14), "heading-subject", "name").add(", our Principal ")
        d.v("Conductor", ka("role", 1), "prose", "capitalised").add(".\n\n")  # truth audit: the artist's role
        d.add("## Can I bring children?\n\nYes. Under-18s are free with a paying adult.\n")

    def ticket_table(self):
        d = self.doc("tickets/prices-2024-25.html", "price-table", "Ticket prices 2024/25")
        d.add("<html><body>\n<h1>Ticket prices, season 2024/25</h1>\n<table>\n")
        d.add("<tr><th rowspan=\"2\">Concert</th><th rowspan=\"2\">Date</th><th colspan=\"3\">Tickets</th></tr>\n")
        d.add("<tr><th>Full</th><th>Concession</th><th>Under 18</th></tr>\n")
        season = None
        for cid, c in self.co.items():
            s = self.season_of(c["concert_date"])
            if s != season:
                season = s
                d.add(f"<tr><th colspan=\"5\">{season}</th></tr>\n")
            x = D(c["concert_date"])
            d.add("<tr><td>").v(c["title"]).add("</td><td>")
            d.v(f"{x:%a} {x.day} {x:%b}", kc("concert_date", cid), "html-table", "date-dow-abbrev-season").add("</td><td>")
            d.v(gbp(c["ticket_price"]), kc("ticket_price", cid), "html-table", "gbp-sym")
            d.add(f"</td><td>{gbp(float(c['ticket_price']) - 3)}</td><td>free</td></tr>\n")
        d.add("</table>\n<p>Booking fee £1 per order online; none in person.</p>\n</body></html>\n")

    def catalogue(self):
        d = self.doc("library/catalogue.txt", "library-catalogue", "Orchestral library catalogue")
        d.add("CALDERBROOK SINFONIA - ORCHESTRAL LIBRARY (sets owned or on long loan)\n\n")
        d.add(f"{'COMPOSER':<26}{'TITLE':<36}{'CAT.':<10}{'DUR.':<6}YEAR\n")
        for wid, w in sorted(self.wo.items(), key=lambda kv_: composer_sort(kv_[1]["composer"])):
            d.v(composer_upper(w["composer"]), kw("composer", wid), "table", "name-reordered-upper")
            d.add(" " * max(1, 26 - len(composer_upper(w["composer"]))))
            title = w["title"] if len(w["title"]) <= 34 else w["title"][:33] + "…"
            d.v(title, (), "table").add(" " * max(1, 36 - len(title)))
            if w["catalogue"]:
                d.v(w["catalogue"], kw("catalogue", wid), "table").add(" " * (10 - len(w["catalogue"])))
            else:
                d.v("-", kw("catalogue", wid), "table", "null-stated").add(" " * 9)
            d.v(f"{w['duration_min']}'", kw("duration_min", wid), "table", "duration-prime").add(" " * (5 - len(str(w["duration_min"]))))
            d.v(w["year_composed"], kw("year_composed", wid), "table", "plain-number").add("\n")
        d.add("\nParts are signed out to the principal of each section and back within a week of the concert.\n")

    def reports(self):
        d = self.doc("reports/attendance-2024-25.md", "attendance-report", "Attendance so far")
        d.add("# Attendance, season 2024/25 (to 15 March 2025)\n\nFigures from the box office system; comps included.\n\n")
        for cid, c in self.co.items():
            if c["attendance"] is None or cid == 5:  # The Planets' figure was still being reconciled
                continue
            v = self.ve[c["venue_id"]]
            d.add("## ").v(c["code"], kc("code", cid), "heading-subject", "code").add(f" · {c['title']}\n\n")
            d.add("- Hall: ").v(v["name"], kc("venue_id", cid), "heading-subject", "name").add("\n")
            d.add("- Sold: ").v(str(c["attendance"]), kc("attendance", cid), "heading-subject", "plain-number").add("\n")
            d.add("- Full price: ").v(gbp_short(c["ticket_price"]), kc("ticket_price", cid), "heading-subject", "gbp-short").add("\n\n")
        d.add("Future concerts are reported once played.\n")

        d = self.doc("reports/season-at-a-glance.md", "season-summary", "Season at a glance")
        d.add("# Season 2024/25 at a glance, by venue\n\n")
        for vid, v in self.ve.items():
            d.add(f"## {v['name']}\n\n")
            for cid, c in self.co.items():
                if c["venue_id"] == vid:
                    d.add("- ").v(c["title"], kc("venue_id", cid), "table-under-heading", "name").add(" — ")
                    d.v(f"{D(c['concert_date']):%d/%m/%Y}", kc("concert_date", cid), "table-under-heading", "date-uk").add("\n")
            d.add("\n")


    # -------------------------------------------------------------- distractors and documents with no database fact
    def distractors(self):
        d = self.doc("misc/choral-society-messiah.md", "distractor", "Calderbrook Choral Society: Messiah", distractor=True)
        d.add("# Calderbrook Choral Society presents Messiah\n\nNot a Sinfonia concert. Calder Hall, Halifax, Saturday "
              "14 December 2024, 7pm. Conducted by Ruth Ingleby, with soloists from the Royal Northern College. "
              "Tickets £18, concessions £15. Box office 01422 300 911.\n")
        d = self.doc("misc/season-2022-23-archive.md", "distractor", "Season 2022/23 (archive)", distractor=True)
        d.add("# Calderbrook Sinfonia · Season 2022/23 (archive)\n\n## Autumn 2022\n\n### Season Opening: Enigma\n\n"
              "**Saturday 17 September, 7.30pm · Calder Hall**\n\n- Berlioz — Roman Carnival Overture\n"
              "- Mendelssohn — Violin Concerto in E minor (Leon Adeyemi, violin)\n- Elgar — Enigma Variations\n\n"
              "Conductor Marek Kowal. Tickets £20, concessions £3 less.\n\n### The Planets\n\n"
              "**Saturday 3 December, 7.30pm · Huddersfield Town Hall**\n\nConductor Ruth Ingleby. Tickets £24.\n")
        d = self.doc("misc/cv-thomas-hale-horn.md", "distractor", "CV Thomas Hale", distractor=True)
        d.add("# Thomas Hale, horn\n\nFreelance horn player based in Leeds. Applied for the Co-principal Horn trial, "
              "June 2024. Previously Principal Horn of the Calder Valley Philharmonic since 12 March 2016. "
              "Not to be confused with our Tom Hale or the baritone of the same name.\n")
        d = self.doc("misc/calder-valley-phil-call-sheet.txt", "distractor", "CVP call sheet", distractor=True)
        d.add("CALDER VALLEY PHILHARMONIC - CALL SHEET\nCVP-11  Autumn Pops\nConcert   Sat 14/9  7pm  "
              "Victoria Hall, Saltaire\n\nSEC   PLAYER\nVN1   KOWALSKA A.   (leader)\nVC    MARSH D.\n"
              "HN    HALE T.\nTIM   NWOSU W.\n")
        d = self.doc("misc/calder-hall-studio.md", "distractor", "Calder Hall Studio", distractor=True)
        d.add("# Calder Hall Studio\n\n| | |\n|---|---|\n| Town | Halifax |\n| Postcode | HX1 1QE |\n| Seats | 140 |\n"
              "| Hire, per evening | £450 + VAT |\n| Step-free | yes |\n\nThe studio is the small room at the back of "
              "Calder Hall, used for our education workshops.\n")
        d = self.doc("misc/call-rates-2023-24.md", "distractor", "Call rates 2023/24 (superseded)", distractor=True)
        d.add("# Call rates, season 2023/24 (superseded)\n\n| Band | Fee per call |\n|---|--:|\n")
        for i, f in enumerate(sorted({float(p["fee_per_call"]) for p in self.pl.values() if p["chair"] != "Leader"},
                                     reverse=True)):
            d.add(f"| {chr(ord('A') + i)} | {gbp(f - 7.5)} |\n")

    def policies(self):
        for slug_, title, body in (
            ("dress-code", "Concert dress", "Concert blacks for evening concerts; coloured tops for family matinées."),
            ("deps-policy", "Deputies", "A player who cannot attend finds a dep from the approved list and tells the fixer."),
            ("expenses", "Travel expenses", "Mileage is paid at 45p a mile beyond the first ten miles of each journey."),
            ("safeguarding", "Safeguarding", "Anyone working with the youth orchestra holds a current enhanced DBS check."),
            ("lost-property", "Lost property", "Items left in a venue are kept at the orchestra office for a month."),
        ):
            d = self.doc(f"policies/{slug_}.md", "policy", title)
            d.add(f"# {title}\n\n{body}\n\nReviewed each summer by the board of trustees.\n")

    # -------------------------------------------------------------- output
    def left_out(self, stated):
        """Omitted groups found by rule after writing: database facts no document was given."""
        groups = {
            "attendance_not_yet": ("concerts not yet played have no attendance (NULL) and no document gives one",
                                   [kc("attendance", c) for c, r in self.co.items() if r["attendance"] is None]),
            "confirmation_dates": ("the fixer's log of confirmation dates is not in the corpus; six appear in one e-mail",
                                   [ke("confirmed_on", c, p) for c in self.eng for p in self.eng[c]]),
            "engagement_fees": ("what a player was paid for a concert is on that player's fee statement only (ten players)",
                                [ke("fee", c, p) for c in self.eng for p in self.eng[c]]),
            "engagement_rows": ("no call sheet for CS24-04 (lost) or CS25-12..14 (not issued); rows named nowhere else",
                                [ke("player_id", c, p) for c in self.eng for p in self.eng[c]]),
        }
        for g, (rule, keys) in groups.items():
            self.omit(g, rule, [k for k in keys if k not in stated])

    def write(self, out):
        docs_dir = os.path.join(out, "docs")
        if os.path.isdir(docs_dir):
            shutil.rmtree(docs_dir)
        facts = []
        for d in self.docs:
            p = os.path.join(docs_dir, d.path)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(d.text())
            facts.extend(d.facts)
        stated = {f["fact_key"] for f in facts}
        self.left_out(stated)
        for g in self.omitted.values():
            g["fact_keys"] = sorted(set(g["fact_keys"]))
            assert not stated & set(g["fact_keys"]), (stated & set(g["fact_keys"]))
        exact_keys = {f["fact_key"] for f in facts if f["exact"]}
        documents = {}
        for d in self.docs:
            documents[d.path] = {
                "kind": d.kind, "format": os.path.splitext(d.path)[1][1:], "title": d.title, "size": len(d.text()),
                "statements": len(d.facts), "exact_statements": sum(f["exact"] for f in d.facts),
                "distinct_facts": len({f["fact_key"] for f in d.facts}),
                "tables": sorted({f["fact_key"].split(".")[0] for f in d.facts}),
                "distractor": d.distractor, "states_no_db_fact": not d.facts,
            }
        stats = {
            "documents": len(self.docs), "statements": len(facts), "distinct_facts": len(stated),
            "exact_facts": len(exact_keys), "approximate_only_facts": len(stated - exact_keys),
            "split_facts": len(self.split),
            "omitted_facts": sum(len(g["fact_keys"]) for g in self.omitted.values()),
            "by_format": dict(sorted(Counter(v["format"] for v in documents.values()).items())),
            "by_kind": dict(sorted(Counter(v["kind"] for v in documents.values()).items())),
            "by_how": dict(sorted(Counter(f["how"] for f in facts).items())),
            "by_form": dict(sorted(Counter(f["form"] for f in facts).items())),
        }
        truth = {
            "database": "calderbrook.sqlite", "facts": facts, "split_facts": self.split,
            "distractor_doc_ids": [d.path for d in self.docs if d.distractor],
            "no_fact_doc_ids": [d.path for d in self.docs if not d.facts and not d.distractor],
            "omitted": self.omitted, "documents": documents, "stats": stats,
        }
        stems = [os.path.splitext(d.path)[0] for d in self.docs]
        assert len(stems) == len(set(stems))
        with open(os.path.join(out, "truth.json"), "w", encoding="utf-8", newline="\n") as fh:
            json.dump(truth, fh, ensure_ascii=False, indent=1)
            fh.write("\n")
        return stats


PARTICLES = {"Ralph Vaughan Williams": ("Vaughan Williams", "Ralph"), "Ludwig van Beethoven": ("Beethoven", "Ludwig van")}


def composer_sort(name):
    last, first = PARTICLES.get(name) or (name.split()[-1], " ".join(name.split()[:-1]))
    return last, first


def composer_upper(name):  # BEETHOVEN, Ludwig van
    last, first = composer_sort(name)
    return f"{last.upper()}, {first}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default=os.path.join(HERE, "calderbrook.sqlite"))
    ap.add_argument("--out", default=HERE)
    a = ap.parse_args(argv)
    c = Corpus(a.db)
    for step in (c.brochure, c.concert_pages, c.programme_notes, c.directory, c.section_lists, c.bios, c.call_sheets,
                 c.fee_statements, c.rates_split, c.venues, c.hire_agreements, c.artists, c.mail, c.minutes,
                 c.newsletter, c.faq, c.ticket_table, c.catalogue, c.reports, c.distractors, c.policies):
        step()
    stats = c.write(a.out)
    print({k: v for k, v in stats.items() if not k.startswith("by_")})


if __name__ == "__main__":
    main()
