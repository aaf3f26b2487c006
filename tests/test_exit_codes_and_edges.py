"""Issue 23, items 5 and 13: the exit status of a run (every record failed, ``--max-failed``), URLs
checked before any work, and the rough edges: a repeated id in a results file, an inline pipeline
spec without a corpus, MariaDB's REGEXP and server variables, a 405's Allow header, and the Ray
start-up message."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from ragdx.errors import TemplateError
from tests.support.small_demo import build_small_demo

RAGDX = str(Path(sys.executable).with_name("ragdx"))


@pytest.fixture(scope="module")
def dataset(tmp_path_factory) -> Path:
    return build_small_demo(tmp_path_factory.mktemp("edges"))


def ragdx(*args: str, cwd: Path | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    full = {**os.environ, "COLUMNS": "200", "OMP_WAIT_POLICY": "passive", "HF_HUB_OFFLINE": "1", **(env or {})}
    return subprocess.run([RAGDX, *args], capture_output=True, text=True, cwd=cwd, env=full, timeout=300)


def ids(dataset: Path, n: int) -> list[str]:
    return [json.loads(line)["id"] for line in (dataset / "records.jsonl").read_text().splitlines()[:n]]


def test_a_run_whose_every_record_failed_exits_1_and_says_why(dataset, tmp_path):
    # port 9 (discard) has nothing listening: every record fails after its retries
    p = ragdx("run", "-d", str(dataset), "-o", str(tmp_path / "r"), "--http", "http://127.0.0.1:9/ask",
              "--limit", "2", "--no-progress")
    assert p.returncode == 1, p.stdout + p.stderr
    manifest = json.loads((tmp_path / "r" / "manifest.json").read_text())
    assert manifest["counts"]["failed"] == 2  # the run is written all the same
    assert manifest["exit"] == {"code": 1, "reason": "every record sent failed (2 of 2)"}
    assert manifest["invocations"][-1]["exit"]["code"] == 1
    assert "every record sent failed" in p.stderr
    # the reason is a real message ("after 4 attempts"), never the folded "after N attempts"
    assert "gave up after " in p.stdout and "after N attempts" not in p.stdout


def test_max_failed_counts_and_shares(dataset, tmp_path):
    a, b, _, _ = ids(dataset, 4)
    answers = tmp_path / "answers.jsonl"  # two of four records answered: the other two fail
    answers.write_text(json.dumps({"id": a, "answer": "x"}) + "\n" + json.dumps({"id": b, "answer": "y"}) + "\n")
    base = ["run", "-d", str(dataset), "--results", str(answers), "--limit", "4", "--no-progress"]
    p = ragdx(*base, "-o", str(tmp_path / "one"), "--max-failed", "1")
    assert p.returncode == 1, p.stdout + p.stderr
    reason = json.loads((tmp_path / "one" / "manifest.json").read_text())["exit"]["reason"]
    assert reason == "2 records failed, more than --max-failed 1"
    p = ragdx(*base, "-o", str(tmp_path / "half"), "--max-failed", "50%")  # 2 of 4 is not more than half
    assert p.returncode == 0, p.stdout + p.stderr
    assert json.loads((tmp_path / "half" / "manifest.json").read_text())["exit"] == {"code": 0, "reason": None}
    p = ragdx(*base, "-o", str(tmp_path / "share"), "--max-failed", "0.25")
    assert p.returncode == 1 and "2 of 4 records failed (50.0%)" in p.stderr
    p = ragdx(*base, "-o", str(tmp_path / "bad"), "--max-failed", "1.5")
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "--max-failed" in p.stderr
    assert not (tmp_path / "bad").exists()


@pytest.mark.parametrize("url", ["http://[::1", "ftp://example.org/ask", "http://127.0.0.1:99999/"])
def test_a_bad_http_url_is_one_line_before_any_work(dataset, tmp_path, url):
    p = ragdx("run", "-d", str(dataset), "-o", str(tmp_path / "r"), "--http", url)
    assert p.returncode == 2, p.stderr
    assert p.stderr.count("\n") == 1 and "--http" in p.stderr and "Traceback" not in p.stderr
    assert not (tmp_path / "r").exists()


def test_a_repeated_id_in_a_results_file_is_refused_naming_the_line(dataset, tmp_path):
    a, b = ids(dataset, 2)
    answers = tmp_path / "answers.jsonl"
    answers.write_text("".join(json.dumps(r) + "\n" for r in
                               ({"id": a, "answer": "x"}, {"id": b, "answer": "y"}, {"id": a, "answer": "z"})))
    p = ragdx("run", "-d", str(dataset), "-o", str(tmp_path / "r"), "--results", str(answers), "--no-progress")
    assert p.returncode == 2, p.stdout + p.stderr
    assert f"{answers}: line 3: id '{a}' repeats line 1" in p.stderr
    assert not (tmp_path / "r").exists()


def test_a_runs_own_results_file_with_retries_is_still_read(dataset, tmp_path):
    # ragdx's results.jsonl holds a retried record twice (the later line wins): that is not a repeat
    first = ragdx("run", "-d", str(dataset), "-o", str(tmp_path / "r"), "--http", "http://127.0.0.1:9/ask",
                  "--limit", "1", "--no-progress")
    assert first.returncode == 1
    again = ragdx("run", "-d", str(dataset), "-o", str(tmp_path / "r"), "--http", "http://127.0.0.1:9/ask",
                  "--limit", "1", "--rerun-failed", "--no-progress")
    assert again.returncode == 1
    assert len((tmp_path / "r" / "results.jsonl").read_text().splitlines()) == 2
    p = ragdx("run", "-d", str(dataset), "-o", str(tmp_path / "replay"), "--results",
              str(tmp_path / "r" / "results.jsonl"), "--limit", "1", "--no-progress")
    assert "repeats line" not in p.stderr, p.stderr


def test_an_inline_pipeline_spec_without_a_corpus_gets_the_datasets(dataset, tmp_path):
    spec = tmp_path / "inline.yaml"
    spec.write_text("kind: pipeline\nretriever: {type: keyword}\ngenerator: {type: extractive}\n")
    p = ragdx("run", "-d", str(dataset), "-o", str(tmp_path / "r"), "--system", str(spec), "--limit", "2",
              "--no-progress")
    assert p.returncode == 0, p.stdout + p.stderr  # was: "unknown key 'kind'"
    manifest = json.loads((tmp_path / "r" / "manifest.json").read_text())
    assert manifest["counts"]["ok"] == 2 and manifest["system"]["config"]["corpus_documents"] > 0


def test_server_variables_are_refused_in_a_template():
    from ragdx.db import inspect_schema
    from ragdx.gen.sql_templates import SqlTemplate, parse_template

    engine = sa.create_engine("sqlite://")
    with engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE T (a INTEGER PRIMARY KEY, b TEXT)"))
    schema = inspect_schema(engine)
    for sql in ("SELECT @@datadir FROM T WHERE a = '[T.a]'", "SELECT b FROM T WHERE b = @@version AND a = '[T.a]'"):
        with pytest.raises(TemplateError, match="server and session variables"):
            parse_template(SqlTemplate(sql, "T"), schema)


def test_regexp_templates_run_on_mariadb(mysql_databases):
    # sqlglot writes REGEXP as REGEXP_LIKE(), which MySQL 8 has and MariaDB does not
    from ragdx.db import connect, inspect_schema
    from ragdx.gen.sql_templates import SqlTemplate, parse_template

    url = mysql_databases.new()
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE T (a INTEGER PRIMARY KEY, b VARCHAR(20))"))
        conn.execute(sa.text("INSERT INTO T VALUES (1, 'xylophone'), (2, 'drum')"))
    engine.dispose()
    engine = connect(url, read_only=True)
    parsed = parse_template(SqlTemplate("SELECT b FROM T WHERE b REGEXP '^x' AND a = '[T.a]'", "T", method="file"),
                            inspect_schema(engine))
    sql, names = parsed.executable()
    assert "REGEXP_LIKE" not in sql and "REGEXP" in sql
    with engine.connect() as conn:
        rows = conn.exec_driver_sql(sql, {names[0]: 1}).all()
    assert [r[0] for r in rows] == ["xylophone"]
    engine.dispose()


def test_a_405_names_the_allowed_methods():
    from starlette.testclient import TestClient

    from ragdx.relevance import RelevanceTester
    from ragdx.relevance.serve import create_app
    from tests.test_relevance import Slice

    data = Slice()
    tester = RelevanceTester().fit(data.corpus, data.calibration)
    client = TestClient(create_app(tester, token="t" * 24))
    r = client.get("/v1/relevance", headers={"Authorization": "Bearer " + "t" * 24})
    assert r.status_code == 405
    assert r.headers.get("allow") == "POST" and r.json() == {"error": "Method Not Allowed"}


def test_ray_start_failure_does_not_blame_an_address_nobody_gave(tmp_path):
    pytest.importorskip("ray")
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("x")  # Ray cannot make its session folder under a file: the local start fails
    code = ("from ragdx.ray_support import connect_ray\nfrom ragdx.errors import RagdxError\n"
            "try:\n    connect_ray(None)\nexcept RagdxError as e:\n    print(e)\n")
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       env={**env, "RAY_TMPDIR": str(not_a_dir)})
    assert p.stdout.startswith("--executor: cannot start a local Ray instance"), p.stdout + p.stderr[-2000:]
    assert "--address" not in p.stdout
