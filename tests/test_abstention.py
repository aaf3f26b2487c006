"""Abstention judged, scored and blamed (issue 26 item 2): the reply classifier on hand-written
replies (written for these tests, not the blind sample), records to refuse judged by their reply,
blame of over-answers and over-refusals, precision/recall per refusal kind, the summary section and
its absence, the knowledge-boundary agreement, and blame against faults injected at known rates."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from ragdx.evaluate.abstention import (
    ABSTAINED,
    ANSWERED,
    CORRECTED,
    OVER_ANSWERED,
    OVER_REFUSED,
    abstention_scores,
    boundary_agreement,
    classify_reply,
    outcome,
)
from ragdx.evaluate.records import read_judgements
from ragdx.evaluate.report import evaluate_judgements, summary_markdown
from ragdx.evaluate.runs import judge_outputs
from ragdx.gen.dataset import QARecord
from ragdx.rag.types import RetrievedContext, SystemOutput

ROOT = Path(__file__).resolve().parents[1]

# (question, reference of a false premise, reply, kind)
REPLIES = [
    ("What is the phone number of the Boston office?", "", "The Boston office can be reached at +1 617 555 0100.",
     "answer"),
    ("Was order 10248 shipped late?", "", "No, it was not shipped late; it arrived on 3 March.", "answer"),
    ("Which products in Beverages are discontinued?", "", "None of the beverages are discontinued except Chai.",
     "answer"),
    ("How many employees work in Seattle?", "", "There are 3.", "answer"),
    ("Is Chai discontinued?", "", "No, Chai is not discontinued.", "answer"),
    ("When did order 10248 ship?", "", "Order 10248 did not ship until 16 July 1996.", "answer"),
    ("Which customers did not order in 1997?", "", "Alfreds and Bon app' did not order in 1997.", "answer"),
    ("What is the price of Chai?", "", "Chai costs $18.00 per unit; no discounts apply.", "answer"),
    ("Who is the sales rep for Alfreds?", "", "**Nancy Davolio** handles the account [1].", "answer"),
    ("What is Jon Smyth's phone number?", "", "I don't know.", "refusal"),
    ("What is Jon Smyth's phone number?", "", "There is no customer named Jon Smyth in the records.", "refusal"),
    ("What is Jon Smyth's phone number?", "", "I couldn't find anyone called Jon Smyth. Did you mean John Smith?",
     "refusal"),
    ("Which office does Patterson work in?", "", "Could you clarify which Patterson you mean?", "refusal"),
    ("Which office does Patterson work in?", "", "It's unclear which Patterson you are referring to.", "refusal"),
    ("What's the weather in Paris tomorrow?", "",
     "That's outside what I can help with; I can only answer questions about orders.", "refusal"),
    ("What is Nancy's home phone?", "", "The provided context does not mention Nancy's home phone.", "refusal"),
    ("What is Nancy's home phone?", "", "This information is not available in the documents I have.", "refusal"),
    ("What is Nancy's home phone?", "", "", "refusal"),
    ("Who is the sales rep for Alfreds?", "", "Je ne sais pas.", "refusal"),
    ("What is the weight of parcel 9?", "", "The answer cannot be determined from the context.", "refusal"),
    # declining, then offering a candidate: an answer (the user is handed a value)
    ("What is Nancy's home phone?", "", "I'm not sure, but it may be 555-0199.", "answer"),
    ("What is Nancy's home phone?", "", "The documents don't say. Perhaps 555-0199?", "answer"),
    ("What is the weight of parcel 9?", "", "It's hard to say, but roughly 2 kg.", "answer"),
    ("What is Jon Smyth's phone number?", "",
     "I couldn't find a Jon Smyth on the customer list. Perhaps he is a customer of a different branch?", "refusal"),
    ("When did Nurse Lee last order stock?", "",
     "There are two nurses named Lee: Amy Lee ordered on 2 May 2024 and Ben Lee on 28 April 2024.", "answer"),
    ("When did Nurse Lee last order stock?", "",
     "There are two nurses named Lee. Which one do you mean, Amy or Ben?", "refusal"),
    ("When did order 10100 ship to Paris?", "Nantes",
     "Order 10100 didn't ship to Paris — it went to Nantes on 13 January 2003.", "correction"),
    ("When did order 10100 ship to Paris?", "Nantes", "It shipped to Nantes, not Paris.", "correction"),
    ("When did order 10100 ship to Paris?", "Nantes", "The premise seems wrong: order 10100 was never sent to Paris.",
     "correction"),
    ("When did order 10100 ship to Paris?", "Nantes", "Order 10100 shipped to Paris on 13 January 2003.", "answer"),
    ("When did order 10100 ship to Paris?", "Nantes", "There is no record of order 10100 shipping to Paris.",
     "refusal"),
    ("Why was ferry 12 cancelled on Monday?", "", "Ferry 12 wasn't cancelled on Monday; it sailed on schedule.",
     "correction"),
    # refusals that name the sources in words of their own (issue 26, third sample's misses)
    ("What is the boiling point of mercury?", "",
     "Sadly that isn't in the harbour authority documents I hold.", "refusal"),
    ("Who won the 1998 World Cup?", "",
     "That isn't covered by the Elm Road clinic records, which are about appointments and treatments.", "refusal"),
    ("What is Dr Hale's mobile number?", "",
     "Unfortunately the clinic staff directory does not list personal mobile numbers.", "refusal"),
    ("Can you translate this letter into Welsh?", "",
     "Translation falls beyond what this assistant does; my knowledge is restricted to the library loans.", "refusal"),
    # a question back asking which reading is meant
    ("When does the Riverside bus leave?", "", "\"Riverside\" could refer to two routes, the 14 or the 22.",
     "refusal"),
    ("What was the invoice total?", "", "Lots of invoices were raised this month. Which client's invoice do you mean?",
     "refusal"),
    # an answer with a caveat stays an answer; a negation inside the caveat denies no premise
    ("What grade is driver Patel?", "",
     "Driver Patel is on **grade 4**. Note that there might be more than one driver with that surname, so please "
     "check the staff number.", "answer"),
    ("How much deposit did tenant 31 lose after the 2023 eviction?", "",
     "Tenant 31 lost a deposit of £950 after the 2023 eviction. Please note this figure may not include "
     "deposit interest.", "answer"),
    # one answer per reading of a name, without figures, is an answer
    ("Which ward does Nurse Brennan work on?", "",
     "There are two nurses called Brennan on the rota:\n- Ciara Brennan works on the maternity ward.\n"
     "- Liam Brennan works on the cardiology ward.", "answer"),
    # declining, then offering help with something else in scope: no candidate, a refusal
    ("What's the best route up Ben Nevis?", "",
     "That's outside what I can help with — I only know the ferry timetables. That said, if you're travelling to "
     "Fort William, I'm happy to suggest a sailing that connects.", "refusal"),
    # opening by denying the premise, then declining what would follow from it: a correction
    ("How many members left the choir after it moved rehearsals to Sunday?", "",
     "The choir has not moved rehearsals to Sunday; it still meets on Thursdays, so there is no record of "
     "members leaving over it.", "correction"),
    # opening by denying that the thing exists, then declining: a refusal
    ("When does the Platform 9 café open?", "",
     "It seems there is no café on Platform 9 — the station guide lists one on Platform 2. I can't give hours for "
     "it.", "refusal"),
]


@pytest.mark.parametrize("question, reference, reply, kind", REPLIES)
def test_reply_classified(question, reference, reply, kind):
    assert classify_reply(reply, question, reference).kind == kind


def test_no_record_then_what_the_records_show_corrects_a_false_premise():
    """Finding no record of the premise and then stating what the records show instead corrects it
    (written for this test); with nothing after it, or only a pointer elsewhere, it declines."""
    q = "How long was the Elm Road pool closed after the 2024 flood?"
    said = ("I can't find any record of a flood at the Elm Road pool. The maintenance log shows it open every week "
            "of 2024 apart from the usual two-day August deep clean.")
    assert classify_reply(said, q, "", refusal_kind="false_premise").kind == "correction"
    assert classify_reply("I can't find any record of a flood at the Elm Road pool.", q, "",
                          refusal_kind="false_premise").kind == "refusal"
    assert classify_reply("I can't find any record of a flood at the Elm Road pool. You could ask the leisure "
                          "centre's front desk.", q, "", refusal_kind="false_premise").kind == "refusal"


def test_out_of_domain_question_with_its_premise_corrected_is_not_answered():
    """An out-of-domain question resting on a false premise, corrected explicitly (written for this
    test): a correction, which abstains, not an answer."""
    q = "What is Harbourside Library's rating on the stock exchange?"
    said = "Actually, Harbourside Library isn't a company at all — it is run by the county council."
    assert classify_reply(said, q, "", refusal_kind="out_of_domain").kind == "correction"
    assert outcome("out_of_domain", "correction") == ABSTAINED
    assert classify_reply("Actually, a circle's area is pi times the radius squared.", "What is the area of a circle?",
                          "", refusal_kind="out_of_domain").kind == "answer"


# replies to questions to answer (refusal_kind ""): negations and declined side facts in answers
TO_ANSWER = [
    ('Which vessel does not carry cars?', 'The Puffin does not carry cars; it is foot passengers only.', "answer"),
    ('How many overdue loans does member 12 have?', 'None — member 12 has no overdue loans.', "answer"),
    ('Does the clinic open on Sundays?', "No. The clinic doesn't open on Sundays.", "answer"),
    ('What is the fine for a lost card?', 'There is no fine for a lost card; a replacement costs £2.', "answer"),
    ('Who approved refund 88?', 'Refund 88 was approved by Karen Holt, not by the branch manager.', "answer"),
    ('Which products are out of stock?', 'Only Chang is out of stock; no other product is.', "answer"),
    ('How many cancellations were there in May?', 'Zero cancellations were recorded in May.', "answer"),
    ('What did the customer order?', 'They ordered 12 units of Tofu. Nothing else was on the order.', "answer"),
    ('Is there a parking fee?', "There's no parking fee at Elm Road.", "answer"),
    ('When is the next sailing?', "The next sailing is at 14:10; there isn't one earlier.", "answer"),
    ('Which branch has the most loans?', 'Riverside, with 1,204 loans — no other branch comes close.', "answer"),
    ("Who is Anna's manager?", "Anna reports to Tom Reed. She doesn't manage anyone herself.", "answer"),
    ('What is the price of Ikura?', "Ikura costs $31.00. Note that the price doesn't include shipping.", "answer"),
    ('Which treatments are available at Harbour Street?',
     "Physiotherapy and sports massage; acupuncture isn't offered there.", "answer"),
    ('How long is the crossing?', 'About 50 minutes.', "answer"),
    ('What is the dosage?', 'Usually 200 mg twice daily, per the care plan.', "answer"),
    ('Which one is cheaper, Chai or Chang?', 'Chai, at $18 versus $19.', "answer"),
    ('Did the order ship?', "Yes, it shipped on 4 March; you'd need the tracking number to follow it.", "answer"),
    # an answer first, then a caveat about something not asked: still an answer
    ('Who wrote it?', "It was written by Elin Marsh. The record doesn't list a co-author.", "answer"),
    ('Where is the Oban terminal?', 'On the Railway Pier; as far as I can see it has no separate car entrance.',
     "answer"),
    ("What is Ms Lee's salary?", "Salary details aren't something I have access to.", "refusal"),
    ('Which ward is Jones in?', 'Several patients share that surname — can you tell me the first name?', "refusal"),
    ('Who won the match last night?', 'I only handle questions about the ferry service.', "refusal"),
    ('What is the ISBN?', 'That detail is missing from the catalogue entries I was given.', "refusal"),
    ("What's order 99999's date?", 'Order 99999 does not appear in the system.', "refusal"),
    ('What is the fax number?', 'No fax number is on record.', "refusal"),
    ("How tall is the Fulmar's mast?", 'The retrieved text gives no figure for the mast height.', "refusal"),
    ('Who is the landlord of the Elm Road branch?', "I can't tell from the documents.", "refusal"),
    ("What is Dr Lin's pager number?", "I'm not able to provide that.", "refusal"),
    ("What's the capital of Peru?", "I'm set up to answer questions about the library only, sorry.", "refusal"),
]


@pytest.mark.parametrize("question, reply, kind", TO_ANSWER)
def test_reply_to_a_question_to_answer_classified(question, reply, kind):
    assert classify_reply(reply, question, refusal_kind="").kind == kind


def test_only_a_false_premise_can_be_corrected():
    """A negation answers a question to answer; it declines a question about an absent entity."""
    reply = "Member 3302 didn't borrow any e-books in October."
    question = "Which e-books did member 3302 borrow in October?"
    assert classify_reply(reply, question, refusal_kind="").kind == "answer"
    assert classify_reply(reply, question).kind == "correction"  # kind unknown: a premise may be denied
    denial = classify_reply("Kittiwake doesn't serve a port called Eilean Mor.", "When do ferries leave Eilean Mor?",
                            refusal_kind="absent_entity")
    assert denial.kind == "refusal"


def test_outcomes():
    assert outcome("", "answer") == ANSWERED and outcome("", "refusal") == OVER_REFUSED
    assert outcome("", "correction") == OVER_REFUSED
    assert outcome("absent_entity", "answer") == OVER_ANSWERED and outcome("absent_entity", "refusal") == ABSTAINED
    assert outcome("false_premise", "correction", gives_true_value=True) == CORRECTED
    assert outcome("false_premise", "correction") == ABSTAINED and outcome("false_premise", "answer") == OVER_ANSWERED


def _record(rid: str, kind: str = "", query: str = "When did order 10100 ship?", rows=(("2003-01-13",),),
            gold=("d1",), group: str | None = None) -> QARecord:
    rows = [list(r) for r in rows]
    return QARecord(id=rid, group_id=group or f"g{rid}", sql_template_id="t", text_template_id="x", style="short",
                    schema="s", table="Orders", params={}, sql="", query=query, answer_columns=["c"],
                    answer_rows=rows, answer_text=str(rows[0][0]) if rows else "",
                    answer_kind="single" if rows else "none", gold_document_ids=list(gold),
                    evidence_sets=[list(gold)] if gold else [], kb_supported=bool(gold), refusal_kind=kind)


def _output(rid: str, answer: str, docs=("d1",)) -> SystemOutput:
    return SystemOutput(id=rid, query="", answer=answer, contexts=[RetrievedContext(id=d, text="") for d in docs])


FP = "When did order 10100 ship to Paris?"
RECORDS = [
    _record("a1", group="ga"), _record("a2", group="ga"), _record("a3", group="ga"), _record("b1", group="gb"),
    _record("f1", "false_premise", FP, [["Nantes"]], group="ga~false_premise"),
    _record("f2", "false_premise", FP, [["Nantes"]], group="ga~false_premise"),
    _record("f3", "false_premise", FP, [["Nantes"]], group="ga~false_premise"),
    _record("e1", "absent_entity", "What is Jon Smyth's phone?", [], (), group="gb~absent_entity"),
    _record("e2", "absent_entity", "What is Jon Smyth's phone?", [], (), group="gb~absent_entity"),
]
OUTPUTS = [
    _output("a1", "It shipped on 13 January 2003."),
    _output("a2", "I don't know.", ("d1",)),  # over-refused with the evidence in hand: the language model
    _output("a3", "The documents don't say.", ("d9",)),  # refused without the evidence: the retriever
    _output("b1", "13 January 2003."),
    _output("f1", "It went to Nantes, not Paris."),  # corrected with the true value: right
    _output("f2", "It shipped to Paris on 13 January 2003."),  # the premise accepted: over-answered
    _output("f3", "I couldn't find anything about that.", ("d9",)),  # declined, not corrected, evidence missed
    _output("e1", "There's no customer named Jon Smyth.", ("d9",)),
    _output("e2", "His phone is 555-0100.", ("d9",)),  # over-answered
]


def test_records_to_refuse_judged_and_blamed(tmp_path):
    judged = judge_outputs(RECORDS, OUTPUTS)
    by = {j.id: j for j in judged}
    assert [by[i].correct for i in ("f1", "f2", "f3", "e1", "e2")] == [True, False, False, True, False]
    assert by["f1"].judge == "abstention" and by["f1"].reply_kind == "correction"
    assert by["a2"].judge != "abstention" and by["a2"].refusal_kind == ""  # the judges' rules stand
    result = evaluate_judgements(judged)
    verdicts = {v["id"]: v for v in result.verdicts}
    assert (verdicts["a2"]["verdict"], verdicts["a2"]["abstention"]) == ("lm_failure", "over_refused")
    assert (verdicts["a3"]["verdict"], verdicts["a3"]["abstention"]) == ("retrieval_failure", "over_refused")
    assert verdicts["a3"]["why"].startswith("refused: the evidence was not retrieved")
    for i in ("f2", "e2"):
        assert (verdicts[i]["verdict"], verdicts[i]["abstention"]) == ("lm_failure", "over_answered"), verdicts[i]
        assert "over-answered" in verdicts[i]["why"]
    assert verdicts["f3"]["verdict"] == "retrieval_failure" and verdicts["f3"]["abstention"] == "unanswered_correction"
    assert "abstention" not in verdicts["a1"] and verdicts["e1"]["verdict"] == "correct"
    data = result.extra["abstention"]
    assert data["blame"] == {"over_answered": {"lm_failure": 2}, "over_refused": {"lm_failure": 1,
                                                                                 "retrieval_failure": 1},
                             "unanswered_correction": {"retrieval_failure": 1}}
    fp, absent = data["by_kind"]["false_premise"], data["by_kind"]["absent_entity"]
    # precision against the paired questions to answer only: group ga holds both over-refusals
    assert (fp["records"], fp["abstained"], fp["corrected"], fp["over_answered"], fp["right"]) == (3, 2, 1, 1, 1)
    assert fp["recall"] == pytest.approx(2 / 3) and fp["precision"] == pytest.approx(2 / 4)
    assert absent["recall"] == pytest.approx(1 / 2) and absent["precision"] == pytest.approx(1.0)
    assert data["answerable"] == {"records": 4, "over_refused": 2, "over_refusal_rate": 0.5}
    md = summary_markdown(result, "t")
    assert "## Abstention (questions to refuse)" in md and "| false premise | 3 | 2 | 1 | 1 | 1 | 66.7% | 50.0% |" in md
    # judgements.jsonl: the refusal fields on the records to refuse only, and read back
    from ragdx.evaluate.records import write_judgements

    write_judgements(tmp_path / "j.jsonl", judged)
    lines = [json.loads(line) for line in (tmp_path / "j.jsonl").read_text().splitlines()]
    assert ["refusal_kind" in d for d in lines] == [False] * 4 + [True] * 5
    assert [j.reply_kind for j in read_judgements(tmp_path / "j.jsonl")] == [j.reply_kind for j in judged]


def test_no_records_to_refuse_no_section():
    judged = judge_outputs(RECORDS[:4], OUTPUTS[:4])
    result = evaluate_judgements(judged)
    assert "abstention" not in result.extra and "abstention" not in result.to_dict()
    assert all("abstention" not in v for v in result.verdicts)
    assert "Abstention" not in summary_markdown(result, "t")
    assert abstention_scores(judged) is None


def test_always_refusing_scores_no_better_than_never():
    """On paired records, a system that always declines has recall 1 and precision 0.5; one that
    never declines recall 0: neither is a good abstainer, and precision says why."""
    records = [_record("a", group="g"),
               _record("r", "absent_entity", "What is X's phone?", [], (), group="g~absent_entity")]
    always = judge_outputs(records, [_output("a", "I don't know."), _output("r", "I don't know.")])
    never = judge_outputs(records, [_output("a", "13 January 2003."), _output("r", "It is 555-0100.")])
    a, n = abstention_scores(always)["overall"], abstention_scores(never)["overall"]
    assert (a["recall"], a["precision"]) == (1.0, 0.5) and (n["recall"], n["precision"]) == (0.0, None)
    assert sum(j.correct for j in always) == sum(j.correct for j in never) == 1


def test_boundary_agreement():
    judged = judge_outputs(RECORDS, OUTPUTS)
    p = {"e1": 0.001, "e2": 0.01, "f1": 0.5, "f2": 0.7, "a1": 0.0}
    got = boundary_agreement(judged, p)
    # e1 outside & abstained (agree), e2 outside & answered (disagree), f1 inside & abstained (disagree),
    # f2 inside & answered (agree); a1 is a question to answer: not counted
    assert (got["records"], got["agree"], got["tester_outside_system_answered"]) == (4, 2, 1)
    assert boundary_agreement(judged, {}) is None


def _bench():
    spec = importlib.util.spec_from_file_location("abstention_blame", ROOT / "benchmarks" / "abstention_blame.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["abstention_blame"] = module
    spec.loader.exec_module(module)
    return module


def test_blame_names_the_module_of_injected_faults(tmp_path):
    """The fast slice of benchmarks/abstention_blame.py: a real dataset with refusals (the demo's,
    two styles), faults injected at known rates, precision and recall of blame >= 0.90."""
    bench = _bench()
    records, corpus = bench.make_dataset(tmp_path, styles=["short", "casual"], n=1)
    records = bench.usable(records)
    assert {r.refusal_kind for r in records} >= {"false_premise", "absent_entity", "ambiguous_reference"}
    plan = bench.Plan(over_answer=0.15, over_refuse=0.15, retrieval=0.15, seed=11)
    outputs, truth = bench.simulate(records, corpus, plan)
    _, verdicts = bench.diagnose(records, outputs, corpus)
    scores, confusion = bench.score(truth, verdicts)
    for module in ("lm_failure", "retrieval_failure"):
        precision, recall, support = scores[module]
        assert support >= 30, (module, support)
        assert precision >= 0.9 and recall >= 0.9, (module, scores, confusion)


def test_end_to_end_run_evaluate_report(tmp_path):
    """A callable system run over the demo dataset with refusals (ragdx.run), evaluated and reported:
    the abstention section in metrics.json, summary.md, the HTML report and its Markdown summary."""
    import ragdx

    bench = _bench()
    records, corpus = bench.make_dataset(tmp_path / "d", styles=["short"], n=1, refusals=1)
    by_query = {r.query: r for r in records}

    def system(query: str) -> dict:
        r = by_query[query]
        gold = sorted({d for e in r.evidence_sets for d in e})
        if r.refusal_kind == "false_premise":
            answer = f"That premise is wrong: it is {r.answer_text}."
        elif r.refusal_kind == "absent_entity":
            answer = "It is 42."  # over-answers every absent entity
        elif r.refusal_kind:
            answer = "I don't know."
        else:
            answer = f"{r.answer_text}."
        return {"answer": answer, "contexts": [{"id": d, "text": corpus.get(d, "")} for d in gold]}

    run_dir = tmp_path / "run"
    ragdx.run(system, tmp_path / "d" / "dataset", run_dir, progress=False, probe=False)
    result = ragdx.evaluate(run_dir, n_boot=50)
    data = result.extra["abstention"]
    absent = data["by_kind"]["absent_entity"]
    assert absent["abstained"] == 0 and absent["over_answered"] == absent["records"] > 0
    assert data["by_kind"]["false_premise"]["right"] == data["by_kind"]["false_premise"]["records"]
    assert data["blame"]["over_answered"] == {"lm_failure": absent["records"]}
    # every kind's precision is measured against its own partners (gen.refusals pairs one for one; a
    # partner whose facts the knowledge base leaves out is no question to answer here, so at most as many)
    assert all(0 < v["paired_answerable"] <= v["records"] for v in data["by_kind"].values()), data["by_kind"]
    # the knowledge-boundary tester ran on the dataset's knowledge base (BM25: no model to load)
    boundary = data["boundary"]
    assert boundary["records"] == sum(v["records"] for v in data["by_kind"].values())
    assert 0 <= boundary["agreement"] <= 1 and set(boundary["by_kind"]) == set(data["by_kind"])
    summary = (run_dir / "evaluation" / "summary.md").read_text(encoding="utf-8")
    assert "Knowledge boundary: on" in summary
    assert "## Abstention (questions to refuse)" in summary and "| absent entity |" in summary
    # judged whole (records in memory) as streamed (the dataset read in blocks): the same figures
    from ragdx.gen.dataset import read_records

    whole = ragdx.evaluate(run_dir, n_boot=50, dataset=read_records(tmp_path / "d" / "dataset"),
                           out=tmp_path / "whole")
    assert whole.extra["abstention"] == data
    # `ragdx evaluate` says it in one line
    from typer.testing import CliRunner

    from ragdx.cli import app

    said = CliRunner().invoke(app, ["evaluate", str(run_dir), "--out", str(tmp_path / "cli"), "--boot", "100"])
    assert said.exit_code == 0, said.output
    overall = data["overall"]
    assert f"abstention: {overall['abstained']} of {overall['records']} records to refuse" in said.output
    html = ragdx.report(run_dir, tmp_path / "report.html", n_boot=50).read_text(encoding="utf-8")
    assert 'id="abstention"' in html and "absent entity" in html and 'href="#abstention"' in html
    md = ragdx.report(run_dir, tmp_path / "report.md", n_boot=50).read_text(encoding="utf-8")
    assert "**Abstention (questions to refuse)**" in md



def test_declining_what_the_knowledge_base_leaves_out_is_no_over_refusal():
    gap = _record("k1", group="gk")
    gap.kb_supported = False
    records = [gap, _record("r", "absent_entity", "What is X's phone?", [], (), group="gk~absent_entity")]
    judged = judge_outputs(records, [_output("k1", "I don't know.", ()), _output("r", "I don't know.", ())])
    scores = abstention_scores(judged)
    assert scores["answerable"]["records"] == 0 and scores["overall"]["precision"] == 1.0
    rows = {v["id"]: v for v in evaluate_judgements(judged).verdicts}
    assert rows["k1"]["verdict"] == "kb_gap" and rows["k1"]["abstention"] == "declined_kb_gap"


def test_a_false_premise_the_knowledge_base_cannot_correct_is_its_gap():
    fp = _record("f", "false_premise", FP, [["Nantes"]], group="g~false_premise")
    fp.kb_supported = False
    judged = judge_outputs([_record("a", group="g"), fp], [_output("a", "13 January 2003."),
                                                           _output("f", "I don't know.", ("d9",))])
    row = {v["id"]: v for v in evaluate_judgements(judged).verdicts}["f"]
    assert (row["verdict"], row["abstention"]) == ("kb_gap", "unanswered_correction")


def test_rejudging_keeps_records_to_refuse_with_the_abstention_judge():
    from ragdx.evaluate.config import EvaluationConfig
    from ragdx.evaluate.runs import rejudge

    judged = judge_outputs(RECORDS, OUTPUTS)
    again = rejudge(judged, EvaluationConfig.build(None, judge="exact"))
    assert [j.correct for j in again if j.refusal_kind] == [j.correct for j in judged if j.refusal_kind]
    assert {j.judge for j in again if j.refusal_kind} == {"abstention"}
