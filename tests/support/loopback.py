"""What every test server shares: a ThreadingHTTPServer on a free port of 127.0.0.1, served
from a daemon thread for the life of a ``with`` block, then shut down."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self


class LoopbackHTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    # The default backlog of 5 drops connections when a client opens many at once; the
    # client then sees connect timeouts no fault policy asked for.
    request_queue_size = 128

    def __init__(self, handler: type[BaseHTTPRequestHandler], state: Any):
        super().__init__(("127.0.0.1", 0), handler)
        self.state = state


class LoopbackServer:
    """Base of the test servers. Subclasses set ``handler`` and pass their state, which must
    have a ``stopping`` event (set on exit so that slow handlers can give up)."""

    handler: type[BaseHTTPRequestHandler]

    def __init__(self, state: Any):
        self._state = state
        self._httpd: LoopbackHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Self:
        self._httpd = LoopbackHTTPServer(self.handler, self._state)
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._state.stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    @property
    def origin(self) -> str:
        """``http://127.0.0.1:PORT``."""
        assert self._httpd is not None, "server not started"
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"
