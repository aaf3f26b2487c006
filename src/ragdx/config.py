"""``ragdx.yaml``: the project configuration. Every CLI option can come from here.

The CLI takes an option from the command line when given, else from this file, else the default
written in these models, so a project can pin its settings once and each stage still runs alone.
Validation errors name the file and the field (``ragdx.yaml: gen.seed: Input should be ...``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from ragdx.embed import EmbedderConfig
from ragdx.errors import RagdxError, validated
from ragdx.llm.client import LLMConfig

DEFAULT_CONFIG = "ragdx.yaml"
DEFAULT_GROUP_CAP = 25


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SqlTemplatesConfig(_Section):
    file: Path = Path("templates/sql.yaml")
    method: Literal["schema", "llm"] = "schema"
    #: target schemas for the llm method, each a list of table names; default: every table alone
    schemas: list[list[str]] = Field(default_factory=list)
    #: the {SPECIFIC_REQUIREMENTS} of the paper's Table 7 prompt
    requirements: list[str] = Field(default_factory=list)


class TextTemplatesConfig(_Section):
    file: Path = Path("templates/text.yaml")
    method: Literal["rules", "llm"] = "rules"
    styles: list[str] = Field(default_factory=lambda: ["short", "long"])
    n: int = Field(default=3, ge=1, le=50)


class GenConfig(_Section):
    out: Path = Path("dataset")
    styles: list[str] | None = None
    #: a first run on a real database stays small: at most this many semantic groups per SQL
    #: template (a seeded sample; what is left out is printed); 0 or null = no cap
    max_groups_per_template: int | None = Field(default=DEFAULT_GROUP_CAP, ge=0)
    seed: int = 0
    multi_answer: Literal["drop", "keep"] = "drop"
    unanswerable: Literal["drop", "keep"] = "drop"
    #: an answer that is NULL states nothing: drop and count it, keep it as an unanswerable
    #: query, or keep it as it is (replaying a published dataset)
    null_answers: Literal["drop", "unanswerable", "keep"] = "drop"
    method: Literal["set", "per-combination"] = "set"
    per_group: int | None = Field(default=None, ge=1)
    unbalanced: bool = False
    #: multi-turn conversations per walk of the schema's relations (0: none)
    conversations: int = Field(default=0, ge=0)
    #: refusal groups of each kind per SQL template (``ragdx.gen.refusals``; 0: none) and which kinds
    refusals: int = Field(default=0, ge=0)
    refusal_kinds: list[str] | None = None
    #: question kinds to ask besides look-ups (``ragdx.gen.kinds``; null: look-ups only)
    kinds: list[Literal["lookup", "list", "count", "total", "extreme", "comparison", "time_range"]] | None = None
    kb: Path | None = None
    #: the user's own documents to link evidence in (instead of ``kb``): JSONL, JSON, a folder
    corpus: Path | None = None


class KBConfig(_Section):
    out: Path = Path("kb")
    omit: list[str] = Field(default_factory=list)
    omit_tables: list[str] = Field(default_factory=list)


class RunConfig(_Section):
    """``ragdx run``'s defaults (and ``ragdx.run``'s, given ``config=``): checked again, with the
    flags given over them, by :func:`ragdx.rag.options.run_options`."""

    concurrency: int = Field(default=4, ge=1)
    contexts: Literal["once", "full", "hash"] = "once"
    #: a count of records (5) or a share below 1 (0.1 or "10%"); None: no bound
    max_failed: int | float | str | None = None
    probe: bool = True
    executor: Literal["local", "ray"] = "local"
    address: str | None = None
    workers: int = Field(default=2, ge=1)


class NamesConfig(_Section):
    """The nouns questions and documents use, where the derived ones read wrong (``ragdx schema``
    shows them under "called"): by table, by column, and by foreign-key column."""

    tables: dict[str, str] = Field(default_factory=dict)
    columns: dict[str, str] = Field(default_factory=dict)
    relations: dict[str, str] = Field(default_factory=dict)


class Config(_Section):
    database: str | None = None
    #: look-up keys by table, overriding the inferred ones: ``{Employees: [FirstName, LastName],
    #: Orders: [OrderID]}`` (a numeric id named here is one people use, like an order number)
    keys: dict[str, list[str]] = Field(default_factory=dict)
    #: columns to ask about although ragdx leaves them out by default (contact details, long free
    #: text, constant columns, 0/1 flags): ``[Staff.Email, Products.Discontinued]``
    ask: list[str] = Field(default_factory=list)
    #: nouns for tables, columns and relations instead of the derived ones (ragdx.gen.naming)
    names: NamesConfig = Field(default_factory=NamesConfig)
    llm: LLMConfig | None = None
    #: the embedding model of the knowledge-boundary tests (default: the packaged MiniLM)
    embedder: EmbedderConfig = Field(default_factory=EmbedderConfig)
    #: user styles: name → instruction given to the LLM (App. C)
    styles: dict[str, str] = Field(default_factory=dict)
    sql_templates: SqlTemplatesConfig = Field(default_factory=SqlTemplatesConfig)
    text_templates: TextTemplatesConfig = Field(default_factory=TextTemplatesConfig)
    gen: GenConfig = Field(default_factory=GenConfig)
    kb: KBConfig = Field(default_factory=KBConfig)
    run: RunConfig = Field(default_factory=RunConfig)
    #: names a corpus uses for an entity, by its ``Table:key`` (the key as in a record's
    #: ``entities``): ``{"Customer:Gonçalves": ["Luís Gonçalves"]}``; used by evidence linking
    aliases: dict[str, list[str]] = Field(default_factory=dict)
    #: the file this configuration was read from (None: the defaults), so that an error found
    #: later (a table in ``names:`` the database lacks) names that file, not "ragdx.yaml"
    _source: str | None = PrivateAttr(default=None)

    @property
    def source(self) -> str | None:
        return self._source


def load_config(path: str | Path | None = None) -> Config:
    """Read ``path`` (or ``./ragdx.yaml`` when it exists); relative paths in it are taken
    relative to the file's directory, so a project runs the same from any working directory."""
    from ragdx.store import read_structured

    explicit = path is not None
    path = Path(path or DEFAULT_CONFIG)
    if not path.exists():
        if explicit:
            raise RagdxError("no such config file", source=str(path))
        return Config()
    raw = read_structured(path) or {}
    if not isinstance(raw, dict):
        raise RagdxError("expected a mapping of sections", source=str(path))
    config = _rebase(validated(Config, raw, source=str(path)), path.parent)
    config._source = str(path)
    return config


def _rebase(config: Config, base: Path) -> Config:
    def fix(p: Path) -> Path:
        return p if p.is_absolute() else base / p

    def fix_optional(p: Path | None) -> Path | None:
        return None if p is None else fix(p)

    config.sql_templates.file = fix(config.sql_templates.file)
    config.text_templates.file = fix(config.text_templates.file)
    config.gen.out = fix(config.gen.out)
    config.gen.kb = fix_optional(config.gen.kb)
    config.gen.corpus = fix_optional(config.gen.corpus)
    config.kb.out = fix(config.kb.out)
    config.embedder.model_path = fix_optional(config.embedder.model_path)
    if config.llm is not None and config.llm.cache_dir is not None:
        config.llm.cache_dir = fix(config.llm.cache_dir)
    if config.database and config.database.startswith("sqlite:///") and not config.database.startswith("sqlite:////"):
        rel = config.database[len("sqlite:///"):]
        if rel and rel != ":memory:" and not rel.startswith("file:"):
            config.database = f"sqlite:///{(base / rel).as_posix()}"
    return config
