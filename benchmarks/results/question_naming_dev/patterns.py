"""Counts of the non-fluent patterns (dev labeller, NOT blind) in whole datasets' records.jsonl files.
usage: patterns.py DB records.jsonl ..."""
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from label import label_record  # noqa: E402

db = sys.argv[1]
for path in sys.argv[2:]:
    c: collections.Counter = collections.Counter()
    n = 0
    for line in open(path):
        r = json.loads(line)
        n += 1
        lab, note = label_record(db, r)
        if lab != "fluent":
            c[(lab, note)] += 1
    ranked = sorted(c.items(), key=lambda x: -x[1])
    print(path, n, "records;", ", ".join(f"{k[0][:3]} '{k[1]}': {v}" for k, v in ranked))
