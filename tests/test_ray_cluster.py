"""A real two-node Ray cluster on this machine: ``ray start --head`` + ``ray start --address``,
each node with one CPU, and ragdx's drivers pointed at it with ``--address``.

What made this fail before, and what the fixture does about it:

* Token authentication (Ray 2.60, what this project installs). ``ray.init()`` of a local instance turns token mode on
  and writes ``~/.ray/auth_token``; from then on ``ray start --head`` on this machine finds the
  token and runs in token mode, but ``ray start --address`` (a worker) and ``ray.init(address=)``
  (a driver) only use a token when ``RAY_AUTH_MODE=token`` is set: the worker is refused
  ("InvalidAuthToken ... RAY_AUTH_MODE is currently 'disabled'") and the driver gets "Failed to
  connect". So every process here runs with ``RAY_AUTH_MODE=token`` and a token of its own
  (``RAY_AUTH_TOKEN_PATH`` in the cluster's temp dir), whatever ``~/.ray`` holds.
* Addresses. Ray replaces ``--node-ip-address=127.0.0.1`` by the host's routable address
  (``services.resolve_ip_for_localhost``), so both nodes register as, e.g., 192.0.2.2. That is
  fine where the host reaches its own address; where it does not, the test skips and says so.

The cluster has its own ``--temp-dir`` and runs in its own process groups (``ray start
--block``), so teardown stops exactly these processes (never ``ray stop``, which would end every
Ray on the machine, other users' included). Drivers run as subprocesses: the test process's own
Ray state (``tests/test_ray.py``'s local instance) stays out of it.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from ragdx.rag.rundir import read_run
from ragdx.rag.runner import run
from tests.support.timing import scaled
from tests.test_ray import REPO, _records, pipeline_setup

pytest.importorskip("ray", reason="the Ray executor's tests need the ray extra (pip install 'ragdx[ray]')")

pytestmark = pytest.mark.slow

RAY = str(Path(sys.executable).with_name("ray"))
START_TIMEOUT_S = scaled(180)  # two nodes on a busy 2-core machine take a while


def node_of(query: str) -> str:
    """The Ray node this query was answered on (``--callable tests.test_ray_cluster:node_of``)."""
    import ray

    return ray.get_runtime_context().get_node_id()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=5):
            return True
    except OSError:
        return False


class LocalCluster:
    """Head + one worker on 127.0.0.1, one CPU each, stopped by process group at :meth:`stop`."""

    def __init__(self) -> None:
        # short: Ray's Unix socket paths live under it and are limited to ~107 characters
        self.root = Path(tempfile.mkdtemp(prefix="ragdx-ray-", dir="/tmp"))
        self.port = _free_port()
        self.address = f"127.0.0.1:{self.port}"
        token = self.root / "auth_token"
        token.write_text(secrets.token_hex(32), encoding="utf-8")
        token.chmod(0o600)
        env = {k: v for k, v in os.environ.items() if k not in ("RAY_ADDRESS", "RAY_AUTH_TOKEN")}
        env.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN_PATH=str(token), HF_HUB_OFFLINE="1",
                   OMP_WAIT_POLICY="passive", PYTHONPATH=str(REPO),
                   # no 30 s drain on SIGTERM: nothing here needs a graceful hand-over
                   RAY_GRACEFUL_SHUTDOWN_DRAIN_TIMEOUT_S="0")
        self.env = env
        self.procs: list[subprocess.Popen] = []

    def _start(self, name: str, *args: str) -> tuple[subprocess.Popen, Path]:
        log = self.root / f"{name}.log"
        with log.open("wb") as fh:
            proc = subprocess.Popen([RAY, "start", "--block", "--num-cpus=1", "--num-gpus=0",
                                     "--object-store-memory=100000000", "--node-ip-address=127.0.0.1",
                                     f"--temp-dir={self.root / name}", *args],
                                    stdout=fh, stderr=subprocess.STDOUT, env=self.env, start_new_session=True)
        self.procs.append(proc)
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            text = log.read_text(errors="replace")
            if "Ray runtime started" in text:
                return proc, log
            if proc.poll() is not None:
                break
            time.sleep(1)
        return proc, log

    def start(self) -> None:
        head, log = self._start("head", "--head", f"--port={self.port}", "--include-dashboard=false",
                                "--disable-usage-stats")
        text = log.read_text(errors="replace")
        if "Ray runtime started" not in text:
            pytest.skip(f"ray start --head did not start here: {_tail(text)}")
        ip = next((line.rsplit(":", 1)[1].strip() for line in text.splitlines() if "Local node IP:" in line),
                  "127.0.0.1")
        if not _reachable(ip, self.port):
            pytest.skip(f"Ray registered this host as {ip} (it replaces 127.0.0.1 by the routable address) "
                        f"and {ip}:{self.port} is not reachable from this host")
        worker, wlog = self._start("worker", f"--address={self.address}")
        wtext = wlog.read_text(errors="replace")
        # the worker's failure to join is what this test is about: fail, don't skip
        assert "Ray runtime started" in wtext, f"the worker node did not join: {_tail(wtext)}"

    def stop(self) -> None:
        for proc in reversed(self.procs):  # the worker first, then the head
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
        for proc in self.procs:
            try:
                proc.wait(timeout=scaled(60))
            except subprocess.TimeoutExpired:
                pass
        # anything of this cluster still alive (its command line names our temp dir) is killed
        for pid in _pids_naming(str(self.root)):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        shutil.rmtree(self.root, ignore_errors=True)


def _pids_naming(text: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if text.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def _tail(text: str, lines: int = 6) -> str:
    return " | ".join(line.strip() for line in text.strip().splitlines()[-lines:])[-1500:]


@pytest.fixture(scope="module")
def cluster():
    c = LocalCluster()
    try:
        c.start()
        yield c
    finally:
        c.stop()
        assert not _pids_naming(str(c.root)), "a process of the test cluster outlived the teardown"


def _driver(cluster: LocalCluster, *args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd, env=cluster.env,
                          timeout=scaled(900))


def test_two_nodes_answer_a_run_with_the_local_records(cluster, tmp_path):
    # a callable that says where it ran: two actors of one CPU each on the two one-CPU nodes
    from tests.test_runner import make_dataset

    dataset = make_dataset(tmp_path / "data", 8)
    where = _driver(cluster, "-m", "ragdx.cli", "run", "-d", str(dataset), "-o", str(tmp_path / "where"),
                    "--executor", "ray", "--address", cluster.address, "--workers", "2",
                    "--callable", "tests.test_ray_cluster:node_of", "--no-progress")
    assert where.returncode == 0, where.stdout[-2000:] + where.stderr[-2000:]
    answered_on = {o.answer for o in read_run(tmp_path / "where")}
    assert len(answered_on) == 2 and all(len(n) == 56 for n in answered_on)  # two Ray node ids: both nodes

    # a driver without RAY_AUTH_MODE=token is refused, and the one-line error says what to set
    refused = subprocess.run([sys.executable, "-m", "ragdx.cli", "run", "-d", str(dataset), "-o",
                              str(tmp_path / "refused"), "--executor", "ray", "--address", cluster.address,
                              "--callable", "tests.test_ray_cluster:node_of", "--no-progress"],
                             capture_output=True, text=True, cwd=REPO, timeout=scaled(600),
                             env={k: v for k, v in cluster.env.items() if not k.startswith("RAY_AUTH_")})
    assert refused.returncode == 2 and "RAY_AUTH_MODE=token" in refused.stderr, refused.stderr[-2000:]

    # a built-in pipeline: the records of the cluster run are the local executor's
    spec, data = pipeline_setup(tmp_path, n=12)
    from ragdx.rag.resolve import as_system

    local = run(as_system(spec, dataset=data), data, tmp_path / "local", progress=False)
    on_cluster = _driver(cluster, "-m", "ragdx.cli", "run", "-d", str(data), "-o", str(tmp_path / "cluster"),
                         "--executor", "ray", "--address", cluster.address, "--workers", "2", "--system",
                         str(spec), "--no-progress")
    assert on_cluster.returncode == 0, on_cluster.stdout[-2000:] + on_cluster.stderr[-2000:]
    assert local.ok == 12 and _records(tmp_path / "cluster") == _records(tmp_path / "local")


def test_calibrate_embeds_on_both_nodes_with_the_local_vectors(cluster, tmp_path):
    import numpy as np

    from ragdx.embed import Embedder
    from tests.test_embedders import topical_corpus, topical_questions

    corpus, questions = topical_corpus(40), topical_questions(30, 1)
    (tmp_path / "corpus.jsonl").write_text("".join(json.dumps({"content": t}) + "\n" for t in corpus))
    (tmp_path / "cal.jsonl").write_text("".join(json.dumps({"question": q}) + "\n" for q in questions))
    cluster_env = cluster.env
    cluster.env = {**cluster_env, "RAGDX_CACHE_DIR": str(tmp_path / "cache"), "COLUMNS": "200"}
    try:
        res = _driver(cluster, "-m", "ragdx.cli", "relevance", "calibrate", "corpus.jsonl", "--queries", "cal.jsonl",
                      "-o", "tester", "--executor", "ray", "--address", cluster.address, "--workers", "2",
                      "--no-progress", cwd=tmp_path)
    finally:
        cluster.env = cluster_env
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    unique = len(set(corpus + questions))  # a text asked twice is embedded once
    assert f"{unique} texts embedded on 2 node(s) (cpu)" in res.stdout, res.stdout
    # the cache the actors filled holds the local model's vectors for every text
    cached = Embedder(cache_dir=tmp_path / "cache")
    hits = cached._vectors.lookup([cached._key(t) for t in corpus + questions])
    assert len(hits) == unique
    from_ray = np.vstack([np.frombuffer(hits[cached._key(t)], dtype=np.float32) for t in corpus + questions])
    local = Embedder(cache_dir=None).embed(corpus + questions)
    assert np.allclose(from_ray, local, atol=1e-5) and float((from_ray * local).sum(axis=1).min()) >= 0.99999
    # the saved tester names the local embedder: it is loaded and queried without Ray
    from ragdx.relevance.tester import MANIFEST

    manifest = json.loads((tmp_path / "tester" / MANIFEST).read_text())
    assert manifest["embedder"] == Embedder().to_dict()
