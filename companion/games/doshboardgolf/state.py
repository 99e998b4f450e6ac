"""The Doshboardgolf game state: holes, turn order, shot planning, dice, scoring."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from typing import Any

from companion.errors import DataError, IllegalMove, OutOfTurn
from companion.games.doshboardgolf.board import (
    Board,
    Pos,
    angle,
    axial_of,
    centre,
    euclid,
    hex_distance,
    load_board,
    name_of,
    pos_of,
    step_to,
)
from companion.games.doshboardgolf.cards import COLOURS, Card, load_cards
from companion.games.doshboardgolf.flight import NeedDie, Outcome, Rules, Shot, resolve, wind_band
from companion.games.doshboardgolf.moves import (
    Aim,
    Call,
    Club,
    Dogleg,
    HoleCells,
    Keep,
    Level,
    TimePenalty,
    parse_move,
)
from companion.games.doshboardgolf.options import PRO_RULES, seats
from companion.protocol import (
    ChooseMove,
    DieSpec,
    GameOver,
    GameState,
    Move,
    Request,
    Roll,
    RollDice,
)

G = "Doshboardgolf §"
FORMATS = G + "Alternate Formats"
PLANNING = ("aim", "card", "level", "call")
EXECUTING = ("roll", "chance")  # the dice of a turn: the time limit runs through them too
DIE_KIND = {"blue": "dosh-blue", "red": "dosh-red", "white": "dosh-white", "black": "dosh-black"}


@cache
def board_view(board_id: str) -> dict[str, Any]:
    """The static drawing of a shipped board for the screen."""
    board = load_board(board_id)
    return {
        "id": board.id, "name": board.name, "outward_sides": list(board.outward),
        "columns": board.width, "rows": board.height,
        "cells": [{"cell": name_of(p), "kind": k, "level": board.levels[p], "x": centre(p)[0],
                   "y": centre(p)[1]} for p, k in board.kinds.items()],
        "hill_lines": [list(pair) for pair in board.hill_lines()],
        "holes": [{"number": h.number, "tee": name_of(h.tee), "target": name_of(h.target)}
                  for h in board.holes],
    }


class DoshState(GameState):
    """One game of Doshboardgolf (see docs/rules/doshboardgolf.md)."""

    def __init__(self, players: tuple[str, ...], options: dict[str, Any]) -> None:
        super().__init__(players, options)
        n = len(players)
        # Doubles (§Alternate Formats; the common golf rule, best ball): seats 1+2 against seats 3+4.
        self.teams: tuple[tuple[int, ...], ...] = tuple((p,) for p in range(n))
        if options["teams"] == "doubles":
            if n != 4:
                raise DataError(f"doubles is played by four players in two teams of two, not {n}")
            self.teams = ((0, 1), (2, 3))
        self.tier: str = options["tier"]
        self.pro: dict[str, tuple[int, ...]] = {r: seats(options[r], self.tier, n) for r in PRO_RULES}
        board = self.board
        self.rounds = 4 if options["format"] == "tournament" else 1
        self.round = 0
        self.hole = 0  # index within the round
        self.order: list[int] = list(range(n))
        self.lies: list[str] = [name_of(board.holes[0].tee)] * n
        self.done: list[bool] = [False] * n
        self.strokes: list[list[int]] = [[] for _ in range(n)]  # per player, per hole played
        self.lost: list[str] = []  # "colour number" of lost cards
        self.hands: list[list[int] | None] = [None] * n
        self.wind: tuple[int, int] | None = None
        self.current = 0
        self.phase = "aim"
        self.plan: dict[str, Any] = {}
        self.dice: dict[str, Any] = {}
        self.penalised = False
        self.need: tuple[str, str] | None = None
        self.last_shot: dict[str, Any] | None = None
        self.log: list[dict[str, Any]] = []
        self.keep_queue: list[int] = []
        self.hole_tee: Pos = board.holes[0].tee
        self.hole_target: Pos = board.holes[0].target
        self.dogleg: Pos | None = None
        self.rounded: list[bool] = [True] * n  # passed by this hole's dog-leg marker
        self._start_round()

    # --- data ------------------------------------------------------------------------------------
    @property
    def board(self) -> Board:
        return load_board(self.options["board"])

    @property
    def hole_index(self) -> int:
        """Holes played before this one in the whole game (0-based)."""
        return self.round * len(self.board.holes) + self.hole

    def target(self) -> Pos:
        return self.hole_target

    def goal(self, seat: int) -> Pos:
        """Where ``seat`` is heading: the dog-leg marker until it is passed, then the target."""
        return self.dogleg if self.dogleg is not None and not self.rounded[seat] else self.hole_target

    def _to_go(self, seat: int) -> int:
        """The count still to go for ``seat``: by the dog-leg marker when it is not passed yet."""
        lie = axial_of(self.lies[seat])
        if self.dogleg is not None and not self.rounded[seat]:
            return hex_distance(lie, self.dogleg) + hex_distance(self.dogleg, self.hole_target)
        return hex_distance(lie, self.hole_target)

    def colour(self, seat: int) -> str:
        if self.tier == "beginner":
            return self.options["shared_set"]
        return COLOURS[(seat + self.round) % 4] if self.rounds > 1 else COLOURS[seat % 4]

    def cards_left(self, seat: int) -> list[Card]:
        colour = self.colour(seat)
        hand = self.hands[seat]
        return [c for c in load_cards()[colour]
                if f"{colour} {c.number}" not in self.lost and (hand is None or c.number in hand)]

    def uses(self, rule: str, seat: int) -> bool:
        return seat in self.pro[rule]

    def rules(self, seat: int) -> Rules:
        adv = self.tier != "beginner"
        return Rules(leave_trees=adv, hills=adv, roll_away=adv, hit_or_miss=self.uses("hit_or_miss", seat),
                     lost_cards=self.uses("lost_cards", seat), wind=self.uses("wind", seat))

    # --- flow ------------------------------------------------------------------------------------
    def _wind_wanted(self) -> bool:
        return bool(self.pro["wind"])

    def _start_round(self) -> None:
        if self.options["starting_cards"] == 3:
            self.hands = [[] for _ in self.players]
            self.keep_queue = []
            for seat in self.order:
                colour = self.colour(seat)
                free = [c for c in load_cards()[colour] if f"{colour} {c.number}" not in self.lost]
                self.keep_queue += [seat] * min(3, len(free))
        self._start_hole(new_round=True)

    def _start_hole(self, new_round: bool = False) -> None:
        hole = self.board.holes[self.hole]
        self.hole_tee, self.hole_target, self.dogleg = hole.tee, hole.target, None
        self.new_round = new_round
        self.plan, self.dice, self.need = {}, {}, None
        self.lies = [name_of(hole.tee)] * len(self.players)
        self.done = [False] * len(self.players)
        self.rounded = [True] * len(self.players)
        for s in self.strokes:
            s.append(0)
        self.current = self.order[0]  # the player who begins the hole sets it up
        if self.options["hole_cells"] == "chosen":
            self.phase = "cells"
            return
        self._after_cells()

    def _after_cells(self) -> None:
        self.lies = [name_of(self.hole_tee)] * len(self.players)
        if self.options["doglegs"] == "chosen":
            self.phase = "dogleg"
            return
        self._after_dogleg()

    def _after_dogleg(self) -> None:
        self.rounded = [self.dogleg is None] * len(self.players)
        change = self.options["wind_change"]
        new_round = self.new_round
        fresh = self.wind is None or change == "hole" or (change == "round" and new_round)
        if self._wind_wanted() and fresh:
            self.phase = "wind"
            self.wind = None
            return
        self._after_setup()

    def _after_setup(self) -> None:
        if self.keep_queue:
            self.phase = "keep"
            self.current = self.keep_queue[0]
            return
        self._next_turn()

    def _next_turn(self) -> None:
        live = [s for s in self.order if not self.done[s]]
        if not live:
            self._end_hole()
            return
        def far(s: int) -> tuple[int, float, int]:
            lie = axial_of(self.lies[s])
            return -self._to_go(s), -euclid(lie, self.goal(s)), self.order.index(s)

        self.current = min(live, key=far)
        self.phase = "aim"
        self.plan = {}
        self.dice = {}
        self.need = None
        self.penalised = False

    def _end_hole(self) -> None:
        k = self.hole_index
        self.order = sorted(self.order, key=lambda s: (self.strokes[s][k], self.order.index(s)))
        if self.hole + 1 < len(self.board.holes):
            self.hole += 1
            self._start_hole()
        elif self.round + 1 < self.rounds:
            self.round += 1
            self.hole = 0
            self._start_round()
        else:
            self.phase = "over"

    # --- requests --------------------------------------------------------------------------------
    def request(self) -> Request:
        who = self.players[self.current] if self.phase != "over" else ""
        hole = f"hole {self.hole + 1}" + (f", round {self.round + 1}" if self.rounds > 1 else "")
        match self.phase:
            case "over":
                return GameOver(self._winners(), self._final_prompt())
            case "wind":
                return RollDice(None, (DieSpec("white", DIE_KIND["white"]),
                                       DieSpec("black", DIE_KIND["black"])),
                                f"Wind for {hole}: roll the white (strength) and black (direction) dice")
            case "cells":
                return ChooseMove(self.current, f"{who}: choose the tee and the target of {hole}")
            case "dogleg":
                return ChooseMove(self.current, f"{who}: place a dog-leg marker for {hole} between "
                                                f"{name_of(self.hole_tee)} and {name_of(self.hole_target)}, "
                                                "or none")
            case "keep":
                kept = len(self.hands[self.current] or [])
                return ChooseMove(self.current, f"{who}: choose card {kept + 1} of 3 to keep for this round")
            case "aim":
                return ChooseMove(self.current, f"{who} ({hole}, lie {self.lies[self.current]}): plan the "
                                                "direction, with an elbow if you like")
            case "card":
                return ChooseMove(self.current, f"{who}: choose a card")
            case "level":
                return ChooseMove(self.current, f"{who}: Card-Down, Card-Up or the card as printed")
            case "call":
                return ChooseMove(self.current, f"{who}: call a hole-out number, or keep the green boxes")
            case "roll":
                return RollDice(self.current, (DieSpec("blue", DIE_KIND["blue"]),
                                               DieSpec("red", DIE_KIND["red"])),
                                f"{who}: roll the blue and red dice")
            case "chance":
                assert self.need is not None
                die, reason = self.need
                return RollDice(self.current, (DieSpec(die, DIE_KIND[die]),),
                                f"{who}: roll the {die} die: {reason}")
        raise AssertionError(self.phase)

    # --- moves -----------------------------------------------------------------------------------
    def legal_moves(self) -> Sequence[Move]:
        seat = self.current
        extra: list[Move] = []
        if self.phase in PLANNING and self.uses("time_limit", seat) and not self.penalised:
            extra = [TimePenalty()]
        match self.phase:
            case "cells":
                return [HoleCells(name_of(t), name_of(g)) for t in self._cells_of("tee")
                        for g in self._cells_of("target")]
            case "dogleg":
                return [Dogleg(None)] + [Dogleg(name_of(c)) for c in self._dogleg_cells()]
            case "keep":
                hand = self.hands[seat] or []
                return [Keep(c.number) for c in load_cards()[self.colour(seat)]
                        if c.number not in hand and f"{self.colour(seat)} {c.number}" not in self.lost]
            case "aim":
                return self._aims() + extra
            case "card":
                return [Club(c.number) for c in self.cards_left(seat)] + extra
            case "level":
                return [Level(n) for n in (-2, -1, 0, 1, 2)] + extra
            case "call":
                return [Call(None)] + [Call(n) for n in range(1, 13)] + extra
        return []

    def _aims(self) -> list[Move]:
        board, lie = self.board, axial_of(self.lies[self.current])
        out: list[Move] = []
        for d in range(1, 13):
            out.append(Aim(d))
            for cell in board.aligned(lie, d):
                name = name_of(cell)
                for t in (-3, -2, -1, 1, 2, 3):
                    out.append(Aim(d, name, (d - 1 + t) % 12 + 1))
        return out

    def _cells_of(self, kind: str) -> list[Pos]:
        return sorted((p for p, k in self.board.kinds.items() if k == kind), key=lambda p: (p[0], p[1]))

    def _dogleg_cells(self) -> list[Pos]:
        """Cells between tee and target: on the board, nearer to each of them than they are to each
        other, and at least two cells from both (so the marker never touches the tee or the target)."""
        tee, target = self.hole_tee, self.hole_target
        span = hex_distance(tee, target)
        return sorted((p for p in self.board.kinds
                       if 2 <= hex_distance(p, tee) < span and 2 <= hex_distance(p, target) < span),
                      key=lambda p: (p[0], p[1]))

    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    def apply(self, move: Move) -> None:
        seat = self.current
        if isinstance(move, TimePenalty) and self.phase in EXECUTING:
            pass  # the minute covers the dice too (§Time Limit)
        elif self.phase not in (*PLANNING, "keep", "cells", "dogleg"):
            raise OutOfTurn("Play", f"no move is expected now: {self.request().prompt}")
        if isinstance(move, TimePenalty):
            if self.phase not in (*PLANNING, *EXECUTING) or not self.uses("time_limit", seat):
                raise IllegalMove(G + "Time Limit", f"{self.players[seat]} does not play the time limit")
            if self.penalised:
                raise IllegalMove(G + "Time Limit", "the time penalty was already given this turn")
            self.penalised = True
            self.strokes[seat][self.hole_index] += 1
            self.log.append({"kind": "time penalty", "player": seat, "hole": self.hole_index, "strokes": 1,
                             "penalty": 1})
            return
        match self.phase, move:
            case "cells", HoleCells(tee, target):
                self._hole_cells(tee, target)
            case "dogleg", Dogleg(cell):
                self._place_dogleg(cell)
            case "keep", Keep(number):
                self._keep(seat, number)
            case "aim", Aim():
                self._aim(seat, move)
            case "card", Club(number):
                self._club(seat, number)
            case "level", Level(level):
                if level not in (-2, -1, 0, 1, 2):
                    raise IllegalMove(G + "Changing Card Distances",
                                      f"Card-Up/Down goes from -2 to +2, not {level}")
                self.plan["level"] = level
                self._after_level(seat)
            case "call", Call(number):
                if number is not None and not 1 <= number <= 12:
                    raise IllegalMove(G + "Call a Hole-Out", f"{number} is not a red number 1-12")
                self.plan["call"] = number
                self.phase = "roll"
            case _:
                raise IllegalMove(G + "Each Turn", f"'{move}' is not the next step: {self.request().prompt}")

    def _hole_cells(self, tee: str, target: str) -> None:
        cells = {}
        for word, name in (("tee", tee), ("target", target)):
            try:
                pos = axial_of(name)
            except ValueError as exc:
                raise IllegalMove(FORMATS, str(exc)) from None
            if not self.board.on(pos) or self.board.kind(pos) != word:
                raise IllegalMove(FORMATS, f"{name} is not a {word} cell of the board: an alternate {word} "
                                           f"is one of the board's {word} cells")
            cells[word] = pos
        self.hole_tee, self.hole_target = cells["tee"], cells["target"]
        self._after_cells()

    def _place_dogleg(self, cell: str | None) -> None:
        if cell is not None:
            try:
                pos = axial_of(cell)
            except ValueError as exc:
                raise IllegalMove(FORMATS, str(exc)) from None
            if pos not in self._dogleg_cells():
                tee, target = name_of(self.hole_tee), name_of(self.hole_target)
                raise IllegalMove(FORMATS, f"a dog-leg marker goes on a board cell between the tee {tee} "
                                           f"and the target {target} (nearer to each than they are to each "
                                           f"other, two cells or more from both); {cell} is not one")
            self.dogleg = pos
        self._after_dogleg()

    def _keep(self, seat: int, number: int) -> None:
        colour = self.colour(seat)
        hand = self.hands[seat]
        assert hand is not None
        if not 1 <= number <= len(load_cards()[colour]) or f"{colour} {number}" in self.lost:
            raise IllegalMove(G + "Alternate Formats", f"the {colour} set has no card {number} to keep")
        if number in hand:
            raise IllegalMove(G + "Alternate Formats", f"card {number} is already kept")
        hand.append(number)
        self.keep_queue.pop(0)
        self._after_setup()

    def _aim(self, seat: int, move: Aim) -> None:
        board, lie = self.board, axial_of(self.lies[seat])
        if not 1 <= move.direction <= 12:
            raise IllegalMove(G + "Flight Direction", f"{move.direction} is not a clock direction 1-12")
        if move.elbow is not None:
            rule = G + "More On Elbows"
            try:
                elbow = axial_of(move.elbow)
            except ValueError as exc:
                raise IllegalMove(rule, str(exc)) from None
            if not board.on(elbow):
                raise IllegalMove(rule, f"the elbow {move.elbow} is off the board")
            if elbow not in board.aligned(lie, move.direction):
                raise IllegalMove(rule, f"{move.elbow} is not on the {move.direction} o'clock line from "
                                        f"{self.lies[seat]}")
            if move.turn_to is None or not 1 <= angle(move.direction, move.turn_to) <= 3:
                raise IllegalMove(rule, f"an elbow turns by 30 to 90 degrees (one to three clock hours), "
                                        f"not from {move.direction} to {move.turn_to} o'clock")
        self.plan = {"direction": move.direction, "elbow": move.elbow, "turn_to": move.turn_to}
        self.phase = "card"

    def _club(self, seat: int, number: int) -> None:
        left = {c.number: c for c in self.cards_left(seat)}
        if number not in left:
            colour = self.colour(seat)
            why = "is lost" if f"{colour} {number}" in self.lost else "is not in the hand"
            raise IllegalMove(G + "Planning A Shot Card",
                              f"{self.players[seat]} cannot play {colour} card {number}: it {why} "
                              f"(cards left: {', '.join(str(n) for n in left)})")
        self.plan["card"] = number
        self.plan["level"] = 0
        self.plan["call"] = None
        if self.uses("card_updown", seat):
            self.phase = "level"
        else:
            self._after_level(seat)

    def _card(self, seat: int) -> Card:
        card = next(c for c in load_cards()[self.colour(seat)] if c.number == self.plan["card"])
        return card.adjusted(self.plan.get("level", 0))

    def _after_level(self, seat: int) -> None:
        if self.uses("call_holeout", seat) and self._card(seat).green:
            self.phase = "call"
        else:
            self.phase = "roll"

    # --- chance ----------------------------------------------------------------------------------
    def _on_roll(self, roll: Roll) -> None:
        faces = {slot: int(face) for slot, face in roll.faces().items()}
        if self.phase == "wind":
            self.wind = (faces["black"], faces["white"])
            self._after_setup()
            return
        if self.phase == "roll":
            self.dice = {"blue": faces["blue"], "red": faces["red"], "white": [], "black": []}
        else:
            die = next(iter(faces))
            self.dice[die].append(faces[die])
        self._resolve()

    def _shot(self, seat: int) -> Shot:
        card = self._card(seat)
        call = self.plan.get("call")
        elbow = self.plan.get("elbow")
        return Shot(axial_of(self.lies[seat]), self.target(), self.plan["direction"],
                    axial_of(elbow) if elbow else None, self.plan.get("turn_to"), card,
                    (call,) if call else card.green, last_card=len(self.cards_left(seat)) == 1)

    def _resolve(self) -> None:
        seat = self.current
        shot = self._shot(seat)
        result = resolve(self.board, shot, self.rules(seat), self.dice["blue"], self.dice["red"],
                         self.dice["white"], self.dice["black"], self.wind)
        if isinstance(result, NeedDie):
            self.phase = "chance"
            self.need = (result.die, result.reason)
            self.last_shot = self._shot_view(seat, self.lies[seat], None, list(result.path))
            return
        self._finish(seat, shot, result)

    def _finish(self, seat: int, shot: Shot, out: Outcome) -> None:
        k = self.hole_index
        if self.dogleg is not None and not self.rounded[seat]:
            gate = [out.lie] + [pos_of(e["cell"]) for e in out.path if e.get("leg") != "start"]
            self.rounded[seat] = any(hex_distance(c, self.dogleg) <= 1 for c in gate)
            if not self.rounded[seat] and (out.holed_out or out.on_target):
                out = replace(out, holed_out=False, on_target=False,
                              notes=[*out.notes, "the dog-leg marker is not passed yet: the target does not "
                                                 "count"])
        strokes = 1 + out.penalty + (1 if out.on_target else 0)
        self.strokes[seat][k] += strokes
        colour = self.colour(seat)
        if out.lost_card:
            self.lost.append(f"{colour} {self.plan['card']}")
        start = self.lies[seat]
        self.lies[seat] = name_of(out.lie)
        finished = out.holed_out or out.on_target
        cap = self.options["pickup"]
        picked_up = False
        if cap and not finished and self.strokes[seat][k] >= cap:
            picked_up = finished = True
        if cap:
            self.strokes[seat][k] = min(self.strokes[seat][k], cap)
        self.done[seat] = finished
        self.log.append({"kind": "shot", "player": seat, "hole": k, "from": start,
                         "to": name_of(out.lie), "card": f"{colour} {self.plan['card']}",
                         "plan": {k: self.plan.get(k) for k in ("direction", "elbow", "turn_to")},
                         "last_card": shot.last_card, "wind": self.wind,
                         "level": self.plan.get("level", 0), "call": self.plan.get("call"),
                         "blue": self.dice["blue"], "red": self.dice["red"],
                         "white": list(self.dice["white"]), "black": list(self.dice["black"]),
                         "strokes": strokes, "penalty": out.penalty + (1 if out.on_target else 0),
                         "holed_out": out.holed_out, "on_target": out.on_target, "landing": out.landing,
                         "lost_card": out.lost_card, "picked_up": picked_up})
        self.last_shot = self._shot_view(seat, start, out)
        self._next_turn()

    # --- views -----------------------------------------------------------------------------------
    def planned_path(self, seat: int) -> list[str]:
        """The dots of the planned line from the lie: to the elbow, then on after it to the board edge."""
        if not self.plan.get("direction"):
            return []
        board = self.board
        pos = axial_of(self.lies[seat])
        d = self.plan["direction"]
        elbow = axial_of(self.plan["elbow"]) if self.plan.get("elbow") else None
        out: list[str] = []
        limit = 2 * (board.width + board.height)
        while len(out) < limit:
            if elbow is not None and pos == elbow:
                d, elbow = self.plan["turn_to"], None
            pos = step_to(pos, d)
            if not board.on(pos):
                if elbow is None:
                    break
                continue
            out.append(name_of(pos))
        return out

    def _shot_view(self, seat: int, start: str, out: Outcome | None,
                   partial: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        view: dict[str, Any] = {"player": seat, "from": start, "plan": dict(self.plan),
                                "dice": {k: v if isinstance(v, int) else list(v)
                                         for k, v in self.dice.items()}}
        if out is None:
            view.update({"finished": False, "waiting_for": list(self.need or ()), "path": partial or []})
            return view
        view.update({"finished": True, "path": out.path, "lie": name_of(out.lie), "distance": out.distance,
                     "hook": out.hook, "wind": out.wind, "holed_out": out.holed_out,
                     "on_target": out.on_target, "penalty": out.penalty, "landing": out.landing,
                     "stopped_by": out.stopped_by, "lost_card": out.lost_card, "notes": out.notes})
        return view

    def side_strokes(self) -> list[list[int]]:
        """Strokes per side (a player, or a doubles team: the better ball of its two), per hole."""
        return [[min(self.strokes[p][k] for p in team) for k in range(len(self.strokes[0]))]
                for team in self.teams]

    def scores(self) -> tuple[float, ...]:
        """Each player's score: their own, or in doubles their team's (both partners share it)."""
        mode = self.options["scoring"]
        sides = self.side_strokes()
        per_side = [float(sum(s)) for s in sides] if mode == "stroke" else self._points(mode, sides)
        out = [0.0] * len(self.players)
        for team, score in zip(self.teams, per_side, strict=True):
            for p in team:
                out[p] = score
        return tuple(out)

    def _completed_holes(self) -> int:
        return len(self.strokes[0]) - (0 if self.phase == "over" else 1)

    def _points(self, mode: str, sides: list[list[int]]) -> list[float]:
        pts = [0.0] * len(sides)
        pot = 0
        for k in range(self._completed_holes()):
            pot += 1
            row = [s[k] for s in sides]
            best = min(row)
            winners = [i for i, v in enumerate(row) if v == best]
            if len(winners) == 1:
                pts[winners[0]] += pot if mode == "skins" else 1
                pot = 0
            elif mode == "match":
                pot = 0
        return pts

    def _winners(self) -> tuple[int, ...]:
        sc = self.scores()
        best = min(sc) if self.options["scoring"] == "stroke" else max(sc)
        return tuple(i for i, v in enumerate(sc) if v == best)

    def _final_prompt(self) -> str:
        names = " and ".join(self.players[i] for i in self._winners())
        unit = "strokes" if self.options["scoring"] == "stroke" else (
            "holes" if self.options["scoring"] == "match" else "skins")
        return f"{names} won with {self.scores()[self._winners()[0]]:g} {unit}"

    def view(self) -> dict[str, Any]:
        base = super().view()
        seat = self.current
        wind = None
        if self.wind is not None:
            name, per = wind_band(self.wind[1])
            wind = {"direction": self.wind[0], "white": self.wind[1], "strength": name, "per_distance": per}
        card = None
        if self.plan.get("card"):
            card = self._card(seat).to_view()
        base.update({
            "board": board_view(self.options["board"]),
            "tier": self.tier,
            "rules": {r: [self.players[s] for s in v] for r, v in self.pro.items()},
            "round": self.round + 1, "rounds": self.rounds,
            "hole": self.hole + 1, "tee": name_of(self.hole_tee),
            "target": name_of(self.target()),
            "dogleg": name_of(self.dogleg) if self.dogleg is not None else None,
            "past_dogleg": list(self.rounded),
            "teams": [list(t) for t in self.teams] if self.options["teams"] != "none" else None,
            "side_strokes": self.side_strokes() if self.options["teams"] != "none" else None,
            "phase": self.phase,
            "order": list(self.order),
            "lies": list(self.lies), "holed": list(self.done),
            "strokes": [list(s) for s in self.strokes],
            "colours": [self.colour(s) for s in range(len(self.players))],
            "cards_left": [[c.to_view() for c in self.cards_left(s)] for s in range(len(self.players))],
            "lost_cards": list(self.lost),
            "wind": wind,
            "plan": {**self.plan, "card_as_played": card,
                     "planned_path": self.planned_path(seat) if self.phase in (*PLANNING, "roll", "chance")
                     else []},
            "counted_path": (self.last_shot or {}).get("path", []),
            "last_shot": self.last_shot,
        })
        return base
