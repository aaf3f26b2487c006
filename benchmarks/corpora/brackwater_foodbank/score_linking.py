#!/usr/bin/env python3
"""Score a ragdx dataset's evidence linking against the Brackwater food bank corpus's recorded truth.

    python3 score_linking.py DATASET_DIR [--truth truth.json] [--db brackwater.sqlite] [--json out.json]

DATASET_DIR is what `ragdx gen ... --corpus docs/` (or `ragdx kb link`) wrote; only its
records.jsonl is read (fields sql, answer_rows, facts, gold_document_ids, evidence_sets,
kb_supported).  Standard library only; nothing from ragdx is imported.

Importable by other benchmarks:

    Needs(db_path)(sql) -> one sorted list of needed fact keys per answer row of SQL
    stem(doc_id)        -> the id ragdx gives a folder document (its path without the extension)

The facts a record needs come from its SQL and the database, never from ragdx's `facts`.  The
SQL's SELECT list, FROM ... JOIN ... ON chain (aliases and quoted identifiers included) and WHERE
clause are parsed; the same FROM and WHERE are run again selecting the primary key of every
joined table.  For each row found, the needed facts are
  * every join hop, as the foreign-key column of the row holding it (donations.donor_id@17,
    hubs.parent_hub_id@9).  When that column belongs to a composite primary key (hub_hours,
    hub_volunteers, donation_items) the hop is the existence of the row, keyed by the table's last
    key column: hub_volunteers.volunteer_id@3|41, hub_hours.weekday@3|Monday;
  * every selected column, except one that merely names a joined entity (the name of the
    donation's donor is answered by the hop donations.donor_id): the entity's name columns
    (NAME_COLUMNS) or its whole primary key.  A selected attribute of a composite-key row
    (donation_items.quantity@12|4) implies that row, so the row's existence is not listed apart.
A record is supported when every needed fact of every answer row is stated exactly somewhere (a
split fact counts: its parts are stated exactly); a record without answer rows has no verdict.
The gold documents of a record are the documents stating one of its needed facts exactly, and
both documents of a split fact.
"""

from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# the scorer is shared by every corpus (benchmarks/corpora/scoring.py); this file sets what differs
sys.path.insert(0, os.path.dirname(HERE))
import scoring  # noqa: E402
from scoring import parse_sql, stem  # noqa: E402,F401  (importable by other benchmarks)

#: the columns by which documents and ragdx name a row (answering with them is answering with the hop)
NAME_COLUMNS = {
    "hubs": {"name"},
    "volunteers": {"first_name", "last_name"},
    "donors": {"name"},
    "items": {"name"},
    "donations": {"receipt_no"},
}


class Needs(scoring.Needs):
    name_columns = NAME_COLUMNS


def score(dataset, truth_path, db=None):
    return scoring.score(dataset, truth_path, db, Needs)


def main(argv=None):
    return scoring.main(argv, here=HERE, corpus="the Brackwater food bank corpus", needs_class=Needs)


if __name__ == "__main__":
    sys.exit(main())
