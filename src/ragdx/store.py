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
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import yaml

#: what ragdx creates is its user's alone, whatever the umask: runs, datasets and caches hold
#: prompts, answers and database values, and once held credentials in clear
PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700


def default_mode(path: str | Path, *, directory: bool = False) -> int:
    """The mode ``path`` already has (a person's 0644 file stays 0644 on every rewrite), else
    user-only: 0600 for a file, 0700 for a directory. What is meant for sharing (a report) is
    opened up by its writer."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        return PRIVATE_DIR if directory else PRIVATE_FILE


def private_dir(path: str | Path) -> Path:
    """``path`` as a directory, created user-only (0700 whatever the umask) when absent; an existing
    directory keeps its mode (it may be the user's own)."""
    path = Path(path)
    if not path.is_dir():
        path.mkdir(parents=True, exist_ok=True, mode=PRIVATE_DIR)
        os.chmod(path, PRIVATE_DIR)
    return path


def private_opener(path: str, flags: int) -> int:
    """``open(path, mode, opener=private_opener)``: a file the call creates is user-only (0600)
    whatever the umask; an existing file keeps its mode. For files appended to in place (a run's
    results), which the atomic writers do not write."""
    return os.open(path, flags, PRIVATE_FILE)


def private_file(path: str | Path) -> Path:
    """``path`` created empty and user-only (0600) when absent, or narrowed to 0600: for a file only
    ragdx writes (a cache), before a library such as SQLite creates it with the umask's mode."""
    path = Path(path)
    os.close(os.open(path, os.O_CREAT | os.O_WRONLY, PRIVATE_FILE))
    if os.stat(path).st_mode & 0o077:
        os.chmod(path, PRIVATE_FILE)
    return path


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic garbage collector paused for a bulk job (a ``with`` block or a decorator).

    Reading a 100k-query dataset and run, judging it and building a report allocate millions of
    small objects in no reference cycle (plain values freed by reference counting); the
    collector's full passes over all of them, triggered by nothing but the allocation count,
    found no garbage and were a third of ``evaluate``'s time. Restored as it was, however the
    block ends."""
    import gc

    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            # Everything allocated in the block sits in the youngest generation, and the first
            # collection after re-enabling would walk all of it (0.7 s after a 100k-query
            # evaluate) to find nothing. freeze + unfreeze moves it to the oldest generation by
            # relinking two lists, without a walk: a cycle among it is still found by the next
            # full collection, as for any long-lived object.
            gc.freeze()
            gc.unfreeze()
            gc.enable()


def atomic_write_text(path: str | Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    with atomic_writer(path) as fh:
        fh.write(data)


@contextlib.contextmanager
def atomic_writer(path: str | Path) -> Iterator[Any]:
    """A binary file object whose bytes replace ``path`` whole when the block ends without an
    exception (a temporary sibling, synced, then renamed over it, keeping ``path``'s mode), and
    are discarded otherwise: for a writer that streams its output rather than holding it all."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = default_mode(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def append_under_key(path: str | Path, key: str, block: str, *, header: str,
                     count: Callable[[dict[str, Any]], int], expected: int) -> None:
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


def write_jsonl(path: str | Path, rows: Iterable[dict[str, Any]], *, float_free: bool = False) -> int:
    """Write rows, one JSON object a line; returns the count.

    ``float_free``: the caller vouches that no row holds a float (typed records without float
    fields), so that a ``null`` in orjson's output can only be a None (see ``_line_writer``)."""
    from itertools import islice

    lines = jsonl_lines(rows, float_free=float_free)
    count = 0
    with atomic_writer(path) as fh:
        # blocks of lines, not every line at once: a million encoded lines held together took
        # 4.4 GB (each orjson line keeps ~4 KB of heap), many times the file's own size
        while block := list(islice(lines, _LINES_PER_WRITE)):
            fh.write(b"".join(block))
            count += len(block)
    return count


#: lines written at once by :func:`write_jsonl`: few enough that the memory they hold is bounded
#: (~4 MB at orjson's ~4 KB a line), enough that a write costs nothing next to encoding them
_LINES_PER_WRITE = 1024


def jsonl_lines(rows: Iterable[dict[str, Any]], *, float_free: bool = False) -> Iterator[bytes]:
    """The lines :func:`write_jsonl` writes, one at a time (``float_free`` as there), for a writer
    that streams them into a file of its own rather than holding them all."""
    line = _line_writer(float_free)
    return (line(r) for r in rows)


def _json_line(row: Any) -> bytes:
    return (json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def _line_writer(float_free: bool) -> Callable[[Any], bytes]:
    """One row to one line, byte for byte what ``json.dumps(row, ensure_ascii=False,
    separators=(",", ":"))`` writes, with orjson (five times faster) where its bytes are
    provably the same. They differ only on floats: NaN and infinities (orjson writes null), and
    magnitudes below 1e-4 (json '1e-05', '1.5e-07'; orjson '0.00001', '1.5e-7'), which always
    show as 'e-' or '0.0000' in orjson's output; orjson also refuses non-string keys and
    integers past 64 bits. A line showing any of them is written by json instead, so the output
    never depends on which library is installed. Dataclasses, datetimes and subclasses of
    str/int/dict/list are passed through to json too (which writes the subclasses and refuses
    the rest, as before); only enums and UUIDs, which json refuses, orjson writes."""
    try:
        import orjson
    except ImportError:
        return _json_line
    dumps = orjson.dumps
    options = (orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
               | orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_APPEND_NEWLINE)

    def line(row: Any) -> bytes:
        try:
            out = dumps(row, option=options)
        except TypeError:  # orjson.JSONEncodeError
            return _json_line(row)
        if b"e-" in out or b"0.0000" in out or (not float_free and b"null" in out):
            return _json_line(row)
        return out

    return line


def sha256_file(path: str | Path) -> str:
    """Hex SHA-256 of a file's bytes, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def iter_jsonl(path: str | os.PathLike[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for every non-empty line; a bad line raises naming file and line."""
    from ragdx.errors import RagdxError

    path = Path(path)
    try:
        fh = path.open("rb")
    except OSError as exc:
        raise RagdxError(f"cannot read ({exc.strerror})", source=str(path)) from None
    with fh:
        number = 0
        while True:
            try:
                # blocks of lines: the checks of the fast path run once per block, in C
                block = fh.readlines(_BLOCK_BYTES)
            except OSError as exc:  # a directory, a device that fails mid-read
                raise RagdxError(f"cannot read ({exc.strerror})", source=str(path)) from None
            if not block:
                break
            objs = parse_lines(block)
            if objs is not None and all(type(o) is dict for o in objs):
                yield from zip(range(number + 1, number + 1 + len(block)), objs, strict=True)
                number += len(block)
                continue
            for raw in block:  # line by line: the careful path names the line that is wrong
                number += 1
                obj = parse_lines([raw])
                obj = obj[0] if obj is not None else _careful_line(raw, path, number)
                if obj is _BLANK:
                    continue
                if not isinstance(obj, dict):
                    raise RagdxError("expected a JSON object", source=str(path), field=f"line {number}")
                yield number, obj


_BLOCK_BYTES = 1 << 22


def _careful_line(raw: bytes, path: Path, number: int) -> Any:
    """One line decoded and parsed by the standard library, refusing duplicate keys; ``_BLANK``
    for a blank line (a line ``null`` is None, and refused as not an object); a bad line raises
    naming file and line."""
    from ragdx.errors import RagdxError

    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RagdxError(f"not valid UTF-8 (byte {exc.start + 1} of the line)", source=str(path),
                         field=f"line {number}") from None
    if not line.strip():
        return _BLANK
    try:
        return json.loads(line, object_pairs_hook=unique_keys)
    except DuplicateKey as exc:
        raise RagdxError(f"key '{exc.key}' appears twice", source=str(path), field=f"line {number}") from None
    except (ValueError, RecursionError) as exc:
        msg = getattr(exc, "msg", None) or "nested too deeply"
        raise RagdxError(f"not valid JSON ({msg})", source=str(path), field=f"line {number}") from None


_BLANK = object()


#: every digit a '0', '.' kept, everything else a space: an integer literal of 19 digits or more
#: (which orjson may read as a float, from -2**63 - 1 or 2**64 on, where json keeps it exact) is
#: then a plain substring test; a fraction's digits follow a '.' and do not match
_DIGITS_ONLY = bytes(48 if 48 <= b <= 57 else 46 if b == 46 else 32 for b in range(256))
_LONG_NUMBER = b" " + b"0" * 19


def parse_lines(lines: list[bytes]) -> list[Any] | None:
    """Each line parsed as the standard library parses it (duplicate keys refused), or None when
    orjson's fast parse of the block cannot be vouched for: the caller then reads line by line,
    the careful way (``_careful_line``), which also says what is wrong.

    orjson's parser (several times the standard library's speed on a 100k-line dataset) keeps the
    last of duplicate keys silently, so its result is used only when the lines cannot hold a
    duplicate: when they have as many ':' as orjson's own serialisation of the parsed objects.
    Outside strings a ':' ends a key; inside them the text is the same on both sides (a ':' is
    never escaped), so a line never has fewer ':' than its serialisation, and one fewer over the
    block is a key given twice on some line. The counts run in C over the whole block: a Python
    walk over the parsed objects cost more than parsing them, and per-line checks cost as much
    as the parse. A \\u escape (\\u003a is a ':' the count would miss), a number of 19 digits or
    more (orjson may read it as a float where json keeps it exact), NaN, bad UTF-8, a blank line
    and a scalar line all make the block go the careful way."""
    parse = _orjson()
    if parse is None or not lines:
        return None
    loads, dumps, error = parse
    data = b"".join(lines)
    if b"\\u" in data or _LONG_NUMBER in data.translate(_DIGITS_ONLY):
        return None
    try:
        objs = [loads(raw) for raw in lines]
        if dumps(objs).count(b":") != data.count(b":"):
            return None
    except (error, TypeError, ValueError):  # orjson.JSONEncodeError is a TypeError
        return None
    for obj in objs:
        if not isinstance(obj, dict | list):
            return None
    return objs


def _orjson() -> tuple[Callable[[bytes], Any], Callable[[Any], bytes], type[Exception]] | None:
    try:
        import orjson
    except ImportError:  # a plain install still reads everything, more slowly
        return None
    return orjson.loads, orjson.dumps, orjson.JSONDecodeError


class DuplicateKey(ValueError):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # a key given twice is a person's mistake: json keeps the last silently, YAML too
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKey(key)
        out[key] = value
    return out


def read_text(path: str | Path, *, error: type | None = None) -> str:
    """A user's text file as UTF-8; unreadable or undecodable files raise ``error`` (a RagdxError
    subclass) in one line naming the file."""
    from ragdx.errors import RagdxError

    error = error or RagdxError
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise error(f"cannot read ({exc.strerror})", source=str(path)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise error("not valid UTF-8", source=str(path), field=f"line {line}") from None


#: A YAML document may not expand (aliases followed) to more nodes than this: a few hundred bytes
#: of nested aliases (a "billion laughs") otherwise exhaust memory wherever the data is walked.
MAX_YAML_NODES = 1_000_000


def _yaml_loader() -> type[yaml.SafeLoader]:
    import yaml

    class Loader(yaml.SafeLoader):
        """SafeLoader that refuses duplicate keys."""

    def mapping(loader: yaml.SafeLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue  # '<<: *base' then a key of its own overrides the base: not a duplicate
            key = loader.construct_object(key_node, deep=True)
            try:
                dup = key in seen
                seen.add(key)
            except TypeError:  # an unhashable key: PyYAML's own error follows
                continue
            if dup:
                raise yaml.constructor.ConstructorError(None, None, f"key '{key}' appears twice",
                                                        key_node.start_mark)
        return yaml.SafeLoader.construct_mapping(loader, node, deep)

    def deep_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> dict[Any, Any]:
        return mapping(loader, node, deep=True)

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, deep_mapping)
    return Loader


def _yaml_size(node: yaml.Node, memo: dict[int, int], limit: int) -> int:
    """Nodes of the document once every alias is expanded, counted on the shared graph."""
    import yaml

    key = id(node)
    if key in memo:
        return memo[key]
    memo[key] = 1  # a recursive alias counts once (and PyYAML rejects it later anyway)
    total = 1
    if isinstance(node, yaml.SequenceNode):
        for child in node.value:
            total += _yaml_size(child, memo, limit)
            if total > limit:
                break
    elif isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            total += _yaml_size(k, memo, limit) + _yaml_size(v, memo, limit)
            if total > limit:
                break
    memo[key] = total
    return total


def load_yaml(text: str, *, source: str, error: type | None = None) -> Any:
    """``yaml.safe_load`` that refuses duplicate keys and alias bombs, with one-line errors."""
    import yaml

    from ragdx.errors import RagdxError

    error = error or RagdxError
    loader = None
    try:
        loader = _yaml_loader()(text)
        node = loader.get_single_node()
        if node is None:
            return None
        if _yaml_size(node, {}, MAX_YAML_NODES) > MAX_YAML_NODES:
            raise error(f"expands to more than {MAX_YAML_NODES:,} values through its aliases", source=source)
        return loader.construct_document(node)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        problem = getattr(exc, "problem", None) or getattr(exc, "reason", None) or str(exc)
        raise error(f"not valid YAML ({' '.join(str(problem).split())})", source=source,
                    field=f"line {mark.line + 1}" if mark else None) from None
    except RecursionError:
        raise error("not valid YAML (nested too deeply)", source=source) from None
    finally:
        if loader is not None:
            loader.dispose()


def read_structured(path: str | Path, *, error: type | None = None) -> Any:
    """A JSON (``.json``) or YAML file's content; unreadable, undecodable or malformed files, and
    keys given twice, raise ``error`` (a RagdxError subclass) naming the file and, where known,
    the line."""
    from ragdx.errors import RagdxError

    error = error or RagdxError
    path = Path(path)
    text = read_text(path, error=error)
    if path.suffix == ".json":
        try:
            return json.loads(text, object_pairs_hook=unique_keys)
        except DuplicateKey as exc:
            raise error(f"key '{exc.key}' appears twice", source=str(path)) from None
        except (ValueError, RecursionError) as exc:
            raise error(f"not valid JSON ({exc if not isinstance(exc, RecursionError) else 'nested too deeply'})",
                        source=str(path)) from None
    return load_yaml(text, source=str(path), error=error)


#: The file every directory ragdx creates carries: proof that ragdx wrote it, so ``--overwrite``
#: may replace it. File names prove nothing (a person's own ``manifest.json`` and ``summary.md``
#: look like ragdx's), so nothing without this mark is ever deleted or written over.
OWNER_MARK = ".ragdx-output"
#: 1: ``{"written_by": "ragdx"}`` alone (no list of files, so what a person added later cannot be
#: told apart); 2: with a random id, the kind of output, the version and the files written.
MARK_FORMAT = 2
_DELETE_IT_YOURSELF = "ragdx replaces only what it can prove it wrote: delete it yourself, or choose another path"


def write_owner_mark(directory: str | Path, *, kind: str, files: list[str] | None) -> None:
    """Mark ``directory`` as ragdx's. ``files``: every file it holds, for a directory written whole
    (a staged one); None for one ragdx adds its own named files to over time (a run, the demo's)."""
    import uuid

    import ragdx

    write_json(Path(directory) / OWNER_MARK, {"written_by": "ragdx", "format": MARK_FORMAT,
                                              "id": uuid.uuid4().hex, "kind": kind,
                                              "version": ragdx.__version__, "files": files})


def read_owner_mark(directory: str | Path) -> dict[str, Any] | None:
    """The mark of a directory ragdx created (format 2), or None."""
    path = Path(directory) / OWNER_MARK
    if path.is_symlink() or not path.is_file():
        return None
    try:
        mark = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(mark, dict) or mark.get("written_by") != "ragdx" or mark.get("format") != MARK_FORMAT:
        return None
    return mark


def files_under(directory: str | Path) -> list[str]:
    """Every entry but a plain directory under ``directory`` (files, links, a link to a directory
    not followed), as sorted relative POSIX paths: what a mark lists."""
    directory = Path(directory)
    found: list[str] = []
    for root, dirs, files in os.walk(directory):
        base = Path(root).relative_to(directory)
        found.extend((base / name).as_posix() for name in files)
        found.extend((base / name).as_posix() for name in dirs if (Path(root) / name).is_symlink())
    return sorted(found)


def not_ours(directory: str | Path, *, ignore: Iterable[str] = ()) -> str | None:
    """Why writing over ``directory`` could lose something of a person's; None when it cannot
    (it is empty but for ``ignore``, or carries ragdx's mark and nothing it did not write).

    A marked directory holding a file its mark does not list is refused too: the mark proves who
    made the directory, not who put every file in it since, and a person's notes saved into an
    output folder would go with it. A file ragdx wrote and a person then edited in place cannot
    be told apart (names are listed, not contents): it is ragdx's output, and replacing it is what
    --overwrite asks for."""
    directory = Path(directory)
    entries = [e for e in directory.iterdir() if e.name not in set(ignore)]
    if not entries:
        return None
    mark = read_owner_mark(directory)
    if mark is None:
        if (directory / OWNER_MARK).exists():
            return f"was written by an earlier ragdx, whose mark does not list its files; {_DELETE_IT_YOURSELF}"
        return f"not written by ragdx (it has no {OWNER_MARK} mark; an earlier ragdx wrote none); {_DELETE_IT_YOURSELF}"
    if mark.get("files") is None:
        return None
    extra = sorted(set(files_under(directory)) - set(mark["files"]) - {OWNER_MARK, *ignore})
    if extra:
        return (f"holds {len(extra)} file(s) ragdx did not write ({extra[0]}{', …' if len(extra) > 1 else ''}); "
                f"{_DELETE_IT_YOURSELF}")
    return None


def written_by_ragdx(directory: str | Path) -> bool:
    """Whether ``directory`` is a ragdx output (or empty), i.e. whether replacing it loses nothing
    of the user's (:func:`not_ours` says why not)."""
    return not_ours(directory) is None


def check_replaceable(target: str | Path, overwrite: bool) -> None:
    """Refuse, in one line, to write over anything but a directory ragdx wrote whole itself."""
    from ragdx.errors import RagdxError

    target = Path(target)
    if target.name in ("", ".."):  # '.' or '..': the staging siblings need the directory's own name
        target = Path(os.path.abspath(target))
    recover_staged(target)
    if not target.exists() and not target.is_symlink():
        return
    if not overwrite:
        raise RagdxError("already exists (pass --overwrite to replace it)", source=str(target))
    if target.is_symlink():
        # replacing the link would leave its target as it was, and a person who links an output
        # folder elsewhere means the folder: never guess which
        raise RagdxError(f"is a symbolic link; {_DELETE_IT_YOURSELF}", source=str(target))
    if not target.is_dir():
        raise RagdxError(f"is a file, not a directory ragdx wrote; {_DELETE_IT_YOURSELF}", source=str(target))
    mark = read_owner_mark(target)
    if mark is not None and mark.get("files") is None:
        raise RagdxError(f"is a ragdx {mark.get('kind')} directory, which gathers files over time, not an output "
                         f"ragdx writes whole; {_DELETE_IT_YOURSELF}", source=str(target))
    reason = not_ours(target)
    if reason:
        raise RagdxError(reason, source=str(target))


def check_writable_directory(directory: str | Path, *, ignore: Iterable[str] = (), kind: str | None = None) -> None:
    """Before writing ragdx's own named files into ``directory`` (a run, the demo's, a comparison):
    it must be absent, empty but for ``ignore``, or carry ragdx's mark, so no name ragdx writes can
    be a person's file. ``kind``: the mark must be of that kind too (a run started afresh deletes
    its manifest.json, which in a dataset or knowledge base is another output's)."""
    from ragdx.errors import RagdxError

    directory = Path(directory)
    if directory.is_symlink():
        raise RagdxError(f"is a symbolic link; {_DELETE_IT_YOURSELF}", source=str(directory))
    if not directory.exists():
        return
    if not directory.is_dir():
        raise RagdxError("exists and is not a directory", source=str(directory))
    mark = read_owner_mark(directory)
    if mark is None:
        reason = not_ours(directory, ignore=ignore)
        if reason:
            raise RagdxError(reason, source=str(directory))
    elif kind is not None and mark.get("kind") != kind:
        raise RagdxError(f"is a ragdx {mark.get('kind')} directory, not a {kind} directory; {_DELETE_IT_YOURSELF}",
                         source=str(directory))


def claim_directory(directory: str | Path, *, kind: str, ignore: Iterable[str] = ()) -> Path:
    """Create (or adopt an empty) ``directory`` for ragdx's named files and mark it, after
    :func:`check_writable_directory`; a directory already marked is kept as it is."""
    directory = Path(directory)
    check_writable_directory(directory, ignore=ignore)
    directory.mkdir(parents=True, exist_ok=True)
    if read_owner_mark(directory) is None:
        write_owner_mark(directory, kind=kind, files=None)
    return directory


def check_output_file(path: str | Path, overwrite: bool, *, option: str = "--out") -> None:
    """Before any work, for an ``-o FILE`` option: an existing file is replaced only with
    ``--overwrite`` (then atomically, by the writer); a directory or anything but a plain file
    never."""
    from ragdx.errors import RagdxError

    path = Path(path)
    if not path.exists() and not path.is_symlink():
        return
    if path.is_dir():
        raise RagdxError("is a directory; name the file to write", source=str(path), field=option)
    if not overwrite:
        raise RagdxError("already exists (pass --overwrite to replace it)", source=str(path), field=option)
    if path.is_symlink() or not path.is_file():
        # os.replace would swap the link for a file, leaving what it points at unchanged
        raise RagdxError(f"is a link or not a plain file; {_DELETE_IT_YOURSELF}", source=str(path), field=option)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def recover_staged(target: str | Path) -> None:
    """Undo what a killed :func:`staged_directory` left next to ``target``.

    A kill between moving the old copy aside and moving the new one in leaves no ``target`` and a
    complete ``.target.old``: it is moved back. A ``.target.old`` next to an existing target is a
    leftover of a finished replacement. Staging directories of processes that no longer run are
    removed; a live process's stage (another writer at work) is left alone.
    """
    target = Path(target)
    parent = target.parent
    if not parent.is_dir():
        return
    old = target.with_name(f".{target.name}.old")
    if old.is_dir():
        if target.exists():
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(old, target)
    pattern = re.compile(rf"\.{re.escape(target.name)}\.(\d+)\.[^/]*\.partial")
    for entry in parent.iterdir():
        match = pattern.fullmatch(entry.name)
        if match and entry.is_dir() and not _alive(int(match.group(1))):
            shutil.rmtree(entry, ignore_errors=True)


@contextlib.contextmanager
def staged_directory(target: str | os.PathLike[str], *, overwrite: bool = False,
                     kind: str = "output") -> Iterator[Path]:
    """Yield an empty staging directory next to ``target``; on success it replaces ``target``.

    Only an empty directory or one ragdx wrote is ever replaced (``check_replaceable``). On any
    exception the staging directory is removed and ``target`` is untouched."""
    target = Path(target)
    check_replaceable(target, overwrite)
    target.parent.mkdir(parents=True, exist_ok=True)
    # the pid in the name lets the next start tell a dead writer's leftovers from a live one's
    stage = Path(tempfile.mkdtemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".partial", dir=target.parent))
    try:
        os.chmod(stage, default_mode(target, directory=True))
        yield stage
        write_owner_mark(stage, kind=kind, files=files_under(stage))
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
