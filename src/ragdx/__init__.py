"""ragdx: grounded, modular diagnosis for retrieval-augmented generation systems.

The Python API (see :mod:`ragdx._api`)::

    import ragdx
    dataset = ragdx.generate_dataset("sqlite:///shop.db", "out/dataset", kb="out/kb")
    ragdx.run(my_rag, dataset, "out/runs/mine")
    result = ragdx.evaluate("out/runs/mine")
    ragdx.report(["out/runs/mine"], "out/report.html")

Names are imported on first use, so ``import ragdx`` stays cheap. ``evaluate``, ``report`` and
``export`` are also the names of subpackages (``ragdx.evaluate.compare_paths`` and the like keep
working): those modules are made callable, calling the API function of the same name, rather
than letting the import system replace the function by the module the moment a submodule is
imported somewhere.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

from ragdx.errors import RagdxError

__version__ = "0.1.0"

#: the public API, locked by tests/test_api.py
__all__ = [
    "RagdxError", "__version__",
    # stages
    "generate_dataset", "run", "arun", "evaluate", "compare", "report", "export", "as_system",
    # typed results and the relevance tester
    "EvaluationResult", "Metric", "RunSummary", "RelevanceTester",
    # CI gates in tests
    "assert_metrics", "assert_no_regression",
]

_LAZY = {
    "generate_dataset": "ragdx._api", "run": "ragdx._api", "arun": "ragdx._api", "compare": "ragdx._api",
    "as_system": "ragdx._api",
    "EvaluationResult": "ragdx.evaluate.results", "Metric": "ragdx.evaluate.results",
    "RunSummary": "ragdx.rag.runner", "RelevanceTester": "ragdx.relevance.tester",
    "assert_metrics": "ragdx.testing", "assert_no_regression": "ragdx.testing",
}
#: API functions that share their name with a submodule
_CALLABLE_SUBMODULES = ("evaluate", "report", "export")


class _CallableModule(types.ModuleType):
    """A submodule that is also the API function of its name (``ragdx.evaluate(path)``)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from ragdx import _api as api

        return getattr(api, self.__name__.rpartition(".")[2])(*args, **kwargs)


class _Package(types.ModuleType):
    def __setattr__(self, name: str, value: Any) -> None:
        # The import system sets ragdx.<name> when a submodule is first imported: make it callable.
        if name in _CALLABLE_SUBMODULES and type(value) is types.ModuleType:
            value.__class__ = _CallableModule
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str) -> Any:
    if name in _CALLABLE_SUBMODULES:
        return importlib.import_module(f"ragdx.{name}")
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'ragdx' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
