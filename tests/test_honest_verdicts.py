"""Honest verdicts: ragdx does not blame the knowledge base for what the answers show it states,
says when it cannot tell two modules apart, never blames retrieval it could not judge (ids that
match nothing, no context captured, another corpus searched), reads the ids frameworks really
use, and warns when ``--otel`` sees no retriever span. Real datasets, runs and evaluations in
tmp directories; nothing of ragdx is mocked."""

from __future__ import annotations

import json
import math

import pytest

from ragdx.evaluate import compare_paths, evaluate
from ragdx.evaluate.protocol import UNSURE, VERDICTS, ModuleVerdict
from ragdx.evaluate.runs import map_retrieved_ids
from ragdx.gen.dataset import QARecord, write_dataset
from ragdx.rag.corpus import Corpus, load_corpus
from ragdx.rag.generators import Generator
from ragdx.rag.pipeline import Pipeline
from ragdx.rag.retrievers import KeywordRetriever
from ragdx.rag.runner import run
from ragdx.rag.systems import CallableSystem

DOCS = {
    "reports/alpha.md": "| year | revenue |\n|---|---|\n| 2023 | 1,433.50 |\nAlpha Corp annual figures.",
    "reports/beta.md": "Beta Ltd was founded in 1999 in Dubai.",
    "cards/gamma.md": "# Gamma Project\nStatus: active\nBudget: 2.1m\nBudget code: GX-7",
    "cards/epsilon.md": "# Epsilon Ltd\nSector: logistics\nFounded: 2004",
    "notes/delta.txt": "Delta notes: nothing about revenue here.",
}
SPAN = {"fact": "T.revenue@1", "doc_id": "reports/alpha", "start": 40, "end": 58, "text": "| 2023 | 1,433.50 |",
        "weight": 1.0}


def rec(i: str, group: str, query: str, answer: str, *, kb: bool | None = True, basis: str = "linked",
        evidence: tuple = (), conf: float | None = 1.0, entity: tuple = (), spans: list | None = None) -> QARecord:
    return QARecord(
        id=i, group_id=group, sql_template_id="t", text_template_id="tt", style="short", schema="T", table="T",
        params={}, sql="", query=query, answer_columns=["a"], answer_rows=[[answer]], answer_text=answer,
        answer_kind="single", facts=[f"T.value@{group}"], gold_document_ids=sorted({d for s in evidence for d in s}),
        kb_supported=kb,
        evidence_sets=[list(s) for s in evidence], entity_document_ids=list(entity), kb_basis=basis,
        evidence_spans=list(spans or []), evidence_confidence=conf)


RECORDS = [
    # g1: the linker missed a fact written in a table, but one phrasing was answered from it
    rec("q1a", "g1", "What was Alpha's revenue in 2023?", "1433.5", kb=False, basis="unlinked", conf=0.0),
    rec("q1b", "g1", "Alpha Corp, 2023 revenue?", "1433.5", kb=False, basis="unlinked", conf=0.0),
    rec("q1c", "g1", "How much did Alpha earn in 2023?", "1433.5", kb=False, basis="unlinked", conf=0.0),
    # g2: not found, but the entity's card writes the value: the linker may have missed it, unsure
    rec("q2a", "g2", "What is Gamma's budget code?", "GX-7", kb=False, basis="unlinked", conf=0.0,
        entity=("cards/gamma",)),
    rec("q2b", "g2", "Gamma budget code?", "GX-7", kb=False, basis="unlinked", conf=0.0, entity=("cards/gamma",)),
    # g3: the corpus names Epsilon but nowhere writes its auditor: a knowledge-base gap
    rec("q3a", "g3", "Who audits Epsilon?", "KPMG", kb=False, basis="unlinked", conf=0.0, entity=("cards/epsilon",)),
    # g4: linked on weak evidence, not retrieved: knowledge base or retriever
    rec("q4a", "g4", "When did Gamma start?", "2021-03-01", evidence=(("cards/gamma",),), conf=0.6),
    # g5: the evidence was retrieved (as a chunk of a file path), the answer is wrong
    rec("q5a", "g5", "Alpha's revenue, 2023, in thousands?", "1433.5", evidence=(("reports/alpha",),),
        spans=[SPAN]),
    # g6: firm evidence, not retrieved
    rec("q6a", "g6", "When was Beta founded?", "1999", evidence=(("reports/beta",),)),
]

# what the system under test says and retrieves, per query (ids as a LangChain loader reports them)
ROOT = "/srv/app/corpus/"
PLAN = {
    "q1a": ("1433.5", [ROOT + "reports/alpha.md", ROOT + "reports/beta.md"]),
    "q1b": ("I don't know", [ROOT + "notes/delta.txt"]),
    "q1c": ("1200", [ROOT + "reports/alpha.md"]),
    "q2a": ("unknown", [ROOT + "notes/delta.txt"]),
    "q2b": ("unknown", [ROOT + "notes/delta.txt"]),
    "q3a": ("unknown", [ROOT + "notes/delta.txt"]),
    "q4a": ("unknown", [ROOT + "notes/delta.txt"]),
    "q5a": ("1.4", [ROOT + "reports/alpha.md#chunk-2"]),
    "q6a": ("2001", [ROOT + "notes/delta.txt"]),
}


@pytest.fixture()
def project(tmp_path):
    corpus_dir = tmp_path / "corpus"
    for name, text in DOCS.items():
        (corpus_dir / name).parent.mkdir(parents=True, exist_ok=True)
        (corpus_dir / name).write_text(text, encoding="utf-8")
    corpus = load_corpus(corpus_dir)
    assert sorted(corpus.ids) == ["cards/epsilon", "cards/gamma", "notes/delta", "reports/alpha", "reports/beta"]
    write_dataset(tmp_path / "ds", RECORDS, {"corpus": str(corpus_dir), "corpus_fingerprint": corpus.fingerprint})
    return tmp_path, corpus


def _run(tmp_path, name, answer_of):
    by_query = {r.query: r.id for r in RECORDS}
    system = CallableSystem(lambda q: answer_of(by_query[q]), name=name)
    run(system, tmp_path / "ds", tmp_path / name, progress=False)
    return evaluate(tmp_path / name, judge="exact", n_boot=50)


def _planned(qid, ids=None):
    answer, retrieved = PLAN[qid]
    return {"answer": answer, "contexts": [{"id": d, "text": "..."} for d in (ids or retrieved)]}


def _verdicts(result):
    return {v["id"]: v for v in result.verdicts}


def test_the_vocabulary_is_one_enum():
    assert [v.value for v in ModuleVerdict if v.value != "unjudged"] == list(VERDICTS)
    assert set(UNSURE) == {"kb_or_retrieval", "retrieval_or_lm", "undetermined"}
    assert ModuleVerdict.KB_OR_RETRIEVAL == "kb_or_retrieval" and ModuleVerdict.__doc__


def test_answers_overrule_the_linker_and_unsure_verdicts_say_so(project):
    tmp_path, _ = project
    result = _run(tmp_path, "sys", _planned)
    v = _verdicts(result)
    assert {k: x["verdict"] for k, x in v.items()} == {
        "q1a": "correct",
        "q1b": "retrieval_failure",   # not a kb gap: q1a was answered from reports/alpha
        "q1c": "lm_failure",          # it had reports/alpha, from which q1a was answered
        "q2a": "kb_or_retrieval", "q2b": "kb_or_retrieval",  # the corpus names Gamma: linker may have missed
        "q3a": "kb_gap",
        "q4a": "kb_or_retrieval",     # weak evidence (0.6) not retrieved
        "q5a": "lm_failure",
        "q6a": "retrieval_failure",
    }
    # q1a's context held reports/alpha and reports/beta: only alpha writes 1,433.50, so q1a was answered from it
    assert v["q1b"]["basis"] == "context_comparison" and v["q1b"]["documents"] == ["reports/alpha"]
    assert v["q1b"]["confidence"] == v["q1c"]["confidence"] == "medium"
    assert "answers show the corpus states them" in v["q1b"]["why"] and "q1a" in v["q1b"]["why"]
    assert v["q1c"]["basis"] == "group_answer_documents" and v["q1c"]["documents"] == ["reports/alpha"]
    assert v["q2a"]["basis"] == "knowledge_base_uncertain" and v["q2a"]["unsure"] and v["q2a"]["confidence"] == "low"
    assert "cards/gamma" in v["q2a"]["why"] and v["q2a"]["documents"] == ["cards/gamma"]
    # (a fact reached through a join is not doubted so: the join may be what the corpus leaves out)
    assert (v["q3a"]["basis"], v["q3a"]["confidence"], v["q3a"]["unsure"]) == ("knowledge_base", "high", False)
    assert v["q4a"]["basis"] == "weak_evidence" and "0.60" in v["q4a"]["why"]
    # the evidence the verdict rests on: the linked span of the retrieved document
    assert v["q5a"]["basis"] == "evidence" and v["q5a"]["spans"][0]["doc_id"] == "reports/alpha"
    assert v["q5a"]["spans"][0]["text"] == SPAN["text"]
    # file paths and chunks of them were mapped to the folder corpus's ids: retrieval was judged
    j = {x.id: x for x in result.judgements}
    assert j["q5a"].retrieval_correct is True and j["q6a"].retrieval_correct is False
    assert result.inputs["retrieval_reliable"] and result.inputs["id_match_share"] == 1.0
    # knowledge-base coverage counts g1 as stated: the answers show it (g1, g4, g5, g6 of six groups)
    assert result.overall.metrics["kb_coverage"].value == pytest.approx(4 / 6)
    # counted, written and shown
    b = result.blame["all"]
    assert (b.kb_gap, b.kb_or_retrieval, b.unsure, b.retrieval_failure, b.lm_failure) == (1, 3, 3, 2, 2)
    metrics = json.loads((tmp_path / "sys" / "evaluation" / "metrics.json").read_text(encoding="utf-8"))
    assert metrics["blame"]["all"]["unsure"] == 3 and metrics["blame"]["all"]["kb_or_retrieval"] == 3
    summary = (tmp_path / "sys" / "evaluation" / "summary.md").read_text(encoding="utf-8")
    assert "8 wrong answers, 3 of them with an unsure verdict" in summary
    assert "| knowledge base or retriever (unsure) (`kb_or_retrieval`) | 3 |" in summary
    assert "**unsure verdicts** | 3 of 8 wrong answers" in summary
    rows = [json.loads(line) for line in (tmp_path / "sys" / "evaluation" / "blame.jsonl").read_text().splitlines()]
    assert all({"verdict", "basis", "confidence", "why", "documents", "unsure"} <= set(r) for r in rows)


def test_no_context_captured_leaves_retrieval_unjudged(project):
    tmp_path, _ = project
    result = _run(tmp_path, "bare", lambda qid: PLAN[qid][0])  # answers only, no contexts
    assert any("no retrieved documents were captured for any of the 9 queries" in w for w in result.warnings)
    assert not result.inputs["context_captured"]
    v = _verdicts(result)
    assert not any(x["verdict"] == "retrieval_failure" for x in v.values())
    assert v["q6a"]["verdict"] == "retrieval_or_lm" and v["q6a"]["basis"] == "retrieval_unjudged_context"
    assert all(j.retrieval_correct is None for j in result.judgements)
    assert math.isnan(result.overall.metrics["retrieval_accuracy"].value)


def test_ids_that_match_nothing_are_never_blamed(project):
    tmp_path, _ = project
    uuid = "{:08x}-0000-4000-8000-{:012x}"
    ids = {qid: [uuid.format(i, i)] for i, qid in enumerate(PLAN)}
    ids["q1c"] = ids["q1a"]  # the same chunk as the correct phrasing: the reader's fault
    result = _run(tmp_path, "uuids", lambda qid: _planned(qid, ids[qid]))
    warning = next(w for w in result.warnings if "match no document" in w)
    assert "100%" in warning and "chunk/node ids" in warning and "never blamed" in warning
    v = _verdicts(result)
    assert not any(x["verdict"] == "retrieval_failure" for x in v.values())
    assert v["q6a"]["verdict"] == "retrieval_or_lm" and v["q6a"]["basis"] == "retrieval_unjudged_ids"
    assert v["q1b"]["verdict"] == "retrieval_or_lm" and "q1a" in v["q1b"]["why"]
    assert v["q1c"]["verdict"] == "lm_failure"


def test_some_unknown_ids_leave_only_those_queries_unjudged(project):
    tmp_path, _ = project
    ids = {qid: None for qid in PLAN}
    ids["q6a"] = ["reports/new-report"]  # a document the linked corpus does not have
    result = _run(tmp_path, "new-doc", lambda qid: _planned(qid, ids[qid]))
    v = _verdicts(result)
    assert v["q6a"]["verdict"] == "retrieval_or_lm" and v["q4a"]["verdict"] == "kb_or_retrieval"
    assert result.inputs["unmatched_queries"] == 1
    assert any("1 queries retrieved ids that match no document" in w for w in result.warnings)


class WholeContext(Generator):
    async def generate(self, query, contexts, ctx=None):
        return " ".join(c.text for c in contexts)


def test_a_system_that_searched_another_corpus_is_noticed(project):
    tmp_path, corpus = project
    changed = Corpus.from_texts({**{d.id: d.text for d in corpus.documents},
                                 "notes/delta": "Delta notes, rewritten after the dataset was linked."})
    assert changed.fingerprint != corpus.fingerprint
    system = Pipeline("kw", changed, retriever=KeywordRetriever(), generator=WholeContext(), top_k=1)
    run(system, tmp_path / "ds", tmp_path / "other", progress=False)
    result = evaluate(tmp_path / "other", judge="exact", n_boot=50)
    warning = next(w for w in result.warnings if "searched a different corpus" in w)
    assert changed.fingerprint[:12] in warning and corpus.fingerprint[:12] in warning
    assert "0% of the retrieved ids are unknown" in warning
    assert result.inputs["corpus_changed"] and result.inputs["run_corpus_fingerprint"] == changed.fingerprint
    v = _verdicts(result)
    assert v["q3a"]["verdict"] == "kb_or_retrieval" and "another corpus" in v["q3a"]["why"]
    assert not any(x["verdict"] in ("kb_gap", "retrieval_failure") for x in v.values())
    # compare goes through the same code: its warnings say so too
    same = Pipeline("kw", corpus, retriever=KeywordRetriever(), generator=WholeContext(), top_k=1)
    run(same, tmp_path / "ds", tmp_path / "same", progress=False)
    res = compare_paths(tmp_path / "same", tmp_path / "other", judge="exact", n_boot=50)
    assert any(w.startswith("other: the system searched a different corpus") for w in res.warnings)
    assert not any(w.startswith("same:") for w in res.warnings)


def test_file_paths_and_chunks_map_to_folder_corpus_ids():
    known = {"reports/alpha", "beta", "q1.md"}
    ids, mapped, unknown = map_retrieved_ids(
        ["/data/corpus/reports/alpha.md", "C:\\docs\\beta.txt", "file:///x/q1.md", "reports/alpha.md::3", "zzz",
         "beta"], known)
    assert ids == ["reports/alpha", "beta", "q1.md", "zzz"] and mapped == 4 and unknown == 1


def test_framework_documents_give_their_file_as_id(tmp_path):
    """The metadata keys loaders really set: LangChain ``source``, LlamaIndex ``file_path`` /
    ``file_name`` (its ref_doc_id a UUID), Haystack ``file_path`` (its id a content hash)."""
    from ragdx.rag.adapters import _hs_context, _lc_context, _li_context

    known = {"reports/alpha", "beta"}
    got = []
    lc = pytest.importorskip("langchain_core.documents")
    got.append(_lc_context(lc.Document(page_content="x", metadata={"source": "/srv/corpus/reports/alpha.md"}))["id"])
    li = pytest.importorskip("llama_index.core.schema")
    node = li.TextNode(text="x", metadata={"file_path": "/srv/corpus/beta.txt", "file_name": "beta.txt"})
    node.relationships[li.NodeRelationship.SOURCE] = li.RelatedNodeInfo(node_id="0f8fad5b-d9cb-469f-a165-70867728950e")
    got.append(_li_context(li.NodeWithScore(node=node, score=0.5))["id"])
    hs = pytest.importorskip("haystack")
    got.append(_hs_context(hs.Document(content="x", meta={"file_path": "reports/alpha.md"}))["id"])
    assert got == ["/srv/corpus/reports/alpha.md", "/srv/corpus/beta.txt", "reports/alpha.md"]
    assert map_retrieved_ids(got, known)[0] == ["reports/alpha", "beta"]
    # an explicit id still wins over the file, in the metadata or as the framework's own chosen id
    assert _lc_context(lc.Document(page_content="x", metadata={"source": "a.md", "ragdx_id": "beta"}))["id"] == "beta"
    assert _hs_context(hs.Document(id="beta", content="x", meta={"file_path": "a.md"}))["id"] == "beta"
    # a generated id with no file to fall back on is kept (and evaluate flags it as matching nothing)
    assert _hs_context(hs.Document(content="x"))["id"] == hs.Document(content="x").id


def test_otel_warns_when_no_retriever_span_is_seen(tmp_path):
    pytest.importorskip("opentelemetry.sdk", reason="opentelemetry-sdk not installed")
    records = [rec(f"o{i}", f"go{i}", f"question {i}?", "x") for i in range(6)]
    write_dataset(tmp_path / "ds", records, {})
    system = CallableSystem(lambda q: "an answer with no retriever behind it", name="plain", otel=True)
    with pytest.warns(RuntimeWarning, match="no retriever span was seen"):
        summary = run(system, tmp_path / "ds", tmp_path / "run", progress=False, concurrency=1)
    assert summary.warnings and "--otel" in summary.warnings[0]


def test_linked_evidence_that_a_correct_answer_did_without_is_not_the_last_word():
    from ragdx.evaluate.protocol import blame
    from ragdx.evaluate.records import Judgement

    def j(i, correct, docs, ret):
        return Judgement(id=i, group_id="g", style="short", correct=correct, retrieval_correct=ret,
                         retrieved_ids=list(docs), gold_ids=["beta"], kb_supported=True, evidence_sets=[["beta"]],
                         kb_basis="linked", evidence_confidence=1.0)

    js = [j("a", True, ["gamma"], False),            # answered without the linked document
          j("b", False, ["gamma", "delta"], False),  # had gamma too: the reader's fault, on low confidence
          j("c", False, ["delta"], False)]           # had neither: the retriever's, on medium confidence
    v = {x["id"]: x for x in blame(js)}
    assert (v["b"]["verdict"], v["b"]["basis"], v["b"]["confidence"]) == ("lm_failure", "group_answer_documents", "low")
    assert (v["c"]["verdict"], v["c"]["confidence"]) == ("retrieval_failure", "medium")
    assert "may be incomplete" in v["c"]["why"]
    # with the linked document in the correct answer's context, the evidence rule stands as it was
    js[0] = j("a", True, ["beta", "gamma"], True)
    v = {x["id"]: x for x in blame(js)}
    assert (v["b"]["verdict"], v["b"]["confidence"]) == ("retrieval_failure", "high")


def test_a_value_on_a_joined_entitys_page_does_not_doubt_a_gap(tmp_path):
    """'The city of the customer of order 10517': the customer's page writes the city, but which
    customer placed the order is what the corpus leaves out — still a knowledge-base gap."""
    from ragdx.evaluate.runs import _value_seen_in

    texts = {"crm/norts": "# Customer record\nCustomer ID: NORTS\nCity: London", "crm/quick": "Quantity: 12"}
    joined = rec("j1", "gj", "In which city is the customer of order 10517 based?", "London", kb=False,
                 basis="unlinked", entity=("crm/norts",))
    joined.facts = ["Customers.City@NORTS", "Orders.CustomerID@10517"]
    single = rec("j2", "gs", "In which city is North/South based?", "London", kb=False, basis="unlinked",
                 entity=("crm/norts",))
    single.facts = ["Customers.City@NORTS"]
    assert _value_seen_in(joined, texts, {}) == [] and _value_seen_in(single, texts, {}) == ["crm/norts"]
    # a value too plain to tell (a zero discount, a one-digit number) is no sign either
    plain = rec("j3", "gp", "Discount?", "0.0", kb=False, basis="unlinked", entity=("crm/quick",))
    plain.facts = ["Order Details.Discount@1"]
    assert _value_seen_in(plain, {"crm/quick": "Discount: 0.00"}, {}) == []
