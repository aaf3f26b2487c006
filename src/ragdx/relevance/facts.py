"""Whether the corpus states, beside what a question names, the kind of fact the question asks.

The names statistic (:mod:`ragdx.relevance.names`) finds a question about an entity the corpus
never writes. It cannot find one whose entity is written but whose asked fact was left out ("the
fax number of 'Alfreds Futterkiste'" where the customer's page gives no fax): the name is there.
What differs is the text *around* the name. Answerable questions of the same kind ("the fax
number of Y" for other Y) find, around Y, words and value shapes the answer comes with (a "Fax"
column, a ``(ddd) ddd-dddd`` pattern); a question whose fact is missing finds its entity's
context without them.

``FactIndex`` learns that from the calibration questions, with no list of attributes or values:

* a name's *context* is, in every chunk that writes the whole name, the lines writing it, the
  first line of a table-like block holding such a line (a table's header: its column names; in a
  markdown table only the columns the name's row fills, an empty "Price" cell stating no price),
  the whole paragraph when the block is prose, and the section under a heading that writes it (its
  rows with no value left out);
* a context's *features* are its words (casefolded, cut to their first five letters: a crude stem)
  and the shapes of its tokens holding digits (``1948-12-08`` -> ``dddd-dd-dd``);
* a question's *kind* is its wording with its names removed; its neighbours are the ``m``
  calibration questions closest in kind (TF-IDF cosine), leaving out those sharing a name with it
  (paraphrases of the same question: scored alike for calibration and new questions, so the
  calibration scores stay exchangeable with an in-knowledge question's);
* a feature is *expected* as much as it is commoner in the neighbours' contexts than in all
  calibration contexts (weight ``max(0, p_neighbours - p_all)``); ``score`` is the expected
  weight the question's own context lacks, as a share of the expected weight: 0 when everything
  its kind comes with is there, 1 when nothing is (or the name is not written at all).

Limits, measured: the context is the entity's, whatever is asked, and a kind's neighbours are
mostly questions of other kinds (on Northwind's sets 15 % of the 15 nearest ask the same
columns), so the score says more "this entity is written about less than entities asked alike"
than "this fact is missing"; asked about an entity whose birth date is left out, its stated city
scores about as high as the missing birth date. On the "fact left out" questions of Northwind,
Kestrel and Wexcombe Press (the last not developed on) it reaches AUROC 0.61-0.66
(benchmarks/results/relevance_indomain.md), short of issue 25's 0.80: hence off by default.

A question without names scores 0 (nothing to look beside). p-values come from the calibration
questions' own scores (``statistics.empirical_p_values``) like the other statistics'.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from ragdx.errors import RagdxError
from ragdx.relevance.names import NameIndex, name_spans, tokens

#: calibration questions of the nearest kind whose contexts say what the kind comes with
NEIGHBOURS = 15
#: a heading line ("## Orders"); its section runs to the next heading of its level or above
_HEADING = re.compile(r"^(#{1,6})\s+\S")
_DIGITS = re.compile(r"\d")
_STRIP = ".,;:()[]|\"'"


def features(text: str, headers: str = "") -> frozenset[str]:
    """Word stems (first five letters, words of three or more letters) and digit-token shapes of
    the lines ``text`` and the column names ``headers``."""
    out = set()
    for raw in (text + "\n" + headers).split():
        if _DIGITS.search(raw):
            shape = re.sub(r"\d", "d", raw.strip(_STRIP))
            out.add("#" + re.sub(r"d{5,}", "ddddd", shape))
    out.update(t[:5] for t in tokens(text + "\n" + headers) if t.isalpha() and len(t) >= 3)
    return frozenset(out)


def _contains(seq: list[str], sub: list[str]) -> bool:
    n = len(sub)
    return any(seq[i:i + n] == sub for i in range(len(seq) - n + 1))


def _blocks(lines: list[str]) -> list[list[int]]:
    """Line numbers of the blank-line separated blocks."""
    out: list[list[int]] = []
    cur: list[int] = []
    for i, line in enumerate(lines):
        if line.strip():
            cur.append(i)
        elif cur:
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out


def _table_like(lines: list[str], block: list[int]) -> bool:
    """A table (markdown or fixed-width) or a list: short lines, one record each."""
    first = lines[block[0]].lstrip()
    return first.startswith("|") or (len(block) >= 3 and all(len(lines[i]) < 200 for i in block))


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


#: what an unfilled cell holds
_BLANK = {"", "-", "--", "—", "–", "n/a", "na", "none", "null", "?"}


def _empty_row(line: str) -> bool:
    """A markdown row whose cells after the first are all blank ("| Region |  |")."""
    return line.lstrip().startswith("|") and all(c.casefold() in _BLANK for c in _cells(line)[1:])


def _filled_columns(header: str, row: str) -> str:
    """The header's column names whose cell the row fills (a markdown table), else the header."""
    if not (header.lstrip().startswith("|") and row.lstrip().startswith("|")):
        return header
    heads, cells = _cells(header), _cells(row)
    if len(heads) != len(cells):
        return header
    return " | ".join(h for h, c in zip(heads, cells, strict=True) if c.casefold() not in _BLANK)


class FactIndex:
    """The corpus's chunks, line by line, with a :class:`NameIndex` to find where a name is written."""

    def __init__(self, texts: Sequence[str], names: NameIndex | None = None, *, neighbours: int = NEIGHBOURS):
        self.texts = list(texts)
        self.names = names or NameIndex(self.texts)
        self.neighbours = neighbours
        self._lines = [t.split("\n") for t in self.texts]
        self._cache: dict[str, frozenset[str]] = {}

    def context(self, name: str) -> frozenset[str]:
        """The features of the text written around ``name`` (empty when no chunk writes it whole)."""
        if name in self._cache:
            return self._cache[name]
        want = tokens(name)
        _, chunks = self.names.coverage(name)
        picked: list[str] = []
        headers: list[str] = []
        for c in chunks:
            lines = self._lines[int(c)]
            hits = {i for i, line in enumerate(lines) if _contains(tokens(line), want)}
            for i in sorted(hits):
                heading = _HEADING.match(lines[i])
                (headers if heading else picked).append(lines[i])
                if heading:  # the section under it is about the name; a row with no value says nothing
                    for line in lines[i + 1:]:
                        other = _HEADING.match(line)
                        if other and len(other.group(1)) <= len(heading.group(1)):
                            break
                        if not _empty_row(line):
                            picked.append(line)
            for block in _blocks(lines):
                if not _table_like(lines, block):
                    if hits & set(block):
                        picked.extend(lines[j] for j in block)  # a paragraph: its other sentences
                    continue
                for i in sorted(hits & set(block[1:])):
                    # the header's columns, those the name's row fills when it is a markdown table:
                    # an empty "Price" cell is a price the corpus does not state
                    headers.append(_filled_columns(lines[block[0]], lines[i]))
        self._cache[name] = features("\n".join(picked), "\n".join(headers))
        return self._cache[name]

    def question_names(self, question: str) -> list[str]:
        style = self.names.style
        return [n for n in dict.fromkeys(name_spans(question)) if n.casefold() not in style]

    def question_context(self, question: str) -> frozenset[str]:
        out: frozenset[str] = frozenset()
        for name in self.question_names(question):
            out |= self.context(name)
        return out

    def _kind(self, question: str) -> str:
        """The wording without the names: what is asked, not about whom."""
        for name in sorted(self.question_names(question), key=len, reverse=True):
            question = question.replace(name, " ")
        return question

    def fit(self, calibration: Sequence[str]) -> FactIndex:
        """Learn, from in-knowledge questions, what each kind of question finds beside its names."""
        from sklearn.feature_extraction.text import TfidfVectorizer

        calibration = list(calibration)
        if not calibration:
            raise RagdxError("the facts statistic needs calibration questions", field="calibration")
        self.vectorizer_ = TfidfVectorizer(sublinear_tf=True, token_pattern=r"(?u)\b[^\W\d_]{2,}\b")
        self.kinds_ = self.vectorizer_.fit_transform([self._kind(q) for q in calibration])
        self.contexts_ = [self.question_context(q) for q in calibration]
        self.name_sets_ = [frozenset(n.casefold() for n in self.question_names(q)) for q in calibration]
        counts: dict[str, int] = {}
        for ctx in self.contexts_:
            for f in ctx:
                counts[f] = counts.get(f, 0) + 1
        self.background_ = {f: c / len(calibration) for f, c in counts.items()}
        return self

    def scores(self, questions: Sequence[str]) -> np.ndarray:
        """Per question: the share of what its kind's answerable questions find beside their names
        that its own names lack (0 = all there, 1 = none); 0 for a question without names."""
        questions = list(questions)
        out = np.zeros(len(questions))
        if not questions:
            return out
        sims = (self.vectorizer_.transform([self._kind(q) for q in questions]) @ self.kinds_.T).toarray()
        for i, q in enumerate(questions):
            own = frozenset(n.casefold() for n in self.question_names(q))
            if not own:
                continue
            sim = sims[i]
            # the same entity's other questions (paraphrases) would vouch for their own context
            sim[[j for j, names in enumerate(self.name_sets_) if names & own]] = -np.inf
            near = np.argsort(-sim, kind="stable")[: self.neighbours]
            near = near[np.isfinite(sim[near])]
            ctx = self.question_context(q)
            out[i] = self._missing(ctx, near)
        return out

    def _missing(self, ctx: frozenset[str], near: np.ndarray) -> float:
        counts: dict[str, int] = {}
        for j in near:
            for f in self.contexts_[int(j)]:
                counts[f] = counts.get(f, 0) + 1
        # what this kind finds more often than any question does: the kind's own words and value
        # shapes, not those every context holds
        weights = {f: c / max(len(near), 1) - self.background_.get(f, 0.0) for f, c in counts.items()}
        weights = {f: w for f, w in weights.items() if w > 0}
        total = sum(weights.values())
        if total == 0:
            return 0.0
        return sum(w for f, w in weights.items() if f not in ctx) / total
