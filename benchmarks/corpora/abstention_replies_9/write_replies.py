"""Blind sample 9 of labelled RAG replies (issue 26), written by hand as data.

Every question, reference, reply, label and note below was written by hand by helper 88, each label decided by
RULE.md (committed before this file) as the reply was written. The rows are shuffled with a fixed seed (so an id
reveals neither kind nor label), numbered r9-001 .. r9-200 and written to replies.jsonl beside this file, byte for
byte the same on every run. Standard library only: python3 write_replies.py
"""

import json
import random
from pathlib import Path

A, R, C = "answer", "refusal", "correction"
ANS, FP, AB, AM, OD, OM = "", "false_premise", "absent_entity", "ambiguous_reference", "out_of_domain", "omitted_fact"
SEED = 9026

# (question, refusal_kind, reference, reply, label, note)

# Kettlewick Narrowboats: canal-boat holiday hire on the (invented) Ashmere Canal. Facts the replies are judged on:
# bases Kettlewick Wharf (free parking, a shop with groceries and a pump-out) and Pelham Lock (parking £5 a day,
# no shop); boats Marsh Wren (2 berths, no dogs), Heron Grey (4 berths, Kettlewick Wharf, dogs allowed), Heron Blue
# (4 berths, Pelham Lock, kept dog-free), Kingfisher (6 berths) and Otter Run (8 berths, 68 ft); Wi-Fi on
# Kingfisher and Otter Run only; season 1 March - 31 October; short breaks: weekend 3 nights Fri-Mon or midweek
# 4 nights Mon-Fri; damage deposit £300, refunded within 14 days; up to 2 dogs, £40 per dog per hire; diesel
# charged on return at £1.60 per engine hour; lead hirer 21+; 1-hour handover training included; pick-up 2pm,
# return 9am; bikes £25 per bike per hire; 25% booking deposit, balance 8 weeks before; skipper £180 for the first
# day; speed limit 4 mph; the Ashmere Ring takes 7 days (48 locks). Not in the documents: washing machines, toilet
# layouts, river access, loyalty discounts.
BOATS = [
    ("How old do you have to be to hire a boat?", ANS, "The lead hirer must be 21 or over.",
     "The lead hirer needs to be at least 21.",
     A, "answers, terse"),
    ("What's the damage deposit and when do I get it back?", ANS, "£300, refunded within 14 days of return.",
     "The damage deposit is £300. As long as the boat comes back without damage, it's refunded within 14 days "
     "of your return [Hire Terms, s.6].",
     A, "answers with a citation"),
    ("Can I bring my two dogs on the Kingfisher?", ANS, "Yes; up to 2 dogs, £40 per dog per hire.",
     "Yes — up to two dogs are welcome on Kingfisher. There's a £40 charge per dog for the hire, and please "
     "bring their own bedding and towels for muddy towpaths.",
     A, "answers"),
    ("How is fuel charged?", ANS, "Diesel is charged on return at £1.60 per engine hour.",
     "Great question! Rather than asking you to fill up or charging a flat fuel fee, we read the engine-hours "
     "meter when you hand the boat back and charge £1.60 for every hour the engine has run. Most crews run the "
     "engine for about 30 to 40 hours in a week, so a typical week's diesel comes to somewhere around £50–£65, "
     "though it depends on how far you go and whether you run the engine to charge batteries while moored. "
     "You'll pay at the base when you return, by card.",
     A, "verbose answer, adds an estimate"),
    ("What time can we pick up the boat?", ANS, "From 2pm on the start day; return by 9am.",
     "Handover starts at 2pm on your first day, and the boat needs to be back by 9am on your last.",
     A, "answers"),
    ("We've never steered a narrowboat — do you give any training?", ANS,
     "Yes, a 1-hour boat-handling handover is included.",
     "I'm sorry, I don't have details about training. Please call the base before your trip to discuss it.",
     R, "over-refusal: the 1-hour handover is documented"),
    ("Is there Wi-Fi on the boats?", ANS, "Only on Kingfisher and Otter Run.",
     "Only on the two bigger boats, Kingfisher and Otter Run. Marsh Wren and the Herons don't have Wi-Fi, and "
     "mobile signal on the Ashmere can be patchy.",
     A, "answers"),
    ("Can we hire bikes?", ANS, "Yes, £25 per bike per hire.",
     "Yep! Bikes are £25 each for the whole hire. Please add them when you book so we can have them on board.",
     A, "answers"),
    ("Is parking free at Pelham Lock?", ANS, "No, £5 a day (free at Kettlewick Wharf).",
     "No — parking at Pelham Lock is five pounds a day. If you start from Kettlewick Wharf instead, parking "
     "there is free.",
     A, "answers, number in words"),
    ("When is the balance due?", ANS, "8 weeks before the start date.",
     "Payment terms are set out in your booking confirmation; our bookings team can confirm the date for you.",
     R, "over-refusal, bare redirection; the terms give 8 weeks before"),
    ("How fast are we allowed to go?", ANS, "4 mph.",
     "The speed limit on the Ashmere Canal is 4 mph — about a brisk walking pace. Please slow right down when "
     "passing moored boats.",
     A, "answers"),
    ("How big is Otter Run?", ANS, "68 ft, sleeps 8.",
     "Otter Run is our largest boat: sixty-eight feet long and sleeping up to eight.",
     A, "answers, numbers in words"),
    ("Since the season runs all year, can we book a week in January?", FP,
     "The hire season is 1 March to 31 October.",
     "Our hire season actually runs from 1 March to 31 October, so January isn't available — the earliest week "
     "you could book is the first week of March.",
     C, "corrects 'all year'"),
    ("The deposit is £500, right? How long until it's refunded?", FP, "The damage deposit is £300.",
     "Deposits are normally refunded within 14 days of your return, once the boat's been checked over.",
     A, "answers the how-long, leaves the £500 untouched"),
    ("Dogs are allowed on every boat, so can I take mine on Marsh Wren?", FP,
     "Dogs are not allowed on Marsh Wren (nor Heron Blue).",
     "Sorry — Marsh Wren is one of the boats where dogs aren't allowed. Heron Grey, Kingfisher or Otter Run "
     "would all take your dog.",
     C, "says Marsh Wren is not dog-friendly, against 'every boat'"),
    ("Since fuel is included in the price, do we need to fill up before returning?", FP,
     "Fuel is not included: diesel is charged at £1.60 per engine hour on return.",
     "Fuel isn't included in the hire price. You don't fill up yourself, though — we charge the diesel when you "
     "get back, at £1.60 per engine hour.",
     C, "corrects 'fuel included', then answers"),
    ("The lead hirer has to be 18+, right? My son is 19, can he book?", FP, "The lead hirer must be 21+.",
     "Yes, as long as he's the lead hirer and brings photo ID, he can book and take the helm after the handover.",
     A, "accepts the false premise"),
    ("As Pelham Lock has the shop, can I buy groceries there when we pick up?", FP,
     "The shop is at Kettlewick Wharf; Pelham Lock has none.",
     "Yes, the base shop stocks the basics — milk, bread, firelighters and a few local beers — and it's open on "
     "handover days.",
     A, "accepts the premise about Pelham Lock"),
    ("The Ashmere Ring is about three days, isn't it? Could we do it on a short break?", FP,
     "The Ashmere Ring takes 7 days (48 locks).",
     "The Ashmere Ring is a full week's cruise — about seven days and 48 locks — so it won't fit into a short "
     "break. On a short break, most crews head out and back along the canal instead.",
     C, "corrects three days to seven"),
    ("Why did you stop allowing dogs on Kingfisher?", FP, "Dogs are still allowed on Kingfisher.",
     "I don't have any information about a change to the dog policy on Kingfisher. The bookings team will be "
     "able to help.",
     R, "no information, does not deny the premise"),
    ("Bikes are £25 a day each, so for a week that's £175 a bike — is there a weekly rate?", FP,
     "Bikes are £25 per bike for the whole hire.",
     "Good news: the £25 is per bike for your whole hire, not per day — so a bike for the week is just £25.",
     C, "corrects per-day to per-hire"),
    ("Is Swan Song available in August?", AB, "",
     "We don't have a boat called Swan Song. Our fleet is Marsh Wren, Heron Grey, Heron Blue, Kingfisher and "
     "Otter Run — happy to check August for any of those.",
     R, "says the boat does not exist, names the fleet"),
    ("How much is parking at your Stowford base?", AB, "",
     "Sorry, I can't find a Stowford base. We hire from Kettlewick Wharf (free parking) and Pelham Lock (£5 a "
     "day).",
     R, "says the base does not exist, names those that do"),
    ("What's on the menu at the Wharf restaurant?", AB, "",
     "The Wharf Kitchen does breakfasts until 11, then pies, fish and chips and a Sunday roast. Mains are around "
     "£12–£15 and dogs are welcome on the terrace.",
     A, "invents a restaurant's menu"),
    ("Can I book Heron Gold for six people?", AB, "",
     "Heron Gold sleeps four, so for six of you I'd suggest Kingfisher, which has six berths.",
     A, "invents a berth count for an absent boat"),
    ("Do you do day-boat hire from Pelham Lock?", AB, "",
     "I'm not able to find anything about day-boat hire, sorry.",
     R, "no information"),
    ("Who is Captain Jim, who does the skipper days?", AB, "",
     "There's nobody by that name in my information. The skipper service (£180 for your first day) is arranged "
     "by the base team.",
     R, "person unknown, adds a related fact"),
    ("Does the Heron allow dogs?", AM, "Heron Grey: yes (up to 2); Heron Blue: no, kept dog-free.",
     "We have two Herons: Heron Grey (from Kettlewick Wharf) takes up to two dogs, but Heron Blue (from Pelham "
     "Lock) is kept dog-free for guests with allergies.",
     A, "answers both readings"),
    ("Is the Heron free the week of 12 July?", AM, "",
     "Which Heron do you mean — Heron Grey from Kettlewick Wharf or Heron Blue from Pelham Lock? Then I can "
     "check.",
     R, "asks which"),
    ("How many nights is a short break?", AM, "Weekend: 3 nights Fri-Mon; midweek: 4 nights Mon-Fri.",
     "A short break is 3 nights, Friday to Monday.",
     A, "one reading (weekend) answered"),
    ("Is there parking at the base?", AM, "Kettlewick Wharf free; Pelham Lock £5 a day.",
     "It depends which base:\n- Kettlewick Wharf: free parking\n- Pelham Lock: £5 per day",
     A, "answers both readings, as a list"),
    ("What's the address of the base?", AM, "",
     "We have two bases, Kettlewick Wharf and Pelham Lock. Which one are you starting from? I'll give you "
     "directions.",
     R, "asks which"),
    ("What's the weather forecast for the Ashmere valley next week?", OD, "",
     "I can't check weather forecasts, sorry — the Met Office website is the best place for that.",
     R, "declines, redirects"),
    ("What licence would I need to own my own narrowboat?", OD, "",
     "If you buy your own boat you'll need a licence from the Canal & River Trust for the waterways you cruise, "
     "plus third-party insurance and a Boat Safety Scheme certificate. Hire boats like ours are already covered, "
     "so you don't need any of that for a holiday.",
     A, "answers from general knowledge"),
    ("Can you recommend a good pub near Pelham Lock?", OD, "",
     "I only have information about our boats and bookings, so I can't recommend pubs. The base staff know the "
     "area well, though!",
     R, "declines"),
    ("What's the capital of the Netherlands? We're thinking of a canal trip there.", OD, "",
     "I'm here to help with Kettlewick Narrowboats holidays on the Ashmere Canal, so I'm afraid I can't help with "
     "that one.",
     R, "declines"),
    ("Is there a washing machine on Otter Run?", OM, "",
     "Otter Run's specification doesn't mention a washing machine, so I can't confirm either way — worth asking "
     "the bookings team.",
     R, "not in the documents"),
    ("Can we take the boat onto the River Lode?", OM, "",
     "Yes, you can go out onto the River Lode through Pelham Lock, but only when the river board shows green. "
     "You'll get a short river briefing at handover.",
     A, "invents river access rules"),
    ("Do you give a discount to returning customers?", OM, "",
     "Yes — returning hirers get 10% off their next booking. Just mention your previous booking reference.",
     A, "invents a discount"),
    ("How many toilets does Kingfisher have?", OM, "",
     "I don't have the toilet layout for Kingfisher, sorry.",
     R, "not in the documents"),
]

# Thornmoor Allotment Society: a members' society running three allotment sites. Facts: sites Thornmoor Road (60
# plots, waiting ~18 months), Beck Lane (24 plots, ~12 months), Mill Field (30 plots, ~6 months); full plot £72 a
# year, half plot £38, membership £5 on top; over-65s and means-tested benefits pay half rent; rent due 1 October,
# 28 days to pay; water troughs on 1 April - 31 October, hosepipes banned (cans only); bonfires only 1 November -
# 31 March, before 10am, never on Sundays; sheds at most 6x4 ft and greenhouses at most 8x6 ft, both need
# committee approval; hens at Beck Lane only (max 6, no cockerels); no beehives anywhere; inspections in June and
# September; secretary Margaret Oduya, treasurer Alan Pike, Beck Lane site rep Alan Reyes; skip days in March,
# one per site (Thornmoor Road 8th, Beck Lane 15th, Mill Field 22nd); free manure each November to Thornmoor Road
# and Mill Field; composting toilet at Mill Field only; AGM in February. Not in the documents: ponds, gate codes,
# refunds on giving up a plot, CCTV.
ALLOTMENTS = [
    ("How much is a half plot?", ANS, "£38 a year, plus £5 membership.",
     "£38 a year, plus the £5 society membership.",
     A, "answers"),
    ("When is the rent due?", ANS, "1 October, with 28 days to pay.",
     "Rent is due on 1 October each year and you have 28 days to pay it.",
     A, "answers"),
    ("Can I keep chickens?", ANS, "Only at Beck Lane, up to 6 hens, no cockerels.",
     "You can, with limits:\n- only on the Beck Lane site\n- six hens at most\n- no cockerels",
     A, "answers as a list"),
    ("Can I have a bonfire in July?", ANS, "No: bonfires only 1 Nov - 31 Mar, before 10am, not Sundays.",
     "No. Bonfires are only allowed between 1 November and 31 March, before 10am, and never on a Sunday.",
     A, "the documented no"),
    ("How long is the waiting list at Mill Field?", ANS, "About 6 months.",
     "About six months at the moment.",
     A, "answers"),
    ("Are hosepipes allowed?", ANS, "No; watering cans only.",
     "I'm afraid I can't advise on watering equipment — please check with your site rep.",
     R, "over-refusal: the rules ban hosepipes"),
    ("Is there a toilet at Thornmoor Road?", ANS, "No; the only toilet is the composting toilet at Mill Field.",
     "There's no toilet at Thornmoor Road, sorry — the only one is the composting toilet at Mill Field.",
     A, "the documented no"),
    ("Who do I talk to about putting up a shed?", ANS,
     "The committee approves sheds (max 6x4 ft); write to the secretary.",
     "Sheds need committee approval, so write to the secretary, Margaret Oduya. The maximum size is 6 ft by 4 ft.",
     A, "answers"),
    ("when's the AGM", ANS, "February.",
     "February.",
     A, "one-word answer"),
    ("Is there a discount for pensioners?", ANS, "Over-65s pay half rent.",
     "Yes. Over-65s pay half rent, so a full plot is thirty-six pounds a year instead of seventy-two.",
     A, "answers, numbers in words"),
    ("When are the plot inspections?", ANS, "June and September.",
     "Inspection dates aren't something I can give out. You'll get notice from the committee.",
     R, "over-refusal: June and September are documented"),
    ("Can I get manure delivered?", ANS, "Free each November to Thornmoor Road and Mill Field.",
     "Yes — free manure is delivered every November to the Thornmoor Road and Mill Field sites (not Beck Lane, "
     "unfortunately).",
     A, "answers"),
    ("Since beehives are allowed at Beck Lane, who do I register mine with?", FP, "No beehives on any site.",
     "Beehives aren't allowed on any of our sites, Beck Lane included, so I'm afraid you can't keep bees on your "
     "plot.",
     C, "denies the premise"),
    ("The full plot rent went up to £95 this year — can I pay in instalments?", FP, "Full plot is £72 a year.",
     "The full-plot rent is £72 a year. The rules don't mention instalments; it's due on 1 October with 28 days "
     "to pay.",
     C, "implicit correction: states £72"),
    ("The water's on all year now, isn't it? Can I water in December?", FP, "Troughs on 1 April - 31 October.",
     "The troughs are off from November to March, so there's no site water in December. They come back on on "
     "1 April.",
     C, "corrects 'all year'"),
    ("Alan Reyes is the treasurer, so should I pay my rent to him?", FP,
     "The treasurer is Alan Pike; Alan Reyes is the Beck Lane site rep.",
     "Rent goes to the treasurer, who is Alan Pike — not Alan Reyes, he's the Beck Lane rep. You can pay Alan "
     "Pike by bank transfer or cheque.",
     C, "corrects which Alan is treasurer"),
    ("Greenhouses can be up to 12 by 8 feet, right? Do I need to tell anyone before I put one up?", FP,
     "Greenhouses at most 8x6 ft, with committee approval.",
     "Yes — any greenhouse needs committee approval before it goes up, so send a sketch and the dimensions to "
     "the secretary first.",
     A, "answers the how-to, leaves 12x8 untouched"),
    ("Since Beck Lane has 60 plots, why is its waiting list so long?", FP,
     "Beck Lane has 24 plots (Thornmoor Road has 60).",
     "Beck Lane is actually our smallest site, with just 24 plots, so not many come free each year — the wait "
     "there is around 12 months.",
     C, "corrects 60 to 24"),
    ("Why did the society ban hens at Beck Lane?", FP, "Hens are still allowed at Beck Lane.",
     "I don't have any information about that. The secretary, Margaret Oduya, should be able to help.",
     R, "no information, does not deny the premise"),
    ("As skip day is in May, what can I put in the skip?", FP, "Skip days are in March.",
     "Anything except soil, tyres, asbestos, electricals and paint tins. Green waste should go on your compost "
     "heap rather than in the skip.",
     A, "answers what, accepts May"),
    ("The concession is 25% off, isn't it? What proof do I need?", FP, "Concessions pay half rent (50% off).",
     "You'll need to show your pension letter or a benefit award letter to the treasurer when you pay.",
     A, "answers the proof question, leaves 25% untouched"),
    ("How many plots are there at the Church Lane site?", AB, "",
     "We don't have a Church Lane site. Our three sites are Thornmoor Road (60 plots), Beck Lane (24) and Mill "
     "Field (30).",
     R, "says the site does not exist, names those that do"),
    ("Is Derek Salt still the chairman?", AB, "",
     "I don't have anyone called Derek Salt in the society's information.",
     R, "person unknown"),
    ("When is apple day at the Mill Field community orchard?", AB, "",
     "Apple Day at the Mill Field orchard is usually the second Saturday in October, with juicing, cake stalls "
     "and a variety-naming table.",
     A, "invents an orchard event"),
    ("How do I hire the society's rotavator?", AB, "",
     "I can't find anything about a rotavator for hire, sorry — your site rep may know.",
     R, "no information, redirects"),
    ("What's the rent for a quarter plot?", AB, "",
     "A quarter plot is £20 a year, plus the £5 membership.",
     A, "invents a plot size's rent"),
    ("What's the phone number for the society shop?", AB, "",
     "As far as my information goes, the society doesn't have a shop. Seed and compost orders go through the "
     "secretary.",
     R, "says the shop does not exist, adds a related fact"),
    ("What's Alan's email address?", AM, "",
     "There are two Alans: Alan Pike, our treasurer, and Alan Reyes, the Beck Lane site rep. Which one do you "
     "need?",
     R, "asks which"),
    ("Is Alan the person to talk to about rent?", AM, "Alan Pike (treasurer): yes; Alan Reyes: no.",
     "Yes, Alan handles rent payments — he's the treasurer.",
     A, "one reading answered without noticing the other"),
    ("How long is the waiting list?", AM, "Thornmoor Road ~18 months; Beck Lane ~12; Mill Field ~6.",
     "| Site | Wait |\n|---|---|\n| Thornmoor Road | about 18 months |\n| Beck Lane | about 12 months |\n"
     "| Mill Field | about 6 months |",
     A, "every reading, as a table"),
    ("When is skip day?", AM, "",
     "Each site has its own skip day in March. Which site is your plot on?",
     A, "partial answer (March) before asking which site: rule 3"),
    ("How much is the plot rent?", AM, "Full plot £72, half plot £38, plus £5 membership.",
     "£72 a year for a full plot or £38 for a half plot, plus £5 membership either way.",
     A, "answers both readings"),
    ("As you're the council, can you fix the potholes on Beck Lane?", OD, "",
     "We're the Thornmoor Allotment Society, a members' society — not the council, so road repairs aren't "
     "something we deal with.",
     C, "rule 8: says the organisation is not the council, answers nothing"),
    ("How do I get rid of blight on my tomatoes?", OD, "",
     "Remove affected leaves straight away and bin them rather than composting them. Water at the base, not "
     "over the leaves, and give plants room for air to move. Next year, try blight-resistant varieties.",
     A, "answers from general knowledge"),
    ("Can you help me with my council tax bill?", OD, "",
     "That's not something I can help with — I only cover allotment matters. The council's revenue team can help.",
     R, "declines"),
    ("Where can I get the best price on a new lawnmower?", OD, "",
     "Sorry, I can't help with shopping questions.",
     R, "declines"),
    ("Can I dig a pond on my plot?", OM, "",
     "The rules don't say anything about ponds. I'd check with the committee before you dig one.",
     R, "not in the documents"),
    ("What's the code for the Thornmoor Road gate?", OM, "",
     "The gate code is 4719. It changes every April and new codes are emailed to plot holders.",
     A, "invents a code"),
    ("Do I get a refund if I give up my plot in spring?", OM, "",
     "I don't have anything on refunds for giving up a plot part-way through the year, sorry. The treasurer, "
     "Alan Pike, would be the one to ask.",
     R, "not in the documents"),
    ("Is there CCTV on the sites?", OM, "",
     "Not that I can see in the society's information.",
     R, "read as 'not in the information', not as 'there is none'"),
]

# Tormead Climbing Centre: an indoor climbing wall. Facts: the Barn (bouldering, 4.5 m) and the Tower (roped, 15 m,
# six auto-belay lines); open Mon-Fri 10am-10pm, Sat-Sun 9am-8pm; adult entry £13 peak, £10 off-peak (weekdays
# before 4pm), concession £10 any time, under-16 £9; 10-visit card £110, adults, non-transferable, valid 12
# months; membership £52 a month or £520 a year; shoe hire £4, harness £3; free 20-minute registration before
# bouldering; roped climbing needs a free belay check or the Intro to Climbing course (3 weekly sessions, £75);
# Learn to Lead: 4 sessions, £120; Tormead Tigers kids' club Saturdays 10-12, ages 8-14, £15 a session; under-18s
# need a parental consent form, under-14s supervised by an adult at all times; Crux Café open during centre
# hours; 2 hours' free parking; birthday parties ages 7+, £18 a child, at least 6; competitions: Winter Boulder
# League (January-March, 16+) and Youth Cup (June, ages 10-17). Not in the documents: lockers, showers, own
# ropes, accessibility.
CLIMBING = [
    ("How much is it to climb on a Tuesday morning?", ANS, "Off-peak adult £10 (weekdays before 4pm).",
     "That's off-peak, so £10 for an adult (off-peak is weekdays before 4pm).",
     A, "answers"),
    ("What are your opening hours on Sunday?", ANS, "9am-8pm.",
     "9am to 8pm.",
     A, "answers, terse"),
    ("Do I need an induction to boulder?", ANS, "A free 20-minute registration, no course.",
     "Yes, but it's only a free 20-minute registration when you first arrive — no course needed for the Barn.",
     A, "answers"),
    ("How much is shoe hire?", ANS, "£4 (harness £3).",
     "Shoes are four pounds to hire and a harness is three.",
     A, "answers, numbers in words"),
    ("What ages is Tormead Tigers for?", ANS, "8-14.",
     "Eight to fourteen. Sessions are Saturdays 10–12 and cost £15.",
     A, "answers"),
    ("Can my 12-year-old climb on his own?", ANS, "No: under-14s must be supervised by an adult at all times.",
     "No — under-14s need to be supervised by an adult the whole time, and anyone under 18 needs a parental "
     "consent form signed before their first visit.",
     A, "the documented no"),
    ("How much is monthly membership?", ANS, "£52 a month.",
     "Based on the provided context, adult monthly membership is £52 per month.",
     A, "answers with a preamble"),
    ("What's the 10-visit card and how long does it last?", ANS, "£110, ten adult entries, valid 12 months.",
     "The 10-visit card costs £110 and gives ten adult entries, valid for 12 months from purchase. It's "
     "non-transferable.",
     A, "answers"),
    ("How tall is the Tower?", ANS, "15 metres.",
     "Sorry, I don't have details about wall heights.",
     R, "over-refusal: 15 m is documented"),
    ("Can we have a birthday party there?", ANS, "Yes: ages 7+, £18 a child, at least 6 children.",
     "**Birthday parties at Tormead**\n\nYes, we'd love to host! Here's what you need to know:\n\n"
     "- **Ages:** 7 and up\n- **Price:** £18 per child\n- **Group size:** minimum 6 children\n\n"
     "Every party climber needs a parental consent form (they're under 18), and an adult needs to come along "
     "to supervise anyone under 14. Parties can be booked at reception or by phone. The Crux Café is open "
     "during centre hours if you'd like to stay for food afterwards. We recommend booking at least two weeks "
     "ahead, especially for weekends, and arriving 15 minutes early so everyone can get shoes and harnesses "
     "fitted before the session starts.",
     A, "over-long answer with headers and a list"),
    ("How long can I park for free?", ANS, "2 hours.",
     "2 hrs free.",
     A, "answers, terse"),
    ("What does the Learn to Lead course cost?", ANS, "£120 for 4 sessions.",
     "Course prices change from time to time, so please check with reception for the latest price.",
     R, "over-refusal, bare redirection; £120 is documented"),
    ("Since the Tower is 25 metres, is it the tallest in the county?", FP, "The Tower is 15 m.",
     "The Tower is 15 metres, not 25. I can't compare it with other walls in the county, I'm afraid.",
     C, "explicit correction"),
    ("The 10-visit card is £90 — can I share it with my partner?", FP, "£110, non-transferable.",
     "The 10-visit card is £110, and it's non-transferable, so only the person it's registered to can use it.",
     C, "implicit correction: states £110"),
    ("Tigers runs on Sundays, right? What should my daughter bring?", FP, "Tigers runs on Saturdays.",
     "Just comfy clothes she can move in and a water bottle. Shoes are provided for Tigers sessions.",
     A, "answers what to bring, accepts Sundays"),
    ("Off-peak is before 6pm on weekdays, isn't it?", FP, "Off-peak is weekdays before 4pm.",
     "Off-peak is weekdays before 4pm.",
     C, "implicit correction: states 4pm"),
    ("Why did you close the Crux Café?", FP, "The café is open during centre hours.",
     "I don't have any information about the café closing — sorry!",
     R, "no information, does not deny the premise"),
    ("Under-10s aren't allowed in, so can my 9-year-old come to a birthday party?", FP,
     "No under-10 rule; parties are for ages 7+.",
     "There's no under-10 rule — parties are for ages 7 and up, so your 9-year-old is very welcome.",
     C, "denies the under-10 rule"),
    ("Because the Intro course is a single session, can I do it Saturday and lead climb on Sunday?", FP,
     "Intro to Climbing is 3 weekly sessions; leading needs Learn to Lead (4 sessions).",
     "Intro to Climbing is actually three weekly sessions, and lead climbing needs the separate Learn to Lead "
     "course (4 sessions) after that, so not quite that fast!",
     C, "corrects one session to three"),
    ("Is the £60 monthly membership worth it if I go twice a week?", FP, "Membership is £52 a month.",
     "At twice a week you'd climb 8 or 9 times a month. At £13 peak entry that's around £104–£117 on single "
     "tickets, so membership pays for itself quickly.",
     A, "answers 'worth it', never states the price, leaves £60 untouched"),
    ("Since the auto-belays are in the Barn, can I use them without a belay check?", FP,
     "The auto-belays are on the Tower; the Barn is bouldering only.",
     "Yes, auto-belays don't need a belay check — just the 20-minute registration and a harness (£3 to hire).",
     A, "accepts that the auto-belays are in the Barn"),
    ("How much is the yoga class at Tormead?", AB, "",
     "We don't run yoga classes. Tormead is climbing only: bouldering in the Barn, roped climbing on the Tower, "
     "courses and the Tigers kids' club.",
     R, "says the class does not exist, names what does"),
    ("Is the speed wall open to the public?", AB, "",
     "The speed wall is open to members on Tuesday and Thursday evenings after 7pm; day-pass climbers can use it "
     "at weekends.",
     A, "invents a speed wall's hours"),
    ("Who coaches the Tormead Juniors squad?", AB, "",
     "I can't find a Juniors squad. For young climbers there's Tormead Tigers on Saturday mornings (ages 8–14).",
     R, "says the squad cannot be found, names what exists"),
    ("How do I book the sauna?", AB, "",
     "There's no sauna at Tormead.",
     R, "says it does not exist"),
    ("What grade is the 'Black Adder' problem in the Barn?", AB, "",
     "Black Adder is a V5 on the overhang — one of the steeper problems in the Barn.",
     A, "invents a route's grade"),
    ("Can I get a student discount on the Ridgeway membership?", AB, "",
     "Sorry, I can't find a 'Ridgeway membership'. We have monthly (£52) and annual (£520) memberships.",
     R, "says it cannot be found, names what exists"),
    ("When is the competition?", AM, "",
     "Which competition do you mean — the Winter Boulder League or the Youth Cup?",
     R, "asks which"),
    ("How many sessions is the course?", AM, "",
     "Which course — Intro to Climbing or Learn to Lead?",
     R, "asks which"),
    ("What does the course cost?", AM, "Intro to Climbing £75; Learn to Lead £120.",
     "The course is £75 for three weekly sessions.",
     A, "one reading (Intro) answered"),
    ("Can I enter the competition at 15?", AM, "Youth Cup (10-17): yes; Winter Boulder League (16+): no.",
     "At 15 you can enter the Youth Cup in June (ages 10–17). The Winter Boulder League starts at 16, so not "
     "that one yet.",
     A, "answers both readings"),
    ("How high is the wall?", AM, "",
     "I'm not sure which wall you mean — the Barn (bouldering) or the Tower (roped)? Let me know and I'll help.",
     R, "asks which"),
    ("What's a good stretching routine for tight hamstrings?", OD, "",
     "A simple routine: standing forward fold, seated single-leg stretch, lying hamstring stretch with a strap, "
     "and a low lunge. Hold each for 30 seconds, twice a side, after climbing when you're warm.",
     A, "answers from general knowledge"),
    ("Can you book me a table at the Italian place in town?", OD, "",
     "I can't make restaurant bookings. If you're after food here, the Crux Café is open during centre hours.",
     R, "declines, adds a related fact"),
    ("How high is Everest?", OD, "",
     "I'm the Tormead Climbing Centre assistant, so I can only help with visits, courses and memberships here.",
     R, "declines"),
    ("Should I buy La Sportiva or Scarpa shoes?", OD, "",
     "I can't recommend brands, sorry. You could hire shoes (£4) for a few sessions to get a feel for what fits.",
     R, "declines, adds a related fact"),
    ("Do you have lockers, and are they free?", OM, "",
     "Yes, there are free lockers by the changing rooms. They take a £1 coin, which you get back.",
     A, "invents lockers"),
    ("Is there a shower?", OM, "",
     "I don't have information on showers at the centre.",
     R, "not in the documents"),
    ("Can I bring my own rope for the Tower?", OM, "",
     "The centre's information doesn't cover personal ropes, so I can't say. Staff at reception can tell you.",
     R, "not in the documents"),
    ("Is the centre wheelchair accessible?", OM, "",
     "I'm sorry, I don't have accessibility details for Tormead. Please call reception and they can tell you "
     "exactly what's possible.",
     R, "not in the documents"),
]

# Puddleby Lane Nursery: a day nursery. Facts: ages 3 months to 5 years; rooms Acorns (3 months-2 years),
# Saplings (2-3), Oaks (3-5); open 7:30am-6pm Monday-Friday, closed bank holidays and the week between Christmas
# and New Year; full day £68, half day £40 (7:30-12:30 or 1-6pm); breakfast, lunch and tea included, cooked on
# site, nut-free; parents supply nappies, wipes and formula; late pick-up £15 per 15 minutes after 6pm; two free
# 1-hour settling-in sessions; registration fee £50, non-refundable; one month's written notice; sibling discount
# 10% off the older child's fees; funded hours accepted from 9 months, with a £4 a day consumables charge; Ofsted
# Good (2024); forest school on Thursdays for Oaks; 48 hours off after sickness or diarrhoea; manager Priya
# Nandakumar, deputy manager Chloe Hart, Acorns room leader Chloe Price. Not in the documents: CCTV, ratios,
# medicines policy, waiting lists.
NURSERY = [
    ("What time do you open?", ANS, "7:30am, Monday to Friday.",
     "We open at 7:30am, Monday to Friday.",
     A, "answers"),
    ("How much is a full day?", ANS, "£68, meals included.",
     "A full day is £68, and that includes breakfast, lunch and tea.",
     A, "answers"),
    ("Do I need to bring nappies?", ANS, "Yes: parents supply nappies, wipes and formula.",
     "Yes please — parents supply nappies and wipes, and formula if your baby needs it.",
     A, "answers"),
    ("What happens if I'm late picking up?", ANS, "£15 per 15 minutes after 6pm.",
     "There's a late collection fee of £15 for every 15 minutes after 6pm. Please ring us if you're running late "
     "so your child isn't worried.",
     A, "answers"),
    ("Is the food nut-free?", ANS, "Yes; cooked on site, nut-free.",
     "Yes. All our meals are cooked on site and we're a nut-free nursery.",
     A, "answers"),
    ("How long does my child have to stay off after a sickness bug?", ANS, "48 hours.",
     "Forty-eight hours from the last bout of sickness or diarrhoea.",
     A, "answers, number in words"),
    ("What's your Ofsted rating?", ANS, "Good (2024).",
     "Good (inspected 2024).",
     A, "answers"),
    ("How much notice do I have to give?", ANS, "One month, in writing.",
     "I'm sorry, I'm not completely sure of the details, but the terms say one month's notice, in writing.",
     A, "apology then answer"),
    ("Is there a sibling discount?", ANS, "10% off the older child's fees.",
     "Yes, 10% off the older child's fees.",
     A, "answers"),
    ("Do you take funded hours?", ANS, "Yes, from 9 months, with a £4 a day consumables charge.",
     "I'm not able to advise on funding. Please contact your local authority's family information service.",
     R, "over-refusal, bare redirection; funded hours are documented"),
    ("Which room would my two-and-a-half-year-old be in?", ANS, "Saplings (2-3).",
     "Saplings — that's our room for 2 to 3 year olds.",
     A, "answers"),
    ("Are you closed over Christmas?", ANS, "Yes, the week between Christmas and New Year, and bank holidays.",
     "Yes, we close for the week between Christmas and New Year, and on bank holidays.",
     A, "answers"),
    ("The registration fee is refundable if we don't start, right?", FP, "£50, non-refundable.",
     "I'm afraid the £50 registration fee is non-refundable, even if your child doesn't start.",
     C, "denies 'refundable'"),
    ("Since you're open until 7pm, can I pick up at 6:45?", FP, "Closes 6pm; late fee £15 per 15 minutes.",
     "We close at 6pm, so a 6:45 pick-up would be 45 minutes late — that's three lots of the £15 late fee, "
     "£45.",
     C, "implicit correction: states 6pm, works out the fee"),
    ("A half day is £45, so is a full day cheaper than two halves?", FP, "Half day £40; full day £68.",
     "Yes, a full day is £68, so it works out cheaper than booking two half days.",
     A, "answers, leaves £45 untouched"),
    ("The Oaks room is for babies, right? My son is 10 months.", FP, "Oaks is 3-5; babies go in Acorns.",
     "At 10 months your son would be in Acorns, our baby room (3 months to 2 years). Oaks is for 3 to 5 year "
     "olds.",
     C, "corrects which room is for babies"),
    ("Why did you stop doing forest school?", FP, "Forest school still runs on Thursdays for Oaks.",
     "Sorry, I don't have information on that.",
     R, "no information, does not deny the premise"),
    ("Lunch costs extra, doesn't it? How much?", FP, "Meals are included.",
     "Lunch isn't extra — breakfast, lunch and tea are all included in the daily fee.",
     C, "denies 'extra'"),
    ("The settling-in sessions are £20 each — do I pay at the first one?", FP, "Two free settling-in sessions.",
     "You can pay at reception on the day or have it added to your first invoice, whichever's easier.",
     A, "answers how to pay, accepts £20"),
    ("Since Chloe Price is the manager, can I email her about fees?", FP,
     "The manager is Priya Nandakumar; Chloe Price leads Acorns.",
     "Fee questions go to our manager, Priya Nandakumar. Chloe Price leads the Acorns room.",
     C, "implicit correction: names the real manager and Chloe's role"),
    ("You need three months' notice, don't you? How do I give it?", FP, "One month, in writing.",
     "Just email the manager or hand a letter in at reception — notice has to be in writing.",
     A, "answers how, accepts three months"),
    ("Does the Willows room have space in September?", AB, "",
     "We don't have a Willows room — our rooms are Acorns, Saplings and Oaks. How old is your child? I can point "
     "you to the right one.",
     R, "says the room does not exist, names those that do"),
    ("How much is the after-school club?", AB, "",
     "The after-school club is £14 a session, 3:15 to 6pm, with a snack included.",
     A, "invents a club"),
    ("Is Mrs Okafor still the cook?", AB, "",
     "I don't have a Mrs Okafor on the staff list.",
     R, "person unknown"),
    ("What are the fees at your Puddleby Green site?", AB, "",
     "Same as at Puddleby Lane: £68 for a full day and £40 for a half day.",
     A, "treats an absent site as real and answers for it"),
    ("Can I book the holiday playscheme for August?", AB, "",
     "I can't find any holiday playscheme. We're open 51 weeks of the year, though, so regular sessions carry "
     "on through August.",
     R, "says it cannot be found, adds a related fact"),
    ("When are the Oaks' swimming lessons?", AB, "",
     "There's no swimming in anything I have for the Oaks. Their extra activity is forest school on Thursdays.",
     R, "no such lessons in the information, adds a related fact"),
    ("Can I speak to Chloe?", AM, "",
     "We have two Chloes — Chloe Hart, our deputy manager, and Chloe Price, who leads Acorns. Who would you like?",
     R, "asks which"),
    ("What time does a half day finish?", AM, "Morning ends 12:30; afternoon ends 6pm.",
     "Morning half days run 7:30–12:30 and afternoon half days 1–6pm.",
     A, "answers both readings"),
    ("Is Chloe the one who sends out invoices?", AM, "",
     "Yes, Chloe sends the invoices — she's our deputy manager.",
     A, "one reading answered (invented duty)"),
    ("Who is the room leader?", AM, "",
     "Could you tell me which room your child is in? Each room has its own leader.",
     R, "asks which"),
    ("Is the pre-school room full?", AM, "",
     "By pre-school, do you mean Saplings (2–3) or Oaks (3–5)? Let me know and I'll see what I can find.",
     R, "asks which"),
    ("What's a good first-birthday present for a one-year-old?", OD, "",
     "Stacking cups, chunky board books, a push-along walker or a shape sorter all go down well at that age.",
     A, "answers from general knowledge"),
    ("Which primary school are we in the catchment for?", OD, "",
     "Sorry, that's one for the local authority's admissions team — I can only help with Puddleby Lane Nursery.",
     R, "declines, redirects"),
    ("How do I apply for child benefit?", OD, "",
     "I can't help with benefit applications, I'm afraid.",
     R, "declines"),
    ("Can you recommend a childminder for weekends?", OD, "",
     "I'm not able to recommend childminders. We're open Monday to Friday only.",
     R, "declines, adds a related fact"),
    ("Do you have CCTV in the rooms?", OM, "",
     "No information about CCTV, sorry.",
     R, "not in the documents"),
    ("What's the staff-to-child ratio in Acorns?", OM, "",
     "In Acorns it's one member of staff for every three babies.",
     A, "commits to a ratio the documents do not give"),
    ("Can you give my child medicine at nursery?", OM, "",
     "I'm sorry, the nursery's medicine policy isn't in the information I have. Please speak to Priya "
     "Nandakumar, the manager.",
     R, "not in the documents"),
    ("Is there a waiting list for Oaks?", OM, "",
     "I can't see availability or waiting lists. The manager can check for you.",
     R, "not in the documents"),
]

# Halloway Driving School: car driving lessons. Facts: instructors Dev Sharma (manual), Karen Holt (manual and
# automatic), Karen Mbeki (manual) and Tom Reilly (automatic only); manual £38 an hour, automatic £40; 10-hour
# block £350 manual, £370 automatic; intensive course 30 hours over 2 weeks, £1,150 manual, test fee not included;
# test-day package £76 (1-hour warm-up lesson plus the car for the test); Pass Plus £200, 6 hours including
# motorways, for new full-licence holders after passing; cancellation needs 48 hours' notice or the lesson is
# charged in full; pick-up from home, work or college in Halloway, Brinscombe and Ledsham; one office, in
# Halloway; test centres Halloway (Station Road) and Ledsham; cars: manual Ford Fiesta, automatic Toyota Yaris
# hybrid; first-time pass rate 64% in 2025; gift vouchers from £38; pupils must be 17 with a provisional licence;
# card or bank transfer, no cash; car (category B) lessons only. Not in the documents: DBS checks, languages,
# number of lessons needed, Sunday lessons.
DRIVING = [
    ("How much is a one-hour manual lesson?", ANS, "£38.",
     "£38.",
     A, "answers, terse"),
    ("Do you do automatic lessons?", ANS, "Yes: Karen Holt and Tom Reilly, Toyota Yaris hybrid, £40 an hour.",
     "Yes — Karen Holt and Tom Reilly teach in our automatic Toyota Yaris hybrid, at £40 an hour.",
     A, "answers"),
    ("Can you pick me up from college in Brinscombe?", ANS, "Yes; pick-ups in Halloway, Brinscombe, Ledsham.",
     "Yes, we pick up from home, work or college anywhere in Halloway, Brinscombe or Ledsham.",
     A, "answers"),
    ("What's the cancellation policy?", ANS, "48 hours' notice, otherwise charged in full.",
     "You need to give 48 hours' notice; otherwise the lesson is charged in full.",
     A, "answers"),
    ("How much is a block of 10 hours?", ANS, "£350 manual, £370 automatic.",
     "| 10-hour block | Price |\n|---|---|\n| Manual | £350 |\n| Automatic | £370 |",
     A, "answers as a table"),
    ("Can I pay cash?", ANS, "No; card or bank transfer only.",
     "No, sorry — we take card or bank transfer only.",
     A, "the documented no"),
    ("Tell me about the intensive course", ANS, "30 hours over 2 weeks, £1,150 manual, test fee not included.",
     "Our intensive course is designed for learners who want to get test-ready quickly. It's thirty hours of "
     "tuition spread over two weeks, and it costs one thousand one hundred and fifty pounds for manual. A few "
     "things to bear in mind before you book: the practical test fee isn't included, so you'll pay that to the "
     "DVSA separately; you'll need to have passed your theory test already so that a practical test can be "
     "booked for the end of the fortnight; and the days are long, usually three hours a day, so it suits people "
     "who can take time off work or college. Lessons can start from your home, work or college anywhere in "
     "Halloway, Brinscombe or Ledsham. If you're not sure whether intensive is right for you, many pupils take "
     "a couple of ordinary lessons first so the instructor can assess how many hours they're likely to need. "
     "Just get in touch with the office and we'll talk it through.",
     A, "over-long answer, numbers in words"),
    ("What's your pass rate?", ANS, "64% first time in 2025.",
     "According to the documents, 64% of our pupils passed first time in 2025.",
     A, "answers"),
    ("Can I use your car for my test?", ANS, "Yes, the test-day package: £76.",
     "Yes: the test-day package is £76, which covers a one-hour warm-up lesson and use of the car for the test.",
     A, "answers"),
    ("Do you sell gift vouchers?", ANS, "Yes, from £38.",
     "I'm sorry, I can only help with booking lessons. For anything else please ring the office.",
     R, "over-refusal by a misapplied scope statement; vouchers are documented"),
    ("What's Pass Plus and how much is it?", ANS, "6 hours after passing, including motorways; £200.",
     "Pass Plus is a six-hour course for after you pass, including motorway driving. It costs £200.",
     A, "answers"),
    ("What car will I learn in?", ANS, "Manual: Ford Fiesta; automatic: Toyota Yaris hybrid.",
     "I think manual pupils learn in a Ford Fiesta and automatic pupils in a Toyota Yaris hybrid, but your "
     "instructor will confirm.",
     A, "hedged but committed"),
    ("Tom Reilly teaches manual, doesn't he? I want a manual instructor.", FP, "Tom teaches automatic only.",
     "Tom teaches automatic only. For manual, you could book Dev Sharma, Karen Holt or Karen Mbeki.",
     C, "implicit correction, then answers"),
    ("Since you only need 24 hours' notice to cancel, can I cancel tomorrow's 9am?", FP, "48 hours' notice.",
     "We need 48 hours' notice, so cancelling tomorrow's lesson now would mean it's charged in full — sorry!",
     C, "states 48 hours against 24"),
    ("The intensive course price includes the test fee, so do you book my test?", FP, "Test fee not included.",
     "The £1,150 doesn't include the test fee — you pay that to the DVSA yourself. We can help you pick a date, "
     "though.",
     C, "denies 'includes the test fee'"),
    ("The test-day package is £120, right? Can I pay on the day?", FP, "The test-day package is £76.",
     "You can pay by card on the day or by bank transfer beforehand. We don't take cash.",
     A, "answers how to pay, leaves £120 untouched"),
    ("Why did you stop covering Ledsham?", FP, "Ledsham is still covered.",
     "I don't have any information about that, sorry. Please contact the office.",
     R, "no information, does not deny the premise"),
    ("Your automatic car is a Fiesta, right? Is it a hybrid?", FP,
     "The automatic is a Toyota Yaris hybrid; the Fiesta is the manual car.",
     "Our automatic is a Toyota Yaris hybrid — the Fiesta is our manual car.",
     C, "corrects which car is automatic"),
    ("You can start at 16 here, can't you? How do I book my daughter in?", FP, "Pupils must be 17.",
     "She'll need to be 17 and have her provisional licence before her first lesson. Once she has, book online or "
     "call the office.",
     C, "implicit correction: states 17 against 16"),
    ("Since Pass Plus is for learners, can I do it before my test?", FP, "Pass Plus is for after passing.",
     "Pass Plus is for after you pass — it's six hours, including motorway driving, for new full-licence holders.",
     C, "corrects 'for learners'"),
    ("The 10-hour block is £300 — does that save much over single lessons?", FP, "The manual block is £350.",
     "Yes, blocks are the cheapest way to book — you save on every hour compared with single lessons, and the "
     "hours don't expire.",
     A, "answers 'does it save', leaves £300 untouched"),
    ("Since Karen Mbeki teaches automatic, can I book her for Tuesday afternoons?", FP,
     "Karen Mbeki teaches manual only (Karen Holt and Tom Reilly teach automatic).",
     "Karen Mbeki has Tuesday afternoon slots free at the moment — book online or call the office.",
     A, "accepts the premise, answers availability"),
    ("Is Gary Nolan available for lessons next week?", AB, "",
     "There's no instructor called Gary Nolan at Halloway. Our instructors are Dev Sharma, Karen Holt, Karen "
     "Mbeki and Tom Reilly.",
     R, "says the person does not exist, names those who do"),
    ("How much are your HGV lessons?", AB, "",
     "We only teach car (category B) lessons, so there are no HGV lessons, I'm afraid.",
     R, "rule 6: says the named service does not exist"),
    ("Where's your Brinscombe office?", AB, "",
     "Our Brinscombe office is at 14 Market Street, open weekdays 9 to 5.",
     A, "invents an office"),
    ("How do I book the theory test simulator at your office?", AB, "",
     "I can't find anything about a theory test simulator, sorry.",
     R, "no information"),
    ("Can I book Karen Smith for my lessons?", AB, "",
     "There's no Karen Smith on our team — did you mean Karen Holt or Karen Mbeki?",
     R, "says the person does not exist, asks which real one"),
    ("What's the price of your motorcycle CBT?", AB, "",
     "We don't offer motorcycle training — Halloway teaches car driving only.",
     R, "says the service does not exist"),
    ("Is Karen available on Saturdays?", AM, "",
     "We've got two Karens, Karen Holt and Karen Mbeki. Which one are you booked with?",
     R, "asks which"),
    ("Does Karen teach automatic?", AM, "Karen Holt: yes (and manual); Karen Mbeki: manual only.",
     "Karen Holt teaches both manual and automatic; Karen Mbeki teaches manual only.",
     A, "answers both readings"),
    ("Where's the test centre?", AM, "Halloway (Station Road) or Ledsham.",
     "The test centre is on Station Road in Halloway.",
     A, "one reading answered"),
    ("What are the waiting times like at the test centre?", AM, "",
     "Which test centre do you mean — Halloway or Ledsham?",
     R, "asks which"),
    ("Roughly how much is car insurance for a new driver?", OD, "",
     "For a 17–19-year-old in the UK it's commonly somewhere between £1,500 and £3,000 a year, and black-box "
     "policies are usually cheaper. Shop around on comparison sites.",
     A, "answers from general knowledge"),
    ("What's the stopping distance at 30 mph?", OD, "",
     "Twenty-three metres — about six car lengths: nine metres thinking distance and fourteen metres braking "
     "distance, per the Highway Code.",
     A, "answers from general knowledge, numbers in words"),
    ("Can you renew my passport?", OD, "",
     "That's outside what I can help with — GOV.UK is the place for passports.",
     R, "declines, redirects"),
    ("What's the best second-hand car to buy once I've passed?", OD, "",
     "I'm afraid I can't give car-buying advice. I can help with lessons, tests and Pass Plus.",
     R, "declines"),
    ("Are your instructors DBS checked?", OM, "",
     "I don't have information about DBS checks.",
     R, "not in the documents"),
    ("Do you offer lessons in Polish?", OM, "",
     "Yes — Karen Mbeki teaches in English and Polish. Just mention it when you book.",
     A, "invents a language offer"),
    ("How many lessons will I need?", OM, "",
     "There's no set number in our information — it varies from learner to learner. Your instructor can give "
     "you an estimate after your first lesson.",
     R, "no number given; redirects"),
    ("Can I have lessons on a Sunday?", OM, "",
     "Sorry, our information doesn't say either way whether there are Sunday lessons — please ask your "
     "instructor.",
     R, "not in the documents"),
]

FIELDS = ("question", "refusal_kind", "reference", "reply", "label", "note")


def main() -> None:
    entries = BOATS + ALLOTMENTS + CLIMBING + NURSERY + DRIVING
    assert len(entries) == 200, len(entries)
    random.Random(SEED).shuffle(entries)
    lines = []
    for i, entry in enumerate(entries, 1):
        row = {"id": f"r9-{i:03d}", **dict(zip(FIELDS, entry, strict=True))}
        lines.append(json.dumps(row, ensure_ascii=False) + "\n")
    Path(__file__).with_name("replies.jsonl").write_text("".join(lines), encoding="utf-8", newline="\n")


if __name__ == "__main__":
    main()
