"""A deliberately naive judge, to show what the sample asks of a real one: a reply is a refusal when it
contains a common refusal phrase, a correction when it contains a negation near a comparison ("not X",
"isn't", "wasn't", "didn't") and is not a refusal, and an answer otherwise. It writes predictions in
score.py's format; it is not ragdx's judge and knows nothing of it. Standard library only.

    python3 baseline_keywords.py > /tmp/baseline.jsonl && python3 score.py /tmp/baseline.jsonl
"""

from __future__ import annotations

import json
import os
import re
import sys

REFUSAL = re.compile(
    r"couldn't find|could not find|can't find|cannot find|unable to|don't have|do not have|no information|"
    r"not (?:mention|include|stated|covered|available)|don't (?:mention|include|say)|doesn't (?:include|mention)|"
    r"i don't know|can't help|can't answer|cannot determine|not able to|which one|could you clarify|"
    r"n/a|not found|isn't (?:covered|available)|no record", re.I)
NEGATION = re.compile(r"\b(?:not|isn't|wasn't|didn't|doesn't|hasn't|haven't|never|n'a pas|nicht)\b", re.I)


def label(reply):
    if REFUSAL.search(reply):
        return "refusal"
    if NEGATION.search(reply):
        return "correction"
    return "answer"


def main():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "replies.jsonl")
    with open(path, encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            sys.stdout.write(json.dumps({"id": row["id"], "label": label(row["reply"])}) + "\n")


if __name__ == "__main__":
    main()
