"""Text templates: N phrasings of each SQL template per linguistic style (GRAMMAR §4.1, App. C).

Two generators share one contract: for every (SQL template, style) exactly N distinct texts,
each carrying exactly the SQL template's placeholders. ``rules`` (the default) verbalises the
parsed SQL deterministically; ``llm`` asks a model with the style's criteria and keeps only
outputs that pass validation, so a small local model's chatter cannot leak into a dataset.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ragdx.errors import RagdxError, TemplateError
from ragdx.gen.sql_templates import PLACEHOLDER, ParsedTemplate, template_id
from ragdx.gen.verbalise import BUILTIN_STYLES, verbalise


@dataclass(frozen=True, slots=True)
class TextTemplate:
    sql: str
    style: str
    text: str
    method: str = "rules"

    @property
    def sql_template_id(self) -> str:
        return template_id(self.sql)

    @property
    def id(self) -> str:
        blob = f"{self.sql_template_id}\x1f{self.style}\x1f{self.text}".encode()
        return "t" + hashlib.sha256(blob).hexdigest()[:10]


@dataclass(slots=True)
class TextRejection:
    sql: str
    style: str
    text: str
    reason: str


def placeholders_of(text: str) -> list[str]:
    return [f"{m.group(1)}.{m.group(2)}" for m in PLACEHOLDER.finditer(text)]


def check_text(text: str, expected: Sequence[str]) -> str | None:
    """Why ``text`` cannot be a template of a SQL template with ``expected`` placeholders."""
    found = placeholders_of(text)
    if sorted(found) != sorted(expected):
        missing = sorted(set(expected) - set(found))
        extra = sorted(set(found) - set(expected))
        if missing:
            return f"missing placeholder(s) {', '.join('[' + m + ']' for m in missing)}"
        if extra:
            return f"unknown placeholder(s) {', '.join('[' + e + ']' for e in extra)}"
        return "a placeholder appears more than once"
    if not text.strip():
        return "empty"
    return None


def _normal(text: str) -> str:
    return " ".join(text.lower().split()).rstrip(".?! ")


def select_valid(candidates: Sequence[str], expected: Sequence[str], n: int
                 ) -> tuple[list[str], list[tuple[str, str]]]:
    """The first ``n`` valid, mutually distinct candidates and the rejected ones with reasons."""
    kept: list[str] = []
    seen: set[str] = set()
    rejected: list[tuple[str, str]] = []
    for text in candidates:
        text = text.strip()
        reason = check_text(text, expected)
        if reason is None and _normal(text) in seen:
            reason = "duplicate"
        if reason is not None:
            rejected.append((text, reason))
        elif len(kept) < n:
            kept.append(text)
            seen.add(_normal(text))
    return kept, rejected


# ----------------------------------------------------------------------------- generators


def style_instructions(custom: Mapping[str, str] | None = None) -> dict[str, str]:
    styles = dict(BUILTIN_STYLES)
    styles.update(custom or {})
    return styles


def rules_templates(parsed: ParsedTemplate, style: str, n: int) -> list[TextTemplate]:
    if style not in BUILTIN_STYLES:
        raise TemplateError(
            f"style '{style}' has no rules; use --method llm for user styles", field="styles")
    texts = verbalise(parsed.semantics, style, n)
    kept, rejected = select_valid(texts, parsed.placeholders, n)
    if rejected or len(kept) != n:  # the verbaliser's own contract; fail loudly if broken
        raise TemplateError(f"verbaliser produced invalid text: {rejected}", field=parsed.template.sql)
    return [TextTemplate(parsed.template.sql, style, t, "rules") for t in kept]


TEXT_PROMPT = """You are a text query template generator. Rewrite the SQL query template below as {n} different natural-language queries that a user of a chatbot could type. Every query must ask for exactly what the SQL selects, nothing more or less.
##CRITERIA##
- Keep every placeholder exactly as written, including the single quotes: {placeholders}.
- Do not use any other bracketed placeholder and do not invent values.
- Each query must be different from the others.
- {instruction}
##RESPONSE FORMAT##
- Output each query on its own line, without numbering, prefix or suffix.
- Do not include any other text in your response.
##SQL TEMPLATE##
{sql}
##RESPONSE_START##
"""


def text_prompt(parsed: ParsedTemplate, instruction: str, n: int) -> str:
    placeholders = ", ".join(f"'[{p}]'" for p in parsed.placeholders)
    return TEXT_PROMPT.format(n=n, placeholders=placeholders, instruction=instruction.strip(),
                              sql=parsed.template.sql)


def parse_llm_lines(text: str) -> list[str]:
    out = []
    for line in text.splitlines():
        line = re.sub(r"^\s*(\d+[.)]|[-*•])\s*", "", line).strip()
        if len(line) >= 2 and line[0] == line[-1] == '"':
            line = line[1:-1].strip()
        if line and not line.startswith("##"):
            out.append(line)
    return out


async def llm_text_templates(llm, parsed: ParsedTemplate, style: str, instruction: str, n: int,
                             *, attempts: int = 3) -> tuple[list[TextTemplate], list[TextRejection]]:
    """Ask for ``n`` phrasings; invalid lines are rejected and the model is asked again (with a
    different ``sample_index`` so the cache does not return the same answer) until ``n`` are
    valid or ``attempts`` run out, in which case :class:`TemplateError` names the template."""
    candidates: list[str] = []
    rejected: list[TextRejection] = []
    prompt = text_prompt(parsed, instruction, n)
    for attempt in range(attempts):
        completion = await llm.complete([{"role": "user", "content": prompt}], sample_index=attempt)
        if getattr(completion, "dry_run", False):
            return [], []
        candidates += parse_llm_lines(completion.text)
        kept, bad = select_valid(candidates, parsed.placeholders, n)
        if len(kept) == n:
            rejected += [TextRejection(parsed.template.sql, style, t, r) for t, r in bad]
            return [TextTemplate(parsed.template.sql, style, t, "llm") for t in kept], rejected
    rejected += [TextRejection(parsed.template.sql, style, t, r) for t, r in bad]
    raise TemplateError(f"the LLM gave {len(kept)} valid of {n} phrasings in style '{style}' "
                        f"after {attempts} attempts", field=parsed.template.sql)


def generate_text_templates(parsed: Sequence[ParsedTemplate], styles: Sequence[str], n: int, *,
                            method: str = "rules", llm=None, custom_styles: Mapping[str, str] | None = None,
                            skip: set[tuple[str, str]] | None = None, progress=None,
                            ) -> tuple[list[TextTemplate], list[TextRejection], list[str]]:
    """Templates for every (SQL template, style) not in ``skip`` (pairs of SQL id and style).
    Returns the templates, the rejected candidates, and one error line per pair that failed."""
    instructions = style_instructions(custom_styles)
    unknown = [s for s in styles if s not in instructions]
    if unknown:
        raise TemplateError(f"unknown style(s) {unknown}; define them under 'styles:'", field="styles")
    if n < 1:
        raise TemplateError("must be at least 1", field="n")
    skip = skip or set()
    todo = [(p, s) for p in parsed for s in styles if (p.id, s) not in skip]
    out: list[TextTemplate] = []
    rejected: list[TextRejection] = []
    errors: list[str] = []
    if method == "rules":
        for p, s in todo:
            out += rules_templates(p, s, n)
            if progress:
                progress()
        return out, rejected, errors
    if method != "llm":
        raise TemplateError(f"unknown method '{method}' (rules or llm)", field="method")
    if llm is None:
        raise RagdxError("method 'llm' needs an 'llm:' section in ragdx.yaml", field="llm")

    async def one(p: ParsedTemplate, s: str):
        try:
            return await llm_text_templates(llm, p, s, instructions[s], n)
        except RagdxError as exc:
            return exc
        finally:
            if progress:
                progress()

    async def run_all():
        return await asyncio.gather(*(one(p, s) for p, s in todo))

    for (p, s), result in zip(todo, _run(run_all()), strict=True):
        if isinstance(result, Exception):
            errors.append(f"{p.template.sql} [{s}]: {result}")
        else:
            out += result[0]
            rejected += result[1]
    return out, rejected, errors


def _run(coro):
    """Run a coroutine from sync code, also where a loop is already running (notebooks)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


# ----------------------------------------------------------------------------- the file

HEADER = """\
# ragdx text templates. Edit freely: `ragdx templates text` adds phrasings only for
# (SQL template, style) pairs that are not in this file yet and never rewrites what is here.
# Every text must carry exactly the placeholders of its SQL template, quotes included.
version: 1
templates:
"""


def read_text_templates(path: str | Path) -> list[TextTemplate]:
    """Read a ragdx YAML file, or a GRAMMAR reference file (``{sql: [texts]}``, style = file stem)."""
    from ragdx.store import read_structured

    path = Path(path)
    doc = read_structured(path, error=TemplateError)
    if path.suffix == ".json":
        if not isinstance(doc, dict):
            raise TemplateError("expected an object {sql: [texts]}", source=str(path))
        out = []
        for sql, texts in doc.items():
            if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
                raise TemplateError("expected a list of texts", source=str(path), field=sql)
            out += [TextTemplate(sql.strip(), path.stem, t, "reference") for t in texts]
        return out
    doc = doc or {}
    entries = doc.get("templates") if isinstance(doc, dict) else None
    if not isinstance(entries, list):
        raise TemplateError("expected a list under 'templates:'", source=str(path), field="templates")
    out = []
    for i, entry in enumerate(entries):
        where = f"templates[{i}]"
        if not isinstance(entry, dict):
            raise TemplateError("expected a mapping with sql, style, texts", source=str(path), field=where)
        for key in ("sql", "style"):
            if not isinstance(entry.get(key), str) or not entry[key].strip():
                raise TemplateError(f"missing '{key}'", source=str(path), field=f"{where}.{key}")
        texts = entry.get("texts")
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            raise TemplateError("expected a list of strings", source=str(path), field=f"{where}.texts")
        unknown = set(entry) - {"sql", "style", "method", "texts"}
        if unknown:
            raise TemplateError(f"unknown key(s) {sorted(unknown)}", source=str(path), field=where)
        out += [TextTemplate(entry["sql"].strip(), entry["style"], t, str(entry.get("method", "file")))
                for t in texts]
    return out


def _render_block(templates: Sequence[TextTemplate]) -> str:
    import yaml

    grouped: dict[tuple[str, str], dict] = {}
    for t in templates:
        entry = grouped.setdefault((t.sql, t.style), {"sql": t.sql, "style": t.style, "method": t.method,
                                                      "texts": []})
        entry["texts"].append(t.text)
    body = yaml.safe_dump(list(grouped.values()), sort_keys=False, allow_unicode=True, width=1000)
    return "".join(f"  {line}\n" for line in body.splitlines())


def merge_text_file(path: str | Path, templates: Sequence[TextTemplate]) -> int:
    """Append templates of (SQL template, style) pairs the file lacks; returns how many pairs."""
    from ragdx.store import append_under_key, atomic_write_text

    path = Path(path)
    existing = read_text_templates(path) if path.exists() else []
    have = {(t.sql_template_id, t.style) for t in existing}
    new = [t for t in templates if (t.sql_template_id, t.style) not in have]
    if not new:
        if not path.exists():
            atomic_write_text(path, HEADER.replace("templates:\n", "templates: []\n"))
        return 0
    append_under_key(path, "templates", _render_block(new), header=HEADER,
                     count=lambda doc: sum(len(e.get("texts", [])) for e in doc.get("templates") or []),
                     expected=len(existing) + len(new))
    return len({(t.sql_template_id, t.style) for t in new})


def balance(templates: Sequence[TextTemplate], parsed: Mapping[str, ParsedTemplate], n: int
            ) -> tuple[dict[tuple[str, str], list[TextTemplate]], list[str]]:
    """Group by (SQL template id, style), validate, and keep exactly ``n`` per pair.

    Pairs with fewer than ``n`` valid texts are reported and left out, so every semantic group
    of a style has the same number of queries (GRAMMAR's balanced setting)."""
    grouped: dict[tuple[str, str], list[TextTemplate]] = {}
    for t in templates:
        grouped.setdefault((t.sql_template_id, t.style), []).append(t)
    out: dict[tuple[str, str], list[TextTemplate]] = {}
    problems: list[str] = []
    for (sid, style), items in grouped.items():
        if sid not in parsed:
            continue
        kept, rejected = select_valid([t.text for t in items], parsed[sid].placeholders, n)
        for text, reason in rejected:
            problems.append(f"{items[0].sql} [{style}]: '{text}': {reason}")
        if len(kept) < n:
            problems.append(f"{items[0].sql} [{style}]: only {len(kept)} valid text templates, {n} needed")
            continue
        by_text = {t.text.strip(): t for t in items}
        out[(sid, style)] = [by_text[k] for k in kept]
    return out, problems
