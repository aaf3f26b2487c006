"""Credentials never reach disk (issue 23, item 2).

A distinct canary secret is planted in every place a secret can enter ragdx: the database URL
(``?password=``; a PostgreSQL password in the userinfo when a server is reachable), the LLM's
``base_url`` (userinfo password, ``?api_key=``, ``?jwt=``, ``?sessionid=``), a secret-named LLM
parameter, the API key variable, the embeddings endpoint's URL and key, an ``--http`` system's URL
(``?jwt=``, ``?sessionid=``, a short token alone in the userinfo), its headers (``X-Api-Key``,
``Cookie``, a bearer token from the environment) and its body (``jwt``, ``client_secret``). Then
every command that writes files runs as a user would run it, as a real subprocess against real
servers on 127.0.0.1, and every file written (caches under a private XDG_CACHE_HOME included) and
every stdout and stderr is searched for every canary: none may appear. The caches and run
directories must be user-only under a permissive umask.

The fast tests at the top check each mechanism in-process; ``test_no_canary_in_any_file_or_output``
is the end-to-end measurement (``-m slow``). ``python tests/test_canaries.py`` prints the counts.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.support.openai_server import Fault as LLMFault
from tests.support.openai_server import OpenAIServer
from tests.support.rag_http_server import Fault, RAGServer

REPO = Path(__file__).resolve().parents[1]
RAGDX = [str(Path(sys.executable).with_name("ragdx"))]

#: every secret planted, by where it enters; each is a distinct string no command would make up
CANARIES = {
    "database ?password=": "cnryDBQUERYpw41",
    "database userinfo password (PostgreSQL)": "cnryDBUSERpw42",
    "database userinfo password (in an error)": "cnryDBERRORpw43",
    "llm base_url userinfo password": "cnryLLMUSERpw44",
    "llm base_url ?api_key=": "cnryLLMAPIKEY45",
    "llm base_url ?jwt=": "cnryLLMJWT46",
    "llm base_url ?sessionid=": "cnryLLMSESS47",
    "llm params session_token": "cnryLLMPARAM48",
    "llm API key variable": "cnryLLMENVKEY49",
    "embedder base_url userinfo password": "cnryEMBUSERpw50",
    "embedder base_url ?api_key=": "cnryEMBAPIKEY51",
    "embedder API key variable": "cnryEMBENVKEY52",
    "http URL ?jwt=": "cnryHTTPJWT53",
    "http URL ?sessionid=": "cnryHTTPSESS54",
    "http URL short token in userinfo": "cnryTOK55",
    "http header X-Api-Key": "cnryHDRKEY56",
    "http header Cookie": "cnryCOOKIE57",
    "http bearer token variable": "cnryBEARER58",
    "http body jwt": "cnryBODYJWT59",
    "http body client_secret": "cnryBODYCS60",
    "dead http URL userinfo password": "cnryDEADpw61",
}
C = CANARIES


# ----------------------------------------------------------------------------- fast: each mechanism


def test_every_secret_name_and_userinfo_form_is_masked():
    from ragdx.redact import redact, redact_text, redact_url

    url = redact_url("http://tok@h/ask?jwt=a&sessionid=b&session=c&client_secret=d&Authorization=e&page=2")
    assert url == "http://***@h/ask?jwt=***&sessionid=***&session=***&client_secret=***&Authorization=***&page=2"
    # a short token alone in the userinfo, and a password of one character
    assert redact_url("https://ab@h/x") == "https://***@h/x"
    assert redact_url("postgresql://u:p@h/db") == "postgresql://u:***@h/db"
    # a database user name alone is no secret
    assert redact_url("postgresql://postgres@h/db") == "postgresql://postgres@h/db"
    body = {"q": "{query}", "jwt": "eyJ.x", "auth": {"client_secret": "s"}, "Cookie": "sid=1", "n": 3,
            "bearer_env": "MY_TOKEN", "api_key_env": "MY_KEY", "max_tokens": 5}
    assert redact(body) == {"q": "{query}", "jwt": "***", "auth": "***", "Cookie": "***", "n": 3,
                            "bearer_env": "MY_TOKEN", "api_key_env": "MY_KEY", "max_tokens": 5}
    text = ('HTTP 400: {"jwt": "eyJ.x", "ok": 1} Authorization: Bearer abc.def '
            "host=h password=pw dbname=d https://h/cb#access_token=t")
    out = redact_text(text)
    for secret in ("eyJ.x", "abc.def", "=pw", "=t"):
        assert secret not in out, (secret, out)
    assert '"ok": 1' in out and "host=h" in out and "dbname=d" in out


def test_llm_cache_keys_on_the_redacted_request_and_stores_no_secret(tmp_path):
    from ragdx.llm import OpenAICompatibleLLM
    from ragdx.llm.cache import CompletionCache

    cache_file = tmp_path / "cache" / "llm-cache.sqlite"
    old = os.umask(0o002)
    try:
        with OpenAIServer() as server:
            server.reply = lambda body: "Correct"
            secret_url = (server.base_url.replace("http://", f"http://alice:{C['llm base_url userinfo password']}@")
                          + f"?api_key={C['llm base_url ?api_key=']}&jwt={C['llm base_url ?jwt=']}")
            llm = OpenAICompatibleLLM("m", base_url=secret_url, cache=cache_file, max_retries=0,
                                      params={"session_token": C["llm params session_token"]})
            assert llm.complete_sync([{"role": "user", "content": "one"}]).text == "Correct"
            assert llm.complete_sync([{"role": "user", "content": "two"}]).text == "Correct"
            # the query of the base URL reached the server as a query, not glued to the route
            assert [r.query for r in server.chat_requests][0].startswith("api_key=")
            # the same requests with another key are the same completions: served from the cache
            rotated = OpenAICompatibleLLM("m", base_url=secret_url.replace(C["llm base_url ?api_key="], "other"),
                                          cache=cache_file, params={"session_token": "other"})
            assert rotated.complete_sync([{"role": "user", "content": "one"}]).cached
            assert len(server.chat_requests) == 2
    finally:
        os.umask(old)
    assert len(CompletionCache(cache_file)) == 2  # two prompts, two keys
    for path in cache_file.parent.iterdir():
        data = path.read_bytes()
        assert not [name for name, c in CANARIES.items() if c.encode() in data], path
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    assert stat.S_IMODE(cache_file.parent.stat().st_mode) == 0o700
    assert "alice:***@" in repr(llm) and C["llm base_url ?api_key="] not in repr(llm)


def test_a_cache_an_older_ragdx_wrote_is_scrubbed_and_narrowed(tmp_path):
    import sqlite3

    from ragdx.llm.cache import CompletionCache, canonical_json

    path = tmp_path / "llm-cache.sqlite"
    secret = C["llm base_url ?api_key="]
    old = {"base_url": f"http://h/v1?api_key={secret}", "model": "m", "messages": [{"role": "user", "content": "q"}],
           "params": {}, "sample_index": 0}
    with sqlite3.connect(path) as conn:  # the file as ragdx wrote it before: request in clear, 0644
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE completions (key TEXT PRIMARY KEY, request TEXT NOT NULL, "
                     "response TEXT NOT NULL, created TEXT NOT NULL)")
        conn.execute("INSERT INTO completions VALUES ('k', ?, '{\"text\": \"a\"}', 'then')", (canonical_json(old),))
    conn.close()
    os.chmod(path, 0o644)
    assert secret.encode() in path.read_bytes() + b"".join(p.read_bytes() for p in tmp_path.glob("*-wal"))
    assert len(CompletionCache(path)) == 1  # the entry stays
    for file in tmp_path.iterdir():
        assert secret.encode() not in file.read_bytes(), file
        assert stat.S_IMODE(file.stat().st_mode) == 0o600, file


def test_http_system_manifest_masks_url_body_and_headers(tmp_path, monkeypatch):
    from ragdx.rag.resolve import as_system
    from ragdx.rag.runner import run
    from tests.support.small_demo import build_small_demo

    dataset = build_small_demo(tmp_path / "w", max_groups=1, per_group=1, n=1)
    monkeypatch.setenv("CANARY_BEARER", C["http bearer token variable"])
    with RAGServer() as server:
        system = as_system({
            "kind": "http", "answer_path": "data.result.text", "contexts_path": "data.hits",
            "context_id": "doc.key", "context_text": "doc.body", "context_score": "relevance",
            "url": server.url.replace("http://", f"http://{C['http URL short token in userinfo']}@")
            + f"?jwt={C['http URL ?jwt=']}&sessionid={C['http URL ?sessionid=']}",
            "headers": {"X-Api-Key": C["http header X-Api-Key"], "Cookie": f"sid={C['http header Cookie']}"},
            "bearer_env": "CANARY_BEARER",
            "body": {"q": "{query}", "rid": "{id}", "jwt": C["http body jwt"],
                     "client_secret": C["http body client_secret"]}})
        run(system, dataset, tmp_path / "run", progress=False)
        # the secrets were sent: the test would pass vacuously otherwise
        assert server.bodies[0]["jwt"] == C["http body jwt"]
        assert server.headers[0]["x-api-key"] == C["http header X-Api-Key"]
    assert stat.S_IMODE((tmp_path / "run").stat().st_mode) == 0o700
    for path in (tmp_path / "run").rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert not [name for name, c in CANARIES.items() if c.encode() in data], path


# ----------------------------------------------------------------------------- end to end


@dataclass
class World:
    root: Path
    work: Path
    cache: Path
    inputs: dict[Path, bytes] = field(default_factory=dict)
    outputs: list[tuple[str, int, str, str]] = field(default_factory=list)  # (command, rc, stdout, stderr)


def _write_input(world: World, name: str, text: str) -> Path:
    path = world.work / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    world.inputs[path] = path.read_bytes()
    return path


def _ragdx(world: World, label: str, args: list[str], *, expect: tuple[int, ...] = (0,), python: str | None = None):
    env = {k: v for k, v in os.environ.items() if k != "RAGDX_CACHE_DIR"}
    env.update({"XDG_CACHE_HOME": str(world.cache), "HOME": str(world.root / "home"), "COLUMNS": "200",
                "OMP_WAIT_POLICY": "passive", "HF_HUB_OFFLINE": "1", "NO_COLOR": "1",
                "CANARY_LLM_KEY": C["llm API key variable"], "OPENAI_API_KEY": C["embedder API key variable"],
                "CANARY_BEARER": C["http bearer token variable"]})
    cmd = [sys.executable, "-c", python] if python is not None else RAGDX + args
    done = subprocess.run(cmd, cwd=world.work, env=env, capture_output=True, text=True, timeout=600,
                          preexec_fn=lambda: os.umask(0o002))  # a permissive umask: modes must not rest on it
    world.outputs.append((label, done.returncode, done.stdout, done.stderr))
    assert done.returncode in expect, f"{label}: exit {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done


def _config(llm_url: str, embed_url: str, db_url: str) -> str:
    return json.dumps({
        "database": db_url,
        "llm": {"base_url": llm_url, "model": "judge", "api_key_env": "CANARY_LLM_KEY", "max_retries": 0,
                "params": {"session_token": C["llm params session_token"]}},
        "embedder": {"kind": "openai", "base_url": embed_url, "model": "emb"},
    }, indent=2)


def _http_spec(url: str) -> str:
    return json.dumps({
        "kind": "http", "url": url, "name": "spec-http",
        "headers": {"X-Api-Key": C["http header X-Api-Key"], "Cookie": f"sid={C['http header Cookie']}"},
        "bearer_env": "CANARY_BEARER",
        "body": {"q": "{query}", "rid": "{id}", "jwt": C["http body jwt"],
                 "client_secret": C["http body client_secret"]},
        "answer_path": "data.result.text", "contexts_path": "data.hits", "context_id": "doc.key",
        "context_text": "doc.body", "context_score": "relevance"}, indent=2)


def _postgres_url() -> str | None:
    """A scratch PostgreSQL database whose URL carries a password, when a server that takes any
    password (trust authentication) is reachable; else None and that entry point is skipped."""
    import sqlalchemy as sa

    admin = os.environ.get("RAGDX_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
    try:
        engine = sa.create_engine(sa.engine.make_url(admin).set(password=C["database userinfo password (PostgreSQL)"]),
                                  connect_args={"connect_timeout": 3}, isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            conn.execute(sa.text("DROP TABLE IF EXISTS ragdx_canary_t"))
            conn.execute(sa.text("CREATE TABLE ragdx_canary_t (id INTEGER PRIMARY KEY, name TEXT, city TEXT)"))
            conn.execute(sa.text("INSERT INTO ragdx_canary_t VALUES (1, 'Ada', 'Leeds'), (2, 'Bo', 'York'),"
                                 " (3, 'Cy', 'Leeds')"))
        url = engine.url.render_as_string(hide_password=False)
        engine.dispose()
        return url
    except Exception:  # unreachable, or a server that checks the password: the entry point is skipped
        return None


def build_world(root: Path) -> World:
    """Plant every canary, run every command that writes files; returns what it wrote and printed."""
    from ragdx.demo.database import build_demo_database

    world = World(root=root, work=root / "work", cache=root / "xdg-cache")
    world.work.mkdir(parents=True)
    (root / "home").mkdir()
    world.cache.mkdir()  # as ~/.cache exists: ragdx creates its own directory inside
    db = build_demo_database(world.work / "demo.sqlite", overwrite=True)
    world.inputs[db] = b""  # an input with no canary: searched like any file
    db_url = f"sqlite:///{db}?password={C['database ?password=']}"
    with OpenAIServer() as llm, RAGServer() as rag, \
            RAGServer(query_path="query", id_path="query", answer=_plain_answer) as plain, \
            RAGServer(query_path="query", id_path="query",
                      faults=lambda record_id, attempt: Fault(status=400, body=ECHO)) as echo:
        llm.reply = lambda body: "Correct"
        llm_url = (llm.base_url.replace("http://", f"http://alice:{C['llm base_url userinfo password']}@")
                   + f"?api_key={C['llm base_url ?api_key=']}&jwt={C['llm base_url ?jwt=']}"
                   f"&sessionid={C['llm base_url ?sessionid=']}")
        embed_url = (llm.base_url.replace("http://", f"http://bob:{C['embedder base_url userinfo password']}@")
                     + f"?api_key={C['embedder base_url ?api_key=']}")
        _write_input(world, "ragdx.yaml", _config(llm_url, embed_url, db_url))
        http_url = (rag.url.replace("http://", f"http://{C['http URL short token in userinfo']}@")
                    + f"?jwt={C['http URL ?jwt=']}&sessionid={C['http URL ?sessionid=']}")
        _write_input(world, "http.yaml", _http_spec(http_url))
        plain_url = plain.url + f"?jwt={C['http URL ?jwt=']}&sessionid={C['http URL ?sessionid=']}"
        _write_input(world, "keyword.yaml", "name: keyword\nretriever: {type: keyword}\n"
                                            "generator: {type: extractive}\ntop_k: 2\n")
        echo_url = echo.url + f"?jwt={C['http URL ?jwt=']}"
        _run_commands(world, db_url, plain_url, echo_url, llm)
        _python_api(world, db_url)
        assert llm.chat_requests and llm.embedding_requests and rag.bodies and plain.bodies  # secrets were used
    return world


def _plain_answer(query: str, record_id: str) -> dict:
    # the shape `ragdx run --http` reads without options: {"answer": …, "contexts": [{"id", "text"}]}
    return {"answer": f"answer: {query}", "contexts": [{"id": f"d-{record_id[:8]}", "text": f"about {query}"}]}


#: a hostile server's error quoting the request it was sent: what it says lands in failure records
ECHO = json.dumps({"error": "bad request", "url": f"/ask?sessionid={C['http URL ?sessionid=']}",
                   "received": {"jwt": C["http body jwt"], "client_secret": C["http body client_secret"]},
                   "headers": {"Authorization": f"Bearer {C['http bearer token variable']}",
                               "Cookie": f"sid={C['http header Cookie']}"}}).encode()


def _run_commands(world: World, db_url: str, plain_url: str, echo_url: str, llm: OpenAIServer) -> None:
    r = lambda label, *args, **kw: _ragdx(world, label, list(args), **kw)  # noqa: E731
    r("schema", "schema", db_url)
    r("schema (bad URL)", "schema", f"sqlite://bob:{C['database userinfo password (in an error)']}@/x.db",
      expect=(1, 2))
    r("kb render", "kb", "render", "--out", "kb")
    r("templates sql", "templates", "sql", "--out", "templates/sql.yaml")
    r("templates sql --method llm --dry-run", "templates", "sql", "--method", "llm", "--dry-run",
      "--out", "templates/llm.yaml")
    r("templates text", "templates", "text", "--sql", "templates/sql.yaml", "--out", "templates/text.yaml",
      "--style", "short", "--style", "long", "--n", "1")
    r("gen", "gen", "--sql", "templates/sql.yaml", "--text", "templates/text.yaml", "--kb", "kb", "--out", "dataset",
      "--style", "short", "--style", "long", "--n", "1", "--max-groups-per-template", "1", "--per-group", "1")
    r("kb link", "kb", "link", "dataset", "--corpus", "kb/documents.jsonl", "--out", "dataset-linked")
    r("kb audit", "kb", "audit", "--corpus", "kb/documents.jsonl", "--dataset", "dataset", "--out", "audit")
    r("run keyword", "run", "-d", "dataset", "-o", "runs/keyword", "--system", "keyword.yaml", "--no-progress")
    r("run --system http.yaml", "run", "-d", "dataset", "-o", "runs/http-spec", "--system", "http.yaml",
      "--no-progress")
    r("run --http", "run", "-d", "dataset", "-o", "runs/http", "--http", plain_url, "--no-progress")
    r("run --http (nothing listening)", "run", "-d", "dataset", "-o", "runs/dead", "--limit", "2", "--http",
      f"http://carol:{C['dead http URL userinfo password']}@127.0.0.1:9/ask?jwt={C['http URL ?jwt=']}",
      "--no-progress", expect=(0, 1, 2))
    r("run --http (server echoes the request)", "run", "-d", "dataset", "-o", "runs/echo", "--limit", "2",
      "--http", echo_url, "--no-progress", expect=(0, 1))
    r("run --closed-book", "run", "-d", "dataset", "-o", "runs/closed", "--closed-book", "--limit", "4",
      "--no-progress")
    llm.script(LLMFault(status=400, body=ECHO), LLMFault(status=400, body=ECHO))  # two judgements fail
    r("evaluate --judge llm", "evaluate", "runs/keyword", "--judge", "llm", "--boot", "100", expect=(0, 1))
    r("evaluate --judge cascade", "evaluate", "runs/http-spec", "--boot", "100")
    r("evaluate (http)", "evaluate", "runs/http", "--judge", "f1", "--boot", "100")
    r("compare", "compare", "runs/keyword", "runs/http-spec", "-o", "comparison", "--boot", "100")
    r("report html", "report", "runs/keyword", "runs/http-spec", "-o", "report.html", "--boot", "100")
    r("report md", "report", "runs/keyword", "runs/http-spec", "-o", "report.md", "--format", "md", "--boot", "100")
    r("export", "export", "dataset", "runs/http-spec", "--to", "ragas", "-o", "export.jsonl")
    r("annotate", "annotate", "runs/keyword", "-o", "ratings", "-n", "5")
    r("judge-agreement", "judge-agreement", "runs/keyword", "--b", "exact")
    r("relevance calibrate", "relevance", "calibrate", "kb/documents.jsonl", "--corpus-field", "text",
      "--dataset", "dataset", "-o", "tester", "--no-progress")
    r("relevance test", "relevance", "test", "tester", "Which course has code HUM-101?", "-o", "relevance.csv",
      "--no-progress")


def _python_api(world: World, db_url: str) -> None:
    urls = [db_url] + [u for u in [_postgres_url()] if u]
    for i, url in enumerate(urls):
        _ragdx(world, f"ragdx.generate_dataset #{i}", [], python=(
            f"import ragdx; ragdx.generate_dataset({url!r}, 'api-dataset-{i}', kb='api-kb-{i}', styles=('short',), "
            "n=1, max_groups=2, per_group=1)"))
        if i:
            _ragdx(world, "schema (PostgreSQL)", ["schema", url])


def written_files(world: World) -> list[Path]:
    return sorted(p for p in world.root.rglob("*") if p.is_file() and not p.is_symlink()
                  and world.inputs.get(p) not in (p.read_bytes(),))


def hits(world: World) -> list[tuple[str, str]]:
    """(where, canary name) for every canary found in a written file or a command's output."""
    found = []
    for path in written_files(world):
        data = path.read_bytes()
        found += [(str(path.relative_to(world.root)), name) for name, c in CANARIES.items() if c.encode() in data]
    for label, _, out, err in world.outputs:
        found += [(f"{label}: {stream}", name) for stream, text in (("stdout", out), ("stderr", err))
                  for name, c in CANARIES.items() if c in text]
    return found


def loose_modes(world: World) -> list[str]:
    """Caches and run directories (and everything in them) that are not user-only."""
    roots = [world.cache / "ragdx", world.work / ".ragdx-cache", world.work / "runs"]
    loose = []
    for root in roots:
        for path in [root, *root.rglob("*")]:
            want = 0o700 if path.is_dir() else 0o600
            mode = stat.S_IMODE(path.stat().st_mode)
            if path != world.work / "runs" and mode != want:
                loose.append(f"{path.relative_to(world.root)} {mode:o}")
    return loose


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return build_world(tmp_path_factory.mktemp("canaries"))


@pytest.mark.slow
def test_no_canary_in_any_file_or_output(world):
    files = written_files(world)
    assert len(files) > 50  # every command wrote its files
    assert any("llm-cache.sqlite" in p.name for p in files)
    assert any(p.name == "embeddings.sqlite" or "emb" in p.name for p in files if world.cache in p.parents)
    assert hits(world) == []
    # the hostile server's replies quoting the secrets it was sent were recorded, masked
    echoed = (world.work / "runs" / "echo" / "results.jsonl").read_text()
    assert "HTTP 400" in echoed and '"jwt\\": \\"***\\"' in echoed, echoed[:500]


@pytest.mark.slow
def test_caches_and_run_directories_are_user_only(world):
    assert (world.work / ".ragdx-cache" / "llm-cache.sqlite").exists()
    assert any(world.cache.rglob("*.sqlite"))
    assert loose_modes(world) == []


if __name__ == "__main__":
    import tempfile

    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="ragdx-canaries-") as tmp:
        w = build_world(Path(tmp))
        found = hits(w)
        print(f"{len(written_files(w))} files written by {len(w.outputs)} commands, {len(CANARIES)} canaries "
              f"planted, {len(found)} hits, {len(loose_modes(w))} caches/run paths not user-only "
              f"({time.perf_counter() - started:.0f} s)")
        for where, name in found:
            print(f"  {name}: {where}")
        for line in loose_modes(w):
            print(f"  mode: {line}")
