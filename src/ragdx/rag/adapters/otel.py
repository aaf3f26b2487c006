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
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ragdx.errors import RagdxError

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import SpanProcessor

__all__ = ["NO_RETRIEVER_SPAN", "SpanCollector", "TraceFileSystem", "collector", "contexts_from_spans",
           "read_trace_file", "reset_span_stats", "span_stats", "traced"]

#: queries traced before a run is warned that none of them showed a retriever span
WARN_AFTER = 5
NO_RETRIEVER_SPAN = ("--otel: no retriever span was seen in the {n} traced queries so far, so no retrieved "
                     "documents are captured and retrieval cannot be judged. Instrument the app's retriever "
                     "(openinference-instrumentation-langchain / -llama-index, ...) in the process ragdx runs, "
                     "after ragdx's tracer provider is set or on the SDK TracerProvider; or return the contexts from "
                     "the callable and drop --otel")


class _SpanStats:
    """How many traced queries showed a retriever span (this process)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.queries = 0
        self.with_retriever = 0
        self.warned = False


_STATS = _SpanStats()


def span_stats() -> dict[str, Any]:
    """Traced queries, those with a retriever span, and whether the run was warned already."""
    with _STATS.lock:
        return {"queries": _STATS.queries, "with_retriever": _STATS.with_retriever, "warned": _STATS.warned}


def reset_span_stats() -> None:
    with _STATS.lock:
        _STATS.queries = _STATS.with_retriever = 0
        _STATS.warned = False


def is_retriever_span(span: Any) -> bool:
    """An OpenInference ``RETRIEVER`` span or one carrying GenAI ``gen_ai.retrieval.documents``."""
    attrs = getattr(span, "attributes", None) or {}
    return attrs.get("openinference.span.kind") == "RETRIEVER" or "gen_ai.retrieval.documents" in attrs


def _count(spans: Sequence[Any]) -> None:
    """Count one traced query; warn once, while the run goes on, when none has shown a retriever span."""
    import warnings

    seen = any(is_retriever_span(s) for s in spans)
    with _STATS.lock:
        _STATS.queries += 1
        _STATS.with_retriever += seen
        warn = not _STATS.warned and _STATS.with_retriever == 0 and _STATS.queries >= WARN_AFTER
        if warn:
            _STATS.warned = True
        n = _STATS.queries
    if warn:
        warnings.warn(NO_RETRIEVER_SPAN.format(n=n), RuntimeWarning, stacklevel=3)


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
            # a SpanProcessor by its methods: the SDK is optional, so the class cannot derive from it
            provider.add_span_processor(cast("SpanProcessor", _COLLECTOR))
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
    taken = spans.take(trace_id)
    _count(taken)
    return result, contexts_from_spans(taken)


# ----------------------------------------------------------------------------- exported traces


def _otlp_value(value: Any) -> Any:
    """An OTLP/JSON ``AnyValue`` as a plain value."""
    if not isinstance(value, Mapping):
        return value
    for key in ("stringValue", "boolValue", "doubleValue"):
        if key in value:
            return value[key]
    if "intValue" in value:
        return int(value["intValue"])
    if "arrayValue" in value:
        return [_otlp_value(v) for v in value["arrayValue"].get("values", [])]
    return None


def _spans_of(obj: Any) -> list[dict[str, Any]]:
    """Spans of one JSON object: OTLP/JSON (``resourceSpans``) or the SDK's ``Span.to_json()``."""
    out = []
    if isinstance(obj, Mapping) and "resourceSpans" in obj:
        for rs in obj.get("resourceSpans") or []:
            for ss in rs.get("scopeSpans") or rs.get("instrumentationLibrarySpans") or []:
                for s in ss.get("spans") or []:
                    out.append({"trace_id": s.get("traceId"), "span_id": s.get("spanId"),
                                "parent_id": s.get("parentSpanId") or None, "name": s.get("name"),
                                "start_time": int(s.get("startTimeUnixNano") or 0),
                                "attributes": {a["key"]: _otlp_value(a.get("value"))
                                               for a in s.get("attributes") or []}})
    elif isinstance(obj, Mapping) and "context" in obj:
        ctx = obj.get("context") or {}
        out.append({"trace_id": ctx.get("trace_id"), "span_id": ctx.get("span_id"),
                    "parent_id": obj.get("parent_id") or None, "name": obj.get("name"),
                    "start_time": obj.get("start_time") or "", "attributes": dict(obj.get("attributes") or {})})
    return out


def read_trace_file(path: str | Path) -> list[dict[str, Any]]:
    """Every span of an exported trace file: OTLP/JSON objects or SDK ``to_json()`` spans, one
    per line or concatenated (as ``ConsoleSpanExporter`` writes them)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RagdxError(f"cannot read ({exc.strerror or exc})", source=str(path)) from None
    decoder = json.JSONDecoder()
    spans: list[dict[str, Any]] = []
    pos = 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            break
        try:
            obj, pos = decoder.raw_decode(text, pos)
        except ValueError:
            line = text.count("\n", 0, pos) + 1
            raise RagdxError("not JSON (expected OTLP/JSON or SDK span objects)", source=str(path),
                             field=f"line {line}") from None
        spans.extend(_spans_of(obj))
    if not spans:
        raise RagdxError("no spans found (expected OTLP/JSON 'resourceSpans' or SDK span objects)", source=str(path))
    return spans


def _text_of(value: Any, keys: Sequence[str]) -> str | None:
    """``input.value`` / ``output.value``: a string, or JSON whose first known key holds it."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except ValueError:
            return value
        value = parsed
    if isinstance(value, Mapping):
        for key in keys:
            if isinstance(value.get(key), str):
                return value[key]
        return None
    return value if isinstance(value, str) else json.dumps(value)


class TraceFileSystem:
    """An exported trace file as a results source: one trace per query. The query is the root
    span's ``input.value``, the answer its ``output.value``, the contexts those of the trace's
    retriever spans. Queries are matched by their text; a query with no trace is answered with
    an error ("not in the trace file"), never dropped."""

    def __init__(self, path: str | Path, *, name: str | None = None):
        from ragdx.store import sha256_file

        self.path = Path(path)
        self.name = name or self.path.stem
        by_trace: dict[str, list[dict[str, Any]]] = {}
        for span in read_trace_file(self.path):
            by_trace.setdefault(str(span["trace_id"]), []).append(span)
        self._answers: dict[str, tuple[str | None, list[dict[str, Any]]]] = {}
        for spans in by_trace.values():
            ids = {s["span_id"] for s in spans}
            roots = [s for s in spans if not s["parent_id"] or s["parent_id"] not in ids]
            root = min(roots or spans, key=lambda s: s["start_time"])
            attrs = root["attributes"]
            query = _text_of(attrs.get("input.value"), ("input", "question", "query"))
            if query is None:
                continue
            answer = _text_of(attrs.get("output.value"), ("answer", "output", "result", "response"))
            views = [_SpanView(s) for s in spans]
            self._answers[query] = (answer, contexts_from_spans(views))
        if not self._answers:
            raise RagdxError("no trace has a root span with input.value (the query)", source=str(self.path))
        self.sha256 = sha256_file(self.path)

    def describe(self) -> dict[str, Any]:
        return {"kind": "traces", "name": self.name, "path": str(self.path), "sha256": self.sha256}

    async def answer(self, item: Any) -> Any:
        from ragdx.rag.types import RetrievedContext, SystemOutput

        found = self._answers.get(item.query)
        if found is None:
            return SystemOutput(id=item.id, query=item.query, answer=None, error="not in the trace file")
        answer, contexts = found
        return SystemOutput(id=item.id, query=item.query, answer=answer,
                            contexts=[RetrievedContext(**c) for c in contexts])


class _SpanView:
    """What contexts_from_spans reads of a span, for spans read from a file."""

    def __init__(self, span: Mapping[str, Any]):
        self.attributes = span["attributes"]
        self.start_time = span["start_time"]
