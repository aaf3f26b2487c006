"""Results of other tools: the GRAMMAR reference's ``eval_results`` and a plain JSONL.

GRAMMAR reference (``<root>/eval_results/results_{style}[_balanced].json`` and
``<root>/SemanticsMatch/{style}.json``), read exactly as the paper computed its Table 3:

* an answer is correct = the stored ``judgement``; where it is missing, Incorrect when
  ``retrieval_judgement == 0`` (closed domain: no context, no answer), otherwise the cached
  verdict in ``SemanticsMatch`` for ``str((query, answer, first response))``;
* the retrieval module on its own = ``retrieval_judgement == 1``;
* the semantic group = ``query_tag``.

Plain JSONL: one object a line with ``query``, ``answer`` (a value, or a list for an answer
set), ``response`` and optionally ``id``, ``group_id``, ``style``, ``retrieved_ids``,
``gold_ids``, ``correct`` (a verdict someone already made), ``kb_supported``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragdx.errors import RagdxError
from ragdx.evaluate.config import RULE_WORDS, RetrievalRule, parse_choice
from ragdx.evaluate.protocol import TABLE3_ROWS, table3
from ragdx.evaluate.records import JudgeItem, Judgement

_FILE = re.compile(r"^results_(?P<style>[A-Za-z0-9-]+?)(?P<balanced>_balanced)?\.json$")

#: the paper's printed Aurp cells (short / long), for the report's side-by-side
PAPER_AURP = {
    "short": {"baseline": 0.27, "context_comparison": 0.29, "remove_gap": 0.95,
              "remove_gap_context_comparison": 1.00, "balance": 0.27, "balance_context_comparison": 0.29},
    "long": {"baseline": 0.51, "context_comparison": 0.51, "remove_gap": 0.96,
             "remove_gap_context_comparison": 0.98, "balance": 0.27, "balance_context_comparison": 0.28},
}
# the paper's Table 3 columns for its Spider benchmarks (robust = short, non-robust = long)
PAPER_SPIDER_CLOSED = {
    "short": {"baseline": 0.26, "context_comparison": 0.31, "remove_gap": 0.58,
              "remove_gap_context_comparison": 0.62, "balance": 0.28, "balance_context_comparison": 0.32},
    "long": {"baseline": 0.28, "context_comparison": 0.34, "remove_gap": 0.44,
             "remove_gap_context_comparison": 0.49, "balance": 0.21, "balance_context_comparison": 0.28},
}
PAPER_SPIDER_OPEN = {
    "short": {"baseline": 0.67, "context_comparison": 0.37, "remove_gap": 0.98,
              "remove_gap_context_comparison": 0.51, "balance": 0.69, "balance_context_comparison": 0.36},
    "long": {"baseline": 0.87, "context_comparison": 0.35, "remove_gap": 0.96,
             "remove_gap_context_comparison": 0.39, "balance": 0.68, "balance_context_comparison": 0.29},
}


def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RagdxError(f"cannot read ({exc})", source=str(path)) from None


def is_reference_dir(path: str | Path) -> bool:
    path = Path(path)
    folder = path / "eval_results" if (path / "eval_results").is_dir() else path
    return folder.is_dir() and any(_FILE.match(p.name) for p in folder.iterdir())


def _first(response: Any) -> Any:
    if isinstance(response, list):
        return response[0] if response else None
    return response


def read_reference_file(path: str | Path, semantics_match: dict[str, Any] | None = None, *,
                        style: str | None = None) -> list[Judgement]:
    """One ``results_*.json`` as judgements (ids ``<style>[-balanced]:<index>``)."""
    path = Path(path)
    m = _FILE.match(path.name)
    style = style or (m.group("style") if m else path.stem)
    tag = f"{style}{'-balanced' if m and m.group('balanced') else ''}"
    data = _load_json(path)
    if not isinstance(data, list):
        raise RagdxError("expected a list of result records", source=str(path))
    out = []
    for i, r in enumerate(data):
        try:
            query, answer, response = r["query"], r["answer"], _first(r.get("gpt_response"))
            retrieval = r.get("retrieval_judgement")
            if r.get("judgement") is not None:
                correct, judge, reason = r["judgement"] == "Correct", "reference", "stored judgement"
            elif retrieval == 0:
                correct, judge, reason = False, "reference", "retrieval failed (closed domain: no answer)"
            else:
                key = str((query, answer, response))
                verdict = (semantics_match or {}).get(key)
                if verdict is None:
                    raise RagdxError("no stored judgement and no SemanticsMatch verdict for it",
                                     source=str(path), field=f"[{i}]")
                verdict = verdict[0] if isinstance(verdict, list) else verdict
                correct, judge, reason = verdict == "Correct", "reference:SemanticsMatch", "cached LLM verdict"
            out.append(Judgement(
                id=f"{tag}:{i}", group_id=str(r["query_tag"]), style=style, correct=bool(correct), judge=judge,
                reason=reason, retrieval_correct=None if retrieval is None else retrieval == 1,
                retrieved_ids=[str(x) for x in r.get("retrieved_document_ids") or []],
                gold_ids=[str(x) for x in r.get("true_document_ids") or []],
                query=query, answer="" if answer is None else str(answer),
                response=None if response is None else str(response)))
        except KeyError as exc:
            raise RagdxError(f"missing field {exc}", source=str(path), field=f"[{i}]") from None
    return out


@dataclass
class ReferenceSet:
    """The judgements of a GRAMMAR reference directory: style -> {"unbalanced", "balanced"}."""

    root: Path
    sets: dict[str, dict[str, list[Judgement]]]

    @property
    def styles(self) -> list[str]:
        return sorted(self.sets, key=lambda s: (s != "short", s != "long", s))

    def table3(self) -> dict[str, dict[str, float]]:
        return {s: table3(self.sets[s].get("unbalanced") or self.sets[s]["balanced"], self.sets[s].get("balanced"))
                for s in self.styles}


def read_reference(root: str | Path) -> ReferenceSet:
    """Every ``results_*.json`` under ``root`` (or ``root/eval_results``), with ``SemanticsMatch``."""
    root = Path(root)
    folder = root / "eval_results" if (root / "eval_results").is_dir() else root
    base = folder.parent if folder.name == "eval_results" else root
    if not folder.is_dir():
        raise RagdxError("no such directory", source=str(folder))
    sets: dict[str, dict[str, list[Judgement]]] = {}
    for path in sorted(folder.iterdir()):
        m = _FILE.match(path.name)
        if not m:
            continue
        style = m.group("style")
        sm_path = base / "SemanticsMatch" / f"{style}.json"
        sm = _load_json(sm_path) if sm_path.exists() else None
        kind = "balanced" if m.group("balanced") else "unbalanced"
        sets.setdefault(style, {})[kind] = read_reference_file(path, sm, style=style)
    if not sets:
        raise RagdxError("no results_<style>[_balanced].json files", source=str(folder))
    return ReferenceSet(root, sets)


def table3_markdown(cells: dict[str, dict[str, float]], paper: dict[str, dict[str, float]] | None = None) -> str:
    styles = list(cells)
    head = "| Isolating errors | " + " | ".join(styles)
    if paper:
        head += " | " + " | ".join(f"paper {s}" for s in styles)
    head += " |"
    lines = [head, "|---|" + "---:|" * (len(styles) * (2 if paper else 1))]
    for key, label in TABLE3_ROWS:
        if not all(key in cells[s] for s in styles):
            continue
        row = [f"{cells[s][key]:.3f}" for s in styles]
        if paper:
            row += [f"{paper[s][key]:.2f}" if s in paper and key in paper[s] else "" for s in styles]
        lines.append(f"| {label} | " + " | ".join(row) + " |")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- plain JSONL


@dataclass
class PlainRecord:
    id: str
    group_id: str
    style: str
    item: JudgeItem
    retrieved_ids: list[str]
    gold_ids: list[str]
    correct: bool | None
    kb_supported: bool | None


def read_plain_jsonl(path: str | Path) -> list[PlainRecord]:
    from ragdx.store import iter_jsonl

    path = Path(path)
    if not path.exists():
        raise RagdxError("no such file", source=str(path))
    out = []
    for number, obj in iter_jsonl(path):
        for name in ("query", "answer"):
            if name not in obj:
                raise RagdxError(f"missing field {name!r}", source=str(path), field=f"line {number}")
        response = obj.get("response")
        if isinstance(response, list):
            response = _first(response)
        out.append(PlainRecord(
            id=str(obj.get("id", number)), group_id=str(obj.get("group_id", obj.get("query_tag", number))),
            style=str(obj.get("style", "default")),
            item=JudgeItem.from_text(obj["query"], obj["answer"], None if response is None else str(response)),
            retrieved_ids=[str(x) for x in obj.get("retrieved_ids", obj.get("retrieved_document_ids")) or []],
            gold_ids=[str(x) for x in obj.get("gold_ids", obj.get("true_document_ids")) or []],
            correct=obj.get("correct"), kb_supported=obj.get("kb_supported")))
    return out


def evidence_rank(evidence_sets: Sequence[Sequence[str]], retrieved: Sequence[str]) -> int | None:
    """1-based rank at which the retrieved prefix first holds the evidence (every set hit), or
    None when it never does."""
    need = [set(s) for s in evidence_sets if s]
    if not need:
        return None
    # each retrieved document crosses off the sets it is in: the rank at which none is left
    left = list(range(len(need)))
    for rank, doc in enumerate(retrieved, 1):
        left = [i for i in left if doc not in need[i]]
        if not left:
            return rank
    return None


def retrieval_verdict(gold: Sequence[str], retrieved: Sequence[str], k: int | None = None,
                      rule: str = "evidence", evidence_sets: Sequence[Sequence[str]] = ()) -> bool | None:
    """The retrieval module on its own, by one named rule (``config.RetrievalRule``) over the top ``k``
    retrieved (all of them by default: what the system gave its language model).

    ``evidence`` (the default) needs one document of every evidence set; where a record has no
    evidence sets it falls back on ``all`` gold documents, which is the same thing when each
    fact is stated by one document. None when there is nothing to judge against."""
    if rule not in RULE_WORDS:  # a dict lookup: this runs once per query and cut-off
        parse_choice(RetrievalRule, rule, "retrieval rule", "retrieval")  # one line naming the choices
    top_list = list(retrieved)[:k] if k else list(retrieved)
    if rule == "evidence" and any(evidence_sets):
        return evidence_rank(evidence_sets, top_list) is not None
    if not gold:
        return None
    top = set(top_list)
    if rule == "any":
        return bool(set(gold) & top)
    return set(gold) <= top
