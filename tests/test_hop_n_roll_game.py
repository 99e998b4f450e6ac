"""Hop'n'ROLL rules on the dice board and at the sheet, played through a live game with its record."""

from __future__ import annotations

import itertools
import random

import pytest

from companion.errors import IllegalMove, OutOfTurn
from companion.games import get_game
from companion.games.hop_n_roll import Hop, HopNRollState, Pass, Write
from companion.games.hop_n_roll.board import shipped_board
from companion.games.hop_n_roll.sheet import RULES, area_score
from companion.games.hop_n_roll.state import DISCO_RULE, EFFECT_RULE, ONE_PAWN_RULE
from companion.games.hop_n_roll.strategy import sensible_move
from companion.protocol import ChooseMove, DieResult, GameOver, Roll, RollDice
from companion.record import RollEvent, replay
from companion.session import Game

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve")


def new_game(players: int = 3, **options) -> Game:
    return Game.new("hop-n-roll", NAMES[:players], options)


def roll(game: Game, *values: int, disco: str = "yellow") -> None:
    faces = [DieResult(f"die{i}", str(v)) for i, v in enumerate(values, 1)]
    game.roll(Roll((*faces, DieResult("disco", disco))))


def state(game: Game) -> HopNRollState:
    s = game.state
    assert isinstance(s, HopNRollState)
    return s


def refused(game: Game, move: str, error: type[Exception] = IllegalMove) -> Exception:
    """``move`` is refused with ``error`` and nothing changes: neither the state nor the record."""
    before, events = game.state.clone(), list(game.events)
    with pytest.raises(error) as info:
        game.move(move)
    assert game.state == before and game.events == events
    return info.value


def effect_row(kind: str, column: int = 1) -> int:
    return min(r for (c, r), e in shipped_board().effects.items() if c == column and e.kind == kind)


# --- the board, side A --------------------------------------------------------------------------


def test_setup_pawns_in_the_left_column_youngest_first_and_everyone_rolls_all_dice():
    game = new_game(3)
    s = state(game)
    assert [p["column"] for p in s.view()["board"]["pawns"]] == ["left"] * 3
    assert s.pawns == [1, 2, 3]
    req = s.request()
    assert isinstance(req, RollDice) and req.player == 0
    assert sorted(d.kind for d in req.dice) == ["d6", "d6", "d6", "disco"]


def test_dice_are_sorted_ascending_with_equal_values_below_each_other_and_disco_last():
    game = new_game(3)
    roll(game, 5, 2, 5, disco="pink")
    dice = state(game).view()["board"]["dice"]
    assert [(d["row"], d["face"]) for d in dice] == [(1, "2"), (2, "5"), (3, "5"), (4, "pink")]


def test_hops_go_right_in_odd_rounds_and_left_in_even_rounds():
    game = new_game(2)
    for rnd in (1, 2, 3):
        roll(game, 1, 6, disco="any")
        assert state(game).view()["board"]["hop_to"] == ("right" if rnd % 2 else "left")
        game.move("hop 1")
        game.move("hop 2")
        assert {p["column"] for p in state(game).view()["board"]["pawns"]} == {"right" if rnd % 2 else "left"}
        for _ in range(2):
            game.move(state(game).legal_moves()[0])


def test_only_one_pawn_per_space():
    game = new_game(3)
    roll(game, 3, 4, 6)
    game.move("hop 2")
    assert Hop(2) not in state(game).legal_moves()
    err = refused(game, "hop 2")
    assert err.rule == ONE_PAWN_RULE and "Ann" in err.reason
    assert set(state(game).legal_moves()) == {Hop(1), Hop(3), Hop(4)}
    refused(game, "hop 5")  # no die beside row 5 with three players


def test_next_round_order_follows_the_pawns_from_the_top():
    game = new_game(3)
    roll(game, 1, 2, 3)
    game.move("hop 3")  # Ann
    game.move("hop 1")  # Ben
    game.move("hop 4")  # Cy takes the disco die
    s = state(game)
    assert s.order == [1, 0, 2]
    assert s.current_player == 1  # entries follow the pawns too
    for _ in range(3):
        game.move(state(game).legal_moves()[0])
    req = state(game).request()
    assert isinstance(req, RollDice) and req.player == 1  # Ben's pawn is on top: he rolls


def test_the_number_written_is_the_die_taken():
    game = new_game(2)
    roll(game, 5, 2)
    game.move("hop 2")  # Ann takes the 5
    game.move("hop 1")  # Ben takes the 2
    assert state(game).order == [1, 0]
    err = refused(game, "write 3 up 1")
    assert "you took a 2" in err.reason
    assert {m.value for m in state(game).legal_moves()} == {2}
    game.move("write 2 up 1")
    assert state(game).sheets[1]["up"][0] == 2


def test_disco_die_any_number_in_its_colour_row():
    game = new_game(2)
    roll(game, 1, 1, disco="pink")
    game.move("hop 3")  # Ann takes the disco die
    game.move("hop 1")
    s = state(game)
    pink = next(a for a in s.sheet.areas if a.colour == "pink")
    assert s.current_player == 1
    game.move("write 1 same 1")
    moves = state(game).legal_moves()
    assert {(m.area, m.value) for m in moves} == {(pink.key, v) for v in range(1, 7)}
    other = next(a for a in s.sheet.areas if a.colour != "pink")
    err = refused(game, f"write 4 {other.key} 1")
    assert err.rule == DISCO_RULE and "pink" in err.reason


def test_disco_question_mark_allows_any_row():
    game = new_game(2)
    roll(game, 2, 3, disco="any")
    game.move("hop 3")
    game.move("hop 1")
    game.move("write 2 same 1")
    moves = state(game).legal_moves()
    assert {m.area for m in moves} == set(state(game).sheet.keys())
    assert {m.value for m in moves} == set(range(1, 7))


def test_a_refused_entry_is_explained_by_the_rows_rule():
    game = new_game(2)
    s = state(game)
    s.sheets[0]["up"][:2] = [2, 5]  # a game in progress (the test sets the sheet directly)
    roll(game, 3, 6)
    game.move("hop 1")
    game.move("hop 2")
    assert state(game).current_player == 0
    why = state(game).explain(Write("up", "3", 3))
    assert why is not None and RULES["ascending"].section in why and "lower than 5" in why
    err = refused(game, "write 3 up 4")
    assert "no gaps" in err.reason


def test_a_number_that_fits_nowhere_is_passed_and_only_then():
    game = new_game(2)
    s = state(game)
    s.sheets[0].update({"same": [6, None, None, None, None, None, None],
                        "up": [4, None, None, None, None, None, None],
                        "down": [2, None, None, None, None, None, None],
                        "seven": [1, None, None, None, None, None],
                        "parity": [1, None, None, None, None, None, None]})
    roll(game, 3, 4)
    game.move("hop 1")  # Ann: the 3 fits nowhere
    game.move("hop 2")
    assert state(game).legal_moves() == [Pass()]
    assert "pass" in state(game).request().prompt
    game.move("pass")
    err = refused(game, "pass")  # Ben's 4 fits: he must write it
    assert "must be written" in err.reason


def test_bad_input_is_refused_with_a_typed_error_and_nothing_is_lost():
    game = new_game(2)
    refused(game, "hop 1", OutOfTurn)  # dice first
    roll(game, 2, 2)
    refused(game, "write 2 up 1", OutOfTurn)  # everyone hops before anyone writes
    refused(game, "jump 3")
    refused(game, "hop three")
    refused(game, "hop 9")
    game.move("hop 1")
    refused(game, "hop 1")  # occupied
    game.move("hop 2")
    refused(game, "write 7 up 1")
    refused(game, "write 0 up 1")
    refused(game, "write 2 up 2")  # out of order: a gap before it
    refused(game, "write 2 nowhere 1")
    refused(game, "write 2 up 8")
    refused(game, "hop 3", OutOfTurn)
    with pytest.raises(OutOfTurn):
        game.roll(Roll((DieResult("die1", "1"), DieResult("die2", "1"), DieResult("disco", "any"))))
    game.move("write 2 up 1")


# --- the board, side B --------------------------------------------------------------------------


def test_b_side_dice_start_at_the_row_for_the_player_count_disco_at_the_bottom():
    board = shipped_board()
    for n in (2, 3, 4, 5):
        game = new_game(n, board="B")
        roll(game, *range(1, n + 1), disco="blue")
        dice = state(game).view()["board"]["dice"]
        assert [d["row"] for d in dice[:-1]] == list(range(board.start[n], board.start[n] + n))
        assert dice[-1] == {"row": board.rows, "slot": "disco", "kind": "disco", "face": "blue"}


def test_minus_space_is_optional_and_never_below_one():
    row = effect_row("minus")
    values = [1, 2, 3, 4, 5]
    game = new_game(5, board="B")
    roll(game, *values)
    die = state(game).dice[row]
    assert die[0] != "disco"
    value = int(die[1])
    hops = {h for h in state(game).legal_moves() if h.row == row}
    assert hops == ({Hop(row), Hop(row, change=-1)} if value > 1 else {Hop(row)})
    game.move(f"hop {row} -1")
    assert state(game).pending[0] == (value - 1, None)
    game2 = new_game(5, board="B")
    roll(game2, 1, 1, 1, 1, 1)
    err = refused(game2, f"hop {row} -1")
    assert err.rule == EFFECT_RULE and "1-6" in err.reason
    refused(game2, f"hop {row} +1")


def test_plus_minus_space_stays_within_one_to_six():
    row = effect_row("plus-minus")
    game = new_game(5, board="B")
    roll(game, 6, 6, 6, 6, 6)
    assert {h for h in state(game).legal_moves() if h.row == row} == {Hop(row), Hop(row, change=-1)}
    refused(game, f"hop {row} +1")
    game = new_game(5, board="B")
    roll(game, 3, 3, 3, 3, 3)
    assert {h for h in state(game).legal_moves() if h.row == row} == {
        Hop(row), Hop(row, change=-1), Hop(row, change=1)}


def test_either_space_takes_one_of_two_dice_even_if_already_used():
    row = effect_row("either")
    other = shipped_board().effects[(1, row)].other
    game = new_game(5, board="B")
    roll(game, 1, 2, 3, 4, 5)
    game.move(f"hop {other}")  # Ann takes the die beside row `other` the plain way
    assert Hop(row, die=other) in state(game).legal_moves()
    refused(game, f"hop {row}")  # must say which die
    game.move(f"hop {row} die {other}")  # Ben takes the same die from the either space
    s = state(game)
    assert s.pending[1] == s.pending[0]


def test_dj_takes_any_rolled_value_and_goes_last_next_round():
    row = effect_row("dj")
    minus = effect_row("minus")
    game = new_game(5, board="B")
    roll(game, 1, 2, 3, 4, 5)
    s = state(game)
    assert {h.dj for h in s.legal_moves() if h.row == row} == {1, 2, 3, 4, 5}
    minus_value = int(s.dice[minus][1])
    game.move(f"hop {minus} -1")  # Ann lowers her die by one in her mind
    game.move(f"hop {row} dj {minus_value}")  # Ben takes the same die at its rolled value
    assert state(game).pending[1] == (minus_value, None)
    refused(game, f"hop {row} dj 6")  # no standard die shows 6
    rest = [r for r in range(1, 7) if r not in (row, minus)][:3]
    for r in rest:
        game.move(str(next(h for h in state(game).legal_moves() if h.row == r)))
    assert state(game).order[-1] == 1  # Ben, on the DJ space, enters and plays last


def test_effects_can_be_switched_off_on_side_b():
    minus, dj = effect_row("minus"), effect_row("dj")
    game = new_game(5, board="B", effects="off")
    roll(game, 2, 3, 4, 5, 6)
    moves = state(game).legal_moves()
    assert all(h.change == 0 and h.die is None and h.dj is None for h in moves)
    refused(game, f"hop {minus} -1")
    assert Hop(dj) in moves  # a plain space beside its die


# --- end of the game and winners ----------------------------------------------------------------


def play_round(game: Game, values: tuple[int, ...], hops: list[str], writes: list[str | None]) -> None:
    roll(game, *values)
    for h in hops:
        game.move(h)
    for w in writes:
        game.move(w if w is not None else state(game).legal_moves()[0])


def test_two_complete_rows_end_the_game_after_one_more_round():
    game = new_game(2)
    s = state(game)
    s.sheets[0]["same"] = [3] * 7
    s.sheets[0]["up"] = [1, 1, 2, 2, 3, 3, None]
    play_round(game, (4, 5), ["hop 1", "hop 2"], ["write 4 up 7", None])
    assert state(game).completed(0) == 2 and state(game).last_round == 2
    assert isinstance(state(game).request(), RollDice)  # one more round
    assert "last round" in state(game).request().prompt
    play_round(game, (1, 2), ["hop 1", "hop 2"], [None, None])
    assert isinstance(state(game).request(), GameOver)
    assert state(game).legal_moves() == []
    refused(game, "hop 1", OutOfTurn)


def test_completing_rows_mid_round_does_not_end_it_early():
    game = new_game(2)
    s = state(game)
    s.sheets[0]["same"] = [3] * 7
    s.sheets[0]["up"] = [1, 1, 2, 2, 3, 3, None]
    roll(game, 4, 5)
    game.move("hop 1")
    game.move("hop 2")
    game.move("write 4 up 7")  # Ann writes first (pawn on top) and completes her second row
    assert state(game).completed(0) == 2 and state(game).last_round is None
    assert isinstance(state(game).request(), ChooseMove)


def test_ties_go_to_more_completed_rows_then_are_shared():
    info = get_game("hop-n-roll")
    s = info.new(NAMES[:3])
    assert isinstance(s, HopNRollState)
    same = s.sheet.area("same")
    s.sheets[0]["same"] = [1] * same.size
    target = s.score_of(0)
    found = None
    down, parity = s.sheet.area("down"), s.sheet.area("parity")
    for a, v, b in itertools.product(range(1, down.size), range(1, 6), range(1, parity.size)):
        d = [v] * a + [None] * (down.size - a)
        p = [1 + i % 2 for i in range(b)] + [None] * (parity.size - b)
        if area_score(down, d) + area_score(parity, p) + d.count(6) + p.count(6) == target:
            found = d, p
            break
    assert found is not None
    s.sheets[1]["down"], s.sheets[1]["parity"] = found
    s.sheets[2]["down"], s.sheets[2]["parity"] = list(found[0]), list(found[1])
    s.phase = "over"
    assert s.score_of(0) == s.score_of(1) == s.score_of(2)
    assert s.winners() == (0,)  # one complete row against none
    s.sheets[0] = {k: list(v) for k, v in s.sheets[1].items()}
    assert s.winners() == (0, 1, 2)
    assert "share" in s.request().prompt


def test_scores_add_rows_bonus_spaces_and_sixes():
    s = get_game("hop-n-roll").new(NAMES[:2])
    assert isinstance(s, HopNRollState)
    same, up = s.sheet.area("same"), s.sheet.area("up")
    s.sheets[0]["same"] = [6, 6, 6] + [None] * (same.size - 3)
    s.sheets[0]["up"] = [2] + [None] * (up.size - 1)
    expected = same.stars[2] + up.stars[0] + 3  # three sixes
    expected += sum(v for v in (s.sheets[0]["same"][same.bonus], s.sheets[0]["up"][up.bonus]) if v)
    assert s.scores()[0] == expected
    assert s.scores()[1] == 0


# --- the screen ---------------------------------------------------------------------------------


def test_view_draws_every_sheet_space_with_what_is_legal_now():
    game = new_game(2, sheet="advanced")
    roll(game, 2, 5, disco="green")
    game.move("hop 3")  # Ann: the disco die, green
    game.move("hop 1")
    s = state(game)
    view = s.view()
    assert view["phase"] == "write" and len(view["sheets"]) == 2
    for sheet_view, sheet in zip(view["sheets"], s.sheets, strict=True):
        assert sum(len(a["spaces"]) for a in sheet_view["areas"]) == sum(map(len, sheet.values()))
        assert sheet_view["total"] == s.score_of(sheet_view["player"])
    me = view["sheets"][s.current_player]
    legal = {(a["key"], sp["id"], v) for a in me["areas"] for sp in a["spaces"] for v in sp["legal"]}
    assert legal == {(m.area, m.space, m.value) for m in s.legal_moves()}
    green = next(a for a in view["sheets"][0]["areas"] if a["colour"] == "green")
    assert green["shape"] == "pyramid" and green["levels"] == list(s.sheet.area(green["key"]).levels)
    assert any(sp["legal"] for sp in green["spaces"])  # Ann's disco number shows where it may go
    board = view["board"]
    assert len(board["spaces"]) == 2 * board["rows"] and len(board["pawns"]) == 2


def test_a_corrected_roll_replays_the_hops_on_the_corrected_dice():
    game = new_game(2)
    roll(game, 2, 5)
    game.move("hop 1")  # Ann takes the lowest die, read as a 2
    fixed = Roll((DieResult("die1", "4"), DieResult("die2", "6"), DieResult("disco", "yellow")))
    game.amend(1, RollEvent(fixed))
    assert state(game).pending[0] == (4, None)
    assert replay(game.events) == game.state


def test_the_sensible_strategy_writes_where_the_number_scores_most():
    game = new_game(2)
    s = state(game)
    same = s.sheet.area("same")
    s.sheets[0]["same"][:3] = [6, 6, 6]
    roll(game, 6, 6)
    game.move("hop 1")
    game.move("hop 2")
    s = state(game)
    assert s.current_player == 0
    move = sensible_move(s, list(s.legal_moves()), random.Random(0))
    assert move == Write("same", "4", 6)
    assert area_score(same, [6, 6, 6, 6, None, None, None]) - area_score(same, [6, 6, 6] + [None] * 4) > 1
