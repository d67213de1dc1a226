"""Errors raised by rerank-plus; every message says what to do next."""

from __future__ import annotations


class RerankPlusError(Exception):
    """Base class of every error rerank-plus raises on purpose."""


class MissingExtraError(RerankPlusError, ImportError):
    """An optional dependency is needed for the feature that was asked for."""

    def __init__(self, package: str, extra: str, feature: str, *, standalone: bool = False) -> None:
        install = f"`pip install rerank-plus[{extra}]`"
        if standalone:  # a package that is enough on its own: name it first
            install = f"`pip install {package}` (or {install})"
        super().__init__(
            f"{feature} needs the '{package}' package, which is not installed. "
            f"Install it with {install}."
        )
        self.package = package
        self.extra = extra


class ModelLoadError(RerankPlusError, OSError):
    """A model could not be loaded (unknown name, no network, missing files)."""
