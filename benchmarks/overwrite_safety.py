"""How many of a person's files each ragdx writer touches (issue 23, item 3).

Every writer of tests/test_overwrite_safety.py is pointed at a person's folder (their own
manifest.json and summary.md beside other files) and at a person's file, with and without
--overwrite; the table counts the entries of theirs changed, added or removed. ``-o FILE
--overwrite`` on their file is counted apart: it asks for exactly that file to be replaced.

    .venv/bin/python benchmarks/overwrite_safety.py
    # the code before a change, e.g.:
    git archive COMMIT src | tar -x -C /tmp/base
    PYTHONPATH=/tmp/base/src .venv/bin/python benchmarks/overwrite_safety.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.test_overwrite_safety import CASES, build_world, try_case, write_grid  # noqa: E402

#: the person's own files that users_things writes (the rest of an entry count is folders and files added)
OWN = {"mine/manifest.json", "mine/summary.md", "mine/notes.txt", "mine/drafts/ch1.tex", "mine.txt",
       "mine-lookalike/manifest.json", "mine-lookalike/summary.md"}


def main() -> int:
    import ragdx

    print(f"ragdx from {Path(ragdx.__file__).parent}")
    with tempfile.TemporaryDirectory() as tmp:
        world = build_world(Path(tmp) / "world")
        write_grid(world)
        total = asked = own = damaged = 0
        writers = set()
        print(f"{'writer':<22} {'target':<7} {'--overwrite':<12} {'exit':>4}  touched")
        for n, (writer, target, overwrite) in enumerate(CASES):
            writers.add(writer.name)
            area = Path(tmp) / f"case{n}"
            area.mkdir()
            code, message, changed = try_case(world, area, writer, target, overwrite)
            explicit = writer.makes == "file" and target == "file" and overwrite
            if explicit:
                asked += changed == ["mine.txt"]
            else:
                total += len(changed)
                own += len(OWN & set(changed))
                damaged += bool(changed)
            note = " (asked for)" if explicit and changed else ""
            print(f"{writer.name:<22} {target:<7} {str(overwrite):<12} {code:>4}  {len(changed)}{note} "
                  f"{' '.join(changed)[:60]}  | {message.strip().splitlines()[0][:70] if message.strip() else ''}")
        print(f"\n{len(writers)} writers, {len(CASES)} cases: {damaged} cases touched something of the person's, "
              f"{total} entries in all (files and folders changed, added or removed), {own} of their own files "
              f"changed or deleted; not counting {asked} files replaced with -o FILE --overwrite, as asked")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
