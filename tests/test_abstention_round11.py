"""The general forms behind the abstention judge's misses on blind sample 10 (issue 26), each checked on sentences
invented here, in other domains and words than the samples', beside a near miss that keeps its other label.
Samples 1-10 are development data; sample 11 is written blind to these rules and is not read here.

Each form is one of reply structure: a reply that declines first stays a refusal when what follows is about
something else (a clause with a closing "though", advice conditional on the user's own choice, an offer of help,
a figure of a sort the question does not ask); a pointer elsewhere after thanks or praise answers nothing; a
reference's value that only answers what the question asks corrects no premise; the premise's frame restated
with another value or name corrects it; a question back whose alternatives each carry the value asked answers
every reading; "We're not able to ..." answers "Will you ...?"; "They do." answers a yes/no question first."""

from __future__ import annotations

import time

import pytest

from ragdx.evaluate.abstention import classify_reply

# (question, reply, refusal_kind, reference, expected label)
DECLINES_FIRST = [
    # "..., though, ..." is an adverb of its sentence: the count that follows is of other things (teams, pitches)
    ("How many members do you have?",
     "I don't have membership figures, sorry. We do run six teams across three pitches, though, if that helps!",
     "omitted_fact", "", "refusal"),
    # near miss: the figure after the decline is of the thing asked for, a candidate
    ("How many members do you have?", "I don't have the exact figure, sorry. It's probably around 300, though.",
     "omitted_fact", "", "answer"),
    # advice on a choice the reply left open ("if you do buy ...") is no candidate answer to "Should I ...?"
    ("Should I invest in gold?",
     "I can't give investment advice. If you do buy gold, though, remember that profits may be subject to tax.",
     "out_of_domain", "", "refusal"),
    # an offer of help ("may be able to help") is no guess
    ("Is item KX-2231 in stock?",
     "That code doesn't come up in the system I can see, sorry. The shop team may be able to help.",
     "absent_entity", "", "refusal"),
    # near miss: "may be" before a value is a guess
    ("Is item KX-2231 in stock?", "That code doesn't come up in the system I can see, sorry. It may be the blue "
     "kettle, which is in stock.", "absent_entity", "", "answer"),
    # a figure of a sort the question does not ask (a share, to "Is it on loan?") about another thing
    ("Is painting P-77 on loan?", "That reference doesn't come up in the catalogue I can search, sorry. About 40% "
     "of the collection is catalogued online.", "absent_entity", "", "refusal"),
    # near miss: an approximate figure of the sort asked (a price) is a candidate
    ("How much is the late-return fee?", "I don't have the fee schedule, sorry. It's about £5 a day.",
     "omitted_fact", "", "answer"),
    # the search in progress finds nothing: with the kind unknown, the "not ... Tuesday" that follows is no
    # correction of the question
    ("How do I join the Tuesday walking group?", "Hmm, I'm not finding anything about a Tuesday walking group in the "
     "information I have. We're a garden centre, so our regular events are workshops.", None, "", "refusal"),
]

POINTS_ELSEWHERE = [
    # a pointer with a topic lead ("For questions about group bookings please contact ...")
    ("How many guests can join a garden tour?",
     "For questions about group bookings please contact the tours desk at tours@example.org.", "", "", "refusal"),
    # near miss: the question asks how to do something, and the pointer is the way
    ("How do I book a group garden tour?",
     "For questions about group bookings please contact the tours desk at tours@example.org.", "", "", "answer"),
    # thanks and praise with no price, then "have a look at our fees page": no price given
    ("How much is Junior Choir?", "Thanks for asking about Junior Choir! It's a lovely way for children to sing "
     "together. For current prices, have a look at our fees page.", "", "", "refusal"),
    # near miss: the same courtesy with the price given
    ("How much is Junior Choir?", "Thanks for asking! Junior Choir is £40 a term. For other prices, have a look at "
     "our fees page.", "", "", "answer"),
    # "Can I ...?" asks whether, and a pointer says neither yes nor no
    ("Can I pay by instalments?", "Our office can talk you through payment options when you get in touch.", "", "",
     "refusal"),
    # near miss: "How can I pay?" asks the way, which the pointer gives
    ("How can I pay?", "Our office can talk you through payment options when you get in touch.", "", "", "answer"),
]

PREMISE = [
    # the reference's time answers what was asked; only its day contradicts the premise, which the reply leaves
    ("The Tots class is on Tuesday mornings - what time does it start?", "It starts at 10:15.",
     "false_premise", "Thursdays at 10:15.", "answer"),
    # near miss: the day that contradicts the premise given too
    ("The Tots class is on Tuesday mornings - what time does it start?", "It's on Thursdays, starting at 10:15.",
     "false_premise", "Thursdays at 10:15.", "correction"),
    # a range of the reference given as "18 to 25"
    ("I heard the student railcard gives 50% off. How do I get one?", "You can get a student railcard online with "
     "proof of age (18 to 25). It gives you a quarter off.", "false_premise", "A quarter off, ages 18-25.",
     "correction"),
    # the premise's frame ("meets") restated with another value, no word of denial
    ("I read that the committee meets every week - when's the next meeting?",
     "The committee meets four times a year. The dates are on the noticeboard.", "false_premise", "Quarterly.",
     "correction"),
    # near miss: the premise's own value kept
    ("I read that the committee meets every week - when's the next meeting?",
     "The committee meets every week; the next is on Thursday.", "false_premise", "Quarterly.", "answer"),
    # near miss: the subject repeated without the frame ("pays") is no restatement
    ("I heard the grant pays up to £1,000. How do I apply?", "To apply for the grant, fill in the online form and "
     "attach two payslips.", "false_premise", "Up to £250, once a year.", "answer"),
    # another name in the premise's frame ("head of music")
    ("Dr Ann Lowe is your head of music - can I email her about lessons?", "Mark Bell is the head of music, so he's "
     "the one to ask about lessons - email office@example.org.", "false_premise",
     "The head of music is Mark Bell; Dr Lowe teaches piano and violin in the junior school.", "correction"),
    # near miss: the premise's name kept
    ("Dr Ann Lowe is your head of music - can I email her about lessons?", "Dr Ann Lowe is the head of music, so "
     "she's the one to ask about lessons - email office@example.org.", "false_premise",
     "The head of music is Mark Bell; Dr Lowe teaches piano and violin in the junior school.", "answer"),
    # "rather than" against a value the question states corrects it
    ("Since the bins are collected weekly, which day should I put mine out?",
     "Bins are collected fortnightly rather than weekly, on Wednesdays.", "false_premise",
     "Fortnightly, on Wednesdays.", "correction"),
]

ANSWERS = [
    # each alternative of the question back carries the value asked (a year, to "How old ...?")
    ("How old is the bridge?", "Do you mean the stone bridge by the mill (built in 1790) or the iron footbridge "
     "(1884)?", "ambiguous_reference", "", "answer"),
    # near miss: the alternatives named without their values
    ("How old is the bridge?", "Do you mean the stone bridge by the mill or the iron footbridge?",
     "ambiguous_reference", "", "refusal"),
    # "We're not able to ..." to "Will you ...?" is the organisation's practice: the answer no
    ("Will you tell me what my old ring is worth?", "We're not able to give valuations, I'm afraid - but if you'd "
     "like the ring identified, email a few photos to rings@example.org and we'll reply within ten days.", "", "",
     "answer"),
    # near miss: the information, not the service, is missing
    ("Will you tell me when the sale starts?", "We don't have any details of the sale dates yet, sorry.", "", "",
     "refusal"),
    # "They do." commits first; the caveat after it ("aren't included") takes nothing away
    ("Do the hire bikes come with helmets?", "They do. Every hire includes a helmet and lights.\n\nChild seats "
     "aren't included, as you'd expect.", "", "", "answer"),
    # near miss: no commitment first
    ("Do the hire bikes come with helmets?", "I can't find anything about helmets in the hire terms, sorry.", "", "",
     "refusal"),
    # passing thanks on relays them; it declines nothing
    ("Who's the receptionist Maria? She was so helpful.", "How kind! Maria has been with us for years and is one "
     "of our most popular receptionists - I'll pass your thanks on.", "absent_entity", "", "answer"),
    # near miss: "I'll pass on that" declines
    ("Who manages Maria?", "I'll pass on that one, sorry - I can't share staff details.", "absent_entity", "",
     "refusal"),
]

CASES = DECLINES_FIRST + POINTS_ELSEWHERE + PREMISE + ANSWERS


@pytest.mark.parametrize("question,reply,kind,reference,expected", CASES)
def test_round11_forms(question, reply, kind, reference, expected):
    got = classify_reply(reply, question, reference, kind)
    assert got.kind == expected, got


@pytest.mark.parametrize("question,reply,kind,reference,expected", PREMISE)
def test_round11_premise_forms_without_the_kind(question, reply, kind, reference, expected):
    # a reference comes only with a false premise, so the kind unknown reads these the same
    got = classify_reply(reply, question, reference, None)
    assert got.kind == expected, got


def test_classify_reply_stays_under_a_millisecond():
    # issue 26's budget: <= 1 ms per reply; CPU time, which other jobs on a shared machine do not inflate
    start = time.process_time()
    rounds = 20
    for _ in range(rounds):
        for question, reply, kind, reference, _expected in CASES:
            classify_reply(reply, question, reference, kind)
    per_reply = (time.process_time() - start) / (rounds * len(CASES))
    assert per_reply < 0.002, per_reply  # twice the budget: a slow shared core must not fail it
