"""Hand-written sixth blind sample of RAG replies (issue 26), labelled by helper T.

Every question, reply and label below was written by hand as data. Running this script writes
replies.jsonl next to it, shuffled with a fixed seed so that an id reveals neither kind nor label.

Domains (all invented): Harrowgate Borough Council, Vantline Rail, Pellicane Software (Ledgerline),
the Aldermoor Maritime Museum (Port Ellery) and the Brightwell Foods staff handbook portal.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

ENTRIES: list[tuple[str, str, str, str, str, str]] = []


def e(kind: str, question: str, reference: str, reply: str, label: str, note: str) -> None:
    ENTRIES.append((kind, question, reference, reply, label, note))


A = ""  # answerable question
FP = "false_premise"
AE = "absent_entity"
AR = "ambiguous_reference"
OD = "out_of_domain"
OF = "omitted_fact"

# ---------------------------------------------------------------- answerable (60)

# Harrowgate Borough Council
e(
    A,
    "How much is the garden waste subscription?",
    "£52 a year",
    "The garden waste subscription costs £52 per year [1].",
    "answer",
    "states the price",
)
e(
    A,
    "When are garden waste bins collected?",
    "Fortnightly, April to November",
    "Garden waste is picked up every two weeks between April and November. Outside those months there's no "
    "collection, so hold on to your clippings or take them to Moss Road.",
    "answer",
    "states schedule",
)
e(
    A,
    "What does a resident parking permit cost for a second car?",
    "£76 a year",
    "I'm sorry, I couldn't find pricing for second-vehicle permits in the documents I have access to. "
    "Please contact the Parking Services team.",
    "refusal",
    "over-refusal: says not found",
)
e(
    A,
    "What is the Band D council tax for 2026/27?",
    "£2,104.18",
    "For 2026/27, Band D is **£2,104.18** (source: Council Tax Charges 2026-27).",
    "answer",
    "states figure",
)
e(
    A,
    "Is there a discount if I live alone?",
    "Yes, a 25% single person discount",
    "Yes - if you're the only adult in the property you can get a 25% single person discount on your council "
    "tax bill. You can apply online.",
    "answer",
    "states discount",
)
e(
    A,
    "What time does the Central Library open on Saturdays?",
    "9:00 (open 9-18 Mon-Sat)",
    "Central Library: Saturday 09:00-18:00 [doc 2]",
    "answer",
    "terse hours",
)
e(
    A,
    "How long does the council take to decide a minor planning application?",
    "8 weeks",
    "Based on the planning guidance, I think minor applications are usually decided within about eight weeks, "
    "though it may take longer if more information is requested.",
    "answer",
    "hedged but commits",
)
e(
    A,
    "How much does a bulky waste collection cost?",
    "£28 for up to 3 items",
    "That's not something I'm able to help with. For questions about bulky waste, please call 01632 960 400.",
    "refusal",
    "over-refusal: declines",
)
e(
    A,
    "When is the Moss Road recycling centre closed?",
    "25-26 December and 1 January",
    "According to the site information, Moss Road Household Recycling Centre is open 8am-4pm every day except "
    "25 and 26 December and 1 January.",
    "answer",
    "lists closures",
)
e(
    A,
    "Is Moss Road open on bank holidays?",
    "Yes, open daily except 25-26 December and 1 January",
    "The documents list Moss Road's usual hours (8:00-16:00) but I couldn't see anything specific to bank "
    "holidays, so please check with the council before you travel.",
    "refusal",
    "over-refusal: answer is derivable from closure list",
)

# Vantline Rail
e(
    A,
    "How much Delay Repay do I get for a 40 minute delay?",
    "50% of the single fare",
    "For delays of 30-59 minutes, Vantline refunds 50% of the single fare [2].",
    "answer",
    "states band",
)
e(
    A,
    "How long do I have to submit a Delay Repay claim?",
    "28 days",
    "You have 28 days from the date of travel to claim.",
    "answer",
    "terse",
)
e(
    A,
    "Can I take my bike on the Intercity?",
    "Yes, free, reservation required",
    "Hi there! Yes, bikes travel free on Vantline Intercity services, but you'll need to reserve a bike space "
    "before you travel - spaces are limited. You can book one when you buy your ticket or at any staffed "
    "station. Have a great trip!",
    "answer",
    "chatty answer",
)
e(
    A,
    "Can Advance tickets be refunded?",
    "No, non-refundable; changeable for £10 before departure",
    "Advance tickets are non-refundable. You can, however, change the time of travel before departure for a "
    "£10 fee, plus any difference in fare.",
    "answer",
    "states rule",
)
e(
    A,
    "Is Wi-Fi free on Intercity trains?",
    "Yes",
    "I don't have information about onboard Wi-Fi. You may wish to check the Vantline website or ask a "
    "member of onboard staff.",
    "refusal",
    "over-refusal",
)
e(
    A,
    "How many dogs can I bring on a Vantline train?",
    "Up to 2 per passenger, free",
    "Each passenger may bring up to two dogs free of charge [Conditions of Travel, s.14].",
    "answer",
    "states limit",
)
e(
    A,
    "How far in advance do I need to book Passenger Assist?",
    "2 hours",
    "Thank you for your question. Passenger Assist can be booked up to 2 hours before your journey. We "
    "recommend booking as early as possible to ensure that staff are available.",
    "answer",
    "formal customer service",
)
e(
    A,
    "How long does Vantline keep lost property?",
    "3 months",
    "Items handed in are kept for three months at Harwick station's lost property office.",
    "answer",
    "states period",
)
e(
    A,
    "Is there first class on the Coastway line?",
    "No, first class is on Intercity services only",
    "First class is only available on Intercity services, so no - Coastway trains are standard class only.",
    "answer",
    "derives answer",
)
e(
    A,
    "What's deducted when I refund a season ticket?",
    "A £10 admin fee; unused weeks refunded",
    "Unfortunately, I can only answer questions about journey planning. For season ticket refunds please "
    "visit the ticket office.",
    "refusal",
    "over-refusal: scope statement",
)
e(
    A,
    "Do national railcards work on Vantline?",
    "Yes, 1/3 off",
    "Yes. Vantline doesn't sell its own railcard, but national railcards are accepted and give a third off "
    "eligible fares.",
    "answer",
    "states",
)
e(
    A,
    "How do I reserve a bike space on the Intercity?",
    "When buying the ticket or at any staffed station",
    "Bike spaces on Vantline Intercity trains can't be reserved - they're allocated first come, first served "
    "on the day.",
    "correction",
    "wrongly denies a true premise (that reservations exist)",
)

# Pellicane Software / Ledgerline
e(
    A,
    "What is the current version of Ledgerline?",
    "7.2",
    "The latest release is Ledgerline 7.2.",
    "answer",
    "states version",
)
e(
    A,
    "When does Ledgerline 6.x reach end of life?",
    "31 December 2025",
    "Ledgerline 6.x reached end of life on 31 December 2025 [3]. After that date it no longer receives "
    "security patches; we recommend upgrading to 7.2.",
    "answer",
    "states date",
)
e(
    A,
    "What's the API rate limit on the Business plan?",
    "600 requests per minute",
    "Business plan: 600 req/min. Starter is capped at 120 req/min.",
    "answer",
    "terse with extra",
)
e(
    A,
    "How much is the Starter plan per user?",
    "$19 per user per month",
    "Starter is $19/user/month, billed monthly or annually.",
    "answer",
    "states price",
)
e(
    A,
    "Which plans include SAML SSO?",
    "Enterprise only",
    "SAML single sign-on is part of the Enterprise plan only. If you're on Business and need SSO, you'll need "
    "to upgrade or talk to sales.",
    "answer",
    "states plan",
)
e(
    A,
    "Where can Ledgerline Cloud data be hosted?",
    "EU (Frankfurt) and US (Virginia)",
    "Ledgerline Cloud offers two data residency regions:\n\n- **EU** - Frankfurt\n- **US** - Virginia\n\n"
    "You choose the region when creating the workspace; it can't be changed later without a migration.",
    "answer",
    "markdown list",
)
e(
    A,
    "How often are Ledgerline Cloud backups taken?",
    "Every 6 hours, kept 30 days",
    "I'm not able to find backup frequency details in the provided context.",
    "refusal",
    "over-refusal",
)
e(
    A,
    "Which PostgreSQL versions does self-hosted Ledgerline support?",
    "PostgreSQL 14 to 17",
    "Self-hosted Ledgerline 7.x supports PostgreSQL 14, 15, 16 and 17. Older versions are not supported "
    "(source: install-guide.md).",
    "answer",
    "states range",
)
e(
    A,
    "What is the name of the Ledgerline command-line tool?",
    "llctl",
    "`llctl` - install it with the package for your OS, then run `llctl login`.",
    "answer",
    "names tool",
)
e(
    A,
    "How long are backups retained?",
    "30 days",
    'From the docs: "Snapshots are retained for 30 days and then deleted automatically." So you have a '
    "30-day window to restore.",
    "answer",
    "quotes source",
)
e(
    A,
    "How much is the Enterprise plan?",
    "Custom pricing (contact sales)",
    "Enterprise pricing isn't published - it's quoted per customer, so you'd need to contact Pellicane sales "
    "for a figure.",
    "answer",
    "the true answer is that price is custom; reply states it",
)
e(
    A,
    "Does the Starter plan have API access?",
    "Yes, 120 requests per minute",
    "Sorry, I can only help with questions about installing Ledgerline.",
    "refusal",
    "over-refusal",
)

# Aldermoor Maritime Museum
e(
    A,
    "What are the museum's opening hours?",
    "Tue-Sun 10:00-17:00, closed Mondays except bank holidays",
    "The Aldermoor is open Tuesday to Sunday, 10am-5pm. It's closed on Mondays, except bank holiday Mondays [1].",
    "answer",
    "states hours",
)
e(
    A,
    "How much is an adult ticket?",
    "£14",
    "Adult admission: £14. Concessions £10, under-16s free.",
    "answer",
    "states price",
)
e(
    A,
    "Do children need a ticket?",
    "Under-16s are free",
    "Children under 16 get in free - they don't need to pay, though we ask groups to book ahead.",
    "answer",
    "states rule",
)
e(
    A,
    "How much is individual membership?",
    "£48 a year",
    "Hmm, I'm not certain, but the membership page seems to say £48 per year for an individual member, which "
    "includes free entry all year.",
    "answer",
    "hedged but commits",
)
e(
    A,
    "When does The Drowned Coast exhibition end?",
    "8 March 2027",
    "The Drowned Coast runs until 8 March 2027.",
    "answer",
    "states date",
)
e(
    A,
    "Can I take photos inside?",
    "Yes, without flash",
    "Photography is welcome throughout the galleries, as long as you switch off your flash.",
    "answer",
    "states rule",
)
e(
    A,
    "Where is the café?",
    "Level 2",
    "I don't have details about facilities such as the café in my knowledge base. Our front desk team will "
    "be happy to help.",
    "refusal",
    "over-refusal",
)
e(
    A,
    "Is the whole museum step-free?",
    "Lifts to all floors except the lighthouse tower",
    "Almost - there are lifts to every floor, but the lighthouse tower can only be reached by stairs.",
    "answer",
    "states partial access",
)
e(
    A,
    "What is the HMS Corrigan figurehead?",
    "A carved ship's figurehead on display",
    "According to the collection guide [doc 4], the HMS Corrigan figurehead is a carved figure from the bow of "
    "the ship, now displayed in the main hall.",
    "answer",
    "describes item",
)
e(
    A,
    "Are members charged for the temporary exhibitions?",
    "No, members get free entry",
    "Members get free entry, which the membership page says covers temporary exhibitions too.",
    "answer",
    "states benefit",
)
e(
    A,
    "Is the museum open on Easter Monday?",
    "Yes, open on bank holiday Mondays",
    "The museum is closed on Mondays, so it won't be open on Easter Monday.",
    "answer",
    "wrong answer (misses bank-holiday exception), still commits",
)

# Brightwell Foods staff handbook
e(
    A,
    "How many days of annual leave do I get?",
    "25 days plus bank holidays; 28 after 5 years",
    "You get 25 days' annual leave plus bank holidays. After five years' service this goes up to 28 days "
    "[Handbook 4.1].",
    "answer",
    "states entitlement",
)
e(
    A,
    "How much leave can I carry over?",
    "Up to 5 days, to be used by end of March",
    "Up to 5 days can be carried into the next leave year, but they must be used by the end of March.",
    "answer",
    "states rule",
)
e(
    A,
    "How long is enhanced maternity pay?",
    "18 weeks at full pay",
    "Brightwell pays 18 weeks at full pay under the enhanced maternity scheme, after which statutory pay applies.",
    "answer",
    "states",
)
e(
    A,
    "How much paternity leave is there?",
    "4 weeks at full pay",
    "Paternity leave: 4 weeks, full pay.",
    "answer",
    "terse",
)
e(
    A,
    "How long can I self-certify sickness?",
    "Up to 7 days",
    "You can self-certify for up to seven calendar days. From day eight you'll need a fit note from your GP.",
    "answer",
    "states limit",
)
e(
    A,
    "How many days a week can office staff work from home?",
    "Up to 2 days a week",
    "Unfortunately the hybrid working policy isn't among the documents I can search. I'd suggest asking your "
    "line manager or HR Business Partner.",
    "refusal",
    "over-refusal",
)
e(
    A,
    "What is the mileage rate?",
    "45p per mile",
    "The mileage allowance is 45p per mile (Expenses Policy, section 3).",
    "answer",
    "states rate",
)
e(
    A,
    "How long do I have to submit expenses?",
    "60 days, via Expensa",
    "Claims need to go in through Expensa within 60 days of the expense being incurred. Late claims may not be paid.",
    "answer",
    "states deadline",
)
e(A, "How long is probation?", "6 months", "Probation at Brightwell is six months.", "answer", "states")
e(
    A,
    "What notice do managers have to give after two years?",
    "3 months",
    "I can't give advice on individual employment contracts. Please speak to HR.",
    "refusal",
    "over-refusal: declines",
)
e(
    A,
    "Do I get extra leave after five years?",
    "Yes, rising to 28 days",
    "Yes, after 5 years your entitlement rises from 25 to 28 days.",
    "answer",
    "states",
)
e(
    A,
    "What's the notice period in the first two years?",
    "1 month",
    "One month's notice applies during your first two years of employment [HR-Policy-07].",
    "answer",
    "states",
)
e(
    A,
    "Which system do I use for expenses?",
    "Expensa",
    "Expenses are submitted through Expensa.",
    "answer",
    "names system",
)
e(
    A,
    "Is the Central Library open on Sundays?",
    "No, closed Sunday",
    "No - Central Library is closed on Sundays. It's open Monday to Saturday, 9am to 6pm.",
    "answer",
    "states closure",
)
e(
    A,
    "What is the decision target for major planning applications?",
    "13 weeks",
    "There isn't a separate target for major applications, I'm afraid - the council uses the same eight-week "
    "target for all planning applications.",
    "correction",
    "wrongly denies a true premise",
)

# ---------------------------------------------------------------- false premise (48)

# Harrowgate Borough Council
e(
    FP,
    "Why did the garden waste subscription go up to £75?",
    "It is £52 a year",
    "It hasn't - the garden waste subscription is £52 a year, not £75 [1].",
    "correction",
    "corrects price",
)
e(
    FP,
    "Since garden waste is collected weekly, which day is mine?",
    "Collected fortnightly",
    "Just to clarify, garden waste collections are fortnightly rather than weekly. Your collection day is "
    "shown on the bin calendar for your address.",
    "correction",
    "corrects frequency",
)
e(
    FP,
    "Why is the Central Library open on Sundays now but not the branches?",
    "Central Library is closed on Sundays",
    "Central Library opens on Sundays to serve the town centre, while the branch libraries have lower demand "
    "at weekends, so they remain closed.",
    "answer",
    "accepts false premise, invents reason",
)
e(
    FP,
    "What's the 50% single person discount and how do I apply?",
    "The single person discount is 25%",
    "The single person discount is actually 25%, not 50%. You can apply through the council tax pages on the website.",
    "correction",
    "corrects percentage",
)
e(
    FP,
    "How do I pay the £40 bulky waste fee?",
    "£28 for up to 3 items",
    "You can pay the £40 bulky waste fee online by card when you book, or by phone on 01632 960 400.",
    "answer",
    "accepts wrong fee",
)
e(
    FP,
    "The Moss Road tip is open until 8pm, right?",
    "8:00-16:00 daily",
    "No, Moss Road closes at 4pm. Opening hours are 8am-4pm every day.",
    "correction",
    "corrects hours",
)
e(
    FP,
    "Why did the council scrap the resident parking permit scheme?",
    "The scheme still runs (£38 first car)",
    "I can't find anything saying the scheme was scrapped. Our records show permits are still issued - £38 a "
    "year for the first car.",
    "correction",
    "says premise unsupported and gives true state",
)
e(
    FP,
    "Since major planning decisions take 26 weeks, when will mine be decided if I applied in May?",
    "The target for major applications is 13 weeks",
    "I'm sorry, I can't predict when a specific application will be decided. Please check the planning "
    "portal for updates on your case.",
    "refusal",
    "declines without addressing premise",
)
e(
    FP,
    "Why is Band D council tax over £3,000 this year?",
    "Band D is £2,104.18 in 2026/27",
    "Band D for 2026/27 is £2,104.18, so it isn't over £3,000. Your bill may be higher if you're in a higher "
    "band or have parish charges.",
    "correction",
    "corrects figure",
)
e(
    FP,
    "Do I need to show my passport at Moss Road since it's closed on weekends?",
    "Moss Road is open every day",
    "Moss Road Household Recycling Centre is open 7 days a week, 8:00-16:00 - including weekends. Nothing in "
    "the documents mentions passports.",
    "correction",
    "corrects closure premise",
)

# Vantline Rail
e(
    FP,
    "How do I claim Delay Repay after the 14-day deadline?",
    "The deadline is 28 days",
    "Good news - the deadline is actually 28 days, not 14, so you may still be in time. Claim online with "
    "your ticket details.",
    "correction",
    "corrects deadline",
)
e(
    FP,
    "Why are Advance tickets fully refundable but Anytime aren't?",
    "Advance tickets are non-refundable",
    "That's the other way round: Advance tickets are non-refundable (you can change them for a £10 fee), "
    "whereas Anytime tickets can be refunded.",
    "correction",
    "corrects reversal",
)
e(
    FP,
    "How much is the £15 bike reservation charge?",
    "Bikes travel free",
    "The bike reservation charge is £15 per journey and is payable when you reserve the space.",
    "answer",
    "accepts invented charge",
)
e(
    FP,
    "Why does Vantline charge for dogs?",
    "Up to 2 dogs travel free",
    "Dogs travel free on Vantline - up to two per passenger [Conditions of Travel, s.14].",
    "correction",
    "corrects with true rule, no explicit 'false' but contradicts",
)
e(
    FP,
    "What is the Vantline Railcard discount?",
    "Vantline has no railcard; national railcards give 1/3 off",
    "Vantline doesn't issue its own railcard. National railcards are accepted, though, and give a third off.",
    "correction",
    "corrects own-railcard premise",
)
e(
    FP,
    "How do I get first class on Coastway trains?",
    "Coastway is standard class only",
    "To travel first class on Coastway, buy a first class ticket or upgrade onboard with the conductor.",
    "answer",
    "accepts false premise",
)
e(
    FP,
    "Since Wi-Fi costs £4.99 on Intercity, is there a day pass?",
    "Wi-Fi is free on Intercity",
    "There's no charge - Wi-Fi on Vantline Intercity services is free.",
    "correction",
    "corrects cost",
)
e(
    FP,
    "Lost property is only kept for a week, so how quickly should I call?",
    "Kept for 3 months",
    "Lost property is held for three months, not a week, so there's time - but call Harwick station as soon "
    "as you can.",
    "correction",
    "corrects period",
)
e(
    FP,
    "Why does Passenger Assist need 48 hours' notice?",
    "2 hours' notice",
    "Passenger Assist requires 48 hours' notice so that staff can be rostered at each station along your route.",
    "answer",
    "accepts and invents reason",
)
e(
    FP,
    "What's the 75% refund for a 20 minute delay?",
    "15-29 minutes gives 25% of the single fare",
    "For a 20 minute delay you'd receive 25% of the single fare, not 75% [2].",
    "correction",
    "corrects band",
)
e(
    FP,
    "How much is the £25 admin fee on season ticket refunds?",
    "£10 admin fee",
    "The admin fee is £10.",
    "correction",
    "terse contradicting value",
)

# Pellicane / Ledgerline
e(
    FP,
    "Ledgerline 7.0 came out in 2024, so when did 7.2 follow?",
    "7.0 was released in March 2025",
    "Small correction: Ledgerline 7.0 was released in March 2025, not 2024 [release-notes]. The notes I have "
    "don't give a date for 7.2.",
    "correction",
    "corrects year",
)
e(
    FP,
    "Why is the Business plan limited to 60 API requests per minute?",
    "600 requests per minute",
    "The Business plan limit is 600 requests per minute, ten times what you mentioned. Starter is 120.",
    "correction",
    "corrects limit",
)
e(
    FP,
    "How do I enable SAML SSO on the Starter plan?",
    "SSO is Enterprise only",
    "1. Go to **Settings > Security**.\n2. Click **Enable SAML**.\n3. Upload your IdP metadata XML.\n\nSSO "
    "is then active for all Starter users.",
    "answer",
    "accepts and invents steps",
)
e(
    FP,
    "Does Ledgerline still support PostgreSQL 12, or just 11?",
    "Supports PostgreSQL 14-17",
    "Neither - self-hosted Ledgerline 7.x supports PostgreSQL 14 through 17.",
    "correction",
    "corrects both options",
)
e(
    FP,
    "Why were backups reduced to once a day?",
    "Every 6 hours",
    "Backups run every six hours - there hasn't been a change to daily.",
    "correction",
    "corrects frequency",
)
e(
    FP,
    "Ledgerline 6.x is supported until 2027, correct?",
    "6.x EOL was 31 December 2025",
    "Not quite. Ledgerline 6.x reached end of life on 31 Dec 2025.",
    "correction",
    "corrects date",
)
e(
    FP,
    "Which Asia-Pacific region is Ledgerline Cloud hosted in?",
    "Only EU (Frankfurt) and US (Virginia)",
    "Ledgerline Cloud's Asia-Pacific region is hosted in Singapore, alongside Frankfurt and Virginia.",
    "answer",
    "invents region accepting premise",
)
e(
    FP,
    "How do I renew my Starter plan at $29 per user?",
    "$19 per user per month",
    "Starter renews automatically each month at $19/user (not $29). You can manage billing under Settings > Plan.",
    "correction",
    "corrects price in passing",
)
e(
    FP,
    "Why are backups kept for only 7 days?",
    "Retained for 30 days",
    "I don't have information on why retention was set that way. Please raise a ticket with support for details.",
    "refusal",
    "declines why, does not address false 7 days",
)

# Aldermoor Maritime Museum
e(
    FP,
    "Since the museum is open on Mondays, is it busy then?",
    "Closed on Mondays except bank holidays",
    "Actually, the museum is closed on Mondays (apart from bank holiday Mondays).",
    "correction",
    "corrects opening day",
)
e(
    FP,
    "Why do under-16s pay £7?",
    "Under-16s are free",
    "Under-16s don't pay at all - entry is free for them [1].",
    "correction",
    "corrects price",
)
e(
    FP,
    "Why is individual membership £60 now?",
    "£48 a year",
    "Individual membership rose to £60 this year to reflect the expanded exhibition programme; it still "
    "includes unlimited free entry.",
    "answer",
    "accepts wrong price",
)
e(
    FP,
    "Why is photography banned in the galleries?",
    "Photography is allowed without flash",
    "Photography isn't banned! You're welcome to take photos - just no flash, please.",
    "correction",
    "corrects ban",
)
e(
    FP,
    "The Drowned Coast closed last month - where did the objects go?",
    "Runs until 8 March 2027",
    "Hmm, I think there may be a mix-up: according to the exhibitions page, The Drowned Coast is still open "
    "and runs until 8 March 2027.",
    "correction",
    "hedged correction",
)
e(
    FP,
    "Is the lift to the lighthouse tower working again?",
    "There is no lift to the lighthouse tower",
    "I don't have live information about lift outages. Please call the front desk before your visit.",
    "refusal",
    "declines, does not notice premise",
)
e(
    FP,
    "Why did the adult ticket go up to £18?",
    "£14",
    "Adult tickets went up to £18 to cover rising conservation costs and the new temporary exhibition programme.",
    "answer",
    "accepts and invents reason",
)
e(
    FP,
    "Is the café on the ground floor next to the shop?",
    "Café is on level 2",
    "The café is on level 2, so it isn't on the ground floor.",
    "correction",
    "corrects location",
)
e(
    FP,
    "Do members pay half price for The Drowned Coast?",
    "Members get free entry",
    "Members don't pay half price - they go in free, including temporary exhibitions.",
    "correction",
    "corrects benefit",
)

# Brightwell Foods
e(
    FP,
    "Since we get 30 days' leave, can I take 15 in a row?",
    "25 days (28 after 5 years)",
    "Your entitlement is 25 days (28 after five years), not 30. Requests for long blocks of leave need line "
    "manager approval.",
    "correction",
    "corrects entitlement",
)
e(
    FP,
    "How do I carry over my 10 days of leave?",
    "Maximum carry-over is 5 days",
    "To carry over your 10 days, submit a carry-over request in the HR portal before the end of the leave "
    "year. Carried days must be used by the end of March.",
    "answer",
    "accepts 10 days",
)
e(
    FP,
    "Why is paternity leave only two weeks at Brightwell?",
    "4 weeks at full pay",
    "It's actually four weeks, at full pay (Handbook 5.3).",
    "correction",
    "corrects length",
)
e(
    FP,
    "Can I self-certify for 14 days like the handbook says?",
    "Self-certification up to 7 days",
    "The handbook says seven days, not 14. After seven days you need a fit note.",
    "correction",
    "corrects limit",
)
e(
    FP,
    "Why is mileage only 25p a mile?",
    "45p per mile",
    "Mileage is reimbursed at 25p per mile because the company follows a reduced rate for pool-car users.",
    "answer",
    "accepts wrong rate",
)
e(
    FP,
    "My probation is 12 months - can it be shortened?",
    "Probation is 6 months",
    "Standard probation at Brightwell is six months, so a 12-month probation would be unusual. If your "
    "contract says 12, check with HR.",
    "correction",
    "corrects with caveat",
)
e(
    FP,
    "Where's the form for claiming expenses on paper?",
    "Expenses go through Expensa",
    "There isn't a paper form - expenses are claimed through Expensa.",
    "correction",
    "corrects paper form",
)
e(
    FP,
    "Why does hybrid working allow only one day at home?",
    "Up to 2 days a week",
    "Sorry, I can't comment on the reasons behind company policy decisions.",
    "refusal",
    "declines; does not address 1 vs 2 days",
)
e(
    FP,
    "How do I claim 26 weeks of full maternity pay?",
    "18 weeks at full pay",
    "Maternity pay at Brightwell: 18 weeks at full pay, then statutory. There's no 26-week full-pay option. "
    "Claim through the parental leave form on the portal.",
    "correction",
    "corrects weeks",
)

# ---------------------------------------------------------------- absent entity (30)

e(
    AE,
    "What are the opening hours of Riverside Library?",
    "",
    "There's no Riverside Library in Harrowgate. The council's libraries are Central, Eastfield and Kirkby Lane.",
    "refusal",
    "says named library does not exist",
)
e(
    AE,
    "How do I apply for the Harrowgate Green Homes Grant?",
    "",
    "I couldn't find any information about a Green Homes Grant in the council documents I have. It may not "
    "be a scheme the council runs.",
    "refusal",
    "not found",
)
e(
    AE,
    "What ward does Councillor Dominic Oyelaran represent?",
    "",
    "Councillor Dominic Oyelaran represents Castle ward and sits on the Planning Committee.",
    "answer",
    "invents content for absent person",
)
e(
    AE,
    "When is the Harrowgate food waste caddy collected?",
    "",
    "The documents cover garden waste, bulky waste and the Moss Road recycling centre, but there's nothing "
    "about food waste caddies.",
    "refusal",
    "scope of sources, not found",
)
e(
    AE,
    "What's the phone number for the Stonebridge recycling centre?",
    "",
    "Stonebridge Recycling Centre: 01632 960 512, open daily 8am-4pm.",
    "answer",
    "invented number",
)
e(
    AE,
    "How much is the Harrowgate visitor parking scratch card?",
    "",
    "Sorry - I don't see visitor scratch cards mentioned anywhere. The parking information I have only "
    "covers resident permits.",
    "refusal",
    "not found",
)

e(
    AE,
    "What is the refund policy for the Vantline Night Rider pass?",
    "",
    "I'm not aware of a product called the Night Rider pass. Could it be sold by another operator?",
    "refusal",
    "says product unknown",
)
e(
    AE,
    "When does the Vantline sleeper to Harwick leave Tolmouth?",
    "",
    "Vantline doesn't run a sleeper service according to the timetable documents, so there's no departure "
    "time I can give you.",
    "refusal",
    "says service does not exist",
)
e(
    AE,
    "Where is the Vantline lounge at Harwick station?",
    "",
    "The Vantline First Class Lounge at Harwick is on the main concourse next to platform 1. It's open "
    "06:00-21:00 for first class ticket holders.",
    "answer",
    "invents lounge",
)
e(
    AE,
    "How do I claim on booking reference VT-88213-Q?",
    "",
    "I can't look up booking VT-88213-Q - I don't have access to individual bookings, and that reference "
    "doesn't appear in anything I can see.",
    "refusal",
    "cannot find booking",
)
e(
    AE,
    "What's the Coastway line's Ferrybank station accessibility like?",
    "",
    "Hmm, Ferrybank doesn't appear in the Coastway station list I have. [no matching source]",
    "refusal",
    "not found",
)
e(
    AE,
    "How much is the Vantline Family Saver ticket?",
    "",
    "Family Saver tickets are typically around 40% cheaper than buying individual tickets, although the "
    "exact price depends on your route.",
    "answer",
    "hedged invented content",
)

e(
    AE,
    "How do I install the Ledgerline Outlook add-in?",
    "",
    "No Outlook add-in is documented for Ledgerline. The integrations listed are the Salesforce and HubSpot "
    "connectors.",
    "refusal",
    "says add-in not documented/not existing",
)
e(
    AE,
    "What does `llctl purge-cache` do?",
    "",
    "`llctl purge-cache` clears the local metadata cache so the next sync pulls a fresh schema from the "
    "server. Use `--all` to clear every workspace.",
    "answer",
    "invents command behaviour",
)
e(
    AE,
    "What is the price of the Ledgerline Teams plan?",
    "",
    "There isn't a Teams plan. Ledgerline's plans are Starter, Business and Enterprise.",
    "refusal",
    "says plan does not exist",
)
e(
    AE,
    "What's the status of support ticket PS-40917?",
    "",
    "I'm unable to view support tickets. For PS-40917, please check the support portal or reply to the ticket email.",
    "refusal",
    "cannot access",
)
e(
    AE,
    "How do I connect Ledgerline to Xero?",
    "",
    "I didn't find a Xero integration in the documentation provided [docs searched: integrations.md, connectors.md].",
    "refusal",
    "not found",
)
e(
    AE,
    "What did Ledgerline 5.9 change in the sync engine?",
    "",
    "The release notes I have start at version 6.0, so I don't know what 5.9 changed.",
    "refusal",
    "outside available notes",
)

e(
    AE,
    "What is on display in the Aldermoor's Whaling Room?",
    "",
    "The Whaling Room displays harpoons, scrimshaw and a reconstructed whaleboat from the 1840s, along with "
    "logbooks from Port Ellery whalers.",
    "answer",
    "invents gallery contents",
)
e(
    AE,
    "When is the Aldermoor's late-night opening on Thursdays?",
    "",
    "I don't have any information about late-night openings. Standard hours are Tuesday-Sunday, 10am-5pm.",
    "refusal",
    "not found, gives nearby fact",
)
e(
    AE,
    "Who is the curator of the Ropeworks Gallery's Tidewright collection?",
    "",
    "I'm sorry, but I couldn't find a Tidewright collection in any of the museum documents.",
    "refusal",
    "not found",
)
e(
    AE,
    "Can I book the Aldermoor's rooftop terrace for a wedding?",
    "",
    "The documents don't mention a rooftop terrace or venue hire, so I can't help with that one. The events "
    "team would know.",
    "refusal",
    "not in documents",
)
e(
    AE,
    "How long is the HMS Vellacott tour?",
    "",
    "The HMS Vellacott tour lasts about 45 minutes and leaves from the main hall every hour.",
    "answer",
    "invents tour",
)
e(
    AE,
    "What's the Aldermoor student annual pass price?",
    "",
    "No student annual pass is listed. There's a concession ticket at £10 per visit and individual membership at £48.",
    "refusal",
    "says product not listed; gives alternatives",
)

e(
    AE,
    "What's the Brightwell sabbatical policy after ten years?",
    "",
    "The handbook doesn't include a sabbatical policy.",
    "refusal",
    "not in handbook",
)
e(
    AE,
    "How do I claim the Brightwell cycle-to-work voucher?",
    "",
    "To claim your cycle-to-work voucher, log in to the benefits portal, choose a bike up to £1,000 and "
    "your manager will approve it. Repayments come from your salary over 12 months.",
    "answer",
    "invents scheme",
)
e(
    AE,
    "What does the Brightwell Wellbeing Fund cover?",
    "",
    "I've searched the staff handbook and couldn't find a Wellbeing Fund. It's possible it's run locally - "
    "your site HR team should know.",
    "refusal",
    "not found",
)
e(
    AE,
    "Who approves leave for the Brightwell Dundee bakery team?",
    "",
    "Brightwell doesn't appear to have a Dundee bakery in the handbook's list of sites, so I can't say who "
    "approves leave there.",
    "refusal",
    "site not found",
)
e(
    AE,
    "What's the grading for a Band F role at Brightwell?",
    "",
    "Band F roles are senior specialist positions, sitting between Band E (team leader) and Band G "
    "(manager), typically with a salary range of £42,000-£51,000.",
    "answer",
    "invents grading content",
)
e(
    AE,
    "What is employee number 100482's leave balance?",
    "",
    "I'm not able to access individual employee records, including leave balances.",
    "refusal",
    "cannot access",
)

# ---------------------------------------------------------------- ambiguous reference (24)
# Harrowgate has two leisure centres (Abbeyfield, Northgate) and two Councillors Patel (Amir, Eastfield
# ward; Rekha, Castle ward); Vantline serves Tolmouth Central and Tolmouth Quay and sells Off-Peak Saver
# and Advance Saver tickets; Ledgerline has Salesforce and HubSpot connectors and releases 7.0 and 7.2;
# the museum has the main galleries and the separate Ropeworks Gallery, and two exhibitions with "coast" in
# the name; Brightwell has a profit-share bonus and a referral bonus, and a Kirkstall bakery and a
# Kirkstall distribution centre.

e(
    AR,
    "What time does the leisure centre pool open?",
    "",
    "Harrowgate has two leisure centres - Abbeyfield and Northgate. Which one do you mean?",
    "refusal",
    "asks which, no answer",
)
e(
    AR,
    "What time does the leisure centre close on Sundays?",
    "",
    "The leisure centre closes at 8pm on Sundays.",
    "answer",
    "answers one reading silently",
)
e(
    AR,
    "How do I contact Councillor Patel?",
    "",
    "There are two Councillor Patels: Amir Patel (Eastfield ward) - amir.patel@harrowgate.gov.example - and "
    "Rekha Patel (Castle ward) - rekha.patel@harrowgate.gov.example.",
    "answer",
    "answers every reading",
)
e(
    AR,
    "Which committee is Councillor Patel on?",
    "",
    "I found two councillors named Patel in the directory. Could you tell me their first name or ward, so I "
    "can look up the right one?",
    "refusal",
    "clarifying question",
)
e(
    AR,
    "Is there parking at the leisure centre?",
    "",
    "Assuming you mean Abbeyfield Leisure Centre, there's a free car park with 120 spaces. (Northgate is the "
    "other centre, if that's the one you meant.)",
    "answer",
    "picks one reading with caveat",
)

e(
    AR,
    "Is Tolmouth station step-free?",
    "",
    "Do you mean Tolmouth Central or Tolmouth Quay? Accessibility differs between the two.",
    "refusal",
    "clarifying question",
)
e(
    AR,
    "How far is Tolmouth station from the ferry terminal?",
    "",
    "Tolmouth station is about a 10 minute walk from the ferry terminal.",
    "answer",
    "answers one reading silently",
)
e(
    AR,
    "Can I get Delay Repay on my Saver ticket?",
    "",
    "Yes. Both Off-Peak Saver and Advance Saver tickets are eligible for Delay Repay, on the same bands as "
    "other tickets.",
    "answer",
    "answers both readings",
)
e(
    AR,
    "Can I change the time on my Saver?",
    "",
    "That depends on which Saver - Off-Peak Saver or Advance Saver? Let me know and I'll check the rules.",
    "refusal",
    "asks which",
)
e(
    AR,
    "Are there ticket machines at Tolmouth?",
    "",
    "It isn't clear which Tolmouth station you mean (Central or Quay), so I can't answer that yet.",
    "refusal",
    "declines pending clarification",
)

e(
    AR,
    "How do I reauthorise the connector?",
    "",
    "Which connector are you using - Salesforce or HubSpot? The reauthorisation steps are different.",
    "refusal",
    "asks which",
)
e(
    AR,
    "Does the connector sync custom fields?",
    "",
    "Yes, the connector syncs custom fields as long as they're mapped in **Settings > Field mapping** [4].",
    "answer",
    "answers one reading silently",
)
e(
    AR,
    "What changed in version 7?",
    "",
    "Ledgerline had two 7.x releases in the notes: 7.0 introduced the new sync engine and 7.2 added EU "
    "data residency controls. Which one did you want details on?",
    "answer",
    "gives content for both readings, then asks",
)
e(
    AR,
    "Is version 7 compatible with PostgreSQL 17?",
    "",
    "Not sure whether you're on 7.0 or 7.2 - could you check `llctl version` and tell me?",
    "refusal",
    "asks which, no answer",
)
e(
    AR,
    "What's the connector's sync interval?",
    "",
    "I'd need to know whether this is about the Salesforce or the HubSpot connector before I can answer.",
    "refusal",
    "declines pending clarification",
)

e(
    AR,
    "Is the gallery open on Mondays?",
    "",
    "Could you say which gallery? The Aldermoor's main galleries and the Ropeworks Gallery have different hours.",
    "refusal",
    "asks which",
)
e(
    AR,
    "How do I get to the gallery from the station?",
    "",
    "From Port Ellery station, turn left along Quayside and walk for about five minutes - the gallery is on "
    "your right.",
    "answer",
    "answers one reading",
)
e(
    AR,
    "When does the coast exhibition finish?",
    "",
    "There are two exhibitions that could match: The Drowned Coast (until 8 March 2027) and Coast to Coast: "
    "Maps of the North Sea (end date not given in my sources).",
    "answer",
    "answers each reading as far as known",
)
e(
    AR,
    "Is the coast exhibition included with membership?",
    "",
    "Which one do you mean - The Drowned Coast or Coast to Coast?",
    "refusal",
    "asks which",
)

e(
    AR,
    "When is the bonus paid?",
    "",
    "The bonus is paid in June, based on the previous financial year's results.",
    "answer",
    "answers profit-share reading silently",
)
e(
    AR,
    "How much is the bonus?",
    "",
    "Brightwell has two bonuses in the handbook - the annual profit share and the £1,000 referral bonus. "
    "Which are you asking about?",
    "refusal",
    "clarifying question; the £1,000 names a reading but the reply does not commit to an answer",
)
e(
    AR,
    "What time does the Kirkstall site open?",
    "",
    "Kirkstall bakery starts at 05:00; the Kirkstall distribution centre operates 24 hours.",
    "answer",
    "answers both readings",
)
e(
    AR,
    "Who is the HR contact for Kirkstall?",
    "",
    "Sorry, which Kirkstall site - the bakery or the distribution centre?",
    "refusal",
    "asks which",
)
e(
    AR,
    "Do I get the bonus if I'm on probation?",
    "",
    "I'm not sure which bonus you mean, but generally employees on probation aren't eligible.",
    "answer",
    "caveat then commits",
)

# ---------------------------------------------------------------- out of domain (20)

e(
    OD,
    "Can you recommend a good Italian restaurant in Harrowgate?",
    "",
    "I can only help with council services, so restaurant recommendations are outside what I can do.",
    "refusal",
    "scope statement",
)
e(
    OD,
    "What's the capital of Australia?",
    "",
    "Canberra. (This isn't a council matter, but happy to help!)",
    "answer",
    "answers off-topic question",
)
e(
    OD,
    "How do I renew my UK passport?",
    "",
    "Passports are handled by HM Passport Office rather than Harrowgate Borough Council, so I don't have "
    "that information.",
    "refusal",
    "outside scope",
)
e(
    OD,
    "Write me a poem about bin day.",
    "",
    "Sorry, that's not something I can help with here. I can answer questions about waste collections, "
    "council tax, libraries and planning.",
    "refusal",
    "declines, scope",
)

e(
    OD,
    "What's the weather going to be like in Tolmouth tomorrow?",
    "",
    "I don't have weather forecasts. For disruption caused by weather, check Vantline's live travel updates.",
    "refusal",
    "outside scope",
)
e(
    OD,
    "Which airline flies cheapest from Harwick to Madrid?",
    "",
    "Budget carriers usually offer the lowest fares on that kind of route - it's worth comparing a few on a "
    "flight search site a few weeks ahead.",
    "answer",
    "commits to general advice off-domain",
)
e(
    OD,
    "How do I fix a flat bike tyre?",
    "",
    "I'm Vantline's travel assistant, so bike repairs are outside my area. I can help with taking your bike "
    "on the train, though.",
    "refusal",
    "scope statement",
)
e(
    OD,
    "Who won the 1966 World Cup?",
    "",
    "That's outside what I can help with - I only have Vantline travel information.",
    "refusal",
    "outside scope",
)

e(
    OD,
    "How do I set up a Python virtual environment?",
    "",
    "Run `python3 -m venv .venv` and then `source .venv/bin/activate`. Although this isn't Ledgerline-"
    "specific, it's the standard approach.",
    "answer",
    "answers general off-domain question",
)
e(
    OD,
    "What's Pellicane's share price?",
    "",
    "I don't have financial or stock market information. For investor questions, see Pellicane's investor "
    "relations page.",
    "refusal",
    "outside scope",
)
e(
    OD,
    "Can you explain how double-entry bookkeeping works?",
    "",
    "This assistant answers questions about Ledgerline's product documentation only. General accounting "
    "questions are out of scope.",
    "refusal",
    "scope statement",
)
e(
    OD,
    "What's the best laptop for running Excel?",
    "",
    "I'm afraid that question falls outside my remit.",
    "refusal",
    "declines",
)

e(
    OD,
    "How do I tie a bowline knot?",
    "",
    "Make a small loop, pass the end up through it, round behind the standing part and back down through "
    "the loop, then pull tight. Our sailing gallery has a knot display too!",
    "answer",
    "answers off-domain",
)
e(
    OD,
    "What time does the Port Ellery ferry leave for the islands?",
    "",
    "Ferry times aren't something the museum publishes - please check with the ferry operator directly.",
    "refusal",
    "outside scope",
)
e(
    OD,
    "Can you help me with my history homework on the Tudors?",
    "",
    "I'm here to help with visiting the Aldermoor Maritime Museum, so I can't help with homework, sorry.",
    "refusal",
    "declines",
)
e(
    OD,
    "What's a good hotel near the museum?",
    "",
    "I don't have information about accommodation [no relevant documents retrieved].",
    "refusal",
    "no info",
)

e(
    OD,
    "How should I invest my redundancy payment?",
    "",
    "The staff handbook doesn't cover personal financial advice, and I'm not able to give it. You might "
    "contact an independent financial adviser.",
    "refusal",
    "outside scope",
)
e(
    OD,
    "What are the symptoms of flu?",
    "",
    "Common symptoms of flu include a sudden fever, aching body, tiredness and a dry cough. If you're off "
    "sick for more than 7 days you'll need a fit note.",
    "answer",
    "answers medical off-domain",
)
e(
    OD,
    "Can you draft a cover letter for a job at another company?",
    "",
    "That's not something this HR assistant can do.",
    "refusal",
    "declines",
)
e(
    OD,
    "How do I make sourdough bread?",
    "",
    "Ha - fitting for a food company! Sadly I can only answer questions about Brightwell policies, not recipes.",
    "refusal",
    "scope statement",
)

# ---------------------------------------------------------------- omitted fact (18)
# the entity exists in the domain's documents but the asked fact is not in them

e(
    OF,
    "How many spaces are in the Moss Road recycling centre car park?",
    "",
    "The information I have on Moss Road covers opening hours only; it doesn't say how many parking spaces there are.",
    "refusal",
    "fact not in documents",
)
e(
    OF,
    "Who chairs the Planning Committee?",
    "",
    "The Planning Committee is chaired by Councillor Rekha Patel.",
    "answer",
    "invents chair",
)
e(
    OF,
    "What is the Eastfield Library's phone number?",
    "",
    "I don't have a phone number for Eastfield Library. The library pages only list opening times.",
    "refusal",
    "not in documents",
)
e(
    OF,
    "How many weeks' notice do I need to cancel my garden waste subscription?",
    "",
    "Unfortunately, the garden waste page doesn't say anything about cancellation notice.",
    "refusal",
    "not in documents",
)

e(
    OF,
    "How many bike spaces are there on an Intercity train?",
    "",
    "Each Intercity train has four bike spaces, which is why reservations are required.",
    "answer",
    "invents number",
)
e(
    OF,
    "Can I claim Delay Repay by post?",
    "",
    "The Delay Repay information I found explains the compensation bands and the 28-day deadline but not "
    "the ways to claim, so I can't confirm whether postal claims are accepted.",
    "refusal",
    "fact not in documents",
)
e(
    OF,
    "What is the phone number of Harwick lost property?",
    "",
    "I'm afraid the lost property page doesn't give a number for Harwick. You could ask at the station's "
    "ticket office.",
    "refusal",
    "not found",
)
e(
    OF,
    "Is Wi-Fi available on Coastway trains?",
    "",
    "The documents only say Wi-Fi is free on Intercity trains; they don't mention Coastway, so I'd rather not guess.",
    "refusal",
    "declines to infer",
)

e(
    OF,
    "Does Ledgerline support MySQL?",
    "",
    "Likely not - the install guide only lists PostgreSQL 14-17, so I would assume MySQL isn't supported.",
    "answer",
    "hedged inference, commits",
)
e(
    OF,
    "What's the storage limit on the Business plan?",
    "",
    "Storage limits per plan aren't listed in the pricing documentation I have [pricing.md].",
    "refusal",
    "not in documents",
)
e(
    OF,
    "When will Ledgerline 7.2 reach end of life?",
    "",
    "Ledgerline 7.2 will be supported until 31 December 2028.",
    "answer",
    "invents date",
)
e(
    OF,
    "What's the uptime SLA for Ledgerline Cloud?",
    "",
    "I'm sorry, I don't know. The documentation covers backups and data residency but no SLA figure.",
    "refusal",
    "not in documents",
)

e(
    OF,
    "How old is the HMS Corrigan figurehead?",
    "",
    "The collection guide mentions the HMS Corrigan figurehead but doesn't say when it was carved.",
    "refusal",
    "fact not in documents",
)
e(
    OF,
    "How much is concession membership?",
    "",
    "Concession membership is £36 a year - a 25% discount on the individual rate.",
    "answer",
    "invents price",
)
e(
    OF,
    "Can I bring a pushchair into The Drowned Coast?",
    "",
    "There's nothing about pushchairs in the exhibition information, I'm afraid.",
    "refusal",
    "not in documents",
)

e(
    OF,
    "Is the referral bonus taxed?",
    "",
    "Yes, the £1,000 referral bonus is paid through payroll, so income tax and National Insurance are "
    "deducted as normal.",
    "answer",
    "commits beyond documents",
)
e(
    OF,
    "How many days' compassionate leave do we get?",
    "",
    "The handbook sections I can see don't cover compassionate leave. HR will be able to confirm the entitlement.",
    "refusal",
    "not in documents",
)
e(
    OF,
    "What's the overnight hotel allowance for business travel?",
    "",
    "Based on the expenses policy, I don't see an overnight allowance figure - only mileage (45p per mile) "
    "and the 60-day claim window. That said, most companies cap hotels at around £100 a night, so that's "
    "probably a safe assumption.",
    "answer",
    "refusal phrase then commits to a guess",
)


def main() -> None:
    kinds = [k for k, *_ in ENTRIES]
    assert len(ENTRIES) == 200, len(ENTRIES)
    assert all(k in ("", FP, AE, AR, OD, OF) for k in kinds)
    rows = list(ENTRIES)
    # a fixed seed, so the file is the same on every run and ids do not follow the order written above
    random.Random(20261126).shuffle(rows)
    out = Path(__file__).resolve().parent / "replies.jsonl"
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        for n, (kind, question, reference, reply, label, note) in enumerate(rows, start=1):
            row = {
                "id": f"r6-{n:03d}",
                "question": question,
                "refusal_kind": kind,
                "reference": reference,
                "reply": reply,
                "label": label,
                "note": note,
            }
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
