"""Retrieved contexts stored once per distinct text, beside ``results.jsonl``.

A run retrieves the same documents over and over (a knowledge base of 60 documents behind 1,600
queries), and writing each context's full text into every result line made ``results.jsonl``
mostly copies. With ``contexts="once"`` (the default) a result line keeps each context's ``id``,
``score`` and ``sha`` (a hash of its text), and ``contexts.jsonl`` holds every distinct text once
(``{"sha", "text"}``); :func:`inflate` puts the text back when the run is read, so readers see
the same :class:`SystemOutput` either way. ``contexts="full"`` writes texts inline as before, and
``contexts="hash"`` keeps ids and hashes only (no text anywhere: for systems whose contexts must
not be stored). Lines written by older versions (text inline) read as they always did.

Crash safety follows ``results.jsonl``'s: a text is written (and fsync'd) before the first result
line that refers to it, so a line never refers to a text that is not on disk; a torn final line
of ``contexts.jsonl`` is ignored on reading and cut before appending.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, BinaryIO

from ragdx.errors import RagdxError

__all__ = ["CONTEXTS", "MODES", "ContextStore", "load_texts", "inflate", "text_sha"]

CONTEXTS = "contexts.jsonl"
MODES = ("once", "full", "hash")


def text_sha(text: str) -> str:
    # 20 hex digits (80 bits): collisions among a run's distinct texts are out of reach.
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


def _read(path: Path) -> tuple[dict[str, str], int, int]:
    """Texts by hash, the bytes of complete lines, and the torn tail's length."""
    if not path.exists():
        return {}, 0, 0
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    texts: dict[str, str] = {}
    for number, line in enumerate(data[:end].split(b"\n")[:-1], 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            texts[str(obj["sha"])] = str(obj["text"])
        except (ValueError, KeyError, TypeError):
            raise RagdxError("not a context record (edited by hand?)", source=str(path),
                             field=f"line {number}") from None
    return texts, end, len(data) - end


def load_texts(run_dir: str | Path) -> dict[str, str]:
    """Every stored context text of a run directory, by hash (empty for runs without the file)."""
    return _read(Path(run_dir) / CONTEXTS)[0]


def inflate(obj: Mapping[str, Any], texts: Mapping[str, str], source: str | None = None) -> dict[str, Any]:
    """A result line with each context's text put back (a ``hash``-mode context gets ``""``)."""
    contexts = obj.get("contexts")
    if not contexts or not any(isinstance(c, Mapping) and "sha" in c for c in contexts):
        return dict(obj)
    out = []
    for c in contexts:
        c = dict(c)
        sha = c.pop("sha", None)
        if sha is not None and "text" not in c:
            if texts and sha not in texts:
                raise RagdxError(f"context text {sha} is missing from {CONTEXTS}", source=source, field=str(obj["id"]))
            c["text"] = texts.get(sha, "")
        out.append(c)
    return {**obj, "contexts": out}


class ContextStore:
    """The writer side: compacts result dicts and appends texts not stored yet."""

    def __init__(self, run_dir: Path, mode: str = "once"):
        if mode not in MODES:
            raise RagdxError(f"contexts must be one of {', '.join(MODES)}, not {mode!r}", field="contexts")
        self.mode = mode
        self.path = run_dir / CONTEXTS
        texts, valid, torn = _read(self.path)
        self._known = set(texts)
        if torn:
            # the text of a line never written: cut it, as results.jsonl's torn tail is cut
            with self.path.open("r+b") as fh:
                fh.truncate(valid)
                fh.flush()
                os.fsync(fh.fileno())
        self._fh: BinaryIO | None = None

    def compact(self, obj: dict[str, Any]) -> dict[str, Any]:
        """``obj`` as it goes into ``results.jsonl``; new texts are on disk when this returns."""
        if self.mode == "full" or not obj.get("contexts"):
            return obj
        contexts, new = [], []
        for c in obj["contexts"]:
            c = dict(c)
            text = c.pop("text", "") or ""
            sha = text_sha(text)
            c["sha"] = sha
            contexts.append(c)
            if self.mode == "once" and sha not in self._known:
                self._known.add(sha)
                new.append(json.dumps({"sha": sha, "text": text}, ensure_ascii=False, separators=(",", ":")) + "\n")
        if new:
            if self._fh is None:
                from ragdx.store import private_opener

                self._fh = open(self.path, "ab", opener=private_opener)  # noqa: SIM115 - closed by close()
            self._fh.write("".join(new).encode("utf-8"))
            self._fh.flush()
            os.fsync(self._fh.fileno())
        return {**obj, "contexts": contexts}

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None
