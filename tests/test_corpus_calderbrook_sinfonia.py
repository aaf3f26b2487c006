"""The Calderbrook Sinfonia corpus (benchmarks/corpora/calderbrook_sinfonia): its generators are
deterministic, every recorded surface sits at its offsets, and every exact statement agrees with the
database (a value in the way its `form` says it is written; a hop or association row named by one
of the rows it joins)."""

from __future__ import annotations

import datetime as dt
import html
import importlib.util
import os
import re
from pathlib import Path

import pytest

from tests.support.corpus_checks import assert_regenerates, read_only, read_truth

CORPUS = Path(__file__).resolve().parents[1] / "benchmarks" / "corpora" / "calderbrook_sinfonia"
DB = CORPUS / "calderbrook.sqlite"


@pytest.fixture(scope="module")
def truth():
    return read_truth(CORPUS)


@pytest.fixture(scope="module")
def con():
    yield from read_only(DB)


def test_generators_are_deterministic(tmp_path):
    assert_regenerates(CORPUS, DB, tmp_path)


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
    assert 100 <= len(docs) <= 150
    stems = [os.path.splitext(d)[0] for d in docs]
    assert len(stems) == len(set(stems))
    for d in truth["distractor_doc_ids"] + truth["no_fact_doc_ids"]:
        assert d in docs
    for sp in truth["split_facts"]:
        parts = [f for f in truth["facts"] if f.get("split_id") == sp["split_id"]]
        assert {f["doc_id"] for f in parts} == set(sp["doc_ids"])
    stated = {f["fact_key"] for f in truth["facts"]}
    for g in truth["omitted"].values():
        assert not stated & set(g["fact_keys"])


def test_surfaces_at_their_offsets(truth):
    texts = {}
    for f in truth["facts"]:
        if f["doc_id"] not in texts:
            texts[f["doc_id"]] = (CORPUS / "docs" / f["doc_id"]).read_text(encoding="utf-8")
        raw = texts[f["doc_id"]][f["start"] : f["end"]]
        if f["doc_id"].endswith(".html"):
            raw = html.unescape(raw)
        assert raw == f["surface"], f


MONTHS = {
    m: i
    for i, m in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ],
        1,
    )
}
FULL_DATE = {
    "date-words": "%d %B %Y",
    "date-abbrev": "%d %b %Y",
    "date-dots": "%d.%m.%Y",
    "date-dots-2y": "%d.%m.%y",
    "date-us": "%B %d, %Y",
    "date-uk": "%d/%m/%Y",
}
NO_YEAR = {
    "date-year-in-heading",
    "date-dm-season",
    "date-noyear",
    "date-ordinal-noyear",
    "date-ordinal-season",
    "date-dow-abbrev-season",
}
TRUE_WORDS = {
    "yes",
    "broadcast live on calder fm.",
    "live on calder fm",
    "we'll carry the concert live",
    "yes, live on calder fm",
    "step-free access from the car park.",
}
FALSE_WORDS = {"no", "no step-free access.", "there is no step-free access to the nave"}
INFORMAL = {
    "VN1": {"First Violin"},
    "VN2": {"Second Violin"},
    "VLA": {"Viola"},
    "VC": {"Cello", "cello"},
    "DB": {"Double Bass", "bass"},
    "FL": {"Flute"},
    "OB": {"Oboe"},
    "CL": {"Clarinet"},
    "BN": {"Bassoon"},
    "HN": {"Horn", "horns", "horn"},
    "TP": {"Trumpet"},
    "TB": {"Trombone"},
    "TIM": {"Timpani"},
}


def _day_month(s):
    """(day, month) of a date written without its year: 'Sat 14/9', 'Saturday 14 September', 'the 14th of
    September', 'Sat 16 Nov'."""
    m = re.search(r"(\d{1,2})/(\d{1,2})$", s)
    if m:
        return int(m.group(1)), int(m.group(2))
    m = re.search(r"(\d{1,2})(?:st|nd|rd|th)?(?: of)? ([A-Za-z]+)$", s)
    month = next(v for k, v in MONTHS.items() if k.startswith(m.group(2).lower()[:3]))
    return int(m.group(1)), month


def _money(s, form):
    if form == "gbp-k":
        return float(s.strip("£k")) * 1000
    if form == "gbp-eu":
        return float(s.replace("GBP ", "").replace(".", "").replace(",", "."))
    if form == "gbp-space-after":
        return float(s.replace(" GBP", "").replace(" ", ""))
    return float(s.replace("£", "").replace(",", ""))


def _names(con, table, key):
    """The ways a row of TABLE is named in the corpus."""
    if table == "sections":
        r = con.execute("SELECT * FROM sections WHERE section_code = ?", (key,)).fetchone()
        return {r["name"], r["name"].upper(), key} | INFORMAL.get(key, set())
    r = con.execute(f"SELECT * FROM {table} WHERE rowid = ?", (key,)).fetchone()
    if table == "players":
        fn, ln = r["first_name"], r["last_name"]
        return {f"{fn} {ln}", f"{ln}, {fn}", f"{ln.upper()} {fn[0]}.", f"{fn[0]}. {ln}"}
    if table == "artists":
        return {r["name"], r["name"].split()[-1], r["name"].split()[0]}
    if table == "venues":
        return {
            r["name"],
            r["name"].split()[-1],
            "Picture House" if r["name"].startswith("Picture House") else r["name"],
        }
    if table == "works":
        return {r["title"]}
    if table == "concerts":
        return {r["title"], r["code"]} | ({"Wayfarer concert"} if r["title"] == "Songs of the Wayfarer" else set())
    return set()


NICKNAME_TITLES = {
    "Enigma": "Enigma Variations",
    "Mozart 21": "Piano Concerto No. 21 in C major",
    "Eighth": "Symphony No. 8 in G major",
}


def _composite_names(con, table, vals):
    if table == "programme_items":
        r = con.execute("SELECT * FROM programme_items WHERE concert_id = ? AND item_no = ?", vals).fetchone()
        titles = _names(con, "works", r["work_id"])
        titles |= {k for k, v in NICKNAME_TITLES.items() if v in titles}
        return titles | _names(con, "concerts", r["concert_id"])
    r = con.execute("SELECT * FROM engagements WHERE concert_id = ? AND player_id = ?", vals).fetchone()
    return _names(con, "players", r["player_id"]) | _names(con, "concerts", r["concert_id"])


FK = {
    "section_code": "sections",
    "venue_id": "venues",
    "conductor_id": "artists",
    "principal_id": "players",
    "work_id": "works",
    "soloist_id": "artists",
}


def _check_value(v, s, form):
    if form == "null-stated":
        assert v is None
    elif form in FULL_DATE:
        assert dt.datetime.strptime(s, FULL_DATE[form]).date().isoformat() == v
    elif form == "date-ordinal":
        m = re.fullmatch(r"the (\d+)(?:st|nd|rd|th) of ([A-Za-z]+) (\d{4})", s)
        assert dt.date(int(m.group(3)), MONTHS[m.group(2).lower()], int(m.group(1))).isoformat() == v
    elif form in NO_YEAR:
        x = dt.date.fromisoformat(v)
        assert _day_month(s) == (x.day, x.month)
    elif form in ("gbp-sym", "gbp-short", "gbp-k", "gbp-eu", "gbp-space-after") or (
        form == "plain-number" and "." in s
    ):
        assert _money(s, form) == float(v)
    elif form == "money-words":
        assert s.endswith(" pounds")
    elif form in ("plain-number", "thousands", "space-thousands"):
        assert int(s.replace(",", "").replace(" ", "")) == v
    elif form == "number-unit":
        assert int(s.split()[0]) == v
    elif form == "duration-prime":
        assert int(s.rstrip("'")) == v
    elif form == "time-pm":
        h, rest = re.fullmatch(r"(\d+)(?:\.(\d\d))?pm", s).group(1, 2)
        assert f"{int(h) + 12}:{rest or '00'}" == v
    elif form == "time-words":
        assert (s, v) == ("half past two", "14:30")
    elif form in ("boolean-phrase", "boolean-word"):
        assert v == (1 if s.lower() in TRUE_WORDS else 0 if s.lower() in FALSE_WORDS else None)
    elif form == "instrument-agent-noun":
        assert {"pianist": "piano", "cellist": "cello", "violinist": "violin", "clarinettist": "clarinet"}[s] == v
    elif form in ("capitalised", "lowercase", "uppercase"):
        assert s.lower() == str(v).lower()
    elif form == "surname-only":
        assert str(v).endswith(s)
    elif form == "name-reordered-upper":
        last, first = s.split(", ")
        assert f"{first} {last}".lower() == str(v).lower() or str(v).lower().startswith(first.lower())
    else:
        assert form in ("verbatim", "code", "long-text", "name"), form
        assert s == str(v)


def test_exact_statements_agree_with_the_database(truth, con):
    checked, bad = 0, []
    for f in truth["facts"]:
        if not f["exact"]:
            continue
        table, rest = f["fact_key"].split(".", 1)
        col, key = rest.split("@", 1)
        pks = [r[1] for r in sorted(con.execute(f"PRAGMA table_info({table})"), key=lambda r: r[5]) if r[5]]
        vals = key.split("|")
        row = con.execute(f"SELECT * FROM {table} WHERE " + " AND ".join(f"{p} = ?" for p in pks), vals).fetchone()
        assert row is not None, f
        s = f["surface"]
        if f["form"] == "code" and s == key:
            pass  # the row named by its own key beside the value ('First violins (VN1)')
        elif f["how"] == "split" and f["form"] == "name-reordered":
            if s not in _names(con, table, int(vals[0])):
                bad.append(str(f))
        elif len(pks) > 1 and col == pks[-1]:
            if s not in _composite_names(con, table, vals):
                bad.append(str(f))
        elif col in FK:
            own = _composite_names(con, table, vals) if len(pks) > 1 else _names(con, table, vals[0])
            if f["form"] == "null-stated":
                assert row[col] is None, f
            else:
                assert row[col] is not None, f
                if s not in _names(con, FK[col], row[col]) | own:
                    bad.append(str(f))
        else:
            try:
                _check_value(row[col], s, f["form"])
            except (AssertionError, AttributeError, ValueError, StopIteration):
                bad.append(f"{f} vs {row[col]!r}")
        checked += 1
    assert not bad, "\n".join(bad[:20])
    assert checked > 2000


def test_scorer_needs():
    spec = importlib.util.spec_from_file_location("calderbrook_score_linking", CORPUS / "score_linking.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    needs = mod.Needs(str(DB))
    # a hop keyed by a section code
    assert needs(
        "SELECT sections.name FROM players JOIN sections ON players.section_code = sections.section_code "
        "WHERE players.first_name = 'David' AND players.last_name = 'Marsh'"
    ) == [["players.section_code@17"]]
    # a composite-key association row
    rows = needs(
        "SELECT engagements.fee FROM engagements JOIN concerts ON engagements.concert_id = concerts.concert_id "
        "JOIN players ON engagements.player_id = players.player_id WHERE concerts.title = 'Sea Interludes' "
        "AND players.first_name = 'Tom' AND players.last_name = 'Hale'"
    )
    assert rows == [["engagements.fee@8|31"]]
