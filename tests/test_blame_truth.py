"""The fast slice of benchmarks/blame_truth.py: blame measured against the corpus writer's truth.

What is asserted here holds by construction of the benchmark (never a figure about ragdx): every
query gets exactly one truth label; the no-fault oracle's truth has no LM or retrieval failure;
the retriever faults hit about the set share of answerable queries and remove every stating
document; the figures are computed correctly on small hand-checked cases.
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "data" / "northwind" / "corpus"
DB = ROOT.parent / "shared" / "data" / "northwind" / "northwind.sqlite"


def _load_benchmark():
    spec = importlib.util.spec_from_file_location("blame_truth", ROOT / "benchmarks" / "blame_truth.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["blame_truth"] = mod
    spec.loader.exec_module(mod)
    return mod


bt = _load_benchmark()

needs_corpus = pytest.mark.skipif(not (CORPUS / "truth.json").exists() or not DB.exists(),
                                  reason="../shared/data/northwind (the corpus with its writer's truth) is absent")


# ----------------------------------------------------------------------------- hand-checked figures

def test_verdict_scores_on_a_hand_checked_case():
    truth = {"a": "correct", "b": "kb_gap", "c": "retrieval_failure", "d": "retrieval_failure", "e": "lm_failure"}
    verdicts = {"a": "correct", "b": "kb_or_retrieval", "c": "retrieval_failure", "d": "lm_failure", "e": "lm_failure"}
    s = bt.score_verdicts(truth, verdicts)
    assert s.n == 5
    assert (s.precision("correct"), s.recall("correct")) == (1.0, 1.0)
    assert math.isnan(s.precision("kb_gap")) and s.recall("kb_gap") == 0.0  # unsure counts as wrong for recall
    assert (s.precision("retrieval_failure"), s.recall("retrieval_failure")) == (1.0, 0.5)
    assert (s.precision("lm_failure"), s.recall("lm_failure")) == (0.5, 1.0)
    assert s.unsure_share == pytest.approx(0.2)
    assert s.confusion[("kb_gap", bt.UNSURE)] == 1
    # a query ragdx gave no verdict at all is counted, as unsure, never dropped
    s2 = bt.score_verdicts({"x": "correct", "y": "kb_gap"}, {"x": "correct"})
    assert s2.n == 2 and s2.recall("kb_gap") == 0.0 and s2.unsure_share == 0.5


def _tiny_truth(tmp_path: Path) -> bt.Truth:
    t = {
        "facts": [
            {"fact_key": "T.a@1", "doc_id": "d1.md", "surface": "Berlin", "exact": True, "form": "verbatim",
             "how": "prose"},
            {"fact_key": "T.a@1", "doc_id": "d2.txt", "surface": "about Berlin", "exact": False, "form": "approx",
             "how": "prose"},
            {"fact_key": "T.b@1", "doc_id": "reg.txt", "surface": "42", "exact": True, "form": "verbatim",
             "how": "split", "split_id": "s1"},
            {"fact_key": "T.c@2", "doc_id": "d3.html", "surface": "x", "exact": True, "form": "verbatim",
             "how": "card"},
        ],
        "split_facts": [{"fact_key": "T.b@1", "split_id": "s1", "doc_ids": ["prof.md", "reg.txt"]}],
        "distractor_doc_ids": ["dis.md"],
    }
    (tmp_path / "truth.json").write_text(json.dumps(t), encoding="utf-8")
    return bt.Truth(tmp_path / "truth.json", lambda d: d.rsplit(".", 1)[0])


def test_truth_states_split_facts_only_with_all_their_documents(tmp_path):
    truth = _tiny_truth(tmp_path)
    assert truth.stated_in("T.a@1", {"d1"}) and not truth.stated_in("T.a@1", {"d2"})  # approximate is not stated
    assert not truth.stated_in("T.b@1", {"reg"}) and not truth.stated_in("T.b@1", {"prof"})
    assert truth.stated_in("T.b@1", {"reg", "prof"})
    assert not truth.stated_in("T.zz@9", {"d1", "d2", "d3", "reg", "prof"})
    assert truth.stating_docs({"T.a@1", "T.b@1"}) == {"d1", "reg", "prof"}
    assert truth.any_docs["T.a@1"] == {"d1", "d2"}
    assert set(truth.fact_docs) == {"d1", "reg", "prof", "d3"}


def test_linking_figures_on_a_hand_checked_case(tmp_path):
    truth = _tiny_truth(tmp_path)

    def rec(i, need, linked, sup):
        return bt.Rec(i, i, "short", "q", "", "", [sorted(need)], set(need), [], set(linked), sup)

    recs = [rec("r1", {"T.a@1"}, {"d1", "d2"}, True),          # tp 1, fp 1 (approximate only); supported, right
            rec("r2", {"T.b@1"}, set(), False),                # fn 1 (reg: the scorer's gold); supported, ragdx wrong
            rec("r3", {"T.c@2", "T.a@1"}, {"d3", "d1"}, True)]  # tp 2; supported, right
    world = bt.World.__new__(bt.World)
    world.truth, world.recs = truth, recs
    everything = {"d1", "d2", "d3", "reg", "prof", "dis"}
    lk = bt.linking(world, everything)
    assert (lk["tp"], lk["fp"], lk["fn"]) == (3, 1, 1)
    assert lk["precision"] == pytest.approx(0.75) and lk["recall"] == pytest.approx(0.75)
    assert lk["kb_supported_accuracy"] == pytest.approx(2 / 3) and lk["judged"] == 3
    # d3 deleted from what the system searches: r3 is no longer supported, and d3 no longer gold
    lk2 = bt.linking(world, everything - {"d3"})
    assert (lk2["tp"], lk2["fp"], lk2["fn"]) == (2, 2, 1)
    assert lk2["kb_supported_accuracy"] == pytest.approx(1 / 3)


# ----------------------------------------------------------------------------- on the corpus

@pytest.fixture(scope="module")
def world(tmp_path_factory):
    if not (CORPUS / "truth.json").exists() or not DB.exists():
        pytest.skip("../shared/data/northwind (the corpus with its writer's truth) is absent")
    work = tmp_path_factory.mktemp("blame_truth")
    w, ds = bt.load_world(CORPUS, DB, work, max_groups=3, templates=12, seed=0)
    return w, ds, work


@needs_corpus
def test_every_query_gets_exactly_one_truth_label(world):
    w, _, _ = world
    assert len(w.recs) >= 60
    for sc in bt.SCENARIOS:
        if sc.retriever == "er":
            continue
        outcomes, _ = bt.simulate(w, sc)
        assert set(outcomes) == {r.id for r in w.recs}
        assert all(o.truth in bt.VERDICTS for o in outcomes.values())
        # the truth follows the answer: right answers are "correct", and only they
        assert all((o.truth == "correct") == o.right for o in outcomes.values())


@needs_corpus
def test_no_fault_oracle_has_no_lm_or_retrieval_failure(world):
    w, _, _ = world
    outcomes, gone = bt.simulate(w, bt.SCENARIOS[0])
    assert not gone
    everything = set(w.docs)
    for r in w.recs:
        o = outcomes[r.id]
        answerable = all(w.truth.stated_in(k, everything) for k in r.need)
        assert o.truth == ("correct" if answerable else "kb_gap"), r.id
        assert (o.answer == bt.DONT_KNOW) == (not answerable)
    labels = {o.truth for o in outcomes.values()}
    assert "lm_failure" not in labels and "retrieval_failure" not in labels
    assert "correct" in labels  # the oracle does answer


@needs_corpus
def test_retriever_faults_hit_about_twenty_percent_and_remove_every_stating_document(world):
    w, _, _ = world
    hit = answerable = 0
    for seed in range(8):
        sc = bt.Scenario("retriever 20 %", retrieval=0.20, seed=100 + seed)
        outcomes, _ = bt.simulate(w, sc)
        for r in w.recs:
            o = outcomes[r.id]
            if not all(w.truth.stated_in(k, set(w.docs)) for k in r.need):
                assert not o.injected  # faults only among answerable queries
                continue
            answerable += 1
            if o.injected:
                hit += 1
                assert o.truth == "retrieval_failure" and o.answer == bt.DONT_KNOW
                assert not set(o.retrieved) & w.truth.stating_docs(r.need)
    assert answerable >= 400
    assert abs(hit / answerable - 0.20) < 0.05, hit / answerable


@needs_corpus
def test_kb_faults_delete_only_documents_that_state_facts(world):
    w, _, _ = world
    sc = bt.Scenario("kb", kb=0.10, seed=7)
    outcomes, gone = bt.simulate(w, sc)
    pool = [d for d in w.truth.fact_docs if d in w.docs]
    assert gone <= set(pool) and len(gone) == round(0.10 * len(pool))
    searched = set(w.docs) - gone
    for r in w.recs:
        o = outcomes[r.id]
        assert not set(o.retrieved) & gone
        if not all(w.truth.stated_in(k, searched) for k in r.need):
            assert o.truth == "kb_gap"


@needs_corpus
def test_lm_faults_are_wrong_answers(world):
    w, _, _ = world
    outcomes, _ = bt.simulate(w, bt.Scenario("lm", lm=0.5, seed=9))
    clean, _ = bt.simulate(w, bt.Scenario("lm", lm=0.0, seed=9))
    faulty = [q for q, o in outcomes.items() if o.injected == "lm"]
    assert len(faulty) >= 10
    for q in faulty:
        o = outcomes[q]
        assert o.truth == "lm_failure" and not o.right and o.form.startswith("lm:")
        assert o.answer != clean[q].answer and clean[q].truth == "correct"


@needs_corpus
def test_figures_through_ragdx_cover_every_query(world):
    """One scenario through ragdx.run and ragdx.evaluate: every query is scored, none dropped."""
    w, ds, work = world
    r = bt.run_scenario(w, ds, bt.SCENARIOS[1], work, n_boot=20, log=lambda *_: None)
    s = r["scores"]
    assert s.n == len(w.recs) == r["queries"]
    assert sum(s.support(v) for v in bt.VERDICTS) == s.n
    assert s.support("retrieval_failure") == r["injected"].get("retrieval", 0) > 0
    assert r["judge"]["right"][1] == s.support("correct")


@pytest.mark.parametrize("answer,value,said", [
    ("Perth Pasties: $26.24 -> $32.80", 32.8, True),   # a price written with its cents
    ("9    Perth Pasties    32.80    0.10", 0, False),  # "0" inside "0.10" is not the number 0
    ("| Pâté chinois | 2 | USD 19,20 | 5% |", 20, False),  # a decimal comma: 19.20, not 20
    ("USD 19,20", 19.2, True),
    ("1,234 units", 1234, True),                         # thousands separators
    ("£1,275.00 pcm", 1275, True),
    ("order 10520", 52, False),
])
def test_the_er_truth_reads_numbers_as_numbers(answer, value, said):
    # the er pipeline answers with retrieved text; its truth is what that text says, so a value must be said as
    # a number: word containment counted "0.10" as stating 0 and missed "$32.80" for 32.8
    assert bt._says_number(answer, value) is said


def test_the_er_truth_takes_an_initial_only_where_no_namesake_shares_it():
    import sqlite3

    class World:
        con = sqlite3.connect(":memory:")

    World.con.executescript("CREATE TABLE e (first TEXT, last TEXT);"
                            "INSERT INTO e VALUES ('Robert', 'King'), ('Anjali', 'Patel'), ('Arun', 'Patel');")
    row = [bt.Carrier("e.first@1", True, "", "e", "first", "Robert"),
           bt.Carrier("e.last@1", True, "", "e", "last", "King")]
    assert bt._initial_of(World, row[0], row, "| 80909 | Colorado Springs | King, R.")
    assert not bt._initial_of(World, row[0], row, "| 80909 | Colorado Springs | King")
    patel = [bt.Carrier("e.first@2", False, "", "e", "first", "Anjali"),
             bt.Carrier("e.last@2", False, "", "e", "last", "Patel")]
    assert not bt._initial_of(World, patel[0], patel, "A. Patel")  # Arun Patel is "A. Patel" too


@pytest.mark.parametrize("answer,value,said", [
    ("Northope Hub", "Northope", False),                 # the hub's name, not its town
    ("Hollins Cross Parish Council", "Hollins Cross", False),
    ("Donor:    EASTGATE METHODIST CHURCH", "church", False),
    ("It is in Hollins Cross.", "Hollins Cross", True),
    ("In Hollins Cross.", "Hollins Cross", True),
    ("Donor:    EASTGATE METHODIST CHURCH", "Eastgate Methodist Church", True),
    ("Type: church", "church", True),
    ("| 80909 | Colorado Springs | King, R.", "Colorado Springs", True),
])
def test_the_er_truth_does_not_count_a_value_inside_a_longer_name(answer, value, said):
    assert bt._states_text(answer, value) is said


def test_the_er_truth_does_not_read_a_day_of_a_date_as_a_count():
    assert not bt._says_number("published on 2 March 2026", 2)
    assert bt._says_number("position 2 of 3", 2)
