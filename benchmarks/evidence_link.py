"""Evidence linking at scale: 100,000 passages × 100,000 records on a synthetic corpus.

A SQLite table of 100,000 sites (name, city, opening date, capacity) and a corpus of 50,000
documents with two paragraphs each, written from the rows the way people write (dates in words,
numbers with thousands separators), one fact in ten left out on purpose. 100,000 records ask for
one fact each. The table shows indexing and linking time, records per second, peak memory, and
the linker's precision and recall against the facts the corpus was written to state.

    OMP_WAIT_POLICY=passive .venv/bin/python benchmarks/evidence_link.py [--records N] [--passages N]
"""

from __future__ import annotations

import argparse
import random
import resource
import sqlite3
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]
CITIES = ["Lisbon", "Porto", "Marseille", "Lyon", "Bremen", "Utrecht", "Ghent", "Turin", "Bologna", "Kraków",
          "Brno", "Graz", "Aarhus", "Tampere", "Bergen", "Galway", "Cork", "Seville", "Bilbao", "Zürich"]


def words(n: int, rng: random.Random) -> list[str]:
    """Made-up, pronounceable words (so names are unique and realistic in length)."""
    cons, vows = "bcdfghklmnprstvz", "aeiou"
    out: set[str] = set()
    while len(out) < n:
        out.add("".join(rng.choice(cons) + rng.choice(vows) for _ in range(rng.randint(2, 3))).capitalize())
    return sorted(out)


def build(tmp: Path, n_sites: int, seed: int = 0):
    rng = random.Random(seed)
    vocab = words(700, rng)
    names: set[str] = set()
    while len(names) < n_sites:
        kind = rng.choice(["Works", "Hall", "Depot", "Mill", "Yard"])
        names.add(f"{rng.choice(vocab)} {rng.choice(vocab)} {kind}")
    names_l = sorted(names)
    rng.shuffle(names_l)
    rows = []
    for i, name in enumerate(names_l):
        opened = date(1950, 1, 1) + timedelta(days=rng.randrange(365 * 70))
        rows.append((i + 1, name, rng.choice(CITIES), opened.isoformat(), rng.randrange(100, 90_000)))
    db = tmp / "sites.sqlite"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE Site (id INTEGER PRIMARY KEY, Name TEXT NOT NULL UNIQUE, City TEXT, "
                "Opened TEXT, Capacity INTEGER)")
    con.executemany("INSERT INTO Site VALUES (?, ?, ?, ?, ?)", rows)
    con.commit()
    con.close()
    stated: set[str] = set()
    docs: dict[str, str] = {}

    def paragraph(row) -> str:
        sid, name, city, opened, cap = row
        d = date.fromisoformat(opened)
        parts = [f"{name} is a site in the city of {city}."]
        for fact, text in ((f"Site.City@{sid}", None),
                           (f"Site.Opened@{sid}", f"It opened on {MONTHS[d.month - 1]} {d.day}, {d.year}."),
                           (f"Site.Capacity@{sid}", f"The site holds {cap:,} people.")):
            if rng.random() < 0.1:
                if text is None:
                    parts[0] = f"{name} is one of our sites."
                continue
            stated.add(fact)
            if text:
                parts.append(text)
        return " ".join(parts)

    for i in range(0, len(rows), 2):
        pair = rows[i:i + 2]
        docs[f"doc-{i // 2:06d}"] = "\n\n".join(paragraph(r) for r in pair)
    return db, docs, stated, rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--records", type=int, default=100_000)
    ap.add_argument("--passages", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    from ragdx.db import connect, inspect_schema
    from ragdx.gen.dataset import QARecord
    from ragdx.kb.link import FactResolver, Linker, LinkStats, PassageIndex, link_records
    from ragdx.rag.corpus import Corpus

    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        t0 = time.perf_counter()
        db, docs, stated, rows = build(tmp, args.passages, args.seed)
        t_build = time.perf_counter() - t0
        rng = random.Random(args.seed + 1)
        records = []
        for i in range(args.records):
            sid, name, *_ = rows[rng.randrange(len(rows))]
            col = rng.choice(["City", "Opened", "Capacity"])
            records.append(QARecord(
                id=f"r{i}", group_id=f"g{sid}-{col}", sql_template_id=col, text_template_id="t", style="short",
                schema="site", table="Site", params={"Site.Name": name}, sql="", query="", answer_columns=[col],
                answer_rows=[["x"]], answer_text="x", answer_kind="single", entities=[f"Site:{sid}"],
                facts=[f"Site.{col}@{sid}", f"Site.Name@{sid}"]))
        engine = connect(f"sqlite:///{db}")
        schema = inspect_schema(engine)
        corpus = Corpus.from_texts(docs, source="synthetic")
        t0 = time.perf_counter()
        index = PassageIndex(corpus)
        t_index = time.perf_counter() - t0
        t0 = time.perf_counter()
        stats = LinkStats()
        linked = link_records(records, FactResolver(engine, schema), Linker(index), stats=stats)
        t_link = time.perf_counter() - t0
        peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        tp = fp = fn = 0
        for r in linked:
            truth = r.facts[0] in stated
            got = bool(r.kb_supported)
            tp += truth and got
            fp += got and not truth
            fn += truth and not got
        engine.dispose()
    precision = tp / (tp + fp) if tp + fp else float("nan")
    recall = tp / (tp + fn) if tp + fn else float("nan")
    print("| passages | records | corpus build s | index s | link s | records/s (link) | records/s (index + link) "
          "| peak RSS MiB | kb_supported P | kb_supported R |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(f"| {len(index.passages):,} | {len(records):,} | {t_build:.1f} | {t_index:.1f} | {t_link:.1f} | "
          f"{len(records) / t_link:,.0f} | {len(records) / (t_index + t_link):,.0f} | {peak_mib:,.0f} | "
          f"{precision:.3f} | {recall:.3f} |")


if __name__ == "__main__":
    main()
