"""The Roll In One rules engine: setup, hole design, card deals, shots roll by roll, scoring.

Every physical roll of a club die is one chance event (:class:`RollDice` for the die of the chosen
club); after it the state says where the ball is and what the table must do next. Decisions the
rules leave to the player (club and direction, curve directions, card plays, bumps, handicap
points) are moves. Rulebook sections are cited as ``Roll In One §<section>``; the decisions this
engine takes where the rulebook is silent are in docs/rules/roll-in-one.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from companion.dice import die_kind
from companion.errors import DataError, IllegalMove, ImpossibleRoll, OutOfTurn
from companion.protocol import (
    ChooseMove,
    DieSpec,
    Draw,
    DrawCards,
    GameOver,
    GameState,
    Move,
    Request,
    Roll,
    RollDice,
)
from companion.words import count_of

from . import moves as mv
from .course import Course, Placement, Rules, cells_of, course_problem, layout_problem, load_library, tee_of
from .data import caddie_deck, face_effect, golfer_ids, load_boards, load_cards, load_clubs
from .hexgrid import DIRECTION_NAMES, SLOT_NEIGHBOURS, Pos, distance, step, turn_degrees

GAME = "Roll In One"
IGNORABLE = ("sand", "trees", "fairway", "water")
ACTION_EFFECTS = ("reroll", "nudge", "gust")
# Caddie effects whose card text can act during another player's turn (option mean_cards): a gust
# moves someone else's ball; a shed penalty is one's own token at any time; water and fairway
# can meet one's ball in another player's turn when it is knocked or bumped there.
MEAN_EFFECTS = ("gust", "shed-penalty", "ignore-water", "ignore-fairway")
PENALTY_TOKENS = 15  # [Components]: the box holds 15 penalty tokens


def rule(section: str) -> str:
    return f"{GAME} §{section}"


@dataclass
class Turn:
    """One player's turn in progress (plain data: it is part of the state)."""

    player: int
    stage: str = "aim"  # aim | roll | curve | window | handicap | oob | bump
    club: str = ""
    direction: int = 0
    start: Pos = (0, 0)
    rolls: list[str] = field(default_factory=list)  # faces in force this shot, in order
    rerolled: list[str] = field(default_factory=list)  # faces replaced by a re-roll
    beat: int = 0  # the number to beat
    sand_start: bool = False
    path: list[Pos] = field(default_factory=list)
    pending: str = ""  # the face awaiting a decision (handicap, window)
    pending_number: int | None = None
    queue: list[str] = field(default_factory=list)  # "F" step forward, "C" choose a direction, step
    after: str = "roll"  # when the queue is empty: "roll" again or "land"
    curve_any: bool = False
    dotted: bool = False
    slid: bool = False
    oob: bool = False
    anchor: Pos | None = None  # last space on the course while flying over out of bounds
    ignore: list[str] = field(default_factory=list)
    used: list[str] = field(default_factory=list)  # golfer abilities used this turn
    interrupts: list[int] = field(default_factory=list)  # players still to ask (mean cards)
    shields: list[tuple[int, str]] = field(default_factory=list)  # (player, terrain) ignored by a mean card


class RollInOneState(GameState):
    """A game of Roll In One (see docs/rules/roll-in-one.md)."""

    def __init__(self, players: tuple[str, ...], options: dict[str, Any]) -> None:
        super().__init__(players, options)
        n = len(players)
        mode = options["mode"]
        if mode == "solo" and n != 1:
            raise DataError("the solo three-hole round is for one player")
        if n == 1 and mode != "solo":
            raise DataError("one player plays the solo three-hole round: choose mode 'solo'")
        if mode in ("campaign", "bumper-game") and n < 2:
            raise DataError(f"{mode} needs at least two players")
        self.mode: str = mode
        self.phase = "golfers"
        self.golfers: list[str] = [""] * n
        self.shared_golfers: list[str] = []
        self.rolloff_among: list[int] = list(range(n)) if n > 1 else []
        self.first = 0
        self.hole = 0
        self.holes_total = 3 if mode == "solo" else 1 if mode in ("campaign", "bumper-game") else (
            4 if n == 2 else n)
        self.pars_left: list[int] = [3, 4, 5] if mode == "solo" else []
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.deck: list[str] = list(caddie_deck())
        self.discard: list[str] = []
        self.deal_queue: list[list[int]] = []
        self.design: list[Placement] = []
        self.design_greens: list[Pos] = []
        self.course: Course | None = None
        self.cells: dict[Pos, tuple[str, int]] = {}
        self.tee: Pos = (0, 0)
        self.greens: list[Pos] = []
        self.balls: list[Pos | None] = [None] * n
        self.reached: list[list[Pos]] = [[] for _ in range(n)]
        self.out: list[bool] = [False] * n  # holed (standard) or eliminated (bumper game)
        self.penalties: list[int] = [0] * n
        self.discarded: list[int] | None = None  # the tokens of the hole just scored, back to the box
        self.strokes: list[int] = [0] * n
        self.handicap = int(options["handicap"])
        self.points: list[int] = [self.handicap] * n
        self.order_pos = 0
        self.round = 1
        self.hole_ending = False
        self.turn: Turn | None = None
        self.hole_scores: list[list[int]] = []
        self.hole_log: list[dict[str, Any]] = []
        self.finishers: list[int] = []
        self.catchup: list[int] | None = None
        self.winners: tuple[int, ...] | None = None
        self.events: list[str] = []  # what happened in the last action, for the screen
        if options["golfers"] == "none":
            self.phase = "rolloff"
        if not self.rolloff_among:
            self._after_rolloff()

    # --- what next ------------------------------------------------------------------------------
    def request(self) -> Request:
        name = self.players
        if self.phase == "over":
            return GameOver(self.winners or (), self._over_prompt())
        if self.phase == "golfers":
            style = self.options["golfers"]
            if style == "chosen":
                p = self.golfers.index("")
                return ChooseMove(p, f"{name[p]}: choose a golfer card")
            count = len(self.players) if style == "dealt" else int(style.split("-")[1])
            what = "one golfer card each" if style == "dealt" else f"{count_of(count, 'shared golfer card')}"
            return DrawCards(None, "golfer", count, f"Deal {what}", tuple(golfer_ids()))
        if self.phase == "rolloff":
            among = self.rolloff_among
            putter = self._club_die("putter")
            return RollDice(None, tuple(DieSpec(f"p{p + 1}", putter) for p in among),
                            "Roll the Putter each (" + ", ".join(f"p{p + 1} {name[p]}" for p in among)
                            + "): lowest goes first")
        if self.phase == "design":
            return ChooseMove(self.first, self._design_prompt())
        if self.phase == "deal":
            p, count = self.deal_queue[0]
            return DrawCards(p, "caddie", count, f"Deal {count_of(count, 'caddie card')} to {name[p]}",
                             tuple(self.deck))
        t = self.turn
        assert t is not None
        who = name[t.player]
        match t.stage:
            case "aim":
                if t.interrupts:
                    q = t.interrupts[0]
                    return ChooseMove(q, f"{name[q]}: play a card on {who}'s ball, or pass")
                return ChooseMove(t.player, f"{who}: choose a club and a direction "
                                            f"(stroke {self.strokes[t.player] + 1})")
            case "roll":
                club = load_clubs()[t.club]
                nth = len(t.rolls) + 1
                beat = f", beat {t.beat}" if t.beat else ""
                return RollDice(t.player, (DieSpec("club", club.die),),
                                f"{who}: {club.name}, roll {nth}{beat}")
            case "curve":
                return ChooseMove(t.player, f"{who}: curve - choose the new direction")
            case "window":
                return ChooseMove(t.player, f"{who}: {t.pending} would end the shot - land, or play a card")
            case "handicap":
                return ChooseMove(t.player, f"{who}: rolled {t.pending} - keep it or spend handicap points "
                                            f"({self.points[t.player]} left)")
            case "oob":
                return ChooseMove(t.player, f"{who}: out of bounds ahead - stop (penalty) or spend a "
                                            "point to fly on")
            case "bump":
                return ChooseMove(t.player, f"{who}: bumper golf - move your ball or the other ball "
                                            "one space")
        raise AssertionError(t.stage)

    # --- helpers ------------------------------------------------------------------------------
    def _club_die(self, club: str) -> str:
        return load_clubs()[club].die

    def _course_rules(self) -> Rules:
        if self.mode == "bumper-game":
            return Rules(5, 5, 3)
        if self.mode == "campaign":
            return Rules(3, 8, int(self.options["campaign_greens"]))
        if self.mode == "solo":
            return Rules(min(self.pars_left), max(self.pars_left), 1)
        return Rules(3, 5, 1)

    def _design_prompt(self) -> str:
        who = self.players[self.first]
        nb, ng = len(self.design), len(self.design_greens)
        return (f"{who}: design hole {self.hole + 1} ({nb} board(s), {ng} green(s) placed; "
                "place boards and the green, load a course, or tee off)")

    def _golfer_effects(self, p: int) -> list[tuple[str, str]]:
        """(card id, effect) of the golfers that apply to player ``p``."""
        cards = load_cards()
        ids = [g for g in [self.golfers[p], *self.shared_golfers] if g]
        return [(g, cards[g].effect) for g in ids]

    def _passive(self, p: int, effect: str) -> bool:
        return any(e == effect for _, e in self._golfer_effects(p))

    def _ignores(self, p: int, terrain: str) -> bool:
        eff = f"ignore-{terrain}"
        t = self.turn
        return self._passive(p, eff) or (t is not None and (
            (t.player == p and terrain in t.ignore) or (p, terrain) in t.shields))

    def _held(self, p: int, effect: str) -> list[str]:
        """Distinct caddie card ids with ``effect`` that player ``p`` holds."""
        cards = load_cards()
        return sorted({c for c in self.hands[p] if cards[c].effect == effect})

    def _golfer_action(self, p: int, effect: str) -> list[str]:
        """Golfer cards with an action ``effect`` that ``p`` may still use this turn."""
        t = self.turn
        return sorted({g for g, e in self._golfer_effects(p) if e == effect and t is not None
                       and g not in t.used})

    def _terrain(self, pos: Pos | None) -> str:
        return self.cells[pos][0] if pos in self.cells else "out"

    def _in_play(self, p: int) -> bool:
        return self.balls[p] is not None and not self.out[p]

    def open_greens(self, p: int) -> list[Pos]:
        """The greens player ``p`` may still reach (campaign: those not reached yet)."""
        if self.mode == "campaign":
            return [g for g in self.greens if g not in self.reached[p]]
        return list(self.greens)

    def _say(self, text: str) -> None:
        self.events.append(text)

    # --- chance events ------------------------------------------------------------------------
    def check_roll(self, roll: Roll) -> None:
        """As every game checks a roll, but a face the die does not have cites this game's rules."""
        try:
            super().check_roll(roll)
        except ImpossibleRoll as exc:
            if exc.rule != "Dice":
                raise
            section = "Setting up" if self.phase == "rolloff" else "On Your Turn: 1. Swing"
            raise ImpossibleRoll(rule(section), exc.reason) from None

    def _on_roll(self, roll: Roll) -> None:
        self.events = []
        faces = roll.faces()
        if self.phase == "rolloff":
            self._rolloff(faces)
            return
        t = self.turn
        assert t is not None
        face = faces["club"]
        t.rolls.append(face)
        self._say(f"{self.players[t.player]} rolls {face}")
        self._consider(face, None)

    def _rolloff(self, faces: dict[str, str]) -> None:
        kind = die_kind(self._club_die("putter"))
        values = {}
        for p in self.rolloff_among:
            f = kind.face(faces[f"p{p + 1}"])
            eff = face_effect(f.label, f.number)
            values[p] = f.number if f.number is not None else (eff[1] if eff and eff[0] == "dots" else 0)
        low = min(values.values())
        tied = [p for p, v in values.items() if v == low]
        if len(tied) > 1:
            self.rolloff_among = tied
            self._say("tie for lowest: " + ", ".join(self.players[p] for p in tied) + " roll again")
            return
        self.first = tied[0]
        self.rolloff_among = []
        self._say(f"{self.players[self.first]} takes the first player token")
        self._after_rolloff()

    def _after_rolloff(self) -> None:
        if self.phase == "golfers" and self.options["golfers"] != "none":
            return
        self.phase = "design"

    def apply_draw(self, draw: Draw) -> None:
        req = self.request()
        if not isinstance(req, DrawCards):
            raise OutOfTurn(rule("Setting up"), f"no cards are to be drawn now: {req.prompt}")
        if len(draw.cards) != req.count:
            raise IllegalMove(rule("Starting a Hole"),
                              f"{count_of(req.count, 'card')} to be drawn, not {len(draw.cards)}")
        pool = Counter(req.candidates)
        want = Counter(draw.cards)
        for card, k in want.items():
            if pool[card] < k:
                left = "none" if pool[card] == 0 else f"only {pool[card]}"
                raise IllegalMove(rule("Starting a Hole"),
                                  f"card {card!r} cannot come up: {left} left in the {req.deck} deck")
        self.events = []
        if req.deck == "golfer":
            if self.options["golfers"] == "dealt":
                self.golfers = list(draw.cards)
            else:
                self.shared_golfers = list(draw.cards)
            self._say("golfers: " + ", ".join(load_cards()[c].name for c in draw.cards))
            self.phase = "rolloff" if self.rolloff_among else "design"
            return
        p, _ = self.deal_queue.pop(0)
        for c in draw.cards:
            self.deck.remove(c)
        self.hands[p].extend(draw.cards)
        self._say(f"{self.players[p]} gets {count_of(len(draw.cards), 'caddie card')}")
        self._next_deal()

    def _next_deal(self) -> None:
        while self.deal_queue:
            p, count = self.deal_queue[0]
            if len(self.deck) < count and self.discard:
                self.deck.extend(self.discard)  # reshuffle the discard pile into the deck
                self.discard = []
                self._say("the caddie deck ran out: the discard pile is shuffled back in")
            count = min(count, len(self.deck))
            if count:
                self.deal_queue[0] = [p, count]
                return
            self.deal_queue.pop(0)
        self.phase = "play"
        self._start_turn(self.first)

    # --- moves --------------------------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        return mv.parse(text)

    def legal_moves(self) -> list[Move]:
        req = self.request()
        if not isinstance(req, ChooseMove):
            return []
        if self.phase == "golfers":
            taken = set(self.golfers)
            return [mv.ChooseGolfer(g) for g in golfer_ids() if g not in taken]
        if self.phase == "design":
            return self._design_moves()
        t = self.turn
        assert t is not None
        if t.stage == "aim":
            return self._interrupt_moves(t.interrupts[0]) if t.interrupts else self._aim_moves(t.player)
        return {"curve": self._curve_moves, "window": self._window_moves, "handicap": self._handicap_moves,
                "oob": self._oob_moves, "bump": self._bump_moves}[t.stage]()

    def apply(self, move: Move) -> None:
        if isinstance(move, mv.Layout) and self.phase == "design":
            course = self._check_layout(move)
            self.events = []
            self._start_hole(course)
            return
        legal = self.legal_moves()
        if move not in legal:
            raise self._refusal(move)
        self.events = []
        self._do(move)

    # --- design -------------------------------------------------------------------------------
    def _design_moves(self) -> list[Move]:
        rules = self._course_rules()
        boards = load_boards()
        out: list[Move] = []
        if not self.design:
            out += [mv.PlaceBoard(Placement(b.id, (0, 0), k)) for b in boards.values() if b.is_tee
                    for k in range(6)]
        elif len(self.design) < rules.max_boards:
            used = {p.board for p in self.design}
            taken = {p.slot for p in self.design}
            free = sorted({(a + da, b + db) for a, b in taken for da, db in SLOT_NEIGHBOURS} - taken)
            out += [mv.PlaceBoard(Placement(b.id, s, k)) for b in boards.values()
                    if b.id not in used and not b.is_tee for s in free for k in range(6)]
        if self.design and len(self.design_greens) < rules.greens:
            cells = cells_of(self.design)
            out += [mv.PlaceGreen(p) for p in sorted(cells) if cells[p][0] != "tee"
                    and p not in self.design_greens]
        if self.design and self._course_problem(self._design_course()) is None:
            out.append(mv.TeeOff())
        out += [mv.UseCourse(k) for k in _playable_library(rules, tuple(self.pars_left))]
        return out

    def _course_problem(self, course: Course) -> str | None:
        problem = course_problem(course, self._course_rules())
        if problem is None and self.mode == "solo" and course.par not in self.pars_left:
            problem = (f"this course is par {course.par}; the solo round still needs par "
                       f"{' or '.join(map(str, self.pars_left))}")
        return problem

    def _design_course(self) -> Course:
        return Course(tuple(self.design), tuple(self.design_greens), designer=self.players[self.first])

    def _check_layout(self, move: mv.Layout) -> Course:
        from .course import parse_compact

        course = parse_compact(move.text)
        if course is None:
            raise IllegalMove(rule("Hole Design"), f"{move.text!r} is not a course in one-line form "
                                                   "(board@a,b/turn ... green@q,r)")
        problem = self._course_problem(course)
        if problem:
            raise IllegalMove(rule("Hole Design"), problem)
        return Course(course.boards, course.greens, designer=self.players[self.first])

    # --- turns --------------------------------------------------------------------------------
    def _aim_moves(self, p: int) -> list[Move]:
        out: list[Move] = list(_all_shots())
        out += self._card_moves(p, "aim")
        return out

    def _interrupt_moves(self, q: int) -> list[Move]:
        """What player ``q`` may do in another player's turn, before the shot (mean cards)."""
        t = self.turn
        assert t is not None
        out: list[Move] = [mv.Pass()]
        for card in self._held(q, "gust"):
            out += [mv.Play(card, t.player, d) for d in self._ball_steps(t.player)]
        if self.penalties[q] > 0:
            out += [mv.Play(card) for card in self._held(q, "shed-penalty")]
        for terrain in ("water", "fairway"):
            if self._in_play(q) and not self._ignores(q, terrain):
                out += [mv.Play(card) for card in self._held(q, f"ignore-{terrain}")]
        return out

    def _ball_steps(self, p: int) -> list[int]:
        """Directions in which ball ``p`` may be moved one space by a card (onto the course, not a green)."""
        pos = self.balls[p]
        if pos is None:
            return []
        return [d for d in range(6) if step(pos, d) in self.cells and step(pos, d) not in self.greens]

    def _card_moves(self, p: int, window: str) -> list[Move]:
        t = self.turn
        assert t is not None
        out: list[Move] = []
        cards = load_cards()
        sources = [(c, False) for c in sorted(set(self.hands[p]))]
        sources += [(g, True) for g, e in self._golfer_effects(p) if e in ACTION_EFFECTS and g not in t.used]
        kind: str | None = None  # the pending roll's effect, read once when a card asks
        for card, golfer in sources:
            effect = cards[card].effect
            if window == "aim":
                if effect == "nudge":
                    out += [mv.Play(card, None, d) for d in self._ball_steps(p)]
                elif effect == "gust":
                    out += [mv.Play(card, q, d) for q in range(len(self.players))
                            if q != p and self._in_play(q) for d in self._ball_steps(q)]
                elif (effect.startswith("ignore-") and not golfer and not self._ignores(p, effect[7:])) or (
                        effect == "shed-penalty" and self.penalties[p] > 0):
                    out.append(mv.Play(card))
            elif window == "window":
                if kind is None:
                    kind, _ = self._pending_effect()
                if effect == "reroll":
                    out.append(mv.Play(card))
                elif effect.startswith("ignore-") and not golfer and not self._ignores(p, effect[7:]):
                    terrain = effect[7:]
                    if terrain in ("fairway", "water") or (terrain == "trees" and kind == "triangle"):
                        out.append(mv.Play(card))
        return out

    def _pending_effect(self) -> tuple[str, int]:
        t = self.turn
        assert t is not None
        f = die_kind(self._club_die(t.club)).face(t.pending)
        kind, n = face_effect(f.label, f.number) or ("number", 0)
        if t.pending_number is not None:
            n = t.pending_number
        return kind, n

    def _raw_number(self) -> int:
        t = self.turn
        assert t is not None
        return die_kind(self._club_die(t.club)).face(t.pending).number or 0

    def _curve_moves(self) -> list[Move]:
        t = self.turn
        assert t is not None
        if t.curve_any:
            return [mv.Curve(d) for d in range(6)]
        if self._passive(t.player, "fore"):
            return [mv.Curve(d) for d in range(6) if d != t.direction]
        out: list[Move] = [mv.Curve(d) for d in range(6) if turn_degrees(t.direction, d) == 60]
        if self._held(t.player, "fore"):
            out += [mv.Curve(d, True) for d in range(6) if turn_degrees(t.direction, d) > 60]
        return out

    def _window_moves(self) -> list[Move]:
        t = self.turn
        assert t is not None
        return [mv.Land(), *self._card_moves(t.player, "window")]

    def _handicap_moves(self) -> list[Move]:
        t = self.turn
        assert t is not None
        n = self._raw_number()
        top = max(f.number for f in die_kind(self._club_die(t.club)).faces if f.number is not None)
        pts = self.points[t.player]
        return [mv.Keep(), *(mv.Adjust(m) for m in range(1, top + 1) if m != n and abs(m - n) <= pts)]

    def _oob_moves(self) -> list[Move]:
        return [mv.Stop(), mv.Traverse()]

    def _bump_moves(self) -> list[Move]:
        t = self.turn
        assert t is not None
        pos = self.balls[t.player]
        who = [t.player, *self._others_at(t.player, pos)]
        return [mv.Bump(q, d) for q in who for d in range(6) if step(pos, d) in self.cells]  # type: ignore[arg-type]

    def _others_at(self, p: int, pos: Pos | None) -> list[int]:
        return [q for q in range(len(self.players)) if q != p and self._in_play(q) and self.balls[q] == pos]

    # --- refusals -----------------------------------------------------------------------------
    def _refusal(self, move: Move) -> IllegalMove:
        req = self.request()
        t = self.turn
        stage = "design" if self.phase == "design" else "golfers" if self.phase == "golfers" else (
            t.stage if t is not None and self.phase == "play" else self.phase)
        expected = {
            "design": (mv.PlaceBoard, mv.PlaceGreen, mv.TeeOff, mv.UseCourse, mv.Layout),
            "golfers": (mv.ChooseGolfer,), "aim": (mv.Shot, mv.Play, mv.Pass), "curve": (mv.Curve,),
            "window": (mv.Land, mv.Play), "handicap": (mv.Keep, mv.Adjust), "oob": (mv.Stop, mv.Traverse),
            "bump": (mv.Bump,),
        }.get(stage, ())
        if not isinstance(req, ChooseMove) or not isinstance(move, expected):
            return OutOfTurn(rule("On Your Turn"), f"{move} cannot be played now: {req.prompt}")
        if stage == "aim" and t is not None and t.interrupts and not isinstance(move, mv.Pass | mv.Play):
            return OutOfTurn(rule("Caddie Cards"), f"{move} must wait: {req.prompt}")
        match move:
            case mv.PlaceBoard(placement):
                return IllegalMove(rule("Hole Design"), self._placement_problem(placement))
            case mv.PlaceGreen(pos):
                if not self.design:
                    return IllegalMove(rule("Hole Design"), "place the tee board before the green")
                if len(self.design_greens) >= self._course_rules().greens:
                    return IllegalMove(rule("Hole Design"), "every green token is already placed")
                return IllegalMove(rule("Hole Design"),
                                   f"green {pos[0]},{pos[1]} is off the course, on the tee or already "
                                   "a green")
            case mv.TeeOff():
                return IllegalMove(rule("Hole Design"),
                                   self._course_problem(self._design_course()) or "the course is not ready")
            case mv.UseCourse(cid):
                lib = load_library()
                if cid not in lib:
                    return IllegalMove(rule("Hole Design"), f"no course {cid!r} in the library; it has "
                                                            f"{', '.join(lib)}")
                return IllegalMove(rule("Hole Design"), self._course_problem(lib[cid]) or "not playable here")
            case mv.ChooseGolfer(card):
                return IllegalMove(rule("Golfer Cards"), f"{card!r} is not a golfer card still free")
            case mv.Shot(club, _):
                return IllegalMove(rule("On Your Turn"), f"there is no club {club!r}; clubs: "
                                                         f"{', '.join(load_clubs())}")
            case mv.Curve(d, fore):
                assert t is not None
                deg = turn_degrees(t.direction, d)
                if deg == 0 and not t.curve_any:
                    return IllegalMove(rule("On Your Turn"), "a curve turns the shot: go forward-left or "
                                                             "forward-right")
                if fore and t.curve_any:
                    return IllegalMove(rule("Movement Details"), "a first-roll curve may go in any direction "
                                                                 "without a Fore card")
                if fore and deg <= 60:
                    return IllegalMove(rule("Movement Details"), f"turning {deg} degrees needs no Fore card")
                if fore:
                    return IllegalMove(rule("Movement Details"),
                                       f"{self.players[t.player]} holds no Fore card")
                return IllegalMove(rule("Movement Details"), f"turning {deg} degrees needs the Fore card")
            case mv.Play(card, _, _):
                return self._play_refusal(move)
            case mv.Adjust(n):
                assert t is not None
                cost = count_of(abs(n - self._raw_number()), "point")
                return IllegalMove(rule("Handicap Points"), f"changing {t.pending} to {n} costs {cost} "
                                   f"and must stay within the die; {self.points[t.player]} left")
            case mv.Traverse():
                return IllegalMove(rule("Handicap Points"), "no handicap points left")
            case mv.Bump(q, d):
                return IllegalMove(rule("Bumper-golf"), f"ball {q} cannot be bumped {DIRECTION_NAMES[d]}: "
                                   "only balls on this space, onto the course")
            case mv.Pass():
                return OutOfTurn(rule("Caddie Cards"), "nobody is being asked to play a card now")
        return IllegalMove(rule("On Your Turn"), f"{move} is not possible now: {req.prompt}")

    def _placement_problem(self, placement: Placement) -> str:
        boards = load_boards()
        if placement.board not in boards:
            return f"there is no board {placement.board!r}; boards: {', '.join(boards)}"
        if not self.design and not boards[placement.board].is_tee:
            return "start with the tee board (in slot 0,0)"
        if not self.design and placement.slot != (0, 0):
            return "the tee board goes in slot 0,0"
        if len(self.design) >= self._course_rules().max_boards:
            return f"the course already has {len(self.design)} boards, the most it may have"
        problem = layout_problem([*self.design, placement])
        return problem or f"{placement} is not a place for a board now"

    def _play_refusal(self, move: mv.Play) -> IllegalMove:
        t = self.turn
        assert t is not None
        cards = load_cards()
        who = t.interrupts[0] if t.stage == "aim" and t.interrupts else t.player
        name = self.players[who]
        card = cards.get(move.card)
        if card is None:
            return IllegalMove(rule("Caddie Cards"), f"there is no card {move.card!r}")
        mine = move.card in self.hands[who] or move.card in [g for g, _ in self._golfer_effects(who)]
        if not mine:
            return IllegalMove(rule("Caddie Cards"), f"{name} holds no {card.name} card")
        if card.deck == "golfer" and move.card in t.used:
            return IllegalMove(rule("Golfer Cards"), f"{card.name} was already used this turn")
        when = {"fore": "with a curve", "reroll": "on a roll that ends the shot",
                "nudge": "before the first roll", "gust": "before a shot",
                "shed-penalty": "before the first roll, by a player who holds a penalty token"}
        where = ", onto a space of the course that is not a green" if card.effect in ("nudge", "gust") else ""
        if card.effect in when:
            return IllegalMove(rule("Caddie Cards"), f"{card.name} is played {when[card.effect]}{where}")
        return IllegalMove(rule("Caddie Cards"), f"{card.name} has nothing to do now")

    # --- doing moves --------------------------------------------------------------------------
    def _do(self, move: Move) -> None:
        t = self.turn
        match move:
            case mv.ChooseGolfer(card):
                p = self.golfers.index("")
                self.golfers[p] = card
                if "" not in self.golfers:
                    self.phase = "rolloff" if self.rolloff_among else "design"
            case mv.PlaceBoard(placement):
                self.design.append(placement)
            case mv.PlaceGreen(pos):
                self.design_greens.append(pos)
            case mv.TeeOff():
                self._start_hole(self._design_course())
            case mv.UseCourse(cid):
                c = load_library()[cid]
                self._start_hole(Course(c.boards, c.greens, c.name, self.players[self.first]))
            case mv.Shot(club, d):
                assert t is not None
                self._shot(club, d)
            case mv.Curve(d, fore):
                assert t is not None
                if fore:
                    self._discard(t.player, self._held(t.player, "fore")[0])
                self._say(f"curve {DIRECTION_NAMES[d]}")
                t.direction = d
                t.queue.insert(0, "F")
                t.stage = "roll"
                self._advance()
            case mv.Play():
                self._play(move)
            case mv.Pass():
                assert t is not None
                t.interrupts.pop(0)
            case mv.Land():
                assert t is not None
                self._execute(*self._pending_effect())
            case mv.Keep():
                assert t is not None
                self._consider(t.pending, self._raw_number())
            case mv.Adjust(n):
                assert t is not None
                cost = abs(n - self._raw_number())
                self.points[t.player] -= cost
                self._say(f"{self.players[t.player]} spends {count_of(cost, 'point')}: {t.pending} -> {n}")
                self._consider(t.pending, n)
            case mv.Traverse():
                assert t is not None
                self.points[t.player] -= 1
                pos = self.balls[t.player]
                if t.anchor is None:
                    t.anchor = pos
                self.balls[t.player] = step(pos, t.direction)  # type: ignore[arg-type]
                t.path.append(self.balls[t.player])  # type: ignore[arg-type]
                self._say("flies over out of bounds (1 point)")
                t.stage = "roll"
                self._advance()
            case mv.Stop():
                self._out_of_bounds()
            case mv.Bump(q, d):
                assert t is not None
                self._bump(q, d)

    def _discard(self, p: int, card: str) -> None:
        self.hands[p].remove(card)
        self.discard.append(card)

    def _play(self, move: mv.Play) -> None:
        t = self.turn
        assert t is not None
        cards = load_cards()
        who = t.interrupts[0] if t.stage == "aim" and t.interrupts else t.player
        card = cards[move.card]
        if card.deck == "golfer":
            t.used.append(card.id)
        else:
            self._discard(who, card.id)
        self._say(f"{self.players[who]} plays {card.name}")
        match card.effect:
            case "nudge" | "gust":
                target = who if move.target is None else move.target
                self.balls[target] = step(self.balls[target], move.direction)  # type: ignore[arg-type]
                if t.stage == "aim" and t.interrupts:
                    t.interrupts.pop(0)
            case "shed-penalty":
                self.penalties[who] -= 1
                if who != t.player:
                    t.interrupts.pop(0)
            case "reroll":
                t.rerolled.append(t.rolls.pop())
                t.pending, t.pending_number = "", None
                t.stage = "roll"
            case _ if who != t.player:  # playing mean: it protects the player's own ball this turn
                t.shields.append((who, card.effect[7:]))
                t.interrupts.pop(0)
            case _:
                t.ignore.append(card.effect[7:])
                if t.stage == "window":
                    kind, n = self._pending_effect()
                    if not self._ends_shot(kind, n) or len(self._window_moves()) == 1:
                        self._execute(kind, n)

    # --- the shot ------------------------------------------------------------------------------
    def _start_turn(self, p: int) -> None:
        t = Turn(p)
        if self.options["mean_cards"] == "on":
            n = len(self.players)
            self.turn = t
            others = ((p + k) % n for k in range(1, n))
            t.interrupts = [q for q in others if len(self._interrupt_moves(q)) > 1]  # more than 'pass'

        self.turn = t
        if self.catchup is not None:
            self.catchup[p] -= 1

    def _shot(self, club: str, d: int) -> None:
        t = self.turn
        assert t is not None
        p = t.player
        t.club, t.direction, t.stage = club, d, "roll"
        t.start = self.balls[p]  # type: ignore[assignment]
        t.path = [t.start]
        t.sand_start = self._terrain(t.start) == "sand" and not self._ignores(p, "sand")
        self.strokes[p] += 1
        self._say(f"{self.players[p]} takes the {load_clubs()[club].name}, aiming {DIRECTION_NAMES[d]}")

    def _consider(self, face: str, number: int | None) -> None:
        """A roll is in: ask about handicap points or cards if they matter, else carry it out."""
        t = self.turn
        assert t is not None
        t.pending, t.pending_number = face, number
        kind, n = self._pending_effect()
        if kind == "number" and number is None and self.points[t.player] > 0 and self.handicap:
            t.stage = "handicap"
            return
        if self._ends_shot(kind, n) and len(self._window_moves()) > 1:
            t.stage = "window"
            return
        self._execute(kind, n)

    def _ends_shot(self, kind: str, n: int) -> bool:
        """Would this roll end the shot: a fail, a dotted roll, or a step out of bounds?"""
        if self._ends(kind, n):
            return True
        t = self.turn
        assert t is not None
        if kind in ("number", "triangle") and not self._sand_roll(kind) and self.points[t.player] == 0:
            return step(self.balls[t.player], t.direction) not in self.cells  # type: ignore[arg-type]
        return False

    def _in_trees(self) -> bool:
        t = self.turn
        assert t is not None
        return self._terrain(self.balls[t.player]) == "trees" and not self._ignores(t.player, "trees")

    def _sand_roll(self, kind: str) -> bool:
        t = self.turn
        assert t is not None
        return len(t.rolls) == 1 and t.sand_start and kind not in ("dots", "dotted-curve")

    def _ends(self, kind: str, n: int) -> bool:
        """Does this roll end the shot (fail, or move and end)?"""
        t = self.turn
        assert t is not None
        if self._sand_roll(kind):
            return False
        if kind == "number":
            return n <= t.beat
        if kind == "triangle":
            return self._in_trees()
        return kind in ("dots", "dotted-curve")

    def _execute(self, kind: str, n: int) -> None:
        t = self.turn
        assert t is not None
        t.pending, t.pending_number, t.stage = "", None, "roll"
        if self._sand_roll(kind):
            if kind == "number":
                t.beat = n
            self._say("in sand: the first roll does not move the ball")
            return
        match kind:
            case "number":
                if n > t.beat:
                    t.beat = n
                    t.queue, t.after = ["F"], "roll"
                    self._advance()
                else:
                    self._say(f"{n} does not beat {t.beat}: the ball lands")
                    self._land()
            case "triangle":
                if self._in_trees():
                    self._say("a triangle in the trees: the ball lands")
                    self._land()
                else:
                    t.queue, t.after = ["F"], "roll"
                    self._advance()
            case "curve":
                t.stage, t.curve_any, t.after = "curve", len(t.rolls) == 1, "roll"
            case "dots":
                t.dotted = True
                t.queue, t.after = ["F"] * n, "land"
                self._advance()
            case "dotted-curve":
                t.dotted = True
                t.queue, t.after = ["F", "C"], "land"
                self._advance()

    def _advance(self) -> None:
        """Carry out queued steps until a decision is needed or the queue is empty."""
        t = self.turn
        assert t is not None
        while t.queue:
            item = t.queue.pop(0)
            if item == "C":
                t.stage, t.curve_any = "curve", False
                return
            if not self._step():
                return
        if t.after == "land":
            self._land()
        else:
            t.stage = "roll"

    def _step(self) -> bool:
        """One space forward; False if the ball stopped (out of bounds) or a decision is needed."""
        t = self.turn
        assert t is not None
        p = t.player
        target = step(self.balls[p], t.direction)  # type: ignore[arg-type]
        if target in self.cells:
            self.balls[p] = target
            t.path.append(target)
            t.anchor = None
            return True
        if self.points[p] > 0:
            t.stage = "oob"
            return False
        self._out_of_bounds()
        return False

    def _out_of_bounds(self) -> None:
        t = self.turn
        assert t is not None
        p = t.player
        if t.anchor is not None:
            self.balls[p] = t.anchor
            t.path.append(t.anchor)
            t.anchor = None
        self._penalty(p, "out of bounds: the ball stops at the edge")
        t.oob, t.queue = True, []
        self._land()

    def _penalty(self, p: int, why: str) -> None:
        if sum(self.penalties) >= PENALTY_TOKENS:
            self._say(f"no penalty token left in the box (all {PENALTY_TOKENS} are held): "
                      f"{self.players[p]}'s penalty is noted on the scorecard and counts the same")
        self.penalties[p] += 1
        self._say(f"{self.players[p]}: penalty ({why})")

    def _land(self) -> None:
        t = self.turn
        assert t is not None
        p = t.player
        if t.anchor is not None:  # the flight ended over out of bounds: back to the edge
            self._out_of_bounds()
            return
        pos = self.balls[p]
        t.stage = "landed"
        if not t.oob:
            if pos in self.open_greens(p):
                self._reach_green(p, pos)  # type: ignore[arg-type]
                if not self._in_play(p):
                    self._end_turn()
                    return
            else:
                terrain = self._terrain(pos)
                if terrain == "fairway" and not t.dotted and not t.slid and not self._ignores(p, "fairway"):
                    t.slid = True
                    self._say("lands on fairway: slides one more space")
                    t.queue, t.after = ["F"], "land"
                    self._advance()
                    return
                if terrain == "water" and not self._ignores(p, "water"):
                    self._penalty(p, "water")
        self._collide()

    def _reach_green(self, p: int, pos: Pos) -> None:
        name = self.players[p]
        if self.mode == "campaign":
            self.reached[p].append(pos)
            self._say(f"{name} reaches green {len(self.reached[p])} of {len(self.greens)}")
            if len(self.reached[p]) == len(self.greens):
                self.finishers.append(p)
                if self.catchup is None:
                    n = self.penalties[p]
                    self.catchup = [0 if q == p else n for q in range(len(self.players))]
                    self._say(f"{name} has every green: the others get {count_of(n, 'catch-up turn')}")
                else:
                    self.catchup[p] = 0
        elif self.mode == "bumper-game":
            self.greens.remove(pos)
            self.penalties[p] = max(0, self.penalties[p] - 2)
            self._say(f"{name} reaches a green: two penalties off, the green is removed")
        else:
            self.out[p] = True
            self.balls[p] = None
            self.hole_ending = True
            self._say(f"{name} is on the green")

    def _collide(self) -> None:
        t = self.turn
        assert t is not None
        p = t.player
        pos = self.balls[p]
        others = self._others_at(p, pos)
        if others and self.options["bumper"] == "on":
            t.stage = "bump"
            return
        if others:
            fwd = step(pos, t.direction)  # type: ignore[arg-type]
            if fwd in self.cells:
                for q in others:
                    self.balls[q] = fwd
                    self._say(f"{self.players[p]} knocks {self.players[q]}'s ball one space")
                    self._hit(q)
                    self._settle(q, t.direction, slide=False)
            else:
                for q in others:
                    self._say(f"{self.players[q]}'s ball is at the edge: the balls stack")
                    self._hit(q)
        self._end_turn()

    def _hit(self, q: int) -> None:
        if self.mode == "bumper-game":
            self._penalty(q, "hit by another ball")

    def _settle(self, q: int, d: int, slide: bool) -> None:
        """Terrain rules for a ball moved by a knock (no slide) or a bump (fairway slides)."""
        pos = self.balls[q]
        if pos in self.open_greens(q):
            self._reach_green(q, pos)  # type: ignore[arg-type]
            return
        terrain = self._terrain(pos)
        if terrain == "fairway" and slide and not self._ignores(q, "fairway"):
            nxt = step(pos, d)  # type: ignore[arg-type]
            if nxt in self.cells:
                self.balls[q] = nxt
                self._say("slides on fairway")
                self._settle(q, d, slide=False)
            else:
                self._penalty(q, "slid out of bounds: the ball stops at the edge")
            return
        if terrain == "water" and not self._ignores(q, "water"):
            self._penalty(q, "water")

    def _bump(self, q: int, d: int) -> None:
        t = self.turn
        assert t is not None
        self.balls[q] = step(self.balls[q], d)  # type: ignore[arg-type]
        self._say(f"bumps {self.players[q]}'s ball {DIRECTION_NAMES[d]}")
        if q != t.player:
            self._hit(q)
        self._settle(q, d, slide=True)
        self._end_turn()

    def _end_turn(self) -> None:
        t = self.turn
        assert t is not None
        if self.mode == "bumper-game":
            now_out = [q for q in range(len(self.players)) if not self.out[q] and self.penalties[q] >= 10]
            for q in now_out:
                self.out[q] = True
                self.balls[q] = None
                self._say(f"{self.players[q]} has ten penalties and is out")
            alive = [q for q in range(len(self.players)) if not self.out[q]]
            if len(alive) <= 1 or not self.greens:
                self._game_over(last_out=now_out)
                return
        if self.mode == "campaign" and self.catchup is not None and not any(
                c > 0 and q not in self.finishers for q, c in enumerate(self.catchup)):
            self._game_over()
            return
        self._next_turn()

    def _can_play(self, p: int) -> bool:
        if self.out[p] or self.balls[p] is None:
            return False
        return self.catchup is None or self.catchup[p] > 0

    def _next_turn(self) -> None:
        n = len(self.players)
        while True:
            self.order_pos += 1
            if self.order_pos >= n:
                self.order_pos = 0
                self.round += 1
                limit = 0 if self.options["round_limit"] == "none" else int(self.options["round_limit"])
                if self.hole_ending or (limit and self.round > limit):
                    if limit and self.round > limit and not self.hole_ending:
                        self._say(f"the round limit ({limit}) is reached")
                    self._end_hole()
                    return
            p = (self.first + self.order_pos) % n
            if self._can_play(p):
                self._start_turn(p)
                return

    # --- holes and the game ---------------------------------------------------------------------
    def _start_hole(self, course: Course) -> None:
        self.course = course
        self.cells = cells_of(course.boards)
        self.tee = tee_of(self.cells)
        self.greens = list(course.greens)
        n = len(self.players)
        self.balls = [self.tee] * n
        self.out = [False] * n
        self.reached = [[] for _ in range(n)]
        self.penalties = [0] * n
        self.discarded = None
        self.strokes = [0] * n
        self.order_pos, self.round, self.hole_ending = 0, 1, False
        self.design, self.design_greens = [], []
        self._say(f"hole {self.hole + 1}: par {course.par}")
        count = 3 if self.hole == 0 else 0 if self.mode == "solo" else 1
        self.deal_queue = [[(self.first + k) % n, count] for k in range(n)] if count else []
        self.phase = "deal"
        self._next_deal()

    def _distance(self, p: int) -> int:
        if self.out[p] or self.balls[p] is None:
            return 0
        return distance(self.balls[p], self.greens[0])  # type: ignore[arg-type]

    def hole_result(self) -> list[int]:
        """This hole's score for each player, as it stands (Playing a Hole, step 3)."""
        n = len(self.players)
        if self.mode == "solo":
            return [self.strokes[0] + self.penalties[0]]
        dist = [self._distance(p) for p in range(n)]
        return [self.penalties[p] + sum(1 for q in range(n) if dist[q] < dist[p]) for p in range(n)]

    def _end_hole(self) -> None:
        assert self.course is not None
        result = self.hole_result()
        self.hole_scores.append(result)
        self.hole_log.append({"hole": self.hole + 1, "designer": self.first, "par": self.course.par,
                              "course": self.course.compact(), "penalties": list(self.penalties),
                              "distances": [self._distance(p) for p in range(len(self.players))],
                              "strokes": list(self.strokes), "score": result})
        self._say(f"hole {self.hole + 1} scores: " + ", ".join(
            f"{self.players[p]} {s}" for p, s in enumerate(result)))
        if self.mode in ("standard", "solo"):  # the other modes score the tokens themselves
            self._discard_penalties()
        if self.mode == "solo":
            self.pars_left.remove(self.course.par)
        self.hole += 1
        self.turn = None
        if self.hole >= self.holes_total:
            self._game_over()
            return
        if self.mode != "solo":
            self.first = (self.first + 1) % len(self.players)
        self.phase = "design"

    def _discard_penalties(self) -> None:
        """[Summary of Play]: once a hole is scored, its penalty tokens go back to the box."""
        self.discarded = list(self.penalties)
        self.penalties = [0] * len(self.players)
        if any(self.discarded):
            self._say("penalty tokens discarded: " + ", ".join(
                f"{self.players[p]} {k}" for p, k in enumerate(self.discarded) if k))

    def _game_over(self, last_out: Sequence[int] = ()) -> None:
        self.turn = None
        self.phase = "over"
        n = len(self.players)
        if self.mode == "bumper-game":
            # the rulebook (Bumper Golf the Game) ends the game on the last player standing; when one
            # shot puts every remaining player out at once, those last standing share the result:
            # fewest penalties among them wins (docs/rules/roll-in-one.md)
            alive = [q for q in range(n) if not self.out[q]] or list(last_out)
            low = min(self.penalties[q] for q in alive)
            self.winners = tuple(q for q in alive if self.penalties[q] == low)
        elif self.mode == "campaign":
            if self.finishers:
                low = min(self.penalties[q] for q in self.finishers)
                self.winners = tuple(q for q in self.finishers if self.penalties[q] == low)
            else:  # round limit: most greens, then fewest penalties
                best = max((len(self.reached[q]), -self.penalties[q]) for q in range(n))
                self.winners = tuple(q for q in range(n)
                                     if (len(self.reached[q]), -self.penalties[q]) == best)
        else:
            self.winners = winners_by_holes(self.hole_scores, n)

    def _over_prompt(self) -> str:
        names = " and ".join(self.players[w] for w in self.winners or ())
        if self.mode == "solo":
            return f"{names}: {sum(s[0] for s in self.hole_scores)} strokes on par 12"
        tied = " (tied)" if len(self.winners or ()) > 1 else ""
        return f"{names} won{tied}"

    # --- results --------------------------------------------------------------------------------
    def scores(self) -> tuple[float, ...]:
        n = len(self.players)
        if self.mode in ("campaign", "bumper-game"):
            return tuple(float(self.penalties[p]) for p in range(n))
        return tuple(float(sum(h[p] for h in self.hole_scores)) for p in range(n))

    def view(self) -> dict[str, Any]:
        out = super().view()
        cards = load_cards()
        n = len(self.players)
        out.update({
            "mode": self.mode, "phase": self.phase, "hole": self.hole + 1, "holes": self.holes_total,
            "first_player": self.first, "round": self.round,
            "golfers": [{"id": g, "name": cards[g].name, "text": cards[g].text} if g else None
                        for g in self.golfers],
            "shared_golfers": [{"id": g, "name": cards[g].name, "text": cards[g].text}
                               for g in self.shared_golfers],
            "penalties": list(self.penalties), "strokes": list(self.strokes),
            "penalty_supply": max(0, PENALTY_TOKENS - sum(self.penalties)),
            "penalties_noted": max(0, sum(self.penalties) - PENALTY_TOKENS),
            "penalties_discarded": list(self.discarded) if self.discarded is not None else None,
            "handicap_points": list(self.points) if self.handicap else None,
            "hand_sizes": [len(h) for h in self.hands], "deck": len(self.deck), "discard": len(self.discard),
            "hole_scores": [list(h) for h in self.hole_scores], "holes_played": list(self.hole_log),
            "events": list(self.events),
        })
        if self.options["cards"] == "open":
            out["hands"] = [list(h) for h in self.hands]
        if self.phase == "design":
            out["design"] = {"boards": [str(p) for p in self.design],
                             "spaces": _spaces(cells_of(self.design), self.design_greens),
                             "greens": [list(g) for g in self.design_greens]}
        if self.course is not None and self.phase != "design":
            out["course"] = {"name": self.course.name, "designer": self.course.designer,
                             "par": self.course.par,
                             "boards": [str(p) for p in self.course.boards],
                             "spaces": _spaces(self.cells, self.greens), "tee": list(self.tee),
                             "greens": [list(g) for g in self.greens]}
            out["balls"] = [list(b) if b is not None and self._in_play(p) else None
                            for p, b in enumerate(self.balls)]
            out["on_green"] = [self.out[p] and self.mode in ("standard", "solo") for p in range(n)]
            out["greens_reached"] = [[list(g) for g in r] for r in self.reached]
            out["hole_result_now"] = self.hole_result() if self.phase == "play" else None
        t = self.turn
        if t is not None:
            out["shot"] = {"player": t.player, "stage": t.stage, "club": t.club or None,
                           "direction": DIRECTION_NAMES[t.direction] if t.club else None,
                           "rolls": list(t.rolls), "rerolled": list(t.rerolled), "beat": t.beat,
                           "path": [list(p) for p in t.path], "ignoring": list(t.ignore),
                           "protected": [[q, terrain] for q, terrain in t.shields]}
        return out


@cache
def _all_shots() -> tuple[mv.Shot, ...]:
    return tuple(mv.Shot(c, d) for c in load_clubs() for d in range(6))


@cache
def _playable_library(rules: Rules, pars: tuple[int, ...]) -> tuple[str, ...]:
    """Library courses that fit ``rules`` (and, in a solo round, one of the ``pars`` still to play)."""
    return tuple(k for k, c in load_library().items()
                 if course_problem(c, rules) is None and (not pars or c.par in pars))


def _spaces(cells: dict[Pos, tuple[str, int]], greens: Sequence[Pos]) -> list[dict[str, Any]]:
    return [{"q": q, "r": r, "terrain": t, "board": b, "green": (q, r) in greens}
            for (q, r), (t, b) in sorted(cells.items())]


def winners_by_holes(hole_scores: Sequence[Sequence[int]], n: int) -> tuple[int, ...]:
    """Lowest total wins; ties are broken by dropping holes from the first (Tie Game).

    >>> winners_by_holes([[0, 2], [3, 1]], 2)   # 3 vs 3: without hole 1, 3 vs 1
    (1,)
    >>> winners_by_holes([[1, 1], [2, 2]], 2)
    (0, 1)
    """
    tied = list(range(n))
    for start in range(len(hole_scores) or 1):
        totals = {p: sum(h[p] for h in hole_scores[start:]) for p in tied}
        low = min(totals.values())
        tied = [p for p in tied if totals[p] == low]
        if len(tied) == 1:
            break
    return tuple(tied)
