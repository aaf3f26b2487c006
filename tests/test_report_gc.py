"""write_report pauses the garbage collector while it builds (a 100k-query report spent a third of
its CPU in full collections that found nothing); it must hand the collector back as it found it,
even when the build fails."""

from __future__ import annotations

import gc

import pytest

from ragdx.errors import RagdxError
from ragdx.report import write_report


def test_write_report_leaves_the_collector_as_it_found_it(tmp_path):
    assert gc.isenabled()
    with pytest.raises(RagdxError, match="not a run directory"):
        write_report([tmp_path / "missing"], tmp_path / "report.html")
    assert gc.isenabled()
    gc.disable()
    try:
        with pytest.raises(RagdxError, match="not a run directory"):
            write_report([tmp_path / "missing"], tmp_path / "report.html")
        assert not gc.isenabled()  # a caller that had paused it keeps it paused
    finally:
        gc.enable()


def test_write_report_builds_with_the_collector_paused(tmp_path, monkeypatch):
    from ragdx.report import data  # not `import ragdx.report.data as data`: ragdx.report is the API function

    seen = []

    def build(*args, **kwargs):
        seen.append(gc.isenabled())
        raise RagdxError("stop here")

    monkeypatch.setattr(data, "build_report", build)
    with pytest.raises(RagdxError, match="stop here"):
        write_report([tmp_path], tmp_path / "report.html")
    assert seen == [False] and gc.isenabled()


def test_gc_paused_restores_what_it_found_and_keeps_what_the_block_made():
    from ragdx.store import gc_paused

    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():  # nested: the inner one leaves it paused for the outer
            pass
        assert not gc.isenabled()
        # a cycle made in the block is still collected afterwards (moved to the oldest
        # generation, not frozen for good)
        cycle = [[]]
        cycle[0].append(cycle)
    assert gc.isenabled() and gc.get_freeze_count() == 0
    del cycle
    assert gc.collect() > 0
    with pytest.raises(ValueError), gc_paused():
        raise ValueError("the block fails")
    assert gc.isenabled()
