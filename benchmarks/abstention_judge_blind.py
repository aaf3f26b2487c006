"""ragdx's abstention judge on a blind sample of labelled replies (issue 26).

    python benchmarks/abstention_judge_blind.py --sample N [--out PREDICTIONS.jsonl] [--no-kind]

Reads benchmarks/corpora/abstention_replies_N/replies.jsonl (N = 2-11: each written and labelled by a helper
blind to the judge, and committed before the judge was run on it; sample 1 is benchmarks/abstention_judge.py's),
asks ragdx.evaluate.abstention.classify_reply for each reply's label, writes the predictions and
prints score.py's tables. The truth is the writer's label, never ragdx's output. The judge is called as the
docstring describes: the question, the record's refusal kind, and the reference only for a false premise (the
true value a correction would give). --no-kind calls it with refusal_kind=None (kind unknown) instead.

Prints which abstention.py it loaded and whether that file is the one committed at HEAD, so a figure is never
attributed to a commit it did not measure.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
JUDGE_PATH = "src/ragdx/evaluate/abstention.py"
sys.path.insert(0, HERE)

from machine import cpu_model  # noqa: E402  (benchmarks/ is not a package)


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=True).stdout.strip()


def blob_id(path: str) -> str:
    """Git's blob id of a file's bytes, to compare the loaded judge with the committed one."""
    with open(path, "rb") as f:
        data = f.read()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sample", type=int, required=True, choices=range(2, 12), help="which blind sample")
    ap.add_argument("--out", help="predictions file (default /tmp/abstention_judge_N_predictions.jsonl)")
    ap.add_argument("--no-kind", action="store_true", help="call the judge with refusal_kind=None")
    args = ap.parse_args(argv)
    corpus = os.path.join(HERE, "corpora", f"abstention_replies_{args.sample}")
    args.out = args.out or f"/tmp/abstention_judge_{args.sample}_predictions.jsonl"
    # ragdx.evaluate is also a function re-exported by ragdx, so the submodule is imported by name
    judge = importlib.import_module("ragdx.evaluate.abstention")
    committed = git("rev-parse", f"HEAD:{JUDGE_PATH}")
    print(f"judge: {judge.__file__}")
    print(f"judge file is HEAD's: {blob_id(judge.__file__) == committed} "
          f"(last commit of {JUDGE_PATH}: {git('log', '-1', '--format=%h', '--', JUDGE_PATH)})")
    print(f"cpu: {cpu_model()}; refusal_kind passed: {not args.no_kind}")
    with open(os.path.join(corpus, "replies.jsonl"), encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    with open(args.out, "w", encoding="utf-8") as out:
        for row in rows:
            kind = row["refusal_kind"]
            reference = row["reference"] if kind == "false_premise" else ""
            result = judge.classify_reply(row["reply"], row["question"], reference,
                                          None if args.no_kind else kind)
            out.write(json.dumps({"id": row["id"], "label": result.kind, "cue": result.cue}) + "\n")
    print(f"predictions: {args.out}\n")
    # one scorer for every sample: the first sample's, told where this sample's replies are
    scorer = os.path.join(HERE, "corpora", "abstention_replies", "score.py")
    return subprocess.run([sys.executable, scorer, args.out, "--replies", os.path.join(corpus, "replies.jsonl"),
                           "--show-disagreements"]).returncode


if __name__ == "__main__":
    sys.exit(main())
