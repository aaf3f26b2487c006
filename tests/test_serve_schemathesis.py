"""Property-based tests of the screening service against its own OpenAPI document (schemathesis,
bounded examples): whatever a client sends that the document allows — or nearly allows — the
service never answers with a server error, and its responses match the document."""

from __future__ import annotations

import os

import pytest

schemathesis = pytest.importorskip("schemathesis", reason="schemathesis is installed by the test extra")
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    negative_data_rejection,
    status_code_conformance,
)

from ragdx.relevance import RelevanceTester  # noqa: E402
from tests.test_relevance import Slice  # noqa: E402

TOKEN = "schemathesis-token"


@pytest.fixture(scope="module")
def api_schema(tmp_path_factory):
    from ragdx.relevance.serve import create_app

    data = Slice()
    path = RelevanceTester().fit(data.corpus, data.calibration).save(tmp_path_factory.mktemp("st") / "tester")
    os.environ["RAGDX_TEST_ST_TOKEN"] = TOKEN
    app = create_app(path, token_env="RAGDX_TEST_ST_TOKEN", max_batch=8, max_body_bytes=200_000)
    return schemathesis.openapi.from_asgi("/openapi.json", app)


@pytest.mark.slow
def test_no_server_error_and_documented_statuses(api_schema):
    """Every operation of the document, 40 generated cases each (the pytest plugin's own
    parametrisation does not run under this pytest, so the operations are walked here)."""
    from hypothesis import given

    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert {op.path for op in operations} >= {"/v1/relevance", "/v1/drift"}
    for op in operations:
        @given(case=op.as_strategy())
        @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def check(case):
            case.call_and_validate(headers={"Authorization": f"Bearer {TOKEN}"},
                                   checks=[not_a_server_error, status_code_conformance],
                                   excluded_checks=[negative_data_rejection], timeout=180)

        check()
