"""What each command is told: its flags merged with ``ragdx.yaml`` (``--config``; a flag left out
takes the file's value, then :mod:`ragdx.config`'s default), the option types several commands
share, and the checks on flags made before any work (a bad value is named by its flag, exit 2)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar, overload

import typer

from ragdx.errors import RagdxError

if TYPE_CHECKING:  # pragma: no cover
    from ragdx.config import Config
    from ragdx.llm.client import DryRunLLM, OpenAICompatibleLLM

T = TypeVar("T")

ConfigOpt = Annotated[Path | None, typer.Option("--config", "-c", help="Project config (default ./ragdx.yaml).")]
DbOpt = Annotated[str | None, typer.Option("--db", help="Database URL (sqlite:///f.db, postgresql://…, mysql://…).")]
DryRunOpt = Annotated[bool, typer.Option("--dry-run", help="Estimate LLM calls and tokens; send nothing, write nothing.")]
CorpusOpt = Annotated[Path | None, typer.Option("--corpus", help="Your own documents (JSONL, JSON {id: text}, or a folder of .txt/.md/.html/.pdf): link each record's evidence in them.")]
CorpusIdOpt = Annotated[str, typer.Option("--corpus-id-field", help="Id field of a JSON/JSONL corpus.")]
CorpusTextOpt = Annotated[str, typer.Option("--corpus-text-field", help="Text field of a JSON/JSONL corpus.")]
JudgeOpt = Annotated[str, typer.Option("--judge", help="exact, contains, f1, llm or cascade (cheap judges first, the LLM only where they cannot decide).")]
SetsOpt = Annotated[str, typer.Option("--sets", help="Answer sets: a response is correct if it gives all rows or any row.")]
KOpt = Annotated[int | None, typer.Option("--k", min=1, help="Retrieved documents considered (default: all).")]
RetrievalOpt = Annotated[str, typer.Option("--retrieval", help="The one rule retrieval is judged by: evidence (every fact the answer needs stated by a retrieved document; default), all (every gold document) or any (a hit).")]
BootOpt = Annotated[int, typer.Option("--boot", min=100, help="Bootstrap resamples of semantic groups.")]
DatasetOpt = Annotated[Path | None, typer.Option("--dataset", help="Where the runs' dataset is now, if it moved (default: the path the run manifest records relative to the run directory, then the absolute one); it must be the same dataset (content hash).")]


def pick(cli_value: T | None, config_value: T) -> T:
    """A flag given on the command line wins over ragdx.yaml (``None``: the flag was left out)."""
    return config_value if cli_value is None else cli_value


def project_config(path: Path | None) -> Config:
    """``--config`` (default ./ragdx.yaml, else the defaults), read and checked."""
    from ragdx.config import load_config

    return load_config(path)


def database_url(cli: str | None, cfg: Config) -> str:
    """``--db``, else ragdx.yaml's ``database:``; neither is bad input."""
    url = pick(cli, cfg.database)
    if not url:
        raise RagdxError("no database: pass --db URL or set 'database:' in ragdx.yaml", field="database")
    return url


def open_database(url: str, cfg: Config | None = None) -> Any:
    """:func:`ragdx.gen.pipeline.open_database` (the one way both faces open a database), imported
    only when a command opens one: ``ragdx --help`` must not load SQLAlchemy."""
    from ragdx.gen.pipeline import open_database as open_

    return open_(url, cfg)


def llm_client(cfg: Config, dry_run: bool, needed: bool) -> OpenAICompatibleLLM | DryRunLLM | None:
    """The client of ragdx.yaml's ``llm:`` section when the method needs one (its URL checked first)."""
    if not needed:
        return None
    from ragdx.llm import make_llm

    if cfg.llm is None:
        raise RagdxError("this method needs an 'llm:' section (base_url, model)",
                         source=str(getattr(cfg, "source", None) or "ragdx.yaml"), field="llm")
    base_url = getattr(cfg.llm, "base_url", None)
    if base_url:
        try:
            check_http_url(str(base_url), "llm.base_url")
        except RagdxError as exc:
            raise RagdxError(exc.message, source=str(getattr(cfg, "source", None) or "ragdx.yaml"),
                             field="llm.base_url") from None
    return make_llm(cfg.llm, dry_run=dry_run)


def check_http_url(url: str, flag: str) -> None:
    # before any work: a URL that cannot be parsed would otherwise fail once per record, or
    # raise from inside the HTTP client
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        port_ok = parts.port is None or parts.port > 0
    except ValueError as exc:
        raise RagdxError(f"not a URL ({exc}): {url!r}", field=flag) from None
    if parts.scheme not in ("http", "https") or not parts.hostname or not port_ok:
        raise RagdxError(f"expected an http:// or https:// URL with a host, got {url!r}", field=flag)


def choice(value: str, allowed: tuple[str, ...], name: str) -> str:
    if value not in allowed:
        raise RagdxError(f"expected one of {', '.join(allowed)}, got '{value}'", field=name)
    return value


@overload
def at_least_one(value: int, flag: str) -> int: ...
@overload
def at_least_one(value: int | None, flag: str) -> int | None: ...
def at_least_one(value: int | None, flag: str) -> int | None:
    if value is not None and value < 1:
        raise RagdxError(f"expected 1 or more, got {value}", field=flag)
    return value


def check_out(out: Path, overwrite: bool) -> None:
    # before any work: only a directory ragdx wrote may be replaced, and only with --overwrite
    from ragdx.store import check_replaceable

    check_replaceable(out, overwrite)


def shown_url(url: str) -> str:
    """The database URL as printed or written into a manifest: no password or secret parameter."""
    from ragdx.db.engine import safe_url

    return safe_url(url)
