"""One percentile for every figure the server reports and every benchmark prints."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np


def percentile(values: Iterable[float], q: float, digits: int | None = None) -> float | None:
    """The ``q``-th percentile (0-100, linear between samples as numpy's default); None without values."""
    values = list(values)
    if not values:
        return None
    value = float(np.percentile(values, q))
    return value if digits is None else round(value, digits)
