"""Open-domain queries (GRAMMAR §5.2, Table 4): what the model knows without retrieval.

On a public-ish corpus (Spider's companies) a model can answer some queries from its parametric
knowledge. Those queries hide knowledge-base gaps: a gap group that the model answers anyway is
not counted as a gap, and Acc_retrieval_db is inflated (the paper's Table 4: 0.53 with them, 0
without). The remedy is a closed-book run: the same model, the same queries, no retrieval.
A semantic group the closed-book system answers correctly (any of its queries) is *open-domain*;
the others are closed-domain (the closed-book run's gap groups, as the paper finds them).

This module tags the groups, reports Acc_retrieval_db over all groups and over the closed-domain
groups only, and can drop the open-domain groups from an evaluation. ``ClosedBookSystem`` is the
system ``ragdx run --closed-book`` runs: the ``llm:`` section's model asked the bare question.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from ragdx.errors import RagdxError

if TYPE_CHECKING:
    from ragdx.rag.types import SystemInput, SystemOutput

CLOSED_BOOK_PROMPT = ("Answer the question from your own knowledge, as briefly as possible (a name, a number, "
                      "a date or a short phrase). If you do not know, answer \"I don't know\".")


@dataclass(slots=True)
class OpenDomain:
    groups: int
    #: groups the closed-book system answered correctly at least once
    open_domain: list[str]
    #: groups of the RAG run with no closed-book judgement (not tagged either way)
    untagged: int
    acc_retrieval_db_all: float | None
    acc_retrieval_db_closed_domain: float | None
    gap_groups_all: int
    gap_groups_closed_domain: int
    closed_domain_groups: int
    excluded: bool = False
    #: groups of each kind per table/style are not known here; per style counts of open groups
    by_style: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _correct_groups(judgements: Sequence[Any]) -> tuple[set[str], set[str]]:
    """(groups with a judged query, groups with a correct answer), judge failures left out."""
    seen, right = set(), set()
    for j in judgements:
        if getattr(j, "error", None):
            continue
        seen.add(j.group_id)
        if j.correct:
            right.add(j.group_id)
    return seen, right


def open_domain_groups(closed_book: Sequence[Any]) -> set[str]:
    """Groups the closed-book system answers correctly at least once (any style)."""
    return _correct_groups(closed_book)[1]


def acc_retrieval_db(judgements: Sequence[Any],
                     exclude: set[str] | frozenset[str] = frozenset()) -> tuple[float | None, int, int]:
    """GRAMMAR's Eq. 1, 1 − gap groups / groups, over the groups not in ``exclude``: (value, gap
    groups, groups). A gap group is one no query of which was answered correctly."""
    seen, right = _correct_groups(judgements)
    groups = seen - set(exclude)
    gaps = groups - right
    return (1 - len(gaps) / len(groups) if groups else None), len(gaps), len(groups)


def tag_open_domain(rag: Sequence[Any], closed_book: Sequence[Any], *,
                    exclude: bool = False) -> tuple[list[Any], OpenDomain]:
    """Tag the RAG run's groups with the closed-book run's answers; with ``exclude`` the returned
    judgements leave the open-domain groups out (everything downstream is then closed-domain)."""
    cb_seen, _ = _correct_groups(closed_book)
    if not cb_seen:
        raise RagdxError("the closed-book run has no judged answer", field="--closed-book")
    rag_seen, _ = _correct_groups(rag)
    if not rag_seen & cb_seen:
        raise RagdxError("the closed-book run shares no semantic group with this run (another dataset?)",
                         field="--closed-book")
    open_groups = open_domain_groups(closed_book) & rag_seen
    all_value, all_gaps, n = acc_retrieval_db(rag)
    cd_value, cd_gaps, cd_n = acc_retrieval_db(rag, open_groups)
    per_style: dict[str, set[str]] = defaultdict(set)
    for j in rag:
        if j.group_id in open_groups:
            per_style[j.style].add(j.group_id)
    info = OpenDomain(groups=n, open_domain=sorted(open_groups), untagged=len(rag_seen - cb_seen),
                      acc_retrieval_db_all=all_value, acc_retrieval_db_closed_domain=cd_value,
                      gap_groups_all=all_gaps, gap_groups_closed_domain=cd_gaps, closed_domain_groups=cd_n,
                      excluded=exclude, by_style={k: len(v) for k, v in sorted(per_style.items())})
    kept = [j for j in rag if j.group_id not in open_groups] if exclude else list(rag)
    if exclude:
        from ragdx.evaluate.runs import Judged

        if isinstance(rag, Judged):
            kept = Judged(kept, rag.check)
    return kept, info


def open_domain_markdown(info: OpenDomain | dict[str, Any]) -> str:
    d = info.to_dict() if isinstance(info, OpenDomain) else info

    def fmt(v: float | None) -> str:
        return "–" if v is None else f"{v:.2f}"

    lines = ["## Open-domain queries (GRAMMAR §5.2, Table 4)", "",
             f"{len(d['open_domain'])} of {d['groups']} semantic groups are answered by the model without retrieval "
             "(closed-book run): their gaps in the knowledge base are hidden.", "",
             "| | Acc_retrieval_db | gap groups | groups |", "|---|---:|---:|---:|",
             f"| with open-domain queries | {fmt(d['acc_retrieval_db_all'])} | {d['gap_groups_all']} | {d['groups']} |",
             f"| without open-domain queries | {fmt(d['acc_retrieval_db_closed_domain'])} | "
             f"{d['gap_groups_closed_domain']} | {d['closed_domain_groups']} |"]
    if d.get("untagged"):
        lines.append(f"\n{d['untagged']} groups have no closed-book answer and count as closed-domain.")
    if d.get("excluded"):
        lines.append("\nThe open-domain groups are excluded from every other metric of this evaluation.")
    return "\n".join(lines) + "\n"


class ClosedBookSystem:
    """The model of the ``llm:`` section, asked the bare question: no retrieval, no context."""

    def __init__(self, llm_config: Any, *, name: str = "closed-book", prompt: str = CLOSED_BOOK_PROMPT):
        from ragdx.llm import make_llm

        if llm_config is None:
            raise RagdxError("a closed-book run needs a model: add an 'llm:' section (base_url, model) to "
                             "ragdx.yaml; offline there is no closed-book model", field="llm")
        self.config = llm_config
        self.name = name
        self.prompt = prompt
        self.llm = make_llm(llm_config)

    def describe(self) -> dict[str, Any]:
        cfg = self.config
        get = cfg.get if isinstance(cfg, dict) else (lambda k, d=None: getattr(cfg, k, d))
        return {"kind": "closed-book", "model": get("model"), "base_url": str(get("base_url")),
                "prompt": self.prompt}

    async def answer(self, item: SystemInput) -> SystemOutput:
        from ragdx.rag.types import SystemOutput

        start = time.perf_counter()
        try:
            completion = await self.llm.complete([{"role": "system", "content": self.prompt},
                                                  {"role": "user", "content": f"Question: {item.query}"}])
        except Exception as exc:  # recorded on the result, never raised: the runner counts failures
            return SystemOutput(item.id, item.query, None, [], time.perf_counter() - start,
                                error=f"{type(exc).__name__}: {exc}")
        return SystemOutput(item.id, item.query, completion.text.strip(), [], time.perf_counter() - start,
                            prompt_tokens=getattr(completion, "prompt_tokens", 0) or 0,
                            completion_tokens=getattr(completion, "completion_tokens", 0) or 0)
