#!/usr/bin/env python3
"""Write the Kestrel Ashby document corpus (docs/) and its ground truth (truth.json).

Every database fact a document states is recorded at the moment the sentence, table cell, list
item or front-matter line holding it is written (Doc.add with an F(...) marker): the truth is never
recovered by searching the text afterwards.  Seeded and deterministic: running it twice gives the
same bytes.

    python3 make_corpus.py [--db kestrel.sqlite] [--out .] [--seed 1871]

Standard library only.  No PDFs are written (the corpus does not depend on fpdf2).
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
import sys
import unicodedata
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))

# ----------------------------------------------------------------------------------------------
# documents, and the truth recorded while they are written
# ----------------------------------------------------------------------------------------------


class F:
    """A fact-bearing span: written into the document and recorded in the truth in one step."""

    def __init__(self, key, text, how, exact=True, form="verbatim", split_id=None, extra=()):
        self.key, self.text, self.how, self.exact, self.form, self.split_id = (
            key,
            str(text),
            how,
            bool(exact),
            form,
            split_id,
        )
        # further statements made by the same words: (key, start, end within text, how, form, exact)
        self.extra = list(extra)


class Doc:
    def __init__(self, doc_id, kind, title, *, distractor=False, no_fact=False):
        self.id = doc_id
        self.fmt = doc_id.rsplit(".", 1)[1]
        self.kind, self.title = kind, title
        self.distractor, self.no_fact = distractor, no_fact
        self.buf, self.n, self.facts = [], 0, []

    def add(self, *parts):
        for p in parts:
            if isinstance(p, F):
                raw = html.escape(p.text, quote=False) if self.fmt == "html" else p.text
                start = self.n
                self._w(raw)
                rec = {
                    "fact_key": p.key,
                    "doc_id": self.id,
                    "surface": p.text,
                    "start": start,
                    "end": self.n,
                    "exact": p.exact,
                    "how": p.how,
                    "form": p.form,
                }
                if p.split_id:
                    rec["split_id"] = p.split_id
                self.facts.append(rec)
                for key, a, b, how, form, exact in p.extra:
                    pre = p.text[:a]
                    if self.fmt == "html":
                        a0, a1 = len(html.escape(pre, quote=False)), len(html.escape(p.text[:b], quote=False))
                    else:
                        a0, a1 = a, b
                    self.facts.append(
                        {
                            "fact_key": key,
                            "doc_id": self.id,
                            "surface": p.text[a:b],
                            "start": start + a0,
                            "end": start + a1,
                            "exact": exact,
                            "how": how,
                            "form": form,
                        }
                    )
            else:
                self._w(str(p))
        return self

    def _w(self, s):
        self.buf.append(s)
        self.n += len(s)

    def text(self):
        return "".join(self.buf)


def h(s):
    return html.escape(str(s), quote=False)


# ----------------------------------------------------------------------------------------------
# how people write values
# ----------------------------------------------------------------------------------------------

MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
COUNTRY_EN = {
    "GB": "United Kingdom",
    "DE": "Germany",
    "DK": "Denmark",
    "NO": "Norway",
    "SE": "Sweden",
    "NL": "the Netherlands",
    "FR": "France",
}
COUNTRY_NATIVE = {
    "GB": "United Kingdom",
    "DE": "Deutschland",
    "DK": "Danmark",
    "NO": "Norge",
    "SE": "Sverige",
    "NL": "Nederland",
    "FR": "France",
}
CUR_SYM = {"EUR": "€", "GBP": "£"}
WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]


def d(s):
    return dt.date.fromisoformat(str(s)[:10])


def ordinal(n):
    return str(n) + ("th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th"))


DATE_FORMS = {
    "iso": lambda x: x.isoformat(),
    "date-words": lambda x: f"{x.day} {MONTHS[x.month - 1]} {x.year}",
    "date-words-us": lambda x: f"{MONTHS[x.month - 1]} {x.day}, {x.year}",
    "date-us": lambda x: f"{x.month:02d}/{x.day:02d}/{x.year}",
    "date-eu": lambda x: f"{x.day:02d}.{x.month:02d}.{x.year}",
    "date-abbrev": lambda x: f"{x.day} {MONTHS[x.month - 1][:3]} {x.year}",
    "date-apos": lambda x: f"{ordinal(x.day)} {MONTHS[x.month - 1][:3]} '{x.year % 100:02d}",
    "date-ordinal-us": lambda x: f"{MONTHS[x.month - 1]} the {ordinal(x.day)}, {x.year}",
}
APPROX_DATE_FORMS = {
    "iso-week": lambda x: "{}-W{:02d}".format(*x.isocalendar()[:2]),
    "month-year": lambda x: f"{MONTHS[x.month - 1]} {x.year}",
    "approx-date": lambda x: (
        ("early " if x.day <= 10 else "mid-" if x.day <= 20 else "late ") + f"{MONTHS[x.month - 1]} {x.year}"
    ),
    "year-only": lambda x: str(x.year),
    "quarter": lambda x: f"Q{(x.month - 1) // 3 + 1} {x.year}",
}


def fdate(value, form):
    """(text, exact) for a date written in FORM."""
    if form in DATE_FORMS:
        return DATE_FORMS[form](d(value)), True
    return APPROX_DATE_FORMS[form](d(value)), False


def _group(intpart, sep):
    s = f"{intpart:,d}"
    return s.replace(",", sep)


def money(v, cur, form):
    """(text, exact) for an amount of CUR written in FORM.  exact iff the text reads back as v."""
    v = float(v)
    cents = round(v * 100) % 100
    whole = int(round(v * 100)) // 100
    if form == "sym":  # £1,250.00 / €1,250.00
        return f"{CUR_SYM[cur]}{v:,.2f}", True
    if form == "code":  # EUR 1,250.00
        return f"{cur} {v:,.2f}", True
    if form == "code-eu":  # EUR 1.250,00
        return f"{cur} {_group(whole, '.')},{cents:02d}", True
    if form == "eu-sym":  # 1.250,00 €
        return f"{_group(whole, '.')},{cents:02d} {CUR_SYM.get(cur, cur)}", True
    if form == "nordic":  # 12 500 kr / 12 500,50 kr
        return _group(whole, " ") + (f",{cents:02d}" if cents else "") + " kr", True
    if form == "plain":  # 1,250.00 under a header that gives the currency
        return f"{v:,.2f}", True
    if form == "k":  # EUR 12.5k
        k = round(v / 1000, 1)
        txt = f"{cur} {k:g}k"
        return txt, abs(k * 1000 - v) < 0.005
    if form == "mio":  # 1,2 Mio. €
        m = round(v / 1e6, 2)
        txt = f"{m:g}".replace(".", ",") + " Mio. " + CUR_SYM.get(cur, cur)
        return txt, abs(m * 1e6 - v) < 0.005
    if form == "approx":  # about EUR 160,000
        r = int(round(v, -4 if v >= 100000 else -3))
        return f"about {cur} {r:,d}", False
    raise ValueError(form)


def full(s, suffix=True, honorific=False):
    name = f"{s['first_name']} {s['last_name']}"
    if honorific and s["honorific"]:
        name = f"{s['honorific']} {name}"
    if suffix and s["suffix"]:
        name += f" {s['suffix']}"
    return name


def pname(s, form):
    """A person as people write them.  Every form keeps Sr./Jr. so that namesakes stay apart."""
    suf = f" {s['suffix']}" if s["suffix"] else ""
    if form == "name":
        return full(s)
    if form == "name-honorific":
        return full(s, honorific=True)
    if form == "name-initial":  # Dr. A. Keller
        hon = f"{s['honorific']} " if s["honorific"] else ""
        return f"{hon}{s['first_name'][0]}. {s['last_name']}{suf}"
    if form == "name-reordered":  # Keller, Anna
        return f"{s['last_name']}, {s['first_name']}" + (f", {s['suffix']}" if suf else "")
    raise ValueError(form)


def pick(rng, seq):
    return seq[rng.randrange(len(seq))]


def slug(s):
    out = []
    s = unicodedata.normalize("NFKD", s.replace("ø", "o").replace("Ø", "O").replace("æ", "ae"))
    for ch in s.lower():
        if unicodedata.combining(ch):
            continue
        if ch.isascii() and ch.isalnum():
            out.append(ch)
        elif out and out[-1] != "-":
            out.append("-")
    return "".join(out).strip("-")


# ----------------------------------------------------------------------------------------------
# the corpus
# ----------------------------------------------------------------------------------------------


class Corpus:
    def __init__(self, db, seed):
        self.rng = random.Random(seed)
        self.seed = seed
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        con.row_factory = sqlite3.Row

        def rows(q):
            return [dict(r) for r in con.execute(q)]

        self.offices = {r["office_code"]: r for r in rows("SELECT * FROM offices ORDER BY office_code")}
        self.staff = {r["staff_id"]: r for r in rows("SELECT * FROM staff ORDER BY staff_id")}
        self.clients = {r["client_id"]: r for r in rows("SELECT * FROM clients ORDER BY client_id")}
        self.services = {r["service_code"]: r for r in rows("SELECT * FROM services ORDER BY service_code")}
        self.projects = {r["project_id"]: r for r in rows("SELECT * FROM projects ORDER BY project_id")}
        self.team = defaultdict(list)
        for r in rows("SELECT * FROM project_staff ORDER BY project_id, staff_id"):
            self.team[r["project_id"]].append(r)
        self.invoices = rows("SELECT * FROM invoices ORDER BY issued_on, project_id, invoice_no")
        self.visits = rows("SELECT * FROM site_visits ORDER BY visit_id")
        con.close()
        self.docs = []
        self.splits = []
        self.omitted = {}

        rng = self.rng
        # --- what is left out on purpose (chosen first, so every document respects it) -----------
        self.hidden_clients = sorted(rng.sample(sorted(self.clients), 5))
        self.hidden_projects = {p for p, r in self.projects.items() if r["client_id"] in self.hidden_clients}
        shown = [c for c in self.clients if c not in self.hidden_clients]
        self.hidden_phones = sorted(rng.sample([c for c in shown if self.clients[c]["phone"]], 5))
        self.split_credit = sorted(rng.sample([c for c in shown if self.clients[c]["credit_limit"]], 8))
        self.roster_date = dt.date(2023, 6, 1)
        self.confidential_budget = {
            p for p, r in self.projects.items() if self.clients[r["client_id"]]["sector"] == "Public"
        }

    def doc(self, *a, **k):
        x = Doc(*a, **k)
        self.docs.append(x)
        return x

    def person_extra(self, sid, text, how):
        """The honorific and suffix a written name states, as statements inside its span."""
        r = self.staff[sid]
        out = []
        if r["honorific"] and text.startswith(r["honorific"] + " "):
            out.append((f"staff.honorific@{sid}", 0, len(r["honorific"]), how, "verbatim", True))
        if r["suffix"] and text.endswith(r["suffix"]):
            out.append((f"staff.suffix@{sid}", len(text) - len(r["suffix"]), len(text), how, "verbatim", True))
        return out

    def P(self, key, sid, form, how, also=()):
        """A person's name that states KEY (and ALSO, same span), with its honorific and suffix."""
        text = pname(self.staff[sid], form)
        extra = [(k, 0, len(text), how, form, True) for k in also] + self.person_extra(sid, text, how)
        return F(key, text, how, form=form, extra=extra)

    def names(self, sid, form, how):
        """A name written where it states nothing but its own honorific and suffix."""
        text = pname(self.staff[sid], form)
        ex = self.person_extra(sid, text, how)
        if not ex:
            return [text]
        return self._split_name(text, ex)

    @staticmethod
    def _split_name(text, ex):
        parts, pos = [], 0
        for key, a, b, how, form, exact in sorted(ex, key=lambda e: e[1]):
            parts.append(text[pos:a])
            parts.append(F(key, text[a:b], how, exact, form))
            pos = b
        parts.append(text[pos:])
        return [p for p in parts if p != ""]

    def sname(self, sid, form="name"):
        return pname(self.staff[sid], form)

    def heading_name(self, s):
        """A person's name in a heading, its honorific and suffix recorded as the facts they are."""
        r = self.staff[s]
        parts = []
        if r["honorific"]:
            parts += [F(f"staff.honorific@{s}", r["honorific"], "heading"), " "]
        parts.append(f"{r['first_name']} {r['last_name']}")
        if r["suffix"]:
            parts += [" ", F(f"staff.suffix@{s}", r["suffix"], "heading")]
        return parts

    def city(self, code):
        return self.offices[code]["city"]

    # ------------------------------------------------------------------------------------------
    def write_offices(self):
        codes = sorted(self.offices)
        for i, code in enumerate(codes):
            o = self.offices[code]
            k = f"offices.%s@{code}"
            if i < 4:  # YAML front matter naming the subject, then prose
                x = self.doc(f"offices/{slug(o['city'])}.md", "office-page", f"{o['city']} office")
                dform = ["date-words", "date-apos", "date-ordinal-us", "date-words-us"][i]
                dt_txt, ex = fdate(o["opened_on"], dform)
                x.add(
                    "---\noffice: ",
                    code,
                    "\ncity: ",
                    F(k % "city", o["city"], "yaml-front-matter"),
                    "\ncountry: ",
                    F(k % "country_code", o["country_code"], "yaml-front-matter", form="iso"),
                    "\nlayout: office\n---\n\n# ",
                    o["city"],
                    "\n\n",
                    "The office is at ",
                    F(k % "address", o["address"], "heading-subject"),
                    ", ",
                    o["city"],
                    ". It opened on ",
                    F(k % "opened_on", dt_txt, "heading-subject", ex, dform),
                    " and has grown every year since.",
                )
                if o["phone"]:
                    x.add(" Reception can be reached on ", F(k % "phone", o["phone"], "heading-subject"), ".")
                x.add(
                    "\n\nVisitors should sign in at reception and wear the badge they are given. "
                    "Parking is limited; please use public transport where you can.\n"
                )
            else:  # HTML definition list
                x = self.doc(f"offices/{slug(o['city'])}.html", "office-page", f"{o['city']} office")
                x.add(
                    '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Kestrel Ashby — ',
                    h(o["city"]),
                    "</title></head>\n<body>\n<h1>Kestrel Ashby — ",
                    F(k % "city", o["city"], "heading"),
                    " office</h1>\n<dl>\n",
                    "  <dt>Office code</dt><dd>",
                    code,
                    "</dd>\n",
                    "  <dt>Street address</dt><dd>",
                    F(k % "address", o["address"], "html-dl"),
                    "</dd>\n",
                    "  <dt>Country</dt><dd>",
                    F(k % "country_code", COUNTRY_NATIVE[o["country_code"]], "html-dl", form="native-name"),
                    "</dd>\n",
                )
                dt_txt, ex = fdate(o["opened_on"], "date-eu")
                x.add("  <dt>Opened</dt><dd>", F(k % "opened_on", dt_txt, "html-dl", ex, "date-eu"), "</dd>\n")
                if o["phone"]:
                    x.add("  <dt>Telephone</dt><dd>", F(k % "phone", o["phone"], "html-dl"), "</dd>\n")
                else:
                    x.add(
                        "  <dt>Telephone</dt><dd>",
                        F(k % "phone", "no switchboard", "html-dl", form="null-stated"),
                        " (calls are routed through Bergen)</dd>\n",
                    )
                x.add("</dl>\n<p>Opening hours 08:00–17:00 local time.</p>\n</body></html>\n")
        # transposed directory: offices as columns
        x = self.doc("offices/directory.md", "office-directory", "Office directory")
        x.add("# Office directory\n\nOne column per office. Codes are the internal cost-centre codes.\n")
        for part in (codes[:4], codes[4:]):
            x.add("\n| |")
            for c in part:
                x.add(" ", F(f"offices.city@{c}", self.city(c), "transposed-table"), " |")
            x.add("\n|---|" + "---|" * len(part) + "\n| Code |")
            for c in part:
                x.add(f" {c} |")
            x.add("\n| Country |")
            for c in part:
                x.add(
                    " ",
                    F(
                        f"offices.country_code@{c}",
                        COUNTRY_EN[self.offices[c]["country_code"]],
                        "transposed-table",
                        form="english-name",
                    ),
                    " |",
                )
            x.add("\n| Opened |")
            for c in part:
                t, ex = fdate(self.offices[c]["opened_on"], "iso")
                x.add(" ", F(f"offices.opened_on@{c}", t, "transposed-table", ex, "iso"), " |")
            x.add("\n")
        x.add("\nHead office is Leeds. Phone numbers are on each office's page.\n")

    # ------------------------------------------------------------------------------------------
    def write_people(self):
        rng = self.rng
        st = self.staff
        listed = [s for s in sorted(st) if d(st[s]["hired_on"]) <= self.roster_date]
        late = [s for s in sorted(st) if s not in listed]
        self.omitted["staff_after_roster"] = {
            "rule": "staff hired after the roster date (1 June 2023): not on the roster, no bio; their "
            "grade, title, e-mail, hire date and office are not stated",
            "staff_ids": late,
            "fact_keys": [
                f"staff.{c}@{s}"
                for s in late
                for c in ("job_title", "grade", "office_code", "hired_on", "email", "reports_to")
            ],
        }
        self.late_staff = set(late)
        # roster (HTML table)
        x = self.doc("people/roster.html", "roster", "Staff roster")
        x.add(
            '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Staff roster</title></head>\n<body>\n'
            "<h1>Staff roster</h1>\n<p>As of 1 June 2023. Sorted by surname.</p>\n<table>\n"
            "<tr><th>Name</th><th>Job title</th><th>Grade</th><th>Office</th><th>E-mail</th></tr>\n"
        )
        for s in sorted(listed, key=lambda s: (st[s]["last_name"], st[s]["first_name"], st[s]["suffix"] or "")):
            r = st[s]
            k = f"staff.%s@{s}"
            x.add(
                "<tr><td>",
                *self.names(s, "name-reordered", "html-table"),
                "</td><td>",
                F(k % "job_title", r["job_title"], "html-table"),
                "</td><td>",
                F(k % "grade", r["grade"], "html-table"),
                "</td><td>",
                F(
                    k % "office_code",
                    r["office_code"] if s % 5 == 0 else self.city(r["office_code"]),
                    "html-table",
                    form="code" if s % 5 == 0 else "office-city",
                ),
                "</td><td>",
                F(k % "email", r["email"], "html-table"),
                "</td></tr>\n",
            )
        x.add("</table>\n</body></html>\n")

        # org chart: nested bullet list (directors, associates, senior engineers)
        x = self.doc("people/org-chart.md", "org-chart", "Organisation chart")
        x.add("# Organisation chart\n\nManagement and senior staff only; indentation shows who reports to whom.\n\n")
        senior = {s for s in listed if st[s]["grade"] in ("Director", "Associate", "Senior Engineer")}

        def walk(s, depth):
            r = st[s]
            key = f"staff.reports_to@{s}"
            x.add("  " * depth + "- ")
            if depth:
                x.add(self.P(key, s, "name-honorific", "nested-list"))
            else:
                x.add(*self.names(s, "name-honorific", "nested-list"))
            x.add(" — ", F(f"staff.job_title@{s}", r["job_title"], "nested-list"), "\n")
            for c in sorted(senior):
                if st[c]["reports_to"] == s:
                    walk(c, depth + 1)

        walk(1, 0)
        x.add("\nGraduates and engineers report to the head of their office.\n")

        # bios in rotating layouts
        pool = sorted(s for s in listed if s != 1)
        must = [1, 2, 4, 5, 7, 8, 19, 20, 40, 41, 6, 21]
        others = [s for s in pool if s not in must]
        chosen = must + sorted(rng.sample(others, 10))
        self.bio_staff = set(chosen)
        for i, s in enumerate(chosen):
            r = st[s]
            k = f"staff.%s@{s}"
            layout = i % 4
            he = "He" if r["first_name"] in MALE else "She"
            his = "His" if he == "He" else "Her"
            fslug = slug(full(r))
            if layout == 0:  # prose with a pronoun chain
                dform = pick(rng, ["date-apos", "date-ordinal-us", "date-words", "date-abbrev"])
                x = self.doc(f"people/bios/{fslug}.md", "staff-bio", full(r))
                x.add(
                    "# ",
                    *self.heading_name(s),
                    "\n\n",
                    *self.names(s, "name", "heading-subject"),
                    " is ",
                    "a " if r["job_title"][0].lower() not in "aeiou" else "an ",
                    F(k % "job_title", r["job_title"], "prose"),
                    " in our ",
                    F(k % "office_code", self.city(r["office_code"]), "prose", form="office-city"),
                    " office. ",
                )
                t, ex = fdate(r["hired_on"], dform)
                x.add(he, " joined Kestrel Ashby on ", F(k % "hired_on", t, "pronoun", ex, dform))
                if r["reports_to"]:
                    x.add(" and reports to ", self.P(k % "reports_to", r["reports_to"], "name-initial", "pronoun"))
                x.add(". ", his, " e-mail address is ", F(k % "email", r["email"], "pronoun"), ".\n")
                if r["bio"]:
                    x.add("\n", F(k % "bio", r["bio"], "heading-subject"), "\n")
            elif layout == 1:  # YAML front matter + definition list
                x = self.doc(f"people/bios/{fslug}.md", "staff-bio", full(r))
                x.add(
                    "---\nname: ",
                    *self.names(s, "name-honorific", "yaml-front-matter"),
                    "\nstaff_no: ",
                    str(s),
                    "\n---\n\n",
                    *self.names(s, "name", "definition-list"),
                    "\n: ",
                    F(k % "job_title", r["job_title"], "definition-list"),
                    "\n\n",
                )
                x.add("Grade\n: ", F(k % "grade", r["grade"], "definition-list"), "\n\n")
                x.add(
                    "Office\n: ",
                    F(k % "office_code", self.city(r["office_code"]), "definition-list", form="office-city"),
                    " (",  # truth audit: the code in brackets states the office too
                    F(k % "office_code", r["office_code"], "definition-list", form="code"),
                    ")\n\n",
                )
                if r["reports_to"]:
                    x.add(
                        "Line manager\n: ",
                        self.P(k % "reports_to", r["reports_to"], "name-reordered", "definition-list"),
                        "\n\n",
                    )
                t, ex = fdate(r["hired_on"], "date-ordinal-us")
                x.add("Joined\n: ", F(k % "hired_on", t, "definition-list", ex, "date-ordinal-us"), "\n")
                if r["bio"]:
                    x.add("\nAbout\n: ", F(k % "bio", r["bio"], "definition-list"), "\n")
            elif layout == 2:  # Q&A interview for the staff newsletter
                x = self.doc(f"people/bios/{fslug}-interview.md", "staff-interview", f"Five minutes with {full(r)}")
                x.add(
                    "# Five minutes with ",
                    *self.names(s, "name", "heading"),
                    "\n\n",
                    "**Q: What do you do here?**\n",
                    "A: I'm ",
                    "a " if r["job_title"][0].lower() not in "aeiou" else "an ",
                    F(k % "job_title", r["job_title"], "qa"),
                    ".\n\n",
                    "**Q: Which office are you in?**\n",
                    "A: ",
                    F(k % "office_code", self.city(r["office_code"]), "qa", form="office-city"),
                    ", most days.\n\n",
                )
                t, ex = fdate(r["hired_on"], "year-only")
                x.add(
                    "**Q: How long have you been with us?**\n",
                    "A: I started in ",
                    F(k % "hired_on", t, "qa", ex, "year-only"),
                    ".\n\n",
                    "**Q: Best thing about the job?**\n",
                    "A: Being on site at six in the morning when the tide is out.\n",
                )
            else:  # HTML profile card
                x = self.doc(f"people/bios/{fslug}.html", "staff-profile", full(r))
                x.add(
                    '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>',
                    *self.names(s, "name", "heading"),
                    "</title></head>\n<body>\n<h1>",
                    *self.heading_name(s),
                    "</h1>\n<table>\n",
                    "<tr><th>Role</th><td>",
                    F(k % "job_title", r["job_title"], "html-table"),
                    "</td></tr>\n",
                    "<tr><th>Grade</th><td>",
                    F(k % "grade", r["grade"], "html-table"),
                    "</td></tr>\n",
                    "<tr><th>Based in</th><td>",
                    F(k % "office_code", self.city(r["office_code"]), "html-table", form="office-city"),
                    "</td></tr>\n",
                )
                t, ex = fdate(r["hired_on"], "date-eu")
                x.add(
                    "<tr><th>With us since</th><td>",
                    F(k % "hired_on", t, "html-table", ex, "date-eu"),
                    "</td></tr>\n",
                    "<tr><th>E-mail</th><td>",
                    F(k % "email", r["email"], "html-table"),
                    "</td></tr>\n</table>\n",
                )
                if r["bio"]:
                    x.add("<p>", F(k % "bio", r["bio"], "heading-subject"), "</p>\n")
                x.add("</body></html>\n")

    # ------------------------------------------------------------------------------------------
    def write_clients(self):
        self.omitted["clients_entirely"] = {
            "rule": "5 clients (seeded): no account page and never named; none of their projects, "
            "invoices or site visits appears in any document",
            "client_ids": self.hidden_clients,
            "fact_keys": [
                f"clients.{c}@{i}"
                for i in self.hidden_clients
                for c in (
                    "sector",
                    "country_code",
                    "city",
                    "contact_name",
                    "contact_email",
                    "phone",
                    "client_since",
                    "credit_limit",
                )
                if self.clients[i][c] is not None
            ],
        }
        self.omitted["client_phones"] = {
            "rule": "phone numbers of 5 further clients ('on request'); their other facts are stated",
            "fact_keys": [f"clients.phone@{i}" for i in self.hidden_phones],
        }
        shown = [c for c in sorted(self.clients) if c not in self.hidden_clients]
        for n, cid in enumerate(shown):
            c = self.clients[cid]
            k = f"clients.%s@{cid}"
            acct = f"C-{cid:03d}"
            layout = n % 5
            split = cid in self.split_credit
            name = c["name"]
            phone_ok = c["phone"] and cid not in self.hidden_phones

            def credit(how, form, c=c, k=k, split=split):
                if split or c["credit_limit"] is None:
                    return None
                t, ex = money(c["credit_limit"], "EUR", form)
                return F(k % "credit_limit", t, how, ex, "money-" + form)

            if layout == 0:  # prose under a heading naming the client, pronoun chain
                x = self.doc(f"clients/{slug(name)}.md", "client-page-prose", name)
                t, ex = fdate(c["client_since"], "date-words")
                x.add(
                    "# ",
                    name,
                    "\n\nAccount ",
                    acct,
                    ". A ",
                    F(k % "sector", c["sector"].lower(), "heading-subject", form="lowercase"),
                    "-sector client based in ",
                    F(k % "city", c["city"], "heading-subject"),
                    " (",
                    F(k % "country_code", COUNTRY_NATIVE[c["country_code"]], "heading-subject", form="native-name"),
                    "). They have been with us since ",
                    F(k % "client_since", t, "pronoun", ex, "date-words"),
                    ".",
                )
                if c["contact_name"]:
                    x.add(" Their main contact is ", F(k % "contact_name", c["contact_name"], "pronoun"))
                    if c["contact_email"]:
                        x.add(" (", F(k % "contact_email", c["contact_email"], "pronoun"), ")")
                    x.add(".")
                if phone_ok:
                    x.add(" Switchboard: ", F(k % "phone", c["phone"], "heading-subject"), ".")
                cr = credit("heading-subject", "k")
                if cr:
                    x.add("\n\nCredit limit agreed with finance: ", cr, ".")
                x.add("\n")
            elif layout == 1:  # definition list
                x = self.doc(f"clients/{slug(name)}.md", "client-page-deflist", name)
                x.add(
                    "# ",
                    name,
                    "\n\nAccount number\n: ",
                    acct,
                    "\n\nSector\n: ",
                    F(k % "sector", c["sector"], "definition-list"),
                    "\n\nLocation\n: ",
                    F(k % "city", c["city"], "definition-list"),
                    ", ",
                    F(k % "country_code", c["country_code"], "definition-list", form="iso"),
                    "\n\n",
                )
                if c["contact_name"]:
                    x.add("Contact\n: ", F(k % "contact_name", c["contact_name"], "definition-list"), "\n")
                    if c["contact_email"]:
                        x.add(": ", F(k % "contact_email", c["contact_email"], "definition-list"), "\n")
                    x.add("\n")
                if phone_ok:
                    x.add("Telephone\n: ", F(k % "phone", c["phone"], "definition-list"), "\n\n")
                elif c["phone"]:
                    x.add("Telephone\n: on request\n\n")
                t, ex = fdate(c["client_since"], "date-apos")
                x.add("Client since\n: ", F(k % "client_since", t, "definition-list", ex, "date-apos"), "\n")
                cr = credit("definition-list", "code-eu")
                if cr:
                    x.add("\nCredit limit\n: ", cr, "\n")
            elif layout == 2:  # HTML key/value table
                x = self.doc(f"clients/{slug(name)}.html", "client-page-table", name)
                x.add(
                    '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>',
                    h(name),
                    "</title></head>\n<body>\n<h1>",
                    h(name),
                    "</h1>\n<table>\n",
                    "<tr><td>Account</td><td>",
                    acct,
                    "</td></tr>\n",
                    "<tr><td>Sector</td><td>",
                    F(k % "sector", c["sector"], "html-table"),
                    "</td></tr>\n",
                    "<tr><td>City</td><td>",
                    F(k % "city", c["city"], "html-table"),
                    "</td></tr>\n",
                    "<tr><td>Country</td><td>",
                    F(k % "country_code", COUNTRY_EN[c["country_code"]], "html-table", form="english-name"),
                    "</td></tr>\n",
                )
                if c["contact_name"]:
                    x.add(
                        "<tr><td>Contact</td><td>",
                        F(k % "contact_name", c["contact_name"], "html-table"),
                        "</td></tr>\n",
                    )
                if c["contact_email"]:
                    x.add(
                        "<tr><td>E-mail</td><td>",
                        F(k % "contact_email", c["contact_email"], "html-table"),
                        "</td></tr>\n",
                    )
                if phone_ok:
                    x.add("<tr><td>Phone</td><td>", F(k % "phone", c["phone"], "html-table"), "</td></tr>\n")
                t, ex = fdate(c["client_since"], "date-us")
                x.add("<tr><td>Since</td><td>", F(k % "client_since", t, "html-table", ex, "date-us"), "</td></tr>\n")
                cr = credit("html-table", "eu-sym")
                if cr:
                    x.add("<tr><td>Credit limit</td><td>", cr, "</td></tr>\n")
                x.add("</table>\n</body></html>\n")
            elif layout == 3:  # fixed-width CRM export
                x = self.doc(f"clients/export-{acct.lower()}.txt", "client-export", name)
                x.add(
                    "KESTREL ASHBY CRM — ACCOUNT EXPORT\n",
                    "=" * 40,
                    "\n",
                    "ACCOUNT.........: ",
                    acct,
                    "\nNAME............: ",
                    name,
                    "\n",
                    "SECTOR..........: ",
                    F(k % "sector", c["sector"].upper(), "kv-text", form="uppercase"),
                    "\n",
                    "CITY............: ",
                    F(k % "city", c["city"], "kv-text"),
                    "\n",
                    "COUNTRY.........: ",
                    F(k % "country_code", c["country_code"], "kv-text", form="iso"),
                    "\n",
                    "CONTACT.........: ",
                    F(k % "contact_name", c["contact_name"], "kv-text") if c["contact_name"] else "-",
                    "\n",
                    "EMAIL...........: ",
                    F(k % "contact_email", c["contact_email"], "kv-text")
                    if c["contact_email"]
                    else F(k % "contact_email", "-", "kv-text", form="null-dash"),
                    "\n",
                    "PHONE...........: ",
                    F(k % "phone", c["phone"], "kv-text") if phone_ok else "-",
                    "\n",
                )
                t, ex = fdate(c["client_since"], "iso")
                x.add("SINCE...........: ", F(k % "client_since", t, "kv-text", ex, "iso"), "\n")
                cr = credit("kv-text", "plain")
                x.add("CREDIT LIMIT EUR: ", cr if cr else "", "\n")
            else:  # YAML front matter naming the subject, short body with a Q&A
                x = self.doc(f"clients/{slug(name)}-profile.md", "client-page-yaml", name)
                x.add(
                    "---\nclient: ",
                    name,
                    "\naccount: ",
                    acct,
                    "\nsector: ",
                    F(k % "sector", c["sector"], "yaml-front-matter"),
                    "\ncountry: ",
                    F(k % "country_code", c["country_code"], "yaml-front-matter", form="iso"),
                    "\n---\n\n",
                )
                x.add("Head office in ", F(k % "city", c["city"], "heading-subject"), ".")
                if c["contact_name"]:
                    x.add(" Ask for ", F(k % "contact_name", c["contact_name"], "heading-subject"), ".")
                t, ex = fdate(c["client_since"], "month-year" if cid % 2 else "date-words-us")
                x.add(
                    "\n\n**Q: Since when do we work for them?**\nA: Since ",
                    F(k % "client_since", t, "qa", ex, "month-year" if cid % 2 else "date-words-us"),
                    ".\n",
                )
                cr = credit("qa", "sym")
                if cr:
                    x.add("\n**Q: What is their credit limit?**\nA: ", cr, ".\n")
            self.client_doc = getattr(self, "client_doc", {})
            self.client_doc[cid] = x.id
        # the register that completes the split clients' pages (their credit limit by account only)
        x = self.doc("finance/credit-register.txt", "register", "Credit limit register")
        x.add("CREDIT LIMIT REGISTER (finance use only)\nAccount   Limit (EUR)\n")
        for cid in self.split_credit:
            c = self.clients[cid]
            sp = f"split-client-{cid}-credit"
            t, ex = money(c["credit_limit"], "EUR", "plain")
            x.add(
                f"C-{cid:03d}     ", F(f"clients.credit_limit@{cid}", t, "split", ex, "money-plain", split_id=sp), "\n"
            )
            self.splits.append(
                {
                    "fact_key": f"clients.credit_limit@{cid}",
                    "split_id": sp,
                    "doc_ids": [self.client_doc[cid], x.id],
                    "note": "the account page names the client and its account number; the register "
                    "gives the limit for the account number only",
                }
            )
        x.add("\nLimits are reviewed each April.\n")

    # ------------------------------------------------------------------------------------------
    def write_services(self):
        rng = self.rng
        codes = sorted(self.services, key=lambda c: (self.services[c]["discipline"], c))
        x = self.doc("services/catalogue.md", "catalogue", "Service catalogue")
        x.add(
            "# Service catalogue 2024\n\nDay rates in EUR, excluding VAT and expenses.\n\n"
            "| Code | Service | Discipline | Day rate (EUR) |\n|---|---|---|---|\n"
        )
        prev = None
        for c in codes:
            s = self.services[c]
            k = f"services.%s@{c}"
            x.add(f"| {c} | ", F(k % "name", s["name"], "table"), " | ")
            if s["discipline"] == prev:
                x.add(F(k % "discipline", "〃", "ditto", form="ditto"))
            else:
                x.add(F(k % "discipline", s["discipline"], "table"))
            prev = s["discipline"]
            t, ex = money(s["day_rate"], "EUR", "plain")
            x.add(" | ", F(k % "day_rate", t, "table", ex, "money-plain"), " |\n")
        x.add("\n〃 = same as above.\n")
        sheets = sorted(rng.sample(sorted(self.services), 8))
        self.omitted["service_descriptions"] = {
            "rule": "descriptions of the services without a service sheet",
            "fact_keys": [f"services.description@{c}" for c in sorted(self.services) if c not in sheets],
        }
        for i, c in enumerate(sheets):
            s = self.services[c]
            k = f"services.%s@{c}"
            x = self.doc(f"services/{c.lower()}-{slug(s['name'])}.md", "service-sheet", s["name"])
            x.add(
                "# ",
                s["name"],
                "\n\n## What we do\n\n",
                F(k % "description", s["description"], "heading-subject"),
                "\n\n## Rate\n\n",
            )
            form = ["sym", "code", "k", "code-eu"][i % 4]
            t, ex = money(s["day_rate"], "EUR", form)
            x.add(F(k % "day_rate", t, "heading-2up", ex, "money-" + form), " per consultant day.\n")
        # FAQ with Q&A blocks
        x = self.doc("services/faq.md", "faq", "Services FAQ")
        x.add("# Services — frequently asked questions\n\n")
        for c in sorted(rng.sample(sorted(self.services), 5)):
            s = self.services[c]
            t, ex = money(s["day_rate"], "EUR", "sym")
            x.add(
                "**Q: What does ",
                s["name"].lower(),
                " cost?**\n\nA: ",
                F(f"services.day_rate@{c}", t, "qa", ex, "money-sym"),
                " a day, plus expenses. It sits in our ",
                F(f"services.discipline@{c}", s["discipline"].lower(), "qa", form="lowercase"),
                " team.\n\n",
            )
        x.add("**Q: Do you work outside Europe?**\n\nA: Rarely, and only with a local partner.\n")

    # ------------------------------------------------------------------------------------------
    def project_docs(self):
        rng = self.rng
        docs = sorted(p for p in self.projects if p not in self.hidden_projects)
        chosen = sorted(rng.sample(docs, 32))
        return docs, chosen

    def budget_fact(self, p, how, form):
        r = self.projects[p]
        return self.money_f(f"projects.budget@{p}", p, r["budget"], how, form)

    def money_f(self, key, p, value, how, form):
        """An amount of project P's currency; a currency code or sign in it states the currency too."""
        cur = self.projects[p]["currency"]
        t, ex = money(value, cur, form)
        extra = []
        for tok, f in ((cur, "code"), (CUR_SYM.get(cur), "symbol")):
            if tok and tok in t:
                a = t.index(tok)
                extra.append((f"projects.currency@{p}", a, a + len(tok), how, f, True))
        return F(key, t, how, ex, "money-" + form, extra=extra)

    def budget_form(self, p, i):
        cur = self.projects[p]["currency"]
        if cur in ("SEK", "NOK", "DKK"):
            return ["nordic", "k", "mio", "code"][i % 4]
        return ["sym", "k", "mio", "code-eu"][i % 4]

    def write_projects(self):
        docs, chosen = self.project_docs()
        self.documented_projects = set(docs)
        hp = sorted(self.hidden_projects)
        keys = [
            f"projects.{c}@{p}" for p in hp for c, v in self.projects[p].items() if c != "project_id" and v is not None
        ]
        keys += [f"project_staff.staff_id@{p}|{m['staff_id']}" for p in hp for m in self.team[p]]
        keys += [
            f"invoices.invoice_no@{v['project_id']}|{v['invoice_no']}"
            for v in self.invoices
            if v["project_id"] in self.hidden_projects
        ]
        keys += [
            f"site_visits.project_id@{v['visit_id']}" for v in self.visits if v["project_id"] in self.hidden_projects
        ]
        self.omitted["projects_of_hidden_clients"] = {
            "rule": "projects of the hidden clients: never mentioned, nor their teams, invoices or site visits "
            "(listed: each project's columns, its team rows, its invoices, its visits' project hop)",
            "project_ids": hp,
            "fact_keys": keys,
        }
        self.omitted["public_sector_budgets"] = {
            "rule": "budgets of public-sector projects are 'confidential' in every document",
            "fact_keys": sorted(
                f"projects.budget@{p}" for p in self.confidential_budget if p in self.documented_projects
            ),
        }
        st = self.staff
        for i, p in enumerate(chosen):
            r = self.projects[p]
            k = f"projects.%s@{p}"
            client = self.clients[r["client_id"]]
            svc = self.services[r["service_code"]]
            layout = i % 4
            conf = p in self.confidential_budget
            if layout == 0:  # Markdown with three heading levels; subject two levels up
                x = self.doc(f"projects/{p}-{slug(r['title'])}.md", "project-sheet", r["title"])
                x.add(
                    "# ",
                    str(p),
                    " — ",
                    r["title"],
                    "\n\n## Overview\n\n",
                    F(k % "description", r["description"], "heading-subject"),
                    "\n\n",
                    "Client: ",
                    F(k % "client_id", client["name"], "heading-subject"),
                    " · Service: ",
                    F(k % "service_code", svc["name"], "heading-subject", form="service-name"),
                    " · Run from the ",
                    F(k % "office_code", self.city(r["office_code"]), "heading-subject", form="office-city"),
                    " office.\n\n## Commercial\n\n### Budget\n\n",
                )
                if conf:
                    x.add("Confidential.\n\n")
                else:
                    x.add(self.budget_fact(p, "heading-2up", self.budget_form(p, i)), ", fixed fee.\n\n")
                x.add("### Dates\n\n")
                t, ex = fdate(r["start_date"], "date-words")
                x.add("Started ", F(k % "start_date", t, "heading-2up", ex, "date-words"))
                if r["end_date"]:
                    t, ex = fdate(r["end_date"], "date-words")
                    x.add("; finished ", F(k % "end_date", t, "heading-2up", ex, "date-words"))
                x.add(". Status: ", F(k % "status", r["status"], "heading-2up"), ".\n\n## Team\n\n")
                lead = [m for m in self.team[p] if m["role"] == "lead"]
                rest = [m for m in self.team[p] if m["role"] != "lead"]
                for m in lead:
                    x.add(
                        "- ",
                        self.P(
                            f"projects.lead_id@{p}",
                            m["staff_id"],
                            "name-honorific",
                            "nested-list",
                            also=[f"project_staff.staff_id@{p}|{m['staff_id']}"],
                        ),
                        " — ",
                        F(f"project_staff.role@{p}|{m['staff_id']}", "lead", "nested-list"),
                    )
                    if m["hours_budgeted"]:
                        x.add(
                            ", ",
                            F(
                                f"project_staff.hours_budgeted@{p}|{m['staff_id']}",
                                f"{m['hours_budgeted']} h",
                                "nested-list",
                                form="number-unit",
                            ),
                        )
                    x.add("\n")
                for m in rest:
                    x.add(
                        "  - ",
                        self.P(f"project_staff.staff_id@{p}|{m['staff_id']}", m["staff_id"], "name", "nested-list"),
                        " (",
                        F(f"project_staff.role@{p}|{m['staff_id']}", m["role"], "nested-list"),
                        ")\n",
                    )
            elif layout == 1:  # YAML front matter + prose with pronoun
                x = self.doc(f"projects/{p}.md", "project-brief", r["title"])
                x.add(
                    "---\nproject: ",
                    str(p),
                    "\ntitle: ",
                    r["title"],
                    "\nstatus: ",
                    F(k % "status", r["status"], "yaml-front-matter"),
                    "\ncurrency: ",
                    F(k % "currency", r["currency"], "yaml-front-matter", form="code"),
                    "\n---\n\n",
                )
                x.add(
                    "We are working for ",
                    F(k % "client_id", client["name"], "heading-subject"),
                    " on this ",
                    F(k % "service_code", svc["name"].lower(), "heading-subject", form="service-name-lower"),
                    ". ",
                )
                lead = st[r["lead_id"]]
                x.add(
                    "It is led by ",
                    self.P(
                        k % "lead_id",
                        r["lead_id"],
                        "name-initial",
                        "pronoun",
                        also=[f"project_staff.staff_id@{p}|{r['lead_id']}"],
                    ),
                    " from the ",
                    F(k % "office_code", self.city(r["office_code"]), "pronoun", form="office-city"),
                    " office.",
                )
                t, ex = fdate(r["start_date"], "approx-date")
                x.add(" Work began in ", F(k % "start_date", t, "pronoun", ex, "approx-date"), ".")
                if not conf:
                    x.add(" The agreed budget is ", self.budget_fact(p, "pronoun", self.budget_form(p, i)), ".")
                x.add("\n\n", F(k % "description", r["description"], "heading-subject"), "\n")
            elif layout == 2:  # HTML sheet
                x = self.doc(f"projects/{p}.html", "project-sheet-html", r["title"])
                x.add(
                    '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>',
                    h(r["title"]),
                    "</title></head>\n<body>\n<h1>Project ",
                    str(p),
                    ": ",
                    h(r["title"]),
                    "</h1>\n<table>\n",
                    "<tr><th>Client</th><td>",
                    F(k % "client_id", client["name"], "html-table"),
                    "</td></tr>\n",
                    "<tr><th>Service</th><td>",
                    F(k % "service_code", r["service_code"], "html-table", form="code"),
                    "</td></tr>\n",
                    "<tr><th>Office</th><td>",
                    F(k % "office_code", r["office_code"], "html-table", form="code"),
                    "</td></tr>\n",
                    "<tr><th>",
                    F(f"project_staff.role@{p}|{r['lead_id']}", "Project lead", "html-table", form="label"),
                    "</th><td>",
                    self.P(
                        k % "lead_id",
                        r["lead_id"],
                        "name-reordered",
                        "html-table",
                        also=[f"project_staff.staff_id@{p}|{r['lead_id']}"],
                    ),
                    "</td></tr>\n",
                    "<tr><th>Status</th><td>",
                    F(k % "status", r["status"].upper(), "html-table", form="uppercase"),
                    "</td></tr>\n",
                )
                t, ex = fdate(r["start_date"], "date-eu")
                x.add("<tr><th>Start</th><td>", F(k % "start_date", t, "html-table", ex, "date-eu"), "</td></tr>\n")
                if r["end_date"]:
                    t, ex = fdate(r["end_date"], "date-eu")
                    x.add("<tr><th>End</th><td>", F(k % "end_date", t, "html-table", ex, "date-eu"), "</td></tr>\n")
                x.add(
                    "<tr><th>Budget</th><td>",
                    "confidential" if conf else self.budget_fact(p, "html-table", self.budget_form(p, i)),
                    "</td></tr>\n",
                )
                x.add(
                    "</table>\n<p>", F(k % "description", r["description"], "heading-subject"), "</p>\n</body></html>\n"
                )
            else:  # fixed-width export with the team block
                x = self.doc(f"projects/export-{p}.txt", "project-export", r["title"])
                x.add(
                    "PROJECT NO......: ",
                    str(p),
                    "\nTITLE...........: ",
                    r["title"],
                    "\n",
                    "CLIENT..........: ",
                    F(k % "client_id", client["name"].upper(), "kv-text", form="uppercase"),
                    "\n",
                    "SERVICE.........: ",
                    F(k % "service_code", r["service_code"], "kv-text", form="code"),
                    "\n",
                    "OFFICE..........: ",
                    F(k % "office_code", r["office_code"], "kv-text", form="code"),
                    "\n",
                    "STATUS..........: ",
                    F(k % "status", r["status"], "kv-text"),
                    "\n",
                )
                t, ex = fdate(r["start_date"], "iso")
                x.add("START...........: ", F(k % "start_date", t, "kv-text", ex, "iso"), "\n", "END.............: ")
                if r["end_date"]:
                    t, ex = fdate(r["end_date"], "iso")
                    x.add(F(k % "end_date", t, "kv-text", ex, "iso"))
                else:
                    x.add(F(k % "end_date", "-", "kv-text", form="null-dash"))
                x.add(
                    "\nBUDGET..........: ",
                    "CONFIDENTIAL" if conf else self.budget_fact(p, "kv-text", "code"),
                    "\n",
                    "TEAM............:\n",
                )
                for m in self.team[p]:
                    x.add(
                        "   ",
                        self.P(
                            f"project_staff.staff_id@{p}|{m['staff_id']}",
                            m["staff_id"],
                            "name-reordered",
                            "kv-text",
                            also=[f"projects.lead_id@{p}"] if m["role"] == "lead" else [],
                        ),
                        " " * max(1, 26 - len(self.sname(m["staff_id"], "name-reordered"))),
                        F(f"project_staff.role@{p}|{m['staff_id']}", m["role"], "kv-text"),
                        "\n",
                    )
        self.sheet_projects = set(chosen)

        # projects by office: tables whose office is given by the heading above them
        x = self.doc("projects/by-office.md", "project-list", "Projects by office")
        x.add("# Projects by office\n\nAll projects on our books, current and past.\n")
        for code in sorted(self.offices):
            ps = [p for p in docs if self.projects[p]["office_code"] == code]
            if not ps:
                continue
            x.add("\n## ", self.city(code), "\n\n| No. | Project | Status |\n|---|---|---|\n")
            for p in ps:
                r = self.projects[p]
                x.add(
                    f"| {p} | ",
                    F(f"projects.office_code@{p}", r["title"], "table-under-heading", form="title"),
                    " | ",
                    F(f"projects.status@{p}", r["status"], "table"),
                    " |\n",
                )
        # transposed comparisons: projects as columns
        others = [p for p in docs if p not in chosen]
        groups = [others[i : i + 4] for i in range(0, 12, 4)]
        for gi, grp in enumerate(groups):
            x = self.doc(f"projects/comparison-{gi + 1}.md", "project-comparison", f"Project comparison {gi + 1}")
            x.add("# Project comparison ", str(gi + 1), "\n\nPrepared for the quarterly board pack.\n\n| |")
            for p in grp:
                x.add(f" {p} |")
            x.add("\n|---|" + "---|" * len(grp) + "\n| Client |")
            for p in grp:
                x.add(
                    " ",
                    F(
                        f"projects.client_id@{p}",
                        self.clients[self.projects[p]["client_id"]]["name"],
                        "transposed-table",
                    ),
                    " |",
                )
            # truth audit: the row label "Lead" states each lead's role on the project, as "Project lead" does
            leads = [f"project_staff.role@{p}|{self.projects[p]['lead_id']}" for p in grp]
            x.add(
                "\n| ",
                F(leads[0], "Lead", "transposed-table", form="label",
                  extra=[(k, 0, 4, "transposed-table", "label", True) for k in leads[1:]]),
                " |",
            )
            for p in grp:
                x.add(
                    " ",
                    self.P(
                        f"projects.lead_id@{p}",
                        self.projects[p]["lead_id"],
                        "name",
                        "transposed-table",
                        also=[f"project_staff.staff_id@{p}|{self.projects[p]['lead_id']}"],
                    ),
                    " |",
                )
            x.add("\n| Service |")
            for p in grp:
                x.add(
                    " ",
                    F(f"projects.service_code@{p}", self.projects[p]["service_code"], "transposed-table", form="code"),
                    " |",
                )
            x.add("\n| Budget |")
            for j, p in enumerate(grp):
                if p in self.confidential_budget:
                    x.add(" confidential |")
                else:
                    x.add(" ", self.budget_fact(p, "transposed-table", "k" if j % 2 else "code"), " |")
            x.add("\n| Start |")
            for p in grp:
                t, ex = fdate(self.projects[p]["start_date"], "date-abbrev")
                x.add(" ", F(f"projects.start_date@{p}", t, "transposed-table", ex, "date-abbrev"), " |")
            x.add("\n")

    # ------------------------------------------------------------------------------------------
    def write_finance(self):
        inv = [v for v in self.invoices if v["project_id"] in self.documented_projects]
        years = {2019: "md", 2020: "txt", 2021: "html", 2022: "txt"}
        self.omitted["invoices_outside_ledgers"] = {
            "rule": "invoices issued before 2019 or after 2022: no ledger for those years",
            "fact_keys": sorted(
                f"invoices.invoice_no@{v['project_id']}|{v['invoice_no']}"
                for v in self.invoices
                if d(v["issued_on"]).year not in years
            ),
        }
        for y, fmt in years.items():
            rows = [v for v in inv if d(v["issued_on"]).year == y]
            rows.sort(key=lambda v: (v["project_id"], v["invoice_no"]))
            x = self.doc(f"finance/ledger-{y}.{fmt}", "ledger", f"Sales ledger {y}")
            dform = {2019: "date-abbrev", 2020: "date-eu", 2021: "iso", 2022: "date-us"}[y]

            def amt(v, how, y=y):
                cur = self.projects[v["project_id"]]["currency"]
                form = "nordic" if cur in ("SEK", "NOK", "DKK") else ("sym" if y in (2019, 2022) else "code-eu")
                return self.money_f(
                    f"invoices.amount@{v['project_id']}|{v['invoice_no']}", v["project_id"], v["amount"], how, form
                )

            prev = None
            if fmt == "md":
                x.add(
                    f"# Sales ledger {y}\n\n| Project | Invoice | Issued | Amount | Status | Paid |\n",
                    "|---|---|---|---|---|---|\n",
                )
            elif fmt == "html":
                x.add(
                    '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Sales ledger ',
                    str(y),
                    "</title></head>\n<body>\n<h1>Sales ledger ",
                    str(y),
                    "</h1>\n<table>\n"
                    "<tr><th>Project</th><th>Invoice</th><th>Issued</th><th>Amount</th><th>Status</th><th>Paid</th></tr>\n",
                )
            else:
                x.add(f"SALES LEDGER {y}\n", "PROJECT  INV  ISSUED       AMOUNT               STATUS    PAID\n")
            for v in rows:
                key = f"invoices.%s@{v['project_id']}|{v['invoice_no']}"
                same = v["project_id"] == prev
                proj = '"' if same else str(v["project_id"])
                how = "ditto" if same else ("table" if fmt == "md" else "html-table" if fmt == "html" else "kv-text")
                cell_how = "table" if fmt == "md" else "html-table" if fmt == "html" else "fixed-width"
                inv_f = F(key % "invoice_no", str(v["invoice_no"]), how, form="ditto-project" if same else "code")
                t, ex = fdate(v["issued_on"], dform)
                iss = F(key % "issued_on", t, cell_how, ex, dform)
                stt = F(key % "status", v["status"], cell_how)
                if v["paid_on"]:
                    pt, pex = fdate(v["paid_on"], dform)
                    paid = F(key % "paid_on", pt, cell_how, pex, dform)
                else:
                    paid = F(key % "paid_on", "-", cell_how, form="null-dash")
                if fmt == "md":
                    x.add(f"| {proj} | ", inv_f, " | ", iss, " | ", amt(v, cell_how), " | ", stt, " | ", paid, " |\n")
                elif fmt == "html":
                    x.add(
                        f"<tr><td>{h(proj)}</td><td>",
                        inv_f,
                        "</td><td>",
                        iss,
                        "</td><td>",
                        amt(v, cell_how),
                        "</td><td>",
                        stt,
                        "</td><td>",
                        paid,
                        "</td></tr>\n",
                    )
                else:
                    a = amt(v, cell_how)
                    x.add(
                        f"{proj:<9}",
                        inv_f,
                        " " * (5 - len(str(v["invoice_no"]))),
                        iss,
                        " " * max(1, 13 - len(t)),
                        a,
                        " " * max(1, 21 - len(a.text)),
                        stt,
                        " " * max(1, 10 - len(v["status"])),
                        paid,
                        "\n",
                    )
                prev = v["project_id"]
            if fmt == "md":
                x.add('\n" = same project as the line above.\n')
            elif fmt == "html":
                x.add("</table>\n<p>&quot; = same project as above.</p>\n</body></html>\n")
            else:
                x.add('\n" = same project as the line above. Amounts in the project currency.\n')
        self.ledger_invoices = [v for v in inv if d(v["issued_on"]).year in years]

    # ------------------------------------------------------------------------------------------
    def initials_legend(self, sids):
        by = defaultdict(list)
        for s in sorted(sids):
            r = self.staff[s]
            ini = (
                r["first_name"][0] + "".join(w[0] for w in r["last_name"].split() if w[0].isupper())
                if " " in r["last_name"]
                else r["first_name"][0] + r["last_name"][0]
            )
            by[ini.upper()].append(s)
        out = {}
        for ini, ss in by.items():
            if len(ss) == 1:
                out[ss[0]] = ini
            else:
                for j, s in enumerate(ss, start=1):
                    out[s] = f"{ini}{j}"
        return out

    def write_site(self):
        vis = [v for v in self.visits if v["project_id"] in self.documented_projects]
        halves = [(2021, 1), (2021, 2), (2022, 1), (2023, 1), (2023, 2)]
        self.omitted["site_visits_2022_h2"] = {
            "rule": "no visit log for July-December 2022: the weekly digest gives those visits' week (approximate), "
            "staff and project, never hours or findings",
            "fact_keys": sorted(
                f"site_visits.{c}@{v['visit_id']}"
                for v in self.visits
                for c in ("hours", "finding")
                if d(v["visit_date"]).year == 2022 and d(v["visit_date"]).month > 6 and v[c] is not None
            ),
        }
        for y, half in halves:
            rows = [v for v in vis if d(v["visit_date"]).year == y and (d(v["visit_date"]).month > 6) == (half == 2)]
            if not rows:
                continue
            leg = self.initials_legend({v["staff_id"] for v in rows})
            x = self.doc(f"site/visit-log-{y}-h{half}.txt", "visit-log", f"Site visit log {y} H{half}")
            dform = "iso" if half == 1 else "date-abbrev"
            x.add(f"SITE VISIT LOG {y} H{half}\n\nLegend: ")
            for j, (s, ini) in enumerate(sorted(leg.items(), key=lambda t: t[1])):
                x.add(", " if j else "", f"{ini} = ", *self.names(s, "name", "log-legend"))
            x.add("\n\n#     date          who   proj   hours  finding\n")
            for v in rows:
                k = f"site_visits.%s@{v['visit_id']}"
                t, ex = fdate(v["visit_date"], dform)
                x.add(
                    f"#{v['visit_id']:<5}",
                    F(k % "visit_date", t, "log", ex, dform),
                    " " * (14 - len(t)),
                    F(k % "staff_id", leg[v["staff_id"]], "log-legend", form="initials"),
                    " " * (6 - len(leg[v["staff_id"]])),
                    F(k % "project_id", str(v["project_id"]), "log", form="code"),
                    "   ",
                    F(k % "hours", f"{v['hours']:.1f}", "log", form="plain-number"),
                    "    ",
                )
                if v["finding"]:
                    x.add(F(k % "finding", v["finding"], "log"))
                else:  # truth audit: a NULL stated, as the ledgers' "-" is
                    x.add(F(k % "finding", "-", "log", form="null-dash"))
                x.add("\n")
        rows = [v for v in vis if d(v["visit_date"]).year == 2022 and d(v["visit_date"]).month > 6]
        x = self.doc("site/weekly-digest-2022-h2.md", "visit-digest", "Weekly site digest 2022 H2")
        x.add(
            "# Weekly site digest, second half of 2022\n\nThe detailed log for this period was lost in the "
            "file-server migration; this digest was rebuilt from calendars.\n\n"
        )
        for v in rows:
            k = f"site_visits.%s@{v['visit_id']}"
            t, ex = fdate(v["visit_date"], "iso-week")
            x.add(
                "- ",
                F(k % "visit_date", t, "card", ex, "iso-week"),
                ": ",
                self.P(k % "staff_id", v["staff_id"], "name", "card"),
                " at project ",
                F(k % "project_id", str(v["project_id"]), "card", form="code"),
                f" (visit #{v['visit_id']})\n",
            )

    # ------------------------------------------------------------------------------------------
    def write_mail_and_minutes(self):
        rng = self.rng
        st = self.staff
        # invoice e-mail threads: the amount is stated in the quoted part
        cands = [v for v in self.ledger_invoices if v["status"] in ("open", "disputed")]
        for v in sorted(rng.sample(cands, min(5, len(cands))), key=lambda v: (v["project_id"], v["invoice_no"])):
            p = self.projects[v["project_id"]]
            cl = self.clients[p["client_id"]]
            lead = st[p["lead_id"]]
            key = f"invoices.%s@{v['project_id']}|{v['invoice_no']}"
            ref = f"{v['project_id']}/{v['invoice_no']}"
            x = self.doc(f"mail/invoice-{v['project_id']}-{v['invoice_no']}.txt", "email-thread", f"Re: Invoice {ref}")
            t, ex = fdate(v["issued_on"], "date-words")
            form = "nordic" if p["currency"] in ("SEK", "NOK", "DKK") else "code"
            amt, aex = money(v["amount"], p["currency"], form)
            x.add(
                "From: accounts@kestrel-ashby.eu\nTo: ",
                *self.names(p["lead_id"], "name", "prose"),
                f"\nSubject: Re: Invoice {ref}\n\n",
                f"{lead['first_name']},\n\nStill nothing from ",
                # truth audit: the client's contact, the client being named in the quoted reply below
                F(f"clients.contact_name@{p['client_id']}", cl["contact_name"], "prose")
                if cl["contact_name"]
                else "the client",
                " on this one. Can you chase them at your next site meeting?\n\nAccounts\n\n",
                f"> On {t}, ",
                *self.names(p["lead_id"], "name", "quoted-reply"),
                " wrote:\n> Invoice ",
                F(key % "invoice_no", ref, "quoted-reply", form="code"),
                " for ",
                self.money_f(key % "amount", v["project_id"], v["amount"], "quoted-reply", form),
                " went out today to ",
                F(f"projects.client_id@{v['project_id']}", cl["name"], "quoted-reply"),  # truth audit
                ".\n> Status in the ledger: ",
                F(key % "status", v["status"], "quoted-reply"),
                ".\n",
            )
        # a client contact change, stated in a reply
        movers = [c for c in sorted(self.client_doc) if self.clients[c]["contact_name"]][:3]
        for cid in movers:
            c = self.clients[cid]
            x = self.doc(f"mail/contact-{slug(c['name'])}.txt", "email-thread", f"Contact at {c['name']}")
            x.add(
                "From: ",
                *self.names(1, "name-honorific", "prose"),
                "\nTo: all-leads\nSubject: Re: who do we call at ",
                c["name"],
                "?\n\n",
                "Yes — it's ",
                F(f"clients.contact_name@{cid}", c["contact_name"], "prose"),
                ", please keep the CRM up to date.\n\nAK\n\n> Does anyone know who our contact at ",
                c["name"],
                " is these days? The old number bounced.\n> — Priya\n",
            )
        # staffing e-mail: namesakes kept apart by Sr./Jr.
        x = self.doc("mail/hale-handover.txt", "email-thread", "Handover: Robert Hale")
        p5 = [
            m["project_id"]
            for ps in self.team.values()
            for m in ps
            if m["staff_id"] == 5 and m["project_id"] in self.documented_projects
        ]
        x.add(
            "From: Oliver Grant\nTo: Bristol office\nSubject: Which Robert?\n\nTo avoid the usual confusion: ",
            *self.names(2, "name", "prose"),
            " is the ",
            F("staff.job_title@2", "Technical Director", "prose"),
            " in ",
            F("staff.office_code@2", "Leeds", "prose", form="office-city"),
            "; his son, ",
            F("staff.job_title@5", "structural engineer", "prose", form="lowercase"),
            " ",
            *self.names(5, "name", "prose"),
            ", sits with us in ",
            F("staff.office_code@5", "Bristol", "prose", form="office-city"),
            ".",
        )
        if p5:
            x.add(
                " Jr. is on project ", F(f"project_staff.staff_id@{p5[0]}|5", str(p5[0]), "pronoun", form="code"), "."
            )
        x.add("\n\nOliver\n")
        # meeting minutes: staffing decisions (association rows), attendees (no facts)
        meetings = sorted(rng.sample(sorted(self.sheet_projects), 12))
        for mi in range(4):
            day = dt.date(2023, 2 + 2 * mi, 6 + mi)
            x = self.doc(
                f"meetings/{day.isoformat()}-resourcing.md", "minutes", f"Resourcing meeting {day.isoformat()}"
            )
            att = sorted(rng.sample([s for s in st if s not in self.late_staff], 5))
            x.add(f"# Resourcing meeting, {fdate(day.isoformat(), 'date-words')[0]}\n\n", "Present: ")
            for j, s in enumerate(att):
                x.add(", " if j else "", *self.names(s, "name-initial", "prose"))
            x.add("\n\n## Decisions\n\n")
            for p in meetings[mi * 3 : mi * 3 + 3]:
                r = self.projects[p]
                x.add(f"### {p} {r['title']}\n\n")
                mem = [m for m in self.team[p] if m["role"] != "lead"][:2]
                for m in mem:
                    x.add(
                        "- ",
                        self.P(
                            f"project_staff.staff_id@{p}|{m['staff_id']}",
                            m["staff_id"],
                            "name-initial",
                            "heading-subject",
                        ),
                        " stays on as ",
                        F(f"project_staff.role@{p}|{m['staff_id']}", m["role"], "heading-subject"),
                    )
                    if m["hours_budgeted"]:
                        x.add(
                            ", ",
                            F(
                                f"project_staff.hours_budgeted@{p}|{m['staff_id']}",
                                str(m["hours_budgeted"]),
                                "heading-subject",
                                form="plain-number",
                            ),
                            " hours budgeted",
                        )
                    x.add(".\n")
                if not mem:
                    x.add("- No change.\n")
                x.add("\n")
            x.add("## AOB\n\nThe summer party is in the Bristol office this year.\n")
        # an office FAQ with Q&A blocks
        x = self.doc("offices/faq.md", "faq", "Offices FAQ")
        x.add("# Offices — questions we get asked\n\n")
        for code in ("K-04", "K-06", "K-07"):
            o = self.offices[code]
            x.add(
                "**Q: Where exactly is the ",
                o["city"],
                " office?**\n\nA: ",
                F(f"offices.address@{code}", o["address"], "qa"),
                ", ",
                F(f"offices.country_code@{code}", COUNTRY_EN[o["country_code"]], "qa", form="english-name"),
                ".\n\n",
            )
        x.add("**Q: Which office is the oldest?**\n\nA: Leeds, our head office.\n")

    # ------------------------------------------------------------------------------------------
    def write_distractors_and_policies(self):
        dis = [
            (
                "crm/prospects/nordvik-shipping-holdings.md",
                "# Nordvik Shipping Holdings AS (prospect)\n\nParent company of a shipping group in Ålesund, Norge. "
                "Contact: Kjetil Dahlberg. Not a client; met at the Bergen port conference. Credit check pending.\n",
            ),
            (
                "crm/prospects/port-of-aberdour-harbour-trust.md",
                "# Port of Aberdour Harbour Trust\n\nA charity that runs the marina next to the Port of Aberdour. "
                "Contact Moira Frazer, +44 509 8532. We have never worked for them.\n",
            ),
            (
                "market/competitor-rates-2024.md",
                "# Competitor day rates (Fjordgeo AS, 2024)\n\n| Service | Day rate |\n|---|---|\n"
                "| Scour assessment | €1,450.00 |\n| Foundation design | €1,290.00 |\n"
                "| Hydrographic survey | €1,180.00 |\n"
                "| Quay wall design | €1,400.00 |\n",
            ),
            (
                "market/press-anna-keller-fjordgeo.md",
                "# Dr. Anna Keller joins Fjordgeo as Chief Engineer\n\n"
                "Fjordgeo AS of Trondheim has appointed Dr. Anna Keller "
                "(formerly of NTNU) as Chief Engineer from 3 March 2019. She will be based in Trondheim.\n",
            ),
            (
                "market/robert-hale-iii.txt",
                "CONFERENCE PROGRAMME, COASTAL ENGINEERING DAYS\n\n"
                "10:30  Robert Hale III, Hale Marine Consultants (Cardiff): "
                "scour at monopiles, twenty years on.\n11:15  Coffee.\n",
            ),
            (
                "crm/prospects/malmo-vatten-och-avfall.html",
                '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
                "<title>Malmö Vatten och Avfall</title></head>\n<body>\n"
                "<h1>Malmö Vatten och Avfall (prospect)</h1>\n<table>\n<tr><td>Sector</td><td>Water</td></tr>\n"
                "<tr><td>City</td><td>Malmö</td></tr>\n<tr><td>Contact</td><td>Lena Ekström</td></tr>\n"
                "</table>\n</body></html>\n",
            ),
            (
                "crm/prospects/hamburg-wasserwerke-sued.md",
                "# Hamburg Wasserwerke Süd — tender notice\n\n"
                "Tender for a reservoir embankment study in Hamburg-Harburg, "
                "budget 1,2 Mio. €, closing 14 April 2024. Contact Sabine Krausse.\n",
            ),
            (
                "crm/prospects/bristol-harbourside-estates.md",
                "# Bristol Harbourside Estates Ltd\n\nNot to be confused with our client Harbourside Bristol Estates. "
                "A letting agent on Welsh Back; contact Tessa Morgans.\n",
            ),
            (
                "crm/prospects/blue-tern-offshore-wind-2.md",
                "# Blue Tern Offshore Wind 2 Ltd\n\nSpecial-purpose vehicle for the second Blue Tern array, Aberdeen. "
                "No contract with us; its owner may bring the scour assessment to tender in 2025.\n",
            ),
            (
                "people/applicants/katrin-meyerhoff-cv.md",
                "# Katrin Meyerhoff — CV\n\nSenior Geotechnical Engineer, Bremen. Applied for the Hamburg vacancy on "
                "12 May 2023. E-mail k.meyerhoff@example.org.\n",
            ),
        ]
        for path, body in dis:
            x = self.doc(
                path,
                "distractor",
                body.split("\n")[0].lstrip("# ").strip() if not path.endswith(".html") else "Malmö Vatten och Avfall",
                distractor=True,
            )
            x.add(body)
        pol = [
            (
                "policies/expenses.md",
                "Expenses policy",
                "# Expenses policy\n\nClaim within 30 days. Receipts are "
                "required for anything over EUR 25. Mileage is paid at the national rate of the office you work in.\n",
            ),
            (
                "policies/site-safety.md",
                "Site safety rules",
                "# Site safety rules\n\nNever work alone on a quay edge. "
                "Life jackets within 2 m of water. Check the tide tables before any foreshore visit "
                "and tell your office "
                "when you are back.\n",
            ),
            (
                "policies/it-and-data.txt",
                "IT and data",
                "IT AND DATA\n\nLaptops are encrypted. Survey data go to the "
                "project share the same day. Never e-mail client drawings to a personal address.\n",
            ),
            (
                "policies/holidays.md",
                "Holidays",
                "# Holidays\n\nEach office follows its national public holidays. "
                "Book leave at least two weeks ahead; one week in August is shared across all offices.\n",
            ),
            (
                "policies/drones.html",
                "Drone flights",
                '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
                "<title>Drone flights</title></head>\n<body>\n<h1>Drone flights</h1>\n<p>Only certified pilots fly. "
                "Notify the client and the harbour master 48 hours ahead.</p>\n</body></html>\n",
            ),
            (
                "news/summer-newsletter.md",
                "Summer newsletter",
                "# Summer newsletter\n\nThanks to everyone who "
                "joined the fell race and the harbour clean-up. The bake-off was won by the night shift of the survey "
                "launch. See you all in September.\n",
            ),
        ]
        for path, title, body in pol:
            self.doc(path, "company-no-facts", title, no_fact=True).add(body)

    # ------------------------------------------------------------------------------------------
    def build(self):
        self.write_offices()
        self.write_people()
        self.write_clients()
        self.write_services()
        self.write_projects()
        self.write_finance()
        self.write_site()
        self.write_mail_and_minutes()
        self.write_distractors_and_policies()
        ids = [x.id for x in self.docs]
        stems = [os.path.splitext(i)[0] for i in ids]
        assert len(set(stems)) == len(stems), "two documents share a stem"
        for x in self.docs:
            assert not (x.distractor or x.no_fact) or not x.facts, x.id


MALE = {
    "Robert",
    "Jonas",
    "Pieter",
    "Søren",
    "Lars",
    "Tomás",
    "Oliver",
    "Henrik",
    "Mark",
    "Marc",
    "Felix",
    "Jan",
    "Hugo",
    "Erik",
    "Aidan",
    "George",
    "Lukas",
    "Ole",
    "Yusuf",
    "Andreas",
    "Björn",
    "Daniel",
    "Willem",
}


def write(corpus, out, db_rel):
    docs_dir = os.path.join(out, "docs")
    if os.path.isdir(docs_dir):
        shutil.rmtree(docs_dir)
    facts = []
    documents = []
    for x in corpus.docs:
        p = os.path.join(docs_dir, x.id)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(x.text())
        facts.extend(x.facts)
        tables = sorted({f["fact_key"].split(".", 1)[0] for f in x.facts})
        documents.append(
            {
                "doc_id": x.id,
                "kind": x.kind,
                "format": x.fmt,
                "title": x.title,
                "chars": len(x.text()),
                "n_statements": len(x.facts),
                "n_exact": sum(f["exact"] for f in x.facts),
                "n_distinct_facts": len({f["fact_key"] for f in x.facts}),
                "tables": tables,
                "distractor": x.distractor,
                "states_no_db_fact": not x.facts,
            }
        )
    exact_keys = {f["fact_key"] for f in facts if f["exact"]}
    all_keys = {f["fact_key"] for f in facts}
    truth = {
        "about": "Ground truth of the Kestrel Ashby corpus, recorded by make_corpus.py while each statement was "
        "written. Fact keys follow ragdx: Table.Column@pk, composite keys joined with '|'. A foreign key "
        "is stated as a hop (projects.client_id@1042); a row of a table whose primary key is composite "
        "and holds a foreign key is keyed by its last key column (project_staff.staff_id@project|staff, "
        "invoices.invoice_no@project|invoice). Offsets are character offsets into the file (HTML: into "
        "the escaped source).",
        "database": db_rel,
        "seed": corpus.seed,
        "facts": facts,
        "split_facts": corpus.splits,
        "distractor_doc_ids": [x.id for x in corpus.docs if x.distractor],
        "no_fact_doc_ids": [x.id for x in corpus.docs if not x.facts],
        "omitted": corpus.omitted,
        "documents": documents,
        "stats": {
            "documents": len(corpus.docs),
            "statements": len(facts),
            "distinct_facts_stated": len(all_keys),
            "distinct_facts_stated_exactly": len(exact_keys),
            "approximate_only_facts": sorted(all_keys - exact_keys),
            "by_format": dict(sorted(Counter(x.fmt for x in corpus.docs).items())),
            "by_kind": dict(sorted(Counter(x.kind for x in corpus.docs).items())),
            "by_how": dict(sorted(Counter(f["how"] for f in facts).items())),
            "by_form": dict(sorted(Counter(f["form"] for f in facts).items())),
        },
    }
    with open(os.path.join(out, "truth.json"), "w", encoding="utf-8", newline="\n") as fh:
        json.dump(truth, fh, ensure_ascii=False, indent=1, sort_keys=True)
        fh.write("\n")
    return truth


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", default=os.path.join(HERE, "kestrel.sqlite"))
    ap.add_argument("--out", default=HERE)
    ap.add_argument("--seed", type=int, default=1871)
    a = ap.parse_args(argv)
    c = Corpus(a.db, a.seed)
    c.build()
    db_rel = os.path.relpath(os.path.abspath(a.db), os.path.abspath(a.out))
    t = write(c, a.out, db_rel)
    s = t["stats"]
    print(
        f"{s['documents']} documents, {s['statements']} statements of {s['distinct_facts_stated']} facts "
        f"({s['distinct_facts_stated_exactly']} stated exactly)",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
