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

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragdx.errors import RagdxError

MANIFEST = "manifest.json"


def queries_sha256(pairs: Iterable[tuple[str, str]]) -> str:
    """The hash of a dataset's (id, query) pairs in order: what a run's answers depend on."""
    blob = json.dumps([[i, q] for i, q in pairs], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


def records_file(path: Path) -> Path:
    """The file whose bytes identify a dataset: a directory's ``records.jsonl``, or the file given."""
    return path / "records.jsonl" if path.is_dir() else path


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
        manifest = run_dir / MANIFEST
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise RagdxError(f"cannot read the run manifest ({exc})", source=str(manifest)) from None
        info = data.get("dataset") if isinstance(data, dict) else None
        info = info if isinstance(info, dict) else {}

        def text(key: str) -> str | None:
            value = info.get(key)
            return value if isinstance(value, str) and value else None

        return cls(manifest, text("sha256"), text("queries_sha256"), text("relative_path"), text("absolute_path"),
                   text("path"))

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


def original_location(run_dir: str | Path) -> Path | None:
    """Where the run's dataset was when the run was made (its absolute path), or None: with it, a
    path the dataset's own manifest wrote absolute (its knowledge base) can be found again in the
    same place relative to a moved dataset."""
    try:
        recorded = RecordedDataset.read(Path(run_dir))
    except RagdxError:
        return None
    return Path(recorded.absolute_path) if recorded.absolute_path else None


def moved_along(where: str, dataset_dir: Path, original: Path | None) -> Path | None:
    """``where`` (a path in the dataset's manifest, absolute as written when it was made) at the same
    place relative to ``dataset_dir`` as it was to the dataset's ``original`` directory."""
    if original is None or not os.path.isabs(where):
        return None
    original_dir = original.parent if original.suffix in (".jsonl", ".parquet") else original
    try:
        return dataset_dir / os.path.relpath(where, original_dir)
    except ValueError:
        return None


def describe(path: Path, run_dir: Path) -> dict[str, Any]:
    """What an evaluation records of the dataset it used: its content hash and where it was,
    relative to the run directory (stable when both move together) and absolute."""
    from ragdx.store import sha256_file

    return {"sha256": sha256_file(records_file(path)), **dataset_location(path, run_dir)}
