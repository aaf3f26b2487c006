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
