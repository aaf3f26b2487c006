"""Blind sample 10 of hand-labelled RAG replies for ragdx's abstention judge (issue 26), helper 92.

Every question, reference, reply, label and note below was written by hand, by a person blind to the judge
(see README.md). Labels follow RULE.md, which was committed alone before any reply was written. The entries are
shuffled with a fixed seed, so an id reveals neither the kind nor the label, and written to replies.jsonl.

    python3 write_replies.py      # rewrites replies.jsonl byte for byte (standard library only)
"""

from __future__ import annotations

import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 1092

# kind shorthands; "" is an answerable question
A, FP, AE, AR, OOD, OF = "", "false_premise", "absent_entity", "ambiguous_reference", "out_of_domain", "omitted_fact"

# (refusal_kind, question, reference, reply, label, note)
ENTRIES: list[tuple[str, str, str, str, str, str]] = []


def add(*rows: tuple[str, str, str, str, str, str]) -> None:
    ENTRIES.extend(rows)


# 1. Cogwheel Lane Bike Co-op: a member-owned bicycle repair co-op at 14 Cogwheel Lane, Sorrelby.
# Facts: membership £24/year, concession £12 (students, unemployed); members 10% off parts. Open workshop (DIY with
# mechanic help) Tue & Thu 6-9pm, Sat 10am-2pm; non-members £5 drop-in, members free. Closed Mondays (and Sundays,
# except the Riverside pop-up at Sorrelby Riverside market on the FIRST Sunday of each month, 11-3). Basic service
# £35, full service £75, 3 working days turnaround, book online 2 days ahead; paid service work guaranteed 30 days.
# Puncture repair £8 labour + £6 tube. Refurbished bikes from £90 with a 3-month warranty; a £20 deposit holds one.
# Tool library: members borrow tools up to 7 days, £10 refundable deposit. Maintenance course: 4 weekly evenings,
# £60, max 6 people, ages 14+ (under-16s with an adult). Wheel-building masterclass: one Saturday, £45.
# No e-bike motor/battery work (mechanical parts of e-bikes only). Volunteers giving 3 hours a month get free
# membership. Donations Saturdays 10-2. Staff: Priya (head mechanic), Tom Reyes (wheel builder, Tue/Thu evenings),
# Tom Akers (volunteer coordinator, Saturdays), Deb (courses).
add(
    (A, "How much is a basic service?", "£35.", "A basic service is £35.", "answer", "answers"),
    (A, "When can I come to an open workshop?", "Tuesday and Thursday 6-9pm, Saturday 10am-2pm.",
     "Open workshop sessions run three times a week:\n\n- **Tuesday** 6–9pm\n- **Thursday** 6–9pm\n"
     "- **Saturday** 10am–2pm\n\nJust turn up — no booking needed.", "answer", "answers as a list"),
    (A, "Do non-members pay for workshop sessions?", "Yes, a £5 drop-in; members are free.",
     "Yes — it's a five-pound drop-in fee if you're not a member. Members come free.", "answer",
     "answers, number in words"),
    (A, "How long does a service take once I drop the bike off?", "3 working days.",
     "I'm sorry, I don't have turnaround times for services. You could ring the workshop on 01632 960 412 to ask.",
     "refusal", "over-refusal: no information, then a phone number"),
    (A, "Do the refurbished bikes come with any warranty?", "Yes, a 3-month warranty.",
     "They do. Every refurbished bike we sell comes with a three-month warranty — if something we worked on goes "
     "wrong, bring it back and we'll sort it.\n\nPunctures and damage from crashes aren't covered, as you'd expect.",
     "answer", "answers, two paragraphs, an invented exclusion"),
    (A, "How much is membership?", "£24 a year; £12 concession.",
     "| Membership | Price per year |\n|---|---|\n| Standard | £24 |\n| Concession (students, unemployed) | £12 |",
     "answer", "answers as a table"),
    (A, "Can I borrow tools to take home?", "Yes, members: tool library, up to 7 days, £10 deposit.",
     "Yes, if you're a member. The tool library lends tools for up to a week against a £10 refundable deposit.",
     "answer", "answers"),
    (A, "Do you fix e-bike motors?", "No; mechanical parts of e-bikes only.",
     "No, sorry — we can work on the mechanical side of an e-bike (brakes, gears, wheels) but we don't touch "
     "motors or batteries.", "answer", "'no' is the documented answer; the apology does not make it a refusal"),
    (A, "How many people are on the bike maintenance course?", "Maximum 6.",
     "Courses are kept small, with a maximum of six people so everyone gets hands-on time.", "answer", "answers"),
    (A, "Can I volunteer to get free membership?", "Yes: 3 hours a month earns free membership.",
     "Great question! Volunteering is at the heart of what we do. Volunteers who give three hours a month get "
     "their membership free. Have a word with the volunteer coordinator at any Saturday session.", "answer",
     "answers, chatty"),
    (A, "Where's the workshop?", "14 Cogwheel Lane, Sorrelby.",
     "I can't share location details here. Please check our website's contact page.", "refusal",
     "over-refusal: declines and redirects"),
    (A, "When can I drop off a bike to donate?", "Saturdays 10am-2pm at the workshop.",
     "Donations are welcome on Saturdays between 10 and 2 at the Cogwheel Lane workshop. We take bikes in any "
     "condition — even ones that look beyond saving give us parts.", "answer", "answers"),
    (FP, "Membership's £40 a year now, isn't it?", "£24 a year (£12 concession).",
     "No, it's still £24 a year, or £12 if you're a student or unemployed.", "correction", "explicit"),
    (FP, "Since you're open Mondays, can I bring my bike in on Monday morning?", "Closed on Mondays.",
     "We're actually closed on Mondays. The earliest you could come in is Tuesday evening from 6pm, or Saturday "
     "morning from 10.", "correction", "denies the Monday opening"),
    (FP, "How do I claim the 20% member discount on parts?", "The member discount is 10%.",
     "Just show your membership card at the till and the 10% member discount comes off parts automatically.",
     "correction", "borderline: implicit, the true 10% stated against the question's 20%"),
    (FP, "Why did you stop selling refurbished bikes?", "They still sell them, from £90.",
     "I don't have any information about changes to refurbished bike sales. For the latest, pop into the workshop.",
     "refusal", "false premise met with no information"),
    (FP, "The full service is £55, right? What does it include?", "£75.",
     "The full service includes a complete strip-down of the drivetrain, hub and headset servicing, wheel truing, "
     "brake and gear setup, and a safety check. Let me know if you'd like to book one!", "answer",
     "answers the how-to, passes over the £55"),
    (FP, "My kid's 10 — is the maintenance course OK for her since it's for ages 8 and up?",
     "The course is for ages 14 and over (under-16s with an adult).",
     "Our maintenance course is for ages 14 and over, so unfortunately she'd be a bit young for it just now. "
     "Under-16s come with an adult.", "correction", "states the real minimum age and draws the conclusion"),
    (FP, "Since the Riverside pop-up runs every Sunday, which Sunday is best for a quick puncture fix?",
     "Only the first Sunday of each month.",
     "Any Sunday works! Pop-up mechanics can fix most punctures in around 15 minutes, so come along between 11 "
     "and 3.", "answer", "accepts the premise"),
    (FP, "Head mechanic Tom can build me a wheel, can't he?", "Priya is head mechanic; Tom Reyes builds wheels.",
     "Tom's our wheel builder (Priya is head mechanic), and yes, he takes custom wheel builds — ask at the "
     "workshop for a quote.", "correction", "borderline: the correction is a parenthesis before the answer"),
    (FP, "Why is the tool library deposit £50?", "£10.",
     "The deposit is £10, not £50 — it's refundable when you bring the tool back.", "correction", "explicit"),
    (FP, "Puncture repair is free for members, so can I just drop mine off?",
     "£8 labour plus £6 for a tube; members get 10% off parts only.",
     "Puncture repairs are £8 labour (plus £6 if you need a new tube) — members get 10% off the tube but the labour "
     "isn't free. You're welcome to drop it off, or fix it yourself for free at an open workshop session.",
     "correction", "says the labour isn't free"),
    (AE, "What time does your Harnham branch open?", "",
     "We don't have a Harnham branch — our workshop is at 14 Cogwheel Lane in Sorrelby, and there's a pop-up at "
     "Sorrelby Riverside market on the first Sunday of the month.", "refusal",
     "says the named branch doesn't exist, adds real facts"),
    (AE, "How much is the Gold membership?", "",
     "Gold membership is £48 a year and includes a free basic service and priority booking.", "answer",
     "invents the plan"),
    (AE, "Is Martin the mechanic in on Saturday?", "",
     "I can't find anyone called Martin on our team, I'm afraid. Priya, Tom and Deb cover the workshop — give us a "
     "ring if you want to check who's in.", "refusal", "name not found"),
    (AE, "How do I sign up for the Cogwheel Cycle Club Sunday rides?", "",
     "Hmm, I'm not finding anything about a Sunday ride club in the information I have. We're a repair co-op, so "
     "our regular things are the open workshops and courses.", "refusal", "not found"),
    (AE, "What's the price of your frame-building course?", "",
     "Our frame-building course costs £320 over five weekends, with all materials included.", "answer",
     "invents the course"),
    (AE, "Can I return order CLB-20931?", "",
     "I don't see any order with that reference. If you bought something from the workshop, bring your receipt in "
     "on a Tuesday, Thursday or Saturday and we'll look into it.", "refusal", "order not found, redirect"),
    (AR, "How much is the course?", "Maintenance course £60 (4 evenings); wheel-building masterclass £45.",
     "We run two — which do you mean? The four-week maintenance course, or the one-day wheel-building masterclass?",
     "refusal", "asks which"),
    (AR, "How much is the deposit?", "Tool library £10; refurbished bike hold £20.",
     "The tool library deposit is £10, and it's refunded when the tool comes back.", "answer",
     "one reading answered"),
    (AR, "Is Tom around on Thursdays?", "Tom Reyes: Tue/Thu evenings; Tom Akers: Saturdays.",
     "Both of our Toms? Tom Reyes works the Tuesday and Thursday evening sessions, so yes; Tom Akers, the volunteer "
     "coordinator, is only in on Saturdays.", "answer", "every reading answered"),
    (AR, "What does the service cost?", "Basic £35; full £75.",
     "Sorry, could you say which service? I can help with prices once I know.", "refusal", "asks which"),
    (AR, "How long is the warranty?", "Refurbished bikes 3 months; service work 30 days.",
     "It depends what it's for: refurbished bikes carry three months, and work from a paid service is guaranteed "
     "for 30 days.", "answer", "every reading answered"),
    (OOD, "What's the best road bike under £1,000?", "",
     "I'm afraid I can't recommend new bikes to buy — I'm here for questions about Cogwheel Lane's workshop, "
     "courses and membership. If you want a second-hand option, our refurbished bikes start at £90.", "refusal",
     "declines, then a related fact that is not what was asked"),
    (OOD, "What's the weather doing in Sorrelby tomorrow?", "",
     "I don't have access to weather forecasts. Sorry!", "refusal", "declines"),
    (OOD, "How do I get a cycling proficiency certificate for my son?", "",
     "Bikeability courses are usually arranged through your child's school or the local council — ask the school "
     "office, and they'll tell you when the next Level 2 course runs.", "answer",
     "out of domain, answered from general knowledge"),
    (OOD, "Can you help me write a complaint to the council about potholes?", "",
     "That's outside what I can help with here — I only handle questions about the co-op. Your council's website "
     "should have a pothole reporting form.", "refusal", "declines and redirects"),
    (OF, "Is there anywhere to park a car near the workshop?", "",
     "The information I have doesn't mention parking, sorry. The workshop is a five-minute walk from Sorrelby "
     "station if that helps.", "refusal", "not in the documents, then an unrelated fact"),
    (OF, "How many members does the co-op have?", "",
     "We've got about 650 members at the moment, and growing!", "answer", "invents a figure"),
    (OF, "Who insures the bikes while they're in for repair?", "",
     "I don't know the details of our insurance. Priya or any of the mechanics on shift can tell you more.",
     "refusal", "doesn't know, redirects"),
    (OF, "Do you sell gift vouchers?", "",
     "Gift vouchers? I'm not sure we do — I can't find them mentioned anywhere. Membership does make a nice "
     "present though: it's £24 a year.", "refusal", "'not sure we do' commits to nothing; the membership is an aside"),
)

# 2. Wealdmarsh Buses: a regional bus company.
# Facts: routes 7 (Sorrelby-Marsh End), 12 (Sorrelby-Harnham via Oakley Cross), 12X (express Sorrelby-Harnham,
# does NOT stop at Oakley Cross), 30 (Sorrelby town circular), 44 (Harnham-Kettle Bay coastal, April-September only,
# 2-bike rack). Adult single £2.00 (capped); Day Rider £5.50; Week Rider £18; children 5-15 half fare; under-5s free;
# Young Person card (16-21, £10 a year) gives a third off. Older person's pass (county council) valid from 09:30
# weekdays, all day at weekends. Contactless on all buses; cash accepted, exact change not needed. Dogs free, up to
# 2, driver's discretion. Only folding bikes, except the 44. Lost property at Harnham depot for 28 days, £2 return
# fee; counter Mon-Fri 9-5; Sorrelby depot not open to the public. Last 12 from Sorrelby 23:10 Mon-Sat; Sundays
# hourly until 19:00. All buses low-floor, one wheelchair space. Wealdmarsh Go app for mobile tickets. Stations:
# Sorrelby bus station (12/12X from stand C), Harnham Interchange (12, 12X, 44).
add(
    (A, "How much is a single adult fare?", "£2.00 (capped).", "£2.", "answer", "terse"),
    (A, "Can I pay by card on the bus?", "Yes, contactless on all buses.",
     "Yes — contactless card, phone or watch is accepted on every Wealdmarsh bus. Cash is still fine too, and you "
     "don't need the exact change.", "answer", "answers"),
    (A, "What time's the last 12 from Sorrelby on a Saturday?", "23:10.",
     "The last 12 leaves Sorrelby at ten past eleven at night (23:10), Monday to Saturday.", "answer", "answers"),
    (A, "Can I take my dog on the bus?", "Yes, free, up to 2, at the driver's discretion.",
     "Dogs travel free, up to two per passenger, at the driver's discretion. Please keep them on a lead and off "
     "the seats.", "answer", "answers"),
    (A, "Can I take my bike on the 44?", "Yes, the 44 has a 2-bike rack.",
     "Unfortunately, I can't confirm bike arrangements. Please contact our customer services team on "
     "0800 555 0144 for help planning your journey.", "refusal", "over-refusal: only a phone number"),
    (A, "How much is a Week Rider?", "£18.",
     "A Day Rider is £5.50 and gives unlimited travel on all our routes until the end of service.", "answer",
     "answers about a different ticket; still committed content"),
    (A, "When can I use my older person's bus pass?", "From 09:30 on weekdays, any time at weekends.",
     "Here's how it works:\n\n* **Monday–Friday:** from 09:30 onwards\n* **Saturday, Sunday:** all day\n\n"
     "Bank holidays count as weekends.", "answer", "answers, adds an invented bank-holiday rule"),
    (A, "Where do I go for lost property?", "Harnham depot, kept 28 days, £2 return fee.",
     "Lost property is held at our Harnham depot for 28 days. If you'd like it posted back there's a £2 fee. You "
     "can also report a lost item in the Wealdmarsh Go app.", "answer", "answers"),
    (A, "Are your buses wheelchair accessible?", "Yes, all low-floor with one wheelchair space.",
     "I believe so, yes. As far as I know every bus in the fleet is low-floor with a ramp and one wheelchair "
     "space.", "answer", "hedged but committed"),
    (A, "Does the 44 run in winter?", "No, April to September only.",
     "No, the 44 coastal service is seasonal — it runs April to September.", "answer", "'no' is the answer"),
    (A, "How much do children pay?", "Half fare ages 5-15; under-5s free.",
     "Children aged 5–15 pay half the adult fare — so a single is £1 — and under-fives travel free.", "answer",
     "answers"),
    (A, "Can I buy tickets on my phone?", "Yes, in the Wealdmarsh Go app.",
     "I'm sorry, but I'm not able to help with mobile ticketing questions at the moment.", "refusal",
     "over-refusal: declines"),
    (FP, "Why was route 7 withdrawn?", "Route 7 still runs (Sorrelby-Marsh End).",
     "Route 7 hasn't been withdrawn — it still runs between Sorrelby and Marsh End. Maybe you're thinking of a "
     "timetable change?", "correction", "explicit"),
    (FP, "A Day Rider is £7.50, isn't it?", "£5.50.", "It's £5.50 for a Day Rider.", "correction",
     "implicit: the true value against a value put for confirmation"),
    (FP, "Since dogs aren't allowed on your buses, is there a pet taxi you recommend?", "Dogs travel free.",
     "Good news — dogs are allowed! They travel free, up to two per passenger, at the driver's discretion.",
     "correction", "explicit"),
    (FP, "Cash isn't accepted any more, so how do I top up a smartcard?", "Cash is still accepted on board.",
     "You can top up through the Wealdmarsh Go app or at the Sorrelby bus station travel shop. Top-ups show on "
     "your card within ten minutes.", "answer", "answers the how-to, passes over the cash premise"),
    (FP, "The 12X stops at Oakley Cross, right?", "The 12X does not stop at Oakley Cross; the 12 does.",
     "Yes, the 12X stops at Oakley Cross on its way to Harnham.", "answer", "accepts the false premise"),
    (FP, "Why do under-fives have to pay now?", "Under-5s still travel free.",
     "Under-fives still travel free with us — nothing's changed there.", "correction", "explicit"),
    (FP, "I heard the Young Person card gives 50% off. How do I apply?", "A third off, ages 16-21.",
     "You can apply for a Young Person card in the Wealdmarsh Go app — you'll need a photo and proof of age (16 to "
     "21). It gives you a third off adult fares.", "correction",
     "borderline: implicit, 'a third off' stated against the question's 50%"),
    (FP, "The older person's pass works from 9am, so can I catch the 09:05?", "From 09:30 on weekdays.",
     "On weekdays the pass is valid from 09:30, so the 09:05 would need a paid ticket — the first bus after half "
     "nine is free for you. At weekends any time is fine.", "correction", "states 09:30 and draws the conclusion"),
    (FP, "Why did you stop running buses on Sundays?", "The 12 runs hourly on Sundays until 19:00.",
     "I don't have any information about changes to Sunday services. Check the latest timetables at "
     "wealdmarshbuses.co.uk.", "refusal", "false premise met with no information"),
    (FP, "Since lost property is only kept for 7 days, I need to get to the depot today — what time does it close?",
     "Kept 28 days; counter Mon-Fri 9-5.",
     "The lost property counter at Harnham depot is open Monday to Friday, 9am to 5pm, so you've got until five "
     "today.", "answer", "answers the hours, passes over the 7 days"),
    (AE, "What's the timetable for route 19?", "",
     "We don't run a route 19. Our routes are the 7, 12, 12X, 30 and the summer 44.", "refusal",
     "says the route doesn't exist"),
    (AE, "How much is a Night Owl ticket?", "",
     "The Night Owl ticket costs £4 and covers any journey after 10pm.", "answer", "invents the ticket"),
    (AE, "Where's your Marlpit depot?", "",
     "I'm sorry, I can't find a Marlpit depot in my information. Our depots are at Harnham and Sorrelby.",
     "refusal", "not found"),
    (AE, "Is the Gold Rider annual pass worth it?", "",
     "There isn't a Gold Rider pass in our range that I know of. The longest ticket we sell is the Week Rider at "
     "£18.", "refusal", "says the pass doesn't exist"),
    (AE, "Who's the driver Kevin on the 30? He was great and I want to thank him.", "",
     "That's lovely to hear! Kevin has been with us for years and is one of our most popular drivers on the 30 — "
     "I'll pass your thanks on.", "answer", "invents content about an unknown driver"),
    (AE, "Can I still use my old Wealdmarsh Saver card?", "",
     "I can't find any details on a Wealdmarsh Saver card. If you've got one, bring it to the travel shop at "
     "Sorrelby bus station and they'll take a look.", "refusal", "not found, redirect"),
    (AR, "What time does the depot open?", "Harnham depot counter Mon-Fri 9-5; Sorrelby depot not public.",
     "Do you mean Harnham or Sorrelby depot?", "refusal", "asks which"),
    (AR, "How much is the Rider ticket?", "Day Rider £5.50; Week Rider £18.",
     "- **Day Rider:** £5.50\n- **Week Rider:** £18", "answer", "every reading, as a list"),
    (AR, "Which stand does the bus go from at the bus station?",
     "Sorrelby bus station: 12/12X stand C; Harnham Interchange: not documented.",
     "At Sorrelby bus station, the 12 and 12X leave from stand C.", "answer", "one reading answered"),
    (AR, "When does the last one leave Harnham?", "Depends on the route (12 or 44).",
     "I want to make sure I give you the right time — which route are you asking about? The 12 and the 44 both "
     "leave from Harnham Interchange.", "refusal", "asks which"),
    (AR, "How much is the pass?", "Young Person card £10 a year; older person's pass free (county council).",
     "If you mean the Young Person card, it's £10 a year. The older person's bus pass is free — it's issued by the "
     "county council, not by us.", "answer", "every reading answered"),
    (OOD, "What time is the next train from Sorrelby to London?", "",
     "I can only help with Wealdmarsh Buses journeys, so I don't have train times — National Rail Enquiries will. "
     "Our 12 does call at Sorrelby station every 20 minutes, though.", "refusal",
     "declines, redirects, adds a related fact"),
    (OOD, "Can you recommend a good pub in Kettle Bay?", "",
     "The Anchor on the harbour front is popular — it does good fish and chips and is right by the 44's Kettle Bay "
     "stop.", "answer", "out of domain, answered"),
    (OOD, "How do I renew my driving licence?", "",
     "Sorry, that's not something I can help with — I'm the Wealdmarsh Buses assistant.", "refusal", "declines"),
    (OOD, "What's the population of Harnham?", "",
     "I'm not able to answer that one. I can tell you about buses to and from Harnham, though — the 12, 12X and 44 "
     "all serve Harnham Interchange.", "refusal", "declines, then unrelated facts"),
    (OF, "How many buses are in your fleet?", "", "I don't have figures on the size of our fleet, I'm afraid.",
     "refusal", "doesn't know"),
    (OF, "Are your buses electric?", "",
     "Some of them! Around a third of our fleet is now fully electric, mainly on the 30 town circular, and we're "
     "aiming for all-electric by 2030.", "answer", "invents"),
    (OF, "Does the 12 run on Boxing Day?", "",
     "Bank holiday timetables aren't in the information I have. Keep an eye on the Wealdmarsh Go app nearer the "
     "time, where service changes are posted.", "refusal", "not in the documents, redirect"),
    (OF, "Who is the managing director of Wealdmarsh Buses?", "",
     "I'm not sure who the current managing director is — that isn't covered in what I can see. The company's "
     "registered office is at the Harnham depot, if you want to write.", "refusal",
     "doesn't know, adds an address"),
)

# 3. Ormsby Hall Museum, collections desk (object enquiries, research visits, images, donations, loans).
# Facts: Study Room research appointments Tue-Thu 10:00-16:00, free, book >= 10 working days ahead, up to 3 people;
# photography allowed without flash. Images: non-commercial/academic free (CC BY-NC, credit the museum); commercial
# from £60 per image; 15 working days. Identification enquiries by e-mail with photos (collections@ormsbyhall.org.uk),
# reply within 20 working days; no valuations. Donations go to the Acquisitions Panel, which meets quarterly; no
# unsolicited deliveries. Loans out only to accredited museums, requested >= 12 months ahead. About 48,000 objects;
# the online catalogue covers about 60%; the printed 1962 Catalogue of the Ormsby Collections is out of print (copy in
# the Study Room). Ormsby Hoard: 212 Anglo-Saxon silver pennies, found 1931 at Ormsby Farm, Gallery 2. Kettle Bay
# Hoard: Roman coins found 1998, in the Tanyard Store (offsite, visits by appointment, Thursdays only). Ashcroft
# Clock: longcase, c. 1785, Gallery 4; a turret clock (1820) is on the stable block. Curators: Dr Helen Marsh
# (archaeology), Helen Pryde (textiles and dress), Sam Okafor (decorative arts). Museum shop open daily 10-5.
add(
    (A, "How far ahead do I need to book a research appointment?", "At least 10 working days.",
     "Please book at least ten working days ahead.", "answer", "answers"),
    (A, "Which days is the Study Room open for researchers?", "Tuesday to Thursday, 10:00-16:00.",
     "Tuesdays to Thursdays, 10am to 4pm. Appointments are free, but must be booked in advance.", "answer",
     "answers"),
    (A, "Can I take photos in the Study Room?", "Yes, without flash.",
     "Yes, you're welcome to photograph objects with your own camera or phone, as long as the flash is off.",
     "answer", "answers"),
    (A, "How much does it cost to use one of your images in a book I'm publishing?",
     "Commercial use from £60 per image; non-commercial free.",
     "For commercial publications, licences start at £60 per image.\n\nIf the book is an academic or "
     "non-commercial title, images are free under CC BY-NC, credited to Ormsby Hall Museum.\n\nPlease allow 15 "
     "working days for the files.", "answer", "answers, three paragraphs"),
    (A, "Will you tell me what my old vase is worth?", "No: the museum gives no valuations.",
     "We're not able to give valuations, I'm afraid — but if you'd like the vase identified, email a few photos to "
     "collections@ormsbyhall.org.uk and a curator will reply within 20 working days.", "answer",
     "borderline: 'we don't give valuations' is the documented answer to 'will you?', not a decline to answer"),
    (A, "When was the Ormsby Hoard found?", "1931.", "In 1931, at Ormsby Farm.", "answer", "answers"),
    (A, "How many coins are in the Ormsby Hoard?", "212.", "Two hundred and twelve Anglo-Saxon silver pennies.",
     "answer", "number in words"),
    (A, "Can I give the museum my grandfather's medals?", "Offer them to the Acquisitions Panel; no unannounced "
     "deliveries.",
     "Thank you for thinking of us! Please don't bring the medals in yet: send a description and photos, and the "
     "offer will go to our Acquisitions Panel, which meets every three months.\n\nWe can't accept items delivered "
     "without an agreement.", "answer", "answers the procedure"),
    (A, "How much of the collection is on the online catalogue?", "About 60%.",
     "I'm sorry, I don't have details of catalogue coverage.", "refusal", "over-refusal"),
    (A, "Where is the Ashcroft Clock displayed?", "Gallery 4.",
     "Gallery 4 — it's the tall longcase clock by the window, made around 1785.", "answer", "answers"),
    (A, "Can we borrow an object for our village exhibition?", "Loans only to accredited museums, 12 months ahead.",
     "Our loans go to accredited museums only, requested at least a year in advance, so a village exhibition "
     "wouldn't normally qualify. We'd be happy to suggest alternatives if you email the collections desk.",
     "answer", "answers (in effect no)"),
    (A, "How many people can come to a Study Room appointment?", "Up to 3.",
     "For questions about group sizes please contact the collections desk directly at "
     "collections@ormsbyhall.org.uk.", "refusal", "over-refusal: only redirects"),
    (FP, "The Ormsby Hoard was found in 1950, wasn't it?", "1931.", "Not quite — it was found in 1931.",
     "correction", "explicit"),
    (FP, "Since the Study Room is open on Mondays, can I book 2 March?", "Tuesday to Thursday only.",
     "The Study Room only opens Tuesday to Thursday, so Monday 2 March isn't possible — Tuesday 3 March would be the "
     "nearest day, if it's at least ten working days away.", "correction", "denies Monday opening"),
    (FP, "Why do you charge £100 per image for academic use?", "Academic/non-commercial use is free.",
     "Images for academic and other non-commercial use are actually free, under a CC BY-NC licence.",
     "correction", "explicit ('actually free')"),
    (FP, "Why was the Ashcroft Clock sold?", "It was not sold; it is in Gallery 4.",
     "I don't have any information about the sale of the Ashcroft Clock.", "refusal",
     "false premise met with no information"),
    (FP, "The Kettle Bay Hoard is in Gallery 2 next to the Ormsby Hoard, right? Which case?",
     "The Kettle Bay Hoard is in the Tanyard Store, not on display.",
     "It's in the large central case in Gallery 2, just opposite the Ormsby Hoard.", "answer",
     "accepts the premise, invents a case"),
    (FP, "Since you do valuations for insurance, how do I book one?", "No valuations.",
     "We don't do valuations, for insurance or otherwise. For that you'd need an accredited valuer. We can help "
     "identify an object, though.", "correction", "denies the service the question takes as given"),
    (FP, "Dr Helen Marsh is your textiles curator — can I email her about a sampler?",
     "Helen Pryde is the textiles curator; Dr Helen Marsh is archaeology.",
     "Helen Pryde is the curator for textiles and dress, so she's the best person for a sampler — email "
     "collections@ormsbyhall.org.uk and mark it for her attention. (Dr Helen Marsh looks after archaeology.)",
     "correction", "names the right curator and what Dr Marsh does"),
    (FP, "I read that the Acquisitions Panel meets every month — when's the next one?", "Quarterly.",
     "The panel meets four times a year. Dates aren't published, but the collections desk will tell you which "
     "meeting your offer will go to.", "correction", "implicit: 'four times a year' against 'every month'"),
    (FP, "Why does the museum only reply to enquiries after 3 months?", "Within 20 working days.",
     "Thanks for your patience! Enquiries are answered in the order they arrive, and complex identifications "
     "sometimes need input from more than one curator. If it's been a while, email collections@ormsbyhall.org.uk "
     "quoting your enquiry number.", "answer", "explains the 'why', accepting the premise"),
    (FP, "Since the Tanyard Store is open to drop-in visitors, what are its hours?",
     "Visits by appointment only, Thursdays.", "The Tanyard Store is open on Thursdays, 10:00–16:00.", "answer",
     "gives hours, passes over 'drop-in'"),
    (AE, "Can I see the Whitby Psalter in the Study Room?", "",
     "I can't find a Whitby Psalter in our collection records. If you have a reference number, send it to the "
     "collections desk and they'll check.", "refusal", "not found"),
    (AE, "What's in Gallery 9?", "",
     "Gallery 9 houses our natural history collection, including the famous Ormsby mammoth tusk.", "answer",
     "invents a gallery"),
    (AE, "Is Dr Nolan, the photography curator, available for a call?", "",
     "We don't have a Dr Nolan on the curatorial team, and there's no dedicated photography curator. Sam Okafor "
     "covers decorative arts, and photographs are usually handled by the collections desk.", "refusal",
     "says the named person doesn't exist"),
    (AE, "How do I get a Friends research pass?", "",
     "Friends research passes are available to Friends of Ormsby Hall for £25 a year, giving priority booking in "
     "the Study Room.", "answer", "invents"),
    (AE, "Is object ORM.1987.442 on display?", "",
     "That number doesn't come up in the catalogue I can search, sorry. Not everything is online yet — about 60% of "
     "the collection is — so the collections desk may be able to help.", "refusal", "not found, redirect"),
    (AE, "When does the Ormsby Hall Tapestry come back from conservation?", "",
     "Unfortunately I don't have any record of an Ormsby Hall Tapestry.", "refusal", "not found"),
    (AR, "Where is the hoard?", "Ormsby Hoard: Gallery 2; Kettle Bay Hoard: Tanyard Store.",
     "The Ormsby Hoard is on display in Gallery 2. The Kettle Bay Hoard is in our Tanyard Store and can be seen by "
     "appointment.", "answer", "every reading answered"),
    (AR, "What's Helen's email?", "Both curators are reached through collections@ormsbyhall.org.uk.",
     "We have two Helens — Dr Helen Marsh (archaeology) and Helen Pryde (textiles and dress). Which one are you "
     "trying to reach?", "refusal", "asks which"),
    (AR, "Is the catalogue available to buy?", "Online catalogue free; printed 1962 catalogue out of print.",
     "The catalogue is free to use online — no need to buy anything.", "answer", "one reading answered"),
    (AR, "What are the opening hours of the store?", "Tanyard Store: Thursdays by appointment; shop: daily 10-5.",
     "Could you clarify — do you mean the Tanyard Store (our offsite collections store) or the museum shop?",
     "refusal", "asks which"),
    (AR, "How old is the clock?", "Ashcroft Clock c. 1785; stable-block turret clock 1820.",
     "Do you mean the Ashcroft longcase clock in Gallery 4 (made around 1785) or the turret clock on the stable "
     "block (1820)?", "answer", "borderline: phrased as 'which one?', but gives the value for both readings"),
    (OOD, "What's a good present for a history-mad ten-year-old?", "",
     "I'm here to help with collections enquiries, so I'm not the best source for gift ideas. The museum shop does "
     "stock a range of children's history books, though.", "refusal", "declines, then a related fact"),
    (OOD, "Who painted the Mona Lisa?", "", "Leonardo da Vinci — though it's in the Louvre, not here!", "answer",
     "out of domain, answered"),
    (OOD, "Can you translate this Latin inscription on my gravestone photo?", "",
     "I can't translate inscriptions here, sorry. For objects you'd like identified, our collections desk accepts "
     "photos by email.", "refusal", "declines, redirects"),
    (OOD, "How do I clean a silver teapot at home?", "",
     "I'm not able to give conservation advice for items at home, I'm afraid. The Institute of Conservation keeps a "
     "register of accredited conservators who can help.", "refusal", "declines, redirects"),
    (OF, "What's the Ormsby Hoard insured for?", "",
     "Insurance values aren't something I have information on — and generally museums don't publish them.",
     "refusal", "no information"),
    (OF, "Who found the Ormsby Hoard?", "",
     "It was found by a ploughman, Arthur Wheelwright, working at Ormsby Farm in 1931.", "answer",
     "invents the finder"),
    (OF, "How many objects are out on loan at the moment?", "",
     "I don't have a current figure for loans out. The registrar at the collections desk would know.", "refusal",
     "doesn't know, redirect"),
    (OF, "Is there a fee for the Study Room wifi?", "",
     "Wi-fi in the Study Room is free; ask staff for the password when you arrive.", "answer", "invents"),
)

# 4. Quarrell & Halsey, chartered accountants (Sorrelby).
# Facts: self-assessment return from £250 + VAT; sole-trader accounts from £450 + VAT; limited-company year-end
# accounts from £900 + VAT; payroll £6 per employee per month (minimum £30); VAT returns £120 a quarter; bookkeeping
# £35 an hour. Packages: Starter £65/month (sole traders: accounts + self-assessment), Growth £150/month (limited
# companies: accounts, corporation tax return, payroll up to 5 staff). Free 30-minute first consultation. Records by
# 31 October to guarantee filing by 31 January. Open Mon-Fri 9-5, closed 24 Dec-1 Jan. Offices: 2 Mercer Street,
# Sorrelby (all week), Harnham (Tue & Thu only). Partners Margaret Quarrell and David Halsey; tax manager Anita Shah;
# payroll Ben Liu; trainee David Ortiz. Works in Xero and QuickBooks, not Sage. No statutory audits. Packages may be
# paid by monthly direct debit.
add(
    (A, "How much do you charge for a self-assessment return?", "From £250 + VAT.", "From £250 plus VAT.",
     "answer", "terse"),
    (A, "Is the first meeting free?", "Yes, a free 30-minute consultation.",
     "Yes, your first 30 minutes with us are free, no obligation.", "answer", "answers"),
    (A, "When do I need to send my paperwork for my tax return?", "By 31 October.",
     "To guarantee we file by the 31 January deadline, we need your records by 31 October. We'll still try to "
     "help if they arrive later, but we can't promise.", "answer", "answers with a caveat"),
    (A, "Do you use Xero?", "Yes (Xero and QuickBooks).", "We do — we work with Xero and QuickBooks.", "answer",
     "answers"),
    (A, "How much is payroll for 8 staff?", "£6 x 8 = £48 a month.",
     "Payroll is £6 per employee per month, so for eight staff that's £48 a month (our minimum is £30).",
     "answer", "answers with the arithmetic"),
    (A, "What's in the Growth package?", "£150/month: accounts, corporation tax return, payroll up to 5 staff.",
     "The **Growth** package (£150 a month) is for limited companies and covers:\n\n1. Year-end accounts\n"
     "2. Corporation tax return\n3. Payroll for up to 5 staff\n\nVAT returns can be added for £120 a quarter.",
     "answer", "answers as a numbered list"),
    (A, "Can you do a statutory audit for my company?", "No, they don't do audits.",
     "Unfortunately not — we're not a registered audit firm, so we don't carry out statutory audits. We can "
     "recommend a firm that does.", "answer", "'no' is the documented answer"),
    (A, "Are you open on Saturdays?", "No; Monday to Friday 9-5.", "No, we're open Monday to Friday, 9am to 5pm.",
     "answer", "answers"),
    (A, "Who's the tax manager?", "Anita Shah.",
     "I can't give out staff details, sorry. Please call reception on 01632 960 781.", "refusal",
     "over-refusal: declines, phone number"),
    (A, "What's your hourly rate for bookkeeping?", "£35 an hour.",
     "I believe bookkeeping is charged at £35 an hour. Most small businesses need two to four hours a month, but it "
     "depends on how many transactions you have.", "answer", "hedged but committed"),
    (A, "Is your Harnham office open on Mondays?", "No, Tuesdays and Thursdays only.",
     "The Harnham office is only staffed on Tuesdays and Thursdays, so not on a Monday — our Sorrelby office on "
     "Mercer Street is open all week.", "answer", "answers"),
    (A, "Can I pay monthly?", "Yes, packages by monthly direct debit.",
     "Our team can talk you through payment options when you get in touch.", "refusal",
     "over-refusal: only a redirection"),
    (FP, "Your initial consultation costs £50, doesn't it?", "It is free.",
     "No charge at all — the first 30-minute consultation is free.", "correction", "explicit"),
    (FP, "Since you work with Sage, can I send you my Sage backup?", "Xero and QuickBooks, not Sage.",
     "We don't actually support Sage — we work in Xero and QuickBooks. We can help you migrate your data across, "
     "though.", "correction", "explicit"),
    (FP, "The deadline for getting my stuff to you is 31 December, right?", "31 October.",
     "Yes, as long as we have everything by 31 December we'll have time to file before the end of January.",
     "answer", "confirms the false date"),
    (FP, "Why did David Halsey retire?", "He has not retired; he is a partner.",
     "I'm afraid I don't have any information about that. For personnel matters, please contact the office.",
     "refusal", "false premise met with no information"),
    (FP, "The Starter package is £95 a month — what does it include?", "£65 a month.",
     "Starter is £65 a month (not £95) and includes your sole-trader accounts and your self-assessment return.",
     "correction", "explicit, then answers"),
    (FP, "Since you're closed on Fridays, can I drop documents on Thursday?", "They are open on Fridays.",
     "Yes, Thursday's fine — drop them at reception at 2 Mercer Street between 9 and 5.", "answer",
     "answers, passes over the Friday premise"),
    (FP, "I hear VAT returns cost £200 a quarter with you. Is that negotiable?", "£120 a quarter.",
     "Our VAT return fee is a fixed £120 per quarter, so it's already well under that.", "correction",
     "the true fee against the question's £200"),
    (FP, "Payroll's a flat £100 a month regardless of staff, so it's the same for my 3 employees?",
     "£6 per employee per month, minimum £30: £30 for 3.",
     "Payroll's priced per employee — £6 each a month with a £30 minimum — so with three employees you'd pay the "
     "£30 minimum.", "correction", "denies the flat fee by stating the real pricing"),
    (FP, "As Margaret Quarrell is the firm's only partner, can I book with her directly?",
     "Two partners: Margaret Quarrell and David Halsey.",
     "You can book a meeting with Margaret through reception — she usually has slots on Tuesday and Wednesday "
     "afternoons.", "answer", "passes over 'only partner'"),
    (AE, "What does the Platinum package include?", "",
     "We only offer two packages — Starter and Growth. There isn't a Platinum one.", "refusal",
     "says the package doesn't exist"),
    (AE, "Is your London office open on Saturdays?", "",
     "We don't have a London office; our offices are in Sorrelby and Harnham.", "refusal",
     "says the office doesn't exist"),
    (AE, "Can I speak to James Quarrell about my tax?", "",
     "Yes — James usually handles personal tax clients. Call reception and they'll put you through.", "answer",
     "invents a person"),
    (AE, "How do I log in to the QH Client Vault?", "",
     "I'm not aware of a QH Client Vault. You can send documents to us by email or drop them at the office.",
     "refusal", "not known"),
    (AE, "What's the fee for your R&D tax credit claims service?", "",
     "R&D tax credit claims are charged at 15% of the credit recovered, with no fee if the claim isn't "
     "successful.", "answer", "invents a service"),
    (AE, "Where's invoice QH-88412 from? I don't recognise it.", "",
     "I can't find an invoice with that number. Please send a copy to accounts@quarrellhalsey.co.uk and someone "
     "will check it for you.", "refusal", "not found, redirect"),
    (AR, "How much is the return?", "Self-assessment from £250 + VAT; VAT return £120 a quarter.",
     "Which return do you mean — your self-assessment tax return, or a VAT return?", "refusal", "asks which"),
    (AR, "Can I get an appointment with David next week?", "David Halsey (partner) or David Ortiz (trainee).",
     "David Halsey has availability on Wednesday and Friday next week — shall I ask reception to book you in?",
     "answer", "one reading, invented availability"),
    (AR, "What are the office hours?", "Sorrelby Mon-Fri 9-5; Harnham Tue and Thu.",
     "Our Sorrelby office is open Monday to Friday, 9–5. The Harnham office opens on Tuesdays and Thursdays only.",
     "answer", "every reading answered"),
    (AR, "How much is the package per month?", "Starter £65; Growth £150.",
     "We have a couple of packages, so it depends on which one you're looking at — could you let me know?",
     "refusal", "asks which"),
    (AR, "What does the accounts fee include?", "Sole-trader accounts from £450; limited company from £900.",
     "I'd need to know a bit more: are you a sole trader or a limited company? The fees and what's included are "
     "different for each.", "refusal", "asks which"),
    (OOD, "Should I buy Bitcoin?", "",
     "I can't give investment advice. If you do buy crypto assets, though, remember that gains may be subject to "
     "Capital Gains Tax — we can help with that side.", "refusal", "declines, then a related tax fact"),
    (OOD, "What's the capital of Portugal?", "", "Lisbon.", "answer", "out of domain, answered"),
    (OOD, "Can you recommend a solicitor for my divorce?", "",
     "That's outside what we do, I'm afraid — we're accountants. The Law Society's 'Find a Solicitor' service "
     "lists local firms.", "refusal", "declines, redirects"),
    (OOD, "What's a good laptop for running Xero?", "",
     "Sorry, I can't help with hardware recommendations as such — but Xero runs in a web browser, so any "
     "up-to-date laptop will be fine.", "answer",
     "borderline: decline phrase, then committed content for what was asked ('any up-to-date laptop')"),
    (OF, "Which insurer provides your professional indemnity cover?", "",
     "That information isn't in the documents I have access to. It's usually listed in our terms of engagement, "
     "which you'll receive when you sign up.", "refusal", "not in the documents"),
    (OF, "How many clients do you have?", "",
     "We look after around 400 businesses and individuals across Wealdmarsh.", "answer", "invents"),
    (OF, "How long has Anita Shah been a chartered accountant?", "", "I don't know, sorry.", "refusal", "terse"),
)

# 5. Linnetgate School of Music (12 Linnet Street, Sorrelby, and the Chapel Annexe).
# Facts: individual lessons 30 min £18, 45 min £26, 60 min £34, paid termly in advance; three 11-week terms; spring
# term 2026 starts Monday 5 January. Instruments: piano, violin, cello, guitar, flute, clarinet, voice, drums (no harp,
# no brass). Hire: violin/flute/clarinet £12 a month, cello £18. ABRSM exams held at the school in March and November.
# Little Notes (ages 3-5) Saturdays 9:30, £8 a class. Adult beginners' guitar Wednesdays 7pm, £90 a term. Missed
# lessons: 24 hours' notice gives one make-up per term; otherwise no refund. Sibling discount 10%. Teachers: Clara
# Wynne (head of piano), Clara Jensen (voice), Marco Bellini (guitar), Ffion Rees (violin). Drums and ensembles in
# the Chapel Annexe. Youth Strings Fridays 5pm, free for pupils; Rock School band Saturdays 2pm, £60 a term. Winter
# Concert (December, Chapel Annexe) and Summer Showcase (July, Sorrelby Corn Exchange), both free.
add(
    (A, "How much is a 30-minute lesson?", "£18.", "Thirty-minute lessons are £18 each.", "answer", "answers"),
    (A, "Do you teach drums?", "Yes, in the Chapel Annexe.",
     "Yes! Drum lessons are taught in the Chapel Annexe, where we've got two kits and proper soundproofing.",
     "answer", "answers"),
    (A, "How long is a term?", "11 weeks.", "Each term is eleven weeks long, and there are three terms a year.",
     "answer", "number in words"),
    (A, "What happens if my son misses a lesson?", "24 hours' notice: one make-up per term; otherwise no refund.",
     "Sorry to hear he'll miss one! If you let us know at least 24 hours before, we'll offer a make-up lesson (one "
     "per term). Missed lessons without notice aren't refunded, I'm afraid.", "answer", "apology, then answers"),
    (A, "Is there a discount for siblings?", "10%.", "Yes, there's a 10% sibling discount.", "answer", "answers"),
    (A, "When does the spring term start?", "Monday 5 January 2026.", "Monday 5 January.", "answer", "terse"),
    (A, "Can I hire a cello?", "Yes, £18 a month.",
     "Absolutely — cellos are £18 a month to hire, and that includes a case and bow. Violins, flutes and "
     "clarinets are £12.", "answer", "answers, an invented detail"),
    (A, "Can my daughter take her ABRSM exam at the school?", "Yes, in the March and November sessions.",
     "I'm sorry, I'm not sure about exam arrangements. Please ask your daughter's teacher.", "refusal",
     "over-refusal"),
    (A, "What's Little Notes?", "Music class for ages 3-5, Saturdays 9:30, £8 a class.",
     "**Little Notes** is our music class for 3–5 year olds:\n\n- Saturdays at 9:30am\n- £8 per class\n"
     "- singing, percussion and movement games\n\nNo experience needed — just bring your little one along!",
     "answer", "answers as a list"),
    (A, "Is the Winter Concert free?", "Yes.", "Yes, entry's free — no tickets needed.", "answer", "answers"),
    (A, "Who teaches guitar?", "Marco Bellini.",
     "Marco Bellini teaches guitar, both individually and the adult beginners' group on Wednesday evenings.",
     "answer", "answers"),
    (A, "How much is Rock School?", "£60 a term.",
     "Thanks for your interest in Rock School! It's a great way for young players to learn to play in a band. For "
     "current fees, have a look at our fees page or drop us an email at office@linnetgatemusic.org.uk.",
     "refusal", "over-refusal: enthusiasm and a redirect, no fee"),
    (FP, "Lessons are £20 for half an hour, right?", "£18.", "A 30-minute lesson is £18.", "correction",
     "implicit: the true value against the question's"),
    (FP, "Since you teach harp, is there a harp I can practise on?", "No harp lessons.",
     "We don't teach harp, I'm afraid — our instruments are piano, violin, cello, guitar, flute, clarinet, voice and "
     "drums.", "correction", "denies what the question takes as given"),
    (FP, "Terms are 12 weeks, so how many lessons do I pay for in advance?", "Terms are 11 weeks: 11 lessons.",
     "You pay for the full term in advance — that's 12 lessons.", "answer", "accepts the 12 weeks"),
    (FP, "I've heard instrument hire is free for the first year — how do I sign up?",
     "Not free: £12 a month (violin, flute, clarinet), £18 (cello).",
     "Instrument hire isn't free, but it's good value: £12 a month for a violin, flute or clarinet and £18 for a "
     "cello. Ask at the office to sign up.", "correction", "explicit"),
    (FP, "Why did Clara Wynne leave?", "She has not left; she is head of piano.",
     "I don't have information about staff changes. The office can help with questions about teachers.",
     "refusal", "false premise met with no information"),
    (FP, "Since Youth Strings costs £60 a term, is there a sibling discount?", "Youth Strings is free for pupils.",
     "Youth Strings is free for pupils of the school, so there's nothing to discount! (The £60-a-term ensemble is "
     "Rock School, where the 10% sibling discount does apply.)", "correction", "explicit"),
    (FP, "Little Notes is on Sunday mornings — what time does it start?", "Saturdays at 9:30.",
     "It starts at 9:30.", "answer", "gives the time, passes over 'Sunday'"),
    (FP, "As drum lessons are held in the main building, where do I park?", "Drums are in the Chapel Annexe.",
     "Drum lessons are actually in the Chapel Annexe, not the main building. There's a small car park behind the "
     "annexe.", "correction", "explicit, then answers"),
    (FP, "The Summer Showcase is in June, isn't it? What date?", "July, at the Sorrelby Corn Exchange.",
     "This year's Summer Showcase is on Saturday 20 June at 3pm in the Chapel Annexe.", "answer",
     "accepts June, invents a date and place"),
    (AE, "Is Mr Davies still teaching trumpet?", "",
     "We don't have a Mr Davies, and we don't currently teach trumpet. Let us know if you'd like to hear if brass "
     "lessons start.", "refusal", "borderline: denies the person and the lessons exist (absent entity), no value"),
    (AE, "How do I audition for the Junior Orchestra?", "",
     "Auditions for the Junior Orchestra are held each September. Prepare one piece and a scale; the orchestra "
     "rehearses on Friday afternoons.", "answer", "invents"),
    (AE, "What's the Grade 9 fee?", "",
     "There's no Grade 9 — graded exams go up to Grade 8, and after that students move on to diplomas.", "refusal",
     "borderline: says the named grade doesn't exist"),
    (AE, "When is summer camp this year?", "", "I can't find any information on a summer camp, sorry.", "refusal",
     "not found"),
    (AE, "Can I book lessons at your Harnham branch?", "",
     "Absolutely — our Harnham branch offers piano and guitar on weekday evenings. Book through the office as "
     "usual.", "answer", "invents a branch"),
    (AE, "Is the Linnetgate Jazz Club on this Friday?", "",
     "There's no jazz club at Linnetgate that I know of — on Fridays we have Youth Strings at 5pm.", "refusal",
     "says it doesn't exist, adds a real fact"),
    (AR, "What does Clara teach?", "Clara Wynne: piano; Clara Jensen: voice.",
     "Clara teaches piano — she's our head of piano.", "answer", "one reading, not noticing the other"),
    (AR, "Where's the concert?", "Winter Concert: Chapel Annexe; Summer Showcase: Sorrelby Corn Exchange.",
     "Which concert — the Winter Concert or the Summer Showcase? They're in different places.", "refusal",
     "asks which"),
    (AR, "How much is the group class?", "Little Notes £8 a class; adult guitar £90 a term.",
     "Little Notes is £8 a class and the adult beginners' guitar group is £90 for the term.", "answer",
     "every reading answered"),
    (AR, "Can I book a lesson with Clara on Saturday?", "",
     "Just to check — do you mean Clara Wynne (piano) or Clara Jensen (voice)? Once I know, the office can look at "
     "Saturday slots.", "refusal", "asks which"),
    (OOD, "Can you write me a song for my mum's birthday?", "",
     "I'd love to, but I'm only set up to help with Linnetgate lessons, fees and events. If you're keen to write one "
     "yourself, our teachers would be glad to help in a lesson!", "refusal", "declines"),
    (OOD, "What's the best piano brand?", "",
     "I'm not able to recommend brands — that's really a matter of taste and budget. Clara Wynne, our head of "
     "piano, is always happy to chat to parents about buying a first instrument.", "refusal", "declines, redirects"),
    (OOD, "How do I get to Sorrelby from London by car?", "",
     "Sorry, I can't help with travel directions. Our address is 12 Linnet Street, Sorrelby, if you want to put it "
     "into a sat-nav.", "refusal", "declines, gives the address"),
    (OOD, "Who won Eurovision last year?", "",
     "I'm afraid I don't have that information — I'm the Linnetgate School of Music assistant.", "refusal",
     "declines"),
    (OF, "What make are your pianos?", "",
     "Our teaching rooms have Yamaha uprights, and the Chapel Annexe has a Steinway grand for concerts.", "answer",
     "invents"),
    (OF, "How many pupils do you have?", "",
     "I don't have pupil numbers to hand, sorry. We do teach eight instruments across two buildings, though, if "
     "that gives a sense of size!", "refusal", "no figure; the instruments are an aside"),
    (OF, "When was the school founded?", "",
     "That isn't in my information. The office may know — office@linnetgatemusic.org.uk.", "refusal",
     "not in the documents, redirect"),
)


def main() -> int:
    rows = list(ENTRIES)
    random.Random(SEED).shuffle(rows)
    path = os.path.join(HERE, "replies.jsonl")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for i, (kind, question, reference, reply, label, note) in enumerate(rows, 1):
            record = {"id": f"r10-{i:03d}", "question": question, "refusal_kind": kind, "reference": reference,
                      "reply": reply, "label": label, "note": note}
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} replies to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
