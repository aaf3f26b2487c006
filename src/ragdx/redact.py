"""Credentials out of everything ragdx writes or prints: manifests, caches, messages, tables.

A secret reaches ragdx by a few paths: a URL's userinfo (``https://user:pw@host``,
``https://TOKEN@host``) or query (``?password=…``, ``?api_key=…``, ``?jwt=…``, ``?sessionid=…``),
an HTTP header (``Authorization``, ``Cookie``, ``X-Api-Key``) or a body field (``{"jwt": …}``,
``{"client_secret": …}``). This module is the one place that knows what a secret looks like.
Wherever a URL is written or shown it goes through :func:`redact_url`; a free text (an error
message, a server's reply quoted in a failure) through :func:`redact_text`; a manifest, a cached
request or any JSON-like record through :func:`redact` as a whole, so a secret that reaches a
configuration by any path does not reach the disk. A secret is masked whatever its length: a
short token is no less a credential.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl, quote, urlsplit, urlunsplit

MASK = "***"
# names (of query parameters, configuration keys, headers, body fields) that hold a secret:
# ``password``, ``db_password``, ``sslpassword``, ``api-key``, ``X-Api-Key``, ``access_token``,
# ``X-Amz-Signature``, ``jwt``, ``sessionid``, ``JSESSIONID``, ``Authorization``, ``Cookie``,
# ``client_secret``, ``key`` … but not ``max_tokens``, ``api_key_env`` or ``bearer_env`` (the name of
# a variable, never its value)
_NAMES = (r"pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key"
          r"|signature|credentials?|jwt|bearer|authori[sz]ation|auth|cookies?|sess(?:ion)?[_-]?id|session"
          r"|csrf|xsrf")
_SECRET_NAME = re.compile(rf"(?:{_NAMES})$|^(?:key|sig|sid)$", re.I)
# scheme://user:password@ or scheme://token@ anywhere in a longer text (an error message quoting a URL)
_USERINFO_IN_TEXT = re.compile(
    r"(?P<scheme>\b[a-zA-Z][a-zA-Z0-9+.-]*://)(?P<user>[^\s/@:?#]*)(:(?P<pw>[^\s/@]*))?@")
# name=value after a URL's ? & ; #, or after a space, comma or bracket (a libpq "password=… host=…")
_PAIR_SECRET_IN_TEXT = re.compile(
    rf"(?P<name>(?:(?<=[?&;#\s,(\[{{])|^)[\w.-]*?(?:{_NAMES}|(?<![\w.-])(?:key|sig|sid)))=(?P<value>[^&#\s'\",;)\]}}]*)",
    re.I)
# "jwt": "…" / 'password': '…' / jwt: … (a JSON or YAML or Python dict quoted in a message)
_FIELD_SECRET_IN_TEXT = re.compile(
    rf"(?P<name>(?P<q>[\"']?)[\w.-]*?(?:{_NAMES})(?P=q)\s*:\s*)(?P<value>\"[^\"]*\"|'[^']*'|[^\s,;}}\]]+)", re.I)
# Authorization: Bearer … / Basic … in a quoted header or a log line
_SCHEME_CREDENTIAL_IN_TEXT = re.compile(r"\b(?P<scheme>Bearer|Basic|Digest|Token)\s+(?P<value>[\w.~+/=-]+)", re.I)
# schemes whose lone userinfo (``https://TOKEN@host``) is a credential, not a user name
_TOKEN_USERINFO_SCHEMES = {"http", "https", "ws", "wss"}


def secret_name(name: str) -> bool:
    """Whether a query parameter, header, configuration key or body field of this name holds a secret."""
    return isinstance(name, str) and bool(name) and bool(_SECRET_NAME.search(name))


def _netloc(scheme: str, netloc: str) -> str:
    if "@" not in netloc:
        return netloc
    userinfo, _, host = netloc.rpartition("@")
    user, sep, _ = userinfo.partition(":")
    if sep:
        return f"{user}:{MASK}@{host}"
    # a token alone in the userinfo (https://TOKEN@host) is a secret, however short; a database URL's
    # lone user name (postgresql://postgres@host) is not, unless it is as long as a token
    if scheme.lower() in _TOKEN_USERINFO_SCHEMES or len(userinfo) >= 20:
        return f"{MASK}@{host}"
    return netloc


def redact_url(url: str) -> str:
    """``url`` with the password of its userinfo (or a token alone in it) and the values of secret
    query parameters replaced by ``***``; the user name, host, path and other parameters stay readable."""
    if not isinstance(url, str) or ("@" not in url and "=" not in url):
        return url
    try:
        parts = urlsplit(url)
    except ValueError:
        return redact_text(url)
    if not parts.scheme or not parts.netloc and "=" not in parts.query:
        return redact_text(url)
    netloc = _netloc(parts.scheme, parts.netloc)
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        if any(secret_name(k) for k, _ in pairs):
            query = "&".join(f"{quote(k, safe='')}={MASK if secret_name(k) else quote(v, safe='')}"
                             for k, v in pairs)
    rebuilt = urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))
    if not netloc and url[len(parts.scheme) + 1:].startswith("//"):
        # urlunsplit drops an empty authority: sqlite:///f.db?mode=ro came back as sqlite:/f.db?mode=ro
        rebuilt = (f"{url[:len(parts.scheme)]}://{parts.path}" + (f"?{query}" if query else "")
                   + (f"#{parts.fragment}" if parts.fragment else ""))
    # a secret in the path or fragment (…/v1?api_key=K/chat, #access_token=…) is caught as text
    return redact_text(rebuilt)


def redact_text(text: str) -> str:
    """Secrets inside a longer text (an error message, a log line, a server's reply): URLs' userinfo,
    ``name=value`` and ``"name": value`` pairs with a secret name, and ``Bearer …`` credentials."""
    if not isinstance(text, str):
        return text

    def userinfo(m: re.Match) -> str:
        if m.group("pw") is not None:
            return f"{m.group('scheme')}{m.group('user')}:{MASK}@"
        scheme = m.group("scheme")[:-3].lower()
        if m.group("user") and (scheme in _TOKEN_USERINFO_SCHEMES or len(m.group("user")) >= 20):
            return f"{m.group('scheme')}{MASK}@"
        return m.group(0)

    if "@" in text:
        text = _USERINFO_IN_TEXT.sub(userinfo, text)
    if "=" in text:
        text = _PAIR_SECRET_IN_TEXT.sub(lambda m: f"{m.group('name')}={MASK}", text)
    text = _SCHEME_CREDENTIAL_IN_TEXT.sub(lambda m: f"{m.group('scheme')} {MASK}", text)
    if ":" in text:
        text = _FIELD_SECRET_IN_TEXT.sub(_masked_field, text)
    return text


def _masked_field(m: re.Match) -> str:
    value = m.group("value")
    if value == MASK or value.strip("\"'") == MASK:
        return m.group(0)
    quote_char = value[0] if value[:1] in ("'", '"') else ""
    return f"{m.group('name')}{quote_char}{MASK}{quote_char}"


def redact(obj: Any) -> Any:
    """A copy of a JSON-like object with every string passed through :func:`redact_text`;
    values under secret-named keys (``password``, ``api_key``, ``jwt``, ``Authorization``, …) are
    masked whole, whatever their type (a number or a nested mapping can be a credential too)."""
    if isinstance(obj, str):
        return redact_text(obj)
    if isinstance(obj, dict):
        return {k: (MASK if _maskable(k, v) else redact(v)) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return type(obj)(redact(v) for v in obj)
    return obj


def _maskable(key: Any, value: Any) -> bool:
    # None, False and "" hold no secret, and masking them would hide that none is set
    return secret_name(key) and value not in (None, "", False) and not isinstance(value, bool)


def redact_headers(headers: Any) -> dict[str, str]:
    """Header name -> value with every secret-named header's value masked and the rest redacted as text."""
    return {str(k): (MASK if secret_name(str(k)) else redact_text(str(v))) for k, v in dict(headers).items()}
