"""Evidence linking: which passages of the user's own documents state each fact a record needs.

A record's facts are ``Table.Column@key`` (the answer's column and every hop of a join). For each
one the database gives the *subject* (the entity the fact is about, by every name a person calls
it: its name — a person's in full, a surname no one else has, an initial no namesake shares —,
a text code, "noun + key" such as "project 1110", a unique short attribute beside the table's noun
such as "the Leeds office", a pair of its other values for a row with only a number, aliases from
``ragdx.yaml``) and the *value*. Documents are cut into blocks by their structure
(:mod:`ragdx.kb.structure`: headings, table rows with their header, cards, lists, trees), each
read under its context. A block states the fact when, after normalisation (:mod:`ragdx.kb.normalise`):

1. one of its sentences (a row, a card line) names the subject and states the value ("Hedy Lamarr,
   serving as the Project Manager, ..."), weight 1; or
2. what it is read under names the subject — a heading, a table's caption, the card's first
   entity, a parent line in a tree, the question an answer follows, the paragraph a pronoun
   points back to, or the document being *about* the subject (its id or title, or its first real
   sentence names it) — and the block states the value, weight 0.9, unless a paragraph opens by
   naming another entity of the subject's table; or the block names the subject and its heading
   states the value (a product row under its category's heading), 0.9; or
3. the paragraph's opening sentence names the subject and a later one states the value ("Skyline
   Developers is a Dubai firm. It was founded in 1999."), weight 0.8.

The value must be stated outside the subject's name and outside any other entity's longer name
("Hamburg" in "Hamburg Wasserwerke Nord"), a number under a header that does not name another
column, and the weight is multiplied by the value's own. A fact counts as stated from weight 0.5;
a value written at a lower precision (a month for a day) is *approximate*: its documents are
evidence (gold), but the record is not supported (``kb_basis`` ``approximate``). Two entities of
one table named in one sentence (a director and a manager) do not say which relation holds
between them: such a match weighs 0.45 and does not count on its own (a tree's parent line does).

A name is not a mention where a person would not read one: inside a longer name the database does
not know ("Around the Horn Travel Ltd"; in a heading only before a word heading a firm's or venue's
name, "The Isle of Rona Hotel"), or named to deny it ("NOT our customer Around the Horn"). A sentence
naming a row of a table that links subject and value another way ("at project 1114 (visit #220)")
states that row's relation; names side by side in a list ("Present: ...") or a message's From:/To:
lines state no relation between them.

Naming the subject without the value is not evidence of the fact (the key value alone says
nothing about the answer), and a value without its subject is not either. A fact that only
identifies an entity (its name column, a surrogate key used by a join) is stated by the
documents about the entity and never makes a record unsupported on its own; when a record's
facts are only such names (who works at BP, through an association table), the answer is the
relation between the named entities: the entity the query names and each answer entity must be
stated together.

Per record: ``evidence_sets`` (one list of documents per answer fact; retrieval "has the evidence"
when it holds one document of every list), ``gold_document_ids`` (their union), ``evidence_spans``,
``evidence_confidence`` (the weakest fact's best weight), ``kb_supported`` (True: every fact
stated; False: searched and some fact not stated; None: cannot tell) and ``kb_basis``:

- ``linked`` / ``unlinked``: the two outcomes of a search;
- ``not_linkable``: a fact cannot be looked for (its row is gone from the database, or its value
  is a bare surrogate id no document would print), so support cannot be told;
- ``unanswerable``: the record has no answer row (answer_kind ``none``): there is no fact to
  state (``kb_supported`` None).

A NULL value is searched for as a statement of absence ("X has no recorded office", "X has no
office"); a corpus that does not say so does not state the answer (``unlinked``).

Answer sets (``multi``): every row's facts are facts the answer needs, so a complete answer set is
supported only when each member is stated.

Candidates come from an inverted index over passage tokens and from the subject's side (the
passages naming it or in documents about it), so linking scales with the number of facts, not
facts × passages.
"""

from __future__ import annotations

import bisect
import copy
import functools
import itertools
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ragdx.errors import RagdxError
from ragdx.gen.kinds import COMPLETENESS_KINDS
from ragdx.kb.normalise import (
    COLUMN_FILLER_WORDS,
    HONORIFICS,
    MONTH_ABBREVIATIONS,
    PLACE_KINDS,
    SEP,
    YEARLESS_DATE,
    YES_NO_MARKS,
    Variant,
    flag_value,
    flag_variants,
    normalised_passage,
    phrase,
    plural_phrase,
    sentences,
    singular_phrase,
    text_variants,
    tokens,
    value_variants,
    yearless_day_month,
)
from ragdx.kb.structure import KEY_VALUE, Block, blocks, definition_lines, split_cells, unquoted, windows
from ragdx.rag.corpus import Corpus

#: weight of a match through the document's subject (rule 2) relative to one in a sentence (rule 1)
TOPIC_WEIGHT = 0.9
#: weight of a match through the subject named in the paragraph's opening sentence
LEAD_WEIGHT = 0.8
#: weight of two entities of one table named in a sentence, for a relation between them
PEER_WEIGHT = 0.45
#: a fact counts as stated when its best match weighs at least this
MIN_WEIGHT = 0.5
#: weight of a person's name written by surname alone as a value ("Elgar" for Edward Elgar)
SURNAME_WEIGHT = 0.6
#: weight of a value stated in two documents through a label of theirs (a rate card and a band list)
SPLIT_WEIGHT = 0.8
#: passages longer than this (in words) are cut into windows of whole sentences
MAX_PASSAGE_WORDS = 160
#: spans kept per fact (the best ones), so a record stays small
SPANS_PER_FACT = 2
#: a text value of this many words or more (or of two sentences or more) is a long text, linked
#: sentence by sentence
LONG_TEXT_WORDS = 20


@dataclass(slots=True)
class Passage:
    doc: int
    start: int
    end: int
    #: normalised text: `` tok tok § tok `` (see :func:`ragdx.kb.normalise.normalised_passage`)
    norm: str
    #: the normalised text it is read under (headings above it, a table's caption and header, the
    #: paragraph a pronoun refers to), one sentence per piece; "" when none
    ctx: str = ""
    #: the block's kind (:mod:`ragdx.kb.structure`): para, row, card, item, heading
    kind: str = "para"
    #: a table row's header row (start, end) in the document, when the table has one
    header: tuple[int, int] | None = None
    #: a row's cells and its header's cells, normalised and padded, when they line up
    cells: tuple[str, ...] | None = None
    heads: tuple[str, ...] | None = None
    #: runs of capitalised words that read as one proper name ("Brackwater & Felby Food Bank
    #: Network", "Wexcombe Distribution"), normalised
    proper: tuple[str, ...] = ()
    #: the same runs in what the passage is read under (its headings)
    ctx_proper: tuple[str, ...] = ()


def _normalised_lines(text: str) -> str:
    """A table row or a card as normalised sentences, one per line: a cell's "D.F." or "Ms." never
    ends a sentence inside a row."""
    from ragdx.kb.normalise import tokens

    parts = [" ".join(tokens(line)) for line in text.splitlines()]
    return " " + f" {SEP} ".join(p for p in parts if p) + " "


def split_passages(text: str, max_words: int = MAX_PASSAGE_WORDS) -> list[tuple[int, int]]:
    """Character spans of the passages of a document: paragraphs (blank-line separated), a short
    heading joined to the paragraph it heads, long paragraphs cut into windows of whole sentences."""
    paras: list[list[int]] = []
    for m in re.finditer(r"\S(?:.*?\S)?(?=\s*\n\s*\n|\s*$)", text, flags=re.S):
        a, b = m.start(), m.end()
        chunk = text[a:b]
        heading = len(chunk.split()) <= 8 and not re.search(r"[.!?:;]\W*$", chunk) and "\n" not in chunk.strip()
        if paras and paras[-1][2]:
            paras[-1][1] = b  # the previous paragraph was a heading: this one joins it
            paras[-1][2] = heading
        else:
            paras.append([a, b, heading])
    return [w for a, b, _ in paras for w in windows(text, a, b, max_words)]


def _normalised_row(row: str, header: str) -> str:
    """A table row read with its header, cell by cell ("active no", "city madrid", "project 1030"
    under "Proj"), as one sentence: a cell whose meaning is its column ("no" under "Active") states
    it as a card line would."""
    from ragdx.kb.normalise import tokens

    cells, heads = split_cells(row), split_cells(header)
    if len(cells) != len(heads):
        return _normalised_lines(row)
    parts = []
    for h, c in zip(heads, cells, strict=True):
        head = [_ABBREVIATIONS.get(t, t) for t in tokens(h)] if not _ALTERNATIVES.search(h) else []
        # a yes/no cell written as a letter or a tick ("DBS  Y"): its header says what it is
        c = YES_NO_MARKS.get(c.strip().lower(), c)
        if tokens(c):
            # an empty cell states nothing, not even its header (a grid's site over a day with no
            # clinic there is not where that day's clinics run)
            parts.append(" ".join(head + tokens(c)))
    # the cells alone too: a name split over two cells ("Shaw | Graham" under "Surname | First
    # name") reads as "shaw graham" only without the headers between
    plain = " ".join(t for c in cells for t in tokens(c))
    return " " + plain + " " + " ".join(p for p in parts if p) + " "


def _word_before_label(text: str, words: frozenset[str], label: str) -> bool:
    """Does ``text`` write the label right after a word of its column, as a sentence's own words
    ("Account C-014.", "Account no. C-014"), not inside a name with the label in brackets after it
    ("General ENT Clinic (ENT-01)")?"""
    if not any(w in text.lower() for w in words):
        return False
    code = r"[\s-]*".join(map(re.escape, label.split()))
    pattern = rf"(?:^|[.;:!?]\s+|\n\s*)(?:{'|'.join(map(re.escape, words))})\s+(?:no\.?\s*|number\s+)?{code}(?![\w-])"
    return re.search(pattern, text, re.I) is not None


#: a header offering alternatives ("Author / editor", "Lead or deputy"): its words say which of
#: them a cell is no more than the cell does, so they are not read into it
_ALTERNATIVES = re.compile(r"\w\s*/\s*\w|\bor\b", re.I)

#: cells meaning "the same as the cell above"
_DITTO = {"〃", '"', "''", "”", "“", "do.", "do", "ditto", "-do-", "same", "id.", "ibid."}


def _ditto(row: str, above: dict[tuple[int, int], list[str]], header: tuple[int, int]) -> str:
    """``row`` with its ditto marks ("〃", "do.") replaced by the cell above, which is what they
    state; the row's cells are remembered for the next row of the same table."""
    cells = split_cells(row)
    prev = above.get(header)
    changed = False
    if prev is not None and len(prev) == len(cells):
        for i, c in enumerate(cells):
            if c.strip().lower() in _DITTO:
                cells[i] = prev[i]
                changed = True
    above[header] = cells
    if not changed:
        return row
    return "| " + " | ".join(cells) + " |" if "|" in row else "    ".join(cells)


#: a capitalised word (not an acronym: "UK", "GERMANY" follow a city as its country)
_CAP_WORD = r"[A-ZÀ-Þ](?=[\w'’-]*[a-zß-ÿ])[\w'’-]*"
#: capitalised words joined on one line, by spaces, "&" or a particle ("Bank of England", "Lord of the
#: Isles", "Around the Horn")
_PROPER_RUN = re.compile(rf"(?<![\w'’-]){_CAP_WORD}(?:(?:[ \t]+(?:&|of|the|de|du|la|le|van|von|der|den|da|di))*"
                         rf"[ \t]+{_CAP_WORD})+")


#: closed-class words, capitalised at a sentence's start ("On Rona.", "The London office"), not names
_FUNCTION_WORDS = frozenset("""a an the on in at to from for by with of off into onto near via per as and but or
    nor so our their his her its my your this that these those we they he she it i you there here
    all any each every some no not if when while after before since until during""".split())


def _title_case(text: str, *, named_only: bool = False) -> str:
    """Lines in capitals ("EILEAN DUBH HIGHLAND GAMES") with their words capitalised, so that their
    runs of names are read as in any other line; with ``named_only``, only a line ending with a
    word that heads a firm's, a venue's or an event's name ("RONA SEA TAXI": "PARIS FRANCE" is a
    city and its country)."""
    if not any(c.isupper() for c in text):
        return text
    out = []
    for line in text.split("\n"):
        words = line.split()
        if len(words) >= 2 and not any(c.islower() for c in line) and any(c.isalpha() for c in line) and (
                not named_only or phrase(words[-1]).strip() in _ORGANISATION_WORDS):
            line = line.title()
        out.append(line)
    return "\n".join(out)


def proper_names(text: str) -> tuple[str, ...]:
    """The runs of capitalised words in ``text`` that read as one name, normalised (a
    sentence's capitalised first word, "On", "The", is not part of it)."""
    out = []
    for m in _PROPER_RUN.finditer(text):
        words = m.group().split()
        while words and words[0].lower() in _FUNCTION_WORDS:
            words = words[1:]
        if len(words) >= 2 and (p := phrase(" ".join(words)).strip()):
            out.append(p)
    return tuple(dict.fromkeys(out))


#: a legend line pair: "AK = Andreas Krüger", "RH1: Robert Hale Sr."
_LEGEND_PAIR = re.compile(r"(?<![\w-])([A-Z][A-Z0-9]{1,4})\s*(?:=|:|–|—)\s*"
                          r"([A-ZÀ-Þ][^\s,;=]*(?:\s+(?:[A-ZÀ-Þ][^\s,;=]*|de|van|von|der|den|da|di|la|le|du))+)")


#: a key line of initials written before the names they stand for ("Key: GB Geraint Brenning; ...")
_KEY_LINE = re.compile(r"\s*(?:\*\*)?(?:legend|key|[A-Z][\w ]{0,30}(?:initials?|abbreviations?|codes?))(?:\*\*)?"
                       r"\s*[:–—-]\s*(.+)", re.I)
_KEY_ITEM = re.compile(r"\s*([A-Z][A-Za-z]{1,4})\s*(?:=|:|–|—|-)?\s+"
                       r"([A-ZÀ-Þ][\w'’-]+(?:\s+[A-ZÀ-Þ][\w'’-]+){1,3})[.]?\s*$")

#: a name followed by its initials in brackets: "Julian Treve (JT, chair)", "Rosa Delgado (RD)"
_NAMED_INITIALS = re.compile(r"([A-ZÀ-Þ][\w'’-]+(?:\s+(?:[A-ZÀ-Þ][\w'’-]+|de|van|von|der|den|da|di|la|le|du)){1,3})"
                             r"\s*\(([A-ZÀ-Þ]{2,4})(?=[,;)\s])")

#: a code explained in words after a label: "Fmt: HB hardback, PB paperback, EB ebook only."
_CODE_WORDS = re.compile(r"(?<![\w-])([A-Z]{2,4})\s+([a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,3})(?=\s*(?:[,;.]|$))")


def legend(text: str) -> dict[str, str]:
    """Abbreviations a document explains itself ("Legend: AK = Andreas Krüger, FM = Fiona
    MacLeod"; "Fmt: HB hardback, PB paperback"): a line with two or more such pairs, or one opening
    with "Legend" or "Key"."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        pairs = _LEGEND_PAIR.findall(line)
        if len(pairs) >= 2 or (pairs and re.match(r"\s*(?:legend|key|abbreviations?)\b", line, re.I)):
            for abbr, name in pairs:
                out.setdefault(abbr, name.strip())
        key = _KEY_LINE.match(line)
        for item in re.split(r"[;,]", key.group(1)) if key else ():
            # "Key: GB Geraint Brenning; AnP Anjali Patel": initials, then the name they stand for,
            # whose first and last words begin with the first and last capital of the initials
            m = _KEY_ITEM.match(item)
            if m:
                abbr, name = m.group(1), m.group(2).strip()
                caps = [c for c in abbr if c.isupper()]
                parts = name.split()
                if len(caps) >= 2 and len(parts) >= 2 and caps[0] == parts[0][0] and caps[-1] == parts[-1][0]:
                    out.setdefault(abbr, name)
        for name, abbr in _NAMED_INITIALS.findall(line):
            # "Owen Hughes (OH, chair)": initials a person is then called by, when they are the
            # initials of the name's words
            if "".join(w[0] for w in name.split() if w[0].isupper()).upper() == abbr:
                out.setdefault(abbr, name.strip())
        for part in re.split(r"(?<=[.;])\s+(?=[A-Z][\w ]{0,20}:)", line):
            # one labelled list per part ("Fmt: ... St: ..." on one line)
            words = _CODE_WORDS.findall(part)
            if len(words) >= 2 and re.match(r"\s*[A-Z][\w .]{0,20}:", part):
                for abbr, meaning in words:
                    out.setdefault(abbr, meaning.strip())
    return out


#: a year or a season the document is in ("Autumn 2024", "Season 2024/25", "Date: 28 April 2024")
_YEAR_ANCHOR = re.compile(r"(?<![\d£$€.,])((?:19|20)\d{2})(?:\s*[/–-]\s*(\d{2}|\d{4}))?(?![\d,.]\d)")


def year_anchors(text: str) -> list[tuple[int, int, int | None]]:
    """(position, year, next year of a season or None) of each year a document names, in order."""
    out = []
    for m in _YEAR_ANCHOR.finditer(text):
        year, tail = int(m.group(1)), m.group(2)
        nxt = None
        if tail is not None and (int(tail) == (year + 1) % 100 or int(tail) == year + 1):
            nxt = year + 1
        out.append((m.start(), year, nxt))
    return out


def with_years(piece: str, start: int, anchors: Sequence[tuple[int, int, int | None]]) -> str:
    """``piece`` (the text at ``start`` of a document) with the year written after each day and
    month that has none ("Saturday 14 September" under "## Autumn 2024" is 14 September 2024), the
    year being the one the document named last before it (or first, when none comes before: a
    "Season 2024/25" line under the date); a season's months from July are in its first year."""
    if not anchors or not YEARLESS_DATE.search(piece):
        return piece
    positions = [a[0] for a in anchors]

    def dated(m: re.Match[str]) -> str:
        day_month = yearless_day_month(m)
        if day_month is None:
            return m.group()
        day, month, _ = day_month
        k = bisect.bisect_right(positions, start + m.start()) - 1
        _, year, nxt = anchors[max(k, 0)]
        if nxt is not None and month < 7:
            year = nxt
        return f"{m.group()} ({day} {MONTH_ABBREVIATIONS[month - 1]} {year})"

    return YEARLESS_DATE.sub(dated, piece)


def _expander(abbreviations: Mapping[str, str]) -> Callable[[str], str]:
    """A function writing out a document's own abbreviations ("AL" → "Anna Lindqvist"), its
    pattern compiled once per document."""
    if not abbreviations:
        return lambda piece: piece
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(abbreviations, key=len, reverse=True)))
                         + r")(?![\w-])")
    return lambda piece: pattern.sub(lambda m: abbreviations[m.group(1)], piece)


class PassageIndex:
    """Passages of a corpus with an inverted index of their tokens."""

    def __init__(self, corpus: Corpus, *, max_words: int = MAX_PASSAGE_WORDS,
                 progress: Callable[[int], None] | None = None):
        self.corpus = corpus
        self.doc_ids = corpus.ids
        self.passages: list[Passage] = []
        self.postings: dict[str, list[int]] = defaultdict(list)
        #: normalised id / title / first real sentence → documents (what a document is about)
        self.doc_names: dict[str, list[int]] = defaultdict(list)
        self.headers: list[str] = []
        #: proper names in each document's opening ("Köhler Maschinenbau GmbH")
        self.header_runs: list[tuple[str, ...]] = []
        #: each document's first passage (the span shown for "this document is about the entity")
        self.first_passage: list[int] = []
        #: each document's text as the linker reads it: an e-mail's quote marks blanked, the same
        #: length, so every offset is the document's (spans show the document's own text)
        self.texts: list[str] = []
        for d, doc in enumerate(corpus.documents):
            self.first_passage.append(len(self.passages))
            text = unquoted(doc.text)
            self.texts.append(text)
            ctx_cache: dict[tuple[tuple[int, int], ...], str] = {}
            runs_cache: dict[tuple[tuple[int, int], ...], tuple[str, ...]] = {}
            expand = _expander(legend(text))
            anchors = year_anchors(text)
            #: the last row's cells of each table (by its header), for ditto marks
            above: dict[tuple[int, int], list[str]] = {}
            for block in blocks(doc.text, max_words=max_words) or [Block(0, 0, "para")]:
                a, b = block.start, block.end
                pid = len(self.passages)
                piece = with_years(expand(text[a:b]), a, anchors)
                if block.kind == "row" and block.header is not None:
                    piece = _ditto(piece, above, block.header)
                if block.kind == "row" and block.header is not None:
                    # the row with its abbreviations written out and its ditto marks filled in
                    norm = _normalised_row(piece, text[block.header[0]:block.header[1]])
                elif block.kind in ("row", "card"):
                    norm = _normalised_lines(piece)
                else:
                    norm = normalised_passage(piece)
                key = tuple(block.context)
                ctx = ctx_cache.get(key)
                if ctx is None:
                    parts = [normalised_passage(with_years(text[x:y], x, anchors)).strip() for x, y in block.context]
                    ctx = ctx_cache[key] = (" " + f" {SEP} ".join(p for p in parts if p) + " ") if any(parts) else ""
                    runs_cache[key] = tuple(r for x, y in block.context for r in proper_names(_title_case(text[x:y])))
                cells = heads = None
                if block.kind == "row" and block.header is not None:
                    row_cells = split_cells(piece)
                    head_cells = split_cells(text[block.header[0]:block.header[1]])
                    if len(row_cells) == len(head_cells):
                        heads = tuple(phrase(" ".join(_ABBREVIATIONS.get(t, t) for t in tokens(h))) or " "
                                      for h in head_cells)
                        # a cell read with its header, as the row's sentence is ("project 1143")
                        # (an empty cell is empty: its header names nothing of this row, as a
                        # grid's site column over a day with no clinic there)
                        cells = tuple(f"{h.rstrip() if not _ALTERNATIVES.search(raw) else ''} {phrase(c).strip()} "
                                      if phrase(c).strip() else " "
                                      for h, raw, c in zip(heads, head_cells, row_cells, strict=True))
                self.passages.append(Passage(d, a, b, norm, ctx, block.kind, block.header, cells, heads,
                                             proper_names(_title_case(piece, named_only=True)), runs_cache[key]))
                for tok in set(norm.split()) | set(ctx.split()):
                    self.postings[tok].append(pid)
            names = {phrase(doc.id.rsplit("/", 1)[-1]), phrase(doc.id)}
            if doc.title:
                names.add(phrase(doc.title))
            for name in names - {""}:
                self.doc_names[name].append(d)
            header, runs = self._header(text)
            self.headers.append(header)
            self.header_runs.append(runs)
            if progress:
                progress(1)
        if not self.passages:
            raise RagdxError("the corpus has no text to link", source=corpus.source)
        self.postings = dict(self.postings)
        self._phrase_cache: dict[str, set[int]] = {}

    @staticmethod
    def _header(text: str) -> tuple[str, tuple[str, ...]]:
        # the first sentence with some substance ("X is an American multinational ..."); a
        # heading or a title line alone says what the document is called, not what it says;
        # with the proper names in it ("Köhler Maschinenbau GmbH")
        for a, b in sentences(text[:2000]):
            norm = normalised_passage(text[a:b])
            if len(norm.split()) >= 5:
                line = text[text.rfind("\n", 0, a) + 1:(text.find("\n", b) + 1 or len(text) + 1) - 1]
                if _LABELLED_LIST.match(line):
                    # "Present: A. Keller, K. Meier, E. Clark": a list of those present (or copied,
                    # or on a team) says who took part; the document is about none of them
                    return "", ()
                return norm, proper_names(text[a:b])
        return "", ()

    def find(self, needle: str) -> set[int]:
        """Passages containing the padded token string ``needle`` (cached)."""
        hit = self._phrase_cache.get(needle)
        if hit is not None:
            return hit
        toks = needle.split()
        out: set[int] = set()
        found = [self.postings.get(t) for t in toks]
        if toks and all(found):
            lists = sorted((x for x in found if x), key=len)
            candidates: Iterable[int] = lists[0]
            if len(lists[0]) > 256 and len(lists) > 1:
                # two common words ("project manager"): intersect before reading passages
                candidates = set(lists[0]).intersection(lists[1])
            passages = self.passages
            out = {pid for pid in candidates if needle in passages[pid].norm or needle in passages[pid].ctx}
        if len(self._phrase_cache) > 200_000:
            self._phrase_cache.clear()
        self._phrase_cache[needle] = out
        return out

    def doc_passages(self, doc: int) -> range:
        end = self.first_passage[doc + 1] if doc + 1 < len(self.first_passage) else len(self.passages)
        return range(self.first_passage[doc], end)

    def about(self, names: Sequence[Variant]) -> set[int]:
        """Documents about an entity: its name is the document's id or title, or is in the
        document's first real sentence."""
        docs: set[int] = set()
        for all_of, _ in names:
            if len(all_of) != 1:
                continue
            needle = all_of[0]
            docs.update(self.doc_names.get(needle, ()))
            for pid in self.find(needle):
                d = self.passages[pid].doc
                if d not in docs and needle in self.headers[d] and not (len(needle.split()) == 1 and any(
                        needle in f" {r} " and not f" {r} ".endswith(needle) for r in self.header_runs[d])) \
                        and not _only_as_manager(self.headers[d], 0, [needle]):
                    # (a one-word name inside a longer one names that: "Köhler Maschinenbau"; "... and
                    # reports to Alasdair Finch" is about the one who reports)
                    docs.add(d)
        return docs

    def span(self, pid: int) -> dict[str, Any]:
        p = self.passages[pid]
        return {"doc_id": self.doc_ids[p.doc], "start": p.start, "end": p.end,
                "text": self.corpus.documents[p.doc].text[p.start:p.end]}


# ----------------------------------------------------------------------------- facts as hops


@dataclass(slots=True)
class Hop:
    """One fact a record needs, in the form the linker searches for."""

    fact: str
    #: the entities the fact is about, each with its name variants; every one must be named in
    #: the sentence, or be what the document is about
    subjects: list[tuple[str, list[Variant]]] = field(default_factory=list)
    #: ways the value may be stated; empty: nothing to look for (NULL)
    value: list[Variant] = field(default_factory=list)
    #: the fact only identifies its entity (its name, a key a join went through)
    identity: bool = False
    #: the value is another entity of the subject's own table (a supervisor of an employee): two
    #: such names in one sentence ("Director Leonardo Da Vinci and Manager Alan Turing") do not say
    #: which relation holds between them, so a sentence match alone is too weak to count
    peers: bool = False
    #: a short all-capitals value ("IT", "HR", "UK") that folding would confuse with a common word
    #: ("it"): it must appear in the passage's original text with its capitals
    exact: str | None = None
    #: the fact's column in words ("units on order"): a number in a table cell or a card line states
    #: the fact only under a header or key that names this column (a quantity is not a reorder level)
    column: str = ""
    #: a long text value (a description, notes): its sentences may be spread over the passage
    long_text: bool = False
    #: the words of the table's other columns: a number under a header naming one of them is theirs
    other_columns: frozenset[str] = frozenset()
    #: for a foreign key, the noun of the table it points at ("supplier"): a header may name it
    ref_noun: str = ""
    #: the value is another name of the subject (its code, its city): a row may begin with it
    self_name: bool = False
    #: per subject, the combinations of its other values that tell its row apart when the row has
    #: no name of its own ("Einaudi" with "The Oyster Wars" for rights deal 7): each a tuple of
    #: phrases that must all be in the passage
    descriptors: list[list[tuple[str, ...]]] = field(default_factory=list)
    #: another relation links the subject's table to the value's (a home hub beside a rota of
    #: hubs, through an association table): a list under the value's heading may state that one,
    #: so the heading does not give this value
    other_relation: bool = False
    #: the value is the subject table's own noun ("hub" for a hub's kind): stated only in a table
    #: cell or a card line whose header or key names no other column
    noun_value: bool = False
    #: the row's other short values that hold this value as a part ("geotechnical engineer", the
    #: job title, holds the grade "engineer"): the value written inside one states that one
    wider: tuple[str, ...] = ()
    #: for a foreign key, the nouns of the tables whose rows link the subject's table and the value's
    #: another way ("visit" of a site visit, for a project's lead): a sentence naming such a row by
    #: its number ("Jonas Keller at project 1114 (visit #220)") states that row's relation
    linking_nouns: tuple[str, ...] = ()
    #: tables relating the subject and the value another way whose rows have names (a clinic):
    #: a sentence naming one of those rows states its relation
    linking_tables: tuple[str, ...] = ()
    #: value phrases read only in what a passage sits under (a group line "Engineers" over its
    #: members), never in a sentence ("Quarry Vale Civils" is no civil discipline)
    ctx_only: tuple[str, ...] = ()
    #: for a foreign key naming a role ("principal" of sections.principal_id) where the value's
    #: table also links back to the subject's (every player has a section): naming the section and
    #: one of its players states membership, so the role's words must be there too (padded phrases)
    role_words: tuple[str, ...] = ()

    def value_phrases(self) -> list[str]:
        return [p for all_of, _ in self.value for p in all_of]


@dataclass(slots=True)
class HopResult:
    docs: list[str]
    spans: list[dict[str, Any]]
    weight: float
    #: the documents state the value only approximately (a month for a day): evidence, not support
    approximate: bool = False


class Linker:
    """Links hops to the passages of one corpus; results are cached per fact."""

    def __init__(self, index: PassageIndex, *, min_weight: float = MIN_WEIGHT,
                 table_names: Callable[[str], Mapping[str, str]] | None = None):
        self.index = index
        self.min_weight = min_weight
        #: every name of a table's entities (normalised phrases), to tell that a paragraph of a
        #: document about one entity is about another ("... \n\nKuzo Hall is a site in Utrecht.")
        self.table_names = table_names
        self._about: dict[str, set[int]] = {}
        self._cache: dict[str, HopResult] = {}
        self._lead_names: dict[tuple[int, str, int], frozenset[str]] = {}
        self._key_lines: dict[int, bool] = {}
        #: the tables whose entities a card may name (set by :func:`link_records`)
        self.entity_tables: Sequence[str] = ()
        #: name phrases that are part of a person's name only (a surname): see ``_full_mention``
        self.partial_names: frozenset[str] = frozenset()
        #: names that name a row only beside its table's noun ("the Leeds office"): phrase → noun
        self.alt_nouns: Mapping[str, str] = {}
        self._known: frozenset[str] | None = None
        self._longest: dict[str, int] = {}
        self._nouns: dict[str, frozenset[str]] | None = None

    def prepare(self, resolver: FactResolver) -> None:
        """What the linker learns of the database once, before linking (every caller: records,
        the coverage audit): the names of every table's entities, which names are surnames or
        alternative names, and names cut short in the corpus written out."""
        if self.table_names is None:
            self.table_names = resolver.table_names
        if not self.entity_tables:
            self.entity_tables = [t for t in resolver.schema.tables if not resolver.meta(t).association]
            self.partial_names = resolver.partial_names()
            self.alt_nouns = resolver.alt_name_nouns()
            self.expand_truncated()

    def about(self, entity: str, names: Sequence[Variant]) -> set[int]:
        hit = self._about.get(entity)
        if hit is None:
            # a document is about a person when it names them in full: a surname in its opening
            # sentence may be someone else's ("Dr. Harold Keller is ...")
            # nor is a document about an office because its opening sentence names a city
            full = [v for v in names if not (len(v[0]) == 1 and (v[0][0] in self.partial_names
                                                                 or v[0][0] in self.alt_nouns))]
            hit = self._about[entity] = {d for d in self.index.about(full) if not self._namesake_only(d, full)
                                         and not self._opening_names_another(d, full)}
        return hit

    def _namesake_only(self, doc: int, names: Sequence[Variant]) -> bool:
        """Does the document's opening sentence name the entity only inside another entity's known
        name ("MV Ardmair sails at 7.30" is about the ship, not the port Ardmair)? A document whose
        id or title is the name is about it all the same."""
        header = self.index.headers[doc]
        own = [v[0][0] for v in names if len(v[0]) == 1]
        if not header or not self._entity_names() or any(
                doc in self.index.doc_names.get(p, ()) for p in own):
            return False
        found = [p for p in own if p in header]
        if not found:
            return False
        blocked = self._other_names_around(header, tuple(found), own, nouns=False)
        return all(all(any(x <= a and b <= y and (y - x) > (b - a) for x, y in blocked)
                       for a, b in _occurrences(header, p)) for p in found)

    def _opening_names_another(self, doc: int, names: Sequence[Variant]) -> bool:
        """Is the entity named in the document's opening sentence only inside a longer name the
        database does not know ("NOTE: Around the Horn Travel Ltd keeps calling") or to deny it is
        the one meant ("NOT our customer Around the Horn")? The document is about that other one. A
        document whose id or title is the name is about it all the same."""
        header = self.index.headers[doc]
        phrases = [v[0][0] for v in names if len(v[0]) == 1]
        if not header or any(doc in self.index.doc_names.get(p, ()) for p in phrases):
            return False
        return not self._mentioned(Passage(doc, 0, 0, header, proper=self.index.header_runs[doc]), header, phrases)

    def _mentioned(self, passage: Passage, norm: str, names: Sequence[str], *, table: str = "",
                   heading: bool = False) -> bool:
        """Does ``norm`` (a passage's text, or what it is read under, with its proper names in
        ``passage``) name the entity outside a longer unknown name of several words and not to
        deny it? The entity's own noun after its name ("Harbour View Clinic") is no other name; in
        a heading, where every word is capitalised ("Ernst Handel Account Review"), only a run
        ending in a word that heads a firm's, a venue's or an event's name is ("The Isle of Rona
        Hotel", "Ernst Handel & Söhne KG")."""
        spans = [sp for p in names for sp in _occurrences(norm, p)]
        longer = tuple(p for p in names if len(p.split()) > 1)
        if heading:
            passage.proper = tuple(r for r in passage.proper if r.split()[-1] in _ORGANISATION_WORDS)
        blocked = self._unknown_names_around(passage, longer, [p for p in names if p not in longer]
                                             + self._own_nouns(table)) if longer else []
        return any(not _denied(norm, a) and not any(x <= a and b <= y and (y - x) > (b - a) for x, y in blocked)
                   for a, b in spans if not any(x <= a and b <= y and (y - x) > (b - a) for x, y in spans))

    @staticmethod
    @functools.lru_cache(maxsize=256)
    def _own_nouns(table: str) -> list[str]:
        """A table's noun as a name may carry it ("Harbour View Clinic" for the clinic Harbour View)."""
        if not table:
            return []
        from ragdx.gen.naming import readable_entity

        noun = phrase(readable_entity(table)).strip()
        return [f" {noun}s ", f" {noun} "] if noun else []

    def _link_split(self, hop: Hop, subject_phrases: list[list[str]], about: list[set[int]]) -> HopResult | None:
        """A value stated in two documents through a label of their own, as a reader joins them: a
        rate card gives the fee per band ("| C | £165.00 |", naming no player) and a band list puts
        the player in a band ("C:  Marsh, Daniel; Illingworth, Gareth"); a credit register gives
        the limit per account ("C-021     400,000.00") and the client's page gives its account
        ("| Account | C-021 |"). The label is a short cell beside the value in a table's line that
        names no entity of the subject's table, under a header naming its column; the subject's
        side is a line keyed by the label (in a document naming that column: "RATE BANDS"), or a
        line keyed by the column holding the label, where the subject is named or is what the
        document is about. None when no such pair is found (only tried where nothing states the
        fact directly)."""
        if len(hop.subjects) != 1 or hop.identity or hop.peers or not hop.value or not subject_phrases[0]:
            return None
        labels = self._value_labels(hop)
        if not labels:
            return None
        idx = self.index
        names = subject_phrases[0]
        found: tuple[int, int] | None = None
        for pid in sorted(set().union(*(idx.find(n) for n in names))):
            for line in self._text_of(idx.passages[pid]).splitlines():
                m = KEY_VALUE.match(line)
                hit = labels.get(phrase(m.group(1))) if m and any(n in phrase(m.group(2)) for n in names) else None
                if hit is not None and hit[1] & _column_words(self._doc_opening(pid)):
                    found = (hit[0], pid)  # "C:  Marsh, Daniel; ..." in a list of rate bands
                    break
            if found:
                break
        for label, (vpid, words) in labels.items() if found is None else ():
            for pid in sorted(idx.find(label)):
                p = idx.passages[pid]
                if p.doc == idx.passages[vpid].doc or not (
                        any(n in p.norm or n in p.ctx for n in names) or p.doc in about[0]):
                    continue
                if p.kind != "row" and len(label.strip()) >= 3 and _word_before_label(self._text_of(p), words, label):
                    # "Account C-014." opening the client's page (in prose: a row's "inv 1" is a
                    # cell under its header, and a number that short labels nothing)
                    found = (vpid, pid)
                    break
                for line in definition_lines(self._text_of(p).splitlines()):
                    cells = split_cells(line) if "|" in line else []
                    m = KEY_VALUE.match(line)
                    if len(cells) == 2:
                        key, value = cells
                    else:
                        key, value = (m.group(1), m.group(2)) if m else ("", "")
                    # (a note in brackets after the label is no part of it: "SUP-004 (see the register)")
                    if phrase(re.sub(r"\s*\(.*$", "", value)) == label \
                            and words & (_column_words(key) | set(phrase(key).split())):
                        found = (vpid, pid)  # "| Account | C-021 |" or "Account number\n: C-030"
                        break
                if found:
                    break
            if found:
                break
        if found is None:
            return None
        spans = [{"fact": hop.fact, **idx.span(q), "weight": SPLIT_WEIGHT} for q in found]
        return HopResult(sorted({idx.doc_ids[idx.passages[q].doc] for q in found}), spans, SPLIT_WEIGHT)

    def _link_decoded(self, hop: Hop, subject_phrases: list[list[str]]) -> HopResult | None:
        """A table line naming all but one of what a fact relates (its subjects and its value) and
        a label standing for the last one, which a list in another document decodes: an allocation
        "BH-24016  P-1012  Project Lead" under "Job  Payroll  Role" and a payroll list "P-1012
        Fraser, Ewan" say Ewan Fraser is on job BH-24016 as its project lead. The label is a short
        cell of letters and digits under a header naming a column; the decoding line opens with the
        label and names the missing one, in a document whose opening or headings name the label's
        column ("PAYROLL NUMBERS"). Only tried where nothing states the fact directly."""
        if hop.identity or hop.peers or not hop.value or not hop.subjects or not all(subject_phrases) \
                or len(hop.subjects) > 2:
            return None
        values = [v[0] for v, w in hop.value if w >= 0.9 and len(v) == 1]
        items = [*subject_phrases, values]
        idx = self.index
        for missing in range(len(items)):
            given = [ps for k, ps in enumerate(items) if k != missing]
            # the line holds every given one: only passages holding them all are read
            for pid in sorted(set.intersection(*(set().union(*(idx.find(n) for n in ps)) for ps in given))):
                found = self._decoded_in(pid, given, items[missing])
                if found is not None:
                    spans = [{"fact": hop.fact, **idx.span(q), "weight": SPLIT_WEIGHT} for q in (pid, found)]
                    return HopResult(sorted({idx.doc_ids[idx.passages[q].doc] for q in (pid, found)}), spans,
                                     SPLIT_WEIGHT)
        return None

    def _decoded_in(self, pid: int, given: list[list[str]], missing: list[str]) -> int | None:
        """The passage of another document decoding a label of a table line of passage ``pid`` to
        one of ``missing``'s phrases, where that line holds one phrase of each of ``given``."""
        idx = self.index
        p = idx.passages[pid]
        lines = self._text_of(p).splitlines()
        for j, line in enumerate(lines):
            cells = split_cells(line)
            lp = phrase(line)
            if len(cells) < 3 or not all(any(n in lp for n in ps) for ps in given):
                continue
            head = split_cells(idx.texts[p.doc][p.header[0]:p.header[1]]) if p.header else None
            if not head or len(head) != len(cells):
                head = next((h for k in range(j - 1, -1, -1) if len(h := split_cells(lines[k])) == len(cells)
                             and not any(ch.isdigit() for ch in lines[k])), None)
            if head is None:
                continue
            for cell, column in zip(cells, head, strict=True):
                label = phrase(cell)
                # a code of letters and digits ("P-1012", "Desk 04"): a bare number ("2") labels nothing
                if not label.strip() or len(cell.strip()) > 12 or not re.search(r"\d", cell) \
                        or not re.search(r"[^\W\d_]", cell) \
                        or any(label in n or n in label for ps in given for n in ps):
                    continue
                words = _column_words(column)
                for q in sorted(idx.find(label)):
                    if idx.passages[q].doc == p.doc or not words & _column_words(self._doc_opening(q)):
                        continue
                    for other in self._text_of(idx.passages[q]).splitlines():
                        op = phrase(other)
                        if op.startswith(label) and any(n in op[len(label) - 1:] for n in missing):
                            return q
        return None

    def _doc_opening(self, pid: int) -> str:
        """The opening of the document of passage ``pid`` and the headings the passage is under."""
        p = self.index.passages[pid]
        return self.index.texts[p.doc][:400] + " " + p.ctx

    def _value_labels(self, hop: Hop) -> dict[str, tuple[int, frozenset[str]]]:
        """Label → (passage, its column's words) for each table line stating the hop's value beside
        a short label cell under a header naming the label's column, and naming no entity of the
        subject's table ("| C | £165.00 |" under "| Band | Fee per call |")."""
        idx = self.index
        table = hop.subjects[0][0].partition(":")[0]
        known = self.table_names(table) if self.table_names else {}
        longest = max((n.count(" ") + 1 for n in known), default=0)
        labels: dict[str, tuple[int, frozenset[str]]] = {}
        for all_of, w in hop.value:
            if w < 1.0 or len(all_of) != 1:
                continue
            for pid in sorted(idx.find(all_of[0])):
                p = idx.passages[pid]
                lines = self._text_of(p).splitlines()
                header = split_cells(self.index.texts[p.doc][p.header[0]:p.header[1]]) \
                    if p.header else None
                for j, line in enumerate(lines):
                    cells = split_cells(line)
                    holding = [i for i, c in enumerate(cells) if all_of[0] in phrase(c)]
                    if len(cells) < 2 or len(holding) != 1:
                        continue
                    toks = phrase(line).split()
                    if any(" ".join(toks[i:i + k]) in known for k in range(1, min(longest, 6) + 1)
                           for i in range(len(toks) - k + 1)):
                        continue  # the line names an entity of the subject's table: read as usual
                    head = header if header and len(header) == len(cells) else next(
                        (h for k in range(j - 1, -1, -1) if len(h := split_cells(lines[k])) == len(cells)
                         and not any(ch.isdigit() for ch in lines[k])), None)
                    for i, cell in enumerate(cells):
                        label = phrase(cell)
                        if head and i != holding[0] and label and len(label.split()) <= 2 and len(cell.strip()) <= 12 \
                                and (words := _column_words(head[i]) or frozenset(phrase(head[i]).split())):
                            labels.setdefault(label, (pid, words))
        return labels

    def link(self, hop: Hop) -> HopResult:
        hit = self._cache.get(hop.fact)
        if hit is None:
            hit = self._cache[hop.fact] = self._link(hop)
        return hit

    def _link(self, hop: Hop) -> HopResult:
        idx = self.index
        if hop.identity:
            docs: set[int] = set()
            for entity, names in hop.subjects:
                docs |= self.about(entity, names)
            ids = sorted(idx.doc_ids[d] for d in docs)
            spans = [{"fact": hop.fact, **idx.span(idx.first_passage[d]), "weight": 1.0}
                     for d in sorted(docs)[:SPANS_PER_FACT]]
            return HopResult(ids, spans, 1.0 if docs else 0.0)
        best: dict[int, float] = {}  # passage → best weight
        approx: dict[int, float] = {}  # passage → best weight of an approximate statement
        about = [self.about(e, names) for e, names in hop.subjects]
        subject_phrases = [[v[0] for v, _ in names if len(v) == 1] for _, names in hop.subjects]
        # candidates come from the subject's side (passages naming it, or in documents about it):
        # a common value ("USA", "2023") alone would make every record read thousands of passages
        restrict: set[int] | None = None
        for n, ((entity, _), phrases, docs_about) in enumerate(zip(hop.subjects, subject_phrases, about, strict=True)):
            where: set[int] = set()
            for p in phrases:
                where |= idx.find(p)
            # a table with one column per entity names each by its bare key in the header row
            key = phrase(entity.partition("#")[0].partition(":")[2].replace("|", " "))
            if key and key not in phrases:
                where.update(pid for pid in idx.find(key)
                             if (heads := idx.passages[pid].heads) is not None and key in heads)
            for d in docs_about:
                where.update(idx.doc_passages(d))
            for desc in (hop.descriptors[n] if n < len(hop.descriptors) else []):
                found = set(idx.find(desc[0]))
                for p in desc[1:]:
                    found &= idx.find(p)
                where |= found
            restrict = where if restrict is None else restrict & where
        if restrict is not None and not restrict:
            return self._link_split(hop, subject_phrases, about) or self._link_decoded(hop, subject_phrases) \
                or HopResult([], [], 0.0)
        for all_of, w in hop.value:
            pids = restrict
            for p in all_of:
                found = idx.find(p)
                pids = set(found) if pids is None else (pids & found if len(pids) > len(found) else found & pids)
                if not pids:
                    break
            for pid in pids or ():
                weight = self._weigh(hop, pid, all_of, subject_phrases, about)
                if weight < self.min_weight:
                    continue
                if w < self.min_weight:
                    # stated at a lower precision than the value (its month for a day): the passage
                    # is evidence a retriever should find, but it does not state the fact
                    if weight * w > approx.get(pid, 0.0):
                        approx[pid] = weight * w
                elif weight * w > best.get(pid, 0.0):
                    best[pid] = weight * w
        best = {pid: w for pid, w in best.items() if w >= self.min_weight}
        if not best and approx:
            best, exact = approx, False
        else:
            exact = True
        if not best:
            return self._link_split(hop, subject_phrases, about) or self._link_decoded(hop, subject_phrases) \
                or HopResult([], [], 0.0)
        docs_best: dict[int, tuple[float, int]] = {}
        for pid, w in best.items():
            d = idx.passages[pid].doc
            if w > docs_best.get(d, (0.0, -1))[0]:
                docs_best[d] = (w, pid)
        ranked = sorted(docs_best.values(), key=lambda t: (-t[0], t[1]))
        spans = [{"fact": hop.fact, **idx.span(pid), "weight": round(w, 3), **({} if exact else {"approximate": True})}
                 for w, pid in ranked[:SPANS_PER_FACT]]
        return HopResult(sorted(idx.doc_ids[d] for d in docs_best), spans, max(w for w, _ in ranked), not exact)

    def _weigh(self, hop: Hop, pid: int, value: tuple[str, ...], subject_phrases: list[list[str]],
               about: list[set[int]]) -> float:
        """How well passage ``pid`` states the value ``value`` of ``hop`` (0: it does not).

        Read as a person reads: the value and the subject in one sentence (1); the subject given
        by what the passage is read under (a heading, a table's caption, the card's first entity,
        the paragraph a pronoun refers to, the document's subject: 0.9), or by the paragraph's
        opening sentence (0.8); or the value given by the heading a row or paragraph naming the
        subject sits under (a product row under its category's heading: 0.9).

        The value must be stated outside the subject's own name (a course called "... the 5%
        Threshold" does not state that it has 5 credits), and the subject named outside the value
        ("Alan Turing" inside "Alan Turing Institute" names nobody)."""
        passage = self.index.passages[pid]
        if hop.long_text:
            return self._weigh_long(hop, pid, subject_phrases, about)
        if hop.role_words and not any(w in passage.norm or w in passage.ctx for w in hop.role_words):
            return 0.0
        if not self._value_may_be_here(hop, passage, value, subject_phrases):
            return 0.0
        norm = passage.norm
        all_names = [p for names in subject_phrases for p in names]
        value_spans = [_occurrences(norm, v) for v in value]
        value_sents, value_in_ctx = self._value_reading(hop, passage, value, value_spans, all_names)
        if hop.linking_nouns and value_sents:
            value_sents = {i for i in value_sents if not _names_a_row_of(norm, i, hop.linking_nouns)
                           and not self._row_of_link_first(pid, i, value, hop.linking_tables)}
            if passage.kind == "row" and passage.header is not None and value_sents:
                # a table headed "Site visit log" lists visits: a row's job and engineer are the
                # visit's, not the job's lead (its header row aside, what the table sits under)
                pieces = passage.ctx.split(SEP)[:-1]
                if pieces and any(f" {n.strip()} " in f" {pieces[-1].strip()} " for n in hop.linking_nouns):
                    value_sents = set()
        if hop.peers and value_sents and self._listed_only(passage, value):
            return 0.0
        if not value_sents and not value_in_ctx or value_sents and value[0] in hop.ctx_only:
            return 0.0
        if value_sents and passage.kind == "para" and self._key_line(pid):
            return 0.0  # a key of initials ("MC Miriam Cole; TA Tom Ashcroft") relates nobody
        if passage.cells is not None and value_sents:
            verdict = self._row_reading(hop, passage, value, subject_phrases)
            if verdict is not None:
                return verdict
        flat_values = [sp for spans in value_spans for sp in spans]
        weight = 1.0
        for (entity, _), names, docs_about in zip(hop.subjects, subject_phrases, about, strict=True):
            subject_weight = self._subject_weight(hop, pid, entity, names, docs_about, flat_values, value_sents,
                                                  value_in_ctx)
            if not subject_weight:
                return 0.0
            weight = min(weight, subject_weight)
        return weight

    def _value_reading(self, hop: Hop, passage: Passage, value: tuple[str, ...],
                       value_spans: list[list[tuple[int, int]]], all_names: list[str]) -> tuple[set[int], bool]:
        """Where ``passage`` states ``value``: the sentences that state it outside any name, and
        whether (stated in no sentence) the heading it is read under gives it."""
        norm, ctx = passage.norm, passage.ctx
        name_spans = [sp for p in all_names for sp in _occurrences(norm, p)]
        # a value inside another entity's name ("Hamburg" in "Hamburg Wasserwerke Nord", "Malmö" in
        # "the Malmö office") names that entity; it states no city
        name_spans += self._other_names_around(norm, value, all_names, hop.ref_noun)
        if not hop.ref_noun:
            name_spans += self._unknown_names_around(passage, value, all_names)
        name_spans += [sp for w in hop.wider for sp in _occurrences(norm, w)]
        # a value inside a name, or a name inside a value, does not count
        value_sents = set.intersection(*({norm.count(SEP, 0, a) for a, b in spans
                                          if not any(x <= a and b <= y and (y - x) > (b - a) for x, y in name_spans)}
                                         for spans in value_spans))
        if passage.kind == "card" and value_sents:
            value_sents -= self._recipient_lines(passage, all_names)
        if passage.kind == "row" and passage.header is not None:
            # a table's header row names its columns ("Author / editor"): it gives no row a value
            ctx = f" {SEP} ".join(ctx.split(f" {SEP} ")[:-1]) + " " if f" {SEP} " in ctx else ""
        # the value given by what the passage is read under (its heading), not by the passage
        value_in_ctx = not value_sents and bool(ctx) and all(v in ctx for v in value) \
            and not any(v in p and p in ctx for v in value for p in all_names) \
            and self._stated_in_ctx(ctx, value, all_names, hop.ref_noun, passage.ctx_proper)
        return value_sents, value_in_ctx

    def _subject_weight(self, hop: Hop, pid: int, entity: str, names: list[str], docs_about: set[int],
                        flat_values: list[tuple[int, int]], value_sents: set[int], value_in_ctx: bool) -> float:
        """How surely passage ``pid`` (stating the value in ``value_sents``, or under its heading
        when ``value_in_ctx``) speaks of the subject ``entity`` named by ``names`` (0: it does not)."""
        passage = self.index.passages[pid]
        norm, ctx = passage.norm, passage.ctx
        # the subject's name inside another entity's longer name ("Tidewell" in "Tidewell Lions")
        # names that one, not the subject
        around = self._other_names_around(norm, tuple(p for p in names if p in self.alt_nouns), names,
                                          nouns=False)
        # a surname or a one-word name inside an unknown name ("29 King's Way", "Chang Premium
        # Lager") names that, not Robert King or the beer Chang
        surnames = tuple(p for p in names if p in self.partial_names
                         or (len(p.split()) == 1 and not p.strip().isdigit()))
        if surnames:
            around += self._unknown_names_around(passage, surnames, [p for p in names if p not in surnames])
            # nor inside another entity's known name: the port Ardmair is not named by "MV Ardmair"
            around += self._other_names_around(norm, surnames, names, nouns=False)
        # a name of several words inside a longer unknown one ("Around the Horn Travel Ltd") names
        # that firm, not the customer Around the Horn
        longer = tuple(p for p in names if p not in surnames and len(p.split()) > 1)
        if longer:
            around += self._unknown_names_around(passage, longer, [p for p in names if p not in longer]
                                                 + self._own_nouns(entity.partition(":")[0]))
        blocked = flat_values + around
        named = {norm.count(SEP, 0, a) for p in names for a, b in _occurrences(norm, p)
                 if not any(x <= a and b <= y and (y - x) > (b - a) for x, y in blocked) and not _denied(norm, a)}
        named = {i for i in named if self._full_mention(pid, i, names)}
        if not hop.peers:
            named = {i for i in named if not _only_as_manager(norm, i, names)}
        if named and self._named_under_another_noun(passage, entity, names):
            named = set()
        if value_in_ctx:
            # in a tree, the line above is the parent: a peer relation (reports to) is read there
            if named and (not hop.peers or passage.kind == "branch") \
                    and (passage.kind != "heading" or self._heading_is_value(ctx, hop)) \
                    and not (hop.other_relation and passage.kind != "branch") \
                    and not self._heading_of_another(passage, hop.value_phrases(), names) \
                    and not (passage.kind == "branch" and not hop.peers
                             and self._parent_of_another(passage, hop.value_phrases(), names)):
                return TOPIC_WEIGHT
            if not named and len(hop.subjects) >= 2 and not hop.peers and passage.doc in docs_about:
                # an association row's other side is the document's subject (a programme's handbook
                # lists its modules under "Year 1"): the module named under the value's heading
                # says the rest
                return TOPIC_WEIGHT
            return 0.0
        if named & value_sents and not (hop.peers and passage.doc in docs_about):
            return PEER_WEIGHT if hop.peers else 1.0
        if passage.kind == "row" and not named and self._row_of_another(hop, passage, names):
            return 0.0
        if ctx and any(p in ctx for p in names) and self._speaks_of(pid, names) \
                and self._mentioned(Passage(passage.doc, 0, 0, ctx, proper=passage.ctx_proper), ctx, names,
                                    table=entity.partition(":")[0], heading=True) and not (
                passage.kind == "para" and self._leads_with_another(pid, entity, names)):
            # the heading (or caption, or the paragraph a pronoun points back to) names it
            return TOPIC_WEIGHT
        if passage.kind == "card" and named and not hop.peers \
                and not self._named_before(pid, min(named), names) \
                and not self._related_in_card(passage, min(named), entity, names):
            # a card is about the first entity it names ("Company: ANG Resellers" then "City: Madrid")
            return TOPIC_WEIGHT
        if passage.doc in docs_about and (named or not self._leads_with_another(pid, entity, names)) \
                and not self._quoted(passage):
            # (a reply's quoted message was written by someone else, about its own subject: the
            # reply's sender, whom the document is about, is not its subject)
            return TOPIC_WEIGHT
        if not hop.peers and (passage.kind == "para" and _lead_sentence(norm) in named
                              and not self._opens_with_another(pid, _lead_sentence(norm), names)
                              or passage.kind == "item" and 0 in named):
            # the paragraph's (or a list item's) opening sentence names the subject: what follows
            # is about it ("Skyline Developers is a Dubai firm. It was founded in 1999."; "- Commons
            # of Wash — Adam Achterberg. Brought by OH.")
            return LEAD_WEIGHT
        k = next(i for i, s_ in enumerate(hop.subjects) if s_[0] == entity)
        if k < len(hop.descriptors) and self._described(passage, value_sents, hop.descriptors[k]):
            # a numbered row told apart by its other values ("Einaudi took Italian rights in
            # The Oyster Wars, advance £2,000")
            return TOPIC_WEIGHT
        return 0.0

    @staticmethod
    def _heading_is_value(ctx: str, hop: Hop) -> bool:
        """Is the nearest heading over a heading that names the subject all value, but for its
        column's words ("Year 1" over a module's heading: the module is taught in year 1; an
        imprint's name over its books' titles)? A title that only mentions the value ("Attendance
        (to 15 March 2025)") gives it to no concert named under it."""
        segment = f" {ctx.split(SEP)[-1].strip()} "
        for all_of in hop.value_phrases():
            if not all(p in segment for p in all_of):
                continue
            rest = segment
            for p in all_of:
                rest = rest.replace(p, " ")
            extra = [w for w in rest.split() if w not in _column_words(hop.column) and w not in COLUMN_FILLER_WORDS]
            return len(extra) <= 2
        return False

    @staticmethod
    def _described(passage: Passage, value_sents: set[int], descriptors: Sequence[tuple[str, ...]]) -> bool:
        """Is a descriptor of the row stated in a sentence (a row, a list item) that states the value,
        or anywhere in a card that does (a visit report's "Project: ...", "Date of visit: ..." and
        "Purpose: ..." lines describe one visit)?"""
        if passage.kind == "card" and value_sents:
            return any(all(p in passage.norm for p in d) for d in descriptors)
        for i in value_sents:
            sentence = _sentence_of(passage.norm, i)
            if any(all(p in sentence for p in d) for d in descriptors):
                return True
        return False

    def _value_may_be_here(self, hop: Hop, passage: Passage, value: tuple[str, ...],
                           subject_phrases: list[list[str]]) -> bool:
        """The checks on how the value is written, before any reading of the passage."""
        norm, ctx = passage.norm, passage.ctx
        if hop.exact is not None and value == (f" {hop.exact.lower()} ",):
            # the acronym itself, not a synonym ("United States" for "USA"), must keep its capitals
            text = self.index.texts[passage.doc][passage.start:passage.end]
            if not re.search(rf"(?<!\w){re.escape(hop.exact)}(?!\w)", text):
                return False
        if hop.column and _is_quantity(value) and self._other_unit(hop, passage, value):
            return False
        if hop.noun_value and (passage.kind not in ("row", "card") or not self._under_column(
                passage, value, hop.column, hop.other_columns)):
            return False
        if hop.column and passage.kind in ("row", "card") and _is_quantity(value):
            # a number in a table: its header must not name another column; and where the row does
            # not name the subject itself (a timetable under a port's heading), the header must name
            # this column ("2" in a sailing's "No." column is no port's number of berths)
            strict = passage.kind == "row" and not any(p in norm for names in subject_phrases for p in names)
            if not self._under_column(passage, value, hop.column, hop.other_columns, strict=strict):
                return False
        if hop.ref_noun and passage.kind != "row" and all(self.alt_nouns.get(v) for v in value):
            # the value is a row named only by another attribute ("Tidewell" for Tidewell Hub, "Leeds"
            # for office K-01): it names that row beside the table's noun, or in a table's column
            noun = self.alt_nouns[value[0]]
            if noun not in norm and noun not in ctx and noun.rstrip() + "s " not in norm:
                return False
        return True

    def _other_unit(self, hop: Hop, passage: Passage, value: tuple[str, ...]) -> bool:
        """Is the number written only with a unit that is not its column's ("640 kg" is no floor
        area in m², "300 cars" no number of passengers)?"""
        number = value[0].strip()
        if len(value) != 1 or not re.fullmatch(r"\d+", number):
            return False
        own = _same_units(_column_words(hop.column))
        own_unit = own & _UNITS
        pattern = rf"(?<![\d.,]){number}(?:[.,]0+)?[ \t]*([^\W\d_]+|%|²)?"
        found = [(m.group(1) or "").lower() for m in re.finditer(pattern, self._text_of(passage))]
        if not found:
            return False
        for unit in found:
            words = frozenset({"percent"}) if unit == "%" else _same_units(_column_words(unit)) if unit else frozenset()
            if "percent" in words and not own & _SHARE_WORDS:
                continue  # "0%" is a share: no count, price or level
            if not words or words & own:
                return False
            if words & _time_words()[0] and not own & (_time_words()[0] | _time_words()[1]):
                continue  # "1 hr 25 min" is a duration: no count of berths, no price, no level
            if not (words & hop.other_columns or (own_unit and words & _UNITS)):
                return False
        return True

    def _listed_only(self, passage: Passage, value: tuple[str, ...]) -> bool:
        """Is the value (another entity of the subject's table: a manager) named only in a list of
        names after a label ("Present: A. Fuller (chair), S. Buchanan, N. Davolio") or on a
        message's From:/To: line? Those present at a meeting, or a message's sender and recipients,
        are named side by side: nothing says who reports to whom."""
        holding = [ln for ln in self._text_of(passage).splitlines()
                   if all(v in f" {' '.join(tokens(ln))} " for v in value)]
        return bool(holding) and all(_NAME_LIST.search(ln) or ((m := KEY_VALUE.match(ln)) and fold_word(
            m.group(1).strip()) in _RECIPIENT_KEYS | {"from", "sender"}) for ln in holding)

    def _text_of(self, passage: Passage) -> str:
        return self.index.texts[passage.doc][passage.start:passage.end]

    def _row_reading(self, hop: Hop, passage: Passage, value: tuple[str, ...],
                     subject_phrases: list[list[str]]) -> float | None:
        """A table row read cell by cell with its header: None when the row's reading is the
        usual one (the subject in the row's first cell, the value in another); 0 when the row
        relates the subject and the value through another column (a site-visit log naming the
        visitor and the project does not say who leads the project); 0.9 when the value's column
        header names the subject (a table with one column per entity)."""
        cells, heads = passage.cells, passage.heads
        assert cells is not None and heads is not None
        if len(hop.subjects) != 1:
            return None
        names = subject_phrases[0]

        def bare(cell: str) -> str:  # the cell without the subject's name ("hub" in "Ashcombe Hub")
            for p in names:
                cell = cell.replace(p, " ")
            return f" {cell.strip()} "

        vcell = next((i for i, c in enumerate(cells) if all(v in bare(c) for v in value)), None)
        if vcell is None:
            return None
        scell = next((i for i, c in enumerate(cells) if i != vcell and any(p in c for p in names)), None)
        if scell is None:
            entity = hop.subjects[0][0].partition("#")[0]
            key = phrase(entity.partition(":")[2].replace("|", " "))
            head = heads[vcell]
            if any(p == head or p in head for p in names) or (key and head == key):
                return TOPIC_WEIGHT
            return None
        first = self._first_entity_cell(cells, scell)
        if scell <= first or not hop.column or (hop.self_name and first == vcell):
            return None
        wanted = _column_words(hop.column) | _column_words(hop.ref_noun or "")
        # a header may cut the column's word short ("SEC" for section, "DEPT" for department)
        said = _column_words(heads[vcell])
        return None if said & wanted or any(len(h) >= 3 and w.startswith(h) for h in said for w in wanted) else 0.0

    def _unknown_names_around(self, passage: Passage, value: tuple[str, ...],
                              own: Sequence[str]) -> list[tuple[int, int]]:
        """Spans of the passage where a value (a town, a city) is a word of a longer proper name
        that the database does not know ("Goods sent to Wexcombe Distribution", "Brackwater & Felby
        Food Bank Network"): it names that thing, not the place. A run ending with the value is a
        kind of it ("Managing Director" is a director), and one made of the value and known names
        only ("Sales Representative Nancy Davolio") is no other name."""
        if not passage.proper:
            return []
        known = self._entity_names()
        out: list[tuple[int, int]] = []
        for run in passage.proper:
            padded = f" {run} "
            if run in known or not any(v in padded and not padded.endswith(v) for v in value):
                continue  # a run ending with the value is one of its kind ("Managing Director")
            rest = padded
            for part in (*value, *own):
                rest = rest.replace(part, " ")
            toks = rest.split()
            if any(" ".join(toks[i:j]) in known for i in range(len(toks)) for j in range(i + 1, len(toks) + 1)):
                continue  # the run names known entities beside the value: no unknown name
            if [t for t in toks if t not in _PARTICLES and t not in _NAME_SUFFIXES]:
                out += _occurrences(passage.norm, padded)
        return out

    def _named_under_another_noun(self, passage: Passage, entity: str, names: Sequence[str]) -> bool:
        """Is the subject's name only in cells whose header is another table's noun ("Ardmair"
        under "Vessel" is the ship, not the port of that name)?"""
        if passage.cells is None or passage.heads is None or not self.entity_tables:
            return False
        nouns = self._table_nouns()
        own = nouns.get(entity.partition(":")[0], frozenset())
        cells = [i for i, c in enumerate(passage.cells) if any(p in c for p in names)]
        return bool(cells) and all(
            (words := _column_words(passage.heads[i])) and not words & own
            and any(n and n <= words for t, n in nouns.items() if n != own) for i in cells)

    def _table_nouns(self) -> dict[str, frozenset[str]]:
        if self._nouns is None:
            from ragdx.gen.naming import readable_entity

            self._nouns = {t: _column_words(readable_entity(t)) for t in self.entity_tables}
        return self._nouns

    def _row_of_another(self, hop: Hop, passage: Passage, names: Sequence[str]) -> bool:
        """Is a table row that does not name the subject about another entity it names (a rota
        under a hub's heading: "| Harriet Mercer | Hub |" gives her role, not the hub's kind)? Not
        when the value's header names the fact's column."""
        cells, heads = passage.cells, passage.heads
        if cells is None or heads is None or any(hop.descriptors):
            # (a row of a log of numbered rows names the entities it relates, a visit's job and
            # engineer: its other values tell the row apart, see _described)
            return False
        subjects = {v[0].strip() for _, ns in hop.subjects for v, _ in ns if len(v) == 1} | {n.strip() for n in names}
        known = self._entity_names()
        values = hop.value_phrases()
        others = False
        for cell in passage.norm.split(SEP)[:1]:
            toks = cell.split()
            grams = {" ".join(toks[i:i + n]) for n in range(1, 7) for i in range(len(toks) - n + 1)}
            others = any(g in known and g not in subjects and not any(g in f" {v.strip()} " or v.strip() in g
                                                                     for v in values) for g in grams)
        if not others:
            return False
        want = _column_words(hop.column) | _column_words(hop.ref_noun)
        return not any(any(v in c for v in values) and _column_words(h) & want
                       for c, h in zip(cells, heads, strict=True))

    def _recipient_lines(self, passage: Passage, names: Sequence[str]) -> set[int]:
        """The lines of a card addressed to someone ("To: Bristol office", "Cc: ...") that do not
        name the subject: what they say is the recipient's, not the sender's the card is about."""
        out = set()
        lines = [ln for ln in self._text_of(passage).splitlines() if tokens(ln)]
        for i, line in enumerate(lines):
            m = KEY_VALUE.match(line)
            if m and fold_word(m.group(1).strip()) in _RECIPIENT_KEYS \
                    and not any(p in f" {' '.join(tokens(m.group(2)))} " for p in names):
                out.add(i)
        return out

    def _heading_of_another(self, passage: Passage, values: Sequence[str], names: Sequence[str]) -> bool:
        """Is there, between the heading that gives a value and the passage, a heading naming
        another entity ("Wexcombe Learning" › "GIS for Beginners" › "Series: Core Texts ..."): the
        value is that entity's (the book's imprint), not the subject's the passage mentions."""
        pieces = [f" {p.strip()} " for p in passage.ctx.split(SEP)]
        if passage.kind == "row" and passage.header is not None or passage.kind == "branch":
            # a table's header names its columns ("BST", a course's code), no entity above; a tree's
            # parent line is the line above, read by _parent_of_another
            pieces = pieces[:-1]
        at = max((i for i, piece in enumerate(pieces) if any(v in piece for v in values)), default=None)
        if at is None:
            return False
        known = self._entity_names()
        own = {n.strip() for n in names} | {v.strip() for v in values}
        for piece in pieces[at + 1:]:
            toks = piece.split()
            for size in range(min(len(toks), 8), 0, -1):
                for i in range(len(toks) - size + 1):
                    gram = " ".join(toks[i:i + size])
                    if gram in known and gram not in own and not any(gram in o for o in own):
                        return True
        return False

    def _parent_of_another(self, passage: Passage, values: Sequence[str], names: Sequence[str]) -> bool:
        """In a tree, is the value in the parent line beside another entity's name ("Julian Treve
        (Editorial Director)" above "Felix Harker"): it is the parent's, not the child's (only a line
        naming no one, a group's label, gives its children a value)."""
        parent = f" {passage.ctx.split(SEP)[-1].strip()} "
        if not any(v in parent for v in values):
            return False
        return bool(self._known_grams(parent, {n.strip() for n in names} | {v.strip() for v in values}))

    def _known_grams(self, piece: str, own: set[str]) -> list[str]:
        """The names of known entities in ``piece`` (a padded phrase) other than ``own``."""
        known = self._entity_names()
        toks = piece.split()
        out = []
        for size in range(min(len(toks), 8), 0, -1):
            for i in range(len(toks) - size + 1):
                gram = " ".join(toks[i:i + size])
                if gram in known and gram not in own and not any(gram in o for o in own):
                    out.append(gram)
        return out

    def _stated_in_ctx(self, ctx: str, value: tuple[str, ...], own: Sequence[str], ref_noun: str,
                       runs: tuple[str, ...] = ()) -> bool:
        """Does the heading a passage sits under state ``value`` itself, not inside another
        entity's name ("Lyon" in a project titled "Lyon car park survey"), and, for a name that is
        only another attribute ("Lyon" for an office), beside its table's noun?"""
        blocked = self._other_names_around(ctx, value, own, ref_noun)
        # nor inside an unknown name a heading gives a firm, a venue or an event ("Eilean Dubh
        # Highland Games" states no island)
        named = tuple(r for r in runs if r.split()[-1] in _ORGANISATION_WORDS)
        blocked += self._unknown_names_around(Passage(0, 0, 0, ctx, proper=named), value, own) if named else []
        for v in value:
            spans = [(a, b) for a, b in _occurrences(ctx, v)
                     if not any(x <= a and b <= y and (y - x) > (b - a) for x, y in blocked)]
            if not spans:
                return False
            noun = self.alt_nouns.get(v)
            if noun and noun.strip() == ref_noun.strip() and noun not in ctx:
                return False
        return True

    def _other_names_around(self, norm: str, value: tuple[str, ...], own: Sequence[str],
                            ref_noun: str = "", *, nouns: bool = True) -> list[tuple[int, int]]:
        """Spans of ``norm`` where a longer name of another entity holds one of ``value``'s phrases."""
        known = self._entity_names()
        out: list[tuple[int, int]] = []
        for v in value:
            core = v.strip()
            if not core:
                continue
            noun = self.alt_nouns.get(v) if nouns else None
            if noun and noun.strip() == ref_noun.strip():
                noun = None  # the value is that office: "the Malmö office" states it
            for a, b in _occurrences(norm, v):
                if noun and norm.startswith(noun, b - 1):
                    out.append((a, b - 1 + len(noun)))  # "malmö office": the office, by its city
                    continue
                # the longest known name of up to six words around the value
                left = norm[:a].split()[-5:]
                right = norm[b:].split()[:5]
                for i in range(len(left) + 1):
                    for j in range(len(right) + 1):
                        if i == j == 0:
                            continue
                        words = left[len(left) - i:] + [core] + right[:j]
                        cand = " ".join(words)
                        if SEP not in words and cand in known and f" {cand} " not in own:
                            start = a - len(" ".join(left[len(left) - i:])) - (1 if i else 0)
                            out.append((start, b + len(" ".join(right[:j])) + (1 if j else 0)))
        return out

    def expand_truncated(self) -> int:
        """Names a table cell or a list cut short ("Harbour Towns in the Channel ~", "Readings in
        Riparian…") written out in the passages' normalised text, where exactly one known name
        starts with what is left (three words at least); returns how many were expanded."""
        known = sorted(self._entity_names())
        if not known:
            return 0
        done = 0
        text_of = self.index.texts
        for pid, passage in enumerate(self.index.passages):
            text = text_of[passage.doc][passage.start:passage.end]
            if not any(m in text for m in ("~", "…", "...")):
                continue
            for m in re.finditer(r"([^|\n]{3,}?)\s*(?:~|…|\.\.\.)(?=\s|\||$)", text):
                prefix = " ".join(tokens(m.group(1).split("  ")[-1]))
                if len(prefix.split()) < 3:
                    continue
                # cut at a word or inside one ("Chop-suey Chin~")
                start = bisect.bisect_left(known, prefix)
                hits: list[str] = []
                while start < len(known) and known[start].startswith(prefix) and len(hits) < 2:
                    if known[start] != prefix:
                        hits.append(known[start])
                    start += 1
                if len(hits) == 1 and f" {prefix} " in passage.norm:
                    passage.norm = passage.norm.replace(f" {prefix} ", f" {hits[0]} ", 1)
                    if passage.cells is not None:
                        passage.cells = tuple(c.replace(f" {prefix} ", f" {hits[0]} ", 1) for c in passage.cells)
                    for tok in hits[0].split():
                        postings = self.index.postings.setdefault(tok, [])
                        if not postings or postings[-1] != pid:
                            postings.append(pid)
                    done += 1
        if done:
            self.index._phrase_cache.clear()
        return done

    def _first_entity_cell(self, cells: Sequence[str], upto: int) -> int:
        """The first of a row's cells (before ``upto``) that names an entity of the database: the
        row is about that one (a roster's own "EMP-05" column names nothing; a log's visitor does)."""
        known = self._entity_names()
        for k in range(upto):
            toks = cells[k].split()
            for size in range(min(len(toks), 8), 0, -1):
                if any(" ".join(toks[i:i + size]) in known for i in range(len(toks) - size + 1)):
                    return k
        return upto

    def _entity_names(self) -> frozenset[str]:
        if self._known is None:
            names: set[str] = set()
            for table in self.entity_tables:
                for norm, written in (self.table_names(table) if self.table_names else {}).items():
                    # a bare number or a lower-case word names nothing in a cell on its own
                    if not norm.replace(" ", "").isdigit() and (" " in norm or any(c.isupper() for c in written)):
                        names.add(norm)
                        # "MV Eilean Dubh" is "Eilean Dubh" in a fleet list
                        names.update(v[0][0].strip() for v in text_variants(written)[1:3]
                                     if len(v[0]) == 1 and " " in v[0][0].strip())
            self._known = frozenset(names)
        return self._known

    def _weigh_long(self, hop: Hop, pid: int, subject_phrases: list[list[str]], about: list[set[int]]) -> float:
        """A long text value (notes, a description) is stated by a passage holding each of its
        sentences (the candidates already do) that is about its subject: named in the passage, by
        what it is read under, or the document's subject."""
        passage = self.index.passages[pid]
        for names, docs_about in zip(subject_phrases, about, strict=True):
            if not (any(p in passage.norm or p in passage.ctx for p in names) or passage.doc in docs_about):
                return 0.0
        return TOPIC_WEIGHT

    def _under_column(self, passage: Passage, value: tuple[str, ...], column: str, others: frozenset[str],
                      *, strict: bool = False) -> bool:
        """Can the number ``value`` be ``column``'s, by the header of its cell (or the key of its
        card line)? No when the header names another column of the table and not this one ("Units
        in stock: 39" is no reorder level); yes when it names this one or (unless ``strict``)
        nothing known."""
        from ragdx.kb.normalise import tokens

        doc = self.index.texts[passage.doc]
        want = _column_words(column)
        if passage.kind == "card":
            for line in definition_lines(doc[passage.start:passage.end].splitlines()):
                m = KEY_VALUE.match(line)
                # a table of two columns is a card too ("| Since | 06/30/2008 |")
                key, val = (m.group(1), m.group(2)) if m else (split_cells(line) + ["", ""])[:2] \
                    if len(split_cells(line)) == 2 and "|" in line else ("", "")
                said = f" {' '.join(tokens(val))} "
                if key and all(v in said for v in value):
                    words = _column_words(key)
                    if words & want or not words & others:
                        return True
                    # a second clause of the line with its own word ("Fee: £42,475, started 26th
                    # January 2024"): the words just before the value say whose it is
                    before = said[:said.index(value[0])].split()[-3:]
                    if before and _column_words(" ".join(before)) & want:
                        return True
            return False
        if passage.header is None:
            return not strict
        row = split_cells(doc[passage.start:passage.end])
        head = split_cells(doc[passage.header[0]:passage.header[1]])
        if len(row) != len(head):
            return not strict  # cells and headers do not line up: nothing to tell
        if strict and _column_words(row[0]) & want:
            return True  # a table with one column per entity: the row's first cell is its label
        for cell, title in zip(row, head, strict=True):
            if all(v in f" {' '.join(tokens(cell))} " for v in value):
                words = _column_words(title)
                # a header naming a measure of its own ("Disc." over 0.00) is not this column's
                if words & want or not (strict or words & others or words & _MEASURE_WORDS):
                    return True
        return False

    def _speaks_of(self, pid: int, names: Sequence[str]) -> bool:
        """Is the passage's use of ``names`` a mention of the entity? A name that is only another
        attribute ("Leeds" for office K-01) counts beside its table's noun — in the passage ("Which
        office are you in? A: Leeds, most days."), in what it is read under, or in the document's id
        or title."""
        alt = self.alt_nouns
        if not alt or not any(p in alt for p in names):
            return True
        passage = self.index.passages[pid]
        if passage.kind == "row":
            return True  # a table's column says what its cells name ("Received at: Tidewell")
        here = passage.norm
        if any(p not in alt and p in here for p in names):
            return True
        doc = self.index.corpus.documents[passage.doc]
        around = here + passage.ctx + phrase(doc.id.replace("/", " ")) + phrase(doc.title or "")
        seen = [p for p in names if p in alt and p in here + passage.ctx]
        return any(alt[p] in around or alt[p].rstrip() + "s " in around for p in seen)

    def _related_in_card(self, passage: Passage, line: int, entity: str, names: Sequence[str]) -> bool:
        """Is the card's line ``line`` a relation of the card's own subject ("Client: Cardiff Bay
        Leisure plc" in a project's sheet, headed by the project): a key naming the entity's table
        over its name, under a heading naming another entity? The lines below are the project's
        ("Site: Cardiff"), not the client's."""
        if not passage.ctx:
            return False
        lines = [ln for ln in definition_lines(self._text_of(passage).splitlines())
                 if phrase(ln).strip()]  # the card's sentences: its lines with words
        if line >= len(lines):
            return False
        m = KEY_VALUE.match(lines[line])
        cells = split_cells(lines[line]) if "|" in lines[line] else []
        key = m.group(1) if m else cells[0] if len(cells) == 2 else ""
        nouns = {n.strip() for n in self._own_nouns(entity.partition(":")[0])}
        if not key or not _column_words(key) & {w for n in nouns for w in n.split()}:
            return False
        return bool(self._known_grams(passage.ctx, {n.strip() for n in names}))

    def _key_line(self, pid: int) -> bool:
        """Is passage ``pid`` a line explaining initials or codes ("Key: MC Miriam Cole; TA Tom
        Ashcroft")? It says who the initials are, nothing of what they did. Read once per passage."""
        hit = self._key_lines.get(pid)
        if hit is None:
            text = self._text_of(self.index.passages[pid])
            hit = self._key_lines[pid] = "\n" not in text.strip() and len(legend(text)) >= 2
        return hit

    def _quoted(self, passage: Passage) -> bool:
        """Is the passage inside a quoted reply (its line starts with ``>`` in the document)?"""
        text = self.index.corpus.documents[passage.doc].text
        start = text.rfind("\n", 0, passage.start) + 1
        return text[start:passage.end].lstrip().startswith(">")

    def _full_mention(self, pid: int, sentence: int, names: Sequence[str]) -> bool:
        """A surname alone names a person only when no other given name stands before it: "Harold
        Fuller" is not Andrew Fuller ("Fuller approved it", "Mr Fuller" are)."""
        if not self._speaks_of(pid, names):
            return False
        partial = self.partial_names
        if not partial or not any(p in partial for p in names):
            return True
        sent = self.index.passages[pid].norm.split(SEP)[sentence]
        padded = f" {sent.strip()} "
        if any(p not in partial and p in padded for p in names):
            return True
        text = self._text(pid)
        for p in names:
            if p not in partial or p not in padded:
                continue
            word = p.strip().split()[0]
            for m in re.finditer(rf"(?<!\w)(\w+)[ \t]+{re.escape(word)}(?!\w)", text, flags=re.I):
                before = m.group(1)
                if fold_word(before) == word:
                    continue
                if before[:1].isupper() and fold_word(before) not in _NAME_PREFIXES and not before.isupper():
                    return False
            return True
        return True

    def _text(self, pid: int) -> str:
        return self._text_of(self.index.passages[pid])

    def _row_of_link_first(self, pid: int, sentence: int, value: tuple[str, ...], tables: Sequence[str]) -> bool:
        """Does sentence ``sentence`` name a row of a linking table before the value ("The Eczema
        Clinic runs every Wednesday at Burnham Community": the clinic's site, not its doctor's base)?
        Named after it ("He will be based at Orchard Road and takes over the Haematuria Clinic"), the
        sentence states the value first, of its own subject."""
        if not tables:
            return False
        sent = _sentence_of(self.index.passages[pid].norm, sentence)
        at = min((sent.find(v) for v in value if v in sent), default=-1)
        for t in tables:
            for name in self._names_in(pid, sentence, t):
                where = sent.find(f" {name} ")
                if 0 <= where < at:
                    return True
        return False

    def _opens_with_another(self, pid: int, sentence: int, names: Sequence[str]) -> bool:
        """Does sentence ``sentence`` of passage ``pid`` name another known entity before the subject
        ("Barry Island Promenade Drainage for Vale of Glamorgan Council was handed over ...": the
        paragraph is about the project, not about the client it names second)?"""
        sent = _sentence_of(self.index.passages[pid].norm, sentence)
        first = min((sent.find(n) for n in names if n in sent), default=-1)
        if first <= 0:
            return False
        return bool(self._known_grams(sent[:first + 1], {n.strip() for n in names}))

    def _names_in(self, pid: int, sentence: int, table: str) -> frozenset[str]:
        """The names of ``table``'s entities in sentence ``sentence`` of passage ``pid``."""
        if self.table_names is None:
            return frozenset()
        key = (pid, table, sentence)
        found = self._lead_names.get(key)
        if found is None:
            known = self.table_names(table)
            longest = self._longest.get(table)
            if longest is None:
                longest = self._longest[table] = max((n.count(" ") + 1 for n in known), default=0)
            norm = self.index.passages[pid].norm
            parts = norm.split(SEP)
            toks = parts[sentence].split() if sentence < len(parts) else []
            grams = {g for size in range(1, min(longest, 8) + 1) for i in range(len(toks) - size + 1)
                     if (g := " ".join(toks[i:i + size])) in known and not g.isdigit()}
            if any(" " not in g for g in grams):
                # a one-word name that is also a word ("Total" the company, "total assets") names
                # the entity only when written as the database writes it, capitals included
                text = self._text(pid)
                grams = {g for g in grams if " " in g or known[g].islower()
                         or re.search(rf"(?<!\w){re.escape(known[g])}(?!\w)", text)}
            found = frozenset(grams)
            self._lead_names[key] = found
        return found

    def _leads_with_another(self, pid: int, entity: str, names: Sequence[str]) -> bool:
        """Does passage ``pid`` open by naming another entity of the subject's table?"""
        table = entity.partition(":")[0]
        found = self._names_in(pid, _lead_sentence(self.index.passages[pid].norm), table)
        return bool(found - {n.strip() for n in names})

    def _named_before(self, pid: int, line: int, names: Sequence[str]) -> bool:
        """Does a card name another entity (of any table) on a line before ``line``?"""
        own = {n.strip() for n in names}
        for k in range(line):
            for table in self.entity_tables:
                if self._names_in(pid, k, table) - own:
                    return True
        return False


#: short forms of column words in table headers and card keys
_ABBREVIATIONS = {"qty": "quantity", "postcode": "postal", "zip": "postal", "proj": "project", "dept": "department",
                  "emp": "employee", "cust": "customer", "acct": "account", "prod": "product", "inv": "invoice",
                  "no": "number", "nr": "number", "num": "number", "amt": "amount",
                  "tel": "phone", "ph": "phone", "ext": "extension", "disc": "discount", "dob": "birth", "pp": "page",
                  "pcs": "quantity", "units": "unit", "cost": "price",
                  "ordered": "order", "shipped": "ship", "born": "birth", "hired": "hire", "joined": "hire"}
_GENERIC_WORDS = COLUMN_FILLER_WORDS


#: short forms of units of time, one spelling each ("40 h" of an hours budget is in hours)
_UNIT_FORMS = {"h": "hour", "hr": "hour", "hrs": "hour", "hours": "hour", "min": "minute", "mins": "minute",
               "minutes": "minute", "yr": "year", "yrs": "year", "years": "year", "days": "day", "sec": "second",
               "secs": "second", "wk": "week", "wks": "week", "weeks": "week", "months": "month"}


def _same_units(words: frozenset[str]) -> frozenset[str]:
    """``words`` with each unit's short form also written in full ("h" -> "h", "hour")."""
    extra = {_UNIT_FORMS[w] for w in words if w in _UNIT_FORMS}
    return words | extra if extra else words


@functools.lru_cache(maxsize=4096)
def _column_words(name: str) -> frozenset[str]:
    from ragdx.gen.naming import readable_name
    from ragdx.kb.normalise import tokens

    out = set()
    for w in tokens(readable_name(name) if re.fullmatch(r"[\w]+", name.strip()) else name):
        w = _ABBREVIATIONS.get(w, w)
        for suffix in ("ing", "ed", "es", "s"):
            if len(w) > len(suffix) + 3 and w.endswith(suffix):
                w = w[: -len(suffix)]
                break
        if w not in _GENERIC_WORDS:
            out.add(w)
    return frozenset(out)



@functools.lru_cache(maxsize=4096)
def _column_head(name: str) -> str:
    """The last of a column's words as :func:`_column_words` reads them: its head noun ("phone" of
    HomePhone, "stock" of UnitsInStock)."""
    from ragdx.gen.naming import readable_name

    for w in reversed(tokens(readable_name(name) if re.fullmatch(r"[\w]+", name.strip()) else name)):
        words = _column_words(w)
        if words and not w.isdigit():
            return next(iter(words))
    return ""


def _is_quantity(value: tuple[str, ...]) -> bool:
    """A value that another column of the same row could hold too: a number or a date."""
    return all(re.fullmatch(r"\s*(?:z\w+|[\d.]+)\s*", v) for v in value)


#: units a number is written with (as :func:`_column_words` reads them)
_UNITS = frozenset({"kg", "g", "t", "tonne", "ton", "lb", "km", "m", "m2", "sqm", "cm", "mm", "l", "litre", "liter",
                    "ml", "min", "minute", "h", "hr", "hour", "day", "week", "month", "year", "yr", "pp", "page",
                    "percent", "%", "eur", "gbp", "usd", "sek", "nok", "dkk", "mile", "knot"})

#: units of time: a number written with one is a duration (or an age), which a person never reads
#: as a count, a price or a level
_TIME_UNITS = frozenset({"s", "sec", "second", "min", "mins", "minute", "h", "hr", "hrs", "hour", "day", "days",
                         "week", "month", "year", "yr", "yrs", "night"})
#: column words of a duration or an age, which a number with a unit of time may state
_TIME_WORDS = frozenset({"duration", "time", "length", "age", "period", "term", "tenure", "lead", "delay", "crossing",
                         "journey", "trip", "stay", "notice", "interval", "frequency", "experience", "service"})

@functools.cache
def _time_words() -> tuple[frozenset[str], frozenset[str]]:
    """:data:`_TIME_UNITS` and :data:`_TIME_WORDS` as :func:`_column_words` reads them ("minutes" is
    "minut", "crossing" is "cross")."""
    return tuple(frozenset(w for u in group for w in _column_words(u)) | group  # type: ignore[return-value]
                 for group in (_TIME_UNITS, _TIME_WORDS))


#: header words that name a measure of a row of their own (an order line's discount, price, quantity):
#: a number under one is that measure, not another column's
_MEASURE_WORDS = frozenset({"discount", "price", "quantity", "total", "amount", "subtotal", "tax", "vat", "rate"})

#: column words of a share, which a number with "%" may state
_SHARE_WORDS = frozenset({"percent", "discount", "rate", "share", "pct", "margin", "tax", "vat", "commission", "ratio"})

#: keys of a message's lines that name its recipients
_RECIPIENT_KEYS = frozenset({"to", "cc", "bcc", "recipient", "recipients", "attn", "attention"})

#: words joining the capitalised words of one name ("Bank of England")
_PARTICLES = frozenset({"and", "of", "de", "du", "la", "le", "van", "von", "der", "den", "da", "di"})

#: words that end the name of a firm, a venue or an event ("... Travel Ltd", "... Hotel", "... Highland
#: Games"): after a known name, in a heading, they make the name another's
_ORGANISATION_WORDS = frozenset(w for word in """ltd limited inc llc plc gmbh kg ag sa srl spa bv nv oy ab co corp
    company sons söhne brothers partners group holdings hotel inn guesthouse distillery brewery bar lounge restaurant
    cafe café pub club centre center school college academy university church trust society association foundation
    games festival fair taxi taxis museum gallery theatre theater cinema farm shop stores market""".split()
    for w in (phrase(word).strip(),) if w)

#: what may follow a name without making it another one: a possessive ("Federal Shipping's"), a
#: generation ("Robert Hale Jr.")
_NAME_SUFFIXES = frozenset({"s", "jr", "sr", "junior", "senior", "ii", "iii", "iv"})

#: words that may stand before a surname without being another given name
_NAME_PREFIXES = {"dr", "mr", "mrs", "ms", "miss", "prof", "sir", "dame", "mx", "herr", "frau", "madame", "monsieur",
                  "señor", "senor", "senora", "the", "and", "by", "from", "to", "with", "for", "of", "cc", "per",
                  "ask", "contact", "call", "dear", "hi", "hello", "thanks"}


def fold_word(word: str) -> str:
    from ragdx.kb.normalise import fold

    return fold(word).strip(".")


def _lead_sentence(norm: str) -> int:
    """Index of a passage's first sentence with some substance (a heading is not one)."""
    for i, sentence in enumerate(norm.split(SEP)):
        if len(sentence.split()) >= 5:
            return i
    return 0


#: a line that is a label and a list of three or more short items ("Present: A, B, C")
_LABELLED_LIST = re.compile(r"^\s*[*_]*[\w][\w .'-]{0,29}[*_]*:[*_]*\s*"
                            r"(?:[^,;:()\n]{1,40}[,;]\s*){2,}[^,;:()\n]{1,40}$")

#: words after which a person is named as someone's manager, not as the sentence's subject
#: ("He sits with the Editorial team and reports to Alasdair Finch": the team is his)
_MANAGER_LEADS = (" reports to", " report to", " reporting to", " reported to", " managed by", " supervised by",
                  " line manager", " assistant to", " deputy to")


def _sentence_of(norm: str, i: int) -> str:
    """Sentence ``i`` of a normalised passage, padded with spaces ("" past its last)."""
    parts = norm.split(SEP)
    return f" {parts[i].strip()} " if i < len(parts) else ""


def _only_as_manager(norm: str, sentence: int, names: Sequence[str]) -> bool:
    """Is the subject named in sentence ``sentence`` of ``norm`` only after words that make it
    someone's manager? The sentence's other values are then that someone's."""
    sent = _sentence_of(norm, sentence)
    spans = [sp for p in names for sp in _occurrences(sent, p)]
    # a surname inside the full name is the same mention
    starts = [a for a, b in spans if not any(x <= a and b <= y and (y - x) > (b - a) for x, y in spans)]
    return bool(starts) and all(sent[:a].rstrip().endswith(_MANAGER_LEADS) for a in starts)


#: a label and a list of three or more names (a name may carry a role in brackets): "Present: A.
#: Fuller (chair), S. Buchanan, N. Davolio"
_NAME_LIST = re.compile(r"(?:^|[.;]\s+)[*_]*[A-Z][\w .'-]{0,29}[*_]*:[*_]*\s*(?:[^,;:\n]{1,60}[,;]\s*){2,}"
                        r"[^,;:\n]{1,60}")

#: words that deny that a name which follows is the one meant: "NOT our customer Around the Horn",
#: "Not related to our customer Ernst Handel", "not to be confused with our client X"
_DENIALS = re.compile(r"(?:^|\s)(?:not|unrelated|no\s+relation|no\s+connection)"
                      r"(?:\s+(?:related|connected|affiliated|associated|linked|to|be|confused|with|the|same|as|"
                      r"part|of|in|common))*(?:\s+(?:our|your|their|the|a|an|any)(?:\s+\w+)?)?\s*$")


def _denied(norm: str, start: int) -> bool:
    """Is the name at ``start`` of the normalised ``norm`` named only to deny it is the one meant
    ("They are a travel agency, NOT our customer Around the Horn")? A person reads such a mention
    as saying the text is about something else. Only the words of such a denial, and a noun after
    "our" or "the" ("customer"), may stand between "not" and the name: "We could not reach Anna
    Keller" names her."""
    before = norm[max(0, norm.rfind(SEP, 0, start) + 1):start]
    return bool(_DENIALS.search(" " + " ".join(before.split()[-8:])))


def _names_a_row_of(norm: str, sentence: int, nouns: Sequence[str]) -> bool:
    """Does sentence ``sentence`` of ``norm`` name a row by one of ``nouns`` and its number ("visit
    #220", "visit no. 220"), or open with the noun as a card line's key does ("Last site visit:
    2024-12-28 (setting-out check, Dr M. Cole)")? What it relates is that row's: the inspector of
    the visit, not the project's lead."""
    sent = _sentence_of(norm, sentence)
    return any(re.search(rf" {re.escape(n)} (?:no |number )?\d+ ", sent)
               or re.match(rf" (?:(?:last|latest|next|first|previous) )?{re.escape(n)} ", sent) for n in nouns)


def _occurrences(norm: str, needle: str) -> list[tuple[int, int]]:
    out = []
    pos = norm.find(needle) if needle else -1
    while pos >= 0:
        out.append((pos, pos + len(needle)))
        pos = norm.find(needle, pos + 1)
    return out


# ----------------------------------------------------------------------------- facts from the database


@dataclass(slots=True)
class _TableMeta:
    info: Any
    key: list[str]
    names: list[str]
    association: bool
    surrogate: set[str]
    #: how a row named by several columns is written ("{carrier} flight {flight} on ..."), worked out
    #: once per table rather than once per row; None for a name or no name
    pattern: str | None = None


class FactResolver:
    """Turns ``Table.Column@key`` facts into hops, reading the rows of each table once."""

    def __init__(self, engine, schema, aliases: Mapping[str, Sequence[str]] | None = None):
        self.engine = engine
        self.schema = schema
        self.aliases = {k: list(v) for k, v in (aliases or {}).items()}
        self._rows: dict[str, dict[str, dict[str, Any]]] = {}
        self._names: dict[str, list[Variant]] = {}
        self._meta: dict[str, _TableMeta] = {}
        self._all_names: dict[str, dict[str, str]] = {}
        self._partial: frozenset[str] | None = None
        self._flags: dict[str, bool] = {}
        self._others: dict[str, frozenset[str]] = {}
        self._alt: dict[str, list[str]] = {}
        self._first_word: dict[tuple[str, str], str | None] = {}
        self._initials: dict[str, frozenset[str]] = {}
        self._codes: dict[str, list[str]] = {}
        self._no_name: dict[str, bool] = {}
        self._desc: dict[str, dict[str, Any]] = {}
        self._relations: dict[tuple[str, str], bool] = {}
        self._linking: dict[tuple[str, str], tuple[str, ...]] = {}
        self._roles: dict[str, frozenset[str]] = {}
        self._column_surnames: dict[tuple[str, str], dict[str, str]] = {}
        self._numbered: dict[str, list[tuple[str, str, str]]] = {}
        self._firsts: dict[str, dict[str, int]] = {}
        self._unique_own: dict[str, dict[str, list[str]]] = {}
        self._titled: dict[str, dict[str, tuple[str, ...]]] = {}
        self._texts: dict[str, list[str]] | None = None
        self._title_column: dict[str, str | None] = {}
        self._own_names: dict[str, list[str]] = {}
        self._coded_tables: dict[str, bool] = {}

    def meta(self, table: str) -> _TableMeta:
        """What linking needs to know of a table, worked out once (the schema helpers profile data)."""
        hit = self._meta.get(table)
        if hit is None:
            from ragdx.gen.naming import composite_name
            from ragdx.gen.sql_templates import entity_key, is_association, is_surrogate, lookup_keys

            info = self.schema.table(table)
            keys = entity_key(info)
            names = lookup_keys(info)
            pattern = composite_name(info.name, names) if len(names) >= 2 else None
            if pattern is None:
                names = names[:2]  # a name, or a first and last name; a flight keeps carrier, number, date
            hit = _TableMeta(info, keys, names, is_association(info),
                             {c.name for c in info.columns if is_surrogate(info, c.name)}, pattern)
            self._meta[table] = hit
        return hit

    def rows(self, table: str) -> dict[str, dict[str, Any]]:
        hit = self._rows.get(table)
        if hit is None:
            import sqlalchemy as sa

            from ragdx.gen.qa import key_text

            meta = self.meta(table)
            info, cols = meta.info, meta.key
            t = sa.table(info.name, *(sa.column(c.name) for c in info.columns))
            hit = {}
            with self.engine.connect() as conn:
                for r in conn.execute(sa.select(t)):
                    row = dict(r._mapping)
                    key = "|".join(key_text(row[c]) for c in cols)
                    hit[key] = row
            self._rows[info.name] = hit
            self._rows[table] = hit
        return hit

    def table_names(self, table: str) -> Mapping[str, str]:
        """The names of every entity of ``table``: normalised phrase (unpadded) → the name as the
        database writes it, computed once."""
        cache = self._all_names
        hit = cache.get(table)
        if hit is None:
            meta = self.meta(table)
            out: dict[str, str] = {}
            for key, row in self.rows(table).items():
                for name in self._written_names(meta, key, row) + self.aliases.get(f"{meta.info.name}:{key}", []):
                    norm = phrase(name).strip()
                    if norm:
                        out.setdefault(norm, name.strip())
            hit = cache[table] = out
        return hit

    def _written_names(self, meta: _TableMeta, key: str, row: Mapping[str, Any]) -> list[str]:
        """A row's names as written: its name columns (a person's first and last name together,
        never one of them alone), and a text code that is its key ("ALFKI", "S-04"): documents
        name a customer by its code as often as by its name."""
        from ragdx.db.schema import name_pair
        from ragdx.gen.dataset import value_text
        from ragdx.gen.naming import fill_name

        cols = [c for c in meta.names if row.get(c) is not None]
        pair = name_pair(meta.info)
        pattern = meta.pattern
        if pattern is not None:
            # a row named by several columns is written as the questions and documents name it ("UA
            # flight 1545 on 1/1/2013"), never by one part alone ("2013" or "1" would name every row)
            out = [fill_name(pattern, {c: value_text(row[c]) for c in meta.names})] if len(cols) == len(meta.names) \
                else []
            cols = []
        elif pair and set(pair) <= set(cols):
            first, last = (str(row[c]).strip() for c in pair)
            out = [f"{first} {last}", f"{last}, {first}"]
            cols = [c for c in cols if c not in pair]
        else:
            out = []
        out += [str(row[c]) for c in cols]
        out += self._short_names(meta, row)
        out += self._prefix_dropped(meta, row)
        out += self._kind_dropped(meta, row)
        out += self._parent_numbered(meta, row)
        out += [str(row[c]).strip() for c in self._alt_names(meta) + self._code_columns(meta)
                if row.get(c) is not None]
        out += self._unique_own_names(meta).get(key, [])
        if len(meta.key) == 1 and not meta.association and row.get(meta.key[0]) is not None and pattern is None:
            # "project 1110", "order no. 10248", "visit #209": a key written after its table's noun
            # names the row whatever the key is (a surrogate number too), except where the row is
            # named by several columns: "flight 107" is a flight number, not row 107
            noun = self._noun(meta)
            key_text_ = str(row[meta.key[0]]).strip()
            if noun and key_text_:
                out += [f"{noun} {key_text_}", f"{noun} no {key_text_}", f"{noun} number {key_text_}"]
        if len(meta.key) == 1 and not meta.association:
            # a text key with letters is a code people use ("ALFKI"), whatever its column is called
            code = row.get(meta.key[0])
            if isinstance(code, str) and re.fullmatch(r"(?=.*[A-Za-z])[\w-]{3,12}", code.strip()) \
                    and code not in out:
                out.append(code.strip())
        return out

    def _parent_numbered(self, meta: _TableMeta, row: Mapping[str, Any]) -> list[str]:
        """A row named by a code is also named by its parent's name and its own number within it
        ("Harrowgate Laboratories 1.07", "Room 1.07, Harrowgate Laboratories", "Harrowgate 1.07" for
        room HLB.1.07 of building HLB), where that pair tells the rows apart."""
        from ragdx.gen.qa import key_text

        out: list[str] = []
        for fk_col, ref_table, num_col in self._numbered_within(meta):
            ref_meta = self.meta(ref_table)
            parent = self.rows(ref_table).get(key_text(row.get(fk_col)))
            number = str(row.get(num_col) or "").strip()
            if parent is None or not number:
                continue
            firsts = self._first_words(ref_table)
            for c in ref_meta.names:
                name = str(parent.get(c) or "").strip()
                if not name:
                    continue
                out += [f"{name} {number}", f"{number} {name}"]
                first = name.split()[0]
                if len(name.split()) > 1 and len(first) >= 4 and firsts.get(first.casefold()) == 1:
                    out.append(f"{first} {number}")
        return out

    def _first_words(self, table: str) -> dict[str, int]:
        """How many of ``table``'s names begin with each word (a first word no other shares
        shortens its name: "Harrowgate" for Harrowgate Laboratories)."""
        hit = self._firsts.get(table)
        if hit is None:
            meta = self.meta(table)
            hit = defaultdict(int)
            for r in self.rows(table).values():
                for c in meta.names:
                    words = str(r.get(c) or "").split()
                    if words:
                        hit[words[0].casefold()] += 1
            self._firsts[table] = hit = dict(hit)
        return hit

    def _numbered_within(self, meta: _TableMeta) -> list[tuple[str, str, str]]:
        """(foreign key, its table, number column) for a table whose rows are named by codes and
        numbered within a parent that has names of its own: the pair (parent, number) is unique, the
        number short (a room's "1.07" in building HLB)."""
        from ragdx.db.schema import own_number

        table = meta.info.name
        hit = self._numbered.get(table)
        if hit is not None:
            return hit
        hit = []
        rows = list(self.rows(table).values())
        coded = bool(rows) and (not meta.names or all(
            sum(_looks_like_code(r.get(c)) for r in rows[:50]) > min(len(rows), 50) // 2 for c in meta.names))
        if coded and not meta.association:
            for fk in meta.info.foreign_keys:
                if len(fk.columns) != 1 or not self.schema.has_table(fk.ref_table):
                    continue
                ref_meta = self.meta(fk.ref_table)
                ref_rows = list(self.rows(fk.ref_table).values())
                if not ref_meta.names or any(_looks_like_code(r.get(c)) for r in ref_rows[:20] for c in ref_meta.names):
                    continue  # the parent has no name people use
                for col in meta.info.columns:
                    c = col.name
                    if c in meta.key or c == fk.columns[0] or meta.info.foreign_key_of(c) is not None:
                        continue
                    values = [str(r.get(c) or "").strip() for r in rows]
                    pairs = {(str(r.get(fk.columns[0])), v) for r, v in zip(rows, values, strict=True)}
                    if own_number(c, table) and all(v and len(v) <= 6 and any(ch.isdigit() for ch in v)
                                                         for v in values) and len(pairs) == len(rows):
                        hit.append((fk.columns[0], fk.ref_table, c))
                        break
        self._numbered[table] = hit
        return hit

    def _noun(self, meta: _TableMeta) -> str:
        from ragdx.gen.naming import readable_entity

        return readable_entity(meta.info.name).strip()

    def _unnamed(self, meta: _TableMeta) -> bool:
        """A table whose rows have no name but a number (a deal, a visit, a payment by its id);
        worked out once per table (every fact of it asks)."""
        name = meta.info.name
        hit = self._no_name.get(name)
        if hit is None:
            if meta.association:
                hit = False
            elif not meta.names:
                hit = True
            else:
                first = itertools.islice(self.rows(name).values(), 20)
                hit = all(c in meta.key for c in meta.names) and all(isinstance(r.get(meta.key[0]), int) for r in first)
            self._no_name[name] = hit
        return hit

    def _descriptors(self, table: str, key: str, exclude: str) -> list[tuple[str, ...]]:
        """Pairs of a row's values (a referenced entity's name, a short text) that no other row of
        the table shares: how a document tells a numbered row apart without its number."""
        cache = self._desc.get(table)
        if cache is None:
            meta = self.meta(table)
            info = meta.info
            values: dict[str, dict[str, str]] = {}
            alternatives: dict[str, dict[str, list[str]]] = {}
            for k, row in self.rows(info.name).items():
                cols: dict[str, str] = {}
                others: dict[str, list[str]] = {}
                alternatives[k] = others
                for col in info.columns:
                    c, v = col.name, row.get(col.name)
                    if v is None or c in meta.key:
                        continue
                    fk = info.foreign_key_of(c)
                    if fk is not None:
                        ref = self._referenced(fk.ref_table, fk.ref_columns[0], v)
                        names = [n[0][0] for n in (ref[1] if ref else []) if len(n[0]) == 1]
                        if names:
                            cols[c] = names[0]
                            # a log names the job by its code as often as by its name ("BH-24002")
                            others[c] = sorted((n for n in dict.fromkeys(names[1:]) if n != names[0]
                                                and any(ch.isdigit() for ch in n)), key=len)[:2]
                    elif isinstance(v, str) and 1 <= len(v.split()) <= 6 and c not in meta.surrogate \
                            and not re.fullmatch(r"[\d\W]+", v) and (p := phrase(v)):
                        cols[c] = p
                    elif c not in meta.surrogate and not isinstance(v, bool | bytes):
                        # a date or an amount tells a row apart too ("signed 22 Sep 2024", "£6,000")
                        variants = value_variants(v)
                        if variants and len(variants[0][0]) == 1 and variants[0][1] >= 1.0:
                            cols[c] = variants[0][0][0]
                values[k] = cols
            counts: dict[tuple[str, str, str, str], int] = defaultdict(int)
            for cols in values.values():
                items = sorted(cols.items())
                for i, (a, pa) in enumerate(items):
                    for b, pb in items[i + 1:]:
                        counts[(a, pa, b, pb)] += 1
            cache = self._desc[table] = {"values": values, "counts": counts, "alternatives": alternatives}
        cols = cache["values"].get(key, {})
        alts = cache["alternatives"].get(key, {})
        out: list[tuple[str, ...]] = []
        items = sorted((c, p) for c, p in cols.items() if c != exclude)
        for i, (a, pa) in enumerate(items):
            for b, pb in items[i + 1:]:
                if cache["counts"].get((a, pa, b, pb)) == 1 and pa != pb:
                    # the pair tells the row apart whichever name of the referenced row is written
                    out += [(x, y) for x in [pa, *alts.get(a, [])] for y in [pb, *alts.get(b, [])] if x != y]
        return out[:16]

    def _ambiguous_initials(self, table: str) -> frozenset[str]:
        """Initial-and-surname phrases (" r hale ", " hale r ") that more than one person of the
        table answers to."""
        hit = self._initials.get(table)
        if hit is None:
            from ragdx.db.schema import name_pair

            pair = name_pair(self.meta(table).info)
            counts: dict[str, int] = defaultdict(int)
            if pair:
                for row in self.rows(table).values():
                    first, last = (tokens(str(row.get(c) or "")) for c in pair)
                    if first and last and first[0]:
                        for p in (f" {first[0][0]} {' '.join(last)} ", f" {' '.join(last)} {first[0][0]} "):
                            counts[p] += 1
            hit = self._initials[table] = frozenset(p for p, n in counts.items() if n > 1)
        return hit

    def _titled_initials(self, table: str) -> dict[str, tuple[str, ...]]:
        """Key → "title initial surname" and "title surname" phrases (" dr a patel ", " dr patel ")
        no other person of the table answers to, for a table with a courtesy-title column (its
        values Dr, Mr, Ms, ...): how people tell apart namesakes whose initials are alike."""
        hit = self._titled.get(table)
        if hit is None:
            from ragdx.db.schema import name_pair

            hit = {}
            pair = name_pair(self.meta(table).info)
            title_column = self.title_column(table)
            if pair and title_column:
                phrases: dict[str, tuple[str, str]] = {}
                counts: dict[str, int] = defaultdict(int)
                for key, row in self.rows(table).items():
                    title = phrase(str(row.get(title_column) or "")).strip()
                    first, last = (tokens(str(row.get(c) or "")) for c in pair)
                    if title in HONORIFICS and first and last and first[0]:
                        # "Dr A. Patel", and "Dr Patel" in a register's LEAD column
                        phrases[key] = (f" {title} {first[0][0]} {' '.join(last)} ", f" {title} {' '.join(last)} ")
                        for p in phrases[key]:
                            counts[p] += 1
                hit = {k: tuple(p for p in ps if counts[p] == 1) for k, ps in phrases.items()}
            self._titled[table] = hit
        return hit

    def title_column(self, table: str) -> str | None:
        """The table's courtesy-title column (four in five of its values Dr, Mr, Ms, ...), or None;
        worked out once per table."""
        if table not in self._title_column:
            info = self.meta(table).info
            rows = self.rows(table)
            titles = [c.name for c in info.columns if c.kind == "text" and rows and sum(
                phrase(str(r.get(c.name) or "")).strip().rstrip(".") in HONORIFICS for r in rows.values())
                >= 0.8 * sum(r.get(c.name) is not None for r in rows.values()) > 0]
            self._title_column[table] = titles[0] if titles else None
        return self._title_column[table]

    def _code_columns(self, meta: _TableMeta) -> list[str]:
        """Unique code columns other than the key ("ADR" for the port of Ardmair, "R1" for a route):
        documents name a row by its code as often as by its name."""
        name = meta.info.name
        hit = self._codes.get(name)
        if hit is None:
            hit = []
            rows = list(self.rows(name).values())
            if rows and not meta.association:
                for col in meta.info.columns:
                    c = col.name
                    if c in meta.names or c in meta.key or meta.info.foreign_key_of(c) is not None:
                        continue
                    values = [r.get(c) for r in rows]
                    if all(isinstance(v, str) and _CODE.fullmatch(v.strip()) for v in values) \
                            and len({str(v).strip() for v in values}) == len(values):
                        hit.append(c)
            self._codes[name] = hit
        return hit

    def _own_name_columns(self, meta: _TableMeta) -> list[str]:
        """The table's own name columns ("name", "title", "ProgrammeName") that are not its look-up
        key because some rows share a value: two programmes both called "Environmental Science"
        (full-time and part-time) leave the table keyed by its code, yet "Physical Geography"
        names one programme only, and a person writes it so."""
        from ragdx.gen.sql_templates import is_surrogate, name_rank

        info = meta.info
        hit = self._own_names.get(info.name)
        if hit is None:
            # a person's "title" is a job, not a name; a table named by its names needs no other
            hit = [] if meta.association or not self._coded(meta) else [
                c.name for c in info.columns
                if c.kind == "text" and c.name not in meta.names and c.name not in meta.key
                and info.foreign_key_of(c.name) is None and not is_surrogate(info, c.name)
                and name_rank(info, c.name) in (0, 1) and c.name not in self._alt_names(meta)]
            self._own_names[info.name] = hit
        return hit

    def _unique_own_names(self, meta: _TableMeta) -> dict[str, list[str]]:
        """Key → the values of the table's own name columns (``_own_name_columns``) that no other
        row shares: an unambiguous mention names its row; a shared one names none of them."""
        name = meta.info.name
        hit = self._unique_own.get(name)
        if hit is None:
            hit = {}
            for c in self._own_name_columns(meta):
                rows = self.rows(name)
                counts: dict[str, int] = defaultdict(int)
                for r in rows.values():
                    if isinstance(r.get(c), str) and r[c].strip():
                        counts[phrase(r[c])] += 1
                shared: dict[str, list[str]] = defaultdict(list)
                for key, r in rows.items():
                    v = r.get(c)
                    if isinstance(v, str) and v.strip() and counts[phrase(v)] == 1 and phrase(v).strip():
                        hit.setdefault(key, []).append(v.strip())
                    elif isinstance(v, str) and phrase(v).strip():
                        shared[phrase(v)].append(key)
                for keys in shared.values():
                    # namesakes told apart by another short attribute ("Environmental Science
                    # (full-time)" and "(part-time)"): the name written with it names one of them
                    for col in self._telling_apart(meta, keys):
                        for key in keys:
                            v, attr = str(rows[key][c]).strip(), str(rows[key][col]).strip()
                            hit.setdefault(key, []).extend([f"{v} {attr}", f"{attr} {v}"])
            self._unique_own[name] = hit
        return hit

    def _telling_apart(self, meta: _TableMeta, keys: Sequence[str]) -> list[str]:
        """The short text columns (three words at most, no digit, no key) whose values differ among
        the rows ``keys`` (a programme's mode: full-time, part-time)."""
        rows = self.rows(meta.info.name)
        out = []
        for col in meta.info.columns:
            c = col.name
            if col.kind != "text" or c in meta.key or meta.info.foreign_key_of(c) is not None:
                continue
            values = [rows[k].get(c) for k in keys]
            if all(isinstance(v, str) and 0 < len(v.split()) <= 3 and not re.search(r"\d", v) for v in values) \
                    and len({phrase(str(v)) for v in values}) == len(values):
                out.append(c)
        return out[:2]

    def _coded(self, meta: _TableMeta) -> bool:
        """Is the table's look-up name a code (or has it none): "K-01", "BSGEO"? Read off its first
        50 rows, once per table."""
        hit = self._coded_tables.get(meta.info.name)
        if hit is None:
            rows = list(itertools.islice(self.rows(meta.info.name).values(), 50))
            hit = bool(rows) and (not meta.names or all(
                sum(_looks_like_code(r.get(c)) for r in rows) > len(rows) // 2 for c in meta.names))
            self._coded_tables[meta.info.name] = hit
        return hit

    def _alt_names(self, meta: _TableMeta) -> list[str]:
        """Other columns that name a row when its own name is a code: office "K-01" is "the Leeds
        office" to everyone who works there. A column qualifies when it is text, unique, short
        (at most three words) and holds no digit (an address or a phone number names nothing)."""
        name = meta.info.name
        hit = self._alt.get(name)
        if hit is not None:
            return hit
        hit = []
        if self._coded(meta) and not meta.association:
            rows = list(self.rows(name).values())
            for col in meta.info.columns:
                c = col.name
                if c in meta.names or c in meta.key or meta.info.foreign_key_of(c) is not None or c in meta.surrogate:
                    continue
                values = [r.get(c) for r in rows]
                if all(isinstance(v, str) and v.strip() and len(v.split()) <= 3 and not re.search(r"\d", v)
                       for v in values) and len({str(v).strip().casefold() for v in values}) == len(values):
                    hit.append(c)
        self._alt[name] = hit
        return hit

    def alt_name_nouns(self) -> dict[str, str]:
        """Padded phrase of every alternative name (``_alt_names``) → the table's noun, padded
        (" leeds " → " office "): "Leeds" names the office only where the text speaks of an office.
        A row named by a place (an office by its unique city) is named that way too: "moved to
        Hamburg" speaks of the city, "our Hamburg office" of the office."""
        from ragdx.gen.naming import names_a_place, readable_entity

        out: dict[str, str] = {}
        for name in self.schema.tables:
            meta = self.meta(name)
            cols = self._alt_names(meta)
            if meta.names and all(names_a_place(c) for c in meta.names):
                cols = [*cols, *meta.names]
            noun = phrase(readable_entity(meta.info.name))
            if not noun:
                continue
            for row in self.rows(name).values():
                for c in cols:
                    p = phrase(str(row.get(c) or ""))
                    if p:
                        out[p] = noun
                for short in self._short_names(meta, row):
                    if p := phrase(short):
                        out.setdefault(p, noun)
        return out

    def _short_names(self, meta: _TableMeta, row: Mapping[str, Any]) -> list[str]:
        """A name that ends with its table's noun, without it: "Tidewell Hub" of the hubs table is
        "Tidewell" in a log whose column says where (an alternative name: it needs the noun beside
        it, or a table row)."""
        noun = self._noun(meta).lower()
        out = []
        for c in meta.names:
            words = str(row.get(c) or "").split()
            if noun and len(words) >= 2 and words[-1].lower() == noun and len(" ".join(words[:-1])) >= 4:
                out.append(" ".join(words[:-1]))
        return out

    def _prefix_dropped(self, meta: _TableMeta, row: Mapping[str, Any]) -> list[str]:
        """A name without the word every row's name opens with: that word is a kind, not a name
        ("MV" of every ship's), so "Ardmair" under "Vessel" is MV Ardmair."""
        out = []
        for c in meta.names:
            words = str(row.get(c) or "").split()
            if len(words) >= 2 and words[0] == self._shared_first_word(meta, c) and len(" ".join(words[1:])) >= 4:
                out.append(" ".join(words[1:]))
        return out

    def _shared_first_word(self, meta: _TableMeta, column: str) -> str | None:
        """The word every row's ``column`` opens with (three rows or more, each of two words or more)."""
        key = (meta.info.name, column)
        if key not in self._first_word:
            firsts = {str(r.get(column) or "").split()[0] if len(str(r.get(column) or "").split()) >= 2 else None
                      for r in self.rows(meta.info.name).values()}
            self._first_word[key] = firsts.pop() if len(firsts) == 1 and len(self.rows(meta.info.name)) >= 3 \
                else None
        return self._first_word[key]

    def _kind_dropped(self, meta: _TableMeta, row: Mapping[str, Any]) -> list[str]:
        """A place's name without the kind of place it ends with ("Wendlebury General" for
        Wendlebury General Hospital, "Burnham Community" for Burnham Community Hospital), as staff
        write it, where two words at least are left and they are not another value of the row or of
        another row of the table (a town "Norton Down" beside Norton Down Clinic)."""
        out = []
        for c in meta.names:
            name = str(row.get(c) or "")
            words = name.split()
            if len(words) >= 3 and words[-1].lower().strip(".,") in PLACE_KINDS:
                short = phrase(" ".join(words[:-1]))
                # nor inside any other value of the database ("Ashcombe Village" in the donor
                # "Ashcombe Village Stores" is not Ashcombe Village Hall)
                if not any(short in v for v in self._texts_with(short) if v != phrase(name)):
                    out.append(" ".join(words[:-1]))
        return out

    def _texts_with(self, short: str) -> list[str]:
        """The database's text values (padded phrases) holding every word of ``short``: through an
        index of their words, so a large table is not scanned once per name."""
        if self._texts is None:
            index: dict[str, list[str]] = defaultdict(list)
            for t in self.schema.tables:
                for r in self.rows(t).values():
                    for v in r.values():
                        if isinstance(v, str) and len(v) <= 200 and (p := phrase(v)).strip():
                            for w in set(p.split()):
                                index[w].append(p)
            self._texts = dict(index)
        postings = [self._texts.get(w, []) for w in short.split()]
        return min(postings, key=len) if postings else []

    def partial_names(self) -> frozenset[str]:
        """Surnames that name a person alone (unique among the table's people), as padded phrases."""
        if self._partial is None:
            from ragdx.db.schema import name_pair

            out: set[str] = set()
            for name in self.schema.tables:
                meta = self.meta(name)
                pair = name_pair(meta.info)
                if pair:
                    out |= {v[0] for v in self._surnames(name).values()}
            self._partial = frozenset(out)
        return self._partial

    def _surnames(self, table: str) -> dict[str, tuple[str, ...]]:
        """Key → the padded surname phrase, for the people whose surname no other row shares."""
        from ragdx.db.schema import name_pair

        pair = name_pair(self.meta(table).info)
        if not pair:
            return {}
        rows = self.rows(table)
        last = {k: phrase(str(r.get(pair[1]) or "")) for k, r in rows.items()}
        counts: dict[str, int] = defaultdict(int)
        for v in last.values():
            counts[v] += 1
        return {k: (v,) for k, v in last.items() if v and counts[v] == 1}

    def names(self, table: str, key: str) -> list[Variant]:
        """The names a person calls an entity by: its look-up key (a person's full name, or the
        surname when no one else has it), a text code that is its key, aliases from ``ragdx.yaml``
        (``aliases: {"Customer:Gonçalves": ["Luís Gonçalves"]}``), else its key."""
        entity = f"{table}:{key}"
        hit = self._names.get(entity)
        if hit is not None:
            return hit
        meta = self.meta(table)
        row = self.rows(table).get(key)
        out: list[Variant] = []
        if row is not None:
            noun = phrase(self._noun(meta))
            written = self._written_names(meta, key, row)
            # a thing named with its table's noun ("Felby Town Hub") is no person: it is not "Town
            # Felby" nor "F. Hub"; "Felby Town" is how people shorten it
            thing = bool(noun.strip()) and any(phrase(n).endswith(noun) and phrase(n) != noun for n in written)
            for name in written:
                whole = phrase(name)
                keep = {whole, whole[:-len(noun)] + " " if whole.endswith(noun) else whole}
                out += [v for v in text_variants(name) if not thing or (len(v[0]) == 1 and v[0][0] in keep)]
            surname = self._surnames(meta.info.name).get(key)
            if surname:
                out.append((surname, 0.9))
        ambiguous = self._ambiguous_initials(meta.info.name)
        if ambiguous:
            # "R. Hale" names Robert Hale Sr. and Robert Hale Jr. alike: such an initial names neither
            out = [v for v in out if not (len(v[0]) == 1 and v[0][0] in ambiguous)]
        # "Dr A. Patel", "Dr Patel" name Dr Anjali Patel where the other A. Patel is a Mr
        known = {v[0][0] for v in out if len(v[0]) == 1}
        out += [((p,), 0.9) for p in self._titled_initials(meta.info.name).get(key, ()) if p not in known]
        for alias in self.aliases.get(entity, []):
            out += text_variants(alias)
        if not out and row is not None and not meta.association:
            # no human name: the key is what documents rendered from rows call it
            out += text_variants(key.replace("|", " "))
        self._names[entity] = out
        return out

    def name_hop(self, hop: Hop) -> Hop | None:
        """For an entity's name (an identity hop), the hop that finds it stated beside another of the
        entity's names (its code: "STR-3 | Bridge assessment"); None when it has no other."""
        column_part, _, key = hop.fact.partition("@")
        table, _, column = column_part.partition(".")
        meta = self.meta(table)
        value = (self.rows(meta.info.name).get(key) or {}).get(column)
        if column not in meta.names or not isinstance(value, str) or not hop.subjects:
            return None
        mine = {v[0] for v in text_variants(value)}
        others = [v for v in hop.subjects[0][1] if v[0] not in mine and not any(p in m for p in v[0] for m in mine)]
        if not others:
            return None
        # its own fact key: the linker caches results per fact
        return Hop(f"{hop.fact}~beside", [(f"{hop.subjects[0][0]}#{column}", others)], value_variants(value),
                   self_name=True)

    def hop(self, fact: str) -> Hop | None:
        """The hop of one fact; None when the fact's row is not in the database any more."""
        column_part, _, key = fact.partition("@")
        table, _, column = column_part.partition(".")
        if not self.schema.has_table(table):
            return None
        meta = self.meta(table)
        info = meta.info
        row = self.rows(info.name).get(key)
        if row is None or column not in row:
            return None
        value = row[column]
        own = (f"{info.name}:{key}", self.names(info.name, key))
        if (column in self._alt_names(meta) or column in self._code_columns(meta)
                or column in self._own_name_columns(meta)) and value is not None:
            # the fact is the name itself ("the city of office K-01"): the row must be named otherwise
            mine = {v[0] for v in text_variants(str(value))}
            # its own entity key: what the entity is "about" is cached per key, and must not be
            # found through the name this fact is about
            own = (f"{own[0]}#{column}", [v for v in own[1] if v[0] not in mine])
        fk = info.foreign_key_of(column)
        if column in meta.names or (column in meta.key and fk is None):
            return Hop(fact, [own] if own[1] else [], [], identity=True)
        if value is not None and any(column in (f, n) for f, _, n in self._numbered_within(meta)):
            # the row's parent or its number within it, which its name holds ("Harrowgate
            # Laboratories 1.07" says that room 1.07 is in Harrowgate Laboratories): stated wherever
            # the row is named so
            composite = {phrase(n) for n in self._parent_numbered(meta, row)}
            return Hop(fact, [], [((p,), 1.0) for p in sorted(composite) if p])
        if meta.association or not own[1]:
            # an association row (employment of a person by a company) is about the entities it links
            subjects = []
            for other in info.foreign_keys:
                if len(other.columns) != 1 or other.columns[0] == column:
                    continue
                ref = self._referenced(other.ref_table, other.ref_columns[0], row.get(other.columns[0]))
                if ref is not None:
                    subjects.append(ref)
        else:
            subjects = [own]
        hop = self._hop_values(fact, info, meta, row, column, value, fk, subjects)
        hop.self_name = column in self._alt_names(meta) or column in self._code_columns(meta) \
            or column in self._own_name_columns(meta)
        values = {v[0][0] for v in hop.value if len(v[0]) == 1}
        if values:
            # a name that is the value itself ("Tidewell" for Tidewell Hub, whose town is Tidewell)
            # cannot show both the subject and its value; nor can "Dr A. Patel" show that her title
            # is Dr (the title is read beside a name without it: "Dr Anjali Patel")
            titled = column == self.title_column(info.name)
            hop.subjects = [(e, [v for v in names if not (len(v[0]) == 1 and (
                v[0][0] in values or titled and any(v[0][0].startswith(f"{t.rstrip()} ") for t in values)))])
                for e, names in hop.subjects]
        if subjects == [own] and self._unnamed(meta):
            hop.descriptors = [self._descriptors(info.name, key, column)]
        if isinstance(value, str) and fk is None and not hop.noun_value and phrase(value) in self.role_words(info.name):
            # "Nina Petersen (engineer)" in a project's team: a role on the project, which an
            # association row holds; the person's own grade "Engineer" is read in a cell or a card
            # line under its column, as a kind named like its table is
            hop.noun_value = True
        if isinstance(value, str) and fk is None and not hop.long_text:
            names = set(meta.names) | set(self._alt_names(meta)) | set(self._code_columns(meta)) \
                | set(self._own_name_columns(meta))
            hop.wider = self._wider_values({c: v for c, v in row.items() if c not in names}, column, {phrase(value)})
        return hop

    def role_words(self, table: str) -> frozenset[str]:
        """The short texts (roles, kinds) of the association rows linking ``table`` to another table
        ("lead", "engineer" of a staff member on a project), as phrases."""
        hit = self._roles.get(table)
        if hit is None:
            found: set[str] = set()
            for name in self.schema.tables:
                other = self.meta(name)
                if not other.association or table not in {schema_table(self.schema, fk.ref_table)
                                                          for fk in other.info.foreign_keys}:
                    continue
                linked = {c for fk in other.info.foreign_keys for c in fk.columns}
                for row in self.rows(name).values():
                    found.update(phrase(v) for c, v in row.items()
                                 if c not in linked and isinstance(v, str) and len(v.split()) <= 3
                                 and not any(ch.isdigit() for ch in v))
            hit = self._roles[table] = frozenset(found - {""})
        return hit

    @staticmethod
    def _wider_values(row: Mapping[str, Any], column: str, values: set[str]) -> tuple[str, ...]:
        """The row's other short texts (a title, not an address: at most four words, no digits)
        that hold one of ``values`` among more words: "Geotechnical Engineer" states a job title,
        not the grade "Engineer" of the same person."""
        out = []
        for col, other in row.items():
            if col == column or not isinstance(other, str) or any(ch.isdigit() for ch in other):
                continue
            wide = phrase(other)
            if wide and len(wide.split()) <= 4 and any(v in wide and v != wide for v in values):
                out.append(wide)
        return tuple(out)

    def _hop_values(self, fact: str, info, meta: _TableMeta, row: Mapping[str, Any], column: str, value: Any,
                    fk, subjects: list) -> Hop:
        if value is None:
            return Hop(fact, subjects, null_variants(column))
        if fk is not None:
            ref = self._referenced(fk.ref_table, fk.ref_columns[0], value)
            if ref is not None and ref[1]:
                variants, exact = ref[1], None
                # a row named in the plural ("Double basses", "Horns") is one member's in the
                # singular: "Principal Horn", "Daniel Marsh, double bass"
                variants = [*variants, *(((one,), w * 0.95) for (all_of, w) in variants
                                         if len(all_of) == 1 and (one := singular_phrase(all_of[0])))]
                code = value.strip() if isinstance(value, str) else ""
                if _ACRONYM.fullmatch(code) and not any(v[0] == (f" {code.lower()} ",) for v in variants):
                    # a key of two to four capitals ("FL" for the flutes on a call sheet's "FL
                    # STANSFIELD C.") names the row only as written, in capitals: "fl" or "db" in
                    # running text are no codes
                    variants, exact = [*variants, ((f" {code.lower()} ",), 1.0)], code
                return Hop(fact, subjects, variants, exact=exact,
                           peers=schema_table(self.schema, fk.ref_table) == info.name,
                           column=column, ref_noun=self._noun(self.meta(fk.ref_table)),
                           other_relation=self._other_relation(info.name, column, fk.ref_table),
                           linking_nouns=self._linking_nouns(info.name, fk.ref_table),
                           linking_tables=tuple(t for t in self.linking_tables(info.name, fk.ref_table)
                                                if not self.meta(t).association and self.meta(t).names
                                                and not self._unnamed(self.meta(t))),
                           role_words=self._role_words(info.name, column, fk.ref_table))
            if column in meta.surrogate:
                return Hop(fact, subjects, [])
        if self._is_flag(info.name, column, value):
            return Hop(fact, subjects, flag_variants(column, bool(flag_value(value))))
        exact = value.strip() if isinstance(value, str) and _ACRONYM.fullmatch(value.strip()) else None
        if isinstance(value, str) and phrase(value) == phrase(self._noun(meta)):
            # a kind named like the table ("hub" of the hubs): "your hub coordinator" uses the
            # noun; the kind is stated in a table's cell or a card's line ("Site type: HUB")
            return Hop(fact, subjects, value_variants(value), column=column, noun_value=True,
                       other_columns=self._other_columns(info, column))
        if isinstance(value, str) and (len(value.split()) >= LONG_TEXT_WORDS
                                       or len(value.split()) >= 8 and len(sentences(value)) >= 2):
            # a description or notes: each sentence stated somewhere in one passage (a writer quotes
            # it across lines, or with its sentences reflowed), never the whole string at once
            parts = tuple(dict.fromkeys(p for a, b in sentences(value) if (p := phrase(value[a:b]))))
            if parts:
                return Hop(fact, subjects, [(parts, 1.0)], long_text=True)
        variants = value_variants(value)
        words = sorted(_column_words(column))
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 100 and len(words) == 1 \
                and words[0].isalpha():
            # a grade, level or band written as a code of its initial ("graded G6", "L5 module")
            variants = [*variants, ((f" {words[0][0]}{value} ",), 0.9)]
        unit = next((1 if w.startswith("minut") or w in ("min", "mins") else 60 for w in words
                     if w.startswith(("minut", "hour")) or w in ("min", "mins", "hr", "hrs")), 0)
        if isinstance(value, int | float) and not isinstance(value, bool) and value > 0 and unit:
            # a length of time stated by a range of times ("09:30–13:30" for a 240-minute session)
            variants = [*variants, ((f" zmins{round(value * unit)} ",), 0.9)]
        if isinstance(value, str) and (many := plural_phrase(phrase(value))) and len(value.split()) <= 3:
            # a kind several rows share heads them in the plural ("Engineers" over two engineers in
            # an org chart, "Design Engineers" in a team list)
            variants = [*variants, ((many,), 0.95)]
        else:
            many = ""
        surname = self._surnames_of(info.name, column).get(value) if isinstance(value, str) else None
        if surname:
            # a composer or an author is named by surname beside the work ("Elgar — Enigma
            # Variations"): weaker than the full name, enough beside the subject
            variants = [*variants, ((surname,), SURNAME_WEIGHT)]
        return Hop(fact, subjects, variants, exact=exact, column=column,
                   other_columns=self._other_columns(info, column), ctx_only=(many,) if many else ())

    def _surnames_of(self, table: str, column: str) -> Mapping[str, str]:
        """For a text column of people's names that is no entity's own name (a work's composer, a
        book's author: its head word an agent noun, four values in five a person's name), each
        value → its surname as a padded phrase, where no other value has that surname."""
        hit = self._column_surnames.get((table, column))
        if hit is not None:
            return hit
        from ragdx.kb.normalise import person_words

        meta = self.meta(table)
        hit = {}
        if column not in meta.names and re.search(r"(?:er|or|ist|ian|ant)$", _column_head(column)):
            values = {v for r in self.rows(table).values() if isinstance(v := r.get(column), str) and v.strip()}
            people = {v: words for v in values if (words := person_words(v))}
            if len(values) >= 3 and len(people) >= 0.8 * len(values):
                surnames = {v: phrase(words[-1]) for v, words in people.items()}
                counts: dict[str, int] = defaultdict(int)
                for p in surnames.values():
                    counts[p] += 1
                hit = {v: p for v, p in surnames.items() if counts[p] == 1 and len(p.strip()) >= 4}
        self._column_surnames[(table, column)] = hit
        return hit

    def _other_relation(self, table: str, column: str, ref_table: str) -> bool:
        """Does another relation link ``table`` to ``ref_table`` besides the foreign key ``column``
        (a second foreign key to it, or an association table between the two: a volunteer's home
        hub and the hubs whose rotas they are on)?"""
        hit = self._relations.get((table, column))
        if hit is None:
            hit = self._relations[(table, column)] = self._find_other_relation(table, column, ref_table)
        return hit

    def _role_words(self, table: str, column: str, ref_table: str) -> tuple[str, ...]:
        """The words of a foreign key that names a role rather than the table it points at
        ("principal" of sections.principal_id, not "section" of players.section_code), when the
        referenced table has a foreign key back to ``table``: a section and one of its players named
        together say that the player is in it, not that they lead it. Empty otherwise."""
        ref = schema_table(self.schema, ref_table)
        if ref == schema_table(self.schema, table) or not any(
                schema_table(self.schema, fk.ref_table) == self.meta(table).info.name
                for fk in self.meta(ref).info.foreign_keys):
            return ()
        noun = _column_words(self._noun(self.meta(ref))) | _column_words(ref)
        words = _column_words(column) - noun - {"id", "code", "key", "ref", "fk"}
        return tuple(f" {w} " for w in sorted(words))

    def _linking_nouns(self, table: str, ref_table: str) -> tuple[str, ...]:
        """The nouns (whole, and their last word: "site visit", "visit") of the other tables with a
        foreign key to both ``table`` and ``ref_table``."""
        hit = self._linking.get((table, ref_table))
        if hit is None:
            hit = self._linking[(table, ref_table)] = self._find_linking_nouns(table, ref_table)
        return hit

    def _find_linking_nouns(self, table: str, ref_table: str) -> tuple[str, ...]:
        out: list[str] = []
        for name in self.linking_tables(table, ref_table):
            noun = phrase(self._noun(self.meta(name))).strip()
            out += [noun, noun.split()[-1]] if noun else []
        return tuple(dict.fromkeys(out))

    def linking_tables(self, table: str, ref_table: str) -> tuple[str, ...]:
        """The other tables that refer to both ``table`` and ``ref_table`` (clinics, naming a clinician
        and a site, beside a clinician's base site): a sentence naming one of their rows states
        that row's relation."""
        ref = schema_table(self.schema, ref_table)
        out = []
        for name in self.schema.tables:
            refs = {schema_table(self.schema, fk.ref_table) for fk in self.meta(name).info.foreign_keys}
            if name not in (table, ref) and table in refs and ref in refs:
                out.append(name)
        return tuple(out)

    def _find_other_relation(self, table: str, column: str, ref_table: str) -> bool:
        ref = schema_table(self.schema, ref_table)
        info = self.meta(table).info
        if any(list(fk.columns) != [column] and len(fk.columns) == 1 and schema_table(self.schema, fk.ref_table) == ref
               for fk in info.foreign_keys):
            return True
        for name in self.schema.tables:
            other = self.meta(name)
            if name == info.name or not other.association:
                continue
            refs = [schema_table(self.schema, fk.ref_table) for fk in other.info.foreign_keys]
            if info.name in refs and ref in refs and (ref != info.name or refs.count(ref) >= 2):
                return True
        return False

    def _other_columns(self, info, column: str) -> frozenset[str]:
        key = f"{info.name}.{column}"
        hit = self._others.get(key)
        if hit is None:
            own = _column_words(column)
            # a column is named by its head word ("phone" of HomePhone): "Home: 722 Moss Bay Blvd.,
            # Kirkland 98033" is a home address holding a postal code, no home phone
            words = {h for c in info.columns if c.name != column and (h := _column_head(c.name))}
            hit = self._others[key] = frozenset(words - own)
        return hit

    def _is_flag(self, table: str, column: str, value: Any) -> bool:
        """A yes/no column stored as 0/1: its value is stated in words ("discontinued", "yes"),
        never by a bare 0 or 1, which every price, discount and quantity contains."""
        if isinstance(value, bool):
            return True
        if flag_value(value) is None:
            return False
        key = f"{table}.{column}"
        hit = self._flags.get(key)
        if hit is None:
            # some schemas keep the flag as text '0' / '1' (Northwind's SQLite port does)
            seen = {flag_value(r.get(column)) if r.get(column) is not None else None
                    for r in self.rows(table).values()}
            hit = self._flags[key] = bool(seen) and seen <= {0, 1, None} and len(seen - {None}) == 2
        return hit

    def _referenced(self, table: str, column: str, value: Any) -> tuple[str, list[Variant]] | None:
        from ragdx.gen.qa import key_text

        if value is None or not self.schema.has_table(table):
            return None
        meta = self.meta(table)
        info = meta.info
        rows = self.rows(info.name)
        keys = meta.key
        if keys == [column]:
            key = key_text(value)
            if key in rows:
                return f"{info.name}:{key}", self.names(info.name, key)
        want = key_text(value)
        for key, row in rows.items():  # a foreign key to a non-key column: rare, scanned once per value
            if key_text(row.get(column)) == want:
                return f"{info.name}:{key}", self.names(info.name, key)
        return None


_ACRONYM = re.compile(r"[A-Z]{2,4}")


#: a code people write for a row: capitals and digits, a letter among them ("ADR", "R1", "K-01")
_CODE = re.compile(r"(?=[A-Z0-9-]*[A-Z])[A-Z0-9][A-Z0-9-]{1,9}")


def _looks_like_code(value: Any) -> bool:
    """"K-01", "SUR-3", "ALFKI": a value people read as a code rather than a name."""
    if not isinstance(value, str):
        return value is not None
    v = value.strip()
    return bool(re.search(r"\d", v)) or (v.isupper() and len(v) <= 6 and " " not in v)


def null_variants(column: str) -> list[Variant]:
    """How a document says a value is missing: "X has no recorded office", "X has no office"."""
    from ragdx.gen.naming import readable_name

    words = phrase(readable_name(column)).strip()
    if not words:
        return []
    return [((f" no recorded {words} ",), 1.0), ((f" has no {words} ",), 0.9), ((f" without a {words} ",), 0.8)]


def schema_table(schema, name: str) -> str:
    return schema.table(name).name if schema.has_table(name) else name


# ----------------------------------------------------------------------------- records


@dataclass(slots=True)
class LinkStats:
    records: int = 0
    linked: int = 0
    unlinked: int = 0
    #: every fact written, some only approximately (kb_supported False, the documents are evidence)
    approximate: int = 0
    not_linkable: int = 0
    unanswerable: int = 0
    facts: int = 0
    facts_stated: int = 0

    def as_dict(self) -> dict[str, int]:
        return {k: getattr(self, k) for k in self.__slots__}


def link_records(records: Iterable, resolver: FactResolver, linker: Linker, *,
                 progress: Callable[[int], None] | None = None, stats: LinkStats | None = None) -> list:
    """Copies of ``records`` with their evidence linked (see the module docstring)."""
    stats = stats if stats is not None else LinkStats()
    linker.prepare(resolver)
    by_group: dict[tuple, dict[str, Any]] = {}
    out = []
    for record in records:
        key = (tuple(record.facts), tuple(record.entities), record.answer_kind)
        fields_ = by_group.get(key)
        if fields_ is None:
            fields_ = by_group[key] = _link_one(record, resolver, linker, stats)
        if fields_["kb_supported"] and getattr(record, "question_kind", "lookup") in COMPLETENESS_KINDS:
            # every row's fact of a list, count, total, extreme or time range was found, but no
            # document says that no other row belongs to the set: undecided, never True
            fields_ = {**fields_, "kb_supported": None}
        stats.records += 1
        setattr(stats, fields_["kb_basis"], getattr(stats, fields_["kb_basis"]) + 1)
        # a shallow copy and seven attributes: dataclasses.replace re-runs __init__ and costs 4x more
        new = copy.copy(record)
        for k, v in fields_.items():
            setattr(new, k, list(v) if isinstance(v, list) else v)
        out.append(new)
        if progress:
            progress(1)
    return out


def implied_rows(hops: list[Hop], resolver: FactResolver) -> list[Hop]:
    """``hops`` without the existence of a composite-key row (a staff member on a project) when an
    attribute of that row (their role on it) is asked too: a document stating the role states the
    row, and one naming only the pair does not answer."""
    def parts(fact: str) -> tuple[str, str, str]:
        column_part, _, key = fact.partition("@")
        table, _, column = column_part.partition(".")
        return table, column, key

    def key_columns(table: str) -> list[str]:
        return resolver.meta(table).key if resolver.schema.has_table(table) else []

    facts = [parts(h.fact) for h in hops]
    attributes = {(t, k) for t, c, k in facts if "|" in k and c not in key_columns(t)}
    if not attributes:
        return hops
    return [h for h, (t, c, k) in zip(hops, facts, strict=True)
            if not ((t, k) in attributes and c in key_columns(t))]


def _link_one(record, resolver: FactResolver, linker: Linker, stats: LinkStats) -> dict[str, Any]:
    idx = linker.index
    entity_docs: set[int] = set()
    for entity in record.entities:
        table, _, key = entity.partition(":")
        if resolver.schema.has_table(table):
            names = resolver.names(table, key)
            if names:
                entity_docs |= linker.about(entity, names)
    entity_ids = sorted(idx.doc_ids[d] for d in entity_docs)
    if record.answer_kind == "none" or not record.facts:
        return {"evidence_sets": [], "gold_document_ids": [], "kb_supported": None,
                "kb_basis": "unanswerable", "evidence_spans": [], "evidence_confidence": None,
                "entity_document_ids": entity_ids}
    hops = [resolver.hop(f) for f in record.facts]
    answer_hops = implied_rows([h for h in hops if h is not None and not h.identity], resolver)
    identity_hops = [h for h in hops if h is not None and h.identity]
    if not answer_hops and len(identity_hops) >= 2 and all(h.subjects for h in identity_hops):
        # only names: the answer is a relation between entities ("who works at BP": the company
        # and the person through an association row), stated where the entity the query names
        # and each answer entity are named together (one hop per answer row of an answer set)
        given = {phrase(str(v)) for v in record.params.values()}
        named = [h for h in identity_hops if any(v[0] in given for _, ns in h.subjects for v, _ in ns if len(v) == 1)]
        conditions = named if 0 < len(named) < len(identity_hops) else identity_hops[:1]
        answers = [h for h in identity_hops if h not in conditions]
        subjects = [sub for h in conditions for sub in h.subjects]
        answer_hops = [Hop("+".join([*(c.fact for c in conditions), h.fact]), subjects,
                           [v for _, names in h.subjects for v in names]) for h in answers]
    elif not answer_hops:
        answer_hops = identity_hops
    sets: list[list[str]] = []
    spans: list[dict[str, Any]] = []
    weights: list[float] = []
    linkable = all(h is not None for h in hops) and all(h.value or h.identity for h in answer_hops)
    approximate = False
    for hop in answer_hops:
        if not hop.value and not hop.identity:
            sets.append([])
            weights.append(0.0)
            continue
        result = linker.link(hop)
        if hop.identity and len(answer_hops) == 1 and (by_name := resolver.name_hop(hop)) is not None:
            # the name asked of an entity the query names otherwise ("the name of service STR-3"):
            # a row or sentence giving both states it, besides the documents about the entity
            other = linker.link(by_name)
            spans_ = result.spans + [{**sp, "fact": hop.fact} for sp in other.spans]
            result = HopResult(sorted(set(result.docs) | set(other.docs)), spans_[:SPANS_PER_FACT],
                               max(result.weight, other.weight))
        stats.facts += 1
        stats.facts_stated += bool(result.docs) and not result.approximate
        sets.append(list(result.docs))
        spans += result.spans
        weights.append(result.weight)
        approximate = approximate or result.approximate
    # the documents about an entity a join went through (the customer's page for "the city of
    # the customer of order 10248") state none of the facts the answer needs: they are neither
    # gold documents nor evidence the retriever must find (the hop itself, Orders.CustomerID, is)
    found = all(sets[:len(answer_hops)]) and bool(answer_hops)
    if not linkable:
        supported, basis = None, "not_linkable"
    elif found and approximate:
        # every fact is written, some only at a lower precision ("in June 2009" for 2009-06-15):
        # the documents are evidence, but the answer cannot be read off them
        supported, basis = False, "approximate"
    else:
        supported, basis = found, "linked" if found else "unlinked"
    return {"evidence_sets": sets, "gold_document_ids": sorted({d for s in sets for d in s}),
            "kb_supported": supported, "kb_basis": basis, "evidence_spans": spans,
            "evidence_confidence": round(min(weights), 3) if weights and linkable else None,
            "entity_document_ids": entity_ids}


# ----------------------------------------------------------------------------- one call for the CLI


@dataclass(slots=True)
class LinkResult:
    records: list
    stats: LinkStats
    corpus: Corpus
    passages: int

    def manifest(self) -> dict[str, Any]:
        """What a dataset's manifest records about the linking."""
        return {"corpus": self.corpus.source, "corpus_fingerprint": self.corpus.fingerprint,
                "corpus_documents": len(self.corpus), "corpus_passages": self.passages,
                "evidence": {"method": "linked", **self.stats.as_dict()}}


def link_dataset(engine, schema, records: Sequence, corpus: Corpus, *,
                 aliases: Mapping[str, Sequence[str]] | None = None, progress: bool = True,
                 console=None) -> LinkResult:
    """Index ``corpus`` and link every record's evidence, with a progress bar per stage."""
    from ragdx.progress import bars

    with bars(console=console, eta=False, disable=not progress) as bar:
        task = bar.add_task("indexing passages", total=len(corpus))
        index = PassageIndex(corpus, progress=lambda n: bar.advance(task, n))
        task = bar.add_task("linking evidence", total=len(records))
        stats = LinkStats()
        resolver = FactResolver(engine, schema, aliases)
        out = link_records(records, resolver, Linker(index), progress=lambda n: bar.advance(task, n),
                           stats=stats)
    return LinkResult(out, stats, corpus, len(index.passages))
