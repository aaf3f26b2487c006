"""Issue 22 item 6: a join hop through a composite primary key is a fact of the record.

``payment(client_id REFERENCES client, code, PRIMARY KEY (client_id, code))``: "the city of the
client of payment P-1-0" rests on two facts, the client's city and *which client made the
payment*. With the payment table left out of the knowledge base, no document states the second,
so the record must not be supported by the client's page alone. Checked on every engine.
"""

from __future__ import annotations

import json

import pytest

from ragdx import generate_dataset
from ragdx.db.load import load_tables


def _col(name: str, type_: str, pk: bool = False) -> dict:
    return {"name": name, "type": type_, "not_null": pk, "primary_key": pk}


SCHEMA = {
    "client": {
        "columns": [_col("id", "INTEGER", True), _col("name", "VARCHAR(60)"), _col("city", "VARCHAR(60)")],
        "primary_key": ["id"], "foreign_keys": [],
    },
    "payment": {
        "columns": [_col("client_id", "INTEGER", True), _col("code", "VARCHAR(20)", True),
                    _col("amount", "INTEGER")],
        "primary_key": ["client_id", "code"],
        "foreign_keys": [{"column": "client_id", "ref_table": "client", "ref_column": "id"}],
    },
}
CITIES = ["Paris", "Lyon", "Nantes", "Lille", "Nice"]


def _rows() -> dict[str, list[dict]]:
    clients = [{"id": i, "name": f"Client {i}", "city": CITIES[i % 5]} for i in range(1, 13)]
    payments = [{"client_id": i, "code": f"P-{i}-{j}", "amount": 100 * i + j} for i in range(1, 13) for j in range(2)]
    return {"client": clients, "payment": payments}


@pytest.mark.parametrize("omit", [True, False], ids=["payment-omitted", "payment-rendered"])
def test_the_hop_through_a_composite_key_is_a_fact(empty_db, tmp_path, omit):
    load_tables(empty_db, SCHEMA, _rows())
    out = generate_dataset(empty_db, tmp_path / "ds", kb=tmp_path / "kb",
                           omit_tables=["payment"] if omit else [], max_groups=0)
    records = [json.loads(line) for line in (out / "records.jsonl").open()]
    hops = [r for r in records if r["params"].keys() == {"payment.code"} and r["answer_columns"] != ["amount"]]
    assert hops, "no template reaches the client from a payment"
    for r in hops:
        client_id, code = r["params"]["payment.code"].split("-")[1], r["params"]["payment.code"]
        assert f"payment.client_id@{client_id}|{code}" in r["facts"], r["facts"]
        # the client's page alone states the city, never that this client made this payment
        assert r["kb_supported"] is (not omit), (r["query"], r["facts"], r["gold_document_ids"])
        if not omit:
            assert f"payment:{client_id}|{code}" in r["gold_document_ids"]
