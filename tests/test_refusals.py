"""Questions to decline (issue 26 item 1): every kind generated on the demo and Northwind, each
re-established by SQL written by hand (tests/support/refusal_check.py), on SQLite and, when
reachable, PostgreSQL and MariaDB; pairing and balance; the option's wiring and its default."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import ragdx
from ragdx.demo.database import build_demo_database
from ragdx.demo.run import DEMO_OMIT, DEMO_OMIT_TABLES
from ragdx.errors import RagdxError
from ragdx.gen.dataset import read_manifest, read_records
from ragdx.gen.options import REFUSAL_KINDS, gen_options
from ragdx.gen.refusals import near_misses, ood_topics, partner_group_id, shortened_references
from tests.conftest import DATA, need
from tests.support.copy_sqlite import copy_sqlite
from tests.support.refusal_check import check

NORTHWIND = DATA / "northwind" / "northwind.sqlite"
ALL_STYLES = ["short", "long", "interrogative", "directive", "formal", "casual"]


def _generate(url: str, out: Path, *, styles=ALL_STYLES, n: int = 2, omit=DEMO_OMIT, omit_tables=DEMO_OMIT_TABLES,
              refusals: int = 1, kinds=None):
    options = gen_options(None, {"refusals": refusals, "refusal_kinds": kinds, "styles": styles, "n": n,
                                 "max_groups_per_template": 12})
    ragdx.generate_dataset(url, out / "dataset", options, kb=out / "kb", omit=omit, omit_tables=omit_tables)
    return read_records(out / "dataset")


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    out = tmp_path_factory.mktemp("refusals")
    url = f"sqlite:///{build_demo_database(out / 'demo.sqlite')}"
    return url, out, _generate(url, out)


def _assert_all_right(records, url: str, kb: Path) -> Counter:
    counts, problems = check(records, url, kb)
    assert problems == []
    assert set(counts) == set(REFUSAL_KINDS), counts
    return counts


def test_demo_every_kind_matches_hand_written_sql(demo):
    url, out, records = demo
    counts = _assert_all_right(records, url, out / "kb")
    assert read_manifest(out / "dataset")["refusal_groups"] == dict(counts)


def test_demo_refusals_read_in_every_style_and_pair_one_to_one(demo):
    _, _, records = demo
    refusals = [r for r in records if r.refusal_kind]
    by_kind = {k: {r.style for r in refusals if r.refusal_kind == k} for k in REFUSAL_KINDS}
    assert all(styles == set(ALL_STYLES) for styles in by_kind.values()), by_kind
    # "always refuse" and "never refuse" score the same on the pairs: as many answerable
    # partner records as refusal records
    partners = {partner_group_id(r) for r in refusals}
    paired = [r for r in records if r.group_id in partners]
    assert len(paired) == len(refusals) and not any(r.refusal_kind for r in paired)
    # the texts are questions about the value, not the value's placeholder
    assert all("[" not in r.query for r in refusals)
    # no row named by the schema's own noun ("the faculty 'Faculty'")
    assert not any(r.refusal_kind == "ambiguous_reference" and list(r.params.values()) == ["Faculty"]
                   for r in refusals)
    premise = next(r for r in refusals if r.refusal_kind == "false_premise" and r.style == "interrogative")
    assert premise.answer_text and premise.answer_kind == "single" and premise.kb_supported is not None


def test_omitted_fact_replaces_the_answerable_copy_of_the_same_question(demo):
    _, _, records = demo
    omitted = [r for r in records if r.refusal_kind == "omitted_fact"]
    asked = {(r.query, r.style) for r in records if not r.refusal_kind}
    assert omitted and not any((r.query, r.style) in asked for r in omitted)
    assert all(r.kb_supported is False for r in omitted)


def test_off_by_default_and_bad_kinds_named(tmp_path):
    assert gen_options(None).refusals == 0
    url = f"sqlite:///{build_demo_database(tmp_path / 'demo.sqlite')}"
    ragdx.generate_dataset(url, tmp_path / "plain", styles=["short"], n=1, max_groups=2)
    assert not any(r.refusal_kind for r in read_records(tmp_path / "plain"))
    assert "refusal_groups" not in read_manifest(tmp_path / "plain")
    with pytest.raises(RagdxError, match="refusal_kinds.*expected one of"):
        gen_options(None, {"refusal_kinds": ["false_premise", "rude"]})
    with pytest.raises(RagdxError, match="--refusals"):
        gen_options(None, {"refusals": -1}, names={"refusals": "--refusals"})


def test_only_the_kinds_asked_for(tmp_path):
    url = f"sqlite:///{build_demo_database(tmp_path / 'demo.sqlite')}"
    records = _generate(url, tmp_path, styles=["short"], n=1, kinds=["absent_entity"], refusals=2)
    kinds = Counter(r.refusal_kind for r in records if r.refusal_kind)
    assert set(kinds) == {"absent_entity"}
    assert check(records, url, tmp_path / "kb")[1] == []


def test_cli_flags(tmp_path):
    from typer.testing import CliRunner

    from ragdx.cli.main import app

    url = f"sqlite:///{build_demo_database(tmp_path / 'demo.sqlite')}"
    runner = CliRunner()
    sql, text = tmp_path / "sql.yaml", tmp_path / "text.yaml"
    assert runner.invoke(app, ["templates", "sql", "--db", url, "--out", str(sql)]).exit_code == 0
    assert runner.invoke(app, ["templates", "text", "--db", url, "--sql", str(sql), "--out", str(text),
                               "--style", "short", "--n", "1"]).exit_code == 0
    bad = runner.invoke(app, ["gen", "--db", url, "--sql", str(sql), "--text", str(text), "--out",
                              str(tmp_path / "bad"), "--refusal-kind", "rude", "--refusals", "1"])
    # in-process the RagdxError reaches the runner; ``ragdx.cli.main`` turns it into exit code 2
    assert isinstance(bad.exception, RagdxError) and bad.exception.exit_code == 2
    assert "--refusal-kind" in str(bad.exception) and not (tmp_path / "bad").exists()
    ok = runner.invoke(app, ["gen", "--db", url, "--sql", str(sql), "--text", str(text), "--out",
                             str(tmp_path / "ds"), "--refusals", "1", "--max-groups-per-template", "6", "--n", "1",
                             "--style", "short"])
    assert ok.exit_code == 0, ok.output
    said = " ".join(ok.output.split())  # rich wraps lines at the terminal's width
    assert "questions to decline" in said and "false premise" in said
    kinds = {r.refusal_kind for r in read_records(tmp_path / "ds")}
    assert {"false_premise", "absent_entity", "ambiguous_reference", "out_of_domain"} <= kinds


def test_near_misses_shortenings_and_topics():
    import random

    misses = near_misses("Marchetti", random.Random(0))
    assert misses and all(m != "Marchetti" and len(m) == len("Marchetti") for m in misses)
    assert all(m[0] == "M" and m[-1] == "i" for m in misses)  # first and last letters kept
    assert shortened_references(["Master in Robotics", "Master in Finance", "Bachelor in Law"]) == ["Master"]
    assert shortened_references(["Anna Nowak", "Jan Nowak", "Nowak"]) == []  # a whole value: not a shortening
    assert shortened_references(["Anna Nowak", "Jan Nowak"]) == ["Nowak"]

    class Table:
        def __init__(self, name, cols):
            self.name = name
            self.columns = [type("C", (), {"name": c})() for c in cols]

    schema = type("S", (), {"tables": {"Weather": Table("Weather", ["City", "RainMm"])}})()
    nps = [np for np, _ in ood_topics(schema)]
    assert not any("weather" in np for np in nps) and any("recipe" in np for np in nps)


@pytest.mark.slow
def test_northwind_every_kind_matches_hand_written_sql(tmp_path):
    db = need(NORTHWIND)
    url = f"sqlite:///{db}"
    records = _generate(url, tmp_path, styles=["short", "interrogative"], n=1, omit=("Customers.ContactTitle",),
                        omit_tables=())
    counts = _assert_all_right(records, url, tmp_path / "kb")
    assert counts["false_premise"] >= 20 and counts["ambiguous_reference"] >= 5


@pytest.mark.slow
@pytest.mark.parametrize("server", ["postgresql", "mysql"])
def test_demo_on_servers_matches_hand_written_sql(server, request, tmp_path):
    dbs = request.getfixturevalue("pg_databases" if server == "postgresql" else "mysql_databases")
    url = dbs.new()
    copy_sqlite(build_demo_database(tmp_path / "demo.sqlite"), url)
    records = _generate(url, tmp_path, styles=["short", "formal"], n=1)
    _assert_all_right(records, url, tmp_path / "kb")


_OFFICES = [("1", "San Francisco"), ("2", "Boston"), ("3", "NYC"), ("4", "Paris"), ("6", "Sydney")]
# classicmodels' sales staff (a public sample database): three Pattersons in three offices
_EMPLOYEES = [("Diane", "Murphy", "President", "1"), ("Mary", "Patterson", "VP Sales", "1"),
              ("Jeff", "Firrelli", "VP Marketing", "1"), ("William", "Patterson", "Sales Manager (APAC)", "6"),
              ("Gerard", "Bondur", "Sale Manager (EMEA)", "4"), ("Anthony", "Bow", "Sales Manager (NA)", "1"),
              ("Leslie", "Jennings", "Sales Rep", "1"), ("Leslie", "Thompson", "Sales Rep", "1"),
              ("Julie", "Firrelli", "Sales Rep", "2"), ("Steve", "Patterson", "Sales Rep", "2"),
              ("Foon Yue", "Tseng", "Sales Rep", "3"), ("George", "Vanauf", "Sales Rep", "3"),
              ("Loui", "Bondur", "Sales Rep", "4"), ("Larry", "Bott", "Sales Rep", "4"),
              ("Andy", "Fixter", "Sales Rep", "6"), ("Peter", "Marsh", "Sales Rep", "6")]


def test_a_last_name_rows_share_is_ambiguous(tmp_path):
    """A row named by first and last name, asked by the last name alone ("Which office does
    Patterson work in?"): the template asked by that name alone, paired with a unique one."""
    import sqlite3

    path = tmp_path / "sales.sqlite"
    with sqlite3.connect(path) as conn:
        conn.executescript("""
            CREATE TABLE Offices (officeCode TEXT PRIMARY KEY, city TEXT NOT NULL);
            CREATE TABLE Employees (employeeNumber INTEGER PRIMARY KEY, firstName TEXT NOT NULL,
                                    lastName TEXT NOT NULL, jobTitle TEXT NOT NULL,
                                    officeCode TEXT NOT NULL REFERENCES Offices (officeCode));""")
        conn.executemany("INSERT INTO Offices VALUES (?, ?)", _OFFICES)
        conn.executemany("INSERT INTO Employees VALUES (?, ?, ?, ?, ?)",
                         [(1000 + i, *e) for i, e in enumerate(_EMPLOYEES)])
    url = f"sqlite:///{path}"
    records = _generate(url, tmp_path, styles=["interrogative"], n=1, omit=(), omit_tables=(),
                        kinds=["ambiguous_reference"], refusals=1)
    counts, problems = check(records, url, tmp_path / "kb")
    assert problems == [] and counts["ambiguous_reference"] >= 2
    asked = {r.params.get("Employees.lastName") for r in records if r.refusal_kind}
    assert asked <= {"Patterson", "Firrelli", "Bondur"} and "Patterson" in asked
    office = [r.query for r in records if r.refusal_kind and "city" in r.query]
    assert office, [r.query for r in records if r.refusal_kind]


def test_a_balanced_sample_keeps_its_shape_and_the_pairs(tmp_path):
    """With --per-group 1 a partner the dataset has keeps one phrasing per style: its refusal too."""
    url = f"sqlite:///{build_demo_database(tmp_path / 'demo.sqlite')}"
    options = gen_options(None, {"refusals": 1, "refusal_kinds": ["absent_entity", "ambiguous_reference"],
                                 "styles": ["short", "casual"], "n": 3, "per_group": 1, "max_groups_per_template": 6})
    ragdx.generate_dataset(url, tmp_path / "ds", options, kb=tmp_path / "kb")
    records = read_records(tmp_path / "ds")
    counts, problems = check(records, url, tmp_path / "kb")
    assert problems == [] and counts["absent_entity"] and counts["ambiguous_reference"]
    per_cell = Counter((r.group_id, r.style) for r in records)
    assert set(per_cell.values()) == {1}


def test_shortenings_are_names_and_premises_are_words():
    from ragdx.gen.refusals import shortened_references

    # a legal form, a code and punctuation are not what people shorten a name to
    assert shortened_references(["Pavlova, Ltd.", "Specialty Biscuits, Ltd.", "Tokyo Traders"]) == []
    assert shortened_references(["Chef Anton's Cajun Seasoning", "Chef Anton's Gumbo Mix"]) == \
        ["Chef Anton's", "Chef"]
    assert shortened_references(["A1 B", "A1 C"]) == [] and shortened_references(["New York", "New Delhi"]) == []
