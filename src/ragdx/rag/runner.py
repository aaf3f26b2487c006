"""Run a system over a dataset into a run directory that survives crashes and resumes.

The run directory's files, its manifest and how they are read are :mod:`ragdx.rag.rundir`'s;
the results file's writer (group commit) is :mod:`ragdx.rag.writer`'s.

A run only appends to a directory made by the same system configuration over the same
queries; anything else is refused unless ``overwrite`` is given, so two systems' answers are
never mixed in one file.

A system may have a ``build()`` method (a built-in pipeline does: it indexes its corpus); the
runner calls it once, in a worker thread, before the first query.

A plain re-run sends only pending records: failed ones are recorded with their error and stay
so until ``rerun_failed`` sends them again (with the pending ones); records that succeeded are
never sent twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import platform
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from ragdx.errors import RagdxError
from ragdx.rag.executor import Executor, LocalAsyncExecutor
from ragdx.rag.rundir import (
    INPUTS,
    LOCK,
    MANIFEST,
    OWN_FILES,
    RESULTS,
    Manifest,
    RunPaths,
    RunTally,
    check_identity,
    cut_torn_tail,
    queries_sha256,
    scan_results,
    write_inputs,
)
from ragdx.rag.types import System, SystemInput, SystemOutput
from ragdx.rag.writer import ResultsWriter
from ragdx.store import gc_paused

if TYPE_CHECKING:
    from rich.table import Table

    from ragdx.rag.context_store import ContextStore

__all__ = [
    "RunSummary",
    "RunInterrupted",
    "run",
    "arun",
    "run_grid",
    "load_grid",
    "grid_table",
    "summary_table",
    "EXIT_FAILED",
    "parse_max_failed",
    "failure_verdict",
    "record_exit",
]

#: seconds at least between rewrites of the manifest's counts while a run goes on (0: one after every
#: record, no pacing: for tests)
MANIFEST_REFRESH_S = 1.0
#: a refresh's CPU is at most this share of the event loop's own CPU since the refresh before it:
#: paced by the work done, not the wall clock alone, so a loop that gets little CPU (a loaded
#: machine) does not spend a growing share of it rewriting the manifest
MANIFEST_REFRESH_SHARE = 0.01
#: ... but while records come in, never further apart than this (a loop that waits on a slow
#: system does little work; its manifest is still at most this stale when a SIGKILL lands)
MANIFEST_STALE_MAX_S = 5.0


@dataclass(slots=True)
class RunSummary:
    """Where a run directory stands after an invocation of :func:`run`."""

    run_dir: Path
    system: str
    total: int
    ok: int
    failed: int
    pending: int
    #: records sent to the system by this invocation, and those skipped as already done
    attempted: int = 0
    skipped: int = 0
    #: summed over every line, retried records included: what the runs have cost
    prompt_tokens: int = 0
    completion_tokens: int = 0
    #: over the latest line of each successful record
    latency_s: dict[str, float | None] = field(default_factory=dict)
    elapsed_s: float = 0.0
    interrupted: bool = False
    #: of ``ok``: records whose answer is empty or null (the system said nothing; kept, and shown)
    empty: int = 0
    #: what the run found wrong with its input (e.g. ``--otel`` saw no retriever span)
    warnings: list[str] = field(default_factory=list)
    #: summed over every line like the tokens: what ragdx's LLM clients did for the system (calls,
    #: retries, failures, cache hits, tokens, cost); None when it made no request through them
    llm_usage: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["run_dir"] = str(self.run_dir)
        return data


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run; the directory is consistent and ``summary`` says where it stands.

    A KeyboardInterrupt, so callers that do not know about it still stop (the CLI exits 130)."""

    def __init__(self, summary: RunSummary):
        super().__init__(f"interrupted: {summary.ok + summary.failed} of {summary.total} records done")
        self.summary = summary


# ----------------------------------------------------------------------------- dataset


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _inputs_hash(ids: Sequence[str], queries: Sequence[str]) -> str:
    return queries_sha256(zip(ids, queries, strict=True))


def _id_query_pairs(records: Iterable[Any]) -> tuple[list[str], list[str]]:
    """The ids and queries of records given in memory (a dataset file's are checked by its reader)."""
    ids, queries = [], []
    for r in records:
        rid, query = getattr(r, "id", None), getattr(r, "query", None)
        if not isinstance(rid, str) or not isinstance(query, str):
            raise RagdxError(f"dataset items need string 'id' and 'query', got {type(r).__name__}")
        ids.append(rid)
        queries.append(query)
    return ids, queries


def _load_dataset(dataset: str | Path | Iterable[Any]) -> tuple[list[SystemInput], dict[str, Any]]:
    """The queries to send, and what identifies the dataset. Only id, query and a follow-up's
    history (the conversation before it, as a user saw it) are passed to the system: gold answers
    and documents must never reach the system under test."""
    if isinstance(dataset, str | Path):
        from ragdx.rag.run_dataset import read_queries

        # every record checked, only (id, query) kept: not a million full records at once
        # (read_queries checks ragdx's own files by columns, several times faster than by records)
        read = read_queries(dataset)
        info: dict[str, Any] = {"path": str(Path(dataset)), "sha256": read.sha256}
        ids, queries, histories = read.ids, read.queries, read.histories
    else:
        info = {"path": None, "sha256": None}
        dataset = list(dataset)
        ids, queries = _id_query_pairs(dataset)
        histories = {r.id: list(h) for r in dataset if (h := getattr(r, "history", None))}
    if len(set(ids)) != len(ids):
        seen: set[str] = set()
        for twice in ids:  # the first id met a second time
            if twice in seen:
                break
            seen.add(twice)
        raise RagdxError(f"duplicate record id {twice!r}", source=info["path"])
    # a million SystemInputs (and the hash's [id, query] lists), none in a cycle: the collector's
    # passes over them found nothing and doubled the cost of making them
    with gc_paused():
        inputs = list(map(SystemInput, ids, queries))
        if histories:
            for item in inputs:
                item.history = histories.get(item.id, item.history)
        # The run's identity is the queries, not the gold answers: regenerating the dataset's
        # answers does not invalidate what the system said.
        info["queries_sha256"] = _inputs_hash(ids, queries)
    info["records"] = len(inputs)
    return inputs, info


def _normalise(config: Any) -> Any:
    """describe() as it will read back from JSON, so that a resumed run compares equal, with
    every credential (a URL's password or token, a secret-named key) masked: it goes to disk."""
    from ragdx.redact import redact

    return redact(json.loads(json.dumps(config, sort_keys=True, ensure_ascii=False, default=str)))


def _versions() -> dict[str, str]:
    import ragdx

    return {"ragdx": ragdx.__version__, "python": platform.python_version(), "platform": sys.platform}


def _open_run(run_dir: Path, system: System, config: Any, dataset: dict[str, Any], inputs: list[SystemInput],
              overwrite: bool) -> Manifest:
    """Check that ``run_dir`` may receive this run; create it if new. Returns the manifest."""
    paths = RunPaths(run_dir)
    if run_dir.exists() and not run_dir.is_dir():
        raise RagdxError("exists and is not a directory", source=str(run_dir))
    if overwrite:
        # Only a directory ragdx made (its mark) or an empty one: a person's manifest.json or
        # results.jsonl has the same name as ours. Then only our own files: the rest stays.
        check_run_directory(run_dir, overwrite=True)
        for name in OWN_FILES:
            (run_dir / name).unlink(missing_ok=True)
    if paths.manifest.exists():
        manifest = Manifest.read(run_dir)
        check_identity(manifest, config, dataset, run_dir)
        if not paths.inputs.exists():
            write_inputs(run_dir, inputs)
        # The dataset may have been regenerated or moved with the same queries: keep it current.
        manifest.dataset = dataset
        return manifest
    if paths.inputs.exists() and not paths.results.exists() or \
            paths.results.exists() and paths.results.stat().st_size == 0:
        # a kill between writing inputs.jsonl and manifest.json: our own start, nothing answered
        # yet; starting again loses nothing, so it needs no --overwrite
        pass
    elif run_dir.exists() and (paths.results.exists() or paths.inputs.exists()):
        raise RagdxError(f"has {RESULTS} or {INPUTS} but no {MANIFEST}; pass --overwrite to start over",
                         source=str(run_dir))
    run_dir.mkdir(parents=True, exist_ok=True)
    if all(e.name == LOCK for e in run_dir.iterdir()):
        from ragdx.store import write_owner_mark

        # a directory this run made: marked, so a later --overwrite may start it afresh
        write_owner_mark(run_dir, kind="run", files=None)
    # Inputs first, manifest last: a directory with a manifest is always a complete start.
    write_inputs(run_dir, inputs)
    manifest = Manifest(system={"name": system.name, "config": config}, dataset=dataset, versions=_versions(),
                        started=_now(), ended=None, status="created", invocations=[])
    manifest.write(run_dir)
    return manifest


def _write_manifest(run_dir: Path, manifest: Manifest, tally: RunTally, exact: bool = False) -> None:
    # constant time while the run goes on (the tally is kept per record); ``exact`` walks every
    # record once, for the manifest a run leaves behind
    manifest.summarise(tally, exact=exact)
    manifest.write(run_dir)


def _json_scalar(value: Any) -> Any:
    # Scores often arrive as numpy scalars; they must be written as numbers, not as text.
    item = getattr(value, "item", None)
    if callable(item):
        return item()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


# One encoder for every result line: json.dumps with options builds a new one per call.
_LINE_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=_json_scalar)


# ----------------------------------------------------------------------------- progress


def _progress(total: int, done: int, name: str):  # (Progress, TaskID); no task without a bar
    from rich.markup import escape

    from ragdx.progress import bars

    bar = bars(failed=True, rate=True)

    task = bar.add_task(escape(name), total=total, completed=done, failed=0)
    return bar, task


class _NoProgress:
    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def update(self, *args: Any, **kwargs: Any) -> None:
        pass


# ----------------------------------------------------------------------------- run


async def answer_query(system: System, item: SystemInput) -> SystemOutput:
    """One query, never raising: a system that breaks the protocol still leaves a record."""
    from ragdx.llm.usage import counting
    from ragdx.redact import redact_text

    started = time.perf_counter()
    try:
        # the query's own requests, though the system's client serves every query at once
        with counting() as usage:
            out = await system.answer(item)
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        text = redact_text(" ".join(str(exc).split()))[:300]
        return SystemOutput(id=item.id, query=item.query, answer=None, latency_s=time.perf_counter() - started,
                            error=f"system raised {type(exc).__name__}: {text}")
    if not isinstance(out, SystemOutput):
        return SystemOutput(id=item.id, query=item.query, answer=None, latency_s=time.perf_counter() - started,
                            error=f"system returned {type(out).__name__}, not a SystemOutput")
    if out.id != item.id:
        return SystemOutput(id=item.id, query=item.query, answer=None, latency_s=out.latency_s,
                            error=f"system answered for id {out.id!r} instead")
    if out.error:
        # written to results.jsonl: a server quoting the request (URL, headers, body) in its error
        # must not put a credential there
        out.error = redact_text(out.error)
    # latency_s stays as the system reported it: None means unknown (a results file without
    # timings), and the runner's own clock would pass a lookup off as the system's speed.
    if usage.counted():
        from ragdx.llm.estimate import usage_record

        out.llm = usage_record(usage)
        if out.attempts == 1:
            # a system that counts no attempts of its own (a pipeline) retried through its LLM
            # client: its record said 1 attempt whatever the client did
            out.attempts += usage.retries
    return out


async def arun(system: System, dataset: str | Path | Iterable[Any], run_dir: str | Path, *, concurrency: int = 4,
               rerun_failed: bool = False, executor: Executor | None = None, progress: bool = True,
               overwrite: bool = False, limit: int | None = None, contexts: str = "once") -> RunSummary:
    """:func:`run` for callers already inside an event loop. Cancellation (Ctrl-C under
    ``asyncio.run``) stops scheduling, cancels what is in flight, writes the manifest and
    re-raises."""
    if concurrency < 1:
        raise RagdxError("concurrency must be at least 1", field="concurrency")
    if limit is not None and limit < 0:
        raise RagdxError("limit must not be negative", field="limit")
    if not isinstance(system, System):
        raise RagdxError(f"{type(system).__name__} does not implement the System protocol")
    clock = time.perf_counter()
    run_dir = Path(run_dir)
    inputs, dataset_info = _load_dataset(dataset)
    if dataset_info["path"] is not None:
        from ragdx.rag.run_dataset import dataset_location

        # found again from the run directory wherever both are moved together (see run_dataset)
        dataset_info.update(dataset_location(dataset_info["path"], run_dir))
    # One-time setup (a pipeline's index, a model load) happens before the first query, so it
    # neither counts as that query's latency nor fails every record one by one.
    check_run_directory(run_dir, overwrite=overwrite)  # before the system is built (an index takes minutes)
    build = getattr(system, "build", None)
    if callable(build):
        await asyncio.to_thread(build)
    config = _normalise(system.describe())
    otel = getattr(system, "otel", False) is True
    if otel:
        from ragdx.rag.adapters.otel import reset_span_stats

        reset_span_stats()
    with _exclusive(run_dir, overwrite=overwrite):
        summary = await _run_locked(system, inputs, dataset_info, config, run_dir, clock, concurrency=concurrency,
                                    rerun_failed=rerun_failed, executor=executor, progress=progress,
                                    overwrite=overwrite, limit=limit, contexts=contexts)
    if otel:
        summary.warnings.extend(_otel_warnings())
    return summary


def _otel_warnings() -> list[str]:
    """--otel: a run none of whose traced queries showed a retriever span captured no contexts;
    said while the run goes on (after a few queries, by ``ragdx.rag.adapters.otel``) and again
    here, for a run shorter than that."""
    import warnings

    from ragdx.rag.adapters.otel import NO_RETRIEVER_SPAN, span_stats

    stats = span_stats()
    if not stats["queries"] or stats["with_retriever"]:
        return []
    message = NO_RETRIEVER_SPAN.format(n=stats["queries"])
    if not stats["warned"]:
        warnings.warn(message, RuntimeWarning, stacklevel=3)
    return [message]


def check_run_directory(run_dir: str | Path, *, overwrite: bool = False) -> None:
    """Before the lock file is created in it: a run goes only into a directory ragdx made (its
    mark), an empty one, or a run an earlier ragdx made before runs were marked (its manifest
    reads as a run's, and is resumed). ``overwrite`` deletes the run's files, so it needs the
    mark of a run. Public so that the CLI refuses before building the system."""
    from ragdx.store import check_writable_directory, read_owner_mark

    run_dir = Path(run_dir)
    if overwrite or not run_dir.is_dir() or read_owner_mark(run_dir) is not None:
        check_writable_directory(run_dir, ignore={LOCK}, kind="run")
        return
    try:
        ours = Manifest.read(run_dir).is_run()
    except RagdxError:
        ours = False
    if not ours:
        check_writable_directory(run_dir, ignore={LOCK})


@contextlib.contextmanager
def _exclusive(run_dir: Path, *, overwrite: bool = False) -> Iterator[None]:
    """Hold ``run_dir/.lock`` for the run: two runners appending to one results file would
    send and write records twice. The kernel drops the lock when a process dies, even by
    SIGKILL, so a crash never leaves the directory locked."""
    if run_dir.exists() and not run_dir.is_dir():
        raise RagdxError("exists and is not a directory", source=str(run_dir))
    check_run_directory(run_dir, overwrite=overwrite)
    from ragdx.store import private_dir, private_opener

    private_dir(run_dir)  # user-only whatever the umask: it holds every query, answer and context
    try:
        import fcntl
    except ImportError:  # not POSIX: no advisory locks, run without one
        yield
        return
    with open(RunPaths(run_dir).lock, "a", opener=private_opener) as fh:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RagdxError("another ragdx run is writing to this directory", source=str(run_dir)) from None
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


async def _run_locked(system: System, inputs: list[SystemInput], dataset_info: dict[str, Any], config: Any,
                      run_dir: Path, clock: float, *, concurrency: int, rerun_failed: bool,
                      executor: Executor | None, progress: bool, overwrite: bool, limit: int | None,
                      contexts: str = "once") -> RunSummary:
    from ragdx.rag.context_store import ContextStore

    manifest = _open_run(run_dir, system, config, dataset_info, inputs, overwrite)
    store = ContextStore(run_dir, contexts)
    results_path = RunPaths(run_dir).results
    scan = scan_results(results_path)
    cut_torn_tail(results_path, scan)
    tally = RunTally(inputs, scan)  # the one walk over every record; then kept up per line

    def wanted(item: SystemInput) -> bool:
        obj = scan.latest.get(item.id)
        return obj is None or (rerun_failed and obj.get("error") is not None)

    todo = [i for i in inputs if wanted(i)]
    if limit is not None:
        todo = todo[:limit]
    skipped = len(inputs) - len(todo)
    invocation = {"started": _now(), "ended": None, "concurrency": concurrency, "rerun_failed": rerun_failed,
                  "scheduled": len(todo), "attempted": 0, "repaired_torn_line": scan.torn_bytes > 0,
                  "status": "running", "contexts": contexts}
    manifest.invocations.append(invocation)
    manifest.status = "running"
    manifest.ended = None
    _write_manifest(run_dir, manifest, tally, exact=True)
    prepare = getattr(system, "prepare", None)
    if callable(prepare) and todo:
        # per-query work a system can do for all queries at once (the extractive reader embeds
        # them in batches): done once, here, rather than one model call per query
        await asyncio.to_thread(prepare, [i.query for i in todo])

    status = "error"
    done_before = sum(1 for i in inputs if not wanted(i))
    bar, task = _progress(done_before + len(todo), done_before, system.name) if progress else (_NoProgress(), None)

    def acknowledge(group: list[dict[str, Any]]) -> None:
        for obj in group:
            tally.add(obj)
        bar.update(task, advance=len(group), failed=writer.failed)

    writer = ResultsWriter(results_path, acknowledge)
    refresh = functools.partial(_write_manifest, run_dir, manifest, tally)
    try:
        with bar:
            try:
                await _answer_all(system, todo, executor or LocalAsyncExecutor(), concurrency, store, writer,
                                  refresh)
                status = "complete"
            except (asyncio.CancelledError, KeyboardInterrupt):
                status = "interrupted"
                raise
            finally:
                # the last group is counted while the bar is still shown: off a terminal the bar's
                # last line is its only one, and it must not end short of what was answered
                writer.commit()
    finally:
        writer.close()  # what was answered and written is synced and counted, however the run ends
        store.close()
        await _close_system(system)
        status = _finish(manifest, invocation, tally, status, writer.synced)
        _write_manifest(run_dir, manifest, tally, exact=True)
    counts = tally.counts()
    return RunSummary(
        run_dir=run_dir, system=system.name, total=counts["total"], ok=counts["ok"], failed=counts["failed"],
        pending=counts["pending"], empty=counts["empty"], attempted=writer.synced,
        skipped=skipped, prompt_tokens=scan.prompt_tokens, completion_tokens=scan.completion_tokens,
        latency_s=manifest.latency_s or {}, elapsed_s=round(time.perf_counter() - clock, 3),
        llm_usage=manifest.llm_usage,
    )


async def _answer_all(system: System, todo: list[SystemInput], executor: Executor, concurrency: int,
                      store: ContextStore, writer: ResultsWriter, refresh: Callable[[], None]) -> None:
    """Send ``todo`` and write each answer as it comes; the manifest's counts are rewritten as
    :class:`RefreshPacer` allows (a SIGKILL leaves no time to write it at the end)."""
    pacer = RefreshPacer(refresh)
    results = executor.map(lambda item: answer_query(system, item), todo, concurrency)
    try:
        async for out in results:
            # contexts.jsonl gets any new text (synced) before the line that refers to it
            writer.append(_LINE_ENCODER.encode(store.compact(out.to_dict())) + "\n", out)
            pacer.tick()
    finally:
        await results.aclose()


class RefreshPacer:
    """Calls ``refresh`` from the event loop, after a record, when all of these hold:

    * ``MANIFEST_REFRESH_S`` of wall time have passed since the last refresh, and
    * the loop's own CPU since then (``time.thread_time`` of the loop's thread, the refresh
      itself not counted) is at least the last refresh's CPU / ``MANIFEST_REFRESH_SHARE``,
      i.e. refreshing costs at most 1 % of the loop's CPU, however little CPU the loop gets;

    or when ``MANIFEST_STALE_MAX_S`` have passed whatever the CPU (a loop waiting on a slow system).
    The refresh's cost is measured each time, so a larger manifest spaces refreshes further; the
    CPU clock (a system call) is read at most ten times a wall second, not after every record.
    ``MANIFEST_REFRESH_S == 0`` refreshes after every record."""

    __slots__ = ("refresh", "wall", "due", "cpu", "cost", "refreshes", "spent")

    def __init__(self, refresh: Callable[[], None]):
        self.refresh = refresh
        self.wall = time.monotonic()  # of the last refresh
        self.due = self.wall + MANIFEST_REFRESH_S  # no look at the CPU clock before this
        self.cpu = time.thread_time()
        self.cost = 0.0  # CPU s of the last refresh
        self.refreshes = 0
        self.spent = 0.0  # CPU s of every refresh

    def tick(self) -> bool:
        """One record done: refresh if due; True if it did."""
        now = time.monotonic()
        if now < self.due:
            return False
        before = time.thread_time()
        if (MANIFEST_REFRESH_S > 0 and now - self.wall < MANIFEST_STALE_MAX_S
                and (before - self.cpu) * MANIFEST_REFRESH_SHARE < self.cost):
            self.due = now + MANIFEST_REFRESH_S / 10  # not yet: the CPU clock read again a little later
            return False
        self.refresh()
        self.cpu = time.thread_time()
        self.cost = self.cpu - before
        self.refreshes += 1
        self.spent += self.cost
        self.wall = time.monotonic()
        self.due = self.wall + MANIFEST_REFRESH_S
        return True


async def _close_system(system: System) -> None:
    aclose = getattr(system, "aclose", None)
    if aclose is not None:
        try:
            await aclose()
        except Exception:  # closing connections must not hide the run's own outcome
            pass


def _finish(manifest: Manifest, invocation: dict[str, Any], tally: RunTally, status: str, attempted: int) -> str:
    """The invocation's end and the run's status, in the manifest; returns the invocation's status."""
    now = tally.counts()
    if status == "complete" and now["pending"]:
        status = "partial"  # --limit left some out
    invocation.update(ended=_now(), attempted=attempted, status=status)
    manifest.status = status if status != "complete" else ("complete" if not now["failed"] else
                                                            "complete_with_failures")
    manifest.ended = invocation["ended"]
    return status


def _summary_from_dir(run_dir: Path, system_name: str, elapsed: float) -> RunSummary:
    manifest = Manifest.read(run_dir)
    done = manifest.counts or {}
    last = (manifest.invocations or [{}])[-1]
    return RunSummary(
        run_dir=run_dir, system=system_name, total=done.get("total", 0), ok=done.get("ok", 0),
        failed=done.get("failed", 0), pending=done.get("pending", 0), attempted=last.get("attempted", 0),
        skipped=done.get("total", 0) - last.get("scheduled", 0),
        prompt_tokens=(manifest.tokens or {}).get("prompt", 0),
        completion_tokens=(manifest.tokens or {}).get("completion", 0),
        latency_s=manifest.latency_s or {}, elapsed_s=round(elapsed, 3), interrupted=True,
        llm_usage=manifest.llm_usage,
    )


def run(system: System, dataset: str | Path | Iterable[Any], run_dir: str | Path, *, concurrency: int = 4,
        rerun_failed: bool = False, executor: Executor | None = None, progress: bool = True,
        overwrite: bool = False, limit: int | None = None, contexts: str = "once") -> RunSummary:
    """Run ``system`` over ``dataset`` (a dataset directory, a records file, or records with
    ``id`` and ``query``) into ``run_dir``, resuming what is there.

    ``concurrency`` bounds queries in flight; ``rerun_failed`` sends failed records again;
    ``overwrite`` discards an existing run in ``run_dir`` (only ragdx's own files in it);
    ``limit`` sends at most that many records this time. On Ctrl-C the directory is left
    consistent and :class:`RunInterrupted` (a KeyboardInterrupt) is raised with the summary.
    ``contexts``: ``once`` stores each distinct retrieved text once (``contexts.jsonl``),
    ``full`` inline in every result line, ``hash`` only ids and hashes
    (:mod:`ragdx.rag.context_store`).
    """
    clock = time.perf_counter()
    coro = arun(system, dataset, run_dir, concurrency=concurrency, rerun_failed=rerun_failed,
                executor=executor, progress=progress, overwrite=overwrite, limit=limit, contexts=contexts)
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        coro.close()
        raise RagdxError("run() called inside an event loop; await arun() instead")
    try:
        return asyncio.run(coro)
    except KeyboardInterrupt:
        # asyncio.run turned Ctrl-C into a cancellation; arun wrote the manifest on the way out.
        if not RunPaths(Path(run_dir)).manifest.exists():
            raise
        raise RunInterrupted(_summary_from_dir(Path(run_dir), system.name, time.perf_counter() - clock)) from None


# ----------------------------------------------------------------------------- grid

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def load_grid(grid: str | Path | Mapping[str, Any]) -> tuple[list[tuple[str, dict[str, Any]]], Path | None]:
    """The named system specs of a grid file, in file order, and the directory that relative
    paths in them are taken from.

    A grid has ``systems`` (name → full spec) and/or ``variants`` (name → overrides merged
    over ``base``; ``null`` removes a key)::

        base: {kind: pipeline, path: pipelines/base.yaml}
        variants:
          er: {retriever: {rerank: true}}
          mq-er: {query_rewrite: {n: 3}, retriever: {rerank: true}}
        systems:
          vendor: {kind: http, url: http://127.0.0.1:8000/ask}
    """
    from ragdx.rag.systems import merge, read_yaml

    source = "grid"
    base_dir: Path | None = None
    if isinstance(grid, str | Path):
        source = str(grid)
        base_dir = Path(grid).parent
        data = read_yaml(Path(grid))
    else:
        data = grid
    if not isinstance(data, Mapping):
        raise RagdxError("expected a mapping with 'systems' and/or 'variants'", source=source)
    unknown = set(data) - {"base", "variants", "systems"}
    if unknown:
        raise RagdxError(f"unknown key(s) {sorted(unknown)}", source=source)
    base = data.get("base") or {}
    variants = data.get("variants") or {}
    systems = data.get("systems") or {}
    for key, value in (("base", base), ("variants", variants), ("systems", systems)):
        if not isinstance(value, Mapping):
            raise RagdxError("expected a mapping", source=source, field=key)
    if variants and not base:
        raise RagdxError("variants need a 'base' to override", source=source, field="variants")
    out: list[tuple[str, dict[str, Any]]] = []
    seen: set[str] = set()
    for section, entries in (("systems", systems), ("variants", variants)):
        for name, spec in entries.items():
            name = str(name)
            if not _NAME.match(name):
                raise RagdxError("a name must be letters, digits, '.', '_' or '-' (it names a directory)",
                                 source=source, field=f"{section}.{name}")
            if name in seen:
                raise RagdxError("defined twice", source=source, field=f"{section}.{name}")
            if spec is not None and not isinstance(spec, Mapping):
                raise RagdxError("expected a mapping", source=source, field=f"{section}.{name}")
            seen.add(name)
            full = merge(base, spec or {}) if section == "variants" else dict(spec or {})
            # The grid's key names the system unless the entry itself says otherwise; a name
            # in 'base' would otherwise label every variant alike.
            full["name"] = (spec or {}).get("name") or name
            out.append((name, full))
    if not out:
        raise RagdxError("no systems or variants", source=source)
    return out, base_dir


def run_grid(grid: str | Path | Mapping[str, Any], dataset: str | Path | Iterable[Any], out_dir: str | Path, *,
             concurrency: int = 4, rerun_failed: bool = False, executor: Executor | None = None,
             progress: bool = True, overwrite: bool = False, limit: int | None = None,
             only: Sequence[str] | None = None,
             after: Callable[[System, Path], Any] | None = None) -> list[RunSummary]:
    """Run every system of a grid over one dataset, each into ``out_dir/<name>``, one after
    another (each run already uses ``concurrency``). ``only`` picks some names. A system is
    built just before its run, so a grid of heavy pipelines holds one at a time. ``after`` is
    called with each system and its run directory once its run is written, while it is still
    built (``ragdx run`` probes it: :mod:`ragdx.rag.probe`)."""
    from ragdx.rag.resolve import as_system

    specs, base_dir = load_grid(grid)
    if only:
        names = {n for n, _ in specs}
        missing = sorted(set(only) - names)
        if missing:
            raise RagdxError(f"not in the grid: {', '.join(missing)}", field="only")
        specs = [(n, s) for n, s in specs if n in set(only)]
    if not isinstance(dataset, str | Path):
        dataset = list(dataset)  # read once, used by every run
    source = str(grid) if isinstance(grid, str | Path) else "grid"
    from ragdx.store import claim_directory

    # one subdirectory per system, each checked by its run; anything else there is a person's
    claim_directory(out_dir, kind="grid", ignore={n for n, _ in specs})
    summaries = []
    for name, spec in specs:
        system = as_system(spec, base_dir=base_dir, source=f"{source}: {name}")
        summaries.append(run(system, dataset, Path(out_dir) / name, concurrency=concurrency,
                             rerun_failed=rerun_failed, executor=executor, progress=progress,
                             overwrite=overwrite, limit=limit))
        if after is not None:
            after(system, Path(out_dir) / name)
    return summaries


def summary_table(summaries: Sequence[RunSummary], title: str | None = None) -> Table:
    """A Rich table: one row per run with counts, failures, latency and tokens."""
    from rich.table import Table
    from rich.text import Text

    # Counts never shrink to "11…" in a narrow terminal or a log read at 80 columns: each number
    # column is as wide as its widest cell, and the system's name folds onto more lines instead.
    heads = ("total", "ok", "failed", "pending", "sent", "mean s", "p90 s", "tokens")

    def seconds(value: float | None) -> str:
        return "–" if value is None else f"{value:.3f}"

    rows = []
    for s in summaries:
        ok = f"{s.ok} ({s.empty} empty)" if s.empty else str(s.ok)
        rows.append((str(s.total), ok, str(s.failed), str(s.pending), str(s.attempted),
                     seconds(s.latency_s.get("mean")), seconds(s.latency_s.get("p90")),
                     str(s.prompt_tokens + s.completion_tokens)))
    from rich import box

    # no vertical rules: they cost three characters a column, the difference between fitting 80
    # columns and cutting the token count short
    table = Table(title=title, box=box.SIMPLE_HEAD, collapse_padding=True, pad_edge=False)
    table.add_column("system", overflow="fold", min_width=8)
    for i, col in enumerate(heads):
        table.add_column(col, justify="right", no_wrap=True,
                         min_width=max([len(col)] + [len(row[i]) for row in rows]))
    for s, row in zip(summaries, rows, strict=True):
        # a system's name is data ("[bold]" in a directory name must not style the table)
        cells = [Text(c, style="red") if i == 2 and s.failed else Text(c) for i, c in enumerate(row)]
        table.add_row(Text(str(s.system)), *cells)
    return table


grid_table = summary_table


def failure_reasons(run_dir: str | Path, top: int = 5) -> list[tuple[str, int]]:
    """The commonest errors of a run's failed records, most frequent first. Digits are folded
    (``HTTP 503 … after 3.2s`` and ``… after 4.1s`` are one reason) so counts mean something."""
    from collections import Counter

    latest = scan_results(RunPaths(Path(run_dir)).results).latest
    # grouped with the digits folded, shown as the group's commonest message: a reader sees
    # "gave up after 3 attempts", never a placeholder such as "after N attempts"
    groups: dict[str, Counter[str]] = {}
    for o in latest.values():
        if o.get("error") is not None:
            text = str(o["error"])[:160]
            groups.setdefault(re.sub(r"\d+(?:\.\d+)?", "N", text), Counter())[text] += 1
    reasons = []
    for variants in groups.values():
        shown, _ = variants.most_common(1)[0]
        others = len(variants) - 1
        label = shown if not others else f"{shown} (and {others} more like it, numbers differing)"
        reasons.append((label, sum(variants.values())))
    return sorted(reasons, key=lambda r: -r[1])[:top]


# ----------------------------------------------------------------------------- exit status

#: exit code of a run written whole whose failures cross the line (every record failed, or more
#: than ``--max-failed``): distinct from 2 (bad input, nothing run) and 130 (interrupted)
EXIT_FAILED = 1


def parse_max_failed(spec: str | None) -> int | float | None:
    """``--max-failed``: a whole number is a count of failed records (``0``: none may fail); a
    share below 1 (``0.1`` or ``10%``) is of the records answered or failed."""
    if spec is None:
        return None
    text = spec.strip()
    if re.fullmatch(r"\d+", text):
        return int(text)
    try:
        share = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        share = float("nan")
    if not 0 <= share < 1:  # NaN fails too
        raise RagdxError(f"expected a count of records (e.g. 5) or a share below 1 (e.g. 0.1 or 10%), got {spec!r}",
                         field="--max-failed")
    return share


def failure_verdict(summary: RunSummary, max_failed: int | float | None = None) -> str | None:
    """Why the run should end with :data:`EXIT_FAILED`, or None. Every record sent having failed
    is always a failure (nothing was measured); ``max_failed`` bounds the failures otherwise."""
    done = summary.ok + summary.failed
    if summary.failed and not summary.ok:
        return f"every record sent failed ({summary.failed} of {done})"
    if max_failed is None or not summary.failed:
        return None
    if isinstance(max_failed, int):
        if summary.failed > max_failed:
            return f"{summary.failed} records failed, more than --max-failed {max_failed}"
    elif summary.failed / done > max_failed:
        return (f"{summary.failed} of {done} records failed ({summary.failed / done:.1%}), "
                f"more than --max-failed {max_failed:g}")
    return None


def record_exit(run_dir: str | Path, code: int, reason: str | None) -> None:
    """The command's verdict in the manifest (top level and the latest invocation), so that a
    run directory says why its command exited non-zero."""
    manifest = Manifest.read(run_dir)
    verdict = {"code": code, "reason": reason}
    manifest.exit = verdict
    if manifest.invocations:
        manifest.invocations[-1]["exit"] = verdict
    manifest.write(run_dir)
