"""The evaluation's configuration (ragdx.evaluate.config): built and validated once at the face,
passed down whole; a bad value fails before anything is judged, on the API path as on the CLI's;
it round-trips through the evaluation's manifest; the API and the CLI write the same metrics for
the same job; comparisons and per-style metrics are typed results a notebook completes."""

from __future__ import annotations

import dataclasses
import json

import pytest

import ragdx
from ragdx.errors import RagdxError
from ragdx.evaluate.compare import Comparison
from ragdx.evaluate.config import AnswerSets, EvaluationConfig, GapRule, JudgeSpec, RetrievalRule
from ragdx.evaluate.stats import METRIC_NAMES
from ragdx.llm import OpenAICompatibleLLM
from tests.support.openai_server import OpenAIServer
from tests.test_cli import ragdx as ragdx_cli
from tests.test_evaluate_llm import _toy_run


def test_config_is_validated_once_into_typed_values_and_frozen():
    config = EvaluationConfig.build(judge="containment", sets="any", retrieval="all", gap="each", n_boot=200)
    assert config.judge == JudgeSpec("contains", AnswerSets.ANY)  # the alias resolved once, here
    assert config.retrieval is RetrievalRule.ALL and config.gap is GapRule.EACH
    assert config.retrieval.words.startswith("all-gold rule")
    # handed down, it is used as it is: nothing is parsed or copied again
    assert EvaluationConfig.build(config) is config
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.n_boot = 10  # type: ignore[misc]
    # a keyword replaces its field and keeps the rest
    again = EvaluationConfig.build(config, judge="exact")
    assert again.judge == JudgeSpec("exact", AnswerSets.ANY) and again.retrieval is RetrievalRule.ALL
    with pytest.raises(TypeError, match="retreival"):
        EvaluationConfig.build(retreival="all")  # a misspelt keyword is a programming error, as in any call


@pytest.mark.parametrize(("options", "field", "words"), [
    ({"retrieval": "evidance"}, "retrieval", "evidence, all, any"),
    ({"judge": "gpt"}, "judge", "exact, contains"),
    ({"sets": "most"}, "sets", "all, any"),
    ({"gap": "sometimes"}, "gap", "joint, each"),
    ({"n_boot": 0}, "n_boot", "at least 1"),
    ({"k": 0}, "k", "at least 1"),
    ({"benchmark": "squad"}, "benchmark", "aurp"),
    ({"exclude_open_domain": True}, "exclude_open_domain", "closed"),
])
def test_a_bad_value_is_one_line_naming_its_field(options, field, words):
    with pytest.raises(RagdxError) as caught:
        EvaluationConfig.build(**options)
    assert caught.value.field == field and words in caught.value.message and "\n" not in str(caught.value)


def test_a_typo_through_the_api_fails_before_any_answer_is_judged(tmp_path):
    """The repro of issue 20: with an LLM judge, a misspelt rule used to be caught only after every
    answer had been judged (each a paid call); now not one request is sent."""
    run_dir = _toy_run(tmp_path)
    with OpenAIServer() as server:
        server.reply = lambda body: "Correct"
        llm = OpenAICompatibleLLM("test-model", base_url=server.base_url, max_retries=0)
        for typo in ({"retrieval": "evidance"}, {"sets": "most"}, {"n_boot": 0}):
            with pytest.raises(RagdxError) as caught:
                ragdx.evaluate(run_dir, judge="llm", llm=llm, **typo)
            assert caught.value.field == next(iter(typo)) and "\n" not in str(caught.value)
        with pytest.raises(RagdxError, match="unknown gap rule"):
            ragdx.compare(run_dir, run_dir, judge="llm", llm=llm, gap="both")
        assert server.chat_requests == []
        assert not (run_dir / "evaluation").exists()
        # the same job spelt right asks the judge once per answered query
        result = ragdx.evaluate(run_dir, judge="llm", llm=llm, geval=False, n_boot=100, rouge=False)
        assert len(server.chat_requests) == 6 and result.queries == 6


def test_the_config_round_trips_through_the_evaluation_manifest(tmp_path):
    run_dir = _toy_run(tmp_path)
    config = EvaluationConfig.build(judge="contains", sets="any", retrieval="any", k=1, n_boot=150, seed=3,
                                    rouge=False, compare_pair=("long", "short"))
    ragdx.evaluate(run_dir, config)
    written = json.loads((run_dir / "evaluation" / "manifest.json").read_text())["config"]
    assert written == config.to_dict()
    assert written["judge"] == {"name": "contains", "sets": "any", "llm": False} and written["retrieval"] == "any"
    assert EvaluationConfig.from_dict(written) == config
    with pytest.raises(RagdxError) as caught:
        EvaluationConfig.from_dict({**written, "retreival": "all"})
    assert caught.value.field == "retreival"


def test_the_api_and_the_cli_write_equal_metrics_for_the_same_job(tmp_path):
    run_dir = _toy_run(tmp_path)
    ragdx.evaluate(run_dir, judge="exact", retrieval="any", n_boot=100, seed=7, rouge=False, out=tmp_path / "api")
    r = ragdx_cli("evaluate", str(run_dir), "-o", str(tmp_path / "cli"), "--judge", "exact", "--retrieval", "any",
                  "--boot", "100", "--seed", "7", "--no-rouge")
    assert r.returncode == 0, r.stderr
    api, cli = ({**json.loads((tmp_path / side / "metrics.json").read_text()), "output": None}
                for side in ("api", "cli"))
    assert api == cli and api["by_style"] and api["source"]["retrieval_rule"] == "any"
    manifests = [json.loads((tmp_path / side / "manifest.json").read_text())["config"] for side in ("api", "cli")]
    assert manifests[0] == manifests[1] and manifests[0]["seed"] == 7
    # the CLI names a bad value by its flag, one line, exit 2, before anything is read
    bad = ragdx_cli("evaluate", str(tmp_path / "nowhere"), "--retrieval", "evidance", "--boot", "100")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--retrieval" in bad.stderr, bad.stderr


def test_compare_returns_a_typed_comparison_and_overall_completes(tmp_path):
    run_dir = _toy_run(tmp_path)
    result = ragdx.compare(run_dir, run_dir, judge="exact", n_boot=100, out=tmp_path / "cmp")
    assert isinstance(result, Comparison)
    assert result.mode == "paired queries" and result.queries["shared"] == 6 and result.differing == []
    assert result.sentence and result.lines()[0] in result.sentence
    assert result.to_dict() == json.loads((tmp_path / "cmp" / "comparison.json").read_text())
    assert Comparison.from_dict(result.to_dict()) == result
    evaluation = ragdx.evaluate(run_dir, judge="exact", n_boot=100, rouge=False)
    overall = evaluation.overall
    assert overall is not None and set(METRIC_NAMES) <= set(dir(overall))
    assert overall.accuracy is overall.metrics["accuracy"] and overall.accuracy.value == pytest.approx(5 / 6)
