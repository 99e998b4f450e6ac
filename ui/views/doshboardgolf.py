"""Doshboardgolf: the board of hexagonal cells (centre dots, a symbol per cell type, hill lines with
ticks on their downhill side, numbered tees and targets), every player's ball, the planned path with its
elbow, the counted path dot by dot after a shot, the wind, and the current player's cards left.

Aiming: tap one of the twelve clock numbers around the ball; the line is drawn, then "Aim straight" or
an elbow from the move list plays it. Cards: in the card step, tap a card to play it; "Card tables"
shows every card left, and tapping one shows its Distance/Hook table (readable, one line per red
number block)."""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Sequence
from typing import Any

import pygame

from companion.games.doshboardgolf.moves import Aim, Call, Club, Dogleg, HoleCells, Keep, Level, TimePenalty
from companion.protocol import GameState, Move
from ui import theme
from ui.views.base import Finger, GameView, TableActions, paged_buttons
from ui.widgets import Ui, Widget

SQ3 = math.sqrt(3)
R_HEX = 1 / SQ3  # circumradius of a cell when neighbouring dots are 1 apart

FILL = {
    "grass": (74, 128, 70),
    "tee": (120, 170, 100),
    "target": (150, 200, 120),
    "water": (50, 100, 175),
    "waterfall": (80, 140, 210),
    "small tree": (60, 110, 60),
    "medium tree": (50, 95, 50),
    "big tree": (40, 80, 40),
}
TREE_SIZE = {"small tree": 0.22, "medium tree": 0.32, "big tree": 0.42}
HILL = (120, 72, 30)
PATH_PLAN = (255, 90, 200)  # planned: pink dashes; counted: a solid dark line, numbered dots
PATH_COUNT = (20, 20, 20)
LEG_COLOUR = {
    "start": (255, 255, 255),
    "distance": (255, 220, 90),
    "hook": (255, 140, 90),
    "wind": (150, 210, 255),
    "roll-away": (200, 160, 255),
}
CARD_FILL = {"yellow": (200, 170, 40), "red": (180, 60, 60), "blue": (60, 100, 180), "green": (60, 140, 80)}
DIAL_R = 134  # px: the least radius of the aiming dial (twelve 48 px targets around the ball)


def dial_radius(t: int) -> int:
    """The aiming dial's radius for ``t`` px targets: neighbouring clock numbers 30 degrees apart are
    at least (sqrt 3 - 1) / 2 of the radius apart in x or y, so their squares never overlap."""
    return max(DIAL_R, math.ceil(t * 2 / (math.sqrt(3) - 1)))


def cell_xy(name: str) -> tuple[float, float] | None:
    """Board units of a cell name ("C7"), or None for a name off the lettered grid."""
    if len(name) < 2 or not name[0].isalpha() or not name[1:].isdigit():
        return None
    col, row = ord(name[0]) - ord("A"), int(name[1:]) - 1
    return col * SQ3 / 2, row + 0.5 * (col & 1)


def clock_vector(d: int) -> tuple[float, float]:
    """Unit vector of clock direction ``d`` on the screen (12 up, 3 right)."""
    a = math.radians(d * 30)
    return math.sin(a), -math.cos(a)


class Geometry:
    """Board units to screen pixels for one board drawn into one rectangle."""

    def __init__(self, board: dict[str, Any], rect: pygame.Rect) -> None:
        xs = [c["x"] for c in board["cells"]]
        ys = [c["y"] for c in board["cells"]]
        self.x0, self.y0 = min(xs) - R_HEX, min(ys) - 0.5
        span_x, span_y = max(xs) - min(xs) + 2 * R_HEX, max(ys) - min(ys) + 1
        self.u = min(rect.width / span_x, rect.height / span_y)
        self.ox = rect.x + (rect.width - span_x * self.u) / 2
        self.oy = rect.y + (rect.height - span_y * self.u) / 2
        self.rect = rect

    def px(self, xy: tuple[float, float]) -> tuple[int, int]:
        return round(self.ox + (xy[0] - self.x0) * self.u), round(self.oy + (xy[1] - self.y0) * self.u)

    def cell(self, name: str) -> tuple[int, int] | None:
        xy = cell_xy(name)
        return None if xy is None else self.px(xy)

    def hexagon(self, c: tuple[int, int], shrink: float = 1.0) -> list[tuple[float, float]]:
        r = R_HEX * self.u * shrink
        return [
            (c[0] + r * math.cos(math.radians(a)), c[1] + r * math.sin(math.radians(a)))
            for a in range(0, 360, 60)
        ]


TURN_SECONDS = 60.0  # §Time Limit: one minute to plan and play a turn
TIMED_PHASES = ("aim", "card", "level", "call", "roll", "chance")


class DoshView(GameView):
    def __init__(self, info) -> None:
        super().__init__(info)
        self.clock: Callable[[], float] = time.monotonic  # tests put a hand-driven clock here
        self._turn_key: tuple | None = None  # the turn the countdown belongs to
        self._turn_start = 0.0
        self._timed_out: tuple | None = None
        self.direction: int | None = None  # the clock direction tapped, not played yet
        self.mode = "board"  # board | cards | card:N
        self.dial_centre: tuple[int, int] | None = None
        self.geometry: Geometry | None = None  # where the board was last drawn (tests, taps)

    def reset(self) -> None:
        super().reset()
        self.direction = None
        self.mode = "board"  # after every move the board shows what happened

    # --- words --------------------------------------------------------------------------------
    def describe(self, move: Move) -> str:
        match move:
            case Aim(d, None, _):
                return f"Aim {d} o'clock"
            case Aim(d, elbow, t):
                return f"Aim {d}, elbow {elbow}, then {t}"
            case Club(n):
                return f"Card {n}"
            case Keep(n):
                return f"Keep card {n}"
            case Level(0):
                return "Card as printed"
            case Level(n):
                return f"Card-{'Up' if n > 0 else 'Down'} {abs(n)}"
            case Call(None):
                return "Keep the green boxes"
            case Call(n):
                return f"Call {n} to hole out"
            case TimePenalty():
                return "Time ran out: +1 stroke"
            case HoleCells(tee, target):
                return f"Tee {tee}, target {target}"
            case Dogleg(None):
                return "No dog-leg marker"
            case Dogleg(cell):
                return f"Dog-leg marker on {cell}"
        return str(move)

    def tap_move(self, finger: Finger, move: Move, state: GameState) -> None:
        """An aim by its direction's button, then straight or its elbow's cell and turn."""
        if isinstance(move, Aim):
            finger.tap_paged(f"dosh:dir:{move.direction}")
            if move.elbow is None:
                finger.tap("dosh:straight")
            else:
                finger.tap_paged(f"dosh:elbow:{move.elbow}")
                finger.tap_paged(f"move:{move}")
            return
        super().tap_move(finger, move, state)

    def score_note(self, view: dict[str, Any], player: int) -> str:
        strokes = view.get("strokes", [])
        lies = view.get("lies", [])
        holed = view.get("holed", [])
        if player >= len(strokes) or not strokes[player]:
            return ""
        here = strokes[player][-1]
        where = "holed" if player < len(holed) and holed[player] else f"at {lies[player]}"
        return f"hole {view.get('hole', 1)}: {here}, {where}"

    rolls_settle_moves = True  # the dice thrown after the aim and the card move the ball

    def touched(self, move: Move, player: int, before: dict[str, Any], changed: list[str]) -> list[str]:
        """A shot's choices (aim, card, level, call, time) act on the mover's ball; a hole's alternate
        tee and target, or its dog-leg marker, on their cells; and whatever they changed."""
        match move:
            case HoleCells(tee, target):
                return [*changed, f"cell:{tee}", f"cell:{target}"]
            case Dogleg(cell):
                return [*changed, f"cell:{cell}"] if cell else changed
            case Aim() | Club() | Keep() | Level() | Call() | TimePenalty():
                return [*changed, f"ball:{player}"]
        return changed

    # --- board --------------------------------------------------------------------------------
    def draw_board(
        self, ui: Ui, rect: pygame.Rect, state: GameState, view: dict[str, Any], actions: TableActions
    ) -> None:
        """The board, held inside ``rect`` (a hill or cell edge at the border is cut, not spilt)."""
        clip = ui.surface.get_clip()
        ui.surface.set_clip(rect.clip(clip))
        try:
            self._draw_board(ui, rect, state, view, actions)
        finally:
            ui.surface.set_clip(clip)

    def _draw_board(
        self, ui: Ui, rect: pygame.Rect, state: GameState, view: dict[str, Any], actions: TableActions
    ) -> None:
        m = ui.metrics
        self._time_out(state, view, actions)
        ui.panel(rect, theme.PANEL)
        inner = rect.inflate(-m.pad, -m.pad)
        me = view.get("current_player")
        cards = view.get("cards_left", [])
        mine = cards[me] if me is not None and me < len(cards) else []
        if self.mode == "cards":
            self._draw_cards(ui, inner, mine)
            return
        if self.mode.startswith("card:"):
            number = int(self.mode[5:])
            card = next((c for c in mine if c["number"] == number), None)
            if card is not None:
                self._draw_card_table(ui, inner, card, view, actions)
                return
            self.mode = "board"
        line = ui.font(m.small).get_linesize()
        status = pygame.Rect(inner.x, inner.bottom - line, inner.width, line)
        area = pygame.Rect(inner.x, inner.y, inner.width, inner.height - line - 2)
        board = view["board"]
        g = self.geometry = Geometry(board, area)
        self._draw_cells(ui, g, board, view)
        self._draw_hills(ui, g, board)
        self._draw_counted(ui, g, view)
        self._draw_plan(ui, g, view, state)
        self._draw_balls(ui, g, view, actions)
        self._draw_wind(ui, area, view)
        self._draw_dogleg(ui, g, view)
        self._draw_countdown(ui, area, state, view)
        aiming = view.get("phase") == "aim" and me is not None
        reach = dial_radius(m.target) + max(m.target // 2, (20 if not m.portrait else 24) + 3)
        if not aiming or not self._dial_box(g, view["lies"][me], rect, reach).colliderect(status):
            self._draw_status(ui, status, view, mine)  # (the dial may cover it: then it is left out)
        if aiming:
            self._draw_dial(ui, rect, g, view["lies"][me], state, actions)
            self._draw_balls(ui, g, view, actions)  # no ball hidden under the dial
        else:
            self.dial_centre = None

    def _draw_cells(self, ui: Ui, g: Geometry, board: dict[str, Any], view: dict[str, Any]) -> None:
        s = ui.surface
        holes = view.get("board", {}).get("holes", [])
        number = {h["tee"]: ("T", h["number"]) for h in holes}
        number.update({h["target"]: ("O", h["number"]) for h in holes})
        hole_now = view.get("hole")
        dot = max(1, round(g.u * 0.07))
        for c in board["cells"]:
            p = g.px((c["x"], c["y"]))
            kind = c["kind"]
            fill = FILL.get(kind, FILL["grass"])
            lift = 12 * c.get("level", 0)  # higher ground is lighter
            fill = tuple(min(255, v + lift) for v in fill)
            poly = g.hexagon(p)
            pygame.draw.polygon(s, fill, poly)
            half = round(R_HEX * g.u)
            ui.place(f"cell:{c['cell']}", pygame.Rect(p[0] - half, p[1] - half, 2 * half, 2 * half),
                     (kind, c.get("level", 0)))
            pygame.draw.polygon(s, (40, 60, 40), poly, 1)
            self._symbol(ui, g, p, kind)
            if c["cell"] in number:
                letter, n = number[c["cell"]]
                current = n == hole_now
                ring = theme.SELECTED if current else (245, 245, 245)
                r = max(6, round(g.u * 0.46))
                if letter == "O":  # target: a ringed hole with a flag-like number
                    pygame.draw.circle(s, (20, 20, 20), p, r)
                    pygame.draw.circle(s, ring, p, r, 3 if current else 2)
                else:  # tee: a square plate
                    pygame.draw.rect(s, (230, 230, 220), (p[0] - r, p[1] - r, 2 * r, 2 * r), border_radius=3)
                    pygame.draw.rect(
                        s, ring, (p[0] - r, p[1] - r, 2 * r, 2 * r), 3 if current else 1, border_radius=3
                    )
                size = max(_min_text(ui), round(g.u * 0.9))
                ui.text(str(n), p, size, (240, 240, 240) if letter == "O" else (20, 20, 20), "center")
            else:
                pygame.draw.circle(s, (235, 235, 225), p, dot)

    def _symbol(self, ui: Ui, g: Geometry, p: tuple[int, int], kind: str) -> None:
        """A drawn symbol per cell type, so colour is not the only cue."""
        s, u = ui.surface, g.u
        if kind in TREE_SIZE:
            h = u * TREE_SIZE[kind]
            pygame.draw.polygon(
                s,
                (25, 55, 25),
                [(p[0], p[1] - h), (p[0] + h * 0.8, p[1] + h * 0.7), (p[0] - h * 0.8, p[1] + h * 0.7)],
            )
            pygame.draw.polygon(
                s,
                (170, 210, 150),
                [(p[0], p[1] - h), (p[0] + h * 0.8, p[1] + h * 0.7), (p[0] - h * 0.8, p[1] + h * 0.7)],
                1,
            )
        elif kind == "water":  # two waves
            for dy in (-0.15, 0.15):
                pts = [
                    (p[0] + u * (k / 8 - 0.3), p[1] + u * dy + u * 0.06 * math.sin(k * 1.6)) for k in range(6)
                ]
                pygame.draw.lines(s, (190, 220, 255), False, pts, 1)
        elif kind == "waterfall":  # falling lines
            for dx in (-0.18, 0, 0.18):
                pygame.draw.line(
                    s, (220, 240, 255), (p[0] + u * dx, p[1] - u * 0.32), (p[0] + u * dx, p[1] + u * 0.32), 2
                )

    def _draw_hills(self, ui: Ui, g: Geometry, board: dict[str, Any]) -> None:
        """Each hill line on the edge between an upper and a lower cell, ticks toward the lower one."""
        s = ui.surface
        width = max(2, round(g.u * 0.14))
        for upper, lower in board.get("hill_lines", []):
            a, b = cell_xy(upper), cell_xy(lower)
            if a is None or b is None:
                continue
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            vx, vy = b[0] - a[0], b[1] - a[1]  # unit length: toward the lower cell
            ex, ey = -vy * R_HEX / 2, vx * R_HEX / 2  # along the shared edge
            p1, p2 = g.px((mx + ex, my + ey)), g.px((mx - ex, my - ey))
            pygame.draw.line(s, HILL, p1, p2, width)
            for t in (-0.5, 0, 0.5):  # hachures on the downhill side
                base = (mx + ex * t, my + ey * t)
                tip = (base[0] + vx * 0.18, base[1] + vy * 0.18)
                pygame.draw.line(s, HILL, g.px(base), g.px(tip), max(1, width - 1))

    def _draw_plan(self, ui: Ui, g: Geometry, view: dict[str, Any], state: GameState) -> None:
        s = ui.surface
        me = view.get("current_player")
        plan = view.get("plan") or {}
        path = plan.get("planned_path") or []
        if me is None:
            return
        start = g.cell(view["lies"][me])
        if path and start:
            pts = [start] + [q for q in (g.cell(c) for c in path) if q]
            for a, b in itertools.pairwise(pts):
                _dashed(s, PATH_PLAN, a, b, max(2, round(g.u * 0.12)))
            for q in pts[1:]:
                pygame.draw.circle(s, PATH_PLAN, q, max(2, round(g.u * 0.12)))
            elbow = plan.get("elbow")
            if elbow and g.cell(elbow):
                e = g.cell(elbow)
                r = max(7, round(g.u * 0.4))
                pygame.draw.rect(s, (20, 20, 20), (e[0] - r, e[1] - r, 2 * r, 2 * r))
                pygame.draw.rect(s, PATH_PLAN, (e[0] - r, e[1] - r, 2 * r, 2 * r), 3)
                ui.text("elbow", (e[0], e[1] - r - 1), ui.metrics.small - 4, PATH_PLAN, "midbottom")
        elif view.get("phase") == "aim" and self.direction and start:
            vx, vy = clock_vector(self.direction)
            far = (start[0] + vx * 2000, start[1] + vy * 2000)
            clip = s.get_clip()
            s.set_clip(g.rect)
            _dashed(s, PATH_PLAN, start, far, max(2, round(g.u * 0.12)))
            s.set_clip(clip)
            for mv in state.legal_moves():  # the cells an elbow may sit on
                if (
                    isinstance(mv, Aim)
                    and mv.direction == self.direction
                    and mv.elbow
                    and mv.turn_to == (mv.direction % 12) + 1
                ):
                    e = g.cell(mv.elbow)
                    if e:
                        pygame.draw.circle(s, PATH_PLAN, e, max(3, round(g.u * 0.18)), 2)

    def _draw_counted(self, ui: Ui, g: Geometry, view: dict[str, Any]) -> None:
        """The last shot as counted, dot by dot: each dot numbered in order, legs told apart by a mark."""
        s = ui.surface
        path = view.get("counted_path") or []
        if not path:
            return
        pts = []
        for e in path:
            q = g.cell(e.get("cell", ""))
            if q is not None:
                pts.append((q, e))
        for (a, _), (b, _) in itertools.pairwise(pts):
            pygame.draw.line(s, PATH_COUNT, a, b, max(2, round(g.u * 0.1)))
        r = max(8, round(g.u * 0.32))
        for k, (q, e) in enumerate(pts):
            leg = e.get("leg", "")
            col = LEG_COLOUR.get(leg, PATH_COUNT)
            if leg == "hook":
                pygame.draw.rect(s, col, (q[0] - r, q[1] - r, 2 * r, 2 * r))
            elif leg == "wind":
                pygame.draw.polygon(
                    s, col, [(q[0], q[1] - r), (q[0] + r, q[1]), (q[0], q[1] + r), (q[0] - r, q[1])]
                )
            else:
                pygame.draw.circle(s, col, q, r)
            if k:  # the dots in the order they were counted
                ui.text(str(k), q, max(_min_text(ui), 2 * r), (10, 10, 10), "center")

    def _draw_balls(self, ui: Ui, g: Geometry, view: dict[str, Any], actions: TableActions) -> None:
        lies, holed = view.get("lies", []), view.get("holed", [])
        me = view.get("current_player")
        at: dict[str, list[int]] = {}
        for i, lie in enumerate(lies):
            if not (i < len(holed) and holed[i]):
                at.setdefault(lie, []).append(i)
        r = max(7, round(g.u * 0.36))
        for lie, seats in at.items():
            c = g.cell(lie)
            if c is None:
                continue
            bound = ui.surface.get_clip().inflate(-2 * (r + 6), -2 * (r + 6))
            per_row = min(2, len(seats))  # balls sharing a space: two a row, a square of four at most
            rows = -(-len(seats) // per_row)
            for k, i in enumerate(seats):
                row, col = divmod(k, per_row)
                in_row = min(per_row, len(seats) - row * per_row)
                dx = (col - (in_row - 1) / 2) * r * 2.2
                dy = (row - (rows - 1) / 2) * r * 2.2
                p = (round(min(max(c[0] + dx, bound.left), bound.right)),
                     round(min(max(c[1] + dy, bound.top), bound.bottom)))
                col = actions.colour(i)
                pygame.draw.circle(ui.surface, (250, 250, 250), p, r + 3)
                if i == me:
                    pygame.draw.circle(ui.surface, theme.SELECTED, p, r + 6, 3)
                ui.shape(col.shape, p, r, col.rgb)
                ui.place(f"ball:{i}", pygame.Rect(p[0] - r - 3, p[1] - r - 3, 2 * r + 6, 2 * r + 6), lie)

    def _draw_wind(self, ui: Ui, area: pygame.Rect, view: dict[str, Any]) -> None:
        wind = view.get("wind")
        if not wind:
            return
        m = ui.metrics
        r = 22 if not m.portrait else 34
        c = (area.right - r - 4, area.y + r + 4)
        pygame.draw.circle(ui.surface, (30, 34, 44), c, r + 2)
        pygame.draw.circle(ui.surface, (150, 210, 255), c, r + 2, 2)
        vx, vy = clock_vector(wind["direction"])
        tip = (c[0] + vx * r, c[1] + vy * r)
        tail = (c[0] - vx * r, c[1] - vy * r)
        pygame.draw.line(ui.surface, (150, 210, 255), tail, tip, 4)
        side = (-vy * r * 0.45, vx * r * 0.45)
        back = (tip[0] - vx * r * 0.5, tip[1] - vy * r * 0.5)
        pygame.draw.polygon(
            ui.surface,
            (150, 210, 255),
            [tip, (back[0] + side[0], back[1] + side[1]), (back[0] - side[0], back[1] - side[1])],
        )

    # --- the professional time limit -----------------------------------------------------------
    def seconds_left(self, state: GameState, view: dict[str, Any]) -> float | None:
        """Seconds left in this turn's minute, or None when the player does not play the time limit.
        The minute starts when the view first sees the turn (a new shot or a new player)."""
        me = view.get("current_player")
        players = view.get("players", [])
        timed = (view.get("rules") or {}).get("time_limit", [])
        playing = me is not None and me < len(players) and players[me] in timed
        if not playing or view.get("phase") not in TIMED_PHASES:
            self._turn_key = None
            return None
        shots = sum(1 for e in getattr(state, "log", []) if e.get("kind") == "shot")
        key = (view.get("round"), view.get("hole"), me, shots)
        now = self.clock()
        if key != self._turn_key or now < self._turn_start:  # a new turn (or another clock put in)
            self._turn_key, self._turn_start = key, now
        return max(0.0, TURN_SECONDS - (now - self._turn_start))

    def _time_out(self, state: GameState, view: dict[str, Any], actions: TableActions) -> None:
        """When the minute is up, the table records the time penalty once for the turn."""
        left = self.seconds_left(state, view)
        if left is None or left > 0 or self._turn_key == self._timed_out:
            return
        self._timed_out = self._turn_key
        if not getattr(state, "penalised", False):
            actions.play(TimePenalty())
            actions.say("Time ran out: one penalty stroke")

    def _draw_countdown(self, ui: Ui, area: pygame.Rect, state: GameState, view: dict[str, Any]) -> None:
        left = self.seconds_left(state, view)
        if left is None:
            return
        m = ui.metrics
        text = f"{int(left) // 60}:{int(left) % 60:02d}" if left > 0 else "time!"
        w, h = ui.font(m.small).size("0:00 ")[0] + 8, ui.font(m.small).get_linesize() + 4
        box = pygame.Rect(area.right - w - 2, area.y + 2, w, h)
        colour = theme.BAD if left <= 10 else theme.TEXT
        pygame.draw.rect(ui.surface, theme.PANEL, box, border_radius=6)
        pygame.draw.rect(ui.surface, colour, box, 2, border_radius=6)
        ui.text(text, box.center, m.small, colour, "center")

    def _draw_dogleg(self, ui: Ui, g: Geometry, view: dict[str, Any]) -> None:
        """The dog-leg marker of this hole, a flag-like triangle on its cell."""
        if not view.get("dogleg"):
            return
        c = g.cell(view["dogleg"])
        if c is None:
            return
        pts = g.hexagon(c, 0.45)
        pygame.draw.polygon(ui.surface, (240, 150, 40), [pts[0], pts[2], pts[4]])
        pygame.draw.polygon(ui.surface, (40, 30, 20), [pts[0], pts[2], pts[4]], 2)

    def _draw_status(self, ui: Ui, rect: pygame.Rect, view: dict[str, Any], mine: list[dict]) -> None:
        m = ui.metrics
        wind = view.get("wind")
        hole = f"Hole {view.get('hole')}"
        if view.get("rounds", 1) > 1:
            hole += f" (round {view.get('round')}/{view.get('rounds')})"
        w = f"wind {wind['direction']} o'clock {wind['strength']}" if wind else "no wind"
        playing = (view.get("plan") or {}).get("card_as_played")
        if playing and view.get("phase") != "card":
            cards = f"playing {playing['number']}: {playing['name']}"
        else:
            cards = "cards " + " ".join(str(c["number"]) for c in mine) if mine else "no cards"
        text = ui.words_that_fit([f"{hole} · {w} · {cards}", f"{hole} · {w}", hole], m.small, rect.width)
        ui.text(text, rect.topleft, m.small, theme.TEXT)

    def _dial_box(self, g: Geometry, lie: str, rect: pygame.Rect, reach: int) -> pygame.Rect:
        """Where the dial will be drawn for a ball at ``lie``: kept inside ``rect``."""
        ball = g.cell(lie) or rect.center
        cx = min(max(ball[0], rect.x + reach), rect.right - reach)
        cy = min(max(ball[1], rect.y + reach), rect.bottom - reach)
        return pygame.Rect(cx - reach, cy - reach, 2 * reach, 2 * reach)

    def _draw_dial(
        self, ui: Ui, rect: pygame.Rect, g: Geometry, lie: str, state: GameState, actions: TableActions
    ) -> None:
        """Twelve clock numbers around the ball; the ring is kept inside the board panel."""
        ball = g.cell(lie)
        if ball is None:
            return
        r = 20 if not ui.metrics.portrait else 24  # a clock number's disc
        t = ui.metrics.target
        radius = dial_radius(t)
        reach = radius + max(t // 2, r + 3)
        cx = min(max(ball[0], rect.x + reach), rect.right - reach)
        cy = min(max(ball[1], rect.y + reach), rect.bottom - reach)
        if rect.width < 2 * reach or rect.height < 2 * reach:  # too small: the middle of the board
            cx, cy = rect.center
        self.dial_centre = (cx, cy)
        s = ui.surface
        if (cx, cy) != ball:
            pygame.draw.line(s, theme.SELECTED, (cx, cy), ball, 2)
        legal = {mv.direction for mv in state.legal_moves() if isinstance(mv, Aim)}
        for d in range(1, 13):
            vx, vy = clock_vector(d)
            p = (round(cx + vx * radius), round(cy + vy * radius))
            box = pygame.Rect(0, 0, t, t)
            box.center = p
            chosen = d == self.direction
            ui.add(
                Widget(
                    box,
                    f"aim {d}",
                    lambda d=d: self._pick(d, state, actions),
                    True,
                    f"dosh:aim:{d}",
                    kind="tile",
                )
            )
            pygame.draw.line(
                s,
                (250, 250, 250),
                (round(cx + vx * (radius - r - 10)), round(cy + vy * (radius - r - 10))),
                (round(cx + vx * (radius - r)), round(cy + vy * (radius - r))),
                2,
            )
            pygame.draw.circle(s, theme.SELECTED if chosen else (30, 34, 44), p, r)
            pygame.draw.circle(s, (250, 250, 250) if d in legal else theme.MUTED, p, r, 2)
            ui.text(str(d), p, ui.metrics.small, (20, 20, 20) if chosen else theme.TEXT, "center")

    def _pick(self, d: int, state: GameState, actions: TableActions) -> None:
        if not any(isinstance(mv, Aim) and mv.direction == d for mv in state.legal_moves()):
            actions.why_not(Aim(d))
            return
        self.direction = None if self.direction == d else d
        self.page, self.prefix = 0, ()

    # --- cards --------------------------------------------------------------------------------
    def _draw_cards(self, ui: Ui, rect: pygame.Rect, mine: list[dict]) -> None:
        m = ui.metrics
        ui.text("Cards left: tap one for its table", rect.topleft, m.small, theme.MUTED, width=rect.width)
        top = rect.y + ui.font(m.small).get_linesize() + 4
        cols = 4
        rows = max(1, -(-len(mine) // cols))
        cw = (rect.width - (cols - 1) * m.pad) // cols
        ch = min(120, (rect.bottom - top - (rows - 1) * m.pad) // rows)
        for k, card in enumerate(mine):
            r, c = divmod(k, cols)
            box = pygame.Rect(rect.x + c * (cw + m.pad), top + r * (ch + m.pad), cw, ch)
            self._card_tile(ui, box, card)
            ui.add(
                Widget(
                    box,
                    f"card {card['number']}",
                    lambda n=card["number"]: self._open(n),
                    True,
                    f"dosh:table:{card['number']}",
                    kind="tile",
                )
            )

    def _card_tile(self, ui: Ui, box: pygame.Rect, card: dict) -> None:
        m = ui.metrics
        fill = CARD_FILL.get(card["colour"], theme.BUTTON)
        ui.panel(box, fill, border=(240, 240, 240), width=2)
        ui.text(str(card["number"]), (box.x + 6, box.y + 2), m.body, theme.TEXT)
        ui.text(card["name"], (box.centerx, box.centery), m.small, theme.TEXT, "center", box.width - 6)
        if box.height >= 80:
            ui.text(
                f"avg {card['rating']:g}",
                (box.centerx, box.bottom - 4),
                m.small,
                theme.TEXT,
                "midbottom",
                box.width - 6,
            )

    def _open(self, number: int) -> None:
        self.mode = f"card:{number}"

    def _draw_card_table(
        self, ui: Ui, rect: pygame.Rect, card: dict, view: dict[str, Any], actions: TableActions
    ) -> None:
        """One card: red number, blue Distance and red Hook, in two blocks of six; green boxes marked."""
        m = ui.metrics
        size = m.body if m.portrait else m.small
        line = ui.font(size).get_linesize() + 4
        title = f"{card['colour'].title()} {card['number']}: {card['name']} (avg {card['rating']:g})"
        ui.text(title, rect.topleft, m.body, theme.ACCENT, width=rect.width)
        y = rect.y + ui.font(m.body).get_linesize() + 2
        label_w = ui.font(size).size("Distance")[0] + 8
        cw = (rect.width - label_w) // 6
        green = set(card.get("green", []))
        for block in (range(1, 7), range(7, 13)):
            for row, (label, values, colour) in enumerate(
                (
                    ("Red die", [f"{n}" for n in block], (255, 150, 150)),
                    ("Distance", [str(card["distance"][n - 1]) for n in block], (150, 190, 255)),
                    ("Hook", [card["hook"][n - 1] for n in block], (255, 170, 150)),
                )
            ):
                yy = y + row * line
                ui.text(label, (rect.x, yy), size, colour)
                for k, (n, v) in enumerate(zip(block, values, strict=True)):
                    cell = pygame.Rect(rect.x + label_w + k * cw, yy - 2, cw - 2, line - 2)
                    if row == 0 and n in green:  # a green box: filled and starred, not colour alone
                        pygame.draw.rect(ui.surface, theme.GREEN_BOX, cell, border_radius=4)
                        v = v + "*"
                    ui.text(v, cell.center, size, theme.TEXT, "center")
            y += 3 * line + 6
        ui.paragraph(
            "* green box: landing on the target holes out. Hook L/R: cells to the left/right.",
            pygame.Rect(rect.x, y, rect.width, rect.bottom - m.target - y),
            m.small,
            theme.MUTED,
            max_lines=2,
        )
        bh = m.target
        bw = min(200, (rect.width - m.pad) // 2)
        yb = rect.bottom - bh
        ui.button(
            pygame.Rect(rect.x, yb, bw, bh),
            "< Cards",
            lambda: setattr(self, "mode", "cards"),
            id="dosh:cards",
            size=m.small,
        )
        if view.get("phase") == "card":
            ui.button(
                pygame.Rect(rect.right - bw, yb, bw, bh),
                f"Play card {card['number']}",
                lambda: actions.play(Club(card["number"])),
                id=f"dosh:play:{card['number']}",
                size=m.small,
                colour=theme.GO,
            )

    # --- choices ------------------------------------------------------------------------------
    def draw_choices(
        self, ui: Ui, rect: pygame.Rect, state: GameState, moves: Sequence[Move], actions: TableActions
    ) -> None:
        m = ui.metrics
        phase = getattr(state, "phase", "")
        bh = m.target
        toggle = pygame.Rect(rect.x, rect.bottom - bh, rect.width, bh)
        other = "cards" if self.mode == "board" else "board"
        mode = ("Card tables" if other == "cards" else "Show the board",
                lambda: setattr(self, "mode", other), "dosh:mode")
        directions = phase == "aim" and self.direction is None
        listing = (phase in ("card", "keep") or directions) and m.portrait  # 800x480: a third is too narrow
        if not listing:  # else it shares the page buttons' row
            ui.button(toggle, mode[0], mode[1], id=mode[2], size=m.small)
        area = pygame.Rect(rect.x, rect.y, rect.width, rect.height - bh - m.pad)
        extra = [mv for mv in moves if isinstance(mv, TimePenalty)]
        items = [(self.label(mv), (lambda mv=mv: actions.play(mv)), f"move:{mv}") for mv in extra]
        if phase == "aim":
            if self.direction is None:
                h = ui.paragraph(
                    "Tap a clock number around the ball, or here, to aim", area, m.small, theme.MUTED,
                    max_lines=3,
                )
                # or from the list: the directions as the dial has them (and the time penalty, if
                # played), three a row, the mode button in the page buttons' row in portrait
                bottom = rect.bottom if m.portrait else area.bottom
                rest = pygame.Rect(rect.x, area.y + h + m.pad, rect.width, bottom - area.y - h - m.pad)
                legal = sorted({mv.direction for mv in moves if isinstance(mv, Aim)})
                word = " o'clock" if m.portrait else ""  # landscape: the clock numbers alone, as on the dial
                dirs = [(f"{d}{word}", (lambda d=d: self._pick(d, state, actions)), f"dosh:dir:{d}")
                        for d in legal]
                key = ("dirs", *(t[2] for t in dirs + items))
                if key != self._moves_key:
                    self._moves_key, self.page = key, 0
                turn = lambda p: setattr(self, "page", p)  # noqa: E731
                self.page = paged_buttons(ui, rest, dirs + items, self.page, turn,
                                          columns=3 if m.portrait or not items else None, height=m.target,
                                          middle=mode if m.portrait else None)
                return
            d = self.direction
            straight = Aim(d)
            elbows = [mv for mv in moves if isinstance(mv, Aim) and mv.direction == d and mv.elbow]
            items = [("Aim straight", lambda: actions.play(straight), "dosh:straight"), *items]
            self._sub_choices(ui, area, elbows, items, actions, f"{d} o'clock: straight, or an elbow")
            return
        if phase in ("card", "keep"):
            cls = Club if phase == "card" else Keep
            chosen = [mv for mv in moves if isinstance(mv, cls)]
            cards = (
                {c["number"]: c for c in state.view()["cards_left"][state.current]} if phase == "card" else {}
            )
            tiles = []
            for mv in chosen:
                name = cards.get(mv.number, {}).get("name", "")
                label = (
                    (f"{mv.number}: {name}" if name else f"Card {mv.number}")
                    if phase == "card"
                    else f"Keep {mv.number}"
                )
                tiles.append((label, (lambda mv=mv: actions.play(mv)), f"move:{mv}"))
            hint = "Tap a card to play it" if phase == "card" else "Tap a card to keep it"
            ui.text(hint, area.topleft, m.small, theme.MUTED, width=area.width)
            top = ui.font(m.small).get_linesize() + 4
            bottom = rect.bottom if listing else area.bottom
            grid = pygame.Rect(area.x, area.y + top, area.width, bottom - area.y - top)
            key = ("cards", *(t[2] for t in tiles))
            if key != self._moves_key:
                self._moves_key, self.page = key, 0
            self.page = paged_buttons(
                ui,
                grid,
                tiles + items,
                self.page,
                lambda p: setattr(self, "page", p),
                columns=2,
                height=ui.metrics.target,
                middle=mode if listing else None,
            )
            return
        super().draw_choices(ui, area, state, moves, actions)

    def _sub_choices(
        self, ui: Ui, area: pygame.Rect, elbows: list[Aim], items: list, actions: TableActions, hint: str
    ) -> None:
        """The straight shot first, then the elbows of the chosen direction, grouped by cell."""
        m = ui.metrics
        ui.text(hint, area.topleft, m.small, theme.MUTED, width=area.width)
        top = ui.font(m.small).get_linesize() + 4
        grid = pygame.Rect(area.x, area.y + top, area.width, area.height - top)
        cells = sorted({mv.elbow for mv in elbows if mv.elbow}, key=lambda c: (c[0], int(c[1:])))
        if self.prefix and self.prefix[0] in cells:
            cell = self.prefix[0]
            chosen = [mv for mv in elbows if mv.elbow == cell]
            all_items = [("< Directions", self._set_prefix(()), "group:back")]
            all_items += [
                (f"Elbow {cell}, then {mv.turn_to}", (lambda mv=mv: actions.play(mv)), f"move:{mv}")
                for mv in chosen
            ]
        else:
            all_items = list(items)
            all_items += [(f"Elbow at {c} ...", self._set_prefix((c,)), f"dosh:elbow:{c}") for c in cells]
        key = ("aim", self.direction, self.prefix)
        if key != self._moves_key:
            self._moves_key, self.page = key, 0
        self.page = paged_buttons(ui, grid, all_items, self.page, lambda p: setattr(self, "page", p))


def _min_text(ui: Ui) -> int:
    """The smallest text that is still readable at arm's length on this screen."""
    return 24 if ui.metrics.portrait else 20


def _dashed(s: pygame.Surface, colour, a, b, width: int, dash: int = 8) -> None:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length < 1:
        return
    n = int(length // dash)
    for k in range(0, n, 2):
        p = (a[0] + dx * k / n, a[1] + dy * k / n)
        q = (a[0] + dx * min(k + 1, n) / n, a[1] + dy * min(k + 1, n) / n)
        pygame.draw.line(s, colour, p, q, width)


VIEW = DoshView
