"""Does ragdx blame the right module? Truth from whoever wrote the corpus, never from ragdx.

    OMP_WAIT_POLICY=passive HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/blame_truth.py \
        [--corpus ../shared/data/northwind/corpus --db ../shared/data/northwind/northwind.sqlite]... \
        [--max-groups 6] [--templates 0] [--er-groups 2] [--work DIR] \
        [--out benchmarks/results/blame_accuracy.md]

``benchmarks/blame_accuracy.py`` grades ragdx against ragdx (its own fact index, its own evidence
sets, a reader answering in the database's format); it reads 1.000 everywhere. Here the answer key
is the corpus writer's record of every statement (``truth.json``: ``fact_key``, ``doc_id``,
``surface``, ``exact``, ``form``, split facts) and the corpus's own scorer (``score_linking.py``:
``Needs(db)(sql)`` gives, per answer row, the fact keys a query needs; ``stem(doc_id)`` gives
ragdx's document id). The scorer is imported from the corpus folder at run time.

1. The dataset is made as a user makes it: ``ragdx templates sql``, ``ragdx templates text --style
   short --style long --n 3``, ``ragdx gen ... --corpus docs/`` (cached in ``--work``).
2. Truth per record: a fact is *stated* in a set of documents when ``truth.json`` has an exact
   statement of it in one of them (a split fact: when all of its documents are in the set). A
   record is answerable from a corpus iff every needed fact of every answer row is stated there.
3. Systems whose module truth is known by construction go through ``ragdx.run`` (a Python callable
   returning the answer and the retrieved documents) and ``ragdx.evaluate``: an oracle retriever
   (the writer's gold documents plus two unrelated ones) with a reader that answers in the
   corpus's own surface form when every needed fact is stated in what it retrieved and otherwise
   says it does not know; retriever faults (every document stating a needed fact dropped), LM
   faults (another entity's value, a hedge, a partial answer), knowledge-base faults (documents
   deleted from what the system searches, without telling ragdx), a mixture; a real BM25
   retriever (ragdx's) with the truthful reader; and the built-in ``er`` pipeline.
   After each run, ragdx probes the system as ``ragdx run`` does (``ragdx.rag.probe``: the
   evidence documents no query retrieved, asked for in their own words; ``--no-probe`` skips it).
   A simulated system answers a probe with its retriever (:func:`probe_retriever`): ragdx's BM25
   over the corpus it searches (so a deleted document never comes back), and, where retriever
   faults are injected, the same share of probes fails the same way (unrelated documents).
4. Printed per scenario: gold-document precision/recall and ``kb_supported`` accuracy (the
   scorer's definitions, against the corpus the system searches), per-verdict precision and
   recall (any verdict outside the four, e.g. an "unsure" one, counts as wrong for recall), the
   share of such verdicts, the confusion table and the judge's acceptance of right and wrong
   answers.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import math
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
DEFAULT_CORPUS = SHARED / "data" / "northwind" / "corpus"
DEFAULT_DB = SHARED / "data" / "northwind" / "northwind.sqlite"

VERDICTS = ("correct", "kb_gap", "retrieval_failure", "lm_failure")
UNSURE = "unsure"
TARGETS = {"link_precision": 0.95, "link_recall": 0.90, "kb_supported_accuracy": 0.95, "verdict_pr": 0.90,
           "unsure_share": 0.10, "judge_right": 0.98, "judge_wrong": 0.0}
#: statement forms that do not write the asked value: a key instead of the name (``WELLI``), a
#: surname for a whole name, a product's name whose being in a list states the value
NOT_THE_VALUE = frozenset({"code", "surname-only", "listed-as-discontinued", "ditto"})
DONT_KNOW = "I don't know: the documents I was given do not say."
#: where ``--dump-judge`` writes the judge's mistakes (None: nowhere)
JUDGE_DUMP: Path | None = None


# ----------------------------------------------------------------------------- the writer's truth

def load_scorer(corpus: Path) -> Any:
    """``score_linking.py`` of the corpus, imported from its folder (never copied)."""
    path = corpus / "score_linking.py"
    name = "score_linking_" + hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:8]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot import {path}")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@dataclass
class Statement:
    doc: str
    surface: str
    form: str
    #: the documents that together state the fact (one document, or a split fact's documents)
    docs: frozenset[str]


class Truth:
    """``truth.json`` as sets of documents: which documents state which fact, exactly."""

    def __init__(self, truth_path: Path, stem: Any):
        t = json.loads(truth_path.read_text(encoding="utf-8"))
        self.stem = stem
        self.statements: dict[str, list[Statement]] = defaultdict(list)
        #: the scorer's gold: documents holding an exact statement of the fact
        self.exact_docs: dict[str, set[str]] = defaultdict(set)
        #: every document that mentions the fact at all (exact, approximate or a split part)
        self.any_docs: dict[str, set[str]] = defaultdict(set)
        groups = {s["split_id"]: frozenset(stem(d) for d in s["doc_ids"]) for s in t.get("split_facts", [])}
        for s in t.get("split_facts", []):
            self.any_docs[s["fact_key"]] |= groups[s["split_id"]]
        for f in t["facts"]:
            k, d = f["fact_key"], stem(f["doc_id"])
            self.any_docs[k].add(d)
            if not f["exact"]:
                continue
            self.exact_docs[k].add(d)
            docs = groups.get(f.get("split_id"), frozenset((d,))) if f.get("split_id") else frozenset((d,))
            self.statements[k].append(Statement(d, f["surface"], f.get("form", ""), docs))
        for s in t.get("split_facts", []):  # a split fact listed without a statement of its own
            k = s["fact_key"]
            if not any(st.docs == groups[s["split_id"]] for st in self.statements[k]):
                self.statements[k].append(Statement("", "", "split", groups[s["split_id"]]))
        self.distractors = {stem(x) for x in t.get("distractor_doc_ids", [])}
        #: documents that state some database fact exactly (what a knowledge-base fault deletes)
        self.fact_docs = sorted({st_doc for sts in self.statements.values() for st in sts for st_doc in st.docs})

    def stated_in(self, fact: str, docs: set[str] | frozenset[str]) -> bool:
        return any(st.docs <= docs for st in self.statements.get(fact, ()))

    def gold(self, facts: set[str], corpus: set[str]) -> set[str]:
        """The scorer's gold documents, within the corpus the system searches."""
        out: set[str] = set()
        for k in facts:
            out |= self.exact_docs.get(k, set())
        return out & corpus

    def stating_docs(self, facts: set[str]) -> set[str]:
        """Every document whose statements (or split parts) a reader could use for these facts."""
        out: set[str] = set()
        for k in facts:
            for st in self.statements.get(k, ()):
                out |= st.docs
        return out


# ----------------------------------------------------------------------------- records and carriers

def _tokens(text: str) -> set[str]:
    t = unicodedata.normalize("NFKD", str(text)).encode("ascii", "ignore").decode().casefold()
    return {w for w in re.findall(r"[a-z0-9]+", t) if len(w) > 1}


def _value_str(v: Any) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


@dataclass
class Carrier:
    """One selected column of one answer row and the fact that carries its value."""

    fact: str | None
    hop: bool
    alias: str
    table: str
    column: str
    value: Any
    #: the selected column is a foreign key: a statement of it may write the referenced row instead
    fk: bool = False


@dataclass
class Rec:
    id: str
    group_id: str
    style: str
    query: str
    answer_text: str
    sql: str
    rows: list[list[str]]
    need: set[str]
    carriers: list[list[Carrier]]
    linked_gold: set[str]
    kb_supported: bool | None
    raw: dict[str, Any] = field(repr=False, default_factory=dict)


_FK: dict[tuple[int, str], set[str]] = {}


def _fk_columns(con: sqlite3.Connection, table: str) -> set[str]:
    key = (id(con), table)
    if key not in _FK:
        _FK[key] = {r[3] for r in con.execute(f'PRAGMA foreign_key_list("{table}")').fetchall()}
    return _FK[key]


def carriers_of(scorer: Any, needs: Any, sql: str) -> list[list[Carrier]]:
    """Per answer row (the scorer's query, same FROM and WHERE), the fact carrying each selected
    column: the column's own fact, or, for the name of a joined entity, the hop into it."""
    p = scorer.parse_sql(sql)
    al = p["aliases"]
    order = list(al)
    sel = [f'"{a}"."{c}"' for a in order for c in needs.pks(al[a])]
    sel += [f'"{a}"."{c}"' for (a, c) in p["cols"]]
    # the Northwind scorer names the clauses "from"/"where", others "from_sql"/"where_sql"
    frm = p.get("from", p.get("from_sql"))
    where = p.get("where", p.get("where_sql")) or ""
    q = f"SELECT {', '.join(sel)} FROM {frm}" + (f" WHERE {where}" if where else "")
    out = []
    for r in needs.con.execute(q).fetchall():
        vals, i = {}, 0
        for a in order:
            n = len(needs.pks(al[a]))
            vals[a] = tuple(r[i:i + n])
            i += n
        row = []
        for j, (a, c) in enumerate(p["cols"]):
            t = al.get(a, a)
            value = r[i + j]
            joined = a not in p["where_aliases"]
            if joined and (c in getattr(scorer, "NAME_COLUMNS", {}).get(t, set()) or [c] == needs.pks(t)):
                fact = None
                for (a1, c1, a2, c2) in p["edges"]:
                    for (x, cx), (y, cy) in (((a1, c1), (a2, c2)), ((a2, c2), (a1, c1))):
                        if y == a and needs.pks(al[y]) == [cy] and needs.pks(al[x]) != [cx]:
                            tx = al[x]
                            if len(needs.pks(tx)) > 1 and cx in needs.pks(tx):
                                fact = needs.row_key(tx, vals[x])
                            else:
                                fact = f"{tx}.{cx}@" + "|".join(str(v) for v in vals[x])
                row.append(Carrier(fact, True, a, t, c, value))
            else:
                row.append(Carrier(f"{t}.{c}@" + "|".join(str(v) for v in vals.get(a, ())), False, a, t, c, value,
                                   c in _fk_columns(needs.con, t)))
        out.append(row)
    return out


def writes_value(st: Statement, carrier: Carrier, value: str, query: str = "") -> bool:
    """The statement's surface writes the asked value: an exact statement of a form that writes a
    value (not a key, a bare surname or a listed name), and, unless the fact is the selected column
    itself, sharing a word with the value (a hop's statement may name the row that holds the key:
    "Chai" for Chai's supplier) without being a name the ``query`` asks about (a vessel 'MV
    Ardmair' whose home port is Ardmair: its name is the subject, not the answer)."""
    if not st.surface or st.form in NOT_THE_VALUE:
        return False
    direct = (not carrier.hop and not carrier.fk
              and (carrier.fact or "").startswith(f"{carrier.table}.{carrier.column}@"))
    if direct:
        return True
    said = _tokens(st.surface)
    if said and any(said == _tokens(name) for name in re.findall(r"'([^']+)'", query)):
        return False
    return bool(said) and len(said & _tokens(value)) >= max(1, len(said) / 2)


def load_records(dataset: Path, scorer: Any, needs: Any) -> list[Rec]:
    recs = []
    for line in (dataset / "records.jsonl").read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        rows = needs(r["sql"])
        recs.append(Rec(r["id"], r["group_id"], r.get("style", ""), r["query"], r.get("answer_text", ""), r["sql"],
                        rows, {k for row in rows for k in row}, carriers_of(scorer, needs, r["sql"]),
                        {scorer.stem(x) for x in r.get("gold_document_ids") or []}, r.get("kb_supported"), r))
    return recs


# ----------------------------------------------------------------------------- the simulated systems

@dataclass(frozen=True)
class Scenario:
    name: str
    retriever: str = "oracle"  # oracle | bm25 | er
    retrieval: float = 0.0
    lm: float = 0.0
    kb: float = 0.0
    seed: int = 0


SCENARIOS = [
    Scenario("oracle, no fault"),
    Scenario("retriever faults 20 %", retrieval=0.20, seed=1),
    Scenario("LM faults 15 %", lm=0.15, seed=2),
    Scenario("KB faults: 10 % of documents deleted", kb=0.10, seed=3),
    Scenario("mixture: retriever 10 %, LM 10 %, KB 10 %", retrieval=0.10, lm=0.10, kb=0.10, seed=4),
    Scenario("BM25 top-5 (natural misses), truthful reader", retriever="bm25", seed=5),
    Scenario("built-in er pipeline", retriever="er", seed=6),
]


@dataclass
class Outcome:
    """What one simulated system did for one record, and the truth about it."""

    answer: str
    retrieved: list[str]
    truth: str
    #: the answer is right by construction (None: not known by construction, see ``er``)
    right: bool
    #: how the answer was written: the statement's form, "db-value", "dont-know", or the LM fault's kind
    form: str
    injected: str = ""


class World:
    """One corpus: its truth, its database, its documents, its records."""

    def __init__(self, corpus: Path, db: Path, scorer: Any, truth: Truth, docs: dict[str, str], recs: list[Rec]):
        self.corpus, self.db, self.scorer, self.truth, self.docs, self.recs = corpus, db, scorer, truth, docs, recs
        self.con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        self._alts: dict[tuple[str, tuple[str, ...]], list[tuple[Any, ...]]] = {}
        self._subject_names: dict[str, set[str]] = {}

    def names_subject(self, fact: str, surface: str) -> bool:
        """The statement's surface is the name of the row the fact is about ("Booth, Carys", the
        part of a split statement that puts the player in a band), not its value: it answers with
        the subject, unless the fact is that name itself."""
        column_part, _, key = fact.partition("@")
        table, _, column = column_part.partition(".")
        names = getattr(self.scorer.Needs, "name_columns", {}).get(table, ())
        if not names or column in names or not surface:
            return False
        hit = self._subject_names.get(fact)
        if hit is None:
            pks = [r[1] for r in sorted((r for r in self.con.execute(f'PRAGMA table_info("{table}")') if r[5]),
                                        key=lambda r: r[5])]
            parts = key.split("|")
            row = None
            if pks and len(parts) == len(pks):
                cols = sorted(names)
                row = self.con.execute(
                    f'SELECT {", ".join(chr(34) + c + chr(34) for c in cols)} FROM "{table}" WHERE '
                    + " AND ".join(f'CAST("{c}" AS TEXT) = ?' for c in pks), parts).fetchone()
            hit = self._subject_names[fact] = _tokens(" ".join(str(v) for v in row if v is not None)) if row else set()
        return bool(hit) and _tokens(surface) == hit

    # -- the reader
    def surfaces(self, rec: Rec, retrieved: set[str], rng: random.Random) -> tuple[str, str] | None:
        """The answer in the corpus's own words from what was retrieved, and the form used; None
        when some needed fact is not stated there."""
        if not rec.need or not all(self.truth.stated_in(k, retrieved) for k in rec.need):
            return None
        parts, forms, seen = [], [], set()
        for row in rec.carriers:
            # one part per distinct value tuple the row's carrier facts give
            by_fact: dict[str | None, list[Carrier]] = {}
            for c in row:
                by_fact.setdefault(c.fact, []).append(c)
            row_parts = []
            for fact, cs in by_fact.items():
                key = (fact is None, tuple(_value_str(c.value) for c in cs))
                value = " ".join(_value_str(c.value) for c in cs)
                if key in seen and len(rec.carriers) > 1:
                    continue
                seen.add(key)
                options = [st for st in self.truth.statements.get(fact or "", ())
                           if st.docs <= retrieved and writes_value(st, cs[0], value, rec.query)
                           and not self.names_subject(fact or "", st.surface)]
                if not options:
                    return (rec.answer_text or value), "db-value"
                st = rng.choice(sorted(options, key=lambda s: (s.doc, s.surface)))
                row_parts.append(st.surface)
                forms.append(st.form)
            if row_parts:
                parts.append(" ".join(row_parts))
        if not parts:
            return rec.answer_text, "db-value"
        return ", ".join(dict.fromkeys(parts)), (forms[0] if len(set(forms)) == 1 else "mixed")

    def other_value(self, rec: Rec, rng: random.Random) -> str | None:
        """Another entity's value of the same selected columns, from the database."""
        row = rec.carriers[0] if rec.carriers else []
        by_alias: dict[str, list[Carrier]] = {}
        for c in row:
            by_alias.setdefault(c.alias, []).append(c)
        parts = []
        for cs in by_alias.values():
            table, cols = cs[0].table, tuple(c.column for c in cs)
            key = (table, cols)
            if key not in self._alts:
                q = (f'SELECT DISTINCT {", ".join(f"{chr(34)}{c}{chr(34)}" for c in cols)} FROM "{table}" WHERE '
                     + " AND ".join(f'"{c}" IS NOT NULL' for c in cols))
                self._alts[key] = sorted(self.con.execute(q).fetchall(), key=lambda t: tuple(map(str, t)))
            mine = tuple(_value_str(c.value).casefold().strip() for c in cs)
            others = [t for t in self._alts[key] if tuple(_value_str(v).casefold().strip() for v in t) != mine
                      and not (_tokens(" ".join(map(_value_str, t))) == _tokens(" ".join(mine)))]
            if not others:
                return None
            parts.append(" ".join(_value_str(v) for v in rng.choice(others)))
        return " ".join(parts) if parts else None

    def lm_fault(self, rec: Rec, right: str, rng: random.Random) -> tuple[str, str]:
        kind = rng.choice(("wrong", "hedge", "partial"))
        words = (rec.answer_text or right).split()
        if kind == "partial" and len(words) >= 3:  # the first third of the value's words
            return " ".join(words[: math.ceil(len(words) / 3)]), "lm:partial"
        wrong = self.other_value(rec, rng)
        if kind == "hedge":
            hedge = f"Possibly {wrong}, but I am not sure." if wrong else "I am not sure; it could be several things."
            return hedge, "lm:hedge"
        if wrong:
            return wrong, "lm:wrong"
        return "I am not sure; it could be several things.", "lm:hedge"


def _rng(*parts: Any) -> random.Random:
    return random.Random(hashlib.sha256("\x1f".join(map(str, parts)).encode()).hexdigest())


def deleted_docs(world: World, sc: Scenario) -> set[str]:
    """A seeded share of the documents that state some fact (by the writer's truth)."""
    if sc.kb <= 0:
        return set()
    pool = [d for d in world.truth.fact_docs if d in world.docs]
    n = round(sc.kb * len(pool))
    return set(_rng("kb", sc.seed).sample(pool, n))


def simulate(world: World, sc: Scenario, bm25_k: int = 5) -> tuple[dict[str, Outcome], set[str]]:
    """Per record: the answer, the retrieved documents and the truth of the oracle / BM25 systems."""
    gone = deleted_docs(world, sc)
    searched = set(world.docs) - gone
    unrelated_pool = sorted(searched)
    ranker = _bm25(world, searched) if sc.retriever == "bm25" else None
    bm25_memo: dict[str, list[str]] = {}
    out = {}
    for rec in world.recs:
        rng = _rng(sc.name, sc.seed, rec.id)
        answerable = bool(rec.need) and all(world.truth.stated_in(k, searched) for k in rec.need)
        injected = ""
        if ranker is not None:
            if rec.query not in bm25_memo:
                found = ranker.retrieve(rec.query, bm25_k)
                bm25_memo[rec.query] = list(dict.fromkeys(c.id.split("#")[0] for c in found))
            retrieved = bm25_memo[rec.query]
        else:
            stating = world.truth.stating_docs(rec.need) & searched
            extra = [d for d in rng.sample(unrelated_pool, min(len(unrelated_pool), 12)) if d not in stating][:2]
            if answerable and sc.retrieval and rng.random() < sc.retrieval:
                injected = "retrieval"
                every = set()
                for k in rec.need:
                    every |= world.truth.any_docs.get(k, set())
                stating = set()
                extra = [d for d in rng.sample(unrelated_pool, min(len(unrelated_pool), 40)) if d not in every][:3]
            retrieved = sorted(stating) + extra
        got = set(retrieved)
        written = world.surfaces(rec, got, rng)
        if written is None:
            answer, form, right = DONT_KNOW, "dont-know", False
            truth = "kb_gap" if not answerable else "retrieval_failure"
        else:
            answer, form = written
            right, truth = True, "correct"
            if sc.lm and rng.random() < sc.lm:
                answer, form = world.lm_fault(rec, answer, rng)
                right, truth, injected = False, "lm_failure", injected or "lm"
        out[rec.id] = Outcome(answer, retrieved, truth, right, form, injected)
    return out, gone


def _bm25(world: World, searched: set[str]) -> Any:
    from ragdx.rag.chunking import Chunk
    from ragdx.rag.retrievers import BM25Retriever

    r = BM25Retriever()
    r.build([Chunk(d, d, world.docs[d]) for d in sorted(searched)])
    return r


def er_truth(world: World, results: dict[str, dict[str, Any]]) -> dict[str, Outcome]:
    """The er pipeline's truth per query. Its answer is not right by construction, so "right" is
    decided from the writer's record alone: the response contains, as words, a surface the writer
    used for the asked value (an exact statement, a form that writes the value) or the database's
    answer; then kb_gap if the facts are stated nowhere, retrieval_failure if not in what it
    retrieved, lm_failure otherwise."""
    everything = set(world.docs)
    out = {}
    for rec in world.recs:
        res = results.get(rec.id)
        if res is None:
            continue
        answer = res.get("answer") or ""
        retrieved = list(dict.fromkeys(str(c.get("id", "")).split("#")[0] for c in res.get("contexts") or []))
        def has(text: str, answer: str = answer) -> bool:  # this record's answer, bound now
            return _states_text(answer, str(text))

        right = bool(rec.carriers) and not _is_number(rec.answer_text) and has(rec.answer_text)
        if not right and rec.carriers:
            ok = True
            for row in rec.carriers:
                for c in row:
                    opts = [st.surface for st in world.truth.statements.get(c.fact or "", ())
                            if writes_value(st, c, _value_str(c.value), rec.query)]
                    said = (_says_number(answer, c.value) if _is_number(c.value)
                            else has(_value_str(c.value))) \
                        or any(_says_number(answer, _number_of(s)) if _number_of(s) is not None else has(s)
                               for s in opts) or _initial_of(world, c, row, answer)
                    if not said:
                        ok = False
            right = ok
        if right:
            truth = "correct"
        elif not (rec.need and all(world.truth.stated_in(k, everything) for k in rec.need)):
            truth = "kb_gap"
        elif not all(world.truth.stated_in(k, set(retrieved)) for k in rec.need):
            truth = "retrieval_failure"
        else:
            truth = "lm_failure"
        out[rec.id] = Outcome(answer, retrieved, truth, right, "er")
    return out


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) or bool(
        isinstance(v, str) and re.fullmatch(r"-?\d+(?:\.\d+)?", v.strip()))


#: a number as written: digits with thousands separators (1,234 or 1.234.567) or a decimal part after a point
#: or a comma (32.80, 19,20); a comma followed by exactly three digits is a thousands separator
_NUMBER = re.compile(r"(?<![\w.,])-?\d{1,3}(?:[,.\u202f]\d{3})+(?:[.,]\d+)?(?![\w]|[.,]\d)|"
                     r"(?<![\w.,])-?\d+(?:[.,]\d+)?(?![\w]|[.,]\d)")


#: a run of two or more capitalised words (a name), or of upper-case words ("EASTGATE METHODIST CHURCH")
_NAME_RUN = re.compile(r"\b[A-Z][\w'&.-]*(?:[ \t]+(?:(?:of|the|and|&|de|la|upon|on|in)[ \t]+)*[A-Z][\w'&.-]*)+")


_LEADING = frozenset("the a an in at on to from by for of and is it he she they we i".split())


def _words(text: str) -> str:
    return " ".join(re.findall(r"\w+", unicodedata.normalize("NFKC", text).casefold()))


def _states_text(answer: str, value: str) -> bool:
    """The answer states ``value`` as words, not only inside a longer name: "Kingsmead Hub" names the hub, not
    its town, and "Hollins Cross Parish Council" repeats the question's subject; "It is in Hollins Cross" and
    "Robert King" (a name that is the value itself, after a leading "In" or "The") state it."""
    want = _words(value)
    if not want:
        return False
    if f" {want} " in f" {_words(_NAME_RUN.sub(' ', answer))} ":
        return True
    for m in _NAME_RUN.finditer(answer):
        run = _words(m.group(0)).split()
        while run and run[0] in _LEADING:
            run = run[1:]
        if " ".join(run) == want:
            return True
    return False


def _number_of(surface: str) -> float | None:
    """The number a surface is, when it is one and nothing else ("0", "$32.80", "19,20"), else None."""
    m = re.fullmatch(r"[^\w]*(-?\d[\d,.\u202f]*?)[^\w]*", surface.strip())
    return _parse_number(m.group(1)) if m else None


def _parse_number(text: str) -> float | None:
    """A number as people write it: 1,234 and 1.234.567 (thousands), 32.80 and 19,20 (decimals)."""
    text = text.replace("\u202f", "")
    if re.search(r"[.,]\d{3}(?:[.,]|$)", text) and not re.search(r"[.,]\d{1,2}$|[.,]\d{4,}$", text):
        text = re.sub(r"[.,]", "", text)  # 1,234 / 1.234.567: thousands only
    elif "," in text and "." in text:
        text = text.replace(",", "") if text.rfind(".") > text.rfind(",") else text.replace(".", "").replace(",", ".")
    else:
        text = text.replace(",", ".")
    try:
        return float(text)
    except ValueError:
        return None


def _says_number(answer: str, value: Any) -> bool:
    """The answer writes the number itself: "$32.80" says 32.8, "0.10" does not say 0, "USD 19,20" does not
    say 20 (a whole number, never a digit string inside another number)."""
    want = float(value)
    return any((got := _parse_number(m.group(0))) is not None and abs(got - want) < 1e-9 * max(1.0, abs(want))
               and not _MONTH_NEAR.match(answer, m.end()) and not _MONTH_BEFORE.search(answer, 0, m.start())
               for m in _NUMBER.finditer(answer))


#: a day of a date ("2 March 2026", "March 2"): not a count or an amount
_MONTHS = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*"
_MONTH_NEAR = re.compile(rf"(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTHS}\b", re.I)
_MONTH_BEFORE = re.compile(rf"\b{_MONTHS}\s+$", re.I)


def _initial_of(world: World, c: Carrier, row: list[Carrier], answer: str) -> bool:
    """A given name written as its initial beside the family name the same answer row carries ("King, R." or
    "R. King" for Robert King), counted only where no other row of the table has that initial and family name
    (an initial does not tell namesakes apart)."""
    value = str(c.value)
    if not re.fullmatch(r"[A-Z][a-z]+", value):
        return False
    for other in row:
        family = str(other.value)
        if other is c or other.table != c.table or not re.fullmatch(r"[A-Z][\w'-]+", family):
            continue
        initial = re.escape(value[0])
        if not re.search(rf"\b{re.escape(family)},? {initial}\.|\b{initial}\. ?{re.escape(family)}\b", answer):
            continue
        n = world.con.execute(f'SELECT COUNT(*) FROM "{c.table}" WHERE substr("{c.column}", 1, 1) = ? '
                              f'AND "{other.column}" = ?', (value[0], family)).fetchone()[0]
        if n == 1:
            return True
    return False


# ----------------------------------------------------------------------------- scoring

@dataclass
class Scores:
    n: int = 0
    confusion: Counter = field(default_factory=Counter)  # (truth, verdict) -> count

    def add(self, truth: str, verdict: str) -> None:
        self.n += 1
        self.confusion[(truth, verdict if verdict in VERDICTS else UNSURE)] += 1

    def support(self, v: str) -> int:
        return sum(c for (t, _), c in self.confusion.items() if t == v)

    def predicted(self, v: str) -> int:
        return sum(c for (_, g), c in self.confusion.items() if g == v)

    def precision(self, v: str) -> float:
        p = self.predicted(v)
        return self.confusion[(v, v)] / p if p else float("nan")

    def recall(self, v: str) -> float:
        s = self.support(v)
        return self.confusion[(v, v)] / s if s else float("nan")

    @property
    def unsure_share(self) -> float:
        return self.predicted(UNSURE) / self.n if self.n else float("nan")


def score_verdicts(truth: dict[str, str], verdicts: dict[str, str]) -> Scores:
    """Every query with a truth label is counted; a query ragdx gave no verdict is unsure."""
    s = Scores()
    for qid, t in truth.items():
        s.add(t, verdicts.get(qid, "missing"))
    return s


def linking(world: World, searched: set[str]) -> dict[str, Any]:
    """The scorer's definitions: gold documents micro-averaged over records, kb_supported accuracy
    over records with an answer row, both against the corpus the system searches."""
    tp = fp = fn = agree = judged = 0
    conf: Counter = Counter()
    for rec in world.recs:
        gold = world.truth.gold(rec.need, searched)
        tp += len(rec.linked_gold & gold)
        fp += len(rec.linked_gold - gold)
        fn += len(gold - rec.linked_gold)
        if rec.rows:
            t = all(world.truth.stated_in(k, searched) for k in rec.need)
            judged += 1
            agree += rec.kb_supported is not None and bool(rec.kb_supported) == t
            conf[(t, rec.kb_supported)] += 1
    return {"precision": tp / (tp + fp) if tp + fp else float("nan"),
            "recall": tp / (tp + fn) if tp + fn else float("nan"), "tp": tp, "fp": fp, "fn": fn,
            "kb_supported_accuracy": agree / judged if judged else float("nan"), "judged": judged,
            "kb_confusion": {f"{t}/{g}": c for (t, g), c in sorted(conf.items(), key=str)}}


def judge_figures(outcomes: dict[str, Outcome], accepted: dict[str, bool | None]) -> dict[str, Any]:
    right = [(o, accepted.get(q)) for q, o in outcomes.items() if o.right]
    wrong = [(o, accepted.get(q)) for q, o in outcomes.items() if not o.right and o.form != "dont-know"]
    dont = [(o, accepted.get(q)) for q, o in outcomes.items() if o.form == "dont-know"]
    by_form: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for o, a in right:
        by_form[o.form][0] += bool(a)
        by_form[o.form][1] += 1
    wrong_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for o, a in wrong:
        wrong_kind[o.form][0] += bool(a)
        wrong_kind[o.form][1] += 1
    corpus_forms = [(o, a) for o, a in right if o.form != "db-value"]
    db_value = [(o, a) for o, a in right if o.form == "db-value"]
    return {"right": [sum(bool(a) for _, a in right), len(right)],
            "right_corpus_forms": [sum(bool(a) for _, a in corpus_forms), len(corpus_forms)],
            "right_db_value": [sum(bool(a) for _, a in db_value), len(db_value)],
            "wrong": [sum(bool(a) for _, a in wrong), len(wrong)],
            "dont_know": [sum(bool(a) for _, a in dont), len(dont)],
            "right_by_form": dict(by_form), "wrong_by_kind": dict(wrong_kind)}


# ----------------------------------------------------------------------------- running ragdx

def _ragdx(*args: str, cwd: Path) -> None:
    code = "import sys; from ragdx.cli import main; sys.argv[0] = 'ragdx'; sys.exit(main())"
    cmd = [sys.executable, "-c", code, *args]
    res = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if res.returncode:
        raise SystemExit(f"ragdx {' '.join(args)} failed ({res.returncode}): {res.stderr.strip()[-2000:]}")


def _pick_templates(sql_yaml: Path, n: int) -> None:
    """Keep ``n`` templates, taken round-robin over the target schemas (a small, varied slice)."""
    import yaml

    data = yaml.safe_load(sql_yaml.read_text(encoding="utf-8"))
    schemas = data["schemas"]
    names = list(schemas)
    kept: dict[str, list[Any]] = {k: [] for k in names}
    i, total = 0, sum(len(v) for v in schemas.values())
    while sum(len(v) for v in kept.values()) < min(n, total):
        for k in names:
            if i < len(schemas[k]) and sum(len(v) for v in kept.values()) < n:
                kept[k].append(schemas[k][i])
        i += 1
    data["schemas"] = {k: v for k, v in kept.items() if v}
    sql_yaml.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def _ragdx_fingerprint() -> str:
    """The ragdx source that links the dataset: a cached dataset is remade when it changes."""
    import ragdx

    h = hashlib.sha256()
    for f in sorted(Path(ragdx.__file__).parent.rglob("*.py")):
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def make_dataset(work: Path, corpus: Path, db: Path, max_groups: int, templates: int, seed: int,
                 name: str = "dataset") -> tuple[Path, Path]:
    """The dataset as a user makes it, with the CLI, cached under ``work`` by its parameters.
    Returns (dataset dir, database copy)."""
    work.mkdir(parents=True, exist_ok=True)
    dbcopy = work / "db.sqlite"
    if not dbcopy.exists() or dbcopy.stat().st_size != db.stat().st_size:
        shutil.copyfile(db, dbcopy)
    key = {"max_groups": max_groups, "templates": templates, "seed": seed, "db_size": db.stat().st_size,
           "ragdx": _ragdx_fingerprint(),
           "truth": hashlib.sha256((corpus / "truth.json").read_bytes()).hexdigest()[:16]}
    ds = work / name
    # beside the dataset, not in it: ragdx --overwrite replaces only what it wrote, and refuses a
    # directory holding a file of someone else's
    stamp = work / f"{name}.blame_truth_key.json"
    if stamp.exists() and json.loads(stamp.read_text()) == key and (ds / "records.jsonl").exists():
        return ds, dbcopy
    url = f"sqlite:///{dbcopy}"
    tdir = work / f"templates-{templates}"
    tdir.mkdir(exist_ok=True)
    if not (tdir / "sql.yaml").exists():
        _ragdx("templates", "sql", "--db", url, "-o", str(tdir / "sql.yaml"), cwd=work)
        if templates:
            _pick_templates(tdir / "sql.yaml", templates)
    if not (tdir / "text.yaml").exists():
        _ragdx("templates", "text", "--db", url, "--sql", str(tdir / "sql.yaml"), "-o", str(tdir / "text.yaml"),
               "--style", "short", "--style", "long", "--n", "3", cwd=work)
    _ragdx("gen", "--db", url, "--sql", str(tdir / "sql.yaml"), "--text", str(tdir / "text.yaml"), "-o", str(ds),
           "--corpus", str(corpus / "docs"), "--max-groups-per-template", str(max_groups), "--seed", str(seed),
           "--overwrite", cwd=work)
    stamp.write_text(json.dumps(key))
    return ds, dbcopy


def run_and_evaluate(system: Any, dataset: Path, run_dir: Path, n_boot: int,
                     probe: bool = True) -> tuple[dict[str, str], dict[str, bool | None], Any]:
    import ragdx

    ragdx.run(system, dataset, run_dir, overwrite=True, progress=False, concurrency=8)
    if probe:  # as `ragdx run` does at its end (its --no-probe: the benchmark's)
        from ragdx.cli.probe import probe_stage

        probe_stage(system, run_dir, dataset, concurrency=8)
    res = ragdx.evaluate(run_dir, n_boot=n_boot, rouge=False, lab=False)
    verdicts = {v["id"]: v["verdict"] for v in res.verdicts}
    accepted = {j.id: (None if getattr(j, "error", None) else bool(j.correct)) for j in res.judgements}
    return verdicts, accepted, res


def probe_retriever(world: World, sc: Scenario, searched: set[str], k: int = 5) -> Any:
    """How a simulated system's retriever answers a query nobody scripted (a probe): the oracle
    retriever exists only for the dataset's queries, so every simulated system searches its own
    corpus with ragdx's BM25 (top ``k``, the BM25 scenario's own retriever). What it searches
    lacks the deleted documents, so a probe never brings one back. An injected retriever fault is
    a query whose retrieval fails (what it needed is dropped, unrelated documents come instead);
    a probe is a query like any other, so the same share of probes fails, seeded by its text, and
    returns unrelated documents. (A fault that made documents unreachable for good would be a
    different fault: one no probe, and no user, could tell from a missing document.)"""
    ranker = _bm25(world, searched)
    pool = sorted(searched)

    def retrieve(query: str) -> list[str]:
        rng = _rng("probe", sc.name, sc.seed, query)
        if sc.retrieval and rng.random() < sc.retrieval:
            return rng.sample(pool, min(k, len(pool)))
        return list(dict.fromkeys(c.id.split("#")[0] for c in ranker.retrieve(query, k)))

    return retrieve


def oracle_system(outcomes: dict[str, Outcome], docs: dict[str, str], name: str, probe: Any = None) -> Any:
    """The simulated system: the scripted outcome of each dataset query; any other query (a probe)
    goes to ``probe`` (its retriever, see :func:`probe_retriever`), answered "I don't know"."""
    from ragdx.rag.systems import CallableSystem

    def answer(item: Any) -> dict[str, Any]:
        o = outcomes.get(item.id)
        if o is None:
            if probe is None:
                raise KeyError(f"no scripted answer for {item.id}")
            return {"answer": DONT_KNOW, "contexts": [{"id": d, "text": docs[d], "score": None}
                                                      for d in probe(item.query)]}
        return {"answer": o.answer, "contexts": [{"id": d, "text": docs[d], "score": None} for d in o.retrieved]}

    return CallableSystem(answer, name=name, arg="input")


def probe_figures(run_dir: Path, gone: set[str]) -> dict[str, Any]:
    """What the probes found, against the truth: a document is absent iff it was deleted."""
    from ragdx.rag.probe import read_probes

    by_doc: dict[str, list[Any]] = defaultdict(list)
    results = read_probes(run_dir)
    for p in results:
        by_doc[p.doc_id].append(p.found)
    found = {d for d, fs in by_doc.items() if any(fs)}
    not_found = {d for d, fs in by_doc.items() if fs and all(f is False for f in fs)}
    return {"documents": len(by_doc), "probes": len(results), "failed": sum(p.found is None for p in results),
            "found": len(found), "found_deleted": len(found & gone), "not_found": len(not_found),
            "not_found_present": len(not_found - gone)}


def _read_results(run_dir: Path) -> dict[str, dict[str, Any]]:
    """``results.jsonl`` with the contexts' ids (texts may be stored once in contexts.jsonl)."""
    out = {}
    for line in (run_dir / "results.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            r = json.loads(line)
            out[r["id"]] = r
    return out


# ----------------------------------------------------------------------------- the benchmark

def load_world(corpus: Path, db: Path, work: Path, max_groups: int, templates: int, seed: int) -> tuple[World, Path]:
    from ragdx.rag.corpus import load_corpus

    scorer = load_scorer(corpus)
    ds, dbcopy = make_dataset(work, corpus, db, max_groups, templates, seed)
    truth = Truth(corpus / "truth.json", scorer.stem)
    docs = {d.id: d.text for d in load_corpus(corpus / "docs")}
    recs = load_records(ds, scorer, scorer.Needs(str(dbcopy)))
    return World(corpus, dbcopy, scorer, truth, docs, recs), ds


def run_scenario(world: World, ds: Path, sc: Scenario, work: Path, n_boot: int,
                 er_world: tuple[World, Path] | None = None, log: Any = print, probe: bool = True) -> dict[str, Any]:
    t0 = time.perf_counter()
    run_dir = work / "runs" / re.sub(r"[^a-z0-9]+", "-", sc.name.lower()).strip("-")
    if sc.retriever == "er":
        from ragdx.rag.pipeline import CONFIG_DIR, Pipeline

        w, d = er_world or (world, ds)
        system = Pipeline.from_yaml(CONFIG_DIR / "er.yaml", corpus=w.corpus / "docs")
        import ragdx

        ragdx.run(system, d, run_dir, overwrite=True, progress=False, concurrency=2)
        if probe:  # the real pipeline answers its probes itself
            from ragdx.cli.probe import probe_stage

            probe_stage(system, run_dir, d, concurrency=2)
        res = ragdx.evaluate(run_dir, n_boot=n_boot, rouge=False, lab=False)
        verdicts = {v["id"]: v["verdict"] for v in res.verdicts}
        accepted = {j.id: (None if getattr(j, "error", None) else bool(j.correct)) for j in res.judgements}
        outcomes = er_truth(w, _read_results(run_dir))
        gone: set[str] = set()
        world = w
    else:
        outcomes, gone = simulate(world, sc)
        system = oracle_system(outcomes, world.docs, "bt", probe_retriever(world, sc, set(world.docs) - gone))
        verdicts, accepted, res = run_and_evaluate(system, ds, run_dir, n_boot, probe)
    searched = set(world.docs) - gone
    truth = {q: o.truth for q, o in outcomes.items()}
    scores = score_verdicts(truth, verdicts)
    answerable = [q for q, o in outcomes.items()
                  if world.recs and all(world.truth.stated_in(k, searched) for k in _need(world, q))]
    injected = Counter(o.injected for o in outcomes.values() if o.injected)
    bases = Counter()
    basis_of = {v["id"]: v.get("basis", "") for v in res.verdicts}
    for q, o in outcomes.items():
        v = verdicts.get(q, "missing")
        if v != o.truth:
            bases[(o.truth, v if v in VERDICTS else UNSURE, basis_of.get(q, ""))] += 1
    if JUDGE_DUMP is not None and not (world.corpus / "HELD_OUT").is_file():
        # the judge's mistakes against the truth, to read; never a held-out corpus's (HELD_OUT in its folder)
        recs = {r.id: r for r in world.recs}
        with JUDGE_DUMP.open("a", encoding="utf-8") as fh:
            for q, o in outcomes.items():
                wrong_taken = not o.right and o.form != "dont-know" and accepted.get(q)
                if (o.right and accepted.get(q) is False) or wrong_taken:
                    r = recs.get(q)
                    fh.write(json.dumps({"corpus": world.corpus.name, "scenario": sc.name, "right": o.right,
                                         "form": o.form, "query": r.query if r else "", "answer": o.answer,
                                         "gold": r.answer_text if r else ""}, ensure_ascii=False) + "\n")
    out = {"scenario": sc.name, "queries": len(outcomes), "answerable": len(answerable), "deleted_docs": len(gone),
           "injected": dict(injected), "scores": scores, "linking": linking(world, searched),
           "judge": judge_figures(outcomes, accepted), "disagreements": bases, "outcomes": outcomes,
           "verdicts": verdicts, "seconds": time.perf_counter() - t0, "probes": probe_figures(run_dir, gone)}
    log(f"  {sc.name}: {len(outcomes)} queries, {time.perf_counter() - t0:.0f} s")
    return out


def _need(world: World, qid: str) -> set[str]:
    if not hasattr(world, "_by_id"):
        world._by_id = {r.id: r for r in world.recs}  # type: ignore[attr-defined]
    return world._by_id[qid].need  # type: ignore[attr-defined]


# ----------------------------------------------------------------------------- printing

def _f(x: float) -> str:
    return "–" if x != x else f"{x:.3f}"


def _mark(ok: bool | None) -> str:
    return "" if ok is None else (" ✓" if ok else " ✗")


def corpus_markdown(name: str, world: World, results: list[dict[str, Any]], er_queries: int | None) -> list[str]:
    out = [f"## Corpus `{name}`", ""]
    n = len(world.recs)
    groups = len({r.group_id for r in world.recs})
    ans = sum(1 for r in world.recs if r.need and all(world.truth.stated_in(k, set(world.docs)) for k in r.need))
    out += [f"{n} queries in {groups} semantic groups, {len(world.docs)} documents; "
            f"{ans} queries ({ans / n:.1%}) answerable from the whole corpus by the writer's truth."
            + (f" The er pipeline ran on a smaller dataset of {er_queries} queries." if er_queries else ""), ""]
    out += ["### Headline: per-verdict precision / recall (support), unsure share", "",
            "Target: every verdict P ≥ 0.90 and R ≥ 0.90 (an unsure verdict counts as wrong for recall); "
            "unsure ≤ 10 %.", "",
            "| scenario | queries | " + " | ".join(f"{v} P / R (n)" for v in VERDICTS) + " | unsure |",
            "|---|---:|" + "---|" * len(VERDICTS) + "---:|"]
    for r in results:
        s: Scores = r["scores"]
        cells = []
        for v in VERDICTS:
            p, rc = s.precision(v), s.recall(v)
            ok = None if (p != p and rc != rc) else ((p != p or p >= 0.9) and (rc != rc or rc >= 0.9))
            cells.append(f"{_f(p)} / {_f(rc)} ({s.support(v)}){_mark(ok)}")
        out.append(f"| {r['scenario']} | {r['queries']} | " + " | ".join(cells)
                   + f" | {s.unsure_share:.1%}{_mark(s.unsure_share <= 0.10)} |")
    out += ["", "n = queries whose truth is that verdict. ✓ / ✗: the target met / missed.", ""]
    if any(r.get("probes", {}).get("documents") for r in results):
        out += ["### Probes: evidence documents no query retrieved, asked for in their own words", "",
                "A document *found* came back to a probe (ragdx: in the index); *not found*: no probe brought "
                "it back though each returned contexts (ragdx: likely absent). Against the truth: found yet "
                "deleted, not found yet present (both errors).", "",
                "| scenario | documents | probes (failed) | found | found but deleted | not found "
                "| not found but present |", "|---|---:|---:|---:|---:|---:|---:|"]
        for r in results:
            p = r.get("probes") or {}
            if p.get("documents"):
                out.append(f"| {r['scenario']} | {p['documents']} | {p['probes']} ({p['failed']}) | {p['found']} | "
                           f"{p['found_deleted']} | {p['not_found']} | {p['not_found_present']} |")
        out.append("")
    out += ["### Linking and kb_supported (the corpus scorer's definitions, against what the system searches)", "",
            "Targets: gold-document P ≥ 0.95, R ≥ 0.90; kb_supported accuracy ≥ 0.95.", "",
            "| scenario | docs deleted | gold P | gold R | tp / fp / fn | kb_supported acc. | truth/ragdx: count |",
            "|---|---:|---:|---:|---|---:|---|"]
    for r in results:
        lk = r["linking"]
        out.append(f"| {r['scenario']} | {r['deleted_docs']} | {_f(lk['precision'])}{_mark(lk['precision'] >= 0.95)} | "
                   f"{_f(lk['recall'])}{_mark(lk['recall'] >= 0.90)} | {lk['tp']} / {lk['fp']} / {lk['fn']} | "
                   f"{_f(lk['kb_supported_accuracy'])}{_mark(lk['kb_supported_accuracy'] >= 0.95)} | "
                   + ", ".join(f"{k}: {v}" for k, v in lk["kb_confusion"].items()) + " |")
    out += ["", "### Judge: right answers written in the corpus's formats, and wrong answers", "",
            "Targets: accepts ≥ 0.98 of right answers, 0 wrong ones. *Right* = right by construction (the "
            "surface the writer used for the value, or the database's value where no retrieved statement "
            "writes it); *wrong* = LM faults (another entity's value, hedge, partial); \"don't know\" apart.", "",
            "| scenario | right, corpus's forms, accepted | right, database's value, accepted | wrong accepted "
            "| \"don't know\" accepted |", "|---|---:|---:|---:|---:|"]
    for r in results:
        j = r["judge"]
        a, b = j["right_corpus_forms"]
        a2, b2 = j["right_db_value"]
        c, d = j["wrong"]
        e, f_ = j["dont_know"]
        if r["scenario"].startswith("built-in"):  # right by containment of the writer's surfaces, not by construction
            a, b = j["right"]
            a2 = b2 = 0
        out.append(f"| {r['scenario']} | {a}/{b} = {_f(a / b if b else float('nan'))}"
                   f"{_mark(None if not b else a / b >= 0.98)} | {a2}/{b2} | {c}/{d}{_mark(None if not d else c == 0)}"
                   f" | {e}/{f_} |")
    # by form, over the oracle scenarios
    by_form: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    wrong_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in results:
        if r["scenario"].startswith("built-in"):
            continue
        for k, (a, b) in r["judge"]["right_by_form"].items():
            by_form[k][0] += a
            by_form[k][1] += b
        for k, (a, b) in r["judge"]["wrong_by_kind"].items():
            wrong_kind[k][0] += a
            wrong_kind[k][1] += b
    out += ["", "Right answers accepted by the form of the surface (all simulated scenarios together): "
            + "; ".join(f"{k} {a}/{b}" for k, (a, b) in sorted(by_form.items(), key=lambda kv: -kv[1][1])) + ".",
            "", "Wrong answers accepted by kind: "
            + "; ".join(f"{k} {a}/{b}" for k, (a, b) in sorted(wrong_kind.items())) + ".", ""]
    out += ["<details><summary>Confusion tables (truth ↓, ragdx →) and the commonest disagreements</summary>", ""]
    for r in results:
        s = r["scores"]
        cols = [*VERDICTS, UNSURE]
        inj = ", ".join(f"{k} {v}" for k, v in r["injected"].items()) or "none"
        out += [f"#### {r['scenario']}", "",
                f"{r['queries']} queries, {r['answerable']} answerable from the corpus searched; injected: {inj}.", "",
                "| truth ↓ / ragdx → | " + " | ".join(cols) + " | recall |", "|---|" + "---:|" * (len(cols) + 1)]
        for t in VERDICTS:
            out.append(f"| {t} | " + " | ".join(str(s.confusion[(t, g)]) for g in cols) + f" | {_f(s.recall(t))} |")
        out.append("| precision | " + " | ".join(_f(s.precision(g)) for g in VERDICTS) + " | | |")
        top = r["disagreements"].most_common(6)
        if top:
            out += ["", "Commonest disagreements (truth → ragdx, ragdx's basis): "
                    + "; ".join(f"{t} → {v} ({b or '?'}) {c}" for (t, v, b), c in top) + "."]
        out.append("")
    out += ["</details>", ""]
    return out


def cpu_model() -> str:
    try:
        text = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        m = re.search(r"Model name:\s*(.+)", text)
        cores = re.search(r"^CPU\(s\):\s*(\d+)", text, re.M)
        return (m.group(1).strip() if m else "unknown") + (f", {cores.group(1)} CPUs" if cores else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown (no lscpu)"


def _provenance() -> str:
    """Which ragdx ran: the repository's commit and whether its src/ had uncommitted changes, or a
    copy elsewhere (``git archive HEAD src`` on PYTHONPATH, to measure what is committed)."""
    import ragdx

    where = Path(ragdx.__file__).resolve().parents[1]
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "src"], cwd=ROOT, capture_output=True,
                               text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        head, dirty = "?", ""
    if where == (ROOT / "src").resolve():
        return f"ragdx from this repository's src/ at {head}" + (" with uncommitted changes in src/" if dirty else "")
    stamp = where.parent / "COMMIT"  # written beside an archived src/ (see benchmarks/README.md)
    if stamp.exists():
        return f"ragdx from src/ of commit {stamp.read_text().strip()} (git archive, imported from {where})"
    return f"ragdx imported from {where} (repository HEAD {head})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", action="append", type=Path,
                    help="corpus folder (docs/, truth.json, score_linking.py); repeatable")
    ap.add_argument("--db", action="append", type=Path, help="its SQLite database (one per --corpus, in order)")
    ap.add_argument("--max-groups", type=int, default=6, help="semantic groups per SQL template (ragdx gen's cap)")
    ap.add_argument("--templates", type=int, default=0, help="keep this many SQL templates (0: all)")
    ap.add_argument("--er-groups", type=int, default=2, help="groups per template for the er pipeline (0: skip it)")
    ap.add_argument("--scenarios", default="", help="comma-separated scenario numbers to run (default: all)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--n-boot", type=int, default=100, help="ragdx evaluate's bootstrap (not used by the figures)")
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "ragdx-blame-truth")
    ap.add_argument("--out", type=Path, default=None, help="write the Markdown here")
    ap.add_argument("--json", type=Path, default=None, help="write the figures as JSON here")
    ap.add_argument("--no-probe", action="store_true", help="no probes after each run (ragdx run --no-probe)")
    ap.add_argument("--dump-judge", type=Path, default=None,
                    help="append the judge's mistakes (right answers rejected, wrong ones accepted) here as JSONL; "
                         "a held-out corpus's (HELD_OUT in its folder) are not written")
    a = ap.parse_args(argv)
    global JUDGE_DUMP
    JUDGE_DUMP = a.dump_judge

    corpora = [c.resolve() for c in (a.corpus or [DEFAULT_CORPUS])]
    dbs = [d.resolve() for d in (a.db or ([DEFAULT_DB] if not a.corpus else []))]
    if not a.corpus and not SHARED.exists():
        print(f"blame_truth: {SHARED} is absent (the reference data); nothing to measure", file=sys.stderr)
        return 2
    if len(dbs) != len(corpora):
        print("blame_truth: give one --db per --corpus", file=sys.stderr)
        return 2
    for c, d in zip(corpora, dbs, strict=True):
        missing = [str(p) for p in (c / "truth.json", c / "score_linking.py", c / "docs", d) if not p.exists()]
        if missing:
            print(f"blame_truth: missing {', '.join(missing)}", file=sys.stderr)
            return 2
    chosen = [SCENARIOS[int(i) - 1] for i in a.scenarios.split(",") if i.strip()] if a.scenarios else list(SCENARIOS)
    if not a.er_groups:
        chosen = [s for s in chosen if s.retriever != "er"]
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")

    t0 = time.perf_counter()
    md: list[str] = []
    figures: dict[str, Any] = {}
    for corpus, db in zip(corpora, dbs, strict=True):
        name = corpus.resolve().name if corpus.resolve().name != "corpus" else corpus.resolve().parent.name
        work = a.work / name
        print(f"{name}: dataset (max {a.max_groups} groups per template, templates {a.templates or 'all'})")
        world, ds = load_world(corpus, db, work, a.max_groups, a.templates, a.seed)
        er_world = None
        if any(s.retriever == "er" for s in chosen):
            er_ds, er_db = make_dataset(work / "er", corpus, db, a.er_groups, a.templates, a.seed)
            scorer = world.scorer
            er_world = (World(corpus, er_db, scorer, world.truth, world.docs,
                              load_records(er_ds, scorer, scorer.Needs(str(er_db)))), er_ds)
        results = [run_scenario(world, ds, sc, work, a.n_boot, er_world, probe=not a.no_probe) for sc in chosen]
        md += corpus_markdown(name, world, results, len(er_world[0].recs) if er_world else None)
        figures[name] = [{"scenario": r["scenario"], "queries": r["queries"], "unsure_share": r["scores"].unsure_share,
                          "verdicts": {v: {"precision": r["scores"].precision(v), "recall": r["scores"].recall(v),
                                           "support": r["scores"].support(v)} for v in VERDICTS},
                          "confusion": {f"{t}->{g}": c for (t, g), c in r["scores"].confusion.items()},
                          "linking": r["linking"], "judge": r["judge"], "injected": r["injected"],
                          "probes": r["probes"]}
                         for r in results]
    elapsed = time.perf_counter() - t0
    pp = f"PYTHONPATH={os.environ['PYTHONPATH']} " if os.environ.get("PYTHONPATH") else ""
    cmd = pp + "OMP_WAIT_POLICY=passive HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/blame_truth.py " + " ".join(
        argv if argv is not None else sys.argv[1:])
    head = ["# Blame accuracy against the corpus writer's truth", "",
            f"`{cmd.strip()}`", "",
            f"CPU: {cpu_model()}. {_provenance()}. {elapsed / 60:.1f} min in all (datasets made with the CLI "
            "and cached in `--work`; this time includes making them unless they were cached).", "",
            "The truth of every query comes from the corpus's `truth.json` (what the writer recorded as each "
            "statement was written) and its `score_linking.py` (`Needs`: the facts each answer row needs), "
            "never from ragdx's linking, judge or verdicts; no query is dropped. See `benchmarks/blame_truth.py` "
            "for the systems and how each query's truth is decided.", ""]
    text = "\n".join(head + md)
    print(text)
    if a.out:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(text, encoding="utf-8")
    if a.json:
        a.json.write_text(json.dumps(figures, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
