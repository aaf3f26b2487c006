"""Load test of ``ragdx serve`` on loopback: N concurrent clients for T seconds.

    OMP_WAIT_POLICY=passive HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/relevance_service_load.py \
        [--clients 50] [--seconds 30] [--data ../shared/data/knowledge-boundary]

Fits a tester on setting 1 (PubMedQA contexts, 500 calibration questions; embeddings from the
.ragdx-cache), saves it, starts the real server (uvicorn, a subprocess) with a bearer token, and
runs the clients: each sends batches of 1-4 real question texts (PubMedQA* and the
out-of-knowledge sets) to /v1/relevance, and every fourth request a batch of 20 to /v1/drift. The
server embeds the texts itself with the packaged MiniLM (its embedder has no cache), so the load
includes the model. Also checks that a request without the token, or with a wrong one, is refused.
Prints a table; exits 1 on any unexpected status or transport error.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def run_clients(base: str, token: str, questions: list, clients: int, seconds: float, mode: str) -> dict:
    import httpx

    stats: dict = {"ok": 0, "errors": [], "latency": [], "drift": 0, "relevance": 0, "shed": 0}
    deadline = time.perf_counter() + seconds
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=base, timeout=60.0, limits=limits,
                                 headers={"Authorization": f"Bearer {token}"}) as client:

        async def one(cid: int) -> None:
            rnd = random.Random(cid)
            n = 0
            while time.perf_counter() < deadline:
                n += 1
                drift = n % 4 == 0
                batch = rnd.sample(questions, 20 if drift else rnd.randint(1, 4))
                path = "/v1/drift" if drift else "/v1/relevance"
                t = time.perf_counter()
                try:
                    r = await client.post(path, json={mode: batch})
                except httpx.HTTPError as exc:
                    stats["errors"].append(f"{type(exc).__name__}: {exc}")
                    continue
                stats["latency"].append(time.perf_counter() - t)
                if r.status_code == 503 and "retry-after" in r.headers:
                    # deliberate load shedding past the server's queue bound: not an error; a
                    # well-behaved client waits as told
                    stats["shed"] += 1
                    await asyncio.sleep(float(r.headers["retry-after"]))
                    continue
                if r.status_code != 200:
                    stats["errors"].append(f"{r.status_code}: {r.text[:200]}")
                    continue
                body = r.json()
                good = ("drifted" in body) if drift else (len(body.get("results", [])) == len(batch))
                if not good:
                    stats["errors"].append(f"malformed answer: {str(body)[:200]}")
                    continue
                stats["ok"] += 1
                stats["drift" if drift else "relevance"] += 1

        await asyncio.gather(*(one(i) for i in range(clients)))
        refused = []
        for headers in ({"Authorization": ""}, {"Authorization": "Bearer wrong"}):
            r = await client.post("/v1/relevance", json={"queries": ["x"]}, headers=headers)
            refused.append((r.status_code, r.json()))
    stats["refused"] = refused
    return stats


def main() -> int:
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    sys.path.insert(0, str(REPO / "src"))
    from ragdx.embed import Embedder
    from ragdx.relevance import RelevanceTester, read_corpus, read_questions

    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(REPO.parent / "shared" / "data" / "knowledge-boundary"))
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--mode", choices=("queries", "embeddings"), default="queries",
                    help="send texts (the server embeds them) or precomputed embeddings")
    ap.add_argument("--max-pending", type=int, default=64, help="the server's queue bound (503 past it)")
    args = ap.parse_args()
    data = Path(args.data)

    cached = Embedder(cache_dir=REPO / ".ragdx-cache")
    corpus = cached.embed(read_corpus(data / "corpus_pubmedqa_pqal_contexts.jsonl"))
    calibration = cached.embed(read_questions(data / "pubmedqa_pqal_nontest.jsonl"))
    questions = read_questions(data / "pubmedqa.jsonl")
    for name in ("truthfulqa", "medqa", "bioasq"):
        questions += read_questions(data / f"{name}.jsonl")[:300]
    payload = questions if args.mode == "queries" else cached.embed(questions).round(6).tolist()
    tester = RelevanceTester(embedder=Embedder(cache_dir=None)).fit(corpus, calibration,
                                                                    embedding_model=cached.name)

    token = "load-test-" + os.urandom(8).hex()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        path = tester.save(Path(tmp) / "tester")
        env = {**os.environ, "RAGDX_SERVE_TOKEN": token, "PYTHONPATH": str(REPO / "src")}
        server = subprocess.Popen(
            [sys.executable, "-c", f"from ragdx.relevance.serve import serve; serve({str(path)!r}, port={port}, "
             f"max_pending={args.max_pending})"],
            env=env)
        try:
            import httpx

            base = f"http://127.0.0.1:{port}"
            for _ in range(300):
                try:
                    if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.2)
            else:
                print("server did not come up", file=sys.stderr)
                return 1
            # the model loads on the first text request; keep that out of the measured window
            httpx.post(base + "/v1/relevance", json={"queries": ["warm-up"]},
                       headers={"Authorization": f"Bearer {token}"}, timeout=120)
            t0 = time.perf_counter()
            stats = asyncio.run(run_clients(base, token, payload, args.clients, args.seconds, args.mode))
            wall = time.perf_counter() - t0
        finally:
            server.terminate()
            server.wait(timeout=30)

    lat = np.array(stats["latency"]) * 1000
    what = ("texts embedded by the server (MiniLM, no cache)" if args.mode == "queries"
            else "clients send precomputed embeddings")
    print(f"Service load test: {args.clients} concurrent clients, {args.seconds:.0f} s, loopback, "
          f"{os.cpu_count()} CPU cores; {what}.\n")
    print("| requests ok | relevance | drift | shed (503) | errors | requests/s | p50 (ms) | p99 (ms) | no token |"
          " wrong token |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    print(f"| {stats['ok']} | {stats['relevance']} | {stats['drift']} | {stats['shed']} | {len(stats['errors'])} | "
          f"{stats['ok'] / wall:.1f} | {np.median(lat):.0f} | {np.quantile(lat, 0.99):.0f} | "
          f"{stats['refused'][0][0]} | {stats['refused'][1][0]} |")
    for err in stats["errors"][:10]:
        print("error:", err)
    refused_ok = all(code == 401 for code, _ in stats["refused"])
    return 0 if not stats["errors"] and refused_ok and stats["ok"] > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
