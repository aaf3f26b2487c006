"""Conversations from the database (issue 26 item 3): every turn checked against SQL written by
hand here, history reaching the systems, and blame for history handling."""

from __future__ import annotations

import json
import re
import sqlite3
from collections import defaultdict
from pathlib import Path

import pytest
import sqlalchemy as sa

from ragdx.db.schema import inspect_schema
from ragdx.demo.database import build_demo_database
from ragdx.gen.conversations import CONVERSATION_STYLES, conversation_records

NORTHWIND = Path(__file__).resolve().parents[2] / "shared" / "data" / "northwind" / "northwind.sqlite"

# ------------------------------------------------------------------ the hand-written truth
# what each table is called, the columns a row is named by, the attributes by the words people use
# for them, and each relation as the join a person would write: written here from the schemas,
# not from ragdx's naming or SQL
DEMO = {
    "nouns": {"Programme": "programme", "Course": "course", "Staff": "staff member", "Faculty": "faculty"},
    "names": {"Programme": ["Name"], "Course": ["Title"], "Staff": ["Name"], "Faculty": ["Name"]},
    "attrs": {"Programme": {"first intake": "FirstIntake", "tuition fee": "TuitionFee", "ects": "ECTS"},
              "Course": {"max enrolment": "max_enrolment", "credits": "Credits"},
              "Staff": {"hire date": "hire_date", "office": "Office", "email address": "Email"},
              "Faculty": {"building": "Building", "campus": "Campus", "website": "Website"}},
    "rels": {("Programme", "coordinator"): ("Staff", "Coordinator", "id"),
             ("Programme", "faculty"): ("Faculty", "Faculty", "Name"),
             ("Course", "faculty"): ("Faculty", "Faculty", "Name"),
             ("Staff", "faculty"): ("Faculty", "Faculty", "Name")},
}
NORTHWIND_TRUTH = {
    "nouns": {"Orders": "order", "Products": "product", "Employees": "employee", "Customers": "customer",
              "Shippers": "shipper", "Suppliers": "supplier", "Categories": "category"},
    "names": {"Orders": ["OrderID"], "Products": ["ProductName"], "Employees": ["FirstName", "LastName"],
              "Customers": ["CompanyName"], "Shippers": ["CompanyName"], "Suppliers": ["CompanyName"],
              "Categories": ["CategoryName"]},
    "attrs": {"Orders": {"freight": "Freight"}, "Products": {"quantity per unit": "QuantityPerUnit"},
              "Employees": {"date of birth": "BirthDate"}, "Customers": {"contact person": "ContactName"},
              "Shippers": {"phone number": "Phone"}, "Suppliers": {"contact person": "ContactName"},
              "Categories": {"description": "Description"}},
    "rels": {("Orders", "customer"): ("Customers", "CustomerID", "CustomerID"),
             ("Orders", "employee"): ("Employees", "EmployeeID", "EmployeeID"),
             ("Orders", "shipper"): ("Shippers", "ShipVia", "ShipperID"),
             ("Employees", "manager"): ("Employees", "ReportsTo", "EmployeeID"),
             ("Products", "category"): ("Categories", "CategoryID", "CategoryID"),
             ("Products", "supplier"): ("Suppliers", "SupplierID", "SupplierID")},
}


def _entity(truth, table: str, params: dict) -> str:
    values = [params[f"{table}.{c}"] for c in truth["names"][table]]
    text = " ".join(str(v) for v in values)
    return f"{truth['nouns'][table]} {text}" if isinstance(values[0], int) else f"{truth['nouns'][table]} '{text}'"


def _hand_sql(truth, start: str, path: list[str]) -> tuple[str, list[str]]:
    """``path``: relation nouns from the start row, then optionally an attribute. The SQL a person
    writes for it (sqlite3's ``?`` for the start row's name), and the columns it selects."""
    sql_from, table, alias = f'"{start}" a0', start, "a0"
    for i, word in enumerate(path):
        if (table, word) in truth["rels"]:
            ref, fk, pk = truth["rels"][(table, word)]
            nxt = f"a{i + 1}"
            sql_from += f' JOIN "{ref}" {nxt} ON {alias}."{fk}" = {nxt}."{pk}"'
            table, alias = ref, nxt
            cols = truth["names"][table]
        else:
            assert i == len(path) - 1, f"an attribute ends a walk: {path}"
            cols = [truth["attrs"][table][word]]
    if not path:
        raise AssertionError("empty path")
    where = " AND ".join(f'a0."{c}" = ?' for c in truth["names"][start])
    return f"SELECT {', '.join(f'{alias}.{chr(34)}{c}{chr(34)}' for c in cols)} FROM {sql_from} WHERE {where}", cols


def _path_of(truth, record) -> list[str]:
    """What a turn asks, read from its words: turn 1's attribute appears in its query; a follow-up's
    standalone question is "the A of the B of <entity>"."""
    entity = _entity(truth, record.table, record.params)
    if record.turn == 1:
        rest = record.query.replace(entity, " ").lower()
        found = [w for w in truth["attrs"][record.table] if re.search(rf"\b{re.escape(w)}\b", rest)]
        assert len(found) == 1, (record.query, found)
        return found
    m = re.fullmatch(rf"(What|Who) is the (.+) of {re.escape(entity)}\?", record.standalone_query)
    assert m, record.standalone_query
    return list(reversed(m.group(2).split(" of the ")))


def _check_against_hand_sql(db: Path, truth) -> tuple[int, int, set]:
    engine = sa.create_engine(f"sqlite:///{db}")
    records = conversation_records(engine, inspect_schema(engine), per_walk=5, seed=3)
    conn = sqlite3.connect(db)
    wrong, kinds = [], set()
    for r in records:
        path = _path_of(truth, r)
        kinds.add((r.table, tuple(path)))
        sql, _ = _hand_sql(truth, r.table, path)
        rows = conn.execute(sql, [r.params[f"{r.table}.{c}"] for c in truth["names"][r.table]]).fetchall()
        if [list(x) for x in rows] != r.answer_rows:
            wrong.append((r.query, r.standalone_query, rows, r.answer_rows))
    assert not wrong, wrong[:5]
    return len(records), len(wrong), kinds


def _check_shape(records) -> None:
    by_conv = defaultdict(list)
    for r in records:
        by_conv[r.conversation_id].append(r)
    groups = defaultdict(set)
    for turns in by_conv.values():
        turns.sort(key=lambda r: r.turn)
        assert [t.turn for t in turns] == list(range(1, len(turns) + 1))
        assert 2 <= len(turns) <= 4
        for i, t in enumerate(turns):
            assert t.history == [{"query": p.query, "answer": p.answer_text} for p in turns[:i]]
            groups[t.group_id].add(repr(t.answer_rows))
            if t.turn > 1:  # a follow-up refers back: it never names the start row again
                name = str(next(iter(t.params.values())))
                assert name not in t.query and t.standalone_query and name in t.standalone_query
    assert all(len(answers) == 1 for answers in groups.values())


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory) -> Path:
    return build_demo_database(tmp_path_factory.mktemp("conv") / "demo.sqlite")


def test_demo_conversations_match_hand_written_sql(demo_db):
    n, wrong, kinds = _check_against_hand_sql(demo_db, DEMO)
    assert n > 100 and wrong == 0
    # every walk of the demo's relations, up to two hops and the last row's attribute
    assert ("Programme", ("coordinator",)) in kinds and ("Programme", ("coordinator", "faculty", "building")) in kinds
    assert {t for t, _ in kinds} == {"Programme", "Course", "Staff"}


@pytest.mark.skipif(not NORTHWIND.exists(), reason="Northwind is in ../shared/data, absent here")
def test_northwind_conversations_match_hand_written_sql():
    n, wrong, kinds = _check_against_hand_sql(NORTHWIND, NORTHWIND_TRUTH)
    assert n > 100 and wrong == 0
    assert ("Orders", ("employee", "manager", "date of birth")) in kinds
    assert ("Products", ("supplier", "contact person")) in kinds


def test_conversation_shape_groups_and_styles(demo_db):
    engine = sa.create_engine(f"sqlite:///{demo_db}")
    records = conversation_records(engine, inspect_schema(engine), per_walk=3)
    _check_shape(records)
    # a semantic group is one turn of one walk over one row, in every phrasing of every style
    by_group = defaultdict(set)
    for r in records:
        by_group[r.group_id].add((r.style, r.text_template_id))
    assert {len(v) for v in by_group.values()} == {sum(len(v) for v in CONVERSATION_STYLES.values())}
    assert len({r.query for r in records if r.turn == 2}) > len({r.group_id for r in records if r.turn == 2})
    # reproducible, and only the styles asked for
    again = conversation_records(engine, inspect_schema(engine), per_walk=3, styles=["short", "nonexistent"])
    assert {r.style for r in again} == {"short"}
    assert [r.id for r in again] == [r.id for r in records if r.style == "short"]


def test_generate_dataset_writes_conversations_with_gold_documents(demo_db, tmp_path):
    from ragdx import generate_dataset
    from ragdx.gen.dataset import read_records
    from ragdx.gen.options import gen_options

    out = generate_dataset(f"sqlite:///{demo_db}", tmp_path / "ds", gen_options(None, {"conversations": 1}),
                           kb=tmp_path / "kb", styles=["short", "long"], n=1, max_groups=2)
    records = read_records(out)
    turns = [r for r in records if r.conversation_id]
    assert turns and {r.style for r in turns} == {"short", "long"}
    _check_shape(turns)
    assert all(r.history for r in turns if r.turn > 1)
    # the rendered knowledge base states each turn's facts: gold documents, hop by hop
    assert all(r.gold_document_ids and r.kb_supported for r in turns if r.turn > 1)
    plain = [r for r in records if not r.conversation_id]
    assert plain and all(r.turn == 0 and not r.history for r in plain)
    # off by default: no conversation unless asked
    assert gen_options(None, {}).conversations == 0


# ------------------------------------------------------------------ systems receive the history


def _conversation_dataset(demo_db: Path, out: Path, styles=("short",), per_walk=2):
    from ragdx.gen.dataset import write_dataset

    engine = sa.create_engine(f"sqlite:///{demo_db}")
    records = conversation_records(engine, inspect_schema(engine), per_walk=per_walk, styles=list(styles))
    write_dataset(out, records, {"note": "conversations"})
    return records


def test_history_reaches_a_callable_through_the_dataset_file_and_inputs(demo_db, tmp_path):
    from ragdx.rag.rundir import read_inputs
    from ragdx.rag.runner import run
    from ragdx.rag.systems import CallableSystem

    records = _conversation_dataset(demo_db, tmp_path / "ds")
    seen: list[str] = []

    def chat(query: str, history: list) -> str:
        seen.append(json.dumps([query, history], sort_keys=True))
        return "ok"

    run(CallableSystem(chat), tmp_path / "ds", tmp_path / "run", progress=False)
    assert sorted(seen) == sorted(json.dumps([r.query, r.history], sort_keys=True) for r in records)
    assert any(r.history for r in records)
    # the run directory keeps what each query was asked with (resume and probes read it back)
    inputs = {i.id: i for i in read_inputs(tmp_path / "run")}
    assert all(inputs[r.id].history == r.history for r in records)
    # a function without a history parameter is called as before, records in memory work too
    asked = []
    run(CallableSystem(lambda q: asked.append(q) or "ok"), records, tmp_path / "run2", progress=False)
    assert sorted(asked) == sorted(r.query for r in records)


def test_history_reaches_an_http_system(demo_db, tmp_path):
    from ragdx.rag.runner import run
    from ragdx.rag.systems import HTTPSystem
    from tests.support.rag_http_server import RAGServer

    records = _conversation_dataset(demo_db, tmp_path / "ds", per_walk=1)
    with RAGServer() as server:
        system = HTTPSystem(server.url, body={"q": "{query}", "rid": "{id}"}, timeout=5)
        run(system, tmp_path / "ds", tmp_path / "run", progress=False, concurrency=2)
        bodies = {b["rid"]: b for b in server.bodies}
    for r in records:
        if r.turn == 1:
            assert "history" not in bodies[r.id]  # a question asked alone: the body as configured
        else:
            assert bodies[r.id]["history"] == r.history
    # or placed where the body names it
    with RAGServer() as server:
        system = HTTPSystem(server.url, body={"q": "{query}", "rid": "{id}", "ctx": {"turns": "{history}"}}, timeout=5)
        run(system, records, tmp_path / "run2", progress=False, concurrency=2)
        bodies = {b["rid"]: b for b in server.bodies}
    assert all(bodies[r.id]["ctx"]["turns"] == r.history and "history" not in bodies[r.id] for r in records)


# ------------------------------------------------------------------ built-in pipelines rewrite follow-ups


@pytest.mark.parametrize("which", ["demo", "northwind"])
def test_offline_rewrite_names_what_the_history_named(which, demo_db):
    from ragdx.rag.rewrite import rewrite_followup

    db = demo_db if which == "demo" else NORTHWIND
    if not db.exists():
        pytest.skip("Northwind is in ../shared/data, absent here")
    engine = sa.create_engine(f"sqlite:///{db}")
    followups = [r for r in conversation_records(engine, inspect_schema(engine), per_walk=3) if r.turn > 1]
    wrong = []
    for r in followups:
        out = rewrite_followup(r.query, r.history)
        # a later turn's standalone question is "the <asked> of the <relation> of ... <entity>"
        asked = r.standalone_query.split(" is the ", 1)[1].split(" of the ")[0]
        if r.turn == 2:  # the entity the first question named, the noun the follow-up asked
            ok = out.replace("What is", "") == r.standalone_query.replace("Who is", "").replace("What is", "")
        else:  # the row the previous follow-up led to
            ok = out == f"What is the {asked} of {r.history[-1]['answer']}?"
        if not ok:
            wrong.append((r.query, out, r.standalone_query))
    assert not wrong, wrong[:5]
    # a question asked alone, or one that names its entity, is left as it is
    assert rewrite_followup("What is the campus of faculty 'X'?", followups[0].history).endswith("faculty 'X'?")
    assert rewrite_followup("Its faculty?", []) == "Its faculty?"


def test_pipeline_records_its_rewrite_and_results_stay_compatible(demo_db, tmp_path):
    import asyncio

    from ragdx.kb.render import render_kb
    from ragdx.rag.pipeline import Pipeline
    from ragdx.rag.types import SystemInput, SystemOutput

    engine = sa.create_engine(f"sqlite:///{demo_db}")
    schema = inspect_schema(engine)
    kb = render_kb(engine, schema)
    kb.write(tmp_path / "kb")
    pipe = Pipeline("bm25", tmp_path / "kb", top_k=3)
    r = next(r for r in conversation_records(engine, schema, per_walk=1, styles=["short"])
             if r.turn == 2 and r.table == "Programme")
    out = asyncio.run(pipe.answer(SystemInput(id=r.id, query=r.query, history=r.history)))
    assert out.rewritten_query and out.rewritten_query != r.query
    assert out.to_dict()["rewritten_query"] == out.rewritten_query
    assert SystemOutput.from_dict(out.to_dict()).rewritten_query == out.rewritten_query
    alone = asyncio.run(pipe.answer(SystemInput(id="x", query=r.standalone_query)))
    assert alone.rewritten_query is None and "rewritten_query" not in alone.to_dict()  # old lines' bytes
    # the rewrite searches what the standalone question searches
    assert out.retrieved_ids[:1] == alone.retrieved_ids[:1]
