"""The documents a pipeline retrieves from, whatever file they came in.

Three layouts are read: a knowledge base directory rendered by ``ragdx kb render``
(``documents.jsonl`` with id/title/text/table/key), a JSON object ``{id: text}`` (the GRAMMAR
reference's ``retrieval_database/documents.json``) and JSONL with one ``{"id", "text"}`` object a
line (``title``/``table`` kept when present). Document order is the file's order: the keyword
retriever breaks ties by it, so it must never depend on hashing or the file system.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from ragdx.errors import RagdxError


@dataclass(slots=True, frozen=True)
class Document:
    id: str
    text: str
    title: str | None = None
    #: the table a rendered document describes (``Programme``), None for plain corpora
    table: str | None = None


@dataclass(slots=True)
class Corpus:
    documents: list[Document]
    #: where the documents came from, so a pipeline config can name it; None when built in memory
    source: str | None = None
    _by_id: dict[str, Document] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        seen: dict[str, Document] = {}
        for doc in self.documents:
            if doc.id in seen:
                raise RagdxError(f"document id {doc.id!r} appears twice", source=self.source, field="id")
            seen[doc.id] = doc
        self._by_id = seen

    def __len__(self) -> int:
        return len(self.documents)

    def __iter__(self):
        return iter(self.documents)

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._by_id

    def get(self, doc_id: str) -> Document:
        return self._by_id[doc_id]

    @property
    def ids(self) -> list[str]:
        return [d.id for d in self.documents]

    @property
    def fingerprint(self) -> str:
        """Hash of ids and texts in order: two corpora with the same fingerprint index the same."""
        h = hashlib.sha256()
        for d in self.documents:
            h.update(d.id.encode())
            h.update(b"\x1f")
            h.update(d.text.encode())
            h.update(b"\x1e")
        return h.hexdigest()[:16]

    @classmethod
    def from_texts(cls, texts: Mapping[str, str] | Iterable[tuple[str, str]], source: str | None = None) -> Corpus:
        items = texts.items() if isinstance(texts, Mapping) else texts
        return cls([Document(str(i), str(t)) for i, t in items], source=source)


def load_corpus(path: str | Path) -> Corpus:
    """A corpus from a ragdx knowledge base directory, a JSON ``{id: text}`` file or JSONL."""
    p = Path(path)
    if p.is_dir():
        p_docs = p / "documents.jsonl"
        if not p_docs.exists():
            raise RagdxError("not a knowledge base directory (no documents.jsonl)", source=str(p))
        return Corpus(_read_jsonl(p_docs), source=str(p))
    if not p.exists():
        raise RagdxError("corpus file not found", source=str(p))
    if p.suffix.lower() == ".jsonl":
        return Corpus(_read_jsonl(p), source=str(p))
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RagdxError(f"cannot read the corpus ({exc})", source=str(p)) from None
    if isinstance(data, dict):
        bad = next((k for k, v in data.items() if not isinstance(v, str)), None)
        if bad is not None:
            raise RagdxError("expected {id: text} with text values", source=str(p), field=str(bad))
        return Corpus.from_texts(data, source=str(p))
    if isinstance(data, list):
        return Corpus([_document(obj, str(p), i + 1) for i, obj in enumerate(data)], source=str(p))
    raise RagdxError("expected a JSON object {id: text} or a list of {id, text}", source=str(p))


def _read_jsonl(path: Path) -> list[Document]:
    from ragdx.store import iter_jsonl

    return [_document(obj, str(path), n) for n, obj in iter_jsonl(path)]


def _document(obj: Any, source: str, line: int) -> Document:
    if not isinstance(obj, dict) or "id" not in obj or not isinstance(obj.get("text"), str):
        raise RagdxError("expected an object with 'id' and 'text'", source=source, field=f"line {line}")
    return Document(str(obj["id"]), obj["text"], obj.get("title"), obj.get("table"))


# ----------------------------------------------------------------------------- components
#
# Every chunker, retriever, filter, reformulator and generator is a Component: its configuration
# is exactly its constructor's arguments, kept as attributes of the same names, so ``to_dict``
# can be read back by ``build_component`` and a pipeline round-trips through YAML (Haystack 2.x's
# model). The registry lives here, in the module every other one imports, so that registering
# with a decorator never creates an import cycle.

_REGISTRY: dict[str, type[Component]] = {}


class Component:
    #: the ``type`` a config names this component by
    type_name: ClassVar[str] = ""
    #: parameters whose values are components themselves: name -> "one" or "list"
    component_params: ClassVar[dict[str, str]] = {}

    def params(self) -> dict[str, Any]:
        out = {}
        for name in _param_names(type(self)):
            out[name] = _plain(getattr(self, name))
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type_name, "params": self.params()}

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params().items())
        return f"{type(self).__name__}({args})"


def register(name: str):
    def deco(cls: type[Component]) -> type[Component]:
        cls.type_name = name
        _REGISTRY[name] = cls
        return cls
    return deco


def component_types() -> list[str]:
    return sorted(_REGISTRY)


def build_component(spec: Any, *, source: str | None = None, field: str = "component",
                    expect: type | None = None) -> Any:
    """The component a ``{type: ..., params: {...}}`` mapping describes (a component is returned
    as it is). Errors are one line naming ``source`` (the file) and ``field`` (where in it)."""
    if isinstance(spec, Component):
        return spec
    if isinstance(spec, str):
        spec = {"type": spec}
    if not isinstance(spec, Mapping):
        raise RagdxError("expected a mapping with 'type' and 'params'", source=source, field=field)
    extra = set(spec) - {"type", "params"}
    if extra:
        raise RagdxError(f"unknown key {sorted(extra)[0]!r} (a component has 'type' and 'params')",
                         source=source, field=field)
    kind = spec.get("type")
    cls = _REGISTRY.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise RagdxError(f"unknown component type {kind!r} (known: {', '.join(component_types())})",
                         source=source, field=f"{field}.type")
    if expect is not None and not issubclass(cls, expect):
        raise RagdxError(f"component type {kind!r} is not a {expect.__name__}", source=source,
                         field=f"{field}.type")
    params = spec.get("params") or {}
    if not isinstance(params, Mapping):
        raise RagdxError("params must be a mapping", source=source, field=f"{field}.params")
    accepted = _param_names(cls)
    for name in params:
        if name not in accepted:
            raise RagdxError(f"unknown parameter {name!r} for {kind} (accepted: {', '.join(accepted) or 'none'})",
                             source=source, field=f"{field}.params.{name}")
    kwargs = dict(params)
    for name, arity in cls.component_params.items():
        value = kwargs.get(name)
        if value is None:
            continue
        where = f"{field}.params.{name}"
        if arity == "list":
            if not isinstance(value, list):
                raise RagdxError("expected a list of components", source=source, field=where)
            kwargs[name] = [build_component(v, source=source, field=f"{where}[{i}]") for i, v in enumerate(value)]
        else:
            kwargs[name] = build_component(value, source=source, field=where)
    try:
        return cls(**kwargs)
    except RagdxError as exc:
        if exc.source is None:
            raise RagdxError(exc.message, source=source, field=f"{field}.params" + (
                f".{exc.field}" if exc.field else "")) from None
        raise
    except (TypeError, ValueError) as exc:
        raise RagdxError(f"bad parameters for {kind} ({exc})", source=source, field=f"{field}.params") from None


def _param_names(cls: type) -> list[str]:
    sig = inspect.signature(cls.__init__)
    return [n for n, p in sig.parameters.items()
            if n != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def _plain(value: Any) -> Any:
    if isinstance(value, Component):
        return value.to_dict()
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, Path):
        return str(value)
    return value
