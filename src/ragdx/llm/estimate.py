"""Token estimates for dry runs, made without a tokenizer; prices, and usage as a record and a line."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.table import Table

if TYPE_CHECKING:
    from ragdx.llm.usage import Usage

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


@dataclass(frozen=True, slots=True)
class Price:
    """What a model costs, in US dollars per million tokens (the unit providers quote)."""

    prompt: float
    completion: float

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return (prompt_tokens * self.prompt + completion_tokens * self.completion) / 1_000_000

    @classmethod
    def of(cls, value: Price | Mapping[str, float] | None) -> Price | None:
        """A ``Price``, a mapping with ``prompt`` and ``completion``, or None (unpriced)."""
        if value is None or isinstance(value, Price):
            return value
        return cls(float(value["prompt"]), float(value["completion"]))


def usage_record(usage: Usage | Mapping[str, Any] | None) -> dict[str, Any] | None:
    """Usage as manifests and ``metrics.json`` store it (every counter, ``cost_usd`` rounded to
    a millionth of a dollar, None when no price is configured); None for no usage at all."""
    if usage is None:
        return None
    data = dict(usage) if isinstance(usage, Mapping) else usage.as_dict()
    if data.get("cost_usd") is not None:
        data["cost_usd"] = round(float(data["cost_usd"]), 6)
    return data


def usage_line(usage: Usage | Mapping[str, Any] | None) -> str:
    """One line a person reads: "LLM usage: 120 calls (3 retries, 2 failed, 1 truncated), 40 cache hits,
    12,345 prompt + 678 completion tokens, ≈ $0.0123". Zero counts of trouble are left out."""
    data = usage_record(usage) or {}
    calls = int(data.get("calls") or 0)
    trouble = [f"{int(data.get(k) or 0):,} {label if data.get(k) != 1 or k != 'retries' else 'retry'}"
               for k, label in (("retries", "retries"), ("failures", "failed"), ("truncated", "truncated"))
               if data.get(k)]
    line = f"LLM usage: {calls:,} call{'s' if calls != 1 else ''}"
    line += f" ({', '.join(trouble)})" if trouble else ""
    line += (f", {int(data.get('cache_hits') or 0):,} cache hits, {int(data.get('prompt_tokens') or 0):,} prompt + "
             f"{int(data.get('completion_tokens') or 0):,} completion tokens")
    if data.get("cost_usd") is not None:
        line += f", \u2248 {dollars(data['cost_usd'])}"
    return line


def dollars(cost: float) -> str:
    """A cost in dollars, to the cent from a dollar up and to six places below one (a few hundred
    tokens cost a thousandth of a cent)."""
    return f"${cost:,.2f}" if cost >= 1 else f"${cost:.6f}"


def usage_markdown(usage: Usage | Mapping[str, Any] | None) -> str:
    """The usage as a Markdown table row set for ``summary.md`` (counters and the estimated cost)."""
    data = usage_record(usage) or {}
    rows = ["| LLM usage | |", "|---|---:|"]
    for key, label in (("calls", "HTTP requests sent"), ("retries", "of them retries"),
                       ("failures", "failed after their retries"), ("cache_hits", "answered from the cache"),
                       ("truncated", "replies cut at the size bound"), ("prompt_tokens", "prompt tokens"),
                       ("completion_tokens", "completion tokens")):
        rows.append(f"| {label} | {int(data.get(key) or 0):,} |")
    cost = data.get("cost_usd")
    rows.append(f"| estimated cost | {'no price configured' if cost is None else dollars(cost)} |")
    return "\n".join(rows)


def estimate_table(usage: Usage, *, model: str | None = None) -> Table:
    """A Rich table of what a run would cost, from the usage a ``DryRunLLM`` counted."""
    title = "LLM dry run" + (f": {model}" if model else "")
    table = Table(
        title=title,
        caption="tokens estimated as characters / 4; completion tokens as the smaller of max_tokens and the "
                "default",
    )
    table.add_column("")
    table.add_column("count", justify="right")
    table.add_row("requests to send", f"{usage.calls:,}")
    table.add_row("answered from cache", f"{usage.cache_hits:,}")
    table.add_row("prompt tokens (est.)", f"{usage.prompt_tokens:,}")
    table.add_row("completion tokens (est.)", f"{usage.completion_tokens:,}")
    table.add_row("total tokens (est.)", f"{usage.prompt_tokens + usage.completion_tokens:,}")
    if usage.cost_usd is not None:
        table.add_row("cost (est.)", dollars(usage.cost_usd))
    return table
