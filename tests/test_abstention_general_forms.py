"""The general forms behind the abstention judge's misses on samples 1-4 (issue 26), each checked on
sentences invented here, in other domains and other words than the samples', so a rule that only
matched one sample's wording fails. Each form has cases that must keep their other label too."""

from __future__ import annotations

import pytest

from ragdx.evaluate.abstention import classify_reply

# (question, reply, refusal_kind, reference, expected label)
CASES = [
    # clarifying questions that name the candidates, without committing to either
    (
        "What is the opening time of St. Mary's library?",
        "Which St. Mary's library do you mean? The county runs one in Ashby and another in Colnbrook.",
        "ambiguous_reference",
        "",
        "refusal",
    ),
    (
        "How long is the 'Harbour Lights' tour?",
        "The brochure lists a 2019 and a 2023 'Harbour Lights' tour. Which one are you asking about?",
        "ambiguous_reference",
        "",
        "refusal",
    ),
    (
        "What did the Fenwick invoice total?",
        "Three invoices were issued to suppliers called Fenwick. Could you provide the invoice date?",
        "ambiguous_reference",
        "",
        "refusal",
    ),
    (
        "Where does Prof. Adeyemi teach?",
        "Sorry, the request is ambiguous: the faculty lists two professors with that surname. Which do you mean?",
        "ambiguous_reference",
        "",
        "refusal",
    ),
    # ... but a value for every reading is an answer, whatever doubt it opens with
    (
        "When was Sam Ortiz promoted?",
        "It's not clear which Sam Ortiz you are asking about, but one was promoted in May 2016 and the other in "
        "January 2021.",
        "ambiguous_reference",
        "",
        "answer",
    ),
    # scope said without a stock refusal phrase
    (
        "Can you write me a sonnet?",
        "I'm set up to answer questions about the Quayside Hotel from its guest handbook, and a poem isn't covered "
        "by it.",
        "out_of_domain",
        "",
        "refusal",
    ),
    (
        "Which running shoes are best for marathons?",
        "The Larchmont manuals focus on rowing machines and exercise bikes; they say nothing about footwear, so I "
        "can't recommend a pair.",
        "out_of_domain",
        "",
        "refusal",
    ),
    (
        "What is the square root of 729?",
        "Nice one! I'm here for tram timetable questions only.",
        "out_of_domain",
        "",
        "refusal",
    ),
    # "not disclosed / published / reported in the sources", unless the reply then commits to a value
    (
        "What was the brewery's 2022 revenue?",
        "The revenue figure isn't published in the annual reports I was given; they cover output in hectolitres only.",
        "omitted_fact",
        "",
        "refusal",
    ),
    (
        "When did the observatory close for renovation?",
        "No exact month is reported, but it seems the dome closed in spring 2018 for the refit.",
        "omitted_fact",
        "",
        "answer",
    ),
    # a name the sources do not hold
    (
        "Who composed 'Winter Orchard'?",
        "The label's discography has no album titled 'Winter Orchard'.",
        "absent_entity",
        "",
        "refusal",
    ),
    (
        "What is the status of booking QX-4471?",
        "The reference QX-4471 doesn't match any booking in the reservations system.",
        "absent_entity",
        "",
        "refusal",
    ),
    # on a false premise, missing evidence is a refusal; only saying the premise is false corrects it
    (
        "How many violins did the Tollgate workshop repair after the flood?",
        "I have no data on violin repairs at the Tollgate workshop.",
        "false_premise",
        "no flood at Tollgate",
        "refusal",
    ),
    (
        "When did the ferry 'Gannet' win the safety award?",
        "The documents provided don't mention any awards for the Gannet, so I can't say when it won one.",
        "false_premise",
        "no such award",
        "refusal",
    ),
    (
        "When did the ferry 'Gannet' win the safety award?",
        "The Gannet has never won a safety award; its only citation is a 2015 commendation for punctuality.",
        "false_premise",
        "no such award",
        "correction",
    ),
    # count corrections: a number set against the question's ordinal
    (
        "When did the co-op open its seventh store?",
        "The co-op has six stores, not seven: Ashford, Bexley, Crayford, Dartford, Erith and Foots Cray.",
        "false_premise",
        "6 stores",
        "correction",
    ),
    ("When did the 3rd runway open?", "The airport has 2 runways, not 3.", "false_premise", "2 runways", "correction"),
    # a question taking for granted that something stopped, answered that it goes on
    (
        "Why did the museum stop its Thursday late openings?",
        "The museum still opens late on Thursdays, until 9 pm.",
        "false_premise",
        "still open late",
        "correction",
    ),
    (
        "Which routes have been discontinued?",
        "Route 12 was discontinued in 2020; every other route is still running.",
        "",
        "",
        "answer",
    ),
    # an answer followed by "the sources say little more" stays an answer
    (
        "Which quarry supplies the Kirkby slate?",
        "The Kirkby slate comes from the Bramwell quarry. The documents don't say much more about the quarry itself.",
        "false_premise",
        "Westmoor quarry",
        "answer",
    ),
]


@pytest.mark.parametrize(
    ("question", "reply", "kind", "reference", "expected"), CASES, ids=[f"{c[4]}-{i}" for i, c in enumerate(CASES)]
)
def test_general_forms(question, reply, kind, reference, expected):
    assert classify_reply(reply, question, reference, kind).kind == expected


# the refusal kind unknown (refusal_kind=None); a reference comes only with a false premise
UNKNOWN_KIND = [
    # saying the named thing does not exist, with no true value to give, declines (an absent entity)
    (
        "What is the address of the Zephyr Street depot?",
        "Calder Buses doesn't run a depot on Zephyr Street; its depots are at Mill Lane and Hawthorn Road.",
        "",
        "refusal",
    ),
    (
        "Which seat is in box 14 of the Grand Circle?",
        "The Grand Circle only has boxes 1 to 8, so there is no box 14.",
        "",
        "refusal",
    ),
    (
        "When did chef Ines Varga join the restaurant?",
        "There doesn't appear to be a chef named Ines Varga on the rota. The only Varga listed is a sommelier, not a "
        "chef.",
        "",
        "refusal",
    ),
    # an answer first, then a negative detail: an answer
    (
        "What is the largest suitcase the airline allows in the cabin?",
        "Cabin bags may be up to 55 cm long. Bags larger than this aren't allowed on board.",
        "",
        "answer",
    ),
    # with a reference (a false premise) the same denial corrects, and "in fact" after declining corrects too
    (
        "How badly did the 2019 storm damage the pier?",
        "I couldn't find any mention of a storm in 2019. In fact, the council's survey says the pier has needed no "
        "repairs since it reopened in 2008.",
        "no storm damage recorded",
        "correction",
    ),
]


@pytest.mark.parametrize(
    ("question", "reply", "reference", "expected"),
    UNKNOWN_KIND,
    ids=[f"{c[3]}-{i}" for i, c in enumerate(UNKNOWN_KIND)],
)
def test_general_forms_kind_unknown(question, reply, reference, expected):
    assert classify_reply(reply, question, reference, None).kind == expected


def test_title_full_stop_ends_no_sentence():
    # "Dr." before a name must not split the clarifying question in two (it would lose "do you mean")
    assert (
        classify_reply(
            "Which Dr. Moreau do you have in mind? There is one in cardiology and another in radiology.",
            "What are Dr. Moreau's clinic hours?",
            "",
            "ambiguous_reference",
        ).kind
        == "refusal"
    )


# The structural forms behind the misses on sample 5 (issue 26), on sentences invented here in other domains:
# a question back that asks the user to choose or specify, however worded; a remit said as what the assistant or
# its sources can do; an attribute the sources leave out after what they do say; a disclaimer before a committed
# answer; a condition on the user's own actions; a correction followed by a no-record clause; a premise denied and
# restated on a question to answer; a count answered with zero; a number inside a group's name ("under-16s").
# Each form has cases that keep the other label. (question, reply, refusal_kind, reference, expected label)
STRUCTURAL = [
    (
        "Can I get a refund on my rail ticket?",
        "Which fare did you buy, Flexi or Saver? Refunds work differently for each.",
        "ambiguous_reference",
        "",
        "refusal",
    ),
    ("How late is the pool open?", "Do you mean the indoor pool or the lido?", "ambiguous_reference", "", "refusal"),
    (
        "How late is the pool open?",
        "Sorry - are you asking about the indoor pool or the lido?",
        "ambiguous_reference",
        "",
        "refusal",
    ),
    (
        "What's on the reading list for the seminar?",
        "Could you say which seminar? The faculty runs three this term.",
        "ambiguous_reference",
        "",
        "refusal",
    ),
    ("When does the intake start?", "In which year?", "ambiguous_reference", "", "refusal"),
    (
        "Who coaches Hale?",
        "To be sure I get it right - do you mean Jo Hale, the goalkeeper, or Sam Hale, the winger?",
        "ambiguous_reference",
        "",
        "refusal",
    ),
    (
        "How much is the compost?",
        "Two bag sizes are sold: the small bag costs £6 and the large bag £11. Which one would you like?",
        "ambiguous_reference",
        "",
        "answer",
    ),
    (
        "Which campus does tutor Osei teach at?",
        "Do you mean Kwame Osei, who teaches at the Riverside campus, or Ama Osei at Hillcrest?",
        "ambiguous_reference",
        "",
        "answer",
    ),
    (
        "Which platform does the 14:05 to Dunmore leave from?",
        "The 14:05 to Dunmore leaves from platform 3. Which station will you be coming from?",
        "",
        "",
        "answer",
    ),
    (
        "What does the Orla lamp cost?",
        "There are two Orla lamps (30 cm and 45 cm). Which one do you mean?",
        "ambiguous_reference",
        "",
        "refusal",
    ),
    (
        "Can you recommend a curry house near the station?",
        "I'm Larkfield Rail's booking assistant and can only help with tickets, fares and timetables.",
        "out_of_domain",
        "",
        "refusal",
    ),
    (
        "How do I descale the X300 kettle?",
        "The manuals I was given only cover the X200 range.",
        "out_of_domain",
        "",
        "refusal",
    ),
    (
        "Does the warranty cover accidental damage?",
        "No - the warranty only covers manufacturing faults, so accidental damage isn't included.",
        "",
        "",
        "answer",
    ),
    (
        "When is the Organic Chemistry exam?",
        "The course page lists the module titles and tutors, but it doesn't give the exam dates.",
        "omitted_fact",
        "",
        "refusal",
    ),
    (
        "How long does the Ridge walk take?",
        "The leaflet describes the Ridge walk's route and parking but doesn't say how long it takes.",
        "omitted_fact",
        "",
        "refusal",
    ),
    (
        "Is lunch included on the castle tour?",
        "The brochure says the castle tour doesn't include lunch, so bring a packed meal.",
        "",
        "",
        "answer",
    ),
    (
        "Can I talk to Professor Hallam about my thesis?",
        "I'm not aware of a Professor Hallam in the physics department.",
        "absent_entity",
        "",
        "refusal",
    ),
    (
        "What's the weather going to be like at the regatta?",
        "I don't have weather forecasts; I can help with race entries and results.",
        "out_of_domain",
        "",
        "refusal",
    ),
    (
        "Can my landlord enter without notice?",
        "I can't give legal advice, but no - the tenancy terms say the landlord must give 24 hours' notice before "
        "entering.",
        "",
        "",
        "answer",
    ),
    (
        "Is the Tracker bond fixed for two years?",
        "I can't offer personal recommendations, but yes, the Tracker bond is fixed for two years.",
        "",
        "",
        "answer",
    ),
    (
        "What happens if I miss a dental check-up?",
        "A £30 fee is charged if you don't show up or cancel on the day.",
        "",
        "",
        "answer",
    ),
    (
        "Why did the bakery stop selling sourdough?",
        "The bakery still sells sourdough every day; I have no record of it being dropped.",
        "false_premise",
        "still sells sourdough",
        "correction",
    ),
    (
        "Why was Dana Holt removed as head coach?",
        "Dana Holt is still head coach; there's no record of her being dismissed.",
        "false_premise",
        "Dana Holt remains head coach",
        "correction",
    ),
    (
        "Is the 3-day pass valid on buses?",
        "It's a two-day pass, not three, and it covers trams. I can't see anything about buses.",
        "false_premise",
        "a two-day tram pass",
        "correction",
    ),
    (
        "How much is the parking permit now that it's £60?",
        "The permit hasn't gone up to £60 - it costs £48 a year.",
        "",
        "",
        "correction",
    ),
    (
        "Which platform did the 10:15 move to last week?",
        "The 10:15 didn't move platforms last week; it has left from platform 2 since May.",
        "",
        "",
        "correction",
    ),
    (
        "How many refunds did store 4 issue in May?",
        "Store 4 didn't issue any refunds in May; the first came on 2 June.",
        "",
        "",
        "answer",
    ),
    (
        "What's the youngest age for the climbing club, given 12-year-olds can join?",
        "The youngest age is 12, so your daughter can join - under-16s need a parent's signature.",
        "false_premise",
        "16",
        "answer",
    ),
]


@pytest.mark.parametrize(
    ("question", "reply", "kind", "reference", "expected"),
    STRUCTURAL,
    ids=[f"{c[4]}-{i}" for i, c in enumerate(STRUCTURAL)],
)
def test_structural_forms(question, reply, kind, reference, expected):
    assert classify_reply(reply, question, reference, kind).kind == expected


# More of the same forms, and plain answers and refusals around them, read the same whether the refusal kind is
# passed or not (a reference, as in an evaluation, only for a false premise)
STRUCTURAL_EITHER_KIND = [
    (
        "What is the ISA allowance?",
        "While I can't give tax advice, the ISA allowance is £20,000 a year.",
        "",
        "",
        "answer",
    ),
    (
        "Is the gallery open on Sundays?",
        "Yes, it's open on Sundays from 10 to 4. I don't have the bank-holiday hours, though.",
        "",
        "",
        "answer",
    ),
    (
        "What time does the gym open?",
        "The gym opens at 6 am on weekdays. Which class were you hoping to join?",
        "",
        "",
        "answer",
    ),
    (
        "When is the market on?",
        "Is that the Saturday or the Sunday market you're after?",
        "ambiguous_reference",
        "",
        "refusal",
    ),
    (
        "What time does the branch close?",
        "Let me know which branch and I'll look up its hours.",
        "ambiguous_reference",
        "",
        "refusal",
    ),
    (
        "Can you help me with my tax return?",
        "That's outside my lane, sorry - I only deal with parcel tracking.",
        "out_of_domain",
        "",
        "refusal",
    ),
    (
        "How much does the Tall mug cost?",
        "If you mean the Tall mug in the Linnet range, it's £14; which glaze do you have?",
        "ambiguous_reference",
        "",
        "answer",
    ),
    (
        "Who leads the choir?",
        "There are a few Ashtons on the roster. Who did you have in mind?",
        "ambiguous_reference",
        "",
        "refusal",
    ),
    (
        "When did the lift fail?",
        "Did you want the date of the first failure or the most recent one?",
        "ambiguous_reference",
        "",
        "refusal",
    ),
    (
        "How many parcels did depot 7 lose in March?",
        "There were no lost parcels at depot 7 in March.",
        None,
        "",
        "answer",
    ),
    ("How many parcels did depot 7 lose in March?", "Depot 7 didn't lose any parcels in March.", None, "", "answer"),
    (
        "What is Tom Varley's home address?",
        "The member list I was given doesn't include home addresses; I can't share Tom Varley's.",
        None,
        "",
        "refusal",
    ),
    ("How late is the pool open?", "Do you mean the indoor pool or the lido?", None, "", "refusal"),
    ("When does the swimming pool open on Saturdays?", "It opens at 7 am on Saturdays.", "", "", "answer"),
    ("Does the hotel have parking?", "Yes - there are 40 spaces behind the hotel, at £12 a night.", "", "", "answer"),
    ("How many staff work at the Leeds office?", "There are 42 staff at the Leeds office.", "", "", "answer"),
    (
        "Who manages the Bristol branch?",
        "Priya Shah manages the Bristol branch; she took over in 2021.",
        "",
        "",
        "answer",
    ),
    ("Can I bring my dog to the café?", "No, only assistance dogs are allowed inside the café.", "", "", "answer"),
    (
        "What's the late fee for library books?",
        "It's 20p a day per book, capped at £5. You won't be charged for children's books.",
        "",
        "",
        "answer",
    ),
    ("Is the museum free?", "Entry to the permanent galleries is free; special exhibitions cost £8.", "", "", "answer"),
    (
        "What's the warranty on the Alto kettle?",
        "Two years. I don't have details on extended warranties, though.",
        "",
        "",
        "answer",
    ),
    (
        "Which dentist is on call this weekend?",
        "Dr Fenwick is on call this weekend. Would you like her number?",
        "",
        "",
        "answer",
    ),
    ("Where is the nearest defibrillator?", "There's one in the main reception, next to the lifts.", "", "", "answer"),
    ("What's the interest rate on the Gold Saver?", "The Gold Saver pays 4.1% AER.", "omitted_fact", "", "answer"),
    ("When did Dr Moss join?", "Dr Moss joined in 2017.", "ambiguous_reference", "", "answer"),
    ("What's the capital of Peru?", "The capital of Peru is Lima.", "out_of_domain", "", "answer"),
    (
        "What's Dr Moss's direct line?",
        "There are two Dr Mosses here - Helen in paediatrics and Ian in cardiology. Which one are you trying to reach?",
        "ambiguous_reference",
        "",
        "refusal",
    ),
    (
        "How much is the Deluxe plan?",
        "I can't find a Deluxe plan - our plans are Basic, Plus and Premium.",
        "absent_entity",
        "",
        "refusal",
    ),
    (
        "What's the CEO's salary?",
        "Salaries aren't something the annual report breaks down by person, so I can't say.",
        "omitted_fact",
        "",
        "refusal",
    ),
    (
        "Can you book me a taxi?",
        "Sorry, booking taxis isn't something I can do - I can answer questions about the hotel.",
        "out_of_domain",
        "",
        "refusal",
    ),
    (
        "What's the pass mark for module CS210?",
        "The module handbook doesn't state a pass mark for CS210.",
        "omitted_fact",
        "",
        "refusal",
    ),
    (
        "What's the pass mark for module CS210?",
        "That detail isn't in the handbook, I'm afraid.",
        "omitted_fact",
        "",
        "refusal",
    ),
    (
        "When is the Autumn Gala?",
        "I couldn't see any event called the Autumn Gala in the calendar.",
        "absent_entity",
        "",
        "refusal",
    ),
    (
        "Who's the best striker in the world?",
        "That's a football question - I'm only set up for the club's membership and ticketing.",
        "out_of_domain",
        "",
        "refusal",
    ),
    (
        "What's the fee for the advanced course?",
        "Which advanced course - the evening one or the weekend intensive?",
        "ambiguous_reference",
        "",
        "refusal",
    ),
    (
        "How long is the warranty on the Aria?",
        "Are you asking about the Aria hob or the Aria oven?",
        "ambiguous_reference",
        "",
        "refusal",
    ),
    (
        "What time does the clinic close?",
        "It depends on which clinic you mean - can you tell me the town?",
        "ambiguous_reference",
        "",
        "refusal",
    ),
    (
        "How do I fix my car's brakes?",
        "I'm afraid I can only answer questions about the council's recycling service.",
        "out_of_domain",
        "",
        "refusal",
    ),
    (
        "What's the exam weighting for Ethics?",
        "The syllabus covers Ethics topics week by week but gives no weighting for the exam.",
        "omitted_fact",
        "",
        "refusal",
    ),
    ("Who designed the Arlen Bridge?", "I have nothing on an Arlen Bridge.", "absent_entity", "", "refusal"),
    (
        "Who designed the Arlen Bridge?",
        "The Arlen Bridge isn't one I have any information about.",
        "absent_entity",
        "",
        "refusal",
    ),
    (
        "What's the penalty rate on early withdrawal?",
        "The terms mention that early withdrawal is possible, but they don't specify a penalty rate.",
        "omitted_fact",
        "",
        "refusal",
    ),
    (
        "What's the penalty rate on early withdrawal?",
        "Early withdrawal is allowed, but the terms don't say what the penalty is.",
        "omitted_fact",
        "",
        "refusal",
    ),
    (
        "Why did the library close its Eastgate branch?",
        "The Eastgate branch hasn't closed - it's open Monday to Saturday.",
        "false_premise",
        "open Monday to Saturday",
        "correction",
    ),
    (
        "When did the 2pm ferry start running?",
        "There isn't a 2pm ferry; the afternoon sailings are at 1:30 and 3:15.",
        "false_premise",
        "sailings at 1:30 and 3:15",
        "correction",
    ),
    (
        "How much did the price rise when the gym went to £50?",
        "The gym is still £42 a month - it hasn't gone up to £50.",
        "false_premise",
        "£42 a month",
        "correction",
    ),
    (
        "Why is the Orchard Room closed on Fridays?",
        "Actually the Orchard Room is open on Fridays until 10 pm.",
        "false_premise",
        "open on Fridays",
        "correction",
    ),
    (
        "What's the weight limit on the 5-seat lift?",
        "The lift takes 8 people, not 5, up to 630 kg.",
        "false_premise",
        "8 people",
        "correction",
    ),
    (
        "Which bus goes to the hospital?",
        "The 14 and the 22 both stop outside the hospital's main entrance.",
        "",
        "",
        "answer",
    ),
    (
        "Do I need to book for the tour?",
        "Yes, booking is required - which you can do online or at the desk.",
        "",
        "",
        "answer",
    ),
    (
        "Are there any fees for closing the account?",
        "I'm not aware of any closing fees - the tariff lists none.",
        "",
        "",
        "answer",
    ),
    (
        "How many rooms does the Elm wing have?",
        "The Elm wing has 24 rooms. Do you want the accessible ones too?",
        "",
        "",
        "answer",
    ),
    (
        "What's the deadline for the essay?",
        "Friday 14 March at noon. If you don't submit by then, a 10% penalty applies.",
        "",
        "",
        "answer",
    ),
    (
        "What's the fine for a late return?",
        "£1 a day. If you can't return it in person, you can post it back.",
        "",
        "",
        "answer",
    ),
    ("Does the plan include dental cover?", "It doesn't - dental cover is an add-on at £6 a month.", "", "", "answer"),
    (
        "Who chairs the board?",
        "Maria Lind chairs the board. I don't have her contact details, though.",
        "",
        "",
        "answer",
    ),
    (
        "How long does delivery take?",
        "Standard delivery takes 3-5 working days; express takes 1 day. Which would you prefer?",
        "",
        "",
        "answer",
    ),
    (
        "Why did the council scrap the Tuesday collection?",
        "It hasn't - bins are still collected every Tuesday. I have no record of it being scrapped.",
        "false_premise",
        "still collected on Tuesdays",
        "correction",
    ),
    (
        "When did Holt Pharma's second factory open?",
        "Holt Pharma has just one factory, in Derby; I can't find anything about a second.",
        "false_premise",
        "one factory",
        "correction",
    ),
    (
        "What room is the Year 7 assembly in?",
        "Which school are you at? The trust runs three.",
        "ambiguous_reference",
        "",
        "refusal",
    ),
    (
        "What's the MOT fee at the Kings Road garage?",
        "I'm not aware of a Kings Road garage in our network.",
        "absent_entity",
        "",
        "refusal",
    ),
    (
        "What's the membership fee for under-25s?",
        "The fees page lists adult and senior rates, but not an under-25 rate.",
        "omitted_fact",
        "",
        "refusal",
    ),
]


@pytest.mark.parametrize(
    ("question", "reply", "kind", "reference", "expected"),
    STRUCTURAL_EITHER_KIND,
    ids=[f"{c[4]}-{i}" for i, c in enumerate(STRUCTURAL_EITHER_KIND)],
)
def test_structural_forms_with_and_without_kind(question, reply, kind, reference, expected):
    assert classify_reply(reply, question, reference, kind).kind == expected
    assert classify_reply(reply, question, reference, None).kind == expected
