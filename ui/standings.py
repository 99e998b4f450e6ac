"""The final order of a game by its own outcome, and a golf game's per-hole scorecard.

Whether a high or a low score wins is read from the game's own verdict (``GameOver.winners``): the
winners hold the lowest score in a golf game. Equal scores share a rank (1, 2, 2, 4).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def low_wins(scores: Sequence[float], winners: Sequence[int]) -> bool:
    """True when the game's winners hold the lowest score (and not also the highest)."""
    if not winners or min(scores) == max(scores):
        return False
    return all(scores[w] == min(scores) for w in winners)


def standings(scores: Sequence[float], winners: Sequence[int]) -> list[tuple[int, int]]:
    """(rank, player) best first; the winners first whatever their score, equal scores one rank."""
    low = low_wins(scores, winners)
    won = set(winners)

    def better(a: int, b: int) -> bool:  # a places above b
        if (a in won) != (b in won):
            return a in won
        return scores[a] < scores[b] if low else scores[a] > scores[b]

    players = range(len(scores))
    ranked = [(1 + sum(better(o, p) for o in players), p) for p in players]
    return sorted(ranked)


def scorecard(view: dict[str, Any]) -> list[list[float]] | None:
    """Per player, the score of each hole played, from a golf game's view; None for other games."""
    if isinstance(view.get("strokes"), list) and view["strokes"] and isinstance(view["strokes"][0], list):
        return [[float(x) for x in row] for row in view["strokes"]]  # Doshboardgolf: per player
    holes = view.get("hole_scores")
    if isinstance(holes, list) and holes:  # Roll In One: per hole, a score per player
        n = len(view.get("players", holes[0]))
        return [[float(h[p]) for h in holes] for p in range(n)]
    return None
