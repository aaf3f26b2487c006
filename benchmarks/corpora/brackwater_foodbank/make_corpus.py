#!/usr/bin/env python3
"""Write the Brackwater & Felby Food Bank Network's documents (docs/) and their ground truth (truth.json).

    python3 make_corpus.py [--db brackwater.sqlite] [--out .]

Every database fact a document states is recorded at the moment the text holding it is written
(Doc.f / Doc.close); nothing is found by searching the text afterwards.  Standard library only,
seeded, deterministic.
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
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 7713
ORG = "Brackwater & Felby Food Bank Network"

# ----------------------------------------------------------------------------------------------
# values as people write them
# ----------------------------------------------------------------------------------------------

NUMWORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
            10: "ten", 11: "eleven", 12: "twelve", 20: "twenty", 24: "twenty-four", 30: "thirty", 36: "thirty-six",
            48: "forty-eight", 60: "sixty", 72: "seventy-two", 100: "a hundred"}


def D(s):
    return dt.date.fromisoformat(s)


def ordinal(n):
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def fdate(s, form):
    d = D(s)
    if form == "iso":
        return d.isoformat()
    if form == "date-words":
        return f"{d.day} {d:%B %Y}"
    if form == "date-uk":
        return f"{d:%d/%m/%Y}"
    if form == "date-uk-short":
        return f"{d:%d/%m/%y}"
    if form == "date-abbrev":
        return f"{d.day} {d:%b %Y}"
    if form == "date-weekday":
        return f"{d:%A} {d.day} {d:%B %Y}"
    if form == "date-ordinal":
        return f"{ordinal(d.day)} {d:%B %Y}"
    if form == "date-dots":
        return f"{d:%d.%m.%Y}"
    if form == "month-only":
        return f"{d:%B %Y}"
    if form == "day-month-only":
        return f"{d.day} {d:%B}"
    if form == "approx-date":
        part = "early" if d.day <= 10 else "mid-" if d.day <= 20 else "late"
        return f"{part}{'' if part.endswith('-') else ' '}{d:%B %Y}"
    if form == "year-only":
        return str(d.year)
    raise ValueError(form)


APPROX_DATE_FORMS = {"month-only", "day-month-only", "approx-date", "year-only"}


def fkg(w, form):
    if form == "number-unit":
        return f"{w:g} kg"
    if form == "number-unit-tight":
        return f"{w:g}kg"
    if form == "plain-number":
        return f"{w:g}"
    if form == "approx-kg":
        return f"about {int(round(w, -1)) if w >= 20 else int(round(w))} kg"
    if form == "approx-tonnes":
        return f"around {w / 1000:.1f} tonnes"
    raise ValueError(form)


def fgbp(v, form):
    whole = v == int(v)
    if form == "gbp-sym":
        return f"£{v:,.0f}" if whole else f"£{v:,.2f}"
    if form == "gbp-sym-pence":
        return f"£{v:,.2f}"
    if form == "plain-number":
        return f"{v:.2f}"
    if form == "gbp-code":
        return f"GBP {v:,.2f}"
    raise ValueError(form)


def ftime(t, form):
    h, m = map(int, t.split(":"))
    if form == "verbatim":
        return t
    if form == "time-dot":
        return f"{h}.{m:02d}"
    if form == "time-12h":
        suf = "am" if h < 12 else "pm"
        hh = h if h <= 12 else h - 12
        return f"{hh}{suf}" if m == 0 else f"{hh}.{m:02d}{suf}"
    raise ValueError(form)


def yesno(v):
    return "Yes" if v else "No"


def slug(s):
    out = "".join(c.lower() if c.isalnum() else "-" for c in s)
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-")


# ----------------------------------------------------------------------------------------------
# a document that records what it states
# ----------------------------------------------------------------------------------------------


class Doc:
    def __init__(self, doc_id, kind, title, distractor=False):
        self.doc_id, self.kind, self.title, self.distractor = doc_id, kind, title, distractor
        self.html = doc_id.endswith(".html")
        self.s = ""
        self.facts = []

    def t(self, text):
        """Plain text (escaped in HTML)."""
        self.s += html.escape(text, quote=False) if self.html else text
        return self

    def raw(self, markup):
        self.s += markup
        return self

    def mark(self):
        return len(self.s)

    def close(self, start, keys, how, form="verbatim", exact=True, split_id=None):
        src = self.s[start:]
        surface = html.unescape(src) if self.html else src
        for k in [keys] if isinstance(keys, str) else keys:
            rec = {"fact_key": k, "doc_id": self.doc_id, "surface": surface, "start": start, "end": len(self.s),
                   "exact": exact, "how": how, "form": form}
            if split_id:
                rec["split_id"] = split_id
            self.facts.append(rec)

    def f(self, keys, surface, how, form="verbatim", exact=True, split_id=None):
        """Write SURFACE and record that it states KEYS."""
        if not keys:
            return self.t(surface)
        st = self.mark()
        self.t(surface)
        self.close(st, keys, how, form, exact, split_id)
        return self


class Corpus:
    def __init__(self, db):
        self.con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        self.con.row_factory = sqlite3.Row
        self.rng = random.Random(SEED)
        self.docs = []
        self.split = []

        def rows(q):
            return [dict(r) for r in self.con.execute(q)]

        self.hubs = {r["hub_id"]: r for r in rows("SELECT * FROM hubs")}
        self.hours = defaultdict(list)
        order = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
        for r in rows("SELECT * FROM hub_hours"):
            self.hours[r["hub_id"]].append(r)
        for v in self.hours.values():
            v.sort(key=lambda r: order.index(r["weekday"]))
        self.vols = {r["volunteer_id"]: r for r in rows("SELECT * FROM volunteers")}
        self.hv = rows("SELECT * FROM hub_volunteers ORDER BY hub_id, volunteer_id")
        self.donors = {r["donor_id"]: r for r in rows("SELECT * FROM donors")}
        self.items = {r["item_id"]: r for r in rows("SELECT * FROM items")}
        self.dons = {r["donation_id"]: r for r in rows("SELECT * FROM donations")}
        self.lines = defaultdict(list)
        for r in rows("SELECT * FROM donation_items ORDER BY donation_id, item_id"):
            self.lines[r["donation_id"]].append(r)

    def new(self, doc_id, kind, title, distractor=False):
        d = Doc(doc_id, kind, title, distractor)
        self.docs.append(d)
        return d

    # -- a person, written one of the ways people write names --------------------------------
    def person(self, d, vid, style, how, keys=(), form=None, exact=True):
        v = self.vols[vid]
        fk, lk = f"volunteers.first_name@{vid}", f"volunteers.last_name@{vid}"
        st = d.mark()
        if style == "full":
            d.f(fk, v["first_name"], how).t(" ").f(lk, v["last_name"], how)
            nf = "verbatim"
        elif style == "reversed":
            d.f(lk, v["last_name"], how, "name-reordered").t(", ").f(fk, v["first_name"], how, "name-reordered")
            nf = "name-reordered"
        elif style == "initial":
            d.f(fk, v["first_name"][0] + ".", how, "name-initial", exact=False).t(" ").f(lk, v["last_name"], how)
            nf = "name-initial"
        elif style == "first-initial":
            d.f(fk, v["first_name"], how).t(" ").f(lk, v["last_name"][0] + ".", how, "name-initial", exact=False)
            nf = "name-initial"
        elif style == "first":
            d.f(fk, v["first_name"], how)
            nf = "first-name-only"
        else:
            raise ValueError(style)
        if keys:
            d.close(st, list(keys), how, form or nf, exact)

    # -- generation -----------------------------------------------------------------------------
    def build(self):
        r = self.rng
        # decisions taken before any writing: what is left out on purpose
        self.withheld_donors = sorted(
            [k for k, v in self.donors.items() if v["name"].startswith("Anonymous")]
            + r.sample([k for k, v in self.donors.items() if v["kind"] in ("individual", "business", "group")
                        and not v["name"].startswith("Anonymous")], 4))
        self.unpaged_hubs = [17]
        self.rota_hubs = [1, 3, 4, 5, 6, 7, 8, 14]
        self.gap_quarter = ("2023-10-01", "2023-12-31")
        self.hub_pages()
        self.network_docs()
        self.leaflets()
        self.rotas()
        self.volunteer_lists()
        self.spotlights()
        self.donor_docs()
        self.receipts()
        self.intake_digests()
        self.pallets()
        self.stock_docs()
        self.mails()
        self.newsletters()
        self.distractors()
        self.no_fact_docs()

    # ---------------------------------------------------------------------------------------------
    def hub_pages(self):
        layouts = ["md", "html", "txt"]
        n = 0
        for hid, h in self.hubs.items():
            if hid in self.unpaged_hubs:
                continue
            lay = layouts[n % 3]
            n += 1
            k = lambda c: f"hubs.{c}@{hid}"  # noqa: E731
            parent = self.hubs.get(h["parent_hub_id"])
            if lay == "md":
                d = self.new(f"hubs/{slug(h['name'])}.md", "hub-page-prose", h["name"])
                d.t("# ").f(k("name"), h["name"], "heading").t("\n\n")
                d.t("You will find us at ").f(k("address"), h["address"], "heading-subject").t(", ")
                d.f(k("town"), h["town"], "heading-subject").t(" ").f(k("postcode"), h["postcode"], "heading-subject")
                d.t(". ")
                if h["phone"]:
                    d.t("Phone ").f(k("phone"), h["phone"], "heading-subject").t(" during opening hours. ")
                d.t("We started giving out parcels here in ")
                d.f(k("opened"), fdate(h["opened"], "month-only"), "heading-subject", "month-only", exact=False)
                d.t(".\n\n")
                if parent:
                    d.t("Our stock comes from ").f(k("parent_hub_id"), parent["name"], "heading-subject")
                    d.t(", which also takes any surplus we cannot use.\n\n")
                d.t("## When we are open\n\n")
                for s in self.hours[hid]:
                    hk = f"hub_hours.weekday@{hid}|{s['weekday']}"
                    d.t("- ").f(hk, s["weekday"] + "s", "heading-subject", "plural", exact=True).t(", ")
                    d.f(f"hub_hours.opens@{hid}|{s['weekday']}", ftime(s["opens"], "time-12h"), "heading-subject",
                        "time-12h").t(" to ")
                    d.f(f"hub_hours.closes@{hid}|{s['weekday']}", ftime(s["closes"], "time-12h"), "heading-subject",
                        "time-12h").t("\n")
                d.t("\n## Getting in\n\n")
                d.t("Step-free access: ").f(k("step_free"), yesno(h["step_free"]).lower(), "heading-subject",
                                              "boolean-word").t(".")
                if h["access_notes"]:
                    d.t(" ").f(k("access_notes"), h["access_notes"], "heading-subject")
                d.t("\n\nPlease bring your referral voucher. If you do not have one, come anyway and talk to us.\n")
            elif lay == "html":
                d = self.new(f"hubs/{slug(h['name'])}.html", "hub-page-html", h["name"])
                d.raw("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>").t(h["name"]).raw(
                    "</title></head>\n<body>\n<h1>").f(k("name"), h["name"], "heading").raw("</h1>\n")
                d.raw("<table class=\"hub\">\n")
                d.raw("<tr><th>Type</th><td>").f(k("kind"), h["kind"].capitalize(), "html-table", "capitalised").raw(
                    "</td></tr>\n")
                d.raw("<tr><th>Address</th><td>").f(k("address"), h["address"], "html-table").raw("<br>").f(
                    k("town"), h["town"], "html-table").raw("<br>").f(k("postcode"), h["postcode"], "html-table").raw(
                    "</td></tr>\n")
                if h["phone"]:
                    d.raw("<tr><th>Telephone</th><td>").f(k("phone"), h["phone"], "html-table").raw("</td></tr>\n")
                d.raw("<tr><th>Open since</th><td>").f(k("opened"), fdate(h["opened"], "date-words"), "html-table",
                                                         "date-words").raw("</td></tr>\n")
                if parent:
                    d.raw("<tr><th>Supplied by</th><td>").f(k("parent_hub_id"), parent["name"], "html-table").raw(
                        "</td></tr>\n")
                d.raw("<tr><th>Wheelchair access</th><td>").f(k("step_free"), yesno(h["step_free"]), "html-table",
                                                                "boolean-word").raw("</td></tr>\n")
                d.raw("</table>\n<h2>Sessions</h2>\n<table class=\"sessions\">\n<tr><th>Day</th><th>From</th>"
                      "<th>Until</th></tr>\n")
                for s in self.hours[hid]:
                    wd = s["weekday"]
                    d.raw("<tr><td>").f(f"hub_hours.weekday@{hid}|{wd}", wd, "html-table").raw("</td><td>")
                    d.f(f"hub_hours.opens@{hid}|{wd}", s["opens"], "html-table").raw("</td><td>")
                    d.f(f"hub_hours.closes@{hid}|{wd}", s["closes"], "html-table").raw("</td></tr>\n")
                d.raw("</table>\n")
                if h["access_notes"]:
                    d.raw("<h2>Access</h2>\n<p>").f(k("access_notes"), h["access_notes"], "heading-subject").raw(
                        "</p>\n")
                d.raw("</body></html>\n")
            else:
                d = self.new(f"hubs/{slug(h['name'])}.txt", "hub-record-export", h["name"])
                d.t(f"{ORG.upper()} - SITE RECORD\n")
                d.t("=" * 48 + "\n")
                d.t("Site name ......: ").f(k("name"), h["name"], "kv-text").t("\n")
                d.t("Site type ......: ").f(k("kind"), h["kind"].upper(), "kv-text", "uppercase").t("\n")
                d.t("Address ........: ").f(k("address"), h["address"], "kv-text").t("\n")
                d.t("Town ...........: ").f(k("town"), h["town"], "kv-text").t("\n")
                d.t("Postcode .......: ").f(k("postcode"), h["postcode"], "kv-text").t("\n")
                d.t("Tel ............: ").f(k("phone"), h["phone"], "kv-text").t("\n") if h["phone"] else d.t(
                    "Tel ............: -\n")
                d.t("Opened .........: ").f(k("opened"), fdate(h["opened"], "date-uk"), "kv-text", "date-uk").t("\n")
                if parent:
                    d.t("Parent site ....: ").f(k("parent_hub_id"), parent["name"], "kv-text").t("\n")
                if h["storage_m2"] is not None and h["kind"] != "hub":
                    d.t("Storage (m2) ...: ").f(k("storage_m2"), f"{h['storage_m2']:g}", "kv-text",
                                                 "plain-number").t("\n")
                d.t("Step free ......: ").f(k("step_free"), "Y" if h["step_free"] else "N", "kv-text",
                                             "boolean-letter").t("\n")
                d.t("Sessions .......: ")
                for i, s in enumerate(self.hours[hid]):
                    wd = s["weekday"]
                    if i:
                        d.t("; ")
                    d.f(f"hub_hours.weekday@{hid}|{wd}", wd[:3], "kv-text", "day-abbrev").t(" ")
                    d.f(f"hub_hours.opens@{hid}|{wd}", s["opens"], "kv-text").t("-")
                    d.f(f"hub_hours.closes@{hid}|{wd}", s["closes"], "kv-text")
                d.t("\nNotes ..........: ")
                if h["access_notes"]:
                    d.f(k("access_notes"), h["access_notes"], "kv-text")
                d.t("\n" + "=" * 48 + "\n")

    # ---------------------------------------------------------------------------------------------
    def network_docs(self):
        d = self.new("network/site-directory.md", "directory-table", "Site directory")
        d.t(f"# {ORG}: site directory\n\nUpdated January 2025. Warehouses take deliveries; hubs and points give "
            "out parcels.\n\n| Site | Type | Town | Postcode | Phone | Floor space (m²) |\n|---|---|---|---|---|---|\n")
        for hid, h in self.hubs.items():
            k = lambda c: f"hubs.{c}@{hid}"  # noqa: E731
            d.t("| ").f(k("name"), h["name"], "table").t(" | ")
            d.f(k("kind"), h["kind"], "table").t(" | ").f(k("town"), h["town"], "table").t(" | ")
            d.f(k("postcode"), h["postcode"], "table").t(" | ")
            if h["phone"]:
                d.f(k("phone"), h["phone"], "table")
            d.t(" | ")
            if h["storage_m2"] is not None and h["kind"] == "warehouse":
                d.f(k("storage_m2"), f"{h['storage_m2']:g}", "table", "plain-number")
            d.t(" |\n")
        d.t("\nFloor space is given for the warehouses only; hub storage is being re-measured.\n")

        d = self.new("network/how-we-are-organised.txt", "org-tree", "How the network is organised")
        d.t("HOW THE NETWORK IS ORGANISED\n\nEach warehouse supplies the hubs listed under it; each hub restocks "
            "its own distribution points.\n\n")

        def walk(hid, prefix, last, depth):
            h = self.hubs[hid]
            if depth == 0:
                d.f(f"hubs.name@{hid}", h["name"], "tree").t("\n")
            else:
                d.t(prefix + ("`-- " if last else "|-- "))
                d.f([f"hubs.name@{hid}", f"hubs.parent_hub_id@{hid}"], h["name"], "tree").t("\n")
            kids = [c for c, x in self.hubs.items() if x["parent_hub_id"] == hid]
            for i, c in enumerate(kids):
                walk(c, prefix + ("" if depth == 0 else ("    " if last else "|   ")), i == len(kids) - 1, depth + 1)

        for root in [h for h, x in self.hubs.items() if x["parent_hub_id"] is None]:
            walk(root, "", True, 0)
            d.t("\n")

        d = self.new("network/opening-times.html", "hours-table", "Opening times, all sites")
        d.raw("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Opening times</title></head><body>\n"
              "<h1>Where and when</h1>\n<p>All sessions are free. Times may change over bank holidays.</p>\n"
              "<table>\n<thead><tr><th>Site</th><th>Day</th><th>Time</th></tr></thead>\n<tbody>\n")
        for hid, h in self.hubs.items():
            if h["kind"] == "warehouse":
                continue
            for i, s in enumerate(self.hours[hid]):
                wd = s["weekday"]
                d.raw("<tr><td>")
                if i == 0:
                    d.t(h["name"])
                else:
                    d.raw("&#12291;")  # ditto
                d.raw("</td><td>").f(f"hub_hours.weekday@{hid}|{wd}", wd, "html-table").raw("</td><td>")
                d.f(f"hub_hours.opens@{hid}|{wd}", ftime(s["opens"], "time-dot"), "html-table", "time-dot").t("–")
                d.f(f"hub_hours.closes@{hid}|{wd}", ftime(s["closes"], "time-dot"), "html-table", "time-dot")
                d.raw("</td></tr>\n")
        d.raw("</tbody></table>\n</body></html>\n")

    # ---------------------------------------------------------------------------------------------
    def leaflets(self):
        for town in ["Brackwater", "Felby", "Tidewell", "Kingsmead"]:
            d = self.new(f"leaflets/help-in-{slug(town)}.txt", "leaflet", f"Getting food help in {town}")
            listed = [hid for hid, h in self.hubs.items()
                      if h["town"] == town and h["kind"] != "warehouse" and hid not in self.unpaged_hubs]
            # truth audit: the heading states the town of every place listed under it
            d.t("GETTING FOOD HELP IN ").f([f"hubs.town@{hid}" for hid in listed], town.upper(), "heading-subject",
                                           "uppercase")
            d.t("\n\nYou can collect a food parcel at any of these places. "
                "Bring your voucher from Citizens Advice, your GP or a support worker.\n\n")
            for hid in listed:
                h = self.hubs[hid]
                d.f(f"hubs.name@{hid}", h["name"], "prose").t(", ")
                d.f(f"hubs.address@{hid}", h["address"], "prose").t(". Open ")
                for i, s in enumerate(self.hours[hid]):
                    wd = s["weekday"]
                    if i:
                        d.t(" and " if i == len(self.hours[hid]) - 1 else ", ")
                    d.f(f"hub_hours.weekday@{hid}|{wd}", wd + "s", "prose", "plural").t(" ")
                    d.f(f"hub_hours.opens@{hid}|{wd}", ftime(s["opens"], "time-12h"), "prose", "time-12h").t("-")
                    d.f(f"hub_hours.closes@{hid}|{wd}", ftime(s["closes"], "time-12h"), "prose", "time-12h")
                d.t(". ")
                d.t("Step-free." if h["step_free"] else "Not step-free: ring ahead.")
                d.t("\n\n")
            d.t("Can't get to us? Call the office on 01632 960114 and we will try to arrange a delivery.\n")

    # ---------------------------------------------------------------------------------------------
    def rotas(self):
        for hid in self.rota_hubs:
            h = self.hubs[hid]
            d = self.new(f"rotas/{slug(h['name'])}-rota.md", "rota-table", f"{h['name']} rota")
            d.t("# Volunteer rota: ").f(f"hubs.name@{hid}", h["name"], "heading").t("\n\n")
            d.t("Shift leads are marked L. Please swap shifts with someone on this list, not through the office.\n\n")
            d.t("| Badge | Volunteer | Usual role | On this rota since | Lead |\n|---|---|---|---|---|\n")
            for row in self.hv:
                if row["hub_id"] != hid:
                    continue
                vid = row["volunteer_id"]
                v = self.vols[vid]
                ek = f"hub_volunteers.volunteer_id@{hid}|{vid}"
                d.t("| ").f(f"volunteers.badge_no@{vid}", v["badge_no"], "table").t(" | ")
                self.person(d, vid, "full", "table", keys=[ek], form="verbatim")
                d.t(" | ").f(f"volunteers.role@{vid}", v["role"].capitalize(), "table", "capitalised").t(" | ")
                d.f(f"hub_volunteers.since@{hid}|{vid}", fdate(row["since"], "date-abbrev"), "table-under-heading",
                    "date-abbrev").t(" | ")
                if row["shift_lead"]:
                    d.f(f"hub_volunteers.shift_lead@{hid}|{vid}", "L", "table-under-heading", "flag-letter")
                d.t(" |\n")
            d.t("\nIf you can no longer do your shifts, tell your hub coordinator as early as you can.\n")

    # ---------------------------------------------------------------------------------------------
    def volunteer_lists(self):
        d = self.new("volunteers/badge-register.txt", "register-fixed-width", "Badge register")
        d.t("BADGE REGISTER (office copy - do not post)\n\n")
        d.t(f"{'Badge':<10}{'Surname':<14}{'Forename':<12}{'Joined':<12}{'DBS':<5}Home site\n")
        d.t("-" * 78 + "\n")
        for vid in sorted(self.vols, key=lambda x: self.vols[x]["badge_no"]):
            v = self.vols[vid]
            d.f(f"volunteers.badge_no@{vid}", v["badge_no"], "table").t(" " * (10 - len(v["badge_no"])))
            d.f(f"volunteers.last_name@{vid}", v["last_name"], "table").t(" " * (14 - len(v["last_name"])))
            d.f(f"volunteers.first_name@{vid}", v["first_name"], "table").t(" " * (12 - len(v["first_name"])))
            jd = fdate(v["joined"], "date-uk")
            d.f(f"volunteers.joined@{vid}", jd, "table", "date-uk").t(" " * (12 - len(jd)))
            d.f(f"volunteers.dbs_checked@{vid}", "Y" if v["dbs_checked"] else "N", "table", "boolean-letter").t(
                "    ")
            if v["home_hub_id"]:
                d.f(f"volunteers.home_hub_id@{vid}", self.hubs[v["home_hub_id"]]["name"], "table")
            else:
                d.t("(none)")
            d.t("\n")

        d = self.new("volunteers/driver-phone-tree.txt", "phone-list", "Driver and warehouse phone tree")
        d.t("PHONE TREE - drivers and warehouse crew\nIf a van is off the road, ring down the list until someone "
            "answers. Numbers by badge only; names are in the office register.\n\n")
        for vid in sorted(self.vols, key=lambda x: self.vols[x]["badge_no"]):
            v = self.vols[vid]
            if v["role"] not in ("driver", "warehouse") or not v["phone"]:
                continue
            d.f(f"volunteers.badge_no@{vid}", v["badge_no"], "table").t("  ")
            d.f(f"volunteers.role@{vid}", v["role"][0].upper(), "table", "code-letter").t("  ")
            d.f(f"volunteers.phone@{vid}", v["phone"], "table").t("\n")
        d.t("\nD = driver, W = warehouse.\n")

        d = self.new("contacts/coordinators-and-trustees.html", "contact-table", "Coordinators and trustees")
        d.raw("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Who to contact</title></head><body>\n"
              "<h1>Who to contact</h1>\n<table>\n<tr><th>Name</th><th>Role</th><th>Based at</th><th>E-mail</th>"
              "<th>Mobile</th></tr>\n")
        for vid, v in self.vols.items():
            if v["role"] not in ("coordinator", "trustee"):
                continue
            d.raw("<tr><td>")
            self.person(d, vid, "full", "html-table")
            d.raw("</td><td>").f(f"volunteers.role@{vid}", v["role"].capitalize(), "html-table", "capitalised")
            d.raw("</td><td>")
            if v["home_hub_id"]:
                d.f(f"volunteers.home_hub_id@{vid}", self.hubs[v["home_hub_id"]]["name"], "html-table")
            d.raw("</td><td>")
            if v["email"]:
                d.raw(f"<a href=\"mailto:{html.escape(v['email'])}\">").f(f"volunteers.email@{vid}", v["email"],
                                                                         "html-table").raw("</a>")
            d.raw("</td><td>")
            if v["phone"] and v["role"] == "coordinator":
                d.f(f"volunteers.phone@{vid}", v["phone"], "html-table")
            d.raw("</td></tr>\n")
        d.raw("</table>\n<p>Trustees' mobile numbers are not published.</p>\n</body></html>\n")

    # ---------------------------------------------------------------------------------------------
    def spotlights(self):
        r = self.rng
        pool = [v for v in self.vols if self.vols[v]["role"] in ("driver", "hub", "warehouse") and
                self.vols[v]["home_hub_id"]]
        picks = sorted(r.sample(pool, 10))
        for vid in picks:
            v = self.vols[vid]
            home = self.hubs[v["home_hub_id"]]
            d = self.new(f"newsletter/spotlight-{slug(v['first_name'] + ' ' + v['last_name'])}-{vid}.md",
                         "volunteer-spotlight", f"Volunteer spotlight: {v['first_name']} {v['last_name']}")
            d.t("## Volunteer spotlight: ")
            self.person(d, vid, "full", "heading")
            d.t("\n\n")
            pron = r.choice(["She", "He"])
            d.t(f"{pron} first came along in ")
            d.f(f"volunteers.joined@{vid}", fdate(v["joined"], "month-only"), "heading-subject", "month-only",
                exact=False)
            d.t(" after seeing a poster in the library, and never left. ")
            role_txt = {"driver": "driver", "hub": "hub", "warehouse": "warehouse"}[v["role"]]
            if v["role"] == "driver":
                d.t(f"{pron} is one of our volunteer ").f(f"volunteers.role@{vid}", "drivers", "pronoun", "plural")
                d.t(", collecting from the supermarkets before most of us are up. ")
            else:
                d.t(f"{pron} does a ").f(f"volunteers.role@{vid}", role_txt, "pronoun").t(" shift most weeks. ")
            d.t(f"{pron} is based at ").f(f"volunteers.home_hub_id@{vid}", home["name"], "pronoun").t(". ")
            if v["badge_no"] and r.random() < 0.5:
                d.t("(Badge ").f(f"volunteers.badge_no@{vid}", v["badge_no"], "heading-subject").t(", if you need "
                                                                                                   "to swap shifts.)")
            d.t("\n\n\"What keeps me coming back is the people,\" " + pron.lower() + " says. \"You see the same "
                "faces every week and you get to know them.\"\n")

    # ---------------------------------------------------------------------------------------------
    def donor_docs(self):
        d = self.new("donors/supporter-register.md", "register-table", "Supporter register")
        d.t("# Supporter register\n\nRegular supporters, January 2025. Individuals who asked not to be named are "
            "not listed.\n\n| Supporter | Type | Town | Contact | Giving since | Gift Aid |\n|---|---|---|---|---|---|\n")
        for did, v in self.donors.items():
            if did in self.withheld_donors:
                continue
            k = lambda c: f"donors.{c}@{did}"  # noqa: E731
            d.t("| ").f(k("name"), v["name"], "table").t(" | ").f(k("kind"), v["kind"].capitalize(), "table",
                                                                   "capitalised").t(" | ")
            d.f(k("town"), v["town"], "table").t(" | ")
            if v["contact_name"]:
                d.f(k("contact_name"), v["contact_name"], "table")
            d.t(" | ").f(k("since"), fdate(v["since"], "year-only"), "table", "year-only", exact=False).t(" | ")
            if v["kind"] == "individual":
                d.f(k("gift_aid"), yesno(v["gift_aid"]), "table", "boolean-word")
            d.t(" |\n")

        # thank-you letters: one per donor with a named contact, for a dozen donors
        r = self.rng
        cands = [did for did, v in self.donors.items() if v["contact_name"] and did not in self.withheld_donors
                 and any(x["donor_id"] == did for x in self.dons.values())]
        for did in sorted(r.sample(cands, 14)):
            v = self.donors[did]
            gifts = sorted([x for x in self.dons.values() if x["donor_id"] == did], key=lambda x: x["received"])
            g = gifts[-1]
            gid = g["donation_id"]
            hub = self.hubs[g["hub_id"]]
            d = self.new(f"donors/letters/thank-you-{slug(v['name'])}.md", "thank-you-letter",
                         f"Thank you, {v['name']}")
            when = (D(g["received"]) + dt.timedelta(days=5))
            d.t(f"{ORG}\nUnit 4, Quayside Trading Estate, Brackwater BW1 4QT\n\n{when.day} {when:%B %Y}\n\n")
            d.f(f"donors.contact_name@{did}", v["contact_name"], "prose").t("\n")
            d.f(f"donors.name@{did}", v["name"], "prose").t("\n")
            d.f(f"donors.town@{did}", v["town"], "prose").t("\n\n")
            d.t("Dear friends,\n\n")
            d.t("Thank you for your gift of ").f(f"donations.weight_kg@{gid}", fkg(g["weight_kg"], "number-unit"),
                                                 "prose", "number-unit")
            d.t(" of food, which reached ").f(f"donations.hub_id@{gid}", hub["name"], "prose").t(" on ")
            d.f(f"donations.received@{gid}", fdate(g["received"], "date-ordinal"), "prose", "date-ordinal").t(".")
            if g["cash_gbp"]:
                d.t(" We were also very grateful for the ").f(f"donations.cash_gbp@{gid}", fgbp(g["cash_gbp"], "gbp-sym"),
                                                            "prose", "gbp-sym")
                d.t(" you sent with it, which will go towards fresh milk and eggs.")
            d.t(" For your records, our receipt number is ").f(
                [f"donations.receipt_no@{gid}", f"donations.donor_id@{gid}"], g["receipt_no"], "prose", "code").t(".\n\n")
            if len(gifts) > 1:
                d.t(f"This was the {ordinal(len(gifts))} gift we have had from you since we started keeping records "
                    "electronically, and it makes a real difference.\n\n")
            d.t("With warm thanks,\n\n")
            self.signature(d, self.rng.choice([v for v in self.vols if self.vols[v]["role"] == "trustee"]))

    def signature(self, d, vid, hub=None):
        v = self.vols[vid]
        self.person(d, vid, "full", "card")
        d.t("\n").f(f"volunteers.role@{vid}", v["role"].capitalize(), "card", "capitalised")
        if v["home_hub_id"]:
            d.t(", ").f(f"volunteers.home_hub_id@{vid}", self.hubs[v["home_hub_id"]]["name"], "card")
        d.t("\n")
        if v["email"]:
            d.f(f"volunteers.email@{vid}", v["email"], "card").t("\n")
        d.t(f"{ORG} - registered charity no. 1150392\n")

    # ---------------------------------------------------------------------------------------------
    def receipts(self):
        r = self.rng
        pool = [g for g in sorted(self.dons) if self.dons[g]["donor_id"] not in self.withheld_donors]
        picks = sorted(r.sample(pool, 18))
        for n, gid in enumerate(picks):
            g = self.dons[gid]
            k = lambda c: f"donations.{c}@{gid}"  # noqa: E731
            donor, hub = self.donors[g["donor_id"]], self.hubs[g["hub_id"]]
            if n % 2 == 0:
                d = self.new(f"receipts/{g['receipt_no']}.html", "receipt-html", f"Receipt {g['receipt_no']}")
                d.raw("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Donation receipt</title></head>"
                      "<body>\n<h1>Donation receipt ").f(k("receipt_no"), g["receipt_no"], "heading").raw("</h1>\n")
                d.raw("<dl>\n<dt>Received from</dt><dd>").f(k("donor_id"), donor["name"], "html-table").raw("</dd>\n")
                d.raw("<dt>Received at</dt><dd>").f(k("hub_id"), hub["name"], "html-table").raw("</dd>\n")
                d.raw("<dt>Date</dt><dd>").f(k("received"), fdate(g["received"], "date-uk"), "html-table",
                                             "date-uk").raw("</dd>\n")
                d.raw("<dt>Gross weight</dt><dd>").f(k("weight_kg"), fkg(g["weight_kg"], "number-unit"), "html-table",
                                                     "number-unit").raw("</dd>\n")
                if g["cash_gbp"]:
                    d.raw("<dt>Cash / cheque</dt><dd>").f(k("cash_gbp"), fgbp(g["cash_gbp"], "gbp-sym-pence"),
                                                          "html-table", "gbp-sym").raw("</dd>\n")
                if g["logged_by"]:
                    lv = self.vols[g["logged_by"]]
                    d.raw("<dt>Checked in by</dt><dd>").f(k("logged_by"), lv["badge_no"], "html-table", "code").raw(
                        "</dd>\n")
                d.raw("</dl>\n<table>\n<tr><th>Code</th><th>Item</th><th>Qty</th><th>Best before</th></tr>\n")
                for ln in self.lines[gid]:
                    it = self.items[ln["item_id"]]
                    lk = f"{gid}|{ln['item_id']}"
                    d.raw("<tr><td>").f(f"donation_items.item_id@{lk}", it["sku"], "html-table", "code").raw("</td><td>")
                    d.f(f"items.name@{it['item_id']}", it["name"], "html-table").raw("</td><td>")
                    d.f(f"donation_items.quantity@{lk}", str(ln["quantity"]), "html-table", "plain-number").raw(
                        "</td><td>")
                    if ln["best_before"]:
                        d.f(f"donation_items.best_before@{lk}", fdate(ln["best_before"], "date-uk"), "html-table",
                            "date-uk")
                    d.raw("</td></tr>\n")
                d.raw("</table>\n<p>Thank you. This receipt is not a Gift Aid declaration.</p>\n</body></html>\n")
            else:
                d = self.new(f"receipts/{g['receipt_no']}.txt", "receipt-text", f"Receipt {g['receipt_no']}")
                d.t(f"{ORG}\nGOODS RECEIVED NOTE   No. ").f(k("receipt_no"), g["receipt_no"], "kv-text").t("\n\n")
                d.t("Donor:    ").f(k("donor_id"), donor["name"].upper(), "kv-text", "uppercase").t("\n")
                d.t("Site:     ").f(k("hub_id"), hub["name"], "kv-text").t("\n")
                d.t("Date:     ").f(k("received"), fdate(g["received"], "date-dots"), "kv-text", "date-dots").t("\n")
                d.t("Weight:   ").f(k("weight_kg"), fkg(g["weight_kg"], "number-unit-tight"), "kv-text",
                                    "number-unit").t("\n")
                if g["cash_gbp"]:
                    d.t("Money:    ").f(k("cash_gbp"), fgbp(g["cash_gbp"], "gbp-code"), "kv-text", "gbp-code").t("\n")
                if g["logged_by"]:
                    d.t("Booked in by: ")
                    self.person(d, g["logged_by"], "initial", "kv-text", keys=[k("logged_by")])
                    d.t("\n")
                d.t("\n  QTY  ITEM\n")
                for ln in self.lines[gid]:
                    it = self.items[ln["item_id"]]
                    lk = f"{gid}|{ln['item_id']}"
                    q = ln["quantity"]
                    if q in NUMWORDS and q <= 12:
                        d.t("  ").f(f"donation_items.quantity@{lk}", NUMWORDS[q], "table", "number-words")
                    else:
                        d.t(f"{q:>5}"[: 5 - len(str(q))]).f(f"donation_items.quantity@{lk}", str(q), "table",
                                                            "plain-number")
                    d.t("  ").f([f"donation_items.item_id@{lk}", f"items.name@{it['item_id']}"], it["name"].lower(),
                                "table", "lowercase")
                    d.t(" (").f(f"items.unit@{it['item_id']}", it["unit"], "table").t(")\n")  # truth audit
                d.t("\nReceived with thanks.\n")

    # ---------------------------------------------------------------------------------------------
    def intake_digests(self):
        quarters = [("2023-07-01", "2023-09-30", "July to September 2023"),
                    ("2024-01-01", "2024-03-31", "January to March 2024"),
                    ("2024-04-01", "2024-06-30", "April to June 2024"),
                    ("2024-07-01", "2024-09-30", "July to September 2024"),
                    ("2024-10-01", "2024-12-31", "October to December 2024")]
        for n, (a, b, label) in enumerate(quarters):
            d = self.new(f"intake/intake-{a[:7]}.md", "intake-digest", f"Intake, {label}")
            d.t(f"# Donations received, {label}\n\n")
            d.t("Prepared for the trustees. Weights are gross, as weighed at the door.\n\n")
            date_form = ["date-abbrev", "iso", "date-uk-short", "date-abbrev", "iso"][n]
            d.t("| Receipt | Date | From | Received at | kg |\n|---|---|---|---|---:|\n")
            tot = 0.0
            for gid in sorted(self.dons):
                g = self.dons[gid]
                if not a <= g["received"] <= b:
                    continue
                tot += g["weight_kg"]
                k = lambda c: f"donations.{c}@{gid}"  # noqa: E731
                d.t("| ").f(k("receipt_no"), g["receipt_no"], "table").t(" | ")
                d.f(k("received"), fdate(g["received"], date_form), "table", date_form).t(" | ")
                if g["donor_id"] in self.withheld_donors:
                    d.t("(withheld)")
                else:
                    d.f(k("donor_id"), self.donors[g["donor_id"]]["name"], "table")
                d.t(" | ")
                hname = self.hubs[g["hub_id"]]["name"]
                short = hname[:-4] if hname.endswith(" Hub") else hname
                d.f(k("hub_id"), short, "table", "short-name" if short != hname else "verbatim").t(" | ")
                d.f(k("weight_kg"), fkg(g["weight_kg"], "plain-number"), "table", "plain-number").t(" |\n")
            d.t(f"\nTotal for the quarter: {tot:,.1f} kg.\n")

    # ---------------------------------------------------------------------------------------------
    def pallets(self):
        big = [g for g in sorted(self.dons) if self.dons[g]["weight_kg"] >= 150 and self.dons[g]["hub_id"] == 1
               and self.dons[g]["received"] >= "2024-07-01"]
        picks = big[:9]
        log = self.new("warehouse/pallet-intake-log.txt", "pallet-log", "Central warehouse pallet intake log")
        reg = self.new("warehouse/pallet-tag-register.txt", "pallet-register", "Pallet tag register")
        log.t("BRACKWATER CENTRAL - PALLET INTAKE LOG (JUL-DEC 2024)\nTag     Date in      Gross kg   Bay\n")
        reg.t("PALLET TAGS ISSUED JUL-DEC 2024\nEach tag goes on one inbound load; match the tag to the goods-received note.\n\n")
        for i, gid in enumerate(picks):
            g = self.dons[gid]
            tag = f"P-{301 + i}"
            sid_w, sid_d = f"split-pallet-{tag}-weight", f"split-pallet-{tag}-date"
            log.t(f"{tag:<8}")
            dd = fdate(g["received"], "date-uk")
            log.f(f"donations.received@{gid}", dd, "split", "date-uk", split_id=sid_d).t("   ")
            w = f"{g['weight_kg']:g}"
            log.t(" " * (8 - len(w))).f(f"donations.weight_kg@{gid}", w, "split", "plain-number", split_id=sid_w)
            log.t(f"   {'ABCD'[i % 4]}{1 + i % 3}\n")
            reg.t(f"{tag}  ->  GRN ").f(f"donations.receipt_no@{gid}", g["receipt_no"], "table").t("  (")
            donor = self.donors[g["donor_id"]]
            if g["donor_id"] in self.withheld_donors:
                reg.t("donor withheld")
            else:
                reg.f(f"donations.donor_id@{gid}", donor["name"], "table")
            reg.t(")\n")
            for key, sid, what in ((f"donations.weight_kg@{gid}", sid_w, "weight"),
                                   (f"donations.received@{gid}", sid_d, "date")):
                self.split.append({"fact_key": key, "split_id": sid, "doc_ids": [log.doc_id, reg.doc_id],
                                   "note": f"the log gives the {what} for pallet tag {tag} only; the register maps "
                                           f"the tag to receipt {g['receipt_no']}"})

    # ---------------------------------------------------------------------------------------------
    def stock_docs(self):
        cats = []
        for it in self.items.values():
            if it["category"] not in cats:
                cats.append(it["category"])
        d = self.new("stock/item-list.md", "catalogue-by-heading", "Stock item list")
        d.t("# Stock item list\n\nUse these codes on goods-received notes. Chilled items go straight into the "
            "fridge.\n")
        for c in cats:
            members = [iid for iid, it in self.items.items() if it["category"] == c]
            d.t("\n## ").f([f"items.category@{iid}" for iid in members], c, "table-under-heading").t(
                "\n\n| Code | Item | Pack | Chilled |\n|---|---|---|---|\n")
            for iid in members:
                it = self.items[iid]
                k = lambda col: f"items.{col}@{iid}"  # noqa: E731
                d.t("| ").f(k("sku"), it["sku"], "table").t(" | ").f(k("name"), it["name"], "table").t(" | ")
                d.f(k("unit"), it["unit"], "table").t(" | ")
                d.f(k("perishable"), "yes" if it["perishable"] else "no", "table", "boolean-word").t(" |\n")

        d = self.new("stock/most-needed.html", "poster-html", "Most needed this month")
        d.raw("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Most needed</title></head><body>\n"
              "<h1>What we are short of</h1>\n<p>If you are shopping for us this month, these help most:</p>\n<ul>\n")
        for iid in (1, 4, 13, 20, 22, 27, 28, 33, 35):
            it = self.items[iid]
            d.raw("<li>").f(f"items.name@{iid}", it["name"], "card").t(" (").f(f"items.unit@{iid}", it["unit"], "card")
            d.t(")").raw("</li>\n")
        d.raw("</ul>\n<p>Please no glass jars over 1 kg, no alcohol and nothing past its use-by date.</p>\n"
              "</body></html>\n")

    # ---------------------------------------------------------------------------------------------
    def mails(self):
        r = self.rng
        coords = [v for v in sorted(self.vols) if self.vols[v]["role"] == "coordinator" and self.vols[v]["email"]]
        pool = [g for g in sorted(self.dons) if self.dons[g]["donor_id"] not in self.withheld_donors
                and self.dons[g]["received"] >= "2024-01-01"]
        for n in range(10):
            cv = coords[n % len(coords)]
            c = self.vols[cv]
            gid = r.choice(pool)
            g = self.dons[gid]
            donor, hub = self.donors[g["donor_id"]], self.hubs[g["hub_id"]]
            d = self.new(f"mail/{g['receipt_no'].lower()}-query-{n + 1}.txt", "email", f"Query about {g['receipt_no']}")
            sent = D(g["received"]) + dt.timedelta(days=1 + n % 3)
            d.t("From: ")  # truth audit: the sender's name beside the address was written unrecorded
            self.person(d, cv, "full", "card")
            d.t(" <").f(f"volunteers.email@{cv}", c["email"], "card").t(">\n")
            d.t("To: office@brackwaterfoodbank.org.uk\n")
            d.t(f"Date: {sent:%a}, {sent.day} {sent:%b %Y} 09:{10 + n:02d}\n")
            d.t(f"Subject: {g['receipt_no']} - paperwork\n\n")
            d.t("Hi all,\n\n")
            if n % 2 == 0:
                d.t("Can someone check the goods-received note for ").f(f"donations.receipt_no@{gid}", g["receipt_no"],
                                                                         "prose").t("? It came in from ")
                d.f(f"donations.donor_id@{gid}", donor["name"], "prose").t(" on ")
                d.f(f"donations.received@{gid}", fdate(g["received"], "date-weekday"), "prose", "date-weekday")
                d.t(" and we weighed it at ").f(f"donations.weight_kg@{gid}", fkg(g["weight_kg"], "approx-kg"), "prose",
                                                "approx-kg", exact=False)
                d.t(", but the sheet has gone missing from the folder.\n\n")
            else:
                d.t("Just so you know, ").f(f"donations.donor_id@{gid}", donor["name"], "prose").t(" dropped off "
                                                                                                    "another load at ")
                d.f(f"donations.hub_id@{gid}", hub["name"], "prose").t(" yesterday (receipt ")
                d.f(f"donations.receipt_no@{gid}", g["receipt_no"], "prose").t(") and we are now full to the rafters. "
                                                                              "Could the van take some to ")
                parent = self.hubs.get(hub["parent_hub_id"]) or self.hubs[1]
                d.t(parent["name"] + " next week?\n\n")
            d.t("Thanks,\n")
            self.person(d, cv, "first", "card")
            d.t("\n--\n")
            self.signature(d, cv)
            if c["phone"] and n % 3 == 0:
                d.t("Mob: ").f(f"volunteers.phone@{cv}", c["phone"], "card").t("\n")

    # ---------------------------------------------------------------------------------------------
    def newsletters(self):
        gap = [g for g in sorted(self.dons) if self.gap_quarter[0] <= self.dons[g]["received"] <= self.gap_quarter[1]]
        by_month = defaultdict(list)
        for g in gap:
            by_month[self.dons[g]["received"][:7]].append(g)
        for mo in sorted(by_month):
            gids = by_month[mo]
            d0 = D(mo + "-01")
            d = self.new(f"newsletter/news-{mo}.md", "newsletter", f"News, {d0:%B %Y}")
            d.t(f"# Network news - {d0:%B %Y}\n\n")
            tot = sum(self.dons[g]["weight_kg"] for g in gids)
            d.t(f"It has been a busy month: {len(gids)} deliveries and drop-offs came in, roughly "
                f"{tot / 1000:.1f} tonnes in all. A few highlights:\n\n")
            for g in sorted(gids, key=lambda x: -self.dons[x]["weight_kg"])[:4]:
                x = self.dons[g]
                if x["donor_id"] in self.withheld_donors:
                    continue
                donor = self.donors[x["donor_id"]]
                d.t("- ").f(f"donations.donor_id@{g}", donor["name"], "prose").t(" brought in ")
                d.f(f"donations.weight_kg@{g}", fkg(x["weight_kg"], "approx-kg"), "prose", "approx-kg", exact=False)
                d.t(" in ").f(f"donations.received@{g}", fdate(x["received"], "approx-date"), "prose", "approx-date",
                              exact=False)
                d.t(", delivered to ").f(f"donations.hub_id@{g}", self.hubs[x["hub_id"]]["name"], "prose").t(".\n")
            d.t("\nThank you to everyone who gave, sorted, drove and smiled.\n")

        # a prose annual review with hubs and their openings, approximate
        d = self.new("newsletter/annual-review-2024.md", "annual-review", "Annual review 2024")
        d.t("# Looking back on 2024\n\n")
        h17 = self.hubs[17]
        d.t("In January we opened our newest point, ").f("hubs.name@17", h17["name"], "prose").t(", in the porch of "
                                                                                                 "the church; it is run "
                                                                                                 "from ")
        d.f("hubs.parent_hub_id@17", self.hubs[h17["parent_hub_id"]]["name"], "prose").t(". ")
        d.t("It opened on ").f("hubs.opened@17", fdate(h17["opened"], "date-weekday"), "prose", "date-weekday").t(
            " and is open on ")
        s = self.hours[17][0]
        d.f(f"hub_hours.weekday@17|{s['weekday']}", s["weekday"] + "s", "prose", "plural").t(" from ")
        d.f(f"hub_hours.opens@17|{s['weekday']}", ftime(s["opens"], "time-12h"), "prose", "time-12h").t(".\n\n")
        wh = self.hubs[1]
        d.t("Our oldest site, ").f("hubs.name@1", wh["name"], "prose").t(", opened in ").f(
            "hubs.opened@1", fdate(wh["opened"], "year-only"), "prose", "year-only", exact=False).t(
            " and has about ").f("hubs.storage_m2@1", f"{round(wh['storage_m2'], -2):g} square metres", "prose",
                                "approx-number", exact=False).t(" of racking.\n\n")
        d.t("Volunteers gave more hours than ever. Thank you.\n")

    # ---------------------------------------------------------------------------------------------
    def distractors(self):
        d = self.new("other/brackwater-community-pantry.md", "distractor", "Brackwater Community Pantry", True)
        d.t("# Brackwater Community Pantry\n\nNot part of the food bank network. The pantry is a membership scheme: "
            "£3.50 a week buys ten items.\n\nEastgate Pantry, 14 Mill Street, Brackwater BW2 7MT. Open Tuesdays "
            "10am to 12.30pm and Thursdays 5.30pm to 7.30pm. Phone 01632 960445.\n")
        d = self.new("other/haldon-farm-shop-prices.txt", "distractor", "Haldon Farm Shop price list", True)
        d.t("HALDON FARM SHOP, Ashcombe Road\nSpring price list\n\nApples (1 kg bag) ........ £2.40\n"
            "Potatoes (2.5 kg bag) .... £3.10\nCarrots (1 kg bag) ....... £1.20\nFree-range eggs, box of 6  £2.60\n\n"
            "Open Monday to Saturday 08:00-17:30. Contact Will Haldon Jr on 01632 965510.\n")
        d = self.new("other/cv-sarah-jones.md", "distractor", "CV: Sarah Jones", True)
        d.t("# Sarah Jones\n\nsarah.jones.hr@outlook.com | 07700 900412 | Northope\n\n## Experience\n\n"
            "- 2019-2024: HR adviser, Pennant Logistics, Brackwater\n- 2015-2019: Payroll clerk, Felby Building "
            "Society\n\n## Volunteering\n\nNone listed. Applying for the paid role of warehouse manager, January 2025.\n")
        d = self.new("other/freshway-express-opening.md", "distractor", "FreshWay Express opens in Tidewell", True)
        d.t("# New FreshWay Express opens on Harbour Road\n\nFreshWay Express Tidewell opened on 2 December 2024 at "
            "5 Harbour Road, Tidewell TW8 3HS. Store manager Raj Malhotra-Price said the store would put a food bank "
            "collection trolley by the tills from the new year.\n")
        d = self.new("other/tidewell-hub-coworking.html", "distractor", "Tidewell Hub co-working", True)
        d.raw("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Tidewell Hub</title></head><body>\n"
              "<h1>Tidewell Hub - desks by the harbour</h1>\n<table><tr><th>Address</th><td>The Net Loft, 9 Harbour "
              "Road, Tidewell TW8 3HT</td></tr><tr><th>Open</th><td>Monday-Friday 08:00-18:00</td></tr><tr><th>"
              "Phone</th><td>01632 960789</td></tr></table>\n<p>Hot desks from £12 a day.</p>\n</body></html>\n")
        d = self.new("other/st-marys-kingsbridge-notices.txt", "distractor", "St Mary's, Kingsbridge notices", True)
        d.t("ST MARY'S CHURCH, KINGSBRIDGE - weekly notices\n\nHarvest gifts this year go to the Kingsbridge food "
            "bank (not Kingsmead!). Revd Anne Colley-Hart will bless the gifts on Sunday 6 October.\n")
        d = self.new("other/felby-ontario-foodbank.md", "distractor", "Felby Food Bank, Ontario", True)
        d.t("# Felby Community Food Bank (Felby, Ontario)\n\nA correspondent writes: our namesake in Canada has "
            "opened a second depot, the Felby Depot on Station Road East, with 300 square metres of storage. Their "
            "coordinator, Kathryn Hughes, sends greetings.\n")
        d = self.new("other/kingsmead-library-events.md", "distractor", "Kingsmead Library events", True)
        d.t("# Kingsmead Library: what's on\n\n- Tuesdays 10:00-11:30: Rhyme time\n- Thursdays 14:00-16:00: "
            "Digital help drop-in with John Price\n- Saturday 18 January: Local history talk\n\nThe food bank point "
            "has moved its table; ask at the desk.\n")

    def no_fact_docs(self):
        texts = {
            "policies/safeguarding.md": ("Safeguarding policy", "# Safeguarding policy\n\nEveryone who volunteers "
                                         "with children or adults at risk must have an enhanced check before their "
                                         "first shift. Concerns go to the designated safeguarding lead the same day; "
                                         "never investigate yourself. Write down what you saw and heard, in the "
                                         "person's own words, and sign and date it.\n"),
            "policies/food-hygiene.md": ("Food hygiene", "# Food hygiene at every site\n\nChilled food must be kept "
                                         "at 5°C or below. Check the fridge thermometer at the start and end of each "
                                         "session and write both readings on the sheet. Anything past its use-by date "
                                         "goes in the waste; best-before dates are a guide only.\n"),
            "policies/lone-working.txt": ("Lone working", "LONE WORKING\n\nNo volunteer opens a site alone. Drivers "
                                          "collecting after dark text the duty phone when they set off and when they "
                                          "are back. If you have not heard from a driver within an hour of the "
                                          "expected time, ring them, then ring the duty trustee.\n"),
            "policies/privacy-notice.md": ("Privacy notice", "# How we use your information\n\nWe keep your name, "
                                           "the agency that referred you and the dates you collected a parcel, so that "
                                           "we can report numbers to our funders. We never share it without your "
                                           "consent, and we delete it three years after your last visit.\n"),
            "policies/volunteer-handbook-intro.md": ("Volunteer handbook", "# Welcome\n\nThank you for joining us. "
                                                     "Wear your badge on every shift, sign in and out, and ask if you "
                                                     "are unsure about anything. Tea is in the cupboard above the "
                                                     "sink; please wash your mug.\n"),
            "minutes/trustees-2024-11.txt": ("Trustee minutes, November 2024", "TRUSTEES' MEETING, NOVEMBER 2024\n\n"
                                             "1. Apologies: none.\n2. Minutes of the last meeting agreed.\n3. Van "
                                             "insurance renewed; quote accepted.\n4. Christmas rota to be drawn up by "
                                             "the hub coordinators.\n5. Date of next meeting: to be fixed.\n"),
        }
        for doc_id, (title, text) in texts.items():
            self.new(doc_id, "no-fact", title).t(text)

    # ---------------------------------------------------------------------------------------------
    def omitted(self):
        stated = {f["fact_key"] for d in self.docs for f in d.facts}
        wd = self.withheld_donors
        donor_cols = ["name", "kind", "town", "contact_name", "since", "gift_aid"]
        g_entire = {
            "rule": "donors who asked not to be named (all 'Anonymous' entries and four others, seeded): no register "
                    "row, no letter, no receipt; their donations appear in the intake tables with the donor "
                    "'(withheld)'",
            "donor_ids": wd,
            "fact_keys": [f"donors.{c}@{i}" for i in wd for c in donor_cols if self.donors[i][c] is not None]
                         + [f"donations.donor_id@{g}" for g in sorted(self.dons) if self.dons[g]["donor_id"] in wd],
        }
        contact = []
        for vid, v in self.vols.items():
            if v["email"] and v["role"] not in ("coordinator", "trustee"):
                contact.append(f"volunteers.email@{vid}")
            if v["phone"] and v["role"] in ("hub", "trustee"):
                contact.append(f"volunteers.phone@{vid}")
        g_contact = {"rule": "e-mail addresses of volunteers other than coordinators and trustees, and mobile numbers "
                             "of hub volunteers and trustees, are never published", "fact_keys": sorted(contact)}
        gap = [g for g in sorted(self.dons) if self.gap_quarter[0] <= self.dons[g]["received"] <= self.gap_quarter[1]]
        g_gap = {"rule": "no intake table for October-December 2023: those donations appear only in monthly "
                         "newsletters (approximate weights and dates) and the odd receipt or e-mail",
                 "donation_ids": gap,
                 "fact_keys": sorted(f"donations.{c}@{g}" for g in gap for c in ("receipt_no", "received", "weight_kg")
                                     if f"donations.{c}@{g}" not in stated)}
        hubstore = {"rule": "floor space of the distribution hubs (being re-measured); given for warehouses and the "
                            "satellite records only",
                    "fact_keys": [f"hubs.storage_m2@{h}" for h, x in self.hubs.items()
                                  if x["kind"] == "hub" and x["storage_m2"] is not None]}
        rota_hv = [f"hub_volunteers.volunteer_id@{r['hub_id']}|{r['volunteer_id']}" for r in self.hv
                   if r["hub_id"] not in self.rota_hubs]
        g_rota = {"rule": "rotas of satellite points other than Felby Baptist Church and of Felby Depot are not "
                          "published", "hub_ids": [h for h in self.hubs if h not in self.rota_hubs],
                  "fact_keys": rota_hv}
        out = {"donors_withheld": g_entire, "volunteer_contact_details": g_contact, "intake_2023_q4": g_gap,
               "hub_floor_space": hubstore, "unpublished_rotas": g_rota}
        for name, g in out.items():
            leak = [k for k in g["fact_keys"] if k in stated and name != "intake_2023_q4"]
            assert not leak, (name, leak[:5])
        return out

    def write(self, out):
        docs_dir = os.path.join(out, "docs")
        if os.path.isdir(docs_dir):
            shutil.rmtree(docs_dir)
        stems = Counter(os.path.splitext(d.doc_id)[0] for d in self.docs)
        assert max(stems.values()) == 1, [s for s, n in stems.items() if n > 1]
        facts, documents = [], []
        for d in sorted(self.docs, key=lambda x: x.doc_id):
            p = os.path.join(docs_dir, d.doc_id)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(d.s)
            for f in d.facts:
                src = d.s[f["start"]:f["end"]]
                assert (html.unescape(src) if d.html else src) == f["surface"], f
            facts.extend(d.facts)
            tables = sorted({f["fact_key"].split(".", 1)[0] for f in d.facts})
            documents.append({
                "doc_id": d.doc_id, "kind": d.kind, "format": os.path.splitext(d.doc_id)[1][1:], "title": d.title,
                "chars": len(d.s), "n_statements": len(d.facts), "n_exact": sum(f["exact"] for f in d.facts),
                "n_distinct_facts": len({f["fact_key"] for f in d.facts}), "tables": tables,
                "distractor": d.distractor, "states_no_db_fact": not d.facts})
        exact_keys = {f["fact_key"] for f in facts if f["exact"]} | {s["fact_key"] for s in self.split}
        all_keys = {f["fact_key"] for f in facts}
        truth = {
            "about": f"{ORG} (fictional): documents written from brackwater.sqlite by make_corpus.py; every "
                     "statement recorded as it was written.",
            "database": "brackwater.sqlite",
            "seed": SEED,
            "facts": facts,
            "split_facts": self.split,
            "distractor_doc_ids": sorted(d.doc_id for d in self.docs if d.distractor),
            "no_fact_doc_ids": sorted(d.doc_id for d in self.docs if not d.facts and not d.distractor),
            "omitted": self.omitted(),
            "documents": documents,
            "stats": {
                "documents": len(self.docs),
                "statements": len(facts),
                "distinct_facts": len(all_keys | {s["fact_key"] for s in self.split}),
                "exact_distinct_facts": len(exact_keys),
                "approximate_only_facts": sorted(all_keys - exact_keys),
                "by_format": dict(sorted(Counter(x["format"] for x in documents).items())),
                "by_kind": dict(sorted(Counter(x["kind"] for x in documents).items())),
                "by_how": dict(sorted(Counter(f["how"] for f in facts).items())),
                "by_form": dict(sorted(Counter(f["form"] for f in facts).items())),
                "by_table": dict(sorted(Counter(f["fact_key"].split(".", 1)[0] for f in facts).items())),
            },
        }
        with open(os.path.join(out, "truth.json"), "w", encoding="utf-8", newline="\n") as fh:
            json.dump(truth, fh, ensure_ascii=False, indent=1, sort_keys=True)
            fh.write("\n")
        return truth


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default=os.path.join(HERE, "brackwater.sqlite"))
    ap.add_argument("--out", default=HERE)
    a = ap.parse_args(argv)
    c = Corpus(a.db)
    c.build()
    t = c.write(a.out)
    s = t["stats"]
    print(f"{s['documents']} documents, {s['statements']} statements, {s['distinct_facts']} distinct facts, "
          f"{len(t['split_facts'])} split facts, {sum(len(g['fact_keys']) for g in t['omitted'].values())} omitted")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
