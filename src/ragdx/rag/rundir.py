"""The run directory's format: its files, its manifest, its inputs and results, its identity.

The one module that knows how a run directory is laid out and read; the runner, the Ray
executor, ``evaluate``, the report and ``export`` go through it. A run directory holds:

``inputs.jsonl``
    the queries (id, query) in dataset order, written once when the run is created, so that
    the directory can be read without the dataset and a resume can tell it is the same one.
``results.jsonl``
    append-only: one line per completed attempt of a record (a :class:`SystemOutput` as
    JSON), written whole as it comes and fsync'd in groups (see :mod:`ragdx.rag.writer`); the
    latest line of a record is its result; a record with no line is pending. A process killed
    mid-write leaves at most one torn final line (it has no newline); it is ignored on reading
    and cut off before the next run appends.
``contexts.jsonl``
    each distinct retrieved text once (:mod:`ragdx.rag.context_store`).
``probes.jsonl``
    when the run was probed: queries made of the words of evidence documents no query retrieved,
    and whether each came back (:mod:`ragdx.rag.probe`), written whole.
``manifest.json``
    written atomically: the system's ``describe()``, the dataset (path, sha256), versions,
    every invocation's start and end, counts (total/ok/failed/pending), tokens and latency
    percentiles (:class:`Manifest`). It is a summary: ``results.jsonl`` is the truth and counts
    are recomputed from it on every start. While a run goes on, the runner rewrites it every
    second from a :class:`RunTally` kept per record (the counts exact, the percentiles from a
    sketch within 0.5 % of exact: :mod:`ragdx.rag.latency`); at the run's end they are exact.

A run's identity is its system's configuration and the hash of its queries
(:func:`check_identity`): a run only appends to a directory with the same identity.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any

from ragdx.errors import RagdxError
from ragdx.rag.context_store import CONTEXTS
from ragdx.rag.types import SystemInput, SystemOutput
from ragdx.store import gc_paused

__all__ = ["FORMAT_VERSION", "RESULTS", "MANIFEST", "INPUTS", "LOCK", "OWN_FILES", "RunPaths", "Manifest",
           "ResultsScan", "RunTally", "is_run_directory", "read_manifest", "lock_is_free", "read_inputs",
           "write_inputs", "scan_results", "cut_torn_tail", "read_run", "output_from_line", "counts", "latency_stats",
           "queries_sha256", "check_identity"]

FORMAT_VERSION = 1
RESULTS = "results.jsonl"
MANIFEST = "manifest.json"
INPUTS = "inputs.jsonl"
PROBES = "probes.jsonl"
#: each follow-up's standalone question asked alone (``ragdx.evaluate.conversations``)
STANDALONE_PROBES = "standalone_probes.jsonl"
LOCK = ".lock"
#: what ``--overwrite`` deletes: ragdx's own files, never anything else a person keeps there
OWN_FILES = (RESULTS, MANIFEST, INPUTS, CONTEXTS, PROBES, STANDALONE_PROBES)


@dataclass(frozen=True)
class RunPaths:
    """Where each file of the run directory ``root`` is."""

    root: Path

    @property
    def results(self) -> Path:
        return self.root / RESULTS

    @property
    def manifest(self) -> Path:
        return self.root / MANIFEST

    @property
    def inputs(self) -> Path:
        return self.root / INPUTS

    @property
    def lock(self) -> Path:
        return self.root / LOCK

    @property
    def probes(self) -> Path:
        return self.root / PROBES

    @property
    def standalone_probes(self) -> Path:
        return self.root / STANDALONE_PROBES


def is_run_directory(path: str | Path) -> bool:
    """Whether ``path`` holds a run (its manifest and inputs), whatever state the run is in."""
    paths = RunPaths(Path(path))
    return paths.root.is_dir() and paths.manifest.exists() and paths.inputs.exists()


# ----------------------------------------------------------------------------- manifest

#: fields written only once the run has counted its results (or exited): a manifest created a
#: moment ago, or by an older ragdx, has none of them, and reads and writes back without them
_LATER = frozenset({"counts", "tokens", "llm_usage", "latency_s", "exit"})
_MAPPINGS = ("system", "dataset", "versions", "counts", "tokens", "llm_usage", "latency_s", "exit")


@dataclass(eq=False)
class Manifest:
    """A run's ``manifest.json``, typed. Keys this version does not know (a newer ragdx's) are
    kept in ``extra`` and written back where they were, so a manifest round-trips whole."""

    format: int | None = FORMAT_VERSION
    #: ``name`` and ``config`` (the system's ``describe()``, credentials masked)
    system: dict[str, Any] = field(default_factory=dict)
    #: ``path``, ``sha256``, ``queries_sha256``, ``records``, ``relative_path``, ``absolute_path``
    dataset: dict[str, Any] = field(default_factory=dict)
    versions: dict[str, str] = field(default_factory=dict)
    started: str | None = None
    ended: str | None = None
    #: created, running, complete, complete_with_failures, partial, interrupted, error
    status: str | None = "created"
    invocations: list[dict[str, Any]] = field(default_factory=list)
    #: total, ok, failed, pending, empty, result_lines
    counts: dict[str, int] | None = None
    tokens: dict[str, int] | None = None
    llm_usage: dict[str, Any] | None = None
    latency_s: dict[str, float | None] | None = None
    #: the command's verdict when it exited non-zero on purpose (``--max-failed``)
    exit: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    # the keys in the order they were read, and the known ones that were absent (left out when
    # written while still unset): what makes an older or newer manifest round-trip
    _order: tuple[str, ...] = field(default=(), init=False, repr=False)
    _absent: frozenset[str] = field(default=_LATER, init=False, repr=False)

    @property
    def system_name(self) -> str | None:
        return self.system.get("name")

    @property
    def system_config(self) -> Any:
        return self.system.get("config")

    @classmethod
    def from_dict(cls, data: Any, *, source: str | None = None) -> Manifest:
        if not isinstance(data, dict):
            raise RagdxError("not a run manifest", source=source)
        for name in _MAPPINGS:
            # null is a value only for what a run writes later (an LLM usage of none)
            if name in data and not isinstance(data[name], dict) and not (name in _LATER and data[name] is None):
                raise RagdxError(f"expected a mapping, got {type(data[name]).__name__}", source=source, field=name)
        if not isinstance(data.get("invocations", []), list):
            raise RagdxError("expected a list", source=source, field="invocations")
        known = {f.name for f in _FIELDS}
        values = {k: v for k, v in data.items() if k in known}
        manifest = cls(**{**_UNSET, **values}, extra={k: v for k, v in data.items() if k not in known})
        manifest._order = tuple(data)
        manifest._absent = frozenset(known - set(data))
        return manifest

    def to_dict(self) -> dict[str, Any]:
        """The manifest as written: keys where they were read, new ones after them (in the
        order a new manifest has them), a known field that was absent left out while unset."""
        known = {f.name: getattr(self, f.name) for f in _FIELDS}
        out: dict[str, Any] = {}
        for key in self._order:
            if key in known:
                out[key] = known[key]
            elif key in self.extra:
                out[key] = self.extra[key]
        for key, value in known.items():
            if key not in out and not (key in self._absent and value == _blank(key)):
                out[key] = value
        out.update({k: v for k, v in self.extra.items() if k not in out})
        return out

    @classmethod
    def read(cls, run_dir: str | Path) -> Manifest:
        """The manifest as written (see :func:`read_manifest` for a run's state as it stands)."""
        path = RunPaths(Path(run_dir)).manifest
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise RagdxError(f"cannot read the run manifest ({exc})", source=str(path)) from None
        return cls.from_dict(data, source=str(path))

    def write(self, run_dir: str | Path) -> None:
        from ragdx.store import write_json

        write_json(RunPaths(Path(run_dir)).manifest, self.to_dict())

    def is_run(self) -> bool:
        """Whether it reads as a run manifest of this format (an earlier ragdx's run, made before
        run directories were marked, is recognised by it)."""
        return self.format == FORMAT_VERSION and "system" not in self._absent and "dataset" not in self._absent

    def summarise(self, tally: RunTally, *, exact: bool = False) -> None:
        """Counts, tokens, LLM usage and latency percentiles from the run's tally: in constant
        time, the percentiles from its sketch, unless ``exact`` (one walk over every record)."""
        scan = tally.scan
        self.counts = {**tally.counts(), "result_lines": scan.lines}
        self.tokens = {"prompt": scan.prompt_tokens, "completion": scan.completion_tokens}
        self.llm_usage = scan.llm_usage()
        self.latency_s = tally.latency_stats(exact=exact)
        self._absent -= {"counts", "tokens", "llm_usage", "latency_s"}


_FIELDS = tuple(f for f in fields(Manifest) if f.name not in ("extra", "_order", "_absent"))
#: what a field absent from a manifest read reads as
_UNSET: dict[str, Any] = {"format": None, "status": None}


def _blank(name: str) -> Any:
    if name in _UNSET:
        return _UNSET[name]
    f = next(f for f in _FIELDS if f.name == name)
    if f.default_factory is not MISSING:
        return f.default_factory()
    return f.default


def lock_is_free(run_dir: str | Path) -> bool:
    """Whether no runner holds ``run_dir/.lock`` (the kernel releases it when a runner dies)."""
    try:
        import fcntl
    except ImportError:
        return True
    try:
        fh = RunPaths(Path(run_dir)).lock.open("a")
    except OSError:
        return True
    with fh:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
        return True


def read_manifest(run_dir: str | Path) -> Manifest:
    """The run manifest as it stands: a run whose manifest says ``running`` (or ``created``) but
    whose lock nobody holds was killed; it reads as ``interrupted``, with its counts taken from
    ``results.jsonl`` rather than from the last refresh before the kill."""
    run_dir = Path(run_dir)
    manifest = Manifest.read(run_dir)
    if manifest.status in ("running", "created") and lock_is_free(run_dir):
        inputs = read_inputs(run_dir)
        scan = scan_results(RunPaths(run_dir).results)
        manifest.status = "interrupted"
        manifest.counts = {**counts(inputs, scan.latest), "result_lines": scan.lines}
        manifest.tokens = {"prompt": scan.prompt_tokens, "completion": scan.completion_tokens}
        manifest.llm_usage = scan.llm_usage()
        manifest._absent -= {"counts", "tokens", "llm_usage"}
    return manifest


# ----------------------------------------------------------------------------- identity


def queries_sha256(pairs: Iterable[tuple[str, str]]) -> str:
    """The hash of a dataset's (id, query) pairs in order: what a run's answers depend on."""
    blob = json.dumps([[i, q] for i, q in pairs], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


def check_identity(manifest: Manifest, config: Any, dataset: Mapping[str, Any], run_dir: Path) -> None:
    """A run appends only to a directory of the same identity: the same queries (not the same
    gold answers: regenerating them does not invalidate what the system said) and the same
    system configuration, so two systems' answers are never mixed in one file."""
    if manifest.dataset.get("queries_sha256") != dataset["queries_sha256"]:
        raise RagdxError(
            f"holds a run over a different dataset ({manifest.dataset.get('path')}, "
            f"{manifest.dataset.get('records')} records); pass --overwrite to start over",
            source=str(run_dir))
    if manifest.system_config != config:
        raise RagdxError(
            f"holds a run of a different system configuration ({manifest.system_name}); "
            "use another directory or pass --overwrite to start over", source=str(run_dir))


# ----------------------------------------------------------------------------- inputs


def read_inputs(run_dir: str | Path) -> list[SystemInput]:
    from ragdx.store import iter_jsonl

    path = RunPaths(Path(run_dir)).inputs
    if not path.exists():
        raise RagdxError(f"not a run directory (no {INPUTS})", source=str(run_dir))
    inputs = []
    for number, obj in iter_jsonl(path):
        if not isinstance(obj.get("id"), str) or not isinstance(obj.get("query"), str):
            raise RagdxError("expected 'id' and 'query' (text)", source=str(path), field=f"line {number}")
        history = obj.get("history", [])
        if not isinstance(history, list) or not all(isinstance(h, dict) for h in history):
            raise RagdxError("expected 'history' as a list of turns", source=str(path), field=f"line {number}")
        inputs.append(SystemInput(id=obj["id"], query=obj["query"], history=history))
    return inputs


_INPUT_LINE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def write_inputs(run_dir: Path, inputs: Iterable[SystemInput]) -> None:
    """``inputs.jsonl``, atomically (``store.atomic_writer``: a temporary file renamed over it,
    synced), written in blocks of lines: the lines of a million inputs held at once took 4.4 GB
    (each encoded line kept ~4 KB of heap), more than the whole rest of a run."""
    from ragdx.store import atomic_writer

    with atomic_writer(RunPaths(run_dir).inputs) as fh:
        block: list[str] = []
        for i in inputs:
            # a follow-up's history only: a run of questions asked alone keeps its bytes
            line = {"id": i.id, "query": i.query, "history": i.history} if i.history else {"id": i.id, "query": i.query}
            block.append(_INPUT_LINE.encode(line))
            if len(block) == _SCAN_BLOCK:
                fh.write(("\n".join(block) + "\n").encode("utf-8"))
                block.clear()
        if block:
            fh.write(("\n".join(block) + "\n").encode("utf-8"))


# ----------------------------------------------------------------------------- results


@dataclass
class ResultsScan:
    """What ``results.jsonl`` holds: the latest line of each record, and sums over every line."""

    latest: dict[str, dict[str, Any]] = field(default_factory=dict)
    lines: int = 0
    valid_bytes: int = 0
    torn_bytes: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    llm: Any = None  # ragdx.llm.Usage summed over the lines that carry one

    def add(self, obj: dict[str, Any]) -> None:
        self.latest[obj["id"]] = obj
        self.lines += 1
        self.prompt_tokens += int(obj.get("prompt_tokens") or 0)
        self.completion_tokens += int(obj.get("completion_tokens") or 0)
        if isinstance(obj.get("llm"), dict):
            from ragdx.llm.usage import Usage

            used = Usage.from_dict(obj["llm"])
            self.llm = used if self.llm is None else self.llm + used

    def llm_usage(self) -> dict[str, Any] | None:
        from ragdx.llm.estimate import usage_record

        return usage_record(self.llm)


class RunTally:
    """A run's counts and latency summary kept per acknowledged line, so that rewriting the
    manifest every second costs the same at the millionth record as at the first (walking every
    record and sorting every latency each time made a run quadratic).

    Built with one pass over ``inputs`` and the lines already scanned (a resume counts what
    earlier invocations wrote); then :meth:`add` takes each new line: the record's previous
    latest line (a failed one sent again) is taken out of the counts and the new one put in.
    ``add`` is for records of ``inputs`` only (the runner sends nothing else). The counts are
    exact, and equal :func:`counts` over the scan; the percentiles come from a
    :class:`~ragdx.rag.latency.LatencySketch` (within its ``alpha`` of exact) unless asked for
    exactly."""

    def __init__(self, inputs: Sequence[SystemInput], scan: ResultsScan):
        from ragdx.rag.latency import LatencySketch

        self.inputs = inputs
        self.scan = scan
        self.total = len(inputs)
        self.ok = self.failed = self.empty = 0
        self.latency = LatencySketch()
        latest = scan.latest
        for i in inputs:
            obj = latest.get(i.id)
            if obj is not None:
                self._count(obj, 1)

    def _count(self, obj: Mapping[str, Any], sign: int) -> None:
        # the same reading of a line as counts() and latency_stats()
        if obj.get("error") is None:
            self.ok += sign
            answer = obj.get("answer")
            self.empty += sign * (answer is None or not str(answer).strip())
            latency = obj.get("latency_s")
            if latency is not None:
                (self.latency.add if sign > 0 else self.latency.remove)(float(latency))
        else:
            self.failed += sign

    def add(self, obj: dict[str, Any]) -> None:
        """A new line (what :meth:`ResultsScan.add` takes) of a record of the inputs."""
        previous = self.scan.latest.get(obj["id"])
        if previous is not None:
            self._count(previous, -1)
        self.scan.add(obj)
        self._count(obj, 1)

    def counts(self) -> dict[str, int]:
        return {"total": self.total, "ok": self.ok, "failed": self.failed,
                "pending": self.total - self.ok - self.failed, "empty": self.empty}

    def latency_stats(self, *, exact: bool = False) -> dict[str, float | None]:
        if exact:
            latest = self.scan.latest
            return latency_stats(latest[i.id] for i in self.inputs if i.id in latest)
        return self.latency.summary()


def scan_results(path: Path, *, check: bool = True) -> ResultsScan:
    """Every complete line of ``results.jsonl``; a final line without a newline is torn.
    ``check``: each record is also built as a :class:`SystemOutput` here, so that a hand-edited
    one fails naming its line (``read_run``, which builds them anyway, checks them itself)."""
    from ragdx.store import parse_lines

    scan = ResultsScan()
    if not path.exists():
        return scan
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    scan.valid_bytes = end
    scan.torn_bytes = len(data) - end
    lines = data[:end].split(b"\n")[:-1]
    for start in range(0, len(lines), _SCAN_BLOCK):
        block = lines[start:start + _SCAN_BLOCK]
        # orjson where it reads the block as json does (see ragdx.store.parse_lines); line by
        # line otherwise, where a blank line is skipped and a bad one named
        objs = parse_lines(block)
        for number, line in enumerate(block, start + 1):
            if objs is not None:
                obj = objs[number - start - 1]
            elif not line.strip():
                continue
            else:
                obj = _parse_line(line, path, number)
            if not isinstance(obj, dict) or not isinstance(obj.get("id"), str):
                raise RagdxError("not a result record", source=str(path), field=f"line {number}")
            try:
                # a hand-edited record with a field missing or of the wrong type stops here, in
                # one line, rather than as a traceback wherever the field is first used
                if check:
                    output_from_line(obj)
                scan.add(obj)
            except (TypeError, ValueError, AttributeError) as exc:
                raise RagdxError(f"not a result record ({exc})", source=str(path),
                                 field=f"line {number}") from None
    return scan


def _parse_line(line: bytes, path: Path, number: int) -> Any:
    from ragdx.store import parse_lines

    try:
        one = parse_lines([line])
        return one[0] if one is not None else json.loads(line)
    except ValueError:
        # Only the last line can be torn by a crash (lines are written whole, in order, and a
        # torn tail is cut before appending); damage elsewhere is not ours to guess.
        raise RagdxError("not valid JSON (edited by hand?)", source=str(path), field=f"line {number}") from None


_SCAN_BLOCK = 20_000


def cut_torn_tail(path: Path, scan: ResultsScan) -> None:
    """A crash in the middle of a line: that record was not finished, so it is pending; its
    bytes are cut (and the cut synced) before anything is appended after them."""
    if not scan.torn_bytes:
        return
    with path.open("r+b") as fh:
        fh.truncate(scan.valid_bytes)
        fh.flush()
        os.fsync(fh.fileno())


_OUTPUT_FIELDS = set(SystemOutput.__dataclass_fields__)


def output_from_line(obj: Mapping[str, Any]) -> SystemOutput:
    """A result line as the :class:`SystemOutput` it was written from (a context stored once
    has its text filled in by ``context_store.inflate`` first, or reads as empty)."""
    data = {k: v for k, v in obj.items() if k in _OUTPUT_FIELDS}
    if any(isinstance(c, Mapping) and "sha" in c for c in data.get("contexts") or []):
        # a context stored once (context_store): text comes from contexts.jsonl via inflate()
        data["contexts"] = [{"text": "", **{k: v for k, v in c.items() if k != "sha"}} for c in data["contexts"]]
    return SystemOutput.from_dict(data)


@gc_paused()  # bulk work on small objects in no cycle: see ragdx.store.gc_paused
def read_run(run_dir: str | Path, *, inputs: list[SystemInput] | None = None) -> list[SystemOutput]:
    """The latest result of every record that has one, in dataset order (pending ones are
    left out). Reads only; a torn final line is ignored, not repaired. ``inputs``: the run's
    ``inputs.jsonl`` when the caller has read it already."""
    from ragdx.rag.context_store import inflate, load_texts

    run_dir = Path(run_dir)
    inputs = read_inputs(run_dir) if inputs is None else inputs
    latest = scan_results(RunPaths(run_dir).results, check=False).latest
    texts = load_texts(run_dir)  # contexts stored once per distinct text
    out = []
    for i in inputs:
        obj = latest.get(i.id)
        if obj is None:
            continue
        try:
            out.append(output_from_line(inflate(obj, texts, str(run_dir))))
        except (TypeError, ValueError, AttributeError) as exc:  # a hand-edited record
            raise RagdxError(f"not a result record ({exc})", source=str(RunPaths(run_dir).results),
                             field=i.id) from None
    return out


# ----------------------------------------------------------------------------- counts


def _percentile(sorted_values: Sequence[float], q: float) -> float:
    # Linear interpolation between closest ranks (numpy's default), without numpy.
    pos = (len(sorted_values) - 1) * q
    lo = int(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def latency_stats(latest: Iterable[Mapping[str, Any]]) -> dict[str, float | None]:
    values = sorted(float(o["latency_s"]) for o in latest
                    if o.get("error") is None and o.get("latency_s") is not None)
    if not values:
        return {"n": 0, "mean": None, "p50": None, "p90": None, "p99": None, "max": None}
    return {"n": len(values), "mean": round(sum(values) / len(values), 6),
            **{f"p{int(q * 100)}": round(_percentile(values, q), 6) for q in (0.5, 0.9, 0.99)},
            "max": round(values[-1], 6)}


def counts(inputs: Sequence[SystemInput], latest: Mapping[str, Mapping[str, Any]]) -> dict[str, int]:
    """total, ok (of them ``empty``: no answer), failed and pending, by each record's latest line."""
    ok = failed = empty = 0
    for i in inputs:
        obj = latest.get(i.id)
        if obj is None:
            continue
        if obj.get("error") is None:
            ok += 1
            answer = obj.get("answer")
            empty += answer is None or not str(answer).strip()
        else:
            failed += 1
    return {"total": len(inputs), "ok": ok, "failed": failed, "pending": len(inputs) - ok - failed, "empty": empty}
