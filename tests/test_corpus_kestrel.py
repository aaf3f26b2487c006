"""The Kestrel Ashby corpus (benchmarks/corpora/kestrel): its generators are deterministic, its
truth's offsets and values agree with the documents and the database, and its scorer gives the
figures computed by hand on a tiny dataset.

Rule by which an exact statement's surface must normalise to the database value (checked below):
  * a plain column: the surface equals the value, after the form's rendering is undone — case for
    lowercase/uppercase, a currency sign for symbol, a field label holding the value for label ("Project
    lead"), a date format for the date-* forms, a number for money-*/plain-number/
    number-unit (thousands separators, `k`, `Mio.`, currency signs and codes dropped; a comma is
    the decimal mark in the -eu, nordic and mio forms), a country name for native-name/
    english-name; null-stated/null-dash state that the value is NULL; a ditto mark repeats the
    value of the same column in the document's previous statement of that column;
  * a foreign key stated as a hop: the surface names, uniquely, either the row that holds the key
    or the row it points to, and that row is the right one (an office by city or code, a person by
    any of the ways the corpus writes names — initials through the legend of their document —, a
    client, service or project by name, code or number);
  * the existence of a composite-key row (project_staff, invoices): the row exists and the surface
    names one of its parts (a ditto mark: the project of the previous line).
Approximate statements (exact false) only need their row and a non-NULL value.
"""

from __future__ import annotations

import datetime as dt
import filecmp
import html
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.corpus_checks import read_only, read_truth, table_rows

CORPUS = Path(__file__).resolve().parents[1] / "benchmarks" / "corpora" / "kestrel"
DB = CORPUS / "kestrel.sqlite"


@pytest.fixture(scope="module")
def truth():
    return read_truth(CORPUS)


@pytest.fixture(scope="module")
def con():
    yield from read_only(DB)


def _scorer():
    spec = importlib.util.spec_from_file_location("kestrel_score_linking", CORPUS / "score_linking.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_generators_are_deterministic(tmp_path):
    subprocess.run([sys.executable, str(CORPUS / "make_db.py"), "--out", str(tmp_path / "kestrel.sqlite")], check=True)
    assert table_rows(tmp_path / "kestrel.sqlite") == table_rows(DB)
    subprocess.run(
        [
            sys.executable,
            str(CORPUS / "make_corpus.py"),
            "--db",
            str(tmp_path / "kestrel.sqlite"),
            "--out",
            str(tmp_path),
        ],
        check=True,
        capture_output=True,
    )
    assert (tmp_path / "truth.json").read_bytes() == (CORPUS / "truth.json").read_bytes()
    ours = sorted(p.relative_to(tmp_path / "docs") for p in (tmp_path / "docs").rglob("*") if p.is_file())
    committed = sorted(p.relative_to(CORPUS / "docs") for p in (CORPUS / "docs").rglob("*") if p.is_file())
    assert ours == committed
    _, mismatch, errors = filecmp.cmpfiles(tmp_path / "docs", CORPUS / "docs", [str(p) for p in ours], shallow=False)
    assert not mismatch and not errors


def test_truth_schema_and_offsets(truth):
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
    docs = {d["doc_id"] for d in truth["documents"]}
    assert len({os.path.splitext(d)[0] for d in docs}) == len(docs)
    texts = {d: (CORPUS / "docs" / d).read_text(encoding="utf-8") for d in docs}
    for f in truth["facts"]:
        assert set(f) <= {"fact_key", "doc_id", "surface", "start", "end", "exact", "how", "form", "split_id"}
        text = texts[f["doc_id"]]
        want = html.escape(f["surface"], quote=False) if f["doc_id"].endswith(".html") else f["surface"]
        assert text[f["start"] : f["end"]] == want, f
    for d in truth["distractor_doc_ids"] + truth["no_fact_doc_ids"]:
        assert d in docs and not any(f["doc_id"] == d for f in truth["facts"])
    for s in truth["split_facts"]:
        assert all(d in docs for d in s["doc_ids"])
        assert any(f.get("split_id") == s["split_id"] and f["fact_key"] == s["fact_key"] for f in truth["facts"])
    st = truth["stats"]
    assert st["documents"] == len(docs) and st["statements"] == len(truth["facts"])


# --- values as written -> database values --------------------------------------------------------

COUNTRY = {
    "United Kingdom": "GB",
    "Germany": "DE",
    "Deutschland": "DE",
    "Denmark": "DK",
    "Danmark": "DK",
    "Norway": "NO",
    "Norge": "NO",
    "Sweden": "SE",
    "Sverige": "SE",
    "the Netherlands": "NL",
    "Nederland": "NL",
    "France": "FR",
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
MON3 = {m[:3]: i for m, i in MONTHS.items()}


def parse_date(s, form):
    fmts = {
        "iso": "%Y-%m-%d",
        "date-words": "%d %B %Y",
        "date-words-us": "%B %d, %Y",
        "date-us": "%m/%d/%Y",
        "date-eu": "%d.%m.%Y",
        "date-abbrev": "%d %b %Y",
    }
    if form in fmts:
        return dt.datetime.strptime(s, fmts[form]).date().isoformat()
    if form == "date-apos":  # 3rd Mar '19
        m = re.fullmatch(r"(\d+)(?:st|nd|rd|th) ([A-Z][a-z]{2}) '(\d\d)", s)
        return dt.date(2000 + int(m[3]), MON3[m[2]], int(m[1])).isoformat()
    if form == "date-ordinal-us":  # March the 3rd, 2019
        m = re.fullmatch(r"([A-Z][a-z]+) the (\d+)(?:st|nd|rd|th), (\d{4})", s)
        return dt.date(int(m[3]), MONTHS[m[1]], int(m[2])).isoformat()
    raise AssertionError(form)


def parse_number(s, form):
    mult = 1.0
    s = s.replace("Mio.", "M")
    for tok in ("EUR", "GBP", "SEK", "NOK", "DKK", "kr", "€", "£", " h"):
        s = s.replace(tok, "")
    s = s.strip()
    if s.endswith("M"):
        mult, s = 1e6, s[:-1]
    elif s.endswith("k"):
        mult, s = 1e3, s[:-1]
    s = s.strip()
    if form in ("money-code-eu", "money-eu-sym", "money-nordic", "money-mio"):
        s = s.replace(".", "").replace(" ", "").replace(",", ".")
    else:
        s = s.replace(",", "").replace(" ", "")
    return float(s) * mult


def person_names(r):
    first, last, hon, suf = r["first_name"], r["last_name"], r["honorific"], r["suffix"]
    s = f" {suf}" if suf else ""
    out = {f"{first} {last}{s}", f"{first[0]}. {last}{s}", f"{last}, {first}" + (f", {suf}" if suf else "")}
    if hon:
        out |= {f"{hon} {first} {last}{s}", f"{hon} {first[0]}. {last}{s}"}
    return out


def resolve(con, table, surface, form, doc_text):
    """The primary keys of TABLE's rows that SURFACE names."""
    if table == "staff":
        if form == "initials":  # through the legend of the document
            m = re.search(r"(?:^|, |: )" + re.escape(surface) + r" = ([^,\n]+)", doc_text)
            assert m, surface
            surface = m[1]
        return {r["staff_id"] for r in con.execute("SELECT * FROM staff") if surface in person_names(r)}
    if table == "offices":
        return {
            r[0]
            for r in con.execute(
                "SELECT office_code FROM offices WHERE city = ? OR office_code = ?", (surface, surface)
            )
        }
    if table == "clients":
        return {r[0] for r in con.execute("SELECT client_id, name FROM clients") if surface in (r[1], r[1].upper())}
    if table == "services":
        return {
            r[0]
            for r in con.execute("SELECT service_code, name FROM services")
            if surface in (r[0], r[1], r[1].lower())
        }
    if table == "projects":
        return {
            r[0]
            for r in con.execute("SELECT project_id, title FROM projects")
            if surface in (str(r[0]), r[1]) or surface.split("/")[0] == str(r[0])
        }
    raise AssertionError(table)


def test_every_fact_names_a_row_with_that_value(truth, con):
    pks, fks = {}, {}
    for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        info = con.execute(f'PRAGMA table_info("{t}")').fetchall()
        pks[t] = [r[1] for r in sorted(info, key=lambda r: r[5]) if r[5] > 0]
        fks[t] = {r[3]: r[2] for r in con.execute(f'PRAGMA foreign_key_list("{t}")')}
    texts = {}
    last_value = {}  # (doc, table.column) -> the value of the previous statement of that column
    last_project = {}
    checked = 0
    for f in truth["facts"]:
        doc = f["doc_id"]
        text = texts.setdefault(doc, (CORPUS / "docs" / doc).read_text(encoding="utf-8"))
        tc, key = f["fact_key"].split("@", 1)
        table, col = tc.split(".", 1)
        parts = key.split("|")
        assert len(parts) == len(pks[table]), f
        where = " AND ".join(f'"{c}" = ?' for c in pks[table])
        row = con.execute(f'SELECT * FROM "{table}" WHERE {where}', parts).fetchone()
        assert row is not None, f
        value = row[col]
        s, form = f["surface"], f["form"]
        if not f["exact"]:
            assert value is not None, f
            continue
        checked += 1
        if len(pks[table]) > 1 and col in pks[table]:  # the row's existence
            if form == "ditto-project":
                assert last_project[doc] == row["project_id"], f
            elif table == "invoices":
                assert s.split("/")[-1] == str(row["invoice_no"]), f
            else:
                hits = resolve(con, "staff", s, form, text) if form != "code" else {int(s)}
                assert hits & {row["staff_id"], row["project_id"]} and len(hits) == 1, f
            if table == "invoices":
                last_project[doc] = row["project_id"]
            continue
        if col in fks[table]:  # a hop: the surface names the holder or the target, uniquely
            target = fks[table][col]
            hits_t = resolve(con, target, s, form, text)
            hits_h = resolve(con, table, s, form, text) if table in ("staff", "projects") else set()
            ok = (hits_t == {value}) or (hits_h == {row[pks[table][0]]})
            assert ok, (f, hits_t, hits_h, value)
            continue
        if form == "ditto":
            assert last_value[(doc, tc)] == value, f
        elif form in ("null-stated", "null-dash"):
            assert value is None, f
        elif form in ("verbatim", "code", "iso") and not (form == "iso" and col == "country_code"):
            assert s == str(value), f
        elif form == "iso":
            assert s == value, f
        elif form in ("lowercase", "uppercase"):
            assert s.casefold() == str(value).casefold(), f
        elif form == "label":  # a field label that holds the value ("Project lead")
            assert str(value).casefold() in s.casefold(), f
        elif form == "symbol":
            assert {"€": "EUR", "£": "GBP"}[s] == value, f
        elif form in ("native-name", "english-name"):
            assert COUNTRY[s] == value, f
        elif form.startswith("date-"):
            assert parse_date(s, form) == value, f
        elif form.startswith("money-") or form in ("plain-number", "number-unit"):
            assert abs(parse_number(s, form) - float(value)) < 0.005, f
        else:
            raise AssertionError(f"no rule for form {form}: {f}")
        last_value[(doc, tc)] = value
    assert checked > 1000


def test_omitted_facts_are_not_stated(truth):
    stated = {f["fact_key"] for f in truth["facts"]}
    for group, g in truth["omitted"].items():
        for k in g.get("fact_keys", []):
            assert k not in stated, (group, k)


# --- the scorer on a tiny hand-made dataset ------------------------------------------------------


def test_scorer_on_a_hand_made_dataset(tmp_path, con):
    sl = _scorer()
    title = con.execute("SELECT title FROM projects WHERE project_id = 1003").fetchone()[0]
    assert con.execute("SELECT role FROM project_staff WHERE project_id = 1003 AND staff_id = 37").fetchone()[0]
    needs = sl.Needs(str(DB))
    sql_team = (
        f"SELECT staff.first_name, staff.last_name FROM project_staff JOIN projects ON project_staff.project_id"
        f" = projects.project_id JOIN staff ON project_staff.staff_id = staff.staff_id WHERE projects.title = '{title}'"
    )
    team = [r[0] for r in con.execute("SELECT staff_id FROM project_staff WHERE project_id = 1003 ORDER BY staff_id")]
    assert sorted(map(tuple, needs(sql_team))) == sorted((f"project_staff.staff_id@1003|{s}",) for s in team)
    assert sl.stem("clients/export-c-004.txt") == "clients/export-c-004" and sl.stem("a/b.csv") == "a/b.csv"

    sqls = [
        "SELECT city FROM offices WHERE office_code = 'K-01'",
        "SELECT Manager.first_name, Manager.last_name FROM staff JOIN staff AS Manager ON staff.reports_to = "
        "Manager.staff_id WHERE staff.first_name = 'Katrin' AND staff.last_name = 'Meyer'",
        f'SELECT "ps"."role" FROM "project_staff" AS "ps" '
        f'JOIN "projects" ON "ps"."project_id" = "projects"."project_id" '
        f'JOIN "staff" ON "ps"."staff_id" = "staff"."staff_id" WHERE "projects"."title" = \'{title}\' '
        f'AND "staff"."first_name" = \'Ole\' AND "staff"."last_name" = \'Petersen\'',
        "SELECT service_code FROM services WHERE name = 'Foundation design'",
    ]
    assert [needs(q) for q in sqls] == [
        [["offices.city@K-01"]],
        [["staff.reports_to@7"]],
        [["project_staff.role@1003|37"]],
        [["services.name@GEO-2"]],
    ]

    def fact(k, d, how, exact=True, split=None):
        x = {
            "fact_key": k,
            "doc_id": d,
            "surface": "x",
            "start": 0,
            "end": 1,
            "exact": exact,
            "how": how,
            "form": "verbatim",
        }
        if split:
            x["split_id"] = split
        return x

    truth = {
        "database": str(DB),
        "facts": [
            fact("offices.city@K-01", "a.md", "table"),
            fact("offices.city@K-01", "b.md", "prose"),
            fact("offices.city@K-01", "c.md", "prose", exact=False),
            fact("project_staff.role@1003|37", "h.txt", "split", split="s1"),
            fact("services.name@GEO-2", "a.md", "qa"),
        ],
        "split_facts": [{"fact_key": "project_staff.role@1003|37", "split_id": "s1", "doc_ids": ["g.md", "h.txt"]}],
        "distractor_doc_ids": ["d.md"],
        "no_fact_doc_ids": ["e.md"],
        "omitted": {},
        "documents": [],
        "stats": {},
    }
    (tmp_path / "truth.json").write_text(json.dumps(truth), encoding="utf-8")
    ds = tmp_path / "ds"
    ds.mkdir()
    recs = [
        {
            "sql": sqls[0],
            "gold_document_ids": ["a", "c", "d"],
            "kb_supported": True,
            "facts": ["offices.city@K-01"],
            "table": "offices",
        },
        {"sql": sqls[1], "gold_document_ids": ["e"], "kb_supported": False, "facts": [], "table": "staff"},
        {
            "sql": sqls[2],
            "gold_document_ids": ["g", "h"],
            "kb_supported": None,
            "facts": ["project_staff.project_id@1003|37", "project_staff.role@1003|37"],
            "table": "projects,staff",
        },
        {
            "sql": sqls[3],
            "gold_document_ids": [],
            "kb_supported": True,
            "facts": ["services.name@GEO-2"],
            "table": "services",
        },
    ]
    (ds / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    res = sl.score(str(ds), str(tmp_path / "truth.json"), str(DB))
    # by hand: R1 tp a, fp c (approximate) + d (distractor), fn b; R2 fp e; R3 tp g, h; R4 fn a
    assert (res["tp"], res["fp"], res["fn"]) == (3, 3, 2)
    assert res["gold_precision"] == pytest.approx(0.5) and res["gold_recall"] == pytest.approx(0.6)
    assert res["gold_precision_lenient"] == pytest.approx(4 / 6)
    assert res["kb_supported_accuracy"] == pytest.approx(0.75)
    assert res["false_positive_kinds"] == {
        "distractor document": 1,
        "states no needed fact": 1,
        "states the fact only approximately": 1,
    }
    assert res["recall_by_how"] == {"prose": [0, 1], "qa": [0, 1], "split": [2, 2], "table": [1, 1]}
    assert res["records_whose_ragdx_facts_lack_a_needed_fact"] == 1
    assert res["kb_supported_confusion"]["truth=True ragdx=None"] == 1
    out = subprocess.run(
        [
            sys.executable,
            str(CORPUS / "score_linking.py"),
            str(ds),
            "--truth",
            str(tmp_path / "truth.json"),
            "--db",
            str(DB),
            "--json",
            str(tmp_path / "f.json"),
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert "precision  50.0 %  recall  60.0 %" in out
    assert json.loads((tmp_path / "f.json").read_text())["tp"] == 3
