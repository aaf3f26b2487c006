"""The run directory has one owner (``ragdx.rag.rundir``): its manifest round-trips whole, unknown
keys included, and no other module reads a run's files by hand (checked from the source)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from ragdx.errors import RagdxError
from ragdx.rag.rundir import MANIFEST, Manifest, RunPaths, is_run_directory, read_manifest
from ragdx.rag.runner import record_exit, run
from ragdx.rag.systems import CallableSystem
from tests.test_runner import make_dataset, suffix_answer

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "ragdx"

#: the file names of a run directory, and the modules that may name them: the owner of the run
#: directory, and the owners of other formats that have a manifest.json of their own
RUN_FILES = ("manifest.json", "results.jsonl", "inputs.jsonl")
OWNERS: dict[str, tuple[str, ...]] = {
    "rag/rundir.py": RUN_FILES,
    "gen/dataset.py": ("manifest.json",),  # a dataset's manifest
    "kb/render.py": ("manifest.json",),  # a rendered knowledge base's
    "evaluate/report.py": ("manifest.json",),  # an evaluation's (RUN_DIR/evaluation)
}


def hand_readers(package: Path) -> list[str]:
    """``path:line: why`` for each place outside the owners that names a run directory's file,
    or reads JSON in a function that takes a run's manifest path from ``ragdx.rag.rundir``."""
    found = []
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        allowed = OWNERS.get(rel, ())
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                name = node.value.rsplit("/", 1)[-1]
                if name in RUN_FILES and name not in allowed:
                    found.append(f"{rel}:{node.lineno}: names {name!r}")
        if rel != "rag/rundir.py":
            found += [f"{rel}:{line}: parses the run manifest by hand" for line in _json_beside_manifest(tree)]
    return found


def _json_beside_manifest(tree: ast.AST) -> list[int]:
    """Lines where JSON is parsed from the run manifest's path, as ``rundir`` names it
    (``MANIFEST`` imported from it, or ``RunPaths(...).manifest``), directly or through a variable."""
    from_owner = any(isinstance(n, ast.ImportFrom) and n.module == "ragdx.rag.rundir"
                     and any(a.name == "MANIFEST" for a in n.names) for n in ast.walk(tree))

    def names_manifest(node: ast.AST, tainted: set[str]) -> bool:
        return any(from_owner and isinstance(n, ast.Name) and n.id == "MANIFEST"
                   or isinstance(n, ast.Name) and n.id in tainted
                   or isinstance(n, ast.Attribute) and n.attr == "manifest" and isinstance(n.value, ast.Call)
                   and getattr(n.value.func, "id", "") == "RunPaths" for n in ast.walk(node))

    lines = []
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        tainted: set[str] = set()
        for n in ast.walk(fn):
            if isinstance(n, ast.Assign) and names_manifest(n.value, tainted):
                tainted |= {t.id for t in n.targets if isinstance(t, ast.Name)}
        lines += [n.lineno for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                  and n.func.attr in ("load", "loads") and getattr(n.func.value, "id", "") in ("json", "orjson")
                  and any(names_manifest(a, tainted) for a in n.args)]
    return lines


def test_no_module_but_the_owner_reads_a_run_directory_by_hand():
    found = hand_readers(PACKAGE)
    assert not found, "go through ragdx.rag.rundir: " + "; ".join(found)


def test_the_check_finds_a_module_that_reads_a_manifest_by_hand(tmp_path):
    # the check itself can fail: a module naming the file, and one joining the owner's name with json
    (tmp_path / "evaluate").mkdir()
    (tmp_path / "evaluate" / "peek.py").write_text(
        "import json\n\ndef status(run_dir):\n"
        "    return json.loads((run_dir / 'manifest.json').read_text())['status']\n")
    (tmp_path / "report.py").write_text(
        "import json\nfrom ragdx.rag.rundir import MANIFEST\n\ndef status(run_dir):\n"
        "    path = run_dir / MANIFEST\n    return json.loads(path.read_text())['status']\n")
    (tmp_path / "rag").mkdir()
    (tmp_path / "rag" / "rundir.py").write_text("MANIFEST = 'manifest.json'\n")  # the owner may
    assert hand_readers(tmp_path) == ["evaluate/peek.py:4: names 'manifest.json'",
                                      "report.py:6: parses the run manifest by hand"]


def test_a_runs_manifest_round_trips_with_unknown_keys_kept(tmp_path):
    run_dir = tmp_path / "run"
    run(CallableSystem(suffix_answer), make_dataset(tmp_path / "ds", 5), run_dir, progress=False)
    path = RunPaths(run_dir).manifest
    written = json.loads(path.read_text(encoding="utf-8"))
    assert Manifest.read(run_dir).to_dict() == written
    assert list(Manifest.read(run_dir).to_dict()) == list(written)  # key order too

    # a newer ragdx's keys, one among the known ones and one inside an invocation
    newer = {}
    for key, value in written.items():
        newer[key] = value
        if key == "dataset":
            newer["shard"] = {"index": 2, "of": 8}
    newer["invocations"][-1]["host"] = "node-7"
    path.write_text(json.dumps(newer, indent=2), encoding="utf-8")
    manifest = Manifest.read(run_dir)
    assert manifest.extra == {"shard": {"index": 2, "of": 8}}
    assert json.dumps(manifest.to_dict()) == json.dumps(newer)  # same keys, values and order

    # what ragdx writes back keeps them: an exit verdict, and a resume of the same run
    record_exit(run_dir, 1, "every record sent failed")
    run(CallableSystem(suffix_answer), make_dataset(tmp_path / "ds", 5), run_dir, progress=False)
    after = json.loads(path.read_text(encoding="utf-8"))
    assert after["shard"] == {"index": 2, "of": 8} and after["invocations"][0]["host"] == "node-7"
    assert list(after).index("shard") == list(after).index("dataset") + 1
    assert after["exit"] == {"code": 1, "reason": "every record sent failed"}
    assert len(after["invocations"]) == 2


def test_an_older_manifest_round_trips_without_gaining_fields():
    # as an early ragdx wrote it: no counts yet, no LLM usage, no exit
    older = {"format": 1, "system": {"name": "s", "config": {"k": 1}}, "dataset": {"queries_sha256": "ab"},
             "versions": {"ragdx": "0.1"}, "started": "2025-01-01T00:00:00+00:00", "ended": None,
             "status": "complete", "invocations": [], "tokens": {"prompt": 0, "completion": 0}}
    manifest = Manifest.from_dict(json.loads(json.dumps(older)))
    assert manifest.to_dict() == older and list(manifest.to_dict()) == list(older)
    assert manifest.llm_usage is None and manifest.counts is None and manifest.is_run()
    manifest.exit = {"code": 1, "reason": "x"}
    assert list(manifest.to_dict()) == [*older, "exit"]
    # a new one has the fields a run writes at its start, in that order
    assert list(Manifest().to_dict()) == ["format", "system", "dataset", "versions", "started", "ended",
                                          "status", "invocations"]


def test_a_bad_manifest_is_one_line_naming_file_and_field(tmp_path):
    run_dir = tmp_path / "run"
    run(CallableSystem(suffix_answer), make_dataset(tmp_path / "ds", 3), run_dir, progress=False)
    path = RunPaths(run_dir).manifest
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**data, "system": "a name"}), encoding="utf-8")
    with pytest.raises(RagdxError) as err:
        Manifest.read(run_dir)
    assert err.value.source == str(path) and err.value.field == "system"
    path.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(RagdxError, match="not a run manifest"):
        read_manifest(run_dir)
    path.write_text("{", encoding="utf-8")
    with pytest.raises(RagdxError, match="cannot read the run manifest"):
        Manifest.read(run_dir)


def test_a_run_directory_is_told_by_its_manifest_and_inputs(tmp_path):
    run_dir = tmp_path / "run"
    assert not is_run_directory(run_dir)
    run(CallableSystem(suffix_answer), make_dataset(tmp_path / "ds", 3), run_dir, progress=False)
    assert is_run_directory(run_dir)
    (run_dir / MANIFEST).unlink()
    assert not is_run_directory(run_dir)
