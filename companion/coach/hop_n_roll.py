"""The Hop'n'ROLL coach: the number a player will get this round, and what each hop or entry is worth.

Before the roll, every roll of the dice is enumerated (the standard dice as a multiset, since the
board sorts them, times the disco die; the hops the engine lists and their numbers are worked out
once per multiset, and for each other disco face only the hops that take the disco die are asked
again: the hops open do not depend on the disco face, and each hop reads one die),
and the round's hops are played through the engine in pawn
order: each player, the adviced one included, takes the hop whose number adds the most points to
their sheet now (the first such hop in the engine's order on a tie). That gives the distribution
of what the player gets (``1``..``6``, or the disco die's colour to write any number in), with the
board side's effects (-1, -1/+1, either die, DJ) applied by the engine, and for each open space of
the player's sheet the chance that this number can be written there. During the hops each hop
move is valued by the best entry its number allows; when writing, each entry by the points it adds.
Exact.
"""

from __future__ import annotations

import copy

from companion.coach.advice import Advice, MoveAdvice, NothingToDecide, mark_best
from companion.coach.chance import roll_outcomes
from companion.games.hop_n_roll.moves import Hop, Write
from companion.games.hop_n_roll.sheet import open_spaces
from companion.games.hop_n_roll.state import DISCO_SLOT, HopNRollState, Pending
from companion.games.hop_n_roll.strategy import entry_gain
from companion.protocol import DieResult, RollDice


def label(pend: Pending) -> str:
    """``"4"`` for a standard die's number, ``"disco yellow"`` / ``"disco any"`` for the disco die."""
    value, colour = pend
    return str(value) if value is not None else f"disco {colour}"


class _Round:
    """Hops through the engine on light copies (only what hopping changes is copied)."""

    def __init__(self, state: HopNRollState) -> None:
        self.state = state
        self.gains: dict[tuple[int, Pending], float] = {}
        self.cells: dict[tuple[int, Pending], frozenset[tuple[str, str]]] = {}

    def copy(self, state: HopNRollState) -> HopNRollState:
        out = copy.copy(state)
        out.pawns, out.on_dj, out.order = list(state.pawns), list(state.on_dj), list(state.order)
        out.taken, out.pending, out.dice = list(state.taken), list(state.pending), dict(state.dice)
        return out

    def gain(self, player: int, pend: Pending) -> float:
        """Points the best entry of ``pend`` adds to ``player``'s sheet now (-1 if it fits nowhere)."""
        key = (player, pend)
        if key not in self.gains:
            entries = self.state.entries_for(player, pend)
            self.gains[key] = max((entry_gain(self.state, player, w) for w in entries), default=-1)
            self.cells[key] = frozenset((w.area, w.space) for w in entries)
        return self.gains[key]

    @staticmethod
    def options(state: HopNRollState) -> list[tuple[Hop, Pending]]:
        """Every hop the engine lists now, with the number it gives."""
        out = []
        for hop in state.legal_moves():
            assert isinstance(hop, Hop)
            out.append((hop, state.hop_result(hop)))
        return out

    def number_for(self, state: HopNRollState, player: int,
                   hops: list[tuple[Hop, Pending]] | None = None) -> Pending:
        """What ``player`` takes once the players before them in pawn order have hopped.

        The engine lists every hop and its number once (with no pawn across yet; ``hops`` if
        already listed); a pawn that hops takes its row, so each later player chooses among the
        hops to the rows still free, exactly the engine's legal hops at that point.
        """
        options = [(hop.row, pend) for hop, pend in (self.options(state) if hops is None else hops)]
        taken: set[int] = set()
        for mover in state.order[state.turn:]:
            best: tuple[float, int, Pending] | None = None
            for row, pend in options:
                if row not in taken:
                    g = self.gain(mover, pend)
                    if best is None or g > best[0]:
                        best = (g, row, pend)
            assert best is not None
            if mover == player:
                return best[2]
            taken.add(best[1])
        raise ValueError(f"player {player} has already hopped")


def advise(state: HopNRollState, player: int | None = None, *, seed: int = 0) -> Advice:
    """Advice for ``player`` (default: whoever the state waits for); exact: ``seed`` is not used."""
    if state.phase == "over":
        raise NothingToDecide(state.request().prompt)
    req = state.request()
    me = req.player if player is None else player
    assert me is not None
    rnd = _Round(state)
    name = state.players[me]
    moves: list[MoveAdvice] = []
    dist: dict[Pending, float] = {}
    if state.phase == "roll":
        assert isinstance(req, RollDice)
        hops_for: dict[tuple[DieResult, ...], list[tuple[Hop, Pending]]] = {}
        for roll, p in roll_outcomes(req.dice):
            trial = rnd.copy(state)
            trial._on_roll(roll)  # the engine's own handling; the roll answers the request by construction
            standard = tuple(r for r in roll.results if r.slot != DISCO_SLOT)
            hops = hops_for.get(standard)
            if hops is None:
                hops = hops_for[standard] = rnd.options(trial)
            else:  # the same standard dice, another disco face: only the hops to the disco die change
                hops = [(hop, trial.hop_result(hop) if pend[0] is None else pend) for hop, pend in hops]
            pend = rnd.number_for(trial, me, hops)
            dist[pend] = dist.get(pend, 0.0) + p
        question = f"{name}: what this round's roll will give"
    elif state.phase == "hop" and state.order[state.turn] == me:
        best: tuple[float, Pending] | None = None
        for hop in state.legal_moves():
            assert isinstance(hop, Hop)
            pend = state.hop_result(hop)
            gain = rnd.gain(me, pend)
            moves.append(MoveAdvice(str(hop), gain, outcomes=((label(pend), 1.0),)))
            if best is None or gain > best[0]:
                best = (gain, pend)
        assert best is not None
        dist[best[1]] = 1.0  # the number of the best hop (the one marked)
        question = f"{name}: which die to hop to"
    elif state.phase == "hop" and me in state.order[:state.turn]:
        pend = state.pending[me]
        assert pend is not None
        dist[pend] = 1.0
        question = f"{name}: has hopped"
    elif state.phase == "hop":
        trial = rnd.copy(state)
        dist[rnd.number_for(trial, me)] = 1.0
        question = f"{name}: what the hops will leave"
    else:
        pend = state.pending[me]
        if pend is not None:
            dist[pend] = 1.0
            rnd.gain(me, pend)
        for move in state.legal_moves() if state.order[state.turn] == me else ():
            value = entry_gain(state, me, move) if isinstance(move, Write) else 0
            moves.append(MoveAdvice(str(move), float(value)))
        question = f"{name}: where to write"
    for pend in dist:
        rnd.gain(me, pend)
    cells = []
    sheet = state.sheets[me]
    for area in state.sheet.areas:
        for i in open_spaces(area, sheet[area.key]):
            sid = area.space_id(i)
            chance = sum(p for pend, p in dist.items() if (area.key, sid) in rnd.cells[(me, pend)])
            cells.append({"area": area.key, "space": sid, "chance": chance})
    numbers = sorted(((label(k), v) for k, v in dist.items()), key=lambda kv: kv[0])
    return mark_best(Advice("hop-n-roll", me, question, "points the number adds to the sheet now",
                            moves=tuple(moves), extra={"number": numbers, "cells": cells}))
