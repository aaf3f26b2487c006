"""Files that are either whole or absent: atomic writes, JSONL, and staged output directories.

A crash, a Ctrl-C or a bad input must never leave a half-written dataset that a later stage reads
as if it were complete. Single files are written to a temporary sibling and renamed; a directory
of outputs is built in a staging directory and renamed into place when everything succeeded.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any


def atomic_write_text(path: str | Path, text: str) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def append_under_key(path: str | Path, key: str, block: str, *, header: str, count, expected: int) -> None:
    """Append ``block`` (indented YAML items) under the top-level ``key`` of a file people edit,
    or create the file as ``header`` + ``block``.

    Nothing already in the file is rewritten, so a person's edits and comments survive every
    re-run. That only works while ``key`` is the file's last top-level key, so the combined text
    must read back with ``count(document) == expected`` entries before anything is written;
    otherwise RagdxError names the file and the key, and the file is left as it was.
    """
    import yaml

    from ragdx.errors import RagdxError

    path = Path(path)
    if path.exists():
        text = path.read_text(encoding="utf-8")
        if not text.endswith("\n"):
            text += "\n"
        # an empty collection written inline ("key: []") has to become a block to take items
        text = re.sub(rf"(?m)^{re.escape(key)}:[ \t]*(\{{\}}|\[\]|null|~)?[ \t]*$", f"{key}:", text)
        text += block
    else:
        text = header + block
    try:
        got = count(yaml.safe_load(text) or {})
    except (yaml.YAMLError, AttributeError, TypeError):
        got = -1
    if got != expected:
        raise RagdxError(f"cannot add templates without rewriting the file: make '{key}:' its last "
                         "top-level key", source=str(path), field=key)
    atomic_write_text(path, text)


def write_json(path: str | Path, obj: Any) -> None:
    atomic_write_text(path, json.dumps(obj, indent=2, ensure_ascii=False, default=str) + "\n")


def write_jsonl(path: str | Path, rows: Iterable[dict]) -> int:
    """Write rows, one JSON object a line; returns the count."""
    lines = [json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in rows]
    atomic_write_text(path, "".join(line + "\n" for line in lines))
    return len(lines)


def sha256_file(path: str | Path) -> str:
    """Hex SHA-256 of a file's bytes, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def iter_jsonl(path: str | Path) -> Iterator[tuple[int, dict]]:
    """(line number, object) for every non-empty line; a bad line raises naming file and line."""
    from ragdx.errors import RagdxError

    path = Path(path)
    try:
        fh = path.open(encoding="utf-8")
    except OSError as exc:
        raise RagdxError(f"cannot read ({exc.strerror})", source=str(path)) from None
    with fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except ValueError as exc:
                raise RagdxError(f"not valid JSON ({exc.msg})", source=str(path), field=f"line {number}") from None
            if not isinstance(obj, dict):
                raise RagdxError("expected a JSON object", source=str(path), field=f"line {number}")
            yield number, obj


def read_structured(path: str | Path, *, error: type | None = None) -> Any:
    """A JSON (``.json``) or YAML file's content; unreadable or malformed files raise ``error``
    (a RagdxError subclass) naming the file and, for YAML, the line."""
    import yaml

    from ragdx.errors import RagdxError

    error = error or RagdxError
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"cannot read ({exc.strerror})", source=str(path)) from None
    if path.suffix == ".json":
        try:
            return json.loads(text)
        except ValueError as exc:
            raise error(f"not valid JSON ({exc})", source=str(path)) from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise error(f"not valid YAML ({getattr(exc, 'problem', exc)})", source=str(path),
                    field=f"line {mark.line + 1}" if mark else None) from None


@contextlib.contextmanager
def staged_directory(target: str | Path, *, overwrite: bool = False) -> Iterator[Path]:
    """Yield an empty staging directory next to ``target``; on success it replaces ``target``.

    On any exception the staging directory is removed and ``target`` is untouched."""
    from ragdx.errors import RagdxError

    target = Path(target)
    if target.exists() and not overwrite:
        raise RagdxError("already exists (pass --overwrite to replace it)", source=str(target))
    target.parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent))
    try:
        yield stage
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old")
        shutil.rmtree(old, ignore_errors=True)
        os.replace(target, old)
    os.replace(stage, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
