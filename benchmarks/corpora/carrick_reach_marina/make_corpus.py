#!/usr/bin/env python3
"""Write the Carrick Reach Marina documents (docs/) and their truth (truth.json) from marina.sqlite.

Every database fact a document states is recorded at the moment its text is written (Doc.v); nothing is
found by searching the text afterwards.  Some entities are left out entirely (no document names them) and
some facts of otherwise documented entities are left out; both are chosen here, seeded, before any
document is written, and every writer asks `has` before it writes a value.  Seeded, deterministic,
standard library only.

    python3 make_corpus.py [--db marina.sqlite] [--out .]
"""

from __future__ import annotations

import argparse
import html
import json
import os
import random
import sqlite3
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 9525
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
PKS = {
    "pontoons": ["pontoon_code"],
    "berths": ["berth_no"],
    "owners": ["owner_id"],
    "boats": ["boat_id"],
    "boat_owners": ["boat_id", "owner_id"],
    "staff": ["staff_id"],
    "work_orders": ["job_no"],
}
# the columns a row is named by: never a fact to state
OWN = {"pontoons": ("name",), "owners": ("first_name", "last_name"), "boats": ("name",), "staff": ("name",)}


# ------------------------------------------------------------------ value forms
def metres(v):
    return f"{v:.1f} m"


def feet(v):
    return f"{round(v / 0.3048)} ft"


def gbp(v):
    return f"£{v:,}"


def gbp_p(v):
    return f"£{v:,.2f}"


def d_uk(iso):
    y, m, d = iso.split("-")
    return f"{d}/{m}/{y}"


def d_words(iso):
    y, m, d = iso.split("-")
    return f"{int(d)} {MONTHS[int(m) - 1]} {y}"


def d_noyear(iso):
    d = int(iso[8:])
    suf = "th" if 10 <= d % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(d % 10, "th")
    return f"{d}{suf} {MONTHS[int(iso[5:7]) - 1][:3]}"


def initials(name):
    return "".join(w[0] for w in name.split())


def slug(s):
    return "".join(c if c.isalnum() else "-" for c in s.lower()).strip("-").replace("--", "-")


# ------------------------------------------------------------------ the recorder
class Doc:
    """A document being written: text parts, and the statements made as they are written."""

    def __init__(self, path, kind, title, *, distractor=False, subjects=()):
        self.path, self.kind, self.title = path, kind, title
        self.distractor, self.subjects = distractor, list(subjects)
        self.parts, self.n, self.facts = [], 0, []
        self.is_html = path.endswith(".html")

    def t(self, s):
        s = html.escape(s, quote=False) if self.is_html else s
        self.parts.append(s)
        self.n += len(s)
        return self

    def raw(self, s):  # HTML markup, written as is
        self.parts.append(s)
        self.n += len(s)
        return self

    def v(self, s, key, how, form, exact=True):
        s = str(s)
        w = html.escape(s, quote=False) if self.is_html else s
        self.facts.append(
            {
                "fact_key": key,
                "doc_id": self.path,
                "surface": s,
                "start": self.n,
                "end": self.n + len(w),
                "exact": exact,
                "how": how,
                "form": form,
            }
        )
        self.parts.append(w)
        self.n += len(w)
        return self

    def text(self):
        return "".join(self.parts)


class Writer:
    """The database read once, the omissions chosen, and the documents written."""

    def __init__(self, db):
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        con.row_factory = sqlite3.Row
        self.rows = {
            t: [dict(r) for r in con.execute(f"SELECT * FROM {t} ORDER BY {', '.join(p)}")] for t, p in PKS.items()
        }
        con.close()
        self.by = {t: {self.key(t, r): r for r in rs} for t, rs in self.rows.items()}
        self.rnd = random.Random(SEED)
        self.docs, self.omitted, self.absent_entities, self.absent_facts = [], {}, [], []
        self.hidden = set()

    @staticmethod
    def key(table, r):
        return "|".join(str(r[p]) for p in PKS[table])

    @staticmethod
    def fk(table, col, key):
        return f"{table}.{col}@{key}"

    def facts_of(self, table, key):
        r = self.by[table][key]
        cols = [c for c in r if c not in PKS[table] and c not in OWN.get(table, ())]
        out = [self.fk(table, c, key) for c in cols]
        if len(PKS[table]) > 1:
            out.append(self.fk(table, PKS[table][-1], key))
        return out

    def has(self, table, col, key):
        return self.fk(table, col, key) not in self.hidden

    def gone(self, table, key):
        return (table, str(key)) in self.gone_set

    def new(self, path, kind, title, **kw):
        d = Doc(path, kind, title, **kw)
        self.docs.append(d)
        return d

    def say(self, d, table, col, key, s, how, form, exact=True):
        k = self.fk(table, col, key)
        assert k not in self.hidden, k  # a writer never states what was left out
        d.v(s, k, how, form, exact)

    def boat_label(self, b):
        return b["name"]

    def owner_name(self, o, style="full"):
        if style == "reordered":
            return f"{o['last_name']}, {o['first_name']}"
        return f"{o['first_name']} {o['last_name']}"


# ------------------------------------------------------------------ omissions, chosen before any writing
def choose_omissions(w):
    rnd = w.rnd
    boats, owners, berths, jobs = (w.rows[t] for t in ("boats", "owners", "berths", "work_orders"))
    traps = {"Kittiwake", "Sea Breeze", "Sea Breeze II"}
    gone_boats = rnd.sample([b for b in boats if b["berth_no"] and b["name"] not in traps], 5)
    surnames = Counter(o["last_name"] for o in owners)
    gone_owners = rnd.sample([o for o in owners if surnames[o["last_name"]] == 1], 5)
    held = {b["berth_no"] for b in boats}
    gone_berths = rnd.sample([b for b in berths if b["berth_no"] not in held], 5)
    gb = {b["boat_id"] for b in gone_boats}
    of_boats = [j for j in jobs if j["boat_id"] in gb]
    extra = rnd.sample([j for j in jobs if j["boat_id"] not in gb], max(0, 5 - len(of_boats)))
    gone_jobs = of_boats + extra
    w.gone_set = (
        {("boats", str(b["boat_id"])) for b in gone_boats}
        | {("owners", str(o["owner_id"])) for o in gone_owners}
        | {("berths", b["berth_no"]) for b in gone_berths}
        | {("work_orders", j["job_no"]) for j in gone_jobs}
    )
    rules = {
        "boats": "no document names the boat: not its register line, card, ownership, letters or yard jobs",
        "owners": "no document names the owner: not the members register, the ownership list, a card or a letter",
        "berths": "vacant berths missing from their pontoon's export and named nowhere else",
        "work_orders": "jobs in no yard log, job sheet, invoice list or e-mail (those of the boats left out, "
        "and a few more)",
    }
    seen = set()
    for table in ("boats", "owners", "berths", "work_orders"):
        keys = sorted((k for t, k in w.gone_set if t == table), key=lambda k: (len(k), k))
        fks = []
        for k in keys:
            fks += w.facts_of(table, k)
            w.absent_entities.append({"table": table, "key": k})
        for bo in w.rows["boat_owners"]:  # an ownership row of a boat or owner left out
            ref = str(bo["boat_id"] if table == "boats" else bo["owner_id"])
            if table in ("boats", "owners") and ref in keys:
                fks += w.facts_of("boat_owners", w.key("boat_owners", bo))
        fks = [k for k in fks if k not in seen]
        seen |= set(fks)
        w.omitted[f"entity_absent_{table}"] = {
            "kind": "entity absent",
            "rule": rules[table],
            "entities": keys,
            "fact_keys": fks,
        }
    w.hidden |= seen
    _choose_fact_omissions(w)


FACT_CANDIDATES = {
    "boats": (5, ["boat_type", "make", "loa_m", "year_built", "berth_no"]),
    "berths": (5, ["length_m", "berth_type", "annual_fee"]),
    "owners": (4, ["member_no", "home_town", "title"]),
    "work_orders": (4, ["booked_date", "job_type", "charge", "staff_id"]),
    "boat_owners": (3, ["role"]),
    "pontoons": (1, ["shore_power"]),
    "staff": (1, ["role"]),
}


def _choose_fact_omissions(w):
    """For about a tenth of the entities left in, one or two of the facts ragdx's default questions ask."""
    rnd = w.rnd
    for table, (n, cols) in FACT_CANDIDATES.items():
        pool = [
            r
            for r in w.rows[table]
            if not w.gone(table, w.key(table, r))
            and not _touches_gone(w, table, r)
            and r.get("name") not in ("Kittiwake",)
        ]
        if table == "staff":
            pool = [r for r in pool if r["role"] not in ("Office manager", "Harbour master")]
        chosen, fks = rnd.sample(pool, n), []
        for r in chosen:
            k = w.key(table, r)
            usable = [c for c in cols if r[c] is not None]
            for c in rnd.sample(usable, min(len(usable), rnd.choice([1, 1, 2]))):
                fks.append(w.fk(table, c, k))
                w.absent_facts.append({"table": table, "key": k, "column": c})
        w.hidden |= set(fks)
        w.omitted[f"fact_absent_{table}"] = {
            "kind": "fact absent",
            "rule": "the entity is documented, but no document states these facts of it (in any form)",
            "fact_keys": fks,
        }


def _touches_gone(w, table, r):
    if table == "boat_owners":
        return w.gone("boats", r["boat_id"]) or w.gone("owners", r["owner_id"])
    if table == "work_orders":
        return w.gone("boats", r["boat_id"])
    return False


# ------------------------------------------------------------------ registers
def write_pontoons(w):
    d = w.new("registers/pontoons.md", "register", "Pontoons and moorings")
    d.t(
        "# Carrick Reach Marina: pontoons and moorings\n\nAs at 31 October 2026. Longest boat is the LOA the "
        "pontoon's fingers and hammerheads are rated for.\n\n| Code | Pontoon | Longest boat | Shore power |\n"
        "|---|---|---|---|\n"
    )
    for p in w.rows["pontoons"]:
        k = p["pontoon_code"]
        d.t(f"| {k} | {p['name']} | ")
        w.say(d, "pontoons", "max_loa_m", k, metres(p["max_loa_m"]), "table", "metres")
        d.t(" | ")
        if w.has("pontoons", "shore_power", k):
            w.say(d, "pontoons", "shore_power", k, p["shore_power"], "table", "verbatim")
        d.t(" |\n")
    d.t("\nVisitors' berths on the hammerhead of D are booked through the office.\n")


def write_berth_exports(w):
    for p in w.rows["pontoons"]:
        code = p["pontoon_code"]
        berths = [b for b in w.rows["berths"] if b["pontoon_code"] == code and not w.gone("berths", b["berth_no"])]
        tsv = code == "M"
        name = "registers/river-moorings.tsv.txt" if tsv else f"registers/berths-pontoon-{code.lower()}.csv.txt"
        d = w.new(name, "export", f"Berth export, pontoon {code}")
        sep = "\t" if tsv else ","
        d.t("pontoon=")
        start = d.n
        d.t(code)
        for b in berths:  # the first line gives every row's pontoon: one surface, shared
            d.facts.append(
                {
                    "fact_key": w.fk("berths", "pontoon_code", b["berth_no"]),
                    "doc_id": d.path,
                    "surface": code,
                    "start": start,
                    "end": start + 1,
                    "exact": True,
                    "how": "doc-heading",
                    "form": "code",
                }
            )
        head = ["Mooring", "Length (m)", "Type", "Fee (GBP)"] if tsv else ["berth", "length_m", "type", "fee_gbp"]
        d.t("\nexported=2026-10-31\n" + sep.join(head) + "\n")
        how = "tsv" if tsv else "csv"
        for b in berths:
            k = b["berth_no"]
            d.t(k)
            for col, form, val in (
                ("length_m", "plain-number", f"{b['length_m']:.1f}"),
                ("berth_type", "verbatim", b["berth_type"]),
                ("annual_fee", "plain-int", str(b["annual_fee"])),
            ):
                d.t(sep)
                if w.has("berths", col, k):
                    w.say(d, "berths", col, k, val, how, form)
            d.t("\n")


def write_boat_register(w):
    d = w.new("registers/boat-register.html", "register", "Boat register")
    d.raw(
        '<html><head><meta charset="utf-8"><title>Boat register</title></head><body>\n'
        "<h1>Boat register, 31 October 2026</h1>\n<p>Boats ashore in the yard have no berth.</p>\n<table>\n"
        "<tr><th>Boat</th><th>Berth</th><th>Type</th><th>Make / model</th><th>LOA (m)</th><th>Built</th></tr>\n"
    )
    boats = [b for b in w.rows["boats"] if not w.gone("boats", b["boat_id"])]
    for b in sorted(boats, key=lambda b: (b["berth_no"] or "ZZZ", b["name"])):
        k = str(b["boat_id"])
        d.raw("<tr><td>").t(b["name"]).raw("</td><td>")
        if w.has("boats", "berth_no", k):
            if b["berth_no"]:
                w.say(d, "boats", "berth_no", k, b["berth_no"], "html-table", "code")
            else:
                w.say(d, "boats", "berth_no", k, "ashore", "html-table", "null-stated")
        for col, val, form in (
            ("boat_type", b["boat_type"], "verbatim"),
            ("make", b["make"], "verbatim"),
            ("loa_m", f"{b['loa_m']:.1f}", "plain-number"),
            ("year_built", str(b["year_built"]), "verbatim"),
        ):
            d.raw("</td><td>")
            if w.has("boats", col, k):
                w.say(d, "boats", col, k, val, "html-table", form)
        d.raw("</td></tr>\n")
    d.raw("</table>\n</body></html>\n")


def _member_cells(w, o):
    k = str(o["owner_id"])
    title = f" ({o['title']})" if w.has("owners", "title", k) else ""
    return k, title


def write_members(w):
    owners = [o for o in w.rows["owners"] if not w.gone("owners", o["owner_id"])]
    owners.sort(key=lambda o: (o["last_name"], o["first_name"]))
    first = [o for o in owners if o["last_name"][0] <= "K"]
    d = w.new("members/members-register-a-k.md", "register", "Members register A-K")
    d.t(
        "# Members register, A to K\n\nBerth holders and their contact details (office copy, October 2026).\n\n"
        "| Member no. | Name | Home town | Phone | E-mail |\n|---|---|---|---|---|\n"
    )
    for o in first:
        k, _ = _member_cells(w, o)
        d.t("| ")
        if w.has("owners", "member_no", k):
            w.say(d, "owners", "member_no", k, o["member_no"], "table", "code")
        d.t(f" | {o['last_name']}, {o['first_name']}")
        if w.has("owners", "title", k):
            d.t(" (")
            w.say(d, "owners", "title", k, o["title"], "table", "verbatim")
            d.t(")")
        d.t(" | ")
        if w.has("owners", "home_town", k):
            w.say(d, "owners", "home_town", k, o["home_town"], "table", "verbatim")
        d.t(" | ")
        w.say(d, "owners", "phone", k, o["phone"], "table", "verbatim")
        d.t(" | ")
        if o["email"]:
            w.say(d, "owners", "email", k, o["email"], "table", "verbatim")
        else:
            w.say(d, "owners", "email", k, "none", "table", "null-stated")
        d.t(" |\n")
    _members_fixed_width(w, [o for o in owners if o["last_name"][0] > "K"])


def _members_fixed_width(w, owners):
    d = w.new("members/members-register-l-z.txt", "register", "Members register L-Z")
    d.t("CARRICK REACH MARINA - MEMBERS REGISTER L-Z                       printed 31/10/2026\n")
    d.t(f"{'MEMBER':<9}{'NAME':<28}{'TOWN':<15}{'TEL':<18}EMAIL\n" + "-" * 96 + "\n")
    for o in owners:
        k, title = _member_cells(w, o)
        no = o["member_no"] if w.has("owners", "member_no", k) else ""
        if no:
            w.say(d, "owners", "member_no", k, no, "fixed-width", "code")
        d.t(" " * (9 - len(no)))
        name = f"{o['last_name'].upper()}, {o['first_name']}"
        d.t(name)
        if title:
            d.t(" ")
            w.say(d, "owners", "title", k, o["title"], "fixed-width", "verbatim")
        d.t(" " * max(1, 28 - len(name) - (len(o["title"]) + 1 if title else 0)))
        town = o["home_town"] if w.has("owners", "home_town", k) else ""
        if town:
            w.say(d, "owners", "home_town", k, town, "fixed-width", "verbatim")
        d.t(" " * max(1, 15 - len(town)))
        intl = "+44 " + o["phone"][1:]
        w.say(d, "owners", "phone", k, intl, "fixed-width", "phone-intl")
        d.t(" " * max(1, 18 - len(intl)))
        if o["email"]:
            w.say(d, "owners", "email", k, o["email"], "fixed-width", "verbatim")
        else:
            w.say(d, "owners", "email", k, "-", "fixed-width", "null-stated")
        d.t("\n")


def write_ownership(w):
    d = w.new("members/boat-ownership.html", "register", "Who owns which boat")
    d.raw(
        '<html><head><meta charset="utf-8"><title>Boat ownership</title></head><body>\n'
        '<h1>Boat ownership on the register</h1>\n<table border="1">\n'
        "<tr><th>Boat</th><th>Berth</th><th>Owner</th><th>Role</th></tr>\n"
    )
    owners = w.by["owners"]
    for b in w.rows["boats"]:
        if w.gone("boats", b["boat_id"]):
            continue
        rows = [
            r for r in w.rows["boat_owners"] if r["boat_id"] == b["boat_id"] and not w.gone("owners", r["owner_id"])
        ]
        if not rows:
            continue
        n = len(rows)
        span = f' rowspan="{n}"' if n > 1 else ""
        for i, r in enumerate(rows):
            k = w.key("boat_owners", r)
            d.raw("<tr>")
            if i == 0:
                d.raw(f"<td{span}>").t(b["name"]).raw(f"</td><td{span}>")
                if w.has("boats", "berth_no", str(b["boat_id"])):
                    w.say(
                        d,
                        "boats",
                        "berth_no",
                        str(b["boat_id"]),
                        b["berth_no"] or "yard",
                        "html-table",
                        "code" if b["berth_no"] else "null-stated",
                    )
                d.raw("</td>")
            o = owners[str(r["owner_id"])]
            d.raw("<td>")
            w.say(d, "boat_owners", "owner_id", k, w.owner_name(o), "rowspan" if i else "html-table", "name")
            d.raw("</td><td>")
            if w.has("boat_owners", "role", k):
                w.say(d, "boat_owners", "role", k, r["role"], "rowspan" if i else "html-table", "verbatim")
            d.raw("</td></tr>\n")
    d.raw("</table>\n</body></html>\n")


def write_staff(w):
    d = w.new("staff/who-is-who.md", "list", "Who is who at the marina")
    d.t("# Who is who\n\nThe office is open 08:30-17:00; out of hours ring the harbour master.\n\n")
    for s in w.rows["staff"]:
        k = str(s["staff_id"])
        d.t(f"- **{s['name']}**")
        if w.has("staff", "role", k):
            d.t(", ")
            w.say(d, "staff", "role", k, s["role"], "bullet", "verbatim")
        d.t(" - ")
        w.say(d, "staff", "phone", k, s["phone"], "bullet", "verbatim")
        d.t("\n")


# ------------------------------------------------------------------ the yard
def live_jobs(w):
    return [j for j in w.rows["work_orders"] if not w.gone("work_orders", j["job_no"])]


def _staff_cell(w, d, j, how, form):
    k = j["job_no"]
    if not w.has("work_orders", "staff_id", k):
        return
    if j["staff_id"] is None:
        w.say(d, "work_orders", "staff_id", k, "unassigned", how, "null-stated")
    else:
        name = w.by["staff"][str(j["staff_id"])]["name"]
        w.say(d, "work_orders", "staff_id", k, initials(name) if form == "initials" else name, how, form)


def write_yard_logs(w):
    jobs = live_jobs(w)
    undated = [j for j in jobs if not w.has("work_orders", "booked_date", j["job_no"])]
    legend = "; ".join(f"{initials(s['name'])} {s['name']}" for s in w.rows["staff"] if s["staff_id"] in (2, 4, 6, 7))
    for m in ("07", "08", "09", "10"):
        month = [j for j in jobs if j["booked_date"][5:7] == m and j not in undated]
        d = w.new(f"yard/yard-log-2026-{m}.md", "log", f"Yard log {MONTHS[int(m) - 1]} 2026")
        d.t(
            f"# Yard log, {MONTHS[int(m) - 1]} 2026\n\n| Job | Booked | Boat | Work | By | Status |\n"
            "|---|---|---|---|---|---|\n"
        )
        rows = sorted(month, key=lambda j: (j["booked_date"], j["job_no"]))
        if m == "10":
            rows += undated  # carried over, their date not written down
        for j in rows:
            _yard_row(w, d, j)
        if m == "10" and undated:
            d.t("\nThe last jobs above were carried over from the old whiteboard; their dates were not copied.\n")
        d.t(f"\nBy: {legend}. A dash means nobody has picked the job up yet.\n")


def _yard_row(w, d, j):
    k = j["job_no"]
    b = w.by["boats"][str(j["boat_id"])]
    d.t(f"| {k} | ")
    if w.has("work_orders", "booked_date", k):
        w.say(d, "work_orders", "booked_date", k, d_noyear(j["booked_date"]), "table", "date-no-year")
    d.t(" | ")
    w.say(d, "work_orders", "boat_id", k, b["name"], "table", "name")
    if b["name"] == "Kittiwake":  # the two Kittiwakes are told apart by berth
        d.t(f" ({b['berth_no']})")
    d.t(" | ")
    if w.has("work_orders", "job_type", k):
        w.say(d, "work_orders", "job_type", k, j["job_type"], "table", "verbatim")
    d.t(" | ")
    if w.has("work_orders", "staff_id", k):
        if j["staff_id"] is None:
            w.say(d, "work_orders", "staff_id", k, "-", "table", "null-stated")
        else:
            _staff_cell(w, d, j, "key", "initials")
    d.t(" | ")
    w.say(d, "work_orders", "status", k, j["status"].upper(), "table", "uppercase")
    d.t(" |\n")


def write_invoices(w):
    d = w.new("office/yard-invoices-2026.csv.txt", "export", "Yard invoices 2026")
    d.t("job,boat,charge_gbp,note\n")
    for j in live_jobs(w):
        k = j["job_no"]
        if not w.has("work_orders", "charge", k):
            continue
        b = w.by["boats"][str(j["boat_id"])]
        d.t(f"{k},")
        w.say(d, "work_orders", "boat_id", k, b["name"], "csv", "name")
        d.t(",")
        if j["charge"] is None:
            w.say(d, "work_orders", "charge", k, "tbc", "csv", "null-stated")
            d.t(",not invoiced\n")
        else:
            w.say(d, "work_orders", "charge", k, f"{j['charge']:.2f}", "csv", "plain-number")
            d.t(",invoiced\n")


def write_job_sheets(w, jobs):
    for j in jobs:
        k = j["job_no"]
        b = w.by["boats"][str(j["boat_id"])]
        d = w.new(f"yard/job-sheets/{k.lower()}.txt", "job sheet", f"Job sheet {k}", subjects=[f"work_orders@{k}"])
        d.t("CARRICK REACH MARINA - YARD JOB SHEET\n\n")
        d.t(f"Job no ........ {k}\nBoat .......... ")
        w.say(d, "work_orders", "boat_id", k, b["name"], "kv-text", "name")
        if b["berth_no"] and w.has("boats", "berth_no", str(b["boat_id"])):
            d.t(", berth ")
            w.say(d, "boats", "berth_no", str(b["boat_id"]), b["berth_no"], "kv-text", "code")
        if w.has("work_orders", "job_type", k):
            d.t("\nWork .......... ")
            w.say(d, "work_orders", "job_type", k, j["job_type"], "kv-text", "verbatim")
        if w.has("work_orders", "booked_date", k):
            d.t("\nDate in ....... ")
            w.say(d, "work_orders", "booked_date", k, d_uk(j["booked_date"]), "kv-text", "date-uk")
        if w.has("work_orders", "staff_id", k):
            d.t("\nAssigned to ... ")
            _staff_cell(w, d, j, "kv-text", "name")
        if w.has("work_orders", "charge", k):
            d.t("\nCharge ........ ")
            if j["charge"] is None:
                w.say(d, "work_orders", "charge", k, "to be invoiced", "kv-text", "null-stated")
            else:
                w.say(d, "work_orders", "charge", k, gbp_p(j["charge"]), "kv-text", "gbp-pence")
        d.t("\nStatus ........ ")
        w.say(d, "work_orders", "status", k, j["status"], "kv-text", "verbatim")
        d.t("\n\nSign off when complete and return this sheet to the office.\n")


def owners_of(w, b):
    """The documented owners of boat B, with their ownership row's key."""
    out = []
    for r in w.rows["boat_owners"]:
        if r["boat_id"] == b["boat_id"] and not w.gone("owners", r["owner_id"]):
            out.append((w.by["owners"][str(r["owner_id"])], r, w.key("boat_owners", r)))
    return out


def write_mails(w, jobs):
    """E-mail threads with an owner: the office's reply above, the owner's first message quoted below."""
    staff = w.by["staff"]
    for j in jobs:
        k = j["job_no"]
        b = w.by["boats"][str(j["boat_id"])]
        o, _r, bo_key = owners_of(w, b)[0]
        ok = str(o["owner_id"])
        d = w.new(
            f"mail/re-{slug(b['name'])}-{k.lower()}.txt",
            "e-mail",
            f"Re: {b['name']}",
            subjects=[f"work_orders@{k}", f"boats@{b['boat_id']}"],
        )
        d.t(f"From: Demelza Hart <office@carrickreach.example>\nTo: {w.owner_name(o)}\nSubject: Re: {b['name']}\n\n")
        if w.has("owners", "title", ok):
            d.t("Dear ")
            w.say(d, "owners", "title", ok, o["title"], "e-mail", "verbatim")
            d.t(f" {o['last_name']},\n\n")
        else:
            d.t(f"Dear {o['first_name']},\n\n")
        d.t("Thanks for your note. ")
        if w.has("work_orders", "booked_date", k):
            d.t("We have her in the book for ")
            w.say(d, "work_orders", "booked_date", k, d_words(j["booked_date"]), "e-mail", "date-words")
            d.t(f" under job number {k}")
        else:
            d.t(f"She is in the book under job number {k}")
        if j["staff_id"] and w.has("work_orders", "staff_id", k):
            d.t(", and ")
            w.say(d, "work_orders", "staff_id", k, staff[str(j["staff_id"])]["name"], "e-mail", "name")
            d.t(" will look after her")
        d.t(".")
        if j["charge"] and w.has("work_orders", "charge", k):
            d.t(" The invoice comes to ")
            w.say(d, "work_orders", "charge", k, gbp(j["charge"]), "e-mail", "gbp")
            d.t(" and has gone on your account.")
        d.t("\n\nKind regards,\n\nDemelza Hart\n")
        if w.has("staff", "role", "5"):
            w.say(d, "staff", "role", "5", staff["5"]["role"], "signature", "verbatim")
        d.t("\nCarrick Reach Marina\n\n-----Original Message-----\nFrom: ")
        w.say(d, "boat_owners", "owner_id", bo_key, w.owner_name(o), "quoted-original", "name")
        d.t(f"\nSubject: {b['name']}\n\nHello, could you fit our boat {b['name']} in for ")
        if w.has("work_orders", "job_type", k):
            w.say(d, "work_orders", "job_type", k, j["job_type"].lower(), "quoted-original", "lowercase")
        else:
            d.t("the usual autumn jobs")
        d.t("?")
        if w.has("boats", "loa_m", str(b["boat_id"])):
            d.t(" She is ")
            w.say(d, "boats", "loa_m", str(b["boat_id"]), feet(b["loa_m"]), "quoted-original", "feet", exact=False)
            d.t(" overall, in case that matters for the hoist.")
        d.t("\n\nThanks\n")


def write_cards(w, boats):
    for i, b in enumerate(boats):
        k = str(b["boat_id"])
        tag = f"-{b['berth_no'].lower()}" if b["name"] == "Kittiwake" else ""
        md = i % 2 == 0
        d = w.new(f"boats/{slug(b['name'])}{tag}.{'md' if md else 'txt'}", "card", b["name"], subjects=[f"boats@{k}"])
        how = "card" if md else "kv-text"
        d.t(f"# {b['name']}\n\n" if md else f"BOAT CARD\nName:      {b['name']}\n")
        for col, label, val, form in (
            ("boat_type", "Type", b["boat_type"].lower(), "lowercase"),
            ("make", "Make", b["make"], "verbatim"),
            ("loa_m", "LOA", metres(b["loa_m"]), "metres"),
            ("year_built", "Built", str(b["year_built"]), "verbatim"),
        ):
            if w.has("boats", col, k):
                d.t(f"- {label}: " if md else f"{label + ':':<11}")
                w.say(d, "boats", col, k, val, how, form)
                if col == "loa_m" and md:
                    d.t(" (")
                    w.say(d, "boats", col, k, feet(b["loa_m"]), how, "feet", exact=False)
                    d.t(")")
                d.t("\n")
        if w.has("boats", "berth_no", k):
            d.t("- Berth: " if md else f"{'Berth:':<11}")
            if b["berth_no"]:
                w.say(d, "boats", "berth_no", k, b["berth_no"], how, "code")
                p = w.by["pontoons"][w.by["berths"][b["berth_no"]]["pontoon_code"]]
                d.t(" (")
                w.say(d, "berths", "pontoon_code", b["berth_no"], p["name"], how, "name")
                d.t(")\n")
            else:
                w.say(d, "boats", "berth_no", k, "ashore", how, "null-stated")
                d.t(" in the yard\n")
        for o, r, bo_key in owners_of(w, b):
            d.t("- Registered to: " if md else f"{'Keeper:':<11}")
            w.say(
                d,
                "boat_owners",
                "owner_id",
                bo_key,
                w.owner_name(o) if md else w.owner_name(o, "reordered"),
                how,
                "name",
            )
            if w.has("boat_owners", "role", bo_key):
                d.t(" (")
                w.say(d, "boat_owners", "role", bo_key, r["role"].lower(), how, "lowercase")
                d.t(")")
            d.t("\n")


def write_letters(w, picks):
    """Berth renewal letters: the owner's address block, the berth and its boat, the fee for next year."""
    for b, o, bo_key in picks:
        k, ok, bn = str(b["boat_id"]), str(o["owner_id"]), b["berth_no"]
        berth = w.by["berths"][bn]
        d = w.new(
            f"letters/berth-renewal-{bn.lower()}.md",
            "letter",
            f"Berth renewal {bn}",
            subjects=[f"owners@{ok}", f"boats@{k}", f"berths@{bn}"],
        )
        d.t("**Carrick Reach Marina** · Harbour Office, Quay Road\n\n31 October 2026\n\n")
        if w.has("owners", "title", ok):
            w.say(d, "owners", "title", ok, o["title"], "letter", "verbatim")
            d.t(" ")
        d.t(f"{o['first_name']} {o['last_name']}\n\n")
        if w.has("owners", "home_town", ok):
            w.say(d, "owners", "home_town", ok, o["home_town"], "letter", "verbatim")
            d.t("\n\n")
        if w.has("owners", "member_no", ok):
            d.t("Member no. ")
            w.say(d, "owners", "member_no", ok, o["member_no"], "letter", "code")
            d.t("\n\n")
        d.t(f"Dear {o['first_name']},\n\n**Berth renewal 2027: ")
        w.say(d, "boats", "berth_no", k, bn, "letter", "code")
        d.t(", ")
        w.say(d, "boat_owners", "owner_id", bo_key, b["name"], "letter", "name")
        d.t("**\n\nYour licence for the berth above, on the ")
        w.say(d, "berths", "pontoon_code", bn, w.by["pontoons"][berth["pontoon_code"]]["name"], "letter", "name")
        d.t(", runs out on 31 December.")
        if w.has("berths", "length_m", bn) and w.has("berths", "berth_type", bn):
            d.t(" It is a ")
            w.say(d, "berths", "length_m", bn, metres(berth["length_m"]), "letter", "metres")
            d.t(" ")
            w.say(d, "berths", "berth_type", bn, berth["berth_type"].lower(), "letter", "lowercase")
            d.t(" berth.")
        if w.has("berths", "annual_fee", bn):
            d.t(" The annual fee for 2027 is unchanged at ")
            w.say(d, "berths", "annual_fee", bn, gbp(berth["annual_fee"]), "letter", "gbp")
            d.t(", payable by 1 January.")
        if w.has("boats", "year_built", k) and w.has("boats", "make", k):
            d.t(f" We still have {b['name']} on the register as a ")
            w.say(d, "boats", "year_built", k, str(b["year_built"]), "letter", "verbatim")
            d.t(" ")
            w.say(d, "boats", "make", k, b["make"], "letter", "verbatim")
            d.t("; please tell us if anything has changed.")
        d.t("\n\nYours sincerely,\n\nDemelza Hart  \n")
        if w.has("staff", "role", "5"):
            w.say(d, "staff", "role", "5", "Office manager", "signature", "verbatim")
        d.t("\n")


def write_meetings(w):
    """Berthing committee notes: initials keyed on the Present line, some figures rounded."""
    rnd = random.Random(SEED + 1)
    present = [w.by["staff"][s] for s in ("1", "3", "5")]
    pontoons = [p for p in w.rows["pontoons"] if w.has("pontoons", "shore_power", p["pontoon_code"])]
    fees = [
        b
        for b in w.rows["berths"]
        if not w.gone("berths", b["berth_no"]) and w.has("berths", "annual_fee", b["berth_no"])
    ]
    held = {b["berth_no"] for b in w.rows["boats"]}
    vacant = [
        b
        for b in w.rows["berths"]
        if b["berth_no"] not in held
        and not w.gone("berths", b["berth_no"])
        and w.has("berths", "length_m", b["berth_no"])
    ]
    for n, date in enumerate(("2026-08-12", "2026-09-09", "2026-10-14")):
        d = w.new(f"meetings/berthing-committee-{date}.md", "notes", f"Berthing committee {d_words(date)}")
        d.t(
            f"# Berthing committee, {d_words(date)}\n\nPresent: "
            + ", ".join(f"{initials(s['name'])} ({s['name']})" for s in present)
            + "\n\n"
        )
        p = pontoons[n * 2 % len(pontoons)]
        d.t(f"- Power: {p['name']} is on ")
        w.say(d, "pontoons", "shore_power", p["pontoon_code"], p["shore_power"], "notes", "verbatim")
        d.t(" now; KB to check the bollards before winter.\n")
        for b in rnd.sample(fees, 2):
            d.t(f"- Fees 2027: {b['berth_no']} stays at about ")
            w.say(
                d,
                "berths",
                "annual_fee",
                b["berth_no"],
                f"£{b['annual_fee'] / 1000:.1f}k",
                "notes",
                "gbp-k",
                exact=False,
            )
            d.t(".\n")
        v = vacant[n % len(vacant)]
        d.t(f"- Waiting list: offer {v['berth_no']} (about ")
        w.say(
            d, "berths", "length_m", v["berth_no"], f"{round(v['length_m'])} m", "notes", "approx-metres", exact=False
        )
        d.t(") to the next name on the list.\n")
        d.t("- Sea Breeze and Sea Breeze II: owners keep getting each other's post. DH to label the pigeonholes.\n")
        d.t("- Next meeting: TR to circulate the agenda.\n")


DISTRACTORS = {
    "other/helford-creek-marina-fees-2027.md": (
        "# Helford Creek Marina: berth fees 2027\n\n| Pontoon | Berth length | Annual fee |\n|---|---|---|\n"
        "| North | 9.5 m | £1,850 |\n| North | 11.0 m | £2,145 |\n| South | 12.0 m | £2,340 |\n"
        "| Swinging moorings | 10.0 m | £950 |\n\nShore power 16 A on all pontoons. Fees include VAT.\n"
    ),
    "other/broker-listing-sea-breeze-iii.md": (
        "# For sale: Sea Breeze III\n\nContessa 32, built 1998, 8.0 m LOA, lying Falmouth. Sailing yacht in "
        "good order; antifouling done this autumn. Offers over £24,000. Viewing through Penryn Yacht Brokers.\n"
    ),
    "other/harbour-notice-fv-curlew.txt": (
        "FALMOUTH HARBOUR - NOTICE TO MARINERS 31/2026\n\nThe fishing vessel CURLEW (FH 512), 9.8 m, grounded on "
        "the Black Rock on 04/08/2026 and was refloated on the flood. Mariners are reminded to keep to the "
        "buoyed channel. Harbour office 01326 211000.\n"
    ),
    "other/sailing-club-raffle-winners.md": (
        "# Mylor Sailing Club autumn raffle\n\nFirst prize (a winter lift-out) to Mrs Anna Trevale of Truro; "
        "second to Mr K. Tonking (Penryn); third to Dr H. Tregeare. Thanks to all who bought tickets.\n"
    ),
    "other/chandlery-winter-offers.md": (
        "# Quayside Chandlery: winter offers\n\n- Kittiwake deck shoes, all sizes: £49\n- Antifouling, 2.5 l: £89\n"
        "- Engine service kit for Yanmar 2GM: £64\n- Stern gland packing, 8 mm: £12\n"
    ),
}
NO_FACT = {
    "notices/marina-rules.md": (
        "# Marina rules\n\n1. Keep to 3 knots inside the marina.\n2. No swimming from the pontoons.\n3. Rubbish and "
        "oil go in the compound by the slip.\n4. Children on the pontoons wear lifejackets.\n5. Tell the office "
        "before leaving for more than a week, so your berth can be let to visitors.\n"
    ),
    "notices/fuel-berth-and-fire.txt": (
        "FUEL BERTH AND FIRE PROCEDURE\n\nThe fuel berth is staffed 09:00-17:00. Engines off and no smoking "
        "while fuelling. In a fire: raise the alarm, ring 999, and muster at the car park gate. Extinguishers "
        "are at the head of every pontoon.\n"
    ),
    "notices/winter-lift-out-guide.md": (
        "# Getting ready for lift-out\n\nEmpty the water tanks, take off the sails and sprayhood, and leave the "
        "keys in the office. Tell us about any hull fittings below the waterline. The hoist takes boats up to "
        "20 tonnes.\n"
    ),
}


def write_fixed(w):
    for path, body in DISTRACTORS.items():
        w.new(path, "distractor", body.splitlines()[0].lstrip("# "), distractor=True).t(body)
    for path, body in NO_FACT.items():
        w.new(path, "notice", body.splitlines()[0].lstrip("# ")).t(body)


def write_all(w):
    choose_omissions(w)
    write_pontoons(w)
    write_berth_exports(w)
    write_boat_register(w)
    write_members(w)
    write_ownership(w)
    write_staff(w)
    write_yard_logs(w)
    write_invoices(w)
    rnd = random.Random(SEED + 2)
    jobs = live_jobs(w)
    write_job_sheets(w, sorted(rnd.sample(jobs, 24), key=lambda j: j["job_no"]))
    mailable = [j for j in jobs if owners_of(w, w.by["boats"][str(j["boat_id"])])]
    write_mails(w, sorted(rnd.sample(mailable, 6), key=lambda j: j["job_no"]))
    boats = [b for b in w.rows["boats"] if not w.gone("boats", b["boat_id"])]
    write_cards(w, sorted(rnd.sample(boats, 26), key=lambda b: b["boat_id"]))
    picks = []
    for b in rnd.sample([b for b in boats if b["berth_no"] and w.has("boats", "berth_no", str(b["boat_id"]))], 9):
        own = [(o, key) for o, r, key in owners_of(w, b) if r["role"] == "Owner"]
        if own:
            picks.append((b, own[0][0], own[0][1]))
    write_letters(w, sorted(picks, key=lambda p: p[0]["berth_no"]))
    write_meetings(w)
    write_fixed(w)


# ------------------------------------------------------------------ truth
def truth(w, db_name):
    facts = [f for d in w.docs for f in d.facts]
    stated = {f["fact_key"] for f in facts}
    every = {k for t in PKS for r in w.rows[t] for k in w.facts_of(t, w.key(t, r))}
    left = sorted(every - stated - w.hidden)
    assert not left, left[:10]  # every fact is stated somewhere or left out on purpose
    assert not stated & w.hidden
    exact = {f["fact_key"] for f in facts if f["exact"]}
    docs = {}
    for d in sorted(w.docs, key=lambda d: d.path):
        mine = [f for f in d.facts]
        docs[d.path] = {
            "kind": d.kind,
            "format": d.path.rsplit(".", 1)[1],
            "title": d.title,
            "size": len(d.text().encode()),
            "statements": len(mine),
            "exact_statements": sum(f["exact"] for f in mine),
            "distinct_facts": len({f["fact_key"] for f in mine}),
            "tables": sorted({f["fact_key"].split(".")[0] for f in mine}),
            "subjects": d.subjects,
            "distractor": d.distractor,
            "states_no_db_fact": not mine and not d.distractor,
        }
    return {
        "database": db_name,
        "as_of": "2026-10-31",
        "facts": facts,
        "split_facts": [],
        "distractor_doc_ids": sorted(d.path for d in w.docs if d.distractor),
        "no_fact_doc_ids": sorted(d.path for d in w.docs if not d.facts and not d.distractor),
        "omitted": w.omitted,
        "absent_entities": w.absent_entities,
        "absent_facts": w.absent_facts,
        "documents": docs,
        "stats": {
            "documents": len(docs),
            "statements": len(facts),
            "distinct_facts": len(stated),
            "exact_facts": len(exact),
            "approximate_only_facts": len(stated - exact),
            "database_facts": len(every),
            "omitted_facts": len(w.hidden),
            "by_how": dict(sorted(Counter(f["how"] for f in facts).items())),
            "by_form": dict(sorted(Counter(f["form"] for f in facts).items())),
            "by_format": dict(sorted(Counter(d["format"] for d in docs.values()).items())),
        },
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default=os.path.join(HERE, "marina.sqlite"))
    ap.add_argument("--out", default=HERE)
    a = ap.parse_args(argv)
    w = Writer(a.db)
    write_all(w)
    root = os.path.join(a.out, "docs")
    for d in w.docs:
        p = os.path.join(root, d.path)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(d.text())
    with open(os.path.join(a.out, "truth.json"), "w", encoding="utf-8", newline="\n") as fh:
        json.dump(truth(w, os.path.basename(a.db)), fh, indent=1, ensure_ascii=False)
        fh.write("\n")


if __name__ == "__main__":
    main()
