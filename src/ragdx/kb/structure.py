"""The structure of a document as a reader sees it: which entity each piece of text is about.

People rarely repeat the subject in every sentence. A CRM page says ``# ANG Resellers`` once and
then ``Contact Alejandra Camino, Gran Vía, 1, Madrid``; a review has one section per customer
whose heading is the only place the customer is named; a catalogue table lists products under
their category's heading; a card or a key/value export (``City........: Madrid``) names its
subject on one line and states the facts on the others. Evidence linking
(:mod:`ragdx.kb.link`) must read the subject from that structure, not only from the sentence.

:func:`blocks` cuts a document's text (Markdown, plain text, or HTML after
:func:`ragdx.rag.corpus._html_text`, which keeps headings, tables and lists in Markdown form) into
:class:`Block` s, each with its *context*: the character spans of the headings above it (outermost
first), a table's caption or header row, and for a paragraph opening with a pronoun ("He is their
sales representative") the paragraph before it. Kinds of block:

* ``para``: a paragraph (long ones cut into windows of whole sentences); its sentences are the
  units of co-occurrence, as before;
* ``row``: one row of a table (pipe, HTML, or fixed-width columns): the row is one statement, its
  cells share their subject;
* ``card``: a group of ``key: value`` lines (a bullet card, a two-column key/value table, a
  fixed-width ``KEY....: value`` export): the card is about the entity its context or its first
  line names, and every line states something of it;
* ``item``: one item of a list that is not a card (a roster line, an order line);
* ``branch``: a line of a tree or an outline read under its parent line (an org chart, a short
  line flush left over indented ones), or a table's group row (one cell spanning a wider table:
  "| Violas (VLA) |") read under the group row above it; the rows below a group row are read under
  it as under a heading.

The rules are about layout only; they know nothing of any database, so they hold for any corpus.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

#: paragraphs longer than this (in words) are cut into windows of whole sentences
MAX_BLOCK_WORDS = 160

_ATX_RE = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")


class _Atx:
    """A Markdown ``#`` heading, but not the ``#     date    who`` header of a fixed-width table
    (text laid out in columns: runs of two or more spaces between words)."""

    @staticmethod
    def match(line: str) -> re.Match[str] | None:
        m = _ATX_RE.match(line)
        if m and re.search(r"\S(?:\s{2,}|\t)\S", m.group(2)):
            return None
        return m


_ATX = _Atx()
_SETEXT = re.compile(r"^\s{0,3}(=+|-+)\s*$")
_RULE = re.compile(r"^\s*(?:[-*_=]\s*){3,}$")
_PIPE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_ITEM = re.compile(r"^\s*(?:[-*+•·▪◦]|\d{1,3}[.)])\s+")
#: ``Key: value``, ``**Key**: value``, ``KEY.......: value``, ``Key ....... value``, ``Key\tvalue``
KEY_VALUE = re.compile(r"^\s*(?:[-*+•·▪◦]\s+)?(?:\*\*|__)?([^\W\d_][^:|\n]{0,40}?)(?:\*\*|__)?"
                 r"\s*(?:\.{2,}\s*:?|:|\t+|\s{2,}[.·]{2,}\s*)\s*(\S.*)$")


def _definition_list(raw: list[str], group: list[int]) -> bool:
    """Is the group a definition list: short terms, each followed by lines opening with ": "?"""
    if len(group) < 2 or raw[group[0]].lstrip().startswith(":"):
        return False
    terms = [k for k in group if not raw[k].lstrip().startswith(": ")]
    return all(len(raw[k].split()) <= 5 and k + 1 in group and raw[k + 1].lstrip().startswith(": ")
               for k in terms)


def definition_lines(lines: list[str]) -> list[str]:
    """Card lines with a definition list's terms joined to their definitions ("Grade: Director")."""
    out: list[str] = []
    for line in lines:
        if line.lstrip().startswith(": ") and out:
            out[-1] = f"{out[-1].rstrip()}: {line.lstrip()[2:]}"
        else:
            out.append(line)
    return out


def _is_kv(line: str) -> bool:
    """A ``key: value`` line: a short key (at most five words) and a value that is not prose (at
    most twelve words); "Textile Cities: Łódź and Manchester is a course in our records ..." is a
    sentence with a colon in it."""
    m = KEY_VALUE.match(line)
    # a line of three or more tab-separated cells is a table row, not a key and its value
    return m is not None and len(m.group(1).split()) <= 5 and len(m.group(2).split()) <= 12 \
        and line.count("\t") < 2


#: a bold line or a short line with no closing punctuation, alone in its paragraph
_BOLD_LINE = re.compile(r"^\s*(?:\*\*|__)(.+?)(?:\*\*|__)\s*:?\s*$")
#: a paragraph opening with a pronoun refers to the paragraph before ("He joined in 2014"; in a
#: letter, "Your office is ..." after "Dear Ms. Keller,")
_PRONOUN_LEAD = re.compile(r"^\W*(?:\w+\W+){0,2}?(he|she|they|it|his|her|their|its|him|them|you|your)\b", re.I)


_ANSWER_LEAD = re.compile(r"^\W*(?:a|answer|ans)\s*[:.)]\s", re.I)


@dataclass(slots=True)
class Block:
    start: int
    end: int
    kind: str
    #: spans of the text this block is read under: headings above it (outermost first), a table's
    #: caption and header row, the paragraph a pronoun refers back to
    context: list[tuple[int, int]] = field(default_factory=list)
    #: for a table row: the span of the table's header row, whose cells name the row's columns
    header: tuple[int, int] | None = None


def _lines(text: str) -> list[tuple[int, int]]:
    out, pos = [], 0
    for line in text.splitlines(keepends=True):
        end = pos + len(line.rstrip("\r\n"))
        out.append((pos, end))
        pos += len(line)
    return out


def split_cells(line: str) -> list[str]:
    """The cells of a table row: between pipes, or runs apart by two or more spaces or a tab."""
    s = line.strip()
    if "|" in s:
        # a pipe is a border only where it closes a Markdown row; a plain-text grid's header
        # indented to a bare "|" ("       | WGH   | SMK") leaves its first cell blank, and a row
        # with a label before its first pipe ("Mon    |       |      ") ends in an empty cell
        # where the line runs on past its last pipe
        body = line.rstrip("\r\n")
        indented = body[:1].isspace() and len(body) - len(body.lstrip()) >= 2
        if s.startswith("|") and not (indented and not s.endswith("|")):
            s = s[1:]
        elif s.endswith("|") and not s.startswith("|") and body[-1:].isspace():
            s += " "
        if s.endswith("|"):
            s = s[:-1]
        return [c.strip() for c in s.split("|")]
    if s.count(";") >= 2 and "\t" not in s and not re.search(r"\S\s{2,}\S", s):
        return [c.strip() for c in s.split(";")]  # a semicolon-separated export ("HF-0358;Campbell C.;X")
    return [c for c in re.split(r"\s{2,}|\t", s) if c]


def _is_pipe_row(line: str) -> bool:
    s = line.strip()
    return s.count("|") >= 2 or (s.startswith("|") and s.count("|") >= 1 and len(s) > 1)


def _fixed_columns(line: str) -> int:
    """Columns of a fixed-width or tab-separated text table row: runs separated by two or more
    spaces or by a tab."""
    s = line.strip()
    return len(re.split(r"\s{2,}|\t", s)) if s else 0


def _ruled_header(raw: list[str], i: int) -> bool:
    """Is line ``i``, underlined by a rule, the header of a fixed-width table below it ("Badge
    Surname Forename Joined DBS" over "-----" and rows in the same columns), not a heading?"""
    return _fixed_columns(raw[i]) >= 3 and i + 2 < len(raw) and _fixed_columns(raw[i + 2]) >= 3


def _is_heading_line(line: str, alone: bool) -> bool:
    """A short line standing alone with no closing punctuation: a plain-text heading."""
    s = line.strip()
    if not s or not alone or _ITEM.match(line) or _is_pipe_row(line) or _is_kv(line):
        return bool(alone and _BOLD_LINE.match(line))
    words = s.split()
    return len(words) <= 8 and not re.search(r"[.!?;,]\W*$", s) and any(c.isalpha() for c in s)


def _title_line(line: str, after: str) -> bool:
    """Is ``line``, a document's first, its title over the bracketed note ``after`` ("(as at 1
    November 2024)"): short, with no closing punctuation, no key and no table cells?"""
    s = line.strip()
    return bool(s) and len(s.split()) <= 10 and after.strip().startswith("(") and not (
        re.search(r"[.!?;,:]\W*$", s) or _is_kv(line) or _is_pipe_row(line) or _fixed_columns(line) >= 3
        or _ITEM.match(line))


def _shape(value: str) -> str:
    v = value.strip()
    if re.fullmatch(r"[\W\d_]*\d[\W\d_]*", v):
        return "number"
    return "text"


def _group_row(cells: list[str], width: int) -> str | None:
    """The label of a table's group row: one non-empty cell, of words, in a table of three or more
    columns (a category or section over the rows below it); None for any other row."""
    filled = [c for c in cells if c.strip()]
    if width < 3 or len(filled) != 1 or len(filled[0].split()) > 8:
        return None
    label = filled[0].strip().strip("*_").strip()
    return label if any(ch.isalpha() for ch in label) else None


def _csv_lines(raw: list[str], group: list[int]) -> list[int]:
    """The lines of a semicolon-separated table ending the group (a header and at least one row,
    each with as many separators, two or more), or [] when the group is no such table."""
    counts = [raw[k].count(";") for k in group]
    tail = len(group)
    while tail > 0 and counts[tail - 1] >= 2 and counts[tail - 1] == counts[-1]:
        tail -= 1
    lines = group[tail:]
    return lines if len(lines) >= 2 and tail <= 2 else []


def _kv_table(rows: list[list[str]], header: bool) -> bool:
    """Is a two-column table a card (``City | Madrid``) rather than a list of entities?"""
    if any(len(r) != 2 for r in rows) or len(rows) < 2:
        return False
    body = rows[1:] if header else rows
    if header and rows[0][0].strip().lower() in {"", "field", "key", "attribute", "property", "item", "detail"}:
        return True
    # an entity list has one kind of value in its right column (all prices, all cities); a card's
    # right column mixes kinds (a city, a phone, a date)
    shapes = {_shape(r[1]) for r in body}
    labels = [r[0] for r in body]
    return not header and (len(shapes) > 1 or all(lb.endswith(":") for lb in labels))


_SIGNATURE = re.compile(r"^[ \t]*-- ?$")
_QUOTE_MARKS = re.compile(r"^[ \t]{0,3}(?:>[ \t]?)+", re.MULTILINE)


def unquoted(text: str) -> str:
    """``text`` with the quote marks of an e-mail's quoted reply (or a Markdown blockquote) blanked
    out, the same length: ``> Status: active`` is read as the card line it was when written, and
    every offset stays the document's."""
    if ">" not in text:
        return text
    return _QUOTE_MARKS.sub(lambda m: " " * len(m.group(0)), text)


def _quote_depths(text: str, lines: list[tuple[int, int]]) -> list[int]:
    """How deeply each line is quoted (``>`` marks at its start)."""
    out = []
    for a, b in lines:
        m = _QUOTE_MARKS.match(text, a, b)
        out.append(m.group(0).count(">") if m else 0)
    return out


def blocks(text: str, *, max_words: int = MAX_BLOCK_WORDS) -> list[Block]:
    """The blocks of ``text`` with their context (see the module docstring). A quoted reply is
    read as the message it quotes: its marks blanked, and a paragraph never runs across the
    quote's edge ("... Tom Ashcroft wrote:" is not part of the quoted report)."""
    lines = _lines(text)
    depth = _quote_depths(text, lines) if ">" in text else [0] * len(lines)
    text = unquoted(text)
    n = len(lines)
    raw = [text[a:b] for a, b in lines]
    blank = [not s.strip() for s in raw]
    out: list[Block] = []
    headings: list[tuple[int, tuple[int, int]]] = []  # (level, span): the open headings

    def context() -> list[tuple[int, int]]:
        return [span for _, span in headings]

    def push(level: int, span: tuple[int, int]) -> None:
        while headings and headings[-1][0] >= level:
            headings.pop()
        headings.append((level, span))
        out.append(Block(span[0], span[1], "heading", context()[:-1]))

    i = 0
    last_para: Block | None = None
    while i < n:
        if blank[i] or _RULE.match(raw[i]) and not (i > 0 and not blank[i - 1]):
            i += 1
            continue
        line = raw[i]
        m = _ATX.match(line)
        if m:
            a = lines[i][0] + line.index(m.group(2)) if m.group(2) else lines[i][0]
            push(len(m.group(1)), (a, a + len(m.group(2))))
            last_para = None
            i += 1
            continue
        if i + 1 < n and not blank[i] and _SETEXT.match(raw[i + 1]) and not _is_pipe_row(line) \
                and (i == 0 or blank[i - 1]) and len(line.split()) <= 12 and not _ruled_header(raw, i):
            level = 1 if raw[i + 1].strip().startswith("=") else 2
            s = line.strip()
            a = lines[i][0] + line.index(s)
            push(level, (a, a + len(s)))
            last_para = None
            i += 2
            continue
        if _SIGNATURE.match(line):
            # "-- " opens an e-mail's signature: its lines are about the sender, under no heading
            # of the message ("Principal Engineer | Brenning Hale, Bristol" is no project's town)
            headings.clear()
        group = _paragraph_group(raw, blank, depth, i)
        j = group[-1] + 1
        alone = len(group) == 1
        if alone and _is_heading_line(line, True):
            s = line.strip()
            bold = _BOLD_LINE.match(line)
            if bold:
                s = bold.group(1).strip()
            a = lines[i][0] + line.index(s)
            # a plain heading sits below every Markdown one: it closes only plain headings
            push(7, (a, a + len(s)))
            last_para = None
            i = j
            continue
        if not out and not headings and len(group) >= 2 and _title_line(raw[i], raw[i + 1]):
            # a document's title line over a bracketed note ("CHAIN OF COMMAND - MV Lord of the
            # Isles" over "(as at 1 November 2024)"): a heading for the whole document
            s = line.strip()
            a = lines[i][0] + line.index(s)
            push(0, (a, a + len(s)))  # above every other heading: no later heading closes it
            i += 1
            continue
        first = len(out)
        last_para = _group_blocks(text, raw, lines, group, context(), out, last_para, max_words)
        if _SIGNATURE.match(line):
            # a signature is a card about the person its first line names ("-- / Miriam Cole /
            # Principal Engineer | Brenning Hale, Bristol"): the lines below are that person's
            for block in out[first:]:
                block.kind = "card" if block.kind == "para" else block.kind
        i = j
    return out


def _paragraph_group(raw: list[str], blank: list[bool], depth: list[int], i: int) -> list[int]:
    """The lines of the paragraph starting at line ``i``: consecutive non-blank lines at one quote
    depth; a loose list of key/value lines (a blank line between items, as HTML <dl> and many
    editors write them) is one card."""
    n = len(raw)
    j = i
    while j < n and not blank[j] and not _ATX.match(raw[j]) and depth[j] == depth[i]:
        j += 1
    group = list(range(i, j))
    while all(_is_kv(raw[k]) for k in group) and j < n:
        k = j
        while k < n and blank[k]:
            k += 1
        if k < n and k - j <= 1 and _is_kv(raw[k]) and not _is_pipe_row(raw[k]) and not _ATX.match(raw[k]):
            group.append(k)
            j = k + 1
            continue
        break
    return group


def _table_blocks(raw: list[str], lines: list[tuple[int, int]], rows: list[int], seps: list[int],
                  base: list[tuple[int, int]], out: list[Block]) -> None:
    """Blocks of a pipe table (``base``: what it is read under, its caption line last): a card for a
    two-column key/value table, else one block per body row."""
    header = bool(seps) and seps[0] == rows[0] + 1
    cells = [split_cells(raw[k]) for k in rows]
    if _kv_table(cells, header):
        out.append(Block(lines[rows[0]][0], lines[rows[-1]][1], "card", base))
        return
    body = rows[1:] if header else rows
    head = [lines[rows[0]]] if header else []
    width = max(len(c) for c in cells)
    groups: list[tuple[int, tuple[int, int]]] = []  # (level, span): the open group rows
    # a grid whose header leaves its first cell blank labels its rows in the first column (days
    # down, sites across): a row with only its label is an empty row ("| Tuesday | | |"), no group
    grid = header and not (split_cells(raw[rows[0]]) or [""])[0].strip()
    for k in body:
        group_label = None if grid else _group_row(split_cells(raw[k]), width)
        if group_label is not None:
            # a row of one cell inside a wider table ("| First violins (VN1) |", an HTML row
            # spanning every column) heads the rows below it, as a heading would; a row in
            # capitals ("| STRINGS |") is a level above one that is not, and the group row is
            # read under it as a tree's line under its parent (the violins are strings)
            level = 1 if group_label.isupper() else 2
            while groups and groups[-1][0] >= level:
                groups.pop()
            a = lines[k][0] + raw[k].index(group_label)
            groups.append((level, (a, a + len(group_label))))
            out.append(Block(a, a + len(group_label), "branch", base + [sp for _, sp in groups[:-1]]))
            continue
        # the header row stays the last span of the context: the linker reads it as the header
        out.append(Block(lines[k][0], lines[k][1], "row", base + [sp for _, sp in groups] + head,
                         header=head[0] if head else None))


def _group_blocks(text: str, raw: list[str], lines: list[tuple[int, int]], group: list[int],
                  ctx: list[tuple[int, int]], out: list[Block], last_para: Block | None,
                  max_words: int) -> Block | None:
    """Blocks of one paragraph group (consecutive non-blank lines); returns the last paragraph."""
    rows = [k for k in group if _is_pipe_row(raw[k]) and not _PIPE_SEP.match(raw[k])]
    seps = [k for k in group if _PIPE_SEP.match(raw[k])]
    lead_lines = [k for k in group if k < (rows[0] if rows else group[-1] + 1)]
    if rows and len(rows) + len(seps) >= max(2, len(group) - len(lead_lines)):
        _table_blocks(raw, lines, rows, seps, ctx + [lines[k] for k in lead_lines], out)
        return None
    if _definition_list(raw, group):
        # "Grade\n: Director" (a Markdown definition list): a term and its definition, read as a
        # card's key and value
        out.append(Block(lines[group[0]][0], lines[group[-1]][1], "card", ctx))
        return None
    kv = [k for k in group if _is_kv(raw[k]) and not _is_pipe_row(raw[k])]
    items = [k for k in group if _ITEM.match(raw[k])]
    if len(group) >= 2 and len(kv) >= max(2, 0.6 * len(group)):
        # a card: key/value lines (bullet or not); a first line that is not key/value names it
        a, b = lines[group[0]][0], lines[group[-1]][1]
        out.append(Block(a, b, "card", ctx))
        return None
    tree = _tree(raw, group)
    if tree is not None:
        # an org chart or a nested list: each line is read under its parent line ("├── Nancy
        # Davolio" under "Andrew Fuller (Vice President)": who reports to whom, or what it details)
        for k, parent in tree:
            out.append(Block(lines[k][0], lines[k][1], "branch",
                             ctx + ([lines[parent]] if parent is not None else [])))
        return None
    if len(items) >= 2 and len(items) >= len(group) - 1:
        intro = [lines[k] for k in group if k < items[0]]
        for pos, k in enumerate(items):
            end = items[pos + 1] - 1 if pos + 1 < len(items) else group[-1]
            out.append(Block(lines[k][0], lines[end][1], "item", ctx + intro))
        return None
    csv = _csv_lines(raw, group)
    if csv:
        # a semicolon-separated export under its title line(s): its first line is the header
        head = lines[csv[0]]
        base = ctx + [lines[k] for k in group if k < csv[0]]
        for k in csv[1:]:
            out.append(Block(lines[k][0], lines[k][1], "row", base + [head], header=head))
        return None
    if len(group) >= 3 and sum(_fixed_columns(raw[k]) >= 3 for k in group) >= len(group) - 1 \
            or len(group) == 2 and _fixed_columns(raw[group[0]]) == _fixed_columns(raw[group[1]]) >= 3 \
            and not any(ch.isdigit() for ch in raw[group[0]]):
        # a fixed-width text table: the first line is its header (a header of words over one row
        # in the same columns is one too: "QTY  PRODUCT  PRICE  DISC" over an order's only line);
        # a line of one run above it is the table's title ("CARDIOLOGY" over "CLINIC  LIST ..."),
        # which the rows are read under
        first = 1 if len(group) >= 3 and _fixed_columns(raw[group[0]]) < 3 <= _fixed_columns(raw[group[1]]) else 0
        title = [lines[group[0]]] if first else []
        head = lines[group[first]]
        for k in group[first + 1:]:
            if not _RULE.match(raw[k]):
                out.append(Block(lines[k][0], lines[k][1], "row", ctx + title + [head], header=head))
        return None
    a, b = lines[group[0]][0], lines[group[-1]][1]
    para_ctx = list(ctx)
    if last_para is not None and (_PRONOUN_LEAD.match(text[a:b]) or _ANSWER_LEAD.match(text[a:b])
                                  or text[last_para.start:last_para.end].rstrip(" *_").endswith("?")):
        # "He is their sales representative": the paragraph before says who "he" is; an answer is
        # read under its question ("Where is the Aarhus office?" / "A: Åboulevarden 48")
        para_ctx.append((last_para.start, last_para.end))
    last = None
    for sa, sb in windows(text, a, b, max_words):
        last = Block(sa, sb, "para", para_ctx)
        out.append(last)
    return last


_FENCE = re.compile(r"^\s*(```|~~~)")
#: a tree connector ("├──", "└──", "+--", "|--", "`--") or a list marker, after the indentation
_BRANCH = re.compile(r"^(\s*(?:[│|]\s*)*)(?:[├└+`|]\s*[-─]{1,3}\s*|[-*+•]\s+)")


def _tree(raw: list[str], group: list[int]) -> list[tuple[int, int | None]] | None:
    """(line, parent line) for a paragraph laid out as a tree — tree connectors, or list items at
    two or more indentation levels — else None. The parent of a line is the nearest line above it
    that starts further left."""
    body = [k for k in group if raw[k].strip() and not _FENCE.match(raw[k])]
    if len(body) < 2:
        return None
    depth: dict[int, int] = {}
    connectors = 0
    for k in body:
        line = raw[k]
        m = _BRANCH.match(line)
        if m and re.search(r"[├└─]|[+|`]\s*-", line[:m.end()]):
            connectors += 1
        # the column of the first letter or digit: where the entry starts
        first = re.search(r"[^\W_]", line)
        depth[k] = first.start() if first else len(line)
    levels = {depth[k] for k in body}
    items = sum(1 for k in body if _BRANCH.match(raw[k]))
    # an outline: a short line flush left over indented lines, no list markers ("VIOLAS [VLA]"
    # over "  Kate Varley", "  Principal Viola ..... Jonas Feld"): the first line heads the others
    top = raw[body[0]]
    outline = items == 0 and not top[:1].isspace() and len(top.split()) <= 12 \
        and not re.search(r"[.!?;,]\W*$", top.strip()) and all(raw[k][:1].isspace() for k in body[1:]) \
        and sum(_fixed_columns(raw[k]) >= 3 for k in body) < len(body) - 1  # indented rows under a header
    tree = len(body) >= 3 and (connectors >= 2 or (len(levels) >= 2 and items >= len(body) - 1 and any(
        raw[k][:1].isspace() for k in body)))
    if not (outline or tree):
        return None
    out: list[tuple[int, int | None]] = []
    stack: list[int] = []
    for k in body:
        while stack and depth[stack[-1]] >= depth[k]:
            stack.pop()
        out.append((k, stack[-1] if stack else None))
        stack.append(k)
    return out


def windows(text: str, a: int, b: int, max_words: int) -> list[tuple[int, int]]:
    """``text[a:b]``, or windows of its whole sentences when it is longer than ``max_words``."""
    if len(text[a:b].split()) <= max_words:
        return [(a, b)]
    from ragdx.kb.normalise import sentences

    out: list[tuple[int, int]] = []
    start, words, last = None, 0, a
    for sa, sb in sentences(text[a:b]):
        n = len(text[a + sa:a + sb].split())
        if start is not None and words + n > max_words:
            out.append((start, last))
            start, words = None, 0
        if start is None:
            start = a + sa
        words += n
        last = a + sb
    if start is not None:
        out.append((start, last))
    return out
