"""The general forms behind the abstention judge's misses on blind sample 8 (issue 26), each checked on sentences
invented here, in other domains and words than the samples', beside a near miss that keeps its other label.
Samples 1-8 are development data; sample 9 is written blind to these rules and measured once, after them.

Each form is one of reply structure, not a phrase: a denial whose object is a name the question uses; a reply
that only sends the user elsewhere; a suggestion or an alternative after declining, which is no candidate; a
correction that gives the true value in other words (a number in words, a plural, "still" against "now", a
negative statement put for confirmation answered with its verb affirmed); an answer per reading, clause by
clause."""

from __future__ import annotations

import pytest

from ragdx.evaluate.abstention import classify_reply

# (question, reply, refusal_kind, reference, expected label)
NAMED_DENIAL = [
    # a thing the question names, denied as the object of "we don't have", "there's no", "... called X", "to X",
    # "I don't recognise X", a yes/no question included: the named thing does not exist, a refusal
    ("Can I see Dr Okonkwo on Friday?",
     "We don't have a Dr Okonkwo at the surgery. Our GPs are Dr Patel and Dr Rhys.", "absent_entity", "", "refusal"),
    ("Does the MV Corrie Belle take cars?",
     "There's no MV Corrie Belle on our routes. We run the MV Sound of Gigha and the MV Loch Ranza.",
     "absent_entity", "", "refusal"),
    ("Is the surgery's physiotherapist, Ms Doyle, taking new patients?",
     "We don't have a physiotherapist called Ms Doyle - physiotherapy isn't offered here. Your GP can refer you.",
     "absent_entity", "", "refusal"),
    ("Can I pay my council tax through the CivicPay portal?",
     "I don't recognise CivicPay - it isn't one of our services. You can pay online at the council website.",
     "absent_entity", "", "refusal"),
    ("Is your Eastbrook branch open on Sundays?",
     "We only have the one shop, on Mill Street - there isn't an Eastbrook branch.", "absent_entity", "", "refusal"),
    # the kind unknown: the same denial declines
    ("When does the bus to Carrick Point leave?",
     "We don't run buses to Carrick Point; our routes are Town-Harbour and Town-Airport.", None, "", "refusal"),
    # near misses: what the named thing does is denied (its name is the subject, not the object): an answer
    ("Does the MV Loch Ranza take cars?", "The MV Loch Ranza doesn't take cars; it is a foot-passenger ferry.",
     "absent_entity", "", "answer"),
    ("Does Dr Patel work on Fridays?", "Dr Patel doesn't work on Fridays; she is in Monday to Thursday.", None, "",
     "answer"),
]

DECLINING_WORDS = [
    # declining in words the cues missed: an apology with an adverb, "haven't got anything about", looking and
    # not finding, "a particular X in mind", declining to check or discuss
    ("I've lost my job. Can you help with my council tax?",
     "I'm so sorry, but I can't discuss individual council tax accounts. Please contact the Revenues Team.", "", "",
     "refusal"),
    ("Why did you withdraw the Xero export?",
     "I haven't got anything about the Xero export being withdrawn. Our changelog lists every change.",
     "false_premise", "The Xero export is available on all plans.", "refusal"),
    ("What does the Parkside Hardship Grant pay for?",
     "I've looked through the tenant handbook and couldn't find a Hardship Grant. Your housing officer may know more.",
     None, "", "refusal"),
    ("When is the physio in?",
     "Do you have a particular physio in mind? There are three, and they keep different hours.",
     "ambiguous_reference", "", "refusal"),
    ("Will it rain on Sunday?", "Sorry, I can't check the weather - I can help with library questions.", None, "",
     "refusal"),
    # near misses: an apology that then answers; a value for each reading before asking which; "you can't check"
    ("When does the pool open?", "I'm so sorry for the confusion earlier - the pool opens at 7am.", "", "", "answer"),
    ("When does the spin class run?",
     "Do you have a particular day in mind? It runs on Tuesdays at 6pm and Saturdays at 10am.",
     "ambiguous_reference", "", "answer"),
    ("Can I check in online the day before?", "You can't check in online until 24 hours before departure.", "", "",
     "answer"),
]

POINTS_ELSEWHERE = [
    # a suggestion of what to do, or of something else to look at, after declining is no candidate answer
    ("Is there a changing room at Fairfield pool?",
     "I don't have facility details for Fairfield, sorry. It might be worth phoning the pool before you go.",
     "omitted_fact", "", "refusal"),
    ("Should I remortgage now?",
     "I'm afraid I can't give financial advice. If it's your savings you're thinking about, our Easy Saver (2.1%) "
     "might be worth a look.", "out_of_domain", "", "refusal"),
    # near miss: a hedged value is still one
    ("How much is the annual pass?", "I don't have the exact price, but it might be about £40.", "omitted_fact", "",
     "answer"),
    # a reply that only sends the user to someone else answers nothing
    ("How long is the warranty on the Arc kettle?",
     "Please could you contact our customer service team on 0800 123 4567? They'll be happy to help.", "", "",
     "refusal"),
    # near misses: the question asks how to do it, or the pointer carries the value asked for
    ("How do I claim on the warranty?", "Please contact our customer service team on 0800 123 4567.", "", "",
     "answer"),
    ("How much notice do I need to give to cancel?", "Please call us at least 48 hours before your appointment.",
     "", "", "answer"),
    # "rather than" inside an instruction sets two actions side by side and corrects nothing
    ("My roof is leaking. How soon can someone come?",
     "A leaking roof is an urgent repair, so we aim to visit within 24 hours. Please phone the repairs line rather "
     "than using the online form.", "", "", "answer"),
    # round 11: the question states nothing about York, so setting it aside corrects no premise - the writers'
    # rule makes this an answer (Leeds); a "rather than" against a stated value stays a correction
    # (tests/test_abstention_round11.py)
    ("Which depot did parcel 55 leave from?", "Parcel 55 left from Leeds rather than York.", "", "", "answer"),
    # an alternative the business offers, to a yes/no question about another thing, is no candidate
    ("Do you do gift wrapping?",
     "The delivery terms don't mention gift wrapping, though we do offer personalised cards for £2.",
     "omitted_fact", "", "refusal"),
    ("Do you do gift wrapping?", "The terms don't say, but we do offer gift wrapping in store for £3.",
     "omitted_fact", "", "answer"),
]

IMPLICIT_CORRECTIONS = [
    # the true value given as a number in words; a plural ending in -ies stemmed as its singular
    ("My notice period is 3 months - can I leave sooner?",
     "The standard notice period is one month, so 3 months would be unusual. Check your contract with HR.",
     "false_premise", "Notice is 1 month", "correction"),
    ("Why do the Leeds libraries charge more for printing than York?",
     "Printing is 10p a page at every library, Leeds included.", "false_premise", "all libraries charge 10p",
     "correction"),
    # the value the premise gets wrong is a percentage: the price alone leaves it standing, the percentage
    # corrects it even where the reply repeats the question's frame
    ("The Gold card gives 20% off, how do I apply?",
     "Apply at any till with photo ID. The card costs £25 and lasts a year.", "false_premise",
     "The Gold card gives 10% off; it costs £25.", "answer"),
    ("The Gold card gives 20% off, how do I apply?",
     "The Gold card gives 10% off, and it costs £25 - apply at any till.", "false_premise",
     "The Gold card gives 10% off; it costs £25.", "correction"),
    # "still" against a question that takes a change as given ("now"); near miss: the change confirmed
    ("Why is parking £4 now?", "Parking is still free for customers, as it always has been.", "false_premise",
     "Parking is free", "correction"),
    ("Why is the day ticket £9 now?", "The day ticket went up to £9 in May to cover fuel costs.", "false_premise",
     "The day ticket is £7", "answer"),
    # a negative statement put for confirmation, answered with its verb affirmed; near miss: agreed first
    ("Guide dogs aren't allowed in the cafe, right?",
     "Rest assured: guide dogs are allowed throughout the building, the cafe included.", "false_premise",
     "assistance dogs are welcome everywhere", "correction"),
    ("Dogs aren't allowed in the cafe, right?",
     "That's right - dogs aren't allowed in the cafe; they can wait in the porch.", "false_premise",
     "assistance dogs are welcome everywhere", "answer"),
]

EACH_READING = [
    # an answer per reading, each in a clause of its own, after saying it turns on the reading
    ("Is there step-free access at Elm?",
     "It depends which Elm you mean: at Elm Court there is step-free access to every floor; at Elm Lodge the access "
     "is by stairs only.", "ambiguous_reference", "", "answer"),
    # near miss: the clauses only tell the readings apart
    ("Is there step-free access at Elm?",
     "It depends which Elm you mean: Elm Court is a block of flats; Elm Lodge is a care home.",
     "ambiguous_reference", "", "refusal"),
]

OTHER_WORDS = [
    # found by cases invented after the first rules, in a bike-hire and a museum domain
    # the remit or the sources in other words: "isn't something we sell", "what I have", "outside my patch",
    # "I'm just the ... assistant", a document of another name ("the spec sheet")
    ("How much is the Family Explorer pass?",
     "The Family Explorer pass isn't something we sell. We do sell day and week passes.", "absent_entity", "",
     "refusal"),
    ("Can I bring my dog to the museum?", "Sorry, that isn't covered in what I have. The front desk will know.",
     "omitted_fact", "", "refusal"),
    ("What's a good recipe for lasagne?",
     "I'm just the booking assistant for Kestrel Cycles, so recipes are a bit outside my patch!", "out_of_domain",
     "", "refusal"),
    ("How heavy is the Tandem X?",
     "The spec sheet doesn't give a weight for the Tandem X. The shop can weigh one for you.", "omitted_fact", "",
     "refusal"),
    ("Where is the meeting room?", "There are several meeting rooms - could you tell me its name?",
     "ambiguous_reference", "", "refusal"),
    # near misses: the business's own "we don't" answers "Do you ...?"; what a ticket doesn't include answers
    ("Do you repair carbon frames?", "We don't repair carbon frames, but we can send them to a specialist.", "", "",
     "answer"),
    ("Do you offer student discounts?",
     "We don't offer student discounts, but under-25s get 10% off with a Young Person's card.", "", "", "answer"),
    ("Does the day ticket include the tower?", "The day ticket doesn't include the tower; that's £4 extra.", "", "",
     "answer"),
    # a question that takes a start or a closure as given, answered that things go on as before
    ("Why did the museum start charging for entry?", "Entry to the museum is still free for everyone.",
     "false_premise", "No charge since 2001", "correction"),
    ("When did the cafe close down?", "The cafe is open as normal, 8am to 4pm daily.", "false_premise",
     "The cafe reopened in 2023", "correction"),
    ("Why did the cafe close?", "The cafe closed in January because the lease ended.", "false_premise",
     "The cafe reopened in 2023", "answer"),
    # pointers elsewhere in other words, and with an apology even to a question of how to do something
    ("What's the deposit for an e-bike?", "For that, it's best to give the shop a ring on 01234 567890.", "", "",
     "refusal"),
    ("How do I reset my router?", "That's one for your broadband provider, I'm afraid.", "out_of_domain", "",
     "refusal"),
    # near misses: the question asks for the contact itself
    ("What's the phone number for repairs?", "Please call 0300 111 2222 for repairs.", "", "", "answer"),
    ("Who do I speak to about a complaint?", "Please contact our Customer Relations team on 0300 111 2222.", "", "",
     "answer"),
]

CASES = NAMED_DENIAL + DECLINING_WORDS + POINTS_ELSEWHERE + IMPLICIT_CORRECTIONS + EACH_READING + OTHER_WORDS


@pytest.mark.parametrize("question,reply,kind,reference,expected", CASES)
def test_round9_forms(question, reply, kind, reference, expected):
    got = classify_reply(reply, question, reference, kind)
    assert got.kind == expected, got


def test_a_named_denial_answers_a_yes_no_question_when_the_kind_is_a_question_to_answer():
    # the rule reads a denial of a named thing as a refusal only where the thing may be absent: to a question to
    # answer, "We don't stock Earl Grey" answers "Do you stock Earl Grey?"
    reply, question = "We don't have Earl Grey; our black teas are Assam and Ceylon.", "Do you have Earl Grey?"
    assert classify_reply(reply, question, "", "").kind == "answer"
    assert classify_reply(reply, question, "", "absent_entity").kind == "refusal"


def test_with_the_kind_unknown_a_yes_no_question_needs_a_denial_of_existence():
    # "We don't integrate with X" answers "Do you integrate with X?"; "We don't have a Dr X" denies Dr X exists
    assert classify_reply("There's no Dr Lewis at the practice.", "Can I book with Dr Lewis?").kind == "refusal"
    got = classify_reply("We don't deliver to Arden; Arden orders are collected in store.",
                         "Can I get delivery to Arden?")
    assert got.kind == "answer", got
