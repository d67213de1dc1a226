"""A :class:`~rerank_plus.memory.MemoryContext` as plain JSON data, the one shape the command
line's ``--json`` and the HTTP service's ``/context`` answer with."""

from __future__ import annotations

from typing import Any

from rerank_plus.memory.context.result import MemoryContext


def context_payload(context: MemoryContext) -> dict[str, Any]:
    """``text``, ``intent``, ``tokens``, the ``items`` (each its text and the fields it has:
    memory_id, level, index, time, speaker, block, score...), ``guidance`` and ``trace``."""
    return {
        "text": context.text,
        "intent": context.intent,
        "tokens": context.tokens,
        "items": [
            {
                "text": entry.text,
                **{key: value for key, value in entry.metadata().items() if value is not None},
            }
            for entry in context.items
        ],
        "guidance": context.guidance.to_dict(),
        "trace": context.trace.to_dict(),
    }
