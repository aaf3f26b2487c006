"""The abstention judge on the development samples 1-10 (issue 26): agreement per sample with and without the
refusal kind, and the judge's cost per reply.

    python benchmarks/abstention_judge_dev.py [--samples 1 2 ...] [--show-disagreements] [--judge-file PATH]

``--judge-file`` scores another copy of abstention.py (an earlier revision from ``git show REV:path``), loaded
from the file alone: the module imports nothing of ragdx.

Samples 1-10 (benchmarks/corpora/abstention_replies*/) were each written blind to the judge and measured once;
after that they are development material, which this script re-scores as the blind script does
(abstention_judge_blind.py): the question, the record's refusal kind (or None with the kind unknown), and the
reference only for a false premise. The truth is the writer's label. Sample 11 (abstention_replies_11) is never
read: it stays blind.

Prints which abstention.py it loaded and whether that file is HEAD's, a markdown table (agreement per sample,
with and without the kind) and the cost of classify_reply: CPU seconds (process time, which other jobs on a
shared machine do not inflate) and wall seconds over every call, per reply.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from abstention_judge_blind import JUDGE_PATH, blob_id, git  # noqa: E402  (benchmarks/ is not a package)
from machine import cpu_model  # noqa: E402

DEV_SAMPLES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)


def load_judge(path: str):
    """abstention.py from a file of its own (it imports only the standard library)."""
    spec = importlib.util.spec_from_file_location("abstention_judge_copy", path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def sample_rows(n: int) -> list[dict]:
    folder = "abstention_replies" if n == 1 else f"abstention_replies_{n}"
    with open(os.path.join(HERE, "corpora", folder, "replies.jsonl"), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def score(classify, rows: list[dict], with_kind: bool) -> tuple[int, list[str], float, float]:
    """(agreements, disagreement lines, CPU seconds, wall seconds) of the judge on one sample."""
    misses = []
    cpu, wall = time.process_time(), time.perf_counter()
    labels = []
    for row in rows:
        kind = row["refusal_kind"]
        reference = row["reference"] if kind == "false_premise" else ""
        labels.append(classify(row["reply"], row["question"], reference, kind if with_kind else None))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    for row, got in zip(rows, labels, strict=True):
        if got.kind != row["label"]:
            misses.append(f"  {row['id']} writer={row['label']} judge={got.kind} ({got.cue}) "
                          f"[{row['refusal_kind'] or 'answerable'}] {row['reply'][:100]}")
    return len(rows) - len(misses), misses, cpu, wall


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--samples", type=int, nargs="+", default=list(DEV_SAMPLES), choices=DEV_SAMPLES)
    ap.add_argument("--show-disagreements", action="store_true")
    ap.add_argument("--judge-file", help="score this copy of abstention.py instead of the installed one")
    args = ap.parse_args(argv)
    judge = load_judge(args.judge_file) if args.judge_file else importlib.import_module("ragdx.evaluate.abstention")
    print(f"judge: {judge.__file__}")
    print(f"judge file is HEAD's: {blob_id(judge.__file__) == git('rev-parse', f'HEAD:{JUDGE_PATH}')} "
          f"(HEAD {git('rev-parse', '--short', 'HEAD')})")
    print(f"cpu: {cpu_model()}\n")
    print("| sample | with the kind | kind unknown (None) |")
    print("|---|---|---|")
    cpu = wall = 0.0
    calls = 0
    shown = []
    for n in args.samples:
        rows = sample_rows(n)
        cells = []
        for with_kind in (True, False):
            agree, misses, c, w = score(judge.classify_reply, rows, with_kind)
            cpu, wall, calls = cpu + c, wall + w, calls + len(rows)
            cells.append(f"{agree}/{len(rows)} = {100 * agree / len(rows):5.1f} %")
            shown += [f"sample {n}, {'kind' if with_kind else 'no kind'}:"] + misses if misses else []
        print(f"| {n} | {cells[0]} | {cells[1]} |")
    print(f"\nclassify_reply: {calls} calls, {1000 * cpu / calls:.3f} ms CPU and {1000 * wall / calls:.3f} ms wall "
          "per reply")
    if args.show_disagreements and shown:
        print("\ndisagreements:\n" + "\n".join(shown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
