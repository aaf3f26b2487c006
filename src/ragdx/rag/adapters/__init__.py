"""Framework objects as systems under test, with no glue code.

``ragdx run --callable pkg:obj`` accepts, besides a plain function:

* a **LangChain** runnable (a chain built with ``create_retrieval_chain``, an LCEL pipe, any
  ``Runnable``) or a ``(retriever, chain)`` pair; retrieved documents are captured from the
  retriever callbacks (``on_retriever_end``) of the very invocation, so whatever the chain
  returns, the contexts are the documents its retriever produced;
* a **LlamaIndex** query engine (``query`` / ``aquery``): the answer is ``response.response``
  and the contexts are its ``source_nodes``, identified by their *document* id
  (``ref_doc_id``), never by the per-chunk ``node_id`` (a UUID that matches no gold document);
* a **Haystack** pipeline: the query goes to every open mandatory input named ``query``,
  ``question``, ``text`` or ``input``; the contexts are the outputs of its retriever components
  and the answer the first ``replies`` / ``answers`` output.

Document ids are read, in order, from the metadata key ``ragdx_id`` (what
:mod:`ragdx.rag.adapters.documents` writes, so ids match by construction), then ``doc_id``,
``document_id``, ``id``, then the framework's own document id when someone chose it, then the
file a loader read the document from — LangChain's ``source``, LlamaIndex's and Haystack's
``file_path``, LlamaIndex's ``file_name`` — and only then a generated own id (LlamaIndex's
``ref_doc_id`` is a UUID unless the reader was told ``filename_as_id``; Haystack's ``id`` is a
content hash). A path is kept as the loader wrote
it; ``evaluate`` maps it to the corpus's id (a folder corpus names a document by its path
relative to the folder, without the extension). Objects are recognised by the module their class
comes from, so none of the frameworks is imported unless the user's object already is one of theirs.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["Adapted", "adapt", "framework_of", "document_id", "FILE_KEYS", "ID_KEYS"]

#: metadata keys holding a document id, in order of preference
ID_KEYS = ("ragdx_id", "doc_id", "document_id", "id")
#: metadata keys naming the file a loader read the document from (LangChain ``source``; LlamaIndex
#: and Haystack ``file_path``; LlamaIndex ``file_name``), which ``evaluate`` maps to the corpus's ids
FILE_KEYS = ("source", "file_path", "file_name", "filename")
#: a framework's generated id: a UUID (LlamaIndex, LangChain vector stores) or a hex content hash
#: (Haystack), which names no document of any corpus
_GENERATED = re.compile(r"^(?:[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}|[0-9a-f]{32,})$", re.I)


class Adapted:
    """A framework object wrapped as a ``query -> {answer, contexts}`` function."""

    def __init__(self, framework: str, kind: str, fn: Callable[[str], Any], *, is_async: bool):
        self.framework = framework
        self.kind = kind
        self.fn = fn
        self.is_async = is_async


def _modules(obj: Any) -> list[str]:
    return [getattr(c, "__module__", "") or "" for c in type(obj).__mro__]


def framework_of(obj: Any) -> str | None:
    """``langchain``, ``llamaindex``, ``haystack`` or None, from the class hierarchy's modules."""
    if isinstance(obj, tuple) and len(obj) == 2:
        return "langchain" if all(framework_of(o) == "langchain" for o in obj) else None
    for module in _modules(obj):
        if module.startswith(("langchain_core", "langchain.", "langchain_community", "langgraph")):
            return "langchain"
        if module.startswith(("llama_index",)):
            return "llamaindex"
        if module.startswith(("haystack",)):
            return "haystack"
    return None


def _meta_id(meta: Any, keys: tuple[str, ...] = ID_KEYS) -> str | None:
    if isinstance(meta, Mapping):
        for key in keys:
            value = meta.get(key)
            if value not in (None, ""):
                return str(value)
    return None


def document_id(meta: Any, own: Any) -> str | None:
    """The ragdx document id of a framework document: an id in its metadata (``ID_KEYS``), else
    its own id when someone chose it, else the file it was loaded from (``FILE_KEYS``), else its
    generated own id (a UUID or a content hash, which ``evaluate`` flags as matching nothing)."""
    found = _meta_id(meta)
    if found is not None:
        return found
    own = None if own in (None, "") else str(own)
    if own is not None and not _GENERATED.match(own):
        return own
    found = _meta_id(meta, FILE_KEYS)
    return found if found is not None else own


def _score(value: Any) -> float | None:
    try:
        return None if value is None else float(value)
    except (TypeError, ValueError):
        return None


def _context(cid: str | None, text: Any, score: Any) -> dict[str, Any]:
    return {"id": cid if cid is not None else "", "text": "" if text is None else str(text), "score": _score(score)}


def _message_text(value: Any) -> str | None:
    """A string, a chat message (``content`` / ``text``) or a generated answer (``data``)."""
    if value is None or isinstance(value, str):
        return value
    for attr in ("text", "content", "data", "response", "answer"):
        got = getattr(value, attr, None)
        if isinstance(got, str):
            return got
    return str(value)


def framework_context(doc: Any) -> dict[str, Any] | None:
    """A retrieved document as a framework returns it (a LangChain ``Document``, a LlamaIndex
    ``NodeWithScore`` or node, a Haystack ``Document``) as a context ``{id, text, score}``, its id
    read as :func:`document_id` reads it; None for anything else. A plain ``--callable`` may return
    such documents as its contexts."""
    if hasattr(doc, "page_content"):
        return _lc_context(doc)
    if hasattr(doc, "get_content") or (hasattr(doc, "node") and hasattr(doc.node, "get_content")):
        return _li_context(doc)
    if hasattr(doc, "content") and hasattr(doc, "meta"):
        return _hs_context(doc)
    return None


# ----------------------------------------------------------------------------- LangChain


def _lc_context(doc: Any) -> dict[str, Any]:
    meta = getattr(doc, "metadata", None) or {}
    score = meta.get("score", meta.get("relevance_score")) if isinstance(meta, Mapping) else None
    return _context(document_id(meta, getattr(doc, "id", None)), getattr(doc, "page_content", None), score)


def _lc_answer(result: Any) -> tuple[str | None, list[Any] | None]:
    """The answer of a chain's output and, when it carries them, its documents."""
    if isinstance(result, Mapping):
        docs = result.get("context") if isinstance(result.get("context"), list) else None
        for key in ("answer", "output", "result", "text", "response"):
            if key in result:
                return _message_text(result[key]), docs
        return None, docs
    if isinstance(result, list) and all(hasattr(d, "page_content") for d in result):
        return None, result  # a bare retriever: no answer, only documents
    return _message_text(result), None


def _adapt_langchain(obj: Any) -> Adapted:
    from langchain_core.callbacks import AsyncCallbackHandler

    class Capture(AsyncCallbackHandler):
        """Every document a retriever returned during one invocation, in order."""

        def __init__(self) -> None:
            self.documents: list[Any] = []

        async def on_retriever_end(self, documents, **kwargs: Any) -> None:
            self.documents.extend(documents)

    pair = isinstance(obj, tuple)
    retriever: Any  # a LangChain retriever where pair
    retriever, chain = obj if pair else (None, obj)

    async def call(query: str, history: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
        capture = Capture()
        config = {"callbacks": [capture]}
        if pair:
            # A retriever and a chain that takes {"input", "context"}: the chain sees exactly
            # the documents recorded as retrieved; a follow-up's earlier turns come as the
            # ("human", ...), ("ai", ...) messages a MessagesPlaceholder("chat_history") takes
            docs = await retriever.ainvoke(query, config=config)
            chat = [m for turn in history for m in (("human", str(turn.get("query", ""))),
                                                    ("ai", str(turn.get("answer", ""))))]
            result = await chain.ainvoke({"input": query, "question": query, "context": docs, "chat_history": chat},
                                         config=config)
        else:
            result = await chain.ainvoke(query, config=config)
        answer, docs = _lc_answer(result)
        found = capture.documents or docs or []
        return {"answer": answer, "contexts": [_lc_context(d) for d in found]}

    kind = "retriever+chain" if pair else type(obj).__name__
    return Adapted("langchain", kind, call, is_async=True)


# ----------------------------------------------------------------------------- LlamaIndex


def _li_context(node_with_score: Any) -> dict[str, Any]:
    node = getattr(node_with_score, "node", node_with_score)
    meta = getattr(node, "metadata", None) or {}
    # ref_doc_id names the source document; node_id is a per-chunk UUID that no gold id matches.
    own = getattr(node, "ref_doc_id", None) or getattr(node, "node_id", None)
    get_content = getattr(node, "get_content", None)
    text = get_content() if callable(get_content) else getattr(node, "text", "")
    return _context(document_id(meta, own), text, getattr(node_with_score, "score", None))


def _adapt_llamaindex(obj: Any) -> Adapted:
    if hasattr(obj, "aquery") or hasattr(obj, "query"):
        async def call(query: str) -> dict[str, Any]:
            if hasattr(obj, "aquery"):
                response = await obj.aquery(query)
            else:
                import asyncio

                response = await asyncio.to_thread(obj.query, query)
            nodes = getattr(response, "source_nodes", None) or []
            return {"answer": _message_text(response), "contexts": [_li_context(n) for n in nodes]}

        return Adapted("llamaindex", type(obj).__name__, call, is_async=True)
    if hasattr(obj, "aretrieve"):
        async def retrieve(query: str) -> dict[str, Any]:
            nodes = await obj.aretrieve(query)
            return {"answer": None, "contexts": [_li_context(n) for n in nodes]}

        return Adapted("llamaindex", type(obj).__name__, retrieve, is_async=True)
    raise TypeError(f"a LlamaIndex {type(obj).__name__} has neither query() nor aretrieve()")


# ----------------------------------------------------------------------------- Haystack

_QUERY_SOCKETS = ("query", "question", "text", "input", "query_text")


def _hs_context(doc: Any) -> dict[str, Any]:
    return _context(document_id(getattr(doc, "meta", None), getattr(doc, "id", None)),
                    getattr(doc, "content", None), getattr(doc, "score", None))


def _adapt_haystack(obj: Any) -> Adapted:
    if not (hasattr(obj, "inputs") and hasattr(obj, "get_component") and hasattr(obj, "graph")):
        raise TypeError(f"a Haystack {type(obj).__name__} is not a pipeline")
    names = list(obj.graph.nodes)
    retrievers = [n for n in names if "Retriever" in type(obj.get_component(n)).__name__]
    if not retrievers:  # no retriever by name: whatever outputs documents is what was retrieved
        retrievers = [n for n in names
                      if "documents" in (obj.graph.nodes[n].get("output_sockets") or {})]
    open_inputs = obj.inputs()
    targets = {component: [s for s in sockets if s in _QUERY_SOCKETS]
               for component, sockets in open_inputs.items()}
    targets = {c: s for c, s in targets.items() if s}
    if not targets:
        raise TypeError(f"the pipeline has no open input named {' / '.join(_QUERY_SOCKETS)} for the query")

    def call(query: str) -> dict[str, Any]:
        data = {component: dict.fromkeys(sockets, query) for component, sockets in targets.items()}
        result = obj.run(data, include_outputs_from=set(retrievers))
        contexts: list[dict[str, Any]] = []
        for name in retrievers:
            for doc in (result.get(name) or {}).get("documents") or []:
                contexts.append(_hs_context(doc))
        answer = None
        for outputs in result.values():
            if not isinstance(outputs, Mapping):
                continue
            for key in ("answers", "replies"):
                values = outputs.get(key)
                if isinstance(values, Sequence) and not isinstance(values, str) and values:
                    answer = _message_text(values[0])
                    break
            if answer is not None:
                break
        return {"answer": answer, "contexts": contexts}

    # Pipeline.run is synchronous (AsyncPipeline exists, but a plain Pipeline is the common case);
    # the CallableSystem runs it in a worker thread.
    return Adapted("haystack", "Pipeline", call, is_async=False)


# ----------------------------------------------------------------------------- entry point

_ADAPTERS = {"langchain": _adapt_langchain, "llamaindex": _adapt_llamaindex, "haystack": _adapt_haystack}


def adapt(obj: Any) -> Adapted | None:
    """The adapter for a framework object, or None for anything else (a plain function)."""
    if inspect.isfunction(obj) or inspect.ismethod(obj) or inspect.isbuiltin(obj):
        return None
    framework = framework_of(obj)
    if framework is None:
        return None
    return _ADAPTERS[framework](obj)
