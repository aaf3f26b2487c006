"""The screening service over real HTTP semantics (Starlette's test client runs the real app), and the
one test that embeds real sentences with the packaged model, offline."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from ragdx.errors import RagdxError
from ragdx.relevance import RelevanceTester
from tests.test_relevance import Slice

TOKEN = "s3cret-token"


@pytest.fixture(scope="module")
def data() -> Slice:
    return Slice()


@pytest.fixture(scope="module")
def saved(data, tmp_path_factory):
    t = RelevanceTester().fit(data.corpus, data.calibration)
    return t, t.save(tmp_path_factory.mktemp("srv") / "tester")


@pytest.fixture(scope="module")
def client(saved):
    from starlette.testclient import TestClient

    from ragdx.relevance.serve import create_app

    _, path = saved
    os.environ["RAGDX_TEST_SERVE_TOKEN"] = TOKEN
    app = create_app(path, token_env="RAGDX_TEST_SERVE_TOKEN", max_batch=8, max_body_bytes=200_000)
    return TestClient(app)


AUTH = {"Authorization": f"Bearer {TOKEN}"}


def test_relevance_endpoint_matches_the_tester(client, saved, data):
    tester, _ = saved
    q = np.vstack([data.in_knowledge[:3], data.truthfulqa[:3]])
    r = client.post("/v1/relevance", json={"embeddings": q.tolist(), "alpha": 0.1}, headers=AUTH)
    assert r.status_code == 200, r.text
    body = r.json()
    expected = tester.test(q.astype(np.float32), alpha=0.1)
    assert [x["p_value"] for x in body["results"]] == pytest.approx([e.p_value for e in expected])
    assert [x["out_of_knowledge"] for x in body["results"]] == [e.out_of_knowledge for e in expected]
    assert body["alpha"] == 0.1


def test_drift_endpoint(client, data):
    r = client.post("/v1/drift", json={"embeddings": data.truthfulqa[:8].tolist()}, headers=AUTH)
    assert r.status_code == 200, r.text
    assert r.json()["drifted"] is True and r.json()["n_batch"] == 8


def test_token_is_required(client, data):
    body = {"embeddings": data.truthfulqa[:1].tolist()}
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN}):
        r = client.post("/v1/relevance", json=body, headers=headers)
        assert r.status_code == 401 and r.json() == {"error": "missing or wrong bearer token"}
    assert client.get("/healthz").json()["status"] == "ok"


def test_limits_and_json_errors(client, data):
    r = client.post("/v1/relevance", json={"embeddings": data.truthfulqa[:9].tolist()}, headers=AUTH)
    assert r.status_code == 422 and "exceeds the limit of 8" in r.json()["error"]
    big = json.dumps({"queries": ["x" * 250_000]})
    r = client.post("/v1/relevance", content=big, headers={**AUTH, "Content-Type": "application/json"})
    assert r.status_code == 413 and "limit" in r.json()["error"]
    r = client.post("/v1/relevance", json={"queries": ["a"], "embeddings": [[0.1]]}, headers=AUTH)
    assert r.status_code == 422 and "exactly one" in r.json()["error"]
    r = client.post("/v1/relevance", json={"embeddings": [[0.1, 0.2]]}, headers=AUTH)
    assert r.status_code == 400 and "dimension" in r.json()["error"]
    r = client.post("/v1/relevance", content=b"{not json", headers={**AUTH, "Content-Type": "application/json"})
    assert r.status_code == 422 and "error" in r.json()
    assert client.get("/nope").json() == {"error": "Not Found"}


def test_openapi_is_served(client):
    spec = client.get("/openapi.json").json()
    assert {"/v1/relevance", "/v1/drift", "/healthz"} <= set(spec["paths"])


def test_refuses_to_start_without_a_token(saved):
    from ragdx.relevance.serve import create_app

    os.environ.pop("RAGDX_TEST_NO_TOKEN", None)
    with pytest.raises(RagdxError, match="RAGDX_TEST_NO_TOKEN"):
        create_app(saved[1], token_env="RAGDX_TEST_NO_TOKEN")


def test_packaged_model_embeds_offline_and_texts_flow_end_to_end(data, saved, tmp_path):
    """The one test that loads the model: it must reproduce the fixture's embeddings offline and
    serve text queries through the same tester."""
    from starlette.testclient import TestClient

    from ragdx.embed import Embedder
    from ragdx.relevance.serve import create_app

    assert os.environ.get("HF_HUB_OFFLINE", "1") == "1"
    emb = Embedder(cache_dir=None)
    texts = data.in_knowledge_text[:2] + data.truthfulqa_text[:2]
    vecs = emb.embed(texts)
    fixture = np.vstack([data.in_knowledge[:2], data.truthfulqa[:2]])
    assert np.abs(vecs - fixture).max() < 5e-3  # fixture vectors are float16
    tester = RelevanceTester.load(saved[1], embedder=emb)
    client = TestClient(create_app(tester, token=TOKEN))
    r = client.post("/v1/relevance", json={"queries": texts}, headers=AUTH)
    assert r.status_code == 200, r.text
    results = r.json()["results"]
    assert [x["query"] for x in results] == texts
    assert results[0]["p_value"] > results[2]["p_value"] and results[2]["out_of_knowledge"]


def test_embeddings_beyond_float32_are_refused_not_cast_to_inf():
    import numpy as np

    from ragdx.errors import RagdxError
    from ragdx.relevance import serve

    class Batch:
        queries = None
        embeddings = [[1e39, 0.0], [0.5, 0.5]]

    try:
        serve._batch_inputs(Batch(), max_batch=10, max_query_chars=100, dim=2)
    except RagdxError as exc:
        assert "float32" in exc.message and exc.field == "embeddings"
    else:
        raise AssertionError("1e39 was accepted")
    Batch.embeddings = [[0.25, 0.5]]
    assert serve._batch_inputs(Batch(), max_batch=10, max_query_chars=100, dim=2).dtype == np.float32
