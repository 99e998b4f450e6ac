"""What both golf coaches report for one shot: where the ball ends up and what that costs.

A :class:`Landing` gathers the shot's outcomes with their probabilities: the cell the ball rests on
(the heat map), the chances of holing out, of water, trees and out of bounds, the penalty strokes,
and the distance left to the target. The yardstick to rank shots is the expected cells to go:
the distance left, plus :data:`PENALTY_CELLS` for every penalty stroke (a stroke lost is worth
about one ordinary shot's distance).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.coach.advice import MoveAdvice

PENALTY_CELLS = 4


@dataclass
class Landing:
    """The outcomes of one shot, added one by one with :meth:`add`."""

    cells: dict[str, float] = field(default_factory=dict)
    ends: dict[str, float] = field(default_factory=dict)  # green, water, trees, out of bounds, ...
    penalty: float = 0.0
    left: float = 0.0

    def add(self, cell: str, p: float, *, end: str, penalty: int, left: int) -> None:
        self.cells[cell] = self.cells.get(cell, 0.0) + p
        self.ends[end] = self.ends.get(end, 0.0) + p
        self.penalty += p * penalty
        self.left += p * left

    def add_landing(self, other: Landing, p: float) -> None:
        """Add the outcomes of ``other``, happening with chance ``p``."""
        cells, ends = self.cells, self.ends
        for cell, q in other.cells.items():
            cells[cell] = cells.get(cell, 0.0) + p * q
        for end, q in other.ends.items():
            ends[end] = ends.get(end, 0.0) + p * q
        self.penalty += p * other.penalty
        self.left += p * other.left

    @property
    def total(self) -> float:
        return sum(self.cells.values())

    @property
    def value(self) -> float:
        """Expected cells to go: the distance left plus :data:`PENALTY_CELLS` per penalty stroke."""
        return self.left + PENALTY_CELLS * self.penalty

    def advice(self, move: str, first: tuple[tuple[str, float], ...] = ()) -> MoveAdvice:
        """The move's row: its value, outcomes and details (``first``: details to give before these)."""
        details = (*first, ("expected penalty strokes", self.penalty), ("expected cells left", self.left),
                   *((f"chance: {k}", v) for k, v in sorted(self.ends.items())))
        outcomes = tuple(sorted(self.cells.items(), key=lambda kv: -kv[1]))
        return MoveAdvice(move, self.value, outcomes=outcomes, details=details)
