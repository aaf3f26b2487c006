#!/usr/bin/env python3
"""Write the Ashby Fold College document corpus (docs/) and its recorded truth (truth.json) from
ashby.sqlite.

    python3 make_corpus.py [--db ashby.sqlite] [--out .]

Every database fact a document states is recorded at the moment it is written (Doc.v), with its
character offsets; nothing is found by searching the text afterwards.  Standard library only,
seeded, deterministic.  Written blind to ragdx: nothing of ragdx's linker, normaliser or judge was read.
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
SEED = 7042
COLLEGE = "Ashby Fold College"
DEPT = "Department of Earth and Environmental Sciences"
SIGN = "Ashby Fold College · Department of Earth and Environmental Sciences · Fold Road, Ashby Fold, North Yorkshire DL8 4QF"
TODAY = dt.date(2025, 11, 20)
TERM_LABEL = {"2024-AUT": "Autumn term 2024", "2025-SPR": "Spring term 2025", "2025-AUT": "Autumn term 2025",
              "2026-SPR": "Spring term 2026"}

# ------------------------------------------------------------------ values as the department writes them


def D(s):
    return dt.date.fromisoformat(s)


def ordinal(n):
    return f"{n}{'th' if 10 < n % 100 < 14 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def date_words(s):  # 4 December 2025
    x = D(s)
    return f"{x.day} {x:%B %Y}"


def date_dow_words(s):  # Thursday 4 December 2025
    x = D(s)
    return f"{x:%A} {x.day} {x:%B %Y}"


def date_uk(s):  # 04/12/2025
    return f"{D(s):%d/%m/%Y}"


def date_us(s):  # December 4, 2025
    x = D(s)
    return f"{x:%B} {x.day}, {x.year}"


def date_ord_abbrev(s):  # 4th Dec 2025
    x = D(s)
    return f"{ordinal(x.day)} {x:%b %Y}"


def date_dots2(s):  # 04.12.25
    return f"{D(s):%d.%m.%y}"


def date_dm(s):  # Thu 4/12  (year in the heading)
    x = D(s)
    return f"{x:%a} {x.day}/{x.month}"


def date_dow_noyear(s):  # Thursday 4 December  (year in the document's header)
    x = D(s)
    return f"{x:%A} {x.day} {x:%B}"


def time_ampm(t):  # 14:00 -> 2pm, 09:00 -> 9am, 12:00 -> 12pm
    h, m = map(int, t.split(":"))
    suf = "pm" if h >= 12 else "am"
    h = h - 12 if h > 12 else h
    return f"{h}{suf}" if m == 0 else f"{h}.{m:02d}{suf}"


def time_hhmm(t):  # 1400
    return t.replace(":", "")


NUMW = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 10: "ten", 12: "twelve", 15: "fifteen",
        20: "twenty", 25: "twenty-five", 30: "thirty", 40: "forty", 50: "fifty", 60: "sixty", 70: "seventy",
        75: "seventy-five", 90: "ninety"}


def pct(w):  # 0.4 -> 40%
    return f"{round(w * 100)}%"


def pct_words(w):  # 0.4 -> forty per cent
    return f"{NUMW[round(w * 100)]} per cent"


FRACTIONS = {0.1: "1/10", 0.2: "1/5", 0.25: "1/4", 0.3: "3/10", 0.4: "2/5", 0.5: "1/2", 0.6: "3/5", 0.7: "7/10",
             0.75: "3/4", 0.9: "9/10"}


def initials_table(staff):
    """Timetable initials: first initial + an initial per part of the surname (HM, HMP); where two staff
    share them, more letters of the first name until they differ (DavS / DanS, TomL / TomaL)."""
    sur = {sid: "".join(x[0] for x in p["last_name"].split("-")) for sid, p in staff.items()}
    out = {sid: staff[sid]["first_name"][0] + sur[sid] for sid in staff}
    k = 1
    while len(set(out.values())) < len(out):
        k += 1
        count = Counter(out.values())
        out = {sid: (staff[sid]["first_name"][:k] + sur[sid]) if count[v] > 1 else v for sid, v in out.items()}
    return out


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


def K(table, col, *key):
    return f"{table}.{col}@" + "|".join(str(k) for k in key)


def kr(col, code, term):  # a module run; its existence is keyed by its last key column
    return K("module_runs", col, code, term)


def kpm(col, prog, mod):
    return K("programme_modules", col, prog, mod)


class Corpus:
    def __init__(self, db):
        self.con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        self.con.row_factory = sqlite3.Row
        self.rnd = random.Random(SEED)
        self.docs, self.split, self.omitted = [], [], {}
        q = self.q
        self.bu = {r["building_code"]: r for r in q("SELECT * FROM buildings ORDER BY rowid")}
        self.ro = {r["room_code"]: r for r in q("SELECT * FROM rooms ORDER BY rowid")}
        self.st = {r["staff_id"]: r for r in q("SELECT * FROM staff ORDER BY staff_id")}
        self.pr = {r["programme_code"]: r for r in q("SELECT * FROM programmes ORDER BY rowid")}
        self.mo = {r["module_code"]: r for r in q("SELECT * FROM modules ORDER BY rowid")}
        self.pm = defaultdict(list)
        for r in q("SELECT * FROM programme_modules ORDER BY rowid"):
            self.pm[r["programme_code"]].append(r)
        self.runs = {(r["module_code"], r["term"]): r for r in q("SELECT * FROM module_runs ORDER BY rowid")}
        self.asm = defaultdict(list)  # (module, year) -> components
        for r in q("SELECT * FROM assessments ORDER BY assessment_id"):
            self.asm[(r["module_code"], r["academic_year"])].append(r)
        self.ini = initials_table(self.st)
        # modules whose descriptors give an assessment scheme letter instead of weights (split facts)
        self.scheme_modules = ["ENV1010", "ENV1015", "GLG1001", "ENV2050", "GEO2010", "ECO2005", "GLG2008",
                               "GEO3010", "ENV7005", "GDS7002"]

    def q(self, sql, *a):
        return self.con.execute(sql, a).fetchall()

    def doc(self, *a, **k):
        d = Doc(*a, **k)
        self.docs.append(d)
        return d

    def omit(self, group, rule, keys):
        g = self.omitted.setdefault(group, {"rule": rule, "fact_keys": []})
        g["fact_keys"].extend(keys)

    # ---- naming people, rooms, modules
    def full(self, sid):  # Dr Helen Marsden
        p = self.st[sid]
        return f"{p['title']} {p['first_name']} {p['last_name']}"

    def plain(self, sid):  # Helen Marsden
        p = self.st[sid]
        return f"{p['first_name']} {p['last_name']}"

    def rev(self, sid):  # Marsden, Helen
        p = self.st[sid]
        return f"{p['last_name']}, {p['first_name']}"

    def rev_title(self, sid):  # Marsden, H. (Dr)
        p = self.st[sid]
        return f"{p['last_name']}, {p['first_name'][0]}. ({p['title']})"

    def rev_initial(self, sid):  # Marsden, H.
        p = self.st[sid]
        return f"{p['last_name']}, {p['first_name'][0]}."

    def title_initial(self, sid):  # Dr. H. Marsden
        p = self.st[sid]
        t = p["title"] if p["title"].endswith(".") else p["title"] + "."
        return f"{t} {p['first_name'][0]}. {p['last_name']}"

    def staff_name(self, d, sid, keys, how, style):
        s, form = {
            "full": (self.full(sid), "name-title"),
            "plain": (self.plain(sid), "name"),
            "rev": (self.rev(sid), "name-reordered"),
            "rev_title": (self.rev_title(sid), "name-reordered-title"),
            "rev_initial": (self.rev_initial(sid), "name-reordered-initial"),
            "title_initial": (self.title_initial(sid), "title-initial"),
            "initials": (self.ini[sid], "initials"),
        }[style]
        keys = [keys] if isinstance(keys, str) else list(keys)
        if style in ("full", "rev_title", "title_initial"):
            keys.append(K("staff", "title", sid))
        d.v(s, keys, how, form)

    SHORT = {"HLB": "Harrowgate", "FWB": "Fold Walk", "MCH": "Mercer", "GSC": "Greenhow", "OTB": "Tannery",
             "ELB": "Ellison"}

    def bname_short(self, b):
        return self.SHORT[b]

    def room(self, d, code, keys, how, style):
        r = self.ro[code]
        b = self.bu[r["building_code"]]
        s, form = {
            "code": (code, "code"),
            "bld_room": (f"{b['name']} {r['room_number']}", "building-room"),
            "room_bld": (f"Room {r['room_number']}, {b['name']}", "room-building"),
            "short": (f"{self.bname_short(r['building_code'])} {r['room_number']}", "building-short-room"),
            "name": (r["room_name"] or f"{b['name']} {r['room_number']}", "name" if r["room_name"] else "building-room"),
        }[style]
        keys = [keys] if isinstance(keys, str) else list(keys)
        if form in ("building-room", "room-building", "building-short-room"):
            keys += [K("rooms", "building_code", code), K("rooms", "room_number", code)]
        d.v(s, keys, how, form)

    def code_forms(self, code, style):
        return {"code": (code, "code"), "lower": (code.lower(), "code-lower"),
                "spaced": (code[:3] + " " + code[3:], "code-spaced")}[style]

    def mcode(self, d, code, keys, how, style="code"):
        s, form = self.code_forms(code, style)
        d.v(s, keys, how, form)

    def credits(self, d, code, how, style):
        n = self.mo[code]["credits"]
        s, form = {"unit": (f"{n} credits", "number-unit"), "cr": (f"{n}cr", "credits-cr"),
                   "cats": (f"{n} CATS", "credits-cats"), "words": (f"{NUMW[n]} credits", "number-words"),
                   "plain": (str(n), "plain-number")}[style]
        d.v(s, K("modules", "credits", code), how, form)

    def weight(self, d, a, how, style, keys=None, split_id=None):
        w = a["weight"]
        s, form = {"pct": (pct(w), "pct"), "pct_space": (pct(w).replace("%", " %"), "pct-space"),
                   "words": (pct_words(w), "pct-words"), "frac": (FRACTIONS[w], "fraction"),
                   "dec": (f"{w:.2f}", "decimal")}[style]
        d.v(s, keys or K("assessments", "weight", a["assessment_id"]), how, form, split_id=split_id)

    def year_run(self, code, year):
        sem = self.mo[code]["semester"]
        y0 = int(year[:4])
        return (code, f"{y0}-AUT") if sem == "Autumn" else (code, f"{y0 + 1}-SPR")

    # -------------------------------------------------------------- programme handbooks: a section per module
    def handbooks(self):
        styles = {
            "BSENV": dict(code="code", cred="unit", conv="full", comp="words", wt="pct"),
            "BSGEO": dict(code="spaced", cred="cr", conv="title_initial", comp="words", wt="pct"),
            "BSGLG": dict(code="code", cred="unit", conv="rev_title", comp="core", wt="frac"),
            "FDECO": dict(code="code", cred="words", conv="plain", comp="words", wt="words"),
            "MSENM": dict(code="code", cred="cats", conv="rev_title", comp="core", wt="pct_space"),
            "MSGDS": dict(code="lower", cred="cats", conv="full", comp="core", wt="dec"),
        }
        for pcode, sty in styles.items():
            p = self.pr[pcode]
            d = self.doc(f"handbooks/{pcode.lower()}-handbook-2025-26.md", "handbook",
                         f"{p['award']} {p['name']} handbook 2025/26")
            d.add("# ").v(p["award"], K("programmes", "award", pcode), "heading", "verbatim").add(" ")
            d.v(p["name"], (), "heading").add(" — Programme Handbook 2025/26\n\n")
            d.add(f"{DEPT}, {COLLEGE}\n\n")
            d.add("Programme code: ").v(pcode, K("programmes", "name", pcode), "heading-subject", "code")
            if p["ucas_code"]:
                d.add(" · UCAS ").v(p["ucas_code"], K("programmes", "ucas_code", pcode), "heading-subject", "code")
            yrs = p["duration_years"]
            d.add(" · ").v(f"{yrs} years" if yrs > 1 else "one year", K("programmes", "duration_years", pcode),
                           "heading-subject", "number-unit" if yrs > 1 else "number-words")
            d.add(" ").v(p["mode"], K("programmes", "mode", pcode), "heading-subject").add("\n\n")
            d.add("Programme leader: ")
            self.staff_name(d, p["leader_id"], K("programmes", "leader_id", pcode), "heading-subject", sty["conv"])
            L = self.st[p["leader_id"]]
            d.add(" (").v(L["email"], K("staff", "email", L["staff_id"]), "prose").add(")\n\n")
            d.add("This handbook describes the modules of the programme as they run in 2025/26. The module "
                  "descriptors on the VLE are the definitive record; where the two differ, tell the programme "
                  "administrator.\n\n")
            by_year = defaultdict(list)
            for r in self.pm[pcode]:
                by_year[r["year_of_study"]].append(r)
            for year in sorted(by_year):
                d.add("## ").v(f"Year {year}", [kpm("year_of_study", pcode, r["module_code"]) for r in by_year[year]],
                               "table-under-heading", "year-label").add("\n\n")
                for r in by_year[year]:
                    m = self.mo[r["module_code"]]
                    mc = m["module_code"]
                    d.add("### ")
                    if pcode == "BSGEO":
                        d.v(m["title"], kpm("module_code", pcode, mc), "heading", "name").add(" (")
                        self.mcode(d, mc, K("modules", "title", mc), "heading", sty["code"])
                        d.add(")\n\n")
                    else:
                        s, form = self.code_forms(mc, sty["code"])
                        d.v(s, [kpm("module_code", pcode, mc), K("modules", "title", mc)], "heading", form).add(" ")
                        d.v(m["title"], (), "heading").add("\n\n")
                    self.credits(d, mc, "heading-subject", sty["cred"])
                    d.add(", Level ").v(m["level"], K("modules", "level", mc), "heading-subject", "plain-number")
                    d.add(", taught in the ").v(m["semester"], K("modules", "semester", mc), "heading-subject").add(" term. ")
                    if sty["comp"] == "words":
                        word = "Compulsory" if r["is_compulsory"] else "Optional"
                        d.add("**").v(word, kpm("is_compulsory", pcode, mc), "heading-subject", "boolean-word").add(".**")
                    else:
                        word = "Core" if r["is_compulsory"] else "Option"
                        d.add("Status: ").v(word, kpm("is_compulsory", pcode, mc), "heading-subject", "core-option").add(".")
                    d.add("\n\nConvenor: ")
                    self.staff_name(d, m["convenor_id"], K("modules", "convenor_id", mc), "heading-subject", sty["conv"])
                    d.add(". Pre-requisite: ")
                    if m["prerequisite_code"]:
                        self.mcode(d, m["prerequisite_code"], K("modules", "prerequisite_code", mc), "heading-subject",
                                   sty["code"])
                    else:
                        d.v("none", K("modules", "prerequisite_code", mc), "heading-subject", "null-stated")
                    d.add(".\n\n")
                    comps = self.asm[(mc, "2025/26")]
                    if mc in self.scheme_modules:
                        d.add("Assessment: see the module descriptor.\n\n")
                    else:
                        d.add("Assessment: ")
                        for i, a in enumerate(comps):
                            if i:
                                d.add(", ")
                            d.v(a["title"], [K("assessments", "title", a["assessment_id"]),
                                             K("assessments", "module_code", a["assessment_id"])], "heading-subject")
                            d.add(" (")
                            self.weight(d, a, "heading-subject", sty["wt"])
                            d.add(")")
                        d.add(".\n\n")
            d.add(f"---\n{SIGN}\n")

    # -------------------------------------------------------------- module descriptors (dotted key: value cards)
    def descriptors(self):
        skip = {"ENV1030", "ENV3060", "GEO3001", "GLG3009", "ENV7001", "ENV7090", "GDS7008", "ECO2001", "ENV3050",
                "GLG1005", "ENV2020"}
        for mc, m in self.mo.items():
            if mc in skip:
                continue
            d = self.doc(f"modules/descriptors/{mc.lower()}.txt", "descriptor", f"Module descriptor {mc}")
            d.add(f"{COLLEGE.upper()} - MODULE DESCRIPTOR (approved for 2025/26)\n\n")

            def row(label):
                d.add(f"{label} " + "." * (20 - len(label)) + " ")

            row("Module code")
            d.v(mc, K("modules", "title", mc), "kv-text", "code").add("\n")
            row("Title")
            d.v(m["title"], (), "kv-text").add("\n")
            row("Level")
            d.v(m["level"], K("modules", "level", mc), "kv-text", "plain-number").add(" (FHEQ)\n")
            row("Credit value")
            self.credits(d, mc, "kv-text", "cr" if m["level"] < 7 else "cats")
            d.add("\n")
            row("Semester")
            d.v("1" if m["semester"] == "Autumn" else "2", K("modules", "semester", mc), "kv-text", "semester-number")
            d.add("\n")
            row("Convenor")
            self.staff_name(d, m["convenor_id"], K("modules", "convenor_id", mc), "kv-text", "rev_title")
            d.add("\n")
            row("Pre-requisite(s)")
            if m["prerequisite_code"]:
                pre = self.mo[m["prerequisite_code"]]
                d.v(pre["module_code"], [K("modules", "prerequisite_code", mc), K("modules", "title", pre["module_code"])],
                    "kv-text", "code").add(" ")
                d.add(pre["title"]).add("\n")
            else:
                d.v("None", K("modules", "prerequisite_code", mc), "kv-text", "null-stated").add("\n")
            row("Pass mark")
            pm = m["pass_mark"]
            if mc in ("ENV2041", "ENV7003", "GDS7004"):
                d.v(f"{NUMW[pm]} per cent", K("modules", "pass_mark", mc), "kv-text", "pct-words")
            else:
                d.v(f"{pm}%", K("modules", "pass_mark", mc), "kv-text", "pct")
            d.add("\n")
            row("Assessment")
            comps = self.asm[(mc, "2025/26")]
            if mc in self.scheme_modules:
                letter = self.scheme_letter(mc)
                d.add("Scheme ")
                start = d.n
                d.add(letter)
                for a in comps:
                    sid = f"scheme-{a['assessment_id']}"
                    d.facts.append({"fact_key": K("assessments", "weight", a["assessment_id"]), "doc_id": d.path,
                                    "surface": letter, "start": start, "end": d.n, "exact": True, "how": "split",
                                    "form": "scheme-letter", "split_id": sid})
                d.add(" (see Assessment Schemes, Quality Manual section 4)\n")
            else:
                for i, a in enumerate(comps):
                    if i:
                        d.add(" / ")
                    d.v(a["title"], [K("assessments", "title", a["assessment_id"]),
                                     K("assessments", "module_code", a["assessment_id"])], "kv-text")
                    d.add(" ")
                    self.weight(d, a, "kv-text", "pct")
                d.add("\n")
            run = self.runs.get(self.year_run(mc, "2025/26"))
            if run and mc not in ("ENV3000",):
                row("Teaching 2025/26")
                d.v(run["weekday"] + "s", kr("weekday", run["module_code"], run["term"]), "kv-text", "weekday-plural")
                d.add(" ").v(run["start_time"], kr("start_time", run["module_code"], run["term"]), "kv-text")
                d.add(", ")
                self.room(d, run["room_code"], kr("room_code", run["module_code"], run["term"]), "kv-text", "bld_room")
                d.add(" (").v(f"{run['duration_hours']} h", kr("duration_hours", run["module_code"], run["term"]),
                              "kv-text", "hours-abbrev").add(")\n")
            d.add("\nChanges to an approved descriptor need the Faculty Quality Committee's consent.\n")

    def scheme_letter(self, mc):
        import importlib.util

        if not hasattr(self, "_schemes"):
            spec = importlib.util.spec_from_file_location("ashby_make_db", os.path.join(HERE, "make_db.py"))
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            self._schemes, self._scheme_of = mod.SCHEMES, mod.SCHEME_OF
        return self._scheme_of[mc]

    def schemes_doc(self):
        d = self.doc("quality/assessment-schemes.md", "assessment-schemes", "Assessment schemes")
        d.add("# Assessment schemes (Quality Manual, section 4)\n\nEvery module uses one of the department's "
              "standard schemes. The module descriptor names the scheme; the weights below apply to every module "
              "that uses it.\n\n| Scheme | Component | Weight |\n|---|---|--:|\n")
        self.scheme_letter("ENV1001")
        for letter, comps in self._schemes.items():
            for no, (title, kind, w) in enumerate(comps, 1):
                d.add(f"| {letter if no == 1 else ''} | {title} | ")
                start = d.n
                d.add(pct(w))
                for mc in self.scheme_modules:
                    if self._scheme_of[mc] != letter:
                        continue
                    a = self.asm[(mc, "2025/26")][no - 1]
                    assert a["weight"] == w and a["title"] == title
                    sid = f"scheme-{a['assessment_id']}"
                    d.facts.append({"fact_key": K("assessments", "weight", a["assessment_id"]), "doc_id": d.path,
                                    "surface": pct(w), "start": start, "end": d.n, "exact": True, "how": "split",
                                    "form": "pct", "split_id": sid})
                    self.split.append({"fact_key": K("assessments", "weight", a["assessment_id"]), "split_id": sid,
                                       "doc_ids": [d.path, f"modules/descriptors/{mc.lower()}.txt"],
                                       "note": "the scheme table gives weights by scheme letter; the descriptor gives "
                                               "the module's scheme letter"})
                d.add(" |\n")
        d.add("\nA module may not change scheme within an academic year.\n")

    # -------------------------------------------------------------- timetable grids (HTML, merged headers)
    def grids(self):
        for term, path in (("2025-AUT", "timetables/autumn-2025-grid.html"), ("2026-SPR", "timetables/spring-2026-grid.html")):
            runs = [r for (mc, t), r in self.runs.items() if t == term]
            days = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
            times = sorted({r["start_time"] for r in runs})
            d = self.doc(path, "timetable-grid", f"Teaching timetable, {TERM_LABEL[term]}")
            d.add(f"<html><head><title>Teaching timetable {TERM_LABEL[term]}</title></head><body>\n")
            d.add(f"<h1>{DEPT}: teaching timetable</h1>\n<p>Lectures, practicals and seminars. Rooms are given as "
                  "building and room number; staff by their initials (key below).</p>\n<table border=\"1\">\n")
            d.add(f"<tr><th rowspan=\"2\">Start</th><th colspan=\"5\">{TERM_LABEL[term]}</th></tr>\n<tr>")
            for day in days:
                d.add("<th>").v(day, [kr("weekday", r["module_code"], term) for r in runs if r["weekday"] == day],
                                "html-table").add("</th>")
            d.add("</tr>\n")
            used = set()
            for t in times:
                d.add("<tr><th>").v(t, [kr("start_time", r["module_code"], term) for r in runs if r["start_time"] == t],
                                    "html-table").add("</th>")
                for day in days:
                    cell = [r for r in runs if r["weekday"] == day and r["start_time"] == t]
                    d.add("<td>")
                    for i, r in enumerate(cell):
                        mc = r["module_code"]
                        if i:
                            d.add("<hr>")
                        d.v(mc, kr("term", mc, term), "html-table", "code").add("<br>")
                        self.room(d, r["room_code"], kr("room_code", mc, term), "html-table", "short")
                        d.add("<br>")
                        if r["lecturer_id"]:
                            d.v(self.ini[r["lecturer_id"]], kr("lecturer_id", mc, term), "html-table", "initials")
                            used.add(r["lecturer_id"])
                        else:
                            d.v("TBC", kr("lecturer_id", mc, term), "html-table", "null-stated")
                        d.add(" (").v(f"{r['duration_hours']}h", kr("duration_hours", mc, term), "html-table",
                                      "hours-abbrev").add(")")
                    d.add("</td>")
                d.add("</tr>\n")
            d.add("</table>\n<h2>Key to initials</h2>\n<ul>\n")
            for sid in sorted(used, key=lambda s: self.ini[s]):
                d.add(f"<li>{self.ini[sid]}: ").v(self.full(sid), K("staff", "title", sid), "html-table", "name-title")
                d.add("</li>\n")
            d.add("</ul>\n<p>Field days are timetabled separately. Check the VLE for room changes.</p>\n</body></html>\n")

    # -------------------------------------------------------------- per-programme timetables (Markdown)
    def programme_timetables(self):
        for pcode, year, term, path in (("BSENV", 1, "2025-AUT", "timetables/bsenv-year1-autumn-2025.md"),
                                        ("MSGDS", 1, "2025-AUT", "timetables/msc-gds-autumn-2025.md"),
                                        ("BSGEO", 2, "2026-SPR", "timetables/bsgeo-year2-spring-2026.md")):
            p = self.pr[pcode]
            d = self.doc(path, "programme-timetable", f"{p['name']} Year {year} {TERM_LABEL[term]}")
            d.add(f"# {p['award']} {p['name']}: Year {year}, {TERM_LABEL[term]}\n\n")
            d.add("| Day | Time | Module | Where | Who |\n|---|---|---|---|---|\n")
            mods = [r["module_code"] for r in self.pm[pcode] if r["year_of_study"] == year and r["is_compulsory"]]
            rows = [self.runs[(mc, term)] for mc in mods if (mc, term) in self.runs]
            order = {d_: i for i, d_ in enumerate(["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"])}
            for r in sorted(rows, key=lambda r: (order[r["weekday"]], r["start_time"])):
                mc = r["module_code"]
                end = f"{int(r['start_time'][:2]) + r['duration_hours']:02d}:00"
                d.add("| ").v(r["weekday"][:3], kr("weekday", mc, term), "table", "weekday-abbrev").add(" | ")
                d.v(time_ampm(r["start_time"]), kr("start_time", mc, term), "table", "time-ampm")
                d.add("–" + time_ampm(end) + " | ")
                self.mcode(d, mc, [kr("term", mc, term), K("modules", "title", mc)], "table", "spaced")
                d.add(" " + self.mo[mc]["title"] + " | ")
                self.room(d, r["room_code"], kr("room_code", mc, term), "table", "room_bld")
                d.add(" | ")
                if r["lecturer_id"]:
                    self.staff_name(d, r["lecturer_id"], kr("lecturer_id", mc, term), "table", "title_initial")
                else:
                    d.v("to be confirmed", kr("lecturer_id", mc, term), "table", "null-stated")
                d.add(" |\n")
            d.add("\nOptional modules are not shown; see the full grid.\n")

    # -------------------------------------------------------------- room-booking export (fixed width)
    def booking_export(self):
        d = self.doc("estates/room-bookings-2025-26.txt", "booking-export", "Room bookings 2025/26 (export)")
        d.add("ESTATES ROOM BOOKING SYSTEM - EXPORT  dept=EES  year=2025/26  run 2025-11-18 07:02\n")
        d.add(f"{'ROOM':<10}{'DAY':<5}{'START':<7}{'HRS':<5}{'BOOKING REF':<14}HEADCOUNT\n")
        d.add("-" * 50 + "\n")
        rows = [r for (mc, t), r in self.runs.items() if t in ("2025-AUT", "2026-SPR")]
        for r in sorted(rows, key=lambda r: (r["room_code"], r["term"], r["weekday"], r["start_time"])):
            mc, term = r["module_code"], r["term"]
            d.v(r["room_code"], kr("room_code", mc, term), "table", "code").add(" " * (10 - len(r["room_code"])))
            d.v(r["weekday"][:3].upper(), kr("weekday", mc, term), "table", "weekday-upper").add("  ")
            d.v(time_hhmm(r["start_time"]), kr("start_time", mc, term), "table", "time-hhmm").add("   ")
            d.v(str(r["duration_hours"]), kr("duration_hours", mc, term), "table", "plain-number").add("    ")
            ref = f"{mc}/{term[2:4]}{term[5]}"
            d.v(ref, kr("term", mc, term), "table", "booking-ref").add(" " * (14 - len(ref)))
            if r["enrolled"] is None:
                d.v("TBC", kr("enrolled", mc, term), "table", "null-stated")
            else:
                d.v(str(r["enrolled"]), kr("enrolled", mc, term), "table", "plain-number")
            d.add("\n")
        d.add("-" * 50 + f"\n{len(rows)} bookings. Booking refs: module/YY + A (autumn) or S (spring).\n")

    # -------------------------------------------------------------- staff directory and profiles
    def directory(self):
        d = self.doc("staff/directory.html", "staff-directory", "Staff directory")
        d.add("<html><head><title>Staff directory</title></head><body>\n<h1>Who's who</h1>\n<table>\n")
        d.add("<tr><th rowspan=\"2\">Name</th><th rowspan=\"2\"></th><th rowspan=\"2\">Position</th>"
              "<th colspan=\"2\">Contact</th></tr>\n<tr><th>Office</th><th>Ext.</th></tr>\n")
        groups = (("Academic staff", lambda p: p["job_title"] not in ("Senior Technician", "GIS Technician",
                                                                       "Programme Administrator")),
                  ("Technical and professional services", lambda p: p["job_title"] in (
                      "Senior Technician", "GIS Technician", "Programme Administrator")))
        for label, test in groups:
            d.add(f"<tr><th colspan=\"5\">{label}</th></tr>\n")
            for sid, p in sorted(self.st.items(), key=lambda kv_: (kv_[1]["last_name"], kv_[1]["first_name"])):
                if not test(p):
                    continue
                d.add("<tr><td>").v(self.rev(sid), (), "html-table", "name-reordered").add("</td><td>")
                d.v(p["title"], K("staff", "title", sid), "html-table").add("</td><td>")
                d.v(p["job_title"], K("staff", "job_title", sid), "html-table").add("</td><td>")
                if p["office_room"]:
                    self.room(d, p["office_room"], K("staff", "office_room", sid), "html-table", "bld_room")
                else:
                    d.v("hot desk", K("staff", "office_room", sid), "html-table", "null-stated")
                d.add("</td><td>")
                if p["phone_ext"]:
                    d.v(p["phone_ext"], K("staff", "phone_ext", sid), "html-table")
                else:
                    d.v("—", K("staff", "phone_ext", sid), "html-table", "null-stated")
                d.add("</td></tr>\n")
        d.add("</table>\n<p>External callers: 01969 62 followed by the extension.</p>\n</body></html>\n")

    def profiles(self):
        convenes = defaultdict(list)
        for mc, m in self.mo.items():
            convenes[m["convenor_id"]].append(mc)
        leads = {p["leader_id"]: pc for pc, p in self.pr.items() if pc != "BSENP"}
        skip = {6, 15, 20, 8, 24, 28, 19, 13, 23, 27}  # no profile page (technicians, admin, new or part-time staff)
        hobbies = ["fell running", "the brass band in Hawes", "dry-stone walling", "birdwatching on the Swale",
                   "caving", "allotment gardening", "restoring an old Land Rover"]
        for i, (sid, p) in enumerate(self.st.items()):
            if sid in skip:
                continue
            slugname = f"{p['first_name']}-{p['last_name']}".lower()
            if i % 3 == 2:
                d = self.doc(f"staff/profiles/{slugname}.html", "staff-profile", self.full(sid))
                d.add(f"<html><head><title>{html.escape(self.full(sid))}</title></head><body>\n<h1>")
                d.v(self.title_initial(sid), K("staff", "title", sid), "heading", "title-initial").add("</h1>\n<dl>\n")
                d.add("<dt>Name</dt><dd>").v(self.rev(sid), (), "card", "name-reordered").add("</dd>\n")
                d.add("<dt>Role</dt><dd>").v(p["job_title"], K("staff", "job_title", sid), "card").add("</dd>\n")
                d.add("<dt>E-mail</dt><dd>").v(p["email"], K("staff", "email", sid), "card").add("</dd>\n")
                if p["phone_ext"]:
                    d.add("<dt>Telephone</dt><dd>").v(f"01969 62{p['phone_ext']}", K("staff", "phone_ext", sid), "card",
                                                       "phone-full").add("</dd>\n")
                if p["office_room"]:
                    d.add("<dt>Office</dt><dd>")
                    self.room(d, p["office_room"], K("staff", "office_room", sid), "card", "room_bld")
                    d.add("</dd>\n")
                d.add("<dt>At Ashby Fold since</dt><dd>").v(date_ord_abbrev(p["start_date"]), K("staff", "start_date", sid),
                                                             "card", "date-ord-abbrev").add("</dd>\n</dl>\n")
                if convenes[sid]:
                    d.add("<h2>Modules convened</h2>\n<ul>\n")
                    for mc in convenes[sid]:
                        d.add("<li>").v(mc, [K("modules", "convenor_id", mc), K("modules", "title", mc)], "card", "code")
                        d.add(" " + html.escape(self.mo[mc]["title"]) + "</li>\n")
                    d.add("</ul>\n")
                d.add("</body></html>\n")
            else:
                d = self.doc(f"staff/profiles/{slugname}.md", "staff-profile", self.full(sid))
                d.add("# ").v(self.full(sid), K("staff", "title", sid), "heading", "name-title").add("\n\n*")
                d.v(p["job_title"], K("staff", "job_title", sid), "heading-subject").add("*\n\n")
                fn = p["first_name"]
                pron = "She" if fn in ("Ruth", "Helen", "Priya", "Aisha", "Gwen", "Lucy", "Niamh", "Fiona", "Emma",
                                       "Anne", "Sara", "Harriet", "Carol") else "He"
                x = D(p["start_date"])
                d.add(f"{fn} joined the department ")
                if i % 2:
                    d.v(f"in {x:%B %Y}", K("staff", "start_date", sid), "prose", "approx-date", exact=False)
                else:
                    d.add("on ").v(date_words(p["start_date"]), K("staff", "start_date", sid), "prose", "date-words")
                d.add(f" and teaches across the undergraduate programmes. Outside work: {self.rnd.choice(hobbies)}.")
                if convenes[sid]:
                    d.add(f" {pron} convenes ")
                    for j, mc in enumerate(convenes[sid]):
                        if j:
                            d.add(" and " if j == len(convenes[sid]) - 1 else ", ")
                        d.v(self.mo[mc]["title"], K("modules", "convenor_id", mc), "pronoun", "name").add(" (")
                        self.mcode(d, mc, K("modules", "title", mc), "pronoun", "code")
                        d.add(")")
                    d.add(".")
                if sid in leads:
                    pc = leads[sid]
                    d.add(f" {pron} also leads the ").v(f"{self.pr[pc]['award']} {self.pr[pc]['name']}",
                                                        K("programmes", "leader_id", pc), "pronoun", "name")
                    d.add(" programme.")
                d.add("\n\n**Contact:** ").v(p["email"], K("staff", "email", sid), "heading-subject")
                if p["phone_ext"]:
                    d.add(" · ext. ").v(p["phone_ext"], K("staff", "phone_ext", sid), "heading-subject")
                if p["office_room"]:
                    d.add(" · ")
                    self.room(d, p["office_room"], K("staff", "office_room", sid), "heading-subject", "room_bld")
                d.add("\n")

    # -------------------------------------------------------------- assessment briefs and the deadline calendar
    def briefs(self):
        picks = ["ENV2041", "ENV1001", "ENV3015", "GEO2015", "ENV2010", "GDS7004", "ENV1020", "ENV7003", "ENV3020",
                 "GLG2003", "ENV2030", "ENV1002", "ENV3012", "ECO2001"]
        wstyles = ["pct", "words", "frac", "dec", "pct_space"]
        dstyles = [("dow", date_dow_words, "date-dow-words"), ("uk", date_uk, "date-uk"),
                   ("ord", date_ord_abbrev, "date-ord-abbrev"), ("us", date_us, "date-us"),
                   ("dots", date_dots2, "date-dots-2y")]
        for i, mc in enumerate(picks):
            a = next(x for x in self.asm[(mc, "2025/26")] if x["due_date"])
            aid = a["assessment_id"]
            m = self.mo[mc]
            d = self.doc(f"assessment/briefs/{mc.lower()}-{a['component_no']}.md", "assessment-brief",
                         f"{mc} assessment {a['component_no']}")
            d.add("# ").v(mc, [K("assessments", "module_code", aid), K("modules", "title", mc)], "heading", "code")
            d.add(f" {m['title']} — Assessment ").v(a["component_no"], K("assessments", "component_no", aid), "heading",
                                                    "plain-number")
            d.add(": ").v(a["title"], K("assessments", "title", aid), "heading")
            d.add("\n\n")
            d.add("- **Academic year:** ").v(a["academic_year"].replace("/", "-") if i % 2 else a["academic_year"],
                                             K("assessments", "academic_year", aid), "card",
                                             "year-dash" if i % 2 else "verbatim").add("\n")
            d.add("- **Type:** ").v(a["kind"].capitalize(), K("assessments", "kind", aid), "card", "capitalised").add("\n")
            d.add("- **Weighting:** ")
            self.weight(d, a, "card", wstyles[i % len(wstyles)])
            d.add(" of the module mark\n")
            _, fn, form = dstyles[i % len(dstyles)]
            d.add("- **Submit by:** 12 noon, ").v(fn(a["due_date"]), K("assessments", "due_date", aid), "card", form)
            d.add(", through the VLE\n")
            if a["word_limit"]:
                wl = a["word_limit"]
                if i % 3 == 1:
                    d.add("- **Length:** ").v(f"{wl / 1000:g}k words", K("assessments", "word_limit", aid), "card",
                                              "k-words")
                else:
                    d.add("- **Length:** ").v(f"{wl:,} words", K("assessments", "word_limit", aid), "card",
                                              "thousands-unit")
                d.add(" (10% either way without penalty)\n")
            d.add("- **Set by:** ")
            self.staff_name(d, m["convenor_id"], K("modules", "convenor_id", mc), "card", "title_initial")
            d.add("\n\n## The task\n\nWrite up the work described in the module handbook, using the data collected "
                  "in class. Marks are given for the clarity of the question, the quality of the analysis and the "
                  "use of the literature. Late work is capped at the pass mark.\n")

    def deadlines(self):
        d = self.doc("assessment/deadlines-2025-26.md", "deadline-calendar", "Coursework deadlines 2025/26")
        d.add("# Coursework deadlines, 2025/26\n\nAll deadlines are 12 noon. Examinations are timetabled by the "
              "Examinations Office and are not listed.\n\n")
        for sem, label in (("Autumn", "Autumn term 2025"), ("Spring", "Spring term 2026")):
            d.add(f"## {label}\n\n| Due | Module | Component |\n|---|---|---|\n")
            rows = [a for (mc, y), comps in self.asm.items() if y == "2025/26" and self.mo[mc]["semester"] == sem
                    for a in comps if a["due_date"]]
            for a in sorted(rows, key=lambda a: (a["due_date"], a["module_code"], a["component_no"])):
                aid = a["assessment_id"]
                d.add("| ").v(date_dm(a["due_date"]), K("assessments", "due_date", aid), "table", "date-dm-yearheading")
                d.add(" | ")
                self.mcode(d, a["module_code"], K("assessments", "module_code", aid), "table", "lower")
                d.add(" | ").v(a["title"], K("assessments", "title", aid), "table").add(" |\n")
            d.add("\n")
        d.add("Extensions: apply through the Student Hub before the deadline.\n")

    # -------------------------------------------------------------- rooms and buildings
    def buildings(self):
        for code, b in self.bu.items():
            if code == "ELB":
                self.omit("library_building", "the Ellison Library (library services, not the department) has no page; "
                          "its code is never written and its rooms appear only by number",
                          [K("buildings", c, code) for c in ("name", "campus", "opened_year", "step_free")])
                continue
            d = self.doc(f"estates/buildings/{b['name'].lower().replace(' ', '-')}.md", "building", b["name"])
            d.add("# ").v(b["name"], (), "heading").add("\n\n")
            d.add("Estates code ").v(code, K("buildings", "name", code), "heading-subject", "code").add(". ")
            d.add("On the ").v(b["campus"], K("buildings", "campus", code), "heading-subject").add(" campus; ")
            if code in ("HLB", "GSC"):
                d.add("opened in ").v(b["opened_year"], K("buildings", "opened_year", code), "heading-subject",
                                      "plain-number").add(". ")
            else:
                d.add("built ").v(b["opened_year"], K("buildings", "opened_year", code), "heading-subject",
                                  "plain-number").add(". ")
            if b["step_free"]:
                d.v("Step-free access to every floor.", K("buildings", "step_free", code), "heading-subject",
                    "boolean-phrase")
            else:
                d.v("There is no lift; upper floors are reached by stairs only.", K("buildings", "step_free", code),
                    "heading-subject", "boolean-phrase")
            d.add("\n\n## Rooms\n\n")
            for rc, r in self.ro.items():
                if r["building_code"] != code or r["room_type"] == "office":
                    continue
                d.add("- ").v(r["room_number"], [K("rooms", "building_code", rc), K("rooms", "room_number", rc)],
                              "table-under-heading", "room-number")
                if r["room_name"]:
                    d.add(" ").v(r["room_name"], K("rooms", "room_name", rc), "table-under-heading")
                d.add(" — ").v(r["room_type"], K("rooms", "room_type", rc), "table-under-heading").add(", ")
                d.v(f"{r['capacity']} seats", K("rooms", "capacity", rc), "table-under-heading", "number-unit").add("\n")
            d.add("\nOffices are not bookable. Report faults to the Estates helpdesk, ext. 4000.\n")

    def room_list(self):
        d = self.doc("estates/teaching-rooms.html", "room-list", "Teaching rooms")
        d.add("<html><head><title>Teaching rooms</title></head><body>\n<h1>Teaching rooms used by the department</h1>\n")
        d.add("<table>\n<tr><th>Room</th><th>Name</th><th>Type</th><th>Seats</th></tr>\n")
        for code, b in self.bu.items():
            rooms = [rc for rc, r in self.ro.items() if r["building_code"] == code and r["room_type"] != "office"]
            d.add("<tr><th colspan=\"4\">").v(b["name"], [K("rooms", "building_code", rc) for rc in rooms],
                                              "table-under-heading", "name").add("</th></tr>\n")
            for rc in rooms:
                r = self.ro[rc]
                d.add("<tr><td>").v(rc, K("rooms", "building_code", rc), "html-table", "code").add("</td><td>")
                if r["room_name"]:
                    d.v(r["room_name"], K("rooms", "room_name", rc), "html-table")
                else:
                    d.v("-", K("rooms", "room_name", rc), "html-table", "null-stated")
                d.add("</td><td>").v(r["room_type"].capitalize(), K("rooms", "room_type", rc), "html-table",
                                     "capitalised").add("</td><td>")
                d.v(r["capacity"], K("rooms", "capacity", rc), "html-table", "plain-number").add("</td></tr>\n")
        d.add("</table>\n</body></html>\n")

    # -------------------------------------------------------------- programme structures, leaflets, catalogue
    def structures(self):
        d = self.doc("programmes/structures-2025-26.html", "programme-structure", "Programme structures 2025/26")
        d.add("<html><head><title>Programme structures 2025/26</title></head><body>\n<h1>Programme structures</h1>\n")
        d.add("<p>C = compulsory, O = optional.</p>\n<table>\n")
        for pcode, rows in self.pm.items():
            p = self.pr[pcode]
            d.add("<tr><th colspan=\"4\">").v(p["award"], K("programmes", "award", pcode), "heading").add(" ")
            d.v(p["name"], (), "heading")
            d.add(" (").v(p["mode"], K("programmes", "mode", pcode), "heading-subject").add(")</th></tr>\n")
            by_year = defaultdict(list)
            for r in rows:
                by_year[r["year_of_study"]].append(r)
            for y in sorted(by_year):
                label = "Stage" if p["mode"] == "part-time" else "Year"
                d.add("<tr><th colspan=\"4\">").v(f"{label} {y}", [kpm("year_of_study", pcode, r["module_code"])
                                                                   for r in by_year[y]], "table-under-heading",
                                                  "year-label").add("</th></tr>\n")
                for r in by_year[y]:
                    mc = r["module_code"]
                    d.add("<tr><td>").v(mc, [kpm("module_code", pcode, mc), K("modules", "title", mc)], "table-under-heading",
                                        "code").add("</td><td>")
                    d.add(html.escape(self.mo[mc]["title"])).add("</td><td>")
                    d.v(self.mo[mc]["credits"], K("modules", "credits", mc), "html-table", "plain-number").add("</td><td>")
                    d.v("C" if r["is_compulsory"] else "O", kpm("is_compulsory", pcode, mc), "table-under-heading",
                        "flag-letter").add("</td></tr>\n")
        d.add("</table>\n</body></html>\n")

    def leaflets(self):
        for i, (pcode, p) in enumerate(self.pr.items()):
            d = self.doc(f"programmes/leaflets/{pcode.lower()}.html", "leaflet", f"{p['award']} {p['name']}")
            d.add(f"<html><head><title>{html.escape(p['name'])} at {COLLEGE}</title></head><body>\n<h1>")
            d.v(p["award"], K("programmes", "award", pcode), "heading").add(" ").v(p["name"], (), "heading")
            d.add("</h1>\n<dl>\n<dt>Study</dt><dd>")
            yrs = p["duration_years"]
            d.v(NUMW[yrs] + (" years" if yrs > 1 else " year"), K("programmes", "duration_years", pcode), "card",
                "number-words").add(", ").v(p["mode"], K("programmes", "mode", pcode), "card").add("</dd>\n")
            if p["ucas_code"]:
                d.add("<dt>UCAS code</dt><dd>").v(p["ucas_code"], K("programmes", "ucas_code", pcode), "card", "code")
                d.add("</dd>\n")
            else:
                d.add("<dt>How to apply</dt><dd>Direct to the college (").v("no UCAS code", K("programmes", "ucas_code", pcode),
                                                                            "card", "null-stated").add(")</dd>\n")
            d.add("<dt>Course code</dt><dd>").v(pcode, K("programmes", "name", pcode), "card", "code").add("</dd>\n")
            d.add("<dt>Places</dt><dd>")
            if i % 2:
                d.v(f"around {p['intake_target']}", K("programmes", "intake_target", pcode), "card", "approx-number",
                    exact=False).add(" a year")
            else:
                d.v(f"{p['intake_target']} places", K("programmes", "intake_target", pcode), "card", "number-unit")
            d.add("</dd>\n<dt>Programme leader</dt><dd>")
            self.staff_name(d, p["leader_id"], K("programmes", "leader_id", pcode), "card", "title_initial")
            d.add("</dd>\n</dl>\n<p>Fieldwork in the Yorkshire Dales is part of every year of study. Open days are "
                  "held each October and March.</p>\n</body></html>\n")

    def catalogue(self):
        d = self.doc("modules/catalogue-2025-26.md", "module-catalogue", "Module catalogue 2025/26")
        d.add("# Module catalogue 2025/26\n\n| Code | Title | Credits | Level | Semester | Convenor |\n"
              "|---|---|--:|--:|---|---|\n")
        for mc, m in sorted(self.mo.items()):
            d.add("| ").v(mc, K("modules", "title", mc), "table", "code").add(" | ").v(m["title"], (), "table")
            d.add(" | ")
            self.credits(d, mc, "table", "plain")
            d.add(" | ").v(m["level"], K("modules", "level", mc), "table", "plain-number").add(" | ")
            d.v(m["semester"], K("modules", "semester", mc), "table").add(" | ")
            self.staff_name(d, m["convenor_id"], K("modules", "convenor_id", mc), "table", "rev_initial")
            d.add(" |\n")
        d.add("\nModules at level 7 are open to MSc students only.\n")

    # -------------------------------------------------------------- reports, minutes, mail, news, FAQ
    def census(self):
        d = self.doc("reports/enrolment-census-autumn-2025.md", "census", "Enrolment census, Autumn 2025")
        d.add("# Enrolment census, Autumn term 2025\n\nCensus date 15 October 2025. Students registered on each "
              "module run, from the student record system.\n\n")
        runs = [r for (mc, t), r in self.runs.items() if t == "2025-AUT"]
        for lvl in (4, 5, 6, 7):
            d.add(f"## Level {lvl}\n\n| Module | Registered |\n|---|--:|\n")
            for r in sorted(runs, key=lambda r: r["module_code"]):
                mc = r["module_code"]
                if self.mo[mc]["level"] != lvl:
                    continue
                d.add("| ").v(mc, [kr("term", mc, "2025-AUT"), K("modules", "title", mc)], "table", "code").add(" " + self.mo[mc]["title"] + " | ")
                d.v(r["enrolled"], kr("enrolled", mc, "2025-AUT"), "table", "plain-number").add(" |\n")
            d.add("\n")

    def minutes(self):
        d = self.doc("minutes/exam-board-2025-06-24.md", "minutes", "Exam board, June 2025")
        d.add("# Module Examination Board — minutes\n\n24 June 2025, Mercer Room. Chair: ")
        self.staff_name(d, 1, (), "prose", "title_initial")
        d.add(". External examiner: Dr P. Gale (University of Cumbria).\n\n")
        d.add("## 1. Apologies\n\nNone.\n\n## 2. Module results, 2024/25\n\n")
        d.add("The board reviewed the mark distributions. Numbers are students assessed at the first sitting.\n\n")
        rows = [r for (mc, t), r in self.runs.items() if t in ("2024-AUT", "2025-SPR")]
        for r in rows[:: 2]:
            mc, term = r["module_code"], r["term"]
            d.add("- ").v(mc, [kr("term", mc, term), K("modules", "title", mc)], "prose", "code").add(f" ({self.mo[mc]['title']}, ")
            d.v(TERM_LABEL[term].replace(" term", ""), kr("term", mc, term), "prose", "term-label").add("): ")
            d.v(f"{r['enrolled']} students", kr("enrolled", mc, term), "prose", "number-unit")
            if r["lecturer_id"]:
                d.add("; presented by ")
                self.staff_name(d, r["lecturer_id"], kr("lecturer_id", mc, term), "prose", "full")
            d.add(". Marks confirmed.\n")
        d.add("\n## 3. Any other business\n\nThe board thanked the external examiner, whose term ends this year.\n")

        d = self.doc("minutes/teaching-committee-2025-10-08.md", "minutes", "Teaching committee, October 2025")
        d.add("# Teaching and Learning Committee\n\nMinutes of the meeting of 8 October 2025.\n\n")
        d.add("Present: Ruth Atkinson (chair), Helen Marsden, Owen Kettlewell, Daniel Shaw, Carol Whitfield "
              "(secretary).\n\n")
        d.add("**1. Hydrology.** ")
        r = self.runs[("ENV2041", "2025-AUT")]
        d.add("The committee noted that ").v("ENV2041", [kr("term", "ENV2041", "2025-AUT"), K("modules", "title", "ENV2041")],
                                             "heading-subject", "code")
        d.add(" now has ").v(f"about {round(r['enrolled'], -1)} students", kr("enrolled", "ENV2041", "2025-AUT"),
                             "prose", "approx-number", exact=False)
        d.add(" in a laboratory that seats ").v(str(self.ro[r["room_code"]]["capacity"]),
                                                 K("rooms", "capacity", r["room_code"]), "prose", "plain-number")
        d.add(". Two lab groups will run.\n\n")
        assert self.mo["ENV3015"]["convenor_id"] == 26
        d.add("**2. Environmental Impact Assessment.** ").v("Dr Anne Oddie", [K("modules", "convenor_id", "ENV3015"),
                                                                             K("staff", "title", 26)], "prose",
                                                             "name-title")
        d.add(" takes over the convenorship of ").v("ENV3015", K("modules", "title", "ENV3015"), "heading-subject", "code")
        d.add(" from this year.\n\n")
        d.add("**3. Pass marks.** It was confirmed that the pass mark for ")
        d.v("GDS7001", K("modules", "title", "GDS7001"), "prose", "code").add(" remains ")
        d.v(f"{self.mo['GDS7001']['pass_mark']}%", K("modules", "pass_mark", "GDS7001"), "prose", "pct")
        d.add(", in line with other level 7 modules.\n\n**4. Date of next meeting.** 3 December 2025.\n")

    def mail(self):
        by_mail = {p["email"]: sid for sid, p in self.st.items()}

        def person(d, who):
            name, _, addr = who.partition(" <")
            if not addr:
                d.add(who)
                return
            addr = addr.rstrip(">")
            d.add(f"{name} <")
            if addr in by_mail:
                d.v(addr, K("staff", "email", by_mail[addr]), "header")
            else:
                d.add(addr)
            d.add(">")

        def header(d, frm, to, date, subj):
            d.add("From: ")
            person(d, frm)
            d.add("\nTo: ")
            person(d, to)
            d.add(f"\nDate: {date}\nSubject: {subj}\n\n")

        # 1. room change request with quoted reply
        r = self.runs[("ENV1020", "2025-AUT")]
        d = self.doc("mail/re-env1020-room.txt", "email", "Re: ENV1020 room")
        header(d, "Simon Pratt <s.pratt@ashbyfold.ac.uk>", "Estates Timetabling <timetabling@ashbyfold.ac.uk>",
               "Tue, 7 Oct 2025 09:14", "Re: ENV1020 room")
        d.add("Thanks - the ").v(r["weekday"], kr("weekday", "ENV1020", "2025-AUT"), "prose")
        d.add(" slot is fine, but we really do need the bigger room. With ")
        d.v(str(r["enrolled"]), kr("enrolled", "ENV1020", "2025-AUT"), "prose", "plain-number")
        d.add(" registered we are splitting the practical into three groups.\n\nSimon\n\n")
        d.add("On Mon, 6 Oct 2025, Estates Timetabling wrote:\n> Dear ").v("Dr Pratt", K("staff", "title", 14), "quoted-reply",
                                                                           "title-surname").add(",\n> ")
        d.v("env1020", [kr("term", "ENV1020", "2025-AUT"), K("modules", "title", "ENV1020")], "quoted-reply",
            "code-lower")
        d.add(" Data Analysis for Scientists is booked into ")
        self.room(d, r["room_code"], kr("room_code", "ENV1020", "2025-AUT"), "quoted-reply", "room_bld")
        d.add("\n> on ").v(r["weekday"] + "s", kr("weekday", "ENV1020", "2025-AUT"), "quoted-reply", "weekday-plural")
        d.add(" at ").v(time_ampm(r["start_time"]), kr("start_time", "ENV1020", "2025-AUT"), "quoted-reply", "time-ampm")
        d.add(" for ").v(f"{r['duration_hours']} hours", kr("duration_hours", "ENV1020", "2025-AUT"), "quoted-reply",
                         "number-unit")
        d.add(". The room seats ").v(str(self.ro[r["room_code"]]["capacity"]), K("rooms", "capacity", r["room_code"]),
                                      "quoted-reply", "plain-number")
        d.add(".\n> Regards, Timetabling\n")

        # 2. deadline query, quoted twice
        a = next(x for x in self.asm[("ENV3015", "2025/26")] if x["due_date"])
        d = self.doc("mail/env3015-deadline.txt", "email", "ENV3015 deadline")
        header(d, "Carol Whitfield <c.whitfield@ashbyfold.ac.uk>", "Anne Oddie <a.oddie@ashbyfold.ac.uk>",
               "Wed, 12 Nov 2025 16:40", "Re: Re: ENV3015 portfolio deadline")
        d.add("Lovely, I'll put it on the VLE today.\nCarol\n\n> From: Anne Oddie\n> Yes, that's right - ")
        d.v(date_uk(a["due_date"]), K("assessments", "due_date", a["assessment_id"]), "quoted-reply", "date-uk")
        d.add(", noon.\n> Anne\n>\n>> From: Carol Whitfield\n>> Can you confirm the ")
        d.v("env3015", K("assessments", "module_code", a["assessment_id"]), "quoted-reply", "code-lower").add(" ")
        d.v(a["title"].lower(), K("assessments", "title", a["assessment_id"]), "quoted-reply", "lowercase")
        d.add(" deadline? The student hub still shows last year's date.\n")

        # 3. MSc numbers (approximate)
        d = self.doc("mail/msc-gds-numbers.txt", "email", "MSc GDS numbers")
        header(d, "Kwame Asante <k.asante@ashbyfold.ac.uk>", "Ruth Atkinson <r.atkinson@ashbyfold.ac.uk>",
               "Fri, 19 Sep 2025 11:02", "MSc numbers")
        d.add("Ruth,\n\nWe are on course for ").v(f"roughly {self.pr['MSGDS']['intake_target']}",
                                                   K("programmes", "intake_target", "MSGDS"), "prose", "approx-number",
                                                   exact=False)
        d.add(" on the Geospatial MSc, which is the target. Spatial Databases (")
        d.v("gds7001", K("modules", "title", "GDS7001"), "prose", "code-lower")
        d.add(") will have ").v(f"{self.runs[('GDS7001', '2025-AUT')]['enrolled']} or so",
                               kr("enrolled", "GDS7001", "2025-AUT"), "prose", "approx-number", exact=False)
        d.add(" once the MSc Environmental Management students who chose it are added.\n\nKwame\n")

        # 4. the two Lunds
        r = self.runs[("GDS7004", "2025-AUT")]
        d = self.doc("mail/which-lund.txt", "email", "Which Lund")
        header(d, "James Alderson <j.alderson@ashbyfold.ac.uk>", "Tom Lund <t.lund@ashbyfold.ac.uk>",
               "Mon, 22 Sep 2025 08:51", "Python lab licences")
        d.add("Hi Tom,\n\nSorry - I think this was meant for Tomasz, who teaches ")
        d.v("GDS 7004", kr("term", "GDS7004", "2025-AUT"), "prose", "code-spaced")
        assert r["lecturer_id"] == 10
        d.add(" (").v("Dr Tomasz Lund", [kr("lecturer_id", "GDS7004", "2025-AUT"), K("staff", "title", 10)], "prose",
                      "name-title")
        d.add(", ").v(r["weekday"] + "s", kr("weekday", "GDS7004", "2025-AUT"), "prose", "weekday-plural")
        d.add("). I'll forward it.\n\nJames\n\n> Can you put Python 3.12 on the machines in ")
        self.room(d, r["room_code"], kr("room_code", "GDS7004", "2025-AUT"), "quoted-reply", "name")
        d.add(" before\n> ").v(date_dow_noyear("2025-10-02"), (), "quoted-reply").add("?\n")

        # 5. spring TBC
        tbc = [r for (mc, t), r in self.runs.items() if t == "2026-SPR" and r["lecturer_id"] is None]
        d = self.doc("mail/spring-staffing.txt", "email", "Spring staffing")
        header(d, "Ruth Atkinson <r.atkinson@ashbyfold.ac.uk>", "ees-academic@ashbyfold.ac.uk", "Thu, 13 Nov 2025 10:30",
               "Spring 2026 staffing")
        d.add("Colleagues,\n\nThe spring timetable is out. ")
        for r in tbc:
            d.v(r["module_code"], kr("term", r["module_code"], "2026-SPR"), "prose", "code")
            d.add(" still has ").v("no lecturer assigned", kr("lecturer_id", r["module_code"], "2026-SPR"), "prose",
                                   "null-stated").add(" while we recruit. ")
        r2 = self.runs[("ENV2042", "2026-SPR")]
        d.add("Field Skills 2 moves to ")
        self.room(d, r2["room_code"], kr("room_code", "ENV2042", "2026-SPR"), "prose", "bld_room")
        d.add(" and starts at ").v(time_ampm(r2["start_time"]), kr("start_time", "ENV2042", "2026-SPR"), "prose", "time-ampm")
        d.add(".\n\nRuth\n\n-- \n")
        self.staff_name(d, 1, (), "prose", "full")
        d.add(", ").v(self.st[1]["job_title"], K("staff", "job_title", 1), "prose").add("\n")

        # 6. technician on lab capacity
        d = self.doc("mail/lab-107-capacity.txt", "email", "Lab 1.07 capacity")
        header(d, "Rob Atkinson <rob.atkinson@ashbyfold.ac.uk>", "Owen Kettlewell <o.kettlewell@ashbyfold.ac.uk>",
               "Mon, 29 Sep 2025 14:05", "Re: Hydrology practicals")
        d.add("Owen - ").v("HLB 1.07", (), "prose").add(" takes ")
        d.v(f"{self.ro['HLB.1.07']['capacity']} at the benches", K("rooms", "capacity", "HLB.1.07"), "prose", "number-unit")
        d.add(", no more (fire certificate). I can set up the flumes for three sessions.\n\nRob\n\n> Rob, how many can we "
              "fit in the lab for the ").v("ENV2041", kr("term", "ENV2041", "2025-AUT"), "quoted-reply", "code")
        d.add(" practicals on ").v(self.runs[("ENV2041", "2025-AUT")]["weekday"] + "s", kr("weekday", "ENV2041", "2025-AUT"),
                                   "quoted-reply", "weekday-plural").add("?\n> Owen\n")

        # 7. exams not timetabled
        d = self.doc("mail/exam-dates.txt", "email", "Exam dates")
        header(d, "Examinations Office <exams@ashbyfold.ac.uk>", "ees-academic@ashbyfold.ac.uk", "Tue, 4 Nov 2025 12:00",
               "January exams")
        d.add("Dear colleagues,\n\nJanuary examination dates will be published on 1 December. Until then the ")
        for mc in ("ENV1001", "ENV2041"):
            a = next(x for x in self.asm[(mc, "2025/26")] if x["kind"] == "exam")
            d.v(mc, K("assessments", "module_code", a["assessment_id"]), "prose", "code").add(" ")
            d.v("examination", K("assessments", "title", a["assessment_id"]), "prose", "lowercase")
            d.add(" has ").v("no date yet", K("assessments", "due_date", a["assessment_id"]), "prose",
                                        "null-stated").add("; ")
        d.add("please do not give students provisional dates.\n\nExaminations Office\n")

        # 8. new starter welcome
        p = self.st[28]
        d = self.doc("mail/welcome-sara.txt", "email", "Welcome Sara")
        header(d, "Ruth Atkinson <r.atkinson@ashbyfold.ac.uk>", "ees-all@ashbyfold.ac.uk", "Mon, 1 Sep 2025 08:30",
               "Welcome")
        d.add("All,\n\nPlease welcome ").v("Sara Lindholm", (), "prose").add(", who joins us today (")
        d.v(date_words(p["start_date"]), K("staff", "start_date", 28), "prose", "date-words").add(") as an ")
        d.v(p["job_title"], K("staff", "job_title", 28), "pronoun").add(". She ")
        d.v("does not have an office yet", K("staff", "office_room", 28), "pronoun", "null-stated")
        d.add(" and will hot-desk for now. Her e-mail is ").v(p["email"], K("staff", "email", 28), "pronoun").add(".\n\nRuth\n")

    def news(self):
        d = self.doc("news/asante-joins.md", "news", "Professor Asante joins")
        p = self.st[30]
        d.add("# New professor to lead MSc in Geospatial Data Science\n\n*News, ").v(
            f"{D(p['start_date']):%B %Y}", K("staff", "start_date", 30), "prose", "approx-date", exact=False)
        d.add("*\n\n").v("Kwame Asante", (), "prose").add(" has joined the department as ")
        d.v(p["job_title"], K("staff", "job_title", 30), "prose").add(". He will lead the new ")
        d.v("MSc Geospatial Data Science", K("programmes", "leader_id", "MSGDS"), "pronoun", "name")
        d.add(", which will take ").v(f"about {self.pr['MSGDS']['intake_target']} students",
                                      K("programmes", "intake_target", "MSGDS"), "prose", "approx-number", exact=False)
        d.add(" a year.\n")

        d = self.doc("news/record-first-years.md", "news", "Record first-year numbers")
        r = self.runs[("ENV1001", "2025-AUT")]
        r2 = self.runs[("ENV1001", "2024-AUT")]
        d.add("# Earth Systems fills the lecture theatre\n\nOctober 2025\n\nThis year's first-year core module, ")
        d.v("Earth Systems", kr("term", "ENV1001", "2025-AUT"), "prose", "name").add(", has ")
        d.v(f"just under {round(r['enrolled'] + 5, -1)} students", kr("enrolled", "ENV1001", "2025-AUT"), "prose",
            "approx-number", exact=False)
        assert r2["enrolled"] < r["enrolled"]
        d.add(", up from ").v(str(r2["enrolled"]), kr("enrolled", "ENV1001", "2024-AUT"), "prose", "plain-number")
        d.add(" last year. It is taught by ")
        self.staff_name(d, r["lecturer_id"], kr("lecturer_id", "ENV1001", "2025-AUT"), "prose", "full")
        d.add(" in the ")
        self.room(d, r["room_code"], kr("room_code", "ENV1001", "2025-AUT"), "prose", "name")
        d.add(".\n")

        d = self.doc("news/gis-suite.md", "news", "New GIS suite")
        d.add("# A new GIS suite at Greenhow\n\nThe refitted computer lab ").v("B02", [K("rooms", "building_code", "GSC.B02"),
                                                                                          K("rooms", "room_number", "GSC.B02")],
                                                                                  "prose", "room-number")
        d.add(" in the ").v("Greenhow Science Centre", K("rooms", "building_code", "GSC.B02"), "prose", "name")
        d.add(" now has ").v(f"{self.ro['GSC.B02']['capacity']} workstations", K("rooms", "capacity", "GSC.B02"), "prose",
                             "number-unit")
        d.add(", each with two screens. The centre, which ").v(f"opened in {self.bu['GSC']['opened_year']}",
                                                                K("buildings", "opened_year", "GSC"), "prose",
                                                                "in-year")
        d.add(", also houses the department's sediment laboratory.\n")

        d = self.doc("news/costello-joins.md", "news", "Dr Costello joins")
        p = self.st[19]
        d.add("# Welcome, Dr Niamh Costello\n\n").v("Niamh Costello", (), "prose").add(" joined us in ")
        d.v(f"{D(p['start_date']):%B %Y}", K("staff", "start_date", 19), "prose", "approx-date", exact=False)
        d.add(" as a ").v(p["job_title"], K("staff", "job_title", 19), "pronoun").add(" in soil biogeochemistry. "
                                                                                      "She can be reached at ")
        d.v(p["email"], K("staff", "email", 19), "pronoun").add(".\n")

    def faq(self):
        d = self.doc("students/faq.md", "faq", "Student FAQ")
        d.add("# Frequently asked questions\n\n")

        def qa(q, fn):
            d.add(f"**Q. {q}**\n\nA. ")
            fn()
            d.add("\n\n")

        r = [x for x in self.pm["BSENV"] if x["module_code"] == "ENV3050"][0]
        qa("Is ENV3050 compulsory on the BSc Environmental Science?",
           lambda: (d.v("No" if not r["is_compulsory"] else "Yes", kpm("is_compulsory", "BSENV", "ENV3050"),
                        "heading-subject", "boolean-word").add(", it is an option in ")
                    .v(f"Year {r['year_of_study']}", kpm("year_of_study", "BSENV", "ENV3050"), "heading-subject",
                       "year-label").add(".")))
        qa("How many credits is the undergraduate dissertation (ENV3000)?",
           lambda: d.v(NUMW[self.mo["ENV3000"]["credits"]].capitalize(), K("modules", "credits", "ENV3000"),
                       "heading-subject", "number-words").add("."))
        d.add("**Q. Where is the ").v("Pennine Lecture Theatre", K("rooms", "room_name", "HLB.G.04"), "prose")
        d.add("?**\n\nA. On the ground floor of ").v("Harrowgate Laboratories", K("rooms", "building_code", "HLB.G.04"),
                                                    "heading-subject", "name").add(" (room ")
        d.v("G.04", [K("rooms", "building_code", "HLB.G.04"), K("rooms", "room_number", "HLB.G.04")], "heading-subject",
            "room-number").add(").\n\n")
        qa("Is Mercer Hall accessible?",
           lambda: d.v("Only the ground floor is step-free", K("buildings", "step_free", "MCH"), "heading-subject",
                       "boolean-phrase").add("; seminars upstairs can be moved on request."))
        l7 = [K("modules", "pass_mark", mc) for mc, m in self.mo.items() if m["level"] == 7]
        qa("What mark do I need to pass a level 7 module?",
           lambda: d.v("50%", l7, "generic", "pct").add(" on every MSc module."))
        qa("Who do I ask about the Geology placement year?",
           lambda: (d.add("The placement module is ").v("glg3009", K("modules", "title", "GLG3009"), "heading-subject",
                                                         "code-lower").add(", convened by ")
                    .v(self.full(self.mo["GLG3009"]["convenor_id"]), K("modules", "convenor_id", "GLG3009"),
                       "heading-subject", "name-title").add(".")))
        a = next(x for x in self.asm[("ENV2041", "2025/26")] if x["due_date"])
        qa("When is the Hydrology field report due?",
           lambda: d.v(date_dow_words(a["due_date"]), K("assessments", "due_date", a["assessment_id"]), "heading-subject",
                       "date-dow-words").add(", by noon."))
        qa("Can I take the BSc part-time?",
           lambda: d.add("Yes. The part-time BSc Environmental Science takes ")
           .v("six years", K("programmes", "duration_years", "BSENP"), "heading-subject", "number-words")
           .add(" and admits ").v(f"up to {self.pr['BSENP']['intake_target']}", K("programmes", "intake_target", "BSENP"),
                                  "heading-subject", "approx-number", exact=False).add(" students a year."))

    def changes(self):
        d = self.doc("notices/changes-2025-26.md", "change-notice", "Changes for 2025/26")
        d.add("# Changes to modules for 2025/26\n\nThe following changes were approved by the Faculty Quality "
              "Committee in May 2025. Earlier handbooks are out of date on these points.\n\n")
        m = self.mo["ENV2041"]
        d.add("- ").v("ENV2041", K("modules", "title", "ENV2041"), "prose", "code").add(" Hydrology is now ")
        d.v(f"{m['credits']} credits", K("modules", "credits", "ENV2041"), "prose", "number-unit")
        d.add(" (it was 15 credits in 2024/25).\n")
        d.add("- ").v("ENV3015", K("modules", "title", "ENV3015"), "prose", "code")
        d.add(" Environmental Impact Assessment: convenor now ")
        d.v("Dr A. Oddie", [K("modules", "convenor_id", "ENV3015"), K("staff", "title", 26)], "prose", "title-initial")
        d.add(" (previously Dr P. Oddie).\n")
        m = self.mo["GEO2010"]
        d.add("- Glacial Geomorphology (").v("GEO2010", K("modules", "title", "GEO2010"), "prose", "code")
        d.add(") moves to the ").v(m["semester"], K("modules", "semester", "GEO2010"), "prose").add(" term; it used to run "
                                                                                                   "in the autumn.\n")
        d.add("- The pass mark for level 7 modules stays at ").v("50%", [K("modules", "pass_mark", mc) for mc, m in
                                                                      self.mo.items() if m["level"] == 7], "generic", "pct")
        d.add("; the proposal to raise it to 55% was withdrawn.\n")
        d.add("- ").v("ENV3060", [K("modules", "title", "ENV3060"), kr("term", "ENV3060", "2025-AUT")], "prose", "code")
        d.add(" Climate Change Science is a new optional module, first running in the ")
        d.v("Autumn", K("modules", "semester", "ENV3060"), "prose").add(" term of 2025.\n")

    def distractors(self):
        d = self.doc("misc/ashby-vale-hydrology.md", "distractor", "Ashby Vale College: Hydrology", distractor=True)
        d.add("# Ashby Vale College — BSc Environmental Science handbook 2025/26\n\n### ENV2041 Hydrology\n\n15 credits, "
              "Level 5, taught in the Spring term. **Compulsory.**\n\nConvenor: Dr Helen Marsden. Pre-requisite: "
              "ENV1001.\n\nAssessment: Field report (50%), Examination (50%).\n\n### ENV2010 Soil Science\n\n15 credits, "
              "Level 5. Convenor: Dr David Shaw.\n")
        d = self.doc("misc/fold-valley-sixth-form-timetable.md", "distractor", "Fold Valley Sixth Form timetable",
                     distractor=True)
        d.add("# Fold Valley Sixth Form — A-level Geography, Autumn 2025\n\n| Day | Time | Class | Where | Who |\n"
              "|---|---|---|---|---|\n| Mon | 9am–10am | GEO 1001 Physical Systems | Room 1.01, Fold Walk Building | "
              "Mr D. Shaw |\n| Fri | 2pm–4pm | Fieldwork | Room G.04, Harrowgate House | Ms P. Nair |\n")
        d = self.doc("misc/cv-helen-marsden.md", "distractor", "CV Dr Helen Marsden (applicant)", distractor=True)
        d.add("# Curriculum vitae: Dr Helen Marsden\n\nSoil scientist, currently Lecturer at the University of Lancaster "
              "(since 1 September 2016). Applied for the Teaching Fellow post, March 2025. Not the Helen Marsden who "
              "leads our BSc. Contact: helen.marsden@lancaster.example.ac.uk, ext. 4417.\n")
        d = self.doc("misc/kirkby-lane-conference-rooms.html", "distractor", "Kirkby Lane Conference Centre",
                     distractor=True)
        d.add("<html><body><h1>Kirkby Lane Conference Centre: room hire</h1>\n<table>\n<tr><th>Room</th><th>Seats</th>"
              "<th>Day rate</th></tr>\n<tr><td>Greenhow Suite</td><td>220</td><td>£640</td></tr>\n<tr><td>Tannery Room"
              "</td><td>24</td><td>£180</td></tr>\n<tr><td>Swale Room</td><td>40</td><td>£210</td></tr>\n</table>\n"
              "<p>Not part of Ashby Fold College.</p></body></html>\n")
        d = self.doc("misc/community-college-gis.md", "distractor", "Ashby Fold Community College: GIS evening class",
                     distractor=True)
        d.add("# Ashby Fold Community College — evening classes\n\n## GIS for beginners (course GDS7001)\n\nTen weeks, "
              "Tuesdays 7pm, Mercer Room at the village hall. Tutor: Mr James Alderson. 5 credits (Open College "
              "Network). Pass mark 40%.\n")
        d = self.doc("misc/handbook-2023-24-bsenv-extract.md", "distractor", "BSc Environmental Science handbook 2023/24 "
                     "(superseded)", distractor=True)
        d.add("# BSc (Hons) Environmental Science — Programme Handbook 2023/24 (superseded)\n\n### ENV2041 Hydrology\n\n"
              "15 credits, Level 5, taught in the Autumn term. **Compulsory.**\n\nConvenor: Prof. Owen Kettlewell. "
              "Assessment: Field report (30%), Examination (70%).\n\n### ENV3015 Environmental Impact Assessment\n\n"
              "20 credits, Level 6. Convenor: Dr Peter Oddie.\n")

    def policies(self):
        for slug_, title, body in (
            ("extensions", "Extensions and mitigating circumstances",
             "Apply through the Student Hub before the deadline. Extensions of up to seven days need no evidence."),
            ("fieldwork-safety", "Fieldwork safety", "Every field day has a risk assessment; boots and waterproofs are "
                                                     "compulsory on the fells."),
            ("academic-integrity", "Academic integrity", "Work is checked by similarity software. Declare any use of "
                                                         "generative tools in your cover sheet."),
            ("personal-tutors", "Personal tutors", "Every student has a personal tutor for the whole programme and "
                                                   "meets them at least twice a term."),
        ):
            d = self.doc(f"students/policies/{slug_}.md", "policy", title)
            d.add(f"# {title}\n\n{body}\n\nApproved by the Teaching and Learning Committee.\n")

    # -------------------------------------------------------------- output
    def left_out(self, stated):
        """Groups of database facts no document was given, found by rule after writing."""
        old = [(mc, t) for (mc, t) in self.runs if t in ("2024-AUT", "2025-SPR")]
        a25 = [a for (mc, y), comps in self.asm.items() if y == "2025/26" for a in comps]
        groups = {
            "runs_2024_25_timetable": ("the 2024/25 timetable is archived, not in the corpus: rooms, days, times, "
                                       "lengths and lecturers of 2024/25 runs (half the runs are minuted)",
                                       [kr(c, mc, t) for mc, t in old for c in ("room_code", "weekday", "start_time",
                                                                                "duration_hours", "lecturer_id",
                                                                                "enrolled", "term")]),
            "assessments_2024_25": ("2024/25 assessments are in the archived handbooks, not in the corpus",
                                    [K("assessments", c, a["assessment_id"]) for (mc, y), comps in self.asm.items()
                                     if y == "2024/25" for a in comps
                                     for c in ("module_code", "academic_year", "component_no", "title", "kind", "weight",
                                               "due_date", "word_limit")]),
            "assessment_details": ("2025/26 components: number, kind, academic year and word limit are given only on "
                                   "the fourteen assessment briefs",
                                   [K("assessments", c, a["assessment_id"]) for a in a25
                                    for c in ("component_no", "kind", "academic_year", "word_limit")]),
            "exam_dates": ("examination dates are NULL (set later by the Examinations Office); one e-mail says so for "
                           "two of them",
                           [K("assessments", "due_date", a["assessment_id"]) for a in a25 if a["due_date"] is None]),
            "scheme_module_exams": ("the examinations of modules whose descriptor gives only a scheme letter are named "
                                    "nowhere (the deadline list has no examinations)",
                                    [K("assessments", c, a["assessment_id"]) for a in a25
                                     if a["module_code"] in self.scheme_modules for c in ("module_code", "title")]),
            "staff_without_profile": ("ten staff have no profile page: their e-mail and start date are written nowhere "
                                      "(except where an e-mail or news item gives them)",
                                      [K("staff", c, sid) for sid in self.st for c in ("email", "start_date")]),
            "offices": ("offices are not teaching rooms: their type, size and name are not listed",
                        [K("rooms", c, rc) for rc, r in self.ro.items() if r["room_type"] == "office"
                         for c in ("room_type", "capacity", "room_name", "room_number")]),
            "pass_marks_without_descriptor": ("undergraduate modules without a descriptor: the pass mark (40%) is "
                                              "written nowhere",
                                              [K("modules", "pass_mark", mc) for mc in self.mo]),
        }
        for g, (rule, keys) in groups.items():
            self.omit(g, rule, [k for k in keys if k not in stated])
        # every database fact but a row's own name (staff names, module titles written beside their codes) is
        # either stated or in a group above
        grouped = {k for g in self.omitted.values() for k in g["fact_keys"]}
        for tb, pks in (("buildings", ["building_code"]), ("rooms", ["room_code"]), ("staff", ["staff_id"]),
                        ("programmes", ["programme_code"]), ("modules", ["module_code"]),
                        ("programme_modules", ["programme_code", "module_code"]),
                        ("module_runs", ["module_code", "term"]), ("assessments", ["assessment_id"])):
            for row in self.q(f"SELECT * FROM {tb}"):
                key = [row[p] for p in pks]
                cols = [c for c in row.keys() if c not in pks and c not in ("first_name", "last_name")]
                keys = [K(tb, c, *key) for c in cols] + ([K(tb, pks[-1], *key)] if len(pks) > 1 else [])
                left = [k for k in keys if k not in stated and k not in grouped]
                assert not left, left

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
            "database": "ashby.sqlite", "facts": facts, "split_facts": self.split,
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
    ap.add_argument("--db", default=os.path.join(HERE, "ashby.sqlite"))
    ap.add_argument("--out", default=HERE)
    a = ap.parse_args(argv)
    c = Corpus(a.db)
    for step in (c.handbooks, c.descriptors, c.schemes_doc, c.grids, c.programme_timetables, c.booking_export,
                 c.directory, c.profiles, c.briefs, c.deadlines, c.buildings, c.room_list, c.structures, c.leaflets,
                 c.catalogue, c.census, c.minutes, c.mail, c.news, c.faq, c.changes, c.distractors, c.policies):
        step()
    stats = c.write(a.out)
    print({k: v for k, v in stats.items() if not k.startswith("by_")})


if __name__ == "__main__":
    main()
