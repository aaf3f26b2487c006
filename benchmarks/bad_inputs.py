"""Bad input, as a user would give it, to every ``ragdx`` command: does each end with one line
naming the file and/or the field, exit code 2, no traceback, and nothing written?

Every case runs ``ragdx`` as a real subprocess in a fresh copy of a small world (the demo's
database, templates, knowledge base, dataset, an evaluated run and a fitted tester), after the
case has planted its bad file. The world's tree (names, sizes, modification times) is compared
before and after: any file created, changed or removed counts as "wrote something".

    OMP_WAIT_POLICY=passive HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/bad_inputs.py \\
        --out benchmarks/results/bad_inputs.md          # ~1 min on 2 idle cores

``--only SUBSTRING`` runs the cases whose name contains it; ``--jobs N`` runs N at once.
tests/test_bad_inputs.py runs a representative subset through :func:`run_case`.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RAGDX = str(Path(sys.executable).with_name("ragdx"))
#: what the world holds (from `ragdx demo`), copied afresh into each case's directory
WORLD_PARTS = ("demo.sqlite", "templates", "kb", "dataset", "runs/keyword", "relevance/tester")
TIMEOUT_S = 120


@dataclass(slots=True)
class Case:
    """One bad input: ``args`` after ``ragdx``, ``setup`` plants files in the case directory,
    ``names`` must all appear in the error line (the file and/or the field)."""

    name: str
    args: list[str]
    names: tuple[str, ...]
    setup: Callable[[Path], None] | None = None
    #: why a case is known to fall short (listed in the table), or None
    known: str | None = None


@dataclass(slots=True)
class Outcome:
    case: Case
    exit: int
    lines: int
    names_ok: bool
    wrote_nothing: bool
    traceback: bool
    stderr: str
    seconds: float
    changed: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.exit == 2 and self.lines == 1 and self.names_ok and self.wrote_nothing and not self.traceback


# ----------------------------------------------------------------------------- planting files


def write(rel: str, text: str | bytes) -> Callable[[Path], None]:
    def plant(d: Path) -> None:
        p = d / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            p.write_bytes(text)
        else:
            p.write_text(text, encoding="utf-8")
    return plant


def config(text: str) -> Callable[[Path], None]:
    return write("ragdx.yaml", "database: sqlite:///demo.sqlite\n" + text)


def both(*plants: Callable[[Path], None]) -> Callable[[Path], None]:
    def plant(d: Path) -> None:
        for p in plants:
            p(d)
    return plant


def user_dir(rel: str) -> Callable[[Path], None]:
    """A folder of the user's, which no command may replace."""
    return write(f"{rel}/notes.txt", "my own notes\n")


def edit_line(rel: str, index: int, text: str) -> Callable[[Path], None]:
    def plant(d: Path) -> None:
        p = d / rel
        lines = p.read_text(encoding="utf-8").splitlines()
        lines[index] = text
        p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return plant


def results_file(rows: list[dict] | str) -> Callable[[Path], None]:
    text = rows if isinstance(rows, str) else "".join(json.dumps(r) + "\n" for r in rows)
    return write("answers.jsonl", text)


def first_ids(d: Path, n: int = 2) -> list[str]:
    lines = (d / "dataset" / "records.jsonl").read_text(encoding="utf-8").splitlines()[:n]
    return [json.loads(line)["id"] for line in lines]


def duplicate_results(d: Path) -> None:
    a, b = first_ids(d)
    results_file([{"id": a, "answer": "x"}, {"id": b, "answer": "y"}, {"id": a, "answer": "z"}])(d)


def results_without_id(d: Path) -> None:
    results_file([{"answer": "x"}])(d)


SQL_OK = "version: 1\nschemas:\n  Course:\n  - sql: SELECT Code FROM Course WHERE Title = '[Course.Title]'\n"
TABLES = {"schema": {"T": {"columns": [{"name": "a", "type": "INTEGER"}, {"name": "b", "type": "TEXT"}],
                          "primary_key": ["a"]}},
          "rows": {"T": [{"a": 1, "b": "x"}]}}


# ----------------------------------------------------------------------------- the cases

DB = ["--db", "sqlite:///demo.sqlite"]
RUN = ["run", "-d", "dataset", "-o", "out", "--no-progress"]
EVAL = ["evaluate", "runs/keyword", "-o", "ev", "--boot", "100"]
CMP = ["compare", "runs/keyword", "runs/keyword", "-o", "cmp", "--boot", "100"]


def config_cases() -> list[Case]:
    c = [
        Case("config: YAML syntax error", ["templates", "sql"], ("ragdx.yaml",), config("gen: [unclosed\n")),
        Case("config: unknown top-level key", ["templates", "sql"], ("ragdx.yaml", "genn"), config("genn: {}\n")),
        Case("config: unknown section key", ["templates", "sql"], ("ragdx.yaml", "seeed"), config("gen: {seeed: 1}\n")),
        Case("config: seed not a number", ["gen", "-o", "ds2"], ("ragdx.yaml", "seed"), config("gen: {seed: abc}\n")),
        Case("config: text n wrong type", ["templates", "text"], ("ragdx.yaml", "n"),
             config("text_templates: {n: [1]}\n")),
        Case("config: a list, not a mapping", ["templates", "sql"], ("ragdx.yaml",), write("ragdx.yaml", "- a\n- b\n")),
        Case("config: not UTF-8", ["templates", "sql"], ("ragdx.yaml",), write("ragdx.yaml", b"database: \xff\xfe\n")),
        Case("config: --config missing", ["templates", "sql", "--config", "nope.yaml"], ("nope.yaml",)),
        Case("config: database a number", ["templates", "sql"], ("ragdx.yaml", "database"),
             write("ragdx.yaml", "database: 123\n")),
        Case("config: alias bomb", ["templates", "sql"], ("ragdx.yaml",),
             write("ragdx.yaml", "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
                   "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
                   "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n")),
        Case("config: keys wrong shape", ["templates", "sql"], ("ragdx.yaml", "keys"), config("keys: 5\n")),
        Case("config: llm unknown key", ["templates", "sql", "--method", "llm"], ("ragdx.yaml", "temprature"),
             config("llm: {base_url: 'http://127.0.0.1:9/v1', model: m, temprature: 0}\n")),
        Case("config: llm base_url not a URL", ["templates", "sql", "--method", "llm"], ("ragdx.yaml", "base_url"),
             config("llm: {base_url: 'not a url', model: m}\n")),
        Case("config: gen.null_answers bogus", ["gen", "-o", "ds2"], ("null",), config("gen: {null_answers: maybe}\n")),
        Case("config: styles not a mapping", ["templates", "text"], ("ragdx.yaml", "styles"),
             config("styles: [a, b]\n")),
    ]
    return c


def schema_template_cases() -> list[Case]:
    return [
        Case("schema: path without sqlite:///", ["schema", "demo.sqlite"], ("demo.sqlite",)),
        Case("schema: missing database file", ["schema", "sqlite:///missing.sqlite"], ("missing.sqlite",)),
        Case("schema: unknown URL scheme", ["schema", "nosuchdb://x/y"], ("nosuchdb",)),
        Case("schema: not a database", ["schema", "sqlite:///templates/sql.yaml"], ("sql.yaml",)),
        Case("schema: server unreachable", ["schema", "postgresql://u@127.0.0.1:1/x"], ("127.0.0.1",)),
        Case("templates sql: --method bogus", ["templates", "sql", *DB, "-o", "t.yaml", "--method", "bogus"],
             ("method",)),
        Case("templates sql: llm without llm section", ["templates", "sql", *DB, "-o", "t.yaml", "--method", "llm"],
             ("llm",)),
        Case("templates sql: --import missing", ["templates", "sql", *DB, "-o", "t.yaml", "--import", "nope.yaml"],
             ("nope.yaml",)),
        Case("templates sql: --import bad YAML", ["templates", "sql", *DB, "-o", "t.yaml", "--import", "imp.yaml"],
             ("imp.yaml",), write("imp.yaml", "schemas: [unclosed\n")),
        Case("templates sql: --import template not SQL",
             ["templates", "sql", *DB, "-o", "t.yaml", "--import", "imp.yaml"],
             ("imp.yaml",), write("imp.yaml", "version: 1\nschemas:\n  Course:\n  - sql: DELETE FROM Course\n"),
             known="by design: `templates sql` reports each rejected template on stderr and keeps the valid ones "
                   "(exit 0); `templates text` and `gen` refuse an invalid template"),
        Case("templates sql: no database", ["templates", "sql", "-o", "t.yaml"], ("database",)),
        Case("templates sql: existing file broken", ["templates", "sql", *DB, "-o", "templates/sql.yaml"],
             ("sql.yaml",), write("templates/sql.yaml", "schemas: {Course: [unclosed\n")),
        Case("templates sql: --schema no such table", ["templates", "sql", *DB, "-o", "t.yaml", "--method", "llm",
                                                       "--schema", "Nope"], ("Nope",),
             config("llm: {base_url: 'http://127.0.0.1:9/v1', model: m}\n")),
        Case("templates text: --style shrot", ["templates", "text", *DB, "-o", "tt.yaml", "--style", "shrot"],
             ("--style", "shrot", "short")),
        Case("templates text: --n 0", ["templates", "text", *DB, "-o", "tt.yaml", "--n", "0"], ("--n",)),
        Case("templates text: --method bogus", ["templates", "text", *DB, "-o", "tt.yaml", "--method", "bogus"],
             ("--method",)),
        Case("templates text: --sql missing", ["templates", "text", *DB, "-o", "tt.yaml", "--sql", "nope.yaml"],
             ("nope.yaml",)),
        Case("templates text: --sql template bad SQL", ["templates", "text", *DB, "-o", "tt.yaml", "--sql", "s.yaml"],
             ("s.yaml",), write("s.yaml", "version: 1\nschemas:\n  Course:\n  - sql: SELEC Code FRM Course\n")),
        Case("templates text: --sql unknown column", ["templates", "text", *DB, "-o", "tt.yaml", "--sql", "s.yaml"],
             ("s.yaml",), write("s.yaml", SQL_OK.replace("SELECT Code", "SELECT Nope"))),
        Case("templates text: --sql schemas a list", ["templates", "text", *DB, "-o", "tt.yaml", "--sql", "s.yaml"],
             ("s.yaml", "schemas"), write("s.yaml", "version: 1\nschemas: [a, b]\n")),
        Case("templates text: --import bad YAML", ["templates", "text", *DB, "-o", "tt.yaml", "--import", "i.yaml"],
             ("i.yaml",), write("i.yaml", "[unclosed\n")),
        Case("templates text: existing output broken", ["templates", "text", *DB, "-o", "tt.yaml"], ("tt.yaml",),
             write("tt.yaml", "templates: {x: [unclosed\n")),
        Case("templates text: user style without llm", ["templates", "text", *DB, "-o", "tt.yaml", "--style",
                                                         "student"], ("student",),
             config("styles: {student: 'Write like a student.'}\n")),
    ]


GEN = ["gen", *DB, "--sql", "templates/sql.yaml", "--text", "templates/text.yaml", "-o", "ds2"]


def gen_cases() -> list[Case]:
    return [
        Case("gen: --null-answers bogus", [*GEN, "--null-answers", "bogus"], ("--null-answers",)),
        Case("gen: --multi-answer bogus", [*GEN, "--multi-answer", "bogus"], ("--multi-answer",)),
        Case("gen: --unanswerable bogus", [*GEN, "--unanswerable", "bogus"], ("--unanswerable",)),
        Case("gen: --method bogus", [*GEN, "--method", "bogus"], ("--method",)),
        Case("gen: --max-groups-per-template -1", [*GEN, "--max-groups-per-template", "-1"],
             ("--max-groups-per-template",)),
        Case("gen: --sql missing", ["gen", *DB, "--sql", "nope.yaml", "--text", "templates/text.yaml", "-o", "ds2"],
             ("nope.yaml",)),
        Case("gen: --text missing", ["gen", *DB, "--sql", "templates/sql.yaml", "--text", "nope.yaml", "-o", "ds2"],
             ("nope.yaml",)),
        Case("gen: --text bad YAML", ["gen", *DB, "--sql", "templates/sql.yaml", "--text", "t.yaml", "-o", "ds2"],
             ("t.yaml",), write("t.yaml", "{unclosed\n")),
        Case("gen: --style bogus", [*GEN, "--style", "bogus"], ("--style", "bogus")),
        Case("gen: --kb missing", [*GEN, "--kb", "nokb"], ("nokb",)),
        Case("gen: --corpus missing", [*GEN, "--corpus", "nope.jsonl"], ("nope.jsonl",)),
        Case("gen: --corpus bad JSON line", [*GEN, "--corpus", "c.jsonl"], ("c.jsonl", "2"),
             write("c.jsonl", '{"id": "a", "text": "x"}\n{"id": "b", "text": \n')),
        Case("gen: --corpus without id field", [*GEN, "--corpus", "c.jsonl"], ("c.jsonl", "id"),
             write("c.jsonl", '{"text": "x"}\n'),
             known="by design: a JSONL line without an id gets its line number as id (documented in load_corpus)"),
        Case("gen: --corpus empty", [*GEN, "--corpus", "c.jsonl"], ("c.jsonl",), write("c.jsonl", "")),
        Case("gen: --kb and --corpus", [*GEN, "--kb", "kb", "--corpus", "c.jsonl"], ("--corpus",),
             write("c.jsonl", '{"id": "a", "text": "x"}\n')),
        Case("gen: -o a user's folder", [*GEN[:-1], "mine"], ("mine",), user_dir("mine")),
        Case("gen: --per-group 0", [*GEN, "--per-group", "0"], ("--per-group",)),
        Case("gen: --n 0", [*GEN, "--n", "0"], ("--n",)),
        Case("gen: --sql no valid template", ["gen", *DB, "--sql", "s.yaml", "--text", "templates/text.yaml", "-o",
                                              "ds2"], ("s.yaml",), write("s.yaml", "version: 1\nschemas: {}\n")),
        Case("stats: missing", ["stats", "nope"], ("nope",)),
        Case("stats: broken record line", ["stats", "dataset/records.jsonl"], ("records.jsonl",),
             edit_line("dataset/records.jsonl", 1, '{"id": "x", "query": ')),
        Case("stats: not a dataset", ["stats", "templates"], ("templates",)),
    ]


def kb_db_cases() -> list[Case]:
    return [
        Case("kb render: --omit no such column", ["kb", "render", *DB, "-o", "kb2", "--omit", "Course.Nope"],
             ("Course.Nope",)),
        Case("kb render: --omit-table no such table", ["kb", "render", *DB, "-o", "kb2", "--omit-table", "Nope"],
             ("Nope",)),
        Case("kb render: --omit without a dot", ["kb", "render", *DB, "-o", "kb2", "--omit", "Course"], ("--omit",)),
        Case("kb render: -o a user's folder", ["kb", "render", *DB, "-o", "mine"], ("mine",), user_dir("mine")),
        Case("kb link: dataset missing", ["kb", "link", "nods", "--corpus", "kb/documents.jsonl", *DB, "-o", "l"],
             ("nods",)),
        Case("kb link: --corpus missing", ["kb", "link", "dataset", "--corpus", "nope.jsonl", *DB, "-o", "l"],
             ("nope.jsonl",)),
        Case("kb link: --corpus bad JSON", ["kb", "link", "dataset", "--corpus", "c.json", *DB, "-o", "l"],
             ("c.json",), write("c.json", "{not json")),
        Case("kb link: --corpus-id-field wrong", ["kb", "link", "dataset", "--corpus", "kb/documents.jsonl", *DB,
                                                   "-o", "l", "--corpus-id-field", "ident"], ("ident",)),
        Case("kb audit: --corpus missing", ["kb", "audit", "--corpus", "nope.jsonl", *DB, "-o", "a"], ("nope.jsonl",)),
        Case("kb audit: --max-rows 0", ["kb", "audit", "--corpus", "kb/documents.jsonl", *DB, "-o", "a",
                                         "--max-rows", "0"], ("--max-rows",)),
        Case("kb audit: --sql missing", ["kb", "audit", "--corpus", "kb/documents.jsonl", *DB, "-o", "a", "--sql",
                                          "nope.yaml"], ("nope.yaml",)),
        Case("kb audit: --dataset missing", ["kb", "audit", "--corpus", "kb/documents.jsonl", *DB, "-o", "a",
                                              "--dataset", "nods"], ("nods",)),
        Case("db load: file missing", ["db", "load", "nope.json", "sqlite:///new.sqlite"], ("nope.json",)),
        Case("db load: not JSON", ["db", "load", "t.json", "sqlite:///new.sqlite"], ("t.json",),
             write("t.json", "{nope")),
        Case("db load: no schema", ["db", "load", "t.json", "sqlite:///new.sqlite"], ("t.json", "schema"),
             write("t.json", json.dumps({"rows": {}}))),
        Case("db load: unknown URL scheme", ["db", "load", "t.json", "nosuchdb://x"], ("nosuchdb",),
             write("t.json", json.dumps(TABLES))),
        Case("db load: row with unknown column", ["db", "load", "t.json", "sqlite:///new.sqlite"], ("t.json", "c"),
             write("t.json", json.dumps({**TABLES, "rows": {"T": [{"a": 1, "c": 2}]}}))),
        Case("db load: duplicate primary key", ["db", "load", "t.json", "sqlite:///new.sqlite"], ("t.json", "rows"),
             write("t.json", json.dumps({**TABLES, "rows": {"T": [{"a": 1}, {"a": 1}]}}))),
        Case("db load: rows of unknown table", ["db", "load", "t.json", "sqlite:///new.sqlite"], ("t.json", "U"),
             write("t.json", json.dumps({**TABLES, "rows": {"U": [{"a": 1}]}}))),
    ]


def run_cases() -> list[Case]:
    inline = "kind: pipeline\nretriever: {type: keyword}\ngenerator: {type: extractive}\n"
    return [
        Case("run: --dataset missing", ["run", "-d", "nods", "-o", "out", "--http", "http://127.0.0.1:9/"], ("nods",)),
        Case("run: --http bracket not closed", [*RUN, "--http", "http://[::1"], ("--http",)),
        Case("run: --http ftp URL", [*RUN, "--http", "ftp://example.org/ask"], ("--http",)),
        Case("run: --http not a URL", [*RUN, "--http", "ask the model"], ("--http",)),
        Case("run: --http port out of range", [*RUN, "--http", "http://127.0.0.1:99999/ask"], ("--http",)),
        Case("run: --openai not a URL", [*RUN, "--openai", "localhost", "--model", "m"], ("--openai",)),
        Case("run: --openai without --model", [*RUN, "--openai", "http://127.0.0.1:9/v1"], ("--model",)),
        Case("run: --max-failed 1.5", [*RUN, "--http", "http://127.0.0.1:9/", "--max-failed", "1.5"],
             ("--max-failed",)),
        Case("run: --max-failed abc", [*RUN, "--http", "http://127.0.0.1:9/", "--max-failed", "abc"],
             ("--max-failed",)),
        Case("run: --contexts bogus", [*RUN, "--http", "http://127.0.0.1:9/", "--contexts", "some"], ("--contexts",)),
        Case("run: --executor bogus", [*RUN, "--http", "http://127.0.0.1:9/", "--executor", "spark"],
             ("--executor",)),
        Case("run: --concurrency 0", [*RUN, "--http", "http://127.0.0.1:9/", "-j", "0"], ("--concurrency",)),
        Case("run: --concurrency abc", [*RUN, "--http", "http://127.0.0.1:9/", "-j", "abc"], ("--concurrency",)),
        Case("run: no system", RUN, ("system",)),
        Case("run: two systems", [*RUN, "--http", "http://127.0.0.1:9/", "--results", "a.jsonl"], ("system",)),
        Case("run: --system missing", [*RUN, "--system", "nope.yaml"], ("nope.yaml",)),
        Case("run: --system bad YAML", [*RUN, "--system", "s.yaml"], ("s.yaml",), write("s.yaml", "kind: [x\n")),
        Case("run: --system unknown kind", [*RUN, "--system", "s.yaml"], ("s.yaml", "kind"),
             write("s.yaml", "kind: magic\n")),
        Case("run: --system http spec bad url", [*RUN, "--system", "s.yaml"], ("s.yaml", "url"),
             write("s.yaml", "kind: http\nurl: 'http://[::1'\n")),
        Case("run: --system pipeline unknown retriever", [*RUN, "--system", "s.yaml"], ("s.yaml", "retriever"),
             write("s.yaml", inline.replace("keyword", "magic"))),
        Case("run: --system pipeline unknown key", [*RUN, "--system", "s.yaml"], ("s.yaml", "retreiver"),
             write("s.yaml", inline + "retreiver: {type: bm25}\n")),
        Case("run: --callable no such module", [*RUN, "--callable", "no_such_module_x:f"], ("no_such_module_x",)),
        Case("run: --callable not callable", [*RUN, "--callable", "json:__name__"], ("json:__name__",)),
        Case("run: --results missing", [*RUN, "--results", "nope.jsonl"], ("nope.jsonl",)),
        Case("run: --results bad JSON line", [*RUN, "--results", "answers.jsonl"], ("answers.jsonl", "2"),
             results_file('{"id": "a", "answer": "x"}\n{"id": \n')),
        Case("run: --results duplicate id", [*RUN, "--results", "answers.jsonl"], ("answers.jsonl", "3"),
             duplicate_results),
        Case("run: --results record without id", [*RUN, "--results", "answers.jsonl"], ("answers.jsonl", "id"),
             results_without_id),
        Case("run: --grid missing", [*RUN, "--grid", "nope.yaml"], ("nope.yaml",)),
        Case("run: --grid bad YAML", [*RUN, "--grid", "g.yaml"], ("g.yaml",), write("g.yaml", "systems: [x\n")),
        Case("run: --grid with --http", [*RUN, "--grid", "g.yaml", "--http", "http://127.0.0.1:9/"], ("--grid",),
             write("g.yaml", "systems: {}\n")),
        Case("run: --grid bad system name", [*RUN, "--grid", "g.yaml"], ("g.yaml", "a b"),
             write("g.yaml", "systems:\n  a b: {kind: http, url: 'http://127.0.0.1:9/'}\n")),
        Case("run: -o a user's folder with --overwrite", [*RUN[:-2], "mine", "--no-progress", "--overwrite",
                                                          "--http", "http://127.0.0.1:9/"], ("mine",),
             user_dir("mine")),
        Case("run: broken dataset record", [*RUN, "--http", "http://127.0.0.1:9/"], ("records.jsonl",),
             both(lambda d: (d / "dataset" / "records.parquet").unlink(),
                  edit_line("dataset/records.jsonl", 2, '{"id": 5'))),
        Case("run: --traces not a trace file", [*RUN, "--traces", "t.json"], ("t.json",), write("t.json", "[1, 2]")),
        Case("run: --address without ray", [*RUN, "--http", "http://127.0.0.1:9/", "--address", "auto"],
             ("--executor",)),
    ]


def evaluate_cases() -> list[Case]:
    return [
        Case("evaluate: path missing", ["evaluate", "nope", "--boot", "100"], ("nope",)),
        Case("evaluate: --fail-under acuracy", [*EVAL, "--fail-under", "acuracy=0.2"], ("--fail-under", "accuracy")),
        Case("evaluate: --fail-under value abc", [*EVAL, "--fail-under", "accuracy=abc"], ("--fail-under",)),
        Case("evaluate: --fail-under no '='", [*EVAL, "--fail-under", "accuracy"], ("--fail-under",)),
        Case("evaluate: --judge bogus", [*EVAL, "--judge", "gpt"], ("judge", "gpt")),
        Case("evaluate: --judge llm without llm", [*EVAL, "--judge", "llm"], ("llm",)),
        Case("evaluate: --sets some", [*EVAL, "--sets", "some"], ("sets",)),
        Case("evaluate: --retrieval evidance", [*EVAL, "--retrieval", "evidance"], ("retrieval", "evidence")),
        Case("evaluate: --benchmark bogus", [*EVAL, "--benchmark", "squad"], ("--benchmark", "aurp")),
        Case("evaluate: --exclude-open-domain alone", [*EVAL, "--exclude-open-domain"], ("--exclude-open-domain",)),
        Case("evaluate: --closed-book missing", [*EVAL, "--closed-book", "nope"], ("nope",)),
        Case("evaluate: results JSONL bad line", ["evaluate", "r.jsonl", "-o", "ev", "--boot", "100"], ("r.jsonl",),
             write("r.jsonl", '{"query": "q", "answer": "a"}\n{"query": \n')),
        Case("evaluate: broken run manifest", [*EVAL], ("manifest.json",),
             write("runs/keyword/manifest.json", "{broken")),
        Case("evaluate: --k 0", [*EVAL, "--k", "0"], ("--k",)),
        Case("evaluate: --boot 10", [*EVAL[:-1], "10"], ("--boot",)),
        Case("evaluate: -o a user's folder", ["evaluate", "runs/keyword", "-o", "mine", "--boot", "100"], ("mine",),
             user_dir("mine")),
        Case("compare: second run missing", ["compare", "runs/keyword", "nope", "-o", "cmp"], ("nope",)),
        Case("compare: --judge bogus", [*CMP, "--judge", "gpt"], ("judge",)),
        Case("compare: --gap bogus", [*CMP, "--gap", "sometimes"], ("--gap",)),
        Case("compare: --metric acuracy", [*CMP, "--fail-on-regression", "--metric", "acuracy"],
             ("--metric", "accuracy")),
        Case("compare: --retrieval bogus", [*CMP, "--retrieval", "most"], ("retrieval",)),
        Case("compare: --sets bogus", [*CMP, "--sets", "most"], ("sets",)),
        Case("compare: --style shrot", [*CMP, "--style", "shrot"], ("--style", "short")),
        Case("judge-agreement: --a bogus", ["judge-agreement", "runs/keyword", "--a", "gpt"], ("gpt",)),
        Case("judge-agreement: --human missing", ["judge-agreement", "runs/keyword", "--human", "nope.csv"],
             ("nope.csv",)),
        Case("annotate: run missing", ["annotate", "nope", "-o", "sheet"], ("nope",)),
        Case("annotate: -n 0", ["annotate", "runs/keyword", "-o", "sheet", "-n", "0"], ("-n",)),
        Case("report: --format pdf", ["report", "runs/keyword", "-o", "r.pdf", "--format", "pdf"], ("--format",)),
        Case("report: --judge bogus", ["report", "runs/keyword", "-o", "r.html", "--judge", "gpt"], ("judge",)),
        Case("report: --relevance missing", ["report", "runs/keyword", "-o", "r.html", "--relevance", "nope.json"],
             ("nope.json",)),
        Case("report: run missing", ["report", "nope", "-o", "r.html"], ("nope",)),
        Case("export: --to bogus", ["export", "dataset", "--to", "csv", "-o", "e.jsonl"], ("--to",)),
        Case("export: dataset missing", ["export", "nods", "-o", "e.jsonl"], ("nods",)),
    ]


TESTER = "relevance/tester"


def relevance_cases() -> list[Case]:
    cal = ["relevance", "calibrate", "kb/documents.jsonl", "-o", "t2", "--dataset", "dataset", "--corpus-field",
           "text", "--no-progress"]
    return [
        Case("relevance calibrate: corpus missing", ["relevance", "calibrate", "nope.jsonl", "-o", "t2",
                                                     "--dataset", "dataset"],
             ("nope.jsonl",)),
        Case("relevance calibrate: --statistic bogus", [*cal, "--statistic", "magic"], ("statistic",)),
        Case("relevance calibrate: --retriever bogus", [*cal, "--retriever", "magic"], ("retriever",)),
        Case("relevance calibrate: --search bogus", [*cal, "--search", "magic"], ("search",)),
        Case("relevance calibrate: --alpha 2", [*cal, "--alpha", "2"], ("alpha",)),
        Case("relevance calibrate: --temperature 0", [*cal, "--temperature", "0"], ("temperature",)),
        Case("relevance calibrate: corpus bad JSON line", ["relevance", "calibrate", "c.jsonl", "-o", "t2",
                                                           "--queries", "q.jsonl"], ("c.jsonl", "2"),
             both(write("c.jsonl", '{"content": "a"}\n{"content": \n'), write("q.jsonl", '{"question": "q"}\n'))),
        Case("relevance calibrate: --corpus-field wrong", [*cal[:-3], "--corpus-field", "body"], ("body",)),
        Case("relevance calibrate: --queries missing", ["relevance", "calibrate", "kb/documents.jsonl", "-o", "t2",
                                                        "--corpus-field", "text", "--queries", "nope.jsonl"],
             ("nope.jsonl",)),
        Case("relevance calibrate: -o a user's folder", [*cal[:4], "mine", *cal[5:]], ("mine",), user_dir("mine")),
        Case("relevance test: tester missing", ["relevance", "test", "nope", "a question"], ("nope",)),
        Case("relevance test: --queries bad line", ["relevance", "test", TESTER, "--queries", "q.jsonl"],
             ("q.jsonl", "2"), write("q.jsonl", '{"question": "a"}\n{"question": \n')),
        Case("relevance test: --alpha 1.5", ["relevance", "test", TESTER, "a question", "--alpha", "1.5"],
             ("--alpha",)),
        Case("relevance test: --query-field wrong", ["relevance", "test", TESTER, "--queries", "q.jsonl",
                                                     "--query-field", "text"], ("q.jsonl", "text"),
             write("q.jsonl", '{"question": "a"}\n')),
        Case("relevance monitor: log missing", ["relevance", "monitor", TESTER, "nope.jsonl"], ("nope.jsonl",)),
        Case("relevance monitor: --correction bogus", ["relevance", "monitor", TESTER, "q.jsonl", "--window", "2",
                                                       "--correction", "bonferroni"], ("correction",),
             write("q.jsonl", '{"question": "a"}\n' * 5)),
        Case("relevance monitor: --statistic bogus", ["relevance", "monitor", TESTER, "q.jsonl", "--window", "2",
                                                      "--statistic", "magic"], ("statistic",),
             write("q.jsonl", '{"question": "a"}\n' * 5)),
        Case("relevance report: --out-of-knowledge file missing", ["relevance", "report", TESTER, "-o", "r.json",
                                                                   "--in-knowledge", "q.jsonl", "--out-of-knowledge",
                                                                   "off=nope.jsonl"], ("nope.jsonl",),
             write("q.jsonl", '{"question": "a"}\n{"question": "b"}\n{"question": "c"}\n')),
        Case("relevance report: --out-of-knowledge name twice", ["relevance", "report", TESTER, "-o", "r.json",
                                                                 "--in-knowledge", "q.jsonl", "--out-of-knowledge",
                                                                 "x=q.jsonl", "--out-of-knowledge", "x=q.jsonl"],
             ("--out-of-knowledge",),
             write("q.jsonl", '{"question": "a"}\n{"question": "b"}\n{"question": "c"}\n')),
        Case("relevance report: --in-knowledge missing", ["relevance", "report", TESTER, "-o", "r.json",
                                                          "--in-knowledge", "nope.jsonl", "--out-of-knowledge",
                                                          "x=q.jsonl"], ("nope.jsonl",),
             write("q.jsonl", '{"question": "a"}\n')),
        Case("serve: tester missing", ["serve", "nope"], ("nope",)),
        Case("serve: --port 99999", ["serve", TESTER, "--port", "99999"], ("--port",)),
        Case("serve: --max-batch 0", ["serve", TESTER, "--max-batch", "0"], ("--max-batch",)),
        Case("demo: --per-group 0", ["demo", "-o", "d2", "--per-group", "0"], ("--per-group",)),
        Case("demo: -o a user's folder", ["demo", "-o", "mine", "--no-progress"], ("mine",), user_dir("mine")),
        Case("annotate: --seed abc", ["annotate", "runs/keyword", "-o", "sheet", "--seed", "abc"], ("--seed",)),
    ]


def all_cases() -> list[Case]:
    return [*config_cases(), *schema_template_cases(), *gen_cases(), *kb_db_cases(), *run_cases(),
            *evaluate_cases(), *relevance_cases()]


# ----------------------------------------------------------------------------- running


def build_world(where: Path) -> Path:
    """The demo's outputs, once: every case copies the parts it may need from here."""
    world = where / "world"
    env = {**os.environ, "OMP_WAIT_POLICY": "passive", "HF_HUB_OFFLINE": "1"}
    proc = subprocess.run([RAGDX, "demo", "--out", str(world), "--no-progress", "--boot", "100"],
                          capture_output=True, text=True, env=env, timeout=600)
    if proc.returncode != 0:
        raise SystemExit(f"ragdx demo failed: {proc.stderr[-2000:]}")
    return world


def snapshot(d: Path) -> dict[str, tuple[int, int]]:
    out = {}
    for p in d.rglob("*"):
        st = p.lstat()
        out[str(p.relative_to(d))] = (st.st_size if p.is_file() else -1, st.st_mtime_ns if p.is_file() else 0)
    return out


def run_case(case: Case, world: Path, scratch: Path) -> Outcome:
    d = Path(tempfile.mkdtemp(prefix="case-", dir=scratch))
    for part in WORLD_PARTS:
        src = world / part
        (d / part).parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if src.is_dir() else shutil.copy2)(src, d / part)
    if case.setup is not None:
        case.setup(d)
    before = snapshot(d)
    cache = d.parent / f"{d.name}-cache"  # the user's cache is outside the tree compared
    env = {**os.environ, "OMP_WAIT_POLICY": "passive", "HF_HUB_OFFLINE": "1", "COLUMNS": "200",
           "RAGDX_CACHE_DIR": str(cache)}
    env.pop("GITHUB_STEP_SUMMARY", None)
    started = time.perf_counter()
    try:
        proc = subprocess.run([RAGDX, *case.args], cwd=d, capture_output=True, text=True, env=env,
                              timeout=TIMEOUT_S, stdin=subprocess.DEVNULL)
        code, out, err = proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired as exc:
        code, out, err = -9, str(exc.stdout or ""), f"timed out after {TIMEOUT_S} s\n{exc.stderr or ''}"
    seconds = time.perf_counter() - started
    after = snapshot(d)
    changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    lines = [line for line in err.splitlines() if line.strip()]
    text = err + out
    names_ok = bool(lines) and all(n.lower() in lines[0].lower() for n in case.names) if len(lines) == 1 else False
    shutil.rmtree(d, ignore_errors=True)
    shutil.rmtree(cache, ignore_errors=True)
    return Outcome(case=case, exit=code, lines=len(lines), names_ok=names_ok, wrote_nothing=not changed,
                   traceback="Traceback" in text, stderr=err.strip(), seconds=seconds, changed=changed)


def cpu_line() -> str:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"CPU: {model} ({os.cpu_count()} cores, shared with other work: load average {load:.1f}); "
            f"Python {platform.python_version()}.")


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(outcomes: list[Outcome], command: str, cpu: str, seconds: float) -> str:
    passed = sum(o.ok for o in outcomes)
    lines = ["# Bad input to every command: one line, exit 2, nothing written", "",
             f"Command: `{command}`", "", cpu, "",
             f"**{passed} of {len(outcomes)} cases pass ({100 * passed / len(outcomes):.1f} %)** in {seconds:.0f} s. "
             "A case passes when `ragdx` exits 2, stderr is exactly one line, that line names the file and/or "
             "field listed, there is no traceback and the case's directory is unchanged (names, sizes, "
             "modification times).", "",
             "| # | case | command | exit | lines | names file/field | wrote nothing | ok | error line (or why not) |",
             "|---:|---|---|---:|---:|:-:|:-:|:-:|---|"]
    for i, o in enumerate(outcomes, 1):
        first = o.stderr.splitlines()[0] if o.stderr else ""
        why = o.case.known or ""
        if o.changed:
            why += f" wrote: {', '.join(o.changed[:3])}"
        detail = cell((first[:180] + (f" — {why}" if why else "")).strip())
        cmd = " ".join(a for a in o.case.args[:2] if not a.startswith("-"))
        lines.append(f"| {i} | {cell(o.case.name)} | `{cmd}` | {o.exit} | {o.lines} | "
                     f"{'yes' if o.names_ok else 'no'} | {'yes' if o.wrote_nothing else 'no'} | "
                     f"{'yes' if o.ok else '**no**'} | {detail} |")
    failing = [o for o in outcomes if not o.ok]
    if failing:
        lines += ["", "## Cases that fall short", ""]
        for o in failing:
            lines.append(f"- **{cell(o.case.name)}**: exit {o.exit}, {o.lines} stderr line(s)"
                         + (f"; {o.case.known}" if o.case.known else "")
                         + (f"; wrote {', '.join(o.changed[:5])}" if o.changed else "")
                         + (f"; stderr starts: `{cell(o.stderr[:200])}`" if o.stderr else ""))
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="Write the Markdown table here.")
    parser.add_argument("--only", help="Only cases whose name contains this.")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    cases = [c for c in all_cases() if not args.only or args.only.lower() in c.name.lower()]
    cpu = cpu_line()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="ragdx-bad-inputs-") as tmp:
        world = build_world(Path(tmp))
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            outcomes = list(pool.map(lambda c: run_case(c, world, Path(tmp)), cases))
    seconds = time.perf_counter() - started
    for o in outcomes:
        mark = "ok " if o.ok else "BAD"
        print(f"{mark} exit={o.exit} lines={o.lines} names={o.names_ok} clean={o.wrote_nothing} "
              f"{o.seconds:4.1f}s {o.case.name}: {(o.stderr.splitlines() or [''])[0][:150]}"
              + (f" changed={o.changed[:3]}" if o.changed else ""))
    command = "OMP_WAIT_POLICY=passive HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/bad_inputs.py" + (
        f" --out {args.out}" if args.out else "")
    text = markdown(outcomes, command, cpu, seconds)
    passed = sum(o.ok for o in outcomes)
    print(f"{passed} of {len(outcomes)} pass ({100 * passed / len(outcomes):.1f} %); {cpu}")
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
