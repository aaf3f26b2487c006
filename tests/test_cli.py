"""The ``ragdx`` command as a person runs it: real processes, real files, real exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ragdx.demo.database import build_demo_database
from tests.support.timing import scaled


def ragdx(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "ragdx.cli", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=scaled(300))


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """A project directory with the demo database and generated templates."""
    root = tmp_path_factory.mktemp("project")
    db = build_demo_database(root / "uni.sqlite")
    url = f"sqlite:///{db}"
    r = ragdx("templates", "sql", "--db", url, "-o", str(root / "sql.yaml"))
    assert r.returncode == 0, r.stderr
    r = ragdx("templates", "text", "--db", url, "--sql", str(root / "sql.yaml"), "-o", str(root / "text.yaml"),
              "--style", "short", "--style", "casual", "--n", "2")
    assert r.returncode == 0, r.stderr
    return root, url


def test_stages_run_alone_and_gen_writes_a_dataset(project, tmp_path):
    root, url = project
    r = ragdx("schema", url)
    assert r.returncode == 0 and "Programme" in r.stdout and "look-up key" in r.stdout
    r = ragdx("kb", "render", "--db", url, "-o", str(tmp_path / "kb"), "--omit", "Staff.Email")
    assert r.returncode == 0, r.stderr
    r = ragdx("gen", "--db", url, "--sql", str(root / "sql.yaml"), "--text", str(root / "text.yaml"),
              "-o", str(tmp_path / "ds"), "--n", "2", "--kb", str(tmp_path / "kb"), "--stats",
              "--max-groups-per-template", "5", "--multi-answer", "keep")
    assert r.returncode == 0, r.stderr
    assert "M SQL templates" in r.stdout
    manifest = json.loads((tmp_path / "ds" / "manifest.json").read_text())
    lines = (tmp_path / "ds" / "records.jsonl").read_text().splitlines()
    assert manifest["records"] == len(lines) > 0
    assert manifest["styles"] == ["casual", "short"]
    assert manifest["answer_counts"]["combinations"] >= manifest["semantic_groups"]
    assert all(json.loads(line)["kb_supported"] is not None for line in lines)
    # a second run refuses to overwrite unless asked
    again = ragdx("gen", "--db", url, "--sql", str(root / "sql.yaml"), "--text", str(root / "text.yaml"),
                  "-o", str(tmp_path / "ds"), "--n", "2")
    assert again.returncode == 2 and "already exists" in again.stderr


def test_rerunning_templates_keeps_hand_edits(project):
    root, url = project
    sql_file = root / "sql.yaml"
    before = sql_file.read_text()
    r = ragdx("templates", "sql", "--db", url, "-o", str(sql_file))
    assert r.returncode == 0, r.stderr
    assert "kept as they are" in r.stdout
    assert sql_file.read_text() == before


def _bad(args, root: Path, needle: str, out: Path):
    r = ragdx(*args)
    assert r.returncode == 2, (r.stdout, r.stderr)
    errors = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(errors) == 1, r.stderr
    assert needle in errors[0], errors[0]
    assert "Traceback" not in r.stderr
    assert not out.exists()
    assert not [p for p in out.parent.iterdir() if p.name.startswith(f".{out.name}")]


def test_malformed_template_file_names_file_and_line(project, tmp_path):
    root, url = project
    bad = tmp_path / "bad.yaml"
    bad.write_text("version: 1\nschemas:\n  Client:\n    - sql: SELECT Industry FROM Client WHERE\n   bad: [\n")
    _bad(["gen", "--db", url, "--sql", str(bad), "--text", str(root / "text.yaml"), "-o", str(tmp_path / "ds")],
         root, "bad.yaml", tmp_path / "ds")


def test_unknown_column_names_file_and_field(project, tmp_path):
    root, url = project
    bad = tmp_path / "sql.yaml"
    bad.write_text("version: 1\nschemas:\n  Staff:\n"
                   "    - sql: SELECT Title FROM Staff WHERE Name = '[Staff.Name]'\n"
                   "    - sql: SELECT Shoesize FROM Staff WHERE Name = '[Staff.Name]'\n")
    out = tmp_path / "ds"
    _bad(["gen", "--db", url, "--sql", str(bad), "--text", str(root / "text.yaml"), "-o", str(out)],
         root, "schemas.Staff[1]", out)
    r = ragdx("gen", "--db", url, "--sql", str(bad), "--text", str(root / "text.yaml"), "-o", str(out))
    assert "Shoesize" in r.stderr and str(bad) in r.stderr


def test_unreachable_database_is_one_line_exit_2(project, tmp_path):
    root, _ = project
    out = tmp_path / "ds"
    _bad(["gen", "--db", "postgresql://nobody@127.0.0.1:1/nothing", "--sql", str(root / "sql.yaml"),
          "--text", str(root / "text.yaml"), "-o", str(out)], root, "cannot connect", out)
    _bad(["schema", f"sqlite:///{tmp_path / 'nope.sqlite'}"], root, "no such SQLite file", out)


def test_config_supplies_options_and_bad_config_names_the_field(project, tmp_path):
    root, url = project
    (tmp_path / "ragdx.yaml").write_text(
        f"database: {url}\n"
        f"sql_templates: {{file: {root / 'sql.yaml'}}}\n"
        f"text_templates: {{file: {root / 'text.yaml'}, n: 2, styles: [short]}}\n"
        "gen: {out: out/ds, max_groups_per_template: 3, styles: [short]}\n")
    r = ragdx("gen", "--config", str(tmp_path / "ragdx.yaml"))
    assert r.returncode == 0, r.stderr
    manifest = json.loads((tmp_path / "out" / "ds" / "manifest.json").read_text())
    assert manifest["styles"] == ["short"]
    assert manifest["options"]["max_groups_per_template"] == 3
    (tmp_path / "bad.yaml").write_text("gen: {seed: many}\n")
    r = ragdx("gen", "--config", str(tmp_path / "bad.yaml"))
    assert r.returncode == 2
    assert "bad.yaml: gen.seed:" in r.stderr
    (tmp_path / "typo.yaml").write_text("gen: {sead: 1}\n")
    r = ragdx("gen", "--config", str(tmp_path / "typo.yaml"))
    assert r.returncode == 2 and "gen.sead" in r.stderr


def test_demo_runs_offline_and_twice(tmp_path):
    for _ in range(2):  # the second run merges into the existing templates instead of failing
        r = ragdx("demo", "--out", str(tmp_path / "demo"))
        assert r.returncode == 0, r.stderr
    manifest = json.loads((tmp_path / "demo" / "dataset" / "manifest.json").read_text())
    assert manifest["styles"] == ["long", "short"]
    assert manifest["records"] > 800  # 916 since contact details, flags and key codes are not asked (issue 22)
    assert "knowledge-base gaps" in r.stdout
    # every stage ran: two systems, their evaluations, the knowledge boundary, and the report
    for name in ("keyword", "bm25-dense"):
        assert (tmp_path / "demo" / "runs" / name / "evaluation" / "metrics.json").exists()
    assert (tmp_path / "demo" / "relevance" / "relevance.json").exists()
    assert (tmp_path / "demo" / "report.html").exists() and "report.html" in r.stdout


def test_run_a_callable_system_and_resume(project, tmp_path):
    root, url = project
    ds = tmp_path / "ds"
    assert ragdx("gen", "--db", url, "--sql", str(root / "sql.yaml"), "--text", str(root / "text.yaml"),
                 "-o", str(ds), "--n", "2", "--max-groups-per-template", "2").returncode == 0
    records = len((ds / "records.jsonl").read_text().splitlines())
    repo = Path(__file__).resolve().parents[1]
    args = ("run", "-d", str(ds), "-o", str(tmp_path / "run"), "--callable", "tests.test_runner:async_answer",
            "--no-progress")
    first = ragdx(*args, cwd=repo)
    assert first.returncode == 0, first.stderr
    lines = (tmp_path / "run" / "results.jsonl").read_text().splitlines()
    assert len(lines) == records
    again = ragdx(*args, cwd=repo)  # everything finished: nothing is asked twice
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "run" / "results.jsonl").read_text().splitlines() == lines
    both = ragdx("run", "-d", str(ds), "-o", str(tmp_path / "x"), "--callable", "a:b", "--http", "http://x",
                 cwd=repo)
    assert both.returncode == 2 and "exactly one system" in both.stderr


def test_relevance_calibrate_and_test_from_the_command_line(tmp_path):
    """Calibrate on the demo knowledge base with its own generated queries, then screen an
    in-knowledge query and off-topic ones: the whole path runs offline with the packaged model."""
    from ragdx.demo.offtopic import OFFTOPIC_QUESTIONS

    demo = tmp_path / "demo"
    assert ragdx("demo", "--out", str(demo)).returncode == 0
    docs = [json.loads(line) for line in (demo / "kb" / "documents.jsonl").read_text().splitlines()]
    records = [json.loads(line) for line in (demo / "dataset" / "records.jsonl").read_text().splitlines()]
    short = [r["query"] for r in records if r["style"] == "short" and r["kb_supported"]][::7][:60]
    (tmp_path / "cal.jsonl").write_text("".join(json.dumps({"question": q}) + "\n" for q in short[1:]))
    (tmp_path / "probe.jsonl").write_text("".join(json.dumps({"question": q}) + "\n"
                                                  for q in [short[0], *OFFTOPIC_QUESTIONS[:5]]))
    r = ragdx("relevance", "calibrate", str(demo / "kb" / "documents.jsonl"), "-o", str(tmp_path / "tester"),
              "--queries", str(tmp_path / "cal.jsonl"), "--corpus-field", "text", "--alpha", "0.1")
    assert r.returncode == 0, r.stderr
    assert len(docs) > 20
    r = ragdx("relevance", "test", str(tmp_path / "tester"), "--queries", str(tmp_path / "probe.jsonl"),
              "-o", str(tmp_path / "out.jsonl"))
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert len(rows) == 6
    p = [row["p_value"] for row in rows]
    assert all(0 < x <= 1 for x in p)
    assert max(p[1:]) < p[0]  # off-topic questions look less like the corpus's own queries
    broken = ragdx("relevance", "test", str(tmp_path / "nowhere"), "tell me")
    assert broken.returncode == 2 and len(broken.stderr.strip().splitlines()) == 1


def test_evaluate_reproduces_the_papers_table_3_from_the_command_line(tmp_path):
    from tests.conftest import AURP, need

    need(AURP / "eval_results")
    r = ragdx("evaluate", str(AURP), "-o", str(tmp_path / "ev"), "--judge", "contains", "--boot", "200")
    assert r.returncode == 0, r.stderr
    table = json.loads((tmp_path / "ev" / "metrics.json").read_text())["table3"]
    # the cells of ../shared/data/README.md (long "balance" is 130/471 in the data, .27 in print)
    expected = {
        "short": {"baseline": .27, "context_comparison": .29, "remove_gap": .95,
                  "remove_gap_context_comparison": 1.00, "balance": .27, "balance_context_comparison": .29},
        "long": {"baseline": .51, "context_comparison": .51, "remove_gap": .96,
                 "remove_gap_context_comparison": .98, "balance": 130 / 471, "balance_context_comparison": .28},
    }
    for style, cells in expected.items():
        for row, value in cells.items():
            assert abs(table[style][row] - value) <= 0.005 + 1e-9, (style, row, table[style][row])
    assert "Table 3" in (tmp_path / "ev" / "summary.md").read_text()
