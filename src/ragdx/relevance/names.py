"""Whether the corpus names what a question names: a coverage statistic for the knowledge boundary.

The paper's statistics look at how close a question's embedding lies to the corpus. Inside one
company's domain that cannot tell an answerable question from one about a customer the corpus
never mentions: both use the same words for the same kinds of thing, and only the name differs
(on Northwind's corpus the Energy statistic scores 0.46 AUROC there, below chance). What does
differ is plain to a reader: the name itself appears nowhere, or the two things a question ties
together (an order and a product, a payment and a customer) never appear in one passage.

``NameIndex`` reads both off the corpus:

* the *names* of a question are its quoted strings (``'Alfreds Futterkiste'``), its numbers and
  codes (``10248``, ``ALFKI``, ``P-1``: tokens holding a digit), and its capitalised word runs
  that do not start a sentence (``Queso Cabrales``), the pronoun "I" aside;
* a name's *coverage* is the longest run of its tokens found contiguously anywhere in the corpus,
  as a share of its tokens (casefolded, Unicode-normalised): 1 when the name is written, 0 when
  none of its words is;
* ``score = max over names of w (1 - coverage) + [the fully written quoted names and codes never
  share a chunk]``, with w = 1 for a quoted name or a code and 1/2 for a capitalised run (which
  may be small talk: "since Monday"),
  in [0, 2]; larger means less covered. A question with no name scores 0: this statistic has
  nothing to say about it, and the embedding statistics still do.

Scores are turned into p-values like the paper's statistics, against in-knowledge calibration
questions (``statistics.empirical_p_values``), so a p-value stays valid whatever the corpus; see
``RelevanceTester(names=True)``, which combines it with the chosen statistic by Bonferroni.

Memory: one int32 token id per corpus token and one int64 position per token (about 12 bytes a
token: 120 MB for a corpus of 10 million words).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

import numpy as np

from ragdx.kb.normalise import QUOTED_NAME

#: a token: letters/digits, with inner apostrophes, dots and hyphens ("d'érable", "o'brien", "p-1")
_TOKEN = re.compile(r"\w+(?:[.'’-]\w+)*")
#: a number or code: a token holding a digit
_CODE = re.compile(r"(?<![\w'’-])\w*\d[\w'’.-]*\w|(?<![\w'’-])\d(?![\w'’-])")
#: a run of capitalised words, allowing the lower-case particles names carry ("Côte de Blaye")
_CAPITALISED = re.compile(r"\b[^\W\d_a-z][\w'’.-]*(?:\s+(?:(?:de|la|le|du|des|del|da|di|en|von|van|der|den|y|of|"
                          r"and|&)\s+)*[^\W\d_a-z][\w'’.-]*)*")
#: where a sentence starts: its first word is capitalised whatever it is
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+|\n\s*)")


#: the weight of a capitalised run's missing share against a quoted name's or a code's
IMPLICIT_WEIGHT = 0.5
#: a capitalised run in this share of the calibration questions (and at least this many) is the
#: wording's, not a name (see ``NameIndex.learn_style``)
STYLE_SHARE, STYLE_MINIMUM = 0.01, 5


def tokens(text: str) -> list[str]:
    """Casefolded, NFKC-normalised word tokens (the corpus and the names alike)."""
    return _TOKEN.findall(unicodedata.normalize("NFKC", text).casefold())


def name_spans(question: str) -> list[str]:
    """The names a question uses: quoted strings, numbers and codes, capitalised word runs."""
    return [name for name, _ in _names(question)]


def _names(question: str) -> list[tuple[str, bool]]:
    """(name, explicit): quoted strings and codes are explicit references to one thing; a
    capitalised run may be a weekday or a team in the question's small talk ("since Monday")."""
    out = [(m.group(1), True) for m in QUOTED_NAME.finditer(question)]
    rest = QUOTED_NAME.sub(" , ", question)
    out += [(m.group(0), True) for m in _CODE.finditer(rest)]
    starts = {m.end() for m in _SENTENCE_START.finditer(rest)}
    for m in _CAPITALISED.finditer(rest):
        words = m.group(0).split()
        if m.start() in starts:
            words = words[1:]  # "What", "Before", "Please": capitalised because they start a sentence
        words = [w for w in words if w != "I"]
        while words and words[0].islower():
            words = words[1:]  # a particle left leading once the first word went
        if words and not any(ch.isdigit() for ch in " ".join(words)):  # codes were taken above
            out.append((" ".join(words), False))
    return [(s, explicit) for s, explicit in out if tokens(s)]


class NameIndex:
    """The corpus's token stream with, per token, where it occurs: enough to find the longest
    written run of a name's tokens and the chunks that write a whole name."""

    def __init__(self, texts: Iterable[str]):
        vocab: dict[str, int] = {}
        ids: list[int] = []
        starts: list[int] = []
        for text in texts:
            starts.append(len(ids))
            ids.extend(vocab.setdefault(t, len(vocab)) for t in tokens(text))
            ids.append(-1)  # a chunk boundary: no run crosses it
        self.vocab = vocab
        self.ids = np.asarray(ids, dtype=np.int32)
        self.chunk_starts = np.asarray(starts, dtype=np.int64)
        self.style: frozenset[str] = frozenset()
        self._build_postings()

    def learn_style(self, questions: Sequence[str], *, share: float = STYLE_SHARE, minimum: int = STYLE_MINIMUM
                    ) -> frozenset[str]:
        """The capitalised runs of the questions' own style: those in at least ``share`` of the
        in-knowledge ``questions`` (and ``minimum`` of them), such as "Monday" in "since Monday"
        or "ID" in "visit ID '258'". One entity is asked about in a handful of questions (its
        group's phrasings); a word of the wording recurs across every entity. Quoted names and
        codes are never style. Learned from the calibration questions, whose scores then use it
        too: one question more or less moves a word's share by 1/n, so the p-values stay valid
        to that order."""
        counts: dict[str, int] = {}
        for q in questions:
            for name in {n.casefold() for n, explicit in _names(q) if not explicit}:
                counts[name] = counts.get(name, 0) + 1
        cut = max(minimum, share * len(questions))
        self.style = frozenset(n for n, c in counts.items() if c >= cut)
        return self.style

    @classmethod
    def from_arrays(cls, vocab: Sequence[str], ids: np.ndarray, chunk_starts: np.ndarray) -> NameIndex:
        """An index saved with :meth:`arrays` (a saved tester)."""
        self = cls.__new__(cls)
        self.style = frozenset()
        self.vocab = {t: i for i, t in enumerate(vocab)}
        self.ids = np.asarray(ids, dtype=np.int32)
        self.chunk_starts = np.asarray(chunk_starts, dtype=np.int64)
        self._build_postings()
        return self

    def arrays(self) -> tuple[list[str], np.ndarray, np.ndarray]:
        """(vocabulary in id order, token ids, chunk start offsets): what :meth:`from_arrays` reads."""
        vocab = [""] * len(self.vocab)
        for t, i in self.vocab.items():
            vocab[i] = t
        return vocab, self.ids, self.chunk_starts

    def _build_postings(self) -> None:
        # the positions of every token, grouped by token and ascending within a token: a stable
        # sort of the stream by id; boundaries (-1) sort first and are skipped by the offsets
        order = np.argsort(self.ids, kind="stable")
        self._order = order
        n_vocab = len(self.vocab)
        counts = np.bincount(self.ids[self.ids >= 0], minlength=n_vocab) if n_vocab else np.zeros(0, np.int64)
        first = int(np.sum(self.ids < 0))
        self._offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64) + first

    @property
    def n_chunks(self) -> int:
        return int(self.chunk_starts.shape[0])

    def _positions(self, token_id: int) -> np.ndarray:
        return self._order[self._offsets[token_id]:self._offsets[token_id + 1]]

    def coverage(self, name: str) -> tuple[float, np.ndarray]:
        """(share of the name's tokens in its longest written run, chunks writing the whole name)."""
        ids = [self.vocab.get(t, -1) for t in tokens(name)]
        if not ids:
            return 1.0, np.zeros(0, dtype=np.int64)
        best, whole = 0, np.zeros(0, dtype=np.int64)
        for i in range(len(ids)):
            if len(ids) - i <= best:
                break
            if ids[i] < 0:
                continue
            run = self._positions(ids[i])  # positions where a run starting at token i has reached j
            length = 1
            for j in range(i + 1, len(ids)):
                if ids[j] < 0:
                    break
                nxt = run[self.ids[np.minimum(run + 1, len(self.ids) - 1)] == ids[j]] + 1
                if nxt.size == 0:
                    break
                run, length = nxt, length + 1
            if length > best:
                best = length
                if i == 0 and length == len(ids):
                    whole = np.unique(np.searchsorted(self.chunk_starts, run, side="right") - 1)
        return best / len(ids), whole

    def scores(self, questions: Sequence[str]) -> np.ndarray:
        """Per question: max over its names of (1 - coverage), plus 1 when two or more fully written
        explicit names (quoted, codes) never share a chunk; 0 for a question without names.
        Larger = less covered."""
        out = np.zeros(len(questions), dtype=np.float64)
        for q, text in enumerate(questions):
            missing, chunk_sets = 0.0, []
            for name, explicit in dict.fromkeys(_names(text)):
                if not explicit and name.casefold() in self.style:
                    continue
                share, chunks = self.coverage(name)
                # a capitalised word may be the question's small talk ("since Monday", "ID"): it
                # counts half, so a quoted name or code the corpus lacks always ranks above it
                missing = max(missing, (1.0 - share) * (1.0 if explicit else IMPLICIT_WEIGHT))
                if share == 1.0 and explicit:
                    chunk_sets.append(chunks)
            apart = 0.0
            if len(chunk_sets) > 1:
                common = chunk_sets[0]
                for chunks in chunk_sets[1:]:
                    common = np.intersect1d(common, chunks, assume_unique=True)
                apart = float(common.size == 0)
            out[q] = missing + apart
        return out
