"""Every reader of a user's file, fed hostile bytes: it returns, or raises RagdxError in one line
naming the file; never another exception (issue 11: invalid UTF-8 reached eleven readers as a
traceback, a corrupt Parquet file, hand-edited run files, a YAML alias bomb)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragdx.errors import RagdxError
from tests.support.timing import scaled

EXAMPLES = int(os.environ.get("RAGDX_FUZZ_EXAMPLES", "40"))

_DATASET_ROW = {"id": "q1", "group_id": "g1", "sql_template_id": "t", "text_template_id": "x", "style": "short",
                "schema": "S", "table": "T", "params": {}, "sql": "", "query": "q?", "answer_columns": ["a"],
                "answer_rows": [["b"]], "answer_text": "b", "answer_kind": "single"}
# a valid file of each kind, which the strategies then corrupt
SEEDS: dict[str, bytes] = {
    "config": b"database: sqlite:///x.db\ngen:\n  seed: 3\n",
    "sql_yaml": b"version: 1\nschemas:\n  Client:\n"
                b"    - sql: SELECT Industry FROM Client WHERE Name = '[Client.Name]'\n",
    "sql_json": b'{"(\'client\',)": ["SELECT Industry FROM Client WHERE Name = \'[Client.Name]\'"]}',
    "text_yaml": b"version: 1\ntemplates:\n  s1:\n    short:\n      - What is the industry of [Client.Name]?\n",
    "records": (json.dumps(_DATASET_ROW) + "\n").encode(),
    "corpus": b'{"id": "d1", "text": "Paris is in France."}\n',
    "plain": b'{"id": "1", "query": "q", "answer": "a", "response": "a", "retrieved_ids": ["d1"]}\n',
    "results": b'{"id": "q1", "answer": "b", "contexts": [], "error": null, "latency_s": 0.1}\n',
    "inputs": b'{"id": "q1", "query": "q?"}\n',
    "system": b"kind: http\nurl: http://127.0.0.1:9/ask\n",
    "grid": b"systems:\n  a:\n    kind: http\n    url: http://127.0.0.1:9/ask\n",
    "tables": b'{"schema": {"T": {"columns": {"id": "integer"}, "primary_key": ["id"]}}, "rows": {"T": [{"id": 1}]}}',
    "questions": b'{"question": "What is it?"}\n',
    "facts": b'{"T.c@1": ["d1"]}',
    "documents": b'{"id": "d1", "title": "t", "text": "x"}\n',
}


def _parquet_seed() -> bytes:
    import tempfile

    from ragdx.gen.dataset import QARecord, write_dataset

    with tempfile.TemporaryDirectory() as tmp:
        write_dataset(Path(tmp) / "ds", [QARecord(**_DATASET_ROW)], {})
        return (Path(tmp) / "ds" / "records.parquet").read_bytes()


SEEDS["parquet"] = _parquet_seed()


def _read(kind: str, path: Path, tmp: Path):
    """Run the reader of ``kind`` on ``path`` (placing it where that reader looks)."""
    if kind == "config":
        from ragdx.config import load_config

        return load_config(path)
    if kind in ("sql_yaml", "sql_json"):
        from ragdx.gen.sql_templates import read_templates

        return read_templates(path)
    if kind == "text_yaml":
        from ragdx.gen.text_templates import read_text_templates

        return read_text_templates(path)
    if kind in ("records", "parquet"):
        from ragdx.gen.dataset import read_records

        return read_records(path)
    if kind == "corpus":
        from ragdx.rag.corpus import load_corpus

        return load_corpus(path)
    if kind == "plain":
        from ragdx.evaluate.reference import read_plain_jsonl

        return read_plain_jsonl(path)
    if kind in ("results", "inputs"):
        from ragdx.rag.rundir import read_inputs, read_run

        run = tmp / "run"
        run.mkdir(exist_ok=True)
        other = SEEDS["inputs" if kind == "results" else "results"]
        (run / ("inputs.jsonl" if kind == "results" else "results.jsonl")).write_bytes(other)
        (run / "manifest.json").write_text("{}")
        os.replace(path, run / f"{kind}.jsonl")
        path = run / f"{kind}.jsonl"
        return read_run(run) if kind == "results" else read_inputs(run)
    if kind == "system":
        from ragdx.rag.resolve import as_system

        return as_system(path)
    if kind == "grid":
        from ragdx.rag.runner import load_grid

        return load_grid(path)
    if kind == "tables":
        from ragdx.db.load import load_tables_json

        return load_tables_json(f"sqlite:///{tmp / 'tables.sqlite'}", path, replace=True)
    if kind == "questions":
        from ragdx.relevance.calibration import read_questions

        return read_questions(path)
    if kind in ("facts", "documents"):
        from ragdx.kb.render import read_documents, read_facts

        kb = tmp / "kb"
        kb.mkdir(exist_ok=True)
        os.replace(path, kb / ("facts.json" if kind == "facts" else "documents.jsonl"))
        return read_facts(kb) if kind == "facts" else read_documents(kb)
    raise AssertionError(kind)


_SUFFIX = {"parquet": ".parquet", "config": ".yaml", "sql_yaml": ".yaml", "sql_json": ".json", "text_yaml": ".yaml",
           "records": ".jsonl",
           "corpus": ".jsonl", "plain": ".jsonl", "results": ".jsonl", "inputs": ".jsonl", "system": ".yaml",
           "grid": ".yaml", "tables": ".json", "questions": ".jsonl", "facts": ".json", "documents": ".jsonl"}


def _mutations(seed: bytes):
    """Corruptions of a valid file: bytes inserted or replaced (invalid UTF-8 among them), the file cut."""
    hostile = st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"[", b"{", b"\"", b"\n", b"&a *a",
                               b"a: 1\na: 2\n", b"null", b"[]", b"-1e999", b"\\ud800", b"]]"])
    insert = st.tuples(st.integers(0, len(seed)), st.lists(hostile, min_size=1, max_size=3)).map(
        lambda t: seed[:t[0]] + b"".join(t[1]) + seed[t[0]:])
    cut = st.integers(0, len(seed)).map(lambda n: seed[:n])
    replace = st.tuples(st.integers(0, max(0, len(seed) - 1)), st.binary(min_size=1, max_size=4)).map(
        lambda t: seed[:t[0]] + t[1] + seed[t[0] + len(t[1]):])
    return st.one_of(insert, cut, replace, st.binary(max_size=64))


def _check(kind: str, data: bytes, tmp: Path) -> None:
    import shutil

    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    path = tmp / f"input{_SUFFIX[kind]}"
    path.write_bytes(data)
    try:
        _read(kind, path, tmp)
    except RagdxError as exc:
        text = str(exc)
        assert "\n" not in text, text
        assert "input" in text or "facts.json" in text or "documents.jsonl" in text or kind in text \
            or "results.jsonl" in text or "inputs.jsonl" in text, (kind, text)


@pytest.mark.parametrize("kind", sorted(SEEDS))
def test_every_reader_fails_in_one_line_naming_the_file(kind, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"fuzz-{kind}")
    _check(kind, SEEDS[kind], tmp / "seed")  # the seed itself is read without an error of ours

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(_mutations(SEEDS[kind]))
    def fuzz(data):
        _check(kind, data, tmp / "case")

    fuzz()


@pytest.mark.slow
def test_invalid_utf8_and_alias_bombs_through_the_command_line(tmp_path):
    bomb = "a: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(
        f"{n}: &{n} [{', '.join(['*' + p] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi", strict=True))
    cases = {
        "ragdx.yaml": ("gen --db sqlite:///none.db -c {}", b"database: caf\xe9\n"),
        "bomb.yaml": ("gen --db sqlite:///none.db -c {}", bomb.encode()),
        "dup.yaml": ("gen --db sqlite:///none.db -c {}", b"database: a\ndatabase: b\n"),
        "records.jsonl": ("stats {}", b'{"id": "caf\xe9"}\n'),
    }
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    for name, (args, content) in cases.items():
        path = tmp_path / name
        path.write_bytes(content)
        r = subprocess.run([sys.executable, "-m", "ragdx.cli", *args.format(path).split()], capture_output=True,
                           text=True, env=env, timeout=scaled(120))
        assert r.returncode == 2, (name, r.stderr)
        assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, (name, r.stderr)
        assert name in r.stderr, (name, r.stderr)
