"""``ragdx serve``: a fitted knowledge-boundary tester over HTTP."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def serve(
    tester: Annotated[Path, typer.Argument(help="Directory of a fitted tester.")],
    host: Annotated[str, typer.Option("--host")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535)] = 8080,
    token_env: Annotated[str, typer.Option("--token-env", help="Environment variable holding the bearer token.")] = "RAGDX_SERVE_TOKEN",
    max_batch: Annotated[int, typer.Option("--max-batch", min=1)] = 256,
    max_pending: Annotated[int, typer.Option("--max-pending", min=0, help="Requests in flight before 503 + Retry-After.")] = 64,
):
    """Serve the tester over HTTP: POST /v1/relevance, POST /v1/drift, GET /healthz."""
    from ragdx.relevance.serve import serve as run_server

    run_server(tester, host=host, port=port, token_env=token_env, max_batch=max_batch, max_pending=max_pending)
