"""Open-domain queries (GRAMMAR §5.2, Table 4): a closed-book run against the project's
OpenAI-compatible test server tags the groups the model answers without retrieval."""

from __future__ import annotations

import json

import pytest
import yaml

from ragdx.demo.database import build_demo_database
from ragdx.errors import RagdxError
from ragdx.evaluate.open_domain import acc_retrieval_db, open_domain_markdown, tag_open_domain
from ragdx.evaluate.records import Judgement
from tests.support.openai_server import OpenAIServer
from tests.test_cli import ragdx


def _j(group: str, correct: bool, style: str = "short", n: int = 0) -> Judgement:
    return Judgement(id=f"{group}-{style}-{n}", group_id=group, style=style, correct=correct)


def test_tags_and_acc_retrieval_db_with_and_without():
    # RAG run: g1 and g2 answered, g3 and g4 never (gap groups); g2 answered once of two
    rag = [_j("g1", True), _j("g2", False), _j("g2", True, n=1), _j("g3", False), _j("g4", False), _j("g5", True)]
    # the model alone knows g2 and g5 (open-domain), and nothing of g1, g3, g4
    closed = [_j("g1", False), _j("g2", True), _j("g3", False), _j("g4", False), _j("g5", True),
              Judgement(id="x", group_id="g4", style="short", correct=True, error="judge failed")]
    kept, info = tag_open_domain(rag, closed)
    assert info.open_domain == ["g2", "g5"]
    assert info.acc_retrieval_db_all == pytest.approx(1 - 2 / 5)
    assert info.acc_retrieval_db_closed_domain == pytest.approx(1 - 2 / 3)
    assert info.gap_groups_closed_domain == 2 and info.closed_domain_groups == 3
    assert kept == rag
    kept, info = tag_open_domain(rag, closed, exclude=True)
    assert {j.group_id for j in kept} == {"g1", "g3", "g4"} and info.excluded
    assert acc_retrieval_db(kept)[0] == pytest.approx(1 / 3)
    md = open_domain_markdown(info)
    assert "| without open-domain queries | 0.33 | 2 | 3 |" in md
    with pytest.raises(RagdxError, match="shares no semantic group"):
        tag_open_domain(rag, [_j("other", True)])


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    root = tmp_path_factory.mktemp("od")
    db = build_demo_database(root / "uni.sqlite")
    url = f"sqlite:///{db}"
    assert ragdx("templates", "sql", "--db", url, "-o", str(root / "sql.yaml")).returncode == 0
    assert ragdx("templates", "text", "--db", url, "--sql", str(root / "sql.yaml"), "-o", str(root / "text.yaml"),
                 "--style", "short", "--n", "1").returncode == 0
    r = ragdx("gen", "--db", url, "--sql", str(root / "sql.yaml"), "--text", str(root / "text.yaml"),
              "-o", str(root / "ds"), "--max-groups-per-template", "2", "--n", "1")
    assert r.returncode == 0, r.stderr
    return root


@pytest.mark.slow
def test_closed_book_run_and_evaluate_end_to_end(dataset, tmp_path):
    records = [json.loads(line) for line in (dataset / "ds" / "records.jsonl").read_text().splitlines()]
    answers = {r["query"]: r["answer_text"] for r in records}
    # the model "knows" the answers of every other template: those groups are open-domain
    templates = sorted({r["sql_template_id"] for r in records})
    known = {r["query"] for r in records if templates.index(r["sql_template_id"]) % 2 == 0}

    def model(body):
        question = body["messages"][-1]["content"].removeprefix("Question: ")
        return answers[question] if question in known else "I don't know"

    # offline (no llm: section) there is no closed-book model: one line, exit 2, nothing written
    r = ragdx("run", "-d", str(dataset / "ds"), "-o", str(tmp_path / "cb-offline"), "--closed-book",
              cwd=tmp_path)
    assert r.returncode == 2 and "no closed-book model" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "cb-offline").exists()
    with OpenAIServer() as server:
        server.reply = model
        (tmp_path / "ragdx.yaml").write_text(yaml.safe_dump({"llm": {
            "base_url": server.base_url, "model": "tiny", "max_retries": 1, "timeout": 10,
            "cache_dir": str(tmp_path / "cache")}}))
        r = ragdx("run", "-d", str(dataset / "ds"), "-o", str(tmp_path / "cb"), "--closed-book", "--no-progress",
                  cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        assert len(server.chat_requests) == len(records)
        assert "Context" not in json.dumps(server.chat_requests[0].body)  # no retrieval, no context
    # a RAG run that answers everything except one table's queries (a knowledge-base gap)
    gap_template = templates[0]
    rows = [{"id": r["id"], "answer": r["answer_text"] if r["sql_template_id"] != gap_template else "no idea"}
            for r in records]
    (tmp_path / "rag.jsonl").write_text("".join(json.dumps(x) + "\n" for x in rows))
    r = ragdx("run", "-d", str(dataset / "ds"), "-o", str(tmp_path / "rag"), "--results", str(tmp_path / "rag.jsonl"),
              "--no-progress", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    r = ragdx("evaluate", str(tmp_path / "rag"), "--closed-book", str(tmp_path / "cb"), "--judge", "exact",
              "--boot", "100", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "without open-domain queries" in r.stdout
    metrics = json.loads((tmp_path / "rag" / "evaluation" / "metrics.json").read_text())
    od = metrics["open_domain"]  # the result's extra data is merged into metrics.json
    groups = {r["group_id"] for r in records}
    open_groups = {r["group_id"] for r in records if r["query"] in known}
    assert set(od["open_domain"]) == open_groups and od["groups"] == len(groups)
    gap_groups = {r["group_id"] for r in records if r["sql_template_id"] == gap_template}
    assert od["gap_groups_all"] == len(gap_groups)
    # the gap template is one the model knows (index 0 is even): without open-domain groups there is no gap left
    assert od["gap_groups_closed_domain"] == 0 and od["acc_retrieval_db_closed_domain"] == 1.0
    assert od["acc_retrieval_db_all"] == pytest.approx(1 - len(gap_groups) / len(groups))
    r = ragdx("evaluate", str(tmp_path / "rag"), "--closed-book", str(tmp_path / "cb"), "--judge", "exact",
              "--boot", "100", "--exclude-open-domain", "-o", str(tmp_path / "ev2"), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    excluded = json.loads((tmp_path / "ev2" / "metrics.json").read_text())
    assert excluded["queries"] == sum(r["group_id"] not in open_groups for r in records)
    r = ragdx("evaluate", str(tmp_path / "rag"), "--exclude-open-domain", "-o", str(tmp_path / "ev3"), cwd=tmp_path)
    assert r.returncode == 2 and "--closed-book" in r.stderr
