"""ragdx: grounded, modular diagnosis for retrieval-augmented generation systems."""

from ragdx.errors import RagdxError

__version__ = "0.1.0"
__all__ = ["RagdxError", "__version__"]
