"""Faults: SIGKILL at random points of five commands, and an LLM endpoint failing 30 % of requests.

    .venv/bin/python benchmarks/faults.py [--kills 4] [--seed 0] [--out benchmarks/results/faults.md]

Part 1 kills `kb render`, `gen`, `run`, `evaluate` and `relevance calibrate` (real `ragdx`
processes on the demo database) at ``--kills`` random moments each, checks what the kill left,
starts the same command again, and compares the outcome with an uninterrupted run:

* lost: records of the uninterrupted run missing after the restart;
* duplicated: records written twice;
* differing: outputs that differ from the uninterrupted run's;
* leftovers: staging (``.partial``) or ``.old`` directories still there after the restart;
* silently wrong: a kill that left an output that reads as complete but is not.

Part 2 runs an OpenAI-compatible server on 127.0.0.1 (``tests/support/openai_server.py``) that
fails 30 % of requests, in every way in turn (429 with Retry-After, 500, 503, a hang past the
client's timeout, truncated JSON, an HTML page, empty choices, null content), under
`evaluate --judge llm` and under a pipeline whose generator is that LLM. A failure must be
recorded (the judgement's or the record's error) or retried into the right answer; a wrong
verdict or answer without an error is "silently wrong". All counts but failed-and-recorded must
be 0.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

ENV = {**os.environ, "OMP_WAIT_POLICY": "passive", "HF_HUB_OFFLINE": "1", "NO_COLOR": "1", "COLUMNS": "200",
       "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""), "RAGDX_TEST_SLEEP": "0.01"}


def ragdx(*args: str, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "ragdx.cli", *args], cwd=cwd, env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(proc: subprocess.Popen, what: str) -> float:
    out, err = proc.communicate(timeout=600)
    if proc.returncode != 0:
        raise SystemExit(f"{what} failed ({proc.returncode}): {err[-1500:]}")
    return 0.0


def timed(args: list[str], cwd: Path) -> float:
    start = time.monotonic()
    finish(ragdx(*args, cwd=cwd), " ".join(args[:2]))
    return time.monotonic() - start


def leftovers(target: Path) -> int:
    return sum(1 for p in target.parent.iterdir()
               if p.name.startswith(f".{target.name}.") and (p.name.endswith(".partial") or p.name.endswith(".old")))


def jsonl_by_id(path: Path) -> tuple[dict[str, dict], int]:
    """Latest line per id, and the number of duplicate ids among the lines."""
    latest: dict[str, dict] = {}
    lines = 0
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                obj = json.loads(line)
                latest[obj["id"]] = obj
                lines += 1
    return latest, lines - len(latest)


# ----------------------------------------------------------------------------- part 1: SIGKILL


def directory_digest(directory: Path, names: list[str]) -> dict[str, str]:
    return {n: hashlib.sha256((directory / n).read_bytes()).hexdigest() if (directory / n).exists() else "missing"
            for n in names}


def say(what: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {what}", file=sys.stderr, flush=True)


def kill_and_restart(name: str, args: list[str], restart: list[str], target: Path, cwd: Path, duration: float,
                     rng: random.Random, compare) -> dict:
    """One kill point: start, SIGKILL after a random delay, inspect, restart, compare."""
    proc = ragdx(*args, cwd=cwd)
    delay = rng.uniform(0.3, max(0.4, duration * 1.1))
    say(f"{name}: kill after {delay:.1f} s (an uninterrupted run takes {duration:.1f} s)")
    try:
        proc.wait(timeout=delay)
        landed = False  # finished before the kill
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        landed = True
    proc.communicate()
    after_kill = compare(target, after_kill=True)
    again = ragdx(*restart, cwd=cwd)
    out, err = again.communicate(timeout=600)
    if again.returncode != 0:
        return {"landed": landed, "restart_failed": f"{again.returncode}: {err.strip()[-300:]}", **after_kill}
    result = compare(target, after_kill=False)
    result["silently_wrong"] = after_kill.get("silently_wrong", 0)
    result["leftovers"] = leftovers(target)
    result["landed"] = landed
    return result


def part1(root: Path, kills: int, rng: random.Random) -> list[dict]:
    from ragdx.demo.database import build_demo_database

    db = build_demo_database(root / "demo.sqlite")
    url = f"sqlite:///{db}"
    finish(ragdx("templates", "sql", "--db", url, "-o", "sql.yaml", cwd=root), "templates sql")
    finish(ragdx("templates", "text", "--db", url, "--sql", "sql.yaml", "-o", "text.yaml", "--style", "short",
                 "--style", "long", "--n", "2", cwd=root), "templates text")

    rows = []
    # --- kb render and gen: staged directories, whole or absent
    commands = {
        "kb render": (["kb", "render", "--db", url, "--omit", "Staff.Office"], ["documents.jsonl", "facts.json"]),
        "gen": (["gen", "--db", url, "--sql", "sql.yaml", "--text", "text.yaml", "--kb", "ref-kb", "--n", "2",
                 "--max-groups-per-template", "8", "--multi-answer", "keep"], ["records.jsonl"]),
    }
    for name, (base, files) in commands.items():
        ref = root / f"ref-{name.split()[0]}"
        duration = timed([*base, "-o", ref.name], root)
        want = directory_digest(ref, files)

        def compare(target: Path, after_kill: bool, files=files, want=want) -> dict:
            if not target.exists():
                return {"silently_wrong": 0} if after_kill else {"lost": len(files)}
            got = directory_digest(target, files)
            bad = sum(got[f] != want[f] for f in files)
            return {"silently_wrong": bad} if after_kill else {"differing": bad}

        for k in range(kills):
            target = root / f"{name.split()[0]}-{k}"
            rows.append({"scenario": name, **kill_and_restart(
                name, [*base, "-o", target.name], [*base, "-o", target.name, "--overwrite"], target, root,
                duration, rng, compare)})

    # --- run: append-only results, resumed
    run_base = ["run", "-d", "ref-gen", "--callable", "tests.test_runner:slow_answer", "--no-progress", "-j", "4"]
    duration = timed([*run_base, "-o", "ref-run"], root)
    ref_results, _ = jsonl_by_id(root / "ref-run" / "results.jsonl")

    def compare_run(target: Path, after_kill: bool) -> dict:
        got, dup = jsonl_by_id(target / "results.jsonl")
        if after_kill:
            wrong = sum(1 for i, o in got.items() if o.get("answer") != ref_results[i].get("answer"))
            return {"silently_wrong": wrong}
        return {"lost": sum(1 for i in ref_results if i not in got), "duplicated": dup,
                "differing": sum(1 for i, o in got.items() if o.get("answer") != ref_results[i].get("answer"))}

    for k in range(kills):
        target = root / f"run-{k}"
        rows.append({"scenario": "run", **kill_and_restart("run", [*run_base, "-o", target.name],
                                                            [*run_base, "-o", target.name], target, root,
                                                            duration, rng, compare_run)})

    # --- evaluate: the evaluation of one run, written again after a kill
    eval_base = ["evaluate", "ref-run", "--judge", "exact", "--boot", "200"]
    duration = timed([*eval_base, "-o", "ref-eval"], root)
    ref_j, _ = jsonl_by_id(root / "ref-eval" / "judgements.jsonl")

    def compare_eval(target: Path, after_kill: bool) -> dict:
        got, dup = jsonl_by_id(target / "judgements.jsonl")
        if after_kill:  # a partial evaluation directory would be read by `report`
            partial = bool(got) and (len(got) != len(ref_j) or not (target / "metrics.json").exists())
            return {"silently_wrong": int(partial)}
        return {"lost": sum(1 for i in ref_j if i not in got), "duplicated": dup,
                "differing": sum(1 for i, j in got.items() if j.get("correct") != ref_j[i].get("correct"))}

    for k in range(kills):
        target = root / f"eval-{k}"
        rows.append({"scenario": "evaluate", **kill_and_restart("evaluate", [*eval_base, "-o", target.name],
                                                                 [*eval_base, "-o", target.name], target, root,
                                                                 duration, rng, compare_eval)})

    # --- relevance calibrate: a staged tester directory
    cal_base = ["relevance", "calibrate", "ref-kb/documents.jsonl", "--corpus-field", "text", "--dataset", "ref-gen",
                "--retriever", "bm25"]
    duration = timed([*cal_base, "-o", "ref-tester"], root)
    ref_arrays = sorted(p.name for p in (root / "ref-tester").iterdir() if p.suffix in (".npy", ".json")
                        and p.name != "relevance-tester.json")
    want = directory_digest(root / "ref-tester", ref_arrays)

    def compare_cal(target: Path, after_kill: bool) -> dict:
        if not target.exists():
            return {"silently_wrong": 0} if after_kill else {"lost": 1}
        got = directory_digest(target, ref_arrays)
        bad = sum(got[f] != want[f] for f in ref_arrays)
        return {"silently_wrong": bad} if after_kill else {"differing": bad}

    for k in range(kills):
        target = root / f"tester-{k}"
        rows.append({"scenario": "relevance calibrate", **kill_and_restart(
            "relevance calibrate", [*cal_base, "-o", target.name], [*cal_base, "-o", target.name, "--overwrite"],
            target, root, duration, rng, compare_cal)})
    return rows


# ----------------------------------------------------------------------------- part 2: a faulty LLM


FAULT_KINDS = ("429", "500", "503", "hang", "truncated", "html", "empty_choices", "null_content")


class FaultyReplies:
    """30 % of requests fail, cycling through every kind of failure; the rest answer by script."""

    def __init__(self, seed: int, share: float = 0.3):
        self.rng = random.Random(seed)
        self.share = share
        self.lock = threading.Lock()
        self.faults = {k: 0 for k in FAULT_KINDS}
        self.turn = 0

    def __call__(self, body):
        from tests.support.openai_server import Fault

        with self.lock:
            fail = self.rng.random() < self.share
            kind = FAULT_KINDS[self.turn % len(FAULT_KINDS)] if fail else None
            if fail:
                self.turn += 1
                self.faults[kind] += 1
        if kind == "429":
            return Fault.http(429, retry_after=0.05)
        if kind in ("500", "503"):
            return Fault.http(int(kind))
        if kind == "hang":
            return Fault.timeout(3.0)
        if kind == "truncated":
            return Fault.truncated()
        if kind == "html":
            return Fault.html()
        if kind == "empty_choices":
            return Fault.empty_choices()
        if kind == "null_content":
            return Fault.content(None)
        return scripted(body)


def scripted(body) -> str:
    user = body["messages"][-1]["content"]
    if user.startswith("Evaluate the accuracy"):
        true = user.split("##True Answer##: ", 1)[1].split("\n", 1)[0]
        given = user.split("##Given Response##: ", 1)[1].split("\n##Judgement##", 1)[0]
        return "Correct" if true.casefold() in given.casefold() else "Incorrect"
    question = user.rsplit("Question: ", 1)[-1]
    return "ANSWER-" + hashlib.sha256(question.encode()).hexdigest()[:8]


def part2(root: Path, seed: int) -> list[dict]:
    from tests.support.openai_server import OpenAIServer

    rows = []
    replies = FaultyReplies(seed)
    with OpenAIServer() as server:
        server.reply = replies
        cfg = root / "ragdx-llm.yaml"
        cfg.write_text(f"llm:\n  base_url: {server.base_url}\n  model: test-model\n  max_retries: 2\n"
                       f"  timeout: 1\n  max_concurrency: 16\n  cache_dir: null\n")
        say("evaluate --judge llm against the faulty endpoint")
        # evaluate --judge llm on the uninterrupted run of part 1
        proc = ragdx("evaluate", "ref-run", "--judge", "llm", "--boot", "200", "-o", "llm-eval", "-c", str(cfg),
                     cwd=root)
        out, err = proc.communicate(timeout=900)
        judged, dup = jsonl_by_id(root / "llm-eval" / "judgements.jsonl")
        failed = sum(1 for j in judged.values() if j.get("error"))
        wrong = 0
        for j in judged.values():
            if j.get("error") or j.get("judge") == "refusal":
                continue
            expected = str(j.get("answer", "")).casefold() in str(j.get("response") or "").casefold()
            wrong += bool(j.get("correct")) != expected
        rows.append({"scenario": "evaluate --judge llm", "points": len(judged), "exit": proc.returncode,
                     "duplicated": dup, "failed_and_recorded": failed, "silently_wrong": wrong,
                     "lost": 0 if proc.returncode == 0 else len(judged) or 1,
                     "note": err.strip().splitlines()[-1][:120] if proc.returncode else ""})
        # an llm: pipeline over the knowledge base
        (root / "llm-pipeline.yaml").write_text(json.dumps({
            "name": "llm-faults", "corpus": str(root / "ref-kb" / "documents.jsonl"), "top_k": 2,
            "chunker": {"type": "whole_document"}, "retriever": {"type": "bm25"},
            "generator": {"type": "llm", "params": {"llm": {"base_url": server.base_url, "model": "test-model",
                                                            "max_retries": 2, "timeout": 1, "max_concurrency": 16,
                                                            "cache_dir": None}}}}))
        say("an llm: pipeline against the faulty endpoint")
        proc = ragdx("run", "-d", "ref-gen", "--system", "llm-pipeline.yaml", "-o", "llm-run", "--no-progress",
                     "-j", "8", "--limit", "300", cwd=root)
        out, err = proc.communicate(timeout=900)
        results, dup = jsonl_by_id(root / "llm-run" / "results.jsonl")
        inputs = {json.loads(x)["id"]: json.loads(x)["query"]
                  for x in (root / "llm-run" / "inputs.jsonl").read_text().splitlines() if x.strip()}
        failed = sum(1 for r in results.values() if r.get("error"))
        wrong = sum(1 for i, r in results.items() if not r.get("error")
                    and r.get("answer") != "ANSWER-" + hashlib.sha256(inputs[i].encode()).hexdigest()[:8])
        rows.append({"scenario": "run (llm: pipeline)", "points": len(results), "exit": proc.returncode,
                     "duplicated": dup, "failed_and_recorded": failed, "silently_wrong": wrong,
                     "lost": 0 if proc.returncode in (0,) else 1,
                     "note": err.strip().splitlines()[-1][:120] if proc.returncode else ""})
    rows.append({"scenario": "faults injected", "note": ", ".join(f"{k} {v}" for k, v in replies.faults.items())})
    return rows


# ----------------------------------------------------------------------------- table


def table(kill_rows: list[dict], llm_rows: list[dict]) -> str:
    out = ["## SIGKILL at random points, then the same command again", "",
           "| command | kill points | killed before it ended | lost | duplicated | differing | leftovers |"
           " silently wrong | restart failed |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name in dict.fromkeys(r["scenario"] for r in kill_rows):
        rs = [r for r in kill_rows if r["scenario"] == name]
        total = {k: sum(int(r.get(k, 0) or 0) for r in rs)
                 for k in ("landed", "lost", "duplicated", "differing", "leftovers", "silently_wrong")}
        failed = sum(1 for r in rs if r.get("restart_failed"))
        out.append(f"| {name} | {len(rs)} | {total['landed']} | {total['lost']} | {total['duplicated']} | "
                   f"{total['differing']} | {total['leftovers']} | {total['silently_wrong']} | {failed} |")
    notes = [r["restart_failed"] for r in kill_rows if r.get("restart_failed")]
    out += [f"- restart failed: {n}" for n in notes[:5]]
    out += ["", "## An OpenAI-compatible endpoint failing 30 % of requests", "",
            "| scenario | items | exit | lost | duplicated | failed and recorded | silently wrong |",
            "|---|---:|---:|---:|---:|---:|---:|"]
    for r in llm_rows:
        if r["scenario"] == "faults injected":
            continue
        out.append(f"| {r['scenario']} | {r['points']} | {r['exit']} | {r['lost']} | {r['duplicated']} | "
                   f"{r['failed_and_recorded']} | {r['silently_wrong']} |")
    out += [f"- {r['scenario']}: {r['note']}" for r in llm_rows if r.get("note")]
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=4, help="kill points per command (5 commands)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="also write the table here (Markdown)")
    parser.add_argument("--skip-kills", action="store_true", help="only the faulty-LLM part (needs no kills)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    root = Path(tempfile.mkdtemp(prefix="ragdx-faults-"))
    started = time.monotonic()
    try:
        kill_rows = part1(root, 0 if args.skip_kills else args.kills, rng)
        llm_rows = part2(root, args.seed)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    elapsed = time.monotonic() - started
    text = table(kill_rows, llm_rows) + f"\n{elapsed:.0f} s on {os.cpu_count()} CPUs, seed {args.seed}\n"
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
