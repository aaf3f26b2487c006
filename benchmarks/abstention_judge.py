"""How often ragdx's abstention classifier agrees with people: the blind sample of 200 replies
(benchmarks/corpora/abstention_replies, written and labelled by helper E before the classifier was
measured on it) classified by ``ragdx.evaluate.abstention.classify_reply`` and scored by the sample's
own scorer (standard library, no ragdx). The truth is the writer's labels; ragdx only predicts.

    OMP_WAIT_POLICY=passive .venv/bin/python benchmarks/abstention_judge.py \
        --out benchmarks/results/abstention_judge.md [--frozen COMMIT]

``--frozen COMMIT`` classifies with the classifier as committed at COMMIT (read with ``git show``),
so the first measurement of a frozen classifier can be repeated after it changes. The reply is
classified as ``ragdx evaluate`` classifies it: with its question, and the reference (the true
value) only for a false premise (an evaluation passes a record's answer only there).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from inspect import signature
from pathlib import Path

HERE = Path(__file__).resolve().parent
SAMPLE = HERE / "corpora" / "abstention_replies"
sys.path.insert(0, str(HERE))

from machine import cpu_model  # noqa: E402


def classifier(commit: str | None):
    """``classify_reply`` from the working tree, or as committed at ``commit``."""
    if commit is None:
        from ragdx.evaluate.abstention import classify_reply

        return classify_reply
    source = subprocess.run(["git", "show", f"{commit}:src/ragdx/evaluate/abstention.py"], check=True,
                            capture_output=True, text=True, cwd=HERE.parent).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as fh:
        fh.write(source)
    spec = importlib.util.spec_from_file_location("abstention_frozen", fh.name)
    module = importlib.util.module_from_spec(spec)
    sys.modules["abstention_frozen"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    os.unlink(fh.name)
    return module.classify_reply


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--frozen", default=None, help="classify with the classifier as committed at this commit")
    ap.add_argument("--sample", type=Path, default=SAMPLE, help="a sample directory (replies.jsonl, score.py)")
    args = ap.parse_args(argv)
    sample = args.sample if args.sample.is_absolute() else HERE.parent / args.sample
    classify = classifier(args.frozen)
    rows = [json.loads(line) for line in (sample / "replies.jsonl").read_text(encoding="utf-8").splitlines()
            if line.strip()]
    start = time.perf_counter()
    preds = []
    for r in rows:
        ref = r["reference"] if r["refusal_kind"] == "false_premise" else ""
        # the record's refusal kind, as an evaluation passes it (the classifier frozen first took none)
        kind = {"refusal_kind": r["refusal_kind"]} if "refusal_kind" in signature(classify).parameters else {}
        preds.append({"id": r["id"], "label": classify(r["reply"], r["question"], ref, **kind).kind})
    elapsed = time.perf_counter() - start
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as fh:
        fh.write("".join(json.dumps(p) + "\n" for p in preds))
    scored = subprocess.run([sys.executable, str(sample / "score.py"), fh.name, "--show-disagreements"],
                            capture_output=True, text=True)
    os.unlink(fh.name)
    if scored.returncode:
        print(scored.stderr, file=sys.stderr)
        return scored.returncode
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                          cwd=HERE.parent).stdout.strip()
    command = ("OMP_WAIT_POLICY=passive .venv/bin/python benchmarks/abstention_judge.py "
               "--out benchmarks/results/abstention_judge.md" + (f" --frozen {args.frozen}" if args.frozen else "")
               + (f" --sample {args.sample}" if args.sample != SAMPLE else ""))
    text = "\n".join([
        "# Abstention judge vs the blind sample's labels (issue 26)", "",
        f"Command: `{command}`", "",
        f"Classifier: `ragdx.evaluate.abstention.classify_reply` as committed at "
        f"{args.frozen or 'the working tree of ' + head}; sample: {sample.relative_to(HERE.parent)} "
        f"({len(rows)} replies, labels by their writer, fixed before this measurement); scorer: its score.py.",
        f"CPU: {cpu_model()}; {len(rows)} replies classified in {elapsed * 1000:.0f} ms.", "",
        "```", scored.stdout.rstrip(), "```", ""])
    print(text)
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
