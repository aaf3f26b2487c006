"""Retrieved documents read from an instrumented app's OpenTelemetry spans, in process.

An app instrumented with OpenInference (``openinference-instrumentation-langchain``,
``-llama-index``, ...) records every retrieval as a span of kind ``RETRIEVER`` with attributes
``retrieval.documents.N.document.{id,content,score,metadata}``; the OpenTelemetry GenAI
conventions put the same in ``gen_ai.retrieval.documents`` (a JSON list). ``ragdx run
--callable app:answer --otel`` opens a span around each query, collects the spans of that
trace as they end, and takes the contexts from its retriever spans, so a function that returns
only its answer text still yields contexts, ids and scores, with no change to the app.

The collector is added to the process's SDK ``TracerProvider``; when the app has not set one,
ragdx sets one (instrumentors that started on the default proxy provider then report to it).
Spans are matched by trace id, so concurrent queries do not mix.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from ragdx.errors import RagdxError

__all__ = ["SpanCollector", "collector", "contexts_from_spans", "traced"]


def _document_id(meta: Any, own: Any) -> str | None:
    from ragdx.rag.adapters import document_id

    if isinstance(meta, str):
        try:
            meta = json.loads(meta)
        except ValueError:
            meta = None
    return document_id(meta, own)


def contexts_from_spans(spans: Sequence[Any]) -> list[dict[str, Any]]:
    """Contexts of the retriever spans among ``spans`` (in the order the spans started)."""
    out: list[dict[str, Any]] = []
    for span in sorted(spans, key=lambda s: s.start_time or 0):
        attrs: Mapping[str, Any] = span.attributes or {}
        if attrs.get("openinference.span.kind") == "RETRIEVER":
            i = 0
            while any(f"retrieval.documents.{i}.document.{f}" in attrs for f in ("id", "content", "metadata")):
                prefix = f"retrieval.documents.{i}.document."
                meta = attrs.get(prefix + "metadata")
                score = attrs.get(prefix + "score")
                if score is None and isinstance(meta, str):
                    try:
                        score = json.loads(meta).get("score")
                    except (ValueError, AttributeError):
                        score = None
                out.append({"id": _document_id(meta, attrs.get(prefix + "id")) or str(i),
                            "text": str(attrs.get(prefix + "content") or ""),
                            "score": None if score is None else float(score)})
                i += 1
        elif "gen_ai.retrieval.documents" in attrs:
            try:
                docs = json.loads(attrs["gen_ai.retrieval.documents"])
            except (TypeError, ValueError):
                continue
            for i, d in enumerate(docs if isinstance(docs, list) else []):
                if isinstance(d, Mapping):
                    out.append({"id": _document_id(d.get("metadata"), d.get("id")) or str(i),
                                "text": str(d.get("content") or d.get("text") or ""),
                                "score": None if d.get("score") is None else float(d["score"])})
    return out


class SpanCollector:
    """An SDK span processor keeping the finished spans of the traces it was asked to watch."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._spans: dict[int, list[Any]] = {}

    # SpanProcessor protocol
    def on_start(self, span: Any, parent_context: Any = None) -> None:
        pass

    def on_end(self, span: Any) -> None:
        trace_id = span.get_span_context().trace_id
        with self._lock:
            if trace_id in self._spans:
                self._spans[trace_id].append(span)

    def _on_ending(self, span: Any) -> None:  # newer SDKs call this; nothing to do
        pass

    def shutdown(self) -> None:
        pass

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return True

    def watch(self, trace_id: int) -> None:
        with self._lock:
            self._spans[trace_id] = []

    def take(self, trace_id: int) -> list[Any]:
        with self._lock:
            return self._spans.pop(trace_id, [])


_COLLECTOR: SpanCollector | None = None
_TRACER: Any = None
_INSTALL = threading.Lock()


def collector() -> tuple[SpanCollector, Any]:
    """The process's collector and ragdx's tracer, installed on first use."""
    global _COLLECTOR, _TRACER
    with _INSTALL:
        if _COLLECTOR is None:
            try:
                from opentelemetry import trace
                from opentelemetry.sdk.trace import TracerProvider
            except ImportError:
                raise RagdxError("--otel needs opentelemetry-sdk: pip install 'ragdx[otel]'", field="--otel") from None
            provider = trace.get_tracer_provider()
            if not isinstance(provider, TracerProvider):
                provider = TracerProvider()
                trace.set_tracer_provider(provider)
                if trace.get_tracer_provider() is not provider:
                    raise RagdxError("another tracer provider is set that is not the OpenTelemetry SDK's; "
                                     "--otel cannot read its spans", field="--otel")
            _COLLECTOR = SpanCollector()
            provider.add_span_processor(_COLLECTOR)
            _TRACER = provider.get_tracer("ragdx")
    return _COLLECTOR, _TRACER


async def traced(call: Callable[[], Awaitable[Any]]) -> tuple[Any, list[dict[str, Any]]]:
    """Run ``call`` inside a fresh trace; its result and the contexts its retriever spans reported."""
    spans, tracer = collector()
    with tracer.start_as_current_span("ragdx.query") as span:
        trace_id = span.get_span_context().trace_id
        spans.watch(trace_id)
        try:
            result = await call()
        except BaseException:
            spans.take(trace_id)
            raise
    return result, contexts_from_spans(spans.take(trace_id))
