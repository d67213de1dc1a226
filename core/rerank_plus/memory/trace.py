"""The retrieval trace: every decision of a memory retrieval, as JSON and as log records.

Each step appends events; ``to_dict`` gives the whole story (query analysis, per-level pools and
scores, expansions, the items left out with the reason, spend per block and level) and every
event is also logged at DEBUG on ``rerank_plus.memory`` so services can ship it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

logger = logging.getLogger("rerank_plus.memory")


def _plain(value: Any) -> Any:
    """JSON-safe copies: floats rounded to 6 places, tuples as lists, datetimes as ISO text."""
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


@dataclass
class Trace:
    """Steps in order (``steps``), items left out with the reason (``rejected``: none of them
    in the context), the spend per block and level (``spend``), timings in milliseconds
    (``timings_ms``)."""

    query: str
    steps: list[dict[str, Any]] = field(default_factory=list)
    rejected: list[dict[str, Any]] = field(default_factory=list)
    spend: dict[str, dict[str, int]] = field(default_factory=dict)
    timings_ms: dict[str, float] = field(default_factory=dict)
    _started: float = field(default_factory=time.perf_counter, repr=False)
    _last: float = field(default=0.0, repr=False)

    def step(self, name: str, **details: Any) -> None:
        event = {"step": name, **details}
        self.steps.append(event)
        if logger.isEnabledFor(logging.DEBUG):
            logger.debug("memory %s: %s", name, _plain(details))

    def reject(self, item_id: str, reason: str, **details: Any) -> None:
        self.rejected.append({"id": item_id, "reason": reason, **details})

    def placed(self, item_ids: Collection[str]) -> None:
        """Withdraw the rejections of items the context holds after all: an item that did not
        fit a block's quota may fit what the blocks left, or a later pass may place it."""
        if any(entry["id"] in item_ids for entry in self.rejected):
            self.rejected = [entry for entry in self.rejected if entry["id"] not in item_ids]

    def timed(self, name: str) -> None:
        """Close the timing of step ``name`` (time since the previous call or the start)."""
        now = time.perf_counter()
        since = self._last or self._started
        self.timings_ms[name] = (now - since) * 1000.0
        self._last = now

    def to_dict(self) -> dict[str, Any]:
        return _plain(
            {
                "query": self.query,
                "steps": self.steps,
                "rejected": self.rejected,
                "spend": self.spend,
                "timings_ms": self.timings_ms,
            }
        )
