"""The knowledge base as LangChain, LlamaIndex or Haystack documents, with ragdx's ids in them.

Each document carries the ragdx document id in its metadata under ``ragdx_id`` (and as the
framework's own document id where it has one: LangChain ``Document.id``, LlamaIndex
``Document.id_`` which becomes every chunk's ``ref_doc_id``, Haystack ``Document.id``), plus
``title`` and ``table`` when the knowledge base has them. A system built on these documents
reports ids that match the dataset's gold ids by construction, through any splitter, because
splitters copy metadata to their chunks and the adapters read ``ragdx_id`` first.

    from ragdx.rag.adapters.documents import langchain_documents
    docs = langchain_documents("dataset")        # a dataset: its knowledge base; or a kb directory
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ragdx.errors import RagdxError
from ragdx.rag.corpus import Corpus, Document, load_corpus

__all__ = ["dataset_knowledge_base", "knowledge_base", "langchain_documents", "llamaindex_documents",
           "haystack_documents"]


def dataset_knowledge_base(dataset: str | Path) -> Path | None:
    """The knowledge base a dataset was generated with (``knowledge_base`` in its manifest),
    or None when it names none. A relative path is tried from the working directory (where
    ``ragdx gen`` ran) and then from the dataset's parent, so a moved project still finds it."""
    directory = Path(dataset)
    if directory.is_file():
        directory = directory.parent
    from ragdx.gen.dataset import MANIFEST, read_manifest

    manifest = directory / MANIFEST
    if not manifest.exists():
        return None
    named = read_manifest(directory).get("knowledge_base")
    if not named:
        return None
    path = Path(named)
    for candidate in (path, directory.parent / path.name, directory / path):
        if candidate.exists():
            return candidate
    raise RagdxError(f"the dataset's knowledge base {named} is not there (moved?); pass --corpus",
                     source=str(manifest), field="knowledge_base")


def knowledge_base(source: str | Path | Corpus) -> Corpus:
    """A corpus from a knowledge base directory or corpus file, or a dataset's knowledge base."""
    if isinstance(source, Corpus):
        return source
    path = Path(source)
    if path.is_dir() and (path / "records.jsonl").exists():
        kb = dataset_knowledge_base(path)
        if kb is None:
            raise RagdxError("the dataset names no knowledge base (generated without --kb)", source=str(path))
        path = kb
    return load_corpus(path)


def _metadata(doc: Document) -> dict[str, Any]:
    meta: dict[str, Any] = {"ragdx_id": doc.id}
    if doc.title is not None:
        meta["title"] = doc.title
    if doc.table is not None:
        meta["table"] = doc.table
    return meta


def _need(module: str, extra: str) -> None:
    raise RagdxError(f"{module} is not installed: pip install 'ragdx[{extra}]'", field=extra)


def langchain_documents(source: str | Path | Corpus) -> list[Any]:
    """``langchain_core.documents.Document`` objects, ``id`` and ``metadata['ragdx_id']`` set."""
    try:
        from langchain_core.documents import Document as LCDocument
    except ImportError:
        _need("langchain-core", "langchain")
    return [LCDocument(page_content=d.text, metadata=_metadata(d), id=d.id) for d in knowledge_base(source)]


def llamaindex_documents(source: str | Path | Corpus) -> list[Any]:
    """``llama_index.core.Document`` objects: ``id_`` is the ragdx id, so every node split from
    one has it as ``ref_doc_id``."""
    try:
        from llama_index.core import Document as LIDocument
    except ImportError:
        _need("llama-index-core", "llamaindex")
    return [LIDocument(text=d.text, id_=d.id, metadata=_metadata(d)) for d in knowledge_base(source)]


def haystack_documents(source: str | Path | Corpus) -> list[Any]:
    """``haystack.Document`` objects with ``id`` and ``meta['ragdx_id']`` set to the ragdx id."""
    try:
        from haystack import Document as HSDocument
    except ImportError:
        _need("haystack-ai", "haystack")
    return [HSDocument(id=d.id, content=d.text, meta=_metadata(d)) for d in knowledge_base(source)]
