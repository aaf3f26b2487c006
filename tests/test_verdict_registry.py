"""A verdict of module blame has one home, ``ragdx.evaluate.verdicts``: a verdict declared there
alone (plus the rule that assigns it) is counted in ``metrics.json``, named in ``summary.md``,
and drawn, tabled and weighed in the report; the built-in verdicts' counts keep their keys and
order (so every existing ``metrics.json`` is what it was)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragdx.evaluate import verdicts as registry
from ragdx.evaluate.protocol import UNSURE, VERDICT_LABELS, VERDICTS, ModuleVerdict, blame_counts
from ragdx.evaluate.results import BlameCounts

#: the keys every metrics.json has written per style since the unsure verdicts (their order included)
BUILT_IN_KEYS = ["total", "correct", "kb_gap", "retrieval_failure", "lm_failure", "kb_or_retrieval",
                 "retrieval_or_lm", "undetermined", "unjudged", "unsure", "low_confidence", "by_basis"]

TEMPORARY = registry.VerdictSpec("format_failure", "answer-format failure", registry.MODULE, "#123456",
                                 "answer formatter", "the facts are right and the answer is written so that no one "
                                 "can read them", always=False)


@pytest.fixture
def temporary_verdict():
    """The temporary verdict, declared before the unsure ones (after history handling) and removed after."""
    registry.register(TEMPORARY, before="kb_or_retrieval")
    yield TEMPORARY
    registry.unregister(TEMPORARY.name)


def _row(i: int, verdict: str, style: str = "short") -> dict:
    return {"id": f"q{i}", "group_id": f"g{i}", "style": style, "verdict": verdict, "basis": "test",
            "confidence": "high", "why": f"{verdict} why"}


def test_the_built_in_vocabulary_is_read_from_the_registry():
    assert list(VERDICTS) == ["correct", "kb_gap", "retrieval_failure", "lm_failure", "kb_or_retrieval",
                              "retrieval_or_lm", "undetermined"]
    assert UNSURE == ("kb_or_retrieval", "retrieval_or_lm", "undetermined")
    assert VERDICT_LABELS["history_failure"] == "history-handling failure"
    from ragdx.evaluate.conversations import HISTORY_FAILURE

    assert registry.REGISTRY[HISTORY_FAILURE].module == "history handling"
    assert all(v.value in registry.REGISTRY for v in ModuleVerdict)
    # every verdict blaming a module says which and what fixing it means
    for spec in registry.REGISTRY.values():
        assert spec.colour.startswith("#") and spec.label
        assert (spec.kind == registry.MODULE) == bool(spec.module and spec.fix), spec


def test_counts_keep_their_keys_and_show_history_handling_only_where_a_query_got_it():
    counts = blame_counts([_row(0, "correct"), _row(1, "lm_failure")])
    assert list(counts) == BUILT_IN_KEYS
    assert list(BlameCounts.from_dict(counts).to_dict()) == BUILT_IN_KEYS
    # a dataset with conversations: history handling counted in its place (issue 20's known gap),
    # and in a style none of whose queries got it when the evaluation's verdicts are given
    rows = [_row(0, "history_failure"), _row(1, "lm_failure", "long")]
    counts = blame_counts(rows)
    assert list(counts)[:6] == ["total", "correct", "kb_gap", "retrieval_failure", "lm_failure", "history_failure"]
    assert counts["history_failure"] == 1
    long = blame_counts([r for r in rows if r["style"] == "long"], {r["verdict"] for r in rows})
    assert long["history_failure"] == 0
    back = BlameCounts.from_dict(counts)
    assert back["history_failure"] == back.get("history_failure") == 1 and back.to_dict() == counts
    assert BlameCounts()["history_failure"] == 0


def test_registration_is_checked():
    with pytest.raises(ValueError, match="names its module"):
        registry.register(registry.VerdictSpec("x_failure", "x", registry.MODULE, "#000000"))
    with pytest.raises(ValueError, match="kind 'maybe'"):
        registry.register(registry.VerdictSpec("x_failure", "x", "maybe", "#000000"))
    assert "x_failure" not in registry.REGISTRY


def test_a_verdict_counted_everywhere_has_its_zeros(temporary_verdict):
    registry.register(registry.VerdictSpec("y_failure", "y failure", registry.MODULE, "#654321", "y", "fix y"))
    try:
        counts = blame_counts([_row(0, "correct")])
        assert counts["y_failure"] == 0 and "format_failure" not in counts
        assert list(counts)[-5:] == ["y_failure", "unjudged", "unsure", "low_confidence", "by_basis"]
    finally:
        registry.unregister("y_failure")


def _run(tmp_path: Path) -> Path:
    """A callable system over the demo dataset (two styles): right for most questions, a wrong
    answer from the gold documents for every fifth, so blame names the language model."""
    import ragdx
    from ragdx.demo.database import build_demo_database
    from ragdx.demo.run import DEMO_OMIT, DEMO_OMIT_TABLES
    from ragdx.gen.dataset import read_records
    from ragdx.gen.options import gen_options
    from ragdx.kb.render import read_documents

    url = f"sqlite:///{build_demo_database(tmp_path / 'demo.sqlite')}"
    options = gen_options(None, {"styles": ["short", "long"], "n": 1, "max_groups_per_template": 2})
    ragdx.generate_dataset(url, tmp_path / "dataset", options, kb=tmp_path / "kb", omit=DEMO_OMIT,
                           omit_tables=DEMO_OMIT_TABLES)
    records = read_records(tmp_path / "dataset")
    corpus = {d.id: d.text for d in read_documents(tmp_path / "kb")}
    by_query = {r.query: (i, r) for i, r in enumerate(records)}

    def system(query: str) -> dict:
        i, r = by_query[query]
        gold = sorted({d for e in r.evidence_sets for d in e})
        answer = "It is written somewhere, in some form." if i % 5 == 0 else f"{r.answer_text}."
        return {"answer": answer, "contexts": [{"id": d, "text": corpus.get(d, "")} for d in gold]}

    ragdx.run(system, tmp_path / "dataset", tmp_path / "run", progress=False, probe=False)
    return tmp_path / "run"


def test_a_verdict_declared_in_the_registry_alone_is_counted_summarised_and_reported(tmp_path, monkeypatch,
                                                                                      temporary_verdict):
    import ragdx
    from ragdx.evaluate import report as evaluation

    run_dir = _run(tmp_path)
    real_blame = evaluation.blame

    def blame_with_the_new_rule(judgements, *args, **kwargs):
        # the new verdict's rule: the short style's language-model failures are the formatter's
        rows = real_blame(judgements, *args, **kwargs)
        for row in rows:
            if row["verdict"] == "lm_failure" and row["style"] == "short":
                row.update(verdict=TEMPORARY.name, basis="format", why="written so that no one can read it")
        return rows

    monkeypatch.setattr(evaluation, "blame", blame_with_the_new_rule)
    result = ragdx.evaluate(run_dir, n_boot=50)
    metrics = json.loads((run_dir / "evaluation" / "metrics.json").read_text(encoding="utf-8"))
    blamed = metrics["blame"]
    n = blamed["all"][TEMPORARY.name]
    assert n > 0 and blamed["short"][TEMPORARY.name] == n and blamed["long"][TEMPORARY.name] == 0
    assert blamed["long"]["lm_failure"] > 0 and blamed["short"]["lm_failure"] == 0
    # in the registry's place: after history handling's (absent here), before the unsure ones
    keys = list(blamed["all"])
    assert keys.index("lm_failure") + 1 == keys.index(TEMPORARY.name) == keys.index("kb_or_retrieval") - 1
    assert result.blame["all"][TEMPORARY.name] == n
    summary = (run_dir / "evaluation" / "summary.md").read_text(encoding="utf-8")
    assert f"| answer-format failure (`{TEMPORARY.name}`) | {n} |" in summary
    html = Path(ragdx.report(run_dir, tmp_path / "report.html", n_boot=50)).read_text(encoding="utf-8")
    assert html.count("answer-format failure") >= 4  # table head, chart legend, diagnosis bar, failure filter
    assert 'style="background:#123456">answer-format failure</span>' in html
    assert f'<option value="{TEMPORARY.name}">answer-format failure</option>' in html
    assert "answer formatter" in html  # weighed by the diagnosis like every module
    md = Path(ragdx.report(run_dir, tmp_path / "report.md", n_boot=50)).read_text(encoding="utf-8")
    assert f"| answer-format failure (queries) | {n} |" in md


def test_a_dataset_with_conversations_counts_history_handling_in_every_style(tmp_path):
    """Issue 20's known gap: metrics.json's per-style blame had no history_failure key (the
    verdicts of a style did not sum to its total). benchmarks/conversations_blame.py's system,
    which ignores the history at a known rate, run and evaluated by ragdx."""
    import importlib.util
    import sys

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "conversations_blame.py"
    spec = importlib.util.spec_from_file_location("conversations_blame", path)
    bench = importlib.util.module_from_spec(spec)
    sys.modules["conversations_blame"] = bench
    spec.loader.exec_module(bench)
    dataset, records, corpus = bench.make_dataset(tmp_path, per_walk=3)
    system = bench.ConversationalSystem(records, corpus, bench.Plan(seed=5))
    truth = bench.truth_of(system, records)
    bench.diagnose(dataset, system, tmp_path / "run")
    blamed = json.loads((tmp_path / "run" / "evaluation" / "metrics.json").read_text(encoding="utf-8"))["blame"]
    injected = sum(t == "history_failure" for t in truth.values())
    assert injected >= 15 and blamed["all"]["history_failure"] == injected
    for style, counts in blamed.items():
        verdicts = [k for k in registry.shown(counts) if k in counts]
        assert sum(counts[k] for k in verdicts) + counts["unjudged"] == counts["total"], style
    assert sum(counts["history_failure"] for style, counts in blamed.items() if style != "all") == injected
    summary = (tmp_path / "run" / "evaluation" / "summary.md").read_text(encoding="utf-8")
    assert f"| history-handling failure (`history_failure`) | {injected} |" in summary
    # the report counts it too: its verdict table, and per SQL template (where it was counted as unjudged)
    from ragdx.report.data import build_report

    data = build_report([tmp_path / "run"], n_boot=20)
    assert "history_failure" in data["verdicts"] and data["systems"][0]["blame_all"]["history_failure"] == injected
    per_template = data["systems"][0]["per_template"]
    assert sum(r["verdicts"]["history_failure"] for r in per_template) == injected
    assert sum(r["verdicts"]["unjudged"] for r in per_template) == 0
