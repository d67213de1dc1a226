"""Reranker kinds: a name, the options a kind is built from, and how to build it, said once.

A kind ("bm25", "cross-encoder", ...) is what a configuration names (``{"provider": "bm25"}``)
and what an adapter's ready class (``BM25Rerank``) builds. Its :class:`Option` list is the one
description of its settings: ``from_config`` checks keys against it, the ``rank`` command reads
``--option`` values with its types, and each framework adapter turns it into typed fields, so a
new kind is one :func:`register_kind` call (the built-in ones are in
:mod:`rerank_plus.compose.presets`, which is where to import the registry from).
"""

from __future__ import annotations

import importlib
import math
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rerank_plus.reranker import Reranker

_NONE = type(None)
_TRUE = ("true", "yes", "1")
_FALSE = ("false", "no", "0")


@dataclass(frozen=True)
class Option:
    """One setting of a kind: what it is called, its type, its default and what it does.

    ``type`` is a type an adapter can declare as a field (``float``, ``str | None``); a default
    of None means "the reranker picks" (a model per language, a device), and None values are
    left out when the reranker is built, so it keeps its own default.
    ``secret`` marks a credential (an API key): the adapters' fields hold it as a pydantic
    ``SecretStr`` and leave it out of their serialization. ``in_code`` marks an object only code
    can give (an HTTP client): left out of serialization and refused on the command line.
    """

    name: str
    type: Any
    default: Any
    help: str
    secret: bool = False
    in_code: bool = False

    def parse(self, text: str) -> Any:
        """The value of ``text`` (a command-line string) as this option's type; "none" for
        None where the type allows it, and only finite floats (no "inf", "nan").

        >>> Option("max_length", int | None, None, "").parse("none") is None
        True
        """
        if self.in_code:
            raise ValueError(f"option {self.name} takes an object given in code, not a string.")
        word = text.strip().lower()
        allowed = typing.get_args(self.type) if _is_union(self.type) else (self.type,)
        if _NONE in allowed and word in ("none", "null"):
            return None
        for candidate in (t for t in allowed if t is not _NONE):
            if candidate is bool:
                if word in _TRUE + _FALSE:
                    return word in _TRUE
                continue
            try:
                value = candidate(text)
            except ValueError:
                continue
            if not (candidate is float and not math.isfinite(value)):
                return value
        raise ValueError(f"option {self.name} takes {self.type_name}, got {text!r}.")

    @property
    def type_name(self) -> str:
        """``"int or None"`` for ``int | None``: the type as the help and errors print it."""
        return _type_name(self.type)


@dataclass(frozen=True)
class RerankerKind:
    """A registered kind: ``factory`` builds the reranker from the options' values."""

    name: str
    factory: Callable[..., Reranker]
    options: tuple[Option, ...]
    ready_class: str
    summary: str

    @property
    def option_names(self) -> tuple[str, ...]:
        return tuple(option.name for option in self.options)

    def option(self, name: str) -> Option:
        """The option called ``name``; an unknown name lists the valid ones."""
        for option in self.options:
            if option.name == name:
                return option
        raise ValueError(
            f"Unknown option {name!r} for reranker {self.name!r}; valid options: "
            f"{', '.join(self.option_names)}."
        )

    def build(self, options: Mapping[str, Any]) -> Reranker:
        """The reranker these options describe; unknown names list the valid ones."""
        unknown = sorted(set(options) - set(self.option_names))
        if unknown:
            raise ValueError(
                f"Unknown option{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))} "
                f"for reranker {self.name!r}; valid options: {', '.join(self.option_names)}."
            )
        return self.factory(**{k: v for k, v in options.items() if v is not None})


#: Every kind by name, in registration order.
KINDS: dict[str, RerankerKind] = {}


def register_kind(
    name: str,
    factory: str | Callable[..., Reranker],
    *,
    options: tuple[Option, ...],
    ready_class: str,
    summary: str,
) -> RerankerKind:
    """Add a kind: configurations, the CLI and every adapter's ready classes pick it up.

    ``factory`` is called with the options' values (None ones left out): a callable, or
    ``"module:name"`` imported on first use, so heavy dependencies load only when a reranker of
    this kind is built. ``ready_class`` names the adapters' class (``"BM25Rerank"``) and
    ``summary`` is its docstring.
    """
    if name in KINDS:
        raise ValueError(f"Reranker kind {name!r} is already registered.")
    if ready_class in (kind.ready_class for kind in KINDS.values()):
        raise ValueError(f"Ready class name {ready_class!r} is already taken.")
    build = _lazy(factory) if isinstance(factory, str) else factory
    KINDS[name] = RerankerKind(name, build, tuple(options), ready_class, summary)
    return KINDS[name]


def kind_named(name: str) -> RerankerKind:
    """The kind called ``name``; an unknown name lists the registered ones."""
    if name not in KINDS:
        raise ValueError(f"Unknown reranker {name!r}; choose one of {', '.join(sorted(KINDS))}.")
    return KINDS[name]


def _lazy(target: str) -> Callable[..., Reranker]:
    module, _, attribute = target.partition(":")

    def build(**options: Any) -> Reranker:
        factory: Callable[..., Reranker] = getattr(importlib.import_module(module), attribute)
        return factory(**options)

    build.__qualname__ = target
    return build


def _is_union(annotation: Any) -> bool:
    return typing.get_origin(annotation) in (typing.Union, types.UnionType)


def _type_name(annotation: Any) -> str:
    if _is_union(annotation):
        return " or ".join(_type_name(t) for t in typing.get_args(annotation))
    return "None" if annotation is _NONE else getattr(annotation, "__name__", str(annotation))
