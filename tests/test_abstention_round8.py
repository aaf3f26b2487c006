"""The general forms behind the abstention judge's misses on blind samples 6 and 7 (issue 26), each checked on
sentences invented here, in other domains and words than the samples', with near misses that must keep their
other label. Samples 1-7 are development data; sample 8 is measured once, blind, after these rules."""

from __future__ import annotations

import pytest

from ragdx.evaluate.abstention import classify_reply

# (question, reply, refusal_kind, reference, expected label)
CASES = [
    # a clarifying question whose alternatives follow a dash, with nothing answered
    ("How do I reset the thermostat?",
     "Which thermostat do you have - the Hive or the Nest? The steps differ.", "ambiguous_reference", "", "refusal"),
    ("When does the Saturday class start?",
     "That depends on which class - Yoga Basics or Power Yoga? Let me know and I'll look it up.",
     "ambiguous_reference", "", "refusal"),
    ("Who runs the Eastgate depot?", "Sorry, which Eastgate - the bus depot or the tram depot?",
     "ambiguous_reference", "", "refusal"),
    ("Is the north studio step-free?",
     "There is a North Studio upstairs and a North Room on the ground floor. I'm unsure which one you mean, so I "
     "can't say.", "ambiguous_reference", "", "refusal"),
    # near miss: a value for each reading, then the question back: an answer
    ("What does the river cruise cost?",
     "There are two cruises: the short one costs £12 and the long one £20. Which one shall I book?",
     "ambiguous_reference", "", "answer"),
    # the sources, named with words of their own, leave the thing out
    ("Are towels provided at the pool?", "Towels aren't mentioned in the leisure centre terms I can see.",
     "omitted_fact", "", "refusal"),
    ("What is the upload limit on the Team plan?",
     "Upload limits per plan aren't listed in the pricing documentation I have.", "omitted_fact", "", "refusal"),
    ("How many days of study leave do staff get?",
     "The policy sections I can see don't cover study leave. Your manager can confirm it.", "omitted_fact", "",
     "refusal"),
    ("How much is the Oolong Imperial tin?",
     "The catalogue has no Oolong Imperial. Our only oolong is the Tieguanyin.", "absent_entity", "", "refusal"),
    ("How do I install the Slack plug-in?",
     "No Slack plug-in is documented for Tallyman. The integrations listed are Teams and Zoom.",
     "absent_entity", "", "refusal"),
    # near misses: the sources state what was asked, or the thing is said not to be offered (an answer)
    ("Is there parking at the depot?", "No parking is available at the depot; use the town car park.", "", "",
     "answer"),
    ("Does the tour include lunch?", "The brochure says the tour doesn't include lunch.", "", "", "answer"),
    # the remit, and declining the task the question sets
    ("When does the island ferry leave?",
     "Ferry times aren't something the gallery publishes - please ask the ferry company.", "out_of_domain", "",
     "refusal"),
    ("Should I move my pension into bonds?",
     "I can't give investment advice. This assistant only covers Dunmore Bank account questions.",
     "out_of_domain", "", "refusal"),
    ("Can you write a tenancy agreement for my flat?",
     "I can't write tenancy agreements. Please ask a solicitor.", "out_of_domain", "", "refusal"),
    # near miss: a disclaimer, then the fact asked for
    ("What is the annual ISA allowance?", "I can't give tax advice, but the ISA allowance is £20,000.",
     "out_of_domain", "", "answer"),
    # declining first, then facts about something else: still declined
    ("When are the late openings at the Corn Exchange?",
     "I don't have any information about late openings. Normal hours are Monday-Saturday, 9am-6pm.",
     "absent_entity", "", "refusal"),
    # both alternatives denied; a statement put for confirmation answered "No, ..."
    ("Does the app still run on Android 9, or only 8?", "Neither - the app needs Android 11 or later.",
     "false_premise", "Android 11 or later", "correction"),
    ("The recycling centre opens at 6am, right?", "No, it opens at 9am, seven days a week.", "false_premise",
     "9am", "correction"),
    # near miss: a "No" to a plain yes/no question answers it
    ("Is the recycling centre open on Christmas Day?", "No, it is closed on 25 and 26 December.", "", "", "answer"),
    # a yes/no question after a dash answered "Yes" first takes its premise as given
    ("The junior swim club is £15 a month - is there a sibling discount?",
     "Yes, the second child pays £12, so two children would be £27 instead of £30.", "false_premise", "£9 a month",
     "answer"),
    # a premise denied in a compound ("no 30-day trial"), or by a verb with a doubled consonant ("haven't
    # stopped")
    ("How do I start a 30-day free trial?",
     "Trials last 14 days. There's no 30-day trial option. Start one from the sign-up page.", "false_premise",
     "14 days", "correction"),
    ("Why did the museum stop the Thursday tours?",
     "They haven't stopped: Thursday tours run all year, 2-4pm.", "false_premise", "Thursday tours still run",
     "correction"),
    # a number the reference holds, given in words, gives it; a shared word does not
    ("Why are lockers now charged?", "Lockers are free to use - up to three per family.", "false_premise",
     "up to 3 lockers free", "correction"),
    ("Why is the annual pass £90 now?",
     "The annual pass went up to £90 this year to pay for the new gallery.", "false_premise", "£70 a year",
     "answer"),
]


@pytest.mark.parametrize("question,reply,kind,reference,expected", CASES)
def test_round8_forms(question, reply, kind, reference, expected):
    got = classify_reply(reply, question, reference, kind)
    assert got.kind == expected, got


def test_a_declined_task_needs_the_question_s_own_verb():
    # "I can't book ..." to a question about opening times is not declining the task asked
    assert classify_reply("I can't draft contracts; please ask a solicitor.", "Can you draft a lease?",
                          "", "out_of_domain").kind == "refusal"
    assert classify_reply("We don't close for lunch: the office is open 9 to 5.", "When does the office open?",
                          "", "").kind == "answer"
