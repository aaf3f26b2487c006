"""One retry policy for everything ragdx asks over the network (the LLM client, embeddings
endpoints, HTTP and OpenAI-compatible systems): which HTTP statuses are worth asking again, how
long to wait (exponential backoff with "equal jitter", or longer when the server says so), and a
failure's message as one redacted line. A leaf: nothing of ragdx's above it is imported.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

#: besides every 5xx: a timeout (408), a conflict that resolves by itself (409), "too early"
#: (425) and rate limiting (429); any other 4xx is the request's fault and fails at once
RETRYABLE_STATUS = frozenset({408, 409, 425, 429})


def retryable_status(status: int) -> bool:
    return status in RETRYABLE_STATUS or status >= 500


def is_retryable(exc: BaseException) -> bool:
    """An HTTP error by its status (an SDK's status error carries ``status_code``); any other
    failure (a timeout, a dropped connection, an unusable body) is worth another try."""
    status = getattr(exc, "status_code", None)
    return retryable_status(status) if isinstance(status, int) else True


def retry_after_seconds(headers: Mapping[str, str]) -> float | None:
    """``Retry-After`` / ``retry-after-ms`` in seconds; None when absent or an HTTP date."""
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is not None:
            try:
                return max(0.0, float(value) * scale)
            except ValueError:
                continue  # an HTTP date: rare enough to fall back on our own backoff
    return None


class Backoff:
    """Exponential backoff with "equal jitter": never less than half a step, so retries really
    back off, but spread so that requests that failed together do not retry together. A wait the
    server asked for is honoured up to ``cap``."""

    def __init__(self, base: float, cap: float, rng: random.Random | None = None):
        self.base = base
        self.cap = cap
        self._rng = rng or random.Random()

    def delay(self, attempt: int, hinted: float | None = None) -> float:
        step = min(self.cap, self.base * 2 ** (attempt - 1))
        delay = step / 2 + self._rng.uniform(0, step / 2)
        return delay if hinted is None else max(delay, min(hinted, self.cap))


def one_line(failure: BaseException | str, limit: int = 300) -> str:
    """A failure's message on one line, redacted (a server quoting the URL or the request in its
    error must not put a credential into a record), cut at ``limit`` characters."""
    from ragdx.redact import redact_text

    text = " ".join(str(failure).split())
    text = redact_text(text) or (type(failure).__name__ if isinstance(failure, BaseException) else "")
    return text if len(text) <= limit else text[: limit - 3] + "..."
