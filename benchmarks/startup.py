"""CPU seconds of the CLI's start-up: ``ragdx --help``, a stage's ``--help`` and one-line option
errors (exit 2), each in fresh processes, before and after.

    .venv/bin/python benchmarks/startup.py [--n 15] [--before f62cdfe] [--after HEAD|worktree] \\
        [--same-output-as REV] [--out benchmarks/results/startup.md]

Each tree is ``git archive REV src`` extracted to a temporary directory and put first on
PYTHONPATH (``--after worktree``: this checkout's ``src/``); every process is checked to have
imported ``ragdx`` from that tree. A command runs as the ``ragdx`` script does (``sys.exit(main())``
with ``argv[0] = "ragdx"``) in an empty temporary directory (no ``ragdx.yaml``), N times per tree,
the trees interleaved so that load from other work on the machine falls on both alike, after one
uncounted run that writes the bytecode caches. The CPU of
one run is the user + system time of the child, from ``resource.getrusage(RUSAGE_CHILDREN)``
before and after it. Printed and written (Markdown): median and max per command and tree, the
exit code and the number of stderr lines, and whether stdout and stderr are byte-identical to
those of ``--same-output-as`` (default: the commit before the start-up work, so that other
changes to help texts since ``--before`` do not count as differences).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 0.5  # CPU seconds: the redesign issue's target

#: (label, argv): help screens, then option errors that end in one line and exit 2 before any work
COMMANDS: list[tuple[str, list[str]]] = [
    ("ragdx --help", ["--help"]),
    ("ragdx gen --help", ["gen", "--help"]),
    ("ragdx relevance --help", ["relevance", "--help"]),
    ("ragdx gen --max-groups-per-template -1", ["gen", "--max-groups-per-template", "-1"]),
    ("ragdx relevance calibrate corpus.jsonl -o .", ["relevance", "calibrate", "corpus.jsonl", "-o", "."]),
    ("ragdx run -d ds -o out --executor bogus", ["run", "-d", "ds", "-o", "out", "--executor", "bogus"]),
    # not an option check: it imports ragdx.evaluate (numpy) and looks at the path before failing
    ("ragdx evaluate /nonexistent", ["evaluate", "/nonexistent"]),
]
#: measured and shown, not part of the target
EXTRA: list[tuple[str, list[str]]] = []

_RUN = ("import sys, os; sys.argv[0] = 'ragdx'; import ragdx; "
        "assert os.path.realpath(ragdx.__file__).startswith(os.environ['RAGDX_EXPECT_SRC']), ragdx.__file__; "
        "from ragdx.cli import main; sys.exit(main())")


def extract(rev: str, into: Path) -> Path:
    """``git archive REV src`` extracted under ``into``; returns its ``src``."""
    data = subprocess.run(["git", "archive", rev, "src"], cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def short(rev: str) -> str:
    return subprocess.run(["git", "rev-parse", "--short", rev], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout.strip()


def run_once(src: Path, argv: list[str], cwd: Path) -> tuple[float, int, bytes, bytes]:
    env = {**os.environ, "PYTHONPATH": str(src), "RAGDX_EXPECT_SRC": os.path.realpath(src), "COLUMNS": "100",
           "PYTHONDONTWRITEBYTECODE": "", "NO_COLOR": "1", "TERM": "dumb"}
    env.pop("GITHUB_STEP_SUMMARY", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, "-c", _RUN, *argv], cwd=cwd, env=env, capture_output=True,
                          timeout=300)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if b"AssertionError" in proc.stderr and b"ragdx" in proc.stderr and proc.returncode == 1:
        raise SystemExit(f"ragdx was not imported from {src}: {proc.stderr.decode()[-300:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, proc.returncode, proc.stdout, proc.stderr


def cpu_model() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name"):
                return line.split(":", 1)[1].strip()
    except (OSError, subprocess.CalledProcessError):
        pass
    return platform.processor() or "unknown"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=15, help="runs per command and tree")
    ap.add_argument("--before", default="f62cdfe", help="revision measured as 'before'")
    ap.add_argument("--after", default="HEAD", help="revision measured as 'after', or 'worktree' for ./src")
    ap.add_argument("--same-output-as", default="932b7fa",
                    help="revision whose outputs 'after' must reproduce byte for byte")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/startup.md")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="ragdx-startup-") as tmp:
        tmp_path = Path(tmp)
        trees = {"before": extract(args.before, tmp_path / "before")}
        if args.after == "worktree":
            trees["after"] = ROOT / "src"
            after_name = "worktree"
        else:
            trees["after"] = extract(args.after, tmp_path / "after")
            after_name = short(args.after)
        reference = extract(args.same_output_as, tmp_path / "reference")
        cwd = tmp_path / "cwd"
        cwd.mkdir()
        load_start = os.getloadavg()

        rows = []
        for label, argv in COMMANDS + EXTRA:
            times: dict[str, list[float]] = {"before": [], "after": []}
            outputs: dict[str, tuple[int, bytes, bytes]] = {}
            for src in trees.values():
                run_once(src, argv, cwd)  # not counted: writes the tree's bytecode caches
            for _ in range(args.n):
                for name, src in trees.items():
                    cpu, code, out, err = run_once(src, argv, cwd)
                    times[name].append(cpu)
                    outputs[name] = (code, out, err)
            ref = run_once(reference, argv, cwd)[1:]
            code, out, err = outputs["after"]
            rows.append({
                "label": label, "extra": (label, argv) in EXTRA, "code": code,
                "err_lines": len(err.decode(errors="replace").strip().splitlines()) if err.strip() else 0,
                "same": (code, out, err) == ref,
                **{f"{name}_{stat}": fn(times[name]) for name in times
                   for stat, fn in (("median", statistics.median), ("max", max))},
            })
            r = rows[-1]
            print(f"{label:48s} before {r['before_median']:.3f}/{r['before_max']:.3f}  "
                  f"after {r['after_median']:.3f}/{r['after_max']:.3f}  exit {code}  "
                  f"same output: {'yes' if r['same'] else 'NO'}", flush=True)
        load_end = os.getloadavg()

    lines = [
        "# CLI start-up: CPU seconds per command (fresh process each run)",
        "",
        f"Command: `.venv/bin/python benchmarks/startup.py --n {args.n} --before {args.before} "
        f"--after {args.after} --same-output-as {args.same_output_as}`",
        "",
        f"CPU: {cpu_model()} ({os.cpu_count()} cores, shared with other work: load average "
        f"{load_start[0]:.1f} at the start, {load_end[0]:.1f} at the end); Python {platform.python_version()}.",
        "",
        f"Before: `git archive {short(args.before)} src`; after: "
        f"{'this checkout' + chr(39) + 's src/' if args.after == 'worktree' else f'`git archive {after_name} src`'}; "
        "each first on PYTHONPATH. CPU = user + system seconds of the child process "
        "(`resource.getrusage(RUSAGE_CHILDREN)` deltas), "
        f"{args.n} runs per command and tree, interleaved. Target: under {LIMIT} CPU s.",
        "",
        "| command | before median | before max | after median | after max | exit | stderr lines | "
        f"after max < {LIMIT} s | output identical to {short(args.same_output_as)} |",
        "|---|---:|---:|---:|---:|---:|---:|:-:|:-:|",
    ]
    for r in rows:
        label = f"`{r['label']}`" + (" (not a target)" if r["extra"] else "")
        lines.append(f"| {label} | {r['before_median']:.3f} | {r['before_max']:.3f} | {r['after_median']:.3f} | "
                     f"{r['after_max']:.3f} | {r['code']} | {r['err_lines']} | "
                     f"{'yes' if r['after_max'] < LIMIT else 'no'} | {'yes' if r['same'] else 'NO'} |")
    lines.append("")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines), encoding="utf-8")
    print(f"→ {args.out}")
    targets = [r for r in rows if not r["extra"]]
    return 0 if all(r["same"] for r in targets) else 1


if __name__ == "__main__":
    sys.exit(main())
