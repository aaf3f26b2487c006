#!/usr/bin/env python3
"""Write the Brenning Hale Consulting Engineers document corpus (docs/) and its recorded truth
(truth.json) from brenning.sqlite.

    python3 make_corpus.py [--db brenning.sqlite] [--out .]

Every database fact a document states is recorded at the moment it is written (Doc.v), with its
character offsets (None for the PDFs); nothing is found by searching the text afterwards.  Standard
library only, seeded, deterministic.  Written blind to ragdx: nothing of ragdx's code was read and
ragdx was never run on these documents.
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
SEED = 2311
FIRM = "Brenning Hale Consulting Engineers"
TODAY = dt.date(2025, 11, 14)

# clients left out of every document (with their contacts, projects, invoices and visits)
OMITTED_CLIENTS = (10, 14)
# GLO projects whose team is given only by payroll number (split facts)
SPLIT_PROJECTS = ("BH-24016", "BH-25010")
# how the firm shortens client names in registers, minutes and e-mails
CLIENT_SHORT = {1: "NSC", 2: "Clevedon HA", 3: "Severnside", 4: "Taw Valley", 5: "Bay Leisure", 6: "EET",
                7: "Glos Diocese", 8: "Ridgeway", 9: "Mendip Water", 10: "St Petroc's", 11: "Harbourside Hotels",
                12: "VoG Council", 13: "Kingsmead", 14: "Porthleven Hldgs"}


# ------------------------------------------------------------------ values as the firm writes them
def D(s):
    return dt.date.fromisoformat(s)


def ordinal(n):
    return f"{n}{'th' if 10 < n % 100 < 14 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


DATE_FORMS = {
    "date-words": lambda x: f"{x.day} {x:%B %Y}",  # 3 March 2025
    "date-uk": lambda x: f"{x:%d/%m/%Y}",  # 03/03/2025
    "iso": lambda x: x.isoformat(),  # 2025-03-03
    "date-dow-abbrev": lambda x: f"{x:%a} {x.day} {x:%b %Y}",  # Mon 3 Mar 2025
    "date-ordinal": lambda x: f"{ordinal(x.day)} {x:%B %Y}",  # 3rd March 2025
    "date-dots": lambda x: f"{x:%d.%m.%Y}",  # 03.03.2025
}


def date(s, form):
    return DATE_FORMS[form](D(s))


def month_year(s):  # Mar-25 (approximate: the month only)
    return f"{D(s):%b-%y}"


def gbp(v):  # £12,450.00
    return f"£{v:,.2f}"


def gbp_k(v):  # £12.45k (only where exact)
    k = v / 1000
    assert round(k, 2) * 1000 == v, v
    return f"£{k:.2f}".rstrip("0").rstrip(".") + "k"


def k_ok(v):
    return round(v / 1000, 2) * 1000 == v


def gbp_suffix(v):  # 12 450.00 GBP
    return f"{v:,.2f}".replace(",", " ") + " GBP"


def approx_money(v):  # about £45k
    return f"about £{round(v / 1000)}k"


def initials_table(staff):
    """Meeting-minute initials: first initial + surname initial; where two staff share them, more
    letters of the first name until they differ (AnP / ArP, RaH / RoH, SiL / SaL)."""
    out = {sid: p["first_name"][0] + p["last_name"][0] for sid, p in staff.items()}
    k = 1
    while len(set(out.values())) < len(out):
        k += 1
        count = Counter(out.values())
        out = {sid: (staff[sid]["first_name"][:k] + staff[sid]["last_name"][0]) if count[v] > 1 else v
               for sid, v in out.items()}
    return out


def payroll_no(sid):
    return f"P-{sid + 1000:04d}"


class Doc:
    def __init__(self, path, kind, title, distractor=False):
        self.path, self.kind, self.title, self.distractor = path, kind, title, distractor
        self.html = path.endswith(".html")
        self.pdf = path.endswith(".pdf")
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
            f = {"fact_key": k, "doc_id": self.path, "surface": s,
                 "start": None if self.pdf else start, "end": None if self.pdf else start + len(out),
                 "exact": exact, "how": how, "form": form}
            if split_id:
                f["split_id"] = split_id
            self.facts.append(f)
        return self

    def text(self):
        return "".join(self.parts)


def K(table, col, *key):
    return f"{table}.{col}@" + "|".join(str(k) for k in key)


def kps(col, code, sid):  # a project_staff row; its existence is keyed by its last key column
    return K("project_staff", col, code, sid)


def pdf_bytes(text, title):
    """A minimal, valid one-font PDF (Helvetica, WinAnsi) with TEXT's lines, 50 lines a page."""
    lines = text.split("\n")
    pages = [lines[i:i + 50] for i in range(0, len(lines), 50)] or [[]]
    objs = []

    def esc(s):
        return s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    n_pages = len(pages)
    # 1 catalog, 2 pages, 3 font, 4 info, then (page, content) pairs
    kids = " ".join(f"{5 + 2 * i} 0 R" for i in range(n_pages))
    objs.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objs.append(f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode())
    objs.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    objs.append(f"<< /Title ({esc(title)}) /Producer (brenning make_corpus.py) /CreationDate (D:20251114090000Z) >>"
                .encode("cp1252"))
    for i, pg in enumerate(pages):
        body = ["BT", "/F1 10 Tf", "13 TL", "50 790 Td"]
        for ln in pg:
            body.append(f"({esc(ln)}) Tj T*")
        body.append("ET")
        stream = "\n".join(body).encode("cp1252")
        objs.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> "
                    f"/Contents {6 + 2 * i} 0 R >>".encode())
        objs.append(b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offs = []
    for i, o in enumerate(objs, 1):
        offs.append(len(out))
        out += f"{i} 0 obj\n".encode() + o + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    for o in offs:
        out += f"{o:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R /Info 4 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


class Corpus:
    def __init__(self, db):
        self.con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        self.con.row_factory = sqlite3.Row
        self.rnd = random.Random(SEED)
        self.docs, self.split, self.omitted = [], [], {}
        q = self.q
        self.of = {r["office_code"]: r for r in q("SELECT * FROM offices ORDER BY rowid")}
        self.st = {r["staff_id"]: r for r in q("SELECT * FROM staff ORDER BY staff_id")}
        self.cl = {r["client_id"]: r for r in q("SELECT * FROM clients ORDER BY client_id")}
        self.co = {r["contact_id"]: r for r in q("SELECT * FROM contacts ORDER BY contact_id")}
        self.pj = {r["project_code"]: r for r in q("SELECT * FROM projects ORDER BY project_code")}
        self.team = defaultdict(list)
        for r in q("SELECT * FROM project_staff ORDER BY project_code, rowid"):
            self.team[r["project_code"]].append(r)
        self.inv = {r["invoice_no"]: r for r in q("SELECT * FROM invoices ORDER BY invoice_no")}
        self.vis = {r["visit_id"]: r for r in q("SELECT * FROM site_visits ORDER BY visit_id")}
        self.ini = initials_table(self.st)
        self.live = [c for c, p in self.pj.items() if p["client_id"] not in OMITTED_CLIENTS]

    def q(self, sql, *a):
        return self.con.execute(sql, a).fetchall()

    def doc(self, *a, **k):
        d = Doc(*a, **k)
        self.docs.append(d)
        return d

    def omit(self, group, rule, keys):
        g = self.omitted.setdefault(group, {"rule": rule, "fact_keys": []})
        g["fact_keys"].extend(keys)

    # -------------------------------------------------------------- names
    def sname(self, d, sid, keys, how, style):
        """Write a staff member's name in STYLE; titled styles also state staff.title."""
        p = self.st[sid]
        t, fn, ln = p["title"], p["first_name"], p["last_name"]
        s = {"name-title": f"{t} {fn} {ln}", "name": f"{fn} {ln}", "name-reordered": f"{ln}, {fn}",
             "title-initial": f"{t} {fn[0]}. {ln}", "title-surname": f"{t} {ln}", "initials": self.ini[sid]}[style]
        keys = [keys] if isinstance(keys, str) else list(keys)
        if style in ("name-title", "title-initial", "title-surname"):
            keys.append(K("staff", "title", sid))
        d.v(s, keys, how, style)
        return d

    def cname(self, d, cid, keys, how, style="name"):  # a client
        s = self.cl[cid]["name"] if style == "name" else CLIENT_SHORT[cid]
        d.v(s, keys, how, "name" if style == "name" else "client-short")
        return d

    def pcode(self, d, code, keys, how, with_name=True):
        """BH-24002 Riverside Footbridge Repairs: the code beside the name states projects.name."""
        keys = [keys] if isinstance(keys, str) else list(keys)
        d.v(code, keys + ([K("projects", "name", code)] if with_name else []), how, "code")
        if with_name:
            d.add(" ").add(self.esc(d, self.pj[code]["name"]))
        return d

    def esc(self, d, s):
        return html.escape(s, quote=False) if d.html else s

    def money(self, d, v, key, how, form):
        s = {"gbp": gbp, "gbp-k": gbp_k, "gbp-suffix": gbp_suffix, "plain-number": lambda x: f"{x:.2f}"}[form](v)
        d.v(s, key, how, form)
        return d

    # -------------------------------------------------------------- CRM client pages
    def crm(self):
        live = [c for c in self.cl if c not in OMITTED_CLIENTS]
        self.hidden_phones = {2, 9, 19}  # contact phones the CRM pages leave out (omitted)
        for i, cid in enumerate(live):
            c = self.cl[cid]
            contacts = [x for x in self.co.values() if x["client_id"] == cid]
            projects = [p for p in self.pj.values() if p["client_id"] == cid]
            slug = c["name"].lower().replace("'", "").replace(" ", "-").replace("-ltd", "").replace("-plc", "")
            if i % 2 == 0:
                d = self.doc(f"crm/accounts/{slug}.md", "crm-account", c["name"])
                d.add(f"# {c['name']}\n\n_Account record exported from the practice CRM on 14/11/2025._\n\n")
                d.add("**Account owner:** ")
                self.sname(d, c["account_manager_id"], K("clients", "account_manager_id", cid), "card", "name-title")
                d.add("  \n**Sector:** ").v(c["sector"].capitalize(), K("clients", "sector", cid), "card", "capitalised")
                d.add("  \n**Head office:** ").v(c["town"], K("clients", "town", cid), "card")
                d.add("  \n**Terms:** net ").v(str(c["payment_terms_days"]), K("clients", "payment_terms_days", cid),
                                               "card", "plain-number").add(" days\n\n## People\n\n")
                for x in contacts:
                    kid = x["contact_id"]
                    d.add("- **").v(f"{x['first_name']} {x['last_name']}", K("contacts", "client_id", kid),
                                    "heading-subject", "name").add("**, ")
                    d.v(x["role"], K("contacts", "role", kid), "card").add(" · ")
                    d.v(x["email"], K("contacts", "email", kid), "card")
                    if x["phone"] and kid not in self.hidden_phones:
                        d.add(" · ").v(x["phone"], K("contacts", "phone", kid), "card")
                    d.add("\n")
                d.add("\n## Jobs\n\n")
                for p in projects:
                    d.add("- ")
                    self.pcode(d, p["project_code"], K("projects", "client_id", p["project_code"]), "heading-subject")
                    d.add(" (").v(p["status"], K("projects", "status", p["project_code"]), "heading-subject")
                    d.add(")\n")
                d.add("\nLast activity logged by the account owner. Do not export outside the practice.\n")
            else:
                d = self.doc(f"crm/accounts/{slug}.html", "crm-account", c["name"])
                d.add(f"<!DOCTYPE html>\n<html><head><title>CRM: {html.escape(c['name'])}</title></head><body>\n"
                      f"<h1>{html.escape(c['name'])}</h1>\n<dl>\n<dt>Relationship owner</dt><dd>")
                self.sname(d, c["account_manager_id"], K("clients", "account_manager_id", cid), "html-dl", "name-reordered")
                d.add("</dd>\n<dt>Market</dt><dd>").v(c["sector"], K("clients", "sector", cid), "html-dl")
                d.add("</dd>\n<dt>Town</dt><dd>").v(c["town"], K("clients", "town", cid), "html-dl")
                d.add("</dd>\n<dt>Payment terms</dt><dd>")
                d.v(f"{c['payment_terms_days']} days", K("clients", "payment_terms_days", cid), "html-dl", "number-unit")
                d.add(" from invoice</dd>\n</dl>\n<h2>Contacts</h2>\n<table>\n<tr><th>Name</th><th>Position</th>"
                      "<th>E-mail</th><th>Telephone</th></tr>\n")
                for x in contacts:
                    kid = x["contact_id"]
                    d.add("<tr><td>").v(f"{x['last_name']}, {x['first_name']}", K("contacts", "client_id", kid),
                                        "html-table", "name-reordered")
                    d.add("</td><td>").v(x["role"], K("contacts", "role", kid), "html-table")
                    d.add("</td><td>").v(x["email"], K("contacts", "email", kid), "html-table").add("</td><td>")
                    if x["phone"] is None:
                        d.v("no direct line", K("contacts", "phone", kid), "html-table", "null-stated")
                    elif kid not in self.hidden_phones:
                        d.v(x["phone"], K("contacts", "phone", kid), "html-table")
                    d.add("</td></tr>\n")
                d.add("</table>\n<h2>Projects</h2>\n<ul>\n")
                for p in projects:
                    d.add("<li>")
                    self.pcode(d, p["project_code"], K("projects", "client_id", p["project_code"]), "heading-subject")
                    d.add("</li>\n")
                d.add("</ul>\n</body></html>\n")

    # -------------------------------------------------------------- staff bios
    BIO_FIRST = (3, 5, 9, 12, 15, 23, 13, 18)
    BIO_THIRD = (1, 2, 4, 6, 7, 14, 17, 20)

    def bios(self):
        for sid in self.BIO_FIRST:
            p = self.st[sid]
            slug = f"{p['first_name'].lower()}-{p['last_name'].lower()}".replace("â", "a")
            d = self.doc(f"people/bios/{slug}.md", "staff-bio", f"About me: {p['first_name']} {p['last_name']}")
            d.add(f"# {p['first_name']} {p['last_name']}\n\n")
            d.add(f"Hello, I'm {p['first_name']} and I'm ")
            d.add("an " if p["job_title"][0] in "AEIOU" else "a ")
            d.v(p["job_title"], K("staff", "job_title", sid), "heading-subject").add(" in our ")
            d.v(self.of[p["office_code"]]["city"], K("staff", "office_code", sid), "heading-subject", "name")
            d.add(" office. I joined Brenning Hale on ")
            d.v(date(p["start_date"], "date-words"), K("staff", "start_date", sid), "heading-subject", "date-words")
            d.add(", and I'm on ")
            d.v(f"grade {p['grade']}", K("staff", "grade", sid), "heading-subject", "grade-words").add(" of the practice "
                                                                                                       "scale.\n\n")
            if p["chartered"]:
                d.add("Professionally I'm ").v(p["chartered"], K("staff", "chartered", sid), "heading-subject")
                d.add(", and I mentor two graduates through their initial professional development.\n\n")
            else:
                d.add("I'm working towards chartership; I don't hold a professional qualification yet, which "
                      "our records show as ").v("none", K("staff", "chartered", sid), "heading-subject", "null-stated")
                d.add(" for now.\n\n")
            led = [c for c in self.live if self.pj[c]["lead_id"] == sid][:3]
            if led:
                d.add("Recently I've led ")
                for j, c in enumerate(led):
                    if j:
                        d.add(", " if j < len(led) - 1 else " and ")
                    d.v(self.pj[c]["name"], K("projects", "lead_id", c), "heading-subject", "name")
                d.add(".\n\n")
            d.add("You can reach me at ").v(p["email"], K("staff", "email", sid), "heading-subject").add(".\n")
        for sid in self.BIO_THIRD:
            p = self.st[sid]
            slug = f"{p['first_name'].lower()}-{p['last_name'].lower()}"
            d = self.doc(f"people/bios/{slug}.txt", "staff-bio", f"Profile: {p['first_name']} {p['last_name']}")
            pro = "She" if p["title"] in ("Ms", "Mrs") else "He"
            d.add("PROFILE\n\n")
            self.sname(d, sid, [], "prose", "name-title")
            d.add(" is ").add("an " if p["job_title"][0] in "AEIOU" else "a ")
            d.v(p["job_title"], K("staff", "job_title", sid), "prose").add(" with Brenning Hale, based at the ")
            d.v(self.of[p["office_code"]]["city"], K("staff", "office_code", sid), "prose", "name")
            d.add(f" office. {pro} has been with the practice since ")
            if sid in (14, 17):  # the month only: approximate
                d.v(f"{D(p['start_date']):%B %Y}", K("staff", "start_date", sid), "pronoun", "approx-month", exact=False)
            else:
                d.v(date(p["start_date"], "date-uk"), K("staff", "start_date", sid), "pronoun", "date-uk")
            d.add(" and is currently graded ")
            d.v(f"G{p['grade']}", K("staff", "grade", sid), "pronoun", "grade-code").add(".\n\n")
            if p["chartered"]:
                d.add(f"{pro} is a chartered member of the profession (").v(p["chartered"], K("staff", "chartered", sid),
                                                                            "pronoun").add(").\n\n")
            led = [c for c in self.live if self.pj[c]["lead_id"] == sid][:2]
            for c in led:
                d.add(f"{pro} led ").v(self.pj[c]["name"], K("projects", "lead_id", c), "pronoun", "name")
                d.add(f" in {self.pj[c]['site_town']}.\n")
            d.add("\nContact: ").v(p["email"], K("staff", "email", sid), "prose").add("\n")

    # -------------------------------------------------------------- org chart (nested lists)
    def orgchart(self):
        d = self.doc("people/org-chart.md", "org-chart", "Organisation chart")
        d.add("# Brenning Hale: who is where (November 2025)\n\n")
        order = {"Managing Director": 0, "Technical Director": 1, "Associate Director": 2, "Associate": 3,
                 "Principal Engineer": 4, "Senior Engineer": 5, "Engineer": 6, "Senior Technician": 7,
                 "Graduate Engineer": 8, "Office Manager": 9, "Finance Manager": 9}
        for oc, o in self.of.items():
            d.add("- ").v(o["city"], K("offices", "city", oc), "tree", "name").add(" (").add(oc).add(")\n")
            people = sorted((s for s in self.st.values() if s["office_code"] == oc),
                            key=lambda s: (order[s["job_title"]], s["last_name"]))
            groups = defaultdict(list)
            for s in people:
                groups[s["job_title"]].append(s)
            for job, ss in groups.items():
                plural = len(ss) > 1 and not job.endswith("Director")
                d.add("  - ").v(job + ("s" if plural else ""), [K("staff", "job_title", s["staff_id"]) for s in ss], "tree",
                                "plural" if plural else "verbatim").add("\n")
                for s in ss:
                    d.add("    - ")
                    self.sname(d, s["staff_id"], [K("staff", "office_code", s["staff_id"])], "tree", "name-title")
                    d.add("\n")
        d.add("\nGraduates rotate between offices; ask Siân if you need a desk in Cardiff.\n")

    # -------------------------------------------------------------- offices FAQ
    def faq(self):
        d = self.doc("about/offices-faq.md", "faq", "Offices: questions visitors ask")
        d.add("# Our offices: frequently asked questions\n\n")
        for oc, o in self.of.items():
            d.add(f"**Where is the {o['city']} office?**\n\n").v(o["address"], K("offices", "address", oc),
                                                                 "heading-subject").add(".\n\n")
            d.add(f"**What number do I ring for {o['city']}?**\n\n")
            if o["phone"]:
                d.v(o["phone"], K("offices", "phone", oc), "heading-subject").add(", 8.30am to 5.30pm.\n\n")
            else:
                d.v("There is no landline yet", K("offices", "phone", oc), "heading-subject", "null-stated")
                d.add("; call the Bristol switchboard.\n\n")
            d.add(f"**How long have you been in {o['city']}?**\n\nSince ")
            d.v(str(o["opened_year"]), K("offices", "opened_year", oc), "heading-subject", "in-year").add(".\n\n")
        d.add("**Is there parking?**\n\nOnly in Exeter, two bays. Please use public transport where you can.\n")

    # -------------------------------------------------------------- project register (fixed width)
    def register(self):
        d = self.doc("registers/project-register.txt", "project-register", "Project register")
        d.add("BRENNING HALE CONSULTING ENGINEERS - PROJECT REGISTER            printed 14.11.2025\n")
        d.add("Fee in GBP ex VAT. Start = month commenced (MMM-YY).\n\n")
        hdr = f"{'JOB':<8} {'TITLE':<44} {'CLIENT':<18} {'OFF':<4} {'LEAD':<12} {'STATUS':<9} {'FEE':>10}  {'START':<7}\n"
        d.add(hdr).add("-" * (len(hdr) - 1) + "\n")
        for code in self.live:
            p = self.pj[code]
            d.v(code, K("projects", "name", code), "fixed-width", "code").add(" ")
            d.add(f"{p['name']:<44} ")
            s = CLIENT_SHORT[p["client_id"]]
            self.cname(d, p["client_id"], K("projects", "client_id", code), "fixed-width", "short")
            d.add(" " * (18 - len(s)) + " ")
            d.v(p["office_code"], K("projects", "office_code", code), "fixed-width", "code").add(" ")
            lead = self.st[p["lead_id"]]
            ls = f"{lead['title']} {lead['last_name']}"
            self.sname(d, p["lead_id"], K("projects", "lead_id", code), "fixed-width", "title-surname")
            d.add(" " * (12 - len(ls)) + " ")
            d.v(p["status"].upper(), K("projects", "status", code), "fixed-width", "uppercase")
            d.add(" " * (9 - len(p["status"])) + " ")
            fee = f"{p['fee']:.2f}"
            d.add(" " * (10 - len(fee))).v(fee, K("projects", "fee", code), "fixed-width", "plain-number").add("  ")
            if p["start_date"]:
                d.v(month_year(p["start_date"]), K("projects", "start_date", code), "fixed-width", "approx-month",
                    exact=False)
            else:
                d.add("-")
            d.add("\n")
        d.add("\nEnd of register. Tender jobs carry the tendered fee.\n")

    # -------------------------------------------------------------- project sheets (vertical tables + team)
    def sheets(self):
        codes = [c for c in self.live if self.pj[c]["status"] != "tender" and self.pj[c]["office_code"] != "GLO"]
        self.sheet_codes = codes
        for i, code in enumerate(codes):
            p = self.pj[code]
            d = self.doc(f"projects/{code.lower()}/project-sheet.md", "project-sheet", f"Project sheet {code}")
            d.add(f"# {code}: {p['name']}\n\n")
            d.add("| | |\n|---|---|\n| Client | ")
            self.cname(d, p["client_id"], K("projects", "client_id", code), "table", "name")
            d.add(" |\n| Site | ").v(p["site_town"], K("projects", "site_town", code), "table").add(" |\n")
            d.add("| Discipline | ").v(p["discipline"], K("projects", "discipline", code), "table").add(" |\n")
            d.add("| Office | ").v(self.of[p["office_code"]]["city"], K("projects", "office_code", code), "table", "name")
            d.add(" |\n| Project lead | ")
            self.sname(d, p["lead_id"], K("projects", "lead_id", code), "table", "title-initial")
            d.add(" |\n| Status | ").v(p["status"].capitalize(), K("projects", "status", code), "table", "capitalised")
            d.add(" |\n| Agreed fee | ")
            self.money(d, p["fee"], K("projects", "fee", code), "table", "gbp-k" if k_ok(p["fee"]) and i % 2 else "gbp")
            form = ("date-words", "date-uk", "date-dots")[i % 3]
            d.add(" |\n| Commenced | ").v(date(p["start_date"], form), K("projects", "start_date", code), "table", form)
            d.add(" |\n| Completed | ")
            if p["end_date"]:
                d.v(date(p["end_date"], form), K("projects", "end_date", code), "table", form)
            else:
                d.v("ongoing", K("projects", "end_date", code), "table", "null-stated")
            d.add(" |\n\n## Team and hours budget\n\n| Who | Role | Budget |\n|---|---|--:|\n")
            for r in self.team[code]:
                sid = r["staff_id"]
                d.add("| ")
                self.sname(d, sid, kps("staff_id", code, sid), "table", "name-reordered")
                d.add(" | ").v(r["role"], kps("role", code, sid), "table").add(" | ")
                d.v(f"{r['hours_budget']} h", kps("hours_budget", code, sid), "table", "hours").add(" |\n")
            d.add("\nHours are the fee-earning budget agreed at inception; overruns go to the Associate.\n")

    # -------------------------------------------------------------- GLO resourcing by payroll number (split)
    def resourcing_split(self):
        d = self.doc("resourcing/gloucester-allocation.txt", "resourcing-plan", "Gloucester resourcing by payroll no.")
        d.add("GLOUCESTER OFFICE - STAFF ALLOCATION (from the payroll system, names suppressed)\n\n")
        d.add("Job       Payroll  Role                Budget hrs\n")
        self._split_parts = []
        for code in SPLIT_PROJECTS:
            for r in self.team[code]:
                sid = r["staff_id"]
                d.add(code)
                d.add(" " * (10 - len(code)))
                start = d.n
                d.add(payroll_no(sid))
                for col in ("staff_id", "hours_budget", "role"):
                    spid = f"payroll-{code}-{sid}-{col}"
                    d.facts.append({"fact_key": kps(col, code, sid), "doc_id": d.path, "surface": payroll_no(sid),
                                    "start": start, "end": d.n, "exact": True, "how": "split", "form": "payroll-no",
                                    "split_id": spid})
                    self._split_parts.append((code, sid, col, spid))
                d.add("   ")
                d.add(f"{r['role']:<20}")
                d.add(f"{r['hours_budget']:>10}\n")
        d.add("\nProjects: BH-24016 Gloucester Cathedral Close Lighting; BH-25010 Tewkesbury Vicarage Roof.\n")
        d2 = self.doc("people/payroll-numbers.txt", "payroll-list", "Payroll numbers")
        d2.add("PAYROLL NUMBERS (HR use only)\n\n")
        sids = sorted({sid for code, sid, _, _ in self._split_parts})
        for sid in sids:
            p = self.st[sid]
            start = d2.n
            name = f"{p['last_name']}, {p['first_name']}"
            d2.add(f"{payroll_no(sid)}  {name}\n")
            for code, s2, col, spid in self._split_parts:
                if s2 != sid:
                    continue
                d2.facts.append({"fact_key": kps(col, code, sid), "doc_id": d2.path, "surface": payroll_no(sid),
                                 "start": start, "end": start + len(payroll_no(sid)), "exact": True, "how": "split",
                                 "form": "payroll-no", "split_id": spid})
                self.split.append({"fact_key": kps(col, code, sid), "split_id": spid, "doc_ids": [d.path, d2.path],
                                   "note": "the allocation gives the job, role and hours by payroll number; the payroll "
                                           "list maps the number to the person"})
        d2.add("\nNumbers are never reused.\n")

    # -------------------------------------------------------------- invoice registers
    def invoices(self):
        live = set(self.live)
        by_office = defaultdict(list)
        for r in self.inv.values():
            if r["project_code"] in live and r["issued_date"] >= "2025-01-01":
                by_office[self.pj[r["project_code"]]["office_code"]].append(r)
        for oc, rows in sorted(by_office.items()):
            d = self.doc(f"finance/invoices-2025-{oc.lower()}.txt", "invoice-register", f"Invoices 2025 {oc}")
            d.add(f"# sales ledger extract; office={oc}; year=2025; separator=';'; amounts net of VAT\n")
            d.add("invoice;job;net_gbp;issued;paid\n")
            for r in rows:
                n = r["invoice_no"]
                d.add(n + ";").v(r["project_code"], K("invoices", "project_code", n), "csv", "code").add(";")
                d.v(f"{r['amount']:.2f}", K("invoices", "amount", n), "csv", "plain-number").add(";")
                d.v(date(r["issued_date"], "date-uk"), K("invoices", "issued_date", n), "csv", "date-uk").add(";")
                if r["paid_date"]:
                    d.v(date(r["paid_date"], "date-uk"), K("invoices", "paid_date", n), "csv", "date-uk")
                else:
                    d.v("OUTSTANDING", K("invoices", "paid_date", n), "csv", "null-stated")
                d.add("\n")
        d = self.doc("finance/invoices-2024.html", "invoice-register", "Invoices raised in 2024")
        d.add("<!DOCTYPE html>\n<html><head><title>Invoices 2024</title></head><body>\n<h1>Invoices raised in 2024</h1>\n"
              "<p>All offices. Amounts exclude VAT.</p>\n<table border=\"1\">\n<thead><tr><th>No.</th><th>Project</th>"
              "<th>Amount</th><th>Raised</th><th>Settled</th></tr></thead>\n<tbody>\n")
        for n, r in self.inv.items():
            if r["project_code"] not in live or not r["issued_date"].startswith("2024"):
                continue
            d.add(f"<tr><td>{n}</td><td>")
            d.v(self.pj[r["project_code"]]["name"], K("invoices", "project_code", n), "html-table", "name")
            d.add("</td><td>").v(gbp(r["amount"]), K("invoices", "amount", n), "html-table", "gbp")
            d.add("</td><td>").v(date(r["issued_date"], "date-dow-abbrev"), K("invoices", "issued_date", n),
                                 "html-table", "date-dow-abbrev").add("</td><td>")
            if r["paid_date"]:
                d.v(date(r["paid_date"], "iso"), K("invoices", "paid_date", n), "html-table", "iso")
            else:
                d.v("not paid", K("invoices", "paid_date", n), "html-table", "null-stated")
            d.add("</td></tr>\n")
        d.add("</tbody>\n</table>\n</body></html>\n")

    # -------------------------------------------------------------- day rates
    def rates(self):
        d = self.doc("finance/charge-out-rates-2025.md", "rates", "Charge-out rates 2025/26")
        d.add("# Charge-out rates from 1 April 2025\n\nBristol and Exeter staff. Cardiff and Gloucester rates are "
              "agreed job by job.\n\n")
        for oc in ("BRS", "EXE"):
            d.add(f"## {self.of[oc]['city']}\n\n")
            for s in self.st.values():
                if s["office_code"] != oc or s["day_rate"] is None:
                    continue
                d.add("* ")
                self.sname(d, s["staff_id"], [], "card", "name")
                d.add(": ").v(f"£{s['day_rate']:.0f}/day", K("staff", "day_rate", s["staff_id"]), "card", "gbp-per-day")
                d.add("\n")
            d.add("\n")
        d.add("Non-fee-earning staff (office and finance managers) are not charged out.\n")

    # -------------------------------------------------------------- fee proposals (letters; three as PDF)
    def proposals(self):
        tenders = [c for c in self.live if self.pj[c]["status"] == "tender"]
        for i, code in enumerate(tenders):
            p = self.pj[code]
            contact = next(x for x in self.co.values() if x["client_id"] == p["client_id"])
            ext = "pdf" if i % 2 == 0 else "md"
            d = self.doc(f"proposals/{code.lower()}-fee-proposal.{ext}", "fee-proposal", f"Fee proposal {code}")
            lead = self.st[p["lead_id"]]
            d.add(f"{FIRM}\n{self.of[p['office_code']]['address']}\n\n")
            d.add(f"{date('2025-10-' + str(10 + i), 'date-words')}\n\n")
            d.add("For the attention of ").v(f"{contact['first_name']} {contact['last_name']}",
                                             K("contacts", "client_id", contact["contact_id"]), "prose", "name")
            d.add(", ").v(contact["role"], K("contacts", "role", contact["contact_id"]), "prose").add("\n")
            self.cname(d, p["client_id"], K("projects", "client_id", code), "prose")
            d.add("\n\nOur ref: ").v(code, K("projects", "name", code), "prose", "code").add("\n\n")
            d.add(f"Dear {contact['first_name'].split()[-1]},\n\n")
            d.add(f"{p['name']}\n\n")
            d.add("Thank you for inviting us to submit a proposal for ")
            d.v(p["discipline"], K("projects", "discipline", code), "prose").add(" engineering services for the\n"
                                                                                  "works at ")
            d.v(p["site_town"], K("projects", "site_town", code), "prose").add(". We propose a lump-sum fee of ")
            self.money(d, p["fee"], K("projects", "fee", code), "prose", "gbp-suffix" if ext == "pdf" else "gbp")
            d.add("\nexcluding VAT and disbursements. A start date is ")
            d.v("to be agreed on appointment", K("projects", "start_date", code), "prose", "null-stated")
            d.add(".\n\nThe work would be led from our ")
            d.v(self.of[p["office_code"]]["city"], K("projects", "office_code", code), "prose", "name")
            d.add(" office by ")
            self.sname(d, p["lead_id"], [K("projects", "lead_id", code), kps("staff_id", code, p["lead_id"])], "prose",
                       "name-title").add(", supported by:\n\n")
            for r in self.team[code]:
                if r["staff_id"] == p["lead_id"]:
                    continue
                sid = r["staff_id"]
                d.add("  - ")
                self.sname(d, sid, kps("staff_id", code, sid), "prose", "title-initial")
                d.add(" as ").v(r["role"], kps("role", code, sid), "prose").add(", ")
                d.v(f"{r['hours_budget']} hours", kps("hours_budget", code, sid), "prose", "hours")
                if self.st[sid]["day_rate"] and self.st[sid]["office_code"] in ("CDF", "GLO"):
                    d.add(" at ").v(f"£{self.st[sid]['day_rate']:.0f}/day", K("staff", "day_rate", sid), "prose",
                                    "gbp-per-day")
                d.add("\n")
            lt = next(r for r in self.team[code] if r["staff_id"] == p["lead_id"])
            d.add("\nThe lead's own time is budgeted at ")
            d.v(f"{lt['hours_budget']} hours", kps("hours_budget", code, p["lead_id"]), "prose", "hours")
            d.add(" (").v(lt["role"], kps("role", code, p["lead_id"]), "prose").add(").\n\n")
            d.add("We hope this is helpful and look forward to hearing from you.\n\nYours sincerely,\n\n")
            d.add(f"{lead['first_name']} {lead['last_name']}\n{lead['job_title']}\n")

    # -------------------------------------------------------------- statements of account (PDF)
    def statements(self):
        for cid in (5, 6):
            c = self.cl[cid]
            d = self.doc(f"finance/statement-of-account-{CLIENT_SHORT[cid].lower().replace(' ', '-')}.pdf",
                         "statement-of-account", f"Statement of account: {c['name']}")
            d.add(f"{FIRM}\nSTATEMENT OF ACCOUNT at 14 November 2025\n\n").add(f"Customer: {c['name']}\n")
            d.add("Terms: ").v(f"{c['payment_terms_days']} days", K("clients", "payment_terms_days", cid), "kv-text",
                               "number-unit").add(" net\n\n")
            d.add("Invoice    Job        Date              Amount        Status\n")
            for r in self.inv.values():
                if self.pj[r["project_code"]]["client_id"] != cid:
                    continue
                n = r["invoice_no"]
                d.add(f"{n}   ").v(r["project_code"], K("invoices", "project_code", n), "table", "code").add("   ")
                d.v(date(r["issued_date"], "date-words"), K("invoices", "issued_date", n), "table", "date-words")
                d.add("   ").v(gbp(r["amount"]), K("invoices", "amount", n), "table", "gbp").add("   ")
                if r["paid_date"]:
                    d.add("paid ").v(date(r["paid_date"], "date-uk"), K("invoices", "paid_date", n), "table", "date-uk")
                else:
                    d.v("DUE", K("invoices", "paid_date", n), "table", "null-stated")
                d.add("\n")
            d.add("\nPlease quote the invoice number with every payment. BACS: sort code 30-96-17.\n")

    # -------------------------------------------------------------- tender summaries
    def tenders(self):
        tenders = [c for c in self.live if self.pj[c]["status"] == "tender"]
        d = self.doc("bids/tender-summary.html", "tender-summary", "Open tenders")
        d.add("<!DOCTYPE html>\n<html><head><title>Open tenders</title></head><body>\n<h1>Bids awaiting decision</h1>\n"
              "<table>\n<tr><th>Ref</th><th>Scheme</th><th>Client</th><th>Where</th><th>Bid</th><th>Bid lead</th></tr>\n")
        for c in tenders:
            p = self.pj[c]
            d.add("<tr><td>").v(c, [K("projects", "status", c)], "generic", "code").add("</td><td>")
            d.v(p["name"], K("projects", "name", c), "html-table").add("</td><td>")
            self.cname(d, p["client_id"], K("projects", "client_id", c), "html-table", "name")
            d.add("</td><td>").v(p["site_town"], K("projects", "site_town", c), "html-table").add("</td><td>")
            self.money(d, p["fee"], K("projects", "fee", c), "html-table", "gbp").add("</td><td>")
            self.sname(d, p["lead_id"], K("projects", "lead_id", c), "html-table", "initials").add("</td></tr>\n")
        d.add("</table>\n<p>Every row on this page is at tender stage. Initials as in the staff key: ")
        d.add(", ".join(f"{self.ini[s]} = {self.st[s]['first_name']} {self.st[s]['last_name']}"
                        for s in sorted({self.pj[c]['lead_id'] for c in tenders})))
        d.add(".</p>\n</body></html>\n")
        d = self.doc("bids/pipeline-note.md", "tender-summary", "Pipeline note")
        d.add("# Pipeline note for the board, November 2025\n\n")
        total = sum(self.pj[c]["fee"] for c in tenders)
        d.add(f"We have {len(tenders)} bids out, worth roughly £{round(total / 1000)}k between them. ")
        big = max(tenders, key=lambda c: self.pj[c]["fee"])
        d.add("The largest is ").v(self.pj[big]["name"], K("projects", "status", big), "generic", "name")
        d.add(" at ").v(approx_money(self.pj[big]["fee"]), K("projects", "fee", big), "prose", "approx-money", exact=False)
        d.add(", and the smallest ")
        small = min(tenders, key=lambda c: self.pj[c]["fee"])
        d.v(self.pj[small]["name"], K("projects", "status", small), "generic", "name").add(" at ")
        self.money(d, self.pj[small]["fee"], K("projects", "fee", small), "prose",
                   "gbp-k" if k_ok(self.pj[small]["fee"]) else "gbp")
        d.add(". Gloucester has two of them; the Diocese expects to decide on ")
        d.v("Cirencester Deanery Survey", K("projects", "client_id", "BH-25025"), "prose", "name")
        d.add(" before Christmas.\n")

    # -------------------------------------------------------------- site visit reports
    def visit_reports(self):
        live = set(self.live)
        vids = [v for v, r in self.vis.items() if r["project_code"] in live]
        chosen = vids[::3]
        self.reported_visits = set(chosen)
        for j, vid in enumerate(chosen):
            r = self.vis[vid]
            code = r["project_code"]
            p = self.pj[code]
            d = self.doc(f"projects/{code.lower()}/site-visit-{r['visit_date']}.txt", "site-visit-report",
                         f"Site visit {code} {r['visit_date']}")
            d.add("SITE VISIT REPORT\n=================\n\n")
            d.add("Project ......... ")
            self.pcode(d, code, K("site_visits", "project_code", vid), "kv-text")
            d.add("\nSite ............ ").v(p["site_town"], K("projects", "site_town", code), "kv-text")
            form = ("date-dow-abbrev", "date-ordinal", "date-uk")[j % 3]
            d.add("\nDate of visit ... ").v(date(r["visit_date"], form), K("site_visits", "visit_date", vid), "kv-text",
                                          form)
            d.add("\nVisited by ...... ")
            self.sname(d, r["staff_id"], K("site_visits", "staff_id", vid), "kv-text",
                       ("name-title", "title-initial", "name")[j % 3])
            d.add("\nPurpose ......... ").v(r["purpose"].capitalize(), K("site_visits", "purpose", vid), "kv-text",
                                          "capitalised")
            d.add("\n\nObservations\n------------\n")
            obs = self.rnd.choice([
                "Works generally in accordance with the drawings. Minor spalling noted at two locations; photographs "
                "attached.",
                "Contractor's temporary works in place and signed off. No items of concern.",
                "Access restricted by weather. Remaining areas to be inspected on the next visit.",
                "Three snags recorded and agreed with the site manager. None affects structural adequacy.",
            ])
            d.add(obs + "\n\nDistribution: client, contractor, file.\n")
        # the 2025 visit log (HTML), for visits without their own report
        d = self.doc("projects/visit-log-2025.html", "visit-log", "Site visit log 2025")
        d.add("<!DOCTYPE html>\n<html><head><title>Visit log 2025</title></head><body>\n<h1>Site visit log, 2025</h1>\n"
              "<table>\n<tr><th>Date</th><th>Job</th><th>Engineer</th><th>Purpose</th></tr>\n")
        for vid in vids:
            r = self.vis[vid]
            if not r["visit_date"].startswith("2025") or vid in self.reported_visits:
                continue
            d.add("<tr><td>").v(date(r["visit_date"], "date-dots"), K("site_visits", "visit_date", vid), "html-table",
                                "date-dots").add("</td><td>")
            d.v(r["project_code"], K("site_visits", "project_code", vid), "html-table", "code").add("</td><td>")
            self.sname(d, r["staff_id"], K("site_visits", "staff_id", vid), "html-table", "initials")
            d.add("</td><td>").v(r["purpose"], K("site_visits", "purpose", vid), "html-table").add("</td></tr>\n")
        who = sorted({self.vis[v]["staff_id"] for v in vids if self.vis[v]["visit_date"].startswith("2025")
                      and v not in self.reported_visits})
        d.add("</table>\n<p>Engineers by initials: ")
        d.add(html.escape("; ".join(f"{self.ini[s]} {self.st[s]['first_name']} {self.st[s]['last_name']}" for s in who),
                          quote=False))
        d.add(".</p>\n</body></html>\n")

    # -------------------------------------------------------------- weekly status e-mails
    def mails(self):
        live = set(self.live)
        codes = [c for c in self.live if self.pj[c]["status"] in ("active", "on hold")]
        for j, code in enumerate(codes[:12]):
            p = self.pj[code]
            lead = self.st[p["lead_id"]]
            boss = self.st[2] if p["lead_id"] != 2 else self.st[1]
            invs = [r for r in self.inv.values() if r["project_code"] == code]
            d = self.doc(f"mail/status-{code.lower()}.txt", "email", f"Weekly status {code}")
            d.add(f"From: {boss['first_name']} {boss['last_name']} <{boss['email']}>\n")
            d.add(f"To: {lead['first_name']} {lead['last_name']} <").v(lead["email"], K("staff", "email", lead["staff_id"]),
                                                                       "header").add(">\n")
            d.add(f"Date: Fri, 14 Nov 2025 16:{10 + j:02d}:00 +0000\n")
            d.add(f"Subject: RE: Weekly status - {code}\n\n")
            d.add(f"Thanks {lead['first_name']}. ")
            if p["status"] == "on hold":
                d.add("Understood that the job stays ").v("on hold", K("projects", "status", code), "prose")
                d.add("; please make sure nobody books time to it.\n\n")
            else:
                unpaid = [r for r in invs if r["paid_date"] is None]
                if unpaid:
                    r = unpaid[0]
                    d.add("Carol tells me ").v(r["invoice_no"], K("invoices", "project_code", r["invoice_no"]), "prose",
                                               "code")
                    d.add(" for ").v(gbp(r["amount"]), K("invoices", "amount", r["invoice_no"]), "prose", "gbp")
                    d.add(" is ").v("still unpaid", K("invoices", "paid_date", r["invoice_no"]), "prose", "null-stated")
                    d.add(" - can you nudge the client?\n\n")
                else:
                    d.add("Good to hear all invoices are settled.\n\n")
            d.add(f"{boss['first_name']}\n\n")
            # the quoted weekly report from the lead
            d.add(f"On Fri, 14 Nov 2025 at 09:{j:02d}, {lead['first_name']} {lead['last_name']} wrote:\n")
            d.add("> Weekly status, ").v(code, K("projects", "name", code), "quoted-reply", "code")
            d.add(f" {p['name']}\n>\n")
            d.add("> Status: ").v(p["status"], K("projects", "status", code), "quoted-reply").add("\n")
            d.add("> Fee: ")
            self.money(d, p["fee"], K("projects", "fee", code), "quoted-reply",
                       "gbp-k" if k_ok(p["fee"]) else "gbp-suffix")
            if p["office_code"] == "GLO":  # Gloucester's start dates are written only as months (approximate)
                d.add(", started ").v(f"{D(p['start_date']):%B %Y}", K("projects", "start_date", code), "quoted-reply",
                                      "approx-month", exact=False).add("\n")
            else:
                d.add(", started ").v(date(p["start_date"], "date-ordinal"), K("projects", "start_date", code),
                                      "quoted-reply", "date-ordinal").add("\n")
            if invs:
                last = invs[-1]
                d.add("> Last invoice ").v(last["invoice_no"], K("invoices", "project_code", last["invoice_no"]),
                                           "quoted-reply", "code")
                d.add(", ").v(gbp_suffix(last["amount"]), K("invoices", "amount", last["invoice_no"]), "quoted-reply",
                              "gbp-suffix")
                d.add(", raised ").v(date(last["issued_date"], "date-words"), K("invoices", "issued_date",
                                                                                 last["invoice_no"]),
                                     "quoted-reply", "date-words").add("\n")
            vis = [v for v in self.vis.values() if v["project_code"] == code]
            if vis:
                v = vis[-1]
                d.add("> Last site visit: ").v(date(v["visit_date"], "iso"), K("site_visits", "visit_date", v["visit_id"]),
                                               "quoted-reply", "iso")
                d.add(" (").v(v["purpose"], K("site_visits", "purpose", v["visit_id"]), "quoted-reply").add(", ")
                self.sname(d, v["staff_id"], K("site_visits", "staff_id", v["visit_id"]), "quoted-reply",
                           "title-initial")
                d.add(")\n")
            d.add(">\n> Nothing else to flag this week.\n>\n> --\n> ")
            d.add(f"{lead['first_name']} {lead['last_name']}\n> ")
            d.v(lead["job_title"], K("staff", "job_title", lead["staff_id"]), "signature").add(" | ")
            d.add(f"Brenning Hale, {self.of[lead['office_code']]['city']}")
            d.add(f"\n> {lead['email']}\n")
            if code not in live:
                raise AssertionError(code)
        # a thread about the Clevedon namesake (client vs town)
        d = self.doc("mail/re-clevedon-which-one.txt", "email", "RE: Clevedon - which one?")
        k = self.st[9]
        d.add(f"From: {k['first_name']} {k['last_name']} <{k['email']}>\nTo: Daniel Okafor <")
        d.v(self.st[10]["email"], K("staff", "email", 10), "header").add(">\nDate: Wed, 12 Nov 2025 11:02:00 +0000\n"
                                                                         "Subject: RE: Clevedon - which one?\n\n")
        d.add("Daniel - two different things. Clevedon Housing Association is a client (their offices are in ")
        d.v(self.cl[2]["town"], K("clients", "town", 2), "prose").add(", not Clevedon), and their job ")
        d.v("BH-23015", [K("projects", "client_id", "BH-23015")], "prose", "code")
        d.add(" was actually in ").v(self.pj["BH-23015"]["site_town"], K("projects", "site_town", "BH-23015"), "prose")
        d.add(". The jobs in ").v("Clevedon", [K("projects", "site_town", "BH-23007"),
                                               K("projects", "site_town", "BH-25006")], "prose")
        d.add(" itself are BH-23007 (pier kiosk) and BH-25006 (railings), both for the Council.\n\nKate\n\n")
        d.add("> Quick one - the timesheet code list has two \"Clevedon\" entries. Which do I book the kiosk drawings "
              "to?\n> Daniel\n")

    # -------------------------------------------------------------- meeting minutes with initials
    def minutes(self):
        for oc, mdate in (("BRS", "2025-10-06"), ("EXE", "2025-10-08"), ("CDF", "2025-10-09"), ("BRS", "2025-11-03"),
                          ("EXE", "2025-11-05")):
            codes = [c for c in self.live if self.pj[c]["office_code"] == oc]
            people = [s for s, p in self.st.items() if p["office_code"] == oc]
            d = self.doc(f"minutes/{oc.lower()}-project-review-{mdate}.md", "minutes",
                         f"{self.of[oc]['city']} project review {mdate}")
            d.add(f"# {self.of[oc]['city']} office: monthly project review\n\n")
            d.add(f"Held {date(mdate, 'date-words')}, 9.30am. Present: " + ", ".join(self.ini[s] for s in people[:5]))
            d.add(".\n\n## Items\n\n")
            actions = []
            for n, c in enumerate(codes, 1):
                p = self.pj[c]
                d.add(f"{n}. **{c}** ({p['name']}): lead ")
                self.sname(d, p["lead_id"], K("projects", "lead_id", c), "minutes", "initials")
                d.add("; ")
                if p["status"] == "complete":
                    d.add("closed out on ").v(date(p["end_date"], "date-uk"), K("projects", "end_date", c), "minutes",
                                              "date-uk")
                elif p["status"] == "tender":
                    d.add("bid submitted, awaiting decision")
                else:
                    d.add("status ").v(p["status"], K("projects", "status", c), "minutes")
                    inv = [r for r in self.inv.values() if r["project_code"] == c and r["paid_date"] is None]
                    if inv and mdate == "2025-11-03" or (inv and mdate == "2025-11-05"):
                        r = inv[-1]
                        d.add("; ").v(r["invoice_no"], K("invoices", "project_code", r["invoice_no"]), "minutes", "code")
                        d.add(" (raised ").v(date(r["issued_date"], "date-dots"), K("invoices", "issued_date",
                                                                                     r["invoice_no"]),
                                             "minutes", "date-dots").add(") not yet paid")
                    actions.append((p["lead_id"], f"update the programme for {c}"))
                d.add(".\n")
            d.add("\n## Actions\n\n| Who | Action | By |\n|---|---|---|\n")
            for sid, a in actions[:4]:
                d.add(f"| {self.ini[sid]} | {a} | next review |\n")
            d.add("\nKey: " + "; ".join(f"{self.ini[s]} {self.st[s]['first_name']} {self.st[s]['last_name']}"
                                        for s in sorted(set(people[:5]) | {self.pj[c]["lead_id"] for c in codes})))
            d.add("\n")

    # -------------------------------------------------------------- timesheet budget summaries (named)
    def timesheets(self):
        """Cardiff's budget summary, grouped by person: the heading names the engineer, the rows the jobs."""
        d = self.doc("timesheets/cardiff-hours-budget-summary.md", "timesheet-summary", "Cardiff hours budgets by person")
        d.add("# Cardiff office: hours budgets by person (live and recent jobs)\n\nBooked hours are in the "
              "timesheet system; this page lists only what each person is budgeted for.\n\n")
        people = sorted({r["staff_id"] for c in self.sheet_codes if self.pj[c]["office_code"] == "CDF"
                         for r in self.team[c]})
        for sid in people:
            d.add("## ")
            self.sname(d, sid, [], "heading", "name")
            d.add("\n\n```\n")
            for c in self.sheet_codes:
                if self.pj[c]["office_code"] != "CDF":
                    continue
                for r in self.team[c]:
                    if r["staff_id"] != sid:
                        continue
                    d.v(c, kps("staff_id", c, sid), "heading-subject", "code").add("  ")
                    d.v(f"{r['role']:<18}".rstrip(), kps("role", c, sid), "heading-subject")
                    d.add(" " * (18 - len(r["role"])) + "  ")
                    d.v(f"{r['hours_budget']} hrs", kps("hours_budget", c, sid), "heading-subject", "hours")
                    d.add("\n")
            d.add("```\n\n")

    # -------------------------------------------------------------- news
    def news(self):
        d = self.doc("news/2024-gloucester-office.md", "news", "We have opened in Gloucester")
        o = self.of["GLO"]
        d.add("# Brenning Hale opens in Gloucester\n\nOur fourth office opened in ")
        d.v(str(o["opened_year"]), K("offices", "opened_year", "GLO"), "prose", "in-year").add(" at ")
        d.v(o["address"], K("offices", "address", "GLO"), "prose").add(", led by ")
        self.sname(d, 12, K("staff", "office_code", 12), "prose", "name").add(", who moved from Bristol. ")
        d.add("Nadia Haddad and Laura Kinsey have joined him there.\n")
        done = [c for c in self.live if self.pj[c]["status"] == "complete" and c.startswith("BH-24")][:3]
        for c in done:
            p = self.pj[c]
            d = self.doc(f"news/complete-{c.lower()}.md", "news", f"Completed: {p['name']}")
            d.add(f"# {p['name']} completes\n\n")
            d.add(p["name"] + " for ")
            self.cname(d, p["client_id"], K("projects", "client_id", c), "prose")
            d.add(" was handed over on ").v(date(p["end_date"], "date-words"), K("projects", "end_date", c), "prose",
                                            "date-words")
            d.add(". The ").v(p["discipline"], K("projects", "discipline", c), "prose").add(" design was led by ")
            self.sname(d, p["lead_id"], K("projects", "lead_id", c), "prose", "name-title")
            d.add(", with a fee of ").v(approx_money(p["fee"]), K("projects", "fee", c), "prose", "approx-money",
                                         exact=False)
            d.add(".\n")
        d = self.doc("news/2025-new-graduates.md", "news", "Welcome to our new graduates")
        d.add("# Welcome, graduates\n\n")
        for sid in (10, 11, 24):
            s = self.st[sid]
            self.sname(d, sid, [], "prose", "name").add(" joined the ")
            d.v(self.of[s["office_code"]]["city"], K("staff", "office_code", sid), "prose", "name").add(" office on ")
            d.v(date(s["start_date"], "date-ordinal"), K("staff", "start_date", sid), "prose", "date-ordinal")
            d.add(" as a ").v(s["job_title"], K("staff", "job_title", sid), "prose").add(". ")
        d.add("\n\nPlease say hello.\n")

    # -------------------------------------------------------------- distractors and policies
    def distractors(self):
        for path, title, body in (
            ("misc/brenning-hall-associates-projects.md", "Brenning Hall Associates: project list",
             "# Brenning Hall Associates (Leeds) - selected projects\n\n| Project | Client | Fee |\n|---|---|--:|\n"
             f"| Riverside Footbridge Repairs, Otley | Wharfedale Council | {gbp(self.pj['BH-24002']['fee'] + 450)} |\n"
             f"| Kingsmead Primary School Extension, Harrogate | Kingsmead Academy | "
             f"{gbp(self.pj['BH-23011']['fee'] - 350)} |\n\n"
             "Not connected with Brenning Hale Consulting Engineers of Bristol.\n"),
            ("misc/cv-rachel-hughes-qs.txt", "CV Rachel Hughes (quantity surveyor)",
             "CURRICULUM VITAE\n\nRachel Hughes MRICS, Quantity Surveyor, Clevedon Homes Ltd (since 03/04/2013).\n"
             "Previously assistant QS at Exeter City Council. Grade 5 on the council scale.\n"
             "rachel.hughes@clevedonhomes.example\n"),
            ("misc/clevedon-town-council-pier-notice.md", "Clevedon Town Council notice",
             "# Clevedon Town Council: pier kiosk reopening\n\nThe kiosk at the pier reopened on 14 January 2024 after "
             "refurbishment by the Pier Trust's volunteers. The Town Council is not the same body as North Somerset "
             "Council.\n"),
            ("misc/severn-cctv-invoice.html", "Severn CCTV Surveys invoice to us",
             "<!DOCTYPE html>\n<html><body><h1>Severn CCTV Surveys Ltd - invoice INV-4123</h1>\n<table><tr><th>Item</th>"
             "<th>Amount</th></tr><tr><td>CCTV survey, Avonmouth</td><td>£1,450.00</td></tr></table>\n"
             "<p>Payable by Brenning Hale within 30 days. Raised 02/06/2024.</p></body></html>\n"),
            ("misc/mendip-water-press-release.md", "Mendip Water press release",
             "# Mendip Water: Wells works upgrade\n\nMendip Water has appointed Quarry Vale Civils to upgrade the "
             f"Wells Treatment Works access road, contact Alan Patel, value {approx_money(self.pj['BH-24021']['fee'])}.\n"),
            ("misc/competitor-rates.txt", "Competitor day rates (market survey)",
             "MARKET SURVEY OF DAY RATES, SOUTH WEST 2025 (anonymised)\n\nAssociate Director  £960/day\n"
             "Principal Engineer  £860/day\nGraduate Engineer   £520/day\nFirms surveyed: 14. Not our rates.\n"),
        ):
            d = self.doc(path, "distractor", title, distractor=True)
            d.add(body)
        for slug, title, body in (
            ("cdm-duties", "CDM duties", "Every project with a site element needs a designer's risk register before "
                                         "stage 4. The principal designer role is taken only with a director's "
                                         "approval."),
            ("lone-working", "Lone working on site", "Text the office when you arrive on site and when you leave. "
                                                     "Confined spaces need two people, always."),
            ("expenses", "Expenses", "Mileage is paid at the HMRC rate. Train travel is standard class unless a "
                                     "director approves otherwise."),
            ("it-and-cad", "IT and CAD", "Drawings live in the project folder, never on a laptop. Lock your screen "
                                         "when you leave your desk."),
        ):
            d = self.doc(f"handbook/{slug}.md", "policy", title)
            d.add(f"# {title}\n\n{body}\n\nOffice handbook, reviewed annually.\n")

    # -------------------------------------------------------------- output
    def left_out(self, stated):
        """Groups of database facts no document was given, found by rule after writing."""
        allk = self.all_keys()
        left = []
        gone_projects = {c for c, p in self.pj.items() if p["client_id"] in OMITTED_CLIENTS}
        rules = [
            ("clients_entirely", "St Petroc's Hospice and Porthleven Holdings: no page and no mention; their contacts, "
                                 "projects, teams, invoices and site visits are in no document",
             lambda t, c, k: (t == "clients" and int(k[0]) in OMITTED_CLIENTS)
             or (t == "contacts" and self.co[int(k[0])]["client_id"] in OMITTED_CLIENTS)
             or (t in ("projects", "project_staff") and k[0] in gone_projects)
             or (t == "invoices" and self.inv[k[0]]["project_code"] in gone_projects)
             or (t == "site_visits" and self.vis[int(k[0])]["project_code"] in gone_projects)),
            ("invoices_2023", ("2023 invoices are archived: not in the registers (2024 HTML, 2025 per office); only the two "
                               "statements of account list some"),
             lambda t, c, k: t == "invoices" and self.inv[k[0]]["issued_date"] < "2024"),
            ("contact_phones", "the Markdown CRM pages write no telephone for a contact without a direct line (NULL), and "
                               "one contact's number is left off on purpose",
             lambda t, c, k: t == "contacts" and c == "phone"),
            ("staff_without_bio", "eight staff have no bio: start date, grade, chartered status and e-mail are "
                                  "written nowhere unless a news item or e-mail gives them",
             lambda t, c, k: t == "staff" and c in ("start_date", "chartered", "email", "grade")),
            ("day_rates_cdf_glo", "Cardiff and Gloucester day rates are agreed job by job; only those quoted in a fee "
                                  "proposal are written (the two managers' NULL rates are written nowhere either)",
             lambda t, c, k: t == "staff" and c == "day_rate"),
            ("visits_before_2025", "site visits before 2025 without a report of their own are in no log",
             lambda t, c, k: t == "site_visits" and self.vis[int(k[0])]["visit_date"] < "2025"),
            ("glo_projects_detail", "Gloucester jobs have no project sheet: the discipline of the two live ones and "
                                    "the (NULL) end dates of all four are written nowhere",
             lambda t, c, k: t in ("projects", "project_staff") and self.pj[k[0]]["office_code"] == "GLO"),
            ("tender_end_dates", "tender projects have no end date (NULL), and no document says so",
             lambda t, c, k: t == "projects" and c in ("start_date", "end_date")),
            ("invoices_other", "remaining invoice details (none expected)",
             lambda t, c, k: False),
        ]
        for t, c, key in allk:
            fk = K(t, c, *key)
            if fk in stated:
                continue
            for g, rule, fn in rules:
                if fn(t, c, key):
                    self.omit(g, rule, [fk])
                    break
            else:
                left.append(fk)
        assert not left, f"neither stated nor omitted: {left}"

    def all_keys(self):
        pks = {"offices": ["office_code"], "staff": ["staff_id"], "clients": ["client_id"], "contacts": ["contact_id"],
               "projects": ["project_code"], "project_staff": ["project_code", "staff_id"], "invoices": ["invoice_no"],
               "site_visits": ["visit_id"]}
        own = {"staff": ("first_name", "last_name"), "contacts": ("first_name", "last_name"), "clients": ("name",)}
        out = []
        for t, pk in pks.items():
            for row in self.q(f"SELECT * FROM {t}"):
                key = [str(row[p]) for p in pk]
                cols = [c for c in row.keys() if c not in pk and c not in own.get(t, ())]
                out += [(t, c, key) for c in cols]
                if len(pk) > 1:
                    out.append((t, pk[-1], key))
        return out

    def write(self, out):
        docs_dir = os.path.join(out, "docs")
        if os.path.isdir(docs_dir):
            shutil.rmtree(docs_dir)
        facts = []
        for d in self.docs:
            p = os.path.join(docs_dir, d.path)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            if d.pdf:
                with open(p, "wb") as fh:
                    fh.write(pdf_bytes(d.text(), d.title))
            else:
                with open(p, "w", encoding="utf-8", newline="\n") as fh:
                    fh.write(d.text())
            facts.extend(d.facts)
        stated = {f["fact_key"] for f in facts}
        self.left_out(stated)
        for g in self.omitted.values():
            g["fact_keys"] = sorted(set(g["fact_keys"]))
            assert not stated & set(g["fact_keys"])
        self.omitted = {k: v for k, v in self.omitted.items() if v["fact_keys"]}
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
            "database": "brenning.sqlite", "facts": facts, "split_facts": self.split,
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


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default=os.path.join(HERE, "brenning.sqlite"))
    ap.add_argument("--out", default=HERE)
    a = ap.parse_args(argv)
    c = Corpus(a.db)
    for step in (c.crm, c.bios, c.orgchart, c.faq, c.register, c.sheets, c.resourcing_split, c.invoices, c.rates,
                 c.timesheets, c.proposals, c.statements, c.tenders, c.visit_reports, c.mails, c.minutes, c.news,
                 c.distractors):
        step()
    stats = c.write(a.out)
    print({k: v for k, v in stats.items() if not k.startswith("by_")})


if __name__ == "__main__":
    main()
