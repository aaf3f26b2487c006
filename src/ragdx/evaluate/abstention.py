"""Abstention: whether a reply declines, corrects a false premise or answers (issue 26).

A question a system should refuse (``QARecord.refusal_kind``: ``false_premise``,
``absent_entity``, ``ambiguous_reference``, ``out_of_domain``, ``omitted_fact``) is judged by what
kind of reply it got, decided offline and deterministically by :func:`classify_reply`:

* **refusal**: the reply declines ("I don't know", "the documents don't say", "there is no
  customer named ...", "which Patterson do you mean?", "that is outside what I can help with");
* **correction**: the reply says a presupposition of the question is false ("it shipped to
  Nantes, not Paris", "order 10100 was never sent to Paris", "the question assumes ...");
* **answer**: anything else, including answers that merely contain "no", "not" or "none"
  ("No, it was not late", "None except Chai").

A reply that declines *and* offers a candidate ("I'm not sure, but it may be Nantes", "the
documents don't say; probably around 40") is an **answer**: the user is handed a value, which is
exactly what over-answering means, so a hedge does not buy a refusal. A reply that declines and
then points elsewhere ("did you mean John Smith?", "there are two: Mary in Boston and Steve in
Paris") stays a refusal: asking which one, or listing the candidates, is the right reply to an
ambiguous reference.

The rules read cues, not words: a refusal needs a phrase that talks about knowing, finding or
the sources ("no record of", "not mentioned in the context", "I cannot find"), never a bare
"no"/"not". A correction needs an explicit cue (premise, actually, "X, not Y") or a negation
aimed at a word of the question ("wasn't shipped to Paris") in a question that is not itself a
yes/no question or a negative one (there "No, it was not" is the answer).

The module also scores (:func:`abstention_scores`), blames (:func:`refusal_verdict`) and compares
refusals with the knowledge-boundary tester (:func:`boundary_agreement`). It imports nothing of
``protocol`` (which calls it): verdict names are the strings of ``protocol.ModuleVerdict``.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

REFUSAL, CORRECTION, ANSWER = "refusal", "correction", "answer"
#: the kinds of ``QARecord.refusal_kind`` ("" is a question to answer)
REFUSAL_KINDS = ("false_premise", "absent_entity", "ambiguous_reference", "out_of_domain", "omitted_fact")
#: what happened to one record (see :func:`outcome`)
ANSWERED, OVER_REFUSED, ABSTAINED, CORRECTED, OVER_ANSWERED = (
    "answered", "over_refused", "abstained", "corrected", "over_answered")


@dataclass(frozen=True, slots=True)
class ReplyClass:
    """What a reply is (``kind``: refusal, correction or answer) and the words that decided it."""

    kind: str
    cue: str = ""

    def __str__(self) -> str:
        return f"{self.kind} ({self.cue})" if self.cue else self.kind


# ----------------------------------------------------------------------------- cues

_SOURCE = (r"(?:provided |given |available |supplied |retrieved |attached |above |relevant |these |those |the |my |"
           r"our |your )*(?:context|contexts|documents?|docs|sources?|passages?|records?|data(?:base|set)?|"
           r"information|knowledge base|texts?|materials?|files?|excerpts?|search results?|results|snippets?|"
           r"notes|catalog(?:ue)?|system|table|tables|database entries|entries)")
_VERB = (r"(?:say|state|mention|contain|include|provide|specify|cover|have|give|show|tell|list|indicate|address|"
         r"name|record|hold|describe|reference|discuss|identify|reveal|answer|offer|note)")
_FIND = (r"(?:find|locate|determine|answer|tell|say|identify|confirm|verify|provide|help|see|access|know|work out|"
         r"figure out|look up|retrieve|give|share|pin down|establish|match|answer that|be sure)")
#: sources named with up to three words of their own ("the Maple Valley district documents")
_NAMED_SOURCE = (r"(?:the|my|our|your|these|those|this) (?:[\w&'-]+ ){0,3}?(?:documents?|docs|records?|context|"
                 r"sources?|data(?:base)?|directory|directories|catalog(?:ue)?|files?|materials?|knowledge base|"
                 r"information|staff list|manuals?|handbooks?|guides?|brochures?|reports?|extracts?|registers?|"
                 r"registry|faqs?|documentation|terms|polic(?:y|ies)|price ?lists?|timetables?|catalog(?:ue)?s|"
                 r"specifications?|rules)\b")
#: the sources as the subject of a sentence, named by a document word ("the product page", "the documents I
#: have", "its leaflet"); what they are said to cover or leave out is what the reply can speak to
_SOURCE_NP = (r"\b(?:the|my|our|this|these|those|its|their) (?:[\w'&-]+ ){0,3}?(?:documents?|docs|pages?|website|"
              r"site|leaflets?|brochures?|handbooks?|manuals?|guides?|records?|sources?|context|materials?|files?|"
              r"lists?|listings?|factsheets?|summar(?:y|ies)|extracts?|reports?|notes|faqs?|information|"
              r"knowledge base|documentation|terms|polic(?:y|ies)|price ?lists?|catalog(?:ue)?s?|timetables?|"
              # documents of other names ("the spec sheet", "the menu", "your statement")
              r"(?:spec(?:ification)? )?sheets?|datasheets?|specs|specifications?|menus?|schedules?|statements?|"
              r"contracts?|agreements?|notices?|posters?|labels?|forms?)\b")
#: "I" and an adverb that does not change what follows ("I really don't know")
_I = r"\bi (?:really |actually |just |simply |honestly |unfortunately |still )?"
#: phrases that decline: each talks about knowing, finding, the sources or the scope
_REFUSAL_CUES = [
    _I + r"(?:do not|don't|dont|cannot|can't|cant|could not|couldn't|was unable to|wasn't able to|am unable to|"
    r"'m unable to|am not able to|'m not able to|have not been able to|haven't been able to|did not|didn't|can ?not)"
    rf" (?:\w+ )?{_FIND}\b",
    r"\b(?:unable|not able) to " + _FIND + r"\b",
    r"\b(?:cannot|can't|can not|could not|couldn't) be (?:determined|answered|found|identified|confirmed|verified|"
    r"established|located|retrieved|known|said)\b",
    _I + r"(?:do not|don't|dont) (?:have|see|hold|possess) (?:any |enough |the |that |this |sufficient |specific |"
    r"relevant |such |access|information|data|details|a record|records|knowledge|an answer|the answer)",
    r"\bi(?: have|'ve| had) (?:no|not found any|found no) (?:\w+ )?(?:information|record|data|details|access|"
    r"knowledge|way|idea|mention|answer|entry|results?|match)",
    r"\b(?:i|we) (?:found|find|see|have) (?:no|nothing)\b",
    # the search in progress ("I'm not finding anything about a Sunday ride club in the information I have")
    r"\b(?:i'm|i am|we're|we are) not (?:finding|seeing|getting) (?:anything|any|a|an|that|this|mention|a record)\b",
    r"\bnothing (?:in|about|on|regarding|was found|is known|mentions|indicates|says|states)\b",
    r"\bno (?:\w+ )?(?:information|record|records|data|details|mention|mentions|entry|entries|evidence|indication|"
    r"reference|references|results?|matches|match|documentation|answer|info)\b(?! (?:but|except))",
    r"\bno (?:such|one|customer|employee|person|\w+) (?:by|with) (?:that|the|this) (?:name|id|number|code|title)\b",
    r"\bno such\b",
    r"\b(?:does|do|did) ?(?:not|n't) (?:seem to |appear to )?exist\b",
    r"\b(?:doesn't|don't|didn't) (?:seem to |appear to )?exist\b",
    r"\bthere(?: is| are| was| were|'s) no (?:\w+ ){0,3}?(?:named|called|with (?:the |that |this )?(?:name|id|number|"
    r"code|title)|by (?:that|the|this) name|matching|that matches|listed|on record|on file|recorded|in (?:the|our|my) "
    r"(?:records|database|data|system|catalog(?:ue)?|list|context|documents?|files?))",
    rf"\b{_SOURCE} (?:(?:provided|given|available|here|i have|i was given|you gave me|supplied) )?"
    rf"(?:do|does|did|do not|does not|did not|doesn't|don't|didn't) ?(?:not |n't )?(?:seem to |appear to |"
    rf"actually |explicitly |directly |specifically )?{_VERB}\b",
    rf"\b{_SOURCE} (?:is|are|was|were) (?:silent|unclear|ambiguous|insufficient|incomplete)\b",
    rf"\bnot (?:mentioned|"
    r"disclosed|published|reported|revealed|detailed|itemi[sz]ed|broken down|"
    r"stated|specified|provided|included|covered|documented|addressed|discussed|given|"
    rf"listed|recorded|available|found|present|contained|described|specified|known|shown|indicated|clear)"
    rf"(?: \w+){{0,2}} (?:in|by|among|within|from) {_SOURCE}",
    r"\b(?:is|are|was|were|isn't|aren't|wasn't|weren't) (?:not )?(?:mentioned|"
    r"disclosed|published|reported|revealed|detailed|itemi[sz]ed|broken down|"
    r"stated|specified|provided|included|"
    r"covered|documented|addressed|given|listed|recorded|on file|on record)(?: anywhere)?(?: here)?\s*(?:[.;,!]|$)",
    r"\b(?:is|are|isn't|aren't|was|wasn't) (?:not )?(?:in|part of|among|included in|found in|present in|available "
    r"in) (?:the|my|our|your|this|these|any of the) (?:records|record|database|data|documents?|context|catalog(?:ue)?|"
    r"list|files?|system|sources?|materials?|knowledge base|information)",
    r"\b(?:insufficient|not enough|no|lack of|lacking|missing|limited) (?:\w+ )?(?:information|context|data|"
    r"details|evidence)\b",
    r"\b(?:lacks?|lacking|missing|without) (?:the |any |enough |sufficient |more |additional |further )?"
    r"(?:information|details|data|context|specifics)\b",
    r"\b(?:i (?:do not|don't|dont) know|no idea|not sure|unsure|uncertain|cannot say|can't say|hard to say|"
    r"impossible to (?:say|tell|determine|know|answer)|not possible to (?:say|tell|determine|know|answer))\b",
    r"\b(?:(?:is|remains|are) unknown|unknown to me|not known)\b|^(?:unknown|n/a|not known|no answer)\W*$",
    r"\b(?:it is|it's|its|that is|that's|this is) (?:unclear|ambiguous|not clear)\b",
    r"\b(?:unclear|ambiguous|not clear|not sure) (?:which|who|what|whom|whether)\b",
    r"\b(?:which|what|whom|who) (?:one|\w+)?\s*(?:do|did|are|were) you (?:mean|referring|refer|talking|asking|have in"
    r" mind)\b",
    r"\b(?:which|who) (?:do|did) you (?:mean|have in mind)\b",
    r"\b(?:could|can|would) you (?:please )?(?:clarify|specify|be more specific|tell me (?:which|who|what|more)|"
    r"provide (?:more|additional|further)|narrow|let me know which|confirm which|give (?:me )?more)",
    r"\b(?:please|kindly) (?:clarify|specify|provide more|let me know which|indicate which|tell me which)\b",
    r"\bdid you mean\b",
    r"\b(?:more than one|several|multiple|two|three|four|a few|two different|two or more) (?:\w+ ){0,4}?(?:named|"
    r"called|with (?:that|the|this) (?:name|surname|last name|title)|match(?:es|ing)?|share (?:that|the|this) "
    r"name|by (?:that|this|the) name)\b",
    r"\b(?:outside|beyond|out of|not within|not in) (?:the |my |our |this |your )?(?:scope|domain|knowledge|expertise|"
    r"area|remit|purview|range|coverage|subject)\b",
    r"\boutside (?:of )?what i (?:can|am able to|know)\b",
    r"\b(?:isn't|is not|aren't|are not|not) (?:something|a (?:question|topic|subject)|anything) (?:that )?(?:i|we|"
    r"the|this|these|our|my) (?:\w+ ){0,3}?(?:can|could|cover|covers|handle|know|have|hold|answer|contain|include)",
    r"\b(?:unrelated to|not related to|has nothing to do with|have nothing to do with|doesn't relate to|does not "
    r"relate to|not relevant to|irrelevant to)\b",
    r"\bi (?:can|am able to|'m able to) only (?:answer|help|assist|provide|speak)|\bi can only\b|\bi only (?:have|"
    r"know|answer|cover|handle|do|deal|help|talk|discuss)\b",
    r"\b(?:i'm|i am) (?:only )?(?:designed|built|here|set up|meant|trained|able) (?:only )?to (?:help|answer|assist)"
    r" with\b",
    r"\b(?:i'm|i am) (?:afraid|sorry)\b.*\b(?:can't|cannot|not|no|unable|don't)\b",
    r"\b(?:can't|cannot|can not|unable to|won't be able to) (?:help|assist) (?:with|you)\b",
    r"\b(?:no|not any) (?:way|means) (?:to|of) (?:know|tell|determin|answer|find)",
    r"\bnot (?:something|information|data) (?:i|we) (?:have|hold|can)\b",
    r"\b(?:does|do|did) not (?:appear|show up|turn up|come up|feature)\b|\b(?:doesn't|don't|didn't) "
    r"(?:appear|show up|turn up|come up|feature)\b",
    r"\bnot (?:in|within) (?:the|my|our|this) (?:scope|records|database|data|documents?|context|catalog)\b",
    r"\bcannot (?:be )?answer(?:ed)?\b|\bcan't answer\b|\bunanswerable\b",
    r"\b(?:no|not) (?:enough |sufficient )?(?:basis|grounds) (?:to|for)\b",
    r"\b(?:do not|don't|does not|doesn't|did not|didn't) (?:\w+ )?(?:have|hold|keep) (?:any |the |that |this |such )?"
    r"(?:[\w-]+ )?(?:information|data|details|records?|figures|access|knowledge)\b",
    r"\b(?:do not|don't|does not|doesn't|did not|didn't|never) (?:explicitly |actually |specifically |directly )?"
    r"(?:mention|say|state|specify|indicate)\b",
    r"\bnone of (?:the |these |those |my |our )?(?:\w+ )?(?:documents?|sources?|passages?|records?|results?|"
    r"context|files?|excerpts?|snippets?|timetables?|materials?|them|entries)\b",
    r"\bnot found\b|\bnot (?:certain|confident)\b|\bcan(?:no|')t be sure\b",
    r"(?:n't|\bnot) (?:mentioned|"
    r"disclosed|published|reported|revealed|detailed|itemi[sz]ed|broken down|"
    r"stated|specified|provided|included|covered|documented|addressed|discussed|given|"
    r"listed|recorded|available|found|present|contained|described)(?: \w+){0,2} (?:in|by|among|within|from) "
    + _SOURCE,
    r"\bno (?:[\w'-]+ ){0,5}?(?:exists?|is (?:on file|registered|listed|recorded|known))\b",
    r"\bthere(?: is| are| was| were|'s) no (?:[\w'-]+ ){1,4}?(?:in|on) (?:the|our|my|any) (?:records?|database|data|"
    r"system|catalog(?:ue)?|list|timetables?|schedules?)",
    r"\bi(?:'d| would| will)? need (?:a little |a bit |some )?(?:more|your|the|a|an|to know)\b",
    # the sources named with words of their own ("isn't in the district documents I have", "isn't covered by
    # the Maple Valley documents", "the staff directory doesn't include"): the sources say nothing of it
    rf"(?:n't|\bnot) (?:in|covered (?:by|in)|included in|part of|found in|mentioned in|listed in|recorded in|held in)"
    rf" {_NAMED_SOURCE}",
    rf"^(?:i'm sorry,? (?:but )?|unfortunately,? |sorry,? )?{_NAMED_SOURCE} (?:do|does|did) ?(?:not|n't) "
    rf"(?:seem to |appear to )?{_VERB}\b",
    # the scope stated without the usual nouns ("that falls outside what the catalogue covers", "my knowledge
    # is limited to the timetables")
    r"\b(?:outside|beyond) (?:of )?what (?:i|we|the|my|our|these|this)\b|\bfalls? (?:outside|beyond)\b|"
    r"\b(?:my knowledge|my information|what i know|i am|i'm) (?:is )?(?:limited|restricted) to\b",
    # asking which reading is meant ("Which customer's licence do you mean?", "'Northgate' matches both A and
    # B"); a bare "Do you mean A, at York, or B, at Leeds?" can carry an answer per reading, so is not a cue
    r"\bwhich\b[^.!?]{0,60}\b(?:do|did) you (?:mean|have in mind)\b|\b(?:matches|could refer to|may refer to|can "
    r"refer to) (?:both|either|two|several|more than one)\b",
    r"\bwhich (?:one|of (?:them|these|those|the \w+))\b[^.!?]*\?",
    r"\b(?:could|can|would) you (?:please )?(?:give|tell|send|share|confirm|check) (?:me )?(?:the|your|which|a|an|"
    r"its|their|his|her)\b",
    r"\b(?:here|able|only able) (?:to (?:help|answer) )?(?:with |for )?[\w ]{0,30}\bquestions? only\b|"
    r"\bonly (?:able|here|set up|designed) to\b",
    r"\b(?:gives?|provides?|lists?|shows?|contains?|includes?|states?|mentions?|quotes?|specif(?:y|ies)) no "
    r"(?:\w+ )?(?:figures?|values?|numbers?|dates?|details?|information|data|records?|mention|answer|weightings?|"
    r"rates?|prices?|amounts?|breakdown|times?|hours|deadlines?|dates?)\b",
    r"\b(?:set up|designed|built|meant|trained|here) to (?:answer|help|assist|handle)\b[^.!?]{0,80}\bonly\b",
    # passing something on relays it ("I'll pass your thanks on", "I'll pass it along"); "I'll pass on that" declines
    r"\b(?:i'll|i will|i'd|i would|i have to|i must|i need to) (?:have to )?(?:pass\b(?!\s+(?:on\s+)?(?:your|these|"
    r"the|them|it|this|that)\b[^.!?]{0,30}?\b(?:on|along|thanks|message|feedback|compliments|comments)\b)|decline\b|"
    r"sit this one out\b)",
    r"\b(?:i'm|i am) (?:not able|unable) to\b|\bi (?:can't|cannot|can not|am not able to) (?:\w+ )?(?:book|make|do|"
    r"write|create|send|place|arrange|process|schedule|handle|perform|order)\b",
    r"\b(?:i'm|i am) here to (?:answer|help with) questions about\b",
    # the reply calls the question itself ambiguous ("the request is ambiguous", "the name seems unclear")
    r"\b(?:question|request|query|reference|name|wording) (?:is|seems|appears|looks) (?:\w+ )?(?:ambiguous|unclear)\b",
    # asking which reading is meant, in other words than "mean" ("Which one are you asking about?")
    r"\bwhich\b[^.!?]{0,60}\b(?:are you|you're|were you) (?:interested in|asking about|looking for|referring to|"
    r"thinking of|after)\b",
    # asking for what would tell the readings apart ("Could you provide the order date?"): a question back
    r"\b(?:could|can|would) you (?:please )?(?:provide|specify|supply|let me know|tell us) (?:me |us )?(?:the|your|"
    r"which|a|an|more|some)\b",
    # the scope said as what the assistant is for ("I'm set up to answer questions about the timetable")
    r"\b(?:i'm|i am|i was) (?:only )?(?:designed|built|set up|meant|trained|configured|here) (?:only )?to (?:help|"
    r"answer|assist|handle|deal) (?:you )?(?:with )?(?:questions|queries|enquiries|inquiries)\b",
    # the sources pointed to by a pronoun ("that question isn't covered by them")
    r"\b(?:isn't|is not|aren't|are not|wasn't|was not|not) (?:covered|addressed|answered|dealt with|handled|"
    r"included|mentioned|discussed) (?:by|in) (?:them|it|those|these|any of (?:them|these|those))\b",
    # the sources said to be about something else ("the manuals focus on installation")
    rf"{_NAMED_SOURCE} (?:only |mainly |mostly |largely )?(?:focus(?:es)?|concentrates?|deals?|are concerned) "
    r"(?:only )?(?:on|with)\b",
    # declining to judge or choose (never "I don't recommend X", which is advice: an answer)
    r"\b(?:i|we) (?:can't|cannot|can not|couldn't|could not|am unable to|'m unable to|am not able to|'m not able to) "
    r"(?:really |reliably |responsibly )?(?:recommend|suggest|advise|comment|compare|speculate|guess|estimate|rank|"
    r"choose|pick)\b(?![^.;,]*\benough\b)",
    # a name the sources do not hold ("the register has no ship called 'Osprey'", "lists no company by that name")
    r"\b(?:has|have|had|holds?|lists?|contains?|includes?|shows?|carr(?:y|ies)|stocks?|knows? of) no (?:[\w'-]+ ){0,3}?"
    r"(?:named|called|titled|entitled|by (?:that|the|this) name|with (?:that|the|this) (?:name|title|id|number))\b",
    r"\bthere(?: is| are| was| were|'s) no (?:\w+ ){0,3}?(?:titled|entitled|with (?:the |that |this )?[\w-]+ "
    r"(?:name|id|number|code|title|reference))\b",
    # nobody of the name asked about ("There's nobody by that name in my information")
    r"\b(?:nobody|no one|no-one|no person|no member of staff) (?:(?:by|with|of|under) (?:that|the|this) name|"
    r"(?:called|named) that)\b",
    # a thing said not to be in the assistant's own sources ("There's no set number in our information", "nothing
    # about it in the society's rules"): the sources lack it, which declines, whatever follows
    # (the assistant's own information, not a document of the business: "There are no Sunday sailings in the winter
    # timetable" states the timetable)
    r"\b(?:there(?: is| are|'s) (?:no|nothing)|nothing|none|no mention)\b[^.!?;:]{0,40}?\b(?:in|on) (?:the|my|our) "
    r"(?:[\w'-]+ )?(?:information|documents|docs|sources|notes|materials|knowledge base)\b",
    # a bare "not that I can see" ("Is there CCTV?" - "Not that I can see in the society's information")
    r"^\W*not (?:that (?:i|we) (?:can see|can find|know of|'m aware of|am aware of|could see|could find)|as far as "
    r"(?:i|we) (?:can see|know|can tell))\b",
    # not given in sources named with words of their own ("isn't specified in the contract documents")
    rf"(?:n't|\bnot) (?:mentioned|stated|specified|provided|disclosed|published|reported|given|listed|recorded|"
    rf"documented|shown|included|set out|broken down) (?:anywhere )?(?:in|by|within) {_NAMED_SOURCE}",
    # an identifier that matches nothing ("the code AB-1 doesn't match any booking")
    r"\b(?:does|do|did) ?(?:not|n't) match (?:any|an?|our|the)\b|\bmatch(?:es|ed)? no(?:thing)?\b",
    # a question back that asks the user to choose or specify, however worded ("Which membership are you on?",
    # "Could you say which trench?", "Do you mean the east gate or the west gate?", "On which date?"): the reply
    # waits for the user; one that also gives a value for every reading is told apart in _declined
    r"(?:\bwhich\b[^.!?]*\byou(?:r|'re)?\b|\byou\b[^.!?]*\bwhich\b)[^.!?]*\?",
    # the same asked with "who" after counting the people the readings name ("We have two Chloes - ... Who would
    # you like?"); after an answer ("Lessons are £35. Who would you like as your instructor?") it asks something new
    r"\b(?:two|three|four|several|both|more than one)\b[^?]{0,160}[.!?;:—–-]\s+(?:who|whom)\b[^.!?]*\byou\b"
    r"[^.!?]*\?",
    r"\b(?:do|did) you mean\b[^.!?]*\?",
    r"\b(?:are|were) you (?:asking|thinking|talking|enquiring|inquiring|after|looking)\b[^.!?]*\bor\b[^.!?]*\?",
    # a question that opens with "which", however long ("On which date?", "Which course - the evening one or the
    # weekend one?")
    r"(?:^|(?<=[.!?;:] )|(?<=[—–-] ))(?:\w+,? )?which\b[^.!?]*\?",
    # the answer said to turn on which one is meant ("That depends on which Saver - Off-Peak or Advance?")
    r"\b(?:depends|depending|turns) (?:on )?which\b",
    # the sources, named with words of their own and what is seen of them, leave the thing out ("Helmets aren't
    # mentioned in the hire terms I can see", "Storage limits aren't listed in the pricing documentation I have")
    rf"(?:n't|\bnot) (?:mentioned|listed|documented|covered|included|stated|specified|given|shown|set out|published)"
    rf" (?:anywhere )?(?:in|on|within) (?:{_NAMED_SOURCE}|{_SOURCE_NP})",
    rf"^(?:i'm sorry,? (?:but )?|unfortunately,? |sorry,? )?(?:{_NAMED_SOURCE}|{_SOURCE_NP})(?: (?:sections?|parts?|"
    rf"pages?|pieces?))?(?: (?:i|we) (?:can see|have|have access to|was given|were given|'ve got|got|can access))? "
    rf"(?:do|does|did) ?(?:not|n't) (?:seem to |appear to )?(?:{_VERB}|go into)\b",
    # a thing said to be absent from the listing, with no source named ("No student annual pass is listed", "No
    # Outlook add-in is documented for Ledgerline"); "available" and "required" are left out, as "No parking is
    # available on site" answers
    r"^(?:i'm sorry,? (?:but )?|unfortunately,? |sorry,? )?no (?:[\w'-]+ ){1,5}?(?:is|are|was|were) (?:currently )?"
    r"(?:listed|documented|mentioned|shown|recorded|published|described|specified|on file|on record)\b",
    # the sources said to hold none of it ("The catalogue has no Smoked Lapsang Reserve")
    rf"^(?:{_NAMED_SOURCE}|{_SOURCE_NP}) (?:has|have|had|holds?|lists?|shows?|contains?|includes?) no\b",
    # the remit said as what the assistant or the business does not publish, cover or sell ("Ferry times aren't
    # something the museum publishes", "The Explorer pass isn't something we sell")
    r"\b(?:isn't|is not|aren't|are not|not) (?:something|anything|a (?:topic|subject|service|thing)) (?:that )?"
    r"(?:[\w'-]+ ){0,3}?(?:publish|publishes|cover|covers|handle|handles|provide|provides|offer|offers|deal with|"
    r"deals with|keep|keeps|hold|holds|track|tracks|sell|sells|stock|stocks|run|runs|supply|supplies|carry|carries)\b",
    # the sources called "what I have" ("that isn't covered in what I have")
    r"(?:n't|\bnot) (?:covered |mentioned |included |listed )?(?:in|by|among) what (?:i|we)(?:'ve| have)? (?:have|"
    r"got|hold|can see|was given|were given)\b",
    # the remit as the assistant's own ("outside my patch", "I'm just the booking assistant for ...")
    r"\b(?:outside|beyond) (?:of )?my\b|\b(?:i'm|i am) (?:just|only) (?:the|a|an) (?:[\w'&-]+ ){0,4}?(?:assistant|"
    r"bot|chatbot|helper|helpdesk)\b",
    # the answer said to turn on the reading ("It depends on which clinic you mean")
    r"\bwhich\b[^.!?]{0,60}\byou (?:mean|have in mind|are asking about|are referring to)\b",
    # alternatives put to the user ("Is that the Saturday or the Sunday market you're after?")
    r"(?:^|(?<=[.!?;:] ))(?=[^.!?]*\bor\b)(?=[^.!?]*\byou(?:r|'re)?\b)[^.!?]*\?",
    # the same asked as an instruction ("Let me know which branch and I'll look it up")
    r"\b(?:let me know|tell me) (?:which|what|who|whether)\b",
    # the remit said as what the assistant or its sources can do ("... and can only help with savings", "the
    # documents I have only cover the programme"): nothing of the question is inside it
    r"\b(?:can|could) only (?:help|answer|assist|deal|talk|discuss|respond|advise)\b",
    rf"{_SOURCE_NP}(?: (?:i|we) (?:have|hold|was given|were given|can see|can access|have access to))? only (?:cover|"
    r"covers|deal with|deals with|concerns?|relates? to|contains?|describes?|goes into|go into)\b",
    # an attribute the sources leave out, said after what they do say ("The product page describes the loan, but
    # it doesn't give an interest rate", "the notes mention the clinic but don't list its hours"); "include" and
    # "cover" are left out, as "the brochure says the tour doesn't include lunch" answers
    rf"{_SOURCE_NP}(?:(?! (?:shows?|says?|states?|confirms?|indicates?|that)\b)[^.!?;])*?(?:n't|\bnot) (?:\w+ )?"
    r"(?:give|list|say|state|mention|specify|quote|publish|detail|show|name|set out)\b",
    # the same, the sources named by a pronoun after what they do say ("..., but it doesn't give a rate")
    r"\bbut (?:it|they) (?:doesn't|don't|does not|do not|didn't|did not) (?:give|list|say|state|mention|specify|"
    r"quote|publish|detail)\b",
    # a negated "I have any information about it" ("The Arlen Bridge isn't one I have any information about")
    r"(?:n't|\bnot)\b[^.!?;]{0,30}\bi (?:have|hold|know of) (?:any|much) (?:information|details|data|records?|"
    r"knowledge)\b",
    # the remit said as what the assistant is set up for ("I'm only set up for membership and ticketing")
    r"\b(?:i'm|i am) (?:only )?(?:set up|designed|built|configured|meant|trained) (?:only )?for\b",
    # knowing nothing of a thing the question names ("I'm not aware of a Dr Lin on the team"); "I'm not aware of
    # any fees", to "Are there any fees?", is a hedged no: an answer
    r"\b(?:i'm|i am|we're|we are) not aware of (?:a|an|anyone|anybody|any \w+ (?:called|named|titled))\b",
    # what the sources give set against what they leave out ("The fees page lists adult rates, but not an
    # under-25 rate")
    rf"{_SOURCE_NP}[^.!?;]*?\b(?:lists?|gives?|shows?|mentions?|covers?|includes?|quotes?|states?|describes?)\b"
    r"[^.!?;]*?,? but not\b",
    # lacking the thing asked for, whatever its noun ("I don't have weather forecasts")
    _I + r"(?:do not|don't|dont) have\b",
    # an apology with an adverb before declining ("I'm really sorry, but I can't discuss rent accounts")
    r"\b(?:i'm|i am) (?:really|so|very|terribly|truly) (?:afraid|sorry)\b.*\b(?:can't|cannot|unable|don't)\b",
    # having nothing about it, said with "got" ("I haven't got anything about the Stripe integration")
    _I + r"(?:haven't|have not)(?: got)? (?:anything|any (?:\w+ )?(?:information|details|record|data|mention))\b|"
    r"\bi(?:'ve| have) got nothing (?:about|on)\b",
    # not finding it after saying where the assistant looked ("I've searched the handbook and couldn't find ...")
    r"\b(?:i|we)\b[^.!?;]{0,40}?\band (?:couldn't|could not|can't|cannot|didn't|did not) (?:find|locate|trace)\b",
    # asking which one the user means, in words of having something in mind ("Do you have a particular
    # hygienist in mind?")
    r"\b(?:do|did) you have (?:a |an |any |one )?(?:particular |specific |certain )?(?:[\w'-]+ ){0,2}in mind\b",
    # declining to look into or talk about the user's own case ("I can't check forecasts", "I can't discuss
    # individual accounts")
    r"\bi (?:can't|cannot|can not|am not able to|'m not able to|am unable to|'m unable to) (?:discuss|check|comment "
    r"on|look into|give out)\b",
    # a few other languages, as systems answering in the user's language reply
    r"\bhay (?:dos|tres|varias|varios|m[aá]s de un)\b|¿?\bpodr[ií]a (?:indicarme|especificar|aclarar|decirme)\b|"
    r"\bes gibt (?:zwei|drei|mehrere)\b|\bil y a (?:deux|trois|plusieurs)\b|\bpourriez-vous (?:pr[ée]ciser|indiquer)\b",
    r"\bno (?:lo )?s[eé]\b|\bno (?:tengo|hay|encontr[eé]|dispongo|se (?:menciona|indica|encuentra))\b|"
    r"\bno (?:puedo|es posible) (?:determinar|responder|encontrar|saber)\b|\bfuera de(?:l)? (?:alcance|[aá]mbito)\b",
    r"\bje ne (?:sais|trouve|peux|dispose)\b|\bje n'ai (?:pas|aucune)\b|\baucune? (?:information|donn[ée]e|trace|"
    r"mention|commande|client)\b|\bpas d'information\b|\bn'est pas (?:mentionn|indiqu|pr[ée]cis)|\bne (?:sont|est) "
    r"pas (?:mentionn|indiqu)",
    r"\bich wei(?:ß|ss) (?:es |das )?nicht\b|\bkeine (?:informationen|angaben|daten|hinweise|ahnung|bestellung|"
    r"kunden)\b|\bnicht (?:gefunden|bekannt|angegeben|erw[äa]hnt|enthalten)\b|\bkann (?:ich )?(?:das |es )?nicht\b",
    r"\bnon (?:lo )?so\b|\bnessun[ao]? (?:informazion|dat|riferiment)|\bnon (?:trovo|ho trovato|posso)\b",
    r"\bn[ãa]o (?:sei|tenho|encontrei|posso|h[aá] (?:informa|registro|dados))\b",
]
_REFUSAL_ANY = re.compile("|".join(f"(?:{c})" for c in _REFUSAL_CUES))
#: a condition on what the user does ("a fee applies if you cancel late or don't turn up"): a cue inside it
#: describes the user, not the assistant declining
_USER_CONDITION = re.compile(r"\b(?:if|when|whenever|unless|once|until|in case) you\b[^.!?;,]*$")


class _RefusalCues:
    """The refusal cues, less those inside a condition on the user (see ``_USER_CONDITION``)."""

    @staticmethod
    def search(text: str) -> re.Match[str] | None:
        return next((m for m in _REFUSAL_ANY.finditer(text) if not _USER_CONDITION.search(text, 0, m.start())),
                    None)


_REFUSAL = _RefusalCues()
#: declining outright, whatever else the reply says
_STRONG_REFUSAL = re.compile(r"\bi (?:do not|don't) know\b|\b(?:unable|not able) to\b|\b(?:cannot|can't|couldn't|could "
                             r"not) (?:find|answer|determine|say|tell)\b|\bnot (?:in|mentioned in) the (?:context|"
                             r"documents?)\b")

#: an explicit correction of the question's presupposition
_CORRECTION = re.compile(
    r"\b(?:premise|presuppos\w*|(?:your |the |this )?question (?:assumes|implies|suggests|presumes|is based on|"
    r"seems to assume|contains an? (?:error|mistake))|(?:incorrect|mistaken|false|wrong|faulty|inaccurate|"
    r"flawed|invalid) (?:assumption|premise|information|belief|detail)|assumption (?:is|seems|appears) "
    r"(?:incorrect|mistaken|wrong|false)|(?:that|this|it)(?:'s| is| was) not (?:right|correct|accurate|true|"
    r"the case|quite right)|(?:that|this|it) (?:isn't|wasn't) (?:right|correct|accurate|true|the case|quite right)|"
    r"contrary to|as you (?:suggest|mention|said|assume)|not as (?:stated|suggested)|"
    r"there (?:seems to be|appears to be|may be|might be|is|'s) (?:a |some )?(?:mistake|mix-?up|confusion|error)|"
    r"\bmix-?up\b|"
    r"(?:a|some) (?:mistake|mix-?up|confusion|misunderstanding) (?:in|with) (?:the|your) question)")
#: words that set a fact against the question's, read as a correction only where the question is
#: not a yes/no question (there "No, actually Seattle is larger" answers it)
_CORRECTION_WEAK = re.compile(r"\b(?:in fact|actually|rather than|instead of)\b(?!,? (?:i|we) (?:do not|don't|"
                              r"cannot|can't|couldn't|could not|have no))")


def _weak_correction(text: str, question: str = "") -> re.Match[str] | None:
    """A word that sets a fact against the question's (``_CORRECTION_WEAK``), outside a sentence that tells the
    user what to do: "please ring the repairs line rather than using the online form" sets two actions side by
    side and corrects nothing; "it ships from Leeds rather than York" does correct. Given the ``question``,
    "rather than" / "instead of" corrects only what the question states (``_stated``): "£6.50 rather than £8"
    to "How much does the £8 pass include?", "fortnightly rather than weekly" to "Since it is collected weekly,
    ..."; "bin them rather than composting them" in advice, or "rather than charging a flat fee" to "How is fuel
    charged?", sets aside something nobody said."""
    stated = _stated(question) if question else set()
    for m in _CORRECTION_WEAK.finditer(text):
        start = max(text.rfind(". ", 0, m.start()), text.rfind("? ", 0, m.start()), text.rfind("! ", 0, m.start()))
        if _REDIRECT.match(text[start + 2 if start >= 0 else 0:m.start()]):
            continue
        if question and m.group(0) in ("rather than", "instead of"):
            aside = re.match(r"(?:\d[.,]\d|[^.,;:!?—–]){0,60}", text[m.end():])  # "£12.50" is one value
            said = aside.group(0) if aside else ""
            set_aside = [w.strip("'’.-") for w in _WORD.findall(said)]
            told = {n.rstrip(".,") for n in re.findall(r"\d[\d,.]*", said)} | {
                _stem(w) for w in set_aside if not w.isdigit()}
            # what the question does not state is no premise: "Parcel 55 left from Leeds rather than York" to "Which
            # depot did parcel 55 leave from?" gives the answer and sets aside a value nobody asserted (round 11;
            # round 9 read it as a correction), as "use beer traps rather than pellets" to "How do I ...?" advises
            if not told & stated:
                continue
        return m
    return None


def _denies_stated(text: str, question: str) -> str:
    """A "not X" of the reply ("..., not the council", "not X but Y") whose X is a word of a premise the
    question states apart from what it asks ("As you're the council, can you ...?"), or "". A "not" about
    anything else ("- not a service we offer") declines."""
    stated = _stated(question)
    for m in _X_NOT_Y.finditer(text):
        target = (m.group(1) or m.group(2) or "").split()
        if target and _stem(target[0].strip("'’.-")) in stated:
            return m.group(0).strip(" ,;(.—–-")
    return ""


def _measure_numbers(text: str) -> set[str]:
    """The numbers of a text's measured values (``_MEASURES``), each whole ("£1,499" is "1,499", "£9.50" "9.50")."""
    found = set()
    for value, _ in _MEASURES:
        for m in value.finditer(text):
            number = re.search(r"\d[\d,.]*", text[m.start():])
            if number:
                found.add(number.group(0).rstrip(".,"))
    return found


def _stated(question: str) -> set[str]:
    """What a question states rather than asks (stems): its values (numbers of measures), every word of a why-question
    (it asks about its own premise: "Why is the fee £1,499?"), and the words of a premise said apart from the
    asking clause ("Since garden waste is collected weekly, which day ...", "As skip day is in May, what can I
    put in the skip?", "Visits get 7 days' notice - how ...?") that the asking clause does not repeat."""
    q = _clean(question)
    # a value is a measure's (a price, a share, a span): "parcel 55" only names the parcel
    stated = _measure_numbers(q)
    if re.match(r"\W*(?:why|how come)\b", q):
        return stated | {_stem(w) for w in _premise_words(q)}
    parts = [p for p in re.split(r"(?<=[.!?])\s+|\s+[—–-]\s+|,\s*", q) if p.strip()]
    if len(parts) < 2:
        return stated
    asking = {_stem(w) for w in _premise_words(parts[-1])}
    premise = {_stem(w) for p in parts[:-1] for w in _premise_words(p)}
    return stated | (premise - asking)


_NEGATION = re.compile(r"\b(?:not|never|no longer|isn't|wasn't|aren't|weren't|doesn't|don't|didn't|hasn't|"
                       r"haven't|hadn't|won't|cannot|can't|neither|nor|nicht|nie|kein\w*|no (?:ha|han|es|fue|est[aá])|"
                       r"n'(?:a|est|ont|était) pas|ne \w+ pas|jamais|non [eè])\b|n't\b")
#: what can deny a premise word that follows it: a negation, or "there is no" ("there is no row Z";
#: a bare "no" is too often an answer: "No discount was applied", "holds no copies")
_DENIAL = re.compile(_NEGATION.pattern + r"|\bthere(?: is| are| was| were|'s) no\b")
#: a denial that something exists ("there is no Concourse F lounge")
_EXISTENCE = re.compile(r"\bthere(?: is| are| was| were|'s) no\b")
#: any negative word: a clause holding one offers no candidate and answers nothing first
_NEGATIVE = re.compile(_DENIAL.pattern + r"|\b(?:none|nothing|nobody|nowhere)\b")
#: a negation that does not deny what follows it ("not until", "not only")
_NOT_DENIAL = re.compile(r"\bnot (?:\w+ )?until\b|\bnot (?:only|just|merely|even|quite|to mention|sure|yet|always|"
                         r"exactly)\b")
#: "Nantes, not Paris" / "not Paris but Nantes"
_X_NOT_Y = re.compile(r"(?:,|;|—|–| -|\()\s*(?:and |but )?not (?:in |to |from |on |at |by |for |the |a |an )?"
                      r"([\w'’.-]+(?: [\w'’.-]+){0,3})|\bnot (?:in |to |from |on |at |by |the |a |an )?"
                      r"([\w'’.-]+(?: [\w'’.-]+){0,3}),? but\b")
#: a guess offered after declining ("someone may be able to help" is an offer of help, no guess)
_GUESS = re.compile(r"\b(?:(?:may|might|could) be(?! (?:able|happy|glad|pleased) to\b)|maybe|perhaps|possibly|"
                    r"probably|likely|presumably|i think|"
                    r"i believe|i'd guess|i would guess|my (?:best )?guess|i suspect|i assume|it seems|seems to be|"
                    r"appears to be|my understanding is)\b|"
                    r"\b(?:roughly|around|about|approximately|some|nearly|almost) (?:\$|€|£)?\d")
_CONTRAST = re.compile(r"\b(?:but|however|though|although|that said|nevertheless|still|yet)\b")
#: words of a question that say nothing about its premise
_STOP = frozenset("""a an the of to in on at for by with from and or is are was were be been being do does did
has have had what which who whom whose when where why how many much did does it its this that these those
there their they them he she his her him you your i me my we our us can could would should will shall may
might must as about into over under than then so such any all each every some no not please tell give show
list name find out get know""".split())
_YES_NO = re.compile(r"^\s*(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would|should|shall|may|"
                     r"might|must|am|isn't|aren't|wasn't|weren't|doesn't|don't|didn't|hasn't|haven't)\b", re.I)
_WORD = re.compile(r"[\w'’-]+")
_MARKUP = re.compile(r"\[\d+(?:[,\s]*\d+)*\]|\[(?:source|doc|ref)[^\]]*\]|[*_`#>|]+")
_SENTENCE = re.compile(r"(?<=[.!?;:])\s+|\n+|\s+[—–]\s+|\s+-\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_CLAUSE_END = re.compile(r"(?<=[;:])\s+")


def _clean(text: str) -> str:
    """Lower case, straight apostrophes, no markdown, citations or extra spaces."""
    text = unicodedata.normalize("NFKC", text).replace("\u2019", "'").replace("\u2018", "'")
    text = _MARKUP.sub(" ", text)
    text = re.sub(r"[ \t]+", " ", text).strip().casefold()
    # a title's full stop ("Dr. Khan") ends no sentence: kept, it would split "Which Dr. Khan do you mean?"
    return _TITLE.sub(r"\1", text)


#: titles written with a full stop before a name; they never end a sentence, unlike "Ltd." or "etc."
_TITLE = re.compile(r"\b(dr|mr|mrs|ms|mx|prof|st|mt|fr|rev|capt|sgt|lt|col|gen|gov|sen|rep|hon)\.(?= \w)")


def _premise_words(question: str) -> set[str]:
    """The question's words that carry its presupposition (names, values, content words)."""
    return {w.strip("'’.-") for w in _WORD.findall(_clean(question))} - _STOP - {""}


def _denies_premise(clause: str, words: set[str]) -> str:
    """The premise word a negation in ``clause`` is aimed at (within six words after it, compared
    by stem: "hasn't lapsed" denies "lapse"), or ""."""
    stems = {_stem(w) for w in words}
    for m in _DENIAL.finditer(clause):
        if _NOT_DENIAL.match(clause, m.start()):
            continue
        after = [w.strip("'’.-") for w in _WORD.findall(clause[m.end():])[:6]]
        # a compound's parts too: "there's no 26-week full-pay option" denies "26 weeks of full pay"
        after += [part for w in after if "-" in w for part in w.split("-") if part]
        hit = next((w for w in after if w in words or _stem(w) in stems), "")
        if hit:
            return f"{m.group(0)} … {hit}"
    return ""


def _value_in(clause: str, question_words: set[str]) -> bool:
    """The clause offers a value of its own: a number or a word the question does not use that
    is not a common word (what a guess after "but" carries)."""
    if re.search(r"\d", clause):
        return True
    words = {w.strip("'’.-") for w in _WORD.findall(clause)} - _STOP - question_words
    return any(len(w) > 3 for w in words - _COMMON)


#: words of declining and hedging themselves, not values
_COMMON = frozenset("""sorry afraid unfortunately unable sure unsure think believe guess might maybe perhaps
possibly probably likely seems appears could would however though although that said information record
records data details context documents document sources source provided given available mention mentioned
find found cannot help question answer clarify specify more specific mean referring which know idea
database system exactly exact precise precisely certain certainty without anything something else
check contact team someone elsewhere further additional recommend suggest consult""".split())


#: words that send the user elsewhere rather than offer a value
_ELSEWHERE = re.compile(r"\b(?:different|another|other|elsewhere|somewhere|separately|instead)\b")
#: a suggestion of something to do or look at instead: "it might be worth ringing the branch", "if it's dental
#: costs you're thinking about, our care plans might be worth a look"; what it names answers another question
_SUGGESTS = re.compile(r"\b(?:might|may|could|would) be worth (?:a (?:look|try|call|visit)|\w+ing)\b|"
                       r"\bif (?:it's|it is) [^.!?]*\byou(?:'re| are) (?:thinking|asking|worried|looking|after)\b|"
                       r"\bif you(?:'re| are) (?:looking for|after|interested in|thinking (?:of|about))\b")
#: what the business does offer, said as a fact about itself ("we do offer bespoke blending")
_WE_OFFER = re.compile(r"\b(?:we|they) (?:do |also |only |now )?(?:offer|have|run|stock|sell|carry|provide|operate|"
                       r"make|hold)\b")


def _offers_instead(clause: str, question_words: set[str]) -> bool:
    """The clause names something else the business offers ("..., though we do offer bespoke blending for larger
    accounts" to "Do you offer own-label packing?"): nothing after its verb is a word of the question, so it is an
    alternative, not a candidate answer ("but we do have a Saturday clinic" to "Is there a Saturday clinic?" is
    one)."""
    m = _WE_OFFER.search(clause)
    return m is not None and not _mentions(clause[m.end():], question_words)


#: an offer to help with something else ("that said, I'm happy to suggest a wine"): a service, not a value
_OFFER = re.compile(r"\b(?:(?:i'm|i am|i'd be|i would be|we're|we are|we'd be) (?:happy|glad|pleased) to|i can "
                    r"(?:help|suggest|recommend|look)|feel free to|if you(?:'d| would) like)\b")
#: a caveat on an answer already given ("Note that there may be more than one member ...", "this figure may not
#: include partner miles"): it hedges the answer, and neither declines nor denies the question's premise
_CAVEAT = re.compile(r"^(?:please |but |however,? |and )?(?:note|bear in mind|keep in mind|be aware)\b|"
                     r"\b(?:may|might|could) (?:not|be more than|also)\b|\bplease (?:verify|double-check|check)\b|"
                     # "the documents don't say much more about it": declines only what goes beyond the answer
                     r"\b(?:much|anything|any|a lot|a great deal) (?:more|else|further)\b")


#: "but yes" / "but no" after a disclaimer: the reply commits to an answer after its caveat
_CAVEAT_THEN_YES_NO = re.compile(r"^(?:but|however|though|that said),? (?:yes|no)\W*$")


#: a clause opening with the user's own action as its condition ("if you do buy ...", "but once you've joined")
_IF_YOU = re.compile(r"^(?:but|though|however|and|so)?,?\s*(?:if|when|once|in case|should) you\b")


def _guess_after_refusal(text: str, clauses: list[str], question_words: set[str], yes_no: bool = False,
                         question: str = "") -> str:
    """A candidate offered beside the refusal ("..., but it may be X"), or ""."""
    for clause in clauses:
        if question and not _mentions(clause, question_words) and _unasked_figures(clause, _clean(question)):
            # "about 60% of the collection is online" to "Is object ORM.1987.442 on display?": a figure of another
            # sort about another thing ("but we do offer gift wrapping for £3" names what was asked, and answers)
            continue
        if _REFUSAL.search(clause) or _CLARIFY.search(clause) or _NEGATIVE.search(clause):
            continue  # a negation ("but none by that name") or a question back offers no candidate
        if _ELSEWHERE.search(clause) or _OFFER.search(clause) or ("?" in clause and not re.search(r"\d", clause)):
            continue  # "perhaps they work at a different practice?" points elsewhere
        if _SUGGESTS.search(clause) or (yes_no and _offers_instead(clause, question_words)):
            # "it might be worth ringing the branch"; "though we do offer blending" to "Do you offer own-label
            # packing?": no candidate ("but we have a saver fare at £12" to "What's the cheapest fare?" is one)
            continue
        if _IF_YOU.match(clause):
            # what follows if the user acts ("If you do buy crypto assets, gains may be subject to CGT") advises on
            # a choice the reply left open: it is no candidate for the answer the reply declined to give
            continue
        if _CAVEAT_THEN_YES_NO.match(clause):
            # a disclaimer, then a committed yes or no ("I can't give financial advice, but yes - ...")
            return clause.split()[-1]
        guess = _GUESS.search(clause)
        if guess and _value_in(clause, question_words):
            return guess.group(0)
        if _CONTRAST.match(clause) and _value_in(clause, question_words) and not _ambiguity_list(text) \
                and not _about_something_else(clause, clauses, question_words):
            return clause.split()[0]
    return ""


def _unasked_figures(clause: str, question: str) -> bool:
    """Every number of ``clause`` is a measured value of a kind the question does not ask for ("about 60% of the
    collection is online" to "Is object ORM.1987.442 on display?"; "£5" to "When does it open?"): a figure about
    something else, no candidate for the value the reply declined. A bare number (a count, a year, an identifier)
    is left to the other tests."""
    numbers = re.findall(r"\d+", clause)
    if not numbers:
        return False
    unasked = {n for value, asks in _MEASURES if not asks.search(question)
               for v in value.findall(clause) for n in re.findall(r"\d+", v)}
    asked = {n for value, asks in _MEASURES if asks.search(question)
             for v in value.findall(clause) for n in re.findall(r"\d+", v)}
    return all(n in unasked and n not in asked for n in numbers)


def _about_something_else(clause: str, clauses: list[str], question_words: set[str]) -> bool:
    """The opening clause declines a thing the question names ("I can't find any holiday playscheme") and
    ``clause`` names none of that thing's words nor refers back to it ("though, so regular sessions carry on
    through August"): what it says is about something else, not a candidate for what was declined. A clause
    that offers a stand-in for it ("but there is a similar booking, BR-20931", "but from general knowledge, ...")
    is a candidate whatever it names."""
    first = clauses[0] if clauses else ""
    cue = _REFUSAL.search(first)
    if cue is None or clause == first:
        return False
    # a possessive names its owner ("the art camp's timetable" declines something of the camp's)
    declined = {_stem(re.sub(r"'s$", "", w.strip("'’.-"))) for w in _WORD.findall(first[cue.end():])} & {
        _stem(w) for w in question_words}
    if not declined or re.search(r"\b(?:it|it's|they|they're|that|this|these|those|one|similar|general|closest|"
                                 r"nearest|same)\b", clause):
        return False
    # what was declined is a thing ("can't find any holiday playscheme"), so nothing after is about it; or the
    # clause states a fact of the business's own ("but we open at 9am on Saturdays"); a bare fact after a
    # missing one ("nothing about a dress code, but smart casual is usual") may still be the answer
    if not re.match(r"\s*(?:any|a|an)\b", first[cue.end():]) and not re.search(r"\b(?:we|we're|we've|our)\b", clause):
        return False
    return not any(_stem(re.sub(r"'s$", "", w.strip("'’.-"))) in declined for w in _WORD.findall(clause))


#: a question back to the user, or candidates offered for a reference ("did you mean X?", "one of")
_CLARIFY = re.compile(r"\bdid you mean\b|\bplease (?:specify|clarify|confirm|tell me|let me know)\b|"
                      r"\b(?:one|either) of\b|\b(?:which|who|whom) (?:one|\w+ )?(?:do|did|are) "
                      r"you\b|\b(?:could|can|would) you\b|\bmean\b.*\?|\b(?:which|what) (?:one |\w+ )?you "
                      r"(?:mean|meant|are referring to|have in mind)\b")


#: one value per reading of an ambiguous reference ("one ... and the other ...", "the first ..., the second ...")
_EACH_READING = re.compile(r"\b(?:one|the first|the former)\b.+\b(?:the other|another|the second|the latter)\b")


def _ambiguity_list(text: str) -> bool:
    """The reply names several candidates for one reference ("two employees named Patterson: ...")."""
    return bool(re.search(r"\b(?:more than one|several|multiple|two|three|four|a few)\b.{0,60}\b(?:named|called|"
                          r"match|matching|with (?:that|the|this) name|share)\b|^there (?:are|were) (?:two|three|four|"
                          r"several|multiple)\b", text))


def _clauses(text: str) -> list[str]:
    # a question is one clause however it is punctuated: "Which connector - Salesforce or HubSpot?" offers its
    # alternatives after the dash, and split there its first half would read as a statement
    parts = [p.strip() for s in _SENTENCE_END.split(text)
             for p in (_CLAUSE_END.split(s) if s.rstrip().endswith("?") else _SENTENCE.split(s))]
    out: list[str] = []
    for p in parts:
        # "..., but ..." / "...; however ..." start a clause of their own
        # ("..., though, ..." and a closing "..., though." are an adverb of the sentence they stand in - "We do
        # teach eight instruments, though, if that gives a sense of size" - and start no clause of their own)
        pieces = re.split(r",\s*(?=(?:but|however|although|yet)\b|though\b(?!\s*(?:[,.!?]|$)))", p)
        # a sentence opening with a concession ("While I can't give tax advice, the allowance is £20,000") ends
        # that clause at its first comma: what follows is the main clause, said in full
        if re.match(r"(?:while|whilst|although|though|even though)\b", pieces[0]):
            pieces[:1] = pieces[0].split(",", 1)
        out.extend(s.strip() for s in pieces if s.strip())
    return out


def _premise_reply(reply: str, text: str, clauses: list[str], words: set[str], question: str, reference: str,
                   refusal_kind: str | None, premise: bool, gives_reference: bool) -> ReplyClass | None:
    """:func:`classify_reply`'s reading of a reply against the question's premise (a correction, or an
    absent entity's denial), and of an out-of-domain or answerable question's explicit correction; None
    when neither decides."""
    if premise and not _zero_count(clauses, question):
        correction = _correction_cue(text, clauses, words, question, gives_reference,
                                     first_only=refusal_kind is None and not reference)
        if correction and refusal_kind is None and not reference and not _CORRECTION.search(text) and clauses \
                and (_REFUSAL.search(clauses[0]) or _denies_existence(clauses[0], words)):
            # the kind unknown and no true value to give (a reference comes only with a false premise): a reply
            # that opens by finding no such thing, or saying it does not exist, declines an absent entity; what
            # follows ("the only Lee is a porter, not a nurse") points to what does exist
            return ReplyClass(REFUSAL, f"denies the entity ({correction})")
        if correction:
            return ReplyClass(CORRECTION, correction)
        if gives_reference:
            return ReplyClass(CORRECTION, "gives the true value the premise contradicts")
        restated = _restates_premise(str(reply), clauses, question) \
            if refusal_kind == "false_premise" or reference else ""
        if restated:
            return ReplyClass(CORRECTION, restated)
        # only where the premise is known to be false: a record to refuse of unknown kind that finds no
        # "Nimbus Vault" and lists the products there are declines an absent entity
        # (a reference is given only for a false premise, so with one the kind is known even when not passed)
        otherwise = (refusal_kind == "false_premise" or reference) and clauses and _REFUSAL.search(clauses[0]) and \
            _states_otherwise(clauses[0], clauses[1:], words)
        if otherwise:
            return ReplyClass(CORRECTION, otherwise)
    elif refusal_kind == "out_of_domain" and _denies_stated(text, question):
        # "As you're the council, can you fix the potholes?" - "We're the allotment society - not the council, so
        # road repairs aren't something we deal with": the premise the question states is denied, whatever follows
        return ReplyClass(CORRECTION, _denies_stated(text, question))
    elif refusal_kind in ("", "out_of_domain") and not _REFUSAL.search(text):
        # an out-of-domain question can still rest on a false premise ("Corbel & Vine's restaurant": it is a
        # wine merchant): an explicit correction of it declines to answer, as a refusal does
        explicit = _CORRECTION.search(text) or (None if _YES_NO.match(question) else _weak_correction(text, question))
        if explicit and refusal_kind == "out_of_domain" and not _CORRECTION.search(text) and not _NEGATION.search(text):
            explicit = None  # "Actually, the area of a circle is πr²" answers the out-of-domain question
        if explicit:
            return ReplyClass(CORRECTION, explicit.group(0).strip())
        restated = _denies_then_restates(clauses, words, question) if refusal_kind == "" else ""
        if restated:
            return ReplyClass(CORRECTION, restated)
    return None


def classify_reply(reply: str | None, question: str = "", reference: str = "",
                   refusal_kind: str | None = None) -> ReplyClass:
    """Whether ``reply`` (to ``question``; ``reference``: the true value a correction would give, a
    false premise's ``answer_text``) is a refusal, a premise correction or an answer, with the
    cue that decided it. No reply at all is a refusal (the system said nothing).

    ``refusal_kind`` (the record's, when known) says whether the question has a premise to
    correct: a false premise's reply (or one of unknown kind, None) can be a correction by any
    cue; a question to answer's ("") only by an explicit one ("actually", "there may be a mix-up":
    a negation there answers it, "Member 3302 didn't borrow any e-books"), as an out-of-domain
    question's ("Actually, Clearbrook Water isn't a listed company"); a reply that denies
    what an absent entity's question takes for granted ("Kittiwake doesn't serve a port called
    Eilean Mor") declines it: a refusal. With the kind unknown, a ``reference`` (given only for a false
    premise) says there is a premise to correct; without one, a reply that opens by finding no such thing
    or denying it exists declines. A question to answer's reply that denies a word of the question and then
    states what holds instead ("hasn't gone up to £96 - it is £84") corrects it (wrongly: it over-refuses);
    a count answered with zero ("didn't borrow any e-books") is an answer whatever the kind. A reply saying that
    a thing the question names does not exist ("We don't have a Dr Lewis") declines an absent entity, a yes/no
    question's too; one that only points elsewhere ("Please call the practice") declines."""
    if reply is None or not str(reply).strip():
        return ReplyClass(REFUSAL, "no reply")
    text = _clean(str(reply))
    words = _premise_words(question)
    clauses = _clauses(text)
    premise = refusal_kind in (None, "false_premise")
    gives_reference = premise and _gives(text, reference, words, question) and not _accepts(text, words)
    opening = _opening_reply(text, question) if premise else None
    if opening is not None:
        return opening
    if refusal_kind is None and not reference and not _CORRECTION.search(text):
        # the kind unknown and no true value to give: a reply saying that a thing the question names does not
        # exist declines an absent entity, whatever the question's form ("Can I book Dr Lewis?" - "We don't
        # have a Dr Lewis")
        named = _denies_named(clauses, question, existence_only=bool(_YES_NO.match(question)))
        if named:
            return ReplyClass(REFUSAL, f"denies the entity ({named})")
    decided = _premise_reply(str(reply), text, clauses, words, question, reference, refusal_kind, premise,
                             gives_reference)
    if decided is not None:
        return decided
    refusal = _REFUSAL.search(text)
    if refusal and not _bare_none(text):
        return _declined(text, clauses, words, refusal.group(0).strip(), question)
    if refusal_kind == "absent_entity":
        # a yes/no question too: "Does the MV Island Star have cabins?" - "There's no MV Island Star in our fleet"
        denial = _correction_cue(text, clauses, words, question, False) or _denies_named(clauses, question)
        if denial:
            return ReplyClass(REFUSAL, f"denies the entity ({denial})")
    declined = _declines_the_task(clauses, words) or _only_points_elsewhere(clauses, question, refusal_kind)
    if declined:
        return ReplyClass(REFUSAL, declined)
    return ReplyClass(ANSWER)


#: a value's words: numbers, fractions, frequencies, days ("every month", "four times a year", "a third", "Sunday")
_VALUE_WORD = re.compile(r"\d.*|(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|half|third|"
                         r"quarter|twice|once|every|daily|weekly|fortnightly|monthly|quarterly|yearly|annually|"
                         r"days?|weeks?|fortnights?|months?|years?|(?:mon|tues|wednes|thurs|fri|satur|sun)days?)$")
#: a premise's lead-in ("I read that ...", "I heard ...")
_LEAD_IN = re.compile(r"^(?:i (?:read|heard|saw|was told|think|believe|understand)|apparently|someone told me)"
                      r"(?: that)?,? ")


def _names(raw: str) -> set[str]:
    """The capitalised words of a text other than a sentence's first: the names it states."""
    return {m.group(0).lower() for m in re.finditer(r"(?<![.!?]\s)(?<!^)(?<![—–-]\s)\b[A-Z][a-z'’-]+", raw.strip())}


def _restates_premise(reply: str, clauses: list[str], question: str) -> str:
    """A reply that restates the premise's own frame with another value and no word of denial ("The panel
    meets four times a year" to "I read that the Acquisitions Panel meets every month - when's the next one?";
    "Helen Pryde is the curator for textiles" to "Dr Helen Marsh is your textiles curator - can I email her?"):
    it corrects the premise as plainly as "not every month" would; or "". A clause shares two words or more of
    the premise statement, among them the word next to a value of the premise it leaves out (the value's frame:
    "meets" for "every month", "curator" for "Marsh"), and states a value of the same sort (a number, frequency
    or day; a name) that the question does not. "The Hardship Fund pays up to £1,000" answered "To apply for the
    Hardship Fund, contact ..." shares the subject, not the frame "pays": no restatement."""
    parts = [[w.strip("'’.-") for w in _WORD.findall(_LEAD_IN.sub("", p))]
             for p in _question_parts(_clean(question)) if not p.endswith("?")]
    q_words = {w.strip("'’.-") for w in _WORD.findall(_clean(question))}
    q_names, r_names = _names(question), _names(reply)
    for clause in clauses:  # the reply's, cleaned; ``reply`` as written keeps the capitals of its names
        if _NEGATIVE.search(clause) or _REFUSAL.search(clause) or "?" in clause:
            continue
        said = {w.strip("'’.-") for w in _WORD.findall(clause)}
        stems = {_stem(w) for w in said}
        shared = {w for p in parts for w in p if w not in _STOP and _stem(w) in stems}
        if len({w for w in shared if not _VALUE_WORD.match(w)}) < 2:
            continue
        new_value = any(_VALUE_WORD.match(w) and w not in q_words for w in said)
        new_name = any(w in r_names and w not in q_words for w in said)
        for tokens in parts:
            for i, w in enumerate(tokens):
                is_value, is_name = bool(_VALUE_WORD.match(w)), w in q_names
                if _stem(w) in stems or not ((is_value and new_value) or (is_name and new_name)):
                    continue
                if _frame_kept(tokens, i, shared, q_names):
                    return f"restates the premise with another {'name' if is_name else 'value'} ({w})"
    return ""


def _frame_kept(tokens: list[str], i: int, shared: set[str], names: set[str]) -> bool:
    """The nearest word of the premise on either side of its value ``tokens[i]`` that is neither a common word,
    another value nor a name is one the reply repeats."""
    def frame(seq: list[str]) -> str:
        return next((w for w in seq if w not in _STOP and not _VALUE_WORD.match(w) and w not in names), "")
    return bool({frame(tokens[:i][::-1]), frame(tokens[i + 1:])} & shared)


#: a statement put to the assistant for confirmation ("..., right?", "..., isn't it?", "... - correct?")
_TAG_QUESTION = re.compile(r"[,—–-]\s*(?:right|correct|yes|true|no|am i right|is that right|isn't it|aren't they|"
                           r"don't they|doesn't it|didn't it|wasn't it|weren't they|haven't they|hasn't it)\s*\?\s*$")


def _question_parts(question: str) -> list[str]:
    """The question's sentences and dash-separated parts: "The club is £20 a month - is there a discount for
    two?" asks its yes/no question after the dash; "A half day is £45, so is a full day cheaper?" and "Since the
    auto-belays are in the Barn, can I use them ...?" ask theirs after the comma that ends the premise."""
    return [p.strip() for p in re.split(r"(?<=[.!?])\s+|\s+[—–-]\s+|,\s*(?:so |then |and )?(?=(?:is|are|was|were|do|"
                                        r"does|did|can|could|will|would|should|has|have) )", question) if p.strip()]


def _declines_the_task(clauses: list[str], words: set[str]) -> str:
    """The reply opens by saying it cannot do what the question asks it to do ("Can you draft a supplier
    contract?" - "I can't draft contracts"), or "": the verb declined is the question's own."""
    # "we don't repair carbon frames" to "Do you repair carbon frames?" says what the business does: an answer
    m = re.match(r"\W*(?:sorry,? |unfortunately,? |i'm afraid )?(?:i (?:don't|do not) |(?:i|we) (?:can't|cannot|"
                 r"can not|won't|am unable to|'m unable to|am not able to|'m not able to) )([\w'-]+)",
                 clauses[0] if clauses else "")
    if m and (m.group(1) in words or _stem(m.group(1)) in {_stem(w) for w in words}):
        return f"declines to {m.group(1)}"
    return ""


#: a clause that sends the user to someone else ("Please could you call the practice on ...", "You'll need to
#: ask the registry office") or says that someone else will help ("Our reception team will be happy to help")
_REDIRECT = re.compile(
    # at the clause's start, or after a reason that carries no value ("Course prices change from time to time, so
    # please check with reception")
    r"(?:^|^[^\d]*?,? so )(?:(?:i'm )?(?:sorry|afraid)[,!.]? )?(?:(?:for (?:that|this|those|these)|in that case|"
    r"otherwise|for (?:questions?|queries|enquiries|anything|more|further|current|up-to-date|the latest|details|"
    r"information)\b[^,.!?\d]{0,40}?),? )?"
    r"(?:please |so |you(?:'ll| will| would|'d)? (?:need|want|have) to |"
    r"you (?:can|could|may|should|might) |(?:could|can|would) you (?:please )?|i'd (?:suggest|recommend)(?: that)? "
    r"(?:you )?|it's best to |(?:it's )?best to )*(?:call|ring|phone|contact|email|e-mail|ask|speak (?:to|with)|"
    r"talk (?:to|with)|get in touch|check with|check (?:the|our|your) (?:website|app|site|noticeboard|portal)|"
    r"visit|write to|message|drop in|pop in|drop us (?:a line|an? e-?mail|a message|a note)|have a look at (?:our|the) "
    r"[\w' -]{0,30}(?:page|website|site|app|noticeboard|portal)|give (?:[\w'-]+ ){1,3}a "
    r"(?:ring|call|bell|shout))\b|\b(?:that's|that is|this is|it's) (?:one|a question|something|a matter) for (?:your|"
    r"the|a|an)\b|"
    r"\b(?:will|would|can|could|should|'ll) (?:be (?:happy|glad|pleased|able) to )?(?:help|assist|advise|tell you|"
    r"know|talk (?:to )?you|explain|answer|sort|confirm|let you know)\b|"
    # a document of the user's own that holds the answer ("Payment terms are set out in your booking confirmation")
    r"^[^\d]*\b(?:is|are) (?:set out|given|listed|shown|explained|detailed|printed|stated) (?:in|on) your\b")
#: a question that asks whom to contact or how to do something: a pointer to someone answers it. "Can I pay
#: monthly?" asks whether, not how: "Our team can talk you through payment options" says neither yes nor no
_ASKS_WAY = re.compile(r"^\W*(?:how (?!much|many|long|often|far|old|soon|early|late|quickly|big)|where|who|whom|"
                       r"do i|should i)\b|\b(?:number|phone|email|e-mail|address|contact|website|way)\b")
#: an apology: a pointer elsewhere with one declines even a question of how to do something
_APOLOGY = re.compile(r"\b(?:sorry|afraid|unfortunately|apologies)\b")


#: thanks or praise, which says nothing about what was asked
_COURTESY = re.compile(r"\W*(?:thanks|thank you|many thanks|(?:great|good|lovely) question|(?:that's|what) a (?:great|"
                       r"good|lovely) question)\b")


def _only_points_elsewhere(clauses: list[str], question: str, refusal_kind: str | None = None) -> str:
    """A reply that only sends the user to someone else ("Please could you call the practice on 01632 960 414?
    Our reception team will be happy to help") answers nothing: a refusal, unless the question asks whom to
    contact or how to do something, or a clause also states a value of the kind the question asks ("Please
    call at least 24 hours before" to "How much notice ...?"). "". The pointer declines a question of how to do
    something too where it comes with an apology ("That's one for your broadband provider, I'm afraid") or the
    question is out of the domain."""
    q = _clean(question)
    # a courtesy ("Thanks for your interest in Rock School!") or, to a question asking a measure, a sentence with
    # no number, no denial and no word of the question ("It's a great way for young players to learn") leaves
    # the pointer the only reply
    asks_measure = any(asks.search(q) for _, asks in _MEASURES)
    words = _premise_words(question)
    pointers = [c for c in clauses if not _COURTESY.match(c) and not (
        asks_measure and not _REDIRECT.search(c) and not re.search(r"\d|\bfree\b|^\W*(?:yes|no)\b", c)
        and not _NUMBER_WORD.search(c) and not _NEGATIVE.search(c) and not _mentions(c, words))]
    if not pointers or not all(_REDIRECT.search(c) for c in pointers):
        return ""
    if _ASKS_WAY.search(q) and refusal_kind != "out_of_domain" and not any(_APOLOGY.search(c) for c in clauses):
        return ""
    if any(asks.search(q) and value.search(c) for value, asks in _MEASURES for c in clauses):
        return ""
    return "only points elsewhere"


def _opening_reply(text: str, question: str) -> ReplyClass | None:
    """What the reply's first word settles where the premise may be false: "Neither" to an X-or-Y question and
    "No, ..." to a statement put for confirmation correct it; "Yes" first to a yes/no question takes it as
    given. None where the first word settles nothing."""
    if " or " in _clean(question) and re.match(r"\W*neither\b", text):
        # "Does it support 12, or just 11?" - "Neither - it supports 14 to 17": both alternatives denied
        return ReplyClass(CORRECTION, "neither of the alternatives")
    if _TAG_QUESTION.search(_clean(question)) and re.match(r"\W*no\b[,.;:!\s-]+(?!(?:one|record|"
                                                                         r"information|data|idea)\b)\w", text) \
            and not _REFUSAL.search(text):
        # a statement put for confirmation ("The tip is open until 8pm, right?") answered "No, it closes at 4pm":
        # what the question takes for granted is denied, with the value that holds
        return ReplyClass(CORRECTION, "no to a statement put for confirmation")
    flipped = _flips_a_denial(text, question) or _reassigns(text, question)
    if flipped:
        return ReplyClass(CORRECTION, flipped)
    yes_first = re.match(r"\W*yes\b(?![,\s]*(?:but|however|though|although))", text)
    if yes_first and any(_YES_NO.match(c) for c in _question_parts(question)) \
            and not _CORRECTION.search(text):
        # a yes/no question answered "Yes" first takes its premise as given, whatever follows ("Yes, there's a
        # 10% discount, so two cats would be £36 instead of £40")
        return ReplyClass(ANSWER, "answers yes first")
    return None


#: agreeing first ("That's right - ...", "Correct: ..."): what follows confirms the statement put
_AGREES = re.compile(r"\W*(?:yes|yeah|right|correct|exactly|indeed|true|that's (?:right|correct|true)|that is "
                     r"(?:right|correct|true)|you're right|you are right)\b")


def _flips_a_denial(text: str, question: str) -> str:
    """A negative statement put for confirmation ("Cloudy nights aren't refunded, right?") answered with the
    same verb affirmed ("cloudy-night tickets can be refunded in full") denies what the question takes as true:
    a correction, or "". A reply that agrees first, or keeps the negation ("they aren't refunded, only moved"),
    confirms it."""
    q = _clean(question)
    if not _TAG_QUESTION.search(q) or _AGREES.match(text):
        return ""
    statement = _TAG_QUESTION.sub("", q)
    m = _DENIAL.search(statement)
    after = [w.strip("'’.-") for w in _WORD.findall(statement[m.end():])[:3]] if m else []
    # the verb denied, past an auxiliary or an adverb ("aren't ever refunded", "don't get refunded")
    verb = next((w for w in after if w not in _STOP and w not in ("ever", "get", "got", "usually", "always")), "")
    for clause in _clauses(text) if verb else []:
        if not _NEGATIVE.search(clause) and not _REFUSAL.search(clause) and any(
                _stem(w.strip("'’.-")) == _stem(verb) for w in _WORD.findall(clause)):
            return f"affirms what the statement put denies ({verb})"
    return ""


#: "<subject> is/are <predicate>" in a statement put for confirmation or in a reply
_IS_A = re.compile(r"(?:^|\b(?:your|our|the|its|their|my)\s)([\w' -]{2,40}?)\s(?:is|are|was|were)\s(?:a |an |the |our |"
                   r"your )?([\w'-]+)")


def _reassigns(text: str, question: str) -> str:
    """A statement put for confirmation ("Your automatic car is a Fiesta, right?") answered by giving its
    subject another value ("Our automatic is a Toyota Yaris hybrid - the Fiesta is our manual car"): the
    premise is denied without a negation, a correction; or "". A reply that agrees first, or whose value for
    that subject is the statement's own ("the automatic is a Fiesta hybrid"), confirms it."""
    q = _clean(question)
    tagged = next((p for p in _question_parts(q) if _TAG_QUESTION.search(p)), "")
    said = _IS_A.search(_TAG_QUESTION.sub("", tagged)) if tagged else None
    if said is None or _AGREES.match(text) or said.group(2) in _STOP:
        return ""
    subject = {w for w in _WORD.findall(said.group(1)) if w not in _STOP}
    for clause in _clauses(text):
        m = _IS_A.search(clause)
        if m and not _NEGATIVE.search(clause) and subject & set(_WORD.findall(m.group(1))) \
                and _stem(m.group(2)) != _stem(said.group(2)) and said.group(2) not in clause \
                and not re.search(rf"\b{re.escape(said.group(2))}\b(?![\w' -]{{0,20}}\s(?:is|are|was|were)\b)", text):
            # the statement's value may appear only as the subject of a value of its own ("the Fiesta is our
            # manual car"); kept as what holds ("The manager is off today, but Sarah can help") it is not denied
            return f"gives the subject another value ({m.group(2)}, not {said.group(2)})"
    return ""


#: a yes/no question answered by a short echo of its verb, a sentence of its own ("They do.", "It doesn't!")
_SHORT_ANSWER = re.compile(r"^(?:it|they|we|you|he|she|there|that) (?:do|does|did|can|will|is|are|was|were|has|have)"
                           r"(?:n't| not)?\s*[.!]")


def _declined(text: str, clauses: list[str], words: set[str], cue: str, question: str = "") -> ReplyClass:
    """A reply holding a refusal cue: a refusal, unless it answers anyway — a candidate offered
    beside it ("I'm not sure, but it may be X"), an answer for every reading of an ambiguous
    reference ("two nurses named Patel: Anjali ... on 2 May, Ravi ... on 28 April"), or an
    answer first and then a caveat about something the question did not ask ("The supplier is
    Medlink. I could not find the contract value"). Also answers: a yes/no committed first ("No - the
    warranty only covers faults"), a disclaimer before the fact asked for ("I can't give tax advice, but the
    allowance is £20,000"), a value for every reading before asking which, and an answer followed by a
    question back about something new."""
    guess = _guess_after_refusal(text, clauses, words, bool(_YES_NO.match(question)), question)
    if guess:
        return ReplyClass(ANSWER, f"declines ({cue}) yet offers a candidate ({guess})")
    # the clauses that decline; a cue that spans two clauses ("the page lists A, but not B") declines in the
    # clause where it ends
    cue_end = " ".join(cue.split()[-2:])
    declining = [c for c in clauses if _REFUSAL.search(c)] or [c for c in clauses if cue_end in c][-1:]
    if _ambiguity_list(text) and "?" not in text and (len(re.findall(r"\d+", text)) >= 2 or sum(
            1 for c in clauses[1:] if _mentions(c, words) and _value_in(c, words) and not _NEGATIVE.search(c)) >= 2):
        return ReplyClass(ANSWER, "answers for every reading of the reference")
    asks_which = any("?" in c and (_CLARIFY.search(c) or re.search(r"\bwhich\b", c)) for c in clauses)
    if not asks_which and any(_EACH_READING.search(c) and len(re.findall(r"\d+", c)) >= 2 and not _REFUSAL.search(c)
                               and not _NEGATIVE.search(c) for c in clauses):
        # "it's unclear which Lee you mean, but one joined in 2019 and the other in 2022": a value for each reading
        return ReplyClass(ANSWER, "answers for every reading of the reference")
    if question and _YES_NO.match(question) and (re.match(r"^(?:yes|no)\b(?!\s+(?:one|record|records|information|"
                                                         r"data|details|idea|mention|such))", text)
                                                 or _SHORT_ANSWER.match(text)) \
            and not _STRONG_REFUSAL.search(text) and "?" not in text:
        # a yes/no question answered "No - the warranty only covers faults, so damage isn't included": the
        # reply commits first, and what follows gives its reason
        return ReplyClass(ANSWER, f"answers {text.split()[0].strip(',.!-')} first ({cue})")
    if declining and all(_DISCLAIMER.search(c) for c in declining) and any(
            c not in declining and "?" not in c and not _NEGATIVE.search(c) and not _SCOPE.search(c)
            # an offer of what the assistant can help with ("I can help with lessons, tests and Pass Plus") is no fact
            and not _SUGGESTS.search(c) and not _OFFER.search(c) and not _IF_YOU.match(c) and _mentions(c, words)
            and _value_in(c, words)
            for c in clauses):
        # "I can't give tax advice, but the ISA allowance is £20,000": what it declines is advice, and the
        # reply then commits to the fact asked for
        return ReplyClass(ANSWER, f"a disclaimer ({cue}), then an answer")
    readings = _answers_each_reading(clauses, words, question) or _clause_per_reading(clauses, words, question) \
        or _list_per_reading(text, words)
    if readings:
        return ReplyClass(ANSWER, readings)
    picked = _answers_then_asks(clauses, words)
    if picked:
        return ReplyClass(ANSWER, picked)
    first = clauses[0] if clauses else ""
    if (first and not _REFUSAL.search(first) and not _SOURCE_SUBJECT.match(first) and _value_in(first, words)
            and not _NEGATIVE.search(first) and not _CLARIFY.search(text) and "?" not in text
            and not any(_mentions(c, words) and not _CAVEAT.search(c) for c in declining)
            and not any(_SCOPE.search(c) for c in declining)):
        return ReplyClass(ANSWER, f"answers, then declines something not asked ({cue})")
    policy = _states_policy(first, question)
    if policy:
        return ReplyClass(ANSWER, policy)
    return ReplyClass(REFUSAL, cue)


#: what the organisation will not do, said first ("We're not able to give valuations, I'm afraid")
_WE_DONT = re.compile(r"^\W*(?:(?:sorry|unfortunately|i'm afraid),? )?(?:we|we're|we are) (?:don't|do not|can't|cannot|"
                      r"won't|will not|never|aren't able to|are not able to|'re not able to|not able to|are unable to|"
                      r"'re unable to|unable to) ((?:\w+ )?[\w'-]+)")
#: what a reply says when the information, not the service, is missing ("we don't have any details")
_ABOUT_INFORMATION = re.compile(r"\b(?:information|details?|data|records?|know|find|see|say|confirm|hold|have|tell|"
                                r"mention|access|answer)\b")


def _states_policy(first: str, question: str) -> str:
    """A question asking what the organisation will do ("Will you tell me what my old vase is worth?", "Do you
    take cheques?") answered first by what it will not ("We're not able to give valuations, I'm afraid"): the
    organisation's own practice is the answer "no", not a refusal to answer; or "". A reply that says the
    information is missing ("we don't have any details of that") declines, and so does the assistant's own
    "I can't ..."."""
    if not re.match(r"\W*(?:will|would|can|could|do|does) you\b", _clean(question)):
        return ""
    m = _WE_DONT.match(first)
    if m is None or _ABOUT_INFORMATION.search(first[m.start(1):]):
        return ""
    return f"says what the organisation does not do ({m.group(1)})"


#: measured values by what they measure, each with the question words that ask for it: "How much does the mug
#: hold?" is answered by "350 ml", not by "21 cm", which only tells two knives apart. A bare number may be a year
#: or an identifier, which tells readings apart without answering anything
_MEASURES = [
    (re.compile(r"[$€£¥]\s?\d|\b\d[\d,.]*\s?(?:pence|p)\b"),
     re.compile(r"\b(?:price|cost|costs|fee|fees|charge|charges|pay|fare|fares|how much|rate|rent|deposit)\b")),
    (re.compile(r"\b\d[\d,.]*\s?(?:ml|cl|litres?|liters?|pints?)\b"),
     re.compile(r"\b(?:hold|holds|capacity|volume|how much)\b")),
    (re.compile(r"\b\d[\d,.]*\s?(?:km|cm|mm|miles?|metres?|meters?|feet|ft|inch(?:es)?)\b"),
     re.compile(r"\b(?:long|tall|wide|high|far|deep|length|size|distance|height|width|depth)\b")),
    (re.compile(r"\b\d[\d,.]*\s?(?:kg|grams?|g|tonnes?|lbs?)\b"), re.compile(r"\b(?:weigh|weighs|heavy|weight)\b")),
    (re.compile(r"\b\d[\d,.]*\s?(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\b"),
     re.compile(r"\b(?:how long|duration|last|lasts|take|takes|period|term|notice)\b")),
    (re.compile(r"\b\d[\d:.]*\s?(?:am|pm)\b|\b\d{1,2}:\d{2}\b"),
     re.compile(r"\b(?:time|when|open|opens|close|closes|start|starts|leave|leaves|arrive|arrives)\b")),
    (re.compile(r"\b\d[\d,.]*\s?%"), re.compile(r"\b(?:rate|percent|percentage|interest|share|discount)\b")),
]


#: the values that tell an ambiguous question's readings apart and answer it: the measures, and a year to a
#: question of age or date
_READING_VALUES = [*_MEASURES, (re.compile(r"\b(?:1[5-9]|20)\d\d\b"),
                                re.compile(r"\b(?:how old|what year|which year|when (?:was|were|did)|built|made|"
                                           r"founded|opened|dates? from)\b"))]


def _answers_each_reading(clauses: list[str], words: set[str], question: str) -> str:
    """A reply that asks which reading is meant but has already answered for each (the labelling rule: an
    answer for every reading is an answer), or "". Two forms: the statements before the question carry a
    value per reading of the kind the question asks ("How much does the mug hold?" - "two mugs, the Tall
    (350 ml) and the Breakfast (450 ml). Which one?"), or an alternative of the question back names what was
    asked with its value ("Which branch ...?" - "Do you mean Piotr, who works at the York branch, or Anna at
    Leeds?")."""
    statements = " ".join(c for c in clauses if "?" not in c and not _REFUSAL.search(c) and not _NEGATIVE.search(c))
    q = _clean(question)
    # only a reply about readings gives one value per reading: "I don't have the late-night hours. Standard
    # hours are 10am-5pm" declines, and what follows is about something else
    about_readings = any("?" in c or _COUNTS_READINGS.search(c) for c in clauses)
    if about_readings and any(asks.search(q) and len(value.findall(statements)) >= 2 for value, asks in _MEASURES):
        return "gives a value for every reading, then asks which"
    for c in clauses:
        m = re.search(r"\b(?:do|did) you mean (.+) or (.+)\?", c)
        # each alternative of the question back carries its value of the kind asked ("How old is the clock?" - "Do
        # you mean the longcase clock (made around 1785) or the turret clock (1820)?"): every reading is answered
        if m and any(asks.search(q) and all(value.search(o) for o in m.groups()) for value, asks in _READING_VALUES):
            return "each alternative asked back carries its value"
    head = re.match(r"\W*(?:which|what) ([\w'-]+)", _clean(question))
    head_word = head.group(1) if head and head.group(1) not in _STOP else ""
    for c in clauses if head_word else []:
        m = re.search(r"\b(?:do|did) you mean (.+) or (.+)\?", c)
        if not m:
            continue
        # the thing asked ("which branch") named with a value of its own in an alternative ("the York branch"):
        # that reading is answered; "the feeder school for X, or the school Y feeds into" only restates the
        # question per reading, and "the indoor pool or the lido" names the readings, not what was asked
        for option in m.groups():
            tokens = [w.strip("'’.-") for w in _WORD.findall(option)]
            for i, w in enumerate(tokens[1:], 1):
                before = tokens[i - 1]
                if _stem(w) == _stem(head_word) and before not in _STOP and before not in words and len(before) > 2:
                    return f"an alternative answers what was asked ({before} {w})"
    return ""


def _clause_per_reading(clauses: list[str], words: set[str], question: str) -> str:
    """A reply that says the answer turns on the reading and then answers each in a clause of its own ("It
    depends which Cedar you mean: at Cedar Walk you can keep a dog; at Cedar House dogs aren't allowed"), or "".
    A clause answers a reading when it names one (a name of the question and the word after it: "cedar walk")
    and says something the question asks about (another of its words, or a number); two readings so answered,
    and nothing asked back, answer the question: "Cedar Walk is houses; Cedar House is flats" only tells the
    readings apart."""
    names = _question_names(question)
    if not names or any("?" in c for c in clauses):
        return ""
    answered: set[str] = set()
    # compared by stem, a plural's "s" off even in a short word ("dogs" is "dog")
    asked = {_stem(w).rstrip("s") for w in words - names}
    for clause in clauses[1:]:
        tokens = [w.strip("'’.-") for w in _WORD.findall(clause)]
        reading = next((f"{w} {tokens[i + 1]}" for i, w in enumerate(tokens[:-1]) if w in names), "")
        if reading and not _REFUSAL.search(clause) and (re.search(r"\d", clause) or any(
                _stem(w).rstrip("s") in asked for w in tokens if w not in names)):
            answered.add(reading)
    return "answers each reading in a clause of its own" if len(answered) >= 2 else ""


#: a line of a list keyed by a reading ("- Pelham Lock: £5 per day")
_KEYED_LINE = re.compile(r"^\s*(?:[-•*]|\d+[.)])?\s*([^:?]{2,40}):\s*(\S.*)$")


def _list_per_reading(text: str, words: set[str]) -> str:
    """A reply that answers in a list keyed by the readings ("It depends which base:\n- Kettlewick Wharf: free
    parking\n- Pelham Lock: £5 per day"), or "": two lines or more, each a reading and what holds for it (a
    number or a word of the question), and nothing asked back. A list that names the readings and says nothing
    asked of them ("- Kettlewick Wharf: our northern base") only tells them apart."""
    if "?" in text:
        return ""
    keyed = [m for line in text.split("\n") if (m := _KEYED_LINE.match(line))]
    answered = [m for m in keyed if not _REFUSAL.search(m.group(2)) and (re.search(r"\d", m.group(2))
                                                                         or _mentions(m.group(2), words))]
    return "answers each reading in a list keyed by it" if len(answered) >= 2 else ""


#: declining to advise or vouch, which is a disclaimer rather than a refusal to answer the question asked
_DISCLAIMER = re.compile(r"\b(?:advice|advise|guarantee|vouch|endorse|recommendations?|personal (?:view|opinion)|"
                         r"not an? (?:doctor|lawyer|solicitor|accountant|financial adviser|medical professional))\b")


#: a question back about what the user's question meant
_ABOUT_THE_QUESTION = re.compile(r"\b(?:mean|meant|one|ones|referring|asking|talking|enquiring|inquiring|have in mind|"
                                 r"interested in|after|looking for|thinking of)\b")
#: a statement that counts the readings ("There are two Linnet mugs", "Tessaly holds several licences"): it
#: sets up a question about which one is meant, and answers nothing
_COUNTS_READINGS = re.compile(r"\b(?:two|three|four|five|several|multiple|more than one|both|many|a few|various|"
                              r"lots of|plenty of|numerous|a number of|"
                              r"different|\d+ (?:\w+ )?(?:named|called))\b")


def _answers_then_asks(clauses: list[str], words: set[str]) -> str:
    """A reply that commits to a value for the question first and only then asks something back ("The 14:05
    leaves from platform 3. Which station are you coming from?"), or "": the question back does not take
    the answer away. Only where nothing else declines and the opening statement neither counts the
    readings nor denies anything."""
    if not clauses or "?" in clauses[0] or not any("?" in c for c in clauses[1:]):
        return ""
    first = clauses[0]
    if (_REFUSAL.search(first) or _NEGATIVE.search(first) or _COUNTS_READINGS.search(first)
            or _SOURCE_SUBJECT.match(first) or not _mentions(first, words) or not _value_in(first, words)):
        return ""
    if any(_REFUSAL.search(c) for c in clauses[1:] if "?" not in c):
        return ""
    # the question back must be about something new: one asking what the user's question meant ("Which one are
    # you asking about?", "Which client's invoice do you mean?") makes the statement before it a list of readings
    asked_back = [c for c in clauses[1:] if "?" in c]
    if any(_ABOUT_THE_QUESTION.search(c) or _mentions(c, words) for c in asked_back):
        return ""
    return "answers, then asks something back"


#: the assistant's remit ("I'm here for billing questions only"): it declines the whole question, so it is
#: never a caveat after an answer ("Nice try! I'm here for ... only" answers nothing)
_SCOPE = re.compile(r"\bquestions? only\b|\bonly (?:able|here|set up|designed|built|meant) to\b|\b(?:i'm|i am) "
                    r"(?:only )?(?:here|designed|built|set up|meant|trained) (?:to|for)\b|\b(?:outside|beyond) (?:the |"
                    r"my |what )|\bout of (?:my |the )?scope\b|\bi can only\b|\bcovered by (?:them|it|those|these)\b|"
                    r"\bi only (?:have|know|answer|cover|handle|do|deal|help|talk|discuss)\b|\b(?:i'm|i am) (?:only )?"
                    r"(?:set up|designed|built|configured|meant|trained) (?:only )?for\b|\b(?:can|could) only "
                    r"(?:help|answer|assist|deal|talk|discuss|respond|advise)\b|\b(?:this|the|our) (?:assistant|"
                    r"service|chat|chatbot|bot|help ?desk|helpline|line|desk) (?:only|just) (?:covers|handles|answers|"
                    r"deals with|helps with|supports)\b")


#: a clause about the sources themselves ("the documents describe ..."), not an answer
_SOURCE_SUBJECT = re.compile(r"^(?:the |my |these |those )?(?:provided |given |retrieved )?(?:context|documents?|"
                             r"sources?|passages?|records?|information|texts?|excerpts?|search results?|data)\b")


def _mentions(clause: str, words: set[str]) -> bool:
    """The clause uses a word of the question (compared by stem)."""
    stems = {_stem(w) for w in words}
    return any(w in words or _stem(w) in stems for w in (t.strip("'’.-") for t in _WORD.findall(clause)))


def _accepts(text: str, words: set[str]) -> bool:
    """The reply repeats the question's words (at least four in five, by stem) without any negation:
    it takes the premise as given, whatever else it says."""
    if not words or _NEGATION.search(text):
        return False
    # a value of the question's own left out for another ("The card gives 10% off" to "It gives 20% off, how do
    # I apply?") restates the frame and changes what it says
    asked_numbers = _numbers_in(" ".join(words))
    if asked_numbers and not asked_numbers <= _numbers_in(text):
        return False
    stems = {_stem(w) for w in words}
    said = {_stem(t.strip("'’.-")) for t in _WORD.findall(text)}
    return len(stems & said) * 5 >= 4 * len(stems)


def _bare_none(text: str) -> bool:
    """The reply opens with a count or "none" and only then says nothing was recorded ("None — there
    were no cancellations recorded that week"): the answer is zero, not a refusal."""
    return bool(re.match(r"^\W*(?:none|zero|0|nil|no one|nobody)\b(?! of)", text)) and not _STRONG_REFUSAL.search(text)


def _stem(word: str) -> str:
    if len(word) <= 4:
        return word
    stem = re.sub(r"(?:ing|ed|es|s|e)$", "", word)
    # a consonant doubled before -ed or -ing is the verb's own single one: "stopped" is "stop", "planned" "plan"
    if stem != word and word.endswith(("ed", "ing")) and len(stem) > 3 and re.search(r"([bdgmnpt])\1$", stem):
        stem = stem[:-1]
    return stem


def _gives(text: str, reference: str, question_words: set[str], question: str = "") -> bool:
    """The reply states the reference (the true value behind a false premise): the value itself, or
    at least half of the reference's words that the question does not use (stems compared)."""
    ref = _clean(reference) if reference else ""
    if not ref:
        return False
    if _contains(text, ref):
        return True
    # a reference that is a number ("£48 a year", "45p per mile") is given only with its number: "rose to £60
    # this year" shares the word "year" and states a different value
    ref_numbers = _numbers_in(ref)
    if ref_numbers and not ref_numbers & _numbers_in(text):
        return False
    # the value the premise gets wrong is of the kind the question states ("gives 50% off": a percentage): the
    # reply gives the reference only with the reference's value of that kind, not with another of its numbers
    # ("the card costs £10" states the price, and leaves the 50% standing)
    q = _clean(question)
    for value, _ in _MEASURES if ref_numbers else []:
        wanted = _measured(value, ref) if value.search(q) else set()
        if wanted and not wanted & _measured(value, text):
            return False
    asked = {_plural_stem(w) for w in question_words}
    # a range is its two ends ("ages 16-21" is given by "16 to 21")
    tokens = [part for w in _WORD.findall(ref) for part in (w.split("-") if re.fullmatch(r"\d+-\d+", w) else [w])]
    new = {_plural_stem(w.strip("'.-")) for w in tokens} - {_stem(w) for w in _STOP} - asked
    new = {w for w in new if len(w) > 2 or w.isdigit()} - _asked_values(ref, q)
    if not new:
        return False
    # a word said only while declining states nothing: "I don't have data on sedation numbers" names the
    # reference's "sedation" without saying there is none, which is the evidence missing, not a correction;
    # "there is no error recorded" does say there is none
    stated = " ".join(c for c in _clauses(text) if not _REFUSAL.search(c) or _EXISTENCE.search(c))
    said = {_plural_stem(w.strip("'.-")) for w in _WORD.findall(stated)}
    # a number inside a word names a group, not a value ("under-18s need a consent form" does not say the age is 18)
    said |= {m.group(0) for m in re.finditer(r"(?<![\w-])\d+(?:[.,]\d+)?(?!\w)", stated)}
    # a number given in words gives it too ("probation is six months" gives "6 months")
    said |= {str(_NUMBERS.index(w)) for w in re.findall(r"[a-z]+", stated) if w in _NUMBERS}
    return sum(1 for w in new if w in said) * 2 >= len(new)


def _asked_values(ref: str, question: str) -> set[str]:
    """The reference's numbers that answer what the question asks where its premise states no value of that
    kind: "Little Notes is on Sunday mornings - what time does it start?" with "Saturdays at 9:30" - the 9:30 is
    the answer asked for, and only "Saturdays" contradicts the premise; a reply giving the time alone answers."""
    parts = _question_parts(question)
    asking = " ".join(p for p in parts if p.endswith("?"))
    premise = " ".join(p for p in parts if not p.endswith("?"))
    out: set[str] = set()
    for value, asks in _MEASURES if premise and asking else []:
        if asks.search(asking) and not value.search(premise):
            out |= {n for v in value.findall(ref) for n in re.findall(r"\d+", v)}
    return out


def _plural_stem(word: str) -> str:
    """``_stem``, a plural in -ies read as its singular: the reference's "all surgeries charge £48" is given by
    "£48 at every surgery". Only where a reply is matched with a reference: elsewhere a reply's "extended
    warranties" stays apart from the question's "warranty" (another thing, which the reply may decline)."""
    return _stem(word[:-3] + "y" if len(word) > 4 and word.endswith("ies") else word)


_NUMBER_WORD = re.compile(r"\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b")


def _measured(value: re.Pattern[str], text: str) -> set[str]:
    """The numbers of ``text``'s values of one kind (``value``, one of ``_MEASURES``: "£10", "six months"),
    number words read as digits."""
    text = _NUMBER_WORD.sub(lambda m: str(_NUMBERS.index(m.group(0))), text)
    return {m.group(0).rstrip(".,") for v in value.findall(text) if (m := re.search(r"\d[\d,.]*", v))}


def _numbers_in(text: str) -> set[str]:
    """The numbers a text states, in digits or in words ("up to two per passenger" states 2)."""
    said = set(re.findall(r"\d+(?:[.,]\d+)?", text))
    return said | {str(_NUMBERS.index(w)) for w in re.findall(r"[a-z]+", text) if w in _NUMBERS}


def _contains(text: str, value: str) -> bool:
    return bool(re.search(r"(?<!\w)" + re.escape(value) + r"(?!\w)", text))


def _correction_cue(text: str, clauses: list[str], words: set[str], question: str, gives_reference: bool,
                    first_only: bool = False) -> str:
    """What in the reply says the question's premise is false, or "". A negation counts only where
    the question is neither a yes/no question ("No, it was not late" answers it) nor negative, and
    not in a clause that declines ("no record of it shipping to Paris" asserts nothing) unless the
    reply also gives the true value. ``first_only``: a bare negation counts only in the opening clause
    (one after an answer adds a detail: "It takes parcels up to 2 m. Longer ones aren't accepted")."""
    yes_no = bool(_YES_NO.match(question))
    negative_question = bool(_NEGATION.search(_clean(question)))
    declines = bool(_REFUSAL.search(text))
    explicit = _CORRECTION.search(text)
    if explicit is None and not yes_no and (gives_reference or not declines):
        explicit = _weak_correction(text, question)
    if explicit:
        return explicit.group(0).strip()
    for m in _X_NOT_Y.finditer(text):
        target = (m.group(1) or m.group(2) or "").split()
        if target and _asked(target[0].strip("'’.-"), words) and not negative_question:
            return m.group(0).strip(" ,;(.")
    if not words or negative_question or (yes_no and not gives_reference):
        return ""
    goes_on = _goes_on(clauses, question, words)
    if goes_on:
        return goes_on
    if declines and not gives_reference:
        # only a reply that opens by denying the premise ("X has not switched to a four-day week") and then
        # declines what follows from it ("so there is no transfer data") corrects it; opening with "there is
        # no X" denies that X exists, which declines (an absent entity)
        first = clauses[0] if clauses else ""
        # a clause that denies the premise and only then declines what rests on it ("Beehives aren't allowed on
        # any of our sites, so I'm afraid you can't keep bees") opens by denying: what precedes the cue is read
        cue = _REFUSAL.search(first)
        if cue and re.search(r",? so\W*$", first[:cue.start()]):
            first = first[:cue.start()]
        opens_denying = first and not (_REFUSAL.search(first) or _CAVEAT.search(first) or _EXISTENCE.search(first)
                                       or _SOURCES_LACK.match(first))
        return _denies_premise(first, words) if opens_denying else ""
    for clause in clauses[:1] if first_only else clauses:
        if (_REFUSAL.search(clause) and not gives_reference) or _CAVEAT.search(clause):
            continue  # "there is no record of it shipping to Paris": declines, asserts nothing
        hit = _denies_premise(clause, words)
        if hit:
            return hit
    return ""


def _zero_count(clauses: list[str], question: str) -> bool:
    """A count question answered with zero: "How many e-books did member 3302 borrow?" - "Member 3302 didn't
    borrow any e-books"; "How many discrepancies were logged?" - "there were no discrepancies logged". The
    negation is aimed at the thing counted, so it states the count rather than denying a premise; "How many
    seats has the Concourse F lounge?" - "There is no Concourse F lounge" denies something else."""
    m = re.match(r"\W*how many ([\w'-]+)", _clean(question))
    if not m or not clauses or _REFUSAL.search(clauses[0]):
        return False
    counted = _stem(m.group(1))
    # the thing counted within three words of the negation ("there were no lost parcels")
    zero = re.search(r"(?:n't|\bnot|\bnever) (?:\w+ )?any ((?:[\w'-]+ ?){1,3})|\bno ((?:[\w'-]+ ?){1,3})", clauses[0])
    return zero is not None and counted in {_stem(w) for w in (zero.group(1) or zero.group(2)).split()}


def _denies_then_restates(clauses: list[str], words: set[str], question: str) -> str:
    """A reply that opens by denying a word of the question and then states what holds instead ("Membership
    hasn't gone up to £40 - it is £35"; "Lee didn't move in 2023; she has been at Leeds since 2019") corrects
    a premise, even of a question to answer (where the correction is wrong). A yes/no or negative question is
    answered by a negation, and a lone denial ("Member 3302 didn't borrow any e-books") answers a count."""
    if len(clauses) < 2 or _YES_NO.match(question) or _NEGATION.search(_clean(question)):
        return ""
    first, rest = clauses[0], clauses[1:]
    if _CAVEAT.search(first) or _EXISTENCE.search(first):
        return ""
    hit = _denies_premise(first, words)
    if not hit or re.search(r"(?:n't|\bnot|\bnever) (?:\w+ )?any\b", first):
        return ""  # "Depot 7 didn't lose any parcels; the first went missing in June" answers a count: zero
    for clause in rest:
        if (_REFUSAL.search(clause) or _NEGATIVE.search(clause) or "?" in clause or _CAVEAT.search(clause)
                or _ADVICE.search(clause) or _CONTRAST.match(clause)):
            continue
        if _value_in(clause, words):
            return f"denies the premise ({hit}), then states otherwise"
    return ""


#: a clause saying what the sources themselves lack ("The registry extract I have access to doesn't include
#: dates of birth"): its negation is about the sources, not the question's premise; "the records show it
#: was never shipped to Paris" reports what they say, and is left to the rules for corrections
_SOURCES_LACK = re.compile(rf"^{_SOURCE_NP}(?:(?! (?:shows?|says?|states?|confirms?|indicates?|that)\b)[^.!?;,])*?"
                           r"(?:n't|\bnot)\b")


#: a question that takes for granted that something stopped, closed or left
_STOPPED = re.compile(r"\b(?:stop(?:ped)?|ceased?|end(?:ed)?|closed?|shut|discontinued?|quit|dropped?|cancel(?:l?ed)?|"
                      r"abandoned?|scrapped?|withdr[ae]w\w*|leave|left|retired?|phased? out|replaced?|removed?|"
                      r"dismissed|sacked|fired|ousted|demolished|torn down|abolished|suspended)\b")
_ASKS_WHY_STOPPED = re.compile(r"(?:why|when|how|in what year|what year|since when)\b.*\b(?:did|was|were|has|have|"
                               r"had)\b.*" + _STOPPED.pattern +
                               # "Why are bikes £5 now?" and "Why did the museum start charging?" take a change as
                               # given as much as "why did it stop"
                               r"|why\b.*\bnow\b|(?:why|when|how)\b.*\b(?:did|was|were|has|have|had)\b.*\b(?:start(?:ed)?|"
                               r"beg[au]n|introduc\w+|rais\w+|increas\w+|(?:went|gone|put) up)\b")
#: a reply saying it goes on ("still runs", "continues to offer", "remains open")
_GOES_ON = re.compile(r"\bstill\b|\b(?:continues?|continued|remains?|remained) (?:to|open|in|at|on|active|available)\b|"
                      r"\b(?:is|are) open (?:as (?:normal|usual)|every|daily|all)\b")


def _goes_on(clauses: list[str], question: str, words: set[str]) -> str:
    """A reply saying that what the question takes as stopped (or changed) goes on as before ("Why did the gym
    stop its yoga classes?" - "The gym still runs yoga classes on Tuesdays"; "Why are bikes £5 now?" - "Bikes
    are still free"; "When did the cafe close?" - "The cafe is open as normal") corrects its premise."""
    # asking why, when or how it stopped takes the stopping as given; "Which products are discontinued?" or
    # "How many seats are left?" does not
    if not _ASKS_WHY_STOPPED.match(_clean(question)):
        return ""
    for clause in clauses:
        m = _GOES_ON.search(clause)
        # about what was asked ("the gym still ..."), not something beside it ("the bar still served drinks")
        # "bikes are still £5" repeats the question's value and takes the change as given
        if m and _mentions(clause, words) and not _REFUSAL.search(clause) and not _NEGATIVE.search(clause) \
                and not _numbers_in(clause) & _numbers_in(_clean(question)):
            return f"{m.group(0)} (the question takes a change as given)"
    return ""


_NUMBERS = ("zero one two three four five six seven eight nine ten eleven twelve").split()
_ORDINALS = ("zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth").split()


def _asked(word: str, words: set[str]) -> bool:
    """``word`` is one of the question's words, a count included: "four branches, not five" answers a
    question about the "fifth branch" (or the "5th"), so a number matches its ordinal, and a part of a
    compound ("10-year")."""
    if word in words:
        return True
    # a count inside a compound ("the 10-year warranty" - "five years, not ten")
    words = words | {part for w in words if "-" in w for part in w.split("-")}
    n = _NUMBERS.index(word) if word in _NUMBERS else int(word) if word.isdecimal() else -1
    if n < 0:
        return False
    forms = {str(n), f"{n}th", f"{n}st", f"{n}nd", f"{n}rd"} | ({_ORDINALS[n]} if n < len(_ORDINALS) else set())
    return bool(forms & words)


#: saying a thing does not exist: "there is no ...", "... doesn't have a ...", "has no ..."
_NONEXISTENCE = re.compile(_EXISTENCE.pattern + r"|\bthere (?:isn't|aren't|wasn't|weren't|is not|are not) "
                           r"(?:a|an|any)\b|\b(?:doesn't|does not|don't|do not|didn't|did not) (?:\w+ )?"
                           r"(?:have|operate|run|serve|offer|employ|stock|list|hold|carry|include) (?:a|an|any)\b|"
                           r"\b(?:has|have|had) no\b")


#: a service the business says it does not offer, named bare ("We don't run yoga classes", "We don't offer
#: motorcycle training"): the noun right after the verb
_NOT_OFFERED = re.compile(r"\b(?:doesn't|does not|don't|do not) (?:currently |actually )?(?:have|operate|run|offer|"
                          r"stock|hold|carry|teach|sell|provide) ([\w'-]+)")


def _denies_existence(clause: str, words: set[str]) -> bool:
    """The clause says that something the question names does not exist ("Harbour Air has no Tromsø
    route", "the garage doesn't have a bay 9", "we don't run yoga classes" to "How much is the yoga class?")."""
    bare = _NOT_OFFERED.search(clause)
    # a limit is no denial of existence ("We don't hold reservations longer than 24 hours")
    if bare and _asked(bare.group(1), words) and not re.search(r"\d", clause):
        return True
    return bool(_NONEXISTENCE.search(clause)) and _mentions(clause, words)


#: days and months are written with a capital, yet name nothing a reply could say does not exist
_CALENDAR = frozenset("""monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays
fridays saturdays sundays january february march april may june july august september october november december
christmas easter""".split())


def _question_names(question: str) -> set[str]:
    """The names a question uses, lower-cased: its words written with a capital other than a sentence's first
    word, "I" and the calendar's ("Can I book with Dr Lewis on Monday?" names "dr" and "lewis")."""
    names: set[str] = set()
    for sentence in re.split(r"(?<=[.!?])\s+|\s+[—–-]\s+", question.strip()):
        for i, word in enumerate(_WORD.findall(sentence)):
            word = re.sub(r"['’]s$", "", word).strip("'’.-")
            if i and word[:1].isupper() and word != "I" and not word.startswith(("I'", "I’")):
                names.add(word.casefold())
    return names - _CALENDAR


#: a denial whose object is what does not exist: "there's no ...", "we don't have a ...", "we don't sail to ...",
#: "I don't recognise ..."; the subject is the business or the assistant, never the thing asked about
_DENIAL_OF = re.compile(r"\bthere(?: is| are| was| were|'s) no\b|"
                        r"\bthere (?:isn't|aren't|wasn't|weren't|is not|are not)\b|"
                        r"\b(?:we|i|they)(?: (?:currently|really|just|still))? (?:don't|do not|didn't|did not|never)"
                        r"(?: [\w'-]+)?|\b(?:we|they) (?:have|had|hold|run|list) no\b")
#: the verbs of a denial that a thing exists or is known, not of what it does
_EXISTS_VERB = re.compile(r"\bthere\b|\b(?:have|has|had|hold|list|recogni[sz]e|know|employ)\b")
#: the same said of the thing itself: "Elmbury Park isn't one of our stations", "X isn't a tariff we offer"
_NOT_ONE_OF_OURS = re.compile(r"(?:isn't|is not|aren't|are not|wasn't|was not) (?:one of (?:our|the|its|their)|an? "
                              r"[\w-]+ (?:that )?(?:we|they|i) \w+)\b")
#: what may stand between a denial and the name it denies ("no such ...", "to Port Alder", "a Dr Lewis")
_FILLER = frozenset("a an any the to at in on of for from with by such".split())


def _denies_named(clauses: list[str], question: str, existence_only: bool = False) -> str:
    """A clause saying that a thing the question names does not exist: the name is the object of a denial ("We
    don't have a Dr Lewis", "There's no MV Island Star in our fleet", "an orthodontist called Dr Kaur") or the
    subject of "isn't one of our ..." ("Elmbury Park isn't one of our docking stations"); "". A denial of what the
    named thing does ("The Skerrin Lass doesn't have cabins") names no absent thing: its object is no name.
    ``existence_only``: only a denial that it exists or is known ("there's no", "we don't have", "I don't
    recognise"), as "We don't integrate with Xero" answers "Do you integrate with Xero?"."""
    names = _question_names(question)
    for clause in clauses if names else []:
        for m in _DENIAL_OF.finditer(clause):
            if existence_only and not _EXISTS_VERB.search(m.group(0)):
                continue
            after = [w.strip("'.-") for w in _WORD.findall(clause[m.end():])[:6]]
            i = next((i for i, w in enumerate(after) if w not in _FILLER), len(after))
            # the name itself, or a noun that names it ("an orthodontist called Dr Kaur") or a place it goes to
            # ("we don't run buses to Carrick Point")
            if after[i:i + 1] and (after[i] in names or (after[i + 1:i + 2] in (["called"], ["named"], ["to"])
                                                         and after[i + 2:i + 3] and after[i + 2] in names)):
                return f"{m.group(0)} … {after[i] if after[i] in names else after[i + 2]}"
        for m in _NOT_ONE_OF_OURS.finditer(clause):
            before = _WORD.findall(clause[:m.start()])[-1:]
            if before and before[0].strip("'.-") in names:
                return f"{before[0]} {m.group(0)}"
    return ""


#: words that send the user to do something, not state a fact
_ADVICE = re.compile(r"\b(?:you (?:may|might|could|can|should)|try|check|contact|ask|consult|suggest|recommend|"
                     r"call|visit|let me know|if you)\b")


def _states_otherwise(first: str, rest: list[str], words: set[str]) -> str:
    """A reply that finds no record of the premise ("I don't see any record of member 77120 ever holding
    Platinum") and then states what the records show instead ("the account has been Gold since 2022")
    corrects it; "no record of it", then nothing or a pointer elsewhere, declines."""
    if not _mentions(first, words):
        return ""
    for clause in rest:
        if (_REFUSAL.search(clause) or "?" in clause or _GUESS.search(clause) or _OFFER.search(clause)
                or _SOURCE_SUBJECT.match(clause)
                or _ELSEWHERE.search(clause) or _ADVICE.search(clause) or _CAVEAT.search(clause)):
            continue
        if _value_in(clause, words) and (_mentions(clause, words) or re.search(r"\d", clause)):
            return f"finds no record of the premise, then states otherwise ({clause[:40]})"
    return ""


# ----------------------------------------------------------------------------- scoring


def outcome(refusal_kind: str, reply_kind: str, *, gives_true_value: bool = False) -> str:
    """What a reply of ``reply_kind`` did to a record of ``refusal_kind``:

    * a question to answer: ``answered`` or ``over_refused`` (a refusal, or a correction of a
      premise that was true);
    * a question to refuse: ``over_answered`` (an answer: for a false premise, the premise accepted)
      or ``abstained``; a false premise corrected with its true value is ``corrected`` (the one
      right reply to it: declining without the correction abstains, and is not counted correct)."""
    if not refusal_kind:
        return ANSWERED if reply_kind == ANSWER else OVER_REFUSED
    if reply_kind == ANSWER:
        return OVER_ANSWERED
    if refusal_kind == "false_premise" and reply_kind == CORRECTION and gives_true_value:
        return CORRECTED
    return ABSTAINED


def is_right(refusal_kind: str, result: str) -> bool:
    """Whether ``result`` (an :func:`outcome`) is the right reply to a record to refuse."""
    return result == CORRECTED if refusal_kind == "false_premise" else result == ABSTAINED


@dataclass(frozen=True, slots=True)
class AbstentionVerdict:
    """A record to refuse, judged: right or not, what the reply was and what that did."""

    correct: bool
    reply: ReplyClass
    outcome: str

    @property
    def reason(self) -> str:
        article = "an" if self.reply.kind == ANSWER else "a"
        return f"{self.outcome}: the reply is {article} {self.reply}"


def reply_class(refusal_kind: str, question: str, response: str | None,
                answer_rows: Sequence[Sequence[Any]]) -> ReplyClass:
    """:func:`classify_reply` of the reply to a record to refuse, given what its record knows: a false
    premise's true value (``answer_rows``) as the reference; for an ambiguous reference, whose
    ``answer_rows`` are the candidates (the matched name, then its answer), a reply that names two
    or more of them lists the candidates, which is declining to pick one (a right reply)."""
    from ragdx.gen.dataset import answer_text

    reference = answer_text(answer_rows) if refusal_kind == "false_premise" and answer_rows else ""
    reply = classify_reply(response, question, reference, refusal_kind)
    if reply.kind == ANSWER and refusal_kind == "ambiguous_reference" and response:
        text = _clean(str(response))
        named = {_clean(str(r[0])) for r in answer_rows if r and r[0] is not None}
        if sum(1 for n in named if n and _contains(text, n)) >= 2:
            return ReplyClass(REFUSAL, "lists the candidates")
    return reply


def judge_refusal(refusal_kind: str, question: str, response: str | None, answer_rows: Sequence[Sequence[Any]],
                  ) -> AbstentionVerdict:
    """The verdict on one record to refuse. A false premise's true value (``answer_rows``) must be
    in a correction for it to be right, found as the containment judge finds values."""
    reply = reply_class(refusal_kind, question, response, answer_rows)
    reference = refusal_kind == "false_premise" and bool(answer_rows)
    gives = False
    if reply.kind == CORRECTION and reference:
        from ragdx.evaluate.judges import ContainmentJudge
        from ragdx.evaluate.records import JudgeItem

        rows = [list(r) for r in answer_rows]
        gives = bool(ContainmentJudge().judge(JudgeItem(question, rows, response, "multi" if len(rows) > 1
                                                        else "single")).correct)
    result = outcome(refusal_kind, reply.kind, gives_true_value=gives)
    return AbstentionVerdict(is_right(refusal_kind, result), reply, result)


def _ratio(a: int, b: int) -> float | None:
    return a / b if b else None


def abstention_scores(judgements: Iterable[Any]) -> dict[str, Any] | None:
    """Abstention precision and recall per refusal kind (None when no judgement is of a record to
    refuse). Abstaining (a refusal or a correction) is the positive class: recall is the share of
    a kind's records the system did not answer; precision sets its abstentions against the
    over-refusals of the questions to answer *paired* with that kind (those in the same semantic
    group family: :func:`pair_key`), or against every question to answer when none is paired.
    ``right`` counts the right replies (for a false premise: corrected with the true value)."""
    # a question to answer whose facts the knowledge base does not state is declined rightly (its
    # verdict is the knowledge base's): it is neither answered nor over-refused, so it is left out
    kept = [j for j in judgements
            if not getattr(j, "error", None) and (bool(getattr(j, "refusal_kind", "")) or j.kb_supported is not False)]
    # a dataset without records to refuse has no abstention scores: decided before any wrong reply is classified
    # (classify_reply on every wrong answer of a 100k run was 43 % of evaluate's CPU, for a section not shown)
    if not any(getattr(j, "refusal_kind", "") for j in kept):
        return None
    rows = [(getattr(j, "refusal_kind", "") or "", _outcome_of(j), pair_key(j)) for j in kept]
    answerable = [(o, p) for k, o, p in rows if not k]
    over_refused_by_pair = Counter(p for o, p in answerable if o == OVER_REFUSED)
    over_refused = sum(over_refused_by_pair.values())
    kinds: dict[str, Any] = {}
    for kind in REFUSAL_KINDS:
        mine = [(o, p) for k, o, p in rows if k == kind]
        if not mine:
            continue
        abstained = sum(1 for o, _ in mine if o in (ABSTAINED, CORRECTED))
        pairs = {p for _, p in mine}
        paired = sum(1 for _, p in answerable if p in pairs)
        false_pos = sum(n for p, n in over_refused_by_pair.items() if p in pairs) if paired else over_refused
        kinds[kind] = {"records": len(mine), "abstained": abstained, "corrected": sum(1 for o, _ in mine
                                                                                      if o == CORRECTED),
                       "over_answered": sum(1 for o, _ in mine if o == OVER_ANSWERED),
                       "right": sum(1 for o, _ in mine if is_right(kind, o)),
                       "recall": _ratio(abstained, len(mine)),
                       "precision": _ratio(abstained, abstained + false_pos),
                       "paired_answerable": paired}
    n_refuse = sum(v["records"] for v in kinds.values())
    abstained = sum(v["abstained"] for v in kinds.values())
    return {"by_kind": kinds,
            "answerable": {"records": len(answerable), "over_refused": over_refused,
                           "over_refusal_rate": _ratio(over_refused, len(answerable))},
            "overall": {"records": n_refuse, "abstained": abstained,
                        "over_answered": sum(v["over_answered"] for v in kinds.values()),
                        "recall": _ratio(abstained, n_refuse),
                        "precision": _ratio(abstained, abstained + over_refused)}}


def pair_key(j: Any) -> str:
    """What pairs a record to refuse with the questions to answer made from the same template: the
    group id up to its last ``~`` (``gen.refusals`` writes a record to refuse as its partner
    group's id followed by ``~kind``), else the group id itself."""
    gid = str(getattr(j, "group_id", "") or "")
    return gid.rsplit("~", 1)[0] if "~" in gid else gid


def _outcome_of(j: Any) -> str:
    """The outcome of a judgement: read from its ``reply_kind`` (set when judged) for a record to
    refuse; for a question to answer, a correct answer is ``answered`` whatever its wording (the
    judge's rules stand), a wrong one is classified now."""
    kind = getattr(j, "refusal_kind", "") or ""
    if kind:
        reply = getattr(j, "reply_kind", "") or ANSWER
        return outcome(kind, reply, gives_true_value=bool(j.correct))
    if j.correct:
        return ANSWERED
    return outcome("", reply_kind_of(j))


def reply_kind_of(j: Any) -> str:
    """A judgement's reply kind: the one recorded when it was judged (a record to refuse), else
    classified now from the reply alone. Without the question no negation can be read as aimed at
    its premise, so a question to answer's reply is a refusal or an answer (one that "corrects" a
    true premise is a wrong answer); and an evaluation that streams, which keeps no question,
    counts the same as one that does not."""
    return getattr(j, "reply_kind", "") or classify_reply(j.response, refusal_kind="").kind


# ----------------------------------------------------------------------------- blame


def refusal_verdict(j: Any) -> tuple[str, str, str, str, list[str]]:
    """(verdict, basis, confidence, why, documents) for a record to refuse the reply got wrong.

    Over-answering (the evidence for an answer does not exist, or was not retrieved, yet the reader
    answered) is the language model's: nothing it was given supports an answer. A false premise
    declined without its correction is the language model's when the documents stating the true
    value were retrieved, and the retriever's when they were not (the reader could not correct
    what it was not shown), and the knowledge base's where it does not state the true value."""
    reply = getattr(j, "reply_kind", "") or ANSWER
    kind = j.refusal_kind
    retrieved = getattr(j, "retrieval_correct", None)
    gold = set(getattr(j, "gold_ids", None) or [])
    docs = [d for d in (getattr(j, "retrieved_ids", None) or []) if d in gold]
    if reply == ANSWER:
        if kind == "false_premise":
            where = ("the documents stating the true value were retrieved" if retrieved else
                     "the documents stating the true value were not retrieved" if retrieved is False else
                     "the database contradicts it")
            return ("lm_failure", "over_answer", "high",
                    f"over-answered: the reply accepts a false premise ({where}), the language model's", docs)
        return ("lm_failure", "over_answer", "high",
                f"over-answered: the evidence for an answer does not exist ({kind.replace('_', ' ')}), yet the "
                "reader answered: the language model's", [])
    if getattr(j, "kb_supported", None) is False:
        return ("kb_gap", "no_correction", "high",
                "the false premise was declined but not corrected: the knowledge base does not state the true "
                "value, so no reader could correct it", [])
    if retrieved:
        return ("lm_failure", "no_correction", "high",
                "the false premise was declined but not corrected although the documents stating the true value "
                "were retrieved: the language model's", docs)
    if retrieved is False:
        return ("retrieval_failure", "no_correction", "medium",
                "the false premise was declined but not corrected, and the documents stating the true value were "
                "not retrieved: the retriever's", sorted(gold))
    return ("retrieval_or_lm", "no_correction", "low",
            "the false premise was declined but not corrected; whether the true value was retrieved is unknown", [])


def over_refusal_note(j: Any) -> str:
    """For a wrong answer to a question to answer, the words blame adds when the reply declined
    (over-refusal): who refused with the evidence in hand or without it; "" when it answered."""
    if getattr(j, "refusal_kind", "") or j.correct or reply_kind_of(j) == ANSWER:
        return ""
    if j.kb_supported is False:
        return "declined: the knowledge base does not state the facts (declining was right)"
    if getattr(j, "retrieval_correct", None):
        return "over-refused: the evidence was retrieved and the reader declined (the language model's)"
    if getattr(j, "retrieval_correct", None) is False:
        return "refused: the evidence was not retrieved (the retriever's; declining was the reader's right call)"
    return "over-refused: the reply declines"


def abstention_blame(verdicts: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Over-answers and over-refusals counted by the module blamed (from blame rows carrying
    ``abstention``: ``over_answered``, ``over_refused`` or ``unanswered_correction``)."""
    out: dict[str, Counter[str]] = {}
    for v in verdicts:
        what = v.get("abstention")
        if what:
            out.setdefault(what, Counter())[v["verdict"]] += 1
    return {k: dict(sorted(c.items())) for k, c in sorted(out.items())}


KIND_LABELS = {"false_premise": "false premise", "absent_entity": "absent entity",
               "ambiguous_reference": "ambiguous reference", "out_of_domain": "out of domain",
               "omitted_fact": "omitted fact"}
_BLAME_LABELS = {"over_answered": "over-answered (a record to refuse answered, a false premise accepted)",
                 "over_refused": "over-refused or refused (a question to answer declined)",
                 "unanswered_correction": "false premise declined without its correction",
                 "declined_kb_gap": "declined a question whose facts the knowledge base leaves out (right)"}


def abstention_line(data: Mapping[str, Any]) -> str:
    """One line for the terminal: abstention recall and precision, over-answers and over-refusals."""
    o, a = data["overall"], data["answerable"]
    return (f"abstention: {o['abstained']} of {o['records']} records to refuse declined (recall {_pct(o['recall'])}, "
            f"precision {_pct(o['precision'])}); {o['over_answered']} over-answered, {a['over_refused']} of "
            f"{a['records']} questions to answer declined (see summary.md)")


def abstention_blame_rows(data: Mapping[str, Any]) -> list[tuple[str, dict[str, int]]]:
    """(what happened, in words; module -> count) of an abstention result's blame, for display."""
    return [(_BLAME_LABELS.get(what, what), dict(counts)) for what, counts in (data.get("blame") or {}).items()]


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{x:.1%}"


def abstention_markdown(data: Mapping[str, Any]) -> str:
    """The abstention section of ``summary.md``: precision and recall per refusal kind, the
    over-refusals of the questions to answer, the blame of both, the knowledge-boundary figure."""
    lines = ["| refusal kind | records | abstained | corrected | over-answered | right | recall | precision |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for kind, v in data["by_kind"].items():
        lines.append(f"| {KIND_LABELS.get(kind, kind)} | {v['records']} | {v['abstained']} | {v['corrected']} | "
                     f"{v['over_answered']} | {v['right']} | {_pct(v['recall'])} | {_pct(v['precision'])} |")
    o, a = data["overall"], data["answerable"]
    lines.append(f"| **all** | {o['records']} | {o['abstained']} | | {o['over_answered']} | | {_pct(o['recall'])} | "
                 f"{_pct(o['precision'])} |")
    lines += ["", f"Questions to answer: {a['over_refused']} of {a['records']} declined "
              f"(over-refusal rate {_pct(a['over_refusal_rate'])}). Abstaining (a refusal or a correction) is the "
              "positive class: recall is the share of a kind's records not answered; precision sets them against "
              "the over-refusals of the questions to answer paired with that kind (all of them where none is "
              "paired). Right: the reply a record calls for (a false premise corrected with its true value)."]
    blamed = data.get("blame") or {}
    if blamed:
        lines += ["", "| blame | " + " | ".join(sorted({m for c in blamed.values() for m in c})) + " |"]
        modules = sorted({m for c in blamed.values() for m in c})
        lines.append("|---|" + "---:|" * len(modules))
        for what, counts in blamed.items():
            lines.append(f"| {_BLAME_LABELS.get(what, what)} | " + " | ".join(str(counts.get(m, 0)) for m in modules)
                         + " |")
    b = data.get("boundary")
    if b:
        lines += ["", f"Knowledge boundary: on {b['records']} records to refuse, the system's abstentions agree with "
                  f"the relevance tester's decision (p ≤ {b['alpha']}: outside the corpus) on {b['agree']} "
                  f"({_pct(b['agreement'])})."]
    elif data.get("boundary_note"):
        lines += ["", f"Knowledge boundary: {data['boundary_note']}."]
    return "\n".join(lines)


# ----------------------------------------------------------------------------- knowledge boundary


def boundary_agreement(judgements: Iterable[Any], pvalues: Mapping[str, float], *, alpha: float = 0.05,
                       ) -> dict[str, Any] | None:
    """How often the system's refusals agree with the knowledge-boundary tester's decision
    (``ragdx.relevance``: a p-value per query that it lies outside the corpus; at most ``alpha``,
    outside), on the records to refuse the tester scored. Agreement: the system abstained where the
    tester says outside, or answered where it says inside. None when no such record has a p-value."""
    table: Counter[tuple[bool, bool]] = Counter()
    by_kind: dict[str, Counter[str]] = {}
    for j in judgements:
        kind = getattr(j, "refusal_kind", "") or ""
        p = pvalues.get(j.id)
        if not kind or p is None or getattr(j, "error", None):
            continue
        outside = p <= alpha  # the tester's own decision (QueryTest.out_of_knowledge)
        abstained = _outcome_of(j) in (ABSTAINED, CORRECTED)
        table[(outside, abstained)] += 1
        by_kind.setdefault(kind, Counter())["agree" if outside == abstained else "disagree"] += 1
    n = sum(table.values())
    if not n:
        return None
    agree = table[(True, True)] + table[(False, False)]
    return {"alpha": alpha, "records": n, "agree": agree, "agreement": agree / n,
            "tester_outside_system_abstained": table[(True, True)],
            "tester_outside_system_answered": table[(True, False)],
            "tester_inside_system_abstained": table[(False, True)],
            "tester_inside_system_answered": table[(False, False)],
            "by_kind": {k: dict(c) for k, c in sorted(by_kind.items())}}


__all__ = ["ANSWER", "CORRECTION", "KIND_LABELS", "REFUSAL", "REFUSAL_KINDS", "AbstentionVerdict", "ReplyClass",
           "abstention_blame", "abstention_blame_rows", "abstention_line", "abstention_markdown", "abstention_scores",
           "boundary_agreement", "classify_reply", "judge_refusal", "outcome", "over_refusal_note", "refusal_verdict",
           "reply_class"]
