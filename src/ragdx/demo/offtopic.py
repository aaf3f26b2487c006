"""Hand-written questions for the demo's knowledge-boundary checks.

``OFFTOPIC_QUESTIONS`` are questions the Collège Méridane knowledge base cannot
answer: a grounded RAG system should decline them. Their lengths and styles vary
on purpose (terse fragments to long polite paragraphs) so that a boundary test
cannot tell them apart from in-domain questions by length or tone alone. They
also avoid university vocabulary, so that declining them is clearly correct.

``INKNOWLEDGE_EXAMPLES`` are natural questions that the demo data does answer;
each names a real entity of the demo database.
"""

from __future__ import annotations

__all__ = ["INKNOWLEDGE_EXAMPLES", "OFFTOPIC_QUESTIONS"]

OFFTOPIC_QUESTIONS: tuple[str, ...] = (
    # Short fragments.
    "Best pizza dough hydration ratio?",
    "Tallest mountain on Mars?",
    "How do tides work?",
    "Convert 350 Fahrenheit to Celsius",
    "Who won the 1966 World Cup?",
    "Fixing a squeaky brake pedal",
    "When do tulip bulbs go in?",
    "Smoke point of olive oil?",
    "Why is the sky blue?",
    "Python list comprehension syntax example",
    "Fastest land animal on Earth?",
    # Everyday single questions.
    "How long should I rest a steak after grilling it?",
    "What causes the phases of the Moon?",
    "Which country has won the most Olympic gold medals in fencing?",
    "How often should I change the timing belt on a diesel hatchback?",
    "What is the difference between baking soda and baking powder?",
    "Who was the first emperor of the Ming dynasty?",
    "How do I prune an overgrown apple tree in late winter?",
    "What does a git rebase do compared to a merge?",
    "How many players are on a rugby union team?",
    "Why do cats knead blankets with their paws?",
    "What year did the Berlin Wall fall?",
    "How do I get rid of aphids on roses without chemicals?",
    "Which planet has the most known moons right now?",
    "What is a good substitute for buttermilk in pancakes?",
    "How do I bleed air out of a hydraulic clutch?",
    "Who painted the ceiling of the Sistine Chapel?",
    "What's the offside rule in ice hockey?",
    "Explain the difference between a process and a thread in an operating system.",
    "How deep should I plant garlic cloves in heavy clay soil?",
    "Why did the Roman Republic turn into an empire?",
    "What is the best way to descale a kettle with vinegar?",
    "How far away is the Andromeda galaxy in light years?",
    "Which tennis player has won the most Wimbledon singles titles?",
    "How do I replace the cabin air filter in a small car?",
    "What temperature kills bacteria when reheating leftover rice?",
    "What exactly is the event horizon of a black hole?",
    "Roughly how many calories does an hour of swimming burn?",
    "Who designed the Eiffel Tower and why was it controversial at first?",
    "Is bread flour or all-purpose flour better for homemade bagels?",
    "What were the main reforms introduced by Peter the Great in Russia?",
    "How do you change a flat tyre on a bicycle with quick-release wheels?",
    "What's the rule for castling in chess when the king has already been in check?",
    "How can I tell whether a wild mushroom is a chanterelle or a poisonous look-alike?",
    "How do meteor showers get their names, and when does the Perseid shower peak?",
    "What is the proper way to season a new cast iron skillet so that eggs do not stick?",
    "Why does my tomato plant have yellow leaves at the bottom but healthy ones at the top?",
    "How did the Apollo 13 crew survive after the oxygen tank exploded on the way to the Moon?",
    (
        "If my sourdough starter smells like nail polish remover, does that mean it is dead or just "
        "hungry?"
    ),
    (
        "In Rust, why does the borrow checker complain when I push to a vector while iterating over "
        "it?"
    ),
    (
        "Which basketball player holds the record for the most points scored in a single NBA game, "
        "and against which team?"
    ),
    # Long, polite, multi-clause questions.
    (
        "What tyre pressure should I use for a fully loaded camper van, and how do I work it out if "
        "the sticker on the door frame is missing or unreadable?"
    ),
    (
        "Please tell me how scoring works in a cricket test match, including what a follow-on is, "
        "because my neighbours keep talking about it and I have no idea what it means."
    ),
    (
        "Can you summarise the main causes of the First World War, especially the alliance system "
        "and the assassination in Sarajevo, in a few sentences that a complete beginner could "
        "follow?"
    ),
    (
        "We have a small lawn that keeps getting brown patches every August despite regular "
        "watering; what could be causing this, and should we reseed in September or simply wait "
        "for rain?"
    ),
    (
        "Could you recommend a simple weekly routine for maintaining a road bike chain, and explain "
        "how to tell when the chain has stretched enough that it needs replacing rather than just "
        "cleaning?"
    ),
    (
        "I'm curious about the history of the Silk Road: which cities were the most important "
        "trading hubs along it, and what goods besides silk travelled between China and the "
        "Mediterranean?"
    ),
    (
        "Hello, I am planning a vegetable garden on a north-facing balcony this spring; could you "
        "tell me which leafy greens tolerate partial shade, how large their pots should be, and "
        "how often I should water them?"
    ),
    (
        "Could you please explain, in simple terms suitable for a curious twelve-year-old, why the "
        "planets all orbit the Sun in roughly the same flat plane instead of circling it in random "
        "directions like a swarm of bees?"
    ),
    (
        "My car makes a rhythmic clicking noise when I turn sharply at low speed, and it gets "
        "louder when I turn left; is that likely to be a worn CV joint, and is it safe to keep "
        "driving?"
    ),
    (
        "I would be grateful if you could walk me through making a classic French onion soup from "
        "scratch, including how long the onions really need to caramelise and which cheese melts "
        "nicely on top."
    ),
    (
        "In JavaScript, what is the cleanest way to stop a recursive function that walks a deeply "
        "nested object from overflowing the stack on large inputs?"
    ),
    (
        "Is it true that goldfish only have a three-second memory, or is that just a myth that "
        "keeps getting repeated online?"
    ),
)

INKNOWLEDGE_EXAMPLES: tuple[str, ...] = (
    "Which faculty is housed in Ångström Hall?",
    "Who coordinates the Master in Sustainable Finance?",
    "How many ECTS credits is the Bachelor in Environmental Physics worth?",
    "What is the e-mail address of Siobhán O'Connell?",
    "Which courses does José Núñez teach, and in what role?",
    "In which semester is Children's Literature taught?",
    "Is Conference Interpreting Lab compulsory in the Master in Translation and Interpreting?",
    "What is the course code of 日本語 I: Introductory Japanese?",
    "How much is the yearly tuition fee for the Master in Robotics and Embedded Systems?",
    "When was Mette Sørensen hired?",
    "Which faculty does Nguyễn Thị Lan belong to?",
    'Who is the lecturer in charge of The "Long" Nineteenth Century?',
)
