"""The adapters: HTTP against a real server on 127.0.0.1 (one that fails part of the time),
Python callables, results files, and specs."""

from __future__ import annotations

import asyncio
import json
import sys
from collections import Counter

import pytest

from ragdx.errors import RagdxError
from ragdx.rag.resolve import as_system
from ragdx.rag.rundir import read_run
from ragdx.rag.runner import run
from ragdx.rag.systems import (
    CallableSystem,
    HTTPSystem,
    ResultsFileSystem,
    fill_template,
    get_path,
)
from ragdx.rag.types import RetrievedContext, System, SystemInput, SystemOutput
from tests.support.rag_http_server import Fault, RAGServer, flaky
from tests.test_runner import AWKWARD, make_dataset

NESTED = {"answer_path": "data.result.text", "contexts_path": "data.hits", "context_id": "doc.key",
          "context_text": "doc.body", "context_score": "relevance", "prompt_tokens_path": "usage.input",
          "completion_tokens_path": "usage.output"}
# The server runs in the test's own process and shares its GIL, so on a busy machine an answer
# can be late; the timeout leaves room for that and the scripted hangs are well past it.
FAST = {"timeout": 0.5, "backoff": 0.01, "max_backoff": 0.05}


def ask(system: System, query: str = "q", id: str = "r1") -> SystemOutput:
    return asyncio.run(system.answer(SystemInput(id=id, query=query)))


# ----------------------------------------------------------------------------- HTTP


def test_http_against_a_server_failing_30_percent(tmp_path):
    n = 40
    policy = flaky(rate=30, fail_attempts=2, always_fail=5, slow=1.5)
    dataset = make_dataset(tmp_path / "ds", n)
    with RAGServer(faults=policy) as server:
        system = HTTPSystem(server.url, body={"q": "{query}", "rid": "{id}"}, retries=4, **NESTED, **FAST)
        summary = run(system, dataset, tmp_path / "run", concurrency=8, progress=False)
        served = server.faults_served
        attempts = server.attempts

    ids = [f"r{k:04d}" for k in range(n)]
    # What the deterministic policy says each record must go through.
    first_ok = {}
    for rid in ids:
        k = 1
        while k <= 5 and policy(rid, k) is not None:
            k += 1
        first_ok[rid] = k  # 6 = never within the 5 attempts allowed
    doomed = {rid for rid, k in first_ok.items() if k > 5}
    flaky_ids = {rid for rid, k in first_ok.items() if 1 < k <= 5}
    assert doomed and 0.2 * n <= len(flaky_ids | doomed) <= 0.45 * n  # really ~30 % failing
    # every kind of failure was met: 500, 503, 429, a timeout (0), and bad 200 bodies
    assert {status for _, _, status in served} >= {500, 503, 429, 0, 200}

    outputs = {o.id: o for o in read_run(tmp_path / "run")}
    assert set(outputs) == set(ids)  # none dropped
    assert (summary.ok, summary.failed) == (n - len(doomed), len(doomed))
    for rid in ids:
        o = outputs[rid]
        if rid in doomed:
            assert o.answer is None and o.attempts == 5 and attempts[rid] == 5
            assert o.error.startswith("gave up after 5 attempts: HTTP 500: ")
        else:
            # A late answer on a loaded machine can cost one more attempt than scripted;
            # what the record says must still be what the server saw.
            assert o.error is None and o.attempts == attempts[rid] >= first_ok[rid]
            assert o.answer == f"answer: {o.query}"
            assert o.contexts[0] == RetrievedContext(id=f"d-{rid}-0", text=f"passage 0 for {o.query}", score=1.0)
            assert o.prompt_tokens == len(o.query.split()) and o.completion_tokens == len(o.answer.split())
            assert o.latency_s > 0
    assert sum(o.attempts == first_ok[o.id] for o in outputs.values()) >= 0.9 * n
    # a retried query's latency covers its retries (a 0.5 s timeout for some)
    assert max(o.latency_s for o in outputs.values() if o.error is None) >= 0.5


def test_body_template_is_filled_structurally_and_the_response_mapped_by_path(tmp_path):
    body = {"input": {"text": "{query}", "tags": ["q={query}", 3, None, True]},
            "meta": {"rid": "{id}", "note": "id {id}; {not_a_placeholder} {}", "{query}": "keys stay"}}
    with RAGServer(query_path="input.text", id_path="meta.rid") as server:
        system = HTTPSystem(server.url, body=body, **NESTED)
        outs = [ask(system, q, f"r{k}") for k, q in enumerate(AWKWARD)]
        bodies = server.bodies
    assert len(bodies) == len(AWKWARD)
    for k, (q, sent, out) in enumerate(zip(AWKWARD, bodies, outs, strict=True)):
        assert sent == {"input": {"text": q, "tags": [f"q={q}", 3, None, True]},
                        "meta": {"rid": f"r{k}", "note": f"id r{k}; {{not_a_placeholder}} {{}}",
                                 "{query}": "keys stay"}}
        assert out.error is None and out.answer == f"answer: {q}"
        assert [(c.id, c.score) for c in out.contexts] == [(f"d-r{k}-0", 1.0), (f"d-r{k}-1", 0.9)]
    # "{id}" typed inside a query is the user's text, not a second placeholder
    assert bodies[1]["input"]["text"] == "Is {id} a placeholder? {query}"


def test_http_bearer_from_env_and_headers_never_leak_into_describe(monkeypatch):
    monkeypatch.setenv("RAGDX_TEST_TOKEN", "s3cret-token")
    with RAGServer() as server:
        system = HTTPSystem(server.url, body={"q": "{query}", "rid": "{id}"}, bearer_env="RAGDX_TEST_TOKEN",
                            headers={"X-Api-Key": "other-secret"}, **NESTED)
        assert ask(system).error is None
        sent = server.headers[0]
    assert sent["authorization"] == "Bearer s3cret-token" and sent["x-api-key"] == "other-secret"
    described = json.dumps(system.describe())
    assert "s3cret" not in described and "other-secret" not in described and "RAGDX_TEST_TOKEN" in described
    monkeypatch.delenv("RAGDX_TEST_TOKEN")
    with pytest.raises(RagdxError, match="bearer_env: environment variable RAGDX_TEST_TOKEN is not set"):
        HTTPSystem("http://127.0.0.1:1/ask", bearer_env="RAGDX_TEST_TOKEN")


def test_http_errors_that_cannot_improve_are_not_retried():
    with RAGServer(faults=lambda rid, attempt: Fault.http(404) if rid == "gone" else None,
                   answer=lambda q, rid: {"something": "else"}) as server:
        system = HTTPSystem(server.url, body={"q": "{query}", "rid": "{id}"}, retries=5, **NESTED, **FAST)
        gone = ask(system, id="gone")
        unmapped = ask(system, id="x")
        assert server.attempts == {"gone": 1, "x": 1}
    assert gone.attempts == 1 and gone.error.startswith("HTTP 404: ") and gone.answer is None
    assert unmapped.attempts == 1 and unmapped.error == "unusable response: no 'data.result.text' in the result"


def test_http_timeouts_and_bad_bodies_exhaust_retries_with_the_last_error():
    with RAGServer(faults=lambda rid, attempt: Fault.timeout(1.5) if rid == "slow" else Fault.malformed()) as server:
        system = HTTPSystem(server.url, body={"q": "{query}", "rid": "{id}"}, retries=1, **NESTED, **FAST)
        slow = ask(system, id="slow")
        broken = ask(system, id="broken")
    assert slow.error == "gave up after 2 attempts: timed out after 0.5s" and slow.attempts == 2
    assert 1.0 <= slow.latency_s < 2.5
    assert broken.error.startswith("gave up after 2 attempts: response is not JSON: ")


def test_http_unreachable_is_an_error_record_not_an_exception():
    with RAGServer() as server:
        url = server.url
    out = ask(HTTPSystem(url, retries=1, **FAST))  # the server is gone: connection refused
    assert out.answer is None and out.attempts == 2 and out.error.startswith("gave up after 2 attempts: ")


# ----------------------------------------------------------------------------- callables


def test_callables_sync_async_and_their_result_shapes():
    def plain(query):
        return query.upper()

    async def rich(item: SystemInput):
        return {"answer": item.id, "contexts": ["first", {"id": 7, "text": "t", "score": "0.25"}],
                "usage": {"prompt_tokens": 4, "completion_tokens": 2}}

    def typed(query):
        return SystemOutput(id="r1", query=query, answer="own", prompt_tokens=1)

    assert ask(CallableSystem(plain), "abc").answer == "ABC"
    out = ask(CallableSystem(rich, arg="input"), id="r9")
    assert out.answer == "r9" and (out.prompt_tokens, out.completion_tokens) == (4, 2)
    assert out.contexts == [RetrievedContext("0", "first"), RetrievedContext("7", "t", 0.25)]
    assert ask(CallableSystem(typed)).answer == "own"
    from_string = CallableSystem("tests.test_runner:async_answer")
    assert from_string.name == "async_answer" and ask(from_string, "x y").prompt_tokens == 2
    assert from_string.describe()["target"] == "tests.test_runner:async_answer"


def test_callable_failures_are_records_with_attempts():
    calls = Counter()

    def twice_down(query):
        calls[query] += 1
        if calls[query] <= 2:
            raise TimeoutError("upstream slow")
        return "up"

    assert ask(CallableSystem(twice_down, retries=2, backoff=0.001), "a").attempts == 3
    out = ask(CallableSystem(twice_down, retries=1, backoff=0.001), "b")
    assert (out.answer, out.attempts) == (None, 2)
    assert out.error == "gave up after 2 attempts: TimeoutError: upstream slow"
    out = ask(CallableSystem(lambda q: 42, retries=3))
    assert (out.error, out.attempts) == ("unusable result: expected a string or an object, got int", 1)
    out = ask(CallableSystem(lambda q: {"contexts": []}))
    assert out.error == "unusable result: no 'answer' in the result"

    async def hangs(query):
        await asyncio.sleep(5)

    out = ask(CallableSystem(hangs, timeout=0.05))
    assert out.error == "timed out after 0.05s" and out.latency_s < 1


def test_callable_targets_that_cannot_be_used():
    for target, message in (("no_colon", "expected 'package.module:function'"),
                            ("no_such_module_xyz:f", "cannot import no_such_module_xyz"),
                            ("tests.test_runner:missing", "has no 'missing'"),
                            ("tests.test_runner:AWKWARD", "is not callable")):
        with pytest.raises(RagdxError, match=message) as exc:
            CallableSystem(target)
        assert "\n" not in str(exc.value) and target in str(exc.value)


# ----------------------------------------------------------------------------- results files


def test_results_file_with_its_own_field_names_and_missing_queries(tmp_path):
    rows = [
        {"question": "q one", "resp": {"final": "A1"}, "docs": [{"doc_id": "d1", "chunk": "c", "sim": 0.7}],
         "ms": 0.12},
        {"question": "q two", "resp": {"final": None}, "failure": "model crashed"},
        {"question": "q three", "resp": {"final": "A3"}},
    ]
    path = tmp_path / "theirs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    system = ResultsFileSystem(path, match="query", query_field="question", answer_field="resp.final",
                               contexts_field="docs", context_id="doc_id", context_text="chunk",
                               context_score="sim", latency_field="ms", error_field="failure")
    items = [SystemInput("a", "q one"), SystemInput("b", "q two"), SystemInput("c", "q three"),
             SystemInput("d", "q four")]
    summary = run(system, items, tmp_path / "run", progress=False)
    assert (summary.total, summary.ok, summary.failed, summary.pending) == (4, 2, 2, 0)
    out = {o.id: o for o in read_run(tmp_path / "run")}
    assert out["a"].answer == "A1" and out["a"].contexts == [RetrievedContext("d1", "c", 0.7)]
    assert out["a"].latency_s == 0.12 and out["c"].latency_s is None
    assert out["b"].error == "model crashed"
    assert out["d"].error == "not in results file" and out["d"].answer is None
    assert system.describe()["sha256"] and len(system) == 3


def test_results_file_problems_name_the_file_and_line(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"id": "1", "answer": "x"}\n{"answer": "no id"}\n', encoding="utf-8")
    with pytest.raises(RagdxError, match=r"r.jsonl: line 2: no 'id'"):
        ResultsFileSystem(path)
    path.write_text('{"id": "1"\n', encoding="utf-8")
    with pytest.raises(RagdxError, match=r"r.jsonl: line 1: not valid JSON"):
        ResultsFileSystem(path)
    with pytest.raises(RagdxError, match="no such results file"):
        ResultsFileSystem(tmp_path / "absent.jsonl")


# ----------------------------------------------------------------------------- specs


def test_as_system_builds_every_kind_from_a_spec(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "given.jsonl").write_text('{"id": "r1", "answer": "stored"}\n', encoding="utf-8")
    spec_file = tmp_path / "sub" / "system.yaml"
    spec_file.write_text("kind: results\npath: given.jsonl\nname: vendor\n", encoding="utf-8")
    from_file = as_system(spec_file)
    assert isinstance(from_file, ResultsFileSystem) and from_file.name == "vendor"
    assert ask(from_file).answer == "stored"

    with RAGServer() as server:
        http = as_system({"kind": "http", "url": server.url, "body": {"q": "{query}", "rid": "{id}"},
                            "method": "post", **NESTED})
        assert isinstance(http, HTTPSystem) and ask(http, "hi").answer == "answer: hi"

    fn = as_system({"kind": "callable", "target": "tests.test_runner:suffix_answer", "options": {"suffix": "?"}})
    assert isinstance(fn, System) and ask(fn, "why").answer == "why?"


def test_bad_specs_are_one_line_errors(tmp_path, monkeypatch):
    with pytest.raises(RagdxError,
                       match="kind must be one of pipeline, callable, http, results, openai, traces, not 'sql'"):
        as_system({"kind": "sql"})
    with pytest.raises(RagdxError, match=r"system: retires: Extra inputs are not permitted"):
        as_system({"kind": "http", "url": "http://127.0.0.1:1/", "retires": 3})
    with pytest.raises(RagdxError, match=r"url: not an http\(s\) URL"):
        as_system({"kind": "http", "url": "ftp://x"})
    with pytest.raises(RagdxError, match="retries: Input should be greater than or equal to 0"):
        as_system({"kind": "callable", "target": "a:b", "retries": -1})
    bad_yaml = tmp_path / "s.yaml"
    bad_yaml.write_text("kind: [http\n", encoding="utf-8")
    with pytest.raises(RagdxError, match=r"s.yaml: line \d+:"):
        as_system(bad_yaml)

    # Built-in pipelines are imported only when asked for; without them the error says so.
    import ragdx.rag

    monkeypatch.setitem(sys.modules, "ragdx.rag.pipeline", None)
    # once imported, the submodule is also an attribute of its package; hide that too
    monkeypatch.delattr(ragdx.rag, "pipeline", raising=False)
    with pytest.raises(RagdxError, match="built-in pipelines are not available"):
        as_system({"kind": "pipeline", "path": "er.yaml"})
    plain_pipeline = tmp_path / "er.yaml"
    plain_pipeline.write_text("retriever: {k: 5}\n", encoding="utf-8")
    with pytest.raises(RagdxError, match="built-in pipelines are not available"):
        as_system(plain_pipeline)


def test_paths_and_templates():
    data = {"a": {"b": [{"c": 1}, {"c": 2}]}, "1": "key one"}
    assert get_path(data, "a.b.1.c") == get_path(data, "a.b[1].c") == 2
    assert get_path(data, "a.b[-1].c") == 2 and get_path(data, "1") == "key one"
    assert get_path(data, "a.x", None) is None and get_path(data, "a.b.5.c", "d") == "d"
    with pytest.raises(KeyError):
        get_path(data, "a.b.c")
    item = SystemInput(id="7", query='say "{id}" \\ {query}')
    assert fill_template({"x": ["{query}", "<{id}>", 1.5]}, item) == {"x": ['say "{id}" \\ {query}', "<7>", 1.5]}


# ----------------------------------------------------------------------------- built-in pipelines


def test_grid_of_built_in_pipelines_through_the_runner(tmp_path):
    """The pipeline kind end to end: BM25 over a three-document corpus, answers from a real
    OpenAI-compatible server (no model download), two variants over one base."""
    pytest.importorskip("ragdx.rag.pipeline")
    from ragdx.rag.runner import run_grid
    from tests.support.openai_server import OpenAIServer

    (tmp_path / "corpus.json").write_text(json.dumps({
        "d1": "Zoë works in office B12.", "d2": "O'Connell works in office A3.", "d3": "The library opens at nine."}),
        encoding="utf-8")
    items = [SystemInput("a", "Which office is Zoë in?"), SystemInput("b", "When does the library open?")]
    with OpenAIServer() as server:
        (tmp_path / "lab.yaml").write_text(
            "base:\n  kind: pipeline\n  corpus: corpus.json\n  retriever: {type: bm25}\n  top_k: 2\n"
            "  generator:\n    type: llm\n    params:\n"
            f"      llm: {{model: test-model, base_url: '{server.base_url}', api_key_env: NO_SUCH_KEY}}\n"
            "variants:\n  top1: {top_k: 1}\n  top2: {}\n", encoding="utf-8")
        summaries = run_grid(tmp_path / "lab.yaml", items, tmp_path / "out", progress=False)
        assert len(server.chat_requests) == 4
    assert [(s.system, s.ok, s.failed) for s in summaries] == [("top1", 2, 0), ("top2", 2, 0)]
    top1 = read_run(tmp_path / "out" / "top1")
    assert [o.retrieved_ids for o in top1] == [["d1"], ["d3"]]
    assert top1[0].answer.startswith("echo: Context:\n[1] Zoë works in office B12.")
    assert top1[0].prompt_tokens > 0 and top1[0].completion_tokens > 0
    assert [len(o.contexts) for o in read_run(tmp_path / "out" / "top2")] == [2, 2]
    config = json.loads((tmp_path / "out" / "top1" / "manifest.json").read_text())["system"]["config"]
    assert config["name"] == "top1" and config["top_k"] == 1


def test_pipeline_specs_from_a_file_with_overrides(tmp_path):
    pytest.importorskip("ragdx.rag.pipeline")
    (tmp_path / "corpus.json").write_text('{"d1": "text"}', encoding="utf-8")
    (tmp_path / "pipe.yaml").write_text("name: pipe\ncorpus: corpus.json\ntop_k: 3\nretriever: {type: bm25}\n",
                                        encoding="utf-8")
    as_file = as_system(tmp_path / "pipe.yaml")  # no 'kind': a pipeline file
    assert as_file.name == "pipe" and as_file.describe()["top_k"] == 3
    varied = as_system({"kind": "pipeline", "path": "pipe.yaml", "name": "v", "top_k": 1}, base_dir=tmp_path)
    assert (varied.name, varied.describe()["top_k"], varied.describe()["corpus_documents"]) == ("v", 1, 1)
    with pytest.raises(RagdxError, match="give 'path' or 'paper', not both"):
        as_system({"kind": "pipeline", "path": "pipe.yaml", "paper": "er"}, base_dir=tmp_path)
