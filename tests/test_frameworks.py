"""LangChain, LlamaIndex and Haystack systems plugged in with ``ragdx run --callable pkg:obj`` and
no glue: ids, contexts, answers and judgements equal those of a run mapped by hand; the setup
hook, ``--name``, ``--corpus`` and the failure summary of the runner; the knowledge base as each
framework's documents."""

from __future__ import annotations

import importlib
import json
import os
import re

import pytest
from typer.testing import CliRunner

from ragdx.cli import app
from ragdx.errors import RagdxError
from ragdx.evaluate import load_judgements
from ragdx.rag.rundir import read_run
from ragdx.rag.runner import failure_reasons
from tests.support.small_demo import build_small_demo

pytest.importorskip("langchain_core", reason="langchain-core not installed (pip install 'ragdx[langchain]')")
pytest.importorskip("llama_index.core", reason="llama-index-core not installed (pip install 'ragdx[llamaindex]')")
pytest.importorskip("haystack", reason="haystack-ai not installed (pip install 'ragdx[haystack]')")

pytestmark = pytest.mark.slow
MODULE = "tests.support.framework_systems"


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    root = tmp_path_factory.mktemp("frameworks")
    dataset = build_small_demo(root)
    old = os.environ.get("RAGDX_FW_KB")
    os.environ["RAGDX_FW_KB"] = str(root / "kb")
    import tests.support.framework_systems as systems

    systems = importlib.reload(systems)  # built over this knowledge base
    yield root, dataset, systems
    if old is None:
        os.environ.pop("RAGDX_FW_KB", None)
    else:
        os.environ["RAGDX_FW_KB"] = old


def ragdx(*args: str) -> tuple[int, str]:
    """The CLI in process; a RagdxError counts as main() would report it (exit 2, one line)."""
    result = CliRunner().invoke(app, list(args))
    if isinstance(result.exception, RagdxError):
        return result.exception.exit_code, str(result.exception)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def comparable(run_dir):
    return [(o.id, o.answer, [(c.id, c.text, c.score) for c in o.contexts], o.error) for o in read_run(run_dir)]


def judgements(run_dir):
    return [(j.id, j.correct, j.retrieval_correct, j.retrieved_ids) for j in load_judgements(run_dir, judge="exact")]


@pytest.mark.parametrize(("obj", "by_hand", "framework"), [
    ("lc_chain", "lc_by_hand", "langchain:RunnableSequence"),
    ("lc_pair", "lc_by_hand", "langchain:retriever+chain"),
    ("li_engine", "li_by_hand", "llamaindex:Engine"),
    ("hs_pipeline", "hs_by_hand", "haystack:Pipeline"),
])
def test_framework_object_equals_a_hand_mapped_run(demo, obj, by_hand, framework):
    root, dataset, systems = demo
    adapted, manual = root / "runs" / obj, root / "runs" / f"{obj}-by-hand"
    code, out = ragdx("run", "-d", str(dataset), "-o", str(adapted), "--callable", f"{MODULE}:{obj}",
                      "--no-progress", "-j", "4")
    assert code == 0, out
    code, out = ragdx("run", "-d", str(dataset), "-o", str(manual), "--callable", f"{MODULE}:{by_hand}",
                      "--no-progress")
    assert code == 0, out
    got, want = comparable(adapted), comparable(manual)
    assert len(got) == len(want) > 100
    assert got == want
    assert judgements(adapted) == judgements(manual)
    # ids are the knowledge base's document ids: never a chunk UUID or a content hash
    kb_ids = {json.loads(line)["id"] for line in (root / "kb" / "documents.jsonl").read_text().splitlines()}
    retrieved = {c[0] for row in got for c in row[2]}
    assert retrieved and retrieved <= kb_ids
    assert any(j[2] for j in judgements(adapted))  # some retrievals are right, so R is not 0.000
    config = json.loads((adapted / "manifest.json").read_text())["system"]["config"]
    assert config["framework"] == framework


def test_setup_hook_runs_once_before_concurrency_and_names_the_run(demo):
    root, dataset, systems = demo
    systems.SETUP_CALLS.clear()
    run_dir = root / "runs" / "setup"
    code, out = ragdx("run", "-d", str(dataset), "-o", str(run_dir), "--setup", f"{MODULE}:counting_factory",
                      "--name", "li-from-factory", "-j", "8", "--no-progress", "--limit", "20")
    assert code == 0, out
    assert len(systems.SETUP_CALLS) == 1
    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert manifest["system"]["name"] == "li-from-factory"
    assert manifest["system"]["config"]["setup"] == f"{MODULE}:counting_factory"
    assert manifest["counts"]["ok"] == 20
    # the factory's engine answers as the module-level one does
    by_hand = [systems.li_by_hand(o.query) for o in read_run(run_dir)]
    assert [o.answer for o in read_run(run_dir)] == [h["answer"] for h in by_hand]
    ids = [[c["id"] for c in h["contexts"]] for h in by_hand]
    assert [[c.id for c in o.contexts] for o in read_run(run_dir)] == ids


def test_pipeline_yaml_without_corpus_gets_the_datasets_knowledge_base(demo, tmp_path):
    root, dataset, _ = demo
    spec = tmp_path / "er.yaml"
    spec.write_text("name: er\nretriever: {type: keyword}\ngenerator: {type: extractive}\ntop_k: 2\n")
    code, out = ragdx("run", "-d", str(dataset), "-o", str(tmp_path / "er"), "--system", str(spec),
                      "--limit", "5", "--no-progress")
    assert code == 0, out
    manifest = json.loads((tmp_path / "er" / "manifest.json").read_text())
    assert manifest["counts"]["ok"] == 5
    assert manifest["system"]["config"]["corpus_documents"] == 62
    # --corpus names another one, and --name renames the run
    code, out = ragdx("run", "-d", str(dataset), "-o", str(tmp_path / "er2"), "--system", str(spec),
                      "--corpus", str(root / "kb" / "documents.jsonl"), "--name", "er-kb", "--limit", "2",
                      "--no-progress")
    assert code == 0, out
    assert json.loads((tmp_path / "er2" / "manifest.json").read_text())["system"]["name"] == "er-kb"


def test_failure_reasons_are_summarised_with_counts(demo, tmp_path):
    _, dataset, _ = demo
    code, out = ragdx("run", "-d", str(dataset), "-o", str(tmp_path / "bad"), "--callable",
                      "tests.test_frameworks:sometimes_broken", "--limit", "12", "--no-progress")
    assert code == 1, out  # every record failed: written, but not a measurement (issue 23)
    reasons = failure_reasons(tmp_path / "bad")
    # grouped with the digits folded, shown as one real message (never a placeholder "N")
    assert re.fullmatch(r"ValueError: index \d+ out of range \(and 7 more like it, numbers differing\)", reasons[0][0])
    assert reasons[0][1] == 8
    assert reasons[1] == ("KeyError: 'contexts'", 4)
    assert "top reasons" in out and "8 × ValueError: index " in out and "index N" not in out
    assert "every record sent failed (12 of 12)" in out


_CALLS = {"n": 0}


def sometimes_broken(query: str) -> str:
    _CALLS["n"] += 1
    if _CALLS["n"] % 3 == 0:
        raise KeyError("contexts")
    raise ValueError(f"index {_CALLS['n'] * 7} out of range")


def test_unusable_objects_and_options_fail_in_one_line(demo, tmp_path):
    _, dataset, _ = demo
    code, message = ragdx("run", "-d", str(dataset), "-o", str(tmp_path / "x"), "--callable", "json:__name__")
    assert code == 2 and "not callable" in message
    code, message = ragdx("run", "-d", str(dataset), "-o", str(tmp_path / "x"), "--callable", f"{MODULE}:lc_chain",
                          "--answer-path", "data.answer")
    assert code == 2 and "--http" in message
    assert not (tmp_path / "x").exists()


def test_knowledge_base_as_framework_documents(demo):
    from ragdx.rag.adapters.documents import haystack_documents, langchain_documents, llamaindex_documents

    root, dataset, _ = demo
    kb_ids = [json.loads(line)["id"] for line in (root / "kb" / "documents.jsonl").read_text().splitlines()]
    lc = langchain_documents(dataset)  # a dataset directory: its knowledge base
    li = llamaindex_documents(root / "kb")
    hs = haystack_documents(root / "kb")
    assert [d.metadata["ragdx_id"] for d in lc] == [d.id for d in lc] == kb_ids
    assert [d.doc_id for d in li] == [d.metadata["ragdx_id"] for d in li] == kb_ids
    assert [d.id for d in hs] == [d.meta["ragdx_id"] for d in hs] == kb_ids
    assert lc[0].metadata["table"] and lc[0].page_content == li[0].text == hs[0].content
    from llama_index.core.node_parser import SentenceSplitter

    nodes = SentenceSplitter(chunk_size=40, chunk_overlap=0, tokenizer=str.split).get_nodes_from_documents(li[:3])
    assert len(nodes) > 3 and {n.ref_doc_id for n in nodes} == set(kb_ids[:3])


def test_openinference_spans_give_the_contexts_of_an_app_that_returns_only_text(demo):
    pytest.importorskip("openinference.instrumentation.langchain",
                        reason="openinference-instrumentation-langchain not installed")
    pytest.importorskip("opentelemetry.sdk", reason="opentelemetry-sdk not installed")
    root, dataset, systems = demo
    traced, manual = root / "runs" / "otel", root / "runs" / "lc-by-hand-otel"
    code, out = ragdx("run", "-d", str(dataset), "-o", str(traced), "--callable",
                      "tests.support.otel_system:answer", "--otel", "-j", "4", "--no-progress")
    assert code == 0, out
    code, out = ragdx("run", "-d", str(dataset), "-o", str(manual), "--callable", f"{MODULE}:lc_by_hand",
                      "--no-progress")
    assert code == 0, out
    got, want = comparable(traced), comparable(manual)
    assert len(got) == len(want) > 100 and all(row[2] for row in got)  # every query has its contexts
    assert got == want
    assert judgements(traced) == judgements(manual)
    assert json.loads((traced / "manifest.json").read_text())["system"]["config"]["otel"] is True
    # without --otel the same app gives answers and no contexts: the spans are what supplied them
    code, out = ragdx("run", "-d", str(dataset), "-o", str(root / "runs" / "no-otel"), "--callable",
                      "tests.support.otel_system:answer", "--limit", "3", "--no-progress")
    assert code == 0 and all(not o.contexts for o in read_run(root / "runs" / "no-otel"))


def test_an_exported_trace_file_is_a_results_source(demo, tmp_path):
    pytest.importorskip("openinference.instrumentation.langchain",
                        reason="openinference-instrumentation-langchain not installed")
    pytest.importorskip("opentelemetry.sdk", reason="opentelemetry-sdk not installed")
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter, SpanExportResult

    from ragdx.gen.dataset import read_records
    from ragdx.rag.adapters.otel import collector
    from tests.support import otel_system

    _, dataset, systems = demo
    path = tmp_path / "traces.jsonl"

    class FileExporter(SpanExporter):  # what an app's exporter writes: one span as JSON a line
        def export(self, spans):
            with path.open("a", encoding="utf-8") as fh:
                for span in spans:
                    fh.write(span.to_json(indent=None) + "\n")
            return SpanExportResult.SUCCESS

    from opentelemetry import trace

    collector()  # the SDK provider (ragdx's, or the app's)
    processor = SimpleSpanProcessor(FileExporter())
    trace.get_tracer_provider().add_span_processor(processor)
    records = read_records(dataset)[:25]
    try:
        for r in records:  # the app serving traffic, traced, with ragdx nowhere
            otel_system.answer(r.query)
    finally:
        processor.shutdown()
    code, out = ragdx("run", "-d", str(dataset), "-o", str(tmp_path / "from-traces"), "--traces", str(path),
                      "--no-progress")
    assert code == 0, out
    outputs = {o.id: o for o in read_run(tmp_path / "from-traces")}
    traced = {r.query for r in records}
    assert {i for i, o in outputs.items() if o.error is None} == {i for i, o in outputs.items() if o.query in traced}
    assert all(o.error == "not in the trace file" for o in outputs.values() if o.query not in traced)
    for r in records:  # every traced query, found by its text, as the app answered it by hand
        o, want = outputs[r.id], systems.lc_by_hand(r.query)
        assert o.answer == want["answer"]
        assert [(c.id, c.text, c.score) for c in o.contexts] == [(c["id"], c["text"], c["score"])
                                                                 for c in want["contexts"]]


def test_otlp_json_trace_file(tmp_path):
    from ragdx.rag.adapters.otel import TraceFileSystem
    from ragdx.rag.types import SystemInput

    def attr(key, value):
        return {"key": key, "value": {"doubleValue": value} if isinstance(value, float) else {"stringValue": value}}

    spans = [
        {"traceId": "t1", "spanId": "a", "name": "chain", "startTimeUnixNano": "1",
         "attributes": [attr("input.value", '{"input": "capital of France?"}'), attr("output.value", "Paris")]},
        {"traceId": "t1", "spanId": "b", "parentSpanId": "a", "name": "retriever", "startTimeUnixNano": "2",
         "attributes": [attr("openinference.span.kind", "RETRIEVER"),
                        attr("retrieval.documents.0.document.id", "d-fr"),
                        attr("retrieval.documents.0.document.content", "Paris is the capital of France."),
                        attr("retrieval.documents.0.document.score", 0.9),
                        attr("retrieval.documents.1.document.content", "France is in Europe."),
                        attr("retrieval.documents.1.document.metadata", '{"ragdx_id": "d-eu"}')]},
    ]
    path = tmp_path / "otlp.json"
    path.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}))
    system = TraceFileSystem(path)
    import asyncio

    out = asyncio.run(system.answer(SystemInput(id="q1", query="capital of France?")))
    assert out.answer == "Paris" and [(c.id, c.score) for c in out.contexts] == [("d-fr", 0.9), ("d-eu", None)]
    missing = asyncio.run(system.answer(SystemInput(id="q2", query="capital of Spain?")))
    assert missing.error == "not in the trace file"
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(RagdxError, match="not JSON"):
        TraceFileSystem(tmp_path / "bad.json")


def test_a_callable_returning_framework_documents_as_its_contexts():
    """A plain callable may return LangChain / LlamaIndex / Haystack documents as they come; their
    ids are read from the fields loaders set (LangChain's metadata["source"] with the file's path)."""
    from haystack import Document as HsDocument
    from langchain_core.documents import Document as LcDocument
    from llama_index.core.schema import NodeWithScore, TextNode

    from ragdx.rag.systems import _ContextFields, _contexts

    fields = _ContextFields()
    lc = _contexts([LcDocument(page_content="Chai costs 18.", metadata={"source": "catalogue/beverages.md"})], fields)
    assert [(c.id, c.text) for c in lc] == [("catalogue/beverages.md", "Chai costs 18.")]
    li = _contexts([NodeWithScore(node=TextNode(text="x", metadata={"doc_id": "crm/alfki"}), score=0.5)], fields)
    assert li[0].id == "crm/alfki" and li[0].score == 0.5
    hs = _contexts([HsDocument(content="y", meta={"source": "hr/roster.html"})], fields)
    assert hs[0].id == "hr/roster.html" and hs[0].text == "y"
    with pytest.raises(Exception, match="context 0 is int"):
        _contexts([3], fields)
