"""What the evidence-linking tests share: a small real SQLite world and the gold documents
``ragdx kb link`` gives each fact of a one-fact record over a corpus of a few texts."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ragdx.db import connect, inspect_schema
from ragdx.gen.dataset import QARecord
from ragdx.kb.link import FactResolver, Linker, PassageIndex, link_records
from ragdx.rag.corpus import Corpus


def world(path: Path, script: str):
    """(engine, schema) of a SQLite database made at ``path`` by ``script``."""
    with sqlite3.connect(path) as con:
        con.executescript(script)
    engine = connect(f"sqlite:///{path}")
    return engine, inspect_schema(engine)


def record(facts: list[str]) -> QARecord:
    """A record needing ``facts`` and nothing else of a dataset."""
    return QARecord(id=facts[-1], group_id=facts[-1], sql_template_id="s", text_template_id="t", style="short",
                    schema="w", table=facts[-1].partition(".")[0], params={}, sql="", query="",
                    answer_columns=[], answer_rows=[["x"]], answer_text="x", answer_kind="single",
                    entities=[], facts=facts)


def gold(world_: tuple, docs: dict[str, str], *facts: list[str]) -> list[list[str]]:
    """The gold documents of one record per fact list, linked over the texts ``docs`` (id → text)."""
    engine, schema = world_
    out = link_records([record(f) for f in facts], FactResolver(engine, schema),
                       Linker(PassageIndex(Corpus.from_texts(docs))))
    return [r.gold_document_ids for r in out]
