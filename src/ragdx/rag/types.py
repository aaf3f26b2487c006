"""Plain records shared by every system under test and the runner.

Whatever a system is (a built-in pipeline, a Python callable, an HTTP endpoint or a results file
someone already produced), one query in gives one :class:`SystemOutput` out, so evaluation never
needs to know which kind of system it is looking at.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Protocol, runtime_checkable


@dataclass(slots=True)
class RetrievedContext:
    id: str
    text: str
    score: float | None = None


@dataclass(slots=True)
class SystemInput:
    """What a system is asked: the record id (for joining results back), the query text and, for a
    turn of a conversation, the turns before it."""

    id: str
    query: str
    metadata: dict[str, Any] = field(default_factory=dict)
    #: the conversation so far when ``query`` is a follow-up: ``{"query": ..., "answer": ...}`` per
    #: earlier turn, oldest first (empty for a question asked on its own)
    history: list[dict[str, Any]] = field(default_factory=list)


@dataclass(slots=True)
class SystemOutput:
    id: str
    query: str
    answer: str | None
    contexts: list[RetrievedContext] = field(default_factory=list)
    latency_s: float | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    #: None when the system answered; otherwise the error after retries (never a silent NaN)
    error: str | None = None
    attempts: int = 1
    #: what ragdx's LLM clients did for this query (``ragdx.llm.Usage.as_dict``): calls, retries,
    #: cache hits, tokens; None when the system made no request through them
    llm: dict[str, Any] | None = None
    #: what the system searched and answered for a follow-up, written out in full by its history
    #: handling (built-in pipelines record it); None: the query was used as asked. Written to a
    #: results line only when set, so the lines of every other run keep their bytes
    rewritten_query: str | None = None

    @property
    def retrieved_ids(self) -> list[str]:
        return [c.id for c in self.contexts]

    def to_dict(self) -> dict[str, Any]:
        """``asdict(self)`` without its recursive deep copy in the common case (the runner's
        largest per-record cost on a fast system): the same keys in the same order. A context
        that is not a :class:`RetrievedContext` goes through ``asdict`` as before."""
        contexts = []
        for c in self.contexts:
            if type(c) is not RetrievedContext:
                full = asdict(self)
                if full["rewritten_query"] is None:
                    del full["rewritten_query"]
                return full
            contexts.append({"id": c.id, "text": c.text, "score": c.score})
        out = {"id": self.id, "query": self.query, "answer": self.answer, "contexts": contexts,
               "latency_s": self.latency_s, "prompt_tokens": self.prompt_tokens,
               "completion_tokens": self.completion_tokens, "error": self.error, "attempts": self.attempts,
               "llm": self.llm}
        if self.rewritten_query is not None:
            out["rewritten_query"] = self.rewritten_query
        return out

    @classmethod
    def from_dict(cls, obj: dict[str, Any]) -> SystemOutput:
        data = dict(obj)
        data["contexts"] = [RetrievedContext(**c) for c in data.get("contexts", [])]
        return cls(**data)


@runtime_checkable
class System(Protocol):
    """A RAG system under test. ``answer`` never raises for a failed query: it returns a
    :class:`SystemOutput` with ``error`` set, so the runner can record and count it."""

    name: str

    async def answer(self, item: SystemInput) -> SystemOutput: ...

    def describe(self) -> dict[str, Any]:
        """The configuration that identifies this system (goes into the run manifest)."""
        ...
