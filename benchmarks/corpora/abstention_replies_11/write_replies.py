"""Writes replies.jsonl for blind sample 11 (issue 26): 200 replies a RAG assistant might give, each labelled by hand.

Every question, reference, reply, label and note below was written by hand (helper 97) under RULE.md, which was
committed alone before any of them. The facts each reply is judged against are in the comment above each domain's
block. The entries are shuffled with a fixed seed so that an id reveals neither kind nor label, then numbered
r11-001 ... r11-200. Standard library only:  python3 write_replies.py
"""
from __future__ import annotations

import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))


def E(kind: str, question: str, reference: str, reply: str, label: str, note: str) -> dict:
    """One hand-written record; kind is "" for an answerable question."""
    return {"question": question, "refusal_kind": kind, "reference": reference, "reply": reply, "label": label,
            "note": note}


# ---- 1. Highcombe Lido ----------------------------------------------------------------------------------------------
# Facts: outdoor 50 m pool heated to 24°C, open 1 May - 30 September; unheated winter dips Sundays 8-11am Oct-Apr.
# Hours (season): Mon-Fri 6:30am-8pm, Sat-Sun 8am-6pm. Lane swimming weekdays 6:30-9am. Sessions 55 min, booked
# online. Prices: adult £6.20, concession (65+, students) £4.10, child 4-15 £3.10, under 4 free; 10-swim card £52;
# adult season ticket £145. Two pools: the main pool (1 m to 2.2 m, no diving boards since 2016) and the Paddler
# (children's splash pool, 0.4 m, under-8s only). Children under 8 must have an adult in the water with them.
# Wood-fired sauna: £4 add-on, 30-min slots, 16+. Café: Lido Kitchen, opens 8am. Lessons: Splash Stages, Saturdays,
# £72 for 8 weeks. Lockers: 20p refundable. Manager: Helen Brack. No car park (Fore Street car park, 5 min walk).
# No dogs (assistance dogs only) except the Dog Day Swim on the last day of the season. Opened 1937, restored 2016.
D1 = [
    E("", "What time does the lido open on Saturdays?", "8am (weekends 8am-6pm).",
      "8am on Saturdays.", "answer", "terse answer"),
    E("", "How much is an adult swim?", "£6.20.",
      "An adult swim costs **£6.20** for a 55-minute session. Concessions (over-65s and students) pay £4.10, "
      "children aged 4–15 £3.10, and under-4s swim free.", "answer", "answers with the other prices"),
    E("", "Is the pool heated?", "Yes, to 24°C during the season (1 May - 30 Sept).",
      "Yes! During the main season (1 May to 30 September) the pool is heated to around twenty-four degrees. "
      "Our winter Sunday dips are unheated, so wrap up warm if you're joining those.", "answer",
      "answers, number in words"),
    E("", "Do I need to book or can I just turn up?", "Sessions are booked online (55-minute sessions).",
      "Sessions are bookable online and we'd recommend booking, especially on sunny weekends when they sell out. "
      "If there's space you may be able to pay at the door, but I can't guarantee that.", "answer",
      "answers (book online) with a hedged extra"),
    E("", "Can I bring my dog?", "No, only assistance dogs, except at the Dog Day Swim on the last day of the season.",
      "I'm afraid dogs aren't allowed at the lido, apart from assistance dogs. The one exception is our **Dog Day "
      "Swim** on the last day of the season, when dogs get the pool to themselves before it's drained!",
      "answer", "'I'm afraid' then a committed no"),
    E("", "How much is the sauna?", "£4 on top of a swim, 30-minute slots, 16+.",
      "The wood-fired sauna is a £4 add-on to your swim ticket. Slots last 30 minutes and it's for over-16s only.",
      "answer", "answers"),
    E("", "When does the café open?", "Lido Kitchen opens at 8am.",
      "Sorry, I don't have details of the café's hours. You could check with the Lido Kitchen directly.",
      "refusal", "over-refuses a documented fact"),
    E("", "Who is the lido manager?", "Helen Brack.",
      "The lido is managed by Helen Brack. If you'd like to contact her, the front desk can pass on a message.",
      "answer", "answers"),
    E("", "Is there parking?", "No car park; nearest is Fore Street car park, 5 minutes' walk.",
      "There's no car park at the lido itself, but Fore Street car park is about a five-minute walk away.",
      "answer", "answers"),
    E("", "How old do kids have to be to swim without an adult?", "8 and over; under-8s need an adult in the water.",
      "Children under 8 need an adult in the water with them at all times. From 8 upwards they can swim on their "
      "own, though our lifeguards may ask weaker swimmers to stay in the shallower end.", "answer", "answers"),
    E("", "What do the Saturday swimming lessons cost?", "Splash Stages: £72 for 8 weeks.",
      "Our Splash Stages lessons run on Saturdays and cost £72 for a block of 8 weeks (that works out at £9 a "
      "lesson).", "answer", "answers with arithmetic"),
    E("", "Is there a season ticket?", "Yes, adult season ticket £145.",
      "For anything to do with season tickets, please call the lido office during opening hours — they'll be "
      "able to help.", "refusal", "bare redirection to a phone line"),
    # false premises
    E("false_premise", "Since an adult swim is £7.50 now, is the 10-swim card better value?",
      "An adult swim is £6.20; the 10-swim card is £52.",
      "Just to check — an adult swim is actually £6.20, not £7.50. The 10-swim card is £52, so it still saves you "
      "£10 over ten single swims.", "correction", "explicit correction, then answers"),
    E("false_premise", "Why did you get rid of the sauna?", "The wood-fired sauna is open (£4 add-on).",
      "We haven't — the wood-fired sauna is still going strong! It's £4 on top of your swim, in 30-minute slots.",
      "correction", "states the sauna still exists"),
    E("false_premise", "The lido's open all year round, isn't it? I want to swim on Boxing Day.",
      "The heated season is 1 May - 30 Sept; in winter only Sunday unheated dips 8-11am.",
      "The main season runs from 1 May to 30 September. Outside that we only open for unheated winter dips on "
      "Sunday mornings, 8–11am — Boxing Day this year falls on a Saturday, so we'd be closed.", "correction",
      "implicit: gives the season, contradicting 'all year'"),
    E("false_premise", "How deep is the diving end? I want to use the top board.",
      "There are no diving boards (removed in the 2016 restoration); max depth 2.2 m.",
      "The deep end is 2.2 metres. The top board is open whenever a lifeguard is stationed at it, usually from "
      "midday.", "answer", "accepts the diving board premise, invents"),
    E("false_premise", "Under-fives swim free, right?", "Under-fours swim free; 4-15s pay £3.10.",
      "Nearly — it's under-4s who swim free. Once your child turns 4 it's £3.10 for a child swim.", "correction",
      "'nearly' then the true age"),
    E("false_premise", "My 10-year-old wants to use the Paddler with her little brother, is there a time slot for "
      "that?", "The Paddler is for under-8s only.",
      "The Paddler is open during all our sessions, so your daughter and her brother can use it whenever you've "
      "booked a swim. Please keep an eye on them as it's shallow.", "answer",
      "answers without noticing the under-8 rule"),
    E("false_premise", "When did the lido first open in 1952?", "It opened in 1937.",
      "Highcombe Lido actually opened in 1937 — it was restored and reopened in 2016.", "correction",
      "states the true year"),
    E("false_premise", "Why were the lockers made free?", "Lockers take a refundable 20p.",
      "I don't have any information about a change to the lockers, sorry.", "refusal",
      "'no information' to a false premise"),
    E("false_premise", "Lane swimming is in the evenings, isn't it? What time exactly?",
      "Lane swimming is weekday mornings 6:30-9am.",
      "Lane swimming runs on weekday mornings from 6:30 to 9am.", "correction",
      "implicit: gives mornings, contradicting evenings"),
    E("false_premise", "Since Dave Fenwick took over as manager, have the prices changed?",
      "The manager is Helen Brack.",
      "I'm not aware of any price changes recently. Current prices are adult £6.20, concession £4.10, child £3.10.",
      "answer", "ignores the wrong manager, answers the price question"),
    # absent entities
    E("absent_entity", "What time does the lido gym open?", "",
      "Highcombe Lido doesn't have a gym — we're a pool, sauna and café. Our pool opens at 6:30am on weekdays.",
      "refusal", "says the gym doesn't exist, adds the pool's hours"),
    E("absent_entity", "How much is the aqua-zumba class on Wednesdays?", "",
      "Aqua-zumba on Wednesdays is £7.50 per class, or £6 with a season ticket.", "answer", "invents a class"),
    E("absent_entity", "Can I book the Rosemary Room for a party?", "",
      "I can't find a Rosemary Room at the lido. I'm sorry I can't help with that.", "refusal",
      "cannot find the room"),
    E("absent_entity", "What's included in the Gold membership?", "",
      "We don't offer a Gold membership. The closest thing is our adult season ticket at £145, which covers "
      "unlimited swims during the season.", "refusal", "says it doesn't exist, offers a neighbour"),
    E("absent_entity", "Is the lido's second pool at Marsh Lane open yet?", "",
      "I'm sorry, I don't have information about a Marsh Lane pool.", "refusal", "no information"),
    E("absent_entity", "Does the outdoor hot tub have a time limit?", "",
      "Yes, hot tub sessions are limited to 20 minutes so that everyone gets a turn, and it's over-16s only.",
      "answer", "invents a hot tub rule"),
    # ambiguous references
    E("ambiguous_reference", "How deep is the pool?", "Main pool 1 m to 2.2 m; the Paddler 0.4 m.",
      "Do you mean the main pool or the Paddler, our children's splash pool?", "refusal", "asks which"),
    E("ambiguous_reference", "How deep is the pool at the shallow end?", "Main pool: 1 m; the Paddler is 0.4 m.",
      "The main pool is 1 metre at the shallow end, going down to 2.2 metres. (The Paddler for under-8s is just "
      "40 cm throughout.)", "answer", "answers both readings"),
    E("ambiguous_reference", "How much is the ticket?", "Single adult £6.20; 10-swim card £52; season £145.",
      "Which ticket are you asking about — a single swim, the 10-swim card or the season ticket? Let me know and "
      "I'll give you the price.", "refusal", "asks which"),
    E("ambiguous_reference", "What time is the early session?",
      "Lane swimming weekdays 6:30-9am; winter dips Sundays 8am.",
      "The early lane swimming session is 6:30–9am, Monday to Friday.", "answer", "one reading answered"),
    E("ambiguous_reference", "How long is a slot?", "A swim session is 55 minutes; a sauna slot is 30 minutes.",
      "Do you mean a swim session or a sauna slot? They're different lengths, so let me know which one you're "
      "booking.", "refusal", "asks which, gives no length"),
    # out of domain
    E("out_of_domain", "What's the world record for the 50m freestyle?", "",
      "That's outside what I can help with — I'm here for questions about Highcombe Lido. Fancy a 50 m swim of your "
      "own? Our main pool is exactly that length.", "refusal", "declines, adds a lido fact"),
    E("out_of_domain", "Is cold-water swimming good for depression?", "",
      "I'm not able to give medical advice. If you're thinking of trying cold-water swimming for your wellbeing, "
      "it's worth speaking to your GP first.", "refusal", "declines, redirects to GP"),
    E("out_of_domain", "What's the weather going to be like on Saturday?", "",
      "I don't have access to weather forecasts, sorry! The Met Office website is the best place to check.",
      "refusal", "declines"),
    E("out_of_domain", "How many calories does an hour of breaststroke burn?", "",
      "Roughly 400–600 calories an hour for an average adult, depending on your pace and weight.", "answer",
      "answers from general knowledge"),
    # omitted facts
    E("omitted_fact", "Is the water chlorinated or salt?", "",
      "I don't have details of how the pool water is treated. The duty manager on site will be able to tell you.",
      "refusal", "not documented, redirects"),
    E("omitted_fact", "Can I use a snorkel in the main pool?", "",
      "Hmm, good question! There's nothing in our pool rules about snorkels, so I can't say for certain — please ask "
      "a lifeguard when you arrive.", "refusal", "can't say, redirects"),
    E("omitted_fact", "Are the changing rooms mixed?", "",
      "Yes, we have a village-style mixed changing area with private cubicles, plus separate family cubicles.",
      "answer", "invents changing arrangements"),
    E("omitted_fact", "Is there a hairdryer in the changing rooms?", "",
      "I'm sorry, I don't know whether there are hairdryers. Lockers are 20p (refundable), if that helps.",
      "refusal", "doesn't know, adds a neighbouring fact"),
]


# ---- 2. Gorsebrook Farm veg boxes -----------------------------------------------------------------------------------
# Facts: organic (Soil Association certified since 2009), 40 acres near Lowmere, run by Tamsin and Owen Gorse
# (sister and brother).
# Boxes: Small £14.50 (1-2 people), Medium £19.75, Large £26; Fruit box £12. Delivery £1.50, free on orders over £30.
# Delivery days by area: Tuesday (Highcombe town), Thursday (villages), Friday (Lowmere). Order/change cut-off:
# midnight two days before delivery. Card charged the day after cut-off. Pause up to 6 weeks at a time online.
# Up to 3 "never send" items. Boxes collected back at the next delivery. Extras: half-dozen eggs £2.60, sourdough
# £4.20 (from Lowmere Bakehouse). No meat, no dairy. Farm shop Saturdays 9am-1pm; market stall at Lowmere market
# Wednesdays 8am-2pm. Cancel any time before cut-off, no fee.
D2 = [
    E("", "How much is a medium box?", "£19.75.",
      "£19.75", "answer", "bare value"),
    E("", "What day do you deliver to the villages?", "Thursday.",
      "Village deliveries go out on **Thursdays**. (Highcombe town is Tuesday and Lowmere is Friday.)",
      "answer", "answers"),
    E("", "When's the deadline to change my order?", "Midnight two days before delivery.",
      "You can change or skip your order up until midnight two days before your delivery day — so for a Thursday "
      "delivery, that's midnight on Tuesday.", "answer", "answers with an example"),
    E("", "Is the veg organic?", "Yes, Soil Association certified since 2009.",
      "Yes, everything we grow is certified organic by the Soil Association — we've been certified since 2009.",
      "answer", "answers"),
    E("", "Can I stop my box while I'm on holiday?", "Yes, pause up to 6 weeks at a time in your account.",
      "Of course. You can pause deliveries for up to six weeks at a time from your online account. If you're away "
      "longer, just pause again when the first pause ends.", "answer", "answers"),
    E("", "Is there a delivery charge?", "£1.50, free on orders over £30.",
      "Delivery is £1.50, but it's free on orders over £30.", "answer", "answers"),
    E("", "Can I tell you veg I don't like?", "Yes, up to 3 'never send' items.",
      "Unfortunately we can't tailor boxes to individual tastes, as the contents depend on what's ready to harvest "
      "each week.", "answer",
      "committed (wrong) no: up to 3 'never send' items are documented"),
    E("", "Do you sell eggs?", "Yes, half-dozen eggs £2.60 as an extra.",
      "We do — you can add half a dozen free-range eggs to any box for £2.60.", "answer", "answers"),
    E("", "Who runs the farm?", "Tamsin and Owen Gorse.",
      "Gorsebrook is a family farm run by Tamsin and Owen Gorse on 40 acres just outside Lowmere.", "answer",
      "answers"),
    E("", "When is my card charged?", "The day after the order cut-off.",
      "Your card is charged the day after the order cut-off, so any changes you make before then are reflected in "
      "what you pay.", "answer", "answers"),
    E("", "What happens to the cardboard boxes?", "Collected at the next delivery.",
      "Please leave your empty box out on your next delivery day and our driver will take it back for reuse. "
      "♻️", "answer", "answers"),
    E("", "Can I cancel my subscription, and is there a fee?", "Cancel any time before cut-off, no fee.",
      "I'm not able to process cancellations. Please email the farm office and someone will get back to you.",
      "refusal", "decline + redirection; no value"),
    # false premises
    E("false_premise", "The small box is £16 a week, right?", "The small box is £14.50.",
      "The small box is £14.50 a week, and it's sized for one or two people.", "correction",
      "implicit: gives £14.50 for the same box"),
    E("false_premise", "Why have you stopped delivering to Lowmere?", "Lowmere is delivered on Fridays.",
      "We haven't stopped — Lowmere deliveries still go out every Friday. If yours hasn't arrived, please check "
      "your account hasn't been paused.", "correction", "states Lowmere is still delivered"),
    E("false_premise", "How do I add a pint of milk to my Tuesday box?",
      "No dairy is sold; only eggs and sourdough extras.",
      "Go to 'My box' in your account, choose 'Add extras' and pick milk from the list before the cut-off.",
      "answer", "answers the how-to, accepts the premise"),
    E("false_premise", "Since delivery's free over £20, should I add a fruit box to my small box?",
      "Delivery is free over £30 (small + fruit = £26.50, so it would still cost £1.50).",
      "Free delivery actually starts at £30, not £20. A small box plus a fruit box comes to £26.50, so you'd "
      "still pay the £1.50 delivery charge.", "correction", "corrects the threshold"),
    E("false_premise", "I know the farm's not organic any more — when did you lose certification?",
      "The farm is still Soil Association certified (since 2009).",
      "I can't find anything about that in our information, I'm afraid.", "refusal", "'can't find' to a false premise"),
    E("false_premise", "My neighbour says you only let you pause for two weeks, is that right?",
      "Pauses can be up to 6 weeks at a time.",
      "No — you can pause for up to six weeks at a time.", "correction", "'No' plus the true value"),
    E("false_premise", "Which bakery makes the rye bread you sell?",
      "The only bread is sourdough, from Lowmere Bakehouse.",
      "Our bread comes from Lowmere Bakehouse, just down the road.", "answer",
      "names the bakery, doesn't notice rye isn't sold"),
    E("false_premise", "What time does the farm shop open on Sundays?", "The farm shop opens Saturdays 9am-1pm only.",
      "The farm shop is only open on Saturdays, from 9am to 1pm — it's closed on Sundays.", "correction",
      "states Sunday isn't an opening day"),
    E("false_premise", "Owen Gorse's daughter Tamsin — does she still do the deliveries?",
      "Tamsin is Owen's sister, not his daughter; they run the farm together.",
      "Tamsin mostly looks after the growing these days, so deliveries are done by our van drivers.",
      "answer", "accepts 'daughter', invents roles"),
    E("false_premise", "Why do you charge a £5 deposit for the boxes?",
      "No deposit; boxes are collected at the next delivery.",
      "There's no deposit on our boxes — we simply collect the empty one when we drop off your next delivery.",
      "correction", "states there is no deposit"),
    # absent entities
    E("absent_entity", "What's in the Family XL box this week?", "",
      "We don't have a Family XL box. Our largest is the Large box at £26.", "refusal", "says it doesn't exist"),
    E("absent_entity", "How do I order from the Gorsebrook butcher's counter?", "",
      "Our meat is available as an add-on: choose 'Butcher's counter' under Extras and pick from this week's "
      "cuts.", "answer", "invents a butcher's counter"),
    E("absent_entity", "Is the Gorsebrook café dog-friendly?", "",
      "I'm sorry, I don't have any information about a café.", "refusal", "no information"),
    E("absent_entity", "Can I collect my box from the Highcombe pickup point?", "",
      "There isn't a pickup point in Highcombe — boxes are delivered to your door, and Highcombe town deliveries "
      "are on Tuesdays.", "refusal", "says the pickup point doesn't exist"),
    E("absent_entity", "How much does the juice box cost?", "",
      "The Fruit box is £12 a week — a mix of whatever seasonal organic fruit is best that week.", "answer",
      "answers about a different product (Fruit box) as if it were the one asked about"),
    E("absent_entity", "What's the Gorsebrook loyalty points scheme worth?", "",
      "Every £1 you spend earns one Gorsebrook point, and 100 points gets you £5 off a box.", "answer",
      "invents a loyalty scheme"),
    # ambiguous
    E("ambiguous_reference", "How much is the box?", "Small £14.50, Medium £19.75, Large £26, Fruit £12.",
      "Our boxes are:\n\n| Box | Price |\n|---|---|\n| Small | £14.50 |\n| Medium | £19.75 |\n| Large | £26.00 |\n"
      "| Fruit | £12.00 |", "answer", "answers every reading in a table"),
    E("ambiguous_reference", "What time do you open on Wednesday?",
      "Market stall Wednesdays 8am-2pm; farm shop is Saturday only.",
      "Could you let me know whether you mean our farm shop or our stall at Lowmere market?", "refusal",
      "asks which"),
    E("ambiguous_reference", "When's the delivery day?", "Tuesday (town), Thursday (villages), Friday (Lowmere).",
      "It depends on where you live! Tell me your postcode and I'll let you know your delivery day.", "refusal",
      "asks for more information, no value"),
    E("ambiguous_reference", "What time does it close?", "Farm shop 1pm (Saturdays); market stall 2pm (Wednesdays).",
      "The farm shop closes at 1pm on Saturdays.", "answer", "one reading (shop, not stall) answered"),
    E("ambiguous_reference", "Is Gorse at the market on Wednesdays?", "Tamsin or Owen Gorse; no rota is documented.",
      "Do you mean Tamsin or Owen? I don't have a rota for who runs the stall, I'm afraid — the stall itself is "
      "open 8am–2pm on Wednesdays.", "refusal", "asks which, no rota; the stall hours are a neighbouring fact"),
    # out of domain
    E("out_of_domain", "How do I make sourdough starter?", "",
      "I'm the Gorsebrook Farm assistant, so I can only help with your veg box orders. You can add a sourdough loaf "
      "from Lowmere Bakehouse to your box for £4.20, though!", "refusal", "declines, adds a product"),
    E("out_of_domain", "Is a vegan diet healthier than eating meat?", "",
      "That's a big question, and not one I can answer — it's really one for a doctor or dietitian.", "refusal",
      "declines"),
    E("out_of_domain", "When should I plant garlic in my garden?", "",
      "Garlic is usually planted in autumn, October to November, so it gets a cold spell over winter. Harvest is "
      "the following June or July.", "answer", "answers from general knowledge"),
    E("out_of_domain", "What's the VAT rate on food in the UK?", "",
      "Sorry, I can't help with tax questions.", "refusal", "declines"),
    # omitted facts
    E("omitted_fact", "Do you deliver to Ashby Cross?", "",
      "I can't see Ashby Cross in our delivery areas list. The best thing is to pop your postcode into the "
      "checker on our website.", "refusal", "can't see it, redirects"),
    E("omitted_fact", "What time of day does the van usually come?", "",
      "Deliveries usually arrive between 7am and 1pm on your delivery day.", "answer", "invents a window"),
    E("omitted_fact", "Are your eggs organic too?", "",
      "I'm not certain whether the eggs carry organic certification — our veg does, but I'd need to check on the "
      "eggs. Please ask the farm office.", "refusal", "says not certain about the eggs"),
    E("omitted_fact", "Can I pay by direct debit?", "",
      "We take payment by card, charged the day after the cut-off. I don't have information on direct debit.",
      "refusal", "neighbouring fact, no answer to direct debit"),
]


# ---- 3. Tidewell Self Storage ---------------------------------------------------------------------------------------
# Facts: three sites - Tidewell Quay, Tidewell Northgate, Tidewell Airport Road (drive-up units). Prices per 4 weeks
# (all sites): 25 sq ft £52, 50 sq ft £89, 100 sq ft £149, 200 sq ft £259. New customers: 50% off the first 4 weeks.
# Minimum let 2 weeks; 7 days' notice to leave. Deposit = 2 weeks' rent. Access 6am-10pm daily by PIN; offices
# Mon-Fri 9am-5:30pm, Sat 9am-4pm, closed Sunday. Insurance required: goods cover £2.40 a week per £1,000, or your
# own policy with proof. Prohibited: food, flammables, gas bottles, live animals, firearms, waste. Disc lock £12.99.
# Free move-in van (Ford Transit, within 10 miles) at Quay only. Climate-controlled units (wine) at Northgate only.
# Business deliveries accepted at Quay and Northgate. Quay manager: Darren Poole. 24h CCTV. No electricity in units.
D3 = [
    E("", "How much is a 50 square foot unit?", "£89 per 4 weeks.",
      "A 50 sq ft unit is £89 every four weeks. New customers get 50% off their first four weeks, so your first "
      "payment would be £44.50.", "answer", "answers with the offer"),
    E("", "What are the access hours?", "6am-10pm every day, by PIN.",
      "You can get into your unit any day of the week between 6am and 10pm using your personal PIN.", "answer",
      "answers"),
    E("", "Is the office open on Sunday?", "No; offices are closed on Sunday.",
      "No, our offices are closed on Sundays — but you can still access your unit 6am–10pm with your PIN.",
      "answer", "committed no"),
    E("", "Do I have to have insurance?", "Yes: Tidewell goods cover (£2.40/week per £1,000) or own policy with proof.",
      "Yes, your goods must be insured. You can take our cover at £2.40 a week for every £1,000 of value, or use "
      "your own policy if you can show us proof.", "answer", "answers"),
    E("", "Can I store a gas barbecue bottle?", "No, gas bottles are prohibited.",
      "I'm afraid not. Gas bottles are on our prohibited list, along with flammables, food, live animals, firearms "
      "and waste.", "answer", "committed no with the list"),
    E("", "How much notice do I need to give when I move out?", "7 days.",
      "Seven days.", "answer", "terse, number in words"),
    E("", "Is there a minimum term?", "2 weeks.",
      "The minimum let is two weeks. After that you can stay as long as you like and leave on seven days' notice.",
      "answer", "answers"),
    E("", "Which site has climate-controlled units for wine?", "Northgate only.",
      "I'm sorry, I can't advise on storing wine. Please contact your nearest store.", "refusal",
      "over-refuses; answer is Northgate"),
    E("", "Do you lend a van for moving in?", "Free Ford Transit at Quay only, within 10 miles.",
      "Yes — if you're moving into our **Quay** store we'll lend you a Ford Transit free of charge for your "
      "move-in, as long as you're within 10 miles. The other sites don't offer the van.", "answer", "answers"),
    E("", "Is there a deposit?", "Yes, two weeks' rent.",
      "There is — it's equal to two weeks' rent and it's refunded when you leave, provided the unit's left empty "
      "and clean.", "answer", "answers (refund condition is an embellishment)"),
    E("", "Can I plug in a fridge in my unit?", "No electricity in units.",
      "Units don't have electricity, so no, sorry! (Food isn't allowed in storage anyway.)", "answer",
      "committed no"),
    E("", "Who's the manager at the Quay?", "Darren Poole.",
      "Hi! For store staff details please speak to the team at reception — they'll be glad to help.",
      "refusal", "redirects only"),
    # false premises
    E("false_premise", "As the offices are open until 8pm, can I sign my contract after work on Thursday?",
      "Offices close at 5:30pm Mon-Fri (Sat 4pm).",
      "Our offices close at 5:30pm on weekdays, so you'd need to come before then — or on Saturday between 9am "
      "and 4pm.", "correction", "gives the true hours, contradicting 8pm"),
    E("false_premise", "Why does Airport Road not have drive-up units?", "Airport Road does have drive-up units.",
      "Airport Road is actually our site *with* drive-up units — you can park right outside your door.",
      "correction", "states the opposite"),
    E("false_premise", "The new-customer discount is 25% off for three months, isn't it?",
      "It is 50% off the first 4 weeks.",
      "It's 50% off, for your first four weeks.", "correction", "implicit: true value of the same offer"),
    E("false_premise", "How do I book the free van at the Northgate store?", "The free van is offered at Quay only.",
      "You can book the van by calling the Northgate office at least 48 hours before your move.", "answer",
      "accepts the premise, invents booking"),
    E("false_premise", "I'm storing my late mum's furniture and some tinned food — what's the best size unit for a "
      "one-bed flat?",
      "Food (tinned included) is prohibited; a one-bed flat usually suits 50-100 sq ft (not documented).",
      "I'm sorry for your loss. For a one-bedroom flat most people choose a 50 or 100 sq ft unit (£89 or £149 per "
      "four weeks).", "answer", "answers, ignores the food rule"),
    E("false_premise", "Since the 200 sq ft unit is £199, what's the monthly cost with insurance for £5,000?",
      "A 200 sq ft unit is £259 per 4 weeks; insurance for £5,000 is £12 a week (£48 per 4 weeks).",
      "Let me work that out:\n\n- 200 sq ft unit: £259 per 4 weeks (not £199)\n- Insurance for £5,000: 5 × £2.40 = "
      "£12 a week, so £48 per 4 weeks\n\n**Total: £307 every 4 weeks.**", "correction",
      "corrects the price inside a list, then answers"),
    E("false_premise", "When did Tidewell stop the CCTV?", "There is 24-hour CCTV at every site.",
      "Hmm, I don't have anything on that. Is there something else I can help with?", "refusal", "no information"),
    E("false_premise", "Do I really have to give a month's notice?", "Notice is 7 days.",
      "No — just seven days' notice is needed.", "correction", "'No' + true value"),
    E("false_premise", "My disc lock from you cost £25 — can I get a spare key?", "Disc locks cost £12.99.",
      "Spare keys for our disc locks aren't available, for security reasons — if you lose your key we'll cut the "
      "lock off (with ID) and you can buy a new one.", "answer", "answers, ignores the price"),
    E("false_premise", "Why is the Quay store only open weekdays for access?",
      "Access is 6am-10pm every day at every site.",
      "All our stores, including the Quay, give you access seven days a week from 6am to 10pm.", "correction",
      "gives every-day access"),
    # absent entities
    E("absent_entity", "What's the phone number for Tidewell Harbourside?", "",
      "Tidewell Harbourside: 01632 960 448, open Mon–Fri 9–5:30.", "answer", "invents a site and number"),
    E("absent_entity", "How much is the 500 sq ft warehouse unit?", "",
      "Our largest unit is 200 sq ft (£259 per 4 weeks); we don't have a 500 sq ft unit.", "refusal",
      "says it doesn't exist"),
    E("absent_entity", "Is the Tidewell Premium Vault fireproof?", "",
      "I can't find any information about a Premium Vault, sorry.", "refusal", "can't find"),
    E("absent_entity", "Can Sandra at Northgate sign for my parcels?", "",
      "I don't have a record of a Sandra at Northgate. Business deliveries can be accepted at Northgate and the "
      "Quay, so the team there can sign for you.", "refusal",
      "no such person; adds the neighbouring delivery fact"),
    E("absent_entity", "How do I use the Tidewell app to open the gate?", "",
      "Open the Tidewell app, tap 'My unit', then 'Open gate' when you're within 50 metres. Your PIN still works "
      "as a backup.", "answer", "invents an app"),
    E("absent_entity", "What size are the boat storage bays?", "",
      "We don't offer boat storage. Our units range from 25 to 200 sq ft.", "refusal", "says not offered"),
    # ambiguous
    E("ambiguous_reference", "What time does Tidewell open on Saturday?", "Office 9am-4pm Sat; unit access 6am-10pm.",
      "On Saturdays the office is open 9am–4pm, and you can access your unit from 6am to 10pm with your PIN.",
      "answer", "answers both readings"),
    E("ambiguous_reference", "Is the Tidewell store near the station?", "Three stores: Quay, Northgate, Airport Road.",
      "We have three stores — Quay, Northgate and Airport Road. Which station do you mean? I'll tell you which is "
      "closest.", "refusal", "asks which"),
    E("ambiguous_reference", "Can I get deliveries sent to the store?",
      "Quay and Northgate accept business deliveries; Airport Road doesn't.",
      "Yes, we accept deliveries for business customers.", "answer", "answers without the site distinction"),
    E("ambiguous_reference", "What's the address of the store?", "Three stores.",
      "Which store would you like — Quay, Northgate or Airport Road?", "refusal", "asks which"),
    E("ambiguous_reference", "How much is the small unit?", "25 sq ft £52 or 50 sq ft £89 per 4 weeks.",
      "Our two smaller sizes are 25 sq ft at £52 and 50 sq ft at £89, both per four weeks.", "answer",
      "answers both readings of 'small'"),
    # out of domain
    E("out_of_domain", "How do I get a removal company to do a quote?", "",
      "I'm not able to recommend removal companies, sorry. If it helps, our Quay store lends a free van for moving "
      "in, within ten miles.", "refusal", "declines, adds a fact"),
    E("out_of_domain", "What's the best way to pack china so it doesn't break?", "",
      "Wrap each piece individually in packing paper, stand plates on their edges rather than flat, fill gaps with "
      "scrunched paper, and label the box FRAGILE. Heavier items go at the bottom.", "answer",
      "general packing advice"),
    E("out_of_domain", "Can my landlord keep my deposit for a stain on the carpet?", "",
      "That's a legal question I can't help with — Citizens Advice would be a good place to start.", "refusal",
      "declines, redirects"),
    E("out_of_domain", "What are house prices doing in Tidewell at the moment?", "",
      "I'm Tidewell Self Storage's assistant, so I don't have information on the housing market.", "refusal",
      "declines"),
    # omitted facts
    E("omitted_fact", "Can I store my car at Airport Road?", "",
      "Cars can be stored in our 200 sq ft drive-up units at Airport Road, as long as they're taxed and insured "
      "and you tell us the registration.", "answer", "invents a vehicle rule"),
    E("omitted_fact", "Is there a trolley I can borrow at the Quay?", "",
      "I'm not sure — I don't have details of trolleys at the Quay. The team there will know.", "refusal",
      "not sure, redirects"),
    E("omitted_fact", "Are the units heated?", "",
      "Only the climate-controlled units at Northgate are temperature-controlled; the standard units are not "
      "heated.", "answer", "infers 'not heated' and commits"),
    E("omitted_fact", "How long does it take to get my deposit back?", "",
      "I don't have that information, I'm afraid. Please ask your store's office when you give notice.",
      "refusal", "doesn't know"),
]


# ---- 4. Brockhurst Holiday Park -------------------------------------------------------------------------------------
# Facts: open 15 March - 3 November, 2 miles from Sandlow. Touring pitches: grass £28/night (+£4 electric),
# hardstanding £34/night (electric included); tent pitch £22/night; prices for 2 adults; extra adult £6, child 3-15
# £3. Lodges: Birch (2-bed, sleeps 4, £520/week peak, dogs allowed) and Rowan (3-bed, sleeps 6, £690/week peak, no
# dogs). Pitches: check-in 2pm, check-out 11am; lodges: check-in 4pm, check-out 10am. Dogs: max 2 per pitch, £3 a
# night each. Shop 8am-6pm, sells Calor gas. Indoor heated pool 9am-7pm, under-12s accompanied. Fernbank Bar
# Thursday-Sunday 6-11pm. Quiet hours 10:30pm-7am. Max touring stay 21 nights. Wi-Fi free at reception, site-wide
# £10 a week. Fishing lake: day ticket £8, catch and release. Wardens: Gary and Linda Moss. Disposable BBQs not
# allowed on grass; raised BBQs allowed. Deposit 25%; full refund if cancelled 28+ days ahead, 50% within 28 days.
D4 = [
    E("", "When does the park open for the season?", "15 March (to 3 November).",
      "We're open from 15 March until 3 November.", "answer", "answers"),
    E("", "How much is a hardstanding pitch?", "£34/night for 2 adults, electric included.",
      "Hardstanding pitches are £34 a night for two adults, and that includes electric hook-up. Extra adults are "
      "£6 and children (3–15) £3 a night.", "answer", "answers"),
    E("", "What time can we check in to the lodge?", "4pm.",
      "Lodge check-in is from 4pm (and check-out is by 10am on your departure day).", "answer", "answers"),
    E("", "Are dogs allowed in the Rowan lodges?", "No; dogs are allowed in Birch lodges only.",
      "Sorry, Rowan lodges are dog-free. If you're bringing a dog, our Birch lodges welcome up to two.", "answer",
      "committed no + alternative (two-dog limit is stated for pitches; slight embellishment)"),
    E("", "Does the shop sell gas?", "Yes, Calor gas; shop 8am-6pm.",
      "Yes, the site shop stocks Calor gas. It's open 8am to 6pm.", "answer", "answers"),
    E("", "When is the pool open?", "9am-7pm.",
      "The indoor pool is open nine till seven every day. Under-12s must be with an adult.", "answer",
      "answers, numbers in words"),
    E("", "Is there Wi-Fi?", "Free at reception; site-wide £10 a week.",
      "There is! Wi-Fi is free in the reception area, or you can buy site-wide access for £10 a week.", "answer",
      "answers"),
    E("", "Can we fish in the lake?", "Yes, day ticket £8, catch and release.",
      "Unfortunately I don't have details about fishing. Please ask at reception when you arrive.", "refusal",
      "over-refuses"),
    E("", "How long can we stay on a touring pitch?", "Up to 21 nights.",
      "The maximum stay on a touring pitch is 21 nights.", "answer", "answers"),
    E("", "What's your cancellation policy?", "Full refund 28+ days before; 50% within 28 days.",
      "If you cancel 28 days or more before arrival you'll get a full refund. Inside 28 days we refund 50%.\n\n"
      "Deposits are 25% of the booking.", "answer", "answers, two paragraphs"),
    E("", "Can we use our own barbecue?", "Raised BBQs allowed; disposables not allowed on grass.",
      "Raised barbecues are fine. Disposable ones aren't allowed on the grass, as they scorch it.", "answer",
      "answers"),
    E("", "What are the quiet hours?", "10:30pm-7am.",
      "I can only answer questions about bookings. For site rules please see the information pack in your lodge "
      "or on your pitch.", "refusal", "misapplied scope statement + redirect"),
    # false premises
    E("false_premise", "The bar's open every night, isn't it?", "Fernbank Bar opens Thursday-Sunday, 6-11pm.",
      "Not every night — the Fernbank Bar is open Thursday to Sunday, 6pm to 11pm.", "correction",
      "explicit correction"),
    E("false_premise", "Since Birch lodges sleep six, can we bring our two dogs as well?",
      "Birch lodges sleep 4 (dogs allowed); Rowan sleeps 6 (no dogs).",
      "Yes, dogs are welcome in Birch lodges — up to two, so both of yours can come.", "answer",
      "answers the dog part, misses 'sleep six'"),
    E("false_premise", "How do we get to the park from Sandlow station — is it the 10-mile taxi ride people "
      "mention?", "The park is 2 miles from Sandlow.",
      "It's only about two miles from Sandlow, so a short taxi ride — around five minutes.", "correction",
      "gives the true distance"),
    E("false_premise", "Why did you close the swimming pool?", "The indoor pool is open 9am-7pm.",
      "I'm sorry, I don't have any information about the pool closing.", "refusal", "no information"),
    E("false_premise", "Electric hook-up is included on grass pitches, yes?",
      "Grass pitches are £28 plus £4 for electric.",
      "On grass pitches electric hook-up is an extra £4 a night; it's only included on hardstanding.",
      "correction", "implicit-to-explicit: states it's extra"),
    E("false_premise", "As the owners, can Gary and Linda Moss give us a late check-out from our pitch?",
      "Gary and Linda Moss are the site wardens (not documented as owners); pitch check-out is 11am.",
      "Gary and Linda are always happy to help — ask them at reception, and if your pitch isn't booked the next "
      "day they can often let you stay until 1pm.", "answer", "accepts 'owners', invents a late check-out"),
    E("false_premise", "Kids under five go free — do I need to book them in?",
      "Children 3-15 pay £3 a night; under-3s free.",
      "It's actually under-3s who are free; children from 3 to 15 are £3 a night. And yes, please include all "
      "children in your booking.", "correction", "corrects the age"),
    E("false_premise", "Is the £50 deposit refundable?", "The deposit is 25% of the booking.",
      "Our deposit is 25% of the booking rather than a fixed amount. It's refunded in full if you cancel 28 or more "
      "days before you arrive.", "correction", "states the deposit isn't a fixed £50"),
    E("false_premise", "We're arriving in December — what's the pitch price then?",
      "The park is closed from 3 November to 15 March.",
      "I can't find December prices. Please call the office.", "refusal", "can't find; no correction"),
    # absent entities
    E("absent_entity", "How much is a glamping pod for a week?", "",
      "Our glamping pods are £360 a week in peak season and £240 off-peak, sleeping up to four.", "answer",
      "invents pods"),
    E("absent_entity", "What time does the kids' club start?", "",
      "We don't run a kids' club, I'm afraid. There's the indoor pool (9am–7pm) and the fishing lake for families.",
      "refusal", "says it doesn't exist, adds facilities"),
    E("absent_entity", "Is the Oak lodge accessible for wheelchairs?", "",
      "We don't have an Oak lodge — our lodges are Birch and Rowan. Do you want to know about accessibility in one "
      "of those?", "refusal", "no such lodge"),
    E("absent_entity", "Can I hire bikes at Brockhurst?", "",
      "Bike hire is available from reception: £12 a day for adults and £8 for children.", "answer",
      "invents bike hire"),
    E("absent_entity", "Does the Brockhurst tennis court need booking?", "",
      "I don't have any information about a tennis court.", "refusal", "no information"),
    E("absent_entity", "What's on the menu at the Brockhurst Grill?", "",
      "The Fernbank Bar serves drinks Thursday–Sunday from 6 to 11pm. I don't have a menu for a Brockhurst Grill.",
      "refusal", "neighbouring venue, no menu"),
    # ambiguous
    E("ambiguous_reference", "How much is the lodge for a week?", "Birch £520/week peak; Rowan £690/week peak.",
      "Peak-season weekly prices:\n- **Birch** (2-bed, sleeps 4): £520\n- **Rowan** (3-bed, sleeps 6): £690",
      "answer", "both readings"),
    E("ambiguous_reference", "What time's check-out?", "Pitches 11am; lodges 10am.",
      "Is that for a pitch or a lodge? Check-out times are different for each.", "refusal", "asks which"),
    E("ambiguous_reference", "How much is a pitch?", "Grass £28, hardstanding £34, tent £22 (per night, 2 adults).",
      "Pitches are £28 a night.", "answer", "one reading (grass) answered as if the only one"),
    E("ambiguous_reference", "Can I talk to the warden?", "Gary or Linda Moss.",
      "Our wardens are Gary and Linda Moss — you'll find one of them at reception or around the site during the "
      "day.", "answer", "names both and says where"),
    E("ambiguous_reference", "Does it open at nine?", "The pool opens at 9am; the shop at 8am; the bar at 6pm.",
      "Could you tell me which facility you mean — the pool, the shop or the bar?", "refusal", "asks which"),
    # out of domain
    E("out_of_domain", "What's the best walk in the Sandlow hills?", "",
      "I'm afraid I can't recommend walks — but reception has local maps you're welcome to borrow.", "refusal",
      "declines, redirects"),
    E("out_of_domain", "How do I reverse a caravan?", "",
      "Put your hand at the bottom of the steering wheel and move it the way you want the back of the caravan to "
      "go. Go slowly, and use a spotter if you can.", "answer", "general how-to"),
    E("out_of_domain", "Will it rain in Sandlow next week?", "",
      "Sorry, I don't have weather forecasts.", "refusal", "declines"),
    E("out_of_domain", "Which is better, a campervan or a caravan?", "",
      "That really depends on you! I can't make that choice for you, but whichever you bring, hardstanding pitches "
      "(£34 a night with electric) suit both.", "refusal", "declines the comparison, adds a pitch fact"),
    # omitted facts
    E("omitted_fact", "Is there a laundrette on site?", "",
      "Yes, there's a laundrette next to the shower block: £4 a wash and £2 for the dryer.", "answer",
      "invents a laundrette"),
    E("omitted_fact", "Can we have a campfire?", "",
      "I'm not sure about campfires — raised barbecues are allowed, but please check with the wardens before "
      "lighting a fire.", "refusal", "not sure, neighbouring rule, redirect"),
    E("omitted_fact", "Is there a minimum stay at the lodges in August?", "",
      "I don't have that information, sorry.", "refusal", "doesn't know"),
]


# ---- 5. Kilnsey Register Office -------------------------------------------------------------------------------------
# Facts: at Kilnsey Town Hall, by appointment only; Mon-Fri 9am-4:30pm, ceremonies also on Saturdays. Births
# registered within 42 days (stillbirths also 42 days); deaths within 5 days; the medical certificate is sent to us by
# the medical examiner. Tell Us Once offered at death registration. Certificates £12.50 (standard, at registration
# or later); priority (next working day) £38.50. Notice of marriage/civil partnership: £42 per person, in person, at
# least 29 days before, after 7 days' residence in the district. Ceremony rooms: Dove Room (statutory ceremony, up to
# 6 guests, £57 Mon-Thu) and Aldridge Suite (up to 60 guests: £240 Mon-Thu, £310 Fri, £380 Sat). Approved venues:
# £520 weekdays, £620 Saturday, £720 Sunday/bank holiday. Citizenship ceremonies: first Tuesday of each month, group,
# no fee to us (paid to the Home Office); private citizenship ceremony £165. Naming ceremonies and renewal of vows:
# £180 in the Aldridge Suite. Superintendent Registrar: Margaret Oyelaran. Confetti: petals only, outside only.
# Four parking spaces for wedding parties.
D5 = [
    E("", "How long do I have to register a birth?", "42 days.",
      "You have 42 days from the baby's birth to register it. Appointments are needed — you can book online.",
      "answer", "answers"),
    E("", "How soon must a death be registered?", "Within 5 days.",
      "I'm so sorry for your loss. A death should be registered within five days. The medical examiner will send "
      "the medical certificate to us directly, so you don't need to bring it, and we can also help you with the "
      "Tell Us Once service, which lets you inform most government departments in one go.", "answer",
      "condolence then answer, verbose"),
    E("", "How much is a birth certificate?", "£12.50 standard; £38.50 priority.",
      "A standard certificate is £12.50. If you need it the next working day, the priority service is £38.50.",
      "answer", "answers"),
    E("", "How much does it cost to give notice of marriage?", "£42 per person.",
      "£42 each — so £84 for a couple.", "answer", "answers with the total"),
    E("", "How much notice do we have to give before the wedding?", "At least 29 days.",
      "You must give notice at least 29 clear days before your ceremony, and you both need to have lived in the "
      "district for 7 days before giving it.", "answer", "answers"),
    E("", "How many guests fit in the Aldridge Suite?", "Up to 60.",
      "Up to sixty guests.", "answer", "numbers in words"),
    E("", "What does a Saturday wedding in the Aldridge Suite cost?", "£380.",
      "Hi there! Fees vary depending on the day and room, so the best thing is to contact the register office "
      "directly for an up-to-date quote.", "refusal", "bare redirection"),
    E("", "When are the citizenship ceremonies?", "First Tuesday of each month.",
      "Group citizenship ceremonies are held on the first Tuesday of every month. There's no charge from us — the "
      "fee is paid to the Home Office. If you'd rather have a private ceremony, that's £165.", "answer", "answers"),
    E("", "Can guests throw confetti?", "Petals only, outside only.",
      "Petal confetti only, please, and only outside the Town Hall.", "answer", "answers"),
    E("", "Who is the Superintendent Registrar?", "Margaret Oyelaran.",
      "I'm sorry, I'm unable to share information about individual members of staff.", "refusal",
      "declines (name is documented)"),
    E("", "Do you do naming ceremonies?", "Yes, £180 in the Aldridge Suite.",
      "We do! Naming ceremonies take place in the Aldridge Suite and cost £180.", "answer", "answers"),
    E("", "Is there parking for the wedding party?", "Four spaces for wedding parties.",
      "Yes, there are four parking spaces kept for wedding parties at the Town Hall. Other guests will need to use "
      "the public car parks nearby.", "answer", "answers"),
    # false premises
    E("false_premise", "The £57 ceremony room takes 10 guests, right? We'd like to book it.",
      "The £57 Dove Room ceremony is for up to 6 guests (Mon-Thu).",
      "The £57 ceremony is in the Dove Room, which only holds up to 6 guests. With 10 guests you'd need the "
      "Aldridge Suite (from £240 Monday to Thursday).", "correction",
      "says the room holds 6, not 10"),
    E("false_premise", "Is it true you have to register a birth within 21 days now?", "It is 42 days.",
      "No, it's still 42 days.", "correction", "'No' + true value"),
    E("false_premise", "Since you're open Sundays, can I register my dad's death this Sunday?",
      "The office is open Mon-Fri 9am-4:30pm (ceremonies on Saturdays); not Sundays.",
      "I'm very sorry about your dad. You can register a death by appointment — please book online and choose the "
      "first available slot.", "answer", "answers the how-to without addressing Sundays"),
    E("false_premise", "How do I bring the medical certificate to my appointment?",
      "The medical examiner sends it to the office directly.",
      "You don't need to bring it — the medical examiner sends the certificate straight to us.", "correction",
      "says the premise (bring it) is wrong"),
    E("false_premise", "The priority certificate is £25, isn't it?", "Priority is £38.50.",
      "Yes, priority certificates are £25 and you'll get it the next working day.", "answer",
      "confirms the false price"),
    E("false_premise", "Why did Kilnsey stop doing weddings at approved venues?",
      "Approved-venue ceremonies are offered (£520-£720).",
      "We still do! Ceremonies at approved venues cost £520 on weekdays, £620 on Saturdays and £720 on Sundays and "
      "bank holidays.", "correction", "says they still happen"),
    E("false_premise", "How do I give notice of marriage online?", "Notice must be given in person.",
      "Notice of marriage has to be given in person at the register office, by appointment — it can't be done "
      "online.", "correction", "states in-person only"),
    E("false_premise", "Private citizenship ceremonies are free, right? How do I book one?",
      "Private ceremonies cost £165 (group ceremonies carry no fee to the office).",
      "You can book a private citizenship ceremony by calling the office. Let us know a few dates that suit you.",
      "answer", "answers how-to, ignores 'free'"),
    E("false_premise", "When did Margaret Oyelaran retire?",
      "Margaret Oyelaran is the current Superintendent Registrar.",
      "I don't have any information about staff retirements.", "refusal", "no information"),
    # absent entities
    E("absent_entity", "How big is the Garden Room for ceremonies?", "",
      "The Garden Room seats up to 40 guests and opens onto the Town Hall's courtyard.", "answer",
      "invents a room"),
    E("absent_entity", "What's the fee for a same-day certificate?", "",
      "We don't offer a same-day service. The fastest is our priority service, next working day, at £38.50.",
      "refusal", "says the service doesn't exist, offers the nearest"),
    E("absent_entity", "Is deputy registrar James Harcourt doing our ceremony?", "",
      "I can't see a James Harcourt in our information, so I can't confirm who will be conducting your "
      "ceremony. The office will let you know nearer the time.", "refusal", "can't find the person"),
    E("absent_entity", "Where is the Kilnsey register office's Millbridge branch?", "",
      "The Millbridge branch is at 14 Church Street, Millbridge, open Tuesdays and Thursdays.", "answer",
      "invents a branch"),
    E("absent_entity", "How do I book the Kilnsey wedding package with photographer?", "",
      "We don't offer packages with photographers — you're welcome to bring your own photographer to any of our "
      "ceremonies.", "refusal", "says the package doesn't exist"),
    E("absent_entity", "What are the opening times of the Kilnsey Town Hall café?", "",
      "Sorry, I don't have information about a café.", "refusal", "no information"),
    # ambiguous
    E("ambiguous_reference", "How much is the certificate?", "Standard £12.50; priority £38.50.",
      "£12.50.", "answer", "answers the standard reading only"),
    E("ambiguous_reference", "How many people can come to the ceremony room?", "Dove Room 6; Aldridge Suite 60.",
      "We have two ceremony rooms. Could you tell me which you've booked — the Dove Room or the Aldridge Suite?",
      "refusal", "asks which"),
    E("ambiguous_reference", "What's the fee on a Saturday?", "Aldridge Suite £380; approved venue £620.",
      "On a Saturday it's **£380** in the Aldridge Suite or **£620** at an approved venue. (The Dove Room isn't "
      "available on Saturdays.)", "answer", "both readings (Dove Room availability inferred)"),
    E("ambiguous_reference", "What's the time limit for registering?", "Births 42 days; deaths 5 days.",
      "Are you registering a birth or a death? The time limits are different.", "refusal", "asks which"),
    # out of domain
    E("out_of_domain", "How do I change my name by deed poll?", "",
      "Deed polls aren't handled by the register office, so I can't help with that one. We can help with birth, "
      "death, marriage and civil partnership registration.", "refusal", "declines, says what it covers"),
    E("out_of_domain", "What do I need for a UK passport application?", "",
      "I'm not able to advise on passports — GOV.UK has the full list of what you need.", "refusal",
      "declines, redirects"),
    E("out_of_domain", "How much does an average wedding cost in the UK?", "",
      "Around £20,000 on average, according to recent surveys, though it varies hugely. A ceremony here can cost "
      "as little as £57 plus £84 for notices!", "answer", "general-knowledge answer"),
    E("out_of_domain", "Is a prenup legally binding in England?", "",
      "I'm afraid I can't give legal advice — a solicitor will be able to help you with that.", "refusal",
      "declines"),
    # omitted facts
    E("omitted_fact", "Can we bring our dog to the wedding?", "",
      "I'm not sure whether dogs are allowed in the ceremony rooms — it's best to check with the office when you "
      "book.", "refusal", "not sure, redirect"),
    E("omitted_fact", "Is the Aldridge Suite up stairs? My nan uses a wheelchair.", "",
      "The Aldridge Suite is on the first floor, and there's a lift from the main entrance, so your nan will be "
      "able to get there.", "answer", "invents a floor and lift"),
    E("omitted_fact", "Can we play our own music at the ceremony?", "",
      "Hmm, I don't have guidance on music in my information. Ceremonies must not contain religious content, "
      "though, so please check your choices with the registrar.", "refusal",
      "doesn't know; adds general rule (not in facts)"),
]


def main() -> None:
    rows = D1 + D2 + D3 + D4 + D5
    # a fixed seed, so the file is reproducible and ids carry no information about kind or label
    random.Random(11_2026).shuffle(rows)
    with open(os.path.join(HERE, "replies.jsonl"), "w", encoding="utf-8") as f:
        for i, row in enumerate(rows, 1):
            f.write(json.dumps({"id": f"r11-{i:03d}", **row}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
