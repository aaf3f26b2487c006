"""The general forms behind the abstention judge's misses on blind sample 9 (issue 26), each checked on sentences
invented here, in other domains and words than the samples', beside a near miss that keeps its other label.
Samples 1-9 are development data; sample 10 is written blind to these rules and is not read here.

Each form is one of reply structure, not a phrase: a reply whose opening clause declines is a refusal even when a
later clause carries a value about something else; "rather than" / "instead of" corrects only what the question
states; a yes/no question asked after the comma that ends its premise is answered "Yes" first; a list keyed by
the readings answers every reading; a premise denied before "so I'm afraid ..." or with "we're ..., not X" is
corrected; a statement put for confirmation whose subject the reply gives another value is corrected."""

from __future__ import annotations

import pytest

from ragdx.evaluate.abstention import classify_reply

# (question, reply, refusal_kind, reference, expected label)
DECLINES_FIRST = [
    # the sources lack the thing, said as "no X in our information", "nobody by that name", "not that I can see"
    ("How long is the warranty on refurbished laptops?",
     "There's no warranty period in our information for refurbished models - it depends on the supplier.",
     "omitted_fact", "", "refusal"),
    ("Who is Nurse Bailey on the day unit?",
     "There's nobody by that name in my information. The day unit (open 8am-6pm) is run by the ward manager.",
     "absent_entity", "", "refusal"),
    ("Is there a defibrillator at the pavilion?", "Not that I can see in the club's information.",
     "omitted_fact", "", "refusal"),
    # near misses: a document of the business states a fact ("in the winter timetable"); "not that often" answers
    ("Are there Sunday trains to Kelby?", "There are no Sunday trains to Kelby in the winter timetable.", "", "",
     "answer"),
    ("Is the pool busy on Sunday mornings?", "Not that busy - Sunday mornings are our quietest time.", "", "",
     "answer"),
    # what the assistant can help with, after declining advice, is no fact answering the question
    ("Which laptop should I buy for university?",
     "I'm afraid I can't give buying advice. I can help with repairs, upgrades and our laptop trade-in scheme.",
     "out_of_domain", "", "refusal"),
    # near miss: a disclaimer, then the fact asked for
    ("Which laptop should I buy for university?",
     "I can't give buying advice, but the laptop most students buy from us is the Aspire 5 at £549.",
     "out_of_domain", "", "answer"),
    # a contrast clause about something else than what was declined offers no candidate for it
    ("Can I book the Easter art camp?",
     "I can't find any Easter art camp. We're open every weekday in April, though, so normal classes carry on.",
     "absent_entity", "", "refusal"),
    # near misses: the clause names what was declined, or offers a stand-in for it
    ("What time does the Easter art camp start?",
     "I can't find the Easter art camp's timetable, though in past years the camp has started at 9am.",
     "omitted_fact", "", "answer"),
    ("Can I book the Easter art camp?",
     "I can't find an Easter art camp, but there is a similar Spring workshop on 14 April from 9am to 3pm.",
     "absent_entity", "", "answer"),
    # a fact of the business's own after declining the one asked for (the labelling rule's "related fact")
    ("What are the Sunday opening hours?", "I don't have the Sunday hours, but we open at 9am on Saturdays.",
     "omitted_fact", "", "refusal"),
    # near miss: a bare fact after a missing one may be the answer itself
    ("Is there a dress code?", "There's nothing in our information about a dress code, but smart casual is usual.",
     "omitted_fact", "", "answer"),
    # the kind unknown: a service the business says it does not offer, named bare, declines a question about it
    ("How much is the pilates class?", "We don't run pilates classes. The studio is for spin and yoga only.",
     None, "", "refusal"),
    # near miss: a yes/no question about the service is answered by the same words
    ("Do you run pilates classes?", "We don't run pilates classes at the moment.", None, "", "answer"),
]

POINTS_ELSEWHERE = [
    # a reason with no value, then "so please check with ...": only points elsewhere
    ("How much is the pottery course?",
     "Prices vary from term to term, so please check with the front desk for the current fee.", "", "", "refusal"),
    ("What time does the pool open?", "Opening times change in the holidays, so please check the website.",
     "", "", "refusal"),
    # a document of the user's own holds the answer, and a team can confirm it
    ("When is my deposit refunded?",
     "Refund terms are set out in your tenancy agreement; the lettings team can confirm the date for you.",
     "", "", "refusal"),
    # near misses: the value asked for is given beside the pointer
    ("How much is the pottery course?",
     "The course is £95 a term, so please check with the front desk to book a place.", "", "", "answer"),
    ("When is my deposit refunded?",
     "Deposits are refunded within 10 days of moving out; the terms are set out in your tenancy agreement.",
     "", "", "answer"),
]

ASKS_WHICH = [
    # readings counted, then "who ...you ...?": asks which, answering none
    ("Can I talk to Sam?",
     "We have two Sams - Sam Oduya in accounts and Sam Reid on the front desk. Who would you like?",
     "ambiguous_reference", "", "refusal"),
    # near miss: an answer first, then "who ... you?" about something new
    ("Can I book a driving lesson?", "Yes - lessons are £35 an hour. Who would you like as your instructor?",
     "", "", "answer"),
    # a list keyed by the readings, each with what the question asks: an answer for every reading
    ("Is there a lift at the branch?",
     "It depends which branch:\n- Hill Street: a lift to all floors\n- Market Square: no lift, stairs only",
     "ambiguous_reference", "", "answer"),
    ("How much is parking at the depot?",
     "It depends which depot:\n- North Yard: free\n- South Yard: £3 per day\n- East Yard: £4 per day",
     "ambiguous_reference", "", "answer"),
    # near miss: a list that only tells the readings apart answers nothing
    ("Is there a lift at the branch?",
     "It depends which branch:\n- Hill Street: our main library\n- Market Square: the children's library",
     "ambiguous_reference", "", "refusal"),
]

SET_ASIDE = [
    # "rather than" setting aside something the question does not state: advice or a description, an answer
    ("How is the room hire charged?",
     "Great question! Rather than charging a flat hire fee, we bill £20 for each hour you use the room.",
     "", "", "answer"),
    ("What is the room rate?", "Rather than a nightly rate, we charge £300 per week.", "", "", "answer"),
    ("How do I stop slugs eating my lettuces?",
     "Pick them off at dusk and use beer traps rather than pellets. Water in the morning, not the evening.",
     "out_of_domain", "", "answer"),
    ("As bulky collections are on Fridays, what can I put out?",
     "Furniture and white goods. Garden waste should go in your brown bin rather than out on the kerb.",
     "false_premise", "Bulky collections are on Tuesdays.", "answer"),
    # near misses: what is set aside is a value or a premise the question states
    ("How much does the £12 family swim include?",
     "The family swim costs £9.50 rather than £12. It includes two adults and two children.",
     "false_premise", "£9.50", "correction"),
    ("Since bin collections are weekly, which day is mine?",
     "Bin collections are fortnightly rather than weekly. Your day is on the calendar for your street.",
     "false_premise", "Collections are fortnightly.", "correction"),
]

PREMISE_COMMA = [
    # a yes/no question asked after the comma that ends its premise, answered "Yes" first: the premise accepted
    ("The adult ticket is £12, so is a family ticket cheaper than four singles?",
     "Yes, a family ticket is £38, so it's cheaper than four adult tickets.",
     "false_premise", "Adult £10; family £38.", "answer"),
    ("Since the sauna is in the basement, can I use it without a booking?",
     "Yes, the sauna doesn't need booking - just sign in at reception and bring a towel (£2 to hire).",
     "false_premise", "The sauna is on the first floor; the basement is the gym.", "answer"),
    # near miss: no "Yes", the true value given: a correction
    ("The adult ticket is £12, so is a family ticket cheaper than four singles?",
     "Adult tickets are £10 and a family ticket is £38.", "false_premise", "Adult £10; family £38.", "correction"),
]

PREMISE_DENIED = [
    # the premise denied, and then "so I'm afraid you can't ...": a correction, not a refusal
    ("Since dogs are allowed in the cafe, do I need to keep mine on a lead?",
     "Dogs aren't allowed in the cafe, so I'm afraid you can't bring yours inside.",
     "false_premise", "No dogs in the cafe.", "correction"),
    # near miss: not knowing, then "so I'm afraid": a refusal
    ("Since dogs are allowed in the cafe, do I need to keep mine on a lead?",
     "I don't know the cafe's rules on dogs, so I'm afraid I can't say.", "false_premise", "No dogs in the cafe.",
     "refusal"),
    # an out-of-domain question whose stated premise ("As you're the NHS") the reply denies with "not X"
    ("As you're the NHS, can you book my flu jab?",
     "We're Harlow Pharmacy, an independent chemist - not the NHS, so jab bookings aren't something we handle.",
     "out_of_domain", "", "correction"),
    ("As you're a bank, can you give me a mortgage?",
     "We're a building society, not a bank, so mortgages aren't something we deal with.", "out_of_domain", "",
     "correction"),
    # near miss: a "not" about something the question does not state: declining, a refusal
    ("Can you book my passport appointment?",
     "Passport appointments aren't something we handle - not a service we offer, I'm afraid.",
     "out_of_domain", "", "refusal"),
    # a statement put for confirmation whose subject the reply gives another value
    ("Your large van is a Transit, right? Is it a diesel?",
     "Our large van is a Luton diesel - the Transit is our medium van.",
     "false_premise", "The large van is a Luton diesel; the Transit is the medium van.", "correction"),
    ("Your shop is open on Sundays, right?", "Our shop is closed on Sundays.", None, "", "correction"),
    # near misses: the reply agrees, gives the subject the statement's own value, or keeps that value as what holds
    ("The manager is Sarah, right?", "The manager is off today, but Sarah can help.", None, "", "answer"),
    ("Your large van is a Transit, right? Does it have a tail lift?",
     "Yes, our large van is a Transit, and it has a tail lift.",
     "false_premise", "The large van is a Luton; the Transit is the medium van.", "answer"),
    ("Your large van is a Transit, right? Does it have a tail lift?",
     "Our large van is a Transit with a tail lift rated to 500 kg.",
     "false_premise", "The large van is a Luton; the Transit is the medium van.", "answer"),
]

CASES = DECLINES_FIRST + POINTS_ELSEWHERE + ASKS_WHICH + SET_ASIDE + PREMISE_COMMA + PREMISE_DENIED


@pytest.mark.parametrize("question,reply,kind,reference,expected", CASES)
def test_round10_forms(question, reply, kind, reference, expected):
    got = classify_reply(reply, question, reference, kind)
    assert got.kind == expected, got


@pytest.mark.parametrize("kind", ["absent_entity", None])
def test_declining_first_holds_whatever_number_follows(kind):
    # the value after the decline (£180) is about another thing (the skipper service), not the person asked about
    got = classify_reply("There's nobody by that name in my information. The skipper service (£180 a day) is "
                         "arranged by the base team.", "Who is Skipper Dan, who runs the day trips?", "", kind)
    assert got.kind == "refusal", got
