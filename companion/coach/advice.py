"""What the coach answers: the moves in front of a player, each with its chance or expected value.

An :class:`Advice` is a plain value (JSON-ready through :meth:`Advice.to_json`): the question asked,
the yardstick (``measure``, and whether higher is better), one :class:`MoveAdvice` per legal move
with the best marked, and per game some tables (``extra``): per-section or per-card chances, the
distribution of a number, or a landing heat map. ``exact`` says the figures come from enumerating
the dice; otherwise each value carries its standard error from a seeded simulation of ``trials``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any


@dataclass(frozen=True)
class MoveAdvice:
    """One legal move: its ``value`` (a chance 0..1 or an expected value) and standard ``error``.

    ``outcomes`` is the distribution the value comes from (labels with probabilities summing to
    1, when the game has one), ``details`` named figures (e.g. the chance of closing the 3s).
    """

    move: str
    value: float
    error: float = 0.0
    best: bool = False
    outcomes: tuple[tuple[str, float], ...] = ()
    details: tuple[tuple[str, float], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "value": self.value, "error": self.error, "best": self.best,
                "outcomes": [[k, p] for k, p in self.outcomes],
                "details": {k: v for k, v in self.details}}


@dataclass(frozen=True)
class Advice:
    """The coach's answer for the decision a state is waiting for."""

    game: str
    player: int | None
    question: str
    measure: str
    higher_is_better: bool = True
    exact: bool = True
    trials: int = 0
    moves: tuple[MoveAdvice, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def best(self) -> MoveAdvice | None:
        return next((m for m in self.moves if m.best), None)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "player": self.player, "question": self.question,
                "measure": self.measure, "higher_is_better": self.higher_is_better,
                "exact": self.exact, "trials": self.trials,
                "moves": [m.to_json() for m in self.moves], "extra": self.extra}

    def text(self, limit: int = 12) -> str:
        """A few lines for the terminal: the question, then the moves best first."""
        if self.exact:
            how = "exact"
        elif self.trials:
            how = f"estimated from {self.trials} seeded trials (± one standard error)"
        else:
            how = "exact but for chances too small to follow (± a bound on what they could change)"
        lines = [self.question, f"{self.measure}, {how}:"]
        ranked = sorted(self.moves, key=lambda m: -m.value if self.higher_is_better else m.value)
        strokes = self.extra.get("strokes", {})
        for m in ranked[:limit]:
            err = f" ± {m.error:.3g}" if m.error else ""
            holing = f"  holed in {strokes[m.move]:.2f} strokes" if m.move in strokes else ""
            lines.append(f"{'*' if m.best else ' '} {m.move:<34} {m.value:.3f}{err}{holing}")
        if len(ranked) > limit:
            lines.append(f"  ... and {len(ranked) - limit} more moves")
        best = self.best
        if best is not None and len(best.outcomes) > 1:
            lines.append(f"{best.move} ends: " + ", ".join(f"{k} {p:.0%}" for k, p in best.outcomes[:6]))
        if best is not None and best.details:
            lines.append(f"{best.move}: " + ", ".join(f"{k} {v:.3g}" for k, v in best.details if v))
        if self.extra.get("number"):
            lines.append("the number: " + ", ".join(f"{k} {p:.1%}" for k, p in self.extra["number"]))
        for card in self.extra.get("cards", ()):
            if card is not None:
                lacks = " ".join(map(str, card["lacks"])) or "nothing"
                lines.append(f"card {card['position']} ({card['card']}): lacks {lacks}; next roll "
                             f"{card['next_roll']:.0%}, within three {card['three_rolls']:.0%}, "
                             f"{card['points_per_roll']:.2f} points per roll")
        return "\n".join(lines)


def mark_best(advice: Advice) -> Advice:
    """The same advice with the best move (highest or lowest value; the first on a tie) marked."""
    if not advice.moves:
        return advice
    pick = max if advice.higher_is_better else min
    top = pick(range(len(advice.moves)), key=lambda i: advice.moves[i].value)
    return replace(advice, moves=tuple(m if m.best == (i == top) else replace(m, best=i == top)
                                       for i, m in enumerate(advice.moves)))


class NothingToDecide(Exception):
    """The state waits for dice, cards or nothing: there is no choice to advise on."""
