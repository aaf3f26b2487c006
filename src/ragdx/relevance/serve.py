"""``ragdx serve``: online screening of queries over HTTP (FastAPI under uvicorn).

    POST /v1/relevance  {"queries": [...]} or {"embeddings": [[...], ...]}, optional "alpha"
                        -> per query: statistics, p-values, the chosen p-value, the decision
    POST /v1/drift      same body -> the two-sample KS test of the batch against calibration
    GET  /healthz       -> {"status": "ok"} (no token needed, for load balancers); with the token,
                        also the tester's configuration
    GET  /openapi.json  (no /docs: its UI would load scripts from a CDN)

Every /v1 request needs ``Authorization: Bearer <token>``; the token is read from an environment
variable at start-up (the server refuses to start without one). Bodies over ``max_body_bytes``
and batches over ``max_batch`` are refused before any work is done; past ``max_pending``
requests in flight the server sheds load with 503 and ``Retry-After`` rather than queueing without
bound. Errors are JSON: ``{"error": "<reason>"}`` with a 4xx/5xx status, never internal text.

Clients that already embedded the query for retrieval can send ``embeddings`` and skip a second
embedding; only the test itself then runs here.
"""

from __future__ import annotations

import hmac
import os
import queue
import threading
from concurrent.futures import Future
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from ragdx.errors import RagdxError
from ragdx.relevance.confounds import batch_note
from ragdx.relevance.tester import RelevanceTester

DEFAULT_TOKEN_ENV = "RAGDX_SERVE_TOKEN"


#: the smallest level accepted: below it no conformal p-value (at least 1 / (n + 1)) can reject,
#: and levels like 5e-324 overflowed the threshold arithmetic into a 500
MIN_ALPHA = 1e-9


class Batch(BaseModel):
    """A batch of queries: texts (embedded by the server) or embeddings, and an optional level.
    Exactly one of ``queries`` and ``embeddings`` is given."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "oneOf": [{"required": ["queries"], "not": {"required": ["embeddings"]}},
                  {"required": ["embeddings"], "not": {"required": ["queries"]}}]})
    queries: list[str] | None = Field(None, min_length=1, description="query texts (embedded by the server)")
    embeddings: list[list[float]] | None = Field(None, min_length=1,
                                                 description="query embeddings of one dimension, instead of texts")
    alpha: float | None = Field(None, ge=MIN_ALPHA, lt=1, description="level; default: the tester's alpha")

    @model_validator(mode="after")
    def one_input(self) -> Batch:
        if (self.queries is None) == (self.embeddings is None):
            raise ValueError("give exactly one of 'queries' and 'embeddings'")
        if not (self.queries or self.embeddings):
            raise ValueError("the batch is empty")
        for i, q in enumerate(self.queries or ()):
            try:
                q.encode("utf-8")
            except UnicodeEncodeError:
                raise ValueError(f"queries[{i}] is not valid Unicode (a lone surrogate)") from None
        if self.embeddings and len({len(e) for e in self.embeddings}) != 1:
            raise ValueError("embeddings must all have the same dimension")
        if self.embeddings and not all(np.isfinite(v) for e in self.embeddings for v in e):
            raise ValueError("embeddings must be finite numbers")
        return self


class _MicroBatcher:
    """One worker thread computes statistics for whatever requests are waiting, in one batch.

    Embedding 50 queries in one call costs little more than embedding one, and the model and BLAS
    already use every core, so concurrent requests are merged rather than run side by side. A
    merged batch that fails is retried request by request, so one bad request fails alone."""

    def __init__(self, tester: RelevanceTester, max_items: int = 512):
        self.tester = tester
        self.max_items = max_items
        self.jobs: queue.Queue[tuple[Any, Future]] = queue.Queue()
        threading.Thread(target=self._run, name="ragdx-relevance-batcher", daemon=True).start()

    def statistics(self, items: Any) -> np.ndarray:
        done: Future = Future()
        self.jobs.put((items, done))
        return done.result()

    def _run(self) -> None:
        while True:
            jobs = [self.jobs.get()]
            count = len(jobs[0][0])
            while count < self.max_items:
                try:
                    job = self.jobs.get_nowait()
                except queue.Empty:
                    break
                jobs.append(job)
                count += len(job[0])
            texts = [j for j in jobs if not isinstance(j[0], np.ndarray)]
            arrays = [j for j in jobs if isinstance(j[0], np.ndarray)]
            for group in (texts, arrays):
                if group:
                    self._compute(group)

    def _compute(self, group: list[tuple[Any, Future]]) -> None:
        try:
            if isinstance(group[0][0], np.ndarray):
                merged: Any = np.vstack([items for items, _ in group])
            else:
                merged = [q for items, _ in group for q in items]
            stats = self.tester.statistics(merged)
        except Exception as exc:
            if len(group) > 1:
                for job in group:
                    self._compute([job])
            else:
                group[0][1].set_exception(exc)
            return
        start = 0
        for items, done in group:
            done.set_result(stats[start:start + len(items)])
            start += len(items)


class _Error(BaseModel):
    error: str


class _Refused(Exception):
    def __init__(self, status: int, reason: str):
        self.status = status
        self.reason = reason


def create_app(tester: RelevanceTester | str | os.PathLike, *, token: str | None = None,
               token_env: str = DEFAULT_TOKEN_ENV, max_batch: int = 256, max_body_bytes: int = 1_000_000,
               max_query_chars: int = 10_000, max_pending: int = 64, retry_after_s: int = 1):
    """A FastAPI app around a fitted tester (or the directory of a saved one).

    ``token`` None reads it from ``token_env``; an empty token is an error, never "no auth".
    More than ``max_pending`` /v1 requests in flight are answered 503 with ``Retry-After``."""
    from fastapi import FastAPI, Header

    if not isinstance(tester, RelevanceTester):
        tester = _service_tester(tester)
    tester._check_fitted()
    secret = token if token is not None else os.environ.get(token_env, "")
    if not secret:
        raise RagdxError(f"no bearer token: set the environment variable {token_env}", field=token_env)
    dim = getattr(tester.index_, "dimension", None)
    batcher = _MicroBatcher(tester)

    def inputs(batch: Batch) -> Any:
        return _batch_inputs(batch, max_batch, max_query_chars, dim)

    # no /docs or /redoc: their pages load scripts and styles from a CDN
    app = FastAPI(title="ragdx knowledge-boundary screening",
                  description="Goodness-of-fit tests of queries against the in-knowledge distribution "
                              "(query-knowledge relevance).", version="1", docs_url=None, redoc_url=None)
    _add_guard(app, secret, max_body_bytes, max_pending, retry_after_s)
    _add_error_handlers(app)

    @app.get("/healthz")
    def healthz(authorization: str | None = Header(None, include_in_schema=False)) -> dict[str, Any]:
        if not _authorized(authorization or "", secret):
            return {"status": "ok"}  # what a load balancer needs; the model and corpus size need the token
        return {"status": "ok", "statistic": tester.statistic, "alpha": tester.alpha, "k": tester.k,
                "n_calibration": tester.n_calibration_, "embedding_model": tester.embedding_model_,
                "corpus_chunks": tester.index_.size}

    @app.post("/v1/relevance", responses=_RESPONSES)
    def relevance(batch: Batch) -> dict[str, Any]:
        items = inputs(batch)
        results = tester.test_statistics(batcher.statistics(items), batch.queries, batch.alpha)
        out: dict[str, Any] = {"statistic": tester.statistic, "alpha": batch.alpha or tester.alpha,
                               "results": [r.to_dict() for r in results]}
        if batch.queries is not None:
            # as `relevance test` says it: when length alone tells the flagged queries from the rest
            note = batch_note(getattr(tester, "calibration_lengths_", None), [len(q) for q in batch.queries],
                              [r.out_of_knowledge for r in results])
            if note:
                out["note"] = note
        return out

    @app.post("/v1/drift", responses=_RESPONSES)
    def drift(batch: Batch) -> dict[str, Any]:
        result = tester.drift_statistics(batcher.statistics(inputs(batch)), batch.alpha)
        return result.to_dict()

    return app


_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"description": "unusable input (for example, embeddings of the wrong dimension)", "model": _Error},
    401: {"description": "missing or wrong bearer token", "model": _Error},
    411: {"description": "no Content-Length header", "model": _Error},
    413: {"description": "request body over the size limit", "model": _Error},
    422: {"description": "the body does not fit the schema, or a batch or query over its limit",
          "model": _Error},
    503: {"description": "too many requests in flight; retry after the Retry-After header's seconds",
          "model": _Error},
}


def _service_tester(directory: str | os.PathLike) -> RelevanceTester:
    """The saved tester in ``directory``, with no embedding cache on disk."""
    tester = RelevanceTester.load(directory)
    if getattr(tester.embedder, "cache_dir", None):
        from ragdx.embedders import embedder_from_dict

        # a service must not keep every user query on disk: the cache would grow without bound
        # and hold what users asked (embedder_from_dict also rebuilds an endpoint embedder)
        tester.embedder = embedder_from_dict({**tester.embedder.to_dict(), "cache_dir": None})
    return tester


def _authorized(header: str, secret: str) -> bool:
    """Does the ``Authorization`` header carry the bearer token ``secret``?"""
    given = header[7:] if header.lower().startswith("bearer ") else ""
    return bool(given) and hmac.compare_digest(given.encode(), secret.encode())


def _batch_inputs(batch: Batch, max_batch: int, max_query_chars: int, dim: int | None) -> Any:
    """The batch's texts, or its embeddings as an array, once within the limits."""
    items = batch.queries if batch.queries is not None else batch.embeddings
    assert items is not None
    if len(items) > max_batch:
        raise _Refused(422, f"batch of {len(items)} exceeds the limit of {max_batch}")
    if batch.queries is not None:
        for i, q in enumerate(batch.queries):
            if len(q) > max_query_chars:
                raise _Refused(422, f"queries[{i}] has {len(q)} characters, over the limit of {max_query_chars}")
        return batch.queries
    raw = np.asarray(batch.embeddings, dtype=np.float64)
    if raw.ndim != 2 or (dim is not None and raw.shape[1] != dim):
        raise RagdxError(f"embeddings must all have dimension {dim}", field="embeddings")
    # a value beyond float32's range would become inf in the cast (and NaN statistics after it)
    if raw.size and not (np.isfinite(raw).all() and np.abs(raw).max() <= np.finfo(np.float32).max):
        raise RagdxError("embeddings must be finite numbers within float32's range", field="embeddings")
    return raw.astype(np.float32)


def _error(status: int, reason: str):
    from fastapi.responses import JSONResponse

    return JSONResponse({"error": reason}, status_code=status)


def _add_guard(app, secret: str, max_body_bytes: int, max_pending: int, retry_after_s: int) -> None:
    """What every /v1 request passes before any work: the token, the body's size, and a bound on
    the requests in flight."""
    from fastapi import Request
    from fastapi.responses import JSONResponse

    pending = {"n": 0}
    pending_lock = threading.Lock()

    @app.middleware("http")
    async def guard(request: Request, call_next):
        if request.url.path.startswith("/v1/"):
            if not _authorized(request.headers.get("authorization", ""), secret):
                return JSONResponse({"error": "missing or wrong bearer token"}, status_code=401,
                                    headers={"WWW-Authenticate": "Bearer"})
            length = request.headers.get("content-length")
            if length is None and request.method == "POST":
                return _error(411, "a Content-Length header is required")
            if length is not None and (not length.isdigit() or int(length) > max_body_bytes):
                return _error(413, f"request body over the limit of {max_body_bytes} bytes")
            with pending_lock:
                shed = pending["n"] >= max_pending
                if not shed:
                    pending["n"] += 1
            if shed:
                # a bounded queue: past it, waiting clients would only see their latency grow
                return JSONResponse({"error": "busy: too many requests in flight, retry later"}, status_code=503,
                                    headers={"Retry-After": str(retry_after_s)})
            try:
                return await call_next(request)
            finally:
                with pending_lock:
                    pending["n"] -= 1
        return await call_next(request)


def _add_error_handlers(app) -> None:
    """Every error as ``{"error": reason}`` JSON; an internal one never says more than that."""
    from fastapi import Request
    from fastapi.exceptions import RequestValidationError
    from starlette.exceptions import HTTPException as StarletteHTTPException

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):
        first = exc.errors()[0] if exc.errors() else {"msg": "invalid request", "loc": ()}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        msg = str(first.get("msg", "invalid request")).removeprefix("Value error, ")
        return _error(422, f"{where}: {msg}" if where else msg)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        response = _error(exc.status_code, str(exc.detail))
        # the router's headers say what to do next (a 405's Allow lists the methods: RFC 9110 §15.5.6)
        response.headers.update(exc.headers or {})
        return response

    @app.exception_handler(_Refused)
    async def refused(request: Request, exc: _Refused):
        return _error(exc.status, exc.reason)

    @app.exception_handler(RagdxError)
    async def ragdx_error(request: Request, exc: RagdxError):
        return _error(400, str(exc))

    @app.exception_handler(Exception)
    async def crash(request: Request, exc: Exception):
        # the type and text of an internal error say how the server is built: never sent
        return _error(500, "internal error")


def serve(tester_dir: str | os.PathLike, *, host: str = "127.0.0.1", port: int = 8080,
          token_env: str = DEFAULT_TOKEN_ENV, max_batch: int = 256, max_body_bytes: int = 1_000_000,
          max_pending: int = 64) -> None:
    """Load the saved tester and serve it with uvicorn until interrupted."""
    import uvicorn

    app = create_app(tester_dir, token_env=token_env, max_batch=max_batch, max_body_bytes=max_body_bytes,
                     max_pending=max_pending)
    uvicorn.run(app, host=host, port=port, log_level="warning")
