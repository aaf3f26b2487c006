"""The one key-value cache (ragdx.kvcache) under completions, verdicts and embeddings: round trip,
threads and processes sharing a file, user-only permissions, the size bound, isolated namespaces,
and the tables an older ragdx wrote still hitting."""

from __future__ import annotations

import json
import multiprocessing
import os
import pickle
import sqlite3
import stat
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from ragdx.errors import RagdxError
from ragdx.kvcache import Entry, KVStore, Legacy, remove_store, store_info


def test_round_trip_bytes_text_and_json_survive_a_new_store(tmp_path):
    path = tmp_path / "c.sqlite"
    ns = KVStore(path).namespace("things")
    ns.put("a", b"\x00\x01raw")
    ns.put("b", "text é", meta="for readers")
    ns.put_json("c", {"x": [1, 2.5], "y": None})
    ns.put_many([Entry("d", b"dd"), ("e", b"ee")])

    again = KVStore(path).namespace("things")
    assert again.get("a") == b"\x00\x01raw"
    assert again.get("b") == "text é".encode()
    assert again.get_json("c") == {"x": [1, 2.5], "y": None}
    assert again.get("missing") is None and again.get_json("missing") is None
    assert again.get_many(["a", "nope", "e", "b"]) == {"a": b"\x00\x01raw", "e": b"ee", "b": "text é".encode()}
    assert len(again) == 5
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT meta FROM things WHERE key = 'b'").fetchone() == ("for readers",)
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    conn.close()


def test_get_many_reads_more_keys_than_sqlite_binds_at_once(tmp_path):
    ns = KVStore(tmp_path / "c.sqlite").namespace("v", overwrite=True)
    ns.put_many([(f"k{i}", i.to_bytes(4, "little")) for i in range(2_345)])
    found = ns.get_many([f"k{i}" for i in range(2_400)])
    assert len(found) == 2_345 and found["k2000"] == (2000).to_bytes(4, "little")


def test_first_value_stays_unless_the_namespace_overwrites(tmp_path):
    store = KVStore(tmp_path / "c.sqlite")
    kept, replaced = store.namespace("kept"), store.namespace("replaced", overwrite=True)
    for ns in (kept, replaced):
        ns.put("k", b"first")
        ns.put("k", b"second")
    assert kept.get("k") == b"first" and replaced.get("k") == b"second"


def test_namespaces_are_isolated(tmp_path):
    store = KVStore(tmp_path / "c.sqlite")
    a, b = store.namespace("a"), store.namespace("b")
    a.put("same", b"from a")
    b.put("same", b"from b")
    assert (a.get("same"), b.get("same")) == (b"from a", b"from b")
    assert a.clear() == 1
    assert a.get("same") is None and b.get("same") == b"from b" and len(b) == 1
    info = store_info(tmp_path / "c.sqlite")
    assert info.exists and info.rows == {"a": 0, "b": 1} and info.bytes > 0
    for bad in ("kv_namespaces", "Robert'); DROP", "", "1abc"):
        with pytest.raises(RagdxError, match="namespace"):
            store.namespace(bad)


def test_values_over_the_bound_are_refused_and_nothing_is_written(tmp_path):
    ns = KVStore(tmp_path / "c.sqlite", label="test cache", max_value_bytes=100).namespace("v")
    ns.put("fits", b"x" * 100)
    with pytest.raises(RagdxError, match="102 bytes is over the bound of 100") as err:
        ns.put_many([("ok", b"small"), ("big", "é" * 51)])  # 102 bytes once encoded
    assert err.value.source == str(tmp_path / "c.sqlite") and err.value.field == "v"
    assert ns.get("ok") is None and ns.get("big") is None and len(ns) == 1


def test_file_directory_and_wal_are_user_only_whatever_the_umask(tmp_path):
    old = os.umask(0o002)
    try:
        path = tmp_path / "new" / "deeper" / "c.sqlite"
        ns = KVStore(path).namespace("v")
        ns.put("k", b"secret prompt")
        KVStore(path).namespace("v").get("k")  # a second connection: -shm and -wal exist by now
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    files = [p for p in path.parent.iterdir()]
    assert {p.name for p in files} >= {"c.sqlite", "c.sqlite-wal", "c.sqlite-shm"}
    for p in files:
        assert stat.S_IMODE(p.stat().st_mode) == 0o600, p


def test_an_existing_files_wal_companions_are_narrowed(tmp_path):
    """A file an older ragdx (or SQLite with a 0644 database) left readable by others."""
    path = tmp_path / "c.sqlite"
    holder = sqlite3.connect(path)  # kept open, so that -wal and -shm stay on disk
    holder.execute("PRAGMA journal_mode=WAL")
    holder.execute("CREATE TABLE other (x)")
    holder.execute("INSERT INTO other VALUES (1)")
    holder.commit()
    for p in tmp_path.iterdir():
        os.chmod(p, 0o644)
    try:
        KVStore(path).namespace("v").put("k", b"v")
        files = sorted(p.name for p in tmp_path.iterdir())
        modes = [stat.S_IMODE(p.stat().st_mode) for p in sorted(tmp_path.iterdir())]
    finally:
        holder.close()  # the last connection to close removes -wal and -shm
    assert (files, modes) == (["c.sqlite", "c.sqlite-shm", "c.sqlite-wal"], [0o600] * 3)


def test_threads_share_one_store(tmp_path):
    ns = KVStore(tmp_path / "c.sqlite").namespace("v")
    errors: list[BaseException] = []

    def work(t: int) -> None:
        try:
            for i in range(0, 200, 20):
                ns.put_many([(f"{t}-{j}", f"{t}:{j}".encode()) for j in range(i, i + 20)])
                assert ns.get(f"{t}-{i}") == f"{t}:{i}".encode()
        except BaseException as exc:  # noqa: BLE001 -- reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    assert len(ns) == 1_600
    assert ns.get_many([f"7-{j}" for j in range(200)])["7-199"] == b"7:199"


_WRITER = textwrap.dedent("""
    import sys
    from ragdx.kvcache import KVStore
    ns = KVStore(sys.argv[1]).namespace("v")
    me = sys.argv[2]
    for i in range(0, 400, 10):
        ns.put_many([(f"{me}-{j}", f"{me}:{j}".encode()) for j in range(i, i + 10)])
        ns.get_many([f"a-{j}" for j in range(400)] + [f"b-{j}" for j in range(400)])
""")


def test_two_processes_write_and_read_one_file_at_once(tmp_path):
    path = tmp_path / "c.sqlite"
    procs = [subprocess.Popen([sys.executable, "-c", _WRITER, str(path), name], stderr=subprocess.PIPE, text=True)
             for name in ("a", "b")]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    ns = KVStore(path).namespace("v")
    assert len(ns) == 800
    assert ns.get("a-399") == b"a:399" and ns.get("b-0") == b"b:0"


def _child_reads(ns, queue) -> None:
    queue.put(ns.get("k"))


def test_a_forked_child_opens_its_own_connection(tmp_path):
    ns = KVStore(tmp_path / "c.sqlite").namespace("v")
    ns.put("k", b"v")  # the parent's connection is open now
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_child_reads, args=(ns, queue))
    child.start()
    got = queue.get(timeout=60)
    child.join(60)
    assert child.exitcode == 0 and got == b"v"
    assert ns.get("k") == b"v"  # and the parent's still works
    copy = pickle.loads(pickle.dumps(ns.store))
    assert copy.namespace("v").get("k") == b"v"


def test_a_table_of_unknown_layout_is_one_error_naming_the_file(tmp_path):
    path = tmp_path / "c.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE v (a TEXT, b TEXT)")
    conn.close()
    with pytest.raises(RagdxError, match="test cache: table v has an unknown layout") as err:
        KVStore(path, label="test cache").namespace("v", legacy=Legacy(renames={"b": "value"})).get("k")
    assert err.value.source == str(path)
    with pytest.raises(RagdxError, match="test cache unusable") as err:
        (tmp_path / "not.sqlite").write_text("this is not a database, it is plain text " * 100)
        KVStore(tmp_path / "not.sqlite", label="test cache").namespace("v").get("k")
    assert err.value.source == str(tmp_path / "not.sqlite")


def test_an_older_embedding_cache_is_adopted_in_place(tmp_path):
    """embeddings.sqlite as ragdx wrote it before: table emb (key, vec); its vectors still hit."""
    from ragdx.embed import CACHE_FILE, CachedEmbedder

    class Fixed(CachedEmbedder):
        batch_size = 8
        dimension = 2
        model_id = "fixed-model"
        calls = 0

        def _encode(self, texts):
            import numpy as np

            Fixed.calls += 1
            return np.ones((len(texts), 2), dtype=np.float32)

    import numpy as np

    emb = Fixed()
    emb._init_cache(tmp_path)
    old = np.array([0.6, 0.8], dtype=np.float32)
    with sqlite3.connect(tmp_path / CACHE_FILE) as conn:
        conn.execute("CREATE TABLE emb (key TEXT PRIMARY KEY, vec BLOB)")
        conn.execute("INSERT INTO emb VALUES (?, ?)", (emb._key("cached before"), old.tobytes()))
    conn.close()
    out = emb.embed(["cached before", "new text"])
    assert Fixed.calls == 1 and np.allclose(out[0], old) and np.allclose(out[1], [2 ** -0.5, 2 ** -0.5])
    assert store_info(tmp_path / CACHE_FILE).rows["emb"] == 2


def test_an_older_verdict_cache_is_adopted(tmp_path):
    from ragdx.evaluate import ExactMatchJudge, JudgeItem, VerdictCache

    judge = ExactMatchJudge()
    item = JudgeItem("How many?", [[3]], "3")
    path = tmp_path / "verdicts.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE verdicts (key TEXT PRIMARY KEY, correct INTEGER NOT NULL, judge TEXT NOT NULL, "
                     "reason TEXT NOT NULL, score REAL, created TEXT NOT NULL)")
        conn.execute("INSERT INTO verdicts VALUES (?, 1, 'exact', 'matched before', 0.75, 'then')",
                      (VerdictCache.key(item, judge),))
    conn.close()
    cache = VerdictCache(path)
    hit = cache.get(item, judge)
    assert hit is not None and (hit.correct, hit.judge, hit.reason, hit.score, hit.cached) == (
        True, "exact", "matched before", 0.75, True)
    assert cache.hits == 1 and len(cache) == 1
    with sqlite3.connect(path) as conn:
        value, created = conn.execute("SELECT value, created FROM verdicts").fetchone()
    conn.close()
    assert json.loads(value)["correct"] == 1 and created == "then"


def test_remove_store_deletes_the_file_and_its_wal_only(tmp_path):
    path = tmp_path / "c.sqlite"
    keep = tmp_path / "other.txt"
    keep.write_text("mine")
    KVStore(path).namespace("v").put("k", b"v" * 1000)
    freed = remove_store(path)
    assert freed > 1000 and not path.exists() and not Path(f"{path}-wal").exists() and keep.exists()
    assert store_info(path) == store_info(path) and not store_info(path).exists and store_info(path).rows == {}


def test_an_older_completion_cache_still_hits(tmp_path):
    """llm-cache.sqlite as ragdx wrote it before: (key, request, response, created), already scrubbed."""
    from ragdx.llm.cache import CompletionCache, canonical_json, request_key, stored_request

    request = {"base_url": "http://h/v1", "model": "m", "messages": [{"role": "user", "content": "q"}],
               "params": {"temperature": 0}, "sample_index": 0}
    path = tmp_path / "llm-cache.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE completions (key TEXT PRIMARY KEY, request TEXT NOT NULL, "
                     "response TEXT NOT NULL, created TEXT NOT NULL)")
        conn.execute("INSERT INTO completions VALUES (?, ?, ?, 'then')",
                     (request_key(request), stored_request(request), canonical_json({"text": "old answer"})))
        conn.execute("PRAGMA user_version = 1")
    conn.close()
    cache = CompletionCache(path)
    assert cache.get(request) == {"text": "old answer"}
    cache.put(request, {"text": "a racing second answer"})  # the first answer stays
    cache.put({**request, "sample_index": 1}, {"text": "new"})
    assert CompletionCache(path).get(request) == {"text": "old answer"} and len(cache) == 2


def test_no_existing_sqlite_file_is_opened_outside_sqlite(tmp_path, monkeypatch):
    # POSIX drops every lock a process holds on a file when it closes any descriptor of that file:
    # opening the -shm to narrow its mode released the connection's locks, and another process
    # then truncated the -shm under this one's mapping (SIGBUS in the two-process test, once)
    from ragdx import kvcache

    path = tmp_path / "c.sqlite"
    ns = KVStore(path).namespace("v")
    ns.put("k", b"v")  # the connection is open, the -wal and -shm exist
    assert path.with_name("c.sqlite-shm").exists()
    opened: list[str] = []
    real_open = os.open

    def spy(name, flags, *args):
        opened.append(str(name))
        return real_open(name, flags, *args)

    monkeypatch.setattr(os, "open", spy)
    kvcache.private_cache_file(path)
    kvcache.private_cache_file(path, siblings_only=True)
    assert [p for p in opened if p.startswith(str(path))] == []
    assert ns.get("k") == b"v"
