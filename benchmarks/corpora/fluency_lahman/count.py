"""Mechanical counts over a whole ragdx dataset built from the Baseball Databank (issue 22's done-when).

    python count.py DATASET_DIR/records.jsonl [--json out.json]

Counts, per style and in all, records whose answer is a code of a row that has a name (read from the
SELECT list of the record's own SQL, resolved to table.column with sqlglot), records whose question names
a row by such a code (its placeholders), and questions that use a key-column word as a noun, a column
name as spelled in the CSV, or a score-sheet abbreviation. The column classes are this database's facts,
written from its documentation (RULE.md) before any question was read.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

import sqlglot
from sqlglot import exp

_PLAYER_TABLES = (
    "People",
    "Managers",
    "Salaries",
    "HallOfFame",
    "AwardsPlayers",
    "CollegePlaying",
    "Batting",
    "Pitching",
)
_TEAM_TABLES = ("Teams", "Managers", "Salaries", "Batting", "Pitching")
# codes of a row a person names otherwise: a player (nameFirst nameLast), a team (name), a franchise
# (franchName), a school (name_full), and the external ids of players and teams
CODE_OF_NAMED_ROW = {
    *((t, "playerID") for t in _PLAYER_TABLES),
    *((t, "teamID") for t in _TEAM_TABLES),
    ("Teams", "franchID"),
    ("TeamsFranchises", "franchID"),
    ("TeamsFranchises", "NAassoc"),
    ("Schools", "schoolID"),
    ("CollegePlaying", "schoolID"),
    ("People", "retroID"),
    ("People", "bbrefID"),
    ("Teams", "teamIDBR"),
    ("Teams", "teamIDlahman45"),
    ("Teams", "teamIDretro"),
}
# codes people do say (AL, NL; a division's E/W/C) or that are names (awardID is "Most Valuable Player")
SPOKEN_CODE = {*((t, "lgID") for t in (*_TEAM_TABLES, "AwardsPlayers")), ("Teams", "divID")}

# key-column words used as nouns in a question (relation or thing named after a key column)
KEY_WORDS = {
    "player id": re.compile(r"\bplayer ?ids?\b", re.I),
    "team id": re.compile(r"\bteam ?ids?\b", re.I),
    "franch": re.compile(r"\bfranch(?:ise)? ?ids?\b|\bfranch\b", re.I),
    "school id": re.compile(r"\bschool ?ids?\b", re.I),
    "year id": re.compile(r"\byear ?ids?\b", re.I),
    "lg id": re.compile(r"\blg ?ids?\b|\blg\b", re.I),
    "award id": re.compile(r"\baward ?ids?\b", re.I),
    "div id": re.compile(r"\bdiv ?ids?\b", re.I),
    "retro/bbref id": re.compile(r"\b(?:retro|bbref) ?ids?\b|\bteam ?id ?(?:br|retro|lahman45)\b|\bdretro\b", re.I),
}
# a relation noun built from a key column: "the team ID of ...", "the franch of ..."
RELATION_WORDS = {
    "relation noun: <key> ID of": re.compile(
        r"\b(?:player|team|franch|franchise|school|lg|div|award) ?ids? of\b", re.I
    ),
}
PLAYER_CODE = re.compile(r"\b[a-z][a-z'.]{1,6}\d{2}\b")  # playerID shape: ruthba01, o'neipa01
# raw column spellings a person would not type (reported, not in the target)
RAW_WORDS = {
    "camelCase / snake_case": re.compile(r"\b[a-z]+[A-Z]\w*\b|\b[a-z]+_[a-z_]+\b"),
    "split column name": re.compile(
        r"\bname (?:first|last|given|full)\b|\bi ?pouts\b|\bghome\b|\bplyr ?mgr\b|\bba ?opp\b|\bn ?aassoc\b"
        r"|\bfranch name\b|\bneeded note\b",
        re.I,
    ),
    "abbreviation: fan word (HR, RBI, ERA)": re.compile(r"\b(?:HR|RBI|ERA)s?\b", re.I),
    "abbreviation: score sheet": re.compile(
        r"\b(?:AB|2 ?B|3 ?B|BB|IBB|HBP|SH|SF|GIDP|SB|CS|GS|CG|SHO|SV|ER|BFP|GF|BK|WP|RA|HA|HRA|BBA|SOA|DP|FP"
        r"|BPF|PPF)\b|\b(?:the|many|'s) (?:G|R|H|W|L|E|SO)\b",  # one letter or 'so' only as a noun
        re.I,
    ),
}


def projection(sql: str, default_table: str) -> dict[str, tuple[str, str] | None]:
    """Output name -> the table.column a SELECT expression returns as is (None for COUNT/SUM/AVG or
    any other expression)."""
    tree = sqlglot.parse_one(sql, read="sqlite")
    select = tree if isinstance(tree, exp.Select) else tree.find(exp.Select)
    aliases = {t.alias_or_name: t.name for t in tree.find_all(exp.Table)}
    out: dict[str, tuple[str, str] | None] = {}
    for proj in select.expressions:
        col = proj.unalias() if isinstance(proj, exp.Alias) else proj
        target = None
        if isinstance(col, exp.Column):
            target = (aliases.get(col.table, col.table) if col.table else default_table, col.name)
        out.setdefault(proj.alias_or_name, target)
    return out


def shown_classes(rec: dict) -> set[str]:
    """Which key classes the answer is made of, read through the record's answer_columns (the columns of
    answer_rows, so an extreme that selects a team's code and name but answers the name is no code answer)."""
    cols = projection(rec["sql"], rec["table"])
    classes = set()
    for name in rec["answer_columns"]:
        col = cols.get(name)
        for label, members in (("code", CODE_OF_NAMED_ROW), ("spoken", SPOKEN_CODE)):
            if col in members:
                classes.add(label)
    return classes


def named_by_code(rec: dict) -> bool:
    """The question's placeholders hold a code of a named row (the question names it by that code)."""
    return any(tuple(p.split(".", 1)) in CODE_OF_NAMED_ROW for p in rec.get("params", {}))


def count(records_path: Path) -> dict:
    per: dict[str, Counter] = defaultdict(Counter)
    examples: dict[str, list[str]] = defaultdict(list)
    with records_path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            try:
                rec = json.loads(line)
                shown = shown_classes(rec)
            except (json.JSONDecodeError, KeyError, sqlglot.errors.ParseError) as exc:
                sys.exit(f"{records_path}:{n}: cannot read the record's sql ({exc})")
            q = rec["query"]
            hits = {
                "records": True,
                "answer: code of a named row": "code" in shown,
                "answer: league/division code": "spoken" in shown,
                "question names a row by its code": named_by_code(rec),
                "question: playerID-shaped code": bool(PLAYER_CODE.search(q)),
            }
            for word, rx in {**KEY_WORDS, **RELATION_WORDS, **RAW_WORDS}.items():
                hits[f"question: {word}" if word in KEY_WORDS else word] = bool(rx.search(q))
            hits["question: any key-column noun"] = any(rx.search(q) for rx in KEY_WORDS.values())
            for key, hit in hits.items():
                if hit:
                    for bucket in (rec["style"], "all"):
                        per[bucket][key] += 1
                    if key != "records" and len(examples[key]) < 3:
                        examples[key].append(f"{q}  -> {rec['answer_text']}")
    return {"counts": {k: dict(v) for k, v in per.items()}, "examples": dict(examples)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("records", type=Path)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    result = count(args.records)
    counts = result["counts"]
    buckets = sorted(b for b in counts if b != "all") + ["all"]
    keys = sorted({k for c in counts.values() for k in c}, key=lambda k: (k != "records", k))
    print("| count | " + " | ".join(buckets) + " |")
    print("|---|" + "---:|" * len(buckets))
    for k in keys:
        print(f"| {k} | " + " | ".join(f"{counts[b].get(k, 0):,}" for b in buckets) + " |")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
