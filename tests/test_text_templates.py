"""Text templates: validation of phrasings, the rules and LLM generators, the editable file, and
balancing to exactly n texts per (SQL template, style)."""

from __future__ import annotations

import json
import re

import pytest

from ragdx.db import connect, inspect_schema
from ragdx.db.load import load_tables_json
from ragdx.demo.database import build_demo_database
from ragdx.errors import RagdxError, TemplateError
from ragdx.gen.sql_templates import (
    SqlTemplate,
    parse_template,
    read_templates,
    schema_templates,
)
from ragdx.gen.text_templates import (
    TextTemplate,
    balance,
    check_text,
    generate_text_templates,
    merge_text_file,
    read_text_templates,
    select_valid,
    text_prompt,
)
from ragdx.gen.verbalise import BUILTIN_STYLES
from ragdx.llm import OpenAICompatibleLLM
from tests.conftest import AURP, need
from tests.support.openai_server import OpenAIServer

pytestmark = pytest.mark.timeout(60)

PH = re.compile(r"\[([A-Za-z_][\w$]*\.[A-Za-z_][\w$]*)\]")


def normal(text: str) -> str:
    """Case, spacing and final punctuation do not make two phrasings different."""
    return " ".join(text.lower().split()).rstrip(".?! ")


@pytest.fixture(scope="module")
def demo_parsed(tmp_path_factory):
    path = build_demo_database(tmp_path_factory.mktemp("demo") / "demo.sqlite")
    engine = connect(f"sqlite:///{path}")
    try:
        schema = inspect_schema(engine)
        return [parse_template(t, schema) for t in schema_templates(schema)]
    finally:
        engine.dispose()


@pytest.fixture(scope="module")
def aurp_schema(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('aurp') / 'aurp.sqlite'}"
    load_tables_json(url, need(AURP / "aurp_tables.json"))
    engine = connect(url)
    try:
        return inspect_schema(engine)
    finally:
        engine.dispose()


@pytest.fixture(scope="module")
def client(aurp_schema):
    """Two parsed templates about a client and one with two placeholders."""
    industry = parse_template(
        SqlTemplate("SELECT Industry FROM Client WHERE Name = '[Client.Name]'", "Client"), aurp_schema)
    location = parse_template(
        SqlTemplate("SELECT Location FROM Client WHERE Name = '[Client.Name]'", "Client"), aurp_schema)
    both = parse_template(SqlTemplate(
        "SELECT Project.StartDate FROM Project JOIN Client ON Project.Client = Client.Name "
        "WHERE Client.Name = '[Client.Name]' AND Project.Location = '[Project.Location]'", "Project"),
        aurp_schema)
    return industry, location, both


# ----------------------------------------------------------------------------- check_text / select_valid

ONE = ["Client.Name"]
TWO = ["Client.Name", "Project.Location"]


@pytest.mark.parametrize(("text", "expected", "problem"), [
    ("industry of '[Client.Name]'", ONE, None),
    ("start of the project in '[Project.Location]' for '[Client.Name]'", TWO, None),
    ("industry of the client", ONE, "missing placeholder(s) [Client.Name]"),
    ("projects for '[Client.Name]'", TWO, "missing placeholder(s) [Project.Location]"),
    ("industry of '[client.name]'", ONE, "missing placeholder(s) [Client.Name]"),
    ("industry of '[Client.Name]' in '[Client.Location]'", ONE, "unknown placeholder(s) [Client.Location]"),
    ("'[Client.Name]' or rather '[Client.Name]'", ONE, "a placeholder appears more than once"),
])
def test_check_text(text, expected, problem):
    assert check_text(text, expected) == problem


def test_select_valid_drops_invalid_and_near_duplicates_and_keeps_n():
    candidates = [
        "Industry of '[Client.Name]'",
        "industry   of '[Client.Name]'?",  # same words, other spacing and final punctuation
        "INDUSTRY OF '[Client.Name]'.",  # same words, other case
        "industry of the client",  # no placeholder
        "  Sector of '[Client.Name]'  ",
        "'[Client.Name]' '[Client.Name]' industry",
        "Business field of '[Client.Name]'",
        "Line of work of '[Client.Name]'",  # valid, but n are already kept
    ]
    kept, rejected = select_valid(candidates, ONE, 3)
    assert kept == ["Industry of '[Client.Name]'", "Sector of '[Client.Name]'",
                    "Business field of '[Client.Name]'"]
    assert rejected == [
        ("industry   of '[Client.Name]'?", "duplicate"),
        ("INDUSTRY OF '[Client.Name]'.", "duplicate"),
        ("industry of the client", "missing placeholder(s) [Client.Name]"),
        ("'[Client.Name]' '[Client.Name]' industry", "a placeholder appears more than once"),
    ]


def test_select_valid_with_too_few_returns_fewer():
    kept, rejected = select_valid(["a '[Client.Name]'", "A '[Client.Name]'!", "b"], ONE, 3)
    assert kept == ["a '[Client.Name]'"]
    assert [reason for _, reason in rejected] == ["duplicate", "missing placeholder(s) [Client.Name]"]


# ----------------------------------------------------------------------------- rules method


def test_rules_give_exactly_n_valid_texts_per_template_and_style(demo_parsed):
    styles = ["short", "long", "interrogative"]
    out, rejected, errors = generate_text_templates(demo_parsed, styles, 3)
    assert rejected == [] and errors == []
    assert len(demo_parsed) >= 40
    by_pair: dict[tuple[str, str], list[TextTemplate]] = {}
    for t in out:
        assert t.method == "rules"
        by_pair.setdefault((t.sql_template_id, t.style), []).append(t)
    assert set(by_pair) == {(p.id, s) for p in demo_parsed for s in styles}
    placeholders = {p.id: sorted(p.placeholders) for p in demo_parsed}
    for (sid, style), texts in by_pair.items():
        assert len(texts) == 3, (sid, style)
        assert len({normal(t.text) for t in texts}) == 3, [t.text for t in texts]
        for t in texts:
            assert sorted(PH.findall(t.text)) == placeholders[sid], t.text
            if style == "interrogative":
                assert t.text.rstrip().endswith("?"), t.text
            if style == "long":  # the style asks for at least 30 words
                assert len(t.text.split()) >= 30, t.text
    for p in demo_parsed:  # short is shorter than long for the same template
        short = max(len(t.text.split()) for t in by_pair[(p.id, "short")])
        long_ = min(len(t.text.split()) for t in by_pair[(p.id, "long")])
        assert short < long_, p.template.sql


def test_rules_skip_pairs_already_there(demo_parsed):
    first = demo_parsed[0]
    out, _, _ = generate_text_templates(demo_parsed[:2], ["short", "long"], 2,
                                        skip={(first.id, "short")})
    assert {(t.sql_template_id, t.style) for t in out} == {
        (first.id, "long"), (demo_parsed[1].id, "short"), (demo_parsed[1].id, "long")}


def test_unknown_style_is_an_error(demo_parsed):
    with pytest.raises(TemplateError) as info:
        generate_text_templates(demo_parsed[:1], ["short", "pirate"], 3)
    assert "pirate" in info.value.message
    assert info.value.field == "styles"


def test_user_style_needs_the_llm_method(demo_parsed):
    with pytest.raises(TemplateError) as info:
        generate_text_templates(demo_parsed[:1], ["pirate"], 3,
                                custom_styles={"pirate": "Talk like a pirate."})
    assert "llm" in info.value.message
    assert "pirate" in info.value.message


def test_n_below_one_is_an_error(demo_parsed):
    with pytest.raises(TemplateError) as info:
        generate_text_templates(demo_parsed[:1], ["short"], 0)
    assert info.value.field == "n"


# ----------------------------------------------------------------------------- LLM method


def make_llm(server: OpenAIServer) -> OpenAICompatibleLLM:
    return OpenAICompatibleLLM("test-model", base_url=server.base_url, api_key="sk-test",
                               timeout=5.0, max_retries=0)


def prompt_of(body: dict) -> str:
    (message,) = body["messages"]
    return message["content"]


def test_llm_cleans_numbering_and_quotes_and_drops_bad_lines(client):
    industry, _, _ = client
    lines = [
        "1. Industry of '[Client.Name]'",
        '2) "Sector of client \'[Client.Name]\'"',
        "- Industry, client",  # no placeholder
        "3. industry of '[Client.Name]'.",  # a duplicate
        "* What industry is '[Client.Name]' in?",
    ]
    reply = "\n".join(lines)
    with OpenAIServer() as server:
        server.reply = lambda body: reply
        out, rejected, errors = generate_text_templates([industry], ["short"], 3, method="llm",
                                                        llm=make_llm(server))
        requests = server.chat_requests
    assert errors == []
    assert [t.text for t in out] == ["Industry of '[Client.Name]'", "Sector of client '[Client.Name]'",
                                     "What industry is '[Client.Name]' in?"]
    assert {(t.style, t.method, t.sql) for t in out} == {("short", "llm", industry.template.sql)}
    assert sorted((r.text, r.reason) for r in rejected) == [
        ("Industry, client", "missing placeholder(s) [Client.Name]"),
        ("industry of '[Client.Name]'.", "duplicate"),
    ]
    assert len(requests) == 1


def test_llm_asks_again_until_enough_valid_lines(client):
    industry, _, _ = client
    answers = iter(["Industry of '[Client.Name]'\nno placeholder here",
                    "Sector of '[Client.Name]'\nindustry of '[Client.Name]'",
                    "Field of business of '[Client.Name]'"])
    with OpenAIServer() as server:
        server.reply = lambda body: next(answers)
        out, _, errors = generate_text_templates([industry], ["short"], 3, method="llm",
                                                 llm=make_llm(server))
        assert len(server.chat_requests) == 3
    assert errors == []
    assert [t.text for t in out] == ["Industry of '[Client.Name]'", "Sector of '[Client.Name]'",
                                     "Field of business of '[Client.Name]'"]


def test_llm_that_never_gives_enough_fails_only_its_pair(client):
    industry, location, _ = client

    def reply(body):
        if "SELECT Location" in prompt_of(body):
            return "Location of '[Client.Name]'\nLocation of the client\n1. location of '[Client.Name]'?"
        return "Industry of '[Client.Name]'\nSector of '[Client.Name]'\nField of '[Client.Name]'"

    with OpenAIServer() as server:
        server.reply = reply
        out, _, errors = generate_text_templates([industry, location], ["short"], 3, method="llm",
                                                 llm=make_llm(server))
        asked = [prompt_of(r.body) for r in server.chat_requests]
    assert len(out) == 3 and {t.sql for t in out} == {industry.template.sql}
    (error,) = errors
    assert error.startswith(f"{location.template.sql} [short]: ")
    assert "1 valid of 3" in error and "after 3 attempts" in error
    assert sum("SELECT Location" in p for p in asked) == 3
    assert sum("SELECT Industry" in p for p in asked) == 1


def test_llm_failure_of_the_endpoint_is_an_error_line(client):
    industry, location, _ = client

    def reply(body):
        from tests.support.openai_server import Fault

        return Fault.http(400) if "SELECT Location" in prompt_of(body) else \
            "Industry of '[Client.Name]'\nSector of '[Client.Name]'\nField of '[Client.Name]'"

    with OpenAIServer() as server:
        server.reply = reply
        out, _, errors = generate_text_templates([industry, location], ["short"], 3, method="llm",
                                                 llm=make_llm(server))
    assert len(out) == 3
    (error,) = errors
    assert error.startswith(f"{location.template.sql} [short]: ")


def test_llm_prompt_has_style_instruction_and_placeholders(client):
    _, _, both = client
    custom = {"pirate": "Pirate: every query sounds like a pirate asking, arr."}
    seen: list[str] = []

    def reply(body):
        seen.append(prompt_of(body))
        return "\n".join(f"Arr {i}, '[Client.Name]' at '[Project.Location]'?" for i in range(4))

    with OpenAIServer() as server:
        server.reply = reply
        out, _, errors = generate_text_templates([both], ["pirate", "short"], 2, method="llm",
                                                 llm=make_llm(server), custom_styles=custom)
    assert errors == []
    assert len(out) == 4
    pirate = [p for p in seen if custom["pirate"] in p]
    short = [p for p in seen if BUILTIN_STYLES["short"] in p]
    assert len(pirate) == 1 and len(short) == 1
    for prompt in seen:
        assert "'[Client.Name]'" in prompt and "'[Project.Location]'" in prompt
        assert both.template.sql in prompt
        assert "2 different natural-language queries" in prompt
    assert pirate[0] == text_prompt(both, custom["pirate"], 2)


# ----------------------------------------------------------------------------- the file


def test_read_reference_short_json(aurp_schema):
    texts = read_text_templates(need(AURP / "TextTemplateGenerator" / "short.json"))
    assert len(texts) == 30
    assert {t.style for t in texts} == {"short"}
    assert {t.method for t in texts} == {"reference"}
    sql = read_templates(need(AURP / "SQLTemplateGenerator" / "sql_templates.json"))
    parsed = {p.id: p for p in (parse_template(t, aurp_schema) for t in sql)}
    # the phrasings belong to the reference SQL templates, three each, all valid
    assert {t.sql_template_id for t in texts} == set(parsed)
    groups, problems = balance(texts, parsed, 3)
    assert problems == []
    assert len(groups) == 10 and all(len(v) == 3 for v in groups.values())


def _read_error(tmp_path, text: str) -> TemplateError:
    path = tmp_path / "texts.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TemplateError) as info:
        read_text_templates(path)
    assert info.value.source == str(path) and str(path) in str(info.value)
    return info.value


GOOD_ENTRY = ("- sql: SELECT Industry FROM Client WHERE Name = '[Client.Name]'\n"
              "  style: short\n  texts:\n  - industry of '[Client.Name]'\n")


@pytest.mark.parametrize(("entries", "field", "words"), [
    ("- style: short\n  texts: [a]\n", "templates[0].sql", "sql"),
    (GOOD_ENTRY + "- sql: SELECT 1\n  texts: [a]\n", "templates[1].style", "style"),
    ("- sql: SELECT 1\n  style: short\n  texts: industry\n", "templates[0].texts", "list"),
    ("- sql: SELECT 1\n  style: short\n  texts: [a, 3]\n", "templates[0].texts", "list"),
    (GOOD_ENTRY + "- sql: SELECT 1\n  style: short\n  texts: [a]\n  comment: x\n", "templates[1]", "comment"),
    ("- just a string\n", "templates[0]", "mapping"),
])
def test_read_text_templates_errors_name_the_field(tmp_path, entries, field, words):
    body = "version: 1\ntemplates:\n" + "".join("  " + line + "\n" for line in entries.splitlines())
    err = _read_error(tmp_path, body)
    assert err.field == field
    assert words in err.message
    assert field in str(err)


def test_read_text_templates_malformed_yaml(tmp_path):
    err = _read_error(tmp_path, "templates:\n  - sql: [unclosed\n")
    assert "not valid YAML" in err.message
    assert err.field and err.field.startswith("line ")


def test_read_text_templates_without_templates_list(tmp_path):
    err = _read_error(tmp_path, "version: 1\ntemplates:\n  sql: x\n")
    assert err.field == "templates"


def _texts(parsed, style, *texts, method="rules"):
    return [TextTemplate(parsed.template.sql, style, t, method) for t in texts]


def test_merge_text_file_round_trip_and_rerun(tmp_path, client):
    industry, location, _ = client
    path = tmp_path / "texts.yaml"
    templates = (_texts(industry, "short", "industry of '[Client.Name]'", "sector: '[Client.Name]'")
                 + _texts(location, "short", "where is '[Client.Name]'", "location of '[Client.Name]'"))
    assert merge_text_file(path, templates) == 2
    back = read_text_templates(path)
    assert [(t.sql, t.style, t.text, t.method) for t in back] == [
        (t.sql, t.style, t.text, t.method) for t in templates]
    before = path.read_bytes()
    assert merge_text_file(path, templates) == 0
    assert merge_text_file(path, list(reversed(templates))) == 0
    assert path.read_bytes() == before


def test_merge_text_file_keeps_hand_edits(tmp_path, client):
    industry, location, _ = client
    path = tmp_path / "texts.yaml"
    merge_text_file(path, _texts(industry, "short", "industry of '[Client.Name]'", "sector: '[Client.Name]'"))
    text = path.read_text(encoding="utf-8")
    (line,) = [line for line in text.splitlines() if "sector" in line]  # however YAML quoted it
    indent = line[:len(line) - len(line.lstrip())]
    text = text.replace(line, f"{indent}- line of business of '[Client.Name]'  # was: sector")
    text = text.replace("templates:\n", "templates:\n# reworded by hand\n", 1)
    path.write_text(text, encoding="utf-8")
    edited = path.read_bytes()

    again = (_texts(industry, "short", "industry of '[Client.Name]'", "sector: '[Client.Name]'")
             + _texts(industry, "long", "I would like to know the industry of '[Client.Name]'")
             + _texts(location, "short", "where is '[Client.Name]'"))
    added = merge_text_file(path, again)
    assert added == 2
    after = path.read_bytes()
    assert after.startswith(edited) and len(after) > len(edited)
    texts = [(t.style, t.text) for t in read_text_templates(path)]
    assert ("short", "line of business of '[Client.Name]'") in texts
    assert ("short", "sector: '[Client.Name]'") not in texts
    assert ("long", "I would like to know the industry of '[Client.Name]'") in texts
    assert ("short", "where is '[Client.Name]'") in texts


@pytest.mark.parametrize("tail", ["notes:\n  owner: data team\n", "version: 1\n"],
                         ids=["mapping-after", "version-after"])
def test_merge_text_file_refuses_when_templates_is_not_last(tmp_path, client, tail):
    industry, _, _ = client
    path = tmp_path / "texts.yaml"
    body = "templates:\n" + "".join("  " + line + "\n" for line in GOOD_ENTRY.splitlines()) + tail
    path.write_text(body, encoding="utf-8")
    assert len(read_text_templates(path)) == 1  # a valid file as it stands
    with pytest.raises(RagdxError) as info:
        merge_text_file(path, _texts(industry, "long", "tell me the industry of '[Client.Name]'"))
    assert "templates:" in str(info.value)
    assert path.read_text(encoding="utf-8") == body


def test_balance_keeps_n_and_reports_short_pairs(client):
    industry, location, both = client
    texts = (
        _texts(industry, "short", "industry of '[Client.Name]'", "sector of '[Client.Name]'",
               "Industry of '[Client.Name]'?", "field of '[Client.Name]'", "trade of '[Client.Name]'")
        + _texts(location, "short", "where is '[Client.Name]'", "location of the client",
                 "place of '[Client.Name]'")
        + _texts(both, "long", "start for '[Client.Name]' at '[Project.Location]'",
                 "begin of '[Client.Name]' in '[Project.Location]'",
                 "when '[Client.Name]' at '[Project.Location]'")
        + [TextTemplate("SELECT Location FROM Project WHERE Name = '[Project.Name]'", "short", "x")]
    )
    parsed = {p.id: p for p in client}
    groups, problems = balance(texts, parsed, 3)
    assert set(groups) == {(industry.id, "short"), (both.id, "long")}
    assert [t.text for t in groups[(industry.id, "short")]] == [
        "industry of '[Client.Name]'", "sector of '[Client.Name]'", "field of '[Client.Name]'"]
    assert all(isinstance(t, TextTemplate) for items in groups.values() for t in items)
    location_problems = [p for p in problems if p.startswith(location.template.sql)]
    assert any("only 2 valid text templates, 3 needed" in p for p in location_problems)
    assert any("location of the client" in p and "missing placeholder" in p for p in location_problems)
    assert any("Industry of '[Client.Name]'?" in p and "duplicate" in p for p in problems)
    # a text of a SQL template that is not in play is neither kept nor reported
    assert not any("Project.Name" in p for p in problems)


def test_reference_json_errors(tmp_path):
    path = tmp_path / "short.json"
    path.write_text(json.dumps({"SELECT 1": "not a list"}), encoding="utf-8")
    with pytest.raises(TemplateError) as info:
        read_text_templates(path)
    assert info.value.source == str(path) and info.value.field == "SELECT 1"
