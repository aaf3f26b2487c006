"""LLM-based evaluation against the project's real OpenAI-compatible test server: the paper's
judge prompt, the cascade's LLM stage and its cache, the reference-free evaluators' reliability
table, G-Eval; plus the lab's text metrics (hit rate, MRR, ROUGE-L, BERTScore, confusion)."""

from __future__ import annotations

import json
import re

import pytest

from ragdx.evaluate import CascadeJudge, JudgeItem, LLMJudge, VerdictCache
from ragdx.evaluate.reliability import RFItem, reliability, reliability_markdown
from ragdx.evaluate.text_metrics import (
    BERTSCORE_NOTE,
    BERTScorer,
    geval,
    hit_rate,
    mrr,
    rag_confusion,
    rag_confusion_table,
    rouge_l,
)
from ragdx.llm import OpenAICompatibleLLM
from tests.support.openai_server import OpenAIServer


def _words(text):
    return set(re.findall(r"\w+", text.casefold()))


def scripted(body):
    """A deterministic stand-in model that follows the prompts' formats."""
    msgs = body["messages"]
    user = msgs[-1]["content"]
    if user.startswith("Evaluate the accuracy of the given response"):
        true = re.search(r"##True Answer##: (.*)", user).group(1)
        given = re.search(r"##Given Response##: (.*)", user).group(1)
        return "Correct" if true.split("-")[0] in given else "Incorrect"
    if user.startswith("Given a question and an answer, break the answer"):
        answer = re.search(r"answer: (.*)\nstatements:", user, re.S).group(1)
        return "\n".join(f"- {s.strip()}" for s in answer.split(".") if s.strip())
    if user.startswith("Natural language inference"):
        context = re.search(r"context: (.*)\nstatement:", user, re.S).group(1)
        statement = re.search(r"statement: (.*)\nverdict:", user, re.S).group(1)
        # optimistic: any shared word counts as support (the bias §3 measures)
        return "Yes (1)" if _words(statement) & _words(context) - {"the", "is", "of"} else "No (0)"
    if msgs[0]["role"] == "system":  # a sampled answer: the context's first sentence
        context = re.search(r"Context:\n(.*?)\n\nQuestion", user, re.S).group(1)
        return context.split(".")[0] + "."
    if user.startswith("Query:"):
        a = re.search(r"Answer A: (.*)\nAnswer B:", user, re.S).group(1)
        b = re.search(r"Answer B: (.*)\nDo both", user, re.S).group(1)
        return "Yes" if a.strip().rstrip(".") == b.strip().rstrip(".") else "No"  # cynical
    if user.startswith("You will be given a question"):
        return "Score: 5" if "Paris" in user.split("Answer:")[-1] else "2"
    return "?"


@pytest.fixture
def server():
    with OpenAIServer() as s:
        s.reply = scripted
        yield s


def test_llm_judge_uses_the_papers_prompt_and_the_cache(server, tmp_path):
    llm = OpenAICompatibleLLM("test-model", base_url=server.base_url)
    judge = LLMJudge(llm)
    cache = VerdictCache(tmp_path / "verdicts.sqlite")
    items = [JudgeItem.from_text("start of X?", "2023-03-01", "In spring 2023."),
             JudgeItem.from_text("start of X?", "2023-03-01", "In autumn 2021.")]
    verdicts = judge.judge_many(items, cache=cache)
    assert [v.correct for v in verdicts] == [True, False]
    sent = [r.body for r in server.chat_requests]
    assert len(sent) == 2 and all(b["temperature"] == 0 for b in sent)
    assert "##True Answer##: 2023-03-01" in sent[0]["messages"][0]["content"]
    again = judge.judge_many(items, cache=cache)
    assert all(v.cached for v in again) and len(server.chat_requests) == 2
    # the cascade only asks about what the cheap judges cannot decide
    cascade = CascadeJudge(LLMJudge(llm))
    more = [JudgeItem.from_text("q", "Paris", "It is Paris."), JudgeItem.from_text("q", "2023-03-01", "Spring 2023")]
    assert [v.judge for v in cascade.judge_many(more)] == ["cascade:contains", "cascade:llm"]
    assert len(server.chat_requests) == 3


def test_reliability_table_of_the_reference_free_evaluators(server):
    llm = OpenAICompatibleLLM("test-model", base_url=server.base_url)
    paris = "Paris is the capital of France. It lies on the Seine."
    items = [
        RFItem("1", "capital of France?", "Paris is the capital of France.", paris, True),       # TP / TP
        RFItem("2", "capital of France?", "Lyon.", paris, False),                                 # TN / TN
        RFItem("3", "capital of France?", "Marseille is the capital of France.", paris, False),  # FP / TN
        RFItem("4", "capital of Italy?", "Rome.", "Rome is the capital of Italy.", True),         # TP / FN
    ]
    result = reliability(items, llm, threshold=0.5, n_samples=4)
    ragas, selfcheck = result["evaluators"]["RAGAS-Fact"], result["evaluators"]["SelfCheck-QA"]
    assert (ragas["tp"], ragas["fp"], ragas["fn"], ragas["tn"]) == (2, 1, 0, 1)
    assert ragas["precision"] == pytest.approx(2 / 3) and ragas["recall"] == 1.0
    assert (selfcheck["tp"], selfcheck["fp"], selfcheck["fn"], selfcheck["tn"]) == (1, 0, 1, 2)
    assert selfcheck["recall"] == 0.5
    lo, hi = ragas["precision_ci"]
    assert 0 < lo < 2 / 3 < hi < 1
    bodies = [r.body for r in server.chat_requests]
    samples = [b for b in bodies if b["messages"][0]["role"] == "system"]
    assert len(samples) == 4 * 4 and all(b["temperature"] == 1 for b in samples)
    assert all(b["temperature"] == 0 for b in bodies if b not in samples)
    table = reliability_markdown(result)
    assert "| RAGAS-Fact | 67% (" in table and "test-model" in table


def test_geval_and_the_rag_confusion_matrix(server):
    llm = OpenAICompatibleLLM("test-model", base_url=server.base_url)
    items = [("capital?", "Paris is the capital.", "Paris"), ("capital?", "Paris is the capital.", "Lyon"),
             ("capital?", "Rome is the capital.", "Paris"), ("capital?", "", None)]
    scores = geval(llm, items)
    assert [s["relevance"] for s in scores] == [5, 2, 5, 1]
    match = [True, True, False, False]
    table = rag_confusion_table(match, {c: [s[c] for s in scores] for c in scores[0]},
                                truth=[True, False, False, False], threshold=5)
    assert table["faithfulness"] == {"TP": 1, "FN": 1, "FP": 1, "TN": 1}
    assert table["ground truth"] == {"TP": 1, "FN": 1, "FP": 0, "TN": 2}
    assert rag_confusion([True], [True]) == {"TP": 1, "FN": 0, "FP": 0, "TN": 0}


def test_hit_rate_mrr_rouge():
    gold = [["a"], ["b"], ["c"], []]
    retrieved = [["a", "x"], ["x", "b"], ["x", "y"], ["z"]]
    assert hit_rate(gold, retrieved, k=1) == pytest.approx(1 / 3)
    assert hit_rate(gold, retrieved, k=2) == pytest.approx(2 / 3)
    assert mrr(gold, retrieved) == pytest.approx((1 + 0.5 + 0) / 3)
    r = rouge_l(["the cat sat on the mat", "abc"], ["the cat sat on a mat", "xyz"])
    assert r[0] == pytest.approx(5 / 6) and r[1] == 0.0


def test_bertscore_on_the_packaged_minilm():
    scorer = BERTScorer()
    s = scorer.score(["The project starts in January 2023.", "The capital of France is Paris."],
                     ["The project starts in January 2023.", "Bananas are yellow fruit."])
    assert s["f1"][0] == pytest.approx(1.0, abs=1e-4)
    assert s["f1"][1] < 0.8
    assert "not the paper's" in s["note"] and s["note"] == BERTSCORE_NOTE


def _toy_run(tmp_path):
    """A small run on disk: three capitals, one wrong answer with the right context."""
    from ragdx.gen.dataset import QARecord, write_dataset
    from ragdx.rag.runner import run
    from ragdx.rag.systems import CallableSystem

    facts = [("France", "Paris"), ("Italy", "Rome"), ("Spain", "Madrid")]
    records = [QARecord(id=f"g{g}-{s}", group_id=f"g{g}", sql_template_id="s", text_template_id=s, style=s,
                        schema="Country", table="Country", params={}, sql="", query=q, answer_columns=["Capital"],
                        answer_rows=[[city]], answer_text=city, answer_kind="single",
                        gold_document_ids=[f"d-{city}"], kb_supported=True, evidence_sets=[[f"d-{city}"]])
               for g, (country, city) in enumerate(facts)
               for s, q in (("short", f"capital of {country}"), ("long", f"What is the capital city of {country}?"))]
    write_dataset(tmp_path / "ds", records, {"knowledge_base": None})

    def system(query):
        country, city = next((c, t) for c, t in facts if c in query)
        answer = "Lyon" if country == "France" and query.startswith("What") else city
        return {"answer": answer, "contexts": [{"id": f"d-{city}", "text": f"{city} is the capital of {country}."}]}

    run(CallableSystem(system, name="toy"), tmp_path / "ds", tmp_path / "run", progress=False)
    return tmp_path / "run"


def test_geval_criteria_in_evaluate_outputs(server, tmp_path):
    """With an LLM, evaluate puts the four G-Eval criteria and a confusion matrix per criterion into
    metrics.json, summary.md and geval.jsonl; a failed call is counted, not made up."""
    from ragdx.evaluate import evaluate

    run_dir = _toy_run(tmp_path)
    llm = OpenAICompatibleLLM("test-model", base_url=server.base_url, max_retries=0)
    result = evaluate(run_dir, judge="exact", llm=llm, n_boot=50)
    g = result.extra["geval"]
    assert set(g["criteria"]) == {"relevance", "coherence", "fluency", "faithfulness"}
    # the scripted model gives 5 to answers naming Paris, 2 to the rest
    assert all(c["scored"] == 6 and c["failed"] == 0 for c in g["criteria"].values())
    assert g["criteria"]["relevance"]["mean"] == pytest.approx((5 + 2 * 5) / 6)
    assert g["confusion"]["relevance"] == {"TP": 1, "FN": 5, "FP": 0, "TN": 0}
    assert g["confusion"]["ground truth"] == {"TP": 5, "FN": 1, "FP": 0, "TN": 0}
    metrics = json.loads((run_dir / "evaluation" / "metrics.json").read_text(encoding="utf-8"))
    assert metrics["geval"]["criteria"]["faithfulness"]["scored"] == 6
    assert "## LLM criteria (G-Eval" in (run_dir / "evaluation" / "summary.md").read_text(encoding="utf-8")
    scores = [json.loads(x) for x in (run_dir / "evaluation" / "geval.jsonl").read_text().splitlines()]
    assert len(scores) == 6 and {s["relevance"] for s in scores} == {2, 5}
    # every call fails: nothing is scored, everything is counted as failed
    server.reply = lambda body: (_ for _ in ()).throw(RuntimeError("down"))
    result = evaluate(run_dir, judge="exact", llm=llm, n_boot=50, cache=None)
    assert all(c["scored"] == 0 and c["failed"] == 6 for c in result.extra["geval"]["criteria"].values())


def test_annotate_sheet_and_agreement_with_people(tmp_path):
    import csv

    from ragdx.errors import RagdxError
    from ragdx.evaluate import evaluate
    from ragdx.evaluate.annotate import human_agreement, write_sheet

    run_dir = _toy_run(tmp_path)
    evaluate(run_dir, judge="exact", n_boot=50)
    info = write_sheet(run_dir, tmp_path / "sheet", n=4, seed=1)
    assert info["rows"] == 4
    html = (tmp_path / "sheet" / "ratings.html").read_text(encoding="utf-8")
    assert "Save as CSV" in html and "http" not in html.split("<body>")[1].split("<script>")[0]
    with open(tmp_path / "sheet" / "ratings.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert "human_correct" in rows[0] and "verdict" not in " ".join(rows[0])  # blind: no ragdx verdict
    # people: right answers are right, except that they also reject one the judge accepted
    for i, row in enumerate(rows):
        right = row["response"] == row["true_answer"]
        row["human_correct"] = "yes" if right and i != 0 else "no"
        row["relevance"] = "4" if right else "1"
    with open(tmp_path / "rated.csv", "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    result = human_agreement(run_dir, tmp_path / "rated.csv")
    (a,) = result["correctness"].values()
    assert a["n"] == 4 and a["agree"] == (3 if rows[0]["response"] == rows[0]["true_answer"] else 4)
    assert result["criteria"]["relevance"]["n"] == 4 and "llm_mean" not in result["criteria"]["relevance"]
    rows[1]["human_correct"] = "perhaps"
    with open(tmp_path / "bad.csv", "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    with pytest.raises(RagdxError, match="human_correct must be yes or no"):
        human_agreement(run_dir, tmp_path / "bad.csv")
