"""Every registered system kind goes through the same checks (issue 20): it is built from a spec,
its ``describe()`` is read back as the spec that rebuilds it, a bad spec is one line naming the
field, and it answers queries of the small demo through the runner. The http and openai kinds
talk to the project's real test servers; nothing is mocked. Then: the Python API's ``ragdx.run``
and the CLI's ``ragdx run`` write equal manifests for the same job."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ragdx
from ragdx.errors import RagdxError
from ragdx.gen.dataset import read_records
from ragdx.rag.resolve import SystemRequest, as_system, request_from_options, spec_of, system_kinds
from ragdx.rag.runner import run
from ragdx.rag.types import System
from tests.support.openai_server import OpenAIServer
from tests.support.rag_http_server import RAGServer
from tests.support.small_demo import build_small_demo

REPO = Path(__file__).resolve().parents[1]
#: the key each kind cannot do without: a spec lacking it names it
REQUIRED = {"pipeline": "retriever", "callable": "target", "http": "url", "openai": "base_url", "results": "path",
            "traces": "path"}


def kb_answer(query: str) -> str:
    """A callable system's answer (imported by its ``pkg.mod:function`` target)."""
    return f"asked: {query}"


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Iterator[dict[str, Any]]:
    """The small demo, a spec of every kind over it, and the servers the http kinds call."""
    root = tmp_path_factory.mktemp("conformance")
    dataset = build_small_demo(root / "w", max_groups=1, per_group=1, n=1)
    records = read_records(dataset)[:3]
    (root / "answers.jsonl").write_text("".join(json.dumps({"id": r.id, "answer": f"stored {r.id}"}) + "\n"
                                                for r in records), encoding="utf-8")
    (root / "traces.jsonl").write_text("".join(json.dumps({
        "context": {"trace_id": f"t{i}", "span_id": f"s{i}"}, "parent_id": None, "name": "rag",
        "start_time": "2026-01-01T00:00:00Z",
        "attributes": {"input.value": r.query, "output.value": f"traced {r.id}"}}) + "\n"
        for i, r in enumerate(records)), encoding="utf-8")
    with RAGServer() as rag, OpenAIServer() as chat:
        specs = {
            "pipeline": {"kind": "pipeline", "name": "bm25", "corpus": str(root / "w" / "kb"), "top_k": 2,
                         "retriever": {"type": "bm25"}},
            "callable": {"kind": "callable", "target": "tests.test_system_conformance:kb_answer"},
            "http": {"kind": "http", "url": rag.url, "body": {"q": "{query}", "rid": "{id}"},
                     "answer_path": "data.result.text", "contexts_path": "data.hits", "context_id": "doc.key",
                     "context_text": "doc.body", "context_score": "relevance"},
            "openai": {"kind": "openai", "base_url": chat.base_url, "model": "test-model"},
            "results": {"kind": "results", "path": str(root / "answers.jsonl")},
            "traces": {"kind": "traces", "path": str(root / "traces.jsonl")},
        }
        yield {"root": root, "dataset": dataset, "records": records, "specs": specs}


def test_every_registered_kind_has_a_conformance_spec(world):
    # a kind registered without a spec here would escape every check below
    assert sorted(world["specs"]) == sorted(system_kinds()) == sorted(REQUIRED)


@pytest.mark.parametrize("kind", system_kinds())
def test_built_from_its_spec_it_answers_the_demo(world, kind, tmp_path):
    system = as_system(world["specs"][kind])
    assert isinstance(system, System)
    summary = run(system, world["dataset"], tmp_path / kind, limit=3, progress=False)
    assert (summary.ok, summary.failed) == (3, 0), kind
    answers = [json.loads(line)["answer"] for line in (tmp_path / kind / "results.jsonl").read_text().splitlines()]
    assert all(isinstance(a, str) and a.strip() for a in answers), answers


@pytest.mark.parametrize("kind", system_kinds())
def test_describe_reads_back_as_the_spec_that_rebuilds_it(world, kind):
    system = as_system(world["specs"][kind])
    spec = spec_of(system)
    rebuilt = as_system(spec)
    assert rebuilt.describe() == system.describe()
    assert type(rebuilt) is type(system)
    # and it is plain data: what a run's manifest or a Ray worker holds rebuilds it too
    assert as_system(json.loads(json.dumps(spec))).describe() == system.describe()


@pytest.mark.parametrize("kind", system_kinds())
def test_a_bad_spec_is_one_line_naming_the_field(world, kind):
    spec = world["specs"][kind]
    for bad, field in (({**spec, "retires": 3}, "retires"),
                       ({**spec, "name": ["not", "a", "name"]}, "name"),
                       ({k: v for k, v in spec.items() if k != REQUIRED[kind]}, REQUIRED[kind])):
        with pytest.raises(RagdxError) as caught:
            as_system(bad, source="lab.yaml")
        error = caught.value
        assert (error.source, error.field) == ("lab.yaml", field), (kind, str(error))
        assert "\n" not in str(error) and str(error).startswith(f"lab.yaml: {field}: "), str(error)


def test_bounds_and_choices_come_from_the_constructor_signature():
    # no second copy of the parameters: the adapter's own annotations reject these
    for spec, field, message in (
            ({"kind": "http", "url": "http://127.0.0.1:9/", "max_concurrency": 0}, "max_concurrency",
             "greater than 0"),
            ({"kind": "http", "url": "http://127.0.0.1:9/", "method": "DELETE"}, "method", "Input should be"),
            ({"kind": "http", "url": "http://127.0.0.1:99999/"}, "url", "not a URL"),
            ({"kind": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "m", "timeout": 0}, "timeout",
             "greater than 0"),
            ({"kind": "callable", "target": "a:b", "backoff": -1}, "backoff", "greater than or equal to 0"),
            ({"kind": "results", "path": "r.jsonl", "match": "row"}, "match", "'id' or 'query'")):
        with pytest.raises(RagdxError, match=message) as caught:
            as_system(spec, source="s.yaml")
        assert (caught.value.source, caught.value.field) == ("s.yaml", field), str(caught.value)


def test_what_a_user_has_at_hand_resolves_to_the_same_system(world, tmp_path):
    specs = world["specs"]
    url = specs["http"]["url"]
    assert as_system(url).describe() == as_system({"kind": "http", "url": url}).describe()
    target = specs["callable"]["target"]
    assert as_system(target).describe() == as_system(kb_answer).describe() == as_system(specs["callable"]).describe()
    answers = specs["results"]["path"]
    assert as_system(answers).describe() == as_system(specs["results"]).describe()
    # a spec file's relative paths are its folder's, wherever the command runs
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "a.jsonl").write_bytes(Path(answers).read_bytes())
    (tmp_path / "spec" / "s.yaml").write_text("kind: results\npath: a.jsonl\n", encoding="utf-8")
    assert as_system(tmp_path / "spec" / "s.yaml").describe()["path"] == str(tmp_path / "spec" / "a.jsonl")
    # the CLI's options, the API and a Ray worker's portable request build one configuration
    request = request_from_options(http=url, name="vendor")
    assert request.build().describe() == as_system(url, name="vendor").describe()
    assert request.portable().build().describe() == request.build().describe()
    relative = SystemRequest({"kind": "results", "path": os.path.relpath(answers)})
    assert relative.portable().system["path"] == str(Path(answers).resolve())
    with pytest.raises(RagdxError, match="a corpus is for a built-in pipeline, not a http system"):
        as_system(url, corpus=world["root"] / "w" / "kb")


def test_a_pipeline_without_a_corpus_gets_the_datasets_knowledge_base(world, tmp_path):
    (tmp_path / "p.yaml").write_text("name: p\nretriever: {type: bm25}\ntop_k: 2\n", encoding="utf-8")
    alone = as_system(tmp_path / "p.yaml")
    assert alone.describe()["corpus"] is None
    given = as_system(tmp_path / "p.yaml", dataset=world["dataset"])
    assert given.describe()["corpus"] == str((world["root"] / "w" / "kb").resolve())
    # one that names its own corpus keeps it
    own = as_system(world["specs"]["pipeline"], dataset=tmp_path)
    assert own.describe()["corpus"] == world["specs"]["pipeline"]["corpus"]


def kb_answer_or_fail(query: str) -> str:
    """A callable system that fails on every other query (by the query's letters, the same on
    both faces), for a run whose verdict crosses --max-failed."""
    if sum(map(ord, query)) % 2:
        raise ValueError("no answer for this one")
    return f"asked: {query}"


def _comparable(manifest: dict[str, Any]) -> dict[str, Any]:
    """A manifest without what differs between two runs of one job (times and latencies). Its
    ``exit`` (the run's verdict: every record failed, or more than max_failed) stays: ``ragdx.run``
    records it as ``ragdx run`` does."""
    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in ("started", "ended", "latency_s")}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value
    return strip(manifest)


def _cli_run(dataset: str, out: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ragdx.cli", "run", "-d", dataset, "-o", str(out), *flags,
                           "--no-progress"], cwd=REPO, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=300)


@pytest.mark.parametrize("job", ["callable", "pipeline"])
def test_the_api_and_the_cli_write_equal_manifests_for_one_job(world, job, tmp_path):
    if job == "callable":
        api_system, flags = "tests.test_system_conformance:kb_answer", ["--callable",
                                                                        "tests.test_system_conformance:kb_answer"]
    else:  # a pipeline naming no corpus: both take the dataset's knowledge base
        (tmp_path / "p.yaml").write_text("name: p\nretriever: {type: bm25}\ntop_k: 2\n", encoding="utf-8")
        api_system, flags = str(tmp_path / "p.yaml"), ["--system", str(tmp_path / "p.yaml")]
    dataset = str(world["dataset"])
    ragdx.run(api_system, dataset, tmp_path / "api", progress=False)
    cli = _cli_run(dataset, tmp_path / "cli", *flags)
    assert cli.returncode == 0, cli.stderr[-2000:]
    api, by_cli = (json.loads((tmp_path / d / "manifest.json").read_text(encoding="utf-8")) for d in ("api", "cli"))
    assert api["counts"]["ok"] == api["counts"]["total"] > 0
    assert api["exit"] == {"code": 0, "reason": None}
    assert _comparable(api) == _comparable(by_cli)


def test_the_api_and_the_cli_take_the_same_run_options_and_record_the_same_verdict(world, tmp_path):
    # ragdx.yaml's run: section (contexts, concurrency, max_failed) under the flags on both faces;
    # the run crosses max_failed: the CLI exits 1, ragdx.run says so in its summary, and both
    # write the same manifest (the options and the verdict included)
    (tmp_path / "ragdx.yaml").write_text("run: {contexts: full, concurrency: 3, max_failed: 0}\n", encoding="utf-8")
    records = [r.query for r in read_records(world["dataset"])]
    failing = sum(sum(map(ord, q)) % 2 for q in records[:4])
    assert 0 < failing < 4  # the job crosses max_failed 0 without every record failing
    dataset, target = str(world["dataset"]), "tests.test_system_conformance:kb_answer_or_fail"
    summary = ragdx.run(target, dataset, tmp_path / "api", config=tmp_path / "ragdx.yaml", concurrency=2, limit=4,
                        progress=False, probe=False)
    cli = _cli_run(dataset, tmp_path / "cli", "--callable", target, "--config", str(tmp_path / "ragdx.yaml"),
                   "--concurrency", "2", "--limit", "4", "--no-probe")
    assert cli.returncode == 1, cli.stdout[-2000:] + cli.stderr[-2000:]
    reason = f"{failing} records failed, more than --max-failed 0"
    assert summary.failed == failing and summary.warnings[-1] == reason and reason in cli.stderr
    api, by_cli = (json.loads((tmp_path / d / "manifest.json").read_text(encoding="utf-8")) for d in ("api", "cli"))
    assert api["exit"] == {"code": 1, "reason": reason}
    assert (api["invocations"][-1]["concurrency"], api["invocations"][-1]["contexts"]) == (2, "full")
    assert _comparable(api) == _comparable(by_cli)
    # options given whole, the keywords a shorthand over them: the same checks, the same line
    assert ragdx.RunOptions(max_failed="10%").max_failed == 0.1
    options = ragdx.RunOptions(concurrency=2, limit=4, progress=False, probe=False)
    with pytest.raises(RagdxError) as caught:
        ragdx.run(target, dataset, tmp_path / "bad", options, max_failed="1.5")
    assert caught.value.field == "max_failed" and not (tmp_path / "bad").exists()
    bad = _cli_run(dataset, tmp_path / "bad", "--callable", target, "--max-failed", "1.5")
    assert bad.returncode == 2 and bad.stderr.strip() == f"error: --max-failed: {caught.value.message}"
    with pytest.raises(RagdxError) as caught:
        ragdx.RunOptions(workers=4)
    assert str(caught.value) == "executor: address and workers are for executor ray"
