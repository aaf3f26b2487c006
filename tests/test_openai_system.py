"""A RAG server speaking the OpenAI chat API as a system under test (``ragdx run --openai URL
--model M``), against a real loopback server: the query is the user message, the answer the
first choice's content, tokens from ``usage``, retries on 429."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from ragdx.cli import app
from ragdx.errors import RagdxError
from ragdx.rag.resolve import as_system
from ragdx.rag.rundir import read_run
from tests.support.openai_server import Fault, OpenAIServer
from tests.test_runner import make_dataset


def test_openai_chat_endpoint_as_a_system(tmp_path):
    dataset = make_dataset(tmp_path / "ds", 8)
    with OpenAIServer() as server:
        server.script(Fault.http(429, retry_after=0.01))
        result = CliRunner().invoke(app, ["run", "-d", str(dataset), "-o", str(tmp_path / "run"), "--openai",
                                          server.base_url, "--model", "rag-v2", "--no-progress", "-j", "2"])
        assert result.exit_code == 0, result.output
        requests = server.chat_requests
    outputs = read_run(tmp_path / "run")
    assert len(outputs) == 8 and all(o.error is None for o in outputs)
    assert all(o.answer == f"echo: {o.query}" for o in outputs)  # quotes and braces in queries intact
    assert all(o.completion_tokens == len(o.answer.split()) for o in outputs)
    assert len(requests) == 9  # one 429 retried
    assert {r.body["model"] for r in requests} == {"rag-v2"}
    assert sorted(r.body["messages"][-1]["content"] for r in requests[1:]) == sorted(o.query for o in outputs)
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["system"]["name"] == "rag-v2"
    assert manifest["system"]["config"]["answer_path"] == "choices.0.message.content"


def test_openai_spec_and_bad_options(tmp_path):
    system = as_system({"kind": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "m",
                          "system_prompt": "Answer from the documents.", "contexts_path": "citations"})
    assert system.url == "http://127.0.0.1:9/v1/chat/completions"
    assert system.body["messages"][0] == {"role": "system", "content": "Answer from the documents."}
    assert system.contexts_path == "citations"
    dataset = make_dataset(tmp_path / "ds", 2)
    result = CliRunner().invoke(app, ["run", "-d", str(dataset), "-o", str(tmp_path / "x"), "--openai",
                                      "http://127.0.0.1:9/v1"])
    assert isinstance(result.exception, RagdxError) and "--model" in str(result.exception)


def test_http_answer_and_contexts_paths_from_the_command_line(tmp_path):
    from tests.support.rag_http_server import RAGServer

    def nested(query: str, record_id: str) -> dict:
        return {"data": {"text": f"A: {query}", "hits": [{"id": f"doc-{len(query)}", "text": "passage"}]}}

    dataset = make_dataset(tmp_path / "ds", 5)
    with RAGServer(query_path="query", id_path="query", answer=nested) as server:
        result = CliRunner().invoke(app, ["run", "-d", str(dataset), "-o", str(tmp_path / "run"), "--http", server.url,
                                          "--answer-path", "data.text", "--contexts-path", "data.hits",
                                          "--name", "vendor", "--no-progress"])
    assert result.exit_code == 0, result.output
    outputs = read_run(tmp_path / "run")
    assert [o.answer for o in outputs] == [f"A: {o.query}" for o in outputs]
    assert [o.retrieved_ids for o in outputs] == [[f"doc-{len(o.query)}"] for o in outputs]
    assert json.loads((tmp_path / "run" / "manifest.json").read_text())["system"]["name"] == "vendor"
