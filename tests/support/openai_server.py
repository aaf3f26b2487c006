"""A real OpenAI-compatible HTTP server for tests, with scripted faults.

The LLM client is tested over real sockets, not against a mocked SDK, so that the retry
loop sees the same exceptions it sees in production (status errors, read timeouts,
bodies the SDK cannot parse).

    with OpenAIServer() as server:
        server.script(Fault.http(429), Fault.timeout(1.0))
        llm = OpenAICompatibleLLM("test-model", base_url=server.base_url)
        ...
        assert len(server.chat_requests) == 3

Each POST to ``/v1/chat/completions`` takes the next scripted fault, if any; otherwise
it answers with ``server.reply(body)`` (default: ``"echo: "`` + the last user message).
A reply function may return a ``Fault`` instead of text, to fail chosen requests whatever
order concurrent requests arrive in.
Token counts are whitespace-separated words, so tests can predict them exactly.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.support.loopback import LoopbackHTTPServer, LoopbackServer


@dataclass(frozen=True)
class Fault:
    """One scripted misbehaviour, consumed by exactly one chat request."""

    status: int = 200
    body: bytes | None = None  # replaces the normal reply when given
    headers: tuple[tuple[str, str], ...] = ()
    hang: float = 0.0  # seconds to wait before answering; longer than the client timeout = a timeout

    @classmethod
    def http(cls, status: int, *, retry_after: float | None = None) -> Fault:
        headers = () if retry_after is None else (("Retry-After", f"{retry_after:g}"),)
        error = {"error": {"message": f"scripted HTTP {status}", "type": "test", "code": status}}
        return cls(status=status, body=json.dumps(error).encode(), headers=headers)

    @classmethod
    def timeout(cls, seconds: float = 2.0) -> Fault:
        """Answer (with the default echo) only after ``seconds``."""
        return cls(hang=seconds)

    @classmethod
    def not_json(cls) -> Fault:
        # Declared as JSON so the SDK tries to decode it, as a broken proxy would make it.
        return cls(body=b"<html>502 Bad Gateway</html>", headers=(("Content-Type", "application/json"),))

    @classmethod
    def no_choices(cls) -> Fault:
        return cls(body=json.dumps({"id": "x", "object": "chat.completion"}).encode())

    @classmethod
    def empty_choices(cls) -> Fault:
        return cls(body=json.dumps({"id": "x", "object": "chat.completion", "choices": []}).encode())

    @classmethod
    def content(cls, value: Any) -> Fault:
        """A well-formed completion whose message content is ``value`` ("" or None: an empty reply)."""
        body = {"id": "x", "object": "chat.completion", "model": "test-model",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": value},
                             "finish_reason": "stop"}]}
        return cls(body=json.dumps(body).encode())

    @classmethod
    def truncated(cls) -> Fault:
        """A completion cut off mid-body, as a proxy dropping the connection would leave it."""
        whole = json.dumps({"id": "x", "object": "chat.completion",
                            "choices": [{"index": 0, "message": {"role": "assistant", "content": "Correct"}}]})
        return cls(body=whole[: len(whole) // 2].encode())

    @classmethod
    def html(cls, status: int = 200) -> Fault:
        """An HTML page served as text/html (a captive portal or a misrouted proxy)."""
        return cls(status=status, body=b"<!doctype html><title>Login</title><p>Sign in</p>",
                   headers=(("Content-Type", "text/html"),))


Reply = Callable[[dict[str, Any]], "str | Fault"]


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]  # names lower-cased
    body: Any  # decoded JSON, or None for bodiless requests
    query: str = ""  # the query string of the request's URL, without '?'


def echo_reply(body: dict[str, Any]) -> str:
    users = [m for m in body.get("messages", []) if m.get("role") == "user"]
    return "echo: " + (users[-1].get("content", "") if users else "")


@dataclass
class _State:
    reply: Reply = echo_reply
    latency: float = 0.0
    faults: deque[Fault] = field(default_factory=deque)
    requests: list[RecordedRequest] = field(default_factory=list)
    in_flight: int = 0
    max_in_flight: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    # Set on shutdown so that hanging handlers return at once instead of outliving the test.
    stopping: threading.Event = field(default_factory=threading.Event)


class _Handler(BaseHTTPRequestHandler):
    server: LoopbackHTTPServer

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep pytest output clean

    def do_GET(self) -> None:
        self._record(None)
        if self.path.rstrip("/") != "/v1/models":
            self._send(404, {"error": {"message": f"no route {self.path}"}})
            return
        self._send(200, {"object": "list", "data": [{"id": "test-model", "object": "model"}]})

    def do_POST(self) -> None:
        state = self.server.state
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = json.loads(raw) if raw else None
        self._record(body)
        # routed by path alone, as real servers do: a query string (…?api-version=1) is no other route
        route = self.path.partition("?")[0]
        if route == "/v1/embeddings":
            self._embeddings(body)
            return
        if route != "/v1/chat/completions":
            self._send(404, {"error": {"message": f"no route {self.path}"}})
            return
        with state.lock:
            scripted = state.faults.popleft() if state.faults else None
            state.in_flight += 1
            state.max_in_flight = max(state.max_in_flight, state.in_flight)
        counted = True

        def finished() -> None:
            # a request stops counting as in flight before its answer is written: once the client
            # has the answer it may send the next one, which must not find this one still counted
            # (that race made max_in_flight exceed the client's bound under load)
            nonlocal counted
            if counted:
                counted = False
                with state.lock:
                    state.in_flight -= 1

        try:
            answer = scripted if scripted is not None else state.reply(body)
            fault = answer if isinstance(answer, Fault) else None
            if state.stopping.wait((fault.hang if fault else 0.0) + state.latency):
                return
            finished()
            if fault is None:
                self._send(200, _completion(body, str(answer)))
            elif fault.body is not None:
                self._send_raw(fault.status, fault.body, fault.headers)
            else:  # only slow: answer late, if the client still listens
                self._send(200, _completion(body, echo_reply(body)))
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout); that is the point of the fault
        finally:
            finished()

    def _embeddings(self, body: dict[str, Any]) -> None:
        """``/v1/embeddings``: deterministic hashed bag-of-words vectors (``embedding_vector``),
        so texts sharing words are close. Scripted faults apply here too."""
        state = self.server.state
        with state.lock:
            scripted = state.faults.popleft() if state.faults else None
        if scripted is not None and scripted.body is not None:
            self._send_raw(scripted.status, scripted.body, scripted.headers)
            return
        inputs = body.get("input")
        inputs = [inputs] if isinstance(inputs, str) else list(inputs or [])
        dims = int(body.get("dimensions") or EMBEDDING_DIMENSIONS)
        data = [{"object": "embedding", "index": i, "embedding": embedding_vector(t, dims)}
                for i, t in enumerate(inputs)]
        tokens = sum(len(str(t).split()) for t in inputs)
        self._send(200, {"object": "list", "data": data, "model": body.get("model", "test-model"),
                         "usage": {"prompt_tokens": tokens, "total_tokens": tokens}})

    def _record(self, body: Any) -> None:
        state = self.server.state
        with state.lock:
            headers = {name.lower(): value for name, value in self.headers.items()}
            path, _, query = self.path.partition("?")
            state.requests.append(RecordedRequest(self.command, path, headers, body, query))

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        self._send_raw(status, json.dumps(payload).encode(), ())

    def _send_raw(self, status: int, body: bytes, headers: tuple[tuple[str, str], ...]) -> None:
        self.send_response(status)
        names = {name.lower() for name, _ in headers}
        if "content-type" not in names:
            self.send_header("Content-Type", "application/json")
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


EMBEDDING_DIMENSIONS = 64


def embedding_vector(text: str, dims: int = EMBEDDING_DIMENSIONS) -> list[float]:
    """A deterministic embedding: each lower-cased word adds +-1 at two hashed coordinates
    (plus a constant coordinate, so no text maps to the zero vector); not normalised, as real
    endpoints need not be."""
    import hashlib
    import re

    vec = [0.0] * dims
    vec[0] = 0.5
    for word in re.findall(r"\w+", str(text).lower()):
        digest = hashlib.sha256(word.encode()).digest()
        for j in (0, 4):
            index = 1 + int.from_bytes(digest[j:j + 2], "big") % (dims - 1)
            vec[index] += 1.0 if digest[j + 2] % 2 else -1.0
    return vec


def _completion(request: dict[str, Any], text: str) -> dict[str, Any]:
    prompt_tokens = sum(len(str(m.get("content", "")).split()) for m in request.get("messages", []))
    completion_tokens = len(text.split())
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.get("model", "test-model"),
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


class OpenAIServer(LoopbackServer):
    """Context manager running the server on 127.0.0.1 on a free port in a daemon thread."""

    handler = _Handler

    def __init__(self, *, latency: float = 0.0):
        super().__init__(_State(latency=latency))

    @property
    def base_url(self) -> str:
        return f"{self.origin}/v1"

    def script(self, *faults: Fault) -> None:
        """Queue faults; each chat request consumes one, in order."""
        with self._state.lock:
            self._state.faults.extend(faults)

    @property
    def reply(self) -> Reply:
        return self._state.reply

    @reply.setter
    def reply(self, fn: Reply) -> None:
        self._state.reply = fn

    @property
    def latency(self) -> float:
        return self._state.latency

    @latency.setter
    def latency(self, seconds: float) -> None:
        self._state.latency = seconds

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._state.lock:
            return list(self._state.requests)

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path == "/v1/chat/completions"]

    @property
    def embedding_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path == "/v1/embeddings"]

    @property
    def max_in_flight(self) -> int:
        return self._state.max_in_flight
