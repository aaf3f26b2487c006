"""Which embedder a configuration asks for: a local sentence-transformers model, an
OpenAI-compatible embeddings endpoint, or a local model whose cache misses Ray Data actors embed.
It sits above the embedders themselves (:mod:`ragdx.embed`, :mod:`ragdx.embed_ray`), so the local
embedder no longer imports its Ray wrapper, which imports it (an import circle).
"""

from __future__ import annotations

import os

from ragdx.embed import USER_CACHE, Embedder, EmbedderConfig, OpenAIEmbedder
from ragdx.errors import RagdxError, validated


def make_embedder(config: EmbedderConfig | dict | None = None, *, cache_dir: str | os.PathLike | None = USER_CACHE):
    """The embedder a config (or a saved ``to_dict``) describes."""

    if config is None:
        return Embedder(cache_dir=cache_dir)
    if isinstance(config, dict):
        fields = {k: v for k, v in config.items() if k != "cache_dir"}
        config = validated(EmbedderConfig, fields, source="embedder config")
    assert isinstance(config, EmbedderConfig)
    if config.kind == "openai":
        if config.executor != "local":
            # the endpoint's server is what scales an API's embeddings, not more clients
            raise RagdxError("executor 'ray' embeds with a local model (kind sentence-transformers); an "
                             "embeddings endpoint scales on its server", field="embedder.executor")
        if not config.base_url or not config.model:
            raise RagdxError("kind 'openai' needs base_url and model", field="embedder")
        return OpenAIEmbedder(config.model, base_url=config.base_url, api_key_env=config.api_key_env,
                              dimensions=config.dimensions, cache_dir=cache_dir, batch_size=config.batch_size,
                              max_concurrency=config.max_concurrency, max_retries=config.max_retries,
                              timeout=config.timeout)
    local = Embedder(config.model_path, cache_dir=cache_dir, batch_size=config.batch_size, device=config.device,
                     dtype=config.dtype)
    if config.executor == "ray":
        from ragdx.embed_ray import RayEmbedder  # Ray only when asked for

        return RayEmbedder(local, address=config.address, workers=config.workers)
    return local


def embedder_from_dict(saved: dict) -> Embedder | OpenAIEmbedder:
    """Rebuild an embedder from its ``to_dict`` (a saved tester's manifest)."""
    cache = saved.get("cache_dir", USER_CACHE)
    if saved.get("kind") == "openai":
        return make_embedder(saved, cache_dir=cache)
    return Embedder(**{k: v for k, v in saved.items() if k in ("model_path", "batch_size", "device", "dtype")},
                    cache_dir=cache)
