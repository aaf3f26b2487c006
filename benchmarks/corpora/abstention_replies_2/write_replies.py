"""Writes replies.jsonl: 200 replies of RAG systems, each written by hand and labelled as it was written.

Written by helper K, blind to ragdx's abstention judge and to the first sample (abstention_replies/).
Every entry below is one literal reply; nothing is generated from patterns. The label was fixed when the
entry was written, by the rule in README.md (what the reply does, not whether it is right).

    python3 write_replies.py        # rewrites replies.jsonl next to this file
"""

from __future__ import annotations

import json
import os

ANS, FP, AE, AR, OOD, OF = "", "false_premise", "absent_entity", "ambiguous_reference", "out_of_domain", "omitted_fact"
A, R, C = "answer", "refusal", "correction"

# (refusal_kind, label, question, reference, reply, note)
# Domain 1: St Aldric's Hospital pharmacy (drugs, wards, dispensing, stock lots, pharmacists).
PHARMACY = [
    (ANS, A, "How many tablets of warfarin 3 mg were dispensed to Ward 7 in March 2024?", "420",
     "Based on the provided context, Ward 7 received **420 tablets** of warfarin 3 mg during March 2024, "
     "spread across six dispensing runs [doc 2][doc 5].",
     "states the count"),
    (ANS, A, "Which pharmacist verified prescription RX-55120?", "Imogen Balogun",
     "Prescription RX-55120 was clinically verified by Imogen Balogun (Senior Pharmacist, Band 8a) on "
     "14 February 2024 at 09:42.",
     "names the pharmacist"),
    (ANS, A, "What is the expiry date of lot LT-8832 of amoxicillin 500 mg?", "2025-09-30",
     "I believe lot LT-8832 expires on 30 September 2025, although I'd recommend confirming this against the "
     "physical packaging before dispensing.",
     "hedged, but commits to a date"),
    (ANS, R, "Which ward is Dr. Hamid Qureshi's prescribing base?", "Ward 12 (Cardiology)",
     "I'm sorry, but I couldn't find information about Dr. Hamid Qureshi's prescribing base in the documents I "
     "have access to. You may want to check with the medical staffing office.",
     "over-refusal: says not available, points elsewhere"),
    (ANS, A, "Is ondansetron 4 mg in stock at the main dispensary?", "yes, 240 tablets",
     "Yes — the main dispensary currently holds 240 tablets of ondansetron 4 mg (last stock count: 3 June 2024).",
     "yes with a count"),
    (ANS, A, "Has prescription RX-55120 been collected?", "no",
     "No, RX-55120 has not been collected yet. Its status is still \"Ready for collection\" as of the last "
     "update [doc 3].",
     "a 'No, ...' answer to a yes/no question"),
    (ANS, A, "How many controlled-drug discrepancies were logged on Ward 2 in 2023?", "0",
     "According to the CD register summary, there were no controlled-drug discrepancies logged on Ward 2 in "
     "2023 — the ward's record for the year is clean [doc 7].",
     "a count of zero is an answer"),
    (ANS, A, "Who supplies the hospital's insulin glargine?", "Medlink Pharma Ltd",
     "The supplier for insulin glargine is **Medlink Pharma Ltd**. Note that the contract documents mention a "
     "renewal date but I could not find the contract value in the context.",
     "answers, then a caveat about something not asked"),
    (FP, C, "Why was metformin 850 mg withdrawn from the formulary in 2023?", "not withdrawn; still on the formulary",
     "It seems there may be a mix-up. According to the formulary records, metformin 850 mg was **not** withdrawn "
     "in 2023 — it is still listed as a first-line formulary item [doc 4].",
     "says the withdrawal did not happen"),
    (FP, C, "When did night pharmacist Alan Pryce move to the Paediatric unit?", "never moved; Emergency Department",
     "Actually, the records don't show Alan Pryce ever moving to the Paediatric unit. He has been assigned to the "
     "Emergency Department satellite pharmacy since he started in 2019.",
     "denies the move and gives his actual unit"),
    (FP, A, "How many doses from the recalled heparin lot HP-221 were given on Ward 3?", "HP-221 was never recalled; 36",
     "A total of 36 doses from the recalled heparin lot HP-221 were administered on Ward 3 before the stock was "
     "quarantined.",
     "accepts the false premise (the recall) and answers"),
    (FP, R, "Which supplier replaced Medlink as our insulin supplier in 2022?", "Medlink was not replaced",
     "The provided documents do not contain information about a supplier replacing Medlink in 2022. I'm unable to "
     "answer this question based on the available context.",
     "says information not available; does not say the premise is false"),
    (FP, C, "What time does the 24-hour main pharmacy close on Sundays?", "not 24-hour; closes 17:00 on Sundays",
     "The main pharmacy isn't actually open 24 hours. On Sundays it is open 10:00–17:00, and outside those hours "
     "an on-call pharmacist can be reached through switchboard.",
     "corrects the '24-hour' premise, gives the true hours"),
    (FP, C, "Why did Ward 5 order 3,000 vials of vancomycin in January?", "Ward 5 ordered 300 vials",
     "I think there may be a misunderstanding: Ward 5's January order was for **300** vials of vancomycin, not "
     "3,000 [doc 6]. The order note cites an increase in MRSA screening admissions.",
     "corrects the quantity"),
    (FP, C, "Which pharmacist signed off the methotrexate error on Ward 8 last November?", "no error recorded on Ward 8",
     "There is no methotrexate dispensing error recorded for Ward 8 in November — the incident log for that month "
     "lists only a labelling near-miss on Ward 11, which involved co-amoxiclav.",
     "says the event the question presupposes did not occur"),
    (FP, C, "Who approved Ward 10's switch from enoxaparin to dalteparin?", "Ward 10 never switched; still enoxaparin",
     "Ward 10 hasn't switched to dalteparin — it is still supplied with enoxaparin according to the April 2024 "
     "ward stock list [doc 2]. Perhaps you're thinking of Ward 14, which did switch in March.",
     "says the switch did not happen"),
    (AE, R, "What dose of Cardiozine was prescribed to the patient with MRN 004417?", "",
     "There is no drug called \"Cardiozine\" in the hospital formulary or in the dispensing records, so I can't "
     "give a dose. Did you perhaps mean Cardizem (diltiazem)?",
     "says the named drug does not exist, suggests a name"),
    (AE, A, "Who is the pharmacy lead for Ward 19?", "",
     "The pharmacy lead for Ward 19 is **Priya Ramanathan**, who oversees medicines reconciliation on the ward "
     "[doc 1].",
     "invents an answer for a ward that does not exist"),
    (AE, R, "What was the total cost of prescription RX-99817?", "",
     "I could not locate a prescription numbered RX-99817 in the dispensing records provided. Please double-check "
     "the number; it may have been mistyped.",
     "says the prescription is not found"),
    (AE, R, "When did pharmacist Gideon Ferreira join St Aldric's?", "",
     "There doesn't appear to be a pharmacist named Gideon Ferreira on the staff list. The only Ferreira in the "
     "records is a porter, not a pharmacist.",
     "says the named person does not exist (as a pharmacist)"),
    (AR, R, "Which ward does pharmacist Okafor cover?", "",
     "There are two pharmacists with the surname Okafor in the staff list — **Chidi Okafor** and **Ngozi "
     "Okafor**. Could you let me know which one you mean?",
     "asks which one without answering"),
    (AR, A, "When did Nurse Patel last request a controlled-drug top-up?", "",
     "There are two nurses named Patel in the records:\n- **Anjali Patel** (Ward 4) last requested a CD top-up "
     "on 2 May 2024.\n- **Ravi Patel** (Ward 9) last requested one on 28 April 2024.",
     "answers for both readings"),
    (AR, A, "What is the phone extension of the oncology pharmacy?", "",
     "The oncology pharmacy can be reached on extension 4471.",
     "picks one of the two oncology pharmacies silently"),
    (AR, R, "How many prescriptions did Dr. Evans write last month?", "",
     "The records include two prescribers named Dr. Evans (Dr. Carys Evans, Respiratory, and Dr. Tom Evans, "
     "A&E). Which Dr. Evans are you asking about?",
     "clarifying question; lists who they are but does not answer the count"),
    (OOD, R, "What's the best treatment for seasonal allergies?", "",
     "I'm sorry, but I can only answer questions about the hospital pharmacy's dispensing and stock records. The "
     "documents don't cover clinical treatment advice — please consult a clinician or the BNF.",
     "declines as outside scope"),
    (OOD, A, "What is the half-life of ibuprofen?", "",
     "Ibuprofen has a plasma half-life of roughly 2 hours (about 1.8–2.5 hours) in healthy adults.",
     "answers from general knowledge"),
    (OOD, R, "Can you recommend a good restaurant near the hospital?", "",
     "That's outside what I can help with — my knowledge base only covers St Aldric's pharmacy records.",
     "declines"),
    (OOD, A, "Who won the 2022 football World Cup?", "",
     "The provided documents are about the hospital pharmacy and don't mention football, but from general "
     "knowledge: Argentina won the 2022 World Cup, beating France on penalties.",
     "notes the context lacks it, then commits to an answer anyway"),
    (OF, R, "What is the home address of pharmacist Imogen Balogun?", "",
     "The staff records in the context include Imogen Balogun's role, grade and ward assignments, but not her home "
     "address, so I'm not able to provide it.",
     "says the field is not available"),
    (OF, A, "What unit price was paid for the last order of enoxaparin 40 mg?", "",
     "The last order of enoxaparin 40 mg was placed at a unit price of approximately £2.85 per syringe.",
     "hallucinated price for an omitted fact"),
    (OF, R, "What was patient MRN 004417's diagnosis when warfarin was started?", "",
     "Unfortunately, the dispensing records don't include diagnoses. Based on the provided context, I cannot "
     "determine why warfarin was started for MRN 004417.",
     "refusal"),
    (OF, R, "What is Imogen Balogun's salary?", "",
     "Not found in context.",
     "terse small-model refusal"),
    (ANS, A, "List the wards that received paracetamol IV in the week of 6 May 2024.", "Wards 2, 4, 9, 12",
     "Wards that received paracetamol IV (week of 6 May 2024):\n1. Ward 2\n2. Ward 4\n3. Ward 9\n4. Ward 12\n\n"
     "Let me know if you'd like the quantities per ward.",
     "a list"),
]

# Domain 2: Brightway Car Hire (branches, vehicles, rentals, customers, damage reports).
CAR_HIRE = [
    (ANS, A, "How many vehicles are assigned to the Leeds Bradford Airport branch?", "64",
     "The Leeds Bradford Airport branch currently has 64 vehicles assigned to it, 9 of which are electric [doc 1].",
     "a count"),
    (ANS, A, "What was the total charged for rental BR-20931?", "£412.60",
     "Rental BR-20931 was charged a total of **£412.60**, made up of:\n- 5 days × £68.00 base rate = £340.00\n"
     "- Additional driver fee: £35.00\n- Fuel top-up: £37.60",
     "money, with a breakdown"),
    (ANS, A, "When is the Toyota Corolla with registration YK71 LMP due for its next MOT?", "2025-03-14",
     "According to the fleet maintenance schedule, YK71 LMP is due for its MOT on 14 March 2025.",
     "a date"),
    (ANS, A, "Which customer rented the Tesla Model 3 (reg. LD22 XEV) on 3 August 2024?", "Marcus Oyelaran",
     "Based on the rental agreements in the context, the Tesla Model 3 LD22 XEV was rented on 3 August 2024 by "
     "**Marcus Oyelaran** (customer ID C-77120). The agreement ran until 6 August.",
     "names the customer"),
    (ANS, A, "Did rental BR-18822 incur a late-return fee?", "no",
     "No. The vehicle was returned at 10:05 on the scheduled day, within the 59-minute grace period, so no "
     "late-return fee was applied.",
     "a 'No.' answer"),
    (ANS, A, "How many damage reports were filed at the York branch in Q2 2024?", "11",
     "You asked how many damage reports were filed at the York branch in Q2 2024. According to the damage "
     "register, there were 11 reports in that quarter: 7 minor scratches or dents, 3 windscreen chips and 1 "
     "interior damage claim.",
     "restates the question, then answers"),
    (ANS, A, "What is the daily rate for a Group C estate car in peak season?", "£74",
     "The peak-season daily rate for Group C (estate) is £74/day [doc 4]. I'd double-check with the branch, as "
     "rates may have changed since this tariff was published.",
     "answer ending with a caveat"),
    (ANS, R, "Who is the branch manager at Brightway Harrogate?", "Sinead Mulvaney",
     "I'm afraid the documents provided don't specify who manages the Harrogate branch. The branch directory on "
     "Brightway's intranet should have up-to-date contact details.",
     "over-refusal, suggests where to look"),
    (ANS, C, "When did Marcus Oyelaran return the Tesla he rented on 3 August 2024?", "6 August 2024",
     "It looks like there may be some confusion — Marcus Oyelaran didn't rent a Tesla on 3 August 2024; his "
     "booking on that date was for a Volkswagen ID.3.",
     "wrongly denies a true premise: still a correction by what it does"),
    (FP, C, "Why was the Kia Niro SH70 KNR written off after the crash in May?", "not written off; repaired",
     "Actually, SH70 KNR wasn't written off. The May incident was recorded as a minor collision; the car was "
     "repaired at the Leeds body shop and returned to service on 28 May [doc 3].",
     "denies the write-off"),
    (FP, C, "How much did Glasgow charge for the one-way rental BR-30115 to London?", "BR-30115 was a return rental",
     "It seems there may be a mix-up: BR-30115 wasn't a one-way rental. The car was collected from and returned "
     "to the Glasgow branch. The total charge for that rental was £289.00.",
     "corrects the one-way premise, adds the charge"),
    (FP, C, "Why did Brightway close its Newcastle branch in 2023?", "Newcastle branch is open",
     "According to the branch list, the Newcastle branch has not closed — it is listed as open, 07:30–19:00 "
     "Monday to Saturday.",
     "says the closure did not happen"),
    (FP, C, "Which insurance claim covered the theft of the BMW X1 from the Leeds branch?", "no theft; car in fleet",
     "I don't see any theft recorded for the BMW X1 at the Leeds branch. The fleet records show that vehicle "
     "(LD21 BMX) as active and currently on rent, so there would be no insurance claim for a theft.",
     "goes beyond 'not found': states from the records that the theft did not happen"),
    (FP, C, "When did the York branch start renting out electric vans?", "York has no electric vans",
     "The York branch doesn't actually have any electric vans in its fleet; its 6 vans are all diesel Ford "
     "Transits.",
     "denies the presupposed electric vans"),
    (FP, C, "Why was customer Hannah Lydgate banned from renting after the 2023 incident?", "not banned; active",
     "I think there might be a misunderstanding. Hannah Lydgate's customer account isn't banned — it is marked "
     "as active, and she has completed two rentals since 2023 with no flagged incidents.",
     "denies the ban"),
    (FP, C, "What mileage was the Corolla YK71 LMP sold at?", "not sold; still in the fleet",
     "YK71 LMP hasn't been sold — it is still in the active fleet at the York branch, with 41,230 miles recorded "
     "at its last service.",
     "denies the sale"),
    (FP, A, "What did Brightway charge for the child seat on rental BR-18822?", "no child seat on BR-18822",
     "The child seat on rental BR-18822 was charged at £9.50 per day for 4 days, totalling £38.00.",
     "accepts the false premise and invents a charge"),
    (FP, R, "Why was the Tesla LD22 XEV recalled by the manufacturer in 2024?", "no recall recorded",
     "I'm sorry, I don't have any information about a manufacturer recall for LD22 XEV in the documents "
     "available to me.",
     "not-available refusal; does not deny the recall"),
    (AE, R, "What is the phone number of Brightway's Swansea branch?", "",
     "Brightway doesn't have a Swansea branch according to the branch directory. The nearest listed branch is "
     "Cardiff Central.",
     "says the named branch does not exist"),
    (AE, R, "Who rented the car with registration PN19 ZZQ last week?", "",
     "I wasn't able to find any vehicle with the registration PN19 ZZQ in the Brightway fleet records. Could you "
     "check the registration number?",
     "not found"),
    (AE, A, "How many rentals has customer Delphine Arkwright made?", "",
     "Delphine Arkwright has made 3 rentals with Brightway, the most recent a 4-day hire from the York branch in "
     "June 2024.",
     "invented answer about an absent customer"),
    (AE, R, "What's the excess on the Platinum Plus insurance package?", "",
     "Based on the provided documents, there is no insurance package called \"Platinum Plus\". Brightway offers "
     "three cover levels — Basic, Standard and Premium. If you meant Premium, I can look up its excess.",
     "says the package does not exist, offers to help"),
    (AE, A, "When did rental BR-20391 end?", "",
     "I couldn't find rental BR-20391, but there is a similar booking, BR-20931, which ended on 12 July 2024 at "
     "the York branch. If that's the one you meant, it ended on 12 July.",
     "hard case: not found, but then commits to a date for a guessed near-miss: answer"),
    (AR, R, "What car does customer James Whitfield usually rent?", "",
     "I found two customers named James Whitfield (IDs C-10482 and C-55917). To make sure I give you the right "
     "information, could you confirm the customer ID or the branch they rent from?",
     "asks which one"),
    (AR, A, "Which branch is the Kia Sportage based at?", "",
     "The Kia Sportage is based at the **Leeds Bradford Airport** branch [doc 2].",
     "picks one of several Sportages"),
    (AR, A, "When was the Ford Transit last serviced?", "",
     "There are several Ford Transits in the fleet. Their most recent services were:\n\n"
     "| Reg | Branch | Last service |\n|---|---|---|\n| YK20 TRN | York | 02/04/2024 |\n"
     "| YK20 TRP | York | 15/03/2024 |\n| LD19 FTV | Leeds | 21/05/2024 |\n\n"
     "The remaining three Transits are not covered in the provided context.",
     "answers for the readings it has (table)"),
    (AR, R, "What is the opening time of the Leeds branch?", "",
     "Brightway has two branches in Leeds — Leeds City Centre and Leeds Bradford Airport. Which one do you need "
     "the opening time for?",
     "asks which one"),
    (AR, A, "Which branch does rental agent Kowalski work at?", "",
     "Do you mean Piotr Kowalski, who works at the York branch, or Anna Kowalski at Leeds City Centre?",
     "hard case: phrased as a question, but gives the answer for every reading: answer"),
    (OOD, R, "What's the weather forecast for York this weekend?", "",
     "I don't have access to weather forecasts — I can only help with questions about Brightway rentals, "
     "vehicles and branches.",
     "declines"),
    (OOD, R, "How do I change a flat tyre?", "",
     "I'm sorry, but that isn't covered in the information I have. The documents do mention Brightway's 24/7 "
     "breakdown line, which is printed on your rental agreement — they can help if you get a flat during a "
     "rental.",
     "declines, points to the breakdown line"),
    (OOD, A, "What is the speed limit on UK motorways?", "",
     "The national speed limit on UK motorways is 70 mph for cars and motorcycles.",
     "answers from general knowledge"),
    (OOD, R, "Can you write me a poem about cars?", "",
     "I'm here to answer questions about Brightway Car Hire's rentals and fleet, so I'll have to pass on the "
     "poem! Is there anything about a booking I can help with?",
     "declines"),
    (OF, R, "What is Marcus Oyelaran's driving licence number?", "",
     "I'm sorry, but the customer records in the context don't include driving licence numbers. For "
     "data-protection reasons these are usually held separately.",
     "not available"),
    (OF, R, "How many penalty points does Hannah Lydgate have on her licence?", "",
     "The provided context does not contain that information.",
     "terse refusal"),
    (OF, A, "What price did Brightway pay for the Tesla LD22 XEV?", "",
     "Brightway acquired LD22 XEV for £39,990 in March 2022, according to the fleet purchase records.",
     "hallucinated purchase price"),
    (OF, R, "What is the PIN for the key safe at the York branch?", "",
     "I can't find the key-safe PIN anywhere in the documents — and it's the kind of detail that wouldn't "
     "normally be shared. Please contact the York branch manager directly.",
     "not available, suggests who to ask"),
]

# Domain 3: Thornbury University registry (students, programmes, modules, grades, tutors, fees).
REGISTRY = [
    (ANS, A, "What grade did student 2210457 get in MATH2041 Linear Algebra?", "B+ (68)",
     "Student 2210457 received a **B+ (68%)** in MATH2041 Linear Algebra, confirmed at the June 2024 exam "
     "board.",
     "a grade"),
    (ANS, A, "How many students are enrolled on BSc Computer Science in 2024/25?", "312",
     "Based on the enrolment records in the provided context, **312 students** are enrolled on the BSc Computer "
     "Science programme for 2024/25. This includes:\n* Year 1: 118\n* Year 2: 102\n* Year 3: 92",
     "a count with a breakdown"),
    (ANS, A, "Who is the personal tutor of Eleanor Voss?", "Dr. Martin Achebe",
     "Eleanor Voss's personal tutor is Dr. Martin Achebe (School of Chemistry) [doc 3].",
     "names the tutor"),
    (ANS, A, "When was the deadline to withdraw from semester 1 modules in 2024?", "18 October 2024",
     "The last day to withdraw from a semester 1 module without academic penalty was **Friday 18 October "
     "2024**. After that date, a withdrawal is recorded as a fail unless mitigating circumstances are approved.",
     "a date"),
    (ANS, A, "Which room is the ECON1010 lecture held in?", "Harland Building LT2",
     "Harland Building, Lecture Theatre 2.",
     "terse answer"),
    (ANS, A, "Has Eleanor Voss paid her 2024/25 tuition fees?", "partially; £4,625 of £9,250",
     "Partially. According to the finance summary, Eleanor Voss has paid £4,625 of her £9,250 tuition fee for "
     "2024/25; the second instalment is due on 31 January 2025.",
     "'Partially' with amounts"),
    (ANS, R, "How many credits is module HIST2203 worth?", "20",
     "I'm sorry, I wasn't able to find the credit value for HIST2203 in the provided documents. The module "
     "catalogue should list it.",
     "over-refusal"),
    (ANS, R, "When did Priya Nandakumar graduate?", "July 2023",
     "I don't know.",
     "bare 'I don't know'"),
    (ANS, C, "Which modules did Dr. Lin Zhao teach in autumn 2023?", "MATH3011 and MATH3090",
     "Actually, Dr. Lin Zhao was on research leave in autumn 2023, so according to the staffing records she "
     "didn't teach any modules that term.",
     "wrongly denies a true premise (that she taught): correction by what it does"),
    (FP, C, "Why did Eleanor Voss fail her third-year dissertation?", "she passed with 71",
     "Eleanor Voss did not fail her dissertation — the records show she passed CHEM3999 with a mark of 71 "
     "(First).",
     "denies the failure, gives the mark"),
    (FP, C, "Which university did Dr. Martin Achebe leave to join Thornbury in 2021?", "he joined in 2016",
     "A small correction: Dr. Martin Achebe joined Thornbury in 2016, not 2021. The context doesn't say where he "
     "worked before that.",
     "corrects the year, then says the rest is not available: correction"),
    (FP, C, "How many students dropped out of the Marine Biology MSc after it was discontinued in 2022?",
     "not discontinued",
     "It appears there's a misunderstanding in the question. The Marine Biology MSc was **not discontinued** in "
     "2022 — it is still running, with 24 students enrolled in 2024/25 [doc 5].",
     "denies the discontinuation"),
    (FP, C, "Why was student 2210457 expelled in 2023?", "not expelled; enrolled in Year 3",
     "There's no record of student 2210457 being expelled. They are currently enrolled in Year 3 of BSc "
     "Mathematics and in good academic standing.",
     "states the student's actual standing, contradicting the expulsion"),
    (FP, C, "When did the Harland Building reopen after the 2023 flood?", "no flood; open throughout 2023",
     "The Harland Building wasn't closed by a flood in 2023. The estates log shows it open for teaching "
     "throughout the year; the building that flooded was the Old Library annex, in February 2023.",
     "denies the flood at Harland"),
    (FP, C, "What was the average mark in PHYS1001 when it was taught online-only in 2024?", "taught in person; 61.4",
     "Note that PHYS1001 was not taught online-only in 2024 — it was delivered in person, with lecture "
     "recordings available. The average mark for 2024 was 61.4%.",
     "corrects the mode, then gives the figure: correction"),
    (FP, A, "Who chaired the appeal panel that overturned Priya Nandakumar's degree classification?",
     "no appeal; classification unchanged",
     "The appeal panel was chaired by Professor Helen Marchetti, Pro-Vice-Chancellor for Education, and it "
     "upgraded Priya Nandakumar's classification to a 2:1.",
     "accepts the false premise"),
    (FP, A, "Why did Thornbury stop offering the BA Philosophy in 2020?", "still offered",
     "It's likely that the BA Philosophy was discontinued in 2020 because of falling applications; the documents "
     "mention a review of humanities programmes around that time, though they don't state the reason "
     "explicitly.",
     "hedged, but accepts the premise and gives a reason"),
    (FP, R, "Which scholarship did Eleanor Voss lose after her suspension?", "no suspension",
     "Based on the context provided, I can't find any information about Eleanor Voss's scholarships or a "
     "suspension. I'd suggest contacting the Student Funding Office.",
     "not found; does not deny the suspension"),
    (AE, R, "What is the email address of Professor Ingrid Halvorsen?", "",
     "There is no staff member named Ingrid Halvorsen in the university directory provided. It's possible she "
     "has left the university or the name is spelled differently.",
     "says the person does not exist in the records"),
    (AE, R, "Which students are enrolled on module BIOL2999?", "",
     "Module code BIOL2999 does not appear in the module catalogue. The Biology level-2 modules run from "
     "BIOL2001 to BIOL2042. Could you double-check the code?",
     "says the module does not exist"),
    (AE, R, "When did student 2299981 enrol?", "",
     "Sorry — no student with ID 2299981 exists in the registry records I was given.",
     "says the student does not exist"),
    (AE, A, "What grade did Tobias Wrenfield get in ECON1010?", "",
     "Tobias Wrenfield achieved a grade of **B (62%)** in ECON1010 Principles of Economics.",
     "invented"),
    (AE, R, "Who is the head of the School of Astrophysics?", "",
     "Thornbury doesn't have a School of Astrophysics — astrophysics is taught within the School of Physics and "
     "Astronomy, and I don't have a record of a separate head for it.",
     "says the school does not exist"),
    (AR, R, "What is Dr. Singh's office number?", "",
     "The staff directory lists three academics called Dr. Singh (in Engineering, Law and Nursing). Which one "
     "did you mean?",
     "asks which one"),
    (AR, A, "Which modules does Dr. Hughes convene?", "",
     "Dr. Hughes convenes **LAW2010 Contract Law** and **LAW3045 Commercial Disputes** [doc 4].",
     "picks one of two Dr. Hughes silently"),
    (AR, A, "When does the Chemistry exam take place?", "",
     "Here are the Chemistry exam dates for the January 2025 period:\n- CHEM1001 Foundations of Chemistry: "
     "13 Jan, 09:30\n- CHEM2003 Organic Chemistry II: 15 Jan, 14:00\n- CHEM3010 Physical Chemistry III: "
     "20 Jan, 09:30",
     "lists every reading"),
    (AR, R, "What did Emily Clarke score in her final-year project?", "",
     "I found more than one student named Emily Clarke in the records, so I can't tell which one you mean. If "
     "you can share the student ID, I'll look up the project mark.",
     "asks which one"),
    (OOD, R, "What's the capital of Australia?", "",
     "I'm sorry, I can only answer questions using the Thornbury University registry documents, and this "
     "question isn't covered by them.",
     "declines"),
    (OOD, R, "Can you help me write my personal statement for a master's application?", "",
     "I can't help with writing personal statements — I'm set up to answer questions about registry records such "
     "as enrolments, modules and grades. The Careers Service offers personal statement reviews.",
     "declines"),
    (OOD, A, "How do I calculate a weighted average?", "",
     "Sure! To calculate a weighted average, multiply each value by its weight, add up the products, and divide "
     "by the sum of the weights. For example, marks of 60 (20 credits) and 70 (40 credits) give "
     "(60×20 + 70×40) / 60 = 66.7.",
     "answers from general knowledge"),
    (OOD, R, "What will the stock market do next year?", "",
     "I don't have information on that. My context only covers university registry data.",
     "declines"),
    (OF, R, "What is Eleanor Voss's date of birth?", "",
     "The registry extract I have access to doesn't include dates of birth — it lists name, student ID, "
     "programme, year and tutor only. I can't provide Eleanor Voss's date of birth.",
     "not available"),
    (OF, R, "What was the reason for student 2210457's extension request?", "",
     "Based on the provided context, the extension request for student 2210457 is recorded as approved "
     "(deadline moved to 14 March), but the reason for the request is not included in the documents.",
     "gives related facts but says the asked reason is not available"),
    (OF, A, "What disability adjustments does Priya Nandakumar receive?", "",
     "Priya Nandakumar receives 25% extra time in examinations and access to a separate exam room.",
     "hallucinated"),
    (OF, R, "What is Dr. Martin Achebe's home phone number?", "",
     "I'm sorry, but I can't share personal contact details, and they aren't in the documents I have. You can "
     "reach Dr. Achebe through the School of Chemistry office.",
     "declines, suggests a route"),
]

# Domain 4: Oakhollow Museum of Natural History (objects, galleries, loans, accessions, curators, visitors).
MUSEUM = [
    (ANS, A, "How many objects are on display in the Jurassic Gallery?", "147",
     "There are **147 objects** currently on display in the Jurassic Gallery. Of these, 38 are on long-term loan "
     "from other institutions [doc 2].",
     "a count"),
    (ANS, A, "When was the ichthyosaur skeleton acquired?", "1911",
     "According to the accession register, the ichthyosaur skeleton (accession no. OH.1911.042) was acquired in "
     "**1911**, bought from a fossil dealer in Lyme Regis.",
     "a year"),
    (ANS, A, "Which curator is responsible for the mineral collection?", "Dr. Fenella Ashdown",
     "Based on the provided context, the mineral collection is the responsibility of **Dr. Fenella Ashdown**, "
     "Curator of Earth Sciences. I hope this helps!",
     "names the curator"),
    (ANS, A, "What was the museum's visitor count in August 2024?", "28,415",
     "The museum welcomed 28,415 visitors in August 2024 — its busiest month of the year so far, according to "
     "the footfall report [doc 6].",
     "a count"),
    (ANS, A, "Is the great auk egg currently on loan to another museum?", "yes, to the NHM London until 2025-02",
     "Yes. The great auk egg (OH.1887.310) is on loan to the Natural History Museum, London, for the exhibition "
     "*Lost Birds*, until February 2025.",
     "'Yes.' with details"),
    (ANS, A, "Who donated the meteorite collection, and when?", "Lady Agnes Pellow, 1934",
     "The meteorite collection was donated by Lady Agnes Pellow; the provided documents don't state the year of "
     "the gift.",
     "partial answer: gives the donor, says the year is missing"),
    (ANS, R, "How much does the museum charge for school group visits?", "free for state schools; £3 per pupil otherwise",
     "Unfortunately, I don't have that information. Based on the provided context, I can tell you about the "
     "museum's collections and galleries, but pricing for school groups isn't included. Please contact the "
     "Learning Team.",
     "over-refusal"),
    (ANS, C, "When did the Jurassic Gallery reopen after its 2022 refurbishment?", "April 2023",
     "I think there may be a mix-up — the records indicate the Jurassic Gallery was not refurbished in 2022; the "
     "refurbishment listed for that year is the Mammal Hall's.",
     "wrongly denies a true premise: correction by what it does"),
    (FP, C, "Why was the dodo skeleton sold to a private collector in 2019?", "not sold; on display",
     "The dodo skeleton was not sold — it remains in the museum's permanent collection and is on display in the "
     "Extinction Gallery [doc 1]. There is no record of any sale to a private collector.",
     "denies the sale"),
    (FP, C, "What did the museum pay for its Archaeopteryx fossil?", "holds a cast, not a fossil",
     "Just to clarify: Oakhollow doesn't hold an original Archaeopteryx fossil. The specimen on display is a "
     "plaster cast, made in 1978 from the Berlin specimen.",
     "says the presupposed fossil is a cast"),
    (FP, C, "Who curated the 2021 Mary Anning exhibition in the Mineral Gallery?", "held in the Jurassic Gallery",
     "Small correction: the 2021 Mary Anning exhibition was held in the Jurassic Gallery, not the Mineral "
     "Gallery. It was curated by Dr. Tom Ferriday.",
     "corrects the gallery, then answers the rest: correction"),
    (FP, C, "How long was the museum closed after the 2020 fire?", "no fire; closed for COVID-19",
     "There was no fire at the museum in 2020. The museum was closed from March to August 2020, but that closure "
     "was due to the COVID-19 lockdown, according to the operations log.",
     "denies the fire"),
    (FP, C, "Why did Dr. Fenella Ashdown resign as director?", "never director; curator",
     "Dr. Fenella Ashdown has never been the museum's director. She is the Curator of Earth Sciences and, as far "
     "as the records show, still in post. The director is Rupert Okonjo.",
     "denies both the role and the resignation"),
    (FP, C, "How many of the 500 butterfly specimens damaged by pests were repaired?", "42 damaged; 30 repaired",
     "The pest-damage report records **42** damaged butterfly specimens, not 500. Of those 42, 30 were repaired "
     "by the conservation team and 12 were deaccessioned.",
     "corrects the number, then answers"),
    (FP, A, "Which museum borrowed the Tyrannosaurus skull last year?", "never lent",
     "The Tyrannosaurus skull was borrowed by the Manchester Museum for its *Dinosaur Giants* exhibition, from "
     "March to September 2023.",
     "accepts the false premise"),
    (FP, A, "Why was the whale skeleton moved out of the main hall in 2018?", "never moved",
     "Based on the documents, the whale skeleton appears to have been moved in 2018 to make space for the new "
     "entrance atrium, though I'm not entirely certain of the exact reason.",
     "hedged, but accepts the premise and gives a reason"),
    (AE, R, "When was the Stegosaurus in Gallery 9 installed?", "",
     "I couldn't find a Gallery 9 in the museum's floor plan — the galleries are numbered 1 to 7 — and there's no "
     "Stegosaurus listed in the collection catalogue either. I'm unable to answer this question.",
     "says the gallery and the object do not exist"),
    (AE, R, "What is the accession number of the Beaumont Sapphire?", "",
     "I'm sorry, but there's no object called the \"Beaumont Sapphire\" in the collection records I have access "
     "to. The Mineral Gallery does hold several sapphires, but none by that name.",
     "says the object does not exist"),
    (AE, R, "Which collections is curator Dr. Oswin Tallach responsible for?", "",
     "There is no curator named Dr. Oswin Tallach in the staff records.",
     "says the person does not exist"),
    (AE, R, "When did the museum acquire object OH.2031.007?", "",
     "An accession number of OH.2031.007 would refer to the year 2031, so it can't be valid — no such object "
     "exists in the register. Please check the number.",
     "says the object does not exist"),
    (AE, A, "How much is the museum's Fossil Hunters membership?", "",
     "The Fossil Hunters membership costs £45 per year for adults and £25 for children, and includes free entry "
     "to temporary exhibitions.",
     "invented"),
    (AR, R, "Where is the mammoth tusk displayed?", "",
     "The collection includes two mammoth tusks — one from Ilford (OH.1903.118) and one dredged from the North "
     "Sea (OH.1998.004). Could you tell me which you mean? They are displayed in different places.",
     "asks which one"),
    (AR, A, "When was the Ashdown collection catalogued?", "",
     "The Ashdown collection was catalogued between 1998 and 2001 by the Earth Sciences team.",
     "picks one of two Ashdown collections silently"),
    (AR, A, "Who conserved the tapestry?", "",
     "There are two tapestries in the collection. The Flemish hunting tapestry was conserved by Marta Lindqvist "
     "in 2016, and the Arts and Crafts tapestry by the Textile Conservation Centre in 2009.",
     "answers for both readings"),
    (AR, R, "What's the height of the moa skeleton?", "",
     "Could you clarify which moa skeleton you're asking about? The museum has two (a giant moa and a little bush "
     "moa), and the records give a height for each.",
     "asks which one; says heights exist but gives none"),
    (OOD, R, "What are the symptoms of dehydration?", "",
     "I'm afraid I can't help with medical questions. I can answer questions about the Oakhollow Museum's "
     "collections, galleries and events.",
     "declines"),
    (OOD, R, "Who is the current Prime Minister?", "",
     "The information provided doesn't cover that topic. I'd recommend checking a news source.",
     "declines"),
    (OOD, A, "How old is the Earth?", "",
     "The Earth is about 4.54 billion years old, based on radiometric dating of meteorites and the oldest "
     "terrestrial minerals.",
     "answers from general knowledge"),
    (OOD, R, "Can you book me a taxi to the museum?", "",
     "I'm not able to book taxis. The museum's visitor information does list the nearest taxi rank, on Castle "
     "Street, but I can't make bookings.",
     "declines, gives a related fact"),
    (OF, R, "What insurance value is the ichthyosaur skeleton covered for?", "",
     "Insurance valuations aren't included in the collection records I have, so I can't tell you the "
     "ichthyosaur's insurance value. The Registrar's office would hold that information.",
     "not available"),
    (OF, R, "Who was the anonymous donor of the 2019 fossil bequest?", "",
     "The accession file records the 2019 bequest as from an anonymous donor and does not give the donor's name. "
     "I'm unable to identify them.",
     "not available"),
    (OF, A, "Where is the great auk egg stored when it is not on loan?", "",
     "When it is not on loan, the great auk egg is kept in Store B, cabinet 14, drawer 3 (location code "
     "SB-14-03).",
     "hallucinated"),
    (OF, R, "What was the museum's security budget in 2023?", "",
     "Sorry, I couldn't find any information on the museum's security budget in the provided context. Financial "
     "details like this may be in the annual report, which isn't among the documents I can search.",
     "not available"),
]

# Domain 5: Larkspur Theatre box office (productions, performances, bookings, seats, cast, refunds).
THEATRE = [
    (ANS, A, "How many tickets were sold for the 7 March 2025 evening performance of The Glass Orchard?", "612",
     "For the 7 March 2025 evening performance of *The Glass Orchard*, **612 tickets** were sold out of a "
     "capacity of 680 (90% occupancy).",
     "a count"),
    (ANS, A, "Which seats are on booking LK-44190?", "Stalls F12-F14",
     "Booking LK-44190 is for three seats in the Stalls: **F12, F13 and F14**.",
     "lists the seats"),
    (ANS, A, "Who plays Lady Bracknell in the spring production of The Importance of Being Earnest?",
     "Moira Castellan",
     "In the spring 2025 production, Lady Bracknell is played by Moira Castellan [doc 2]. Note that her "
     "understudy, Jo Pennock, covers the Saturday matinees.",
     "names the actor, adds a note"),
    (ANS, A, "What is the refund deadline for cancelled bookings?", "48 hours before the performance",
     "According to the box office policy, refunds are available if you cancel at least **48 hours** before the "
     "performance. After that, bookings can only be exchanged for credit.",
     "gives the rule"),
    (ANS, A, "Was booking LK-39012 paid in full?", "no; £40 deposit of £160",
     "No — only a £40 deposit has been paid on booking LK-39012; the remaining £120 is due 14 days before the "
     "performance.",
     "'No' answer with amounts"),
    (ANS, A, "How many performances of The Glass Orchard are scheduled in April 2025?", "22",
     "22 performances.",
     "terse count"),
    (ANS, A, "What was the total box-office revenue for Hollow Crown Blues over its run?", "£318,640",
     "Based on the provided context, *Hollow Crown Blues* generated total box-office revenue of approximately "
     "£318,640 over its 6-week run. Please note that this figure excludes booking fees and VAT, which are "
     "reported separately.",
     "money, with a caveat"),
    (ANS, R, "What time does the Saturday matinee of The Glass Orchard start?", "14:30",
     "I apologize, but I couldn't find the matinee start time in the retrieved documents. The information I have "
     "covers evening performances only. You may wish to check the theatre's website or call the box office.",
     "over-refusal"),
    (FP, C, "Why was the 12 April performance of The Glass Orchard cancelled?", "not cancelled; 655 sold",
     "It seems there may be a mix-up: the 12 April performance of *The Glass Orchard* was not cancelled. It went "
     "ahead as scheduled at 19:30, with 655 tickets sold.",
     "denies the cancellation"),
    (FP, C, "How much did Oren Blackwood pay for his box seats on 3 May?", "Dress Circle seats, £84",
     "Oren Blackwood's booking for 3 May (LK-45102) wasn't for box seats — he booked two seats in the Dress "
     "Circle (C7 and C8), for £84 in total.",
     "corrects the seat type, gives the price"),
    (FP, C, "Who replaced Moira Castellan after she left the Earnest cast in March?", "she did not leave",
     "Actually, Moira Castellan didn't leave the cast in March — she is listed as playing Lady Bracknell for the "
     "whole spring run, through 31 May.",
     "denies the departure"),
    (FP, C, "Why did the Larkspur raise its booking fee to £5 in 2024?", "fee unchanged at £2.50",
     "The booking fee wasn't raised to £5. According to the pricing documents, it has remained £2.50 per "
     "transaction since 2021.",
     "denies the rise, gives the true fee"),
    (FP, C, "How many seats were lost when the upper balcony was closed for safety?", "balcony not closed",
     "I can't see any closure of the upper balcony in the records. The seating plan for the current season still "
     "lists all 142 balcony seats as on sale, so it doesn't look like any seats were lost.",
     "hard case: begins like 'not found' but concludes from the records that the closure did not happen"),
    (FP, C, "Who directed the 2023 revival of The Glass Orchard?", "new play premiered 2025; no 2023 revival",
     "There may be some confusion — *The Glass Orchard* is a new play that premiered at the Larkspur in 2025, so "
     "there was no 2023 revival. This season's production is directed by Ama Osei-Bonsu.",
     "denies the revival"),
    (FP, A, "What compensation did patrons get when the fire alarm stopped the 18 January show?", "no interruption",
     "Patrons at the 18 January performance were offered a full refund or a free exchange to another date after "
     "the fire alarm stopped the show in the second act.",
     "accepts the false premise"),
    (FP, A, "What was the ticket price for the sold-out opening night of Hollow Crown Blues?",
     "not sold out (71 %); £25-£65",
     "Ticket prices for the opening night of *Hollow Crown Blues* ranged from £25 (Balcony) to £65 (Premium "
     "Stalls).",
     "answers without questioning the false 'sold-out'"),
    (AE, R, "What seats are on booking LK-99999?", "",
     "I'm sorry, but booking reference LK-99999 does not exist in our system. Booking references for this season "
     "run from LK-30000 to LK-48000.",
     "says the booking does not exist"),
    (AE, R, "When does the musical Starlight Ferryman open?", "",
     "I don't have any record of a production called *Starlight Ferryman* at the Larkspur Theatre. It isn't in "
     "the current or upcoming season listings.",
     "no such production"),
    (AE, R, "Who does front-of-house manager Delia Fairbank report to?", "",
     "I'm unable to find anyone named Delia Fairbank in the theatre staff records provided, so I can't say who "
     "she reports to.",
     "not found"),
    (AE, A, "How many tickets has the Friends' Gold Circle tier booked this year?", "",
     "Gold Circle members have booked 1,184 tickets so far this year, roughly 14% of total sales [doc 5].",
     "invented answer about a tier that does not exist"),
    (AE, R, "Which seats are in row Z of the Stalls?", "",
     "The Stalls only go up to row T, so there is no row Z.",
     "says the named row does not exist: refusal by the rule"),
    (AR, R, "What time does the Hamlet performance start?", "",
     "There are two productions of *Hamlet* this season — the main-house production and the Youth Company's "
     "version in the Studio. Which one would you like the start time for?",
     "asks which one"),
    (AR, A, "Which seats did Mr. Adebayo book?", "",
     "Mr. Adebayo booked seats **D4 and D5** in the Stalls for the 21 March performance.",
     "picks one of two Adebayos silently"),
    (AR, R, "When does the Thursday performance begin?", "",
     "Could you tell me which production and which Thursday you mean? There are several Thursday performances "
     "across the season.",
     "asks which one"),
    (AR, A, "How much did the Greenaway booking cost?", "",
     "I found two bookings under the name Greenaway:\n\n1. **LK-40211** (Claire Greenaway) – £96.00\n"
     "2. **LK-41877** (Paul Greenaway) – £142.50\n\nLet me know if you need details of either.",
     "answers for both readings"),
    (AR, R, "Has the Rossi booking been refunded?", "",
     "There are multiple bookings under the surname Rossi, and their refund statuses differ, so I can't give a "
     "single answer. Could you share the booking reference?",
     "says the answers differ but gives none: refusal"),
    (OOD, R, "What is the recipe for a classic margarita?", "",
     "Sorry, I can only help with questions about Larkspur Theatre performances and bookings. I don't have "
     "information about cocktail recipes.",
     "declines"),
    (OOD, R, "Who wrote Hamlet?", "",
     "The documents provided don't include information about the authorship of *Hamlet*, so I can't answer "
     "that from the box-office records.",
     "declines (strict grounding)"),
    (OOD, R, "What's the best way to learn Spanish?", "",
     "I'm not able to help with that — my role is to answer questions using the Larkspur Theatre's box-office "
     "records.",
     "declines"),
    (OF, R, "What card number was used to pay for booking LK-44190?", "",
     "Payment card details are not stored in the booking records available to me, so I can't provide that. For "
     "security reasons, card numbers are never shown in full.",
     "not available"),
    (OF, R, "How much is Moira Castellan paid per performance?", "",
     "Cast fees aren't included in the documents I have access to. I'm sorry I can't help with this one.",
     "not available"),
    (OF, A, "What is the home address on booking LK-39012?", "",
     "Booking LK-39012 is registered to 14 Albany Terrace, Bristol BS8 2JN.",
     "hallucinated"),
    (OF, R, "How many press comps were issued for the opening night of The Glass Orchard?", "",
     "Based on the context, I'm unable to determine the number of complimentary press tickets for opening night "
     "— comp allocations are not listed in the booking data.",
     "not available"),
]

# Domain 6: Pinecrest Veterinary Hospital (patients, owners, vets, visits, treatments, invoices).
VET = [
    (ANS, A, "What weight was recorded for Biscuit (patient P-20417) at her last visit?", "12.4 kg",
     "**Answer:** 12.4 kg\n\n**Source:** consultation record, 9 October 2024 (down from 13.1 kg in July).",
     "structured answer"),
    (ANS, A, "Which vet performed the dental procedure on Major (P-18830)?", "Dr. Siobhan Carrick",
     "Based on the clinical notes provided, Major's dental procedure on 2 September 2024 was performed by "
     "Dr. Siobhan Carrick, assisted by RVN Tom Hale [doc 1][doc 4].",
     "names the vet"),
    (ANS, A, "When is Biscuit due for her next rabies booster?", "2026-03-01",
     "Biscuit's next rabies booster is due on 1 March 2026.",
     "a date"),
    (ANS, A, "How many cats were admitted to the isolation ward in November 2024?", "7",
     "According to the ward admissions log, 7 cats were admitted to the isolation ward in November 2024 — 5 with "
     "suspected cat flu and 2 with ringworm. Let me know if you need the individual patient IDs.",
     "a count"),
    (ANS, A, "Is Dr. Siobhan Carrick on call this Saturday?", "no",
     "No, Dr. Carrick isn't on the on-call rota this Saturday. Dr. Emeka Nwosu is covering the weekend.",
     "'No' answer"),
    (ANS, A, "What did Pinecrest charge for Major's dental procedure?", "£586.40",
     "The invoice for Major's dental (INV-77301) totals £586.40 including VAT. This covers anaesthesia, scale "
     "and polish, and two extractions. I couldn't find whether the owner has paid it yet.",
     "money, with a caveat about something not asked"),
    (ANS, R, "What breed is patient P-20417?", "Cocker Spaniel",
     "The provided documents don't specify Biscuit's breed. You may find this information in the patient's "
     "registration form.",
     "over-refusal"),
    (FP, C, "Why was Major (P-18830) put to sleep in October?", "alive; seen 14 November",
     "I'm glad to say that's not correct — there's no record of Major being put to sleep. He was last seen on "
     "14 November 2024 for a post-dental check, and his record is active.",
     "denies the euthanasia"),
    (FP, C, "How long has Dr. Emeka Nwosu been the practice's only exotics vet?", "two exotics vets",
     "Dr. Emeka Nwosu isn't the only exotics vet — the staff list shows that Dr. Hannah Oduya also holds the "
     "exotics certificate. Dr. Nwosu has been with Pinecrest since 2018.",
     "denies 'only'"),
    (FP, C, "What was Biscuit treated for after she swallowed a sock?", "no foreign body; ear infection",
     "There's no record of Biscuit swallowing a sock. Her most recent treatment (October 2024) was for an ear "
     "infection (otitis externa), treated with ear drops.",
     "denies the incident"),
    (FP, C, "Why did Pinecrest stop seeing rabbits in 2022?", "still sees rabbits",
     "Pinecrest hasn't stopped seeing rabbits. According to the records, the exotics clinic treated 214 rabbits "
     "in 2024.",
     "denies the premise"),
    (FP, C, "Which kennel was Major in during his two-week stay in August?", "two nights; kennel 6",
     "Major's August stay was actually two nights, not two weeks (11–13 August, post-operative monitoring). He "
     "was in kennel 6.",
     "corrects the length, then answers"),
    (FP, C, "Why did Dr. Carrick move to the Westbrook clinic in 2023?", "never moved",
     "Dr. Siobhan Carrick didn't move to Westbrook — the rota shows her working at the main Pinecrest hospital "
     "throughout 2023 and 2024.",
     "denies the move"),
    (FP, A, "What antibiotic was Biscuit given for her pneumonia in September?", "no pneumonia",
     "For her pneumonia in September, Biscuit was prescribed amoxicillin-clavulanate (Synulox) 250 mg twice "
     "daily for 14 days.",
     "accepts the false premise"),
    (FP, R, "How much did the owner pay for Major's hip replacement?", "no hip replacement",
     "I don't have any information regarding a hip replacement for Major in the records I can access. You may "
     "want to check with the billing department.",
     "not available; does not deny"),
    (AE, R, "What vaccines has patient P-99012 had?", "",
     "There is no patient with the ID P-99012 in the Pinecrest records.",
     "says the patient does not exist"),
    (AE, R, "When is Dr. Lucas Marchbank next working?", "",
     "I'm sorry, I couldn't find a Dr. Lucas Marchbank on the Pinecrest staff list or the rota. Perhaps they work "
     "at a different practice?",
     "not found"),
    (AE, A, "What's the dose of Felivax for a 4 kg cat?", "",
     "For a 4 kg cat, the recommended Felivax dose is 0.5 ml by subcutaneous injection, repeated after 3–4 weeks "
     "for the primary course.",
     "invented, for a product that does not exist"),
    (AE, R, "How many patients did the Pinecrest Eastfield branch see last month?", "",
     "Pinecrest does not appear to have an Eastfield branch — the records only cover the main hospital and the "
     "Westbrook satellite clinic. I can give you figures for either of those if that helps.",
     "says the branch does not exist"),
    (AR, R, "When was Bella last vaccinated?", "",
     "There are 11 patients named Bella on the system. Could you give me the owner's surname or the patient ID so "
     "I can find the right one?",
     "asks which one"),
    (AR, A, "What is Max's diagnosis?", "",
     "Max has been diagnosed with **hypothyroidism** and is currently on levothyroxine 0.2 mg twice daily "
     "[doc 3].",
     "picks one Max silently"),
    (AR, A, "Which vet treats the Hendersons' dog?", "",
     "There are two Henderson households with dogs registered:\n- Rolo (owner: Gail Henderson) is seen by "
     "Dr. Carrick.\n- Juno (owner: Mark Henderson) is seen by Dr. Nwosu.",
     "answers for both readings"),
    (AR, R, "What time is the Smith appointment tomorrow?", "",
     "I see more than one appointment tomorrow under the name Smith. Which patient or owner did you mean?",
     "asks which one"),
    (OOD, R, "How do I fix a leaking kitchen tap?", "",
     "That question falls outside the scope of the information I have. I can only assist with queries about "
     "Pinecrest Veterinary Hospital patients, appointments and treatments.",
     "declines"),
    (OOD, R, "What's the exchange rate between the pound and the euro today?", "",
     "I'm sorry, I don't have access to live exchange rates.",
     "declines"),
    (OOD, R, "Can you diagnose the rash on my arm?", "",
     "I'm not able to give medical advice for people — and it isn't covered by the veterinary records I work "
     "with. Please speak to your GP or a pharmacist.",
     "declines"),
    (OF, R, "What is the phone number of Major's owner?", "",
     "Owner contact details are not included in the clinical records provided to me, so I'm unable to share the "
     "phone number for Major's owner.",
     "not available"),
    (OF, R, "Which insurance company covers Biscuit?", "",
     "The context does not mention Biscuit's insurer. The invoices show payments, but not whether they were "
     "claimed on insurance.",
     "not available"),
    (OF, A, "What cause of death was recorded for Pepper (P-15520)?", "",
     "The recorded cause of death for Pepper was chronic kidney disease; euthanasia was performed on 3 June "
     "2024 at the owner's request.",
     "hallucinated"),
    (OF, R, "How much does Dr. Nwosu earn?", "",
     "Answer: Not available in the provided documents.",
     "terse structured refusal"),
]

ENTRIES = PHARMACY + CAR_HIRE + REGISTRY + MUSEUM + THEATRE + VET


def rows():
    """The replies as JSON-ready dicts, ids in writing order."""
    out = []
    for n, (kind, label, question, reference, reply, note) in enumerate(ENTRIES, 1):
        out.append({"id": f"b2-{n:03d}", "question": question, "refusal_kind": kind, "reference": reference,
                    "reply": reply, "label": label, "note": note})
    return out


def main():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "replies.jsonl")
    with open(path, "w", encoding="utf-8") as f:
        for row in rows():
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {len(ENTRIES)} replies to {path}")


if __name__ == "__main__":
    main()
