"""Names of a package imported on first use (PEP 562), for ``ragdx`` and its subpackages whose
``__init__`` must stay cheap (``ragdx --help`` loads them): one ``__getattr__`` and ``__dir__``
for all of them. A leaf: it imports nothing of ragdx's.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any


def lazy_names(package: str, where: Mapping[str, str],
               public: Sequence[str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package``: ``where`` maps a name to the submodule (relative
    to ``package``) that defines it; a name is imported on first use, then kept in the package."""
    namespace = sys.modules[package].__dict__

    def getattr_(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        namespace[name] = value
        return value

    def dir_() -> list[str]:
        return sorted(set(namespace) | set(public))

    return getattr_, dir_
