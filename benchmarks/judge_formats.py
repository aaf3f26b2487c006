"""Values as people write them: does the cascade judge accept the right answer, and does the
evidence linker find the value, whatever the format? And does the judge still reject the wrong one?

On a corpus with a recorded truth (the Northwind corpus by default: ``truth.json`` statements
``{fact_key, doc_id, surface, exact, how, form}`` and the database they were written from), for
every *exact* statement:

* the gold is the database value of ``fact_key`` (``Table.Column@key``, composite keys joined by
  ``|``), as ragdx gives it: a date column's value is a date, a number column's a number, a text
  column holding only ``0``/``1`` a boolean (ragdx renders it "yes"/"no"). **A foreign-key hop's
  gold is the referenced row's name** (a person's first + last name, else its own ``CompanyName``,
  ``<Table>Name`` or ``<Table>Description`` column), the way ragdx's templates answer it;
* the right answers are "It is {surface}." and the bare surface; the wrong answers are the same
  two phrasings of the surface of the same column for another entity whose value differs (the
  same form where there is one, chosen with a fixed seed);
* the linker side: some variant of ``value_variants(gold)`` is found in ``normalised_passage``
  of the surface (and, for the wrong surfaces, how often one is found there: a false match).

Left out, and counted in the header: statements of a hop whose surface names the row that
*holds* the key (more words, spelt alike, in common with it than with the referenced row,
or the same words: "Chai" stating Chai's supplier in the supplier's profile, the employee's name
in a territory memo, the territory's corrected spelling); statements
of form ``code`` (a customer written as its key, ``WELLI``: another value of the referenced row,
not a way of writing its name, which no normaliser can map) and ``listed-as-discontinued`` (the
surface is the product's name; its being in a list states the value). The form ``surname-only``
("Davolio" for Nancy Davolio) is measured but kept out of the headline figure: a surname alone is
a partial name, which the judge rejects on purpose (whether it is ambiguous depends on rows the
judge does not see).

"Before" is the judge and the normaliser at ``--before`` (a git revision, read with ``git show``
into a temporary folder); "after" is the working tree. Verdicts/s: one pass of the offline cascade
judge over every pair with its caches emptied, best of three.

    .venv/bin/python benchmarks/judge_formats.py [--truth PATH --db PATH] [--before REV]
"""

from __future__ import annotations

import argparse
import collections
import difflib
import importlib.util
import inspect
import platform
import random
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
import unicodedata
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data" / "northwind"
DEFAULT_TRUTH = SHARED / "corpus" / "truth.json"
DEFAULT_DB = SHARED / "northwind.sqlite"
#: the commit whose judge and normaliser were the two that drifted apart (before this benchmark)
BASELINE = "f62cdfe"
EXCLUDED_FORMS = {"code": "a key, not the referenced row's name",
                  "listed-as-discontinued": "the surface is the product's name"}
PARTIAL_FORMS = {"surname-only"}
RESULTS = ROOT / "benchmarks" / "results" / "judge_formats.md"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def load_module(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def before_modules(rev: str, tmp: Path):
    out = []
    for rel, name in (("src/ragdx/evaluate/judges.py", "before_judges"),
                      ("src/ragdx/kb/normalise.py", "before_normalise")):
        text = subprocess.run(["git", "show", f"{rev}:{rel}"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout
        path = tmp / f"{name}.py"
        path.write_text(text)
        out.append(load_module(name, path))
    return out


# ----------------------------------------------------------------------------- the database


def _words(text: str) -> set[str]:
    text = unicodedata.normalize("NFKD", str(text).casefold())
    return set(re.findall(r"[^\W_]+", "".join(c for c in text if not unicodedata.combining(c))))


def _common(a: str, b: str) -> int:
    """Words of ``a`` with a close match among the words of ``b`` (a corrected spelling still
    counts: "Georgetow" / "Georgetown")."""
    wb = _words(b)
    return sum(1 for w in _words(a) if difflib.get_close_matches(w, wb, n=1, cutoff=0.8))


class Database:
    def __init__(self, path: Path):
        self.conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        self.tables = [r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        self.info: dict[str, dict[str, Any]] = {}
        for t in self.tables:
            cols = self.conn.execute(f"PRAGMA table_info([{t}])").fetchall()
            pk = [c[1] for c in sorted((c for c in cols if c[5]), key=lambda c: c[5])]
            fks = {r[3]: (r[2], r[4]) for r in self.conn.execute(f"PRAGMA foreign_key_list([{t}])")}
            self.info[t] = {"pk": pk, "types": {c[1]: (c[2] or "").upper() for c in cols}, "fks": fks}
        self._bool: dict[tuple[str, str], bool] = {}

    def row_value(self, table: str, column: str, key: list[str]) -> Any:
        pk = self.info[table]["pk"]
        where = " AND ".join(f"[{c}] = ?" for c in pk)
        row = self.conn.execute(f"SELECT [{column}] FROM [{table}] WHERE {where}", key).fetchone()
        return None if row is None else row[0]

    def name(self, table: str, column: str, value: Any) -> str | None:
        """The display name of the row of ``table`` whose ``column`` is ``value``."""
        cols = list(self.info[table]["types"])
        low = {c.lower(): c for c in cols}
        if "firstname" in low and "lastname" in low:
            sel = f"[{low['firstname']}] || ' ' || [{low['lastname']}]"
        else:
            # the row's own name (CompanyName, ProductName, TerritoryDescription), not another
            # entity's held in it (an order's ShipName): a table without one has no name
            one = table.lower()[:-3] + "y" if table.lower().endswith("ies") else table.lower().rstrip("s")
            own = {"name", "companyname", f"{one}name", f"{one}description"}
            named = [c for c in cols if c.lower() in own and c != column]
            if not named:
                return None
            sel = f"[{named[0]}]"
        row = self.conn.execute(f"SELECT {sel} FROM [{table}] WHERE [{column}] = ?", (value,)).fetchone()
        return None if row is None or row[0] is None else str(row[0]).strip()

    def is_bool(self, table: str, column: str) -> bool:
        if (table, column) not in self._bool:
            vals = {str(r[0]) for r in self.conn.execute(f"SELECT DISTINCT [{column}] FROM [{table}]")}
            self._bool[(table, column)] = bool(vals) and vals <= {"0", "1"} and not column.lower().endswith("id")
        return self._bool[(table, column)]

    def gold(self, fact_key: str, surface: str) -> tuple[Any, str] | None:
        """(gold value, kind) of a fact, or None when it is left out (kind says why)."""
        table, rest = fact_key.split(".", 1)
        column, key = rest.split("@", 1)
        parts = key.split("|")
        info = self.info.get(table)
        if info is None or len(parts) != len(info["pk"]):
            return None
        raw = self.row_value(table, column, parts)
        if raw is None:
            return None
        if column in info["fks"]:
            ref_table, ref_col = info["fks"][column]
            gold = self.name(ref_table, ref_col, raw)
            # the other end of the hop: the row holding the key, or the other side of an association
            others = []
            if len(info["pk"]) > 1:
                for c in info["pk"]:
                    if c != column and c in info["fks"]:
                        t2, c2 = info["fks"][c]
                        others.append(self.name(t2, c2, self.row_value(table, c, parts)))
            else:
                others.append(self.name(table, info["pk"][0], parts[0]))
            if gold is None or any(o and (_common(surface, o) > _common(surface, gold)
                                          or _words(surface) == _words(o)) for o in others):
                return ("subject-side", "skip")
            return gold, "hop"
        typ = info["types"].get(column, "")
        if "DATE" in typ or "TIME" in typ:
            m = re.match(r"^(\d{4})-(\d{2})-(\d{2})", str(raw))
            if m:
                return date(int(m[1]), int(m[2]), int(m[3])), "date"
        if self.is_bool(table, column):
            return str(raw) == "1", "boolean"
        return raw, "value"


# ----------------------------------------------------------------------------- the benchmark


def build_cases(truth: dict, db: Database) -> tuple[list[dict], collections.Counter]:
    skipped: collections.Counter = collections.Counter()
    kept = []
    for s in truth["facts"]:
        if not s.get("exact"):
            skipped["not exact"] += 1
            continue
        if s.get("form") in EXCLUDED_FORMS:
            skipped[f"form {s['form']}: {EXCLUDED_FORMS[s['form']]}"] += 1
            continue
        try:
            g = db.gold(s["fact_key"], s["surface"])
        except sqlite3.Error:
            g = None
        if g is None:
            skipped["no database value (NULL or no row)"] += 1
            continue
        if g[1] == "skip":
            skipped["hop whose surface names the row holding the key"] += 1
            continue
        column = s["fact_key"].split("@", 1)[0]
        kept.append({**s, "gold": g[0], "kind": g[1], "column": column,
                     "query": f"What is the {column.split('.', 1)[1]} of {column.split('.', 1)[0]} "
                              f"{s['fact_key'].split('@', 1)[1]}?"})
    by_column: dict[str, list[dict]] = collections.defaultdict(list)
    for s in kept:
        by_column[s["column"]].append(s)
    rng = random.Random(1996)
    for s in kept:
        others = [o for o in by_column[s["column"]] if _differs(o["gold"], s["gold"])]
        same_form = [o for o in others if o["form"] == s["form"]]
        pool = same_form or others
        s["wrong"] = rng.choice(pool)["surface"] if pool else None
    return kept, skipped


def _differs(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a != b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return abs(a - b) > 1e-9
    return str(a).strip().casefold() != str(b).strip().casefold()


def phrasings(surface: str) -> list[str]:
    return [f"It is {surface}.", surface]


def judge_side(judges_mod, records_mod, cases: list[dict]) -> tuple[dict[int, list[bool]], dict[int, list[bool]], list]:
    judge = judges_mod.CascadeJudge()
    right: dict[int, list[bool]] = {}
    wrong: dict[int, list[bool]] = {}
    items = []
    for i, s in enumerate(cases):
        right[i] = []
        for r in phrasings(s["surface"]):
            item = records_mod.JudgeItem(s["query"], [[s["gold"]]], r, "single")
            items.append(item)
            right[i].append(bool(judge.judge(item).correct))
        if s["wrong"] is not None:
            wrong[i] = []
            for r in phrasings(s["wrong"]):
                item = records_mod.JudgeItem(s["query"], [[s["gold"]]], r, "single")
                items.append(item)
                wrong[i].append(bool(judge.judge(item).correct))
    return right, wrong, items


def clear_caches(module) -> None:
    for obj in vars(module).values():
        if callable(getattr(obj, "cache_clear", None)):
            obj.cache_clear()


def speed(runs: list[tuple[str, Any, list]], items: dict[str, list]) -> dict[str, float]:
    """Verdicts/s of each judge, best of three passes with its caches emptied, the judges taking
    turns (a shared machine's load falls on both alike)."""
    best = {when: float("inf") for when, _, _ in runs}
    for _ in range(3):
        for when, judges_mod, modules in runs:
            for m in modules:
                clear_caches(m)
            judge = judges_mod.CascadeJudge()
            t0 = time.perf_counter()
            for item in items[when]:
                judge.judge(item)
            best[when] = min(best[when], time.perf_counter() - t0)
    return {when: len(items[when]) / t for when, t in best.items()}


def linker_side(norm, cases: list[dict]) -> tuple[list[bool], list[bool | None]]:
    takes_column = "column" in inspect.signature(norm.value_variants).parameters

    def found(value: Any, column: str, surface: str) -> bool:
        variants = norm.value_variants(value, column=column) if takes_column else norm.value_variants(value)
        passage = norm.normalised_passage(surface)
        return any(all(p in passage for p in all_of) for all_of, _ in variants)

    right = [found(s["gold"], s["column"].split(".", 1)[1], s["surface"]) for s in cases]
    wrong = [None if s["wrong"] is None else found(s["gold"], s["column"].split(".", 1)[1], s["wrong"])
             for s in cases]
    return right, wrong


def share(flags: list[bool]) -> str:
    return f"{sum(flags) / len(flags):.3f}" if flags else "–"


def table(cases, key, res) -> list[str]:
    groups: dict[str, list[int]] = collections.defaultdict(list)
    for i, s in enumerate(cases):
        groups[s[key]].append(i)
    lines = [f"| {key} | statements | right accepted before | after | wrong accepted before | after "
             f"| linker finds before | after | linker false match before | after |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    order = sorted(groups, key=lambda g: (-len(groups[g]), g))
    for g in order:
        idx = groups[g]
        cells = [g + (" (partial)" if g in PARTIAL_FORMS else ""), str(len(idx))]
        for side in ("right", "wrong"):
            for when in ("before", "after"):
                d = res[when][f"judge_{side}"]
                cells.append(share([v for i in idx if i in d for v in d[i]]))
        for side in ("right", "wrong"):
            for when in ("before", "after"):
                d = res[when][f"link_{side}"]
                cells.append(share([d[i] for i in idx if d[i] is not None]))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--truth", type=Path, default=DEFAULT_TRUTH)
    p.add_argument("--db", type=Path, default=DEFAULT_DB)
    p.add_argument("--before", default=BASELINE, help="git revision of the judge and normaliser to compare with")
    p.add_argument("--out", type=Path, default=RESULTS, help="the Markdown file to write ('-': none)")
    args = p.parse_args(argv)
    for path in (args.truth, args.db):
        if not path.exists():
            print(f"judge_formats: {path} is missing (the shared Northwind data, or give --truth and --db)",
                  file=sys.stderr)
            return 2
    import json

    sys.path.insert(0, str(ROOT / "src"))
    from ragdx.evaluate import judges as after_judges
    from ragdx.evaluate import records
    from ragdx.kb import normalise as after_norm

    truth = json.loads(args.truth.read_text(encoding="utf-8"))
    db = Database(args.db)
    cases, skipped = build_cases(truth, db)
    res: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        b_judges, b_norm = before_modules(args.before, Path(tmp))
        for when, jm, nm in (("before", b_judges, b_norm), ("after", after_judges, after_norm)):
            r, w, items = judge_side(jm, records, cases)
            lr, lw = linker_side(nm, cases)
            res[when] = {"judge_right": r, "judge_wrong": w, "link_right": lr, "link_wrong": lw, "items": items}
        rates = speed([("before", b_judges, [b_judges, b_norm]), ("after", after_judges, [after_judges, after_norm])],
                      {when: res[when]["items"] for when in res})
        for when, rate in rates.items():
            res[when]["speed"] = rate

    def overall(when: str, side: str, headline: bool) -> str:
        d = res[when][f"judge_{side}"]
        return share([v for i, vs in d.items() if not (headline and cases[i]["form"] in PARTIAL_FORMS) for v in vs])

    def link_overall(when: str, side: str, headline: bool) -> str:
        d = res[when][f"link_{side}"]
        return share([d[i] for i in range(len(cases))
                      if d[i] is not None and not (headline and cases[i]["form"] in PARTIAL_FORMS)])

    n_pairs = len(res["after"]["items"])
    n_partial = sum(c["form"] in PARTIAL_FORMS for c in cases)
    head = [
        "# Judge and linker on values as people write them",
        "",
        f"`{' '.join(['.venv/bin/python', 'benchmarks/judge_formats.py', *(sys.argv[1:] if argv is None else argv)])}`"
        f" on {cpu_model()} (Python {platform.python_version()}); truth `{args.truth}`, database `{args.db}`;"
        f" before = `{args.before}`, after = the working tree.",
        "",
        f"{len(cases)} exact statements measured ({n_partial} of them `surname-only`, kept out of the headline), "
        f"{n_pairs} judge pairs (right and wrong, two phrasings each). Left out:",
        "",
        *[f"- {why}: {n}" for why, n in skipped.most_common()],
        "",
        "## Headline (every measured form but the partial `surname-only`)",
        "",
        "| | before | after |",
        "|---|---:|---:|",
        f"| judge: right answers accepted | {overall('before', 'right', True)} | {overall('after', 'right', True)} |",
        f"| judge: wrong answers accepted | {overall('before', 'wrong', True)} | {overall('after', 'wrong', True)} |",
        f"| judge: right answers accepted, surname-only included | {overall('before', 'right', False)} "
        f"| {overall('after', 'right', False)} |",
        f"| judge: wrong answers accepted, surname-only included | {overall('before', 'wrong', False)} "
        f"| {overall('after', 'wrong', False)} |",
        f"| linker: value found in the statement | {link_overall('before', 'right', True)} "
        f"| {link_overall('after', 'right', True)} |",
        f"| linker: value found in another entity's statement | {link_overall('before', 'wrong', True)} "
        f"| {link_overall('after', 'wrong', True)} |",
        f"| cascade judge, verdicts/s (offline, caches emptied) | {res['before']['speed']:,.0f} "
        f"| {res['after']['speed']:,.0f} |",
        "",
        "## By form of the value",
        "",
        *table(cases, "form", res),
        "",
        "## By how the statement is made",
        "",
        *table(cases, "how", res),
        "",
    ]
    text = "\n".join(head)
    print(text)
    if str(args.out) != "-":
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
