"""How a run is made, as one typed object that ``ragdx run`` and ``ragdx.run`` / ``ragdx.arun``
both build with :func:`run_options` (issue 20: the run's options travelled as keyword bags through
the API and the CLI, and ``--max-failed``, the ``--contexts`` check and Ray existed on the command
line only).

The defaults are ragdx.yaml's ``run:`` section (:class:`ragdx.config.RunConfig`), so a default
written there once holds for both faces. Values given by the caller replace the file's; each is
checked here, once, before any system is built, and a bad one gets the same one-line message on
both faces, naming the option as the caller spelt it (``--max-failed`` on the command line,
``max_failed`` in Python). :meth:`RunOptions.runner_kwargs` is what :func:`ragdx.rag.runner.run`
takes; :meth:`RunOptions.verdict` is the rule ``ragdx run``'s exit status follows.

This module imports nothing heavy: the CLI checks its flags with it before building a system.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Literal, get_args

from ragdx.errors import RagdxError

if TYPE_CHECKING:  # pragma: no cover
    from ragdx.config import Config
    from ragdx.rag.runner import RunSummary

#: how a run keeps retrieved texts (:mod:`ragdx.rag.context_store`): each distinct text once in
#: ``contexts.jsonl``, inline in every result line, or only ids and hashes
Contexts = Literal["once", "full", "hash"]
#: where the queries are answered: in this process, or by Ray actors that each build the system once
ExecutorKind = Literal["local", "ray"]

#: ``ragdx run``'s flag for each field, for its one-line errors
FLAGS = {"concurrency": "--concurrency", "limit": "--limit", "contexts": "--contexts", "max_failed": "--max-failed",
         "executor": "--executor", "address": "--address", "workers": "--workers", "probe": "--no-probe",
         "progress": "--no-progress", "rerun_failed": "--rerun-failed", "overwrite": "--overwrite"}
#: the Ray settings' defaults, which a local run must leave alone
_RAY_DEFAULTS: dict[str, Any] = {"address": None, "workers": 2}


@dataclass(frozen=True, slots=True, kw_only=True)
class RunOptions:
    """How ``ragdx run`` / ``ragdx.run`` runs a system over a dataset. Build it with
    :func:`run_options` (or directly: the constructor checks the same way, naming the fields)."""

    #: queries in flight at once (with Ray: per actor, as the actors set it)
    concurrency: int = 4
    #: send again the records that failed before
    rerun_failed: bool = False
    #: discard an existing run in the directory (only ragdx's own files in it)
    overwrite: bool = False
    #: send at most this many records this time; None: every one
    limit: int | None = None
    #: a progress bar while the run goes on
    progress: bool = True
    contexts: Contexts = "once"
    #: after the run, ask the system for the evidence documents no query retrieved (``ragdx probe``)
    probe: bool = True
    #: failures tolerated before the run's verdict is "failed" (``ragdx run`` exits 1): a count of
    #: records (an int; 0: none may fail) or a share below 1 of those answered or failed (a float);
    #: given as text it is parsed once (``"5"``, ``"0.1"``, ``"10%"``); None: no bound (a run whose
    #: every record failed is failed regardless)
    max_failed: int | float | None = None
    executor: ExecutorKind = "local"
    #: with ``executor="ray"``: the cluster (``ray://host:10001``, ``host:6379`` or ``auto``;
    #: default: ``RAY_ADDRESS``, else a local instance) and the actors, each with its own system
    address: str | None = None
    workers: int = 2

    def __post_init__(self) -> None:
        checked = _checked({f.name: getattr(self, f.name) for f in fields(RunOptions)}, {})
        for key, value in checked.items():  # max_failed given as text is kept parsed
            object.__setattr__(self, key, value)

    def runner_kwargs(self) -> dict[str, Any]:
        """The keywords :func:`ragdx.rag.runner.run` / ``arun`` take from these options."""
        return {"concurrency": self.concurrency, "rerun_failed": self.rerun_failed, "progress": self.progress,
                "overwrite": self.overwrite, "limit": self.limit, "contexts": self.contexts}

    def verdict(self, summary: RunSummary) -> str | None:
        """Why the run in ``summary`` cannot be trusted as a measurement (every record sent
        failed, or more than :attr:`max_failed`), or None: the rule ``ragdx run``'s exit 1 follows
        (:func:`ragdx.rag.runner.failure_verdict`)."""
        from ragdx.rag.runner import failure_verdict

        return failure_verdict(summary, self.max_failed)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(RunOptions)}


def run_options(base: Config | RunOptions | None = None, given: Mapping[str, Any] | None = None, *,
                names: Mapping[str, str] | None = None) -> RunOptions:
    """``base`` (a project configuration: its ``run:`` section; or options built before; default:
    ragdx.yaml's defaults) with each value in ``given`` that is not None in its place (keys:
    :class:`RunOptions`'s fields), checked once. ``names``: how the caller spells a field, for the
    one-line error (default: the field's name; :data:`FLAGS` for ``ragdx run``)."""
    known = [f.name for f in fields(RunOptions)]
    given, names = dict(given or {}), dict(names or {})
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise RagdxError(f"not a run option (expected one of {', '.join(known)})", field=unknown[0])
    merged = {**_defaults(base), **{k: v for k, v in given.items() if v is not None}}
    return RunOptions(**_checked(merged, names))


def _defaults(base: Config | RunOptions | None) -> dict[str, Any]:
    if isinstance(base, RunOptions):
        return base.to_dict()
    if base is None:
        return {}
    r = base.run
    return {"concurrency": r.concurrency, "contexts": r.contexts, "max_failed": r.max_failed, "probe": r.probe,
            "executor": r.executor, "address": r.address, "workers": r.workers}


def _checked(values: dict[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """``values`` checked in the order ``ragdx run`` always checked its flags (so its messages stay
    the same), ``max_failed`` parsed; a failure is one line naming the option as ``names`` spells it."""
    def name(key: str) -> str:
        return names.get(key, key)

    out = dict(values)
    out["executor"] = _choice(values.get("executor", "local"), get_args(ExecutorKind), name("executor"))
    out["contexts"] = _choice(values.get("contexts", "once"), get_args(Contexts), name("contexts"))
    out["max_failed"] = _max_failed(values.get("max_failed"), name("max_failed"))
    for key in ("concurrency", "workers"):
        if key in values:
            out[key] = _count(values[key], name(key), least=1)
    if values.get("limit") is not None:
        out["limit"] = _count(values["limit"], name("limit"), least=1)
    for key in ("rerun_failed", "overwrite", "progress", "probe"):
        if key in values and not isinstance(values[key], bool):
            raise RagdxError(f"expected true or false, got {values[key]!r}", field=name(key))
    address = values.get("address")
    if address is not None and not isinstance(address, str):
        raise RagdxError(f"expected a Ray address, got {address!r}", field=name("address"))
    if out["executor"] == "local" and any(values.get(k, d) != d for k, d in _RAY_DEFAULTS.items()):
        raise RagdxError(f"{name('address')} and {name('workers')} are for {name('executor')} ray",
                         field=name("executor"))
    return out


def _max_failed(value: Any, field: str) -> int | float | None:
    """A count (an int, or text of digits) or a share below 1 (a float, ``"0.1"`` or ``"10%"``),
    parsed by :func:`ragdx.rag.runner.parse_max_failed`, the one reader of ``--max-failed``."""
    if value is None:
        return None
    if isinstance(value, bool):
        value = repr(value)  # not a count to a user: refused below, as any other word is
    if isinstance(value, int) and value >= 0:
        return value
    if isinstance(value, float) and 0 <= value < 1:
        return value
    from ragdx.rag.runner import parse_max_failed

    try:
        return parse_max_failed(str(value))
    except RagdxError as exc:
        raise RagdxError(exc.message, field=field) from None


def _count(value: Any, field: str, *, least: int) -> int:
    # bool is an int to Python, never a count to a user
    if isinstance(value, bool) or not isinstance(value, int):
        raise RagdxError(f"expected a whole number, got {value!r}", field=field)
    if value < least:
        raise RagdxError(f"expected {least} or more, got {value}", field=field)
    return value


def _choice(value: Any, allowed: tuple[str, ...], field: str) -> Any:
    if value not in allowed:
        raise RagdxError(f"expected one of {', '.join(allowed)}, got '{value}'", field=field)
    return value
