"""The facts statistic of the knowledge-boundary tester (issue 25): whether the corpus states,
beside what a question names, the kind of fact the question asks."""

from __future__ import annotations

import numpy as np
import pytest

from ragdx.errors import RagdxError
from ragdx.relevance.facts import FactIndex, features
from ragdx.relevance.tester import RelevanceTester

FIRST = ["Alba", "Brenna", "Casimir", "Delphine", "Evander", "Fenella", "Gideon", "Hestia", "Ignatius", "Juniper",
         "Kasimir", "Leocadia", "Marius", "Noemi", "Oswin", "Perpetua", "Quillon", "Rosalind", "Severin", "Tamsin",
         "Ulrika", "Valentin", "Wilhelmina", "Xavier"]
LAST = ["Ashdown", "Brightwater", "Coldharbour", "Dunmore"]
CITIES = ["Lisbon", "Tromsø", "Ghent", "Bergamo", "Aarhus", "Leeds"]
#: the people whose page leaves out the birth date (the writer's truth in this test)
NO_BIRTH = {20, 21, 22, 23}


def _people() -> list[str]:
    return [f"{f} {LAST[i % len(LAST)]}" for i, f in enumerate(FIRST)]


def _corpus() -> list[str]:
    docs = []
    for n, name in enumerate(_people()):
        born = "" if n in NO_BIRTH else f" {name.split()[0]} was born on 19{60 + n}-0{1 + n % 9}-1{n % 9}."
        docs.append(f"# {name}\n\nSales representative in {CITIES[n % len(CITIES)]}.{born} "
                    f"Joined the company in {2000 + n}.")
    rows = "".join(f"| {p} | {LAST[n % len(LAST)]} Mills | USD {n + 3},50 |\n" for n, p in enumerate(PRODUCTS))
    docs.append("Product list\n\n| Product | Supplier | Price |\n|---|---|---|\n"
                "| Quince jelly | Ashdown Foods | USD 12,00 |\n| Rye crisps | Dunmore Mills |  |\n"
                f"| Oat cakes | Dunmore Mills | USD 4,50 |\n{rows}")
    return docs


#: products of the price list: another kind of entity, asked other kinds of question
PRODUCTS = ["Pear cider", "Plum chutney", "Sloe gin", "Elder cordial", "Damson jam", "Hazel butter",
            "Walnut loaf", "Barley tea", "Fig relish", "Crab apple jelly", "Sea salt", "Malt vinegar"]
PRODUCT_QUESTIONS = ["What is the price of '{p}'?", "How much does '{p}' cost?", "Who supplies '{p}'?"]


BIRTH = ["When was '{p}' born?", "What is the date of birth of '{p}'?", "Date of birth of '{p}'?"]
OTHER = ["Which city does '{p}' work in?", "When did '{p}' join the company?", "Where is '{p}' based?"]


def _questions(people: list[str], templates: list[str]) -> list[str]:
    return [t.format(p=p) for p in people for t in templates]


def test_features_are_word_stems_and_digit_shapes():
    got = features("Born on 1948-12-08, phone (071) 555-4444.", "Birth date | Phone")
    assert {"#dddd-dd-dd", "#ddd-dddd", "born", "phone", "birth", "date"} <= got
    assert "on" not in got  # words under three letters say nothing of the kind


def test_context_reads_the_section_and_only_the_filled_columns():
    index = FactIndex(_corpus())
    page = index.context("Alba Ashdown")
    assert {"born", "#dddd-dd-dd", "joine"} <= page  # the heading's section
    assert "born" not in index.context("Ulrika Ashdown")  # her page leaves the birth date out
    assert "price" in index.context("Oat cakes") and "#d,dd" in index.context("Oat cakes")
    # the empty Price cell: the column is not a stated price
    assert "price" not in index.context("Rye crisps") and "suppl" in index.context("Rye crisps")
    assert index.context("Nobody Anywhere") == frozenset()


def test_a_left_out_fact_scores_above_answerable_questions_of_its_kind():
    people = _people()
    documented = [p for n, p in enumerate(people) if n not in NO_BIRTH]
    calibration = _questions(documented[:14], BIRTH + OTHER) + _questions(PRODUCTS, PRODUCT_QUESTIONS)
    held = _questions(documented[14:], BIRTH + OTHER)
    left_out = _questions([people[n] for n in sorted(NO_BIRTH)], BIRTH)
    index = FactIndex(_corpus()).fit(calibration)
    s_held, s_out = index.scores(held), index.scores(left_out)
    assert s_out.min() > np.quantile(s_held, 0.9)
    # (the same people's other, stated facts score about as high: the statistic reads the entity's
    # context, and a kind's neighbours are not all of that kind - the limit facts.py states)
    assert index.scores(["How are you today?"]).tolist() == [0.0]  # no names: nothing to look beside


def test_own_paraphrases_do_not_vouch_for_a_calibration_question():
    # one person's three paraphrases among product questions: were they each other's neighbours,
    # each would find its own context complete; left out (as for any new question), only the
    # product questions remain, whose contexts the person's page does not resemble
    people = _people()
    calibration = _questions(people[:1], BIRTH) + _questions(PRODUCTS, PRODUCT_QUESTIONS)
    index = FactIndex(_corpus()).fit(calibration)
    own = index.scores(calibration[:3])
    assert own.min() > 0.9
    # another person's questions do have the first person's as neighbours, and score lower
    assert index.scores(_questions(people[1:2], BIRTH)).max() < own.min()


def test_tester_combines_three_p_values_and_round_trips(tmp_path):
    people = _people()
    documented = [p for n, p in enumerate(people) if n not in NO_BIRTH]
    calibration = _questions(documented[:16], BIRTH + OTHER) + _questions(PRODUCTS, PRODUCT_QUESTIONS)
    tester = RelevanceTester(retriever="bm25", temperature=1.0, k=3, facts=True).fit(_corpus(), calibration)
    queries = _questions([people[20]], BIRTH) + _questions(documented[16:18], BIRTH)
    tests = tester.test(queries)
    assert tests[0].statistic == "energy+names+facts"
    for t in tests:
        assert {"names", "facts"} <= set(t.p_values)
        expected = min(1.0, 3 * min(t.p_values["energy"], t.p_values["names"], t.p_values["facts"]))
        assert t.p_value == pytest.approx(expected)
    assert tests[0].p_values["facts"] < min(t.p_values["facts"] for t in tests[3:])
    loaded = RelevanceTester.load(tester.save(tmp_path / "t"))
    assert np.allclose(loaded.p_values(queries), tester.p_values(queries))
    assert loaded.get_params()["facts"] is True


def test_facts_is_off_by_default_and_refuses_what_it_cannot_read():
    assert RelevanceTester().get_params()["facts"] is False
    with pytest.raises(RagdxError, match="needs names on"):
        RelevanceTester(retriever="bm25", names=False, facts=True).fit(_corpus(), ["a", "b"])
    with pytest.raises(RagdxError, match="facts must be"):
        RelevanceTester(retriever="bm25", facts="yes").fit(_corpus(), ["a", "b"])
    with pytest.raises(RagdxError):
        RelevanceTester(facts=True).fit(np.zeros((30, 4), dtype=np.float32), np.zeros((30, 4), dtype=np.float32))


def test_calibrate_cli_facts_option_saves_a_tester_that_tests_facts(tmp_path, monkeypatch):
    import json

    from typer.testing import CliRunner

    from ragdx.cli import app

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RAGDX_CACHE_DIR", str(tmp_path / "cache"))
    documented = [p for n, p in enumerate(_people()) if n not in NO_BIRTH]
    (tmp_path / "corpus.jsonl").write_text("".join(json.dumps({"content": t}) + "\n" for t in _corpus()))
    cal = _questions(documented[:16], BIRTH + OTHER) + _questions(PRODUCTS, PRODUCT_QUESTIONS)
    (tmp_path / "cal.jsonl").write_text("".join(json.dumps({"question": q}) + "\n" for q in cal))
    res = CliRunner().invoke(app, ["relevance", "calibrate", "corpus.jsonl", "--queries", "cal.jsonl", "-o", "t",
                                   "--retriever", "bm25", "--temperature", "1", "--facts", "--no-progress"])
    assert res.exit_code == 0, res.output
    tester = RelevanceTester.load(tmp_path / "t")
    assert tester.facts is True and tester.test(["When was 'Ulrika Ashdown' born?"])[0].statistic.endswith("+facts")


def test_a_tester_saved_before_facts_existed_loads_without_them(tmp_path):
    import json

    cal = _questions(_people()[:16], OTHER)
    tester = RelevanceTester(retriever="bm25", temperature=1.0, k=3).fit(_corpus(), cal)
    path = tester.save(tmp_path / "t")
    manifest = json.loads((path / "relevance-tester.json").read_text())
    del manifest["config"]["facts"]  # as written before the facts statistic
    (path / "relevance-tester.json").write_text(json.dumps(manifest))
    loaded = RelevanceTester.load(path)
    assert loaded.facts is False and getattr(loaded, "facts_index_", None) is None
    assert np.allclose(loaded.p_values(cal[:5]), tester.p_values(cal[:5]))
