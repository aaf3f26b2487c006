"""ragdx's CI gates inside a test suite.

    from ragdx.testing import assert_metrics, assert_no_regression

    def test_rag_quality():
        assert_metrics("runs/main", accuracy=0.6, refined_accuracy=0.8)      # lower bounds of the 95 % CI
        assert_metrics("runs/main", style="short", accuracy=0.5)

    def test_no_regression():
        assert_no_regression("runs/baseline", "runs/candidate", metrics=["accuracy"])

Each takes a run directory (evaluated now when it has no up-to-date evaluation), an evaluation
directory or ``metrics.json``, or a result object; a failure is an ``AssertionError`` whose
message is the gate's one line. With ``pytest_plugins = ["ragdx.testing"]`` in a
``conftest.py``, the ``ragdx_gate`` fixture offers the same two checks and collects every gate
of the session into ``--ragdx-junit PATH`` if given.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ragdx.evaluate.gate import GateResult, check_regression, check_thresholds

__all__ = ["assert_metrics", "assert_no_regression", "evaluation_of", "ragdx_gate"]


def evaluation_of(source: Any, **evaluate_kwargs: Any) -> Any:
    """An evaluation from a run directory (evaluating it when ``evaluation/metrics.json`` is
    missing), an evaluation directory, a ``metrics.json`` or a result object."""
    if isinstance(source, str | Path):
        path = Path(source)
        if path.is_file() or (path / "metrics.json").exists():
            return path
        if (path / "evaluation" / "metrics.json").exists():
            return path / "evaluation"
        from ragdx.evaluate import evaluate

        evaluate_kwargs.setdefault("judge", "cascade")
        return evaluate(path, **evaluate_kwargs)
    return source


def assert_metrics(source: Any, *, style: str | None = None, **thresholds: float) -> GateResult:
    """Fail unless each metric's 95 % interval lower bound reaches its threshold."""
    if not thresholds:
        raise ValueError("name at least one metric threshold, e.g. accuracy=0.6")
    gate = check_thresholds(evaluation_of(source), [(style, m, float(v)) for m, v in thresholds.items()],
                            name=str(source) if isinstance(source, str | Path) else None)
    if not gate.passed:
        raise AssertionError(gate.line())
    return gate


def assert_no_regression(a: Any, b: Any | None = None, *, metrics: list[str] | None = None,
                         margin: float = 0.0, **compare_kwargs: Any) -> GateResult:
    """Fail when B is significantly worse than A. ``a`` and ``b`` are two runs (compared now),
    or ``a`` alone is a comparison (a result, a dict or a ``comparison.json``)."""
    comparison = a if b is None else _compare(a, b, compare_kwargs)
    gate = check_regression(comparison, metrics, margin=margin)
    if not gate.passed:
        raise AssertionError(gate.line())
    return gate


# ----------------------------------------------------------------------------- pytest plugin


class _Gate:
    """The ``ragdx_gate`` fixture: the asserts above, remembered for the session's JUnit file."""

    def __init__(self, sink: list[GateResult]):
        self._sink = sink

    def metrics(self, source: Any, *, style: str | None = None, **thresholds: float) -> GateResult:
        gate = check_thresholds(evaluation_of(source), [(style, m, float(v)) for m, v in thresholds.items()],
                                name=str(source) if isinstance(source, str | Path) else None)
        self._sink.append(gate)
        if not gate.passed:
            raise AssertionError(gate.line())
        return gate

    def no_regression(self, a: Any, b: Any | None = None, *, metrics: list[str] | None = None,
                      margin: float = 0.0, **compare_kwargs: Any) -> GateResult:
        comparison = a if b is None else _compare(a, b, compare_kwargs)
        gate = check_regression(comparison, metrics, margin=margin)
        self._sink.append(gate)
        if not gate.passed:
            raise AssertionError(gate.line())
        return gate


def _compare(a: Any, b: Any, options: dict[str, Any]) -> Any:
    from ragdx.evaluate import compare_paths

    options = {"judge": "cascade", **options}
    return compare_paths(a, b, **options)


_SESSION: list[GateResult] = []


def pytest_addoption(parser: Any) -> None:
    parser.addoption("--ragdx-junit", default=None, help="write every ragdx gate of the session as JUnit XML")


def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
    path = session.config.getoption("--ragdx-junit", default=None)
    if path and _SESSION:
        from ragdx.evaluate.gate import write_junit

        write_junit(_SESSION, path)


try:  # the fixture exists only where pytest does; the asserts work without it
    import pytest

    @pytest.fixture
    def ragdx_gate() -> _Gate:
        return _Gate(_SESSION)
except ImportError:  # pragma: no cover - pytest is not a runtime dependency
    ragdx_gate = None  # type: ignore[assignment]
