"""Issue 23, item 4: what ragdx's LLM clients did is counted exactly, per stage, and written where a
person looks (run manifest, results lines, metrics.json, summary.md, the console); replies are bounded.

Every count is checked against what the real test server of ``tests/support/openai_server.py``
logged, on a cold and a warm cache, with failures and retries injected by the server.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
from collections import Counter

import pytest
import yaml

from ragdx.llm import OpenAICompatibleLLM, counting
from ragdx.llm.client import DEFAULT_MAX_TOKENS, LLMFailure
from tests.support.openai_server import Fault, OpenAIServer, echo_reply


def _words(body) -> int:
    """Prompt tokens as the test server counts them (whitespace-separated words)."""
    return sum(len(str(m.get("content", "")).split()) for m in body["messages"])


class FlakyModel:
    """Replies by item number (the prompt's last ``#N``): items in ``fail_once`` fail their first request
    with ``fault`` (then answer), items in ``always_fail`` fail every request with a 500. Logs every
    answered request, so that tokens can be checked against what the server sent."""

    def __init__(self, fail_once=(), always_fail=(), fault=None, reply=echo_reply):
        self.fail_once, self.always_fail = set(fail_once), set(always_fail)
        self.fault = fault or Fault.http(503)
        self.reply = reply
        self.seen: Counter[int] = Counter()
        self.answered: list[tuple[dict, str]] = []
        self.lock = threading.Lock()

    def __call__(self, body):
        number = int(re.findall(r"#(\d+)", body["messages"][-1]["content"])[-1])  # the question's, last
        with self.lock:
            self.seen[number] += 1
            first = self.seen[number] == 1
        if number in self.always_fail:
            return Fault.http(500)
        if number in self.fail_once and first:
            return self.fault
        text = self.reply(body)
        with self.lock:
            self.answered.append((body, text))
        return text

    def tokens(self, since: int = 0) -> tuple[int, int]:
        answered = self.answered[since:]
        return sum(_words(b) for b, _ in answered), sum(len(t.split()) for _, t in answered)


def _client(server, **kw):
    kw = {"max_retries": 2, "backoff_base": 0.001, "max_backoff": 0.01, "timeout": 5, **kw}
    return OpenAICompatibleLLM("test-model", base_url=server.base_url, **kw)


def _ask(items):
    return [[{"role": "user", "content": f"question #{i}: what is {i} squared?"}] for i in items]


def test_client_counts_equal_the_server_log_cold_and_warm(tmp_path):
    with OpenAIServer() as server:
        model = FlakyModel(fail_once={1, 5}, always_fail={3}, fault=Fault.http(429, retry_after=0.01))
        server.reply = model
        llm = _client(server, cache=tmp_path / "llm.sqlite", price={"prompt": 2.0, "completion": 8.0})
        with counting() as cold:
            results = llm.complete_many_sync(_ask(range(8)))
        sent = len(server.chat_requests)
        assert [isinstance(r, LLMFailure) for r in results] == [i == 3 for i in range(8)]
        # 8 first requests + 1 retry each for items 1 and 5 + 2 retries for item 3
        assert sent == 12
        assert (cold.calls, cold.retries, cold.failures, cold.completions, cold.cache_hits) == (12, 4, 1, 7, 0)
        prompt, completion = model.tokens()
        assert (cold.prompt_tokens, cold.completion_tokens) == (prompt, completion)
        assert cold.cost_usd == pytest.approx((prompt * 2.0 + completion * 8.0) / 1e6)
        assert llm.usage.as_dict() == cold.as_dict()  # the scope saw exactly what the client did

        # warm: a fresh client on the same cache answers the 7 successes from it; the failure is
        # not cached and is asked again (and fails again, 3 requests)
        again = _client(server, cache=tmp_path / "llm.sqlite", price={"prompt": 2.0, "completion": 8.0})
        with counting() as warm:
            again.complete_many_sync(_ask(range(8)))
        assert warm.cache_hits == cold.completions == 7
        assert warm.calls == len(server.chat_requests) - sent == 3
        assert (warm.retries, warm.failures, warm.prompt_tokens, warm.completion_tokens) == (2, 1, 0, 0)
        assert warm.cost_usd == 0.0  # priced, and free


def test_nested_scopes_count_each_request_once_in_each():
    with OpenAIServer() as server:
        server.reply = FlakyModel(fail_once={0})
        llm = _client(server)
        with counting() as outer:
            with counting() as inner:
                llm.complete_sync(_ask([0])[0])
            llm.complete_sync(_ask([1])[0])
        assert (inner.calls, inner.retries) == (2, 1)
        assert (outer.calls, outer.retries) == (3, 1) == (len(server.chat_requests), 1)
        assert llm.usage.calls == 3


def test_every_request_asks_for_a_bounded_reply_and_a_long_one_is_cut_before_the_cache(tmp_path):
    huge = "word " * 20_000  # 100,000 characters
    with OpenAIServer() as server:
        server.reply = lambda body: huge
        llm = _client(server, cache=tmp_path / "llm.sqlite", max_completion_chars=1000)
        with counting() as used:
            first = llm.complete_sync(_ask([0])[0])
        assert server.chat_requests[0].body["max_tokens"] == DEFAULT_MAX_TOKENS
        assert len(first.text) == 1000 and first.truncated and first.truncated_from == len(huge)
        assert used.truncated == 1 and used.completions == 1
        with sqlite3.connect(tmp_path / "llm.sqlite") as conn:
            stored = "".join(str(v) for row in conn.execute("SELECT * FROM completions") for v in row)
        assert "word " * 200 in stored and len(stored) < 10_000  # the cut reply, not 100 kB
        second = llm.complete_sync(_ask([0])[0])
        assert second.cached and second.text == first.text and second.truncated_from == len(huge)
        # a caller's own bound (or "none") wins over the default
        llm.complete_sync(_ask([1])[0], max_tokens=7)
        llm.complete_sync(_ask([2])[0], max_tokens=None)
        assert server.chat_requests[1].body["max_tokens"] == 7
        assert "max_tokens" not in server.chat_requests[2].body


def _pipeline_world(tmp_path, server, n=12):
    from ragdx.rag.generators import LLMGenerator
    from ragdx.rag.pipeline import Pipeline
    from ragdx.rag.types import SystemInput

    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(json.dumps({"id": f"d{i}", "text": f"Fact #{i}: {i} squared is {i * i}."}) + "\n"
                              for i in range(n)))
    llm = {"base_url": server.base_url, "model": "test-model", "max_retries": 2, "timeout": 5,
           "cache_dir": str(tmp_path / "cache")}
    pipeline = Pipeline("llm-usage", corpus, generator=LLMGenerator(llm=llm), top_k=1)
    inputs = [SystemInput(id=f"q{i}", query=f"What is {i} squared? #{i}") for i in range(n)]
    return pipeline, inputs


def _lines(run_dir):
    return [json.loads(x) for x in (run_dir / "results.jsonl").read_text().splitlines()]


def test_a_pipeline_run_records_its_llm_usage_per_record_and_in_the_manifest(tmp_path):
    from ragdx.rag.runner import run

    with OpenAIServer() as server:
        # the generator's prompt ends with the question, so its number is the item's
        model = FlakyModel(fail_once={2, 7}, always_fail={4}, fault=Fault.http(503))
        server.reply = model
        pipeline, inputs = _pipeline_world(tmp_path, server)
        cold = run(pipeline, inputs, tmp_path / "cold", progress=False)
        sent = len(server.chat_requests)
        manifest = json.loads((tmp_path / "cold" / "manifest.json").read_text())
        usage = manifest["llm_usage"]
        assert usage == cold.llm_usage
        assert usage["calls"] == sent == 12 + 2 + 2
        assert (usage["retries"], usage["failures"], usage["completions"], usage["cache_hits"]) == (4, 1, 11, 0)
        assert (usage["prompt_tokens"], usage["completion_tokens"]) == model.tokens()
        assert usage["cost_usd"] is None  # no price configured
        lines = {line["id"]: line for line in _lines(tmp_path / "cold")}
        # a record's attempts are its LLM requests (no longer always 1)
        assert {i: line["attempts"] for i, line in lines.items() if line["attempts"] != 1} == \
            {"q2": 2, "q7": 2, "q4": 3}
        assert lines["q4"]["error"] and lines["q4"]["llm"]["failures"] == 1
        assert sum(line["llm"]["calls"] for line in lines.values()) == sent

        # warm: another run directory on the same cache asks only the failed record again
        warm = run(pipeline, inputs, tmp_path / "warm", progress=False)
        assert warm.llm_usage["cache_hits"] == usage["completions"] == 11
        assert warm.llm_usage["calls"] == len(server.chat_requests) - sent == 3


def test_a_non_llm_run_has_no_llm_usage(tmp_path):
    from ragdx.rag.runner import run
    from ragdx.rag.systems import CallableSystem
    from ragdx.rag.types import SystemInput

    summary = run(CallableSystem(lambda q: q.upper(), name="upper"), [SystemInput(id="a", query="x")],
                  tmp_path / "run", progress=False)
    assert summary.llm_usage is None
    assert json.loads((tmp_path / "run" / "manifest.json").read_text())["llm_usage"] is None
    assert _lines(tmp_path / "run")[0]["llm"] is None


def _judge_world(tmp_path):
    """A run of six answers on disk, its dataset beside it (the toy world of test_evaluate_llm)."""
    from tests.test_evaluate_llm import _toy_run

    return _toy_run(tmp_path)


def test_evaluate_judge_llm_writes_usage_equal_to_the_server_log(tmp_path):
    from tests.test_cli import ragdx

    run_dir = _judge_world(tmp_path)
    with OpenAIServer() as server:
        flaky = {"n": 0}
        answered: list[dict] = []

        def judge(body):
            # every third request fails once with a 429; the judge says Correct
            flaky["n"] += 1
            if flaky["n"] % 3 == 0:
                return Fault.http(429, retry_after=0.01)
            answered.append(body)
            return "Correct"

        server.reply = judge
        cfg = tmp_path / "ragdx.yaml"
        cfg.write_text(yaml.safe_dump({"llm": {
            "base_url": server.base_url, "model": "test-model", "max_retries": 3, "timeout": 5,
            "cache_dir": str(tmp_path / "cache"), "price": {"prompt": 1.0, "completion": 4.0}}}))
        r = ragdx("evaluate", str(run_dir), "--judge", "llm", "--no-geval", "--boot", "100", "-c", str(cfg))
        assert r.returncode == 0, r.stderr
        sent = server.chat_requests
        metrics = json.loads((run_dir / "evaluation" / "metrics.json").read_text())
        usage = metrics["llm_usage"]
        assert usage["calls"] == len(sent) and usage["completions"] == 6
        assert usage["retries"] == len(sent) - 6 > 0 and usage["failures"] == 0 and usage["cache_hits"] == 0
        prompt = sum(_words(b) for b in answered)
        assert (usage["prompt_tokens"], usage["completion_tokens"]) == (prompt, 6)  # "Correct": one word each
        assert usage["cost_usd"] == pytest.approx((prompt * 1.0 + 6 * 4.0) / 1e6, abs=1e-6)
        manifest = json.loads((run_dir / "evaluation" / "manifest.json").read_text())
        assert manifest["llm_usage"] == usage
        summary = (run_dir / "evaluation" / "summary.md").read_text()
        assert "## LLM usage" in summary and f"| HTTP requests sent | {len(sent)} |" in summary
        assert f"LLM usage: {len(sent)} calls ({usage['retries']} retries)" in r.stdout

        # warm: every judgement from the completion cache, nothing sent
        before = len(server.chat_requests)
        r = ragdx("evaluate", str(run_dir), "--judge", "llm", "--no-geval", "--boot", "100", "-c", str(cfg))
        assert r.returncode == 0, r.stderr
        warm = json.loads((run_dir / "evaluation" / "metrics.json").read_text())["llm_usage"]
        assert len(server.chat_requests) == before
        assert (warm["calls"], warm["cache_hits"]) == (0, usage["completions"])
        assert "LLM usage: 0 calls, 6 cache hits" in r.stdout


def test_relevance_calibrate_synthesize_reports_its_llm_usage(tmp_path):
    from ragdx.relevance.cli_support import calibrate

    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(json.dumps({"content": f"Fact #{i}: the {i}th reactor runs at {i * 10} degrees."})
                              + "\n" for i in range(6)))
    examples = tmp_path / "examples.jsonl"
    examples.write_text(json.dumps({"question": "How hot does a reactor run?"}) + "\n")
    with OpenAIServer() as server:
        def question(body):
            number = re.findall(r"#(\d+)", body["messages"][-1]["content"])[-1]
            return json.dumps({"question": f"How hot is reactor {number}?", "answer": "hot"})

        model = FlakyModel(fail_once={1}, reply=question)
        server.reply = model
        # alpha 0.25: four calibration queries can reject (1/5 <= alpha)
        llm = {"base_url": server.base_url, "model": "test-model", "cache_dir": None, "max_retries": 2}
        summary = calibrate(corpus, tmp_path / "tester", synthesize=4, examples=examples, retriever="bm25",
                            alpha=0.25, k=3, llm_config=llm)
        usage = summary.llm_usage
        assert usage["calls"] == len(server.chat_requests) == 4 + (1 in model.seen)
        assert usage["completions"] == 4 and usage["retries"] == usage["calls"] - 4
        assert (usage["prompt_tokens"], usage["completion_tokens"]) == model.tokens()


def test_a_priced_dry_run_estimates_the_cost_it_would_incur():
    from rich.console import Console

    from ragdx.llm import DryRunLLM, estimate_table, make_llm

    dry = make_llm({"cache_dir": None, "price": {"prompt": 3.0, "completion": 15.0}}, dry_run=True)
    assert isinstance(dry, DryRunLLM)
    dry.complete_many_sync(_ask(range(3)))
    expected = (dry.usage.prompt_tokens * 3.0 + dry.usage.completion_tokens * 15.0) / 1e6
    assert dry.usage.cost_usd == pytest.approx(expected) and expected > 0
    # every request carries the default bound, so the estimate is the smaller of it and the default
    assert dry.usage.completion_tokens == 3 * min(DEFAULT_MAX_TOKENS, dry.default_completion_tokens)
    console = Console(record=True, width=120)
    console.print(estimate_table(dry.usage))
    assert f"${expected:.6f}" in console.export_text()
    assert DryRunLLM("m").usage.cost_usd is None  # unpriced: no cost, rather than a cost of 0
