"""Helpers to put a Rollers game where a test needs it, through the public protocol only."""

from __future__ import annotations

from companion.games.rollers import SLOTS, ApplyMove, StopMove
from companion.protocol import DieResult, Roll, Source
from companion.session import Game


def roll(*faces: str, slots: tuple[str, ...] = SLOTS) -> Roll:
    return Roll(tuple(DieResult(s, f) for s, f in zip(slots, faces, strict=True)), Source.MANUAL)


def new_game(players=("Anna", "Ben"), options=None) -> Game:
    """A game where Anna won the roll-off and is about to make her first roll."""
    game = Game.new("rollers", list(players), options)
    faces = ["star"] + ["1"] * (len(players) - 1)
    game.roll(roll(*faces, slots=tuple(f"player{i + 1}" for i in range(len(players)))))
    return game


def turn(game: Game, faces: tuple[str, ...], apply: str) -> None:
    """One whole turn: a single roll of all six dice, stop, apply."""
    game.roll(roll(*faces))
    game.move(StopMove())
    game.move(ApplyMove.parse(apply))


def idle_turn(game: Game) -> None:
    """A turn that changes nothing: the ZAP cancels the first roll, stop, pass."""
    turn(game, ("1", "1", "1", "1", "1", "zap"), "pass")
