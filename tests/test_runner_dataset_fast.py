"""The runner's dataset reading: ragdx's own records files checked by columns
(``run_dataset.read_queries``), with the same outcome as validating every record as a
``QARecord``; and ``store.write_jsonl`` streaming its lines in blocks (same bytes, bounded memory).

The reference for "the same outcome" is the full validation itself (``iter_records``), run on
the same file: every corrupted variant must either be refused by both with the same one-line
error, or read by both to the same ids and queries."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from ragdx.errors import RagdxError
from ragdx.gen.dataset import QARecord, iter_records, write_dataset
from ragdx.rag import run_dataset
from ragdx.rag.run_dataset import read_queries
from ragdx.rag.runner import run
from ragdx.rag.systems import CallableSystem
from ragdx.store import sha256_file, write_jsonl

REPO = Path(__file__).resolve().parents[1]


def _records(n: int) -> list[QARecord]:
    """Records whose optional fields take every kind of value ragdx writes."""
    out = []
    for k in range(n):
        linked = k % 3 == 0
        out.append(QARecord(
            id=f"g{k // 2}-t{k % 2}", group_id=f"g{k // 2}", sql_template_id="s1", text_template_id=f"t{k % 2}",
            style=("short", "casual")[k % 2], schema="Client", table="Client",
            params={"Client.Name": f"Zoë \"{k}\" 日本", "Client.Id": k, "Client.Score": k / 7 if k % 4 else None},
            sql=f"SELECT x FROM Client WHERE id = {k}", query=f"What is {{id}} of 'O\\'Connell' #{k}?\nsecond line",
            answer_columns=["City", "Founded"], answer_rows=[[f"City {k}", 1900 + k, k * 0.5, None, True]],
            answer_text=f"City {k}", answer_kind=("single", "multi", "none")[k % 3],
            entities=[f"Client:{k}"], facts=[f"Client.City@{k}"],
            gold_document_ids=[f"d{k}"] if linked else [],
            kb_supported=(True, False, None)[k % 3],
            evidence_sets=[[f"d{k}", f"e{k}"], [f"f{k}"]] if linked else [],
            entity_document_ids=[f"d{k}"], kb_basis="linked" if linked else "",
            evidence_spans=[{"fact": f"Client.City@{k}", "doc_id": f"d{k}", "start": 0, "end": 4,
                             "text": "City", "weight": 0.75}] if linked else [],
            evidence_confidence=0.5 + k / 1000 if linked else None))
    return out


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    return write_dataset(tmp_path / "ds", _records(60), {"source": "test"})


def _full(path: Path) -> tuple[list[str], list[str]] | str:
    """The reference: every record validated as a QARecord; its error's text when it refuses."""
    try:
        records = list(iter_records(path))
    except RagdxError as exc:
        return str(exc)
    return [r.id for r in records], [r.query for r in records]


def _fast(path: Path) -> tuple[tuple[list[str], list[str]] | str, str | None]:
    try:
        got = read_queries(path)
    except RagdxError as exc:
        return str(exc), None
    assert got.sha256 == sha256_file(path / "records.jsonl" if path.is_dir() else path)
    return (got.ids, got.queries), got.checked


def test_a_ragdx_dataset_is_checked_by_columns_and_reads_as_the_full_validation(dataset, monkeypatch):
    monkeypatch.setattr(run_dataset, "_BLOCK_BYTES", 3000)  # several blocks
    (ids_queries, checked) = _fast(dataset)
    assert checked == "columns"
    assert ids_queries == _full(dataset)
    assert len(ids_queries[0]) == 60
    # a field type the column check has no rule for (a field added later): the full way
    monkeypatch.setattr(run_dataset, "_LEVELS", {k: v for k, v in run_dataset._LEVELS.items() if k != "bool | None"})
    assert _fast(dataset) == (ids_queries, "records")


#: one value of every JSON type, and nested variants, to put in place of each field
WRONG = ["text", "", 3, 2.5, True, None, [], ["a"], [1], [["a"]], [[1]], [None], {}, {"a": 1}, [{"a": 1}],
         [[{"a": 1}]], [["a", 2]]]


def _variant(dataset: Path, tmp: Path, line: int, change) -> Path:
    lines = (dataset / "records.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    lines[line] = change(lines[line])
    out = Path(tempfile.mkdtemp(dir=tmp))
    (out / "records.jsonl").write_text("".join(lines), encoding="utf-8")
    return out


def test_every_field_given_every_json_type_gives_the_full_validations_outcome(tmp_path, monkeypatch):
    import functools

    import pydantic

    monkeypatch.setattr(run_dataset, "_BLOCK_BYTES", 3000)  # the changed line in the third block of four
    # iter_records builds its TypeAdapter on each call (~15 ms): built once here for 800 calls
    monkeypatch.setattr(pydantic, "TypeAdapter", functools.lru_cache(maxsize=None)(pydantic.TypeAdapter))
    dataset = write_dataset(tmp_path / "ds", _records(12), {})
    fields = list(json.loads((dataset / "records.jsonl").read_text(encoding="utf-8").splitlines()[0]))
    refused = vouched = 0
    for name in fields:
        for value in WRONG:
            def change(text, name=name, value=value):
                obj = json.loads(text)
                obj[name] = value
                return json.dumps(obj, ensure_ascii=False) + "\n"

            path = _variant(dataset, tmp_path, 8, change)
            full = _full(path)
            fast, checked = _fast(path)
            assert fast == full, (name, value)
            refused += isinstance(full, str)
            # the column check vouches only for what the full validation accepts as it is
            vouched += checked == "columns"
            assert checked != "columns" or not isinstance(full, str)
    assert refused > 100  # the variants do test refusals, not only values that pass
    assert vouched > 10   # and values of the right type, which the columns pass


@pytest.mark.parametrize("change", [
    lambda t: t.replace('"kb_basis"', '"kb_basis":"x","kb_basis"', 1),  # a key given twice
    lambda t: t.replace('"kb_basis":', '"kb_basis_typo":', 1),          # an unknown field
    lambda t: json.dumps({k: v for k, v in json.loads(t).items() if k != "evidence_confidence"}) + "\n",
    lambda t: json.dumps({k: v for k, v in json.loads(t).items() if k != "query"}) + "\n",
    lambda t: "\n" + t,                                                   # a blank line
    lambda t: t[:-5] + "\n",                                              # a torn line
    lambda t: t.replace('"id":"', '"id":"\\u00e9', 1),                    # an escape
    lambda t: t.replace('"Client.Id":', '"Client.Id":12345678901234567890123, "x":', 1),  # a long number
    lambda t: "[1, 2]\n",                                                 # not an object
], ids=["duplicate key", "unknown field", "no optional field", "no query", "blank line", "torn line",
        "escape", "long number", "array"])
def test_odd_lines_give_the_full_validations_outcome(dataset, tmp_path, monkeypatch, change):
    monkeypatch.setattr(run_dataset, "_BLOCK_BYTES", 3000)
    path = _variant(dataset, tmp_path, 50, change)
    fast, checked = _fast(path)
    assert fast == _full(path)
    assert checked in (None, "records")


def test_an_empty_file_and_a_parquet_file_are_read_the_full_way(dataset, tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    fast, checked = _fast(empty)
    assert checked is None and fast == _full(empty) and "the dataset is empty" in fast
    parquet = dataset / "records.parquet"
    fast, checked = _fast(parquet)
    assert checked == "records" and fast == _full(parquet) == _full(dataset)


def test_a_bad_line_in_a_ragdx_dataset_is_one_line_naming_file_line_and_field(dataset, tmp_path):
    path = _variant(dataset, tmp_path, 57, lambda t: t.replace('"kb_supported":', '"kb_supported":"yes","x":', 1)
                    .replace(',"x":null', "").replace(',"x":true', "").replace(',"x":false', ""))
    records = path / "records.jsonl"
    with pytest.raises(RagdxError) as caught:
        run(CallableSystem(lambda q: {"answer": q}, name="echo"), path, tmp_path / "run", progress=False)
    message = str(caught.value)
    assert "\n" not in message
    assert str(records) in message and "line 58" in message and "kb_supported" in message
    assert not (tmp_path / "run").exists()

    # the command: exit 2, one line on stderr, nothing written
    proc = subprocess.run([sys.executable, "-m", "ragdx.cli", "run", "-d", str(path), "-o", str(tmp_path / "run2"),
                           "--callable", "tests.test_runner:async_answer", "--no-progress", "--no-probe"],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "line 58" in lines[0] and "kb_supported" in lines[0], proc.stderr
    assert not (tmp_path / "run2").exists()


def test_the_run_records_what_it_did_before(dataset, tmp_path):
    """The manifest's dataset identity is what the record-by-record reading gave."""
    from ragdx.rag.rundir import Manifest, queries_sha256

    run(CallableSystem(lambda q: {"answer": q}, name="echo"), dataset, tmp_path / "run", progress=False)
    recorded = Manifest.read(tmp_path / "run").dataset
    records = list(iter_records(dataset))
    assert recorded["queries_sha256"] == queries_sha256((r.id, r.query) for r in records)
    assert recorded["sha256"] == sha256_file(dataset / "records.jsonl")
    assert recorded["records"] == len(records) == 60


# ----------------------------------------------------------------------------- write_jsonl


def _reference(rows) -> bytes:
    """What write_jsonl wrote when it held every line: json.dumps's bytes, line by line."""
    return b"".join((json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n").encode() for r in rows)


def _rows(n: int) -> list[dict]:
    rows = []
    for k in range(n):
        rows.append({"id": f"r{k}", "query": f"Zoë {k} \"q\"\n", "answer": None if k % 7 == 0 else f"a{k}",
                     "latency_s": (k + 1) * 1e-6 if k % 5 == 0 else k / 3, "n": k, "big": 2 ** 70 if k % 11 == 0 else 1,
                     "nan": math.nan if k % 13 == 0 else 0.0, "nested": [{"x": [k, True, None]}]})
    return rows


def test_write_jsonl_writes_the_same_bytes_in_blocks(tmp_path):
    rows = _rows(2500)  # more than two blocks of lines, a partial one at the end
    assert write_jsonl(tmp_path / "a.jsonl", iter(rows)) == 2500
    assert (tmp_path / "a.jsonl").read_bytes() == _reference(rows)
    plain = [{"id": f"r{k}", "query": f"q{k}", "tags": [k, "x"]} for k in range(1500)]
    assert write_jsonl(tmp_path / "b.jsonl", plain, float_free=True) == 1500
    assert (tmp_path / "b.jsonl").read_bytes() == _reference(plain)
    assert write_jsonl(tmp_path / "c.jsonl", []) == 0
    assert (tmp_path / "c.jsonl").read_bytes() == b""


def test_write_jsonl_failing_midway_leaves_the_file_as_it_was(tmp_path):
    target = tmp_path / "out.jsonl"
    target.write_bytes(b"before\n")

    def rows():
        yield from _rows(3000)
        raise RuntimeError("the caller's rows fail")

    with pytest.raises(RuntimeError):
        write_jsonl(target, rows())
    assert target.read_bytes() == b"before\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]  # no temporary file left


_CHILD = """
import resource, sys
from ragdx.store import write_jsonl
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
rows = ({"id": f"r{k:07d}", "query": f"In which city is 'Customer {k:07d}'?", "answer": f"City {k % 5000}",
         "contexts": [{"id": f"Customer:{k}", "text": f"Customer {k:07d} is in a city.", "score": 0.5}]}
        for k in range(int(sys.argv[1])))
n = write_jsonl(sys.argv[2], rows)
print(n, (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) // 1024)
"""


def test_write_jsonl_memory_does_not_grow_with_the_rows(tmp_path):
    """200,000 rows (35 MB of lines): each encoded line held ~4 KB, so writing them all at once
    grew the process by ~800 MB; in blocks it grows by a few MB."""
    proc = subprocess.run([sys.executable, "-c", _CHILD, "200000", str(tmp_path / "rows.jsonl")],
                          capture_output=True, text=True, timeout=120, check=True)
    count, grown_mb = map(int, proc.stdout.split())
    assert count == 200_000
    assert grown_mb < 60, f"write_jsonl grew the process by {grown_mb} MB"
    with (tmp_path / "rows.jsonl").open("rb") as fh:
        assert sum(1 for _ in fh) == 200_000
