"""The one answer to "this is the system under test": :func:`as_system`.

Whatever a user can name a system by becomes a :class:`~ragdx.rag.types.System` here, and only
here: the Python API (``ragdx.as_system``, ``ragdx.run``), the CLI's ``ragdx run`` options
(:func:`request_from_options`), a grid's entries and the Ray workers that rebuild the system
(:class:`SystemRequest`) all call it, so a name, a corpus or a relative path means the same
thing wherever it is given.

A spec ``{kind: ..., ...}`` is built by the kind's registered adapter (:data:`KINDS`), whose
configuration is its constructor: the spec's keys are checked against the constructor's own
signature (types and bounds included), so there is no second copy of the parameters to drift
from it. :func:`spec_of` reads a system's ``describe()`` back as the spec that rebuilds it.
"""

from __future__ import annotations

import functools
import inspect
import os
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, create_model

from ragdx.errors import RagdxError, validated
from ragdx.rag.adapters.otel import TraceFileSystem
from ragdx.rag.systems import (
    CallableSystem,
    HTTPSystem,
    ResultsFileSystem,
    openai_chat_system,
    pipeline_system,
    read_yaml,
)
from ragdx.rag.types import System

__all__ = ["KINDS", "SystemKind", "SystemRequest", "as_system", "register_system", "request_from_options",
           "spec_file", "spec_of", "system_kinds"]


@dataclass(frozen=True)
class SystemKind:
    """One kind of system a spec can name: the adapter that builds it, with its spec's keys being
    exactly the factory's parameters."""

    kind: str
    factory: Callable[..., System]
    #: parameters naming files: a relative one is taken from the spec file's folder
    paths: tuple[str, ...] = ()
    #: keys ``describe()`` records about the system that are not configuration (a file's sha256,
    #: the framework found, header names whose values are secrets): :func:`spec_of` leaves them out
    recorded: tuple[str, ...] = ()


#: the registry: kind -> its adapter, in the order errors list them
KINDS: dict[str, SystemKind] = {}


def register_system(kind: str, factory: Callable[..., System], *, paths: tuple[str, ...] = (),
                    recorded: tuple[str, ...] = ()) -> SystemKind:
    """Make ``{kind: <kind>, ...}`` specs build with ``factory`` (a class or a function whose
    keyword parameters are the spec's keys)."""
    entry = KINDS[kind] = SystemKind(kind, factory, paths, recorded)
    return entry


def system_kinds() -> list[str]:
    return list(KINDS)


register_system("pipeline", pipeline_system, paths=("path", "corpus"),
                recorded=("corpus_fingerprint", "corpus_documents"))
register_system("callable", CallableSystem, recorded=("framework",))
register_system("http", HTTPSystem, recorded=("headers",))
register_system("results", ResultsFileSystem, paths=("path",), recorded=("sha256",))
register_system("openai", openai_chat_system)
register_system("traces", TraceFileSystem, paths=("path",), recorded=("sha256",))


# ----------------------------------------------------------------------------- specs


def _target(factory: Callable[..., Any]) -> Callable[..., Any]:
    return factory.__init__ if isinstance(factory, type) else factory  # type: ignore[misc]


@functools.cache
def _spec_model(kind: str, factory: Callable[..., Any]) -> type[BaseModel]:
    """A pydantic model of the factory's keyword parameters, read from its signature and type
    hints (``NonNegativeInt`` and the like carry the bounds); ``**config`` lets other keys through
    to the factory, which checks them itself."""
    target = _target(factory)
    hints = typing.get_type_hints(target, include_extras=True)
    fields: dict[str, Any] = {}
    extra = "forbid"
    for name, param in inspect.signature(target).parameters.items():
        if param.kind is param.VAR_KEYWORD:
            extra = "allow"
        elif name not in ("self", "source") and param.kind is not param.VAR_POSITIONAL:
            fields[name] = (hints.get(name, Any), ... if param.default is param.empty else param.default)
    config = ConfigDict(extra=extra, arbitrary_types_allowed=True, protected_namespaces=())  # type: ignore[typeddict-item]
    return create_model(f"{kind}_spec", __config__=config, **fields)


def _resolve(path: Any, base_dir: Path | None) -> Path:
    p = Path(os.path.expanduser(str(path)))
    return p if p.is_absolute() or base_dir is None else base_dir / p


def _build(spec: Mapping[str, Any], base_dir: Path | None, where: str) -> System:
    """The system a spec dict describes, its keys checked against its adapter's constructor."""
    kind = spec.get("kind")
    entry = KINDS.get(kind) if isinstance(kind, str) else None
    if entry is None:
        raise RagdxError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}", source=where, field="kind")
    given = {k: v for k, v in spec.items() if k != "kind"}
    checked = validated(_spec_model(entry.kind, entry.factory), given, source=where)
    kwargs = {k: getattr(checked, k) for k in given}
    for key in entry.paths:
        if kwargs.get(key) is not None:
            kwargs[key] = _resolve(kwargs[key], base_dir)
    if "source" in inspect.signature(_target(entry.factory)).parameters:
        kwargs["source"] = where
    try:
        system = entry.factory(**kwargs)
    except RagdxError as exc:
        if exc.source is None:  # a value of this spec: the spec is where to fix it
            raise RagdxError(exc.message, source=where, field=exc.field) from None
        raise
    if not isinstance(system, System):
        raise RagdxError(f"{type(system).__name__} does not implement the System protocol", source=where)
    return system


def spec_file(system: str | Path) -> Path:
    """The file a ``--system`` names: the user's own file when it exists, else one of the built-in
    pipelines by name (``er`` or ``er.yaml``: they ship inside the package, where no user would
    look for them); anything else is one line listing both kinds of answer."""
    path = Path(os.path.expanduser(str(system)))
    if path.exists():
        return path
    from ragdx.rag.pipeline import CONFIG_DIR, PAPER_CONFIGS

    name = path.name[: -len(path.suffix)] if path.suffix in (".yaml", ".yml") else path.name
    if path.parent == Path(".") and name in PAPER_CONFIGS:
        return CONFIG_DIR / f"{name}.yaml"
    raise RagdxError(f"no such file, and not a built-in pipeline ({', '.join(PAPER_CONFIGS)})",
                     source=str(system))


def _file_spec(path: Path) -> tuple[dict[str, Any], Path | None]:
    """The spec a file stands for, and the folder its relative paths are taken from: a JSONL
    is a results file; a YAML (or JSON) mapping with ``kind`` a spec, without one a pipeline."""
    if path.suffix == ".jsonl":
        return {"kind": "results", "path": str(path)}, None
    data = read_yaml(path)
    if not isinstance(data, Mapping):
        raise RagdxError("expected a mapping with 'kind'", source=str(path))
    if "kind" not in data:
        return {"kind": "pipeline", "path": str(path)}, None
    return dict(data), path.parent


def _as_spec(system: Any, base_dir: Path | None, source: str | None) -> tuple[dict[str, Any], Path | None, str] | None:
    """(spec, folder of its relative paths, what errors name) for anything that names a system
    by data; None for an object to call (a function or a framework object)."""
    if isinstance(system, Mapping):
        return dict(system), base_dir, source or "system"
    if isinstance(system, str) and system.startswith(("http://", "https://")):
        from ragdx.redact import redact_url

        return {"kind": "http", "url": system}, None, source or redact_url(system)
    if isinstance(system, str | Path):
        exists = Path(os.path.expanduser(str(system))).exists()
        if isinstance(system, str) and ":" in system and not exists:
            return {"kind": "callable", "target": system}, None, source or "system"
        path = spec_file(system)
        spec, folder = _file_spec(path)
        return spec, folder if base_dir is None else base_dir, source or str(path)
    return None


def as_system(system: Any, *, name: str | None = None, corpus: str | Path | None = None,
              dataset: str | Path | None = None, base_dir: str | Path | None = None,
              source: str | None = None) -> System:
    """Anything that can answer queries, as a :class:`~ragdx.rag.types.System`:

    - a System, returned as it is;
    - a function (sync or async), a LangChain runnable, a LlamaIndex query engine or a Haystack
      pipeline, or ``"pkg.mod:obj"`` naming one;
    - an ``http(s)://`` URL taking ``{"query": ...}``;
    - a spec ``{kind: pipeline|callable|http|results|openai|traces, ...}`` (:data:`KINDS`), or a
      YAML file holding one (relative paths in it are taken from its folder, else ``base_dir``);
    - a pipeline YAML (no ``kind``), or a built-in pipeline by name (``"er"``);
    - a results JSONL.

    ``name`` names the system. A pipeline gets ``corpus`` (replacing its own), else, when it has
    none, the knowledge base ``dataset`` was generated with. ``source`` names the spec in errors.
    """
    if isinstance(system, System) and not isinstance(system, Mapping | str | Path):
        if corpus is not None:
            raise RagdxError("a corpus is for a built-in pipeline named by a spec", field="corpus")
        return system
    found = _as_spec(system, None if base_dir is None else Path(base_dir), source)
    if found is None:
        if corpus is not None:
            raise RagdxError("a corpus is for a built-in pipeline named by a spec", field="corpus")
        return CallableSystem(system, name=name)
    spec, folder, where = found
    pipeline = spec.get("kind") == "pipeline"
    if name is not None:
        spec["name"] = name
    if corpus is not None:
        if not pipeline:
            raise RagdxError(f"a corpus is for a built-in pipeline, not a {spec.get('kind')} system", source=where,
                             field="corpus")
        spec["corpus"] = str(Path(corpus).resolve())
    built = _build(spec, folder, where)
    if pipeline and dataset is not None and getattr(built, "corpus", None) is None:
        from ragdx.rag.adapters.documents import dataset_knowledge_base

        kb = dataset_knowledge_base(dataset)
        if kb is not None:
            built.corpus = str(Path(kb).resolve())  # type: ignore[attr-defined]
    return built


def spec_of(system: System) -> dict[str, Any]:
    """The spec that builds ``system`` again (``as_system(spec_of(s)).describe() ==
    s.describe()``): its ``describe()`` without what it records rather than configures. Header
    values are never recorded, so a system with its own headers rebuilds without them."""
    described = dict(system.describe())
    kind = described.pop("kind", "pipeline")  # a pipeline describes its configuration only
    entry = KINDS.get(kind)
    if entry is None:
        raise RagdxError(f"describes itself as kind {kind!r}, which no adapter builds", source=system.name,
                         field="kind")
    for key in entry.recorded:
        described.pop(key, None)
    if kind == "callable" and described.get("target") == described.get("setup"):
        described.pop("target")  # the setup factory supplied the system: no target was named
    return {"kind": kind, **described}


# ----------------------------------------------------------------------------- requests


@dataclass(frozen=True)
class SystemRequest:
    """What a user named as the system, kept as plain data (a path, a name, a spec dict), so that
    a Ray worker elsewhere rebuilds the same system from it: ``request.build()``."""

    system: Any
    name: str | None = None
    corpus: Path | None = None
    dataset: Path | None = None
    source: str | None = None

    def build(self) -> System:
        return as_system(self.system, name=self.name, corpus=self.corpus, dataset=self.dataset,
                         source=self.source)

    def portable(self) -> SystemRequest:
        """The same request with every file it names absolute, for a worker that does not start
        in this working directory (on a cluster, the paths must be on a shared filesystem)."""
        system = self.system
        if isinstance(system, Mapping) and system.get("kind") in KINDS:
            system = dict(system)
            for key in KINDS[system["kind"]].paths:
                if system.get(key) is not None:
                    system[key] = str(_resolve(system[key], None).resolve())
        elif isinstance(system, str | Path) and Path(os.path.expanduser(str(system))).exists():
            system = Path(os.path.expanduser(str(system))).resolve()
        return replace(self, system=system, corpus=None if self.corpus is None else Path(self.corpus).resolve(),
                       dataset=None if self.dataset is None else Path(self.dataset).resolve())


def request_from_options(system: str | Path | None = None, *, callable_: str | None = None,
                         setup: str | None = None, otel: bool = False, http: str | None = None,
                         answer_path: str | None = None, contexts_path: str | None = None,
                         openai: str | None = None, model: str | None = None, results: str | Path | None = None,
                         traces: str | Path | None = None, name: str | None = None,
                         corpus: str | Path | None = None, dataset: str | Path | None = None) -> SystemRequest:
    """The system named by exactly one of ``ragdx run``'s options: a spec file or built-in pipeline
    (``--system``), a ``module:obj`` (``--callable``, or ``--setup`` alone: what its factory
    returns), a URL (``--http``, with ``--answer-path`` / ``--contexts-path``), an OpenAI-style
    server (``--openai`` and ``--model``), a results JSONL (``--results``) or a trace file
    (``--traces``), each turned into the spec :func:`as_system` builds."""
    given = [flag for flag, value in (("--system", system), ("--callable", callable_ or setup), ("--http", http),
                                      ("--results", results), ("--traces", traces), ("--openai", openai)) if value]
    if len(given) != 1:
        raise RagdxError("name exactly one system: --system SPEC.yaml, --callable MOD:OBJ (or --setup MOD:FACTORY), "
                         "--http URL, --openai BASE_URL, --results FILE or --traces FILE "
                         f"(got {', '.join(given) or 'none'})", field="system")
    if answer_path and not http:
        raise RagdxError("--answer-path maps an --http response", field="--answer-path")
    if contexts_path and not (http or openai):
        raise RagdxError("--contexts-path maps an --http or --openai response", field="--contexts-path")
    if openai and not model:
        raise RagdxError("--openai needs --model", field="--model")
    if otel and not (callable_ or setup):
        raise RagdxError("--otel reads the spans of a --callable system", field="--otel")
    if corpus and not system:
        raise RagdxError("--corpus is for a built-in pipeline (--system)", field="--corpus")
    spec: Any = system
    if callable_ or setup:
        spec = {"kind": "callable", "target": callable_, "setup": setup, "otel": otel}
    elif http:
        spec = {"kind": "http", "url": http, "answer_path": answer_path or "answer",
                "contexts_path": contexts_path or "contexts"}
    elif openai:
        spec = {"kind": "openai", "base_url": openai, "model": model, "contexts_path": contexts_path}
    elif results or traces:
        spec = {"kind": "results" if results else "traces", "path": str(results or traces)}
    # a --system file names itself in its errors; a spec made of flags is named by its flag
    return SystemRequest(spec, name=name, corpus=None if corpus is None else Path(corpus),
                         dataset=None if dataset is None else Path(dataset), source=None if system else given[0])
