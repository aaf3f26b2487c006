"""The documents a pipeline retrieves from, whatever file they came in.

:func:`load_corpus` is the one reader every command that takes a corpus uses (``run``, ``gen
--corpus``, ``kb link``/``kb audit``, ``relevance calibrate``). It reads a knowledge base directory
rendered by ``ragdx kb render`` (``documents.jsonl`` with id/title/text/table/key), a JSON object
``{id: text}`` (the GRAMMAR reference's ``retrieval_database/documents.json``), JSON or JSONL
objects (id/text/title fields configurable), and a folder of .txt/.md/.html (and .pdf) files.
Document order is the file's order: the keyword retriever breaks ties by it, so it must never
depend on hashing or the file system.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, ClassVar, TypeVar

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

    def __iter__(self) -> Iterator[Document]:
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


#: file suffixes a corpus folder is read from; everything else in the folder is ignored
TEXT_SUFFIXES = (".txt", ".md", ".markdown")
HTML_SUFFIXES = (".html", ".htm")
PDF_SUFFIXES = (".pdf",)


def load_corpus(path: str | Path, *, id_field: str = "id", text_field: str = "text",
                title_field: str = "title") -> Corpus:
    """A corpus from any of the layouts ragdx reads: the one reader every command uses.

    - a knowledge base directory from ``ragdx kb render`` (``documents.jsonl``);
    - a folder of ``.txt`` / ``.md`` / ``.html`` files (and ``.pdf`` with the ``pdf`` extra), read
      recursively in sorted order; a document's id is its path relative to the folder, without
      the suffix;
    - a JSON object ``{id: text}`` or a JSON list of objects;
    - JSONL, one object a line, with ``id_field`` / ``text_field`` / ``title_field`` (a line
      without an id gets its line number).

    Bad input (an empty corpus, duplicate ids, an unreadable file, a PDF that cannot be parsed)
    raises a RagdxError naming the file.
    """
    p = Path(path)
    if p.is_dir():
        if (p / "documents.jsonl").exists():
            corpus = Corpus(_read_jsonl(p / "documents.jsonl", id_field, text_field, title_field), source=str(p))
        else:
            docs = _read_folder(p)
            if not docs:
                raise RagdxError("no documents.jsonl and no .txt/.md/.html/.pdf file in the folder", source=str(p))
            corpus = Corpus(docs, source=str(p))
    elif not p.exists():
        raise RagdxError("corpus file not found", source=str(p))
    elif p.suffix.lower() == ".jsonl":
        corpus = Corpus(_read_jsonl(p, id_field, text_field, title_field), source=str(p))
    elif p.suffix.lower() in TEXT_SUFFIXES + HTML_SUFFIXES + PDF_SUFFIXES:
        corpus = Corpus([_read_file(p, p.stem)], source=str(p))
    else:
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise RagdxError(f"cannot read the corpus ({exc})", source=str(p)) from None
        if isinstance(data, dict):
            bad = next((k for k, v in data.items() if not isinstance(v, str)), None)
            if bad is not None:
                raise RagdxError("expected {id: text} with text values", source=str(p), field=str(bad))
            corpus = Corpus.from_texts(data, source=str(p))
        elif isinstance(data, list):
            corpus = Corpus([_document(obj, str(p), i + 1, id_field, text_field, title_field)
                             for i, obj in enumerate(data)], source=str(p))
        else:
            raise RagdxError("expected a JSON object {id: text} or a list of {id, text}", source=str(p))
    if not corpus.documents:
        raise RagdxError("the corpus is empty (no documents)", source=str(p))
    if not any(d.text.strip() for d in corpus.documents):
        raise RagdxError("the corpus has no text (every document is empty)", source=str(p))
    return corpus


def _read_jsonl(path: Path, id_field: str = "id", text_field: str = "text",
                title_field: str = "title") -> list[Document]:
    from ragdx.store import iter_jsonl

    return [_document(obj, str(path), n, id_field, text_field, title_field) for n, obj in iter_jsonl(path)]


def _document(obj: Any, source: str, line: int, id_field: str = "id", text_field: str = "text",
              title_field: str = "title") -> Document:
    if not isinstance(obj, dict) or not isinstance(obj.get(text_field), str):
        raise RagdxError(f"expected an object with a text field {text_field!r}", source=source,
                         field=f"line {line}")
    doc_id = obj.get(id_field, line)
    if doc_id is None or isinstance(doc_id, dict | list):
        raise RagdxError(f"the id field {id_field!r} must be a string or a number", source=source,
                         field=f"line {line}")
    title = obj.get(title_field)
    return Document(str(doc_id), obj[text_field], title if isinstance(title, str) else None, obj.get("table"))


def _read_folder(folder: Path) -> list[Document]:
    suffixes = TEXT_SUFFIXES + HTML_SUFFIXES + PDF_SUFFIXES
    files = sorted(f for f in folder.rglob("*") if f.is_file() and f.suffix.lower() in suffixes
                   and not any(part.startswith(".") for part in f.relative_to(folder).parts))
    docs = []
    seen: dict[str, Path] = {}
    for f in files:
        doc_id = f.relative_to(folder).with_suffix("").as_posix()
        if doc_id in seen:
            # a.txt and a.md would both be document "a": the evidence would be ambiguous
            raise RagdxError(f"document id {doc_id!r} appears twice (also {seen[doc_id].name})", source=str(f))
        seen[doc_id] = f
        docs.append(_read_file(f, doc_id))
    return docs


def _read_file(path: Path, doc_id: str) -> Document:
    suffix = path.suffix.lower()
    if suffix in PDF_SUFFIXES:
        return Document(doc_id, _pdf_text(path))
    try:
        raw = path.read_bytes()
        text = raw.decode("utf-8-sig")
    except OSError as exc:
        raise RagdxError(f"cannot read the file ({exc.strerror or exc})", source=str(path)) from None
    except UnicodeDecodeError as exc:
        raise RagdxError(f"not UTF-8 text (byte {exc.start})", source=str(path)) from None
    if suffix in HTML_SUFFIXES:
        title, text = _html_text(text)
        return Document(doc_id, text, title)
    return Document(doc_id, text)


def _pdf_text(path: Path) -> str:
    try:
        from pypdf import PdfReader
        from pypdf.errors import PdfReadError
    except ImportError:
        raise RagdxError("reading PDF needs pypdf (pip install 'ragdx[pdf]')", source=str(path)) from None
    import logging

    # pypdf logs its repairs ("EOF marker not found") on stderr: the error line below says it once
    log = logging.getLogger("pypdf")
    level = log.level
    log.setLevel(logging.CRITICAL)
    try:
        reader = PdfReader(str(path))
        pages = [page.extract_text() or "" for page in reader.pages]
    except (PdfReadError, OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise RagdxError(f"cannot parse the PDF ({type(exc).__name__}: {exc})", source=str(path)) from None
    finally:
        log.setLevel(level)
    # pages are paragraphs for the passage splitter
    return "\n\n".join(p.strip() for p in pages)


_BLOCKS = {"p", "div", "br", "section", "article", "header", "footer", "blockquote", "pre", "ul", "ol",
           "dl", "table", "caption", "main", "nav", "aside", "figure", "figcaption", "address", "form"}


def _html_text(markup: str) -> tuple[str | None, str]:
    """The visible text of an HTML page and its <title>, with its structure kept in Markdown form:
    headings as ``#`` lines, list items as ``-`` lines, a table's rows as ``| a | b |`` lines under
    a header separator, and a key/value table (each row a ``<th>`` and a ``<td>``) as ``key: value``
    lines. Evidence linking reads the subject of a cell from that structure
    (:mod:`ragdx.kb.structure`); block elements are paragraphs."""
    parser = _HtmlText()
    parser.feed(markup)
    parser.close()
    if parser.rows is not None:
        parser.flush_table()
    text = re.sub(r"[ \t]+", " ", "".join(parser.parts))
    text = re.sub(r" *\n *", "\n", text)
    text = re.sub(r"\n{3,}", "\n\n", text).strip()
    title = " ".join("".join(parser.title).split()) or None
    return title, text


def _clean(parts: list[str]) -> str:
    return " ".join("".join(parts).split())


class _HtmlText(HTMLParser):
    """Reads a page into ``parts`` (Markdown-like text, see :func:`_html_text`) and ``title``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title: list[str] = []
        self.skip = 0
        self.in_title = False
        self.heading = 0
        #: the open table's rows: each a list of (is_header, text) cells; the open cell's text
        self.rows: list[list[tuple[bool, str]]] | None = None
        self.cell: list[str] | None = None
        self.cell_th = False

    def flush_table(self) -> None:
        rows = [r for r in self.rows or [] if any(t for _, t in r)]
        self.rows = None
        if not rows:
            return
        lines: list[str] = []
        if all(len(r) == 2 and r[0][0] and not r[1][0] for r in rows):
            lines = [f"{r[0][1]}: {r[1][1]}" for r in rows]
        else:
            header = all(th for th, _ in rows[0])
            for k, r in enumerate(rows):
                lines.append("| " + " | ".join(t.replace("|", "/") for _, t in r) + " |")
                if k == 0 and header:
                    lines.append("|" + "---|" * len(r))
        self.parts.append("\n\n" + "\n".join(lines) + "\n\n")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "noscript"):
            self.skip += 1
        elif tag == "title":
            self.in_title = True
        elif self.rows is not None and tag in ("td", "th"):
            self.cell, self.cell_th = [], tag == "th"
        elif self.cell is not None and tag in ("br", "p", "div", "li"):
            # lines inside a cell ("Old Creamery<br>Station Road<br>Felby"): keep them apart
            self.cell.append(", " if tag == "br" else " ")
        elif self.rows is not None and tag == "tr":
            self.rows.append([])
        elif tag == "table":
            if self.rows is not None:  # a nested table: its text joins the open cell
                return
            self.rows = []
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.heading = int(tag[1])
            self.parts.append("\n\n" + "#" * self.heading + " ")
        elif tag in ("li", "dt"):
            self.parts.append("\n- ")
        elif tag == "dd":
            self.parts.append(": ")
        elif tag in _BLOCKS:
            self.parts.append("\n\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "noscript"):
            self.skip = max(0, self.skip - 1)
        elif tag == "title":
            self.in_title = False
        elif self.rows is not None and tag in ("td", "th"):
            if self.cell is not None:
                if not self.rows:
                    self.rows.append([])
                self.rows[-1].append((self.cell_th, _clean(self.cell)))
            self.cell = None
        elif tag == "table" and self.rows is not None:
            self.flush_table()
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.heading = 0
            self.parts.append("\n\n")
        elif tag in ("ul", "ol", "dl") or tag in _BLOCKS:
            self.parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title.append(data)
        elif self.skip:
            return
        elif self.cell is not None:
            self.cell.append(data)
        elif self.rows is not None:
            return  # text between cells (whitespace)
        elif self.heading:
            self.parts.append(" ".join(data.split()) + (" " if data[-1:].isspace() else ""))
        else:
            self.parts.append(data)



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


C = TypeVar("C", bound=type[Component])


def register(name: str) -> Callable[[C], C]:
    def deco(cls: C) -> C:
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


def _param_names(cls: type[object]) -> list[str]:
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
