"""An OpenInference-instrumented LangChain app that returns only its answer text: ragdx must find
its retrieved documents in the retriever spans (``ragdx run --callable ... --otel``)."""

from __future__ import annotations

from openinference.instrumentation.langchain import LangChainInstrumentor

from tests.support import framework_systems

# What an instrumented app does once at start-up; spans go to the global tracer provider.
LangChainInstrumentor().instrument()


def answer(query: str) -> str:
    return framework_systems.lc_chain.invoke(query)
