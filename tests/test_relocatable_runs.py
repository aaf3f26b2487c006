"""Runs that move: a run directory records its dataset by content hash, by a path relative to the
run directory and by an absolute hint, so that a run copied elsewhere with its dataset, or
evaluated from another working directory, evaluates to identical results; ``--dataset`` points at
a dataset that moved on its own; a dataset with other content is refused (exit 2, one line).

"Identical" here: ``judgements.jsonl`` and ``blame.jsonl`` byte for byte, ``metrics.json`` equal as
JSON once the fields that say where the run is now are left out (``source.path``,
``source.relative_path``, ``inputs.source`` and, where the layout changed, ``inputs.dataset_path``),
and ``summary.md`` equal once the run's path on its "Source:" line is left out."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import ragdx as api
from ragdx.errors import RagdxError
from ragdx.gen.dataset import read_records
from ragdx.rag.run_dataset import resolve_dataset
from ragdx.rag.runner import run
from ragdx.rag.systems import CallableSystem
from tests.support.small_demo import build_small_demo

KEYWORD = "name: keyword\nchunker: {type: whole_document}\nretriever: {type: keyword}\ngenerator: {type: extractive}\n"
FAST = ("--judge", "contains", "--boot", "100", "--no-rouge")


def ragdx(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    # no wall-clock limit of its own: pytest's per-test timeout stops a hang, and a busy machine
    # only makes these slower
    return subprocess.run([sys.executable, "-m", "ragdx.cli", *args], capture_output=True, text=True, cwd=cwd,
                          env=env)


@contextlib.contextmanager
def hidden(path: Path):
    """``path`` out of reach while the block runs: whatever is evaluated cannot have read it."""
    away = path.with_name(path.name + ".hidden")
    path.rename(away)
    try:
        yield
    finally:
        away.rename(path)


def _metrics(evaluation: Path, *, layout_kept: bool) -> dict:
    m = json.loads((evaluation / "metrics.json").read_text(encoding="utf-8"))
    for key in ("path", "relative_path"):
        m["source"].pop(key, None)
    m["inputs"].pop("source")
    if not layout_kept:
        m["inputs"].pop("dataset_path")
    return m


def _summary(evaluation: Path) -> list[str]:
    lines = (evaluation / "summary.md").read_text(encoding="utf-8").splitlines()
    return [line.split("`", 2)[2] if line.startswith("Source: run `") else line for line in lines]


def assert_identical(a: Path, b: Path, *, layout_kept: bool = True) -> None:
    for name in ("judgements.jsonl", "blame.jsonl"):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    assert _metrics(a, layout_kept=layout_kept) == _metrics(b, layout_kept=layout_kept)
    assert _summary(a) == _summary(b)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """``root/orig/demo-out``: the small demo, a keyword-overlap run made from ``root/orig`` as a
    user would (``ragdx run -d demo-out/dataset -o demo-out/runs/keyword``) and its evaluation
    from there, the baseline every other evaluation must equal. Copies of it go under other
    names: its knowledge base, named ``demo-out/kb``, is found where it was relative to the
    dataset."""
    root = tmp_path_factory.mktemp("relocate")
    orig = root / "orig"
    build_small_demo(orig / "demo-out")
    # the knowledge base named relative to the working directory, as `ragdx demo --out demo-out` writes it
    manifest = json.loads((orig / "demo-out" / "dataset" / "manifest.json").read_text())
    manifest["knowledge_base"] = "demo-out/kb"
    (orig / "demo-out" / "dataset" / "manifest.json").write_text(json.dumps(manifest))
    (orig / "demo-out" / "keyword.yaml").write_text(KEYWORD, encoding="utf-8")
    r = ragdx("run", "-d", "demo-out/dataset", "-o", "demo-out/runs/keyword", "--system", "demo-out/keyword.yaml",
              "--no-progress", cwd=orig)
    assert r.returncode == 0, r.stderr
    r = ragdx("evaluate", "demo-out/runs/keyword", *FAST, cwd=orig)
    assert r.returncode == 0, r.stderr
    return root, orig / "demo-out"


@pytest.mark.slow
def test_evaluate_from_inside_the_output_directory(world):
    root, demo = world
    # the case: `cd demo-out && ragdx evaluate runs/keyword` ("pass the dataset explicitly" before)
    r = ragdx("evaluate", "runs/keyword", "-o", str(root / "inside"), *FAST, cwd=demo)
    assert r.returncode == 0, r.stderr
    assert_identical(demo / "runs" / "keyword" / "evaluation", root / "inside")


@pytest.mark.slow
def test_a_copy_with_its_dataset_evaluates_the_same_from_anywhere(world):
    root, demo = world
    far = root / "far" / "a"
    shutil.copytree(demo, far / "copy")
    shutil.rmtree(far / "copy" / "runs" / "keyword" / "evaluation")
    with hidden(demo.parent):  # the original (the manifest's absolute path) is gone
        plain = ragdx("evaluate", "a/copy/runs/keyword", "-o", str(root / "far-plain"), *FAST, cwd=root / "far")
        given = ragdx("evaluate", str(far / "copy" / "runs" / "keyword"), "-o", str(root / "far-given"),
                      "--dataset", "copy/dataset", *FAST, cwd=far)
    assert plain.returncode == 0, plain.stderr
    assert given.returncode == 0, given.stderr
    baseline = demo / "runs" / "keyword" / "evaluation"
    assert_identical(baseline, root / "far-plain")
    assert_identical(baseline, root / "far-given")
    # what the evaluation records of its dataset stays true wherever the two go together
    inputs = json.loads((root / "far-plain" / "metrics.json").read_text())["inputs"]
    assert inputs["dataset_path"] == "../../dataset" and len(inputs["dataset_sha256"]) == 64


@pytest.mark.slow
def test_a_run_and_dataset_moved_apart_need_and_take_dataset(world):
    root, demo = world
    run_copy, data_copy = root / "x" / "r1" / "keyword", root / "y" / "ds"
    shutil.copytree(demo / "runs" / "keyword", run_copy)
    shutil.rmtree(run_copy / "evaluation")
    shutil.copytree(demo / "dataset", data_copy)
    shutil.copytree(demo / "kb", root / "y" / "kb")  # the knowledge base stays beside its dataset
    with hidden(demo.parent):
        missing = ragdx("evaluate", str(run_copy), *FAST, cwd=root)
        given = ragdx("evaluate", "x/r1/keyword", "--dataset", "y/ds", *FAST, cwd=root)
        report = ragdx("report", "x/r1/keyword", "--dataset", "y/ds", "-f", "md", "-o", "r.md", "--boot", "100",
                       "--judge", "contains", cwd=root)
        compared = ragdx("compare", "x/r1/keyword", "x/r1/keyword", "--dataset", "y/ds", "--judge", "contains",
                         "--boot", "100", cwd=root)
        in_process = api.evaluate(run_copy, judge="contains", n_boot=100, rouge=False, dataset=data_copy,
                                  out=root / "api-eval")
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1, missing.stderr
    assert f"{run_copy / 'manifest.json'}: dataset.relative_path:" in missing.stderr
    assert "--dataset" in missing.stderr
    assert given.returncode == 0, given.stderr
    assert_identical(demo / "runs" / "keyword" / "evaluation", run_copy / "evaluation", layout_kept=False)
    assert report.returncode == 0, report.stderr
    assert compared.returncode == 0, compared.stderr
    assert in_process.inputs["dataset_path"] == "../../../y/ds"
    assert_identical(run_copy / "evaluation", root / "api-eval")


@pytest.mark.slow
def test_a_run_moved_alone_finds_its_dataset_by_the_absolute_hint(world):
    root, demo = world
    alone = root / "alone" / "keyword"
    shutil.copytree(demo / "runs" / "keyword", alone)
    shutil.rmtree(alone / "evaluation")
    r = ragdx("evaluate", "keyword", *FAST, cwd=root / "alone")
    assert r.returncode == 0, r.stderr
    assert_identical(demo / "runs" / "keyword" / "evaluation", alone / "evaluation", layout_kept=False)


@pytest.mark.slow
def test_a_dataset_with_other_content_is_refused(world):
    root, demo = world
    other = root / "other" / "demo-out"
    shutil.copytree(demo, other)
    records = (other / "dataset" / "records.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(records[0])
    first["answer_text"] = "something else"  # same queries, another gold answer
    records[0] = json.dumps(first)
    (other / "dataset" / "records.jsonl").write_text("\n".join(records) + "\n", encoding="utf-8")
    run_dir = other / "runs" / "keyword"
    with hidden(demo.parent):  # only the changed copy is where the manifest points
        beside = ragdx("evaluate", "runs/keyword", "-o", str(root / "never-1"), *FAST, cwd=other)
    given = ragdx("evaluate", str(demo / "runs" / "keyword"), "--dataset", str(other / "dataset"),
                  "-o", str(root / "never-2"), *FAST, cwd=root)
    for r in (beside, given):
        assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
        assert "manifest.json: dataset.sha256:" in r.stderr and "same queries" in r.stderr
    assert str(run_dir / "manifest.json") in beside.stderr or "runs/keyword/manifest.json" in beside.stderr
    assert not (root / "never-1").exists() and not (root / "never-2").exists()


# ----------------------------------------------------------------------------- in process, fast


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    root = tmp_path_factory.mktemp("small")
    dataset = build_small_demo(root / "w")
    answers = {r.query: r.answer_text for r in read_records(dataset)}
    run(CallableSystem(lambda q: {"answer": answers[q], "contexts": []}, name="oracle"), dataset,
        root / "w" / "runs" / "oracle", progress=False)
    return root / "w"


def test_the_manifest_records_the_dataset_relative_to_the_run(small):
    info = json.loads((small / "runs" / "oracle" / "manifest.json").read_text())["dataset"]
    assert info["relative_path"] == "../../dataset"
    assert info["absolute_path"] == str((small / "dataset").resolve()) and len(info["sha256"]) == 64


def test_resolution_order_and_content_check(small, tmp_path):
    run_dir = small / "runs" / "oracle"
    assert resolve_dataset(run_dir) == run_dir / "../../dataset"
    # a copy of the run beside another copy of the dataset: the relative path wins over the absolute one
    shutil.copytree(small / "dataset", tmp_path / "dataset")
    shutil.copytree(run_dir, tmp_path / "runs" / "oracle")
    assert resolve_dataset(tmp_path / "runs" / "oracle") == tmp_path / "runs" / "oracle" / "../../dataset"
    # the relative one holds other content: the absolute one, which is the run's, is taken
    with (tmp_path / "dataset" / "records.jsonl").open("a", encoding="utf-8") as fh:
        fh.write("\n")
    assert resolve_dataset(tmp_path / "runs" / "oracle") == small / "dataset"
    # given explicitly, other content is refused, naming the manifest and the field
    with pytest.raises(RagdxError, match="dataset.sha256: .*not the dataset this run was made on") as exc:
        resolve_dataset(run_dir, tmp_path / "dataset")
    assert exc.value.source == str(run_dir / "manifest.json")
    with pytest.raises(RagdxError, match="no dataset there") as exc:
        resolve_dataset(run_dir, tmp_path / "nowhere")
    assert exc.value.field == "--dataset"


def test_the_knowledge_base_is_found_beside_a_copied_dataset(small, tmp_path):
    from ragdx.evaluate.runs import judge_run

    shutil.copytree(small, tmp_path / "proj" / "w", ignore=shutil.ignore_patterns("*.sqlite"))
    copy = tmp_path / "proj" / "w"
    # as `ragdx gen -o w/dataset --kb w/kb` run in proj writes it: relative to that working directory
    manifest = json.loads((copy / "dataset" / "manifest.json").read_text())
    manifest["knowledge_base"] = "w/kb"
    (copy / "dataset" / "manifest.json").write_text(json.dumps(manifest))
    found = judge_run(copy / "runs" / "oracle", judge="contains")
    assert found.check.corpus_fingerprint and not any("is not there" in w for w in found.check.warnings)
    assert found.check.dataset_path == "../../dataset"
    shutil.rmtree(copy / "kb")
    lost = judge_run(copy / "runs" / "oracle", judge="contains")
    assert lost.check.corpus_fingerprint is None
    assert any(w.startswith("the dataset's knowledge base w/kb is not there") for w in lost.check.warnings)
