"""Chat-completion clients: one protocol, an OpenAI-compatible client and a dry run.

Every request is described by one dict (endpoint, model, messages, sampling parameters,
sample index). That dict is what the cache is keyed on, so "same request" means the same
thing for the HTTP client, the cache and the dry run.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import os
import random
import weakref
from collections.abc import Callable, Coroutine, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, Self, TypeVar, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from ragdx.errors import LLMError, validated
from ragdx.llm.cache import CompletionCache, request_key
from ragdx.llm.estimate import Price, estimate_prompt_tokens
from ragdx.llm.usage import Usage, count_usage
from ragdx.retry import Backoff, is_retryable, one_line, retry_after_seconds

if TYPE_CHECKING:
    import openai  # imported where used: ragdx.config (every CLI command) needs only LLMConfig

T = TypeVar("T")
Message = Mapping[str, Any]

DEFAULT_BASE_URL = "https://api.openai.com/v1"
DEFAULT_MODEL = "gpt-4o-mini"
CACHE_FILENAME = "llm-cache.sqlite"
#: ``max_tokens`` sent where neither the call nor the client sets ``max_tokens`` or
#: ``max_completion_tokens``: without one, a runaway reply filled a 43 MB cache in one evaluation
DEFAULT_MAX_TOKENS = 2048
#: replies longer than this many characters are cut (and counted as ``truncated``) before they are
#: cached or returned, whatever the endpoint did with ``max_tokens`` (~4 characters a token)
DEFAULT_MAX_COMPLETION_CHARS = 20_000

# Keys the client sets itself; letting params override them would desynchronise the cache
# key from what is sent, or (stream) produce a body this client cannot read.
_RESERVED_PARAMS = frozenset({"model", "messages", "stream"})
# Same set as the OpenAI SDK's own retry logic: timeouts, lock conflicts, rate limits.


@dataclass(frozen=True)
class Completion:
    """One answer. ``cached`` answers cost nothing; ``dry_run`` answers are empty placeholders."""

    text: str
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached: bool = False
    dry_run: bool = False
    finish_reason: str | None = None
    #: the reply's length in characters when it was longer than the client's
    #: ``max_completion_chars`` and ``text`` is only its start; None when it is whole
    truncated_from: int | None = None

    @property
    def truncated(self) -> bool:
        return self.truncated_from is not None


@dataclass(frozen=True)
class LLMFailure:
    """An item of ``complete_many`` that failed. It keeps the item's place in the results."""

    error_type: str
    message: str
    attempts: int


@dataclass(frozen=True)
class ChatRequest:
    """One item for ``complete_many``; ``params`` override the client's sampling defaults."""

    messages: Sequence[Message]
    params: Mapping[str, Any] = field(default_factory=dict)
    sample_index: int = 0


@runtime_checkable
class LLM(Protocol):
    """What the rest of ragdx needs from a language model."""

    usage: Usage

    async def complete(
        self,
        messages: Sequence[Message],
        *,
        sample_index: int = 0,
        cache_if: Callable[[str], bool] | None = None,
        **params: Any,
    ) -> Completion: ...

    async def complete_many(
        self, requests: Iterable[ChatRequest | Sequence[Message]]
    ) -> list[Completion | LLMFailure]: ...

    def complete_sync(
        self, messages: Sequence[Message], *, sample_index: int = 0, **params: Any
    ) -> Completion: ...

    def complete_many_sync(
        self, requests: Iterable[ChatRequest | Sequence[Message]]
    ) -> list[Completion | LLMFailure]: ...


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to completion from synchronous code.

    Where a loop is already running in this thread (Jupyter, an async web handler),
    ``asyncio.run`` refuses to nest; the coroutine then runs on a fresh loop in a worker
    thread while this thread waits, which is what a synchronous call means anyway.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    # the worker runs in a copy of this context, so that ``counting`` scopes still count
    context = contextvars.copy_context()
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="ragdx-llm") as pool:
        return pool.submit(context.run, asyncio.run, coro).result()


class ChatLLM:
    """Request building, caching policy and the sync and batch faces shared by the clients."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str,
        cache: CompletionCache | str | os.PathLike[str] | None,
        temperature: float | None,
        max_tokens: int | None,
        params: Mapping[str, Any] | None,
        default_max_tokens: int | None = DEFAULT_MAX_TOKENS,
        max_completion_chars: int | None = DEFAULT_MAX_COMPLETION_CHARS,
        price: Price | Mapping[str, float] | None = None,
    ):
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.cache = cache if cache is None or isinstance(cache, CompletionCache) else CompletionCache(cache)
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.params = dict(params or {})
        _check_params(self.params)
        if default_max_tokens is not None and default_max_tokens < 1:
            raise ValueError("default_max_tokens must be at least 1")
        if max_completion_chars is not None and max_completion_chars < 1:
            raise ValueError("max_completion_chars must be at least 1")
        self.default_max_tokens = default_max_tokens
        self.max_completion_chars = max_completion_chars
        self.price = Price.of(price)
        self.usage = Usage()

    @property
    def endpoint(self) -> str:
        return f"{self.base_url}/chat/completions"

    def to_dict(self) -> dict[str, Any]:
        """Constructor arguments, so that ``type(llm)(**llm.to_dict())`` rebuilds the client."""
        return {
            "model": self.model,
            "base_url": self.base_url,
            "cache": None if self.cache is None else str(self.cache.path),
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "params": dict(self.params),
            "default_max_tokens": self.default_max_tokens,
            "max_completion_chars": self.max_completion_chars,
            "price": None if self.price is None else {"prompt": self.price.prompt, "completion": self.price.completion},
        }

    def __repr__(self) -> str:
        from ragdx.redact import redact

        # a repr ends up in logs and messages: the base URL's credentials stay out of it
        args = ", ".join(f"{k}={v!r}" for k, v in redact(self.to_dict()).items())
        return f"{type(self).__name__}({args})"

    async def complete(
        self,
        messages: Sequence[Message],
        *,
        sample_index: int = 0,
        cache_if: Callable[[str], bool] | None = None,
        **params: Any,
    ) -> Completion:
        """Answer one chat request; raise ``LLMError`` once retries are exhausted.

        ``params`` (top_p, seed, stop, response_format, ...) are sent as given and override
        the constructor's defaults; ``None`` means "do not send". ``sample_index`` is not
        sent: it only separates cache entries, so that several samples of one request at a
        non-zero temperature can be cached side by side. Only the first choice is returned.
        ``cache_if`` (not sent) says which reply texts the cache may keep and serve: a reply it
        refuses (a judge's reply that is no verdict) is not cached, and a cached one it refuses
        is asked again.
        """
        result = await self._answer(self._request(messages, sample_index, params), cache_if)
        if isinstance(result, LLMFailure):
            attempts = f"{result.attempts} attempt{'s' if result.attempts != 1 else ''}"
            raise LLMError(
                f"model {self.model}: gave up after {attempts}: {result.error_type}: {result.message}",
                source=_redacted(self.endpoint),
            )
        return result

    async def complete_many(
        self, requests: Iterable[ChatRequest | Sequence[Message]]
    ) -> list[Completion | LLMFailure]:
        """Answer every request, in order; a failed item is an ``LLMFailure`` in its place.

        A bare message list is a request with the client's default parameters.
        """
        items = [r if isinstance(r, ChatRequest) else ChatRequest(r) for r in requests]
        # Built up front so that a malformed item raises before any request is sent.
        prepared = [self._request(i.messages, i.sample_index, i.params) for i in items]
        return list(await asyncio.gather(*(self._answer(r) for r in prepared)))

    def complete_sync(
        self, messages: Sequence[Message], *, sample_index: int = 0, **params: Any
    ) -> Completion:
        """``complete`` for synchronous callers, notebooks with a running loop included."""
        return self._run_sync(self.complete(messages, sample_index=sample_index, **params))

    def complete_many_sync(
        self, requests: Iterable[ChatRequest | Sequence[Message]]
    ) -> list[Completion | LLMFailure]:
        """``complete_many`` for synchronous callers, notebooks with a running loop included."""
        return self._run_sync(self.complete_many(requests))

    async def aclose(self) -> None:
        """Release what the client holds on the running event loop."""

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def _run_sync(self, coro: Coroutine[Any, Any, T]) -> T:
        async def run_and_close() -> T:
            try:
                return await coro
            finally:
                # The loop ends with this call; connections opened on it cannot be reused.
                await self.aclose()

        return run_sync(run_and_close())

    def _request(
        self, messages: Sequence[Message], sample_index: int, params: Mapping[str, Any]
    ) -> dict[str, Any]:
        _check_params(params)
        merged = {"temperature": self.temperature, "max_tokens": self.max_tokens, **self.params, **params}
        if merged.get("max_tokens") is None and merged.get("max_completion_tokens") is None \
                and "max_tokens" not in params:
            # a bound on every reply unless the call says "none" (max_tokens=None) itself
            merged["max_tokens"] = self.default_max_tokens
        return {
            "base_url": self.base_url,
            "model": self.model,
            "messages": [dict(m) for m in messages],
            "params": {k: v for k, v in merged.items() if v is not None},
            "sample_index": sample_index,
        }

    async def _answer(
        self, request: dict[str, Any], cache_if: Callable[[str], bool] | None = None
    ) -> Completion | LLMFailure:
        raise NotImplementedError

    def _cost(self, prompt_tokens: int, completion_tokens: int) -> float | None:
        return None if self.price is None else self.price.cost(prompt_tokens, completion_tokens)

    def _bounded(self, completion: Completion) -> Completion:
        """The reply cut at ``max_completion_chars`` (and marked), so that neither the cache nor a
        results file holds a runaway reply (a 2 MB one was stored whole, once per query)."""
        limit = self.max_completion_chars
        if limit is None or len(completion.text) <= limit:
            return completion
        return replace(completion, text=completion.text[:limit], truncated_from=len(completion.text))


def _check_params(params: Mapping[str, Any]) -> None:
    reserved = sorted(_RESERVED_PARAMS & params.keys())
    if reserved:
        raise TypeError(f"sampling parameters may not set {', '.join(reserved)}")


class _MalformedResponse(Exception):
    """A 2xx answer without a usable body: a broken proxy, or a server still loading."""


@dataclass
class _LoopState:
    client: openai.AsyncOpenAI
    slots: asyncio.Semaphore


class OpenAICompatibleLLM(ChatLLM):
    """A client for any ``/chat/completions`` endpoint: OpenAI, vLLM, Ollama, llama.cpp.

    Retries with exponential backoff and jitter on 408/409/429/5xx, timeouts, connection
    errors and unusable 2xx bodies; other 4xx fail at once, since repeating them cannot
    help. The SDK's own retries are off so that every HTTP request is counted here.
    At most ``max_concurrency`` requests are in flight per event loop.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str = DEFAULT_BASE_URL,
        api_key: str | None = None,
        max_concurrency: int = 4,
        max_retries: int = 4,
        backoff_base: float = 0.5,
        max_backoff: float = 30.0,
        timeout: float = 60.0,
        cache: CompletionCache | str | os.PathLike[str] | None = None,
        temperature: float | None = 0.0,
        max_tokens: int | None = None,
        params: Mapping[str, Any] | None = None,
        default_max_tokens: int | None = DEFAULT_MAX_TOKENS,
        max_completion_chars: int | None = DEFAULT_MAX_COMPLETION_CHARS,
        price: Price | Mapping[str, float] | None = None,
    ):
        super().__init__(
            model,
            base_url=base_url,
            cache=cache,
            temperature=temperature,
            max_tokens=max_tokens,
            params=params,
            default_max_tokens=default_max_tokens,
            max_completion_chars=max_completion_chars,
            price=price,
        )
        if max_concurrency < 1:
            raise ValueError("max_concurrency must be at least 1")
        if max_retries < 0:
            raise ValueError("max_retries must not be negative")
        # Local servers ignore the key but the SDK insists on one.
        self._api_key = api_key or os.environ.get("OPENAI_API_KEY") or "not-needed"
        self.max_concurrency = max_concurrency
        self.max_retries = max_retries
        self.backoff_base = backoff_base
        self.max_backoff = max_backoff
        self.timeout = timeout
        self._rng = random.Random()
        # httpx connections and asyncio semaphores belong to one loop, and the sync face
        # runs each call on a fresh loop, so both are kept per loop.
        self._loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopState] = (
            weakref.WeakKeyDictionary()
        )

    def to_dict(self) -> dict[str, Any]:
        """Constructor arguments except the API key."""
        return {
            **super().to_dict(),
            "max_concurrency": self.max_concurrency,
            "max_retries": self.max_retries,
            "backoff_base": self.backoff_base,
            "max_backoff": self.max_backoff,
            "timeout": self.timeout,
        }

    async def aclose(self) -> None:
        state = self._loops.pop(asyncio.get_running_loop(), None)
        if state is not None:
            await state.client.close()

    async def _answer(
        self, request: dict[str, Any], cache_if: Callable[[str], bool] | None = None
    ) -> Completion | LLMFailure:
        if self.cache is not None:
            hit = self.cache.get(request)
            # an empty reply cached by an older ragdx is no answer: ask again (so is one the
            # caller refuses, cached before it could say so)
            text = str((hit or {}).get("text") or "")
            if hit is not None and text.strip() and (cache_if is None or cache_if(text)):
                # a priced client marks its usage as priced, though a hit costs nothing
                count_usage(self.usage, cache_hits=1, cost_usd=None if self.price is None else 0.0)
                return _completion_from_record(hit)
        result = await self._call(request)
        if isinstance(result, LLMFailure):
            count_usage(self.usage, failures=1)
            return result
        whole = result.text
        result = self._bounded(result)
        count_usage(self.usage, completions=1, prompt_tokens=result.prompt_tokens,
                    completion_tokens=result.completion_tokens, truncated=int(result.truncated),
                    cost_usd=self._cost(result.prompt_tokens, result.completion_tokens))
        # the caller judges the whole reply: a cut one must not pass for what it would have said
        if self.cache is not None and (cache_if is None or cache_if(whole)):
            self.cache.put(request, _record_from_completion(result))
        return result

    async def _call(self, request: dict[str, Any]) -> Completion | LLMFailure:
        import openai

        state = self._loop_state()
        # The slot is held through backoff sleeps too: a rate-limited endpoint should see
        # less pressure while we wait, not a new request in our place.
        async with state.slots:
            attempt = 0
            while True:
                attempt += 1
                # counted as sent: a retry is a request after the first, so calls - retries is
                # the number of requests asked for, whatever a cancellation interrupts
                count_usage(self.usage, calls=1, retries=int(attempt > 1))
                try:
                    raw = await state.client.chat.completions.with_raw_response.create(
                        model=self.model,
                        messages=request["messages"],
                        # Everything goes in the body as given, so server-specific
                        # parameters (vLLM's top_k, ...) pass through and the body matches
                        # the cache key exactly.
                        extra_body=request["params"],
                    )
                    return _parse_completion(raw.http_response.text, self.model)
                except (openai.APIStatusError, openai.APIConnectionError, _MalformedResponse) as exc:
                    if not is_retryable(exc) or attempt > self.max_retries:
                        return LLMFailure(type(exc).__name__, one_line(exc), attempt)
                    await asyncio.sleep(self._backoff(attempt, exc))

    def _loop_state(self) -> _LoopState:
        loop = asyncio.get_running_loop()
        state = self._loops.get(loop)
        if state is None:
            import openai

            # the SDK appends the route to the base URL's query (…/v1?api-version=1chat/completions):
            # a query goes as default parameters of every request instead
            base, query = _split_query(self.base_url)
            client = openai.AsyncOpenAI(
                base_url=base, api_key=self._api_key, max_retries=0, timeout=self.timeout,
                default_query=query or None,
            )
            state = self._loops[loop] = _LoopState(client, asyncio.Semaphore(self.max_concurrency))
        return state

    def _backoff(self, attempt: int, exc: Exception) -> float:
        return Backoff(self.backoff_base, self.max_backoff, self._rng).delay(attempt, _retry_after(exc))


class DryRunLLM(ChatLLM):
    """Sends nothing; counts what a real run would send and estimates its tokens.

    A request found in the cache, or repeated within the run while a cache is configured,
    counts as a cache hit, not a call. Prompt tokens are estimated as characters / 4 (no
    tokenizer, see ``estimate_tokens``); completion tokens as the smaller of ``max_tokens`` (or
    ``max_completion_tokens``) and ``default_completion_tokens``. Every answer
    is an empty ``Completion`` with ``dry_run=True`` so that callers can tell.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str = DEFAULT_BASE_URL,
        cache: CompletionCache | str | os.PathLike[str] | None = None,
        temperature: float | None = 0.0,
        max_tokens: int | None = None,
        params: Mapping[str, Any] | None = None,
        default_completion_tokens: int = 256,
        default_max_tokens: int | None = DEFAULT_MAX_TOKENS,
        max_completion_chars: int | None = DEFAULT_MAX_COMPLETION_CHARS,
        price: Price | Mapping[str, float] | None = None,
    ):
        super().__init__(
            model,
            base_url=base_url,
            cache=cache,
            temperature=temperature,
            max_tokens=max_tokens,
            params=params,
            default_max_tokens=default_max_tokens,
            max_completion_chars=max_completion_chars,
            price=price,
        )
        self.default_completion_tokens = default_completion_tokens
        self._seen: set[str] = set()

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "default_completion_tokens": self.default_completion_tokens}

    async def _answer(
        self, request: dict[str, Any], cache_if: Callable[[str], bool] | None = None
    ) -> Completion:
        key = request_key(request)
        if self.cache is not None and (key in self._seen or self.cache.get(request) is not None):
            count_usage(self.usage, cache_hits=1, cost_usd=None if self.price is None else 0.0)
            return Completion(text="", model=self.model, cached=True, dry_run=True)
        self._seen.add(key)
        params = request["params"]
        prompt_tokens = estimate_prompt_tokens(request["messages"])
        # max_tokens is a ceiling (every request has one now), seldom reached: the smaller of it
        # and the typical length
        ceiling = params.get("max_tokens") or params.get("max_completion_tokens")
        completion_tokens = int(min(ceiling, self.default_completion_tokens) if ceiling
                                else self.default_completion_tokens)
        count_usage(self.usage, calls=1, completions=1, prompt_tokens=prompt_tokens,
                    completion_tokens=completion_tokens, cost_usd=self._cost(prompt_tokens, completion_tokens))
        return Completion(
            text="",
            model=self.model,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            dry_run=True,
        )


def _parse_completion(body: str, model: str) -> Completion:
    try:
        data = json.loads(body)
        choice = data["choices"][0]
        text = choice["message"].get("content") or ""
        if not isinstance(text, str):
            raise TypeError("message content is not text")
        usage = data.get("usage") or {}
        completion = Completion(
            text=text,
            model=data.get("model") or model,
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            finish_reason=choice.get("finish_reason"),
        )
    except (ValueError, LookupError, TypeError, AttributeError) as exc:
        raise _MalformedResponse(f"unusable response body: {body[:200]!r}") from exc
    if not text.strip():
        # An empty or null reply is a failure, retried like any other and never cached: taken as
        # an answer it became an "Incorrect" verdict or an empty system answer, cached for good.
        raise _MalformedResponse(f"empty reply (no content; finish_reason {completion.finish_reason})")
    return completion


def _record_from_completion(completion: Completion) -> dict[str, Any]:
    return {
        "text": completion.text,
        "model": completion.model,
        "prompt_tokens": completion.prompt_tokens,
        "completion_tokens": completion.completion_tokens,
        "finish_reason": completion.finish_reason,
        "truncated_from": completion.truncated_from,
    }


def _completion_from_record(record: Mapping[str, Any]) -> Completion:
    return Completion(
        text=record["text"],
        model=record["model"],
        prompt_tokens=record.get("prompt_tokens", 0),
        completion_tokens=record.get("completion_tokens", 0),
        finish_reason=record.get("finish_reason"),
        cached=True,
        truncated_from=record.get("truncated_from"),
    )


def _retry_after(exc: Exception) -> float | None:
    """The server's requested wait in seconds, if it sent one we can read."""
    import openai

    if not isinstance(exc, openai.APIStatusError):
        return None
    return retry_after_seconds(exc.response.headers)


def _redacted(url: str) -> str:
    from ragdx.redact import redact_url

    return redact_url(url)


def _split_query(url: str) -> tuple[str, dict[str, str]]:
    from urllib.parse import parse_qsl, urlsplit, urlunsplit

    parts = urlsplit(url)
    if not parts.query:
        return url, {}
    return urlunsplit(parts._replace(query="")), dict(parse_qsl(parts.query, keep_blank_values=True))


class LLMPrice(BaseModel):
    """``llm.price``: US dollars per million prompt and completion tokens."""

    model_config = ConfigDict(extra="forbid")

    prompt: float = Field(ge=0)
    completion: float = Field(ge=0)


class LLMConfig(BaseModel):
    """The ``llm`` section of a ragdx config."""

    model_config = ConfigDict(extra="forbid")

    base_url: str = DEFAULT_BASE_URL
    model: str = DEFAULT_MODEL
    api_key_env: str = Field("OPENAI_API_KEY", description="Environment variable holding the API key.")
    max_concurrency: int = Field(4, ge=1)
    max_retries: int = Field(4, ge=0)
    timeout: float = Field(60.0, gt=0)
    temperature: float = 0.0
    max_tokens: int | None = Field(None, ge=1)
    default_max_tokens: int | None = Field(
        DEFAULT_MAX_TOKENS, ge=1, description="max_tokens sent where nothing else sets it; None sends none.")
    max_completion_chars: int | None = Field(
        DEFAULT_MAX_COMPLETION_CHARS, ge=1,
        description="Replies longer than this (characters) are cut before they are cached or stored.")
    price: LLMPrice | None = Field(None, description="USD per million tokens, for the estimated cost.")
    cache_dir: Path | None = Field(Path(".ragdx-cache"), description="None disables the cache.")
    params: dict[str, Any] = Field(default_factory=dict, description="Sampling parameters for every request.")


def make_llm(
    config: LLMConfig | Mapping[str, Any] | None = None, *, dry_run: bool = False
) -> OpenAICompatibleLLM | DryRunLLM:
    """Build the client a config describes; ``dry_run`` gives a ``DryRunLLM`` on the same cache."""
    cfg = config if isinstance(config, LLMConfig) else _validate(config or {})
    cache = None if cfg.cache_dir is None else CompletionCache(cfg.cache_dir / CACHE_FILENAME)
    common: dict[str, Any] = {
        "base_url": cfg.base_url,
        "cache": cache,
        "temperature": cfg.temperature,
        "max_tokens": cfg.max_tokens,
        "params": cfg.params,
        "default_max_tokens": cfg.default_max_tokens,
        "max_completion_chars": cfg.max_completion_chars,
        "price": None if cfg.price is None else cfg.price.model_dump(),
    }
    if dry_run:
        return DryRunLLM(cfg.model, **common)
    return OpenAICompatibleLLM(
        cfg.model,
        # Never fall back on OPENAI_API_KEY here: that would send an OpenAI key to
        # whatever server the config names.
        api_key=os.environ.get(cfg.api_key_env) or "not-needed",
        max_concurrency=cfg.max_concurrency,
        max_retries=cfg.max_retries,
        timeout=cfg.timeout,
        **common,
    )


def _validate(config: Mapping[str, Any]) -> LLMConfig:
    checked: LLMConfig = validated(LLMConfig, config, source="llm config")
    return checked
