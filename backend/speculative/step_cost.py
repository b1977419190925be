"""What a decode step costs by its number of rows, learnt from the engine's own steps.

Verifying drafts adds rows to a step. Whether that pays depends on the machine: on a GPU, or on a CPU whose
step is bound by reading the weights, a few more rows are nearly free; on a CPU whose integer kernels are
compute-bound per row (an AVX2-only one), four drafts can cost twice a plain step. So the drafting policy
(:mod:`.decoder`) does not assume a cost: the engine reports each decode-only step's rows and wall time here,
and the policy asks for the ratio of two row counts.

Until a row count has been seen a few times, its cost comes from an optimistic prior (each extra row adds
:data:`PRIOR_ROW_COST` of a one-row step), so drafting is tried and then measured rather than ruled out.
"""

from __future__ import annotations

#: until measured, each row beyond the first adds this fraction of a one-row step (optimistic on purpose)
PRIOR_ROW_COST = 0.15
#: observations of a row count before its measured time replaces the prior
MIN_SAMPLES = 3
#: weight of the newest observation in a row count's moving average (the first ones are averaged evenly)
_WEIGHT = 0.1


class StepCosts:
    """Moving averages of decode-step wall time, one per row count from 1 to ``max_rows``."""

    def __init__(self, max_rows: int = 64) -> None:
        if max_rows < 1:
            raise ValueError(f"max_rows must be >= 1, got {max_rows}")
        self.max_rows = max_rows
        self._seconds = [0.0] * (max_rows + 1)
        self._samples = [0] * (max_rows + 1)

    def observe(self, rows: int, seconds: float) -> None:
        """Record one decode-only step of ``rows`` rows that took ``seconds`` (others are ignored)."""
        if not 1 <= rows <= self.max_rows or not seconds > 0.0:
            return
        n = self._samples[rows]
        weight = max(_WEIGHT, 1.0 / (n + 1))
        self._seconds[rows] += weight * (seconds - self._seconds[rows])
        self._samples[rows] = n + 1

    def measured(self, rows: int) -> float | None:
        """The average seconds of a ``rows``-row step, or None while it has fewer than MIN_SAMPLES."""
        if 1 <= rows <= self.max_rows and self._samples[rows] >= MIN_SAMPLES:
            return self._seconds[rows]
        return None

    def ratio(self, base: int, rows: int) -> float:
        """How many times a ``base``-row step a ``rows``-row step costs (``rows >= base >= 1``), at least 1.

        Measured where both row counts are known; otherwise the prior's ratio."""
        if rows <= base:
            return 1.0
        base_s, rows_s = self.measured(base), self.measured(rows)
        if base_s is not None and rows_s is not None:
            return max(1.0, rows_s / base_s)
        return (1.0 + PRIOR_ROW_COST * (rows - 1)) / (1.0 + PRIOR_ROW_COST * (base - 1))
