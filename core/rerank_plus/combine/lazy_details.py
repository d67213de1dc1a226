"""Per-candidate explanations built only for the candidates someone reads: explaining every
candidate of every fusion would cost more than the fusion itself."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Any, overload


class LazyDetails(Sequence[dict[str, Any]]):
    """Reads like a list of dicts; subclasses say how many there are and build one."""

    @abstractmethod
    def __len__(self) -> int: ...

    @abstractmethod
    def detail(self, position: int) -> dict[str, Any]:
        """The explanation of the candidate at ``position`` (0 <= position < len(self))."""

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...
    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        return self.detail(range(len(self))[index])  # IndexError as a list's; negatives count back
