"""The end screen's order follows the game's own outcome: golf's lowest score first, ties share a rank."""

from __future__ import annotations

from ui.standings import low_wins, scorecard, standings


def test_golf_lowest_score_is_first():
    scores = (41.0, 36.0, 39.0)
    assert low_wins(scores, (1,))
    assert standings(scores, (1,)) == [(1, 1), (2, 2), (3, 0)]


def test_points_games_highest_first():
    assert standings((12.0, 30.0, 7.0), (1,)) == [(1, 1), (2, 0), (3, 2)]


def test_ties_share_a_rank_and_the_next_rank_is_skipped():
    assert standings((20.0, 30.0, 20.0, 30.0), (1, 3)) == [(1, 1), (1, 3), (3, 0), (3, 2)]
    assert standings((36.0, 36.0, 40.0), (0, 1)) == [(1, 0), (1, 1), (3, 2)]  # golf tie for the win


def test_everyone_level_is_one_rank():
    assert standings((5.0, 5.0), (0, 1)) == [(1, 0), (1, 1)]


def test_scorecards_of_both_golf_games():
    assert scorecard({"players": ["A", "B"], "strokes": [[3, 4], [5, 2]]}) == [[3, 4], [5, 2]]
    # Roll In One keeps a row per hole with a score per player
    assert scorecard({"players": ["A", "B"], "hole_scores": [[3, 5], [4, 2]]}) == [[3, 4], [5, 2]]
    assert scorecard({"players": ["A"], "scores": [3]}) is None
