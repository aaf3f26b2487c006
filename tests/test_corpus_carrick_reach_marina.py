"""The Carrick Reach Marina corpus (benchmarks/corpora/carrick_reach_marina), a held-out corpus written blind to
ragdx that tests the knowledge boundary inside its domain: its generators are deterministic, every recorded
surface sits at its offsets, every exact statement agrees with the database (read back by this test's own
parsers), approximate statements keep the README's rules, every database fact is stated or listed as omitted,
the entities left out are named by no document, and the facts left out are written nowhere beside their entity.
The omissions are of columns ragdx's default questions ask (ASKED, read off `ragdx templates sql` on this
database), so that they measure something."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from tests.support.corpus_checks import (
    assert_regenerates,
    assert_surfaces_at_offsets,
    assert_truth_bookkeeping,
    load_module,
    read_only,
    read_truth,
)

CORPUS = Path(__file__).resolve().parents[1] / "benchmarks" / "corpora" / "carrick_reach_marina"
DB = CORPUS / "marina.sqlite"
PKS = {
    "pontoons": ["pontoon_code"],
    "berths": ["berth_no"],
    "owners": ["owner_id"],
    "boats": ["boat_id"],
    "boat_owners": ["boat_id", "owner_id"],
    "staff": ["staff_id"],
    "work_orders": ["job_no"],
}
FK = {
    ("berths", "pontoon_code"): "pontoons",
    ("boats", "berth_no"): "berths",
    ("boat_owners", "boat_id"): "boats",
    ("boat_owners", "owner_id"): "owners",
    ("work_orders", "boat_id"): "boats",
    ("work_orders", "staff_id"): "staff",
}
OWN = {"pontoons": ("name",), "owners": ("first_name", "last_name"), "boats": ("name",), "staff": ("name",)}
# the (table, column) pairs the default SQL templates select or join through (`ragdx templates sql` on
# marina.sqlite, 34 templates; the README lists them); phones and e-mails are not asked
ASKED = (
    {("berths", c) for c in ("length_m", "berth_type", "annual_fee", "pontoon_code")}
    | {("boats", c) for c in ("boat_type", "make", "loa_m", "year_built", "berth_no")}
    | {("owners", c) for c in ("member_no", "title", "home_town")}
    | {("work_orders", c) for c in ("booked_date", "job_type", "charge", "status", "boat_id", "staff_id")}
    | {
        ("boat_owners", "role"),
        ("boat_owners", "owner_id"),
        ("pontoons", "max_loa_m"),
        ("pontoons", "shore_power"),
        ("staff", "role"),
    }
)
NULL_WORDS = {"ashore", "yard", "none", "-", "unassigned", "tbc", "to be invoiced"}
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


@pytest.fixture(scope="module")
def truth():
    return read_truth(CORPUS)


@pytest.fixture(scope="module")
def con():
    yield from read_only(DB)


@pytest.fixture(scope="module")
def texts():
    return {
        str(p.relative_to(CORPUS / "docs")): p.read_text("utf-8")
        for p in sorted((CORPUS / "docs").rglob("*"))
        if p.is_file()
    }


def _row(con, table, key):
    sql = f"SELECT * FROM {table} WHERE " + " AND ".join(f"{p} = ?" for p in PKS[table])
    return con.execute(sql, key.split("|")).fetchone()


def _split(fact_key):
    table, rest = fact_key.split(".", 1)
    col, key = rest.split("@", 1)
    return table, col, key


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
    assert 200 <= n <= 400
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    assert con.execute("SELECT COUNT(*) FROM boats WHERE name = 'Kittiwake'").fetchone()[0] == 2
    assert (
        con.execute("SELECT COUNT(*) FROM owners WHERE last_name = 'Trevail' AND first_name LIKE 'A%'").fetchone()[0]
        == 2
    )
    for table, col in (
        ("owners", "email"),
        ("boats", "berth_no"),
        ("work_orders", "staff_id"),
        ("work_orders", "charge"),
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
        "absent_entities",
        "absent_facts",
        "documents",
        "stats",
    }
    docs = truth["documents"]
    assert 80 <= len(docs) <= 120
    assert {d.rsplit(".", 1)[1] for d in docs} == {"md", "txt", "html"}
    assert len(truth["distractor_doc_ids"]) == 5 and len(truth["no_fact_doc_ids"]) == 3
    assert_truth_bookkeeping(truth, docs)
    for d, meta in docs.items():
        n = sum(f["doc_id"] == d for f in truth["facts"])
        assert meta["statements"] == n
        assert (n == 0) == (meta["distractor"] or meta["states_no_db_fact"]), d


def test_surfaces_at_their_offsets(truth):
    assert_surfaces_at_offsets(CORPUS, truth)


def _names(con, table, key):
    """The ways a row of TABLE is named in the corpus."""
    if table == "pontoons":
        return {key, con.execute("SELECT name FROM pontoons WHERE pontoon_code = ?", (key,)).fetchone()[0]}
    if table == "owners":
        r = _row(con, table, key)
        return {f"{r['first_name']} {r['last_name']}", f"{r['last_name']}, {r['first_name']}", r["member_no"]}
    if table in ("boats", "staff"):
        name = _row(con, table, key)["name"]
        return {name} | ({"".join(w[0] for w in name.split())} if table == "staff" else set())
    return {key}  # berths, work orders: by their number


def _date(s, form):
    """A written date -> ISO; a date without its year is in 2026 (every such log is titled 2026)."""
    if form == "date-uk":
        d, m, y = s.split("/")
        return f"{y}-{m}-{d}"
    m = re.fullmatch(r"(\d{1,2})(st|nd|rd|th)? ([A-Z][a-z]+)(?: (\d{4}))?", s)
    assert m and (m[4] is None) == (form == "date-no-year") and bool(m[2]) == (form == "date-no-year"), s
    month = next(i for i, name in enumerate(MONTHS, start=1) if name.startswith(m[3]))
    return f"{m[4] or 2026}-{month:02d}-{int(m[1]):02d}"


def _check_value(v, s, form):
    if form == "null-stated":
        assert v is None and s in NULL_WORDS
    elif form in ("date-uk", "date-words", "date-no-year"):
        assert _date(s, form) == v
    elif form in ("gbp", "gbp-pence"):
        assert re.fullmatch(r"£\d{1,3}(,\d{3})*" + (r"\.\d\d" if form == "gbp-pence" else ""), s)
        assert float(s[1:].replace(",", "")) == v
    elif form == "plain-number":
        assert re.fullmatch(r"\d+\.\d+", s) and float(s) == v
    elif form == "plain-int":
        assert re.fullmatch(r"\d+", s) and int(s) == v
    elif form == "metres":
        assert re.fullmatch(r"\d+\.\d m", s) and float(s[:-2]) == v
    elif form == "phone-intl":
        assert s.startswith("+44 ") and "0" + s[4:] == v
    elif form == "lowercase":
        assert s == v.lower() and s != v
    elif form == "uppercase":
        assert s == v.upper() and s != v
    else:
        assert form in ("verbatim", "code"), form
        assert s == str(v)


def _check_statement(con, f, table, col, row):
    s, form = f["surface"], f["form"]
    if len(PKS[table]) > 1 and col == PKS[table][-1]:  # an ownership row: named by its boat or its owner
        assert s in _names(con, "boats", str(row["boat_id"])) | _names(con, "owners", str(row["owner_id"]))
    elif (table, col) in FK:
        if form == "null-stated":
            assert row[col] is None and s in NULL_WORDS
        else:
            assert form in ("code", "name", "initials")
            assert s in _names(con, FK[(table, col)], str(row[col]))
    else:
        _check_value(row[col], s, form)


def test_exact_statements_agree_with_the_database(truth, con):
    checked, bad = 0, []
    for f in (f for f in truth["facts"] if f["exact"]):
        table, col, key = _split(f["fact_key"])
        row = _row(con, table, key)
        assert row is not None, f
        assert col not in OWN.get(table, ()), f  # a row's own name is not a fact to state
        try:
            _check_statement(con, f, table, col, row)
        except (AssertionError, ValueError, KeyError, TypeError, StopIteration) as e:
            bad.append(f"{f} vs {row[col] if col in row.keys() else None!r}: {e!r}")
        checked += 1
    assert not bad, "\n".join(bad[:20])
    assert checked > 1200


def test_approximate_statements_keep_the_rules(truth, con):
    """README: a length in feet rounded to the foot, a fee to the nearest £100 ('£2.3k'), a berth length to
    the metre ('about 12 m')."""
    n = 0
    for f in (f for f in truth["facts"] if not f["exact"]):
        table, col, key = _split(f["fact_key"])
        v, s, form = _row(con, table, key)[col], f["surface"], f["form"]
        if form == "feet":
            assert s == f"{round(v / 0.3048)} ft", f
        elif form == "gbp-k":
            assert abs(float(s[1:-1]) * 1000 - v) <= 50, f
        else:
            assert form == "approx-metres" and s == f"{round(v)} m", f
        n += 1
    assert n >= 20


def test_every_database_fact_is_stated_or_omitted(truth, con):
    stated = {f["fact_key"] for f in truth["facts"]}
    omitted = {k for g in truth["omitted"].values() for k in g["fact_keys"]}
    left = []
    for t, pks in PKS.items():
        for r in con.execute(f"SELECT * FROM {t}"):
            key = "|".join(str(r[p]) for p in pks)
            ks = [f"{t}.{c}@{key}" for c in r.keys() if c not in pks and c not in OWN.get(t, ())]
            ks += [f"{t}.{pks[-1]}@{key}"] if len(pks) > 1 else []
            left += [k for k in ks if k not in stated and k not in omitted]
    assert not left, left[:10]
    # every stated fact is stated exactly somewhere: an approximation never stands in for a fact
    assert {f["fact_key"] for f in truth["facts"] if f["exact"]} == stated
    assert truth["stats"]["omitted_facts"] == len(omitted)
    hows = Counter(f["how"] for f in truth["facts"])
    assert {"doc-heading", "rowspan", "quoted-original", "key", "signature", "fixed-width", "letter"} <= set(hows)


def test_omissions_are_of_asked_columns_and_about_a_tenth(truth, con):
    ents = Counter(e["table"] for e in truth["absent_entities"])
    for table, n in ents.items():
        total = con.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
        assert 0.08 <= n / total <= 0.15, (table, n, total)
    assert set(ents) == {"boats", "owners", "berths", "work_orders"}
    facts = truth["absent_facts"]
    assert {(f["table"], f["column"]) for f in facts} <= ASKED
    per = Counter((f["table"], f["key"]) for f in facts)
    assert max(per.values()) <= 2
    for table in ("boats", "berths", "owners", "work_orders"):
        left_in = con.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] - ents[table]
        assert 0.08 <= sum(t == table for t, _ in per) / left_in <= 0.15, table
    keys = {f"{f['table']}.{f['column']}@{f['key']}" for f in facts}
    assert keys == {k for g in truth["omitted"].values() if g["kind"] == "fact absent" for k in g["fact_keys"]}


def _entity_patterns(con, table, key):
    """Every way a left-out entity could be written: its names, its number, its owner's phone and e-mail."""
    if table == "owners":
        r = _row(con, table, key)
        return [r["last_name"], r["member_no"], r["phone"], r["phone"][1:], r["email"] or r["member_no"]]
    if table == "boats":
        return [_row(con, table, key)["name"]]
    return [key]


def test_absent_entities_are_named_nowhere(truth, con, texts):
    everything = "\n".join(texts.values())
    for e in truth["absent_entities"]:
        for p in _entity_patterns(con, e["table"], e["key"]):
            assert not re.search(r"\b" + re.escape(p) + r"\b", everything), (e, p)
        # nor is anything of it stated, nor of the rows that hang from it
        assert not [
            f
            for f in truth["facts"]
            if _split(f["fact_key"])[2].split("|")[0] == e["key"] and _split(f["fact_key"])[0] == e["table"]
        ]


def _spellings(con, table, col, v):
    """The ways this test knows a value of COL could be written."""
    if v is None:
        return set()
    if (table, col) in FK:
        return _names(con, FK[(table, col)], str(v))
    if isinstance(v, float):
        return {f"{v:.1f}", f"{round(v / 0.3048)} ft", f"{round(v)} m"}
    if isinstance(v, int):
        return {str(v), f"{v:,}", f"{v:.2f}", f"£{v / 1000:.1f}k"}
    if re.fullmatch(r"\d{4}-\d\d-\d\d", v):
        y, m, d = v.split("-")
        return {v, f"{d}/{m}/{y}", f"{int(d)} {MONTHS[int(m) - 1]}", f"{int(d)}th {MONTHS[int(m) - 1][:3]}"}
    return {v, v.lower(), v.upper()}


def test_absent_facts_are_written_nowhere_beside_their_entity(truth, con, texts):
    """No line naming the entity holds the value, and no document about the entity (its card, job sheet,
    e-mail or letter) holds it anywhere."""
    checked = 0
    for f in truth["absent_facts"]:
        table, key, col = f["table"], f["key"], f["column"]
        row = _row(con, table, key)
        names = (
            _names(con, "owners", str(row["owner_id"]))
            if table == "boat_owners"
            else {_row(con, "pontoons", key)["name"]}
            if table == "pontoons"
            else _names(con, table, key)
        )
        subject = f"boats@{row['boat_id']}" if table == "boat_owners" else f"{table}@{key}"
        # a whole value: not part of a longer word or number ('Mr' is not in 'Mrs', '9.5' not in '19.5')
        pats = [
            re.compile(r"(?<![\w£])(?<!\d[.,])" + re.escape(s) + r"(?!\w)(?![.,]\d)")
            for s in _spellings(con, table, col, row[col])
        ]
        for doc, text in texts.items():
            about = subject in truth["documents"][doc]["subjects"]
            for part in [text] if about else [ln for ln in text.splitlines() if any(n in ln for n in names)]:
                assert not any(p.search(part) for p in pats), (f, doc, part[:200])
                checked += 1
        assert checked, f
    assert checked > 40


def test_scorer_needs():
    mod = load_module("carrick_score_linking", CORPUS / "score_linking.py")
    needs = mod.Needs(str(DB))
    got = needs(
        "SELECT berths.annual_fee FROM boats JOIN berths ON boats.berth_no = berths.berth_no "
        "WHERE boats.name = 'Curlew'"
    )
    assert got == [[]] or got == []  # Curlew is ashore: no berth, no answer row
    got = needs(
        "SELECT berths.annual_fee FROM boats JOIN berths ON boats.berth_no = berths.berth_no "
        "WHERE boats.name = 'Stormy Petrel'"
    )
    assert len(got) == 1 and {k.split("@")[0] for k in got[0]} == {"berths.annual_fee", "boats.berth_no"}
    # an attribute of an ownership row implies the row
    got = needs(
        "SELECT boat_owners.role FROM boat_owners JOIN boats ON boat_owners.boat_id = boats.boat_id "
        "JOIN owners ON boat_owners.owner_id = owners.owner_id WHERE boats.name = 'Blue Jacket'"
    )
    assert got and all(len(r) == 1 and r[0].startswith("boat_owners.role@") for r in got)
