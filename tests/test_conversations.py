"""Conversations from the database (issue 26 item 3): every turn checked against SQL written by
hand here, history reaching the systems, and blame for history handling."""

from __future__ import annotations

import json
import re
import sqlite3
import sys
from collections import Counter, defaultdict
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
    """``path``: relation nouns from the ``start`` row, then optionally an attribute. The SQL a
    person writes for it (one ``?``: the row's name, its name columns joined by a space), and the
    columns it selects."""
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
    name = " || ' ' || ".join(f'a0."{c}"' for c in truth["names"][start])
    return f"SELECT {', '.join(f'{alias}.{chr(34)}{c}{chr(34)}' for c in cols)} FROM {sql_from} WHERE {name} = ?", cols


def _path_of(truth, record) -> tuple[str, list[str], str]:
    """What a turn asks, read from its words: (the table of the row it asks about, the path from
    that row, the row's name). Turn 1's attribute appears in its query; a follow-up's standalone
    question is "the A of <noun> '<name>'" (the row the conversation reached) or "the A of the B
    of <first row>"."""
    entity = _entity(truth, record.table, record.params)
    start_name = " ".join(str(record.params[f"{record.table}.{c}"]) for c in truth["names"][record.table])
    if record.turn == 1:
        rest = record.query.replace(entity, " ").lower()
        found = [w for w in truth["attrs"][record.table] if re.search(rf"\b{re.escape(w)}\b", rest)]
        assert len(found) == 1, (record.query, found)
        return record.table, found, start_name
    m = re.fullmatch(rf"(What|Who) is the (.+) of {re.escape(entity)}\?", record.standalone_query)
    if m:
        return record.table, list(reversed(m.group(2).split(" of the "))), start_name
    for table, noun in sorted(truth["nouns"].items(), key=lambda kv: -len(kv[1])):
        m = re.fullmatch(rf"(What|Who) is the (.+) of {noun} '(.+)'\?", record.standalone_query)
        if m:
            return table, [m.group(2)], m.group(3)
    raise AssertionError(f"cannot read {record.standalone_query!r}")


def _check_against_hand_sql(db: Path, truth) -> tuple[int, int, set, set]:
    engine = sa.create_engine(f"sqlite:///{db}")
    records = conversation_records(engine, inspect_schema(engine), per_walk=5, seed=3)
    conn = sqlite3.connect(db)
    wrong, kinds = [], set()
    for r in records:
        table, path, name = _path_of(truth, r)
        kinds.add((table, tuple(path)))
        sql, _ = _hand_sql(truth, table, path)
        rows = conn.execute(sql, [name]).fetchall()
        if [list(x) for x in rows] != r.answer_rows:
            wrong.append((r.query, r.standalone_query, rows, r.answer_rows))
    assert not wrong, wrong[:5]
    return len(records), len(wrong), kinds, {r.turn for r in records}


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
            if t.turn > 1:  # a follow-up refers back: it never names the start row again; its
                # standalone question names it (turn 2) or the row the previous answer named
                name = str(next(iter(t.params.values())))
                named = name if t.turn == 2 else turns[i - 1].answer_text
                assert name not in t.query and t.standalone_query and named in t.standalone_query
    assert all(len(answers) == 1 for answers in groups.values())


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory) -> Path:
    return build_demo_database(tmp_path_factory.mktemp("conv") / "demo.sqlite")


def test_demo_conversations_match_hand_written_sql(demo_db):
    n, wrong, kinds, turns = _check_against_hand_sql(demo_db, DEMO)
    assert n > 100 and wrong == 0 and turns == {1, 2, 3, 4}
    # every walk of the demo's relations, up to two hops and the last row's attribute
    assert {("Programme", ("coordinator",)), ("Staff", ("faculty",)), ("Faculty", ("building",)),
            ("Course", ("faculty",)), ("Programme", ("faculty",)), ("Staff", ("hire date",))} <= kinds


@pytest.mark.skipif(not NORTHWIND.exists(), reason="Northwind is in ../shared/data, absent here")
def test_northwind_conversations_match_hand_written_sql():
    n, wrong, kinds, turns = _check_against_hand_sql(NORTHWIND, NORTHWIND_TRUTH)
    assert n > 100 and wrong == 0 and turns == {1, 2, 3, 4}
    assert {("Orders", ("employee",)), ("Employees", ("manager",)), ("Employees", ("date of birth",)),
            ("Products", ("supplier",)), ("Suppliers", ("contact person",)), ("Shippers", ("phone number",))} <= kinds


def test_conversation_shape_groups_and_styles(demo_db):
    engine = sa.create_engine(f"sqlite:///{demo_db}")
    records = conversation_records(engine, inspect_schema(engine), per_walk=3)
    _check_shape(records)
    # a semantic group is one turn of one walk over one row, in every phrasing of every style
    by_group = defaultdict(set)
    for r in records:
        by_group[r.group_id].add((r.style, r.text_template_id))
    # (walks that share a prefix, programme -> coordinator -> ..., share its turns' groups)
    phrasings = sum(len(v) for v in CONVERSATION_STYLES.values())
    assert {len(v) for v in by_group.values()} == {phrasings}
    sizes = Counter(r.group_id for r in records)
    assert all(n % phrasings == 0 for n in sizes.values()) and max(sizes.values()) > phrasings
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
    assert json.loads((out / "manifest.json").read_text())["conversations_per_walk"] == 1
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
        # a later turn's standalone question is "the <asked> of <noun> '<the previous answer>'"
        named = re.fullmatch(rf"(.+) of [a-z]+(?: [a-z]+)? '{re.escape(r.history[-1]['answer'])}'\?",
                             r.standalone_query.split(" is the ", 1)[1])
        asked = named.group(1) if named else r.standalone_query.split(" is the ", 1)[1].split(" of the ")[0]
        if r.turn == 2:  # the entity the first question named, the noun the follow-up asked
            ok = out.replace("What is", "") == r.standalone_query.replace("Who is", "").replace("What is", "")
        elif re.search(r"\bwhere (is it|are they)\b", r.query, re.I):  # a place asked by "where" alone
            ok = out == re.sub(r"\b(is it|are they)\b", f"is {r.history[-1]['answer']}", r.query, count=1,
                               flags=re.I)
        else:  # the row the previous follow-up led to
            ok = out == f"What is the {asked} of {r.history[-1]['answer']}?"
        if not ok:
            wrong.append((r.query, out, r.standalone_query))
    assert not wrong, wrong[:5]
    if which == "demo":  # the faculty's building is a place: asked "Where is it located?" in two phrasings
        assert any(r.query == "Where is it located?" for r in followups)
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


# ------------------------------------------------------------------ per-turn verdicts, history handling blamed


def test_history_blame_only_moves_follow_up_retrieval_misses_whose_standalone_question_retrieves():
    from ragdx.evaluate.conversations import HISTORY_FAILURE, conversation_scores, history_blame

    verdicts = [{"id": i, "verdict": v, "basis": "evidence"} for i, v in
                [("t1", "retrieval_failure"), ("f1", "retrieval_failure"), ("f2", "retrieval_failure"),
                 ("f3", "retrieval_failure"), ("f4", "lm_failure"), ("f5", "correct")]]
    probes = {"f1": True, "f2": False, "f3": None, "f4": True, "f5": True}
    out = history_blame(verdicts, probes, rewrites={"f1": "Its faculty?"}, standalone={"f1": "What is X?"})
    assert [v["verdict"] for v in out] == ["retrieval_failure", HISTORY_FAILURE, "retrieval_failure",
                                           "retrieval_failure", "lm_failure", "correct"]
    assert "'What is X?'" in out[1]["why"] and "'Its faculty?'" in out[1]["why"]
    assert verdicts[1]["verdict"] == "retrieval_failure"  # the rows given are not changed
    scores = conversation_scores(out, {"t1": 1, "f1": 2, "f2": 2, "f3": 3, "f4": 3, "f5": 3},
                                 {"t1": "c", "f1": "c", "f2": "d", "f3": "d", "f4": "e", "f5": "e"})
    assert scores["history_failures"] == 1 and scores["follow_ups"] == 5
    assert scores["by_turn"]["2"]["blame"] == {HISTORY_FAILURE: 1, "retrieval_failure": 1}
    assert scores["by_turn"]["3"]["accuracy"] == pytest.approx(1 / 3)
    assert (scores["conversations"], scores["conversations_all_correct"]) == (3, 0)
    assert conversation_scores(out, {}) is None


def _bench():
    import importlib.util
    import sys

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "conversations_blame.py"
    spec = importlib.util.spec_from_file_location("conversations_blame", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["conversations_blame"] = module
    spec.loader.exec_module(module)
    return module


def test_blame_names_history_handling_retrieval_and_the_lm_for_injected_faults(tmp_path):
    """The fast slice of benchmarks/conversations_blame.py: ragdx.run (its standalone probes) and
    ragdx.evaluate on a system that ignores history, has a bad retriever or a bad reader at known
    rates: precision and recall of each module >= 0.90. Without the probes, history handling is
    never named and its failures fall on the retriever (what the fourth module is for)."""
    import ragdx

    bench = _bench()
    dataset, records, corpus = bench.make_dataset(tmp_path, per_walk=3)
    system = bench.ConversationalSystem(records, corpus, bench.Plan(seed=5))
    truth = bench.truth_of(system, records)
    verdicts, result = bench.diagnose(dataset, system, tmp_path / "run")
    scores, confusion = bench.score(truth, verdicts)
    for module, (precision, recall, support) in scores.items():
        assert support >= 15, (module, support)
        assert precision >= 0.9 and recall >= 0.9, (module, scores, confusion)
    conv = result.extra["conversations"]
    assert conv["history_failures"] == sum(t == "history_failure" for t in truth.values())
    # judgements.jsonl (written block by block as judging goes) carries each follow-up's probe
    from ragdx.evaluate.records import read_judgements

    written = read_judgements(Path(result.output) / "judgements.jsonl")
    assert all((j.standalone_retrieved is not None) == (j.turn > 1) for j in written)
    assert "standalone_probes" in result.inputs
    summary = (Path(result.output) / "summary.md").read_text()
    assert "## Conversations (per turn)" in summary and "follow-ups blamed on history handling" in summary
    # the report: its section, and history handling weighed in the diagnosis with the other modules
    html = Path(ragdx.report(tmp_path / "run", tmp_path / "report.html", n_boot=50)).read_text()
    assert 'id="conversations"' in html and "history-handling failure" in html
    md = Path(ragdx.report(tmp_path / "run", tmp_path / "report.md", n_boot=50)).read_text()
    assert "**Conversations (per turn)**" in md
    assert set(conv["by_turn"]) >= {"1", "2", "3"} and conv["by_turn"]["1"]["blame"].get("history_failure") is None
    # the control: the same run without the standalone probes
    (tmp_path / "run" / "standalone_probes.jsonl").unlink()
    plain = {v["id"]: v["verdict"] for v in ragdx.evaluate(tmp_path / "run", n_boot=50).verdicts}
    assert "history_failure" not in plain.values()
    assert all(plain[i] == "retrieval_failure" for i, t in truth.items() if t == "history_failure")


# ------------------------------------------------------------------ exports


def _load_with(library: str, snippet: str):
    """Run ``snippet`` where ``library`` imports (here, or ``$RAGDX_EXPORT_PYTHON``); it prints JSON."""
    import os
    import subprocess

    try:
        __import__(library)
        python = sys.executable
    except ImportError:
        python = os.environ.get("RAGDX_EXPORT_PYTHON")
        if not python:
            pytest.skip(f"{library} is not installed here; set RAGDX_EXPORT_PYTHON to an interpreter that has it")
    env = {**os.environ, "DEEPEVAL_TELEMETRY_OPT_OUT": "YES", "RAGAS_DO_NOT_TRACK": "true"}
    done = subprocess.run([python, "-c", snippet], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    from ragdx.export import export
    from ragdx.rag.runner import run
    from ragdx.rag.systems import CallableSystem

    root = tmp_path_factory.mktemp("conv-export")
    dataset, records, corpus = _bench().make_dataset(root, per_walk=1, styles=("short",))
    by_query_history = {(r.query, json.dumps(r.history)): r for r in records}

    def chat(query: str, history: list) -> dict:
        r = by_query_history[(query, json.dumps(history))]
        return {"answer": f"{r.answer_text}.", "contexts": [{"id": d, "text": corpus[d]} for d in r.gold_document_ids]}

    run(CallableSystem(chat), dataset, root / "run", progress=False)
    paths = {}
    for fmt in ("ragas-multiturn", "deepeval-conversational"):
        paths[fmt], n = export(dataset, root / f"{fmt}.json", to=fmt, run=root / "run")
        assert n == len({r.conversation_id for r in records})
    golden, _ = export(dataset, root / "golden.jsonl", to="ragas-multiturn")
    return records, paths, golden


def test_conversation_exports(exported):
    records, paths, golden = exported
    first = sorted((r for r in records if r.conversation_id == records[0].conversation_id), key=lambda r: r.turn)
    sample = json.loads(paths["ragas-multiturn"].read_text().splitlines()[0])
    assert [m["type"] for m in sample["user_input"]] == ["human", "ai"] * len(first)
    assert [m["content"] for m in sample["user_input"][::2]] == [r.query for r in first]
    assert [m["content"] for m in sample["user_input"][1::2]] == [f"{r.answer_text}." for r in first]
    assert sample["reference"].splitlines() == [f"Turn {r.turn}: {r.answer_text}" for r in first]
    # without a run, the assistant's side is the database's answer, as the dataset's history has it
    plain = json.loads(golden.read_text().splitlines()[0])
    assert [m["content"] for m in plain["user_input"][1::2]] == [r.answer_text for r in first]
    case = json.loads(paths["deepeval-conversational"].read_text())[0]
    assert [t["role"] for t in case["turns"]] == ["user", "assistant"] * len(first)
    assert case["turns"][1]["retrieval_context"] and case["scenario"] == first[0].query
    assert case["additional_metadata"]["ragdx_ids"] == [r.id for r in first]


def test_a_dataset_without_conversations_refuses_the_conversation_formats(demo_db, tmp_path):
    from ragdx.errors import RagdxError
    from ragdx.export import export
    from ragdx.gen.dataset import write_dataset

    engine = sa.create_engine(f"sqlite:///{demo_db}")
    record = conversation_records(engine, inspect_schema(engine), per_walk=1, styles=["short"])[0]
    record.conversation_id, record.turn = "", 0
    write_dataset(tmp_path / "ds", [record], {})
    with pytest.raises(RagdxError, match="no conversations"):
        export(tmp_path / "ds", tmp_path / "x.jsonl", to="ragas-multiturn")
    assert not (tmp_path / "x.jsonl").exists()


def test_ragas_loads_the_multi_turn_samples(exported):
    _, paths, _ = exported
    got = _load_with("ragas", f"""
import json
from ragas import EvaluationDataset
ds = EvaluationDataset.from_jsonl({str(paths['ragas-multiturn'])!r})
s = ds.samples[0]
print(json.dumps({{"type": type(s).__name__, "n": len(ds), "messages": [type(m).__name__ for m in s.user_input]}}))
""")
    assert got["type"] == "MultiTurnSample" and got["messages"][:2] == ["HumanMessage", "AIMessage"]


def test_deepeval_loads_the_conversational_test_cases(exported):
    _, paths, _ = exported
    got = _load_with("deepeval", f"""
import json
from deepeval.test_case import ConversationalTestCase, Turn
cases = []
for c in json.load(open({str(paths['deepeval-conversational'])!r})):
    c = dict(c, turns=[Turn(**t) for t in c["turns"]])
    cases.append(ConversationalTestCase(**c))
print(json.dumps({{"n": len(cases), "roles": [t.role for t in cases[0].turns]}}))
""")
    assert got["roles"][:2] == ["user", "assistant"]


# ------------------------------------------------------------------ a LangChain conversational chain, end to end


def _langchain_chat(kb_dir: Path, *, use_history: bool):
    """A history-aware LangChain chain (LCEL): the follow-up condensed with the chat history
    (MessagesPlaceholder), a LangChain retriever over the knowledge base, an answer from the top
    document; plugged into ragdx as a callable that takes ``history``."""
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.documents import Document
    from langchain_core.messages import AIMessage, HumanMessage
    from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
    from langchain_core.retrievers import BaseRetriever
    from langchain_core.runnables import RunnableLambda, RunnablePassthrough

    from ragdx.rag.pipeline import Pipeline
    from ragdx.rag.rewrite import rewrite_followup

    search = Pipeline("bm25", kb_dir, top_k=3).build()

    class KnowledgeBase(BaseRetriever):
        def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun):
            return [Document(page_content=c.text, metadata={"id": c.id}) for c in search.retrieve(query)]

    condense_prompt = ChatPromptTemplate.from_messages([
        ("system", "Rewrite the last question so that it stands alone."), MessagesPlaceholder("chat_history"),
        ("human", "{input}")])

    def condense(prompt) -> str:
        # the offline condenser reads the conversation from the prompt's messages, as a model would
        messages = prompt.to_messages()[1:]
        turns = [{"query": q.content, "answer": a.content} for q, a in zip(messages[:-1:2], messages[1:-1:2],
                                                                               strict=True)]
        return rewrite_followup(messages[-1].content, turns)

    chain = (RunnablePassthrough.assign(standalone=condense_prompt | RunnableLambda(condense))
             .assign(context=(lambda x: x["standalone"]) | KnowledgeBase())
             .assign(answer=lambda x: x["context"][0].page_content[:200] if x["context"] else ""))

    def chat(query: str, history: list) -> dict:
        messages = [m for turn in (history if use_history else []) for m in
                    (HumanMessage(turn["query"]), AIMessage(turn["answer"]))]
        out = chain.invoke({"input": query, "chat_history": messages})
        return {"answer": out["answer"], "contexts": [{"id": d.metadata["id"], "text": d.page_content}
                                                       for d in out["context"]]}

    return chat


def test_a_langchain_conversational_chain_end_to_end(tmp_path):
    """ragdx gen's conversations -> ragdx.run over a LangChain chain that reads the history (and
    the same chain deaf to it) -> ragdx.evaluate: the follow-ups' evidence is found only with the
    history, and the misses of the deaf chain are blamed on history handling."""
    pytest.importorskip("langchain_core")
    import ragdx
    from ragdx.rag.systems import CallableSystem

    dataset, records, _ = _bench().make_dataset(tmp_path, per_walk=2, styles=("short", "interrogative"))
    results = {}
    for use in (True, False):
        run_dir = tmp_path / f"run-{use}"
        ragdx.run(CallableSystem(_langchain_chat(tmp_path / "kb", use_history=use), name=f"lc-{use}"), dataset,
                  run_dir, progress=False, concurrency=2)
        results[use] = ragdx.evaluate(run_dir, n_boot=50)
    turn2 = {r.id for r in records if r.turn == 2}

    def found(result) -> float:
        js = [j for j in result.judgements if j.id in turn2 and j.retrieval_correct is not None]
        return sum(j.retrieval_correct for j in js) / len(js)

    with_history, deaf = results[True].extra["conversations"], results[False].extra["conversations"]
    # BM25 over the knowledge base finds 0.8 of the turn-2 evidence with the history, 0.3 without
    assert found(results[True]) >= 0.6 and found(results[False]) <= 0.45, (found(results[True]), found(results[False]))
    assert found(results[True]) - found(results[False]) >= 0.35
    assert deaf["history_failures"] > 3 * max(1, with_history["history_failures"])
    assert deaf["by_turn"]["2"]["blame"].get("history_failure", 0) >= 0.5 * deaf["by_turn"]["2"]["records"]


def test_no_conversations_no_section(demo_db):
    from ragdx.evaluate.report import evaluate_judgements, summary_markdown
    from ragdx.evaluate.runs import judge_outputs
    from ragdx.rag.types import SystemOutput

    engine = sa.create_engine(f"sqlite:///{demo_db}")
    records = conversation_records(engine, inspect_schema(engine), per_walk=1, styles=["short"])
    alone = [r for r in records if r.turn == 1]
    for r in alone:
        r.conversation_id, r.turn = "", 0
    result = evaluate_judgements(judge_outputs(alone, [SystemOutput(r.id, r.query, r.answer_text) for r in alone]),
                                 n_boot=20)
    assert "conversations" not in result.extra and "Conversations" not in summary_markdown(result, "t")
    assert all(v["verdict"] != "history_failure" for v in result.verdicts)


def test_a_pipeline_with_a_language_model_asks_it_for_the_standalone_question(demo_db, tmp_path):
    """The LLM rewrite goes over real sockets to an OpenAI-compatible server; what the model
    wrote is what the pipeline searched, recorded, and its tokens counted with the answer's."""
    import asyncio

    from ragdx.kb.render import render_kb
    from ragdx.rag.generators import LLMGenerator
    from ragdx.rag.pipeline import Pipeline
    from ragdx.rag.rewrite import REWRITE_PROMPT
    from ragdx.rag.types import SystemInput
    from tests.support.openai_server import OpenAIServer

    engine = sa.create_engine(f"sqlite:///{demo_db}")
    schema = inspect_schema(engine)
    render_kb(engine, schema).write(tmp_path / "kb")
    r = next(r for r in conversation_records(engine, schema, per_walk=1, styles=["short"])
             if r.turn == 2 and r.table == "Programme")

    def reply(body: dict) -> str:
        system = body["messages"][0]["content"]
        return r.standalone_query if system == REWRITE_PROMPT else "an answer"

    with OpenAIServer() as server:
        server.reply = reply
        llm = {"base_url": server.base_url, "model": "test-model", "max_retries": 0, "timeout": 5, "cache_dir": None}
        pipe = Pipeline("llm", tmp_path / "kb", generator=LLMGenerator(llm=llm), top_k=3)
        out = asyncio.run(pipe.answer(SystemInput(id=r.id, query=r.query, history=r.history)))
        asked = [q.body["messages"] for q in server.chat_requests]
    assert out.error is None and out.rewritten_query == r.standalone_query and out.answer == "an answer"
    # the model saw the conversation, then the follow-up; the reader was asked the rewritten question
    assert r.history[0]["query"] in asked[0][1]["content"] and asked[0][1]["content"].count(r.query) == 1
    assert asked[1][-1]["content"].endswith(f"Question: {r.standalone_query}")
    assert out.prompt_tokens > 0


def test_ragdx_gen_conversations_flag(demo_db, tmp_path):
    from typer.testing import CliRunner

    from ragdx import generate_dataset
    from ragdx.cli import app
    from ragdx.cli.gen import GEN_FLAGS
    from ragdx.errors import RagdxError
    from ragdx.gen.dataset import read_records
    from ragdx.gen.options import gen_options

    with pytest.raises(RagdxError) as bad:
        gen_options(None, {"conversations": -1}, names=GEN_FLAGS)
    assert bad.value.field == "--conversations"
    generate_dataset(f"sqlite:///{demo_db}", tmp_path / "ds", styles=["short"], n=1, max_groups=1)
    templates = tmp_path / "ds-templates"
    args = ["gen", "--db", f"sqlite:///{demo_db}", "--sql", str(templates / "sql.yaml"), "--text",
            str(templates / "text.yaml"), "--style", "short", "--n", "1", "--max-groups-per-template", "1"]
    done = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "with"), "--conversations", "1"])
    assert done.exit_code == 0, done.output
    plain = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "without")])
    assert plain.exit_code == 0, plain.output
    turns = [r for r in read_records(tmp_path / "with") if r.conversation_id]
    assert turns and {r.style for r in turns} == {"short"}
    assert not any(r.conversation_id for r in read_records(tmp_path / "without"))
    assert "conversations_per_walk" not in json.loads((tmp_path / "without" / "manifest.json").read_text())


def test_a_langchain_retriever_and_chain_pair_gets_the_chat_history():
    """The framework adapter: a (retriever, chain) pair's chain gets ``chat_history`` as the
    ("human", ...), ("ai", ...) messages a MessagesPlaceholder takes; a question asked alone, none."""
    pytest.importorskip("langchain_core")
    import asyncio

    from langchain_core.documents import Document
    from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
    from langchain_core.retrievers import BaseRetriever
    from langchain_core.runnables import RunnableLambda

    from ragdx.rag.systems import CallableSystem
    from ragdx.rag.types import SystemInput

    class One(BaseRetriever):
        def _get_relevant_documents(self, query, *, run_manager):
            return [Document(page_content=f"about {query}", metadata={"id": "d1"})]

    prompt = ChatPromptTemplate.from_messages([MessagesPlaceholder("chat_history"), ("human", "{input}")])
    seen = []
    chain = prompt | RunnableLambda(lambda p: seen.append([(m.type, m.content) for m in p.to_messages()]) or "ok")
    system = CallableSystem((One(), chain))
    history = [{"query": "What is the campus of faculty 'X'?", "answer": "North"}]
    out = asyncio.run(system.answer(SystemInput(id="r", query="And its building?", history=history)))
    assert out.answer == "ok" and out.retrieved_ids == ["d1"]
    assert seen[-1] == [("human", history[0]["query"]), ("ai", "North"), ("human", "And its building?")]
    asyncio.run(system.answer(SystemInput(id="s", query="What is X?")))
    assert seen[-1] == [("human", "What is X?")]


@pytest.mark.slow
@pytest.mark.parametrize("engine_kind", ["postgresql", "mysql"])
@pytest.mark.parametrize("database", ["demo", "northwind"])
def test_other_engines_ask_and_answer_the_same_conversations(database, engine_kind, demo_db, request):
    """The same database on PostgreSQL and MariaDB (skipped where unreachable): the same walks, the
    same turns, the same answers as on SQLite, whose every turn the tests above check by hand."""
    from ragdx.db import connect
    from tests.support.copy_sqlite import copy_sqlite

    path = demo_db if database == "demo" else NORTHWIND
    if not path.exists():
        pytest.skip("Northwind is in ../shared/data, absent here")
    url = request.getfixturevalue("pg_databases" if engine_kind == "postgresql" else "mysql_databases").new()
    copy_sqlite(path, url)
    engine = connect(url)
    there = conversation_records(engine, inspect_schema(engine), per_walk=3, styles=["short"])
    engine.dispose()
    local = sa.create_engine(f"sqlite:///{path}")
    here = conversation_records(local, inspect_schema(local), per_walk=3, styles=["short"])
    assert there and [(r.query, r.standalone_query, r.answer_rows) for r in there] == \
        [(r.query, r.standalone_query, r.answer_rows) for r in here]
