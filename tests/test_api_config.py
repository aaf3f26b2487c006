"""``ragdx.generate_dataset(..., config=...)`` asks what ``ragdx gen`` asks with the same ragdx.yaml
(issue 20: one way to open a database for both faces): its ``names:``, ``ask:`` and ``keys:`` shape the
API's questions too, and without a config no earlier project's names carry over."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import ragdx
from ragdx.demo.database import build_demo_database

CONFIG = """\
names:
  tables: {Staff: lecturer}
  columns: {hire_date: start date}
ask: [Staff.Email]
keys: {Course: [Title]}
"""


def _questions(dataset: Path) -> set[tuple[str, str]]:
    with open(dataset / "records.jsonl", encoding="utf-8") as f:
        return {(r["query"], r["answer_text"]) for r in map(json.loads, f)}


def test_the_api_with_a_config_asks_what_the_cli_asks(tmp_path):
    db = f"sqlite:///{build_demo_database(tmp_path / 'demo.sqlite')}"
    project = tmp_path / "project"
    project.mkdir()
    (project / "ragdx.yaml").write_text(CONFIG, encoding="utf-8")
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    for args in (["templates", "sql", "--db", db, "-o", "sql.yaml"],
                 ["templates", "text", "--db", db, "--sql", "sql.yaml", "-o", "text.yaml", "--style", "short"],
                 ["gen", "--db", db, "--sql", "sql.yaml", "--text", "text.yaml", "-o", "cli"]):
        done = subprocess.run([sys.executable, "-m", "ragdx.cli", *args], cwd=project, env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    cli = _questions(project / "cli")
    api = _questions(ragdx.generate_dataset(db, tmp_path / "api", config=project / "ragdx.yaml", styles=["short"]))
    assert api == cli
    texts = " ".join(q for q, _ in api)
    assert "lecturer" in texts and "start date" in texts  # names:
    assert any("@" in a for _, a in api)  # ask: an e-mail address is asked for
    # without the config: the derived nouns, and the e-mail left out, even after the run above
    plain = _questions(ragdx.generate_dataset(db, tmp_path / "plain", styles=["short"]))
    plain_texts = " ".join(q for q, _ in plain)
    assert "lecturer" not in plain_texts and not any("@" in a for _, a in plain)


def test_a_bad_name_in_another_config_file_is_reported_against_that_file(tmp_path):
    # a table in names: the database lacks is found after the file was read: the error still names the
    # file given with --config, not "ragdx.yaml", and nothing is written
    db = f"sqlite:///{build_demo_database(tmp_path / 'demo.sqlite')}"
    (tmp_path / "other.yaml").write_text("names:\n  tables: {Nope: lecturer}\n", encoding="utf-8")
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-m", "ragdx.cli", "templates", "sql", "--db", db, "--config",
                           "other.yaml", "-o", "sql.yaml"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == ["error: other.yaml: names.tables.Nope: no table 'Nope' in the database"]
    assert not (tmp_path / "sql.yaml").exists()


def test_the_llm_section_missing_names_the_config_file_and_stats_names_the_outside_row(tmp_path):
    db = f"sqlite:///{build_demo_database(tmp_path / 'demo.sqlite')}"
    (tmp_path / "other.yaml").write_text("gen: {}\n", encoding="utf-8")
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "ragdx.cli", *args], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=300)

    done = cli("templates", "sql", "--db", db, "--method", "llm", "--config", "other.yaml", "-o", "sql.yaml")
    assert done.returncode == 2 and done.stderr.strip().startswith("error: other.yaml: llm: "), done.stderr
    # questions outside the schema's domain belong to no table: their row says so instead of a blank
    ragdx.generate_dataset(db, tmp_path / "ds", styles=["short"], refusals=4, refusal_kinds=["out_of_domain"])
    done = cli("stats", "ds")
    assert done.returncode == 0 and "(outside the schema)" in done.stdout, done.stdout
