"""Times the engine measures to decide with (batch sizes, speculation), robust to a shared machine's stalls."""

from __future__ import annotations

import statistics
from collections import deque


class RecentMedian:
    """The median of the latest few observations of a time.

    A median, not a mean: on a shared machine a step now and then takes several times its usual time, and one
    such outlier in a mean can price a choice out (a batch size, a speculative step), after which the choice is
    never made, so never measured again to correct it."""

    SIZE = 7

    def __init__(self) -> None:
        self._recent: deque[float] = deque(maxlen=self.SIZE)
        self.value = 0.0

    def observe(self, value: float) -> float:
        self._recent.append(value)
        self.value = statistics.median(self._recent)
        return self.value


class RecentMedians(dict[int, float]):
    """A :class:`RecentMedian` per size (a batch size, a forward's token count); the mapping holds their values."""

    def __init__(self) -> None:
        super().__init__()
        self._recent: dict[int, RecentMedian] = {}

    def observe(self, size: int, value: float) -> None:
        self[size] = self._recent.setdefault(size, RecentMedian()).observe(value)
