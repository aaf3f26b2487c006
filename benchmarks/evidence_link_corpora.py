"""Evidence linking on corpora people wrote, scored by each corpus's own scorer (its writer's truth).

    OMP_WAIT_POLICY=passive HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/evidence_link_corpora.py \
        [--corpus DIR ...] [--before SRC] [--dump-fp FILE] [--dump-fn FILE] \
        [--out benchmarks/results/evidence_link_corpora.md]

A corpus folder holds ``docs/``, ``truth.json``, ``score_linking.py`` and its SQLite database
(``truth.json``'s ``database``, relative to the folder, or the only ``*.sqlite`` in it). For each
one the dataset is made as a user would (``ragdx templates sql``, ``templates text --style short
--style long --n 3``, ``gen --corpus docs/``) on a scratch copy of the database, then scored by the
corpus's scorer, which derives the facts a record needs from its SQL, never from ragdx. With
``--before SRC`` (a ``src`` folder of another ragdx, e.g. ``git archive f62cdfe src``) the same
dataset is re-linked by that code and scored too. Default corpora: Northwind (``../shared``, when
present) and every folder under ``benchmarks/corpora``. With ``--dump-fp FILE`` each corpus's false-positive
gold documents (by its writer's truth) are written to ``FILE.<corpus>.jsonl``: the record's needed facts, the
document, the spans ragdx gave for it (at most two per fact: a document linked beyond those has none) and what
the writer recorded in that document about the same rows; ``--dump-fn FILE`` the same for the documents the
writer's truth names and ragdx missed (recall). Do not read a held-out corpus's dump.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NORTHWIND = ROOT.parent / "shared" / "data" / "northwind" / "corpus"
HEADLINE = re.compile(r"precision\s+([\d.]+) %\s+recall\s+([\d.]+) %")
KB = re.compile(r"kb_supported accuracy:\s+([\d.]+) %")


def cpu() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        return next((ln.split(":", 1)[1].strip() for ln in out.splitlines() if ln.startswith("Model name")),
                    platform.processor())
    except OSError:
        return platform.processor()


def held_out(corpus: Path) -> bool:
    """A corpus kept from everyone working on the linker and the judge: its folder holds ``HELD_OUT``."""
    return (corpus / "HELD_OUT").is_file()


def database(corpus: Path) -> Path:
    truth = json.loads((corpus / "truth.json").read_text(encoding="utf-8"))
    named = truth.get("database")
    if named and (corpus / named).is_file():
        return corpus / named
    found = sorted(corpus.glob("*.sqlite"))
    if len(found) != 1:
        raise SystemExit(f"{corpus}: cannot tell its database (truth.json 'database' or one *.sqlite)")
    return found[0]


def ragdx(args: list[str], src: Path | None = None) -> None:
    env = dict(os.environ, PYTHONPATH=str(src)) if src else dict(os.environ)
    r = subprocess.run([sys.executable, "-m", "ragdx.cli", *args], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise SystemExit(f"ragdx {' '.join(args[:2])} failed: {r.stderr.strip().splitlines()[-1:]}")


def score(corpus: Path, db: Path, ds: Path) -> dict:
    r = subprocess.run([sys.executable, str(corpus / "score_linking.py"), str(ds), "--db", str(db)],
                       capture_output=True, text=True, check=True)
    p, rec = HEADLINE.search(r.stdout).groups()
    return {"precision": float(p), "recall": float(rec), "kb": float(KB.search(r.stdout).group(1)),
            "records": int(re.search(r"records:\s+(\d+)", r.stdout).group(1)), "text": r.stdout}


def scorer_module(corpus: Path):
    """The corpus's own ``score_linking.py``, imported (its ``Needs`` says which facts a record needs)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"score_linking_{corpus.parent.name}_{corpus.name}",
                                                  corpus / "score_linking.py")
    mod = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(corpus.parent))  # the shared benchmarks/corpora/scoring.py
    try:
        spec.loader.exec_module(mod)
    finally:
        sys.path.remove(str(corpus.parent))
    return mod


def false_positives(corpus: Path, db: Path, ds: Path, *, missed: bool = False) -> list[dict]:
    """Each false-positive gold document of a record (by the writer's truth) with the spans ragdx
    gave for it, once per (needed facts, document): the six phrasings of a group share one. With
    ``missed``, each document the writer's truth names for a record and ragdx did not (its false
    negatives), with what the writer recorded there and the spans ragdx gave elsewhere."""
    mod = scorer_module(corpus)
    truth = json.loads((corpus / "truth.json").read_text(encoding="utf-8"))
    stem = mod.stem
    exact: dict[str, set[str]] = {}
    stated: dict[str, list[dict]] = {}
    for f in truth["facts"]:
        if f["exact"]:
            exact.setdefault(f["fact_key"], set()).add(stem(f["doc_id"]))
        stated.setdefault(stem(f["doc_id"]), []).append(f)
    for sp in truth.get("split_facts", []):
        for d in sp["doc_ids"]:
            exact.setdefault(sp["fact_key"], set()).add(stem(d))
    distractors = {stem(x) for x in truth.get("distractor_doc_ids", [])}
    needs = mod.Needs(str(db))
    seen: dict[tuple, dict] = {}
    for line in (ds / "records.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        r = json.loads(line)
        try:
            need = sorted({k for row in needs(r["sql"]) for k in row})
        except Exception:  # noqa: BLE001 — the scorer counts such a record apart; so does this
            continue
        gold = set().union(*(exact.get(k, set()) for k in need)) if need else set()
        given = {stem(x) for x in r.get("gold_document_ids") or []}
        for doc in sorted(gold - given if missed else given - gold):
            key = (tuple(need), doc)
            if key in seen:
                seen[key]["records"] += 1
                continue
            keys = {k.partition("@")[2] for k in need}
            seen[key] = {"table": r.get("table"), "need": need, "facts": r.get("facts"), "doc": doc,
                         "distractor": doc in distractors, "records": 1,
                         "spans": [{"fact": s["fact"], "weight": s.get("weight"), "text": s["text"][:400],
                                    **({"doc": stem(s["doc_id"])} if missed else {})}
                                   for s in r.get("evidence_spans") or [] if missed or stem(s["doc_id"]) == doc],
                         # what the writer recorded in this document about the same rows
                         "truth_here": [f"{f['fact_key']} = {f['surface']!r} ({f['how']})"
                                        for f in stated.get(doc, []) if f["fact_key"].partition("@")[2] in keys][:8]}
    return sorted(seen.values(), key=lambda x: -x["records"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", action="append", type=Path)
    ap.add_argument("--before", type=Path, help="a src/ folder of the ragdx to compare with")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--dump-fp", type=Path, help="write each false-positive gold document (record's needed "
                    "facts, document, ragdx's spans) here as JSON lines, one file per corpus: FILE.<corpus>.jsonl")
    ap.add_argument("--dump-fn", type=Path, help="write each gold document the writer's truth names and ragdx "
                    "missed (record's needed facts, document, what the writer recorded there) here as JSON lines, "
                    "one file per corpus: FILE.<corpus>.jsonl")
    a = ap.parse_args(argv)
    # a held-out corpus (a HELD_OUT file in its folder) is linked only when named with --corpus, and its
    # misses are never dumped: nobody working on the linker may read what ragdx got wrong there
    corpora = a.corpus or ([NORTHWIND] if NORTHWIND.is_dir() else []) + sorted(
        p for p in (ROOT / "benchmarks" / "corpora").iterdir()
        if (p / "truth.json").is_file() and not held_out(p))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for corpus in corpora:
            work = Path(tmp) / corpus.parent.name if corpus.name == "corpus" else Path(tmp) / corpus.name
            work.mkdir()
            db = work / "db.sqlite"
            shutil.copy(database(corpus), db)
            url = f"sqlite:///{db}"
            t0 = time.perf_counter()
            ragdx(["templates", "sql", "--db", url, "-o", str(work / "sql.yaml")])
            ragdx(["templates", "text", "--db", url, "--sql", str(work / "sql.yaml"), "-o", str(work / "text.yaml"),
                   "--style", "short", "--style", "long", "--n", "3"])
            ragdx(["gen", "--db", url, "--sql", str(work / "sql.yaml"), "--text", str(work / "text.yaml"),
                   "-o", str(work / "ds"), "--corpus", str(corpus / "docs")])
            after = score(corpus, db, work / "ds")
            after["seconds"] = time.perf_counter() - t0
            if (a.dump_fp or a.dump_fn) and held_out(corpus):
                print(f"{corpus.name}: held out, its false positives and misses are not dumped", file=sys.stderr)
            if a.dump_fp and not held_out(corpus):
                name_ = corpus.parent.name if corpus.name == "corpus" else corpus.name
                dump = a.dump_fp.with_name(f"{a.dump_fp.name}.{name_}.jsonl")
                dump.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n"
                                        for x in false_positives(corpus, db, work / "ds")), encoding="utf-8")
            if a.dump_fn and not held_out(corpus):
                name_ = corpus.parent.name if corpus.name == "corpus" else corpus.name
                dump = a.dump_fn.with_name(f"{a.dump_fn.name}.{name_}.jsonl")
                dump.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n"
                                        for x in false_positives(corpus, db, work / "ds", missed=True)),
                                encoding="utf-8")
            before = None
            if a.before:
                ragdx(["kb", "link", str(work / "ds"), "--corpus", str(corpus / "docs"), "--db", url,
                       "-o", str(work / "before")], src=a.before)
                before = score(corpus, db, work / "before")
            name = corpus.parent.name if corpus.name == "corpus" else corpus.name
            rows.append((name, before, after))
            print(f"{name}: P {after['precision']} R {after['recall']} kb {after['kb']}"
                  + (f" (before P {before['precision']} R {before['recall']} kb {before['kb']})" if before else ""),
                  flush=True)
    lines = ["# Evidence linking on corpora people wrote, scored by their writers' truth", "",
             f"`{' '.join(['python', 'benchmarks/evidence_link_corpora.py', *(argv or sys.argv[1:])])}` "
             f"— CPU: {cpu()}; ragdx at `{git_head()}`.", "",
             "| corpus | records | gold precision | gold recall | `kb_supported` accuracy |",
             "|---|---:|---|---|---|"]
    def cell(before: dict | None, after: dict, k: str) -> str:
        return f"{before[k]:.1f} → **{after[k]:.1f}** %" if before else f"**{after[k]:.1f}** %"

    for name, before, after in rows:
        lines.append(f"| {name} | {after['records']} | {cell(before, after, 'precision')} | "
                     f"{cell(before, after, 'recall')} | {cell(before, after, 'kb')} |")
    lines += ["", "Targets (issue 21): precision ≥ 95 %, recall ≥ 90 %, `kb_supported` accuracy ≥ 95 %.", ""]
    for name, _, after in rows:
        lines += [f"<details><summary>{name}: the scorer's output</summary>", "", "```", after["text"].rstrip(),
                  "```", "", "</details>", ""]
    text = "\n".join(lines)
    if a.out:
        a.out.write_text(text, encoding="utf-8")
    return 0


def git_head() -> str:
    r = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return r.stdout.strip() or "?"


if __name__ == "__main__":
    raise SystemExit(main())
