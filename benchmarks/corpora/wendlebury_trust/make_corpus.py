#!/usr/bin/env python3
"""Write the Wendlebury Hospitals NHS Trust outpatient document corpus (docs/) and its recorded truth
(truth.json) from wendlebury.sqlite.

    python3 make_corpus.py [--db wendlebury.sqlite] [--out .]

Every database fact a document states is recorded at the moment it is written (Doc.v), with its
character offsets (None for the PDFs); nothing is found by searching the text afterwards.  Standard
library only, seeded, deterministic.  Written blind to ragdx: nothing of ragdx's code was read and
ragdx was never run on these documents.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import random
import shutil
import sqlite3
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 7301
TRUST = "Wendlebury Hospitals NHS Trust"
MONTH_NAMES = {
    "2026-04": "April 2026",
    "2026-05": "May 2026",
    "2026-06": "June 2026",
    "2026-07": "July 2026",
    "2026-08": "August 2026",
    "2026-09": "September 2026",
}
COMMUNITY = ("BCH", "HHC", "NDC")
# team rows given only through the secretaries' desk numbers (split facts)
SPLIT_SPECS = ("TRAU", "OPHT")
FEMALE = {
    "Helen",
    "Claire",
    "Sara",
    "Amara",
    "Rebecca",
    "Fiona",
    "Leila",
    "Janet",
    "Priya",
    "Eleanor",
    "Catherine",
    "Megan",
    "Joanna",
    "Ruth",
    "Lucy",
    "Hannah",
}
SITE_SHORT = {
    "WGH": "Wendlebury General",
    "SMK": "St Mary's",
    "BCH": "Burnham Community",
    "HHC": "Hexley HC",
    "ORC": "Orchard Road",
    "NDC": "Norton Down",
}
# how a consultant's specialty is said in prose ("a consultant colorectal surgeon")
SPEC_PERSON = {
    "CARD": "cardiologist",
    "DERM": "dermatologist",
    "COLO": "colorectal surgeon",
    "TRAU": "orthopaedic surgeon",
    "OPHT": "ophthalmologist",
    "ENT": "ENT surgeon",
    "RHEU": "rheumatologist",
    "DIAB": "diabetologist",
    "GYNA": "gynaecologist",
    "UROL": "urologist",
}
WD_ABBREV = {"Monday": "Mon", "Tuesday": "Tues", "Wednesday": "Wed", "Thursday": "Thurs", "Friday": "Fri"}
NUM_WORDS = {
    8: "eight",
    10: "ten",
    12: "twelve",
    14: "fourteen",
    16: "sixteen",
    18: "eighteen",
    20: "twenty",
    24: "twenty-four",
}


# ------------------------------------------------------------------ values as the trust writes them
def t_ampm(t):  # 09:00 -> 9am, 13:30 -> 1.30pm
    h, m = int(t[:2]), int(t[3:])
    hh = h if h <= 12 else h - 12
    return f"{hh}{'' if m == 0 else f'.{m:02d}'}{'am' if h < 12 else 'pm'}"


def t_dots(t):  # 09:00 -> 9.00 a.m.
    h, m = int(t[:2]), int(t[3:])
    hh = h if h <= 12 else h - 12
    return f"{hh}.{m:02d} {'a.m.' if h < 12 else 'p.m.'}"


def t_end(t, minutes):
    m = int(t[:2]) * 60 + int(t[3:]) + minutes
    return f"{m // 60:02d}:{m % 60:02d}"


def t_range(t, minutes, dash="–"):
    return f"{t}{dash}{t_end(t, minutes)}"


def session_part(t):
    return "mornings" if t < "12:00" else "afternoons"


def num(v):  # 85.0 -> 85, 4.8 -> 4.8
    return f"{v:g}"


def pct(v, form):
    return {
        "pct": f"{num(v)}%",
        "per-cent": f"{num(v)} per cent",
        "fraction": f"{round(v / 100, 4):g}",
        "plain-number": num(v),
    }[form]


def weeks(v, form):
    return {
        "weeks-abbrev": f"{num(v)} wks",
        "number-unit": f"{num(v)} weeks",
        "hyphen-week": f"{num(v)}-week",
        "plain-number": num(v),
    }[form]


def desk_no(sid):
    return f"Desk {sid:02d}"


class Doc:
    def __init__(self, path, kind, title, distractor=False):
        self.path, self.kind, self.title, self.distractor = path, kind, title, distractor
        self.html = path.endswith(".html")
        self.pdf = path.endswith(".pdf")
        self.parts, self.n, self.facts = [], 0, []

    def add(self, s):
        s = str(s)
        self.parts.append(s)
        self.n += len(s)
        return self

    def v(self, s, keys=(), how="prose", form="verbatim", exact=True, split_id=None):
        """Write S (escaped in HTML) and record it as stating each fact key in KEYS."""
        s = str(s)
        out = html.escape(s, quote=False) if self.html else s
        start = self.n
        self.add(out)
        self.rec(s, start, keys, how, form, exact, split_id)
        return self

    def rec(self, s, start, keys, how, form, exact=True, split_id=None):
        """Record S, already written at START, as stating KEYS (a grid's row or column label)."""
        if isinstance(keys, str):
            keys = [keys]
        out = html.escape(s, quote=False) if self.html else s
        for k in keys:
            f = {
                "fact_key": k,
                "doc_id": self.path,
                "surface": s,
                "start": None if self.pdf else start,
                "end": None if self.pdf else start + len(out),
                "exact": exact,
                "how": how,
                "form": form,
            }
            if split_id:
                f["split_id"] = split_id
            self.facts.append(f)

    def text(self):
        return "".join(self.parts)


def K(table, col, *key):
    return f"{table}.{col}@" + "|".join(str(k) for k in key)


def pdf_bytes(text, title):
    """A small valid PDF 1.4: Courier, WinAnsi, 56 lines a page, uncompressed text."""
    lines = text.split("\n")
    pages = [lines[i : i + 56] for i in range(0, len(lines), 56)] or [[]]

    def esc(s):
        return s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        (
            "<< /Type /Pages /Kids ["
            + " ".join(f"{5 + 2 * i} 0 R" for i in range(len(pages)))
            + f"] /Count {len(pages)} >>"
        ).encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>",
        f"<< /Title ({esc(title)}) /Producer (wendlebury make_corpus.py) /CreationDate (D:20261015080000Z) >>".encode(
            "cp1252"
        ),
    ]
    for i, pg in enumerate(pages):
        body = ["BT", "/F1 9 Tf", "12 TL", "40 800 Td"] + [f"({esc(ln)}) Tj T*" for ln in pg] + ["ET"]
        stream = "\n".join(body).encode("cp1252")
        objs.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> "
            f"/Contents {6 + 2 * i} 0 R >>".encode()
        )
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


def initials_table(people):
    """Initials used in minutes: first + last initial; clashing ones take more letters of the first name."""
    out = {i: p["first_name"][0] + p["last_name"][0] for i, p in people.items()}
    k = 1
    while len(set(out.values())) < len(out):
        k += 1
        cnt = Counter(out.values())
        out = {
            i: (people[i]["first_name"][:k] + people[i]["last_name"][0]) if cnt[v] > 1 else v for i, v in out.items()
        }
    return out


class Corpus:
    def __init__(self, db):
        self.con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        self.con.row_factory = sqlite3.Row
        self.rnd = random.Random(SEED)
        self.docs, self.split, self.omitted = [], [], {}
        q = self.q
        self.si = {r["site_code"]: r for r in q("SELECT * FROM sites ORDER BY rowid")}
        self.sp = {r["specialty_code"]: r for r in q("SELECT * FROM specialties ORDER BY rowid")}
        self.cl = {r["clinician_id"]: r for r in q("SELECT * FROM clinicians ORDER BY clinician_id")}
        self.sv = {r["service_id"]: r for r in q("SELECT * FROM services ORDER BY service_id")}
        self.ck = {r["clinic_code"]: r for r in q("SELECT * FROM clinics ORDER BY clinic_code")}
        self.ws = {(r["clinic_code"], r["month"]): r for r in q("SELECT * FROM wait_stats ORDER BY 1, 2")}
        self.se = {r["secretary_id"]: r for r in q("SELECT * FROM secretaries ORDER BY secretary_id")}
        self.tm = q("SELECT * FROM team_members ORDER BY secretary_id, clinician_id")
        self.ini = initials_table(self.cl)
        self.spec_order = list(self.sp)

    def q(self, sql, *a):
        return self.con.execute(sql, a).fetchall()

    def doc(self, *a, **k):
        d = Doc(*a, **k)
        self.docs.append(d)
        return d

    def omit(self, group, rule, keys):
        g = self.omitted.setdefault(group, {"rule": rule, "fact_keys": []})
        g["fact_keys"].extend(keys)

    def clinics_of(self, spec):
        return [c for c in self.ck.values() if c["specialty_code"] == spec]

    # -------------------------------------------------------------- names
    def short_style(self, cid):
        p = self.cl[cid]
        same = [x for x in self.cl.values() if x["title"] == p["title"] and x["last_name"] == p["last_name"]]
        return "title-surname" if len(same) == 1 else "title-initial"

    def name_of(self, cid, style):
        p = self.cl[cid]
        t, fn, ln = p["title"], p["first_name"], p["last_name"]
        return {
            "name-title": f"{t} {fn} {ln}",
            "name": f"{fn} {ln}",
            "title-initial": f"{t} {fn[0]}. {ln}",
            "title-surname": f"{t} {ln}",
            "name-reordered-title": f"{ln}, {fn} ({t})",
            "initials": self.ini[cid],
        }[style]

    def cname(self, d, cid, keys, how, style):
        """Write a clinician's name; the titled styles also state clinicians.title."""
        if style == "short":
            style = self.short_style(cid)
        keys = [keys] if isinstance(keys, str) else list(keys)
        if style in ("name-title", "title-initial", "title-surname", "name-reordered-title"):
            keys.append(K("clinicians", "title", cid))
        d.v(self.name_of(cid, style), keys, how, style)
        return d

    def lead(self, d, code, how, style="short", tba="to be appointed"):
        c = self.ck[code]
        if c["consultant_id"] is None:
            d.v(tba, K("clinics", "consultant_id", code), how, "null-stated")
        else:
            self.cname(d, c["consultant_id"], K("clinics", "consultant_id", code), how, style)
        return d

    def site(self, d, sc, keys, how, style="name"):
        s = {"name": self.si[sc]["name"], "site-short": SITE_SHORT[sc], "code": sc}[style]
        d.v(s, keys, how, style)
        return d

    def pronoun(self, cid):
        return "She" if self.cl[cid]["first_name"] in FEMALE else "He"

    # -------------------------------------------------------------- GP referral guidance per specialty
    def referral(self):
        forms = ["number-unit", "weeks-abbrev", "hyphen-week"]
        for i, spec in enumerate(self.spec_order):
            sp = self.sp[spec]
            d = self.doc(f"gp-referral/{spec.lower()}.md", "referral-guidance", f"Referring to {sp['name']}")
            d.add(f"# Referring to {sp['name']}\n\n_Guidance for GPs and other referrers. Reviewed October 2026._\n\n")
            d.add("Clinical division: ").v(sp["division"], K("specialties", "division", spec), "card").add("\n\n")
            d.add("Refer through the e-Referral Service (e-RS). Incomplete referrals are returned to the practice.\n\n")
            d.add("## Services and waiting-time targets\n\n")
            for sv in self.sv.values():
                if sv["specialty_code"] != spec:
                    continue
                sid = sv["service_id"]
                d.add("### ").v(sv["name"], K("services", "specialty_code", sid), "heading-subject", "name").add("\n\n")
                d.add("**Refer if:** ").v(sv["criteria"], K("services", "criteria", sid), "kv-text").add("\n\n")
                f = forms[(i + sid) % 3]
                if f == "hyphen-week":
                    d.add("This is a ").v(weeks(sv["target_weeks"], f), K("services", "target_weeks", sid), "prose", f)
                    d.add(" pathway: the first appointment should be offered within that time of the referral.\n\n")
                else:
                    d.add("**Target:** first appointment within ")
                    d.v(weeks(sv["target_weeks"], f), K("services", "target_weeks", sid), "kv-text", f)
                    d.add(" of referral.\n\n")
            d.add("## Where we see patients\n\n")
            for c in self.clinics_of(spec):
                code = c["clinic_code"]
                d.add("- ").v(c["name"], K("clinics", "specialty_code", code), "heading-subject", "name").add(": ")
                self.site(d, c["site_code"], K("clinics", "site_code", code), "prose", "site-short").add(", ")
                d.v(
                    f"{c['weekday']} {session_part(c['start_time'])}",
                    K("clinics", "weekday", code),
                    "prose",
                    "weekday-plural",
                ).add("\n")
            d.add("\nAdvice and Guidance requests are answered within 5 working days.\n")

    # -------------------------------------------------------------- consultant profiles
    def profiles(self):
        cons = [c for c in self.cl.values() if c["grade"] == "Consultant"]
        for i, p in enumerate(cons):
            cid = p["clinician_id"]
            slug = f"{p['first_name']}-{p['last_name']}".lower()
            he = self.pronoun(cid)
            mine = [c for c in self.ck.values() if c["consultant_id"] == cid]
            if i % 4 == 3:
                d = self.doc(f"people/consultants/{slug}.html", "consultant-profile", self.name_of(cid, "name-title"))
                d.add(
                    '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Our consultants</title></head>'
                    "<body>\n<h1>"
                )
                self.cname(d, cid, [], "heading", "name-title")
                d.add('</h1>\n<p class="role">')
                d.v(p["grade"], K("clinicians", "grade", cid), "heading-subject").add(", ")
                d.v(
                    self.sp[p["specialty_code"]]["name"],
                    K("clinicians", "specialty_code", cid),
                    "heading-subject",
                    "name",
                )
                d.add("</p>\n<p>")
                d.add(f"{he} is based at ")
                self.site(d, p["base_site"], K("clinicians", "base_site", cid), "pronoun").add(". ")
                d.add(
                    f"{he} joined the trust after higher specialist training in the region and teaches medical "
                    "students from the local university.</p>\n"
                )
                if mine:
                    d.add("<h2>Clinics</h2>\n<ul>\n")
                    for c in mine:
                        code = c["clinic_code"]
                        d.add("<li>").v(c["name"], K("clinics", "consultant_id", code), "heading-subject", "name")
                        d.add(" – ").v(c["weekday"], K("clinics", "weekday", code), "heading-subject").add(", ")
                        d.v(t_ampm(c["start_time"]), K("clinics", "start_time", code), "heading-subject", "time-ampm")
                        d.add("</li>\n")
                    d.add("</ul>\n")
                d.add("<p><small>GMC reference: ").v(p["gmc_number"], K("clinicians", "gmc_number", cid), "kv-text")
                d.add("</small></p>\n</body></html>\n")
                continue
            d = self.doc(f"people/consultants/{slug}.md", "consultant-profile", self.name_of(cid, "name-title"))
            d.add("# ")
            self.cname(d, cid, [], "heading", "name-title")
            d.add("\n\n")
            short = self.short_style(cid)
            self.cname(d, cid, [], "prose", short)
            d.add(" is a ").v("consultant", K("clinicians", "grade", cid), "prose", "lowercase").add(" ")
            d.v(SPEC_PERSON[p["specialty_code"]], K("clinicians", "specialty_code", cid), "prose", "paraphrase")
            d.add(" based at ")
            self.site(d, p["base_site"], K("clinicians", "base_site", cid), "prose", "name" if i % 2 else "site-short")
            d.add(" (GMC no. ").v(p["gmc_number"], K("clinicians", "gmc_number", cid), "prose").add(").\n\n")
            if mine:
                c = mine[0]
                code = c["clinic_code"]
                d.add(f"{he} leads the ").v(c["name"], K("clinics", "consultant_id", code), "pronoun", "name")
                d.add(", which runs on ").v(
                    f"{c['weekday']} {session_part(c['start_time'])}",
                    K("clinics", "weekday", code),
                    "pronoun",
                    "weekday-plural",
                )
                d.add(" at ")
                self.site(d, c["site_code"], K("clinics", "site_code", code), "pronoun", "site-short")
                d.add(" from ").v(t_dots(c["start_time"]), K("clinics", "start_time", code), "pronoun", "time-dots")
                d.add(" onwards.")
                for c in mine[1:]:
                    code = c["clinic_code"]
                    d.add(f" {he} also runs the ").v(c["name"], K("clinics", "consultant_id", code), "pronoun", "name")
                    d.add(" (").v(WD_ABBREV[c["weekday"]], K("clinics", "weekday", code), "pronoun", "weekday-abbrev")
                    d.add(").")
                d.add("\n\n")
            else:
                d.add(f"{he} currently has no general outpatient clinic and sees patients referred by colleagues.\n\n")
            d.add(
                "Outside work " + ("she" if he == "She" else "he") + " is a keen walker and volunteers with a "
                "local mountain rescue team.\n"
            )

    # -------------------------------------------------------------- medical staffing list (HTML table)
    def staff_list(self):
        d = self.doc("people/medical-staff-list.html", "staff-list", "Medical staff by specialty")
        d.add(
            '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Medical staff</title></head><body>\n'
            "<h1>Medical staff, outpatient specialties</h1>\n<table>\n<thead><tr><th>Name</th><th>Grade</th>"
            "<th>Spec.</th><th>GMC</th><th>Base</th></tr></thead>\n<tbody>\n"
        )
        for p in sorted(self.cl.values(), key=lambda r: (r["last_name"], r["first_name"])):
            cid = p["clinician_id"]
            if p["gmc_number"] is None:
                continue
            d.add("<tr><td>")
            self.cname(d, cid, [], "html-table", "name-reordered-title")
            d.add("</td><td>").v(p["grade"], K("clinicians", "grade", cid), "html-table")
            d.add("</td><td>").v(p["specialty_code"], K("clinicians", "specialty_code", cid), "html-table", "code")
            d.add("</td><td>").v(p["gmc_number"], K("clinicians", "gmc_number", cid), "html-table")
            d.add("</td><td>").v(p["base_site"], K("clinicians", "base_site", cid), "html-table", "code")
            d.add("</td></tr>\n")
        d.add(
            "</tbody>\n</table>\n<p>Nurse specialists are listed on the nurse-led services page.</p>\n</body></html>\n"
        )

    def nurses(self):
        d = self.doc("services/nurse-led-clinics.md", "service-page", "Nurse-led services")
        d.add(
            "# Nurse-led services\n\nSeveral of our services are run by clinical nurse specialists, who can be "
            "contacted through the specialty's secretaries.\n\n"
        )
        for p in self.cl.values():
            if p["gmc_number"] is not None:
                continue
            cid = p["clinician_id"]
            d.add("**")
            self.cname(d, cid, [], "prose", "name")
            d.add("**, ").v(p["grade"], K("clinicians", "grade", cid), "prose").add(" in ")
            d.v(self.sp[p["specialty_code"]]["name"], K("clinicians", "specialty_code", cid), "prose", "name")
            d.add(", works from ")
            self.site(d, p["base_site"], K("clinicians", "base_site", cid), "prose")
            d.add(".\n\n")

    # -------------------------------------------------------------- timetables as grids
    def timetables(self):
        for i, spec in enumerate(self.spec_order):
            cl = self.clinics_of(spec)
            sites = [s for s in self.si if any(c["site_code"] == s for c in cl)]
            name = self.sp[spec]["name"]
            if i % 2 == 0:
                d = self.doc(f"timetables/{spec.lower()}.html", "timetable", f"{name} outpatient timetable")
                d.add(
                    f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{html.escape(name)} timetable'
                    f"</title></head><body>\n<h1>{html.escape(name)}: weekly outpatient timetable</h1>\n"
                    '<table border="1">\n<tr><th></th>'
                )
                col_at = {}
                for s in sites:
                    d.add("<th>")
                    col_at[s] = d.n
                    d.add(html.escape(SITE_SHORT[s], quote=False)).add("</th>")
                d.add("</tr>\n")
                for day in WD_ABBREV:
                    d.add("<tr><th>")
                    row_at = d.n
                    d.add(day).add("</th>")
                    for s in sites:
                        d.add("<td>")
                        here = [c for c in cl if c["weekday"] == day and c["site_code"] == s]
                        for j, c in enumerate(here):
                            code = c["clinic_code"]
                            if j:
                                d.add("<br>")
                            d.v(c["name"], K("clinics", "specialty_code", code), "heading-subject", "name")
                            d.rec(day, row_at, K("clinics", "weekday", code), "grid-row", "verbatim")
                            d.rec(
                                SITE_SHORT[s], col_at[s], K("clinics", "site_code", code), "grid-column", "site-short"
                            )
                            d.add("<br>")
                            self.lead(d, code, "html-table", tba="TBA")
                            d.add(", ").v(
                                t_range(c["start_time"], c["session_minutes"]),
                                [K("clinics", "start_time", code), K("clinics", "session_minutes", code)],
                                "html-table",
                                "time-range",
                            )
                        d.add("</td>")
                    d.add("</tr>\n")
                d.add("</table>\n<p>Clinics do not run on bank holidays.</p>\n</body></html>\n")
            else:
                d = self.doc(f"timetables/{spec.lower()}.txt", "timetable", f"{name} outpatient timetable")
                d.add(f"{name.upper()} - WEEKLY OUTPATIENT TIMETABLE (effective 1 October 2026)\n\n")
                w = 44
                d.add(" " * 7)
                col_at = {}
                for s in sites:
                    d.add("| ")
                    col_at[s] = d.n
                    d.add(f"{s:<{w - 2}}")
                d.add("\n" + "-" * (7 + w * len(sites)) + "\n")
                for day, ab in WD_ABBREV.items():
                    cells = {s: [c for c in cl if c["weekday"] == day and c["site_code"] == s] for s in sites}
                    n_lines = max(1, max(len(v) for v in cells.values()))
                    row_at = d.n
                    d.add(f"{ab[:3]:<7}")
                    for line in range(n_lines):
                        if line:
                            d.add("\n" + " " * 7)
                        for s in sites:
                            d.add("| ")
                            if line < len(cells[s]):
                                c = cells[s][line]
                                code = c["clinic_code"]
                                st = d.n
                                d.v(code, [K("clinics", "specialty_code", code)], "heading-subject", "code")
                                d.rec(ab[:3], row_at, K("clinics", "weekday", code), "grid-row", "weekday-3")
                                d.rec(s, col_at[s], K("clinics", "site_code", code), "grid-column", "code")
                                d.add(" ")
                                self.lead(d, code, "table", tba="TBA")
                                d.add(" ").v(
                                    t_range(c["start_time"], c["session_minutes"], "-"),
                                    [K("clinics", "start_time", code), K("clinics", "session_minutes", code)],
                                    "table",
                                    "time-range",
                                )
                                d.add(" " * max(1, w - 2 - (d.n - st)))
                            else:
                                d.add(" " * (w - 2))
                    d.add("\n")
                d.add("\nKey: clinic codes as on the booking system; TBA = consultant to be appointed.\n")

    # -------------------------------------------------------------- patient information leaflets
    LEAFLET_PDF = ("CARD-01", "TRAU-02", "OPHT-03", "UROL-01")

    def leaflets(self):
        codes = [
            "CARD-01",
            "CARD-04",
            "DERM-02",
            "DERM-04",
            "COLO-03",
            "TRAU-01",
            "TRAU-02",
            "TRAU-05",
            "OPHT-01",
            "OPHT-03",
            "ENT-02",
            "RHEU-01",
            "RHEU-03",
            "DIAB-01",
            "DIAB-04",
            "GYNA-03",
            "UROL-01",
            "UROL-03",
        ]
        for i, code in enumerate(codes):
            c = self.ck[code]
            s = self.si[c["site_code"]]
            slug = c["name"].lower().replace(" ", "-").replace("(", "").replace(")", "").replace("-and-", "-")
            ext = "pdf" if code in self.LEAFLET_PDF else "txt"
            d = self.doc(f"leaflets/{slug}.{ext}", "patient-leaflet", f"Your appointment: {c['name']}")
            d.add("PATIENT INFORMATION\n").add(f"{TRUST}\n\n")
            d.add("Your appointment at the ").v(
                c["name"], K("clinics", "specialty_code", code), "heading-subject", "name"
            ).add("\n\n")
            d.add("Where: ")
            self.site(d, c["site_code"], K("clinics", "site_code", code), "kv-text")
            d.add(", ").v(s["town"], K("sites", "town", c["site_code"]), "kv-text").add(" (postcode for sat nav ")
            d.v(s["postcode"], K("sites", "postcode", c["site_code"]), "kv-text").add(")\n")
            d.add("Room: ").v(c["room"], K("clinics", "room", code), "kv-text").add("\n\n")
            d.add("The clinic runs on ")
            d.v(
                f"{c['weekday']} {session_part(c['start_time'])}",
                K("clinics", "weekday", code),
                "prose",
                "weekday-plural",
            )
            tf = "time-dots" if i % 2 else "time-ampm"
            d.add(". The first appointments are at ")
            d.v(
                t_dots(c["start_time"]) if tf == "time-dots" else t_ampm(c["start_time"]),
                K("clinics", "start_time", code),
                "prose",
                tf,
            )
            d.add(", so please arrive 10 minutes early and bring a list of your medicines.\n\n")
            if c["consultant_id"] is None:
                d.add("A consultant for this clinic is ")
                d.v("still to be appointed", K("clinics", "consultant_id", code), "prose", "null-stated")
                d.add("; you will be seen by an experienced member of the team.\n\n")
            else:
                d.add("The clinic is led by ")
                self.lead(d, code, "prose", "title-initial")
                d.add(".\n\n")
            if c["capacity"] is not None and i % 3 == 0:
                d.add("Each session has ").v(
                    NUM_WORDS[c["capacity"]], K("clinics", "capacity", code), "prose", "number-words"
                )
                d.add(" appointment slots, so please tell us as soon as you can if you need to cancel.\n\n")
            elif c["capacity"] is None and i % 2 == 0:
                d.add("The number of appointments per session is ")
                d.v("not yet fixed", K("clinics", "capacity", code), "prose", "null-stated")
                d.add(" while the clinic is reorganised.\n\n")
            d.add("If you need an interpreter, please call the number on your appointment letter.\n")
            d.add("Leaflet review date: October 2028\n")

    # -------------------------------------------------------------- directories with dotted leaders
    def directories(self):
        d = self.doc("directory/services-a-z.md", "directory", "Outpatient services A to Z")
        d.add(
            "# Outpatient services A-Z\n\nService, specialty and the longest wait from referral to first "
            "appointment that we aim for.\n\n```\n"
        )
        for sv in sorted(self.sv.values(), key=lambda r: r["name"].lower()):
            sid = sv["service_id"]
            st = d.n
            d.v(sv["name"], [], "table")
            d.add(" " + "." * (38 - (d.n - st)) + " ")
            st = d.n
            d.v(self.sp[sv["specialty_code"]]["name"], K("services", "specialty_code", sid), "table", "name")
            d.add(" " + "." * (30 - (d.n - st)) + " ")
            d.v(weeks(sv["target_weeks"], "weeks-abbrev"), K("services", "target_weeks", sid), "table", "weeks-abbrev")
            d.add("\n")
        d.add("```\n\n2WW services are marked by a two-week target.\n")

        d = self.doc("directory/clinic-locations.txt", "directory", "Where clinics are held")
        d.add("WHERE OUR CLINICS ARE HELD\n(clinic ............ site, room)\n\n")
        for c in sorted(self.ck.values(), key=lambda r: r["name"]):
            code = c["clinic_code"]
            st = d.n
            d.v(c["name"], [], "table")
            d.add(" " + "." * (42 - (d.n - st)) + " ")
            self.site(d, c["site_code"], K("clinics", "site_code", code), "table")
            d.add(", ").v(c["room"], K("clinics", "room", code), "table").add("\n")
        d.add("\nThe Hexley Eye Clinic kept its name when it moved; check the site above.\n")

        d = self.doc("directory/our-sites.md", "directory", "Our hospitals and clinics")
        d.add("# Our hospitals and clinics\n\n")
        for sc, s in self.si.items():
            d.add("## ").v(s["name"], [], "heading").add(f" ({sc})\n\n")
            d.add("- Type: ").v(s["site_type"], K("sites", "site_type", sc), "heading-subject").add("\n")
            d.add("- Town: ").v(s["town"], K("sites", "town", sc), "heading-subject").add("\n")
            d.add("- Postcode: ").v(s["postcode"], K("sites", "postcode", sc), "heading-subject").add("\n\n")
        d.add("Orchard Road Treatment Centre is in Wendlebury too, a mile from the General.\n")

    # -------------------------------------------------------------- monthly waiting-time reports
    def reports(self):
        def rows(month, skip_community=False):
            return [c for c in self.ck.values() if not (skip_community and c["site_code"] in COMMUNITY)]

        # April: Markdown table, hospital sites only (community figures came late and were never added)
        m = "2026-04"
        d = self.doc("performance/outpatient-waits-2026-04.md", "waiting-report", "Outpatient waits April 2026")
        d.add(
            "# Outpatient waiting times: April 2026\n\nHospital sites only; community clinics report separately."
            "\n\n| Clinic | Name | Site | Waiting | Median wait | Seen within target |\n|---|---|---|--:|--:|--:|\n"
        )
        for c in rows(m, True):
            code = c["clinic_code"]
            w = self.ws[(code, m)]
            d.add("| ").v(code, [K("wait_stats", "month", code, m), K("clinics", "name", code)], "table", "code")
            d.add(" | ").add(c["name"]).add(" | ")
            self.site(d, c["site_code"], K("clinics", "site_code", code), "table", "code")
            d.add(" | ").v(w["waiting_count"], K("wait_stats", "waiting_count", code, m), "table", "plain-number")
            d.add(" | ").v(
                weeks(w["median_weeks"], "weeks-abbrev"),
                K("wait_stats", "median_weeks", code, m),
                "table",
                "weeks-abbrev",
            )
            d.add(" | ").v(
                pct(w["pct_within_target"], "pct"), K("wait_stats", "pct_within_target", code, m), "table", "pct"
            )
            d.add(" |\n")
        d.add("\nSource: PAS extract, 5 May 2026.\n")

        # May: HTML with a proportion (0.85) under its header
        m = "2026-05"
        d = self.doc("performance/outpatient-waits-2026-05.html", "waiting-report", "Outpatient waits May 2026")
        d.add(
            '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Outpatient waits, May 2026</title></head>'
            "<body>\n<h1>Outpatient waiting times, May 2026</h1>\n<table>\n<tr><th>Code</th><th>Clinic</th>"
            "<th>On list</th><th>Median (weeks)</th><th>Proportion within target</th></tr>\n"
        )
        for c in rows(m):
            code = c["clinic_code"]
            w = self.ws[(code, m)]
            d.add("<tr><td>").v(code, K("wait_stats", "month", code, m), "html-table", "code")
            d.add("</td><td>").v(c["name"], K("clinics", "name", code), "html-table", "name")
            d.add("</td><td>").v(
                w["waiting_count"], K("wait_stats", "waiting_count", code, m), "html-table", "plain-number"
            )
            d.add("</td><td>").v(
                num(w["median_weeks"]), K("wait_stats", "median_weeks", code, m), "html-table", "plain-number"
            )
            d.add("</td><td>").v(
                pct(w["pct_within_target"], "fraction"),
                K("wait_stats", "pct_within_target", code, m),
                "html-table",
                "fraction",
            )
            d.add("</td></tr>\n")
        d.add("</table>\n</body></html>\n")

        # July: fixed-width text grouped under specialty headings (the code is the row's only name)
        m = "2026-07"
        d = self.doc("performance/outpatient-waits-2026-07.txt", "waiting-report", "Outpatient waits July 2026")
        d.add("OUTPATIENT WAITING TIMES - JULY 2026\n(June figures were not published: PAS migration)\n\n")
        for spec in self.spec_order:
            d.add(f"{self.sp[spec]['name'].upper()}\n  {'CLINIC':<10}{'LIST':>6}{'MEDIAN WKS':>12}{'% <TARGET':>11}\n")
            for c in self.clinics_of(spec):
                code = c["clinic_code"]
                w = self.ws[(code, m)]
                d.add("  ").v(
                    code,
                    [K("wait_stats", "month", code, m), K("clinics", "specialty_code", code)],
                    "table-under-heading",
                    "code",
                )
                d.add(" " * (10 - len(code)))
                s = str(w["waiting_count"])
                d.add(" " * (6 - len(s))).v(s, K("wait_stats", "waiting_count", code, m), "fixed-width", "plain-number")
                s = num(w["median_weeks"])
                d.add(" " * (12 - len(s))).v(s, K("wait_stats", "median_weeks", code, m), "fixed-width", "plain-number")
                s = num(w["pct_within_target"])
                d.add(" " * (11 - len(s))).v(
                    s, K("wait_stats", "pct_within_target", code, m), "fixed-width", "plain-number"
                )
                d.add("\n")
            d.add("\n")

        # August: PDF board summary, every clinic, ordered from the lowest proportion seen within target
        m = "2026-08"
        d = self.doc("performance/board-summary-2026-08.pdf", "waiting-report", "Board summary: outpatient waits Aug")
        d.add("BOARD SUMMARY - OUTPATIENT WAITS, AUGUST 2026\n\n")
        d.add("Clinic                              Waiting  Median   Within target\n")
        allc = sorted(self.ck.values(), key=lambda c: self.ws[(c["clinic_code"], m)]["pct_within_target"])
        for c in allc:
            code = c["clinic_code"]
            w = self.ws[(code, m)]
            nm = f"{c['name'][:26]} ({code})"
            d.add(c["name"][:26]).add(" (").v(code, K("wait_stats", "month", code, m), "table", "code").add(")")
            d.add(" " * (36 - len(nm)))
            s = str(w["waiting_count"])
            d.add(" " * (7 - len(s))).v(s, K("wait_stats", "waiting_count", code, m), "table", "plain-number")
            s = weeks(w["median_weeks"], "weeks-abbrev")
            d.add(" " * (10 - len(s))).v(s, K("wait_stats", "median_weeks", code, m), "table", "weeks-abbrev")
            s = pct(w["pct_within_target"], "pct")
            d.add(" " * (14 - len(s))).v(s, K("wait_stats", "pct_within_target", code, m), "table", "pct")
            d.add("\n")
        d.add("\nOrdered from the lowest proportion seen within target.\n")

        # September: one Markdown section per specialty, prose per clinic ("per cent")
        m = "2026-09"
        d = self.doc("performance/outpatient-waits-2026-09.md", "waiting-report", "Outpatient waits September 2026")
        d.add("# Outpatient waits, September 2026\n\n")
        for spec in self.spec_order:
            d.add(f"## {self.sp[spec]['name']}\n\n")
            for c in self.clinics_of(spec):
                code = c["clinic_code"]
                w = self.ws[(code, m)]
                d.add("- ").v(
                    c["name"],
                    [K("wait_stats", "month", code, m), K("clinics", "specialty_code", code)],
                    "heading-subject",
                    "name",
                )
                d.add(": ").v(w["waiting_count"], K("wait_stats", "waiting_count", code, m), "prose", "plain-number")
                d.add(" waiting, median ").v(
                    weeks(w["median_weeks"], "number-unit"),
                    K("wait_stats", "median_weeks", code, m),
                    "prose",
                    "number-unit",
                )
                d.add(", ").v(
                    pct(w["pct_within_target"], "per-cent"),
                    K("wait_stats", "pct_within_target", code, m),
                    "prose",
                    "per-cent",
                )
                d.add(" seen within target\n")
            d.add("\n")

    # -------------------------------------------------------------- bulletins
    def bulletins(self):
        d = self.doc("news/2026-06-new-consultant-urology.md", "bulletin", "New consultant urologist")
        p = self.cl[30]
        d.add("# Welcome to our new consultant urologist\n\n")
        self.cname(d, 30, [], "prose", "name-title")
        d.add(" has joined the urology team as a ").v("consultant", K("clinicians", "grade", 30), "prose", "lowercase")
        d.add(". He will be based at ")
        self.site(d, p["base_site"], K("clinicians", "base_site", 30), "pronoun")
        d.add(" and takes over the ")
        c = self.ck["UROL-02"]
        d.v(c["name"], K("clinics", "consultant_id", "UROL-02"), "pronoun", "name").add(" on ")
        d.v(c["weekday"] + "s", K("clinics", "weekday", "UROL-02"), "prose", "weekday-plural").add(" from ")
        d.v(c["start_time"], K("clinics", "start_time", "UROL-02"), "prose").add(".\n\n")
        d.add("GP colleagues can find the referral criteria on the urology guidance page.\n")

        d = self.doc("news/2026-07-hexley-eye-clinic.md", "bulletin", "Where is the Hexley Eye Clinic?")
        c = self.ck["OPHT-03"]
        d.add("# Where is the Hexley Eye Clinic?\n\nA reminder for referrers and patients: despite its name, the ")
        d.v(c["name"], [], "prose").add(" is held at ")
        self.site(d, c["site_code"], K("clinics", "site_code", "OPHT-03"), "prose")
        d.add(" in ").v(self.si[c["site_code"]]["town"], K("sites", "town", c["site_code"]), "prose")
        d.add(", not at Hexley Health Centre. It runs on ").v(c["weekday"], K("clinics", "weekday", "OPHT-03"), "prose")
        d.add(" afternoons in ").v(c["room"], K("clinics", "room", "OPHT-03"), "prose").add(".\n\n")
        d.add("Hexley Health Centre itself hosts the ")
        hh = [x for x in self.ck.values() if x["site_code"] == "HHC"]
        for j, x in enumerate(hh):
            if j:
                d.add(", " if j < len(hh) - 1 else " and ")
            d.v(x["name"], K("clinics", "site_code", x["clinic_code"]), "prose", "name")
        d.add(".\n")

        d = self.doc("news/2026-07-june-figures.md", "bulletin", "June waiting figures: what we know")
        d.add(
            "# June waiting figures\n\nThe June report could not be produced because of the PAS migration. "
            "Early counts for some of our busiest clinics:\n\n"
        )
        for code in ("TRAU-01", "DERM-02", "CARD-02", "COLO-02"):
            w = self.ws[(code, "2026-06")]
            c = self.ck[code]
            d.add("- ").v(c["name"], K("wait_stats", "month", code, "2026-06"), "prose", "name", exact=False)
            d.add(": ").v(
                f"around {round(w['waiting_count'], -1)}",
                K("wait_stats", "waiting_count", code, "2026-06"),
                "prose",
                "approx-number",
                exact=False,
            )
            d.add(" waiting, median ").v(
                f"about {round(w['median_weeks'])} weeks",
                K("wait_stats", "median_weeks", code, "2026-06"),
                "prose",
                "approx-weeks",
                exact=False,
            )
            d.add("\n")
        d.add("\nFull figures will follow in the July report where the data allow.\n")

        d = self.doc("news/2026-08-cardiology-vacancy.md", "bulletin", "Cardiology: consultant post")
        c = self.ck["CARD-04"]
        d.add("# Cardiology clinic at Burnham continues during recruitment\n\nThe consultant post for the ")
        d.v(c["name"], K("clinics", "site_code", "CARD-04"), "prose", "name")
        d.add(" at Burnham is ").v("vacant", K("clinics", "consultant_id", "CARD-04"), "prose", "null-stated")
        d.add(" and interviews are planned for November. The clinic continues every ")
        d.v(c["weekday"], K("clinics", "weekday", "CARD-04"), "prose").add(", with ")
        d.v(f"{c['capacity']} slots", K("clinics", "capacity", "CARD-04"), "prose", "number-unit")
        d.add(" per session.\n")

        d = self.doc("news/2026-09-skin-cancer-capacity.md", "bulletin", "More skin cancer appointments")
        c = self.ck["DERM-02"]
        d.add("# More two-week-wait skin appointments\n\nFrom September the ")
        d.v(c["name"], K("clinics", "specialty_code", "DERM-02"), "prose", "name").add(" in ")
        d.v(c["room"], K("clinics", "room", "DERM-02"), "prose").add(" offers ")
        d.v(f"{c['capacity']} appointments", K("clinics", "capacity", "DERM-02"), "prose", "number-unit")
        d.add(" a session, led by ")
        self.lead(d, "DERM-02", "prose", "name-title")
        d.add(". Sessions last ").v(
            f"{c['session_minutes']} minutes", K("clinics", "session_minutes", "DERM-02"), "prose", "number-unit"
        ).add(".\n")

        d = self.doc("news/2026-10-trauma-clinic-lead.md", "bulletin", "Trauma clinic needs a lead")
        c = self.ck["TRAU-05"]
        d.add("# Spinal triage: consultant to be appointed\n\nThe ").v(c["name"], [], "prose")
        d.add(" (").v("TRAU-05", K("clinics", "name", "TRAU-05"), "prose", "code").add(") has ")
        d.v("no named consultant", K("clinics", "consultant_id", "TRAU-05"), "prose", "null-stated")
        d.add(" since the summer. Triage continues on ").v(
            WD_ABBREV[c["weekday"]], K("clinics", "weekday", "TRAU-05"), "prose", "weekday-abbrev"
        )
        d.add(" at ").v(t_ampm(c["start_time"]), K("clinics", "start_time", "TRAU-05"), "prose", "time-ampm")
        d.add(".\n")

    # -------------------------------------------------------------- job-plan summaries
    def jobplans(self):
        for cid in (5, 1, 8, 13, 16, 20, 24, 29):
            p = self.cl[cid]
            d = self.doc(
                f"jobplans/{p['last_name'].lower()}-{p['first_name'][0].lower()}.txt",
                "job-plan",
                f"Job plan: {self.name_of(cid, 'name-title')}",
            )
            d.add("JOB PLAN SUMMARY 2026/27\n\nName:      ")
            self.cname(d, cid, [], "kv-text", "name-reordered-title")
            d.add("\nGrade:     ").v(p["grade"], K("clinicians", "grade", cid), "kv-text")
            d.add("\nSpecialty: ").v(p["specialty_code"], K("clinicians", "specialty_code", cid), "kv-text", "code")
            d.add("\nGMC:       ").v(p["gmc_number"], K("clinicians", "gmc_number", cid), "kv-text")
            d.add("\nBase:      ").v(p["base_site"], K("clinicians", "base_site", cid), "kv-text", "code")
            d.add("\n\nDCC sessions (outpatients):\n  Day   Clinic    Site  Room        Time\n")
            for c in sorted(
                (c for c in self.ck.values() if c["consultant_id"] == cid),
                key=lambda c: list(WD_ABBREV).index(c["weekday"]),
            ):
                code = c["clinic_code"]
                d.add("  ").v(c["weekday"][:3], K("clinics", "weekday", code), "fixed-width", "weekday-3")
                d.add("   ").v(code, K("clinics", "consultant_id", code), "heading-subject", "code")
                d.add(" " * (10 - len(code)))
                d.v(c["site_code"], K("clinics", "site_code", code), "fixed-width", "code").add("   ")
                d.v(c["room"], K("clinics", "room", code), "fixed-width").add(" " * (12 - len(c["room"])))
                d.v(
                    t_range(c["start_time"], c["session_minutes"], "-"),
                    [K("clinics", "start_time", code), K("clinics", "session_minutes", code)],
                    "fixed-width",
                    "time-range",
                )
                d.add("\n")
            d.add("\nSPA: 1.5 sessions. On call: 1 in 8. Agreed with the clinical director.\n")

    # -------------------------------------------------------------- meeting notes with initials
    def minutes(self):
        groups = [
            ("2026-07-14", ["CARD", "DERM"]),
            ("2026-08-11", ["COLO", "UROL"]),
            ("2026-09-08", ["DIAB", "RHEU"]),
            ("2026-10-06", ["ENT", "GYNA"]),
        ]
        for date, specs in groups:
            d = self.doc(f"minutes/outpatient-group-{date}.md", "minutes", f"Outpatient performance group {date}")
            cl = [c for s in specs for c in self.clinics_of(s)]
            people = sorted({c["consultant_id"] for c in cl if c["consultant_id"] is not None})
            d.add(f"# Outpatient performance group, {date}\n\n**Present (key to initials):** ")
            for j, cid in enumerate(people):
                if j:
                    d.add("; ")
                d.add(self.ini[cid]).add(" = ")
                self.cname(d, cid, [], "prose", "title-initial")
            d.add("; chair: outpatient services manager.\n\n## Clinic review\n\n")
            for c in cl:
                code = c["clinic_code"]
                d.add("- ").v(code, [], "minutes", "code").add(" ")
                d.v(c["name"], [], "minutes")
                d.add(" — lead ")
                if c["consultant_id"] is None:
                    d.v("vacant", K("clinics", "consultant_id", code), "minutes", "null-stated")
                else:
                    d.v(self.ini[c["consultant_id"]], K("clinics", "consultant_id", code), "minutes", "initials")
                d.add("; cap. ")
                if c["capacity"] is None:
                    d.v("tbc", K("clinics", "capacity", code), "minutes", "null-stated")
                else:
                    d.v(str(c["capacity"]), K("clinics", "capacity", code), "minutes", "plain-number")
                d.add("/session\n")
            d.add("\n## Actions\n\n| # | Action | Owner |\n|---|---|---|\n")
            for j, cid in enumerate(people[:3], 1):
                d.add(f"| {j} | Review DNA rates and booking rules for own clinics | {self.ini[cid]} |\n")
            d.add("\nNext meeting in four weeks.\n")

    # -------------------------------------------------------------- e-mails with Original Message blocks
    def mails(self):
        cases = [
            ("CARD-05", "Westgate Surgery"),
            ("COLO-04", "Kelmscott Medical Practice"),
            ("DERM-03", "Burnham Family Practice"),
            ("ENT-03", "Norton Down Surgery"),
            ("RHEU-02", "Hexley Group Practice"),
            ("GYNA-01", "Orchard Medical Centre"),
            ("DIAB-02", "Wendlebury Health Partnership"),
            ("UROL-04", "Kelmscott Medical Practice"),
        ]
        for i, (code, practice) in enumerate(cases):
            c = self.ck[code]
            sec_id = next(
                t["secretary_id"]
                for t in self.tm
                if c["consultant_id"] and t["clinician_id"] == c["consultant_id"] and t["role"] == "Medical Secretary"
            )
            se = self.se[sec_id]
            d = self.doc(f"mail/re-{code.lower()}-clinic-query.txt", "email", f"RE: {c['name']} query")
            d.add(
                f"From: Practice Manager <pm@{practice.lower().replace(' ', '')}.nhs.uk>\n"
                f"To: {se['first_name']} {se['last_name']}\nSubject: RE: {c['name']} - days and times\n\n"
            )
            d.add(
                "Thank you, that is really helpful. We'll update our referral templates.\n\nKind regards\n"
                f"Practice Manager, {practice}\n\n"
            )
            d.add("-----Original Message-----\n")
            d.add(
                f"From: {se['first_name']} {se['last_name']}\nSent: {['Monday', 'Tuesday', 'Thursday'][i % 3]}, "
                f"{i + 3} September 2026 11:{10 + i:02d}\nTo: Practice Manager\n"
                f"Subject: {c['name']} - days and times\n\n"
            )
            d.add("Dear colleague,\n\nThe ").v(
                c["name"], K("clinics", "specialty_code", code), "quoted-original", "name"
            )
            d.add(" runs every ")
            wd = WD_ABBREV[c["weekday"]] if i % 2 else c["weekday"]
            d.v(wd, K("clinics", "weekday", code), "quoted-original", "weekday-abbrev" if i % 2 else "verbatim")
            d.add(" at ")
            self.site(d, c["site_code"], K("clinics", "site_code", code), "quoted-original", "site-short")
            d.add(", starting ").v(
                t_ampm(c["start_time"]), K("clinics", "start_time", code), "quoted-original", "time-ampm"
            )
            d.add(". It is ")
            self.lead(d, code, "quoted-original", "title-initial")
            d.add("'s clinic")
            if c["capacity"] is not None:
                d.add(" and has ").v(
                    f"{c['capacity']} slots", K("clinics", "capacity", code), "quoted-original", "number-unit"
                )
            d.add(".\n\nBest wishes\n\n")
            d.v(
                f"{se['first_name']} {se['last_name']}",
                K("team_members", "clinician_id", sec_id, c["consultant_id"]),
                "signature",
                "name",
            )
            d.add("\n").v(
                self.tm_role(sec_id, c["consultant_id"]),
                K("team_members", "role", sec_id, c["consultant_id"]),
                "signature",
            )
            d.add(" to ")
            self.cname(
                d,
                c["consultant_id"],
                K("team_members", "clinician_id", sec_id, c["consultant_id"]),
                "signature",
                "title-initial",
            )
            d.add("\nTel. 01632 96 ext. ").v(se["extension"], K("secretaries", "extension", sec_id), "signature")
            d.add("\n")

    def tm_role(self, sid, cid):
        return next(t["role"] for t in self.tm if t["secretary_id"] == sid and t["clinician_id"] == cid)

    # -------------------------------------------------------------- FAQs
    def faqs(self):
        d = self.doc("faq/waiting-times-faq.md", "faq", "Waiting times: questions and answers")
        d.add("# Waiting times: your questions\n\n")
        for sid in (1, 4, 7, 10, 13, 16, 19):
            sv = self.sv[sid]
            d.add("**Q: How long will I wait to be seen by the ").v(sv["name"].lower(), [], "prose")
            d.add(" service?**\n\nA: We aim to see you within ")
            d.v(weeks(sv["target_weeks"], "number-unit"), K("services", "target_weeks", sid), "prose", "number-unit")
            d.add(" of your GP's referral.\n\n")
        d.add("**Q: Why is my wait longer?**\n\nA: Targets are what we aim for; busy months can be longer.\n")

        d = self.doc("faq/finding-your-clinic.md", "faq", "Finding your clinic")
        d.add("# Finding your clinic\n\n")
        for code in ("DIAB-03", "RHEU-02", "COLO-01", "OPHT-02", "GYNA-02", "ENT-01"):
            c = self.ck[code]
            d.add("## Where is the ").v(c["name"], [], "heading").add("?\n\n")
            d.add("It is in ").v(c["room"], K("clinics", "room", code), "heading-subject").add(" at ")
            self.site(d, c["site_code"], K("clinics", "site_code", code), "heading-subject")
            d.add(". Sessions start at ").v(c["start_time"], K("clinics", "start_time", code), "heading-subject")
            d.add(" on ").v(WD_ABBREV[c["weekday"]], K("clinics", "weekday", code), "heading-subject", "weekday-abbrev")
            d.add(" and last ").v(
                f"{c['session_minutes']} minutes",
                K("clinics", "session_minutes", code),
                "heading-subject",
                "number-unit",
            )
            d.add(".\n\n")

    # -------------------------------------------------------------- secretaries (and the split desk lists)
    def secretaries(self):
        split_secs = {t["secretary_id"] for t in self.tm if self.cl[t["clinician_id"]]["specialty_code"] in SPLIT_SPECS}
        d = self.doc("contacts/medical-secretaries.html", "contact-list", "Medical secretaries")
        d.add(
            '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Medical secretaries</title></head><body>\n'
            "<h1>Contacting a consultant's secretary</h1>\n<table>\n<tr><th>Secretary</th><th>Ext.</th>"
            "<th>E-mail</th><th>Supports</th></tr>\n"
        )
        for sid, se in self.se.items():
            d.add("<tr><td>").v(f"{se['last_name']}, {se['first_name']}", [], "html-table", "name-reordered")
            d.add("</td><td>").v(se["extension"], K("secretaries", "extension", sid), "html-table")
            d.add("</td><td>").v(se["email"], K("secretaries", "email", sid), "html-table").add("</td><td>")
            rows = [
                t
                for t in self.tm
                if t["secretary_id"] == sid and self.cl[t["clinician_id"]]["specialty_code"] not in SPLIT_SPECS
            ]
            for j, t in enumerate(rows):
                if j:
                    d.add("; ")
                cid = t["clinician_id"]
                self.cname(d, cid, K("team_members", "clinician_id", sid, cid), "html-table", "short")
                d.add(" (").v(t["role"].lower(), K("team_members", "role", sid, cid), "html-table", "lowercase")
                d.add(")")
            if sid in split_secs:
                d.add(("; " if rows else "") + "see desk allocation")
            d.add("</td></tr>\n")
        d.add("</table>\n</body></html>\n")

        a = self.doc("contacts/desk-allocation.txt", "contact-list", "Secretarial desk allocation")
        a.add("SECRETARIAL DESK ALLOCATION - SURGERY DIVISION (T&O, OPHTHALMOLOGY)\n\n")
        a.add("Clinician                       Desk      Role\n")
        parts = []
        for t in self.tm:
            cid, sid = t["clinician_id"], t["secretary_id"]
            if self.cl[cid]["specialty_code"] not in SPLIT_SPECS:
                continue
            st = a.n
            self.cname(a, cid, [], "table", "name-reordered-title")
            a.add(" " * (32 - (a.n - st)))
            st = a.n
            a.add(desk_no(sid))
            for col in ("clinician_id", "role"):
                spid = f"desk-{sid}-{cid}-{col}"
                a.rec(desk_no(sid), st, K("team_members", col, sid, cid), "split", "desk-no", split_id=spid)
                parts.append((sid, cid, col, spid))
            a.add("   ").add(t["role"]).add("\n")
        a.add("\nDesk numbers: see the desk list held by the secretarial team leader.\n")

        b = self.doc("contacts/desk-list.txt", "contact-list", "Secretarial desk list")
        b.add("DESK LIST - OUTPATIENT SECRETARIES\n\nDesk      Name                 Ext.\n")
        for sid in sorted({p[0] for p in parts}):
            se = self.se[sid]
            st = b.n
            b.add(desk_no(sid))
            for s2, cid, col, spid in parts:
                if s2 != sid:
                    continue
                b.rec(desk_no(sid), st, K("team_members", col, sid, cid), "split", "desk-no", split_id=spid)
                self.split.append(
                    {
                        "fact_key": K("team_members", col, sid, cid),
                        "split_id": spid,
                        "doc_ids": [a.path, b.path],
                        "note": "the allocation gives clinician and role by desk number; the desk list "
                        "gives the secretary at that desk",
                    }
                )
            b.add("   ").add(f"{se['first_name']} {se['last_name']:<{19 - len(se['first_name'])}}")
            b.add(" ").v(se["extension"], K("secretaries", "extension", sid), "table").add("\n")
        b.add("\nCover is arranged by the team leader.\n")

    # -------------------------------------------------------------- distractors and documents with no fact
    def distractors(self):
        items = [
            (
                "misc/wendlebury-spire-consultants.md",
                "Wendlebury Spire Clinic: our consultants",
                "# Wendlebury Spire Clinic (independent)\n\nDr Sara Khanna, consultant dermatologist, sees private "
                "patients on Tuesday mornings from 9am in Suite 3. Mr Anil Patil, consultant colorectal surgeon, "
                "consults on Thursday afternoons. Self-pay and insured patients welcome.\n",
            ),
            (
                "misc/kelmscott-surgery-in-house-clinics.txt",
                "Kelmscott Medical Practice in-house clinics",
                "KELMSCOTT MEDICAL PRACTICE - IN-HOUSE CLINICS\n\nPhlebotomy ........ Mon-Fri 08:30\n"
                "Diabetes review ... Wed 14:00 (practice nurse)\nMinor surgery ..... Thurs 9.00 a.m.\n"
                "Chest pain? Call 999. This practice does not run a Chest Pain Clinic.\n",
            ),
            (
                "misc/hexley-district-waits.md",
                "Hexley and District NHS FT waiting times",
                "# Hexley and District NHS Foundation Trust: outpatient waits, August 2026\n\n| Clinic | Waiting | "
                "Median | Within target |\n|---|--:|--:|--:|\n| Fracture Clinic | 212 | 7.4 wks | 81% |\n"
                "| Glaucoma Clinic | 140 | 15.2 wks | 64% |\n| Heart Failure Clinic | 96 | 5.1 wks | 88% |\n",
            ),
            (
                "misc/hexley-eye-care-opticians.txt",
                "Hexley Eye Care opticians",
                "HEXLEY EYE CARE - independent opticians, 14 Market Street, Hexley HX2 5RB\n\nEye tests Monday to "
                "Saturday from 9.00 a.m. We can refer you to the hospital eye service if needed. Not to be confused "
                "with the Hexley Eye Clinic.\n",
            ),
            (
                "misc/job-advert-consultant-cardiologist.md",
                "Vacancy: consultant cardiologist (Northfold)",
                "# Consultant cardiologist, Northfold University Hospitals\n\n10 PAs, including a Friday morning "
                "general cardiology clinic of 16 slots at Burnham Road Clinic, Northfold. Informal enquiries to "
                "Dr Imran Khanum, clinical lead.\n",
            ),
            (
                "misc/national-rtt-explainer.md",
                "Referral to treatment: the 18-week standard",
                "# The 18-week referral to treatment standard\n\nNationally, 92 per cent of patients on an "
                "incomplete pathway should have waited under 18 weeks. Cancer referrals have their own two-week "
                "and 28-day standards. These are national figures, not this trust's.\n",
            ),
        ]
        for path, title, body in items:
            self.doc(path, "distractor", title, distractor=True).add(body)
        plain = [
            (
                "info/car-parking.md",
                "Car parking",
                "# Car parking\n\nPay on exit. Blue badge holders park free in the "
                "marked bays. Drop-off is limited to 20 minutes.\n",
            ),
            (
                "info/interpreting.md",
                "Interpreting service",
                "# Interpreting\n\nFace-to-face, video and telephone "
                "interpreting is free. Tell us your language when you book.\n",
            ),
            (
                "info/chaperones.txt",
                "Chaperones",
                "CHAPERONES\n\nYou may ask for a chaperone at any examination. "
                "Staff will always offer one for intimate examinations.\n",
            ),
        ]
        for path, title, body in plain:
            self.doc(path, "information", title).add(body)

    # -------------------------------------------------------------- output
    def all_keys(self):
        pks = {
            "sites": ["site_code"],
            "specialties": ["specialty_code"],
            "clinicians": ["clinician_id"],
            "services": ["service_id"],
            "clinics": ["clinic_code"],
            "wait_stats": ["clinic_code", "month"],
            "secretaries": ["secretary_id"],
            "team_members": ["secretary_id", "clinician_id"],
        }
        own = OWN_COLUMNS
        out = []
        for t, pk in pks.items():
            for row in self.q(f"SELECT * FROM {t}"):
                key = [str(row[p]) for p in pk]
                out += [(t, c, key) for c in row.keys() if c not in pk and c not in own.get(t, ())]
                if len(pk) > 1:
                    out.append((t, pk[-1], key))
        return out

    def left_out(self, stated):
        rules = [
            (
                "wait_stats_june",
                "no June 2026 report was published (PAS migration); a bulletin gives four clinics' "
                "June figures only approximately",
                lambda t, c, k: t == "wait_stats" and k[1] == "2026-06",
            ),
            (
                "wait_stats_april_community",
                "the April report covers hospital sites only: community clinics' April figures are in no document",
                lambda t, c, k: t == "wait_stats" and k[1] == "2026-04" and self.ck[k[0]]["site_code"] in COMMUNITY,
            ),
            (
                "nurse_gmc",
                "clinical nurse specialists have no GMC number (NULL), and no document says so",
                lambda t, c, k: t == "clinicians" and c == "gmc_number",
            ),
            (
                "clinic_capacity",
                "capacity is written only for some clinics (leaflets, minutes, e-mails, bulletins); "
                "the others' capacity, NULL or not, is written nowhere",
                lambda t, c, k: t == "clinics" and c == "capacity",
            ),
            (
                "clinic_room",
                "rooms of clinics with no leaflet, FAQ entry or job plan... and not in the locations "
                "list (none expected)",
                lambda t, c, k: t == "clinics" and c == "room",
            ),
            ("secretary_email", "e-mail addresses of secretaries (none expected)", lambda t, c, k: t == "secretaries"),
        ]
        left = []
        for t, c, key in self.all_keys():
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
                "kind": d.kind,
                "format": os.path.splitext(d.path)[1][1:],
                "title": d.title,
                "size": len(d.text()),
                "statements": len(d.facts),
                "exact_statements": sum(f["exact"] for f in d.facts),
                "distinct_facts": len({f["fact_key"] for f in d.facts}),
                "tables": sorted({f["fact_key"].split(".")[0] for f in d.facts}),
                "distractor": d.distractor,
                "states_no_db_fact": not d.facts,
            }
        stats = {
            "documents": len(self.docs),
            "statements": len(facts),
            "distinct_facts": len(stated),
            "exact_facts": len(exact_keys),
            "approximate_only_facts": len(stated - exact_keys),
            "split_facts": len(self.split),
            "omitted_facts": sum(len(g["fact_keys"]) for g in self.omitted.values()),
            "by_format": dict(sorted(Counter(v["format"] for v in documents.values()).items())),
            "by_kind": dict(sorted(Counter(v["kind"] for v in documents.values()).items())),
            "by_how": dict(sorted(Counter(f["how"] for f in facts).items())),
            "by_form": dict(sorted(Counter(f["form"] for f in facts).items())),
        }
        truth = {
            "database": "wendlebury.sqlite",
            "facts": facts,
            "split_facts": self.split,
            "distractor_doc_ids": [d.path for d in self.docs if d.distractor],
            "no_fact_doc_ids": [d.path for d in self.docs if not d.facts and not d.distractor],
            "omitted": self.omitted,
            "documents": documents,
            "stats": stats,
        }
        stems = [os.path.splitext(d.path)[0] for d in self.docs]
        assert len(stems) == len(set(stems))
        with open(os.path.join(out, "truth.json"), "w", encoding="utf-8", newline="\n") as fh:
            json.dump(truth, fh, ensure_ascii=False, indent=1)
            fh.write("\n")
        return stats


#: a row's own name columns: they name the row and are not facts to be covered
OWN_COLUMNS = {
    "sites": ("name",),
    "specialties": ("name",),
    "clinicians": ("first_name", "last_name"),
    "services": ("name",),
    "clinics": ("name",),
    "secretaries": ("first_name", "last_name"),
}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default=os.path.join(HERE, "wendlebury.sqlite"))
    ap.add_argument("--out", default=HERE)
    a = ap.parse_args(argv)
    c = Corpus(a.db)
    for step in (
        c.referral,
        c.profiles,
        c.staff_list,
        c.nurses,
        c.timetables,
        c.leaflets,
        c.directories,
        c.reports,
        c.bulletins,
        c.jobplans,
        c.minutes,
        c.mails,
        c.faqs,
        c.secretaries,
        c.distractors,
    ):
        step()
    stats = c.write(a.out)
    print({k: v for k, v in stats.items() if not k.startswith("by_")})


if __name__ == "__main__":
    main()
