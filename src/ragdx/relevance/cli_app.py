"""``ragdx relevance …`` and ``ragdx cache …``: the command-line faces of the knowledge-boundary
tests and of the shared embedding cache (registered on the main app by :mod:`ragdx.cli`).

Every command checks its outputs before doing any work (an existing ``-o`` is refused unless
``--overwrite``), shows a progress bar while it embeds, and prints what it decided.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ragdx.errors import RagdxError

if TYPE_CHECKING:
    from rich.console import JustifyMethod

relevance_app = typer.Typer(no_args_is_help=True, help="Is a query inside what the corpus can answer? (p-values, drift)")
cache_app = typer.Typer(no_args_is_help=True, help="The embedding cache every command shares.")

console = Console()
err = Console(stderr=True)

ConfigOpt = Annotated[Path | None, typer.Option("--config", "-c", help="Project config (default ./ragdx.yaml).")]
OverwriteOpt = Annotated[bool, typer.Option("--overwrite", help="Replace an existing output.")]
NoProgressOpt = Annotated[bool, typer.Option("--no-progress", help="No progress bars.")]


@contextmanager
def progress_bars(enabled: bool = True) -> Iterator[Any]:
    """Yields ``bar(what)`` -> ``progress(done, total)`` callbacks, one Rich bar per embedding
    pass (on stderr, so stdout stays the result); None when disabled."""
    if not enabled:
        yield None
        return
    from ragdx.progress import bars as make_bars

    bars = make_bars(console=err)

    def bar(what: str):
        task = None

        def update(done: int, total: int) -> None:
            nonlocal task
            if total == 0:
                return  # everything came from the cache: no bar
            if task is None:
                task = bars.add_task(f"embedding {what}", total=total)
            bars.update(task, completed=done)

        return update

    with bars:
        yield bar


def _check_alpha(alpha: float | None, flag: str = "--alpha") -> None:
    if alpha is not None and not 0 < alpha < 1:
        raise RagdxError(f"expected a level strictly between 0 and 1, got {alpha:g}", field=flag)


def _config(path: Path | None):
    from ragdx.config import load_config

    return load_config(path)


def _embedder(cfg, executor: str | None = None, address: str | None = None, workers: int | None = None):
    """The embedder of ragdx.yaml; ``--executor/--address/--workers`` override its Ray settings."""
    from ragdx.embedders import make_embedder

    if executor not in (None, "local", "ray"):
        raise RagdxError(f"expected local or ray, got {executor!r}", field="--executor")
    if executor != "ray" and (address is not None or workers is not None) and cfg.embedder.executor != "ray":
        raise RagdxError("--address and --workers are for --executor ray", field="--executor")
    update = {k: v for k, v in (("executor", executor), ("address", address), ("workers", workers)) if v is not None}
    return make_embedder(cfg.embedder.model_copy(update=update) if update else cfg.embedder)


# ----------------------------------------------------------------------------- relevance


@relevance_app.command("calibrate")
def relevance_calibrate(
    corpus: Annotated[Path, typer.Argument(help="Corpus JSONL (one chunk a line) or a `ragdx kb render` directory's documents.jsonl.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for the fitted tester.")],
    queries: Annotated[Path | None, typer.Option("--queries", help="JSONL of real in-knowledge questions.")] = None,
    dataset: Annotated[Path | None, typer.Option("--dataset", help="A ragdx dataset: its knowledge-base-supported queries.")] = None,
    synthesize: Annotated[int, typer.Option("--synthesize", help="LLM-written questions for N random chunks (paper's prompt).")] = 0,
    examples: Annotated[Path | None, typer.Option("--examples", help="JSONL of example questions that set the style for --synthesize.")] = None,
    corpus_field: Annotated[str, typer.Option("--corpus-field", help="Text field of the corpus JSONL.")] = "content",
    query_field: Annotated[str, typer.Option("--query-field", help="Text field of the questions JSONL.")] = "question",
    k: Annotated[int, typer.Option("--k", min=1, help="Nearest chunks per query.")] = 10,
    temperature: Annotated[float, typer.Option("--temperature", help="Temperature of the energy and entropy statistics.")] = 0.05,
    statistic: Annotated[str, typer.Option("--statistic", help="mss, knn, avgknn, entropy, energy, fisher or simes.")] = "energy",
    alpha: Annotated[float, typer.Option("--alpha", help="Default level of the test.")] = 0.05,
    retriever: Annotated[str, typer.Option("--retriever", help="dense (the embedder of ragdx.yaml; default the packaged MiniLM) or bm25.")] = "dense",
    search: Annotated[str, typer.Option("--search", help="auto, exact or ivf.")] = "auto",
    names: Annotated[bool, typer.Option("--names/--no-names", help="Also test whether the corpus writes the names a query uses (and writes together the ones it ties together); p-values combined by Bonferroni. Finds questions about entities the corpus never mentions.")] = True,
    facts: Annotated[bool, typer.Option("--facts/--no-facts", help="Also test whether the corpus states, beside those names, what answerable questions of the same kind find there (needs --names; off by default: AUROC 0.62-0.66 on questions whose fact is left out, see benchmarks/results/relevance_indomain.md).")] = False,
    links: Annotated[bool | None, typer.Option("--links/--no-links", help="Also test, for questions that come with their ragdx record (--dataset, or --queries rows that are records), whether the evidence linker finds each fact the answer needs stated in the corpus; `relevance test` uses it for the queries given with a record. Needs the records' database (--db, default the dataset's). Default: on when the calibration questions come with their records and that database is known, off otherwise.")] = None,
    links_weight: Annotated[float, typer.Option("--links-weight", help="With --links: the links p-value's weight for a question with its record: 1 (default) tests it by links alone; below 1, a weighted Bonferroni combination with the other statistics (they share the rest).")] = 1.0,
    db: Annotated[str | None, typer.Option("--db", help="With --links: the records' database URL (default: the dataset manifest's).")] = None,
    overwrite: OverwriteOpt = False,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    executor: Annotated[str | None, typer.Option("--executor", help="local, or ray: embed what the cache lacks with Ray Data actors, one GPU each when the cluster has GPUs (default: ragdx.yaml's embedder.executor).")] = None,
    address: Annotated[str | None, typer.Option("--address", help="With --executor ray: the cluster (ray://host:10001, host:6379 or auto; default: RAY_ADDRESS, else a local instance).")] = None,
    workers: Annotated[int | None, typer.Option("--workers", min=1, help="With --executor ray: embedding actors (default 2).")] = None,
    no_progress: NoProgressOpt = False,
    config: ConfigOpt = None,
):
    """Fit a knowledge-boundary tester on a corpus and in-knowledge calibration queries."""
    from ragdx.relevance.cli_support import calibrate
    from ragdx.store import check_replaceable

    check_replaceable(out, overwrite)  # the tester directory is replaced whole: only one ragdx wrote
    cfg = _config(config)
    embedder = _embedder(cfg, executor, address, workers) if retriever == "dense" else None
    try:
        with progress_bars(not no_progress) as bar:
            summary = calibrate(corpus, out, queries=queries, dataset=dataset, synthesize=synthesize,
                                examples=examples, llm_config=cfg.llm.model_dump() if cfg.llm else None,
                                corpus_field=corpus_field, query_field=query_field, k=k, temperature=temperature,
                                statistic=statistic, alpha=alpha, retriever=retriever, search=search,
                                names=names, facts=facts, links="auto" if links is None else links,
                                links_weight=links_weight, db=db,
                                overwrite=overwrite, seed=seed,
                                embedder=embedder, progress=bar)
    finally:
        close = getattr(embedder, "close", None)
        if close is not None:
            close()  # a Ray instance the embedder started ends with the command
    table = Table(title=f"tester → {summary.tester_dir}", title_justify="left", show_header=False)
    for key, value in summary.to_dict().items():
        table.add_row(key.replace("_", " "), str(value))
    nodes = getattr(embedder, "embedded_on", None)
    if nodes and embedder is not None:
        table.add_row("ray data", f"{sum(nodes.values())} texts embedded on {len(nodes)} node(s) "
                                  f"({embedder.last_device})")
    console.print(table)
    if summary.links and summary.links.get("warning"):
        console.print(f"[yellow]links:[/] {escape(summary.links['warning'])}")


@relevance_app.command("test")
def relevance_test(
    tester: Annotated[Path, typer.Argument(help="Directory of a fitted tester.")],
    query: Annotated[list[str] | None, typer.Argument(help="Queries to test (or --queries FILE).")] = None,
    queries: Annotated[Path | None, typer.Option("--queries", help="JSONL of queries (rows that are ragdx records are tested with links when the tester has them).")] = None,
    dataset: Annotated[Path | None, typer.Option("--dataset", help="A ragdx dataset: its records' queries, each tested with its record when the tester was calibrated with --links.")] = None,
    db: Annotated[str | None, typer.Option("--db", help="The records' database URL, for links (default: the dataset manifest's).")] = None,
    query_field: Annotated[str, typer.Option("--query-field")] = "question",
    alpha: Annotated[float | None, typer.Option("--alpha", help="Level (default: the tester's).")] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write one row per query: CSV if the name ends in .csv, else JSON lines.")] = None,
    drift: Annotated[bool, typer.Option("--drift", help="Also run the KS drift test on the batch.")] = False,
    show: Annotated[int, typer.Option("--show", min=0, help="Rows of the table to print (the -o file has every row).")] = 50,
    overwrite: OverwriteOpt = False,
    no_progress: NoProgressOpt = False,
):
    """A p-value and a decision per query, printed as a table; with --drift, a KS test of the whole batch."""
    from ragdx.relevance.cli_support import screen_queries
    from ragdx.store import check_output_file

    if out is not None:
        check_output_file(out, overwrite)
    _check_alpha(alpha)  # before the tester is loaded and the queries embedded
    tests: list = []
    with progress_bars(not no_progress) as bar:
        summary = screen_queries(tester, queries_file=queries, queries=query or None, query_field=query_field,
                                 alpha=alpha, out=out, drift=drift, overwrite=overwrite, progress=bar, results=tests,
                                 dataset=dataset, db=db)
    table = Table(title=f"{summary.statistic} statistic, α = {summary.alpha:g}", title_justify="left")
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("#", "right"), ("query", "left"), ("statistic", "right"), ("p-value", "right"), ("decision", "left"))
    for head, justify in columns:
        table.add_column(head, justify=justify, overflow="fold")
    for t in tests[:show]:
        q = t.query if t.query is None or len(t.query) <= 90 else t.query[:87] + "..."
        decision = "[red]out of knowledge[/]" if t.out_of_knowledge else "[green]in knowledge[/]"
        table.add_row(str(t.index), q, f"{t.value:.4f}", f"{t.p_value:.4f}", decision)
    console.print(table)
    if len(tests) > show:
        console.print(f"(first {show} of {len(tests)} rows; all are in the -o file)" if out else
                      f"(first {show} of {len(tests)} rows; -o FILE writes all)")
    console.print(f"{summary.n_out_of_knowledge} of {summary.n_queries} queries rejected as out of knowledge "
                  f"(p ≤ {summary.alpha:g})" + (f"; rows → {summary.output}" if summary.output else ""))
    if summary.length_note:
        console.print(f"[yellow]note:[/] {escape(summary.length_note)}")
    if summary.links_note:
        console.print(f"links: {escape(summary.links_note)}")
    if summary.drift:
        d = summary.drift
        console.print(f"batch KS drift test: D = {d['ks_statistic']:.3f}, p = {d['p_value']:.3g} → "
                      f"{'drifted' if d['drifted'] else 'no drift'} at α = {d['alpha']:g}")


@relevance_app.command("monitor")
def relevance_monitor(
    tester: Annotated[Path, typer.Argument(help="Directory of a fitted tester.")],
    log: Annotated[Path, typer.Argument(help="JSONL query log in arrival order.")],
    query_field: Annotated[str, typer.Option("--query-field")] = "question",
    timestamp_field: Annotated[str | None, typer.Option("--timestamp-field")] = None,
    window: Annotated[int, typer.Option("--window", min=2)] = 100,
    step: Annotated[int | None, typer.Option("--step", min=1)] = None,
    alpha: Annotated[float, typer.Option("--alpha", help="Family-wise level across all windows of the log.")] = 0.05,
    statistic: Annotated[str | None, typer.Option("--statistic", help="Statistic to monitor (default: the tester's).")] = None,
    correction: Annotated[str, typer.Option("--correction", help="holm (family-wise across windows) or none (each window at alpha).")] = "holm",
    min_consecutive: Annotated[int, typer.Option("--min-consecutive", min=1, help="Alarm only after this many rejecting windows in a row.")] = 1,
    method: Annotated[str, typer.Option("--method", help="sequential (evidence accumulated query by query; a longer log does not dull it) or windows (KS per window, Holm across them).")] = "sequential",
    db: Annotated[str | None, typer.Option("--db", help="Database URL of the log's records (rows that are ragdx records): the sequential monitor then reads the links statistic, the tester's default for a question with its record.")] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o")] = None,
    overwrite: OverwriteOpt = False,
    no_progress: NoProgressOpt = False,
):
    """Drift over a query log: when the queries moved away from the in-knowledge ones, with a
    false-alarm chance of about alpha for the whole log. ``--method windows``: the paper's KS test
    per window, family-wise over the windows (Holm)."""
    from ragdx.relevance.cli_support import monitor_log
    from ragdx.store import check_output_file

    if method not in ("sequential", "windows"):
        raise RagdxError(f"expected sequential or windows, got {method!r}", field="--method")
    if correction not in ("holm", "none"):  # checked whatever the method: a typo is a typo
        raise RagdxError(f"correction must be 'holm' or 'none', got {correction!r}", field="--correction")
    if out is not None:
        check_output_file(out, overwrite)

    with progress_bars(not no_progress) as bar:
        report = monitor_log(tester, log, query_field=query_field, timestamp_field=timestamp_field, window=window,
                             step=step, alpha=alpha, min_consecutive=min_consecutive, statistic=statistic,
                             correction=correction, out=out, overwrite=overwrite, progress=bar, method=method,
                             db=db)
    if method == "sequential":
        console.print(report.summary())
        if report.length_note:
            console.print(f"[yellow]note:[/] {escape(report.length_note)}")
        return
    rejecting = [w for w in report.windows if w.rejected]
    if rejecting:
        table = Table(title="rejecting windows", title_justify="left")
        for head in ("queries", "D", "p-value", "median shift"):
            table.add_column(head, justify="right")
        for w in rejecting[:20]:
            table.add_row(f"{w.start}-{w.end - 1}", f"{w.result.ks_statistic:.3f}", f"{w.result.p_value:.2g}",
                          f"{w.result.median_shift:+.4f}")
        console.print(table)
    console.print(f"rejecting windows: {report.n_rejecting} of {len(report.windows)}")
    console.print(report.summary())
    if report.length_note:
        console.print(f"[yellow]note:[/] {escape(report.length_note)}")


@relevance_app.command("report")
def relevance_report(
    tester: Annotated[Path, typer.Argument(help="Directory of a fitted tester.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="relevance.json to write (give it to `ragdx report --relevance`).")],
    in_knowledge: Annotated[Path, typer.Option("--in-knowledge", help="JSONL of held-out in-knowledge queries (not the calibration ones).")],
    out_of_knowledge: Annotated[list[str], typer.Option("--out-of-knowledge", help="NAME=FILE of off-topic queries; repeatable.")],
    gaps: Annotated[Path | None, typer.Option("--gaps", help="In-domain queries whose facts the knowledge base leaves out: a JSONL, or a ragdx dataset directory (its gap records).")] = None,
    query_field: Annotated[str, typer.Option("--query-field")] = "question",
    alpha: Annotated[float | None, typer.Option("--alpha")] = None,
    limit: Annotated[int | None, typer.Option("--limit", min=2, help="At most this many queries per set (seeded sample).")] = None,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    overwrite: OverwriteOpt = False,
    no_progress: NoProgressOpt = False,
):
    """The knowledge-boundary section of `ragdx report` for any tester: p-values, ROC, drift, and
    the answerability check on in-domain queries whose facts are missing."""
    from ragdx.relevance.boundary import boundary_sentences
    from ragdx.relevance.cli_support import boundary_report, parse_named_files
    from ragdx.store import check_output_file

    check_output_file(out, overwrite)
    named = parse_named_files(out_of_knowledge, "--out-of-knowledge")
    with progress_bars(not no_progress) as bar:
        result = boundary_report(tester, out, in_knowledge=in_knowledge, out_of_knowledge=named, gaps=gaps,
                                 query_field=query_field, alpha=alpha, limit=limit, seed=seed, overwrite=overwrite,
                                 progress=bar)
    table = Table(title=f"{result['statistic']} statistic, α = {result['alpha']:g}", title_justify="left")
    for head in ("set", "queries", "flagged", "AUROC vs in-knowledge"):
        table.add_column(head, justify="left" if head == "set" else "right")
    table.add_row("in-knowledge (held out)", str(result["n_in"]), str(result["flagged_in"]), "–")
    for name, s in result["sets"].items():
        table.add_row(name, str(s["n"]), str(s["flagged"]), f"{s['auroc']:.3f}")
    if result["answerability"]:
        a = result["answerability"]
        table.add_row("facts left out (in-domain)", str(a["n"]), str(a["flagged"]), f"{a['auroc_vs_in']:.3f}")
    console.print(table)
    for line in boundary_sentences(result):
        console.print(line)
    console.print(f"→ {out}  (ragdx report RUN_DIR --relevance {out})")


@relevance_app.command("bench")
def relevance_bench(
    data: Annotated[Path | None, typer.Option("--data", help="The knowledge-boundary data directory (setting 1; the default when no --corpus).")] = None,
    corpus: Annotated[Path | None, typer.Option("--corpus", help="Your corpus JSONL (one chunk a line).")] = None,
    in_knowledge: Annotated[Path | None, typer.Option("--in-knowledge", help="JSONL of in-knowledge queries (split into calibration and held-out unless --calibration).")] = None,
    calibration: Annotated[Path | None, typer.Option("--calibration", help="JSONL of calibration queries (optional).")] = None,
    out_of_knowledge: Annotated[list[str] | None, typer.Option("--out-of-knowledge", help="NAME=FILE of out-of-knowledge queries; repeatable.")] = None,
    corpus_field: Annotated[str, typer.Option("--corpus-field")] = "content",
    query_field: Annotated[str, typer.Option("--query-field")] = "question",
    group_field: Annotated[str | None, typer.Option("--group-field", help="Split calibration / held-out by this field (e.g. a semantic group), not by query.")] = None,
    limit: Annotated[int | None, typer.Option("--limit", min=20, help="At most this many queries per out-of-knowledge set (seeded sample).")] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write relevance-bench.json and .md here.")] = None,
    n: Annotated[int, typer.Option("--n", help="Queries per class in each balanced sample.")] = 300,
    seeds: Annotated[int, typer.Option("--seeds", help="Repetitions with different seeds.")] = 10,
    k: Annotated[int, typer.Option("--k")] = 10,
    temperature: Annotated[float, typer.Option("--temperature")] = 0.05,
    alpha: Annotated[float, typer.Option("--alpha")] = 0.05,
    with_llm: Annotated[bool, typer.Option("--llm", help="Add the LM relevance baseline (needs 'llm:' in ragdx.yaml).")] = False,
    overwrite: OverwriteOpt = False,
    no_progress: NoProgressOpt = False,
    config: ConfigOpt = None,
):
    """AUROC / AUPRC / TPR@5%FPR / false rejections per statistic and baseline, on setting 1
    (--data) or on your corpus (--corpus, --in-knowledge, --out-of-knowledge NAME=FILE …),
    with both length directions and a length-matched table."""
    from ragdx.relevance.bench import load_custom_setting, load_setting1, render_markdown, run_bench
    from ragdx.relevance.cli_support import parse_named_files

    if out is not None:
        from ragdx.store import check_writable_directory

        if out.is_dir() and not overwrite and any(out.iterdir()):
            raise RagdxError("already exists and is not empty (pass --overwrite to replace its files)",
                             source=str(out))
        # --overwrite rewrites relevance-bench.json/.md in place: only in a directory ragdx made
        check_writable_directory(out)
    cfg = _config(config)
    if corpus is not None:
        if data is not None:
            raise RagdxError("give either --data (setting 1) or --corpus, not both", field="--corpus")
        if in_knowledge is None or not out_of_knowledge:
            raise RagdxError("--corpus needs --in-knowledge and at least one --out-of-knowledge NAME=FILE",
                             field="--corpus")
        setting = load_custom_setting(corpus, in_knowledge, parse_named_files(out_of_knowledge, "--out-of-knowledge"),
                                      calibration=calibration, corpus_field=corpus_field, query_field=query_field,
                                      group_field=group_field, limit=limit)
    else:
        setting = load_setting1(data or Path("../shared/data/knowledge-boundary"), limit=limit)
    llm = None
    if with_llm:
        from ragdx.llm import make_llm

        if cfg.llm is None:
            raise RagdxError("--llm needs an 'llm:' section (base_url, model) in ragdx.yaml", field="llm")
        llm = make_llm(cfg.llm)
    if out is not None:
        from ragdx.store import claim_directory

        claim_directory(out, kind="relevance-bench")
    with progress_bars(not no_progress) as bar:
        result = run_bench(setting, out, n_per_class=n, seeds=seeds, k=k, temperature=temperature, alpha=alpha,
                           llm=llm, embedder=_embedder(cfg), progress=lambda msg: err.print(msg), bar=bar)
    print(render_markdown(result))  # Markdown: not wrapped by Rich


# ----------------------------------------------------------------------------- cache


@cache_app.command("info")
def cache_info_cmd(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False):
    """Where the shared cache is and what it holds (RAGDX_CACHE_DIR overrides the per-user directory)."""
    from ragdx.embed import cache_info

    info = cache_info()
    if as_json:
        print(json.dumps(info, indent=2))
        return
    console.print(f"cache directory: {info['directory']}"
                  + (f"  (from ${info['override']})" if info["override"] else "  (per-user; RAGDX_CACHE_DIR overrides)"))
    console.print(f"embeddings: {info['embeddings']:,}; {info['bytes'] / 1e6:.1f} MB in {len(info['files'])} files")
    console.print(f"embedder dtype bfloat16 runs in {info['bfloat16']['runs_in']} here: {info['bfloat16']['reason']}")


@cache_app.command("clear")
def cache_clear_cmd(yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask.")] = False):
    """Delete the cached embeddings (they are recomputed when next needed)."""
    from ragdx.embed import cache_clear, cache_info

    info = cache_info()
    if not yes and not typer.confirm(f"delete {info['embeddings']:,} cached embeddings in {info['directory']}?"):
        raise typer.Exit(1)
    freed = cache_clear()
    console.print(f"cleared {info['directory']}: {freed / 1e6:.1f} MB freed")
