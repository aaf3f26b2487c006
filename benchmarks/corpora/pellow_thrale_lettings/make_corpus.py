#!/usr/bin/env python3
"""Write the Pellow & Thrale Lettings corpus: the documents a (fictional) three-branch residential letting
agency keeps, written from pellow.sqlite, with every database fact a document states recorded in
truth.json at the moment it is written.

    python3 make_corpus.py [--db pellow.sqlite] [--out .]

Seeded and deterministic; standard library only (the PDFs are written by hand, uncompressed).
"""

from __future__ import annotations

import argparse
import html
import json
import os
import random
import sqlite3
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 2611
AGENCY = "Pellow & Thrale"
MON = ["", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
MONTH = [
    "",
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
WORDS = {0: "no", 1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}
TYPE_ABBREV = {
    "terraced house": "Terr",
    "semi-detached house": "Semi",
    "detached house": "Det",
    "flat": "Flat",
    "maisonette": "Mais",
    "bungalow": "Bung",
    "studio": "Studio",
}
METHOD_ABBREV = {"Standing order": "S/O", "Bank transfer": "BACS", "Universal Credit": "UC", "Card": "CARD"}
PRIORITY_ABBREV = {"Emergency": "EMERG", "Urgent": "URG", "Routine": "ROUT"}
SCHEME_LONG = {"DPS": "Deposit Protection Service", "TDS": "Tenancy Deposit Scheme", "mydeposits": "mydeposits"}
ROLE_SHORT = {"Lead tenant": "lead", "Joint tenant": "joint", "Permitted occupier": "occupier"}
CONTRACTOR_SHORT = {
    1: "Hartley Plumbing",
    2: "Brightwire",
    3: "Ferris Gas",
    4: "Cossington Roofing",
    5: "Dampfix",
    6: "A1 Locks",
    7: "Pennant",
    8: "Thermaflow",
    9: "Greenacre",
}
MONTHS = ["2026-07", "2026-08", "2026-09"]


# ------------------------------------------------------------------------------------------------
# values as people write them
# ------------------------------------------------------------------------------------------------


def ordinal(n):
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def fdate(d, form):
    y, m, dd = (int(x) for x in d.split("-"))
    return {
        "iso": d,
        "date-uk": f"{dd:02d}/{m:02d}/{y}",
        "date-short": f"{dd}/{m}/{y % 100:02d}",
        "date-ordinal": f"{ordinal(dd)} {MON[m]} {y}",
        "date-words": f"{dd} {MONTH[m]} {y}",
        "date-no-year": f"{ordinal(dd)} {MON[m]}",
        "date-dm": f"{dd:02d}/{m:02d}",
    }[form]


def money(n, form):
    return {
        "gbp": f"£{n:,}",
        "gbp-pence": f"£{n:,.2f}",
        "pcm": f"{n:,} pcm",
        "gbp-pcm": f"£{n:,} pcm",
        "plain-number": f"{n:.2f}",
        "plain-int": f"{n}",
    }[form]


def approx_k(n):
    """'£1.3k': rounded to the nearest hundred pounds (approximate)."""
    return f"£{round(n / 100) / 10:.1f}k"


def fphone(p, form):
    digits = p.replace(" ", "")
    return {
        "verbatim": p,
        "phone-compact": digits,
        "phone-spaced": f"{digits[:5]} {digits[5:8]} {digits[8:]}",
        "phone-intl": f"+44 {digits[1:5]} {digits[5:]}",
    }[form]


# ------------------------------------------------------------------------------------------------
# the recorder: a document is written piece by piece; a fact is recorded where its text is written
# ------------------------------------------------------------------------------------------------


class Truth:
    def __init__(self, omitted_keys):
        self.facts, self.documents, self.split_facts = [], {}, []
        self.distractors, self.no_fact = [], []
        self.omitted_keys = omitted_keys


class Doc:
    def __init__(self, truth, doc_id, kind, title, distractor=False, no_fact=False):
        self.truth, self.id, self.kind, self.title = truth, doc_id, kind, title
        self.fmt = doc_id.rsplit(".", 1)[1]
        self.parts, self.n, self.facts = [], 0, []
        self.distractor, self.no_fact = distractor, no_fact
        if distractor:
            truth.distractors.append(doc_id)
        if no_fact:
            truth.no_fact.append(doc_id)

    def raw(self, s):
        """Markup (HTML) or text written as is."""
        self.parts.append(s)
        self.n += len(s)
        return self

    def w(self, *texts):
        for t in texts:
            self.raw(html.escape(t, quote=False) if self.fmt == "html" else t)
        return self

    def v(self, surface, keys, how, form="verbatim", exact=True, split_id=None):
        """Write SURFACE and record it as a statement of each fact key in KEYS."""
        assert not self.distractor and not self.no_fact, (self.id, keys)
        start = self.n
        self.w(surface)
        for key in [keys] if isinstance(keys, str) else keys:
            assert key not in self.truth.omitted_keys, (self.id, key)
            f = {
                "fact_key": key,
                "doc_id": self.id,
                "surface": surface,
                "start": None if self.fmt == "pdf" else start,
                "end": None if self.fmt == "pdf" else self.n,
                "exact": exact,
                "how": how,
                "form": form,
            }
            if split_id:
                f["split_id"] = split_id
            self.facts.append(f)
        return self

    def text(self):
        return "".join(self.parts)


def pdf_escape(s):
    return s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def pdf_bytes(text, title):
    """A minimal PDF 1.4: Helvetica 10 pt, WinAnsi, one 'Tj T*' per line, 56 lines a page, fixed dates."""
    lines = text.split("\n")
    pages = [lines[i : i + 56] for i in range(0, len(lines), 56)] or [[""]]
    objs = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        None,
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        f"<< /Title ({pdf_escape(title)}) /Producer (make_corpus.py) /CreationDate (D:20261001090000Z) >>",
    ]
    kids = []
    for pg in pages:
        body = "BT /F1 10 Tf 13 TL 50 800 Td\n" + "".join(f"({pdf_escape(ln)}) Tj T*\n" for ln in pg) + "ET"
        stream = body.encode("cp1252")
        objs.append(f"<< /Length {len(stream)} >>\nstream\n".encode("cp1252") + stream + b"\nendstream")
        objs.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents {len(objs)} 0 R "
            "/Resources << /Font << /F1 3 0 R >> >> >>"
        )
        kids.append(len(objs))
    objs[1] = f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] /Count {len(kids)} >>"
    out, offsets = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"), []
    for i, o in enumerate(objs, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + (o if isinstance(o, bytes) else o.encode("cp1252")) + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{off:010d} 00000 n \n" for off in offsets).encode()
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R /Info 4 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


# ------------------------------------------------------------------------------------------------
# the database, read once
# ------------------------------------------------------------------------------------------------


class Book:
    def __init__(self, db):
        con = sqlite3.connect(db)
        con.row_factory = sqlite3.Row

        def rows(sql):
            return [dict(r) for r in con.execute(sql)]

        self.branches = {r["branch_code"]: r for r in rows("SELECT * FROM branches ORDER BY rowid")}
        self.landlords = {r["landlord_id"]: r for r in rows("SELECT * FROM landlords ORDER BY landlord_id")}
        self.props = {r["property_ref"]: r for r in rows("SELECT * FROM properties ORDER BY property_ref")}
        self.tenants = {r["tenant_id"]: r for r in rows("SELECT * FROM tenants ORDER BY tenant_id")}
        self.tenancies = {r["tenancy_ref"]: r for r in rows("SELECT * FROM tenancies ORDER BY tenancy_ref")}
        self.on = defaultdict(list)  # tenancy -> [(tenant_id, role)], lead first
        order = {"Lead tenant": 0, "Joint tenant": 1, "Permitted occupier": 2}
        for r in sorted(
            rows("SELECT * FROM tenancy_tenants"), key=lambda r: (r["tenancy_ref"], order[r["role"]], r["tenant_id"])
        ):
            self.on[r["tenancy_ref"]].append((r["tenant_id"], r["role"]))
        self.rent = {(r["tenancy_ref"], r["due_month"]): r for r in rows("SELECT * FROM rent_payments ORDER BY 1, 2")}
        self.contractors = {r["contractor_id"]: r for r in rows("SELECT * FROM contractors ORDER BY 1")}
        self.repairs = {r["job_no"]: r for r in rows("SELECT * FROM repairs ORDER BY job_no")}
        con.close()
        self.current = {}  # property -> its tenancy that has not ended
        self.ended = []
        for ref, t in self.tenancies.items():
            if t["status"] == "ended":
                self.ended.append(ref)
            else:
                self.current[t["property_ref"]] = ref
        self.vacant = [p for p in self.props if p not in self.current]
        # four Hallet Green July payments known only roughly (the July roll was never exported)
        self.july_guess = [
            k
            for k, r in self.rent.items()
            if k[1] == "2026-07" and r["paid_date"] and self.branch_of_tenancy(k[0]) == "HLT"
        ][:4]

    def branch_of_tenancy(self, ref):
        return self.props[self.tenancies[ref]["property_ref"]]["branch_code"]

    def tname(self, tid, form="name"):
        t = self.tenants[tid]
        return {
            "name": f"{t['first_name']} {t['last_name']}",
            "name-reordered": f"{t['last_name']}, {t['first_name']}",
            "first-name": t["first_name"],
            "initial": f"{t['first_name'][0]}. {t['last_name']}",
        }[form]

    def lname(self, lid):
        r = self.landlords[lid]
        return f"{r['first_name']} {r['last_name']}"


def omissions(b):
    """The facts left out on purpose, by group: {group: (rule, [fact keys])}."""
    hlt_july = []
    for ref, m in b.rent:
        if m == "2026-07" and b.branch_of_tenancy(ref) == "HLT":
            cols = ("method",) if (ref, m) in b.july_guess else ("due_month", "amount_paid", "paid_date", "method")
            hlt_july += [f"rent_payments.{c}@{ref}|{m}" for c in cols]
    former = [t for ref in b.ended for t, _ in b.on[ref]]
    return {
        "rent_july_hallet_green": (
            "the Hallet Green branch's July 2026 rent roll was never exported (the branch changed accounts "
            "package in July): no document gives a July 2026 payment of a Hallet Green tenancy exactly; the "
            "meeting notes of w/c 17/8 give four of them approximately from the bank feed (amount to the nearest "
            "£100, date to the week), and their method nowhere",
            hlt_july,
        ),
        "landlord_email_null": (
            "landlords with no e-mail address (NULL) correspond by post; no document says they have none",
            [f"landlords.email@{i}" for i, r in b.landlords.items() if r["email"] is None],
        ),
        "contractor_gas_safe_null": (
            "contractors outside gas work have no Gas Safe number (NULL); no document says so",
            [f"contractors.gas_safe_no@{i}" for i, r in b.contractors.items() if r["gas_safe_no"] is None],
        ),
        "ended_tenancy_deposits": (
            "the deposit and its scheme of the four ended tenancies: returned and closed, in no document",
            [f"tenancies.{c}@{ref}" for ref in b.ended for c in ("deposit", "deposit_scheme")],
        ),
        "former_tenant_contacts": (
            "the phone numbers and e-mail addresses of the tenants of ended tenancies (data kept out of the files)",
            [f"tenants.{c}@{t}" for t in former for c in ("phone", "email")],
        ),
    }


# ------------------------------------------------------------------------------------------------
# office documents
# ------------------------------------------------------------------------------------------------


def doc_branches(t, b):
    d = Doc(t, "office/our-branches.md", "branch-directory", "Our branches")
    d.w(
        f"# {AGENCY} Lettings — our branches\n\nThree offices, one lettings team. Open Mon–Fri 9–5.30, "
        "Sat 9–1 (Hallet Green closed Saturdays).\n\n| Office | Town | Tel. | Branch manager |\n|---|---|---|---|\n"
    )
    for code, r in b.branches.items():
        d.w(f"| {r['name']} | ").v(r["town"], f"branches.town@{code}", "table")
        d.w(" | ").v(fphone(r["phone"], "verbatim"), f"branches.phone@{code}", "table")
        d.w(" | ").v(r["manager"], f"branches.manager@{code}", "table").w(" |\n")
    d.w(
        "\nOut of hours emergencies (gas leak, flood, no heat in winter): call the contractor line on the "
        "back of your tenancy pack.\n"
    )
    return [d]


def doc_no_fact(t):
    out = []
    d = Doc(t, "office/how-to-rent-with-us.md", "guide", "How to rent with us", no_fact=True)
    d.w(
        "# How to rent with us\n\n1. **Viewing** – book online or ring any office. We do accompanied viewings only.\n"
        "2. **Holding deposit** – one week's rent, capped by law, to take the property off the market for up to "
        "15 days.\n3. **Referencing** – income, previous landlord, Right to Rent check (bring your passport or "
        "share code).\n4. **Move in** – sign the tenancy, pay the first month's rent and the deposit, collect keys "
        "on the start date after 12 noon.\n\nWe will give you: the How to Rent guide, the EPC, the gas safety "
        "record, the electrical report and your deposit certificate within 30 days.\n"
    )
    out.append(d)
    d = Doc(t, "office/complaints-procedure.txt", "policy", "Complaints procedure", no_fact=True)
    d.w(
        "COMPLAINTS PROCEDURE\n====================\n\nStage 1  Tell the branch manager. We acknowledge in 3 working "
        "days and reply in 15.\nStage 2  Still unhappy? Write to the directors at head office. Reply within "
        "15 working days.\nStage 3  The Property Redress Scheme can review the complaint once our process is "
        "finished, or 8 weeks after you first complained.\n\nWe keep a log of every complaint for 6 years.\n"
    )
    out.append(d)
    d = Doc(t, "office/holding-deposits.md", "policy", "Holding deposits", no_fact=True)
    d.w(
        "## Holding deposits — staff note\n\n* Max = 1 week's rent (monthly rent × 12 ÷ 52).\n"
        "* Refund in full within 7 days if the landlord pulls out.\n* Keep it only if the applicant gives false "
        "info, fails Right to Rent, or withdraws.\n    * write to them within 7 days saying why.\n"
        "* Deadline for agreement: 15 days unless both sides agree longer.\n"
    )
    out.append(d)
    return out


def doc_landlord_register(t, b):
    d = Doc(t, "landlords/landlord-register.html", "register", "Landlord register")
    d.raw('<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Landlord register</title></head><body>\n')
    d.raw("<h1>Landlord register — all offices</h1>\n<p>").w("Export 30/09/2026. Confidential – not for tenants.")
    d.raw(
        '</p>\n<table border="1">\n<tr><th rowspan="2">Acct</th><th rowspan="2">Landlord</th>'
        '<th rowspan="2">Service</th><th colspan="2">Contact</th><th rowspan="2">Office</th>'
        '<th colspan="2">Properties</th></tr>\n<tr><th>Tel</th><th>E-mail</th><th>Ref</th><th>Address</th></tr>\n'
    )
    owned = defaultdict(list)
    for ref, p in b.props.items():
        owned[p["landlord_id"]].append(ref)
    for lid, r in b.landlords.items():
        refs = owned[lid]
        span = f' rowspan="{len(refs)}"' if len(refs) > 1 else ""
        d.raw(f"<tr><td{span}>").v(r["account_ref"], f"landlords.account_ref@{lid}", "html-table")
        d.raw(f"</td><td{span}>").w(f"{r['last_name']}, {r['first_name']} (")
        d.v(r["title"], f"landlords.title@{lid}", "html-table").w(")")
        d.raw(f"</td><td{span}>").v(r["service_level"], f"landlords.service_level@{lid}", "html-table")
        d.raw(f"</td><td{span}>").v(r["phone"], f"landlords.phone@{lid}", "html-table")
        d.raw(f"</td><td{span}>")
        if r["email"]:
            d.v(r["email"], f"landlords.email@{lid}", "html-table")
        else:
            d.w("post")  # the NULL is not stated: 'post' says how they correspond
        d.raw(f"</td><td{span}>").v(
            b.branches[r["branch_code"]]["name"], f"landlords.branch_code@{lid}", "html-table", "branch-name"
        ).raw("</td>")
        for i, ref in enumerate(refs):
            if i:
                d.raw("<tr>")
            how = "html-table" if i == 0 else "rowspan"
            d.raw("<td>").v(ref, f"properties.landlord_id@{ref}", how, "code")
            d.raw("</td><td>").w(b.props[ref]["address"]).raw("</td></tr>\n")
    d.raw("</table>\n<p>").w("Service levels: Fully managed 12%, Rent collection 9%, Let only = one month's rent.")
    d.raw("</p>\n</body></html>\n")
    return [d]


def _reg_csv(d, b, code, refs):
    d.w("# Lettr export | properties | branch=").v(
        code, [f"properties.branch_code@{r}" for r in refs], "doc-heading", "code"
    )
    d.w(" | 30-09-2026 07:02\nPropRef,Addr1,Town,PC,Typ,Bds,EPC,LLAcct\n")
    for ref in refs:
        p = b.props[ref]
        d.w(f'{ref},"{p["address"]}",').v(p["town"], f"properties.town@{ref}", "csv")
        d.w(",").v(p["postcode"], f"properties.postcode@{ref}", "csv")
        d.w(",").v(TYPE_ABBREV[p["property_type"]], f"properties.property_type@{ref}", "csv", "abbrev")
        d.w(",").v(str(p["bedrooms"]), f"properties.bedrooms@{ref}", "csv", "plain-number")
        d.w(",")
        if p["epc_rating"]:
            d.v(p["epc_rating"], f"properties.epc_rating@{ref}", "csv")
        else:
            d.v("awaited", f"properties.epc_rating@{ref}", "csv", "null-stated")
        d.w(",").v(b.landlords[p["landlord_id"]]["account_ref"], f"properties.landlord_id@{ref}", "csv", "code")
        d.w("\n")


def _reg_tsv(d, b, code, refs):
    d.v(b.branches[code]["name"], [f"properties.branch_code@{r}" for r in refs], "doc-heading", "branch-name")
    d.w(" office – property list (tab separated, for the window-card printer)\n")
    d.w("Ref\tProperty\tTown/Village\tPostcode\tType\tBedrooms\tEPC\tLandlord\n")
    for ref in refs:
        p = b.props[ref]
        d.w(f"{ref}\t{p['address']}\t")
        d.v(p["town"], f"properties.town@{ref}", "tsv").w("\t")
        d.v(p["postcode"], f"properties.postcode@{ref}", "tsv").w("\t")
        d.v(p["property_type"], f"properties.property_type@{ref}", "tsv").w("\t")
        d.v(str(p["bedrooms"]), f"properties.bedrooms@{ref}", "tsv", "plain-number").w("\t")
        d.v(
            p["epc_rating"] or "tbc",
            f"properties.epc_rating@{ref}",
            "tsv",
            "verbatim" if p["epc_rating"] else "null-stated",
        ).w("\t")
        ll = b.landlords[p["landlord_id"]]
        d.v(f"{ll['last_name']}, {ll['first_name']}", f"properties.landlord_id@{ref}", "tsv", "name-reordered")
        d.w("\n")


def _reg_md(d, b, code, refs):
    d.w("# Property book\n\n## ").v(
        b.branches[code]["name"], [f"properties.branch_code@{r}" for r in refs], "heading", "branch-name"
    )
    d.w(" office\n\n| Ref | Address | Where | Postcode | What | Beds | EPC |\n|---|---|---|---|---|---|---|\n")
    for ref in refs:
        p = b.props[ref]
        d.w(f"| {ref} | {p['address']} | ").v(p["town"], f"properties.town@{ref}", "table")
        d.w(" | ").v(p["postcode"], f"properties.postcode@{ref}", "table")
        d.w(" | ").v(p["property_type"], f"properties.property_type@{ref}", "table")
        d.w(" | ").v(f"{p['bedrooms']} bed", f"properties.bedrooms@{ref}", "table", "number-unit")
        d.w(" | ").v(
            p["epc_rating"] or "—",
            f"properties.epc_rating@{ref}",
            "table",
            "verbatim" if p["epc_rating"] else "null-stated",
        )
        d.w(" |\n")
    d.w("\n— = EPC booked, certificate not yet lodged. Studios show 0 beds.\n")


def doc_property_registers(t, b):
    out = []
    for code, name, fn in (
        ("MRB", "properties/marbury-properties.csv.txt", _reg_csv),
        ("CSN", "properties/cossington-property-list.tsv.txt", _reg_tsv),
        ("HLT", "properties/hallet-green-property-book.md", _reg_md),
    ):
        refs = [r for r, p in b.props.items() if p["branch_code"] == code]
        d = Doc(t, name, "property-register", f"{b.branches[code]['name']} property register")
        fn(d, b, code, refs)
        out.append(d)
    return out


def _summary_row(d, b, ref, split_refs, first_cells):
    ty = b.tenancies[ref]
    people = b.on[ref]
    span = f' rowspan="{len(people)}"' if len(people) > 1 else ""
    for i, (tid, role) in enumerate(people):
        how = "html-table" if i == 0 else "rowspan"
        d.raw("<tr>")
        if i == 0:
            d.raw(f"<td{span}>").w(ref)
            d.raw(f"</td><td{span}>").v(
                b.props[ty["property_ref"]]["address"], f"tenancies.property_ref@{ref}", "html-table"
            ).raw("</td>")
        d.raw("<td>").v(b.tname(tid), f"tenancy_tenants.tenant_id@{ref}|{tid}", how, "name")
        d.raw("</td><td>").v(ROLE_SHORT[role], f"tenancy_tenants.role@{ref}|{tid}", how, "role-short")
        d.raw("</td><td>").v(b.tenants[tid]["phone"], f"tenants.phone@{tid}", "html-table")
        d.raw("</td><td>").v(b.tenants[tid]["email"], f"tenants.email@{tid}", "html-table").raw("</td>")
        if i == 0:
            first_cells(d, ty, ref, span, ref in split_refs)
        d.raw("</tr>\n")


def _summary_money(d, ty, ref, span, split):
    d.raw(f"<td{span}>").v(fdate(ty["start_date"], "date-uk"), f"tenancies.start_date@{ref}", "html-table", "date-uk")
    d.raw(f"</td><td{span}>")
    if ty["end_date"]:
        d.v(fdate(ty["end_date"], "date-uk"), f"tenancies.end_date@{ref}", "html-table", "date-uk")
    else:
        d.v("periodic", f"tenancies.end_date@{ref}", "html-table", "null-stated")
    d.raw(f"</td><td{span}>").v(money(ty["rent_pcm"], "gbp"), f"tenancies.rent_pcm@{ref}", "html-table", "gbp")
    d.raw(f"</td><td{span}>")
    if split:
        d.w("see cert. register")
    else:
        d.v(money(ty["deposit"], "gbp"), f"tenancies.deposit@{ref}", "html-table", "gbp")
    d.raw(f"</td><td{span}>").v(ty["deposit_scheme"], f"tenancies.deposit_scheme@{ref}", "html-table")
    d.raw(f"</td><td{span}>").v(ty["status"], f"tenancies.status@{ref}", "html-table").raw("</td>")


def doc_tenancy_summaries(t, b, split_refs):
    out = []
    for code, br in b.branches.items():
        name = br["name"].lower().replace(" ", "-")
        d = Doc(t, f"tenancies/{name}-live-tenancies.html", "tenancy-summary", f"{br['name']} live tenancies")
        d.raw('<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Live tenancies</title></head><body>\n<h1>').w(
            f"Live tenancies – {br['name']} office"
        ).raw("</h1>\n<p>").w(
            "As at 30 Sept 2026. Joint tenants share one row span; occupiers are adults named on the agreement "
            "but not liable for rent."
        ).raw("</p>\n")
        d.raw(
            '<table border="1">\n<tr><th rowspan="2">Tenancy</th><th rowspan="2">Property</th>'
            '<th colspan="4">Who</th><th colspan="2">Term</th><th colspan="3">Money</th>'
            '<th rowspan="2">Status</th></tr>\n<tr><th>Name</th><th>On as</th><th>Mobile</th><th>E-mail</th>'
            "<th>From</th><th>To</th><th>Rent pcm</th><th>Deposit</th><th>Scheme</th></tr>\n"
        )
        for ref, ty in b.tenancies.items():
            if ty["status"] != "ended" and b.props[ty["property_ref"]]["branch_code"] == code:
                _summary_row(d, b, ref, split_refs, _summary_money)
        d.raw("</table>\n</body></html>\n")
        out.append(d)
    return out


def doc_checkouts(t, b):
    d = Doc(t, "tenancies/ended-tenancies-2023-2024.md", "checkout-notes", "Ended tenancies")
    d.w("# Check-outs: tenancies that have ")
    d.v("ended", [f"tenancies.status@{r}" for r in b.ended], "heading", "verbatim")
    d.w(" (kept for the landlord files)\n\n")
    for ref in b.ended:
        ty = b.tenancies[ref]
        p = b.props[ty["property_ref"]]
        d.w("- **").v(ty["property_ref"], f"tenancies.property_ref@{ref}", "nested", "code")
        d.w(f" {p['address']}, {p['town']}**\n  - {ref}: ")
        for i, (tid, role) in enumerate(b.on[ref]):
            d.w(", " if i else "").v(b.tname(tid), f"tenancy_tenants.tenant_id@{ref}|{tid}", "nested", "name")
            d.w(" (").v(role.lower(), f"tenancy_tenants.role@{ref}|{tid}", "nested", "lowercase").w(")")
        d.w("\n    - in: ").v(
            fdate(ty["start_date"], "date-ordinal"), f"tenancies.start_date@{ref}", "nested", "date-ordinal"
        )
        d.w("; out: ").v(fdate(ty["end_date"], "date-ordinal"), f"tenancies.end_date@{ref}", "nested", "date-ordinal")
        d.w("\n    - rent was ").v(money(ty["rent_pcm"], "gbp-pcm"), f"tenancies.rent_pcm@{ref}", "nested", "gbp-pcm")
        d.w("; deposit returned in full, scheme case closed\n")
    d.w("\nNew tenancies on these properties are on the live lists.\n")
    return [d]


def _kv(d, label):
    d.w(f"{label} {'.' * (19 - len(label))} ")


def doc_schedule(t, b, ref, fmt):
    ty = b.tenancies[ref]
    p = b.props[ty["property_ref"]]
    ll = b.landlords[p["landlord_id"]]
    d = Doc(t, f"tenancies/schedules/{ref.lower()}-schedule.{fmt}", "tenancy-schedule", f"Tenancy schedule {ref}")
    d.w(f"{AGENCY.upper()} LETTINGS — TENANCY SCHEDULE\nSchedule 1 to the assured shorthold tenancy agreement\n")
    d.w("-" * 60 + "\n")
    _kv(d, "Tenancy ref")
    d.w(f"{ref}\n")
    _kv(d, "Premises")
    d.v(p["address"], f"tenancies.property_ref@{ref}", "kv-text").w(", ")
    d.v(p["town"], f"properties.town@{ty['property_ref']}", "kv-text").w(" ")
    d.v(p["postcode"], f"properties.postcode@{ty['property_ref']}", "kv-text").w("\n")
    _kv(d, "Landlord")
    d.v(ll["title"], f"landlords.title@{ll['landlord_id']}", "kv-text").w(
        f" {ll['first_name'][0]}. {ll['last_name']} (acct "
    )
    d.v(
        ll["account_ref"],
        [f"landlords.account_ref@{ll['landlord_id']}", f"properties.landlord_id@{p['property_ref']}"],
        "kv-text",
        "code",
    )
    d.w(f") c/o {AGENCY}\n")
    _kv(d, "Tenant(s)")
    for i, (tid, role) in enumerate(b.on[ref]):
        d.w("; " if i else "").v(b.tname(tid), f"tenancy_tenants.tenant_id@{ref}|{tid}", "kv-text", "name")
        d.w(" (").v(role.lower(), f"tenancy_tenants.role@{ref}|{tid}", "kv-text", "lowercase").w(")")
    d.w("\n")
    _kv(d, "Contact")
    for i, (tid, _role) in enumerate(b.on[ref]):
        d.w(" / " if i else "").v(
            fphone(b.tenants[tid]["phone"], "phone-compact"), f"tenants.phone@{tid}", "kv-text", "phone-compact"
        )
    d.w("\n")
    _kv(d, "Term")
    if ty["end_date"]:
        d.w("from ").v(
            fdate(ty["start_date"], "date-ordinal"), f"tenancies.start_date@{ref}", "kv-text", "date-ordinal"
        )
        d.w(" to ").v(fdate(ty["end_date"], "date-short"), f"tenancies.end_date@{ref}", "kv-text", "date-short")
    else:
        d.v("Periodic", f"tenancies.end_date@{ref}", "kv-text", "null-stated").w(" – month to month from ")
        d.v(fdate(ty["start_date"], "date-ordinal"), f"tenancies.start_date@{ref}", "kv-text", "date-ordinal")
    d.w("\n")
    _kv(d, "Rent")
    d.v(money(ty["rent_pcm"], "pcm"), f"tenancies.rent_pcm@{ref}", "kv-text", "pcm")
    d.w(f", due on the {ordinal(int(ty['start_date'][8:]))} of each month\n")
    _kv(d, "Deposit")
    d.v(money(ty["deposit"], "gbp"), f"tenancies.deposit@{ref}", "kv-text", "gbp").w(" held with the ")
    d.v(
        SCHEME_LONG[ty["deposit_scheme"]],
        f"tenancies.deposit_scheme@{ref}",
        "kv-text",
        "expansion" if ty["deposit_scheme"] != "mydeposits" else "verbatim",
    )
    d.w("\n")
    _kv(d, "Status")
    d.v(ty["status"], f"tenancies.status@{ref}", "kv-text").w("\n")
    d.w(
        "-" * 60 + "\nPermitted occupiers may live at the premises but are not tenants and are not liable for rent.\n"
        "Signed for the landlord by the agent.\n"
    )
    return d


def cert_no(ref):
    """The deposit certificate number of a tenancy in the scheme batch (written nowhere with the tenancy's rent)."""
    return f"DC{(int(ref[2:]) * 7919) % 100000:05d}"


def doc_deposit_split(t, b, split_refs):
    batch = Doc(t, "deposits/protection-batch-sep-2026.txt", "deposit-batch", "Deposit protection batch upload")
    reg = Doc(t, "deposits/certificate-register.md", "certificate-register", "Deposit certificate register")
    batch.w(
        "BATCH UPLOAD — deposits protected September 2026 (re-protections after renewal included)\n"
        "prepared by accounts, all three schemes\n\nCERT NO    AMOUNT\n"
    )
    reg.w(
        "# Deposit certificates — which tenancy is which\n\nThe scheme batch only lists certificate numbers. "
        "Match them here before filing.\n\n| Certificate | Tenancy | Property |\n|---|---|---|\n"
    )
    for ref in split_refs:
        ty = b.tenancies[ref]
        sid = f"deposit-{ref}"
        batch.v(cert_no(ref), f"tenancies.deposit@{ref}", "split", "cert-no", split_id=sid)
        batch.w(f"    {ty['deposit']:>7.2f}\n")
        reg.w("| ").v(cert_no(ref), f"tenancies.deposit@{ref}", "split", "cert-no", split_id=sid)
        reg.w(f" | {ref} | {b.props[ty['property_ref']]['address']} |\n")
        t.split_facts.append(
            {
                "fact_key": f"tenancies.deposit@{ref}",
                "split_id": sid,
                "doc_ids": [batch.id, reg.id],
                "note": "the batch gives the amount by certificate number; the register gives the "
                "tenancy of each certificate",
            }
        )
    batch.w(f"\nTotal certificates: {len(split_refs)}\n")
    return [batch, reg]


# ------------------------------------------------------------------------------------------------
# rent
# ------------------------------------------------------------------------------------------------


def _roll_rows(b, code, month):
    return [
        (ref, b.rent[(ref, month)])
        for ref, ty in b.tenancies.items()
        if ty["status"] != "ended" and b.props[ty["property_ref"]]["branch_code"] == code
    ]


def _rent_cells(d, ref, m, r, date_form, method_form, sep, pad=None, money_form="plain-number"):
    """amount, date and method of one payment, SEP between them; PAD widths for fixed-width tables."""
    key = f"{ref}|{m}"
    cells = [(money(r["amount_paid"], money_form), "amount_paid", money_form)]
    if r["paid_date"]:
        cells.append((fdate(r["paid_date"], date_form), "paid_date", date_form))
        cells.append((METHOD_ABBREV[r["method"]] if method_form == "abbrev" else r["method"], "method", method_form))
    else:
        cells += [("UNPAID", "paid_date", "null-stated"), ("-", "method", "null-stated")]
    for i, (s, col, form) in enumerate(cells):
        d.raw(sep if i else "")
        d.v(s, f"rent_payments.{col}@{key}", d.how, form)
        if pad:
            d.w(" " * (pad[i] - len(s)))


def _roll(d, b, code, month, style):
    mname = MONTH[int(month[5:])]
    rows = _roll_rows(b, code, month)
    if style == "csv":
        d.how = "csv"
        d.w(f"Rent receipts {mname} 2026,{b.branches[code]['name']},,,\nTncy,Prop,Rcvd (GBP),Rcvd on,How\n")
        for ref, r in rows:
            d.v(ref, f"rent_payments.due_month@{ref}|{month}", "csv", "code")
            d.w(f",{b.tenancies[ref]['property_ref']},")
            _rent_cells(d, ref, month, r, "date-uk", "abbrev", ",")
            d.w("\n")
        d.w("S/O=standing order, BACS=one-off transfer, UC=Universal Credit direct payment\n")
    elif style == "tsv":
        d.how = "tsv"
        d.w(f"TenancyRef\tAddress\tAmt\tDate\tMethod\t# {b.branches[code]['name']} – due {month}\n")
        for ref, r in rows:
            d.v(ref, f"rent_payments.due_month@{ref}|{month}", "tsv", "code")
            d.w(f"\t{b.props[b.tenancies[ref]['property_ref']]['address']}\t")
            _rent_cells(d, ref, month, r, "iso", "verbatim", "\t", money_form="plain-int")
            d.w("\n")
    elif style == "box":
        d.how = "table"
        d.w(f"{AGENCY} – {b.branches[code]['name']} – rent roll, {mname} 2026\n")
        d.w(
            "┌─────────┬────────────┬────────────┬──────────────────┐\n"
            "│ Tenancy │ Received £ │ On         │ By               │\n"
            "├─────────┼────────────┼────────────┼──────────────────┤\n"
        )
        for ref, r in rows:
            d.w("│ ").v(ref, f"rent_payments.due_month@{ref}|{month}", "table", "code").w(" " * (8 - len(ref)) + "│ ")
            _rent_cells(d, ref, month, r, "date-no-year", "verbatim", " │ ", pad=[10, 10, 17])
            d.w("│\n")
        d.w("└─────────┴────────────┴────────────┴──────────────────┘\n")
    else:
        d.how = "html-table"
        d.raw('<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Rent received</title></head><body>\n<h2>')
        d.w(f"Rent received — {b.branches[code]['name']} — {mname} 2026").raw('</h2>\n<table border="1">\n')
        d.raw(
            '<tr><th rowspan="2">Ref</th><th rowspan="2">Property</th><th colspan="3">Payment</th></tr>\n'
            "<tr><th>£</th><th>Date</th><th>Method</th></tr>\n"
        )
        for ref, r in rows:
            d.raw("<tr><td>").v(ref, f"rent_payments.due_month@{ref}|{month}", "html-table", "code")
            d.raw("</td><td>").w(b.props[b.tenancies[ref]["property_ref"]]["address"]).raw("</td><td>")
            _rent_cells(d, ref, month, r, "date-words", "verbatim", "</td><td>", money_form="gbp-pence")
            d.raw("</td></tr>\n")
        d.raw("</table>\n</body></html>\n")


def doc_rent_rolls(t, b):
    out = []
    styles = ["csv", "tsv", "box", "html"]
    for i, code in enumerate(b.branches):
        for j, month in enumerate(MONTHS):
            if code == "HLT" and month == "2026-07":
                continue  # never exported (omitted)
            style = styles[(i + j) % 4]
            ext = {"csv": "csv.txt", "tsv": "tsv.txt", "box": "txt", "html": "html"}[style]
            name = b.branches[code]["name"].lower().replace(" ", "-")
            d = Doc(t, f"rent/{name}-rent-{month}.{ext}", "rent-roll", f"{b.branches[code]['name']} rent {month}")
            _roll(d, b, code, month, style)
            out.append(d)
    return out


def doc_chats(t, b):
    out = []
    for code, br in b.branches.items():
        mgr = br["manager"].split()[0]
        late = [
            (ref, m, r)
            for (ref, m), r in b.rent.items()
            if b.branch_of_tenancy(ref) == code
            and r["paid_date"]
            and not (code == "HLT" and m == "2026-07")
            and (r["amount_paid"] < b.tenancies[ref]["rent_pcm"] or int(r["paid_date"][8:]) > 8)
        ][:5]
        name = br["name"].lower().replace(" ", "-")
        d = Doc(t, f"rent/chats/{name}-arrears-whatsapp.txt", "chat-export", f"{br['name']} arrears chats")
        d.w(f"WhatsApp Chat with {AGENCY} {br['name']} (rent line)\nMessages and calls are end-to-end encrypted.\n\n")
        for ref, m, r in sorted(late, key=lambda x: x[2]["paid_date"]):
            ty = b.tenancies[ref]
            tid = b.on[ref][0][0]
            who = b.tname(tid)
            y, mo = m.split("-")
            d.w(
                f"[{int(r['paid_date'][8:]) - 1 if int(r['paid_date'][8:]) > 1 else 1:02d}/{mo}/{y}, 09:12] "
                f"{AGENCY} {br['name']}: Hi "
            ).v(b.tname(tid, "first-name"), f"tenancy_tenants.tenant_id@{ref}|{tid}", "chat", "first-name")
            d.w(f", it's {mgr}. {MONTH[int(mo)]} rent for {b.props[ty['property_ref']]['address']} (")
            d.v(approx_k(ty["rent_pcm"]), f"tenancies.rent_pcm@{ref}", "chat", "gbp-k", exact=False)
            d.w(") isn't showing yet – can you let me know when it's coming?\n[")
            d.v(fdate(r["paid_date"], "date-uk"), f"rent_payments.paid_date@{ref}|{m}", "chat", "date-uk")
            d.w(f", 18:4{len(who) % 10}] {who}: ")
            if r["amount_paid"] < ty["rent_pcm"]:
                d.w("sent ").v(money(r["amount_paid"], "gbp"), f"rent_payments.amount_paid@{ref}|{m}", "chat", "gbp")
                d.w(" today, sorry it's short. rest when I get paid\n")
            else:
                d.w("so sorry, paid it in full just now (").v(
                    money(r["amount_paid"], "gbp"), f"rent_payments.amount_paid@{ref}|{m}", "chat", "gbp"
                )
                d.w(")\n")
            d.w(f"[{fdate(r['paid_date'], 'date-uk')}, 19:03] {AGENCY} {br['name']}: Thanks, noted 👍\n")
        out.append(d)
    return out


def _statement_property(d, b, pref):
    p = b.props[pref]
    d.v(p["address"], f"properties.landlord_id@{pref}", "letter").w(f" ({pref})\n")
    ref = b.current.get(pref)
    if ref is None:
        d.w("  Vacant – on the market, viewings this week. No rent due.\n")
    else:
        r = b.rent[(ref, "2026-09")]
        key = f"{ref}|2026-09"
        if r["paid_date"]:
            d.w("  Rent received ").v(
                fdate(r["paid_date"], "date-uk"), f"rent_payments.paid_date@{key}", "heading-subject", "date-uk"
            )
            d.w(" " + "." * 12 + " ").v(
                money(r["amount_paid"], "gbp-pence"), f"rent_payments.amount_paid@{key}", "heading-subject", "gbp-pence"
            )
            d.w("\n")
        else:
            d.w("  September rent ").v(
                "not yet received", f"rent_payments.paid_date@{key}", "heading-subject", "null-stated"
            )
            d.w(" – we are chasing the tenant\n")
    for job, j in b.repairs.items():
        if j["property_ref"] == pref and j["status"] == "Completed":
            d.w("  ").v(job, f"repairs.property_ref@{job}", "heading-subject", "code")
            d.w(f" {j['category'].lower()} – ").v(
                CONTRACTOR_SHORT[j["contractor_id"]], f"repairs.contractor_id@{job}", "letter", "short-name"
            )
            d.w(" " + "." * 6 + " ").v(money(j["cost"], "gbp-pence"), f"repairs.cost@{job}", "letter", "gbp-pence")
            d.w("\n")
    d.w("\n")


def doc_landlord_statement(t, b, lid, fmt):
    ll = b.landlords[lid]
    br = b.branches[ll["branch_code"]]
    d = Doc(
        t,
        f"landlords/statements/{ll['account_ref'].lower()}-2026-09.{fmt}",
        "landlord-statement",
        f"Landlord statement {ll['account_ref']} September 2026",
    )
    d.w(f"{AGENCY.upper()} LETTINGS\n").v(br["name"], f"landlords.branch_code@{lid}", "letterhead", "branch-name")
    d.w(f" office · {br['phone']}\n\n30th September 2026\n\n")
    d.v(ll["title"], f"landlords.title@{lid}", "letter").w(f" {ll['first_name'][0]}. {ll['last_name']}\n")
    d.w("Our ref: ").v(ll["account_ref"], f"landlords.account_ref@{lid}", "letter").w("/0926\n\n")
    d.w(f"Dear {ll['title']} {ll['last_name']},\n\nStatement for September 2026\n\n")
    for pref, p in b.props.items():
        if p["landlord_id"] == lid:
            _statement_property(d, b, pref)
    d.w(
        "Our fee and VAT are shown on the enclosed invoice. Net rent is paid to your account within 5 working days.\n\n"
        "Yours sincerely,\n\n"
    ).v(br["manager"], f"branches.manager@{ll['branch_code']}", "signature")
    d.w("\nBranch manager\n")
    return d


# ------------------------------------------------------------------------------------------------
# the portal, inspections
# ------------------------------------------------------------------------------------------------

FEATURES = [
    "Gas central heating",
    "Double glazing",
    "Off-road parking",
    "Close to the station",
    "Garden",
    "Unfurnished",
    "Pets considered",
    "Recently redecorated",
    "Bills not included",
    "Walk to shops",
]


def doc_listing(t, b, rnd, pref):
    p = b.props[pref]
    street = p["address"].split(", ")[-1].split(" ", 1)[1]
    d = Doc(t, f"portal/{pref.lower()}-{street.lower().replace(' ', '-')}.md", "portal-listing", f"Listing {pref}")
    d.w("# ")
    if p["property_type"] == "studio":
        d.v("Studio", f"properties.property_type@{pref}", "heading", "capitalised").w(" flat to rent\n")
    else:
        d.v(f"{p['bedrooms']} bedroom", f"properties.bedrooms@{pref}", "heading", "number-unit").w(" ")
        d.v(p["property_type"], f"properties.property_type@{pref}", "heading").w(" to rent\n")
    d.w(f"**{street}, ").v(p["town"], f"properties.town@{pref}", "listing").w("** · ")
    d.v(p["postcode"].split()[0], f"properties.postcode@{pref}", "listing", "postcode-district", exact=False)
    d.w("\n\n")
    ref = b.current.get(pref)
    if ref:
        rent = b.tenancies[ref]["rent_pcm"]
        d.w("## ").v(money(rent, "gbp-pcm"), f"tenancies.rent_pcm@{ref}", "listing", "gbp-pcm")
        d.w("\n").v(f"£{round(rent * 12 / 52):,} pw", f"tenancies.rent_pcm@{ref}", "listing", "per-week", exact=False)
        d.w("\n\n**LET AGREED**\n\n")
    else:
        ask = 500 + 25 * rnd.randint(10, 40)
        d.w(f"## £{ask:,} pcm\n£{round(ask * 12 / 52):,} pw\n\n**Available now**\n\n")
    d.w("### Key features\n\n")
    if p["bedrooms"]:
        d.w("- ").v(
            f"{WORDS[p['bedrooms']].capitalize()} bedroom{'s' if p['bedrooms'] > 1 else ''}",
            f"properties.bedrooms@{pref}",
            "bullet",
            "number-words",
        ).w("\n")
    d.w("- EPC rating: ")
    if p["epc_rating"]:
        d.v(p["epc_rating"], f"properties.epc_rating@{pref}", "bullet")
    else:
        d.v("to follow", f"properties.epc_rating@{pref}", "bullet", "null-stated")
    d.w("\n")
    for f in rnd.sample(FEATURES, 3):
        d.w(f"- {f}\n")
    d.w(
        f"\n### Description\n\nA {rnd.choice(['well presented', 'spacious', 'bright', 'tidy'])} home in a "
        f"{rnd.choice(['quiet', 'popular', 'convenient'])} spot. Viewing strictly by appointment.\n\n"
    )
    d.w(f"Marketed by {AGENCY}, ").v(
        b.branches[p["branch_code"]]["name"], f"properties.branch_code@{pref}", "listing", "branch-name"
    )
    d.w(f" · {b.branches[p['branch_code']]['phone']}\nProperty reference: {pref}\n")
    return d


def doc_inspection(t, b, rnd, pref, day):
    p = b.props[pref]
    br = b.branches[p["branch_code"]]
    ini = "".join(w[0] for w in br["manager"].split())
    d = Doc(t, f"inspections/{pref.lower()}-inspection.txt", "inspection-checklist", f"Inspection {pref}")
    d.w(f"MID-TERM INSPECTION — {pref}\n{p['address']}\nDate: {day}/09/2026   Inspector: {ini}\n")
    d.w("Type: ").v(p["property_type"], f"properties.property_type@{pref}", "checklist")
    if p["bedrooms"]:
        d.w("   Beds: ").v(str(p["bedrooms"]), f"properties.bedrooms@{pref}", "checklist", "plain-number")
    d.w("\n\n")
    jobs = [(job, j) for job, j in b.repairs.items() if j["property_ref"] == pref and j["reported_date"] < "2026-09-01"]
    checks = [
        "Smoke alarms tested",
        "CO alarm (boiler room)",
        "No signs of damp/mould",
        "Garden tidy",
        "Windows & locks",
        "No unauthorised pets",
        "Meter readings taken",
    ]
    for c in checks:
        d.w(f"[{'✓' if rnd.random() < 0.85 else '✗'}] {c}\n")
    d.w("\nActions / repairs on file:\n")
    if not jobs:
        d.w("  none\n")
    for job, j in jobs:
        d.w("  → ").v(job, f"repairs.property_ref@{job}", "checklist", "code").w(" ")
        d.v(j["category"], f"repairs.category@{job}", "checklist").w(", ")
        d.v(j["priority"].lower(), f"repairs.priority@{job}", "checklist", "lowercase").w(" – ")
        d.v(j["status"].lower(), f"repairs.status@{job}", "checklist", "lowercase").w("\n")
    d.w(
        f"\nTenant present: {'yes' if rnd.random() < 0.6 else 'no (access with consent, keys from office)'}\n"
        "Overall: satisfactory / report copied to landlord\n"
    )
    return d


# ------------------------------------------------------------------------------------------------
# repairs and contractors
# ------------------------------------------------------------------------------------------------


def doc_repairs_logs(t, b):
    out = []
    w = [8, 9, 11, 10, 6, 20, 9, 15]
    for code, br in b.branches.items():
        name = br["name"].lower().replace(" ", "-")
        d = Doc(t, f"repairs/{name}-repairs-log.txt", "repairs-log", f"{br['name']} repairs log")
        d.w(f"REPAIRS LOG — {br['name'].upper()} — June to September 2026 (dates are 2026)\n")
        d.w("╔" + "╤".join("═" * (x + 2) for x in w) + "╗\n")
        heads = ["Job", "Prop", "Reported", "Type", "Pri", "Contractor", "Cost", "Status"]
        d.w("║" + "│".join(f" {h:<{x}} " for h, x in zip(heads, w, strict=True)) + "║\n")
        d.w("╟" + "┼".join("─" * (x + 2) for x in w) + "╢\n")
        for job, j in b.repairs.items():
            if b.props[j["property_ref"]]["branch_code"] != code:
                continue
            con = CONTRACTOR_SHORT[j["contractor_id"]] if j["contractor_id"] else "unassigned"
            cells = [
                (job, None, None),
                (j["property_ref"], "property_ref", "code"),
                (fdate(j["reported_date"], "date-no-year"), "reported_date", "date-no-year"),
                (j["category"], "category", "verbatim"),
                (PRIORITY_ABBREV[j["priority"]], "priority", "abbrev"),
                (con, "contractor_id", "short-name" if j["contractor_id"] else "null-stated"),
                (
                    money(j["cost"], "gbp") if j["cost"] is not None else "tbc",
                    "cost",
                    "gbp" if j["cost"] is not None else "null-stated",
                ),
                (j["status"], "status", "verbatim"),
            ]
            d.w("║")
            for i, ((s, col, form), x) in enumerate(zip(cells, w, strict=True)):
                d.w("│ " if i else " ")
                if col:
                    d.v(s, f"repairs.{col}@{job}", "table", form)
                else:
                    d.w(s)
                d.w(" " * (x - len(s) + 1))
            d.w("║\n")
        d.w("╚" + "╧".join("═" * (x + 2) for x in w) + "╝\n")
        d.w("Pri: EMERG = same day, URG = 24 h, ROUT = 14 days. tbc = no invoice yet.\n")
        out.append(d)
    return out


def doc_works_order(t, b, job):
    j = b.repairs[job]
    p = b.props[j["property_ref"]]
    c = b.contractors[j["contractor_id"]]
    br = b.branches[p["branch_code"]]
    d = Doc(t, f"repairs/works-orders/{job.lower()}.md", "works-order", f"Works order {job}")
    d.w(f"**{AGENCY} Lettings · {br['name']}**\n\n# Works order {job}\n\nTo: ")
    d.v(c["name"], f"repairs.contractor_id@{job}", "letter", "name").w(" (")
    d.v(fphone(c["phone"], "phone-spaced"), f"contractors.phone@{j['contractor_id']}", "letter", "phone-spaced")
    d.w(")\n\nProperty: ").v(p["address"], f"repairs.property_ref@{job}", "letter").w(f", {p['town']}\n\n")
    d.w("Reported: ").v(fdate(j["reported_date"], "date-words"), f"repairs.reported_date@{job}", "letter", "date-words")
    d.w("\n\nPriority: ").v(j["priority"].upper(), f"repairs.priority@{job}", "letter", "uppercase")
    d.w(
        {"Emergency": " – attend today", "Urgent": " – attend within 24 hours", "Routine": " – within 14 days"}[
            j["priority"]
        ]
    )
    d.w("\n\nWork: ").v(j["category"].lower(), f"repairs.category@{job}", "letter", "lowercase")
    d.w(" – see tenant's report attached.\n\n")
    ref = b.current.get(p["property_ref"])
    if ref:
        tid = b.on[ref][0][0]
        d.w("Access: the tenant, ").v(b.tname(tid), f"tenancy_tenants.tenant_id@{ref}|{tid}", "letter", "name")
        d.w(", will let you in. Their mobile is ").v(
            fphone(b.tenants[tid]["phone"], "phone-intl"), f"tenants.phone@{tid}", "pronoun", "phone-intl"
        )
        d.w(". Please text before you go.\n\n")
    else:
        d.w("Access: property is empty, keys from the office.\n\n")
    d.w("Quote first if over £250. Invoice to accounts quoting the job number.\n")
    return d


def doc_contractor_list(t, b):
    d = Doc(t, "repairs/approved-contractors.md", "contractor-list", "Approved contractors")
    d.w(
        "## Approved contractors (reviewed Aug 2026)\n\n"
        "Use these first. Anyone new needs insurance + 2 refs on file.\n\n"
    )
    trades = defaultdict(list)
    for cid, c in b.contractors.items():
        trades[c["trade"]].append(cid)
    for trade, ids in trades.items():
        d.w("- ").v(trade, [f"contractors.trade@{cid}" for cid in ids], "nested").w("\n")
        for cid in ids:
            c = b.contractors[cid]
            d.w(f"    - {c['name']}")
            if c["gas_safe_no"]:
                d.w(" — Gas Safe reg. ").v(c["gas_safe_no"], f"contractors.gas_safe_no@{cid}", "nested")
            form = "phone-spaced" if cid % 2 else "phone-compact"
            d.w(" — ").v(fphone(c["phone"], form), f"contractors.phone@{cid}", "nested", form).w("\n")
    d.w("\nOut of hours: gas engineers first, then Pennant for boarding up.\n")
    return [d]


def doc_contractor_mail(t, b, job, n):
    j = b.repairs[job]
    c = b.contractors[j["contractor_id"]]
    p = b.props[j["property_ref"]]
    d = Doc(t, f"repairs/mail/re-{job.lower()}-{n}.txt", "e-mail", f"Re: {job}")
    d.w(
        f"From: accounts@{c['name'].split()[0].lower()}.example\nTo: repairs@pellowthrale.example\n"
        f"Subject: RE: {job} {p['address']}\n\nHi,\n\n"
    )
    if j["cost"] is not None:
        d.w("Job done, invoice attached for ").v(money(j["cost"], "gbp"), f"repairs.cost@{job}", "e-mail", "gbp")
        d.w(" all in. Tenant signed the sheet.\n")
    else:
        d.w(
            f"We've had a look. Rough figure £{300 + 50 * (n + 1)}-£{600 + 100 * n} depending what we find — "
            "can you get landlord approval?\n"
        )
    d.w(f"\nThanks\n{c['name']}\n")
    d.w("\n-----Original Message-----\nFrom: repairs@pellowthrale.example\nSubject: ")
    d.w(f"{job} ")
    d.v(p["address"], f"repairs.property_ref@{job}", "quoted-original")
    d.w("\n\nPlease attend – tenant reports a problem (").v(
        j["category"].lower(), f"repairs.category@{job}", "quoted-original", "lowercase"
    )
    d.w("). Reported ").v(
        fdate(j["reported_date"], "date-short"), f"repairs.reported_date@{job}", "quoted-original", "date-short"
    )
    d.w(".\n")
    return d


# ------------------------------------------------------------------------------------------------
# the weekly lettings meeting: nested notes with initials (the key at the top of each)
# ------------------------------------------------------------------------------------------------


def _week(monday):
    import datetime

    m = datetime.date.fromisoformat(monday)
    return m, [str(m + datetime.timedelta(days=i)) for i in range(-7, 0)]


def _notes_arrears(d, b, days, month, code):
    for (ref, m), r in b.rent.items():
        if b.branch_of_tenancy(ref) != code or (code == "HLT" and m == "2026-07"):
            continue
        key = f"{ref}|{m}"
        addr = b.props[b.tenancies[ref]["property_ref"]]["address"]
        if r["paid_date"] in days and r["amount_paid"] < b.tenancies[ref]["rent_pcm"]:
            d.w(f"        - {ref} ({addr}): only about ")
            d.v(approx_k(r["amount_paid"]), f"rent_payments.amount_paid@{key}", "notes", "gbp-k", exact=False)
            d.w(f" in for {MON[int(m[5:])]}, rest promised\n")
        elif r["paid_date"] is None and m == month:
            d.w(f"        - {ref} ({addr}): ").v("nothing", f"rent_payments.paid_date@{key}", "notes", "null-stated")
            d.w(f" for {MON[int(m[5:])]} yet – final reminder letter\n")


def _notes_july_guess(d, b):
    d.w("    - July roll still not out of the new system; from the bank feed:\n")
    for ref, m in b.july_guess:
        r = b.rent[(ref, m)]
        key = f"{ref}|{m}"
        import datetime

        paid = datetime.date.fromisoformat(r["paid_date"])
        mon = paid - datetime.timedelta(days=paid.weekday())
        d.w("        - ").v(ref, f"rent_payments.due_month@{key}", "notes", "code", exact=False)
        d.w(" roughly ").v(
            approx_k(r["amount_paid"]), f"rent_payments.amount_paid@{key}", "notes", "gbp-k", exact=False
        )
        d.w(" in ").v(
            f"w/c {mon.day}/{mon.month}", f"rent_payments.paid_date@{key}", "notes", "approx-week", exact=False
        )
        d.w("\n")


def doc_notes(t, b, monday, notice_refs):
    m, days = _week(monday)
    d = Doc(t, f"office/meetings/lettings-meeting-{monday}.md", "meeting-notes", f"Lettings meeting w/c {monday}")
    d.w(f"# Lettings meeting – w/c {m.day}/{m.month}\n\nPresent: ")
    for i, (code, br) in enumerate(b.branches.items()):
        ini = "".join(w[0] for w in br["manager"].split())
        d.w(", " if i else "").w(f"{ini} (").v(br["manager"], f"branches.manager@{code}", "key")
        d.w(f", {br['name']})")
    d.w("\n\n")
    for code, br in b.branches.items():
        ini = "".join(w[0] for w in br["manager"].split())
        d.w(f"- **{ini}**\n    - arrears\n")
        _notes_arrears(d, b, days, days[-1][:7], code)
        if code == "HLT" and monday == "2026-08-17":
            _notes_july_guess(d, b)
        d.w("    - repairs\n")
        for job, j in b.repairs.items():
            if j["reported_date"] in days and b.props[j["property_ref"]]["branch_code"] == code:
                d.w(f"        - {job} ({j['property_ref']}) ").v(
                    j["category"].lower(), f"repairs.category@{job}", "notes", "lowercase"
                )
                d.w(", ").v(j["priority"].lower(), f"repairs.priority@{job}", "notes", "lowercase")
                d.w(", came in ").v(
                    f"w/c {days[0][8:].lstrip('0')}/{int(days[0][5:7])}",
                    f"repairs.reported_date@{job}",
                    "notes",
                    "approx-week",
                    exact=False,
                )
                d.w("\n")
        for ref in notice_refs:
            if b.branch_of_tenancy(ref) == code:
                d.w(f"    - {ref}: tenant has ").v("served notice", f"tenancies.status@{ref}", "notes", "paraphrase")
                d.w(" – book check-out, tell landlord, re-market\n")
    d.w("\nAOB: Christmas rota next week. Keys audit overdue at Cossington.\n")
    return d


# ------------------------------------------------------------------------------------------------
# distractors: near the agency's entities, stating none of its facts
# ------------------------------------------------------------------------------------------------


def doc_distractors(t):
    out = []
    d = Doc(t, "misc/marbury-home-lets-orchard-court.md", "rival-listing", "Rival listing", distractor=True)
    d.w(
        "# 3 bedroom terraced house to rent\n**Orchard Court, Marbury** · MB5\n\n## £1,275 pcm\n£294 pw\n\n"
        "- Three bedrooms\n- EPC rating: C\n- Garden\n\nMarketed by Marbury Home Lets · 01632 960141\n"
        "Property reference: MHL-0114\n"
    )
    out.append(d)
    d = Doc(t, "misc/reference-request-d-pryce.txt", "reference-request", "Reference request", distractor=True)
    d.w(
        "Northgate Referencing Ltd\nRE: Applicant Mr Daniel Pryce (DOB withheld)\nPrevious address: 22 Station "
        "Road, Stoke Hallet HG4 2PL\nMonthly rent paid: £875 pcm, tenancy from 3rd Mar 2024\n\nPlease confirm "
        "whether rent was paid on time and whether you would let to the applicant again.\nReply to "
        "refs@northgate.example quoting NGR/55120.\n"
    )
    out.append(d)
    d = Doc(t, "misc/council-hmo-licences.html", "hmo-register", "Council HMO licences", distractor=True)
    d.raw('<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>HMO licences</title></head><body>\n<h1>')
    d.w("Marbury District Council — licensed HMOs (extract)").raw('</h1>\n<table border="1">\n')
    d.raw("<tr><th>Address</th><th>Licence holder</th><th>Max occupiers</th><th>Expires</th></tr>\n")
    for row in (
        ("Flat 2, 19 Mill Street, Marbury", "Mr D. Hartly", "5", "31/03/2028"),
        ("41 Orchard Crescent, Little Marbury", "Mrs P. Okafor-Reid", "6", "30/09/2027"),
        ("9 Mill Lane, Marbury", "Kettleby Estates Ltd", "7", "14/02/2029"),
    ):
        d.raw("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>\n")
    d.raw("</table>\n</body></html>\n")
    out.append(d)
    d = Doc(t, "misc/deposit-schemes-explained.md", "explainer", "Deposit schemes explained", distractor=True)
    d.w(
        "# Tenancy deposits in England: the three schemes\n\nA landlord must protect a deposit within 30 days "
        "in one of: the Deposit Protection Service (DPS, custodial), mydeposits, or the Tenancy Deposit Scheme "
        "(TDS). Example: rent of £1,275 pcm allows a deposit of at most five weeks' rent, £1,471.\n\nThe cap is "
        "six weeks' rent where annual rent is £50,000 or more.\n"
    )
    out.append(d)
    d = Doc(t, "misc/hartley-plumbing-and-heating-flyer.txt", "flyer", "Plumbing flyer", distractor=True)
    d.w(
        "HARTLEY PLUMBING & HEATING LTD (Lincoln)\nBoilers · bathrooms · landlord gas certificates\n"
        "Gas Safe 541208 · call Dean on 07700 900312\nNo call-out charge within 10 miles of Lincoln.\n"
    )
    out.append(d)
    d = Doc(t, "misc/cossington-magna-planning-notice.txt", "planning-notice", "Planning notice", distractor=True)
    d.w(
        "COSSINGTON MAGNA PARISH COUNCIL — PLANNING\nApplication 26/0412/FUL\nLand adj. 86 Wharf Street, "
        "Cossington Magna CN5 9AR\nApplicant: Mr R. Mistri\nProposal: two 2-bedroom semi-detached houses\n"
        "Comments by 14th Oct 2026 to the clerk.\n"
    )
    out.append(d)
    return out


# ------------------------------------------------------------------------------------------------
# assembling
# ------------------------------------------------------------------------------------------------

PKS = {
    "branches": ["branch_code"],
    "landlords": ["landlord_id"],
    "properties": ["property_ref"],
    "tenants": ["tenant_id"],
    "tenancies": ["tenancy_ref"],
    "tenancy_tenants": ["tenancy_ref", "tenant_id"],
    "rent_payments": ["tenancy_ref", "due_month"],
    "contractors": ["contractor_id"],
    "repairs": ["job_no"],
}
OWN = {
    "branches": ("name",),
    "landlords": ("first_name", "last_name"),
    "properties": ("address",),
    "tenants": ("first_name", "last_name"),
    "contractors": ("name",),
}


def all_fact_keys(db):
    """Every database fact other than a row's own name: each column of each row, and each composite row's existence."""
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    keys = []
    for tname, pks in PKS.items():
        for r in con.execute(f"SELECT * FROM {tname} ORDER BY rowid"):
            k = "|".join(str(r[p]) for p in pks)
            keys += [f"{tname}.{c}@{k}" for c in r.keys() if c not in pks and c not in OWN.get(tname, ())]
            if len(pks) > 1:
                keys.append(f"{tname}.{pks[-1]}@{k}")
    con.close()
    return keys


def cp1252_ok(b, ref):
    try:
        " ".join(b.tname(tid) for tid, _ in b.on[ref]).encode("cp1252")
        return True
    except UnicodeEncodeError:
        return False


def write_documents(t, b, rnd):
    docs = doc_branches(t, b) + doc_no_fact(t) + doc_landlord_register(t, b) + doc_property_registers(t, b)
    live = [r for r, ty in b.tenancies.items() if ty["status"] != "ended"]
    split_refs = live[2::6][:6]
    docs += doc_tenancy_summaries(t, b, split_refs) + doc_checkouts(t, b) + doc_deposit_split(t, b, split_refs)
    rest = [r for r in live if r not in split_refs]
    rnd.shuffle(rest)
    pdfs = [r for r in rest if cp1252_ok(b, r)][:3]
    for ref in pdfs + [r for r in rest if r not in pdfs][:13]:
        docs.append(doc_schedule(t, b, ref, "pdf" if ref in pdfs else "txt"))
    docs += doc_rent_rolls(t, b) + doc_chats(t, b)
    statemented = [lid for lid, ll in b.landlords.items() if ll["service_level"] != "Let only"]
    for i, lid in enumerate(statemented):
        docs.append(doc_landlord_statement(t, b, lid, "pdf" if i == 4 else "txt"))
    let = [p for p in b.props if p in b.current]
    for pref in b.vacant + sorted(rnd.sample(let, 12)):
        docs.append(doc_listing(t, b, rnd, pref))
    for pref in sorted(rnd.sample(let, 10)):
        docs.append(doc_inspection(t, b, rnd, pref, rnd.randint(1, 28)))
    docs += doc_repairs_logs(t, b) + doc_contractor_list(t, b)
    assigned = [job for job, j in b.repairs.items() if j["contractor_id"]]
    for job in sorted(rnd.sample(assigned, 8)):
        docs.append(doc_works_order(t, b, job))
    for n, job in enumerate(sorted(rnd.sample(assigned, 3))):
        docs.append(doc_contractor_mail(t, b, job, n))
    notice = [r for r in live if b.tenancies[r]["status"] == "notice given"]
    for i, monday in enumerate(["2026-08-17", "2026-08-24", "2026-08-31", "2026-09-07", "2026-09-14", "2026-09-21"]):
        docs.append(doc_notes(t, b, monday, notice[i::6]))
    docs += doc_distractors(t)
    return docs


def _doc_entry(d, data):
    tables = sorted({f["fact_key"].split(".", 1)[0] for f in d.facts})
    return {
        "kind": d.kind,
        "format": d.fmt,
        "title": d.title,
        "size": len(data),
        "statements": len(d.facts),
        "exact_statements": sum(f["exact"] for f in d.facts),
        "distinct_facts": len({f["fact_key"] for f in d.facts}),
        "tables": tables,
        "distractor": d.distractor,
        "states_no_db_fact": d.no_fact,
    }


def build(db, out):
    import shutil

    b = Book(db)
    rnd = random.Random(SEED)
    om = omissions(b)
    t = Truth({k for _, keys in om.values() for k in keys})
    docs = write_documents(t, b, rnd)
    root = os.path.join(out, "docs")
    if os.path.isdir(root):
        shutil.rmtree(root)
    stems = set()
    for d in sorted(docs, key=lambda d: d.id):
        stem = d.id.rsplit(".", 1)[0]
        assert stem not in stems, d.id
        stems.add(stem)
        path = os.path.join(root, d.id)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        data = pdf_bytes(d.text(), d.title) if d.fmt == "pdf" else d.text().encode("utf-8")
        with open(path, "wb") as fh:
            fh.write(data)
        t.documents[d.id] = _doc_entry(d, data)
        t.facts += d.facts
    stated = {f["fact_key"] for f in t.facts}
    exact = {f["fact_key"] for f in t.facts if f["exact"]}
    left = [k for k in all_fact_keys(db) if k not in stated and k not in t.omitted_keys]
    assert not left, left[:10]
    truth = {
        "database": os.path.basename(db),
        "facts": t.facts,
        "split_facts": t.split_facts,
        "distractor_doc_ids": sorted(t.distractors),
        "no_fact_doc_ids": sorted(t.no_fact),
        "omitted": {g: {"rule": rule, "fact_keys": keys} for g, (rule, keys) in om.items()},
        "documents": t.documents,
        "stats": {
            "documents": len(t.documents),
            "statements": len(t.facts),
            "distinct_facts": len(stated),
            "exact_facts": len(exact),
            "approximate_only_facts": len(stated - exact),
            "split_facts": len(t.split_facts),
            "omitted_facts": len(t.omitted_keys),
            "by_format": dict(sorted(Counter(d["format"] for d in t.documents.values()).items())),
            "by_kind": dict(sorted(Counter(d["kind"] for d in t.documents.values()).items())),
            "by_how": dict(Counter(f["how"] for f in t.facts).most_common()),
            "by_form": dict(Counter(f["form"] for f in t.facts).most_common()),
        },
    }
    with open(os.path.join(out, "truth.json"), "w", encoding="utf-8") as fh:
        json.dump(truth, fh, ensure_ascii=False, indent=1)
        fh.write("\n")
    return truth


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default=os.path.join(HERE, "pellow.sqlite"))
    ap.add_argument("--out", default=HERE)
    a = ap.parse_args(argv)
    s = build(a.db, a.out)["stats"]
    print(
        f"{s['documents']} documents, {s['statements']} statements of {s['distinct_facts']} facts "
        f"({s['exact_facts']} exact), {s['split_facts']} split, {s['omitted_facts']} omitted"
    )


if __name__ == "__main__":
    main()
