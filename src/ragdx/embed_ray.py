"""Embedding on Ray Data: the texts missing from the cache go to a pool of Ray actors.

``RayEmbedder(Embedder(...), address=None, workers=2)`` wraps a local sentence-transformers
:class:`~ragdx.embed.Embedder` and is used wherever one is (``ragdx relevance calibrate
--executor ray``, the ``embedder:`` section of ``ragdx.yaml`` with ``executor: ray``, a dense
retriever's ``index_embedder: {executor: ray}``). It keeps the wrapped embedder's model
identity, so it reads and writes the same on-disk cache entries: only texts never embedded
before leave the driver, and what comes back is cached batch by batch as it arrives.

The misses become one Ray dataset (``ray.data.from_items``) mapped by ``map_batches`` with a
callable class, :class:`_EmbedBatch`, on an actor pool of ``workers`` actors. Each actor loads
the model once (the same ``Embedder`` code the driver would run, so the vectors are the local
ones: equal within float32 rounding, as the batch a text is padded with can differ). When the
cluster has GPUs each actor takes one (``num_gpus=1``, model on ``cuda``; no more actors than
GPUs), otherwise one CPU.

``to_dict`` is the wrapped embedder's: where vectors were computed is not what they are, so a
tester fitted on Ray is loaded and queried locally.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np

from ragdx.embed import ENCODE_STEP, CachedEmbedder, Embedder
from ragdx.errors import RagdxError

#: seconds the embedding pool's actors may take to start (load the model) before giving up
ACTOR_START_TIMEOUT_S = 600
#: rows per ``map_batches`` batch: the local embedder's step, so a batch costs the same on either
ROWS_PER_BATCH = ENCODE_STEP


class _EmbedBatch:
    """The ``map_batches`` callable class: one model per actor, loaded in ``__init__``."""

    def __init__(self, model_path: str | None, batch_size: int, device: str, dtype: str = "float32"):
        import ray

        self.embedder = Embedder(model_path, cache_dir=None, batch_size=batch_size, device=device, dtype=dtype)
        self.embedder._load()  # a model that cannot load fails the pool now, not mid-batch
        self.node = ray.get_runtime_context().get_node_id()

    def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        texts = [str(t) for t in batch["text"]]
        vectors = np.asarray(self.embedder._encode(texts), dtype=np.float32)
        return {"i": np.asarray(batch["i"], dtype=np.int64), "vector": vectors,
                "node": np.asarray([self.node] * len(texts))}


class RayEmbedder(CachedEmbedder):
    """``local`` (an :class:`~ragdx.embed.Embedder`) with its cache misses embedded by Ray Data.

    ``address``: a Ray address (``ray://head:10001``, ``head:6379``, ``auto``); None means
    ``$RAY_ADDRESS``, else a Ray instance started on this machine (shut down by :meth:`close`).
    ``workers``: actors in the pool. ``num_gpus``: per actor; None takes one GPU each when the
    cluster has any, 0 never. After each :meth:`embed`, ``last_nodes`` counts the texts each Ray
    node embedded (``embedded_on``: over all calls) and ``last_device`` says on what."""

    kind = "sentence-transformers"

    def __init__(self, local: Embedder, *, address: str | None = None, workers: int = 2,
                 num_gpus: float | None = None, num_cpus: float = 1):
        if not isinstance(local, Embedder):
            raise RagdxError("Ray Data embeds with a local sentence-transformers model", field="embedder.executor")
        if workers < 1:
            raise RagdxError("must be at least 1", field="--workers")
        self.local = local
        self.address = address
        self.workers = workers
        self.num_gpus = num_gpus
        self.num_cpus = num_cpus
        self.batch_size = local.batch_size
        # the wrapped embedder's cache object: same file, same keys
        self.cache_dir = local.cache_dir
        self._vectors = local._vectors
        self._ray: Any = None
        self._started_ray = False
        self.last_nodes: Counter[str] = Counter()
        #: texts embedded per Ray node over this embedder's life (what a command reports)
        self.embedded_on: Counter[str] = Counter()
        self.last_device: str | None = None

    @property
    def model_id(self) -> str:
        return self.local.model_id

    @property
    def dimension(self) -> int:
        return self.local.dimension

    def to_dict(self) -> dict:
        return self.local.to_dict()

    def _connect(self):
        if self._ray is None:
            from ragdx.ray_support import connect_ray

            self._ray, started = connect_ray(self.address, self.workers * math.ceil(self.num_cpus))
            self._started_ray = self._started_ray or started
        return self._ray

    def close(self) -> None:
        """Shut down the Ray instance this embedder started (a cluster is only disconnected from)."""
        if self._ray is not None and self._started_ray:
            self._ray.shutdown()
        self._ray, self._started_ray = None, False

    def __enter__(self) -> RayEmbedder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _encode_batches(self, texts: list[str]) -> Iterator[tuple[tuple[int, ...], np.ndarray]]:
        self.last_nodes = Counter()
        if not texts:
            return  # everything was cached: no Ray job (and no cluster) needed
        self._connect()
        import ray
        import ray.data

        gpus = float(ray.cluster_resources().get("GPU", 0))
        per_actor_gpus = (1.0 if gpus >= 1 else 0.0) if self.num_gpus is None else float(self.num_gpus)
        workers = self.workers
        if per_actor_gpus > 0:
            if gpus < per_actor_gpus:
                raise RagdxError(f"each embedding actor asks for {per_actor_gpus:g} GPU and the cluster has {gpus:g}",
                                 field="num_gpus")
            # an actor that can never get its GPU would leave the pool waiting forever
            workers = max(1, min(workers, int(gpus // per_actor_gpus)))
        device = "cuda" if per_actor_gpus > 0 else self.local.device
        self.last_device = device
        context = ray.data.DataContext.get_current()
        context.enable_progress_bars = False  # the caller's progress callback reports instead
        # Every actor of the pool is started (its model loaded) before the first batch is handed
        # out: otherwise the first actor up takes every batch of a small input while the others
        # still load, and a pool the cluster can never place fails here, in one line, instead of
        # waiting forever.
        context.wait_for_min_actors_s = ACTOR_START_TIMEOUT_S
        # a batch per actor at least, so a small input still spreads over the pool
        rows = max(1, min(ROWS_PER_BATCH, math.ceil(len(texts) / workers)))
        ds: ray.data.Dataset = ray.data.from_items([{"i": i, "text": t} for i, t in enumerate(texts)],
                                 override_num_blocks=max(1, math.ceil(len(texts) / rows)))
        ds = ds.map_batches(_EmbedBatch, batch_size=rows, batch_format="numpy",
                            # one batch in flight per actor: every batch is made on the driver's
                            # node, and with more in flight Ray Data sent them all to that node's
                            # actor (locality) while the others idled; a batch of texts is
                            # kilobytes to move against seconds to embed
                            compute=ray.data.ActorPoolStrategy(size=workers, max_tasks_in_flight_per_actor=1),
                            fn_constructor_kwargs={"model_path": self.local.model_path,
                                                   "batch_size": self.local.batch_size, "device": device,
                                                   "dtype": self.local.dtype},
                            num_cpus=self.num_cpus, num_gpus=per_actor_gpus)
        try:
            for batch in ds.iter_batches(batch_size=None, batch_format="numpy"):
                nodes = batch["node"]
                self.last_nodes.update(str(n) for n in nodes)
                self.embedded_on.update(str(n) for n in nodes)
                yield tuple(int(i) for i in batch["i"]), np.asarray(batch["vector"], dtype=np.float32)
        except RagdxError:
            raise
        except Exception as exc:  # a worker that died, a model that would not load on a node
            from ragdx.ray_support import ray_failure

            raise ray_failure(exc, "Ray Data embedding failed", self.address or "local", "embedder") from None
