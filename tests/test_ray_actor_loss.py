"""The Ray executor on a two-node cluster on this machine: batches, and a worker killed mid-run.

The cluster is Ray's own test cluster (``ray.cluster_utils.Cluster``: a head and a second node,
one CPU each, real raylets and worker processes; Ray registers them under the host's address
rather than 127.0.0.1). The systems are importable as ``tests.test_ray_actor_loss:<name>`` by
the workers, which get this repository on their ``PYTHONPATH``.
"""

from __future__ import annotations

import os
import re
import signal
import threading
import time
from pathlib import Path

import pytest

from ragdx.rag.runner import run
from ragdx.rag.systems import CallableSystem
from tests.test_ray import REPO, _records
from tests.test_runner import make_dataset

pytest.importorskip("ray", reason="the Ray executor's tests need the ray extra (pip install 'ragdx[ray]')")

pytestmark = pytest.mark.slow  # a two-node cluster takes ~15 s to start on a busy 2-core machine


def slow_echo(query: str) -> str:
    """Deterministic and a little slow (2 ms), so a run lasts long enough to kill a worker in it."""
    time.sleep(0.002)
    return f"echo {query.rsplit('#', 1)[1]} of {len(query)} characters"


def dies_on_7(query: str) -> str:
    """slow_echo, except that query #7 kills the worker process answering it, every time."""
    if query.rsplit("#", 1)[1] == "7":
        os._exit(3)
    return slow_echo(query)


async def waiting_echo(query: str) -> str:
    """An LLM-like system: it waits (20 ms) rather than computes, so an actor runs several at once."""
    import asyncio

    await asyncio.sleep(0.02)
    return f"waited for {query.rsplit('#', 1)[1]}"


@pytest.fixture(scope="module")
def two_nodes():
    import ray
    from ray.cluster_utils import Cluster

    if ray.is_initialized():  # another module's instance: one connection per process
        ray.shutdown()
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    try:
        cluster.add_node(num_cpus=1)
        env = {"PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1", "OMP_WAIT_POLICY": "passive"}
        ray.init(address=cluster.address, log_to_driver=False, runtime_env={"env_vars": env})
        cluster.wait_for_nodes()
        assert len([n for n in ray.nodes() if n["Alive"]]) == 2
        yield ray
    finally:
        ray.shutdown()
        cluster.shutdown()


def _ray_system(workers: int = 2, target: str = "tests.test_ray_actor_loss:slow_echo", **kw):
    from ragdx.rag.executor_ray import ray_system_for
    from ragdx.rag.resolve import request_from_options

    return ray_system_for(request_from_options(callable_=target), workers=workers, **kw)


def test_batches_give_the_local_records(two_nodes, tmp_path):
    dataset = make_dataset(tmp_path / "data", 200)
    local = run(CallableSystem("tests.test_ray_actor_loss:slow_echo"), dataset, tmp_path / "local", progress=False)
    system, concurrency = _ray_system()
    summary = run(system, dataset, tmp_path / "ray", concurrency=concurrency, progress=False)
    assert (local.ok, summary.ok, summary.failed) == (200, 200, 0)
    assert _records(tmp_path / "ray") == _records(tmp_path / "local")
    # batches, not one call per query: 4, 8, 16, ... per actor, at most 2 in flight each
    assert 2 <= system.batches <= 40, system.batches
    assert system.events == [] and system.restarts == 0


def test_queries_in_flight_inside_an_actor_give_the_local_records(two_nodes, tmp_path):
    """Runner concurrency 8 over 2 actors: 4 queries at once inside each, across its batches."""
    from ragdx.rag.executor_ray import ray_system_for
    from ragdx.rag.resolve import request_from_options

    dataset = make_dataset(tmp_path / "data", 120)
    target = "tests.test_ray_actor_loss:waiting_echo"
    local = run(CallableSystem(target), dataset, tmp_path / "local", progress=False)
    system, concurrency = ray_system_for(request_from_options(callable_=target), workers=2, concurrency=8)
    assert system.concurrency_per_worker == 4 and concurrency >= 2 * 2 * system.max_batch
    summary = run(system, dataset, tmp_path / "ray", concurrency=concurrency, progress=False)
    assert (local.ok, summary.ok) == (120, 120)
    assert _records(tmp_path / "ray") == _records(tmp_path / "local")


def _kill_when(results: Path, lines: int, system, victim: int, killed: list[int]) -> None:
    """SIGKILL actor ``victim``'s worker process once ``results`` has ``lines`` lines."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if results.exists() and results.read_bytes().count(b"\n") >= lines:
            pid = system.actors()[victim]["pid"]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
            return
        time.sleep(0.005)


def test_a_killed_worker_loses_duplicates_and_changes_no_record(two_nodes, tmp_path, capfd):
    n = 400
    dataset = make_dataset(tmp_path / "data", n)
    local = run(CallableSystem("tests.test_ray_actor_loss:slow_echo"), dataset, tmp_path / "local", progress=False)
    system, concurrency = _ray_system()
    system.build()  # the actors exist (and have pids) before the run starts
    pids = [a["pid"] for a in system.actors()]
    assert len(set(pids)) == 2 and os.getpid() not in pids
    killed: list[int] = []
    killer = threading.Thread(target=_kill_when, args=(tmp_path / "ray" / "results.jsonl", 60, system, 1, killed))
    killer.start()
    try:
        summary = run(system, dataset, tmp_path / "ray", concurrency=concurrency, progress=False)
    finally:
        killer.join()
    assert killed == [pids[1]]
    # every query exactly once, and each record the local executor's
    lines = (tmp_path / "ray" / "results.jsonl").read_text().splitlines()
    assert len(lines) == n and (summary.ok, summary.failed, summary.pending) == (n, 0, 0) and local.ok == n
    assert _records(tmp_path / "ray") == _records(tmp_path / "local")
    # what the user saw: one line naming the actor, its worker and the queries sent again
    said = [line for line in capfd.readouterr().err.splitlines() if line.startswith("ray:")]
    assert said == system.events and len(said) == 1, said
    match = re.match(rf"ray: actor 1 \(pid {pids[1]}\) lost \(.+\); (\d+) queries re-queued; ", said[0])
    assert match and 1 <= int(match[1]) <= 2 * system.max_batch, said[0]
    assert system.restarts == 1


def test_all_actors_lost_fails_the_queries_not_the_run(two_nodes, tmp_path):
    """With no replacement allowed and the only actor killed, the queries left are recorded as
    failed with the reason (``--rerun-failed`` sends them again), and the run ends."""
    n = 300
    dataset = make_dataset(tmp_path / "data", n)
    system, concurrency = _ray_system(workers=1, max_restarts=0)
    system.build()
    killed: list[int] = []
    killer = threading.Thread(target=_kill_when, args=(tmp_path / "run" / "results.jsonl", 30, system, 0, killed))
    killer.start()
    try:
        summary = run(system, dataset, tmp_path / "run", concurrency=concurrency, progress=False)
    finally:
        killer.join()
    assert len(killed) == 1 and summary.ok >= 30 and summary.ok + summary.failed == n and summary.failed > 0
    from ragdx.rag.rundir import read_run

    errors = {o.error for o in read_run(tmp_path / "run") if o.error}
    assert errors and all("every Ray actor was lost" in e for e in errors), errors
    assert len(system.events) == 1 and "0 live" in system.events[0]


def test_a_query_that_kills_its_worker_fails_alone(two_nodes, tmp_path):
    """Query 7 kills every worker it reaches: after ``max_requeues`` re-sends it is recorded as
    failed with the reason, and every other query (its batch-mates included) is answered."""
    from ragdx.rag.rundir import read_run

    n = 60
    dataset = make_dataset(tmp_path / "data", n)
    system, concurrency = _ray_system(target="tests.test_ray_actor_loss:dies_on_7")
    summary = run(system, dataset, tmp_path / "run", concurrency=concurrency, progress=False)
    assert (summary.ok, summary.failed) == (n - 1, 1)
    records = {o.id: o for o in read_run(tmp_path / "run")}
    poisoned = [o for o in records.values() if o.error]
    assert [o.query.rsplit("#", 1)[1] for o in poisoned] == ["7"]
    assert f"died {system.max_requeues + 1} times" in poisoned[0].error
    assert all(o.answer == slow_echo(o.query) for o in records.values() if not o.error)
    assert len(system.events) == system.max_requeues + 1 and system.restarts == system.max_requeues + 1


def test_an_interrupted_run_resumes_to_the_local_records(two_nodes, tmp_path):
    """Cancelled with batches in flight (Ctrl-C under asyncio.run), the run keeps what it wrote and
    stops its actors; a resumed run sends only the rest, and the records are the local run's."""
    import asyncio

    from ragdx.rag.runner import arun

    n = 300
    dataset = make_dataset(tmp_path / "data", n)
    local = run(CallableSystem("tests.test_ray_actor_loss:slow_echo"), dataset, tmp_path / "local", progress=False)
    results = tmp_path / "ray" / "results.jsonl"
    system, concurrency = _ray_system()

    async def interrupted() -> None:
        task = asyncio.create_task(arun(system, dataset, tmp_path / "ray", concurrency=concurrency, progress=False))
        while not (results.exists() and results.read_bytes().count(b"\n") >= 50):
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(interrupted())
    written = len(results.read_text().splitlines())
    assert 50 <= written < n and system.actors() == []  # stopped with the run
    again, concurrency = _ray_system()
    resumed = run(again, dataset, tmp_path / "ray", concurrency=concurrency, progress=False)
    assert (resumed.attempted, resumed.ok, local.ok) == (n - written, n, n)
    assert len(results.read_text().splitlines()) == n
    assert _records(tmp_path / "ray") == _records(tmp_path / "local")
