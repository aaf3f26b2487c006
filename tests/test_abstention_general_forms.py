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
