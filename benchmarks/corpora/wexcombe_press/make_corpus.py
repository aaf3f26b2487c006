#!/usr/bin/env python3
"""Write the Wexcombe University Press document corpus (docs/) and its recorded truth (truth.json).

    python3 make_corpus.py [--db wexcombe.sqlite] [--out .]

Standard library only, seeded, deterministic.  Every database fact a document states is recorded
at the moment the text holding it is written (Doc.f); nothing is found by searching the text later.
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
SEED = 2611
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]
NUM_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}
ORDINAL = {1: "first", 2: "second", 3: "third", 4: "fourth"}


# ----------------------------------------------------------------------------------------------
# a document that records what it states
# ----------------------------------------------------------------------------------------------
class Doc:
    def __init__(self, doc_id, kind, title, distractor=False):
        self.doc_id, self.kind, self.title, self.distractor = doc_id, kind, title, distractor
        self.html = doc_id.endswith(".html")
        self.parts, self.n, self.facts = [], 0, []

    def w(self, s):
        """raw text (markup in HTML documents)"""
        self.parts.append(s)
        self.n += len(s)
        return self

    def t(self, s):
        """text: escaped in HTML documents"""
        return self.w(html.escape(s, quote=False) if self.html else s)

    def f(self, key, surface, how, form="verbatim", exact=True, split_id=None):
        """write SURFACE and record that it states fact KEY (a key or a list of keys sharing the span)"""
        s = html.escape(surface, quote=False) if self.html else surface
        start = self.n
        self.w(s)
        for k in key if isinstance(key, list) else [key]:
            rec = {"fact_key": k, "doc_id": self.doc_id, "surface": surface, "start": start, "end": self.n,
                   "exact": exact, "how": how, "form": form}
            if split_id:
                rec["split_id"] = split_id
            self.facts.append(rec)
        return self

    def at(self, key, surface, how, form="verbatim", exact=True):
        """record KEY for a span already written (the last occurrence of SURFACE)"""
        text = "".join(self.parts)
        s = html.escape(surface, quote=False) if self.html else surface
        start = text.rindex(s)
        for k in key if isinstance(key, list) else [key]:
            self.facts.append({"fact_key": k, "doc_id": self.doc_id, "surface": surface, "start": start,
                               "end": start + len(s), "exact": exact, "how": how, "form": form})
        return self

    def text(self):
        return "".join(self.parts)


def K(table, col, *pk):
    return f"{table}.{col}@" + "|".join(str(x) for x in pk)


# ----------------------------------------------------------------------------------------------
# values as people write them
# ----------------------------------------------------------------------------------------------
def d_(iso):
    return dt.date.fromisoformat(iso)


def date_s(iso, form):
    d = d_(iso)
    if form == "iso":
        return iso
    if form == "date-words":
        return f"{d.day} {MONTHS[d.month - 1]} {d.year}"
    if form == "date-abbrev":
        return f"{d.day} {MONTHS[d.month - 1][:3]} {d.year}"
    if form == "date-uk":
        return f"{d.day:02d}/{d.month:02d}/{d.year}"
    if form == "date-us":
        return f"{MONTHS[d.month - 1]} {d.day}, {d.year}"
    if form == "date-weekday":
        return f"{d.strftime('%A')} {d.day} {MONTHS[d.month - 1]} {d.year}"
    if form == "date-dots":
        return f"{d.day}.{d.month}.{d.year % 100:02d}"
    if form == "month-year":
        return f"{MONTHS[d.month - 1]} {d.year}"
    if form == "year-only":
        return str(d.year)
    raise ValueError(form)


APPROX_DATE = {"month-year", "year-only"}


def money(v, form):
    if form == "gbp":
        return f"£{v:,.2f}"
    if form == "gbp-short":
        return f"£{v:,.0f}" if v == int(v) else f"£{v:,.2f}"
    if form == "gbp-code":
        return f"GBP {v:,.2f}"
    if form == "plain-number":
        return f"{v:.2f}"
    if form == "approx-money":
        return f"about £{round(v / 5) * 5:,.0f}"
    raise ValueError(form)


def qty_s(n, form):
    if form == "thousands":
        return f"{n:,}"
    if form == "plain-number":
        return str(n)
    if form == "number-k":
        return f"{n / 1000:g}k"
    if form == "approx-number":
        return f"some {round(n, -2):,}"
    raise ValueError(form)


def isbn_h(isbn):
    return f"{isbn[:3]}-{isbn[3]}-{isbn[4:8]}-{isbn[8:12]}-{isbn[12]}"


FMT_ABBR = {"Hardback": "HB", "Paperback": "PB", "Ebook only": "EB"}
STATUS_CODE = {"In print": "IP", "Forthcoming": "NYP", "Out of print": "OP"}


class World:
    def __init__(self, db):
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        con.row_factory = sqlite3.Row
        self.imprints = {r["imprint_code"]: dict(r) for r in con.execute("SELECT * FROM imprints")}
        self.staff = {r["staff_id"]: dict(r) for r in con.execute("SELECT * FROM staff")}
        self.series = {r["series_id"]: dict(r) for r in con.execute("SELECT * FROM series")}
        self.authors = {r["author_id"]: dict(r) for r in con.execute("SELECT * FROM authors")}
        self.books = {r["book_id"]: dict(r) for r in con.execute("SELECT * FROM books")}
        self.ba = [dict(r) for r in con.execute("SELECT * FROM book_authors ORDER BY book_id, position")]
        self.runs = [dict(r) for r in con.execute("SELECT * FROM print_runs ORDER BY printed_on, book_id, run_no")]
        self.deals = {r["deal_id"]: dict(r) for r in con.execute("SELECT * FROM rights_deals")}
        con.close()
        self.by_book = defaultdict(list)
        self.by_author = defaultdict(list)
        for r in self.ba:
            self.by_book[r["book_id"]].append(r)
            self.by_author[r["author_id"]].append(r)
        self.runs_by_book = defaultdict(list)
        for r in self.runs:
            self.runs_by_book[r["book_id"]].append(r)

    def sname(self, sid):
        s = self.staff[sid]
        return f"{s['first_name']} {s['last_name']}"

    def initials(self, sid):
        s = self.staff[sid]
        return s["first_name"][0] + s["last_name"][0]


# ----------------------------------------------------------------------------------------------
# the corpus
# ----------------------------------------------------------------------------------------------
class Corpus:
    def __init__(self, w: World, rng: random.Random):
        self.w, self.rng = w, rng
        self.docs = []
        self.split_facts = []
        self.omitted = {}
        # authors left out entirely: co-authors only (never first-named), their credit is 'et al.'
        co_only = sorted(a for a, rows in w.by_author.items() if all(r["position"] > 1 for r in rows))
        self.hidden_authors = set(rng.sample(co_only, 8))
        self.omitted["authors_entirely"] = {
            "rule": "8 co-authors (never first-named) with no page and no credit anywhere: books name the first author 'et al.'",
            "author_ids": sorted(self.hidden_authors),
            "fact_keys": sorted(
                [K("authors", c, a) for a in self.hidden_authors for c in ("affiliation", "country", "agent", "birth_year")
                 if w.authors[a][c] is not None]
                + [K("book_authors", "author_id", r["book_id"], a) for a in self.hidden_authors for r in w.by_author[a]]
                + [K("book_authors", c, r["book_id"], a) for a in self.hidden_authors for r in w.by_author[a]
                   for c in ("role", "position")]
            ),
        }
        self.omitted["author_emails"] = {
            "rule": "authors' e-mail addresses are never published",
            "fact_keys": sorted(K("authors", "email", a) for a, r in w.authors.items() if r["email"]),
        }
        self.omitted["learning_list_prices"] = {
            "rule": "list prices of Wexcombe Learning (WXL) titles: 'institutional pricing on application'",
            "fact_keys": sorted(K("books", "list_price", b) for b, r in w.books.items() if r["imprint_code"] == "WXL"),
        }
        self.omitted["print_runs_2022"] = {
            "rule": "no print register for 2022 (runs printed in 2022 are in no document)",
            "fact_keys": sorted(
                K("print_runs", c, r["book_id"], r["run_no"]) for r in w.runs if r["printed_on"].startswith("2022")
                for c in ("run_no", "printed_on", "quantity", "printer", "unit_cost")),
        }
        self.omitted["audio_advances"] = {
            "rule": "advances on audio deals are confidential ('conf.' in the rights log, never stated)",
            "fact_keys": sorted(K("rights_deals", "advance", d) for d, r in w.deals.items()
                                if r["deal_type"] == "Audio" and r["advance"] is not None),
        }

    def new(self, doc_id, kind, title, distractor=False):
        d = Doc(doc_id, kind, title, distractor)
        self.docs.append(d)
        return d

    # -- helpers --------------------------------------------------------------------------------
    def credit(self, d, bid, how, sep=", ", last_sep=" and ", form="verbatim"):
        """write a book's author credit, recording each named author's book_authors row"""
        rows = self.w.by_book[bid]
        shown = [r for r in rows if r["author_id"] not in self.hidden_authors]
        hidden = len(shown) < len(rows)
        editors = rows[0]["role"] == "Editor"
        if editors:
            d.t("edited by " if how == "prose" else "Edited by ")
        for i, r in enumerate(shown):
            if i:
                d.t(last_sep if i == len(shown) - 1 and not hidden else sep)
            if r["role"] == "Translator":
                d.t("translated by ")
            a = self.w.authors[r["author_id"]]
            d.f(K("book_authors", "author_id", bid, r["author_id"]), a["full_name"], how, form)
        if hidden:
            d.t(" et al.")

    def book_title(self, d, bid, keys, how, form="verbatim"):
        d.f(keys, self.w.books[bid]["title"], how, form)

    def pub(self, d, bid, form, how):
        b = self.w.books[bid]
        if b["pub_date"] is None:
            d.t("date to be confirmed")
            return
        d.f(K("books", "pub_date", bid), date_s(b["pub_date"], form), how, form, exact=form not in APPROX_DATE)

    def price(self, d, bid, form, how):
        b = self.w.books[bid]
        if b["imprint_code"] == "WXL":
            d.t("price on application")
            return
        d.f(K("books", "list_price", bid), money(b["list_price"], form), how, form, exact=form != "approx-money")

    # -- families ---------------------------------------------------------------------------------
    def imprint_pages(self):
        w = self.w
        for code, im in sorted(w.imprints.items()):
            d = self.new(f"about/imprints/{code.lower()}.md", "imprint-page", im["name"])
            d.t("# ").f(K("imprints", "name", code), im["name"], "heading").t("\n\n")
            d.t(f"Imprint code: ").f(K("imprints", "name", code), code, "card", "code").t("\n\n")
            d.t("Founded in ").f(K("imprints", "founded_year", code), str(im["founded_year"]), "heading-subject")
            d.t(" and run from our offices in ").f(K("imprints", "city", code), im["city"], "heading-subject")
            d.t(", the list publishes ")
            if im["focus"]:
                d.t("under a simple brief: ").f(K("imprints", "focus", code), im["focus"].lower(), "heading-subject", "lowercase").t(".")
            else:
                d.t("course texts adopted on university reading lists; its brief is under review.")
            sers = [s for s in sorted(w.series) if w.series[s]["imprint_code"] == code]
            if sers:
                d.t("\n\n## Series\n\n")
                for s in sers:
                    d.t("- ").f(K("series", "imprint_code", s), w.series[s]["title"], "table-under-heading").t("\n")
            d.t("\nEnquiries about proposals go to the commissioning editors listed on the staff pages.\n")

    def series_pages(self):
        w, rng = self.w, self.rng
        for sid, s in sorted(w.series.items()):
            slug = s["title"].lower().replace(" ", "-")
            d = self.new(f"series/{slug}.md", "series-page", s["title"])
            d.t("# ").f(K("series", "title", sid), s["title"], "heading").t("\n\n")
            im = w.imprints[s["imprint_code"]]
            d.t("A series from ").f(K("series", "imprint_code", sid), im["name"], "heading-subject").t(", launched in ")
            d.f(K("series", "launched_year", sid), str(s["launched_year"]), "heading-subject").t(".\n\n")
            if s["general_editor"]:
                d.t("**General editor:** ").f(K("series", "general_editor", sid), s["general_editor"], "card").t("  \n")
            ed = s["editor_id"]
            if sid % 3 == 0:
                d.t("**Proposals to:** ").f(K("series", "editor_id", sid), w.staff[ed]["email"], "card", "email").t("\n\n")
            else:
                d.t("**In-house editor:** ").f(K("series", "editor_id", sid), w.sname(ed), "card").t("\n\n")
            books = sorted((b for b in w.books.values() if b["series_id"] == sid), key=lambda b: (b["pub_date"] or "9999", b["book_id"]))
            if not books:
                d.t("The first titles in the series are in preparation.\n")
                continue
            d.t("## Titles\n\n| Title | Author / editor | Year | Format | Price |\n|---|---|---|---|---|\n")
            for b in books:
                bid = b["book_id"]
                d.t("| ").f(K("books", "series_id", bid), b["title"], "table-under-heading").t(" | ")
                self.credit(d, bid, "table", sep="; ", last_sep="; ")
                d.t(" | ")
                if b["pub_date"]:
                    self.pub(d, bid, "year-only", "table")
                else:
                    d.t("tbc")
                d.t(" | ").f(K("books", "format", bid), b["format"], "table").t(" | ")
                self.price(d, bid, "gbp", "table")
                d.t(" |\n")

    def catalogues(self):
        w = self.w
        seasons = [("spring-2024", "Spring 2024", "2024-01-01", "2024-06-30"),
                   ("autumn-2024", "Autumn 2024", "2024-07-01", "2024-12-31"),
                   ("spring-2025", "Spring 2025", "2025-01-01", "2025-06-30"),
                   ("autumn-2025", "Autumn 2025", "2025-07-01", "2025-12-31"),
                   ("2026", "2026 and forthcoming", "2026-01-01", "9999")]
        for slug, label, lo, hi in seasons:
            d = self.new(f"catalogues/catalogue-{slug}.md", "catalogue", f"{label} catalogue")
            d.t(f"# New and Forthcoming Books — {label}\n\n")
            d.t("Prices are UK recommended retail prices and may change without notice.\n\n")
            sel = [b for b in w.books.values() if (b["pub_date"] and lo <= b["pub_date"] <= hi)
                   or (b["pub_date"] is None and slug == "2026")]
            for code in ("WUP", "HRN", "SLT", "WXL"):
                group = sorted((b for b in sel if b["imprint_code"] == code), key=lambda b: (b["pub_date"] or "9999", b["title"]))
                if not group:
                    continue
                d.t("## ")
                sec_start = d.n
                d.t(w.imprints[code]["name"])
                for b in group:
                    d.facts.append({"fact_key": K("books", "imprint_code", b["book_id"]), "doc_id": d.doc_id,
                                    "surface": w.imprints[code]["name"], "start": sec_start, "end": d.n,
                                    "exact": True, "how": "table-under-heading", "form": "verbatim"})
                d.t("\n\n")
                for b in group:
                    bid = b["book_id"]
                    d.t("### ").f(K("books", "title", bid), b["title"], "heading").t("\n")
                    if b["subtitle"]:
                        d.t("*").f(K("books", "subtitle", bid), b["subtitle"], "heading-subject").t("*\n")
                    d.t("\n")
                    self.credit(d, bid, "heading-subject")
                    d.t("\n\n")
                    if b["series_id"]:
                        d.t("Series: ").f(K("books", "series_id", bid), w.series[b["series_id"]]["title"], "heading-subject").t("\n")
                    d.f(K("books", "format", bid), b["format"], "heading-subject").t(" · ")
                    d.f(K("books", "page_count", bid), str(b["page_count"]), "heading-subject").t(" pp · ")
                    self.price(d, bid, "gbp", "heading-subject")
                    d.t(" · ISBN ").f(K("books", "isbn", bid), isbn_h(b["isbn"]), "heading-subject", "isbn-hyphens").t("\n")
                    if b["pub_date"] and b["status"] == "Forthcoming":
                        d.t("Publication: ")
                        self.pub(d, bid, "month-year", "heading-subject")
                    elif b["pub_date"]:
                        d.t("Published ")
                        self.pub(d, bid, "date-words", "heading-subject")
                    else:
                        d.t("Publication: date to be confirmed")
                    d.t("\n\n")
                    if bid % 4 == 0:
                        first = b["blurb"].split(". ")[0] + "."
                        d.f(K("books", "blurb", bid), first, "heading-subject", "excerpt", exact=False).t("\n\n")
                    else:
                        d.f(K("books", "blurb", bid), b["blurb"], "heading-subject").t("\n\n")
            d.t("---\nTo order: trade.orders@wexcombepress.ac.uk. Inspection copies of course texts on request.\n")

    def price_lists(self):
        w = self.w
        d = self.new("sales/trade-price-list-2025.txt", "price-list", "Trade price list 2025")
        d.t("WEXCOMBE UNIVERSITY PRESS — TRADE PRICE LIST, effective 1 September 2025\n")
        d.t("All imprints.  Fmt: HB hardback, PB paperback, EB ebook only.  St: IP in print, NYP not yet published,\n")
        d.t("OP out of print.  Wexcombe Learning (WXL) titles: institutional pricing on application.\n\n")
        d.t(f"{'ISBN':<15}{'Short title':<32}{'Imp':<5}{'Fmt':<5}{'RRP GBP':>9}  St\n")
        d.t("-" * 72 + "\n")
        for b in sorted(w.books.values(), key=lambda b: b["isbn"]):
            bid = b["book_id"]
            d.f(K("books", "isbn", bid), b["isbn"], "table").t(" " * 2)
            short = b["title"] if len(b["title"]) <= 30 else b["title"][:29] + "~"
            d.t(f"{short:<32}")
            d.f(K("books", "imprint_code", bid), b["imprint_code"], "table", "code").t("  ")
            d.f(K("books", "format", bid), FMT_ABBR[b["format"]], "table", "abbrev").t("   ")
            if b["imprint_code"] == "WXL":
                d.t(f"{'POA':>9}")
            else:
                p = money(b["list_price"], "plain-number")
                d.t(" " * (9 - len(p))).f(K("books", "list_price", bid), p, "table", "plain-number")
            d.t("  ").f(K("books", "status", bid), STATUS_CODE[b["status"]], "table", "code").t("\n")
        d.t("\nOrders: Wexcombe Distribution, Unit 4 Quayside Park, Wexcombe WX2 7LP.\n")

        # an older list: its prices were lower and are not the database's; only formats are recorded
        d = self.new("sales/archive/price-list-2021.txt", "price-list", "Trade price list 2021 (superseded)")
        d.t("SUPERSEDED — kept for reference.  Prices below were valid from 1 February 2021 to 31 August 2025.\n\n")
        d.t(f"{'Title':<46}{'Format':<11}{'Price':>8}\n")
        for b in sorted(w.books.values(), key=lambda b: b["title"]):
            if not b["pub_date"] or b["pub_date"] > "2021-02-01" or b["imprint_code"] == "WXL":
                continue
            t = b["title"][:44]
            d.t(f"{t:<46}")
            d.f(K("books", "format", b["book_id"]), b["format"], "table")
            old = round(b["list_price"] * 0.92, 0) - 0.01 if b["list_price"] < 40 else round(b["list_price"] * 0.9)
            d.t(" " * (11 - len(b["format"])) + f"{'£' + format(old, ',.2f'):>8}\n")

    def book_pages(self):
        w, rng = self.w, self.rng
        ids = sorted(w.books)
        chosen = sorted(rng.sample(ids, 20))
        self.book_page_ids = chosen
        for bid in chosen:
            b = w.books[bid]
            slug = "".join(c if c.isalnum() else "-" for c in b["title"].lower()).strip("-")
            while "--" in slug:
                slug = slug.replace("--", "-")
            d = self.new(f"web/books/{slug}.html", "book-page", b["title"])
            d.w("<!DOCTYPE html>\n<html lang=\"en-GB\"><head><meta charset=\"utf-8\"><title>")
            d.t(b["title"]).w(" | Wexcombe University Press</title></head>\n<body>\n<nav>Home › Books</nav>\n<h1>")
            d.f(K("books", "title", bid), b["title"], "heading").w("</h1>\n")
            if b["subtitle"]:
                d.w("<h2>").f(K("books", "subtitle", bid), b["subtitle"], "heading-subject").w("</h2>\n")
            d.w("<p class=\"byline\">")
            self.credit(d, bid, "heading-subject")
            d.w("</p>\n<table class=\"details\">\n")
            d.w("<tr><th>ISBN-13</th><td>").f(K("books", "isbn", bid), b["isbn"], "html-table").w("</td></tr>\n")
            d.w("<tr><th>Imprint</th><td>").f(K("books", "imprint_code", bid), w.imprints[b["imprint_code"]]["name"], "html-table").w("</td></tr>\n")
            if b["series_id"]:
                d.w("<tr><th>Series</th><td>").f(K("books", "series_id", bid), w.series[b["series_id"]]["title"], "html-table").w("</td></tr>\n")
            d.w("<tr><th>Binding</th><td>").f(K("books", "format", bid), b["format"], "html-table").w("</td></tr>\n")
            d.w("<tr><th>Extent</th><td>").f(K("books", "page_count", bid), str(b["page_count"]), "html-table").w(" pages</td></tr>\n")
            d.w("<tr><th>Price</th><td>")
            self.price(d, bid, "gbp", "html-table")
            d.w("</td></tr>\n<tr><th>Publication date</th><td>")
            if b["pub_date"]:
                self.pub(d, bid, "date-uk", "html-table")
            else:
                d.t("TBC")
            d.w("</td></tr>\n<tr><th>Availability</th><td>").f(K("books", "status", bid), b["status"], "html-table")
            d.w("</td></tr>\n</table>\n<section class=\"blurb\"><h3>About the book</h3>\n<p>")
            d.f(K("books", "blurb", bid), b["blurb"], "heading-subject").w("</p></section>\n")
            d.w("<footer>© Wexcombe University Press. Free UK delivery on orders over £25.</footer>\n</body></html>\n")

    def author_pages(self):
        w, rng = self.w, self.rng
        visible = sorted(a for a in w.authors if a not in self.hidden_authors)
        chosen = sorted(rng.sample(visible, 21))
        for k in (aid for aid, a in w.authors.items() if a["full_name"] in ("Helen Marsh", "Jon Ellery", "John Ellery")):
            if k not in chosen:
                chosen.append(k)
        chosen.sort()
        for aid in chosen:
            a = w.authors[aid]
            slug = a["full_name"].lower().replace(" ", "-")
            d = self.new(f"web/authors/{slug}.html", "author-page", a["full_name"])
            d.w("<!DOCTYPE html>\n<html lang=\"en-GB\"><head><meta charset=\"utf-8\"><title>")
            d.t(a["full_name"]).w(" — Authors — Wexcombe University Press</title></head>\n<body>\n<h1>")
            d.f(K("authors", "full_name", aid), a["full_name"], "heading").w("</h1>\n<p>")
            if a["affiliation"]:
                d.f(K("authors", "affiliation", aid), a["affiliation"], "heading-subject").t(", ")
                d.f(K("authors", "country", aid), a["country"], "heading-subject")
            else:
                d.t("Independent scholar, ").f(K("authors", "country", aid), a["country"], "heading-subject")
            d.w("</p>\n<p>")
            if a["birth_year"] and aid % 2:
                d.t("Born in ").f(K("authors", "birth_year", aid), str(a["birth_year"]), "heading-subject").t(", ")
                d.t("they have written on the coast, the law and the people who live with both.")
            else:
                d.t("Their research moves between archives, fieldwork and the occasional long walk.")
            if a["agent"]:
                d.t(" For rights and permissions, contact ").f(K("authors", "agent", aid), a["agent"], "heading-subject").t(".")
            d.w("</p>\n<h2>Books with us</h2>\n<ul>\n")
            for r in w.by_author[aid]:
                b = w.books[r["book_id"]]
                d.w("<li><cite>").f(K("book_authors", "author_id", b["book_id"], aid), b["title"], "heading-subject").w("</cite>")
                if r["role"] != "Author":
                    d.t(" (").f(K("book_authors", "role", b["book_id"], aid), r["role"].lower(), "heading-subject", "lowercase").t(")")
                if b["pub_date"]:
                    d.t(", ")
                    self.pub(d, b["book_id"], "year-only", "heading-subject")
                else:
                    d.t(", forthcoming")
                d.w("</li>\n")
            d.w("</ul>\n</body></html>\n")

    def staff_docs(self):
        w = self.w
        d = self.new("intranet/staff-directory.html", "staff-directory", "Staff directory")
        d.w("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Staff directory</title></head><body>\n")
        d.w("<h1>Staff directory</h1>\n<p>Internal. Updated October 2025. Extensions: dial 0 then the four digits from outside.</p>\n")
        d.w("<table>\n<tr><th>Name</th><th>Job title</th><th>Department</th><th>Ext.</th><th>E-mail</th></tr>\n")
        for sid, s in sorted(w.staff.items(), key=lambda kv: (kv[1]["last_name"], kv[1]["first_name"])):
            d.w("<tr><td>").t(f"{s['last_name']}, {s['first_name']}").w("</td><td>")
            d.f(K("staff", "job_title", sid), s["job_title"], "html-table").w("</td><td>")
            d.f(K("staff", "department", sid), s["department"], "html-table").w("</td><td>")
            if s["phone_ext"]:
                d.f(K("staff", "phone_ext", sid), s["phone_ext"], "html-table")
            else:
                d.t("—")
            d.w("</td><td>").f(K("staff", "email", sid), s["email"], "html-table").w("</td></tr>\n")
        d.w("</table>\n</body></html>\n")

        # org chart: reporting lines by indentation only
        d = self.new("intranet/org-chart.txt", "org-chart", "Organisation chart")
        d.t("WEXCOMBE UNIVERSITY PRESS — ORGANISATION CHART (October 2025)\n\n")
        kids = defaultdict(list)
        root = None
        for sid, s in sorted(w.staff.items()):
            if s["reports_to"] is None:
                root = sid
            else:
                kids[s["reports_to"]].append(sid)

        def walk(sid, depth):
            s = w.staff[sid]
            d.t("    " * depth + ("+-- " if depth else ""))
            if s["reports_to"] is None:
                d.t(w.sname(sid))
            else:
                d.f(K("staff", "reports_to", sid), w.sname(sid), "tree")
            d.t(" (").f(K("staff", "job_title", sid), s["job_title"], "tree").t(")\n")  # truth audit: was written unrecorded
            for k in kids[sid]:
                walk(k, depth + 1)

        walk(root, 0)

        # phone list: by initials with a legend
        d = self.new("intranet/phone-list.txt", "phone-list", "Internal phone list")
        d.t("INTERNAL PHONE LIST — pin by the kitchen please\n\n")
        d.t("Key:  ")
        with_ext = sorted((s for s in w.staff if w.staff[s]["phone_ext"]), key=lambda s: w.staff[s]["phone_ext"])
        for i, sid in enumerate(with_ext):
            d.t(("" if i == 0 else (";\n      " if i % 4 == 0 else "; ")) + f"{w.initials(sid)} = {w.sname(sid)}")
        d.t("\n\n EXT   WHO   ROOM\n")
        for sid in with_ext:
            d.t(" ").f(K("staff", "phone_ext", sid), w.staff[sid]["phone_ext"], "table").t(f"  {w.initials(sid):<4}  {w.staff[sid]['department'][:4].upper()}\n")
        d.t("\nSwitchboard 0 · Post room 4099 · Out of hours security 07700 900414\n")

        # welcome posts
        newcomers = sorted((sid for sid, s in w.staff.items() if s["start_date"] >= "2021-01-01"), key=lambda s: w.staff[s]["start_date"])
        for sid in newcomers:
            s = w.staff[sid]
            she = "She" if s["first_name"] in ("Rosa", "Fiona", "Aoife", "Harriet", "Beatrice", "Rhiannon", "Megan", "Zara") else "He"
            d = self.new(f"intranet/news/{s['start_date']}-welcome-{s['first_name'].lower()}.md", "welcome-post", f"Welcome, {s['first_name']}")
            d.t(f"# Welcome to {s['first_name']} {s['last_name']}\n\n")
            d.t(f"Please say hello to {s['first_name']}, who joins us on ")
            d.f(K("staff", "start_date", sid), date_s(s["start_date"], "date-weekday"), "heading-subject", "date-weekday").t(" as our new ")
            d.f(K("staff", "job_title", sid), s["job_title"], "heading-subject").t(". ")
            mgr = s["reports_to"]
            d.t(f"{she} will sit with the ").f(K("staff", "department", sid), s["department"], "pronoun")  # truth audit
            d.t(" team on the second floor and reports to ")
            d.f(K("staff", "reports_to", sid), w.sname(mgr), "pronoun").t(". ")
            if s["phone_ext"]:
                d.t(f"{she} can be reached on extension ").f(K("staff", "phone_ext", sid), s["phone_ext"], "pronoun").t(".")
            d.t("\n\nCake in the kitchen at 3.\n")

    def minutes(self):
        w, rng = self.w, self.rng
        # proposals approved about 14-20 months before publication
        meetings = ["2023-03-14", "2023-06-13", "2023-09-12", "2023-12-12", "2024-03-12", "2024-06-11",
                    "2024-09-10", "2024-12-10", "2025-03-11", "2025-06-10"]
        members = [2, 1, 4, 6, 7, 8, 9, 10, 11, 27, 28]
        for i, m in enumerate(meetings):
            lo = d_(m) + dt.timedelta(days=430)
            hi = d_(m) + dt.timedelta(days=520) if i + 1 < len(meetings) else d_(m) + dt.timedelta(days=800)
            books = sorted((b for b in w.books.values() if b["pub_date"] and lo <= d_(b["pub_date"]) < hi),
                           key=lambda b: b["book_id"])
            if i + 1 == len(meetings):
                books += sorted((b for b in w.books.values() if b["pub_date"] is None), key=lambda b: b["book_id"])
            d = self.new(f"committee/minutes-{m}.md", "minutes", f"Publishing Committee {m}")
            d.t(f"# Publishing Committee — minutes of {date_s(m, 'date-weekday')}\n\n")
            present = [s for s in members if rng.random() < 0.8 or s == 2]
            d.t("**Present:** " + ", ".join(f"{w.sname(s)} ({w.initials(s)}{', chair' if s == 2 else ''})" for s in present))
            d.t("  \n**Apologies:** " + (", ".join(w.sname(s) for s in members if s not in present) or "none") + "\n\n")
            d.t("## 1. Minutes of the last meeting\n\nAgreed as a true record.\n\n## 2. Proposals\n\n")
            if not books:
                d.t("No proposals were brought to this meeting.\n\n")
            for b in books:
                bid = b["book_id"]
                ed = b["editor_id"]
                d.t("- **").f(K("books", "title", bid), b["title"], "prose").t("** — ")
                self.credit(d, bid, "prose")
                d.t(". Brought by ")
                if ed in present:
                    d.f(K("books", "editor_id", bid), w.initials(ed), "prose", "initials")
                else:
                    d.f(K("books", "editor_id", bid), w.sname(ed), "prose")
                d.t(". ")
                if b["series_id"]:
                    d.t("For the ").f(K("books", "series_id", bid), w.series[b["series_id"]]["title"], "prose").t(" series. ")
                fmt = b["format"].lower() if b["format"] != "Ebook only" else "ebook only"
                d.t("Approved for ").f(K("books", "format", bid), fmt, "prose", "lowercase").t(" publication, ")
                d.f(K("books", "page_count", bid), f"c. {round(b['page_count'], -1)} pp", "prose", "approx-number", exact=False)
                if b["imprint_code"] != "WXL" and bid % 3:
                    d.t(", at ")
                    self.price(d, bid, "gbp-short", "prose")
                d.t(".\n")
            d.t("\n## 3. Any other business\n\nThe chair thanked the production team for the new schedule template.\n")

    def print_registers(self):
        w = self.w
        by_year = defaultdict(list)
        for r in w.runs:
            by_year[r["printed_on"][:4]].append(r)
        for year in sorted(by_year):
            if year == "2022":
                continue  # the 2022 register was lost with the old shared drive
            rows = [r for r in by_year[year] if not (year == "2025" and r["printed_on"] >= "2025-07-01")]
            d = self.new(f"production/print-register-{year}.txt", "print-register", f"Print register {year}")
            d.t(f"PRINT REGISTER {year}" + (" (January-June; July onwards in the new tracker)" if year == "2025" else "") + "\n")
            d.t("Exported from Production.xlsx, sheet 'Runs'.  Unit cost in GBP per copy, ex VAT.\n\n")
            d.t(f"{'Date':<12}{'ISBN':<15}{'Title':<34}{'Run':>4}{'Qty':>8}  {'Printer':<17}{'Unit':>6}\n")
            for r in rows:
                b = w.books[r["book_id"]]
                key = (r["book_id"], r["run_no"])
                d.f(K("print_runs", "printed_on", *key), date_s(r["printed_on"], "date-uk"), "table", "date-uk").t("  ")
                d.f(K("books", "isbn", r["book_id"]), b["isbn"], "table").t("  ")  # truth audit: was written unrecorded
                t = b["title"] if len(b["title"]) <= 32 else b["title"][:31] + "…"
                d.t(f"{t:<34}")
                rn = str(r["run_no"])
                d.t(" " * (4 - len(rn))).f(K("print_runs", "run_no", *key), rn, "table")
                q = qty_s(r["quantity"], "thousands")
                d.t(" " * (8 - len(q))).f(K("print_runs", "quantity", *key), q, "table", "thousands").t("  ")
                d.f(K("print_runs", "printer", *key), r["printer"], "table").t(" " * (17 - len(r["printer"])))
                c = f"{r['unit_cost']:.2f}"
                d.t(" " * (6 - len(c))).f(K("print_runs", "unit_cost", *key), c, "table", "plain-number").t("\n")

        # July 2025 onwards: the printers' job confirmations (job number only) and the tracker (job -> title, run)
        late = [r for r in w.runs if r["printed_on"] >= "2025-07-01"]
        tracker = self.new("production/job-tracker-2025.md", "tracker", "Production tracker, H2 2025")
        tracker.t("# Production tracker — reprints and new titles from July 2025\n\n")
        tracker.t("Printer job numbers are the printers' own references; costs and quantities are on their confirmations.\n\n")
        tracker.t("| Printer job | Title | Run | Printer | Status |\n|---|---|---|---|---|\n")
        for n, r in enumerate(late):
            b = w.books[r["book_id"]]
            key = (r["book_id"], r["run_no"])
            job = f"{r['printer'].split()[0][:3].upper()}-{40110 + 7 * n}"
            sid = f"split-run-{r['book_id']}-{r['run_no']}"
            parts = [K("print_runs", c, *key) for c in ("printed_on", "quantity", "unit_cost")]
            tracker.t("| ").f(parts, job, "split", "job-number", split_id=sid).t(" | ")
            tracker.f(K("print_runs", "run_no", *key), b["title"], "table").t(" | ")
            tracker.f(K("print_runs", "run_no", *key), str(r["run_no"]), "table").t(" | ")
            tracker.f(K("print_runs", "printer", *key), r["printer"], "table").t(" | delivered |\n")
            conf = self.new(f"production/printer-confirmations/{job.lower()}.txt", "printer-confirmation", f"{r['printer']} job {job}")
            conf.t(f"{r['printer'].upper()}\nJOB CONFIRMATION / DELIVERY NOTE\n\n")
            conf.t("Customer:     Wexcombe University Press, Production Dept.\n")
            conf.t(f"Our job no.:  {job}\n")
            conf.t("Despatched:   ").f(parts[0], date_s(r["printed_on"], "date-abbrev"), "split", "date-abbrev", split_id=sid).t("\n")
            conf.t("Quantity:     ").f(parts[1], qty_s(r["quantity"], "thousands"), "split", "thousands", split_id=sid).t(" copies\n")
            conf.t("Unit price:   ").f(parts[2], money(r["unit_cost"], "gbp"), "split", "gbp", split_id=sid).t(" + VAT\n\n")
            conf.t("Goods sent to Wexcombe Distribution.  Please quote our job number on all correspondence.\n")
            for c, p in zip(("printed_on", "quantity", "unit_cost"), parts):
                self.split_facts.append({"fact_key": p, "split_id": sid, "doc_ids": [conf.doc_id, tracker.doc_id],
                                         "note": "the printer's confirmation gives the value for its job number only; "
                                                 "the tracker maps the job number to the title and run"})

    def rights(self):
        w, rng = self.w, self.rng
        d = self.new("rights/rights-log.md", "rights-log", "Rights log")
        d.t("# Rights log\n\nAll licences signed since 2019. Advances in GBP; audio advances are confidential.\n\n")
        d.t("| No. | Title | Licensee | Language | Territory | Type | Signed | Advance |\n")
        d.t("|---|---|---|---|---|---|---|---|\n")
        logged = sorted(did for did in w.deals if did % 7 != 3)
        for did in logged:
            r = w.deals[did]
            d.t("| ").f(K("rights_deals", "deal_id", did), str(did), "table").t(" | ")
            d.f(K("rights_deals", "book_id", did), w.books[r["book_id"]]["title"], "table").t(" | ")
            d.f(K("rights_deals", "licensee", did), r["licensee"], "table").t(" | ")
            d.f(K("rights_deals", "language", did), r["language"], "table").t(" | ")
            if r["territory"]:
                d.f(K("rights_deals", "territory", did), r["territory"], "table")
            d.t(" | ").f(K("rights_deals", "deal_type", did), r["deal_type"], "table").t(" | ")
            d.f(K("rights_deals", "signed_on", did), date_s(r["signed_on"], "iso"), "table", "iso").t(" | ")
            if r["advance"] is None:
                d.t("none")
            elif r["deal_type"] == "Audio":
                d.t("conf.")
            else:
                d.f(K("rights_deals", "advance", did), f"{r['advance']:,.0f}", "table", "plain-number")
            d.t(" |\n")
        # fair reports in prose
        fairs = [("london-2023", "London Book Fair 2023", "2022-10-01", "2023-09-30"),
                 ("frankfurt-2023", "Frankfurt Book Fair 2023", "2023-10-01", "2024-03-31"),
                 ("london-2024", "London Book Fair 2024", "2024-04-01", "2024-09-30"),
                 ("frankfurt-2024", "Frankfurt Book Fair 2024", "2024-10-01", "2025-03-31"),
                 ("london-2025", "London Book Fair 2025", "2025-04-01", "2025-12-31")]
        for slug, label, lo, hi in fairs:
            deals = sorted((r for r in w.deals.values() if lo <= r["signed_on"] <= hi), key=lambda r: r["signed_on"])
            d = self.new(f"rights/reports/{slug}-report.md", "fair-report", f"{label}: rights report")
            d.t(f"# {label} — rights report\n\nFrom the Rights team to the Publishing Committee.\n\n")
            d.t("Deals concluded at or after the fair:\n\n")
            for r in deals:
                did = r["deal_id"]
                b = w.books[r["book_id"]]
                d.t("* ").f(K("rights_deals", "licensee", did), r["licensee"], "prose").t(" took ")
                if r["deal_type"] == "Audio":
                    d.f(K("rights_deals", "deal_type", did), "audio", "prose", "lowercase").t(" rights in ")
                elif r["deal_type"] == "Co-edition":
                    d.t("a ").f(K("rights_deals", "deal_type", did), "co-edition", "prose", "lowercase").t(" of ")
                else:
                    d.f(K("rights_deals", "language", did), r["language"], "prose").t(" rights in ")
                d.t("*").f(K("rights_deals", "book_id", did), b["title"], "prose").t("*")
                if r["advance"] and r["deal_type"] != "Audio":
                    if did % 3 == 0:
                        d.t(", advance ").f(K("rights_deals", "advance", did), money(r["advance"], "approx-money"), "prose", "approx-money", exact=False)
                    else:
                        d.t(", advance ").f(K("rights_deals", "advance", did), money(r["advance"], "gbp-short"), "prose", "gbp-short")
                d.t(" (signed ").f(K("rights_deals", "signed_on", did), date_s(r["signed_on"], "date-abbrev"), "prose", "date-abbrev").t(").\n")
            if not deals:
                d.t("* None yet; several options are open.\n")
            d.t("\nInterest remains strongest in the trade list; academic titles sell mostly as co-editions.\n")

    def letters(self):
        w, rng = self.w, self.rng
        cands = sorted(b for b, r in w.books.items() if r["pub_date"] and r["imprint_code"] != "WXL"
                       and all(x["author_id"] not in self.hidden_authors for x in w.by_book[b][:1]))
        for bid in sorted(rng.sample(cands, 14)):
            b = w.books[bid]
            first = w.by_book[bid][0]
            a = w.authors[first["author_id"]]
            ed = b["editor_id"]
            letter_date = d_(b["pub_date"]) - dt.timedelta(days=60)
            d = self.new(f"correspondence/letters/{letter_date.isoformat()}-{a['full_name'].split()[-1].lower()}.txt",
                         "author-letter", f"Letter to {a['full_name']}")
            d.t("Wexcombe University Press\nThe Old Custom House, Quay Street, Wexcombe WX1 2QS\n\n")
            d.t(f"{date_s(letter_date.isoformat(), 'date-words')}\n\n")
            d.t(f"{a['full_name']}\n")
            if a["affiliation"]:  # truth audit: the address block states the author's affiliation
                d.f(K("authors", "affiliation", a["author_id"]), a["affiliation"], "card")
            d.t("\n\n")
            d.t(f"Dear {a['full_name'].split()[0]},\n\n")
            d.t("I am delighted to confirm the final details of your book, ")
            d.f(K("book_authors", "author_id", bid, a["author_id"]), b["title"], "prose").t(".\n\n")
            d.t("It will be published by ").f(K("books", "imprint_code", bid), w.imprints[b["imprint_code"]]["name"], "pronoun")
            d.t(" on ").f(K("books", "pub_date", bid), date_s(b["pub_date"], "date-words"), "pronoun", "date-words")
            d.t(" as a ").f(K("books", "format", bid), b["format"].lower(), "pronoun", "lowercase")
            d.t(" of ").f(K("books", "page_count", bid), str(b["page_count"]), "pronoun").t(" pages, priced at ")
            self.price(d, bid, "gbp", "pronoun")
            runs = w.runs_by_book.get(bid)
            if runs and not runs[0]["printed_on"].startswith("2022"):
                r = runs[0]
                d.t(". We are printing ").f(K("print_runs", "quantity", bid, 1), qty_s(r["quantity"], "thousands"), "pronoun", "thousands")
                d.t(" copies for the first run with ").f(K("print_runs", "printer", bid, 1), r["printer"], "pronoun")
            d.t(".\n\nYour ISBN is ").f(K("books", "isbn", bid), isbn_h(b["isbn"]), "pronoun", "isbn-hyphens")
            d.t("; please use it when you mention the book online.  Your author copies will follow on publication.\n\n")
            d.t("With all good wishes,\n\n")
            d.f(K("books", "editor_id", bid), w.sname(ed), "signature").t("\n")
            d.f(K("staff", "job_title", ed), w.staff[ed]["job_title"], "signature").t("\n")

    def emails(self):
        w, rng = self.w, self.rng
        reprints = sorted((r for r in w.runs if r["run_no"] >= 2 and r["printed_on"] >= "2023-01-01"
                           and r["printed_on"] < "2025-07-01"), key=lambda r: r["printed_on"])
        for r in reprints[::3][:8]:
            b = w.books[r["book_id"]]
            key = (r["book_id"], r["run_no"])
            sent = d_(r["printed_on"]) - dt.timedelta(days=16)
            d = self.new(f"mail/{sent.isoformat()}-reprint-{r['book_id']}.txt", "email-thread", f"Reprint: {b['title']}")
            d.t(f"From: Samuel Okafor <s.okafor@wexcombepress.ac.uk>\nTo: Lucy Penrose <l.penrose@wexcombepress.ac.uk>\n")
            d.t(f"Date: {date_s(sent.isoformat(), 'date-us')}\nSubject: Reprint? {b['title']}\n\n")
            d.t("Lucy,\n\nWarehouse says we are down to the last few dozen of ")
            d.f(K("print_runs", "run_no", *key), b["title"], "prose").t(". Could we go again? I'd say ")
            d.f(K("print_runs", "quantity", *key), qty_s(r["quantity"], "approx-number"), "prose", "approx-number", exact=False)
            d.t(" would see us through the next year.\n\nSam\n\n")
            d.t(f"> On reply:\n\nSam — booked as the ")
            d.f(K("print_runs", "run_no", *key), ORDINAL.get(r["run_no"], str(r["run_no"])), "prose", "ordinal-words")
            d.t(" printing with ").f(K("print_runs", "printer", *key), r["printer"], "prose")
            d.t(", ").f(K("print_runs", "quantity", *key), qty_s(r["quantity"], "number-k"), "prose", "number-k")
            d.t(" copies, on the press ").f(K("print_runs", "printed_on", *key), date_s(r["printed_on"], "date-dots"), "prose", "date-dots")
            d.t(".\n\nLucy\n")
        # a price-change thread
        d = self.new("mail/2025-08-price-review.txt", "email-thread", "Price review")
        d.t("From: Priya Raman\nTo: Gareth Penhale; Imogen Vale\nSubject: autumn price review\n\n")
        d.t("Gareth, Imogen — before the new list goes out, a sanity check on a few titles:\n\n")
        picks = sorted((b for b in w.books.values() if b["imprint_code"] == "WUP" and b["status"] == "In print"),
                       key=lambda b: b["book_id"])[5:11]
        for b in picks:
            d.t("  - ").f(K("books", "title", b["book_id"]), b["title"], "prose").t(": ")
            self.price(d, b["book_id"], "approx-money", "prose")
            d.t(" now, which feels right for the extent.\n")
        d.t("\nHelen (Marsh — ").f(K("staff", "department", 3), "production", "prose", "lowercase")  # truth audit
        d.t(", not the author!) thinks paper costs will rise again in the spring.\n\nPriya\n")
        # namesake trap: the author Helen Marsh, not the Production Director
        hm = next(a for a, r in w.authors.items() if r["full_name"] == "Helen Marsh")
        row = w.by_author[hm][0]
        b = w.books[row["book_id"]]
        d = self.new("mail/2024-05-helen-marsh-event.txt", "email-thread", "Helen Marsh event")
        d.t("From: Harriet Quayle\nTo: Imogen Vale\nSubject: Helen Marsh event\n\n")
        d.t("Imogen — just to be clear, the bookshop event is with Helen Marsh the author (")
        d.f(K("book_authors", "author_id", row["book_id"], hm), b["title"], "prose").t("), not our Helen! ")
        if w.authors[hm]["affiliation"]:
            d.t("She'll come up from ").f(K("authors", "affiliation", hm), w.authors[hm]["affiliation"], "pronoun").t(". ")
        d.t("Our Helen has kindly offered to drive her from the station anyway.\n\nH.\n")

    def newsletters(self):
        w = self.w
        months = ["2024-03", "2024-06", "2024-10", "2025-02", "2025-05", "2025-09"]
        for m in months:
            y, mo = int(m[:4]), int(m[5:])
            books = sorted((b for b in w.books.values() if b["pub_date"] and b["pub_date"][:7] in
                            (m, f"{y + (mo == 12)}-{(mo % 12) + 1:02d}", f"{y - (mo == 1)}-{((mo - 2) % 12) + 1:02d}")),
                           key=lambda b: b["pub_date"])
            d = self.new(f"marketing/newsletter-{m}.html", "newsletter", f"Newsletter {MONTHS[mo - 1]} {y}")
            d.w("<html><body style=\"font-family:Georgia\">\n")
            d.w(f"<h1>New from Wexcombe — {MONTHS[mo - 1]} {y}</h1>\n<p>Use code <b>WEX25</b> for 25% off at our web shop.</p>\n")
            for b in books:
                bid = b["book_id"]
                d.w("<div class=\"book\"><h2>").f(K("books", "title", bid), b["title"], "heading").w("</h2>\n<p>by ")
                self.credit(d, bid, "heading-subject")
                d.w("</p>\n<p>")
                if b["imprint_code"] != "WXL":
                    d.w("<s>").f(K("books", "list_price", bid), money(b["list_price"], "gbp"), "heading-subject", "gbp")
                    d.w("</s> ").t(f"£{b['list_price'] * 0.75:,.2f} with WEX25 · ")
                d.t("out ")
                self.pub(d, bid, "date-words" if bid % 2 else "date-abbrev", "heading-subject")
                d.w("</p></div>\n")
            d.w("<p><small>You are receiving this because you signed up at a Wexcombe event. Unsubscribe.</small></p>\n</body></html>\n")

    def distractors(self):
        w = self.w
        real = sorted(w.books.values(), key=lambda b: b["book_id"])
        d = self.new("market/wexford-academic-catalogue-2025.md", "competitor-catalogue", "Wexford Academic catalogue", True)
        d.t("# Wexford Academic — History & Environment 2025\n\n(Competitor catalogue, picked up at the BSECS conference.)\n\n")
        for b in real[2:40:6]:
            d.t(f"### {b['title']} Revisited\n{b['format']} · {b['page_count'] + 32} pp · £{b['list_price'] + 5:.2f}\n\n")
        d = self.new("market/review-rivers-of-memories.md", "review", "Review: Rivers of Memories", True)
        d.t("# Review: *Rivers of Memories* by Jon Elleray (Fenland Press, £16.99)\n\n")
        d.t("Not to be confused with the Heron memoir of a similar name, this debut collects essays on the Fens. ")
        d.t("Elleray, who teaches at the University of Exeter, writes best about eel traps and winter floods.\n")
        d = self.new("market/obituary-helen-marsh-painter.md", "obituary", "Helen Marsh (1911-1988), painter", True)
        d.t("# Helen Marsh (1911–1988)\n\nThe marine painter Helen Marsh, born in Wexcombe in 1911, is the subject of a new exhibition ")
        d.t("at the Quay Gallery.  Her studio overlooked the Saltings, and the Heron Inn hung her estuary scenes for forty years.\n")
        d = self.new("hr/applications/cv-megan-hughs.txt", "cv", "CV: Megan Hughs", True)
        d.t("CURRICULUM VITAE\n\nMegan Hughs\nCommissioning Editor (applicant)\n\n")
        d.t("2019-2025  Editor, Saltings Sailing Club Journal\n2016-2019  Editorial Assistant, Heron Books Ltd (bookshop chain, Bath)\n")
        d.t("Extension at current employer: 4012\n")
        d = self.new("market/heron-bookshop-events.html", "events-page", "Heron Bookshop events", True)
        d.w("<html><body><h1>Heron Bookshop, Wexcombe — events</h1>\n<ul>\n")
        d.w("<li>Tide Tables for Sailors: a talk by the harbourmaster — 14 March, £5</li>\n")
        d.w("<li>Book group: <i>The Lighthouse Keeper</i> — 2 April, free</li>\n</ul></body></html>\n")
        d = self.new("market/library-accessions-2024.txt", "accessions", "Wexcombe Central Library accessions", True)
        d.t("WEXCOMBE CENTRAL LIBRARY — NEW ACCESSIONS, LOCAL STUDIES, 2024\n\n")
        for b in real[10:60:7]:
            d.t(f"{b['title']} (2nd ed.)   shelf LS/{b['book_id'] * 13 % 900}   ISBN 979{b['isbn'][3:12]}X\n")
        d = self.new("market/saltings-sailing-club.md", "club-newsletter", "Saltings Sailing Club newsletter", True)
        d.t("# Saltings Sailing Club — autumn newsletter\n\nFounded 1911.  Our commodore, Owen Hughes, reminds members that the ")
        d.t("Wexcombe Learning Centre dinghy courses start in Bristol in April, priced £85.00.\n")
        d = self.new("market/studies-in-coastal-histories-call.md", "call-for-papers", "Call: Studies in Coastal Histories", True)
        d.t("# Call for papers: *Studies in Coastal Histories* (journal)\n\nThe journal (not the Wexcombe book series) invites ")
        d.t("articles of up to 9,000 words.  General editor: Prof. Anne Carrow.  Deadline 30 June 2025.\n")

    def no_fact_docs(self):
        docs = {
            "policies/house-style-guide.md": ("House style guide", "# House style\n\nUse -ise spellings. Dates as 4 May 2025. "
                                              "Single quotation marks, double within single. Spell out numbers to ten.\n"),
            "policies/proposal-guidelines.md": ("Proposal guidelines", "# How to submit a proposal\n\nSend a two-page outline, a "
                                                "chapter plan, a sample chapter and a CV to the relevant commissioning editor.\n"),
            "policies/open-access.md": ("Open access policy", "# Open access\n\nMonographs funded by UKRI are published open access "
                                        "under CC BY after a 0-month embargo. Book processing charges are waived for our own staff.\n"),
            "intranet/fire-safety.txt": ("Fire safety", "FIRE SAFETY\n\nAssembly point: the car park by the Custom House steps.\n"
                                         "Fire wardens are named on the notice by each stairwell.\n"),
            "intranet/sustainability.md": ("Sustainability", "# Sustainability\n\nAll printers we use hold FSC chain-of-custody "
                                           "certification. We aim to halve pulped stock by 2027.\n"),
            "intranet/it-helpdesk.md": ("IT helpdesk", "# IT helpdesk\n\nPasswords change every 180 days. Report phishing e-mails "
                                        "with the button in Outlook.\n"),
        }
        for doc_id, (title, text) in docs.items():
            self.new(doc_id, "policy", title).t(text)

    def build(self):
        self.imprint_pages()
        self.series_pages()
        self.catalogues()
        self.price_lists()
        self.book_pages()
        self.author_pages()
        self.staff_docs()
        self.minutes()
        self.print_registers()
        self.rights()
        self.letters()
        self.emails()
        self.newsletters()
        self.distractors()
        self.no_fact_docs()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default=os.path.join(HERE, "wexcombe.sqlite"))
    ap.add_argument("--out", default=HERE)
    a = ap.parse_args(argv)
    w = World(a.db)
    c = Corpus(w, random.Random(SEED))
    c.build()
    stems = Counter(os.path.splitext(d.doc_id)[0] for d in c.docs)
    dup = [s for s, n in stems.items() if n > 1]
    if dup:
        raise SystemExit(f"documents share a stem: {dup}")
    docs_dir = os.path.join(a.out, "docs")
    if os.path.isdir(docs_dir):
        shutil.rmtree(docs_dir)
    facts, documents = [], []
    for d in sorted(c.docs, key=lambda d: d.doc_id):
        p = os.path.join(docs_dir, d.doc_id)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        text = d.text()
        with open(p, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        fs = sorted(d.facts, key=lambda f: (f["start"], f["fact_key"]))
        facts.extend(fs)
        documents.append({
            "doc_id": d.doc_id, "kind": d.kind, "format": d.doc_id.rsplit(".", 1)[1], "title": d.title,
            "chars": len(text), "n_statements": len(fs), "n_exact": sum(f["exact"] for f in fs),
            "n_distinct_facts": len({f["fact_key"] for f in fs}),
            "tables": sorted({f["fact_key"].split(".", 1)[0] for f in fs}),
            "distractor": d.distractor, "states_no_db_fact": not fs,
        })
    exact_keys = {f["fact_key"] for f in facts if f["exact"]}
    all_keys = {f["fact_key"] for f in facts}
    truth = {
        "about": "Wexcombe University Press corpus (fictional): every database fact a document states, recorded when written.",
        "database": "wexcombe.sqlite",
        "seed": SEED,
        "facts": facts,
        "split_facts": c.split_facts,
        "distractor_doc_ids": sorted(d.doc_id for d in c.docs if d.distractor),
        "no_fact_doc_ids": sorted(d.doc_id for d in c.docs if not d.facts),
        "omitted": c.omitted,
        "documents": documents,
        "stats": {
            "n_documents": len(documents),
            "n_statements": len(facts),
            "n_distinct_facts": len(all_keys),
            "n_facts_stated_exactly": len(exact_keys),
            "n_split_facts": len(c.split_facts),
            "approximate_only_facts": sorted(all_keys - exact_keys),
            "by_format": dict(sorted(Counter(x["format"] for x in documents).items())),
            "by_kind": dict(sorted(Counter(x["kind"] for x in documents).items())),
            "by_how": dict(sorted(Counter(f["how"] for f in facts).items())),
            "by_form": dict(sorted(Counter(f["form"] for f in facts).items())),
            "omitted_facts": sum(len(v["fact_keys"]) for v in c.omitted.values()),
        },
    }
    with open(os.path.join(a.out, "truth.json"), "w", encoding="utf-8", newline="\n") as fh:
        json.dump(truth, fh, indent=1, sort_keys=True, ensure_ascii=False)
        fh.write("\n")
    s = truth["stats"]
    print(f"{s['n_documents']} documents, {s['n_statements']} statements of {s['n_distinct_facts']} facts "
          f"({s['n_facts_stated_exactly']} stated exactly), {s['n_split_facts']} split, {s['omitted_facts']} omitted")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
