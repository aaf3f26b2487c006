"""Adapters that turn any RAG system into a :class:`~ragdx.rag.types.System`.

A system under test is one of these kinds, each built from one spec (a dict, or a YAML file)
by :func:`ragdx.rag.resolve.as_system`, which checks the spec against the adapter's own
constructor (its configuration *is* its constructor call) and also takes a function, a URL,
a file or a built-in pipeline's name as they are:

``pipeline``
    a built-in pipeline (:mod:`ragdx.rag.pipeline`): ``{kind: pipeline, path: er.yaml}``, one of
    the paper's configurations ``{kind: pipeline, paper: mq-cpr}``, or the configuration inline
    (``retriever:``, ``generator:``, ...). With ``path`` or ``paper`` any other key overrides the
    configuration; ``corpus`` and ``variant`` (``llm``) are passed on. A YAML file without
    ``kind`` is taken as a pipeline file.
``callable``
    a Python function ``{kind: callable, target: "pkg.mod:function"}``, sync or async. It is
    called with one positional argument, the query string (``arg: query``, the default) or the
    whole :class:`SystemInput` (``arg: input``), plus the spec's ``options`` as keyword
    arguments; a function with a ``history`` parameter also gets the conversation before the query
    (``[{query, answer}, ...]``, empty for a question asked alone). It returns the answer as a
    string, a :class:`SystemOutput`, or a dict
    ``{answer, contexts: [{id, text, score}], prompt_tokens, completion_tokens}`` (contexts
    may also be plain strings; their id is then their rank, ``"0"``, ``"1"``, ...). A sync
    function runs in a worker thread so it does not stall the other queries. The target may
    also be a LangChain runnable, a LlamaIndex query engine or a Haystack pipeline
    (:mod:`ragdx.rag.adapters`); ``setup: pkg:factory`` is called once before the first query
    (and, without a target, returns the system); ``otel: true`` reads the contexts from the
    app's OpenTelemetry retriever spans.
``http``
    an endpoint that takes one query per request: ``{kind: http, url: ..., body: {"q":
    "{query}"}, answer_path: data.answer, contexts_path: data.hits}``. ``"{query}"`` and
    ``"{id}"`` are substituted inside the string values of the body structure, never by
    formatting JSON text, so a query with quotes or braces cannot break the request. A follow-up
    of a conversation sends its ``history`` (``[{query, answer}, ...]``) as the body's
    ``history`` key, or where a value is exactly ``"{history}"``.
``openai``
    a RAG server speaking the OpenAI chat API: ``{kind: openai, base_url: http://host/v1, model:
    m}`` (the query is the user message; ``contexts_path`` where it returns its documents).
``results``
    a JSONL file of answers someone already produced: ``{kind: results, path: out.jsonl}``,
    with field names (or dotted paths) to map. A query absent from the file is answered with
    an error ("not in results file"), never dropped.
``traces``
    an exported trace file, one trace per query (:class:`ragdx.rag.adapters.otel.TraceFileSystem`).

Every adapter measures latency (``results`` copies it from the file when it has one: looking
up a stored answer says nothing about the system's speed) and never raises for a failed query:
the error goes into ``SystemOutput.error`` together with the number of attempts.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import json
import os
import re
import sys
import threading
import time
import weakref
from collections.abc import Callable, Coroutine, Mapping
from pathlib import Path
from typing import Any, Literal, cast
from urllib.parse import urlsplit

import httpx
from pydantic import BaseModel, ConfigDict, NonNegativeFloat, NonNegativeInt, PositiveFloat, PositiveInt

from ragdx.errors import RagdxError
from ragdx.rag.types import RetrievedContext, System, SystemInput, SystemOutput
from ragdx.retry import Backoff, one_line, retry_after_seconds, retryable_status
from ragdx.store import sha256_file

__all__ = [
    "CallableSystem",
    "HTTPSystem",
    "ResultsFileSystem",
    "openai_chat_system",
    "pipeline_system",
    "get_path",
    "fill_template",
    "merge",
]

# Same policy as the LLM client: timeouts, lock conflicts and rate limits are worth another try.


# ----------------------------------------------------------------------------- shared helpers

_PATH_TOKEN = re.compile(r"\[(-?\d+)\]|([^.\[\]]+)")


def _parse_path(path: str) -> list[str | int]:
    """``data.hits[0].text`` or ``data.hits.0.text`` → ``["data", "hits", 0, "text"]``."""
    parts: list[str | int] = []
    for m in _PATH_TOKEN.finditer(path):
        if m.group(1) is not None:
            parts.append(int(m.group(1)))
        else:
            parts.append(m.group(2))
    if not parts:
        raise ValueError(f"empty path {path!r}")
    return parts


_MISSING = object()


def get_path(data: Any, path: str | None, default: Any = _MISSING) -> Any:
    """The value at a dotted path; a numeric part indexes a list. Missing: ``default`` or KeyError."""
    if not path:
        return data
    current = data
    for part in _parse_path(path):
        if isinstance(current, Mapping) and str(part) in current:
            current = current[str(part)]
        elif isinstance(current, list) and (isinstance(part, int) or str(part).lstrip("-").isdigit()):
            index = int(part)
            if not -len(current) <= index < len(current):
                break
            current = current[index]
        else:
            break
    else:
        return current
    if default is _MISSING:
        raise KeyError(path)
    return default


_PLACEHOLDERS = re.compile(r"\{(query|id)\}")


def _names_history(template: Any) -> bool:
    if template == "{history}":
        return True
    if isinstance(template, Mapping):
        return any(_names_history(v) for v in template.values())
    return isinstance(template, list) and any(_names_history(v) for v in template)


def fill_template(template: Any, item: SystemInput) -> Any:
    """The body template with ``{query}`` and ``{id}`` substituted inside string values.

    Substitution walks the structure, so the query lands in a JSON string however many quotes,
    backslashes or braces it holds. A string that is exactly ``"{query}"`` becomes the query;
    other braces are left alone (this is not ``str.format``)."""
    values = {"query": item.query, "id": item.id}
    if template == "{history}":
        return [dict(turn) for turn in item.history]
    if isinstance(template, str):
        return _PLACEHOLDERS.sub(lambda m: values[m.group(1)], template)
    if isinstance(template, Mapping):
        return {k: fill_template(v, item) for k, v in template.items()}
    if isinstance(template, list):
        return [fill_template(v, item) for v in template]
    return template


def _error_text(exc: BaseException) -> str:
    message = one_line(str(exc))
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


class _Unusable(Exception):
    """A result that cannot be turned into an answer (wrong shape, missing answer)."""


class _ContextFields(BaseModel):
    model_config = ConfigDict(extra="forbid")

    context_id: str = "id"
    context_text: str = "text"
    context_score: str | None = "score"


def _contexts(raw: Any, fields: _ContextFields) -> list[RetrievedContext]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise _Unusable(f"contexts are not a list but {type(raw).__name__}")
    out = []
    for rank, c in enumerate(raw):
        if isinstance(c, str):
            out.append(RetrievedContext(id=str(rank), text=c))
            continue
        if isinstance(c, RetrievedContext):
            out.append(c)
            continue
        if not isinstance(c, Mapping):
            from ragdx.rag.adapters import framework_context

            # a LangChain / LlamaIndex / Haystack document returned as it is: its id from the
            # fields those frameworks set (metadata["source"] and the like)
            doc = framework_context(c)
            if doc is None:
                raise _Unusable(f"context {rank} is {type(c).__name__}, not an object")
            out.append(RetrievedContext(id=str(doc["id"]), text=doc["text"], score=doc["score"]))
            continue
        cid = get_path(c, fields.context_id, None)
        text = get_path(c, fields.context_text, None)
        score = get_path(c, fields.context_score, None) if fields.context_score else None
        if cid is None:
            raise _Unusable(f"context {rank} has no {fields.context_id!r}")
        try:
            score = None if score is None else float(score)
        except (TypeError, ValueError):
            raise _Unusable(f"context {rank} has a non-numeric score {score!r}") from None
        out.append(RetrievedContext(id=str(cid), text="" if text is None else str(text), score=score))
    return out


def _tokens(value: Any) -> int:
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0


def _as_output(item: SystemInput, result: Any, fields: _ContextFields, *, answer_path: str | None = "answer",
               contexts_path: str | None = "contexts", prompt_tokens_path: str | None = "prompt_tokens",
               completion_tokens_path: str | None = "completion_tokens") -> SystemOutput:
    """Whatever a system returned, as a SystemOutput (latency and attempts are set by the caller)."""
    if isinstance(result, SystemOutput):
        return result
    if isinstance(result, str):
        return SystemOutput(id=item.id, query=item.query, answer=result)
    if not isinstance(result, Mapping):
        raise _Unusable(f"expected a string or an object, got {type(result).__name__}")
    try:
        answer = get_path(result, answer_path)
    except KeyError:
        raise _Unusable(f"no {answer_path!r} in the result") from None
    if answer is not None and not isinstance(answer, str):
        answer = json.dumps(answer, ensure_ascii=False) if isinstance(answer, list | dict) else str(answer)
    contexts = _contexts(get_path(result, contexts_path, None), fields) if contexts_path else []
    usage_found = result.get("usage")
    usage = usage_found if isinstance(usage_found, Mapping) else {}
    prompt = get_path(result, prompt_tokens_path, None) if prompt_tokens_path else None
    completion = get_path(result, completion_tokens_path, None) if completion_tokens_path else None
    return SystemOutput(
        id=item.id, query=item.query, answer=answer, contexts=contexts,
        prompt_tokens=_tokens(prompt if prompt is not None else usage.get("prompt_tokens")),
        completion_tokens=_tokens(completion if completion is not None else usage.get("completion_tokens")),
    )


def _failed(item: SystemInput, error: str, attempts: int, started: float | None) -> SystemOutput:
    latency = None if started is None else time.perf_counter() - started
    return SystemOutput(id=item.id, query=item.query, answer=None, error=error, attempts=attempts,
                        latency_s=latency)


# ----------------------------------------------------------------------------- callable


def _takes_history(fn: Any) -> bool:
    """Whether ``fn`` names a ``history`` keyword (a system that handles conversations)."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):  # a builtin or C callable without a signature: asked alone
        return False
    p = params.get("history")
    return p is not None and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)


def _import_target(target: str) -> Callable[..., Any]:
    module_name, sep, attr = target.partition(":")
    if not sep or not module_name or not attr:
        raise RagdxError("expected 'package.module:function'", source=target, field="target")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        # A console script's sys.path starts at its bin directory, not where the user stands;
        # like uvicorn and gunicorn, also look in the working directory before giving up.
        cwd = os.getcwd()
        if exc.name is None or not module_name.startswith(exc.name) or cwd in sys.path:
            raise RagdxError(f"cannot import {module_name} ({exc})", source=target, field="target") from None
        sys.path.insert(0, cwd)
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc2:
            raise RagdxError(f"cannot import {module_name} ({exc2})", source=target, field="target") from None
    except Exception as exc:  # the user's module failed while importing
        raise RagdxError(f"importing {module_name} failed: {_error_text(exc)}", source=target,
                         field="target") from None
    fn: Any = module
    for part in attr.split("."):
        fn = getattr(fn, part, None)
        if fn is None:
            raise RagdxError(f"{module_name} has no {attr!r}", source=target, field="target")
    # A LangChain runnable, LlamaIndex query engine or Haystack pipeline need not be callable.
    from ragdx.rag.adapters import framework_of

    if not callable(fn) and framework_of(fn) is None:
        raise RagdxError(f"{attr} is not callable (nor a LangChain, LlamaIndex or Haystack object)",
                         source=target, field="target")
    return fn


class _CallTimedOut(Exception):
    pass


class CallableSystem:
    """A Python function as a system (see the module docs for what it takes and returns).

    ``retries`` (default 0: a function usually fails for a reason that repeats) re-calls it
    after an exception, with backoff. ``timeout`` bounds one call of an async function; a
    sync function cannot be interrupted, so for it the timeout only stops waiting.
    """

    def __init__(self, target: str | Callable[..., Any] | Any | None, *, name: str | None = None,
                 arg: Literal["query", "input"] = "query", options: Mapping[str, Any] | None = None,
                 retries: NonNegativeInt = 0, backoff: NonNegativeFloat = 0.5, max_backoff: NonNegativeFloat = 10.0,
                 timeout: PositiveFloat | None = None, setup: str | Callable[[], Any] | None = None,
                 otel: bool = False):
        if arg not in ("query", "input"):
            raise RagdxError(f"arg must be 'query' or 'input', not {arg!r}", field="arg")
        if retries < 0:
            raise RagdxError("retries must not be negative", field="retries")
        if target is None and setup is None:
            raise RagdxError("name a target, or a setup factory that returns one", field="target")
        self.setup_target: str | None = None
        self._setup: Callable[[], Any] | None = None
        if isinstance(setup, str):
            self.setup_target, self._setup = setup, _import_target(setup)
        elif setup is not None:
            self._setup = setup
            self.setup_target = f"{getattr(setup, '__module__', '?')}:{getattr(setup, '__qualname__', '?')}"
        self.framework: str | None = None
        self._takes_history = False
        #: read contexts from the app's OpenTelemetry retriever spans (ragdx.rag.adapters.otel)
        self.otel = otel
        if otel:
            from ragdx.rag.adapters.otel import collector

            collector()  # before the first query: instrumentors bind to the provider now set
        self.arg = arg
        self.options = dict(options or {})
        self.retries = retries
        self.timeout = timeout
        self._backoff = Backoff(backoff, max_backoff)
        self._fields = _ContextFields()
        self._built = target is not None and self._setup is None
        self._build_lock = threading.Lock()
        if isinstance(target, str):
            self.target = target
            self._bind(_import_target(target))
        elif target is not None:
            label = getattr(target, "__qualname__", type(target).__name__)
            self.target = f"{getattr(target, '__module__', '?')}:{label}"
            self._bind(target)
        else:
            # Factory mode: the setup hook builds the system once, before the first query.
            self.target = self.setup_target or "?"
            self.fn: Callable[..., Any] | None = None
        self.name = name or self.target.rpartition(":")[2]

    def _bind(self, fn: Any) -> None:
        from ragdx.rag.adapters import adapt

        try:
            adapted = adapt(fn)
        except (TypeError, ImportError) as exc:
            raise RagdxError(f"cannot adapt {type(fn).__name__}: {exc}", source=self.target, field="target") from None
        if adapted is not None:
            if self.options:
                raise RagdxError("options are passed to plain functions only, not to a framework object",
                                 source=self.target, field="options")
            # Framework adapters take the query text; SystemInput would mean nothing to them.
            self.framework = f"{adapted.framework}:{adapted.kind}"
            self.arg = "query"
            self.fn = adapted.fn
            self._is_async = adapted.is_async
            self._takes_history = _takes_history(self.fn)
            return
        if not callable(fn):
            raise RagdxError(f"{type(fn).__name__} is not callable", source=self.target, field="target")
        self.fn = fn
        self._takes_history = _takes_history(fn)
        # An object whose __call__ is async counts as async too.
        self._is_async = inspect.iscoroutinefunction(self.fn) or inspect.iscoroutinefunction(
            type(self.fn).__call__)

    def build(self) -> None:
        """Call the setup hook once (the runner does, in a worker thread, before any query runs
        concurrently), so a lazily built index is built once, not once per worker. A hook that
        returns a function or framework object supplies the system when no target was named."""
        with self._build_lock:
            if not self._built:
                self._build_once()

    def _build_once(self) -> None:
        try:
            made = self._setup() if self._setup is not None else None
            if inspect.isawaitable(made):
                # build() runs in a worker thread, outside the runner's loop; asyncio.run refuses an
                # awaitable that is no coroutine, as it always did
                made = asyncio.run(cast("Coroutine[Any, Any, Any]", made))
        except RagdxError:
            raise
        except Exception as exc:  # one line naming the hook, not a traceback from the user's code
            raise RagdxError(f"setup failed: {_error_text(exc)}", source=self.setup_target, field="setup") from None
        if self.fn is None:
            if made is None:
                raise RagdxError("the setup factory returned None; it must return a function or a framework "
                                 "object when no --callable is named", source=self.setup_target, field="setup")
            self._bind(made)
        self._built = True

    def describe(self) -> dict[str, Any]:
        out = {"kind": "callable", "name": self.name, "target": self.target, "arg": self.arg,
               "options": self.options, "retries": self.retries, "timeout": self.timeout}
        # Only when used, so the configuration of existing runs (and their resume) is unchanged.
        if self.setup_target:
            out["setup"] = self.setup_target
        if self.framework:
            out["framework"] = self.framework
        if self.otel:
            out["otel"] = True
        return out

    async def _call(self, item: SystemInput) -> Any:
        argument = item.query if self.arg == "query" else item
        options = self.options
        if self.arg == "query" and self._takes_history:
            # a function that names a ``history`` parameter gets the conversation before the
            # query (``[]`` for a question asked alone); ``arg: input`` carries it on the input
            options = {**options, "history": item.history}
        assert self.fn is not None  # bound in __init__ or by build(), before any query
        if self._is_async:
            call = self.fn(argument, **options)
        else:
            call = asyncio.to_thread(self.fn, argument, **options)
        if self.timeout is None:
            return await call
        try:
            async with asyncio.timeout(self.timeout) as deadline:
                return await call
        except TimeoutError:
            # The function's own TimeoutError (an upstream client's) is its error, not ours.
            if deadline.expired():
                raise _CallTimedOut(f"timed out after {self.timeout:g}s") from None
            raise

    async def _awaited(self, item: SystemInput) -> Any:
        result = await self._call(item)
        if inspect.isawaitable(result):  # a sync function that returned a coroutine
            result = await result
        return result

    async def answer(self, item: SystemInput) -> SystemOutput:
        if not self._built:
            await asyncio.to_thread(self.build)  # used without the runner, which builds first
        started = time.perf_counter()
        attempt = 0
        while True:
            attempt += 1
            try:
                if self.otel:
                    from ragdx.rag.adapters.otel import traced

                    result, spans = await traced(lambda: self._awaited(item))
                else:
                    result, spans = await self._awaited(item), []
                out = _as_output(item, result, self._fields)
                if spans and not out.contexts:  # what the app's retriever spans reported
                    out.contexts = _contexts(spans, self._fields)
                out.latency_s = time.perf_counter() - started
                out.attempts = attempt
                return out
            except asyncio.CancelledError:
                raise
            except _Unusable as exc:  # the same result would come back: do not retry
                return _failed(item, f"unusable result: {exc}", attempt, started)
            except Exception as exc:
                error = str(exc) if isinstance(exc, _CallTimedOut) else _error_text(exc)
                if attempt > self.retries:
                    if attempt > 1:
                        error = f"gave up after {_plural(attempt, 'attempt')}: {error}"
                    return _failed(item, error, attempt, started)
                await asyncio.sleep(self._backoff.delay(attempt))


# ----------------------------------------------------------------------------- HTTP


#: the methods an endpoint may be called with (a spec may write them in lower case)
HTTPMethod = Literal["POST", "PUT", "GET", "post", "put", "get"]


class _Retryable(Exception):
    def __init__(self, message: str, retry_after: float | None = None):
        super().__init__(message)
        self.retry_after = retry_after


class _Fatal(Exception):
    pass


def _retry_after(headers: httpx.Headers) -> float | None:
    return retry_after_seconds(headers)


class HTTPSystem:
    """An HTTP endpoint as a system: one request per query, the answer read from the response.

    Retries with exponential backoff on 408/409/425/429/5xx, timeouts, connection errors and
    2xx bodies that are not JSON; other 4xx, and JSON without the ``answer_path``, fail at
    once because repeating them cannot help. ``Retry-After`` is honoured up to ``max_backoff``.
    A bearer token is read from the environment variable named by ``bearer_env`` (the name
    is configuration, the token never is). ``max_concurrency`` caps requests in flight on top
    of the runner's own bound, for endpoints that must see fewer than the runner runs.
    """

    def __init__(self, url: str, *, name: str | None = None, method: HTTPMethod = "POST",
                 body: Any = None, headers: Mapping[str, str] | None = None, bearer_env: str | None = None,
                 answer_path: str | None = "answer", contexts_path: str | None = "contexts",
                 context_id: str = "id", context_text: str = "text", context_score: str | None = "score",
                 prompt_tokens_path: str | None = None, completion_tokens_path: str | None = None,
                 timeout: PositiveFloat = 30.0, retries: NonNegativeInt = 3, backoff: NonNegativeFloat = 0.5,
                 max_backoff: NonNegativeFloat = 10.0, max_concurrency: PositiveInt | None = None):
        try:
            parts = urlsplit(url)
            parts.port  # noqa: B018 - raises ValueError for a port out of range
        except ValueError:
            raise RagdxError("not a URL", field="url") from None
        # no source: the URL is not shown (it may hold a password); whoever read it names its file
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise RagdxError("not an http(s) URL", field="url")
        if retries < 0:
            raise RagdxError("retries must not be negative", field="retries")
        self.url = url
        # the host, never the userinfo: the name is shown and written everywhere
        self.name = name or parts.netloc.rpartition("@")[2]
        self.method = method.upper()
        self.body = {"query": "{query}"} if body is None else body
        self.headers = dict(headers or {})
        self.bearer_env = bearer_env
        if bearer_env:
            token = os.environ.get(bearer_env)
            if not token:
                raise RagdxError(f"environment variable {bearer_env} is not set", field="bearer_env")
            self.headers["Authorization"] = f"Bearer {token}"
        self.answer_path = answer_path
        self.contexts_path = contexts_path
        self.prompt_tokens_path = prompt_tokens_path
        self.completion_tokens_path = completion_tokens_path
        self._fields = _ContextFields(context_id=context_id, context_text=context_text, context_score=context_score)
        self.timeout = timeout
        self.retries = retries
        self.max_concurrency = max_concurrency
        self._backoff = Backoff(backoff, max_backoff)
        # httpx connections and semaphores belong to one event loop; keep one set per loop.
        self._loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, tuple[httpx.AsyncClient,
                                                                              asyncio.Semaphore | None]] = (
            weakref.WeakKeyDictionary())

    def describe(self) -> dict[str, Any]:
        return {
            "kind": "http", "name": self.name, "url": self.url, "method": self.method, "body": self.body,
            # Header values may be secrets; the names are enough to tell configurations apart.
            "headers": sorted(self.headers), "bearer_env": self.bearer_env,
            "answer_path": self.answer_path, "contexts_path": self.contexts_path,
            **self._fields.model_dump(), "prompt_tokens_path": self.prompt_tokens_path,
            "completion_tokens_path": self.completion_tokens_path,
            "timeout": self.timeout, "retries": self.retries,
        }

    def _state(self) -> tuple[httpx.AsyncClient, asyncio.Semaphore | None]:
        loop = asyncio.get_running_loop()
        state = self._loops.get(loop)
        if state is None:
            client = httpx.AsyncClient(timeout=self.timeout, headers=self.headers)
            slots = asyncio.Semaphore(self.max_concurrency) if self.max_concurrency else None
            state = self._loops[loop] = (client, slots)
        return state

    async def aclose(self) -> None:
        state = self._loops.pop(asyncio.get_running_loop(), None)
        if state is not None:
            await state[0].aclose()

    async def _once(self, client: httpx.AsyncClient, item: SystemInput) -> SystemOutput:
        payload = fill_template(self.body, item)
        if item.history and isinstance(payload, dict) and self.method != "GET" and not _names_history(self.body):
            # a follow-up carries the conversation before it; a body that places it with
            # "{history}" has it there already, a question asked alone sends the body unchanged
            payload = {**payload, "history": item.history}
        try:
            if self.method == "GET":
                response = await client.get(self.url, params=payload)
            else:
                response = await client.request(self.method, self.url, json=payload)
        except httpx.TimeoutException:
            raise _Retryable(f"timed out after {self.timeout:g}s") from None
        except httpx.TransportError as exc:
            raise _Retryable(_error_text(exc)) from None
        status = response.status_code
        if status >= 400:
            message = f"HTTP {status}: {one_line(response.text, 200)}"
            if retryable_status(status):
                raise _Retryable(message, _retry_after(response.headers))
            raise _Fatal(message)
        try:
            data = response.json()
        except ValueError:
            raise _Retryable(f"response is not JSON: {one_line(response.text, 120)!r}") from None
        try:
            return _as_output(item, data, self._fields, answer_path=self.answer_path,
                              contexts_path=self.contexts_path, prompt_tokens_path=self.prompt_tokens_path,
                              completion_tokens_path=self.completion_tokens_path)
        except _Unusable as exc:
            raise _Fatal(f"unusable response: {exc}") from None

    async def answer(self, item: SystemInput) -> SystemOutput:
        client, slots = self._state()
        started = time.perf_counter()
        attempt = 0
        while True:
            attempt += 1
            try:
                if slots is None:
                    out = await self._once(client, item)
                else:
                    async with slots:
                        out = await self._once(client, item)
                out.latency_s = time.perf_counter() - started
                out.attempts = attempt
                return out
            except _Fatal as exc:
                return _failed(item, str(exc), attempt, started)
            except _Retryable as exc:
                if attempt > self.retries:
                    return _failed(item, f"gave up after {_plural(attempt, 'attempt')}: {exc}", attempt, started)
                await asyncio.sleep(self._backoff.delay(attempt, exc.retry_after))
            except (ValueError, TypeError) as exc:  # a body template json cannot encode
                return _failed(item, f"cannot build the request: {_error_text(exc)}", attempt, started)


# ----------------------------------------------------------------------------- results file


class ResultsFileSystem:
    """Answers someone already produced, read from a JSONL file, served as a system.

    Rows are matched to queries by ``id_field`` (``match: id``, the default) or by the query
    text (``match: query``). Field names may be dotted paths. When an id occurs more than once
    the last row wins, as in ragdx's own ``results.jsonl``. A row whose ``error_field`` is set
    is served as a failure with that error.
    """

    def __init__(self, path: str | Path, *, name: str | None = None, match: Literal["id", "query"] = "id",
                 id_field: str = "id", query_field: str = "query", answer_field: str = "answer",
                 contexts_field: str | None = "contexts", context_id: str = "id", context_text: str = "text",
                 context_score: str | None = "score", latency_field: str | None = "latency_s",
                 error_field: str | None = "error", prompt_tokens_field: str | None = "prompt_tokens",
                 completion_tokens_field: str | None = "completion_tokens"):
        from ragdx.store import iter_jsonl

        self.path = Path(path)
        if not self.path.is_file():
            raise RagdxError("no such results file", source=str(self.path))
        if match not in ("id", "query"):
            raise RagdxError(f"match must be 'id' or 'query', not {match!r}", field="match")
        self.name = name or self.path.stem
        self.match = match
        self.mapping = {
            "id_field": id_field, "query_field": query_field, "answer_field": answer_field,
            "contexts_field": contexts_field, "latency_field": latency_field, "error_field": error_field,
            "prompt_tokens_field": prompt_tokens_field, "completion_tokens_field": completion_tokens_field,
        }
        self._fields = _ContextFields(context_id=context_id, context_text=context_text, context_score=context_score)
        key_field = id_field if match == "id" else query_field
        self._rows: dict[str, dict[str, Any]] = {}
        # ragdx's own results.jsonl keeps context texts once, in contexts.jsonl beside it
        from ragdx.rag.context_store import inflate, load_texts
        from ragdx.rag.rundir import RESULTS, RunPaths

        texts = load_texts(self.path.parent) if self.path.name == RESULTS else {}
        # a run's own results.jsonl holds retries, the later line superseding; in anyone else's
        # file a repeated key leaves two answers to one query, and which one counts is not ours to pick
        own_run = self.path.name == RESULTS and RunPaths(self.path.parent).manifest.exists()
        first_line: dict[str, int] = {}
        for number, row in iter_jsonl(self.path):
            key = get_path(row, key_field, None)
            if key is None:
                raise RagdxError(f"no {key_field!r}", source=str(self.path), field=f"line {number}")
            if not own_run and first_line.setdefault(str(key), number) != number:
                raise RagdxError(f"{key_field} {str(key)!r} repeats line {first_line[str(key)]}: two answers to one "
                                 "query (keep one)", source=str(self.path), field=f"line {number}")
            self._rows[str(key)] = inflate(row, texts, str(self.path)) if texts else row
        self.sha256 = sha256_file(self.path)

    def __len__(self) -> int:
        return len(self._rows)

    def describe(self) -> dict[str, Any]:
        return {"kind": "results", "name": self.name, "path": str(self.path), "sha256": self.sha256,
                "match": self.match, **self.mapping, **self._fields.model_dump()}

    async def answer(self, item: SystemInput) -> SystemOutput:
        m = self.mapping
        row = self._rows.get(item.id if self.match == "id" else item.query)
        if row is None:
            return SystemOutput(id=item.id, query=item.query, answer=None, error="not in results file")
        error = get_path(row, m["error_field"], None) if m["error_field"] else None
        latency = get_path(row, m["latency_field"], None) if m["latency_field"] else None
        try:
            latency = None if latency is None else float(latency)
        except (TypeError, ValueError):
            latency = None
        if error:
            out = SystemOutput(id=item.id, query=item.query, answer=None, error=str(error))
        else:
            try:
                out = _as_output(item, row, self._fields, answer_path=m["answer_field"],
                                 contexts_path=m["contexts_field"], prompt_tokens_path=m["prompt_tokens_field"],
                                 completion_tokens_path=m["completion_tokens_field"])
            except _Unusable as exc:
                out = SystemOutput(id=item.id, query=item.query, answer=None, error=f"unusable row: {exc}")
        out.latency_s = latency
        attempts = row.get("attempts")
        out.attempts = attempts if isinstance(attempts, int) else 1
        return out


# ----------------------------------------------------------------------------- OpenAI chat

def openai_chat_system(base_url: str, model: str, *, name: str | None = None, system_prompt: str | None = None,
                       contexts_path: str | None = None, bearer_env: str | None = None,
                       timeout: PositiveFloat = 60.0, retries: NonNegativeInt = 3,
                       max_concurrency: PositiveInt | None = None) -> HTTPSystem:
    """A RAG server speaking the OpenAI chat API (``POST {base_url}/chat/completions``) as a
    system: the query is the user message, the answer ``choices[0].message.content``, tokens
    from ``usage``. Retrieved documents, when the server returns them, are read from
    ``contexts_path`` (e.g. ``citations`` or ``choices.0.message.context.documents``)."""
    url = base_url.rstrip("/")
    if not url.endswith("/chat/completions"):
        url += "/chat/completions"
    messages: list[dict[str, str]] = []
    if system_prompt:
        messages.append({"role": "system", "content": system_prompt})
    messages.append({"role": "user", "content": "{query}"})
    return HTTPSystem(url, name=name or model, body={"model": model, "messages": messages},
                      answer_path="choices.0.message.content", contexts_path=contexts_path,
                      prompt_tokens_path="usage.prompt_tokens", completion_tokens_path="usage.completion_tokens",
                      bearer_env=bearer_env, timeout=timeout, retries=retries, max_concurrency=max_concurrency)


def merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """``override`` laid over ``base``: mappings merge key by key and anything else (``null``
    included: ``filter: null`` means no filter) replaces. A component whose ``type`` changes is
    replaced whole, as in the pipeline's own merge, so no stale params leak across types."""
    out = dict(base)
    for key, value in override.items():
        old = out.get(key)
        if (isinstance(value, Mapping) and isinstance(old, Mapping)
                and not ("type" in value and value.get("type") != old.get("type"))):
            out[key] = merge(old, value)
        else:
            out[key] = value
    return out


# ----------------------------------------------------------------------------- built-in pipelines


def read_yaml(path: Path) -> Any:
    # one reader for every user file: undecodable bytes, duplicate keys and alias bombs included
    from ragdx.store import read_structured

    return read_structured(path)


def _pipeline_module() -> Any:
    # Imported only when a pipeline is asked for: it pulls in retrievers and models that
    # callable, HTTP and results systems never need.
    try:
        from ragdx.rag import pipeline
    except ImportError as exc:
        raise RagdxError(f"built-in pipelines are not available ({exc})", field="kind") from None
    return pipeline


def pipeline_system(*, path: str | Path | None = None, paper: str | None = None, corpus: str | Path | None = None,
                    variant: str | None = None, overrides: Mapping[str, Any] | None = None,
                    source: str | None = None, **config: Any) -> System:
    """A built-in pipeline (:mod:`ragdx.rag.pipeline`), the ``pipeline`` kind of a spec: ``path``
    (a pipeline YAML) or ``paper`` (one of the built-in configurations: er, cpr, ...) with any
    other keys (a grid variant's, a ``name``) laid over that configuration, or the whole
    configuration inline in ``config``. ``corpus`` replaces the configuration's; ``variant``
    (``llm``) merges that section over the rest. ``source`` names the spec in errors, and an
    inline configuration without a name is named after it."""
    module = _pipeline_module()
    if path is not None and paper is not None:
        raise RagdxError("give 'path' or 'paper', not both", source=source, field="path")
    if overrides is not None and not isinstance(overrides, Mapping):
        raise RagdxError("expected a mapping", source=source, field="overrides")
    kwargs: dict[str, Any] = {"corpus": corpus, "variant": variant}
    if path is not None or paper is not None:
        extra = merge(config, overrides or {})
        kwargs["overrides"] = extra or None
        if path is not None:
            system = module.Pipeline.from_yaml(path, **kwargs)
        else:
            system = module.paper_config(str(paper), **kwargs)
    else:
        system = module.Pipeline.from_dict(config, overrides=overrides, source=source or "system", **kwargs)
    if not isinstance(system, System):
        raise RagdxError(f"{type(system).__name__} does not implement the System protocol", source=source)
    return system
