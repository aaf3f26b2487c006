"""Token estimates for dry runs, made without a tokenizer."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.table import Table

if TYPE_CHECKING:
    from ragdx.llm.client import Usage

CHARS_PER_TOKEN = 4
# Role name and separators that chat templates wrap around each message.
MESSAGE_OVERHEAD_TOKENS = 4


def estimate_tokens(text: str) -> int:
    """Characters / 4, rounded up: OpenAI's rule of thumb for English with BPE vocabularies.

    No real tokenizer is used on purpose: tiktoken downloads its vocabularies at run time,
    and a dry run must not touch the network. Expect errors of a quarter either way, more
    for code, non-Latin scripts or numbers.
    """
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def estimate_prompt_tokens(messages: Sequence[Mapping[str, Any]]) -> int:
    """Estimated prompt tokens: characters / 4 of each content, plus 4 per message."""
    total = 0
    for message in messages:
        content = message.get("content") or ""
        # Multi-part contents (text + image parts) are measured as their JSON.
        text = content if isinstance(content, str) else json.dumps(content)
        total += estimate_tokens(text) + MESSAGE_OVERHEAD_TOKENS
    return total


def estimate_table(usage: Usage, *, model: str | None = None) -> Table:
    """A Rich table of what a run would cost, from the usage a ``DryRunLLM`` counted."""
    title = "LLM dry run" + (f": {model}" if model else "")
    table = Table(
        title=title,
        caption="tokens estimated as characters / 4; completion tokens as max_tokens or the default",
    )
    table.add_column("")
    table.add_column("count", justify="right")
    table.add_row("requests to send", f"{usage.calls:,}")
    table.add_row("answered from cache", f"{usage.cache_hits:,}")
    table.add_row("prompt tokens (est.)", f"{usage.prompt_tokens:,}")
    table.add_row("completion tokens (est.)", f"{usage.completion_tokens:,}")
    table.add_row("total tokens (est.)", f"{usage.prompt_tokens + usage.completion_tokens:,}")
    return table
