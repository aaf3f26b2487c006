"""Issue 11: nothing lost, nothing silently wrong, nothing of the user's touched.

One test (or a few) per defect of the fault and security probe; each failed on the code before
its fix.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from ragdx.db import connect, inspect_schema
from ragdx.errors import RagdxError
from ragdx.gen.qa import AnswerOptions, answer_template
from ragdx.gen.sql_templates import SqlTemplate, parse_template
from tests.support.timing import scaled


def ragdx(*args: str, cwd: Path | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    full = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", **(env or {})}
    return subprocess.run([sys.executable, "-m", "ragdx.cli", *args], capture_output=True, text=True,
                          cwd=cwd, env=full, timeout=scaled(300))


# ----------------------------------------------------------------------------- 1. collations

_PEOPLE = [(1, "Alice", "Paris"), (2, "alice", "Lyon"), (3, "Zoë", "Nice"), (4, "ZOE", "Brest"),
           (5, "Bob", "Metz"), (6, "bob ", "Caen")]


def _agree(url: str) -> None:
    engine = connect(url)
    schema = inspect_schema(engine)
    parsed = parse_template(SqlTemplate("SELECT City FROM Person WHERE Name = '[Person.Name]'", "Person"), schema)
    got = {}
    for method in ("set", "per-combination"):
        options = AnswerOptions(method=method, multi_answer="keep", unanswerable="keep")
        answers = answer_template(engine, parsed, schema, options)
        got[method] = [(g.params, g.rows, g.entities, g.facts) for g in answers.groups]
    engine.dispose()
    assert got["set"] == got["per-combination"]


def test_set_based_agrees_with_per_combination_under_sqlite_nocase(tmp_path):
    path = tmp_path / "ci.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE Person (id INTEGER PRIMARY KEY, Name TEXT COLLATE NOCASE, City TEXT)")
        conn.executemany("INSERT INTO Person VALUES (?, ?, ?)", _PEOPLE)
    _agree(f"sqlite:///{path}")


def test_set_based_agrees_with_per_combination_under_mariadb_general_ci(mysql_databases):
    url = mysql_databases.new()
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE Person (id INT PRIMARY KEY, Name VARCHAR(40), City VARCHAR(40)) "
                             "CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci")
        for row in _PEOPLE:
            conn.exec_driver_sql("INSERT INTO Person VALUES (%s, %s, %s)", row)
    engine.dispose()
    _agree(url)


# ----------------------------------------------------------------------------- 2. --overwrite, 13. crash windows


@pytest.fixture(scope="module")
def demo_url(tmp_path_factory):
    from ragdx.demo.database import build_demo_database

    return f"sqlite:///{build_demo_database(tmp_path_factory.mktemp('demo') / 'demo.sqlite')}"


@pytest.mark.slow
def test_overwrite_refuses_a_directory_ragdx_did_not_write(tmp_path, demo_url):
    mine = tmp_path / "thesis"
    (mine / ".git").mkdir(parents=True)
    (mine / "thesis.tex").write_text("\\documentclass{article}")
    r = ragdx("kb", "render", "--db", demo_url, "-o", str(mine), "--overwrite")
    assert r.returncode == 2, r.stderr
    assert "not written by ragdx" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert (mine / "thesis.tex").read_text() == "\\documentclass{article}" and (mine / ".git").is_dir()
    # the staging helper itself refuses too, whoever calls it
    from ragdx.store import staged_directory

    with pytest.raises(RagdxError, match="not written by ragdx"), staged_directory(mine, overwrite=True):
        pass
    assert sorted(p.name for p in mine.iterdir()) == [".git", "thesis.tex"]
    # a directory ragdx wrote is replaced, and so is an empty one
    kb = tmp_path / "kb"
    assert ragdx("kb", "render", "--db", demo_url, "-o", str(kb)).returncode == 0
    r = ragdx("kb", "render", "--db", demo_url, "-o", str(kb), "--overwrite", "--omit", "Staff.Email")
    assert r.returncode == 0, r.stderr
    assert json.loads((kb / "manifest.json").read_text())["omitted"] == ["Staff.Email"]
    (tmp_path / "empty").mkdir()
    with staged_directory(tmp_path / "empty", overwrite=True) as stage:
        (stage / "x.json").write_text("{}")
    assert (tmp_path / "empty" / "x.json").exists()


def test_a_kill_mid_overwrite_or_mid_staging_is_recovered_on_the_next_start(tmp_path):
    from ragdx.store import staged_directory

    target = tmp_path / "ds"
    with staged_directory(target) as stage:
        (stage / "records.jsonl").write_text("old\n")
    # a kill between moving the old copy aside and moving the new one in
    os.replace(target, tmp_path / ".ds.old")
    # and a kill mid-staging by a process that no longer exists
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()
    stale = tmp_path / f".ds.{dead}.abc.partial"
    stale.mkdir()
    (stale / "records.jsonl").write_text("half")
    from ragdx.store import recover_staged

    recover_staged(target)
    assert (target / "records.jsonl").read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ds"]
    # a live process's staging directory is left alone
    live = tmp_path / f".ds.{os.getpid()}.xyz.partial"
    live.mkdir()
    recover_staged(target)
    assert live.exists()


# ----------------------------------------------------------------------------- 14. file modes


def test_outputs_are_user_only_whatever_the_umask_and_a_rewrite_keeps_the_users_mode(tmp_path):
    from ragdx.store import atomic_write_text, staged_directory

    # issue 23: runs and datasets hold prompts, answers and database values; they are the user's
    # alone even under a permissive umask
    old = os.umask(0o002)
    try:
        atomic_write_text(tmp_path / "new.txt", "x")
        assert (tmp_path / "new.txt").stat().st_mode & 0o777 == 0o600
        (tmp_path / "mine.yaml").write_text("a: 1\n")
        os.chmod(tmp_path / "mine.yaml", 0o664)
        atomic_write_text(tmp_path / "mine.yaml", "a: 2\n")
        assert (tmp_path / "mine.yaml").stat().st_mode & 0o777 == 0o664
        with staged_directory(tmp_path / "out") as stage:
            atomic_write_text(stage / "f.json", "{}")
        assert (tmp_path / "out").stat().st_mode & 0o777 == 0o700
        assert (tmp_path / "out" / "f.json").stat().st_mode & 0o777 == 0o600
    finally:
        os.umask(old)


# ----------------------------------------------------------------------------- 3. failed judge calls, 4. empty replies


def _fast_llm(server, **kw):
    from ragdx.llm import OpenAICompatibleLLM

    return OpenAICompatibleLLM("test-model", base_url=server.base_url, backoff_base=0.001, max_backoff=0.01,
                               timeout=5, **kw)


@pytest.mark.parametrize("empty", ["", None, "   "])
def test_an_empty_llm_reply_is_retried_and_never_cached(tmp_path, empty):
    from tests.support.openai_server import Fault, OpenAIServer

    with OpenAIServer() as server:
        server.script(Fault.content(empty))
        llm = _fast_llm(server, cache=tmp_path / "c.sqlite")
        got = llm.complete_sync([{"role": "user", "content": "hi"}])
        assert got.text == "echo: hi" and len(server.chat_requests) == 2
        assert llm.usage.retries == 1
    with OpenAIServer() as server:
        server.reply = lambda body: Fault.content(empty)
        llm = _fast_llm(server, cache=tmp_path / "c2.sqlite", max_retries=2)
        from ragdx.errors import LLMError

        with pytest.raises(LLMError, match="empty reply"):
            llm.complete_sync([{"role": "user", "content": "hi"}])
        assert len(server.chat_requests) == 3
        server.reply = lambda body: "Correct"
        # nothing of the failure was cached: the same request goes out again and succeeds
        assert llm.complete_sync([{"role": "user", "content": "hi"}]).text == "Correct"
        assert len(server.chat_requests) == 4


def test_a_failed_judge_call_is_recorded_not_cached_and_judged_again(tmp_path):
    from ragdx.evaluate import CascadeJudge, JudgeItem, LLMJudge, VerdictCache
    from tests.support.openai_server import Fault, OpenAIServer

    items = [JudgeItem.from_text(f"start of X{i}?", "2023-03-01", f"In spring 2023 ({i}).") for i in range(6)]
    cache = VerdictCache(tmp_path / "verdicts.sqlite")
    with OpenAIServer() as server:
        # items 1 and 4 fail on every attempt, in every way a server can fail
        def reply(body):
            text = body["messages"][-1]["content"]
            if "(1)" in text:
                return Fault.http(500)
            if "(4)" in text:
                return Fault.content(None)
            return "Correct"

        server.reply = reply
        llm = _fast_llm(server, max_retries=1)
        verdicts = LLMJudge(llm).judge_many(items, cache=cache)
        assert [v.correct for v in verdicts] == [True, None, True, True, None, True]
        assert [bool(v.error) for v in verdicts] == [False, True, False, False, True, False]
        assert "500" in verdicts[1].error and "empty reply" in verdicts[4].error
        cascade = CascadeJudge(LLMJudge(llm)).judge_many(items[1:2])
        assert cascade[0].correct is None and cascade[0].error and cascade[0].judge == "cascade:llm"
        server.reply = lambda body: "Correct"
        again = LLMJudge(llm).judge_many(items, cache=cache)
        assert [v.correct for v in again] == [True] * 6
        assert [v.cached for v in again] == [True, False, True, True, False, True]


def _small_run(tmp_path, n=20, answer=lambda q: "Paris, I think"):
    from ragdx.gen.dataset import QARecord, write_dataset
    from ragdx.rag.runner import run
    from ragdx.rag.systems import CallableSystem

    records = [QARecord(id=f"q{i}", group_id=f"g{i}", sql_template_id="t", text_template_id="x", style="short",
                        schema="Country", table="Country", params={}, sql="", query=f"capital of country {i}?",
                        answer_columns=["Capital"], answer_rows=[[f"City{i}"]], answer_text=f"City{i}",
                        answer_kind="single", gold_document_ids=[], kb_supported=None) for i in range(n)]
    write_dataset(tmp_path / "ds", records, {"test": True})
    run(CallableSystem(answer, name="toy"), tmp_path / "ds", tmp_path / "run", progress=False)
    return tmp_path / "run"


@pytest.mark.slow
def test_evaluate_with_an_llm_judge_survives_failed_calls_and_records_them(tmp_path):
    from tests.support.openai_server import Fault, OpenAIServer

    run_dir = _small_run(tmp_path)
    failing = {3, 7, 11, 12, 18, 19}  # 30 %

    def reply(body):
        text = body["messages"][-1]["content"]
        number = int(text.split("capital of country ")[1].split("?")[0])
        return Fault.http(503) if number in failing else "Incorrect"

    with OpenAIServer() as server:
        server.reply = reply
        (tmp_path / "ragdx.yaml").write_text(
            f"llm:\n  base_url: {server.base_url}\n  model: test-model\n  max_retries: 0\n"
            f"  cache_dir: {tmp_path / 'cache'}\n")
        r = ragdx("evaluate", str(run_dir), "--judge", "llm", "--boot", "100", "-c", str(tmp_path / "ragdx.yaml"))
        assert r.returncode == 0, r.stderr
        rows = [json.loads(x) for x in (run_dir / "evaluation" / "judgements.jsonl").read_text().splitlines()]
        assert sorted(int(j["id"][1:]) for j in rows if j["error"]) == sorted(failing)
        assert all(j["error"] is None and j["correct"] is False for j in rows if int(j["id"][1:]) not in failing)
        # the next evaluation asks again about the failed items only (the others are cached)
        asked = len(server.chat_requests)
        server.reply = lambda body: "Incorrect"
        r = ragdx("evaluate", str(run_dir), "--judge", "llm", "--boot", "100", "-c", str(tmp_path / "ragdx.yaml"))
        assert r.returncode == 0, r.stderr
        again = {int(r.body["messages"][-1]["content"].split("capital of country ")[1].split("?")[0])
                 for r in server.chat_requests[asked:]}
        assert again == failing
        rows = [json.loads(x) for x in (run_dir / "evaluation" / "judgements.jsonl").read_text().splitlines()]
        assert not [j for j in rows if j["error"]]


@pytest.mark.slow
def test_templates_sql_by_llm_records_a_failed_schema_and_keeps_the_others(tmp_path, demo_url):
    from tests.support.openai_server import Fault, OpenAIServer

    def reply(body):
        text = body["messages"][-1]["content"]
        if "Table Faculty(" in text:
            return Fault.http(500)
        return "SELECT Level FROM Programme WHERE Name = '[Programme.Name]'"

    with OpenAIServer() as server:
        server.reply = reply
        (tmp_path / "ragdx.yaml").write_text(
            f"llm:\n  base_url: {server.base_url}\n  model: test-model\n  max_retries: 0\n  cache_dir: null\n")
        r = ragdx("templates", "sql", "--db", demo_url, "--method", "llm", "--schema", "Faculty",
                  "--schema", "Programme", "-o", str(tmp_path / "sql.yaml"), "-c", str(tmp_path / "ragdx.yaml"))
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr
    assert "failed" in r.stderr and "Faculty" in r.stderr and "1 target schemas failed" in r.stdout
    assert (tmp_path / "sql.yaml").exists()


# ----------------------------------------------------------------------------- 6. SQLite paths stay read-only


def _sqlite_with_table(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE Person (id INTEGER PRIMARY KEY, Name TEXT)")
        conn.execute("INSERT INTO Person VALUES (1, 'Ada')")
    return path


def _assert_read_only(url: str, path: Path) -> None:
    engine = connect(url)
    assert list(inspect_schema(engine).tables) == ["Person"]
    with pytest.raises(sa.exc.DBAPIError), engine.begin() as conn:
        conn.exec_driver_sql("DELETE FROM Person")
    engine.dispose()
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM Person").fetchone() == (1,)


@pytest.mark.parametrize("name", ["a#b/db.sqlite", "x%41.sqlite", "sp ace/é [1].sqlite"])
def test_odd_sqlite_paths_open_the_right_file_read_only(tmp_path, name):
    path = _sqlite_with_table(tmp_path / name)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    _assert_read_only(f"sqlite:///{path}", path)
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before  # nothing created


def test_user_uri_parameters_never_weaken_read_only(tmp_path):
    path = _sqlite_with_table(tmp_path / "db.sqlite")
    _assert_read_only(f"sqlite:///file:{path}?mode=rwc&uri=true", path)
    _assert_read_only(f"sqlite:///file:{path}?mode=rw", path)
    _assert_read_only(f"sqlite:///{path}?mode=rwc", path)
    with pytest.raises(RagdxError, match="no such SQLite file"):
        connect(f"sqlite:///file:{tmp_path / 'missing.sqlite'}?mode=rwc&uri=true")
    assert not (tmp_path / "missing.sqlite").exists()


# ----------------------------------------------------------------------------- 7. secrets


@pytest.mark.slow
def test_credentials_never_reach_manifests_or_messages(tmp_path, demo_url):
    from ragdx.rag.resolve import as_system
    from ragdx.rag.runner import run
    from tests.support.rag_http_server import RAGServer

    ds = _small_run(tmp_path).parent / "ds"
    with RAGServer() as server:
        host = server.url.split("://", 1)[1]
        url = f"http://alice:hunter2pw@{host}?token=tok3nvalue"
        run(as_system(url), ds, tmp_path / "http-run", progress=False)
    text = (tmp_path / "http-run" / "manifest.json").read_text()
    assert "hunter2pw" not in text and "tok3nvalue" not in text and "alice" in text
    # a database URL's ?password= in the dataset manifest and in error lines
    root = tmp_path / "p"
    root.mkdir()
    secret_db = demo_url + "?password=s3cretdb"
    r = ragdx("templates", "sql", "--db", secret_db, "-o", str(root / "sql.yaml"))
    assert r.returncode == 0, r.stderr
    r = ragdx("templates", "text", "--db", secret_db, "--sql", str(root / "sql.yaml"), "-o", str(root / "t.yaml"),
              "--style", "short", "--n", "1")
    assert r.returncode == 0, r.stderr
    r = ragdx("gen", "--db", secret_db, "--sql", str(root / "sql.yaml"), "--text", str(root / "t.yaml"),
              "-o", str(root / "ds"), "--max-groups-per-template", "2", "--n", "1")
    assert r.returncode == 0, r.stderr
    assert "s3cretdb" not in (root / "ds" / "manifest.json").read_text() and "s3cretdb" not in r.stdout + r.stderr
    r = ragdx("schema", "postgresql://bob@127.0.0.1:1/none?password=pgs3cret&connect_timeout=2")
    assert r.returncode == 2 and "pgs3cret" not in r.stderr + r.stdout and "cannot connect" in r.stderr


# ----------------------------------------------------------------------------- 9. side effects, timeouts


@pytest.mark.parametrize("call", ["pg_terminate_backend(1)", "pg_read_file('/etc/passwd')", "pg_advisory_lock(1)",
                                  "LOAD_FILE('/etc/passwd')", "SLEEP(100)", "BENCHMARK(100000000, MD5('x'))",
                                  "pg_sleep(100)", "randomblob(1000000000)", "lo_import('/etc/passwd')"])
def test_templates_may_not_call_side_effecting_or_unbounded_functions(tmp_path, call):
    from ragdx.errors import TemplateError

    path = _sqlite_with_table(tmp_path / "db.sqlite")
    engine = connect(f"sqlite:///{path}")
    schema = inspect_schema(engine)
    for sql in (f"SELECT {call} FROM Person WHERE Name = '[Person.Name]'",
                f"SELECT id FROM Person WHERE Name = '[Person.Name]' AND {call} IS NOT NULL"):
        with pytest.raises(TemplateError, match="not allowed in a template"):
            parse_template(SqlTemplate(sql, "Person"), schema)
    # ordinary functions stay allowed
    parse_template(SqlTemplate("SELECT UPPER(Name), LENGTH(Name), COALESCE(Name, 'x') FROM Person "
                               "WHERE id = '[Person.id]'", "Person"), schema)
    engine.dispose()


def test_a_runaway_statement_stops_at_the_statement_timeout_with_a_clear_message(tmp_path):
    import time

    from ragdx.gen.validate import validate_templates

    path = tmp_path / "big.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE Person (id INTEGER PRIMARY KEY, Name TEXT)")
        conn.executemany("INSERT INTO Person VALUES (?, ?)", [(i, f"n{i}") for i in range(3000)])
    engine = connect(f"sqlite:///{path}", statement_timeout=0.5)
    schema = inspect_schema(engine)
    slow = SqlTemplate("SELECT a.Name FROM Person a, Person b, Person c, Person d WHERE a.Name = '[Person.Name]' "
                       "AND b.Name <> c.Name AND c.Name <> d.Name AND d.id > -1", "Person")
    started = time.monotonic()
    accepted, rejected = validate_templates([slow], schema, engine)
    assert time.monotonic() - started < 10
    assert not accepted and "statement timeout" in rejected[0].reason
    with engine.connect() as conn:  # the connection is usable again afterwards
        assert conn.exec_driver_sql("SELECT COUNT(*) FROM Person").scalar() == 3000
    engine.dispose()


@pytest.mark.parametrize("kind", ["postgresql", "mysql"])
def test_server_engines_have_a_statement_timeout(request, kind):
    from ragdx.errors import DatabaseError

    url = request.getfixturevalue("pg_databases" if kind == "postgresql" else "mysql_databases").new()
    engine = connect(url, statement_timeout=0.5)
    sleep = "SELECT pg_sleep(5)" if kind == "postgresql" else "SELECT SLEEP(5) FROM (SELECT 1) t"
    with pytest.raises(DatabaseError, match="statement timeout"), engine.connect() as conn:
        conn.exec_driver_sql(sleep).fetchall()
    engine.dispose()


# ----------------------------------------------------------------------------- 14. odd names, silent input


def test_schema_method_templates_for_odd_table_names_pass_their_own_validation(tmp_path):
    from ragdx.gen.sql_templates import schema_templates
    from ragdx.gen.validate import validate_templates

    path = tmp_path / "odd.sqlite"
    with sqlite3.connect(path) as conn:
        for table in ("Order", "Élève", "my table", "it's", "Select"):
            q = '"' + table.replace('"', '""') + '"'
            conn.execute(f'CREATE TABLE {q} (id INTEGER PRIMARY KEY, "Name" TEXT UNIQUE, "Größe" TEXT, '
                         f'"the city" TEXT)')
            conn.executemany(f"INSERT INTO {q} VALUES (?, ?, ?, ?)", [(1, "a", "x", "p"), (2, "b", "y", "q")])
    engine = connect(f"sqlite:///{path}")
    schema = inspect_schema(engine)
    templates = schema_templates(schema)
    accepted, rejected = validate_templates(templates, schema, engine)
    assert not rejected, [(r.template.sql, r.reason) for r in rejected]
    covered = {p.domains[p.placeholders[0]][0] for p in accepted}
    assert {"Order", "Élève", "Select"} <= covered
    engine.dispose()


# ----------------------------------------------------------------------------- 11. one line, never a traceback


@pytest.mark.slow
def test_a_mariadb_column_with_a_backtick_is_read_and_answered(mysql_databases):
    from ragdx.gen.sql_templates import schema_templates
    from ragdx.gen.validate import validate_templates

    url = mysql_databases.new()
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE `Per``son` (id INT PRIMARY KEY, Name VARCHAR(20) UNIQUE, "
                             "`Ci``ty [x]` VARCHAR(20))")
        conn.exec_driver_sql("INSERT INTO `Per``son` VALUES (1, 'a', 'p'), (2, 'b', 'q')")
    engine.dispose()
    engine = connect(url)
    schema = inspect_schema(engine)
    (table,) = schema.tables.values()
    assert [c.name for c in table.columns] == ["id", "Name", "Ci`ty [x]"] and table.rows == 2
    r = ragdx("schema", url)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    accepted, rejected = validate_templates(schema_templates(schema), schema, engine)
    assert not rejected
    engine.dispose()


@pytest.mark.slow
def test_an_unwritable_output_is_one_line_naming_it(tmp_path, demo_url):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    run_dir = _small_run(tmp_path)
    for args in (["kb", "render", "--db", demo_url, "-o", str(blocker / "kb")],
                 ["evaluate", str(run_dir), "--judge", "exact", "--boot", "100", "-o", str(blocker / "ev")],
                 ["report", str(run_dir), "--judge", "exact", "--boot", "100", "-o", str(blocker / "r.html")],
                 ["run", "-d", str(tmp_path / "ds"), "--callable", "builtins:str", "-o", str(blocker / "run")]):
        r = ragdx(*args)
        assert r.returncode == 2, (args, r.stderr)
        assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, (args, r.stderr)
        assert "a-file" in r.stderr, (args, r.stderr)


# ----------------------------------------------------------------------------- 10. Rich markup in data


@pytest.mark.slow
def test_markup_in_paths_and_names_is_shown_as_written(tmp_path):
    r = ragdx("stats", str(tmp_path / "x" / "[/]y"))
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "[/]y" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = ragdx("stats", str(tmp_path / "[bold]records.jsonl"))
    assert r.returncode == 2 and "[bold]records.jsonl" in r.stderr, r.stderr
    path = tmp_path / "odd.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute('CREATE TABLE "[bold]T[/]" (id INTEGER PRIMARY KEY, "[/]c" TEXT, "[red]d" TEXT)')
        conn.execute("INSERT INTO \"[bold]T[/]\" VALUES (1, 'x', 'y')")
    r = ragdx("schema", f"sqlite:///{path}")
    assert r.returncode == 0, r.stderr
    assert "[bold]T[/]" in r.stdout and "[/]c" in r.stdout and "[red]d" in r.stdout
    r = ragdx("kb", "render", "--db", f"sqlite:///{path}", "-o", str(tmp_path / "[bold]kb"))
    assert r.returncode == 0, r.stderr
    assert "[bold]kb" in r.stdout


# ----------------------------------------------------------------------------- 13. a run's crash windows


def test_a_kill_between_inputs_and_manifest_needs_no_overwrite(tmp_path):
    from ragdx.rag.runner import run
    from ragdx.rag.systems import CallableSystem
    from tests.test_runner import make_dataset

    dataset = make_dataset(tmp_path / "ds", 5)
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    # what a kill right after writing inputs.jsonl leaves: the run's mark (written first, so the
    # directory is provably ragdx's), inputs, no manifest, no results
    from ragdx.store import write_owner_mark

    write_owner_mark(run_dir, kind="run", files=None)
    (run_dir / "inputs.jsonl").write_text('{"id": "r0000", "query": "q"}\n')
    summary = run(CallableSystem(lambda q: {"answer": "a"}), dataset, run_dir, progress=False)
    assert summary.ok == 5
    assert len((run_dir / "inputs.jsonl").read_text().splitlines()) == 5


def test_after_a_sigkill_the_manifest_tells_the_truth(tmp_path):
    import signal

    from ragdx.rag.rundir import read_manifest
    from tests.test_runner import child, make_dataset, wait_for_lines

    dataset = make_dataset(tmp_path / "ds", 400)
    run_dir = tmp_path / "run"
    proc = child(dataset, run_dir)
    wait_for_lines(run_dir / "results.jsonl", 150, proc)
    import time

    time.sleep(1.2)  # past one refresh of the manifest
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=scaled(10))
    on_disk = json.loads((run_dir / "manifest.json").read_text())
    assert on_disk["status"] == "running"  # SIGKILL leaves no time to say otherwise...
    assert on_disk["counts"]["ok"] >= 100  # ...but the counts were kept current while it ran
    lines = (run_dir / "results.jsonl").read_bytes().count(b"\n")
    manifest = read_manifest(run_dir)  # and a reader is told what happened
    assert manifest.status == "interrupted"
    assert manifest.counts["ok"] == lines and manifest.counts["pending"] == 400 - lines


def test_input_that_used_to_pass_silently_is_refused_in_one_line(tmp_path):
    from ragdx.config import load_config
    from ragdx.gen.dataset import read_records
    from ragdx.gen.sql_templates import read_templates

    (tmp_path / "ragdx.yaml").write_text("database: sqlite:///a.db\ndatabase: sqlite:///b.db\n")
    with pytest.raises(RagdxError, match="'database' appears twice"):
        load_config(tmp_path / "ragdx.yaml")
    (tmp_path / "t.json").write_text('{"(\'client\',)": ["SELECT 1"], "(\'client\',)": ["SELECT 2"]}')
    with pytest.raises(RagdxError, match="appears twice"):
        read_templates(tmp_path / "t.json")
    row = {"id": "q1", "group_id": "g1", "sql_template_id": "t", "text_template_id": "x", "style": "short",
           "schema": "S", "table": "T", "params": {}, "sql": "", "query": "q?", "answer_columns": ["a"],
           "answer_rows": [["b"]], "answer_text": "b", "answer_kind": "single", "kb_supported": "yes"}
    (tmp_path / "records.jsonl").write_text(json.dumps(row) + "\n")
    with pytest.raises(RagdxError, match="kb_supported") as info:
        read_records(tmp_path / "records.jsonl")
    assert "line 1" in str(info.value)
    (tmp_path / "records.jsonl").write_text(json.dumps({**row, "kb_supported": True}) + "\n")
    assert read_records(tmp_path / "records.jsonl")[0].kb_supported is True
    (tmp_path / "records.jsonl").write_text("\n")
    with pytest.raises(RagdxError, match="empty"):
        read_records(tmp_path / "records.jsonl")


# ----------------------------------------------------------------------------- 12. the screening service


@pytest.fixture(scope="module")
def fitted_tester():
    from ragdx.relevance import RelevanceTester
    from tests.test_relevance import Slice

    data = Slice()
    return RelevanceTester().fit(data.corpus, data.calibration), data


def test_the_service_answers_hostile_bodies_with_4xx_never_internal_text(fitted_tester):
    from starlette.testclient import TestClient

    from ragdx.relevance.serve import create_app

    tester, data = fitted_tester
    client = TestClient(create_app(tester, token="tok"), raise_server_exceptions=False)
    auth = {"Authorization": "Bearer tok", "content-type": "application/json"}
    good = data.in_knowledge[:2].tolist()
    for body in ['{"queries": ["\\ud800 lone"]}', '{"embeddings": [[0.1, 0.2], [0.1]]}',
                 json.dumps({"embeddings": good, "alpha": 5e-324}), '{"embeddings": [[1e999, 0]]}',
                 '{"queries": ["a"], "embeddings": [[1.0]]}', '{"queries": []}']:
        r = client.post("/v1/relevance", content=body.encode(), headers=auth)
        assert 400 <= r.status_code < 500, (body, r.status_code, r.text)
        assert "Error" not in r.json()["error"], r.text  # no exception class names
    assert client.post("/v1/relevance", json={"embeddings": good, "alpha": 0.1}, headers=auth).status_code == 200
    # health without the token says only that the service is up
    assert client.get("/healthz").json() == {"status": "ok"}
    assert "corpus_chunks" in client.get("/healthz", headers=auth).json()
    # no page that loads a UI from a CDN; the OpenAPI document names every status it returns
    assert client.get("/docs").status_code == 404 and client.get("/redoc").status_code == 404
    doc = client.get("/openapi.json").json()
    for path in ("/v1/relevance", "/v1/drift"):
        assert {"200", "400", "401", "411", "413", "422", "503"} <= set(doc["paths"][path]["post"]["responses"])
    assert "oneOf" in json.dumps(doc["components"]["schemas"]["Batch"])


def test_the_service_sheds_load_past_its_queue_bound(fitted_tester):
    from concurrent.futures import ThreadPoolExecutor

    from starlette.testclient import TestClient

    from ragdx.relevance.serve import create_app

    tester, data = fitted_tester
    auth = {"Authorization": "Bearer tok"}
    body = {"embeddings": data.in_knowledge[:64].tolist()}
    closed = TestClient(create_app(tester, token="tok", max_pending=0), raise_server_exceptions=False)
    r = closed.post("/v1/relevance", json=body, headers=auth)
    assert r.status_code == 503 and r.headers["Retry-After"] == "1"
    assert closed.get("/healthz").status_code == 200  # health checks are never shed
    client = TestClient(create_app(tester, token="tok", max_pending=2), raise_server_exceptions=False)
    with ThreadPoolExecutor(16) as pool:
        statuses = list(pool.map(lambda _: client.post("/v1/relevance", json=body, headers=auth).status_code,
                                 range(48)))
    assert set(statuses) <= {200, 503} and 200 in statuses, statuses


def test_a_systems_empty_answer_is_counted_and_shown(tmp_path):
    from rich.console import Console

    from ragdx.rag.runner import summary_table

    run_dir = _small_run(tmp_path, n=6, answer=lambda q: "" if q.endswith(("1?", "4?")) else None if
                         q.endswith("5?") else "Paris")
    manifest = json.loads((run_dir / "manifest.json").read_text())
    # "" is an answer, recorded and counted as empty; None is no answer at all: a failure
    assert (manifest["counts"]["ok"], manifest["counts"]["failed"], manifest["counts"]["empty"]) == (5, 1, 2)
    from ragdx.rag.runner import run
    from ragdx.rag.systems import CallableSystem

    summary = run(CallableSystem(lambda q: "x", name="toy"), tmp_path / "ds", run_dir, progress=False)
    console = Console(record=True, width=200)
    console.print(summary_table([summary]))
    assert "5 (2 empty)" in console.export_text()


def test_redaction_masks_userinfo_and_secret_parameters_only():
    from ragdx.redact import redact, redact_text, redact_url

    assert redact_url("http://alice:pw@h:8/ask?x=1") == "http://alice:***@h:8/ask?x=1"
    assert redact_url("postgresql://u@h/db?password=p&sslmode=require") == \
        "postgresql://u@h/db?password=***&sslmode=require"
    assert redact_url("https://h/v1?api_key=K&max_tokens=5") == "https://h/v1?api_key=***&max_tokens=5"
    assert redact_url("sqlite:///a%20b.db") == "sqlite:///a%20b.db"
    assert redact_text("cannot reach http://bob:pw@h/x?token=t&a=1") == "cannot reach http://bob:***@h/x?token=***&a=1"
    assert redact({"api_key_env": "MY_KEY", "password": "x", "max_tokens": 5, "u": ["http://a:b@h"]}) == \
        {"api_key_env": "MY_KEY", "password": "***", "max_tokens": 5, "u": ["http://a:***@h"]}


def test_outputs_written_before_the_owner_mark_are_left_to_the_person(tmp_path):
    # Issue 23: file names prove nothing (a person's own manifest.json + summary.md passed this
    # test's old rule and were deleted), so outputs without the mark are no longer replaced: the
    # one-line refusal says to delete them by hand. Was: replaced when every name was ragdx-like.
    from ragdx.store import staged_directory

    for name, files in {"ds": ["manifest.json", "records.jsonl", "records.parquet"],
                        "evaluation": ["metrics.json", "summary.md", "judgements.jsonl", "blame.jsonl"],
                        "tester": ["relevance-tester.json", "calibration_topk.npy"]}.items():
        old = tmp_path / name
        old.mkdir()
        for f in files:
            (old / f).write_text("{}")
        with pytest.raises(RagdxError, match="delete it yourself"), staged_directory(old, overwrite=True) as stage:
            (stage / "new.json").write_text("{}")
        assert sorted(p.name for p in old.iterdir()) == sorted(files)
        assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    (mixed / "manifest.json").write_text("{}")
    (mixed / "notes.txt").write_text("mine")
    with pytest.raises(RagdxError, match="not written by ragdx"), staged_directory(mixed, overwrite=True):
        pass
    assert (mixed / "notes.txt").read_text() == "mine"
