"""The links statistic of the knowledge-boundary tester (issue 25): for a question that comes with
its ragdx record, whether the evidence linker finds each fact its answer needs stated in the corpus."""

from __future__ import annotations

import json
import math
import re
import sqlite3

import numpy as np
import pytest

from ragdx.errors import RagdxError
from ragdx.gen.dataset import QARecord
from ragdx.relevance.links import TYPICAL_UNLINKED, HopEvidence, LinkStatistic, link_score
from ragdx.relevance.tester import RelevanceTester

FIRST = ["Alba", "Brenna", "Casimir", "Delphine", "Evander", "Fenella", "Gideon", "Hestia", "Ignatius", "Juniper",
         "Kasimir", "Leocadia", "Marius", "Noemi", "Oswin", "Perpetua", "Quillon", "Rosalind", "Severin", "Tamsin",
         "Ulrika", "Valentin", "Wilhelmina", "Xavier", "Yolanda", "Zacharias", "Aurelia", "Bartholomew",
         "Cordelia", "Desmond", "Eleanora", "Florian", "Griselda", "Horatio", "Isolde", "Jasper"]
LAST = ["Ashdown", "Brightwater", "Coldharbour", "Dunmore", "Elderberry", "Fairweather"]
CITIES = ["Lisbon", "Tromsø", "Ghent", "Bergamo", "Aarhus", "Leeds", "Porto"]
#: the people whose page leaves out the birth date: the writer's truth in this test
NO_BIRTH = {3, 11, 19, 27}


def _people() -> list[str]:
    return [f"{f} {LAST[i % len(LAST)]}" for i, f in enumerate(FIRST)]


def _born(n: int) -> str:
    return f"19{50 + n}-0{1 + n % 9}-1{n % 9}"


@pytest.fixture()
def staff(tmp_path):
    """A real SQLite database and a corpus of one page per person, some birth dates left out."""
    db = tmp_path / "staff.sqlite"
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE Staff (Name TEXT PRIMARY KEY, City TEXT, Born TEXT)")
        con.executemany("INSERT INTO Staff VALUES (?, ?, ?)",
                        [(p, CITIES[n % len(CITIES)], _born(n)) for n, p in enumerate(_people())])
    docs = []
    for n, p in enumerate(_people()):
        born = "" if n in NO_BIRTH else f" {p.split()[0]} was born on {_born(n)}."
        docs.append((f"staff/{p.lower().replace(' ', '-')}",
                     f"# {p}\n\n{p} works in our {CITIES[n % len(CITIES)]} office.{born} "
                     f"A colleague since {2000 + n}."))
    return f"sqlite:///{db}", docs


def _record(person: str, column: str, query: str) -> QARecord:
    return QARecord(id=f"{person}-{column}", group_id=f"{person}-{column}", sql_template_id="s",
                    text_template_id="t", style="short", schema="Staff", table="Staff",
                    params={"Staff.Name": person}, sql="", query=query, answer_columns=[column],
                    answer_rows=[["x"]], answer_text="x", answer_kind="single", entities=[f"Staff:{person}"],
                    facts=[f"Staff.Name@{person}", f"Staff.{column}@{person}"])


def _sets() -> tuple[list[QARecord], list[QARecord], list[QARecord]]:
    """(calibration, held-out in-knowledge, fact left out) records, split by person (no paraphrase
    of one question on both sides)."""
    cal, held, absent = [], [], []
    for n, p in enumerate(_people()):
        recs = [_record(p, "City", f"In which city does '{p}' work?"),
                _record(p, "Born", f"When was '{p}' born?")]
        if n in NO_BIRTH:
            absent.append(recs[1])
            recs = recs[:1]
        (cal if n % 2 == 0 else held).extend(recs)
    return cal, held, absent


def test_scores_by_basis_and_what_gets_none():
    assert link_score({"kb_basis": "linked", "evidence_confidence": 0.9}) == pytest.approx(0.1)
    assert link_score({"kb_basis": "approximate", "evidence_confidence": 0.9}) == pytest.approx(1.1)
    # unlinked, read back without its graded evidence: one fact of two without a stating passage
    half = {"kb_basis": "unlinked", "evidence_confidence": 0.0, "evidence_sets": [["d"], []],
            "entity_document_ids": ["d"]}
    assert link_score(half) == pytest.approx(2.5)
    assert link_score({"kb_basis": "unlinked", "evidence_sets": [[]], "entity_document_ids": []}) == 3.0
    # with its evidence: graded by how much of the unstated fact the corpus still writes
    half_found = HopEvidence(named=True, near=False, anywhere=True, near_share=0.5)
    nothing = HopEvidence(named=False, near=False, anywhere=False, near_share=0.0)
    assert link_score(half, [half_found]) == pytest.approx(2.0 + 0.9 * (1 - 2.5 / 3) + 0.1 * 0.5)
    assert link_score(half, [nothing]) == link_score(half, []) == pytest.approx(2.95)
    assert link_score(half, [half_found, nothing]) == pytest.approx(2.0 + 0.9 * (1 - 2.5 / 3 + 1) / 2 + 0.05)
    # the typical unlinked question of the floor: one fact, its subject named, its value nowhere
    typical = {"kb_basis": "unlinked", "evidence_sets": [[]]}
    assert link_score(typical, [HopEvidence(True, False, False, 0.0)]) == pytest.approx(TYPICAL_UNLINKED)
    # support that cannot be told gets no score (p = 1; the tester combines the other statistics)
    for basis in ("not_linkable", "unanswerable", ""):
        assert math.isnan(link_score({"kb_basis": basis, "evidence_confidence": None}))


def test_a_left_out_fact_ranks_above_every_in_knowledge_question(staff):
    url, docs = staff
    cal, held, absent = _sets()
    stat = LinkStatistic(docs).fit(cal, url)
    assert stat.recall() == 1.0 and stat.n_unscored_ == 0
    s_held, s_absent = stat.scores(held, url), stat.scores(absent, url)
    assert s_absent.min() > s_held.max()  # AUROC 1 on this corpus
    p_held, p_absent = stat.p_values(s_held), stat.p_values(s_absent)
    # every calibration question is linked, so the floor is the smallest p-value there is
    assert np.allclose(p_absent, 1 / (len(cal) + 1)) and stat.floor() == pytest.approx(1 / (len(cal) + 1))
    # in-knowledge questions are not rejected more often than alpha allows
    assert (p_held <= 0.1).mean() <= 0.1
    # records given as dicts (a dataset's JSONL lines) score the same; None is no record
    again = stat.scores([r.to_dict() for r in absent] + [None], url)
    assert np.array_equal(again[:-1], s_absent) and math.isnan(again[-1])


def test_floor_rises_with_the_linkers_misses(staff):
    url, docs = staff
    cal, _, _ = _sets()
    # a corpus in which the linker misses the birth dates of a quarter of the calibration people
    # (written as "born in the spring"), though the writer counts them stated
    missed = {p for n, p in enumerate(_people()) if n % 8 == 0}
    reworded = [(i, t.replace(" was born on ", " was born, by the register, on the day ").split(" on the day ")[0]
                 + " in the spring." if any(p in t for p in missed) else t) for i, t in docs]
    stat = LinkStatistic(reworded).fit(cal, url)
    assert stat.recall() < 1.0
    unlinked = int((stat.calibration_scores_ >= 2).sum())
    assert stat.floor() >= unlinked / (stat.calibration_scores_.size + 1) > 0


def test_a_missed_fact_ranks_below_a_left_out_one(staff):
    """The graded unlinked tier (issue 25): a birth date the linker cannot read as the person's
    (written only in a list of dates that names nobody) is still written in the corpus; one left
    out is written nowhere. The missed calibration questions score below the left-out ones, so
    those get p-values under the floor the ties set before (the share the linker missed)."""
    url, docs = staff
    cal, _, absent = _sets()
    missed = [n for n in range(len(_people())) if n % 4 == 0]
    reworded = [(i, re.sub(r" \w+ was born on [0-9-]+\.", "", t) if any(_people()[n] in t for n in missed) else t)
                for i, t in docs]
    reworded.append(("notices/dates", "Dates to remember this year: "
                     + ", ".join(_born(n) for n in missed) + "."))
    stat = LinkStatistic(reworded).fit(cal, url)
    misses = stat.calibration_scores_[stat.calibration_scores_ >= 2]
    assert misses.size >= 4  # the linker misses those dates
    s_absent = stat.scores(absent, url)
    assert s_absent.min() > misses.max()
    n = stat.calibration_scores_.size
    # every left-out date gets the smallest p-value there is, below the missed ones' share
    assert np.allclose(stat.p_values(s_absent), 1 / (n + 1)) and misses.size / (n + 1) > 0.1
    # without the grading (each record scored by its share of facts missing) they would tie
    assert len({link_score(r) for r in stat.link(cal, url) if r.kb_basis == "unlinked"}
               | {link_score(r) for r in stat.link(absent, url)}) == 1
    assert stat.floor() == stat.p_values(np.array([TYPICAL_UNLINKED]))[0] == 1 / (n + 1)


def test_calibrate_warns_when_the_floor_is_above_alpha(staff, tmp_path):
    """A linker that misses many calibration questions cannot reject an unlinked one at alpha: the
    summary says so (the held-out Fernleigh corpus: 81 % found, floor 0.12)."""
    from ragdx.relevance.cli_support import calibrate

    url, docs = staff
    cal, _, _ = _sets()
    # the birth dates of half the calibration people written so that the linker misses them
    missed = {p for n, p in enumerate(_people()) if n % 4 == 0}
    reworded = [{"id": i, "text": re.sub(r" was born on [0-9-]+", " was born in the spring", t)
                 if any(p in t for p in missed) else t} for i, t in docs]
    (tmp_path / "corpus.jsonl").write_text("".join(json.dumps(r) + "\n" for r in reworded), encoding="utf-8")
    (tmp_path / "cal.jsonl").write_text("".join(json.dumps(r.to_dict()) + "\n" for r in cal), encoding="utf-8")
    summary = calibrate(tmp_path / "corpus.jsonl", tmp_path / "t", queries=tmp_path / "cal.jsonl",
                        corpus_field="text", retriever="bm25", temperature=1.0, alpha=0.05, links=True, db=url)
    assert summary.links is not None and summary.links["linker_found_stated"] < 0.9
    assert "cannot reach alpha 0.05" in summary.links["warning"]


def test_calibrate_uses_links_by_default_when_questions_come_with_records(staff, tmp_path):
    """links="auto" (the default): on for calibration questions that are records with a known
    database, off for free text and without a database; the summary says which statistic."""
    from ragdx.relevance.cli_support import calibrate

    url, docs = staff
    cal, _, _ = _sets()
    (tmp_path / "corpus.jsonl").write_text("".join(json.dumps({"id": i, "text": t}) + "\n" for i, t in docs),
                                           encoding="utf-8")
    (tmp_path / "cal.jsonl").write_text("".join(json.dumps(r.to_dict()) + "\n" for r in cal), encoding="utf-8")
    (tmp_path / "free.jsonl").write_text("".join(json.dumps({"question": r.query}) + "\n" for r in cal),
                                         encoding="utf-8")
    kw = {"corpus_field": "text", "retriever": "bm25", "temperature": 1.0}
    on = calibrate(tmp_path / "corpus.jsonl", tmp_path / "a", queries=tmp_path / "cal.jsonl", db=url, **kw)
    assert on.links is not None and on.statistic.startswith("links (graded evidence linker) for a question with")
    for name, queries, db in (("b", "free.jsonl", url), ("c", "cal.jsonl", None)):
        off = calibrate(tmp_path / "corpus.jsonl", tmp_path / name, queries=tmp_path / queries, db=db, **kw)
        assert off.links is None and off.statistic.endswith("(no records: links off)")
    with pytest.raises(RagdxError, match="links must be"):
        calibrate(tmp_path / "corpus.jsonl", tmp_path / "d", queries=tmp_path / "cal.jsonl", links="yes", **kw)


def _tester(docs, links: bool, **kw) -> RelevanceTester:
    return RelevanceTester(retriever="bm25", temperature=1.0, alpha=0.1, links=links, **kw)


def test_tester_uses_links_for_queries_with_a_record_only(staff, tmp_path):
    url, docs = staff
    cal, held, absent = _sets()
    texts = [t for _, t in docs]
    plain = _tester(docs, False).fit(texts, [r.query for r in cal])
    tester = _tester(docs, True).fit(texts, [r.query for r in cal], records=cal, database=url, documents=docs)
    queries = [r.query for r in held + absent]
    # free text (no record): today's behaviour, unchanged to the bit
    free = tester.test(queries)
    assert [t.p_value for t in free] == [t.p_value for t in plain.test(queries)]
    assert {t.statistic for t in free} == {"energy+names"} and all("links" not in t.p_values for t in free)
    # with the records: the left-out birth dates are rejected, and say which statistic decided
    tests = tester.test(queries, records=held + absent, database=url)
    got_absent = tests[len(held):]
    assert all(t.statistic == "links" and t.out_of_knowledge for t in got_absent)
    assert all(t.p_value == t.p_values["links"] == pytest.approx(1 / (len(cal) + 1)) for t in got_absent)
    assert np.mean([t.out_of_knowledge for t in tests[: len(held)]]) <= 0.1 + 2 * np.sqrt(0.09 / len(held))
    # a query given without its record in the same batch falls back to the other statistics
    mixed = tester.test(queries[-2:], records=[None, absent[-1]], database=url)
    assert mixed[0].statistic == "energy+names" and mixed[1].statistic == "links"
    # links_weight < 1: a weighted Bonferroni combination with the other statistics
    weighted = _tester(docs, True, links_weight=0.8).fit(texts, [r.query for r in cal], records=cal,
                                                         database=url, documents=docs)
    w_tests = weighted.test(queries, records=held + absent, database=url)
    for t in w_tests:
        others = min(t.p_values["energy"], t.p_values["names"]) * 2 / 0.2
        assert t.statistic == "energy+names+links"
        assert t.p_value == pytest.approx(min(1.0, t.p_values["links"] / 0.8, others))
    # saved and loaded: the same p-values, and the documents it links against
    tester.save(tmp_path / "t")
    back = RelevanceTester.load(tmp_path / "t")
    assert back.links and back.links_ is not None and back.links_.documents == tester.links_.documents
    again = back.test(queries, records=held + absent, database=url)
    assert [t.p_value for t in again] == [t.p_value for t in tests]
    manifest = json.loads((tmp_path / "t" / "relevance-tester.json").read_text())
    assert manifest["config"]["links"] is True and "calibration_links" in manifest["arrays"]


def test_links_refuse_missing_inputs(staff):
    url, docs = staff
    cal, held, _ = _sets()
    texts = [t for _, t in docs]
    with pytest.raises(RagdxError, match="records="):
        _tester(docs, True).fit(texts, [r.query for r in cal])
    with pytest.raises(RagdxError, match="one per query"):
        _tester(docs, True).fit(texts, [r.query for r in cal], records=cal[:-1], database=url)
    plain = _tester(docs, False).fit(texts, [r.query for r in cal])
    with pytest.raises(RagdxError, match="without links"):
        plain.test([held[0].query], records=[held[0]], database=url)


def test_cli_calibrate_and_test_with_records(staff, tmp_path, monkeypatch):
    """``relevance calibrate --links`` on record rows, ``relevance test`` on a records JSONL: the
    rows with a record say they were tested with links, a free-text row that it was not."""
    from typer.testing import CliRunner

    from ragdx.cli import app

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RAGDX_CACHE_DIR", str(tmp_path / "cache"))
    url, docs = staff
    cal, held, absent = _sets()

    def jsonl(name: str, rows: list[dict]) -> str:
        (tmp_path / name).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        return name

    jsonl("corpus.jsonl", [{"id": i, "text": t} for i, t in docs])
    jsonl("cal.jsonl", [r.to_dict() for r in cal])
    jsonl("new.jsonl", [r.to_dict() for r in absent] + [{"question": held[0].query}])
    runner = CliRunner()
    res = runner.invoke(app, ["relevance", "calibrate", "corpus.jsonl", "--corpus-field", "text", "--queries",
                              "cal.jsonl", "--links", "--db", url, "--retriever", "bm25", "--temperature", "1",
                              "--alpha", "0.1", "-o", "tester"])
    assert res.exit_code == 0, res.output
    assert "linker_found_stated" in res.output and "floor_p_unlinked" in res.output
    assert "cannot reach alpha" not in res.output  # every calibration question linked: floor 1/(n+1)
    res = runner.invoke(app, ["relevance", "test", "tester", "--queries", "new.jsonl", "--db", url,
                              "-o", "out.jsonl", "--no-progress"])
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [r["statistic"] for r in rows] == ["links"] * len(absent) + ["energy+names"]
    assert all(r["out_of_knowledge"] for r in rows[: len(absent)])
    assert f"{len(absent)} of {len(rows)} queries tested with the evidence linker" in " ".join(res.output.split())
