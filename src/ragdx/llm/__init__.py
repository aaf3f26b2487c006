"""Language-model access for ragdx: one protocol, an OpenAI-compatible client, a dry run."""

from ragdx.llm.cache import CompletionCache
from ragdx.llm.client import (
    LLM,
    ChatRequest,
    Completion,
    DryRunLLM,
    LLMConfig,
    LLMFailure,
    OpenAICompatibleLLM,
    make_llm,
    run_sync,
)
from ragdx.llm.estimate import Price, estimate_table, estimate_tokens, usage_line, usage_markdown, usage_record
from ragdx.llm.usage import Usage, counting

__all__ = [
    "LLM",
    "ChatRequest",
    "Completion",
    "CompletionCache",
    "DryRunLLM",
    "LLMConfig",
    "LLMFailure",
    "OpenAICompatibleLLM",
    "Price",
    "Usage",
    "counting",
    "estimate_table",
    "estimate_tokens",
    "make_llm",
    "run_sync",
    "usage_line",
    "usage_markdown",
    "usage_record",
]
