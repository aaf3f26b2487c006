"""The LLM methods of the template stages, end to end through the CLI, against a real
OpenAI-compatible HTTP server on 127.0.0.1 whose replies are as untidy as a small model's."""

from __future__ import annotations

import re

import pytest
import yaml

from ragdx.demo.database import build_demo_database
from tests.support.openai_server import OpenAIServer
from tests.test_cli import ragdx


def untidy_model(body: dict) -> str:
    prompt = body["messages"][-1]["content"]
    if "SQL query Template Generator" in prompt:
        tables = re.findall(r"^Table (\w+)\(", prompt, re.M)
        lines = ["Sure! Here are the templates:", "```sql"]
        for t in tables:
            if t == "Staff":
                lines += ["1. SELECT Title FROM Staff WHERE Name = '[Staff.Name]';",
                          "2. SELECT Shoesize FROM Staff WHERE Name = '[Staff.Name]';",
                          "3. SELECT * FROM Staff WHERE Name = '[Staff.Name]';"]
            if t == "Faculty":
                lines += ["- SELECT Building FROM Faculty WHERE Name = '[Faculty.Name]'"]
        return "\n".join(lines + ["```"])
    placeholders = re.search(r"including the single quotes: (.+)\.\n", prompt).group(1)
    style = "casual" if "casual" in prompt.lower() or "hey" in prompt.lower() else "plain"
    return "\n".join([
        f"1. \"What is recorded for {placeholders} ({style})?\"",
        "2. A line that lost its placeholder",
        f"3. Tell me about {placeholders} ({style})",
        f"4. tell me about {placeholders} ({style}).",   # a duplicate up to case and punctuation
        f"5. Which value belongs to {placeholders} ({style})?",
    ])


@pytest.fixture()
def project(tmp_path):
    db = build_demo_database(tmp_path / "uni.sqlite")
    server = OpenAIServer()
    server.__enter__()
    server.reply = untidy_model
    (tmp_path / "ragdx.yaml").write_text(yaml.safe_dump({
        "database": f"sqlite:///{db}",
        "llm": {"base_url": server.base_url, "model": "tiny", "max_retries": 1, "timeout": 10,
                "cache_dir": str(tmp_path / "cache")},
        "styles": {"student": "Write like a first-year student."},
        "sql_templates": {"file": "sql.yaml", "method": "llm", "schemas": [["Staff"], ["Faculty"]],
                          "requirements": ["Only ask about people's titles and buildings."]},
        "text_templates": {"file": "text.yaml", "method": "llm", "styles": ["casual", "student"], "n": 2},
    }))
    yield tmp_path, server
    server.__exit__(None, None, None)


def test_llm_sql_and_text_templates_end_to_end(project):
    root, server = project
    cfg = str(root / "ragdx.yaml")

    r = ragdx("templates", "sql", "--config", cfg, "--dry-run")
    assert r.returncode == 0, r.stderr
    assert not server.chat_requests and not (root / "sql.yaml").exists()
    assert "dry run" in r.stdout

    r = ragdx("templates", "sql", "--config", cfg)
    assert r.returncode == 0, r.stderr
    assert len(server.chat_requests) == 2
    prompt = server.chat_requests[0].body["messages"][-1]["content"]
    assert "Only ask about people's titles and buildings." in prompt
    assert "Siobh" not in prompt  # the schema goes to the LLM, the rows never do (App. B)
    text = (root / "sql.yaml").read_text()
    assert "SELECT Title FROM Staff" in text and "SELECT Building FROM Faculty" in text
    assert "Shoesize" not in text and "*" not in text
    assert "rejected" in r.stderr and "Shoesize" in r.stderr

    r = ragdx("templates", "sql", "--config", cfg)  # cached schemas are not asked again
    assert r.returncode == 0 and len(server.chat_requests) == 2

    r = ragdx("templates", "text", "--config", cfg)
    assert r.returncode == 0, r.stderr
    doc = yaml.safe_load((root / "text.yaml").read_text())
    pairs = {(e["sql"], e["style"]): e["texts"] for e in doc["templates"]}
    assert len(pairs) == 4  # 2 SQL templates × 2 styles
    for (sql, _), texts in pairs.items():
        placeholder = re.search(r"'\[[^\]]+\]'", sql).group(0)
        assert len(texts) == 2 and all(placeholder in t for t in texts)
        assert not any("lost its placeholder" in t for t in texts)
    assert "LLM usage" in r.stdout

    asked = len(server.chat_requests)
    r = ragdx("templates", "text", "--config", cfg)  # every pair is done: nothing is asked
    assert r.returncode == 0 and len(server.chat_requests) == asked


def test_model_that_never_complies_is_recorded_not_dropped(project):
    root, server = project
    cfg = str(root / "ragdx.yaml")
    assert ragdx("templates", "sql", "--config", cfg).returncode == 0
    server.reply = lambda body: "I cannot help with that."
    r = ragdx("templates", "text", "--config", cfg)
    assert r.returncode == 1
    assert r.stderr.count("failed") == 4  # each (template, style) pair says why
    assert "0 valid of 2" in r.stderr
    assert len(server.chat_requests) == 2 + 4 * 3  # three attempts per pair
