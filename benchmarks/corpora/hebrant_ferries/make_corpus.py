#!/usr/bin/env python3
"""Write the Hebrant Ferries document corpus (docs/) and its recorded truth (truth.json).

    python3 make_corpus.py [--db hebrant_ferries.sqlite] [--out .]

Every database fact a document states is recorded at the moment the text holding it is written
(Doc.f); nothing is found by searching the text afterwards.  Standard library only, seeded,
deterministic.  Does not import ragdx.
"""

from __future__ import annotations

import argparse
import datetime as dt
import html
import json
import os
import random
import re
import shutil
import sqlite3
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 1871


def esc(s):
    return html.escape(s, quote=False)


def slug(s):
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")


# ---------------------------------------------------------------- value renderings (form names)
def d(iso):
    return dt.date.fromisoformat(iso)


def date_as(iso, form):
    x = d(iso)
    if form == "date-iso":
        return iso
    if form == "date-words":
        return f"{x.day} {x:%B %Y}"
    if form == "date-uk":
        return f"{x:%d/%m/%Y}"
    if form == "date-abbrev":
        return f"{x.day} {x:%b %Y}"
    if form == "date-weekday":
        return f"{x:%A} {x.day} {x:%B %Y}"
    raise ValueError(form)


def money_as(v, form):
    if form == "money-sym":
        return f"£{v:,.2f}"
    if form == "money-code":
        return f"GBP {v:,.2f}"
    if form == "money-plain":
        return f"{v:,.2f}"
    raise ValueError(form)


def time_as(hhmm, form):
    h, m = int(hhmm[:2]), int(hhmm[3:])
    if form == "verbatim":
        return hhmm
    if form == "time-compact":
        return f"{h:02d}{m:02d}"
    if form == "time-12h":
        return f"{(h - 1) % 12 + 1}.{m:02d}{'am' if h < 12 else 'pm'}"
    raise ValueError(form)


def minutes_as(n, form):
    if form == "minutes":
        return f"{n} min"
    if form == "duration-hm":
        h, m = divmod(n, 60)
        return (f"{h} hr " if h else "") + (f"{m} min" if m else "").strip() if m else f"{h} hr"
    raise ValueError(form)


DAYS_WORDS = {"Daily": "every day", "Mon-Sat": "Monday to Saturday", "Mon-Fri": "Monday to Friday",
              "Sat-Sun": "weekends", "Sun": "Sundays"}
NUM_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


# ---------------------------------------------------------------- documents
class Doc:
    def __init__(self, doc_id, kind, title, distractor=False):
        self.id, self.kind, self.title, self.distractor = doc_id, kind, title, distractor
        self.html = doc_id.endswith(".html")
        self.buf, self.n, self.facts = [], 0, []

    def raw(self, x):
        self.buf.append(x)
        self.n += len(x)
        return self

    def t(self, x):
        return self.raw(esc(x) if self.html else x)

    def f(self, surface, key, how, form="verbatim", exact=True, split=None):
        surface = str(surface)
        x = esc(surface) if self.html else surface
        span = (self.n, self.n + len(x), surface)
        self.at(span, key, how, form, exact, split)
        self.raw(x)
        return span

    def at(self, span, key, how, form="verbatim", exact=True, split=None):
        rec = {"fact_key": key, "doc_id": self.id, "surface": span[2], "start": span[0], "end": span[1],
               "exact": exact, "how": how, "form": form}
        if split:
            rec["split_id"] = split
        self.facts.append(rec)

    def text(self):
        return "".join(self.buf)


def K(table, col, *pk):
    return f"{table}.{col}@" + "|".join(str(p) for p in pk)


class Corpus:
    def __init__(self, db):
        self.con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        self.con.row_factory = sqlite3.Row
        self.docs = []
        self.splits = []
        self.rnd = random.Random(SEED)

    def q(self, sql, *a):
        return [dict(r) for r in self.con.execute(sql, a).fetchall()]

    def new(self, doc_id, kind, title, distractor=False):
        doc = Doc(doc_id, kind, title, distractor)
        self.docs.append(doc)
        return doc


def full(c):
    return f"{c['first_name']} {c['last_name']}"


def short(v):
    return v["name"][3:] if v["name"].startswith("MV ") else v["name"]


def dash(name):
    return name.replace(" - ", " – ")


def build(db, out):
    C = Corpus(db)
    rnd = C.rnd
    ports = {r["port_id"]: r for r in C.q("SELECT * FROM ports ORDER BY port_id")}
    vessels = {r["vessel_id"]: r for r in C.q("SELECT * FROM vessels ORDER BY vessel_id")}
    crew = {r["crew_id"]: r for r in C.q("SELECT * FROM crew ORDER BY crew_id")}
    routes = {r["route_id"]: r for r in C.q("SELECT * FROM routes ORDER BY route_id")}
    sailings = defaultdict(list)
    for r in C.q("SELECT * FROM sailings ORDER BY route_id, sailing_no"):
        sailings[r["route_id"]].append(r)
    quals = {r["qual_id"]: r for r in C.q("SELECT * FROM qualifications ORDER BY qual_id")}
    cq = C.q("SELECT * FROM crew_qualifications ORDER BY crew_id, qual_id")
    held = defaultdict(dict)
    for r in cq:
        held[r["crew_id"]][r["qual_id"]] = r["issued"]
    incidents = C.q("SELECT * FROM incidents ORDER BY incident_id")

    LAID_UP = 9  # MV Caolas Mor: left out entirely, with its crew
    OMIT_ROUTE = 14  # R14: suspended, no timetable
    fleet = [v for v in vessels.values() if v["vessel_id"] != LAID_UP]
    by_vessel = defaultdict(list)
    for c in crew.values():
        by_vessel[c["vessel_id"]].append(c)
    omitted = {}

    # ============================================================ fleet fact sheets
    for i, v in enumerate(fleet):
        vid, nm = v["vessel_id"], v["name"]
        layout = i % 3
        hp = ports[v["home_port_id"]]
        if layout == 0:
            doc = C.new(f"fleet/{slug(short(v))}.md", "vessel-profile-prose", nm)
            doc.t("# ")
            doc.f(nm, K("vessels", "name", vid), "heading")
            doc.t("\n\n")
            doc.t("Built in ")
            doc.f(v["built_year"], K("vessels", "built_year", vid), "heading-subject")
            if v["entered_service"]:
                doc.t(", she entered service on ")
                doc.f(date_as(v["entered_service"], "date-words"), K("vessels", "entered_service", vid),
                      "heading-subject", "date-words")
            doc.t(" and is based at ")
            doc.f(hp["name"], K("vessels", "home_port_id", vid), "heading-subject")
            doc.t(". Her passenger certificate is for ")
            doc.f(v["passengers"], K("vessels", "passengers", vid), "heading-subject")
            if v["cars"]:
                doc.t(" people, and the vehicle deck takes ")
                doc.f(v["cars"], K("vessels", "cars", vid), "heading-subject")
                doc.t(" cars (fewer when commercial vehicles are booked).")
            else:
                doc.t(" people. There is no vehicle deck; bicycles and luggage trolleys only.")
            doc.t("\n\nIMO ")
            doc.f(v["imo_number"], K("vessels", "imo_number", vid), "heading-subject")
            doc.t(". Current status: ")
            doc.f(v["status"], K("vessels", "status", vid), "heading-subject")
            doc.t(".\n\nDeck and engine crew lists are kept by the Marine Office; see the crew roster "
                  "pages on the intranet.\n")
        elif layout == 1:
            doc = C.new(f"fleet/{slug(short(v))}.html", "vessel-profile-html", nm)
            doc.t("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>")
            doc.t(f"Vessel particulars – {short(v)}")
            doc.raw("</title></head>\n<body>\n<h1>Vessel particulars</h1>\n<table class=\"kv\">\n")
            doc.raw("<tr><th>Name</th><td>")
            doc.f(nm, K("vessels", "name", vid), "html-table")
            doc.raw("</td></tr>\n<tr><th>IMO no.</th><td>")
            doc.f(v["imo_number"], K("vessels", "imo_number", vid), "html-table")
            doc.raw("</td></tr>\n<tr><th>Year built</th><td>")
            doc.f(v["built_year"], K("vessels", "built_year", vid), "html-table")
            doc.raw("</td></tr>\n<tr><th>Home port</th><td>")
            doc.f(hp["code"], K("vessels", "home_port_id", vid), "html-table", "code")
            doc.raw("</td></tr>\n<tr><th>Passengers (certificated)</th><td>")
            doc.f(v["passengers"], K("vessels", "passengers", vid), "html-table")
            doc.raw("</td></tr>\n<tr><th>Cars</th><td>")
            if v["cars"]:
                doc.f(v["cars"], K("vessels", "cars", vid), "html-table")
            else:
                doc.t("n/a (passenger only)")
            doc.raw("</td></tr>\n<tr><th>Status</th><td>")
            doc.f(v["status"].capitalize(), K("vessels", "status", vid), "html-table", "case")
            doc.raw("</td></tr>\n<tr><th>In service since</th><td>")
            if v["entered_service"]:
                doc.f(date_as(v["entered_service"], "date-uk"), K("vessels", "entered_service", vid),
                      "html-table", "date-uk")
            doc.raw("</td></tr>\n</table>\n<p>")
            doc.t("Figures from the current Passenger Certificate. Ask the Marine Office for stability booklets.")
            doc.raw("</p>\n</body></html>\n")
        else:
            doc = C.new(f"fleet/{slug(short(v))}-register.txt", "vessel-register-export", nm)
            doc.t("HEBRANT FERRIES LTD - FLEET REGISTER EXTRACT\nprinted 2024-11-04 by MARINE\n\n")
            doc.t("VESSEL ........... ")
            doc.f(nm.upper(), K("vessels", "name", vid), "kv-text", "uppercase")
            doc.t("\nIMO .............. ")
            doc.f(v["imo_number"], K("vessels", "imo_number", vid), "kv-text")
            doc.t("\nBUILT ............ ")
            doc.f(v["built_year"], K("vessels", "built_year", vid), "kv-text")
            doc.t("\nHOME PORT ........ ")
            doc.f(hp["name"].upper(), K("vessels", "home_port_id", vid), "kv-text", "uppercase")
            doc.t("\nPAX CERT ......... ")
            doc.f(v["passengers"], K("vessels", "passengers", vid), "kv-text")
            doc.t("\nCAR CAPACITY ..... ")
            if v["cars"]:
                doc.f(v["cars"], K("vessels", "cars", vid), "kv-text")
            else:
                doc.t("-")
            doc.t("\nSTATUS ........... ")
            doc.f(v["status"].upper(), K("vessels", "status", vid), "kv-text", "uppercase")
            doc.t("\nENTERED SERVICE .. ")
            if v["entered_service"]:
                doc.f(v["entered_service"], K("vessels", "entered_service", vid), "kv-text", "date-iso")
            doc.t("\n\n-- end of extract --\n")

    # fleet list: one table, home port by code
    doc = C.new("fleet/fleet-list.md", "fleet-table", "Fleet list")
    doc.t("# Fleet list (November 2024)\n\n| Vessel | Built | Passengers | Cars | Base |\n|---|---|---|---|---|\n")
    for v in sorted(fleet, key=lambda v: v["name"]):
        vid = v["vessel_id"]
        doc.t("| ")
        doc.f(short(v), K("vessels", "name", vid), "table", "name-short")
        doc.t(" | ")
        doc.f(v["built_year"], K("vessels", "built_year", vid), "table")
        doc.t(" | ")
        doc.f(v["passengers"], K("vessels", "passengers", vid), "table")
        doc.t(" | ")
        if v["cars"]:
            doc.f(v["cars"], K("vessels", "cars", vid), "table")
        else:
            doc.t("–")
        doc.t(" | ")
        doc.f(ports[v["home_port_id"]]["code"], K("vessels", "home_port_id", vid), "table", "code")
        doc.t(" |\n")
    # truth audit: this sentence states the laid-up vessel's status (taken out of `omitted` below)
    doc.t(f"\n{vessels[LAID_UP]['name']} is ")
    doc.f(vessels[LAID_UP]["status"], K("vessels", "status", LAID_UP), "prose")
    doc.t(" and is not listed. Capacities are certificate figures.\n")

    # ============================================================ ports
    doc = C.new("ports/port-directory.html", "port-directory", "Port directory")
    doc.raw("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Port directory</title></head>\n<body>\n")
    doc.raw("<h1>Ports and slipways</h1>\n<table>\n<tr><th>Code</th><th>Port</th><th>Island</th><th>Berths</th>"
            "<th>Linkspan</th></tr>\n")
    for p in ports.values():
        pid = p["port_id"]
        doc.raw("<tr><td>")
        doc.f(p["code"], K("ports", "code", pid), "html-table")
        doc.raw("</td><td>")
        doc.f(p["name"], K("ports", "name", pid), "html-table")
        doc.raw("</td><td>")
        if p["island"]:
            doc.f(p["island"], K("ports", "island", pid), "html-table")
        else:
            doc.t("(mainland)")
        doc.raw("</td><td>")
        doc.f(p["berths"], K("ports", "berths", pid), "html-table")
        doc.raw("</td><td>")
        doc.f("Yes" if p["linkspan"] else "No", K("ports", "linkspan", pid), "html-table", "boolean-word")
        doc.raw("</td></tr>\n")
    doc.raw("</table>\n</body></html>\n")

    home_of = defaultdict(list)
    for v in fleet:
        home_of[v["home_port_id"]].append(v)
    for pid in (1, 3, 4, 5, 6, 7, 10, 11):
        p = ports[pid]
        doc = C.new(f"ports/{slug(p['name'])}-harbour-notes.md", "port-notes", p["name"])
        doc.t("# ")
        doc.f(p["name"], K("ports", "name", pid), "heading")
        doc.t(" – harbour notes for masters\n\n")
        if p["island"]:
            doc.t("On ")
            doc.f(p["island"], K("ports", "island", pid), "heading-subject")
            doc.t(". ")
        doc.t("Port code ")
        doc.f(p["code"], K("ports", "code", pid), "heading-subject")
        doc.t(". There ")
        doc.t("is " if p["berths"] == 1 else "are ")
        doc.f(NUM_WORDS[p["berths"]], K("ports", "berths", pid), "heading-subject", "number-words")
        doc.t(" berth" if p["berths"] == 1 else " berths")
        if p["linkspan"]:
            doc.t(" and a linkspan for vehicle loading.")
        else:
            doc.t("; there is no linkspan, so vehicles cannot be loaded here except by the slip at low water.")
        doc.t("\n\n")
        if home_of.get(pid):
            doc.t("Based here: ")
            for j, v in enumerate(home_of[pid]):
                if j:
                    doc.t(", ")
                doc.f(v["name"], K("vessels", "home_port_id", v["vessel_id"]), "heading-subject")
            doc.t(". Overnight berthing is on the inner face.\n\n")
        doc.t("Approach: keep the green buoy to starboard and call the pier office on VHF channel "
              f"{rnd.choice([12, 14, 16, 74])} when ten minutes out. Swell from the south-west makes the "
              "outer berth lively at high water.\n")

    # ============================================================ timetables
    tt_docs = {}
    for i, r in enumerate(routes.values()):
        rid = r["route_id"]
        if rid == OMIT_ROUTE:
            continue
        fp, tp = ports[r["from_port_id"]], ports[r["to_port_id"]]
        layout = i % 3
        ext = ("md", "txt", "html")[layout]
        doc = C.new(f"timetables/{r['code'].lower()}-{slug(r['name'])}.{ext}", f"timetable-{ext}", dash(r["name"]))
        tt_docs[rid] = doc.id
        seasonal_label = "Summer only (April to October)" if r["seasonal"] else "All year"
        if layout == 0:
            doc.t("# ")
            doc.f(r["code"], K("routes", "code", rid), "heading")
            doc.t(" · ")
            doc.f(dash(r["name"]), K("routes", "name", rid), "heading", "dash")
            doc.t("\n\n")
            doc.f(seasonal_label, K("routes", "seasonal", rid), "heading-subject", "seasonal-label")
            doc.t(". Sailings leave ")
            doc.f(fp["name"], K("routes", "from_port_id", rid), "heading-subject")
            doc.t(" for ")
            doc.f(tp["name"], K("routes", "to_port_id", rid), "heading-subject")
            doc.t("; the crossing takes ")
            doc.f(minutes_as(r["crossing_minutes"], "duration-hm"), K("routes", "crossing_minutes", rid),
                  "heading-subject", "duration-hm")
            doc.t(".\n\nFares (single): adult ")
            doc.f(money_as(r["adult_fare"], "money-sym"), K("routes", "adult_fare", rid), "heading-subject", "money-sym")
            if r["car_fare"] is not None and not r["seasonal"]:
                doc.t(", car ")
                doc.f(money_as(r["car_fare"], "money-sym"), K("routes", "car_fare", rid), "heading-subject",
                      "money-sym")
            elif r["car_fare"] is not None:
                doc.t(", vehicles: ask at the booking office")
            else:
                doc.t(", foot passengers only")
            doc.t(".\n\n| No. | Departs | Days | Vessel |\n|---|---|---|---|\n")
            for s in sailings[rid]:
                n = s["sailing_no"]
                doc.t("| ")
                doc.f(n, K("sailings", "sailing_no", rid, n), "table-under-heading")
                doc.t(" | ")
                doc.f(s["departs"], K("sailings", "departs", rid, n), "table")
                doc.t(" | ")
                doc.f(s["days"], K("sailings", "days", rid, n), "table")
                doc.t(" | ")
                if s["vessel_id"]:
                    doc.f(short(vessels[s["vessel_id"]]), K("sailings", "vessel_id", rid, n), "table", "name-short")
                else:
                    doc.t("TBC")
                doc.t(" |\n")
            doc.t("\nVehicles must check in 30 minutes before departure. Timetable subject to weather.\n")
        elif layout == 1:
            doc.t(f"HEBRANT FERRIES  --  TIMETABLE  --  ROUTE ")
            doc.f(r["code"], K("routes", "code", rid), "heading")
            doc.t("\n")
            doc.f(fp["name"].upper(), K("routes", "from_port_id", rid), "heading-subject", "uppercase")
            doc.t(" to ")
            doc.f(tp["name"].upper(), K("routes", "to_port_id", rid), "heading-subject", "uppercase")
            doc.t("\nValid 1 November 2024 until further notice.  ")
            doc.f(seasonal_label.split(" (")[0], K("routes", "seasonal", rid), "heading-subject", "seasonal-label")
            doc.t(".\nCrossing time: ")
            doc.f(minutes_as(r["crossing_minutes"], "minutes"), K("routes", "crossing_minutes", rid),
                  "heading-subject", "minutes")
            doc.t("\n\nSAILING  DEP   DAYS                VESSEL\n")
            for s in sailings[rid]:
                n = s["sailing_no"]
                doc.t(f"{'':2}")
                doc.f(f"{n:02d}", K("sailings", "sailing_no", rid, n), "table-under-heading", "zero-padded")
                doc.t(" " * 5)
                doc.f(time_as(s["departs"], "time-compact"), K("sailings", "departs", rid, n), "table", "time-compact")
                doc.t("  ")
                dw = DAYS_WORDS[s["days"]]
                doc.f(dw, K("sailings", "days", rid, n), "table", "days-words")
                doc.t(" " * (20 - len(dw)))
                if s["vessel_id"]:
                    doc.f(vessels[s["vessel_id"]]["name"].upper(), K("sailings", "vessel_id", rid, n), "table",
                          "uppercase")
                else:
                    doc.t("to be confirmed")
                doc.t("\n")
            doc.t("\nADULT SINGLE  ")
            doc.f(money_as(r["adult_fare"], "money-code"), K("routes", "adult_fare", rid), "heading-subject",
                  "money-code")
            if r["car_fare"] is not None and not r["seasonal"]:
                doc.t("\nCAR SINGLE    ")
                doc.f(money_as(r["car_fare"], "money-code"), K("routes", "car_fare", rid), "heading-subject",
                      "money-code")
            doc.t("\nChildren 5-15 half fare. Under-5s free.\n")
        else:
            doc.raw("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>")
            doc.t(f"Timetable {r['code']}")
            doc.raw("</title></head>\n<body>\n<h1>")
            doc.f(dash(r["name"]), K("routes", "name", rid), "heading", "dash")
            doc.raw("</h1>\n<p>")
            doc.t("Route ")
            doc.f(r["code"], K("routes", "code", rid), "heading-subject")
            doc.t(" · ")
            doc.f(seasonal_label, K("routes", "seasonal", rid), "heading-subject", "seasonal-label")
            doc.t(" · approx. crossing ")
            doc.f(minutes_as(r["crossing_minutes"], "minutes"), K("routes", "crossing_minutes", rid),
                  "heading-subject", "minutes")
            doc.raw("</p>\n<table>\n<tr><th>Sailing</th><th>Dep.</th><th>Operates</th><th>Ship</th></tr>\n")
            for s in sailings[rid]:
                n = s["sailing_no"]
                doc.raw("<tr><td>")
                doc.f(n, K("sailings", "sailing_no", rid, n), "table-under-heading")
                doc.raw("</td><td>")
                doc.f(time_as(s["departs"], "time-12h"), K("sailings", "departs", rid, n), "html-table", "time-12h")
                doc.raw("</td><td>")
                doc.f(s["days"], K("sailings", "days", rid, n), "html-table")
                doc.raw("</td><td>")
                if s["vessel_id"]:
                    doc.f(vessels[s["vessel_id"]]["name"], K("sailings", "vessel_id", rid, n), "html-table")
                doc.raw("</td></tr>\n")
            doc.raw("</table>\n<p>")
            doc.t("Adult single ")
            doc.f(money_as(r["adult_fare"], "money-sym"), K("routes", "adult_fare", rid), "heading-subject", "money-sym")
            doc.t(". Book vehicles online; cyclists travel free.")
            doc.raw("</p>\n</body></html>\n")

    # ============================================================ fares
    doc = C.new("fares/fares-2024-25.md", "fare-table", "Fares 2024-25")
    doc.t("# Single fares from 1 November 2024\n\nAll fares in pounds sterling, including VAT.\n\n"
          "| Route | Adult (£) | Car (£) | Season |\n|---|---|---|---|\n")
    for r in routes.values():
        rid = r["route_id"]
        if rid == OMIT_ROUTE:
            continue
        doc.t("| ")
        doc.f(r["code"], K("routes", "code", rid), "table")
        doc.t(" | ")
        doc.f(money_as(r["adult_fare"], "money-plain"), K("routes", "adult_fare", rid), "table", "money-plain")
        doc.t(" | ")
        if r["car_fare"] is None:
            doc.t("—")
        elif r["seasonal"]:
            doc.t("on request")
        else:
            doc.f(money_as(r["car_fare"], "money-plain"), K("routes", "car_fare", rid), "table", "money-plain")
        doc.t(" | ")
        doc.f("summer" if r["seasonal"] else "all year", K("routes", "seasonal", rid), "table", "seasonal-label")
        doc.t(" |\n")
    doc.t("\nConcessions: holders of the island resident card pay 40 % of the adult fare.\n")
    omitted["seasonal_car_fares"] = {
        "rule": "car fares of seasonal routes: 'on request' / 'ask at the booking office'",
        "fact_keys": [K("routes", "car_fare", r["route_id"]) for r in routes.values()
                      if r["seasonal"] and r["car_fare"] is not None],
    }

    doc = C.new("fares/fare-change-notice.txt", "notice", "Fare change notice")
    doc.t("NOTICE TO PASSENGERS\n\nFrom 1 November some single fares change. The Kinlochbrae crossings:\n\n")
    for rid in (1, 3, 15):
        r = routes[rid]
        doc.t(f"  * {dash(r['name'])}: adult single about ")
        doc.f(f"£{round(r['adult_fare'])}", K("routes", "adult_fare", rid), "prose", "approx-money", exact=False)
        doc.t("\n")
    doc.t("\nExact fares are on the timetable for each route. Return fares are withdrawn.\n")

    # ============================================================ crew rosters
    staff_docs = {}
    roster_vessels = [v for v in fleet]
    for i, v in enumerate(roster_vessels):
        vid = v["vessel_id"]
        members = sorted(by_vessel[vid], key=lambda c: c["crew_id"])
        ext = "md" if i % 2 == 0 else "html"
        doc = C.new(f"crew/roster-{slug(short(v))}.{ext}", f"crew-roster-{ext}", f"Crew roster {v['name']}")
        if ext == "md":
            doc.t("# Crew roster – ")
            hspan = doc.f(v["name"], K("vessels", "name", vid), "heading")
            doc.t("\n\nWinter 2024 complement.\n\n| Staff no. | Name | Rank | Joined |\n|---|---|---|---|\n")
            for c in members:
                cid = c["crew_id"]
                doc.at(hspan, K("crew", "vessel_id", cid), "table-under-heading")
                doc.t("| ")
                sp = doc.f(c["staff_no"], K("crew", "staff_no", cid), "table")
                staff_docs[cid] = (doc, sp)
                doc.t(" | ")
                doc.f(c["first_name"], K("crew", "first_name", cid), "table")
                doc.t(" ")
                doc.f(c["last_name"], K("crew", "last_name", cid), "table")
                doc.t(" | ")
                doc.f(c["rank"], K("crew", "rank", cid), "table")
                doc.t(" | ")
                doc.f(date_as(c["joined"], "date-abbrev"), K("crew", "joined", cid), "table", "date-abbrev")
                doc.t(" |\n")
            doc.t("\nRelief cover is arranged through the Marine Office.\n")
        else:
            doc.raw("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Crew roster</title></head>\n<body>\n<h2>")
            hspan = doc.f(short(v), K("vessels", "name", vid), "heading", "name-short")
            doc.raw("</h2>\n<table>\n<tr><th>Surname</th><th>First name</th><th>Position</th><th>Start date</th>"
                    "<th>Payroll</th></tr>\n")
            for c in members:
                cid = c["crew_id"]
                doc.at(hspan, K("crew", "vessel_id", cid), "table-under-heading", "name-short")
                doc.raw("<tr><td>")
                doc.f(c["last_name"], K("crew", "last_name", cid), "html-table")
                doc.raw("</td><td>")
                doc.f(c["first_name"], K("crew", "first_name", cid), "html-table")
                doc.raw("</td><td>")
                doc.f(c["rank"], K("crew", "rank", cid), "html-table")
                doc.raw("</td><td>")
                doc.f(date_as(c["joined"], "date-uk"), K("crew", "joined", cid), "html-table", "date-uk")
                doc.raw("</td><td>")
                sp = doc.f(c["staff_no"], K("crew", "staff_no", cid), "html-table")
                staff_docs[cid] = (doc, sp)
                doc.raw("</td></tr>\n")
            doc.raw("</table>\n</body></html>\n")

    shore = sorted(by_vessel[None], key=lambda c: c["crew_id"])
    doc = C.new("crew/shore-and-relief-staff.md", "staff-cards", "Shore and relief staff")
    doc.t("# Marine Office, shore and relief staff\n\n")
    for c in shore:
        cid = c["crew_id"]
        doc.t("- **")
        doc.f(c["first_name"], K("crew", "first_name", cid), "card")
        doc.t(" ")
        doc.f(c["last_name"], K("crew", "last_name", cid), "card")
        doc.t("** (")
        doc.f(c["staff_no"], K("crew", "staff_no", cid), "card")
        doc.t(")\n  - Role: ")
        doc.f(c["rank"], K("crew", "rank", cid), "card")
        doc.t("\n  - Mobile: ")
        if c["phone"]:
            doc.f("+44 " + c["phone"][1:], K("crew", "phone", cid), "card", "phone-intl")
        else:
            doc.t("none issued")
        doc.t("\n  - Line manager: ")
        if c["reports_to"]:
            doc.f(full(crew[c["reports_to"]]), K("crew", "reports_to", cid), "card", "name")
        else:
            doc.t("—")
        doc.t("\n")
    doc.t("\nAfter hours, call the duty officer on the number in the ship's office.\n")

    # chain of command trees for four vessels
    for vid in (1, 3, 8, 13):
        v = vessels[vid]
        members = by_vessel[vid]
        ids = {c["crew_id"] for c in members}
        doc = C.new(f"crew/chain-of-command-{slug(short(v))}.txt", "org-tree", f"Chain of command {v['name']}")
        # truth audit: the heading names the ship of everyone in the tree, and each line states a rank
        doc.t("CHAIN OF COMMAND - ")
        hspan = doc.f(v["name"], K("vessels", "name", vid), "heading")
        doc.t("\n(as at 1 November 2024)\n\n")
        master = [c for c in members if c["reports_to"] not in ids][0]
        boss = crew[master["reports_to"]]
        doc.f(boss["rank"], K("crew", "rank", boss["crew_id"]), "tree")
        doc.t(f" {full(boss)}\n")

        def walk(c, depth):
            doc.at(hspan, K("crew", "vessel_id", c["crew_id"]), "heading-subject")
            doc.t("    " * depth + "+-- ")
            doc.f(c["rank"], K("crew", "rank", c["crew_id"]), "tree")
            doc.t(" ")
            doc.f(full(c), K("crew", "reports_to", c["crew_id"]), "tree", "name")
            doc.t("\n")
            for ch in sorted((x for x in members if x["reports_to"] == c["crew_id"]), key=lambda x: x["crew_id"]):
                walk(ch, depth + 1)

        walk(master, 0)
        doc.t("\nQuestions about the chain of command go to the Marine Manager.\n")

    # phone list by staff number only: split with the rosters
    phone_cids = [c["crew_id"] for c in crew.values()
                  if c["phone"] and c["vessel_id"] and c["vessel_id"] != LAID_UP and c["crew_id"] % 3 != 0]
    doc = C.new("crew/mobile-numbers.txt", "phone-list", "Crew mobile numbers")
    doc.t("COMPANY MOBILES - SEAGOING STAFF\nListed by payroll number. Do not share outside the company.\n\n")
    for cid in sorted(phone_cids, key=lambda x: crew[x]["staff_no"]):
        c = crew[cid]
        sid = f"split-crew-{cid}-phone"
        doc.t(f"{c['staff_no']}   ")
        doc.f(c["phone"], K("crew", "phone", cid), "split", "verbatim", split=sid)
        doc.t("\n")
        rdoc, sp = staff_docs[cid]
        rdoc.at(sp, K("crew", "phone", cid), "split", "code", split=sid)
        C.splits.append({"doc_ids": [doc.id, rdoc.id], "fact_key": K("crew", "phone", cid), "split_id": sid,
                         "note": "the phone list gives the number by payroll number only; the roster maps the "
                                 "number to the person"})
    omitted["crew_phones"] = {
        "rule": "mobile numbers of seagoing crew left off the phone list (every third crew record)",
        "fact_keys": [K("crew", "phone", c["crew_id"]) for c in crew.values() if c["phone"]
                      and c["vessel_id"] not in (None, LAID_UP) and c["crew_id"] not in phone_cids],
    }

    # ============================================================ training
    doc = C.new("training/course-catalogue.md", "course-catalogue", "Training course catalogue")
    doc.t("# Mandatory training\n\n")
    for q in quals.values():
        qid = q["qual_id"]
        doc.t("## ")
        doc.f(q["name"], K("qualifications", "name", qid), "heading")
        doc.t("\n\nMatrix code ")
        doc.f(q["short_code"], K("qualifications", "short_code", qid), "heading-subject")
        doc.t(". ")
        if q["validity_years"]:
            doc.t("Refresher required every ")
            doc.f(NUM_WORDS[q["validity_years"]], K("qualifications", "validity_years", qid), "heading-subject",
                  "number-words")
            doc.t(" years.")
        else:
            doc.t("No refresher required; the certificate does not expire.")
        doc.t("\n\n")
    matrix_vessels = [1, 2, 3, 4, 6, 7, 10, 11, 13]
    for vid in matrix_vessels:
        v = vessels[vid]
        doc = C.new(f"training/matrix-{slug(short(v))}.txt", "training-matrix", f"Training matrix {v['name']}")
        codes = [quals[q]["short_code"] for q in quals]
        # truth audit: the export's title names the ship of every row; each row states a payroll number
        # and a surname
        doc.t("Training matrix export - ")
        hspan = doc.f(v["name"], K("vessels", "name", vid), "heading")
        doc.t(" - generated 2024-10-28\n")
        doc.t("staff_no;name;" + ";".join(codes) + "\n")
        for c in sorted(by_vessel[vid], key=lambda c: c["staff_no"]):
            cid = c["crew_id"]
            doc.at(hspan, K("crew", "vessel_id", cid), "table-under-heading")
            doc.f(c["staff_no"], K("crew", "staff_no", cid), "table")
            doc.t(";")
            doc.f(c["last_name"], K("crew", "last_name", cid), "table")
            doc.t(f" {c['first_name'][0]}.")
            for qid in quals:
                doc.t(";")
                if qid in held[cid]:
                    doc.f("X", K("crew_qualifications", "qual_id", cid, qid), "table", "tick")
            doc.t("\n")
    matrix_cids = {c["crew_id"] for vid in matrix_vessels for c in by_vessel[vid]}

    # renewal reminders: issued dates, by e-mail
    due = [r for r in cq if r["issued"] < "2020-07-01" and r["crew_id"] in crew
           and crew[r["crew_id"]]["vessel_id"] not in (None, LAID_UP)]
    half = len(due) // 2
    for part, chunk in enumerate((due[:half], due[half:]), start=1):
        doc = C.new(f"mail/certificate-renewals-{part}.txt", "email", "Certificate renewals")
        doc.t("From: training@hebrantferries.co.uk\nTo: masters@hebrantferries.co.uk\n"
              f"Subject: Certificates due for renewal ({part} of 2)\nDate: Mon, 4 Nov 2024 08:12:40 +0000\n\n"
              "Dear all,\n\nThe following certificates are due for renewal. Please release the crew member "
              "for the course when the dates are published.\n\n")
        for r in chunk:
            c = crew[r["crew_id"]]
            q = quals[r["qual_id"]]
            doc.t("- ")  # truth audit: the name, payroll number and ship were written unrecorded
            doc.f(c["first_name"], K("crew", "first_name", r["crew_id"]), "prose")
            doc.t(" ")
            doc.f(c["last_name"], K("crew", "last_name", r["crew_id"]), "prose")
            doc.t(" (")
            doc.f(c["staff_no"], K("crew", "staff_no", r["crew_id"]), "prose")
            doc.t(", ")
            doc.f(short(vessels[c["vessel_id"]]), K("crew", "vessel_id", r["crew_id"]), "prose", "name-short")
            doc.t("): ")
            doc.f(q["name"], K("crew_qualifications", "qual_id", r["crew_id"], r["qual_id"]), "prose")
            doc.t(", issued ")
            doc.f(date_as(r["issued"], "date-uk"), K("crew_qualifications", "issued", r["crew_id"], r["qual_id"]),
                  "prose", "date-uk")
            doc.t("\n")
        doc.t("\nThanks,\nRhona\nTraining Coordinator\n")
    omitted["qualification_dates"] = {
        "rule": "issue dates of certificates issued from July 2020 on, and every qualification of crew "
                "without a training matrix",
        "fact_keys": [K("crew_qualifications", "issued", r["crew_id"], r["qual_id"]) for r in cq
                      if not (r in due)] ,
    }

    # ============================================================ incidents
    skipped = []
    for i, inc in enumerate(incidents):
        iid = inc["incident_id"]
        if inc["occurred"] < "2023-01-01" and inc["severity"] == "minor":
            skipped.append(iid)
            continue
        v = vessels[inc["vessel_id"]]
        rep = crew.get(inc["reported_by"]) if inc["reported_by"] else None
        if i % 2 == 0:
            doc = C.new(f"incidents/{inc['ref'].lower()}.txt", "incident-form", inc["ref"])
            doc.t("HEBRANT FERRIES - INCIDENT / NEAR MISS REPORT\n\nReference:     ")
            doc.f(inc["ref"], K("incidents", "ref", iid), "kv-text")
            doc.t("\nVessel:        ")
            doc.f(v["name"], K("incidents", "vessel_id", iid), "kv-text")
            doc.t("\nDate:          ")
            doc.f(date_as(inc["occurred"], "date-uk"), K("incidents", "occurred", iid), "kv-text", "date-uk")
            doc.t("\nSeverity:      ")
            doc.f(inc["severity"].upper(), K("incidents", "severity", iid), "kv-text", "uppercase")
            doc.t("\nReported by:   ")
            if rep:
                doc.f(f"{rep['first_name'][0]}. {rep['last_name']}", K("incidents", "reported_by", iid), "kv-text",
                      "name-initial")
                doc.t(" (")  # truth audit: the reporter's rank
                doc.f(rep["rank"], K("crew", "rank", inc["reported_by"]), "kv-text")
                doc.t(")")
            else:
                doc.t("passenger / anonymous")
            doc.t("\nCost estimate: ")
            if inc["cost"] is not None:
                doc.f(money_as(inc["cost"], "money-sym"), K("incidents", "cost", iid), "kv-text", "money-sym")
            else:
                doc.t("nil")
            doc.t("\n\nDescription of events:\n")
            doc.f(inc["description"], K("incidents", "description", iid), "kv-text")
            doc.t("\n\nForm closed by the DPA. Lessons learned circulated to all masters.\n")
        else:
            doc = C.new(f"incidents/{inc['ref'].lower()}.md", "incident-summary", inc["ref"])
            doc.t("# Incident ")
            doc.f(inc["ref"], K("incidents", "ref", iid), "heading")
            doc.t("\n\nOn ")
            doc.f(date_as(inc["occurred"], "date-weekday"), K("incidents", "occurred", iid), "heading-subject",
                  "date-weekday")
            doc.t(", aboard the ")
            doc.f(short(v), K("incidents", "vessel_id", iid), "heading-subject", "name-short")
            doc.t(". Classified ")
            doc.f(inc["severity"], K("incidents", "severity", iid), "heading-subject")
            doc.t(".")
            if rep:
                doc.t(" Reported by ")
                doc.f(full(rep), K("incidents", "reported_by", iid), "heading-subject", "name")
                doc.t(".")
            doc.t("\n\n> ")
            doc.f(inc["description"], K("incidents", "description", iid), "heading-subject")
            doc.t("\n\n")
            if inc["cost"] is not None:
                doc.t("Cost to the company: ")
                doc.f(money_as(inc["cost"], "money-code"), K("incidents", "cost", iid), "heading-subject",
                      "money-code")
                doc.t(".\n")
    omitted["incidents_2022_minor"] = {
        "rule": "minor incidents of 2022: no report in the corpus",
        "incident_ids": skipped,
        "fact_keys": [K("incidents", c, iid) for iid in skipped
                      for c in ("ref", "vessel_id", "occurred", "severity", "reported_by", "description", "cost")
                      if next(x for x in incidents if x["incident_id"] == iid)[c] is not None],
    }
    # quarterly summary table (2024)
    doc = C.new("incidents/summary-2024.md", "incident-table", "Incident summary 2024")
    doc.t("# Safety committee – incidents logged in 2024\n\n| Ref | Date | Ship | Severity |\n|---|---|---|---|\n")
    for inc in incidents:
        if not inc["occurred"].startswith("2024"):
            continue
        iid = inc["incident_id"]
        doc.t("| ")
        doc.f(inc["ref"], K("incidents", "ref", iid), "table")
        doc.t(" | ")
        doc.f(inc["occurred"], K("incidents", "occurred", iid), "table", "date-iso")
        doc.t(" | ")
        doc.f(short(vessels[inc["vessel_id"]]), K("incidents", "vessel_id", iid), "table", "name-short")
        doc.t(" | ")
        doc.f(inc["severity"], K("incidents", "severity", iid), "table")
        doc.t(" |\n")
    doc.t("\nSerious incidents are reported to the MAIB within 24 hours.\n")

    # ============================================================ newsletters (bios, pronouns, approximations)
    featured = []
    pool = [c for c in crew.values() if c["vessel_id"] not in (None, LAID_UP) and c["reports_to"]]
    rnd.shuffle(pool)
    names_seen = set()
    for c in pool:
        if len(featured) >= 18:
            break
        featured.append(c)
    issues = [("2024-spring", "Spring 2024"), ("2024-summer", "Summer 2024"), ("2024-autumn", "Autumn 2024")]
    for k, (fn, label) in enumerate(issues):
        doc = C.new(f"newsletter/the-wake-{fn}.md", "newsletter", f"The Wake {label}")
        doc.t(f"# The Wake – staff newsletter, {label}\n\n")
        if k == 0:
            v = vessels[13]
            doc.t("## Welcome aboard\n\nOur newest ship, the ")
            doc.t(v["name"])
            doc.t(", has settled in well since she arrived last autumn. She carries around ")
            doc.f(f"{round(v['passengers'], -2)}", K("vessels", "passengers", 13), "prose", "approx-number",
                  exact=False)
            doc.t(" passengers and entered service in ")
            doc.f(f"{d(v['entered_service']):%B %Y}", K("vessels", "entered_service", 13), "prose", "approx-date",
                  exact=False)
            doc.t(".\n\n")
        if k == 1:
            v = vessels[6]
            doc.t("## Refit news\n\nThe ")
            doc.t(short(v))
            doc.t(" is in ")
            doc.f(v["status"], K("vessels", "status", 6), "prose")
            doc.t(" at the yard until the new year; the ")
            doc.t(short(vessels[2]))
            doc.t(" is covering as ")
            doc.f(vessels[2]["status"], K("vessels", "status", 2), "prose")
            doc.t(" vessel.\n\n")
        if k == 2:
            doc.t("## A date for the diary\n\nThe Marine Office moves to the new building at Kinlochbrae in "
                  "January. Parking is unchanged.\n\n")
        doc.t("## Meet the crew\n\n")
        for c in featured[k * 6:(k + 1) * 6]:
            cid = c["crew_id"]
            v = vessels[c["vessel_id"]]
            boss = crew[c["reports_to"]]
            he = rnd.choice(["They", "They"])
            doc.t(f"### {full(c)}\n\n")
            doc.t(f"{c['first_name']} has been with us since ")
            doc.f(str(d(c["joined"]).year), K("crew", "joined", cid), "pronoun", "approx-date", exact=False)
            doc.t(f". {he} work as ")
            doc.f(c["rank"].lower(), K("crew", "rank", cid), "pronoun", "case")
            doc.t(" on the ")
            doc.f(short(v), K("crew", "vessel_id", cid), "pronoun", "name-short")
            doc.t(" and report to ")
            doc.f(f"{boss['first_name']} {boss['last_name']}", K("crew", "reports_to", cid), "pronoun", "name")
            doc.t(". " + rnd.choice([
                "Outside work: hill running and the pipe band.",
                "Favourite crossing: the early one in June, flat calm.",
                "Best advice: never trust the forecast on a Friday.",
                "Off duty you will find them at the shinty.",
                "They are learning Gaelic and will test you on it.",
            ]) + "\n\n")
        doc.t("Contributions to the next issue to the editor by the end of the month.\n")

    # ============================================================ minutes and e-mails
    doc = C.new("minutes/ops-meeting-2024-10.md", "minutes", "Operations meeting October 2024")
    doc.t("# Operations meeting, 15 October 2024\n\nPresent: M. Beaton (chair), N. Robertson, relief masters, "
          "Rhona (training).\n\n1. **Fleet.** ")
    doc.t("The Eilean Dubh ")  # truth audit: states vessel 6's status
    doc.f(vessels[6]["status"], K("vessels", "status", 6), "prose")
    doc.t(" is on schedule. ")
    v = vessels[4]
    doc.t("The ")
    doc.t(short(v))
    doc.t(", built ")
    doc.f(v["built_year"], K("vessels", "built_year", 4), "prose")
    doc.t(", needs new liferafts before her next survey.\n2. **Timetables.** R14 stays suspended for the winter; "
          "no sailings will be advertised.\n3. **Training.** Matrices to be exported monthly.\n"
          "4. **AOB.** The Christmas night out is at the Portnacraig Hotel.\n")
    doc = C.new("minutes/safety-committee-2024-06.md", "minutes", "Safety committee June 2024")
    doc.t("# Safety committee, June 2024\n\nThe committee reviewed the incident log. Slips on wet stairs remain "
          "the most common event. Non-slip treads are being fitted across the fleet. No actions for the "
          "shore office.\n")

    e = vessels[2]
    doc = C.new("mail/re-relief-cover.txt", "email", "Re: relief cover")
    doc.t("From: Neil Robertson <neil.robertson@hebrantferries.co.uk>\nTo: Margaret Beaton\n"
          "Subject: Re: relief cover for R6\nDate: Wed, 9 Oct 2024 17:03:11 +0100\n\n"
          "Margaret,\n\nYes - she is ready. The ")
    doc.t(short(e))
    doc.t(" can hold ")
    doc.f(e["passengers"], K("vessels", "passengers", 2), "prose")
    doc.t(" passengers, so the Saturday sailings are fine unless there is a football match.\n\nNeil\n\n"
          "> On 9 Oct 2024, at 16:40, Margaret Beaton wrote:\n> Is the Isle of Ronay able to cover R6 while\n"
          "> the Eilean Dubh is away? She was built in ")
    doc.f(e["built_year"], K("vessels", "built_year", 2), "prose")
    doc.t(", so check the\n> certificate first.\n")

    relief = [c for c in shore if c["rank"].startswith("Relief")]
    doc = C.new("mail/relief-day-rates.txt", "email", "Relief day rates")
    doc.t("From: payroll@hebrantferries.co.uk\nTo: Neil Robertson\nSubject: Relief day rates 2024-25\n"
          "Date: Fri, 1 Nov 2024 11:20:00 +0000\n\nNeil,\n\nAs agreed, these are the day rates for the relief "
          "pool from 1 November:\n\n")
    for c in relief:
        doc.t("  ")  # truth audit: payroll number and name were written unrecorded
        doc.f(c["staff_no"], K("crew", "staff_no", c["crew_id"]), "table")
        doc.t("  ")
        doc.f(c["last_name"], K("crew", "last_name", c["crew_id"]), "table", "name-reordered")
        doc.t(", ")
        doc.f(c["first_name"], K("crew", "first_name", c["crew_id"]), "table", "name-reordered")
        doc.t(" " * (10 - len(c["first_name"])) + " ")
        doc.f(money_as(c["day_rate"], "money-sym"), K("crew", "day_rate", c["crew_id"]), "table", "money-sym")
        doc.t(" per day\n")
    doc.t("\nOvertime is unchanged. Seagoing rates follow the collective agreement.\n\nPayroll\n")
    omitted["day_rates"] = {
        "rule": "day rates of everyone but the relief pool (confidential)",
        "fact_keys": [K("crew", "day_rate", c["crew_id"]) for c in crew.values()
                      if c not in relief and c["vessel_id"] != LAID_UP],
    }

    ops = [c for c in crew.values() if c["rank"] == "Ferry Operative"]
    doc = C.new("mail/new-starters.txt", "email", "New starters")
    doc.t("From: hr@hebrantferries.co.uk\nTo: all-shore\nSubject: New starters - ferry operatives\n\n"
          "Hi all,\n\nPlease welcome our new ferry operatives, on short contracts for now:\n\n")
    for c in ops:
        doc.t("  ")
        doc.f(c["last_name"], K("crew", "last_name", c["crew_id"]), "prose", "name-reordered")
        doc.t(", ")
        doc.f(c["first_name"], K("crew", "first_name", c["crew_id"]), "prose", "name-reordered")
        doc.t(" (")  # truth audit: the payroll number
        doc.f(c["staff_no"], K("crew", "staff_no", c["crew_id"]), "prose")
        doc.t("), starting ")
        doc.f(date_as(c["joined"], "date-words"), K("crew", "joined", c["crew_id"]), "prose", "date-words")
        doc.t("\n")
    doc.t("\nThey have no ship allocated yet. Lockers are in the Kinlochbrae office.\n\nHR\n")

    doc = C.new("mail/re-lost-property.txt", "email", "Re: lost property")
    doc.t("Subject: Re: lost property - blue rucksack\n\nHello,\n\nThank you, the rucksack was handed in on the "
          "evening sailing and is at the Kinlochbrae office.\n\nRegards\nBooking office\n\n> I left a blue rucksack "
          "on the ferry on Saturday. Is there any way to find it?\n")

    # ============================================================ distractors
    dis = [
        ("other/isle-of-rona-hotel.md", "# The Isle of Rona Hotel\n\nTwenty-two rooms overlooking the bay at "
         "Portnacraig. Built in 1896, refurbished in 2007. Dinner served 18:30 to 21:00. Rooms from £95.\n"),
        ("other/rona-sea-taxi.txt", "RONA SEA TAXI\nDepartures from Ardmair pontoon: 07:30, 09:15, 11:00\n"
         "Adult single £5.90, dogs free. Skipper: Callum MacLeod (not connected with any ferry company).\n"
         "Vessel: 'Isle of Rona II', 12 passengers.\n"),
        ("other/harbour-trust-notice.md", "# Tobarsay Harbour Trust\n\nThe harbour master, Captain Ewan Mackie, "
         "reminds owners that the inner berth at Tobarsay is closed for dredging from 4 November. "
         "Mooring fees rise to £11.40 per night.\n"),
        ("other/lord-of-the-isles-distillery.html", "<!DOCTYPE html>\n<html><body>\n<h1>Lord of the Isles "
         "Distillery</h1>\n<p>Tours daily at 11.00am and 2.30pm. Founded 2011. Adult ticket £13.95.</p>\n"
         "</body></html>\n"),
        ("other/glen-sannox-cruise.md", "# Glen Sannox evening cruise\n\nA charter boat of the same name sails "
         "from Ardmore pier on summer evenings, 380 seats, bar on board. Not operated by Hebrant Ferries.\n"),
        ("other/cv-mairi-cameron.txt", "CURRICULUM VITAE\nMairi Cameron\nBosun (applicant)\n\n2015-2024  Able "
         "Seaman, Western Isles Shipping, MV Loch Seaforth\n2009-2015  Deckhand, fish farm workboats\n"
         "Certificates: STCW Basic Safety Training (2019), Medical First Aid (2021)\n"),
        ("other/scarvay-community-shop.md", "# Scarvay Community Shop\n\nOpen Monday to Saturday, 09:00 to "
         "17:00. Deliveries come over on the Tuesday boat. Contact: Morag MacInnes, 07751 204118.\n"),
        ("other/eilean-dubh-games.txt", "EILEAN DUBH HIGHLAND GAMES\nSaturday 9 August, Bagh Mor field.\n"
         "Extra sailings are planned; check the timetable nearer the day. Entry £6.75, children free.\n"),
    ]
    for did, text in dis:
        doc = C.new(did, "distractor", text.split("\n")[0].lstrip("# ").replace("<!DOCTYPE html>", "").strip()
                    or did, distractor=True)
        doc.raw(text)

    # ============================================================ no database fact
    nofact = [
        ("policies/lifejacket-drills.md", "# Lifejacket and muster drills\n\nEvery ship holds a muster drill "
         "each week and an abandon-ship drill each month. Record drills in the official log book.\n"),
        ("policies/alcohol-and-drugs.md", "# Alcohol and drugs policy\n\nNo crew member may be on duty with a "
         "blood alcohol level above 0.05 %. Random testing applies to all seagoing staff.\n"),
        ("policies/adverse-weather.txt", "ADVERSE WEATHER\n\nThe master decides whether a sailing goes. The "
         "booking office posts cancellations on the website and by text message. Passengers are rebooked "
         "free of charge.\n"),
        ("policies/it-acceptable-use.md", "# IT acceptable use\n\nCompany laptops are for company business. "
         "Report lost phones to the IT desk the same day.\n"),
        ("policies/lost-property.html", "<!DOCTYPE html>\n<html><body>\n<h1>Lost property</h1>\n<p>Items found on "
         "board are kept for 28 days at the terminal office, then given to charity.</p>\n</body></html>\n"),
    ]
    for did, text in nofact:
        doc = C.new(did, "policy", text.split("\n")[0].lstrip("# "))
        doc.raw(text)

    omitted["vessel_entirely"] = {
        "rule": "MV Caolas Mor (laid up): no document states any of her facts but her status (the fleet list "
                "says she is laid up), nor those of her crew",
        "vessel_ids": [LAID_UP],
        "fact_keys": [K("vessels", c, LAID_UP) for c in ("name", "imo_number", "built_year", "passengers", "cars",
                                                         "home_port_id") if vessels[LAID_UP][c] is not None]
        + [K("crew", col, c["crew_id"]) for c in by_vessel[LAID_UP]
           for col in ("staff_no", "first_name", "last_name", "rank", "vessel_id", "reports_to", "joined")],
    }
    omitted["route_suspended"] = {
        "rule": "route R14 (suspended): no timetable, no fare line, no sailings",
        "route_ids": [OMIT_ROUTE],
        "fact_keys": [K("routes", c, OMIT_ROUTE) for c in ("code", "name", "from_port_id", "to_port_id",
                                                          "crossing_minutes", "adult_fare", "seasonal")]
        + [K("sailings", "sailing_no", OMIT_ROUTE, s["sailing_no"]) for s in sailings[OMIT_ROUTE]],
    }
    return C, omitted


def write(C, omitted, out, db_name):
    docs_dir = os.path.join(out, "docs")
    if os.path.isdir(docs_dir):
        shutil.rmtree(docs_dir)
    facts = []
    stems = set()
    documents = []
    for doc in C.docs:
        stem = os.path.splitext(doc.id)[0]
        assert stem not in stems, doc.id
        stems.add(stem)
        path = os.path.join(docs_dir, doc.id)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        text = doc.text()
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        for f in doc.facts:
            assert text[f["start"]:f["end"]] == (esc(f["surface"]) if doc.html else f["surface"]), f
        facts.extend(doc.facts)
        documents.append({
            "doc_id": doc.id, "kind": doc.kind, "format": doc.id.rsplit(".", 1)[1], "title": doc.title,
            "chars": len(text), "n_statements": len(doc.facts), "n_exact": sum(f["exact"] for f in doc.facts),
            "n_distinct_facts": len({f["fact_key"] for f in doc.facts}),
            "tables": sorted({f["fact_key"].split(".")[0] for f in doc.facts}),
            "distractor": doc.distractor, "states_no_db_fact": not doc.facts and not doc.distractor,
        })
    facts.sort(key=lambda f: (f["doc_id"], f["start"], f["fact_key"]))
    stated = {f["fact_key"] for f in facts}
    exact = {f["fact_key"] for f in facts if f["exact"]}
    truth = {
        "database": db_name,
        "facts": facts,
        "split_facts": sorted(C.splits, key=lambda s: s["split_id"]),
        "distractor_doc_ids": sorted(d.id for d in C.docs if d.distractor),
        "no_fact_doc_ids": sorted(d.id for d in C.docs if not d.facts and not d.distractor),
        "omitted": omitted,
        "documents": sorted(documents, key=lambda x: x["doc_id"]),
        "stats": {
            "documents": len(C.docs),
            "statements": len(facts),
            "distinct_facts_stated": len(stated),
            "distinct_facts_stated_exactly": len(exact),
            "approximate_only_facts": sorted(stated - exact),
            "by_format": dict(sorted(Counter(d.id.rsplit(".", 1)[1] for d in C.docs).items())),
            "by_kind": dict(sorted(Counter(d.kind for d in C.docs).items())),
            "by_how": dict(sorted(Counter(f["how"] for f in facts).items())),
            "by_form": dict(sorted(Counter(f["form"] for f in facts).items())),
        },
    }
    with open(os.path.join(out, "truth.json"), "w", encoding="utf-8", newline="\n") as fh:
        json.dump(truth, fh, ensure_ascii=False, indent=1, sort_keys=True)
        fh.write("\n")
    return truth


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default=os.path.join(HERE, "hebrant_ferries.sqlite"))
    ap.add_argument("--out", default=HERE)
    a = ap.parse_args(argv)
    C, omitted = build(a.db, a.out)
    truth = write(C, omitted, a.out, "hebrant_ferries.sqlite")
    st = truth["stats"]
    print(f"{st['documents']} documents, {st['statements']} statements, {st['distinct_facts_stated']} distinct facts "
          f"({st['distinct_facts_stated_exactly']} exactly)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
