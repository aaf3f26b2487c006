"""Issue 22 item 4: the kinds of question people ask (lists, counts, totals, extremes,
comparisons, time ranges), each generated on the demo and on Northwind and every answer checked
against the truth worked out by hand (tests/support/kind_truth.py: whole tables read with
``SELECT *``, the answer computed in Python, the links written out from each DDL), on SQLite and,
where the servers answer, PostgreSQL and MariaDB."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from ragdx.db import connect, inspect_schema
from ragdx.demo.database import build_demo_database
from ragdx.errors import RagdxError
from ragdx.evaluate.judges import ContainmentJudge, ExactMatchJudge
from ragdx.evaluate.records import JudgeItem
from ragdx.gen.dataset import read_records
from ragdx.gen.kinds import COMPLETENESS_KINDS, LIST_MAX, kind_records, kind_templates
from ragdx.gen.options import gen_options
from ragdx.gen.verbalise import BUILTIN_STYLES
from tests.conftest import need
from tests.support.copy_sqlite import copy_sqlite
from tests.support.kind_truth import DEMO_LINKS, NORTHWIND_LINKS, Tables, check

KINDS = ("list", "count", "total", "extreme", "comparison", "time_range")
NORTHWIND = Path(__file__).resolve().parents[2] / "shared" / "data" / "northwind" / "northwind.sqlite"


def _source(name: str, tmp_path: Path) -> tuple[Path, dict]:
    if name == "demo":
        return build_demo_database(tmp_path / "demo.sqlite"), DEMO_LINKS
    return need(NORTHWIND), NORTHWIND_LINKS


def _url(engine_kind: str, path: Path, request) -> str:
    if engine_kind == "sqlite":
        return f"sqlite:///{path}"
    url = request.getfixturevalue("pg_databases" if engine_kind == "postgresql" else "mysql_databases").new()
    copy_sqlite(path, url)
    return url


@pytest.mark.slow
@pytest.mark.parametrize("engine_kind", ["sqlite", "postgresql", "mysql"])
@pytest.mark.parametrize("database", ["demo", "northwind"])
def test_every_kind_is_asked_and_every_answer_is_the_hand_worked_truth(database, engine_kind, tmp_path, request):
    path, links = _source(database, tmp_path)
    engine = connect(_url(engine_kind, path, request))
    schema = inspect_schema(engine)
    signature = {t.id: t.signature for t in kind_templates(schema)}
    records, _ = kind_records(engine, schema, KINDS, ["interrogative"], 25, 0)
    per_kind = Counter(r.question_kind for r in records)
    assert set(per_kind) == set(KINDS), per_kind
    wrong = check(Tables(engine, links), records, signature.__getitem__)
    engine.dispose()
    assert wrong == [], f"{len(wrong)} of {len(records)} wrong, e.g. {wrong[:3]}"
    if engine_kind != "sqlite":  # one database on another engine asks the same questions, same answers
        local = connect(f"sqlite:///{path}")
        same, _ = kind_records(local, inspect_schema(local), KINDS, ["interrogative"], 25, 0)
        local.dispose()
        assert [(r.query, r.answer_rows) for r in records] == [(r.query, r.answer_rows) for r in same]


@pytest.fixture(scope="module")
def demo_records(tmp_path_factory):
    path = build_demo_database(tmp_path_factory.mktemp("kinds") / "demo.sqlite")
    engine = connect(f"sqlite:///{path}")
    records, counts = kind_records(engine, inspect_schema(engine), KINDS, None, 25, 0)
    engine.dispose()
    return records, counts


def test_each_kind_is_worded_in_every_built_in_style(demo_records):
    records, _ = demo_records
    styles = {(r.question_kind, r.style) for r in records}
    assert styles == {(k, s) for k in KINDS for s in BUILTIN_STYLES}
    for r in records:
        assert "{" not in r.query and "[" not in r.query, r.query
        if r.style == "long":
            assert len(r.query.split()) >= 30, r.query
        if r.style == "interrogative":
            assert r.query.endswith("?"), r.query


def test_lists_are_sets_and_ties_at_an_extreme_are_answer_sets(demo_records):
    records, counts = demo_records
    lists = [r for r in records if r.question_kind == "list"]
    assert all(1 <= len(r.answer_rows) <= LIST_MAX for r in lists)
    assert all(len({tuple(row) for row in r.answer_rows}) == len(r.answer_rows) for r in lists)
    assert any(r.answer_kind == "multi" for r in lists)
    # "Which course has the fewest credits?": three courses tie at 3 credits, all three are the answer
    lowest = [r for r in records if r.query == "Which course has the fewest credits?"]
    assert lowest and len(lowest[0].answer_rows) > 1 and lowest[0].answer_kind == "multi"
    # a comparison is one row; ties are dropped and counted
    assert all(len(r.answer_rows) == 1 for r in records if r.question_kind == "comparison")


def test_a_kind_records_round_trip_through_the_dataset_files(tmp_path):
    path = build_demo_database(tmp_path / "demo.sqlite")
    import ragdx

    options = gen_options(None, {"kinds": ["lookup", *KINDS]})
    out = ragdx.generate_dataset(f"sqlite:///{path}", tmp_path / "ds", options, kb=tmp_path / "kb")
    back = read_records(out / "records.parquet")
    lines = [json.loads(line) for line in (out / "records.jsonl").open()]
    assert [r.to_dict() for r in read_records(out)] == lines
    assert {r.question_kind for r in back} == {"lookup", *KINDS}
    by_kind = Counter(r.question_kind for r in back)
    # balanced: no kind is more than half of the non-look-up records
    assert max(by_kind[k] for k in KINDS) < sum(by_kind[k] for k in KINDS) / 2, by_kind
    for r in back:
        if r.question_kind in COMPLETENESS_KINDS:
            # every row's fact is stated, but not that no other row belongs: undecided, never True
            assert r.kb_supported is not True, r.query
        elif r.question_kind == "comparison":
            assert r.kb_supported is True and len(r.facts) >= 2


def test_a_table_left_out_of_the_knowledge_base_is_a_certain_gap(tmp_path):
    path = build_demo_database(tmp_path / "demo.sqlite")
    import ragdx

    options = gen_options(None, {"kinds": list(KINDS)})
    out = ragdx.generate_dataset(f"sqlite:///{path}", tmp_path / "ds", options, kb=tmp_path / "kb",
                                 omit_tables=["Teaching"])
    through = [r for r in read_records(out) if any(f.startswith("Teaching.") for f in r.facts)]
    assert through and all(r.kb_supported is False for r in through)


def test_the_default_asks_look_ups_only_and_a_bad_kind_is_one_line(tmp_path):
    from ragdx.config import load_config

    assert gen_options(None, {}).kinds == ("lookup",)
    (tmp_path / "ragdx.yaml").write_text("gen:\n  kinds: [lookup, count, time_range]\n", encoding="utf-8")
    assert gen_options(load_config(tmp_path / "ragdx.yaml")).kinds == ("lookup", "count", "time_range")
    with pytest.raises(RagdxError) as err:
        gen_options(None, {"kinds": ["lookup", "average"]})
    assert "average" in str(err.value) and "time_range" in str(err.value)
    with pytest.raises(RagdxError):
        gen_options(None, {"kinds": "count"})


def _item(rows, response, query="q") -> JudgeItem:
    return JudgeItem(query=query, answer_rows=rows, response=response,
                     answer_kind="multi" if len(rows) > 1 else "single")


@pytest.mark.parametrize("judge", [ExactMatchJudge(), ContainmentJudge()], ids=["exact", "contains"])
def test_a_list_is_judged_as_a_set_and_a_count_as_a_number_in_any_common_form(judge):
    products = [["Flotemysost"], ["Steeleye Stout"]]
    assert judge.judge(_item(products, "Steeleye Stout, Flotemysost")).correct
    assert not judge.judge(_item(products, "Steeleye Stout")).correct
    assert judge.judge(_item([[12]], "12")).correct
    assert judge.judge(_item([[12]], "twelve")).correct
    assert not judge.judge(_item([[12]], "13")).correct
    # a count of nothing said as people say it, but not a reply that declines or names a number
    for said in ("0", "None.", "There are no orders.", "zero"):
        assert judge.judge(_item([[0]], said)).correct, said
    for said in ("There is no record of that.", "No, there are three.", "I do not know."):
        assert not judge.judge(_item([[0]], said)).correct, said
    if isinstance(judge, ContainmentJudge):
        assert judge.judge(_item([[12]], "The customer placed 12 orders.")).correct
        assert judge.judge(_item(products, "There were two: Flotemysost and Steeleye Stout.")).correct


@pytest.mark.slow
def test_evidence_linked_in_a_corpus_never_makes_a_set_supported():
    """Northwind's own documents: a list's or count's every fact may be found, but no document says
    no other row belongs, so such records are None or False; a comparison can be True."""
    from ragdx.kb.link import link_dataset
    from ragdx.rag.corpus import load_corpus

    docs = need(NORTHWIND.parent / "corpus" / "docs")
    engine = connect(f"sqlite:///{NORTHWIND}")
    schema = inspect_schema(engine)
    records, _ = kind_records(engine, schema, KINDS, ["interrogative"], 10, 0)
    linked = link_dataset(engine, schema, records, load_corpus(docs), progress=False).records
    engine.dispose()
    supported = Counter((r.question_kind, r.kb_supported) for r in linked)
    assert not any(supported[(k, True)] for k in COMPLETENESS_KINDS), supported
    assert supported[("comparison", True)] > 0 and supported[("list", None)] > 0, supported


def test_ragdx_yaml_knows_the_same_kinds_as_the_generator():
    import typing

    from ragdx.config import GenConfig
    from ragdx.gen.options import QUESTION_KINDS

    annotation = GenConfig.model_fields["kinds"].annotation
    (listed,) = [a for a in typing.get_args(annotation) if a is not type(None)]
    assert typing.get_args(typing.get_args(listed)[0]) == QUESTION_KINDS


def test_the_kinds_are_asked_from_the_command_line_and_by_keyword(tmp_path):
    """``ragdx gen --kind`` and ``generate_dataset(kinds=...)`` ask the same kinds; a bad kind is one
    line naming the flag (or the keyword), exit 2, and nothing is written."""
    from typer.testing import CliRunner

    import ragdx
    from ragdx.cli.main import app

    url = f"sqlite:///{build_demo_database(tmp_path / 'demo.sqlite')}"
    runner = CliRunner()
    sql, text = tmp_path / "sql.yaml", tmp_path / "text.yaml"
    assert runner.invoke(app, ["templates", "sql", "--db", url, "--out", str(sql)]).exit_code == 0
    assert runner.invoke(app, ["templates", "text", "--db", url, "--sql", str(sql), "--out", str(text),
                               "--style", "short", "--n", "1"]).exit_code == 0
    common = ["gen", "--db", url, "--sql", str(sql), "--text", str(text), "--style", "short", "--n", "1"]
    bad = runner.invoke(app, [*common, "--out", str(tmp_path / "bad"), "--kind", "median"])
    assert isinstance(bad.exception, RagdxError) and bad.exception.exit_code == 2
    assert "--kind" in str(bad.exception) and not (tmp_path / "bad").exists()
    ok = runner.invoke(app, [*common, "--out", str(tmp_path / "cli"), "--kind", "count", "--kind", "comparison"])
    assert ok.exit_code == 0, ok.output
    assert {r.question_kind for r in read_records(tmp_path / "cli")} == {"count", "comparison"}
    with pytest.raises(RagdxError, match="kinds"):
        ragdx.generate_dataset(url, tmp_path / "api-bad", kinds=["median"])
    api = ragdx.generate_dataset(url, tmp_path / "api", kinds=["lookup", "count"], styles=["short"], n=1)
    assert {r.question_kind for r in read_records(api)} == {"lookup", "count"}


def test_evaluation_gives_accuracy_per_question_kind(tmp_path):
    """A system right on look-ups and wrong on every other kind: ``evaluate`` says so per kind
    (metrics.json's ``question_kinds``, summary.md's section), and a look-up dataset has no such key."""
    import ragdx

    path = build_demo_database(tmp_path / "demo.sqlite")
    url = f"sqlite:///{path}"
    ds = ragdx.generate_dataset(url, tmp_path / "ds", kinds=["lookup", "count", "list"], styles=["short"], n=1,
                                max_groups=4)
    records = {r.query: r for r in read_records(ds)}

    def system(query: str) -> str:
        r = records[query]
        return r.answer_text if r.question_kind == "lookup" else "I could not say."

    ragdx.run(system, dataset=ds, out=tmp_path / "run", probe=False)
    result = ragdx.evaluate(tmp_path / "run", dataset=ds)
    kinds = result.extra["question_kinds"]
    by_kind = Counter(r.question_kind for r in records.values())
    assert {k: v["n"] for k, v in kinds.items()} == dict(by_kind)
    assert kinds["lookup"]["accuracy"] > 0.9 and kinds["count"]["correct"] == kinds["list"]["correct"] == 0
    lo, hi = kinds["count"]["interval"]
    assert lo == 0.0 and 0 < hi < 1
    summary = (tmp_path / "run" / "evaluation" / "summary.md").read_text()
    assert "## Accuracy per question kind" in summary and "| count |" in summary
    metrics = json.loads((tmp_path / "run" / "evaluation" / "metrics.json").read_text())
    assert metrics["question_kinds"]["list"]["n"] == by_kind["list"]
    # the HTML report has the same table, linked from its navigation
    html = ragdx.report(tmp_path / "run", tmp_path / "report.html", dataset=ds).read_text()
    section = html[html.index('<section id="question-kinds">'):]
    section = section[:section.index("</section>")]
    assert 'href="#question-kinds"' in html
    assert f"<td>count</td><td class=num>{by_kind['count']}</td><td class=num>0</td>" in section
    assert f"<td>lookup</td><td class=num>{by_kind['lookup']}</td>" in section

    plain = ragdx.generate_dataset(url, tmp_path / "plain", styles=["short"], n=1, max_groups=4)
    plain_records = {r.query: r.answer_text for r in read_records(plain)}
    ragdx.run(lambda q: plain_records[q], dataset=plain, out=tmp_path / "run2", probe=False)
    assert "question_kinds" not in ragdx.evaluate(tmp_path / "run2", dataset=plain).extra
    plain_html = ragdx.report(tmp_path / "run2", tmp_path / "plain.html", dataset=plain).read_text()
    assert 'id="question-kinds"' not in plain_html
