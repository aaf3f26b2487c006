"""Per style: fluent / telegraphic / bad counts and shares of a judged sample, and whether issue 22's
target (>= 90 % fluent, <= 2 % bad) is met: the nycflights13 study's tally.py, which every blind fluency
study shares (this file loads it, so the ijo1366 result's commands run from this folder).

    python tally.py sample.jsonl
"""

from __future__ import annotations

import importlib.util
import runpy
import sys
from pathlib import Path

_SHARED = Path(__file__).resolve().parent.parent / "fluency_nycflights13" / "tally.py"
_spec = importlib.util.spec_from_file_location("fluency_nycflights13_tally_ijo1366", _SHARED)
_tally = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tally)
LABELS, tally, met, table = _tally.LABELS, _tally.tally, _tally.met, _tally.table

if __name__ == "__main__":
    sys.argv[0] = str(_SHARED)
    runpy.run_path(str(_SHARED), run_name="__main__")
