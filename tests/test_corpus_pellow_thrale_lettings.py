"""The Pellow & Thrale Lettings corpus (benchmarks/corpora/pellow_thrale_lettings), a held-out corpus written
blind to ragdx: its generators are deterministic, every recorded surface sits at its offsets, every exact
statement agrees with the database (a value in the way its `form` says it is written; a hop or association
row named by one of the rows it joins), approximate statements keep the README's rules, every database fact
is stated or listed as omitted, and what is left out appears nowhere."""

from __future__ import annotations

import datetime
import os
import re
from collections import Counter
from pathlib import Path

import pytest

from tests.support.corpus_checks import (
    assert_pdfs_hold_their_surfaces,
    assert_regenerates,
    assert_surfaces_at_offsets,
    assert_truth_bookkeeping,
    load_module,
    pdf_text,
    read_only,
    read_truth,
)

CORPUS = Path(__file__).resolve().parents[1] / "benchmarks" / "corpora" / "pellow_thrale_lettings"
DB = CORPUS / "pellow.sqlite"
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
FK = {
    ("landlords", "branch_code"): "branches",
    ("properties", "landlord_id"): "landlords",
    ("properties", "branch_code"): "branches",
    ("tenancies", "property_ref"): "properties",
    ("tenancy_tenants", "tenancy_ref"): "tenancies",
    ("tenancy_tenants", "tenant_id"): "tenants",
    ("rent_payments", "tenancy_ref"): "tenancies",
    ("repairs", "property_ref"): "properties",
    ("repairs", "contractor_id"): "contractors",
}
OWN = {
    "branches": ("name",),
    "landlords": ("first_name", "last_name"),
    "properties": ("address",),
    "tenants": ("first_name", "last_name"),
    "contractors": ("name",),
}
# the written forms, as this test reads them (not taken from the generator)
ABBREV = {
    "property_type": {
        "Terr": "terraced house",
        "Semi": "semi-detached house",
        "Det": "detached house",
        "Flat": "flat",
        "Mais": "maisonette",
        "Bung": "bungalow",
        "Studio": "studio",
    },
    "method": {"S/O": "Standing order", "BACS": "Bank transfer", "UC": "Universal Credit", "CARD": "Card"},
    "priority": {"EMERG": "Emergency", "URG": "Urgent", "ROUT": "Routine"},
}
ROLE_SHORT = {"lead": "Lead tenant", "joint": "Joint tenant", "occupier": "Permitted occupier"}
SCHEME_LONG = {"Deposit Protection Service": "DPS", "Tenancy Deposit Scheme": "TDS"}
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
NULL_WORDS = {
    "awaited",
    "tbc",
    "—",
    "to follow",
    "periodic",
    "Periodic",
    "UNPAID",
    "-",
    "not yet received",
    "nothing",
    "unassigned",
}
MONTHS = {
    m: i
    for i, m in enumerate(
        [
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
        ],
        start=1,
    )
}


@pytest.fixture(scope="module")
def gen():
    return load_module("pellow_make_corpus", CORPUS / "make_corpus.py")


@pytest.fixture(scope="module")
def truth():
    return read_truth(CORPUS)


@pytest.fixture(scope="module")
def con():
    yield from read_only(DB)


def test_generators_are_deterministic(tmp_path):
    assert_regenerates(CORPUS, DB, tmp_path)


def test_database_declares_its_keys_and_traps(con):
    fks = {t: {(r["from"], r["table"]) for r in con.execute(f"PRAGMA foreign_key_list({t})")} for t in PKS}
    for (t, c), target in FK.items():
        assert (c, target) in fks[t], (t, c)
    for t, pk in PKS.items():
        got = [r["name"] for r in sorted(con.execute(f"PRAGMA table_info({t})"), key=lambda r: r["pk"]) if r["pk"]]
        assert got == pk
    n = sum(con.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in PKS)
    assert 300 <= n <= 450
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    # namesakes: two landlords written 'Mr D. Hartley', two tenants called Daniel Price
    assert (
        con.execute(
            "SELECT COUNT(*) FROM landlords WHERE last_name = 'Hartley' AND first_name LIKE 'D%' AND title = 'Mr'"
        ).fetchone()[0]
        == 2
    )
    assert (
        con.execute("SELECT COUNT(*) FROM tenants WHERE first_name = 'Daniel' AND last_name = 'Price'").fetchone()[0]
        == 2
    )
    # near-duplicate addresses and towns
    addrs = {r[0] for r in con.execute("SELECT address FROM properties")}
    assert {"14 Orchard Close", "41 Orchard Close", "Flat 2, 9 Mill Street", "Flat 3, 9 Mill Street"} <= addrs
    towns = {r[0] for r in con.execute("SELECT town FROM properties")}
    assert {"Marbury", "Little Marbury", "Cossington", "Cossington Magna"} <= towns
    # NULLs of several kinds
    for table, col in (
        ("landlords", "email"),
        ("properties", "epc_rating"),
        ("tenancies", "end_date"),
        ("rent_payments", "paid_date"),
        ("repairs", "contractor_id"),
        ("repairs", "cost"),
        ("contractors", "gas_safe_no"),
    ):
        assert con.execute(f"SELECT COUNT(*) FROM {table} WHERE {col} IS NULL").fetchone()[0] >= 1, (table, col)


def test_truth_shape(truth):
    assert set(truth) >= {
        "database",
        "facts",
        "split_facts",
        "distractor_doc_ids",
        "no_fact_doc_ids",
        "omitted",
        "documents",
        "stats",
    }
    docs = truth["documents"]
    assert 100 <= len(docs) <= 130
    assert {d.rsplit(".", 1)[1] for d in docs} == {"md", "txt", "html", "pdf"}
    assert 3 <= sum(d.endswith(".pdf") for d in docs) <= 8
    stems = [os.path.splitext(d)[0] for d in docs]
    assert len(stems) == len(set(stems))
    assert 5 <= len(truth["distractor_doc_ids"]) <= 8
    assert truth["split_facts"]
    assert_truth_bookkeeping(truth, docs)
    for d, meta in docs.items():
        n = sum(f["doc_id"] == d for f in truth["facts"])
        assert meta["statements"] == n
        assert (n == 0) == (meta["distractor"] or meta["states_no_db_fact"]), d


def test_surfaces_at_their_offsets(truth):
    assert_surfaces_at_offsets(CORPUS, truth)


def test_pdfs_are_well_formed_and_hold_their_surfaces(truth):
    assert_pdfs_hold_their_surfaces(CORPUS, truth)


def _names(con, table, key):
    """The ways a row of TABLE is named in the corpus."""
    if table == "branches":
        return {key, con.execute("SELECT name FROM branches WHERE branch_code = ?", (key,)).fetchone()[0]}
    if table == "landlords":
        r = con.execute("SELECT * FROM landlords WHERE landlord_id = ?", (int(key),)).fetchone()
        t, fn, ln = r["title"], r["first_name"], r["last_name"]
        return {
            f"{fn} {ln}",
            f"{t} {fn} {ln}",
            f"{t} {fn[0]}. {ln}",
            f"{ln}, {fn}",
            f"{ln}, {fn} ({t})",
            r["account_ref"],
        }
    if table == "properties":
        return {key, con.execute("SELECT address FROM properties WHERE property_ref = ?", (key,)).fetchone()[0]}
    if table == "tenants":
        r = con.execute("SELECT * FROM tenants WHERE tenant_id = ?", (int(key),)).fetchone()
        return {f"{r['first_name']} {r['last_name']}", r["first_name"], f"{r['last_name']}, {r['first_name']}"}
    if table == "contractors":
        name = con.execute("SELECT name FROM contractors WHERE contractor_id = ?", (int(key),)).fetchone()[0]
        others = [r[0] for r in con.execute("SELECT name FROM contractors WHERE contractor_id != ?", (int(key),))]
        # a short name: a run of whole words of the name that no other contractor's name holds
        words = name.split()
        shorts = {" ".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, len(words) + 1)}
        return {name} | {s for s in shorts if len(s) >= 7 and not any(s in o for o in others)}
    return {key}  # tenancies, repairs: by their reference


def _date(s, form):
    """A written date -> ISO; a date without its year is in 2026 (every such document is dated 2026)."""
    if form == "iso":
        return s
    if form == "date-uk":
        d, m, y = s.split("/")
        return f"{y}-{m}-{d}"
    if form == "date-short":
        d, m, y = s.split("/")
        return f"20{y}-{int(m):02d}-{int(d):02d}"
    m = re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th)? ([A-Z][a-z]+)(?: (\d{4}))?", s)
    assert m, s
    month = next(v for k, v in MONTHS.items() if k.startswith(m[2]))
    if form in ("date-ordinal", "date-no-year"):
        assert m[0] != m[1] + " " + m[2] and (m[3] is None) == (form == "date-no-year")
        assert len(m[2]) == 3
    else:
        assert form == "date-words" and m[2] in MONTHS
    return f"{m[3] or 2026}-{month:02d}-{int(m[1]):02d}"


def _check_value(table, col, v, s, form):
    if form == "null-stated":
        assert v is None and s in NULL_WORDS
    elif form in ("iso", "date-uk", "date-short", "date-ordinal", "date-words", "date-no-year"):
        assert _date(s, form) == v
    elif form in ("gbp", "gbp-pence", "pcm", "gbp-pcm", "plain-number", "plain-int"):
        assert s.startswith("£") == form.startswith("gbp") and s.endswith(" pcm") == form.endswith("pcm")
        assert ("." in s) == (form in ("gbp-pence", "plain-number"))
        assert float(s.removeprefix("£").removesuffix(" pcm").replace(",", "")) == v
    elif form.startswith("phone"):
        digits = re.sub(r"\D", "", s)
        assert (("0" + digits[2:]) if form == "phone-intl" else digits) == v.replace(" ", "")
        assert form != "phone-compact" or " " not in s
    elif form == "abbrev":
        assert ABBREV[col][s] == v
    elif form == "lowercase":
        assert s == v.lower() and s != v
    elif form == "uppercase":
        assert s == v.upper()
    elif form == "capitalised":
        assert s == v.capitalize()
    elif form == "role-short":
        assert ROLE_SHORT[s] == v
    elif form == "expansion":
        assert SCHEME_LONG[s] == v
    elif form == "paraphrase":
        assert (col, s, v) == ("status", "served notice", "notice given")
    elif form == "number-unit":
        assert re.fullmatch(r"\d+ bed(room)?", s) and int(s.split()[0]) == v
    elif form == "number-words":
        assert NUMBER_WORDS[s.split()[0].lower()] == v and s.split()[1].startswith("bedroom")
    elif form == "plain-number":
        assert s == str(v)
    else:
        assert form in ("verbatim", "code"), form
        assert s == str(v)


def _check_statement(con, gen, f, table, col, vals, row):
    pks = PKS[table]
    s, form = f["surface"], f["form"]
    own = _names(con, table, vals[0]) if len(pks) == 1 else set()
    if f["how"] == "split":
        assert form == "cert-no" and (table, col) == ("tenancies", "deposit")
        assert s == gen.cert_no(vals[0])
        if "batch" in f["doc_id"]:
            line = next(ln for ln in (CORPUS / "docs" / f["doc_id"]).read_text().splitlines() if ln.startswith(s))
            assert line.split()[1] == f"{row['deposit']:.2f}"
    elif len(pks) > 1 and col == pks[-1]:  # an association row's existence: named by a row it joins
        names = set()
        for c in (c for c in pks if (table, c) in FK):
            names |= _names(con, FK[(table, c)], str(row[c]))
        assert s in names
    elif (table, col) in FK:
        if form == "null-stated":
            assert row[col] is None
        else:
            assert s in _names(con, FK[(table, col)], str(row[col])) | own
    elif table == "landlords" and col == "title":
        assert s == row["title"]
    elif col == "bedrooms" and form == "plain-number":
        assert s == str(row[col])
    else:
        _check_value(table, col, row[col], s, form)


def test_exact_statements_agree_with_the_database(truth, con, gen):
    checked, bad = 0, []
    for f in truth["facts"]:
        if not f["exact"]:
            continue
        table, rest = f["fact_key"].split(".", 1)
        col, key = rest.split("@", 1)
        vals = key.split("|")
        sql = f"SELECT * FROM {table} WHERE " + " AND ".join(f"{p} = ?" for p in PKS[table])
        row = con.execute(sql, vals).fetchone()
        assert row is not None, f
        assert col not in OWN.get(table, ()), f  # a row's own name is not a fact to state
        try:
            _check_statement(con, gen, f, table, col, vals, row)
        except (AssertionError, AttributeError, ValueError, KeyError, TypeError, StopIteration) as e:
            bad.append(f"{f} vs {row[col] if col in row.keys() else None!r}: {e!r}")
        checked += 1
    assert not bad, "\n".join(bad[:20])
    assert checked > 2000


def test_approximate_statements_keep_the_rules(truth, con):
    """README: amounts to the nearest £100 ('£1.2k'), a weekly rent of twelve months over 52 weeks, a date to its
    week ('w/c 6/7' is the Monday of the week holding it), a postcode to its district."""
    n = 0
    for f in (f for f in truth["facts"] if not f["exact"]):
        table, rest = f["fact_key"].split(".", 1)
        col, key = rest.split("@", 1)
        row = con.execute(
            f"SELECT * FROM {table} WHERE " + " AND ".join(f"{p} = ?" for p in PKS[table]), key.split("|")
        ).fetchone()
        s, form = f["surface"], f["form"]
        if form == "gbp-k":
            assert abs(float(s[1:-1]) * 1000 - row[col]) <= 50, f
        elif form == "per-week":
            assert s == f"£{round(row[col] * 12 / 52):,} pw", f
        elif form == "approx-week":
            day, month = (int(x) for x in s.removeprefix("w/c ").split("/"))
            start = datetime.date(2026, month, day)
            assert start.weekday() == 0
            assert 0 <= (datetime.date.fromisoformat(row[col]) - start).days < 7, f
        elif form == "postcode-district":
            assert row[col].split()[0] == s, f
        else:
            assert (form, col) == ("code", "due_month") and s == key.split("|")[0], f
        n += 1
    assert n >= 50


def test_every_database_fact_is_stated_or_omitted(truth, con):
    stated = {f["fact_key"] for f in truth["facts"]}
    omitted = {k for g in truth["omitted"].values() for k in g["fact_keys"]}
    left = []
    for t, pks in PKS.items():
        for r in con.execute(f"SELECT * FROM {t}"):
            key = "|".join(str(r[p]) for p in pks)
            cols = [c for c in r.keys() if c not in pks and c not in OWN.get(t, ())]
            ks = [f"{t}.{c}@{key}" for c in cols] + ([f"{t}.{pks[-1]}@{key}"] if len(pks) > 1 else [])
            left += [k for k in ks if k not in stated and k not in omitted]
    assert not left, left[:10]
    exact = {f["fact_key"] for f in truth["facts"] if f["exact"]}
    assert truth["stats"]["approximate_only_facts"] == len(stated - exact) >= 10
    by_how = Counter(f["how"] for f in truth["facts"])
    assert {
        "split",
        "rowspan",
        "heading-subject",
        "quoted-original",
        "nested",
        "chat",
        "pronoun",
        "doc-heading",
    } <= set(by_how)


def _all_text():
    out = {}
    for p in sorted((CORPUS / "docs").rglob("*")):
        if p.is_file():
            out[str(p.relative_to(CORPUS / "docs"))] = pdf_text(p) if p.suffix == ".pdf" else p.read_text("utf-8")
    return out


def test_what_is_left_out_appears_nowhere(truth, con):
    texts = _all_text()
    everything = "\n".join(texts.values())
    digits = re.sub(r"\D", "", everything)
    om = truth["omitted"]
    # the former tenants' phones and e-mails: in no spelling
    for k in om["former_tenant_contacts"]["fact_keys"]:
        col, tid = k.split(".", 1)[1].split("@")
        v = con.execute(f"SELECT {col} FROM tenants WHERE tenant_id = ?", (int(tid),)).fetchone()[0]
        assert (v.replace(" ", "") not in digits) if col == "phone" else (v not in everything), k
    # the Hallet Green July rent roll does not exist; the July payments of its tenancies appear only in the
    # meeting notes' approximate lines, never with their method
    assert not [d for d in texts if "hallet-green" in d and "2026-07" in d]
    july = {k.split("@")[1] for k in om["rent_july_hallet_green"]["fact_keys"]}
    for f in truth["facts"]:
        if f["fact_key"].startswith("rent_payments.") and f["fact_key"].split("@")[1] in july:
            assert not f["exact"] and "meeting" in f["doc_id"], f
    # the ended tenancies' deposits: the cells of the check-out notes say nothing of an amount
    ended = texts["tenancies/ended-tenancies-2023-2024.md"]
    for k in om["ended_tenancy_deposits"]["fact_keys"]:
        ref = k.split("@")[1]
        dep = con.execute("SELECT deposit FROM tenancies WHERE tenancy_ref = ?", (ref,)).fetchone()[0]
        assert f"{dep:,}" not in ended and f"{dep:.2f}" not in ended
    # a NULL left unsaid: no document says a landlord has no e-mail or a contractor no Gas Safe number
    assert not re.search(r"no (e-?mail|gas safe)", everything, re.I)
    assert om["landlord_email_null"]["fact_keys"] and om["contractor_gas_safe_null"]["fact_keys"]


def test_scorer_needs():
    mod = load_module("pellow_score_linking", CORPUS / "score_linking.py")
    needs = mod.Needs(str(DB))
    got = needs(
        "SELECT landlords.phone FROM properties JOIN landlords ON properties.landlord_id = "
        "landlords.landlord_id WHERE properties.address = '14 Orchard Close'"
    )
    assert (
        len(got) == 1 and got[0][0].startswith("landlords.phone@") and got[0][1].startswith("properties.landlord_id@")
    )
    # an attribute of a composite-key row implies the row
    assert needs(
        "SELECT rent_payments.amount_paid FROM rent_payments JOIN tenancies ON rent_payments.tenancy_ref = "
        "tenancies.tenancy_ref WHERE tenancies.tenancy_ref = 'T-2211' AND rent_payments.due_month = "
        "'2026-08'"
    ) == [["rent_payments.amount_paid@T-2211|2026-08"]]
