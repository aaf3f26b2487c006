"""One options object for generation (issue 20): ``ragdx gen`` and ``ragdx.generate_dataset`` build
:class:`ragdx.gen.options.GenOptions` with the same function, so the same choices, the defaults
among them, give the same records. Before, the API had no cap on groups per template and kept
NULL answers, where the CLI caps at 25 and drops them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import ragdx
from ragdx.cli.main import app
from ragdx.config import DEFAULT_GROUP_CAP, load_config
from ragdx.demo.database import build_demo_database
from ragdx.gen.options import GenOptions, gen_options
from tests.support.timing import scaled


@pytest.fixture(scope="module")
def demo_url(tmp_path_factory) -> str:
    return f"sqlite:///{build_demo_database(tmp_path_factory.mktemp('db') / 'uni.sqlite')}"


def _dataset(path: Path) -> tuple[list[str], dict]:
    manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    return sorted((path / "records.jsonl").read_text(encoding="utf-8").splitlines()), manifest


def _cli_gen(tmp_path: Path, monkeypatch, *args: str) -> CliRunner:
    monkeypatch.chdir(tmp_path)  # no ragdx.yaml here: the defaults
    result = CliRunner().invoke(app, ["gen", *args])
    assert result.exit_code == 0, result.output
    return result


@pytest.mark.parametrize("api_choices, flags", [
    ({}, []),
    ({"max_groups": 0, "null_answers": "unanswerable", "multi_answer": "keep", "per_group": 2, "seed": 3},
     ["--max-groups-per-template", "0", "--null-answers", "unanswerable", "--multi-answer", "keep",
      "--per-group", "2", "--seed", "3"]),
], ids=["defaults", "choices"])
def test_the_api_and_the_cli_make_the_same_dataset(demo_url, tmp_path, monkeypatch, api_choices, flags):
    api = ragdx.generate_dataset(demo_url, tmp_path / "api", styles=("short",), n=1, **api_choices)
    templates = tmp_path / "api-templates"
    _cli_gen(tmp_path, monkeypatch, "--db", demo_url, "--sql", str(templates / "sql.yaml"),
             "--text", str(templates / "text.yaml"), "-o", str(tmp_path / "cli"), "--style", "short", "--n", "1",
             *flags)
    api_records, api_manifest = _dataset(api)
    cli_records, cli_manifest = _dataset(tmp_path / "cli")
    assert len(api_records) > 100 and api_records == cli_records
    for key in ("options", "answer_counts", "per_template_counts", "styles"):
        assert api_manifest[key] == cli_manifest[key], key
    counts = api_manifest["answer_counts"]
    if not api_choices:
        # the defaults are the CLI's: 25 groups per template, NULL answers dropped (the demo has both)
        assert api_manifest["options"]["max_groups_per_template"] == DEFAULT_GROUP_CAP
        assert counts["left_out_by_cap"] > 0 and counts["null_dropped"] > 0
    else:
        assert api_manifest["options"]["max_groups_per_template"] is None
        assert counts["left_out_by_cap"] == 0 and counts["null_unanswerable"] > 0 and counts["multi_kept"] > 0


def test_options_from_a_project_file_are_the_clis_with_that_file(demo_url, tmp_path, monkeypatch):
    # ragdx.yaml's gen: section, read once and handed to the API, is what `ragdx gen` reads from the same file
    (tmp_path / "ragdx.yaml").write_text("gen:\n  max_groups_per_template: 4\n  null_answers: unanswerable\n"
                                         "  seed: 5\ntext_templates:\n  n: 1\n", encoding="utf-8")
    options = gen_options(load_config(tmp_path / "ragdx.yaml"))
    api = ragdx.generate_dataset(demo_url, tmp_path / "api", options, styles=("short",))
    templates = tmp_path / "api-templates"
    _cli_gen(tmp_path, monkeypatch, "--db", demo_url, "--sql", str(templates / "sql.yaml"),
             "--text", str(templates / "text.yaml"), "-o", str(tmp_path / "cli"), "--style", "short")
    (api_records, api_manifest), (cli_records, cli_manifest) = _dataset(api), _dataset(tmp_path / "cli")
    assert api_records and api_records == cli_records
    assert api_manifest["options"] == cli_manifest["options"] and api_manifest["options"]["seed"] == 5
    assert api_manifest["answer_counts"] == cli_manifest["answer_counts"]
    assert api_manifest["answer_counts"]["null_unanswerable"] > 0
    # a keyword still wins over the options handed in
    again = ragdx.generate_dataset(demo_url, tmp_path / "again", options, styles=("short",), max_groups=2)
    assert _dataset(again)[1]["options"]["max_groups_per_template"] == 2


def test_the_api_writes_no_password_into_the_manifest(demo_url, tmp_path):
    # SQLite ignores the query string; a password there must not reach the manifest (ragdx gen's redaction)
    out = ragdx.generate_dataset(f"{demo_url}?password=hunter2", tmp_path / "ds", styles=("short",), n=1,
                                 max_groups=2)
    text = (out / "manifest.json").read_text(encoding="utf-8")
    assert "hunter2" not in text
    assert json.loads(text)["database"] == f"{demo_url}?password=***"  # the path whole, its slashes kept


@pytest.mark.parametrize("url, shown", [
    ("sqlite:///rel.db?mode=ro", "sqlite:///rel.db?mode=ro"),
    ("sqlite:////abs/x.db?password=p", "sqlite:////abs/x.db?password=***"),
    ("postgresql://u:p@h/db?sslmode=require", "postgresql://u:***@h/db?sslmode=require"),
])
def test_a_redacted_database_url_keeps_its_path(url, shown):
    # urlunsplit dropped the empty authority of a SQLite URL with a query: sqlite:/rel.db
    from ragdx.redact import redact_url

    assert redact_url(url) == shown


def test_ragdx_yaml_gen_section_is_the_default_and_a_given_value_wins(tmp_path):
    (tmp_path / "ragdx.yaml").write_text("gen:\n  max_groups_per_template: 7\n  null_answers: keep\n"
                                         "text_templates:\n  n: 2\n", encoding="utf-8")
    cfg = load_config(tmp_path / "ragdx.yaml")
    options = gen_options(cfg)
    assert (options.max_groups_per_template, options.null_answers, options.n) == (7, "keep", 2)
    given = gen_options(cfg, {"max_groups_per_template": 0, "null_answers": None, "styles": ["long"]})
    assert given.max_groups_per_template is None and given.null_answers == "keep" and given.styles == ("long",)
    answers = given.answers()
    assert (answers.max_groups_per_template, answers.null_answers) == (None, "keep")
    assert isinstance(gen_options(), GenOptions) and gen_options().max_groups_per_template == DEFAULT_GROUP_CAP
    # options built before are a base too: None keeps theirs (no cap stays no cap), a value replaces it
    assert gen_options(given) == given
    assert gen_options(given, {"seed": 9}).seed == 9 and gen_options(given, {"seed": 9}).styles == ("long",)


@pytest.mark.parametrize("keyword, value, message", [
    ("max_groups", -1, "max_groups: expected 0 (no cap) or a positive number, got -1"),
    ("max_groups", "5", "max_groups: expected a whole number, got '5'"),
    ("null_answers", "bogus", "null_answers: expected one of drop, unanswerable, keep, got 'bogus'"),
    ("multi_answer", "all", "multi_answer: expected one of drop, keep, got 'all'"),
    ("method", "fast", "method: expected one of set, per-combination, got 'fast'"),
    ("per_group", 0, "per_group: expected 1 or more, got 0"),
    ("n", 0, "n: expected 1 or more, got 0"),
    ("styles", "short", "styles: expected a list of style names, got 'short'"),
    ("seed", True, "seed: expected a whole number, got True"),
])
def test_a_bad_api_value_is_one_line_naming_the_keyword_before_any_work(tmp_path, keyword, value, message):
    # the database does not exist: the options are checked before it is opened
    with pytest.raises(ragdx.RagdxError) as caught:
        ragdx.generate_dataset(f"sqlite:///{tmp_path / 'none.sqlite'}", tmp_path / "ds", **{keyword: value})
    assert str(caught.value) == message
    assert not (tmp_path / "none.sqlite").exists() and not (tmp_path / "ds").exists()


@pytest.mark.parametrize("flags, message", [
    (["--max-groups-per-template", "-1"], "--max-groups-per-template: expected 0 (no cap) or a positive number"),
    (["--multi-answer", "all"], "--multi-answer: expected one of drop, keep, got 'all'"),
    (["--per-group", "0"], "--per-group: expected 1 or more, got 0"),
])
def test_a_bad_flag_is_one_line_naming_the_flag(tmp_path, flags, message):
    # a real process: the one-line error and exit 2 are made by the command's entry point
    done = subprocess.run([sys.executable, "-m", "ragdx.cli", "gen", *flags], capture_output=True, text=True,
                          cwd=tmp_path, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}, timeout=scaled(120))
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_an_unknown_option_is_named():
    with pytest.raises(ragdx.RagdxError, match="max_groups: not a generation option"):
        gen_options(None, {"max_groups": 3})
