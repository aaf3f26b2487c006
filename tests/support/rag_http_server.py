"""A real HTTP RAG endpoint for tests, with deterministic faults.

The HTTP adapter is tested over real sockets on 127.0.0.1 so its retry loop meets the
same failures it meets in production: status errors, read timeouts, bodies that are not JSON.

    with RAGServer(faults=every_nth_fails(...)) as server:
        system = HTTPSystem(server.url, body={"q": "{query}", "rid": "{id}"}, ...)

The request body is whatever the client's template produced; the server finds the query and
the record id in it with ``query_path`` / ``id_path`` (dotted paths, default ``q`` / ``rid``).
Its answer is nested on purpose, so the response mapping has paths to follow:

    {"data": {"result": {"text": "answer: <query>"},
              "hits": [{"doc": {"key": "d-<id>-0", "body": "..."}, "relevance": 0.9}, ...]},
     "usage": {"input": <words in query>, "output": <words in answer>}}

``faults(record_id, attempt)`` picks a :class:`Fault` for the ``attempt``-th request (from 1)
of that record, or ``None`` to answer normally. Keyed on the record and attempt, not on
arrival order, so concurrent clients see the same faults on every run.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.support.loopback import LoopbackHTTPServer, LoopbackServer


@dataclass(frozen=True)
class Fault:
    status: int = 200
    body: bytes | None = None  # replaces the normal answer when given
    headers: tuple[tuple[str, str], ...] = ()
    hang: float = 0.0  # seconds before answering; longer than the client's timeout = a timeout

    @classmethod
    def http(cls, status: int, *, retry_after: float | None = None) -> Fault:
        headers = () if retry_after is None else (("Retry-After", f"{retry_after:g}"),)
        return cls(status=status, body=json.dumps({"error": f"scripted HTTP {status}"}).encode(), headers=headers)

    @classmethod
    def timeout(cls, seconds: float = 1.0) -> Fault:
        return cls(hang=seconds)

    @classmethod
    def malformed(cls) -> Fault:
        # Declared as JSON, as a broken proxy would, and cut in the middle.
        return cls(body=b'{"data": {"result": {"text": "trunc', headers=(("Content-Type", "application/json"),))

    @classmethod
    def html(cls) -> Fault:
        return cls(body=b"<html>502 Bad Gateway</html>", headers=(("Content-Type", "text/html"),))


FaultPolicy = Callable[[str, int], "Fault | None"]


def no_faults(record_id: str, attempt: int) -> Fault | None:
    return None


def _bucket(record_id: str, salt: str = "") -> int:
    return int(hashlib.sha256(f"{salt}{record_id}".encode()).hexdigest()[:8], 16) % 100


def flaky(rate: int = 30, *, fail_attempts: int = 2, always_fail: int = 0, slow: float = 1.0) -> FaultPolicy:
    """About ``rate`` % of records fail their first ``fail_attempts`` requests, each with one of
    500, 503, 429 (Retry-After 0), a timeout of ``slow`` seconds, a truncated JSON body or an
    HTML page, chosen from the id; about ``always_fail`` % (taken from the failing ones) fail
    every request with 500. Deterministic: the same id and attempt always get the same fault."""
    kinds: list[Callable[[], Fault]] = [
        lambda: Fault.http(500), lambda: Fault.http(503), lambda: Fault.http(429, retry_after=0),
        lambda: Fault.timeout(slow), Fault.malformed, Fault.html,
    ]

    def policy(record_id: str, attempt: int) -> Fault | None:
        bucket = _bucket(record_id)
        if bucket < always_fail:
            return Fault.http(500)
        if bucket < rate and attempt <= fail_attempts:
            return kinds[(_bucket(record_id, "kind") + attempt) % len(kinds)]()
        return None

    return policy


def get_path(data: Any, path: str) -> Any:
    for part in path.split("."):
        data = data[int(part)] if isinstance(data, list) else data[part]
    return data


def default_answer(query: str, record_id: str) -> dict[str, Any]:
    answer = f"answer: {query}"
    return {
        "data": {
            "result": {"text": answer},
            "hits": [
                {"doc": {"key": f"d-{record_id}-{k}", "body": f"passage {k} for {query}"}, "relevance": 1.0 - k / 10}
                for k in range(2)
            ],
        },
        "usage": {"input": len(query.split()), "output": len(answer.split())},
    }


@dataclass
class _State:
    faults: FaultPolicy = no_faults
    answer: Callable[[str, str], dict[str, Any]] = default_answer
    query_path: str = "q"
    id_path: str = "rid"
    path: str = "/ask"
    bodies: list[Any] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    attempts: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    faults_served: list[tuple[str, int, int]] = field(default_factory=list)  # (id, attempt, status)
    in_flight: int = 0
    max_in_flight: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    stopping: threading.Event = field(default_factory=threading.Event)


class _Handler(BaseHTTPRequestHandler):
    server: LoopbackHTTPServer

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        state = self.server.state
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            body = json.loads(raw)
            query = get_path(body, state.query_path)
            record_id = str(get_path(body, state.id_path))
        except (ValueError, LookupError, TypeError):
            self._send(400, b'{"error": "bad request body"}', ())
            return
        with state.lock:
            state.bodies.append(body)
            state.headers.append({k.lower(): v for k, v in self.headers.items()})
            state.attempts[record_id] += 1
            attempt = state.attempts[record_id]
            state.in_flight += 1
            state.max_in_flight = max(state.max_in_flight, state.in_flight)
        self._counted = True
        try:
            if self.path.partition("?")[0] != state.path:  # a query string (…?jwt=…) is no other route
                self._send(404, b'{"error": "no such route"}', ())
                return
            fault = state.faults(record_id, attempt)
            if fault is not None:
                with state.lock:
                    state.faults_served.append((record_id, attempt, fault.status if fault.body else 0))
                if state.stopping.wait(fault.hang):
                    return
                if fault.body is not None:
                    self._send(fault.status, fault.body, fault.headers)
                    return
            self._send(200, json.dumps(state.answer(query, record_id)).encode(), ())
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client stopped waiting: that is what a timeout fault is for
        finally:
            self._finished()

    def _finished(self) -> None:
        """The request stops counting as in flight, once, before its answer is written: a client
        that has the answer may send the next request, which must not find this one still counted
        (that race let max_in_flight exceed the client's bound under load)."""
        if getattr(self, "_counted", False):
            self._counted = False
            with self.server.state.lock:
                self.server.state.in_flight -= 1

    def _send(self, status: int, body: bytes, headers: tuple[tuple[str, str], ...]) -> None:
        self._finished()
        self.send_response(status)
        if "content-type" not in {n.lower() for n, _ in headers}:
            self.send_header("Content-Type", "application/json")
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class RAGServer(LoopbackServer):
    """Context manager: the server on a free port of 127.0.0.1, in a daemon thread."""

    handler = _Handler

    def __init__(self, *, faults: FaultPolicy = no_faults, query_path: str = "q", id_path: str = "rid",
                 answer: Callable[[str, str], dict[str, Any]] = default_answer, path: str = "/ask"):
        super().__init__(_State(faults=faults, answer=answer, query_path=query_path, id_path=id_path, path=path))

    @property
    def url(self) -> str:
        return f"{self.origin}{self._state.path}"

    @property
    def bodies(self) -> list[Any]:
        with self._state.lock:
            return list(self._state.bodies)

    @property
    def headers(self) -> list[dict[str, str]]:
        with self._state.lock:
            return list(self._state.headers)

    @property
    def attempts(self) -> dict[str, int]:
        with self._state.lock:
            return dict(self._state.attempts)

    @property
    def faults_served(self) -> list[tuple[str, int, int]]:
        with self._state.lock:
            return list(self._state.faults_served)

    @property
    def max_in_flight(self) -> int:
        return self._state.max_in_flight
