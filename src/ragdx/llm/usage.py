"""What LLM calls cost, counted: the ``Usage`` record (requests, retries, failures, cache hits,
tokens, truncated replies, estimated cost) and the ``counting`` scopes that let each query of a
run, or each evaluated run, count exactly its own requests though they share one client. A leaf:
the client counts into it and the estimator prices it, and neither imports the other for it.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any


@dataclass
class Usage:
    """What a client has done so far.

    ``calls`` are HTTP requests, retries included (``retries`` of them); ``completions`` are
    answers received from the endpoint, ``failures`` requests given up after their retries, and
    ``cache_hits`` answers served from the cache, which cost no tokens. ``truncated`` counts
    replies cut at the client's ``max_completion_chars``. ``cost_usd`` is the estimated cost of
    the tokens received when the client has a ``price``, None when it has none. A ``DryRunLLM``
    fills in the numbers a failure-free real run would report, with estimated tokens.
    """

    calls: int = 0
    completions: int = 0
    cache_hits: int = 0
    failures: int = 0
    retries: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    truncated: int = 0
    cost_usd: float | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Usage:
        """The counters of a stored record (a results line, a manifest); unknown keys are ignored."""
        usage = cls(**{f.name: int(data.get(f.name) or 0) for f in fields(cls) if f.name != "cost_usd"})
        cost = data.get("cost_usd")
        usage.cost_usd = None if cost is None else float(cost)
        return usage

    def __add__(self, other: Usage) -> Usage:
        if not isinstance(other, Usage):
            return NotImplemented
        total = Usage(**{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)
                         if f.name != "cost_usd"})
        if self.cost_usd is not None or other.cost_usd is not None:
            total.cost_usd = (self.cost_usd or 0.0) + (other.cost_usd or 0.0)
        return total

    def counted(self) -> bool:
        """Whether any request was counted (sent, failed or answered from the cache)."""
        return bool(self.calls or self.cache_hits or self.completions or self.failures)


# Where usage is counted besides the client's own ``usage``: every ``Usage`` of the active
# ``counting`` scopes. A context variable, so each query of a run (one asyncio task) or each
# evaluated run counts exactly its own requests, though they share one client.
_SCOPES: contextvars.ContextVar[tuple[Usage, ...]] = contextvars.ContextVar("ragdx_llm_usage", default=())
# Clients are used from worker threads too (the sync face inside a running loop, a callable
# system run in threads): ``+=`` on a shared counter is not atomic there.
_COUNT_LOCK = threading.Lock()


@contextlib.contextmanager
def counting(usage: Usage | None = None) -> Iterator[Usage]:
    """Count every request that ragdx's clients make in this context into ``usage`` (a fresh
    ``Usage`` when None), as well as into each client's own ``usage``.

    The context is this thread's or this asyncio task's, and what it starts: tasks created
    inside (``asyncio.gather``), ``asyncio.to_thread`` and ``run_sync`` inherit it. Scopes nest:
    a request counts in every enclosing one. Do not pass a client's own ``usage`` (it would
    count twice)."""
    usage = Usage() if usage is None else usage
    token = _SCOPES.set((*_SCOPES.get(), usage))
    try:
        yield usage
    finally:
        _SCOPES.reset(token)


def current_usage() -> Usage | None:
    """The ``Usage`` of the innermost ``counting`` scope of this context; None outside any."""
    scopes = _SCOPES.get()
    return scopes[-1] if scopes else None


def count_usage(own: Usage, *, cost_usd: float | None = None, **counts: int) -> None:
    with _COUNT_LOCK:
        for usage in (own, *_SCOPES.get()):
            for name, n in counts.items():
                setattr(usage, name, getattr(usage, name) + n)
            if cost_usd is not None:
                usage.cost_usd = (usage.cost_usd or 0.0) + cost_usd
