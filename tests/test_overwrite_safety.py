"""ragdx never deletes or overwrites what it did not write (issue 23, item 3).

Every command that writes a directory or a file is pointed at (a) a person's folder holding
their own ``manifest.json`` and ``summary.md`` (names ragdx writes too) beside other files, and
(b) a person's existing file, with and without ``--overwrite`` where the command has it. Each
must refuse in one line with exit 2 and leave the whole tree around them as it was: every
entry's content and mtime, and no entry added or removed (a staging directory left behind
counts). One exception, by design: ``-o FILE --overwrite`` names one file and asks for it to be
replaced (as ``cp -f`` would); a single file carries no mark, so that request is the proof. Then
that file, and nothing else, is replaced whole. A directory ragdx wrote itself must still be
replaceable, or the mark would be a way of refusing everything.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ragdx.cli import app
from ragdx.errors import RagdxError
from tests.support.small_demo import build_small_demo
from tests.support.timing import scaled


@dataclass(frozen=True)
class World:
    """The small demo with two runs over its dataset, both evaluated, and a fitted tester."""

    root: Path
    url: str
    dataset: Path
    kb: Path
    sql: Path
    text: Path
    run_a: Path
    run_b: Path
    tester: Path
    queries: Path


def ragdx(*args: str) -> tuple[int, str]:
    """The CLI in process (the matrix below is ~80 calls); a RagdxError or OSError counts as main()
    reports it: its exit code and its message, which main() prints on one line."""
    result = CliRunner().invoke(app, [str(a) for a in args])
    if isinstance(result.exception, RagdxError):
        return result.exception.exit_code, str(result.exception)
    if isinstance(result.exception, OSError):  # main() prints these in one line too, exit 2
        return 2, f"{result.exception.filename}: {result.exception.strerror}"
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def ragdx_process(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "ragdx.cli", *map(str, args)], capture_output=True, text=True,
                          env=env, timeout=scaled(300))


def _answers(dataset: Path, out: Path, wrong_every: int) -> Path:
    rows = [json.loads(line) for line in (dataset / "records.jsonl").read_text().splitlines()]
    out.write_text("".join(json.dumps({"id": r["id"], "answer": "no idea" if i % wrong_every == 0
                                       else str(r.get("answer_text"))}) + "\n" for i, r in enumerate(rows)))
    return out


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> World:
    return build_world(tmp_path_factory.mktemp("world"))


def build_world(root: Path) -> World:
    """Also used by benchmarks/overwrite_safety.py, which counts what each writer touches."""
    dataset = build_small_demo(root)
    runs = []
    for name, every in (("a", 3), ("b", 2)):
        run_dir = root / "runs" / name
        code, out = ragdx("run", "--dataset", dataset, "--results", _answers(dataset, root / f"{name}.jsonl", every),
                          "-o", run_dir, "--no-progress")
        assert code == 0, out
        code, out = ragdx("evaluate", run_dir, "--judge", "contains", "--boot", "100", "--no-rouge")
        assert code == 0, out
        runs.append(run_dir)
    queries = root / "queries.jsonl"
    queries.write_text("".join(json.dumps({"question": q}) + "\n" for q in
                               ("Who teaches Databases?", "What is the capital of Peru?")))
    tester = root / "tester"
    code, out = ragdx("relevance", "calibrate", root / "kb" / "documents.jsonl", "--corpus-field", "text",
                      "--dataset", dataset, "--retriever", "bm25", "-o", tester, "--no-progress")
    assert code == 0, out
    return World(root, f"sqlite:///{root / 'demo.sqlite'}", dataset, root / "kb", root / "templates" / "sql.yaml",
                 root / "templates" / "text.yaml", runs[0], runs[1], tester, queries)


# ----------------------------------------------------------------------------- every writer

Args = Callable[[World, Path], list]


@dataclass(frozen=True)
class Writer:
    name: str
    args: Args  # the command line, writing to the given path
    overwrite: bool  # whether the command has --overwrite
    makes: str  # "dir" or "file"


WRITERS = [
    Writer("kb render", lambda w, o: ["kb", "render", "--db", w.url, "-o", o], True, "dir"),
    Writer("kb link", lambda w, o: ["kb", "link", w.dataset, "--corpus", w.kb / "documents.jsonl", "-o", o],
           True, "dir"),
    Writer("kb audit", lambda w, o: ["kb", "audit", "--db", w.url, "--corpus", w.kb / "documents.jsonl", "-o", o],
           True, "dir"),
    Writer("gen", lambda w, o: ["gen", "--db", w.url, "--sql", w.sql, "--text", w.text, "--n", "1", "-o", o],
           True, "dir"),
    # the templates files are added to, never rewritten (a person edits them): a file that is not
    # one must be refused, not appended to
    Writer("templates sql", lambda w, o: ["templates", "sql", "--db", w.url, "-o", o], False, "file"),
    Writer("templates text", lambda w, o: ["templates", "text", "--db", w.url, "--sql", w.sql, "--n", "1",
                                           "-o", o], False, "file"),
    Writer("run", lambda w, o: ["run", "--dataset", w.dataset, "--results", w.root / "a.jsonl", "-o", o,
                                "--no-progress"], True, "dir"),
    Writer("run --grid", lambda w, o: ["run", "--dataset", w.dataset, "--grid", w.root / "grid.yaml", "-o", o,
                                       "--no-progress"], True, "dir"),
    Writer("evaluate", lambda w, o: ["evaluate", w.run_a, "--judge", "contains", "--boot", "100", "--no-rouge",
                                     "-o", o], False, "dir"),
    Writer("evaluate two runs", lambda w, o: ["evaluate", w.run_a, w.run_b, "--judge", "contains", "--boot", "100",
                                              "--no-rouge", "-o", o], False, "dir"),
    Writer("compare", lambda w, o: ["compare", w.run_a, w.run_b, "--judge", "contains", "--boot", "100", "-o", o],
           False, "dir"),
    Writer("annotate", lambda w, o: ["annotate", w.run_a, "-n", "2", "-o", o], False, "dir"),
    Writer("export", lambda w, o: ["export", w.dataset, w.run_a, "-o", o], True, "file"),
    Writer("report", lambda w, o: ["report", w.run_a, "--boot", "100", "-o", o], True, "file"),
    Writer("report md", lambda w, o: ["report", w.run_a, "--boot", "100", "--format", "md", "-o", o], True, "file"),
    Writer("demo", lambda w, o: ["demo", "-o", o, "--boot", "100", "--no-progress"], False, "dir"),
    Writer("relevance calibrate", lambda w, o: ["relevance", "calibrate", w.kb / "documents.jsonl", "--corpus-field",
                                                "text", "--dataset", w.dataset, "--retriever", "bm25", "-o", o,
                                                "--no-progress"], True, "dir"),
    Writer("relevance test", lambda w, o: ["relevance", "test", w.tester, "--queries", w.queries, "-o", o,
                                           "--no-progress"], True, "file"),
    Writer("relevance monitor", lambda w, o: ["relevance", "monitor", w.tester, w.queries, "--window", "2", "-o", o,
                                              "--no-progress"], True, "file"),
    Writer("relevance report", lambda w, o: ["relevance", "report", w.tester, "--in-knowledge", w.queries,
                                             "--out-of-knowledge", f"x={w.queries}", "-o", o, "--no-progress"],
           True, "file"),
    Writer("relevance bench", lambda w, o: ["relevance", "bench", "--corpus", w.kb / "documents.jsonl",
                                            "--in-knowledge", w.queries, "--out-of-knowledge", f"x={w.queries}",
                                            "-o", o, "--no-progress"], True, "dir"),
]


def users_things(area: Path) -> tuple[Path, Path, Path]:
    """A person's folder (their own manifest.json and summary.md, which ragdx's outputs also hold,
    beside files and a folder of theirs), a person's file, and a folder of theirs holding nothing
    but a manifest.json and a summary.md (issue 23 measured ragdx deleting that one), in ``area``."""
    lookalike = area / "mine-lookalike"
    lookalike.mkdir(parents=True)
    (lookalike / "manifest.json").write_text('{"records": 3}\n')
    (lookalike / "summary.md").write_text("# Results\n\nMy own.\n")
    folder = area / "mine"
    (folder / "drafts").mkdir(parents=True)
    (folder / "manifest.json").write_text('{"project": "thesis", "chapters": 4}\n')
    (folder / "summary.md").write_text("# My summary\n\nWeeks of work.\n")
    (folder / "notes.txt").write_text("do not lose\n")
    (folder / "drafts" / "ch1.tex").write_text("\\chapter{One}\n")
    file = area / "mine.txt"
    file.write_text("my own file\n")
    past = 1_600_000_000_000_000_000  # an old mtime: a rewrite with the same bytes still shows
    for p in (folder / "manifest.json", folder / "summary.md", folder / "notes.txt", folder / "drafts" / "ch1.tex",
              file, lookalike / "manifest.json", lookalike / "summary.md"):
        os.utime(p, ns=(past, past))
    return folder, file, lookalike


def snapshot(area: Path) -> dict[str, tuple]:
    """Every entry under ``area``: kind, size, mtime and content hash (links by their target)."""
    seen = {}
    for root, dirs, files in os.walk(area):
        for name in dirs + files:
            p = Path(root) / name
            st = p.lstat()
            if p.is_symlink():
                seen[str(p.relative_to(area))] = ("link", os.readlink(p))
            elif p.is_dir():
                seen[str(p.relative_to(area))] = ("dir", st.st_mtime_ns)
            else:
                seen[str(p.relative_to(area))] = ("file", st.st_size, st.st_mtime_ns,
                                                   hashlib.sha256(p.read_bytes()).hexdigest())
    return seen


def touched(before: dict, after: dict) -> list[str]:
    return sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))


CASES = [(w, target, overwrite) for w in WRITERS for target in ("folder", "file", "lookalike")
         for overwrite in ((False, True) if w.overwrite else (False,))]


def try_case(world: World, area: Path, writer: Writer, target: str, overwrite: bool) -> tuple[int, str, list[str]]:
    """(exit code, message, entries touched) of one writer pointed at a person's folder or file."""
    folder, file, lookalike = users_things(area)
    before = snapshot(area)
    code, message = ragdx(*writer.args(world, {"folder": folder, "file": file, "lookalike": lookalike}[target]),
                          *(["--overwrite"] if overwrite else []))
    return code, message, touched(before, snapshot(area))


@pytest.fixture(scope="module")
def grid(world):
    write_grid(world)


def write_grid(world: World) -> None:
    (world.root / "grid.yaml").write_text(f"systems:\n  a:\n    kind: results\n    path: {world.root / 'a.jsonl'}\n")


@pytest.mark.parametrize("writer,target,overwrite", CASES,
                         ids=[f"{w.name}-{t}{'-overwrite' if o else ''}".replace(" ", "_") for w, t, o in CASES])
def test_no_writer_touches_a_persons_folder_or_file(world, grid, tmp_path, writer, target, overwrite):
    code, message, changed = try_case(world, tmp_path, writer, target, overwrite)
    if writer.makes == "file" and target == "file" and overwrite:
        assert code == 0, message
        assert changed == ["mine.txt"], f"{writer.name} touched {changed}: {message}"
        assert (tmp_path / "mine.txt").read_text() != "my own file\n"
        return
    assert changed == [], f"{writer.name} touched {changed}: {message}"
    assert code == 2, message
    assert "\n" not in message.strip() and ("mine" in message), message


def test_the_refusal_is_one_line_on_stderr_with_exit_2(world, tmp_path):
    """The in-process matrix reads the error main() prints; here main() itself, for a file and a
    folder writer."""
    folder, file, _ = users_things(tmp_path)
    before = snapshot(tmp_path)
    for args in (["report", world.run_a, "-o", file], ["export", world.dataset, "-o", file],
                 ["kb", "render", "--db", world.url, "-o", folder, "--overwrite"]):
        r = ragdx_process(*args)
        assert r.returncode == 2, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1 and str(tmp_path / "mine") in r.stderr, r.stderr
    assert touched(before, snapshot(tmp_path)) == []


# ----------------------------------------------------------------------------- what ragdx wrote


@pytest.mark.parametrize("writer", [w for w in WRITERS if w.makes == "dir" and w.name not in ("demo", "annotate")],
                         ids=lambda w: w.name.replace(" ", "_"))
def test_a_directory_ragdx_wrote_is_written_again(world, grid, tmp_path, writer):
    """With --overwrite where the command has it; evaluate and compare rewrite their own --out
    without it (as they always did); annotate refuses any existing --out (its sheets hold
    people's ratings)."""
    if writer.name == "relevance bench":
        pytest.skip("needs the knowledge-boundary data or a corpus with enough queries; its directory check is "
                    "the one compare's writer uses (tested here)")
    out = tmp_path / "out"
    code, message = ragdx(*writer.args(world, out))
    assert code == 0, message
    code, message = ragdx(*writer.args(world, out), *(["--overwrite"] if writer.overwrite else []))
    assert code == 0, message


def test_files_ragdx_wrote_are_replaced_only_with_overwrite(world, tmp_path):
    out = tmp_path / "export.jsonl"
    assert ragdx("export", world.dataset, "-o", out)[0] == 0
    first = out.read_bytes()
    code, message = ragdx("export", world.dataset, world.run_a, "-o", out)
    assert code == 2 and "already exists (pass --overwrite" in message and out.read_bytes() == first
    assert ragdx("export", world.dataset, world.run_a, "-o", out, "--overwrite")[0] == 0
    assert out.read_bytes() != first
    # no temporary file is left beside it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["export.jsonl"]


def test_a_marked_directory_with_a_persons_file_added_is_refused(world, tmp_path):
    """The mark proves who made the directory, not who put every file in it since."""
    kb = tmp_path / "kb"
    assert ragdx("kb", "render", "--db", world.url, "-o", kb)[0] == 0
    (kb / "my-notes.md").write_text("mine\n")
    before = snapshot(tmp_path)
    code, message = ragdx("kb", "render", "--db", world.url, "-o", kb, "--overwrite")
    assert code == 2 and "my-notes.md" in message and "did not write" in message
    assert touched(before, snapshot(tmp_path)) == []
    # a file ragdx wrote and the person removed is no reason to refuse
    (kb / "my-notes.md").unlink()
    (kb / "facts.json").unlink()
    assert ragdx("kb", "render", "--db", world.url, "-o", kb, "--overwrite")[0] == 0
    assert (kb / "facts.json").exists()


def test_an_earlier_ragdx_output_without_the_mark_is_left_to_the_person(world, tmp_path):
    """A directory an earlier ragdx wrote (no mark, or the first mark, which lists no files) looks
    like a person's folder with ragdx-like names: it is never deleted; the message says to."""
    for name, mark in (("unmarked", None), ("first-mark", {"written_by": "ragdx"})):
        old = tmp_path / name
        assert ragdx("kb", "render", "--db", world.url, "-o", old)[0] == 0
        if mark is None:
            (old / ".ragdx-output").unlink()
        else:
            (old / ".ragdx-output").write_text(json.dumps(mark))
        before = snapshot(tmp_path)
        code, message = ragdx("kb", "render", "--db", world.url, "-o", old, "--overwrite")
        assert code == 2 and "delete it yourself" in message, message
        assert touched(before, snapshot(tmp_path)) == []


def test_links_are_never_replaced(world, tmp_path):
    kb = tmp_path / "kb"
    assert ragdx("kb", "render", "--db", world.url, "-o", kb)[0] == 0
    (tmp_path / "link").symlink_to(kb)
    (tmp_path / "file").write_text("x\n")
    (tmp_path / "file-link").symlink_to(tmp_path / "file")
    before = snapshot(tmp_path)
    code, message = ragdx("kb", "render", "--db", world.url, "-o", tmp_path / "link", "--overwrite")
    assert code == 2 and "symbolic link" in message
    code, message = ragdx("export", world.dataset, "-o", tmp_path / "file-link", "--overwrite")
    assert code == 2 and "link" in message
    assert touched(before, snapshot(tmp_path)) == []


def test_a_run_directory_ragdx_made_starts_afresh_and_a_persons_does_not(world, tmp_path):
    from ragdx.rag.runner import run
    from ragdx.rag.systems import ResultsFileSystem

    run_dir = tmp_path / "run"
    run(ResultsFileSystem(world.root / "a.jsonl"), world.dataset, run_dir, progress=False)
    assert json.loads((run_dir / ".ragdx-output").read_text())["kind"] == "run"
    run(ResultsFileSystem(world.root / "b.jsonl"), world.dataset, run_dir, progress=False, overwrite=True)
    # the API refuses a person's folder too, not only the CLI
    folder, _, _ = users_things(tmp_path / "area")
    before = snapshot(tmp_path / "area")
    with pytest.raises(RagdxError, match="not written by ragdx"):
        run(ResultsFileSystem(world.root / "a.jsonl"), world.dataset, folder, progress=False, overwrite=True)
    assert touched(before, snapshot(tmp_path / "area")) == []
    # nor another output of ragdx's: starting a run afresh deletes a manifest.json
    before = snapshot(world.dataset)
    with pytest.raises(RagdxError, match="not a run directory"):
        run(ResultsFileSystem(world.root / "a.jsonl"), world.dataset, world.dataset, progress=False, overwrite=True)
    assert touched(before, snapshot(world.dataset)) == []
