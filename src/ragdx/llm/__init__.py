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
    Usage,
    make_llm,
    run_sync,
)
from ragdx.llm.estimate import estimate_table, estimate_tokens

__all__ = [
    "LLM",
    "ChatRequest",
    "Completion",
    "CompletionCache",
    "DryRunLLM",
    "LLMConfig",
    "LLMFailure",
    "OpenAICompatibleLLM",
    "Usage",
    "estimate_table",
    "estimate_tokens",
    "make_llm",
    "run_sync",
]
