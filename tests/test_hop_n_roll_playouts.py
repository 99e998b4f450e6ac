"""Hop'n'ROLL property tests: random games on both sheet sides and both board sides.

After every action: no gaps, every row and pyramid rule holds (checked here independently of the
engine), the score recomputed from the sheet matches, one pawn per space. Undo gives back the state
before; the record replays to the live state, also after a JSON round trip.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.hop_n_roll import HopNRollState, Pass, Write
from companion.games.hop_n_roll.sheet import Area, fits, open_spaces, refusal
from companion.games.hop_n_roll.strategy import sensible_move
from companion.protocol import ChooseMove, GameOver, RollDice
from companion.record import dumps, loads, replay
from companion.session import Game
from companion.sim import random_roll

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve")


def levels_of(area: Area, cells: Sequence[int | None]) -> list[list[int | None]]:
    out, at = [], 0
    for width in area.levels:
        out.append(list(cells[at:at + width]))
        at += width
    return out


def check_area(area: Area, cells: Sequence[int | None]) -> None:
    """The area obeys its rule, written from scratch from the rulebook (not the engine's code)."""
    if not area.pyramid:
        n = sum(v is not None for v in cells)
        assert all(v is not None for v in cells[:n]), f"gap in {area.key}: {cells}"
        v = list(cells[:n])
        pairs = list(itertools.pairwise(v))
        match area.rule:
            case "same":
                assert len(set(v)) <= 1
            case "ascending":
                assert all(a <= b for a, b in pairs)
            case "descending":
                assert all(a >= b for a, b in pairs)
            case "sum-seven":
                assert all(v[i] + v[i + 1] == 7 for i in range(0, n - 1, 2))
            case "even-odd":
                assert all(a % 2 != b % 2 for a, b in pairs)
            case "two-numbers":
                assert n < 2 or v[0] != v[1]
                assert all(v[i] == v[i - 2] for i in range(2, n))
            case "pairs-triples":
                at = 0
                for size in area.groups:
                    assert len(set(v[at:at + size])) <= 1
                    at += size
            case "smaller-larger":
                assert all(a != b for a, b in pairs)
                ups = [b > a for a, b in pairs]
                assert all(x != y for x, y in itertools.pairwise(ups))
            case _:
                raise AssertionError(area.rule)
        return
    lv = levels_of(area, cells)
    for below, level in itertools.pairwise(lv):
        if any(x is not None for x in level):
            assert all(x is not None for x in below), f"gap in {area.key}: {cells}"
    if area.rule == "unequal-pyramid":
        written = [x for x in cells if x is not None]
        assert len(written) == len(set(written))
        return
    for below, level in itertools.pairwise(lv):
        for p, x in enumerate(level):
            if x is None:
                continue
            if len(level) == len(below):
                assert x == below[p]
            else:
                a, b = below[p], below[p + 1]
                assert x in (a + b, abs(a - b)), (a, b, x)


def score_from_sheet(state: HopNRollState, player: int) -> int:
    total = 0
    for area in state.sheet.areas:
        cells = state.sheets[player][area.key]
        if area.pyramid:
            done = 0
            for level in levels_of(area, cells):
                if None in level:
                    break
                done += 1
            stars = area.stars[done - 1] if done else 0
        else:
            n = sum(v is not None for v in cells)
            stars = area.stars[n - 1] if n else 0
        total += stars + (cells[area.bonus] or 0) + cells.count(6)
    return total


def check_state(s: HopNRollState) -> None:
    for p in range(len(s.players)):
        for area in s.sheet.areas:
            check_area(area, s.sheets[p][area.key])
        assert s.scores()[p] == score_from_sheet(s, p)
    if s.phase in ("roll", "write", "over"):
        assert len(set(s.pawns)) == len(s.pawns), "two pawns on one space"
    if s.phase == "write":  # the fast listing agrees with the referee's explanation, space by space
        sheet = s.sheets[s.order[s.turn]]
        for area in s.sheet.areas:
            cells = sheet[area.key]
            nexts = open_spaces(area, cells)
            for i in range(area.size):
                ok = fits(area, cells, i) if i in nexts else frozenset()
                assert {v for v in range(1, 7) if refusal(area, cells, i, v) is None} == ok, (area.key, i)
    if s.phase == "hop":
        hopped = [s.pawns[p] for p in s.order[:s.turn]]
        assert len(set(hopped)) == len(hopped)


def play(seed: int, players: int, options: dict, chooser=None) -> Game:
    rng = random.Random(seed)
    game = Game.new("hop-n-roll", NAMES[:players], options)
    writes = [0] * players
    passes = [0] * players
    while True:
        s = game.state
        assert isinstance(s, HopNRollState)
        check_state(s)
        req = s.request()
        if isinstance(req, GameOver):
            break
        if rng.random() < 0.1:  # the screen's description is plain JSON and agrees with the state
            view = json.loads(json.dumps(s.view()))
            assert [sh["total"] for sh in view["sheets"]] == list(s.scores())
        before = s.clone()
        if isinstance(req, RollDice):
            action = random_roll(req, rng)
            game.roll(action)
        else:
            assert isinstance(req, ChooseMove)
            moves = list(s.legal_moves())
            assert moves and len(set(moves)) == len(moves)
            if s.phase == "write":  # the prompt says pass exactly when nothing fits
                assert (moves == [Pass()]) == req.prompt.endswith(": pass")
            for m in moves:
                assert s.parse_move(str(m)) == m
            action = chooser(s, moves, rng) if chooser else rng.choice(moves)
            assert action in moves
            if isinstance(action, Write):
                writes[req.player] += 1
            elif isinstance(action, Pass):
                passes[req.player] += 1
            game.move(action)
        if rng.random() < 0.05:  # take it back and do it again
            after = game.state.clone()
            assert game.undo() == before
            game.roll(action) if isinstance(req, RollDice) else game.move(action)
            assert game.state == after
    final = game.state
    assert isinstance(final, HopNRollState)
    assert max(final.completed(p) for p in range(players)) >= 2
    assert final.round == final.last_round
    for p in range(players):
        assert writes[p] == sum(v is not None for c in final.sheets[p].values() for v in c)
        assert writes[p] + passes[p] == final.round
    assert final.outcome() == final.winners()
    return game


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5), board=st.sampled_from(["A", "B"]),
       sheet=st.sampled_from(["standard", "advanced"]), effects=st.sampled_from(["on", "off"]))
def test_random_games_keep_every_rule_and_replay_exactly(seed, players, board, sheet, effects):
    game = play(seed, players, {"board": board, "sheet": sheet, "effects": effects})
    assert replay(game.events) == game.state
    assert replay(loads(dumps(game.events))) == game.state


def test_every_board_and_sheet_side_is_played():
    for board in ("A", "B"):
        for sheet in ("standard", "advanced"):
            game = play(7, 3, {"board": board, "sheet": sheet})
            assert replay(game.events) == game.state


def test_simulated_players_with_the_sensible_strategy_finish_legal_games():
    for board, sheet in (("A", "advanced"), ("B", "standard")):
        game = play(11, 4, {"board": board, "sheet": sheet}, chooser=sensible_move)
        assert replay(game.events) == game.state
