"""GRAMMAR-Eval (§4.3): semantic groups and their tags, the protocol's metrics, module blame,
and the sampling strategies that isolate knowledge-base errors.

Tags (over the whole group, or over the queries of one style with ``by_style=True``):

* **gap**: no query of the group was answered correctly (a knowledge-base deficit);
* **robust**: every query was answered correctly;
* **non-robust**: some were, some were not.

Metrics: accuracy; refined accuracy R = correct / (all − queries in gap groups);
λ = share of queries in gap groups (so accuracy = R × (1 − λ)); Acc_retrieval_db = 1 − gap
groups / groups; the retrieval module judged on its own from gold documents (the "context
comparison" columns of the paper's Table 3) over all queries and over non-gap groups; and the
language model's accuracy where retrieval was right.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import StrEnum
from typing import Any, TypeVar

import numpy as np

from ragdx.evaluate import verdicts as verdict_registry
from ragdx.evaluate.records import Judgement
from ragdx.evaluate.stats import GroupStats, bootstrap_metrics, point_metrics

T = TypeVar("T")

GAP, ROBUST, NON_ROBUST = "gap", "robust", "non-robust"


class ModuleVerdict(StrEnum):
    """The built-in per-query verdicts (module blame) as an enum, for typed code. Their one home
    is the registry, ``ragdx.evaluate.verdicts`` (label, module blamed, colour, order), which every
    consumer (blame counts, ``summary.md``, the report, exports, the fault-injection benchmark)
    reads; a verdict added there needs no member here (``history_failure`` has none).

    Confident verdicts name one module:

    * ``correct``: the answer was judged right;
    * ``kb_gap``: the knowledge base does not state the answer's facts (a fact index ragdx rendered,
      or an evidence search that found neither the fact nor anything naming its entity), or the
      system's index lacks the only documents stating one (no query retrieved them, and no probe
      made of their own words brought them back: ``ragdx.rag.probe``);
    * ``retrieval_failure``: the documents stating the facts exist but were not retrieved (a document
      no query retrieved exists when a probe in its own words brought it back);
    * ``lm_failure``: they were retrieved (or the retrieved documents are those another phrasing of
      the same question was answered from) and the answer is still wrong.

    Unsure verdicts say which modules remain and why none can be named (``UNSURE``):

    * ``kb_or_retrieval``: the knowledge base or the retriever — e.g. the evidence linker found no
      passage stating the fact although the documents about its entity write the answer's value
      (tables, cards and headings are easily missed) or it found a match below its threshold, the linked
      evidence is weak, the system searched another corpus than the
      one linked, or an answer-based gap group whose knowledge base content is unknown;
    * ``retrieval_or_lm``: the facts are stated, but the retrieval could not be judged (retrieved
      ids match no document of the knowledge base, or no retrieved context was captured at all);
    * ``undetermined``: wrong, and neither the knowledge base's content nor the retrieval is known.

    ``unjudged``: the judge failed; the query has no verdict at all.
    """

    CORRECT = "correct"
    KB_GAP = "kb_gap"
    RETRIEVAL_FAILURE = "retrieval_failure"
    LM_FAILURE = "lm_failure"
    KB_OR_RETRIEVAL = "kb_or_retrieval"
    RETRIEVAL_OR_LM = "retrieval_or_lm"
    UNDETERMINED = "undetermined"
    UNJUDGED = "unjudged"


#: the built-in verdicts counted in every blame table that name one module (what fault injection
#: can make true); the registry (``ragdx.evaluate.verdicts``) is their one home, these tuples are
#: read from it when this module loads
MODULE_VERDICTS = verdict_registry.module_verdicts(always=True)
#: the verdicts that say ragdx cannot tell which of two (or more) modules failed
UNSURE = verdict_registry.unsure_verdicts()
#: every verdict counted in every blame table, in display order (``unjudged`` is counted beside
#: them; a verdict only some datasets get, such as ``history_failure``, only where a query got it)
VERDICTS = verdict_registry.shown()
#: how each verdict is named wherever it is shown
VERDICT_LABELS = verdict_registry.labels()
#: ``retrieval_note`` values of a judgement whose retrieval could not be judged
RETRIEVAL_IDS_UNMATCHED, RETRIEVAL_NO_CONTEXT, CORPUS_CHANGED = "ids_unmatched", "no_context", "corpus_changed"
#: linked evidence below this confidence is weak (a date matched by its season, a topic-only match)
WEAK_EVIDENCE = 0.7
#: a linker match below this weight does not count as stating a fact (``ragdx.kb.link.MIN_WEIGHT``)
STATED_WEIGHT = 0.5


def _key(j: Any, by_style: bool) -> tuple[str, str] | str:
    return (j.group_id, j.style) if by_style else j.group_id


def group_tags(judgements: Iterable[Judgement], *, by_style: bool = False) -> dict[Any, str]:
    """Tag of every semantic group (key ``group_id``, or ``(group_id, style)`` with ``by_style``)."""
    seen: dict[Any, list[bool]] = defaultdict(list)
    for j in judgements:
        if getattr(j, "error", None):
            continue  # the judge failed: no verdict to tag with
        seen[_key(j, by_style)].append(bool(j.correct))
    return {k: GAP if not any(v) else ROBUST if all(v) else NON_ROBUST for k, v in seen.items()}


def group_stats(judgements: Sequence[Judgement], *, group_ids: Sequence[str] | None = None,
                gap: Callable[[str], bool] | None = None) -> GroupStats:
    """Per-group counts over ``judgements`` (one style or the whole set, as given).

    ``group_ids`` fixes the order (groups absent here get zero counts); ``gap`` overrides the
    gap rule (default: no correct answer among these judgements)."""
    ids = (list(dict.fromkeys(j.group_id for j in judgements if not getattr(j, "error", None)))
           if group_ids is None else list(group_ids))
    index = {g: i for i, g in enumerate(ids)}
    # a failed judgement is counted where it is reported, never as a wrong answer
    live = [j for j in judgements if not getattr(j, "error", None)]
    at = [index[j.group_id] for j in live]
    # column by column with bincount (a Python loop over the queries per statistic was a large part
    # of a 100k-query evaluation); every sum is a count, so the floats are the loop's exactly
    size = len(ids)
    idx = np.array(at, dtype=np.int64)
    ok = np.fromiter((bool(j.correct) for j in live), dtype=bool, count=len(live))
    ret = [j.retrieval_correct for j in live]
    known = np.fromiter((r is not None for r in ret), dtype=bool, count=len(live))
    right = np.fromiter((bool(r) for r in ret), dtype=bool, count=len(live)) & known
    n = np.bincount(idx, minlength=size).astype(np.float64)
    correct = np.bincount(idx, weights=ok, minlength=size)
    ret_known = np.bincount(idx, weights=known, minlength=size)
    ret_correct = np.bincount(idx, weights=right, minlength=size)
    lm_n = ret_correct.copy()
    lm_correct = np.bincount(idx, weights=right & ok, minlength=size)
    kb_known = np.zeros(size)
    kb_supported = np.zeros(size)
    # a group's facts are one set: every query of it has the same kb_supported (the last one read wins)
    stated = {i: bool(j.kb_supported) for i, j in zip(at, live, strict=True) if j.kb_supported is not None}
    # the linker's "not stated" is not the last word: a phrasing answered correctly from captured
    # documents shows the corpus the system searched states the group's facts (see ``blame``)
    if False in stated.values():
        for i, j in zip(at, live, strict=True):
            if j.correct and stated.get(i) is False and _captured(j) and CORPUS_CHANGED not in _notes(j):
                stated[i] = True
    if stated:
        where = np.fromiter(stated, dtype=np.int64, count=len(stated))
        kb_known[where] = 1.0
        kb_supported[where] = np.fromiter(stated.values(), dtype=np.float64, count=len(stated))
    gaps = None if gap is None else np.array([gap(g) for g in ids], dtype=bool)
    return GroupStats(np.array(ids, dtype=object), n, correct, ret_known, ret_correct, lm_n, lm_correct, gaps,
                      kb_known, kb_supported)


def by_style(judgements: Iterable[Judgement]) -> dict[str, list[Judgement]]:
    out: dict[str, list[Judgement]] = defaultdict(list)
    for j in judgements:
        out[j.style].append(j)
    return dict(out)


def metrics(judgements: Sequence[Judgement], *, gap_over: Sequence[Judgement] | None = None,
            n_boot: int = 0, seed: int = 0, gap_tags: dict[Any, str] | None = None) -> dict[str, Any]:
    """The protocol's metrics over ``judgements``. Gap groups are found among ``judgements``
    themselves (the paper's way: per style), or among ``gap_over`` (e.g. all styles) if given
    (``gap_tags``: ``group_tags(gap_over)``, when the caller has it already).
    With ``n_boot`` > 0 every metric gets a 95 % interval from a bootstrap over groups."""
    gap_fn = None
    if gap_over is not None:
        tags = group_tags(gap_over) if gap_tags is None else gap_tags
        gap_fn = lambda g: tags.get(g) == GAP  # noqa: E731
    stats = group_stats(judgements, gap=gap_fn)
    out: dict[str, Any] = {"queries": len(judgements), **stats.tags(),
                           "gap_queries": int(stats.n[stats.gap].sum())}
    if n_boot > 0:
        out["metrics"] = bootstrap_metrics(stats, n_boot=n_boot, seed=seed)
    else:
        out["metrics"] = {k: {"value": v} for k, v in point_metrics(stats).items()}
    return out


# ----------------------------------------------------------------------------- sampling


def remove_gap_groups(judgements: Sequence[Judgement], *, by_style: bool = True) -> list[Judgement]:
    """Drop the queries of gap groups (found per style by default, as the paper's Table 3 does)."""
    tags = group_tags(judgements, by_style=by_style)
    return [j for j in judgements if tags[_key(j, by_style)] != GAP]


def _buckets(items: Sequence[T]) -> dict[tuple[str, str], list[T]]:
    out: dict[tuple[str, str], list[T]] = defaultdict(list)
    for it in items:
        out[(it.group_id, it.style)].append(it)  # type: ignore[attr-defined]
    return out


def sample_stratified(items: Sequence[T], per_group: int, *, seed: int = 0) -> list[T]:
    """Exactly ``per_group`` queries (or all, if fewer) of every semantic group and style: every
    group weighs the same, so λ is the same across styles and systems ("balance gap examples")."""
    keep: set[int] = set()
    for (gid, style), bucket in _buckets(items).items():
        rng = random.Random(f"{seed}:{gid}:{style}")
        chosen = bucket if len(bucket) <= per_group else rng.sample(bucket, per_group)
        keep.update(id(x) for x in chosen)
    return [it for it in items if id(it) in keep]


def sample_unbalanced(items: Sequence[T], *, seed: int = 0, max_per_group: int | None = None) -> list[T]:
    """A seeded, group-dependent number of queries (1 .. group size): what an organically grown
    test set looks like, where λ drifts between styles and systems."""
    keep: set[int] = set()
    for (gid, style), bucket in _buckets(items).items():
        rng = random.Random(f"{seed}:{gid}:{style}")
        k = rng.randint(1, min(len(bucket), max_per_group or len(bucket)))
        keep.update(id(x) for x in rng.sample(bucket, k))
    return [it for it in items if id(it) in keep]


# ----------------------------------------------------------------------------- module blame


def context_comparison(judgements: Sequence[Judgement], *, within_style: bool = False) -> dict[str, str]:
    """The paper's rule as written (§4.3): a wrong answer in a non-robust group whose retrieved
    documents equal those of a correctly answered query of the same group is an LM error
    ("lm"); otherwise the context was insufficient ("retrieval"). Returns id -> verdict for the
    wrong answers of non-robust groups."""
    correct_contexts: dict[Any, set[tuple[str, ...]]] = defaultdict(set)
    for j in judgements:
        if j.correct:
            correct_contexts[_key(j, within_style)].add(tuple(sorted(j.retrieved_ids)))
    out = {}
    for j in judgements:
        key = _key(j, within_style)
        if j.correct or key not in correct_contexts:
            continue
        out[j.id] = "lm" if tuple(sorted(j.retrieved_ids)) in correct_contexts[key] else "retrieval"
    return out


def _retrieved(j: Any) -> list[str]:
    return list(getattr(j, "retrieved_ids", None) or [])


def _notes(j: Any) -> set[str]:
    """The judgement's ``retrieval_note`` as a set (several are joined with '+')."""
    note = getattr(j, "retrieval_note", "") or ""
    return set(note.split("+")) if note else set()


def _captured(j: Any) -> bool:
    """The answer's retrieved documents were captured (something to compare with)."""
    return bool(_retrieved(j)) and RETRIEVAL_NO_CONTEXT not in _notes(j)


class _Group:
    """What the correct answers of one semantic group show: the corpus the system searched states
    the facts, and the documents each was answered from."""

    __slots__ = ("contexts", "answered_from", "strong", "examples")

    def __init__(self) -> None:
        self.contexts: set[tuple[str, ...]] = set()
        #: documents a correct answer was produced from (``strong``): those of its context that write
        #: the answer's values (``answer_docs``), or its retrieved evidence where the linker knows it;
        #: else the documents common to every correct context of the group
        self.answered_from: set[str] = set()
        self.strong = False
        self.examples: list[str] = []


def _group_evidence(judgements: Sequence[Any], within_style: bool) -> dict[Any, _Group]:
    """What the correct answers with captured documents show, for the groups that have a wrong answer."""
    wrong = {_key(j, within_style) for j in judgements if not j.correct}
    correct: dict[Any, list[Any]] = defaultdict(list)
    for j in judgements:
        if j.correct and not getattr(j, "error", None) and _captured(j):
            key = _key(j, within_style)
            if key in wrong:
                correct[key].append(j)
    out: dict[Any, _Group] = {}
    for key, js in correct.items():
        g = out[key] = _Group()
        common: set[str] | None = None
        for j in js:
            ids = _retrieved(j)
            g.contexts.add(tuple(sorted(ids)))
            # the documents that write the answer's values (found where the linker knew no evidence),
            # else the retrieved gold documents (the union of the evidence sets)
            read = getattr(j, "answer_docs", None)
            if read:
                g.answered_from.update(read)
                g.strong = True
            gold = getattr(j, "gold_ids", None) or [d for s in (getattr(j, "evidence_sets", None) or []) for d in s]
            if gold and not read:
                gold = set(gold)
                stating = [d for d in ids if d in gold]
                if stating:
                    g.answered_from.update(stating)
                    g.strong = True
            if not g.strong:
                common = set(ids) if common is None else common & set(ids)
            if len(g.examples) < 3:
                g.examples.append(j.id)
        if not g.strong:
            # without linked evidence: the documents every correct phrasing had (with one correct
            # phrasing, its whole context)
            g.answered_from = common or set()
    return out


def _kb_doubt(j: Any) -> str | None:
    """Why a ``kb_supported`` False is not to be trusted (None: it is). A fact index of a knowledge
    base ragdx rendered is exact; an evidence search over a user's corpus can miss a fact."""
    if CORPUS_CHANGED in _notes(j):
        return "the system searched another corpus than the one the evidence was linked in"
    basis = (getattr(j, "kb_basis", "") or "").lower()
    if any(w in basis for w in ("partial", "weak", "truncat", "incomplete")):
        return f"the evidence search was {basis.replace('_', ' ')}"
    if basis != "unlinked":
        return None
    conf = getattr(j, "evidence_confidence", None)
    if conf is not None and 0 < conf < STATED_WEIGHT:
        return f"the linker found a partial match (confidence {conf:.2f}, below the {STATED_WEIGHT} needed)"
    seen = getattr(j, "value_seen_in", None) or []
    if seen:
        # the entity's own documents write the answer's value: the linker did not tie the two
        # together (a value in a table, card or heading is easily missed). The entity being named
        # alone is no sign: a corpus that leaves a fact out still names its entity
        return (f"the documents about the entity write the answer's value ({', '.join(seen[:3])}"
                f"{', …' if len(seen) > 3 else ''}), perhaps in a table, card or heading the linker did not read")
    return None


def _spans(j: Any, docs: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """The record's evidence spans (of ``docs`` when given), as the dataset holds them."""
    spans = getattr(j, "evidence_spans", None)
    if not spans:
        return []
    if docs is None:
        return list(spans)
    keep = set(docs)
    return [s for s in spans if isinstance(s, dict) and s.get("doc_id") in keep]


#: a run must have captured contexts for this many queries before "no query retrieved it" says
#: anything about a document
NEVER_RETRIEVED_MIN_QUERIES = 20


def never_retrieved(judgements: Sequence[Any]) -> set[str] | None:
    """Gold documents that no query of the run retrieved (None: too few queries captured contexts
    to tell). A document the linker found in the dataset's corpus but that no query ever retrieves
    may be missing from the index the system searches (deleted, not yet indexed, filtered out), or
    be one its retriever cannot reach: from the outputs alone the two cannot be told apart."""
    seen: set[str] = set()
    captured = 0
    gold: set[str] = set()
    for j in judgements:
        ids = getattr(j, "retrieved_ids", None) or []
        if ids:
            captured += 1
            seen.update(ids)
        gold.update(getattr(j, "gold_ids", None) or [])
    if captured < NEVER_RETRIEVED_MIN_QUERIES:
        return None
    return gold - seen


_Verdict = tuple[str, str, str, str, list[str]]


def _verdict(j: Any, tags: dict[Any, str], groups: dict[Any, _Group], within_style: bool,
             unseen: set[str] | None = None, probes: Mapping[str, Mapping[str, Any]] | None = None) -> _Verdict:
    """(verdict, basis, confidence, why, documents) of one wrong answer."""
    key = _key(j, within_style)
    notes = _notes(j)
    ids = _retrieved(j)
    gold = list(getattr(j, "gold_ids", None) or [])
    conf = getattr(j, "evidence_confidence", None)
    weak = conf is not None and conf < WEAK_EVIDENCE
    group = groups.get(key)
    ids_usable = RETRIEVAL_NO_CONTEXT not in notes

    # 1. the knowledge base states the facts and retrieval was judged against the linked evidence
    if j.kb_supported is not False and j.retrieval_correct is not None:
        return _verdict_on_evidence(j, tags.get(key), group, notes, ids, gold, conf, weak, unseen, probes)

    # 2. another phrasing of the same facts was answered correctly from captured documents: the
    #    corpus the system searched states them, whatever the linker found -- unless ragdx rendered
    #    that corpus and its exact fact index says no document states them: the right answer then
    #    came from elsewhere (the answer's own name in its entity's page, the model's knowledge)
    if group is not None and ids_usable and not _exact_gap(j):
        return _verdict_by_group(j, group, notes, ids)
    return _verdict_without_comparison(j, tags.get(key), notes, gold)


def _exact_gap(j: Any) -> bool:
    """``kb_supported`` False read off the fact index of a knowledge base ragdx rendered, which
    the system searched unchanged: no answer of another phrasing can show the facts are stated."""
    return (j.kb_supported is False and (getattr(j, "kb_basis", "") or "") == "fact_index"
            and _kb_doubt(j) is None)


def _verdict_on_evidence(j: Any, tag: str | None, group: _Group | None, notes: set[str], ids: list[str],
                         gold: list[str], conf: float | None, weak: bool, unseen: set[str] | None,
                         probes: Mapping[str, Mapping[str, Any]] | None = None) -> _Verdict:
    """The verdict where the knowledge base may state the facts and retrieval was judged against
    the linked evidence (``weak``: the linker's confidence ``conf`` in it is low)."""
    if j.retrieval_correct:
        gold_set = set(gold)
        return ("lm_failure", "evidence", "medium" if weak else "high",
                "the documents stating the facts were retrieved and the answer is wrong"
                + (f" (linked evidence weak: confidence {conf:.2f})" if weak else ""),
                [d for d in ids if d in gold_set])
    if group is not None and tuple(sorted(ids)) in group.contexts:
        return ("lm_failure", "context_comparison", "medium",
                f"the linked evidence was not retrieved, yet phrasing {group.examples[0]} was answered correctly "
                "from exactly these documents", sorted(ids))
    missing = [set(e) for e in (getattr(j, "evidence_sets", None) or []) if e and not set(e) & set(ids)]
    blind = [e for e in missing if unseen and e <= unseen]
    if blind and probes and not weak and CORPUS_CHANGED in notes:
        # the system searched another corpus than the one linked, but the probes asked it for the
        # documents no query retrieved: whether it holds them settles this miss as in the same corpus
        settled = _never_retrieved_verdict(blind, probes)
        if settled[0] != "kb_or_retrieval":
            return settled
    if weak or CORPUS_CHANGED in notes:
        why = (f"the documents the linker says state the facts (confidence {conf:.2f}, weak) were not retrieved; "
               "they may not state them at all" if weak else
               "the evidence was not retrieved, but the system searched another corpus than the one the "
               "evidence was linked in: it may not hold it")
        if group is not None and set(ids) & group.answered_from:
            return ("lm_failure", "group_answer_documents", "low",
                    why + f"; yet another phrasing ({group.examples[0]}) was answered correctly from documents "
                    "this one retrieved", sorted(set(ids) & group.answered_from))
        return "kb_or_retrieval", "weak_evidence" if weak else "corpus_changed", "low", why, gold
    if j.kb_supported is None and tag == GAP:
        return ("kb_or_retrieval", "answer_based_gap_group", "low",
                "no phrasing of the group was answered and the knowledge base's content is unknown: its gold "
                "documents were not retrieved, but they may not state the facts", gold)
    if group is not None and not group.strong:
        # the correct phrasings were answered without any linked evidence document in their
        # context: the linked evidence is not all there is
        shared = sorted(set(ids) & group.answered_from)
        if shared:
            return ("lm_failure", "group_answer_documents", "low",
                    f"the linked evidence was not retrieved, but phrasing {group.examples[0]} was answered "
                    f"correctly without it, from documents this one retrieved too ({', '.join(shared[:3])})",
                    shared)
        return ("retrieval_failure", "evidence", "medium",
                "the documents stating the facts were not retrieved (another phrasing was answered correctly "
                "without them, so the linked evidence may be incomplete)", gold)
    if blind:
        return _never_retrieved_verdict(blind, probes or {})
    return ("retrieval_failure", "evidence", "high",
            "the documents stating the facts were not retrieved", gold)


def _probe_words(p: Mapping[str, Any]) -> str:
    query = str(p.get("query") or "")
    return f"“{query[:80]}{'…' if len(query) > 80 else ''}”"


def _never_retrieved_verdict(blind: list[set[str]], probes: Mapping[str, Mapping[str, Any]]) -> _Verdict:
    """The verdict where the only documents stating some fact this answer needs (each of ``blind``:
    one fact's evidence set) were retrieved by no query of the run. From the outputs alone an
    index that lacks them and a retriever that cannot reach them look the same; the run's probes
    (``ragdx.rag.probe``: the system asked for each document in its own words) tell them apart:

    * a fact none of whose documents came back to its own words, though the probes returned
      contexts, is very likely absent from the index -> ``kb_gap`` (medium: a retriever may miss
      even its own words, and the linker may not know every document stating the fact);
    * every such fact has a document that did come back: they are in the index, and this query
      did not find them -> ``retrieval_failure``;
    * otherwise (not probed, a probe failed) -> ``kb_or_retrieval``, as without probes."""
    def found(d: str) -> bool | None:
        return (probes.get(d) or {}).get("found")

    absent = [e for e in blind if all(found(d) is False for d in e)]
    if absent:
        docs = sorted(d for e in absent for d in e)
        return ("kb_gap", "probe_not_found", "medium",
                f"no query of the run retrieved {', '.join(docs[:3])}{', …' if len(docs) > 3 else ''}, the only "
                f"documents stating a fact this answer needs, and neither did a probe made of their own words "
                f"({_probe_words(probes[docs[0]])}) although it returned contexts: the system's index very likely "
                "lacks them (deleted, not yet indexed, filtered out)", docs)
    docs = sorted(d for e in blind for d in e)
    if all(any(found(d) for d in e) for e in blind):
        hit = next(d for d in docs if found(d))
        return ("retrieval_failure", "probe_found", "high",
                f"no query of the run retrieved {', '.join(docs[:3])}{', …' if len(docs) > 3 else ''}, but a probe "
                f"made of the words of {hit} ({_probe_words(probes[hit])}) brought it back (rank "
                f"{probes[hit].get('rank')}): the documents are in the index and the retriever did not find them "
                "for this query", docs)
    probed = [d for d in docs if d in probes]
    return ("kb_or_retrieval", "evidence_never_retrieved", "low",
            f"no query of the run retrieved {', '.join(docs[:3])}{', …' if len(docs) > 3 else ''}, the only "
            "documents stating a fact this answer needs: if the system's index lacks them (deleted, not yet "
            "indexed, filtered out) this is a knowledge-base gap, otherwise its retriever cannot reach them"
            + ("; probes of them failed or were inconclusive" if probed else
               " (`ragdx probe` asks the system for them in their own words and tells which)"), docs)


def _verdict_by_group(j: Any, group: _Group, notes: set[str], ids: list[str]) -> _Verdict:
    """The verdict where another phrasing of the same facts was answered correctly and this
    answer's retrieved documents are known."""
    overridden = ("; the linker found no passage stating the facts, but the answers show the corpus states them"
                  if j.kb_supported is False else "")
    example = group.examples[0]
    if tuple(sorted(ids)) in group.contexts:
        return ("lm_failure", "context_comparison", "high",
                f"the same documents were retrieved as for phrasing {example}, which was answered correctly"
                + overridden, sorted(ids))
    shared = sorted(set(ids) & group.answered_from)
    if shared:
        return ("lm_failure", "group_answer_documents", "medium" if group.strong else "low",
                f"the retrieved documents include {', '.join(shared[:3])}, from which phrasing {example} was "
                "answered correctly" + ("" if group.strong else " (which of them stated the answer is unknown)")
                + overridden, shared)
    if RETRIEVAL_IDS_UNMATCHED in notes:
        return ("retrieval_or_lm", "retrieval_unjudged_ids", "medium",
                f"phrasing {example} was answered correctly, so the facts are stated; this one's retrieved ids "
                "match no document of the knowledge base, so its retrieval cannot be judged" + overridden, [])
    return ("retrieval_failure", "context_comparison", "medium" if group.strong else "low",
            f"phrasing {example} was answered correctly from documents "
            + (f"({', '.join(sorted(group.answered_from)[:3])}) " if group.answered_from else "")
            + "this one did not retrieve" + overridden, sorted(group.answered_from))


def _verdict_without_comparison(j: Any, tag: str | None, notes: set[str], gold: list[str]) -> _Verdict:
    """The verdict where neither judged retrieval nor a correct phrasing tells it: the knowledge
    base's content, then what could not be judged."""
    # 3. the knowledge base lacks the facts, by the linker's search or ragdx's own fact index
    if j.kb_supported is False:
        doubt = _kb_doubt(j)
        if doubt is None:
            return ("kb_gap", "knowledge_base", "high",
                    "no document of the knowledge base states the facts" + (
                        " (ragdx's fact index)" if getattr(j, "kb_basis", "") == "fact_index" else ""), [])
        return ("kb_or_retrieval", "knowledge_base_uncertain", "low",
                f"the evidence linker found no document stating the facts, but it may have missed them: {doubt}; "
                "no phrasing of the group was answered from retrieved documents to show it either way",
                list(getattr(j, "value_seen_in", None) or [])[:5])

    # 4. retrieval could not be judged
    if notes & {RETRIEVAL_IDS_UNMATCHED, RETRIEVAL_NO_CONTEXT}:
        unmatched = RETRIEVAL_NO_CONTEXT not in notes
        why = ("the retrieved ids match no document of the knowledge base" if unmatched
               else "no retrieved context was captured for any query")
        basis = f"retrieval_unjudged_{'ids' if unmatched else 'context'}"
        if j.kb_supported:
            return ("retrieval_or_lm", basis, "medium",
                    f"the knowledge base states the facts; {why}, so retrieval is not judged", gold)
        return "undetermined", basis, "low", f"the knowledge base's content is unknown and {why}", []

    # 5. no evidence known: the knowledge base states the facts, or nothing is known
    if j.kb_supported:
        return ("retrieval_or_lm", "no_gold_documents", "medium",
                "the knowledge base states the facts but no document is known to state them, and no phrasing "
                "was answered correctly to compare with", [])
    if tag == GAP:
        return ("kb_or_retrieval", "answer_based_gap_group", "low",
                "no phrasing of the group was answered (GRAMMAR's gap tag), and the knowledge base's content is "
                "unknown: link your corpus to tell a gap from a retrieval failure", [])
    return ("undetermined", "no_evidence", "low",
            "no evidence, no gold documents and no correct phrasing with captured documents", [])


def blame(judgements: Sequence[Judgement], *, within_style: bool = False,
          probes: Mapping[str, Mapping[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Per-query verdict (see :class:`ModuleVerdict`), with the evidence it rests on: ``basis`` (a
    short name), ``confidence`` (``high`` / ``medium`` / ``low``), ``why`` (a sentence),
    ``documents`` (the documents the verdict points at) and, for a wrong answer, ``spans`` (the
    record's evidence spans of those documents, when linked), and ``unsure`` (an unsure verdict).

    1. a correct answer is ``correct``;
    2. the facts are stated (or unknown) and retrieval was judged against gold documents: not
       retrieved -> ``retrieval_failure``, retrieved -> ``lm_failure`` (``evidence``); weak linked
       evidence, or another corpus searched than the one linked, makes a miss ``kb_or_retrieval``;
    3. another phrasing of the group (same facts, same answer) was answered correctly from captured
       documents: the corpus states the facts whatever the linker found, so the answer is never a
       knowledge-base gap — the same documents, or one it was answered from, retrieved ->
       ``lm_failure``; none of them -> ``retrieval_failure`` (``context_comparison``, the paper's
       rule, extended to the documents the correct answers had in common);
    4. the knowledge base lacks the facts -> ``kb_gap``; where the linker's "not found" is doubtful
       (the entity's documents write the answer's value, a match below the linker's threshold,
       another corpus searched) -> ``kb_or_retrieval``; some hops of a join found and not others is
       no doubt: the join is what a corpus most often leaves out;
    5. retrieved ids that match no document, or no context captured at all: retrieval is never
       blamed -> ``retrieval_or_lm`` (facts stated) or ``undetermined``;
    6. otherwise: an answer-based gap group -> ``kb_or_retrieval``; ``retrieval_or_lm`` (facts stated,
       no gold documents) or ``undetermined``.

    ``probes`` (doc id -> ``{"found": ..., "query": ..., "rank": ...}``, default: the run's, on
    ``judgements.check.probes``) settle a miss of documents no query retrieved (step 2): see
    :func:`_never_retrieved_verdict`."""
    live = [j for j in judgements if not getattr(j, "error", None)]
    tags = group_tags(live, by_style=within_style)
    groups = _group_evidence(live, within_style)
    # a dataset with records to refuse: a wrong answer that declined says so (over-refusal)
    refusals = any(getattr(j, "refusal_kind", "") for j in live)
    unseen = never_retrieved(live)
    if probes is None:  # the run's own probes, read by evaluate (ragdx.evaluate.runs.judge_run)
        probes = getattr(getattr(judgements, "check", None), "probes", None) or {}
    out = []
    for j in judgements:
        row: dict[str, Any] = {"id": j.id, "group_id": j.group_id, "style": j.style}
        if getattr(j, "error", None):
            row.update(verdict="unjudged", basis="judge_failed", confidence="none",
                       why=f"the judge failed: {j.error}", documents=[])
        elif j.correct:
            row.update(verdict="correct", basis="judge", confidence="high", why=j.reason or "judged correct",
                       documents=[])
        elif getattr(j, "refusal_kind", ""):  # a record to refuse, answered or not corrected (issue 26)
            from ragdx.evaluate.abstention import refusal_verdict

            verdict, basis, confidence, why, docs = refusal_verdict(j)
            row.update(verdict=verdict, basis=basis, confidence=confidence, why=why, documents=docs,
                       abstention="over_answered" if basis == "over_answer" else "unanswered_correction")
        else:
            verdict, basis, confidence, why, docs = _verdict(j, tags, groups, within_style, unseen, probes)
            row.update(verdict=verdict, basis=basis, confidence=confidence, why=why, documents=docs)
            spans = _spans(j, docs or None)
            if spans:
                row["spans"] = spans
            if refusals:
                _note_over_refusal(j, row)
        row["unsure"] = row["verdict"] in verdict_registry.unsure_verdicts()
        out.append(row)
    return out


def _note_over_refusal(j: Any, row: dict[str, Any]) -> None:
    """A question to answer whose reply declined: its verdict stands (the evidence rules decide who
    failed), its ``why`` says it declined and ``abstention`` marks it ``over_refused``."""
    from ragdx.evaluate.abstention import over_refusal_note

    note = over_refusal_note(j)
    if note:
        row["abstention"] = "declined_kb_gap" if j.kb_supported is False else "over_refused"
        row["why"] = f"{note}; {row['why']}"


def blame_counts(verdicts: Sequence[dict[str, Any]], present: Iterable[str] = ()) -> dict[str, Any]:
    """Each verdict of the registry counted (``ragdx.evaluate.verdicts.shown``: every ``always``
    verdict, and each other one some query got, or in ``present``: the verdicts of the whole
    evaluation, so that every style's counts have the same keys), how many are unsure, rest on
    low-confidence evidence, and on which basis."""
    counts = Counter(v["verdict"] for v in verdicts)
    by = Counter(f"{v['verdict']}:{v['basis']}" for v in verdicts)
    conf = Counter(v.get("confidence", "high") for v in verdicts if v["verdict"] not in ("correct", "unjudged"))
    shown = verdict_registry.shown([*counts, *present])
    return {"total": len(verdicts), **{k: counts.get(k, 0) for k in shown}, "unjudged": counts.get("unjudged", 0),
            "unsure": sum(counts.get(k, 0) for k in verdict_registry.unsure_verdicts()),
            "low_confidence": conf.get("low", 0), "by_basis": dict(sorted(by.items()))}



# ----------------------------------------------------------------------------- the paper's Table 3


TABLE3_ROWS = (
    ("baseline", "Baseline (no action / no action)"),
    ("context_comparison", "Baseline + context comparison"),
    ("remove_gap", "Remove gap groups"),
    ("remove_gap_context_comparison", "Remove gap groups + context comparison"),
    ("balance", "Balance gap examples"),
    ("balance_context_comparison", "Balance gap examples + context comparison"),
)


def table3(unbalanced: Sequence[Judgement], balanced: Sequence[Judgement] | None = None) -> dict[str, float]:
    """The six cells of one column of GRAMMAR's Table 3 (one style): accuracy and the retrieval
    module judged on its own, on the unbalanced set, without its gap groups, and on the
    balanced set. Gap groups are found within each set."""
    unb = point_metrics(group_stats(unbalanced))
    out = {"baseline": unb["accuracy"], "context_comparison": unb["retrieval_accuracy"],
           "remove_gap": unb["refined_accuracy"], "remove_gap_context_comparison": unb["retrieval_refined"]}
    if balanced is not None:
        bal = point_metrics(group_stats(balanced))
        out["balance"] = bal["accuracy"]
        out["balance_context_comparison"] = bal["retrieval_accuracy"]
    return out
