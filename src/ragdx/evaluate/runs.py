"""Judge what a system answered: a ragdx run directory, a plain JSONL of other tools' results,
or the GRAMMAR reference's stored results, into :class:`Judgement` records."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragdx.errors import RagdxError
from ragdx.evaluate.config import EvaluationConfig
from ragdx.evaluate.judges import PURE_JUDGES, Judge, Verdict, VerdictCache
from ragdx.evaluate.protocol import CORPUS_CHANGED, RETRIEVAL_IDS_UNMATCHED, RETRIEVAL_NO_CONTEXT
from ragdx.evaluate.records import JudgeItem, Judgement
from ragdx.evaluate.reference import read_plain_jsonl, retrieval_verdict
from ragdx.forked import can_fork

if TYPE_CHECKING:  # pragma: no cover
    from ragdx.rag.run_dataset import RecordedDataset

_REFUSAL = re.compile(r"\b(no (such|answer|information|record|data)|not (found|available|known|stated|mentioned)|"
                      r"unknown|cannot|can't|unable|none|n/a|does not (exist|say|state|mention))\b", re.I)


def is_refusal(response: str | None) -> bool:
    return response is None or not response.strip() or bool(_REFUSAL.search(response))


def _by_reason(reasons: Iterable[str | None]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for r in reasons:
        if r:
            counts[r] = counts.get(r, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def reasons_text(counts: Mapping[str, int]) -> str:
    """``{"unparseable": 3, "too long": 1}`` as "3 unparseable, 1 too long"."""
    return ", ".join(f"{n} {why}" for why, n in counts.items())


def count_judge_failures(check: InputCheck, verdicts: Sequence[Any]) -> None:
    """``judge_failed_by`` and ``judge_fallbacks`` of ``check`` from the verdicts of one source, with
    a warning for the cascade's fall-backs (the one for failures is the caller's)."""
    check.judge_failed_by = _by_reason((getattr(v, "failure", None) or "call failed") if getattr(v, "error", None)
                                       else None for v in verdicts)
    check.judge_fallbacks = _by_reason(getattr(v, "fallback", None) for v in verdicts)
    n = sum(check.judge_fallbacks.values())
    if n:
        check.warnings.append(
            f"{n} judgements fell back from the LLM to the offline rule because the LLM gave no verdict "
            f"({reasons_text(check.judge_fallbacks)}); they are not cached: evaluate again to ask the LLM again")


def verdict_cache(cache: VerdictCache | str | Path | None) -> VerdictCache | None:
    """The verdict cache a configuration names (a path opened as one), or None."""
    return cache if cache is None or isinstance(cache, VerdictCache) else VerdictCache(cache)


def judge_items(items: Sequence[JudgeItem], judge: Judge, cache: VerdictCache | str | Path | None = None
                ) -> list[Verdict]:
    cache = verdict_cache(cache)
    # unanswerable queries: a refusal is the right answer; nothing to ask a judge. A record to refuse
    # (issue 26) is judged by the kind of its reply (ragdx.evaluate.abstention), not by any judge
    todo = [i for i, it in enumerate(items) if it.answer_kind != "none" and not it.refusal_kind]
    verdicts = judge.judge_many([items[i] for i in todo], cache=cache) if todo else []
    out: list[Verdict | None] = [None] * len(items)
    for i, v in zip(todo, verdicts, strict=True):
        out[i] = v
    return [v if v is not None else _refusal_verdict(it) for v, it in zip(out, items, strict=True)]


def _refusal_verdict(it: JudgeItem) -> Verdict:
    """The verdict on a query no judge is asked about: a record to refuse, by its reply's kind; an
    unanswerable query, by whether it was refused."""
    if it.refusal_kind:
        from ragdx.evaluate.abstention import judge_refusal

        got = judge_refusal(it.refusal_kind, it.query, it.response, it.answer_rows)
        return Verdict(got.correct, "abstention", got.reason)
    ok = is_refusal(it.response)
    return Verdict(ok, "refusal", "unanswerable: " + ("refused" if ok else "answered anyway"))


@dataclass
class InputCheck:
    """What ``evaluate``, ``compare`` and ``report`` say about their input before any number:
    how many of the run's queries were answered and judged ("n of N"), whether the dataset still
    matches the run, and whether the retrieved ids can be matched to the knowledge base's
    documents at all (a system returning chunk or node ids has unreliable retrieval metrics)."""

    source: str = ""
    #: queries the run was asked (its inputs), and those with a result
    total: int = 0
    answered: int = 0
    #: queries judged (answered and in the dataset), and those whose judge failed
    judged: int = 0
    judge_failed: int = 0
    #: the failed judgements by why (``call failed``; a reply that is no verdict: ``empty``,
    #: ``too long``, ``refusal``, ``unparseable``)
    judge_failed_by: dict[str, int] = field(default_factory=dict)
    #: judgements the cascade's offline rule decided because its LLM gave no verdict, by why
    judge_fallbacks: dict[str, int] = field(default_factory=dict)
    system_failed: int = 0
    #: the run manifest's status (complete, partial, interrupted, ...)
    status: str = ""
    #: the dataset judged against: its records' sha256, and its path relative to the run directory
    #: (what stays true when the run and its dataset are moved together; see ragdx.rag.run_dataset)
    dataset_sha256: str | None = None
    dataset_path: str | None = None
    dataset_changed: bool = False
    #: share of retrieved ids that are document ids of the knowledge base (None: nothing to match)
    id_match_share: float | None = None
    #: retrieved chunk ids mapped back to their document
    chunk_ids_mapped: int = 0
    retrieval_reliable: bool = True
    retrieval_rule: str = "evidence"
    #: some query of the run captured retrieved documents (False: none did; retrieval not judged)
    context_captured: bool = True
    #: queries whose retrieval was left unjudged because ids in it match no document
    unmatched_queries: int = 0
    #: the corpus the dataset's evidence was linked in (or rendered as), and the one the system searched
    corpus_fingerprint: str | None = None
    run_corpus_fingerprint: str | None = None
    #: the two fingerprints are known and differ
    corpus_changed: bool = False
    #: the run's probes (``ragdx.rag.probe``): per evidence document no query retrieved, whether the
    #: system brought it back to a query made of its own words (``found``, ``query``, ``rank``);
    #: blame reads them to tell a document missing from the index from one the retriever misses
    probes: dict[str, dict[str, Any]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    #: per follow-up of a conversation, whether its standalone question asked alone retrieved the
    #: evidence (``ragdx.evaluate.conversations``); written only when the run has some
    standalone_probes: dict[str, bool | None] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return self.total > 0 and self.judged == self.total and not self.dataset_changed

    def coverage(self) -> str:
        return f"{self.judged} of {self.total} queries judged"

    def to_dict(self) -> dict[str, Any]:
        out = {**asdict(self), "complete": self.complete}
        if not self.standalone_probes:  # every run without conversations keeps its metrics.json as it was
            del out["standalone_probes"]
        return out

    @classmethod
    def from_dict(cls, obj: dict[str, Any]) -> InputCheck:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in obj.items() if k in names})


class Judged(list[Judgement]):
    """The judgements of one source (a list) with its :class:`InputCheck` attached as ``check``."""

    check: InputCheck

    def __init__(self, items: Iterable[Judgement] = (), check: InputCheck | None = None):
        super().__init__(items)
        self.check = check or InputCheck(total=len(self), answered=len(self), judged=len(self))


#: documents naming the answer's entities kept on a judgement (evidence for an unsure verdict)
MAX_ENTITY_IDS = 10
_CHUNK_SEPARATORS = ("#", "::", "|", "@", "_chunk_", "-chunk-", "_chunk", ":chunk", "/")
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.I)


def _corpus_info(dataset_dir: Path | None, records: Sequence[Any], moved_from: RecordedDataset | None = None
                 ) -> tuple[set[str] | None, bool, str | None, Any | None, str | None]:
    """Document ids of the knowledge base the dataset was made against — the corpus the dataset's
    manifest names when it can be read (exact), else every document a record names (a lower
    bound) — that corpus's fingerprint (the manifest's ``corpus_fingerprint``, else the loaded
    corpus's own) and the corpus itself (None when it could not be read). ``moved_from``: where
    the run recorded its dataset, so that a knowledge base its manifest names is found beside
    the moved dataset first, as it was beside the original (see ``beside_dataset``). Last,
    the corpus the manifest names that is not there (None when it names none or it was read)."""
    fingerprint = None
    missing = None
    if dataset_dir is not None:
        from ragdx.gen.dataset import read_manifest

        try:
            manifest = read_manifest(dataset_dir)
        except RagdxError:
            manifest = {}
        fingerprint = manifest.get("corpus_fingerprint") or None
        for key in ("corpus", "knowledge_base"):
            where = manifest.get(key)
            if isinstance(where, dict):
                where = where.get("path")
            if not where:
                continue
            missing = missing or str(where)
            from ragdx.rag.run_dataset import beside_dataset

            for candidate in beside_dataset(str(where), dataset_dir, moved_from):
                if candidate.exists():
                    try:
                        from ragdx.rag.corpus import load_corpus

                        corpus = load_corpus(candidate)
                        return set(corpus.ids), True, fingerprint or corpus.fingerprint, corpus, None
                    except RagdxError:  # something else by that name: look further up
                        continue
    named = {d for r in records for d in (list(getattr(r, "gold_document_ids", []) or [])
                                           + list(getattr(r, "entity_document_ids", []) or []))}
    return (named or None), False, fingerprint, None, missing


def dataset_knowledge_base(dataset_dir: Path, run_dir: Path | None = None) -> Any | None:
    """The corpus the dataset's evidence was linked in, found as ``evaluate`` finds it (beside a
    moved dataset first, see :func:`_corpus_info`); None when its manifest names none or it is
    not there. What ``ragdx probe`` makes its queries from."""
    from ragdx.rag.run_dataset import original_location

    return _corpus_info(dataset_dir, [], original_location(run_dir) if run_dir is not None else None)[3]


def _corpus_ids(dataset_dir: Path | None, records: Sequence[Any]) -> tuple[set[str] | None, bool]:
    ids, exact, _, _, _ = _corpus_info(dataset_dir, records)
    return ids, exact


def _run_fingerprint(config: Any) -> str | None:
    """The ``corpus_fingerprint`` a system's ``describe()`` recorded (a built-in pipeline's), if any."""
    values: Iterable[Any]
    if isinstance(config, dict):
        found = config.get("corpus_fingerprint")
        if isinstance(found, str) and found:
            return found
        values = config.values()
    elif isinstance(config, list):
        values = config
    else:
        return None
    for v in values:
        found = _run_fingerprint(v)
        if found:
            return found
    return None


def _path_id(rid: str, known: set[str]) -> str | None:
    """A path or file name (LangChain's ``source``, LlamaIndex's and Haystack's ``file_path`` /
    ``file_name``) as the id ragdx gives that document: a folder corpus names a document by its
    path relative to the folder, without its suffix, so the longest known tail of the path is
    taken, with its extension first kept, then dropped."""
    path = rid.replace("\\", "/")
    if path.startswith("file://"):
        path = path[7:]
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if not parts:
        return None
    stem = parts[-1].rsplit(".", 1)[0] if "." in parts[-1].lstrip(".") else None
    for last in (parts[-1], stem):
        if not last:
            continue
        tail = [*parts[:-1], last]
        for n in range(len(tail)):
            candidate = "/".join(tail[n:])
            if candidate in known:
                return candidate
    return None


def _document_of(rid: str, known: set[str]) -> str | None:
    """The known document an unknown retrieved id names: a chunk of it, its path, or a chunk of its file."""
    for sep in _CHUNK_SEPARATORS:
        head = rid.rsplit(sep, 1)[0] if sep in rid else None
        if head and head in known:
            return head
    doc = _path_id(rid, known)
    if doc is None:  # a chunk of a file: "reports/q1.md#3"
        for sep in _CHUNK_SEPARATORS[:-1]:
            head = rid.rsplit(sep, 1)[0] if sep in rid else None
            doc = _path_id(head, known) if head else None
            if doc is not None:
                break
    return doc


def map_retrieved_ids(retrieved: Sequence[str], known: set[str],
                      cache: dict[str, str | None] | None = None) -> tuple[list[str], int, int]:
    """Retrieved ids as document ids: an unknown id that is a known document id followed by a
    chunk separator (``doc#3``, ``doc::chunk-2``), or a file path or name whose tail is one
    (``/data/reports/q1.md`` -> ``q1`` or ``reports/q1``), maps to that document (once, in rank
    order). Returns the ids, how many were mapped and how many stayed unknown. ``cache``
    remembers the mapping of unknown ids across calls."""
    out: list[str] = []
    mapped = unknown = 0
    for rid in retrieved:
        doc = rid
        if rid not in known:
            if cache is not None and rid in cache:
                found = cache[rid]
            else:
                found = _document_of(rid, known)
                if cache is not None:
                    cache[rid] = found
            if found is None:
                unknown += 1
            else:
                mapped += 1
                doc = found
        if doc not in out:
            out.append(doc)
    return out, mapped, unknown


def _specific(value: Any) -> bool:
    """A value specific enough that finding it written in a document about the entity is a sign
    the document states it (not a yes/no, a one-digit number or a two-letter word)."""
    if value is None or isinstance(value, bool):
        return False
    text = str(value).strip()
    if any(c.isdigit() for c in text) and not any(c.isalpha() for c in text):
        # a number: two significant digits at least (not 0.0, 5, 10 or 0.05)
        return len(text.replace("-", "").replace(".", "").replace(",", "").strip("0")) >= 2
    return len(text) >= 3


def _value_seen_in(record: Any, texts: Mapping[str, str], cache: dict[str, str],
                   docs: Sequence[str] | None = None) -> list[str]:
    """The documents about a record's entities (``entity_document_ids``; or ``docs``) that,
    together, write every value of its answer, each in one of the ways the linker reads it; []
    when none does, or when a value is too unspecific to tell."""
    values = [v for row in (getattr(record, "answer_rows", None) or []) for v in row if v is not None]
    if docs is None:
        # only a fact about one entity: through a join ("the city of the customer of order 10517"),
        # the value is written on the joined entity's page while the join itself may be what is
        # missing; an association row (a composite key) is stated beside many others like it
        keys = {f.rsplit("@", 1)[1] for f in (getattr(record, "facts", None) or []) if "@" in f}
        if len(keys) != 1 or "|" in next(iter(keys)):
            return []
        docs = (getattr(record, "entity_document_ids", None) or [])[:MAX_ENTITY_IDS]
    docs = [d for d in docs if d in texts]
    if not values or not docs or not all(_specific(v) for v in values):
        return []
    try:
        from ragdx.kb.normalise import normalised_passage, value_variants
    except ImportError:  # pragma: no cover - the normaliser is part of ragdx
        return []

    def normalised(doc: str) -> str:
        hit = cache.get(doc)
        if hit is None:
            hit = cache[doc] = normalised_passage(texts[doc])
        return hit

    seen: list[str] = []
    for value in values:
        try:
            variants = value_variants(value)
        except Exception:  # an odd value the normaliser refuses: no sign either way
            return []
        where = [d for d in docs if any(all(p in normalised(d) for p in all_of) for all_of, _ in variants)]
        if not where:
            return []
        seen.extend(d for d in where if d not in seen)
    return seen


def _answer_docs(record: Any, texts: Mapping[str, str], cache: dict[str, str], retrieved: Sequence[str]) -> list[str]:
    """Of the retrieved documents, those that write the answer's values; of these, those about the
    record's entities when there are some (a value such as a city is written about many others)."""
    found = _value_seen_in(record, texts, cache, retrieved)
    about = set(getattr(record, "entity_document_ids", None) or [])
    return [d for d in found if d in about] or found


def _short(fp: str | None) -> str:
    return fp[:12] if fp else "unknown"


def judge_outputs(records: Sequence[Any], outputs: Sequence[Any], config: EvaluationConfig | None = None, *,
                  known_ids: set[str] | None = None, known_exact: bool = True,
                  check: InputCheck | None = None, corpus_texts: Mapping[str, str] | None = None,
                  **options: Any) -> Judged:
    """Judge system outputs (``SystemOutput``-like: id, answer, retrieved_ids, error) against
    dataset records, in memory, as ``config`` says (or ``options``: its keywords, see
    :meth:`EvaluationConfig.build`): its judge, and ``retrieval``, the one rule retrieval is
    judged by over the top ``k``. Where the knowledge base lacks the facts (``kb_supported`` False)
    there is nothing right to retrieve, so retrieval is not judged (None): that is the knowledge
    base's failure. A failed query (``error``) is judged as no response: Incorrect. With
    ``known_ids`` (the knowledge base's document ids), chunk ids map to their documents and the
    share of unmatched ids is checked (``known_exact`` False: ``known_ids`` is only the documents
    the records name, so only ids that match almost nothing are flagged).

    Retrieval is left unjudged (None, with the reason in ``retrieval_note``), never judged wrong,
    where it cannot be judged: ids that do not match the knowledge base's documents (the whole run,
    or one query whose unmatched ids may hold the evidence), or no retrieved context captured for
    any query. ``check.corpus_changed`` (set by :func:`judge_run` from the corpus fingerprints)
    marks every judgement, so that its knowledge-base and retrieval verdicts are given as unsure.
    With ``corpus_texts`` (id -> text of the linked corpus), a record the linker found unsupported
    notes the documents about its entity that write its answer's values anyway
    (``value_seen_in``: a fact the linker may have missed in a table, card or heading)."""
    config = EvaluationConfig.build(config, **options)
    check = check or InputCheck(total=len(outputs), answered=len(outputs))
    check.retrieval_rule = config.retrieval.value
    by_id = {r.id: r for r in records}
    pairs = [(by_id[o.id], o) for o in outputs if o.id in by_id]
    if not pairs:
        raise RagdxError("no answered record is in the dataset", source=check.source or None)
    retrieved_lists, unknown_per = _map_retrieved(pairs, known_ids, check)
    _check_retrieved(check, retrieved_lists, unknown_per, len(pairs), known_ids, known_exact)
    items = [JudgeItem(r.query, r.answer_rows, None if o.error else o.answer, r.answer_kind,
                           getattr(r, "refusal_kind", "") or "") for r, o in pairs]
    verdicts = judge_items(items, config.judge.build(), config.cache)
    out = Judged(check=check)
    passages: dict[str, str] = {}
    for (r, o), ids, unknown, it, v in zip(pairs, retrieved_lists, unknown_per, items, verdicts, strict=True):
        out.append(_judgement(r, o, ids, unknown, it.response, v, config, check,
                              known_exact=known_exact, corpus_texts=corpus_texts, passages=passages))
    _close_check(check, out, pairs, verdicts)
    return out


def _map_retrieved(pairs: Sequence[tuple[Any, Any]], known_ids: set[str] | None,
                   check: InputCheck) -> tuple[list[list[str]], list[int]]:
    """Per answered query, its retrieved ids (chunk ids mapped to their documents where
    ``known_ids`` are given) and how many of them match no known document."""
    retrieved_lists, unknown_per = [], []
    id_cache: dict[str, str | None] = {}
    for _, o in pairs:
        ids = list(o.retrieved_ids)
        unknown = 0
        if known_ids:
            ids, mapped, unknown = map_retrieved_ids(ids, known_ids, id_cache)
            check.chunk_ids_mapped += mapped
        retrieved_lists.append(ids)
        unknown_per.append(unknown)
    return retrieved_lists, unknown_per


def _check_retrieved(check: InputCheck, retrieved_lists: Sequence[Sequence[str]], unknown_per: Sequence[int],
                     n_pairs: int, known_ids: set[str] | None, known_exact: bool) -> None:
    """Whether retrieval can be judged at all (context captured, ids that match the knowledge
    base), set on ``check`` with a warning for each reason it cannot or may be unsure."""
    n_ids = sum(len(ids) for ids in retrieved_lists)
    n_unknown = sum(unknown_per)
    fingerprints = (f" (the dataset's corpus {_short(check.corpus_fingerprint)}, the system's "
                    f"{_short(check.run_corpus_fingerprint)})"
                    if check.corpus_fingerprint or check.run_corpus_fingerprint else "")
    # no query captured any retrieved document: the system returned none (a --callable that returns
    # only its answer, an --http endpoint without --contexts-path): nothing to judge retrieval by
    check.context_captured = n_ids > 0
    if not check.context_captured:
        check.warnings.append(
            f"no retrieved documents were captured for any of the {n_pairs} queries (return the contexts, "
            "use --otel for an instrumented app, or --contexts-path for an --http system); retrieval is not "
            "judged and never blamed")
    if known_ids and n_ids:
        check.id_match_share = 1 - n_unknown / n_ids
        uuids = sum(1 for ids in retrieved_lists for i in ids if _UUID.match(i) and i not in known_ids)
        if check.id_match_share < (0.9 if known_exact else 0.2):
            check.retrieval_reliable = False
            hint = (" — they look like chunk/node ids (UUIDs): return the document id (LlamaIndex: "
                    "node.ref_doc_id, not node.node_id)" if uuids > n_unknown / 2 else "")
            check.warnings.append(
                f"{n_unknown} of {n_ids} retrieved ids ({n_unknown / n_ids:.0%}) match no document of the "
                f"knowledge base{hint}{fingerprints}; retrieval is not judged and never blamed")
        if check.chunk_ids_mapped:
            check.warnings.append(f"{check.chunk_ids_mapped} retrieved chunk ids or file paths were mapped to their "
                                  "documents")
    if check.corpus_changed:
        share = "" if check.id_match_share is None else (
            f"; {1 - check.id_match_share:.0%} of the retrieved ids are unknown to the linked corpus")
        check.warnings.append(
            f"the system searched a different corpus (fingerprint {_short(check.run_corpus_fingerprint)}) than the "
            f"one the dataset's evidence was linked in ({_short(check.corpus_fingerprint)}){share}: knowledge-base "
            "gaps and retrieval failures may be the other corpus's, and are marked unsure (link the dataset "
            "against the corpus the system searches: `ragdx kb link`)")


def _judgement(r: Any, o: Any, ids: list[str], unknown: int, response: str | None, v: Any, config: EvaluationConfig,
               check: InputCheck, *, known_exact: bool, corpus_texts: Mapping[str, str] | None,
               passages: dict[str, str]) -> Judgement:
    """One record's judgement from its answer's verdict ``v`` and its retrieved ``ids``."""
    evidence = [list(e) for e in (getattr(r, "evidence_sets", None) or [])]
    notes = []
    if not check.context_captured:
        notes.append(RETRIEVAL_NO_CONTEXT)
    elif not check.retrieval_reliable:
        notes.append(RETRIEVAL_IDS_UNMATCHED)
    if check.corpus_changed:
        notes.append(CORPUS_CHANGED)
    judged_retrieval = None
    if r.kb_supported is not False and check.retrieval_reliable and check.context_captured:
        judged_retrieval = retrieval_verdict(r.gold_document_ids, ids, config.k, config.retrieval.value, evidence)
        if judged_retrieval is False and unknown and known_exact:
            # the evidence may be among the ids that match nothing: not judged, never blamed
            judged_retrieval = None
            notes.insert(0, RETRIEVAL_IDS_UNMATCHED)
            check.unmatched_queries += 1
    return Judgement(
        id=r.id, group_id=r.group_id, style=r.style, correct=bool(v.correct), judge=v.judge,
        reason=(f"system error: {o.error}" if o.error else v.reason),
        retrieval_correct=judged_retrieval,
        retrieved_ids=ids, gold_ids=list(r.gold_document_ids), kb_supported=r.kb_supported,
        query=r.query, answer=r.answer_text, response=response, evidence_sets=evidence,
        error=getattr(v, "error", None), kb_basis=getattr(r, "kb_basis", "") or "",
        evidence_confidence=getattr(r, "evidence_confidence", None),
        evidence_spans=[dict(e) for e in (getattr(r, "evidence_spans", None) or [])],
        entity_ids=list(getattr(r, "entity_document_ids", None) or [])[:MAX_ENTITY_IDS],
        value_seen_in=(_value_seen_in(r, corpus_texts, passages) if corpus_texts and r.kb_supported is False
                       else []),
        # where the linker knows no evidence, the documents a correct answer could have read its
        # values in (what blame takes as the documents it was answered from)
        answer_docs=(_answer_docs(r, corpus_texts, passages, ids)
                     if corpus_texts and v.correct and ids and (r.kb_supported is not True or not evidence)
                     else []),
        retrieval_note="+".join(notes), refusal_kind=getattr(r, "refusal_kind", "") or "",
        reply_kind=_reply_kind(r, response), turn=getattr(r, "turn", 0) or 0,
        question_kind=getattr(r, "question_kind", "lookup") or "lookup",
        standalone_retrieved=check.standalone_probes.get(r.id) if check.standalone_probes else None)


def _reply_kind(r: Any, response: str | None) -> str:
    """What the reply to a record to refuse was (``abstention.classify_reply``); "" for the others."""
    kind = getattr(r, "refusal_kind", "") or ""
    if not kind:
        return ""
    from ragdx.evaluate.abstention import reply_class

    return reply_class(kind, r.query, response, r.answer_rows).kind


def _close_check(check: InputCheck, out: Judged, pairs: Sequence[tuple[Any, Any]], verdicts: Sequence[Any]) -> None:
    """The warnings that need every judgement (unmatched queries, evidence never retrieved) and
    the counts of judged, judge-failed and system-failed queries."""
    if check.unmatched_queries:
        check.warnings.append(f"{check.unmatched_queries} queries retrieved ids that match no document and not the "
                              "evidence: their retrieval is not judged (the evidence may be among those ids)")
    from ragdx.evaluate.protocol import never_retrieved

    unseen = never_retrieved(out)
    if unseen:
        check.warnings.append(_never_retrieved_warning(unseen, check.probes))
    check.judged = sum(1 for j in out if not j.error)
    check.judge_failed = sum(1 for j in out if j.error)
    count_judge_failures(check, verdicts)
    check.system_failed = sum(1 for _, o in pairs if o.error)


def _never_retrieved_warning(unseen: set[str], probes: dict[str, Any]) -> str:
    """What to say of evidence documents no query retrieved: briefly where the run's probes
    settled every one (each verdict then carries its probe in ``why``), else what is unknown."""
    probed = {d: probes[d].get("found") for d in unseen if d in probes}
    found, absent = sum(1 for v in probed.values() if v), sum(1 for v in probed.values() if v is False)
    unknown = len(unseen) - found - absent
    listed = f"{', '.join(sorted(unseen)[:3])}{', …' if len(unseen) > 3 else ''}"
    if probed and not unknown:
        return (f"{len(unseen)} evidence documents no query retrieved ({listed}) were probed in their own words: "
                f"{found} came back (retrieval failures), {absent} did not (knowledge-base gaps)")
    head = f"{len(unseen)} documents that state facts the questions need were never retrieved by any query ({listed}): "
    if probed:
        return (head + f"probed in their own words, {found} came back (answers needing them: retrieval failures) and "
                f"{absent} did not (likely missing from the system's index: knowledge-base gaps); {unknown} unknown, "
                "blamed 'knowledge base or retriever'")
    return (head + "check that the system's index holds them (`ragdx probe` asks for them); answers needing only "
            "them are blamed 'knowledge base or retriever' (kb_or_retrieval)")


def _read_probes(check: InputCheck, run_dir: Path, known: set[str] | None) -> None:
    """The run's probes (``ragdx.rag.probe``) on ``check``, their returned ids mapped to documents
    as the run's own retrieved ids are; failed probes counted in its warnings."""
    from ragdx.rag.probe import probe_summary

    check.probes, notes = probe_summary(run_dir, (lambda ids: map_retrieved_ids(ids, known)[0]) if known else None)
    check.warnings.extend(notes)


def _standalone_probes(run_dir: Path) -> dict[str, bool | None]:
    """Each follow-up's standalone question asked alone (``ragdx.evaluate.conversations``), for
    blaming history handling; empty for a run that asked none."""
    from ragdx.evaluate.conversations import read_standalone_probes

    return read_standalone_probes(run_dir)


def judge_run(run_dir: str | Path, config: EvaluationConfig | None = None, *,
              dataset: str | Path | Iterable[Any] | None = None, sink: Any = None, **options: Any) -> Judged:
    """Judge every answered record of a run directory against its dataset, as ``config`` (or
    ``options``) says (see :func:`judge_outputs`); the result's ``check`` says how many of the
    run's queries that is, and whether the dataset changed since the run (a query the run asked
    that the dataset no longer has, or now words differently, refuses the evaluation: its gold
    answer is not the one the system was asked for).

    ``sink`` (a callable taking a list of judgements): the dataset and the run are read in blocks,
    each block's judgements handed to ``sink`` (which writes them before it returns: they are then
    slimmed in place) and slim ones kept (:func:`judge_streaming`): memory follows the block."""
    config = EvaluationConfig.build(config, **options)
    # the judging workers are forked first, while this process is small: a worker forked after the run is
    # read shares its large heap, and its own allocations, landing in that heap's free slots, copy page
    # after page (measured at 1M queries: 2.75 GB of the main process, over 3 GB more in its children)
    with _early_pool(config, Path(run_dir)) if sink is not None else JudgePool(None, None, 0) as pool:
        return _judge_run(Path(run_dir), config, dataset, sink, pool)


def _early_pool(config: EvaluationConfig, run_dir: Path) -> JudgePool:
    """The :class:`JudgePool` for a run to be judged in blocks, its workers started now; how many by
    :func:`judge_workers` for the answers its manifest counts."""
    from ragdx.rag.rundir import Manifest

    try:
        counts = Manifest.read(run_dir).counts or {}
    except RagdxError:
        counts = {}
    answered = int(counts.get("ok", 0) or 0) + int(counts.get("failed", 0) or 0)
    return judge_pool(config, answered, start=True)


def judge_pool(config: EvaluationConfig, n: int, *, start: bool = False) -> JudgePool:
    """A :class:`JudgePool` with ``config``'s judge and verdict cache, as many workers as
    :func:`judge_workers` gives for ``n`` answers."""
    judge, cache = config.judge.build(), verdict_cache(config.cache)
    return JudgePool(judge, cache, judge_workers(config, judge, cache, n), start=start)


def _judge_run(run_dir: Path, config: EvaluationConfig, dataset: str | Path | Iterable[Any] | None, sink: Any,
               pool: JudgePool) -> Judged:
    """:func:`judge_run` with its configuration built and its judging workers (if any) started."""
    from ragdx.gen.dataset import iter_records, read_records
    from ragdx.rag.run_dataset import describe, original_location, resolve_dataset
    from ragdx.rag.rundir import Manifest, RunPaths, read_inputs, read_run

    dataset_dir = None
    used: dict[str, Any] = {}
    if dataset is None or isinstance(dataset, str | Path):
        # the manifest's paths, or the one given, checked against the run's recorded content hash
        dataset = resolve_dataset(run_dir, dataset)
        if dataset is None:
            raise RagdxError("the run's manifest names no dataset file (it was given records in memory): "
                             "pass --dataset PATH", source=str(RunPaths(run_dir).manifest), field="dataset.path")
        used = describe(dataset, run_dir)
    streaming = sink is not None and isinstance(dataset, str | Path)
    records: Sequence[Any] = []
    if isinstance(dataset, str | Path):
        dataset_dir = Path(dataset) if Path(dataset).is_dir() else Path(dataset).parent
        records = [] if streaming else read_records(dataset)
    else:
        records = list(dataset)
    inputs = read_inputs(run_dir)
    if not streaming:  # streaming, the same check is made as the dataset is read (_records_in_order)
        by_id = {r.id: r for r in records}
        gone = [i.id for i in inputs if i.id not in by_id or by_id[i.id].query != i.query]
        if gone:
            raise RagdxError(f"the dataset changed since the run: {len(gone)} of the run's {len(inputs)} queries "
                             f"are no longer in it or are worded differently (e.g. {gone[0]}); run again on this "
                             "dataset", source=str(run_dir))
    try:
        manifest: Manifest | None = Manifest.read(run_dir)
    except RagdxError:
        manifest = None
    outputs: Sequence[Any] = latest_answers(run_dir, inputs) if streaming else read_run(run_dir, inputs=inputs)
    known, exact, fingerprint, corpus, missing = _corpus_info(dataset_dir, records, original_location(run_dir))
    if streaming and corpus is None:  # the documents the records name: one more pass over the dataset
        known, exact, fingerprint, corpus, missing = _corpus_info(dataset_dir, iter_records(dataset),  # type: ignore[arg-type]
                                                                  original_location(run_dir))
    run_fingerprint = _run_fingerprint(manifest.system_config if manifest is not None else None)
    check = InputCheck(source=str(run_dir), total=len(inputs), answered=len(outputs),
                       status=str((manifest.status if manifest is not None else None) or ""),
                       corpus_fingerprint=fingerprint,
                       dataset_sha256=used.get("sha256"), dataset_path=used.get("relative_path"),
                       run_corpus_fingerprint=run_fingerprint,
                       corpus_changed=bool(fingerprint and run_fingerprint and fingerprint != run_fingerprint))
    if not outputs:
        raise RagdxError(f"no answered record in this run (0 of {len(inputs)} queries)", source=str(run_dir))
    _read_probes(check, run_dir, known)
    check.standalone_probes = _standalone_probes(run_dir)
    texts = None if corpus is None else {d.id: d.text for d in corpus.documents}
    if streaming:
        judged = judge_streaming(_records_in_order(dataset, inputs, outputs, run_dir), outputs, config, check,  # type: ignore[arg-type]
                                 sink, known_ids=known, known_exact=exact, corpus_texts=texts, pool=pool)
    else:
        judged = judge_outputs(records, outputs, config, known_ids=known, known_exact=exact, check=check,
                               corpus_texts=texts)
    _warn_after_judging(check, missing)
    return judged


def _warn_after_judging(check: InputCheck, missing: Any) -> None:
    """What :func:`judge_run` says about the run once its answers are judged."""
    if missing:
        # judged without it, retrieval is matched against fewer documents and no answer is looked up
        # in its text: the numbers may differ from an evaluation that found it
        check.warnings.append(f"the dataset's knowledge base {missing} is not there (moved without it?): retrieved "
                              "ids were matched against only the documents its records name; keep it where it "
                              "was relative to the dataset")
    if check.answered < check.total:
        check.warnings.insert(0, f"incomplete run: {check.answered} of {check.total} queries answered "
                                 f"(status {check.status or 'unknown'}); metrics cover those only")
    if check.judge_failed:
        check.warnings.append(f"{check.judge_failed} judgements failed ({reasons_text(check.judge_failed_by)}; "
                              "recorded with their error, excluded from the metrics; evaluate again to re-judge them)")


def judge_plain(path: str | Path, config: EvaluationConfig | None = None, *, trust_stored: bool = True,
                **options: Any) -> Judged:
    """Judge a plain JSONL of query / answer / response / retrieved ids (see ``reference``), as
    ``config`` (or ``options``) says. A stored ``correct`` is kept when ``trust_stored``."""
    config = EvaluationConfig.build(config, **options)
    retrieval, k = config.retrieval.value, config.k
    rows = read_plain_jsonl(path)
    need = [i for i, r in enumerate(rows) if not (trust_stored and r.correct is not None)]
    verdicts = judge_items([rows[i].item for i in need], config.judge.build(), config.cache)
    got = dict(zip(need, verdicts, strict=True))
    out = Judged(check=InputCheck(source=str(path), total=len(rows), answered=len(rows), retrieval_rule=retrieval))
    # gold ids but no retrieved ids anywhere: the tool captured no contexts; retrieval is not judged
    captured = any(r.retrieved_ids for r in rows)
    out.check.context_captured = captured or not any(r.gold_ids for r in rows)
    if not out.check.context_captured:
        out.check.warnings.append(f"no retrieved ids in any of the {len(rows)} results; retrieval is not judged "
                                  "and never blamed")
    for i, r in enumerate(rows):
        v = got.get(i)
        out.append(Judgement(
            id=r.id, group_id=r.group_id, style=r.style,
            correct=bool(r.correct) if v is None else bool(v.correct),
            judge="stored" if v is None else v.judge, reason="stored verdict" if v is None else v.reason,
            retrieval_correct=(None if r.kb_supported is False or not captured
                               else retrieval_verdict(r.gold_ids, r.retrieved_ids, k, retrieval)),
            retrieved_ids=r.retrieved_ids,
            gold_ids=r.gold_ids, kb_supported=r.kb_supported, query=r.item.query, answer=r.item.answer_text,
            response=r.item.response, error=None if v is None else getattr(v, "error", None),
            retrieval_note="" if out.check.context_captured else RETRIEVAL_NO_CONTEXT))
    out.check.judged = sum(1 for j in out if not j.error)
    out.check.judge_failed = len(out) - out.check.judged
    count_judge_failures(out.check, verdicts)
    return out


def rejudge(judgements: Sequence[Judgement], config: EvaluationConfig) -> list[Judgement]:
    """The same queries judged again by ``config``'s judge (for judge agreement)."""
    from dataclasses import replace

    # a record to refuse is judged by its reply's kind whichever judge is named, as when it was judged first
    items = [replace(JudgeItem.from_text(j.query, j.answer, j.response), refusal_kind=j.refusal_kind)
             for j in judgements]
    verdicts = judge_items(items, config.judge.build(), config.cache)
    return [replace(j, correct=bool(v.correct), judge=v.judge, reason=v.reason, error=getattr(v, "error", None))
            for j, v in zip(judgements, verdicts, strict=True)]


# ----------------------------------------------------------------------------- streaming

#: answered queries judged per block when ``judge_run`` streams: what is held at once is a block of
#: dataset records and full judgements, and a slim judgement per query (see :func:`slim_judgement`)
STREAM_BLOCK = 10_000


@dataclass(slots=True)
class AnswerSummary:
    """What judging reads of one system output: its answer, its error and its retrieved ids. The
    contexts' texts, most of an output's memory, stay on disk."""

    id: str
    answer: str | None
    error: str | None
    retrieved_ids: list[str]


def _result_objects(path: Path) -> Iterable[tuple[int, Any]]:
    """(line number, parsed object) of every complete line of a run's results, read 4 MB at a
    time; a final line without a newline is torn and left out (as ``rundir.scan_results`` does)."""
    import json

    from ragdx.store import parse_lines

    number = 0
    with path.open("rb") as fh:
        rest = b""
        while chunk := fh.read(1 << 22):
            data = rest + chunk
            end = data.rfind(b"\n") + 1
            rest = data[end:]
            lines = data[:end].split(b"\n")[:-1]
            objs = parse_lines(lines) if lines else []
            for k, line in enumerate(lines):
                number += 1
                if objs is not None:
                    yield number, objs[k]
                elif line.strip():
                    try:
                        yield number, json.loads(line)
                    except ValueError:
                        raise RagdxError("not valid JSON (edited by hand?)", source=str(path),
                                         field=f"line {number}") from None


def latest_answers(run_dir: Path, inputs: Sequence[Any]) -> list[AnswerSummary]:
    """The latest result of every input that has one, in the inputs' order (what ``read_run``
    gives, without the contexts' texts), read in blocks."""
    from ragdx.rag.rundir import RunPaths, output_from_line

    path = RunPaths(run_dir).results
    latest: dict[str, AnswerSummary] = {}
    ids: dict[str, str] = {}  # one string per distinct retrieved id, however many queries name it
    if path.exists():
        for number, obj in _result_objects(path):
            if not isinstance(obj, dict) or not isinstance(obj.get("id"), str):
                raise RagdxError("not a result record", source=str(path), field=f"line {number}")
            summary = answer_summary(obj, ids)
            if summary is None:  # not the usual shape: read the long way, which names what is wrong
                try:
                    out = output_from_line(obj)
                except (TypeError, ValueError, AttributeError) as exc:  # a hand-edited record
                    raise RagdxError(f"not a result record ({exc})", source=str(path),
                                     field=f"line {number}") from None
                summary = AnswerSummary(out.id, out.answer, out.error,
                                        [ids.setdefault(c.id, c.id) for c in out.contexts])
            latest[summary.id] = summary
    return [latest[i.id] for i in inputs if i.id in latest]


_CONTEXT_KEYS = frozenset({"id", "text", "score", "sha"})


def answer_summary(obj: dict[str, Any], ids: dict[str, str]) -> AnswerSummary | None:
    """The :class:`AnswerSummary` of a result line (its ``id`` a string) straight from the parsed
    line, when ``rag.rundir.output_from_line`` would read it without complaint: the answer,
    the error and the contexts' ids are what that ``SystemOutput`` would hold, without building it
    and a ``RetrievedContext`` per context (a tenth of reading a 100k-query run). None for any
    other shape: the caller then goes the long way. Held equal to it by
    ``tests/test_evaluate_fast_read.py``."""
    if "query" not in obj or "answer" not in obj:
        return None
    contexts = obj.get("contexts", [])
    if type(contexts) is not list:
        return None
    for c in contexts:
        # a context needs its id and its text (or "sha": stored once, its text filled in later)
        if type(c) is not dict or not c.keys() <= _CONTEXT_KEYS or "id" not in c or (
                "text" not in c and "sha" not in c):
            return None
    return AnswerSummary(obj["id"], obj["answer"], obj.get("error"), [ids.setdefault(c["id"], c["id"])
                                                                       for c in contexts])


def _records_in_order(dataset: str | Path, inputs: Sequence[Any], answers: Sequence[AnswerSummary],
                      run_dir: Path) -> Iterable[tuple[Any, AnswerSummary]]:
    """(record, answer) of every answered input, in the inputs' order, read from the dataset one
    record at a time. A record read before its turn waits in a buffer: none waits where the run
    asked the dataset's queries in its order, as ``ragdx run`` does. Once the dataset is read, an
    input it lacks or words differently refuses the evaluation, as :func:`judge_run` does."""
    import numpy as np

    from ragdx.gen.dataset import iter_records

    position = {i.id: k for k, i in enumerate(inputs)}
    turn = {a.id: k for k, a in enumerate(answers)}
    state = np.zeros(len(inputs), dtype=np.int8)  # 0 not in the dataset, 1 as asked, 2 worded differently
    waiting: dict[int, Any] = {}
    due = 0
    differs = False  # once one input is worded differently, nothing more is judged: it will be refused
    for r in iter_records(dataset):
        k = position.get(r.id)
        if k is None:
            continue
        same = r.query == inputs[k].query
        state[k] = 1 if same else 2
        differs = differs or not same
        n = turn.get(r.id)
        if n is None or n < due or differs:
            continue
        waiting[n] = r
        while due in waiting:
            yield waiting.pop(due), answers[due]
            due += 1
    gone = [inputs[int(k)].id for k in np.flatnonzero(state != 1)]
    if gone:
        raise RagdxError(f"the dataset changed since the run: {len(gone)} of the run's {len(inputs)} queries are "
                         f"no longer in it or are worded differently (e.g. {gone[0]}); run again on this dataset",
                         source=str(run_dir))


def _blocks(pairs: Iterable[tuple[Any, AnswerSummary]]) -> Iterator[list[tuple[Any, AnswerSummary]]]:
    """``pairs`` in lists of :data:`STREAM_BLOCK` (the last one shorter)."""
    block: list[tuple[Any, AnswerSummary]] = []
    for pair in pairs:
        block.append(pair)
        if len(block) >= STREAM_BLOCK:
            yield block
            block = []
    if block:
        yield block


def judge_workers(config: EvaluationConfig, judge: Judge, cache: VerdictCache | None, n: int) -> int:
    """How many worker processes judge ahead of the main one for ``n`` answers: ``config.workers``
    where given, else one per core beyond the main process's (at most 4) for a run of two blocks or
    more. Never for a judge that awaits an LLM (its calls are concurrent already), keeps a verdict
    cache (its file is written by this process) or is not one of the built-in offline judges
    (another judge may keep state that a copy in another process would not share), nor where
    processes cannot be forked (the judge is handed to them as it is, not pickled)."""
    if cache is not None or not judge.synchronous() or type(judge) not in PURE_JUDGES:
        return 0
    if not can_fork():  # Linux only (spawn would re-run the caller's script), and not with RAGDX_FORK=0
        return 0
    if config.workers is not None:
        return config.workers
    if n < 2 * STREAM_BLOCK:
        return 0  # a worker's start (~0.1 s) and the items' transfer cost more than they save
    return max(0, min(4, len(os.sched_getaffinity(0)) - 1))


#: the judge of a worker process of :class:`JudgePool` (set by its initializer)
_POOL_JUDGE: list[Judge] = []


def _pool_start(judge: Judge) -> None:
    import gc

    # the parent's objects out of the collector's reach, so that no collection in the worker writes to
    # them and copies their pages (``ragdx.forked`` does the same)
    gc.freeze()
    _POOL_JUDGE[:] = [judge]


def _pool_judge(items: list[JudgeItem]) -> tuple[list[Verdict], dict[str, int]]:
    """One block judged in a worker: its verdicts, and what its judge counted while deciding them
    (``decided_by``, reset for the next block) for the main process's judge to add."""
    judge = _POOL_JUDGE[0]
    verdicts = judge_items(items, judge, None)
    counted = dict(getattr(judge, "decided_by", {}))
    if counted:
        judge.decided_by.clear()  # type: ignore[attr-defined]
    return verdicts, counted


class JudgePool:
    """Judges blocks of answers in ``workers`` forked processes, a few blocks ahead of the one the
    caller is writing, and yields each block with its verdicts in order; with 0 workers (or once a
    worker has died) judges them in this process. The verdicts are the same either way: the
    built-in offline judges decide each item from the item alone (``tests/test_evaluate_workers.py``
    holds the files equal)."""

    def __init__(self, judge: Judge | None, cache: VerdictCache | None, workers: int, *, start: bool = False
                 ) -> None:
        self.judge, self.cache, self.workers = judge, cache, workers if judge is not None else 0
        self.executor: Any = None
        #: fork the workers on entering (a pool forks them at its first block otherwise)
        self.start = start
        #: why the workers stopped, when they did (a warning for the evaluation's check)
        self.broken = ""

    def __enter__(self) -> JudgePool:
        if self.workers > 0 and self.judge is not None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            judge: Judge = self.judge
            self.executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("fork"),
                                                initializer=_pool_start, initargs=(judge,))
            if self.start:  # a forking pool starts every worker at its first task
                self.executor.submit(int).result()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=True, cancel_futures=True)

    def _here(self, items: list[JudgeItem]) -> list[Verdict]:
        if self.judge is None:
            raise RagdxError("a judging pool without a judge was handed answers to judge")
        return judge_items(items, self.judge, self.cache)

    def _collect(self, future: Any, items: list[JudgeItem]) -> list[Verdict]:
        from concurrent.futures.process import BrokenProcessPool

        try:
            verdicts, counted = future.result()
        except BrokenProcessPool as exc:  # a worker killed (out of memory, a signal): judged here instead
            if self.executor is not None:
                self.broken = (f"the judging worker processes stopped ({exc or 'a worker died'}); the rest of "
                               "the answers were judged in the main process")
                self.executor.shutdown(wait=False, cancel_futures=True)
                self.executor = None
            return self._here(items)
        decided = getattr(self.judge, "decided_by", None)
        for name, n in counted.items():
            decided[name] = decided.get(name, 0) + n  # type: ignore[index,union-attr]
        return verdicts

    def blocks(self, blocks: Iterable[list[tuple[Any, AnswerSummary]]]
               ) -> Iterator[tuple[list[tuple[Any, AnswerSummary]], list[JudgeItem], list[Verdict]]]:
        """(block, its judge items, their verdicts) for each block, in order."""
        from collections import deque

        ahead: deque[tuple[list[tuple[Any, AnswerSummary]], list[JudgeItem], Any]] = deque()
        for block in blocks:
            items = [JudgeItem(r.query, r.answer_rows, None if o.error else o.answer, r.answer_kind,
                               getattr(r, "refusal_kind", "") or "") for r, o in block]
            if self.executor is None:
                while ahead:  # what was sent before the workers stopped
                    done, its_items, future = ahead.popleft()
                    yield done, its_items, self._collect(future, its_items)
                yield block, items, self._here(items)
                continue
            ahead.append((block, items, self.executor.submit(_pool_judge, items)))
            while len(ahead) > self.workers:  # the oldest block, while the others are judged
                done, its_items, future = ahead.popleft()
                yield done, its_items, self._collect(future, its_items)
        while ahead:
            done, its_items, future = ahead.popleft()
            yield done, its_items, self._collect(future, its_items)


def slim_judgement(j: Judgement, strings: dict[str, str]) -> Judgement:
    """``j`` without what only ``judgements.jsonl`` needs (written already): the query, the
    entity documents and a correct answer's evidence spans; what statistics, blame and the lab
    metrics read stays, its repeated strings shared through ``strings``."""
    def one(s: str) -> str:
        return strings.setdefault(s, s)

    if not j.refusal_kind:  # a record to refuse keeps its query: the knowledge-boundary tester reads it
        j.query = ""
    j.entity_ids = []
    if j.correct and not j.error:
        j.evidence_spans = []
    j.group_id, j.style, j.answer, j.judge = one(j.group_id), one(j.style), one(j.answer), one(j.judge)
    j.retrieved_ids = [one(d) for d in j.retrieved_ids]
    j.gold_ids = [one(d) for d in j.gold_ids]
    j.evidence_sets = [[one(d) for d in e] for e in j.evidence_sets]
    return j


def judge_streaming(pairs: Iterable[tuple[Any, AnswerSummary]], answers: Sequence[AnswerSummary],
                    config: EvaluationConfig, check: InputCheck, sink: Any, *, known_ids: set[str] | None,
                    known_exact: bool, corpus_texts: Mapping[str, str] | None, pool: JudgePool | None = None
                    ) -> Judged:
    """:func:`judge_outputs` in blocks of :data:`STREAM_BLOCK`: each block's judgements handed
    whole to ``sink`` (which writes them), slim ones (:func:`slim_judgement`) kept. The same
    judgements, in the same order, as judging everything at once. An offline judge's verdicts
    on later blocks are made by worker processes (:class:`JudgePool`) while this one builds and
    writes the judgements of earlier ones."""
    outputs = [(None, a) for a in answers]
    retrieved_lists, unknown_per = _map_retrieved(outputs, known_ids, check)
    _check_retrieved(check, retrieved_lists, unknown_per, len(answers), known_ids, known_exact)
    out = Judged(check=check)
    noted: list[Any] = []  # the verdicts that failed or fell back, all count_judge_failures counts
    passages: dict[str, str] = {}
    strings: dict[str, str] = {}

    def finish(block: list[tuple[Any, AnswerSummary]], items: list[JudgeItem], verdicts: list[Verdict]) -> None:
        at = len(out)
        full = [_judgement(r, o, retrieved_lists[at + n], unknown_per[at + n], it.response, v, config, check,
                           known_exact=known_exact, corpus_texts=corpus_texts, passages=passages)
                for n, ((r, o), it, v) in enumerate(zip(block, items, verdicts, strict=True))]
        sink(full)
        out.extend(slim_judgement(j, strings) for j in full)
        noted.extend(v for v in verdicts if getattr(v, "error", None) or getattr(v, "fallback", None))

    # called alone (no pool started by judge_run): a pool of its own, shut down here
    with nullcontext(pool) if pool is not None and pool.judge is not None else judge_pool(config, len(answers)) \
            as used:
        for block, items, verdicts in used.blocks(_blocks(pairs)):
            finish(block, items, verdicts)
    if used.broken:
        check.warnings.append(used.broken)
    if len(out) != len(answers):  # an answer whose record never came (a dataset that repeats an id)
        raise RagdxError(f"{len(answers) - len(out)} answered queries were not matched to one dataset record",
                         source=check.source or None)
    _close_check(check, out, outputs, noted)
    return out
