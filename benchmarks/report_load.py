"""The HTML report of a large run: its size, `ragdx report`'s wall time, and its paint timing in
headless Chromium.

    .venv/bin/python benchmarks/report_load.py RUN_DIR [RUN_DIR ...] [--repeat 5] [--out DIR]

Each RUN_DIR must hold an evaluation already (``evaluate_scale.py --end-to-end N --from-demo DEMO
--work DIR`` makes one at N queries: DIR/run); ``ragdx report`` reuses it, so what is timed is the
report alone, in a fresh process as a user runs it (imports included). The page is then opened
``--repeat`` times, each in a new tab of one ``chromium --headless=new`` driven over the DevTools
protocol, and the page's own Performance API says when it first painted
(``first-contentful-paint``) and when its load event ended, both from the navigation's start;
the medians are reported. The browser's start-up is outside these numbers, as it is for a user
who opens a report in a browser already running.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

PAINT = """JSON.stringify({
  paint: Object.fromEntries(performance.getEntriesByType('paint').map(e => [e.name, e.startTime])),
  load: (performance.getEntriesByType('navigation')[0] || {}).loadEventEnd || 0,
  rows: document.querySelectorAll('tr').length
})"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def devtools(port: int, path: str, method: str = "GET") -> object:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method)
    with urllib.request.urlopen(request, timeout=10) as response:
        body = response.read()
    try:
        return json.loads(body)
    except ValueError:
        return body.decode()


async def paint_timing(port: int, url: str, timeout: float = 120.0) -> dict[str, float]:
    """Open ``url`` in a new tab, wait for its load event and its first contentful paint, and
    return them (ms from navigation start) with the number of table rows drawn."""
    import websockets

    target = devtools(port, "/json/new?about:blank", method="PUT")
    try:
        async with websockets.connect(target["webSocketDebuggerUrl"], max_size=None) as ws:
            counter = 0

            async def call(method: str, **params: object) -> dict:
                nonlocal counter
                counter += 1
                mine = counter
                await ws.send(json.dumps({"id": mine, "method": method, "params": params}))
                while True:
                    message = json.loads(await ws.recv())
                    if message.get("id") == mine:
                        if "error" in message:
                            raise RuntimeError(f"{method}: {message['error']}")
                        return message.get("result", {})

            deadline = time.monotonic() + timeout
            await call("Page.navigate", url=url)
            while True:
                # poll until the load event has ended and the first contentful paint is recorded
                result = await call("Runtime.evaluate", expression=PAINT, returnByValue=True)
                value = json.loads(result["result"].get("value") or "{}")
                fcp = value.get("paint", {}).get("first-contentful-paint")
                if value.get("load") and fcp is not None:
                    return {"fcp_ms": fcp, "load_ms": value["load"], "rows": value["rows"]}
                if time.monotonic() > deadline:
                    raise TimeoutError(f"no load event and first paint within {timeout:.0f} s: {value}")
                await asyncio.sleep(0.05)
    finally:
        devtools(port, f"/json/close/{target['id']}")


def browser_timings(pages: list[Path], repeat: int) -> dict[Path, list[dict[str, float]]]:
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary is None:
        raise SystemExit("chromium is not installed (make browser)")
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="ragdx-chromium-") as profile:
        browser = subprocess.Popen(
            [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={profile}", f"--remote-debugging-port={port}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    devtools(port, "/json/version")
                    break
                except OSError:
                    if browser.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit("chromium did not open its DevTools port") from None
                    time.sleep(0.2)
            out: dict[Path, list[dict[str, float]]] = {p: [] for p in pages}
            for _ in range(repeat):  # the pages take turns, so a busy moment does not fall on one
                for page in pages:
                    out[page].append(asyncio.run(paint_timing(port, page.resolve().as_uri())))
            return out
        finally:
            browser.terminate()
            try:
                browser.wait(timeout=10)
            except subprocess.TimeoutExpired:
                browser.kill()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", type=Path, help="run directories with an evaluation")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out", type=Path, default=None, help="where the reports go (default: beside each run)")
    args = ap.parse_args()
    load = [os.getloadavg()[0]]
    rows = []
    for run_dir in args.runs:
        manifest = json.loads((run_dir / "manifest.json").read_text(encoding="utf-8"))
        queries = manifest["counts"]["total"]
        report = (args.out or run_dir.parent) / f"report-{run_dir.parent.name}-{run_dir.name}.html"
        report.parent.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "OMP_WAIT_POLICY": "passive", "HF_HUB_OFFLINE": "1"}
        cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "ragdx.cli", "report", str(run_dir), "--out", str(report)],
                              capture_output=True, text=True, env=env, check=False)
        took = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        # CPU seconds (user + system) as well as wall: on a shared machine the wall time is
        # mostly waiting for a core, the CPU time is what the report itself costs
        cpu_s = after.ru_utime - cpu.ru_utime + after.ru_stime - cpu.ru_stime
        if done.returncode != 0:
            raise SystemExit(f"ragdx report failed ({done.returncode}):\n{done.stderr[-3000:]}")
        from ragdx.report.html import failures_file

        side = failures_file(report)
        rows.append({"queries": queries, "report": report, "report_s": took, "cpu_s": cpu_s,
                     "mb": report.stat().st_size / 1e6, "side_mb": side.stat().st_size / 1e6 if side.exists() else 0.0})
    timings = browser_timings([r["report"] for r in rows], args.repeat)
    load.append(os.getloadavg()[0])
    print(f"# the report of a large run, median of {args.repeat} loads; {os.cpu_count()} CPUs, "
          f"load average {load[0]:.1f} before, {load[1]:.1f} after")
    print()
    print("| queries | `ragdx report` (fresh process): wall, CPU | report.html | failures JSONL beside it | "
          "first contentful paint | load event end | table rows drawn |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        t = timings[r["report"]]
        fcp = statistics.median(x["fcp_ms"] for x in t) / 1000
        end = statistics.median(x["load_ms"] for x in t) / 1000
        spread = f"{min(x['fcp_ms'] for x in t) / 1000:.2f}–{max(x['fcp_ms'] for x in t) / 1000:.2f}"
        print(f"| {r['queries']:,} | {r['report_s']:.1f} s, {r['cpu_s']:.1f} s | {r['mb']:.2f} MB | "
              f"{r['side_mb']:.1f} MB | {fcp:.2f} s ({spread}) | {end:.2f} s | {t[0]['rows']:,} |")


if __name__ == "__main__":
    main()
