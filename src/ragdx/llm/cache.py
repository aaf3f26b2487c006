"""On-disk cache of chat completions, keyed by everything that was sent."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no whitespace, so equal requests give equal bytes.

    Integral floats are written as integers: ``temperature=0`` and ``temperature=0.0`` mean
    the same request to every server and must not be cached twice.
    """
    return json.dumps(_normalise(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def request_key(request: Mapping[str, Any]) -> str:
    """sha256 of the request as it bears on the answer: with the credentials of its endpoint URL
    and of secret-named parameters masked (a key or token does not change the completion, and
    the key must not be a function of it), the messages exactly as sent (masking text inside
    them could make two different prompts one entry)."""
    return hashlib.sha256(canonical_json(keyed_request(request)).encode()).hexdigest()


def keyed_request(request: Mapping[str, Any]) -> dict[str, Any]:
    """What :func:`request_key` hashes: ``request`` with its ``base_url`` and secret-named
    ``params`` masked; equal to ``request`` when it holds no credential, so existing cache
    entries keep their keys."""
    from ragdx.redact import MASK, redact_url, secret_name

    keyed = dict(request)
    if isinstance(keyed.get("base_url"), str):
        keyed["base_url"] = redact_url(keyed["base_url"])
    if isinstance(keyed.get("params"), Mapping):
        keyed["params"] = {k: (MASK if secret_name(k) and v not in (None, "") else v)
                           for k, v in keyed["params"].items()}
    return keyed


def stored_request(request: Mapping[str, Any]) -> str:
    """The request as the cache file keeps it, for people reading the cache: every credential
    masked, in the URL, the parameters and the text of the messages."""
    from ragdx.redact import redact

    return canonical_json(redact(_normalise(request)))


def _normalise(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, Mapping):
        return {str(k): _normalise(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_normalise(v) for v in value]
    return value


class CompletionCache:
    """A SQLite file mapping request -> response, shared safely by threads and processes: the
    ``completions`` namespace of a :class:`ragdx.kvcache.KVStore`.

    The key is the sha256 of the canonical JSON of the full request (endpoint, model,
    messages, every sampling parameter and the sample index), so any change to what would be
    sent is a miss; credentials in the endpoint URL or the parameters are masked before hashing
    and storing (:func:`request_key`, :func:`stored_request`): they never reach the file.
    The value is the response as JSON; the redacted request is kept beside it for people reading
    the file. The file and its directory are created user-only. Entries are never overwritten:
    when two processes race on one request the first answer stays, and a key never changes
    meaning once someone has read it.
    """

    def __init__(self, path: str | os.PathLike[str]):
        from ragdx.kvcache import KVStore, Legacy

        self.path = Path(path)
        # an older ragdx's table: (key, request, response, created), adopted in place
        self._entries = KVStore(self.path, label="LLM cache").namespace(
            "completions", legacy=Legacy(renames={"request": "meta", "response": "value"}))
        self._scrubbed = False

    def get(self, request: Mapping[str, Any]) -> dict[str, Any] | None:
        self._scrub_once()
        value: dict[str, Any] | None = self._entries.get_json(request_key(request))
        return value

    def put(self, request: Mapping[str, Any], response: Mapping[str, Any]) -> None:
        self._scrub_once()
        self._entries.put(request_key(request), canonical_json(response), meta=stored_request(request))

    def __len__(self) -> int:
        self._scrub_once()
        return len(self._entries)

    def __repr__(self) -> str:
        return f"CompletionCache({str(self.path)!r})"

    def _scrub_once(self) -> None:
        """Redact the requests an older ragdx stored in clear, once per file. Their keys stay: a hash
        reveals nothing, and such an entry is simply never asked for again when its URL held a secret."""
        if self._scrubbed:
            return
        if self._entries.version < _REDACTED_VERSION:
            if self._entries.rewrite_meta(_redacted, version=_REDACTED_VERSION):
                # the old text may linger in free pages and the WAL until they are rewritten
                self._entries.store.compact()
        self._scrubbed = True


#: the ``completions`` namespace's version once its stored requests are redacted (0: written by an
#: older ragdx, which stored the request, base URL credentials included, in clear)
_REDACTED_VERSION = 1


def _redacted(request: str | None) -> str:
    try:
        return stored_request(json.loads(request or ""))
    except ValueError:
        return canonical_json({"unreadable": True})
