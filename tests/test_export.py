"""``ragdx export``: the dataset and a run as ragas samples, DeepEval test cases, a Parquet file for
Hugging Face ``datasets`` and ragdx's plain QA JSONL, each loaded back by the real library (ragas
and DeepEval pin versions of openai and rich that ragdx cannot share a virtual environment with:
their tests run where they import, or in the interpreter named by ``RAGDX_EXPORT_PYTHON``, and
skip with that reason otherwise), and the plain JSONL read back by ``evaluate``."""

from __future__ import annotations

import json
import os
import subprocess
import textwrap

import pytest
from typer.testing import CliRunner

from ragdx.cli import app
from ragdx.errors import RagdxError
from ragdx.evaluate import evaluate, load_judgements
from ragdx.gen.dataset import read_records
from ragdx.rag.corpus import load_corpus
from ragdx.rag.rundir import read_run
from ragdx.rag.runner import run
from ragdx.rag.systems import CallableSystem
from tests.support.small_demo import build_small_demo
from tests.support.timing import scaled

pytestmark = pytest.mark.slow


def ragdx(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    if isinstance(result.exception, RagdxError):
        return result.exception.exit_code, str(result.exception)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    root = tmp_path_factory.mktemp("export")
    dataset = build_small_demo(root)
    records = read_records(dataset)
    corpus = load_corpus(root / "kb")
    by_query = {r.query: (i, r) for i, r in enumerate(records)}

    def answer(query: str) -> dict:
        # right on two of three queries; the third gets a wrong answer and an unrelated document
        i, r = by_query[query]
        if i % 3 == 2:
            return {"answer": "no idea", "contexts": [{"id": corpus.ids[0], "text": corpus.documents[0].text}]}
        if i == 7:
            raise RuntimeError("upstream timeout")  # a failed record is exported too, without a response
        return {"answer": r.answer_text,
                "contexts": [{"id": d, "text": corpus.get(d).text, "score": 1.0} for d in r.gold_document_ids]}

    run(CallableSystem(answer, name="partial"), dataset, root / "run", progress=False)
    return root, dataset, records


def _lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_plain_jsonl_round_trips_through_evaluate(demo, tmp_path):
    root, dataset, records = demo
    code, out = ragdx("export", str(dataset), str(root / "run"), "--to", "jsonl", "-o", str(tmp_path / "qa.jsonl"))
    assert code == 0, out
    rows = _lines(tmp_path / "qa.jsonl")
    assert [r["id"] for r in rows] == [r.id for r in records]
    assert rows[7]["response"] is None and "upstream timeout" in rows[7]["error"]
    from_file = {j.id: (j.correct, j.retrieval_correct) for j in
                 load_judgements(tmp_path / "qa.jsonl", judge="exact", retrieval="all")}
    from_run = {j.id: (j.correct, j.retrieval_correct) for j in
                load_judgements(root / "run", judge="exact", retrieval="all")}
    assert from_file == from_run
    assert sum(c for c, _ in from_file.values()) > len(records) // 2
    result = evaluate(tmp_path / "qa.jsonl", out=tmp_path / "ev", judge="exact", n_boot=100, retrieval="all")
    direct = evaluate(root / "run", out=tmp_path / "ev-run", judge="exact", n_boot=100, retrieval="all")
    assert result.overall.metrics["accuracy"].value == pytest.approx(direct.overall.metrics["accuracy"].value)


def test_hf_parquet_loads_with_datasets(demo, tmp_path):
    datasets = pytest.importorskip("datasets", reason="Hugging Face datasets not installed")
    root, dataset, records = demo
    code, out = ragdx("export", str(dataset), str(root / "run"), "--to", "hf", "-o", str(tmp_path / "qa.parquet"))
    assert code == 0, out
    ds = datasets.Dataset.from_parquet(str(tmp_path / "qa.parquet"))
    assert ds.num_rows == len(records)
    assert ds[0]["id"] == records[0].id and ds[0]["gold_ids"] == records[0].gold_document_ids
    assert ds[0]["retrieved_ids"] == [c.id for c in read_run(root / "run")[0].contexts]
    assert isinstance(ds[0]["gold_contexts"], list) and ds[0]["gold_contexts"][0].startswith(
        load_corpus(root / "kb").get(records[0].gold_document_ids[0]).text[:20])
    loaded = datasets.load_dataset("parquet", data_files=str(tmp_path / "qa.parquet"), split="train")
    assert loaded.column_names == ds.column_names


def _load_elsewhere(library: str, snippet: str) -> dict:
    """Run ``snippet`` where ``library`` imports: here, or in ``$RAGDX_EXPORT_PYTHON``; it prints JSON."""
    try:
        __import__(library)
        python = None
    except ImportError:
        python = os.environ.get("RAGDX_EXPORT_PYTHON")
        if not python:
            pytest.skip(f"{library} is not installed here (it pins openai/rich versions ragdx does not share); "
                        f"set RAGDX_EXPORT_PYTHON to an interpreter that has it")
    if python is None:
        namespace: dict = {}
        import contextlib
        import io

        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            exec(compile(snippet, "<snippet>", "exec"), namespace)  # noqa: S102 - our own test code
        return json.loads(buffer.getvalue().strip().splitlines()[-1])
    env = {**os.environ, "DEEPEVAL_TELEMETRY_OPT_OUT": "YES", "RAGAS_DO_NOT_TRACK": "true"}
    done = subprocess.run([python, "-c", snippet], capture_output=True, text=True, timeout=scaled(300), env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_ragas_loads_the_samples(demo, tmp_path):
    root, dataset, records = demo
    path = tmp_path / "ragas.jsonl"
    code, out = ragdx("export", str(dataset), str(root / "run"), "--to", "ragas", "-o", str(path))
    assert code == 0, out
    got = _load_elsewhere("ragas", textwrap.dedent(f"""
        import json
        from ragas import EvaluationDataset
        ds = EvaluationDataset.from_jsonl({str(path)!r})
        s = ds.samples[0]
        print(json.dumps({{"n": len(ds), "user_input": s.user_input, "reference": s.reference,
                          "retrieved_context_ids": s.retrieved_context_ids,
                          "reference_context_ids": s.reference_context_ids, "response": s.response,
                          "type": type(s).__name__}}))
    """))
    first = read_run(root / "run")[0]
    assert got == {"n": len(records), "user_input": records[0].query, "reference": records[0].answer_text,
                   "retrieved_context_ids": [c.id for c in first.contexts],
                   "reference_context_ids": records[0].gold_document_ids, "response": first.answer,
                   "type": "SingleTurnSample"}


def test_deepeval_loads_the_test_cases(demo, tmp_path):
    root, dataset, records = demo
    path = tmp_path / "deepeval.json"
    code, out = ragdx("export", str(dataset), str(root / "run"), "--to", "deepeval", "-o", str(path))
    assert code == 0, out
    got = _load_elsewhere("deepeval", textwrap.dedent(f"""
        import json
        from deepeval.test_case import LLMTestCase
        cases = [LLMTestCase(**{{k: v for k, v in c.items()}}) for c in json.load(open({str(path)!r}))]
        c = cases[0]
        print(json.dumps({{"n": len(cases), "input": c.input, "expected": c.expected_output,
                          "actual": c.actual_output, "retrieval_context": c.retrieval_context,
                          "name": c.name}}))
    """))
    first = read_run(root / "run")[0]
    assert got == {"n": len(records), "input": records[0].query, "expected": records[0].answer_text,
                   "actual": first.answer, "retrieval_context": [c.text for c in first.contexts],
                   "name": records[0].id}


def test_dataset_alone_and_bad_input(demo, tmp_path):
    root, dataset, records = demo
    code, out = ragdx("export", str(dataset), "--to", "ragas", "-o", str(tmp_path / "golden.jsonl"))
    assert code == 0, out
    rows = _lines(tmp_path / "golden.jsonl")
    assert len(rows) == len(records) and "response" not in rows[0]
    assert rows[0]["reference_context_ids"] == records[0].gold_document_ids
    assert len(rows[0]["reference_contexts"]) == len(records[0].gold_document_ids)
    code, message = ragdx("export", str(dataset), "--to", "csv", "-o", str(tmp_path / "x.csv"))
    assert code == 2 and "--to" in message and not (tmp_path / "x.csv").exists()
