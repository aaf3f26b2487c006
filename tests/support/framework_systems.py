"""Three small RAG systems written the way each framework's users write them, over the knowledge
base named by ``RAGDX_FW_KB`` (read at import), plus hand-mapped functions that turn each one's
output into ragdx's ``{answer, contexts}`` by hand: the reference the adapters must equal.

All three share one deterministic reader (the context sentence sharing most words with the
query), so no model and no network is needed; retrieval is each framework's own where it has an
offline one (Haystack's in-memory BM25) and a small keyword-overlap retriever elsewhere.
"""

# no "from __future__ import annotations": Haystack reads component annotations at runtime

import os
import re
from pathlib import Path

TOP_K = 3
_WORD = re.compile(r"\w+")


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def read(query: str, texts: list[str]) -> str:
    """The sentence of the contexts sharing most words with the query (first one on ties)."""
    q = _words(query)
    best, best_score = "", -1
    for text in texts:
        for sentence in re.split(r"(?<=[.!?])\s+|\n+", text):
            score = len(q & _words(sentence))
            if sentence.strip() and score > best_score:
                best, best_score = sentence.strip(), score
    return best


def overlap_rank(query: str, texts: list[str], k: int = TOP_K) -> list[tuple[int, float]]:
    q = _words(query)
    scored = [(i, float(len(q & _words(t)))) for i, t in enumerate(texts)]
    scored.sort(key=lambda p: (-p[1], p[0]))
    return scored[:k]


def _kb() -> Path:
    return Path(os.environ["RAGDX_FW_KB"])


# ----------------------------------------------------------------------------- LangChain


def _langchain():
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever
    from langchain_core.runnables import RunnableLambda, RunnableParallel, RunnablePassthrough

    from ragdx.rag.adapters.documents import langchain_documents

    class OverlapRetriever(BaseRetriever):
        documents: list[Document]

        def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun):
            ranked = overlap_rank(query, [d.page_content for d in self.documents])
            return [self.documents[i].model_copy(update={"metadata": {**self.documents[i].metadata, "score": s}})
                    for i, s in ranked]

    retriever = OverlapRetriever(documents=langchain_documents(_kb()))
    # a "stuff documents" chain: {question, context} -> answer
    answer = RunnableLambda(lambda x: read(x["question"], [d.page_content for d in x["context"]]))
    chain = RunnableParallel(context=retriever, question=RunnablePassthrough()) | answer
    return retriever, answer, chain


# ----------------------------------------------------------------------------- LlamaIndex


def _llamaindex():
    from llama_index.core import Document
    from llama_index.core.base.response.schema import Response
    from llama_index.core.node_parser import SentenceSplitter
    from llama_index.core.query_engine import CustomQueryEngine
    from llama_index.core.schema import NodeWithScore

    from ragdx.rag.corpus import load_corpus

    # Plain LlamaIndex user code: the document id is the ragdx id, no metadata; chunks get
    # UUID node ids and carry the document's id only as ref_doc_id.
    docs = [Document(text=d.text, id_=d.id) for d in load_corpus(_kb())]
    nodes = SentenceSplitter(chunk_size=1024, chunk_overlap=0, tokenizer=str.split).get_nodes_from_documents(docs)

    class Engine(CustomQueryEngine):
        def custom_query(self, query_str: str):
            ranked = overlap_rank(query_str, [n.get_content() for n in nodes])
            hits = [NodeWithScore(node=nodes[i], score=s) for i, s in ranked]
            return Response(response=read(query_str, [h.node.get_content() for h in hits]), source_nodes=hits)

    return Engine()


# ----------------------------------------------------------------------------- Haystack


def _haystack():
    from haystack import Document, Pipeline, component
    from haystack.components.retrievers.in_memory import InMemoryBM25Retriever
    from haystack.document_stores.in_memory import InMemoryDocumentStore

    from ragdx.rag.adapters.documents import haystack_documents

    @component
    class Reader:
        @component.output_types(replies=list[str])
        def run(self, question: str, documents: list[Document]):
            return {"replies": [read(question, [d.content or "" for d in documents])]}

    store = InMemoryDocumentStore()
    store.write_documents(haystack_documents(_kb()))
    pipe = Pipeline()
    pipe.add_component("retriever", InMemoryBM25Retriever(store, top_k=TOP_K))
    pipe.add_component("reader", Reader())
    pipe.connect("retriever.documents", "reader.documents")
    return pipe


lc_retriever, lc_answer, lc_chain = _langchain()
lc_pair = (lc_retriever, lc_answer)
li_engine = _llamaindex()
hs_pipeline = _haystack()


def make_haystack():
    """A setup factory: ``--setup tests.support.framework_systems:make_haystack``."""
    return _haystack()


# ----------------------------------------------------------------------------- by hand


def lc_by_hand(query: str) -> dict:
    docs = lc_retriever.invoke(query)
    answer = read(query, [d.page_content for d in docs])
    return {"answer": answer, "contexts": [{"id": d.metadata["ragdx_id"], "text": d.page_content,
                                            "score": d.metadata["score"]} for d in docs]}


def li_by_hand(query: str) -> dict:
    response = li_engine.query(query)
    return {"answer": response.response,
            "contexts": [{"id": n.node.ref_doc_id, "text": n.node.get_content(), "score": n.score}
                         for n in response.source_nodes]}


def hs_by_hand(query: str) -> dict:
    result = hs_pipeline.run({"retriever": {"query": query}, "reader": {"question": query}},
                             include_outputs_from={"retriever"})
    return {"answer": result["reader"]["replies"][0],
            "contexts": [{"id": d.meta["ragdx_id"], "text": d.content, "score": d.score}
                         for d in result["retriever"]["documents"]]}


# ----------------------------------------------------------------------------- setup hook

SETUP_CALLS = []


def counting_factory():
    """A factory that records each call: the runner must call it once, however many workers."""
    SETUP_CALLS.append(1)
    return li_engine
