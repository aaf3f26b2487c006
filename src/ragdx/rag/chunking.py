"""Chunkers: how documents are cut into the units a retriever scores.

Every chunk carries the id of the document it came from, so that whatever the granularity,
retrieval is judged on documents (hit rate, GRAMMAR's retrieval judgement). Child-parent chunks
also carry their parent chunk: the parent-document retriever scores the small children (sharper
embeddings) and hands the large parents (enough context) to the generator (paper §4.2.2).
"""

from __future__ import annotations

from dataclasses import dataclass

from ragdx.errors import RagdxError
from ragdx.rag.corpus import Component, Corpus, register


@dataclass(slots=True, frozen=True)
class Chunk:
    id: str
    doc_id: str
    text: str
    #: character offset of the chunk in its document
    start: int = 0
    #: the parent chunk, for child chunks of a child-parent split
    parent: Chunk | None = None


class Chunker(Component):
    def chunk(self, corpus: Corpus) -> list[Chunk]:
        raise NotImplementedError


@register("whole_document")
class WholeDocumentChunker(Chunker):
    """One chunk per document; the chunk id is the document id."""

    def __init__(self) -> None:
        pass

    def chunk(self, corpus: Corpus) -> list[Chunk]:
        return [Chunk(d.id, d.id, d.text) for d in corpus]


def split_text(text: str, size: int, overlap: int) -> list[tuple[int, str]]:
    """(offset, piece) windows of at most ``size`` characters, consecutive ones sharing about
    ``overlap``. A cut moves back to the last whitespace in the window's second half so that words
    (which every retriever here tokenises) are not split; a window without whitespace is cut hard."""
    if size <= 0:
        raise RagdxError("must be a positive number of characters", field="size")
    if not 0 <= overlap < size:
        raise RagdxError("must be at least 0 and smaller than the size", field="overlap")
    out: list[tuple[int, str]] = []
    start, n = 0, len(text)
    while start < n:
        end = min(start + size, n)
        if end < n and not text[end].isspace():
            cut = max(text.rfind(" ", start + size // 2, end), text.rfind("\n", start + size // 2, end))
            if cut > start:
                end = cut
        piece = text[start:end]
        if piece.strip():
            out.append((start, piece))
        if end >= n:
            break
        nxt = max(end - overlap, start + 1)
        # start the next window on a word boundary too, inside the overlap
        if overlap and nxt > 0 and not text[nxt - 1].isspace():
            space = text.find(" ", nxt, end)
            if space != -1:
                nxt = space + 1
        start = nxt
    return out


@register("fixed_size")
class FixedSizeChunker(Chunker):
    """Windows of ``size`` characters with ``overlap`` characters shared between neighbours."""

    def __init__(self, size: int = 1000, overlap: int = 100):
        split_text("", size, overlap)  # validates
        self.size = size
        self.overlap = overlap

    def chunk(self, corpus: Corpus) -> list[Chunk]:
        return [Chunk(f"{d.id}#{i}", d.id, piece, off)
                for d in corpus for i, (off, piece) in enumerate(split_text(d.text, self.size, self.overlap))]


@register("child_parent")
class ChildParentChunker(Chunker):
    """Parents of ``parent_size`` characters, each cut into children of ``child_size``; the paper's
    300/1,500. ``chunk`` returns the children (the retrievable units); each knows its parent."""

    def __init__(self, child_size: int = 300, parent_size: int = 1500, child_overlap: int = 0,
                 parent_overlap: int = 0):
        split_text("", child_size, child_overlap)
        split_text("", parent_size, parent_overlap)
        if child_size > parent_size:
            raise RagdxError("child_size must not exceed parent_size", field="child_size")
        self.child_size = child_size
        self.parent_size = parent_size
        self.child_overlap = child_overlap
        self.parent_overlap = parent_overlap

    def parents(self, corpus: Corpus) -> list[Chunk]:
        return [Chunk(f"{d.id}#p{i}", d.id, piece, off)
                for d in corpus
                for i, (off, piece) in enumerate(split_text(d.text, self.parent_size, self.parent_overlap))]

    def chunk(self, corpus: Corpus) -> list[Chunk]:
        children = []
        for parent in self.parents(corpus):
            for j, (off, piece) in enumerate(split_text(parent.text, self.child_size, self.child_overlap)):
                children.append(Chunk(f"{parent.id}c{j}", parent.doc_id, piece, parent.start + off, parent))
        return children
