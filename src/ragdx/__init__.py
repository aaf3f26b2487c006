"""ragdx: grounded, modular diagnosis for retrieval-augmented generation systems.

The Python API (the functions are defined in ``ragdx._api``)::

    import ragdx
    dataset = ragdx.generate_dataset("sqlite:///shop.db", "out/dataset", kb="out/kb")
    ragdx.run(my_rag, dataset, "out/runs/mine", ragdx.RunOptions(concurrency=8, max_failed=0.05))
    result = ragdx.evaluate("out/runs/mine")
    ragdx.report(["out/runs/mine"], "out/report.html")

``evaluate``, ``report`` and ``export`` are API functions here and also the names of a subpackage or
module with their own contents. ``ragdx.evaluate`` is the function; the subpackage is reached by
importing from it: ``from ragdx.evaluate import compare_paths``, ``from ragdx.evaluate import judges``.
(``import ragdx.evaluate.judges as judges`` does not work: Python resolves its ``as`` through the
attribute ``ragdx.evaluate``, the function.)

The types and test helpers are imported on first use, so that ``import ragdx`` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ragdx.errors import RagdxError
from ragdx.lazy import lazy_names

# The import system sets ``ragdx.<name>`` to a submodule when it first loads one (and only then).
# Loading the three that share a name with an API function here, before the functions are bound
# below, leaves the functions in place for good, whatever is imported later. Their own
# ``__init__`` imports nothing heavy.
importlib.import_module("ragdx.evaluate")
importlib.import_module("ragdx.report")
importlib.import_module("ragdx.export")

from ragdx._api import arun, as_system, compare, evaluate, export, generate_dataset, report, run  # noqa: E402

if TYPE_CHECKING:  # imported on first use, by __getattr__ below
    from ragdx.evaluate.results import EvaluationResult, Metric
    from ragdx.rag.options import RunOptions
    from ragdx.rag.runner import RunSummary
    from ragdx.relevance.tester import RelevanceTester
    from ragdx.testing import assert_metrics, assert_no_regression

__version__ = "0.1.0"

#: the public API, locked by tests/test_api.py
__all__ = [
    "RagdxError", "__version__",
    # stages
    "generate_dataset", "run", "arun", "evaluate", "compare", "report", "export", "as_system",
    # how a run is made (ragdx run's options, typed), typed results and the relevance tester
    "RunOptions", "EvaluationResult", "Metric", "RunSummary", "RelevanceTester",
    # CI gates in tests
    "assert_metrics", "assert_no_regression",
]

_LAZY = {
    "EvaluationResult": "evaluate.results", "Metric": "evaluate.results",
    "RunOptions": "rag.options", "RunSummary": "rag.runner", "RelevanceTester": "relevance.tester",
    "assert_metrics": "testing", "assert_no_regression": "testing",
}

__getattr__, __dir__ = lazy_names(__name__, _LAZY, __all__)
