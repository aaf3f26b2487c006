#!/usr/bin/env python3
"""Score a ragdx dataset's evidence linking against the Carrick Reach Marina corpus's recorded truth.

    python3 score_linking.py DATASET_DIR [--truth truth.json] [--db marina.sqlite] [--json out.json]

DATASET_DIR is what `ragdx gen ... --corpus docs/` (or `ragdx kb link`) wrote; only its records.jsonl is
read (fields sql, facts, gold_document_ids, kb_supported).  Standard library only; nothing from ragdx is
imported.  The rules are those of the shared scorer, benchmarks/corpora/scoring.py: every join hop as the
foreign-key column of the row holding it (boats.berth_no@7, work_orders.staff_id@WO-3444); a hop through the
composite-key table boat_owners as the existence of the row, keyed by its last key column
(boat_owners.owner_id@6|10); every selected column except one that merely names a joined entity
(NAME_COLUMNS) or its whole primary key.  A record about an entity or fact this corpus leaves out
(truth.json `absent_entities`, `absent_facts`) has no exact statement, so it is unsupported: ragdx's
kb_supported should be False there.

Importable by other benchmarks:

    Needs(db_path)(sql) -> one sorted list of needed fact keys per answer row of SQL
    stem(doc_id)        -> the id ragdx gives a folder document (its path without the extension)
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
    "pontoons": {"name"},
    "owners": {"first_name", "last_name"},
    "boats": {"name"},
    "staff": {"name"},
}


class Needs(scoring.Needs):
    name_columns = NAME_COLUMNS


def score(dataset, truth_path, db=None):
    return scoring.score(dataset, truth_path, db, Needs)


def main(argv=None):
    return scoring.main(argv, here=HERE, corpus="the Carrick Reach Marina corpus", needs_class=Needs)


if __name__ == "__main__":
    sys.exit(main())
