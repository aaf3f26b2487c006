"""Issue 23, item 1: a judge's reply that is neither "Correct" nor "Incorrect" is a judge failure.

Measured against a hostile endpoint, 5.2 % of the LLM judge's verdicts were a silent "Incorrect"
("unparseable: Maybe. It is hard to say.", a 2 MB reply), counted as wrong answers and replayed
from the cache on every later run. Here the test server of ``tests/support/openai_server.py``
answers that way for chosen items, and what comes back is checked end to end: the error, the
counts, the metrics, the caches (by counting requests at the server) and the cascade's fall-backs.
"""

from __future__ import annotations

import json
import re

import pytest

from ragdx.evaluate import CascadeJudge, JudgeItem, LLMJudge, VerdictCache
from ragdx.evaluate.judges import JUDGE_MAX_TOKENS, parse_judgement, read_judgement
from ragdx.llm import OpenAICompatibleLLM
from ragdx.llm.client import DEFAULT_MAX_TOKENS
from tests.support.openai_server import OpenAIServer

MAYBE = "Maybe. It is hard to say."
HUGE = "Correct " + "blah " * 400_000  # 2 MB; its first word would have read as a verdict


def _llm(server, **kw):
    return OpenAICompatibleLLM("test-model", base_url=server.base_url, backoff_base=0.001, max_backoff=0.01,
                               timeout=10, max_retries=0, **kw)


def _number(body) -> int:
    return int(re.search(r"\((\d+)\)|country (\d+)\?", body["messages"][-1]["content"]).group(0).strip("()?")
               .split()[-1])


@pytest.mark.parametrize(("reply", "want"), [
    ("Correct", (True, None)),
    ("Incorrect", (False, None)),
    ("**Judgement:** Incorrect", (False, None)),
    ("##Judgement##: Correct.", (True, None)),
    ("Incorrect. The response is correct about the year, not the month.", (False, None)),
    ("The response is not correct; the correct year is 2021.", (False, None)),
    ("The given response matches the true answer, so it is correct.", (True, None)),
    (MAYBE, (None, "refusal")),
    ("I cannot determine whether the response is correct.", (None, "refusal")),
    ("", (None, "empty")),
    ("   \n", (None, "empty")),
    (HUGE, (None, "too long")),
    ("Correct or Incorrect", (None, "unparseable")),
    ("echo: ... provide a judgement as either \u201cCorrect\u201d or \u201cIncorrect\u201d", (None, "unparseable")),
    ("The capital is Paris.", (None, "unparseable")),
])
def test_read_judgement_tells_a_verdict_from_a_non_verdict(reply, want):
    assert read_judgement(reply) == want
    assert parse_judgement(reply) is want[0]


def test_a_non_verdict_is_a_failure_with_its_reply_never_cached_and_asked_again(tmp_path):
    items = [JudgeItem.from_text(f"start of X{i}?", "2023-03-01", f"In spring 2023 ({i}).") for i in range(8)]
    replies = {1: MAYBE, 3: HUGE, 5: "I cannot determine whether the response is correct.", 6: "Incorrect"}
    cache = VerdictCache(tmp_path / "verdicts.sqlite")
    with OpenAIServer() as server:
        server.reply = lambda body: replies.get(_number(body), "Correct")
        llm = _llm(server)
        verdicts = LLMJudge(llm).judge_many(items, cache=cache)
        assert [v.correct for v in verdicts] == [True, None, True, None, True, None, False, True]
        assert [v.failure for v in verdicts] == [None, "refusal", None, "too long", None, "refusal", None, None]
        assert all(v.error is None for i, v in enumerate(verdicts) if i not in (1, 3, 5))
        assert verdicts[1].error == f"the judge gave no verdict (refusal): {MAYBE!r}"
        # the 2 MB reply is kept cut short, with its length said
        assert verdicts[3].error.startswith("the judge gave no verdict (too long): 'Correct blah")
        assert "(2,000,008 characters)" in verdicts[3].error and len(verdicts[3].error) < 300
        # the reply's size is bounded on the request too
        assert all(r.body["max_tokens"] == JUDGE_MAX_TOKENS for r in server.chat_requests)
        assert len(cache) == 5  # the verdicts only
        # the next run asks again about the non-verdicts, and only about them
        asked = len(server.chat_requests)
        again = LLMJudge(llm).judge_many(items, cache=cache)
        assert sorted(_number(r.body) for r in server.chat_requests[asked:]) == [1, 3, 5]
        assert [v.cached for v in again] == [True, False, True, False, True, False, True, True]
        assert [v.correct for v in again] == [v.correct for v in verdicts]
        # and once the endpoint gives verdicts, they are judged and cached
        replies.clear()
        last = LLMJudge(llm).judge_many(items, cache=cache)
        assert [v.correct for v in last] == [True, True, True, True, True, True, False, True]
        assert len(cache) == 8


def test_the_completion_cache_keeps_no_non_verdict(tmp_path):
    """Without a verdict cache, the LLM client's completion cache (``llm.cache_dir``) is what a
    second evaluation reuses: it must not replay a non-verdict either."""
    items = [JudgeItem.from_text(f"start of X{i}?", "2023-03-01", f"In spring 2023 ({i}).") for i in range(4)]
    replies = {0: MAYBE, 2: HUGE}
    with OpenAIServer() as server:
        server.reply = lambda body: replies.get(_number(body), "Incorrect")
        llm = _llm(server, cache=tmp_path / "llm-cache.sqlite")
        first = LLMJudge(llm).judge_many(items)
        assert [v.failure for v in first] == ["refusal", None, "too long", None]
        assert len(llm.cache) == 2
        asked = len(server.chat_requests)
        second = LLMJudge(llm).judge_many(items)
        assert sorted(_number(r.body) for r in server.chat_requests[asked:]) == [0, 2]
        assert [v.correct for v in second] == [None, False, None, False]
        assert llm.usage.cache_hits == 2


def test_a_client_max_tokens_or_max_completion_tokens_is_respected(tmp_path):
    items = [JudgeItem.from_text("start of X0?", "2023-03-01", "In spring 2023 (0).")]
    with OpenAIServer() as server:
        server.reply = lambda body: "Correct"
        LLMJudge(_llm(server, max_tokens=16)).judge_many(items)
        LLMJudge(_llm(server, params={"max_completion_tokens": 2000})).judge_many(items)
        LLMJudge(_llm(server), max_tokens=None).judge_many(items)
        sent = [r.body for r in server.chat_requests]
        assert sent[0]["max_tokens"] == 16
        assert "max_tokens" not in sent[1] and sent[1]["max_completion_tokens"] == 2000
        # the judge sends none of its own: the client's bound on every reply applies (issue 23, item 4)
        assert sent[2]["max_tokens"] == DEFAULT_MAX_TOKENS


def test_the_cascade_falls_back_and_counts_why(tmp_path):
    items = [JudgeItem.from_text(f"start of X{i}?", "2023-03-01", f"In spring 2023 ({i}).") for i in range(4)]
    cache = VerdictCache(tmp_path / "verdicts.sqlite")
    with OpenAIServer() as server:
        server.reply = lambda body: {0: MAYBE, 1: HUGE}.get(_number(body), "Correct")
        cascade = CascadeJudge(LLMJudge(_llm(server)))
        got = cascade.judge_many(items, cache=cache)
        assert [v.judge for v in got] == ["cascade:f1", "cascade:f1", "cascade:llm", "cascade:llm"]
        assert [v.fallback for v in got] == ["refusal", "too long", None, None]
        assert all(v.error is None and v.correct is not None for v in got)
        assert got[0].reason.startswith(f"the judge gave no verdict (refusal): {MAYBE!r}; the offline rule decided")
        assert cascade.fell_back == {"refusal": 1, "too long": 1}
        assert len(cache) == 2  # the fall-backs are not kept: the LLM is asked again next time
        asked = len(server.chat_requests)
        cascade.judge_many(items, cache=cache)
        assert sorted(_number(r.body) for r in server.chat_requests[asked:]) == [0, 1]


def _small_run(tmp_path, n=12):
    from ragdx.gen.dataset import QARecord, write_dataset
    from ragdx.rag.runner import run
    from ragdx.rag.systems import CallableSystem

    records = [QARecord(id=f"q{i}", group_id=f"g{i}", sql_template_id="t", text_template_id="x", style="short",
                        schema="Country", table="Country", params={}, sql="", query=f"capital of country {i}?",
                        answer_columns=["Capital"], answer_rows=[[f"City{i}"]], answer_text=f"City{i}",
                        answer_kind="single", gold_document_ids=[], kb_supported=None) for i in range(n)]
    write_dataset(tmp_path / "ds", records, {"test": True})
    run(CallableSystem(lambda q: "Paris, I think", name="toy"), tmp_path / "ds", tmp_path / "run", progress=False)
    return tmp_path / "run"


def _rows(run_dir):
    return [json.loads(x) for x in (run_dir / "evaluation" / "judgements.jsonl").read_text().splitlines()]


def test_evaluate_counts_non_verdicts_as_judge_failures_and_leaves_them_out_of_the_metrics(tmp_path):
    from ragdx.evaluate import evaluate

    run_dir = _small_run(tmp_path)
    odd = {2: MAYBE, 5: HUGE, 9: "I refuse."}
    correct = {0, 1, 3}  # the others: "Incorrect"

    def reply(body):
        i = _number(body)
        return odd.get(i) or ("Correct" if i in correct else "Incorrect")

    with OpenAIServer() as server:
        server.reply = reply
        llm = _llm(server, cache=tmp_path / "llm-cache.sqlite")
        result = evaluate(run_dir, judge="llm", llm=llm, n_boot=50, lab=False, geval=False,
                          cache=tmp_path / "verdicts.sqlite")
        rows = {int(j["id"][1:]): j for j in _rows(run_dir)}
        assert sorted(i for i, j in rows.items() if j["error"]) == sorted(odd)
        assert rows[2]["error"] == f"the judge gave no verdict (refusal): {MAYBE!r}"
        assert len(rows[5]["error"]) < 300 and "too long" in rows[5]["error"]
        assert result.inputs["judge_failed"] == 3 and result.inputs["judged"] == 9
        assert result.inputs["judge_failed_by"] == {"refusal": 2, "too long": 1}
        # the metrics are over the 9 verdicts: 3 correct, 6 incorrect (not 3 of 12)
        # (one group per query: the three groups with no verdict are in no metric)
        assert result.queries == 9 and result.overall.groups == 9
        assert result.overall.accuracy.value == pytest.approx(3 / 9)
        metrics = json.loads((run_dir / "evaluation" / "metrics.json").read_text(encoding="utf-8"))
        assert metrics["inputs"]["judge_failed_by"] == {"refusal": 2, "too long": 1}
        summary = (run_dir / "evaluation" / "summary.md").read_text(encoding="utf-8")
        assert "Judge: 3 failed, excluded from the metrics (2 refusal, 1 too long)" in summary
        assert "3 judgements failed (2 refusal, 1 too long;" in summary
        # the next evaluation asks again about those three only (both caches hold the verdicts)
        asked = len(server.chat_requests)
        odd.clear()
        result = evaluate(run_dir, judge="llm", llm=llm, n_boot=50, lab=False, geval=False,
                          cache=tmp_path / "verdicts.sqlite")
        assert sorted(_number(r.body) for r in server.chat_requests[asked:]) == [2, 5, 9]
        assert result.inputs["judge_failed"] == 0 and not result.inputs["judge_failed_by"]
        assert result.overall.accuracy.value == pytest.approx(3 / 12)


def test_evaluate_reports_the_cascades_fall_backs_by_reason(tmp_path):
    from ragdx.evaluate import evaluate

    run_dir = _small_run(tmp_path)
    odd = {4: MAYBE, 7: MAYBE, 8: HUGE}

    with OpenAIServer() as server:
        server.reply = lambda body: odd.get(_number(body), "Incorrect")
        llm = _llm(server)
        result = evaluate(run_dir, judge="cascade", llm=llm, n_boot=50, lab=False, geval=False)
        assert len(server.chat_requests) == 12  # "Paris, I think" for City{i}: only the LLM can tell
        rows = {int(j["id"][1:]): j for j in _rows(run_dir)}
        assert not [j for j in rows.values() if j["error"]]
        assert sorted(i for i, j in rows.items() if j["judge"] == "cascade:f1") == [4, 7, 8]
        assert result.inputs["judge_failed"] == 0
        assert result.inputs["judge_fallbacks"] == {"refusal": 2, "too long": 1}
        metrics = json.loads((run_dir / "evaluation" / "metrics.json").read_text(encoding="utf-8"))
        assert metrics["inputs"]["judge_fallbacks"] == {"refusal": 2, "too long": 1}
        assert any("3 judgements fell back from the LLM to the offline rule" in w and "2 refusal, 1 too long" in w
                   for w in metrics["warnings"])
        summary = (run_dir / "evaluation" / "summary.md").read_text(encoding="utf-8")
        assert ("Judge: 3 decided by the offline rule because the LLM gave no verdict (2 refusal, 1 too long)"
                in summary)
