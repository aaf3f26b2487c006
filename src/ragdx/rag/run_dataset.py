"""Where a run's dataset is: recorded when the run is made, found again when it is judged.

A run manifest's ``dataset`` names the dataset three ways: by content (``sha256`` of its records
file, ``queries_sha256`` of its ids and queries), by ``relative_path`` from the run directory
(which survives moving or copying the run together with its dataset), and by ``absolute_path``
(a hint for a run moved alone). ``path`` is the path as it was given to ``ragdx run`` (relative
to that command's working directory), kept for manifests written before the other two.

:func:`resolve_dataset` tries, in order, an explicit ``--dataset``, the relative path, the
absolute path and the old ``path``; whichever it takes must have the recorded content hash, so a
run is never judged against another dataset that happens to sit where its own used to be.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from dataclasses import field as dc_field
from pathlib import Path
from typing import Any

from ragdx.errors import RagdxError
from ragdx.rag.rundir import Manifest, RunPaths, queries_sha256
from ragdx.store import gc_paused


def records_file(path: Path) -> Path:
    """The file whose bytes identify a dataset: a directory's ``records.jsonl``, or the file given."""
    return path / "records.jsonl" if path.is_dir() else path


@dataclass(slots=True)
class DatasetQueries:
    """What a run takes from a dataset file: every record's id and query, in the file's order, and
    the SHA-256 of the file's bytes (the dataset's identity in the run manifest)."""

    ids: list[str]
    queries: list[str]
    sha256: str
    #: how the records were checked: ``columns`` (:func:`read_queries`'s fast path) or ``records``
    #: (each validated as a ``QARecord``)
    checked: str
    #: record id -> the conversation before it, for the records that are follow-ups (a system is
    #: asked a turn with its history; held only for those records, not a million empty lists)
    histories: dict[str, list[dict[str, Any]]] = dc_field(default_factory=dict)


@gc_paused()  # a million parsed records, none in a cycle: collecting tripled the parse's cost
def read_queries(path: str | Path) -> DatasetQueries:
    """The ids and queries of a dataset (a directory, its ``records.jsonl`` or ``.parquet``), every
    record checked against the dataset's type first, so a run never starts on a file that
    ``ragdx evaluate`` will refuse.

    Validating each record as a ``QARecord`` (pydantic) cost 43 CPU s of a million-query run, more
    than answering the whole file. So a JSONL file is first checked by columns (:func:`_by_columns`:
    every field of a block of records at once, exact JSON types, in C loops, ~2 µs a record),
    which accepts a record only where that validation accepts it as it is. The first block it
    cannot vouch for (a field missing or of another type, a bad or blank line, a duplicate key)
    sends the whole file through :func:`ragdx.gen.dataset.iter_records` instead, from its start:
    a bad file gets that function's one-line error naming the file, the line and the field, and a
    file it accepts after converting a value (an integer where a float is typed) is read the same
    as before."""
    from ragdx.gen.dataset import iter_records
    from ragdx.store import sha256_file

    path = Path(path)
    file = records_file(path)
    if file.suffix != ".parquet" and file.is_file():
        fast = _by_columns(file)
        if fast is not None:
            return fast
    ids: list[str] = []
    queries: list[str] = []
    histories: dict[str, list[dict[str, Any]]] = {}
    for record in iter_records(path):
        ids.append(record.id)
        queries.append(record.query)
        if record.history:
            histories[record.id] = record.history
    return DatasetQueries(ids, queries, sha256_file(file), "records", histories)


#: blocks of this many bytes of lines are parsed and checked at once
_BLOCK_BYTES = 1 << 22


def _by_columns(file: Path) -> DatasetQueries | None:
    """:func:`read_queries` of a JSONL file in blocks of lines checked by :func:`_block_fits`,
    hashing the bytes as they are read (one pass over the file); None as soon as a block cannot be
    vouched for, or when the file holds no record (the full validation then says what is wrong)."""
    import hashlib
    from operator import itemgetter

    from ragdx.store import parse_lines

    checks = _column_checks()
    if checks is None:
        return None
    digest = hashlib.sha256()
    ids: list[str] = []
    queries: list[str] = []
    histories: dict[str, list[dict[str, Any]]] = {}
    try:
        fh = file.open("rb")
    except OSError:
        return None  # the full path's own error names the file
    with fh:
        while block := fh.readlines(_BLOCK_BYTES):
            digest.update(b"".join(block))
            objs = parse_lines(block)
            if objs is None or not _block_fits(objs, checks):
                return None
            ids.extend(map(itemgetter("id"), objs))
            queries.extend(map(itemgetter("query"), objs))
            histories.update((o["id"], o["history"]) for o in objs if o["history"])
    if not ids:
        return None
    return DatasetQueries(ids, queries, digest.hexdigest(), "columns", histories)


def _types(values: Any) -> set[type]:
    return set(map(type, values))


_NONE = type(None)
#: For each field type of ``QARecord`` (its annotation's text), the exact JSON types its value may
#: have, level by level: the value's, then its items' (for a list), then theirs. Only exact JSON
#: types pass: a value the full validation would convert (``1`` for a float) or refuse fails, and
#: the file goes the full way. A JSON object's keys are always text, so ``dict[str, Any]`` needs
#: no look inside, nor ``Any`` any.
_LEVELS: dict[str, tuple[frozenset[type], ...]] = {
    "str": (frozenset({str}),),
    "int": (frozenset({int}),),
    "dict[str, Any]": (frozenset({dict}),),
    "list[str]": (frozenset({list}), frozenset({str})),
    "list[list[Any]]": (frozenset({list}), frozenset({list})),
    "list[list[str]]": (frozenset({list}), frozenset({list}), frozenset({str})),
    "list[dict[str, Any]]": (frozenset({list}), frozenset({dict})),
    "bool | None": (frozenset({bool, _NONE}),),
    "float | None": (frozenset({float, _NONE}),),
}


def _column_checks() -> list[tuple[tuple[str, ...], tuple[frozenset[type], ...]]] | None:
    """The fields of ``QARecord`` grouped by type: (names, the types of each level); None when a
    field has a type :data:`_LEVELS` does not know (a field added later), or the record checks
    itself after validation: every file then goes the full way rather than be checked by a rule
    that was not written for it."""
    from dataclasses import fields

    from ragdx.gen.dataset import QARecord

    if hasattr(QARecord, "__post_init__"):
        return None  # a check of its own, which only the full validation runs
    groups: dict[tuple[frozenset[type], ...], list[str]] = {}
    for f in fields(QARecord):
        levels = _LEVELS.get(str(f.type))
        if levels is None:
            return None
        groups.setdefault(levels, []).append(f.name)
    return [(tuple(names), levels) for levels, names in groups.items()]


def _fits(values: Any, levels: tuple[frozenset[type], ...]) -> bool:
    """Whether every value has a type of ``levels[0]``, each of their items one of ``levels[1]``,
    and so on; each level is one pass in C over every value of the block."""
    from itertools import chain

    for depth, allowed in enumerate(levels):
        if depth < len(levels) - 1:
            values = list(values)  # walked twice: for its types, then for its items
        if not _types(values) <= allowed:
            return False
        values = chain.from_iterable(values)
    return True


def _block_fits(objs: list[Any], checks: list[tuple[tuple[str, ...], tuple[frozenset[type], ...]]]) -> bool:
    """Every object a dict with exactly the record's fields (all of them: ragdx writes every
    field, so a missing one, which may have a default, goes the full way), the values of each
    group of fields of the exact types its levels allow."""
    from itertools import chain
    from operator import itemgetter

    # as many keys as the record has fields, and every field found below (a KeyError otherwise):
    # exactly the record's fields, with no set built per object
    fields = sum(len(group) for group, _ in checks)
    if not _types(objs) <= {dict} or set(map(len, objs)) != {fields}:
        return False
    try:
        for group, levels in checks:
            # one C pass over the block per group of fields of one type, no column built
            values = (chain.from_iterable(map(itemgetter(*group), objs)) if len(group) > 1
                      else map(itemgetter(group[0]), objs))
            if not _fits(values, levels):
                return False
    except KeyError:
        return False
    return True


def relative_to(path: str | Path, start: str | Path) -> str | None:
    """``path`` relative to the directory ``start`` (with ``/``), both taken after resolving links,
    as the kernel follows ``..`` from where a directory really is; None on another drive."""
    try:
        return Path(os.path.relpath(Path(path).resolve(), Path(start).resolve())).as_posix()
    except ValueError:  # another drive (Windows): no relative path exists
        return None


def dataset_location(path: str | Path, run_dir: str | Path) -> dict[str, str | None]:
    """``relative_path`` (from ``run_dir``) and ``absolute_path`` of a dataset, for the run manifest."""
    return {"relative_path": relative_to(path, run_dir), "absolute_path": str(Path(path).resolve())}


@dataclass(frozen=True)
class RecordedDataset:
    """A run manifest's ``dataset`` field, read."""

    manifest: Path
    sha256: str | None
    queries_sha256: str | None
    relative_path: str | None
    absolute_path: str | None
    path: str | None

    @classmethod
    def read(cls, run_dir: Path) -> RecordedDataset:
        info = Manifest.read(run_dir).dataset

        def text(key: str) -> str | None:
            value = info.get(key)
            return value if isinstance(value, str) and value else None

        return cls(RunPaths(run_dir).manifest, text("sha256"), text("queries_sha256"), text("relative_path"),
                   text("absolute_path"), text("path"))

    def working_directory(self) -> Path | None:
        """The working directory of ``ragdx run``, where ``path`` (as given) is the tail of
        ``absolute_path``; None when that cannot be told (an absolute or ``..`` path)."""
        if not self.path or not self.absolute_path or os.path.isabs(self.path):
            return None
        tail, full = Path(os.path.normpath(self.path)).parts, Path(self.absolute_path).parts
        if ".." in tail or len(tail) >= len(full) or full[-len(tail):] != tail:
            return None
        return Path(*full[:-len(tail)])

    def candidates(self, run_dir: Path) -> list[tuple[str, Path]]:
        """(manifest field, path) in the order they are tried; the old ``path`` was relative to
        the working directory of ``ragdx run``, which may have been the run's parent or the run."""
        out: list[tuple[str, Path]] = []
        if self.relative_path:
            out.append(("dataset.relative_path", run_dir / self.relative_path))
        if self.absolute_path:
            out.append(("dataset.absolute_path", Path(self.absolute_path)))
        if self.path:
            out += [("dataset.path", Path(self.path)), ("dataset.path", run_dir / self.path),
                    ("dataset.path", run_dir.parent / self.path)]
        seen: set[str] = set()
        unique = []
        for field, path in out:
            key = os.path.abspath(path)
            if key not in seen:
                seen.add(key)
                unique.append((field, path))
        return unique


def _mismatch(recorded: RecordedDataset, path: Path, found: str) -> RagdxError:
    """The one-line refusal of a dataset whose records are not the run's, saying whether its
    queries differ too (then the run cannot be judged on it at all) or only its gold side."""
    detail = ""
    try:
        from ragdx.gen.dataset import read_records

        same_queries = queries_sha256((r.id, r.query) for r in read_records(path)) == recorded.queries_sha256
        detail = ("same queries, other gold answers or evidence: `ragdx run` again on it adopts it and keeps "
                  "the answers" if same_queries else "other queries: run again on it")
    except RagdxError:
        detail = "and it cannot be read"
    return RagdxError(
        f"{path} is not the dataset this run was made on: the dataset changed since the run (records sha256 "
        f"{found[:12]}…, the run's {(recorded.sha256 or '')[:12]}…; {detail}); pass --dataset with the run's dataset",
        source=str(recorded.manifest), field="dataset.sha256")


def _matches(recorded: RecordedDataset, path: Path, field: str) -> None:
    from ragdx.store import sha256_file

    file = records_file(path)
    try:
        found = sha256_file(file)
    except OSError as exc:
        raise RagdxError(f"cannot read the dataset ({exc.strerror or exc})", source=str(file), field=field) from None
    if recorded.sha256 is not None and found != recorded.sha256:
        raise _mismatch(recorded, path, found)


def resolve_dataset(run_dir: str | Path, dataset: str | Path | None = None) -> Path | None:
    """The dataset a run directory was made on: ``dataset`` when given (a moved dataset), else the
    first of the manifest's paths that exists (see :func:`RecordedDataset.candidates`). Whichever
    is taken must have the recorded ``sha256``; otherwise, or when none exists, a RagdxError names
    the manifest and the field. None when the run was given records in memory (no path recorded)
    and no ``dataset``."""
    run_dir = Path(run_dir)
    recorded = RecordedDataset.read(run_dir)
    if dataset is not None:
        path = Path(dataset)
        if not path.exists() or path.is_dir() and not records_file(path).exists():
            raise RagdxError("no dataset there (a dataset directory or its records file)", source=str(path),
                             field="--dataset")
        _matches(recorded, path, "--dataset")
        return path
    candidates = recorded.candidates(run_dir)
    if not candidates:
        return None
    present = [(field, path) for field, path in candidates if records_file(path).exists()]
    refusal = None
    for field, path in present:
        try:
            _matches(recorded, path, field)
        except RagdxError as exc:
            # a later candidate may be the run's own dataset (a copy beside the run holds another);
            # the first refusal is reported if none is
            refusal = refusal or exc
            continue
        return path
    if refusal is not None:
        raise refusal
    first_field, first = candidates[0]
    tried = ", ".join(dict.fromkeys(os.path.normpath(os.path.abspath(p)) for _, p in candidates))
    raise RagdxError(f"the run's dataset is not there (tried {tried}); pass --dataset PATH where it is now",
                     source=str(recorded.manifest), field=first_field)


def original_location(run_dir: str | Path) -> RecordedDataset | None:
    """What the run recorded of where its dataset was (None when the manifest cannot be read):
    with it, a path the dataset's own manifest names (its knowledge base) is found again in the
    same place relative to a moved dataset."""
    try:
        return RecordedDataset.read(Path(run_dir))
    except RagdxError:
        return None


def beside_dataset(where: str, dataset_dir: Path, recorded: RecordedDataset | None) -> list[Path]:
    """Where to look for a path the dataset's manifest names (its knowledge base), nearest the
    dataset first, so that data moved together stays together. ``where`` as it was when the run
    was made (absolute, or relative to the working directory of ``ragdx run``, taken to be that
    of the command that made the dataset too) is taken at the same place relative to
    ``dataset_dir`` as it was to the dataset then; then, a relative ``where`` is looked for under
    the dataset's directory and each directory above it (the command that made the dataset ran in
    one of them); last, ``where`` as it is."""
    out = []
    original = Path(recorded.absolute_path) if recorded is not None and recorded.absolute_path else None
    workdir = recorded.working_directory() if recorded is not None else None
    then = where if os.path.isabs(where) else (str(workdir / where) if workdir is not None else None)
    if original is not None and then is not None:
        original_dir = original.parent if original.suffix in (".jsonl", ".parquet") else original
        with contextlib.suppress(ValueError):  # another drive (Windows): no relative path
            out.append(dataset_dir / os.path.relpath(then, original_dir))
    if not os.path.isabs(where):
        here = dataset_dir.resolve()
        out += [base / where for base in (here, *here.parents)]
    return [*out, Path(where)]


def describe(path: Path, run_dir: Path) -> dict[str, Any]:
    """What an evaluation records of the dataset it used: its content hash and where it was,
    relative to the run directory (stable when both move together) and absolute."""
    from ragdx.store import sha256_file

    return {"sha256": sha256_file(records_file(path)), **dataset_location(path, run_dir)}
