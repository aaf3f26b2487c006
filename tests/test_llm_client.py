"""The LLM client against a real OpenAI-compatible HTTP server on localhost."""

from __future__ import annotations

import asyncio
import io
import json
import sqlite3
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from ragdx.errors import LLMError, RagdxError
from ragdx.llm import (
    LLM,
    ChatRequest,
    Completion,
    CompletionCache,
    DryRunLLM,
    LLMFailure,
    OpenAICompatibleLLM,
    Usage,
    estimate_table,
    estimate_tokens,
    make_llm,
)
from tests.support.openai_server import Fault, OpenAIServer

pytestmark = pytest.mark.timeout(30)

MESSAGES = [
    {"role": "system", "content": "You are terse."},
    {"role": "user", "content": "hello there world"},
]


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    with OpenAIServer() as srv:
        yield srv


def make_client(server: OpenAIServer, **kwargs: Any) -> OpenAICompatibleLLM:
    options: dict[str, Any] = {
        "base_url": server.base_url,
        "api_key": "sk-test",
        "backoff_base": 0.01,
        "timeout": 5.0,
    }
    options.update(kwargs)
    return OpenAICompatibleLLM("test-model", **options)


def user(text: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": text}]


def test_completion_text_tokens_and_wire_format(server: OpenAIServer) -> None:
    llm = make_client(server, max_tokens=20, params={"seed": 7})

    completion = llm.complete_sync(MESSAGES, sample_index=3)

    assert completion.text == "echo: hello there world"
    assert completion.prompt_tokens == 6  # words in both messages, as the server counts
    assert completion.completion_tokens == 4
    assert completion.finish_reason == "stop"
    assert (completion.cached, completion.dry_run) == (False, False)
    (sent,) = server.chat_requests
    assert sent.headers["authorization"] == "Bearer sk-test"
    assert sent.body == {
        "model": "test-model",
        "messages": MESSAGES,
        "temperature": 0,
        "max_tokens": 20,
        "seed": 7,
    }  # sample_index and the endpoint are cache-key only, never sent
    assert llm.usage == Usage(calls=1, completions=1, prompt_tokens=6, completion_tokens=4)
    assert isinstance(llm, LLM)


def test_identical_request_is_answered_from_cache_without_http(server: OpenAIServer, tmp_path: Path) -> None:
    llm = make_client(server, cache=tmp_path / "llm.sqlite")

    first = llm.complete_sync(MESSAGES, top_p=0.9)
    second = llm.complete_sync(MESSAGES, top_p=0.9)

    assert len(server.chat_requests) == 1
    assert second.cached and not first.cached
    assert (second.text, second.prompt_tokens, second.completion_tokens) == (
        first.text,
        first.prompt_tokens,
        first.completion_tokens,
    )
    # The hit costs nothing: tokens are those of the one real call.
    assert llm.usage == Usage(calls=1, completions=1, cache_hits=1, prompt_tokens=6, completion_tokens=4)


def test_integral_float_and_int_parameters_share_a_cache_entry(server: OpenAIServer, tmp_path: Path) -> None:
    llm = make_client(server, cache=tmp_path / "llm.sqlite")

    llm.complete_sync(MESSAGES, temperature=1)
    assert llm.complete_sync(MESSAGES, temperature=1.0).cached
    assert len(server.chat_requests) == 1


@pytest.mark.parametrize(
    ("change", "sent"),
    [
        ({"temperature": 0.7}, {"temperature": 0.7}),
        ({"top_p": 0.5}, {"top_p": 0.5}),
        ({"max_tokens": 5}, {"max_tokens": 5}),
        ({"seed": 1}, {"seed": 1}),
        ({"stop": ["\n"]}, {"stop": ["\n"]}),
        ({"n": 1}, {"n": 1}),
        ({"response_format": {"type": "json_object"}}, {"response_format": {"type": "json_object"}}),
        ({"top_k": 40}, {"top_k": 40}),  # server-specific (vLLM): passed through as well
        ({"sample_index": 1}, {}),
    ],
)
def test_any_change_to_the_request_misses_the_cache(
    server: OpenAIServer, tmp_path: Path, change: dict[str, Any], sent: dict[str, Any]
) -> None:
    llm = make_client(server, cache=tmp_path / "llm.sqlite")
    llm.complete_sync(MESSAGES)

    changed = llm.complete_sync(MESSAGES, **change)

    assert not changed.cached
    assert len(server.chat_requests) == 2
    assert sent.items() <= server.chat_requests[1].body.items()


def test_changed_messages_miss_the_cache(server: OpenAIServer, tmp_path: Path) -> None:
    llm = make_client(server, cache=tmp_path / "llm.sqlite")
    llm.complete_sync(user("a"))
    assert not llm.complete_sync(user("b")).cached
    assert not llm.complete_sync([{"role": "system", "content": "a"}]).cached
    assert len(server.chat_requests) == 3


def test_cache_persists_across_client_instances(server: OpenAIServer, tmp_path: Path) -> None:
    path = tmp_path / "sub" / "llm.sqlite"
    make_client(server, cache=path).complete_sync(MESSAGES)

    again = make_client(server, cache=CompletionCache(path)).complete_sync(MESSAGES)

    assert again.cached and again.text == "echo: hello there world"
    assert len(server.chat_requests) == 1
    with sqlite3.connect(path) as conn:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(completions)")]
        (mode,) = conn.execute("PRAGMA journal_mode").fetchone()
        (request,) = conn.execute("SELECT meta FROM completions").fetchone()
    conn.close()
    # one key-value layout for every cache (ragdx.kvcache): the response is the value, the request its meta
    assert columns == ["key", "value", "meta", "created"]
    assert mode == "wal"
    assert json.loads(request)["messages"] == MESSAGES


def test_cache_is_keyed_on_the_endpoint(server: OpenAIServer, tmp_path: Path) -> None:
    cache = CompletionCache(tmp_path / "llm.sqlite")
    make_client(server, cache=cache).complete_sync(MESSAGES)
    with OpenAIServer() as other:
        assert not make_client(other, cache=cache).complete_sync(MESSAGES).cached
        assert len(other.chat_requests) == 1
    assert len(cache) == 2


@pytest.mark.parametrize(
    "fault",
    [
        Fault.http(429, retry_after=0),
        Fault.http(500),
        Fault.http(503),
        Fault.timeout(3.0),
        Fault.not_json(),
        Fault.no_choices(),
    ],
    ids=["429", "500", "503", "timeout", "not-json", "no-choices"],
)
def test_transient_fault_is_retried_then_succeeds(server: OpenAIServer, fault: Fault) -> None:
    server.script(fault)
    llm = make_client(server, timeout=0.3)

    completion = llm.complete_sync(MESSAGES)

    assert completion.text == "echo: hello there world"
    assert len(server.chat_requests) == 2
    assert llm.usage.as_dict() == {
        "calls": 2,
        "completions": 1,
        "cache_hits": 0,
        "failures": 0,
        "retries": 1,
        "prompt_tokens": 6,
        "completion_tokens": 4,
        "truncated": 0,
        "cost_usd": None,
    }


def test_several_faults_in_a_row_are_each_retried(server: OpenAIServer) -> None:
    server.script(Fault.http(429), Fault.http(502), Fault.no_choices())
    llm = make_client(server, max_retries=3)

    assert llm.complete_sync(MESSAGES).text == "echo: hello there world"
    assert len(server.chat_requests) == 4
    assert llm.usage.retries == 3


def test_retry_after_header_is_honoured(server: OpenAIServer) -> None:
    server.script(Fault.http(429, retry_after=0.4))
    llm = make_client(server)

    started = time.monotonic()
    llm.complete_sync(MESSAGES)

    assert time.monotonic() - started >= 0.4


def test_exhausted_retries_raise_llm_error_naming_the_endpoint(server: OpenAIServer) -> None:
    server.script(*[Fault.http(503)] * 3)
    llm = make_client(server, max_retries=2)

    with pytest.raises(LLMError) as caught:
        llm.complete_sync(MESSAGES)

    message = str(caught.value)
    assert message.startswith(f"{server.base_url}/chat/completions: ")
    assert "3 attempts" in message and "503" in message and "InternalServerError" in message
    assert "\n" not in message
    assert len(server.chat_requests) == 3
    assert llm.usage.failures == 1 and llm.usage.retries == 2 and llm.usage.calls == 3


@pytest.mark.parametrize("status", [400, 401, 404])
def test_client_errors_fail_at_once(server: OpenAIServer, status: int) -> None:
    server.script(Fault.http(status))
    llm = make_client(server, max_retries=4)

    with pytest.raises(LLMError, match=f"1 attempt: .*{status}"):
        llm.complete_sync(MESSAGES)
    assert len(server.chat_requests) == 1
    assert llm.usage.retries == 0


def test_complete_many_bounds_concurrency_and_keeps_failures_in_place(server: OpenAIServer) -> None:
    server.latency = 0.05

    def reply(body: dict[str, Any]) -> str | Fault:
        text = body["messages"][-1]["content"]
        return Fault.http(500) if text.startswith("fail") else f"echo: {text}"

    server.reply = reply
    llm = make_client(server, max_concurrency=2, max_retries=1)
    prompts = ["q0", "q1", "fail2", "q3", "q4", "fail5", "q6", "q7"]
    # Bare message lists and ChatRequests mixed, as complete_many accepts both.
    requests = [
        ChatRequest(user(p), params={"top_p": 0.5}) if i % 2 else user(p) for i, p in enumerate(prompts)
    ]

    results = llm.complete_many_sync(requests)

    assert server.max_in_flight == 2
    assert len(results) == len(prompts)
    for prompt, result in zip(prompts, results, strict=True):
        if prompt.startswith("fail"):
            assert isinstance(result, LLMFailure)
            assert result.error_type == "InternalServerError"
            assert "500" in result.message
            assert result.attempts == 2
        else:
            assert isinstance(result, Completion) and result.text == f"echo: {prompt}"
    assert llm.usage.completions == 6 and llm.usage.failures == 2
    assert llm.usage.calls == len(server.chat_requests) == 10


def test_concurrency_bound_also_holds_for_parallel_complete_calls(server: OpenAIServer) -> None:
    server.latency = 0.05
    llm = make_client(server, max_concurrency=3)

    async def main() -> list[Completion]:
        async with llm:
            return await asyncio.gather(*(llm.complete(user(f"q{i}")) for i in range(9)))

    results = asyncio.run(main())

    assert [r.text for r in results] == [f"echo: q{i}" for i in range(9)]
    assert server.max_in_flight == 3


def test_dry_run_sends_nothing_counts_calls_and_treats_cached_requests_as_hits(
    server: OpenAIServer, tmp_path: Path
) -> None:
    config = {"base_url": server.base_url, "model": "test-model", "cache_dir": str(tmp_path)}
    make_llm(config).complete_sync(user("already asked"))
    assert len(server.chat_requests) == 1

    dry = make_llm(config, dry_run=True)
    assert isinstance(dry, DryRunLLM)
    dry.default_completion_tokens = 100
    results = dry.complete_many_sync(
        [
            user("already asked"),  # in the cache
            user("x" * 40),
            ChatRequest(user("y" * 8), params={"max_tokens": 50}),
            user("x" * 40),  # repeats a request of this run: a real run would hit the cache
        ]
    )

    assert len(server.chat_requests) == 1
    assert all(r.dry_run and r.text == "" for r in results if isinstance(r, Completion))
    assert [r.cached for r in results] == [True, False, False, True]
    # characters / 4 plus 4 per message
    assert dry.usage == Usage(
        calls=2, completions=2, cache_hits=2, prompt_tokens=(10 + 4) + (2 + 4), completion_tokens=100 + 50
    )
    console = Console(record=True, width=120, file=io.StringIO())
    console.print(estimate_table(dry.usage, model=dry.model))
    rendered = console.export_text()
    assert "requests to send" in rendered and "test-model" in rendered and "170" in rendered


def test_dry_run_without_cache_counts_every_request() -> None:
    dry = DryRunLLM("m", max_tokens=10)
    dry.complete_many_sync([user("abcd"), user("abcd")])
    assert dry.usage.calls == 2 and dry.usage.cache_hits == 0
    assert dry.usage.prompt_tokens == 2 * (estimate_tokens("abcd") + 4)


def test_sync_face_works_inside_a_running_event_loop(server: OpenAIServer) -> None:
    llm = make_client(server)

    async def notebook_cell() -> tuple[Completion, list[Completion | LLMFailure]]:
        return llm.complete_sync(user("in a loop")), llm.complete_many_sync([user("a"), user("b")])

    single, many = asyncio.run(notebook_cell())

    assert single.text == "echo: in a loop"
    assert [r.text for r in many if isinstance(r, Completion)] == ["echo: a", "echo: b"]
    # And again outside any loop, on a fresh one.
    assert llm.complete_sync(user("after")).text == "echo: after"


def test_make_llm_reads_the_named_key_and_never_falls_back_on_openai_key(
    server: OpenAIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai")
    monkeypatch.setenv("LOCAL_KEY", "sk-local")
    base = {"base_url": server.base_url, "model": "test-model", "cache_dir": None, "max_retries": 0}

    make_llm({**base, "api_key_env": "LOCAL_KEY"}).complete_sync(MESSAGES)
    make_llm({**base, "api_key_env": "UNSET_KEY"}).complete_sync(MESSAGES)

    keys = [r.headers["authorization"] for r in server.chat_requests]
    assert keys == ["Bearer sk-local", "Bearer not-needed"]


def test_make_llm_builds_the_configured_client(tmp_path: Path) -> None:
    llm = make_llm(
        {"model": "m", "max_concurrency": 2, "timeout": 5, "cache_dir": str(tmp_path), "params": {"seed": 1}}
    )
    assert isinstance(llm, OpenAICompatibleLLM)
    assert (llm.model, llm.max_concurrency, llm.timeout, llm.params) == ("m", 2, 5.0, {"seed": 1})
    assert llm.cache is not None and llm.cache.path.parent == tmp_path


def test_bad_config_is_a_one_line_error_naming_the_field() -> None:
    with pytest.raises(RagdxError, match=r"^llm config: max_concurrency: .*greater than or equal to 1"):
        make_llm({"max_concurrency": 0})
    with pytest.raises(RagdxError, match="modle"):
        make_llm({"modle": "x"})


def test_to_dict_rebuilds_the_client_and_omits_the_key(server: OpenAIServer, tmp_path: Path) -> None:
    llm = make_client(server, api_key="sk-secret", cache=tmp_path / "c.sqlite", params={"seed": 1})

    config = llm.to_dict()

    assert "sk-secret" not in repr(config) and "sk-secret" not in repr(llm)
    assert OpenAICompatibleLLM(**config).to_dict() == config
    assert config["backoff_base"] == 0.01 and config["cache"] == str(tmp_path / "c.sqlite")


def test_reserved_parameters_are_refused_before_sending(server: OpenAIServer) -> None:
    llm = make_client(server)
    with pytest.raises(TypeError, match="stream"):
        llm.complete_sync(MESSAGES, stream=True)
    with pytest.raises(TypeError, match="model"):
        llm.complete_many_sync([user("ok"), ChatRequest(user("x"), params={"model": "other"})])
    assert server.chat_requests == []


def test_usage_adds_up() -> None:
    total = Usage(calls=2, prompt_tokens=10) + Usage(calls=1, cache_hits=4, completion_tokens=3)
    assert total.as_dict() == {
        "calls": 3,
        "completions": 0,
        "cache_hits": 4,
        "failures": 0,
        "retries": 0,
        "prompt_tokens": 10,
        "completion_tokens": 3,
        "truncated": 0,
        "cost_usd": None,
    }
    # one priced side makes the sum priced; None only when neither is
    assert (Usage(cost_usd=0.5) + Usage()).cost_usd == 0.5


def test_server_lists_models(server: OpenAIServer) -> None:
    with urllib.request.urlopen(f"{server.base_url}/models", timeout=5) as response:
        data = json.load(response)
    assert data["data"][0]["id"] == "test-model"


def test_one_retry_policy_for_every_client():
    # the LLM client, the embeddings client and the HTTP systems retry the same statuses and wait
    # the same way (issue 20: two retryable sets had drifted apart; 425 was retried by one only)
    import random

    from ragdx.retry import Backoff, is_retryable, one_line, retry_after_seconds, retryable_status

    assert [s for s in (400, 401, 404, 408, 409, 422, 425, 429, 500, 503) if retryable_status(s)] == \
        [408, 409, 425, 429, 500, 503]

    class StatusError(Exception):
        status_code = 404

    assert not is_retryable(StatusError()) and is_retryable(TimeoutError())
    assert retry_after_seconds({"retry-after-ms": "1500"}) == 1.5 and retry_after_seconds({}) is None
    waits = [Backoff(1.0, 8.0, random.Random(0)).delay(a) for a in (1, 2, 3, 4, 5, 6)]
    assert all(step / 2 <= w <= step for w, step in zip(waits, (1, 2, 4, 8, 8, 8), strict=True))
    assert Backoff(1.0, 8.0).delay(1, hinted=30.0) == 8.0  # a server's wait, up to the cap
    assert one_line("failed for http://u:hunter2@h/x\n  at line 2") == "failed for http://u:***@h/x at line 2"
