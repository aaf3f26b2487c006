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

Part 2 (``--part llm`` runs it alone, keeping the SIGKILL table of ``--out``) runs an
OpenAI-compatible server on 127.0.0.1 (``tests/support/openai_server.py``) that fails 30 % of
requests, in ten ways in turn (429 with Retry-After, 500, 503, a hang past the client's timeout,
truncated JSON, an HTML page, empty choices, null content, a reply that is no verdict, a 2 MB
reply), under `evaluate --judge llm` and under a pipeline whose generator is that LLM, each with a
completion cache; then runs each again with the endpoint healthy on the same cache. Checked:

* a failure is recorded (the judgement's or the record's error) or retried into the right answer;
  a wrong verdict or answer without an error is "silently wrong";
* non-verdicts counted as verdicts: a judgement whose verdict was read from a reply that gave none;
* failures cached: a cached reply that is no verdict (judge) or no answer (generator), after both
  runs; on the replay every failed item must be asked again, and every success come from the cache
  (cache hits on the replay = the hostile run's answers the cache may keep);
* usage counted exactly: the requests the server saw = the calls ragdx reported (``llm_usage``).

All counts but failed-and-recorded must be 0.
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


FAULT_KINDS = ("429", "500", "503", "hang", "truncated", "html", "empty_choices", "null_content", "non_verdict",
               "huge")
#: a reply that is neither Correct nor Incorrect, and a 2 MB one whose first word reads as a verdict
NON_VERDICT = "Maybe. It is hard to say."
HUGE = "Correct " + "blah " * 400_000


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
        if kind == "non_verdict":
            return NON_VERDICT
        if kind == "huge":
            return HUGE
        return scripted(body)


def scripted(body) -> str:
    user = body["messages"][-1]["content"]
    if user.startswith("Evaluate the accuracy"):
        true = user.split("##True Answer##: ", 1)[1].split("\n", 1)[0]
        given = user.split("##Given Response##: ", 1)[1].split("\n##Judgement##", 1)[0]
        return "Correct" if true.casefold() in given.casefold() else "Incorrect"
    question = user.rsplit("Question: ", 1)[-1]
    return "ANSWER-" + hashlib.sha256(question.encode()).hexdigest()[:8]


def judge_key(body) -> tuple[str, str]:
    """(query, response) of a judge request: what identifies the judgement it asks for."""
    user = body["messages"][-1]["content"]
    query = user.split("##Query##: ", 1)[1].split("\n##True Answer##", 1)[0]
    return query, user.split("##Given Response##: ", 1)[1].split("\n##Judgement##", 1)[0]


def cache_texts(cache_dir: Path) -> list[str]:
    import sqlite3

    path = cache_dir / "llm-cache.sqlite"
    if not path.exists():
        return []
    with sqlite3.connect(path) as conn:
        return [json.loads(row[0]).get("text", "") for row in conn.execute("SELECT response FROM completions")]


def size_mb(*paths: Path) -> float:
    return sum(p.stat().st_size for p in paths if p.exists()) / 1e6


def llm_config(server, cache_dir: Path) -> dict:
    return {"base_url": server.base_url, "model": "test-model", "max_retries": 2, "timeout": 1,
            "max_concurrency": 16, "cache_dir": str(cache_dir)}


def evaluate_once(root: Path, server, cfg: Path, out: str) -> tuple[dict, int, subprocess.Popen]:
    """`evaluate --judge llm` on part 1's run; the judgements by id and the requests it sent."""
    before = len(server.chat_requests)
    proc = ragdx("evaluate", "ref-run", "--judge", "llm", "--no-geval", "--boot", "200", "-o", out, "-c", str(cfg),
                 cwd=root)
    _, err = proc.communicate(timeout=1800)
    proc.stderr_text = err  # kept for the note on a failed exit
    return jsonl_by_id(root / out / "judgements.jsonl")[0], len(server.chat_requests) - before, proc


def evaluate_llm(root: Path, server) -> dict:
    """Hostile, then replayed with the endpoint healthy on the same completion cache."""
    cache = root / "judge-cache"
    cfg = root / "ragdx-llm.yaml"
    cfg.write_text(json.dumps({"llm": llm_config(server, cache)}))
    say("evaluate --judge llm against the faulty endpoint")
    judged, sent, proc = evaluate_once(root, server, cfg, "llm-eval")
    metrics = json.loads((root / "llm-eval" / "metrics.json").read_text()) if proc.returncode == 0 else {}
    usage = metrics.get("llm_usage") or {}
    failed = [j for j in judged.values() if j.get("error")]
    wrong = sum(1 for j in judged.values() if not j.get("error") and j.get("judge") != "refusal"
                and bool(j.get("correct")) != (str(j.get("answer", "")).casefold()
                                               in str(j.get("response") or "").casefold()))
    # a verdict read from a reply that gave none: its reason would be that reply
    as_verdicts = sum(1 for j in judged.values() if not j.get("error")
                      and ("blah" in str(j.get("reason")) or NON_VERDICT[:5] in str(j.get("reason"))))
    non_verdicts = sum(v for k, v in (metrics.get("inputs", {}).get("judge_failed_by") or {}).items()
                       if k != "call failed")
    cached_failures = sum(1 for t in cache_texts(cache) if t not in ("Correct", "Incorrect"))
    row = {"scenario": "evaluate --judge llm", "points": len(judged), "exit": proc.returncode,
           "duplicated": jsonl_by_id(root / "llm-eval" / "judgements.jsonl")[1],
           "lost": 0 if proc.returncode == 0 else 1,
           "failed_and_recorded": len(failed), "silently_wrong": wrong, "non_verdicts_as_verdicts": as_verdicts,
           "sent": sent, "calls": usage.get("calls"), "usage": usage, "cache_mb": size_mb(cache / "llm-cache.sqlite"),
           "results_mb": size_mb(root / "llm-eval" / "judgements.jsonl"),
           "note": proc.stderr_text.strip().splitlines()[-1][:120] if proc.returncode else ""}
    say("evaluate --judge llm again, the endpoint healthy")
    server.reply = scripted
    before = len(server.chat_requests)
    again, sent_again, proc2 = evaluate_once(root, server, cfg, "llm-eval-replay")
    asked = {judge_key(r.body) for r in server.chat_requests[before:]}
    usage2 = json.loads((root / "llm-eval-replay" / "metrics.json").read_text()).get("llm_usage") or {} \
        if proc2.returncode == 0 else {}
    cached_failures = max(cached_failures, sum(1 for t in cache_texts(cache) if t not in ("Correct", "Incorrect")))
    row.update(
        replay_exit=proc2.returncode, replay_sent=sent_again, replay_calls=usage2.get("calls"),
        replay_usage=usage2, failures_cached=cached_failures,
        # every judgement that failed is asked again; nothing else is
        not_asked_again=sum(1 for j in failed if (j["query"], j.get("response") or "") not in asked),
        asked_again=len(asked), failed_prompts=len({(j["query"], j.get("response") or "") for j in failed}),
        replay_hits=usage2.get("cache_hits"),
        # what the hostile run may have cached: its answers that were verdicts (and its own hits)
        cacheable=(usage.get("completions") or 0) - non_verdicts + (usage.get("cache_hits") or 0),
        replay_failed=sum(1 for j in again.values() if j.get("error")))
    return row


def run_once(root: Path, server, out: str) -> tuple[dict, int, subprocess.Popen]:
    before = len(server.chat_requests)
    proc = ragdx("run", "-d", "ref-gen", "--system", "llm-pipeline.yaml", "-o", out, "--no-progress", "-j", "8",
                 "--limit", "300", cwd=root)
    _, err = proc.communicate(timeout=1800)
    proc.stderr_text = err  # kept for the note on a failed exit
    return jsonl_by_id(root / out / "results.jsonl")[0], len(server.chat_requests) - before, proc


def run_llm(root: Path, server, replies: FaultyReplies) -> dict:
    """An llm: pipeline over the knowledge base, hostile then replayed healthy on the same cache."""
    cache = root / "gen-cache"
    (root / "llm-pipeline.yaml").write_text(json.dumps({
        "name": "llm-faults", "corpus": str(root / "ref-kb" / "documents.jsonl"), "top_k": 2,
        "chunker": {"type": "whole_document"}, "retriever": {"type": "bm25"},
        "generator": {"type": "llm", "params": {"llm": llm_config(server, cache)}}}))
    say("an llm: pipeline against the faulty endpoint")
    server.reply = replies
    results, sent, proc = run_once(root, server, "llm-run")
    manifest = json.loads((root / "llm-run" / "manifest.json").read_text())
    usage = manifest.get("llm_usage") or {}
    inputs = {json.loads(x)["id"]: json.loads(x)["query"]
              for x in (root / "llm-run" / "inputs.jsonl").read_text().splitlines() if x.strip()}
    failed = [i for i, r in results.items() if r.get("error")]

    def expected(answer: str | None, rid: str) -> bool:  # what the model said: by script, or a hostile reply
        return answer in ("ANSWER-" + hashlib.sha256(inputs[rid].encode()).hexdigest()[:8], NON_VERDICT) \
            or (answer is not None and HUGE.startswith(answer) and len(answer) > 100)

    wrong = sum(1 for i, r in results.items() if not r.get("error") and not expected(r.get("answer"), i))
    bad_cached = sum(1 for t in cache_texts(cache)
                     if not (t.startswith("ANSWER-") or t == NON_VERDICT or HUGE.startswith(t)))
    row = {"scenario": "run (llm: pipeline)", "points": len(results), "exit": proc.returncode,
           "duplicated": jsonl_by_id(root / "llm-run" / "results.jsonl")[1], "lost": 0 if proc.returncode == 0 else 1,
           "failed_and_recorded": len(failed), "silently_wrong": wrong, "non_verdicts_as_verdicts": "–",
           "sent": sent, "calls": usage.get("calls"), "usage": usage, "cache_mb": size_mb(cache / "llm-cache.sqlite"),
           "results_mb": size_mb(root / "llm-run" / "results.jsonl", root / "llm-run" / "contexts.jsonl"),
           "attempts_over_1": sum(1 for r in results.values() if (r.get("attempts") or 1) > 1),
           "note": proc.stderr_text.strip().splitlines()[-1][:120] if proc.returncode > 1 else ""}
    say("the llm: pipeline again, the endpoint healthy, a new run directory on the same cache")
    server.reply = scripted
    before = len(server.chat_requests)
    _, sent_again, proc2 = run_once(root, server, "llm-run-replay")
    usage2 = json.loads((root / "llm-run-replay" / "manifest.json").read_text()).get("llm_usage") or {}
    asked = {r.body["messages"][-1]["content"].rsplit("Question: ", 1)[-1] for r in server.chat_requests[before:]}
    row.update(replay_exit=proc2.returncode, replay_sent=sent_again, replay_calls=usage2.get("calls"),
               replay_usage=usage2, failures_cached=max(bad_cached, sum(
                   1 for t in cache_texts(cache) if not (t.startswith("ANSWER-") or t == NON_VERDICT
                                                         or HUGE.startswith(t)))),
               not_asked_again=sum(1 for i in failed if inputs[i] not in asked), asked_again=len(asked),
               failed_prompts=len({inputs[i] for i in failed}), replay_hits=usage2.get("cache_hits"),
               cacheable=(usage.get("completions") or 0) + (usage.get("cache_hits") or 0),
               replay_failed=sum(1 for r in jsonl_by_id(root / "llm-run-replay" / "results.jsonl")[0].values()
                                 if r.get("error")))
    return row


def part2(root: Path, seed: int) -> list[dict]:
    from tests.support.openai_server import OpenAIServer

    with OpenAIServer() as server:
        judge_faults, run_faults = FaultyReplies(seed), FaultyReplies(seed + 1)
        server.reply = judge_faults
        eval_row = evaluate_llm(root, server)
        run_row = run_llm(root, server, run_faults)
    eval_row["faults"], run_row["faults"] = judge_faults.faults, run_faults.faults
    return [eval_row, run_row]


# ----------------------------------------------------------------------------- table


PART2_HEAD = "## An OpenAI-compatible endpoint failing 30 % of requests"
TITLE = "# benchmarks/faults.py\n"
KEPT = "_Part 1 is kept from an earlier full run; part 2 was measured again (the command at the end)._"


def kill_table(kill_rows: list[dict]) -> str:
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
    return "\n".join(out) + "\n"


def _usage_row(name: str, sent: int, usage: dict) -> str:
    tokens = f"{usage.get('prompt_tokens', 0):,} + {usage.get('completion_tokens', 0):,}"
    same = "yes" if sent == usage.get("calls") else "**no**"
    return (f"| {name} | {sent:,} | {usage.get('calls', '–')} | {same} | {usage.get('retries', '–')} | "
            f"{usage.get('failures', '–')} | {usage.get('cache_hits', '–')} | {usage.get('truncated', '–')} | "
            f"{tokens} |")


def llm_table(llm_rows: list[dict]) -> str:
    out = [PART2_HEAD, "",
           "Ten kinds of failure in turn (429 with Retry-After, 500, 503, a hang past the 1 s timeout, truncated "
           "JSON, an HTML page, empty choices, null content, a reply that is no verdict, a 2 MB reply), then the "
           "same command again with the endpoint healthy, on the same completion cache.", "",
           "| scenario | items | exit | lost | duplicated | failed and recorded | silently wrong | "
           "non-verdicts counted as verdicts | failures cached |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in llm_rows:
        out.append(f"| {r['scenario']} | {r['points']} | {r['exit']} | {r['lost']} | {r['duplicated']} | "
                   f"{r['failed_and_recorded']} | {r['silently_wrong']} | {r['non_verdicts_as_verdicts']} | "
                   f"{r['failures_cached']} |")
    out += ["", "Usage counted exactly: requests the server saw against the calls ragdx reported "
            "(`llm_usage` of metrics.json / the run manifest).", "",
            "| stage | requests seen by the server | calls reported | equal | retries | failures | cache hits | "
            "truncated | prompt + completion tokens |", "|---|---:|---:|---|---:|---:|---:|---:|---:|"]
    for r in llm_rows:
        out.append(_usage_row(f"{r['scenario']}, hostile", r["sent"], r["usage"]))
        out.append(_usage_row(f"{r['scenario']}, replayed healthy", r["replay_sent"], r["replay_usage"]))
    out += ["", "Replayed with the endpoint healthy: every failed item asked again, every success answered from "
            "the cache.", "",
            "| scenario | failed items (distinct prompts) | failed and not asked again | prompts asked on replay | "
            "cache hits on replay | hostile run's cacheable answers | failed on replay | cache MB | output MB |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in llm_rows:
        out.append(f"| {r['scenario']} | {r['failed_prompts']} | {r['not_asked_again']} | {r['asked_again']} | "
                   f"{r['replay_hits']} | {r['cacheable']} | {r['replay_failed']} | {r['cache_mb']:.2f} | "
                   f"{r['results_mb']:.2f} |")
    out += [""] + [f"- faults injected ({r['scenario']}): " + ", ".join(f"{k} {v}" for k, v in r["faults"].items())
                   for r in llm_rows if r.get("faults")]
    out += [f"- {r['scenario']}: {r['note']}" for r in llm_rows if r.get("note")]
    return "\n".join(out) + "\n"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    import platform

    return platform.processor() or "unknown"


def kept_part1(path: Path | None) -> str:
    """The title and SIGKILL table of an earlier full run (its command line included), kept when
    only part 2 is run again."""
    if path is None or not path.exists():
        return TITLE
    text = path.read_text(encoding="utf-8")
    end = text.find(PART2_HEAD)
    return text[:end].rstrip() + "\n" if end > 0 and "## SIGKILL" in text[:end] else TITLE


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=4, help="kill points per command (5 commands)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="also write the table here (Markdown)")
    parser.add_argument("--part", choices=("all", "kills", "llm"), default="all",
                        help="kills: part 1 only; llm: part 2 only (part 1's world is built, nothing killed; "
                             "--out keeps the file's SIGKILL table)")
    parser.add_argument("--skip-kills", action="store_true", help="the same as --part llm")
    args = parser.parse_args()
    part = "llm" if args.skip_kills else args.part
    rng = random.Random(args.seed)
    root = Path(tempfile.mkdtemp(prefix="ragdx-faults-"))
    started = time.monotonic()
    try:
        kill_rows = part1(root, 0 if part == "llm" else args.kills, rng)
        llm_rows = part2(root, args.seed) if part != "kills" else []
    finally:
        shutil.rmtree(root, ignore_errors=True)
    elapsed = time.monotonic() - started
    command = "benchmarks/faults.py" + ("" if part == "all" else f" --part {part}")
    header = f"`.venv/bin/python benchmarks/faults.py --kills {args.kills} --seed {args.seed}` (demo database)."
    first = f"{TITLE}\n{header}\n\n{kill_table(kill_rows)}" if part != "llm" else kept_part1(args.out)
    if part == "llm" and KEPT not in first:
        first += f"\n{KEPT}\n"
    text = "\n".join(t for t in (first, llm_table(llm_rows) if llm_rows else "") if t)
    text += (f"\n`{command} --seed {args.seed}`: {elapsed:.0f} s. CPU: {cpu_model()}, {os.cpu_count()} CPUs "
             "(shared with other work).\n")
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
