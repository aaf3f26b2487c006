"""The names statistic of the knowledge-boundary tester (issue 25 item 1): whether the corpus
writes what a question names, and writes together what it ties together."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ragdx.errors import RagdxError
from ragdx.relevance.names import NameIndex, name_spans
from ragdx.relevance.tester import RelevanceTester

FIRST = ["Alba", "Brenna", "Casimir", "Delphine", "Evander", "Fenella", "Gideon", "Hestia", "Ignatius", "Juniper",
         "Kasimir", "Leocadia", "Marius", "Noemi", "Oswin", "Perpetua", "Quillon", "Rosalind", "Severin", "Tamsin"]
TRADE = ["Traders", "Imports", "Provisions", "Wholesale", "Foods", "Supplies"]
CITIES = ["Lisbon", "Tromsø", "Ghent", "Bergamo", "Aarhus", "Leeds", "Lyon", "Graz"]


def _world(seed: int = 0):
    rng = random.Random(seed)
    companies = [f"{FIRST[i]} {TRADE[i % len(TRADE)]}" for i in range(len(FIRST))]
    documented, absent = companies[:14], companies[14:]
    docs, orders = [], {}
    for n, name in enumerate(documented):
        city = CITIES[n % len(CITIES)]
        docs.append(f"# {name}\n\nAccount based in {city}. Contact by phone on 0{n}1-555-{1000 + n}. "
                    f"Credit limit USD {rng.randint(10, 90)} 000.")
        order = 10200 + n
        orders[order] = name
        docs.append("Order log\n\n| Order | Customer | Shipped |\n|---|---|---|\n"
                    f"| {order} | {name} | 2024-0{1 + n % 9}-1{n % 9} |")
    templates = ["In which city is {c} based?", "What is the phone number of '{c}'?",
                 "What is the credit limit of the customer '{c}'?", "city of '{c}'",
                 "Please tell me where {c} has its office."]
    ik = [(t.format(c=c), c) for c in documented for t in templates]
    ik += [(f"Who placed order {o}?", orders[o]) for o in orders]
    ook = [t.format(c=c) for c in absent for t in templates]
    # names tied together that the corpus never writes together: an order and another customer
    apart = [f"Did '{documented[(i + 3) % 14]}' place order {10200 + i}?" for i in range(14)]
    return docs, ik, ook, apart


def test_names_of_a_question():
    assert name_spans("What is the category of the product 'Chef Anton's Gumbo Mix'?") == ["Chef Anton's Gumbo Mix"]
    assert name_spans("Who sold Queso Cabrales to Alfreds Futterkiste in order 10248?") == [
        "10248", "Queso Cabrales", "Alfreds Futterkiste"]
    # small talk's capitals and a sentence's first word are not names; a code is
    assert sorted(name_spans("Before I send it on Monday, what is the fax of customer ALFKI?")) == ["ALFKI", "Monday"]
    assert name_spans("what is the city of the customer?") == []


def test_coverage_reads_the_longest_written_run_and_where_a_whole_name_is():
    ix = NameIndex(["Alfreds Futterkiste is in Berlin.", "Order 10248 went to Vins et alcools Chevalier."])
    share, chunks = ix.coverage("Alfreds Futterkiste")
    assert share == 1.0 and chunks.tolist() == [0]
    assert ix.coverage("Alfreds Kebab")[0] == 0.5
    assert ix.coverage("Zeta Widgets")[0] == 0.0
    # no run crosses a chunk boundary: "berlin order" is not written
    assert ix.coverage("Berlin Order")[0] == 0.5
    s = ix.scores(["Where is 'Alfreds Futterkiste'?", "Where is 'Zeta Widgets'?",
                   "Did 'Alfreds Futterkiste' place order 10248?", "What is the city?"])
    assert s.tolist() == [0.0, 1.0, 1.0, 0.0]  # the third: both written, never together


def test_tester_with_names_finds_entities_the_corpus_never_mentions_and_keeps_its_level():
    docs, ik, ook, apart = _world()
    rng = np.random.default_rng(0)
    order = rng.permutation(len(ik))
    cal, held = [ik[i][0] for i in order[: len(ik) // 2]], [ik[i][0] for i in order[len(ik) // 2:]]
    named = RelevanceTester(retriever="bm25", temperature=1.0, k=5, names=True).fit(docs, cal)
    alpha = 0.1
    assert (named.p_values(ook) <= alpha).mean() == 1.0
    assert (named.p_values(apart) <= alpha).mean() == 1.0
    # Bonferroni keeps the false rejections of in-knowledge questions at most alpha (+ sampling slack)
    assert (named.p_values(held) <= alpha).mean() <= alpha + 0.1
    tests = named.test(ook[:3], alpha=alpha)
    assert all(t.statistic == "energy+names" and t.out_of_knowledge and t.p_values["names"] <= alpha for t in tests)
    # "Oswin Provisions": the trade word is written (other customers carry it), the name is not;
    # unquoted, a capitalised run counts half
    assert [t.statistics["names"] for t in tests] == [0.25, 0.5, 0.5]


def test_a_tester_with_names_round_trips_and_needs_texts(tmp_path):
    docs, ik, ook, _ = _world()
    cal = [q for q, _ in ik]
    named = RelevanceTester(retriever="bm25", temperature=1.0, k=5, names=True).fit(docs, cal)
    named.save(tmp_path / "t")
    back = RelevanceTester.load(tmp_path / "t")
    assert back.names is True
    np.testing.assert_array_equal(back.p_values(ook + cal[:10]), named.p_values(ook + cal[:10]))
    emb = np.random.default_rng(0).normal(size=(len(docs), 8)).astype(np.float32)
    with pytest.raises(RagdxError, match="chunk texts"):
        RelevanceTester(names=True).fit(emb, emb[:5])
    with pytest.raises(RagdxError, match="names"):
        RelevanceTester(names="yes").fit(docs, cal)


def test_the_wordings_own_capitals_are_learned_from_calibration_not_counted_as_names():
    ix = NameIndex(["Alfreds Futterkiste is in Berlin."])
    cal = ["Before Monday, where is 'Alfreds Futterkiste'?"] * 20
    assert ix.scores(cal[:1]).tolist() == [0.5]  # "Monday" is written nowhere: half weight
    assert ix.learn_style(cal) == frozenset({"monday"})
    assert ix.scores(cal[:1]).tolist() == [0.0]
    # a quoted name is never style, however often it is asked about
    assert ix.scores(["Before Monday, where is 'Zeta Widgets'?"]).tolist() == [1.0]


def test_names_are_on_by_default_for_texts_and_off_for_embeddings(tmp_path):
    docs, ik, ook, _ = _world()
    cal = [q for q, _ in ik]
    auto = RelevanceTester(retriever="bm25", temperature=1.0, k=5).fit(docs, cal)
    assert auto.names_index_ is not None and auto.test(ook[:1])[0].statistic == "energy+names"
    auto.save(tmp_path / "a")
    assert RelevanceTester.load(tmp_path / "a").names_index_ is not None
    emb = np.random.default_rng(0).normal(size=(len(docs), 8)).astype(np.float32)
    on_embeddings = RelevanceTester(k=5).fit(emb, emb[np.arange(40) % len(docs)])
    assert on_embeddings.names_index_ is None
    on_embeddings.save(tmp_path / "e")
    assert RelevanceTester.load(tmp_path / "e").names_index_ is None
    off = RelevanceTester(retriever="bm25", temperature=1.0, k=5, names=False).fit(docs, cal)
    assert off.names_index_ is None and off.test(ook[:1])[0].statistic == "energy"
