"""Methods by name: the policy, the built-in baselines and ceilings, and plugins.

A plugin is a baseline that lives outside the core (the LlamaIndex AutoMergingRetriever one
lives in ``llamaindex_rerank_plus``, since the core never imports a framework). A package
declares it as an entry point of the group :data:`PLUGIN_GROUP`, named after the method::

    [project.entry-points."rerank_plus.memory_baselines"]
    automerging = "llamaindex_rerank_plus.memory_baseline:AutoMergingBaseline"

The object loaded is called with the run's :class:`~.views.Resources` (``resources.embed``
maps texts to unit vectors, each text embedded once; it is None in a lexical-only run) and
returns a method: a ``name`` and ``context(meeting, query, words)``. A plugin whose import
fails is reported by name, with the reason, when it is asked for. Entry points are read from
the installed metadata (after ``pip install -e .``); a method can also be named by its
object, ``module:object`` (``llamaindex_rerank_plus.memory_baseline:AutoMergingBaseline``),
loaded the same way.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from importlib.metadata import entry_points
from typing import Any

from rerank_plus.evaluation.memory.baselines import (
    DenseTurns,
    DenseWindows,
    EvenSentences,
    EvenWindows,
    HybridTurns,
    HybridWindows,
    Lead,
    LexicalTurns,
    LexicalWindows,
)
from rerank_plus.evaluation.memory.ceilings import GoldTurns, GreedyOracle
from rerank_plus.evaluation.memory.policy import CollapsedTree, Policy
from rerank_plus.evaluation.memory.views import Resources

PLUGIN_GROUP = "rerank_plus.memory_baselines"
POLICY = "policy"

BUILTIN: dict[str, Callable[[Resources], Any]] = {
    "dense-windows": DenseWindows,
    "hybrid-windows": HybridWindows,
    "bm25-windows": LexicalWindows,
    "dense-turns": DenseTurns,
    "hybrid-turns": HybridTurns,
    "bm25-turns": LexicalTurns,
    "even-windows": EvenWindows,
    "even-sentences": EvenSentences,
    "lead": Lead,
    "collapsed-tree": CollapsedTree,
    "gold-turns": GoldTurns,
    "oracle": GreedyOracle,
}
#: Methods that need the policy's memory (``rerank_plus.memory.build_memory``).
NEEDS_MEMORY = frozenset({POLICY, "collapsed-tree"})
#: Methods that run without an embedding model (a lexical-only run keeps these only).
LEXICAL = frozenset(
    {
        POLICY,
        "bm25-windows",
        "bm25-turns",
        "even-windows",
        "even-sentences",
        "lead",
        "gold-turns",
        "oracle",
    }
)


def plugins() -> dict[str, Any]:
    """Entry points of :data:`PLUGIN_GROUP` by name (not loaded yet)."""
    return {point.name: point for point in entry_points(group=PLUGIN_GROUP)}


def available() -> list[str]:
    """Every method name this installation knows: the policy, built-ins, then plugins."""
    return [POLICY, *BUILTIN, *(name for name in plugins() if name not in BUILTIN)]


def memory_available() -> bool:
    """Whether ``build_memory`` and ``MemoryRetriever`` can be imported."""
    import rerank_plus.memory as memory

    return hasattr(memory, "build_memory") and hasattr(memory, "MemoryRetriever")


def create(
    names: Sequence[str], resources: Resources, policy_options: Mapping[str, Any] | None = None
) -> tuple[Any | None, list[Any]]:
    """The policy (None when not asked for; ``policy_options`` are MemoryRetriever keywords)
    and the other methods, in the order named."""
    known = available()
    unknown = [name for name in names if name not in known and ":" not in name]
    if unknown:
        raise ValueError(f"unknown method(s) {', '.join(unknown)}; choose from {', '.join(known)}.")
    reference = None
    methods = []
    found = plugins()
    for name in names:
        if name == POLICY:
            reference = Policy(resources, **dict(policy_options or {}))
        elif name in BUILTIN:
            methods.append(BUILTIN[name](resources))
        else:
            try:
                factory = _load(name) if ":" in name else found[name].load()
            except ImportError as error:
                raise ValueError(
                    f"the {name!r} baseline cannot be loaded ({error}); install its "
                    "framework's extra or leave it out of --methods."
                ) from error
            methods.append(factory(resources))
    return reference, methods


def _load(spec: str) -> Any:
    """The object a ``module:object`` spec names."""
    module, _, attribute = spec.partition(":")
    loaded = importlib.import_module(module)
    try:
        return getattr(loaded, attribute)
    except AttributeError:
        raise ImportError(f"{module} has no {attribute!r}") from None
