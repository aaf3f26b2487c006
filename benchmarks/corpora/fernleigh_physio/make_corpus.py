#!/usr/bin/env python3
"""Write the Fernleigh Physiotherapy document corpus (docs/) and its recorded truth (truth.json)
from fernleigh.sqlite.

    python3 make_corpus.py [--db fernleigh.sqlite] [--out .]

Every database fact a document states is recorded at the moment it is written (Doc.v), with its
character offsets; nothing is found by searching the text afterwards.  Standard library only,
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
SEED = 3178
FOOTER = "Fernleigh Physiotherapy Ltd, 14 Whiteladies Road, Bristol. Registered in England no. 06712294."


# ------------------------------------------------------------------ values as people write them
def D(s):
    return dt.date.fromisoformat(s)


def date_words(s):
    x = D(s)
    return f"{x.day} {x:%B %Y}"


def date_uk(s):
    return f"{D(s):%d/%m/%Y}"


def date_dots(s):
    return f"{D(s):%d.%m.%Y}"


def date_abbrev(s):
    x = D(s)
    return f"{x.day} {x:%b %Y}"


def date_us_words(s):
    x = D(s)
    return f"{x:%B} {x.day}, {x.year}"


def month_year(s):
    return f"{D(s):%B %Y}"


def gbp(v, short=False):
    v = float(v)
    if short and v == int(v):
        return f"£{int(v)}"
    return f"£{v:,.2f}"


def plain(v):
    return f"{float(v):.2f}"


def short_clinic(name):
    return name.replace("Fernleigh Physio ", "")


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


class Corpus:
    def __init__(self, db):
        self.con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        self.con.row_factory = sqlite3.Row
        self.rnd = random.Random(SEED)
        self.docs = []
        self.split = []
        self.omitted = {}
        q = self.q
        self.clinics = {r["clinic_id"]: r for r in q("SELECT * FROM clinics ORDER BY clinic_id")}
        self.th = {r["therapist_id"]: r for r in q("SELECT * FROM therapists ORDER BY therapist_id")}
        self.tr = {r["treatment_id"]: r for r in q("SELECT * FROM treatments ORDER BY treatment_id")}
        self.pa = {r["patient_id"]: r for r in q("SELECT * FROM patients ORDER BY patient_id")}
        self.ep = {r["episode_id"]: r for r in q("SELECT * FROM episodes ORDER BY episode_id")}
        self.se = defaultdict(list)
        for r in q("SELECT * FROM sessions ORDER BY episode_id, session_no"):
            self.se[r["episode_id"]].append(r)
        self.tt = q("SELECT * FROM therapist_treatments ORDER BY treatment_id, therapist_id")
        pids = sorted(self.pa)
        self.hidden_patients = set(self.rnd.sample(pids, 18)) - {17, 58, 59}

    def q(self, sql, *a):
        return self.con.execute(sql, a).fetchall()

    def doc(self, *a, **k):
        d = Doc(*a, **k)
        self.docs.append(d)
        return d

    def name(self, t):
        return f"{t['first_name']} {t['last_name']}"

    def omit(self, group, rule, keys):
        g = self.omitted.setdefault(group, {"rule": rule, "fact_keys": []})
        g["fact_keys"].extend(keys)

    # -------------------------------------------------------------- clinics
    def clinic_pages(self):
        staff = defaultdict(list)
        for t in self.th.values():
            staff[t["clinic_id"]].append(t)
        for cid, c in self.clinics.items():
            d = self.doc(f"clinics/{c['code'].lower()}.md", "clinic-page", c["name"])
            k = lambda col: f"clinics.{col}@{cid}"  # noqa: E731
            d.add(f"# {c['name']}\n\n")
            if cid % 2:
                d.add("Find us at ").v(c["postcode"], k("postcode"), "heading-subject")
                d.add(", ").v(c["town"], k("town"), "heading-subject").add(". ")
                d.add("The clinic opened its doors on ").v(date_words(c["opened_on"]), k("opened_on"), "heading-subject", "date-words")
                if c["hub_clinic_id"]:
                    hub = self.clinics[c["hub_clinic_id"]]
                    d.add(" and is a satellite of our ").v(short_clinic(hub["name"]), k("hub_clinic_id"), "heading-subject", "name-short")
                    d.add(" hub, which handles its bookings and its out-of-hours cover.")
                else:
                    d.add(" and is one of our three hub clinics; satellite clinics book their complex cases through it.")
                if c["has_hydro_pool"]:
                    d.add(" Patients here have use of our ").v("hydrotherapy pool", k("has_hydro_pool"), "heading-subject", "boolean-word").add(".")
                d.add("\n\n")
                if c["phone"]:
                    d.add("Reception is open 8am to 7pm on weekdays: call ").v(c["phone"], k("phone"), "heading-subject").add(".\n\n")
                d.add("## The team\n\n")
                for t in staff[cid]:
                    d.add("- ").v(self.name(t), f"therapists.clinic_id@{t['therapist_id']}", "table-under-heading", "name")
                    d.add(", ").v(t["grade"], f"therapists.grade@{t['therapist_id']}", "card").add("\n")
            else:
                d.add("| | |\n|---|---|\n")
                d.add("| Address | ").v(c["town"], k("town"), "table").add(" ").v(c["postcode"], k("postcode"), "table").add(" |\n")
                d.add("| Telephone | ")
                if c["phone"]:
                    d.v(c["phone"], k("phone"), "table")
                else:
                    d.v("calls go through the hub", k("phone"), "table", "null-stated")
                d.add(" |\n| Open since | ").v(month_year(c["opened_on"]), k("opened_on"), "table", "approx-date", exact=False).add(" |\n")
                hub = self.clinics.get(c["hub_clinic_id"])
                d.add("| Hub | ")
                if hub:
                    d.v(hub["code"], k("hub_clinic_id"), "table", "code")
                else:
                    d.add("this is a hub")
                d.add(" |\n| Pool | ").v("yes" if c["has_hydro_pool"] else "no", k("has_hydro_pool"), "table", "boolean-word").add(" |\n\n")
                d.add("Staff based here: ")
                for i, t in enumerate(staff[cid]):
                    if i:
                        d.add(", ")
                    d.v(self.name(t), f"therapists.clinic_id@{t['therapist_id']}", "heading-subject", "name")
                d.add(".\n")
            d.add(f"\n---\n{FOOTER}\n")

    # -------------------------------------------------------------- staff
    def directory(self):
        d = self.doc("staff/directory.html", "staff-directory", "Clinical staff directory")
        d.add("<html><head><title>Clinical staff directory</title></head><body>\n<h1>Clinical staff directory</h1>\n")
        d.add("<p>Internal use only. Updated by HR; tell Sam in the office about changes.</p>\n<table>\n")
        d.add("<tr><th>Name</th><th>Grade</th><th>Base</th><th>Email</th><th>Start date</th></tr>\n")
        for tid, t in sorted(self.th.items(), key=lambda kv: (kv[1]["last_name"], kv[1]["first_name"])):
            d.add("<tr><td>").v(f"{t['last_name']}, {t['first_name']}").add("</td><td>")
            d.v(t["grade"], f"therapists.grade@{tid}", "html-table").add("</td><td>")
            d.v(self.clinics[t["clinic_id"]]["code"], f"therapists.clinic_id@{tid}", "html-table", "code").add("</td><td>")
            d.v(t["email"], f"therapists.email@{tid}", "html-table").add("</td><td>")
            d.v(date_uk(t["started_on"]), f"therapists.started_on@{tid}", "html-table", "date-uk").add("</td></tr>\n")
        d.add("</table>\n</body></html>\n")

    def bios(self):
        pick = [t for t in self.th.values() if t["therapist_id"] in (1, 2, 3, 5, 7, 9, 12, 15, 21, 26)]
        certs = defaultdict(list)
        for r in self.tt:
            certs[r["therapist_id"]].append(r["treatment_id"])
        for t in pick:
            tid = t["therapist_id"]
            she = "She" if t["first_name"] in FEMALE else "He"
            her = "Her" if she == "She" else "His"
            d = self.doc(f"staff/bios/{t['first_name'].lower()}-{t['last_name'].lower()}.md", "bio", self.name(t))
            d.add(f"# {self.name(t)}\n\n")
            d.v(t["grade"], f"therapists.grade@{tid}", "heading-subject").add(" physiotherapist · HCPC ")
            d.v(t["hcpc_number"], f"therapists.hcpc_number@{tid}", "heading-subject", "code").add("\n\n")
            d.add(f"{t['first_name']} qualified from the University of the West of England and joined Fernleigh in ")
            d.v(month_year(t["started_on"]), f"therapists.started_on@{tid}", "prose", "approx-date", exact=False)
            d.add(f". {she} works at our ").v(short_clinic(self.clinics[t["clinic_id"]]["name"]), f"therapists.clinic_id@{tid}", "pronoun", "name-short")
            d.add(" clinic")
            if t["supervisor_id"]:
                s = self.th[t["supervisor_id"]]
                d.add(" and is supervised by ").v(self.name(s), f"therapists.supervisor_id@{tid}", "pronoun", "name")
            else:
                d.add(" and leads the clinical team across the whole network")
            d.add(".\n\n")
            extra = [x for x in certs[tid] if x not in (1, 2)]
            if extra:
                d.add(f"{her} special interests include ")
                for i, x in enumerate(extra):
                    if i:
                        d.add(", " if i < len(extra) - 1 else " and ")
                    d.v(self.tr[x]["name"].lower(), f"therapist_treatments.treatment_id@{tid}|{x}", "pronoun", "lowercase")
                d.add(". ")
            d.add(f"Outside work {t['first_name']} " + self.rnd.choice(
                ["plays netball for a Bristol league side.", "coaches an under-12s rugby team.",
                 "is training for the Bath Half.", "swims in the Clevedon Marine Lake all year round.",
                 "keeps an allotment in Easton."]) + "\n")

    def tree(self):
        d = self.doc("staff/supervision-tree.txt", "org-chart", "Clinical supervision structure")
        d.add("FERNLEIGH PHYSIOTHERAPY - CLINICAL SUPERVISION (who supervises whom)\n")
        d.add("Indentation shows the supervisor. Updated each April.\n\n")
        kids = defaultdict(list)
        for t in self.th.values():
            kids[t["supervisor_id"]].append(t)

        def walk(t, depth):
            tid = t["therapist_id"]
            d.add("    " * depth + ("+-- " if depth else ""))
            key = [f"therapists.supervisor_id@{tid}"] if t["supervisor_id"] else []
            d.v(f"{t['last_name'].upper()}, {t['first_name']}", key, "tree", "name-reordered")
            d.add(" (").v(self.clinics[t["clinic_id"]]["code"], f"therapists.clinic_id@{tid}", "tree", "code").add(")\n")
            for k in sorted(kids[tid], key=lambda x: x["last_name"]):
                walk(k, depth + 1)

        for top in kids[None]:
            walk(top, 0)

    def split_hcpc(self):
        ids = [3, 4, 6, 8, 10, 11, 13, 14, 16, 18, 19, 22]
        pay = {tid: f"P{4100 + tid * 13}" for tid in ids}
        a = self.doc("staff/payroll-numbers.txt", "payroll-list", "Payroll numbers")
        b = self.doc("staff/hcpc-audit-2024.md", "registration-audit", "HCPC registration audit 2024")
        a.add("PAYROLL NUMBERS - CLINICAL STAFF (from Sage, March 2024)\n\n")
        b.add("# HCPC registration audit, 2024\n\nChecked against the HCPC online register by the office. "
              "Staff are listed by payroll number only.\n\n| Payroll no. | HCPC registration | Checked |\n|---|---|---|\n")
        for tid in ids:
            t = self.th[tid]
            sid = f"hcpc-{tid}"
            key = f"therapists.hcpc_number@{tid}"
            a.add(f"{pay[tid]}  ").v(f"{t['first_name']} {t['last_name']}", key, "split", "name", split_id=sid).add("\n")
            b.add(f"| {pay[tid]} | ").v(t["hcpc_number"], key, "split", "code", split_id=sid).add(" | yes |\n")
            self.split.append({"fact_key": key, "split_id": sid, "doc_ids": [a.path, b.path],
                               "note": "the audit gives the registration by payroll number; the payroll list names the therapist"})
        b.add("\nAll registrations were current on the day of the check.\n")

    def pay_rates(self):
        d = self.doc("staff/pay-rates-2024.md", "pay-table", "Hourly rates 2024/25")
        d.add("# Hourly rates from 1 April 2024\n\nBank and sessional rates are agreed separately.\n\n")
        d.add("| Therapist | Band | Rate per hour |\n|---|---|--:|\n")
        for tid, t in sorted(self.th.items(), key=lambda kv: kv[1]["last_name"]):
            if t["grade"] == "Band 8a":
                self.omit("director_rate", "the clinical director's hourly rate is not in the pay table", [f"therapists.hourly_rate@{tid}"])
                continue
            d.add("| ").v(f"{t['last_name']}, {t['first_name'][0]}.").add(" | ")
            d.v(t["grade"].replace("Band ", ""), f"therapists.grade@{tid}", "table", "number-only").add(" | ")
            d.v(gbp(t["hourly_rate"]), f"therapists.hourly_rate@{tid}", "table", "gbp-sym").add(" |\n")

    def competencies(self):
        d = self.doc("staff/competencies.txt", "competency-register", "Competency register")
        d.add("COMPETENCY REGISTER  (all clinicians are signed off for assessment and follow-up;\n")
        d.add("only the additional competencies are listed)\n")
        by = defaultdict(list)
        for r in self.tt:
            by[r["treatment_id"]].append(r)
        for trid in sorted(by):
            if trid in (1, 2):
                continue
            tr = self.tr[trid]
            d.add(f"\n{tr['code']}  {tr['name'].upper()}\n")
            for r in by[trid]:
                t = self.th[r["therapist_id"]]
                row = f"{t['therapist_id']}|{trid}"
                nm = f"{t['last_name']} {t['first_name'][0]}."
                d.add("    ").v(nm, f"therapist_treatments.treatment_id@{row}", "table-under-heading", "name-initial")
                d.add(" " * (18 - len(nm)) + "signed off ")
                if r["certified_on"]:
                    d.v(date_uk(r["certified_on"]), f"therapist_treatments.certified_on@{row}", "table", "date-uk")
                else:
                    d.v("(date not recorded)", f"therapist_treatments.certified_on@{row}", "table", "null-stated")
                d.add("\n")

    # -------------------------------------------------------------- treatments
    def leaflets(self):
        for trid, tr in self.tr.items():
            if tr["code"] in ("T13", "T05"):
                continue
            k = lambda col: f"treatments.{col}@{trid}"  # noqa: E731
            slug = tr["name"].lower().replace(" ", "-").replace("(", "").replace(")", "")
            d = self.doc(f"treatments/{slug}.md", "leaflet", tr["name"])
            d.add(f"# {tr['name']}\n\n")
            d.v(tr["description"], k("description"), "heading-subject").add("\n\n")
            d.add("**How long:** ").v(f"{tr['duration_min']} minutes", k("duration_min"), "card", "number-unit").add("  \n")
            d.add("**Cost:** ")
            if tr["fee"] is None:
                d.v("price on request", k("fee"), "card", "null-stated")
            elif tr["category"] == "aquatic":
                d.add("see reception")
                self.omit("aquatic_fees", "the fee of the aquatic class is given nowhere", [k("fee")])
            else:
                d.v(gbp(tr["fee"], short=True), k("fee"), "card", "gbp-sym")
            d.add("  \n**Booking:** ")
            d.v("book online or by phone" if tr["bookable_online"] else "by phone only", k("bookable_online"), "card", "boolean-word")
            d.add("\n\nMost insurers cover this treatment; check your policy before your first visit.\n")

    def price_list(self):
        d = self.doc("treatments/price-list.html", "price-list", "Price list")
        d.add("<html><head><title>Prices</title></head><body>\n<h1>Our prices</h1>\n<table>\n")
        d.add("<tr><th>Ref</th><th>Treatment</th><th>Length</th><th>Price (£)</th></tr>\n")
        for trid, tr in self.tr.items():
            if tr["category"] == "aquatic":
                continue
            d.add("<tr><td>").v(tr["code"], f"treatments.code@{trid}", "html-table").add("</td><td>").v(tr["name"]).add("</td><td>")
            d.v(f"{tr['duration_min']} min", f"treatments.duration_min@{trid}", "html-table", "number-unit").add("</td><td>")
            d.v(plain(tr["fee"]), f"treatments.fee@{trid}", "html-table", "plain-number").add("</td></tr>\n")
        d.add("</table>\n<p>Hydrotherapy prices: ask at a hub clinic.</p>\n</body></html>\n")

    # -------------------------------------------------------------- patients
    def visible_episodes(self):
        return [e for e in self.ep.values() if e["patient_id"] not in self.hidden_patients]

    def patient_cards(self):
        seen = []
        for e in self.visible_episodes():
            if e["patient_id"] not in seen:
                seen.append(e["patient_id"])
        chosen = sorted(self.rnd.sample(seen, 14))
        for n, pid in enumerate(chosen):
            p = self.pa[pid]
            k = lambda col: f"patients.{col}@{pid}"  # noqa: E731
            d = self.doc(f"patients/{p['mrn'].lower()}.txt", "patient-card", f"Registration {p['mrn']}")
            d.add("FERNLEIGH PHYSIOTHERAPY  -  PATIENT REGISTRATION (export)\n")
            d.add("MRN..........: ").v(p["mrn"], k("mrn"), "kv-text", "code").add("\n")
            d.add("Surname......: ").v(p["last_name"].upper()).add("\n")
            d.add("Forename.....: ").v(p["first_name"]).add("\n")
            d.add("DOB..........: ").v(date_uk(p["birth_date"]), k("birth_date"), "kv-text", "date-uk").add("\n")
            d.add("Town.........: ").v(p["town"].upper(), k("town"), "kv-text", "uppercase").add("\n")
            if n % 5 == 4:
                self.omit("patient_insurers", "the insurer line is missing from some registration exports", [k("insurer")])
            else:
                d.add("Funding......: ")
                if p["insurer"]:
                    d.v(p["insurer"], k("insurer"), "kv-text")
                else:
                    d.v("Self-pay", k("insurer"), "kv-text", "null-stated")
                d.add("\n")
            d.add("Registered...: ").v(p["registered_on"], k("registered_on"), "kv-text", "iso").add("\n")
            d.add("Consent......: Y\n")

    def letters(self):
        eps = [e for e in self.visible_episodes() if e["discharged_on"]]
        eps = sorted(self.rnd.sample(eps, 20), key=lambda e: e["episode_id"])
        for e in eps:
            eid = e["episode_id"]
            p, t, c = self.pa[e["patient_id"]], self.th[e["therapist_id"]], self.clinics[e["clinic_id"]]
            k = lambda col: f"episodes.{col}@{eid}"  # noqa: E731
            d = self.doc(f"letters/discharge-{e['ref'].lower()}.txt", "discharge-letter", f"Discharge {e['ref']}")
            d.add(f"{c['name']}\n{c['postcode']}\n\n{date_words(e['discharged_on'])}\n\nDear Doctor,\n\n")
            d.add("Re: ").v(f"{p['first_name']} {p['last_name']}", k("patient_id"), "prose", "name")
            d.add("   DOB ").v(date_dots(p["birth_date"]), f"patients.birth_date@{p['patient_id']}", "prose", "date-dots")
            d.add("   Our ref ").v(p["mrn"], f"patients.mrn@{p['patient_id']}", "prose", "code").add("\n\n")
            src = e["referral_source"]
            d.add("Thank you for ")
            if src == "GP":
                d.add("your referral (source: ").v("GP", k("referral_source"), "prose")
                d.add(") of ")
            elif src == "self":
                d.add("being kept informed about this patient, who ").v("self-referred", k("referral_source"), "prose", "paraphrase").add(" on ")
            elif src == "insurer":
                d.add("your interest in this patient, who was referred via their ").v("insurer", k("referral_source"), "prose").add(" on ")
            else:
                d.add("your interest in this patient, referred by their ").v("consultant", k("referral_source"), "prose").add(" on ")
            d.v(date_words(e["referred_on"]), k("referred_on"), "prose", "date-words")
            d.add(" with ").v(e["condition"], k("condition"), "prose").add(". They were seen at our ")
            d.v(short_clinic(c["name"]), k("clinic_id"), "prose", "name-short")
            d.add(f" clinic over {len(self.se[eid])} appointment(s) and were discharged on ")
            d.v(date_words(e["discharged_on"]), k("discharged_on"), "prose", "date-words")
            d.add(". Outcome: ").v(e["outcome"], k("outcome"), "prose").add(".\n\n")
            d.add("A home exercise programme has been given. Please re-refer if symptoms recur.\n\nYours sincerely,\n\n")
            tid = t["therapist_id"]
            d.v(self.name(t), k("therapist_id"), "prose", "name").add("\n")
            d.v(t["grade"], f"therapists.grade@{tid}", "prose").add(" Physiotherapist\n")
            d.v(t["email"], f"therapists.email@{tid}", "prose").add("\n")

    def invoices(self):
        eps = [e for e in self.visible_episodes() if len(self.se[e["episode_id"]]) >= 2]
        eps = sorted(self.rnd.sample(eps, 10), key=lambda e: e["episode_id"])
        for e in eps:
            eid = e["episode_id"]
            p = self.pa[e["patient_id"]]
            d = self.doc(f"invoices/inv-{e['ref'].lower()}.html", "invoice", f"Invoice {e['ref']}")
            d.add(f"<html><head><title>Invoice {e['ref']}</title></head><body>\n<h2>Invoice for episode {e['ref']}</h2>\n<p>Patient: ")
            d.v(f"{p['first_name']} {p['last_name']}", f"episodes.patient_id@{eid}", "prose", "name").add("<br>\nInsurer: ")
            if f"patients.insurer@{p['patient_id']}" in self.omitted.get("patient_insurers", {}).get("fact_keys", ()):
                d.add("(see registration)")
            elif p["insurer"]:
                d.v(p["insurer"], f"patients.insurer@{p['patient_id']}", "prose")
            else:
                d.v("none - self-funding", f"patients.insurer@{p['patient_id']}", "prose", "null-stated")
            d.add("<br>\nClinician: ").v(self.name(self.th[e["therapist_id"]]), f"episodes.therapist_id@{eid}", "prose", "name")
            d.add("</p>\n<table border=\"1\">\n<tr><th>#</th><th>Date</th><th>Item</th><th>Amount</th></tr>\n")
            total = 0.0
            for s in self.se[eid]:
                row = f"{eid}|{s['session_no']}"
                d.add("<tr><td>").v(s["session_no"], f"sessions.session_no@{row}", "html-table", "plain-number").add("</td><td>")
                d.v(date_abbrev(s["session_date"]), f"sessions.session_date@{row}", "html-table", "date-abbrev").add("</td><td>")
                d.v(self.tr[s["treatment_id"]]["name"], f"sessions.treatment_id@{row}", "html-table", "name")
                if not s["attended"]:
                    d.add(" (").v("did not attend", f"sessions.attended@{row}", "html-table", "boolean-word").add(")")
                d.add("</td><td>").v(gbp(s["fee_charged"]), f"sessions.fee_charged@{row}", "html-table", "gbp-sym").add("</td></tr>\n")
                total += float(s["fee_charged"])
            d.add(f"<tr><td colspan=\"3\">Total due</td><td>{gbp(total)}</td></tr>\n</table>\n")
            d.add("<p>Payment within 14 days please. Bank: Fernleigh Physiotherapy Ltd, sort code 30-94-57.</p>\n</body></html>\n")

    def reports(self):
        vis = self.visible_episodes()
        for code, ym in (("CLF", "2024-03"), ("CLF", "2024-06"), ("BWC", "2024-02"), ("BWC", "2024-05"),
                         ("WSM", "2024-04"), ("RED", "2024-01")):
            cid = next(c for c, r in self.clinics.items() if r["code"] == code)
            cname = short_clinic(self.clinics[cid]["name"])
            rows = [e for e in vis if e["clinic_id"] == cid and e["referred_on"].startswith(ym)]
            d = self.doc(f"reports/{code.lower()}-referrals-{ym}.md", "monthly-report", f"{cname} referrals {ym}")
            d.add(f"# {cname}: new referrals, {month_year(ym + '-01')}\n\n")
            d.add(f"{len(rows)} new episodes opened this month. Waiting time to first appointment stayed under two weeks.\n\n")
            d.add("| Episode | Patient | Clinician | Presenting problem | Referred | Source |\n|---|---|---|---|---|---|\n")
            for e in rows:
                eid = e["episode_id"]
                k = lambda col: f"episodes.{col}@{eid}"  # noqa: E731
                d.add("| ").v(e["ref"], k("clinic_id"), "table-under-heading", "code").add(" | ")
                d.v(self.pa[e["patient_id"]]["last_name"], k("patient_id"), "table", "surname-only").add(" | ")
                d.v(self.th[e["therapist_id"]]["last_name"], k("therapist_id"), "table", "surname-only").add(" | ")
                d.v(e["condition"], k("condition"), "table").add(" | ")
                d.v(date_uk(e["referred_on"]), k("referred_on"), "table", "date-uk").add(" | ")
                d.v(e["referral_source"], k("referral_source"), "table").add(" |\n")
            d.add("\nNo clinical incidents were reported.\n")

    # -------------------------------------------------------------- mail, minutes, policies, distractors
    def mail(self):
        c3 = self.clinics[3]
        t3 = self.th[3]
        d = self.doc("mail/re-pool-maintenance.txt", "email", "Re: pool maintenance")
        d.add("From: ").v(t3["email"], "therapists.email@3", "prose").add("\nTo: all-staff@fernleighphysio.co.uk\n")
        d.add("Subject: Re: pool maintenance next week\n\nHi all,\n\nThe pool at Widcombe will be drained Monday to Wednesday, so "
              "hydro patients are moving to land-based sessions for those days.\n\nThanks,\n")
        d.v(self.name(t3)).add("\n").v(t3["grade"], "therapists.grade@3", "prose").add(" Clinical Lead\n")
        d.v(c3["name"]).add(" | ").v(c3["phone"], "clinics.phone@3", "prose").add("\n")

        fu = self.tr[2]
        d = self.doc("mail/fees-from-april.txt", "email", "Fees from April")
        d.add("From: office@fernleighphysio.co.uk\nSubject: fees from April\n\nA reminder that a standard follow-up now costs ")
        d.v(f"about £{round(float(fu['fee']))}", "treatments.fee@2", "prose", "approx-money", exact=False)
        d.add(" and the initial assessment a little more. Reception have the full list.\n")

        new = max(self.th.values(), key=lambda t: t["started_on"])
        d = self.doc("mail/welcome-new-starter.txt", "email", "Welcome")
        d.add("Subject: welcome!\n\nPlease join me in welcoming ").v(self.name(new)).add(", who joined the ")
        d.v(short_clinic(self.clinics[new["clinic_id"]]["name"]), f"therapists.clinic_id@{new['therapist_id']}", "prose", "name-short")
        d.add(" team in ").v(f"early {month_year(new['started_on'])}", f"therapists.started_on@{new['therapist_id']}", "prose", "approx-date", exact=False)
        d.add(". Cake in the staff room on Friday.\n\nEleanor\n")

        dna = next(s for e in self.visible_episodes() for s in self.se[e["episode_id"]] if not s["attended"])
        e = self.ep[dna["episode_id"]]
        row = f"{dna['episode_id']}|{dna['session_no']}"
        d = self.doc("mail/dna-follow-up.txt", "email", "DNA follow-up")
        d.add(f"Subject: {e['ref']} - missed appointment\n\nHi, the patient on episode {e['ref']} ")
        d.v("did not attend", f"sessions.attended@{row}", "prose", "boolean-word").add(" their appointment on ")
        x = D(dna["session_date"])
        d.v(f"{x:%A} the {x.day}{'th' if 10 < x.day % 100 < 14 else {1: 'st', 2: 'nd', 3: 'rd'}.get(x.day % 10, 'th')}",
            f"sessions.session_date@{row}", "prose", "date-no-year", exact=False)
        d.add(". The late-cancellation charge has been added. Can someone ring them to rebook?\n")

        gp = self.th[6]
        d = self.doc("mail/gp-liaison.txt", "email", "GP liaison")
        d.add(f"Subject: GP liaison meeting\n\nDr {gp['first_name']} {gp['last_name']} from Cotham Hill Surgery (no relation to our own "
              f"{gp['first_name']}!) has asked to meet the Clifton team about MSK referral criteria. Any Thursday in the autumn works.\n")

    def minutes(self):
        for i, (date, who) in enumerate((("2024-02-07", (1, 2, 5, 9, 12)), ("2024-05-08", (1, 3, 7, 15, 21)))):
            d = self.doc(f"minutes/clinical-governance-{date}.md", "minutes", f"Clinical governance {date}")
            d.add(f"# Clinical governance meeting, {date_words(date)}\n\nPresent: ")
            d.add(", ".join(self.name(self.th[t]) for t in who))
            d.add(".\n\n1. Audit of outcome measures: completion of PSFS at discharge is at 81 %.\n"
                  "2. Two complaints about waiting times, both resolved.\n3. Next meeting in three months.\n")
            if i == 1:
                t = self.th[who[3]]
                d.add(f"\nActions: {self.name(t)} (").v(self.clinics[t["clinic_id"]]["code"], f"therapists.clinic_id@{t['therapist_id']}", "prose", "code")
                d.add(") to circulate the new shoulder pathway.\n")

    def policies(self):
        for slug, title, body in (
            ("infection-control", "Infection control", "Hands are washed before and after every patient. Couch roll is changed between patients."),
            ("chaperone-policy", "Chaperone policy", "Any patient may ask for a chaperone. Pelvic health appointments are always offered one."),
            ("cancellation-policy", "Cancellation policy", "Please give 24 hours' notice. Late cancellations and missed appointments are charged."),
            ("data-protection", "Data protection", "Clinical records are kept for eight years after the last appointment, or until age 25 for children."),
            ("lone-working", "Lone working", "Staff on late shifts text the duty lead when they lock up."),
        ):
            d = self.doc(f"policies/{slug}.md", "policy", title)
            d.add(f"# {title}\n\n{body}\n\nReviewed annually by the clinical director.\n")

    def distractors(self):
        d = self.doc("misc/fernleigh-pilates-studio.md", "distractor", "Fernleigh Pilates Studio", distractor=True)
        d.add("# Fernleigh Pilates Studio\n\nNot part of Fernleigh Physiotherapy: an independent studio in Clifton, BS8 2PJ, "
              "tel. 0117 946 2201. Reformer classes from £14. Patients sometimes confuse the two.\n")
        d = self.doc("misc/cv-aoife-byrne.md", "distractor", "CV Aoife Byrne", distractor=True)
        d.add("# Aoife Byrne MCSP\n\nApplicant for the Band 6 post, Redland. Born 2 May 1991, Galway. "
              "HCPC PH071188. Currently Band 5 at University Hospital Galway; interests: shockwave therapy, acupuncture.\n")
        d = self.doc("misc/avon-sports-clinic-prices.html", "distractor", "Avon Sports Clinic prices", distractor=True)
        d.add("<html><body><h1>Avon Sports Clinic - price list</h1><table>\n<tr><th>Treatment</th><th>Price</th></tr>\n"
              "<tr><td>Initial Assessment</td><td>£70.00</td></tr>\n<tr><td>Shockwave Therapy</td><td>£80.00</td></tr>\n"
              "<tr><td>Sports Massage (60 min)</td><td>£60.00</td></tr>\n<tr><td>Acupuncture</td><td>£50.00</td></tr>\n"
              "</table><p>Competitor pricing collected for the 2024 fee review.</p></body></html>\n")
        d = self.doc("misc/weston-physio-centre.md", "distractor", "Weston Physio Centre", distractor=True)
        d.add("# Weston Physio Centre\n\nA rival practice on the Boulevard, Weston-super-Mare BS23 1NZ, opened 14 May 2012, "
              "phone 01934 612 940. It has no pool.\n")
        t = self.th[2]
        d = self.doc("misc/hcpc-register-extract.txt", "distractor", "HCPC register search", distractor=True)
        d.add(f"HCPC register search, name '{t['last_name']}':\n\n  {t['first_name'].upper()} {t['last_name'].upper()}   "
              f"PH{int(t['hcpc_number'][2:]) + 1:06d}   Leeds   Physiotherapist   Registered\n"
              f"  {t['first_name'].upper()}A {t['last_name'].upper()}  PH031772   York    Physiotherapist   Lapsed\n")

    # -------------------------------------------------------------- output
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
        for g in self.omitted.values():
            g["fact_keys"] = sorted(set(g["fact_keys"]))
        hp = sorted(self.hidden_patients)
        keys = []
        for pid in hp:
            keys += [f"patients.{c}@{pid}" for c in ("mrn", "birth_date", "town", "insurer", "registered_on")]
            for e in self.ep.values():
                if e["patient_id"] == pid:
                    eid = e["episode_id"]
                    keys += [f"episodes.{c}@{eid}" for c in ("patient_id", "therapist_id", "clinic_id", "referral_source",
                                                               "referred_on", "discharged_on", "condition", "outcome")]
                    keys += [f"sessions.{c}@{eid}|{s['session_no']}" for s in self.se[eid]
                             for c in ("session_date", "treatment_id", "fee_charged", "attended")]
        self.omitted["patients_entirely"] = {
            "rule": f"{len(hp)} patients (15 %, seeded): no card, letter, invoice or report row, nor any of their episodes",
            "patient_ids": hp, "fact_keys": sorted(keys)}
        stated = {f["fact_key"] for f in facts}
        for g in self.omitted.values():
            assert not stated & set(g["fact_keys"]), (stated & set(g["fact_keys"]))
        exact_keys = {f["fact_key"] for f in facts if f["exact"]} | {s["fact_key"] for s in self.split}
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
            "database": "fernleigh.sqlite", "facts": facts, "split_facts": self.split,
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


FEMALE = {"Aoife", "Hannah", "Priya", "Sophie", "Grace", "Megan", "Chloe", "Nadia", "Ruth", "Eleanor",
          "Zara", "Imogen", "Laura", "Beth", "Kirsty", "Anna", "Olivia", "Fatima", "Jess", "Rosa"}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default=os.path.join(HERE, "fernleigh.sqlite"))
    ap.add_argument("--out", default=HERE)
    a = ap.parse_args(argv)
    c = Corpus(a.db)
    c.clinic_pages()
    c.directory()
    c.bios()
    c.tree()
    c.split_hcpc()
    c.pay_rates()
    c.competencies()
    c.leaflets()
    c.price_list()
    c.patient_cards()
    c.letters()
    c.invoices()
    c.reports()
    c.mail()
    c.minutes()
    c.policies()
    c.distractors()
    stats = c.write(a.out)
    print({k: v for k, v in stats.items() if not k.startswith("by_")})


if __name__ == "__main__":
    main()
