"""Size of a run directory's results with retrieved contexts inline (``--contexts full``, the
old format) against stored once per distinct text (``once``, the default) and ids plus hashes
only (``hash``), on the demo's dataset and its two systems (keyword overlap; BM25 + dense).

    .venv/bin/python benchmarks/results_size.py [--out /tmp/results-size] [--max-groups 6] [--per-group 2]

The dataset is the one ``ragdx demo`` builds (same caps by default). Each system runs once per
storage mode into its own directory; the script checks that every mode reads back to the same
outputs (``read_run``, texts included except for ``hash``) and prints bytes of ``results.jsonl``
and ``contexts.jsonl`` per system and mode.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("/tmp/ragdx-results-size"))
    parser.add_argument("--max-groups", type=int, default=6)
    parser.add_argument("--per-group", type=int, default=2)
    args = parser.parse_args()

    from ragdx.demo.run import DEMO_TOP_K, _systems
    from ragdx.rag.rundir import read_run
    from ragdx.rag.runner import run
    from tests.support.small_demo import build_small_demo

    console = Console(width=160)
    dataset = build_small_demo(args.out, max_groups=args.max_groups, per_group=args.per_group, n=3)
    table = Table(title=f"results size, demo dataset ({dataset})")
    for col in ("system", "queries", "contexts", "results.jsonl", "contexts.jsonl", "total", "vs full", "s"):
        table.add_column(col, justify="left" if col in ("system", "contexts") else "right")
    for index in range(2):
        outputs = {}
        full_total = None
        for mode in ("full", "once", "hash"):
            system = _systems(args.out / "kb", DEMO_TOP_K)[index]
            run_dir = args.out / "runs" / f"{system.name}-{mode}"
            clock = time.perf_counter()
            summary = run(system, dataset, run_dir, concurrency=1, progress=False, overwrite=True, contexts=mode)
            elapsed = time.perf_counter() - clock
            results = (run_dir / "results.jsonl").stat().st_size
            ctx_file = run_dir / "contexts.jsonl"
            contexts = ctx_file.stat().st_size if ctx_file.exists() else 0
            total = results + contexts
            full_total = full_total or total
            read = read_run(run_dir)
            outputs[mode] = [(o.id, o.answer, [(c.id, c.score, c.text if mode != "hash" else None)
                                                for c in o.contexts]) for o in read]
            table.add_row(system.name, str(summary.total), mode, f"{results:,}", f"{contexts:,}", f"{total:,}",
                          f"{total / full_total:.1%}", f"{elapsed:.1f}")
        strip = [(i, a, [(c[0], c[1], None) for c in cs]) for i, a, cs in outputs["full"]]
        assert outputs["once"] == outputs["full"], "once does not read back to the full outputs"
        assert outputs["hash"] == strip, "hash does not keep ids, scores and answers"
    console.print(table)


if __name__ == "__main__":
    main()
