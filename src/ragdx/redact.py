"""Credentials out of everything ragdx writes or prints: manifests, messages, tables.

A URL may carry a secret in its userinfo (``https://user:pw@host``) or in its query
(``?password=…``, ``?api_key=…``, ``?token=…``). Wherever a URL is written or shown, it goes
through :func:`redact_url` first; manifests go through :func:`redact` as a whole, so a secret
that reaches a configuration by any path does not reach the disk.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl, quote, urlsplit, urlunsplit

MASK = "***"
# names (of query parameters, of configuration keys) that hold a secret: ``password``,
# ``db_password``, ``sslpassword``, ``api-key``, ``access_token``, ``X-Amz-Signature``, ``key`` …
# but not ``max_tokens`` or ``api_key_env`` (the name of a variable, never its value)
_NAMES = r"pass(?:word|wd)?|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|signature|credentials?"
_SECRET_NAME = re.compile(rf"(?:{_NAMES})$|^(?:key|sig|auth)$", re.I)
# scheme://user:password@ anywhere in a longer text (an error message quoting a URL)
_USERINFO_IN_TEXT = re.compile(
    r"(?P<scheme>\b[a-zA-Z][a-zA-Z0-9+.-]*://)(?P<user>[^\s/@:]*)(:(?P<pw>[^\s/@]*))?@")
_QUERY_SECRET_IN_TEXT = re.compile(
    rf"(?P<name>[?&;](?:[\w.-]*?(?:{_NAMES})|key|sig|auth))=(?P<value>[^&#\s'\"]*)", re.I)


def _secret_name(name: str) -> bool:
    return bool(name) and bool(_SECRET_NAME.search(name))


def redact_url(url: str) -> str:
    """``url`` with the password of its userinfo and the values of secret query parameters
    replaced by ``***``; the user name, host, path and other parameters stay readable."""
    if not isinstance(url, str) or ("@" not in url and "=" not in url):
        return url
    try:
        parts = urlsplit(url)
    except ValueError:
        return redact_text(url)
    if not parts.scheme or not parts.netloc and "=" not in parts.query:
        return redact_text(url)
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, _, host = netloc.rpartition("@")
        user, sep, _ = userinfo.partition(":")
        netloc = f"{user}:{MASK}@{host}" if sep else f"{userinfo}@{host}"
        # a token alone in the userinfo (https://TOKEN@host) is a secret as well
        if not sep and len(userinfo) >= 20:
            netloc = f"{MASK}@{host}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        if any(_secret_name(k) for k, _ in pairs):
            query = "&".join(f"{quote(k, safe='')}={MASK if _secret_name(k) else quote(v, safe='')}"
                             for k, v in pairs)
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def redact_text(text: str) -> str:
    """Secrets of URLs quoted inside a longer text (an error message, a log line)."""
    if not isinstance(text, str) or ("@" not in text and "=" not in text):
        return text

    def userinfo(m: re.Match) -> str:
        if m.group("pw") is None:
            return m.group(0)
        return f"{m.group('scheme')}{m.group('user')}:{MASK}@"

    text = _USERINFO_IN_TEXT.sub(userinfo, text)
    return _QUERY_SECRET_IN_TEXT.sub(lambda m: f"{m.group('name')}={MASK}", text)


def redact(obj: Any) -> Any:
    """A copy of a JSON-like object with every string passed through :func:`redact_text`;
    values under secret-named keys (``password``, ``api_key``, …) are masked whole."""
    if isinstance(obj, str):
        return redact_text(obj)
    if isinstance(obj, dict):
        return {k: (MASK if isinstance(k, str) and isinstance(v, str) and v and _secret_name(k) else redact(v))
                for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return type(obj)(redact(v) for v in obj)
    return obj
