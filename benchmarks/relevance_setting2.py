"""Setting 2: the demo's knowledge base with the queries ragdx generated for it as in-knowledge.

    make demo                                   # or: ragdx demo -o demo-out
    .venv/bin/python benchmarks/relevance_setting2.py --demo demo-out -o setting2
    ragdx relevance bench --corpus setting2/corpus.jsonl --corpus-field text \\
        --in-knowledge setting2/in_knowledge.jsonl --group-field group \\
        --out-of-knowledge facts-left-out=setting2/gaps.jsonl \\
        --out-of-knowledge truthfulqa=../shared/data/knowledge-boundary/truthfulqa.jsonl \\
        --out-of-knowledge commonsenseqa=../shared/data/knowledge-boundary/commonsenseqa.jsonl \\
        --out-of-knowledge mmlu=../shared/data/knowledge-boundary/mmlu.jsonl --limit 400 -o bench2

Writes ``corpus.jsonl`` (the knowledge base's documents), ``in_knowledge.jsonl`` (queries whose
facts the knowledge base states, with their semantic group, so calibration and held-out queries
are split by group and never paraphrase each other) and ``gaps.jsonl`` (queries about covered
entities whose facts were left out: in-domain but unanswerable — what the tester is *not* built to
catch; benchmarked as one more "out-of-knowledge" set so the table shows it).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))


def main() -> None:
    from ragdx.gen.dataset import read_records
    from ragdx.store import iter_jsonl

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--demo", type=Path, default=Path("demo-out"))
    ap.add_argument("-o", "--out", type=Path, default=Path("setting2"))
    args = ap.parse_args()
    records = read_records(args.demo / "dataset")
    args.out.mkdir(parents=True, exist_ok=True)
    docs = [obj for _, obj in iter_jsonl(args.demo / "kb" / "documents.jsonl")]

    def write(name: str, rows: list[dict]) -> None:
        (args.out / name).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        print(f"{name}: {len(rows)}")

    write("corpus.jsonl", [{"id": d.get("id"), "text": d["text"]} for d in docs])
    write("in_knowledge.jsonl", [{"question": r.query, "group": r.group_id} for r in records
                                 if r.kb_supported and r.answer_kind != "none"])
    write("gaps.jsonl", [{"question": r.query, "group": r.group_id} for r in records
                         if r.kb_supported is False and r.answer_kind != "none"])


if __name__ == "__main__":
    main()
